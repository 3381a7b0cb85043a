"""Issue 9: what an attack on the live server found, one regression test (or more) per finding.

Each test failed on the code before its fix (the note of the issue says which); docs/security.md
points here. The attacker is a curious player with a laptop, someone on the venue Wi-Fi, a local
user on the server machine, or an audience flood.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
import unicodedata
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from referee.kernel import Audience, Rng
from referee.server.service import player_room
from referee.store import EmbeddedRedis

from .live import PIN, Client, LiveServer, audience_version, free_port, views_at, wait_until, within_one_window
from .test_crowd_live import hall_phone, predict

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
    for _ in range(4):
        table = server.ok("create_table", show=show, game="tricky_gallery", players=NAMES)["table"]
        server.ok("start", show=show, table=table)
        log = server.log_of(show, table)
        assert log["header"]["seed"] is None
        dealt = json.dumps([e["event"] for e in log["entries"]], sort_keys=True)
        hands.add(dealt)
    # Same players, same options, different deals. Gallery's deal has 1,680 outcomes, so two
    # deals may agree by chance (it happened once in CI); four that all agree never would.
    assert len(hands) >= 2


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
    new = None
    try:
        old.wait_for(lambda e, p: e == "view")
        a.ok("reissue", show=show, player=0)  # the re-issue goes through A
        wait(lambda: not old.sio.connected, what="the old card's socket to be ended")
        heard = len(old.history)
        new = Client(b.url, "/seat", {"token": a.snapshot(show)["links"][0]["token"]})  # the new card, on B too
        new.wait_for(lambda e, p: e == "view")
        a.ok("start", show=show, table=table)
        a.ok("move", show=show, table=table, seat=0, move={"type": "put_coin", "coin": 20}, sid="s1")
        # The player's view of the move has reached B's phones (the new card's): the old one got nothing.
        new.wait_for(lambda e, p: e == "view" and p["table"] and p["table"]["state"]["seats"][0]["box_count"] == 1)
        assert len(old.history) == heard, "the old card still receives the player's views"
    finally:
        for client in (old, new):
            if client is not None:
                client.close()


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
    """A fixed answer to any decision: its first option, the lowest number."""
    move = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field.get("options", [])]
        if field["shape"] == "number":
            move[field["name"]] = field["low"]
        else:
            move[field["name"]] = values[0]
    return move


def gallery_streams(server: LiveServer, appraise: bool, late: bool = False) -> tuple[dict[str, list[str]], int]:
    """One round of a seeded (rehearsal) Gallery with fixed moves; with `appraise`, the first
    picker appraises a work before picking. The streams every audience but the appraiser got.
    With `late`, the last seat's phone opens only when the first appraisal is offered (until
    then the fan-outs build no view for it)."""
    show, links = new_show(server, NAMES, show="cf")
    phones: list[Any] = [Client(server.url, "/seat", {"token": link["token"]}) for link in links]
    for client in phones:
        client.wait_for(lambda e, p: e == "view")
    if late:
        phones[-1].close()
        phones[-1] = None
    time.sleep(1.0)  # the join screen's updates for the phones coming in are sent: a quiet start
    public = Client(server.url, "/public", {"show": show})
    public.wait_for(lambda e, p: e == "view")
    table = server.ok("create_table", show=show, game="tricky_gallery", players=NAMES, seed=5)["table"]
    appraiser = None

    def settle() -> None:
        """Wait until every audience holds its view now. The server sends only what changed, so
        the latest payload holds it (with an older version when nothing changed); a command
        sent before the last fan-out ended could fold two steps into one payload."""
        log = server.log_of(show, table)
        for client, audience in [(public, Audience.public())] + [
                (p, Audience.of_seat(i)) for i, p in enumerate(phones) if p is not None]:
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
            offered = next((d for d in view["decisions"] if d["move"] == "appraise"), None)
            if phones[-1] is None and offered is not None:  # the late phone (the last seat's) opens now
                phones[-1] = Client(server.url, "/seat", {"token": links[-1]["token"]})
                phones[-1].wait_for(lambda e, p: e == "view")
                settle()
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
            if client is not None:
                client.close()


def without_version(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if view is None else {**view, "version": None}


def test_an_appraisal_leaves_every_other_stream_byte_identical(tmp_path_factory):
    """A rival counted appraisals (and so chips) from jumps in the public version. The same
    match with and without an appraisal must give the public and every other seat the very
    same bytes."""
    worlds = []
    port = free_port()  # the same address in both worlds (the join screen shows it)
    for appraise in (False, True):
        live = LiveServer(tmp_path_factory.mktemp(f"world-{appraise}"), port=port).start()
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


def test_a_phone_that_opens_late_hears_nothing_of_an_appraisal(tmp_path_factory):
    """Issue 17 spares the views of players with no phone open; the first view of a phone that
    opens later must count as sent, or the next fan-out sends it again and the repeat tells
    that something hidden (an appraisal) happened."""
    worlds = []
    port = free_port()
    for appraise in (False, True):
        live = LiveServer(tmp_path_factory.mktemp(f"late-{appraise}"), port=port).start()
        try:
            worlds.append(gallery_streams(live, appraise, late=True))
        finally:
            live.stop()
    (plain, _), (appraised, appraiser) = worlds
    assert appraiser is not None and appraiser != len(NAMES) - 1
    late = f"seat:{len(NAMES) - 1}"
    assert plain[late] and plain[late] == appraised[late], "the late phone's stream tells of the appraisal"


def test_a_second_device_opening_during_a_fan_out_leaves_the_first_one_its_update(service_on_redis):
    """A player's first phone is open; a move the player may see is being fanned out when the
    same card opens on a second device. The second device's first view must not count as sent
    to the whole room: the fan-out would then find it recorded and skip the room, and the
    first phone would keep the old view until the next change."""
    here = service_on_redis
    service, link = here.service, here.link(0)
    room = player_room("s", 0, link.version)
    first_view = service.seat_welcome(link, service.seat_socket(link, "first", True))
    fan_out = service._publish_changed

    def second_device_opens_meanwhile(moment, rooms, **sent):
        if any(r == room for _, r, _ in rooms):
            service.seat_welcome(link, service.seat_socket(link, "second", True))
        fan_out(moment, rooms, **sent)

    service._publish_changed = second_device_opens_meanwhile
    del here.sent[:]
    here.command("move", show="s", table=here.table, seat=1, move={"type": "put_coin", "coin": 5})
    views = [payload for _, r, event, payload in here.sent if r == room and event == "view"]
    assert len(views) == 1 and views[0] != first_view, "the first phone missed the update"


# -- 3 (cont.) and 8. Redis outside the referee: authentication, ACL, TLS, compose ---------------

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
SYSTEM_REDIS = "/usr/bin/redis-server"  # Debian's: it has TLS and ACL files (scripts/setup installs it)


def start_redis(conf: str, workdir: Path) -> subprocess.Popen:
    (workdir / "redis.conf").write_text(conf)
    proc = subprocess.Popen([SYSTEM_REDIS, str(workdir / "redis.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    assert proc.poll() is None, (workdir / "redis.log").read_text() if (workdir / "redis.log").exists() else conf
    return proc


def deploy_conf(name: str, workdir: Path, bind: str, port: int, extra: str = "") -> str:
    """deploy/redis/<name> made runnable here: its dir, ACL file and port, everything else as shipped."""
    conf = (DEPLOY / "redis" / name).read_text()
    conf = re.sub(r"(?m)^bind .*$", f"bind {bind}", conf)
    conf = re.sub(r"(?m)^port .*$", f"port {port}", conf)
    conf = re.sub(r"(?m)^dir .*$", f"dir {workdir}", conf)
    conf = re.sub(r"(?m)^aclfile .*$", f"aclfile {workdir / 'referee.acl'}", conf)
    return conf + f"\nlogfile {workdir / 'redis.log'}\n" + extra


def make_acl(workdir: Path, where: str) -> str:
    out = subprocess.run([str(DEPLOY / "redis" / "make-acl"), str(workdir / "referee.acl"), where],
                         capture_output=True, text=True, check=True).stdout
    assert stat.S_IMODE((workdir / "referee.acl").stat().st_mode) == 0o600
    return out.strip().removeprefix("REDIS_URL=")


def lan_address() -> str:
    from referee.server.entry import lan_address as found

    return found()


def test_the_shipped_redis_config_needs_the_password_and_allows_only_the_referee_commands(tmp_path):
    port = free_port()
    url = make_acl(tmp_path, f"127.0.0.1:{port}")
    proc = start_redis(deploy_conf("referee.conf", tmp_path, "127.0.0.1", port), tmp_path)
    try:
        with pytest.raises((redis.exceptions.AuthenticationError, redis.exceptions.ResponseError)):
            redis.Redis(port=port).get("ref:x")
        referee = redis.Redis.from_url(url)
        for forbidden in (lambda: referee.keys("*"), lambda: referee.flushall(), lambda: referee.config_get("*"),
                          lambda: referee.get("other:key")):
            with pytest.raises(redis.exceptions.NoPermissionError):
                forbidden()
        # A whole show runs on it: the ACL lets through every command the referee sends.
        (tmp_path / "server").mkdir()
        live = LiveServer(tmp_path / "server", env={"REDIS_URL": url, "REFEREE_SECRET_KEY": "k" * 32}).start()
        try:
            play_a_coin_round(live)
        finally:
            live.stop()
        log = (tmp_path / "server" / f"server-{live.port}.log").read_text()
        assert "NOPERM" not in log and "Traceback" not in log
    finally:
        proc.terminate()
        proc.wait()


def play_a_coin_round(live: LiveServer) -> None:
    show, links = new_show(live, ["가", "나"])
    table = live.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    projector = Client(live.url, "/public", {"show": show}, events=("view", "crowd"))
    phones = [Client(live.url, "/seat", {"token": link["token"]}) for link in links]
    hall = None
    try:
        live.ok("start", show=show, table=table)
        # The hall plays along: a question, one audience phone's prediction, the board.
        live.ok("set_current", show=show, table=table)
        question = live.ok("ask_question", show=show, table=table, key="coin_round")["question"]
        hall, device = hall_phone(live, show)
        assert predict(live, show, device, question, 1)["ok"]
        for i, phone in enumerate(phones):
            assert phone.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 5 * (i + 1)},
                                         "sid": f"c{i}"})["ok"]
        for i, phone in enumerate(phones):
            assert phone.call("submit", {"table": table, "move": {"type": "choose_token", "token": "STOP"},
                                         "sid": f"t{i}"})["ok"]
        opened = projector.wait_for(lambda e, p: e == "view" and p["table"] and p["table"]["state"]["opened"])
        assert opened["table"]["state"]["opened"][0]["boxes"] == [[5], [10]]
        # The question is resolved once the view shows the answer; its crowd event may come before
        # or after that view (the fan-out is deferred, the crowd's hook is not): read the latest.
        resolved = wait_until(lambda: (c := projector.latest("crowd")) and c["questions"][-1]["state"] == "resolved"
                              and c, what="the question resolved on the projector")
        assert resolved["questions"][-1]["counts"][1] == 1 and resolved["board"][0]["points"] == 1
        assert hall.call("me")["me"]["rank"] == 1
        live.ok("reissue", show=show, player=0)
    finally:
        for client in (projector, *phones, *([hall] if hall else [])):
            client.close()


def test_the_compose_redis_takes_other_hosts_with_the_password_only(tmp_path):
    """compose.yaml's Redis listens beyond loopback (the referee containers reach it by name)
    and refuses every connection without the referee user's password."""
    import yaml

    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    redis_service = compose["services"]["redis"]
    assert "ports" not in redis_service  # never published outside the compose network
    mounted = {v.split(":")[1]: v.split(":")[0] for v in redis_service["volumes"] if v.startswith("./")}
    assert mounted["/etc/redis/compose.conf"] == "./redis/compose.conf"
    assert mounted["/etc/redis/referee.acl"] == "./redis/referee.acl"
    for name in ("referee-1", "referee-2"):
        env = {**compose["services"]["referee-1"]["environment"], **compose["services"][name].get("environment", {})}
        assert env["REDIS_URL"] == "${REDIS_URL}"  # the URL make-acl prints, with the password
    host = lan_address()
    if host.startswith("127."):
        pytest.skip("this machine has no address but loopback")
    port = free_port()
    url = make_acl(tmp_path, f"{host}:{port}")
    proc = start_redis(deploy_conf("compose.conf", tmp_path, "* -::*", port), tmp_path)
    try:
        assert redis.Redis.from_url(url).ping()  # from another address than loopback
        with pytest.raises((redis.exceptions.AuthenticationError, redis.exceptions.ResponseError)):
            redis.Redis(host=host, port=port).get("ref:x")
        with pytest.raises(redis.exceptions.AuthenticationError):
            redis.Redis(host=host, port=port, username="referee", password="wrong").ping()
    finally:
        proc.terminate()
        proc.wait()


def test_an_external_redis_over_tls_with_a_password(tmp_path):
    """REDIS_URL may be rediss:// (with the authority's certificate) and carry the password."""
    certs = tmp_path / "tls"
    subprocess.run([str(DEPLOY / "tls" / "make-venue-cert"), str(certs), "127.0.0.1"], check=True, capture_output=True)
    port = free_port()
    url = make_acl(tmp_path, f"127.0.0.1:{port}").replace("redis://", "rediss://") + f"?ssl_ca_certs={certs}/ca.crt"
    conf = deploy_conf("referee.conf", tmp_path, "127.0.0.1", 0,
                       f"tls-port {port}\ntls-cert-file {certs}/server.crt\ntls-key-file {certs}/server.key\n"
                       f"tls-ca-cert-file {certs}/ca.crt\ntls-auth-clients no\n")
    proc = start_redis(conf, tmp_path)
    try:
        (tmp_path / "server").mkdir()
        live = LiveServer(tmp_path / "server", env={"REDIS_URL": url, "REFEREE_SECRET_KEY": "k" * 32}).start()
        try:
            play_a_coin_round(live)
        finally:
            live.stop()
    finally:
        proc.terminate()
        proc.wait()


# -- 4. Audience load breaks phone moves ---------------------------------------------------------


def test_an_audience_flood_never_fails_a_phone_move(server):
    """400 projector screens connecting at once and 500 page loads while two phones play: every
    page loads, every screen connects and every move is acknowledged."""
    import asyncio
    import concurrent.futures

    import aiohttp
    import socketio

    show, links = new_show(server, ["가", "나"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    server.ok("start", show=show, table=table)

    async def flood() -> tuple[list, list, list]:
        screens = [socketio.AsyncClient(reconnection=False) for _ in range(400)]
        phones = [socketio.AsyncClient(reconnection=False) for _ in links]
        for phone, link in zip(phones, links, strict=True):
            await phone.connect(server.url, namespaces=["/seat"], auth={"token": link["token"]},
                                transports=["websocket"])
        acks: list = []

        async def play() -> None:
            await asyncio.sleep(0.1)
            for rnd in range(4):
                for i, phone in enumerate(phones):
                    acks.append(await phone.call("submit", {"table": table, "sid": f"p{rnd}-{i}", "move": {
                        "type": "put_coin", "coin": 1}}, namespace="/seat", timeout=60))
                for i, phone in enumerate(phones):
                    acks.append(await phone.call("submit", {"table": table, "sid": f"t{rnd}-{i}", "move": {
                        "type": "choose_token", "token": "STOP"}}, namespace="/seat", timeout=60))

        async def connect(screen: Any) -> str:
            try:
                await screen.connect(server.url, namespaces=["/public"], auth={"show": show},
                                     transports=["websocket"], wait_timeout=60)
                return "ok"
            except Exception as exc:  # noqa: BLE001 - counted and reported below
                return repr(exc)

        async with aiohttp.ClientSession() as http:
            async def page() -> int:
                async with http.get(f"{server.url}/display/{show}") as resp:
                    return resp.status

            results = await asyncio.gather(play(), *(connect(s) for s in screens), *(page() for _ in range(500)))
        for client in (*screens, *phones):
            await client.disconnect()
        return acks, [r for r in results[1:401]], [r for r in results[401:]]

    # In a thread of its own: once a Chromium test has run, Playwright's loop runs in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        acks, connects, pages = pool.submit(asyncio.run, flood()).result()
    assert len(acks) == 16 and all(a["ok"] for a in acks), [a for a in acks if not a["ok"]][:3]
    assert all(c == "ok" for c in connects), [c for c in connects if c != "ok"][:3]
    assert set(pages) == {200}, sorted(set(pages))
    log = (server.data_dir / f"server-{server.port}.log").read_text()
    assert "Traceback" not in log and "Too many connections" not in log


# -- 6. Staff sessions cannot be revoked ------------------------------------------------------------


def logged_in(url: str, pin: str = PIN, show: str = "") -> requests.Session:
    browser = requests.Session()
    form = browser.get(f"{url}/console/login", timeout=10).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form).group(1)
    done = browser.post(f"{url}/console/login", data={"csrf": csrf, "pin": pin, "show": show}, timeout=10)
    assert done.ok and "/console" in done.url, done.text[:300]
    return browser


def console_csrf(browser: requests.Session, url: str, show: str) -> str:
    page = browser.get(f"{url}/console/{show}", timeout=10).text
    return re.search(r'data-csrf="([^"]+)"', page).group(1)


def test_logout_ends_the_session_for_a_copied_cookie_too(server):
    show, _ = new_show(server, ["가"])
    browser = logged_in(server.url)
    csrf = console_csrf(browser, server.url, show)
    thief = requests.Session()
    thief.cookies.update(browser.cookies)  # copied before logout
    ok = thief.post(f"{server.url}/api/add_player", json={"show": show, "name": "나"},
                    headers={"X-CSRF-Token": csrf}, timeout=10).json()
    assert ok["ok"], ok
    home = browser.get(f"{server.url}/console", timeout=10).text
    browser.post(f"{server.url}/console/logout", data={"csrf": re.search(r'name="csrf" value="([^"]+)"', home).group(1)},
                 timeout=10)
    after = thief.post(f"{server.url}/api/add_player", json={"show": show, "name": "다"},
                       headers={"X-CSRF-Token": csrf}, timeout=10)
    assert after.status_code == 401 and after.json()["error"]["code"] == "auth/staff_only"
    assert "다" not in server.snapshot(show)["show"]["roster"]


def test_a_new_pin_ends_every_staff_session(tmp_path):
    live = LiveServer(tmp_path).start()
    try:
        show, _ = new_show(live, ["가"])
        browser = logged_in(live.url)
        assert browser.get(f"{live.url}/api/shows/{show}", timeout=10).json()["error"]["code"] == "auth/csrf"
        csrf = console_csrf(browser, live.url, show)
        assert browser.get(f"{live.url}/api/shows/{show}", headers={"X-CSRF-Token": csrf}, timeout=10).ok
    finally:
        live.stop()
    restarted = LiveServer(tmp_path, port=live.port, pin="8642").start()
    try:
        stale = browser.get(f"{live.url}/api/shows/{show}", headers={"X-CSRF-Token": csrf}, timeout=10)
        assert stale.status_code == 401, stale.text[:200]
        assert "links" not in stale.text
    finally:
        restarted.stop()


def test_a_console_socket_needs_the_pages_token_and_stops_with_the_session(server):
    import socketio

    show, _ = new_show(server, ["가"])
    browser = logged_in(server.url)
    csrf = console_csrf(browser, server.url, show)
    cookie = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
    with pytest.raises(socketio.exceptions.ConnectionError):  # the cookie alone: another site's page
        Client(server.url, "/dealer", {"show": show}, events=("show",), headers={"Cookie": cookie})
    console = Client(server.url, "/dealer", {"show": show, "csrf": csrf}, events=("show",), headers={"Cookie": cookie})
    try:
        assert console.call("command", {"command": "add_player", "args": {"show": show, "name": "나"}})["ok"]
        home = browser.get(f"{server.url}/console", timeout=10).text
        browser.post(f"{server.url}/console/logout",
                     data={"csrf": re.search(r'name="csrf" value="([^"]+)"', home).group(1)}, timeout=10)
        # The logout cuts the login's console (issue 27; before, it stayed open and every command
        # was refused); test_doors.py checks a PIN change cuts it on every process.
        wait(lambda: not console.sio.connected, what="the logged-out console to be cut")
    finally:
        console.close()


# -- 7. Racing adds duplicate a player ---------------------------------------------------------------


def test_racing_adds_make_one_player_and_names_are_normalised(server):
    from concurrent.futures import ThreadPoolExecutor

    show, _ = new_show(server, [])
    with ThreadPoolExecutor(8) as pool:
        outs = list(pool.map(lambda _: server.api("add_player", show=show, name="홍길동"), range(8)))
    assert sum(o["ok"] for o in outs) == 1
    assert {o["error"]["code"] for o in outs if not o["ok"]} == {"show/duplicate_player"}
    # The same name in another Unicode form, or with extra spaces, is the same player.
    decomposed = unicodedata.normalize("NFD", "홍길동")
    assert server.api("add_player", show=show, name=f"  {decomposed} ")["error"]["code"] == "show/duplicate_player"
    for bad in ("홍\u200b길동", "\u202e동길홍", "홍\x00", "\u2066x\u2069"):
        out = server.api("add_player", show=show, name=bad)
        assert out["error"]["code"] == "show/bad_player_name", (bad, out)
        assert "U+" in out["error"]["ko"] and "U+" in out["error"]["en"]
    assert server.snapshot(show)["show"]["roster"] == ["홍길동"]


# -- 9. Socket.IO accepts any Origin -----------------------------------------------------------------


def test_sockets_from_other_sites_pages_are_refused(server, tmp_path):
    """A page on another site may not open sockets (it could read the projector's stream from a
    visitor's browser, or drive a console through its cookie). Long-polling clients send the
    Origin header exactly as given, as a browser does."""
    import socketio

    def screen(url: str, show: str, origin: str) -> None:
        Client(url, "/public", {"show": show}, transports=("polling",), headers={"Origin": origin}).close()

    show, _ = new_show(server, ["가"])
    with pytest.raises(socketio.exceptions.ConnectionError):
        screen(server.url, show, "http://evil.example")
    screen(server.url, show, server.url)
    obs = LiveServer(tmp_path, env={"REFEREE_ORIGINS": "http://obs.local:8080"}).start()
    try:
        show, _ = new_show(obs, ["가"])
        screen(obs.url, show, "http://obs.local:8080")
        with pytest.raises(socketio.exceptions.ConnectionError):
            screen(obs.url, show, "http://evil.example")
    finally:
        obs.stop()


# -- 10. Rate limits: counted before checked, off the event loop, forwarded addresses -------------


def test_a_burst_gets_no_more_pin_checks_than_the_limit(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    live = LiveServer(tmp_path, env={"REFEREE_RATE_LOGIN": "10/60"}).start()
    try:
        show, _ = new_show(live, ["가"])

        def guess(i: int) -> str:
            out = requests.post(f"{live.url}/api/start", json={"show": show, "table": "x"},
                                headers={"X-Staff-Pin": f"{i:04d}9"}, timeout=30).json()
            return out["error"]["code"]

        within_one_window(60, needed=20)  # the 300 guesses in one window of the limit (10 a minute)
        with ThreadPoolExecutor(30) as pool:
            codes = list(pool.map(guess, range(300)))
        assert codes.count("auth/bad_pin") == 10, {c: codes.count(c) for c in set(codes)}
        assert codes.count("rate/limited") == 290
    finally:
        live.stop()


def test_forwarded_addresses_count_only_from_the_configured_proxy(tmp_path):
    live = LiveServer(tmp_path, env={"REFEREE_PROXIED": "1", "REFEREE_TRUSTED_PROXIES": "10.99.0.1",
                                     "REFEREE_RATE_LOGIN": "3/60"}).start()
    try:
        within_one_window(60)  # the six in one window of the limit
        codes = [requests.post(f"{live.url}/api/start", json={"show": "x", "table": "x"}, timeout=10,
                               headers={"X-Staff-Pin": "00000", "X-Forwarded-For": f"10.0.0.{i}"}).json()["error"]["code"]
                 for i in range(6)]
        assert codes == ["auth/bad_pin"] * 3 + ["rate/limited"] * 3  # one client, whatever it claims
    finally:
        live.stop()


def test_pbkdf2_runs_off_the_event_loop():
    from referee.server.shows import Shows, hash_pin

    class Fake:
        def get(self, key: str) -> str:
            return hash_pin("2468")

        def register_script(self, script: str) -> None:
            return None

    calls: list[str] = []

    def offload(fn, *args):
        calls.append(fn.__name__)
        return fn(*args)

    shows = Shows(Fake(), b"k", offload=offload)
    assert not shows.check_staff_pin("1111") and shows.check_staff_pin("2468")
    assert calls == ["pin_matches", "pin_matches"]
    from referee.server import entry

    assert "tpool.execute" in Path(entry.__file__).read_text()  # eventlet: the thread pool


# -- 11. Malformed text and nesting give clear errors -------------------------------------------------


def test_lone_surrogates_and_deep_nesting_get_clear_errors(server):
    show, links = new_show(server, ["가", "나"])
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    server.ok("start", show=show, table=table)
    body = '{"show": "' + show + '", "name": "\\ud800x"}'
    out = requests.post(f"{server.url}/api/add_player", data=body, timeout=10,
                        headers={"X-Staff-Pin": PIN, "Content-Type": "application/json"})
    assert out.status_code == 400 and out.json()["error"]["code"] == "api/bad_text", out.text[:300]
    deep = "[" * 30_000 + "]" * 30_000  # under 64 kB (a larger body is refused unread: test_doors.py)
    out = requests.post(f"{server.url}/api/add_player", data=deep, timeout=10,
                        headers={"X-Staff-Pin": PIN, "Content-Type": "application/json"})
    assert out.status_code == 400 and out.json()["error"]["code"] == "api/bad_payload", out.text[:300]
    phone = Client(server.url, "/seat", {"token": links[0]["token"]})
    try:
        ack = phone.call("submit", {"table": table, "sid": "\ud800", "move": {"type": "put_coin", "coin": 1}})
        assert ack["error"]["code"] == "api/bad_text"
        nested: Any = 1
        for _ in range(60):
            nested = [nested]
        assert phone.call("submit", {"table": table, "sid": "n", "move": nested})["error"]["code"] == "api/too_deep"
    finally:
        phone.close()
    # A raw packet nested 30,000 deep: a clear error in the acknowledgement, no trace.
    import websocket

    ws = websocket.create_connection(server.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket")
    try:
        assert ws.recv().startswith("0")
        ws.send("40/seat," + json.dumps({"token": links[1]["token"]}))
        # The connect's answer, the devices count, the server time and the first view, in any
        # order (the client buffers events that come before the answer).
        ws.settimeout(10)
        received = [ws.recv()]
        while not received[-1].startswith("40/seat,") and len(received) < 8:
            received.append(ws.recv())
        assert received[-1].startswith("40/seat,"), received
        ws.send('42/seat,7["submit",' + deep + "]")
        answer = ws.recv()
        while not answer.startswith("43/seat,7"):
            answer = ws.recv()
        assert json.loads(answer[len("43/seat,7"):])[0]["error"]["code"] == "api/bad_payload", answer
    finally:
        ws.close()
    log = (server.data_dir / f"server-{server.port}.log").read_text()
    assert "Traceback" not in log, log[-2000:]


# -- 12. TLS, logs, CSP, the PIN, and the embedded Redis after a crash -------------------------------


def test_content_security_policy_connects_to_this_server_only(server):
    csp = requests.get(f"{server.url}/console/login", timeout=10).headers["Content-Security-Policy"]
    assert "connect-src 'self';" in csp and "ws:" not in csp and "wss:" not in csp


def test_cookies_are_secure_behind_https_only(tmp_path):
    live = LiveServer(tmp_path, env={"REFEREE_PROXIED": "1"}).start()  # this test is its proxy (127.0.0.1)
    try:
        show, links = new_show(live, ["가"])
        token = links[0]["token"]
        https = requests.get(f"{live.url}/p/{token}", allow_redirects=False, timeout=10,
                             headers={"X-Forwarded-Proto": "https"})
        plain = requests.get(f"{live.url}/p/{token}", allow_redirects=False, timeout=10)
        assert "Secure" in https.headers["Set-Cookie"] and "Secure" not in plain.headers["Set-Cookie"]
        login = requests.get(f"{live.url}/console/login", timeout=10, headers={"X-Forwarded-Proto": "https"})
        assert "Secure" in login.headers["Set-Cookie"]
    finally:
        live.stop()


def test_the_staff_pin_is_never_printed_but_by_the_demo(tmp_path):
    port = free_port()
    for given in (["--pin", "97531"], []):
        data = tmp_path / ("given" if given else "made")
        data.mkdir()
        proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--data-dir", str(data), *given], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        try:
            first = proc.stdout.readline() + proc.stdout.readline()
        finally:
            proc.terminate()
            out = first + proc.communicate(timeout=20)[0]
        assert "console" in out
        # Stopped right after it spoke, its embedded Redis stopped with it.
        redis_pid = int((data / "redis" / "redis.pid").read_text()) if (data / "redis" / "redis.pid").exists() else 0
        deadline = time.monotonic() + 10
        while redis_pid and time.monotonic() < deadline:
            try:
                os.kill(redis_pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            assert not redis_pid, "the server's embedded Redis outlived a SIGTERM at start-up"
        if given:
            assert "97531" not in out
        else:
            pin_file = data / "staff-pin.txt"
            assert stat.S_IMODE(pin_file.stat().st_mode) == 0o600
            pin = pin_file.read_text().strip()
            assert pin.isdigit() and pin not in out and str(pin_file) in out


def test_an_embedded_redis_left_by_a_crash_is_stopped_by_the_next_server(tmp_path):
    crashed = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from referee.store import EmbeddedRedis; "
        f"EmbeddedRedis({str(tmp_path)!r}).start(); print('up', flush=True); time.sleep(60)")],
        stdout=subprocess.PIPE, text=True)
    assert crashed.stdout.readline().strip() == "up"
    crashed.kill()  # SIGKILL: the Redis it started keeps running
    crashed.wait()
    pid = int((tmp_path / "redis" / "redis.pid").read_text())
    os.kill(pid, 0)
    adopted = EmbeddedRedis(tmp_path).start()
    assert adopted.process is None  # found running, not started
    adopted.stop()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the adopted Redis still runs after a clean stop")
