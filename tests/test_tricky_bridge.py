"""Tricky Bridge (seed 000 section 4, RULINGS.md "Tricky Bridge" rules 1-8): pure unit tests.

The game is driven through its pure functions (setup / decide / evolve / turn / view / result);
the referee's automatic layout goes through the real Table runtime on the in-memory store where
the runtime matters, and through `decide` with the referee as the actor elsewhere.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from itertools import product
from typing import Any

import pytest

from referee.games.tricky_bridge import GAME
from referee.games.tricky_bridge.decisions import entered_kinds, implied_kind
from referee.games.tricky_bridge.state import (
    BRIDGES,
    SUPPLY,
    BridgeState,
    eliminated,
    own_bridges,
    score,
    supply_items,
)
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table

NAMES = ("가람", "나래", "다솜", "라온")
# The runtime gets this game only: a table is independent of the other games being registered.
GAMES = {GAME.id: GAME}
S, B, P = "steel", "brick", "paint"
A_, B_, C_, D_ = 0, 1, 2, 3  # the seats of islands A-D


# -- helpers -------------------------------------------------------------------------------------


def apply(state: BridgeState, actor: Actor, move: dict[str, Any], seed: int = 0) -> tuple[BridgeState, list[Event]]:
    events = GAME.decide(state, actor, move, Rng(seed))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def dealer(state: BridgeState, move: dict[str, Any]) -> tuple[BridgeState, list[Event]]:
    return apply(state, Actor.dealer(), move)


def new_game(options: dict[str, Any] | None = None) -> BridgeState:
    return GAME.setup(NAMES, GAME.resolve_options({"deal": "dealer", **(options or {})}, 4), Rng.forbidden())


def confirm(state: BridgeState, rooms: str | None = None) -> tuple[BridgeState, list[Event]]:
    return dealer(state, {"type": "confirm_rooms", "rooms": rooms or state.schedule[state.round - 1]})


def lay_move(round_: int, room: str, kinds: list[str]) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "lay_room", "room": room}
    for kind, _ in entered_kinds(round_):
        move[kind] = [i + 1 for i, k in enumerate(kinds) if k == kind]
    return move


def lay(state: BridgeState, room: str, kinds: list[str]) -> tuple[BridgeState, list[Event]]:
    return dealer(state, lay_move(state.round, room, kinds))


def mark(state: BridgeState, seat: int, slots: list[int]) -> tuple[BridgeState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "mark_contract", "slots": slots})


def place(state: BridgeState, seat: int, placement: dict[int, str]) -> tuple[BridgeState, list[Event]]:
    move = {"type": "place_items", "placement": {str(k): v for k, v in placement.items()}}
    return apply(state, Actor.of_seat(seat), move)


def referee_lay(state: BridgeState, seed: int = 0) -> tuple[BridgeState, list[Event]]:
    return apply(state, Actor.referee(), {"type": "lay_slots"}, seed)


def sorted_layout(round_: int) -> list[str]:
    return supply_items(round_)  # steel first, then brick, then paint


def rule_error(state: BridgeState, actor: Actor, move: dict[str, Any]) -> RuleError:
    before = state
    with pytest.raises(RuleError) as info:
        apply(state, actor, move)
    assert state == before
    return info.value


def options(state: BridgeState, seat: int | None, move: str, field: int = 0) -> list[Any]:
    (decision,) = [d for d in GAME.turn(state).decisions if d.move == move and d.seat == seat]
    return [o.value for o in decision.fields[field].options]


def decision(state: BridgeState, seat: int | None, move: str):
    (found,) = [d for d in GAME.turn(state).decisions if d.move == move and d.seat == seat]
    return found


def public(state: BridgeState) -> dict[str, Any]:
    return GAME.view(state, Audience.public())


def seat_view(state: BridgeState, seat: int) -> dict[str, Any]:
    return GAME.view(state, Audience.of_seat(seat))


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def first_last_round(state: BridgeState, plan: Callable[[int, int], str]) -> tuple[BridgeState, list[Event]]:
    """One round: the scheduled rooms, the items laid steel-brick-paint in slots 1-6, the first
    player of each room marks 1-3 and the second 4-6 (each wins its three), and each player puts
    everything it gained on the bridge `plan(round, seat)`."""
    state, _ = confirm(state)
    for room in ("big", "small"):
        state, _ = lay(state, room, sorted_layout(state.round))
    for room in state.rooms:
        state, _ = mark(state, room.seats[0], [1, 2, 3])
        state, _ = mark(state, room.seats[1], [4, 5, 6])
    events: list[Event] = []
    r = state.round
    for room in state.rooms:
        for seat, slots in zip(room.seats, ((1, 2, 3), (4, 5, 6)), strict=True):
            state, ev = place(state, seat, {s: plan(r, seat) for s in slots})
            events += ev
    return state, events


def play_match(plan: Callable[[int, int], str],
               options: dict[str, Any] | None = None) -> tuple[BridgeState, list[Event]]:
    state = new_game(options)
    events: list[Event] = []
    for _ in range(6):
        state, ev = first_last_round(state, plan)
        events += ev
    return state, events


# Everyone puts everything on one bridge: A on AB, B on BC, C on CD, D on AD. AC and BD stay empty.
ONE_BRIDGE = {A_: "AB", B_: "BC", C_: "CD", D_: "AD"}


def one_bridge(r: int, seat: int) -> str:
    return ONE_BRIDGE[seat]


def d_to_bd_in_round_6(r: int, seat: int) -> str:
    return "BD" if (r, seat) == (6, D_) else ONE_BRIDGE[seat]


# -- Bridge rule 1: islands and bridges -----------------------------------------------------------


def test_four_islands_in_gallery_rank_order_and_six_bridges():
    assert GAME.seats == (4, 4) and GAME.usual_seats == 4
    state = new_game()
    view = public(state)
    assert [(s["seat"], s["island"], s["name"], s["gallery_rank"]) for s in view["seats"]] == [
        (0, "A", "가람", 1), (1, "B", "나래", 2), (2, "C", "다솜", 3), (3, "D", "라온", 4)]
    assert [b["id"] for b in view["bridges"]] == ["AB", "AC", "AD", "BC", "BD", "CD"]
    assert [b["seats"] for b in view["bridges"]] == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert [own_bridges(s) for s in range(4)] == [("AB", "AC", "AD"), ("AB", "BC", "BD"), ("AC", "BC", "CD"),
                                                  ("AD", "BD", "CD")]
    assert all(b["contents"] is None for b in view["bridges"])


def test_setup_draws_nothing():
    # Rng.forbidden raises on any draw: the layout is drawn in an automatic decision instead.
    GAME.setup(NAMES, GAME.resolve_options({}), Rng.forbidden())


# -- Bridge rule 2: the rooms -----------------------------------------------------------------------


def test_rooms_decision_offers_the_scheduled_pairing_first_and_every_other_split():
    state = new_game()
    assert state.step == "rooms"
    offered = options(state, None, "confirm_rooms")
    assert offered == ["AB|CD", "CD|AB", "AC|BD", "BD|AC", "AD|BC", "BC|AD"]
    labels = [o.label for o in decision(state, None, "confirm_rooms").fields[0].options]
    assert labels[0].ko == "대회의실 1번 가람(A) · 2번 나래(B) / 소회의실 3번 다솜(C) · 4번 라온(D) (예정)"
    assert labels[0].en.endswith("(scheduled)") and "예정" not in labels[1].ko
    # The players cannot confirm the rooms.
    assert rule_error(state, Actor.of_seat(0), {"type": "confirm_rooms", "rooms": "AB|CD"}).code == "move/not_owed"


def test_confirming_the_rooms_is_public_with_the_supply():
    state = new_game()
    state, events = confirm(state, "BD|AC")
    (event,) = events
    assert event.type == "RoomsConfirmed" and event.private is None
    assert event.data == {"round": 1, "pairing": "BD|AC", "big": [1, 3], "small": [0, 2],
                          "supply": {"steel": 1, "brick": 1, "paint": 4}, "scheduled": False}
    view = public(state)
    assert [(r["room"], r["seats"], r["slots"]) for r in view["rooms"]] == [("big", [1, 3], None),
                                                                           ("small", [0, 2], None)]
    assert [s["room"] for s in view["seats"]] == ["small", "big", "small", "big"]


def test_rooms_accept_letters_in_any_order_and_refuse_anything_else():
    state = new_game()
    state2, events = confirm(state, "ba|dc")
    assert events[0].data["pairing"] == "AB|CD" and events[0].data["scheduled"] is True
    for bad in ("AB|AC", "ABCD", "A|BCD", "AB|CE", 7, "", "AB|CD|", None):
        err = rule_error(state, Actor.dealer(), {"type": "confirm_rooms", "rooms": bad})
        assert err.code in ("bridge/bad_rooms", "move/malformed")
    err = rule_error(state, Actor.dealer(), {"type": "confirm_rooms", "rooms": "AB|AC"})
    assert err.code == "bridge/bad_rooms" and "AB|AC" in err.ko and "AB|AC" in err.en


def test_schedule_option_sets_the_pairing_offered_first_each_round():
    custom = "CD|AB,BD|AC,BC|AD,AB|CD,AC|BD,AD|BC"
    state = new_game({"schedule": custom})
    assert options(state, None, "confirm_rooms")[0] == "CD|AB"
    state, _ = first_last_round(state, one_bridge)
    assert state.round == 2 and options(state, None, "confirm_rooms")[0] == "BD|AC"
    assert public(state)["schedule"] == custom.split(",")
    for bad in ("AB|CD", "AB|CD,AC|BD,AD|BC,AB|CD,AC|BD,AD|BE", "AB|CD," * 6, 5):
        with pytest.raises(RuleError) as info:
            GAME.resolve_options({"schedule": bad}, 4)
        assert info.value.code == "table/bad_option"


# -- Bridge rule 3: the supply; option deal ------------------------------------------------------------


def test_supply_per_round_is_the_seeds_and_adds_up_to_8_12_16():
    assert SUPPLY == ((1, 1, 4), (0, 3, 3), (1, 2, 3), (2, 3, 1), (1, 3, 2), (3, 0, 3))
    assert tuple(sum(r[i] for r in SUPPLY) for i in range(3)) == (8, 12, 16)  # seed 4.1.8
    assert all(sum(r) == 6 for r in SUPPLY)
    assert public(new_game())["supply"][5] == {"steel": 3, "brick": 0, "paint": 3}


@pytest.mark.parametrize("seed", range(8))
def test_referee_lays_each_rooms_six_items_at_random_in_one_automatic_step(seed):
    table = Table.create(MemoryStore(), f"b-{seed}", "tricky_bridge", list(NAMES), seed=seed, games=GAMES,
                         clock=lambda: 0.0)
    table.start(Actor.dealer())
    state = table.load().state
    assert GAME.turn(state).automatic() is None  # nothing to lay before the rooms are known
    table.submit(Actor.dealer(), {"type": "confirm_rooms", "rooms": "AB|CD"})
    state = table.load().state
    assert GAME.turn(state).automatic() is None  # the runtime laid both rooms at once
    for room in state.rooms:
        assert Counter(room.slots) == Counter({S: 1, B: 1, P: 4})
    laid = [r for r in table.log(Audience.public()) if r["event"]["type"] == "SlotsLaid"]
    assert [r["actor"] for r in laid] == ["referee", "referee"]
    assert [r["event"]["room"] for r in laid] == ["big", "small"]
    # The layout is public: the items lie on the table.
    assert [r["slots"] for r in table.view(Audience.public())["state"]["rooms"]] == [list(r.slots) for r in state.rooms]


def test_referee_layout_is_random_per_seed_and_reproducible():
    def layout(seed: int) -> tuple:
        state, _ = confirm(GAME.setup(NAMES, GAME.resolve_options({}), Rng.forbidden()))
        state, _ = referee_lay(state, seed)
        return tuple(r.slots for r in state.rooms)

    assert len({layout(s) for s in range(10)}) > 1
    assert layout(4) == layout(4)


def test_dealer_layout_enters_the_slots_of_each_kind_but_the_most_plentiful():
    state, _ = confirm(new_game())
    # Round 1 (steel 1, brick 1, paint 4): paint fills the slots not entered.
    assert implied_kind(1) == P and entered_kinds(1) == ((S, 1), (B, 1))
    # Round 2 (brick 3, paint 3): the tie goes to the later kind; only brick is entered.
    assert implied_kind(2) == P and entered_kinds(2) == ((B, 3),)
    assert implied_kind(4) == B and entered_kinds(4) == ((S, 2), (P, 1))
    assert implied_kind(6) == P and entered_kinds(6) == ((S, 3),)
    (lay_decision,) = GAME.turn(state).for_dealer()
    assert lay_decision.move == "lay_room"
    assert [(f.name, f.shape, f.k) for f in lay_decision.fields] == [("room", "one", 1), (S, "some", 1), (B, "some", 1)]
    assert [o.value for o in lay_decision.fields[0].options] == ["big", "small"]
    state, events = dealer(state, {"type": "lay_room", "room": "small", S: [6], B: [2]})
    assert events[0].data == {"round": 1, "room": "small", "slots": [P, B, P, P, P, S]}
    # Only the big room is left to enter; the small room's players may mark already, the big
    # room's not yet.
    assert options(state, None, "lay_room") == ["big"]
    assert {d.seat for d in GAME.turn(state).decisions if d.move == "mark_contract"} == {2, 3}
    assert rule_error(state, Actor.of_seat(0), {"type": "mark_contract", "slots": [1, 2, 3]}).code == "move/not_owed"


def test_dealer_layout_errors():
    state, _ = confirm(new_game())
    state, _ = lay(state, "big", sorted_layout(1))
    assert rule_error(state, Actor.dealer(), {"type": "lay_room", "room": "big", S: [1], B: [2]}).code == \
        "bridge/room_already_laid"
    assert rule_error(state, Actor.dealer(), {"type": "lay_room", "room": "hall", S: [1], B: [2]}).code == \
        "bridge/no_such_room"
    for bad in (0, 7, "1"):
        err = rule_error(state, Actor.dealer(), {"type": "lay_room", "room": "small", S: [bad], B: [2]})
        assert err.code == "bridge/no_such_slot" and repr(bad) in err.en
    err = rule_error(state, Actor.dealer(), {"type": "lay_room", "room": "small", S: [3], B: [3]})
    assert err.code == "bridge/slot_twice" and "3" in err.ko
    # Exactly the round's count of each kind (the some shape).
    assert rule_error(state, Actor.dealer(), {"type": "lay_room", "room": "small", S: [1, 2], B: [3]}).code == \
        "move/malformed"
    assert rule_error(state, Actor.dealer(), {"type": "lay_room", "room": "small", S: [1]}).code == "move/malformed"
    assert rule_error(state, Actor.of_seat(2), lay_move(1, "small", sorted_layout(1))).code == "move/not_owed"


# -- Bridge rule 4: the contract ---------------------------------------------------------------------


def laid_round_1() -> BridgeState:
    """Round 1, rooms AB|CD; big room slots S B P P P P, small room P P S P B P."""
    state, _ = confirm(new_game())
    state, _ = lay(state, "big", [S, B, P, P, P, P])
    state, _ = lay(state, "small", [P, P, S, P, B, P])
    return state


def test_contract_offers_the_six_slots_with_their_items_exactly_3():
    state = laid_round_1()
    d = decision(state, 2, "mark_contract")
    (field,) = d.fields
    assert (field.shape, field.k, field.kind) == ("some", 3, "slot")
    assert [o.value for o in field.options] == [1, 2, 3, 4, 5, 6]
    assert [o.label.ko for o in field.options] == ["1번 칸: 페인트", "2번 칸: 페인트", "3번 칸: 철근", "4번 칸: 페인트",
                                                   "5번 칸: 벽돌", "6번 칸: 페인트"]
    assert GAME.turn(state).sealed == (0, 4)


def test_contract_errors():
    state = laid_round_1()
    for bad in ([1, 2], [1, 2, 3, 4], [1, 1, 2], "123", [[1], 2, 3]):
        assert rule_error(state, Actor.of_seat(0), {"type": "mark_contract", "slots": bad}).code == "move/malformed"
    for bad in ([0, 1, 2], [1, 2, 7], [1, 2, "3"]):
        err = rule_error(state, Actor.of_seat(0), {"type": "mark_contract", "slots": bad})
        assert err.code == "bridge/no_such_slot"
    state, _ = mark(state, 0, [1, 2, 3])
    assert rule_error(state, Actor.of_seat(0), {"type": "mark_contract", "slots": [4, 5, 6]}).code == "move/not_owed"
    # The dealer may mark on behalf of a seat (its phone died), not for itself.
    assert rule_error(state, Actor.dealer(), {"type": "mark_contract", "slots": [4, 5, 6]}).code == "move/not_owed"
    state, events = apply(state, Actor.on_behalf(1), {"type": "mark_contract", "slots": [4, 5, 6]})
    assert events[0].data["seat"] == 1


def test_marks_are_secret_until_both_are_in_then_revealed_together():
    state = laid_round_1()
    state, events = mark(state, 0, [3, 1, 2])
    (event,) = events
    assert event.data == {"round": 1, "room": "big", "seat": 0}
    assert event.private == {"slots": [1, 2, 3]} and event.to == (0,)
    assert GAME.turn(state).sealed == (1, 4)
    view = public(state)
    assert view["rooms"][0]["marked"] == [True, False] and view["rooms"][0]["contract"] is None
    assert view["seats"][0]["marked"] is True and view["seats"][1]["marked"] is False
    assert "my_marks" not in view["seats"][0]
    assert seat_view(state, 0)["seats"][0]["my_marks"] == [1, 2, 3]
    assert "my_marks" not in seat_view(state, 1)["seats"][0]
    assert GAME.view(state, Audience.dealer())["rooms"][0]["marks_now"] == [[1, 2, 3], None]
    # Big room: S B P P P P. A marks 1 2 3, B marks 3 4 5: A wins 1 (steel) and 2 (brick), B wins
    # 4 and 5 (paint, paint); 3 is marked by both and 6 by neither, both lost.
    state, events = mark(state, 1, [3, 4, 5])
    assert types(events) == ["ContractMarked", "ContractsRevealed"]
    assert events[1].private is None
    assert events[1].data == {"round": 1, "room": "big", "seats": [0, 1], "marks": [[1, 2, 3], [3, 4, 5]],
                              "won": [[1, 2], [4, 5]], "lost": [3, 6],
                              "gains": [{"steel": 1, "brick": 1, "paint": 0}, {"steel": 0, "brick": 0, "paint": 2}]}
    contract = public(state)["rooms"][0]["contract"]
    assert contract == {"marks": [[1, 2, 3], [3, 4, 5]], "won": [[1, 2], [4, 5]], "lost": [3, 6],
                        "gains": [{"steel": 1, "brick": 1, "paint": 0}, {"steel": 0, "brick": 0, "paint": 2}]}
    # The small room still negotiates: no distribution before both rooms are revealed.
    assert state.step == "contract"
    assert {d.move for d in GAME.turn(state).decisions} == {"mark_contract"}


def test_identical_contracts_lose_everything_and_nobody_owes_a_distribution():
    state = laid_round_1()
    for seat in range(4):
        state, events = mark(state, seat, [1, 2, 3])
    # Every slot is marked by both (1-3) or by neither (4-6): all lost, nothing to place, the
    # round ends at once.
    assert types(events) == ["ContractMarked", "ContractsRevealed", "RoundEnded", "RoundBegan"]
    assert events[1].data["won"] == [[], []] and events[1].data["lost"] == [1, 2, 3, 4, 5, 6]
    assert state.round == 2 and state.step == "rooms"
    assert public(state)["seats"][0]["gains"] == [{"round": 1, "steel": 0, "brick": 0, "paint": 0}]


# -- Bridge rule 5: the distribution -----------------------------------------------------------------


def contracted_round_1() -> BridgeState:
    """laid_round_1, then: big room A 1 2 3, B 3 4 5 (A: steel, brick; B: paint, paint);
    small room (P P S P B P) C 1 3 5, D 2 3 4 (C: slots 1 and 5, paint and brick; D: 2 and 4,
    paint and paint; 3 lost)."""
    state = laid_round_1()
    for seat, slots in ((0, [1, 2, 3]), (1, [3, 4, 5]), (2, [1, 3, 5]), (3, [2, 3, 4])):
        state, _ = mark(state, seat, slots)
    return state


def test_distribution_places_every_gained_item_on_one_of_ones_own_bridges():
    state = contracted_round_1()
    assert state.step == "distribute"
    d = decision(state, 0, "place_items")
    (field,) = d.fields
    assert field.shape == "assign"
    assert [(o.value, o.label.ko) for o in field.items] == [(1, "1번 칸: 철근"), (2, "2번 칸: 벽돌")]
    assert [(o.value, o.label.ko) for o in field.options] == [("AB", "AB 다리 (나래)"), ("AC", "AC 다리 (다솜)"),
                                                               ("AD", "AD 다리 (라온)")]
    assert [o.value for o in decision(state, 3, "place_items").fields[0].options] == ["AD", "BD", "CD"]
    assert GAME.turn(state).sealed == (0, 4)
    state, events = place(state, 0, {1: "AD", 2: "AD"})
    (event,) = events
    assert event.data == {"round": 1, "seat": 0} and event.to == (0,)
    assert event.private == {"placement": {"1": "AD", "2": "AD"},
                             "added": {"AB": {"steel": 0, "brick": 0, "paint": 0},
                                       "AC": {"steel": 0, "brick": 0, "paint": 0},
                                       "AD": {"steel": 1, "brick": 1, "paint": 0}}}
    assert GAME.turn(state).sealed == (1, 4)
    assert [s["placed"] for s in public(state)["seats"]] == [True, False, False, False]


def test_distribution_errors_nothing_kept_back_and_only_own_bridges():
    state = contracted_round_1()
    # Bridge rule 5: nothing may be kept back.
    err = rule_error(state, Actor.of_seat(0), {"type": "place_items", "placement": {"1": "AB"}})
    assert err.code == "move/malformed"
    # Only the seat's own bridges.
    err = rule_error(state, Actor.of_seat(0), {"type": "place_items", "placement": {"1": "AB", "2": "CD"}})
    assert err.code == "move/malformed" and "CD" in err.en
    # Only the items it gained (slot 3 was lost).
    err = rule_error(state, Actor.of_seat(0), {"type": "place_items", "placement": {"1": "AB", "2": "AB", "3": "AB"}})
    assert err.code == "move/malformed"
    assert rule_error(state, Actor.of_seat(0), {"type": "place_items", "placement": [1, 2]}).code == "move/malformed"
    state, _ = place(state, 0, {1: "AB", 2: "AC"})
    assert rule_error(state, Actor.of_seat(0), {"type": "place_items", "placement": {"1": "AB", "2": "AC"}}).code == \
        "move/not_owed"


def test_a_seat_that_gained_nothing_owes_nothing_and_the_round_ends_when_all_are_in():
    state = laid_round_1()
    # Big room: A and B mark the same three: both gain nothing. Small room: C wins 1 2 3.
    for seat, slots in ((0, [1, 2, 3]), (1, [1, 2, 3]), (2, [1, 2, 3]), (3, [4, 5, 6])):
        state, _ = mark(state, seat, slots)
    assert {d.seat for d in GAME.turn(state).decisions} == {2, 3}
    assert GAME.turn(state).sealed == (0, 2)
    assert [s["placed"] for s in public(state)["seats"]] == [None, None, False, False]
    state, events = place(state, 2, {1: "CD", 2: "CD", 3: "AC"})
    assert types(events) == ["ItemsPlaced"]
    state, events = place(state, 3, {4: "BD", 5: "BD", 6: "AD"})
    assert types(events) == ["ItemsPlaced", "RoundEnded", "RoundBegan"]
    assert events[2].data == {"round": 2, "scheduled": "AC|BD"}
    assert state.round == 2 and state.step == "rooms"


def test_a_seat_sees_only_what_it_placed_on_a_shared_bridge():
    state = contracted_round_1()
    state, _ = place(state, 0, {1: "AB", 2: "AB"})  # A: steel and brick on AB
    state, _ = place(state, 1, {4: "AB", 5: "BC"})  # B: paint on AB, paint on BC
    a = {b["bridge"]: b for b in seat_view(state, 0)["seats"][0]["my_bridges"]}
    b = {x["bridge"]: x for x in seat_view(state, 1)["seats"][1]["my_bridges"]}
    assert a["AB"]["known"] == {"steel": 1, "brick": 1, "paint": 0}  # not B's paint
    assert b["AB"]["known"] == {"steel": 0, "brick": 0, "paint": 1}  # not A's steel and brick
    assert a["AB"]["score"]["score"] == 5 and b["AB"]["score"]["score"] == 1
    assert a["AB"]["complete"] is False and a["AB"]["other"] == 1
    dealer_bridges = {x["id"]: x for x in GAME.view(state, Audience.dealer())["bridges"]}
    assert dealer_bridges["AB"]["now"] == {"steel": 1, "brick": 1, "paint": 1}
    assert dealer_bridges["AB"]["by_seat"] == [{"steel": 1, "brick": 1, "paint": 0},
                                               {"steel": 0, "brick": 0, "paint": 1}]
    assert dealer_bridges["AB"]["score_now"]["score"] == 100
    assert public(state)["bridges"][0]["contents"] is None


def test_the_phone_gets_what_is_left_to_place_and_the_would_be_scores():
    state = contracted_round_1()
    me = seat_view(state, 2)["seats"][2]
    assert me["to_place"] == [{"slot": 1, "kind": P}, {"slot": 5, "kind": B}]
    # C has nothing on its bridges yet: each scores 0, and 1 paint + 1 brick would score 3.
    assert [(b["bridge"], b["score"]["score"], b["if_all"]["score"]) for b in me["my_bridges"]] == [
        ("AC", 0, 3), ("BC", 0, 3), ("CD", 0, 3)]
    state, _ = place(state, 2, {1: "CD", 5: "CD"})
    me = seat_view(state, 2)["seats"][2]
    assert me["to_place"] == [] and all(b["if_all"] is None for b in me["my_bridges"])
    assert me["placements"] == [{"round": 1, "added": {"AC": {"steel": 0, "brick": 0, "paint": 0},
                                                       "BC": {"steel": 0, "brick": 0, "paint": 0},
                                                       "CD": {"steel": 0, "brick": 1, "paint": 1}}}]


# -- Bridge rule 6: the round-3 reveal and the end -----------------------------------------------------


def test_bridges_become_public_after_round_3_and_stay_as_of_round_3_until_the_end():
    state = new_game()
    for _ in range(2):
        state, _ = first_last_round(state, one_bridge)
    assert all(b["contents"] is None for b in public(state)["bridges"])
    state, events = first_last_round(state, one_bridge)
    assert types(events)[-3:] == ["RoundEnded", "BridgesRevealed", "RoundBegan"]
    reveal = events[-2]
    assert reveal.private is None and reveal.data["round"] == 3 and reveal.data["final"] is False
    # By hand (sorted layouts, first player wins slots 1-3, second 4-6; see first_last_round):
    #   AB, A's rounds 1-3: S B P + B B B + S B B = (2, 6, 1)
    #   BC, B's: P P P + B B B + S B B = (1, 5, 3);  CD, C's: S B P + P P P + P P P = (1, 1, 7)
    #   AD, D's: P P P three times = (0, 0, 9);  AC and BD: nothing.
    expected = {"AB": (2, 6, 1), "AC": (0, 0, 0), "AD": (0, 0, 9), "BC": (1, 5, 3), "BD": (0, 0, 0), "CD": (1, 1, 7)}
    assert reveal.data["bridges"] == {b: dict(zip((S, B, P), c, strict=True)) for b, c in expected.items()}
    view = public(state)
    assert view["revealed_round"] == 3
    assert {b["id"]: tuple(b["contents"].values()) for b in view["bridges"]} == expected
    # AB (2, 6, 1): one set, then 1 steel and 5 bricks: 100 + 3 + 10 = 113.
    assert view["bridges"][0]["score"]["score"] == 113 and view["bridges"][0]["as_of"] == 3
    # Round 4: A wins S S B and puts it on AB; the public still sees round 3's AB, A sees more,
    # B (the other end) sees round 3's AB only.
    state, _ = first_last_round(state, one_bridge)
    assert tuple(public(state)["bridges"][0]["contents"].values()) == (2, 6, 1)
    a = {x["bridge"]: x for x in seat_view(state, 0)["seats"][0]["my_bridges"]}
    b = {x["bridge"]: x for x in seat_view(state, 1)["seats"][1]["my_bridges"]}
    assert tuple(a["AB"]["known"].values()) == (4, 7, 1)
    assert tuple(b["AB"]["known"].values()) == (2, 6, 1)
    assert tuple(a["AB"]["mine"].values()) == (4, 7, 1) and tuple(b["AB"]["mine"].values()) == (0, 0, 0)


def test_the_end_reveals_everything_and_scores_each_bridge():
    state, events = play_match(one_bridge)
    assert types(events)[-3:] == ["RoundEnded", "BridgesRevealed", "BridgesScored"]
    final_reveal = events[-2].data
    assert final_reveal["final"] is True and final_reveal["round"] == 6
    assert final_reveal["by_seat"]["AB"] == [{"steel": 8, "brick": 9, "paint": 1}, {"steel": 0, "brick": 0, "paint": 0}]
    assert len(final_reveal["distributions"]) == 24  # every seat gained in every round
    assert final_reveal["distributions"][0] == {"round": 1, "seat": 0, "added": {
        "AB": {"steel": 1, "brick": 1, "paint": 1}, "AC": {"steel": 0, "brick": 0, "paint": 0},
        "AD": {"steel": 0, "brick": 0, "paint": 0}}}
    view = public(state)
    assert view["step"] == "over" and view["revealed_round"] == 6
    final = view["final"]
    # Totals by hand: A's six rounds S B P, B B B, S B B, S S B, S B B, S S S = (8, 9, 1) on AB;
    # B's P P P, B B B, S B B, B B P, S B B, S S S = (5, 9, 4) on BC; C's S B P, P P P, P P P,
    # S S B, B P P, P P P = (3, 3, 12) on CD; D's P P P x3, B B P, B P P, P P P = (0, 3, 15) on AD.
    got = {b["id"]: (tuple(b["contents"].values()), b["score"]) for b in final["bridges"]}
    # AB (8, 9, 1): 1 set (paint is short; exchanges only lose), 7 steel + 8 brick left: 100 + 21 + 16 = 137.
    # BC (5, 9, 4): 4 sets, 1 steel + 5 brick left: 400 + 3 + 10 = 413.
    # CD (3, 3, 12): 6 paint -> 3 brick, 2 brick -> 1 steel: (4, 4, 6): 4 sets + 2 paint = 402.
    # AD (0, 3, 15): 12 paint -> 6 brick, 6 brick -> 3 steel: (3, 3, 3): 3 sets = 300.
    assert got == {"AB": ((8, 9, 1), 137), "AC": ((0, 0, 0), 0), "AD": ((0, 3, 15), 300), "BC": ((5, 9, 4), 413),
                   "BD": ((0, 0, 0), 0), "CD": ((3, 3, 12), 402)}
    cd = next(b for b in final["bridges"] if b["id"] == "CD")
    assert cd["exchanges"] == {"paint_to_brick": 3, "brick_to_steel": 1} and cd["sets"] == 4
    assert cd["leftover"] == {"steel": 0, "brick": 0, "paint": 2}
    assert final["lowest"] == ["AC", "BD"] and final["lowest_score"] == 0 and final["tie"] is True
    assert GAME.turn(state).decisions == ()


# -- Bridge rule 7: scoring ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "points", "exchanges", "sets"),
    [
        # The seed's examples: (0,3,2): 2 brick -> 1 steel gives (1,1,2), a set and a paint: 101.
        ((0, 3, 2), 101, (0, 1), 1),
        # (0,0,8): 6 paint -> 3 brick, 2 brick -> 1 steel: (1,1,2): 101.
        ((0, 0, 8), 101, (3, 1), 1),
        ((0, 0, 0), 0, (0, 0), 0),
        ((1, 1, 1), 100, (0, 0), 1),
        ((3, 0, 0), 9, (0, 0), 0),
        # 2 brick as they are: 4; as a steel: 3. No exchange.
        ((0, 2, 0), 4, (0, 0), 0),
        # 7 paint: 6 -> 3 brick, 2 of them -> 1 steel: (1,1,1) = 100.
        ((0, 0, 7), 100, (3, 1), 1),
        # 6 paint are worth 6 as they are; no exchange makes a set (a set costs 7 paint).
        ((0, 0, 6), 6, (0, 0), 0),
        # (2,2,2): two sets.
        ((2, 2, 2), 200, (0, 0), 2),
        # (1,0,3): 2 paint -> 1 brick gives (1,1,1): 100.
        ((1, 0, 3), 100, (1, 0), 1),
        # (0,3,15): 12 paint -> 6 brick, 6 brick -> 3 steel: (3,3,3) = 300.
        ((0, 3, 15), 300, (6, 3), 3),
        # (0,3,12): (2,2,6) after 6 paint -> 3 brick and 4 brick -> 2 steel: 200 + 4 = 204.
        ((0, 3, 12), 204, (3, 2), 2),
    ],
)
def test_score_worked_by_hand(counts, points, exchanges, sets):
    s = score(counts)
    assert (s.points, (s.paint_to_brick, s.brick_to_steel), s.sets) == (points, exchanges, sets)
    assert s.to_json()["score"] == points


def brute_force(counts: tuple[int, int, int]) -> int:
    """Every exchange sequence, one exchange at a time (breadth first over the states reached)."""
    seen = {counts}
    todo = [counts]
    best = 0
    while todo:
        s, b, p = todo.pop()
        m = min(s, b, p)
        best = max(best, 100 * m + 3 * (s - m) + 2 * (b - m) + (p - m))
        for nxt in ((s, b + 1, p - 2) if p >= 2 else None, (s + 1, b - 2, p) if b >= 2 else None):
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return best


def test_score_is_the_maximum_over_every_exchange_sequence_up_to_10_of_each():
    for counts in product(range(11), repeat=3):
        s = score(counts)
        assert s.points == brute_force(counts), counts
        # What is shown adds up: the exchanges made, the sets and the leftovers give the points.
        steel, brick, paint = counts
        x, y = s.paint_to_brick, s.brick_to_steel
        after = (steel + y, brick + x - 2 * y, paint - 2 * x)
        assert min(after) >= 0
        assert tuple(n - s.sets for n in after) == s.leftover and min(s.leftover) == 0
        assert 100 * s.sets + 3 * s.leftover[0] + 2 * s.leftover[1] + s.leftover[2] == s.points


# -- Bridge rule 8: who is out -----------------------------------------------------------------------


def points(**low: int) -> dict[str, int]:
    return {b: low.get(b, 50) for b in BRIDGES}


@pytest.mark.parametrize(
    ("lowest", "players", "bridge"),
    [
        (("CD",), (2, 3), (2, 3)),
        (("AB",), (0, 1), (0, 1)),
        # AB and CD tied: players A B C D, the worse two C D; the bridge whose better end is worse: CD.
        (("AB", "CD"), (2, 3), (2, 3)),
        # AC and BD tied: players A B C D -> C, D; better ends A and B -> BD.
        (("AC", "BD"), (2, 3), (1, 3)),
        # AC and BC tied: players A B C -> B, C; better ends A and B -> BC.
        (("AC", "BC"), (1, 2), (1, 2)),
        # BC and BD tied: players B C D -> C, D; equal better ends (B), the other end D is worse -> BD.
        (("BC", "BD"), (2, 3), (1, 3)),
        # AB, AC and AD tied: players A B C D -> C, D; all better ends A, the worst other end -> AD.
        (("AB", "AC", "AD"), (2, 3), (0, 3)),
        # AD and BC tied: players A B C D -> C, D; better ends A and B -> BC.
        (("AD", "BC"), (2, 3), (1, 2)),
        # All six tied.
        (BRIDGES, (2, 3), (2, 3)),
    ],
)
def test_lowest_bridge_and_the_tie_options(lowest, players, bridge):
    given = points(**{b: 7 for b in lowest})
    assert eliminated(given, "players") == players
    assert eliminated(given, "bridge") == bridge


def test_whole_match_with_a_unique_lowest_bridge():
    """As test_the_end_reveals_everything_and_scores_each_bridge, but D puts round 6 (P P P) on
    BD: BD (0,0,3) = 3, AD (0,3,12) = 204, and AC (empty, 0) alone is lowest: A and C are out."""
    state, _ = play_match(d_to_bd_in_round_6)
    result = GAME.result(state)
    assert result.details["lowest"] == ["AC"] and result.details["out"] == [0, 2]
    assert result.details["advance"] == [3, 1] and result.details["key"] == 2
    assert result.details["tie"] is False
    # Sums of each seat's three bridges: A 137+0+204 = 341, B 137+413+3 = 553, C 0+413+402 = 815,
    # D 204+3+402 = 609. Survivors D (609) then B (553); out C (815) then A (341).
    assert result.details["totals"] == [341, 553, 815, 609]
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(3, 1, 609), (1, 2, 553), (2, 3, 815), (0, 4, 341)]
    assert result.details["bridges"]["AD"]["score"] == 204 and result.details["bridges"]["AD"]["seats"] == [0, 3]
    assert result.decided_by.ko.startswith("최저 다리 AC(0점)의 A, C 탈락")
    assert public(state)["final"]["out"] == [0, 2] and public(state)["final"]["advance"] == [3, 1]


@pytest.mark.parametrize(("tie", "out", "standings"), [
    # AC and BD tied at 0. players: of A B C D the worse two, C and D. Survivors B (550) then A (437).
    ("players", [2, 3], [(1, 1, 550), (0, 2, 437), (2, 3, 815), (3, 4, 702)]),
    # bridge: better ends A (AC) and B (BD): BD's is worse, so B and D are out. Survivors C (815), A.
    ("bridge", [1, 3], [(2, 1, 815), (0, 2, 437), (3, 3, 702), (1, 4, 550)]),
])
def test_whole_match_with_tied_lowest_bridges_under_each_option(tie, out, standings):
    state, _ = play_match(one_bridge, {"bridge_tie": tie})
    result = GAME.result(state)
    # Seat sums: A 137 + 0 + 300 = 437, B 137 + 413 + 0 = 550, C 0 + 413 + 402 = 815, D 300 + 0 + 402 = 702.
    assert result.details["totals"] == [437, 550, 815, 702]
    assert result.details["out"] == out and result.details["tie"] is True
    assert result.details["bridge_tie"] == tie
    assert [(s.seat, s.rank, s.score) for s in result.standings] == standings
    assert "동점" in result.decided_by.ko and "tied" in result.decided_by.en


def test_everything_lost_all_bridges_tie_at_0():
    state = new_game()
    for _ in range(6):
        state, _ = confirm(state)
        for room in ("big", "small"):
            state, _ = lay(state, room, sorted_layout(state.round))
        for seat in range(4):
            state, events = mark(state, seat, [1, 2, 3])
    assert types(events)[-3:] == ["RoundEnded", "BridgesRevealed", "BridgesScored"]
    result = GAME.result(state)
    assert result.details["lowest"] == list(BRIDGES) and result.details["out"] == [2, 3]
    assert [(s.seat, s.rank) for s in result.standings] == [(0, 1), (1, 2), (2, 3), (3, 4)]


# -- views, panel, sheets, describe ------------------------------------------------------------------


def test_dealer_view_has_the_panel_sheets_and_run_sheet_and_others_do_not():
    state = contracted_round_1()
    state, _ = place(state, 0, {1: "AB", 2: "AD"})
    dealer_view = GAME.view(state, Audience.dealer())
    for key in ("panel", "sheets", "run_sheet"):
        assert key in dealer_view
        assert key not in public(state) and key not in seat_view(state, 0)
    panel = dealer_view["panel"]
    assert all(set(s) <= {"heading", "paragraphs", "table"} and {"ko", "en"} <= set(s["heading"]) for s in panel)
    text = json.dumps(panel, ensure_ascii=False)
    assert "1번 가람(A)" in text and "AD: 벽돌1" in text  # A's secret distribution, for the dealer
    now = panel[0]["table"]
    assert now[1][4] == {"ko": "AB: 철근1 / AD: 벽돌1", "en": "AB: steel 1 / AD: brick 1", "tone": "secret"}
    assert now[2][4] == {"ko": "분배 대기", "en": "waiting", "tone": "now"}
    sheets = dealer_view["sheets"]
    assert set(sheets) == {"run_sheet", "score_sheet"}
    for sheet in sheets.values():
        assert {"ko", "en"} <= set(sheet["title"])
        for section in sheet["sections"]:
            for row in section.get("table", []):
                assert all(isinstance(c, str) or {"ko", "en"} <= set(c) for c in row)
    run = dealer_view["run_sheet"]
    assert run["rounds"][0]["slots"] == {"big": [S, B, P, P, P, P], "small": [P, P, S, P, B, P]}
    assert run["rounds"][0]["confirmed"] is True and run["rounds"][1]["confirmed"] is False
    assert run["rounds"][1]["pairing"] == "AC|BD" and run["rounds"][1]["big"] == [0, 2]
    assert run["rounds"][1]["supply"] == {"steel": 0, "brick": 3, "paint": 3}


def test_score_sheet_at_the_end_names_the_lowest_bridge_and_who_is_out():
    state, _ = play_match(d_to_bd_in_round_6)
    doc = GAME.view(state, Audience.dealer())["sheets"]["score_sheet"]
    table = doc["sections"][0]["table"]
    assert [c if isinstance(c, str) else c["en"] for c in table[0]] == [
        "Bridge", "Players", "Steel", "Brick", "Paint", "Exchanges", "Sets", "Left over", "Score"]
    ac = table[2]
    assert ac[0]["tone"] == "bad" and ac[0]["en"] == "AC ◀" and ac[-1] == "0"
    ad = table[3]
    # (0, 3, 12): 6 paint -> 3 brick, 4 brick -> 2 steel: (2, 2, 6), 2 sets and 4 paint: 204.
    assert ad[2:5] == ["0", "3", "12"] and ad[5] == "페인트6→벽돌3, 벽돌4→철근2" and ad[6:] == ["2", "페인트4", "204"]
    verdict = " ".join(p["en"] for p in doc["sections"][1]["paragraphs"])
    assert "Lowest bridge: AC (0)" in verdict and "Out: 1 가람 (A), 3 다솜 (C)" in verdict


def test_describe_every_event_in_words_with_and_without_its_secret():
    state = laid_round_1()
    names = NAMES
    state, events = mark(state, 0, [1, 2, 3])
    ev = events[0]
    full = GAME.describe(ev.visible_to(Audience.of_seat(0)), names)
    bare = GAME.describe(ev.visible_to(Audience.public()), names)
    assert full.ko == "1번 가람(A): 계약서 1, 2, 3번 칸에 도장" and full.en == "1 가람 (A): contract stamped on slots 1, 2, 3"
    assert bare.ko == "1번 가람(A): 계약서 제출" and "1, 2, 3" not in bare.en
    state, events = mark(state, 1, [3, 4, 5])
    revealed = GAME.describe(events[1].visible_to(Audience.public()), names)
    assert revealed.ko.startswith("1라운드 대회의실 계약 공개: 1번 가람(A) 도장 1, 2, 3 → 1, 2번 칸 획득 (철근 1, 벽돌 1)")
    assert revealed.ko.endswith("소멸 3, 6")
    state, _ = mark(state, 2, [1, 3, 5])
    state, _ = mark(state, 3, [2, 3, 4])
    state, events = place(state, 0, {1: "AB", 2: "AD"})
    assert GAME.describe(events[0].visible_to(Audience.dealer()), names).ko == "1번 가람(A): AB 다리 철근 1, AD 다리 벽돌 1"
    assert GAME.describe(events[0].visible_to(Audience.public()), names).en == "1 가람 (A): distribution done"
    state2, events = play_match(d_to_bd_in_round_6)
    for event in events[-2:]:
        text = GAME.describe(event.visible_to(Audience.public()), names)
        assert text is not None and "seat" not in text.en.lower()
    scored = GAME.describe(events[-1].visible_to(Audience.public()), names)
    assert scored.ko.endswith("최저 AC: 1번 가람(A), 3번 다솜(C) 탈락")
    confirm_text = GAME.describe(confirm(new_game())[1][0].visible_to(Audience.public()), names)
    assert confirm_text.ko == ("1라운드 회의실: 대회의실 1번 가람(A) · 2번 나래(B), 소회의실 3번 다솜(C) · 4번 라온(D) / "
                               "자원 철근 1, 벽돌 1, 페인트 4")
    laid_event = lay(confirm(new_game())[0], "big", [S, B, P, P, P, P])[1][0]
    laid = GAME.describe(laid_event.visible_to(Audience.public()), names)
    assert laid.ko == "1라운드 대회의실 칸: 1번 철근, 2번 벽돌, 3번 페인트, 4번 페인트, 5번 페인트, 6번 페인트"
    assert GAME.describe({"type": "Unknown"}, names) is None


def test_every_logged_event_is_described_and_the_dealer_view_builds_at_every_step():
    table = Table.create(MemoryStore(), "b-words", "tricky_bridge", list(NAMES), options={"deal": "dealer"}, seed=2,
                         games=GAMES, clock=lambda: 0.0)
    table.start(Actor.dealer())
    rnd = random.Random(2)
    while GAME.result(table.load().state) is None:
        actor, move = pick(GAME.turn(table.load().state), rnd)
        try:
            table.submit(actor, move)
        except RuleError:
            continue
        dealer_view = GAME.view(table.load().state, Audience.dealer())
        assert len(dealer_view["panel"]) == 5 and set(dealer_view["sheets"]) == {"run_sheet", "score_sheet"}
    for audience in (Audience.public(), Audience.dealer(), Audience.of_seat(1)):
        for row in table.log(audience):
            if row["event"]["type"].startswith("table."):
                continue
            text = GAME.describe(row["event"], NAMES)
            assert text is not None and text.ko and text.en, row
            assert "seat" not in text.en.lower() and "Seat" not in text.ko


# -- options, bots and the command line ---------------------------------------------------------------


def test_options_and_defaults():
    assert GAME.resolve_options({}, 4) == {"deal": "referee", "schedule": "AB|CD,AC|BD,AD|BC,AB|CD,AC|BD,AD|BC",
                                           "bridge_tie": "players"}
    for name, bad in (("deal", "robot"), ("bridge_tie", "coin"), ("schedule", "")):
        with pytest.raises(RuleError):
            GAME.resolve_options({name: bad}, 4)
    with pytest.raises(RuleError):
        GAME.check_seat_count(5)


@pytest.mark.parametrize("deal", ["referee", "dealer"])
@pytest.mark.parametrize("tie", ["players", "bridge"])
def test_bot_matches_finish_under_every_option(deal, tie):
    """The contract test plays the default options only; this covers the others the same way."""
    for seed in range(6):
        table = Table.create(MemoryStore(), f"b-{seed}", "tricky_bridge", list(NAMES),
                             options={"deal": deal, "bridge_tie": tie}, seed=seed, games=GAMES, clock=lambda: 0.0)
        table.start(Actor.dealer())
        rnd = random.Random(seed)
        for _ in range(3000):
            state = table.load().state
            if GAME.result(state) is not None:
                break
            actor, move = pick(GAME.turn(state), rnd)
            try:
                table.submit(actor, move)
            except RuleError:
                pass
        result = GAME.result(table.load().state)
        assert result is not None
        assert sorted(s.rank for s in result.standings) == [1, 2, 3, 4]
        assert len(result.details["advance"]) == 2 and len(result.details["out"]) == 2
        assert set(result.details["advance"]) | set(result.details["out"]) == {0, 1, 2, 3}
        # The items are conserved: what was won was placed, nothing more.
        won = sum(sum(g[k] for k in (S, B, P)) for s in table.view(Audience.public())["state"]["seats"]
                  for g in s["gains"])
        final = table.view(Audience.public())["state"]["final"]
        assert won == sum(sum(b["contents"].values()) for b in final["bridges"])


def referee_cli(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_cli_bot_match_is_deterministic_and_ends_with_the_result(tmp_path):
    first = referee_cli("play", "tricky_bridge", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "a"))
    second = referee_cli("play", "tricky_bridge", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "b"))
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert len(lines) > 20
    result = json.loads(lines[-1])
    assert sorted(s["rank"] for s in result["standings"]) == [1, 2, 3, 4]
    assert result["details"]["key"] == 2 and len(result["details"]["advance"]) == 2
    final = json.loads(lines[-2])["state"]
    assert final["step"] == "over" and final["final"]["out"] == result["details"]["out"]
    other = referee_cli("play", "tricky_bridge", "--bots", "--seed", "4", "--data-dir", str(tmp_path / "a"))
    assert other.stdout != first.stdout
