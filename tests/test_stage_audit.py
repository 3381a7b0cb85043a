"""The projector's layout audit (issue 33): for every game, and a whole Tricky Survival evening,
tables are played to their end by bots and their public frames drawn on the real projector page at
1920x1080 and 1280x720, with the layers that come and go in a show laid over them in turn: a
question of the hall with 2 and with 9 options, the leaderboard, the show clock, a 정정 notice,
the replay band; each moment a frame flashes is read while it is up and again once it is gone.
tests/stage_audit.js reads the boxes and names what a person in the hall would see wrong: a box
outside the window, part of a picture outside its region, two layers on one spot, two named boxes
of one picture on one spot, a named box whose content is cut. Screenshots of the first problem of
each game go to test-artifacts/browser/audit-*.png."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest

from referee.cli import bot_step
from referee.kernel import Actor, Audience, registry
from referee.store import MemoryStore
from referee.table import Table
from referee.table.programs import ProgramRunner
from referee.table.replay import frames, merge

from .live import ARTIFACTS, LiveServer
from .test_replay import NAMES, step

AUDIT_JS = (Path(__file__).parent / "stage_audit.js").read_text(encoding="utf-8")
SIZES = [(1920, 1080), (1280, 720)]
GAMES = sorted(g for g, game in registry().items() if not game.program)
MOST = 60  # frames read per story and size (every reveal, then evenly the rest, and the last)
# The audit's page: no transition or animation, so a box is read where it ends, not on its way.
STILL = "*, *::before, *::after { transition: none !important; animation: none !important; }"
# Two frames: the stage's layers have been laid out again (its ResizeObserver has run).
SETTLE = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def story_of(game: str, seed: int = 5) -> list[dict[str, Any]]:
    """A bot-played match of `game`, as the projector was shown it (replay.frames)."""
    rnd = random.Random(seed)
    table = Table.create(MemoryStore(), f"audit-{game}", game, NAMES[:registry()[game].usual_seats], seed=seed)
    table.start(Actor.dealer())
    while step(table, rnd):
        pass
    return [f.to_json() for f in frames(table, Audience.public())]


def program_story(program_id: str, players: list[str], options: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """A whole show program, bots at every seat: the program's board between matches and each
    match, in the order things happened (its frames merged)."""
    games = registry(programs=True)
    store = MemoryStore()
    rnd = random.Random(seed)
    runner = ProgramRunner(store, games, created=lambda _, t: Table(store, t, games).start(Actor.dealer()))
    program = Table.create(store, f"audit-{program_id}", program_id, players, options, seed=seed, games=games,
                           on_commit=[runner.committed])
    program.start(Actor.dealer())
    while program.result() is None:
        state = program.load().state
        tables = runner.stage_tables(program)
        over = [k for k, t in tables.items() if state.stage(k).status == "open" and Table(store, t, games).result()]
        running = [t for k, t in tables.items() if state.stage(k).status == "open" and Table(store, t, games).result() is None]
        if over:
            program.submit(Actor.dealer(), runner.complete(program, {"type": "confirm_result", "stage": over[0]}))
        elif running:
            bot_step(Table(store, running[0], games), rnd)
        else:
            bot_step(program, rnd, prefer=lambda turn: type(turn)(turn.phase, tuple(
                d for d in turn.decisions if d.move in ("confirm_result", "open_stage") or not d.move.startswith("seat_stage:"))))
    stories = [frames(Table(store, t, games), Audience.public()) for t in [program.id, *runner.stage_tables(program).values()]]
    return [f.to_json() for f in merge(stories)]


def evening() -> list[dict[str, Any]]:
    """A whole Tricky Survival evening with the event match (9 players)."""
    players = list(NAMES[:9]) if len(NAMES) >= 9 else [f"선수{i + 1}" for i in range(9)]
    return program_story("tricky_survival", players, {"event_match": "on"}, seed=7)


def genius_episode() -> list[dict[str, Any]]:
    """A whole Genius episode with 10 players: the main match (Horror Race 2), the candidate
    naming the death-match opponent, the death match (Quattro), the elimination, the standings."""
    return program_story("genius_episode", list(NAMES[:10]), {}, seed=11)


def sample(story: list[dict[str, Any]]) -> list[int]:
    reveals = [i for i, f in enumerate(story) if f["reveal"] or f["correction"]]
    rest = [i for i in range(len(story)) if i not in reveals]
    room = max(0, MOST - len(reveals))
    spread = rest[:: max(1, len(rest) // room)] if room and rest else []
    return sorted(set(reveals[:MOST] + spread[:room] + [len(story) - 1]))


def crowd(options: int, board: bool = False) -> dict[str, Any]:
    names = ["1번 가람", "2번 나래", "3번 다솜", "4번 라온", "5번 마루", "6번 바다", "7번 사랑", "8번 아라", "9번 자람"]
    question = {"id": "q1", "text": "3차 배틀: 트리키 코인 결승: 누가 이길까요?", "options": names[:options],
                "counts": [7 * (i + 1) for i in range(options)], "total": sum(7 * (i + 1) for i in range(options)),
                "state": "open", "answer": None}
    leaders = [{"rank": i + 1, "name": f"관객{i + 1:02d}", "points": 10 - i} for i in range(10)]
    return {"seq": 1, "questions": [] if board else [question], "board_on": board, "board": leaders, "players": 120}


# The layers a show lays over a picture, one a frame in turn (None: the picture alone).
LAYERS = [None, "question9", "question2", "clock", "correction", "replay", "leaderboard"]


def payload(show: str, frame: dict[str, Any], n: int, layer: str | None) -> dict[str, Any]:
    view = dict(frame["view"])
    if layer == "clock" and view.get("started") and not view.get("result") and not view.get("finished"):
        view["clock"] = {"state": "paused", "ends_at": None, "remaining": 27.0, "seconds": 30}
    if layer == "correction":
        view["correction"] = {"v": 10_000 + n, "what": {"ko": "2번 나래: 상자에 코인 1개를 넣음", "en": "2 나래: puts a coin in the box"}}
    if frame["correction"]:
        view["correction"] = {"v": 20_000 + n, "what": frame["correction"]}
    out = {"show": {"id": show, "name": "쇼 나이트 · 1회"}, "table": view, "version": n}
    if layer == "replay":
        out["replay"] = {"id": "audit", "index": n, "count": 165, "recap": False,
                         "what": frame["what"] or [{"ko": "2라운드 상자 공개", "en": "Round 2 boxes opened"}]}
    return out


@pytest.fixture(scope="module")
def stage_page(tmp_path_factory, browser):
    """The projector page of a show with nothing on it (no socket update comes after the first),
    one per size, with the audit script and no transitions."""
    server = LiveServer(tmp_path_factory.mktemp("audit")).start()
    show = "audit" + uuid.uuid4().hex[:6]
    server.ok("create_show", show=show, name="쇼 나이트 · 1회")
    pages = {}
    try:
        for width, height in SIZES:
            # The audit's own script and style come from the test, past the page's policy.
            page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
            page.goto(f"{server.url}/display/{show}")
            page.wait_for_selector("#board .join")
            page.add_style_tag(content=STILL)
            page.add_script_tag(content=AUDIT_JS)
            pages[(width, height)] = page
        yield show, pages
    finally:
        for page in pages.values():
            page.close()
        server.stop()


def audit(page: Any, show: str, story: list[dict[str, Any]], label: str) -> list[str]:
    """Draw the sampled frames with the layers in turn; every problem, once, with where it was."""
    found: dict[str, str] = {}
    page.evaluate("() => { Crowd.render(document.getElementById('crowd'), {seq: 0, questions: [], board_on: false}); }")
    shot = None
    for k, i in enumerate(sample(story)):
        frame = story[i]
        layer = LAYERS[k % len(LAYERS)]
        page.evaluate("(p) => { Display.render(p); return Display.settled(); }", payload(show, frame, k + 1, layer))
        page.evaluate(SETTLE)
        kind = layer if layer in ("question9", "question2", "leaderboard") else None
        options = {"question9": 9, "question2": 2}.get(kind or "", 0)
        page.evaluate("(c) => Crowd.render(document.getElementById('crowd'), c)",
                      crowd(options, board=kind == "leaderboard") if kind else {"seq": 0, "questions": [], "board_on": False})
        page.evaluate(SETTLE)
        for moment in ("up", "gone"):
            result = page.evaluate("() => StageAudit()")
            for problem in result["problems"]:
                if problem not in found:
                    found[problem] = f"{label} frame {i} ({layer or 'plain'}, moment {moment})"
                    if shot is None:
                        shot = ARTIFACTS / f"audit-{label}.png"
                        page.screenshot(path=str(shot))
            if not page.evaluate("() => !document.getElementById('moment').hidden"):
                break
            page.evaluate("() => Display.hideMoment()")
            page.evaluate(SETTLE)
        page.evaluate("() => { Display.hideMoment(); document.getElementById('correction').hidden = true; }")
    return [f"{where}: {problem}" for problem, where in found.items()]


@pytest.mark.parametrize("game", GAMES)
def test_every_frame_of_a_game_fits_the_stage_with_every_layer_over_it(stage_page, game):
    show, pages = stage_page
    story = story_of(game)
    assert story
    problems = []
    for size, page in pages.items():
        problems += audit(page, show, story, f"{game}-{size[0]}")
    assert not problems, json.dumps(problems[:40], ensure_ascii=False, indent=1)


def test_a_survival_evening_fits_the_stage_at_every_moment(stage_page):
    show, pages = stage_page
    story = evening()
    assert any(f["view"]["state"].get("program") for f in story)
    problems = []
    for size, page in pages.items():
        problems += audit(page, show, story, f"evening-{size[0]}")
    assert not problems, json.dumps(problems[:40], ensure_ascii=False, indent=1)


def test_a_genius_episode_fits_the_stage_at_every_moment(stage_page):
    show, pages = stage_page
    story = genius_episode()
    program = [f for f in story if f["view"]["state"].get("program")]
    assert program and program[-1]["view"]["state"]["final"], "the episode ends with its final standings"
    board = program[-1]["view"]["state"]["board"]
    assert board["opponent"] is not None and board["eliminated"] is not None  # the opponent named, the elimination
    problems = []
    for size, page in pages.items():
        problems += audit(page, show, story, f"genius_episode-{size[0]}")
    assert not problems, json.dumps(problems[:40], ensure_ascii=False, indent=1)
