"""Audience predictions: questions about a table that the hall answers on its own phones.

A question is made from a table's *public* view only, and its answer is read from a later
public view only (the one the projector shows, the reveal hold included), so nothing the hall
is asked or told holds anything the rules keep secret. Nothing an audience does ever reaches a
seat, the game's log or its state: predictions live beside the tables, not in them.

A game may offer its own questions (``Game.predictions``: public view -> questions, and
``Game.answer``: (key, params, public view) -> the right option values or None while unknown).
Every table with a result also gets the generic one, "who wins?", answered by its result
(``Game.questions`` and ``Game.right_answer`` put both together; this module knows no game).

A question stops taking predictions at the first of the table's events named by ``closes_on``
(None: any of the game's reveals) after it opened, before that event reaches any screen;
``RESULT`` there names the action that gives the table its result. The generic question closes
on its own subject: the match's result, or the game's events that make the winner known
before it (``Game.winner_known``); a program's when its next stage opens.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .decisions import Option
from .text import T

MIN_OPTIONS, MAX_OPTIONS = 2, 9
WINNER = "winner"
# In closes_on: the action that gives the table its result (the log marks it "over").
RESULT = "table.result"


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


def seat_options(view: Mapping[str, Any], seats: Iterable[int] | None = None) -> tuple[Option, ...]:
    """The table's seats (or only `seats`, in that order) as options: "1번 가람" / "1 가람"."""
    names = view["seats"]
    chosen = range(len(names)) if seats is None else seats
    return tuple(Option(i, T(f"{i + 1}번 {names[i]}", f"{i + 1} {names[i]}")) for i in chosen)


def winner(view: Mapping[str, Any], known: frozenset[str] = frozenset()) -> list[Prediction]:
    """Who wins this match (a program: the evening)? Asked while there is no result yet (of a
    game where one seat wins: Game.questions asks only those). `known`: the game's events that
    make the winner known before its result."""
    program = view["state"].get("program")
    if (view.get("result") is not None or not MIN_OPTIONS <= len(view["seats"]) <= MAX_OPTIONS
            # A program's match running now may show what decides the evening on its own table.
            or program and any(s["status"] == "open" for s in view["state"]["stages"])):
        return []
    title = view.get("stage") and view["stage"].get("title") or view["title"]
    duel = len(view["seats"]) == 2
    text = (T(f"{title['ko']}: 누가 이길까요?", f"{title['en']}: who wins?") if duel
            else T(f"{title['ko']}: 누가 1위를 할까요?", f"{title['en']}: who comes first?"))
    # It closes on its subject, the result, never at another reveal (a round's auction); where
    # a reveal gives the winner away before the result (Safari's last scoring comes before the
    # winner names an opponent) at that reveal. A program's winner is decided at a stage's own
    # table, whose result shows before the program confirms it: asked between matches only, it
    # closes when the next one opens.
    closes = frozenset({"StageOpened"}) if program else frozenset({RESULT}) | known
    return [Prediction(WINNER, text, seat_options(view), closes_on=closes)]


def winner_answer(view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The winner question's right values once the view has a result (a tie: each first place)."""
    result = view.get("result")
    if result is None:
        return None
    return tuple(s["seat"] for s in result["standings"] if s["rank"] == 1)
