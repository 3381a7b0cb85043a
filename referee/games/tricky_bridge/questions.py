"""Tricky Bridge: the hall's own questions (referee.kernel.predictions), from the public view only.

- "survivors": who survives? Options: the four players; two right answers (Bridge rule 8: the
  two of the lowest bridge are out, the other two advance). Asked until the match ends; closes
  at the final scoring (BridgesScored). The final reveal of every bridge (BridgesRevealed,
  final) would give the answer away, but it is written by the same action as the scoring, so
  nothing public comes between them.
- "steel_big" / "steel_small" (params: round, room, its seats): in this round's big (small)
  room, who gets the steel (more of it, in a round with two or three)? Options: the room's two
  players and "nobody" (one steel: lost) or "the same". Asked while the room's contracts are
  sealed, in the rounds with steel (Bridge rule 3); closes at the first contracts reveal after it
  opened (an event type names no room, so the other room's reveal closes it too, early rather
  than late). Answered from the gains the reveal made public (Bridge rule 4). Counting all
  items would not do: each player wins the slots the other did not mark, as many either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import Option, T
from referee.kernel.predictions import Prediction, params, seat_options

from .state import CONTRACT, OVER, ROOM_LABELS, STEEL

SURVIVORS = "survivors"
STEEL_KEY = "steel_"  # + the room: "steel_big", "steel_small"
SAME = "same"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    state = view["state"]
    if state["step"] == OVER:
        return []
    out = [Prediction(SURVIVORS, T("누가 살아남을까요? (2명 진출)", "Who survives? (two advance)"), seat_options(view),
                      closes_on=frozenset({"BridgesScored"}))]
    if state["step"] == CONTRACT:
        r = state["round"]
        for room in state["rooms"]:
            steel = room["supply"][STEEL]
            if room["contract"] is not None or not steel:
                continue  # Bridge rule 4: revealed, the gains are public; rule 3: no steel this round
            label = ROOM_LABELS[room["room"]]
            text = (T(f"{r}라운드 {label.ko}: 철근은 누가 가져갈까요?", f"Round {r}, {label.en}: who gets the steel?")
                    if steel == 1 else
                    T(f"{r}라운드 {label.ko}: 철근을 누가 더 많이 가져갈까요?", f"Round {r}, {label.en}: who gets more steel?"))
            # Bridge rule 4: a slot marked by both or by neither is lost.
            none = T("아무도 (버려짐)", "Nobody (lost)") if steel == 1 else T("똑같이", "The same")
            out.append(Prediction(STEEL_KEY + room["room"], text, seat_options(view, room["seats"]) + (Option(SAME, none),),
                                  params(round=r, room=room["room"], seats=room["seats"]),
                                  frozenset({"ContractsRevealed"})))
    return out


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    state = view["state"]
    if key == SURVIVORS:
        # Bridge rule 8: the two who advance.
        return None if state["final"] is None else tuple(state["final"]["advance"])
    if not key.startswith(STEEL_KEY):
        return None
    # Bridge rule 4: what each player of the room won is public once the contracts are revealed.
    seats, r = given.get("seats"), given.get("round")
    gained = [_gained(state, seat, r) for seat in seats or ()]
    if len(gained) != 2 or None in gained:
        return None
    if gained[0] == gained[1]:
        return (SAME,)
    return (seats[0] if gained[0] > gained[1] else seats[1],)


def _gained(state: Mapping[str, Any], seat: Any, r: Any) -> int | None:
    if not isinstance(seat, int) or not 0 <= seat < len(state["seats"]):
        return None
    gains = next((g for g in state["seats"][seat]["gains"] if g["round"] == r), None)
    return None if gains is None else gains[STEEL]
