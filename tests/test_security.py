"""Security, live: links cannot be guessed or reused, guessing and flooding are rate limited,
read-only audiences send no commands, staff pages and the API need a login."""

from __future__ import annotations

import json
import uuid

import pytest
import redis
import requests
import socketio

from referee.store import EmbeddedRedis

from .live import PIN, Client, LiveServer, within_one_window

LIMITS = {"REFEREE_RATE_JOIN": "3/60", "REFEREE_RATE_LOGIN": "3/60", "REFEREE_RATE_SUBMIT": "5/60"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("security"), env=LIMITS).start()
    yield live
    live.stop()


def new_show(server: LiveServer) -> tuple[str, str, list[dict]]:
    show = "x" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name="보안 쇼")
    for name in ("가", "나"):
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    return show, table, server.snapshot(show)["links"]


def test_links_are_long_random_and_stored_only_hashed(server):
    show, table, links = new_show(server)
    tokens = [link["token"] for link in links]
    assert all(len(t) >= 22 for t in tokens)  # 18 bytes of HMAC output: 144 bits
    for _ in range(3):
        tokens.append(server.ok("reissue", show=show, player=0)["link"]["token"])
    assert len(set(tokens)) == len(tokens)
    url = json.loads((server.data_dir / "redis" / "endpoint.json").read_text())["url"]
    client = redis.Redis.from_url(url, decode_responses=True)
    dump = []
    for key in client.scan_iter("*"):
        kind = client.type(key)
        if kind == "string":
            dump.append(client.get(key))
        elif kind == "hash":
            dump.extend(client.hgetall(key).values())
        elif kind == "list":
            dump.extend(client.lrange(key, 0, -1))
        dump.append(key)
    blob = "\n".join(dump)
    for link in server.snapshot(show)["links"]:
        assert link["token"] not in blob and link["code"] not in blob


def test_read_only_and_seat_clients_are_refused_every_dealer_event(server):
    show, table, links = new_show(server)
    public = Client(server.url, "/public", {"show": show})
    phone = Client(server.url, "/seat", {"token": links[0]["token"]})
    try:
        for client in (public, phone):
            for command in ("start", "void", "finish", "reissue", "create_table", "move", "set_current"):
                ack = client.call("command", {"command": command, "args": {"show": show, "table": table}})
                assert not ack["ok"] and ack["error"]["code"].startswith("auth/"), (client.namespace, command, ack)
        assert public.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 1}, "sid": "p"})["ok"] is False
    finally:
        public.close()
        phone.close()
    with pytest.raises(socketio.exceptions.ConnectionError):
        Client(server.url, "/dealer", {"show": show})  # no login, no PIN
    assert server.log_of(show, table)["entries"] == []


def test_pages_for_staff_need_a_login(server):
    show, table, links = new_show(server)
    for path in ("/console", f"/console/{show}"):
        response = requests.get(server.url + path, allow_redirects=False, timeout=10)
        assert response.status_code == 302 and "/console/login" in response.headers["Location"]
    assert requests.get(f"{server.url}/print/{show}/seat-cards.pdf", timeout=10).status_code == 403
    assert requests.get(f"{server.url}/api/shows/{show}", timeout=10).status_code == 401
    forged = requests.post(f"{server.url}/console/login", data={"pin": PIN}, allow_redirects=False, timeout=10)
    assert forged.status_code == 401 and "auth/csrf" in forged.text  # no CSRF token: no session


def test_submissions_are_rate_limited_per_phone(server):
    show, table, links = new_show(server)
    server.ok("start", show=show, table=table)
    phone = Client(server.url, "/seat", {"token": links[1]["token"]})
    try:
        within_one_window(60)  # the seven in one window of the limit (5 a minute)
        codes = [phone.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 7}, "sid": f"s{i}"})
                 ["error"]["code"] for i in range(7)]
        assert codes[:5] == ["coin/no_such_coin"] * 5 and codes[5:] == ["rate/limited"] * 2
        # The other phone has its own budget.
        other = Client(server.url, "/seat", {"token": links[0]["token"]})
        try:
            ack = other.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 1}, "sid": "o1"})
            assert ack["ok"], ack
        finally:
            other.close()
    finally:
        phone.close()


def test_guessing_pins_and_links_is_rate_limited(tmp_path):
    """A fresh server: the failed-guess budget of 127.0.0.1 is spent on purpose here."""
    live = LiveServer(tmp_path, env=LIMITS).start()
    try:
        show, table, links = new_show(live)
        within_one_window(60, needed=15)  # every guess below in one window of the limits (3 a minute)
        for _ in range(3):
            assert live.api("start", pin="0000", show=show, table=table)["error"]["code"] == "auth/bad_pin"
        blocked = requests.post(f"{live.url}/api/start", json={"show": show, "table": table},
                                headers={"X-Staff-Pin": PIN}, timeout=10)
        assert blocked.status_code == 429 and blocked.json()["error"]["code"] == "rate/limited"

        for i in range(3):
            assert requests.get(f"{live.url}/p/{'Z' * 23}{i}", timeout=10).status_code == 403
        # More wrong cards are refused as rate limited; a short code (guessable) waits out the
        # window even when right. A card's token cannot be guessed: the right card is never
        # refused for other people's failures behind the same address (issue 9, item 10).
        assert requests.get(f"{live.url}/p/{'Z' * 24}", timeout=10).status_code == 429
        refused = requests.post(f"{live.url}/join", data={"code": links[0]["code"]}, allow_redirects=False, timeout=10)
        assert refused.status_code == 429
        assert requests.get(links[0]["url"], allow_redirects=False, timeout=10).status_code == 302
        phone = Client(live.url, "/seat", {"token": links[1]["token"]})
        phone.close()
        with pytest.raises(socketio.exceptions.ConnectionError):
            Client(live.url, "/seat", {"token": "Q" * 24})
    finally:
        live.stop()


def test_embedded_redis_listens_on_its_own_socket_only(tmp_path):
    server = EmbeddedRedis(tmp_path).start()
    try:
        client = redis.Redis.from_url(server.url)
        assert client.config_get("port")["port"] == "0"  # no TCP port at all
        assert client.config_get("appendonly")["appendonly"] == "yes"
        assert client.config_get("appendfsync")["appendfsync"] == "always"
    finally:
        server.stop()


def test_a_move_through_a_socket_that_outlived_its_cards_reissue_learns_nothing(service_on_redis):
    """A phone's socket can outlive its card's re-issue for a moment (the disconnect travels to
    the process that holds it). Whatever it then submits is refused as revoked and writes
    nothing: a legal move, a move the rules refuse, a resend of a move written before (the
    rules' answer, or the resend's acknowledgement, would tell the card's holder about the
    seat). A current card's every try counts once against its phone's limit, refused or not."""
    from referee.kernel import RuleError
    from referee.server.limits import Limit

    here = service_on_redis
    service, table = here.service, here.table
    old = [here.link(player) for player in (0, 1)]
    tries = [f"{here.prefix}tries:{player}" for player in (0, 1)]

    def submit(player: int, move: dict, sid: str) -> dict:
        guard = service.link_guard(old[player], (tries[player], Limit(30, 10)))
        try:
            return service.seat_submit(old[player], {"table": table, "move": move, "sid": sid}, guard)
        except RuleError as err:
            return {"error": err.code}

    assert "ack" in submit(0, {"type": "put_coin", "coin": 5}, "a")
    assert submit(0, {"type": "put_coin", "coin": 5}, "a")["ack"]["version"] == 2  # a resend
    assert submit(1, {"type": "put_coin", "coin": 7}, "b") == {"error": "coin/no_such_coin"}
    assert [here.client.get(key) for key in tries] == ["2", "1"]
    written = service.store.entries(table)

    for player in (0, 1):
        here.command("reissue", show="s", player=player)
    assert submit(0, {"type": "put_coin", "coin": 5}, "a") == {"error": "auth/link_revoked"}
    assert submit(0, {"type": "put_coin", "coin": 10}, "c") == {"error": "auth/link_revoked"}
    assert submit(1, {"type": "put_coin", "coin": 7}, "b") == {"error": "auth/link_revoked"}
    assert submit(1, {"type": "put_coin", "coin": 5}, "d") == {"error": "auth/link_revoked"}
    assert submit(1, {"type": "nonsense"}, "e") == {"error": "auth/link_revoked"}
    assert service.store.entries(table) == written
