"""The tracking backup (issue 36, docs/backup.md), on one machine: the primary's Redis, the
standby's Redis replicating it, three sentinels (quorum 2), and a referee server that finds the
primary through Sentinel and acknowledges a move only once the replica has it.

The primary's Redis is killed (kill -9) while phones submit without a pause: the sentinels promote
the replica, the server finds it by itself, every acknowledged move is there once, the phones go
on on the same sockets, the console says "백업 없음" and which Redis leads, and once the old
primary comes back (as the standby, by the sentinels' own reconfiguration) "백업 준비됨" again.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
import socketio

from referee.store.connect import client as redis_client
from referee.store.embedded import redis_server_binary

from .live import Client, LiveServer, free_port, wait_until

SERVICE = "referee"
PLAYERS = ["가람", "나래", "다솜"]


class RedisProcess:
    """A redis-server (or, with `sentinel`, a sentinel) on loopback with its own directory."""

    def __init__(self, root: Path, name: str, conf: str, sentinel: bool = False) -> None:
        self.dir = root / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.conf = self.dir / "redis.conf"
        self.conf.write_text(f"port {self.port}\nbind 127.0.0.1\ndir {self.dir}\n{conf}\n")
        self.sentinel = sentinel
        self.proc: subprocess.Popen | None = None

    def start(self) -> RedisProcess:
        args = [redis_server_binary(), str(self.conf)] + (["--sentinel"] if self.sentinel else [])
        self.proc = subprocess.Popen(args, stdout=open(self.dir / "log", "ab"), stderr=subprocess.STDOUT)
        wait_until(lambda: self._pong(), timeout=20, what=f"redis on {self.port}")
        return self

    def _pong(self) -> bool:
        try:
            return bool(redis.Redis(port=self.port, socket_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=2)


class Pair:
    """The two Redis of a venue's two machines and three sentinels."""

    def __init__(self, root: Path) -> None:
        durable = "appendonly yes\nappendfsync everysec\nsave \"\""
        self.main = RedisProcess(root, "main", durable).start()
        self.standby = RedisProcess(root, "standby", f"{durable}\nreplicaof 127.0.0.1 {self.main.port}").start()
        wait_until(lambda: self.main.client().info("replication").get("connected_slaves") == 1, timeout=20,
                   what="the standby replicating")
        watch = (f"sentinel monitor {SERVICE} 127.0.0.1 {self.main.port} 2\n"
                 f"sentinel down-after-milliseconds {SERVICE} 1000\nsentinel failover-timeout {SERVICE} 4000\n"
                 f"sentinel parallel-syncs {SERVICE} 1")
        self.sentinels = [RedisProcess(root, f"sentinel-{i}", watch, sentinel=True).start() for i in range(3)]
        self.url = f"redis+sentinel://{','.join(f'127.0.0.1:{s.port}' for s in self.sentinels)}/0/{SERVICE}"

    def primary_port(self) -> int:
        host, port = self.sentinels[0].client().sentinel_get_master_addr_by_name(SERVICE)
        return int(port)

    def both_up(self) -> None:
        """A Redis an earlier test killed comes back, and the pair has settled: one primary with
        its replica linked, each sentinel naming it and seeing it up, no failover in progress (a
        test starting while they still argue sees no primary at all). The one that came back is
        the replica as a rule, but not always: on a loaded machine the new primary can miss the
        sentinels' pings for their second right then, and they fail over again, to it."""
        for proc in (self.main, self.standby):
            if proc.proc is None or proc.proc.poll() is not None:
                proc.start()
        wait_until(self.settled, timeout=90, what="the pair settled: one primary, its replica linked")

    def settled(self) -> bool:
        try:
            named = {tuple(s.client().sentinel_get_master_addr_by_name(SERVICE)) for s in self.sentinels}
            seen = [s.client().sentinel_master(SERVICE) for s in self.sentinels]
            if len(named) != 1 or any(m["is_master"] is not True or m["is_sdown"] or m["is_odown"]
                                      or "failover_in_progress" in m["flags"] for m in seen):
                return False
            port = int(next(iter(named))[1])
            roles = {proc.port: proc.client().info("replication") for proc in (self.main, self.standby)}
        except (redis.RedisError, TypeError):
            return False
        return (roles[port]["role"] == "master" and roles[port].get("connected_slaves") == 1
                and all(r["role"] == "slave" and r.get("master_link_status") == "up"
                        for other, r in roles.items() if other != port))

    def stop(self) -> None:
        for proc in [*self.sentinels, self.main, self.standby]:
            proc.kill()


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    made = Pair(tmp_path_factory.mktemp("pair"))
    yield made
    made.stop()


def backup(server: LiveServer, show: str) -> dict[str, Any]:
    return server.snapshot(show)["backup"]


def on_the_pair(pair: Pair, tmp_path: Path) -> LiveServer:
    """A referee server that finds the primary through the pair's sentinels (knowing the test
    game of the shows the module's servers leave in the pair)."""
    (tmp_path / "server").mkdir()
    return LiveServer(tmp_path / "server", env={"REDIS_URL": pair.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex,
                                                "REFEREE_EXTRA_GAMES": "tests.counter_game"}).start()


def new_show(server: LiveServer, name: str, players: list[str]) -> str:
    show = "b" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name=name)
    for player in players:
        server.ok("add_player", show=show, name=player)
    return show


def test_the_url_through_sentinel_reaches_the_primary_and_writes_wait_for_the_replica(pair):
    client = redis_client(pair.url, decode_responses=True)
    key = "probe:" + uuid.uuid4().hex
    client.set(key, "1")
    assert pair.main.client().get(key) == "1"
    wait_until(lambda: pair.standby.client().get(key) == "1", what="the replica's copy")
    pooled = redis_client(pair.url, max_connections=2, blocking_timeout=5, decode_responses=True)
    assert pooled.get(key) == "1" and pooled.connection_pool.max_connections == 2


def test_a_killed_primary_loses_no_acknowledged_move_and_the_console_says_so(pair, tmp_path, browser):
    from .test_console import console_page

    server = on_the_pair(pair, tmp_path)
    phones: list[Client] = []
    try:
        show = new_show(server, "백업 쇼", PLAYERS)
        table = server.ok("create_table", show=show, game="counter", players=PLAYERS)["table"]
        server.ok("start", show=show, table=table)
        wait_until(lambda: backup(server, show)["ready"], timeout=20, what="백업 준비됨")
        console = console_page(server, browser, show)
        console.wait_for_selector("#backup[data-state=ready]:has-text('백업 준비됨')")
        before = backup(server, show)
        assert before["replicas"] == 1 and before["primary"] == f"127.0.0.1:{pair.main.port}"
        phones = [Client(server.url, "/seat", {"token": link["token"]}) for link in server.snapshot(show)["links"]]
        acked: list[list[str]] = [[] for _ in phones]
        killed_at: list[float] = []
        after_kill: list[float] = []  # when a move sent after the kill was acknowledged
        stop = threading.Event()

        def play(i: int) -> None:
            n = 0
            while not stop.is_set():
                sid = f"{i}-{n}"
                while not stop.is_set():  # a phone resends the same move until it is answered
                    sent = time.monotonic()
                    try:
                        ack = phones[i].call("submit", {"table": table, "move": {"type": "tick", "by": 1}, "sid": sid},
                                             timeout=10)
                    except Exception:
                        continue
                    if ack["ok"]:
                        acked[i].append(sid)
                        if killed_at and sent > killed_at[0]:
                            after_kill.append(time.monotonic())
                        break
                    time.sleep(0.05)  # refused while Redis is away: the phone tries again
                n += 1

        threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(len(phones))]
        for t in threads:
            t.start()
        wait_until(lambda: min(map(len, acked)) >= 20, timeout=30, what="moves before the kill")
        # Each acknowledged move waited for the standby's copy (WAIT on its own connection).
        assert pair.main.client().info("commandstats")["cmdstat_wait"]["calls"] >= 60
        pair.main.kill()
        killed_at.append(time.monotonic())
        wait_until(lambda: after_kill, timeout=60, what="a move acknowledged by the new primary")
        wait_until(lambda: min(map(len, acked)) >= 40, timeout=30, what="moves after the takeover")
        stop.set()
        for t in threads:
            t.join(timeout=15)
        took = after_kill[0] - killed_at[0]
        # Every acknowledged move is in the log once: the counters are the acknowledged counts.
        state = next(t for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)["view"]["state"]
        assert state["counts"] == [len(a) for a in acked], (state, [len(a) for a in acked])
        assert pair.primary_port() == pair.standby.port
        now = wait_until(lambda: (b := backup(server, show))["primary"] == f"127.0.0.1:{pair.standby.port}" and b,
                         timeout=20, what="the console naming the new primary")
        assert not now["ready"] and now["replicas"] == 0  # 백업 없음
        console.wait_for_selector(f"#backup[data-state=missing]:has-text('백업 없음'):has-text('{pair.standby.port}')")
        print(f"takeover: the first move acknowledged by the new primary {took:.1f} s after the kill")
        # The old main comes back: the sentinels make it the standby, and the console says so.
        pair.main.start()
        wait_until(lambda: backup(server, show)["ready"], timeout=60, what="백업 준비됨 again")
        console.wait_for_selector("#backup[data-state=ready]", timeout=10_000)
        assert pair.main.client().info("replication")["role"] == "slave"
    finally:
        for phone in phones:
            phone.close()
        server.stop()


def test_a_held_reveal_and_a_replay_go_on_across_a_takeover(pair, tmp_path):
    """Tricky Coin with the reveal hold on: round 1's boxes are opened and held. The primary's
    Redis is killed; on the new primary the hold is still there (a projector connecting now, as
    one that comes back does, shows no box), the dealer's release shows the boxes, and a replay
    of the table plays its frames step by step and stops back to the live table. The dealer's
    commands (the hold, the release) are acknowledged once the replica has them too (WAIT)."""
    server = on_the_pair(pair, tmp_path)
    screens: list[Client] = []
    try:
        show = new_show(server, "보류 쇼", ["가", "나"])
        wait_until(lambda: backup(server, show)["ready"], timeout=20, what="백업 준비됨")
        primary = pair.main if pair.primary_port() == pair.main.port else pair.standby

        def waits() -> int:
            return int(primary.client().info("commandstats").get("cmdstat_wait", {}).get("calls", 0))

        before = waits()
        server.ok("settings", show=show, name="reveal_hold", value="on")
        assert waits() == before + 1  # the setting waited for the standby's copy
        table = server.ok("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
        server.ok("start", show=show, table=table)
        server.ok("set_current", show=show, table=table)
        for seat, move in ((0, {"type": "put_coin", "coin": 5}), (1, {"type": "put_coin", "coin": 10}),
                           (0, {"type": "choose_token", "token": "STOP"}),
                           (1, {"type": "choose_token", "token": "STOP"})):
            server.ok("move", show=show, table=table, seat=seat, move=move, sid=uuid.uuid4().hex)
        held = next(t for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)["held"]
        assert held is not None
        old = pair.primary_port()
        primary.kill()
        wait_until(lambda: pair.primary_port() != old, timeout=30, what="a new primary")

        def answered(command: str, **payload: Any) -> dict[str, Any]:
            return wait_until(lambda: (out := server.api(command, **payload))["ok"] and out, timeout=30,
                              what=f"{command} on the new primary")

        # A projector coming back now gets the held view: no box opened. Refused while the
        # server's pool finds the new primary ("server/again"), it connects again, as the page does.
        first = wait_until(lambda: _connected(server.url, show), timeout=30, what="the projector back")
        screens.append(first)
        view = first.wait_for(lambda e, p: e == "view" and p["table"]["table"] == table)
        assert view["table"]["state"]["opened"] == []
        answered("release", show=show, table=table)
        first.wait_for(lambda e, p: e == "view" and p.get("table", {}).get("state", {}).get("opened"))
        replay = answered("replay", show=show, action="start", table=table)["replay"]
        assert replay["count"] > 1
        answered("replay", show=show, action="pause")
        frames = [first.wait_for(lambda e, p: e == "view" and p.get("replay"))["replay"]["index"]]
        answered("replay", show=show, action="step")
        frames.append(first.wait_for(lambda e, p: e == "view" and p.get("replay")
                                     and p["replay"]["index"] > frames[0])["replay"]["index"])
        answered("replay", show=show, action="stop")
        live = first.wait_for(lambda e, p: e == "view" and not p.get("replay"))
        assert live["table"]["state"]["opened"]
    finally:
        for screen in screens:
            screen.close()
        server.stop()


def test_a_pool_follows_the_new_primary_and_drops_its_idle_connections_to_the_old(pair):
    """connect.follow_primary, which every server process runs twice a second through Sentinel:
    once the sentinels name another primary, the pool's idle connections to the old one are
    closed (a pulled cable closes nothing, and a command on one would wait out its timeout)."""
    from referee.store.connect import follow_primary

    pair.both_up()
    pooled = redis_client(pair.url, max_connections=4, blocking_timeout=5, decode_responses=True)
    old = pair.primary_port()
    assert follow_primary(pooled) == f"127.0.0.1:{old}"
    pooled.set("probe:follow", "1")  # a connection to the old primary, idle in the pool now
    idle = [c for c in pooled.connection_pool._connections if c is not None and c._sock is not None]
    assert idle and all(c.port == old for c in idle)
    gone, other = (pair.main, pair.standby) if old == pair.main.port else (pair.standby, pair.main)
    wait_until(lambda: other.client().get("probe:follow") == "1", what="the replica's copy")
    gone.kill()
    wait_until(lambda: pair.primary_port() != old, timeout=30, what="a new primary")
    new = pair.primary_port()
    wait_until(lambda: follow_primary(pooled) == f"127.0.0.1:{new}", timeout=10, what="the sentinels naming it")
    assert all(c._sock is None for c in idle)  # closed, not left to time out
    assert pooled.get("probe:follow") == "1"  # the next command goes to the new primary


def test_the_watch_keeps_the_primary_last_named_while_the_sentinels_give_no_answer(pair):
    """Just after a takeover the sentinels can answer nothing acceptable for a moment (redis-py's
    MasterNotFoundError: an election still settling). The console's 'which Redis leads' must
    not go blank then (a takeover's CI run saw primary None four seconds after it): the watch
    keeps the primary it last heard, and takes the next one the sentinels name."""
    from referee.store.replication import Replication

    pair.both_up()
    store = redis_client(pair.url, decode_responses=True)
    replication = Replication(store)
    replication.check()
    named = f"127.0.0.1:{pair.primary_port()}"
    assert replication.status()["primary"] == named
    manager = store.connection_pool.sentinel_manager
    manager.min_other_sentinels = 99  # no sentinel's answer is acceptable now (3 sentinels watch)
    try:
        replication.check()  # INFO still answers on the pool's open connection
        assert replication.status()["primary"] == named
    finally:
        manager.min_other_sentinels = 0
    replication.check()
    assert replication.status()["primary"] == named


def test_a_nickname_is_saved_once_the_standby_has_it(pair):
    """A phone's nickname, like a prediction, is acknowledged once the replica has it (WAIT)."""
    from referee.server.crowd import Crowd
    from referee.store.replication import Replication

    pair.both_up()
    store = redis_client(pair.url, decode_responses=True)
    replication = Replication(store)
    wait_until(lambda: (replication.check(), replication.ready)[1], timeout=20, what="the standby caught up")
    crowd = Crowd(store, b"k" * 32, f"nick-{uuid.uuid4().hex[:6]}:", replication=replication)
    primary = pair.main if pair.primary_port() == pair.main.port else pair.standby
    waits = lambda: int(primary.client().info("commandstats").get("cmdstat_wait", {}).get("calls", 0))  # noqa: E731
    before = waits()
    assert crowd.set_nickname("s1", crowd.new_device(), "별빛", "10.0.0.9") == "별빛"
    assert waits() == before + 1


def test_a_sentinel_whose_machine_is_gone_holds_a_question_half_a_second(pair):
    """A pulled cable's sentinel answers no connection (its SYNs go nowhere). Asking it first
    who leads must move on to the next sentinel within connect.SENTINEL_TIMEOUT, for the
    commands' clients and for python-socketio's queue alike: redis-py's own connect timeout
    (5 s) held every connection of a takeover that long (bench/takeover.py --cut)."""
    from redis.sentinel import Sentinel

    from referee.store.connect import SENTINEL_TIMEOUT, queue_options, sentinel_of

    pair.both_up()
    # A listener whose backlog is full: the kernel drops further SYNs, as a cut cable does.
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(0)
    filled = []
    for _ in range(4):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(hole.getsockname())
        filled.append(s)
    try:
        hosts = [("127.0.0.1", hole.getsockname()[1])] + [("127.0.0.1", p.port) for p in pair.sentinels]
        url = "redis+sentinel://" + ",".join(f"{h}:{p}" for h, p in hosts) + f"/0/{SERVICE}"
        sentinels, _, _ = sentinel_of(url)
        queue = Sentinel(hosts, **queue_options())  # as python-socketio makes it
        for asked in (sentinels, queue):
            started = time.monotonic()
            assert asked.discover_master(SERVICE)[1] == pair.primary_port()
            assert time.monotonic() - started < SENTINEL_TIMEOUT + 1.5
    finally:
        for s in [*filled, hole]:
            s.close()


def test_the_queue_between_processes_keeps_one_client_and_hears_again_soon_after_a_takeover(pair):
    """python-socketio's queue made a new Redis client (its own pool and sentinels) at every
    failed publish and left the old one's connections open: through a takeover's seconds of
    failing publishes a server ran out of open files (bench/takeover.py --cut). Ours keeps one
    client, which finds the new primary through the sentinels by itself. Its subscriber tries
    again at most a second apart (python-socketio's waited 1, 2, 4 s...): a process hears the
    queue again, its own broadcasts included, within about a second of the new primary."""
    from referee.server.web import SlicedRedisManager
    from referee.store.connect import queue_options

    pair.both_up()
    queue = SlicedRedisManager(pair.url, channel="test-queue", redis_options=queue_options())
    heard: list[tuple[float, Any]] = []
    done = threading.Event()

    class Stopped(BaseException):  # past the subscriber's `except Exception`
        pass

    def listen() -> None:
        with contextlib.suppress(Stopped):
            for data in queue._listen():
                if done.is_set():
                    return
                heard.append((time.monotonic(), json.loads(data)["n"]))

    def stopped() -> None:
        raise Stopped

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    try:
        heard_again_soon(pair, queue, heard)
    finally:  # the listener ends (it would try to subscribe for the rest of the run, logging each time)
        done.set()
        queue._redis_connect = stopped  # its next try, if it is between two
        queue._publish({"n": -1})  # its next message, if it is listening
        listener.join(timeout=10)
    assert not listener.is_alive()


def heard_again_soon(pair: Any, queue: Any, heard: list[tuple[float, Any]]) -> None:
    """The test's takeover: the primary killed while `queue` publishes, its listener (filling
    `heard`) subscribed again soon after the new primary, with one client and no files left open."""
    wait_until(lambda: queue._publish({"n": 0}) and heard, what="the subscriber hearing the queue")
    made = queue.redis
    files = len(os.listdir("/proc/self/fd"))
    old = pair.primary_port()
    (pair.main if old == pair.main.port else pair.standby).kill()
    failed, deadline = 0, time.monotonic() + 60
    while (out := queue._publish({"n": 1})) is None or pair.primary_port() == old:  # None: given up
        failed += out is None
        assert time.monotonic() < deadline, "no publish reached the new primary"
    back = time.monotonic()
    assert failed > 0
    assert queue.redis is made
    n = 2
    while not any(said >= 2 for _, said in heard):
        queue._publish({"n": n})
        n += 1
        assert time.monotonic() - back < 30, "the subscriber never came back"
        time.sleep(0.1)
    again = next(at for at, said in heard if said >= 2)
    assert again - back < 2.5, f"the subscriber heard the queue again {again - back:.1f} s after the new primary"
    assert len(os.listdir("/proc/self/fd")) - files < 10, "connections left open"


def test_a_connection_while_redis_is_away_waits_a_moment_then_is_refused_as_one_to_try_again(tmp_path):
    """A screen connecting while its server's Redis is away (a takeover, a restart) waits
    while its connect handler tries again (edge/wiring.AGAIN_WAIT): Redis back within it, the
    screen is admitted; not back, it is refused with "server/again", which the pages answer by
    connecting again after a second or two (static/live.js), instead of a connection left
    unanswered; once Redis is back the same screen connects."""
    store = RedisProcess(tmp_path, "redis", "appendonly yes\nappendfsync always\nsave \"\"").start()
    (tmp_path / "server").mkdir()
    server = LiveServer(tmp_path / "server", env={"REDIS_URL": f"redis://127.0.0.1:{store.port}/0"}).start()
    try:
        show = new_show(server, "잠깐 쇼", ["가", "나"])
        Client(server.url, "/public", {"show": show}).close()
        store.kill()
        waited: list[Any] = []
        screen = socketio.Client(reconnection=False)
        screen.on("connect_error", waited.append, namespace="/public")
        connecting = threading.Thread(target=screen.connect, args=(server.url,), daemon=True,
                                      kwargs={"namespaces": ["/public"], "auth": {"show": show},
                                              "transports": ["websocket"], "wait_timeout": 10})
        connecting.start()
        time.sleep(0.3)
        store.start()  # back within the handler's wait
        connecting.join(timeout=15)
        assert screen.connected and "/public" in screen.namespaces and waited == []
        screen.disconnect()
        store.kill()
        refused: list[Any] = []
        screen = socketio.Client(reconnection=False)
        screen.on("connect_error", refused.append, namespace="/public")
        with pytest.raises(socketio.exceptions.ConnectionError):
            screen.connect(server.url, namespaces=["/public"], auth={"show": show}, transports=["websocket"],
                           wait_timeout=10)
        screen.disconnect()
        assert [r["data"]["code"] for r in refused] == ["server/again"], refused
        store.start()
        back = wait_until(lambda: _connected(server.url, show), timeout=20, what="the screen connected again")
        back.close()
    finally:
        server.stop()
        store.kill()


def _connected(url: str, show: str) -> Client | None:
    try:
        return Client(url, "/public", {"show": show})
    except socketio.exceptions.ConnectionError:
        return None
