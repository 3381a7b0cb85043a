"""Issue 9: what an attack on the live server found, one regression test (or more) per finding.

Each test failed on the code before its fix (the note of the issue says which); docs/security.md
points here. The attacker is a curious player with a laptop, someone on the venue Wi-Fi, a local
user on the server machine, or an audience flood.
"""

from __future__ import annotations

import json
import os
import stat
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis

from referee.kernel import Audience, Rng
from referee.store import EmbeddedRedis

from .live import Client, LiveServer, audience_version, views_at

NAMES = ["나래", "가람", "라온", "다솜", "바다", "마루", "아름", "사랑", "자두"]


def wait(check, timeout: float = 15.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.03)
    raise TimeoutError(what)


def new_show(server: LiveServer, players: list[str], show: str | None = None) -> tuple[str, list[dict]]:
    show = show or "a" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name="공격 쇼")
    for name in players:
        server.ok("add_player", show=show, name=name)
    return show, server.snapshot(show)["links"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("attacks")).start()
    yield live
    live.stop()


# -- 1. Predictable shuffles ----------------------------------------------------------------------


def test_a_live_table_has_no_seed_and_deals_from_the_os_generator(server):
    """A 31-bit seed let a Quattro player brute-force the deal from their own hands. A live
    table now has no seed at all: every draw (here Gallery's deal at the start) comes from the
    OS generator and is recorded in the log."""
    show, _links = new_show(server, NAMES)
    hands = set()
    for _ in range(2):
        table = server.ok("create_table", show=show, game="tricky_gallery", players=NAMES)["table"]
        server.ok("start", show=show, table=table)
        log = server.log_of(show, table)
        assert log["header"]["seed"] is None
        dealt = json.dumps([e["event"] for e in log["entries"]], sort_keys=True)
        hands.add(dealt)
    assert len(hands) == 2  # same players, same options: two different deals


def test_the_rehearsal_generator_is_not_pythons_random():
    """Rehearsals keep a seed (not a secret), but their stream is HMAC-SHA256, not Mersenne
    Twister, and a secure generator ignores any seed."""
    a, b = Rng(7, 1), Rng(7, 1)
    assert [a.below(1000) for _ in range(20)] == [b.below(1000) for _ in range(20)]
    assert not hasattr(Rng(7), "_random")
    secure = [Rng.secure().shuffled(range(52)) for _ in range(2)]
    assert secure[0] != secure[1]


# -- 2. A re-issued card keeps listening ----------------------------------------------------------


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory):
    shared = EmbeddedRedis(tmp_path_factory.mktemp("attack-redis")).start()
    env = {"REDIS_URL": shared.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex}
    a = LiveServer(tmp_path_factory.mktemp("attack-a"), env=env).start()
    b = LiveServer(tmp_path_factory.mktemp("attack-b"), env=env).start()
    yield a, b
    a.stop()
    b.stop()
    shared.stop()


def test_a_reissued_card_is_disconnected_on_every_process(two_processes):
    a, b = two_processes
    show, links = new_show(a, ["가", "나"])
    table = a.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    old = Client(b.url, "/seat", {"token": links[0]["token"]})  # the old card's phone is on B
    try:
        old.wait_for(lambda e, p: e == "view")
        a.ok("reissue", show=show, player=0)  # the re-issue goes through A
        wait(lambda: not old.sio.connected, what="the old card's socket to be ended")
        heard = len(old.history)
        a.ok("start", show=show, table=table)
        a.ok("move", show=show, table=table, seat=0, move={"type": "put_coin", "coin": 20}, sid="s1")
        time.sleep(1.0)
        assert len(old.history) == heard, "the old card still receives the player's views"
    finally:
        old.close()


# -- 3. The embedded Redis is open to every local user -------------------------------------------


def test_the_embedded_redis_is_reachable_only_by_its_user(tmp_path):
    server = EmbeddedRedis(tmp_path).start()
    try:
        folder = tmp_path / "redis"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        client = redis.Redis.from_url(server.url)
        client.set("k", "v")
        assert client.config_get("port")["port"] == "0"  # no TCP port
        for path in folder.rglob("*"):
            if path.is_file():
                assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
        # Without the password (kept in a 0600 file, never on a command line), nothing.
        sock = client.config_get("unixsocket")["unixsocket"]
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(unix_socket_path=sock).get("k")
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                assert server.url.split("password=")[1].split("&")[0].encode() not in cmdline
    finally:
        server.stop()


# -- 5. Versions reveal hidden actions ------------------------------------------------------------


def first_move(decision: dict[str, Any]) -> dict[str, Any]:
    """A fixed answer to any decision: its first option (the first bid for the auction)."""
    move = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field.get("options", [])]
        if field["shape"] == "number":
            move[field["name"]] = field["low"]
        elif decision["move"] == "enter_auction":
            move[field["name"]] = next(v for v in values if str(v).startswith("bid:"))
        else:
            move[field["name"]] = values[0]
    return move


def gallery_streams(server: LiveServer, appraise: bool) -> tuple[dict[str, list[str]], int]:
    """One round of a seeded (rehearsal) Gallery with fixed moves; with `appraise`, the first
    picker appraises a work before picking. The streams every audience but the appraiser got."""
    show, links = new_show(server, NAMES, show="cf")
    public = Client(server.url, "/public", {"show": show})
    phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    for client in [public, *phones]:
        client.wait_for(lambda e, p: e == "view")
    table = server.ok("create_table", show=show, game="tricky_gallery", players=NAMES, seed=5)["table"]
    appraiser = None

    def settle() -> None:
        """Wait until every audience holds its view now. The server sends only what changed, so
        the latest payload holds it (with an older version when nothing changed); a command
        sent before the last fan-out ended could fold two steps into one payload."""
        log = server.log_of(show, table)
        for client, audience in [(public, Audience.public())] + [
                (p, Audience.of_seat(i)) for i, p in enumerate(phones)]:
            own = audience_version(log, audience)
            want = without_version(views_at(log, {own}, audience)[own])
            wait(lambda c=client, w=want: without_version((c.latest() or {}).get("table")) == w,
                 what=f"{audience} to catch up")

    try:
        settle()
        server.ok("start", show=show, table=table)
        settle()
        for _ in range(200):
            view = server.snapshot(show)["tables"][0]["view"]
            if view["state"]["round"] > 1 or view["result"]:
                break
            decision = next(d for d in view["decisions"] if d["move"] not in ("transfer_chips", "appraise"))
            if appraise and appraiser is None and any(d["move"] == "appraise" for d in view["decisions"]):
                decision = next(d for d in view["decisions"] if d["move"] == "appraise")
                appraiser = decision["seat"]
            server.ok("move", show=show, table=table, seat=decision["seat"], move=first_move(decision),
                      sid=uuid.uuid4().hex)
            settle()
        time.sleep(0.3)
        streams = {"public": [json.dumps(p, sort_keys=True, ensure_ascii=False) for _e, p in public.history]}
        for seat, phone in enumerate(phones):
            streams[f"seat:{seat}"] = [json.dumps(p, sort_keys=True, ensure_ascii=False) for _e, p in phone.history]
        return streams, appraiser
    finally:
        for client in [public, *phones]:
            client.close()


def without_version(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if view is None else {**view, "version": None}


def test_an_appraisal_leaves_every_other_stream_byte_identical(tmp_path_factory):
    """A rival counted appraisals (and so chips) from jumps in the public version. The same
    match with and without an appraisal must give the public and every other seat the very
    same bytes."""
    worlds = []
    for appraise in (False, True):
        live = LiveServer(tmp_path_factory.mktemp(f"world-{appraise}")).start()
        try:
            worlds.append(gallery_streams(live, appraise))
        finally:
            live.stop()
    (plain, _), (appraised, appraiser) = worlds
    assert appraiser is not None, "the round offered no appraisal"
    assert plain[f"seat:{appraiser}"] != appraised[f"seat:{appraiser}"]  # the appraiser did learn something
    for audience in plain:
        if audience != f"seat:{appraiser}":
            assert plain[audience] == appraised[audience], f"{audience}'s stream tells of the appraisal"
