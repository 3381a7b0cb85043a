"""Tricky Bridge: the state of a match and the pure helpers the rules and views share.

Everything here is data or arithmetic over data: no decisions, no events. Rule citations
("Bridge rule N") use the numbering of RULINGS.md "Tricky Bridge".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.kernel import T

SEATS = 4
ROUNDS = 6
SLOTS = 6  # Bridge rule 4: six numbered slots per room
MARKS = 3  # Bridge rule 4: each player marks exactly 3

# Bridge rule 1: islands A-D are the Gallery ranks 1-4, so seat i is island "ABCD"[i]; the six
# bridges are all pairs.
ISLANDS = "ABCD"
BRIDGES = ("AB", "AC", "AD", "BC", "BD", "CD")

STEEL, BRICK, PAINT = "steel", "brick", "paint"
KINDS = (STEEL, BRICK, PAINT)
KIND_LABELS = {STEEL: T("철근", "steel"), BRICK: T("벽돌", "brick"), PAINT: T("페인트", "paint")}
# Bridge rule 7: 100 per set, and per leftover steel 3, brick 2, paint 1.
SET_POINTS = 100
LEFTOVER_POINTS = {STEEL: 3, BRICK: 2, PAINT: 1}

# Bridge rule 3 (seed 4.2): the six items of each round, the same at both tables:
# (steel, brick, paint). Over six rounds: 8 steel, 12 brick, 16 paint per table (seed 4.1.8).
SUPPLY = ((1, 1, 4), (0, 3, 3), (1, 2, 3), (2, 3, 1), (1, 3, 2), (3, 0, 3))

BIG, SMALL = "big", "small"
ROOMS = (BIG, SMALL)
ROOM_LABELS = {BIG: T("대회의실", "big room"), SMALL: T("소회의실", "small room")}

# Bridge rule 2: a pairing names the pair in the big room, then the pair in the small room.
PAIRINGS = ("AB|CD", "CD|AB", "AC|BD", "BD|AC", "AD|BC", "BC|AD")
DEFAULT_SCHEDULE = "AB|CD,AC|BD,AD|BC,AB|CD,AC|BD,AD|BC"

# The table options (see the package docstring).
DEAL_REFEREE, DEAL_DEALER = "referee", "dealer"
TIE_PLAYERS, TIE_BRIDGE = "players", "bridge"

# Steps of a match. ENDED is transient inside one decide: a round's last distribution is in and
# the rules announce what follows (the round-3 reveal, the next round, the final scoring).
ROOMS_STEP, CONTRACT, DISTRIBUTE, ENDED, OVER = "rooms", "contract", "distribute", "ended", "over"

# Bridge rule 6: the round after which every bridge's contents become public.
REVEAL_ROUND = 3

Counts = tuple[int, int, int]  # (steel, brick, paint)


@dataclass(frozen=True)
class Room:
    """One meeting room of a round: its two players (in seat order), the six slots once laid,
    and each player's three marked slots (secret until both are in, Bridge rule 4)."""

    name: str
    seats: tuple[int, int]
    slots: tuple[str, ...] | None = None
    marks: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)
    revealed: bool = False


@dataclass(frozen=True)
class Placed:
    """One gained item on a bridge (Bridge rule 5): who placed it, in which round, from which
    slot. Secret to the placer until the round-3 reveal (rounds 1-3) or the end (rounds 4-6)."""

    round: int
    seat: int
    slot: int
    kind: str
    bridge: str


@dataclass(frozen=True)
class RoundRecord:
    round: int
    pairing: str
    rooms: tuple[Room, ...]


@dataclass(frozen=True)
class BridgeState:
    names: tuple[str, ...] = ()
    deal_mode: str = DEAL_REFEREE
    schedule: tuple[str, ...] = tuple(DEFAULT_SCHEDULE.split(","))
    bridge_tie: str = TIE_PLAYERS
    round: int = 1
    step: str = ROOMS_STEP
    pairing: str | None = None
    rooms: tuple[Room, ...] = ()
    placed: tuple[bool, ...] = (False,) * SEATS  # who has distributed this round
    items: tuple[Placed, ...] = ()
    history: tuple[RoundRecord, ...] = ()
    shown_round: int | None = None  # the round after which the bridges were last made public
    shown: tuple[Counts, ...] | None = None  # per bridge (BRIDGES order), as made public
    out: tuple[int, ...] = ()
    advance: tuple[int, ...] = ()


# -- small helpers ---------------------------------------------------------------------------


def replace_at(values: tuple, index: int, value: object) -> tuple:
    return tuple(value if i == index else v for i, v in enumerate(values))


def island(seat: int) -> str:
    return ISLANDS[seat]


def bridge_seats(bridge: str) -> tuple[int, int]:
    return ISLANDS.index(bridge[0]), ISLANDS.index(bridge[1])


def own_bridges(seat: int) -> tuple[str, ...]:
    """Bridge rule 1: the three bridges of a seat's island."""
    return tuple(b for b in BRIDGES if island(seat) in b)


def other_end(bridge: str, seat: int) -> int:
    a, b = bridge_seats(bridge)
    return b if seat == a else a


def supply(round_: int) -> Counts:
    return SUPPLY[round_ - 1]


def as_dict(counts: Counts) -> dict[str, int]:
    return dict(zip(KINDS, counts, strict=True))


def count(kinds: Any) -> Counts:
    listed = list(kinds)
    return (listed.count(STEEL), listed.count(BRICK), listed.count(PAINT))


def add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def supply_items(round_: int) -> list[str]:
    """Bridge rule 3: the six items of a round, steel first."""
    s, b, p = supply(round_)
    return [STEEL] * s + [BRICK] * b + [PAINT] * p


# -- pairings and the schedule (Bridge rule 2) ----------------------------------------------


def parse_pairing(text: Any) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """"AB|CD" -> ((0, 1), (2, 3)): the big room's pair, then the small room's. Letters in a pair
    may come in any order and either case; None when it is not a split of A-D into two pairs."""
    if not isinstance(text, str):
        return None
    parts = text.strip().upper().split("|")
    if len(parts) != 2 or any(len(p) != 2 for p in parts):
        return None
    letters = parts[0] + parts[1]
    if sorted(letters) != list(ISLANDS):
        return None
    big = tuple(sorted(ISLANDS.index(c) for c in parts[0]))
    small = tuple(sorted(ISLANDS.index(c) for c in parts[1]))
    return (big[0], big[1]), (small[0], small[1])


def pairing_text(big: tuple[int, int], small: tuple[int, int]) -> str:
    return f"{island(big[0])}{island(big[1])}|{island(small[0])}{island(small[1])}"


def canonical_pairing(text: Any) -> str | None:
    parsed = parse_pairing(text)
    return None if parsed is None else pairing_text(*parsed)


def parse_schedule(value: Any) -> tuple[str, ...] | None:
    """The `schedule` option: six pairings separated by commas, one per round."""
    if not isinstance(value, str):
        return None
    parts = [canonical_pairing(p) for p in value.split(",")]
    if len(parts) != ROUNDS or None in parts:
        return None
    return tuple(p for p in parts if p is not None)


def schedule_allowed(value: Any, seats: int | None) -> bool:
    return parse_schedule(value) is not None


# -- the contract (Bridge rule 4) -------------------------------------------------------------


@lru_cache(maxsize=4096)
def contract(room: Room) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]]:
    """Bridge rule 4: a slot marked by exactly one player goes to that player; marked by both or
    by neither, it is lost. Returns (the slots each player wins, the lost slots)."""
    a, b = (set(m or ()) for m in room.marks)
    won = (tuple(sorted(a - b)), tuple(sorted(b - a)))
    lost = tuple(s for s in range(1, SLOTS + 1) if s not in a ^ b)
    return won, lost


def room_of(state: BridgeState, seat: int) -> Room | None:
    return next((r for r in state.rooms if seat in r.seats), None)


def gained(state: BridgeState, seat: int) -> tuple[tuple[int, str], ...]:
    """The (slot, kind) items `seat` won this round, once its room's contracts are revealed."""
    return _gained(state.rooms, seat)


@lru_cache(maxsize=4096)
def _gained(rooms: tuple[Room, ...], seat: int) -> tuple[tuple[int, str], ...]:
    room = next((r for r in rooms if seat in r.seats), None)
    if room is None or not room.revealed or room.slots is None:
        return ()
    won, _ = contract(room)
    slots = room.slots
    return tuple((s, slots[s - 1]) for s in won[room.seats.index(seat)])


def owes_placement(state: BridgeState, seat: int) -> bool:
    """Bridge rule 5: a seat that gained something this round owes its distribution; a seat that
    gained nothing owes nothing."""
    return state.step == DISTRIBUTE and not state.placed[seat] and bool(gained(state, seat))


def placing(state: BridgeState) -> tuple[int, ...]:
    """The seats that gained something this round (and so distribute), in seat order."""
    return tuple(s for s in range(SEATS) if gained(state, s))


# -- bridge contents -------------------------------------------------------------------------


def contents(items: tuple[Placed, ...], bridge: str, seat: int | None = None, after: int = 0) -> Counts:
    """What lies on `bridge`: everything, or only what `seat` placed; only rounds after `after`."""
    return count(i.kind for i in items if i.bridge == bridge and (seat is None or i.seat == seat) and i.round > after)


def known_contents(state: BridgeState, seat: int, bridge: str) -> Counts:
    """What `seat` knows to lie on its own `bridge`: its own placements until round 3's reveal;
    then the revealed contents plus its own later placements; everything at the end."""
    if state.step == OVER or state.shown_round == ROUNDS:
        return contents(state.items, bridge)
    mine_after = contents(state.items, bridge, seat, after=state.shown_round or 0)
    if state.shown is None:
        return mine_after
    return add(state.shown[BRIDGES.index(bridge)], mine_after)


def distributions(items: tuple[Placed, ...]) -> list[dict[str, Any]]:
    """Every distribution, round by round and seat by seat: what each seat added to each of its
    bridges (secret until the reveals; all of it public at the end)."""
    out = []
    for r in sorted({i.round for i in items}):
        for seat in sorted({i.seat for i in items if i.round == r}):
            mine = [i for i in items if i.round == r and i.seat == seat]
            added = {b: as_dict(count(i.kind for i in mine if i.bridge == b)) for b in own_bridges(seat)}
            out.append({"round": r, "seat": seat, "added": added})
    return out


# -- scoring (Bridge rule 7) -------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """The best score of a bridge's contents: the exchanges made (2 paint -> 1 brick, 2 brick ->
    1 steel), the full sets, the leftovers and the points."""

    contents: Counts
    paint_to_brick: int
    brick_to_steel: int
    sets: int
    leftover: Counts
    points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "contents": as_dict(self.contents),
            "exchanges": {"paint_to_brick": self.paint_to_brick, "brick_to_steel": self.brick_to_steel},
            "sets": self.sets,
            "leftover": as_dict(self.leftover),
            "score": self.points,
        }


def value(steel: int, brick: int, paint: int) -> tuple[int, int, Counts]:
    """Bridge rule 7 without exchanges: (points, sets, leftovers)."""
    sets = min(steel, brick, paint)
    left = (steel - sets, brick - sets, paint - sets)
    points = SET_POINTS * sets + sum(LEFTOVER_POINTS[k] * n for k, n in zip(KINDS, left, strict=True))
    return points, sets, left


@lru_cache(maxsize=4096)
def score(counts: Counts) -> Score:
    """Bridge rule 7: the maximum over any number of exchanges (2 paint -> 1 brick, 2 brick -> 1
    steel, never back) of 100 per set plus 3 / 2 / 1 per leftover steel / brick / paint.

    Any sequence of exchanges ends in a state fixed by how many of each were made: x paint ->
    brick and y brick -> steel. Such a state is reachable exactly when doing the x first leaves
    bricks enough for the y (y <= (brick + x) // 2), so trying every (x, y) tries every sequence.
    Among equal best scores the fewest exchanges are shown (then the fewest paint -> brick).

    Worked by hand (the seed's examples):
    - (0, 3, 2): as it is, no set: 3 bricks x 2 + 2 paint x 1 = 8. Exchange 2 bricks for a steel:
      (1, 1, 2) is one set and one paint left: 100 + 1 = 101, the best (two sets would need at
      least 3 steel-worth of bricks more).
    - (0, 0, 8): exchange 6 paint for 3 bricks, then 2 of those bricks for a steel: (1, 1, 2), one
      set and one paint left: 101. Two sets need 2 x (4 + 2 + 1) = 14 paint.
    """
    steel, brick, paint = counts
    best: tuple[tuple[int, int, int], Score] | None = None
    for x in range(paint // 2 + 1):
        for y in range((brick + x) // 2 + 1):
            points, sets, left = value(steel + y, brick + x - 2 * y, paint - 2 * x)
            key = (points, -(x + y), -x)
            if best is None or key > best[0]:
                best = (key, Score(counts, x, y, sets, left, points))
    assert best is not None
    return best[1]


def scores_of(items: tuple[Placed, ...]) -> dict[str, Score]:
    return {b: score(contents(items, b)) for b in BRIDGES}


# -- who is out (Bridge rule 8) ----------------------------------------------------------------


def lowest_bridges(points: dict[str, int]) -> tuple[str, ...]:
    low = min(points.values())
    return tuple(b for b in BRIDGES if points[b] == low)


def eliminated(points: dict[str, int], tie: str) -> tuple[int, ...]:
    """Bridge rule 8: the two players of the lowest bridge are out. Several bridges tied for the
    lowest: option `players` (default) puts out the two players on those bridges with the worse
    Gallery ranks (seat order is Gallery rank order); option `bridge` puts out both players of the
    tied bridge whose better endpoint has the worse Gallery rank (equal better endpoints: the
    bridge whose other endpoint is worse)."""
    lowest = lowest_bridges(points)
    if len(lowest) == 1:
        return bridge_seats(lowest[0])
    if tie == TIE_PLAYERS:
        players = sorted({s for b in lowest for s in bridge_seats(b)})
        return tuple(players[-2:])
    return bridge_seats(max(lowest, key=bridge_seats))


def seat_totals(points: dict[str, int]) -> tuple[int, ...]:
    """Each seat's three bridges' points added up (the standings' score)."""
    return tuple(sum(points[b] for b in own_bridges(s)) for s in range(SEATS))


def ranking(points: dict[str, int], out: tuple[int, ...]) -> tuple[int, ...]:
    """Every seat, best first: the two survivors, then the two out; within each pair by the
    seat's three bridges' points added up, then by Gallery rank (seat order)."""
    totals = seat_totals(points)
    survivors = sorted((s for s in range(SEATS) if s not in out), key=lambda s: (-totals[s], s))
    losers = sorted(out, key=lambda s: (-totals[s], s))
    return tuple(survivors) + tuple(losers)


# -- labels --------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def seat_label_of(name: str | None, seat: int) -> T:
    """"1번 김민준(A)" / "1 Kim Minjun (A)": the seat number everyone uses, the name, the island."""
    if not name:
        return T(f"{seat + 1}번({island(seat)})", f"{seat + 1} ({island(seat)})")
    return T(f"{seat + 1}번 {name}({island(seat)})", f"{seat + 1} {name} ({island(seat)})")


def seat_label(state: BridgeState, seat: int) -> T:
    return seat_label_of(state.names[seat] if seat < len(state.names) else None, seat)


def kind_label(kind: str) -> T:
    return KIND_LABELS[kind]


def room_label(room: str) -> T:
    return ROOM_LABELS[room]


def pairing_label(names: tuple[str, ...], pairing: str) -> T:
    parsed = parse_pairing(pairing)
    assert parsed is not None
    big, small = parsed

    def pair(seats: tuple[int, int], lang: str) -> str:
        return " · ".join(getattr(seat_label_of(names[s] if s < len(names) else None, s), lang) for s in seats)

    return T(f"대회의실 {pair(big, 'ko')} / 소회의실 {pair(small, 'ko')}",
             f"big room {pair(big, 'en')} / small room {pair(small, 'en')}")
