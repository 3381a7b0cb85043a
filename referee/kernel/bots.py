"""Random legal play, for bot matches and the contract tests.

A bot answers any pending decision with random values drawn from the decision's own legal
options, so it works for every game without game-specific code.
"""

from __future__ import annotations

import random
from typing import Any

from .actors import Actor
from .decisions import Decision, Field, Turn


def random_value(field: Field, rnd: random.Random) -> Any:
    match field.shape:
        case "one":
            return rnd.choice(field.options).value
        case "some":
            return [o.value for o in rnd.sample(field.options, field.k)]
        case "assign":
            return {str(item.value): rnd.choice(field.options).value for item in field.items}
        case "number":
            low = field.low if field.low is not None else 0
            high = field.high if field.high is not None else low + 10
            return rnd.randint(low, high)
        case _:
            return "bot"


def random_move(decision: Decision, rnd: random.Random) -> dict[str, Any]:
    move: dict[str, Any] = {"type": decision.move}
    for field in decision.fields:
        move[field.name] = random_value(field, rnd)
    return move


def actor_for(decision: Decision) -> Actor:
    return Actor.dealer() if decision.seat is None else Actor.of_seat(decision.seat)


def pick(turn: Turn, rnd: random.Random) -> tuple[Actor, dict[str, Any]] | None:
    """A random pending (non-automatic) decision and a random move for it; None if none."""
    open_decisions = [d for d in turn.decisions if not d.auto]
    if not open_decisions:
        return None
    decision = rnd.choice(open_decisions)
    return actor_for(decision), random_move(decision, rnd)
