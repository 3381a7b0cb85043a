"""`referee export-show` (issue 29): the evening as a static HTML keepsake. A real show on a live
server is exported with the CLI against the server's own data directory; the folder opens in
Chromium from disk with every request that is not a file of the folder refused (and none is
tried); its frames are the table's public frames from the log (referee.table.replay.frames),
each one a view the projector's socket carried live, and each drawn by the projector's own
pictures exactly as the live projector page draws it. Players' secrets are in only after the
show has ended, each player's sealed under their card link's token: nowhere readable in the
folder without it, opened in the browser with it, refused in words with another."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidTag

from referee.cli import show_service
from referee.kernel import Audience
from referee.server.export import PBKDF2_ITERATIONS, unseal
from referee.table.replay import frames, merge, story

from .live import ARTIFACTS, Client, LiveServer, wait_until
from .test_cli import referee
from .test_crowd_live import coin_show, move
from .test_show_night_phone import in_view

EVENING = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One live server for the module's tests: each plays on a show of its own."""
    live = LiveServer(tmp_path_factory.mktemp("export")).start()
    yield live
    live.stop()


def read_script(path: Path, name: str) -> Any:
    """The value a data file of the export sets (``window.NAME = {...};``)."""
    text = path.read_text(encoding="utf-8")
    prefix = f"window.{name} = "
    assert text.startswith(prefix) and text.rstrip().endswith(";")
    return json.loads(text[len(prefix):].rstrip().rstrip(";"))


def export(server: LiveServer, show: str, out: Path) -> tuple[dict[str, Any], subprocess.CompletedProcess]:
    """The CLI against the running server's data directory (it shares the embedded Redis)."""
    done = referee("export-show", show, "--out", str(out), "--data-dir", str(server.data_dir))
    assert done.stdout.strip() == str(out / "index.html")
    return read_script(out / "data" / "show.js", "EXPORTED"), done


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("version", "correction")}


def texts(out: Path) -> dict[str, str]:
    """Every file of the export as text (fonts as their bytes read leniently)."""
    return {str(p.relative_to(out)): p.read_bytes().decode("utf-8", "replace") for p in out.rglob("*") if p.is_file()}


def found_in(out: Path, words: str) -> list[str]:
    """The files of the export holding `words`, as written or as JSON would escape them."""
    escaped = json.dumps(words)[1:-1]
    return [name for name, text in texts(out).items() if words in text or escaped in text]


def offline_page(browser: Any, out: Path, viewport: dict[str, int], **options: Any) -> Any:
    """A page that may load only the export's own files: anything else is refused and noted
    (`page.refused`), as is a file that failed to load (`page.failed`) and a script error."""
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    page.refused, page.failed, page.errors = [], [], []
    root = out.resolve().as_uri() + "/"

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(root):
            request_route.continue_()
        else:
            page.refused.append(url)
            request_route.abort()

    page.route("**/*", route)
    page.on("requestfailed", lambda request: page.failed.append(request.url))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def clean(page: Any) -> None:
    """No placeholder in either language, no script error, nothing from outside the folder."""
    for _ in range(2):
        words = page.locator("body").inner_text()
        assert not any(bad in words for bad in ("null", "undefined", "NaN", "[object")), words
        page.click("#lang-switch")
    assert not page.errors and not page.refused and not page.failed, (page.errors, page.refused, page.failed)


def board_of(page: Any) -> dict[str, str]:
    """What the projector's stage says: the header and the board, as text (a moment the frame
    flashes, which has the board's place for its time, taken down first)."""
    page.evaluate("() => Display.hideMoment()")
    return page.evaluate("""() => ({title: document.getElementById('game-title').innerText,
      phase: document.getElementById('phase').innerText, sealed: document.getElementById('sealed').innerText,
      board: document.getElementById('board').innerText})""")


def own_words(lines: list[dict[str, Any]], langs: tuple[str, ...] = ("ko", "en")) -> list[str]:
    """A seat's secret words: its own lines that say more than the hall's of the same."""
    return [line["own"][lang] for line in lines if line["kind"] in ("move", "told") and line["own"]
            and line["own"] != line["public"] for lang in langs]


# -- an ended show without a program: one Coin match --------------------------------------------


def test_an_ended_show_exports_its_public_story_and_each_players_sealed_record(server, tmp_path, browser):
    show, table = coin_show(server)
    room = Client(server.url, "/public", {"show": show})
    move(server, show, table, 0, {"type": "put_coin", "coin": 20})
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    server.ok("void", show=show, table=table, reason="잘못 입력: 10이었음")
    move(server, show, table, 1, {"type": "put_coin", "coin": 10})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    move(server, show, table, 0, {"type": "put_coin", "coin": 1})
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    for seat in (1, 0):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    # Round 3: both boxes filled, never opened: the dealer closes the table.
    move(server, show, table, 0, {"type": "put_coin", "coin": 10})
    move(server, show, table, 1, {"type": "put_coin", "coin": 1})
    server.ok("finish", show=show, table=table)
    room.wait_for(lambda e, p: e == "view" and p["table"]["finished"])
    seen_live = [strip(p["table"]) for e, p in room.history if e == "view" and p.get("table")]
    links = server.snapshot(show)["links"]

    out = tmp_path / "keepsake"
    data, done = export(server, show, out)
    assert "2 players' pages" in done.stderr

    # The frames are the table's public frames from its log, each a view the room was sent live.
    with show_service(str(server.data_dir)) as service:
        told = frames(service.table(table), Audience.public(), service.releases(show, table))
        stories = {seat: [line.to_json() for line in story(service.table(table), seat)] for seat in (0, 1)}
        seat_frames = {seat: plain([f.to_json() for f in frames(service.table(table), Audience.of_seat(seat))])
                       for seat in (0, 1)}
    exported = data["tables"][0]
    assert data["ended"] and data["show"]["name"] == "관객 예측 쇼" and exported["id"] == table
    assert exported["frames"] == plain([f.to_json() for f in told])
    assert data["evening"] == [[0, i] for i in range(len(told))]
    for frame in exported["frames"]:
        assert strip(frame["view"]) in seen_live
    corrections = [f for f in exported["frames"] if f["correction"]]
    assert len(corrections) == 1

    # Nothing secret in the folder in the clear: not the unopened boxes (seat 0's 10, seat 1's
    # 1), no seat's own words, not the void's reason, no card token.
    secret = [w for seat in (0, 1) for w in own_words(stories[seat])]
    unopened = [line for line in stories[0] if line["kind"] == "move"][-1]
    assert unopened["round"] == 3 and "10" in unopened["own"]["ko"] and "10" not in unopened["public"]["ko"]
    for words in secret + ["잘못 입력", '"box":[', '"hand":[', links[0]["token"], links[1]["token"]]:
        assert not found_in(out, words), words
    assert sorted(p.name for p in (out / "players").iterdir()) == ["1.html", "1.js", "2.html", "2.js"]
    # The sealed blob holds them: each player's own, and only their own.
    for seat, link in enumerate(links):
        sealed = read_script(out / "players" / f"{seat + 1}.js", "SEALED")
        assert sealed["iterations"] >= 200_000 and sealed["iterations"] == PBKDF2_ITERATIONS
        opened = unseal(sealed, link["token"])
        (mine,) = opened["tables"]
        assert mine["seat"] == seat and mine["lines"] == stories[seat] and mine["frames"] == seat_frames[seat]
        assert mine["frames"][-1]["view"]["state"]["seats"][seat]["box"] == [[10], [1]][seat]
        assert "box" not in mine["frames"][-1]["view"]["state"]["seats"][1 - seat]
        text = json.dumps(opened, ensure_ascii=False)
        assert all(w in text for w in own_words(stories[seat]))
        assert not any(w in text for w in own_words(stories[1 - seat]) if w not in own_words(stories[seat]))
        assert "잘못 입력" not in text
    with pytest.raises(InvalidTag):
        unseal(read_script(out / "players" / "1.js", "SEALED"), links[1]["token"])
    salts = {read_script(out / "players" / f"{n}.js", "SEALED")["salt"] for n in (1, 2)}
    assert len(salts) == 2

    # -- the evening in Chromium, from disk, no network ------------------------------------
    page = offline_page(browser, out, EVENING)
    page.goto((out / "index.html").as_uri())
    page.wait_for_selector("#evening [data-role=matches] .ev-match")
    in_view(page, "#evening .ev-show")
    in_view(page, "#evening [data-role=matches] .ev-match")
    in_view(page, "#evening [data-role=players] a")
    assert page.locator("#evening [data-role=players] a").all_inner_texts() == ["가람", "나래"]
    page.screenshot(path=str(ARTIFACTS / "export-evening-coin.png"))
    clean(page)

    live = browser.new_page(viewport=EVENING)
    live.goto(f"{server.url}/display/{show}")
    live.wait_for_selector(".panel-name")
    page.click("#evening [data-watch='0']")
    page.wait_for_selector("#viewer:not([hidden]) #export-bar [data-role=where]")
    count = len(told)
    for i in range(count):
        shown = page.evaluate("Export.shown()")
        assert shown == {"table": table, "frame": i, "index": i, "count": count}
        frame = exported["frames"][i]
        view = frame["view"]
        # Drawn from the frame: each seat's points, as the frame says.
        # (its text, not what shows: a moment the frame flashes has the board's place for its time)
        points = page.locator("#board [data-role=points]").all_text_contents()
        assert points == [str(s["points"]) for s in view["state"]["seats"]]
        assert page.inner_text("#export-bar [data-role=where]") == f"{i + 1} / {count}"
        # And the same as the live projector page draws the frame.
        live.evaluate("p => Display.render(p)", {"show": data["show"], "table": view, "version": 10_000 + i})
        assert board_of(page) == board_of(live), i
        if frame["correction"]:
            assert "정정" in page.inner_text("#export-bar [data-role=what]")
            page.screenshot(path=str(ARTIFACTS / "export-viewer-correction.png"))
        page.keyboard.press("ArrowRight")
    assert page.evaluate("Export.shown()")["index"] == count - 1
    # Reveal by reveal, from the start: exactly the reveals and the correction, in order.
    page.keyboard.press("Home")
    reveals = [i for i, f in enumerate(exported["frames"]) if f["reveal"] or f["correction"]]
    stops = []
    for _ in reveals:
        page.click("#export-bar [data-go=next-reveal]")
        stops.append(page.evaluate("Export.shown()")["frame"])
    assert stops == reveals and len(reveals) >= 3
    page.wait_for_selector("#moment", state="hidden", timeout=15_000)  # the picture as it stays
    for selector in ("#game-title", "#phase", "#board .panel", "#export-bar [data-go]", "#export-bar [data-role=where]"):
        in_view(page, selector)
    page.screenshot(path=str(ARTIFACTS / "export-viewer-coin.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    in_view(page, "#export-bar [data-go]")
    in_view(page, "#board .panel-name")
    page.screenshot(path=str(ARTIFACTS / "export-viewer-coin-720.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#viewer", state="hidden")
    assert not page.refused and not page.failed and not page.errors, (page.refused, page.failed, page.errors)

    # -- a player's page: refused in words with the wrong card, opened with theirs ----------
    phone = offline_page(browser, out, PHONE, is_mobile=True, has_touch=True)
    phone.goto((out / "players" / "1.html").as_uri())
    phone.wait_for_selector("#unlock")
    in_view(phone, "#card-link")
    in_view(phone, "#open")
    phone.fill("#card-link", "안녕하세요")
    phone.click("#open")
    phone.wait_for_selector("#error[data-code='export/no_token']")
    phone.fill("#card-link", links[1]["url"])  # the other player's card
    phone.click("#open")
    phone.wait_for_selector("#error[data-code='export/wrong_card']", timeout=30_000)
    refusal = phone.inner_text("#error")
    assert "열리지 않습니다" in refusal and "가람" in refusal
    assert phone.locator("#record").is_hidden()
    in_view(phone, "#error")
    phone.screenshot(path=str(ARTIFACTS / "export-player-refused.png"))
    phone.fill("#card-link", links[0]["url"])
    phone.click("#open")
    phone.wait_for_selector("[data-role=opened]", timeout=30_000)
    assert phone.locator("#error").is_hidden() and phone.locator("#unlock").is_hidden()
    record = phone.inner_text("#record")
    assert all(w in record for w in own_words(stories[0], ("ko",)))
    assert phone.locator("#record [data-role=line][data-kind=move]").count() == len(
        [line for line in stories[0] if line["kind"] == "move"])
    in_view(phone, "[data-role=opened]")
    in_view(phone, ".keepsake-match h2")
    in_view(phone, ".keepsake-match section.story-round:first-of-type .story-line:first-child")
    phone.screenshot(path=str(ARTIFACTS / "export-player.png"))
    # Their own screen, frame by frame: the coins they held then.
    screen = phone.locator("[data-role=own-screen]")
    screen.scroll_into_view_if_needed()
    phone.click("[data-role=own-screen] [data-go=step]")
    phone.wait_for_selector("[data-role=own-screen][data-frame='1']")
    assert phone.locator("[data-role=own-screen] .coins .coin").count() > 0
    for _ in range(len(seat_frames[0])):
        if phone.locator("[data-role=own-screen] [data-go=step]").is_disabled():
            break
        phone.click("[data-role=own-screen] [data-go=step]")
    assert phone.locator("[data-role=own-screen]").get_attribute("data-frame") == str(len(seat_frames[0]) - 1)
    box = phone.locator("[data-role=own-screen] .coins").last.locator(".coin").all_inner_texts()
    assert box == ["10"]  # the box that never opened, on its owner's screen only
    in_view(phone, "[data-role=own-screen] [data-go=back]")
    phone.screenshot(path=str(ARTIFACTS / "export-player-screen.png"))
    clean(phone)
    # The other player's page opens from a link with the token after "#", which then leaves
    # the address.
    other = offline_page(browser, out, PHONE, is_mobile=True, has_touch=True)
    other.goto((out / "players" / "2.html").as_uri() + "#" + links[1]["token"])
    other.wait_for_selector("[data-role=opened]", timeout=30_000)
    assert "#" not in other.url and other.locator(".keepsake-match").count() == 1
    assert not other.refused and not other.failed and not other.errors
    room.close()


# -- a show that has not ended: no secrets at all -----------------------------------------------


def test_a_show_not_yet_ended_exports_no_secrets_and_says_so(server, tmp_path, browser):
    show, table = coin_show(server)
    # The reveal hold is on: the boxes open on the table, not yet on the projector.
    server.ok("settings", show=show, name="reveal_hold", value="on")
    move(server, show, table, 0, {"type": "put_coin", "coin": 20})
    move(server, show, table, 1, {"type": "put_coin", "coin": 10})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    out = tmp_path / "early"
    data, done = export(server, show, out)
    assert "no player's secrets" in done.stderr
    with show_service(str(server.data_dir)) as service:
        held = plain([f.to_json() for f in frames(service.table(table), Audience.public(), service.releases(show, table))])
    assert data["tables"][0]["frames"] == held
    assert all(not f["view"]["state"]["opened"] for f in held)  # what the room saw: still held
    assert not data["ended"] and not (out / "players").exists() and not (out / "assets" / "phone").exists()
    assert [p["page"] for p in data["players"]] == [None, None]
    with show_service(str(server.data_dir)) as service:
        secret = [w for seat in (0, 1) for w in own_words([x.to_json() for x in story(service.table(table), seat)])]
    assert secret
    for words in [*secret, '"box":[', "SEALED"]:
        assert not found_in(out, words), words
    page = offline_page(browser, out, EVENING)
    page.goto((out / "index.html").as_uri())
    page.wait_for_selector("#evening [data-role=no-secrets]")
    assert "쇼가 끝나기 전에" in page.inner_text("#evening [data-role=no-secrets]")
    in_view(page, "#evening [data-role=no-secrets] p")
    page.screenshot(path=str(ARTIFACTS / "export-evening-early.png"))
    clean(page)
    # The same folder again (an earlier export is written anew); never a folder of other files.
    # Released, the boxes open where the dealer released them.
    server.ok("release", show=show, table=table)
    server.ok("finish", show=show, table=table)
    again, _ = export(server, show, out)
    assert again["ended"] and (out / "players" / "1.html").exists()
    opened = next(f for f in again["tables"][0]["frames"] if f["view"]["state"]["opened"])
    assert opened["release"] and opened["view"]["state"]["opened"][0]["boxes"] == [[20], [10]]
    other = tmp_path / "photos"
    other.mkdir()
    (other / "keep.jpg").write_bytes(b"x")
    refused = subprocess.run([sys.executable, "-m", "referee.cli", "export-show", show, "--out", str(other),
                              "--data-dir", str(server.data_dir)], capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "export/folder_not_empty" in refused.stderr and "비어 있지 않은" in refused.stderr
    assert [p.name for p in other.iterdir()] == ["keep.jpg"]
    missing = subprocess.run([sys.executable, "-m", "referee.cli", "export-show", "nosuchshow", "--out",
                              str(tmp_path / "none"), "--data-dir", str(server.data_dir)],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "show/no_show" in missing.stderr and not (tmp_path / "none").exists()


# -- a whole program: the stages, the final standings, every player's own evening ---------------


def test_a_program_evening_exports_its_stages_final_standings_and_players_records(server, tmp_path, browser):
    from .evening import GENIUS, Evening

    evening = Evening(server, "genius_episode", GENIUS[:6], seed=5)
    final = evening.run()
    out = tmp_path / "genius"
    data, _ = export(server, evening.show, out)
    assert data["ended"] and data["program"] == evening.program
    with show_service(str(server.data_dir)) as service:
        ids = [t["id"] for t in data["tables"]]
        stories = [frames(service.table(t), Audience.public(), service.releases(evening.show, t)) for t in ids]
        assert [t["frames"] for t in data["tables"]] == [plain([f.to_json() for f in s]) for s in stories]
        merged = [(f.table, f.at, f.t) for f in merge(stories)]
        assert [(ids[n], data["tables"][n]["frames"][i]["at"], data["tables"][n]["frames"][i]["t"])
                for n, i in data["evening"]] == merged
        # Each player's sealed evening: their seat's frames at every table that seats them.
        secret: list[str] = []
        for link in evening.links:
            opened = unseal(read_script(out / "players" / f"{link['player'] + 1}.js", "SEALED"), link["token"])
            assert opened["name"] == link["name"]
            seated = [(t, service.table(t).seats.index(link["name"])) for t in ids
                      if link["name"] in service.table(t).seats]
            assert [(t["id"], t["seat"]) for t in opened["tables"]] == seated
            for mine in opened["tables"]:
                table = service.table(mine["id"])
                assert mine["frames"] == plain([f.to_json() for f in frames(table, Audience.of_seat(mine["seat"]))])
                assert mine["lines"] == [line.to_json() for line in story(table, mine["seat"])]
                secret += own_words(mine["lines"])
    assert secret
    for words in set(secret):
        assert not found_in(out, words), words
    standings = [GENIUS[s["seat"]] for s in sorted(final["result"]["standings"], key=lambda s: s["rank"])]

    page = offline_page(browser, out, EVENING)
    page.goto((out / "index.html").as_uri())
    page.wait_for_selector("#evening [data-role=final] .ev-rank")
    assert page.locator("#evening [data-role=final] .ev-rank-name").all_inner_texts() == standings
    assert page.locator("#evening [data-role=stages] .ev-stage").count() == 2
    assert page.locator("#evening [data-role=stages] .ev-order").count() == 2
    in_view(page, "#evening [data-role=final] .ev-rank")
    in_view(page, "#evening [data-role=stages] .ev-stage strong")
    page.screenshot(path=str(ARTIFACTS / "export-evening-genius.png"))
    clean(page)
    # The whole evening, in the order things happened (as the console's replay of it).
    page.click("#evening [data-watch=evening]")
    page.wait_for_selector("#viewer:not([hidden])")
    page.keyboard.press("End")
    shown = page.evaluate("Export.shown()")
    assert shown["index"] == len(data["evening"]) - 1 and shown["table"] == merged[-1][0]
    page.keyboard.press("Escape")
    page.wait_for_selector("#viewer", state="hidden")
    # The program board to its end: the final standings, on the projector's stage.
    program = ids.index(evening.program)
    page.click(f"#evening [data-watch='{program}']")
    page.wait_for_selector("#viewer:not([hidden])")
    page.keyboard.press("End")
    assert page.evaluate("Export.shown()")["frame"] == len(data["tables"][program]["frames"]) - 1
    page.wait_for_selector("#board [data-role=final-standings]")
    page.wait_for_selector("#moment", state="hidden", timeout=15_000)  # the evening's last moment has passed
    seats = page.locator("#board [data-role=final-standings] [data-seat]").evaluate_all(
        "els => els.map(e => Number(e.dataset.seat))")
    assert seats == [s["seat"] for s in final["result"]["standings"]]
    in_view(page, "#board [data-role=final-standings] [data-seat]")
    in_view(page, "#export-bar [data-go]")
    page.screenshot(path=str(ARTIFACTS / "export-viewer-final.png"))
    # Back through a match, reveal by reveal, and to the list with the browser's Back.
    page.keyboard.press("Escape")
    page.wait_for_selector("#viewer", state="hidden")
    match = next(n for n, t in enumerate(data["tables"]) if t["game"] == "horror_race")
    page.click(f"#evening [data-watch='{match}']")
    page.wait_for_selector("#viewer:not([hidden])")
    page.keyboard.press("Shift+ArrowRight")
    at = page.evaluate("Export.shown()")
    first = next(i for i, f in enumerate(data["tables"][match]["frames"]) if f["reveal"] or f["correction"])
    assert at["table"] == data["tables"][match]["id"] and at["frame"] == first
    page.wait_for_timeout(1500)
    page.screenshot(path=str(ARTIFACTS / "export-viewer-race.png"))
    page.go_back()
    page.wait_for_selector("#viewer", state="hidden")
    # A frame whose round's moves play (issue 37): meanwhile the header says that round's moves,
    # never the turn before them, then the frame's own step.
    race = data["tables"][match]["frames"]
    resolved = next(i for i in range(1, len(race))
                    if race[i]["view"]["state"]["rounds_done"] > race[i - 1]["view"]["state"]["rounds_done"])
    page.evaluate("([n, at]) => Export.open(n, at)", [match, resolved - 1])
    wait_until(lambda: page.evaluate("Export.shown()")["frame"] == resolved - 1, what="the frame before the moves")
    page.evaluate("Display.settled()")
    before = page.locator("#phase").inner_text()
    page.keyboard.press("ArrowRight")
    round_no = race[resolved]["view"]["state"]["newest_round"]["round"]
    assert page.locator("#phase").inner_text() == f"{round_no}라운드 이동" != before
    assert page.locator("#phase").get_attribute("data-state") == "moving"
    page.evaluate("Display.settled()")
    wait_until(lambda: page.locator("#phase").get_attribute("data-state") != "moving", what="the frame's own step")
    assert "라운드 이동" not in page.locator("#phase").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("#viewer", state="hidden")
    assert not page.refused and not page.failed and not page.errors, (page.refused, page.failed, page.errors)

    # The eliminated player's own record, opened by their card's link.
    out_seat = final["result"]["details"]["eliminated"]
    link = next(link for link in evening.links if link["name"] == GENIUS[out_seat])
    phone = offline_page(browser, out, PHONE, is_mobile=True, has_touch=True)
    phone.goto((out / "players" / f"{link['player'] + 1}.html").as_uri() + "#" + link["token"])
    phone.wait_for_selector("[data-role=opened]", timeout=30_000)
    assert phone.locator(".keepsake-match").count() == len(opened_tables(out, link))
    in_view(phone, "article.keepsake-match:first-of-type h2")
    in_view(phone, "article.keepsake-match:first-of-type .story-outcome")
    phone.screenshot(path=str(ARTIFACTS / "export-player-genius.png"))
    clean(phone)


def opened_tables(out: Path, link: dict[str, Any]) -> list[dict[str, Any]]:
    return unseal(read_script(out / "players" / f"{link['player'] + 1}.js", "SEALED"), link["token"])["tables"]


def test_a_sealed_record_opens_only_with_its_token_and_for_its_own_page():
    from referee.kernel import RuleError
    from referee.server.export import aad, seal

    token, other = "A" * 24, "B" * 24
    sealed = seal({"secret": "상자에 10코인"}, token, aad("s", 0), iterations=1000)
    assert unseal(sealed, token) == {"secret": "상자에 10코인"}
    assert "10코인" not in json.dumps(sealed, ensure_ascii=False)
    with pytest.raises(InvalidTag):
        unseal(sealed, other)
    with pytest.raises(InvalidTag):  # moved to another player's page, it fails
        unseal({**sealed, "aad": aad("s", 1).decode()}, token)
    with pytest.raises(RuleError):
        seal({}, "not a token", aad("s", 0))
    assert seal({}, token, aad("s", 0), 1000)["salt"] != seal({}, token, aad("s", 0), 1000)["salt"]
