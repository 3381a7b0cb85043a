"""Crash safety, live: the server is killed with SIGKILL at random points (and, separately, an
external Redis is), many times in one match. After each restart every acknowledged move is in
the log exactly once, the table continues, and the phones and the projector reconnect by
themselves to the current state. The long variant: bench/crash_soak.py (REFEREE_CRASH_KILLS)."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import uuid
from pathlib import Path

import requests

from referee.store import EmbeddedRedis

from .live import Client, LiveServer, free_port


class Match:
    """A Tricky Coin match played through two phones by a driver that never gives up a move:
    a submission without an acknowledgement is sent again, with the same id, until it has one."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.show = "k" + uuid.uuid4().hex[:8]
        server.ok("create_show", show=self.show, name="크래시")
        for name in ("가", "나"):
            server.ok("add_player", show=self.show, name=name)
        self.table = server.ok("create_table", show=self.show, game="tricky_coin", players=["가", "나"], seed=4)["table"]
        server.ok("start", show=self.show, table=self.table)
        links = server.snapshot(self.show)["links"]
        self.phones = [Client(server.url, "/seat", {"token": link["token"]}, reconnect=True) for link in links]
        self.projector = Client(server.url, "/public", {"show": self.show}, reconnect=True)
        self.acked: dict[str, int] = {}
        self.sent: set[str] = set()
        self.rnd = random.Random(7)

    def while_up(self, ask):
        """What `ask(server)` answers, asked again while the server is being killed or restarted
        (the killer runs while a finished match is checked, too)."""
        deadline = time.monotonic() + 120
        while True:
            try:
                return ask(self.server)
            except (requests.RequestException, AssertionError, ValueError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def dealer_view(self) -> dict:
        return self.while_up(lambda server: server.snapshot(self.show)["tables"][0]["view"])

    def submit(self, seat: int, move: dict) -> None:
        sid = uuid.uuid4().hex
        self.sent.add(sid)
        deadline = time.monotonic() + 120
        last: object = None
        while time.monotonic() < deadline:
            try:
                ack = self.phones[seat].call("submit", {"table": self.table, "move": move, "sid": sid}, timeout=5)
            except Exception as exc:  # disconnected or no answer: the server died under us
                last = exc
                time.sleep(0.2)
                continue
            last = ack
            if ack["ok"]:
                self.acked[sid] = ack["ack"]["version"]  # the seat's own version after it
                return
            if ack["error"]["code"] in ("server/error", "table/busy"):
                time.sleep(0.2)  # Redis is down: the move was not written; try again
                continue
            return  # refused by the rules (a stale view): nothing was written
        phone = self.phones[seat].sio
        raise AssertionError(f"a move could not be delivered for two minutes: last {last!r}; "
                             f"connected={phone.connected} namespaces={phone.namespaces} eio={phone.eio.state}")

    def play_step(self) -> bool:
        view = self.dealer_view()
        if view["result"] is not None:
            return False
        decision = self.rnd.choice(view["decisions"])
        field = decision["fields"][0]
        self.submit(decision["seat"], {"type": decision["move"], field["name"]: self.rnd.choice(field["options"])["value"]})
        return True

    def check(self) -> None:
        entries = self.while_up(lambda server: server.log_of(self.show, self.table))["entries"]
        assert [e["v"] for e in entries] == list(range(1, len(entries) + 1))
        sids = [e["sid"] for e in entries if "sid" in e]
        assert len(sids) == len(set(sids)), "a submission was applied twice"
        by_sid = {e["sid"]: e["v"] for e in entries if "sid" in e}
        for sid in self.acked:
            assert sid in by_sid, f"acknowledged move {sid} is not in the log"
        assert set(by_sid) <= self.sent

    def assert_screens_follow(self) -> None:
        """Phones and projector reconnected by themselves and hold the current version."""
        version = self.dealer_view()["version"]
        for client in (*self.phones, self.projector):
            latest = client.latest()
            if latest is None or latest["version"] < version:
                try:
                    client.wait_for(lambda e, p: e == "view" and p["version"] >= version, timeout=30)
                except TimeoutError:
                    raise AssertionError(
                        f"{client.namespace} stuck at v{latest and latest['version']} < v{version}; "
                        f"connected={client.sio.connected} namespaces={client.sio.namespaces} "
                        f"events={len(client.history)}") from None
            # The view may have come before the last kill: the client may be reconnecting still.
            deadline = time.monotonic() + 30
            while not client.sio.connected:
                assert time.monotonic() < deadline, f"{client.namespace} did not reconnect"
                time.sleep(0.1)

    def close(self) -> None:
        for client in (*self.phones, self.projector):
            client.close()


def stop_redis_of(data_dir: Path) -> None:
    pid_file = data_dir / "redis" / "redis.pid"
    if pid_file.exists():
        try:
            os.kill(int(pid_file.read_text()), signal.SIGTERM)
        except (ProcessLookupError, ValueError):
            pass


KILLS = int(os.environ.get("REFEREE_CRASH_KILLS", "6"))


def test_sigkill_the_server_at_random_points(tmp_path):
    """Matches are played until the server has been killed KILLS times while they ran."""
    server = LiveServer(tmp_path).start()
    kills = 0
    rnd = random.Random(11)
    done = threading.Event()
    matches: list[Match] = []

    def killer() -> None:
        nonlocal server, kills
        while kills < KILLS:
            time.sleep(rnd.uniform(0.2, 1.0))
            server.stop(signal.SIGKILL)
            kills += 1
            server = LiveServer(tmp_path, port=server.port).start()
            for match in matches:
                match.server = server
        done.set()

    def new_match() -> Match:
        for _ in range(100):
            try:
                return Match(server)
            except Exception:  # the server is being killed or restarted right now
                time.sleep(0.3)
        raise AssertionError("could not start a match")

    try:
        matches.append(new_match())
        thread = threading.Thread(target=killer)
        thread.start()
        steps = 0
        while not done.is_set():
            if not matches[-1].play_step():
                matches[-1].check()
                matches.append(new_match())
            steps += 1
            assert steps < 5000
        thread.join()
        while matches[-1].play_step():
            pass
        for match in matches:
            match.check()
            assert match.dealer_view()["result"] is not None
        matches[-1].assert_screens_follow()
    finally:
        for match in matches:
            match.close()
        server.stop()
        stop_redis_of(tmp_path)


def test_sigkill_an_external_redis_loses_no_acknowledged_move(tmp_path):
    redis_dir = tmp_path / "redis-data"
    port = free_port()
    redis_server = EmbeddedRedis(redis_dir, port=port).start()
    server = LiveServer(tmp_path / "server", env={"REDIS_URL": redis_server.url, "REFEREE_SECRET_KEY": "k" * 32})
    (tmp_path / "server").mkdir()
    server.start()
    match = Match(server)
    rnd = random.Random(5)
    try:
        for _ in range(4):
            for _ in range(rnd.randint(3, 10)):
                match.play_step()
            os.kill(redis_server.process.pid, signal.SIGKILL)
            redis_server.process.wait()
            redis_server.stop()  # this handle's use ends with its process (else the next stop leaves one running)
            # While Redis is down the server answers with a clear error; the driver retries.
            stalled = threading.Thread(target=match.play_step)
            stalled.start()
            time.sleep(1.0)
            redis_server = EmbeddedRedis(redis_dir, port=port).start()
            stalled.join(timeout=120)
            assert not stalled.is_alive()
        while match.play_step():
            pass
        match.check()
        match.assert_screens_follow()
    finally:
        match.close()
        server.stop()
        redis_server.stop()
    assert redis_server.process is None, "the restarted redis-server was left running"
