"""The phones in a dark room (issue 13, items 1-5): one hand, 390x844, Korean first.

Korean words never break inside ("모트리키 + 가 / 품 스티커"); Gallery's genuine and fake
stickers look apart (pixels of the two buttons); the primary button stays in reach and the
language switch sits in the header, over no option; an appraisal's answer shows where the eye
is; receipts say in words what was sent, with the local time; a second card scanned on a phone
that holds a seat asks first; a card open on two devices warns both; a player out of the match
sees it and their place; a revoked card does not also say "reconnecting"; a move the dealer
entered, a correction and the show clock (by the server's clock, whatever the phone's says)
show as such. Flows run through a live server, real phones (Chromium) and the dealer's API.
"""

from __future__ import annotations

import random
import re
import uuid
from io import BytesIO
from typing import Any

import pytest
from PIL import Image

from .live import ARTIFACTS, LiveServer

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NINE = ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아름", "자두"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("room-phone")).start()
    yield live
    live.stop()


def new_show(server: LiveServer, players: list[str]) -> str:
    show = "r" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name="방 쇼")
    for name in players:
        server.ok("add_player", show=show, name=name)
    return show


def phone_of(browser, server: LiveServer, show: str, player: int, init: str | None = None):
    context = browser.new_context(**PHONE)
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    link = server.snapshot(show)["links"][player]
    page.goto(link["url"])
    page.wait_for_selector(f"#player:text('{link['name']}')")
    return page


def table_view(server: LiveServer, show: str, table: str) -> dict[str, Any]:
    return next(t["view"] for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)


def move(server: LiveServer, show: str, table: str, seat: int | None, body: dict[str, Any]) -> None:
    server.ok("move", show=show, table=table, seat=seat, move=body, sid=uuid.uuid4().hex)


def random_answer(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field.get("options", [])]
        if field["shape"] == "some":
            out[field["name"]] = rnd.sample(values, field["k"])
        elif field["shape"] == "assign":
            out[field["name"]] = {str(i["value"]): rnd.choice(values) for i in field["items"]}
        elif field["shape"] == "number":
            # The lowest: a range's top may be more than the chosen seat holds (Gallery's bid).
            out[field["name"]] = field["low"]
        else:
            out[field["name"]] = rnd.choice(values)
    return out


def play_until(server: LiveServer, show: str, table: str, done, rnd: random.Random, spare: int | None = None) -> dict:
    """The dealer's API plays random legal moves (for every seat but `spare`) until done(view)."""
    for _ in range(500):
        view = table_view(server, show, table)
        if done(view):
            return view
        owed = [d for d in view["decisions"] if d["seat"] != spare or spare is None]
        assert owed, f"nothing to play, and not done: {view['turn']}"
        decision = owed[0]
        move(server, show, table, decision["seat"], random_answer(decision, rnd))
    raise AssertionError("never done")


def boxes(page, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(selector, "els => els.map(e => { const r = e.getBoundingClientRect();"
                                                " return {x: r.x, y: r.y, w: r.width, h: r.height}; })")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def mean_colour(png: bytes) -> tuple[float, float, float]:
    image = Image.open(BytesIO(png)).convert("RGB")
    return image.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))


# Words whose letters do not all sit on one line (a Korean word broken inside).
SPLIT_WORDS = """root => {
  const broken = [];
  root.querySelectorAll('.option-label, .field-label, .prompt').forEach(el => {
    const node = el.firstChild;
    if (!node || node.nodeType !== 3) return;
    const text = node.textContent;
    let at = 0;
    text.split(' ').forEach(word => {
      const tops = new Set();
      for (let i = 0; i < word.length; i++) {
        const range = document.createRange();
        range.setStart(node, at + i);
        range.setEnd(node, at + i + 1);
        const r = range.getBoundingClientRect();
        if (r.width) tops.add(Math.round(r.top / 4));
      }
      if (tops.size > 1) broken.push(word + ' in «' + text + '»');
      at += word.length + 1;
    });
  });
  return broken;
}"""


def test_gallery_on_a_phone_words_stickers_the_next_button_the_switch_and_the_appraisal(server, browser):
    show = new_show(server, NINE)
    table = server.ok("create_table", show=show, game="tricky_gallery", players=NINE, seed=5)["table"]
    server.ok("set_current", show=show, table=table)
    phone = phone_of(browser, server, show, 0)
    server.ok("start", show=show, table=table)
    form = "#decision .decision-part[data-move='submit_work']"
    phone.wait_for_selector(f"{form} .option")

    # Item 1: no Korean word breaks inside, on the options, their field or the prompt.
    assert phone.eval_on_selector("#decision", SPLIT_WORDS) == []
    # Genuine and fake options of one work look apart: green with a tick, red with a cross.
    genuine = phone.locator(f"{form} .option[data-value$='/genuine']").first
    fake = phone.locator(f"{form} .option[data-value$='/fake']").first
    g, f = mean_colour(genuine.screenshot()), mean_colour(fake.screenshot())
    assert g[1] > g[0] + 15 and f[0] > f[1] + 15, (g, f)
    assert sum(abs(a - b) for a, b in zip(g, f, strict=True)) > 60, (g, f)

    # Item 2: "다음" is in reach without scrolling, and stays so while the options scroll.
    for scroll in (0, 200):
        phone.evaluate(f"window.scrollTo(0, {scroll})")
        phone.wait_for_timeout(100)
        (nxt,) = boxes(phone, f"{form} button.next")
        assert 0 <= nxt["y"] and nxt["y"] + nxt["h"] <= 844, (scroll, nxt)
    # The language switch is in the header: it scrolls away with it and covers no option.
    for scroll in (0, 150, 300, 450):
        phone.evaluate(f"window.scrollTo(0, {scroll})")
        (switch,) = boxes(phone, "#lang-switch")
        assert not any(overlaps(switch, o) for o in boxes(phone, ".option, button.next")), scroll
    assert phone.locator("header.phone-head #lang-switch").count() == 1
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(ARTIFACTS / "room-phone-gallery-submit.png"))

    # The round goes on through the dealer's API; seat 0 wins the auction and picks first.
    phone.click(f"{form} .option[data-value$='/genuine'] >> nth=0")
    phone.click(f"{form} button.next")
    phone.click(f"{form} button.submit")
    rnd = random.Random(1)
    play_until(server, show, table, lambda v: v["state"]["step"] == "auction", rnd, spare=0)
    move(server, show, table, None, {"type": "enter_auction", "winner": 0, "bid": 1})
    appraise = "#decision .decision-part[data-move='appraise']"
    phone.wait_for_selector(f"{appraise} .option")
    phone.click(f"{appraise} .option >> nth=2")
    phone.click(f"{appraise} button.next")
    phone.click(f"{appraise} button.submit")
    # The answer shows where the eye is: in view at once, above the forms, not 750 px below.
    phone.wait_for_selector("#now .tgp-appraisal.big")
    phone.wait_for_timeout(400)
    (answer,) = boxes(phone, "#now .tgp-appraisal.big")
    (decision,) = boxes(phone, "#decision")
    assert 0 <= answer["y"] and answer["y"] + answer["h"] <= 844, answer
    assert answer["y"] < decision["y"]
    assert re.search(r"(진품|가품)", phone.locator("#now").inner_text())
    phone.screenshot(path=str(ARTIFACTS / "room-phone-gallery-appraisal.png"))
    # The receipt says what was sent, in words, with the time as people read it.
    receipt = phone.locator("#receipt .receipt-what").inner_text()
    assert receipt.startswith("작품: ") and "{" not in receipt
    assert re.fullmatch(r"오[전후] \d{1,2}:\d{2}", phone.locator("#receipt .receipt-time").inner_text())
    assert not phone.errors, phone.errors


def test_an_eliminated_player_sees_that_they_are_out_and_at_the_end_their_place(server, browser):
    """Seat 1 takes a fake in rounds 1 and 2 and is out (Gallery rule 8); later, the final place."""
    show = new_show(server, NINE)
    table = server.ok("create_table", show=show, game="tricky_gallery", players=NINE, seed=5)["table"]
    phone = phone_of(browser, server, show, 1)
    server.ok("start", show=show, table=table)
    fakers = {1: (2, 3, 4), 2: (5, 6, 7)}
    for _ in range(200):
        view = table_view(server, show, table)
        if not view["state"]["seats"][1]["alive"]:
            break
        state = view["state"]
        decision = next(d for d in view["decisions"] if d["move"] != "appraise")
        values = [o["value"] for o in decision["fields"][0]["options"]] if decision["fields"] else []
        if decision["move"] == "submit_work":
            want = "/fake" if decision["seat"] in fakers.get(state["round"], ()) else "/genuine"
            body = {"type": "submit_work", "entry": next((v for v in values if v.endswith(want)), values[0])}
        elif decision["move"] == "take_work":
            real = {w["seat"]: w["genuine"] for w in state["reveal"]["works"]}
            mine = [v for v in values if not real[v]] if decision["seat"] == 1 else [v for v in values if real[v]]
            body = {"type": "take_work", "work": (mine or values)[0]}
        elif decision["move"] == "enter_auction":
            body = {"type": "enter_auction", "winner": values[0], "bid": 1}
        else:
            body = random_answer(decision, random.Random(0))
        move(server, show, table, decision["seat"], body)
    else:
        pytest.fail("seat 1 was never out")
    phone.wait_for_selector("#decision .waiting[data-state='out']")
    text = phone.locator("#decision").inner_text()
    assert "탈락했습니다" in text and "기다리는 중" not in text
    # The place is known at the elimination (Gallery rule 12), and the phone says it at once.
    out = next(e for e in table_view(server, show, table)["state"]["eliminations"] if e["seat"] == 1)
    assert f"최종 {out['place']}위" in phone.locator("#holdings").inner_text()
    phone.screenshot(path=str(ARTIFACTS / "room-phone-out.png"), full_page=True)
    # The match plays out; the eliminated phone then shows its place.
    view = play_until(server, show, table, lambda v: v["result"] is not None, random.Random(2))
    place = next(s["rank"] for s in view["result"]["standings"] if s["seat"] == 1)
    phone.wait_for_selector("#decision .waiting[data-state='over'] .place")
    assert phone.locator("#decision .place").inner_text().startswith(f"{place}위")
    assert "탈락" in phone.locator("#decision").inner_text()
    assert not phone.errors, phone.errors


def test_coin_phones_receipts_moves_entered_corrections_and_the_clock(server, browser):
    show = new_show(server, ["가영", "나래"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=3)["table"]
    # Phone 0's own clock is an hour and a half off: the show clock must not care.
    skew = "(() => { const real = Date.now.bind(Date); Date.now = () => real() + 5400e3; })();"
    phones = [phone_of(browser, server, show, 0, init=skew), phone_of(browser, server, show, 1)]
    server.ok("start", show=show, table=table)
    coin = "#decision .decision-part[data-move='put_coin']"
    phones[0].wait_for_selector(f"{coin} .option[data-value='10']")

    # Item 3: the receipt is what was sent, in words; the local time without a version.
    phones[0].click(f"{coin} .option[data-value='10']")
    phones[0].click(f"{coin} button.next")
    phones[0].click(f"{coin} button.submit")
    phones[0].wait_for_selector("#receipt:not([hidden])")
    assert phones[0].locator("#receipt .receipt-what").inner_text() == "코인: 10코인"
    assert re.fullmatch(r"오[전후] \d{1,2}:\d{2}", phones[0].locator("#receipt .receipt-time").inner_text())
    assert not re.search(r"v\d|[{}]|상자에 넣을", phones[0].locator("#receipt").inner_text())
    # The seat's own picture: the coins in hand and in the box, counted in the view's `coins` order.
    phones[0].wait_for_function("() => (document.querySelectorAll('.coins')[1] || {}).textContent === '10'")
    assert phones[0].locator(".coins").nth(0).locator(".coin").all_inner_texts() == [
        "1", "1", "1", "5", "5", "5", "10", "10", "20", "20"]

    # Item 5: the dealer enters a move for seat 1; its phone says so, in words.
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    phones[1].wait_for_selector("#notices .notice-card.behalf")
    assert "딜러가 대신 입력했습니다" in phones[1].locator("#notices").inner_text()
    assert "5" in phones[1].locator("#notices .notice-card.behalf p").inner_text()
    assert phones[0].locator("#notices .notice-card.behalf").count() == 0
    # ... then voids it: a correction, told to the seat whose move it was.
    server.ok("void", show=show, table=table, reason="잘못 입력")
    phones[1].wait_for_selector("#notices .notice-card.correction")
    assert "정정" in phones[1].locator("#notices .notice-card.correction").inner_text()
    # What was voided, in the seat's words; the dealer's typed reason is the staff's (issue 27).
    assert "5코인" in phones[1].locator("#notices .notice-card.correction").inner_text()
    assert "잘못 입력" not in phones[1].locator("body").inner_text()
    phones[1].screenshot(path=str(ARTIFACTS / "room-phone-notices.png"))
    phones[1].click("#notices .notice-card.correction .notice-ok")  # seen: it goes, and stays gone
    phones[1].wait_for_selector("#notices .notice-card.correction", state="detached")
    phones[1].reload()
    phones[1].wait_for_selector(f"{coin} .option")
    assert phones[1].locator("#notices .notice-card.correction").count() == 0

    # The show clock: big, counting down by the server's clock on the skewed phone too.
    server.ok("clock", show=show, table=table, action="start", seconds=95)
    for page in phones:
        page.wait_for_selector("#clock:not([hidden])")
        left = int(page.locator("#clock").get_attribute("data-left"))
        assert 89 <= left <= 96, left  # whole seconds, rounded up; the link's latency aside
        assert re.fullmatch(r"1:3\d", page.locator("#clock .clock-time").inner_text())
        (digits,) = boxes(page, "#clock .clock-time")
        assert digits["h"] >= 50
    phones[0].wait_for_timeout(2200)
    assert int(phones[0].locator("#clock").get_attribute("data-left")) <= left - 2
    # At zero it shows 0:00 and nothing else happens: the decision is still there to make.
    server.ok("clock", show=show, table=table, action="start", seconds=2)
    phones[1].wait_for_selector("#clock .clock-time:text('0:00')", timeout=6000)
    phones[1].wait_for_timeout(800)
    assert phones[1].locator(f"{coin} .option").count() >= 1
    assert phones[1].locator("#clock .clock-time").inner_text() == "0:00"
    phones[1].screenshot(path=str(ARTIFACTS / "room-phone-clock-zero.png"))
    assert not phones[0].errors and not phones[1].errors


def test_a_second_card_asks_first_two_devices_warn_both_and_a_revoked_card_only_says_so(server, browser):
    show = new_show(server, ["가영", "나래"])
    server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=4)
    links = server.snapshot(show)["links"]
    phone = phone_of(browser, server, show, 0)

    # Item 4: 나래's card scanned on 가영's phone: asked first, nothing of 나래's seat shown.
    phone.goto(links[1]["url"])
    phone.wait_for_selector("h1:text('이 카드의 주인이 맞나요?')")
    assert phone.locator("#card-player").inner_text() == "나래"
    assert phone.locator("#holdings, #decision").count() == 0
    phone.screenshot(path=str(ARTIFACTS / "room-phone-whose-card.png"))
    phone.click("#confirm-no")  # not mine: back to 가영's seat, unchanged
    phone.wait_for_selector("#player:text('가영')")
    phone.goto(links[0]["url"])  # one's own card again: no question
    phone.wait_for_selector("#player:text('가영')")
    phone.goto(links[1]["url"])
    phone.click("#confirm-yes")  # yes, mine: the phone now holds 나래's seat
    phone.wait_for_selector("#player:text('나래')")

    # The same card open on a second device: the first is warned, until the other goes (the
    # second device's own warning: see the test below).
    other = phone_of(browser, server, show, 1)
    phone.wait_for_selector("#devices:not([hidden])")
    assert "다른 기기" in phone.locator("#devices").inner_text()
    assert phone.locator("#devices").get_attribute("data-count") == "2"
    other.context.close()
    phone.wait_for_selector("#devices", state="hidden")

    # Item 5: a re-issued card says so, and does not also say it is reconnecting.
    server.ok("reissue", show=show, player=1)
    phone.wait_for_selector("#error:not([hidden])")
    assert "재발급" in phone.locator("#error").inner_text()
    phone.wait_for_timeout(1500)
    assert not phone.locator("#conn").is_visible()
    assert "연결 끊김" not in phone.locator("body").inner_text()
    phone.screenshot(path=str(ARTIFACTS / "room-phone-revoked.png"))
    assert not phone.errors, phone.errors


def test_a_card_re_issued_while_the_phone_was_away_says_so_when_it_comes_back(server, browser):
    """The phone is offline (asleep, out of the Wi-Fi) while the staff re-issue its card: when it
    is back, its reconnect is refused and the page says why, in Korean and, switched, in English,
    and stops reconnecting, instead of showing "offline" without a word (the refusal's reason
    used to reach the server's log only: the page's client reads it as the error's data)."""
    show = new_show(server, ["가영", "나래"])
    server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=4)
    phone = phone_of(browser, server, show, 0)
    phone.wait_for_selector("#conn[data-state='online']")
    phone.context.set_offline(True)
    phone.wait_for_selector("#conn[data-state='offline']")
    server.ok("reissue", show=show, player=0)
    phone.context.set_offline(False)
    phone.wait_for_selector("#conn[data-state='refused']", state="attached", timeout=15_000)
    assert "재발급" in phone.locator("#error").inner_text()
    assert phone.locator("#holdings, #decision").evaluate_all("els => els.every(e => !e.children.length)")
    phone.click("#lang-switch")
    phone.wait_for_selector("#error:has-text('re-issued')")
    assert phone.locator("#where").inner_text().endswith("Tricky Coin · Seat 1"), phone.locator("#where").inner_text()
    phone.wait_for_timeout(3500)  # past the client's longest reconnection delay: it stays refused
    assert phone.locator("#conn").get_attribute("data-state") == "refused"
    phone.screenshot(path=str(ARTIFACTS / "room-phone-refused-after-away.png"))
    assert not phone.errors, phone.errors


def test_a_placement_receipt_names_each_coin_and_its_zone(server, browser):
    """Horror Race's placement (an assignment) confirmed in words, not {"c1": 3, ...}."""
    players = ["가영", "나래", "다솜"]
    show = new_show(server, players)
    table = server.ok("create_table", show=show, game="horror_race", players=players, seed=7)["table"]
    phone = phone_of(browser, server, show, 0)
    server.ok("start", show=show, table=table)
    rnd = random.Random(3)
    # Everyone backs characters and plays until seat 0 owes the placement of its drawn coins.
    for _ in range(100):
        view = table_view(server, show, table)
        owed = [d for d in view["decisions"] if any(f["shape"] == "assign" for f in d["fields"]) and d["seat"] == 0]
        if owed:
            break
        decision = view["decisions"][0]
        body = random_answer(decision, rnd)
        if decision["move"] != "back_characters" and "action" in body:
            body["action"] = "draw"
        move(server, show, table, decision["seat"], body)
    else:
        pytest.fail("seat 0 never placed coins")
    form = f"#decision .decision-part[data-move='{owed[0]['move']}']"
    phone.wait_for_selector(f"{form} .assign-row")
    for row in range(phone.locator(f"{form} .assign-row").count()):
        phone.locator(f"{form} .assign-row").nth(row).locator(".option").nth(row % 3).click()
    phone.click(f"{form} button.next")
    phone.click(f"{form} button.submit")
    phone.wait_for_selector("#receipt:not([hidden])")
    words = phone.locator("#receipt .receipt-what").inner_text()
    assert words.startswith("코인 배치: 코인 1: ") and "구역" in words and "→" in words, words
    assert not re.search(r"[{}\"]|c\d", words), words
    assert not phone.errors, phone.errors


def test_the_device_that_opens_a_card_second_is_warned_too(server, browser):
    show = new_show(server, ["가영"])
    first = phone_of(browser, server, show, 0)
    second = phone_of(browser, server, show, 0)
    first.wait_for_selector("#devices:not([hidden])")
    second.wait_for_selector("#devices:not([hidden])", timeout=5000)
