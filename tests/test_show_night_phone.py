"""The phones' show night (issue 27, the phone's part), on real Chromium phones (390x844) against
a live server, whole evenings driven through the API (tests/evening.py).

The evening's end is said in words on every phone ("우승" with the golden key where the rules
give one, "최종 N위", a Genius death match's "생존" and "탈락"; never "null", never "탈락 후보"
once it is over); a player out of the main game but due in the event match is told both; the
three Coin matches of an evening each carry their stage's name; the wrong-card screen's big
button is the safe one; the sticky "다음" never covers the option brought into view; receipts
and notices of an earlier round or of another player's card go; two corrections leave one
notice, the newest, in public words, never the dealer's reason.
"""

from __future__ import annotations

from typing import Any

import pytest

from .evening import GENIUS, SURVIVAL, Evening
from .live import ARTIFACTS, LiveServer
from .test_browser import phone_turn
from .test_room_phone import boxes, move, new_show, phone_of, table_view

# Each element matching the selector, where a person in the hall would miss it: off the
# viewport, of no size, or cut by an ancestor that hides its overflow.
UNSEEN = """els => els.map(e => {
  const r = e.getBoundingClientRect();
  const what = (e.className || e.tagName) + " «" + e.textContent.trim().slice(0, 30) + "»";
  if (!r.width || !r.height) return what + ": no size";
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return what + ": off the screen";
  for (let a = e.parentElement; a; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
    const b = a.getBoundingClientRect();
    if (r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.right > b.right + 1)
      return what + ": cut by " + (a.className || a.tagName);
  }
  return null;
}).filter(Boolean)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("show-night-phone")).start()
    yield live
    live.stop()


def in_view(page, selector: str) -> None:
    assert page.locator(selector).count(), f"nothing matches {selector}"
    problems = page.eval_on_selector_all(selector, UNSEEN)
    assert not problems, problems


def clean(page) -> None:
    """No placeholder reaches a public screen, in either language (the page is left in Korean)."""
    for _ in range(2):
        words = page.locator("body").inner_text()
        assert not any(bad in words for bad in ("null", "undefined", "NaN", "[object")), words
        page.click("#lang-switch")
    assert not page.errors, page.errors


def program_state(evening: Evening) -> dict[str, Any]:
    return evening.view(evening.program)["state"]


def out_in(state: dict[str, Any], stage: str) -> list[int]:
    return [e["player"] for e in state["board"]["eliminated"] if e["stage"] == stage]


def the_end(browser, evening: Evening, player: int, name: str, page=None):
    """The player's phone (opened now unless given) at the evening's end, checked and shot."""
    page = page or phone_of(browser, evening.server, evening.show, player)
    page.wait_for_selector("#decision .pg-end")
    in_view(page, "#decision .pg-end > strong, #decision .pg-outcome, #decision .pg-end p")
    assert "탈락 후보" not in page.locator("body").inner_text()
    page.screenshot(path=str(ARTIFACTS / f"show-night-phone-{name}.png"))
    clean(page)
    return page


def outcome(page) -> str:
    return page.locator("#decision .pg-outcome").inner_text()


def test_a_survival_evening_with_the_event_match_says_where_each_player_stands_and_how_it_ended(server, browser):
    evening = Evening(server, "tricky_survival", SURVIVAL, {"event_match": "on"}, seed=3)
    kept: dict[str, Any] = {}
    coin_titles: list[str] = []

    def on(step: str, key: str, table: str) -> None:
        state = program_state(evening)
        if step == "confirmed" and key == "gallery":
            # Item 6: out of the main game, yet due in the extra battle: both are said.
            loser = out_in(state, "gallery")[0]
            page = phone_of(browser, server, evening.show, loser)
            page.wait_for_selector("#decision .pg-standing[data-state='extra']")
            assert page.locator("#decision .pg-status").inner_text() == "메인 게임 탈락 · 엑스트라 배틀 출전"
            assert "엑스트라 배틀: 트리키 사파리" in page.locator("#holdings .pg-next").inner_text()
            assert "탈락했습니다" not in page.locator("body").inner_text()
            # One seat number (issue 33): the next match's seat, never the program's own.
            assert "번 자리" not in page.locator("#where").inner_text()
            assert "번 자리" in page.locator("#holdings .pg-next").inner_text()
            in_view(page, "#decision .pg-status, #holdings .pg-next")
            page.screenshot(path=str(ARTIFACTS / "show-night-phone-extra-battle.png"))
            page.click("#lang-switch")
            assert page.locator("#decision .pg-status").inner_text() == "Out of the main game · playing the extra battle"
            page.click("#lang-switch")
            kept["gallery loser"] = (loser, page)  # it follows its player to the end
        if step == "opened" and key.startswith("coin_"):
            # Item 5: each Coin match by its stage's name, in the header, the card and the list.
            title = next(s for s in state["stages"] if s["key"] == key)["title"]["ko"]
            player = next(s for s in state["stages"] if s["key"] == key)["players"][0]
            page = phone_of(browser, server, evening.show, player)
            page.wait_for_selector(f"#where:has-text('{title}')")
            assert title in page.locator("#decision .waiting[data-state='ready']").inner_text()
            assert any(title in chip for chip in page.locator("#tables .table-chip").all_inner_texts())
            page.screenshot(path=str(ARTIFACTS / f"show-night-phone-{key}.png"))
            coin_titles.append(title)
            page.context.close()

    evening.run(on=on)
    assert len(set(coin_titles)) == 3, coin_titles
    assert [w for t in coin_titles for w in ("결승", "3·4위전", "엑스트라 배틀") if w in t] == ["결승", "3·4위전", "엑스트라 배틀"]

    state = program_state(evening)
    final = state["final"]
    rank = {s["seat"]: s["rank"] for s in final["standings"]}
    winner = final["winner"]
    page = the_end(browser, evening, winner, "survival-event-winner")
    assert outcome(page) == "우승"
    # Survival rule 4: no prize in the event match, so no golden key.
    assert page.locator(".pg-golden").count() == 0 and "황금 열쇠" not in page.locator("body").inner_text()
    page.click("#lang-switch")
    assert outcome(page) == "Winner"

    bridge = out_in(state, "bridge")[0]
    page = the_end(browser, evening, bridge, "survival-event-bridge-loser")
    assert rank[bridge] in (3, 4)
    assert outcome(page) == f"최종 {rank[bridge]}위"
    assert page.locator("#decision .pg-where").inner_text() == "탈락 · 2차 배틀: 트리키 브릿지"

    loser, page = kept["gallery loser"]
    the_end(browser, evening, loser, "survival-event-gallery-loser", page)
    assert outcome(page) == f"최종 {rank[loser]}위" and rank[loser] >= 5
    assert page.locator("#decision .pg-where").inner_text() == "탈락 · 1차 배틀: 트리키 갤러리"
    assert "출전" not in page.locator("#decision").inner_text()  # the extra battle is behind them


def test_a_survival_evening_without_the_event_match_gives_the_winner_the_golden_key(server, browser):
    evening = Evening(server, "tricky_survival", SURVIVAL, {}, seed=5)
    kept: dict[str, Any] = {}

    def on(step: str, key: str, table: str) -> None:
        if step == "confirmed" and key == "gallery":
            loser = out_in(program_state(evening), "gallery")[0]
            page = phone_of(browser, server, evening.show, loser)
            page.wait_for_selector("#decision .pg-standing[data-state='out']")
            assert page.locator("#decision .pg-status").inner_text() == "탈락 · 1차 배틀: 트리키 갤러리"
            assert "쇼가 끝나면" in page.locator("#decision").inner_text()
            assert "출전" not in page.locator("body").inner_text()
            kept["gallery loser"] = (loser, page)

    evening.run(on=on)
    state = program_state(evening)
    final = state["final"]
    rank = {s["seat"]: s["rank"] for s in final["standings"]}
    winner = final["winner"]
    assert final["details"]["golden_key"] == winner
    page = the_end(browser, evening, winner, "survival-winner")
    assert outcome(page) == "우승"
    assert page.locator("#decision .pg-golden").inner_text() == "황금 열쇠"
    assert "황금 열쇠" in page.locator("#holdings .pg-keys").inner_text()
    in_view(page, "#decision .pg-golden")

    bridge = out_in(state, "bridge")[0]
    page = the_end(browser, evening, bridge, "survival-bridge-loser")
    assert outcome(page) == f"최종 {rank[bridge]}위" and rank[bridge] in (3, 4)
    assert page.locator("#decision .pg-golden").count() == 0

    loser, page = kept["gallery loser"]
    the_end(browser, evening, loser, "survival-gallery-loser", page)
    assert outcome(page) == f"최종 {rank[loser]}위" and rank[loser] >= 5
    assert page.locator("#decision .pg-where").inner_text() == "탈락 · 1차 배틀: 트리키 갤러리"


def test_a_genius_episode_ends_with_the_eliminated_player_out_and_the_death_match_survivor_alive(server, browser):
    evening = Evening(server, "genius_episode", GENIUS, {}, seed=3)
    kept: dict[int, Any] = {}

    def on(step: str, key: str, table: str) -> None:
        if step == "confirmed" and key == "main_match":
            tie = evening.decision(evening.program, "break_tie")
            if tie is not None:
                assert evening.move(evening.program, {"type": "break_tie",
                                                      "candidate": tie["fields"][0]["options"][0]["value"]})["ok"]
            # The candidate names the opponent on the phone, told why above the form.
            candidate = evening.decision(evening.program, "name_opponent")["seat"]
            page = phone_of(browser, server, evening.show, candidate)
            page.wait_for_selector("#decision [data-move='name_opponent'] .option")
            assert page.locator("#now .pg-status-line").inner_text() == "탈락 후보"
            in_view(page, "#now .pg-status-line, #decision [data-move='name_opponent'] .prompt")
            page.screenshot(path=str(ARTIFACTS / "show-night-phone-genius-candidate.png"))
            kept[candidate] = page
        if step == "opened" and key == "death_match":
            # The two of the death match, followed from here to the end of the evening.
            for player in next(s for s in program_state(evening)["stages"] if s["key"] == key)["players"]:
                if player not in kept:
                    kept[player] = phone_of(browser, server, evening.show, player)

    evening.run(on=on)
    details = program_state(evening)["final"]["details"]
    out = details["eliminated"]
    survivor = next(p for p in (details["candidate"], details["opponent"]) if p != out)
    assert set(kept) == {out, survivor}
    page = the_end(browser, evening, out, "genius-eliminated", kept[out])
    assert outcome(page) == "탈락"
    assert page.locator("#decision .pg-facts").inner_text().startswith("데스 매치 패배")
    page = the_end(browser, evening, survivor, "genius-survivor", kept[survivor])
    assert outcome(page) == "생존"
    assert page.locator("#decision .pg-facts").inner_text().startswith("데스 매치 승리")
    assert "탈락" not in page.locator("#decision").inner_text()
    page.click("#lang-switch")
    assert outcome(page) == "Survived"


def test_the_wrong_card_screen_makes_going_back_the_big_button(server, browser):
    show = new_show(server, ["가영", "나래"])
    server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=4)
    links = server.snapshot(show)["links"]
    phone = phone_of(browser, server, show, 0)
    phone.goto(links[1]["url"])
    phone.wait_for_selector("h1:text('이 카드의 주인이 맞나요?')")
    (back,) = boxes(phone, "#confirm-no")
    (take,) = boxes(phone, "#confirm-yes")
    # The safe answer is the bigger target, the full width, above the other, and the accent.
    assert back["h"] >= 1.4 * take["h"] and back["w"] > take["w"] * 1.2, (back, take)
    assert back["y"] + back["h"] <= take["y"]
    in_view(phone, "#confirm-no, #confirm-yes")
    colours = phone.eval_on_selector_all("#confirm-no, #confirm-yes", "els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert colours[0] == "rgb(255, 204, 51)" and colours[1] != colours[0], colours
    assert phone.locator("#confirm-no").inner_text() == "아니요, 돌아가기 (가영)"
    phone.screenshot(path=str(ARTIFACTS / "show-night-phone-wrong-card.png"))
    phone.click("#confirm-no")
    phone.wait_for_selector("#player:text('가영')")
    assert not phone.errors, phone.errors


@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
def test_the_sticky_next_button_never_covers_the_last_option(server, browser, size):
    width, height = size
    show = new_show(server, SURVIVAL)
    table = server.ok("create_table", show=show, game="tricky_gallery", players=SURVIVAL, seed=5)["table"]
    phone = phone_of(browser, server, show, 0)
    phone.set_viewport_size({"width": width, "height": height})
    server.ok("start", show=show, table=table)
    form = "#decision .decision-part[data-move='submit_work']"
    last = f"{form} .option >> nth=-1"
    phone.wait_for_selector(f"{form} .option")
    assert phone.eval_on_selector(f"{form} button.next", "e => getComputedStyle(e).position") == "sticky"  # a long list
    for how in ("scrollIntoView({block: 'end'})", "scrollIntoView({block: 'nearest'})", "focus()"):
        phone.evaluate("window.scrollTo(0, 0)")
        phone.locator(last).evaluate(f"e => e.{how}")
        phone.wait_for_timeout(150)
        (option,) = boxes(phone, f"{form} .option:last-child")
        (bar,) = boxes(phone, f"{form} button.next")
        assert bar["y"] + bar["h"] <= height, (how, bar)  # the bar itself is in reach
        assert option["y"] >= 0 and option["y"] + option["h"] <= bar["y"], (how, option, bar)
    phone.screenshot(path=str(ARTIFACTS / f"show-night-phone-last-option-{width}x{height}.png"))
    # A thumb's tap on it lands on it, not on the bar.
    phone.locator(last).click(timeout=3000)
    assert phone.locator(f"{form} .option:last-child").get_attribute("aria-pressed") == "true"
    assert not phone.errors, phone.errors


def test_receipts_and_notices_of_an_earlier_round_or_another_card_go(server, browser):
    show = new_show(server, ["가영", "나래"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=6)["table"]
    phones = [phone_of(browser, server, show, 0), phone_of(browser, server, show, 1)]
    server.ok("start", show=show, table=table)
    coin = "#decision .decision-part[data-move='put_coin']"
    token = "#decision .decision-part[data-move='choose_token']"

    phones[0].wait_for_selector(f"{coin} .option")
    phone_turn(phones[0], "10")
    assert phones[0].locator("#receipt .receipt-what").inner_text() == "코인: 10코인"
    # The dealer puts seat 2's coin: both owe GO/STOP; 가영's coin receipt belongs to the put.
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    phones[0].wait_for_selector(f"{token} .option")
    phones[0].wait_for_selector("#receipt", state="hidden")
    phones[1].wait_for_selector("#notices .notice-card.behalf")
    # 나래 answers GO/STOP herself: her receipt shows; the dealer's notice stays this round.
    phone_turn(phones[1], "STOP")
    assert phones[1].locator("#receipt .receipt-what").inner_text().startswith("토큰: STOP")
    assert phones[1].locator("#notices .notice-card.behalf").count() == 1
    phones[1].screenshot(path=str(ARTIFACTS / "show-night-phone-round-1.png"))
    # 가영's STOP ends round 1: round 2's coin is owed, and round 1's receipt and notice are gone.
    phone_turn(phones[0], "STOP")
    phones[1].wait_for_selector(f"{coin} .option")
    phones[1].wait_for_selector("#receipt", state="hidden")
    assert phones[1].locator("#notices .notice-card").count() == 0
    # 가영's own answer opened round 2: its receipt comes with what it brought, until the next.
    phones[0].wait_for_selector(f"{coin} .option")
    assert phones[0].locator("#receipt .receipt-what").inner_text().startswith("토큰: STOP")
    phones[1].screenshot(path=str(ARTIFACTS / "show-night-phone-round-2.png"))
    phones[1].reload()  # and they stay gone
    phones[1].wait_for_selector(f"{coin} .option")
    phones[1].wait_for_timeout(300)
    assert phones[1].locator("#receipt").is_hidden() and phones[1].locator("#notices .notice-card").count() == 0

    # 가영 puts round 2's coin; then the phone is handed round: 나래's card on it. Same table,
    # another player: 가영's receipt must not show as 나래's.
    phone_turn(phones[0], "1")
    link = server.snapshot(show)["links"][1]
    phones[0].goto(link["url"])
    phones[0].click("#confirm-yes")
    phones[0].wait_for_selector("#player:text('나래')")
    phones[0].wait_for_selector(f"{coin} .option")
    phones[0].wait_for_timeout(300)
    assert phones[0].locator("#receipt").is_hidden()
    phones[0].screenshot(path=str(ARTIFACTS / "show-night-phone-handed-round.png"))
    assert not phones[0].errors and not phones[1].errors


def test_two_corrections_leave_one_notice_the_newest_in_public_words(server, browser):
    show = new_show(server, ["가영", "나래"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=7)["table"]
    phone = phone_of(browser, server, show, 1)
    server.ok("start", show=show, table=table)
    coin = "#decision .decision-part[data-move='put_coin']"
    reasons = ["가영이 20코인을 들고 있음", "딜러 실수: 나래 5코인 아님"]
    for value, reason in zip(("5", "10"), reasons, strict=True):
        phone.wait_for_selector(f"{coin} .option[data-value='{value}']")
        phone_turn(phone, value)
        server.ok("void", show=show, table=table, reason=reason)
        phone.wait_for_selector(f"#notices .notice-card.correction:has-text('{value}')")
        phone.wait_for_selector(f"{coin} .option[data-value='{value}']")  # owed again
    phone.wait_for_timeout(300)
    notes = phone.locator("#notices .notice-card.correction")
    assert notes.count() == 1
    words = notes.inner_text()
    assert "정정" in words and "10" in words and "5코인" not in words, words
    assert not any(r in phone.locator("body").inner_text() for r in reasons)
    in_view(phone, "#notices .notice-card.correction")
    phone.screenshot(path=str(ARTIFACTS / "show-night-phone-correction.png"))
    phone.click("#notices .notice-card.correction .notice-ok")
    phone.wait_for_selector("#notices .notice-card", state="detached")
    phone.reload()
    phone.wait_for_selector(f"{coin} .option")
    phone.wait_for_timeout(300)
    assert phone.locator("#notices .notice-card").count() == 0
    assert not phone.errors, phone.errors


def test_a_duel_ends_in_won_or_lost_and_a_score_only_where_there_is_one(server, browser):
    show = new_show(server, ["가영", "나래"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=8)["table"]
    phones = [phone_of(browser, server, show, 0), phone_of(browser, server, show, 1)]
    server.ok("start", show=show, table=table)
    for _ in range(400):
        view = table_view(server, show, table)
        if view["result"]:
            break
        decision = view["decisions"][0]
        field = decision["fields"][0]
        values = [o["value"] for o in field["options"]]
        # Seat 1 always puts its biggest coin, seat 2 its smallest: never level for long.
        value = "STOP" if "STOP" in values else (max(values) if decision["seat"] == 0 else min(values))
        move(server, show, table, decision["seat"], {"type": decision["move"], field["name"]: value})
    else:
        pytest.fail("the duel did not end")
    result = table_view(server, show, table)["result"]
    for seat, page in enumerate(phones):
        page.wait_for_selector("#decision .waiting[data-state='over'] .place")
        me = next(s for s in result["standings"] if s["seat"] == seat)
        expected = "승리" if result["winner"] == seat else ("무승부" if result["winner"] is None else "패배")
        assert page.locator("#decision .place").inner_text() == expected
        assert page.locator("#decision .score").inner_text() == f"점수 {me['score']}"
        in_view(page, "#decision .place")
        clean(page)
    phones[0].screenshot(path=str(ARTIFACTS / "show-night-phone-duel-over.png"))
