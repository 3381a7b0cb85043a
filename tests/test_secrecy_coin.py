"""Secrecy of Tricky Coin: before a box opens, nothing outside the dealer and the box's owner
depends on which coins are in it.

The test is counterfactual: along random playouts, at a coin put, a shadow match puts a
different coin instead and then receives the same moves. Until the boxes open, the public
view, the other seat's view and the public and other-seat logs of both matches must be equal.
"""

from __future__ import annotations

import random

from referee.games.tricky_coin import GAME
from referee.kernel import Audience, Rng, RuleError, seat_names
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played


class Match(Played):
    def __init__(self, state: object, log: list) -> None:
        super().__init__(GAME, state, log)

    def apply(self, actor, move):
        return self.record(actor, move, Rng(0))


def seen_by(match: Match, audience: Audience):
    return GAME.view(match.state, audience), audience_log(match.log, audience)


def test_box_contents_are_secret_until_opened():
    checked = 0
    for seed in range(200):
        rnd = random.Random(seed)
        real = Match(GAME.setup(seat_names(2), {}, Rng(seed)), [])
        while GAME.result(real.state) is None:
            actor, move = pick(GAME.turn(real.state), rnd)
            if move["type"] == "put_coin" and rnd.random() < 0.3:
                others = sorted({c for c in real.state.hands[actor.seat] if c != move["coin"]})
                if others:
                    shadow = Match(real.state, list(real.log))
                    shadow.apply(actor, {**move, "coin": rnd.choice(others)})
                    if not any(e.type == "BoxesOpened" for e in real.apply(actor, move)):
                        checked += compare_until_open(real, shadow, actor.seat, rnd)
                    continue
            real.apply(actor, move)
    assert checked > 1000  # the check ran on many states, not on a handful


def compare_until_open(real: Match, shadow: Match, owner: int, rnd: random.Random) -> int:
    """Play on both matches with the same moves until the boxes open; compare at each step."""
    other = Audience.of_seat(1 - owner)
    compared = 0
    while True:
        for audience in (Audience.public(), other):
            assert seen_by(real, audience) == seen_by(shadow, audience), f"{audience} can tell the coins apart"
        compared += 1
        chosen = pick(GAME.turn(real.state), rnd)
        if chosen is None:
            return compared
        actor, move = chosen
        try:
            shadow.apply(actor, move)
        except RuleError:
            return compared  # the owner's later coin is not in the shadow hand: the lines part here
        events = real.apply(actor, move)
        if any(e.type == "BoxesOpened" for e in events):
            return compared


def test_public_view_and_log_have_no_secret_fields():
    rnd = random.Random(3)
    match = Match(GAME.setup(seat_names(2), {}, Rng(3)), [])
    while GAME.result(match.state) is None:
        match.apply(*pick(GAME.turn(match.state), rnd))
        view, log = seen_by(match, Audience.public())
        for seat in view["seats"]:
            assert not {"hand", "box", "token"} & set(seat)
        for row in log:
            assert "coin" not in row["event"] and "token" not in row["event"]
