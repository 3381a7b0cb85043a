"""Show programs (issue 11): the rules of Tricky Survival and a Genius episode, pure, with the
results of their matches made up here; then the runtime that makes and closes stage tables.

Each stage's result is given as a match would give it (``Result.to_json()``: standings with seats
of that match, ranks, details), so the program sees exactly what the runtime hands it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from referee.kernel import Actor, Audience, Rng, RuleError, registry
from referee.programs import genius_episode, tricky_survival
from referee.store import MemoryStore
from referee.table import Table
from referee.table.programs import ProgramRunner, stage_table_id

NAMES = ("가", "나", "다", "라", "마", "바", "사", "아", "자")
DEALER = Actor.dealer()


class Evening:
    """A program played through its pure functions."""

    def __init__(self, game: Any, names: tuple[str, ...], **options: Any) -> None:
        self.game = game
        self.state = game.setup(names, game.resolve_options(options, len(names)), Rng.forbidden())
        self.events: list[Any] = []

    def move(self, move: dict[str, Any], actor: Actor = DEALER, seed: int = 1) -> list[Any]:
        events = self.game.decide(self.state, actor, move, Rng(seed))
        for event in events:
            self.state = self.game.evolve(self.state, event)
        self.events += events
        return events

    def ready(self) -> dict[str, tuple[int, ...]]:
        turn = self.game.turn(self.state)
        opening = next((d for d in turn.decisions if d.move == "open_stage"), None)
        if opening is None:
            return {}
        plan = tricky_survival.PLAN if self.game is tricky_survival.GAME else genius_episode.PLAN
        return {r.key: r.players for r in plan.ready(self.state)}

    def open(self, key: str) -> tuple[int, ...]:
        self.move({"type": "open_stage", "stage": key})
        return self.state.stage(key).players

    def confirm(self, key: str, ranked_seats: list[int], scores: list[Any] | None = None,
                details: dict[str, Any] | None = None) -> None:
        """The stage's match ended with its seats in `ranked_seats` order (best first)."""
        stage = self.state.stage(key)
        standings = [{"seat": seat, "rank": i + 1, "score": None if scores is None else scores[seat]}
                     for i, seat in enumerate(ranked_seats)]
        result = {"standings": standings, "winner": ranked_seats[0], "decided_by": {"ko": "k", "en": "e"},
                  "details": details or {}}
        assert len(stage.players) == len(ranked_seats)
        self.move({"type": "confirm_result", "stage": key, "result": result})

    def final(self) -> dict[str, Any] | None:
        result = self.game.result(self.state)
        return None if result is None else result.to_json()


def places(evening: Evening) -> list[str]:
    return [evening.state.names[s["seat"]] for s in sorted(evening.final()["standings"], key=lambda s: s["rank"])]


# -- Tricky Survival --------------------------------------------------------------------------------

# Gallery ranks: 바 1, 다 2, 자 3, 가 4, 나 5, 마 6, 라 7, 아 8, 사 9 (players 5, 2, 8, 0, 1, 4, 3, 7, 6).
GALLERY_ORDER = [5, 2, 8, 0, 1, 4, 3, 7, 6]


def after_gallery(**options: Any) -> Evening:
    evening = Evening(tricky_survival.GAME, NAMES, **options)
    assert evening.ready() == {"gallery": tuple(range(9))}  # Survival rule 1: all nine
    players = evening.open("gallery")
    evening.confirm("gallery", [players.index(p) for p in GALLERY_ORDER],
                    details={"advancing": [players.index(p) for p in GALLERY_ORDER[:4]]})
    return evening


def test_the_top_four_of_gallery_take_islands_a_to_d_in_rank_order_and_key_1():
    evening = after_gallery()
    assert evening.ready() == {"bridge": (5, 2, 8, 0)}  # Survival rule 2
    board = evening.game.view(evening.state, Audience.public())["board"]
    assert board["keys"] == {"5": ["1"], "2": ["1"], "8": ["1"], "0": ["1"]}
    assert [e["player"] for e in board["eliminated"]] == [1, 4, 3, 7, 6]


def test_the_two_bridge_survivors_play_coin_and_the_winner_takes_the_golden_key():
    evening = after_gallery()
    bridge = evening.open("bridge")
    # Bridge: islands B and D survive (바 A and 가 D out); its standings B, D, A, C... with
    # advance naming the two survivors.
    evening.confirm("bridge", [1, 3, 0, 2], details={"advance": [1, 3], "out": [0, 2]})
    assert bridge == (5, 2, 8, 0)
    assert evening.ready() == {"coin_final": (2, 0)}  # 다 (island B) and 가 (island D)
    evening.open("coin_final")
    evening.confirm("coin_final", [1, 0])  # 가 wins
    assert evening.final() is not None
    # Survival rule 5: 1-2 the final; 3-4 the Bridge losers by Gallery rank (바 1st, 자 3rd);
    # 5-9 the Gallery losers by Gallery rank.
    assert places(evening) == ["가", "다", "바", "자", "나", "마", "라", "아", "사"]
    details = evening.final()["details"]
    assert details["keys"]["0"] == ["1", "2", "3", "golden"] and details["golden_key"] == 0
    assert details["keys"]["2"] == ["1", "2"] and details["keys"]["5"] == ["1"]


def test_the_event_match_plays_safari_the_match_for_third_and_the_safari_winners_match():
    evening = after_gallery(event_match="on")
    ready = evening.ready()
    assert ready == {"bridge": (5, 2, 8, 0), "safari": (1, 4, 3, 7, 6)}  # Survival rule 4
    evening.open("safari")
    # The Safari's tie-break is the players' own Gallery ranks (5th to 9th).
    assert evening.state.stage("safari").option_map()["gallery_ranks"] == "5,6,7,8,9"
    evening.open("bridge")
    evening.confirm("bridge", [1, 3, 0, 2], details={"advance": [1, 3], "out": [0, 2]})
    assert set(evening.ready()) == {"coin_final", "coin_third"}
    assert evening.ready()["coin_third"] == (5, 8)
    # Safari: seat order 나 마 라 아 사 (players 1 4 3 7 6); 라 wins, names 아; 사 is last.
    evening.confirm("safari", [2, 0, 3, 1, 4], details={"winner": 2, "opponent": 3, "order": [2, 0, 3, 1, 4]})
    assert evening.ready()["coin_event"] == (3, 7)
    for key, winner_first in (("coin_final", [0, 1]), ("coin_third", [1, 0]), ("coin_event", [1, 0])):
        evening.open(key)
        assert evening.final() is None
        evening.confirm(key, winner_first)
    # 1-2 the final (다, 가); 3-4 the match for third (자 won); 5-6 the Safari winner's match
    # (아 beat 라); then the other Safari players in Safari order (나, 마), the Safari last 9th.
    assert places(evening) == ["다", "가", "자", "바", "아", "라", "나", "마", "사"]
    details = evening.final()["details"]
    assert details["golden_key"] is None and details["keys"]["2"] == ["1", "2", "3"]  # no prize


def test_fewer_than_four_gallery_survivors_fill_the_islands_from_the_full_ranking():
    evening = Evening(tricky_survival.GAME, NAMES)
    players = evening.open("gallery")
    # Only three survived; the full ranking (Gallery rule 12) still orders all nine.
    evening.confirm("gallery", [players.index(p) for p in GALLERY_ORDER],
                    details={"advancing": [players.index(p) for p in GALLERY_ORDER[:3]]})
    assert evening.ready()["bridge"] == (5, 2, 8, 0)


def test_the_dealer_may_seat_a_stage_otherwise_with_a_reason_that_is_logged():
    evening = after_gallery()
    with pytest.raises(RuleError) as refused:
        evening.move({"type": "seat_stage:bridge", "seat_1": 5, "seat_2": 5, "seat_3": 8, "seat_4": 0, "reason": "x"})
    assert refused.value.code == "program/bad_seating"
    with pytest.raises(RuleError) as refused:
        evening.move({"type": "seat_stage:bridge", "seat_1": 5, "seat_2": 2, "seat_3": 8, "seat_4": 0, "reason": " "})
    assert refused.value.code == "move/malformed"  # a reason is required
    [event] = evening.move({"type": "seat_stage:bridge", "seat_1": 2, "seat_2": 5, "seat_3": 8, "seat_4": 0,
                            "reason": "A와 B가 자리를 바꿈 (심판 승인)"})
    assert event.data["changed"] == "A와 B가 자리를 바꿈 (심판 승인)" and evening.state.stage("bridge").players == (2, 5, 8, 0)
    text = evening.game.describe(event.to_json()["data"] | {"type": event.type}, NAMES)
    assert "변경" in text.ko and "changed" in text.en


def test_stages_open_only_when_ready_and_results_must_fit():
    evening = Evening(tricky_survival.GAME, NAMES)
    with pytest.raises(RuleError) as refused:
        evening.move({"type": "open_stage", "stage": "bridge"})
    assert refused.value.code == "move/malformed" or refused.value.code == "program/not_ready"
    evening.open("gallery")
    with pytest.raises(RuleError) as refused:
        evening.move({"type": "confirm_result", "stage": "gallery"})  # no result from its table yet
    assert refused.value.code == "program/no_result"
    with pytest.raises(RuleError) as refused:
        evening.move({"type": "confirm_result", "stage": "gallery",
                      "result": {"standings": [{"seat": 0, "rank": 1}], "details": {}}})
    assert refused.value.code == "program/bad_result"
    with pytest.raises(RuleError):
        evening.move({"type": "open_stage", "stage": "gallery"})  # already open


# -- A Genius episode --------------------------------------------------------------------------------


def race(evening: Evening, points_by_player: dict[int, int]) -> tuple[int, ...]:
    players = evening.open("main_match")
    scores = [points_by_player[p] for p in players]
    ranked = sorted(range(len(players)), key=lambda s: -scores[s])
    evening.confirm("main_match", ranked, scores=scores)
    return players


def test_the_main_match_is_seated_by_lottery_and_guests_race_in_their_own_group():
    evening = Evening(genius_episode.GAME, NAMES[:6], guests="5,6")
    players = evening.open("main_match")
    assert sorted(players) == list(range(6)) and players != tuple(range(6))  # drawn (seed 1)
    options = evening.state.stage("main_match").option_map()
    guests_at = sorted(players.index(p) + 1 for p in (4, 5))
    assert options["groups"] == "guests:" + ",".join(map(str, guests_at))


def test_the_lowest_non_guest_is_the_candidate_and_names_the_opponent_on_the_phone():
    evening = Evening(genius_episode.GAME, NAMES[:6], guests="6")
    race(evening, {0: 3, 1: 2, 2: 1, 3: 2, 4: 1, 5: 0})  # the guest (player 6) has the fewest: not a candidate
    turn = evening.game.turn(evening.state)
    # Players 2 and 4 (0-based) tied lowest among non-guests: the dealer breaks it.
    assert [d.move for d in turn.decisions] == ["break_tie"]
    assert evening.game.view(evening.state, Audience.public())["board"]["tied"] == [2, 4]
    with pytest.raises(RuleError) as refused:
        evening.move({"type": "break_tie", "candidate": 5})
    assert refused.value.code in ("move/malformed", "episode/not_a_candidate")
    evening.move({"type": "break_tie", "candidate": 4})
    # Decided: the tie is no longer news on any screen (player 2 is safe), the candidate is.
    board = evening.game.view(evening.state, Audience.public())["board"]
    assert board["tied"] == [] and board["candidate"] == 4
    [naming] = evening.game.turn(evening.state).decisions
    assert naming.move == "name_opponent" and naming.seat == 4  # on the candidate's phone
    assert {o.value for o in naming.fields[0].options} == {0, 1, 2, 3}  # not the guest, not themself
    with pytest.raises(RuleError):
        evening.move({"type": "name_opponent", "opponent": 1}, Actor.of_seat(2))  # someone else
    evening.move({"type": "name_opponent", "opponent": 0}, Actor.on_behalf(4))  # the dealer for them
    assert evening.ready() == {"death_match": (4, 0)}
    evening.open("death_match")
    evening.confirm("death_match", [0, 1])  # the candidate (seat 1) won: the opponent is out
    final = evening.final()
    assert final["details"]["eliminated"] == 0
    ranks = {s["seat"]: s["rank"] for s in final["standings"]}
    # Episode rule 5: equal points share a place; the eliminated player is last.
    assert ranks == {1: 1, 3: 1, 2: 3, 4: 3, 5: 5, 0: 6}


def test_a_single_lowest_is_the_candidate_without_the_dealer():
    evening = Evening(genius_episode.GAME, NAMES[:4])
    race(evening, {0: 3, 1: 2, 2: 0, 3: 1})
    [naming] = evening.game.turn(evening.state).decisions
    assert naming.move == "name_opponent" and naming.seat == 2


# -- the runtime: stage tables follow the program's log ---------------------------------------------


def test_opening_makes_the_table_confirming_closes_it_and_voiding_opens_it_again():
    store = MemoryStore()
    program = Table.create(store, "p", "genius_episode", list(NAMES[:3]), seed=4)
    program.start(DEALER)
    runner = ProgramRunner(store, registry(programs=True))
    program.submit(DEALER, {"type": "open_stage", "stage": "main_match"})
    assert runner.sync(program).created == [stage_table_id("p", program.load().state.stage("main_match"))]
    assert runner.sync(program).created == []  # idempotent (a crash after the append: made once)
    table_id = runner.stage_tables(program)["main_match"]
    race_table = Table(store, table_id)
    assert race_table.header["seats"] == [NAMES[p] for p in program.load().state.stage("main_match").players]
    with pytest.raises(RuleError) as refused:
        program.submit(DEALER, runner.complete(program, {"type": "confirm_result", "stage": "main_match"}))
    assert refused.value.code == "program/no_result"
    # The sender cannot choose the result: complete() replaces any given one with the table's.
    forged = runner.complete(program, {"type": "confirm_result", "stage": "main_match", "result": {"standings": []}})
    assert forged["result"] is None


def test_the_cli_plays_whole_evenings_the_same_way_twice(tmp_path):
    for args in (["tricky_survival", "--option", "event_match", "on"], ["genius_episode", "--seats", "4"]):
        runs = [subprocess.run([sys.executable, "-m", "referee.cli", "play-program", *args, "--bots", "--seed", "9",
                                "--data-dir", str(tmp_path / f"{args[0]}-{i}")], capture_output=True, text=True,
                               timeout=300) for i in range(2)]
        assert runs[0].returncode == 0, runs[0].stderr
        assert runs[0].stdout == runs[1].stdout
        lines = [json.loads(line) for line in runs[0].stdout.splitlines()]
        assert all("stage" in line for line in lines[:-1]) and "standings" in lines[-1]
        assert len(lines) - 1 == (6 if args[0] == "tricky_survival" else 2)
