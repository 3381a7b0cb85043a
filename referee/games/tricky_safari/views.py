"""Tricky Safari: what each audience sees (RULINGS.md "Tricky Safari", secret and public).

- public: names, Gallery ranks, each seat's two animals, the round, the play order and whose
  turn (and whether they play or take), each animal's open cards in order and current value,
  the figures left and who took which, every card played, how many cards each seat holds,
  each finished round's scoring, the running scores, and after round 5 the animal sums, ranks
  and bonuses, the totals, the winner, the last and the named opponent.
- seat n: the public part plus its own hand.
- dealer: everything, plus the console's panel (every hand, whose turn, the figures, the
  scores) and the printable sheets (run sheet and score sheet).
"""

from __future__ import annotations

from typing import Any

from referee.kernel import Audience

from .state import (
    ANIMALS,
    BONUS,
    DEAL_REFEREE,
    FIGURES,
    HAND,
    OPEN_HIGH,
    OPEN_LOW,
    PAIRS,
    ROUNDS,
    SafariState,
    animal_label,
    card_id,
    card_label,
    figures_left,
    figures_of,
    open_numbers,
    play_order,
    scores,
    seat_label,
    sorted_cards,
    stage,
    starter_of,
    to_act,
    values,
)


def view(state: SafariState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    running = scores(state)
    seats = []
    for seat in range(state.seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "gallery_rank": state.gallery_ranks[seat],
            "animals": list(PAIRS[seat]),
            "dealt": state.dealt[seat],
            "hand_count": len(state.hands[seat]),
            "figures": list(figures_of(state.takes, seat)),
            "round_points": [r.points[seat] for r in state.history],
            "score": running[seat],
        }
        if audience.sees_seat(seat):
            entry["hand"] = list(state.hands[seat])
        seats.append(entry)
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "step": state.step,
        "starter": starter_of(state.round, state.seats),
        "order": list(play_order(state)),
        "to_act": to_act(state),
        "stage": stage(state),
        "turn_number": len(state.takes) + 1 if to_act(state) is not None else None,
        "animals": _animals(state),
        "plays": [{"seat": p.seat, "animal": p.animal, "number": p.number} for p in state.plays],
        "seats": seats,
        "standings": _standings(state, running),
        "history": [_record(state, r, dealer) for r in state.history],
        "final": _final(state),
        "opponent": state.opponent,
    }
    if dealer:
        out["panel"] = panel(state)
        out["sheets"] = {"run_sheet": run_sheet_doc(state), "score_sheet": score_sheet_doc(state)}
    return out


def _animals(state: SafariState) -> list[dict[str, Any]]:
    left = figures_left(state)
    vals = values(state)
    out = []
    for i, animal in enumerate(ANIMALS):
        shown = open_numbers(state, animal)
        out.append({
            "animal": animal,
            "owners": [s for s in range(state.seats) if animal in PAIRS[s]],
            "opened": state.opened[i],
            "open": list(shown),
            "value": vals[i],
            "figures_left": left[i],
            "taken_by": [t.seat for t in state.takes if t.animal == animal],
            "complete": len(shown) == 6,
        })
    return out


def _standings(state: SafariState, running: tuple[int, ...]) -> list[dict[str, Any]]:
    """The running order: figure points so far, then the better Gallery rank (Safari rule 5's
    tie-break); after round 5 the final order with the totals."""
    if state.final is not None:
        f = state.final
        return [{"seat": s, "place": i + 1, "score": f.totals[s]} for i, s in enumerate(f.order)]
    order = sorted(range(state.seats), key=lambda s: (-running[s], state.gallery_ranks[s]))
    return [{"seat": s, "place": i + 1, "score": running[s]} for i, s in enumerate(order)]


def _record(state: SafariState, r: Any, dealer: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": r.round,
        "starter": r.starter,
        "opened": dict(zip(ANIMALS, r.opened, strict=True)),
        "plays": [{"seat": p.seat, "animal": p.animal, "number": p.number} for p in r.plays],
        "values": dict(zip(ANIMALS, r.values, strict=True)),
        "completed": list(r.completed),
        "figures": [list(figures_of(r.takes, s)) for s in range(state.seats)],
        "points": list(r.points),
    }
    if dealer:
        out["hands"] = [list(h) for h in r.hands]
    return out


def _final(state: SafariState) -> dict[str, Any] | None:
    f = state.final
    if f is None:
        return None
    return {
        "sums": dict(zip(ANIMALS, f.sums, strict=True)),
        "ranks": dict(zip(ANIMALS, f.ranks, strict=True)),
        "animal_bonus": dict(zip(ANIMALS, f.animal_bonus, strict=True)),
        "figure_points": list(f.figure_points),
        "bonuses": list(f.bonuses),
        "totals": list(f.totals),
        "order": list(f.order),
        "winner": f.winner,
        "last": f.last,
    }


# -- shared text helpers ---------------------------------------------------------------------------

Text = dict[str, Any]


def _t(ko: str, en: str, tone: str | None = None) -> Text:
    out: Text = {"ko": ko, "en": en}
    if tone:
        out["tone"] = tone
    return out


def _who(state: SafariState, seat: int, tone: str | None = None) -> Text:
    label = seat_label(state.names, seat)
    return _t(label.ko, label.en, tone)


def _seat(state: SafariState, seat: int) -> str:
    """A seat in a printed table: "2번 김민준" (the names need no English twin)."""
    return seat_label(state.names, seat).ko


def _legend() -> Text:
    return _t("표 안의 동물 이름은 한국어로 적습니다.",
              "Animals in the tables are in Korean: " + ", ".join(f"{animal_label(a).ko} = {animal_label(a).en}"
                                                                 for a in ANIMALS) + ".")


def _cards(cards: Any) -> Text:
    cards = list(cards)
    if not cards:
        return _t("—", "—")
    return _t(", ".join(card_label(c).ko for c in cards), ", ".join(card_label(c).en for c in cards))


def _animal_list(animals: Any) -> Text:
    animals = list(animals)
    if not animals:
        return _t("—", "—")
    return _t(", ".join(animal_label(a).ko for a in animals), ", ".join(animal_label(a).en for a in animals))


def _pair(seat: int) -> Text:
    a, b = PAIRS[seat]
    return _t(f"{animal_label(a).ko}+{animal_label(b).ko}", f"{animal_label(a).en}+{animal_label(b).en}")


def _animal_head() -> list[Text]:
    return [_t(animal_label(a).ko, animal_label(a).en) for a in ANIMALS]


def _by_animal(numbers: Any) -> Text:
    parts = list(zip(ANIMALS, numbers, strict=True))
    return _t(", ".join(f"{animal_label(a).ko} {n}" for a, n in parts),
              ", ".join(f"{animal_label(a).en} {n}" for a, n in parts))


# -- the dealer's panel ----------------------------------------------------------------------------


def waiting_text(state: SafariState) -> Text:
    """What the table waits for now, in words."""
    seat = to_act(state)
    if seat is not None:
        who = seat_label(state.names, seat)
        if stage(state) == "play":
            return _t(f"{state.round}라운드 {len(state.takes) + 1}번째 턴 · {who.ko}: 카드 내기",
                      f"Round {state.round}, turn {len(state.takes) + 1} · {who.en}: play a card", "now")
        return _t(f"{state.round}라운드 {len(state.takes) + 1}번째 턴 · {who.ko}: 피규어 가져가기",
                  f"Round {state.round}, turn {len(state.takes) + 1} · {who.en}: take a figure", "now")
    if state.step == "deal":
        if state.deal_mode == DEAL_REFEREE:
            return _t(f"{state.round}라운드 카드 분배 (자동)", f"Round {state.round}: the referee deals", "now")
        if None in state.opened:
            return _t(f"{state.round}라운드: 동물마다 공개한 카드(1-4)를 입력하세요",
                      f"Round {state.round}: enter each animal's opened card (1-4)", "now")
        return _t(f"{state.round}라운드: 자리별 카드 5장을 입력하세요", f"Round {state.round}: enter each seat's 5 cards",
                  "now")
    if state.step == "break" and state.round >= ROUNDS:
        return _t(f"{ROUNDS}라운드 종료: 점수를 발표한 뒤 최종 집계(동물 순위, 보너스, 총점)를 공개하세요",
                  f"Round {ROUNDS} over: announce the scores, then reveal the final scoring (animal ranking, bonuses, "
                  "totals)", "now")
    if state.step == "break":
        return _t(f"{state.round}라운드 종료: 점수를 발표하고 카드와 피규어를 거둔 뒤 {state.round + 1}라운드를 시작하세요",
                  f"Round {state.round} over: announce the scores, collect cards and figures, then begin round "
                  f"{state.round + 1}", "now")
    if state.step == "naming" and state.final is not None:
        who = seat_label(state.names, state.final.winner)
        return _t(f"우승자 {who.ko}: 트리키 코인 상대를 지목할 차례", f"Winner {who.en}: to name the Tricky Coin opponent",
                  "now")
    return _t("경기 종료", "Match over")


def panel(state: SafariState) -> list[dict[str, Any]]:
    """The console's summary of every secret and of what the table waits for."""
    now = to_act(state)
    running = scores(state)
    hands: list[list[Any]] = [[_t("자리", "Seat"), _t("갤러리 순위", "Gallery rank"), _t("동물", "Animals"),
                               _t("손패 (비공개)", "Hand (secret)"), _t("이번 라운드 피규어", "Figures this round"),
                               _t("점수", "Score")]]
    for seat in range(state.seats):
        hand = _cards(state.hands[seat]) if state.dealt[seat] else _t("아직 안 받음", "not dealt yet")
        hands.append([
            _who(state, seat, "now" if seat == now else None),
            str(state.gallery_ranks[seat]),
            _pair(seat),
            {**hand, "tone": "secret"},
            _animal_list(figures_of(state.takes, seat)),
            str(running[seat]),
        ])
    animals: list[list[Any]] = [[_t("동물", "Animal"), _t("현재 가치", "Value"), _t("공개된 카드 (순서대로)", "Open cards (in order)"),
                                 _t("남은 피규어", "Figures left"), _t("가져간 자리", "Taken by")]]
    left = figures_left(state)
    vals = values(state)
    for i, animal in enumerate(ANIMALS):
        shown = open_numbers(state, animal)
        takers = [seat_label(state.names, t.seat) for t in state.takes if t.animal == animal]
        animals.append([
            _t(animal_label(animal).ko, animal_label(animal).en, "good" if len(shown) == 6 else None),
            "—" if vals[i] is None else str(vals[i]),
            f"{' → '.join(map(str, shown))} ({len(shown)}/6)" if shown else "—",
            f"{left[i]}/{FIGURES}",
            _t(", ".join(w.ko for w in takers) or "—", ", ".join(w.en for w in takers) or "—"),
        ])
    sections: list[dict[str, Any]] = [
        {"heading": _t("지금", "Now"), "paragraphs": [waiting_text(state)]},
        {"heading": _t(f"{state.round}라운드: 손패와 피규어", f"Round {state.round}: hands and figures"), "table": hands},
        {"heading": _t("동물", "Animals"), "table": animals},
        {"heading": _t("점수", "Scores"), "table": _score_table(state)},
    ]
    if state.final is not None:
        sections.append(_final_section(state))
    return sections


def _score_table(state: SafariState) -> list[list[Any]]:
    rows: list[list[Any]] = [[_t("자리", "Seat"), *(_t(f"{r}R", f"R{r}") for r in range(1, ROUNDS + 1)),
                              _t("피규어 합계", "Figure points"), _t("보너스", "Bonus"), _t("총점", "Total")]]
    f = state.final
    running = scores(state)
    for seat in range(state.seats):
        per_round = [str(r.points[seat]) for r in state.history] + [""] * (ROUNDS - len(state.history))
        rows.append([
            _who(state, seat),
            *per_round,
            str(running[seat]),
            str(f.bonuses[seat]) if f else "",
            str(f.totals[seat]) if f else "",
        ])
    return rows


def _final_section(state: SafariState) -> dict[str, Any]:
    f = state.final
    assert f is not None
    ranking: list[list[Any]] = [[_t("동물", "Animal"), _t("합계", "Sum"), _t("순위", "Rank"), _t("보너스", "Bonus"),
                                 _t("받는 자리", "Held by")]]
    for i, animal in enumerate(ANIMALS):
        owners = [seat_label(state.names, s) for s in range(state.seats) if animal in PAIRS[s]]
        ranking.append([_t(animal_label(animal).ko, animal_label(animal).en), str(f.sums[i]), str(f.ranks[i]),
                        str(f.animal_bonus[i]),
                        _t(", ".join(w.ko for w in owners), ", ".join(w.en for w in owners))])
    winner, last = seat_label(state.names, f.winner), seat_label(state.names, f.last)
    lines = [_t(f"우승: {winner.ko} · 최하위: {last.ko}", f"Winner: {winner.en} · Last: {last.en}", "good")]
    if state.opponent is not None:
        opp = seat_label(state.names, state.opponent)
        lines.append(_t(f"트리키 코인 상대: {opp.ko}", f"Tricky Coin opponent: {opp.en}", "good"))
    else:
        lines.append(_t("트리키 코인 상대: 지목 대기", "Tricky Coin opponent: not named yet", "now"))
    return {"heading": _t("최종: 동물 순위와 보너스", "Final: animal ranking and bonuses"), "paragraphs": lines,
            "table": ranking}


# -- printable sheets (dealer only) ----------------------------------------------------------------


def run_sheet_doc(state: SafariState) -> dict[str, Any]:
    """The seating steps, what to lay out, and per round the openings and the deal."""
    seating: list[list[Any]] = [[_t("고르는 순서", "Choosing order"), _t("갤러리 순위", "Gallery rank"), _t("이름", "Name"),
                                 _t("고른 순서 (자리)", "Play order chosen (seat)"), _t("동물 카드", "Animal cards"),
                                 _t("선 라운드", "Starts round")]]
    for i, seat in enumerate(sorted(range(state.seats), key=lambda s: state.gallery_ranks[s])):
        seating.append([str(i + 1), str(state.gallery_ranks[seat]), state.names[seat], f"{seat + 1}", _pair(seat)["ko"],
                        _t(f"{seat + 1}라운드", f"round {seat + 1}") if seat < ROUNDS else "—"])
    steps = [
        _t(f"1. 라운드 시작: 동물마다 1-{OPEN_HIGH} 카드 중 한 장을 공개합니다. 나머지 25장을 섞어 한 사람에게 {HAND}장씩 "
           "나눠 줍니다 (손패는 비공개).",
           f"1. Round start: for each animal one of its cards {OPEN_LOW}-{OPEN_HIGH} is opened. The other 25 cards are "
           f"shuffled and dealt {HAND} per seat (hands are secret)."),
        _t(f"2. 동물 피규어는 동물마다 {FIGURES}개씩, 25개를 가운데에 둡니다.",
           f"2. The figures, {FIGURES} per animal (25), stand in the middle."),
        _t("3. 선 플레이어부터 자리 순서대로: 카드 한 장을 내고 (그 동물의 가치가 카드 숫자가 됩니다), 남은 피규어 하나를 "
           "가져갑니다.",
           "3. From the starting seat on around: play one card (its animal's value becomes its number), then take "
           "one figure left."),
        _t("4. 한 턴이 끝났을 때 어떤 동물의 카드 6장이 모두 공개되어 있으면 라운드가 끝납니다. 피규어 하나마다 그 동물의 "
           "마지막 공개 숫자만큼 점수를 받습니다.",
           "4. When a turn ends with some animal's six cards all open, the round ends. Each figure scores its "
           "animal's last opened number."),
        _t("5. 점수를 발표하고 카드와 피규어를 모두 거둔 뒤 콘솔에서 다음 라운드를 시작합니다. 5라운드 후에는 콘솔에서 최종 "
           f"집계를 공개합니다: 동물 합계 순위로 보너스 {'/'.join(map(str, BONUS))}점. 우승자가 트리키 코인 상대를 "
           "지목합니다 (최하위 제외).",
           "5. Announce the scores, collect every card and figure, then begin the next round in the console. After "
           "round 5, reveal the final scoring in the console: the animals are ranked by their sums for bonuses "
           f"{'/'.join(map(str, BONUS))}. The winner names the Tricky Coin opponent (not the last)."),
    ]
    if state.deal_mode == DEAL_REFEREE:
        how = _t("심판 프로그램이 공개 카드와 손패를 무작위로 정했습니다. 아래 표 그대로 공개하고 나눠 주세요.",
                 "The referee drew the openings and the hands at random: open and hand out exactly what the tables say.")
    else:
        how = _t("딜러 분배: 동물마다 1-4 카드 중 한 장을 무작위로 공개하고, 나머지 25장을 섞어 나눠 준 뒤 콘솔에 입력하세요.",
                 "Dealer deal: open one random card 1-4 per animal, shuffle and deal the other 25, then enter them in "
                 "the console.")
    sections: list[dict[str, Any]] = [
        {"heading": _t("자리 정하기", "Seating"),
         "paragraphs": [_t("갤러리 순위가 높은 사람부터 1-5번 중 자기 순서를 고릅니다. 콘솔은 고른 순서대로 앉힙니다. "
                           "동물 카드 2장은 공개로 나눠 줍니다.",
                           "In Gallery rank order each player chooses a play order 1-5; the console seats them in the "
                           "chosen order. Each seat's two animal cards are handed out face up.")],
         "table": seating},
        {"heading": _t("진행", "How a round goes"), "paragraphs": [how, *steps, _legend()]},
    ]
    dealt = {r.round: (r.opened, r.hands) for r in state.history}
    if state.round not in dealt and None not in state.opened:
        dealt[state.round] = (tuple(n for n in state.opened if n is not None),
                              tuple(_as_dealt(state, s) if state.dealt[s] else () for s in range(state.seats)))
    for r in range(1, ROUNDS + 1):
        starter = starter_of(r, state.seats)
        known = dealt.get(r)
        opened = _by_animal(known[0]) if known else _t("공개 카드: " + ", ".join(f"{animal_label(a).ko} __" for a in ANIMALS),
                                                       "Opened: " + ", ".join(f"{animal_label(a).en} __" for a in ANIMALS))
        table: list[list[Any]] = [[_t("자리", "Seat"), _t(f"카드 {HAND}장", f"{HAND} cards")]]
        for seat in range(state.seats):
            hand = known[1][seat] if known else ()
            table.append([_seat(state, seat), _cards(hand)["ko"] if hand else ""])
        sections.append({
            "heading": _t(f"{r}라운드 (선: {seat_label(state.names, starter).ko})",
                          f"Round {r} (starts: {seat_label(state.names, starter).en})"),
            "paragraphs": [opened],
            "table": table,
        })
    return {"title": _t("진행 시트: 트리키 사파리", "Run sheet: Tricky Safari"), "sections": sections}


def _as_dealt(state: SafariState, seat: int) -> tuple[str, ...]:
    played = tuple(card_id(p.animal, p.number) for p in state.plays if p.seat == seat)
    return sorted_cards(state.hands[seat] + played)


def score_sheet_doc(state: SafariState) -> dict[str, Any]:
    """Per round and per player the figures and points; the animal sums, ranks, bonuses; totals."""
    sections: list[dict[str, Any]] = []
    records = {r.round: r for r in state.history}
    for r in range(1, ROUNDS + 1):
        record = records.get(r)
        head = [_t("자리", "Seat"), *_animal_head(), _t("점수", "Points")]
        table: list[list[Any]] = [head]
        if record is not None:
            table.append([_t("라운드 끝 가치", "Round-end value"), *(str(v) for v in record.values), ""])
        else:
            table.append([_t("라운드 끝 가치", "Round-end value"), *([""] * len(ANIMALS)), ""])
        for seat in range(state.seats):
            if record is not None:
                figs = figures_of(record.takes, seat)
                table.append([_seat(state, seat), *(str(figs.count(a)) if figs.count(a) else "" for a in ANIMALS),
                              str(record.points[seat])])
            else:
                table.append([_seat(state, seat), *([""] * len(ANIMALS)), ""])
        paragraphs = [_t("칸: 가져간 피규어 수. 점수 = 피규어마다 그 동물의 라운드 끝 가치.",
                         "Cells: figures taken. Points = each figure's animal's round-end value.")]
        if record is not None and record.completed:
            paragraphs.append(_t(f"6장 모두 공개: {_animal_list(record.completed)['ko']}",
                                 f"All six open: {_animal_list(record.completed)['en']}"))
        sections.append({"heading": _t(f"{r}라운드", f"Round {r}"), "paragraphs": paragraphs, "table": table})
    f = state.final
    animals: list[list[Any]] = [[_t("동물", "Animal"), *(_t(f"{r}R", f"R{r}") for r in range(1, ROUNDS + 1)),
                                 _t("합계", "Sum"), _t("순위", "Rank"), _t("보너스", "Bonus")]]
    for i, animal in enumerate(ANIMALS):
        per_round = [str(records[r].values[i]) if r in records else "" for r in range(1, ROUNDS + 1)]
        animals.append([_t(animal_label(animal).ko, animal_label(animal).en), *per_round,
                        str(f.sums[i]) if f else "", str(f.ranks[i]) if f else "", str(f.animal_bonus[i]) if f else ""])
    sections.append({
        "heading": _t("동물 합계와 순위", "Animal sums and ranks"),
        "paragraphs": [_t(f"합계가 높은 순서로 1-5위. 동률이면 가능한 순위 중 가장 낮은 순위를 함께 받습니다. 보너스 "
                          f"{'/'.join(map(str, BONUS))}점.",
                          f"Ranks 1-5 by sum, highest first; tied animals all take the lowest rank of their block. "
                          f"Bonus {'/'.join(map(str, BONUS))}.")],
        "table": animals,
    })
    totals: list[list[Any]] = [[_t("순위", "Place"), _t("자리", "Seat"), _t("갤러리 순위", "Gallery rank"),
                                _t("피규어 점수", "Figure points"), _t("보너스", "Bonus"), _t("총점", "Total"),
                                _t("결과", "Result")]]
    running = scores(state)
    order = f.order if f else tuple(range(state.seats))
    for i, seat in enumerate(order):
        verdict: Any = ""
        if f is not None:
            if seat == f.winner:
                verdict = _t("우승", "winner")
            elif seat == f.last:
                verdict = _t("최하위", "last")
            if seat == state.opponent:
                verdict = _t("트리키 코인 상대", "Tricky Coin opponent")
        totals.append([str(i + 1) if f else "", _seat(state, seat), str(state.gallery_ranks[seat]),
                       str(f.figure_points[seat]) if f else (str(running[seat]) if state.history else ""),
                       str(f.bonuses[seat]) if f else "", str(f.totals[seat]) if f else "", verdict])
    sections.append({
        "heading": _t("최종 점수", "Final scores"),
        "paragraphs": [_t("총점이 같으면 갤러리 순위가 높은 쪽이 앞섭니다. 우승자는 최하위를 뺀 한 명을 트리키 코인 상대로 "
                          "지목합니다.",
                          "Equal totals go to the better Gallery rank. The winner names a Tricky Coin opponent, not "
                          "the last.")],
        "table": totals,
    })
    return {"title": _t("점수 기록지: 트리키 사파리", "Score sheet: Tricky Safari"), "sections": sections}
