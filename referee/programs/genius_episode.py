"""A Genius episode (더 지니어스, seed 001): Horror Race 2 as the main match, then Quattro as the
death match.

Rules (cited beside the code as "Episode rule N"):

1. Every player races (2-12, 10 by default), seated 1..N by lottery (the referee draws as the
   program starts, in the program's log, so every screen and the run sheet preview the seating
   the race opens with; a lottery held at the table is entered by the dealer as another seating,
   with its reason).
   Option `guests` names players (numbers from 1) who race as guests: Horror Race ranks them in
   their own group (its option `groups`), and they are never candidates.
2. The lowest scorer of the main match among the players who are not guests becomes the
   elimination candidate. Several lowest: the dealer breaks the tie (RULINGS Horror Race 6),
   and the log records it.
3. The candidate names the death-match opponent on their phone (or the dealer for them): any
   other player who is not a guest.
4. Quattro with the candidate in seat 1 and the opponent in seat 2; the loser is eliminated.
5. The evening's standings: the main match's points (equal points share a place), except that
   the eliminated player is last.

Option `deal` (`referee` by default, or `dealer`) is handed to both matches.
Audience question: "누가 탈락할까요?" (the players who can still be eliminated, at most 9; then the
candidate and the opponent), asked until the death match opens; besides the kernel's "who wins?".
Secret: nothing of its own (each match keeps its own). Public: the seating, the candidate and
how the tie was broken, the named opponent, the results, who is eliminated.

Error codes: episode/not_a_candidate, episode/bad_opponent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import Actor, Decision, Event, Field, Option, OptionSpec, Result, Rng, Standing, T, require
from referee.kernel.predictions import Prediction, seat_options

from .base import Plan, ProgramState, Ready, player_label, program_game, remember

RACE, DEATH = "main_match", "death_match"
TITLES = {
    RACE: T("메인 매치: 호러 레이스2", "Main match: Horror Race 2"),
    DEATH: T("데스 매치: 콰트로", "Death match: Quattro"),
}


def guests(state: ProgramState) -> set[int]:
    text = str(state.option("guests") or "").strip()
    return {int(x) - 1 for x in text.split(",") if x.strip()} if text and text != "none" else set()


def guests_allowed(value: Any, players: int | None) -> bool:
    if value in ("", "none"):
        return True
    try:
        numbers = [int(x) for x in str(value).split(",")]
    except ValueError:
        return False
    limit = players or 12
    return len(set(numbers)) == len(numbers) and all(1 <= n <= limit for n in numbers) and len(numbers) < limit - 1


def points(state: ProgramState) -> dict[int, int] | None:
    stage = state.confirmed(RACE)
    if stage is None:
        return None
    result = stage.result_map() or {}
    return {stage.players[s["seat"]]: s["score"] for s in result["standings"]}


def lowest(state: ProgramState) -> list[int]:
    """Episode rule 2: the players who are not guests with the fewest points."""
    scores = points(state)
    if scores is None:
        return []
    eligible = {p: v for p, v in scores.items() if p not in guests(state)}
    least = min(eligible.values())
    return sorted(p for p, v in eligible.items() if v == least)


def candidate(state: ProgramState) -> int | None:
    tied = lowest(state)
    if len(tied) == 1:
        return tied[0]
    return state.record("candidate")


def ready(state: ProgramState) -> list[Ready]:
    if state.stage(RACE) is None:
        # Episode rule 1: everyone races, seats by lottery.
        return [Ready(RACE, "horror_race", tuple(range(len(state.names))), {"deal": state.option("deal")},
                      T("추첨으로 1번부터 자리", "Seats 1.. by lottery"), lottery=True)]
    chosen, opponent = candidate(state), state.record("opponent")
    if chosen is not None and opponent is not None and state.stage(DEATH) is None:
        # Episode rule 4: the candidate in seat 1, the named opponent in seat 2.
        return [Ready(DEATH, "quattro", (chosen, opponent), {"deal": state.option("deal")},
                      T("탈락 후보와 지목된 상대", "The candidate and the named opponent"))]
    return []


def seated_options(state: ProgramState, ready_stage: Ready, players: tuple[int, ...]) -> dict[str, Any]:
    options = dict(ready_stage.options)
    if ready_stage.key == RACE:
        seats = sorted(players.index(p) + 1 for p in guests(state) if p in players)
        options["groups"] = "guests:" + ",".join(map(str, seats)) if seats else "none"
    return options


def decisions(state: ProgramState) -> list[Decision]:
    tied = lowest(state)
    if len(tied) > 1 and state.record("candidate") is None:
        # Episode rule 2: the dealer breaks a tie for the lowest score.
        return [Decision("break_tie", T("최저 점수 동점: 탈락 후보를 정하세요", "Lowest score tied: choose the candidate"),
                         (Field("candidate", "one", T("탈락 후보", "Candidate"),
                                tuple(Option(p, player_label(state.names, p)) for p in tied), kind="player"),))]
    chosen = candidate(state)
    if chosen is not None and state.record("opponent") is None:
        # Episode rule 3: the candidate names the opponent (on the phone, or the dealer for them).
        options = tuple(Option(p, player_label(state.names, p)) for p in range(len(state.names))
                        if p != chosen and p not in guests(state))
        return [Decision("name_opponent", T("데스 매치 상대를 지목하세요", "Name your death-match opponent"),
                         (Field("opponent", "one", T("상대", "Opponent"), options, kind="player"),), seat=chosen)]
    return []


def decide(state: ProgramState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    match move["type"]:
        case "break_tie":
            require(move["candidate"] in lowest(state), "episode/not_a_candidate",
                    f"최저 점수 동점자가 아닙니다: {move['candidate']!r}", f"Not tied for the lowest: {move['candidate']!r}")
            return [Event("TieBroken", {"tied": lowest(state), "candidate": move["candidate"]})]
        case _:  # name_opponent
            opponent = move["opponent"]
            require(opponent != candidate(state) and opponent not in guests(state), "episode/bad_opponent",
                    f"지목할 수 없는 상대입니다: {opponent!r}", f"That opponent cannot be named: {opponent!r}")
            return [Event("OpponentNamed", {"candidate": candidate(state), "opponent": opponent})]


def evolve(state: ProgramState, event: Event) -> ProgramState:
    match event.type:
        case "TieBroken":
            return remember(state, "candidate", event["candidate"])
        case "OpponentNamed":
            return remember(state, "opponent", event["opponent"])
    return state


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    match event["type"]:
        case "TieBroken":
            who = player_label(names, event["candidate"])
            return T(f"딜러가 동점을 깨고 탈락 후보로 {who.ko} 지정", f"The dealer broke the tie: {who.en} is the candidate")
        case "OpponentNamed":
            a, b = player_label(names, event["candidate"]), player_label(names, event["opponent"])
            return T(f"{a.ko}: 데스 매치 상대로 {b.ko} 지목", f"{a.en} named {b.en} for the death match")
    return None


def eliminated_player(state: ProgramState) -> int | None:
    stage = state.confirmed(DEATH)
    return None if stage is None else stage.by_rank()[-1]


def final(state: ProgramState) -> Result | None:
    out = eliminated_player(state)
    scores = points(state)
    if out is None or scores is None:
        return None
    # Episode rule 5: points, equal points sharing a place; the eliminated player last.
    rest = sorted((p for p in scores if p != out), key=lambda p: -scores[p])
    standings = [Standing(p, 1 + sum(1 for q in rest if scores[q] > scores[p]), scores[p]) for p in rest]
    standings.append(Standing(out, len(scores), scores[out]))
    return Result(tuple(standings), T("메인 매치 승점, 데스 매치 패자는 탈락", "Main match points; the death match loser is out"),
                  {"eliminated": out, "candidate": candidate(state), "opponent": state.record("opponent")})


def board(state: ProgramState) -> dict[str, Any]:
    scores = points(state)
    # A tie for the lowest is news only until the dealer breaks it: then the saved are safe, and
    # no screen keeps saying the dealer is about to choose.
    tied = lowest(state) if len(lowest(state)) > 1 and state.record("candidate") is None else []
    return {"points": None if scores is None else {str(p): v for p, v in scores.items()}, "guests": sorted(guests(state)),
            "tied": tied, "candidate": candidate(state),
            "opponent": state.record("opponent"), "eliminated": eliminated_player(state)}


# -- audience questions (referee.kernel.predictions), from the program's public view only -------------

ELIMINATED = "eliminated"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    """Who is eliminated tonight? Asked until the death match opens (its Quattro table shows
    the loser before the program confirms it). Before the opponent is named: every player who
    can still be eliminated (Episode rules 2-3: never a guest), closing when the opponent is named
    (the field narrows to two); then the candidate and the opponent, closing as the death match
    opens (Episode rule 4)."""
    state = view["state"]
    if state["final"] is not None or any(s["key"] == DEATH for s in state["stages"]):
        return []
    board = state["board"]
    text = T("누가 탈락할까요?", "Who is eliminated?")
    if board["opponent"] is None:
        players = [p for p in range(len(state["names"])) if p not in board["guests"]]
        return [Prediction(ELIMINATED, text, seat_options(view, players), closes_on=frozenset({"OpponentNamed"}))]
    pair = [board["candidate"], board["opponent"]]
    return [Prediction(ELIMINATED, text, seat_options(view, pair), closes_on=frozenset({"StageOpened"}))]


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    # Episode rule 4: the death match's loser, once its result is confirmed.
    out = view["state"]["board"]["eliminated"]
    return None if key != ELIMINATED or out is None else (out,)


PLAN = Plan(ready=ready, stage_titles=TITLES, board=board, final=final, decisions=decisions, decide=decide,
            evolve=evolve, describe=describe, planned=lambda state: (RACE, DEATH), seated_options=seated_options,
            predictions=predictions, answer=answer)

GAME = program_game(
    "genius_episode",
    T("더 지니어스 한 회", "A Genius episode"),
    (3, 12),
    PLAN,
    options=(
        OptionSpec("guests", "none", ("none", "9,10"),
                   T("게스트 (선수 번호, 쉼표로): 탈락 후보가 되지 않음", "Guests (player numbers): never candidates"),
                   accepts=guests_allowed,
                   words={"none": T("게스트 없음", "No guests"), "9,10": T("9번, 10번 선수", "Players 9 and 10")}),
        OptionSpec("deal", "referee", ("referee", "dealer"),
                   T("각 경기의 분배: 심판 자동 또는 딜러 입력", "Each match's deal: by the referee or entered by the dealer")),
    ),
    default_seats=10,
)
