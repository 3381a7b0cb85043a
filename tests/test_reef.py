"""Reef (seed 004, RULINGS.md "Reef", rules numbered in referee/games/reef/__init__.py): pure unit
tests per rule, whole-round scenarios worked by hand, the options, the views, the log in words and
the command line.

Cells: 0 is A1 (top left) .. 15 is D4, row by row; the centre is B2 (5), C2 (6), B3 (9), C3 (10).
Start corals in these tests: red B2, yellow C2, purple B3, green C3 unless said otherwise.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest

from referee.cli import bot_step
from referee.games.reef import CARDS, GAME, ReefState
from referee.games.reef.patterns import score, with_coral
from referee.games.reef.views import describe
from referee.kernel import Actor, Audience, Event, Rng, RuleError, seat_names
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table

DEALER = Actor.dealer()
START = {"red": 5, "yellow": 6, "purple": 9, "green": 10}
NAMES = ("김민준", "이서연", "박지호", "최하은")


def seat(n: int) -> Actor:
    return Actor.of_seat(n)


# -- helpers ----------------------------------------------------------------------------------------


def new(seats: int = 2, deal: str = "referee") -> ReefState:
    return GAME.setup(NAMES[:seats], GAME.resolve_options({"deal": deal}), Rng.forbidden())


def apply(state: ReefState, actor: Actor, move: dict[str, Any], rng: Rng | None = None) -> tuple[ReefState, list[Event]]:
    events = GAME.decide(state, actor, move, rng or Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def automatic(state: ReefState, rng: Rng) -> tuple[ReefState, list[Event]]:
    events: list[Event] = []
    while (auto := GAME.turn(state).automatic()) is not None:
        state, ev = apply(state, Actor.referee(), {"type": auto.move}, rng)
        events += ev
    return state, events


def rule_error(state: ReefState, actor: Actor, move: dict[str, Any]) -> RuleError:
    before = state
    with pytest.raises(RuleError) as info:
        GAME.decide(state, actor, move, Rng(0))
    assert state == before
    return info.value


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def owed(state: ReefState, who: int | None = None) -> list[str]:
    return [d.move for d in GAME.turn(state).decisions if d.seat == who and not d.auto]


def values(state: ReefState, move: str, field: str | None = None) -> list[Any]:
    (decision,) = [d for d in GAME.turn(state).decisions if d.move == move]
    f = decision.fields[0] if field is None else next(f for f in decision.fields if f.name == field)
    return [o.value for o in f.options]


def started(seats: int = 2, seed: int = 0) -> ReefState:
    """A referee-dealt match at its first turn, every seat with the standard start corals."""
    state, _ = automatic(new(seats), Rng(seed))
    for s in range(seats):
        state, _ = apply(state, seat(s), {"type": "place_start", "corals": START})
    assert state.step == "action" and state.current == 0
    return state


def arranged(seats: int = 2, hands: tuple = (), display: tuple = (1, 2, 3), deck: tuple = (), **fields: Any) -> ReefState:
    """A started match with chosen hands, display and deck (top first)."""
    state = started(seats)
    hands = hands or ((),) * seats
    return replace(state, hands=tuple(tuple(h) for h in hands), display=tuple(display), deck=tuple(deck),
                   tokens=(0, 0, 0), **fields)


def play(state: ReefState, card: int, *placements: tuple[int, str | None]) -> tuple[ReefState, list[Event]]:
    """The current seat plays `card` and places its corals: (cell, colour or None)."""
    who = seat(state.current)
    state, events = apply(state, who, {"type": "play_card", "card": card})
    for cell, colour in placements:
        move: dict[str, Any] = {"type": "place_coral", "cell": cell}
        if colour is not None:
            move["coral"] = colour
        state, more = apply(state, who, move)
        events += more
    return state, events


def board_of(*rows: str) -> tuple[tuple[str, ...], ...]:
    letter = {"R": "red", "Y": "yellow", "P": "purple", "G": "green"}
    cells = [t for row in rows for t in row.split()]
    return tuple(() if t == "." else tuple(letter[c] for c in t) for t in cells)


CENTRE_ONLY = board_of(". . . .", ". R Y .", ". P G .", ". . . .")


# -- Reef rule 1: setup -----------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "supply"), [(2, 18), (3, 24), (4, 28)])
def test_supply_by_player_count_and_three_points_each(seats, supply):
    state = new(seats)
    assert state.supply == (supply,) * 4 and state.points == (3,) * seats
    # Reef rule 2: the start corals come out of the supply, one of each colour per seat.
    assert started(seats).supply == (supply - seats,) * 4


def test_setup_draws_nothing_and_the_referee_deal_is_an_automatic_decision():
    state = new(3)  # Rng.forbidden(): setup would raise if it drew
    assert [d.move for d in GAME.turn(state).decisions if d.auto] == ["deal"]
    dealt, events = automatic(state, Rng(5))
    assert types(events) == ["DeckShuffled"] + ["CardDealt"] * 6 + ["DisplayFilled"] * 3
    shuffled = events[0]
    assert shuffled.data == {"cards": 60} and shuffled.to == () and len(shuffled.private["deck"]) == 60
    for e in events[1:7]:
        assert set(e.data) == {"seat"} and e.to == (e.data["seat"],) and set(e.private) == {"card"}
    assert [len(h) for h in dealt.hands] == [2, 2, 2] and None not in dealt.display
    assert len(dealt.deck) == 60 - 6 - 3
    # The same generator gives the same deal; another gives another.
    again, _ = automatic(new(3), Rng(5))
    other, _ = automatic(new(3), Rng(6))
    assert again == dealt and other.hands != dealt.hands


# -- Reef rule 2: the start corals --------------------------------------------------------------------


def test_start_corals_go_on_the_centre_as_each_player_chooses():
    state, _ = automatic(new(2), Rng(1))
    assert owed(state, 0) == ["place_start"] and owed(state, 1) == ["place_start"]
    (decision,) = [d for d in GAME.turn(state).decisions if d.seat == 0]
    field = decision.fields[0]
    assert field.shape == "assign" and field.kind == "cell"
    assert [o.value for o in field.options] == [5, 6, 9, 10]
    assert [i.value for i in field.items] == ["red", "yellow", "purple", "green"]
    mine = {"red": 10, "yellow": 9, "purple": 6, "green": 5}
    state, events = apply(state, seat(1), {"type": "place_start", "corals": mine})
    assert types(events) == ["StartPlaced"]
    assert state.boards[1][10] == ("red",) and state.boards[1][5] == ("green",)
    # Still waiting for seat 1 (0-based 0): no turn yet.
    assert state.step == "setup" and owed(state, 1) == []
    state, events = apply(state, seat(0), {"type": "place_start", "corals": START})
    assert types(events) == ["StartPlaced", "TurnBegan"]
    assert events[-1].data == {"seat": 0, "round": 1}
    assert state.boards[0] == CENTRE_ONLY


def test_start_corals_errors():
    state, _ = automatic(new(2), Rng(1))
    twice = {"red": 5, "yellow": 5, "purple": 9, "green": 10}
    assert rule_error(state, seat(0), {"type": "place_start", "corals": twice}).code == "reef/start_cell_twice"
    off = {"red": 0, "yellow": 6, "purple": 9, "green": 10}
    assert rule_error(state, seat(0), {"type": "place_start", "corals": off}).code == "move/malformed"
    missing = {"red": 5, "yellow": 6, "purple": 9}
    assert rule_error(state, seat(0), {"type": "place_start", "corals": missing}).code == "move/malformed"
    done, _ = apply(state, seat(0), {"type": "place_start", "corals": START})
    assert rule_error(done, seat(0), {"type": "place_start", "corals": START}).code == "move/not_owed"


def test_the_first_turn_waits_for_the_deal_and_every_start():
    state = new(2, deal="dealer")
    for s in (0, 1):
        state, events = apply(state, seat(s), {"type": "place_start", "corals": START})
    assert state.step == "setup" and "TurnBegan" not in types(events)
    for card in (11, 12, 13, 14, 15, 16, 17):
        state, events = apply(state, DEALER, {"type": "deal_card", "card": card})
    assert types(events)[-1] == "TurnBegan" and state.current == 0


# -- Reef rules 3-4: taking a display card --------------------------------------------------------------


def test_taking_a_display_card_takes_its_points_and_refills_from_the_deck_top():
    state = arranged(hands=((41,), (42,)), display=(7, 14, 20), deck=(30, 31))
    state = replace(state, tokens=(2, 0, 0))
    assert owed(state, 0) == ["take_card", "draw_card", "play_card"]
    state, events = apply(state, seat(0), {"type": "take_card", "card": 7})
    assert types(events) == ["CardTaken", "DisplayFilled", "TurnBegan"]
    assert events[0].data == {"seat": 0, "card": 7, "slot": 0, "tokens": 2}
    assert events[1].data == {"slot": 0, "card": 30}  # the refill is public
    assert state.hands[0] == (41, 7) and state.points[0] == 5 and state.display == (30, 14, 20)
    assert state.tokens == (0, 0, 0) and state.deck == (31,) and state.current == 1


def test_a_seat_holding_4_cards_must_play():
    state = arranged(hands=((41, 42, 43, 44), (45,)), display=(7, 14, 20), deck=(30, 31))
    assert owed(state, 0) == ["play_card"]
    assert rule_error(state, seat(0), {"type": "take_card", "card": 7}).code == "move/not_owed"
    assert rule_error(state, seat(0), {"type": "draw_card", "card": 7}).code == "move/not_owed"


def test_take_errors():
    state = arranged(hands=((41,), (42,)), display=(7, 14, 20), deck=(30,))
    assert rule_error(state, seat(0), {"type": "take_card", "card": 41}).code == "reef/not_on_display"
    assert rule_error(state, seat(0), {"type": "take_card", "card": "7"}).code == "reef/not_on_display"
    assert rule_error(state, seat(1), {"type": "take_card", "card": 7}).code == "move/not_owed"


# -- Reef rule 5: drawing from the deck ------------------------------------------------------------------


def test_drawing_pays_a_point_onto_the_lowest_printed_card():
    # Card 3 prints 5 points, card 11 prints 2, card 36 prints 2: the lowest are 11 and 36; the
    # 3 points already on card 11 do not count (RULINGS: tokens on it ignored).
    state = arranged(hands=((41,), (42,)), display=(3, 11, 36), deck=(30, 31))
    state = replace(state, tokens=(0, 3, 0))
    assert values(state, "draw_card") == [11, 36]
    assert rule_error(state, seat(0), {"type": "draw_card", "card": 3}).code == "reef/not_lowest"
    assert rule_error(state, seat(0), {"type": "draw_card", "card": 41}).code == "reef/not_on_display"
    state, events = apply(state, seat(0), {"type": "draw_card", "card": 36})
    assert types(events) == ["PointPaid", "CardDrawn", "TurnBegan"]
    assert events[0].data == {"seat": 0, "card": 36, "slot": 2}
    drawn = events[1]
    assert drawn.data == {"seat": 0} and drawn.private == {"card": 30} and drawn.to == (0,)
    assert state.points[0] == 2 and state.tokens == (0, 3, 1) and state.hands[0] == (41, 30)
    assert state.deck == (31,) and state.display == (3, 11, 36)


def test_no_draw_without_a_point_or_a_deck_card():
    broke = replace(arranged(hands=((41,), (42,)), display=(3, 11, 36), deck=(30,)), points=(0, 3))
    assert owed(broke, 0) == ["take_card", "play_card"]
    assert rule_error(broke, seat(0), {"type": "draw_card", "card": 11}).code == "move/not_owed"
    empty = arranged(hands=((41,), (42,)), display=(3, 11, 36), deck=())
    assert owed(empty, 0) == ["take_card", "play_card"]


def test_drawing_the_last_card_does_not_end_the_game_but_taking_with_no_refill_does():
    state = arranged(hands=((41,), (42,)), display=(3, 11, 36), deck=(30,))
    state, events = apply(state, seat(0), {"type": "draw_card", "card": 11})
    assert state.deck == () and state.step == "action" and types(events)[-1] == "TurnBegan"
    # Seat 2 takes a display card: the empty deck cannot refill the slot: the game ends at once.
    state, events = apply(state, seat(1), {"type": "take_card", "card": 3})
    assert types(events) == ["CardTaken", "GameEnded", "HandScored", "HandScored", "FinalScores"]
    assert events[1].data == {"reason": "deck"}
    assert state.step == "over" and state.display == (None, 11, 36)
    assert GAME.result(state) is not None


# -- Reef rules 6-8: playing a card --------------------------------------------------------------------


def test_playing_a_card_places_its_two_corals_and_scores_it():
    # Card 12: green + green, yellow L of 3, 4 points. Seat 1's board: the centre only, then yellow
    # corals on B1 and C1 by hand: C1 (2), C2 (6, yellow start), B1 (1) make an L. Place the two
    # greens on A1 and D4: 1 L, 4 points.
    state = arranged(hands=((12, 41), (42,)), display=(3, 11, 36), deck=(30, 31))
    board = with_coral(with_coral(CENTRE_ONLY, 1, "yellow"), 2, "yellow")
    state = replace(state, boards=(board, state.boards[1]))
    state, events = apply(state, seat(0), {"type": "play_card", "card": 12})
    assert types(events) == ["CardPlayed"]
    assert events[0].data == {"seat": 0, "card": 12, "corals": ["green", "green"]}
    assert state.hands[0] == (41,) and state.played[0] == (12,) and state.step == "place"
    assert state.supply[3] == 18 - 2 - 2  # green: 2 start corals, 2 taken now
    # Same colours: no choice of which goes first, only the cell.
    (decision,) = GAME.turn(state).for_seat(0)
    assert [f.name for f in decision.fields] == ["cell"] and decision.fields[0].kind == "cell"
    state, events = apply(state, seat(0), {"type": "place_coral", "cell": 0})
    assert types(events) == ["CoralPlaced"] and events[0].data == {"seat": 0, "colour": "green", "cell": 0, "height": 1}
    state, events = apply(state, seat(0), {"type": "place_coral", "cell": 15})
    assert types(events) == ["CoralPlaced", "CardScored", "TurnBegan"]
    scored = events[1].data
    assert scored["count"] == 1 and scored["points"] == 4 and scored["placed"] == [0, 15]
    assert sorted(scored["matches"][0]) == [1, 2, 6]
    assert state.points[0] == 3 + 4 and state.current == 1


def test_two_colours_let_the_player_choose_which_goes_first_and_the_last_is_on_top():
    # Card 3: red + yellow. Yellow first on A1, then red on A1: red ends on top.
    state = arranged(hands=((3,), (42,)), display=(7, 11, 36), deck=(30,))
    state, _ = apply(state, seat(0), {"type": "play_card", "card": 3})
    (decision,) = GAME.turn(state).for_seat(0)
    assert [f.name for f in decision.fields] == ["coral", "cell"]
    assert [o.value for o in decision.fields[0].options] == ["red", "yellow"]
    assert rule_error(state, seat(0), {"type": "place_coral", "coral": "green", "cell": 0}).code == "reef/no_such_coral"
    state, _ = apply(state, seat(0), {"type": "place_coral", "coral": "yellow", "cell": 0})
    (decision,) = GAME.turn(state).for_seat(0)
    assert [f.name for f in decision.fields] == ["cell"]
    state, _ = apply(state, seat(0), {"type": "place_coral", "cell": 0})
    assert state.boards[0][0] == ("yellow", "red")


def test_stacks_grow_to_4_and_corals_go_on_open_cells_only():
    state = arranged(hands=((7,), (42,)), display=(3, 11, 36), deck=(30,))
    tall = with_coral(with_coral(with_coral(CENTRE_ONLY, 5, "red"), 5, "red"), 5, "red")  # B2 4 high
    state = replace(state, boards=(tall, state.boards[1]))
    state, _ = apply(state, seat(0), {"type": "play_card", "card": 7})
    assert 5 not in values(state, "place_coral", "cell") and len(values(state, "place_coral", "cell")) == 15
    assert rule_error(state, seat(0), {"type": "place_coral", "cell": 5}).code == "reef/stack_full"
    assert rule_error(state, seat(0), {"type": "place_coral", "cell": 16}).code == "reef/no_such_cell"
    assert rule_error(state, seat(0), {"type": "place_coral", "cell": "A1"}).code == "reef/no_such_cell"
    state, _ = apply(state, seat(0), {"type": "place_coral", "cell": 6})
    state, _ = apply(state, seat(0), {"type": "place_coral", "cell": 6})
    assert state.boards[0][6] == ("yellow", "red", "red")


def test_play_errors():
    state = arranged(hands=((7,), (42,)), display=(3, 11, 36), deck=(30,))
    assert rule_error(state, seat(0), {"type": "play_card", "card": 42}).code == "reef/not_in_hand"
    assert rule_error(state, seat(0), {"type": "play_card", "card": 999}).code == "reef/not_in_hand"
    assert rule_error(state, seat(1), {"type": "play_card", "card": 42}).code == "move/not_owed"
    assert rule_error(state, DEALER, {"type": "play_card", "card": 7}).code == "move/not_owed"
    # The dealer may play on behalf of the seat (its phone died).
    after, events = apply(state, Actor.on_behalf(0), {"type": "play_card", "card": 7})
    assert types(events) == ["CardPlayed"]


def test_the_last_coral_offers_each_cell_with_its_exact_score():
    # Card 20: purple + purple, yellow 1+ high, 1 point each: the yellow start coral counts 1; a
    # purple on C2 covers it (0), elsewhere 1.
    state = arranged(hands=((20,), (42,)), display=(3, 11, 36), deck=(30,))
    state, _ = apply(state, seat(0), {"type": "play_card", "card": 20})
    first = GAME.view(state, Audience.of_seat(0))["preview"]
    assert first["last"] is False and first["colours"] == ["purple", "purple"]
    # The first of two: the best the second coral can still reach (both on other cells: 1; on C2: 0,
    # as nothing else is yellow).
    best = {row["cell"]: row["points"] for row in first["cells"]["purple"]}
    assert best[6] == 0 and best[0] == 1
    state, _ = apply(state, seat(0), {"type": "place_coral", "cell": 0})
    (decision,) = GAME.turn(state).for_seat(0)
    hints = {o.value: o.hint.ko for o in decision.fields[0].options}
    assert hints[6] == "0점" and hints[1] == "1점"
    preview = GAME.view(state, Audience.of_seat(0))["preview"]
    assert preview["last"] is True
    for row in preview["cells"]["purple"]:
        expected = score(CARDS[20], with_coral(state.boards[0], row["cell"], "purple"))
        assert (row["points"], row["matches"]) == (expected.points, [list(m) for m in expected.matches])
    # Only the placing seat (and the dealer) get the preview.
    assert "preview" not in GAME.view(state, Audience.of_seat(1))
    assert "preview" not in GAME.view(state, Audience.public())


def test_the_hand_shows_what_each_card_scores_on_the_board_as_it_is():
    state = arranged(hands=((14, 20), (42,)), display=(3, 11, 36), deck=(30,))
    mine = GAME.view(state, Audience.of_seat(0))["seats"][0]["hand"]
    # Card 14: purple 1+ (1 point): the purple start coral: 1. Card 20: yellow 1+: 1.
    assert [(c["n"], c["now"]["points"]) for c in mine] == [(14, 1), (20, 1)]
    hints = {o.value: o.hint.en for o in next(d for d in GAME.turn(state).decisions if d.move == "play_card").fields[0].options}
    assert hints == {14: "scores 1 on the board as it is", 20: "scores 1 on the board as it is"}


# -- Reef rule 9: the end --------------------------------------------------------------------------------


def test_a_colour_that_runs_out_gives_what_is_left_and_finishes_the_round():
    # 3 seats; 1 red left. Seat 2 (0-based 1) plays card 7 (red + red): one red comes, the red
    # supply is 0: the red runs out, seat 3 still plays, then the game ends (seat 1 does not).
    state = arranged(3, hands=((41,), (7, 14), (20,)), display=(3, 11, 36), deck=(30, 31, 32))
    state = replace(state, current=1, supply=(1, 10, 10, 10))
    state, events = apply(state, seat(1), {"type": "play_card", "card": 7})
    assert types(events) == ["CardPlayed", "ColourRanOut"]
    assert events[0].data["corals"] == ["red"] and events[1].data == {"colour": "red", "last_seat": 2}
    state, events = apply(state, seat(1), {"type": "place_coral", "cell": 0})
    # Card 7 scores green 1+ tops: the green start coral: 1 point.
    assert types(events) == ["CoralPlaced", "CardScored", "TurnBegan"]
    assert state.current == 2 and GAME.turn(state).phase.en.startswith("Round 1 (last round)")
    state, events = apply(state, seat(2), {"type": "take_card", "card": 3})
    assert types(events) == ["CardTaken", "DisplayFilled", "GameEnded", "HandScored", "HandScored", "HandScored",
                             "FinalScores"]
    assert events[2].data == {"reason": "supply"}


def test_a_colour_running_out_in_the_last_seats_turn_ends_the_game_after_it():
    state = arranged(2, hands=((41,), (7,)), display=(3, 11, 36), deck=(30, 31))
    state = replace(state, current=1, supply=(2, 10, 10, 10))
    state, events = play(state, 7, (0, None), (1, None))
    assert types(events) == ["CardPlayed", "ColourRanOut", "CoralPlaced", "CoralPlaced", "CardScored", "GameEnded",
                             "HandScored", "HandScored", "FinalScores"]


def test_a_card_whose_colours_are_gone_still_scores():
    state = arranged(2, hands=((7,), (42,)), display=(3, 11, 36), deck=(30,))
    state = replace(state, supply=(0, 10, 10, 10), out=("red",))
    state, events = apply(state, seat(0), {"type": "play_card", "card": 7})
    assert types(events) == ["CardPlayed", "CardScored", "TurnBegan"]
    assert events[0].data["corals"] == [] and events[1].data["points"] == 1


def test_cards_left_in_hand_score_once_from_the_first_seat_on():
    # Game over by the deck. Seat 1 holds card 14 (purple 1+, 1 point: matches) and card 8 (green
    # 2x2: no match); seat 2 holds card 20 (yellow 1+): 1 point once although nothing is stacked.
    state = arranged(2, hands=((14, 8), (20,)), display=(3, 11, 36), deck=())
    state, events = apply(state, seat(0), {"type": "take_card", "card": 11})
    hands = [e for e in events if e.type == "HandScored"]
    assert [e.data["seat"] for e in hands] == [0, 1]
    # Card 11 (taken just now): yellow exactly 2: the yellow start coral is 1 high: 0.
    assert [(c["card"], c["points"]) for c in hands[0].data["cards"]] == [(14, 1), (8, 0), (11, 0)]
    assert hands[0].data["points"] == 1 and hands[1].data["points"] == 1
    assert state.points == (4, 4)


# -- Reef rule 11: the ranking -------------------------------------------------------------------------


def finished(points: tuple[int, ...], boards: tuple) -> ReefState:
    state = arranged(len(points), display=(3, 11, 36), deck=())
    state = replace(state, boards=boards, points=points)
    state, _ = apply(state, seat(0), {"type": "take_card", "card": 3})  # the deck is empty: the end
    return state


def test_ranking_by_points_then_fewer_empty_cells_then_more_4_high_stacks():
    full = tuple(("red",) * 4 for _ in range(16))  # no empty cell, 16 four-high stacks
    dense = tuple(("red",) for _ in range(16))  # no empty cell, none 4 high
    # Card 3 (purple exactly 4) is taken by seat 1 and scores 0 in hand; every card else is gone.
    r = GAME.result(finished((10, 12), (CENTRE_ONLY, CENTRE_ONLY)))
    assert [(s.seat, s.rank, s.score) for s in r.standings] == [(1, 1, 12), (0, 2, 10)]
    assert r.decided_by.en == "Points"
    r = GAME.result(finished((10, 10), (CENTRE_ONLY, dense)))
    assert [(s.seat, s.rank) for s in r.standings] == [(1, 1), (0, 2)]
    assert r.decided_by.en == "Points; a tie goes to fewer empty cells"
    r = GAME.result(finished((10, 10), (dense, full)))
    assert [(s.seat, s.rank) for s in r.standings] == [(1, 1), (0, 2)]
    assert r.decided_by.en.startswith("Points; ties: fewer empty cells, then more 4-high")
    r = GAME.result(finished((10, 10, 7), (dense, dense, full)))
    assert [(s.seat, s.rank) for s in r.standings] == [(0, 1), (1, 1), (2, 3)]
    assert r.decided_by.ko.endswith("공동 순위") and r.winner() is None
    assert r.details["empty_cells"] == [0, 0, 0] and r.details["full_stacks"] == [0, 0, 16]


# -- deal: dealer ----------------------------------------------------------------------------------------


def test_dealer_deal_enters_each_card_hands_first_then_the_display():
    state = new(2, deal="dealer")
    assert owed(state) == ["deal_card"] and [d.auto for d in GAME.turn(state).decisions].count(True) == 0
    (decision,) = [d for d in GAME.turn(state).decisions if d.move == "deal_card"]
    field = decision.fields[0]
    assert (field.shape, field.low, field.high, field.kind) == ("number", 1, 60, "card")
    assert "1번 김민준" in decision.prompt.ko
    state, events = apply(state, DEALER, {"type": "deal_card", "card": 12})
    assert events[0].type == "CardDealt" and events[0].private == {"card": 12} and events[0].to == (0,)
    assert rule_error(state, DEALER, {"type": "deal_card", "card": 12}).code == "reef/card_out"
    assert rule_error(state, DEALER, {"type": "deal_card", "card": 61}).code == "move/malformed"
    assert rule_error(state, seat(0), {"type": "deal_card", "card": 13}).code == "move/not_owed"
    for card in (13, 14, 15):
        state, _ = apply(state, DEALER, {"type": "deal_card", "card": card})
    assert state.hands == ((12, 13), (14, 15))
    (decision,) = [d for d in GAME.turn(state).decisions if d.move == "deal_card"]
    assert "펼쳐 놓은 카드 1번" in decision.prompt.ko
    state, events = apply(state, DEALER, {"type": "deal_card", "card": 16})
    assert events[0].type == "DisplayFilled" and events[0].data == {"slot": 0, "card": 16}


def test_dealer_deal_enters_draws_and_refills():
    state = new(2, deal="dealer")
    for s in (0, 1):
        state, _ = apply(state, seat(s), {"type": "place_start", "corals": START})
    for card in (1, 2, 3, 4, 11, 36, 5):
        state, _ = apply(state, DEALER, {"type": "deal_card", "card": card})
    assert state.display == (11, 36, 5) and GAME.view(state, Audience.public())["deck"] == 53
    state, events = apply(state, seat(0), {"type": "draw_card", "card": 11})
    assert types(events) == ["PointPaid"] and state.step == "drawing"
    assert owed(state) == ["enter_draw"] and owed(state, 0) == []
    assert rule_error(state, DEALER, {"type": "enter_draw", "card": 36}).code == "reef/card_out"
    state, events = apply(state, DEALER, {"type": "enter_draw", "card": 40})
    assert types(events) == ["CardDrawn", "TurnBegan"] and events[0].to == (0,)
    assert state.hands[0] == (1, 2, 40)
    state, events = apply(state, seat(1), {"type": "take_card", "card": 5})
    assert types(events) == ["CardTaken"] and state.step == "refill" and owed(state) == ["refill_display"]
    state, events = apply(state, DEALER, {"type": "refill_display", "card": 41})
    assert types(events) == ["DisplayFilled", "TurnBegan"] and state.display == (11, 36, 41)
    assert GAME.view(state, Audience.public())["deck"] == 51


# -- views and secrecy ------------------------------------------------------------------------------------


def test_hands_and_totals_are_the_owners_and_the_dealers_until_the_end():
    state = arranged(3, hands=((14, 20), (41,), (42, 43)), display=(3, 11, 36), deck=(30, 31))
    public = GAME.view(state, Audience.public())
    for entry in public["seats"]:
        assert "hand" not in entry and "points" not in entry
    assert [e["hand_count"] for e in public["seats"]] == [2, 1, 2]
    assert "deck_order" not in public and "panel" not in public and "sheets" not in public
    own = GAME.view(state, Audience.of_seat(1))
    assert [c["n"] for c in own["seats"][1]["hand"]] == [41] and own["seats"][1]["points"] == 3
    assert "hand" not in own["seats"][0] and "points" not in own["seats"][2]
    dealer = GAME.view(state, Audience.dealer())
    assert all("hand" in e and "points" in e for e in dealer["seats"])
    assert dealer["deck_order"] == [30, 31]
    # Public: boards, display with the points on it, supply, deck count.
    assert public["seats"][0]["board"][5] == ["red"] and public["display"][0]["card"]["n"] == 3
    assert public["supply"] == {"red": 21, "yellow": 21, "purple": 21, "green": 21} and public["deck"] == 2
    over = finished((5, 6), (CENTRE_ONLY, CENTRE_ONLY))
    assert [e["points"] for e in GAME.view(over, Audience.public())["seats"]] == [5, 6]


def test_every_audience_sees_the_newest_scoring_and_their_number_not_each_one():
    # Each scoring is public (rule 12) when it happens; a screen draws the newest. Every scoring
    # with every update made a late view some 18 KB heavier on every screen.
    store = MemoryStore()
    table = Table.create(store, "r", "reef", ["가", "나", "다"], seed=3)
    table.start(Actor.dealer())
    rnd = random.Random(3)
    steps = 0
    while table.result() is None:
        bot_step(table, rnd)
        steps += 1
        if steps % 25 == 0 or table.result() is not None:
            scored = [c for e in store.entries("r") for c in (  # a played card's, or each card left in hand
                [e["event"]["data"]] if e["event"]["type"] == "CardScored" else
                e["event"]["data"]["cards"] if e["event"]["type"] == "HandScored" else [])]
            for audience in (Audience.public(), Audience.of_seat(0), Audience.dealer()):
                state = table.view(audience)["state"]
                assert "scores" not in state and state["scorings"] == len(scored), (steps, audience)
                assert (state["last_score"] or {}).get("points") == (scored[-1]["points"] if scored else None)
    public = table.view(Audience.public())["state"]
    assert steps > 100 and public["scorings"] > 20 and len(json.dumps(public)) < 20_000, (steps, public["scorings"])


def test_the_panel_shows_every_hand_total_and_whose_turn():
    state = arranged(2, hands=((14, 20), (41,)), display=(3, 11, 36), deck=(30, 31))
    panel = GAME.view(state, Audience.dealer())["panel"]
    assert [s["heading"]["en"] for s in panel] == ["Now", "Hands and points", "Display", "Top of the deck (dealer only)"]
    assert "1번 김민준의 차례" in panel[0]["paragraphs"][0]["ko"]
    assert "Deck 2" in panel[0]["paragraphs"][-1]["en"]
    table = panel[1]["table"]
    assert table[1][0]["tone"] == "now" and table[1][1]["tone"] == "secret" and "#14" in table[1][1]["ko"]
    assert table[1][2]["ko"] == "3" and table[2][1]["ko"].startswith("#41")


def test_sheets_list_the_setup_the_catalogue_and_the_scores():
    state = started(2, seed=4)
    sheets = GAME.view(state, Audience.dealer())["sheets"]
    run = sheets["run_sheet"]
    assert run["title"]["en"] == "Run sheet: Reef"
    headings = [s["heading"]["en"] for s in run["sections"]]
    assert headings[:3] == ["Setup", "Cards to hand out", "Cards to lay out"]
    assert "18 of each colour" in run["sections"][0]["paragraphs"][0]["en"]
    hands = run["sections"][1]["table"]
    assert hands[1][2].startswith(f"#{state.hands[0][0]} ")
    catalogue = run["sections"][-1]["table"]
    assert len(catalogue) == 61 and catalogue[12][0] == "12"
    state, _ = play(replace(state, hands=((12,), state.hands[1])), 12, (0, None), (1, None))
    score_sheet = GAME.view(state, Audience.dealer())["sheets"]["score_sheet"]
    assert score_sheet["title"]["en"].startswith("Score sheet")
    first = score_sheet["sections"][0]["table"]
    assert first[1][1].startswith("#12 ") and first[1][2] == "0"
    # Every cell is a string or {ko, en}: the PDF renderer takes nothing else.
    for sheet in sheets.values():
        for section in sheet["sections"]:
            for row in section.get("table") or []:
                assert all(isinstance(c, str) or set(c) >= {"ko", "en"} for c in row)


def test_dealer_mode_run_sheet_says_how_to_deal():
    run = GAME.view(new(3, deal="dealer"), Audience.dealer())["sheets"]["run_sheet"]
    assert "Dealer deal" in run["sections"][1]["paragraphs"][0]["en"]
    assert "24 of each colour" in run["sections"][0]["paragraphs"][0]["en"]


# -- the log in words ------------------------------------------------------------------------------------


def test_every_event_is_described_with_names_counted_from_1():
    seen: set[str] = set()
    for seed in range(6):
        state = new(3 if seed % 2 else 2, deal="dealer" if seed % 3 == 0 else "referee")
        rnd = random.Random(seed)
        names = state.names
        while GAME.result(state) is None:
            auto = GAME.turn(state).automatic()
            try:
                if auto:
                    state, events = apply(state, Actor.referee(), {"type": auto.move}, Rng(seed))
                else:
                    actor, move = pick(GAME.turn(state), rnd)
                    state, events = apply(state, actor, move, Rng(seed))
            except RuleError:
                continue
            for e in events:
                for audience in (Audience.public(), Audience.dealer()):
                    text = describe(e.visible_to(audience), names)
                    assert text is not None, e
                    assert "seat" not in e.data or f"{e.data['seat'] + 1}번 {names[e.data['seat']]}" in text.ko
                    assert "{" not in text.ko and "None" not in text.en
                seen.add(e.type)
    assert seen >= {"DeckShuffled", "CardDealt", "DisplayFilled", "StartPlaced", "TurnBegan", "CardTaken", "PointPaid",
                    "CardDrawn", "CardPlayed", "CoralPlaced", "CardScored", "GameEnded", "HandScored", "FinalScores"}


def test_describe_leaves_out_a_card_the_audience_may_not_see():
    public = {"type": "CardDrawn", "seat": 1}
    assert describe(public, NAMES[:2]).ko == "2번 이서연: 더미 맨 위 카드를 받음"
    own = {"type": "CardDrawn", "seat": 1, "card": 12}
    assert "#12" in describe(own, NAMES[:2]).ko
    ran = describe({"type": "ColourRanOut", "colour": "red", "last_seat": 1}, NAMES[:2])
    assert ran.ko == "빨강 산호가 다 떨어졌습니다: 2번 이서연까지 이번 라운드를 마치고 끝납니다"


# -- options, bots and the runtime -------------------------------------------------------------------------


def test_options_and_seats():
    assert GAME.resolve_options({}) == {"deal": "referee"}
    assert GAME.resolve_options({"deal": "dealer"}) == {"deal": "dealer"}
    with pytest.raises(RuleError) as info:
        GAME.resolve_options({"deal": "nobody"})
    assert info.value.code == "table/bad_option"
    assert GAME.seats == (2, 4) and GAME.usual_seats == 4
    with pytest.raises(RuleError):
        GAME.check_seat_count(5)


@pytest.mark.parametrize("deal", ["referee", "dealer"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bot_matches_finish_through_the_runtime(deal, seats):
    for seed in range(3):
        table = Table.create(MemoryStore(), f"reef-{deal}-{seats}-{seed}", "reef", list(seat_names(seats)),
                             options={"deal": deal}, seed=seed, clock=lambda: 0.0)
        table.start(DEALER)
        rnd = random.Random(seed)
        for _ in range(5000):
            state = table.load().state
            if GAME.result(state) is not None:
                break
            actor, move = pick(GAME.turn(state), rnd)
            try:
                table.submit(actor, move)
            except RuleError:
                pass
        result = table.result()
        assert result is not None
        assert sorted(s["seat"] for s in result["standings"]) == list(range(seats))
        state = table.load().state
        # Every coral is in the supply or on a board.
        assert sum(state.supply) + sum(len(x) for b in state.boards for x in b) == 4 * {2: 18, 3: 24, 4: 28}[seats]


def test_points_are_the_sum_of_what_the_log_says():
    table = Table.create(MemoryStore(), "reef-sum", "reef", list(seat_names(3)), seed=9, clock=lambda: 0.0)
    table.start(DEALER)
    rnd = random.Random(9)
    while table.result() is None:
        actor, move = pick(GAME.turn(table.load().state), rnd)
        try:
            table.submit(actor, move)
        except RuleError:
            pass
    totals = [3, 3, 3]
    for entry in table.store.entries(table.id):
        event = entry["event"]
        data = event["data"]
        match event["type"]:
            case "CardTaken":
                totals[data["seat"]] += data["tokens"]
            case "PointPaid":
                totals[data["seat"]] -= 1
            case "CardScored" | "HandScored":
                totals[data["seat"]] += data["points"]
            case "FinalScores":
                assert data["points"] == totals
    assert [s["score"] for s in sorted(table.result()["standings"], key=lambda s: s["seat"])] == totals


def test_a_whole_two_player_round_by_hand():
    # Seat 1 holds card 14 (yellow + yellow, purple 1+, 1 point) and card 41 (green + green, red
    # 1+, 1 point); seat 2 holds card 12 (green + green, yellow L, 4 points). Display 3, 11, 36.
    state = arranged(2, hands=((14, 41), (12,)), display=(3, 11, 36), deck=(30, 31, 32))
    # Turn 1, seat 1: plays 14, yellows on A1 and B1. Purple tops: B3 only: 1 point. Total 4.
    state, events = play(state, 14, (0, None), (1, None))
    assert events[-2].data["points"] == 1 and state.points == (4, 3)
    # Turn 1, seat 2: plays 12, greens on A1 and B1 of its own board. Yellow L? Only C2 is yellow: 0.
    state, events = play(state, 12, (0, None), (1, None))
    assert events[-2].data["points"] == 0 and state.round == 2 and state.current == 0
    # Turn 2, seat 1: draws: 1 point onto card 11 or 36 (both print 2); takes the deck top (30).
    state, _ = apply(state, seat(0), {"type": "draw_card", "card": 36})
    assert state.points == (3, 3) and state.hands[0] == (41, 30) and state.tokens == (0, 0, 1)
    # Turn 2, seat 2: takes card 36 with its point and card 31 refills the slot.
    state, _ = apply(state, seat(1), {"type": "take_card", "card": 36})
    assert state.points == (3, 4) and state.hands[1] == (36,) and state.display == (3, 11, 31)
    # Seat 1's board: yellow A1, B1 over the centre start. Card 41 (red 1+) would score 1 now.
    hand = GAME.view(state, Audience.of_seat(0))["seats"][0]["hand"]
    assert [c["n"] for c in hand] == [41, 30] and hand[0]["now"]["points"] == 1
    assert hand[1]["now"]["points"] == score(CARDS[30], state.boards[0]).points


# -- the command line ----------------------------------------------------------------------------------


def referee_cli(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_play_reef_with_bots_is_deterministic(tmp_path):
    first = referee_cli("play", "reef", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "a"))
    second = referee_cli("play", "reef", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "b"))
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    result = json.loads(lines[-1])
    assert len(result["standings"]) == 4 and result["standings"][0]["rank"] == 1
    final = json.loads(lines[-2])["state"]
    assert final["step"] == "over" and final["final"]["ranking"][0]["rank"] == 1
    # The public stream never holds a hand or a running total.
    for line in lines[:-1]:
        view = json.loads(line)["state"]
        if view["step"] != "over":
            assert all("hand" not in s and "points" not in s for s in view["seats"])
