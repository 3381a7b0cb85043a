"""Tricky Safari: the state of a match and the pure helpers the rules and views share.

Everything here is data or arithmetic over data: no decisions, no events. Rule citations
("Safari rule N") use the numbering of RULINGS.md "Tricky Safari".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.kernel import T

SEATS = 5
ROUNDS = 5
ANIMALS = ("elephant", "rhino", "lion", "leopard", "zebra")
ANIMAL_LABELS = {
    "elephant": T("코끼리", "Elephant"),
    "rhino": T("코뿔소", "Rhino"),
    "lion": T("사자", "Lion"),
    "leopard": T("표범", "Leopard"),
    "zebra": T("얼룩말", "Zebra"),
}
# Safari rule 1: seat 1 elephant+rhino, 2 rhino+lion, 3 lion+leopard, 4 leopard+zebra,
# 5 zebra+elephant (seed 6.2, public).
PAIRS = (("elephant", "rhino"), ("rhino", "lion"), ("lion", "leopard"), ("leopard", "zebra"), ("zebra", "elephant"))
NUMBERS = tuple(range(6))  # seed 6.1 rule 2: each animal has the cards 0 to 5
OPEN_LOW, OPEN_HIGH = 1, 4  # Safari rule 2: the opened card is one of the animal's 1-4
HAND = 5  # Safari rule 2: the 25 other cards, 5 per seat
FIGURES = 5  # seed 6.1 rule 2: 5 figures per animal
# Safari rule 4: the bonus per own animal for the animal ranks 1 to 5.
BONUS = (8, 6, 4, 2, 0)

DEAL_REFEREE, DEAL_DEALER = "referee", "dealer"
DEFAULT_RANKS = "1,2,3,4,5"
MAX_RANK = 99

# Steps of a match. ENDING is transient inside one decide (the round's scoring is being
# announced); no state is ever left in it. BREAK waits for the dealer after each round's scoring.
DEAL, PLAY, ENDING, BREAK, NAMING, OVER = "deal", "play", "ending", "break", "naming", "over"


def card_id(animal: str, number: int) -> str:
    return f"{animal}:{number}"


# Every card, animal by animal, 0 to 5: the order hands are shown in.
DECK = tuple(card_id(a, n) for a in ANIMALS for n in NUMBERS)
DECK_INDEX = {c: i for i, c in enumerate(DECK)}


def parse_card(value: Any) -> tuple[str, int] | None:
    """``"lion:3"`` -> ("lion", 3); anything that is not a card of the game -> None."""
    if not isinstance(value, str) or value not in DECK_INDEX:
        return None
    animal, _, number = value.partition(":")
    return animal, int(number)


def sorted_cards(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards, key=DECK_INDEX.__getitem__))


@dataclass(frozen=True)
class Play:
    """A card played (Safari rule 2): public the moment it is laid down."""

    seat: int
    animal: str
    number: int


@dataclass(frozen=True)
class Take:
    seat: int
    animal: str


@dataclass(frozen=True)
class RoundRecord:
    """A finished round: what was public, plus the hands as dealt (for the dealer's sheets)."""

    round: int
    starter: int
    opened: tuple[int, ...]  # by animal
    hands: tuple[tuple[str, ...], ...]  # as dealt, by seat (secret: dealer and owner)
    plays: tuple[Play, ...]
    takes: tuple[Take, ...]
    values: tuple[int, ...]  # round-end values, by animal (Safari rule 3)
    completed: tuple[str, ...]  # the animals with all six cards open
    points: tuple[int, ...]  # by seat


@dataclass(frozen=True)
class Final:
    """Safari rules 4 and 5, after round 5."""

    sums: tuple[int, ...]  # by animal
    ranks: tuple[int, ...]  # by animal
    animal_bonus: tuple[int, ...]  # by animal
    figure_points: tuple[int, ...]  # by seat
    bonuses: tuple[int, ...]  # by seat
    totals: tuple[int, ...]  # by seat
    order: tuple[int, ...]  # seats, best first
    winner: int
    last: int


@dataclass(frozen=True)
class SafariState:
    seats: int = SEATS
    names: tuple[str, ...] = ()
    gallery_ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    deal_mode: str = DEAL_REFEREE
    round: int = 1
    step: str = DEAL
    opened: tuple[int | None, ...] = (None,) * len(ANIMALS)  # this round's opened card, by animal
    hands: tuple[tuple[str, ...], ...] = ((),) * SEATS
    dealt: tuple[bool, ...] = (False,) * SEATS
    plays: tuple[Play, ...] = ()  # this round, in order
    takes: tuple[Take, ...] = ()  # this round, in order
    history: tuple[RoundRecord, ...] = ()
    final: Final | None = None
    opponent: int | None = None


# -- helpers -------------------------------------------------------------------------------------


def replace_at(values: tuple, index: int, value: object) -> tuple:
    return tuple(value if i == index else v for i, v in enumerate(values))


def starter_of(round_: int, seats: int = SEATS) -> int:
    """Safari rule 1: seat r starts round r (0-based: seat r-1)."""
    return (round_ - 1) % seats


def play_order(state: SafariState, round_: int | None = None) -> tuple[int, ...]:
    """This round's turn order: the starter, then on around the seats."""
    first = starter_of(state.round if round_ is None else round_, state.seats)
    return tuple((first + i) % state.seats for i in range(state.seats))


def to_act(state: SafariState) -> int | None:
    """The seat whose turn it is (a turn is one play, then one take)."""
    if state.step != PLAY:
        return None
    return (starter_of(state.round, state.seats) + len(state.takes)) % state.seats


def stage(state: SafariState) -> str | None:
    """Safari rule 2: a turn plays a card, then takes a figure."""
    if state.step != PLAY:
        return None
    return "take" if len(state.plays) > len(state.takes) else "play"


def open_numbers(state: SafariState, animal: str) -> tuple[int, ...]:
    """The animal's open cards this round, in the order they opened."""
    first = state.opened[ANIMALS.index(animal)]
    if first is None:
        return ()
    return (first,) + tuple(p.number for p in state.plays if p.animal == animal)


def values(state: SafariState) -> tuple[int | None, ...]:
    """Safari rules 2-3: each animal's value is its last opened card."""
    return tuple((open_numbers(state, a) or (None,))[-1] for a in ANIMALS)


def completed(state: SafariState) -> tuple[str, ...]:
    """Safari rule 3: the animals with all six cards open."""
    return tuple(a for a in ANIMALS if len(open_numbers(state, a)) == len(NUMBERS))


def figures_left(state: SafariState) -> tuple[int, ...]:
    return tuple(FIGURES - sum(1 for t in state.takes if t.animal == a) for a in ANIMALS)


def figures_of(takes: tuple[Take, ...], seat: int) -> tuple[str, ...]:
    return tuple(t.animal for t in takes if t.seat == seat)


def round_points(vals: tuple[int, ...], takes: tuple[Take, ...], seats: int) -> tuple[int, ...]:
    """Safari rule 3: each figure scores its animal's round-end value."""
    return tuple(sum(vals[ANIMALS.index(a)] for a in figures_of(takes, s)) for s in range(seats))


def scores(state: SafariState) -> tuple[int, ...]:
    """Figure points so far, by seat (the finished rounds)."""
    return tuple(sum(r.points[s] for r in state.history) for s in range(state.seats))


def remaining_cards(state: SafariState) -> tuple[str, ...]:
    """The cards neither opened this round nor in a dealt hand (dealer-mode deal)."""
    used = {card_id(a, n) for a, n in zip(ANIMALS, state.opened, strict=True) if n is not None}
    used |= {c for s in range(state.seats) if state.dealt[s] for c in state.hands[s]}
    return tuple(c for c in DECK if c not in used)


def animal_ranks(sums: tuple[int, ...]) -> tuple[int, ...]:
    """Safari rule 4: rank by sum, highest first; tied animals all take the lowest rank of
    their block (the number of animals with a sum at least as high)."""
    return tuple(sum(1 for other in sums if other >= s) for s in sums)


def final_scoring(history: tuple[RoundRecord, ...], gallery_ranks: tuple[int, ...]) -> Final:
    """Safari rules 4 and 5."""
    seats = len(gallery_ranks)
    sums = tuple(sum(r.values[i] for r in history) for i in range(len(ANIMALS)))
    ranks = animal_ranks(sums)
    animal_bonus = tuple(BONUS[r - 1] for r in ranks)
    figure_points = tuple(sum(r.points[s] for r in history) for s in range(seats))
    bonuses = tuple(sum(animal_bonus[ANIMALS.index(a)] for a in PAIRS[s]) for s in range(seats))
    totals = tuple(f + b for f, b in zip(figure_points, bonuses, strict=True))
    # Safari rule 5: highest total first; equal totals go to the better Gallery rank. The last
    # is the lowest of the other four, so simply the last of this order.
    order = tuple(sorted(range(seats), key=lambda s: (-totals[s], gallery_ranks[s])))
    return Final(sums, ranks, animal_bonus, figure_points, bonuses, totals, order, order[0], order[-1])


def opponents(state: SafariState) -> tuple[int, ...]:
    """Safari rule 5: the seats the winner may name: not the last, not themself."""
    if state.final is None:
        return ()
    return tuple(s for s in state.final.order if s not in (state.final.winner, state.final.last))


# -- labels --------------------------------------------------------------------------------------


def animal_label(animal: str) -> T:
    return ANIMAL_LABELS[animal]


@lru_cache(maxsize=64)
def card_label(card: str) -> T:
    animal, number = card.split(":")
    label = ANIMAL_LABELS[animal]
    return T(f"{label.ko} {number}", f"{label.en} {number}")


def seat_label(names: tuple[str, ...], seat: int) -> T:
    """How everyone names a seat: "2번 김민준" / "2 Kim Minjun"."""
    return seat_label_of(names[seat] if seat < len(names) else None, seat)


@lru_cache(maxsize=1024)
def seat_label_of(name: str | None, seat: int) -> T:
    if not name:
        return T(f"{seat + 1}번", f"seat {seat + 1}")
    return T(f"{seat + 1}번 {name}", f"{seat + 1} {name}")


# -- the gallery_ranks option --------------------------------------------------------------------


def parse_ranks(value: Any) -> tuple[int, ...] | None:
    """The Gallery rank of each seat, in seat order: ``"7,5,9,6,8"`` or a list of integers;
    distinct whole numbers from 1 to 99. None when the value is not of that form."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if not all(p.isdigit() for p in parts):
            return None
        ranks = tuple(int(p) for p in parts)
    elif isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        ranks = tuple(value)
    else:
        return None
    if len(set(ranks)) != len(ranks) or not all(1 <= r <= MAX_RANK for r in ranks):
        return None
    return ranks


def ranks_allowed(value: Any, seats: int | None) -> bool:
    """The `gallery_ranks` option: one distinct Gallery rank per seat (5 seats)."""
    ranks = parse_ranks(value)
    return ranks is not None and len(ranks) == (seats or SEATS)
