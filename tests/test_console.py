"""The dealer's console in Chromium against a live server (issue 12): the current work first and
no scrolling for it on a 1366x768 laptop, no sideways scrolling on a 768 px tablet; numbers,
seats and long lists as widgets; every secret readable; the log in words; corrections with a
preview; keyboard shortcuts; status that speaks; the show clock; the reveal hold; rehearsal bots.
Screenshots go to test-artifacts/browser/console-*.png."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from .live import ARTIFACTS, PIN, Client, LiveServer, stage_key, wait_until

NAMES = ["김민준", "이서연", "박지호", "최수아", "정예준", "강하은", "조도윤", "윤지우", "임채원", "한지민", "오세훈", "서지수"]
LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 768, "height": 1024}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("console")).start()
    yield live
    live.stop()


def new_show(server: LiveServer, players: list[str] = NAMES) -> str:
    show = "c" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name="콘솔 쇼")
    for name in players:
        server.ok("add_player", show=show, name=name)
    return show


def console_page(server: LiveServer, browser: Any, show: str, viewport: dict[str, int] = LAPTOP,
                 errors: list[str] | None = None) -> Any:
    page = browser.new_page(viewport=viewport)
    if errors is not None:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/console/login?show={show}")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/console/{show}")
    page.wait_for_selector("#table-tabs .tab")
    return page


def view_of(server: LiveServer, show: str, table: str) -> dict[str, Any]:
    return next(t["view"] for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)


def gallery_at_auction(server: LiveServer, show: str) -> str:
    table = server.ok("create_table", show=show, game="tricky_gallery", players=NAMES[:9], seed=3)["table"]
    server.ok("start", show=show, table=table)
    for _ in range(9):
        decision = next(d for d in view_of(server, show, table)["decisions"] if d["move"] == "submit_work")
        server.ok("move", show=show, table=table, seat=decision["seat"], sid=uuid.uuid4().hex,
                  move={"type": "submit_work", "entry": decision["fields"][0]["options"][0]["value"]})
    return table


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height



# -- 1 and 2: the work first, numbers as numbers ------------------------------------------------------


def test_the_auction_is_entered_without_scrolling_with_a_seat_grid_and_a_number(server, browser):
    show = new_show(server)
    table = gallery_at_auction(server, show)
    errors: list[str] = []
    page = console_page(server, browser, show, LAPTOP, errors)
    card = ".decision[data-move='enter_auction']"
    page.wait_for_selector(card)
    page.screenshot(path=str(ARTIFACTS / "console-laptop-auction.png"))
    # The whole auction form, its button included, is on the first screen at 1366x768; the
    # roster's re-issue buttons are not (they live under "선수·카드").
    assert in_view(page, f"{card} .next")
    assert page.locator("button:has-text('재발급'):visible").count() == 0
    # Nine seats and one number, not 92 buttons.
    assert page.locator(f"{card} .field[data-field='winner'] .option").count() == 9
    assert page.locator(f"{card} .option").count() < 20
    number = page.locator(f"{card} .field[data-field='bid'] input[type=number]")
    assert number.get_attribute("min") == "1" and number.get_attribute("max") == "10"
    page.click(f"{card} .field[data-field='winner'] .option[data-value='4']")
    number.fill("3")
    page.click(f"{card} .next")
    page.click(f"{card} .submit")
    wait_until(lambda: view_of(server, show, table)["state"]["auction"]["winner"] == 4, what="the auction result")
    assert view_of(server, show, table)["state"]["auction"]["bid"] == 3
    # A 768 px portrait tablet: the page never scrolls sideways.
    tablet = console_page(server, browser, show, TABLET, errors)
    tablet.wait_for_selector(".decision")
    assert tablet.evaluate("document.documentElement.scrollWidth") <= 768
    tablet.screenshot(path=str(ARTIFACTS / "console-tablet.png"))
    assert not errors, errors


# -- 3 and 4: every secret readable, the log in words ------------------------------------------------


@pytest.mark.parametrize("game,players", [("tricky_coin", 2), ("horror_race", 3), ("quattro", 2)])
def test_every_secret_is_a_readable_panel_and_the_log_is_in_words(server, browser, game, players):
    show = new_show(server, NAMES[:players])
    table = server.ok("create_table", show=show, game=game, players=NAMES[:players], seed=5)["table"]
    server.ok("start", show=show, table=table)
    for _ in range(4):  # a few moves, the first seat's by the dealer on its behalf
        decision = next((d for d in view_of(server, show, table)["decisions"]), None)
        if decision is None:
            break
        move = {"type": decision["move"]}
        for field in decision["fields"]:
            values = [o["value"] for o in field.get("options", [])]
            move[field["name"]] = (values[:field["k"]] if field["shape"] == "some" else
                                   {str(i["value"]): values[0] for i in field["items"]} if field["shape"] == "assign"
                                   else field["low"] if field["shape"] == "number" else values[0])
        server.ok("move", show=show, table=table, seat=decision["seat"], move=move, sid=uuid.uuid4().hex)
    page = console_page(server, browser, show)
    page.wait_for_selector(".panel-table")
    assert page.locator(".state-json").count() == 0  # no JSON dump
    text = page.locator(".log-box").inner_text()
    assert "dealer>seat" not in text and "table.started" not in text and "{" not in text
    assert "테이블 시작" in text and "대신)" in text  # "딜러(1번 김민준 대신)"
    page.screenshot(path=str(ARTIFACTS / f"console-{game}-panel.png"), full_page=True)


# -- 5: corrections are safe and visible --------------------------------------------------------------


def test_a_void_shows_what_it_undoes_asks_for_a_reason_and_applies_later_moves_again(server, browser):
    show = new_show(server, NAMES[:2])
    table = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])["table"]
    public = Client(server.url, "/public", {"show": show})
    page = console_page(server, browser, show)
    # "시작" can be undone before the first move.
    page.click("[data-action=start]")
    page.wait_for_selector("[data-action=unstart]")
    page.click("[data-action=unstart]")
    page.wait_for_selector(".void-dialog")
    assert "테이블 시작" in page.locator(".void-target").inner_text()
    page.fill(".void-dialog input[name=reason]", "너무 일찍 시작")
    page.click("[data-action=confirm-void]")
    wait_until(lambda: not view_of(server, show, table)["started"], what="the start undone")
    page.click("[data-action=start]")
    wait_until(lambda: view_of(server, show, table)["started"], what="started again")
    for seat, coin in ((0, 20), (1, 5)):
        server.ok("move", show=show, table=table, seat=seat, move={"type": "put_coin", "coin": coin}, sid=uuid.uuid4().hex)
    page.wait_for_selector(".log-table tr[data-v] button[data-void]")
    # Void the older action (seat 1's 20): the dialog says what it undoes and what is applied again.
    first_put = next(r for r in server.snapshot(show)["tables"][0]["log"] if r["event"]["type"] == "CoinPut")
    page.click(f"button[data-void='{first_put['action']}']")
    page.wait_for_selector(".void-dialog")
    target = page.locator(".void-target").inner_text()
    assert "김민준" in target and "20" in target
    assert "이서연" in page.locator(".void-dialog").inner_text()  # applied again
    # Enter in an empty reason box voids nothing (the box asks for a reason).
    page.press(".void-dialog input[name=reason]", "Enter")
    time.sleep(0.5)
    assert page.locator(".void-dialog").count() == 1
    assert view_of(server, show, table)["state"]["seats"][0]["box_count"] == 1
    page.fill(".void-dialog input[name=reason]", "코인을 잘못 넣음")
    page.press(".void-dialog input[name=reason]", "Enter")
    wait_until(lambda: view_of(server, show, table)["state"]["seats"][0]["box_count"] == 0, what="the void")
    assert view_of(server, show, table)["state"]["seats"][1]["box_count"] == 1  # seat 2's coin applied again
    # The projector is told what was undone, in public words; the typed reason stays the dealer's.
    seen = public.wait_for(lambda e, p: e == "view" and p["table"] and p["table"]["correction"])
    assert 0 < seen["table"]["correction"]["v"] <= seen["table"]["version"]
    assert seen["table"]["correction"]["what"]["ko"] and "reason" not in seen["table"]["correction"]
    assert all("잘못 넣음" not in json.dumps(p, ensure_ascii=False) for _, p in public.history)
    public.close()


# -- 6: keyboard shortcuts ----------------------------------------------------------------------------


def test_keyboard_shortcuts_are_listed_and_work(server, browser):
    show = new_show(server, NAMES[:4])
    first = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])["table"]
    second = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[2:4])["table"]
    page = console_page(server, browser, show)
    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    listed = page.locator("#shortcuts").inner_text()
    for key in ("S", "V", "P", "R", "Enter", "Esc"):
        assert key in listed
    page.keyboard.press("Escape")
    page.wait_for_selector(f"#table-tabs [data-table='{first}'][aria-selected=true]")
    page.keyboard.press("]")
    page.wait_for_selector(f"#table-tabs [data-table='{second}'][aria-selected=true]")
    page.keyboard.press("s")
    wait_until(lambda: view_of(server, show, second)["started"], what="S starts the table")
    page.keyboard.press("p")
    wait_until(lambda: server.snapshot(show)["show"]["current"] == second, what="P puts it on the projector")
    server.ok("move", show=show, table=second, seat=0, move={"type": "put_coin", "coin": 1}, sid=uuid.uuid4().hex)
    page.wait_for_selector(".log-table tr[data-v='2']")
    page.keyboard.press("v")
    page.wait_for_selector(".void-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector(".void-dialog", state="detached")


# -- 7: status that speaks ----------------------------------------------------------------------------


def test_status_speaks_new_tables_open_archive_presence_and_a_reissued_card(server, browser):
    show = new_show(server, NAMES[:2])
    page = console_page_empty(server, browser, show)
    page.click(".views [data-view=new]")
    page.select_option("#game-select", "tricky_coin")
    for name in NAMES[:2]:
        page.click(f"#seat-picker [data-name='{name}']")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#notice:text('테이블을 만들었습니다')")
    page.wait_for_selector("#view-work:not([hidden]) [data-action=start]")  # the new table is open
    page.wait_for_selector("#notice", state="hidden", timeout=8000)  # the notice clears itself
    table = server.snapshot(show)["show"]["tables"][0]
    assert "준비" in page.locator(f"#table-tabs [data-table='{table}']").inner_text()
    server.ok("start", show=show, table=table)
    page.wait_for_selector(f"#table-tabs [data-table='{table}'] .badge-live")
    server.ok("finish", show=show, table=table, reason="test")
    page.click("[data-action=archive]")
    wait_until(lambda: table in server.snapshot(show)["show"]["archived"], what="archived")
    page.wait_for_selector("#table-tabs .tab-archive")  # archived tables fold away behind one button
    # Presence: the roster shows whose phone is connected now.
    links = server.snapshot(show)["links"]
    page.click(".views [data-view=players]")
    phone = Client(server.url, "/seat", {"token": links[0]["token"]})
    page.wait_for_selector("#roster tr[data-player='0'] .here")
    assert page.locator("#roster tr[data-player='1'] .away").count() == 1
    phone.close()
    # A re-issued card shows as a QR on the console and prints alone.
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#roster tr[data-player='1'] button.danger")
    page.wait_for_selector("#card-shown img.card-qr")
    wait_until(lambda: page.evaluate("document.querySelector('#card-shown img').naturalWidth") > 0, what="the QR")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    pdf = requests.get(f"{server.url}/print/{show}/seat-cards.pdf?player=1", cookies=cookies, timeout=30)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    page.screenshot(path=str(ARTIFACTS / "console-card.png"))


def console_page_empty(server: LiveServer, browser: Any, show: str) -> Any:
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.url}/console/login?show={show}")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/console/{show}")
    page.wait_for_selector("#conn[data-state=online]")
    return page


# -- 8, 9, 10: the show clock, the reveal hold, rehearsal bots ----------------------------------------


def test_the_show_clock_counts_down_pauses_and_is_logged(server, browser):
    show = new_show(server, NAMES[:2])
    table = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])["table"]
    server.ok("start", show=show, table=table)
    phone = Client(server.url, "/seat", {"token": server.snapshot(show)["links"][0]["token"]})
    page = console_page(server, browser, show)
    page.click("[data-clock='start-60']")
    page.wait_for_selector("[data-clock='pause']")
    face = page.locator("[data-clock-face]")
    wait_until(lambda: face.inner_text().startswith("0:5"), what="the countdown")
    clock = phone.wait_for(lambda e, p: e == "view" and p["table"]["clock"])["table"]["clock"]
    assert clock["state"] == "running" and clock["seconds"] == 60
    page.click("[data-clock='pause']")
    page.wait_for_selector("[data-clock='resume']")
    assert "⏸" in face.inner_text()
    page.click("[data-clock='add']")
    page.click("[data-clock='stop']")
    page.wait_for_selector("[data-clock='start-60']")
    log = page.locator(".log-box").inner_text()
    for words in ("시계 시작 60초", "시계 멈춤", "시계 15초 추가", "시계 끔"):
        assert words in log
    phone.close()


def test_the_reveal_hold_keeps_boxes_off_the_projector_until_released(server, browser):
    show = new_show(server, NAMES[:2])
    table = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])["table"]
    page = console_page(server, browser, show)
    page.click(".views [data-view=settings]")
    page.check("[data-setting=reveal_hold]")
    wait_until(lambda: server.snapshot(show)["show"]["settings"]["reveal_hold"] == "on", what="the hold on")
    page.click(".views [data-view=work]")
    public = Client(server.url, "/public", {"show": show})
    server.ok("start", show=show, table=table)
    for seat, coin in ((0, 20), (1, 5)):
        server.ok("move", show=show, table=table, seat=seat, move={"type": "put_coin", "coin": coin}, sid=uuid.uuid4().hex)
    for seat in (0, 1):
        server.ok("move", show=show, table=table, seat=seat, move={"type": "choose_token", "token": "STOP"},
                  sid=uuid.uuid4().hex)
    page.wait_for_selector(".held [data-action=release]")
    time.sleep(0.5)
    # Nothing of the reveal reached the projector's socket: not the tokens, not the boxes.
    for _event, payload in public.history:
        state = (payload["table"] or {}).get("state") or {}
        assert not state.get("opened") and not state.get("revealed"), payload
    page.keyboard.press("r")
    opened = public.wait_for(lambda e, p: e == "view" and p["table"]["state"]["opened"])
    assert opened["table"]["state"]["opened"][0]["boxes"] == [[20], [5]]
    public.close()


def test_the_projector_link_opens_the_rooms_projector_in_its_own_lane(server, browser):
    """The console's "Projector" opens the display page with the show's key (the dealer snapshot's
    `projector`): the page connects in the stage lane and follows the show; the same page without
    the key, or with a wrong one, is an audience screen (no key in its page)."""
    show = new_show(server, NAMES[:2])
    server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])
    page = console_page(server, browser, show)
    with page.context.expect_page() as opened:
        page.click("#projector-link")
    projector = opened.value
    projector.wait_for_selector("#conn[data-state='online']")
    key = stage_key(server.snapshot(show))
    assert parse_qs(urlsplit(projector.url).query)["stage"] == [key]
    assert projector.locator("#display").get_attribute("data-stage") == key
    lanes = []
    projector.on("websocket", lambda ws: lanes.append(parse_qs(urlsplit(ws.url).query).get("lane")))
    projector.reload()
    projector.wait_for_selector("#conn[data-state='online']")
    assert lanes == [["stage"]], lanes
    wrong = ("y" if key[0] == "x" else "x") + key[1:]  # never the key itself
    for url in (f"{server.url}/display/{show}", f"{server.url}/display/{show}?stage={wrong}"):
        projector.goto(url)
        projector.wait_for_selector("#conn[data-state='online']")
        assert projector.locator("#display").get_attribute("data-stage") == ""
    assert lanes == [["stage"], ["public"], ["public"]], lanes
    projector.close()
    page.close()


def test_rehearsal_bots_play_chosen_seats_and_the_log_marks_them(server, browser):
    show = new_show(server, NAMES[:2])
    table = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])["table"]
    server.ok("start", show=show, table=table)
    page = console_page(server, browser, show)
    page.click(".bots summary")
    for seat in (0, 1):
        page.check(f".bot-seat input[value='{seat}']")
    page.fill(".bots input[type=number]", "0.2")
    page.click("[data-action=bots]")
    wait_until(lambda: view_of(server, show, table)["version"] >= 8, timeout=30, what="the bots to play")
    page.wait_for_selector(".log-table .bot-tag")
    server.ok("bots", show=show, table=table, seats=[])
    time.sleep(0.5)  # a bot's step under way when the command came (it read the seats before) ends
    stopped = view_of(server, show, table)["version"]
    time.sleep(1.0)
    assert view_of(server, show, table)["version"] == stopped


def test_the_new_show_forms_id_pattern_is_one_chromium_checks(server, browser):
    """Issue 37: the pattern was an invalid expression under Chromium's `v` flag (it said so in
    its console), so the browser never checked a show's id."""
    page = browser.new_page(viewport=LAPTOP)
    said: list[str] = []
    page.on("console", lambda msg: said.append(msg.text))
    page.goto(f"{server.url}/console/login")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url("**/console")
    field = page.locator("input[name=show]")
    for value, valid in (("bad id!", False), ("Show", False), ("night-1", True)):
        field.fill(value)
        assert field.evaluate("f => f.checkValidity()") is valid, value
    assert not [m for m in said if "pattern" in m.lower()], said
    page.close()


def test_printouts_take_the_consoles_time_zone_unless_the_show_names_one(server, browser, tmp_path):
    """Issue 33: the console's print links carry its browser's time zone (a server left on UTC
    prints the hall's times); a zone chosen in the show's settings wins; an unknown zone is
    refused in words and changes nothing."""
    from .test_printouts import _text

    show = new_show(server, NAMES[:2])
    table = server.ok("create_table", show=show, game="tricky_coin", players=NAMES[:2])["table"]
    server.ok("start", show=show, table=table)
    page = browser.new_page(viewport=LAPTOP, timezone_id="Asia/Seoul")
    page.goto(f"{server.url}/console/login?show={show}")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#table-tabs .tab")
    link = page.locator("a.print-link[data-sheet=audit]").get_attribute("href")
    assert parse_qs(urlsplit(link).query)["tz"] == ["Asia/Seoul"]
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}

    def printed() -> str:
        pdf = requests.get(server.url + link, cookies=cookies, timeout=30)
        assert pdf.status_code == 200
        return _text(pdf.content, tmp_path, "audit.pdf")

    assert "현지 시각 UTC+09:00 KST" in printed()
    page.click(".views [data-view=settings]")
    page.select_option("[data-setting=time_zone]", "Europe/Lisbon")
    wait_until(lambda: server.snapshot(show)["show"]["settings"]["time_zone"] == "Europe/Lisbon", what="the setting")
    assert "현지 시각 UTC+0" in printed() and "KST" not in printed()
    refused = server.api("settings", show=show, name="time_zone", value="../../etc/passwd")
    assert refused["error"]["code"] == "show/bad_time_zone" and refused["error"]["ko"] and refused["error"]["en"]
    assert server.snapshot(show)["show"]["settings"]["time_zone"] == "Europe/Lisbon"
    # Back to the printing browser's zone.
    page.select_option("[data-setting=time_zone]", "")
    wait_until(lambda: server.snapshot(show)["show"]["settings"]["time_zone"] == "", what="the setting cleared")
    assert "현지 시각 UTC+09:00 KST" in printed()
    page.close()
