"""Secrecy of Horror Race 2: before the final scoring, nothing outside the dealer and the seat
depends on which two characters a seat backs.

The tests are counterfactual. Along random playouts a shadow race differs only in a secret,
then receives the same moves; until the backings are revealed, the public view, the public
log, the public turn, and every uninvolved seat's view, log and pending decisions of both
races must be equal.

- Swapped backings (deal=referee): two seats exchange their backings. The box is the same,
  so the referee's random draws are the same, and the whole race can be compared.
- A changed backing (deal=dealer): one seat backs another pair, so the box differs; the
  dealer enters the same draws in both races as long as the shadow box holds them.
"""

from __future__ import annotations

import random
from itertools import combinations

from referee.games.horror_race import GAME
from referee.games.horror_race.state import CHARACTERS
from referee.kernel import Actor, Audience, Rng, RuleError, seat_names
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played

PAIRS = [list(p) for p in combinations(CHARACTERS, 2)]


class Match(Played):
    def __init__(self, state: object, log: list, seed: int) -> None:
        super().__init__(GAME, state, log)
        self.seed = seed

    def apply(self, actor, move):
        # The referee's automatic draws follow, as the runtime takes them (same log length, same Rng).
        return self.record(actor, move, Rng(0)) + self.automatic(lambda: Rng(self.seed, len(self.log) + 1))

    def copy(self):
        return Match(self.state, list(self.log), self.seed)


def new_match(seed: int, seats: int, deal: str) -> Match:
    return Match(GAME.setup(seat_names(seats), GAME.resolve_options({"deal": deal}), Rng(seed)), [], seed)


def seen_by(match: Match, audience: Audience, since: int = 0):
    """What `audience` sees; log entries before `since` were compared already (the log only grows)."""
    return match.seen_by(audience, since)


def assert_same(real: Match, shadow: Match, involved: set[int], since: int = 0) -> int:
    """Compare what the public and every uninvolved seat see; return the log length compared."""
    assert len(real.log) == len(shadow.log)
    for audience in [Audience.public()] + [Audience.of_seat(s) for s in range(real.state.seats) if s not in involved]:
        assert seen_by(real, audience, since) == seen_by(shadow, audience, since), \
            f"{audience} can tell the backings apart"
    return len(real.log)


def revealed(events) -> bool:
    return any(e.type == "BackingsRevealed" for e in events)


def test_swapped_backings_are_invisible_until_the_final_scoring():
    compared = 0
    for seed in range(40):
        rnd = random.Random(seed)
        seats = rnd.randint(2, 12)
        real, shadow = new_match(seed, seats, "referee"), new_match(seed, seats, "referee")
        pairs = [rnd.choice(PAIRS) for _ in range(seats)]
        a, b = rnd.sample(range(seats), 2)
        if pairs[a] == pairs[b]:
            pairs[b] = next(p for p in PAIRS if p != pairs[a])
        swapped = list(pairs)
        swapped[a], swapped[b] = pairs[b], pairs[a]
        # The backings come in, in a random order; compare after each.
        since = 0
        for seat in rnd.sample(range(seats), seats):
            real.apply(Actor.of_seat(seat), {"type": "back_characters", "characters": pairs[seat]})
            shadow.apply(Actor.of_seat(seat), {"type": "back_characters", "characters": swapped[seat]})
            since = assert_same(real, shadow, {a, b}, since)
            compared += 1
        assert real.state.backings != shadow.state.backings
        assert real.state.box == shadow.state.box
        while True:
            actor, move = pick(GAME.turn(real.state), rnd)
            shadow_events = shadow.apply(actor, move)
            if revealed(real.apply(actor, move)):
                assert revealed(shadow_events)
                break
            since = assert_same(real, shadow, {a, b}, since)
            compared += 1
        # The reveal shows the difference, as it must.
        assert GAME.view(real.state, Audience.public()) != GAME.view(shadow.state, Audience.public())
    assert compared > 3000


def test_a_changed_backing_is_invisible_while_the_same_coins_can_be_drawn():
    compared = placed = parted = 0
    for seed in range(60):
        rnd = random.Random(1000 + seed)
        seats = rnd.randint(2, 12)
        real, shadow = new_match(seed, seats, "dealer"), new_match(seed, seats, "dealer")
        pairs = [rnd.choice(PAIRS) for _ in range(seats)]
        owner = rnd.randrange(seats)
        other = rnd.choice([p for p in PAIRS if p != pairs[owner]])
        since = 0
        for seat in rnd.sample(range(seats), seats):
            real.apply(Actor.of_seat(seat), {"type": "back_characters", "characters": pairs[seat]})
            shadow.apply(Actor.of_seat(seat), {"type": "back_characters",
                                               "characters": other if seat == owner else pairs[seat]})
            since = assert_same(real, shadow, {owner}, since)
            compared += 1
        while True:
            actor, move = pick(GAME.turn(real.state), rnd)
            try:
                shadow_events = shadow.apply(actor, move)
            except RuleError as err:
                assert err.code == "horror/not_in_box"  # the shadow box lacks these coins: lines part
                parted += 1
                break
            if revealed(real.apply(actor, move)):
                assert revealed(shadow_events)
                break
            since = assert_same(real, shadow, {owner}, since)
            compared += 1
            placed += bool(real.state.placements)
    assert compared > 1000
    # The comparison went on into the race: placed coins, zone moves, later rounds. (The lines
    # part at the latest when a full round must empty both boxes, which hold different coins.)
    assert placed > 300
    assert parted > 30


def test_public_view_and_log_hold_no_backing_or_box_before_the_reveal():
    for seed, deal in ((3, "referee"), (4, "dealer")):
        rnd = random.Random(seed)
        match = new_match(seed, 10, deal)
        while GAME.result(match.state) is None:
            match.apply(*pick(GAME.turn(match.state), rnd))
            view = GAME.view(match.state, Audience.public())
            log = audience_log(match.log, Audience.public())
            if view["revealed"]:
                assert log[-1]["event"]["type"] == "BackingsRevealed"
                assert len(log[-1]["event"]["backings"]) == 10
                break
            assert "box" not in view
            assert all("backing" not in s for s in view["seats"])
            for row in log:
                assert "characters" not in row["event"] and "backings" not in row["event"]
            for seat in range(10):
                seat_view = GAME.view(match.state, Audience.of_seat(seat))
                assert "box" not in seat_view
                assert [s["seat"] for s in seat_view["seats"] if "backing" in s] == (
                    [seat] if match.state.backings[seat] else [seat])
                for row in audience_log(match.log, Audience.of_seat(seat)):
                    if "characters" in row["event"]:
                        assert row["event"]["seat"] == seat
