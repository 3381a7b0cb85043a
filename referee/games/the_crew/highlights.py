"""The Crew: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the mission's end, success or failure (Crew rule 8);
- a trick that failed a task (Crew rule 4: its card won by another seat; rule 5: an order
  broken), the more tasks the higher;
- a trick that did a task (Crew rule 4: its holder won the trick with its card).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .state import DONE, FAILED, RUNNING

END = 100.0
FAILED_TASK = 50.0
DONE_TASK = 20.0
PER_TASK = 1.0  # a mission has at most 10 tasks: a trick that did tasks stays below one that failed one


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "MissionEnded" in events and state.get("status") not in (None, RUNNING):
        return END
    history = state.get("history") or []
    if "TrickWon" not in events or not history:
        return None
    trick = history[-1]["number"]  # the trick this frame closed
    settled = [t["status"] for t in state.get("tasks", ()) if t.get("trick") == trick]
    if FAILED in settled:
        return FAILED_TASK + PER_TASK * settled.count(FAILED)
    if DONE in settled:
        return DONE_TASK + PER_TASK * settled.count(DONE)
    return None
