"""Clumsy Cats: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the end: the last score token taken, the points final (Cats rule 7);
- a lap completed (Cats rules 6-7: entering the start takes the next score token, worth 1 to
  10 points), by the points the frame's walk took; a turn that took no token is no moment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

END = 100.0  # above the tokens one walk can take (1 + 2 + ... + 10 = 55)
WALKS = ("Called", "WindowClosed")  # the events that carry a declaration out: the walk


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "GameEnded" in events and state.get("over"):
        return END
    declarations = state.get("declarations") or []
    if not any(kind in events for kind in WALKS) or not declarations:
        return None
    # Cats rule 6: the tokens taken in the turn whose declaration this frame carried out (the
    # newest in the view); the track says which turn took each token.
    turn = declarations[-1]["turn"]
    points = sum(t["token"] for t in state.get("track", ()) if t["seat"] is not None and t["turn"] == turn)
    return float(points) if points else None
