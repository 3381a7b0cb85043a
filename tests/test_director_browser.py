"""The director in Chromium (issue 33): a staff member who never presses P sees the room's projector
follow a Tricky Survival evening (each match goes up when it opens, each confirmed result brings the
program's board with the stage's result moment and the next pairing); the console's program monitor
shows exactly what the projector shows, and its preview what P would put up; a playing replay's
place moves on in the console as it does on the projector."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from .evening import SURVIVAL, Evening
from .live import ARTIFACTS, Client, LiveServer, wait_until
from .test_console import console_page
from .test_show_night_projector import screens, wait_moment


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("director")).start()
    yield live
    live.stop()


def picture(frame_or_page: Any) -> dict[str, str]:
    """What a projector page shows in words: its title, its step and its board."""
    return frame_or_page.evaluate("""() => ({
        title: document.getElementById('game-title').textContent,
        phase: document.getElementById('phase').textContent,
        board: document.getElementById('board').textContent })""")


def monitor_frame(console: Any, role: str) -> Any:
    """The console's monitor frame (`program` or `preview`), loaded. Asked of the page's element,
    not looked up in the frames Playwright last heard of: a lookup does not wait, and a frame
    that navigates after it is never seen by polling it."""
    frame = console.wait_for_selector(f"iframe[data-role='monitor-{role}']", state="attached").content_frame()
    frame.wait_for_url(f"**monitor={role}*")
    frame.wait_for_load_state()
    return frame


def test_the_projector_follows_the_evening_and_the_monitor_shows_it(server, browser):
    ev = Evening(server, "tricky_survival", SURVIVAL, seed=6)
    room = screens(server, browser, ev.show, only=("room",))["room"]
    console = console_page(server, browser, ev.show, {"width": 1366, "height": 768})
    program_frame = monitor_frame(console, "program")
    seen: list[str] = []

    def on(step: str, key: str, table: str) -> None:
        title = ev.view(table)["stage"]["title"]["ko"]
        if step == "opened":
            # The opened stage goes up by itself (its join screen until it starts).
            wait_until(lambda: server.snapshot(ev.show)["show"]["current"] == table, what=f"{key} on the projector")
        if step == "over":
            room.wait_for_function("t => document.getElementById('game-title').textContent === t", arg=title)
        if step == "confirmed" and ev.view(ev.program)["result"] is None:
            # The stage's result is a moment on the program's board, no P pressed.
            wait_moment(room, title + " 결과")
            room.wait_for_selector("[data-role='next-title']")
            room.wait_for_selector("#moment", state="hidden", timeout=15_000)
            # The console's monitor shows what the room shows.
            wait_until(lambda: picture(program_frame) == picture(room), what="the monitor showing the projector")
            seen.append(key)
            room.screenshot(path=str(ARTIFACTS / f"director-after-{key}.png"))
            console.screenshot(path=str(ARTIFACTS / f"director-console-after-{key}.png"))

    final = ev.run(on=on, project=False)
    assert seen[:2] == ["gallery", "bridge"], seen
    room.wait_for_selector("[data-role='final-standings']")
    assert final["result"] is not None
    # The preview: the selected table as P would put it up (here the program's board, already up).
    console.click(f"#table-tabs [data-table='{ev.program}']")
    console.wait_for_selector("[data-role='monitor-preview-label'].same")
    preview = monitor_frame(console, "preview")
    wait_until(lambda: "최종 순위" in preview.evaluate("document.getElementById('board').textContent"),
               what="the preview's board")
    assert not console.locator("#error:not([hidden])").count()


def test_a_playing_replays_place_moves_on_in_the_console(server, browser):
    show = "r" + uuid.uuid4().hex[:7]
    server.ok("create_show", show=show, name="다시 보기 쇼")
    for name in ("가람", "나래"):
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가람", "나래"], seed=5)["table"]
    server.ok("start", show=show, table=table)
    for seat, coin in ((0, 5), (1, 10)):
        server.ok("move", show=show, table=table, seat=seat, move={"type": "put_coin", "coin": coin}, sid=uuid.uuid4().hex)
    for seat in (0, 1):
        server.ok("move", show=show, table=table, seat=seat, move={"type": "choose_token", "token": "GO"},
                  sid=uuid.uuid4().hex)
    console = console_page(server, browser, show, {"width": 1366, "height": 768})
    started = server.ok("replay", show=show, action="start", table=table)["replay"]
    assert started["count"] >= 5
    server.ok("replay", show=show, action="pace", pace=0.5)
    server.ok("replay", show=show, action="play")
    bar = console.locator("#replay-bar [data-role='replay-where']")
    bar.wait_for()
    # No command after "play": the console's place moves on with the projector's frames.
    console.wait_for_function(
        "n => { const t = document.querySelector(\"#replay-bar [data-role='replay-where']\").textContent;"
        " return Number(t.split(' / ')[0]) >= n; }", arg=4, timeout=10_000)
    server.ok("replay", show=show, action="stop")


def test_the_console_takes_a_question_off_the_projector_and_an_answered_one_leaves_by_itself(server, browser):
    show = "q" + uuid.uuid4().hex[:7]
    server.ok("create_show", show=show, name="질문 쇼")
    room = screens(server, browser, show, only=("room",))["room"]
    asked = server.ok("ask_question", show=show, text="누가 이길까요?", options=[f"{i}번" for i in range(1, 10)])
    room.wait_for_selector("#crowd .cr-question.cr-tall")
    assert room.evaluate("document.querySelector('.stage').dataset.side") == "on"  # the board left it the column
    console = console_page_on(server, browser, show)
    console.click("[data-view='crowd']")
    console.click(f"[data-question='{asked['question']}'] [data-action='question-off']")
    room.wait_for_selector("#crowd", state="hidden")
    assert room.evaluate("document.querySelector('.stage').dataset.side") == "off"
    assert server.snapshot(show)["crowd"]["questions"][-1]["off"] is True
    console.click(f"[data-question='{asked['question']}'] [data-action='question-on']")
    room.wait_for_selector("#crowd .cr-question")
    # Answered, it shows its answer a few seconds, then leaves the projector by itself.
    server.ok("resolve_question", show=show, question=asked["question"], answer=[2])
    room.wait_for_selector("#crowd .cr-resolved")
    room.wait_for_selector("#crowd", state="hidden", timeout=15_000)


def console_page_on(server: LiveServer, browser: Any, show: str) -> Any:
    """The console of a show with no table yet."""
    from .test_console import console_page_empty

    return console_page_empty(server, browser, show)


def test_two_stages_confirmed_back_to_back_make_one_moment_naming_both(server, browser):
    """Issue 33: confirming Bridge then Safari back to back, the moment titled "엑스트라 배틀:
    트리키 사파리 결과" showed Bridge's content and Safari's result never showed. When one update
    brings both, the moment names both stages, each with its winner."""
    ev = Evening(server, "tricky_survival", SURVIVAL, {"event_match": "on"}, seed=5)
    room = screens(server, browser, ev.show, only=("room",))["room"]
    gallery = ev.open("gallery")
    server.ok("start", show=ev.show, table=gallery)
    ev.play(gallery)
    ev.confirm("gallery")
    ev.program_decisions()
    assert {"bridge", "safari"} <= set(ev.ready())
    tables = {}
    for key in ("bridge", "safari"):
        tables[key] = ev.open(key)
        server.ok("start", show=ev.show, table=tables[key])
        ev.play(tables[key])
    server.ok("set_current", show=ev.show, table=ev.program)
    room.wait_for_selector(".pg-stage[data-stage='safari']")
    hall = Client(server.url, "/public", {"show": ev.show})

    def public(confirmed: int) -> dict[str, Any]:
        return hall.wait_for(lambda e, p: e == "view" and p["table"]["table"] == ev.program and sum(
            s["status"] == "confirmed" for s in p["table"]["state"]["stages"]) == confirmed)["table"]

    # Both confirmations reach the page as one update: the page draws the public view before and after.
    before = public(1)
    ev.confirm("bridge")
    ev.confirm("safari")
    after = public(3)
    hall.close()
    for view in (before, after):
        room.evaluate("p => Display.render(p)", {"show": {"id": ev.show, "name": "쇼 나이트"}, "table": view,
                                                  "version": view["version"]})
    titles = {key: ev.view(tables[key])["stage"]["title"]["ko"] for key in tables}
    seen = wait_moment(room, titles["bridge"] + " · " + titles["safari"] + " 결과")
    assert titles["bridge"] in seen["text"] and titles["safari"] in seen["text"]
    assert seen["text"].count("승리:") + seen["text"].count("1위:") >= 2, seen
    room.screenshot(path=str(ARTIFACTS / "director-two-stages-at-once.png"))
