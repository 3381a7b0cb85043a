"""Korean particles after names and labels (issue 27): 이/가, 을/를, 은/는, 과/와, 아/야, 으로/로
chosen by how the word ends read aloud, in Python (referee.kernel.josa) and in the browser
(I18N.josa, I18N.named); no "이(가)" on any screen; Quattro's first player by name.
"""

from __future__ import annotations

import dataclasses
import random
import re
import uuid
from typing import Any

import pytest

from referee.kernel import Actor, Audience, RuleError, josa, registry
from referee.kernel.bots import pick
from referee.kernel.text import batchim
from referee.store import MemoryStore
from referee.table import Table

from .live import ARTIFACTS, LiveServer, open_pages

# (word, pair, what it becomes)
CASES = [
    # Hangul: a final consonant or not.
    ("가람", "이/가", "가람이"), ("나래", "이/가", "나래가"), ("가람", "을/를", "가람을"), ("나래", "을/를", "나래를"),
    ("가람", "은/는", "가람은"), ("나래", "은/는", "나래는"), ("가람", "과/와", "가람과"), ("나래", "과/와", "나래와"),
    ("가람", "아/야", "가람아"), ("나래", "아/야", "나래야"), ("가람", "이나/나", "가람이나"), ("나래", "이라/라", "나래라"),
    ("한빛", "이며/며", "한빛이며"), ("보미", "이랑/랑", "보미랑"),
    # 으로/로: a final ㄹ takes 로 like a vowel does.
    ("가람", "으로/로", "가람으로"), ("나래", "으로/로", "나래로"), ("1번 가을", "으로/로", "1번 가을로"),
    ("하늘", "으로/로", "하늘로"), ("하늘", "이/가", "하늘이"), ("하늘", "을/를", "하늘을"), ("부엌", "으로/로", "부엌으로"),
    # Digits read as Sino-Korean numbers: 영 일 이 삼 사 오 육 칠 팔 구, 십 백 천.
    ("빨강 0", "을/를", "빨강 0을"), ("빨강 1", "을/를", "빨강 1을"), ("파랑 2", "을/를", "파랑 2를"),
    ("초록 3", "을/를", "초록 3을"), ("노랑 4", "을/를", "노랑 4를"), ("빨강 5", "을/를", "빨강 5를"),
    ("파랑 6", "을/를", "파랑 6을"), ("분홍 7", "을/를", "분홍 7을"), ("분홍 8", "을/를", "분홍 8을"),
    ("분홍 9", "을/를", "분홍 9를"), ("과제 10", "이/가", "과제 10이"), ("100", "은/는", "100은"),
    ("분홍 1", "으로/로", "분홍 1로"), ("분홍 7", "으로/로", "분홍 7로"), ("분홍 8", "으로/로", "분홍 8로"),
    ("분홍 3", "으로/로", "분홍 3으로"), ("분홍 6", "으로/로", "분홍 6으로"), ("분홍 2", "으로/로", "분홍 2로"),
    ("가상 플레이어 1", "과/와", "가상 플레이어 1과"), ("가상 플레이어 2", "과/와", "가상 플레이어 2와"),
    # Latin letters read by name: 엘 엠 엔 알 end in a consonant, 엘 and 알 in ㄹ.
    ("'L'", "은/는", "'L'은"), ("'M'", "이/가", "'M'이"), ("'n'", "을/를", "'n'을"), ("R", "으로/로", "R로"),
    ("L", "으로/로", "L로"), ("M", "으로/로", "M으로"), ("'x'", "은/는", "'x'는"), ("'open_card'", "을/를", "'open_card'를"),
    # Punctuation and a trailing parenthetical are not read: the particle fits the word before it.
    ("가람.", "이/가", "가람.이"), ("\"나래\"", "을/를", "\"나래\"를"), ("'사령관'", "을/를", "'사령관'을"),
    ("1번 김민준(A)", "이/가", "1번 김민준(A)이"), ("딜러(1번 가람 대신)", "은/는", "딜러(1번 가람 대신)는"),
    ("출발 칸(start)", "이/가", "출발 칸(start)이"), ("0 (제로 A)", "을/를", "0 (제로 A)을"),
    ("나래 (딜러 (대신))", "이/가", "나래 (딜러 (대신))가"), ("(없음)", "이/가", "(없음)이"),
    ("가람 ", "과/와", "가람 과"),
    # Nothing readable at the end: the vowel form.
    ("", "이/가", "가"), ("★", "을/를", "★를"),
]


@pytest.mark.parametrize("word, pair, expected", CASES)
def test_josa_picks_the_particle_the_word_takes(word, pair, expected):
    assert josa(word, pair) == expected


def test_batchim_tells_a_vowel_from_rieul_and_the_other_consonants():
    assert [batchim(w) for w in ("나래", "하늘", "가람", "7", "3", "2", "R", "N", "A", "")] == [
        None, "ㄹ", "c", "ㄹ", "c", None, "ㄹ", "c", None, None]


def test_an_unknown_pair_is_refused():
    with pytest.raises(ValueError, match="이/를"):
        josa("가람", "이/를")


# -- the kernel's own messages -------------------------------------------------------------------


def test_kernel_errors_take_the_particle_of_the_value_they_name():
    quattro = registry()["quattro"]
    with pytest.raises(RuleError) as info:
        quattro.check_seat_count(3)
    assert info.value.ko.startswith("콰트로는 2-2명이 합니다")  # was "콰트로은"
    with pytest.raises(RuleError) as info:
        quattro.resolve_options({"deal": "L"})
    assert "옵션 deal에 'L'은 쓸 수 없습니다" in info.value.ko
    with pytest.raises(RuleError) as info:
        quattro.resolve_options({"deal": "dealer", "zz": 1})
    assert info.value.ko == "quattro에는 옵션 'zz'가 없습니다"  # was "'zz'이"

    state = quattro.setup(("가람", "나래"), quattro.resolve_options({}), None)
    with pytest.raises(RuleError) as info:
        quattro.decide(state, Actor.of_seat(0), {"type": "choose_first", "seat": 0}, None)
    assert info.value.code == "move/not_owed"
    # In words, never the move's name (issue 33): what it would decide, what may be decided now.
    assert info.value.ko == "1번 자리는 지금 그 결정을 할 수 없습니다 (선 플레이어를 정하세요). 지금 할 수 있는 것: 없음"
    assert "choose_first" not in info.value.ko + info.value.en and info.value.values["move"] == "choose_first"
    with pytest.raises(RuleError) as info:
        quattro.decide(state, Actor.on_behalf(1), {"type": "open_card", "card": "R1"}, None)
    assert info.value.ko.startswith("딜러(2번 자리 대신)는 지금 그 결정을 할 수 없습니다 ('open_card')")


# -- the games' texts ---------------------------------------------------------------------------


def test_the_crew_log_names_the_member_with_the_particle_the_name_takes():
    crew = registry()["the_crew"]
    names = ("가람", "나래", "하늘")

    def said(**event: Any) -> str:
        return crew.describe(event, names).ko

    assert said(type="TaskAssigned", seat=0, card="B3") == "1번 가람이 과제 파랑 3을 맡습니다"
    assert said(type="TaskAssigned", seat=1, card="B2") == "2번 나래가 과제 파랑 2를 맡습니다"
    won = {"type": "TrickWon", "trick": 1, "done": [], "failed": []}
    assert said(**won, winner=2, card="P1").startswith("1번째 트릭: 3번 하늘이 분홍 1로 가져감")
    assert said(**won, winner=0, card="P3").startswith("1번째 트릭: 1번 가람이 분홍 3으로 가져감")
    assert said(**won, winner=1, card="R4").startswith("1번째 트릭: 2번 나래가 로켓 4로 가져감")


def test_bridge_slot_fields_and_a_doubled_slot_take_the_particles_of_the_items():
    bridge = registry()["tricky_bridge"]
    table = Table.create(MemoryStore(), "bridge", "tricky_bridge", list(PLAYERS[:4]), options={"deal": "dealer"}, seed=1)
    table.start(Actor.dealer())
    table.submit(Actor.dealer(), {"type": "confirm_rooms", "rooms": "AB|CD"})
    lay = next(d for d in bridge.turn(table.load().state).decisions if d.move == "lay_room")
    # Round 1: one steel and one brick are entered slot by slot; the other slots hold paint.
    assert [(f.name, f.label.ko) for f in lay.fields[1:]] == [("steel", "철근이 놓인 칸 (1개)"), ("brick", "벽돌이 놓인 칸 (1개)")]
    with pytest.raises(RuleError) as info:
        table.submit(Actor.dealer(), {"type": "lay_room", "room": "big", "steel": [2], "brick": [2]})
    assert info.value.code == "bridge/slot_twice"
    assert info.value.ko == "2번 칸에 철근과 벽돌을 함께 놓을 수 없습니다"


def test_a_gallery_work_not_in_hand_is_named_with_its_particle():
    gallery = registry()["tricky_gallery"]
    table = Table.create(MemoryStore(), "gallery", "tricky_gallery", list(PLAYERS[:9]), seed=1)
    table.start(Actor.dealer())
    state = table.load().state
    seat = next(d.seat for d in gallery.turn(state).decisions if d.move == "submit_work")
    # Later in a match a hand lacks kinds it started with.
    state = dataclasses.replace(state, hands=tuple(("pearl",) if s == seat else h for s, h in enumerate(state.hands)))
    said = {"premium": "고급 작품이", "motricky": "모트리키가", "piper": "피리부는 트리키가"}
    for kind, words in said.items():
        with pytest.raises(RuleError) as info:
            gallery.decide(state, Actor.of_seat(seat), {"type": "submit_work", "entry": f"{kind}/genuine"}, None)
        assert info.value.code == "gallery/work_not_in_hand"
        assert info.value.ko.startswith(f"손에 {words} 없습니다")


# -- every game, every screen: no "이(가)", and no particle that does not fit a player's name ----

# Names that end in a consonant, in a vowel and in ㄹ, so every wrong choice shows.
CONSONANT, VOWEL, RIEUL = ("가람", "다솜", "한빛", "초롱"), ("나래", "보미", "소라", "우주"), ("하늘", "은결", "가을", "이슬")
PLAYERS = tuple(name for trio in zip(CONSONANT, VOWEL, RIEUL, strict=True) for name in trio)
MARKER = re.compile(r"\((이|가|을|를|은|는|과|와|으|아|야)\)")


def wrong_particles(text: str, names: tuple[str, ...]) -> list[str]:
    """Each bracketed particle in `text`, and each place where a player's name is followed by the
    particle it does not take."""
    wrong = [m.group(0) for m in MARKER.finditer(text)]
    for name in names:
        if name in CONSONANT:
            bad = r"(가|를|는|와|야|로|랑)(?![가-힣])"
        elif name in VOWEL:
            bad = r"(이|을|은|과|아|으로|이랑)(?![가-힣])"
        else:
            bad = r"(가|를|는|와|야|으로|랑)(?![가-힣])"
        wrong += [m.group(0) for m in re.finditer(re.escape(name) + bad, text)]
    return wrong


HANGUL = re.compile("[가-힣]")


def korean(value: Any) -> list[str]:
    """Every Korean text in a view or a log (the "ko" of each {ko, en}, and plain strings)."""
    out, stack = [], [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if HANGUL.search(v):
                out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return out


def variants(game_id: str) -> list[dict[str, Any]]:
    """The default options, and each listed choice of each option on its own (the dealer's deal
    asks for other texts than the referee's; every mission of The Crew has its own)."""
    out: list[dict[str, Any]] = [{}]
    for spec in registry()[game_id].options:
        out += [{spec.name: choice} for choice in spec.choices if choice != spec.default]
    return out


def play(game_id: str, seed: int, options: dict[str, Any] | None = None,
         actions: int = 400) -> tuple[list[str], list[str]]:
    """A random playout through the real table runtime with named players: every Korean text of
    every audience's view and log along the way, and the public headlines (turn phases)."""
    game = registry()[game_id]
    n = game.usual_seats
    names = PLAYERS[:n]
    table = Table.create(MemoryStore(), f"{game_id}-{seed}", game_id, list(names), options=options, seed=seed,
                         clock=lambda: 0.0)
    table.start(Actor.dealer())
    rnd = random.Random(seed)
    audiences = [Audience.dealer(), Audience.public(), *(Audience.of_seat(s) for s in range(n))]
    texts: list[str] = []
    phases: list[str] = []
    for _ in range(actions):
        for audience in audiences:
            view = table.view(audience)
            texts += korean(view)
            if audience.kind == "public" and view["turn"]:
                phases.append(view["turn"]["phase"]["ko"])
        state = table.load().state
        if game.result(state) is not None:
            break
        chosen = pick(game.turn(state), rnd)
        if chosen is None:
            break
        try:
            table.submit(*chosen)
        except RuleError as error:
            texts.append(error.ko)
    for audience in audiences:
        texts += korean(table.log(audience))
    return texts, phases


@pytest.mark.parametrize("game_id", sorted(registry()))
def test_no_screen_shows_a_bracketed_particle_or_one_that_does_not_fit_a_name(game_id):
    texts: set[str] = set()
    for seed, options in enumerate([{}, *variants(game_id)]):
        found, _ = play(game_id, seed, options)
        texts.update(found)
    names = PLAYERS[:registry()[game_id].usual_seats]
    bad = {text: wrong_particles(text, names) for text in texts if wrong_particles(text, names)}
    assert not bad, f"{game_id}: {bad}"


# -- the browser: I18N.josa and I18N.named, Quattro's first player on every screen ----------------

FITS = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return { missing: selector };
  const r = node.getBoundingClientRect();
  const out = { text: node.textContent, clipped: null,
                inside: r.width > 0 && r.height > 0 && r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1 };
  for (let e = node.parentElement; e && e !== document.documentElement; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
    const b = e.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) { out.clipped = e.className || e.tagName; break; }
  }
  return out;
}"""


def shown(page, selector: str) -> str:
    """The text of `selector`, which lies fully inside the viewport and is cut by no box."""
    fit = page.evaluate(FITS, selector)
    assert fit.get("inside") and not fit.get("clipped"), f"{selector}: {fit}"
    return fit["text"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("korean-particles")).start()
    yield live
    live.stop()


def new_quattro(server: LiveServer, players: tuple[str, str]) -> tuple[str, list[dict]]:
    show = "k" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name=f"조사 {show}")
    for name in players:
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="quattro", players=list(players), options={"deal": "referee"},
                      seed=5)["table"]
    server.ok("set_current", show=show, table=table)
    return show, server.snapshot(show)["links"]


def test_the_browser_picks_the_particles_python_picks(server, browser):
    show, _ = new_quattro(server, ("한가람", "이나래"))
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/display/{show}")
    page.wait_for_function("() => window.I18N && I18N.josa")
    got = page.evaluate("cases => cases.map(c => I18N.josa(c[0], c[1]))", [[w, p] for w, p, _ in CASES])
    assert got == [expected for _, _, expected in CASES]
    # The older three-argument call still works, 으로/로 included.
    assert page.evaluate("[I18N.josa('파랑 4', '을', '를'), I18N.josa('하늘', '으로', '로'), I18N.josa('가람', '으로', '로')]") == [
        "파랑 4를", "하늘로", "가람으로"]

    def named(text: str, names: list[str]) -> str:
        return page.evaluate("([t, n]) => I18N.named({ ko: t, en: t }, n).ko", [text, names])

    names = ["가람", "나래", "하늘"]
    assert named("1번 자리가 고르는 중", names) == "가람이 고르는 중"  # was "가람가"
    assert named("2번 자리가 고르는 중", names) == "나래가 고르는 중"
    assert named("1번 자리를 기다립니다", names) == "가람을 기다립니다"
    assert named("1번 자리는 패스", names) == "가람은 패스"
    assert named("1번 자리와 3번 자리로 넘김", names) == "가람과 하늘로 넘김"
    assert named("1번 자리로부터", names) == "가람으로부터"
    assert named("교환 1단계: 2번 자리 차례", names) == "교환 1단계: 나래 차례"
    assert named("1번 자리의 차례", names) == "가람의 차례"
    assert named("4번 자리가 고르는 중", names) == "4번 자리가 고르는 중"  # no such name: as it was
    assert page.evaluate("I18N.named({ ko: 'x', en: 'seat 2 to act' }, ['가람', '나래']).en") == "나래 to act"

    # Every headline the games show the hall with seat numbers, named as the projector names them.
    phases: set[str] = set()
    for game_id in sorted(registry()):
        phases.update(p for p in play(game_id, 1)[1] if "번 자리" in p)
    players = list(PLAYERS)
    for phase in sorted(phases):
        said = named(phase, players)
        assert "번 자리" not in said and not wrong_particles(said, PLAYERS), (phase, said)
    assert not errors


def test_quattro_first_player_by_name_on_the_console_the_projector_and_the_phones(server, browser):
    players = ("한가람", "이나래")
    show, links = new_quattro(server, players)
    errors: list[str] = []
    console, projector, phones = open_pages(server, browser, show, links, errors)
    console.click("[data-action=start]")
    projector.wait_for_selector(".qt-cand[data-seat='1']")

    # The dealer's decision lists the candidates by name, as a seat field.
    card = ".decision[data-seat='dealer']"
    console.wait_for_selector(f"{card} .field.kind-seat .option[data-value='1']")
    assert [console.inner_text(f"{card} .option[data-value='{v}']").strip() for v in (0, 1)] == ["1번 한가람", "2번 이나래"]
    console.locator(card).screenshot(path=str(ARTIFACTS / "korean_particles_quattro_first_console.png"))
    console.click(f"{card} .option[data-value='1']")
    console.click(f"{card} button.next")
    console.wait_for_selector(f"{card} .confirm-q")
    assert "2번 이나래" in console.inner_text(card)
    console.click(f"{card} button.submit")

    # The projector: the moment and the badge beside the name, both inside the 16:9 screen.
    projector.wait_for_selector("#moment:not([hidden]):has-text('선 플레이어: 이나래')")
    projector.wait_for_function("() => document.getElementById('moment').getAnimations().every(a => a.playState === 'finished')")
    projector.screenshot(path=str(ARTIFACTS / "korean_particles_quattro_first_1920.png"))
    assert shown(projector, "#moment").strip() == "선 플레이어: 이나래"
    assert "이나래" in shown(projector, ".qt-cand[data-seat='1'] .qt-name")
    assert shown(projector, ".qt-cand[data-seat='1'] .qt-badge.first") == "선"
    assert not projector.query_selector(".qt-cand[data-seat='0'] .qt-badge.first")
    projector.set_viewport_size({"width": 1280, "height": 720})
    projector.screenshot(path=str(ARTIFACTS / "korean_particles_quattro_first_1280.png"))
    assert "이나래" in shown(projector, ".qt-cand[data-seat='1'] .qt-name")
    assert shown(projector, ".qt-cand[data-seat='1'] .qt-badge.first") == "선"

    # Each phone names the first player; the first player's own phone says it is them.
    for seat, phone in enumerate(phones):
        phone.wait_for_selector(".qp-first")
        phone.locator(".qp-first").scroll_into_view_if_needed()
        want = "선 플레이어: 이나래 (나)" if seat == 1 else "선 플레이어: 이나래 (상대)"
        assert shown(phone, ".qp-first") == want
        phone.screenshot(path=str(ARTIFACTS / f"korean_particles_quattro_first_phone{seat}.png"))
        phone.evaluate("I18N.setLang('en')")
        assert phone.inner_text(".qp-first") == ("First player: 이나래 (you)" if seat == 1 else "First player: 이나래 (opponent)")
        phone.evaluate("I18N.setLang('ko')")

    # The console's log line names the player too.
    console.wait_for_selector(".log-table td:has-text('선 플레이어: 2번 이나래')")
    assert not errors
    for page in (console, projector, *phones):
        page.context.close()
