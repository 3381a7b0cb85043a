"""Horror Race 2 (seed 001 main match, RULINGS.md "Horror Race 2"): pure unit and scenario tests.

Most tests play in `deal=dealer` mode so the coins drawn are exact; the referee's automatic
draw is tested on its own and through the real Table runtime (in-memory store).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from referee.games.horror_race import GAME, RaceState
from referee.games.horror_race.state import CHARACTERS, final_places, move, seat_points, zone_mover
from referee.kernel import Actor, Audience, Event, Rng, RuleError, seat_names
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table

V, J, G, M, Z = "vampire", "jiangshi", "gumiho", "mummy", "zombie"


# -- helpers -------------------------------------------------------------------------------


def new_state(seats: int = 3, **options: Any) -> RaceState:
    return GAME.setup(seat_names(seats), GAME.resolve_options({"deal": "dealer", **options}), Rng(0))


def apply(state: RaceState, actor: Actor, move_: Any, rng: Rng | None = None) -> tuple[RaceState, list[Event]]:
    events = GAME.decide(state, actor, move_, rng or Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def back(state: RaceState, seat: int, pair: list[str]) -> tuple[RaceState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "back_characters", "characters": pair})


def race(backings: list[list[str]], **options: Any) -> RaceState:
    state = new_state(len(backings), **options)
    for seat, pair in enumerate(backings):
        state, _ = back(state, seat, pair)
    return state


def choose(state: RaceState, action: str, seat: int | None = None) -> tuple[RaceState, list[Event]]:
    seat = state.in_turn if seat is None else seat
    return apply(state, Actor.of_seat(seat), {"type": "take_turn", "action": action})


def forfeit(state: RaceState) -> tuple[RaceState, list[Event]]:
    return choose(state, "forfeit")


def play(state: RaceState, coins: list[str], zones: list[int]) -> tuple[RaceState, list[Event]]:
    """The seat in turn draws `coins` (listed in character order, as drawn coins are shown;
    the dealer enters them) and puts coin i on zones[i]."""
    seat = state.in_turn
    state, events = choose(state, "draw")
    state, more = apply(state, Actor.dealer(), {"type": "draw_coins", "coins": ",".join(coins)})
    events += more
    assert list(state.drawn) == coins
    state, more = apply(state, Actor.of_seat(seat), {
        "type": "place_coins", "zones": {f"c{i + 1}": z for i, z in enumerate(zones)}})
    return state, events + more


def rule_error(state: RaceState, actor: Actor, move_: Any) -> RuleError:
    snapshot = replace(state)
    with pytest.raises(RuleError) as info:
        apply(state, actor, move_)
    assert state == snapshot
    return info.value


def options(state: RaceState, seat: int | None) -> list[Any]:
    (decision,) = [d for d in GAME.turn(state).decisions if d.seat == seat]
    return [o.value for o in decision.fields[0].options]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def zone_events(events: list[Event]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "ZoneResolved"]


def stacks(state: RaceState) -> dict[int, list[str]]:
    """The occupied cells 1..12, each stack bottom to top."""
    return {i: list(s) for i, s in enumerate(state.cells) if i and s}


def with_track(state: RaceState, track: dict[int, list[str]], passed: tuple[str, ...] = ()) -> RaceState:
    """A state whose characters stand where `track` says, `passed` off the track, the rest at
    the start."""
    placed = {c for stack in track.values() for c in stack} | set(passed)
    cells = [tuple(c for c in CHARACTERS if c not in placed)] + [tuple(track.get(i, ())) for i in range(1, 13)]
    return replace(state, cells=tuple(cells))


# -- Horror rule 1: seats, backing, the box ----------------------------------------------


def test_game_takes_2_to_12_seats_usually_10_with_options_deal_and_groups():
    assert GAME.seats == (2, 12)
    assert GAME.usual_seats == 10
    assert GAME.resolve_options(None) == {"deal": "referee", "groups": "none"}
    assert GAME.resolve_options({"deal": "dealer", "groups": "guests:9,10"}) == {"deal": "dealer", "groups": "guests:9,10"}
    for bad in ({"deal": "robot"}, {"groups": "guests:"}, {"groups": "guests:0"}, {"groups": "guests:13"},
                {"groups": "guests:2,2"}, {"groups": "everyone"}, {"groups": 3}):
        with pytest.raises(RuleError) as info:
            GAME.resolve_options(bad)
        assert info.value.code == "table/bad_option"


def test_every_seat_owes_a_sealed_secret_backing_of_two_of_five_characters():
    state = new_state(4)
    turn = GAME.turn(state)
    assert turn.sealed == (0, 4)
    assert turn.waiting_seats() == (0, 1, 2, 3)
    decision = turn.for_seat(2)[0]
    assert decision.move == "back_characters"
    (field,) = decision.fields
    assert (field.shape, field.k) == ("some", 2)
    assert [o.value for o in field.options] == [V, J, G, M, Z]
    assert [o.label.ko for o in field.options] == ["뱀파이어", "강시", "구미호", "미라", "좀비"]

    state, events = back(state, 2, [Z, V])
    # The backing is private to the seat (and the dealer); the public learns only that it came.
    assert events == [Event("CharactersBacked", {"seat": 2}, {"characters": [V, Z]}, (2,))]
    assert events[0].visible_to(Audience.public()) == {"type": "CharactersBacked", "seat": 2}
    assert events[0].visible_to(Audience.of_seat(1)) == {"type": "CharactersBacked", "seat": 2}
    assert events[0].visible_to(Audience.of_seat(2))["characters"] == [V, Z]
    assert GAME.turn(state).sealed == (1, 4)
    assert GAME.turn(state).waiting_seats() == (0, 1, 3)
    err = rule_error(state, Actor.of_seat(2), {"type": "back_characters", "characters": [J, G]})
    assert err.code == "move/not_owed"


def test_backing_must_be_two_different_known_characters():
    state = new_state(3)
    assert rule_error(state, Actor.of_seat(0), {"type": "back_characters", "characters": [V, "werewolf"]}).code \
        == "horror/no_such_character"
    assert rule_error(state, Actor.of_seat(0), {"type": "back_characters", "characters": [V, V]}).code == "move/malformed"
    assert rule_error(state, Actor.of_seat(0), {"type": "back_characters", "characters": [V]}).code == "move/malformed"
    assert rule_error(state, Actor.of_seat(0), {"type": "back_characters", "characters": [V, J, G]}).code \
        == "move/malformed"


def test_box_holds_the_three_unbacked_coins_of_every_seat_and_seat_1_starts():
    backings = [[V, J], [V, G], [M, Z], [V, Z]]
    state = new_state(4)
    for seat, pair in enumerate(backings[:3]):
        state, _ = back(state, seat, pair)
    state, events = back(state, 3, backings[3])
    assert types(events) == ["CharactersBacked", "RaceStarted"]
    assert events[1].data == {"round": 1, "order": [0, 1, 2, 3], "box_size": 12}
    # Each character's coins in the box: 4 seats minus its backers.
    # V: 4 - 3 = 1, J: 4 - 1 = 3, G: 4 - 1 = 3, M: 4 - 1 = 3, Z: 4 - 2 = 2; 12 = 3 x 4.
    assert GAME.view(state, Audience.dealer())["box"] == {V: 1, J: 3, G: 3, M: 3, Z: 2}
    assert sum(state.box) == 12
    assert state.order == (0, 1, 2, 3)
    assert state.in_turn == 0
    assert GAME.turn(state).waiting_seats() == (0,)


# -- Horror rule 2: drawing, placing, forfeiting -----------------------------------------


def test_a_turn_offers_drawing_or_the_coin_forfeit():
    state = race([[V, J], [G, M], [Z, V]])
    assert options(state, 0) == ["draw", "forfeit"]
    assert rule_error(state, Actor.of_seat(1), {"type": "take_turn", "action": "draw"}).code == "move/not_owed"
    assert rule_error(state, Actor.of_seat(0), {"type": "take_turn", "action": "pass"}).code == "horror/no_such_action"


def test_dealer_draw_offers_exactly_the_multisets_the_box_holds():
    state = race([[V, J], [V, M], [G, Z]])
    # V: 3 - 2 = 1, J: 3 - 1 = 2, G: 3 - 1 = 2, M: 3 - 1 = 2, Z: 3 - 1 = 2.
    assert GAME.view(state, Audience.dealer())["box"] == {V: 1, J: 2, G: 2, M: 2, Z: 2}
    state, _ = choose(state, "draw")
    box = dict(zip(CHARACTERS, state.box, strict=True))
    expected = sorted({",".join(sorted(t, key=CHARACTERS.index)) for t in product(CHARACTERS, repeat=3)
                       if all(t.count(c) <= box[c] for c in CHARACTERS)})
    offered = options(state, None)
    assert sorted(offered) == expected
    assert "vampire,vampire,jiangshi" not in offered  # only one vampire in the box
    assert "jiangshi,jiangshi,zombie" in offered
    # A seat cannot enter the draw; the dealer can, and coins not in the box are refused.
    assert rule_error(state, Actor.of_seat(0), {"type": "draw_coins", "coins": "jiangshi,jiangshi,zombie"}).code \
        == "move/not_owed"
    assert rule_error(state, Actor.dealer(), {"type": "draw_coins", "coins": "vampire,vampire,jiangshi"}).code \
        == "horror/not_in_box"
    assert rule_error(state, Actor.dealer(), {"type": "draw_coins", "coins": "vampire,jiangshi"}).code == "horror/bad_draw"
    assert rule_error(state, Actor.dealer(), {"type": "draw_coins", "coins": "vampire,ghost,zombie"}).code \
        == "horror/bad_draw"
    # Any order of the same three coins is the same draw.
    state, events = apply(state, Actor.dealer(), {"type": "draw_coins", "coins": "zombie,jiangshi,zombie"})
    assert events == [Event("CoinsDrawn", {"seat": 0, "round": 1, "coins": [J, Z, Z]})]
    assert GAME.view(state, Audience.dealer())["box"] == {V: 1, J: 1, G: 2, M: 2, Z: 0}


def test_placing_uses_all_three_coins_on_zones_with_identical_coins_as_distinct_items():
    state = race([[V, J], [V, M], [G, Z]])
    state, _ = choose(state, "draw")
    state, _ = apply(state, Actor.dealer(), {"type": "draw_coins", "coins": "zombie,zombie,jiangshi"})
    (decision,) = GAME.turn(state).for_seat(0)
    (field,) = decision.fields
    assert field.shape == "assign"
    assert [(o.value, o.label.en) for o in field.items] == [("c1", "coin 1: jiangshi"), ("c2", "coin 2: zombie"),
                                                            ("c3", "coin 3: zombie")]
    assert [o.value for o in field.options] == [1, 2, 3]
    seat0 = Actor.of_seat(0)
    # Seed 7: every drawn coin must be placed.
    assert rule_error(state, seat0, {"type": "place_coins", "zones": {"c1": 1, "c2": 2}}).code == "move/malformed"
    assert rule_error(state, seat0, {"type": "place_coins", "zones": {"c1": 1, "c2": 2, "c3": 4}}).code \
        == "move/malformed"
    assert rule_error(state, Actor.of_seat(1), {"type": "place_coins",
                                                          "zones": {"c1": 1, "c2": 2, "c3": 3}}).code == "move/not_owed"
    state, events = apply(state, seat0, {"type": "place_coins", "zones": {"c1": 3, "c2": 1, "c3": 3}})
    # The placement is public: the coins, their zones and the seat.
    assert events[0].visible_to(Audience.public()) == {
        "type": "CoinsPlaced", "seat": 0, "round": 1,
        "coins": [{"character": J, "zone": 3}, {"character": Z, "zone": 1}, {"character": Z, "zone": 3}],
    }
    zones = GAME.view(state, Audience.public())["zones"]
    assert zones[0]["coins"] == [{"seat": 0, "character": Z}]
    assert zones[2]["coins"] == [{"seat": 0, "character": J}, {"seat": 0, "character": Z}]
    assert zones[2]["counts"] == {J: 1, Z: 1}
    assert state.in_turn == 1


def test_all_three_coins_may_go_on_one_zone():
    state = race([[V, J], [V, M], [G, Z]])
    state, events = play(state, [G, M, Z], [2, 2, 2])
    assert GAME.view(state, Audience.public())["zones"][1]["counts"] == {G: 1, M: 1, Z: 1}
    assert state.in_turn == 1


def test_only_the_first_forfeit_of_a_round_counts_and_rotates_the_next_order():
    # Horror rule 2, four seats. Round 1, order 1 2 3 4: seat 2 (index 1) forfeits.
    state = race([[V, J], [V, M], [G, Z], [J, M]])
    state, _ = play(state, [J, G, Z], [1, 1, 1])
    state, events = forfeit(state)
    assert events[0].visible_to(Audience.public()) == {"type": "CoinForfeited", "seat": 1, "round": 1}
    assert state.forfeiter == 1
    # Seat 3 is not offered the forfeit and is refused it.
    assert state.in_turn == 2
    assert options(state, 2) == ["draw"]
    err = rule_error(state, Actor.of_seat(2), {"type": "take_turn", "action": "forfeit"})
    assert err.code == "horror/forfeit_taken"
    assert "2" in err.en and "2번" in err.ko
    state, _ = play(state, [V, G, Z], [3, 3, 3])
    state, events = play(state, [J, M, M], [2, 2, 2])
    ended = [e for e in events if e.type == "RoundEnded"]
    # Next order: the seat after the forfeiter first, the forfeiter last: 3 4 1 2.
    assert ended[0].data == {"round": 1, "forfeit": 1, "next_order": [2, 3, 0, 1]}
    assert state.order == (2, 3, 0, 1)
    assert state.in_turn == 2
    assert state.forfeiter is None
    assert options(state, 2) == ["draw", "forfeit"]

    # Round 2, order 3 4 1 2: seat 1 (index 2) forfeits -> round 3 order 2 3 4 1.
    state, _ = play(state, [J, G, Z], [1, 2, 3])
    state, _ = play(state, [V, G, M], [1, 2, 3])
    state, _ = forfeit(state)
    state, _ = play(state, [J, M, Z], [2, 2, 2])
    assert state.order == (1, 2, 3, 0)

    # Round 3 with no forfeit: the order stays.
    for coins in ([J, J, G], [V, G, M], [V, M, Z], [G, Z, Z]):
        state, _ = play(state, coins, [1, 1, 1])
    assert state.round == 4
    assert state.order == (1, 2, 3, 0)


def test_the_last_seat_of_a_round_may_forfeit_and_stays_last():
    state = race([[V, J], [V, M], [G, Z]])
    state, _ = play(state, [J, G, Z], [1, 1, 1])
    state, _ = play(state, [J, M, Z], [1, 1, 1])
    state, events = forfeit(state)
    assert [e.data["next_order"] for e in events if e.type == "RoundEnded"] == [[0, 1, 2]]


def test_a_forfeiting_seat_draws_nothing_and_the_coins_return_to_the_box_at_round_end():
    state = race([[V, J], [V, M], [G, Z]])
    full = GAME.view(state, Audience.dealer())["box"]
    state, _ = forfeit(state)
    assert GAME.view(state, Audience.public())["box_size"] == 9
    state, _ = play(state, [J, G, Z], [1, 2, 3])
    assert GAME.view(state, Audience.public())["box_size"] == 6
    state, _ = play(state, [J, M, Z], [1, 2, 3])
    # Horror rule 5: after the zones, every placed coin is back in the box.
    assert state.round == 2
    assert GAME.view(state, Audience.dealer())["box"] == full
    assert GAME.view(state, Audience.public())["box_size"] == 9
    assert GAME.view(state, Audience.public())["zones"][0]["coins"] == []


def test_referee_draw_is_automatic_from_the_box_and_a_full_round_empties_it():
    state = race([[V, J], [V, M], [G, Z], [J, Z]], deal="referee")
    full = Counter({c: n for c, n in GAME.view(state, Audience.dealer())["box"].items()})
    drawn: Counter[str] = Counter()
    for seat in range(4):
        state, _ = choose(state, "draw")
        auto = GAME.turn(state).automatic()
        assert auto is not None and auto.move == "draw_coins" and auto.seat is None
        assert GAME.turn(state).for_dealer() == ()
        assert rule_error(state, Actor.dealer(), {"type": "draw_coins", "coins": "vampire,jiangshi,gumiho"}).code \
            == "move/not_owed"
        before = Counter(GAME.view(state, Audience.dealer())["box"])
        state, (event,) = apply(state, Actor.referee(), {"type": "draw_coins"}, Rng(seat, "draw"))
        coins = Counter(event.data["coins"])
        assert sum(coins.values()) == 3
        assert not coins - before  # the coins came out of the box
        assert Counter(GAME.view(state, Audience.dealer())["box"]) + coins == before
        drawn += coins
        state, _ = apply(state, Actor.of_seat(seat), {"type": "place_coins", "zones": {"c1": 1, "c2": 1, "c3": 1}})
    # Four seats drew 12 coins: the whole box, so the last seat drew exactly what was left.
    assert drawn == full


# -- Horror rule 3: zone movers and ties --------------------------------------------------


def test_zone_mover_is_the_most_coins_else_the_next_count_held_alone():
    assert zone_mover([(V, 3), (J, 1)]) == V
    assert zone_mover([(V, 2), (J, 2), (G, 1)]) == G
    # Three deep: 3 and 3 tie, 2 and 2 tie, 1 is held by zombie alone.
    assert zone_mover([(V, 3), (J, 3), (G, 2), (M, 2), (Z, 1)]) == Z
    # A count held alone below two tied counts, skipping a higher tie.
    assert zone_mover([(V, 4), (J, 4), (G, 2), (M, 1), (Z, 1)]) == G
    # Every count tied: nobody moves.
    assert zone_mover([(V, 2), (J, 2), (G, 1), (M, 1)]) is None
    assert zone_mover([(V, 1), (J, 1), (G, 1)]) is None
    # No coin, no move.
    assert zone_mover([]) is None
    assert zone_mover([(V, 0), (J, 1), (G, 1)]) is None


def test_zone_ties_three_deep_in_play_move_the_single_count():
    # Five seats: box V 5-1=4, J 5-1=4, G 5-3=2, M 5-3=2, Z 5-2=3 = 15.
    state = race([[G, M], [G, M], [G, Z], [V, Z], [J, M]])
    assert GAME.view(state, Audience.dealer())["box"] == {V: 4, J: 4, G: 2, M: 2, Z: 3}
    # Zone 3 gets V 3, J 3, G 2, M 2, Z 1: the counts 3 and 2 are tied, zombie holds 1 alone.
    state, _ = play(state, [V, V, V], [3, 3, 3])
    state, _ = play(state, [J, J, J], [3, 3, 3])
    state, _ = play(state, [G, G, M], [3, 3, 3])
    state, _ = play(state, [J, M, Z], [1, 3, 3])
    state, events = play(state, [V, Z, Z], [1, 2, 2])
    z1, z2, z3 = zone_events(events)
    # Zone 1: V 1, J 1 tied, nothing lower: nobody moves.
    assert (z1["counts"], z1["mover"]) == ({V: 1, J: 1}, None)
    # Zone 2: Z 2 alone: zombie moves 2 from the start.
    assert (z2["counts"], z2["mover"], z2["from"], z2["to"]) == ({Z: 2}, Z, 0, 2)
    # Zone 3: zombie (1 coin) moves 4, from cell 2 to 6.
    assert z3["counts"] == {V: 3, J: 3, G: 2, M: 2, Z: 1}
    assert (z3["mover"], z3["from"], z3["to"]) == (Z, 2, 6)
    assert stacks(state) == {6: [Z]}


def test_zones_resolve_in_order_1_2_4_cells_and_a_zone_without_coins_moves_nobody():
    state = race([[V, J], [V, M], [G, Z]])
    state, _ = play(state, [J, G, Z], [1, 1, 2])
    state, _ = play(state, [J, M, Z], [1, 2, 2])
    state, events = play(state, [V, G, M], [1, 2, 1])
    z1, z2, z3 = zone_events(events)
    assert [z["zone"] for z in (z1, z2, z3)] == [1, 2, 3]
    assert [z["steps"] for z in (z1, z2, z3)] == [1, 2, 4]
    # Zone 1: J 2, G 1, V 1, M 1 -> jiangshi 1 cell. Zone 2: Z 2, M 1, G 1 -> zombie 2 cells.
    # Zone 3: no coin.
    assert (z1["counts"], z1["mover"], z1["to"]) == ({V: 1, J: 2, G: 1, M: 1}, J, 1)
    assert (z2["counts"], z2["mover"], z2["to"]) == ({G: 1, M: 1, Z: 2}, Z, 2)
    assert (z3["counts"], z3["mover"], z3["to"]) == ({}, None, None)
    assert types(events)[-1] == "RoundEnded"
    assert stacks(state) == {1: [J], 2: [Z]}
    assert state.cells[0] == (V, G, M)


# -- Horror rule 4: stacks and puddles ----------------------------------------------------


def test_a_mover_carries_what_is_on_top_and_leaves_what_is_below():
    cells = with_track(new_state(), {3: [V, J, G]}).cells
    cells, record = move(cells, J, 2, 2, ((J, 1),))
    assert (record.origin, record.target, record.carried) == (3, 5, (J, G))
    assert cells[3] == (V,)
    assert cells[5] == (J, G)


def test_a_moving_stack_lands_on_top_of_the_stack_at_its_destination():
    cells = with_track(new_state(), {2: [V, J], 4: [G, M]}).cells
    cells, record = move(cells, V, 2, 2, ((V, 1),))
    assert cells[2] == ()
    assert cells[4] == (G, M, V, J)
    assert record.puddle is False


def test_characters_at_the_start_are_side_by_side_and_leave_alone():
    cells = new_state().cells
    assert cells[0] == (V, J, G, M, Z)
    cells, record = move(cells, J, 1, 1, ((J, 1),))
    assert record.carried == (J,)
    assert cells[0] == (V, G, M, Z)
    assert cells[1] == (J,)


def test_a_stack_carried_onto_a_puddle_stops_there_on_top_of_its_stack():
    # Jiangshi at 4 carries the vampire; 4 + 4 = 8 would pass the puddle at 6: they stop on 6,
    # on top of the zombie already there.
    state = with_track(race([[V, J], [V, M], [G, Z]]), {4: [J, V], 6: [Z]})
    state, _ = play(state, [J, G, Z], [3, 1, 1])
    state, _ = play(state, [J, M, Z], [2, 2, 2])
    state, events = play(state, [V, G, M], [2, 2, 1])
    z1, z2, z3 = zone_events(events)
    # Zone 1: G 1, Z 1, M 1 tied: nobody. Zone 2: J, M, Z, V, G 1 each: nobody.
    assert (z1["mover"], z2["mover"]) == (None, None)
    # Zone 3: J 1 -> jiangshi carries the vampire from 4; 8 would pass 6: stops on the puddle.
    assert (z3["mover"], z3["from"], z3["to"], z3["carried"], z3["puddle"]) == (J, 4, 6, [J, V], True)
    assert stacks(state) == {6: [Z, J, V]}


def test_leaving_a_puddle_is_not_stopped_by_it():
    cells = with_track(new_state(), {6: [Z]}).cells
    cells, record = move(cells, Z, 4, 3, ((Z, 1),))
    assert (record.origin, record.target, record.puddle) == (6, 10, False)


def test_a_stack_stops_on_top_of_the_stack_already_on_a_puddle():
    cells = with_track(new_state(), {3: [J, V], 6: [Z]}).cells
    cells, record = move(cells, J, 4, 3, ((J, 1),))
    assert (record.target, record.puddle) == (6, True)
    assert cells[6] == (Z, J, V)


def test_landing_exactly_on_a_puddle_and_the_second_puddle():
    cells = with_track(new_state(), {2: [V], 9: [J]}).cells
    cells, record = move(cells, V, 4, 3, ((V, 1),))
    assert (record.target, record.puddle) == (6, False)  # 2 + 4 = 6: lands there, passes nothing
    cells, record = move(cells, J, 4, 3, ((J, 1),))
    assert (record.target, record.puddle, record.finished) == (11, True, False)  # 13 would pass 11


# -- Horror rule 5: the goal ------------------------------------------------------------


def test_ending_on_cell_12_is_not_the_goal_and_beyond_it_is():
    cells = with_track(new_state(), {11: [V], 12: [J]}).cells
    cells, record = move(cells, V, 1, 1, ((V, 1),))
    assert (record.target, record.finished) == (12, False)
    assert cells[12] == (J, V)
    cells, record = move(cells, J, 1, 1, ((J, 1),))
    assert record.finished and record.target is None and record.carried == (J, V)
    assert cells[12] == ()


def test_a_finish_from_a_stack_ends_the_race_at_once_and_later_zones_do_not_move():
    # Mummy at 11, gumiho on it, zombie on top. Zone 2 moves gumiho: 11 + 2 = 13 > 12, so
    # gumiho and zombie pass the goal together; the mummy below stays on 11.
    state = with_track(race([[G, Z], [V, M], [J, Z]]), {11: [M, G, Z], 5: [V]})
    # Box: V 2, J 2, G 2, M 2, Z 1.
    state, _ = play(state, [J, G, Z], [3, 2, 3])
    state, _ = play(state, [V, M, M], [3, 3, 3])
    state, events = play(state, [V, J, G], [3, 3, 2])
    z1, z2 = zone_events(events)
    assert (z1["counts"], z1["mover"]) == ({}, None)
    assert (z2["mover"], z2["from"], z2["to"], z2["carried"], z2["finished"]) == (G, 11, "goal", [G, Z], True)
    # Zone 3 (J 2, V 2, M 2, Z 1: zombie would move) is not resolved: the race is over.
    assert GAME.view(state, Audience.public())["zones"][2]["counts"] == {V: 2, J: 2, M: 2, Z: 1}
    assert types(events)[-4:] == ["ZoneResolved", "ZoneResolved", "RaceFinished", "BackingsRevealed"]
    finished = next(e for e in events if e.type == "RaceFinished").data
    assert finished["finish"] == [Z, G]
    # Top of the passing stack first: Z 1, G 2; then the mummy on 11 is 3rd, vampire on 5 4th,
    # jiangshi (still at the start) 5th.
    assert finished["places"] == [{"character": Z, "place": 1}, {"character": G, "place": 2},
                                  {"character": M, "place": 3}, {"character": V, "place": 4},
                                  {"character": J, "place": 5}]
    assert stacks(state) == {5: [V], 11: [M]}
    # Seat 1 [G, Z]: 2 + 3 = 5; seat 2 [V, M]: 0 + 1 = 1; seat 3 [J, Z]: 0 + 3 = 3.
    assert state.points == (5, 1, 3)
    assert GAME.turn(state).decisions == ()


# -- Horror rule 6: ranking and scoring --------------------------------------------------


def test_final_places_stack_top_first_then_distance_then_shared_start():
    cells = with_track(new_state(), {7: [J, V]}, passed=(G,)).cells
    # Gumiho passed alone; jiangshi and vampire stacked on 7 (vampire on top); mummy and zombie
    # still at the start share the best place of their block, 4th.
    assert final_places(cells, (G,)) == ((G, 1), (V, 2), (J, 3), (M, 4), (Z, 4))
    cells = with_track(new_state(), {3: [M]}, passed=(G,)).cells
    # Three at the start behind G (passed) and M: all three share 3rd.
    assert final_places(cells, (G,)) == ((G, 1), (M, 2), (V, 3), (J, 3), (Z, 3))


def test_scores_3_2_1_for_backed_characters_including_shared_places():
    places = ((G, 1), (M, 2), (V, 3), (J, 3), (Z, 3))
    # [G, M]: 3 + 2 = 5; [V, J]: 1 + 1 = 2 (shared 3rd scores 1 each); [M, Z]: 2 + 1 = 3.
    assert seat_points(((G, M), (V, J), (M, Z)), places) == (5, 2, 3)
    places = ((G, 1), (M, 2), (V, 3), (J, 4), (Z, 5))
    assert seat_points(((J, Z), (G, V)), places) == (0, 4)


def test_seats_with_equal_points_share_the_better_rank():
    # Four seats; zone 1 holds one zombie coin: zombie (on 12) passes alone.
    state = with_track(race([[Z, G], [V, M], [Z, J], [G, M]]), {12: [Z], 7: [J, V]})
    # Box: V 3, J 3, G 2, M 2, Z 2.
    state, _ = play(state, [V, J, Z], [2, 2, 1])
    state, _ = forfeit(state)
    state, _ = play(state, [V, G, M], [2, 2, 2])
    state, events = play(state, [J, G, M], [3, 3, 3])
    # Zone 1: Z 1 -> zombie passes at once. Places: Z 1, V 2 (top of 7), J 3, G and M 4 (start).
    assert next(e for e in events if e.type == "RaceFinished").data["places"] == [
        {"character": Z, "place": 1}, {"character": V, "place": 2}, {"character": J, "place": 3},
        {"character": G, "place": 4}, {"character": M, "place": 4}]
    # Points: [Z, G] 3 + 0 = 3; [V, M] 2 + 0 = 2; [Z, J] 3 + 1 = 4; [G, M] 0.
    revealed = next(e for e in events if e.type == "BackingsRevealed")
    assert revealed.data["points"] == [3, 2, 4, 0]
    assert revealed.data["ranks"] == [2, 3, 1, 4]
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 2, 3), (1, 3, 2), (2, 1, 4), (3, 4, 0)]
    assert result.winner() == 2

    # Equal points: zombie passes again, vampire 2nd, jiangshi 3rd, gumiho and mummy share 4th.
    # [Z, G] 3 + 0 = 3, [V, J] 2 + 1 = 3, [Z, M] 3 + 0 = 3: all three share rank 1.
    state = with_track(race([[Z, G], [V, J], [Z, M]]), {12: [Z], 7: [J, V]})
    state, _ = play(state, [V, J, Z], [2, 2, 1])
    state, _ = forfeit(state)
    state, events = play(state, [V, G, M], [3, 3, 3])
    assert next(e for e in events if e.type == "BackingsRevealed").data["points"] == [3, 3, 3]
    assert [s.rank for s in GAME.result(state).standings] == [1, 1, 1]
    assert GAME.result(state).winner() is None


def test_groups_option_ranks_seats_within_players_and_guests():
    state = with_track(race([[Z, G], [V, M], [Z, J], [G, M]], groups="guests:2,4"), {12: [Z], 7: [J, V]})
    assert state.guests == (1, 3)
    state, _ = play(state, [V, J, Z], [2, 2, 1])
    state, _ = forfeit(state)
    state, _ = play(state, [V, G, M], [2, 2, 2])
    state, events = play(state, [J, G, M], [3, 3, 3])
    # Points as above: 3, 2, 4, 0. Players (seats 1, 3): 4 > 3 -> seat 3 rank 1, seat 1 rank 2.
    # Guests (seats 2, 4): 2 > 0 -> seat 2 rank 1, seat 4 rank 2.
    assert next(e for e in events if e.type == "BackingsRevealed").data["ranks"] == [2, 1, 1, 2]
    result = GAME.result(state)
    assert [s.rank for s in result.standings] == [2, 1, 1, 2]
    assert result.details["groups"] == ["players", "guests", "players", "guests"]
    view = GAME.view(state, Audience.public())
    assert view["groups"] == {"players": [0, 2], "guests": [1, 3]}
    assert [s["group"] for s in view["seats"]] == ["players", "guests", "players", "guests"]


def test_groups_guest_numbers_beyond_the_table_name_nobody():
    assert new_state(3, groups="guests:3,11").guests == (2,)
    assert new_state(3).guests == ()


def test_the_final_scoring_reveals_every_backing_publicly():
    state = with_track(race([[Z, G], [V, M], [Z, J]]), {12: [Z]})
    assert all("backing" not in s for s in GAME.view(state, Audience.public())["seats"])
    state, _ = play(state, [V, J, Z], [1, 1, 1])
    state, _ = forfeit(state)
    state, events = play(state, [V, G, M], [1, 3, 3])
    # Zone 1: V 2, J 1, Z 1 -> vampire 1 cell (from the start); zone 2 empty; zone 3: G 1, M 1 tie.
    # Nobody passed: the race goes on.
    assert "BackingsRevealed" not in types(events)
    state, _ = play(state, [V, J, Z], [2, 2, 1])
    state, _ = forfeit(state)
    state, events = play(state, [V, G, M], [3, 3, 3])
    reveal = next(e for e in events if e.type == "BackingsRevealed")
    assert reveal.private is None
    assert reveal.visible_to(Audience.public())["backings"] == [[G, Z], [V, M], [J, Z]]
    view = GAME.view(state, Audience.public())
    assert [s["backing"] for s in view["seats"]] == [[G, Z], [V, M], [J, Z]]
    assert view["revealed"] is True


# -- views ------------------------------------------------------------------------------


def test_views_public_seat_and_dealer():
    state = race([[V, J], [V, M], [G, Z]])
    state, _ = play(state, [J, G, Z], [3, 1, 1])
    state, _ = choose(state, "draw")
    state, _ = apply(state, Actor.dealer(), {"type": "draw_coins", "coins": "jiangshi,mummy,zombie"})
    public = GAME.view(state, Audience.public())
    assert public["step"] == "place"
    assert public["round"] == 1
    assert public["order"] == [0, 1, 2]
    assert public["turn"] == 1
    assert public["forfeit"] is None
    # The drawn coins are public at the draw.
    assert public["drawn"] == {"seat": 1, "coins": [J, M, Z]}
    assert public["box_size"] == 3
    assert public["puddles"] == [6, 11]
    assert public["last_cell"] == 12
    assert [c["cell"] for c in public["track"]] == list(range(13))
    assert public["track"][0]["stack"] == [V, J, G, M, Z]
    assert [c["puddle"] for c in public["track"] if c["puddle"]] == [True, True]
    assert [z["coins"] for z in public["zones"]] == [[{"seat": 0, "character": G}, {"seat": 0, "character": Z}], [],
                                                     [{"seat": 0, "character": J}]]
    assert public["seats"] == [{"seat": s, "group": "players", "backed": True} for s in range(3)]
    assert "box" not in public
    seat1 = GAME.view(state, Audience.of_seat(1))
    assert seat1["seats"][1]["backing"] == [V, M]
    assert "backing" not in seat1["seats"][0] and "backing" not in seat1["seats"][2]
    assert "box" not in seat1
    dealer = GAME.view(state, Audience.dealer())
    assert [s["backing"] for s in dealer["seats"]] == [[V, J], [V, M], [G, Z]]
    # Box: V 1, J 2, G 2, M 2, Z 2 minus J G Z minus J M Z.
    assert dealer["box"] == {V: 1, J: 0, G: 1, M: 1, Z: 0}


def test_the_newest_rounds_record_keeps_its_moves_for_the_projector():
    state = race([[V, J], [V, M], [G, Z]])
    state, _ = play(state, [J, G, Z], [1, 2, 2])
    state, _ = forfeit(state)
    state, _ = play(state, [J, M, Z], [1, 1, 2])
    public = GAME.view(state, Audience.public())
    log = public["newest_round"]
    assert public["rounds_done"] == 1 and "rounds" not in public  # the newest record only
    assert log["round"] == 1 and log["order"] == [0, 1, 2] and log["forfeit"] == 1
    assert [p["seat"] for p in log["placements"]] == [0, 2]
    assert [(m["zone"], m["mover"], m["from"], m["to"]) for m in log["moves"]] == [
        (1, J, 0, 1), (2, Z, 0, 2), (3, None, None, None)]


# -- a whole race, computed by hand -------------------------------------------------------


def test_whole_race_three_seats_with_forfeits_stacks_puddles_and_a_stacked_finish():
    backings = [[V, G], [J, Z], [V, M]]
    state = race(backings)
    # Box: V 3-2=1, J 3-1=2, G 3-1=2, M 3-1=2, Z 3-1=2 (9 coins).
    assert GAME.view(state, Audience.dealer())["box"] == {V: 1, J: 2, G: 2, M: 2, Z: 2}

    # Round 1, order 1 2 3.
    state, _ = play(state, [J, G, M], [3, 3, 1])
    state, _ = play(state, [V, J, Z], [3, 3, 2])
    state, events = play(state, [G, M, Z], [3, 2, 2])  # the last three coins in the box
    # Zone 1: M 1 -> mummy 0 -> 1. Zone 2: Z 2, M 1 -> zombie 0 -> 2.
    # Zone 3: J 2, G 2 tie; V 1 alone -> vampire 0 -> 4.
    assert [(z["mover"], z["to"]) for z in zone_events(events)] == [(M, 1), (Z, 2), (V, 4)]
    assert stacks(state) == {1: [M], 2: [Z], 4: [V]}
    assert state.cells[0] == (J, G)

    # Round 2, order 1 2 3: seat 1 forfeits, seat 2 may not.
    state, _ = forfeit(state)
    assert rule_error(state, Actor.of_seat(1), {"type": "take_turn", "action": "forfeit"}).code == "horror/forfeit_taken"
    state, _ = play(state, [V, M, Z], [3, 1, 2])
    state, events = play(state, [J, G, M], [1, 1, 1])
    # Zone 1: M 2, J 1, G 1 -> mummy 1 -> 2, onto the zombie: [Z, M].
    # Zone 2: Z 1 -> zombie carries the mummy 2 -> 4, onto the vampire: [V, Z, M].
    # Zone 3: V 1 -> vampire carries both 4 -> 8, which would pass the puddle: stop on 6.
    assert [(z["mover"], z["from"], z["to"], z["carried"], z["puddle"]) for z in zone_events(events)] == [
        (M, 1, 2, [M], False), (Z, 2, 4, [Z, M], False), (V, 4, 6, [V, Z, M], True)]
    assert stacks(state) == {6: [V, Z, M]}
    # Seat 1 forfeited: round 3 goes 2 3 1.
    assert state.order == (1, 2, 0)

    # Round 3, order 2 3 1, no forfeit.
    state, _ = play(state, [V, J, Z], [3, 1, 2])
    state, _ = play(state, [G, M, M], [1, 1, 2])
    state, events = play(state, [J, G, Z], [1, 2, 2])
    # Zone 1: J 2, G 1, M 1 -> jiangshi 0 -> 1. Zone 2: Z 2, M 1, G 1 -> zombie carries the
    # mummy 6 -> 8; the vampire stays on 6. Zone 3: V 1 -> vampire 6 -> 10.
    assert [(z["mover"], z["from"], z["to"], z["carried"]) for z in zone_events(events)] == [
        (J, 0, 1, [J]), (Z, 6, 8, [Z, M]), (V, 6, 10, [V])]
    assert stacks(state) == {1: [J], 8: [Z, M], 10: [V]}
    assert state.order == (1, 2, 0)

    # Round 4, order 2 3 1: seat 3 forfeits.
    state, _ = play(state, [V, M, Z], [2, 1, 3])
    state, _ = forfeit(state)
    state, events = play(state, [J, G, M], [1, 1, 1])
    # Zone 1: M 2, J 1, G 1 -> mummy (on top of the zombie) 8 -> 9, alone.
    # Zone 2: V 1 -> vampire 10 -> 12 would pass the puddle 11: stops on 11.
    # Zone 3: Z 1 -> zombie 8 -> 12 would pass 11 too: stops on 11, on top of the vampire.
    assert [(z["mover"], z["from"], z["to"], z["puddle"]) for z in zone_events(events)] == [
        (M, 8, 9, False), (V, 10, 11, True), (Z, 8, 11, True)]
    assert stacks(state) == {1: [J], 9: [M], 11: [V, Z]}
    # Seat 3 (index 1 of 2 3 1) forfeited: round 5 goes 1 2 3.
    assert state.order == (0, 1, 2)

    # Round 5, order 1 2 3.
    state, _ = play(state, [V, G, Z], [2, 3, 1])
    state, _ = play(state, [J, J, M], [3, 3, 1])
    state, events = play(state, [G, M, Z], [3, 1, 3])
    # Zone 1: M 2, Z 1 -> mummy 9 -> 10.
    # Zone 2: V 1 -> vampire carries the zombie 11 -> 13: past the goal, the race ends.
    # Zone 3 (J 2, G 2, Z 1: zombie would move 4) is not resolved.
    assert [(z["mover"], z["from"], z["to"], z["carried"]) for z in zone_events(events)] == [
        (M, 9, 10, [M]), (V, 11, "goal", [V, Z])]
    assert GAME.view(state, Audience.public())["zones"][2]["counts"] == {J: 2, G: 2, Z: 1}
    assert state.cells[0] == (G,)
    assert stacks(state) == {1: [J], 10: [M]}
    # Places: zombie 1 (top of the passing stack), vampire 2, mummy (10) 3, jiangshi (1) 4,
    # gumiho (start) 5.
    assert state.places == ((Z, 1), (V, 2), (M, 3), (J, 4), (G, 5))
    # Seat 1 [V, G]: 2 + 0 = 2. Seat 2 [J, Z]: 0 + 3 = 3. Seat 3 [V, M]: 2 + 1 = 3.
    assert state.points == (2, 3, 3)
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 3, 2), (1, 1, 3), (2, 1, 3)]
    assert result.details["places"] == {Z: 1, V: 2, M: 3, J: 4, G: 5}
    assert result.details["rounds_played"] == 5
    public = GAME.view(state, Audience.public())
    assert public["finish"] == [Z, V]
    assert public["rounds_done"] == 5 and public["newest_round"]["round"] == 5 and public["newest_round"]["forfeit"] is None
    assert [s["points"] for s in public["seats"]] == [2, 3, 3]


def test_whole_race_with_groups_ranks_the_guest_apart():
    state = race([[V, G], [J, Z], [V, M]], groups="guests:3")
    for turns in (
        [([J, G, M], [3, 3, 1]), ([V, J, Z], [3, 3, 2]), ([G, M, Z], [3, 2, 2])],
        [None, ([V, M, Z], [3, 1, 2]), ([J, G, M], [1, 1, 1])],
        [([V, J, Z], [3, 1, 2]), ([G, M, M], [1, 1, 2]), ([J, G, Z], [1, 2, 2])],
        [([V, M, Z], [2, 1, 3]), None, ([J, G, M], [1, 1, 1])],
        [([V, G, Z], [2, 3, 1]), ([J, J, M], [3, 3, 1]), ([G, M, Z], [3, 1, 3])],
    ):
        for step in turns:
            state, _ = forfeit(state) if step is None else play(state, *step)
    # Same race as above: points 2, 3, 3. Players seats 1 and 2: 3 > 2; the guest alone is 1st.
    assert [(s.seat, s.rank, s.score) for s in GAME.result(state).standings] == [(0, 2, 2), (1, 1, 3), (2, 1, 3)]


# -- through the runtime (in-memory store, referee draws) --------------------------------


def test_runtime_referee_draws_are_logged_as_the_referees_and_come_from_the_box():
    table = Table.create(MemoryStore(), "h", "horror_race", ["A", "B", "C"], seed=5, clock=lambda: 0.0)
    table.start(Actor.dealer())
    for seat, pair in enumerate([[V, J], [V, M], [G, Z]]):
        table.submit(Actor.of_seat(seat), {"type": "back_characters", "characters": pair})
    box = Counter(table.view(Audience.dealer())["state"]["box"])
    assert box == Counter({V: 1, J: 2, G: 2, M: 2, Z: 2})
    table.submit(Actor.of_seat(0), {"type": "take_turn", "action": "draw"})
    log = table.log(Audience.public())
    assert [(r["actor"], r["event"]["type"]) for r in log[-2:]] == [("seat:0", "DrawChosen"), ("referee", "CoinsDrawn")]
    coins = Counter(log[-1]["event"]["coins"])
    assert sum(coins.values()) == 3 and not coins - box
    view = table.view(Audience.of_seat(0))
    assert view["state"]["drawn"]["coins"] == log[-1]["event"]["coins"]
    assert [d["move"] for d in view["decisions"]] == ["place_coins"]
    # The phone and the projector never see the box; the dealer does.
    assert "box" not in table.view(Audience.public())["state"]
    assert Counter(table.view(Audience.dealer())["state"]["box"]) == box - coins
    # The public log holds no backing before the reveal.
    for row in table.log(Audience.public()):
        assert "characters" not in row["event"] and "backings" not in row["event"]


# -- invariants over random races ---------------------------------------------------------


@pytest.mark.parametrize(("seats", "deal"), [(2, "dealer"), (5, "referee"), (12, "dealer"), (12, "referee")])
def test_random_races_keep_every_character_and_coin_and_finish(seats, deal):
    for seed in range(15):
        rnd = random.Random(seed)
        state = GAME.setup(seat_names(seats), GAME.resolve_options({"deal": deal}), Rng(seed))
        steps = 0
        while GAME.result(state) is None:
            steps += 1
            assert steps < 3000
            if (auto := GAME.turn(state).automatic()) is not None:
                state, _ = apply(state, Actor.referee(), {"type": auto.move}, Rng(seed, steps))
                continue
            actor, move_ = pick(GAME.turn(state), rnd)
            state, _ = apply(state, actor, move_)
            on_track = [c for stack in state.cells for c in stack] + list(state.finish)
            assert sorted(on_track) == sorted(CHARACTERS)  # each character exactly once
            if state.step in ("choose", "draw", "place"):
                # Box + drawn + placed coins = the 3N coins nobody backed.
                held = Counter(dict(zip(CHARACTERS, state.box, strict=True)))
                held += Counter(state.drawn) + Counter(c for p in state.placements for c, _ in p.coins)
                full = Counter({c: seats - sum(c in b for b in state.backings) for c in CHARACTERS})
                assert held == full and sum(full.values()) == 3 * seats
                # A seat draws or forfeits once per round, in the round's order.
                assert sorted(state.order) == list(range(seats))
                assert len(state.placements) + (state.forfeiter is not None) == state.position
        result = GAME.result(state)
        assert len(state.finish) >= 1
        assert [s.seat for s in result.standings] == list(range(seats))
        # Points recomputed from the revealed places, independently of the game's scorer.
        place = dict(state.places)
        for s in result.standings:
            assert s.score == sum({1: 3, 2: 2, 3: 1}.get(place[c], 0) for c in state.backings[s.seat])
            assert s.rank == 1 + sum(o.score > s.score for o in result.standings)


def test_groups_option_is_checked_against_the_table():
    from referee.kernel import RuleError
    from referee.store import MemoryStore
    from referee.table import Table

    store = MemoryStore()
    names = [f"P{i}" for i in range(10)]
    table = Table.create(store, "g-ok", "horror_race", names, options={"groups": "guests:9,10"})
    assert table.header["options"]["groups"] == "guests:9,10"
    for bad in ("guests:11", "guests:0", "guests:9,9", "everyone", 3):
        with pytest.raises(RuleError) as err:
            Table.create(store, f"g-{bad}", "horror_race", names, options={"groups": bad})
        assert err.value.code == "table/bad_option" and str(bad) in err.value.en
