"""Tricky Bridge: setup, decide (with the consequences the rules trigger), evolve, result.

Rule citations ("Bridge rule N") use the numbering of RULINGS.md "Tricky Bridge".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.kernel import Actor, Event, Result, Rng, Standing, T, expect, josa, require, with_consequences

from .decisions import entered_kinds, implied_kind, turn
from .state import (
    BIG,
    BRIDGES,
    CONTRACT,
    DEAL_REFEREE,
    DEFAULT_SCHEDULE,
    DISTRIBUTE,
    ENDED,
    KINDS,
    OVER,
    REVEAL_ROUND,
    ROOMS,
    ROOMS_STEP,
    ROUNDS,
    SEATS,
    SLOTS,
    SMALL,
    TIE_PLAYERS,
    BridgeState,
    Placed,
    Room,
    RoundRecord,
    as_dict,
    bridge_seats,
    canonical_pairing,
    contents,
    contract,
    count,
    distributions,
    eliminated,
    gained,
    island,
    kind_label,
    lowest_bridges,
    own_bridges,
    parse_pairing,
    parse_schedule,
    placing,
    ranking,
    replace_at,
    room_label,
    scores_of,
    seat_totals,
    supply,
    supply_items,
)

# -- setup ---------------------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> BridgeState:
    schedule = parse_schedule(options.get("schedule", DEFAULT_SCHEDULE))
    assert schedule is not None  # the option's `accepts` refused anything else
    return BridgeState(
        names=tuple(seats),
        deal_mode=options.get("deal", DEAL_REFEREE),
        schedule=schedule,
        bridge_tie=options.get("bridge_tie", TIE_PLAYERS),
    )


# -- decide --------------------------------------------------------------------------------------


def decide(state: BridgeState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move)
    match move["type"]:
        case "confirm_rooms":
            events = [_rooms(state, move["rooms"])]
        case "lay_slots":
            events = _lay_all(state, rng)
        case "lay_room":
            events = [_lay_room(state, move)]
        case "mark_contract":
            events = [_mark(state, actor.acting_seat, move["slots"])]
        case _:  # "place_items"
            events = [_place(state, actor.acting_seat, move["placement"])]
    return with_consequences(state, events, evolve, _consequence)


def _rooms(state: BridgeState, value: Any) -> Event:
    parsed = parse_pairing(value)
    # Bridge rule 2: two pairs of islands, one for each meeting room.
    require(
        parsed is not None,
        "bridge/bad_rooms",
        f"회의실 배정은 'AB|CD'처럼 대회의실 두 섬과 소회의실 두 섬이어야 합니다: {value!r}",
        f"Rooms must split the islands into two pairs, big room first, like 'AB|CD': {value!r}",
        rooms=value,
    )
    assert parsed is not None
    big, small = parsed
    pairing = canonical_pairing(value)
    return Event("RoomsConfirmed", {
        "round": state.round,
        "pairing": pairing,
        "big": list(big),
        "small": list(small),
        # Bridge rule 3: the round's supply, the same at both tables (public).
        "supply": as_dict(supply(state.round)),
        "scheduled": pairing == canonical_pairing(state.schedule[state.round - 1]),
    })


def _lay_all(state: BridgeState, rng: Rng) -> list[Event]:
    # Option deal=referee: the round's six items lie in slots 1-6 at random, room by room.
    return [
        Event("SlotsLaid", {"round": state.round, "room": room.name, "slots": rng.shuffled(supply_items(state.round))})
        for room in state.rooms
        if room.slots is None
    ]


def _lay_room(state: BridgeState, move: dict[str, Any]) -> Event:
    name = move["room"]
    require(name in ROOMS, "bridge/no_such_room", f"없는 회의실입니다 (big, small): {name!r}",
            f"No such room (big, small): {name!r}", room=name)
    room = next(r for r in state.rooms if r.name == name)
    require(room.slots is None, "bridge/room_already_laid",
            f"{room_label(name).ko}의 자원은 이미 입력되었습니다: {name!r}",
            f"The {room_label(name).en}'s items are already entered: {name!r}", room=name)
    slots: list[str | None] = [None] * SLOTS
    for kind, _ in entered_kinds(state.round):
        for slot in move[kind]:
            _check_slot(slot)
            # Bridge rule 4: one item per slot.
            require(slots[slot - 1] is None, "bridge/slot_twice",
                    f"{slot}번 칸에 {josa(kind_label(slots[slot - 1] or kind).ko, '과/와')} "
                    f"{josa(kind_label(kind).ko, '을/를')} 함께 놓을 수 없습니다",
                    f"Slot {slot} cannot hold both {kind_label(slots[slot - 1] or kind).en} and {kind_label(kind).en}",
                    slot=slot)
            slots[slot - 1] = kind
    # Bridge rule 3: the slots not entered hold the most plentiful kind, so the room holds
    # exactly the round's supply.
    rest = implied_kind(state.round)
    return Event("SlotsLaid", {"round": state.round, "room": name, "slots": [k or rest for k in slots]})


def _check_slot(slot: Any) -> int:
    require(isinstance(slot, int) and not isinstance(slot, bool) and 1 <= slot <= SLOTS, "bridge/no_such_slot",
            f"칸은 1-{SLOTS}번입니다: {slot!r}", f"Slots are numbered 1-{SLOTS}: {slot!r}", slot=slot)
    return slot


def _mark(state: BridgeState, seat: int, slots: list[Any]) -> Event:
    # Bridge rule 4: exactly 3 different slots of the six (the shape checked the 3 and "different").
    for slot in slots:
        _check_slot(slot)
    room = next(r for r in state.rooms if seat in r.seats)
    return Event("ContractMarked", {"round": state.round, "room": room.name, "seat": seat},
                 {"slots": sorted(slots)}, (seat,))


def _place(state: BridgeState, seat: int, placement: dict[str, Any]) -> Event:
    # Bridge rule 5: every item gained this round on one of the seat's own three bridges. The
    # assign shape has checked both (every gained slot is a key, every value an own bridge).
    items = dict(gained(state, seat))
    mine = own_bridges(seat)
    added = {b: as_dict(count(items[int(s)] for s, to in placement.items() if to == b)) for b in mine}
    ordered = {str(s): placement[str(s)] for s in sorted(items)}
    return Event("ItemsPlaced", {"round": state.round, "seat": seat},
                 {"placement": ordered, "added": added}, (seat,))


# -- consequences ---------------------------------------------------------------------------------


def _consequence(state: BridgeState) -> Event | None:
    if state.step == CONTRACT:
        for room in state.rooms:
            if not room.revealed and None not in room.marks:
                return _revealed(state, room)
        return None
    if state.step == DISTRIBUTE and not any(not state.placed[s] for s in placing(state)):
        return Event("RoundEnded", {"round": state.round})
    if state.step == ENDED:
        if state.round == REVEAL_ROUND and state.shown_round is None:
            # Bridge rule 6: after round 3 every bridge's contents become public.
            return Event("BridgesRevealed", {"round": state.round, "final": False,
                                             "bridges": {b: as_dict(contents(state.items, b)) for b in BRIDGES}})
        if state.round < ROUNDS:
            nxt = state.round + 1
            return Event("RoundBegan", {"round": nxt, "scheduled": canonical_pairing(state.schedule[nxt - 1])})
        if state.shown_round != ROUNDS:
            # Bridge rule 6: the game ends after round 6; everything is revealed.
            return Event("BridgesRevealed", {
                "round": state.round,
                "final": True,
                "bridges": {b: as_dict(contents(state.items, b)) for b in BRIDGES},
                "by_seat": {b: [as_dict(contents(state.items, b, s)) for s in bridge_seats(b)] for b in BRIDGES},
                "distributions": distributions(state.items),
            })
        return _scored(state)
    return None


def _revealed(state: BridgeState, room: Room) -> Event:
    # Bridge rule 4: both contracts are revealed together; a slot marked by exactly one player
    # goes to that player, a slot marked by both or by neither is lost.
    assert room.slots is not None
    won, lost = contract(room)
    return Event("ContractsRevealed", {
        "round": state.round,
        "room": room.name,
        "seats": list(room.seats),
        "marks": [sorted(m or ()) for m in room.marks],
        "won": [list(w) for w in won],
        "lost": list(lost),
        "gains": [as_dict(count(room.slots[s - 1] for s in w)) for w in won],
    })


def _scored(state: BridgeState) -> Event:
    # Bridge rule 7: each bridge's best score; rule 8: the lowest bridge's players are out.
    scores = scores_of(state.items)
    points = {b: s.points for b, s in scores.items()}
    out = eliminated(points, state.bridge_tie)
    order = ranking(points, out)
    return Event("BridgesScored", {
        "scores": {b: s.to_json() for b, s in scores.items()},
        "lowest": list(lowest_bridges(points)),
        "out": list(out),
        "advance": [s for s in order if s not in out],
        "totals": list(seat_totals(points)),
        "ranking": list(order),
    })


# -- evolve ---------------------------------------------------------------------------------------


def evolve(state: BridgeState, event: Event) -> BridgeState:
    match event.type:
        case "RoomsConfirmed":
            big, small = tuple(event["big"]), tuple(event["small"])
            return replace(state, step=CONTRACT, pairing=event["pairing"],
                           rooms=(Room(BIG, (big[0], big[1])), Room(SMALL, (small[0], small[1]))))
        case "SlotsLaid":
            return replace(state, rooms=tuple(replace(r, slots=tuple(event["slots"])) if r.name == event["room"] else r
                                              for r in state.rooms))
        case "ContractMarked":
            seat = event["seat"]
            rooms = tuple(replace(r, marks=replace_at(r.marks, r.seats.index(seat), tuple(event["slots"])))
                          if seat in r.seats else r for r in state.rooms)
            return replace(state, rooms=rooms)
        case "ContractsRevealed":
            rooms = tuple(replace(r, revealed=True) if r.name == event["room"] else r for r in state.rooms)
            if all(r.revealed for r in rooms):
                # Bridge rule 5: the distribution follows once both rooms' contracts are in.
                return replace(state, rooms=rooms, step=DISTRIBUTE, placed=(False,) * SEATS)
            return replace(state, rooms=rooms)
        case "ItemsPlaced":
            seat = event["seat"]
            kinds = dict(gained(state, seat))
            new = tuple(Placed(state.round, seat, int(slot), kinds[int(slot)], bridge)
                        for slot, bridge in event["placement"].items())
            return replace(state, placed=replace_at(state.placed, seat, True), items=state.items + new)
        case "RoundEnded":
            assert state.pairing is not None
            record = RoundRecord(state.round, state.pairing, state.rooms)
            return replace(state, step=ENDED, history=state.history + (record,))
        case "BridgesRevealed":
            shown = tuple(tuple(event["bridges"][b][k] for k in KINDS) for b in BRIDGES)
            return replace(state, shown_round=event["round"], shown=shown)  # type: ignore[arg-type]
        case "RoundBegan":
            return replace(state, round=event["round"], step=ROOMS_STEP, pairing=None, rooms=(),
                           placed=(False,) * SEATS)
        case "BridgesScored":
            return replace(state, step=OVER, out=tuple(event["out"]), advance=tuple(event["advance"]))
    return state


# -- result ---------------------------------------------------------------------------------------


def result(state: BridgeState) -> Result | None:
    """Bridge rule 8: the two survivors advance (key 2), the two players of the lowest bridge are
    out. Standings: the survivors are ranks 1-2 and the out players 3-4; within each pair, the
    higher sum of the seat's three bridges' points ranks first, then the better Gallery rank."""
    if state.step != OVER:
        return None
    scores = scores_of(state.items)
    points = {b: s.points for b, s in scores.items()}
    out = state.out
    order = ranking(points, out)
    totals = seat_totals(points)
    standings = tuple(Standing(seat, i + 1, totals[seat]) for i, seat in enumerate(order))
    lowest = lowest_bridges(points)
    low = points[lowest[0]]
    who = ", ".join(island(s) for s in out)
    within = ("진출자와 탈락자 안에서는 자기 다리 세 개의 점수 합, 같으면 갤러리 순위",
              "within the survivors and within the out: the sum of one's three bridges, then the Gallery rank")
    if len(lowest) == 1:
        decided = T(f"최저 다리 {lowest[0]}({low}점)의 {who} 탈락; {within[0]}",
                    f"Lowest bridge {lowest[0]} ({low} points): {who} out; {within[1]}")
    elif state.bridge_tie == TIE_PLAYERS:
        tied = ", ".join(lowest)
        decided = T(f"최저 다리 동점 {tied}({low}점): 그 다리의 선수 중 갤러리 순위가 낮은 {who} 탈락; {within[0]}",
                    f"Lowest bridges tied {tied} ({low} points): of their players the two with the worse Gallery "
                    f"ranks, {who}, are out; {within[1]}")
    else:
        tied = ", ".join(lowest)
        bridge = island(out[0]) + island(out[1])
        decided = T(f"최저 다리 동점 {tied}({low}점): 더 나은 쪽 섬의 갤러리 순위가 낮은 다리 {bridge}의 {who} 탈락; {within[0]}",
                    f"Lowest bridges tied {tied} ({low} points): bridge {bridge}, whose better end has the worse "
                    f"Gallery rank, is out ({who}); {within[1]}")
    return Result(standings, decided, {
        "advance": list(state.advance),
        "out": list(out),
        "key": 2,
        "bridges": {b: {**s.to_json(), "seats": list(bridge_seats(b))} for b, s in scores.items()},
        "lowest": list(lowest),
        "lowest_score": low,
        "tie": len(lowest) > 1,
        "bridge_tie": state.bridge_tie,
        "totals": list(totals),
        "ranking": list(order),
    })

