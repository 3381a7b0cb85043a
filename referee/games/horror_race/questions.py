"""Horror Race 2: the hall's own questions (referee.kernel.predictions), from the public view only.

- "first_character": which character comes in first? Options: the five characters. Asked
  until the race ends; closes at the game's first reveal after it opened (None: the next zone
  that moves, so the hall predicts before the race moves again). Answered from the race's
  final character ranking (Horror rule 6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import Option, T
from referee.kernel.predictions import Prediction

from .state import OVER, REVEAL

FIRST_CHARACTER = "first_character"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    state = view["state"]
    # Horror rule 5: a move past the goal ends the race at once; then the places are known.
    if state["step"] in (REVEAL, OVER) or state["finish"]:
        return []
    options = tuple(Option(c["id"], T(c["label"]["ko"], c["label"]["en"])) for c in state["characters"])
    return [Prediction(FIRST_CHARACTER, T("어느 캐릭터가 1등으로 들어올까요?", "Which character comes in first?"), options)]


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    if key != FIRST_CHARACTER:
        return None
    # Horror rule 6: the stack that passed the goal ranks top first; place 1 is its top.
    first = tuple(r["character"] for r in view["state"]["ranking"] if r["place"] == 1)
    return first or None
