"""Secrecy of Reef (Reef rule 12): nothing outside the dealer and the owner depends on a hand, a
point total or the deck's order, until the rules show it.

The tests are counterfactual: along random playouts, a shadow match has one secret changed and
then receives the same moves; the public view, the public turn, the public log and every other
seat's view, pending decisions and log must stay equal.

- Cards: one card swapped between two hands, or between a hand and the deck, or two deck cards
  swapped. Equal for everyone but the holders until the rules show a differing card: a refill
  of the display, or the hands scored at the end. A seat that draws a differing card is told.
- Points: the shadow's seat holds more points. Equal for everyone else to the end, where the
  totals are shown.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from referee.games.reef import GAME
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played

NAMES = ("나래", "가람", "라온", "다솜")
# Public events whose difference is a reveal the rules make: a display card laid from the deck,
# the hands shown at the end, the final totals.
REVEALS = {"DisplayFilled", "HandScored", "FinalScores"}


class Match(Played):
    def __init__(self, seed: int, seats: int, state: Any = None, log: list | None = None) -> None:
        self.seed = seed
        self.seats = seats
        if state is None:
            super().__init__(GAME, GAME.setup(NAMES[:seats], GAME.resolve_options({}), Rng.forbidden()), [])
            self.automatic()
        else:
            super().__init__(GAME, state, list(log or []))

    def fork(self, state: Any) -> Match:
        return Match(self.seed, self.seats, state, self.log)

    def apply(self, actor: Actor, move: dict[str, Any]) -> list[Event]:
        return self.record(actor, move, Rng(self.seed, len(self.log))) + self.automatic()

    def automatic(self) -> list[Event]:
        return super().automatic(lambda: Rng(self.seed, len(self.log)))


def compare(real: Match, shadow: Match, told: set[int], since: int) -> None:
    """Views, turns and the log rows from `since` on (the logs are append-only and were equal up
    to `since` already, so both worlds number the rows alike)."""
    assert real.seen_by(Audience.public(), since) == shadow.seen_by(Audience.public(), since), "the public can tell"
    for s in range(real.seats):
        if s not in told:
            assert real.seen_by(Audience.of_seat(s), since) == shadow.seen_by(Audience.of_seat(s), since), \
                f"seat {s} can tell"


def public(events: list[Event]) -> list[dict[str, Any]]:
    return [e.visible_to(Audience.public()) for e in events]


def follow(real: Match, shadow: Match, rnd: random.Random, told: set[int]) -> tuple[int, str]:
    """The same bot moves on both matches, compared after each. Returns the steps compared and why
    it stopped: "parted" (a move legal in one is not in the other), "revealed" or "end"."""
    compared = 0
    since = len(real.log) - 1
    while True:
        compare(real, shadow, told, since)
        since = min(len(real.log), len(shadow.log))
        compared += 1
        chosen = pick(GAME.turn(real.state), rnd)
        if chosen is None:
            return compared, "end"
        actor, move = chosen
        try:
            ours = real.apply(actor, move)
        except RuleError:
            continue  # a random pick may break a rule the options do not capture
        try:
            theirs = shadow.apply(actor, move)
        except RuleError:
            return compared, "parted"  # the move needs a card the shadow does not hold
        assert [e.type for e in ours] == [e.type for e in theirs], (ours, theirs)
        for mine, other in zip(ours, theirs, strict=True):
            if mine.type == "CardDrawn" and mine.private != other.private:
                told.add(mine.data["seat"])  # the rules hand this seat a different card
        if public(ours) != public(theirs):
            differing = {a.type for a, b in zip(ours, theirs, strict=True)
                         if a.visible_to(Audience.public()) != b.visible_to(Audience.public())}
            assert differing <= REVEALS, f"public events differ outside a reveal: {differing}"
            return compared, "revealed"


def swapped(state: Any, rnd: random.Random) -> tuple[Any, set[int]] | None:
    """The state with one secret card swapped between two places (a hand, the deck), and the seats
    whose hand changed; None if there is nothing to swap."""
    places = [("hand", s, i) for s, hand in enumerate(state.hands) for i in range(len(hand))]
    places += [("deck", None, i) for i in range(len(state.deck))]
    if len(places) < 2:
        return None
    a, b = rnd.sample(places, 2)
    if a[:2] == b[:2] and a[0] == "hand":
        return None  # the same hand: nothing changes

    def card(place):
        kind, s, i = place
        return state.hands[s][i] if kind == "hand" else state.deck[i]

    ca, cb = card(a), card(b)
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    for (kind, s, i), into in ((a, cb), (b, ca)):
        if kind == "hand":
            hands[s][i] = into
        else:
            deck[i] = into
    told = {s for kind, s, _ in (a, b) if kind == "hand"}
    return replace(state, hands=tuple(map(tuple, hands)), deck=tuple(deck)), told


def test_cards_in_hands_and_the_deck_stay_secret_until_the_rules_show_them():
    compared = forks = 0
    why: dict[str, int] = {}
    for seed in range(24):
        rnd = random.Random(seed)
        real = Match(seed, 2 + seed % 3)
        while GAME.result(real.state) is None:
            actor, move = pick(GAME.turn(real.state), rnd)
            if real.state.step == "action" and rnd.random() < 0.12:
                fork = swapped(real.state, rnd)
                if fork is not None:
                    shadow_state, told = fork
                    shadow = real.fork(shadow_state)
                    forks += 1
                    steps, reason = follow(real, shadow, random.Random(seed * 1000 + forks), set(told))
                    compared += steps
                    why[reason] = why.get(reason, 0) + 1
                    continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    assert forks > 40 and compared > 1500, (forks, compared)
    assert why.get("revealed", 0) > 5 and why.get("parted", 0) > 5, why


def test_point_totals_stay_secret_until_the_end():
    compared = forks = 0
    for seed in range(10):
        rnd = random.Random(100 + seed)
        real = Match(seed, 2 + seed % 3)
        while GAME.result(real.state) is None:
            actor, move = pick(GAME.turn(real.state), rnd)
            if real.state.step == "action" and forks < 3 * (seed + 1) and rnd.random() < 0.1:
                s = rnd.randrange(real.seats)
                points = list(real.state.points)
                points[s] += rnd.randint(1, 9)
                shadow = real.fork(replace(real.state, points=tuple(points)))
                forks += 1
                steps, reason = follow(real, shadow, random.Random(seed * 77 + forks), {s})
                compared += steps
                # More points never make a move illegal: the lines part only where the totals show.
                assert reason in ("revealed", "end"), reason
                assert GAME.result(real.state) is not None
                continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    assert forks >= 10 and compared > 500, (forks, compared)


def test_public_view_and_log_never_hold_a_hand_a_total_or_the_deck():
    for seed in range(12):
        rnd = random.Random(3000 + seed)
        seats = 2 + seed % 3
        match = Match(seed, seats)
        while GAME.result(match.state) is None:
            actor, move = pick(GAME.turn(match.state), rnd)
            logged = len(match.log)
            try:
                match.apply(actor, move)
            except RuleError:
                continue
            view = GAME.view(match.state, Audience.public())
            over = match.state.step == "over"
            assert not {"deck_order", "panel", "sheets", "preview"} & set(view)
            for entry in view["seats"]:
                assert "hand" not in entry
                assert ("points" in entry) == over
            for row in (r["event"] for r in audience_log(match.log[logged:], Audience.public())):
                if row["type"] in ("CardDealt", "CardDrawn"):
                    assert set(row) == {"type", "seat"}
                if row["type"] == "DeckShuffled":
                    assert set(row) == {"type", "cards"}
            # Another seat sees another seat's entry exactly as the public does.
            for s in rnd.sample(range(seats), 2):
                mine = GAME.view(match.state, Audience.of_seat(s))
                for other, entry in enumerate(mine["seats"]):
                    if other != s:
                        assert entry == view["seats"][other]
                rest = {k: v for k, v in mine.items() if k not in ("seats", "preview")}
                assert rest == {k: v for k, v in view.items() if k != "seats"}
                assert ("preview" in mine) == (match.state.step == "place" and match.state.current == s)
