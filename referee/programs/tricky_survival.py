"""The Tricky Survival program (트리키 서바이벌), seed 000 section 2, under RULINGS.md "The Tricky
Survival program".

Rules (cited beside the code as "Survival rule N"):

1. Nine players. 1st battle: Tricky Gallery with all nine.
2. The top 4 of the Gallery ranking take key 1 and play Tricky Bridge on islands A-D in Gallery
   rank order (seat i = rank i+1). The Gallery ranking is the full one (Gallery rule 12: seats
   eliminated for fakes below the survivors), so should fewer than 4 survive, the next ranked
   fill the islands (the dealer may seat otherwise, with a reason).
3. The two Bridge survivors take key 2 and play Tricky Coin, the final; its winner takes the
   last key (key 3) and the golden key.
4. Option `event_match` (`off` by default; `on`): the 5 not in the top 4 play Tricky Safari,
   seated in Gallery rank order with their Gallery ranks as the tie-break (Safari option
   `gallery_ranks`); the Safari winner plays Tricky Coin against the opponent they named; the
   two out in Bridge play Tricky Coin for 3rd and 4th. There is no prize: no golden key (keys
   1-3 are still handed out as marks of progress).
5. Final places: 1-2 the final's winner and loser; 3-4 the Bridge losers (event match: by their
   Coin match; otherwise by Gallery rank); 5-9 the Gallery losers by Gallery rank, or in the
   event match the winner and loser of the Safari winner's Coin match 5th and 6th, then the
   other Safari players in Safari order (the Safari last is 9th).

Option `deal` (`referee` by default, or `dealer`) is handed to every match that has one.
Audience question: "누가 황금 열쇠를 가져갈까요?" (event match: "누가 우승할까요?"), among the four with
key 1, then the two finalists, asked until the final opens; besides the kernel's "who comes first?".
Secret: nothing of its own; each match keeps its own secrets. Public: every stage, its seating
and its confirmed result, the keys, who is out, the next match, the final standings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import OptionSpec, Result, Standing, T
from referee.kernel.predictions import Prediction, seat_options

from .base import Plan, ProgramState, Ready, Stage, program_game

PLAYERS = 9
TOP = 4
GALLERY, BRIDGE, SAFARI = "gallery", "bridge", "safari"
FINAL, THIRD, EVENT = "coin_final", "coin_third", "coin_event"
TITLES = {
    GALLERY: T("1차 배틀: 트리키 갤러리", "1st battle: Tricky Gallery"),
    BRIDGE: T("2차 배틀: 트리키 브릿지", "2nd battle: Tricky Bridge"),
    SAFARI: T("엑스트라 배틀: 트리키 사파리", "Extra battle: Tricky Safari"),
    FINAL: T("3차 배틀: 트리키 코인 결승", "3rd battle: Tricky Coin final"),
    THIRD: T("트리키 코인 3·4위전", "Tricky Coin for 3rd and 4th"),
    EVENT: T("트리키 코인: 엑스트라 배틀 우승자 매치", "Tricky Coin: the extra battle winner's match"),
}


def _event(state: ProgramState) -> bool:
    return state.option("event_match") == "on"


def _details(stage: Stage) -> dict[str, Any]:
    return (stage.result_map() or {}).get("details") or {}


def gallery_ranking(state: ProgramState) -> list[int] | None:
    """Every player, best Gallery rank first (Gallery rule 12: the full ranking)."""
    stage = state.confirmed(GALLERY)
    return None if stage is None else stage.by_rank()


def _bridge_split(state: ProgramState) -> tuple[list[int], list[int]] | None:
    """The Bridge survivors and the two out, each in the Bridge standings' order."""
    stage = state.confirmed(BRIDGE)
    if stage is None:
        return None
    details, order = _details(stage), stage.by_rank()
    advance = {stage.players[s] for s in details.get("advance", [])} or set(order[:2])
    return [p for p in order if p in advance], [p for p in order if p not in advance]


def _winner_and_loser(state: ProgramState, key: str) -> list[int] | None:
    stage = state.confirmed(key)
    return None if stage is None else stage.by_rank()


def ready(state: ProgramState) -> list[Ready]:
    out: list[Ready] = []
    deal = {"deal": state.option("deal")}
    if state.stage(GALLERY) is None:
        # Survival rule 1: all nine.
        out.append(Ready(GALLERY, "tricky_gallery", tuple(range(len(state.names))), deal,
                         T("출연자 9명 전원", "All nine players")))
        return out
    ranking = gallery_ranking(state)
    if ranking is None:
        return out
    if state.stage(BRIDGE) is None:
        # Survival rule 2: the top 4 on islands A-D in Gallery rank order.
        out.append(Ready(BRIDGE, "tricky_bridge", tuple(ranking[:TOP]), deal,
                         T("갤러리 1-4위가 A-D 섬으로 (순위 순서)", "Gallery ranks 1-4 on islands A-D, in rank order")))
    if _event(state) and state.stage(SAFARI) is None:
        # Survival rule 4: the other five, seated in Gallery rank order, ranks as tie-break.
        rest = tuple(ranking[TOP:])
        ranks = ",".join(str(ranking.index(p) + 1) for p in rest)
        out.append(Ready(SAFARI, "tricky_safari", rest, {**deal, "gallery_ranks": ranks},
                         T(f"갤러리 {TOP + 1}-{len(ranking)}위, 갤러리 순위 순서로 자리",
                           f"Gallery ranks {TOP + 1}-{len(ranking)}, seated in Gallery rank order")))
    split = _bridge_split(state)
    if split is not None:
        advance, out_of_bridge = split
        if state.stage(FINAL) is None:
            # Survival rule 3: the two Bridge survivors play the final.
            out.append(Ready(FINAL, "tricky_coin", tuple(advance), {},
                             T("브릿지 생존자 2명", "The two Bridge survivors")))
        if _event(state) and state.stage(THIRD) is None:
            out.append(Ready(THIRD, "tricky_coin", tuple(out_of_bridge), {},
                             T("브릿지 탈락자 2명: 3·4위전", "The two out in Bridge, for 3rd and 4th")))
    safari = state.confirmed(SAFARI)
    if safari is not None and state.stage(EVENT) is None:
        details = _details(safari)
        # Survival rule 4: the Safari winner against the opponent they named (Safari rule 5).
        pair = (safari.players[details["winner"]], safari.players[details["opponent"]])
        out.append(Ready(EVENT, "tricky_coin", pair, {},
                         T("사파리 우승자와 그가 지목한 상대", "The Safari winner and the opponent they named")))
    return out


def planned(state: ProgramState) -> tuple[str, ...]:
    return (GALLERY, BRIDGE, SAFARI, FINAL, THIRD, EVENT) if _event(state) else (GALLERY, BRIDGE, FINAL)


# The keys as the rules name them (Survival: Gallery rule 13, Bridge rule 12, Coin rule 13).
KEY_NAMES = {"1": T("첫 번째 열쇠", "the first key"), "2": T("두 번째 열쇠", "the second key"),
             "3": T("마지막 열쇠", "the last key"), "golden": T("황금 열쇠", "the golden key")}


def keys(state: ProgramState) -> dict[str, list[str]]:
    """Who holds which key: 1 (Gallery top 4), 2 (Bridge survivors), 3 and the golden key."""
    held: dict[str, list[str]] = {}
    ranking = gallery_ranking(state)
    for p in (ranking or [])[:TOP]:
        held.setdefault(str(p), []).append("1")
    split = _bridge_split(state)
    for p in (split[0] if split else []):
        held.setdefault(str(p), []).append("2")
    final = _winner_and_loser(state, FINAL)
    if final:
        held.setdefault(str(final[0]), []).append("3")
        if not _event(state):
            held[str(final[0])].append("golden")  # Survival rule 4: no prize in the event match
    return held


def eliminated(state: ProgramState) -> list[dict[str, Any]]:
    """Who went out, and where: Gallery's below the top four, Bridge's two losers. The final's
    loser is not out but second (준우승: runner_up)."""
    out = []
    ranking = gallery_ranking(state)
    for p in (ranking or [])[TOP:]:
        out.append({"player": p, "stage": GALLERY})
    split = _bridge_split(state)
    for p in (split[1] if split else []):
        out.append({"player": p, "stage": BRIDGE})
    return out


def final(state: ProgramState) -> Result | None:
    if any(state.confirmed(k) is None for k in planned(state)):
        return None
    ranking = gallery_ranking(state) or []
    coin_final = _winner_and_loser(state, FINAL) or []
    _advance, out_of_bridge = _bridge_split(state) or ([], [])
    if _event(state):
        # Survival rule 5, the event match.
        third = _winner_and_loser(state, THIRD) or []
        event = _winner_and_loser(state, EVENT) or []
        safari = state.confirmed(SAFARI)
        safari_order = [safari.players[s] for s in _details(safari).get("order", [])] if safari else []
        rest = [p for p in safari_order if p not in event]
        order = coin_final + third + event + rest
        decided = T("결승 승패, 3·4위전, 엑스트라 배틀 우승자 매치, 나머지는 사파리 순위",
                    "The final, the match for 3rd, the extra battle winner's match, then the Safari order")
    else:
        order = coin_final + sorted(out_of_bridge, key=ranking.index) + ranking[TOP:]
        decided = T("결승 승패, 브릿지 탈락자와 갤러리 탈락자는 갤러리 순위",
                    "The final; the Bridge and Gallery losers by Gallery rank")
    return Result(tuple(Standing(p, i + 1) for i, p in enumerate(order)), decided,
                  {"keys": keys(state), "golden_key": None if _event(state) else coin_final[0],
                   "event_match": _event(state)})


def board(state: ProgramState) -> dict[str, Any]:
    final = _winner_and_loser(state, FINAL)
    return {"keys": keys(state), "key_names": {k: t.to_json() for k, t in KEY_NAMES.items()},
            "eliminated": eliminated(state), "gallery_ranking": gallery_ranking(state),
            "event_match": _event(state), "winner": final[0] if final else None,
            "runner_up": final[1] if final else None}


# -- audience questions (referee.kernel.predictions), from the program's public view only -------------

GOLDEN_KEY = "golden_key"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    """Who takes the golden key (the event match has none: who wins the final)? Asked among the
    players still in the race for it, so never all nine (the kernel's "who comes first?" asks
    that): the four with key 1 until the Bridge result is confirmed (closing then: the field
    narrows), then the two finalists until the final opens (its Coin table shows the winner
    before the program confirms it)."""
    state = view["state"]
    stages = {s["key"]: s["status"] for s in state["stages"]}
    if state["final"] is not None or FINAL in stages or stages.get(GALLERY) != "confirmed":
        return []
    keys = state["board"]["keys"]
    # Survival rules 2-3: key 1 to the Gallery's top 4, key 2 to the two Bridge survivors.
    finalists = stages.get(BRIDGE) == "confirmed"
    still_in = sorted(int(p) for p, held in keys.items() if ("2" if finalists else "1") in held)
    text = (T("누가 우승할까요?", "Who wins the final?") if state["board"]["event_match"]
            else T("누가 황금 열쇠를 가져갈까요?", "Who takes the golden key?"))
    closes = "StageOpened" if finalists else "ResultConfirmed"
    return [Prediction(GOLDEN_KEY, text, seat_options(view, still_in), closes_on=frozenset({closes}))]


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    if key != GOLDEN_KEY:
        return None
    # Survival rule 3: the final's winner takes key 3 (and, outside the event match, the golden key).
    won = tuple(int(p) for p, held in view["state"]["board"]["keys"].items() if "3" in held)
    return won or None


PLAN = Plan(ready=ready, stage_titles=TITLES, board=board, final=final, planned=planned, predictions=predictions,
            answer=answer)

GAME = program_game(
    "tricky_survival",
    T("트리키 서바이벌", "Tricky Survival"),
    (PLAYERS, PLAYERS),
    PLAN,
    options=(
        OptionSpec("event_match", "off", ("off", "on"),
                   T("이벤트 매치: 탈락자 엑스트라 배틀과 3·4위전, 상품 없음", "Event match: the extra battles, no prize"),
                   words={"off": T("하지 않음 (우승자에게 황금 열쇠)", "No (the winner takes the golden key)"),
                          "on": T("함 (엑스트라 배틀과 3·4위전, 상품 없음)", "Yes (the extra battles and a third-place match, no prize)")}),
        OptionSpec("deal", "referee", ("referee", "dealer"),
                   T("각 경기의 분배: 심판 자동 또는 딜러 입력", "Each match's deal: by the referee or entered by the dealer")),
    ),
    default_seats=PLAYERS,
)
