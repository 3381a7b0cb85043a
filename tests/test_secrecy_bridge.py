"""Secrecy of Tricky Bridge: nothing outside the dealer and the seat depends on a seat's marks
before its room's contracts are revealed, or on its distribution before the rules reveal the
bridges (after round 3 for rounds 1-3, at the end for rounds 4-6).

The tests are counterfactual: along random playouts, a shadow match makes a different secret
choice and then receives the same moves, and the public view, the public turn, the public log
and every other seat's view, pending decisions and log must stay equal.

- Marks: the shadow stamps another 3 slots. Equal for everyone else (the room partner too)
  until the room's ContractsRevealed.
- Distributions: the shadow places the same items differently. Equal for everyone else (the
  other endpoints of the seat's bridges too) until a BridgesRevealed: the one after round 3
  for a distribution of rounds 1-3, the final one for rounds 4-6.
"""

from __future__ import annotations

import random
from typing import Any

from referee.games.tricky_bridge import GAME
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played, keys

NAMES = ("가람", "나래", "다솜", "라온")


class Match(Played):
    def __init__(self, seed: int, options: dict[str, Any] | None = None, state: Any = None,
                 log: list | None = None) -> None:
        self.seed = seed
        self.options = options or {}
        if state is None:
            super().__init__(GAME, GAME.setup(NAMES, GAME.resolve_options(self.options, 4), Rng.forbidden()), [])
        else:
            super().__init__(GAME, state, list(log or []))

    def copy(self) -> Match:
        return Match(self.seed, self.options, self.state, self.log)

    def apply(self, actor: Actor, move: dict[str, Any]) -> list[Event]:
        return self.record(actor, move, Rng(self.seed, len(self.log))) + \
            self.automatic(lambda: Rng(self.seed, "auto", len(self.log)))


def seen(match: Match, audience: Audience, since: int, turn: Any = None) -> tuple:
    turn = turn or GAME.turn(match.state)
    if audience.kind == "public":
        pending = turn.to_json(public=True)
    else:
        pending = [d.to_json() for d in turn.for_seat(audience.seat)]
    return GAME.view(match.state, audience), pending, audience_log(match.log[since:], audience)


def compare(real: Match, shadow: Match, hidden: int, since: int) -> None:
    turns = GAME.turn(real.state), GAME.turn(shadow.state)
    for audience in [Audience.public()] + [Audience.of_seat(s) for s in range(4) if s != hidden]:
        assert seen(real, audience, since, turns[0]) == seen(shadow, audience, since, turns[1]), \
            f"{audience} can tell the worlds apart"


def public_difference(a: list[Event], b: list[Event]) -> list[Event] | None:
    """The events whose public parts differ between the two lines (None: none do)."""
    pa = [e.visible_to(Audience.public()) for e in a]
    pb = [e.visible_to(Audience.public()) for e in b]
    if pa == pb:
        return None
    return [e for i, e in enumerate(a) if i >= len(pb) or pa[i] != pb[i]] + \
        [e for i, e in enumerate(b) if i >= len(pa) or pa[i] != pb[i]]


def follow(real: Match, shadow: Match, rnd: random.Random, hidden: int) -> tuple[int, list[Event] | None]:
    """Play the same bot moves on both matches, comparing after each, until the rules publish
    something that differs (returned) or the match ends (None). Returns the steps compared too."""
    since = len(real.log) - 1
    compared = 0
    while True:
        compare(real, shadow, hidden, since)
        since = min(len(real.log), len(shadow.log))
        compared += 1
        chosen = pick(GAME.turn(real.state), rnd)
        if chosen is None:
            assert GAME.result(real.state) is not None
            return compared, None
        actor, move = chosen
        try:
            events = real.apply(actor, move)
        except RuleError:
            continue
        other = shadow.apply(actor, move)  # the lines offer the same decisions until a reveal
        diff = public_difference(events, other)
        if diff is not None:
            return compared, diff


def other_marks(offered: list[int], marks: list[int], rnd: random.Random) -> list[int]:
    while True:
        pick3 = sorted(rnd.sample(offered, 3))
        if pick3 != sorted(marks):
            return pick3


def test_marks_are_secret_until_the_room_reveals_both_contracts():
    checked = forks = 0
    for seed in range(40):
        rnd = random.Random(seed)
        real = Match(seed, {"deal": "referee" if seed % 2 else "dealer"})
        while GAME.result(real.state) is None:
            actor, move = pick(GAME.turn(real.state), rnd)
            if move["type"] == "mark_contract" and rnd.random() < 0.5:
                seat = actor.seat
                room = next(r for r in real.state.rooms if seat in r.seats)
                partner_in = room.marks[1 - room.seats.index(seat)] is not None
                shadow = real.copy()
                other = other_marks(list(range(1, 7)), move["slots"], rnd)
                shadow_events = shadow.apply(actor, {**move, "slots": other})
                events = real.apply(actor, move)
                diff = public_difference(events, shadow_events)
                if partner_in:
                    # The second contract of a room reveals both at once: the reveal is the only
                    # difference, and it tells the marks and what they won.
                    assert diff is not None and {e.type for e in diff} == {"ContractsRevealed"} | (
                        {e.type for e in diff} & {"RoundEnded", "RoundBegan", "BridgesRevealed", "BridgesScored"})
                    continue
                assert diff is None
                forks += 1
                steps, diff = follow(real, shadow, rnd, seat)
                checked += steps
                assert diff is not None, "the room's contracts are always revealed"
                revealed = [e for e in diff if e.type == "ContractsRevealed"]
                assert revealed and all(e.data["room"] == room.name for e in revealed), diff
                continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    assert forks > 100 and checked > 150


def other_placement(field: Any, placement: dict[str, str], rnd: random.Random) -> dict[str, str] | None:
    places = [o.value for o in field.options]
    for _ in range(20):
        candidate = {str(i.value): rnd.choice(places) for i in field.items}
        if candidate != placement:
            return candidate
    return None


def test_distributions_are_secret_until_the_bridges_are_revealed():
    checked = forks = early = late = 0
    for seed in range(40):
        rnd = random.Random(500 + seed)
        real = Match(seed)
        while GAME.result(real.state) is None:
            actor, move = pick(GAME.turn(real.state), rnd)
            if move["type"] == "place_items" and rnd.random() < 0.6:
                (decision,) = [d for d in GAME.turn(real.state).for_seat(actor.seat) if d.move == "place_items"]
                placement = other_placement(decision.fields[0], move["placement"], rnd)
                if placement is not None:
                    round_ = real.state.round
                    shadow = real.copy()
                    shadow_events = shadow.apply(actor, {**move, "placement": placement})
                    events = real.apply(actor, move)
                    forks += 1
                    diff = public_difference(events, shadow_events)
                    if diff is None:
                        # The placement itself published nothing: follow the two lines.
                        steps, diff = follow(real, shadow, rnd, actor.seat)
                        checked += steps
                    # else: the round's last distribution, revealed at once by the round's end.
                    if diff is None:
                        continue  # the same counts on each bridge (items of one kind swapped)
                    assert {e.type for e in diff} <= {"BridgesRevealed", "BridgesScored"}, diff
                    reveal = next(e for e in diff if e.type == "BridgesRevealed")
                    # Rounds 1-3 show at round 3's reveal; rounds 4-6 only at the end.
                    if round_ <= 3:
                        assert reveal.data["round"] == 3 and reveal.data["final"] is False
                        early += 1
                    else:
                        assert reveal.data["final"] is True
                        late += 1
                    continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    # About two forks a match: one before round 3's reveal and one after it.
    assert forks > 60 and checked > 1000 and early > 25 and late > 25


# Keys that hold a seat's secret or the dealer's extras: never in the public view.
SECRET_KEYS = {"my_marks", "to_place", "placements", "my_bridges", "marks_now", "now", "score_now", "panel", "sheets",
               "run_sheet", "placement"}


def test_public_view_and_log_never_hold_a_secret_field():
    for seed in range(25):
        rnd = random.Random(3000 + seed)
        match = Match(seed)
        while GAME.result(match.state) is None:
            actor, move = pick(GAME.turn(match.state), rnd)
            try:
                match.apply(actor, move)
            except RuleError:
                continue
            view = GAME.view(match.state, Audience.public())
            assert not keys(view) & SECRET_KEYS, keys(view) & SECRET_KEYS
            assert all(set(b) == {"id", "seats", "contents", "as_of", "score"} for b in view["bridges"])
            for row in (r["event"] for r in audience_log(match.log[-3:], Audience.public())):
                if row["type"] == "ContractMarked":
                    assert set(row) == {"type", "round", "room", "seat"}
                if row["type"] == "ItemsPlaced":
                    assert set(row) == {"type", "round", "seat"}
            # Another seat's entry in a seat's view is exactly the public one; so is everything
            # outside the seats.
            for seat in rnd.sample(range(4), 2):
                mine = GAME.view(match.state, Audience.of_seat(seat))
                for s, entry in enumerate(mine["seats"]):
                    if s != seat:
                        assert entry == view["seats"][s]
                rest = {k: v for k, v in mine.items() if k != "seats"}
                assert rest == {k: v for k, v in view.items() if k != "seats"}
