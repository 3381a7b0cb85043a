"""Clumsy Cats (seed 002, RULINGS.md "Clumsy Cats" rules 1-7): pure unit and scenario tests.

Most tests play with `die=dealer`, so every roll and effect die is exact; the referee's own
draws go through the real Table runtime (in-memory store). Positions are set with
`dataclasses.replace` where a test needs a cat somewhere.

The default map (14 steps a lap; steps from the start in brackets): start[0] 1 2(blue) 3(red)
island[4] 5 6(blue) 7 fork[8] -> odd: up1[9](red) up2[10] / even: down1[9] down2[10](blue)
-> toilet[11] 12(red) 13 -> start.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.games.clumsy_cats import GAME, load_map
from referee.games.clumsy_cats.state import FACES, CatsState, Taken, plan
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table, audience_log, fold

NAMES = ("가람", "나래", "다솜", "라온")
DEFAULT = load_map("default")
# The default map without footprints, for tests of many turns that must not stop for effects.
PLAIN = {**json.loads((Path(__file__).parents[1] / "referee/games/clumsy_cats/maps/default.json").read_text()),
         "blue": [], "red": []}


# -- helpers -------------------------------------------------------------------------------------


def new(seats: int = 4, **options: Any) -> CatsState:
    return GAME.setup(NAMES[:seats], GAME.resolve_options({"die": "dealer", **options}, seats), Rng.forbidden())


def act(state: CatsState, actor: Actor, move: dict[str, Any], rng: Rng | None = None) -> tuple[CatsState, list[Event]]:
    events = GAME.decide(state, actor, move, rng or Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def roll(state: CatsState, face: int | str) -> CatsState:
    return act(state, Actor.dealer(), {"type": "enter_roll", "roll": face})[0]


def declare(state: CatsState, number: int | str) -> tuple[CatsState, list[Event]]:
    return act(state, Actor.of_seat(state.seat), {"type": "declare", "number": number})


def close(state: CatsState) -> tuple[CatsState, list[Event]]:
    return act(state, Actor.dealer(), {"type": "close_window"})


def call(state: CatsState, seat: int) -> tuple[CatsState, list[Event]]:
    return act(state, Actor.of_seat(seat), {"type": "call_lie"})


def effect_die(state: CatsState, face: int | str) -> tuple[CatsState, list[Event]]:
    return act(state, Actor.dealer(), {"type": "enter_effect", "face": face})


def play(state: CatsState, face: int | str, number: int | str, caller: int | None = None) -> tuple[CatsState, list[Event]]:
    """One turn up to the end of its window: roll, declaration, then a call or the dealer closing."""
    state = roll(state, face)
    state, _ = declare(state, number)
    if caller is None:
        return close(state)
    return call(state, caller)


def placed(state: CatsState, **where: str) -> CatsState:
    """The state with cats moved: placed(state, s0="7", s2="toilet")."""
    cells = list(state.cells)
    for key, cell in where.items():
        cells[int(key[1:])] = cell
    return replace(state, cells=tuple(cells))


def moves_of(state: CatsState) -> set[str]:
    return {d.move for d in GAME.turn(state).decisions}


def decisions(state: CatsState, move: str):
    return [d for d in GAME.turn(state).decisions if d.move == move]


def error(state: CatsState, actor: Actor, move: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as info:
        GAME.decide(state, actor, move, Rng(0))
    return info.value


# -- the game and its options ---------------------------------------------------------------------


def test_game_takes_2_to_4_seats_usually_4_with_its_options():
    assert GAME.seats == (2, 4) and GAME.usual_seats == 4
    options = GAME.resolve_options({})
    assert options == {"map": "default", "die": "referee", "failed_call_penalty": "none", "island_turns": 1}
    assert GAME.resolve_options({"failed_call_penalty": "harmful", "island_turns": 0, "die": "dealer"})["island_turns"] == 0
    assert new(island_turns="2").island_turns == 2  # as the command line gives it
    for name, value in (("die", "robot"), ("failed_call_penalty", "double"), ("island_turns", 5), ("island_turns", "4"),
                        ("island_turns", True)):
        with pytest.raises(RuleError) as info:
            GAME.resolve_options({name: value})
        assert info.value.code == "table/bad_option"


def test_every_cat_starts_on_the_start_and_seat_1_rolls_first():
    state = new()
    assert state.cells == ("start",) * 4 and state.step == "next"
    (d,) = GAME.turn(state).decisions
    assert d.move == "enter_roll" and d.seat is None
    assert [o.value for o in d.fields[0].options] == [1, 2, 3, 4, "X"]
    assert plan(state).seat == 0


# -- Cats rule 1: the roll, the declaration, the call ----------------------------------------------


def test_the_referee_rolls_1_to_4_and_two_x_and_only_the_roller_sees_it():
    state = GAME.setup(NAMES, GAME.resolve_options({}), Rng.forbidden())
    (d,) = GAME.turn(state).decisions
    assert d.auto and d.move == "roll"
    assert FACES == (1, 2, 3, 4, "X", "X")
    seen = set()
    for seed in range(60):
        (event,) = GAME.decide(state, Actor.referee(), {"type": "roll"}, Rng(seed))
        assert event.type == "DieRolled" and event.to == (0,)
        assert event.data == {"seat": 0, "turn": 1}  # nothing of the roll
        seen.add(event.private["roll"])
    assert seen == {1, 2, 3, 4, "X"}


def test_a_declaration_is_1_to_4_and_an_x_must_be_bluffed():
    state = roll(new(), "X")
    (d,) = GAME.turn(state).decisions  # no "declare what you rolled" on an X
    assert d.move == "declare" and d.seat == 0 and [o.value for o in d.fields[0].options] == [1, 2, 3, 4]
    assert error(state, Actor.of_seat(0), {"type": "declare_roll"}).code == "cats/must_bluff"
    # Another seat probing gets the same answer whatever the roll (the roll stays secret).
    assert error(state, Actor.of_seat(1), {"type": "declare_roll"}).code == "move/not_owed"
    for bad in (5, 0, "X", "none"):
        err = error(state, Actor.of_seat(0), {"type": "declare", "number": bad})
        assert err.code == "cats/bad_declaration" and repr(bad) in err.en
    state = roll(new(), 2)
    assert moves_of(state) == {"declare", "declare_roll"}
    (shortcut,) = decisions(state, "declare_roll")
    assert "2" in shortcut.prompt.ko
    state, (event,) = act(state, Actor.of_seat(0), {"type": "declare_roll"})
    assert event.type == "Declared" and event.data["number"] == 2


def test_the_dealer_enters_faces_1_to_4_or_x_only():
    state = new()
    for bad in (5, 6, 0, "x", "none"):
        err = error(state, Actor.dealer(), {"type": "enter_roll", "roll": bad})
        assert err.code == "cats/bad_face" and repr(bad) in err.en


def test_not_called_the_cat_moves_the_declared_number_and_the_roll_stays_secret():
    state, (event,) = play(new(), "X", 1)  # a bluff nobody called
    assert event.type == "WindowClosed" and "roll" not in event.data and event.private is None
    assert state.cells[0] == "1" and event.data["to"] == "1" and event.data["steps"] == 1
    public = GAME.view(state, Audience.public())
    assert public["declarations"] == [{"turn": 1, "seat": 0, "toilet": False, "declared": 1, "caller": None}]
    assert "roll" not in json.dumps(public["declarations"]) and "mine" not in public
    assert GAME.view(state, Audience.of_seat(0))["mine"]["rolls"][0]["roll"] == "X"
    assert "roll" not in GAME.view(state, Audience.of_seat(1))["declarations"][0]
    assert plan(state).seat == 1


def test_a_caught_bluff_stays_on_its_cell_and_takes_a_harmful_effect():
    state = placed(new(), s0="3")
    state, (event,) = play(state, 2, 4, caller=1)  # rolled 2, declared 4
    assert event.type == "Called" and event.data["bluff"] is True and event.data["roll"] == 2
    assert "to" not in event.data and state.cells[0] == "3"
    assert state.step == "resolve" and moves_of(state) == {"enter_effect"}
    view = GAME.view(state, Audience.public())
    assert view["effect"]["kind"] == "harm" and view["effect"]["cause"] == "bluff" and view["effect"]["face"] is None
    assert view["declarations"][-1]["roll"] == 2 and view["declarations"][-1]["bluff"] is True
    state, (rolled,) = effect_die(state, "X")  # a lucky escape
    assert rolled.data["effect"] == "nothing" and rolled.data["resolved"] is True
    assert state.step == "next" and plan(state).seat == 1


def test_a_wrong_call_lets_the_declaration_stand():
    state, (event,) = play(new(), 1, 1, caller=2)
    assert event.data["bluff"] is False and "penalty" not in event.data
    assert state.cells[0] == "1" and state.step == "next"


def test_only_the_first_caller_counts():
    state = declare(roll(new(), "X"), 2)[0]
    state, _ = call(state, 1)
    err = error(state, Actor.of_seat(2), {"type": "call_lie"})
    assert err.code == "cats/window_closed" and "2번 나래" in err.ko


def test_the_dealer_closes_the_window_and_a_late_call_is_refused():
    state, _ = play(new(), 1, 1)
    assert error(state, Actor.of_seat(1), {"type": "call_lie"}).code == "cats/window_closed"


def test_the_call_window_offers_one_big_button_to_each_seat_that_may_call():
    state = declare(roll(new(), 1), 1)[0]
    calls = decisions(state, "call_lie")
    assert sorted(d.seat for d in calls) == [1, 2, 3] and all(d.fields == () for d in calls)
    assert decisions(state, "close_window")[0].seat is None


def test_failed_call_penalty_harmful_rolls_a_harmful_effect_for_the_caller_after_the_move():
    state, (event,) = play(new(failed_call_penalty="harmful"), 1, 1, caller=3)
    assert event.data["penalty"] == "harmful" and state.cells[0] == "1"
    view = GAME.view(state, Audience.public())
    assert view["effect"]["seat"] == 3 and view["effect"]["cause"] == "failed_call"
    state, _ = effect_die(state, 3)  # back to the start (it is there already)
    assert state.cells[3] == "start" and plan(state).seat == 1


def test_failed_call_penalty_lose_turn_skips_the_callers_next_turn():
    state, _ = play(new(failed_call_penalty="lose_turn"), 1, 1, caller=1)
    assert state.lost == (0, 1, 0, 0)
    p = plan(state)
    assert p.skips == ((1, False, ("lost",)),) and p.seat == 2
    state = roll(state, 1)
    assert state.seat == 2 and state.lost == (0, 0, 0, 0)
    assert GAME.view(state, Audience.public())["feed"][-1]["ko"].startswith("2번 나래: 차례 건너뜀")


# -- Cats rules 2 and 7: who may call ------------------------------------------------------------------


def test_no_one_calls_twice_in_a_row_nor_the_roller():
    state, _ = play(new(), "X", 1, caller=2)  # turn 1: seat 3 (index 2) calls
    state, _ = effect_die(state, "X")
    state = declare(roll(state, 1), 1)[0]  # turn 2: seat 2 (index 1) rolls
    assert sorted(d.seat for d in decisions(state, "call_lie")) == [0, 3]
    err = error(state, Actor.of_seat(2), {"type": "call_lie"})
    assert err.code == "cats/may_not_call" and err.values["reason"] == "called_last"
    assert error(state, Actor.of_seat(1), {"type": "call_lie"}).values["reason"] == "roller"
    state, _ = close(state)  # nobody called in turn 2: seat index 2 may call again in turn 3
    state = declare(roll(state, 1), 1)[0]
    assert 2 not in [d.seat for d in decisions(state, "call_lie")]  # it is the roller now
    state, _ = close(state)
    state = declare(roll(state, 1), 1)[0]  # turn 4: seat index 3 rolls
    assert sorted(d.seat for d in decisions(state, "call_lie")) == [0, 1, 2]


def test_no_calling_while_trapped_or_in_a_no_action_penalty():
    state = replace(placed(new(), s1="toilet"), toilet=(None, 0, None, None), no_action=(0, 0, 2, 0))
    state = declare(roll(state, 1), 1)[0]
    assert [d.seat for d in decisions(state, "call_lie")] == [3]
    assert error(state, Actor.of_seat(1), {"type": "call_lie"}).values["reason"] == "toilet"
    assert error(state, Actor.of_seat(2), {"type": "call_lie"}).values["reason"] == "no_action"
    view = GAME.view(state, Audience.public())
    assert [c["call_bar"] for c in view["cats"]] == ["roller", "toilet", "no_action", None]


def test_the_window_closes_by_itself_when_nobody_may_call():
    state = replace(placed(new(2), s1="toilet"), toilet=(None, 0))
    state = roll(state, 3)
    state, events = declare(state, 3)
    assert [e.type for e in events] == ["Declared", "WindowClosed"] and events[1].data["auto"] is True
    assert state.cells[0] == "3"  # the red footprint: a harmful effect is owed
    assert moves_of(state) == {"enter_effect"}


# -- the fork (seed: odd goes up, even goes down) and footprints only where a move ends -------------


def test_at_the_fork_an_odd_number_goes_up_and_an_even_one_down():
    state, (event,) = play(placed(new(), s0="7"), 2, 2)
    assert event.data["to"] == "down1" and state.cells[0] == "down1"
    state, (event,) = play(placed(new(), s0="fork"), 1, 1)
    assert event.data["to"] == "up1"
    state, (event,) = play(placed(new(), s0="6"), 1, 3)  # a bluff: 7, fork, up1
    assert event.data["to"] == "up1"
    assert GAME.view(state, Audience.public())["last_move"]["path"] == ["7", "fork", "up1"]


def test_footprints_act_only_where_a_move_ends():
    state, (event,) = play(placed(new(), s0="1"), 2, 2)  # passes 2 (blue) and ends on 3 (red)
    assert event.data["footprint"] == "red" and moves_of(state) == {"enter_effect"}
    state, (event,) = play(placed(new(), s0="1"), 4, 4)  # passes 2 and 3, ends on 5
    assert "footprint" not in event.data and state.step == "next"
    state, (event,) = play(placed(new(), s0="7"), 3, 3)  # fork, up1 (red), up2
    assert event.data["to"] == "up2" and "footprint" not in event.data
    state, (event,) = play(placed(new(), s0="fork"), 1, 2)  # down1, down2 (blue)
    assert event.data["footprint"] == "blue"


# -- Cats rules 6 and 7: laps, tokens, the end ----------------------------------------------------------


def test_entering_the_start_completes_a_lap_takes_the_next_token_and_walks_on():
    state, (event,) = play(placed(new(), s0="12"), 3, 3)  # 13, start (lap), 1
    assert event.data["laps"] == [1] and event.data["to"] == "1"
    assert state.laps[0] == 1 and state.taken == (Taken(1, 0, 1),)
    state, (event,) = play(placed(state, s1="13"), 1, 1)  # seat 2 lands exactly on the start
    assert event.data["laps"] == [2] and state.cells[1] == "start"
    view = GAME.view(state, Audience.public())
    assert [c["points"] for c in view["cats"]] == [1, 2, 0, 0]
    assert [t["seat"] for t in view["track"][:3]] == [0, 1, None] and view["tokens_left"] == 8


def test_being_sent_to_the_start_is_no_lap():
    state = placed(new(), s1="5")
    state, _ = play(state, 1, 1)  # seat 1 to 1
    state, _ = play(state, "X", 1, caller=0)  # seat 2 caught
    state, (event,) = effect_die(state, 3)  # harmful 3: back to the start
    assert state.cells[1] == "start" and state.laps == (0, 0, 0, 0) and state.taken == ()


def test_the_game_ends_at_once_when_the_last_token_is_taken():
    taken = tuple(Taken(n, n % 2, n) for n in range(1, 10))  # seats 1 and 2 hold 1..9
    state = replace(placed(new(), s2="13"), taken=taken, laps=(4, 5, 0, 0))
    state = replace(state, regular=1)  # seat 3 (index 2) rolls next
    state, events = play(state, 3, 3, caller=0)  # a true 3: 13 -> start takes token 10, and stops
    assert [e.type for e in events] == ["Called", "GameEnded"]
    assert events[0].data["laps"] == [10] and events[0].data["ended"] is True and state.cells[2] == "start"
    assert state.step == "over" and GAME.turn(state).decisions == ()
    result = GAME.result(state)
    # Seat index 0 holds 2+4+6+8 = 20, index 1 holds 1+3+5+7+9 = 25, index 2 holds 10.
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(1, 1, 25), (0, 2, 20), (2, 3, 10), (3, 4, 0)]
    assert result.details["points"] == [20, 25, 10, 0] and sum(result.details["points"]) == 55


def test_equal_points_share_a_place():
    taken = (Taken(1, 0, 1), Taken(2, 0, 2), Taken(3, 1, 3), Taken(4, 2, 4), Taken(5, 3, 5), Taken(6, 2, 6),
             Taken(7, 3, 7), Taken(8, 1, 8), Taken(9, 0, 9))
    # points so far: seat 0: 1+2+9 = 12, seat 1: 3+8 = 11, seat 2: 4+6 = 10, seat 3: 5+7 = 12
    state = replace(placed(new(), s2="13"), taken=taken, regular=1)
    state, _ = play(state, 1, 1)  # seat index 2 takes token 10: 20 points
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(2, 1, 20), (0, 2, 12), (3, 2, 12), (1, 4, 11)]
    assert "같은 점수" in result.decided_by.ko


# -- Cats rules 3 and 7: the toilet --------------------------------------------------------------------


def test_landing_exactly_on_the_toilet_traps_and_passing_it_does_not():
    state, (event,) = play(placed(new(), s0="down2"), 1, 1)
    assert event.data["trapped"] is True and state.toilet[0] == 0
    state, (event,) = play(placed(new(), s0="up2"), 3, 3)
    assert event.data["to"] == "13" and state.toilet[0] is None


def trapped(seat: int = 0) -> CatsState:
    state = placed(new(), **{f"s{seat}": "toilet"})
    return replace(state, toilet=tuple(0 if s == seat else None for s in range(4)))


def test_a_trapped_turn_declares_x_or_none_and_an_uncaught_x_frees_the_cat():
    state = roll(trapped(), 2)
    assert GAME.view(state, Audience.public())["turn"]["toilet"] is True
    (d,) = decisions(state, "declare")
    assert [o.value for o in d.fields[0].options] == ["X", "none"]
    assert error(state, Actor.of_seat(0), {"type": "declare", "number": 2}).code == "cats/bad_declaration"
    state, _ = declare(state, "X")  # a bluff nobody calls
    state, (event,) = close(state)
    assert event.data["freed"] is True and event.data["free"] is True and state.toilet[0] is None
    assert state.cells[0] == "toilet"
    state = replace(state, board=load_map(PLAIN))
    for _ in range(3):
        state, _ = play(state, 1, 1)
    state = roll(state, 2)  # the cat's next turn is a free one: it walks out of the toilet
    assert state.seat == 0 and state.toilet_turn is False
    assert [o.value for o in decisions(state, "declare")[0].fields[0].options] == [1, 2, 3, 4]
    state, (event,) = act(state, Actor.of_seat(0), {"type": "declare_roll"})
    state, (event,) = close(state)
    assert event.data["to"] == "13" and GAME.view(state, Audience.public())["last_move"]["path"] == ["12", "13"]


def test_after_three_trapped_turns_the_cat_is_free():
    state = replace(trapped(), board=load_map(PLAIN))
    for used in (1, 2, 3):
        state, (event,) = play(state, 3, "none")
        assert event.data["toilet_used"] == used and event.data["freed"] is False
        for _ in range(3):  # the other three seats take a turn each
            state, _ = play(state, 1, 1)
    assert state.toilet[0] is None
    state = roll(state, 2)
    assert state.seat == 0 and state.toilet_turn is False


def test_a_caught_bluff_in_the_toilet_uses_the_turn_and_takes_a_harmful_effect():
    state, (event,) = play(trapped(), 2, "X", caller=1)
    assert event.data["bluff"] is True and event.data["toilet_used"] == 1 and event.data["freed"] is False
    assert state.toilet[0] == 1 and moves_of(state) == {"enter_effect"}
    state, _ = effect_die(state, 3)  # back to the start: out of the toilet
    assert state.cells[0] == "start" and state.toilet[0] is None


def test_a_true_x_in_the_toilet_stands_against_a_call():
    state, (event,) = play(trapped(), "X", "X", caller=2)
    assert event.data["bluff"] is False and event.data["freed"] is True and state.toilet[0] is None


def test_declaring_no_x_on_an_x_in_the_toilet_is_a_bluff_too():
    state, (event,) = play(trapped(), "X", "none", caller=2)
    assert event.data["bluff"] is True


# -- the desert island (Cats rule 3, option island_turns) ----------------------------------------------


def test_the_island_costs_the_next_turn_by_default_and_the_option_changes_it():
    for turns in (1, 0, 2):
        state, (event,) = play(placed(new(island_turns=turns, map=PLAIN), s0="3"), 1, 1)
        assert event.data["island"] is True and state.cells[0] == "island" and state.island[0] == turns
        for _ in range(3):  # seats 2, 3, 4
            state, _ = play(state, 1, 1)
        for left in range(turns, 0, -1):
            assert plan(state).skips == ((0, False, ("island",)),) and plan(state).seat == 1
            for _ in range(3):  # seat 1 is skipped: seats 2, 3, 4 play
                state, _ = play(state, 1, 1)
            assert state.island[0] == left - 1
        assert plan(state).skips == () and plan(state).seat == 0


# -- Cats rule 5: harmful effects -----------------------------------------------------------------------


def caught(state: CatsState, caller: int = 1) -> CatsState:
    """Seat 0's turn: an X declared as 1 and caught; the harmful effect die is owed."""
    return play(state, "X", 1, caller=caller)[0]


def test_harmful_2_is_no_action_for_two_turns_and_no_calling_meanwhile():
    state, (event,) = effect_die(caught(new()), 2)
    assert event.data["no_action"] == 2 and state.no_action[0] == 2
    state = declare(roll(state, 1), 1)[0]  # seat index 1's turn
    assert 0 not in [d.seat for d in decisions(state, "call_lie")]
    state, _ = close(state)
    for _ in range(2):
        state, _ = play(state, 1, 1)
    p = plan(state)  # back to seat 0: skipped, twice over two rounds
    assert p.skips == ((0, False, ("no_action",)),) and p.seat == 1
    state = roll(state, 1)
    assert state.no_action[0] == 1


def test_harmful_3_is_back_to_the_start_and_4_to_the_island():
    state, _ = effect_die(caught(placed(new(), s0="12")), 3)
    assert state.cells[0] == "start"
    state, (event,) = effect_die(caught(placed(new(), s0="12")), 4)
    assert state.cells[0] == "island" and state.island[0] == 1 and event.data["island"] is True
    state, (event,) = effect_die(caught(placed(new(), s0="3"), caller=2), "X")
    assert state.cells[0] == "3" and event.data["effect"] == "nothing"


def test_harmful_1_the_owner_of_the_rearmost_other_cat_may_swap():
    state = placed(new(), s0="7", s1="3", s2="1", s3="6")
    state, (event,) = effect_die(caught(state), 1)
    assert event.data["rearmost"] == [2] and event.data["resolved"] is False
    (d,) = GAME.turn(state).decisions
    assert d.move == "rearmost_swap" and d.seat == 2 and [o.value for o in d.fields[0].options] == ["swap", "keep"]
    assert error(state, Actor.of_seat(2), {"type": "rearmost_swap", "choice": "maybe"}).code == "cats/bad_choice"
    swapped, _ = act(state, Actor.of_seat(2), {"type": "rearmost_swap", "choice": "swap"})
    assert swapped.cells == ("1", "3", "7", "6")
    kept, (event,) = act(state, Actor.of_seat(2), {"type": "rearmost_swap", "choice": "keep"})
    assert kept.cells == state.cells and event.data["declined"] is True


def test_harmful_1_a_tie_for_the_rearmost_is_broken_by_the_dealer():
    state = placed(new(), s0="7", s1="2", s2="2", s3="6")
    state, (event,) = effect_die(caught(state, caller=3), 1)
    assert event.data["rearmost"] == [1, 2]
    (d,) = GAME.turn(state).decisions
    assert d.move == "pick_rearmost" and d.seat is None and d.fields[0].kind == "seat"
    err = error(state, Actor.dealer(), {"type": "pick_rearmost", "seat": 3})
    assert err.code == "cats/not_rearmost"
    state, _ = act(state, Actor.dealer(), {"type": "pick_rearmost", "seat": 2})
    (d,) = GAME.turn(state).decisions
    assert d.move == "rearmost_swap" and d.seat == 2


def test_harmful_1_with_the_rearmost_cat_on_the_same_cell_changes_nothing():
    state = placed(new(), s0="start", s1="3", s2="6", s3="7")  # seat 0 is last itself; start = 0 steps
    state = placed(state, s1="start")
    state, (event,) = effect_die(caught(state, caller=2), 1)
    assert event.data["rearmost"] == [1] and event.data["void"] is True and state.step == "next"


# -- Cats rule 4: beneficial effects ---------------------------------------------------------------------


def boon(state: CatsState, face: int | str, seat: int = 0) -> tuple[CatsState, list[Event]]:
    """Seat 0 walks 2 -> ... onto a blue footprint (from 'start' by 2), then the effect die."""
    state, (event,) = play(state, 2, 2)
    assert event.data["footprint"] == "blue"
    return effect_die(state, face)


def test_beneficial_1_swaps_with_a_chosen_opponent_on_another_cell():
    state = placed(new(), s1="7", s2="2", s3="12")
    state, (event,) = boon(state, 1)
    use, decline = GAME.turn(state).decisions
    assert use.move == "use_effect" and decline.move == "decline_effect" and use.seat == decline.seat == 0
    assert use.fields[0].kind == "seat" and [o.value for o in use.fields[0].options] == [1, 3]  # seat 2 shares the cell
    assert error(state, Actor.of_seat(0), {"type": "use_effect", "target": 2}).code == "cats/same_cell"
    assert error(state, Actor.of_seat(0), {"type": "use_effect", "target": 0}).code == "cats/not_an_opponent"
    assert error(state, Actor.of_seat(0), {"type": "use_effect", "target": 7}).code == "cats/no_such_seat"
    after, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 3})
    assert after.cells == ("12", "7", "2", "2") and after.step == "next"


def test_a_swap_onto_a_footprint_triggers_nothing_and_onto_the_toilet_traps_afresh():
    state = placed(new(), s1="12", s3="toilet")
    state = replace(state, toilet=(None, None, None, 1))
    state, _ = boon(state, 1)
    after, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 1})  # onto 12 (red)
    assert after.cells[0] == "12" and after.step == "next"
    after, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 3})
    assert after.cells[0] == "toilet" and after.toilet == (0, None, None, None)  # trapped afresh; seat 3 freed


def test_beneficial_2_sends_any_cat_to_the_start_even_ones_own():
    state = placed(new(), s1="7")
    state, _ = boon(state, 2)
    (use, _) = GAME.turn(state).decisions
    assert [o.value for o in use.fields[0].options] == [0, 1]  # cats 3 and 4 are on the start already
    assert error(state, Actor.of_seat(0), {"type": "use_effect", "target": 2}).code == "cats/already_on_start"
    after, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 0})
    assert after.cells[0] == "start" and after.taken == ()


def test_beneficial_3_sends_an_opponent_that_left_the_start_to_the_toilet_trapped():
    state = placed(new(), s1="7", s3="toilet")
    state, _ = boon(state, 3)
    (use, _) = GAME.turn(state).decisions
    assert [o.value for o in use.fields[0].options] == [1]
    assert error(state, Actor.of_seat(0), {"type": "use_effect", "target": 2}).code == "cats/target_on_start"
    assert error(state, Actor.of_seat(0), {"type": "use_effect", "target": 3}).code == "cats/already_in_toilet"
    after, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 1})
    assert after.cells[1] == "toilet" and after.toilet[1] == 0
    state = roll(after, 1)  # seat index 1's turn is a trapped turn now
    assert state.seat == 1 and state.toilet_turn is True


def test_beneficial_3_with_every_opponent_on_the_start_passes():
    state, (event,) = boon(new(), 3)
    assert event.data["resolved"] is True and event.data["void"] is True and state.step == "next"


def test_beneficial_4_an_extra_roll_is_a_whole_turn_at_once_then_play_goes_on_after_the_current_seat():
    state, _ = boon(new(), 4)
    (use, _) = GAME.turn(state).decisions
    assert [o.value for o in use.fields[0].options] == [0, 1, 2, 3]
    state, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 2})
    assert plan(state).seat == 2 and plan(state).extra is True
    state = roll(state, 1)
    assert state.seat == 2 and state.extra is True and GAME.view(state, Audience.public())["turn"]["extra"] is True
    state, _ = declare(state, 1)
    state, _ = close(state)
    assert plan(state).seat == 1 and plan(state).extra is False  # after seat 0's regular turn


def test_beneficial_4_on_oneself():
    state, _ = boon(new(), 4)
    state, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 0})
    assert plan(state).seat == 0 and plan(state).extra is True


def test_a_beneficial_effect_may_be_declined_and_is_gone():
    state = placed(new(), s1="7")
    state, _ = boon(state, 2)
    state, (event,) = act(state, Actor.of_seat(0), {"type": "decline_effect"})
    assert event.data["declined"] is True and state.effect is None and state.cells[1] == "7"
    assert state.step == "next"


def test_the_x_face_of_a_beneficial_effect_is_a_blank():
    state, (event,) = boon(new(), "X")
    assert event.data["effect"] == "nothing" and state.step == "next"


def test_effect_die_faces_are_checked():
    state, (event,) = play(new(), 2, 2)
    err = error(state, Actor.dealer(), {"type": "enter_effect", "face": 7})
    assert err.code == "cats/bad_face"


# -- penalties run side by side (Cats rule 7) -------------------------------------------------------------


def test_a_skipped_turn_counts_for_every_penalty():
    state = replace(new(), no_action=(2, 0, 0, 0), island=(1, 0, 0, 0), cells=("island",) + ("start",) * 3)
    p = plan(state)
    assert p.skips == ((0, False, ("no_action", "island")),) and p.seat == 1
    state = roll(state, 1)
    assert state.no_action[0] == 1 and state.island[0] == 0


def test_an_extra_roll_given_to_a_penalised_seat_is_skipped_as_its_next_turn():
    state = replace(new(), no_action=(0, 0, 2, 0))
    state, _ = boon(state, 4)
    state, _ = act(state, Actor.of_seat(0), {"type": "use_effect", "target": 2})
    p = plan(state)
    assert p.skips == ((2, True, ("no_action",)),) and p.seat == 1 and p.extra is False
    state = roll(state, 1)
    assert state.no_action[2] == 1 and state.extra_next is None


def test_a_harmful_effect_moving_a_trapped_cat_to_the_island_frees_it_from_the_toilet():
    state, _ = play(trapped(), 2, "X", caller=1)
    state, _ = effect_die(state, 4)
    assert state.cells[0] == "island" and state.toilet[0] is None and state.island[0] == 1


def test_every_seat_penalised_is_skipped_in_order():
    state = replace(new(), no_action=(1, 1, 0, 2))
    p = plan(state)
    assert [s[0] for s in p.skips] == [0, 1] and p.seat == 2


# -- the referee's automatic steps through the runtime ------------------------------------------------


def test_runtime_referee_rolls_and_effect_dice_are_the_referees():
    table = Table.create(MemoryStore(), "cats", "clumsy_cats", list(NAMES), seed=3, clock=lambda: 0.0)
    table.start(Actor.dealer())
    entries = table.store.entries(table.id)
    assert entries[-1]["actor"] == "referee" and entries[-1]["event"]["type"] == "DieRolled"
    assert entries[-1]["event"]["to"] == [0]
    public = table.log(Audience.public())
    assert public[-1]["event"] == {"type": "DieRolled", "seat": 0, "turn": 1}
    own = table.log(Audience.of_seat(0))
    assert own[-1]["event"]["roll"] in (1, 2, 3, 4, "X")


def test_random_matches_through_the_runtime_finish_with_all_ten_tokens():
    for seed, opts in ((1, {}), (2, {"die": "dealer", "failed_call_penalty": "harmful"}),
                       (3, {"failed_call_penalty": "lose_turn", "island_turns": 2})):
        for seats in (2, 3, 4):
            table = Table.create(MemoryStore(), f"c{seed}{seats}", "clumsy_cats", list(NAMES[:seats]), options=opts,
                                 seed=seed, clock=lambda: 0.0)
            table.start(Actor.dealer())
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
            assert sum(result["details"]["points"]) == 55 and sum(result["details"]["laps"]) == 10
            replayed = fold(GAME, table.header, copy.deepcopy(table.store.entries(table.id)))
            assert replayed.state == table.load().state


# -- views ----------------------------------------------------------------------------------------------


def test_views_public_seat_and_dealer():
    state = declare(roll(new(), "X"), 3)[0]
    public = GAME.view(state, Audience.public())
    assert "secret" not in public and "panel" not in public and "sheets" not in public and "mine" not in public
    assert public["turn"]["declared"] == 3 and public["turn"]["window"] is True and public["turn"]["rolled"] is True
    assert public["map"]["lap"] == 14 and public["map"]["toilet"] == "toilet"
    roller = GAME.view(state, Audience.of_seat(0))
    assert roller["mine"]["roll"] == "X"
    other = GAME.view(state, Audience.of_seat(1))
    assert other["mine"]["roll"] is None and other["mine"]["rolls"] == []
    other.pop("mine")
    public.pop("mine", None)
    assert other == public  # nothing else differs for another seat
    dealer = GAME.view(state, Audience.dealer())
    assert dealer["secret"] == {"roll": "X", "bluff": True}
    headings = [s["heading"]["en"] for s in dealer["panel"]]
    assert headings[:2] == ["Now", "Cats"] and "Recent declarations" in headings
    now = {row[0]["en"]: row[1] for row in dealer["panel"][0]["table"][1:]}
    assert now["True roll (secret)"]["ko"] == "X" and now["True roll (secret)"]["tone"] == "secret"
    assert now["Bluff?"]["tone"] == "bad" and now["May call"]["en"] == "2 나래, 3 다솜, 4 라온"
    assert set(dealer["sheets"]) == {"run_sheet", "score_sheet"}
    assert dealer["sheets"]["run_sheet"]["title"]["ko"] == "진행 시트: 우당탕탕 고양이들"
    for sheet in dealer["sheets"].values():
        for section in sheet["sections"]:
            assert {"ko", "en"} <= set(section["heading"])
            for row in section.get("table", []):
                assert all(isinstance(c, str) or {"ko", "en"} <= set(c) for c in row)
    json.dumps([public, roller, dealer])


def test_the_describe_texts_name_seats_from_1_and_hide_what_is_hidden():
    state = roll(new(), 4)
    (event,) = [e for e in GAME.decide(new(), Actor.dealer(), {"type": "enter_roll", "roll": 4}, Rng(0))]
    public = GAME.describe(event.visible_to(Audience.public()), NAMES)
    own = GAME.describe(event.visible_to(Audience.of_seat(0)), NAMES)
    assert public.ko == "1턴 1번 가람: 주사위를 굴렸습니다" and "4" not in public.ko.replace("1턴", "")
    assert own.ko.endswith(": 4 (비밀)") and own.en.startswith("Turn 1, 1 가람")
    state, (event,) = call(declare(state, 2)[0], 3)
    text = GAME.describe(event.visible_to(Audience.public()), NAMES)
    assert text.ko == "4번 라온: 거짓말! 주사위 공개: 4 — 1번 가람 블러핑 적발!"
    assert all("Called" not in line["en"] for line in GAME.view(state, Audience.public())["feed"])


def test_the_public_log_never_holds_an_uncalled_roll():
    table = Table.create(MemoryStore(), "cats-log", "clumsy_cats", list(NAMES), seed=11, clock=lambda: 0.0)
    table.start(Actor.dealer())
    rnd = random.Random(11)
    while table.result() is None:
        actor, move = pick(GAME.turn(table.load().state), rnd)
        try:
            table.submit(actor, move)
        except RuleError:
            pass
    entries = table.store.entries(table.id)
    called, turn = set(), 0
    for e in entries:
        if e["event"]["type"] == "DieRolled":
            turn = e["event"]["data"]["turn"]
        if e["event"]["type"] == "Called":
            called.add(turn)
    assert called and set(range(1, turn + 1)) - called  # some rolls were called, some never
    for row in audience_log(entries, Audience.public()):
        if row["event"]["type"] == "DieRolled":
            assert "roll" not in row["event"]
    final = GAME.view(table.load().state, Audience.public())
    assert all(("roll" in d) == (d["caller"] is not None) for d in final["declarations"])


# -- the map: data, a shipped default, a show's own, and every problem named ------------------------------


def test_the_default_map_fits_the_seed():
    board = load_map("default")
    assert board.lap_length() == 14
    assert board.cell(board.toilet).x == 0 and board.cell(board.toilet).y == max(c.y for c in board.cells)  # bottom left
    fork = [c for c in board.cells if c.fork]
    assert len(fork) == 1 and (fork[0].up, fork[0].down) == ("up1", "down1")
    assert board.blue and board.red and board.start not in board.blue + board.red
    assert board.steps_of("toilet") == 11 and board.steps_of("down2") == board.steps_of("up2") == 10
    assert board.path("7", 3) == ["fork", "up1", "up2"] and board.path("7", 4) == ["fork", "down1", "down2", "toilet"]


SMALL = {
    "start": "s", "toilet": "t", "island": "i", "blue": ["b"], "red": ["r"],
    "cells": [
        {"id": "s", "x": 0, "y": 0, "next": "a"},
        {"id": "a", "x": 1, "y": 0, "next": "b"},
        {"id": "b", "x": 2, "y": 0, "up": "r", "down": "c"},
        {"id": "r", "x": 2, "y": 1, "next": "t"},
        {"id": "c", "x": 3, "y": 1, "next": "t"},
        {"id": "t", "x": 0, "y": 1, "next": "s"},
        {"id": "i", "x": 1, "y": 1, "next": "a"},
    ],
}


def test_a_show_can_load_its_own_map_with_an_island_off_the_loop():
    board = load_map(copy.deepcopy(SMALL))
    assert board.source == "custom" and board.steps_of("i") == 0 and board.lap_length() == 5
    assert GAME.resolve_options({"map": copy.deepcopy(SMALL)})["map"] == SMALL
    assert load_map(json.dumps(SMALL)).cells == board.cells
    table = Table.create(MemoryStore(), "own-map", "clumsy_cats", ["a", "b"], options={"map": copy.deepcopy(SMALL)},
                         seed=4, clock=lambda: 0.0)
    table.start(Actor.dealer())
    rnd = random.Random(4)
    while table.result() is None:
        actor, move = pick(GAME.turn(table.load().state), rnd)
        try:
            table.submit(actor, move)
        except RuleError:
            pass
    assert GAME.view(table.load().state, Audience.public())["map"]["source"] == "custom"


def broken(change) -> dict[str, Any]:
    m = copy.deepcopy(SMALL)
    change(m)
    return m


def cell(m: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in m["cells"] if c["id"] == cid)


MAP_PROBLEMS = [
    ("nowhere", "cats/map_unknown_name", "nowhere"),
    ("{not json", "cats/map_bad_json", "JSON"),
    (42, "cats/map_not_object", "int"),
    (broken(lambda m: m.update(colour="red")), "cats/map_unknown_key", "colour"),
    (broken(lambda m: m.update(cells=[])), "cats/map_no_cells", "cells"),
    (broken(lambda m: m.update(cells=[{"id": str(i), "x": 0, "y": 0, "next": "0"} for i in range(301)])),
     "cats/map_too_big", "301"),
    (broken(lambda m: m["cells"].append("z")), "cats/map_bad_cell", "'z'"),
    (broken(lambda m: m["cells"].append({"id": "", "x": 0, "y": 0, "next": "s"})), "cats/map_bad_cell", "''"),
    (broken(lambda m: cell(m, "a").update(colour=1)), "cats/map_unknown_key", "colour"),
    (broken(lambda m: m["cells"].append({"id": "a", "x": 0, "y": 0, "next": "s"})), "cats/map_duplicate_cell", "'a'"),
    (broken(lambda m: cell(m, "a").update(x="left")), "cats/map_bad_position", "'left'"),
    (broken(lambda m: cell(m, "a").update(y=-1)), "cats/map_bad_position", "-1"),
    (broken(lambda m: cell(m, "b").pop("down")), "cats/map_fork_branches", "'b'"),
    (broken(lambda m: cell(m, "b").update(down="r")), "cats/map_fork_branches", "'r'"),
    (broken(lambda m: cell(m, "b").update(next="c")), "cats/map_fork_branches", "'b'"),
    (broken(lambda m: cell(m, "c").pop("next")), "cats/map_dead_end", "'c'"),
    (broken(lambda m: cell(m, "c").update(next="zz")), "cats/map_unknown_cell", "'zz'"),
    (broken(lambda m: cell(m, "b").update(up="zz")), "cats/map_unknown_cell", "'zz'"),
    (broken(lambda m: cell(m, "c").update(next="c")), "cats/map_self_loop", "'c'"),
    (broken(lambda m: m.pop("start")), "cats/map_no_start", "start"),
    (broken(lambda m: m.update(start="zz")), "cats/map_unknown_cell", "'zz'"),
    (broken(lambda m: m.pop("toilet")), "cats/map_no_toilet", "toilet"),
    (broken(lambda m: m.pop("island")), "cats/map_no_island", "island"),
    (broken(lambda m: m.update(island="t")), "cats/map_special_clash", "island"),
    (broken(lambda m: m.update(blue="b")), "cats/map_bad_field", "blue"),
    (broken(lambda m: m.update(red=["zz"])), "cats/map_unknown_cell", "'zz'"),
    (broken(lambda m: m.update(blue=["s"])), "cats/map_footprint_on_start", "'s'"),
    (broken(lambda m: m.update(red=["t"])), "cats/map_footprint_clash", "'t'"),
    (broken(lambda m: m.update(red=["b"])), "cats/map_footprint_clash", "'b'"),
    (broken(lambda m: m.update(size={"width": 0, "height": 2})), "cats/map_bad_field", "size"),
    (broken(lambda m: m.update(track={"x": 1})), "cats/map_bad_field", "track"),
    (broken(lambda m: m["cells"].append({"id": "lost", "x": 3, "y": 0, "next": "s"})), "cats/map_unreachable", "'lost'"),
    (broken(lambda m: (m["cells"].append({"id": "trap", "x": 3, "y": 0, "next": "trap2"}),
                       m["cells"].append({"id": "trap2", "x": 3, "y": 2, "next": "trap"}),
                       cell(m, "c").update(next="trap"))), "cats/map_no_way_back", "'c'"),
]


@pytest.mark.parametrize("bad, code, named", MAP_PROBLEMS, ids=[p[1] + "-" + str(i) for i, p in enumerate(MAP_PROBLEMS)])
def test_a_bad_map_is_refused_with_a_clear_error_naming_the_problem(bad, code, named):
    with pytest.raises(RuleError) as info:
        load_map(bad)
    err = info.value
    assert err.code == code
    assert named in err.en and err.ko.startswith("맵 오류") and err.en.startswith("Map error")
    with pytest.raises(RuleError) as info:  # the option check raises the same error
        GAME.resolve_options({"map": bad}, 4)
    assert info.value.code == code


# -- the command line ------------------------------------------------------------------------------------


def referee(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_play_with_bots_is_deterministic_and_ends_with_the_result(tmp_path):
    first = referee("play", "clumsy_cats", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "a"))
    second = referee("play", "clumsy_cats", "--bots", "--seed", "3", "--data-dir", str(tmp_path / "b"))
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    result = json.loads(lines[-1])
    assert sum(result["details"]["points"]) == 55 and result["standings"][0]["rank"] == 1
    views = [json.loads(line) for line in lines[:-1]]
    assert all("secret" not in v["state"] and "mine" not in v["state"] for v in views)
