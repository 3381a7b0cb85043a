"""The console's show night (issue 27, the console's and the programs' part), in Chromium against a
live server at 1366x768: a stage opens in one tap; "결과 확정" offers only matches that are over;
errors in words without their codes; the other-seating form is a row of drop-downs that opens with
a logged reason; the program's panels keep one order; stage tables go by their stage's name; the
reveal hold shows beside the work; the rehearsal bots' settings outlive snapshots; the void dialog
says in words what it voids and what the screens will say. Then the Genius lottery drawn when the
main match becomes ready (the preview is what opens), and printed times in the machine's zone.
Screenshots go to test-artifacts/browser/show-night-*.png."""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from referee.kernel import Actor, Audience, Rng, registry
from referee.programs import genius_episode
from referee.store import MemoryStore
from referee.table import Table

from .evening import GENIUS, SURVIVAL, Evening
from .live import ARTIFACTS, PIN, LiveServer, wait_until
from .test_printouts import _text

LAPTOP = {"width": 1366, "height": 768}
ROOT = Path(__file__).resolve().parent.parent

# Where an element stands for the person at the laptop: "ok" when its whole box is inside the
# viewport, no ancestor that clips (overflow other than visible) cuts it and nothing (the sticky
# bar) lies over it near its corners or in its middle.
SEEN = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return "missing";
  const r = node.getBoundingClientRect();
  if (!r.width || !r.height) return "empty";
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return "outside the viewport";
  for (let a = node.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if ((s.overflowX + s.overflowY).replace(/visible/g, "") === "") continue;
    const b = a.getBoundingClientRect();
    if (r.left < b.left - .5 || r.right > b.right + .5 || r.top < b.top - .5 || r.bottom > b.bottom + .5)
      return "clipped by " + a.tagName + "." + a.className;
  }
  for (const [fx, fy] of [[.2, .2], [.8, .8], [.5, .5]]) {  // inside rounded corners
    const [x, y] = [r.left + fx * r.width, r.top + fy * r.height];
    const top = document.elementFromPoint(x, y);
    if (!node.contains(top)) return "covered by " + (top ? top.tagName + "." + top.className : "nothing");
  }
  return "ok";
}"""

# Every order the program's panels are drawn in, recorded at each redraw of the work view.
RECORD_ORDERS = """(program) => {
  window.panelOrders = [];
  const grab = () => {
    const tab = document.querySelector("#table-tabs [aria-selected=true]");
    if (!tab || tab.dataset.table !== program) return;
    const order = [...document.querySelectorAll("#table .decisions > .decision")].map((d) => d.dataset.move);
    const last = window.panelOrders[window.panelOrders.length - 1];
    if (!last || last.join() !== order.join()) window.panelOrders.push(order);
  };
  new MutationObserver(grab).observe(document.getElementById("table"), { childList: true, subtree: true });
  grab();
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("show-night")).start()
    yield live
    live.stop()


def console(server: LiveServer, browser: Any, show: str, errors: list[str]) -> Any:
    page = browser.new_page(viewport=LAPTOP)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/console/login?show={show}")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/console/{show}")
    page.wait_for_selector("#table-tabs .tab")
    return page


def seen(page: Any, selector: str) -> str:
    return page.evaluate(SEEN, selector)


def view_of(server: LiveServer, show: str, table: str) -> dict[str, Any]:
    return next(t["view"] for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)


def seating(names: list[str], players: list[int]) -> str:
    return ", ".join(f"{i + 1}번 자리 {names[p]}" for i, p in enumerate(players))


def coin_table(server: LiveServer, players: list[str]) -> tuple[str, str]:
    show = "s" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name="쇼 나이트")
    for name in players:
        server.ok("add_player", show=show, name=name)
    return show, server.ok("create_table", show=show, game="tricky_coin", players=players[:2])["table"]


def move(server: LiveServer, show: str, table: str, seat: int, what: dict[str, Any]) -> None:
    server.ok("move", show=show, table=table, seat=seat, move=what, sid=uuid.uuid4().hex)


# -- a whole Tricky Survival evening through the console ---------------------------------------------


def test_a_survival_evening_in_the_console(server, browser):
    errors: list[str] = []
    evening = Evening(server, "tricky_survival", SURVIVAL, {"event_match": "on"}, seed=5)
    show, program = evening.show, evening.program
    page = console(server, browser, show, errors)
    page.wait_for_selector("[data-open-stage=gallery]")
    page.evaluate(RECORD_ORDERS, program)
    page.screenshot(path=str(ARTIFACTS / "show-night-open.png"))
    # The next match opens with one tap, on the first screen; nothing to confirm yet, and the
    # other seating stays folded away.
    assert seen(page, "[data-open-stage=gallery]") == "ok"
    assert page.locator(".decision[data-move=confirm_result]").count() == 0
    assert page.locator(".decision[data-move^='seat_stage']").count() == 0
    computed = view_of(server, show, program)["state"]["next"][0]["players"]
    assert seating(SURVIVAL, computed) in page.locator(".open-row[data-stage=gallery]").inner_text()

    # Another seating: nine drop-downs starting from the computed seating, a reason, one button;
    # not 81 player buttons.
    page.click("[data-other-seating=gallery]")
    form = ".open-row[data-stage=gallery] .decision[data-move='seat_stage:gallery']"
    page.wait_for_selector(form)
    assert page.locator(f"{form} select").count() == 9
    assert page.locator(f"{form} .option").count() == 0
    assert page.locator(f"{form} button").count() == 1 and page.locator(f"{form} textarea").count() == 1
    shown = page.eval_on_selector_all(f"{form} select", "all => all.map(s => s.selectedOptions[0].textContent)")
    assert shown == [f"{p + 1}번 {SURVIVAL[p]}" for p in computed]
    page.screenshot(path=str(ARTIFACTS / "show-night-other-seating.png"))
    # A player in two seats: refused in words, the code only in the tooltip and data-code.
    page.select_option(f"{form} [data-field=seat_2] select", label=f"{computed[0] + 1}번 {SURVIVAL[computed[0]]}")
    page.fill(f"{form} textarea", "현장 추첨 결과")
    page.click(f"{form} button.next")
    page.click(f"{form} button.submit")
    refusal = page.wait_for_selector(f"{form} .error")
    assert "한 선수를 두 자리에 앉힐 수 없습니다" in refusal.inner_text()
    assert "program/" not in refusal.inner_text() and refusal.get_attribute("data-code") == "program/bad_seating"
    assert view_of(server, show, program)["state"]["stages"] == []  # it changed nothing
    # Swap the first two seats and open it: the reason goes into the program's log.
    swapped = [computed[1], computed[0], *computed[2:]]
    page.select_option(f"{form} [data-field=seat_1] select", label=f"{swapped[0] + 1}번 {SURVIVAL[swapped[0]]}")
    page.select_option(f"{form} [data-field=seat_2] select", label=f"{swapped[1] + 1}번 {SURVIVAL[swapped[1]]}")
    page.click(f"{form} button.next")
    page.click(f"{form} button.submit")
    stages = wait_until(lambda: view_of(server, show, program)["state"]["stages"], what="the gallery opened")
    assert stages[0]["players"] == swapped and stages[0]["changed"] == "현장 추첨 결과"
    page.wait_for_selector(".log-table td:has-text('(변경: 현장 추첨 결과)')")

    gallery = evening.stage_table("gallery")
    server.ok("start", show=show, table=gallery)
    evening.play(gallery)
    # Over: "결과 확정" offers the gallery, already picked (the only one): next, submit.
    page.wait_for_selector(".decision[data-move=confirm_result] .option[data-value=gallery].picked")
    page.click(".decision[data-move=confirm_result] button.next")
    page.click(".decision[data-move=confirm_result] button.submit")
    page.wait_for_selector("[data-open-stage=safari]")
    # Bridge and Safari may open: one tap each.
    for key in ("bridge", "safari"):
        page.click(f"[data-open-stage={key}]")
        wait_until(lambda k=key: any(s["key"] == k for s in view_of(server, show, program)["state"]["stages"]),
                   what=f"{key} opened")
    bridge, safari = evening.stage_table("bridge"), evening.stage_table("safari")
    for table in (bridge, safari):
        server.ok("start", show=show, table=table)
    evening.play(bridge)
    # Only the match that is over may be confirmed: Safari is still running.
    page.wait_for_selector(".decision[data-move=confirm_result] .option[data-value=bridge]")
    offered = page.eval_on_selector_all(".decision[data-move=confirm_result] .option", "all => all.map(o => o.dataset.value)")
    assert offered == ["bridge"]
    page.evaluate("window.scrollTo(0, 0)")  # the dealer's first screen
    assert seen(page, ".decision[data-move=confirm_result] button.next") == "ok"
    page.screenshot(path=str(ARTIFACTS / "show-night-confirm.png"))
    page.click(".decision[data-move=confirm_result] button.next")
    page.click(".decision[data-move=confirm_result] button.submit")
    page.wait_for_selector("[data-open-stage=coin_third]")
    evening.play(safari)
    # Safari over while the two Coin matches wait: the result to confirm comes first, the matches
    # to open after it, as they always do.
    page.wait_for_selector(".decision[data-move=confirm_result] .option[data-value=safari]")
    order = page.eval_on_selector_all("#table .decisions > .decision", "all => all.map(d => d.dataset.move)")
    assert order == ["confirm_result", "open_stage"], order
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "show-night-two-panels.png"))
    evening.confirm("safari")
    coins = [evening.open(key) for key in ("coin_final", "coin_third", "coin_event")]
    page.wait_for_selector(f"#table-tabs [data-table='{coins[2]}']")
    page.wait_for_selector(".decision[data-move=open_stage]", state="detached")

    # The panels never swapped places: confirm, the program's own decisions, then opening.
    rank = {"confirm_result": 0, "open_stage": 2}
    orders = page.evaluate("window.panelOrders")
    assert len(orders) > 3, orders
    for recorded in orders:
        assert recorded == sorted(recorded, key=lambda m: rank.get(m, 1)), orders

    # Every stage table goes by its stage's name: three Coin matches, three names.
    titles = view_of(server, show, program)["state"]["stages"]
    names = {s["key"]: s["title"]["ko"] for s in titles}
    tabs = [page.locator(f"#table-tabs [data-table='{t}'] .tab-title").inner_text() for t in coins]
    assert tabs == [names["coin_final"], names["coin_third"], names["coin_event"]], tabs
    assert len(set(tabs)) == 3
    page.evaluate("window.scrollTo(0, 0)")  # the tabs head the page
    for table in coins:
        title = f"#table-tabs [data-table='{table}'] .tab-title"
        assert seen(page, title) == "ok"
        assert page.eval_on_selector(title, "t => t.scrollWidth <= t.clientWidth")  # not cut short
    page.click(f"#table-tabs [data-table='{coins[1]}']")
    assert page.locator(".work-head h2").inner_text().startswith("트리키 코인 3·4위전")
    page.screenshot(path=str(ARTIFACTS / "show-night-tabs.png"))
    assert not errors, errors


# -- the Genius lottery: the preview is the seating that opens -------------------------------------------


def test_the_genius_preview_is_the_seating_the_main_match_opens_with(server, browser):
    errors: list[str] = []
    names = GENIUS[:6]
    evening = Evening(server, "genius_episode", names, seed=8)
    show, program = evening.show, evening.program
    view = view_of(server, show, program)
    drawn = view["state"]["next"][0]["players"]
    assert sorted(drawn) == list(range(6))
    # The draw is the program's own step, in its log, before anyone opens anything.
    rows = [e for e in server.log_of(show, program)["entries"] if e["actor"] == "referee"]
    assert [e["event"]["type"] for e in rows] == ["SeatsDrawn"] and rows[0]["event"]["data"]["players"] == drawn
    # The run sheet says the same seating.
    sheet = view["state"]["sheets"]["run_sheet"]["sections"]
    race = next(s for s in sheet if s["heading"]["ko"].startswith("메인 매치"))
    assert race["paragraphs"][0]["ko"] == seating(names, drawn)
    page = console(server, browser, show, errors)
    row = page.wait_for_selector(".open-row[data-stage=main_match]")
    assert seating(names, drawn) in row.inner_text()
    assert page.locator("[data-action=unstart]").count() == 1  # the start and its draw are one action
    page.screenshot(path=str(ARTIFACTS / "show-night-genius-preview.png"))
    page.click("[data-open-stage=main_match]")
    table = wait_until(lambda: next((t for t in server.snapshot(show)["show"]["tables"] if "main_match" in t), None),
                       what="the race table")
    assert view_of(server, show, table)["seats"] == [names[p] for p in drawn]
    assert view_of(server, show, program)["state"]["stages"][0]["changed"] is None  # the computed seating
    assert not errors, errors


def test_a_lottery_stage_is_drawn_as_it_becomes_ready_and_opens_as_drawn():
    store = MemoryStore()
    games = registry(programs=True)
    names = ["가", "나", "다", "라", "마"]
    program = Table.create(store, "p", "genius_episode", names, seed=11, games=games)
    # Before the program starts the draw is owed, as the referee's own step (no one enters it).
    turn = program.game.turn(program.load().state)
    assert [(d.move, d.auto) for d in turn.decisions if d.auto] == [("draw_seats:main_match", True)]
    program.start(Actor.dealer())
    state = program.load().state
    log = program.log(Audience.dealer())
    assert [r["actor"] for r in log] == ["dealer", "referee"]
    drawn = log[1]["event"]["players"]
    assert sorted(drawn) == list(range(5))
    assert "자리 추첨: " + seating(names, drawn) in log[1]["what"]["ko"]
    assert not any(d.auto for d in program.game.turn(state).decisions)  # drawn once
    # Every screen previews the drawn seating: the board, the open form, the run sheet.
    public = program.view(Audience.public())["state"]
    assert public["next"][0]["players"] == drawn
    opening = next(d for d in program.view(Audience.dealer())["decisions"] if d["move"] == "open_stage")
    assert opening["fields"][0]["options"][0]["hint"]["ko"].startswith(seating(names, drawn))
    program.submit(Actor.dealer(), {"type": "open_stage", "stage": "main_match"})
    assert list(program.load().state.stage("main_match").players) == drawn
    # Voiding the opening keeps the draw: it opens again as drawn, never drawn a second time.
    program.void(Actor.dealer(), "wrong moment")
    assert program.view(Audience.public())["state"]["next"][0]["players"] == drawn
    program.submit(Actor.dealer(), {"type": "open_stage", "stage": "main_match"})
    assert list(program.load().state.stage("main_match").players) == drawn
    assert [r["event"]["type"] for r in program.log(Audience.dealer())].count("SeatsDrawn") == 1


def test_a_program_logged_before_the_draw_step_still_draws_when_it_opens():
    # An evening whose log has no draw (made before draw_seats) opens its lottery stage drawn then.
    game = genius_episode.GAME
    state = game.setup(("가", "나", "다", "라"), game.resolve_options({}, 4), Rng.forbidden())
    events = game.decide(state, Actor.dealer(), {"type": "open_stage", "stage": "main_match"}, Rng(3))
    assert [e.type for e in events] == ["StageOpened"]
    assert sorted(events[0]["players"]) == [0, 1, 2, 3]


# -- the reveal hold beside the work, the settings' toggles ---------------------------------------------


def test_the_reveal_hold_shows_beside_the_work_with_release_when_a_reveal_waits(server, browser):
    errors: list[str] = []
    show, table = coin_table(server, ["김민준", "이서연"])
    server.ok("settings", show=show, name="reveal_hold", value="on")
    server.ok("start", show=show, table=table)
    page = console(server, browser, show, errors)
    page.wait_for_selector(".hold[data-hold=on] .hold-badge")
    assert seen(page, ".hold .hold-badge") == "ok"
    assert "공개 보류 켜짐" in page.locator(".hold").inner_text()
    assert page.locator(".hold [data-action=release]").count() == 0  # nothing held yet
    for seat, coin in ((0, 20), (1, 5)):
        move(server, show, table, seat, {"type": "put_coin", "coin": coin})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    page.wait_for_selector(".hold.held[data-hold=held] [data-action=release]")
    assert seen(page, ".hold.held [data-action=release]") == "ok"
    page.screenshot(path=str(ARTIFACTS / "show-night-held.png"))
    page.click(".hold.held [data-action=release]")
    page.wait_for_selector(".hold.held", state="detached")
    assert page.locator(".hold[data-hold=on] .hold-badge").count() == 1  # still on, nothing waits
    # The settings' toggles are the size of a finger.
    page.click(".views [data-view=settings]")
    for name in ("reveal_hold", "players_wait"):
        toggle = page.locator(f"#settings label.toggle:has([data-setting={name}])").bounding_box()
        box = page.locator(f"[data-setting={name}]").bounding_box()
        assert toggle["height"] >= 48 and box["width"] >= 28 and box["height"] >= 28, (name, toggle, box)
    page.click("#settings label.toggle:has([data-setting=players_wait]) >> text=휴대폰")  # the words toggle it too
    wait_until(lambda: server.snapshot(show)["show"]["settings"]["players_wait"] == "on", what="players_wait on")
    page.screenshot(path=str(ARTIFACTS / "show-night-settings.png"))
    assert not errors, errors


# -- the rehearsal bots' settings and the typing dealer outlive snapshots --------------------------------


def test_the_bots_pace_and_seats_outlive_a_snapshot(server, browser):
    errors: list[str] = []
    show, table = coin_table(server, ["김민준", "이서연"])
    server.ok("start", show=show, table=table)
    page = console(server, browser, show, errors)
    page.click(".bots summary")
    page.check(".bots input[type=checkbox][value='1']")
    page.fill(".bots input[type=number]", "0.6")
    page.focus(".bots input[type=number]")
    move(server, show, table, 0, {"type": "put_coin", "coin": 1})  # a snapshot while the dealer sets up
    page.wait_for_selector(".log-table tr[data-v='2']")
    assert page.locator(".bots input[type=number]").input_value() == "0.6"
    assert page.locator(".bots input[type=checkbox][value='1']").is_checked()
    assert not page.locator(".bots input[type=checkbox][value='0']").is_checked()
    assert page.locator("details.bots").get_attribute("open") is not None
    assert page.evaluate("document.activeElement.dataset.keep") == "bot-pace"
    page.click("[data-action=bots]")
    wait_until(lambda: next(t for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)["bots"] == [1],
               what="the bot on seat 2")
    server.ok("bots", show=show, table=table, seats=[])
    assert not errors, errors


# -- the void dialog in words ----------------------------------------------------------------------------


def test_the_void_dialog_says_which_action_and_what_the_screens_will_show(server, browser):
    errors: list[str] = []
    show, table = coin_table(server, ["김민준", "이서연"])
    server.ok("start", show=show, table=table)
    move(server, show, table, 0, {"type": "put_coin", "coin": 5})
    plan = server.ok("void_plan", show=show, table=table, action=2)["plan"]
    public = plan["target"]["public"]
    assert public and "5" not in public["ko"]  # the coin's value stays secret
    page = console(server, browser, show, errors)
    page.click("button[data-void='2']")
    page.wait_for_selector(".void-dialog")
    assert seen(page, ".void-dialog h3") == "ok"  # opened from the log far below: brought into view
    target = page.locator(".void-target").inner_text()
    assert target.startswith("2번 행동 (") and not re.search(r"\bv\d", target), target
    note = page.locator(".void-dialog .void-public").inner_text()
    assert note == f"사유는 기록과 감사 보고서에만 남고, 화면에는 '정정: {public['ko']}'만 나갑니다.", note
    assert seen(page, ".void-dialog [data-action=confirm-void]") == "ok"
    page.screenshot(path=str(ARTIFACTS / "show-night-void.png"))
    page.click("#lang-switch")
    assert f"'Correction: {public['en']}'" in page.locator(".void-dialog .void-public").inner_text()
    assert page.locator(".void-target").inner_text().startswith("Action 2 (")
    page.click("#lang-switch")
    # A snapshot while the dealer types the reason keeps the reason and the caret.
    page.fill(".void-dialog input[name=reason]", "잘못 입력")
    move(server, show, table, 1, {"type": "put_coin", "coin": 1})
    page.wait_for_selector(".log-table tr[data-v='3']")
    # The dialog asks again what the void would do now, and names the later action it applies
    # again (confirmed before that answer, the void is refused as "moved on" and asked again).
    page.wait_for_selector(".void-dialog ul li")
    assert page.evaluate("document.activeElement.name") == "reason"
    page.keyboard.type("함")
    assert page.locator(".void-dialog input[name=reason]").input_value() == "잘못 입력함"
    page.press(".void-dialog input[name=reason]", "Enter")
    page.wait_for_selector(".void-dialog", state="detached")
    page.wait_for_selector(".log-table tr[data-v='2'].voided small:text-is(' (4번에서 무효)')")
    assert not errors, errors


# -- errors in words -------------------------------------------------------------------------------------


def test_an_error_shows_its_message_not_its_code(server, browser):
    errors: list[str] = []
    show, _table = coin_table(server, ["김민준", "이서연"])
    page = console(server, browser, show, errors)
    page.click(".views [data-view=players]")
    page.fill("#add-player input[name=name]", "김민준")
    page.click("#add-player button[type=submit]")
    line = page.wait_for_selector("#error:not([hidden])")
    assert line.inner_text() == "이미 있는 선수입니다: 김민준"
    assert line.get_attribute("data-code") == "show/duplicate_player" == line.get_attribute("title")
    assert len(server.snapshot(show)["show"]["roster"]) == 2  # it changed nothing
    assert not errors, errors


# -- printed times in the machine's zone ----------------------------------------------------------------

AUDIT = """
import sys
from referee.kernel import Actor
from referee.server.printing import sheet_pdf
from referee.store import MemoryStore
from referee.table import Table
clock = iter(range(1_700_000_000, 1_700_100_000, 60))
table = Table.create(MemoryStore(), "coin-tz", "tricky_coin", ["김민준", "이서연"], seed=3, clock=lambda: float(next(clock)))
table.start(Actor.dealer())
table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5})
sys.stdout.buffer.write(sheet_pdf(table, "audit", "쇼"))
"""


@pytest.mark.parametrize("zone,start,clock,named", [
    ("Asia/Seoul", "2023-11-15 07:14:20", "07:15:20", "UTC+09:00 KST"),
    ("UTC", "2023-11-14 22:14:20", "22:15:20", "UTC+00:00"),
])
def test_printed_times_are_the_machines_local_time_with_its_zone(tmp_path, zone, start, clock, named):
    pdf = subprocess.run([sys.executable, "-c", AUDIT], capture_output=True, check=True, cwd=ROOT,
                         env={"PATH": "/usr/bin:/bin", "TZ": zone, "PYTHONPATH": str(ROOT)}, timeout=120).stdout
    text = " ".join(_text(pdf, tmp_path, "audit.pdf").split())
    assert f"{start} ({named})" in text  # the start, as the header block says it
    assert clock in text  # the move's row, in the same zone
    assert f"시각은 현지 시각 {named}" in text and f"Times are local, {named}" in text
