"""Tricky Coin (seed 000 section 5, RULINGS.md "Tricky Coin"): pure unit tests, no Redis.

The game is driven through its pure functions (setup / decide / evolve / turn / view / result);
a few tests go through the real Table runtime on the in-memory store.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from referee.games.tricky_coin import GAME, START_HAND, CoinState
from referee.kernel import Actor, Audience, Event, Rng, RuleError, seat_names
from referee.store import MemoryStore
from referee.table import Table

GO, STOP = "GO", "STOP"


# -- helpers -------------------------------------------------------------------------------


def new_state() -> CoinState:
    return GAME.setup(seat_names(2), {}, Rng(0))


def apply(state: CoinState, actor: Actor, move: Any) -> tuple[CoinState, list[Event]]:
    """Decide a move, then evolve the state through each of its events."""
    events = GAME.decide(state, actor, move, Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def put(state: CoinState, seat: int, coin: Any) -> tuple[CoinState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "put_coin", "coin": coin})


def token(state: CoinState, seat: int, tok: Any) -> tuple[CoinState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "choose_token", "token": tok})


def play_round(state: CoinState, box0: list[int], box1: list[int]) -> tuple[CoinState, list[Event]]:
    """One whole round: seat 0 puts the coins of box0 in order, seat 1 those of box1.

    Each seat says GO while it has coins of its list left to put; the lengths differ by at
    most one (GO against STOP puts exactly one more coin and ends the round).
    """
    assert box0 and box1 and abs(len(box0) - len(box1)) <= 1
    events: list[Event] = []
    for seat, coin in ((0, box0[0]), (1, box1[0])):
        state, ev = put(state, seat, coin)
        events += ev
    i = 1
    while True:
        tokens = (GO if len(box0) > i else STOP, GO if len(box1) > i else STOP)
        for seat in (0, 1):
            state, ev = token(state, seat, tokens[seat])
            events += ev
        for seat, box in ((0, box0), (1, box1)):
            if tokens[seat] == GO:
                state, ev = put(state, seat, box[i])
                events += ev
        if STOP in tokens:
            return state, events
        i += 1


def hand(*coins: int) -> tuple[int, ...]:
    return tuple(sorted(coins))


def counts(coins: tuple[int, ...]) -> dict[str, int]:
    return {str(d): coins.count(d) for d in (1, 5, 10, 20)}


def options(state: CoinState, seat: int) -> list[Any]:
    (decision,) = GAME.turn(state).for_seat(seat)
    return [o.value for o in decision.fields[0].options]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def rule_error(state: CoinState, actor: Actor, move: Any) -> RuleError:
    """Submit a move that must fail; check that the state did not change."""
    snapshot = replace(state)
    with pytest.raises(RuleError) as info:
        apply(state, actor, move)
    assert state == snapshot
    return info.value


# -- Coin rule 1: starting holdings ------------------------------------------------------


def test_starting_holdings_are_three_1s_three_5s_three_10s_two_20s_for_both_seats():
    state = new_state()
    expected = (1, 1, 1, 5, 5, 5, 10, 10, 10, 20, 20)
    assert START_HAND == expected
    assert state.hands == (expected, expected)
    assert state.boxes == ((), ())
    assert state.points == (0, 0)
    assert (state.round, state.rounds) == (1, 10)
    view = GAME.view(state, Audience.dealer())
    for seat in (0, 1):
        assert view["seats"][seat]["hand"] == [3, 3, 3, 2]
        assert view["seats"][seat]["held"] == [3, 3, 3, 2]


def test_first_decision_is_one_coin_from_each_seat_offering_every_denomination_held():
    state = new_state()
    turn = GAME.turn(state)
    assert turn.waiting_seats() == (0, 1)
    assert turn.sealed == (0, 2)
    assert [d.move for d in turn.decisions] == ["put_coin", "put_coin"]
    assert options(state, 0) == [1, 5, 10, 20]
    assert options(state, 1) == [1, 5, 10, 20]
    assert GAME.result(state) is None


# -- Coin rule 2 and 3: rounds ------------------------------------------------------------


def test_both_stop_round_opens_boxes_scores_total_coins_and_exchanges_boxes():
    state = new_state()
    state, events = put(state, 0, 20)
    assert events == [Event("CoinPut", {"seat": 0}, {"coin": 20}, (0,))]
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 20)
    assert GAME.turn(state).waiting_seats() == (1,)
    assert GAME.turn(state).sealed == (1, 2)

    state, events = put(state, 1, 10)
    assert events == [Event("CoinPut", {"seat": 1}, {"coin": 10}, (1,))]
    assert state.boxes == ((20,), (10,))
    assert [d.move for d in GAME.turn(state).decisions] == ["choose_token", "choose_token"]
    assert options(state, 0) == [GO, STOP]

    state, events = token(state, 0, STOP)
    assert events == [Event("TokenChosen", {"seat": 0}, {"token": STOP}, (0,))]
    state, events = token(state, 1, STOP)
    assert types(events) == ["TokenChosen", "TokensRevealed", "BoxesOpened"]
    assert events[1].data == {"tokens": [STOP, STOP]}
    # 20 > 10: seat 0 wins as many points as coins put by both, 1 + 1 = 2.
    assert events[2].data == {"round": 1, "boxes": [[20], [10]], "sums": [20, 10], "winner": 0, "points": 2}

    assert state.points == (2, 0)
    assert state.round == 2
    assert state.boxes == ((), ())
    # Exchange: seat 0 gave its 20 and received the 10; seat 1 the other way round.
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 10, 10, 20, 20, 20)
    assert state.start_hands == state.hands
    assert GAME.turn(state).waiting_seats() == (0, 1)
    assert GAME.turn(state).decisions[0].move == "put_coin"


def test_go_stop_split_go_seat_puts_exactly_one_more_coin_and_round_ends():
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 10)
    state, _ = token(state, 0, GO)
    state, events = token(state, 1, STOP)
    assert types(events) == ["TokenChosen", "TokensRevealed"]
    assert events[1].data == {"tokens": [GO, STOP]}

    # Only the GO seat owes a coin; the STOP seat owes nothing.
    turn = GAME.turn(state)
    assert turn.waiting_seats() == (0,)
    assert [d.move for d in turn.decisions] == ["put_coin"]
    err = rule_error(state, Actor.of_seat(1), {"type": "put_coin", "coin": 1})
    assert err.code == "move/not_owed"
    err = rule_error(state, Actor.of_seat(1), {"type": "choose_token", "token": GO})
    assert err.code == "move/not_owed"

    state, events = put(state, 0, 10)
    # The one extra coin closes the round at once: no second GO/STOP.
    assert types(events) == ["CoinPut", "BoxesOpened"]
    # Seat 0: 5 + 10 = 15 > seat 1: 10, so seat 0 wins 2 + 1 = 3 points.
    assert events[1].data == {"round": 1, "boxes": [[5, 10], [10]], "sums": [15, 10], "winner": 0, "points": 3}
    assert state.points == (3, 0)
    assert state.round == 2
    # Seat 0 put 5 and 10, received 10: 10 coins. Seat 1 put 10, received 5 and 10: 12 coins.
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 10, 10, 10, 20, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 5, 10, 10, 10, 20, 20)


def test_stop_go_split_the_go_seat_may_be_seat_1_and_can_lose():
    state, events = play_round(new_state(), [20], [1, 5])
    # Seat 0: 20 > seat 1: 1 + 5 = 6; seat 0 wins 1 + 2 = 3 points even though it said STOP.
    assert events[-1].data == {"round": 1, "boxes": [[20], [1, 5]], "sums": [20, 6], "winner": 0, "points": 3}
    assert state.points == (3, 0)
    assert state.hands[0] == hand(1, 1, 1, 1, 5, 5, 5, 5, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 5, 5, 10, 10, 10, 20, 20, 20)


def test_both_go_put_another_coin_then_go_stop_is_chosen_again_three_deep():
    state = new_state()
    state, _ = put(state, 0, 1)
    state, _ = put(state, 1, 1)
    # First reveal: both GO.
    state, _ = token(state, 0, GO)
    state, events = token(state, 1, GO)
    assert events[-1] == Event("TokensRevealed", {"tokens": [GO, GO]})
    assert GAME.turn(state).waiting_seats() == (0, 1)
    assert [d.move for d in GAME.turn(state).decisions] == ["put_coin", "put_coin"]
    state, _ = put(state, 0, 5)
    state, events = put(state, 1, 10)
    assert types(events) == ["CoinPut"]
    # Both put: GO/STOP is chosen again.
    assert [d.move for d in GAME.turn(state).decisions] == ["choose_token", "choose_token"]
    assert state.tokens == (None, None)
    # Second reveal: both GO again.
    state, _ = token(state, 0, GO)
    state, _ = token(state, 1, GO)
    state, _ = put(state, 0, 20)
    state, _ = put(state, 1, 20)
    assert state.boxes == ((1, 5, 20), (1, 10, 20))
    # Third reveal: both STOP, the boxes open.
    state, _ = token(state, 0, STOP)
    state, events = token(state, 1, STOP)
    assert types(events) == ["TokenChosen", "TokensRevealed", "BoxesOpened"]
    # Seat 0: 1 + 5 + 20 = 26 < seat 1: 1 + 10 + 20 = 31; seat 1 wins 3 + 3 = 6 points.
    assert events[-1].data == {
        "round": 1,
        "boxes": [[1, 5, 20], [1, 10, 20]],
        "sums": [26, 31],
        "winner": 1,
        "points": 6,
    }
    assert state.points == (0, 6)
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 10, 10, 10, 10, 20, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 5, 10, 10, 20, 20)


def test_revealed_pairs_of_the_round_are_public_in_the_view():
    state = new_state()
    state, _ = put(state, 0, 1)
    state, _ = put(state, 1, 1)
    state, _ = token(state, 0, GO)
    state, _ = token(state, 1, GO)
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    state, _ = token(state, 0, GO)
    state, _ = token(state, 1, STOP)
    assert state.revealed == ((GO, GO), (GO, STOP))
    assert GAME.view(state, Audience.public())["revealed"] == [[GO, GO], [GO, STOP]]


def test_equal_sums_score_nothing_but_boxes_are_still_exchanged():
    state, events = play_round(new_state(), [20, 5], [10, 10, 5])
    # Seat 0: 20 + 5 = 25; seat 1: 10 + 10 + 5 = 25. Equal: no points although 5 coins went in.
    assert events[-1].data == {
        "round": 1,
        "boxes": [[5, 20], [5, 10, 10]],
        "sums": [25, 25],
        "winner": None,
        "points": 0,
    }
    assert state.points == (0, 0)
    assert state.round == 2
    # Seat 0 gave 20, 5 and received 10, 10, 5; seat 1 the other way round.
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 10, 20, 20, 20)


def test_player_with_no_coin_left_cannot_go_played_out():
    # Both put a coin, then say GO ten times: each puts all eleven coins.
    order = [20, 20, 10, 10, 10, 5, 5, 5, 1, 1, 1]
    state = new_state()
    state, _ = put(state, 0, order[0])
    state, _ = put(state, 1, order[0])
    for coin in order[1:]:
        state, _ = token(state, 0, GO)
        state, _ = token(state, 1, GO)
        state, _ = put(state, 0, coin)
        state, _ = put(state, 1, coin)
    assert state.hands == ((), ())
    assert len(state.boxes[0]) == len(state.boxes[1]) == 11
    # The turn offers only STOP to both seats.
    assert options(state, 0) == [STOP]
    assert options(state, 1) == [STOP]
    err = rule_error(state, Actor.of_seat(0), {"type": "choose_token", "token": GO})
    assert err.code == "coin/no_coin_for_go"
    assert "GO" in err.ko and "GO" in err.en
    state, _ = token(state, 0, STOP)
    state, events = token(state, 1, STOP)
    # Equal sums 3x1 + 3x5 + 3x10 + 2x20 = 3 + 15 + 30 + 40 = 88 each: no points (22 coins went in);
    # the exchange gives each seat back a full start hand.
    assert events[-1].data["sums"] == [88, 88]
    assert events[-1].data["points"] == 0
    assert events[-1].data["winner"] is None
    assert state.points == (0, 0)
    assert state.hands == (START_HAND, START_HAND)


def test_player_with_no_coin_left_cannot_go_constructed_state():
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    # Seat 0 holds nothing mid-round; seat 1 still holds coins.
    state = replace(state, hands=((), state.hands[1]))
    assert options(state, 0) == [STOP]
    assert options(state, 1) == [GO, STOP]
    err = rule_error(state, Actor.of_seat(0), {"type": "choose_token", "token": GO})
    assert err.code == "coin/no_coin_for_go"
    assert err.values == {"token": GO}
    err = rule_error(state, Actor.on_behalf(0), {"type": "choose_token", "token": GO})
    assert err.code == "coin/no_coin_for_go"
    # Seat 1 with coins may still choose GO.
    state, events = token(state, 1, GO)
    assert events == [Event("TokenChosen", {"seat": 1}, {"token": GO}, (1,))]


def test_dealer_on_behalf_of_a_seat_enters_its_move():
    state = new_state()
    state, events = apply(state, Actor.on_behalf(1), {"type": "put_coin", "coin": 10})
    assert events == [Event("CoinPut", {"seat": 1}, {"coin": 10}, (1,))]
    assert state.boxes == ((), (10,))
    assert GAME.turn(state).waiting_seats() == (0,)


# -- errors -------------------------------------------------------------------------------


def test_putting_a_coin_not_held_is_refused():
    state = new_state()
    state, _ = play_round(state, [20], [1])
    state, _ = play_round(state, [20], [1])
    assert 20 not in state.hands[0]
    assert options(state, 0) == [1, 5, 10]
    err = rule_error(state, Actor.of_seat(0), {"type": "put_coin", "coin": 20})
    assert err.code == "coin/not_in_hand"
    assert "20" in err.ko and "20" in err.en
    assert err.values == {"coin": 20}


def test_putting_a_coin_not_held_mid_round_is_refused():
    state = new_state()
    state, _ = put(state, 0, 20)
    state, _ = put(state, 1, 1)
    state, _ = token(state, 0, GO)
    state, _ = token(state, 1, GO)
    state, _ = put(state, 0, 20)
    state, _ = put(state, 1, 1)
    state, _ = token(state, 0, GO)
    state, _ = token(state, 1, STOP)
    err = rule_error(state, Actor.of_seat(0), {"type": "put_coin", "coin": 20})
    assert err.code == "coin/not_in_hand"


@pytest.mark.parametrize("coin", [7, 0, 2, 50, -5, "five"])
def test_a_non_existent_denomination_is_refused(coin):
    err = rule_error(new_state(), Actor.of_seat(0), {"type": "put_coin", "coin": coin})
    assert err.code == "coin/no_such_coin"
    assert repr(coin) in err.ko and repr(coin) in err.en
    assert err.values == {"coin": coin}


def test_string_denomination_is_not_a_coin():
    # "5" is not the coin 5: the options are integers.
    err = rule_error(new_state(), Actor.of_seat(0), {"type": "put_coin", "coin": "5"})
    assert err.code == "coin/no_such_coin"
    assert "'5'" in err.en


@pytest.mark.parametrize("tok", ["MAYBE", "go", "Stop", "", 1])
def test_a_token_that_is_not_go_or_stop_is_refused(tok):
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    err = rule_error(state, Actor.of_seat(0), {"type": "choose_token", "token": tok})
    assert err.code == "coin/no_such_token"
    assert repr(tok) in err.ko and repr(tok) in err.en
    assert err.values == {"token": tok}


def test_token_during_put_step_is_not_owed():
    err = rule_error(new_state(), Actor.of_seat(0), {"type": "choose_token", "token": GO})
    assert err.code == "move/not_owed"
    assert "choose_token" in err.ko and "choose_token" in err.en


def test_coin_during_token_step_is_not_owed():
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    err = rule_error(state, Actor.of_seat(0), {"type": "put_coin", "coin": 1})
    assert err.code == "move/not_owed"
    assert "put_coin" in err.ko and "put_coin" in err.en


def test_second_coin_before_the_reveal_is_not_owed():
    state, _ = put(new_state(), 0, 5)
    err = rule_error(state, Actor.of_seat(0), {"type": "put_coin", "coin": 1})
    assert err.code == "move/not_owed"
    # The error names the decision in words, as the phone's prompt does.
    assert "seat 1" in err.en and "Choose a coin to put in your box" in err.en


def test_second_token_before_the_reveal_is_not_owed():
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    state, _ = token(state, 0, STOP)
    err = rule_error(state, Actor.of_seat(0), {"type": "choose_token", "token": GO})
    assert err.code == "move/not_owed"


@pytest.mark.parametrize(
    "actor",
    [Actor.dealer(), Actor.referee(), Actor.of_seat(2), Actor.on_behalf(2)],
    ids=["dealer", "referee", "seat2", "dealer_for_seat2"],
)
def test_an_actor_without_a_seat_in_the_match_owes_nothing(actor):
    err = rule_error(new_state(), actor, {"type": "put_coin", "coin": 5})
    assert err.code == "move/not_owed"
    assert "Choose a coin to put in your box" in err.en


def test_a_seat_cannot_act_for_the_other_seat():
    # Seat 1 has put its coin; only seat 0 owes one. Seat 1 acting again is refused.
    state, _ = put(new_state(), 1, 5)
    err = rule_error(state, Actor.of_seat(1), {"type": "put_coin", "coin": 5, "seat": 0})
    assert err.code == "move/not_owed"
    assert "seat 2" in err.en


def test_no_move_after_the_match_is_over():
    state = _ten_rounds_seat0_wins()
    assert GAME.turn(state).decisions == ()
    err = rule_error(state, Actor.of_seat(0), {"type": "put_coin", "coin": 5})
    assert err.code == "move/not_owed"


@pytest.mark.parametrize(
    ("move", "named"),
    [
        (None, "None"),
        ("put_coin 5", "'put_coin 5'"),
        ([5], "[5]"),
        ({"coin": 5}, "{'coin': 5}"),
        ({"type": 5, "coin": 5}, "'type': 5"),
        ({"type": "put_coin"}, "coin"),
        ({"type": "put_coin", "coin": True}, "True"),
        ({"type": "put_coin", "coin": 5.0}, "5.0"),
        ({"type": "put_coin", "coin": [5]}, "[5]"),
        ({"type": "put_coin", "coin": None}, "None"),
    ],
)
def test_malformed_moves_are_refused(move, named):
    err = rule_error(new_state(), Actor.of_seat(0), move)
    assert err.code == "move/malformed"
    assert named in err.ko and named in err.en


@pytest.mark.parametrize(
    "move",
    [{"type": "choose_token"}, {"type": "choose_token", "token": None}, {"type": "choose_token", "token": [GO]}],
)
def test_malformed_token_moves_are_refused(move):
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    err = rule_error(state, Actor.of_seat(0), move)
    assert err.code == "move/malformed"
    assert "token" in err.ko and "token" in err.en


def test_unknown_move_type_is_not_owed():
    err = rule_error(new_state(), Actor.of_seat(0), {"type": "peek", "coin": 5})
    assert err.code == "move/not_owed"
    assert "'peek'" in err.ko and "'peek'" in err.en


# -- Coin rule 4: ten rounds and overtime -------------------------------------------------


def _ten_rounds_seat0_wins() -> CoinState:
    state = new_state()
    # Round 1: 5 against 5, a draw; then seat 0 wins the even rounds, seat 1 the odd ones.
    state, _ = play_round(state, [5], [5])
    for r in range(2, 11):
        state, _ = play_round(state, [20], [1]) if r % 2 == 0 else play_round(state, [1], [20])
    return state


def test_ten_rounds_then_the_match_ends_with_a_result():
    state = new_state()
    state, _ = play_round(state, [5], [5])
    assert state.points == (0, 0)
    for r in range(2, 10):
        state, _ = play_round(state, [20], [1]) if r % 2 == 0 else play_round(state, [1], [20])
        assert GAME.result(state) is None
    # After 9 rounds: seat 0 won rounds 2, 4, 6, 8 (4 x 2 = 8); seat 1 rounds 3, 5, 7, 9 (8).
    assert state.points == (8, 8)
    assert state.round == 10
    state, events = play_round(state, [20], [1])
    assert types(events)[-1] == "BoxesOpened"
    # Round 10: seat 0 wins 2 more: 10 against 8. The match is over.
    assert state.points == (10, 8)
    assert state.step == "over"
    assert GAME.turn(state).decisions == ()
    # Seat 0 ends having given a 20 for a 1 in the last round.
    assert state.hands[0] == hand(1, 1, 1, 1, 5, 5, 5, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 5, 5, 5, 10, 10, 10, 20, 20, 20)
    result = GAME.result(state)
    assert result is not None
    assert result.winner() == 0
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 1, 10), (1, 2, 8)]
    assert (result.decided_by.ko, result.decided_by.en) == ("10라운드 후 승점", "Points after 10 rounds")
    assert result.details == {"rounds_played": 10}
    view = GAME.view(state, Audience.public())
    assert (view["round"], view["rounds"], view["step"], view["overtime"]) == (10, 10, "over", False)
    assert [o["round"] for o in view["opened"]] == [10]


def test_seat_1_can_win_the_match():
    state = new_state()
    for _ in range(10):
        state, _ = play_round(state, [1], [1])
    # Ten draws: overtime. Seat 1 wins both overtime rounds: 10 + 5 = 15 against 1 + 1 = 2.
    assert state.rounds == 12
    state, _ = play_round(state, [1], [10, 5])
    state, _ = play_round(state, [1], [10, 5])
    # Each of rounds 11 and 12: 1 + 2 = 3 points to seat 1.
    assert state.points == (0, 6)
    result = GAME.result(state)
    assert result is not None
    assert result.winner() == 1
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(1, 1, 6), (0, 2, 0)]
    assert result.details == {"rounds_played": 12}


def _alternating(state: CoinState, rounds: int) -> CoinState:
    """Seat 0 wins the odd rounds (20 against 1), seat 1 the even ones (its 20 back against 1)."""
    for _ in range(rounds):
        if state.round % 2 == 1:
            state, _ = play_round(state, [20], [1])
        else:
            state, _ = play_round(state, [1], [20])
    return state


def test_equal_points_after_ten_rounds_begin_overtime_of_two_rounds():
    state = _alternating(new_state(), 9)
    assert state.points == (10, 8)
    state, events = play_round(state, [1], [20])
    # 10 against 10 after round 10: two more rounds.
    assert types(events)[-2:] == ["BoxesOpened", "OvertimeBegan"]
    assert events[-1].data == {"rounds": 12}
    assert state.points == (10, 10)
    assert (state.round, state.rounds, state.step) == (11, 12, "put")
    assert GAME.result(state) is None
    view = GAME.view(state, Audience.public())
    assert (view["round"], view["rounds"], view["overtime"]) == (11, 12, True)
    # Seat 0 and seat 1 each hold their start hands again after an even number of swaps.
    assert state.hands == (START_HAND, START_HAND)


def test_overtime_does_not_end_after_its_first_round_even_if_points_differ():
    state = _alternating(new_state(), 10)
    state, events = play_round(state, [20], [1])
    # Round 11: seat 0 leads 12 to 10, but the pair is not over.
    assert state.points == (12, 10)
    assert "OvertimeBegan" not in types(events)
    assert (state.round, state.rounds, state.step) == (12, 12, "put")
    assert GAME.result(state) is None
    # Round 12: 5 against 5, a draw; 12 against 10 after the pair: the match ends.
    state, events = play_round(state, [5], [5])
    assert types(events)[-1] == "BoxesOpened"
    assert state.step == "over"
    result = GAME.result(state)
    assert result is not None
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 1, 12), (1, 2, 10)]
    assert (result.decided_by.ko, result.decided_by.en) == (
        "연장전 끝 (12라운드) 승점",
        "Points after overtime (12 rounds)",
    )
    assert result.details == {"rounds_played": 12}


def test_still_tied_after_twelve_rounds_goes_to_fourteen():
    state = _alternating(new_state(), 12)
    # Rounds 11 and 12 also alternate: 12 against 12.
    assert state.points == (12, 12)
    assert (state.round, state.rounds, state.step) == (13, 14, "put")
    assert GAME.result(state) is None
    state, events = play_round(state, [5], [5])
    assert "OvertimeBegan" not in types(events)
    assert (state.round, state.rounds) == (14, 14)
    # Round 14: seat 1 puts 20 and 1 (21) against 20: 3 points. 12 against 15.
    state, _ = play_round(state, [20], [20, 1])
    assert state.points == (12, 15)
    assert state.step == "over"
    result = GAME.result(state)
    assert result is not None
    assert result.winner() == 1
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(1, 1, 15), (0, 2, 12)]
    assert result.decided_by.en == "Points after overtime (14 rounds)"
    assert result.details == {"rounds_played": 14}
    assert GAME.view(state, Audience.public())["round"] == 14


def test_overtime_event_from_ten_draws():
    state = new_state()
    for _ in range(9):
        state, _ = play_round(state, [10], [10])
    state, events = play_round(state, [10], [10])
    assert events[-1] == Event("OvertimeBegan", {"rounds": 12})
    assert state.points == (0, 0)


# -- scenarios ----------------------------------------------------------------------------


def test_three_round_scenario_computed_by_hand():
    state = new_state()

    # Round 1: seat 0 puts 20, seat 1 puts 10; both STOP.
    # Sums 20 > 10: seat 0 wins 1 + 1 = 2 points. Points 2 : 0.
    # Seat 0: start - 20 + 10 = 1 1 1 5 5 5 10 10 10 10 20 (11 coins).
    # Seat 1: start - 10 + 20 = 1 1 1 5 5 5 10 10 20 20 20 (11 coins).
    state, _ = play_round(state, [20], [10])
    assert state.points == (2, 0)
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 10, 10, 20, 20, 20)

    # Round 2: seat 0 puts 1, seat 1 puts 5; both GO; seat 0 puts 10, seat 1 puts 1;
    # seat 0 GO, seat 1 STOP; seat 0 puts 5.
    # Sums: 1 + 10 + 5 = 16 > 5 + 1 = 6: seat 0 wins 3 + 2 = 5 points. Points 7 : 0.
    # Seat 0: 1 1 1 5 5 5 10 10 10 10 20 - (1, 10, 5) + (1, 5) = 1 1 1 5 5 5 10 10 10 20 (10 coins).
    # Seat 1: 1 1 1 5 5 5 10 10 20 20 20 - (5, 1) + (1, 10, 5) = 1 1 1 5 5 5 10 10 10 20 20 20 (12).
    state, events = play_round(state, [1, 10, 5], [5, 1])
    assert events[-1].data == {"round": 2, "boxes": [[1, 5, 10], [1, 5]], "sums": [16, 6], "winner": 0, "points": 5}
    assert state.points == (7, 0)
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 20, 20, 20)

    # Round 3: seat 0 puts 20, seat 1 puts 20; both GO; seat 0 puts 1, seat 1 puts 5; both STOP.
    # Sums: 20 + 1 = 21 < 20 + 5 = 25: seat 1 wins 2 + 2 = 4 points. Points 7 : 4.
    # Seat 0: 1 1 1 5 5 5 10 10 10 20 - (20, 1) + (20, 5) = 1 1 5 5 5 5 10 10 10 20 (10 coins).
    # Seat 1: 1 1 1 5 5 5 10 10 10 20 20 20 - (20, 5) + (20, 1) = 1 1 1 1 5 5 10 10 10 20 20 20 (12).
    state, events = play_round(state, [20, 1], [20, 5])
    assert events[-1].data == {"round": 3, "boxes": [[1, 20], [5, 20]], "sums": [21, 25], "winner": 1, "points": 4}
    assert state.points == (7, 4)
    assert state.hands[0] == hand(1, 1, 5, 5, 5, 5, 10, 10, 10, 20)
    assert state.hands[1] == hand(1, 1, 1, 1, 5, 5, 10, 10, 10, 20, 20, 20)
    assert state.round == 4
    # 22 coins in all, always.
    assert len(state.hands[0]) + len(state.hands[1]) == 22
    view = GAME.view(state, Audience.public())
    assert view["opened"] == [{"round": 3, "boxes": [[1, 20], [5, 20]], "winner": 1, "points": 4}]
    assert view["coins"] == [1, 5, 10, 20]
    assert view["seats"][0]["held"] == [2, 4, 3, 1]
    assert view["seats"][1]["held"] == [4, 2, 3, 3]


def test_every_audience_sees_the_newest_opened_round_and_a_screens_view_does_not_grow_with_the_match():
    # The screens draw the newest opening; the history is the log's. Sent with every update, the
    # whole history made each of a thousand screens' payloads grow round after round.
    state = new_state()
    sizes = []
    for rnd in range(1, 11):
        boxes = ([1], [5]) if rnd % 2 else ([5], [1])  # the same two coins go back and forth
        state, _ = play_round(state, *boxes)
        for audience in (Audience.public(), Audience.of_seat(0), Audience.dealer()):
            assert GAME.view(state, audience)["opened"] == [
                {"round": rnd, "boxes": [[boxes[0][0]], [boxes[1][0]]], "winner": rnd % 2, "points": 2}], (rnd, audience)
        sizes.append(len(json.dumps(GAME.view(state, Audience.public()), separators=(",", ":"))))
    assert max(sizes) - min(sizes) <= 8, sizes  # the round and the points gaining a digit (not ~70 a round)


def test_four_round_scenario_with_a_draw_and_received_coins_reused():
    state = new_state()
    # Round 1: seat 0 puts 10 then 10 (GO/STOP); seat 1 puts 20. 20 = 20: draw, no points.
    # Seat 0: start - (10, 10) + 20 = 1 1 1 5 5 5 10 20 20 20 (10). Seat 1: start - 20 + (10, 10)
    #   = 1 1 1 5 5 5 10 10 10 10 10 20 (12).
    state, _ = play_round(state, [10, 10], [20])
    assert state.points == (0, 0)
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 20, 20, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 10, 10, 20)
    # Round 2: seat 0 uses its third 20 (received); seat 1 puts 10. 20 > 10: 2 points to seat 0.
    # Seat 0: - 20 + 10 = 1 1 1 5 5 5 10 10 20 20 (10). Seat 1: - 10 + 20 = 1 1 1 5 5 5 10 10 10 10 20 20 (12).
    state, _ = play_round(state, [20], [10])
    assert state.points == (2, 0)
    assert state.hands[0] == hand(1, 1, 1, 5, 5, 5, 10, 10, 20, 20)
    assert state.hands[1] == hand(1, 1, 1, 5, 5, 5, 10, 10, 10, 10, 20, 20)
    # Round 3: seat 0 puts 1, 1; seat 1 puts 5, 5, 5. 2 < 15: seat 1 wins 2 + 3 = 5. Points 2 : 5.
    # Seat 0: - (1, 1) + (5, 5, 5) = 1 5 5 5 5 5 5 10 10 20 20 (11).
    # Seat 1: - (5, 5, 5) + (1, 1) = 1 1 1 1 1 10 10 10 10 20 20 (11).
    state, _ = play_round(state, [1, 1], [5, 5, 5])
    assert state.points == (2, 5)
    assert state.hands[0] == hand(1, 5, 5, 5, 5, 5, 5, 10, 10, 20, 20)
    assert state.hands[1] == hand(1, 1, 1, 1, 1, 10, 10, 10, 10, 20, 20)
    # Round 4: seat 0 puts 20, 20; seat 1 puts 20, 20. 40 = 40: draw; the boxes swap equal coins.
    state, _ = play_round(state, [20, 20], [20, 20])
    assert state.points == (2, 5)
    assert state.hands[0] == hand(1, 5, 5, 5, 5, 5, 5, 10, 10, 20, 20)
    assert state.hands[1] == hand(1, 1, 1, 1, 1, 10, 10, 10, 10, 20, 20)
    assert state.round == 5


# -- views --------------------------------------------------------------------------------


def _mid_round() -> CoinState:
    """Round 1: both GO after 20 and 1; seat 0 has put its second coin (10), seat 1 not yet."""
    state = new_state()
    state, _ = put(state, 0, 20)
    state, _ = put(state, 1, 1)
    state, _ = token(state, 0, GO)
    state, _ = token(state, 1, GO)
    state, _ = put(state, 0, 10)
    return state


def test_public_view_of_a_round_in_progress_has_box_counts_but_no_contents_or_hands():
    view = GAME.view(_mid_round(), Audience.public())
    start = [3, 3, 3, 2]
    assert view == {
        "round": 1,
        "rounds": 10,
        "step": "put",
        "overtime": False,
        "revealed": [[GO, GO]],
        "coins": [1, 5, 10, 20],
        "seats": [
            {
                "points": 0,
                "held": start,
                "box_count": 2,
                "put_done": True,
                "token_done": False,
            },
            {
                "points": 0,
                "held": start,
                "box_count": 1,
                "put_done": False,
                "token_done": False,
            },
        ],
        "opened": [],
    }


def test_seat_view_shows_own_hand_and_box_but_not_the_other_seat():
    state = _mid_round()
    view0 = GAME.view(state, Audience.of_seat(0))
    assert view0["seats"][0]["hand"] == [3, 3, 2, 1]
    assert view0["seats"][0]["box"] == [10, 20]
    assert view0["seats"][0]["token"] is None
    assert {"hand", "box", "token"}.isdisjoint(view0["seats"][1])
    assert view0["seats"][1]["box_count"] == 1

    view1 = GAME.view(state, Audience.of_seat(1))
    assert view1["seats"][1]["hand"] == [2, 3, 3, 2]
    assert view1["seats"][1]["box"] == [1]
    assert {"hand", "box", "token"}.isdisjoint(view1["seats"][0])
    assert view1["seats"][0]["box_count"] == 2


def test_dealer_view_shows_both_seats():
    view = GAME.view(_mid_round(), Audience.dealer())
    assert view["seats"][0]["hand"] == [3, 3, 2, 1]
    assert view["seats"][0]["box"] == [10, 20]
    assert view["seats"][1]["hand"] == [2, 3, 3, 2]
    assert view["seats"][1]["box"] == [1]


def test_a_chosen_token_is_secret_until_both_are_revealed():
    state = new_state()
    state, _ = put(state, 0, 5)
    state, _ = put(state, 1, 5)
    state, _ = token(state, 0, GO)
    public = GAME.view(state, Audience.public())
    assert public["seats"][0]["token_done"] is True
    assert "token" not in public["seats"][0]
    assert public["revealed"] == []
    assert "token" not in GAME.view(state, Audience.of_seat(1))["seats"][0]
    assert GAME.view(state, Audience.of_seat(0))["seats"][0]["token"] == GO
    assert GAME.view(state, Audience.dealer())["seats"][0]["token"] == GO


def test_events_keep_coins_and_tokens_private_to_their_seat():
    state = new_state()
    state, (put_event,) = put(state, 0, 20)
    assert put_event.visible_to(Audience.public()) == {"type": "CoinPut", "seat": 0}
    assert put_event.visible_to(Audience.of_seat(1)) == {"type": "CoinPut", "seat": 0}
    assert put_event.visible_to(Audience.of_seat(0)) == {"type": "CoinPut", "seat": 0, "coin": 20}
    assert put_event.visible_to(Audience.dealer()) == {"type": "CoinPut", "seat": 0, "coin": 20}
    state, _ = put(state, 1, 1)
    state, (token_event,) = token(state, 0, STOP)
    assert token_event.visible_to(Audience.public()) == {"type": "TokenChosen", "seat": 0}
    assert token_event.visible_to(Audience.of_seat(0)) == {"type": "TokenChosen", "seat": 0, "token": STOP}
    state, events = token(state, 1, STOP)
    assert events[1].visible_to(Audience.public()) == {"type": "TokensRevealed", "tokens": [STOP, STOP]}
    assert events[2].visible_to(Audience.public())["boxes"] == [[20], [1]]


def test_after_the_boxes_open_the_opened_values_are_public():
    state, _ = play_round(new_state(), [20, 5], [1, 1])
    view = GAME.view(state, Audience.public())
    assert view["opened"] == [
        {"round": 1, "boxes": [[5, 20], [1, 1]], "winner": 0, "points": 4},
    ]
    assert [s["points"] for s in view["seats"]] == [4, 0]
    assert view["round"] == 2
    assert view["revealed"] == []
    # Round 2 starts with empty boxes; the holdings at its start are public.
    assert [s["box_count"] for s in view["seats"]] == [0, 0]
    assert view["seats"][0]["held"] == [5, 2, 3, 1]
    assert view["seats"][1]["held"] == [1, 4, 3, 3]
    assert {"hand", "box"}.isdisjoint(view["seats"][0])


# -- through the runtime (in-memory store) -----------------------------------------------


def _table() -> Table:
    table = Table.create(MemoryStore(), "t", "tricky_coin", ["A", "B"], seed=1)
    table.start(Actor.dealer())
    return table


def _seat_state(table: Table, seat: int) -> dict[str, Any]:
    return table.view(Audience.dealer())["state"]["seats"][seat]


def test_runtime_same_submission_id_twice_applies_once():
    table = _table()
    first = table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5}, "sid-1")
    again = table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5}, "sid-1")
    assert first.duplicate is False
    assert again.duplicate is True
    assert (again.version, again.action) == (first.version, first.action) == (2, 2)
    assert _seat_state(table, 0)["box"] == [5]
    assert _seat_state(table, 0)["hand"] == [3, 2, 3, 2]
    log = table.log(Audience.dealer())
    assert [row["event"]["type"] for row in log] == ["table.started", "CoinPut"]


def test_runtime_duplicate_of_the_move_that_opened_the_boxes_is_not_replayed():
    table = _table()
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 20}, "a1")
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 10}, "b1")
    table.submit(Actor.of_seat(0), {"type": "choose_token", "token": STOP}, "a2")
    ack = table.submit(Actor.of_seat(1), {"type": "choose_token", "token": STOP}, "b2")
    again = table.submit(Actor.of_seat(1), {"type": "choose_token", "token": STOP}, "b2")
    assert again.duplicate is True
    assert again.action == ack.action
    view = table.view(Audience.public())["state"]
    assert [s["points"] for s in view["seats"]] == [2, 0]
    assert view["round"] == 2
    assert len(view["opened"]) == 1


def test_runtime_dealer_voids_the_last_action_and_the_log_keeps_both_entries():
    table = _table()
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5}, "s1")
    before = table.view(Audience.dealer())
    ack = table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 20}, "s2")
    assert _seat_state(table, 1)["box"] == [20]
    assert table.view(Audience.dealer())["state"]["step"] == "token"

    table.void(Actor.dealer(), "wrong coin")
    after = table.view(Audience.dealer())
    assert after["state"] == before["state"]
    assert after["decisions"] == before["decisions"]
    assert _seat_state(table, 1)["hand"] == [3, 3, 3, 2]

    log = table.log(Audience.dealer())
    assert [row["event"]["type"] for row in log] == ["table.started", "CoinPut", "CoinPut", "table.voided"]
    voided_row = log[2]
    assert voided_row["action"] == ack.action
    assert voided_row["event"]["coin"] == 20
    assert voided_row["voided_by"] == log[3]["v"]
    assert log[3]["event"]["action"] == ack.action
    assert log[3]["event"]["reason"] == "wrong coin"
    assert "voided_by" not in log[1]

    # Seat 1 now owes its coin again and can put another one.
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 1}, "s3")
    assert _seat_state(table, 1)["box"] == [1]


def test_runtime_void_of_the_action_that_opened_the_boxes_restores_the_round():
    table = _table()
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 20})
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 10})
    table.submit(Actor.of_seat(0), {"type": "choose_token", "token": STOP})
    before = table.view(Audience.dealer())["state"]
    table.submit(Actor.of_seat(1), {"type": "choose_token", "token": STOP})
    assert [s["points"] for s in table.view(Audience.dealer())["state"]["seats"]] == [2, 0]
    table.void(Actor.dealer(), "seat 1 pressed the wrong button")
    assert table.view(Audience.dealer())["state"] == before
    types_logged = [row["event"]["type"] for row in table.log(Audience.dealer())]
    assert types_logged.count("BoxesOpened") == 1
    assert types_logged[-1] == "table.voided"


def test_runtime_a_seat_cannot_act_for_the_other_seat():
    table = _table()
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5})
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 5})
    table.submit(Actor.of_seat(0), {"type": "choose_token", "token": GO})
    table.submit(Actor.of_seat(1), {"type": "choose_token", "token": STOP})
    # Only seat 0 (GO) owes a coin now; seat 1 cannot put it for seat 0.
    entries = table.log(Audience.dealer())
    with pytest.raises(RuleError) as info:
        table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 10, "seat": 0})
    assert info.value.code == "move/not_owed"
    assert table.log(Audience.dealer()) == entries
    assert table.view(Audience.of_seat(1))["decisions"] == []
    assert [d["seat"] for d in table.view(Audience.of_seat(0))["decisions"]] == [0]
    # A seat that does not exist is refused by the runtime.
    with pytest.raises(RuleError) as info:
        table.submit(Actor.of_seat(2), {"type": "put_coin", "coin": 10})
    assert info.value.code == "table/no_such_seat"
    # The dealer may enter it on behalf of seat 0.
    table.submit(Actor.on_behalf(0), {"type": "put_coin", "coin": 10})
    state = table.view(Audience.public())["state"]
    assert state["opened"][0]["boxes"] == [[5, 10], [5]]
    assert table.log(Audience.dealer())[-2]["actor"] == "dealer>seat:0"


def test_runtime_seat_view_hides_the_other_box():
    table = _table()
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 20})
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 1})
    seat1 = table.view(Audience.of_seat(1))
    assert "box" not in seat1["state"]["seats"][0]
    assert seat1["state"]["seats"][0]["box_count"] == 1
    assert seat1["state"]["seats"][1]["box"] == [1]
    public_log = table.log(Audience.public())
    assert [row["event"] for row in public_log[1:]] == [
        {"type": "CoinPut", "seat": 0},
        {"type": "CoinPut", "seat": 1},
    ]
