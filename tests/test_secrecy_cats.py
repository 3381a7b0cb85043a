"""Secrecy of Clumsy Cats: the true roll is the roller's and the dealer's alone until a call
reveals it, and an uncalled roll never reaches anyone else, not even after the game.

The test is counterfactual. Along random playouts, at a random turn, a shadow match has another
true roll (the same declaration, and nobody calls), then receives the same moves to the very
end. The public view, the public turn, the public log and every other seat's view, log and
pending decisions must stay equal in both matches all the way, and so must the result.

- die=referee: the shadow's DieRolled carries another roll (the referee's draw is replaced in
  the log), so every later draw, keyed by the log's length, is the same in both.
- die=dealer: the dealer enters another roll in the shadow.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from referee.games.clumsy_cats import GAME
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played, keys

NAMES = ("가람", "나래", "다솜", "라온")
FACES = (1, 2, 3, 4, "X")


class Match(Played):
    def __init__(self, seed: int, seats: int, die: str, state: Any = None, log: list | None = None) -> None:
        self.seed, self.seats, self.die = seed, seats, die
        if state is None:
            state = GAME.setup(NAMES[:seats], GAME.resolve_options({"die": die}, seats), Rng.forbidden())
        super().__init__(GAME, state, list(log or []))
        if not self.log:
            self.automatic()

    def copy(self) -> Match:
        return Match(self.seed, self.seats, self.die, self.state, list(self.log))

    def apply(self, actor: Actor, move: dict[str, Any]) -> list[Event]:
        return self.record(actor, move, Rng(self.seed, len(self.log))) + self.automatic()

    def automatic(self) -> list[Event]:
        return super().automatic(lambda: Rng(self.seed, len(self.log)))


def compare(real: Match, shadow: Match, roller: int, since: int) -> int:
    assert len(real.log) == len(shadow.log)
    for audience in [Audience.public()] + [Audience.of_seat(s) for s in range(real.seats) if s != roller]:
        assert real.seen_by(audience, since) == shadow.seen_by(audience, since), f"{audience} can tell the rolls apart"
    return len(real.log)


def other_roll(roll: int | str, toilet: bool, rnd: random.Random) -> int | str:
    """Another roll; in the toilet the interesting change is an X for a number or the reverse."""
    if toilet:
        return rnd.choice([1, 2, 3, 4]) if roll == "X" else "X"
    return rnd.choice([f for f in FACES if f != roll])


def shadow_roll(real: Match, rnd: random.Random) -> tuple[Match, int | str]:
    """A shadow of `real`, whose last event is the turn's DieRolled, with another true roll."""
    shadow = real.copy()
    entry = dict(shadow.log[-1])
    event = Event.from_json(entry["event"])
    assert event.type == "DieRolled"
    roll = other_roll(event.private["roll"], event.data.get("toilet", False), rnd)
    changed = Event(event.type, dict(event.data), {"roll": roll}, event.to)
    entry["event"] = changed.to_json()
    shadow.log[-1] = entry
    # DieRolled sets only the roll that depends on it: the shadow's state is the real one with
    # the other roll (a fresh object, without the real one's cached turn).
    shadow.state = replace(real.state, roll=roll)
    return shadow, roll


def declaration_for_both(real: Match, rnd: random.Random) -> int | str:
    # The same declaration in both matches: 1-4 outside the toilet, "X" or "none" inside.
    return rnd.choice(["X", "none"]) if real.state.toilet_turn else rnd.choice([1, 2, 3, 4])


def run(seed: int, die: str) -> tuple[int, bool]:
    rnd = random.Random(seed)
    seats = rnd.choice([2, 3, 4])
    real = Match(seed, seats, die)
    # Play a random stretch first.
    for _ in range(rnd.randrange(0, 250)):
        if GAME.result(real.state) is not None:
            return 0, False
        actor, move = pick(GAME.turn(real.state), rnd)
        try:
            real.apply(actor, move)
        except RuleError:
            pass
    # Go to the start of a turn: the roll is owed (dealer) or has just been drawn (referee).
    while not (real.state.step == "declare" if die == "referee" else real.state.step == "next"):
        if GAME.result(real.state) is not None:
            return 0, False
        actor, move = pick(GAME.turn(real.state), rnd)
        try:
            real.apply(actor, move)
        except RuleError:
            pass
    if die == "referee":
        shadow, _ = shadow_roll(real, rnd)
    else:
        face = rnd.choice(FACES)
        shadow = real.copy()
        real.apply(Actor.dealer(), {"type": "enter_roll", "roll": face})
        toilet = real.state.toilet_turn
        shadow.apply(Actor.dealer(), {"type": "enter_roll", "roll": other_roll(face, toilet, rnd)})
    roller = real.state.seat
    secret = real.log[-1]
    assert secret["event"]["type"] == "DieRolled"
    assert real.state.roll != shadow.state.roll and real.state.seat == shadow.state.seat
    since = compare(real, shadow, roller, 0)
    number = declaration_for_both(real, rnd)
    for match in (real, shadow):
        match.apply(Actor.of_seat(roller), {"type": "declare", "number": number})
    if real.state.step == "window":
        for match in (real, shadow):
            match.apply(Actor.dealer(), {"type": "close_window"})  # nobody calls
    since = compare(real, shadow, roller, since)
    steps = 0
    while GAME.result(real.state) is None:
        actor, move = pick(GAME.turn(real.state), rnd)
        try:
            real.apply(actor, move)
        except RuleError:
            continue
        shadow.apply(actor, move)
        since = compare(real, shadow, roller, since)
        steps += 1
    assert GAME.result(real.state) == GAME.result(shadow.state)
    # The secret turn's roll is in no log row the public or another seat gets, even now.
    for audience in [Audience.public()] + [Audience.of_seat(s) for s in range(seats) if s != roller]:
        (row,) = audience_log([secret], audience)
        assert "roll" not in row["event"]
    assert audience_log([secret], Audience.of_seat(roller))[0]["event"]["roll"] == secret["event"]["private"]["roll"]
    return steps, True


def test_another_true_roll_with_the_same_declaration_not_called_is_invisible_to_the_end():
    compared = played = 0
    for seed in range(20):
        for die in ("referee", "dealer"):
            steps, done = run(seed, die)
            compared += steps
            played += done
    assert played >= 35 and compared > 5000


def test_a_roll_reaches_the_public_only_through_a_call():
    rnd = random.Random(7)
    real = Match(7, 4, "referee")
    revealed = hidden = 0
    while GAME.result(real.state) is None:
        actor, move = pick(GAME.turn(real.state), rnd)
        try:
            events = real.apply(actor, move)
        except RuleError:
            continue
        public = [e.visible_to(Audience.public()) for e in events]
        for event in public:
            if event["type"] == "DieRolled":
                assert "roll" not in event
            if event["type"] == "Called":
                revealed += 1
                assert event["roll"] in FACES
            if event["type"] == "WindowClosed":
                hidden += 1
                assert "roll" not in event
        view = GAME.view(real.state, Audience.public())
        assert "secret" not in view and "mine" not in view
        assert all(("roll" in d) == (d["caller"] is not None) for d in view["declarations"])
        for seat in range(4):
            mine = GAME.view(real.state, Audience.of_seat(seat))
            # Another seat's uncalled roll is in no seat's view.
            assert all("roll" not in d for d in mine["declarations"] if d["seat"] != seat and d["caller"] is None)
            if mine["mine"]["roll"] is not None:
                assert real.state.seat == seat
    assert revealed > 20 and hidden > 20
    assert "roll" not in keys([r["event"] for r in audience_log(real.log, Audience.public())
                               if r["event"]["type"] != "Called"])
