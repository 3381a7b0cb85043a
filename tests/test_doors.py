"""Issue 27 (its security part): the doors an attack on the live server found, one regression
test (or more) per finding, each failing on the code before its fix; docs/security.md points here.

1. An audience screen that spells its lane otherwise (``LANE=seat``, ``lane=Stage``) reached the
   players' process through nginx and stayed on /public: nginx and the server read it alike now.
2. A console socket opened with the PIN was never checked again: a new PIN cuts every staff
   socket, on every process, and every command checks the PIN's generation.
3. Unknown fields of a legal move went into the log verbatim: a move is kept (and decided) in its
   decision's shape only, and bodies and packets over 64 kB are refused.
4. Malformed input gave server errors (big bodies, a list as a table, bad JSON in a packet).
5. A trusted proxy's name that did not resolve yet stopped the server at start.
6. Staff inputs took what player names refuse, and a player field took -1.
"""

from __future__ import annotations

import json
import re
import ssl
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
import socketio
import websocket

from referee.kernel import Actor, RuleError, registry
from referee.server.web import Admission, TrustedProxies
from referee.store import EmbeddedRedis, MemoryStore
from referee.table import Table

from .live import PIN, Client, LiveServer, stage_key
from .test_attacks import console_csrf, logged_in, new_show, wait
from .test_deploy import nginx_in_front


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("doors")).start()
    yield live
    live.stop()


def coin_table(server: LiveServer) -> tuple[str, str, list[dict[str, Any]]]:
    show, links = new_show(server, ["가", "나"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    server.ok("start", show=show, table=table)
    return show, table, links


def no_trace(server: LiveServer) -> None:
    log = (server.data_dir / f"server-{server.port}.log").read_text(errors="replace")
    assert "Traceback" not in log and "handler error" not in log, log[-3000:]


def clear(error: dict[str, Any], code: str) -> None:
    """A clear error: the code, and a message in Korean and in English."""
    assert error["code"] == code and error["ko"] and error["en"] and error["ko"] != error["en"], error


def roster(server: LiveServer, show: str, pin: str = PIN) -> list[str]:
    out = requests.get(f"{server.url}/api/shows/{show}", headers={"X-Staff-Pin": pin}, timeout=30).json()
    return out["snapshot"]["show"]["roster"]


# -- 1. A lane spelt otherwise ---------------------------------------------------------------------

# Each as an attacker may send it; "probe" tells the requests apart in nginx's access log.
SPELLINGS = ["lane=seat", "LANE=seat", "Lane=dealer", "lane=SEAT", "lane=Stage", "lane=public", "",
             "lane=public&LANE=seat", "LANE=seat&lane=public", "lane=public&lane=seat", "lane=&lane=seat",
             "lane=s%65at", "l%61ne=seat", "xlane=seat", "lane&lane=dealer", "lane=seat&lane=seat", "lane=seat%00",
             "lane=+seat"]
WITH_KEY = ["lane=stage", "lane=STAGE", "LANE=Stage"]  # the room's projector, with its link's key


def handshake(url: str, query: str, auth: dict[str, Any], ca: str) -> str:
    """A projector's namespace joined through nginx on a websocket with the whole `query`: the
    answer packet, ``40/public,...`` (connected) or ``44/public,...`` (refused)."""
    ws = websocket.create_connection(f"{url.replace('https', 'wss')}/socket.io/?{query}",
                                     timeout=10, sslopt={"ca_certs": ca, "cert_reqs": ssl.CERT_REQUIRED})
    try:
        assert ws.recv().startswith("0")
        ws.send("40/public," + json.dumps(auth))
        while not (packet := ws.recv()).startswith(("40/public,", "44/public,")):
            pass
        return packet
    finally:
        ws.close()


def test_nginx_and_the_server_read_every_spelling_of_a_lane_alike(tmp_path):
    """Through the shipped nginx: whatever nginx sends to the players' process is, for the server
    too, a lane past the audience's line (web.Admission), and its projector namespace is refused
    there (auth/wrong_lane) unless it is the room's projector with its key; whatever nginx sends
    to the audience's process waits in line and is served. Before the fix nginx read the name and
    the value without regard to case and the server did not, so `lane=Stage` (no key) or
    `LANE=seat&lane=public` put a screen on the players' process, connected to /public."""
    with nginx_in_front(tmp_path) as (url, servers, base, _plain, _hall):
        show, _links = new_show(servers[0], ["가"])
        key = stage_key(servers[0].snapshot(show))
        ca = str(base / "tls" / "ca.crt")
        tried = [(q, False) for q in SPELLINGS] + [(q, True) for q in WITH_KEY]
        raws = [f"EIO=4&transport=websocket&probe={i}" + (f"&{q}" if q else "") for i, (q, _) in enumerate(tried)]
        tried.append(("LANE=Seat (first)", False))  # at the very start of the query
        raws.append(f"LANE=Seat&EIO=4&transport=websocket&probe={len(raws)}")
        answers = {}
        for i, (raw, (_query, keyed)) in enumerate(zip(raws, tried, strict=True)):
            answers[i] = handshake(url, raw, {"show": show, **({"stage": key} if keyed else {})}, ca)
        names = {f"127.0.0.1:{s.port}": name for s, name in zip(servers, ("players", "audience"), strict=True)}
        routes: dict[int, str] = {}

        def logged() -> bool:
            for line in (base / "referee-access.log").read_text().splitlines():
                found = re.search(r"[?&]probe=(\d+)", line)
                if found and "/socket.io/" in line:
                    routes[int(found.group(1))] = line.split()[-1]
            return len(routes) == len(tried)

        wait(logged, what="nginx to log every handshake")
        outcome = []
        for i, (query, keyed) in enumerate(tried):
            past_line = Admission(lambda environ, start: [], slots=1).waiting(
                {"PATH_INFO": "/socket.io/", "QUERY_STRING": raws[i]}) is None
            answer = answers[i]
            refused = json.loads(answer[len("44/public,"):])["data"]["code"] if answer.startswith("44") else None
            outcome.append((query, keyed, names.get(routes[i], routes[i]), past_line, refused))
        for query, keyed, route, past_line, refused in outcome:
            assert route in ("players", "audience"), outcome
            if route == "players":
                assert past_line, (query, outcome)
                assert refused == (None if keyed else "auth/wrong_lane"), (query, outcome)
            else:
                assert not past_line and refused is None, (query, outcome)
        # nginx did read these as lanes (the spellings of the issue): the test covers both sides.
        assert {q for q, keyed, route, _, _ in outcome if route == "players" and not keyed} >= {
            "lane=seat", "LANE=seat", "Lane=dealer", "lane=SEAT", "lane=Stage", "LANE=seat&lane=public",
            "LANE=Seat (first)"}
        # A body over 64 kB is refused by nginx already, with the server's clear error.
        big = requests.post(f"{url}/api/add_player", json={"show": show, "name": "x" * 70_000}, verify=ca,
                            headers={"X-Staff-Pin": PIN}, timeout=30)
        assert big.status_code == 413, big.text[:300]
        clear(big.json()["error"], "api/too_large")
        for server in servers:
            no_trace(server)


# -- 2. A console opened with the PIN is never checked again ------------------------------------------


def test_a_new_pin_cuts_every_staff_socket_on_every_process(tmp_path_factory):
    """Two processes share one Redis. A PIN-opened console and a logged-in console on A; B starts
    again with another PIN: both sockets on A are cut at once (through the Socket.IO queue) and
    hear no more dealer views; the old PIN opens nothing. A PIN-opened socket also checks the
    PIN's generation at every command (were the disconnect lost), and logging out cuts the
    login's own console sockets."""
    shared = EmbeddedRedis(tmp_path_factory.mktemp("pin-redis")).start()
    env = {"REDIS_URL": shared.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex}
    a = LiveServer(tmp_path_factory.mktemp("pin-a"), env=env).start()
    b = LiveServer(tmp_path_factory.mktemp("pin-b"), env=env).start()
    opened: list[Client] = []
    try:
        show, _ = new_show(a, ["가"])
        by_pin = Client(a.url, "/dealer", {"pin": PIN, "show": show}, events=("show",))
        browser = logged_in(a.url)
        csrf = console_csrf(browser, a.url, show)
        cookie = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
        by_login = Client(a.url, "/dealer", {"show": show, "csrf": csrf}, events=("show",), headers={"Cookie": cookie})
        opened += [by_pin, by_login]
        assert by_pin.call("command", {"command": "add_player", "args": {"show": show, "name": "나"}})["ok"]

        b.stop()
        b = LiveServer(b.data_dir, port=b.port, env=env, pin="8642").start()  # a new PIN, set by B
        wait(lambda: not by_pin.sio.connected and not by_login.sio.connected, what="the staff sockets on A to be cut")
        with pytest.raises(socketio.exceptions.ConnectionError):
            opened.append(Client(a.url, "/dealer", {"pin": PIN, "show": show}, events=("show",)))
        heard = len(by_pin.history) + len(by_login.history)
        assert a.api("add_player", pin="8642", show=show, name="다")["ok"]
        time.sleep(0.5)
        assert len(by_pin.history) + len(by_login.history) == heard, "a cut console still heard the dealer's view"

        # Every staff socket checks again at every command, a PIN socket the PIN's generation and
        # a login's its session: here the generation moves on without the cut that comes with it
        # (as if that message were lost on the queue).
        fresh = Client(a.url, "/dealer", {"pin": "8642", "show": show}, events=("show",))
        browser = logged_in(a.url, pin="8642")
        csrf = console_csrf(browser, a.url, show)
        cookie = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
        login = Client(a.url, "/dealer", {"show": show, "csrf": csrf}, events=("show",), headers={"Cookie": cookie})
        opened += [fresh, login]
        assert fresh.call("command", {"command": "add_player", "args": {"show": show, "name": "라"}})["ok"]
        redis.Redis.from_url(shared.url).incr("ref:staffgen")
        for console in (fresh, login):
            refused = console.call("command", {"command": "add_player", "args": {"show": show, "name": "마"}})
            clear(refused["error"], "auth/staff_only")
        assert roster(a, show, "8642") == ["가", "나", "다", "라"]

        # Logging out cuts that login's consoles.
        browser = logged_in(a.url, pin="8642")
        csrf = console_csrf(browser, a.url, show)
        cookie = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
        console = Client(a.url, "/dealer", {"show": show, "csrf": csrf}, events=("show",), headers={"Cookie": cookie})
        opened.append(console)
        home = browser.get(f"{a.url}/console", timeout=10).text
        browser.post(f"{a.url}/console/logout", timeout=10,
                     data={"csrf": re.search(r'name="csrf" value="([^"]+)"', home).group(1)})
        wait(lambda: not console.sio.connected, what="the logged-out console to be cut")
        for server in (a, b):
            no_trace(server)
    finally:
        for client in opened:
            client.close()
        a.stop()
        b.stop()
        shared.stop()


# -- 3. Unknown fields of a legal move are logged verbatim --------------------------------------------


def recording(game_id: str) -> tuple[dict[str, Any], list[Any]]:
    """The registry with `game_id`'s decide recording every move it is given."""
    games = registry(programs=True)
    seen: list[Any] = []
    original = games[game_id]

    def decide(state: Any, actor: Actor, move: Any, rng: Any) -> Any:
        seen.append(move)
        return original.decide(state, actor, move, rng)

    games[game_id] = replace(original, decide=decide)
    return games, seen


def test_a_move_is_kept_and_decided_in_its_decisions_shape_only():
    """The runtime: the game decides, and the log keeps, the move with its decision's fields and
    type only; a field the decision does not name never reaches either."""
    games, seen = recording("tricky_coin")
    store = MemoryStore()
    table = Table.create(store, "t", "tricky_coin", ["가", "나"], {}, 1, games)
    table.start(Actor.dealer())
    sent = {"type": "put_coin", "coin": 10, "note": "x" * 50_000, "more": {"nested": [1, 2, 3]}}
    table.submit(Actor.of_seat(0), sent, "s1")
    assert seen[-1] == {"type": "put_coin", "coin": 10}
    entry = next(e for e in store.entries("t") if e.get("sid") == "s1")
    assert entry["move"] == {"type": "put_coin", "coin": 10}
    # A move the rules refuse is refused as before, with the game's own code.
    with pytest.raises(RuleError) as refused:
        table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 99, "note": "x"}, "s2")
    assert refused.value.code == "coin/no_such_coin"


def test_a_player_or_seat_field_outside_the_table_is_a_clear_error_never_an_index():
    """A program's seating fields name players by number: -1 once seated the last player (Python's
    negative index) and 10**6 failed later, in the server. Both are refused when the move comes."""
    names = [f"선수{i}" for i in range(9)]
    games = registry(programs=True)
    store = MemoryStore()
    program = Table.create(store, "p", "tricky_survival", names, {}, 1, games)
    program.start(Actor.dealer())
    for bad in (-1, 9, 10**6, "1", True):
        move = {"type": "seat_stage:gallery", **{f"seat_{i + 1}": i for i in range(9)}, "reason": "리허설"}
        move["seat_4"] = bad
        with pytest.raises(RuleError) as refused:
            program.submit(Actor.dealer(), move)
        assert refused.value.code == "move/malformed" and "seat_4" in refused.value.en, refused.value
    assert program.load().state.stages == ()


def test_a_phones_move_is_logged_in_its_shape_and_big_ones_are_refused(server):
    """Live: a legal move with a 30 kB field the decision does not name lands, logged without it;
    one of 400 kB gets a clear error in the acknowledgement (socket) or 413 (HTTP) and changes
    nothing."""
    show, table, links = coin_table(server)
    phone = Client(server.url, "/seat", {"token": links[0]["token"]})
    try:
        ack = phone.call("submit", {"table": table, "sid": "big1",
                                    "move": {"type": "put_coin", "coin": 10, "junk": "가" * 10_000}})
        assert ack["ok"], ack
        entries = server.log_of(show, table)["entries"]
        entry = next(e for e in entries if e.get("sid") == "big1")
        assert entry["move"] == {"type": "put_coin", "coin": 10} and len(json.dumps(entry)) < 2000, entry
        before = len(entries)
        refused = phone.call("submit", {"table": table, "sid": "big2",
                                        "move": {"type": "put_coin", "coin": 5, "junk": "x" * 400_000}})
        clear(refused["error"], "api/too_large")
    finally:
        phone.close()
    out = requests.post(f"{server.url}/api/move", headers={"X-Staff-Pin": PIN}, timeout=30,
                        json={"show": show, "table": table, "seat": 1, "sid": "big3",
                              "move": {"type": "put_coin", "coin": 5, "junk": "x" * 400_000}})
    assert out.status_code == 413, out.text[:300]
    clear(out.json()["error"], "api/too_large")
    assert len(server.log_of(show, table)["entries"]) == before
    no_trace(server)


# -- 4. Malformed input still gives server errors -----------------------------------------------------


def test_big_bodies_get_413_with_a_clear_error(server):
    show, _table, _links = coin_table(server)
    for size in (100_000, 8 << 20, 64 << 20):
        body = b'{"show": "' + show.encode() + b'", "name": "' + b"x" * size + b'"}'
        out = requests.post(f"{server.url}/api/add_player", data=body, timeout=60,
                            headers={"X-Staff-Pin": PIN, "Content-Type": "application/json"})
        assert out.status_code == 413, (size, out.status_code, out.text[:300])
        clear(out.json()["error"], "api/too_large")
    page = requests.post(f"{server.url}/console/login", data={"pin": "1" * (2 << 20)}, timeout=60)
    assert page.status_code == 413 and "너무" in page.text and "too large" in page.text, page.text[:300]
    assert server.snapshot(show)["show"]["roster"] == ["가", "나"]
    no_trace(server)


def raw_seat(server: LiveServer, token: str) -> websocket.WebSocket:
    """A phone's namespace joined on a raw websocket (the packets written by hand)."""
    ws = websocket.create_connection(server.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket",
                                     timeout=10)
    assert ws.recv().startswith("0")
    ws.send("40/seat," + json.dumps({"token": token}))
    while not ws.recv().startswith("40/seat,"):
        pass
    return ws


def ack_of(ws: websocket.WebSocket, ident: int) -> Any:
    prefix = f"43/seat,{ident}"
    while not (packet := ws.recv()).startswith(prefix + "["):
        pass
    return json.loads(packet[len(prefix):])[0]


def test_malformed_packets_and_a_list_for_a_table_get_clear_errors(server):
    """Bad JSON, an integer of 10,000 digits, an event that is not a list, a packet over 64 kB,
    and `sync` with a list or an object for its table: each gets a clear error in its
    acknowledgement, nothing changes, and the server's log holds no trace."""
    show, table, links = coin_table(server)
    before = server.log_of(show, table)["entries"]
    ws = raw_seat(server, links[0]["token"])
    try:
        packets = {
            1: ('42/seat,1["submit",{"table":"' + table + '","sid":"m1","move":{"type":"put_coin","coin":', "api/bad_payload"),
            2: ('42/seat,2["submit",{"table":"' + table + '","sid":"m2","move":{"type":"put_coin","coin":'
                + "7" * 10_000 + "}}]", "api/bad_payload"),
            3: ('42/seat,3{"submit":1}', "api/bad_payload"),
            4: ("42/seat,4[]", "api/bad_payload"),
            5: ('42/seat,5["submit",{"table":"' + table + '","sid":"m5","move":{"type":"put_coin","coin":10,"x":"'
                + "y" * 100_000 + '"}}]', "api/too_large"),
            6: ('42/seat,6["sync",{"table":["a"]}]', "api/bad_field"),
            7: ('42/seat,7["sync",{"table":{"a":1}}]', "api/bad_field"),
        }
        for ident, (packet, code) in packets.items():
            ws.send(packet)
            answer = ack_of(ws, ident)
            assert answer["ok"] is False, (ident, answer)
            clear(answer["error"], code)
    finally:
        ws.close()
    phone = Client(server.url, "/seat", {"token": links[1]["token"]})
    try:
        for wanted in (["a"], {"a": 1}):
            clear(phone.call("sync", {"table": wanted})["error"], "api/bad_field")
        assert phone.call("sync", {"table": table})["ok"]
    finally:
        phone.close()
    with pytest.raises(socketio.exceptions.ConnectionError):
        Client(server.url, "/public", {"show": ["a"]})
    assert server.log_of(show, table)["entries"] == before
    no_trace(server)


# -- 5. A trusted proxy's name that does not resolve yet --------------------------------------------------


def test_a_trusted_proxy_that_does_not_resolve_yet_is_retried_not_fatal(tmp_path):
    """Compose names nginx, which may start after the server: the server starts all the same, says
    so in its log, and believes no forwarded header until the name resolves."""
    live = LiveServer(tmp_path, env={"REFEREE_PROXIED": "1", "REFEREE_TRUSTED_PROXIES": "proxy.invalid"}).start()
    try:
        login = requests.get(f"{live.url}/console/login", timeout=10, headers={"X-Forwarded-Proto": "https"})
        assert login.ok and "Secure" not in login.headers["Set-Cookie"]
    finally:
        live.stop()
    log = (tmp_path / f"server-{live.port}.log").read_text()
    assert "proxy.invalid" in log and "Traceback" not in log, log[-2000:]


def test_a_proxys_name_is_resolved_again_until_it_resolves():
    now = [0.0]
    answers: list[Any] = [OSError("not yet")]

    def resolve(name: str, port: Any) -> list[Any]:
        found = answers[-1]
        if isinstance(found, Exception):
            raise found
        return [(2, 1, 6, "", (found, 0))]

    seen: list[str] = []

    def app(environ: dict[str, Any], start: Any) -> list[bytes]:
        seen.append(environ["REMOTE_ADDR"])
        return []

    proxies = TrustedProxies(app, ["nginx", "10.9.9.9"], resolve=resolve, clock=lambda: now[0])

    def request(remote: str) -> None:
        proxies({"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": "192.168.1.50"}, None)

    request("10.9.9.9")  # an address given as such: trusted at once
    request("10.1.2.3")  # nginx's, not resolved yet: not believed
    answers.append("10.1.2.3")
    request("10.1.2.3")  # too soon to ask again
    now[0] += TrustedProxies.RETRY + 1
    request("10.1.2.3")
    assert seen == ["192.168.1.50", "10.1.2.3", "10.1.2.3", "192.168.1.50"]


# -- 6. Staff inputs take what player names refuse ---------------------------------------------------------


def test_show_names_ids_and_option_texts_refuse_what_names_refuse(server):
    for bad in ("쇼\x00", "\u202e쇼", "쇼\u200b이름"):
        out = server.api("create_show", show="s" + uuid.uuid4().hex[:8], name=bad)
        clear(out["error"], "show/bad_name")
        assert "U+" in out["error"]["ko"] and "U+" in out["error"]["en"], out
    show_id = "n" + uuid.uuid4().hex[:8]
    made = server.ok("create_show", show=show_id, name="  봄   쇼 ")
    assert made["show"]["name"] == "봄 쇼"
    for bad_id in (show_id + "x\n", "a\n", "a\x00"):
        clear(server.api("create_show", show=bad_id, name="쇼")["error"], "show/bad_id")
    assert server.api("add_player", show=show_id + "\n", name="가")["error"]["code"] == "show/no_show"
    for name in ("가", "나"):
        server.ok("add_player", show=show_id, name=name)
    board = json.loads((Path(__file__).resolve().parent.parent / "referee" / "games" / "clumsy_cats" / "maps"
                        / "default.json").read_text())
    board["name"] = {"ko": "맵\u202e", "en": "Map"}
    out = server.api("create_table", show=show_id, game="clumsy_cats", players=["가", "나"], options={"map": board})
    clear(out["error"], "table/bad_option")
    assert "U+202E" in out["error"]["en"], out
    assert server.snapshot(show_id)["show"]["tables"] == []
    board["name"] = {"ko": "봄 맵", "en": "Spring map"}
    assert server.api("create_table", show=show_id, game="clumsy_cats", players=["가", "나"],
                      options={"map": board})["ok"]


def test_a_seat_out_of_range_is_a_clear_error(server):
    show, table, _links = coin_table(server)
    for bad in (-1, 2, 10**6):
        out = server.api("move", show=show, table=table, seat=bad, move={"type": "put_coin", "coin": 10})
        clear(out["error"], "table/no_such_seat")
    assert server.log_of(show, table)["entries"][-1]["event"]["type"] != "CoinPut"
    no_trace(server)
