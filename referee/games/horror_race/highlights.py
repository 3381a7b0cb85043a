"""Horror Race 2: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the finish: a stack passed the goal, the final places (Horror rules 5-6);
- the backings revealed with the points and seat ranks (Horror rule 6);
- a round's movement that changed the lead, more for each change within it (Horror rules 3-4:
  the zones move in order, a mover carries its stack and lands on top);
- any other round's movement, by the cells it covered, far below.

The leader is the character ranked first as Horror rule 6 ranks them: the top of the furthest
stack; nobody leads while every character stands at the start, so the first one to leave it
takes the lead without changing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from .state import START

FINISH = 100.0
BACKINGS = 90.0
LEAD = 20.0
CHANGE = 1.0  # per change of the lead within the round
CELL = 0.1  # per cell the round's movers covered, for a round that left the lead as it was


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "RaceFinished" in events and state.get("finish"):
        return FINISH
    if "BackingsRevealed" in events and state.get("revealed"):
        return BACKINGS
    played = state.get("newest_round")
    if "ZoneResolved" not in events or not played or not state.get("track"):
        return None
    moves = [m for m in played["moves"] if m.get("mover") is not None]
    if not moves:
        return None  # Horror rule 3: no zone had a single most: nobody moved
    leaders = [_leader(cells) for cells in _positions([list(c["stack"]) for c in state["track"]], moves)]
    changes = sum(1 for a, b in pairwise(leaders) if a is not None and b != a)
    if changes:
        return LEAD + CHANGE * changes
    return CELL * sum(_covered(m) for m in moves)


def _positions(after: list[list[str]], moves: Sequence[Mapping[str, Any]]) -> list[list[list[str]]]:
    """The track before the round's moves and after each of them, rebuilt backwards from the
    track after the round: each move's carried stack (bottom to top) leaves the top of where it
    landed and goes back on top of where it came from (Horror rule 4). A stack that passed the
    goal left the track (Horror rule 5): it stands on one cell beyond the last."""
    out = [after]
    cells = [list(stack) for stack in after]
    for move in reversed(moves):
        carried = list(move["carried"])
        if move["finished"]:
            out[-1] = out[-1] + [carried]  # the finish, ranked first: one cell beyond the track
        else:
            landed = cells[move["to"]]
            cells[move["to"]] = landed[: len(landed) - len(carried)]
        cells[move["from"]] = cells[move["from"]] + carried
        out.append([list(stack) for stack in cells])
    return list(reversed(out))


def _leader(cells: Sequence[Sequence[str]]) -> str | None:
    # Horror rule 6: by distance to the goal, within a stack top first; those at the start share.
    for cell in range(len(cells) - 1, START, -1):
        if cells[cell]:
            return cells[cell][-1]
    return None


def _covered(move: Mapping[str, Any]) -> int:
    return move["steps"] if move["finished"] else move["to"] - move["from"]
