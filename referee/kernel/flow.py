"""What the rules do by themselves after a move: reveals, scoring, round ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .events import Event

S = TypeVar("S")


def with_consequences(state: S, events: list[Event], evolve: Callable[[S, Event], S],
                      consequence: Callable[[S], Event | None]) -> list[Event]:
    """`events`, followed by every event the rules then trigger by themselves.

    `consequence(state)` names the next automatic event of a state, or None when the state
    waits for a decision; it is asked again after each one, so a reveal can lead to a scoring
    that leads to a round's end, all as part of the move that caused them.
    """
    for event in events:
        state = evolve(state, event)
    out = list(events)
    while (follow := consequence(state)) is not None:
        out.append(follow)
        state = evolve(state, follow)
    return out

