"""Reef, live: a whole 4-seat game through a real server, over the sockets and in headless
Chromium.

- Sockets (a physical deck, option `deal: dealer`): the dealer enters every card dealt, drawn
  and laid out through the API, from a shuffled deck the test holds; every start, take, draw,
  play and coral is submitted from the seat's own socket, from the decision in its own payload.
  Every payload each client received must equal that audience's view folded from the exported
  log at its own version, and hold none of the game's secrets (Reef rule 12): no card of another
  seat's hand (dealt or drawn; a card taken from the display was seen by all), by number or by
  label; no other seat's point total before the end; never the deck's order; the public never
  gets decisions. At the end every total is shown.
- Browser (the referee shuffles): the start corals and the first round (a take, a draw, a card
  played with its two corals) on the phones' generic forms, one start entered by the dealer from
  the seat's chip on the console; the projector checked for the public facts (boards, display
  and its points, deck, supply, the scoring) and for no card of a hand; the rest through the API;
  the ranking on the projector and the phones. Screenshots go to test-artifacts/browser/reef-*.png.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from referee.games.reef.cards import CARDS, label
from referee.games.reef.patterns import cell_name
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

NAMES = ["한결", "누리", "보람", "새봄"]
DEALER_KEYS = {"deck_order", "panel", "sheets"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("reef-live")).start()
    yield live
    live.stop()


def new_table(server: LiveServer, seed: int, deal: str) -> tuple[str, str, list[dict]]:
    return game_table(server, "reef", NAMES, seed, {"deal": deal})


def seat_move(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A random legal move for a seat's decision as its phone received it."""
    fields = {f["name"]: f for f in decision["fields"]}
    values = {name: [o["value"] for o in f["options"]] for name, f in fields.items()}
    if decision["move"] == "place_start":
        # Reef rule 2: one colour a cell, as the player chooses.
        cells = rnd.sample(values["corals"], 4)
        return {"type": "place_start", "corals": {str(i["value"]): c for i, c in zip(fields["corals"]["items"], cells,
                                                                                     strict=True)}}
    return {"type": decision["move"], **{name: rnd.choice(options) for name, options in values.items()}}


def pick_turn(decisions: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """A turn's choice: play a card half the time when one is in hand, else take or draw."""
    by_move = {d["move"]: d for d in decisions}
    if "play_card" in by_move and (len(by_move) == 1 or rnd.random() < 0.5):
        return by_move["play_card"]
    return rnd.choice([d for d in decisions if d["move"] != "play_card"] or decisions)


# -- the secrets ------------------------------------------------------------------------------------


def cards_named(value: Any) -> set[int]:
    """The numbers of every card drawn in full (a card object) anywhere in `value`."""
    if isinstance(value, dict):
        own = {value["n"]} if {"n", "corals", "pattern"} <= set(value) else set()
        return own | {n for v in value.values() for n in cards_named(v)}
    if isinstance(value, list):
        return {n for v in value for n in cards_named(v)}
    return set()


def displayed(log: dict[str, Any], version: int) -> set[int]:
    """Every card shown to all up to a table version: laid face up on the display (taking one is
    seen by all), or left in a hand at the end (Reef rule 10 shows and scores it)."""
    shown: set[int] = set()
    for entry in log["entries"][:version]:
        event = entry["event"]
        if event["type"] == "DisplayFilled":
            shown.add(event["data"]["card"])
        elif event["type"] == "HandScored":
            shown |= {c["card"] for c in event["data"]["cards"]}
    return shown


def hidden_cards(dealer: dict[str, Any], audience: Audience, seen: set[int]) -> set[int]:
    """The cards in the hands `audience` does not hold that it never saw on the display."""
    return {c["n"] for s in dealer["state"]["seats"] if not audience.sees_seat(s["seat"]) for c in s["hand"]} - seen


def assert_no_secret(view: dict[str, Any], dealer: dict[str, Any], audience: Audience, seen: set[int],
                     where: str) -> None:
    state = view["state"]
    assert not keys(state) & DEALER_KEYS, f"{where}: dealer keys {keys(state) & DEALER_KEYS}"
    over = state["step"] == "over"
    for entry in state["seats"]:
        if not audience.sees_seat(entry["seat"]):
            assert "hand" not in entry, f"{where}: seat {entry['seat']}'s hand"
            assert over or "points" not in entry, f"{where}: seat {entry['seat']}'s total before the end"
    hidden = hidden_cards(dealer, audience, seen)
    assert not cards_named(view) & hidden, f"{where}: cards {sorted(cards_named(view) & hidden)} of another's hand"
    text = json.dumps(view, ensure_ascii=False)
    for n in hidden:
        for words in (label(CARDS[n]).ko, label(CARDS[n]).en):
            assert words not in text, f"{where}: the label of hidden card {n}"
    for entry, real in zip(state["seats"], dealer["state"]["seats"], strict=True):
        assert entry["hand_count"] == len(real["hand"]), where
        if over or audience.sees_seat(entry["seat"]):
            assert entry["points"] == real["points"], where


# -- 1. a whole game over the sockets -------------------------------------------------------------------


def test_whole_reef_game_over_the_sockets_leaks_no_hand_and_no_total(server):
    show, table, links = new_table(server, seed=4, deal="dealer")
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(4)
    deck = list(range(1, 61))
    rnd.shuffle(deck)  # the physical deck on the dealer's table
    moves: dict[str, int] = {}
    try:
        server.ok("start", show=show, table=table)
        for _ in range(1500):
            view = dealer_view(server, show)
            if view["result"] is not None:
                break
            dealer = [d for d in view["decisions"] if d["seat"] is None]
            if dealer:
                # Dealt, drawn or laid out: the dealer enters the physical card's number.
                (decision,) = dealer
                move = {"type": decision["move"], "card": deck.pop(0)}
                server.ok("move", show=show, table=table, move=move, sid=uuid.uuid4().hex)
                moves[decision["move"]] = moves.get(decision["move"], 0) + 1
                continue
            seat = rnd.choice(sorted({d["seat"] for d in view["decisions"]}))
            expected = [d for d in view["decisions"] if d["seat"] == seat]
            mine = wait_until(lambda p=phones[seat], e=expected: owed(p, e), what=f"seat {seat}'s decisions")
            decision = pick_turn(mine, rnd)
            move = seat_move(decision, rnd)
            ack = phones[seat].call("submit", {"table": table, "move": move, "sid": uuid.uuid4().hex})
            assert ack["ok"], ack
            moves[decision["move"]] = moves.get(decision["move"], 0) + 1
        else:
            pytest.fail("the game did not end")
        assert moves["deal_card"] == 4 * 2 + 3 and moves["place_start"] == 4
        assert moves.get("enter_draw", 0) == moves.get("draw_card", 0) >= 1, moves
        assert moves.get("refill_display", 0) >= 1 and moves["play_card"] >= 8, moves

        log = server.log_of(show, table)
        audiences = [Audience.public()] + [Audience.of_seat(s) for s in range(4)]
        clients = [public, *phones]
        for client, audience in zip(clients, audiences, strict=True):
            wait_until(lambda c=client, a=audience: (c.latest() or {}).get("version") == audience_version(log, a),
                       what=f"{audience} at the end")
        end = public.latest()["table"]
        final = end["state"]["final"]
        assert end["state"]["step"] == "over" and final is not None and end["result"] is not None
        assert [s["points"] for s in end["state"]["seats"]] == final["points"]  # every total shown at the end

        ends = stream_ends(log, audiences)
        received = {a: [p["table"] for e, p in c.history if p["table"] and p["table"]["started"]]
                    for c, a in zip(clients, audiences, strict=True)}
        dealers = views_at(log, {ends[a][v["version"]] for a in audiences for v in received[a]}, Audience.dealer())
        checked = 0
        for client, audience in zip(clients, audiences, strict=True):
            assert all(event == "view" for event, _ in client.history), f"{audience} got another event"
            expected = views_at(log, {v["version"] for v in received[audience]}, audience)
            for view in received[audience]:
                where = f"{audience} v{view['version']}"
                assert view == expected[view["version"]], f"{where}: the payload differs from the log's view"
                at = ends[audience][view["version"]]
                assert_no_secret(view, dealers[at], audience, displayed(log, at), where)
                if audience.kind == "public":
                    assert view["decisions"] == [], where
                else:
                    assert all(d["seat"] == audience.seat for d in view["decisions"]), where
                checked += 1
            if audience.kind == "seat":
                assert all(p["seat"] == audience.seat and p["player"] == NAMES[audience.seat]
                           for _e, p in client.history), audience
        assert checked >= 5 * 100

        # The check bites: another's hand, a drawn card shown, a total before the end.
        sample = next(v for v in received[Audience.of_seat(0)] if v["state"]["step"] == "action")
        at = ends[Audience.of_seat(0)][sample["version"]]
        truth, seen = dealers[at], displayed(log, at)
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["seats"][1]["hand"] = truth["state"]["seats"][1]["hand"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(0), seen, "leaky")
        leaky = json.loads(json.dumps(sample))
        secret = sorted(hidden_cards(truth, Audience.of_seat(0), seen))[0]
        leaky["state"]["last_score"] = {"card": CARDS[secret].to_json()}
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(0), seen, "leaky")
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["seats"][2]["points"] = truth["state"]["seats"][2]["points"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(0), seen, "leaky")
    finally:
        for client in (public, *phones):
            client.close()


# -- 2. the browser: the start and round 1 through the phones and the console, the rest through the API


def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"reef-{name}.png"), full_page=full)


def part(move: str) -> str:
    """The phone's form of one of the decisions the seat owes now."""
    return f"#decision .decision-part[data-move='{move}']"


def submit(page, root: str) -> None:
    page.click(f"{root} button.next")
    page.wait_for_selector(f"{root} .confirm-q")
    page.click(f"{root} button.submit")


def answer(page, root: str, **values: Any) -> None:
    """A generic form: the option of each named field, next, then submit on the confirm step."""
    for field, value in values.items():
        page.click(f"{root} .field[data-field='{field}'] .option[data-value='{value}']")
    submit(page, root)


def landed(server: LiveServer, show: str, before: int) -> dict[str, Any]:
    """Wait until a move lands (the table's version passes `before`); the dealer view then."""
    return wait_until(lambda: (v := dealer_view(server, show))["version"] > before and v, what="the move to land")


# What the projector draws of the table, read back from its DOM (a JS expression).
PROJECTED = """() => ({
  boards: Array.from(document.querySelectorAll('.rf-seat')).map(s => Array.from(s.querySelectorAll('.rf-cell'))
      .map(c => {
    const top = Array.from(c.classList).find(k => k.startsWith('rfc-'));
    return c.dataset.height + (top ? ':' + top.slice(4) : '');
  })),
  display: Array.from(document.querySelectorAll('.rf-display .rf-card')).map(c => c.dataset.card || ""),
  tokens: Array.from(document.querySelectorAll('.rf-display .rf-card')).map(c => {
    const t = c.querySelector("[data-role='tokens']"); return t ? t.textContent : ''; }),
  deck: (document.querySelector('.rf-deck-n') || {}).textContent,
  supply: Array.from(document.querySelectorAll('.rf-sup'))
      .map(e => e.dataset.colour + ':' + e.querySelector('.rf-sup-n').textContent),
  hands: Array.from(document.querySelectorAll("[data-role='hand']")).map(e => e.textContent),
})"""


def expected_picture(view: dict[str, Any]) -> dict[str, Any]:
    state = view["state"]
    return {
        "boards": [[f"{len(s)}:{s[-1]}" if s else "0" for s in seat["board"]] for seat in state["seats"]],
        "display": [str(d["card"]["n"]) if d["card"] else "" for d in state["display"]],
        "tokens": [f"+{d['tokens']}점" if d["tokens"] else "" for d in state["display"]],
        "deck": str(state["deck"]),
        "supply": [f"{k}:{state['supply'][k]}" for k in state["colours"]],
        "hands": [f"손 {s['hand_count']}장" for s in state["seats"]],
    }


def projector_shows(projector, view: dict[str, Any]) -> None:
    """The projector draws the public part of `view` (waiting for it to catch up), no card of a
    hand and no running total."""
    want = expected_picture(view)
    try:
        projector.wait_for_function("want => JSON.stringify((" + PROJECTED + ")()) === JSON.stringify(want)",
                                    arg=want, timeout=10_000)
    except PlaywrightError as error:
        raise AssertionError(f"the projector shows {projector.evaluate(PROJECTED)}, the public view {want}") from error
    state = view["state"]
    public = {d["card"]["n"] for d in state["display"] if d["card"]}
    public |= {c["n"] for s in state["seats"] for c in s["played"]}
    if state["playing"]:
        public.add(state["playing"]["card"]["n"])
    shown = {int(n) for n in projector.eval_on_selector_all("#board [data-card]", "l => l.map(e => e.dataset.card)")}
    assert shown <= public, shown - public
    if state["step"] != "over":
        assert projector.locator(".rf-stat.total").count() == 0


def phone_shows_own_hand(page, view: dict[str, Any], seat: int) -> None:
    hand = sorted(str(c["n"]) for c in view["state"]["seats"][seat]["hand"])
    page.wait_for_function("""hand => JSON.stringify(Array.from(document.querySelectorAll('.rfp-hand [data-card]'))
        .map(e => e.dataset.card).sort()) === JSON.stringify(hand)""", arg=hand, timeout=10_000)
    others = {c["n"] for s in view["state"]["seats"] if s["seat"] != seat for c in s["hand"]}
    shown = {int(n) for n in page.eval_on_selector_all("#holdings [data-card]", "els => els.map(e => e.dataset.card)")}
    display = {d["card"]["n"] for d in view["state"]["display"] if d["card"]}
    assert not (shown & others) - display, (seat, shown & others)


def test_the_start_and_round_one_through_phones_and_console_then_the_api_to_the_end(server, browser):
    show, table, links = new_table(server, seed=8, deal="referee")
    errors: list[str] = []
    console, projector, phones = open_pages(server, browser, show, links, errors)
    rnd = random.Random(8)

    console.click("[data-action=start]")
    view = wait_until(lambda: (v := dealer_view(server, show))["decisions"] and v, what="the deal")
    projector.wait_for_selector(".rf .rf-boards")
    projector_shows(projector, view)
    for seat, page in enumerate(phones):
        phone_shows_own_hand(page, view, seat)

    # The start corals: a colour on each centre cell (the assign rows); seat 4 through the console.
    cells = view["state"]["centre"]
    for seat in range(4):
        order = rnd.sample(cells, 4)
        placing = dict(zip(view["state"]["colours"], order, strict=True))
        if seat == 3:
            console.click(".seat-chip[data-seat='3']")
            root = ".decision[data-seat='3']"
            page = console
        else:
            page, root = phones[seat], part("place_start")
        page.wait_for_selector(f"{root} .assign-row")
        for colour, cell in placing.items():
            page.click(f"{root} button[data-item='{colour}'][data-value='{cell}']")
        if seat == 0:
            shot(page, "phone-start", full=True)
        submit(page, root)
        view = landed(server, show, view["version"])
        assert [view["state"]["seats"][seat]["board"][c] for c in order] == [[k] for k in placing]
    assert view["state"]["step"] == "action" and view["state"]["current"] == 0
    projector_shows(projector, view)
    shot(projector, "projector-start")

    # Round 1 on the phones: a take, a draw, then two cards played (each with its two corals).
    for seat, action in enumerate(("take_card", "draw_card", "play_card", "play_card")):
        page = phones[seat]
        decision = next(d for d in view["decisions"] if d["move"] == action)
        assert decision["seat"] == seat
        value = rnd.choice(decision["fields"][0]["options"])["value"]
        page.wait_for_selector(f"{part(action)} .option[data-value='{value}']")
        if seat == 0:
            shot(page, "phone-turn", full=True)
        answer(page, part(action), card=value)
        view = landed(server, show, view["version"])
        while view["state"]["step"] == "place":
            (place,) = view["decisions"]
            fields = {f["name"]: [o["value"] for o in f["options"]] for f in place["fields"]}
            chosen = {name: rnd.choice(options) for name, options in fields.items()}
            # The cell is tapped on the player's own board, in the form (issue 37), with the
            # points there before anything is sent; the coral (when there is a choice) as usual.
            cell = chosen.pop("cell")
            root = part("place_coral")
            for field, option in chosen.items():
                page.click(f"{root} .field[data-field='{field}'] .option[data-value='{option}']")
            tap = f"{root} .field[data-field='cell'] [data-role=cell-board] .rfp-cell[data-cell='{cell}']"
            assert page.locator(f"{root} .field[data-field='cell'] .option").count() == 0
            page.click(tap)
            page.wait_for_selector(f"{tap}.ghost")
            assert page.locator(f"{root} [data-role=verdict]").inner_text().startswith(cell_name(cell))
            if seat == 2:
                shot(page, "phone-place", full=True)
            submit(page, root)
            view = landed(server, show, view["version"])
        if action == "play_card":
            scored = view["state"]["last_score"]
            assert scored["seat"] == seat and scored["card"]["n"] == value
            projector.wait_for_selector(f"[data-role='scored'] [data-card='{value}']")
            assert projector.locator("[data-role='scored'] [data-role='points']").inner_text() == f"{scored['points']}점"
        projector_shows(projector, view)
        phone_shows_own_hand(page, view, seat)
    assert view["state"]["round"] == 2 and view["state"]["current"] == 0
    shot(projector, "projector-round-1")

    # The rest through the API, on the seats' behalf.
    for _ in range(600):
        view = dealer_view(server, show)
        if view["result"] is not None:
            break
        seat = view["decisions"][0]["seat"]
        decision = pick_turn(view["decisions"], rnd)
        server.ok("move", show=show, table=table, seat=seat, move=seat_move(decision, rnd), sid=uuid.uuid4().hex)
    final = dealer_view(server, show)
    assert final["result"] is not None
    ranking = final["state"]["final"]["ranking"]

    projector.wait_for_selector(".rf.over .rf-standings")
    rows = projector.locator(".rf-standings tbody tr")
    assert [rows.nth(i).get_attribute("data-seat") for i in range(rows.count())] == [str(r["seat"]) for r in ranking]
    for r in ranking:
        points = projector.locator(f".rf-standings tr[data-seat='{r['seat']}'] .rf-pts-cell").inner_text()
        assert points == str(r["points"])
    assert projector.locator(".rf-decided-text").inner_text() == final["state"]["final"]["decided_by"]["ko"]
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    shot(projector, "projector-final")
    for seat, page in enumerate(phones):
        mine = next(r for r in ranking if r["seat"] == seat)
        page.wait_for_selector(f".rfp-final:text('{mine['rank']}위 · {mine['points']}점')")
        page.wait_for_selector("#decision .waiting strong")
        if mine["rank"] == 1:
            shot(page, "phone-end", full=True)
    console.wait_for_selector("#table h3:text('결과')")
    assert not errors, errors
