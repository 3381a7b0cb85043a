"""Clumsy Cats (우당탕탕 고양이들), live: a whole 4-seat game through a real server, over the
sockets and in headless Chromium.

- Sockets (the referee rolls every die; then a physical die, option `die: dealer`): every
  declaration, call and effect choice is submitted from the seat's own socket, from the decision
  in its own payload; the dealer closes the call windows (and picks a tied rearmost cat) through
  the API, and with `die: dealer` enters every roll and effect die. Every payload each client received
  must equal that audience's view folded from the exported log at its own version, and hold none
  of the game's secrets (its docstring): the true roll stays with the roller (and the dealer)
  until a call reveals it; an uncalled roll never reaches the public or another seat, not even
  after the game; nor does the one-tap "declare what you rolled" decision, whose prompt names the
  roll. The public never gets decisions.
- Browser: the first turn cycle (four turns: the roll on the roller's phone, a declaration on the
  phone, calls on the phones or the window closed on the console, a declaration entered by the
  dealer from the seat's chip) and the projector checked for the public facts (the cats on their
  cells, the declaration, the window and who may call, a revealed roll, the standings) and for no
  uncalled roll; the rest through the API; the final standings on the projector and the phones.
  Screenshots go to test-artifacts/browser/clumsy_cats-*.png.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from referee.kernel import Audience

from .live import (
    ARTIFACTS,
    Client,
    LiveServer,
    audience_version,
    dealer_view,
    game_table,
    open_pages,
    owed,
    stream_ends,
    views_at,
    wait_until,
)
from .playout import keys

NAMES = ["나비", "까미", "치즈", "두부"]
DEALER_KEYS = {"secret", "panel", "sheets"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("cats-live")).start()
    yield live
    live.stop()


def new_table(server: LiveServer, seed: int, options: dict[str, Any] | None = None) -> tuple[str, str, list[dict]]:
    return game_table(server, "clumsy_cats", NAMES, seed, options)


def random_move(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    return {"type": decision["move"], **{f["name"]: rnd.choice(f["options"])["value"] for f in decision["fields"]}}


def pick(decisions: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """The next decision: the roller declares (mostly what it rolled: bluffs are a minority); in a
    call window somebody calls now and then, else the dealer closes it; an effect is mostly used."""
    by_move: dict[str, list[dict[str, Any]]] = {}
    for d in decisions:
        by_move.setdefault(d["move"], []).append(d)
    if "declare" in by_move:
        if "declare_roll" in by_move and rnd.random() < 0.6:
            return by_move["declare_roll"][0]
        return by_move["declare"][0]
    if "close_window" in by_move:
        calls = by_move.get("call_lie", [])
        return rnd.choice(calls) if calls and rnd.random() < 0.35 else by_move["close_window"][0]
    if "use_effect" in by_move and rnd.random() < 0.8:
        return by_move["use_effect"][0]
    return rnd.choice(decisions)


# -- the secrets ------------------------------------------------------------------------------------


def assert_no_secret(view: dict[str, Any], dealer: dict[str, Any], audience: Audience, where: str) -> None:
    """No roll `audience` may not know: the current turn's true roll is the roller's; a past roll
    is public only once a call revealed it."""
    state = view["state"]
    assert not keys(state) & DEALER_KEYS, f"{where}: dealer keys {keys(state) & DEALER_KEYS}"
    if audience.kind == "seat":
        mine = state["mine"]
        assert mine["seat"] == audience.seat, where
        roller = state["turn"]["seat"] == audience.seat
        assert mine["roll"] == (dealer["state"]["secret"]["roll"] if roller else None), where
    else:
        assert "mine" not in state, f"{where}: a roller's own part on the projector"
    for d in state["declarations"]:
        if d["caller"] is None and not audience.sees_seat(d["seat"]):
            assert "roll" not in d and "bluff" not in d, f"{where}: the uncalled roll of turn {d['turn']}"
    for decision in view["decisions"]:
        assert decision["seat"] == audience.seat, f"{where}: another seat's decision {decision['move']}"


# -- 1. a whole game over the sockets -------------------------------------------------------------------


@pytest.mark.parametrize("die", ["referee", "dealer"])
def test_whole_cats_game_over_the_sockets_leaks_no_uncalled_roll(server, die):
    show, table, links = new_table(server, seed=2, options={"die": die})
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(2)
    moves: dict[str, int] = {}
    try:
        server.ok("start", show=show, table=table)
        for _ in range(3000):
            view = dealer_view(server, show)
            if view["result"] is not None:
                break
            decision = pick(view["decisions"], rnd)
            moves[decision["move"]] = moves.get(decision["move"], 0) + 1
            seat = decision["seat"]
            if seat is None:
                # Cats rule 1: the dealer closes the call window (or picks a tied rearmost cat).
                server.ok("move", show=show, table=table, move=random_move(decision, rnd), sid=uuid.uuid4().hex)
                continue
            expected = [d for d in view["decisions"] if d["seat"] == seat]
            mine = wait_until(lambda p=phones[seat], e=expected: owed(p, e), what=f"seat {seat}'s decisions")
            own = next(d for d in mine if d["move"] == decision["move"])
            ack = phones[seat].call("submit", {"table": table, "move": random_move(own, rnd), "sid": uuid.uuid4().hex})
            assert ack["ok"], ack
        else:
            pytest.fail("the game did not end")
        assert moves["close_window"] >= 10 and moves["call_lie"] >= 5 and moves["declare"] >= 5, moves
        if die == "dealer":  # the dealer reads the physical die, hidden from the others, and enters it
            assert moves["enter_roll"] >= 20, moves
        assert moves["declare_roll"] >= 10, moves

        log = server.log_of(show, table)
        audiences = [Audience.public()] + [Audience.of_seat(s) for s in range(4)]
        clients = [public, *phones]
        for client, audience in zip(clients, audiences, strict=True):
            wait_until(lambda c=client, a=audience: (c.latest() or {}).get("version") == audience_version(log, a),
                       what=f"{audience} at the end")
        end = public.latest()["table"]
        assert end["state"]["over"] and end["state"]["tokens_left"] == 0 and end["result"] is not None
        # Even after the game, an uncalled roll stays with its roller.
        uncalled = [d for d in end["state"]["declarations"] if d["caller"] is None]
        assert uncalled and all("roll" not in d for d in uncalled)

        ends = stream_ends(log, audiences)
        received = {a: [p["table"] for e, p in c.history if p["table"] and p["table"]["started"]]
                    for c, a in zip(clients, audiences, strict=True)}
        dealers = views_at(log, {ends[a][v["version"]] for a in audiences for v in received[a]}, Audience.dealer())
        checked = rolls_seen = 0
        for client, audience in zip(clients, audiences, strict=True):
            assert all(event == "view" for event, _ in client.history), f"{audience} got another event"
            expected = views_at(log, {v["version"] for v in received[audience]}, audience)
            for view in received[audience]:
                where = f"{audience} v{view['version']}"
                assert view == expected[view["version"]], f"{where}: the payload differs from the log's view"
                assert_no_secret(view, dealers[ends[audience][view["version"]]], audience, where)
                if audience.kind == "public":
                    assert view["decisions"] == [], where
                elif view["state"]["mine"]["roll"] is not None:
                    rolls_seen += 1
                checked += 1
            if audience.kind == "seat":
                assert all(p["seat"] == audience.seat and p["player"] == NAMES[audience.seat]
                           for _e, p in client.history), audience
        assert checked >= 5 * 100 and rolls_seen >= 20

        # The check bites: the roll on another seat's phone, an uncalled roll in the record, the
        # roller's shortcut (naming the roll) on another phone.
        sample = next(v for v in received[Audience.of_seat(1)]
                      if v["state"]["turn"]["seat"] == 0 and v["state"]["step"] == "window")
        truth = dealers[ends[Audience.of_seat(1)][sample["version"]]]
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["mine"]["roll"] = truth["state"]["secret"]["roll"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(1), "leaky")
        sample = next(v for v in received[Audience.public()]
                      if any(d["caller"] is None and d["seat"] != 1 for d in v["state"]["declarations"]))
        truth = dealers[ends[Audience.public()][sample["version"]]]
        leaky = json.loads(json.dumps(sample))
        first = next(d for d in leaky["state"]["declarations"] if d["caller"] is None)
        first["roll"] = next(d["roll"] for d in truth["state"]["declarations"] if d["turn"] == first["turn"])
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.public(), "leaky")
        shortcut = next(d for v in received[Audience.of_seat(0)] for d in v["decisions"] if d["move"] == "declare_roll")
        leaky = json.loads(json.dumps(received[Audience.of_seat(2)][-1]))
        leaky["decisions"] = [shortcut]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, dealers[ends[Audience.of_seat(2)][leaky["version"]]], Audience.of_seat(2), "leaky")
    finally:
        for client in (public, *phones):
            client.close()


# -- 2. the browser: a turn cycle through the phones and the console, the rest through the API -------

DEALER_CARD = ".decision[data-seat='dealer']"


def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"clumsy_cats-{name}.png"), full_page=full)


def part(move: str) -> str:
    """The phone's form of one of the decisions the seat owes now."""
    return f"#decision .decision-part[data-move='{move}']"


def answer(page, root: str, value: Any = None) -> None:
    """A generic form: the option (if the decision has a field), next, then submit on the confirm
    step; a decision without fields is one button that sends at once."""
    if value is None:
        page.click(f"{root} button.next.act")
        return
    page.click(f"{root} .option[data-value='{value}']")
    page.click(f"{root} button.next")
    page.wait_for_selector(f"{root} .confirm-q")
    page.click(f"{root} button.submit")


def landed(server: LiveServer, show: str, before: int) -> dict[str, Any]:
    """Wait until a move lands (the table's version passes `before`); the dealer view then."""
    return wait_until(lambda: (v := dealer_view(server, show))["version"] > before and v, what="the move to land")


# What the projector draws, read back from its DOM (a JS expression).
PROJECTED = """() => ({
  cats: Array.from(document.querySelectorAll('.cc-cell .cc-cat'))
      .map(c => c.dataset.seat + '@' + c.closest('.cc-cell').dataset.cell).sort(),
  declared: (document.querySelector('.cc-decl') || {dataset: {}}).dataset.declared || '',
  window: !!document.querySelector(".cc-window[data-window='open']"),
  points: Array.from(document.querySelectorAll('.cc-row'))
      .map(r => r.dataset.seat + ':' + r.querySelector('.cc-row-points').textContent),
  track: Array.from(document.querySelectorAll('.cc-slot')).map(s => s.dataset.seat),
})"""


def expected_picture(view: dict[str, Any]) -> dict[str, Any]:
    state = view["state"]
    return {
        "cats": sorted(f"{c['seat']}@{c['cell']}" for c in state["cats"]),
        "declared": "" if state["over"] or state["turn"]["declared"] is None else str(state["turn"]["declared"]),
        "window": state["turn"]["window"] and not state["over"],
        "points": [f"{s['seat']}:{s['points']}점" for s in state["standings"]],
        "track": ["" if t["seat"] is None else str(t["seat"]) for t in state["track"]],
    }


def projector_shows(projector, view: dict[str, Any]) -> None:
    want = expected_picture(view)
    try:
        projector.wait_for_function("want => JSON.stringify((" + PROJECTED + ")()) === JSON.stringify(want)",
                                    arg=want, timeout=10_000)
    except PlaywrightError as error:
        raise AssertionError(f"the projector shows {projector.evaluate(PROJECTED)}, the public view {want}") from error


def rolls_only_on_the_rollers_phone(phones, view: dict[str, Any]) -> None:
    """The true roll is on the roller's phone only (with its one-tap shortcut), never elsewhere."""
    roller = view["state"]["turn"]["seat"]
    roll = view["state"]["secret"]["roll"]
    phones[roller].wait_for_selector(f".ccp-roll[data-roll='{roll}']")
    for seat, page in enumerate(phones):
        if seat != roller:
            assert page.locator(".ccp-roll").count() == 0, seat
            assert page.locator(part("declare_roll")).count() == 0, seat


def test_a_turn_cycle_through_phones_and_console_then_the_api_to_the_end(server, browser):
    show, table, links = new_table(server, seed=12)
    errors: list[str] = []
    console, projector, phones = open_pages(server, browser, show, links, errors)
    rnd = random.Random(12)

    console.click("[data-action=start]")
    view = wait_until(lambda: (v := dealer_view(server, show))["state"]["step"] == "declare" and v, what="the roll")
    projector.wait_for_selector(".cc .cc-map")
    projector_shows(projector, view)
    shot(projector, "projector-start")

    # One cycle of four turns: how each turn's declaration and call window go.
    plans = [("shortcut", "close"), ("bluff", "call"), ("console", "close"), ("number", "call")]
    called = 0
    revealed_before = False  # the projector shows the last turn's call until the next declaration
    for declaring, window in plans:
        assert view["state"]["step"] == "declare", view["state"]["turn"]
        number = view["state"]["turn"]["number"]
        roller = view["state"]["turn"]["seat"]
        roll = view["state"]["secret"]["roll"]
        rolls_only_on_the_rollers_phone(phones, view)
        if not revealed_before:
            assert projector.locator(".cc-reveal").count() == 0
        declare = next(d for d in view["decisions"] if d["move"] == "declare")
        options = [o["value"] for o in declare["fields"][0]["options"]]  # 1-4, or X / none in the toilet
        truthful = roll if roll in options else options[0]  # an X outside the toilet must be bluffed
        page = phones[roller]
        page.wait_for_selector(f"{part('declare')} .option")
        if number == 1:
            shot(page, "phone-roll", full=True)
        if declaring == "shortcut" and roll in options:
            answer(page, part("declare_roll"))
            declared = roll
        elif declaring == "console":
            console.click(f".seat-chip[data-seat='{roller}']")
            declared = truthful
            answer(console, f".decision[data-seat='{roller}'][data-move='declare']", declared)
        else:
            declared = next(v for v in options if v != roll) if declaring == "bluff" else truthful
            answer(page, part("declare"), declared)
        view = landed(server, show, view["version"])
        if view["state"]["step"] == "window":
            # The window: the declaration on the projector, and who may call; no roll shown.
            projector.wait_for_selector(f".cc-decl[data-declared='{declared}']")
            projector.wait_for_selector(".cc-window[data-window='open']")
            callers = view["state"]["turn"]["callers"]
            for seat in callers:
                assert NAMES[seat] in projector.locator(".cc-window-who").inner_text()
                phones[seat].wait_for_selector(f"{part('call_lie')} button.next.act")
            assert projector.locator(".cc-reveal").count() == 0
            if number == 2:
                shot(projector, "projector-window")
                shot(phones[callers[0]] if callers else phones[0], "phone-call", full=True)
            if window == "call" and callers:
                caller = callers[0]
                answer(phones[caller], part("call_lie"))
                view = landed(server, show, view["version"])
                last = next(d for d in view["state"]["declarations"] if d["turn"] == number)
                assert last["caller"] == caller and last["roll"] == roll
                projector.wait_for_selector(f".cc-reveal[data-roll='{roll}']")
                assert NAMES[caller] in projector.locator(".cc-reveal").inner_text()
                shot(projector, "projector-reveal")
                called += 1
            else:
                console.wait_for_selector(f"{DEALER_CARD}[data-move='close_window'] button.next.act")
                answer(console, f"{DEALER_CARD}[data-move='close_window']")
                view = landed(server, show, view["version"])
        # Effects and choices, until the next declaration: on the phones, or the console's.
        for _ in range(20):
            if view["result"] is not None or view["state"]["step"] == "declare":
                break
            decision = pick(view["decisions"], rnd)
            if decision["seat"] is None:
                root, page = f"{DEALER_CARD}[data-move='{decision['move']}']", console
            else:
                root, page = part(decision["move"]), phones[decision["seat"]]
            page.wait_for_selector(root)
            value = decision["fields"][0]["options"][0]["value"] if decision["fields"] else None
            answer(page, root, value)
            view = landed(server, show, view["version"])
        projector_shows(projector, view)
        # Whatever happened, an uncalled roll of this turn is on no page but the roller's phone.
        record = next(d for d in view["state"]["declarations"] if d["turn"] == number)
        revealed_before = record["caller"] is not None
        if not revealed_before and view["state"]["turn"]["declared"] is None:
            assert projector.locator(".cc-reveal").count() == 0
    assert called >= 1
    shot(projector, "projector-cycle")

    # The rest through the API: the seats' moves entered on their behalf, the windows closed.
    for _ in range(2000):
        view = dealer_view(server, show)
        if view["result"] is not None:
            break
        decision = pick(view["decisions"], rnd)
        server.ok("move", show=show, table=table, seat=decision["seat"], move=random_move(decision, rnd),
                  sid=uuid.uuid4().hex)
    final = dealer_view(server, show)
    assert final["result"] is not None and final["state"]["over"]

    projector.wait_for_selector(".cc-finish")
    projector_shows(projector, final)
    winners = [NAMES[s["seat"]] for s in final["state"]["standings"] if s["rank"] == 1]
    assert all(name in projector.locator(".cc-finish-win").inner_text() for name in winners)
    rows = projector.locator(".cc-row")
    assert [rows.nth(i).get_attribute("data-seat") for i in range(rows.count())] == \
        [str(s["seat"]) for s in final["state"]["standings"]]
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    shot(projector, "projector-final")
    for seat, page in enumerate(phones):
        mine = next(s for s in final["state"]["standings"] if s["seat"] == seat)
        page.wait_for_selector(f".ccp-row-me .ccp-row-points:text-is('{mine['points']}점')")
        page.wait_for_selector("#decision .waiting strong")
        if mine["rank"] == 1:
            shot(page, "phone-end", full=True)
    console.wait_for_selector("#table h3:text('결과')")
    assert not errors, errors
