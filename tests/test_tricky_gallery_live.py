"""Tricky Gallery, live: a whole 9-seat match over the real sockets, the printable run sheet and
score sheet, and one round in headless Chromium (console, projector, phones).

- Sockets: every public payload is the public view of the log cut at its version, and every
  seat payload that seat's view; no work's authenticity and no appraisal ever reaches the
  projector or another seat; an appraisal sends nobody but the appraiser anything at all.
- Sheets: the run sheet and the score sheet print for staff, with the names, kinds and figures.
- Browser: phones submit through the generic forms, the dealer enters the auction in the
  console, the chain is picked on phones and through the API, and the projector shows the
  works, the siren, the auction, the chain and the galleries, and never an authenticity.
  Screenshots go to test-artifacts/browser/tricky_gallery-*.png.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import time
import uuid
from typing import Any

import pytest
import requests

from referee.kernel import Audience

from .live import (
    ARTIFACTS,
    PIN,
    Client,
    LiveServer,
    audience_version,
    dealer_view,
    open_pages,
    owed,
    views_at,
    wait_until,
)
from .playout import keys

NAMES = ["나래", "가람", "라온", "다솜", "바다", "마루", "아름", "사랑", "자두"]
KIND_KO = {"premium": "고급 작품", "motricky": "모트리키", "pearl": "진주 귀걸이를 한 트리키", "piper": "피리부는 트리키"}
KIND_SHORT_KO = {"premium": "고급", "motricky": "모트리키", "pearl": "진주 귀걸이", "piper": "피리부는"}
# Fields only the dealer and the owning seat may see (the game's secrets).
SECRET_KEYS = {"genuine", "sticker", "hand", "extra", "chips", "stickers", "submissions", "appraisals", "queue",
               "run_sheet", "sheets", "amount"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("gallery")).start()
    yield live
    live.stop()


# -- helpers ------------------------------------------------------------------------------------

# A pick turn owes two decisions, each its own form on the phone: the pick and an appraisal.
TAKE = "#decision .decision-part[data-move='take_work']"
APPRAISE = "#decision .decision-part[data-move='appraise']"


def new_gallery(server: LiveServer, seed: int, options: dict[str, Any] | None = None) -> tuple[str, str, list[dict]]:
    show = "g" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name=f"갤러리 {show}")
    for name in NAMES:
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_gallery", players=NAMES, options=options or {},
                      seed=seed)["table"]
    return show, table, server.snapshot(show)["links"]



def move(server: LiveServer, show: str, table: str, seat: int | None, payload: dict[str, Any]) -> dict[str, Any]:
    return server.ok("move", show=show, table=table, seat=seat, move=payload, sid=uuid.uuid4().hex)["ack"]


def auction_choice(decisions: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """A random auction result with a small bid (so chips stay for appraisals); now and then a
    tie (re-bid) or no bid (the dealer's auction decisions as the view lists them)."""
    owed = {d["move"]: d for d in decisions}
    roll = rnd.random()
    if roll < 0.1:
        return {"type": "auction_tie"}
    if roll < 0.2 and not owed["auction_no_bid"]["fields"]:
        return {"type": "auction_no_bid"}
    winners = [o["value"] for o in owed["enter_auction"]["fields"][0]["options"]]
    return {"type": "enter_auction", "winner": rnd.choice(winners), "bid": 1}


def seat_choice(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    return {"type": decision["move"], **{f["name"]: rnd.choice(f["options"])["value"] for f in decision["fields"]}}




def count(client: Client) -> int:
    with client.lock:
        return len(client.history)


def caught_up(client: Client, version: int) -> None:
    """Wait until `client` has been sent the payload of `version` (or a later one)."""
    wait_until(lambda: (client.latest() or {}).get("version", -1) >= version, what=f"{client.namespace} at v{version}")


# -- 1. a whole match over the sockets ----------------------------------------------------------


def test_whole_match_over_sockets_keeps_authenticity_and_appraisals_secret(server):
    show, table, links = new_gallery(server, seed=23)
    public = Client(server.url, "/public", {"show": show})
    seats = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    rnd = random.Random(7)
    appraisals = 0
    try:
        server.ok("start", show=show, table=table)
        for _step in range(400):
            view = dealer_view(server, show)
            if view["result"] is not None:
                break
            owing = sorted({d["seat"] for d in view["decisions"] if d["seat"] is not None})
            if not owing:
                move(server, show, table, None, auction_choice(view["decisions"], rnd))
                continue
            seat = rnd.choice(owing)
            phone = seats[seat]
            expected = [d for d in view["decisions"] if d["seat"] == seat]
            # The seat answers from its own payload: its decisions as the phone received them.
            mine = wait_until(lambda phone=phone, expected=expected: owed(phone, expected),
                              what=f"seat {seat}'s decisions")
            assert mine and all(d["seat"] == seat for d in mine)
            appraise = [d for d in mine if d["move"] == "appraise"]
            decision = appraise[0] if appraise and rnd.random() < 0.4 else mine[0]
            if decision["move"] != "appraise":
                ack = phone.call("submit", {"table": table, "move": seat_choice(decision, rnd), "sid": uuid.uuid4().hex})
                assert ack["ok"], ack
                continue
            # An appraisal: nobody but the appraiser may receive anything at all.
            log = server.log_of(show, table)
            others = [(public, Audience.public())] + [(c, Audience.of_seat(i)) for i, c in enumerate(seats) if i != seat]
            for client, audience in others:
                caught_up(client, audience_version(log, audience))
            others = [client for client, _ in others]
            time.sleep(0.2)
            before = [count(c) for c in others]
            chosen = seat_choice(decision, rnd)
            ack = phone.call("submit", {"table": table, "move": chosen, "sid": uuid.uuid4().hex})
            assert ack["ok"], ack
            mine_now = phone.wait_for(lambda e, p, v=ack["ack"]["version"]: e == "view" and p["version"] >= v)
            answer = mine_now["table"]["state"]["seats"][seat]["appraisals"][-1]
            assert answer["seat"] == seat and answer["work"] == chosen["work"]
            assert answer["kind"] == next(w["kind"] for w in mine_now["table"]["state"]["reveal"]["works"]
                                          if w["seat"] == chosen["work"])
            time.sleep(0.6)
            assert [count(c) for c in others] == before, "an appraisal sent someone else a payload"
            appraisals += 1
        else:
            pytest.fail("the match did not end")

        assert appraisals >= 3, appraisals
        log = server.log_of(show, table)
        caught_up(public, audience_version(log, Audience.public()))
        last = public.latest()["table"]
        assert last["result"] is not None and last["state"]["final"] is not None
        assert last["state"]["step"] == "over" and len(last["state"]["final"]["advancing"]) <= 4

        def expected(client: Client, audience: Audience) -> dict[int, dict[str, Any]]:
            versions = {p["table"]["version"] for _e, p in client.history if p["table"]}
            return views_at(log, versions, audience)

        public_views = expected(public, Audience.public())
        for _event, payload in public.history:
            view = payload["table"]
            if view is None or not view["started"]:
                continue
            assert view == public_views[view["version"]], "public payload differs"
            assert not keys(view) & SECRET_KEYS, keys(view) & SECRET_KEYS
            assert not re.search(r"genuine|fake|apprais", json.dumps(view)), "authenticity on the projector"
            assert view["decisions"] == []
        for seat, phone in enumerate(seats):
            seat_views = expected(phone, Audience.of_seat(seat))
            for _event, payload in phone.history:
                view = payload["table"]
                if view is None or not view["started"]:
                    continue
                assert payload["seat"] == seat
                assert view == seat_views[view["version"]], f"seat {seat} payload differs"
                state = dict(view["state"])
                state["seats"] = [s for s in state["seats"] if s["seat"] != seat]
                # Another seat's secrets, the authenticity of any work and any appraisal: none.
                assert not keys(state) & SECRET_KEYS, (seat, keys(state) & SECRET_KEYS)
                assert not re.search(r"genuine|fake|apprais", json.dumps(state)), seat
                own = view["state"]["seats"][seat]
                assert all(a["seat"] == seat for a in own.get("appraisals", []))
    finally:
        for client in [public, *seats]:
            client.close()


# -- 2. the printable sheets ----------------------------------------------------------------------


def play_rounds(server: LiveServer, show: str, table: str, rounds: int, rnd: random.Random) -> dict[str, Any]:
    """Play whole rounds through the API (the dealer on behalf of the seats); some fakes, some
    appraisals, small bids."""
    for _step in range(2000):
        view = dealer_view(server, show)
        state = view["state"]
        if view["result"] is not None or (state["round"] > rounds and state["step"] == "submit"):
            return view
        pending = [d for d in view["decisions"] if d["move"] != "transfer_chips"]
        decision = pending[0]
        if decision["move"] == "enter_auction":
            payload = auction_choice(view["decisions"], rnd)
        elif decision["move"] == "take_work" and len(pending) > 1 and rnd.random() < 0.3:
            payload = seat_choice(pending[1], rnd)
        elif decision["move"] == "submit_work":
            values = [o["value"] for o in decision["fields"][0]["options"]]
            fakes = [v for v in values if v.endswith("/fake")]
            payload = {"type": "submit_work", "entry": rnd.choice(fakes if fakes and rnd.random() < 0.3 else values)}
        else:
            payload = seat_choice(decision, rnd)
        move(server, show, table, decision["seat"], payload)
    raise AssertionError("the match did not end")


def pdf_text(session: requests.Session, url: str) -> str:
    response = session.get(url, timeout=60)
    assert response.status_code == 200 and response.content.startswith(b"%PDF"), response.status_code
    text = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True).stdout.decode()
    return re.sub(r"\s+", "", text)  # table cells wrap: compare without whitespace


def holds(text: str, *expected: str) -> None:
    for item in expected:
        assert re.sub(r"\s+", "", item) in text, item


def test_run_sheet_and_score_sheet_print_for_staff(server):
    show, table, _links = new_gallery(server, seed=31)
    server.ok("start", show=show, table=table)
    rnd = random.Random(3)
    records = []  # each round's record, as the view holds the newest
    for upto in (1, 2):
        view = play_rounds(server, show, table, upto, rnd)
        records.append(view["state"]["newest_round"])
    assert [r["round"] for r in records] == [1, 2] and view["state"]["rounds_done"] == 2
    assert {"audit", "results", "run_sheet", "score_sheet"} <= set(server.snapshot(show)["tables"][0]["sheets"])
    assert requests.get(f"{server.url}/print/{show}/{table}/run_sheet.pdf", timeout=10).status_code == 403
    staff = requests.Session()
    page = staff.get(f"{server.url}/console/login", timeout=10).text
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    staff.post(f"{server.url}/console/login", data={"pin": PIN, "csrf": csrf, "show": show}, timeout=10)

    state = view["state"]
    run = pdf_text(staff, f"{server.url}/print/{show}/{table}/run_sheet.pdf")
    holds(run, "진행 시트", "Run sheet", "자리별 지급", "What to hand each seat", *NAMES, *KIND_KO.values(),
          "36 · 9", "90", "출품실 입장 순서")
    for row in state["run_sheet"]["seats"]:
        # Each seat's line: number, name, its count of each kind, its extra work, stickers and chips.
        counts = "".join(str(row["works"][k]) for k in KIND_KO)
        holds(run, f"{row['seat'] + 1}{row['name']}{counts}{KIND_KO[row['extra']]}4 · 110")
    first, last = (next(s["seat"] for s in state["seats"] if s["name_index"] == i) for i in (1, 9))
    holds(run, f"1{first + 1}. {NAMES[first]}{last + 1}. {NAMES[last]}")  # row 1: 가나다 first, and reversed

    score = pdf_text(staff, f"{server.url}/print/{show}/{table}/score_sheet.pdf")
    holds(score, "점수 기록지", "Score sheet", "1라운드", "5라운드", "최종 판매와 순위", *NAMES)
    for record in records:
        winner = f"{record['winner'] + 1}. {NAMES[record['winner']]}"
        holds(score, f"{winner} {record['bid']}칩 낙찰" if record["bid"] else f"입찰 없음, {winner} 서열 1위")
        for link in record["chain"]:
            authenticity = next(w for w in record["works"] if w["seat"] == link["took_from"])["genuine"]
            holds(score, f"{link['rank']}{link['seat'] + 1}. {NAMES[link['seat']]}{link['took_from'] + 1}. "
                         f"{NAMES[link['took_from']]}{KIND_KO[link['kind']]}{'진품' if authenticity else '가품'}")
        out = ", ".join(f"{s + 1}. {NAMES[s]}" for s in record["eliminated"])
        holds(score, f"탈락: {out}" if out else "탈락: 없음")
    for seat in state["seats"]:
        for sub in seat["submissions"]:
            holds(score, f"{KIND_KO[sub['kind']]} · {'진품' if sub['genuine'] else '가품'}")
    for a in state["appraisals"]:
        holds(score, f"감정: {a['seat'] + 1}. {NAMES[a['seat']]} → {a['work'] + 1}. {NAMES[a['work']]}의 {KIND_KO[a['kind']]}")

    # At the end: the sale (revenue per seat) and the ranking with the top 4 advancing.
    final = play_rounds(server, show, table, 99, rnd)
    assert final["result"] is not None
    score = pdf_text(staff, f"{server.url}/print/{show}/{table}/score_sheet.pdf")
    sale = final["state"]["final"]
    out_round = {e["seat"]: e["round"] for e in final["state"]["eliminations"]}
    for rank, seat in enumerate(sale["ranking"], start=1):
        revenue = sale["revenues"][seat]
        if seat in out_round:
            row = f"{rank}{seat + 1}{NAMES[seat]}—{out_round[seat]}라운드 탈락"
        else:
            row = f"{rank}{seat + 1}{NAMES[seat]}{revenue}억{'진출' if seat in sale['advancing'] else '미진출'}"
        holds(score, row)


# -- 3. one round in the browser ------------------------------------------------------------------




def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"tricky_gallery-{name}.png"), full_page=full)


def choose(page, root: str, value: str) -> None:
    """Answer a generic form under `root` with the option `value`: choose, next, submit."""
    page.click(f"{root} .option[data-value='{value}']")
    page.click(f"{root} button.next")
    page.wait_for_selector(f"{root} .confirm-q")
    page.click(f"{root} button.submit")


def no_authenticity(projector) -> None:
    """The projector never shows a work's authenticity (nor an appraisal)."""
    text = projector.locator("#board").inner_text()
    for word in ("진품", "genuine", "감정", "apprais"):
        assert word not in text, word
    for card in projector.locator(".tg-card").all_inner_texts():
        assert "가품" not in card and "fake" not in card.lower()
    assert projector.locator("[data-genuine]").count() == 0


def test_one_round_through_console_phones_and_projector(server, browser):
    show, table, links = new_gallery(server, seed=5)
    errors: list[str] = []
    console, projector, pages = open_pages(server, browser, show, links[:2], errors)
    phones = dict(enumerate(pages))  # seats 0 and 1 on phones; the others through the API

    console.click("[data-action=start]")
    console.wait_for_selector(".tgc-queue li")
    assert console.locator(".tgc-queue li").count() == 9
    projector.wait_for_selector(".tg-tile")
    # The operator's key (S) arms the sound; nothing to click is ever on the projector.
    assert projector.locator("button").count() == 0
    projector.keyboard.press("s")
    projector.wait_for_function("() => document.documentElement.dataset.sound === 'running'")

    # Two phones submit a work with the fake sticker through the generic form: a siren round.
    for seat, page in phones.items():
        page.wait_for_selector("#decision .field[data-field='entry']")
        if seat == 0:
            shot(page, "phone-submit", full=True)
        fake = page.locator("#decision .option[data-value$='/fake']").first.get_attribute("data-value")
        choose(page, "#decision", fake)
        page.wait_for_selector("#receipt:not([hidden])")
    projector.wait_for_selector(".tg-count-n:text('2/9')")
    assert projector.locator(".tg-tile.in").count() == 2
    assert projector.locator(".tg-card").count() == 0  # sealed: nothing of what was submitted
    shot(projector, "projector-sealed")

    view = dealer_view(server, show)
    for decision in [d for d in view["decisions"] if d["move"] == "submit_work"]:
        genuine = [o["value"] for o in decision["fields"][0]["options"] if o["value"].endswith("/genuine")]
        move(server, show, table, decision["seat"], {"type": "submit_work", "entry": genuine[0]})

    # The reveal: nine labelled works with their owners, and the siren as a visual moment.
    projector.wait_for_selector("#moment.tone-siren:not([hidden]):has-text('사이렌!')")  # a stage moment
    shot(projector, "projector-siren")
    # The moment takes the board's region for its time (docs/stage.md); then the works.
    projector.wait_for_selector("#moment", state="hidden", timeout=10000)
    revealed = dealer_view(server, show)["state"]["reveal"]["works"]
    assert projector.locator(".tg-card").count() == 9
    for work in revealed:
        card = projector.locator(f".tg-card[data-owner='{work['seat']}']")
        assert card.get_attribute("data-kind") == work["kind"]
        text = card.inner_text()
        # The card names its kind short, so it reads from the back of the room.
        assert NAMES[work["seat"]] in text and KIND_SHORT_KO[work["kind"]] in text
    assert projector.locator("[data-role=siren]").count() == 1
    no_authenticity(projector)
    shot(projector, "projector-works")

    # The dealer enters the auction in the console: seat 1 (나래) wins with 2 chips: a seat from
    # the grid and a number, not one button among 92.
    console.wait_for_selector(".decision[data-move='enter_auction'] .field[data-field='winner'] .option[data-value='0']")
    card = console.query_selector(".decision[data-move='enter_auction']")
    card.query_selector(".field[data-field='winner'] .option[data-value='0']").click()
    card.query_selector(".field[data-field='bid'] input[type=number]").fill("2")
    card.query_selector("button.next").click()
    card.wait_for_selector(".confirm-q")
    card.query_selector("button.submit").click()
    projector.wait_for_selector("[data-role=auction]")
    assert NAMES[0] in projector.locator("[data-role=auction]").inner_text()
    assert "2" in projector.locator("[data-role=auction] .tg-bid").inner_text()
    shot(console, "console", full=True)

    # Rank 1 appraises a work on the phone first, sees the answer, then takes seat 2's work.
    phone = phones[0]
    phone.wait_for_selector(f"{APPRAISE} .option")
    target = next(w for w in revealed if w["seat"] not in (0, 1))
    choose(phone, APPRAISE, str(target["seat"]))
    answer = phone.wait_for_selector(".tgp-results .tgp-appraisal.big")
    truth = dealer_view(server, show)["state"]["reveal"]["works"]
    genuine = next(w["genuine"] for w in truth if w["seat"] == target["seat"])
    assert answer.get_attribute("data-genuine") == str(genuine).lower()
    assert ("진품" if genuine else "가품") in answer.inner_text() and NAMES[target["seat"]] in answer.inner_text()
    shot(phone, "phone-appraisal")
    no_authenticity(projector)
    choose(phone, TAKE, "1")
    projector.wait_for_selector(".tg-chain .tg-link[data-rank='1']")

    # The owner of the taken work picks next, then the chain runs through the API.
    phones[1].wait_for_selector(f"{TAKE} .field[data-field='work']")
    first = phones[1].locator(f"{TAKE} .option").first.get_attribute("data-value")
    choose(phones[1], TAKE, first)
    projector.wait_for_selector(".tg-chain .tg-link[data-rank='2']")
    picks = 2
    while True:
        view = dealer_view(server, show)
        takes = [d for d in view["decisions"] if d["move"] == "take_work"]
        if not takes:
            break
        decision = takes[0]
        value = decision["fields"][0]["options"][0]["value"]
        if decision["seat"] in phones:
            phone = phones[decision["seat"]]
            phone.wait_for_selector(f"{TAKE} .option[data-value='{value}']")
            choose(phone, TAKE, str(value))
            wait_until(lambda v=view["version"]: dealer_view(server, show)["version"] > v, what="the phone's pick")
        else:
            move(server, show, table, decision["seat"], {"type": "take_work", "work": value})
        picks += 1
        if picks == 5:
            projector.wait_for_selector(".tg-chain .tg-link[data-rank='5']")
            shot(projector, "projector-chain")
            no_authenticity(projector)
    assert picks == 9

    # Round 2's queue, round 1's chain as a recap, and every gallery holding one work.
    history = dealer_view(server, show)["state"]["newest_round"]
    assert history["round"] == 1
    projector.wait_for_selector(".tg-recap")
    assert projector.locator(".tg-recap .tg-link").count() == 9
    for link in history["chain"]:
        row = projector.locator(f".tg-recap .tg-link[data-rank='{link['rank']}']").inner_text()
        assert NAMES[link["seat"]] in row and NAMES[link["took_from"]] in row
        gallery = projector.locator(f".tg-gallery[data-seat='{link['seat']}'] .tg-mini")
        assert gallery.count() == 1 and gallery.first.get_attribute("data-kind") == link["kind"]
    no_authenticity(projector)
    projector.wait_for_selector("#moment", state="hidden", timeout=10000)
    shot(projector, "projector-round-end")
    phones[0].wait_for_selector(".tgp-row")
    shot(phones[0], "phone-gallery", full=True)
    # The sound was switched on before the reveal, so the siren sounded once as well.
    sounded = projector.evaluate("Sound.log.filter(c => c.sounded).map(c => c.cue)")
    assert sounded.count("siren") == 1, sounded

    # The broadcast overlay: transparent, and no control on it.
    overlay = browser.new_page(viewport={"width": 1920, "height": 1080})
    overlay.goto(f"{server.url}/display/{show}?overlay=1")
    overlay.wait_for_selector(".tg-tile")
    assert overlay.locator("button").count() == 0
    assert not errors, errors
