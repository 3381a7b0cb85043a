"""Horror Race 2, live: a whole 10-seat race through real Socket.IO clients (every public
payload checked against the public view of the log at its version, every seat payload against
that seat's view), and a 3-seat race in headless Chromium through the console, the phones'
generic forms and the projector. Screenshots go to test-artifacts/browser/horror_race-*.png."""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

import pytest

from referee.kernel import Audience

from .live import ARTIFACTS, PIN, Client, LiveServer, open_pages, views_at

NAMES = ["가영", "나래", "다솜", "라온", "마루", "바다", "사랑", "아라", "자람", "하늘"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("horror")).start()
    yield live
    live.stop()


def new_race(server: LiveServer, seats: int, seed: int) -> tuple[str, str, list[dict]]:
    show = "h" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name=f"호러 레이스 {show}")
    names = NAMES[:seats]
    for name in names:
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="horror_race", players=names, seed=seed)["table"]
    return show, table, server.snapshot(show)["links"]


def random_value(field: dict[str, Any], rnd: random.Random, forfeit_odds: float = 0.3) -> Any:
    """A random legal value of a decision field as the phones receive it (JSON)."""
    options = [o["value"] for o in field.get("options", [])]
    match field["shape"]:
        case "one":
            if "forfeit" in options and "draw" in options:  # keep races short: forfeits now and then
                return "forfeit" if rnd.random() < forfeit_odds else "draw"
            return rnd.choice(options)
        case "some":
            return rnd.sample(options, field["k"])
        case "assign":
            return {str(item["value"]): rnd.choice(options) for item in field["items"]}
    raise AssertionError(f"unexpected field shape {field['shape']}")


def random_move(decision: dict[str, Any], rnd: random.Random, forfeit_odds: float = 0.3) -> dict[str, Any]:
    return {"type": decision["move"], **{f["name"]: random_value(f, rnd, forfeit_odds) for f in decision["fields"]}}


def newest(client: Client) -> dict[str, Any] | None:
    with client.lock:
        views = [p for e, p in client.history if e == "view"]
    return max(views, key=lambda p: p["version"]) if views else None


def wait_version(client: Client, version: int, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        latest = newest(client)
        if latest is not None and latest["version"] >= version:
            return latest
        time.sleep(0.01)
    raise TimeoutError(f"{client.namespace} never reached version {version}")


def keys_named(value: Any, names: set[str]) -> list[str]:
    """Every dict key in `value` (recursively) that is one of `names`."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in names:
                found.append(key)
            found += keys_named(inner, names)
    elif isinstance(value, list):
        for inner in value:
            found += keys_named(inner, names)
    return found


def test_whole_ten_seat_race_over_sockets(server):
    show, table, links = new_race(server, 10, seed=2024)
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    dealer = Client(server.url, "/dealer", {"show": show, "pin": PIN})
    rnd = random.Random(7)
    try:
        version = server.ok("start", show=show, table=table)["ack"]["version"]
        moves = 0
        while True:
            views = [wait_version(phone, version) for phone in phones]
            wait_version(public, version)
            if views[0]["table"]["result"] is not None:
                break
            owing = [(i, v["table"]["decisions"][0]) for i, v in enumerate(views) if v["table"]["decisions"]]
            assert owing, "nobody owes a decision, yet the race has no result"
            seat, decision = owing[0] if owing[0][1]["move"] != "back_characters" else rnd.choice(owing)
            assert decision["seat"] == seat
            ack = phones[seat].call("submit", {"table": table, "move": random_move(decision, rnd), "sid": uuid.uuid4().hex})
            assert ack["ok"], ack
            version = ack["ack"]["version"]
            moves += 1
            assert moves < 2000, "the race did not end"

        log = server.log_of(show, table)
        entries = log["entries"]
        final = entries[-1]["v"]
        reveal = next(e["v"] for e in entries if e["event"]["type"] == "BackingsRevealed")
        backings = {e["event"]["data"]["seat"]: e["event"]["private"]["characters"]
                    for e in entries if e["event"]["type"] == "CharactersBacked"}
        assert sorted(backings) == list(range(10))
        end = wait_version(public, final)["table"]
        assert end["result"] is not None and len(end["result"]["standings"]) == 10
        assert end["state"]["step"] == "over" and end["state"]["ranking"]
        assert [s["backing"] for s in end["state"]["seats"]] == [backings[s] for s in range(10)]
        assert end["state"]["rounds_done"] >= 1 and end["state"]["newest_round"] and end["state"]["finish"]
        staff = dealer.wait_for(lambda e, p: e == "show" and p["tables"][0]["view"]["version"] >= final)
        assert staff["tables"][0]["view"]["result"] == end["result"]

        # The projector's socket: every payload is the public view of the log cut at its
        # version, and no backing reaches it before the reveal.
        shown = [p["table"] for e, p in public.history if e == "view" and p["table"] is not None and p["table"]["started"]]
        assert len(shown) > 50
        expected = views_at(log, {v["version"] for v in shown}, Audience.public())
        for view in shown:
            assert view == expected[view["version"]], f"public payload at v{view['version']} differs"
            assert view["audience"] == "public" and view["decisions"] == []
            if view["version"] < reveal:
                assert not keys_named(view, {"backing", "backings", "box"}), f"secret in public payload v{view['version']}"
                assert not view["state"]["revealed"]
        assert any(v["version"] >= reveal and all("backing" in s for s in v["state"]["seats"]) for v in shown)

        # Each phone: only its own view, so only its own backing until the reveal.
        for seat, phone in enumerate(phones):
            assert all(e == "view" for e, _ in phone.history)
            payloads = [p for _, p in phone.history if p["table"] is not None and p["table"]["started"]]
            expected = views_at(log, {p["version"] for p in payloads}, Audience.of_seat(seat))
            own_seen = False
            for p in payloads:
                view = p["table"]
                assert p["seat"] == seat and p["player"] == NAMES[seat]
                assert view == expected[view["version"]], f"seat {seat} payload at v{view['version']} differs"
                assert view["audience"] == f"seat:{seat}"
                for entry in view["state"]["seats"]:
                    if "backing" in entry and entry["seat"] != seat:
                        assert view["version"] >= reveal, f"seat {seat} saw seat {entry['seat']}'s backing"
                    if entry["seat"] == seat and entry.get("backing"):
                        assert entry["backing"] == backings[seat]
                        own_seen = True
                assert all(d["seat"] == seat for d in view["decisions"])
                assert "box" not in view["state"]
            assert own_seen
    finally:
        for client in (public, dealer, *phones):
            client.close()


# -- the browser ---------------------------------------------------------------------------



# Records every picture the projector's replay shows (zone, caption, moved tokens, stacks), so
# the test checks the visible steps without racing their timers.
RECORD_FRAMES = """() => {
  window.hrFrames = [];
  new MutationObserver(() => {
    const root = document.querySelector(".hr[data-animating='1']");
    if (!root) return;
    const active = root.querySelector(".hr-zone.hr-active");
    const stacks = {};
    root.querySelectorAll(".hr-track .hr-cell").forEach(c => { stacks[c.dataset.cell] = c.dataset.stack; });
    window.hrFrames.push({
      zone: active ? Number(active.dataset.zone) : null,
      caption: root.querySelector(".hr-caption").textContent,
      moved: Array.from(root.querySelectorAll(".hr-track .hr-moved")).map(t => t.dataset.character),
      stacks: stacks,
    });
  }).observe(document.getElementById("board"), { childList: true });
}"""


def playwright_error() -> type[Exception]:
    from playwright.sync_api import Error

    return Error


def submit_form(page) -> None:
    page.click("#decision button.next")
    page.wait_for_selector("#decision .confirm-q")
    page.click("#decision button.submit")
    page.wait_for_selector("#receipt:not([hidden])")


def table_view(server: LiveServer, show: str) -> dict[str, Any]:
    """The table's dealer view (its public fields are the public view's)."""
    return server.snapshot(show)["tables"][0]["view"]


def assert_track_shown(projector, state: dict[str, Any]) -> None:
    """The projector's track, cell by cell (bottom to top) and the goal, is the view's."""
    projector.wait_for_selector(".hr[data-animating='0']", timeout=30000)
    for cell in state["track"]:
        shown = projector.get_attribute(f".hr-track .hr-cell[data-cell='{cell['cell']}']", "data-stack")
        assert shown == ",".join(cell["stack"]), (cell, shown)
        tokens = projector.locator(f".hr-track .hr-cell[data-cell='{cell['cell']}'] .hr-token")
        assert [tokens.nth(i).get_attribute("data-character") for i in range(tokens.count())] == cell["stack"]
    assert projector.get_attribute(".hr-track .hr-cell[data-cell='goal']", "data-stack") == ",".join(reversed(state["finish"]))


def wait_track(projector, state: dict[str, Any], timeout: float = 30) -> None:
    """Wait (bounded) until the replay has ended on the view's track, then check it exactly."""
    stacks = {str(c["cell"]): ",".join(c["stack"]) for c in state["track"]}
    stacks["goal"] = ",".join(reversed(state["finish"]))
    projector.wait_for_function(
        """stacks => document.querySelector(".hr[data-animating='0']") !== null &&
             Object.keys(stacks).every(c => {
               const cell = document.querySelector(".hr-track .hr-cell[data-cell='" + c + "']");
               return cell && cell.dataset.stack === stacks[c];
             })""", arg=stacks, timeout=timeout * 1000)
    assert_track_shown(projector, state)


def test_three_seat_race_in_the_browser(server, browser):
    show, table, links = new_race(server, 3, seed=68)
    errors: list[str] = []

    console, projector, phones = open_pages(server, browser, show, links, errors)

    console.click("[data-action=start]")
    projector.wait_for_selector(".hr .hr-track")
    assert projector.get_attribute(".hr-cell[data-cell='0']", "data-stack") == "vampire,jiangshi,gumiho,mummy,zombie"
    assert projector.locator(".hr-cell.hr-puddle").count() == 2
    assert {projector.get_attribute(".hr-cell.hr-puddle >> nth=" + str(i), "data-cell") for i in range(2)} == {"6", "11"}

    # The backing step through the phones' "some" form: two characters each, secret.
    pairs = [("vampire", "gumiho"), ("jiangshi", "zombie"), ("vampire", "mummy")]
    for i, (page, pair) in enumerate(zip(phones, pairs, strict=True)):
        page.wait_for_selector("#decision .field-some")
        for character in pair:
            page.click(f"#decision .option[data-value='{character}']")
        if i == 0:
            page.screenshot(path=str(ARTIFACTS / "horror_race-phone-backing.png"))
        submit_form(page)
        if i < 2:  # the third backing starts the race: no more sealed count
            projector.wait_for_selector(f".sealed:text('{i + 1}/3')")
        if i == 1:
            projector.wait_for_selector(".hr-backer.hr-backed >> nth=1")
            projector.screenshot(path=str(ARTIFACTS / "horror_race-projector-backing.png"))
    # The projector never shows a backing before the reveal; each phone shows its own.
    for i, page in enumerate(phones):
        page.wait_for_selector("#holdings .hr-mine")
        shown = [page.locator("#holdings .hr-mine .hr-chip").nth(k).get_attribute("data-character") for k in range(2)]
        assert sorted(shown) == sorted(pairs[i])
    projector.wait_for_selector(".hr-zones")
    assert projector.locator(".hr-score").count() == 0

    # Round 1 through the phones: draw, then place the three coins with the assign buttons.
    zones_for = [("3", "3", "3"), ("3", "2", "1"), ("1", "1", "2")]
    for seat, page in enumerate(phones):
        page.wait_for_selector("#decision .option[data-value='draw']")
        assert page.locator("#decision .option[data-value='forfeit']").count() == 1
        page.click("#decision .option[data-value='draw']")
        submit_form(page)
        page.wait_for_selector("#decision .assign-row")
        page.wait_for_selector("#holdings .hr-drawn .hr-chip")
        drawn = table_view(server, show)["state"]["drawn"]
        assert drawn["seat"] == seat
        shown = page.locator("#holdings .hr-drawn .hr-chip")
        assert [shown.nth(k).get_attribute("data-character") for k in range(shown.count())] == drawn["coins"]
        for item, zone in zip(("c1", "c2", "c3"), zones_for[seat], strict=True):
            page.click(f"#decision .assign-row button[data-item='{item}'][data-value='{zone}']")
        if seat == 1:
            page.screenshot(path=str(ARTIFACTS / "horror_race-phone-place.png"))
            projector.wait_for_selector(f".hr-seat.hr-now[data-seat='{seat}']")
            projector.wait_for_selector(".hr-drawn .hr-chip")
            projector.wait_for_selector("#moment", state="hidden", timeout=10000)  # "레이스 시작!" has faded
            projector.screenshot(path=str(ARTIFACTS / "horror_race-projector-round.png"))
        if seat == 2:
            projector.wait_for_selector(".hr-seat.hr-now[data-seat='2']")
            # The zones show this round's coins by character, as the public view counts them.
            counts = table_view(server, show)["state"]["zones"]
            for z in counts:
                for character, n in z["counts"].items():
                    row = projector.locator(f".hr-zone[data-zone='{z['zone']}'] .hr-zone-row:has(.hr-chip[data-character='{character}'])")
                    assert row.locator(".hr-count").inner_text() == f"×{n}"
            projector.evaluate(RECORD_FRAMES)  # the last placement resolves the round: watch the replay
        submit_form(page)

    # The round resolves: the projector replays zone 1, 2, 3 as visible steps, each naming its
    # mover, then rests on the view's track.
    projector.wait_for_selector(".hr[data-animating='1']", timeout=10000)
    after = table_view(server, show)["state"]
    assert after["round"] == 2 and after["rounds_done"] == 1 and after["newest_round"]["round"] == 1
    moves = after["newest_round"]["moves"]
    assert all(m["mover"] for m in moves), "seed 68 moves a character in every zone of round 1"
    label = {c["id"]: c["label"]["ko"] for c in after["characters"]}
    try:
        projector.wait_for_selector(".hr[data-animating='1'] .hr-zone.hr-active[data-zone='2']", timeout=8000)
        projector.wait_for_timeout(1000)  # the glide
        projector.screenshot(path=str(ARTIFACTS / "horror_race-projector-move.png"))
    except playwright_error():
        pass  # a slow machine: the artifact is skipped, the recorded frames below still count
    wait_track(projector, after)
    frames = [f for f in projector.evaluate("window.hrFrames") if f["zone"]]
    assert [f["zone"] for f in frames] == [1, 2, 3], frames
    for frame, m in zip(frames, moves, strict=True):
        assert label[m["mover"]] in frame["caption"], (frame, m)
        assert frame["moved"] == m["carried"], (frame, m)
        assert frame["stacks"][str(m["to"])].endswith(",".join(m["carried"])), (frame, m)
    projector.screenshot(path=str(ARTIFACTS / "horror_race-projector-after-round.png"))
    # The phones' compact track: every character on its cell, as the public view says.
    cells = {c: str(cell["cell"]) for cell in after["track"] for c in cell["stack"]}
    phones[0].wait_for_function(
        """cells => Object.keys(cells).every(c => {
             const row = document.querySelector("#holdings .hr-track-list li[data-character='" + c + "']");
             return row && row.dataset.cell === cells[c];
           })""", arg=cells, timeout=10000)
    phones[0].screenshot(path=str(ARTIFACTS / "horror_race-phone-track.png"))

    # The rest of the race through the API on the seats' behalf; the projector keeps up.
    rnd = random.Random(3)
    for _ in range(600):
        view = table_view(server, show)
        if view["result"] is not None:
            break
        decision = view["decisions"][0]
        server.ok("move", show=show, table=table, seat=decision["seat"], move=random_move(decision, rnd, 0.15),
                  sid=uuid.uuid4().hex)
    final = table_view(server, show)
    assert final["result"] is not None
    projector.wait_for_selector(".hr-finale, .hr-result", timeout=30000)
    wait_track(projector, final["state"])
    projector.wait_for_selector(".hr-result-seats .hr-score >> nth=2")
    places = projector.locator(".hr-place")
    assert [places.nth(i).get_attribute("data-character") for i in range(places.count())] == \
        [r["character"] for r in final["state"]["ranking"]]
    for seat, pair in enumerate(pairs):
        row = projector.locator(f".hr-score[data-seat='{seat}']")
        chips = row.locator(".hr-chip")
        assert sorted(chips.nth(k).get_attribute("data-character") for k in range(chips.count())) == sorted(pair)
        assert row.locator(".hr-score-points").inner_text().startswith(str(final["state"]["seats"][seat]["points"]))
    projector.screenshot(path=str(ARTIFACTS / "horror_race-projector-final.png"))
    projector.wait_for_timeout(4800)  # the finish banner fades
    projector.screenshot(path=str(ARTIFACTS / "horror_race-projector-final-rest.png"))
    for i, page in enumerate(phones):
        page.wait_for_selector("#decision .waiting strong")
        page.wait_for_selector("#holdings .hr-points")
        if i == 0:
            page.screenshot(path=str(ARTIFACTS / "horror_race-phone-end.png"), full_page=True)
    console.wait_for_selector("#table h3:text('결과')")
    console.screenshot(path=str(ARTIFACTS / "horror_race-console.png"), full_page=True)
    assert not errors, errors
