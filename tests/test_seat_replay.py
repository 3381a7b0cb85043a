"""The players' own replay on their phones after the show (issue 29, the phones' part).

A seat's story of a match (referee.table.replay.story) holds its own decisions in its own words,
secret parts included (which coin, which sticker, which slots), beside the public's words of the
same action ("not shown" where the hall saw nothing), the reveals between them, the secrets it
was told, and a correction in public words where a voided action was; never a voided action,
never the dealer's reason, never another seat's secret. The phone asks for it with `story` on
/seat, refused before the show has ended and for a table that does not seat the player; after a
whole evening, the phone (Chromium, 390x844) offers "내 경기 다시 보기" and shows a match round
by round, the player's own choices beside the public's.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest

from referee.kernel import Actor, Audience, Event, registry
from referee.store import MemoryStore
from referee.table import Table
from referee.table.replay import story
from referee.table.runtime import VOIDED, what

from .evening import SURVIVAL, Evening
from .live import ARTIFACTS, Client, LiveServer
from .test_programs_live import answer
from .test_replay import NAMES, step
from .test_room_phone import new_show, phone_of, table_view
from .test_show_night_phone import in_view

DEALER = Actor.dealer()
GAMES = sorted(g for g, game in registry().items() if not game.program)


def text(lines: list[Any]) -> str:
    return json.dumps([line.to_json() if hasattr(line, "to_json") else line for line in lines], ensure_ascii=False)


def secret_words(table: Table, event: Event) -> dict[str, str] | None:
    """An event in the words of those who may see its secret part (a seat it was meant for, or
    the dealer alone), when those differ from the public's: what no other seat may ever read."""
    insider = Audience.of_seat(event.to[0]) if event.to else Audience.dealer()
    words = what(table.game, event.visible_to(insider), table.seats).to_json()
    public = Audience.public()
    shown = None if event.hidden_from(public) else what(table.game, event.visible_to(public), table.seats).to_json()
    return None if words == shown else words


def coin_with_a_correction() -> Table:
    """Tricky Coin, one round: 나래's 5 entered by mistake and voided, her 10 entered by the dealer."""
    table = Table.create(MemoryStore(), "c", "tricky_coin", ["가람", "나래"], seed=1)
    table.start(DEALER)
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 20})
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 5})
    table.void(DEALER, "잘못 입력: 나래는 10을 냈음")
    table.submit(Actor.on_behalf(1), {"type": "put_coin", "coin": 10})
    for seat in (0, 1):
        table.submit(Actor.of_seat(seat), {"type": "choose_token", "token": "STOP"})
    return table


def test_a_seats_story_has_its_own_secret_words_beside_the_publics_and_the_reveals_between():
    table = coin_with_a_correction()
    lines = story(table, 0)
    assert [(line.kind, line.round) for line in lines] == [
        ("move", 1), ("correction", 1), ("move", 1), ("reveal", 1), ("reveal", 1)]
    coin, correction, token, tokens, boxes = lines
    # Its own coin and token in its own words; the hall's words of the same beside them.
    assert coin.own["ko"] == "1번 가람: 상자에 20코인" and coin.public["ko"] == "1번 가람: 상자에 코인 1개를 넣음"
    assert coin.own["en"] and coin.public["en"] and "20" not in coin.public["ko"] + coin.public["en"]
    assert token.own["ko"] == "1번 가람: STOP 선택 (공개 전)" and token.public["ko"] == "1번 가람: GO/STOP 토큰 제출"
    assert not coin.behalf and not token.behalf
    # The reveals as the hall saw them, in order after the move that made them.
    assert tokens.public["ko"].startswith("GO/STOP 공개") and tokens.own is None
    assert boxes.public["ko"].startswith("1라운드 상자 공개") and "20" in boxes.public["ko"]
    # The rival's voided 5 is a correction in public words only; her 5 and the reason never show.
    assert correction.public == {"ko": "2번 나래: 상자에 코인 1개를 넣음", "en": correction.public["en"]}
    assert "5코인" not in text(lines) and "잘못 입력" not in text(lines) and "10을" not in text(lines)
    # The rival's own story: her move the dealer entered for her, flagged, in her words; her voided
    # 5 is gone but for the correction.
    hers = story(table, 1)
    moves = [line for line in hers if line.kind == "move"]
    assert moves[0].own["ko"] == "2번 나래: 상자에 10코인" and moves[0].behalf
    assert [line.kind for line in hers].count("correction") == 1
    assert "5코인" not in text(hers) and "20코인" not in text(hers)


def gallery(seed: int = 7) -> Table:
    rnd = random.Random(seed)
    table = Table.create(MemoryStore(), "g", "tricky_gallery", NAMES[:9], seed=seed)
    table.start(DEALER)
    while step(table, rnd):
        pass
    return table


def test_a_gallery_story_shows_its_own_stickers_and_appraisals_and_no_rivals():
    table = gallery()
    entries = table.store.entries(table.id)
    for seat in (0, 4):
        lines = story(table, seat)
        me = f"{seat + 1}번 {NAMES[seat]}"
        submitted = [line for line in lines if line.kind == "move" and "제출" in line.own["ko"]]
        # Gallery rule 4: which sticker went on its work is its secret: in its words, not the hall's.
        assert len(submitted) == 5 and all("스티커" in line.own["ko"] for line in submitted)
        assert all(line.public["ko"] == f"{me}: 작품 제출" for line in submitted)
        assert all("스티커" not in line.public["ko"] for line in lines if line.public)
        # Its hand, told to it alone; the hall saw only that a hand was dealt.
        hand = next(line for line in lines if line.kind == "told" and "받음" in line.own["ko"])
        assert hand.own["ko"].startswith(f"{me}: 작품 5점 받음 (") and hand.public["ko"] == f"{me}: 작품을 받음"
        # Nothing any other seat was told or chose in secret: their stickers, hands, appraisals.
        words = text(lines)
        for entry in entries:
            event = Event.from_json(entry["event"])
            if not event.private or seat in event.to:
                continue
            rival = secret_words(table, event)
            if rival is not None:
                assert rival["ko"] not in words and rival["en"] not in words, rival
        # A move the hall never saw (an appraisal) is "not shown" beside its own words.
        for line in lines:
            if line.kind == "move" and "감정" in line.own["ko"]:
                assert line.public is None and ("진품" in line.own["ko"] or "가품" in line.own["ko"])


@pytest.mark.parametrize("game", GAMES)
def test_every_game_each_seats_story_holds_all_its_moves_and_nothing_of_another_seats_secret(game):
    rnd = random.Random(11)
    seats = registry()[game].usual_seats
    table = Table.create(MemoryStore(), f"s-{game}", game, NAMES[:seats], seed=11)
    table.start(DEALER)
    for _ in range(400):
        if not step(table, rnd):
            break
    entries = table.store.entries(table.id)
    public = Audience.public()
    for seat in range(seats):
        lines = story(table, seat)
        words = text(lines)
        # One line per action of the seat's (or the dealer's for it), in its own words.
        actions = {e["action"] for e in entries if Actor.parse(e["actor"]).seat == seat and e["event"]["type"] != VOIDED}
        assert [line.kind for line in lines].count("move") == len(actions)
        for entry in entries:
            event = Event.from_json(entry["event"])
            if event.private and seat not in event.to:
                rival = secret_words(table, event)
                if rival is not None:
                    assert rival["ko"] not in words and rival["en"] not in words, (seat, rival)
        # The public's side is the public's words only: each equals some entry as the hall saw it.
        hall = {json.dumps(what(table.game, Event.from_json(e["event"]).visible_to(public), table.seats).to_json(),
                           ensure_ascii=False) for e in entries}
        for line in lines:
            if line.kind in ("reveal", "told") and line.public is not None:
                assert json.dumps(line.public, ensure_ascii=False) in hall


# -- the live server: the /seat `story` event --------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("seat-replay")).start()
    yield live
    live.stop()


def refused(answer: dict[str, Any], code: str) -> None:
    assert not answer["ok"] and answer["error"]["code"] == code, answer
    assert answer["error"]["ko"] and answer["error"]["en"] and answer["error"]["ko"] != answer["error"]["en"]
    assert "story" not in answer


def test_the_story_event_refuses_before_the_end_and_for_another_table_and_answers_after(server):
    show = new_show(server, ["가람", "나래", "다솜"])
    first = server.ok("create_table", show=show, game="tricky_coin", players=["가람", "나래"], seed=2)["table"]
    second = server.ok("create_table", show=show, game="tricky_coin", players=["나래", "다솜"], seed=3)["table"]
    links = server.snapshot(show)["links"]
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    try:
        for table in (first, second):
            server.ok("start", show=show, table=table)
        refused(phones[0].call("story", {"table": first}), "story/not_yet")
        rnd = random.Random(4)
        sent: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
        behalf = None
        while (view := table_view(server, show, first))["result"] is None:
            decision = rnd.choice(view["decisions"])
            move = answer(decision, rnd)
            if decision["seat"] == 1 and behalf is None:  # her phone died: the dealer enters it
                behalf = move
                server.ok("move", show=show, table=first, seat=1, move=move, sid=uuid.uuid4().hex)
                continue
            out = phones[decision["seat"]].call("submit", {"table": first, "move": move, "sid": uuid.uuid4().hex})
            if out["ok"]:
                sent[decision["seat"]].append(move)
        # 가람's only table is over: her story; 나래 still plays the second table: not yet.
        mine = phones[0].call("story", {"table": first})
        assert mine["ok"], mine
        got = mine["story"]
        assert got["table"] == first and got["seat"] == 0 and got["seats"] == ["가람", "나래"]
        assert got["result"]["standings"] and got["title"]["ko"] == "트리키 코인"
        moves = [line for line in got["lines"] if line["kind"] == "move"]
        assert len(moves) == len(sent[0]) and not any(line["behalf"] for line in moves)
        coins = [m["coin"] for m in sent[0] if m["type"] == "put_coin"]
        assert [line["own"]["ko"] for line in moves if "상자에" in line["own"]["ko"]] == [
            f"1번 가람: 상자에 {coin}코인" for coin in coins]
        assert all(line["public"]["ko"] == "1번 가람: 상자에 코인 1개를 넣음" for line in moves if "상자에" in line["own"]["ko"])
        assert {line["round"] for line in got["lines"]} == set(range(1, max(line["round"] for line in got["lines"]) + 1))
        # The same as the pure story of the table's log.
        log = server.log_of(show, first)
        store = MemoryStore()
        store.create(first, log["header"])
        store.append(first, 0, log["entries"])
        assert got["lines"] == [line.to_json() for line in story(Table(store, first), 0)]
        refused(phones[0].call("story", {"table": second}), "table/not_seated")
        refused(phones[0].call("story", {"table": "nope"}), "table/not_seated")
        assert phones[0].call("story", {"table": 5})["error"]["code"] == "api/bad_field"
        refused(phones[1].call("story", {"table": first}), "story/not_yet")
        refused(phones[2].call("story", {"table": second}), "story/not_yet")
        # Once the second table is over too, 나래's story of the first has the move entered for her.
        while (view := table_view(server, show, second))["result"] is None:
            decision = rnd.choice(view["decisions"])
            server.ok("move", show=show, table=second, seat=decision["seat"], move=answer(decision, rnd),
                      sid=uuid.uuid4().hex)
        hers = phones[1].call("story", {"table": first})
        assert hers["ok"] and hers["story"]["seat"] == 1
        first_move = next(line for line in hers["story"]["lines"] if line["kind"] == "move")
        assert first_move["behalf"] and first_move["own"]["ko"].startswith("2번 나래")
        # Her secret choices before their reveal never reach 가람's story as hers: 가람's own words
        # of every line are her own, or the hall's.
        for line in got["lines"]:
            assert line["own"] is None or line["own"]["ko"].startswith("1번 가람")
    finally:
        for phone in phones:
            phone.close()


# -- the phone after a whole evening (Chromium, 390x844) -----------------------------------------


def test_after_a_survival_evening_the_phone_replays_each_match_with_its_own_choices_beside_the_publics(server, browser):
    evening = Evening(server, "tricky_survival", SURVIVAL, {}, seed=5)
    player = 0
    socket = Client(server.url, "/seat", {"token": evening.links[player]["token"]})
    early: dict[str, Any] = {}

    def on(step: str, key: str, table: str) -> None:
        if step == "confirmed" and key == "gallery":
            # Mid-evening: the match is closed, the show is not over: nothing of the replay.
            early["answer"] = socket.call("story", {"table": table})
            page = phone_of(browser, server, evening.show, player)
            page.wait_for_selector("#decision .waiting")
            early["entry"] = page.locator("#story-entry").is_visible()
            early["words"] = page.locator("body").inner_text()
            page.context.close()

    try:
        evening.run(on=on)
        socket.close()  # (else the phone warns that its card is open on another device too)
        refused(early["answer"], "story/not_yet")
        assert early["entry"] is False and "다시 보기" not in early["words"]
        page = phone_of(browser, server, evening.show, player)
        page.wait_for_selector("#story-entry .story-match")
        in_view(page, "#story-entry .story-entry-title, #story-entry .story-match >> nth=0")
        assert page.locator("#story-entry .story-entry-title").inner_text() == "내 경기 다시 보기"
        titles = page.locator("#story-entry .story-match").all_inner_texts()
        assert any("트리키 갤러리" in t for t in titles), titles
        page.screenshot(path=str(ARTIFACTS / "seat-replay-entry.png"))

        # The Gallery: its own stickers beside the hall's "작품 제출", round by round.
        page.click("#story-entry .story-match:has-text('트리키 갤러리')")
        page.wait_for_selector("#story .story-round")
        assert not page.locator("#story-entry").is_visible() and not page.locator("#decision").is_visible()
        me = f"1번 {SURVIVAL[player]}"
        rounds = page.locator("#story .story-round h3").all_inner_texts()
        assert rounds[:5] == [f"{n}라운드" for n in range(1, 6)], rounds
        submitted = page.locator("#story .story-move:has(.story-own:has-text('스티커'))")
        assert submitted.count() == 5
        first = submitted.first
        assert first.locator(".story-public").inner_text() == f"{me}: 작품 제출"
        assert "딜러가 대신 입력" in first.locator(".story-own").inner_text()
        words = page.locator("#story").inner_text()
        assert "공개 결과" in words and "1라운드 작품 공개" in words
        hidden = page.locator("#story .story-public.story-hidden")
        assert all(t == "비공개" for t in hidden.all_inner_texts())
        # Nobody else's sticker: every line that names a sticker is this player's own.
        for line in page.locator("#story .story-own:has-text('스티커')").all_inner_texts():
            assert me in line, line
        page.screenshot(path=str(ARTIFACTS / "seat-replay-gallery.png"))
        in_view(page, "#story .story-back, #story .story-title, #story .story-round:first-of-type h3, "
                      "#story .story-round:first-of-type .story-line:nth-child(-n+2)")
        # Readable: the words are at least 15 px, the two columns side by side on the phone.
        sizes = page.eval_on_selector_all("#story .story-words", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert min(sizes) >= 15, min(sizes)
        own, hall = (first.locator(sel).bounding_box() for sel in (".story-own", ".story-public"))
        assert own["x"] + own["width"] <= hall["x"] and abs(own["y"] - hall["y"]) < 2 and own["width"] > 140
        page.click("#lang-switch")
        assert page.locator("#story .story-round h3").first.inner_text() == "Round 1"
        assert "not shown" in page.locator("#story").inner_text() or not hidden.count()
        page.screenshot(path=str(ARTIFACTS / "seat-replay-gallery-en.png"))
        page.click("#lang-switch")

        # Back to the list, then another match: its own moves in its own words.
        page.click("#story .story-back")
        page.wait_for_selector("#story-entry .story-match")
        other = next(t for t in titles if "갤러리" not in t)
        page.click(f"#story-entry .story-match:has-text('{other.splitlines()[0]}')")
        page.wait_for_selector(f"#story .story-title strong:text-is('{other.splitlines()[0]}')")
        assert page.locator("#story .story-move").count() > 0
        page.screenshot(path=str(ARTIFACTS / "seat-replay-other.png"))
        body = page.locator("body").inner_text()
        assert not any(bad in body for bad in ("null", "undefined", "NaN", "[object")), body
        assert not page.errors, page.errors
    finally:
        socket.close()
