"""Scoring a card on a board (Reef rules 7-9): every match of its pattern, and the largest set of
matches that share no stack.

A board is 16 stacks, row by row (cell 0 is A1 at the top left, cell 15 is D4); a stack is a
tuple of colours from the bottom up. Only a stack's top coral counts for a pattern, its height
only where the card prints a number (Reef rule 7). Rotations are allowed, and they cover every
reflection of these shapes too: a pair in either order, a line either way, every L of three.

The largest packing is an exact search over bit masks of cells: the lowest cell that some match
covers is either left unused or used by one of the matches that cover it (Reef rule 7: a stack
is used at most once). Memoised on the cells still free, it visits at most 2^16 states and in
practice a few dozen; the tests prove it against a brute force over every subset of matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import CARDS, Card, Spec

SIZE = 4
CELLS = SIZE * SIZE
MAX_HEIGHT = 4  # Reef rule 6: at most 4 corals in a stack
CENTRE = (5, 6, 9, 10)  # B2, C2, B3, C3: the start cells (Reef rule 2)

Board = tuple[tuple[str, ...], ...]


def cell_name(cell: int) -> str:
    """A1 (top left) .. D4 (bottom right): the column letter, then the row number."""
    return f"{'ABCD'[cell % SIZE]}{cell // SIZE + 1}"


def _at(r: int, c: int) -> int | None:
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None


def _shapes(offsets: list[tuple[tuple[int, int], ...]]) -> tuple[tuple[int, ...], ...]:
    """Every placement on the board of each shape (given as (row, col) offsets), once each."""
    seen: set[frozenset[int]] = set()
    out = []
    for shape in offsets:
        for r in range(SIZE):
            for c in range(SIZE):
                cells = tuple(_at(r + dr, c + dc) for dr, dc in shape)
                if None in cells or frozenset(cells) in seen:
                    continue
                seen.add(frozenset(cells))  # type: ignore[arg-type]
                out.append(cells)
    return tuple(out)  # type: ignore[return-value]


SQUARES = _shapes([((0, 0), (0, 1), (1, 0), (1, 1))])
LINES = _shapes([((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (2, 0))])
DIAGONALS = _shapes([((0, 0), (1, 1), (2, 2)), ((0, 2), (1, 1), (2, 0))])
# The corner first: an L is a corner and one neighbour in each of two perpendicular directions.
ELLS = _shapes([((0, 0), (0, 1), (1, 0)), ((0, 1), (0, 0), (1, 1)), ((1, 0), (0, 0), (1, 1)),
                ((1, 1), (0, 1), (1, 0))])
ORTHOGONAL_PAIRS = _shapes([((0, 0), (0, 1)), ((0, 0), (1, 0))])
DIAGONAL_PAIRS = _shapes([((0, 0), (1, 1)), ((0, 1), (1, 0))])


def neighbours(cell: int) -> tuple[int, ...]:
    """The up to 8 cells around `cell` (Reef rule 8)."""
    r, c = divmod(cell, SIZE)
    out = (_at(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    return tuple(x for x in out if x is not None)


@dataclass(frozen=True)
class Score:
    """A card scored on a board: how many matches count, the points they give, and the cells of
    each counted match (for highest_surround: the centre, then the counted neighbours)."""

    count: int
    points: int
    matches: tuple[tuple[int, ...], ...]

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "points": self.points, "matches": [list(m) for m in self.matches]}


def matches(card: Card, board: Board) -> tuple[tuple[int, ...], ...]:
    """Every match of the card's pattern on the board (they may overlap). highest_surround has
    none: it counts neighbours instead (see surround)."""
    kind = card.kind
    fit_a = fitting(card.a, board)
    if kind == "single_stack":
        return tuple((i,) for i in range(CELLS) if fit_a >> i & 1)
    if kind in ("pair_orthogonal", "pair_diagonal"):
        assert card.b is not None
        fit_b = fitting(card.b, board)
        pairs = ORTHOGONAL_PAIRS if kind == "pair_orthogonal" else DIAGONAL_PAIRS
        return tuple((i, j) for i, j in pairs
                     if (fit_a >> i & 1 and fit_b >> j & 1) or (fit_a >> j & 1 and fit_b >> i & 1))
    return tuple(cells for cells, m in _SHAPE_MASKS[kind] if m & fit_a == m)


def fitting(spec: Spec, board: Board) -> int:
    """The cells (as a bit mask) whose stack fits `spec`."""
    out = 0
    for i, stack in enumerate(board):
        if spec.fits(stack):
            out |= 1 << i
    return out


def mask(cells: tuple[int, ...]) -> int:
    out = 0
    for c in cells:
        out |= 1 << c
    return out


_SHAPE_MASKS = {kind: tuple((cells, mask(cells)) for cells in shapes) for kind, shapes in (
    ("square_2x2", SQUARES), ("line3_orthogonal", LINES), ("line3_diagonal", DIAGONALS), ("L3", ELLS))}


def packing(found: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The largest set of matches that share no cell, the first such in the order of `found`."""
    masks = tuple(mask(m) for m in found)
    union = 0
    for m in masks:
        union |= m
    if union.bit_count() == sum(m.bit_count() for m in masks):
        return found  # no two share a cell: every match counts
    memo: dict[int, tuple[int, tuple[int, ...]]] = {}

    def best(free: int) -> tuple[int, tuple[int, ...]]:
        if free in memo:
            return memo[free]
        fitting = [i for i, m in enumerate(masks) if m & free == m]
        if not fitting:
            memo[free] = (0, ())
            return memo[free]
        union = 0
        for i in fitting:
            union |= masks[i]
        low = union & -union
        # The lowest covered cell is used by one of the matches that cover it, or by none.
        result = best(free & ~low)
        for i in fitting:
            if masks[i] & low:
                count, chosen = best(free & ~masks[i])
                if count + 1 > result[0]:
                    result = (count + 1, (i, *chosen))
        memo[free] = result
        return result

    _, chosen = best((1 << CELLS) - 1)
    return tuple(found[i] for i in sorted(chosen))


def surround(card: Card, board: Board) -> tuple[int, ...]:
    """Reef rule 8: the tallest stack topped by the centre colour (among equal ones the best
    count) and the neighbours topped by the other colour; () when no stack has the centre colour."""
    assert card.b is not None
    tops = [i for i in range(CELLS) if board[i] and board[i][-1] == card.a.top]
    if not tops:
        return ()
    tallest = max(len(board[i]) for i in tops)
    best: tuple[int, ...] = ()
    for centre in (i for i in tops if len(board[i]) == tallest):
        around = tuple(n for n in neighbours(centre) if board[n] and board[n][-1] == card.b.top)
        if not best or len(around) > len(best) - 1:
            best = (centre, *around)
    return best


def score(card: Card, board: Board) -> Score:
    """Reef rules 7-8: the card played on this board scores points x count."""
    return _score(card.n, board)


@lru_cache(maxsize=16384)
def _score(n: int, board: Board) -> Score:
    card = CARDS[n]
    if card.kind == "highest_surround":
        found = surround(card, board)
        count = max(len(found) - 1, 0)
        return Score(count, card.points * count, (found,) if count else ())
    chosen = packing(matches(card, board))
    return Score(len(chosen), card.points * len(chosen), chosen)


def hand_points(card: Card, board: Board) -> int:
    """Reef rule 10: a card left in hand scores its points once if it matches at least once."""
    return card.points if score(card, board).count >= 1 else 0


def with_coral(board: Board, cell: int, colour: str) -> Board:
    return tuple(stack + (colour,) if i == cell else stack for i, stack in enumerate(board))


def open_cells(board: Board) -> tuple[int, ...]:
    """Reef rule 6: a coral goes on an empty cell or on a stack lower than 4."""
    return tuple(i for i in range(CELLS) if len(board[i]) < MAX_HEIGHT)


def empty_cells(board: Board) -> int:
    return sum(1 for s in board if not s)


def full_stacks(board: Board) -> int:
    return sum(1 for s in board if len(s) == MAX_HEIGHT)


EMPTY_BOARD: Board = ((),) * CELLS
