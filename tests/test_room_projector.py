"""The projector in a room (issue 13, items 6-10, and the room side of issue 12): readable from
10 m, the right moment and no spoilers, the join screen, a transparent overlay, and sound.

What is checked is what the audience meets at 1920x1080: the glyph boxes of every word on the
screen (against the same words set at 39.5 px, about 40 px at 1080p, in the same font), words cut
off or drawn over other words, pixels of screenshots (the overlay's alpha), and the samples the
page's sound reaches its speakers with. Every game's pictures are checked over whole bot matches
(their public views, in Korean and in English); the rest runs through a live server.
"""

from __future__ import annotations

import random
import uuid
from io import BytesIO
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image

from referee.cli import bot_step
from referee.kernel import Actor, Audience
from referee.store import MemoryStore
from referee.table import Table

from .live import ARTIFACTS, LiveServer

GAMES = ("tricky_coin", "tricky_gallery", "horror_race", "quattro", "tricky_bridge", "tricky_safari", "the_crew",
         "reef", "clumsy_cats")
NAMES = ["김가영", "이나래", "박다솜", "최라온", "정마루", "강바다", "조사랑", "윤아름", "장자두", "임하늘", "한별", "오솔"]
FLOOR_PX = 39.5  # "nothing the audience needs below about 40 px at 1080p"

# What the audience cannot read: text smaller than `px`, cut off, or drawn over other text.
UNREADABLE = r"""(args) => {
  const limit = args.px || 40;
  const skip = args.skip || ".conn, .operator-note";
  const covers = args.covers || "#moment, .correction-banner";
  document.getAnimations().forEach(function (a) { try { a.finish(); } catch (e) { /* an infinite one */ } });
  const refs = new Map();
  function refHeight(parent, text) {
    const cs = getComputedStyle(parent);
    const key = cs.fontFamily + "|" + cs.fontWeight + "|" + cs.fontStyle + "|" + text;
    if (refs.has(key)) return refs.get(key);
    const ref = document.createElement("span");
    ref.textContent = text;
    ref.style.fontSize = limit + "px";
    ref.style.fontFamily = cs.fontFamily; ref.style.fontWeight = cs.fontWeight; ref.style.fontStyle = cs.fontStyle;
    ref.style.position = "absolute"; ref.style.whiteSpace = "nowrap"; ref.style.lineHeight = "normal";
    document.body.appendChild(ref);
    const range = document.createRange();
    range.selectNodeContents(ref);
    const h = range.getBoundingClientRect().height;
    ref.remove();
    refs.set(key, h);
    return h;
  }
  function where(el) {
    const path = [];
    let p = el;
    while (p && p !== document.body && path.length < 3) {
      path.unshift(p.tagName.toLowerCase() + (typeof p.className === "string" && p.className.trim() ? "." + p.className.trim().split(/\s+/).join(".") : ""));
      p = p.parentElement;
    }
    return path.join(" > ");
  }
  function visible(el) {
    if (el.closest("[hidden]")) return false;
    let op = 1;
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden") return false;
      op *= Number(cs.opacity);
    }
    return op > 0.05;
  }
  const out = { small: [], clipped: [], overlap: [] };
  const boxes = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const walker = document.createTreeWalker(document.querySelector(".stage"), NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const text = node.textContent.trim();
    if (!text) continue;
    const parent = node.parentElement;
    if (parent.closest(skip) || !visible(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = Array.from(range.getClientRects()).filter(r => r.width > 1 && r.height > 1);
    if (!rects.length) continue;
    const ref = refHeight(parent, node.textContent);
    const item = { text: text.slice(0, 40), where: where(parent) };
    if (rects.some(r => r.height < ref * 0.97)) out.small.push(Object.assign({ h: Math.round(rects[0].height), ref: Math.round(ref), fs: getComputedStyle(parent).fontSize }, item));
    // cut off: an ellipsis, a box that hides part of it, or off the screen
    let cut = rects.some(r => r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1);
    for (let e = parent; e && !cut && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.overflowX !== "visible" || cs.overflowY !== "visible") {
        const box = e.getBoundingClientRect();
        // a glyph box has air above and below the letters: vertically, a third may stick out
        if (rects.some(r => r.left < box.left - 1 || r.right > box.right + 1
                         || r.top < box.top - r.height / 3 || r.bottom > box.bottom + r.height / 3)) cut = true;
        if (e === parent && cs.textOverflow === "ellipsis" && e.scrollWidth > e.clientWidth + 1) cut = true;
      }
    }
    if (cut) out.clipped.push(item);
    if (!parent.closest(covers)) rects.forEach(r => boxes.push({ r: r, item: item, node: node }));
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.node === b.node) continue;
      // one drawn object (a card: its number and its corner mark) is not text over text
      const ca = a.node.parentElement.closest("[data-card]"), cb = b.node.parentElement.closest("[data-card]");
      if (ca && ca === cb) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      // glyph boxes carry some air above and below: a real overlap covers a third of the smaller
      if (w > 4 && h > Math.min(a.r.height, b.r.height) / 3) out.overlap.push({ a: a.item, b: b.item });
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("room-projector")).start()
    yield live
    live.stop()


def bot_match(game: str, seed: int, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every public view of a whole bot match, in order (the table's own numbering)."""
    from referee.kernel import get_game

    seats = get_game(game).usual_seats
    table = Table.create(MemoryStore(), f"room-{game}-{seed}", game, NAMES[:seats], options=options or {}, seed=seed)
    table.start(Actor.dealer())
    rnd = random.Random(seed)
    views: list[dict[str, Any]] = []
    for _ in range(5000):
        view = table.view(Audience.public())
        if not views or view != views[-1]:
            views.append(view)
        if table.result() is not None:
            return views
        bot_step(table, rnd)
    raise AssertionError(f"{game} did not end")


def new_show(server: LiveServer, players: list[str]) -> str:
    show = "p" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name="방 쇼")
    for name in players:
        server.ok("add_player", show=show, name=name)
    return show


def open_projector(server: LiveServer, browser, show: str, query: str = "", size=(1920, 1080)):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/display/{show}{query}")
    page.errors = errors
    return page


def draw(page, view: dict[str, Any], name: str = "방 쇼") -> None:
    """Hand the projector a public payload as the socket would."""
    page.evaluate("p => Display.render(p)", {"show": {"id": "x", "name": name}, "table": view,
                                             "version": view["version"]})


def unreadable(page) -> dict[str, list]:
    return page.evaluate(UNREADABLE, {"px": FLOOR_PX})


def summary(found: dict[str, list]) -> str:
    lines = [f"small «{s['text']}» {s['fs']} in {s['where']}" for s in found["small"]]
    lines += [f"cut off «{s['text']}» in {s['where']}" for s in found["clipped"]]
    lines += [f"«{o['a']['text']}» over «{o['b']['text']}» ({o['a']['where']} / {o['b']['where']})"
              for o in found["overlap"]]
    return "\n".join(lines)


# -- item 6: every game's pictures, readable from 10 m --------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_games_picture_is_readable_from_the_back_of_the_room(server, browser, game):
    views = bot_match(game, seed=3)
    show = new_show(server, [])
    page = open_projector(server, browser, show, "?lang=ko")
    page.wait_for_selector(".join")
    page.evaluate("g => Live.need(g)", game)
    picks = sorted(set(range(0, len(views), max(1, len(views) // 10))) | {len(views) - 2, len(views) - 1})
    problems = []
    sounded = []
    page.keyboard.press("s")  # the operator arms the sound: each reveal of the match has a cue
    page.wait_for_function("() => document.documentElement.dataset.sound === 'running'")
    for i, view in enumerate(views):
        draw(page, {**view, "table": f"t-{game}"})
        if i in picks:
            for lang in ("ko", "en"):
                page.evaluate("l => I18N.setLang(l)", lang)
                page.evaluate("document.getAnimations().forEach(a => { try { a.finish() } catch (e) {} })")
                found = unreadable(page)
                if any(found.values()):
                    problems.append(f"view {i} ({lang}):\n{summary(found)}")
                    page.screenshot(path=str(ARTIFACTS / f"room-unreadable-{game}-{i}-{lang}.png"))
            page.evaluate("I18N.setLang('ko')")
    page.screenshot(path=str(ARTIFACTS / f"room-projector-{game}-end.png"))
    sounded = page.evaluate("Sound.log.filter(c => c.sounded && c.cue !== 'armed').map(c => c.cue)")
    assert not problems, "\n".join(problems)
    # Item 10: the match's reveals were heard, not only the Gallery siren.
    assert sounded, f"{game}: no sound cue in a whole match"
    assert not page.errors, page.errors


# -- items 7-10 through a live show ---------------------------------------------------------------


def coin_match(server: LiveServer, seed: int) -> tuple[str, str]:
    """A show with 가영 and 나래 at a started Tricky Coin table, on the projector."""
    show = new_show(server, ["가영", "나래"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=seed)["table"]
    server.ok("set_current", show=show, table=table)
    server.ok("start", show=show, table=table)
    return show, table


def coin_moves(server: LiveServer, show: str, table: str, seat: int, move: dict[str, Any]) -> None:
    server.ok("move", show=show, table=table, seat=seat, move=move, sid=uuid.uuid4().hex)


def box(page, selector: str) -> dict[str, float]:
    return page.locator(selector).first.bounding_box()


def test_join_screen_then_a_match_with_clock_sound_correction_and_close(server, browser):
    show = new_show(server, ["가영", "나래", "다솜"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=2)["table"]
    server.ok("set_current", show=show, table=table)
    projector = open_projector(server, browser, show)

    # Item 8: before the match, how to join (the address and its QR) and who is here.
    projector.wait_for_selector(".join .join-qr")
    projector.wait_for_function("() => document.querySelector('.join-qr').naturalWidth > 0")
    assert projector.locator("[data-role=join-url]").inner_text() == f"{server.url}/join"
    assert projector.locator(".join-player.here").count() == 0
    assert projector.locator("[data-role=here]").inner_text() == "0 / 3명 입장"
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.goto(server.snapshot(show)["links"][1]["url"])
    projector.wait_for_selector(".join-player.here:has-text('나래')")  # her name lights up
    assert projector.locator("[data-role=here]").inner_text() == "1 / 3명 입장"
    assert not any(unreadable(projector).values()), summary(unreadable(projector))
    projector.screenshot(path=str(ARTIFACTS / "room-projector-join.png"))
    qr = Image.open(BytesIO(projector.locator(".join-qr").screenshot()))
    assert qr.convert("L").getextrema() == (0, 255)  # a black-on-white code, not a blank box

    # Item 10: the operator arms the sound with a key; there is nothing to click on screen.
    assert projector.locator("button").count() == 0
    projector.keyboard.press("s")
    projector.wait_for_function("() => document.documentElement.dataset.sound === 'running'")

    server.ok("start", show=show, table=table)
    projector.wait_for_selector(".panel-name")
    # Item 6: the points carry their label, on the same line as the number.
    number, label = box(projector, ".panel[data-seat='0'] .panel-score-n"), box(projector, ".panel[data-seat='0'] .panel-score-label")
    assert projector.locator(".panel[data-seat='0'] .panel-score-label").inner_text() == "승점"
    assert label["x"] > number["x"] and abs((label["y"] + label["height"]) - (number["y"] + number["height"])) < number["height"] / 2

    # Item 7: the show clock shows big and counts down by the server's clock.
    server.ok("clock", show=show, table=table, action="start", seconds=95)
    projector.wait_for_selector("#clock:not([hidden])")
    first = int(projector.locator("#clock").get_attribute("data-left"))
    assert 90 <= first <= 95
    assert box(projector, "#clock .clock-time")["height"] >= 0.08 * 1080
    projector.wait_for_timeout(2300)
    assert int(projector.locator("#clock").get_attribute("data-left")) <= first - 2

    # A reveal (GO / STOP) is seen and heard: the page's sound reaches its speakers.
    coin_moves(server, show, table, 0, {"type": "put_coin", "coin": 5})
    coin_moves(server, show, table, 1, {"type": "put_coin", "coin": 5})
    before = projector.evaluate("Sound.log.length")
    coin_moves(server, show, table, 0, {"type": "choose_token", "token": "STOP"})
    coin_moves(server, show, table, 1, {"type": "choose_token", "token": "STOP"})
    projector.wait_for_selector("#moment:not([hidden])")
    projector.wait_for_function(f"() => Sound.log.slice({before}).some(c => c.sounded)")
    levels = []
    for _ in range(8):  # the samples reaching the speakers over the next third of a second
        levels.append(projector.evaluate("Sound.level()"))
        projector.wait_for_timeout(40)
    assert max(levels) > 0.01, levels

    # A correction shows as 정정 / Correction with what it undid in public words (the dealer's
    # typed reason is the dealer's only).
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    server.ok("void", show=show, table=table, reason="잘못 입력")
    projector.wait_for_selector("#correction:not([hidden]):has-text('정정 / Correction')")
    undone = projector.locator("#correction").inner_text()
    assert "나래" in undone and "GO/STOP" in undone and "잘못 입력" not in undone, undone
    projector.wait_for_selector("#moment:not([hidden]):has-text('정정')")
    projector.screenshot(path=str(ARTIFACTS / "room-projector-correction.png"))

    # Closed by the dealer mid-round: the header says so, and no "0/2 제출" lingers.
    projector.wait_for_selector("#sealed:has-text('제출')")
    server.ok("finish", show=show, table=table, reason="시간 종료")
    projector.wait_for_selector("#phase:text('테이블 종료')")
    assert projector.locator("#sealed").inner_text() == ""
    assert not projector.locator(".display-foot").is_visible()
    assert projector.locator("#clock").is_hidden()
    assert not projector.errors, projector.errors


def test_a_projector_whose_link_key_stopped_working_goes_on_as_an_audience_screen(tmp_path, browser):
    """The room's projector, opened from the console's link (stage lane): the server comes back
    with another secret key (so the page's key is refused when it reconnects). The page goes on
    in the audience's lane and still shows the moves, instead of going dark."""
    live = LiveServer(tmp_path, env={"REFEREE_SECRET_KEY": "a" * 64}).start()
    try:
        show, table = coin_match(live, seed=3)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        lanes: list[str | None] = []
        page.on("websocket", lambda ws: lanes.append(parse_qs(urlsplit(ws.url).query).get("lane", [None])[0]))
        page.goto(live.snapshot(show)["projector"])
        page.wait_for_selector("#conn[data-state='online']")
        live.env["REFEREE_SECRET_KEY"] = "b" * 64
        live.restart()
        coin_moves(live, show, table, 0, {"type": "put_coin", "coin": 5})
        page.wait_for_selector(".sealed:text('1/2')", timeout=20_000)
        page.wait_for_selector("#conn[data-state='online']")
        assert lanes[0] == "stage" and lanes[-1] == "public", lanes
        assert not errors, errors
        page.close()
    finally:
        live.stop()


def test_every_rounds_box_opening_is_a_moment_on_the_projector(server, browser):
    # The public view holds the newest opening only: the projector tells a new one by its round.
    show, table = coin_match(server, seed=5)
    projector = open_projector(server, browser, show)
    projector.wait_for_selector(".panel[data-seat='0']")
    for rnd, (coin0, coin1), says in ((1, (10, 5), "가영 10 : 5 나래 → 가영 +2"), (2, (1, 20), "가영 1 : 20 나래 → 나래 +2"),
                                      (3, (5, 5), "가영 5 : 5 나래 — 무승부")):
        coin_moves(server, show, table, 0, {"type": "put_coin", "coin": coin0})
        coin_moves(server, show, table, 1, {"type": "put_coin", "coin": coin1})
        coin_moves(server, show, table, 0, {"type": "choose_token", "token": "STOP"})
        coin_moves(server, show, table, 1, {"type": "choose_token", "token": "STOP"})
        projector.wait_for_selector(f"#moment:not([hidden]):has-text('{says}')")
        assert projector.locator(f".panel[data-seat='0'] .history:has-text('{rnd}라운드 개봉')").count() == 1
        # The sums are the page's to add (the view sends the boxes only); read under the moment,
        # which hides the board while it plays (the layer model).
        assert [projector.locator(f".panel[data-seat='{seat}'] .history strong").text_content().strip()
                for seat in (0, 1)] == [f"= {coin0}", f"= {coin1}"]
        projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    # Two coins a box (both GO, one more coin each, both STOP): the sums are added, not read off
    # one coin.
    for seat, coin in ((0, 10), (1, 20), (0, "GO"), (1, "GO"), (0, 1), (1, 1), (0, "STOP"), (1, "STOP")):
        coin_moves(server, show, table, seat, {"type": "choose_token", "token": coin} if isinstance(coin, str)
                   else {"type": "put_coin", "coin": coin})
    projector.wait_for_selector("#moment:not([hidden]):has-text('가영 11 : 21 나래')")
    assert [projector.locator(f".panel[data-seat='{seat}'] .history strong").text_content().strip()
            for seat in (0, 1)] == ["= 11", "= 21"]
    assert not projector.errors, projector.errors


def test_a_brief_update_of_a_table_the_page_holds_nothing_of_brings_the_whole_snapshot(server, browser):
    # Moves come brief (no names, no title); a brief the page cannot complete (two fan-outs
    # crossed on the way) makes it ask, and the whole snapshot it gets back is drawn.
    show, table = coin_match(server, seed=5)
    projector = open_projector(server, browser, show)
    projector.wait_for_selector(".panel[data-seat='0'] .panel-name:text-is('가영')")
    coin_moves(server, show, table, 0, {"type": "put_coin", "coin": 20})  # brief: completed by the page
    projector.wait_for_selector(".panel[data-seat='0'] :text('비공개 코인 1개')")
    assert projector.locator(".panel[data-seat='1'] .panel-name").inner_text() == "나래"
    assert projector.locator("#game-title").inner_text() == "트리키 코인"
    assert "라운드 시작 보유: 1×3 5×3 10×3 20×2" in projector.locator(".panel[data-seat='1']").inner_text()
    draw(projector, bot_match("tricky_coin", 3)[1])  # another table's picture, by hand
    projector.wait_for_selector(f".panel[data-seat='0'] .panel-name:text-is('{NAMES[0]}')")
    projector.evaluate("p => Display.receive(p)", {"table": {"table": "elsewhere", "started": True, "finished": False},
                                                   "version": 99})
    projector.wait_for_selector(".panel[data-seat='0'] .panel-name:text-is('가영')")
    assert projector.locator(".panel[data-seat='0']").inner_text().count("비공개 코인 1개") == 1
    assert not projector.errors, projector.errors


def test_each_reef_scoring_is_a_moment_though_the_view_holds_only_the_newest(server, browser):
    # The public view carries the newest scoring and their number: the projector tells a new
    # one by the number (a list's length before).
    views = bot_match("reef", seed=3)
    pairs = [(a, b) for a, b in zip(views, views[1:], strict=False)
             if b["state"]["scorings"] > a["state"]["scorings"] and not b["state"]["last_score"]["from_hand"]
             and b["state"]["last_score"]["points"] > 0]
    assert len(pairs) >= 3
    projector = open_projector(server, browser, new_show(server, []))
    projector.wait_for_selector(".join")
    projector.evaluate("Live.need('reef')")
    for before, after in pairs[:3]:
        draw(projector, {**before, "table": "rf"})
        projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
        draw(projector, {**after, "table": "rf"})
        scored = after["state"]["last_score"]
        projector.wait_for_selector(f"#moment:not([hidden]):has-text('+{scored['points']}점 ({scored['count']}개 일치)')")
    assert not projector.errors, projector.errors


def test_between_bridge_rounds_the_projector_recaps_the_newest_rounds_contracts(server, browser):
    # The public view carries the newest round's record only ("newest_round"), not every round's.
    views = bot_match("tricky_bridge", seed=3)
    between = [v for v in views if not v["state"]["rooms"] and v["state"]["newest_round"] and not v["result"]]
    assert between and all("history" not in v["state"] for v in views)
    projector = open_projector(server, browser, new_show(server, []))
    projector.wait_for_selector(".join")
    projector.evaluate("Live.need('tricky_bridge')")
    for view in (between[0], between[-1]):
        draw(projector, {**view, "table": "tb"})
        done = view["state"]["newest_round"]["round"]
        assert done == view["state"]["round"] - 1
        projector.wait_for_selector(f".tb-label:has-text('{done}라운드 계약')")
    assert not projector.errors, projector.errors


def test_the_last_move_plays_out_before_the_header_says_match_over_and_the_finish_leaves_the_ranking_seen(
        server, browser):
    views = bot_match("horror_race", seed=3)
    assert views[-1]["result"] and not views[-2]["result"]
    projector = open_projector(server, browser, new_show(server, []))
    projector.wait_for_selector(".join")
    projector.evaluate("Live.need('horror_race')")
    draw(projector, {**views[-2], "table": "hr"})
    projector.wait_for_selector("#phase:not(:text('경기 종료'))")
    draw(projector, {**views[-1], "table": "hr"})
    # The final round replays move by move: meanwhile the header stays on the round.
    projector.wait_for_selector(".hr[data-animating='1']")
    for _ in range(6):
        assert projector.locator("#phase").inner_text() != "경기 종료"
        assert projector.locator(".hr-result").count() == 0
        projector.wait_for_timeout(300)
    projector.wait_for_selector(".hr[data-animating='0'] .hr-result", timeout=15_000)
    # The finish is a band in the header's place (the layer model: it replaces the header for
    # its time); the rankings stay in view under it. Then the header says the match is over.
    projector.wait_for_selector("#moment.band:not([hidden]):has-text('골인')")
    assert projector.locator("#phase").text_content() == "경기 종료"
    band, ranking = box(projector, "#moment"), box(projector, ".hr-result")
    assert band["y"] + band["height"] <= ranking["y"], (band, ranking)
    projector.wait_for_selector("#phase:text('경기 종료')", timeout=10_000)
    projector.screenshot(path=str(ARTIFACTS / "room-projector-horror-race-finish.png"))
    assert not projector.errors, projector.errors


def test_headlines_name_the_players_not_their_seat_numbers(server, browser):
    views = bot_match("horror_race", seed=3)
    turn = next(v for v in views if v["turn"] and "자리 차례" in v["turn"]["phase"]["ko"])
    seat = int(turn["turn"]["phase"]["ko"].split(": ")[1].split("번")[0]) - 1  # what the game says: "3번 자리 차례"
    projector = open_projector(server, browser, new_show(server, []))
    projector.wait_for_selector(".join")
    projector.evaluate("Live.need('horror_race')")
    draw(projector, {**turn, "table": "h"})
    phase = projector.locator("#phase").inner_text()
    assert "번 자리" not in phase and turn["seats"][seat] in phase  # the screen names them
    projector.evaluate("I18N.setLang('en')")
    phase = projector.locator("#phase").inner_text()
    assert "seat" not in phase.lower() and turn["seats"][seat] in phase
    projector.evaluate("I18N.setLang('ko')")


def test_the_overlay_is_transparent_title_safe_and_shows_no_connection_mark(server, browser):
    show, table = coin_match(server, seed=4)
    coin_moves(server, show, table, 0, {"type": "put_coin", "coin": 10})
    overlay = open_projector(server, browser, show, "?overlay=1")
    overlay.wait_for_selector(".panel-name")
    overlay.wait_for_selector("#moment", state="hidden", timeout=10_000)
    shot = Image.open(BytesIO(overlay.screenshot(omit_background=True))).convert("RGBA")
    shot.save(ARTIFACTS / "room-overlay.png")
    width, height = shot.size
    # The background is see-through down to the root (html as well as body): the corners, the
    # margins and the gap between the two panels.
    panel = [box(overlay, f".panel[data-seat='{s}']") for s in (0, 1)]
    gap_x = int((panel[0]["x"] + panel[0]["width"] + panel[1]["x"]) / 2)
    for x, y in ((2, 2), (width - 3, height - 3), (width // 2, 20), (gap_x, height // 2)):
        assert shot.getpixel((x, y))[3] == 0, (x, y, shot.getpixel((x, y)))
    # The panels are drawn (semi-opaque), so the picture is still there.
    inside = shot.getpixel((int(panel[0]["x"] + 20), int(panel[0]["y"] + panel[0]["height"] - 20)))
    assert inside[3] > 150, inside
    assert not overlay.locator("#conn").is_visible()
    # Every word inside the 5% title-safe margin.
    outside = overlay.evaluate("""([w, h]) => {
      const out = [];
      const walker = document.createTreeWalker(document.querySelector('.stage'), NodeFilter.SHOW_TEXT);
      let node;
      while ((node = walker.nextNode())) {
        if (!node.textContent.trim() || !node.parentElement.checkVisibility()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.left < w * .05 || r.right > w * .95 || r.top < h * .05 || r.bottom > h * .95) out.push(node.textContent.trim());
        }
      }
      return out; }""", [width, height])
    assert outside == [], outside
    assert not overlay.errors, overlay.errors


def test_a_show_program_on_the_projector_keeps_the_join_panel_beside_its_board(server, browser):
    show = new_show(server, ["가람", "나래", "다솜", "라온"])
    program = server.ok("create_program", show=show, program="genius_episode", seed=21)["table"]
    server.ok("set_current", show=show, table=program)
    projector = open_projector(server, browser, show)
    projector.wait_for_selector(".with-join .pg-players")
    projector.wait_for_selector(".join.compact .join-qr")
    found = unreadable(projector)
    projector.screenshot(path=str(ARTIFACTS / "room-projector-program.png"))
    assert not any(found.values()), summary(found)
    assert not projector.errors, projector.errors


def test_a_quattro_card_laid_and_back_in_a_hand_is_said_so_on_the_projector(server, browser):
    """Issue 37: at Quattro's end a card laid with a virtual player and then given on (rules 6-8:
    the best card, always a 0) shows twice, face up and in a candidate's hand. The laid one is
    dimmed with where it went, and the middle says it in words."""
    views = bot_match("quattro", seed=0)
    end = views[-1]
    state = end["state"]
    went = [(v["vp"], f["card"], seat) for v in state["virtual"] for f in v["face_up"]
            for seat, hand in enumerate(state["comparison"]["hands"]) if f["card"] in hand]
    assert went, "seed 0 lays a card that comes back"
    for size in ((1920, 1080), (1280, 720)):
        projector = open_projector(server, browser, new_show(server, []), "?lang=ko", size)
        projector.wait_for_selector(".join")
        projector.evaluate("Live.need('quattro')")
        draw(projector, {**end, "table": "qt"})
        projector.wait_for_selector("[data-role=gone-on]")
        for vp, card, seat in went:  # dimmed where it was laid, with where it went
            laid = projector.locator(f".qt-vp[data-vp='{vp}'] .qt-laid.gone:has([data-card='{card}'])")
            assert laid.count() == 1 and laid.get_attribute("data-went") == f"seat-{seat}"
        words = projector.locator("[data-role=gone-on]").inner_text()
        assert words.startswith("다시 손으로:") and words.count("→") == len(went)
        assert all(end["seats"][seat] in words for _, _, seat in went)
        for locator in (projector.locator("[data-role=gone-on]"), projector.locator(".qt-laid.gone").first):
            b = locator.bounding_box()
            assert b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= size[0] and b["y"] + b["height"] <= size[1]
        projector.screenshot(path=str(ARTIFACTS / f"quattro-gone-on-{size[1]}.png"))
        assert not projector.errors, projector.errors
        projector.close()


def test_a_shared_place_reads_alike_on_the_projector_and_in_the_pages_helper(server, browser):
    """Issue 33: two cats ending level share first place: the final standings say "공동 1위" (as
    the sheets, the phones and the console say it, one helper in static/i18n.js); while the race
    runs, its order is said as places alone (a level start is no shared result)."""
    from referee.kernel import place

    views = bot_match("clumsy_cats", seed=3)
    start, end = views[1], views[-1]
    assert {s["rank"] for s in start["state"]["standings"]} == {1} and end["state"]["over"]
    standings = [dict(s) for s in end["state"]["standings"]]
    standings[1].update(rank=1, points=standings[0]["points"])  # the first two level
    level = {**end, "table": "cc", "state": {**end["state"], "standings": standings}}
    projector = open_projector(server, browser, new_show(server, []), "?lang=ko")
    projector.wait_for_selector(".join")
    projector.evaluate("Live.need('clumsy_cats')")
    draw(projector, {**start, "table": "cc"})
    projector.wait_for_selector(".cc-rank")
    assert set(projector.locator(".cc-rank").all_inner_texts()) == {"1위"}
    draw(projector, {**level, "version": start["version"] + 1})
    projector.wait_for_selector(".cc-rank:has-text('공동')")
    ranks = [x["rank"] for x in standings]
    said = projector.locator(".cc-rank").all_inner_texts()
    assert said == [place(r, ranks.count(r) > 1).ko for r in ranks] and said[:2] == ["공동 1위", "공동 1위"]
    for rank, shared in ((1, True), (2, False), (3, True), (12, False), (23, True)):
        said = projector.evaluate("([r, s]) => I18N.place(r, s)", [rank, shared])
        assert said == place(rank, shared).to_json(), (rank, shared)
    assert not projector.errors, projector.errors
