"""Secrecy of Tricky Gallery: nothing outside the dealer and the owner depends on a work's
authenticity, an appraisal, a chip count or a hand, until the rules reveal it.

The tests are counterfactual: along random playouts, a shadow match makes a different secret
choice and then receives the same moves, and the public view, the public turn, the public log
and every other seat's view, pending decisions and log must stay equal.

- Stickers: a seat puts its fake sticker on another of its works (the shadow swaps which
  sticker went on which work). Equal until the rules reveal something that depends on it:
  the siren, an elimination, the final sale.
- Appraisals: the shadow appraises another work. Equal to the very end, result included.
- Transfers: the shadow transfers another amount. Equal for everyone but the two seats.
"""

from __future__ import annotations

import json
import random
from typing import Any

from referee.games.tricky_gallery import GAME
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played, keys

NAMES = ["나래", "가람", "라온", "다솜", "바다", "마루", "아름", "사랑", "자두"]
# Public events whose difference is a reveal the rules make (Gallery rules 4, 8, 10).
REVEALS = {"WorksRevealed", "SeatEliminated", "RoundBegan", "GallerySold"}


class Match(Played):
    def __init__(self, seed: int, state: Any = None, log: list | None = None) -> None:
        self.seed = seed
        if state is None:
            names = tuple(random.Random(seed).sample(NAMES, 9))
            super().__init__(GAME, GAME.setup(names, GAME.resolve_options({}), Rng(seed, "setup")), [])
            self.automatic()
        else:
            super().__init__(GAME, state, list(log or []))

    def copy(self) -> Match:
        return Match(self.seed, self.state, list(self.log))

    def apply(self, actor: Actor, move: dict[str, Any]) -> list[Event]:
        return self.record(actor, move, Rng(self.seed, len(self.log))) + self.automatic()

    def automatic(self) -> list[Event]:
        """The referee's own steps (the deal), as the runtime takes them."""
        return super().automatic(lambda: Rng(self.seed, len(self.log)))


def bot_move(match: Match, rnd: random.Random) -> tuple[Actor, dict[str, Any]] | None:
    return pick(GAME.turn(match.state), rnd)


def seen(match: Match, audience: Audience, since: int, turn: Any = None) -> tuple:
    """What `audience` gets: the game view, its part of the turn, and the log rows since `since`."""
    turn = turn or GAME.turn(match.state)
    if audience.kind == "public":
        pending = turn.to_json(public=True)
    else:
        pending = [d.to_json() for d in turn.for_seat(audience.seat)]
    return GAME.view(match.state, audience), pending, audience_log(match.log[since:], audience)


def compare(real: Match, shadow: Match, hidden: set[int], since: int) -> None:
    turns = GAME.turn(real.state), GAME.turn(shadow.state)
    for audience in [Audience.public()] + [Audience.of_seat(s) for s in range(9) if s not in hidden]:
        assert seen(real, audience, since, turns[0]) == seen(shadow, audience, since, turns[1]), \
            f"{audience} can tell the worlds apart"


def first_public_difference(a: list[Event], b: list[Event]) -> tuple[Event | None, Event | None] | None:
    pa = [e.visible_to(Audience.public()) for e in a]
    pb = [e.visible_to(Audience.public()) for e in b]
    if pa == pb:
        return None
    for i in range(max(len(a), len(b))):
        ea = a[i] if i < len(a) else None
        eb = b[i] if i < len(b) else None
        if (pa[i] if ea else None) != (pb[i] if eb else None):
            return ea, eb
    return None


def follow(real: Match, shadow: Match, rnd: random.Random, hidden: set[int],
           shadow_move=lambda actor, move: move, until_reveal: bool = True, owner: int | None = None) -> int:
    """Play the same bot moves on both matches, comparing after each; returns the steps compared.

    Stops when the lines part (a move legal in one match is not in the other) or, with
    `until_reveal`, when the rules publish something that differs. A seat that appraises a
    work of `owner` (whose secret differs) learns it and is no longer compared."""
    since = len(real.log) - 1
    compared = 0
    while True:
        # The logs are append-only and were compared up to `since` already.
        compare(real, shadow, hidden, since)
        since = min(len(real.log), len(shadow.log))
        compared += 1
        chosen = bot_move(real, rnd)
        if chosen is None:
            assert GAME.result(real.state) == GAME.result(shadow.state)
            return compared
        actor, move = chosen
        smove = shadow_move(actor, move)
        try:
            events = real.apply(actor, move)
        except RuleError:
            continue  # a random pick may break a rule the options do not capture
        if move["type"] == "appraise" and move["work"] == owner:
            hidden.add(actor.seat)  # the appraisal tells the appraiser the owner's secret
        try:
            other = shadow.apply(actor, smove)
        except RuleError:
            return compared  # the lines part here
        diff = first_public_difference(events, other)
        if diff is not None:
            assert until_reveal, f"public events differ: {diff}"
            types = {e.type for e in diff if e is not None}
            assert types & REVEALS, f"public events differ outside a reveal: {diff}"
            if "WorksRevealed" in types and len(types) == 1:
                a, b = diff
                assert {k: v for k, v in a.data.items() if k != "siren"} == \
                       {k: v for k, v in b.data.items() if k != "siren"}
            return compared


def counts(state: Any, seat: int) -> tuple[int, int]:
    return state.genuine_left[seat], state.fake_left[seat]


def flipped(move: dict[str, Any]) -> dict[str, Any]:
    kind, sticker = move["entry"].split("/")
    return {**move, "entry": f"{kind}/{'fake' if sticker == 'genuine' else 'genuine'}"}


def test_authenticity_is_secret_until_the_rules_reveal_it():
    checked = forks = 0
    for seed in range(40):
        rnd = random.Random(seed)
        real = Match(seed)
        while GAME.result(real.state) is None:
            chosen = bot_move(real, rnd)
            actor, move = chosen
            if move["type"] == "submit_work" and rnd.random() < 0.25:
                seat = actor.seat
                shadow = real.copy()
                try:
                    other = shadow.apply(actor, flipped(move))
                except RuleError:
                    shadow = None
                if shadow is not None:
                    try:
                        events = real.apply(actor, move)
                    except RuleError:
                        continue
                    if first_public_difference(events, other) is not None:
                        continue  # the last submission: the siren tells at once, nothing to follow
                    forks += 1

                    def swap(a: Actor, m: dict[str, Any], seat=seat, real=real, shadow=shadow) -> dict[str, Any]:
                        # The shadow swaps back at the seat's first submission that evens the
                        # stickers out again: which sticker went on which work is swapped.
                        if m["type"] != "submit_work" or a.seat != seat or counts(real.state, seat) == counts(
                                shadow.state, seat):
                            return m
                        return flipped(m) if _evens(real, shadow, seat, m) else m

                    checked += follow(real, shadow, rnd, {seat}, swap, owner=seat)
                    continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    assert forks > 40 and checked > 2000  # the check ran on many states, not on a handful


def _evens(real: Match, shadow: Match, seat: int, move: dict[str, Any]) -> bool:
    """True when the shadow playing the flipped move leaves its stickers equal to the real
    match's after the real match plays `move` (both counted before the move)."""
    g, f = counts(real.state, seat)
    sg, sf = counts(shadow.state, seat)
    sticker = move["entry"].split("/")[1]
    after_real = (g - (sticker == "genuine"), f - (sticker == "fake"))
    after_shadow = (sg - (sticker == "fake"), sf - (sticker == "genuine"))
    return after_real == after_shadow


def test_appraisals_are_secret_to_the_appraiser_to_the_end():
    checked = forks = 0
    for seed in range(25):
        rnd = random.Random(1000 + seed)
        real = Match(seed)
        while GAME.result(real.state) is None:
            actor, move = bot_move(real, rnd)
            if move["type"] == "appraise" and forks < 3 * (seed + 1):
                (decision,) = [d for d in GAME.turn(real.state).for_seat(actor.seat) if d.move == "appraise"]
                others = [o.value for o in decision.fields[0].options if o.value != move["work"]]
                if others:
                    shadow = real.copy()
                    shadow.apply(actor, {**move, "work": rnd.choice(others)})
                    real.apply(actor, move)
                    forks += 1
                    checked += follow(real, shadow, rnd, {actor.seat}, until_reveal=False)
                    continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    assert forks >= 20 and checked > 2000  # about one appraisal fork per match, followed to the end


def test_transfers_are_secret_to_the_two_seats():
    checked = forks = 0
    for seed in range(30):
        rnd = random.Random(2000 + seed)
        real = Match(seed)
        while GAME.result(real.state) is None:
            actor, move = bot_move(real, rnd)
            if move["type"] == "transfer_chips" and rnd.random() < 0.1:
                giver, taker = move["from"], move["to"]
                held = real.state.chips[giver]
                if giver != taker and move["amount"] <= held and held > 1:
                    amount = rnd.choice([a for a in range(1, held + 1) if a != move["amount"]])
                    shadow = real.copy()
                    shadow.apply(actor, {**move, "amount": amount})
                    real.apply(actor, move)
                    forks += 1
                    checked += follow(real, shadow, rnd, {giver, taker}, until_reveal=False)
                    continue
            try:
                real.apply(actor, move)
            except RuleError:
                pass
    assert forks > 20 and checked > 500


SECRET_KEYS = {"genuine", "sticker", "hand", "extra", "chips", "stickers", "submissions", "appraisals", "queue",
               "run_sheet", "amount"}


def test_public_view_and_log_never_hold_a_secret_field():
    for seed in range(25):
        rnd = random.Random(3000 + seed)
        match = Match(seed)
        while GAME.result(match.state) is None:
            actor, move = bot_move(match, rnd)
            try:
                match.apply(actor, move)
            except RuleError:
                continue
            view = GAME.view(match.state, Audience.public())
            assert not keys(view) & SECRET_KEYS, keys(view) & SECRET_KEYS
            rows = audience_log(match.log[-1:], Audience.public())
            if match.log[-1]["event"]["type"] == "SecretRecorded":
                assert rows == []  # an appraisal or a transfer leaves no trace in the public log
            for row in (r["event"] for r in rows):
                assert not set(row) & SECRET_KEYS
                if row["type"] in ("WorkSubmitted", "HandDealt"):
                    assert set(row) <= {"type", "seat", "round"}
            # Another seat sees another seat's entry exactly as the public does.
            for seat in rnd.sample(range(9), 2):
                mine = GAME.view(match.state, Audience.of_seat(seat))
                for s, entry in enumerate(mine["seats"]):
                    if s != seat:
                        assert entry == view["seats"][s]
                assert json.dumps({k: v for k, v in mine.items() if k != "seats"}, sort_keys=True) == \
                    json.dumps({k: v for k, v in view.items() if k != "seats"}, sort_keys=True)
