"""Quattro live: whole matches through a real server, over the sockets and in headless Chromium.

The socket test plays random legal matches with two /seat clients, a /public client and the
dealer through the API. Every payload must equal the view computed from the exported log cut
at its version, and no card that is secret from its audience at that version (a hand, a
virtual player's hidden card, the deck; for a candidate: the other's hand, received cards
included) may appear in it. A card that was laid face up is public by value, and may be named
by the record of what was given and by its giver's own history, but never as held by a
candidate the audience does not see (who got it is the secret).

The browser test plays a whole match through the phones' generic forms, with the first player
chosen on the console, and checks what the projector shows against the public view.
Screenshots go to test-artifacts/browser/quattro-*.png.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from referee.games.quattro.cards import label
from referee.kernel import Audience, josa

from .live import ARTIFACTS, Client, LiveServer, audience_version, open_pages, strings, table_version, views_at

PLAYERS = ("김가영", "이나래")
VIRTUAL_HAND = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("quattro-live")).start()
    yield live
    live.stop()


def new_table(server: LiveServer, seed: int, deal: str = "referee") -> tuple[str, str, list[dict]]:
    show = "q" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name=f"콰트로 {show}")
    for name in PLAYERS:
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="quattro", players=list(PLAYERS), options={"deal": deal},
                      seed=seed)["table"]
    server.ok("set_current", show=show, table=table)
    return show, table, server.snapshot(show)["links"]


def pick_decision(decisions: list[dict], rnd: random.Random, pass_rate: float = 0.35) -> dict:
    """One of the decisions a seat owes: the exchange and the pass come together, and the pass
    is taken often enough that phases end by two passes in a row while exchanges are open."""
    moves = {d["move"]: d for d in decisions}
    if "pass" in moves and "exchange" in moves:
        return moves["pass"] if rnd.random() < pass_rate else moves["exchange"]
    return rnd.choice(decisions)


def random_move(decision: dict, rnd: random.Random) -> dict:
    """A random legal move built from a decision as the clients receive it (JSON)."""
    move: dict[str, Any] = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field["options"]]
        if field["shape"] == "some":
            move[field["name"]] = rnd.sample(values, field["k"])
        else:
            move[field["name"]] = rnd.choice(values)
    return move


def same_but_version(a: dict, b: dict) -> bool:
    return {**a, "version": None} == {**b, "version": None}


def caught_up(client: Client, expected: dict, timeout: float = 20) -> None:
    """Wait until `client` shows `expected` (a view at the latest version). The server sends an
    audience nothing when a command changed nothing it may see, so the last payload may carry an
    older version with the same content."""
    deadline = time.monotonic() + timeout
    while True:
        latest = client.latest()
        if latest is not None and latest["table"] is not None and same_but_version(latest["table"], expected):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{client.namespace} never showed v{expected['version']}")
        time.sleep(0.02)


def view_at(log: dict, version: int, audience: Audience) -> dict:
    """The view of `audience` after the first `version` entries of the log (a table version)."""
    cut = {"header": log["header"], "entries": log["entries"][:version]}
    own = audience_version(cut, audience)
    return views_at(cut, {own}, audience)[own]


def secrets(dealer: dict, audience: Audience) -> tuple[set[str], dict[int, set[str]]]:
    """What `audience` may not know at the dealer view's version.

    First, the cards whose very value it may not know: the hands it does not hold, every
    virtual player's hidden cards and the deck, less every card ever laid face up. Second, per
    candidate it does not see, the face-up cards that candidate holds now: their value is
    public, but not that this candidate got them (Quattro rule 3 keeps the received card secret).
    """
    state = dealer["state"]
    laid = {f["card"] for vp in state["virtual"] for f in vp["face_up"]}
    hidden = set(state.get("deck", []))
    for vp in state["virtual"]:
        hidden |= set(vp.get("hidden", []))
    where: dict[int, set[str]] = {}
    for seat in state["seats"]:
        if not audience.sees_seat(seat["seat"]):
            hidden |= set(seat["hand"])
            where[seat["seat"]] = set(seat["hand"]) & laid
    return hidden - laid, where



def assert_no_secret(payload: dict, dealer: dict, audience: Audience, where: str) -> None:
    values, held = secrets(dealer, audience)
    named = set(strings(payload))
    leaked = named & values
    assert not leaked, f"{where}: secret cards {sorted(leaked)} in the payload"
    text = json.dumps(payload, ensure_ascii=False)
    for card in values:
        for words in (label(card).ko, label(card).en):
            assert words not in text, f"{where}: the label of secret card {card} ({words}) in the payload"
    for seat, cards in held.items():
        entry = payload["state"]["seats"][seat]
        told = set(strings(entry)) & cards
        assert not told, f"{where}: says that seat {seat} holds the face-up cards {sorted(told)}"


def play_over_sockets(server: LiveServer, seed: int, deal: str) -> None:
    show, table, links = new_table(server, seed, deal)
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(seed)
    moves = {"dealer": 0, "seat": 0}
    try:
        server.ok("start", show=show, table=table)
        for _ in range(600):
            log = server.log_of(show, table)
            version = log["entries"][-1]["v"]
            for client, audience in ((public, Audience.public()), *((p, Audience.of_seat(i)) for i, p in enumerate(phones))):
                caught_up(client, view_at(log, version, audience))
            dealer = view_at(log, version, Audience.dealer())
            if dealer["result"]:
                break
            seat_of = rnd.choice(dealer["decisions"])["seat"]
            decision = pick_decision([d for d in dealer["decisions"] if d["seat"] == seat_of], rnd)
            if decision["seat"] is None:
                # Dealer decisions (the first player, the dealt cards, a full draw) through the API.
                ack = server.ok("move", show=show, table=table, move=random_move(decision, rnd), sid=uuid.uuid4().hex)
                moves["dealer"] += 1
            else:
                phone = phones[decision["seat"]]
                mine = phone.latest()["table"]
                assert mine["decisions"], "the phone must show its decision"
                ack = phone.call("submit", {"table": table, "move": random_move(pick_decision(mine["decisions"], rnd), rnd),
                                            "sid": uuid.uuid4().hex})
                assert ack["ok"], ack
                moves["seat"] += 1
        else:
            pytest.fail("the match did not end")
        assert moves["dealer"] >= 1 and moves["seat"] >= 8

        log = server.log_of(show, table)
        assert log["entries"][-1]["v"] == version
        end = public.latest()["table"]
        assert end["version"] == audience_version(log, Audience.public()) and end["result"] is not None
        assert end["result"]["details"]["hands"] == end["state"]["comparison"]["hands"]
        assert end["result"]["decided_by"]["ko"] and end["result"]["decided_by"]["en"]

        audiences = [(public, Audience.public())] + [(p, Audience.of_seat(i)) for i, p in enumerate(phones)]
        checked = 0
        for client, audience in audiences:
            for event, payload in client.history:
                view = payload["table"]
                assert event == "view" and view is not None
                if not view["started"]:
                    continue
                where = f"{audience} v{view['version']}"
                at = table_version(log, audience, view["version"])
                assert view == view_at(log, at, audience), f"{where}: payload differs from the log"
                dealer_then = view_at(log, at, Audience.dealer())
                assert_no_secret(view, dealer_then, audience, where)
                if audience.kind == "seat":
                    other = view["state"]["seats"][1 - audience.seat]
                    assert not {"hand", "received", "open_choice"} & set(other), where
                else:
                    assert view["decisions"] == [] and "deck" not in view["state"], where
                    assert all("hand" not in s and "received" not in s for s in view["state"]["seats"]), where
                    assert all("hidden" not in v and "holding" not in v for v in view["state"]["virtual"]), where
                checked += 1
        assert checked >= 3 * moves["seat"]

        # The check bites: the same payload with the other's hand or a hidden card in it fails.
        sample = next(p["table"] for _e, p in phones[0].history
                      if p["table"]["started"] and p["table"]["state"]["step"] == "exchange")
        dealer_then = view_at(log, table_version(log, Audience.of_seat(0), sample["version"]), Audience.dealer())
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["seats"][1]["hand"] = dealer_then["state"]["seats"][1]["hand"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, dealer_then, Audience.of_seat(0), "leaky")
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["virtual"][0]["hidden"] = dealer_then["state"]["virtual"][0]["hidden"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, dealer_then, Audience.of_seat(0), "leaky")
    finally:
        for client in (public, *phones):
            client.close()


@pytest.mark.parametrize(("seed", "deal"), [(1, "referee"), (2, "referee"), (3, "dealer")])
def test_whole_quattro_matches_over_the_sockets_leak_nothing(server, seed, deal):
    play_over_sockets(server, seed, deal)


# -- the browser ----------------------------------------------------------------------------------




def answer(page, selector: str, value: str | dict[str, str] | None) -> None:
    """Answer a generic decision form inside `selector`: choose (one value or a value per
    field), next, confirm, submit; a decision without fields (the pass) is one tap."""
    if value is None:
        page.click(f"{selector} button.next.act")
        return
    if isinstance(value, dict):
        for name, one in value.items():
            page.click(f"{selector} .field[data-field='{name}'] .option[data-value='{one}']")
    else:
        page.click(f"{selector} .option[data-value='{value}']")
    page.click(f"{selector} button.next")
    page.wait_for_selector(f"{selector} .confirm-q")
    page.click(f"{selector} button.submit")


def fresh_form(page) -> bool:
    """Wait for the phone's form of a new decision; False if it opened on a stale confirm step.

    When the seat's next view arrives before the acknowledgement of its last move and the seat
    owes a decision again at once (a second mulligan; the exchange owed by the first player
    right after its sealed opening completes the pair), the new form must open fresh: it must
    not adopt the previous decision's pending submission (whose id the server would take as a
    duplicate, so the new move would never be made).
    """
    page.wait_for_selector("#decision button.next, #decision button.submit:not([disabled])")
    if page.locator("#decision button.next").count():
        return True
    page.click("#decision .confirm-actions button:not(.submit)")
    page.wait_for_selector("#decision button.next")
    return False


def phone_turn(page, move: str, value: Any, server: LiveServer, show: str, before: int) -> None:
    """Answer the phone's form of `move`, then wait for the move to land (the table's version
    passes `before`). The receipt is no proof either way: a stale one can stay on screen (see
    fresh_form), and a decision that follows at once (a second mulligan) replaces the new one."""
    answer(page, f"#decision .decision-part[data-move='{move}']", value)
    deadline = time.monotonic() + 20
    while server.snapshot(show)["tables"][0]["view"]["version"] <= before:
        assert time.monotonic() < deadline, "the move never landed"
        time.sleep(0.05)


# What the projector draws, read back from its DOM (a JS expression).
PROJECTED = """({
  opened: [0, 1].map(s => Array.from(document.querySelectorAll(`.qt-cand[data-seat='${s}'] .qt-hand .qc.face`)).map(e => e.dataset.card)),
  backs: [0, 1].map(s => document.querySelectorAll(`.qt-cand[data-seat='${s}'] .qt-hand .qc.back`).length),
  faceUp: Array.from(document.querySelectorAll('.qt-vp')).map(v => Array.from(v.querySelectorAll('.qc.face')).map(e => e.dataset.card)),
  vpBacks: Array.from(document.querySelectorAll('.qt-vp')).map(v => v.querySelectorAll('.qc.back').length),
  exchanged: [0, 1].map(s => Array.from(document.querySelectorAll(`.qt-cand[data-seat='${s}'] .qt-chip.on`)).map(e => Number(e.dataset.vp)).sort()),
  cards: Array.from(document.querySelectorAll('#board [data-card]')).map(e => e.dataset.card),
})"""
SHOWS = "want => { const got = " + PROJECTED + """;
  if (want.final) got.opened = got.opened.map(l => l.slice().sort());
  return ['opened', 'backs', 'faceUp', 'vpBacks', 'exchanged'].every(k => JSON.stringify(got[k]) === JSON.stringify(want[k])); }"""


def expected_picture(public: dict) -> dict:
    state = public["state"]
    dealt = state["step"] in ("open", "exchange", "compare", "draw", "over")
    final = state["comparison"] is not None
    return {
        # At the end each hand is drawn highest first, and the exchange counters give way to the verdict.
        "final": final,
        "opened": [sorted(s["opened"]) if final else s["opened"] for s in state["seats"]],
        "backs": [s["hand_count"] for s in state["seats"]],
        "faceUp": [[f["card"] for f in v["face_up"]] for v in state["virtual"]],
        "vpBacks": [VIRTUAL_HAND - len(v["face_up"]) if dealt else 0 for v in state["virtual"]],
        "exchanged": [[] if final else sorted(s["exchanged_with"]) for s in state["seats"]],
    }


def projector_shows(projector, public: dict, timeout: float = 10_000) -> dict:
    """Wait until the projector draws `public` (it may lag a socket message), then return it."""
    want = expected_picture(public)
    try:
        projector.wait_for_function(SHOWS, arg=want, timeout=timeout)
    except PlaywrightError as error:
        got = projector.evaluate("() => " + PROJECTED)
        raise AssertionError(f"the projector shows {got}, the public view {want}") from error
    return projector.evaluate("() => " + PROJECTED)


def public_view(server: LiveServer, show: str) -> tuple[dict, dict]:
    """The dealer view and the public view at the same version (the API gives the dealer's)."""
    dealer = server.snapshot(show)["tables"][0]["view"]
    log = server.log_of(show, dealer["table"])
    return dealer, view_at(log, dealer["version"], Audience.public())


def test_whole_quattro_match_through_console_phones_and_projector(server, browser):
    show, table, links = new_table(server, seed=7)
    rnd = random.Random(7)
    errors: list[str] = []

    console, projector, phones = open_pages(server, browser, show, links, errors)

    console.click("[data-action=start]")
    projector.wait_for_selector(".qt-cand[data-seat='1']")
    projector.wait_for_selector(".qt-vp-wait")  # the virtual players are not dealt yet

    # The dealer names the first player on the console's decision card.
    dealer_card = ".decision[data-seat='dealer']"
    console.wait_for_selector(f"{dealer_card} .option[data-value='1']")
    answer(console, dealer_card, "1")
    projector.wait_for_selector("#moment:not([hidden]):has-text('선 플레이어')")
    projector.wait_for_selector(".qt-cand[data-seat='1'] .qt-badge.first")

    shots: set[str] = set()
    moments: set[str] = set()
    mulliganed = False
    ever_mine: list[set[str]] = [set(), set()]
    stale: list[str] = []  # decisions whose form opened on a stale confirm step: must stay empty
    for _ in range(300):
        dealer, public = public_view(server, show)
        state = public["state"]
        picture = projector_shows(projector, public)
        # Never a card the public view does not name.
        named = {c for s in state["seats"] for c in s["opened"]} | {f["card"] for v in state["virtual"] for f in v["face_up"]}
        if state["comparison"]:
            named |= {c for h in state["comparison"]["hands"] for c in h}
        assert set(picture["cards"]) <= named, (picture["cards"], named)
        # A phone shows its own cards and what is public, nothing of the other candidate's.
        for seat, page in enumerate(phones):
            mine = dealer["state"]["seats"][seat]
            ever_mine[seat] |= set(mine["hand"]) | set(mine["opened"]) | {r["card"] for r in mine["received"]}
            shown = page.eval_on_selector_all("#holdings [data-card]", "els => els.map(e => e.dataset.card)")
            assert set(shown) <= ever_mine[seat] | named, (seat, shown)
        if dealer["result"]:
            break

        if state["step"] == "mulligan" and "mulligan" not in shots:
            projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
            projector.screenshot(path=str(ARTIFACTS / "quattro-projector-mulligan.png"))
            phones[0].screenshot(path=str(ARTIFACTS / "quattro-phone-mulligan.png"), full_page=True)
            shots.add("mulligan")
        if state["step"] == "open" and dealer["turn"]["sealed"] == [1, 2] and "sealed" not in shots:
            projector.wait_for_selector(".sealed:text('1/2')")
            projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
            assert projector.locator(".qt-badge.ok").count() == 1
            projector.screenshot(path=str(ARTIFACTS / "quattro-projector-sealed.png"))
            shots.add("sealed")
        if state["step"] == "exchange" and state["phase"] == 2 and len(state["actions"]) >= 5 and "exchange" not in shots:
            projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
            projector.screenshot(path=str(ARTIFACTS / "quattro-projector-exchange.png"))
            acting = phones[state["to_act"]]
            acting.wait_for_selector("#decision button.next, #decision button.submit:not([disabled])")
            acting.screenshot(path=str(ARTIFACTS / "quattro-phone-exchange.png"), full_page=True)
            shots.add("exchange")

        owed = [d for d in dealer["decisions"] if d["seat"] is not None]
        if not owed:
            # Only a dealer decision (a full draw) is left: the console decides it.
            console.wait_for_selector(f"{dealer_card} button.next")
            answer(console, dealer_card, str(dealer["decisions"][0]["fields"][0]["options"][0]["value"]))
            console.wait_for_selector(f"{dealer_card}", state="detached")
            continue
        seat = rnd.choice(owed)["seat"]
        decision = pick_decision([d for d in owed if d["seat"] == seat], rnd, pass_rate=0.3)
        page = phones[seat]
        if not fresh_form(page):
            stale.append(decision["move"])
        form = f"#decision .decision-part[data-move='{decision['move']}']"
        # The form offers exactly the decision's options, field by field: the exchange is two
        # short fields (the card, then the virtual player), the pass a form of its own.
        for field in decision["fields"]:
            options = page.locator(f"{form} .field[data-field='{field['name']}'] .option")
            values = [options.nth(i).get_attribute("data-value") for i in range(options.count())]
            assert sorted(values) == sorted(str(o["value"]) for o in field["options"])
        if decision["move"] == "mulligan":
            value: Any = "mulligan" if seat == 0 and not mulliganed else "keep"
            mulliganed = mulliganed or seat == 0
        elif decision["move"] == "pass":
            value = None
        elif decision["move"] == "exchange":
            value = {k: str(v) for k, v in random_move(decision, rnd).items() if k != "type"}
        else:
            value = random_move(decision, rnd)[decision["fields"][0]["name"]]
        phone_turn(page, decision["move"], value, server, show, dealer["version"])

        if decision["move"] == "mulligan" and value == "mulligan":
            projector.wait_for_selector("#moment:not([hidden]):has-text('멀리건')")
            moments.add("mulligan")
        if decision["move"] == "exchange":
            # The receipt says what was sent, the particle after the card's last syllable.
            card, vp = value["card"], int(value["vp"])
            sentence = f"{josa(label(card).ko, '을/를')} 가상 플레이어 {vp + 1}에게 주고 교환"
            page.wait_for_selector(f"#receipt .receipt-what:has-text('{sentence}')")
            assert "을(를)" not in page.locator("#receipt").inner_text()
        if decision["move"] == "exchange" and "exchange" not in moments:
            projector.wait_for_selector(f"#moment:not([hidden]):has-text('가상 {vp + 1}')")
            assert label(card).ko in projector.locator("#moment").inner_text()
            projector.wait_for_selector(f".qt-vp[data-vp='{vp}'].hot .qc.face.fresh[data-card='{card}']")
            moments.add("exchange")
        if decision["move"] == "pass" and "pass" not in moments:
            projector.wait_for_selector("#moment:not([hidden]):has-text('패스')")
            moments.add("pass")
        if decision["move"] == "open_card" and dealer["turn"]["sealed"] == [1, 2] and "open" not in moments:
            projector.wait_for_selector("#moment:not([hidden]):has-text('공개!')")
            projector.wait_for_selector(f".qt-cand[data-seat='{seat}'] .qc.face.fresh[data-card='{value}']")
            moments.add("open")
    else:
        pytest.fail("the match did not end")

    assert {"mulligan", "exchange", "open"} <= moments, moments
    assert {"mulligan", "sealed", "exchange"} <= shots, shots

    # The final comparison: both hands revealed, which is a quattro, the sums, what decided, the winner.
    dealer = server.snapshot(show)["tables"][0]["view"]
    result, comparison = dealer["result"], dealer["state"]["comparison"]
    projector.wait_for_selector(".qt.qt-over [data-role='decided-by']")
    projector.wait_for_selector("#moment:not([hidden]):has-text('승리')")
    projector.screenshot(path=str(ARTIFACTS / "quattro-projector-final-moment.png"))
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    projector.screenshot(path=str(ARTIFACTS / "quattro-projector-final.png"))
    assert projector.locator("[data-role='decided-by']").inner_text() == result["decided_by"]["ko"]
    winner = PLAYERS[result["winner"]]
    assert winner in projector.locator("[data-role='winner']").inner_text()
    assert projector.locator(f".qt-cand[data-seat='{result['winner']}'].winner .qt-badge.win").count() == 1
    for seat in (0, 1):
        panel = projector.locator(f".qt-cand[data-seat='{seat}']")
        cards = [panel.locator(".qc.face").nth(i).get_attribute("data-card") for i in range(4)]
        assert sorted(cards) == sorted(comparison["hands"][seat]) and panel.locator(".qc.back").count() == 0
        assert panel.locator("[data-role='quattro']").inner_text() == ("콰트로!" if comparison["quattro"][seat] else "콰트로 아님")
        assert panel.locator("[data-role='sum']").inner_text() == f"합 {comparison['sums'][seat]}"
    if comparison["rule"] == "high":
        assert projector.locator(".qc.decisive").count() == 2

    for i, page in enumerate(phones):
        page.wait_for_selector("#decision .waiting strong")
        page.wait_for_selector(".qp-final .qp-decided")
        assert page.locator(".qp-final .qp-decided").inner_text() == result["decided_by"]["ko"]
        assert page.locator(".qp-hand .qc").count() == 4
        page.screenshot(path=str(ARTIFACTS / f"quattro-phone-{i + 1}-end.png"), full_page=True)

    # A full draw (equal all the way) is too rare for random play: the same final view, made a
    # draw, draws no winner and says that the dealer decides.
    _dealer, final_public = public_view(server, show)
    draw = projector.evaluate("""view => {
      const v = JSON.parse(JSON.stringify(view));
      v.result = null; v.state.winner = null; v.state.step = "draw";
      Object.assign(v.state.comparison, { winner: null, rule: "draw", position: 0 });
      const box = document.createElement("div");
      const moment = DisplayGames.quattro.render(box, v, view);
      return { text: box.textContent, winners: box.querySelectorAll(".winner, .qt-winner").length, moment: moment };
    }""", final_public)
    assert "딜러 결정 대기" in draw["text"] and draw["winners"] == 0, draw

    # English on the projector is a switch away.
    projector.keyboard.press("l")  # the operator's key: no control is drawn on the projector
    projector.wait_for_selector("[data-role='step']:text('Final comparison')")
    assert projector.locator("[data-role='decided-by']").inner_text() == result["decided_by"]["en"]
    projector.screenshot(path=str(ARTIFACTS / "quattro-projector-final-en.png"))
    assert not errors, errors
    assert not stale, f"a form opened on the previous decision's pending submission: {stale}"
