"""Tricky Bridge: the pending decisions of a state (turn) with their legal options.

Legality lives in the options wherever it can: the six pairings (Bridge rule 2), the slots
1-6 with their items (rule 4, exactly 3), the seat's own three bridges for every gained item
(rule 5: the assign shape places every item, so nothing is kept back). Rule citations
("Bridge rule N") use the numbering of RULINGS.md "Tricky Bridge".
"""

from __future__ import annotations

from functools import lru_cache

from referee.kernel import Decision, Field, Option, T, Turn, josa

from .state import (
    CONTRACT,
    DEAL_REFEREE,
    DISTRIBUTE,
    KINDS,
    MARKS,
    OVER,
    PAIRINGS,
    ROOMS_STEP,
    SEATS,
    SLOTS,
    BridgeState,
    canonical_pairing,
    gained,
    kind_label,
    other_end,
    owes_placement,
    own_bridges,
    pairing_label,
    placing,
    room_label,
    supply,
)


def turn(state: BridgeState) -> Turn:
    if state.step == OVER:
        return Turn(T("경기 종료", "Match over"))
    r = state.round
    if state.step == ROOMS_STEP:
        return Turn(T(f"{r}라운드: 회의실 배정", f"Round {r}: the rooms"), (_rooms_decision(state),))
    if state.step == CONTRACT:
        decisions: list[Decision] = []
        unlaid = tuple(room.name for room in state.rooms if room.slots is None)
        if unlaid:
            if state.deal_mode == DEAL_REFEREE:
                decisions.append(Decision("lay_slots", T("자원 배치 (자동)", "Lay out the items (automatic)"), auto=True))
            else:
                decisions.append(_lay_decision(state, unlaid))
        marked = 0
        for room in state.rooms:
            for seat, marks in zip(room.seats, room.marks, strict=True):
                if marks is not None:
                    marked += 1
                elif room.slots is not None and not room.revealed:
                    decisions.append(_mark_decision(room.slots, seat))
        # Who has handed in a contract is public: both players sit at the same table.
        return Turn(T(f"{r}라운드: 협상과 계약", f"Round {r}: negotiation and contracts"), tuple(decisions),
                    sealed=(marked, SEATS))
    if state.step == DISTRIBUTE:
        owing = placing(state)
        decisions = [_place_decision(state, seat) for seat in owing if owes_placement(state, seat)]
        done = sum(1 for s in owing if state.placed[s])
        return Turn(T(f"{r}라운드: 분배", f"Round {r}: distribution"), tuple(decisions), sealed=(done, len(owing)))
    return Turn(T(f"{r}라운드 종료", f"Round {r} over"))


# -- Bridge rule 2: the rooms ----------------------------------------------------------------------


def _rooms_decision(state: BridgeState) -> Decision:
    scheduled = canonical_pairing(state.schedule[state.round - 1])
    assert scheduled is not None
    return _rooms(state.names, state.round, scheduled)


@lru_cache(maxsize=64)
def _rooms(names: tuple[str, ...], round_: int, scheduled: str) -> Decision:
    # The scheduled pairing first; the dealer may pick any other split and room order.
    order = (scheduled,) + tuple(p for p in PAIRINGS if p != scheduled)
    options = []
    for pairing in order:
        label = pairing_label(names, pairing)
        if pairing == scheduled:
            label = T(f"{label.ko} (예정)", f"{label.en} (scheduled)")
        options.append(Option(pairing, label))
    s, b, p = supply(round_)
    return Decision(
        "confirm_rooms",
        T(f"{round_}라운드 회의실 배정을 확인하세요 (자원: 철근 {s}, 벽돌 {b}, 페인트 {p})",
          f"Confirm round {round_}'s rooms (items: steel {s}, brick {b}, paint {p})"),
        (Field("rooms", "one", T("대회의실 | 소회의실", "Big room | small room"), tuple(options)),),
    )


# -- option deal=dealer: the dealer enters a room's slots -------------------------------------------


def implied_kind(round_: int) -> str:
    """The kind the dealer does not enter: the most plentiful one (the last such); the slots not
    named for another kind hold it."""
    counts = supply(round_)
    most = max(counts)
    return [k for k, n in zip(KINDS, counts, strict=True) if n == most][-1]


def entered_kinds(round_: int) -> tuple[tuple[str, int], ...]:
    """The kinds the dealer enters slot by slot for a round, with their counts."""
    implied = implied_kind(round_)
    return tuple((k, n) for k, n in zip(KINDS, supply(round_), strict=True) if n and k != implied)


def _lay_decision(state: BridgeState, unlaid: tuple[str, ...]) -> Decision:
    return _lay(state.round, unlaid)


@lru_cache(maxsize=64)
def _lay(round_: int, unlaid: tuple[str, ...]) -> Decision:
    implied = implied_kind(round_)
    fields = [Field("room", "one", T("회의실", "Room"), tuple(Option(r, room_label(r)) for r in unlaid))]
    for kind, n in entered_kinds(round_):
        label = kind_label(kind)
        fields.append(Field(kind, "some", T(f"{josa(label.ko, '이/가')} 놓인 칸 ({n}개)", f"Slots holding {label.en} ({n})"),
                            _slot_numbers(), k=n, kind="slot"))
    rest = kind_label(implied)
    return Decision(
        "lay_room",
        T(f"회의실 탁자의 칸 1-{SLOTS}에 놓인 자원을 입력하세요 (나머지 칸은 {rest.ko})",
          f"Enter the items on a room's slots 1-{SLOTS} (the other slots hold {rest.en})"),
        tuple(fields),
    )


@lru_cache(maxsize=1)
def _slot_numbers() -> tuple[Option, ...]:
    return tuple(Option(s, T(f"{s}번 칸", f"slot {s}")) for s in range(1, SLOTS + 1))


# -- Bridge rule 4: the contract ---------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _mark_decision(slots: tuple[str, ...], seat: int) -> Decision:
    options = tuple(_slot_option(s, slots[s - 1]) for s in range(1, SLOTS + 1))
    return Decision(
        "mark_contract",
        T(f"계약서: 가져갈 칸 {MARKS}개에 도장을 찍으세요", f"Contract: stamp the {MARKS} slots you want"),
        (Field("slots", "some", T("칸", "Slots"), options, k=MARKS, kind="slot"),),
        seat=seat,
    )


@lru_cache(maxsize=64)
def _slot_option(slot: int, kind: str) -> Option:
    label = kind_label(kind)
    return Option(slot, T(f"{slot}번 칸: {label.ko}", f"slot {slot}: {label.en}"))


# -- Bridge rule 5: the distribution --------------------------------------------------------------------


def _place_decision(state: BridgeState, seat: int) -> Decision:
    return _place(state.names, seat, gained(state, seat))


@lru_cache(maxsize=1024)
def _place(names: tuple[str, ...], seat: int, items: tuple[tuple[int, str], ...]) -> Decision:
    places = tuple(_bridge_option(names, b, seat) for b in own_bridges(seat))
    things = tuple(_slot_option(slot, kind) for slot, kind in items)
    return Decision(
        "place_items",
        T("이번 라운드에 얻은 자원을 내 다리 세 개에 모두 놓으세요", "Place every item gained this round on your three bridges"),
        # Bridge rule 5: every gained item goes to one of the seat's own three bridges; the
        # assign shape refuses a placement that leaves an item out (nothing kept back).
        (Field("placement", "assign", T("자원 → 다리", "Item → bridge"), places, items=things),),
        seat=seat,
    )


def _bridge_option(names: tuple[str, ...], bridge: str, seat: int) -> Option:
    other = other_end(bridge, seat)
    name = names[other] if other < len(names) else ""
    return Option(bridge, T(f"{bridge} 다리 ({name})", f"bridge {bridge} ({name})"))

