"""Horror Race 2: the state, its constants and the pure helpers of the race.

Everything here is pure and shared by the rules (decide/evolve) and the views: the track
(cells 0..12, each a stack bottom to top), a move with stacking and puddles (Horror rule 4),
the mover of a zone (Horror rule 3), the final places (Horror rule 6) and the scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from referee.kernel import T

# Horror rule 1: the five characters, in the fixed order used for the box and for displays.
CHARACTERS = ("vampire", "jiangshi", "gumiho", "mummy", "zombie")
NAMES = {
    "vampire": T("뱀파이어", "vampire"),
    "jiangshi": T("강시", "jiangshi"),
    "gumiho": T("구미호", "gumiho"),
    "mummy": T("미라", "mummy"),
    "zombie": T("좀비", "zombie"),
}
BACKED = 2  # Horror rule 1: each seat backs two characters
DRAWN = 3  # Horror rule 2: a turn draws three coins
ZONE_STEPS = (1, 2, 4)  # Horror rule 3: zone 1 moves 1 cell, zone 2 two, zone 3 four
ZONES = (1, 2, 3)
START = 0
LAST_CELL = 12  # Horror rule 5: cells 1..12; a move ending beyond 12 passes the goal
PUDDLES = (6, 11)  # Horror rule 4
POINTS = {1: 3, 2: 2, 3: 1}  # Horror rule 6: a backed character 1st, 2nd, 3rd scores 3, 2, 1

# Steps. "resolve" and "reveal" never outlast a decide: the rules drain them at once.
BACKING, CHOOSE, DRAW, PLACE, RESOLVE, REVEAL, OVER = "backing", "choose", "draw", "place", "resolve", "reveal", "over"
DRAW_ACTION, FORFEIT_ACTION = "draw", "forfeit"
PLAYERS, GUESTS = "players", "guests"

Cells = tuple[tuple[str, ...], ...]
START_CELLS: Cells = (CHARACTERS,) + ((),) * LAST_CELL


@dataclass(frozen=True)
class ZoneMove:
    """What one zone did at the end of a round (the projector animates these in order)."""

    zone: int
    steps: int
    counts: tuple[tuple[str, int], ...]  # characters with coins in the zone, in character order
    mover: str | None = None
    origin: int | None = None
    target: int | None = None  # the cell landed on; None when the move passed the goal
    carried: tuple[str, ...] = ()  # the moving stack, bottom (the mover) to top
    puddle: bool = False  # the move stopped on a puddle it would have passed
    finished: bool = False  # the move passed the goal

    def to_json(self) -> dict[str, Any]:
        return {
            "zone": self.zone,
            "steps": self.steps,
            "counts": dict(self.counts),
            "mover": self.mover,
            "from": self.origin,
            "to": "goal" if self.finished else self.target,
            "carried": list(self.carried),
            "puddle": self.puddle,
            "finished": self.finished,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> ZoneMove:
        finished = bool(data["finished"])
        return ZoneMove(
            zone=data["zone"],
            steps=data["steps"],
            counts=tuple((c, data["counts"][c]) for c in CHARACTERS if c in data["counts"]),
            mover=data["mover"],
            origin=data["from"],
            target=None if finished else data["to"],
            carried=tuple(data["carried"]),
            puddle=bool(data["puddle"]),
            finished=finished,
        )


@dataclass(frozen=True)
class Placement:
    """One seat's three coins of a round, each with its zone (public)."""

    seat: int
    coins: tuple[tuple[str, int], ...]  # (character, zone)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "coins": [{"character": c, "zone": z} for c, z in self.coins]}


@dataclass(frozen=True)
class RoundLog:
    round: int
    order: tuple[int, ...]
    forfeiter: int | None
    placements: tuple[Placement, ...]
    moves: tuple[ZoneMove, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "order": list(self.order),
            "forfeit": self.forfeiter,
            "placements": [p.to_json() for p in self.placements],
            "moves": [m.to_json() for m in self.moves],
        }


@dataclass(frozen=True)
class RaceState:
    seats: int
    deal: str = "referee"
    guests: tuple[int, ...] = ()  # 0-based seats of the guest group (option `groups`)
    step: str = BACKING
    backings: tuple[tuple[str, ...], ...] = ()  # per seat, () until submitted (secret)
    box: tuple[int, ...] = (0,) * len(CHARACTERS)  # coins in the box per character (dealer only)
    round: int = 0
    order: tuple[int, ...] = ()
    position: int = 0  # index in `order` of the seat whose turn it is
    forfeiter: int | None = None
    drawn: tuple[str, ...] = ()  # the coins the seat in turn has drawn, not yet placed
    placements: tuple[Placement, ...] = ()  # this round's
    cells: Cells = START_CELLS
    finish: tuple[str, ...] = ()  # the stack that passed the goal, bottom to top
    moves: tuple[ZoneMove, ...] = ()  # this round's resolved zones
    history: tuple[RoundLog, ...] = ()
    places: tuple[tuple[str, int], ...] = ()  # final places of the characters, best first
    points: tuple[int, ...] = ()  # per seat, after the reveal

    @property
    def in_turn(self) -> int | None:
        return self.order[self.position] if self.step in (CHOOSE, DRAW, PLACE) else None


# -- the box -------------------------------------------------------------------------------


def full_box(backings: Iterable[tuple[str, ...]]) -> tuple[int, ...]:
    """Horror rule 1: each seat's three coins it does not back go into the box."""
    backings = list(backings)
    backed = Counter(c for pair in backings for c in pair)
    return tuple(len(backings) - backed[c] for c in CHARACTERS)


def box_coins(box: tuple[int, ...]) -> list[str]:
    return [c for c, n in zip(CHARACTERS, box, strict=True) for _ in range(n)]


def take(box: tuple[int, ...], coins: Iterable[str]) -> tuple[int, ...]:
    out = Counter(coins)
    return tuple(n - out[c] for c, n in zip(CHARACTERS, box, strict=True))


def in_box(box: tuple[int, ...], coins: Iterable[str]) -> bool:
    want = Counter(coins)
    return all(want[c] <= n for c, n in zip(CHARACTERS, box, strict=True))


def canonical(coins: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(coins, key=CHARACTERS.index))


def legal_draws(box: tuple[int, ...]) -> list[tuple[str, ...]]:
    """Every multiset of three coins the box can give (the dealer's choices in `dealer` mode)."""
    return [combo for combo in combinations_with_replacement(CHARACTERS, DRAWN) if in_box(box, combo)]


def draw_value(coins: Iterable[str]) -> str:
    return ",".join(canonical(coins))


def draw_label(coins: Iterable[str]) -> T:
    coins = canonical(coins)
    return T(", ".join(NAMES[c].ko for c in coins), ", ".join(NAMES[c].en for c in coins))


# -- zones and moves -----------------------------------------------------------------------


def zone_counts(placements: Iterable[Placement], zone: int) -> tuple[tuple[str, int], ...]:
    counted = Counter(c for p in placements for c, z in p.coins if z == zone)
    return tuple((c, counted[c]) for c in CHARACTERS if counted[c])


def zone_mover(counts: Iterable[tuple[str, int]]) -> str | None:
    """Horror rule 3: the character with the most coins; if the most is tied, the next lower
    count held by exactly one character, and so on; None if no count is held alone. Characters
    with no coin are not in `counts` and so never move."""
    by_count: dict[int, list[str]] = {}
    for character, n in counts:
        if n > 0:
            by_count.setdefault(n, []).append(character)
    for n in sorted(by_count, reverse=True):
        if len(by_count[n]) == 1:
            return by_count[n][0]
    return None


def cell_of(cells: Cells, character: str) -> int:
    return next(i for i, stack in enumerate(cells) if character in stack)


def move(cells: Cells, mover: str, steps: int, zone: int, counts: tuple[tuple[str, int], ...]) -> tuple[Cells, ZoneMove]:
    """Move `mover` `steps` cells forward with everything on top of it (Horror rule 4).

    Returns the new cells and the record; when the move passes the goal the carried stack
    leaves the track (the caller ends the race, Horror rule 5).
    """
    origin = cell_of(cells, mover)
    stack = cells[origin]
    # Horror rule 6: characters at the start stand side by side; one leaving it moves alone.
    carried = (mover,) if origin == START else stack[stack.index(mover):]
    left = tuple(c for c in stack if c not in carried)
    target = origin + steps
    # Horror rule 4: a move that would pass a puddle stops on it.
    passed = [p for p in PUDDLES if origin < p < target]
    puddle = bool(passed)
    if passed:
        target = passed[0]
    # Horror rule 5: a move ending beyond cell 12 passes the goal.
    finished = target > LAST_CELL
    out = list(cells)
    out[origin] = left
    if not finished:
        # Horror rule 4: the moving stack lands on top of any stack at its destination.
        out[target] = cells[target] + carried
    record = ZoneMove(zone, steps, counts, mover, origin, None if finished else target, carried, puddle, finished)
    return tuple(out), record


# -- ranking and scores --------------------------------------------------------------------


def final_places(cells: Cells, finish: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Horror rule 6: the stack that passed ranks top first; then by distance to the goal,
    within a stack top first; those still at the start share the best place of their block."""
    out: list[tuple[str, int]] = []
    for character in reversed(finish):
        out.append((character, len(out) + 1))
    for cell in range(LAST_CELL, START, -1):
        for character in reversed(cells[cell]):
            out.append((character, len(out) + 1))
    shared = len(out) + 1
    out.extend((character, shared) for character in cells[START])
    return tuple(out)


def seat_points(backings: tuple[tuple[str, ...], ...], places: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """Horror rule 6: a backed character 1st, 2nd, 3rd scores 3, 2, 1."""
    place = dict(places)
    return tuple(sum(POINTS.get(place[c], 0) for c in pair) for pair in backings)


def group_of(state: RaceState, seat: int) -> str:
    return GUESTS if seat in state.guests else PLAYERS


def seat_ranks(state: RaceState) -> tuple[int, ...]:
    """Horror rule 6: by points within each group; equal points share the better rank."""
    return tuple(
        1 + sum(1 for other in range(state.seats)
                if group_of(state, other) == group_of(state, seat) and state.points[other] > state.points[seat])
        for seat in range(state.seats)
    )


# -- the `groups` option -------------------------------------------------------------------

MAX_SEATS = 12


def parse_groups(value: Any) -> tuple[int, ...] | None:
    """``"none"`` -> (); ``"guests:9,10"`` -> the 1-based guest seats (9, 10); else None."""
    if value == "none":
        return ()
    if not isinstance(value, str) or not value.startswith("guests:"):
        return None
    parts = value[len("guests:"):].split(",")
    if not all(p.strip().isdigit() for p in parts):
        return None
    seats = tuple(int(p) for p in parts)
    if len(set(seats)) != len(seats) or not all(1 <= s <= MAX_SEATS for s in seats):
        return None
    return tuple(sorted(seats))


def groups_allowed(value: Any, seats: int | None) -> bool:
    """The `groups` option's values: "none", or "guests:" and 1-based seats of the table."""
    guests = parse_groups(value)
    return guests is not None and (seats is None or all(s <= seats for s in guests))
