"""Tricky Bridge, live: a whole 4-seat match through a real server, over the sockets and in
headless Chromium.

- Sockets: one /seat client per island and one /public client; every contract and distribution
  is submitted from the seat's own socket, from the decision in its own payload, and the dealer
  confirms the rooms through the API. Every payload each client received must equal that
  audience's view folded from the exported log at its own version, and hold no secret of
  another seat or hidden from the public (the game's docstring): a seat's marks before its
  room's contracts are revealed, and what each seat placed on which bridge (its distributions)
  until round 3's reveal (rounds 1-3) or the end (rounds 4-6); a shared bridge shows a seat
  only its own placements plus what a reveal made public. The public never gets decisions.
- Browser: round 1 through the console (the rooms, one contract entered for a seat from its
  seat chip) and the phones' generic forms (the contracts as "pick 3", the distributions as
  item → bridge rows), the projector checked for what is public (rooms, slots, the sealed
  count, the revealed contracts, hidden bridges) and for no stamp before a reveal; rounds 2-6
  through the API; the result on the projector and the phones. Screenshots go to
  test-artifacts/browser/tricky_bridge-*.png.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest

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

NAMES = ["가람", "나래", "다솜", "라온"]
BRIDGES = ("AB", "AC", "AD", "BC", "BD", "CD")
ENDS = {b: ("ABCD".index(b[0]), "ABCD".index(b[1])) for b in BRIDGES}
KINDS = ("steel", "brick", "paint")
# Keys only the dealer's view holds (per-bridge placements, the marks in a room, the sheets).
DEALER_KEYS = {"marks_now", "now", "by_seat", "score_now", "panel", "sheets", "run_sheet"}
# Keys a seat entry holds only for the seat itself (and the dealer).
OWN_KEYS = {"my_marks", "to_place", "placements", "my_bridges"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("bridge-live")).start()
    yield live
    live.stop()


def new_table(server: LiveServer, seed: int, options: dict[str, Any] | None = None) -> tuple[str, str, list[dict]]:
    return game_table(server, "tricky_bridge", NAMES, seed, options)


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
            case "assign":
                move[field["name"]] = {str(i["value"]): rnd.choice(values) for i in field["items"]}
            case shape:
                raise AssertionError(f"unexpected field shape {shape}")
    return move


# -- the secrets ------------------------------------------------------------------------------------


def added(counts: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    return {k: counts[k] + more[k] for k in KINDS}


def placed_on(truth: dict[str, Any], bridge: str, seat: int | None = None,
              rounds: range | None = None) -> dict[str, int]:
    """What lies on `bridge` (only what `seat` placed, only in `rounds`), from the dealer's state."""
    total = dict.fromkeys(KINDS, 0)
    for s in ENDS[bridge]:
        if seat is not None and s != seat:
            continue
        for placement in truth["seats"][s]["placements"]:
            if rounds is None or placement["round"] in rounds:
                total = added(total, placement["added"][bridge])
    return total


def assert_no_secret(view: dict[str, Any], dealer: dict[str, Any], audience: Audience, where: str) -> None:
    """`view` (a payload to `audience`) holds no mark and no placement it may not know, as the
    dealer view at the same moment tells them."""
    state, truth = view["state"], dealer["state"]
    shown = state["revealed_round"]
    over = state["step"] == "over"
    # (At the end `final` shows both endpoints' shares "by_seat": everything is public then.)
    hidden = keys({k: v for k, v in state.items() if k != "final"}) & DEALER_KEYS
    assert not hidden, f"{where}: dealer keys {hidden}"
    for entry in state["seats"]:
        if not audience.sees_seat(entry["seat"]):
            assert not set(entry) & OWN_KEYS, f"{where}: seat {entry['seat']}'s secrets {set(entry) & OWN_KEYS}"
    # Marks: a room's contracts only once both are revealed; before, only the seat's own marks.
    for room, real in zip(state["rooms"], truth["rooms"], strict=True):
        revealed = real["contract"] is not None
        assert (room["contract"] is not None) == revealed, where
        if not revealed:
            assert "marks" not in json.dumps(room), f"{where}: marks of an unrevealed room"
    # The bridges: nothing before round 3's reveal; then as of round 3; at the end everything.
    for bridge in state["bridges"]:
        b = bridge["id"]
        if over:
            expected = placed_on(truth, b)
        elif shown == 3:
            expected = placed_on(truth, b, rounds=range(1, 4))
        else:
            expected = None
        assert bridge["contents"] == expected, f"{where}: bridge {b} shows {bridge['contents']}, not {expected}"
    # A seat's own bridges: its own placements, plus what a reveal made public; never the other
    # island's unrevealed share.
    if audience.kind == "seat":
        me = state["seats"][audience.seat]
        assert me["my_marks"] == truth["seats"][audience.seat]["my_marks"], where
        for mine in me["my_bridges"]:
            b = mine["bridge"]
            if over:
                known = placed_on(truth, b)
            elif shown == 3:
                known = added(placed_on(truth, b, rounds=range(1, 4)), placed_on(truth, b, audience.seat, range(4, 7)))
            else:
                known = placed_on(truth, b, audience.seat)
            assert mine["known"] == known, f"{where}: bridge {b} known as {mine['known']}, not {known}"
            assert mine["mine"] == placed_on(truth, b, audience.seat), where


# -- 1. a whole match over the sockets ----------------------------------------------------------------


def test_whole_bridge_match_over_the_sockets_leaks_no_mark_and_no_placement(server):
    show, table, links = new_table(server, seed=11)
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(11)
    moves = {"dealer": 0, "seat": 0}
    try:
        server.ok("start", show=show, table=table)
        for _ in range(400):
            view = dealer_view(server, show)
            if view["result"] is not None:
                break
            decision = rnd.choice(view["decisions"])
            seat = decision["seat"]
            if seat is None:
                # Bridge rule 2: the dealer confirms the rooms, now and then another split.
                server.ok("move", show=show, table=table, move=random_move(decision, rnd), sid=uuid.uuid4().hex)
                moves["dealer"] += 1
                continue
            # The seat answers from its own payload, on its own socket.
            expected = [d for d in view["decisions"] if d["seat"] == seat]
            mine = wait_until(lambda p=phones[seat], e=expected: owed(p, e), what=f"seat {seat}'s decisions")
            move = random_move(mine[0], rnd)
            ack = phones[seat].call("submit", {"table": table, "move": move, "sid": uuid.uuid4().hex})
            assert ack["ok"], ack
            moves["seat"] += 1
        else:
            pytest.fail("the match did not end")
        assert moves["dealer"] == 6 and moves["seat"] >= 6 * 4

        log = server.log_of(show, table)
        audiences = [Audience.public()] + [Audience.of_seat(s) for s in range(4)]
        clients = [public, *phones]
        for client, audience in zip(clients, audiences, strict=True):
            wait_until(lambda c=client, a=audience: (c.latest() or {}).get("version") == audience_version(log, a),
                       what=f"{audience} at the end")
        end = public.latest()["table"]
        assert end["result"] is not None and end["state"]["step"] == "over"
        final = end["state"]["final"]
        assert len(final["out"]) == 2 and set(final["out"]) | set(final["advance"]) == {0, 1, 2, 3}
        assert end["result"]["details"]["out"] == final["out"]

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
                assert_no_secret(view, dealers[ends[audience][view["version"]]], audience, where)
                if audience.kind == "public":
                    assert view["decisions"] == [], where
                else:
                    assert all(d["seat"] == audience.seat for d in view["decisions"]), where
                checked += 1
            if audience.kind == "seat":
                assert all(p["seat"] == audience.seat and p["player"] == NAMES[audience.seat]
                           for _e, p in client.history), audience
        assert checked >= 5 * 30

        # The check bites: another seat's marks, or a placement before a reveal, fail it.
        sample = next(v for v in received[Audience.of_seat(0)]
                      if v["state"]["step"] == "contract" and any(s["marked"] for s in v["state"]["seats"][1:]))
        truth = dealers[ends[Audience.of_seat(0)][sample["version"]]]
        other = next(s for s in range(1, 4) if sample["state"]["seats"][s]["marked"])
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["seats"][other]["my_marks"] = truth["state"]["seats"][other]["my_marks"]
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.of_seat(0), "leaky")
        sample = next(v for v in received[Audience.public()]
                      if v["state"]["round"] == 2 and v["state"]["step"] == "contract")
        truth = dealers[ends[Audience.public()][sample["version"]]]
        leaky = json.loads(json.dumps(sample))
        leaky["state"]["bridges"][0]["contents"] = placed_on(truth["state"], "AB")
        with pytest.raises(AssertionError):
            assert_no_secret(leaky, truth, Audience.public(), "leaky")
    finally:
        for client in (public, *phones):
            client.close()


# -- 2. the browser: round 1 through the console and the phones, the rest through the API -----------

DEALER_CARD = ".decision[data-seat='dealer']"


def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"tricky_bridge-{name}.png"), full_page=full)


def confirm(page, root: str) -> None:
    """The generic form's last two steps: next, then submit on the confirm step."""
    page.click(f"{root} button.next")
    page.wait_for_selector(f"{root} .confirm-q")
    page.click(f"{root} button.submit")


def landed(server: LiveServer, show: str, before: int) -> dict[str, Any]:
    """Wait until a move lands (the table's version passes `before`); the dealer view then."""
    return wait_until(lambda: (v := dealer_view(server, show))["version"] > before and v, what="the move to land")


def projector_room(projector, room: dict[str, Any]) -> None:
    """The projector's card of a room shows its players, its six slots and its state, as public."""
    card = f".tb-room[data-room='{room['room']}']"
    projector.wait_for_selector(card)
    # A moment (a reveal's words) replaces the board for its time: the card is read as it stays.
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    seats = [projector.locator(f"{card} .tb-room-name").nth(i).get_attribute("data-seat") for i in range(2)]
    assert seats == [str(s) for s in room["seats"]]
    for i, seat in enumerate(room["seats"]):
        assert NAMES[seat] in projector.locator(f"{card} .tb-room-name").nth(i).inner_text()
    kinds = [projector.locator(f"{card} .tb-slot[data-slot='{s}']").get_attribute("data-kind") for s in range(1, 7)]
    assert kinds == room["slots"]
    if room["contract"] is None:
        projector.wait_for_selector(f"{card} [data-role='room-sealed']:text('{room['submitted']}/2')")
        # Before the reveal: no stamp, no slot won or lost, whoever has stamped already.
        assert projector.locator(f"{card} .tb-slot.won, {card} .tb-slot.lost, {card} .tb-stamp").count() == 0
    else:
        projector.wait_for_selector(f"{card}.revealed")
        projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
        for i, seat in enumerate(room["seats"]):
            for slot in room["contract"]["won"][i]:
                won = projector.locator(f"{card} .tb-slot[data-slot='{slot}'] [data-role='won']")
                assert won.inner_text() == "ABCD"[seat]


def test_round_one_through_console_and_phones_then_the_api_to_the_end(server, browser):
    show, table, links = new_table(server, seed=5)
    errors: list[str] = []
    console, projector, phones = open_pages(server, browser, show, links, errors)

    console.click("[data-action=start]")
    projector.wait_for_selector(".tb .tb-map")
    for seat, name in enumerate(NAMES):
        island = projector.locator(f".tb-island[data-seat='{seat}']")
        assert name in island.inner_text() and "ABCD"[seat] in island.inner_text()
    assert projector.locator(".tb-bridge-label.hidden").count() == 6  # nothing on the bridges is public

    # The dealer confirms round 1's rooms on the console: the scheduled split, offered first.
    view = dealer_view(server, show)
    options = view["decisions"][0]["fields"][0]["options"]
    assert "(예정)" in options[0]["label"]["ko"]
    console.wait_for_selector(f"{DEALER_CARD} .option[data-value='{options[0]['value']}']")
    console.click(f"{DEALER_CARD} .option[data-value='{options[0]['value']}']")
    confirm(console, DEALER_CARD)
    view = landed(server, show, view["version"])
    assert view["state"]["pairing"] == options[0]["value"] and all(r["slots"] for r in view["state"]["rooms"])
    for room in view["state"]["rooms"]:
        projector_room(projector, room)
    shot(projector, "projector-rooms")

    # The contracts: seats 1-3 stamp 3 slots on their phones, seat 4 through the console.
    stamps = {0: [1, 2, 3], 1: [2, 4, 6], 2: [1, 3, 5], 3: [4, 5, 6]}
    for seat in range(3):
        page = phones[seat]
        page.wait_for_selector("#decision .field-some[data-field='slots']")
        assert page.locator("#decision .option").count() == 6
        for slot in stamps[seat]:
            page.click(f"#decision .option[data-value='{slot}']")
        if seat == 0:
            shot(page, "phone-contract", full=True)
        confirm(page, "#decision")
        view = landed(server, show, view["version"])
        page.wait_for_selector("#receipt:not([hidden])")
        page.wait_for_selector(".tbp-slot.marked >> nth=2")
        marked = [page.locator(".tbp-slot.marked").nth(i).get_attribute("data-slot") for i in range(3)]
        room = next(r for r in view["state"]["rooms"] if seat in r["seats"])
        if room["contract"] is None:
            assert marked == [str(s) for s in stamps[seat]]  # the phone shows its own stamps, before the reveal
            projector_room(projector, room)
            projector.wait_for_selector(f".tb-island[data-seat='{seat}'] .tb-tag.ok")
        if seat == 0:
            shot(projector, "projector-sealed")
    console.click(".seat-chip[data-seat='3']")
    behalf = ".decision[data-seat='3']"
    console.wait_for_selector(f"{behalf} .option[data-value='4']")
    for slot in stamps[3]:
        console.click(f"{behalf} .option[data-value='{slot}']")
    confirm(console, behalf)
    view = landed(server, show, view["version"])
    assert view["state"]["step"] == "distribute"
    for room in view["state"]["rooms"]:
        assert room["contract"] is not None
        projector_room(projector, room)
    shot(projector, "projector-contracts")

    # The distributions on the phones: every item gained to one of the seat's own bridges.
    owing = [d["seat"] for d in view["decisions"]]
    assert owing, "seed 5: someone gains something in round 1"
    for seat in owing:
        page = phones[seat]
        decision = next(d for d in view["decisions"] if d["seat"] == seat)
        field = decision["fields"][0]
        page.wait_for_selector("#decision .field-assign .assign-row")
        places = [o["value"] for o in field["options"]]
        assert sorted(places) == sorted(b for b in BRIDGES if "ABCD"[seat] in b)
        for i, item in enumerate(field["items"]):
            page.click(f"#decision button[data-item='{item['value']}'][data-value='{places[i % 3]}']")
        if seat == owing[0]:
            shot(page, "phone-distribution", full=True)
        confirm(page, "#decision")
        view = landed(server, show, view["version"])
    assert view["state"]["round"] == 2 and view["state"]["step"] == "rooms"
    projector.wait_for_selector(".tb-next")
    assert "2라운드" in projector.locator(".tb-next").inner_text()
    assert projector.locator(".tb-bridge-label.hidden").count() == 6  # round 1's distributions are secret
    # Each phone knows only what it placed itself on its bridges.
    for seat, page in enumerate(phones):
        mine = view["state"]["seats"][seat]["my_bridges"]
        for bridge in mine:
            page.wait_for_selector(f".tbp-bridge[data-bridge='{bridge['bridge']}'] [data-role='score']"
                                   f":text('{bridge['score']['score']}점')")
    shot(projector, "projector-round-2")
    shot(phones[owing[0]], "phone-bridges", full=True)

    # Rounds 2-6 through the API; after round 3 the bridges show on the projector.
    rnd = random.Random(5)
    checked_round_3 = False
    for _ in range(300):
        view = dealer_view(server, show)
        if view["result"] is not None:
            break
        state = view["state"]
        if state["revealed_round"] == 3 and not checked_round_3:
            public = {b["id"]: b for b in _public_bridges(server, show, table)}
            for b, bridge in public.items():
                label = projector.locator(f".tb-bridge-label[data-bridge='{b}']")
                projector.wait_for_selector(f".tb-bridge-label[data-bridge='{b}']:not(.hidden)")
                assert label.locator("[data-role='score']").inner_text() == f"{bridge['score']['score']}점"
            shot(projector, "projector-bridges-revealed")
            checked_round_3 = True
        decision = rnd.choice(view["decisions"])
        server.ok("move", show=show, table=table, seat=decision["seat"], move=random_move(decision, rnd),
                  sid=uuid.uuid4().hex)
    assert checked_round_3
    final = dealer_view(server, show)
    assert final["result"] is not None
    f = final["state"]["final"]

    # The end: every bridge scored, the lowest marked, who is out and who advances.
    projector.wait_for_selector(".tb.over .tb-scoring")
    for bridge in f["bridges"]:
        row = projector.locator(f".tb-score-row[data-bridge='{bridge['id']}']")
        assert row.locator(".tb-score-points").inner_text().startswith(str(bridge["score"]))
        assert ("lowest" in (row.get_attribute("class") or "")) == bridge["lowest"]
    out = projector.locator("[data-role='out']").inner_text()
    advance = projector.locator("[data-role='advance']").inner_text()
    assert all(NAMES[s] in out for s in f["out"]) and all(NAMES[s] in advance for s in f["advance"])
    projector.wait_for_selector("#moment", state="hidden", timeout=10_000)
    shot(projector, "projector-final")
    for seat, page in enumerate(phones):
        verdict = page.wait_for_selector("[data-role='verdict']")
        assert ("탈락" if seat in f["out"] else "진출") in verdict.inner_text()
        page.wait_for_selector("#decision .waiting strong")
        if seat == f["out"][0]:
            shot(page, "phone-end", full=True)
    console.wait_for_selector("#table h3:text('결과')")
    shot(console, "console-end", full=True)
    assert not errors, errors


def _public_bridges(server: LiveServer, show: str, table: str) -> list[dict[str, Any]]:
    """The bridges as the public view shows them now (folded from the log)."""
    log = server.log_of(show, table)
    own = audience_version(log, Audience.public())
    return views_at(log, {own}, Audience.public())[own]["state"]["bridges"]
