"""Quattro: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- the final comparison (Quattro rule 5): the decision (a draw's resolution by the dealer, if
  any, follows it as the match's end, which a recap keeps anyway);
- an opening that was decisive: it ended a candidate's hope of a quattro (Quattro rule 5: four
  different colours and numbers), the more candidates the higher;
- then the closest openings: the opened cards' sums nearest, 1/(1+difference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import differs_from_all, number

DECISION = 100.0
OPENING = 10.0
DASHED = 5.0  # per candidate whose quattro became impossible with this opening (closeness adds at most 1)


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "HandsCompared" in events and state.get("comparison") is not None:
        return DECISION
    seats = state.get("seats") or []
    if "CardsOpened" not in events or not seats or not all(s.get("opened") for s in seats):
        return None
    opened = [list(s["opened"]) for s in seats]  # in the order they were opened
    dashed = sum(1 for cards in opened if _possible(cards[:-1]) and not _possible(cards))
    sums = [sum(number(c) for c in cards) for cards in opened]
    return OPENING + DASHED * dashed + 1 / (1 + abs(sums[0] - sums[1]))


def _possible(cards: Sequence[str]) -> bool:
    """Whether open cards can still be part of a quattro: each differs in colour and number
    from every card opened before it (Quattro rule 5; a 0 is its own colour and number)."""
    return all(differs_from_all(card, cards[:i]) for i, card in enumerate(cards))
