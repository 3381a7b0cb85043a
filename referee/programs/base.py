"""What every show program shares: stages, their opening and their confirmed results.

A program is a table of tables (DESIGN.md): its own log, folded by the same runtime as a match,
records which stage runs with which players and what each stage's result carries forward. Its
seats are the show's players (the roster at the program's creation, in roster order); a stage's
players are given in the stage table's seat order.

A program module supplies a ``Plan``: the stages that may be opened now (with the seating the
rules compute), its own decisions and events (a tie the dealer breaks, an opponent a player
names), the board the audience sees, the final standings, and its own audience questions (see
``Plan.predictions``). Everything else is here:

- ``open_stage`` (dealer): open a ready stage with the computed seating; its table is made by
  the runtime (``referee.table.programs``) from the event. ``seat_stage:<key>`` (dealer): open
  it with another seating, for a reason that is logged (a lottery held at the table, a
  correction).
- ``confirm_result`` (dealer): the stage's table has a result; the runtime puts that result into
  the move (never the sender), the program records it and the stage's table is closed. The
  next stages follow from it.
- ``draw_seats:<key>`` (the referee, automatic): a stage seated by lottery has its seats drawn as
  soon as it may open, so the preview on every screen, the run sheet and the opened table show
  one seating, and the program's log records the draw.

Error codes: program/no_such_stage, program/not_ready, program/bad_seating, program/not_open,
program/no_result, program/bad_result.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.kernel import (
    Actor,
    Audience,
    Decision,
    Event,
    Field,
    Game,
    Option,
    OptionSpec,
    Result,
    Rng,
    RuleError,
    T,
    Turn,
    expect,
    place,
    require,
)
from referee.kernel.predictions import Prediction

OPEN, CONFIRMED = "open", "confirmed"


@dataclass(frozen=True)
class Stage:
    """An opened stage: a match of `game` with `players` (program seats) in its seat order."""

    key: str
    game: str
    players: tuple[int, ...]
    options: str  # the table options as canonical JSON (frozen state holds no dicts)
    status: str = OPEN
    result: str | None = None  # the confirmed result as canonical JSON
    changed: str | None = None  # the dealer's reason, when the seating was not the computed one

    def option_map(self) -> dict[str, Any]:
        return json.loads(self.options)

    def result_map(self) -> dict[str, Any] | None:
        return None if self.result is None else json.loads(self.result)

    def by_rank(self) -> list[int]:
        """The stage's players, best first (the result's standings order)."""
        result = self.result_map() or {"standings": []}
        ordered = sorted(result["standings"], key=lambda s: s["rank"])
        return [self.players[s["seat"]] for s in ordered]


@dataclass(frozen=True)
class Ready:
    """A stage the rules allow to open now, with the seating and options they compute."""

    key: str
    game: str
    players: tuple[int, ...]
    options: Mapping[str, Any]
    why: T  # what decided this seating, for the dealer and the run sheet
    lottery: bool = False  # the seats are drawn at random from `players` (draw_seats) before it opens


@dataclass(frozen=True)
class ProgramState:
    names: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    stages: tuple[Stage, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()  # the plan's own records (ties broken, names given)

    def option(self, name: str) -> Any:
        return dict(self.options)[name]

    def stage(self, key: str) -> Stage | None:
        return next((s for s in self.stages if s.key == key), None)

    def confirmed(self, key: str) -> Stage | None:
        stage = self.stage(key)
        return stage if stage is not None and stage.status == CONFIRMED else None

    def record(self, key: str) -> Any:
        return dict(self.extra).get(key)


@dataclass(frozen=True)
class Plan:
    """A program's own rules, given to ``program_game``."""

    ready: Callable[[ProgramState], list[Ready]]  # stages that may open now
    stage_titles: Mapping[str, T]  # stage key -> its name on screens
    board: Callable[[ProgramState], dict[str, Any]]  # the public picture of the evening
    final: Callable[[ProgramState], Result | None]  # the evening's standings once over
    decisions: Callable[[ProgramState], list[Decision]] = lambda state: []  # ties, nominations
    decide: Callable[[ProgramState, Actor, dict[str, Any], Rng], list[Event]] | None = None
    evolve: Callable[[ProgramState, Event], ProgramState] | None = None
    describe: Callable[[dict[str, Any], tuple[str, ...]], T | None] | None = None
    check_result: Callable[[ProgramState, Stage, dict[str, Any]], None] = lambda state, stage, result: None
    # Every stage the evening has with its options, in running order.
    planned: Callable[[ProgramState], tuple[str, ...]] = lambda state: ()
    # The table options once the seating is known (a lottery or the dealer chose it).
    seated_options: Callable[[ProgramState, Ready, tuple[int, ...]], dict[str, Any]] = (
        lambda state, ready, players: dict(ready.options))
    # The hall's own questions about the evening (Game.predictions and Game.answer): made from the
    # program's public view, answered from a later one. A stage's result is public on its own
    # table before the program confirms it, so a question closes (closes_on, the program's event
    # types) no later than the opening of the stage that decides it.
    predictions: Callable[[Mapping[str, Any]], list[Prediction]] | None = None
    answer: Callable[[str, Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None] | None = None


DRAWN = "drawn:"  # + stage key: a plan record, the seats the referee drew for a lottery stage


def ready_now(plan: Plan, state: ProgramState) -> list[Ready]:
    """The stages that may open now, each lottery stage in the seats drawn for it. A lottery
    stage still marked ``lottery`` has no draw yet: the runtime draws it (draw_seats) right after
    the command that made it ready, so no screen ever previews a seating that will not open."""
    out = []
    for r in plan.ready(state):
        seats = state.record(DRAWN + r.key) if r.lottery else None
        drawn = seats is not None and sorted(seats) == sorted(r.players)  # for these very players
        out.append(replace(r, players=tuple(seats), lottery=False) if drawn else r)
    return out


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def player_label(names: tuple[str, ...], player: int) -> T:
    return T(f"{player + 1}번 {names[player]}", f"{player + 1} {names[player]}")


def seating_label(names: tuple[str, ...], players: tuple[int, ...], seats: Callable[[int], T] | None = None) -> T:
    seat = seats or (lambda i: T(f"{i + 1}번 자리", f"seat {i + 1}"))
    return T(", ".join(f"{seat(i).ko} {names[p]}" for i, p in enumerate(players)),
             ", ".join(f"{seat(i).en} {names[p]}" for i, p in enumerate(players)))


# -- the shared turn ------------------------------------------------------------------------------


def turn(plan: Plan, state: ProgramState) -> Turn:
    decisions: list[Decision] = []
    ready = ready_now(plan, state)
    for r in ready:
        if r.lottery:
            decisions.append(Decision(f"draw_seats:{r.key}", T(f"{plan.stage_titles[r.key].ko}: 자리 추첨",
                                                               f"{plan.stage_titles[r.key].en}: seat lottery"), auto=True))
    if ready:
        decisions.append(Decision(
            "open_stage",
            T("다음 경기를 여세요 (계산된 자리 배치로)", "Open the next match (with the computed seating)"),
            (Field("stage", "one", T("경기", "Match"), tuple(
                Option(r.key, plan.stage_titles[r.key], _seating_hint(state, r)) for r in ready)),),
        ))
        for r in ready:
            decisions.append(Decision(
                f"seat_stage:{r.key}",
                T(f"{plan.stage_titles[r.key].ko}: 다른 자리 배치로 열기 (사유 기록)",
                  f"{plan.stage_titles[r.key].en}: open with another seating (the reason is logged)"),
                tuple(Field(f"seat_{i + 1}", "one", T(f"{i + 1}번 자리", f"Seat {i + 1}"),
                            tuple(Option(p, player_label(state.names, p)) for p in range(len(state.names))),
                            kind="player")
                      for i in range(len(r.players))) + (Field("reason", "text", T("사유", "Reason")),),
            ))
    open_stages = [s for s in state.stages if s.status == OPEN]
    if open_stages:
        decisions.append(Decision(
            "confirm_result",
            T("끝난 경기의 결과를 확정하세요 (테이블이 닫힙니다)",
              "Confirm the result of a finished match (its table closes)"),
            (Field("stage", "one", T("경기", "Match"),
                   tuple(Option(s.key, plan.stage_titles[s.key]) for s in open_stages)),),
        ))
    decisions.extend(plan.decisions(state))
    running = [plan.stage_titles[s.key] for s in open_stages]
    if plan.final(state) is not None:
        phase = T("프로그램 종료", "Program over")
    elif len(running) == 1:
        phase = T(f"진행 중: {running[0].ko}", f"Running: {running[0].en}")
    elif running:
        # Several at once (the event match beside the final): how many, not a list that fills a header.
        phase = T(f"경기 {len(running)}개 진행 중", f"{len(running)} matches running")
    else:
        phase = T("다음 경기를 기다리는 중", "Waiting for the next match")
    return Turn(phase, tuple(decisions))


def _seating_hint(state: ProgramState, r: Ready) -> T:
    if r.lottery:
        return T(f"자리는 추첨 · {r.why.ko}", f"Seats by lottery · {r.why.en}")
    seats = seating_label(state.names, r.players)
    return T(f"{seats.ko} · {r.why.ko}", f"{seats.en} · {r.why.en}")


# -- decide and evolve ---------------------------------------------------------------------------


def decide(plan: Plan, state: ProgramState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    decision = expect(turn(plan, state), actor, move)
    kind = decision.move
    if kind.startswith("draw_seats:"):
        drawing = next(r for r in ready_now(plan, state) if r.key == kind.partition(":")[2])
        return [Event("SeatsDrawn", {"stage": drawing.key, "players": list(rng.shuffled(drawing.players))})]
    if kind == "open_stage" or kind.startswith("seat_stage:"):
        key = move["stage"] if kind == "open_stage" else kind.partition(":")[2]
        ready = {r.key: r for r in ready_now(plan, state)}
        require(key in ready, "program/not_ready", f"지금 열 수 없는 경기입니다: {key!r}",
                f"That match cannot open now: {key!r}", stage=key)
        chosen = ready[key]
        players, reason = chosen.players, None
        if kind == "open_stage" and chosen.lottery:
            # Not drawn ahead (a program logged before draw_seats): drawn now, recorded in the event.
            players = tuple(rng.shuffled(chosen.players))
        if kind != "open_stage":
            players = tuple(move[f"seat_{i + 1}"] for i in range(len(chosen.players)))
            # A stage seats each player once; the dealer may change who and where, with a reason.
            require(len(set(players)) == len(players), "program/bad_seating",
                    "한 선수를 두 자리에 앉힐 수 없습니다", "A player cannot take two seats", players=str(players))
            reason = move["reason"].strip()
        return [Event("StageOpened", {"stage": key, "game": chosen.game, "players": list(players),
                                      "options": plan.seated_options(state, chosen, players),
                                      "why": chosen.why.to_json(), "changed": reason})]
    if kind == "confirm_result":
        stage = state.stage(move["stage"])
        require(stage is not None and stage.status == OPEN, "program/not_open",
                f"진행 중인 경기가 아닙니다: {move['stage']!r}", f"Not a running match: {move['stage']!r}")
        result = move.get("result")
        require(isinstance(result, dict) and isinstance(result.get("standings"), list), "program/no_result",
                "이 경기는 아직 결과가 없습니다", "This match has no result yet", stage=stage.key)
        seats = sorted(s.get("seat") for s in result["standings"])
        require(seats == list(range(len(stage.players))), "program/bad_result",
                "결과가 이 경기의 자리와 맞지 않습니다", "The result does not fit this match's seats", stage=stage.key)
        plan.check_result(state, stage, result)
        return [Event("ResultConfirmed", {"stage": stage.key, "result": result})]
    assert plan.decide is not None, kind
    return plan.decide(state, actor, move, rng)


def evolve(plan: Plan, state: ProgramState, event: Event) -> ProgramState:
    match event.type:
        case "StageOpened":
            stage = Stage(event["stage"], event["game"], tuple(event["players"]), canonical(event["options"]),
                          changed=event["changed"])
            return replace(state, stages=state.stages + (stage,))
        case "SeatsDrawn":
            return remember(state, DRAWN + event["stage"], tuple(event["players"]))
        case "ResultConfirmed":
            stages = tuple(replace(s, status=CONFIRMED, result=canonical(event["result"])) if s.key == event["stage"]
                           else s for s in state.stages)
            return replace(state, stages=stages)
    return plan.evolve(state, event) if plan.evolve is not None else state


def remember(state: ProgramState, key: str, value: Any) -> ProgramState:
    """A plan's own record (a tie broken, an opponent named)."""
    return replace(state, extra=tuple((k, v) for k, v in state.extra if k != key) + ((key, value),))


# -- views ---------------------------------------------------------------------------------------


def view(plan: Plan, state: ProgramState, audience: Audience, title: T) -> dict[str, Any]:
    stages = []
    for stage in state.stages:
        result = stage.result_map()
        stages.append({
            "key": stage.key, "game": stage.game, "title": plan.stage_titles[stage.key].to_json(),
            "players": list(stage.players), "status": stage.status, "changed": stage.changed,
            "order": stage.by_rank() if result else None,
            "decided_by": result["decided_by"] if result else None,
        })
    final = plan.final(state)
    out: dict[str, Any] = {
        "program": True,
        "names": list(state.names),
        "stages": stages,
        "planned": [{"key": k, "title": plan.stage_titles[k].to_json(), "status": _status(plan, state, k)}
                    for k in plan.planned(state)],
        "next": [{"key": r.key, "title": plan.stage_titles[r.key].to_json(), "players": list(r.players),
                  "why": r.why.to_json()} for r in ready_now(plan, state)],
        "board": plan.board(state),
        "final": None if final is None else final.to_json(),
    }
    if audience.kind == "dealer":
        out["panel"] = _panel(plan, state)
        out["sheets"] = {"run_sheet": _run_sheet(plan, state, title), "results": _results_sheet(plan, state, title)}
    return out


def _status(plan: Plan, state: ProgramState, key: str) -> str:
    """A planned stage now: confirmed, open, ready (may open now) or later."""
    stage = state.stage(key)
    if stage is not None:
        return stage.status
    return "ready" if any(r.key == key for r in ready_now(plan, state)) else "later"


def _panel(plan: Plan, state: ProgramState) -> list[dict[str, Any]]:
    rows: list[list[Any]] = [[T("경기", "Match").to_json(), T("선수 (자리 순)", "Players (seat order)").to_json(),
                              T("상태", "Status").to_json()]]
    for stage in state.stages:
        rows.append([plan.stage_titles[stage.key].to_json(), seating_label(state.names, stage.players).to_json(),
                     {"ko": "확정" if stage.status == CONFIRMED else "진행", "en": stage.status,
                      "tone": "good" if stage.status == CONFIRMED else "now"}])
    for r in ready_now(plan, state):
        rows.append([plan.stage_titles[r.key].to_json(), seating_label(state.names, r.players).to_json(),
                     {"ko": "열 수 있음", "en": "ready", "tone": "now"}])
    return [{"heading": T("프로그램", "Program").to_json(), "table": rows}]


def _run_sheet(plan: Plan, state: ProgramState, title: T) -> dict[str, Any]:
    sections = [{"heading": T("출연자", "Players").to_json(),
                 "table": [["#", T("이름", "Name").to_json()]] + [[str(i + 1), n] for i, n in enumerate(state.names)]}]
    for key in plan.planned(state):
        stage = state.stage(key)
        ready = next((r for r in ready_now(plan, state) if r.key == key), None)
        if stage is not None:
            paragraphs = [seating_label(state.names, stage.players).to_json()]
            if stage.changed:
                paragraphs.append(T(f"자리 변경 사유: {stage.changed}", f"Seating changed: {stage.changed}").to_json())
        elif ready is not None:
            paragraphs = [seating_label(state.names, ready.players).to_json(), ready.why.to_json()]
        else:
            paragraphs = [T("앞 경기 결과에 따라 정해집니다", "Decided by the results before it").to_json()]
        sections.append({"heading": plan.stage_titles[key].to_json(), "paragraphs": paragraphs})
    return {"title": T(f"{title.ko} 진행표", f"{title.en} run sheet").to_json(), "sections": sections}


def _results_sheet(plan: Plan, state: ProgramState, title: T) -> dict[str, Any]:
    final = plan.final(state)
    board = plan.board(state)
    rows: list[list[Any]] = [[T("순위", "Place").to_json(), T("이름", "Name").to_json(), T("열쇠", "Keys").to_json()]]
    keys, names = board.get("keys", {}), board.get("key_names", {})
    standings = final.standings if final is not None else ()
    ranks = Counter(s.rank for s in standings)
    for s in standings:
        held = [T(**names[k]) if k in names else T(k, k) for k in keys.get(str(s.seat), [])]
        rows.append([place(s.rank, ranks[s.rank] > 1).to_json(), state.names[s.seat],
                     T(", ".join(k.ko for k in held), ", ".join(k.en for k in held)).to_json() if held else "-"])
    paragraphs = [final.decided_by.to_json()] if final is not None else [
        T("프로그램이 아직 끝나지 않았습니다", "The program is not over yet").to_json()]
    return {"title": T(f"{title.ko} 최종 결과", f"{title.en} final results").to_json(),
            "sections": [{"heading": T("최종 순위", "Final standings").to_json(), "paragraphs": paragraphs,
                          "table": rows}]}


def describe(plan: Plan, event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    match event["type"]:
        case "StageOpened":
            title = plan.stage_titles[event["stage"]]
            seats = seating_label(names, tuple(event["players"]))
            changed = f" (변경: {event['changed']})" if event.get("changed") else ""
            changed_en = f" (changed: {event['changed']})" if event.get("changed") else ""
            return T(f"{title.ko} 시작 준비: {seats.ko}{changed}", f"{title.en} opened: {seats.en}{changed_en}")
        case "ResultConfirmed":
            title = plan.stage_titles[event["stage"]]
            return T(f"{title.ko} 결과 확정", f"{title.en} result confirmed")
        case "SeatsDrawn":
            title = plan.stage_titles[event["stage"]]
            seats = seating_label(names, tuple(event["players"]))
            return T(f"{title.ko} 자리 추첨: {seats.ko}", f"{title.en} seats drawn: {seats.en}")
    return plan.describe(event, names) if plan.describe is not None else None


def no_such(kind: str, value: Any) -> RuleError:
    return RuleError("program/no_such_stage", f"없는 {kind}입니다: {value!r}", f"No such {kind}: {value!r}")


def program_game(id: str, title: T, seats: tuple[int, int], plan: Plan, options: tuple[OptionSpec, ...] = (),
                 default_seats: int | None = None) -> Game:
    """A program as the runtime sees it: a game whose seats are the show's players."""

    def setup(names: tuple[str, ...], opts: Mapping[str, Any], rng: Rng) -> ProgramState:
        return ProgramState(tuple(names), tuple(sorted(opts.items())))

    return Game(
        id=id,
        title=title,
        rules_version="1",
        seats=seats,
        setup=setup,
        turn=lambda state: turn(plan, state),
        decide=lambda state, actor, move, rng: decide(plan, state, actor, move, rng),
        evolve=lambda state, event: evolve(plan, state, event),
        view=lambda state, audience: view(plan, state, audience, title),
        result=plan.final,
        options=options,
        default_seats=default_seats,
        describe=lambda event, names: describe(plan, event, names),
        program=True,
        stages=plan.stage_titles,
        predictions=plan.predictions,
        answer=plan.answer,
    )
