"""Tricky Safari (seed 000 section 6, RULINGS.md "Tricky Safari" rules 1-5): pure unit tests.

The game is driven through its pure functions (setup / decide / evolve / turn / view / result)
with the dealer deal, so every hand is known; the referee deal goes through the real Table
runtime on the in-memory store, since the runtime is what takes automatic decisions.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from referee.games.tricky_safari import GAME
from referee.games.tricky_safari import rules as safari_rules
from referee.games.tricky_safari.state import (
    ANIMALS,
    DECK,
    PAIRS,
    RoundRecord,
    SafariState,
    Take,
    animal_ranks,
    final_scoring,
)
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table

NAMES = ["김민준", "이서연", "박지호", "최유나", "정하준"]
E, R, L, P, Z = ANIMALS

# Openings of the worked round: elephant 3, rhino 1, lion 2, leopard 4, zebra 1.
OPENED = {E: 3, R: 1, L: 2, P: 4, Z: 1}
# One card of each animal per seat; seat 4 gets what is left (E5, R5, L5, P5, Z5).
SPREAD = [
    ["elephant:0", "rhino:0", "lion:0", "leopard:0", "zebra:0"],
    ["elephant:1", "rhino:2", "lion:1", "leopard:1", "zebra:2"],
    ["elephant:2", "rhino:3", "lion:3", "leopard:2", "zebra:3"],
    ["elephant:4", "rhino:4", "lion:4", "leopard:3", "zebra:4"],
]
# One animal per seat: seat 0 every lion left, 1 elephants, 2 rhinos, 3 leopards; seat 4 zebras.
SORTED = [
    ["lion:0", "lion:1", "lion:3", "lion:4", "lion:5"],
    ["elephant:0", "elephant:1", "elephant:2", "elephant:4", "elephant:5"],
    ["rhino:0", "rhino:2", "rhino:3", "rhino:4", "rhino:5"],
    ["leopard:0", "leopard:1", "leopard:2", "leopard:3", "leopard:5"],
]


# -- helpers -------------------------------------------------------------------------------------


def apply(state: SafariState, actor: Actor, move: dict[str, Any]) -> tuple[SafariState, list[Event]]:
    events = GAME.decide(state, actor, move, Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def dealer(state: SafariState, move: dict[str, Any]) -> tuple[SafariState, list[Event]]:
    return apply(state, Actor.dealer(), move)


def fresh(options: dict[str, Any] | None = None) -> SafariState:
    return GAME.setup(tuple(NAMES), GAME.resolve_options({"deal": "dealer", **(options or {})}), Rng.forbidden())


def deal(state: SafariState, opened: dict[str, int] = OPENED, hands: list[list[str]] = SPREAD) -> SafariState:
    state, _ = dealer(state, {"type": "open_cards", **opened})
    for seat, hand in enumerate(hands):
        state, _ = dealer(state, {"type": "deal_hand", "seat": seat, "cards": hand})
    return state


def new_game(options: dict[str, Any] | None = None, hands: list[list[str]] = SPREAD) -> SafariState:
    return deal(fresh(options), OPENED, hands)


def turn_of(state: SafariState, seat: int, card: str, animal: str) -> tuple[SafariState, list[Event]]:
    state, first = apply(state, Actor.of_seat(seat), {"type": "play_card", "card": card})
    state, second = apply(state, Actor.of_seat(seat), {"type": "take_figure", "animal": animal})
    return state, first + second


def refused(state: SafariState, actor: Actor, move: dict[str, Any], code: str) -> RuleError:
    with pytest.raises(RuleError) as caught:
        GAME.decide(state, actor, move, Rng(0))
    assert caught.value.code == code, caught.value.code
    return caught.value


# The worked round (see test_worked_round): (seat, card, figure) turn by turn.
WORKED = [
    (0, "elephant:0", L),
    (1, "elephant:1", P),
    (2, "lion:3", L),
    (3, "elephant:4", E),
    (4, "leopard:5", P),
    (0, "rhino:0", Z),
    (1, "zebra:2", E),
    (2, "elephant:2", R),
    (3, "lion:4", L),
    (4, "elephant:5", Z),  # the elephant's sixth card: the round ends after this turn
]


def worked_round(state: SafariState) -> tuple[SafariState, list[Event]]:
    events: list[Event] = []
    for seat, card, animal in WORKED:
        state, more = turn_of(state, seat, card, animal)
        events += more
    return state, events


def first_turns(state: SafariState) -> SafariState:
    """Play a round to its end with the first card and the first figure each turn."""
    start = state.round
    while state.round == start and state.step == "play":
        (decision,) = GAME.turn(state).decisions
        seat = decision.seat
        state, _ = apply(state, Actor.of_seat(seat), {"type": decision.move,
                                                      decision.fields[0].name: decision.fields[0].options[0].value})
    return state


# -- rule 1: seats, pairs, Gallery ranks, starters -------------------------------------------------


def test_five_seats_with_their_public_animal_pairs():
    assert GAME.seats == (5, 5) and GAME.usual_seats == 5
    state = fresh()
    public = GAME.view(state, Audience.public())
    assert [s["animals"] for s in public["seats"]] == [
        ["elephant", "rhino"], ["rhino", "lion"], ["lion", "leopard"], ["leopard", "zebra"], ["zebra", "elephant"]]
    # Each animal belongs to exactly two seats.
    assert [a["owners"] for a in public["animals"]] == [[0, 4], [0, 1], [1, 2], [2, 3], [3, 4]]


def test_gallery_ranks_option_forms():
    assert GAME.resolve_options({})["gallery_ranks"] == "1,2,3,4,5"
    assert fresh().gallery_ranks == (1, 2, 3, 4, 5)
    assert fresh({"gallery_ranks": "7,5,9,6,8"}).gallery_ranks == (7, 5, 9, 6, 8)
    assert fresh({"gallery_ranks": [7, 5, 9, 6, 8]}).gallery_ranks == (7, 5, 9, 6, 8)
    assert fresh({"gallery_ranks": " 2, 1,3,4 ,5"}).gallery_ranks == (2, 1, 3, 4, 5)
    for bad in ("1,1,2,3,4", "1,2,3,4", "1,2,3,4,5,6", "a,b,c,d,e", "0,1,2,3,4", [1, 2, 3, 4, True], 12345, None,
                "1,2,3,4,100"):
        with pytest.raises(RuleError) as caught:
            GAME.resolve_options({"gallery_ranks": bad}, 5)
        assert caught.value.code == "table/bad_option"


def test_seat_r_starts_round_r_and_play_goes_around():
    state = new_game()
    view = GAME.view(state, Audience.public())
    assert view["order"] == [0, 1, 2, 3, 4] and view["to_act"] == 0 and view["stage"] == "play"
    state, _ = worked_round(state)
    state, events = dealer(state, {"type": "next_round"})
    assert events[0].type == "RoundBegan" and events[0].data == {"round": 2, "starter": 1}
    state = deal(state)
    view = GAME.view(state, Audience.public())
    # Safari rule 1: seat 2 (index 1) starts round 2; then on around the seats.
    assert view["order"] == [1, 2, 3, 4, 0] and view["to_act"] == 1
    assert [d.seat for d in GAME.turn(state).decisions] == [1]


# -- rule 2: openings, the deal, a turn ------------------------------------------------------------


def test_referee_deal_opens_one_card_1_to_4_per_animal_and_deals_the_other_25():
    for seed in range(20):
        table = Table.create(MemoryStore(), f"t{seed}", "tricky_safari", NAMES, seed=seed, clock=lambda: 0.0)
        table.start(Actor.dealer())
        state = table.load().state
        assert state.step == "play"
        opened = {f"{a}:{n}" for a, n in zip(ANIMALS, state.opened, strict=True)}
        assert all(1 <= n <= 4 for n in state.opened)
        held = [c for hand in state.hands for c in hand]
        assert all(len(hand) == 5 for hand in state.hands)
        assert sorted(held + list(opened)) == sorted(DECK)
        entries = [e["event"] for e in table.store.entries(table.id)]
        dealt = [e for e in entries if e["type"] == "HandDealt"]
        assert [e["to"] for e in dealt] == [[0], [1], [2], [3], [4]]
        assert all(set(e["data"]) == {"round", "seat"} for e in dealt)


def test_referee_deal_differs_between_seeds_and_repeats_with_one():
    def hands(seed: int) -> tuple:
        table = Table.create(MemoryStore(), "t", "tricky_safari", NAMES, seed=seed, clock=lambda: 0.0)
        table.start(Actor.dealer())
        return table.load().state.hands, table.load().state.opened

    assert hands(1) == hands(1)
    assert len({hands(s) for s in range(6)}) == 6


def test_dealer_deal_and_the_last_hand_by_itself():
    state = fresh()
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "open_cards" and decision.seat is None
    assert [(f.name, f.shape, f.low, f.high) for f in decision.fields] == [(a, "number", 1, 4) for a in ANIMALS]
    state, events = dealer(state, {"type": "open_cards", **OPENED})
    assert events[0].data == {"round": 1, "opened": OPENED}
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "deal_hand"
    seat_field, cards_field = decision.fields
    assert seat_field.kind == "seat" and [o.value for o in seat_field.options] == [0, 1, 2, 3, 4]
    assert cards_field.shape == "some" and cards_field.k == 5 and cards_field.kind == "card"
    # The opened cards are not dealt.
    assert len(cards_field.options) == 25 and "elephant:3" not in {o.value for o in cards_field.options}
    for seat, hand in enumerate(SPREAD[:3]):
        state, _ = dealer(state, {"type": "deal_hand", "seat": seat, "cards": hand})
    assert state.step == "deal"
    state, events = dealer(state, {"type": "deal_hand", "seat": 3, "cards": SPREAD[3]})
    # The fifth seat holds the five cards left.
    assert [e.type for e in events] == ["HandDealt", "HandDealt"]
    assert events[1].data == {"round": 1, "seat": 4}
    assert events[1].private == {"hand": ["elephant:5", "rhino:5", "lion:5", "leopard:5", "zebra:5"]}
    assert state.step == "play" and state.hands[4] == ("elephant:5", "rhino:5", "lion:5", "leopard:5", "zebra:5")


def test_dealer_deal_errors():
    state = fresh()
    refused(state, Actor.dealer(), {"type": "open_cards", **{**OPENED, E: 5}}, "move/malformed")
    refused(state, Actor.dealer(), {"type": "open_cards", **{**OPENED, E: 0}}, "move/malformed")
    # The openings come first.
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 0, "cards": SPREAD[0]}, "move/not_owed")
    state, _ = dealer(state, {"type": "open_cards", **OPENED})
    state, _ = dealer(state, {"type": "deal_hand", "seat": 0, "cards": SPREAD[0]})
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 0, "cards": SPREAD[1]}, "safari/already_dealt")
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 9, "cards": SPREAD[1]}, "safari/no_such_seat")
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": "1", "cards": SPREAD[1]}, "safari/no_such_seat")
    error = refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 1, "cards": ["elephant:3", *SPREAD[1][1:]]},
                    "safari/card_unavailable")
    assert "코끼리 3" in error.ko and "Elephant 3" in error.en  # an opened card
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 1, "cards": ["rhino:0", *SPREAD[1][1:]]},
            "safari/card_unavailable")  # in seat 1's (index 0) hand already
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 1, "cards": ["dragon:1", *SPREAD[1][1:]]},
            "safari/no_such_card")
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 1, "cards": SPREAD[1][:4]}, "move/malformed")
    refused(state, Actor.dealer(), {"type": "deal_hand", "seat": 1, "cards": SPREAD[1][:4] * 2}, "move/malformed")
    refused(state, Actor.of_seat(1), {"type": "deal_hand", "seat": 1, "cards": SPREAD[1]}, "move/not_owed")


def test_bad_opening_is_refused_by_the_rule_itself():
    # The number fields already bound the openings; the rule's own check names the value.
    with pytest.raises(RuleError) as caught:
        safari_rules._opened(fresh(), {**OPENED, "zebra": 0})
    assert caught.value.code == "safari/bad_opening" and "0" in caught.value.en and "얼룩말" in caught.value.ko


def test_a_turn_is_a_play_then_a_take():
    state = new_game()
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "play_card" and decision.seat == 0
    (field,) = decision.fields
    # Every card in hand is playable.
    assert field.kind == "card" and [o.value for o in field.options] == SPREAD[0]
    assert field.options[0].label.ko == "코끼리 0" and field.options[0].label.en == "Elephant 0"
    refused(state, Actor.of_seat(0), {"type": "take_figure", "animal": L}, "move/not_owed")
    state, events = apply(state, Actor.of_seat(0), {"type": "play_card", "card": "elephant:0"})
    assert events[0].type == "CardPlayed" and events[0].data == {
        "round": 1, "seat": 0, "card": "elephant:0", "animal": E, "number": 0}
    # The elephant's value becomes 0.
    view = GAME.view(state, Audience.public())
    assert view["animals"][0]["value"] == 0 and view["animals"][0]["open"] == [3, 0]
    assert view["stage"] == "take" and view["to_act"] == 0
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "take_figure" and [o.value for o in decision.fields[0].options] == list(ANIMALS)
    refused(state, Actor.of_seat(0), {"type": "play_card", "card": "rhino:0"}, "move/not_owed")
    state, events = apply(state, Actor.of_seat(0), {"type": "take_figure", "animal": L})
    assert events[0].data == {"round": 1, "seat": 0, "animal": L}
    view = GAME.view(state, Audience.public())
    assert view["to_act"] == 1 and view["stage"] == "play"
    assert view["animals"][2]["figures_left"] == 4 and view["animals"][2]["taken_by"] == [0]
    assert view["seats"][0]["figures"] == [L] and view["seats"][0]["hand_count"] == 4


def test_turn_errors():
    state = new_game()
    refused(state, Actor.of_seat(1), {"type": "play_card", "card": "elephant:1"}, "move/not_owed")  # not their turn
    refused(state, Actor.dealer(), {"type": "play_card", "card": "elephant:0"}, "move/not_owed")
    error = refused(state, Actor.of_seat(0), {"type": "play_card", "card": "elephant:1"}, "safari/not_in_hand")
    assert "코끼리 1" in error.ko and "Elephant 1" in error.en
    refused(state, Actor.of_seat(0), {"type": "play_card", "card": "elephant:3"}, "safari/not_in_hand")  # opened
    for bad in ("elephant:6", "dragon:1", "nonsense", 7, -1):
        refused(state, Actor.of_seat(0), {"type": "play_card", "card": bad}, "safari/no_such_card")
    # The dealer may play for a seat whose phone died.
    state, _ = apply(state, Actor.on_behalf(0), {"type": "play_card", "card": "elephant:0"})
    for bad in ("dragon", 3, "Lion"):
        refused(state, Actor.of_seat(0), {"type": "take_figure", "animal": bad}, "safari/no_such_animal")


def test_no_figure_left():
    state = new_game(hands=SORTED)
    for seat in range(5):  # five lion figures, one per turn
        state, _ = turn_of(state, seat, state.hands[seat][0], L)
    state, _ = apply(state, Actor.of_seat(0), {"type": "play_card", "card": state.hands[0][0]})
    (decision,) = GAME.turn(state).decisions
    assert L not in [o.value for o in decision.fields[0].options]
    error = refused(state, Actor.of_seat(0), {"type": "take_figure", "animal": L}, "safari/no_figure_left")
    assert "사자" in error.ko and "Lion" in error.en


# -- rule 3: the round's end and its scoring -------------------------------------------------------


def test_worked_round():
    """Worked by hand. Openings E3 R1 L2 P4 Z1; the turns of WORKED give, in open order:
    elephant 3,0,1,4,2,5 (six: complete after turn 10), rhino 1,0, lion 2,3,4, leopard 4,5,
    zebra 1,2. Round-end values: elephant 5, rhino 0, lion 4, leopard 5, zebra 2.
    Figures: seat 0 lion+zebra = 4+2 = 6; seat 1 leopard+elephant = 5+5 = 10; seat 2
    lion+rhino = 4+0 = 4; seat 3 elephant+lion = 5+4 = 9; seat 4 leopard+zebra = 5+2 = 7."""
    state = new_game()
    for seat, card, animal in WORKED[:-1]:
        state, _ = turn_of(state, seat, card, animal)
    state, events = apply(state, Actor.of_seat(4), {"type": "play_card", "card": "elephant:5"})
    # Six elephant cards are open, but the turn is not over: seat 5 (index 4) still takes a figure.
    assert [e.type for e in events] == ["CardPlayed"] and state.step == "play"
    assert GAME.turn(state).decisions[0].move == "take_figure"
    state, events = apply(state, Actor.of_seat(4), {"type": "take_figure", "animal": Z})
    assert [e.type for e in events] == ["FigureTaken", "RoundScored"]
    scored = events[1].data
    assert scored["values"] == {E: 5, R: 0, L: 4, P: 5, Z: 2}
    assert scored["completed"] == [E]
    assert scored["figures"] == [[L, Z], [P, E], [L, R], [E, L], [P, Z]]
    assert scored["points"] == [6, 10, 4, 9, 7] and scored["scores"] == [6, 10, 4, 9, 7]
    assert state.step == "break"
    view = GAME.view(state, Audience.public())
    assert view["history"][0]["points"] == [6, 10, 4, 9, 7]
    assert [s["score"] for s in view["seats"]] == [6, 10, 4, 9, 7]
    assert [s["seat"] for s in view["standings"]] == [1, 3, 4, 0, 2]
    # The table waits for the dealer to begin round 2 (the scoring moment).
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "next_round" and decision.seat is None and not decision.fields
    refused(state, Actor.of_seat(1), {"type": "next_round"}, "move/not_owed")


def test_figures_return_and_scores_add_up_over_rounds():
    state, _ = worked_round(new_game())
    state, _ = dealer(state, {"type": "next_round"})
    state = deal(state)
    assert GAME.view(state, Audience.public())["animals"][0]["figures_left"] == 5
    assert all(not s["figures"] for s in GAME.view(state, Audience.public())["seats"])
    state = first_turns(state)
    second = state.history[1].points
    assert [s["score"] for s in GAME.view(state, Audience.public())["seats"]] == [
        a + b for a, b in zip((6, 10, 4, 9, 7), second, strict=True)]


def test_the_longest_round_is_21_turns_and_nothing_runs_out():
    """Each seat holds one animal's five cards: every play opens its own animal, so after 20
    turns every animal shows 5 cards; turn 21 (seat 1 again: turns 1, 6, 11, 16, 21) opens the
    sixth lion. 21 figures of 25 are taken, and seat 1 has played exactly its 5 cards."""
    state = new_game(hands=SORTED)
    figures = iter([a for a in ANIMALS for _ in range(5)])
    for turn in range(21):
        seat = turn % 5
        assert state.step == "play" and GAME.view(state, Audience.public())["to_act"] == seat
        state, events = turn_of(state, seat, state.hands[seat][0], next(figures))
    assert events[-1].type == "RoundScored" and events[-1].data["completed"] == [L]
    assert len(state.history[0].takes) == 21
    # Seat 1 has played all 5 cards, the others 4 each; what is left stays (secret) until round 2.
    assert state.hands == ((), ("elephant:5",), ("rhino:5",), ("leopard:5",), ("zebra:5",))
    assert state.history[0].hands[0] == tuple(SORTED[0])


# -- rule 4: animal ranks and bonuses --------------------------------------------------------------


def test_animal_ranks_ties_take_the_lowest_rank_of_their_block():
    assert animal_ranks((14, 10, 10, 12, 13)) == (1, 5, 5, 3, 2)
    assert animal_ranks((10, 10, 8, 8, 5)) == (2, 2, 4, 4, 5)
    assert animal_ranks((7, 7, 7, 7, 7)) == (5, 5, 5, 5, 5)
    assert animal_ranks((9, 1, 9, 3, 3)) == (2, 5, 2, 4, 4)
    assert animal_ranks((5, 4, 3, 2, 1)) == (1, 2, 3, 4, 5)


def record(r: int, values: tuple[int, ...], points: tuple[int, ...]) -> RoundRecord:
    return RoundRecord(r, r - 1, (1, 1, 1, 1, 1), ((),) * 5, (), (Take(0, E),), values, (E,), points)


# Worked by hand. Round-end values (elephant, rhino, lion, leopard, zebra):
VALUES = [(5, 0, 4, 5, 2), (3, 3, 1, 0, 4), (2, 4, 2, 1, 0), (0, 1, 3, 4, 2), (4, 2, 0, 2, 5)]
# Sums: elephant 14, rhino 10, lion 10, leopard 12, zebra 13 -> ranks 1, 5, 5, 3, 2 (rhino and lion
# tie for 4th and both take rank 5) -> bonuses 8, 0, 0, 4, 6. Seat bonuses: seat 1 E+R 8+0 = 8,
# seat 2 R+L 0, seat 3 L+P 4, seat 4 P+Z 10, seat 5 Z+E 14.
POINTS = [(6, 10, 4, 9, 1), (6, 8, 10, 5, 5), (6, 10, 10, 5, 6), (6, 5, 5, 5, 6), (6, 5, 5, 4, 6)]
# Figure points: 30, 38, 34, 28, 24 -> totals 38, 38, 38, 38, 38: everyone ties.


def test_final_scoring_worked_by_hand():
    history = tuple(record(r + 1, v, p) for r, (v, p) in enumerate(zip(VALUES, POINTS, strict=True)))
    f = final_scoring(history, (7, 5, 9, 6, 8))
    assert f.sums == (14, 10, 10, 12, 13) and f.ranks == (1, 5, 5, 3, 2) and f.animal_bonus == (8, 0, 0, 4, 6)
    assert f.figure_points == (30, 38, 34, 28, 24) and f.bonuses == (8, 0, 4, 10, 14)
    assert f.totals == (38,) * 5
    # Safari rule 5: every total ties, so the Gallery ranks (7, 5, 9, 6, 8) decide everything.
    assert f.order == (1, 3, 0, 4, 2) and f.winner == 1 and f.last == 2
    g = final_scoring(history, (1, 2, 3, 4, 5))
    assert g.order == (0, 1, 2, 3, 4) and g.winner == 0 and g.last == 4


def test_the_last_is_the_lowest_of_the_other_four():
    points = [(20, 1, 1, 1, 1), (0,) * 5, (0,) * 5, (0,) * 5, (0,) * 5]
    history = tuple(record(r + 1, v, p) for r, (v, p) in enumerate(zip(VALUES, points, strict=True)))
    f = final_scoring(history, (1, 2, 3, 4, 5))
    # Totals: 20+8, 1+0, 1+4, 1+10, 1+14 = 28, 1, 5, 11, 15.
    assert f.totals == (28, 1, 5, 11, 15) and f.winner == 0 and f.last == 1


# -- rule 5: a whole match, the winner names the opponent ------------------------------------------


def five_rounds(options: dict[str, Any] | None = None) -> SafariState:
    state = new_game(options)
    state, _ = worked_round(state)
    for _ in range(4):
        state, _ = dealer(state, {"type": "next_round"})
        state = first_turns(deal(state))
    return state


def whole_match(options: dict[str, Any] | None = None) -> SafariState:
    state, _ = dealer(five_rounds(options), {"type": "final_scoring"})
    return state


def test_round_5_scoring_then_the_final_scoring_on_the_dealers_word():
    state = five_rounds()
    assert state.step == "break" and state.round == 5 and state.final is None
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "final_scoring" and decision.seat is None
    refused(state, Actor.dealer(), {"type": "next_round"}, "move/not_owed")  # there is no round 6
    state, events = dealer(state, {"type": "final_scoring"})
    assert [e.type for e in events] == ["SafariScored"] and state.step == "naming"


def test_whole_match_to_the_naming():
    state = whole_match({"gallery_ranks": "7,5,9,6,8"})
    assert state.step == "naming" and len(state.history) == 5
    assert GAME.result(state) is None  # final only once the opponent is named
    f = state.final
    sums = tuple(sum(r.values[i] for r in state.history) for i in range(5))
    assert f.sums == sums and f.ranks == animal_ranks(sums)
    figure_points = tuple(sum(r.points[s] for r in state.history) for s in range(5))
    assert f.figure_points == figure_points
    assert f.totals == tuple(figure_points[s] + sum(f.animal_bonus[ANIMALS.index(a)] for a in PAIRS[s]) for s in range(5))
    (decision,) = GAME.turn(state).decisions
    assert decision.move == "name_opponent" and decision.seat == f.winner
    (field,) = decision.fields
    options = [o.value for o in field.options]
    assert field.kind == "seat" and len(options) == 3 and f.winner not in options and f.last not in options
    refused(state, Actor.of_seat(f.winner), {"type": "name_opponent", "opponent": f.winner}, "safari/self_opponent")
    refused(state, Actor.of_seat(f.winner), {"type": "name_opponent", "opponent": f.last}, "safari/last_opponent")
    refused(state, Actor.of_seat(f.winner), {"type": "name_opponent", "opponent": 5}, "safari/no_such_seat")
    refused(state, Actor.of_seat(f.last), {"type": "name_opponent", "opponent": options[0]}, "move/not_owed")
    state, events = apply(state, Actor.of_seat(f.winner), {"type": "name_opponent", "opponent": options[-1]})
    assert events[0].data == {"seat": f.winner, "opponent": options[-1]}
    result = GAME.result(state)
    assert result is not None and result.winner() == f.winner
    assert [s.seat for s in result.standings] == list(f.order) and [s.rank for s in result.standings] == [1, 2, 3, 4, 5]
    assert [s.score for s in result.standings] == [f.totals[s] for s in f.order]
    d = result.details
    assert (d["winner"], d["last"], d["opponent"]) == (f.winner, f.last, options[-1])
    assert d["animal_sums"] == dict(zip(ANIMALS, sums, strict=True))
    assert d["bonuses"] == list(f.bonuses) and d["totals"] == list(f.totals)
    assert GAME.turn(state).decisions == ()
    view = GAME.view(state, Audience.public())
    assert view["opponent"] == options[-1] and view["final"]["winner"] == f.winner
    json.dumps(d)


def test_the_final_event_is_public_and_complete():
    state = whole_match()
    view = GAME.view(state, Audience.public())
    final = view["final"]
    assert set(final) == {"sums", "ranks", "animal_bonus", "figure_points", "bonuses", "totals", "order", "winner",
                          "last"}
    assert [s["seat"] for s in view["standings"]] == final["order"]


# -- views, panel, sheets, the log in words --------------------------------------------------------


def test_hands_are_seen_by_the_owner_and_the_dealer_only():
    state = new_game()
    public = GAME.view(state, Audience.public())
    assert all("hand" not in s for s in public["seats"])
    for seat in range(5):
        mine = GAME.view(state, Audience.of_seat(seat))
        assert mine["seats"][seat]["hand"] == list(state.hands[seat])
        assert all("hand" not in s for i, s in enumerate(mine["seats"]) if i != seat)
        assert {k: v for k, v in mine.items() if k != "seats"} == {k: v for k, v in public.items() if k != "seats"}
    dealer_view = GAME.view(state, Audience.dealer())
    assert all(s["hand"] == list(state.hands[i]) for i, s in enumerate(dealer_view["seats"]))
    assert "panel" in dealer_view and "sheets" in dealer_view and "panel" not in public


def test_history_hands_only_for_the_dealer():
    state, _ = worked_round(new_game())
    assert "hands" not in GAME.view(state, Audience.public())["history"][0]
    assert "hands" not in GAME.view(state, Audience.of_seat(0))["history"][0]
    assert GAME.view(state, Audience.dealer())["history"][0]["hands"][0] == SPREAD[0]


def cells(sections: list[dict[str, Any]]) -> str:
    return json.dumps(sections, ensure_ascii=False)


def test_panel_shows_every_hand_whose_turn_the_figures_and_scores():
    state = new_game()
    state, _ = turn_of(state, 0, "elephant:0", L)
    panel = GAME.view(state, Audience.dealer())["panel"]
    headings = [s["heading"]["en"] for s in panel]
    assert headings[0] == "Now" and "Scores" in headings and "Animals" in headings
    assert panel[0]["paragraphs"][0]["ko"].endswith("2번 이서연: 카드 내기") and panel[0]["paragraphs"][0]["tone"] == "now"
    hands = next(s for s in panel if "hands" in s["heading"]["en"])["table"]
    assert hands[2][0] == {"ko": "2번 이서연", "en": "2 이서연", "tone": "now"}
    assert hands[1][3] == {"ko": "코뿔소 0, 사자 0, 표범 0, 얼룩말 0", "en": "Rhino 0, Lion 0, Leopard 0, Zebra 0",
                           "tone": "secret"}
    assert hands[1][4]["ko"] == "사자"
    text = cells(panel)
    assert all(f"Lion {n}" in text for n in (1, 3, 4, 5))  # seat 2's lions, say
    animals = next(s for s in panel if s["heading"]["en"] == "Animals")["table"]
    assert animals[1][1] == "0" and animals[1][2] == "3 → 0 (2/6)"
    assert animals[3][3] == "4/5" and animals[3][4]["ko"] == "1번 김민준"
    # Every row of every table has the width of its heading row.
    for section in panel:
        if section.get("table"):
            assert len({len(row) for row in section["table"]}) == 1


def test_sheets_run_sheet_and_score_sheet():
    state = whole_match({"gallery_ranks": "7,5,9,6,8"})
    sheets = GAME.view(state, Audience.dealer())["sheets"]
    assert set(sheets) == {"run_sheet", "score_sheet"}
    run = sheets["run_sheet"]
    assert run["title"]["en"] == "Run sheet: Tricky Safari"
    seating = run["sections"][0]["table"]
    # Choosing order is Gallery rank order: rank 5 (seat 2), 6 (seat 4), 7 (seat 1), 8, 9.
    assert [row[2] for row in seating[1:]] == ["이서연", "최유나", "김민준", "정하준", "박지호"]
    assert [row[3] for row in seating[1:]] == ["2", "4", "1", "5", "3"]
    round1 = run["sections"][2]
    assert round1["heading"]["ko"] == "1라운드 (선: 1번 김민준)"
    assert round1["paragraphs"][0]["ko"] == "코끼리 3, 코뿔소 1, 사자 2, 표범 4, 얼룩말 1"
    assert round1["table"][1] == ["1번 김민준", "코끼리 0, 코뿔소 0, 사자 0, 표범 0, 얼룩말 0"]
    assert run["sections"][3]["heading"]["ko"] == "2라운드 (선: 2번 이서연)"
    score = sheets["score_sheet"]
    r1 = score["sections"][0]["table"]
    assert r1[1][1:6] == ["5", "0", "4", "5", "2"]  # round-end values
    assert r1[2][0] == "1번 김민준" and r1[2][3] == "1" and r1[2][5] == "1" and r1[2][6] == "6"
    animals = score["sections"][5]["table"]
    f = state.final
    assert [row[7] for row in animals[1:]] == [str(r) for r in f.ranks]
    assert [row[8] for row in animals[1:]] == [str(b) for b in f.animal_bonus]
    totals = score["sections"][6]["table"]
    assert [row[1][0] for row in totals[1:]] == [str(s + 1) for s in f.order]
    assert totals[1][6]["en"] == "winner" and totals[5][6]["en"] == "last"
    for sheet in sheets.values():
        for section in sheet["sections"]:
            if section.get("table"):
                assert len({len(row) for row in section["table"]}) == 1


def test_sheets_before_anything_is_dealt_are_blank_forms():
    sheets = GAME.view(fresh(), Audience.dealer())["sheets"]
    round1 = sheets["run_sheet"]["sections"][2]
    assert round1["table"][1][1] == "" and "__" in round1["paragraphs"][0]["ko"]
    assert sheets["score_sheet"]["sections"][0]["table"][2][6] == ""


def words(state_events: list[Event], audience: Audience) -> list[str]:
    out = []
    for event in state_events:
        text = GAME.describe(event.visible_to(audience), tuple(NAMES))
        assert text is not None, event.type
        out.append(text.ko + " | " + text.en)
    return out


def test_describe_every_event():
    state = fresh()
    state, opened = dealer(state, {"type": "open_cards", **OPENED})
    state, dealt = dealer(state, {"type": "deal_hand", "seat": 0, "cards": SPREAD[0]})
    assert words(opened, Audience.public()) == [
        "1라운드 공개 카드: 코끼리 3, 코뿔소 1, 사자 2, 표범 4, 얼룩말 1 | "
        "Round 1 opened: Elephant 3, Rhino 1, Lion 2, Leopard 4, Zebra 1"]
    assert words(dealt, Audience.public()) == ["1번 김민준: 카드 5장을 받음 | 1 김민준: dealt 5 cards"]
    assert words(dealt, Audience.of_seat(0)) == [
        "1번 김민준 손패: 코끼리 0, 코뿔소 0, 사자 0, 표범 0, 얼룩말 0 | 1 김민준 hand: Elephant 0, Rhino 0, Lion 0, Leopard 0, "
        "Zebra 0"]
    state = deal(fresh())
    for seat, card, animal in WORKED[:-1]:
        state, _ = turn_of(state, seat, card, animal)
    state, events = turn_of(state, 4, "elephant:5", Z)
    assert words(events, Audience.public()) == [
        "5번 정하준: 코끼리 5 카드 → 코끼리 가치 5 | 5 정하준: plays Elephant 5 → Elephant is worth 5",
        "5번 정하준: 얼룩말 피규어 | 5 정하준: takes a Zebra figure",
        "1라운드 종료 (코끼리 6장 공개). 가치: 코끼리 5, 코뿔소 0, 사자 4, 표범 5, 얼룩말 2. "
        "점수: 1번 김민준 6, 2번 이서연 10, 3번 박지호 4, 4번 최유나 9, 5번 정하준 7 | "
        "Round 1 over (Elephant all open). Values: Elephant 5, Rhino 0, Lion 4, Leopard 5, Zebra 2. "
        "Points: 1 김민준 6, 2 이서연 10, 3 박지호 4, 4 최유나 9, 5 정하준 7"]
    _, began = dealer(state, {"type": "next_round"})
    assert words(began, Audience.public()) == ["2라운드 시작: 2번 이서연부터 | Round 2 begins with 2 이서연"]
    state = whole_match()
    f = state.final
    opponent = [s for s in range(5) if s not in (f.winner, f.last)][0]
    _, named = apply(state, Actor.of_seat(f.winner), {"type": "name_opponent", "opponent": opponent})
    (line,) = words(named, Audience.public())
    assert line.startswith(f"{f.winner + 1}번 {NAMES[f.winner]}: 트리키 코인 상대로 {opponent + 1}번 {NAMES[opponent]} 지목")


def test_describe_the_final_scoring():
    state = new_game()
    state, _ = worked_round(state)
    for _ in range(3):
        state, _ = dealer(state, {"type": "next_round"})
        state = first_turns(deal(state))
    state, _ = dealer(state, {"type": "next_round"})
    state = first_turns(deal(state))
    state, events = dealer(state, {"type": "final_scoring"})
    (line,) = words(events, Audience.public())
    f = state.final
    assert line.startswith("최종 동물 합계: 코끼리 ") and f"우승 {f.winner + 1}번 {NAMES[f.winner]}" in line
    assert f"최하위 {f.last + 1}번 {NAMES[f.last]}" in line


def test_describe_every_logged_event_of_a_bot_match_for_every_audience():
    table = Table.create(MemoryStore(), "t", "tricky_safari", NAMES, options={"deal": "dealer"}, seed=9,
                         clock=lambda: 0.0)
    table.start(Actor.dealer())
    rnd = random.Random(9)
    while table.result() is None:
        actor, move = pick(GAME.turn(table.load().state), rnd)
        table.submit(actor, move)
    types = set()
    for audience in (Audience.public(), Audience.of_seat(2), Audience.dealer()):
        for row in table.log(audience):
            event = row["event"]
            if event["type"].startswith("table."):
                continue
            types.add(event["type"])
            text = GAME.describe(event, tuple(NAMES))
            assert text is not None and text.ko and text.en
            assert event["type"] not in text.ko + text.en and "0번" not in text.ko
    assert types == {"CardsOpened", "HandDealt", "CardPlayed", "FigureTaken", "RoundScored", "RoundBegan",
                     "SafariScored", "OpponentNamed"}
    json.dumps(table.view(Audience.dealer()), ensure_ascii=False)


def test_describe_knows_nothing_else():
    assert GAME.describe({"type": "table.started"}, tuple(NAMES)) is None


# -- the command line ------------------------------------------------------------------------------


def referee(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_cli_play_is_deterministic(tmp_path):
    first = referee("play", "tricky_safari", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "a"))
    second = referee("play", "tricky_safari", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "b"))
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    result = json.loads(lines[-1])
    details = result["details"]
    assert result["winner"] == details["winner"] and details["opponent"] not in (details["winner"], details["last"])
    assert [s["rank"] for s in result["standings"]] == [1, 2, 3, 4, 5]
    final_view = json.loads(lines[-2])
    assert final_view["state"]["step"] == "over" and all("hand" not in s for s in final_view["state"]["seats"])
    other = referee("play", "tricky_safari", "--bots", "--seed", "4", "--option", "deal", "dealer",
                    "--data-dir", str(tmp_path / "a"))
    assert other.stdout != first.stdout and json.loads(other.stdout.splitlines()[-1])["details"]["opponent"] is not None
