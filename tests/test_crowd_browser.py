"""The hall plays along in Chromium (issue 28): audience phones open the show's address (no
login), choose a nickname or not, answer the open question with big buttons and a confirm step,
get a receipt, then right or wrong with their score and rank; the projector shows the split
live with the stored counts, then the answer, and the leaderboard when staff put it up, inside
1920x1080 and 1280x720; a nickname is only ever text."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from .live import ARTIFACTS, LiveServer, wait_until
from .test_crowd_live import coin_show, move

VIEWPORTS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One live server for the module's tests (the last has one of its own, to stop): each plays on a show of its own."""
    live = LiveServer(tmp_path_factory.mktemp("crowd-browser")).start()
    yield live
    live.stop()


def inside(page: Any, selector: str) -> None:
    """Every element matching `selector` lies wholly inside the viewport."""
    boxes = page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel)).map(e => {
      const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""", selector)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert boxes, selector
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5, (selector, left, top, right, bottom)


def test_the_hall_predicts_on_its_phones_and_the_projector_shows_the_split(server, browser):
    errors: list[str] = []
    show, table = coin_show(server)
    projector = browser.new_page(viewport=VIEWPORTS[0])
    projector.on("pageerror", lambda exc: errors.append(str(exc)))
    projector.goto(f"{server.url}/display/{show}")
    phones = []
    for i in range(3):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/a/{show}")
        page.wait_for_selector("#conn[data-state=online]")
        page.wait_for_selector("#nick-form:not([hidden])")
        if i == 0:
            page.fill("#nick-input", "별빛")
            page.click("#nick-form button[type=submit]")
        elif i == 1:
            page.fill("#nick-input", "<b>굵게</b>")
            page.click("#nick-form button[type=submit]")
        else:
            page.click("#nick-skip")
        page.wait_for_selector("#nick-form", state="hidden")
        phones.append(page)
    phones[0].wait_for_selector(".aq-wait")
    qid = server.ok("ask_question", show=show, table=table, key="coin_round")["question"]
    # Phones 1 and 2 pick seat 1 (가람); phone 3 picks seat 2. Tap, then confirm.
    for page, option in zip(phones, (0, 0, 1), strict=True):
        page.wait_for_selector(f".aq-text[data-question='{qid}']")
        page.click(f".aq-option[data-option='{option}']")
        page.click("[data-action=confirm]")
        page.wait_for_selector("[data-role=receipt]")
    assert phones[2].locator(".aq-option").first.is_disabled()  # one prediction per phone
    phones[0].screenshot(path=str(ARTIFACTS / "crowd-phone-receipt.png"))
    # The projector's split equals the stored counts.
    projector.wait_for_selector(f".cr-question[data-question='{qid}'] [data-role=state]:has-text('3명')")
    stored = server.snapshot(show)["crowd"]["questions"][-1]["counts"]
    shown = [int(projector.locator(f".cr-row[data-option='{i}'] [data-role=count]").inner_text().rstrip("명"))
             for i in range(3)]
    assert shown == stored == [2, 1, 0]
    for size in VIEWPORTS:
        projector.set_viewport_size(size)
        inside(projector, ".cr-question, .cr-row, .cr-join-qr")
        projector.screenshot(path=str(ARTIFACTS / f"crowd-projector-split-{size['width']}.png"))
    projector.set_viewport_size(VIEWPORTS[0])
    # The round: 20 beats 5, the boxes open, the question closes and is answered.
    move(server, show, table, 0, {"type": "put_coin", "coin": 20})
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    projector.wait_for_selector(".cr-resolved [data-role=state]:has-text('정답')")
    assert projector.locator(".cr-row.right").get_attribute("data-option") == "0"
    phones[0].wait_for_selector("[data-role=verdict].right")
    phones[2].wait_for_selector("[data-role=verdict].wrong")
    wait_until(lambda: "1점" in phones[0].locator("[data-role=score]").inner_text(), what="the score", timeout=10)
    assert "1위" in phones[0].locator("[data-role=score]").inner_text()
    phones[0].screenshot(path=str(ARTIFACTS / "crowd-phone-right.png"))
    phones[2].screenshot(path=str(ARTIFACTS / "crowd-phone-wrong.png"))
    # Staff put the leaderboard up: the right phones by nickname, a nickname never markup.
    server.ok("audience_board", show=show, on=True)
    projector.wait_for_selector("[data-role=crowd-board] li")
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)  # the round's own moment first
    names = projector.locator("[data-role=crowd-board] .cr-name").all_inner_texts()
    assert names[:2] == ["별빛", "<b>굵게</b>"] or names[:2] == ["<b>굵게</b>", "별빛"]
    assert projector.locator("[data-role=crowd-board] b").count() == 0
    for size in VIEWPORTS:
        projector.set_viewport_size(size)
        inside(projector, "[data-role=crowd-board] li, .cr-board-title")
        projector.screenshot(path=str(ARTIFACTS / f"crowd-projector-board-{size['width']}.png"))
    # Staff hide a nickname: the projector shows the guest name instead.
    device = next(b["device"] for b in server.snapshot(show)["crowd"]["board"] if b["nickname"] == "<b>굵게</b>")
    server.ok("hide_nickname", show=show, device=device)
    wait_until(lambda: "<b>굵게</b>" not in projector.locator("[data-role=crowd-board]").inner_text(),
               what="the hidden nickname")
    server.ok("audience_board", show=show, on=False)
    projector.wait_for_selector("[data-role=crowd-board]", state="detached")
    assert not errors, errors


def test_the_join_screen_shows_where_the_hall_plays_along(server, browser):
    show = "j" + "x" * 5
    server.ok("create_show", show=show, name="입장")
    server.ok("add_player", show=show, name="가람")
    projector = browser.new_page(viewport=VIEWPORTS[1])
    projector.goto(f"{server.url}/display/{show}")
    projector.wait_for_selector("[data-role=audience-join] img")
    assert f"/a/{show}" in projector.locator("[data-role=audience-join]").inner_text()
    inside(projector, "[data-role=audience-join]")
    projector.screenshot(path=str(ARTIFACTS / "crowd-join-screen.png"))


def test_the_console_asks_closes_answers_and_moderates(server, browser):
    from .test_console import console_page

    errors: list[str] = []
    show, table = coin_show(server)
    console = console_page(server, browser, show, errors=errors)
    console.click(".views [data-view=crowd]")
    console.wait_for_selector(f"[data-offer='{table}:coin_round'] [data-action=ask]")
    assert f"/a/{show}" in console.locator("[data-role=audience-url]").inner_text()
    console.click(f"[data-offer='{table}:coin_round'] [data-action=ask]")  # one tap
    console.wait_for_selector(".crowd-question[data-state=open]")
    # A typed question: refused with a clear error when it has one option, then asked.
    console.fill("input[name=crowd-text]", "누가 먼저 STOP을 낼까요?")
    console.fill("textarea[name=crowd-options]", "가람")
    console.click(".crowd-custom button[type=submit]")
    console.wait_for_selector("#error:not([hidden])")
    assert "2-9" in console.locator("#error").inner_text()
    console.fill("textarea[name=crowd-options]", "가람\n나래")
    console.click(".crowd-custom button[type=submit]")
    wait_until(lambda: console.locator(".crowd-question").count() == 2, what="the typed question")
    typed = console.locator(".crowd-question").first  # newest first
    qid = typed.get_attribute("data-question")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.goto(f"{server.url}/a/{show}")
    phone.click("#nick-skip")
    phone.wait_for_selector(f".aq-text[data-question='{qid}']")
    phone.click(".aq-option[data-option='1']")
    phone.click("[data-action=confirm]")
    phone.wait_for_selector("[data-role=receipt]")
    wait_until(lambda: "1 (100%)" in console.locator(f".crowd-question[data-question='{qid}']").inner_text(),
               what="the live count on the console")
    console.click(f".crowd-question[data-question='{qid}'] [data-action=close-question]")
    console.wait_for_selector(f".crowd-question[data-question='{qid}'][data-state=closed]")
    console.click(f".crowd-question[data-question='{qid}'] [data-answer='1']")
    console.wait_for_selector(f".crowd-question[data-question='{qid}'][data-state=resolved]")
    phone.wait_for_selector("[data-role=verdict].right")
    console.click("[data-setting=audience_board][aria-pressed=false]")  # a button that says what the hall will see
    wait_until(lambda: server.snapshot(show)["crowd"]["board_on"], what="the board on")
    console.screenshot(path=str(ARTIFACTS / "crowd-console.png"))
    assert not errors, errors


def test_a_prediction_the_server_answers_too_late_is_sent_again_and_counted_once(tmp_path, browser):
    # A whole hall taps at once and the server answers after the phone stopped waiting (here: its
    # process stopped for 10 s). The phone says it is still sending, sends again by itself, and
    # ends with its receipt; the prediction is counted once.
    server = LiveServer(tmp_path).start()
    try:
        show, table = coin_show(server)
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/a/{show}")
        page.wait_for_selector("#conn[data-state=online]")
        page.click("#nick-skip")
        qid = server.ok("ask_question", show=show, table=table, key="coin_round")["question"]
        page.wait_for_selector(f".aq-text[data-question='{qid}']")
        page.click(".aq-option[data-option='1']")
        os.kill(server.proc.pid, signal.SIGSTOP)
        try:
            page.click("[data-action=confirm]")
            assert "보내는 중" in page.locator("[data-role=sending]").inner_text()
            assert page.locator(".aq-option[data-option='0']").is_disabled()  # no second pick meanwhile
            page.wait_for_selector("[data-role=sending]:has-text('다시 보내는 중')", timeout=20_000)
        finally:
            os.kill(server.proc.pid, signal.SIGCONT)
        page.wait_for_selector("[data-role=receipt]", timeout=30_000)
        assert page.locator("#error").is_hidden()
        # The console's counts are at most a tick (0.5 s) old: wait for them, then they stay at one.
        wait_until(lambda: sum(server.snapshot(show)["crowd"]["questions"][-1]["counts"]) > 0, 10)
        time.sleep(1.2)
        question = server.snapshot(show)["crowd"]["questions"][-1]
        assert question["id"] == qid and question["counts"][1] == 1 and sum(question["counts"]) == 1
        assert not errors, errors
        context.close()
    finally:
        server.stop()


def test_two_open_questions_list_on_the_phone_and_each_answer_shows_on_the_projector(server, browser):
    """Issue 34: with two questions open the phones and the projector showed only the newest, a
    typed question's answer never reached the projector, and a table question could be asked
    twice. Now the phone lists every open question newest first (each with its own state), the
    projector shows the newest open one and says how many more are open, an answer comes up in
    its turn, and an asked question leaves the console's ready list."""
    errors: list[str] = []
    show, table = coin_show(server)
    auction = server.ok("ask_question", show=show, table=table, key="coin_round")["question"]
    again = server.api("ask_question", show=show, table=table, key="coin_round")
    assert not again["ok"] and again["error"]["code"] == "crowd/already_asked" and again["error"]["ko"]
    offers = server.snapshot(show)["crowd"]["offers"]
    assert "coin_round" not in [q["key"] for o in offers for q in o["questions"]]
    typed = server.ok("ask_question", show=show, text="누가 먼저 GO를 외칠까요?", options=["가람", "나래"])["question"]
    projector = browser.new_page(viewport=VIEWPORTS[1])
    projector.on("pageerror", lambda exc: errors.append(str(exc)))
    projector.goto(f"{server.url}/display/{show}")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(f"{server.url}/a/{show}")
    phone.wait_for_selector("#conn[data-state=online]")
    phone.click("#nick-skip")
    # Both open on the phone, newest first; each is answered in its own card.
    phone.wait_for_selector(f".aq-card[data-question='{auction}']")
    assert phone.locator(".aq-card").evaluate_all("cs => cs.map(c => c.dataset.question)") == [typed, auction]
    for qid, option in ((typed, 1), (auction, 0)):
        card = phone.locator(f".aq-card[data-question='{qid}']")
        card.locator(f".aq-option[data-option='{option}']").click()
        card.locator("[data-action=confirm]").click()
        card.locator("[data-role=receipt]").wait_for()
    # The projector: the newest open question, and how many more are open.
    projector.wait_for_selector(f".cr-question[data-question='{typed}'] [data-role=state]:has-text('다른 질문 1개')")
    # The typed question is answered by staff while the match's question stays open: its answer
    # comes up on the projector, then the open one comes back.
    server.ok("close_question", show=show, question=typed)
    server.ok("resolve_question", show=show, question=typed, answer=[1])
    projector.wait_for_selector(f".cr-question[data-question='{typed}'] [data-role=state]:has-text('정답: 나래')")
    phone.wait_for_selector(f".aq-card[data-question='{typed}'] [data-role=verdict].right")
    assert phone.locator(f".aq-card[data-question='{auction}'] [data-role=receipt]").count() == 1
    projector.wait_for_selector(f".cr-question[data-question='{auction}'][data-layer]", timeout=15_000)
    projector.screenshot(path=str(ARTIFACTS / "crowd-two-open-projector.png"))
    phone.screenshot(path=str(ARTIFACTS / "crowd-two-open-phone.png"))
    # The round is played: the match's question closes at its reveal and resolves; its verdict
    # shows in its own card.
    move(server, show, table, 0, {"type": "put_coin", "coin": 20})
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    phone.wait_for_selector(f".aq-card[data-question='{auction}'] [data-role=verdict].right")
    assert not errors, errors
    context.close()
    projector.close()
