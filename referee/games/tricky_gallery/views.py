"""Tricky Gallery: what each audience sees (RULINGS.md "Tricky Gallery", secret and public).

- public: names and their 가나다 position, who is still in, who has submitted (not what), the
  works of the round once revealed (kind and owner), the siren, the auction winner and bid,
  the chain as it happens, every gallery by kind (never authenticity), eliminations, and at
  the end the revenues and the ranking.
- seat n: the public part plus its own hand, stickers left, chips, its own submissions with
  their authenticity (and who took them) and its own appraisals.
- dealer: everything, plus the entering queue, the run sheet of the deal and the printable
  sheets (the run sheet and the score sheet, in the shape of COMMON_SHEETS in
  referee/server/service.py; the server renders them as PDFs).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.kernel import Audience

from .state import (
    APPRAISAL_COST,
    AUCTION,
    CHAIN,
    DEAL_REFEREE,
    FAKE,
    GENUINE,
    GENUINE_STICKERS,
    KINDS,
    PREMIUM_PRICE,
    ROUNDS,
    START_CHIPS,
    SUBMIT,
    GalleryState,
    RoundRecord,
    current_picker,
    entering_order,
    final_order,
    fixed_hand,
    kind_label,
    name_order,
    seat_label,
    sorted_hand,
    survivors,
)


def view(state: GalleryState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    index = {seat: i + 1 for i, seat in enumerate(name_order(state))}
    out_round = {e.seat: e.round for e in state.eliminations}
    seats = []
    for seat in range(state.seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "name_index": index[seat],
            "alive": state.alive[seat],
            "eliminated_round": out_round.get(seat),
            # Who has submitted is public (players walk into the room in order, Gallery rule 3).
            "submitted": state.entries[seat] is not None if state.step == SUBMIT and state.alive[seat] else None,
            "gallery": [
                {"kind": w.kind, "from": w.submitter, "round": w.round, **({"genuine": w.genuine} if dealer else {})}
                for w in state.galleries[seat]
            ],
            "gallery_kinds": _kinds(w.kind for w in state.galleries[seat]),
        }
        if audience.sees_seat(seat):
            entry.update(_secrets(state, seat))
        seats.append(entry)
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "step": state.step,
        "entering_order": list(entering_order(state)) if state.round else [],
        "seats": seats,
        "reveal": _reveal(state, dealer),
        "auction": _auction(state),
        "chain": _live_chain(state),
        "picker": current_picker(state),
        # The newest finished round only, and how many there are (the projector's recap and
        # its "round over" moment); every round's record is in the log, for the sheets.
        "newest_round": _record(state.history[-1], dealer) if state.history else None,
        "rounds_done": len(state.history),
        # Every auction's winner and bid so far (public, Gallery rule 5), the current round's
        # once won: a few numbers that outlive the newest round (the hall's predictions read them).
        "auctions": _auctions(state),
        "eliminations": [{"seat": e.seat, "round": e.round, "rank": e.rank, "place": _place(state, e)}
                         for e in state.eliminations],
        "final": _final(state),
    }
    if dealer:
        out["queue"] = _queue(state)
        out["run_sheet"] = run_sheet(state)
        out["appraisals"] = [_appraisal(a) for a in state.appraisals]
        out["sheets"] = {"run_sheet": _run_sheet_doc(state), "score_sheet": _score_sheet_doc(state)}
    return out


def _place(state: GalleryState, elimination: Any) -> int:
    """An eliminated seat's final place, known at its elimination (Gallery rule 12): below
    every survivor and every later elimination; within a round the better chain rank is better."""
    worse = sum(1 for e in state.eliminations
                if (e.round, -e.rank) < (elimination.round, -elimination.rank))
    return state.seats - worse


def _kinds(kinds: Any) -> dict[str, int]:
    listed = list(kinds)
    return {k: listed.count(k) for k in KINDS}


def _secrets(state: GalleryState, seat: int) -> dict[str, Any]:
    submissions = []
    for record in state.history:
        for e in record.entries:
            if e.seat == seat:
                taker = record.chain[record.taken.index(seat)]
                submissions.append({"round": record.round, "kind": e.kind, "genuine": e.genuine, "taken_by": taker})
    current = state.entries[seat]
    if current is not None:
        taker = state.chain[state.taken.index(seat)] if seat in state.taken else None
        submissions.append({"round": state.round, "kind": current.kind, "genuine": current.genuine, "taken_by": taker})
    return {
        "hand": list(state.hands[seat]),
        "stickers": {GENUINE: state.genuine_left[seat], FAKE: state.fake_left[seat]},
        "chips": state.chips[seat],
        "submissions": submissions,
        "appraisals": [_appraisal(a) for a in state.appraisals if a.seat == seat],
    }


def _appraisal(a: Any) -> dict[str, Any]:
    return {"round": a.round, "seat": a.seat, "work": a.work, "kind": a.kind, "genuine": a.genuine}


def _reveal(state: GalleryState, dealer: bool) -> dict[str, Any] | None:
    # Gallery rule 4: kinds and owners once everyone has submitted; the siren as a fact.
    if state.step not in (AUCTION, CHAIN):
        return None
    works = [
        {"seat": e.seat, "kind": e.kind, **({"genuine": e.genuine} if dealer else {})}
        for e in state.entries
        if e is not None
    ]
    return {"round": state.round, "works": works, "siren": state.siren}


def _auction(state: GalleryState) -> dict[str, Any] | None:
    if state.step not in (AUCTION, CHAIN):
        return None
    return {"ties": state.ties, "winner": state.winner, "bid": state.bid, "no_bid": state.no_bid_used}


def _auctions(state: GalleryState) -> list[dict[str, Any]]:
    won = [(r.round, r.winner, r.bid) for r in state.history]
    if state.step == CHAIN:
        won.append((state.round, state.winner, state.bid))
    return [{"round": r, "winner": w, "bid": b} for r, w, b in won]


def _live_chain(state: GalleryState) -> list[dict[str, Any]]:
    if state.step != CHAIN:
        return []
    kinds = {e.seat: e.kind for e in state.entries if e is not None}
    return _chain(state.chain, state.taken, kinds)


def _chain(chain: tuple[int, ...], taken: tuple[int, ...], kinds: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {"rank": i + 1, "seat": picker, "took_from": owner, "kind": kinds[owner]}
        for i, (picker, owner) in enumerate(zip(chain, taken, strict=True))
    ]


def _record(r: RoundRecord, dealer: bool) -> dict[str, Any]:
    kinds = {e.seat: e.kind for e in r.entries}
    return {
        "round": r.round,
        "order": list(r.order),
        "works": [{"seat": e.seat, "kind": e.kind, **({"genuine": e.genuine} if dealer else {})} for e in r.entries],
        "siren": r.siren,
        "winner": r.winner,
        "bid": r.bid,
        "chain": _chain(r.chain, r.taken, kinds),
        "eliminated": list(r.eliminated),
    }


def _final(state: GalleryState) -> dict[str, Any] | None:
    if state.revenues is None:
        return None
    order = final_order(state)
    return {
        "revenues": list(state.revenues),
        "ranking": list(order),
        "advancing": list(order[: min(4, len(survivors(state)))]),
    }


def _queue(state: GalleryState) -> dict[str, Any] | None:
    """Gallery rule 3: the order of entering the submission room, for the dealer's console."""
    if not state.round:
        return None
    rows = [
        {"seat": s, "name": state.names[s],
         "submitted": state.entries[s] is not None}
        for s in entering_order(state)
    ]
    waiting = [r["seat"] for r in rows if not r["submitted"]] if state.step == SUBMIT else []
    return {
        "round": state.round,
        "direction": "ascending" if state.round % 2 == 1 else "descending",
        "rows": rows,
        "next": waiting[0] if waiting else None,
    }


def run_sheet(state: GalleryState) -> dict[str, Any]:
    """What to hand to whom at the start (Gallery rule 1), for the console and a printout."""
    rows = []
    lines = []
    for seat in range(state.seats):
        extra = state.extras[seat]
        works = _kinds(fixed_hand() + ((extra,) if extra else ()))
        rows.append({
            "seat": seat,
            "name": state.names[seat],
            "extra": extra,
            "works": works,
            "stickers": {GENUINE: GENUINE_STICKERS, FAKE: 1},
            "chips": START_CHIPS,
        })
        label = seat_label(state, seat)
        hand = sorted_hand(fixed_hand() + ((extra,) if extra else ()))
        counts = Counter(hand)
        listed_ko = ", ".join(f"{kind_label(k).ko} {counts[k]}" for k in KINDS if counts[k])
        listed_en = ", ".join(f"{kind_label(k).en} {counts[k]}" for k in KINDS if counts[k])
        pending_ko = "" if extra else " (추가 일반 작품 미정)"
        pending_en = "" if extra else " (extra normal work not dealt yet)"
        lines.append({
            "ko": f"{label.ko}: {listed_ko}{pending_ko} / 스티커 진품 {GENUINE_STICKERS}, 가품 1 / 칩 {START_CHIPS}",
            "en": f"{label.en}: {listed_en}{pending_en} / stickers genuine {GENUINE_STICKERS}, fake 1 / chips {START_CHIPS}",
        })
    return {
        "deal": state.deal_mode,
        "dealt": None not in state.extras,
        "seats": rows,
        "lines": lines,
        "totals": {
            "works": _kinds(k for row in rows for k, n in row["works"].items() for _ in range(n)),
            "stickers": {GENUINE: GENUINE_STICKERS * state.seats, FAKE: state.seats},
            "chips": START_CHIPS * state.seats,
        },
    }


# -- printable sheets (dealer only) ------------------------------------------------------------
# The shape of COMMON_SHEETS in referee/server/service.py: {"title", "sections": [{"heading",
# "paragraphs", "table"}]}, texts as {ko, en} or plain strings. Blank cells are left for the
# dealer's pen: the score sheet is printed before a round as well as after it.

Text = dict[str, str]


def _t(ko: str, en: str) -> Text:
    return {"ko": ko, "en": en}


def _kind(kind: str) -> Text:
    return kind_label(kind).to_json()


def _who(state: GalleryState, seat: int) -> str:
    return f"{seat + 1}. {state.names[seat]}"


def _kinds_header() -> list[Text]:
    return [_kind(k) for k in KINDS]


def _run_sheet_doc(state: GalleryState) -> dict[str, Any]:
    """Gallery rule 1 (what to hand whom) and rule 3 (the order of entering), for the table."""
    sheet = run_sheet(state)
    if state.deal_mode == DEAL_REFEREE:
        how = _t("추가 일반 작품 1장은 심판 프로그램이 무작위로 정했습니다. 아래 표 그대로 나눠 주세요.",
                 "The referee drew each seat's extra normal work at random: hand out exactly what the table says.")
    else:
        how = _t("딜러 분배: 남은 일반 작품 9장(종류별 3장)을 섞어 한 장씩 나눠 준 뒤, 받은 작품을 콘솔에 입력하세요.",
                 "Dealer deal: shuffle the 9 normal works left (3 of each kind), hand one to each seat, then enter "
                 "each one in the console.")
    rows: list[list[Any]] = [[_t("자리", "Seat"), _t("이름", "Name"), *_kinds_header(), _t("추가 작품", "Extra work"),
                              _t("스티커 진품 · 가품", "Stickers genuine · fake"), _t("칩", "Chips")]]
    for row in sheet["seats"]:
        rows.append([
            str(row["seat"] + 1),
            row["name"],
            *(str(row["works"][k]) for k in KINDS),
            # The kinds' English names head the columns; a cell keeps to the Korean name.
            kind_label(row["extra"]).ko if row["extra"] else "",
            f"{row['stickers'][GENUINE]} · {row['stickers'][FAKE]}",
            str(row["chips"]),
        ])
    totals = sheet["totals"]
    rows.append([
        _t("합계", "Total"),
        "",
        *(str(totals["works"][k]) for k in KINDS),
        "",
        f"{totals['stickers'][GENUINE]} · {totals['stickers'][FAKE]}",
        str(totals["chips"]),
    ])
    order = name_order(state)
    entering = [[_t("순서", "#"), _t("1·3·5라운드 (가나다 순)", "Rounds 1, 3, 5 (가나다 order)"),
                 _t("2·4라운드 (역순)", "Rounds 2, 4 (reversed)")]]
    for i, (up, down) in enumerate(zip(order, reversed(order), strict=True)):
        entering.append([str(i + 1), _who(state, up), _who(state, down)])
    steps = [
        _t("1. 입장 순서대로 출품실에 들어가 작품 1장과 스티커 1장을 휴대폰으로 제출합니다. 고급 작품에는 가품 스티커를 붙일 수 "
           "없습니다.",
           "1. In the order of entering, each player submits one work and one sticker on the phone. A premium work "
           "never carries the fake sticker."),
        _t("2. 모두 제출하면 작품의 종류와 주인이 공개됩니다. 가품이 2장 이상이면 사이렌이 울립니다.",
           "2. When all have submitted, each work's kind and owner are revealed; two or more fakes sound the siren."),
        _t("3. 서열 1위 경매: 최고 입찰자와 칩 수를 콘솔에 입력합니다 (동점이면 다시 입찰). 칩은 은행으로 갑니다.",
           "3. Auction for rank 1: enter the top bidder and the bid in the console (a tie is re-bid). The chips "
           "go to the bank."),
        _t(f"4. 선택: 1위부터, 가져간 작품의 주인이 다음 차례입니다. 1위의 작품은 마지막 사람이 가져갑니다. 자기 차례에 칩 "
           f"{APPRAISAL_COST}개로 감정할 수 있습니다.",
           f"4. Selection: rank 1 first, then the owner of the work just taken. Rank 1's work goes to the last "
           f"seat. On one's turn, an appraisal costs {APPRAISAL_COST} chips."),
        _t("5. 라운드 끝: 갤러리에 가품이 2장 모인 자리는 즉시 탈락하고 칩, 작품, 스티커를 회수합니다.",
           "5. Round end: a gallery with 2 fakes eliminates its seat at once; collect its chips, works and "
           "stickers."),
        _t(f"6. 5라운드 후 판매: 고급 작품 {PREMIUM_PRICE}억, 같은 종류 진품 n장은 3^(n-1)억. 상위 4명이 진출합니다.",
           f"6. Sale after round 5: premium {PREMIUM_PRICE}억 each, n genuine works of a kind 3^(n-1)억. The top 4 "
           f"advance."),
    ]
    return {
        "title": _t("진행 시트: 트리키 갤러리", "Run sheet: Tricky Gallery"),
        "sections": [
            {"heading": _t("자리별 지급", "What to hand each seat"), "paragraphs": [how], "table": rows},
            {"heading": _t("출품실 입장 순서", "Order of entering the submission room"),
             "paragraphs": [_t("이름의 가나다 순: 홀수 라운드는 오름차순, 짝수 라운드는 내림차순. 탈락한 자리는 빠집니다.",
                               "By name in 가나다 order: ascending in odd rounds, descending in even rounds. "
                               "Eliminated seats drop out.")],
             "table": entering},
            {"heading": _t("라운드 진행", "Each round"), "paragraphs": steps},
        ],
    }


def _authenticity(genuine: bool) -> Text:
    return _t("진품", "genuine") if genuine else _t("가품", "fake")


def _entry_text(kind: str, genuine: bool) -> str:
    # Table cells keep to Korean (the legend above the tables gives the English).
    return f"{kind_label(kind).ko} · {_authenticity(genuine)['ko']}"


def _legend() -> Text:
    return _t("표 안의 작품 이름과 진위는 한국어로 적습니다.",
              "Works and authenticity in the tables are in Korean: "
              + ", ".join(f"{kind_label(k).ko} = {kind_label(k).en}" for k in KINDS) + ", 진품 = genuine, 가품 = fake.")


def _rounds_so_far(state: GalleryState) -> dict[int, dict[str, Any]]:
    """Every round with something on record: the finished ones, then the current one."""
    out: dict[int, dict[str, Any]] = {}
    for r in state.history:
        out[r.round] = {
            "entries": {e.seat: e for e in r.entries},
            "siren": r.siren,
            "winner": r.winner,
            "bid": r.bid,
            "pairs": list(zip(r.chain, r.taken, strict=True)),
            "eliminated": list(r.eliminated),
            "revealed": True,
        }
    if state.round and state.round not in out:
        out[state.round] = {
            "entries": {e.seat: e for e in state.entries if e is not None},
            "siren": state.siren,
            "winner": state.winner,
            "bid": state.bid,
            "pairs": list(zip(state.chain, state.taken, strict=True)),
            "eliminated": [],
            "revealed": state.step in (AUCTION, CHAIN),
        }
    return out


def _score_sheet_doc(state: GalleryState) -> dict[str, Any]:
    """Rounds 1-5 (submissions, auction, chain, eliminations), the galleries and the sale, filled
    with what is known so far and blank elsewhere, for the dealer (it holds every secret)."""
    rounds = _rounds_so_far(state)
    out_round = {e.seat: e.round for e in state.eliminations}
    submissions: list[list[Any]] = [[_t("자리", "Seat"), _t("이름", "Name"),
                                     *(_t(f"{r}라운드", f"Round {r}") for r in range(1, ROUNDS + 1))]]
    for seat in range(state.seats):
        cells: list[Any] = []
        for r in range(1, ROUNDS + 1):
            entry = rounds.get(r, {}).get("entries", {}).get(seat)
            if entry is not None:
                cells.append(_entry_text(entry.kind, entry.genuine))
            elif seat in out_round and r > out_round[seat]:
                cells.append(_t("탈락", "out"))
            else:
                cells.append("")
        submissions.append([str(seat + 1), state.names[seat], *cells])
    sections: list[dict[str, Any]] = [
        {"heading": _t("출품 (딜러 전용: 진위 포함)", "Submissions (dealer only: with authenticity)"),
         "paragraphs": [_legend()], "table": submissions},
    ]
    blank_rows = len(survivors(state))
    for r in range(1, ROUNDS + 1):
        sections.append(_round_section(state, r, rounds.get(r), blank_rows))
    sections.append(_galleries_section(state, out_round))
    sections.append(_sale_section(state, out_round))
    return {"title": _t("점수 기록지: 트리키 갤러리 (딜러 전용)", "Score sheet: Tricky Gallery (dealer only)"),
            "sections": sections}


def _round_section(state: GalleryState, r: int, known: dict[str, Any] | None, blank_rows: int) -> dict[str, Any]:
    blank = "________"
    paragraphs: list[Any] = []
    if known and known["revealed"]:
        paragraphs.append(_t("사이렌: 울림", "Siren: sounded") if known["siren"] else _t("사이렌: 없음", "Siren: none"))
    else:
        paragraphs.append(_t(f"사이렌: 울림 / 없음 {blank}", f"Siren: sounded / none {blank}"))
    if known and known["winner"] is not None:
        who = _who(state, known["winner"])
        paragraphs.append(_t(f"경매: {who} {known['bid']}칩 낙찰 (서열 1위)", f"Auction: {who} wins with {known['bid']} chips (rank 1)")
                          if known["bid"] else _t(f"경매: 입찰 없음, {who} 서열 1위", f"Auction: no bid, {who} is rank 1"))
    else:
        paragraphs.append(_t(f"경매 낙찰자 {blank}   입찰 칩 {blank}", f"Auction winner {blank}   bid {blank}"))
    # A round's record joins the history complete: its eliminations are announced in the same step.
    if known and any(h.round == r for h in state.history):
        names = ", ".join(_who(state, s) for s in known["eliminated"])
        paragraphs.append(_t(f"탈락: {names}", f"Eliminated: {names}") if names else _t("탈락: 없음", "Eliminated: none"))
    else:
        paragraphs.append(_t(f"탈락 {blank}", f"Eliminated {blank}"))
    for a in (a for a in state.appraisals if a.round == r):
        answer = _authenticity(a.genuine)
        paragraphs.append(_t(f"감정: {_who(state, a.seat)} → {_who(state, a.work)}의 {kind_label(a.kind).ko}: {answer['ko']}",
                             f"Appraisal: {_who(state, a.seat)} → {kind_label(a.kind).en} of {_who(state, a.work)}: "
                             f"{answer['en']}"))
    table: list[list[Any]] = [[_t("서열", "Rank"), _t("가져간 자리", "Taker"), _t("작품 주인", "Owner"),
                               _t("작품", "Work"), _t("진위", "Authenticity")]]
    pairs = known["pairs"] if known else []
    entries = known["entries"] if known else {}
    for i, (picker, owner) in enumerate(pairs):
        entry = entries[owner]
        table.append([str(i + 1), _who(state, picker), _who(state, owner), kind_label(entry.kind).ko,
                      _authenticity(entry.genuine)["ko"]])
    rows = len(entries) if known and known["revealed"] else blank_rows
    for i in range(len(pairs), rows):
        table.append([str(i + 1), "", "", "", ""])
    return {"heading": _t(f"{r}라운드", f"Round {r}"), "paragraphs": paragraphs, "table": table}


def _galleries_section(state: GalleryState, out_round: dict[int, int]) -> dict[str, Any]:
    table: list[list[Any]] = [[_t("자리", "Seat"), _t("이름", "Name"), *_kinds_header(), _t("가품", "Fakes"),
                               _t("칩", "Chips"), _t("상태", "Status")]]
    for seat in range(state.seats):
        gallery = state.galleries[seat]
        counts = Counter(w.kind for w in gallery)
        fakes = sum(1 for w in gallery if not w.genuine)
        status = (_t(f"{out_round[seat]}라운드 탈락", f"out in round {out_round[seat]}") if seat in out_round
                  else _t("생존", "in"))
        table.append([str(seat + 1), state.names[seat], *(str(counts[k]) for k in KINDS), str(fakes),
                      str(state.chips[seat]), status])
    return {"heading": _t("갤러리 (지금까지)", "Galleries (so far)"),
            "paragraphs": [_t("탈락한 자리의 작품과 칩은 게임에서 빠집니다.", "An eliminated seat's works and chips leave the game.")],
            "table": table}


def _sale_section(state: GalleryState, out_round: dict[int, int]) -> dict[str, Any]:
    head: list[Any] = [_t("순위", "Rank"), _t("자리", "Seat"), _t("이름", "Name"), _t("수익", "Revenue"),
                       _t("결과", "Result")]
    rule = _t(f"판매: 고급 작품 {PREMIUM_PRICE}억, 같은 종류 진품 n장은 3^(n-1)억, 가품은 0. 동률은 5라운드 서열이 높은 쪽. "
              "상위 4명 진출.",
              f"Sale: premium {PREMIUM_PRICE}억 each, n genuine works of a kind 3^(n-1)억, fakes nothing. Ties go to "
              "the better round-5 rank. The top 4 advance.")
    if state.revenues is None:
        rows = [head] + [[str(i + 1), "", "", "", ""] for i in range(state.seats)]
        return {"heading": _t("최종 판매와 순위", "Final sale and ranking"), "paragraphs": [rule], "table": rows}
    final = _final(state)
    assert final is not None
    rows = [head]
    for i, seat in enumerate(final["ranking"]):
        revenue = state.revenues[seat]
        if seat in final["advancing"]:
            verdict = _t("진출", "advances")
        elif seat in out_round:
            verdict = _t(f"{out_round[seat]}라운드 탈락", f"eliminated in round {out_round[seat]}")
        else:
            verdict = _t("미진출", "does not advance")
        rows.append([str(i + 1), str(seat + 1), state.names[seat], "—" if revenue is None else f"{revenue}억", verdict])
    genuine = [
        _t(f"{_who(state, s)}: " + ", ".join(f"{kind_label(k).ko} 진품 {n}" for k, n in _genuine(state, s).items() if n),
           f"{_who(state, s)}: " + ", ".join(f"{kind_label(k).en} genuine {n}" for k, n in _genuine(state, s).items() if n))
        for s in survivors(state)
    ]
    return {"heading": _t("최종 판매와 순위", "Final sale and ranking"), "paragraphs": [rule, *genuine], "table": rows}


def _genuine(state: GalleryState, seat: int) -> dict[str, int]:
    return {k: sum(1 for w in state.galleries[seat] if w.kind == k and w.genuine) for k in KINDS}
