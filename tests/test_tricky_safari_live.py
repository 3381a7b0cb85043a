"""Tricky Safari, live: a whole 5-seat match through a real server, over the sockets and in
headless Chromium.

- Sockets (the referee deals, then a physical deal, option `deal: dealer`): one /seat client per
  seat and one /public client; every card played, figure taken and the opponent named are
  submitted from the seat's own socket, from the decision in its own payload; the dealer begins
  the rounds and reveals the final scoring through the API (and with `deal: dealer` enters each
  round's opened numbers and the hands dealt).
  Every payload each client received must equal that audience's view folded from the exported
  log at its own version. The hands are the game's only secret (dealer and owner, every round,
  and what is left in them at a round's end): no payload to the public or to another seat may
  name a card held in a hand, by id or by label, nor carry a hand; the public never gets
  decisions.
- Browser (a physical deal, option `deal: dealer`): round 1's openings (steppers) and hands (a
  seat from the grid, five cards) entered on the console; the first turn cycle (five turns: play
  a card, then take a figure) on the phones' generic forms, one of them entered by the dealer
  from the seat's chip on the console; the
  round then played out through the API, the next round begun with the console's one button;
  the projector checked for the public facts (values, open cards, whose turn, the figures and
  who took them, the round's scoring) and for no card of a hand; the rest through the API, the
  final scoring from the console, and the opponent named on the winner's phone; the result on
  the projector and the phones. Screenshots go to test-artifacts/browser/tricky_safari-*.png.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from referee.games.tricky_safari.state import card_label
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
    strings,
    views_at,
    wait_until,
)
from .playout import keys

NAMES = ["김민준", "이서연", "박지호", "최유나", "정하준"]
ANIMALS = ("elephant", "rhino", "lion", "leopard", "zebra")
# Keys only the dealer's view holds: every hand (the history's hands left), the panel, the sheets.
DEALER_KEYS = {"hands", "panel", "sheets"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("safari-live")).start()
    yield live
    live.stop()


def new_table(server: LiveServer, seed: int, options: dict[str, Any] | None = None) -> tuple[str, str, list[dict]]:
    return game_table(server, "tricky_safari", NAMES, seed, options)


def random_move(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A random legal move for a decision as the clients receive it (JSON)."""
    move: dict[str, Any] = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field.get("options", [])]
        match field["shape"]:
            case "one":
                move[field["name"]] = rnd.choice(values)
            case "some":
                move[field["name"]] = rnd.sample(values, field["k"])
            case "number":
                move[field["name"]] = rnd.randint(field["low"], field["high"])
            case shape:
                raise AssertionError(f"unexpected field shape {shape}")
    return move


def hidden_cards(dealer: dict[str, Any], audience: Audience) -> set[str]:
    """The cards in the hands `audience` does not hold, at the dealer view's moment."""
    return {c for s in dealer["state"]["seats"] if not audience.sees_seat(s["seat"]) for c in s["hand"]}


def assert_no_secret(view: dict[str, Any], dealer: dict[str, Any], audience: Audience, where: str) -> None:
    """`view` (a payload to `audience`) names no card of a hand it does not hold, by id or label."""
    state = view["state"]
    assert not keys(state) & DEALER_KEYS, f"{where}: dealer keys {keys(state) & DEALER_KEYS}"
    for entry in state["seats"]:
        if not audience.sees_seat(entry["seat"]):
            assert "hand" not in entry, f"{where}: seat {entry['seat']}'s hand"
    hidden = hidden_cards(dealer, audience)
    leaked = set(strings(view)) & hidden
    assert not leaked, f"{where}: cards {sorted(leaked)} of another's hand"
    text = json.dumps(view, ensure_ascii=False)
    for card in hidden:
        for words in (card_label(card).ko, card_label(card).en):
            assert f'"{words}"' not in text, f"{where}: the label of hidden card {card} ({words})"
    # Each hand counts as public only by its size.
    for entry, real in zip(state["seats"], dealer["state"]["seats"], strict=True):
        assert entry["hand_count"] == len(real["hand"]), where


# -- 1. a whole match over the sockets ----------------------------------------------------------------


@pytest.mark.parametrize("deal", ["referee", "dealer"])
def test_whole_safari_match_over_the_sockets_leaks_no_hand(server, deal):
    show, table, links = new_table(server, seed=17, options={"deal": deal})
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(17)
    moves: dict[str, int] = {}
    try:
        server.ok("start", show=show, table=table)
        for _ in range(400):
            view = dealer_view(server, show)
            if view["result"] is not None:
                break
            (decision,) = view["decisions"]  # one decision at a time: a seat's, or the dealer's
            seat = decision["seat"]
            moves[decision["move"]] = moves.get(decision["move"], 0) + 1
            if seat is None:
                server.ok("move", show=show, table=table, move=random_move(decision, rnd), sid=uuid.uuid4().hex)
                continue
            # The seat answers from its own payload, on its own socket.
            mine = wait_until(lambda p=phones[seat], e=[decision]: owed(p, e), what=f"seat {seat}'s decision")
            move = random_move(mine[0], rnd)
            ack = phones[seat].call("submit", {"table": table, "move": move, "sid": uuid.uuid4().hex})
            assert ack["ok"], ack
        else:
            pytest.fail("the match did not end")
        assert moves["next_round"] == 4 and moves["final_scoring"] == 1 and moves["name_opponent"] == 1
        if deal == "dealer":  # the dealer enters the openings and four hands (the fifth is what is left)
            assert moves["open_cards"] == 5 and moves["deal_hand"] == 5 * 4, moves
        assert moves["play_card"] >= 5 * 5 and moves["take_figure"] == moves["play_card"]

        log = server.log_of(show, table)
        audiences = [Audience.public()] + [Audience.of_seat(s) for s in range(5)]
        clients = [public, *phones]
        for client, audience in zip(clients, audiences, strict=True):
            wait_until(lambda c=client, a=audience: (c.latest() or {}).get("version") == audience_version(log, a),
                       what=f"{audience} at the end")
        end = public.latest()["table"]
        details = end["result"]["details"]
        assert end["state"]["final"]["winner"] == details["winner"] and end["state"]["opponent"] == details["opponent"]
        assert details["opponent"] not in (details["winner"], details["last"])

        ends = stream_ends(log, audiences)
        received = {a: [p["table"] for e, p in c.history if p["table"] and p["table"]["started"]]
                    for c, a in zip(clients, audiences, strict=True)}
        dealers = views_at(log, {ends[a][v["version"]] for a in audiences for v in received[a]}, Audience.dealer())
        checked = left_over = 0
        for client, audience in zip(clients, audiences, strict=True):
            assert all(event == "view" for event, _ in client.history), f"{audience} got another event"
            expected = views_at(log, {v["version"] for v in received[audience]}, audience)
            for view in received[audience]:
                where = f"{audience} v{view['version']}"
                assert view == expected[view["version"]], f"{where}: the payload differs from the log's view"
                dealer = dealers[ends[audience][view["version"]]]
                assert_no_secret(view, dealer, audience, where)
                if view["state"]["step"] == "break" and hidden_cards(dealer, audience):
                    left_over += 1  # cards left in hands at a round's end stay secret
                if audience.kind == "public":
                    assert view["decisions"] == [], where
                else:
                    assert all(d["seat"] == audience.seat for d in view["decisions"]), where
                    own = dealer["state"]["seats"][audience.seat]["hand"]
                    assert view["state"]["seats"][audience.seat]["hand"] == own, where
                checked += 1
            if audience.kind == "seat":
                assert all(p["seat"] == audience.seat and p["player"] == NAMES[audience.seat]
                           for _e, p in client.history), audience
        assert checked >= 6 * 50 and left_over >= 1

        # The check bites: another seat's hand, or one of its cards named anywhere, fails it.
        sample = next(v for v in received[Audience.public()] if v["state"]["step"] == "play")
        truth = dealers[ends[Audience.public()][sample["version"]]]
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["seats"][2]["hand"] = truth["state"]["seats"][2]["hand"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.public(), "leaky")
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["plays"].append({"card": truth["state"]["seats"][2]["hand"][0]})
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.public(), "leaky")
    finally:
        for client in (public, *phones):
            client.close()


# -- 2. the browser: a turn cycle through the phones and the console, the rest through the API -------

DEALER_CARD = ".decision[data-seat='dealer']"


def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"tricky_safari-{name}.png"), full_page=full)


def answer(page, root: str, value: str) -> None:
    """A generic "pick one" form: the option, next, then submit on the confirm step."""
    page.click(f"{root} .option[data-value='{value}']")
    page.click(f"{root} button.next")
    page.wait_for_selector(f"{root} .confirm-q")
    page.click(f"{root} button.submit")


def landed(server: LiveServer, show: str, before: int) -> dict[str, Any]:
    """Wait until a move lands (the table's version passes `before`); the dealer view then."""
    return wait_until(lambda: (v := dealer_view(server, show))["version"] > before and v, what="the move to land")


# What the projector draws of the play, read back from its DOM (a JS expression).
PROJECTED = """() => ({
  animals: Array.from(document.querySelectorAll('.ts-animal')).map(c => ({
    animal: c.dataset.animal,
    value: c.querySelector("[data-role='value']").textContent,
    open: Array.from(c.querySelectorAll('.ts-slot:not(.empty)')).map(e => e.textContent),
    takers: c.querySelectorAll("[data-role='taken-by'] > *").length,
  })),
  toAct: (document.querySelector("[data-role='to-act']") || {dataset: {}}).dataset.seat || "",
  scores: Array.from(document.querySelectorAll(".ts-seat [data-role='score']")).map(e => e.textContent),
})"""


def projector_board(projector, view: dict[str, Any]) -> None:
    """The projector shows the animals (value, open cards, figures taken), whose turn, the seats'
    scores, as the public part of `view` says (waiting for it to catch up); and no card of a hand."""
    state = view["state"]
    want = {
        "animals": [{"animal": a["animal"], "value": "–" if a["value"] is None else str(a["value"]),
                     "open": [str(n) for n in a["open"]], "takers": len(a["taken_by"])}
                    for a in state["animals"]],
        "toAct": "" if state["to_act"] is None else str(state["to_act"]),
        "scores": [str(s["score"]) for s in state["seats"]],
    }
    try:
        projector.wait_for_function("want => JSON.stringify((" + PROJECTED + ")()) === JSON.stringify(want)",
                                    arg=want, timeout=10_000)
    except PlaywrightError as error:
        raise AssertionError(f"the projector shows {projector.evaluate(PROJECTED)}, the public view {want}") from error
    assert projector.locator("#board [data-card]").count() == 0
    text = projector.locator("#board").inner_text()
    for card in hidden_cards(view, Audience.public()):
        assert card not in text and card_label(card).en not in text, card


def phone_hand(page, hand: list[str]) -> None:
    """The phone shows its own hand, card by card, and only that."""
    if not hand:
        page.wait_for_selector(".tsp [data-role='hand']", state="detached")
        return
    shown = """() => Array.from(document.querySelectorAll("[data-role='hand'] [data-card]")).map(e => e.dataset.card)"""
    page.wait_for_function(f"hand => JSON.stringify(({shown})()) === JSON.stringify(hand)", arg=hand, timeout=10_000)


def test_a_turn_cycle_through_phones_and_console_then_the_api_to_the_end(server, browser):
    # Round 1 is dealt with the physical cards (the dealer enters them on the console), the later
    # rounds too, through the API.
    show, table, links = new_table(server, seed=9, options={"deal": "dealer"})
    errors: list[str] = []
    console, projector, phones = open_pages(server, browser, show, links, errors)
    rnd = random.Random(9)

    console.click("[data-action=start]")
    projector.wait_for_selector(".ts .ts-animals")
    # The dealer enters the five opened numbers (steppers) on the console ...
    openings = {a: rnd.randint(1, 4) for a in ANIMALS}
    card = f"{DEALER_CARD}[data-move='open_cards']"
    console.wait_for_selector(f"{card} input[type=number]")
    for animal, number in openings.items():
        console.fill(f"{card} .field[data-field='{animal}'] input[type=number]", str(number))
    console.click(f"{card} button.next")
    console.wait_for_selector(f"{card} .confirm-q")
    console.click(f"{card} button.submit")
    view = wait_until(lambda: (v := dealer_view(server, show))["decisions"][0]["move"] == "deal_hand" and v,
                      what="the openings")
    assert [a["open"] for a in view["state"]["animals"]] == [[openings[a]] for a in ANIMALS]
    projector_board(projector, view)
    # ... then the five cards each of four seats received (a seat from the grid, five cards from
    # the 25 left); the fifth seat holds the five left.
    left = [o["value"] for o in view["decisions"][0]["fields"][1]["options"]]
    assert len(left) == 25
    rnd.shuffle(left)
    dealt = {seat: sorted(left[5 * seat:5 * seat + 5]) for seat in range(5)}
    card = f"{DEALER_CARD}[data-move='deal_hand']"
    for seat in (2, 0, 4, 1):
        console.wait_for_selector(f"{card} .field[data-field='seat'] .option[data-value='{seat}']")
        console.click(f"{card} .field[data-field='seat'] .option[data-value='{seat}']")
        for c in dealt[seat]:
            console.click(f"{card} .field[data-field='cards'] .option[data-value='{c}']")
        if seat == 2:
            shot(console, "console-deal", full=True)
        console.click(f"{card} button.next")
        console.wait_for_selector(f"{card} .confirm-q")
        console.click(f"{card} button.submit")
        view = landed(server, show, view["version"])
    assert view["state"]["step"] == "play"
    for seat, page in enumerate(phones):
        assert sorted(view["state"]["seats"][seat]["hand"]) == dealt[seat]
        phone_hand(page, view["state"]["seats"][seat]["hand"])
    projector_board(projector, view)
    shot(projector, "projector-start")

    # The first turn cycle: each seat plays a card and takes a figure; seat 5's card is entered
    # by the dealer from its chip on the console, everything else on the phones.
    for turn in range(5):
        seat = view["state"]["to_act"]
        assert seat == turn
        card = rnd.choice(view["state"]["seats"][seat]["hand"])
        animal, number = card.split(":")
        if seat == 4:
            console.click(".seat-chip[data-seat='4']")
            answer(console, ".decision[data-seat='4']", card)
        else:
            page = phones[seat]
            page.wait_for_selector(f"#decision .decision-part[data-move='play_card'] .option[data-value='{card}']")
            assert page.locator("#decision .option").count() == len(view["state"]["seats"][seat]["hand"])
            if seat == 0:
                shot(page, "phone-play", full=True)
            answer(page, "#decision", card)
        view = landed(server, show, view["version"])
        assert view["state"]["stage"] == "take"
        projector.wait_for_selector(f".ts-animal[data-animal='{animal}'] .ts-slot.last:text-is('{number}')")
        projector_board(projector, view)
        phone_hand(phones[seat], view["state"]["seats"][seat]["hand"])
        # The figure, on the phone in every case.
        left = [a["animal"] for a in view["state"]["animals"] if a["figures_left"]]
        figure = rnd.choice(left)
        page = phones[seat]
        page.wait_for_selector(f"#decision .decision-part[data-move='take_figure'] .option[data-value='{figure}']")
        assert page.locator("#decision .option").count() == len(left)
        if seat == 1:
            shot(page, "phone-take", full=True)
        answer(page, "#decision", figure)
        view = landed(server, show, view["version"])
        if view["state"]["step"] != "play":
            break
        projector_board(projector, view)
    shot(projector, "projector-cycle")

    # The rest of round 1 through the API; the round's scoring is a moment of its own.
    def play_until(step: str) -> dict[str, Any]:
        for _ in range(200):
            v = dealer_view(server, show)
            if v["state"]["step"] == step:
                return v
            (d,) = v["decisions"]  # a seat's (entered on its behalf), or the dealer's deal
            server.ok("move", show=show, table=table, seat=d["seat"], move=random_move(d, rnd), sid=uuid.uuid4().hex)
        raise AssertionError(f"never reached {step}")

    view = play_until("break")
    record = view["state"]["history"][-1]
    projector.wait_for_selector("[data-role='round-scoring']")
    for seat in range(5):
        points = projector.locator(f".ts-end-row[data-seat='{seat}'] [data-role='points']")
        assert points.inner_text() == f"+{record['points'][seat]}"
    for a in ANIMALS:
        value = projector.locator(f".ts-end-animal[data-animal='{a}'] .ts-end-value").inner_text()
        assert value == str(record["values"][a])
    # Cards left in the hands stay secret at the round's end: on the projector, no card at all.
    assert projector.locator("#board [data-card]").count() == 0
    shot(projector, "projector-round-1-scoring")

    # The dealer begins round 2 with the console's one button (a decision with no fields).
    console.wait_for_selector(f"{DEALER_CARD}[data-move='next_round'] button.next.act")
    console.click(f"{DEALER_CARD}[data-move='next_round'] button.next")
    wait_until(lambda: dealer_view(server, show)["state"]["round"] == 2, what="round 2")
    view = play_until("play")  # round 2's cards, dealt through the API
    projector.wait_for_selector(".ts-pill.now:text-is('2')")
    projector_board(projector, view)
    for seat, page in enumerate(phones):
        phone_hand(page, view["state"]["seats"][seat]["hand"])

    # Rounds 2-5 through the API, begun by the dealer; the final scoring from the console.
    for _ in range(3):
        play_until("break")
        server.ok("move", show=show, table=table, move={"type": "next_round"}, sid=uuid.uuid4().hex)
    play_until("break")
    console.wait_for_selector(f"{DEALER_CARD}[data-move='final_scoring'] button.next.act")
    console.click(f"{DEALER_CARD}[data-move='final_scoring'] button.next")
    view = wait_until(lambda: (v := dealer_view(server, show))["state"]["step"] == "naming" and v, what="the final")
    final = view["state"]["final"]
    winner = final["winner"]
    projector.wait_for_selector("[data-role='naming']")
    assert NAMES[winner] in projector.locator("[data-role='naming']").inner_text()

    # The winner names the Tricky Coin opponent on the phone: not the last, not themself.
    page = phones[winner]
    page.wait_for_selector("#decision .decision-part[data-move='name_opponent'] .option")
    offered = {page.locator("#decision .option").nth(i).get_attribute("data-value")
               for i in range(page.locator("#decision .option").count())}
    assert offered == {str(s) for s in range(5) if s not in (winner, final["last"])}
    opponent = min(int(s) for s in offered)
    shot(page, "phone-name-opponent", full=True)
    answer(page, "#decision", str(opponent))
    end = wait_until(lambda: (v := dealer_view(server, show))["result"] is not None and v, what="the result")
    assert end["state"]["opponent"] == opponent

    # The result on the projector: the animal ranking, the standings, the named opponent.
    headline = projector.wait_for_selector("[data-role='opponent']")
    assert NAMES[winner] in headline.inner_text() and NAMES[opponent] in headline.inner_text()
    rows = projector.locator("[data-role='standings'] .ts-final-row:not(.head)")
    assert [rows.nth(i).get_attribute("data-seat") for i in range(rows.count())] == [str(s) for s in final["order"]]
    for seat in range(5):
        total = projector.locator(f".ts-final-row[data-seat='{seat}'] .ts-final-total").inner_text()
        assert total == str(final["totals"][seat])
    for a in ANIMALS:
        assert projector.locator(f".ts-rank-row[data-animal='{a}'] .ts-rank-sum").inner_text() == str(final["sums"][a])
    assert projector.locator(f".ts-final-row.winner[data-seat='{winner}']").count() == 1
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    shot(projector, "projector-final")
    for seat, page in enumerate(phones):
        box = page.wait_for_selector("[data-role='final']")
        place = final["order"].index(seat) + 1
        assert f"{place}위" in box.inner_text() and str(final["totals"][seat]) in box.inner_text()
        page.wait_for_selector("#decision .waiting strong")
        if seat in (winner, opponent):
            shot(page, f"phone-end-{'winner' if seat == winner else 'opponent'}", full=True)
    console.wait_for_selector("#table h3:text('결과')")
    assert not errors, errors
