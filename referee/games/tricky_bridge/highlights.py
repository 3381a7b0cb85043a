"""Tricky Bridge: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the final scoring: every bridge's score, the lowest, who is out (Bridge rules 7-8);
- the bridges' reveal after round 3 (Bridge rule 6);
- a round's contracts once both rooms are revealed (Bridge rule 4), higher where one player won
  more: the items a player won, valued as rule 7 values leftovers (steel 3, brick 2, paint 1).

A round's contracts are scored at the frame that shows both rooms (the second reveal): the first
room's frame alone would count the same win twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .state import KINDS, LEFTOVER_POINTS

FINAL = 100.0
BRIDGES = 60.0
CONTRACTS = 10.0


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "BridgesScored" in events and state.get("final") is not None:
        return FINAL  # Bridge rules 7-8: the scores, the lowest bridge, its two players out
    if "BridgesRevealed" in events and state.get("revealed_round") is not None and state.get("final") is None:
        return BRIDGES  # Bridge rule 6: after round 3 every bridge's contents become public
    if "ContractsRevealed" in events:
        # A reveal that ends the round at once (nobody gained anything to place) shows the round
        # already moved on: its contracts are in the newest round's record.
        rooms = state.get("rooms") or (state.get("newest_round") or {}).get("rooms") or []
        if not rooms or any(room.get("contract") is None for room in rooms):
            return None  # the round's other room is still sealed
        # Bridge rule 4: a slot marked by exactly one player goes to that player.
        best = max(sum(LEFTOVER_POINTS[k] * gain[k] for k in KINDS)
                   for room in rooms for gain in room["contract"]["gains"])
        return CONTRACTS + best
    return None
