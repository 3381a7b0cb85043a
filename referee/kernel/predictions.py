"""Audience predictions: questions about a table that the hall answers on its own phones.

A question is made from a table's *public* view only, and its answer is read from a later
public view only (the one the projector shows, the reveal hold included), so nothing the hall
is asked or told holds anything the rules keep secret. Nothing an audience does ever reaches a
seat, the game's log or its state: predictions live beside the tables, not in them.

A game may offer its own questions (``Game.predictions``: public view -> questions, and
``Game.answer``: (key, params, public view) -> the right option values or None while unknown).
Every table with a result also gets the generic one, "who wins?", answered by its result.

A question stops taking predictions at the first of the table's events named by ``closes_on``
(None: any of the game's reveals) after it opened, before that event reaches any screen.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .decisions import Option
from .text import T

if TYPE_CHECKING:
    from .game import Game

MIN_OPTIONS, MAX_OPTIONS = 2, 9
WINNER = "winner"


@dataclass(frozen=True)
class Prediction:
    """One question the staff can put to the hall about a table, as it stands now."""

    key: str  # the kind of question, e.g. "winner", "coin_round"
    text: T
    options: tuple[Option, ...]  # 2-9, values are JSON scalars
    params: str = "{}"  # what the answer reads (a round number), canonical JSON
    closes_on: frozenset[str] | None = None  # event types that close it (None: the game's reveals)

    def param_map(self) -> dict[str, Any]:
        return json.loads(self.params)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "text": self.text.to_json(), "options": [o.to_json() for o in self.options],
                "params": self.param_map(),
                "closes_on": None if self.closes_on is None else sorted(self.closes_on)}


def params(**values: Any) -> str:
    return json.dumps(values, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def seat_options(view: Mapping[str, Any]) -> tuple[Option, ...]:
    return tuple(Option(i, T(f"{i + 1}번 {name}", f"{i + 1} {name}")) for i, name in enumerate(view["seats"]))


def _winner(view: Mapping[str, Any]) -> list[Prediction]:
    """Who wins this match (a program: the evening)? Asked while there is no result yet."""
    if view.get("result") is not None or not MIN_OPTIONS <= len(view["seats"]) <= MAX_OPTIONS:
        return []
    title = view.get("stage") and view["stage"].get("title") or view["title"]
    text = T(f"{title['ko']}: 누가 1위를 할까요?", f"{title['en']}: who comes first?")
    # The winner is known at the result, never earlier: nothing before it closes the question
    # but the staff (or the result itself).
    return [Prediction(WINNER, text, seat_options(view), closes_on=frozenset())]


def ready(game: Game, view: Mapping[str, Any]) -> list[Prediction]:
    """The questions the staff may open now about a table (its public view)."""
    if not view.get("started") or view.get("finished"):
        return []
    own = game.predictions(view) if game.predictions is not None else []
    return own + _winner(view)


def answer(game: Game, key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The right option values of a question once the public view shows them, else None. A
    tie gives several right values (each of them scores)."""
    if key == WINNER:
        result = view.get("result")
        if result is None:
            return None
        return tuple(s["seat"] for s in result["standings"] if s["rank"] == 1)
    if game.answer is None:
        return None
    return game.answer(key, given, view)
