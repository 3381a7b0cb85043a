"""The Crew: the hall's own questions (referee.kernel.predictions), from the public view only.

- "mission": does this mission succeed? Options: 성공 / 실패. Asked until the mission ends;
  closes at the next card played (or trick won, or the end). Not only at TrickWon: the cards of
  a trick are public as they fall, so the trick that fails a task (Crew rule 4: its card won by
  another seat) can be read from the table before the referee closes it. Answered from the
  mission's outcome (Crew rule 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import Option, T
from referee.kernel.predictions import Prediction

from .state import OVER

MISSION = "mission"
SUCCESS, FAILURE = "success", "failure"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    state = view["state"]
    if state["phase"] == OVER:
        return []
    number = state["mission"]["id"]
    options = (Option(SUCCESS, T("성공", "Success")), Option(FAILURE, T("실패", "Failure")))
    return [Prediction(MISSION, T(f"이번 미션 성공할까요? (미션 {number})", f"Will this mission succeed? (mission {number})"),
                       options, closes_on=frozenset({"CardPlayed", "TrickWon", "MissionEnded"}))]


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    outcome = view["state"]["outcome"]
    if key != MISSION or outcome is None:
        return None
    # Crew rule 8: success when every task is done (and the mission's own condition holds).
    return (SUCCESS if outcome["success"] else FAILURE,)
