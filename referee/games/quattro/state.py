"""The state of a Quattro match and evolve, the fold of its events. evolve never fails."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.kernel import Event, T

from .cards import DECK, Comparison, ordered

SEATS = (0, 1)
VIRTUALS = tuple(range(6))
HAND_SIZE = 4
VIRTUAL_SIZE = 3
MAX_MULLIGANS = 2
LAST_PHASE = 3  # the exchange phase after the third opening; the fourth card ends the match

REFEREE, DEALER = "referee", "dealer"

# Steps: the dealer names the first player; the hands are dealt; mulligans; the six virtual
# players' cards; a sealed opening (``open``); an exchange phase; a draw awaiting the dealer;
# the end. ``phase`` counts the cards each candidate has opened.
FIRST, DEAL, MULLIGAN, VIRTUAL, OPEN, EXCHANGE, COMPARE, DRAW, OVER = (
    "first", "deal", "mulligan", "virtual", "open", "exchange", "compare", "draw", "over",
)


@dataclass(frozen=True)
class Action:
    """One turn of an exchange phase, as the public sees it: a pass (``vp`` None) or an exchange
    with virtual player ``vp`` giving the face-up card ``given``."""

    phase: int
    seat: int
    vp: int | None = None
    given: str | None = None


@dataclass(frozen=True)
class QuattroState:
    deal: str = REFEREE
    names: tuple[str, ...] = ()  # the candidates' names, by seat
    step: str = FIRST
    first: int | None = None
    deck: tuple[str, ...] = DECK  # cards not in any hand nor with a virtual player
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # unopened cards, received ones included
    opened: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # in the order they were opened
    mulligans: tuple[int, int] = (0, 0)
    kept: tuple[bool, bool] = (False, False)
    owed_cards: tuple[bool, bool] = (True, True)  # the seat waits for 4 cards to be dealt
    virtual: tuple[tuple[str, ...], ...] = ()  # what each virtual player holds now
    given: tuple[tuple[tuple[int, str], ...], ...] = ((),) * 6  # (seat, card) given to each, face up
    exchanged: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # virtual players, in order
    received: tuple[tuple[tuple[int, str], ...], ...] = ((), ())  # secret: (vp, card) per seat
    phase: int = 0
    to_act: int | None = None
    passes_in_row: int = 0
    actions: tuple[Action, ...] = ()
    sealed_open: tuple[str | None, str | None] = (None, None)
    comparison: Comparison | None = None
    winner: int | None = None
    resolved_by_dealer: bool = False


def _set(pair: tuple, index: int, value: Any) -> tuple:
    return tuple(value if i == index else v for i, v in enumerate(pair))


def _minus(cards: tuple[str, ...], gone) -> tuple[str, ...]:
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


def seat_label(names: tuple[str, ...], seat: int) -> T:
    """A candidate as everyone names them: "1번 가람" / "1 Garam" ("1번 자리" with no name)."""
    if 0 <= seat < len(names) and names[seat]:
        return T(f"{seat + 1}번 {names[seat]}", f"{seat + 1} {names[seat]}")
    return T(f"{seat + 1}번 자리", f"seat {seat + 1}")


def other(seat: int) -> int:
    return 1 - seat


def must_exchange(state: QuattroState, seat: int) -> bool:
    """Quattro rule 3: exchanges with all six are owed before the fourth card opens; in the last
    exchange phase a candidate who still owes some cannot pass."""
    return state.phase == LAST_PHASE and len(state.exchanged[seat]) < len(VIRTUALS)


def evolve(state: QuattroState, event: Event) -> QuattroState:
    match event.type:
        case "FirstPlayerSet":
            return replace(state, first=event["seat"], step=DEAL)
        case "HandDealt":
            seat, cards = event["seat"], event["cards"]
            state = replace(
                state,
                hands=_set(state.hands, seat, ordered(cards)),
                deck=_minus(state.deck, cards),
                owed_cards=_set(state.owed_cards, seat, False),
            )
            if state.step == DEAL and not any(state.owed_cards):
                state = replace(state, step=MULLIGAN)
            return state
        case "MulliganTaken":
            seat = event["seat"]
            # Quattro rule 1: the 4 cards go back into the deck.
            return replace(
                state,
                deck=ordered(state.deck + state.hands[seat]),
                hands=_set(state.hands, seat, ()),
                mulligans=_set(state.mulligans, seat, event["mulligans"]),
                owed_cards=_set(state.owed_cards, seat, True),
            )
        case "HandKept":
            state = replace(state, kept=_set(state.kept, event["seat"], True))
            return replace(state, step=VIRTUAL) if all(state.kept) else state
        case "VirtualDealt":
            hands = tuple(ordered(h) for h in event["hands"])
            dealt = [c for h in hands for c in h]
            return replace(state, virtual=hands, deck=_minus(state.deck, dealt), step=OPEN, phase=0)
        case "VirtualHandEntered":
            cards = event["cards"]
            state = replace(state, virtual=state.virtual + (ordered(cards),), deck=_minus(state.deck, cards))
            return replace(state, step=OPEN, phase=0) if len(state.virtual) == len(VIRTUALS) else state
        case "OpenChosen":
            return replace(state, sealed_open=_set(state.sealed_open, event["seat"], event["card"]))
        case "CardsOpened":
            cards = event["cards"]
            hands = tuple(_minus(state.hands[s], (cards[s],)) for s in SEATS)
            opened = tuple(state.opened[s] + (cards[s],) for s in SEATS)
            rnd = event["round"]
            step = COMPARE if rnd == HAND_SIZE else EXCHANGE
            return replace(
                state, hands=hands, opened=opened, sealed_open=(None, None), phase=rnd, step=step,
                to_act=state.first if step == EXCHANGE else None, passes_in_row=0,
            )
        case "Passed":
            seat = event["seat"]
            return replace(
                state,
                passes_in_row=state.passes_in_row + 1,
                to_act=other(seat),
                actions=state.actions + (Action(state.phase, seat),),
            )
        case "Exchanged":
            seat, vp, given, got = event["seat"], event["vp"], event["given"], event["received"]
            return replace(
                state,
                hands=_set(state.hands, seat, ordered(_minus(state.hands[seat], (given,)) + (got,))),
                virtual=_set(state.virtual, vp, ordered(_minus(state.virtual[vp], (got,)) + (given,))),
                given=_set(state.given, vp, state.given[vp] + ((seat, given),)),
                exchanged=_set(state.exchanged, seat, state.exchanged[seat] + (vp,)),
                received=_set(state.received, seat, state.received[seat] + ((vp, got),)),
                actions=state.actions + (Action(state.phase, seat, vp, given),),
                passes_in_row=0,
                to_act=other(seat),
            )
        case "ExchangesClosed":
            return replace(state, step=OPEN, to_act=None, passes_in_row=0)
        case "HandsCompared":
            c = Comparison(
                hands=tuple(tuple(h) for h in event["hands"]),
                quattro=tuple(event["quattro"]),
                sums=tuple(event["sums"]),
                winner=event["winner"],
                rule=event["rule"],
                position=event["position"],
            )
            return replace(state, comparison=c, winner=c.winner, step=OVER if c.winner is not None else DRAW)
        case "DrawResolved":
            return replace(state, winner=event["winner"], step=OVER, resolved_by_dealer=True)
    return state
