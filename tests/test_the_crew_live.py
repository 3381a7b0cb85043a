"""The Crew, live: mission 25 with five seats (a dead zone, the five-player task handover, the
distress signal) through a real server, over the sockets and in headless Chromium.

- Sockets (the dealer deals physical cards, option `deal: dealer`): the dealer enters the hands
  and the task cards through the API; every handover, vote, passed card, task, communication
  and card played is submitted from the seat's own socket, from the decision in its own
  payload. The seats play to keep the mission alive (a card is chosen only if some completion
  of the trick fails nothing), so the attempt runs for several tricks. Every payload each client
  received must equal that audience's view folded from the exported log at its own version, and
  hold no secret (the game's docstring): no other seat's hand (a card of it named anywhere,
  unless the rules made that card public: a communicated card, a task card, a card played), no
  other seat's distress card, no true token position of another seat's communication in the
  dead zone; the public never gets decisions.
- Browser (the referee deals): the handover, the distress vote and the passed cards, a
  communication and the whole first trick on the phones' generic forms, one card entered by the
  dealer from the seat's chip on the console; the projector checked for the public facts (the
  commander, the tasks and their holders, the communicated card with its position hidden, the
  trick, the tricks won) and for no card of a hand; the rest through the API; the outcome on
  the projector and the phones. Screenshots go to test-artifacts/browser/the_crew-*.png.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest

from referee.games.the_crew import GAME
from referee.games.the_crew.cards import card_label
from referee.kernel import Actor, Audience, Rng
from referee.table import fold

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

NAMES = ["가온", "나린", "다인", "라희", "마루"]
MISSION = 25
# Keys a seat entry holds only for the seat itself (and the dealer): its hand, what it may play
# and show, its distress card, mission 12's card, a dead zone's true token position.
OWN_KEYS = {"hand", "legal", "comm_options", "distress_card", "random_pass", "actual"}
DEALER_KEYS = {"panel", "sheets"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("crew-live")).start()
    yield live
    live.stop()


def new_table(server: LiveServer, seed: int, deal: str) -> tuple[str, str, list[dict]]:
    return game_table(server, "the_crew", NAMES, seed, {"mission": MISSION, "deal": deal})


# -- how the crew plays --------------------------------------------------------------------------------


def _after(state: Any, seat: int, card: str) -> Any:
    for event in GAME.decide(state, Actor.of_seat(seat), {"type": "play", "card": card}, Rng(0)):
        state = GAME.evolve(state, event)
    return state


def _survivable(state: Any, trick: int, budget: list[int]) -> bool:
    """Some completion of the current trick fails nothing (a depth-first search, bounded)."""
    if state.status == "failed":
        return False
    if state.status != "running" or state.trick_no != trick or state.phase != "play":
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return True
    plays = [d for d in GAME.turn(state).decisions if d.move == "play"]
    if not plays:
        return True
    return any(_survivable(_after(state, plays[0].seat, o.value), trick, budget) for o in plays[0].fields[0].options)


def careful_card(log: dict[str, Any], seat: int, options: list[str], rnd: random.Random) -> str:
    """A card among `options` after which the trick can still end with nothing failed (the crew
    plays together: this looks at every hand, as the players' talk at the table would)."""
    state = fold(GAME, log["header"], log["entries"]).state
    cards = list(options)
    rnd.shuffle(cards)
    for card in cards:
        if _survivable(_after(state, seat, card), state.trick_no, [300]):
            return card
    return cards[0]


def seat_move(decision: dict[str, Any], rnd: random.Random, log: Any) -> dict[str, Any]:
    """A legal move for a seat's decision as its phone received it."""
    move: dict[str, Any] = {"type": decision["move"]}
    values = {f["name"]: [o["value"] for o in f.get("options", [])] for f in decision["fields"]}
    match decision["move"]:
        case "distress_vote":
            move["vote"] = "left" if rnd.random() < 0.8 else "any"  # settles on passing left
        case "confirm_handover":
            move["answer"] = "yes"
        case "play":
            move["card"] = careful_card(log(), decision["seat"], values["card"], rnd)
        case _:
            move.update({name: rnd.choice(options) for name, options in values.items()})
    return move


def choose(decisions: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """The next decision to answer: mostly the card to play, now and then a communication."""
    play = [d for d in decisions if d["move"] == "play"]
    talk = [d for d in decisions if d["move"] == "communicate"]
    if talk and rnd.random() < 0.25:
        return rnd.choice(talk)
    if play and rnd.random() < 0.85:
        return play[0]
    offers = [d for d in decisions if d["move"] == "offer_task"]
    if offers and rnd.random() < 0.5:
        return rnd.choice(offers)
    return rnd.choice(decisions)


def dealer_move(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    move: dict[str, Any] = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field["options"]]
        move[field["name"]] = rnd.sample(values, field["k"]) if field["shape"] == "some" else rnd.choice(values)
    return move


# -- the secrets ------------------------------------------------------------------------------------


def hidden_cards(dealer: dict[str, Any], audience: Audience) -> set[str]:
    """The cards in the hands `audience` does not hold, less those the rules made public (a
    communicated card lies face up; a task card is named by its task)."""
    state = dealer["state"]
    shown = {s["comm"]["card"] for s in state["seats"] if s["comm"]}
    tasks = {t["card"] for t in state["tasks"] if t["revealed"]}
    held = {c for s in state["seats"] if not audience.sees_seat(s["seat"]) for c in s["hand"]}
    return held - shown - tasks


def assert_no_secret(view: dict[str, Any], dealer: dict[str, Any], audience: Audience, where: str) -> None:
    state = view["state"]
    assert not keys(state) & DEALER_KEYS, f"{where}: dealer keys {keys(state) & DEALER_KEYS}"
    for entry in state["seats"]:
        if not audience.sees_seat(entry["seat"]):
            assert not keys(entry) & OWN_KEYS, f"{where}: seat {entry['seat']}'s {keys(entry) & OWN_KEYS}"
        if entry["comm"] and state["mission"]["dead_zone"]:
            assert entry["comm"]["position"] == "hidden", f"{where}: a dead zone's position shown"
    hidden = hidden_cards(dealer, audience)
    leaked = set(strings(view)) & hidden
    assert not leaked, f"{where}: cards {sorted(leaked)} of another's hand"
    text = json.dumps(view, ensure_ascii=False)
    for card in hidden:
        for words in (card_label(card).ko, card_label(card).en):
            assert f'"{words}' not in text, f"{where}: the label of hidden card {card} ({words})"
    for entry, real in zip(state["seats"], dealer["state"]["seats"], strict=True):
        assert entry["hand_count"] == len(real["hand"]), where


# -- 1. a whole attempt over the sockets --------------------------------------------------------------


def test_mission_25_with_five_seats_over_the_sockets_leaks_no_hand(server):
    show, table, links = new_table(server, seed=25, deal="dealer")
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(25)
    moves: dict[str, int] = {}
    try:
        server.ok("start", show=show, table=table)
        for _ in range(600):
            view = dealer_view(server, show)
            if view["result"] is not None:
                break
            dealer = [d for d in view["decisions"] if d["seat"] is None]
            decision = dealer[0] if dealer else choose(view["decisions"], rnd)
            moves[decision["move"]] = moves.get(decision["move"], 0) + 1
            seat = decision["seat"]
            if seat is None:
                # Crew rule 1 with physical cards: the dealer enters each hand, then the tasks drawn.
                server.ok("move", show=show, table=table, move=dealer_move(decision, rnd), sid=uuid.uuid4().hex)
                continue
            expected = [d for d in view["decisions"] if d["seat"] == seat]
            mine = wait_until(lambda p=phones[seat], e=expected: owed(p, e), what=f"seat {seat}'s decisions")
            own = next(d for d in mine if d["move"] == decision["move"])
            move = seat_move(own, rnd, lambda: server.log_of(show, table))
            ack = phones[seat].call("submit", {"table": table, "move": move, "sid": uuid.uuid4().hex})
            assert ack["ok"], (move, ack)
        else:
            pytest.fail("the mission did not end")
        assert moves["enter_hand"] == 4 and moves["enter_task"] == 6 and moves["pick_task"] == 6
        assert moves["distress_vote"] >= 5 and moves["distress_card"] == 5, moves
        assert moves.get("communicate", 0) >= 1 and moves["play"] >= 3 * 5, moves

        log = server.log_of(show, table)
        audiences = [Audience.public()] + [Audience.of_seat(s) for s in range(5)]
        clients = [public, *phones]
        for client, audience in zip(clients, audiences, strict=True):
            wait_until(lambda c=client, a=audience: (c.latest() or {}).get("version") == audience_version(log, a),
                       what=f"{audience} at the end")
        end = public.latest()["table"]
        assert end["state"]["phase"] == "over" and end["result"] is not None
        assert end["state"]["distress"]["used"] and len(end["state"]["history"]) >= 3
        assert end["result"]["details"]["mission"] == MISSION

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
                dealer = dealers[ends[audience][view["version"]]]
                assert_no_secret(view, dealer, audience, where)
                if audience.kind == "public":
                    assert view["decisions"] == [], where
                else:
                    assert all(d["seat"] == audience.seat for d in view["decisions"]), where
                    me = view["state"]["seats"][audience.seat]
                    assert me["hand"] == dealer["state"]["seats"][audience.seat]["hand"], where
                checked += 1
            if audience.kind == "seat":
                assert all(p["seat"] == audience.seat and p["player"] == NAMES[audience.seat]
                           for _e, p in client.history), audience
        assert checked >= 6 * 40

        # A seat's own communication in the dead zone: the true position reaches that seat only.
        talked = next(s for s in range(5) if end["state"]["seats"][s]["comm"])
        mine = phones[talked].latest()["table"]["state"]["seats"][talked]["comm"]
        assert mine["position"] == "hidden" and mine["actual"] in ("top", "middle", "bottom")

        # The check bites: another seat's hand, one of its cards, a dead zone's position.
        sample = next(v for v in received[Audience.of_seat(0)] if v["state"]["phase"] == "play")
        truth = dealers[ends[Audience.of_seat(0)][sample["version"]]]
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["seats"][1]["hand"] = truth["state"]["seats"][1]["hand"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(0), "leaky")
        leaky = json.loads(json.dumps(sample))
        secret = sorted(hidden_cards(truth, Audience.of_seat(0)))[0]
        leaky["state"]["trick"]["plays"].append({"seat": 1, "card": secret})
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(0), "leaky")
        leaky = json.loads(json.dumps(end))
        leaky["state"]["seats"][talked]["comm"]["actual"] = mine["actual"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, dealers[ends[Audience.public()][end["version"]]], Audience.public(), "leaky")
    finally:
        for client in (public, *phones):
            client.close()


# -- 2. the browser: the setup and trick 1 through the phones and the console, the rest through the API


def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"the_crew-{name}.png"), full_page=full)


def part(move: str) -> str:
    """The phone's form of one of the decisions the seat owes now."""
    return f"#decision .decision-part[data-move='{move}']"


def answer(page, root: str, *values: str) -> None:
    """A generic form: one option per field (in order), next, then submit on the confirm step."""
    for field, value in enumerate(values):
        page.click(f"{root} .field >> nth={field} >> .option[data-value='{value}']")
    page.click(f"{root} button.next")
    page.wait_for_selector(f"{root} .confirm-q")
    page.click(f"{root} button.submit")


def landed(server: LiveServer, show: str, before: int) -> dict[str, Any]:
    """Wait until a move lands (the table's version passes `before`); the dealer view then."""
    return wait_until(lambda: (v := dealer_view(server, show))["version"] > before and v, what="the move to land")


def projector_cards(projector) -> set[str]:
    return set(projector.eval_on_selector_all("#board [data-card]", "els => els.map(e => e.dataset.card)"))


def no_hand_on_projector(projector, view: dict[str, Any]) -> None:
    """The projector names no card of a hand, and no true token position in the dead zone."""
    shown = projector_cards(projector)
    assert not shown & hidden_cards(view, Audience.public()), shown & hidden_cards(view, Audience.public())
    for entry in view["state"]["seats"]:
        if entry["comm"]:
            pos = projector.locator(f".crew-seat[data-seat='{entry['seat']}'] .crew-comm")
            assert pos.get_attribute("data-position") == "hidden"
            assert pos.locator(".crew-comm-pos").inner_text() == "비공개"


def phone_shows_own_hand(page, view: dict[str, Any], seat: int) -> None:
    hand = view["state"]["seats"][seat]["hand"]
    page.wait_for_function("""hand => { const shown = Array.from(document.querySelectorAll(".crp-hand [data-card]"))
        .map(e => e.dataset.card); return JSON.stringify(shown.sort()) === JSON.stringify(hand.slice().sort()); }""",
                           arg=hand, timeout=10_000)
    others = set(page.eval_on_selector_all("#holdings [data-card]", "els => els.map(e => e.dataset.card)"))
    leaked = others & hidden_cards(view, Audience.of_seat(seat))
    assert not leaked, (seat, leaked)


def test_setup_and_trick_one_through_phones_and_console_then_the_api_to_the_end(server, browser):
    show, table, links = new_table(server, seed=7, deal="referee")
    errors: list[str] = []
    console, projector, phones = open_pages(server, browser, show, links, errors)
    rnd = random.Random(7)

    console.click("[data-action=start]")
    view = wait_until(lambda: (v := dealer_view(server, show))["state"]["phase"] == "draft" and v, what="the deal")
    commander = view["state"]["commander"]
    projector.wait_for_selector(f".crew-seat[data-seat='{commander}'] .crew-badge")
    assert "R4" in view["state"]["seats"][commander]["hand"]
    for seat, page in enumerate(phones):
        phone_shows_own_hand(page, view, seat)
    shot(projector, "projector-draft")

    # The draft on the phones: the commander first, then clockwise, one task each.
    while view["state"]["phase"] == "draft":
        (decision,) = view["decisions"]
        task = rnd.choice(decision["fields"][0]["options"])["value"]
        page = phones[decision["seat"]]
        page.wait_for_selector(f"{part('pick_task')} .option[data-value='{task}']")
        if decision["seat"] == commander:
            shot(page, "phone-draft", full=True)
        answer(page, part("pick_task"), task)
        view = landed(server, show, view["version"])
        owner = next(t["owner"] for t in view["state"]["tasks"] if t["card"] == task)
        assert owner == decision["seat"]
        projector.wait_for_selector(f".crew-task:has([data-card='{task}']) .crew-task-owner:text-is('{NAMES[owner]}')")

    # The five-player handover: one member offers a task to the next; everyone else agrees (one
    # of them entered by the dealer from the seat's chip).
    assert view["state"]["phase"] == "handover"
    giver = next(t["owner"] for t in view["state"]["tasks"])
    task = next(t["card"] for t in view["state"]["tasks"] if t["owner"] == giver)
    taker = (giver + 1) % 5
    answer(phones[giver], part("offer_task"), task, str(taker))
    view = landed(server, show, view["version"])
    projector.wait_for_selector(f".crew-question:has-text('{NAMES[giver]} → {NAMES[taker]}')")
    behalf = next(s for s in range(5) if s != giver)
    for seat in range(5):
        if seat == giver:
            continue
        if seat == behalf:
            console.click(f".seat-chip[data-seat='{seat}']")
            answer(console, f".decision[data-seat='{seat}']", "yes")
        else:
            answer(phones[seat], part("confirm_handover"), "yes")
        view = landed(server, show, view["version"])
    assert next(t["owner"] for t in view["state"]["tasks"] if t["card"] == task) == taker
    projector.wait_for_selector(f".crew-task:has([data-card='{task}']) .crew-task-owner:text-is('{NAMES[taker]}')")

    # The distress signal: everyone votes to pass left, then picks a card, secretly.
    assert view["state"]["phase"] == "distress_vote"
    for page in phones:
        answer(page, part("distress_vote"), "left")
        view = landed(server, show, view["version"])
    assert view["state"]["phase"] == "distress_pass"
    projector.wait_for_selector(".crew-caption:has-text('조난 신호!')")
    passed = {}
    for seat, page in enumerate(phones):
        decision = next(d for d in view["decisions"] if d["seat"] == seat)
        passed[seat] = rnd.choice(decision["fields"][0]["options"])["value"]
        answer(page, part("distress_card"), passed[seat])
        view = landed(server, show, view["version"])
        if seat == 1:
            projector.wait_for_selector(".crew-answer:has-text('✓ 골랐음') >> nth=1")
            no_hand_on_projector(projector, view)
            shot(projector, "projector-distress")
            shot(page, "phone-distress", full=True)
    assert view["state"]["phase"] == "play"
    for seat in range(5):
        assert passed[seat] in view["state"]["seats"][(seat + 1) % 5]["hand"]  # passed to the left
    for seat, page in enumerate(phones):
        phone_shows_own_hand(page, view, seat)

    # Trick 1: a member communicates before the first card (the dead zone hides the position),
    # then five cards, one of them entered on the console.
    talker = next(d["seat"] for d in view["decisions"] if d["move"] == "communicate")
    shown = next(d for d in view["decisions"] if d["move"] == "communicate" and d["seat"] == talker)
    card = shown["fields"][0]["options"][0]["value"]
    answer(phones[talker], part("communicate"), card)
    view = landed(server, show, view["version"])
    # The projector: the card face up, its position "hidden" (the dead zone).
    projector.wait_for_selector(f".crew-seat[data-seat='{talker}'] .crew-comm[data-position='hidden'] "
                                f"[data-card='{card}']")
    no_hand_on_projector(projector, view)
    shot(projector, "projector-communicated")
    phones[talker].wait_for_selector(".crp-member.me .crp-member-comm:has-text('데드존 (')")  # its own true position
    for i in range(5):
        (decision,) = [d for d in view["decisions"] if d["move"] == "play"]
        seat = decision["seat"]
        options = [o["value"] for o in decision["fields"][0]["options"]]
        card = careful_card(server.log_of(show, table), seat, options, rnd)
        if i == 2:
            console.click(f".seat-chip[data-seat='{seat}']")
            answer(console, f".decision[data-seat='{seat}'][data-move='play']", card)
        else:
            page = phones[seat]
            page.wait_for_selector(f"{part('play')} .option[data-value='{card}']")
            assert page.locator(f"{part('play')} .option").count() == len(options)
            if i == 0:
                shot(page, "phone-play", full=True)
            answer(page, part("play"), card)
        view = landed(server, show, view["version"])
        if i < 4:
            projector.wait_for_selector(f".crew-slot[data-seat='{seat}'].played [data-card='{card}']")
            no_hand_on_projector(projector, view)
    record = view["state"]["history"][0]
    assert [p["seat"] for p in record["plays"]][0] == commander
    projector.wait_for_selector(f".crew-seat[data-seat='{record['winner']}'] .crew-stat-n >> text='1'")
    assert NAMES[record["winner"]] in projector.locator(".crew-caption").first.inner_text()
    shot(projector, "projector-trick-1")

    # The rest through the API, the dealer entering each card on the seat's behalf.
    for _ in range(200):
        view = dealer_view(server, show)
        if view["result"] is not None:
            break
        plays = [d for d in view["decisions"] if d["move"] == "play"]
        decision = plays[0] if plays else view["decisions"][0]
        move = seat_move(decision, rnd, lambda: server.log_of(show, table))
        server.ok("move", show=show, table=table, seat=decision["seat"], move=move, sid=uuid.uuid4().hex)
    end = dealer_view(server, show)
    outcome = end["state"]["outcome"]
    assert end["result"] is not None and outcome is not None

    result = projector.wait_for_selector("[data-role='result']")
    words = "미션 성공" if outcome["success"] else "미션 실패"
    assert words in result.inner_text() and f"{outcome['trick']}번째 트릭" in result.inner_text()
    for entry in end["state"]["seats"]:
        won = projector.locator(f".crew-seat[data-seat='{entry['seat']}'] .crew-stat-n").first.inner_text()
        assert won == str(entry["tricks_won"])
    for t in end["state"]["tasks"]:
        assert t["status"] in projector.get_attribute(f".crew-task[data-task='{t['index']}']", "class")
    no_hand_on_projector(projector, end)
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    shot(projector, "projector-end")
    for seat, page in enumerate(phones):
        page.wait_for_selector(f".crp-outcome:has-text('{'미션 성공' if outcome['success'] else '미션 실패'}')")
        page.wait_for_selector("#decision .waiting strong")
        if seat == commander:
            shot(page, "phone-end", full=True)
    console.wait_for_selector("#table h3:text('결과')")
    assert not errors, errors
