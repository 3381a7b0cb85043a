"""The console's replay on a live server (issue 29): the projector's socket gets the table's
frames (what it was shown live, the voided move left out, its "정정" notice in its place), steps
frame by frame and reveal by reveal, plays on by itself at a pace, never sees a live table's
update while the replay runs, and is live again with one command; in Chromium the projector
draws the frames with its own pictures and says it is a replay."""

from __future__ import annotations

import time

import pytest

from .live import ARTIFACTS, Client, LiveServer, wait_until
from .test_crowd_live import coin_show, move


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One live server for the module: each test plays on a show of its own."""
    live = LiveServer(tmp_path_factory.mktemp("replay-live")).start()
    yield live
    live.stop()


def strip(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("version", "correction")}


def test_the_projector_replays_a_table_then_goes_live_again(server):
    show, table = coin_show(server)
    projector = Client(server.url, "/public", {"show": show})
    move(server, show, table, 0, {"type": "put_coin", "coin": 20})
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    server.ok("void", show=show, table=table, reason="잘못 입력: 10이었음")
    move(server, show, table, 1, {"type": "put_coin", "coin": 10})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    live = projector.wait_for(lambda e, p: e == "view" and p["table"]["state"]["opened"])
    seen_live = [strip(p["table"]) for e, p in projector.history if e == "view" and p.get("table")]
    started = server.ok("replay", show=show, action="start", table=table)["replay"]
    count = started["count"]
    first = projector.wait_for(lambda e, p: e == "view" and p.get("replay"))
    assert first["replay"]["index"] == 0 and first["replay"]["count"] == count
    shown = [first]
    for i in range(1, count):
        server.ok("replay", show=show, action="step")
        shown.append(projector.wait_for(lambda e, p, i=i: e == "view" and (p.get("replay") or {}).get("index") == i))
    # Every frame is a view the projector was shown live; the voided 5 never comes back.
    for payload in shown:
        assert strip(payload["table"]) in seen_live
        assert payload["table"]["state"]["seats"][1]["box_count"] in (0, 1)
    notices = [p for p in shown if p["table"]["correction"]]
    assert len(notices) == 1 and "잘못" not in str(notices[0])
    assert shown[-1]["table"]["state"]["opened"][0]["boxes"] == [[20], [10]]
    # Reveal by reveal: back to the last reveal from the start.
    server.ok("replay", show=show, action="goto", index=0)
    reveal = server.ok("replay", show=show, action="next_reveal")["replay"]
    assert reveal["index"] > 0 and (reveal["reveal"] or reveal["correction"])
    reveal = server.ok("replay", show=show, action="next_reveal")["replay"]
    assert reveal["reveal"] and any("공개" in w["ko"] for w in reveal["what"])
    # It plays on by itself at its pace, with no command.
    server.ok("replay", show=show, action="goto", index=0)
    server.ok("replay", show=show, action="pace", pace=0.5)
    server.ok("replay", show=show, action="play")
    projector.wait_for(lambda e, p: e == "view" and (p.get("replay") or {}).get("index") == count - 1, timeout=20)
    # A live move during the replay does not reach the projector.
    server.ok("create_table", show=show, game="tricky_coin", players=["가람", "나래"])
    before = len(projector.history)
    server.ok("replay", show=show, action="goto", index=1)
    time.sleep(0.6)
    assert all(p.get("replay") for e, p in projector.history[before:] if e == "view")
    # Back to live: the live table's view again, newer than anything it had.
    server.ok("replay", show=show, action="stop")
    back = projector.wait_for(lambda e, p: e == "view" and not p.get("replay"))
    assert back["table"]["table"] == table and back["table"]["version"] >= live["table"]["version"]
    refused = server.api("replay", show=show, action="step")
    assert refused["error"]["code"] == "replay/not_running" and refused["error"]["ko"]
    projector.close()


def test_the_projector_page_draws_a_replay_and_the_console_key_l_ends_it(server, browser):
    from .test_console import console_page

    show, table = coin_show(server)
    for seat, coin in ((0, 20), (1, 5)):
        move(server, show, table, seat, {"type": "put_coin", "coin": coin})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{server.url}/display/{show}")
    projector.wait_for_selector(".panel-name")
    console = console_page(server, browser, show)
    console.click(".views [data-view=replay]")
    console.select_option("[data-keep=replay-table]", table)
    console.click("[data-action=replay-start]")
    projector.wait_for_selector("#replay:not([hidden]) .replay-label")
    console.wait_for_selector("#replay-bar:not([hidden])")
    console.click("[data-replay=next_reveal]")
    projector.wait_for_selector("#replay .replay-what:has-text('공개')")
    box = projector.evaluate("(() => { const r = document.querySelector('#replay').getBoundingClientRect(); "
                             "return [r.left, r.top, r.right, r.bottom]; })()")
    assert box[0] >= 0 and box[1] >= 0 and box[2] <= 1920 and box[3] <= 1080
    projector.screenshot(path=str(ARTIFACTS / "replay-projector.png"))
    console.screenshot(path=str(ARTIFACTS / "replay-console.png"))
    console.click(".views [data-view=players]")  # L works from any view
    console.keyboard.press("l")
    projector.wait_for_selector("#replay", state="hidden")
    wait_until(lambda: console.locator("#replay-bar").is_hidden(), what="the console's bar gone")


def test_the_recap_runs_the_evenings_moments_and_ends_on_the_final_standings(server):
    from .evening import GENIUS, Evening

    evening = Evening(server, "genius_episode", GENIUS[:6], seed=5)
    evening.run()
    projector = Client(server.url, "/public", {"show": evening.show})
    whole = server.ok("replay", show=evening.show, action="start")["replay"]
    recap = server.ok("replay", show=evening.show, action="start", recap=True)["replay"]
    assert 0 < recap["count"] < whole["count"]
    assert len(whole["tables"]) == 3  # the program, the race and the death match
    server.ok("replay", show=evening.show, action="goto", index=recap["count"] - 1)
    last = projector.wait_for(lambda e, p: e == "view" and (p.get("replay") or {}).get("index") == recap["count"] - 1)
    assert last["replay"]["recap"] and last["table"]["state"]["final"] is not None
    # The stage results are in it: the program frames that confirmed each match.
    moments = []
    for i in range(recap["count"]):
        moments.append(server.ok("replay", show=evening.show, action="goto", index=i)["replay"])
    said = " ".join(w["ko"] for m in moments for w in m["what"])
    # Captioned as titles (issue 33): the race's confirmed result, the opponent named, and the
    # death match's confirmation, which brings the final standings, as such.
    assert said.count("결과 확정") == 1 and "지목" in said and moments[-1]["what"] == [{"ko": "최종 순위", "en": "Final standings"}]
    server.ok("replay", show=evening.show, action="stop")
    projector.close()


def test_a_replay_started_while_another_runs_replaces_it_on_the_projector(server, browser):
    """Issue 37: the program's replay started while a table's replay plays takes over at once
    (the projector, the console's bar and controls), without "라이브로" first."""
    from .evening import GENIUS, Evening
    from .test_console import console_page

    evening = Evening(server, "genius_episode", GENIUS[:6], seed=5)
    evening.run()
    race = next(t for t in evening.snapshot()["show"]["tables"] if t != evening.program)
    console = console_page(server, browser, evening.show)
    with console.context.expect_page() as opened:  # the room's projector, on its stage lane
        console.click("#projector-link")
    projector = opened.value
    projector.set_viewport_size({"width": 1280, "height": 720})
    projector.wait_for_selector("#conn[data-state='online']")
    console.click(".views [data-view=replay]")
    console.select_option("[data-keep=replay-table]", race)
    console.click("[data-action=replay-start]")
    console.wait_for_selector("#replay-bar:not([hidden])")
    table_count = server.snapshot(evening.show)["replay"]["count"]
    console.click("[data-replay=play]")
    projector.wait_for_selector("#replay:not([hidden]) .replay-where")
    # The whole evening, chosen and started while the race's replay plays.
    console.select_option("[data-keep=replay-table]", "")
    console.click("[data-action=replay-start]")
    wait_until(lambda: server.snapshot(evening.show)["replay"]["tables"][0] == evening.program,
               what="the program's replay on the server")
    whole = server.snapshot(evening.show)["replay"]
    assert whole["count"] != table_count and whole["index"] == 0 and not whole["playing"]
    where = f"1 / {whole['count']}"
    wait_until(lambda: projector.locator("#replay .replay-where").inner_text() == where,
               what="the projector on the program's replay")
    wait_until(lambda: console.locator("#replay-bar [data-role=replay-where]").inner_text() == where,
               what="the console's bar on the program's replay")
    # The recap, started while the whole evening plays, replaces it the same way.
    console.click("[data-replay=play]")
    console.wait_for_selector("[data-replay=pause]")
    console.click("[data-action=recap-start]")
    projector.wait_for_selector("#replay .replay-label:has-text('하이라이트')")
    recap = server.snapshot(evening.show)["replay"]
    assert recap["recap"] and recap["index"] == 0 and recap["count"] < whole["count"]
    console.keyboard.press("l")
    projector.wait_for_selector("#replay", state="hidden")
