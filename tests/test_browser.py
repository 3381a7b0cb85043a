"""A whole Tricky Coin match in headless Chromium: the console in one page, two phones in
mobile viewports, the projector in a fourth. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import uuid

import pytest

from .live import ARTIFACTS, LiveServer, open_pages


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("browser")).start()
    yield live
    live.stop()



def phone_turn(page, value: str) -> None:
    """Answer the phone's current decision with the option `value`: choose, confirm, submit."""
    page.click(f"#decision .option[data-value='{value}']")
    page.click("#decision button.next")
    page.wait_for_selector("#decision .confirm-q")
    page.click("#decision button.submit")
    page.wait_for_selector("#receipt:not([hidden])")


def test_whole_match_through_console_phones_and_projector(server, browser):
    show = "b" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name="브라우저 쇼")
    for name in ("가영", "나래"):
        server.ok("add_player", show=show, name=name)
    server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=1)
    links = server.snapshot(show)["links"]
    errors: list[str] = []

    console, projector, phones = open_pages(server, browser, show, links, errors)
    # Before the match the projector is the join screen; once both phones are here, what comes
    # next: the match and its pairing, large.
    projector.wait_for_selector("[data-role='up-next'] [data-role='pairing']:text-is('가영 vs 나래')")
    assert all(page.url.endswith("/p") for page in phones), "the token must leave the address bar"

    console.click("[data-action=start]")
    projector.wait_for_selector(".panel-name")
    phones[0].wait_for_selector("#decision button.next")
    assert phones[0].locator("#decision .option").count() == 4  # 1, 5, 10, 20: the legal coins

    # Seat 1 puts a 20: the projector shows 1/2 submitted and a hidden coin, never its value.
    phone_turn(phones[0], "20")
    projector.wait_for_selector(".sealed:text('1/2')")
    assert projector.locator(".panel[data-seat='0'] .box-coins .coin.hidden").count() == 1
    assert projector.locator(".panel[data-seat='0'] .box-coins .coin:not(.hidden)").count() == 0
    projector.screenshot(path=str(ARTIFACTS / "projector-sealed.png"))
    phones[0].screenshot(path=str(ARTIFACTS / "phone-receipt.png"))

    # The dealer enters seat 2's coin on its behalf (picking the seat that owes), then voids it
    # with a reason after seeing what the void undoes.
    console.click(".seat-chip[data-seat='1']")
    console.wait_for_selector(".decision[data-seat='1'] .option[data-value='10']")
    console.click(".decision[data-seat='1'] .option[data-value='10']")
    console.click(".decision[data-seat='1'] button.next")
    console.click(".decision[data-seat='1'] button.submit")
    console.wait_for_selector(".log-table td:text('딜러(2번 나래 대신)')")
    console.click("[data-action=void-last]")
    console.wait_for_selector(".void-dialog .void-target:text('나래')")
    console.fill(".void-dialog input[name=reason]", "잘못 입력 / wrong coin")
    console.click("[data-action=confirm-void]")
    console.wait_for_selector(".log-table tr.voided")
    console.screenshot(path=str(ARTIFACTS / "console-void.png"), full_page=True)

    # Now both phones play the match out: a coin, then STOP, every round.
    rounds = 0
    while projector.locator(".result").count() == 0:
        progressed = False
        for page in phones:
            if page.locator("#decision button.next").count():
                field = page.locator("#decision .field").first.get_attribute("data-field")
                phone_turn(page, "STOP" if field == "token" else page.locator("#decision .option").first.get_attribute("data-value"))
                progressed = True
        if not progressed:
            phones[0].wait_for_timeout(100)
        rounds += 1
        assert rounds < 400, "the match did not end"
        if rounds == 6:
            projector.screenshot(path=str(ARTIFACTS / "projector-round.png"))

    projector.wait_for_selector(".result")
    projector.screenshot(path=str(ARTIFACTS / "projector-result.png"))
    for i, page in enumerate(phones):
        page.wait_for_selector("#decision .waiting strong")
        page.screenshot(path=str(ARTIFACTS / f"phone-{i + 1}-end.png"))
    console.wait_for_selector("#table h3:text('결과')")
    assert console.locator("#table ol li").count() == 2
    final = server.snapshot(show)["tables"][0]["view"]
    assert final["result"] is not None and final["state"]["round"] == 10
    winner = final["seats"][final["result"]["winner"]]
    assert winner in projector.locator(".result").inner_text()

    # The overlay variant is transparent for a broadcast mixer.
    overlay = browser.new_page(viewport={"width": 1920, "height": 1080})
    overlay.goto(f"{server.url}/display/{show}?overlay=1")
    overlay.wait_for_selector(".panel-name")
    assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert not errors, errors
