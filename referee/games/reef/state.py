"""Reef: the state of a match and the pure helpers the rules and views share.

Everything here is data or arithmetic over data: no decisions, no events. Rule citations
("Reef rule N") use the numbering of the package docstring.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from referee.kernel import T

from .cards import CARDS, COLOURS, DECK, Card
from .patterns import EMPTY_BOARD, Board, Score, open_cells, score, with_coral

# Reef rule 1: corals per colour by the number of players; 3 points each; 2 cards each; 3 shown.
SUPPLY = {2: 18, 3: 24, 4: 28}
START_POINTS = 3
HAND_START = 2
HAND_LIMIT = 4
DISPLAY = 3

DEAL_REFEREE, DEAL_DEALER = "referee", "dealer"

# Steps. TURN_END and ENDING are passed through inside one decide: the rules move on at once.
SETUP = "setup"  # the deal and every seat's start corals
ACTION = "action"  # the current seat takes, draws or plays a card
DRAWING = "drawing"  # a deck card is being drawn (dealer mode: the dealer enters it)
REFILL = "refill"  # a display slot is being refilled (dealer mode: the dealer enters it)
PLACE = "place"  # the current seat places the corals of the card it plays
TURN_END = "turn_end"
ENDING = "ending"  # the game has ended; the cards left in hand are being scored
OVER = "over"


@dataclass(frozen=True)
class Scored:
    """One card scored (Reef rules 7-8 on play, rule 10 from the hand at the end)."""

    seat: int
    card: int
    count: int
    points: int
    matches: tuple[tuple[int, ...], ...]
    round: int
    from_hand: bool = False
    placed: tuple[int, ...] = ()  # the cells its corals went to (on play)


@dataclass(frozen=True)
class ReefState:
    seats: int
    names: tuple[str, ...]
    deal_mode: str = DEAL_REFEREE
    step: str = SETUP
    shuffled: bool = False  # referee mode: the deck has been shuffled and dealt
    deck: tuple[int, ...] = ()  # referee mode: the deck's order (top first); dealer mode: unknown, empty
    hands: tuple[tuple[int, ...], ...] = ()
    display: tuple[int | None, ...] = (None,) * DISPLAY
    tokens: tuple[int, ...] = (0,) * DISPLAY  # points lying on each display card (Reef rule 5)
    points: tuple[int, ...] = ()
    boards: tuple[Board, ...] = ()
    started: tuple[bool, ...] = ()  # the seat's start corals are on its board (Reef rule 2)
    supply: tuple[int, ...] = ()  # corals left, by COLOURS
    played: tuple[tuple[int, ...], ...] = ()  # cards played, face up beside each board
    current: int = 0
    round: int = 0
    out: tuple[str, ...] = ()  # colours that ran out, in order (Reef rule 9: the last round)
    card: int | None = None  # the card being played
    to_place: tuple[str, ...] = ()  # its corals still to place
    placed: tuple[int, ...] = ()  # the cells its corals went to so far
    slot: int | None = None  # the display slot being refilled
    scores: tuple[Scored, ...] = ()
    end_reason: str | None = None  # "supply" | "deck"
    hand_scored: tuple[bool, ...] = ()
    first_hands: tuple[tuple[int, ...], ...] = ()  # the deal (Reef rule 1), for the run sheet
    first_display: tuple[int | None, ...] = (None,) * DISPLAY


def changed(state: ReefState, **fields: object) -> ReefState:
    """``dataclasses.replace`` without its per-field checks: evolve runs for every event of every
    fold (the contract test refolds long logs many times), and this is several times faster. The
    state has no __post_init__ and only known field names are passed."""
    new = object.__new__(ReefState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(fields)
    return new


def replace_at(values: tuple, index: int, value: object) -> tuple:
    return tuple(value if i == index else v for i, v in enumerate(values))


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def new_state(names: tuple[str, ...], deal_mode: str) -> ReefState:
    n = len(names)
    return ReefState(
        seats=n,
        names=names,
        deal_mode=deal_mode,
        hands=((),) * n,
        points=(START_POINTS,) * n,
        boards=(EMPTY_BOARD,) * n,
        started=(False,) * n,
        supply=(SUPPLY[n],) * len(COLOURS),
        played=((),) * n,
        hand_scored=(False,) * n,
        first_hands=((),) * n,
    )


def seen_cards(state: ReefState) -> frozenset[int]:
    """Every card out of the deck: in a hand, on the display or played."""
    out = {c for hand in state.hands for c in hand} | {c for c in state.display if c is not None}
    return frozenset(out | {c for cards in state.played for c in cards})


def deck_left(state: ReefState) -> int:
    """The cards still in the deck: the shuffled order's length (referee mode), or every card not
    yet seen (dealer mode, and before the shuffle)."""
    if state.shuffled:
        return len(state.deck)
    return len(DECK) - len(seen_cards(state))


def supply_of(state: ReefState, colour: str) -> int:
    return state.supply[COLOURS.index(colour)]


def dealt(state: ReefState) -> bool:
    """Reef rule 1: every seat holds its 2 cards and the 3 display cards lie face up."""
    return all(len(h) >= HAND_START for h in state.hands) and None not in state.display


def next_deal(state: ReefState) -> tuple[str, int]:
    """Dealer mode: what the dealer enters next: ("hand", seat) or ("display", slot)."""
    for seat, hand in enumerate(state.hands):
        if len(hand) < HAND_START:
            return "hand", seat
    return "display", state.display.index(None)


def lowest_display(state: ReefState) -> tuple[int, ...]:
    """Reef rule 5: the display cards with the lowest printed points (tokens on them ignored)."""
    cards = [c for c in state.display if c is not None]
    low = min(CARDS[c].points for c in cards)
    return tuple(c for c in cards if CARDS[c].points == low)


def can_take(state: ReefState, seat: int) -> bool:
    # Reef rule 4: a seat holding 4 cards cannot take one.
    return len(state.hands[seat]) < HAND_LIMIT


def can_draw(state: ReefState, seat: int) -> bool:
    # Reef rule 5: a point to pay, a card in the deck, and room in the hand.
    return can_take(state, seat) and state.points[seat] >= 1 and deck_left(state) > 0


def corals_for(state: ReefState, card: Card, seat: int) -> tuple[str, ...]:
    """Reef rule 6: the card's corals the supply still has, and the board still has room for."""
    supply = {c: supply_of(state, c) for c in COLOURS}
    room = sum(4 - len(s) for s in state.boards[seat])
    out = []
    for colour in card.corals:
        if supply[colour] > 0 and len(out) < room:
            supply[colour] -= 1
            out.append(colour)
    return tuple(out)


def last_round(state: ReefState) -> bool:
    return bool(state.out)


def seat_label(state: ReefState, seat: int) -> T:
    return seat_label_of(state.names[seat], seat)


@lru_cache(maxsize=1024)
def seat_label_of(name: str, seat: int) -> T:
    return T(f"{seat + 1}번 {name}", f"{seat + 1} {name}")


def previews(card: Card, board: Board, colours: tuple[str, ...]) -> dict[str, tuple[tuple[int, Score], ...]]:
    """For the coral choices a player has now, what each one would score (Reef rules 6-8).

    One coral left: every open cell and the exact score of the card once it is there. Two left:
    for each colour that may go first and each open cell, the best score the second coral can
    then reach. No coral: nothing to choose."""
    return _previews(card, board, colours)


@lru_cache(maxsize=2048)
def _previews(card: Card, board: Board, colours: tuple[str, ...]) -> dict[str, tuple[tuple[int, Score], ...]]:
    out: dict[str, tuple[tuple[int, Score], ...]] = {}
    if len(colours) == 1:
        out[colours[0]] = tuple((cell, score(card, with_coral(board, cell, colours[0]))) for cell in open_cells(board))
    elif len(colours) == 2:
        for i, first in enumerate(dict.fromkeys(colours)):
            second = colours[1 - i] if colours[0] != colours[1] else colours[1]
            rows = []
            for cell in open_cells(board):
                after = with_coral(board, cell, first)
                best = max((score(card, with_coral(after, c, second)) for c in open_cells(after)),
                           key=lambda s: s.points, default=score(card, after))
                rows.append((cell, best))
            out[first] = tuple(rows)
    return out
