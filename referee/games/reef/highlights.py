"""Reef: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the end: the cards left in hand scored and the final points (Reef rules 10-11);
- a played card's scoring (Reef rules 7-8), by the points it made; a card that scored nothing
  is no moment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

END = 1000.0  # above any one card's points


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "FinalScores" in events and state.get("final") is not None:
        return END
    scored = state.get("last_score")
    if "CardScored" in events and scored and scored.get("points", 0) > 0:
        return float(scored["points"])  # Reef rule 7: the card's points times its matches
    return None
