"""Secrecy of Tricky Safari: nothing outside the dealer and the holder depends on a hand.

The hands are the only secret (RULINGS.md "Tricky Safari": hands, dealer and owner). The main
test is counterfactual: along random playouts, at a random moment of a round, a shadow match
swaps one unplayed card between the hands of two seats (its log says the two seats were dealt
accordingly) and then receives the same moves. Until one of the two cards is played (the rules
reveal a card when it is played), the public view, the public turn, the public log and every
other seat's view, pending decisions and log must be equal in both matches. A card never played
is never revealed: then the two matches stay equal to the end, result included.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

from referee.games.tricky_safari import GAME
from referee.games.tricky_safari.state import sorted_cards
from referee.kernel import Actor, Audience, Event, Rng
from referee.kernel.bots import pick
from referee.table import audience_log

from .playout import Played, keys

NAMES = ("김민준", "이서연", "박지호", "최유나", "정하준")
SECRET_KEYS = {"hand", "hands", "panel", "sheets"}


class Match(Played):
    def __init__(self, seed: int, options: dict[str, Any] | None = None, state: Any = None,
                 log: list | None = None) -> None:
        self.seed = seed
        self.options = GAME.resolve_options(options or {})
        if state is None:
            super().__init__(GAME, GAME.setup(NAMES, self.options, Rng.forbidden()), [])
            self.automatic()
        else:
            super().__init__(GAME, state, list(log or []))

    def apply(self, actor: Actor, move: dict[str, Any]) -> list[Event]:
        return self.record(actor, move, Rng(self.seed, len(self.log))) + self.automatic()

    def automatic(self) -> list[Event]:
        """The referee's own steps (the deal), as the runtime takes them."""
        return super().automatic(lambda: Rng(self.seed, len(self.log)))


def refold(log: list[dict[str, Any]], options: dict[str, Any]) -> Any:
    state = GAME.setup(NAMES, options, Rng.forbidden())
    for entry in log:
        state = GAME.evolve(state, Event.from_json(entry["event"]))
    return state


def swapped(real: Match, rnd: random.Random) -> tuple[Match, set[int], set[str]] | None:
    """A shadow of `real` in which two seats were dealt one card the other way round: seats
    a and b swap one card each that neither has played. None outside play or with one hand."""
    state = real.state
    holding = [s for s in range(state.seats) if state.hands[s]]
    if state.step != "play" or len(holding) < 2:
        return None
    a, b = rnd.sample(holding, 2)
    ca, cb = rnd.choice(state.hands[a]), rnd.choice(state.hands[b])

    def moved(cards: Any, out: str, into: str) -> tuple[str, ...]:
        return sorted_cards([c for c in cards if c != out] + [into])

    hands = list(state.hands)
    hands[a], hands[b] = moved(hands[a], ca, cb), moved(hands[b], cb, ca)
    log = copy.deepcopy(real.log)
    for entry in log:
        event = entry["event"]
        if event["type"] == "HandDealt" and event["data"]["round"] == state.round and event["data"]["seat"] in (a, b):
            seat = event["data"]["seat"]
            out, into = (ca, cb) if seat == a else (cb, ca)
            event["private"]["hand"] = list(moved(event["private"]["hand"], out, into))
    shadow = Match(real.seed, real.options, state=replace(state, hands=tuple(hands)), log=log)
    assert refold(shadow.log, shadow.options) == shadow.state  # the shadow's log tells its own story
    return shadow, {a, b}, {ca, cb}


def compare(real: Match, shadow: Match, hidden: set[int], since: int) -> None:
    for audience in [Audience.public()] + [Audience.of_seat(s) for s in range(5) if s not in hidden]:
        assert real.seen_by(audience, since) == shadow.seen_by(audience, since), f"{audience} can tell the worlds apart"


def follow(real: Match, shadow: Match, rnd: random.Random, hidden: set[int], cards: set[str]) -> tuple[int, bool]:
    """The same bot moves on both matches, compared after each, until one of the swapped cards
    is played (a reveal the rules make) or the match ends. Returns (steps compared, revealed)."""
    compare(real, shadow, hidden, 0)
    compared = 1
    while GAME.result(real.state) is None:
        since = len(real.log)
        actor, move = pick(GAME.turn(real.state), rnd)
        if move.get("card") in cards:
            return compared, True
        real.apply(actor, move)
        shadow.apply(actor, move)  # any other card is held in both worlds
        compare(real, shadow, hidden, since)
        compared += 1
    assert GAME.result(real.state) == GAME.result(shadow.state)
    return compared, False


def test_hands_are_secret_until_a_card_is_played():
    checked = forks = kept = 0
    for seed in range(30):
        rnd = random.Random(seed)
        real = Match(seed, {"deal": "dealer"} if seed % 5 == 4 else {})
        while GAME.result(real.state) is None:
            if real.state.step == "play" and rnd.random() < 0.08:
                fork = swapped(real, rnd)
                if fork is not None:
                    shadow, hidden, cards = fork
                    forks += 1
                    steps, revealed = follow(real, shadow, rnd, hidden, cards)
                    checked += steps
                    kept += not revealed
                    continue
            actor, move = pick(GAME.turn(real.state), rnd)
            real.apply(actor, move)
    # The check ran on many states, and some swapped cards stayed in hand to the very end.
    assert forks >= 30 and checked > 1500 and kept >= 3, (forks, checked, kept)


def test_public_view_and_log_never_hold_a_hand():
    for seed in range(12):
        rnd = random.Random(100 + seed)
        match = Match(seed, {"deal": "dealer"} if seed % 2 else {})
        while GAME.result(match.state) is None:
            before = len(match.log)
            actor, move = pick(GAME.turn(match.state), rnd)
            match.apply(actor, move)
            public = GAME.view(match.state, Audience.public())
            assert not keys(public) & SECRET_KEYS, keys(public) & SECRET_KEYS
            for row in audience_log(match.log[before:], Audience.public()):
                assert not set(row["event"]) & SECRET_KEYS
                if row["event"]["type"] == "HandDealt":
                    assert set(row["event"]) == {"type", "round", "seat"}
            seat = rnd.randrange(5)
            mine = GAME.view(match.state, Audience.of_seat(seat))
            assert mine["seats"][seat]["hand"] == list(match.state.hands[seat])
            for s, entry in enumerate(mine["seats"]):
                if s != seat:
                    assert entry == public["seats"][s]
            assert {k: v for k, v in mine.items() if k != "seats"} == {k: v for k, v in public.items() if k != "seats"}
            for row in audience_log(match.log[before:], Audience.of_seat(seat)):
                if row["event"]["type"] == "HandDealt" and row["event"]["seat"] != seat:
                    assert "hand" not in row["event"]


def test_a_seat_learns_only_its_own_hand_from_the_deal_log():
    match = Match(7)
    for seat in range(5):
        rows = [r["event"] for r in audience_log(match.log, Audience.of_seat(seat)) if r["event"]["type"] == "HandDealt"]
        assert [r["seat"] for r in rows] == [0, 1, 2, 3, 4]
        assert [r.get("hand") for r in rows if r["seat"] == seat] == [list(match.state.hands[seat])]
        assert all("hand" not in r for r in rows if r["seat"] != seat)
