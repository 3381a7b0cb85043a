"""Tricky Bridge: what each audience sees (RULINGS.md "Tricky Bridge", secret and public).

- public: islands and names (Gallery rank order), the schedule and every round's supply, the
  confirmed rooms, the slot layouts, who has handed in a contract (not what), the revealed
  contracts (marks, slots won, slots lost, gains; the newest round's in the view, every
  round's in the audience's log), who has distributed, the bridges' contents
  as of round 3 once revealed, and at the end every bridge's contents, both endpoints' shares,
  every distribution, the scores, the lowest bridge and who is out.
- seat n: the public part plus its own marks before the reveal, what it still has to place,
  its own distributions, and for each of its three bridges what it knows lies there (its own
  placements; after round 3 the revealed contents plus its own later placements) with the
  score of that and the score if everything it still has to place went there. A bridge is
  shared by two islands: the other endpoint's placements never reach this view until a reveal.
- dealer: everything, plus per bridge both endpoints' placements and the score now, the
  console's panel, the run sheet and the printable sheets (run sheet, score sheet).
"""

from __future__ import annotations

from typing import Any

from referee.kernel import Audience, T

from .decisions import turn
from .state import (
    BRIDGES,
    CONTRACT,
    DEAL_REFEREE,
    DISTRIBUTE,
    KINDS,
    LEFTOVER_POINTS,
    MARKS,
    OVER,
    REVEAL_ROUND,
    ROUNDS,
    SEATS,
    SET_POINTS,
    SLOTS,
    SUPPLY,
    BridgeState,
    Counts,
    Room,
    RoundRecord,
    Score,
    add,
    as_dict,
    bridge_seats,
    canonical_pairing,
    contents,
    contract,
    count,
    distributions,
    gained,
    island,
    kind_label,
    known_contents,
    lowest_bridges,
    other_end,
    owes_placement,
    own_bridges,
    parse_pairing,
    placing,
    ranking,
    room_label,
    room_of,
    score,
    scores_of,
    seat_label,
    seat_totals,
    supply,
)


def view(state: BridgeState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "step": state.step,
        "deal": state.deal_mode,
        "bridge_tie": state.bridge_tie,
        "schedule": list(state.schedule),
        "supply": [as_dict(s) for s in SUPPLY],
        "pairing": state.pairing,
        "seats": [_seat(state, s, audience) for s in range(SEATS)],
        "bridges": [_bridge(state, b, dealer) for b in BRIDGES],
        "rooms": [_room(state.names, r, supply(state.round), dealer) for r in state.rooms],
        # The newest round's contracts (the projector's recap between rounds); every round's
        # with every update grew each screen's payload round after round. The rest is the log's.
        "newest_round": _record(state, state.history[-1], dealer) if state.history else None,
        "revealed_round": state.shown_round,
        "final": _final(state),
    }
    if dealer:
        out["run_sheet"] = run_sheet(state)
        out["panel"] = panel(state)
        out["sheets"] = {"run_sheet": _run_sheet_doc(state), "score_sheet": _score_sheet_doc(state)}
    return out


# -- the seats ------------------------------------------------------------------------------------


def _seat(state: BridgeState, seat: int, audience: Audience) -> dict[str, Any]:
    room = room_of(state, seat)
    marked = None
    if state.step == CONTRACT and room is not None:
        marked = room.marks[room.seats.index(seat)] is not None
    entry: dict[str, Any] = {
        "seat": seat,
        "island": island(seat),
        "name": state.names[seat],
        "gallery_rank": seat + 1,
        "bridges": list(own_bridges(seat)),
        "room": room.name if room is not None else None,
        # Who has handed in a contract and who has distributed is public (Bridge rules 4, 5).
        "marked": marked,
        "placed": state.placed[seat] if state.step == DISTRIBUTE and seat in placing(state) else None,
        "gains": _gains(state, seat),
        "gained": as_dict(_gained_total(state, seat)),
    }
    if audience.sees_seat(seat):
        entry.update(_secrets(state, seat))
    return entry


def _gains(state: BridgeState, seat: int) -> list[dict[str, Any]]:
    """Bridge rule 4: what the seat won in each round whose contracts are revealed (public)."""
    out = []
    for record in state.history:
        out.append({"round": record.round, **as_dict(_won(record.rooms, seat))})
    if state.rooms and state.step in (CONTRACT, DISTRIBUTE):
        room = room_of(state, seat)
        if room is not None and room.revealed:
            out.append({"round": state.round, **as_dict(_won(state.rooms, seat))})
    return out


def _won(rooms: tuple[Room, ...], seat: int) -> Counts:
    room = next(r for r in rooms if seat in r.seats)
    won, _ = contract(room)
    assert room.slots is not None
    slots = room.slots
    return count(slots[s - 1] for s in won[room.seats.index(seat)])


def _gained_total(state: BridgeState, seat: int) -> Counts:
    total: Counts = (0, 0, 0)
    for g in _gains(state, seat):
        total = add(total, (g["steel"], g["brick"], g["paint"]))
    return total


def _secrets(state: BridgeState, seat: int) -> dict[str, Any]:
    room = room_of(state, seat)
    marks = room.marks[room.seats.index(seat)] if room is not None else None
    pending = gained(state, seat) if owes_placement(state, seat) else ()
    pending_counts = count(k for _, k in pending)
    bridges = []
    for b in own_bridges(seat):
        known = known_contents(state, seat, b)
        bridges.append({
            "bridge": b,
            "other": other_end(b, seat),
            "mine": as_dict(contents(state.items, b, seat)),
            "known": as_dict(known),
            # Only at the end does a seat know everything on a shared bridge.
            "complete": state.step == OVER,
            "score": score(known).to_json(),
            "if_all": score(add(known, pending_counts)).to_json() if pending else None,
        })
    placements = [{"round": d["round"], "added": d["added"]}
                  for d in distributions(tuple(i for i in state.items if i.seat == seat))]
    return {
        "my_marks": list(marks) if marks is not None and state.step in (CONTRACT, DISTRIBUTE) else None,
        "to_place": [{"slot": s, "kind": k} for s, k in pending],
        "placements": placements,
        "my_bridges": bridges,
    }


# -- bridges and rooms ------------------------------------------------------------------------------


def _bridge(state: BridgeState, bridge: str, dealer: bool) -> dict[str, Any]:
    shown = state.shown[BRIDGES.index(bridge)] if state.shown is not None else None
    entry: dict[str, Any] = {
        "id": bridge,
        "seats": list(bridge_seats(bridge)),
        # Bridge rule 6: public only as revealed after round 3 (and at the end).
        "contents": as_dict(shown) if shown is not None else None,
        "as_of": state.shown_round,
        "score": score(shown).to_json() if shown is not None else None,
    }
    if dealer:
        now = contents(state.items, bridge)
        entry["now"] = as_dict(now)
        entry["by_seat"] = [as_dict(contents(state.items, bridge, s)) for s in bridge_seats(bridge)]
        entry["score_now"] = score(now).to_json()
    return entry


def _room(names: tuple[str, ...], room: Room, counts: Counts, dealer: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "room": room.name,
        "label": room_label(room.name).to_json(),
        "seats": list(room.seats),
        "supply": as_dict(counts),
        "slots": list(room.slots) if room.slots is not None else None,
        "marked": [m is not None for m in room.marks],
        "submitted": sum(1 for m in room.marks if m is not None),
        "contract": None,
    }
    if room.revealed and room.slots is not None:
        # Bridge rule 4: both contracts revealed together.
        won, lost = contract(room)
        slots = room.slots
        entry["contract"] = {
            "marks": [sorted(m or ()) for m in room.marks],
            "won": [list(w) for w in won],
            "lost": list(lost),
            "gains": [as_dict(count(slots[s - 1] for s in w)) for w in won],
        }
    if dealer:
        entry["marks_now"] = [list(m) if m is not None else None for m in room.marks]
    return entry


def _record(state: BridgeState, record: RoundRecord, dealer: bool) -> dict[str, Any]:
    return {"round": record.round, "pairing": record.pairing,
            "rooms": [_room(state.names, r, supply(record.round), dealer) for r in record.rooms]}


def _final(state: BridgeState) -> dict[str, Any] | None:
    if state.step != OVER:
        return None
    scores = scores_of(state.items)
    points = {b: s.points for b, s in scores.items()}
    lowest = lowest_bridges(points)
    return {
        "bridges": [{"id": b, "seats": list(bridge_seats(b)), "by_seat": [as_dict(contents(state.items, b, s))
                                                                         for s in bridge_seats(b)],
                     **scores[b].to_json(), "lowest": b in lowest} for b in BRIDGES],
        "lowest": list(lowest),
        "lowest_score": points[lowest[0]],
        "tie": len(lowest) > 1,
        "out": list(state.out),
        "advance": list(state.advance),
        "totals": list(seat_totals(points)),
        "ranking": list(ranking(points, state.out)),
        "distributions": distributions(state.items),
    }


# -- the run sheet (structured, for the console) -------------------------------------------------


def run_sheet(state: BridgeState) -> dict[str, Any]:
    """Per round: the supply to lay out at each room, the slot layout when known, who goes where
    (the confirmed pairing, else the scheduled one)."""
    rounds = []
    for r in range(1, ROUNDS + 1):
        rooms = _rooms_of_round(state, r)
        pairing = _pairing_of_round(state, r)
        parsed = parse_pairing(pairing)
        assert parsed is not None
        rounds.append({
            "round": r,
            "supply": as_dict(supply(r)),
            "pairing": pairing,
            "confirmed": rooms is not None,
            "big": list(parsed[0]),
            "small": list(parsed[1]),
            "slots": {room.name: list(room.slots) if room.slots is not None else None for room in rooms or ()},
        })
    return {"deal": state.deal_mode, "rounds": rounds}


def _rooms_of_round(state: BridgeState, r: int) -> tuple[Room, ...] | None:
    for record in state.history:
        if record.round == r:
            return record.rooms
    if r == state.round and state.rooms:
        return state.rooms
    return None


def _pairing_of_round(state: BridgeState, r: int) -> str:
    for record in state.history:
        if record.round == r:
            return record.pairing
    if r == state.round and state.pairing is not None:
        return state.pairing
    scheduled = canonical_pairing(state.schedule[r - 1])
    assert scheduled is not None
    return scheduled


# -- texts shared by the panel and the sheets -------------------------------------------------------

Text = dict[str, Any]


def _t(ko: str, en: str, tone: str | None = None) -> Text:
    out: Text = {"ko": ko, "en": en}
    if tone:
        out["tone"] = tone
    return out


def _text(t: T, tone: str | None = None) -> Text:
    return _t(t.ko, t.en, tone)


def _who(state: BridgeState, seat: int) -> T:
    return seat_label(state, seat)


def _counts(counts: Counts | dict[str, int], empty: tuple[str, str] = ("—", "—")) -> T:
    c = counts if isinstance(counts, tuple) else tuple(counts[k] for k in KINDS)
    parts = [(kind_label(k), n) for k, n in zip(KINDS, c, strict=True) if n]
    if not parts:
        return T(*empty)
    return T(" ".join(f"{label.ko}{n}" for label, n in parts), ", ".join(f"{label.en} {n}" for label, n in parts))


def _name(state: BridgeState, seat: int) -> str:
    """A seat in a printed table cell, the same in both languages: "1. 가람 (A)"."""
    return f"{seat + 1}. {state.names[seat]} ({island(seat)})"


def _pair(state: BridgeState, seats: Any) -> T:
    return T(" · ".join(_who(state, s).ko for s in seats), " · ".join(_who(state, s).en for s in seats))


def _slots_text(slots: tuple[str, ...] | list[str] | None) -> T:
    if slots is None:
        return T("", "")
    return T(" · ".join(f"{i} {kind_label(k).ko}" for i, k in enumerate(slots, 1)),
             " · ".join(f"{i} {kind_label(k).en}" for i, k in enumerate(slots, 1)))


def _slot_list(slots: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(s) for s in slots) if slots else "—"


def _exchanges(s: Score) -> T:
    parts_ko, parts_en = [], []
    if s.paint_to_brick:
        parts_ko.append(f"페인트{2 * s.paint_to_brick}→벽돌{s.paint_to_brick}")
        parts_en.append(f"{2 * s.paint_to_brick} paint → {s.paint_to_brick} brick")
    if s.brick_to_steel:
        parts_ko.append(f"벽돌{2 * s.brick_to_steel}→철근{s.brick_to_steel}")
        parts_en.append(f"{2 * s.brick_to_steel} brick → {s.brick_to_steel} steel")
    if not parts_ko:
        return T("교환 없음", "none")
    return T(", ".join(parts_ko), ", ".join(parts_en))


def _score_text(s: Score) -> T:
    left = _counts(s.leftover, ("남는 것 없음", "nothing left"))
    return T(f"{s.points}점 (세트 {s.sets}, 남음 {left.ko})", f"{s.points} ({s.sets} sets, left {left.en})")


# -- the console's panel (dealer only) ---------------------------------------------------------------


def panel(state: BridgeState) -> list[dict[str, Any]]:
    """Every secret at a glance: rooms and pairings, every mark, every distribution, every bridge
    with both endpoints' placements and its score now."""
    return [
        _panel_now(state),
        _panel_rooms(state),
        _panel_bridges(state),
        _panel_distributions(state),
        _panel_history(state),
    ]


def _panel_now(state: BridgeState) -> dict[str, Any]:
    t = turn(state)
    paragraphs = [_text(t.phase)]
    for d in t.decisions:
        who = T("심판(자동)", "the referee (automatic)") if d.auto else T("딜러", "dealer") if d.seat is None \
            else _who(state, d.seat)
        paragraphs.append(_t(f"대기: {who.ko} — {d.prompt.ko}", f"Waiting: {who.en} — {d.prompt.en}"))
    if state.step == OVER:
        out = ", ".join(_who(state, s).ko for s in state.out)
        out_en = ", ".join(_who(state, s).en for s in state.out)
        paragraphs.append(_t(f"탈락: {out}", f"Out: {out_en}"))
    rows: list[list[Any]] = [[_t("자리", "Seat"), _t("회의실", "Room"), _t("계약 (비밀)", "Contract (secret)"),
                              _t("이번 라운드 획득", "Gained this round"), _t("분배 (비밀)", "Distribution (secret)")]]
    for seat in range(SEATS):
        room = room_of(state, seat)
        if room is None:
            rows.append([_text(_who(state, seat)), "—", "—", "—", "—"])
            continue
        marks = room.marks[room.seats.index(seat)]
        if marks is not None:
            contract_cell = _t(f"{_slot_list(marks)}번 칸", f"slots {_slot_list(marks)}",
                               None if room.revealed else "secret")
        elif room.slots is None:
            contract_cell = _t("자원 배치 대기", "items not laid yet")
        else:
            contract_cell = _t("도장 대기", "waiting", "now")
        items = gained(state, seat)
        got = _text(_counts(count(k for _, k in items), ("없음", "nothing"))) if room.revealed else "—"
        if state.step != DISTRIBUTE or not items:
            dist: Any = "—" if state.step != DISTRIBUTE else _t("분배할 것 없음", "nothing to place")
        elif state.placed[seat]:
            mine = [i for i in state.items if i.round == state.round and i.seat == seat]
            dist = _placement_cell(mine, own_bridges(seat), "secret")
        else:
            dist = _t("분배 대기", "waiting", "now")
        rows.append([_text(_who(state, seat)), _text(room_label(room.name)), contract_cell, got, dist])
    return {"heading": _t(f"{state.round}라운드: 지금", f"Round {state.round}: now"), "paragraphs": paragraphs,
            "table": rows}


def _placement_cell(items: list[Any], bridges: tuple[str, ...], tone: str | None) -> Text:
    parts = [(b, count(i.kind for i in items if i.bridge == b)) for b in bridges]
    parts = [(b, c) for b, c in parts if any(c)]
    ko = " / ".join(f"{b}: {_counts(c).ko}" for b, c in parts) or "—"
    en = " / ".join(f"{b}: {_counts(c).en}" for b, c in parts) or "—"
    return _t(ko, en, tone)


def _panel_rooms(state: BridgeState) -> dict[str, Any]:
    rows: list[list[Any]] = [[_t("회의실", "Room"), _t("선수", "Players"), _t("칸 1-6", "Slots 1-6"),
                              _t("앞 선수 도장", "First player's marks"), _t("뒤 선수 도장", "Second player's marks"),
                              _t("결과", "Outcome")]]
    for room in state.rooms:
        marks = []
        for m in room.marks:
            if m is None:
                marks.append(_t("대기", "waiting", "now") if room.slots is not None else "—")
            else:
                marks.append(_t(_slot_list(m), _slot_list(m), None if room.revealed else "secret"))
        rows.append([_text(room_label(room.name)),
                     _text(_pair(state, room.seats)),
                     _text(_slots_text(room.slots)) if room.slots is not None else _t("배치 대기", "not laid yet", "now"),
                     *marks, _text(_outcome(state, room)) if room.revealed else "—"])
    s, b, p = supply(state.round)
    paragraphs = [_t(f"이번 라운드 자원 (두 회의실 같음): 철근 {s}, 벽돌 {b}, 페인트 {p}",
                     f"This round's items (the same in both rooms): steel {s}, brick {b}, paint {p}")]
    if state.pairing is not None:
        paragraphs.append(_t(f"배정: {state.pairing}", f"Pairing: {state.pairing}"))
    else:
        paragraphs.append(_t(f"배정 확인 대기 (예정: {state.schedule[state.round - 1]})",
                             f"Pairing to confirm (scheduled: {state.schedule[state.round - 1]})"))
    return {"heading": _t("회의실과 계약 (이번 라운드)", "Rooms and contracts (this round)"), "paragraphs": paragraphs,
            "table": rows}


def _outcome(state: BridgeState, room: Room) -> T:
    won, lost = contract(room)
    assert room.slots is not None
    slots = room.slots
    ko, en = [], []
    for seat, marks, w in zip(room.seats, room.marks, won, strict=True):
        got = _counts(count(slots[s - 1] for s in w), ("없음", "nothing"))
        stamped = _slot_list(sorted(marks or ()))
        ko.append(f"{island(seat)} 도장 {stamped} → {_slot_list(w)} ({got.ko})")
        en.append(f"{island(seat)} stamped {stamped} → {_slot_list(w)} ({got.en})")
    ko.append(f"소멸 {_slot_list(lost)}")
    en.append(f"lost {_slot_list(lost)}")
    return T(" / ".join(ko), " / ".join(en))


def _panel_bridges(state: BridgeState) -> dict[str, Any]:
    scores = scores_of(state.items)
    points = {b: s.points for b, s in scores.items()}
    lowest = lowest_bridges(points)
    rows: list[list[Any]] = [[_t("다리", "Bridge"), _t("한쪽 배치", "One end placed"), _t("다른 쪽 배치", "Other end placed"),
                              _t("합계", "Total"), _t("교환", "Exchanges"), _t("점수 지금", "Score now"),
                              _t("공개된 내용", "Public contents")]]
    # Who placed what on a bridge is never public before the end (a reveal shows the totals).
    split = None if state.step == OVER else "secret"
    for b in BRIDGES:
        a, c = bridge_seats(b)
        s = scores[b]
        shown = state.shown[BRIDGES.index(b)] if state.shown is not None else None
        rows.append([
            _t(f"{b}", f"{b}", "bad" if b in lowest and state.items else None),
            _end(state, b, a, split),
            _end(state, b, c, split),
            _text(_counts(s.contents)),
            _text(_exchanges(s)),
            _text(_score_text(s), "bad" if b in lowest and state.items else None),
            _text(_counts(shown)) if shown is not None else _t("비공개", "hidden"),
        ])
    paragraphs = [_t("점수: 세트(철근+벽돌+페인트)마다 100점, 남는 철근 3, 벽돌 2, 페인트 1점; 교환(페인트 2→벽돌 1, 벽돌 2→철근 1)은 "
                     "가장 높은 점수가 되도록 자동 계산.",
                     "Score: 100 per set (steel + brick + paint), leftover steel 3, brick 2, paint 1; the exchanges "
                     "(2 paint → 1 brick, 2 brick → 1 steel) are chosen for the best score.")]
    if state.items:
        low = ", ".join(lowest)
        paragraphs.append(_t(f"지금 최저: {low} ({points[lowest[0]]}점)", f"Lowest now: {low} ({points[lowest[0]]})"))
    return {"heading": _t("다리 (양쪽 배치 포함)", "Bridges (both ends' placements)"), "paragraphs": paragraphs,
            "table": rows}


def _end(state: BridgeState, bridge: str, seat: int, tone: str | None) -> Text:
    placed = _counts(contents(state.items, bridge, seat))
    return _t(f"{island(seat)}: {placed.ko}", f"{island(seat)}: {placed.en}", tone)


def _panel_distributions(state: BridgeState) -> dict[str, Any]:
    rows: list[list[Any]] = [[_t("라운드", "Round"), _t("자리", "Seat"), _t("얻은 것", "Gained"), _t("배치", "Placed")]]
    for r in range(1, state.round + 1):
        for seat in range(SEATS):
            mine = [i for i in state.items if i.round == r and i.seat == seat]
            if not mine:
                continue
            public = state.step == OVER or (r <= REVEAL_ROUND and state.shown_round is not None)
            rows.append([str(r), _text(_who(state, seat)), _text(_counts(count(i.kind for i in mine))),
                         _placement_cell(mine, own_bridges(seat), None if public else "secret")])
    return {"heading": _t("분배 기록", "Distributions"),
            "paragraphs": [_t("1-3라운드 분배는 3라운드 뒤 다리 공개로, 4-6라운드 분배는 경기 끝에 공개됩니다.",
                              "Rounds 1-3 become public with the bridges after round 3; rounds 4-6 at the end.")],
            "table": rows}


def _panel_history(state: BridgeState) -> dict[str, Any]:
    rows: list[list[Any]] = [[_t("라운드", "Round"), _t("배정", "Pairing"), _t("대회의실", "Big room"),
                              _t("소회의실", "Small room")]]
    for record in state.history:
        rooms = {r.name: r for r in record.rooms}
        rows.append([str(record.round), record.pairing,
                     *(_text(_outcome(state, rooms[name])) for name in ("big", "small"))])
    return {"heading": _t("지난 라운드 계약", "Earlier rounds' contracts"), "paragraphs": [], "table": rows}


# -- printable sheets (dealer only) -----------------------------------------------------------------


_LEGEND = _t("표 안의 자원 이름은 한국어로 적습니다.",
             "Items in the tables are in Korean: 철근 = steel, 벽돌 = brick, 페인트 = paint, 교환 없음 = no exchange.")


def _run_sheet_doc(state: BridgeState) -> dict[str, Any]:
    sheet = run_sheet(state)
    islands: list[list[Any]] = [[_t("섬", "Island"), _t("자리 · 이름", "Seat · name"), _t("갤러리 순위", "Gallery rank"),
                                 _t("다리", "Bridges")]]
    for seat in range(SEATS):
        islands.append([island(seat), _name(state, seat), str(seat + 1), ", ".join(own_bridges(seat))])
    if state.deal_mode == DEAL_REFEREE:
        how = _t("칸 배치는 심판 프로그램이 회의실마다 무작위로 정합니다. 배정을 확인하면 아래 표(또는 콘솔)의 칸 순서대로 "
                 "자원을 놓으세요.",
                 "The referee lays each room's items into slots 1-6 at random once the rooms are confirmed: lay "
                 "them as this table (or the console) says.")
    else:
        how = _t("딜러 배치: 회의실마다 자원 6개를 칸 1-6에 놓고, 놓은 대로 콘솔에 입력하세요 (가장 많은 종류는 나머지 칸).",
                 "Dealer layout: lay each room's six items on slots 1-6 and enter them in the console (the most "
                 "plentiful kind fills the slots not entered).")
    rounds: list[list[Any]] = [[_t("라운드", "Round"), _t("자원 (회의실마다)", "Items (per room)"),
                                _t("대회의실", "Big room"), _t("소회의실", "Small room"),
                                _t("대회의실 칸 1-6", "Big room slots 1-6"), _t("소회의실 칸 1-6", "Small room slots 1-6")]]
    for row in sheet["rounds"]:
        note = T("", "") if row["confirmed"] else T(" (예정)", " (scheduled)")
        pair = []
        for key in ("big", "small"):
            names = " · ".join(_name(state, s) for s in row[key])
            pair.append(_t(names + note.ko, names + note.en) if note.ko else names)
        # Table cells keep to Korean item names; the legend above gives the English.
        slots = [_slots_text(row["slots"][name]).ko if row["slots"].get(name) else "" for name in ("big", "small")]
        rounds.append([str(row["round"]), _counts(tuple(row["supply"][k] for k in KINDS)).ko, *pair, *slots])
    steps = [
        _t("1. 라운드 시작: 콘솔에서 회의실 배정을 확인하고, 두 선수씩 대회의실과 소회의실로 보냅니다.",
           "1. Round start: confirm the rooms in the console and send two players to each room."),
        _t(f"2. 회의실마다 그 라운드의 자원 6개를 칸 1-{SLOTS}에 놓습니다 (두 회의실 같은 조합).",
           f"2. Lay the round's six items on slots 1-{SLOTS} in each room (the same items in both rooms)."),
        _t(f"3. 협상 후 두 선수는 휴대폰 계약서에서 칸 {MARKS}개에 도장을 찍습니다. 둘 다 내면 함께 공개됩니다. 한 명만 찍은 칸은 그 "
           "선수의 것, 둘 다 찍었거나 아무도 안 찍은 칸은 소멸합니다.",
           f"3. After negotiating, both players stamp {MARKS} slots on the phone contract; both are revealed together. "
           "A slot stamped by one player goes to that player; by both or neither, it is lost."),
        _t("4. 분배: 얻은 자원이 있는 선수는 딜러룸에서 자기 다리 세 개에 모두 나눠 놓습니다 (남길 수 없음).",
           "4. Distribution: each player who gained something places all of it on their three bridges in the dealer "
           "room (nothing kept back)."),
        _t("5. 3라운드가 끝나면 모든 다리의 자원이 공개됩니다. 6라운드 뒤 점수를 계산하고 최저 다리의 두 선수가 탈락합니다.",
           "5. After round 3 every bridge's contents are revealed. After round 6 the bridges are scored and the "
           "lowest bridge's two players are out."),
    ]
    return {
        "title": _t("진행 시트: 트리키 브릿지", "Run sheet: Tricky Bridge"),
        "sections": [
            {"heading": _t("섬과 다리", "Islands and bridges"),
             "paragraphs": [_t("섬 A-D는 갤러리 1-4위입니다. 다리는 모든 두 섬 사이에 하나씩, 6개입니다.",
                               "Islands A-D are Gallery ranks 1-4. One bridge joins every two islands: six in "
                               "all.")],
             "table": islands},
            {"heading": _t("라운드별 자원과 회의실", "Items and rooms per round"), "paragraphs": [how, _LEGEND],
             "table": rounds},
            {"heading": _t("라운드 진행", "Each round"), "paragraphs": steps},
        ],
    }


def _score_sheet_doc(state: BridgeState) -> dict[str, Any]:
    scores = scores_of(state.items)
    points = {b: s.points for b, s in scores.items()}
    lowest = lowest_bridges(points) if state.items else ()
    over = state.step == OVER
    table: list[list[Any]] = [[_t("다리", "Bridge"), _t("선수", "Players"), _t("철근", "Steel"), _t("벽돌", "Brick"),
                               _t("페인트", "Paint"), _t("교환", "Exchanges"), _t("세트", "Sets"), _t("남음", "Left over"),
                               _t("점수", "Score")]]
    for b in BRIDGES:
        s = scores[b]
        a, c = bridge_seats(b)
        mark = " ◀" if over and b in lowest else ""
        table.append([
            _t(b + mark, b + mark, "bad" if over and b in lowest else None),
            f"{_name(state, a)} · {_name(state, c)}",
            *(str(n) for n in s.contents),
            _exchanges(s).ko,
            str(s.sets),
            _counts(s.leftover).ko,
            str(s.points),
        ])
    rule = _t(f"세트(철근+벽돌+페인트)마다 {SET_POINTS}점, 남는 철근 {LEFTOVER_POINTS['steel']}점, 벽돌 "
              f"{LEFTOVER_POINTS['brick']}점, 페인트 {LEFTOVER_POINTS['paint']}점. 교환(페인트 2→벽돌 1, 벽돌 2→철근 1)은 몇 번이든, "
              "가장 높은 점수가 되도록. 예: (0,3,2) = 101점, (0,0,8) = 101점.",
              f"{SET_POINTS} per set (steel + brick + paint), leftover steel {LEFTOVER_POINTS['steel']}, brick "
              f"{LEFTOVER_POINTS['brick']}, paint {LEFTOVER_POINTS['paint']}. Any number of exchanges (2 paint → 1 "
              "brick, 2 brick → 1 steel), chosen for the best score. E.g. (0,3,2) = 101, (0,0,8) = 101.")
    status = _t("경기 종료: 최종 점수", "Match over: final scores") if over else \
        _t(f"{state.round}라운드 진행 중: 지금까지 놓인 자원 (딜러 전용)", f"Round {state.round} in play: placed so far (dealer only)")
    verdict: list[Any] = []
    blank = "________"
    if over:
        low = ", ".join(lowest)
        verdict.append(_t(f"최저 다리: {low} ({points[lowest[0]]}점)", f"Lowest bridge: {low} ({points[lowest[0]]})"))
        verdict.append(_t("탈락: " + ", ".join(_who(state, s).ko for s in state.out),
                          "Out: " + ", ".join(_who(state, s).en for s in state.out)))
        verdict.append(_t("진출 (두 번째 열쇠): " + ", ".join(_who(state, s).ko for s in state.advance),
                          "Advance (second key): " + ", ".join(_who(state, s).en for s in state.advance)))
        if len(lowest) > 1:
            verdict.append(_t(f"최저 다리 동점 처리: {state.bridge_tie}", f"Tie for the lowest: {state.bridge_tie}"))
    else:
        verdict += [_t(f"최저 다리 {blank}", f"Lowest bridge {blank}"), _t(f"탈락 {blank}", f"Out {blank}"),
                    _t(f"진출 {blank}", f"Advance {blank}")]
    verdict.append(_t("최저 다리가 여럿이면: " + ("그 다리들의 선수 중 갤러리 순위가 낮은 두 명이 탈락 (players)"
                                          if state.bridge_tie == "players" else
                                          "더 나은 쪽 섬의 갤러리 순위가 낮은 다리의 두 선수가 탈락 (bridge)"),
                      "Several lowest bridges: " + ("of their players, the two with the worse Gallery ranks are out "
                                                    "(players)" if state.bridge_tie == "players" else
                                                    "both players of the tied bridge whose better end has the worse "
                                                    "Gallery rank are out (bridge)")))
    dist: list[list[Any]] = [[_t("라운드", "Round"), _t("자리", "Seat"), _t("얻은 것", "Gained"), _t("배치", "Placed")]]
    for r in range(1, ROUNDS + 1):
        for seat in range(SEATS):
            mine = [i for i in state.items if i.round == r and i.seat == seat]
            if mine:
                dist.append([str(r), _name(state, seat), _counts(count(i.kind for i in mine)).ko,
                             _placement_cell(mine, own_bridges(seat), None)["ko"]])
    return {
        "title": _t("점수 기록지: 트리키 브릿지 (딜러 전용)", "Score sheet: Tricky Bridge (dealer only)"),
        "sections": [
            {"heading": _t("다리별 점수", "Score per bridge"), "paragraphs": [status, rule, _LEGEND], "table": table},
            {"heading": _t("최저 다리와 탈락", "The lowest bridge and who is out"), "paragraphs": verdict},
            {"heading": _t("분배 기록 (비밀 포함)", "Distributions (secret included)"), "paragraphs": [], "table": dist},
        ],
    }

