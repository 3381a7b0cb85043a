"""Tricky Safari: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the named opponent (Safari rule 5: the winner names the Tricky Coin opponent);
- the final scoring: the animals' ranks, the bonuses, the totals (Safari rule 4);
- a round's scoring (Safari rule 3), higher where an animal's value swung most: the biggest
  change one played card made to an animal's value (Safari rule 2: the value becomes the
  card's number), then the widest range an animal's value covered in the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any

OPPONENT = 100.0
FINAL = 90.0
ROUND = 10.0
RANGE = 0.1  # a range of at most 5 adds less than one step of the biggest change


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "OpponentNamed" in events and state.get("opponent") is not None:
        return OPPONENT
    if "SafariScored" in events and state.get("final") is not None:
        return FINAL
    history = state.get("history") or []
    if "RoundScored" not in events or not history:
        return None
    scored = history[-1]  # the round this frame scored (its record joins the history with it)
    jump = spread = 0
    for animal, opened in scored["opened"].items():
        # Safari rule 2: a card opens at the round's start, then each card played sets the value.
        values = [opened] + [p["number"] for p in scored["plays"] if p["animal"] == animal]
        jump = max([jump] + [abs(b - a) for a, b in pairwise(values)])
        spread = max(spread, max(values) - min(values))
    return ROUND + jump + RANGE * spread
