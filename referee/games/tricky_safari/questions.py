"""Tricky Safari: the hall's own questions (referee.kernel.predictions), from the public view only.

- "top_animal": which animal ends with the highest sum? Options: the five animals (several
  right answers when tied at the top). Asked until round 5 is scored; closes at the next
  round's scoring (RoundScored: each round-end value is public and adds to the sums, Safari
  rule 4, so round 5's scoring gives the answer away before the final scoring shows it).
  Answered from the final scoring's animal sums.
- "opponent": whom does the winner name for Tricky Coin? Options: the seats that may be named
  (Safari rule 5: not the winner, not the last). Asked once the final scoring is shown, until
  the name is given; closes at OpponentNamed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import Option, T, josa
from referee.kernel.predictions import Prediction, seat_options

from .state import ANIMALS, ROUNDS, animal_label

TOP_ANIMAL, OPPONENT = "top_animal", "opponent"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    state = view["state"]
    out = []
    if len(state["history"]) < ROUNDS:
        options = tuple(Option(a, animal_label(a)) for a in ANIMALS)
        out.append(Prediction(TOP_ANIMAL, T("어느 동물이 가장 높은 합계로 끝날까요?", "Which animal ends with the highest sum?"),
                              options, closes_on=frozenset({"RoundScored"})))
    final = state["final"]
    if final is not None and state["opponent"] is None:
        # Safari rule 5: the winner names the opponent, not the last and not themself.
        named = [s for s in range(len(view["seats"])) if s not in (final["winner"], final["last"])]
        winner = seat_options(view, [final["winner"]])[0].label
        out.append(Prediction(OPPONENT, T(f"우승자 {josa(winner.ko, '은/는')} 트리키 코인 상대로 누구를 지목할까요?",
                                          f"Whom will the winner, {winner.en}, name for Tricky Coin?"),
                              seat_options(view, named), closes_on=frozenset({"OpponentNamed"})))
    return out


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    state = view["state"]
    if key == TOP_ANIMAL and state["final"] is not None:
        # Safari rule 4: the animals ranked by the sum of their round-end values.
        sums = state["final"]["sums"]
        best = max(sums.values())
        return tuple(a for a in ANIMALS if sums[a] == best)
    if key == OPPONENT and state["opponent"] is not None:
        return (state["opponent"],)
    return None
