"""Secrecy of Quattro: nothing outside the dealer and the holder depends on a secret card.

Secret cards are each candidate's hand (received cards included), the virtual players' cards
that were not laid face up by a candidate, and the deck. The main test is counterfactual: along
random playouts, at a random moment, a shadow match swaps one secret card between two holders
and then receives the same moves. Until the fourth card opens (the final reveal), the public
view, the public log and the turn as the public sees it must be equal in both matches, and so
must the view, the log and the pending decisions of every candidate who has not been told the
difference by the rules (a candidate is told when its own hand changed, or when a deal or a
virtual player hands it a different card).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from referee.games.quattro import DECK, GAME
from referee.kernel import Actor, Audience, Event, Rng, RuleError, seat_names
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table, audience_log

from .playout import Played

CARDS = set(DECK)
SEATS = (0, 1)
# Events whose private part a candidate gets about its own hand.
TOLD = ("HandDealt", "MulliganTaken", "Exchanged")


class Match(Played):
    def __init__(self, state: Any, log: list) -> None:
        super().__init__(GAME, state, log)

    def apply(self, actor: Actor, move: dict, rng: Rng) -> list[Event]:
        return self.record(actor, move, rng)

    def automatic(self, rng: Rng) -> list[Event]:  # one generator for every step, as before
        return super().automatic(lambda: rng)


def seen_by(match: Match, audience: Audience) -> tuple:
    return match.seen_by(audience)


# -- the counterfactual -------------------------------------------------------------------------


def holders(state) -> dict[tuple[str, int], list[str]]:
    """Every place a secret card may lie, with the cards that may be swapped there."""
    out: dict[tuple[str, int], list[str]] = {}
    for s in SEATS:
        # A card chosen for a sealed opening stays: the move that chose it is already made.
        out[("hand", s)] = [c for c in state.hands[s] if c != state.sealed_open[s]]
    for vp, held in enumerate(state.virtual):
        laid = {card for _, card in state.given[vp]}
        out[("vp", vp)] = [c for c in held if c not in laid]
    out[("deck", 0)] = list(state.deck)
    return {k: v for k, v in out.items() if v}


def swapped(state, rnd: random.Random):
    """The state with one secret card swapped between two holders, and the seats whose hand
    changed; None if there are not two holders."""
    places = holders(state)
    if len(places) < 2:
        return None
    a, b = rnd.sample(sorted(places), 2)
    ca, cb = rnd.choice(places[a]), rnd.choice(places[b])

    def moved(cards: tuple[str, ...], out: str, into: str) -> tuple[str, ...]:
        return tuple(sorted([c for c in cards if c != out] + [into], key=DECK.index))

    hands, virtual, deck = list(state.hands), list(state.virtual), state.deck
    for (kind, i), out, into in ((a, ca, cb), (b, cb, ca)):
        if kind == "hand":
            hands[i] = moved(hands[i], out, into)
        elif kind == "vp":
            virtual[i] = moved(virtual[i], out, into)
        else:
            deck = moved(deck, out, into)
    told = {i for kind, i in (a, b) if kind == "hand"}
    return replace(state, hands=tuple(hands), virtual=tuple(virtual), deck=deck), told


def compare_until_reveal(real: Match, shadow: Match, told: set[int], rnd: random.Random, salt: str) -> int:
    compared = 0
    step = 0
    while True:
        assert seen_by(real, Audience.public()) == seen_by(shadow, Audience.public()), "the public can tell"
        for s in SEATS:
            if s not in told:
                assert seen_by(real, Audience.of_seat(s)) == seen_by(shadow, Audience.of_seat(s)), f"seat {s} can tell"
        compared += 1
        chosen = pick(GAME.turn(real.state), rnd)
        if chosen is None:
            return compared
        actor, move = chosen
        step += 1
        try:
            theirs = shadow.apply(actor, move, Rng(salt, step))
        except RuleError:
            return compared  # the move needs a card the shadow does not hold: the lines part here
        theirs += shadow.automatic(Rng(salt, step, "auto"))
        ours = real.apply(actor, move, Rng(salt, step))
        ours += real.automatic(Rng(salt, step, "auto"))
        if [e.type for e in ours] != [e.type for e in theirs]:
            raise AssertionError(f"the rules took different steps: {ours} / {theirs}")
        for mine, other in zip(ours, theirs, strict=True):
            if mine.type in TOLD and mine.private != other.private:
                told.add(mine.data["seat"])  # the rules hand this seat a different card
        if any(e.type == "CardsOpened" and e.data["round"] == 4 for e in ours):
            return compared  # the final reveal opens every hand


def test_secret_cards_do_not_reach_the_public_or_the_other_candidate():
    compared = forks = 0
    told_counts: dict[int, int] = {}
    for seed in range(200):
        rnd = random.Random(seed)
        deal = "referee" if seed % 3 else "dealer"
        real = Match(GAME.setup(seat_names(2), GAME.resolve_options({"deal": deal}), Rng(seed)), [])
        real.automatic(Rng(seed, "start"))
        step = 0
        while GAME.result(real.state) is None:
            step += 1
            if real.state.step not in ("first", "deal") and rnd.random() < 0.15:
                fork = swapped(real.state, rnd)
                if fork is not None:
                    state, told = fork
                    told_counts[len(told)] = told_counts.get(len(told), 0) + 1
                    shadow = Match(state, list(real.log))
                    forks += 1
                    compared += compare_until_reveal(real, shadow, set(told), rnd, f"{seed}:{step}")
                    continue
            chosen = pick(GAME.turn(real.state), rnd)
            actor, move = chosen
            real.apply(actor, move, Rng(seed, step))
            real.automatic(Rng(seed, step, "auto"))
    # The check ran on many states, with forks that told nobody, one seat and both seats.
    assert forks > 300 and compared > 3000
    assert all(told_counts.get(n, 0) > 20 for n in (0, 1, 2)), told_counts


# -- direct checks --------------------------------------------------------------------------------


def cards_in(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj} if obj in CARDS else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def known(log: list[dict]) -> tuple[set[str], dict[int, set[str]]]:
    """From the full log: the cards the rules made public, and the cards each seat was told."""
    public: set[str] = set()
    seats: dict[int, set[str]] = {0: set(), 1: set()}
    for row in log:
        event = Event.from_json(row["event"])
        match event.type:
            case "CardsOpened":
                public |= set(event["cards"])
            case "Exchanged":
                public.add(event["given"])
                seats[event["seat"]].add(event["received"])
            case "HandDealt":
                seats[event["seat"]] |= set(event["cards"])
            case "HandsCompared":
                public |= {c for h in event["hands"] for c in h}
    return public, seats


def test_no_card_reaches_an_audience_before_the_rules_show_it_to_that_audience():
    checked = 0
    for seed in range(60):
        rnd = random.Random(seed)
        deal = "referee" if seed % 2 else "dealer"
        match = Match(GAME.setup(seat_names(2), GAME.resolve_options({"deal": deal}), Rng(seed)), [])
        step = 0
        while GAME.result(match.state) is None:
            step += 1
            match.automatic(Rng(seed, step, "auto"))
            chosen = pick(GAME.turn(match.state), rnd)
            if chosen is None:
                continue
            match.apply(*chosen, Rng(seed, step))
            public, told = known(match.log)
            view, log, turn, _ = seen_by(match, Audience.public())
            assert cards_in(view) <= public, cards_in(view) - public
            assert cards_in(log) <= public, cards_in(log) - public
            assert cards_in(turn) == set()
            for s in SEATS:
                allowed = public | told[s]
                for part in seen_by(match, Audience.of_seat(s)):
                    assert cards_in(part) <= allowed, (s, cards_in(part) - allowed)
            checked += 1
    assert checked > 1500


def test_public_log_entries_of_secret_events_carry_no_cards():
    for seed in (1, 2):
        rnd = random.Random(seed)
        match = Match(GAME.setup(seat_names(2), GAME.resolve_options({"deal": "referee"}), Rng(seed)), [])
        step = 0
        while GAME.result(match.state) is None:
            step += 1
            match.automatic(Rng(seed, step, "auto"))
            match.apply(*pick(GAME.turn(match.state), rnd), Rng(seed, step))
        rows = audience_log(match.log, Audience.public())
        secret_types = {"HandDealt", "MulliganTaken", "VirtualDealt", "VirtualHandEntered", "OpenChosen", "Exchanged"}
        seen = set()
        for row in rows:
            event = row["event"]
            if event["type"] in secret_types:
                seen.add(event["type"])
                assert not {"cards", "card", "received", "reason", "returned", "hands"} & set(event), event
        assert {"HandDealt", "VirtualDealt", "OpenChosen", "Exchanged"} <= seen


def test_received_cards_are_secret_through_the_runtime_in_dealer_mode():
    """Two tables differ only in virtual player 1's cards; seat 0 trades with it. Seat 1 and the
    public see the same until the end; seat 0 sees what it received."""
    hands = (["R6", "B5", "G1", "Y2"], ["R1", "B2", "G6", "Y5"])
    base = [["R2", "B3", "0a"], ["R3", "G4", "Y6"], ["B6", "G2", "Y1"], ["R4", "B1", "G5"], ["G3", "Y3", "0b"]]
    # In the other table virtual player 1 holds B6 G2 Y1 and virtual player 2 holds R3 G4 Y6.
    other = [base[0], base[2], base[1], base[3], base[4]]
    tables = []
    for i, vps in enumerate((base, other)):
        table = Table.create(MemoryStore(), f"t{i}", "quattro", ["A", "B"], options={"deal": "dealer"}, seed=1,
                             clock=lambda: 0.0)
        table.start(Actor.dealer())
        table.submit(Actor.dealer(), {"type": "choose_first", "seat": 0})
        for hand in hands:
            table.submit(Actor.dealer(), {"type": "enter_hand", "cards": hand})
        for s in SEATS:
            table.submit(Actor.of_seat(s), {"type": "mulligan", "choice": "keep"})
        for cards in vps:
            table.submit(Actor.dealer(), {"type": "enter_virtual", "cards": cards})
        for s, card in ((0, "R6"), (1, "G6")):
            table.submit(Actor.of_seat(s), {"type": "open_card", "card": card})
        # Seat 0 (opened R6) gives Y2 to virtual player 1: G4 from R3 G4 Y6, or G2 from B6 G2 Y1.
        table.submit(Actor.of_seat(0), {"type": "exchange", "card": "Y2", "vp": 1})
        tables.append(table)
    a, b = tables
    for audience in (Audience.public(), Audience.of_seat(1)):
        assert a.view(audience) | {"table": None} == b.view(audience) | {"table": None}
        assert a.log(audience) == b.log(audience)
    assert a.view(Audience.of_seat(0))["state"]["seats"][0]["received"] == [{"vp": 1, "card": "G4"}]
    assert b.view(Audience.of_seat(0))["state"]["seats"][0]["received"] == [{"vp": 1, "card": "G2"}]
    assert a.log(Audience.of_seat(0))[-1]["event"]["received"] == "G4"
    assert "received" not in a.log(Audience.of_seat(1))[-1]["event"]
