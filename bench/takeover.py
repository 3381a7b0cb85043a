"""The tracking backup's takeover, measured (issue 36, docs/backup.md).

    python3 bench/takeover.py [--runs N] [--phones N] [--cut] [--json FILE]

A venue made of network namespaces on this machine (root; `ip netns`): a switch (a bridge), the
main and the standby laptops (each: its Redis, a sentinel, a referee server, keepalived holding
the room's address), a third machine (the third sentinel) and the hall (the phones and two
projectors, Socket.IO clients of the room's address only). Traffic goes only between the
namespaces the script makes, and they are removed at the end.

Mid-show every process of the main machine is killed at once (`--cut`: its cable is pulled
instead). Printed per run, in words and as JSON: `takeover_s` (the kill to the first move the
standby acknowledges), `acked_lost` (acknowledged moves not in the log), `applied_twice` (moves
in the log more often than acknowledged), `clients` and `clients_back` (the phones and
projectors that had their screen again on the same address, without a rescan; `back_s`: when,
for each; `live_s`: when each had the first update the show sent after that, through the queue
between processes), and whether the old main rejoined as the standby. The phones and the room's
projector ask every second as their pages do (static/live.js, PROBED); the audience's
display does not, and notices a pulled cable at Socket.IO's heartbeat. `--keep` keeps each run's
folder: every machine's log, and the hall's record (hall/hall.json: each client's views,
connections, disconnections and refusals, with their times).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the referee package of this checkout
NET = "10.36.0"
ROOM = f"{NET}.100"  # the room's address (keepalived's), on every seat card
HOSTS = {"main": 1, "standby": 2, "third": 3, "hall": 9}
PIN = "2468"
SERVICE = "referee"
CHECK = ROOT / "deploy" / "backup" / "referee-is-primary"
PROBE_EVERY, PROBE_WAIT = 1.0, 5.0  # seconds, as the pages ask (static/live.js, PROBE_EVERY and PROBE_WAIT)


def sh(*cmd: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=check, capture_output=True, text=True)


def can_make_namespaces() -> str | None:
    """None when this machine can make the venue; else why not, in words."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "keepalived"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt install {'iproute2' if tool == 'ip' else tool})"
    probe = f"p{secrets.token_hex(3)}"
    made = sh("ip", "netns", "add", probe, check=False)
    if made.returncode:
        return f"ip netns add failed: {made.stderr.strip()}"
    sh("ip", "netns", "del", probe, check=False)
    return None


class Venue:
    """The namespaces, their links and every process started in them."""

    def __init__(self, workdir: Path) -> None:
        self.tag = secrets.token_hex(2)
        self.dir = workdir
        self.procs: dict[str, list[subprocess.Popen]] = {h: [] for h in HOSTS}
        self.secret = secrets.token_hex(32)
        sentinels = ",".join(f"{NET}.{HOSTS[h]}:26379" for h in ("main", "standby", "third"))
        self.redis_url = f"redis+sentinel://{sentinels}/0/{SERVICE}"

    def ns(self, host: str) -> str:
        return f"t{self.tag}{host}"

    def run(self, host: str, *cmd: str, check: bool = True) -> subprocess.CompletedProcess:
        return sh("ip", "netns", "exec", self.ns(host), *cmd, check=check)

    def spawn(self, host: str, name: str, cmd: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
        log = open(self.dir / f"{host}-{name}.log", "ab")
        proc = subprocess.Popen(["ip", "netns", "exec", self.ns(host), *cmd], stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, **(env or {})}, cwd=ROOT, start_new_session=True)
        self.procs[host].append(proc)
        return proc

    # -- the network ------------------------------------------------------------------------------

    def wire(self) -> None:
        sw = f"t{self.tag}sw"
        sh("ip", "netns", "add", sw)
        sh("ip", "netns", "exec", sw, "ip", "link", "add", "br0", "type", "bridge")
        sh("ip", "netns", "exec", sw, "ip", "link", "set", "br0", "up")
        for host, n in HOSTS.items():
            sh("ip", "netns", "add", self.ns(host))
            port = f"t{self.tag}{host[:4]}"
            sh("ip", "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", self.ns(host))
            sh("ip", "link", "set", port, "netns", sw)
            sh("ip", "netns", "exec", sw, "ip", "link", "set", port, "master", "br0", "up")
            self.run(host, "ip", "addr", "add", f"{NET}.{n}/24", "dev", "eth0")
            self.run(host, "ip", "link", "set", "eth0", "up")
            self.run(host, "ip", "link", "set", "lo", "up")

    def cut(self, host: str) -> None:
        self.run(host, "ip", "link", "set", "eth0", "down")

    def mend(self, host: str) -> None:
        self.run(host, "ip", "link", "set", "eth0", "up")

    def teardown(self) -> None:
        for host in HOSTS:
            self.kill(host)
        for host in [*HOSTS, "sw"]:
            sh("ip", "netns", "del", f"t{self.tag}{host}" if host == "sw" else self.ns(host), check=False)

    def kill(self, host: str) -> None:
        """Every process of `host` at once (SIGKILL), as when its power goes."""
        for proc in self.procs[host]:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        for proc in self.procs[host]:
            proc.wait()
        self.procs[host] = []

    # -- the machines -------------------------------------------------------------------------------

    def redis(self, host: str, replica_of: str | None = None) -> None:
        from referee.store.embedded import redis_server_binary

        home = self.dir / host / "redis"
        home.mkdir(parents=True, exist_ok=True)
        conf = home / "redis.conf"
        if not conf.exists():  # a machine that comes back keeps what the sentinels wrote
            conf.write_text(f"port 6379\nbind 0.0.0.0\nprotected-mode no\ndir {home}\nappendonly yes\n"
                            f"appendfsync everysec\nsave \"\"\n"
                            + (f"replicaof {NET}.{HOSTS[replica_of]} 6379\n" if replica_of else ""))
        self.spawn(host, "redis", [redis_server_binary(), str(conf)])
        self.wait(host, ["redis-cli", "-p", "6379", "ping"], "PONG")

    def sentinel(self, host: str) -> None:
        from referee.store.embedded import redis_server_binary

        home = self.dir / host / "sentinel"
        home.mkdir(parents=True, exist_ok=True)
        conf = home / "sentinel.conf"
        if not conf.exists():
            conf.write_text(f"port 26379\nbind 0.0.0.0\nprotected-mode no\ndir {home}\n"
                            f"sentinel announce-ip {NET}.{HOSTS[host]}\n"
                            f"sentinel monitor {SERVICE} {NET}.{HOSTS['main']} 6379 2\n"
                            f"sentinel down-after-milliseconds {SERVICE} 1000\n"
                            f"sentinel failover-timeout {SERVICE} 4000\nsentinel parallel-syncs {SERVICE} 1\n")
        self.spawn(host, "sentinel", [redis_server_binary(), str(conf), "--sentinel"])
        self.wait(host, ["redis-cli", "-p", "26379", "ping"], "PONG")

    def keepalived(self, host: str) -> None:
        home = self.dir / host / "keepalived"
        home.mkdir(parents=True, exist_ok=True)
        conf = home / "keepalived.conf"
        # deploy/backup/keepalived.conf with this venue's interface, address and check.
        text = (ROOT / "deploy" / "backup" / "keepalived.conf").read_text()
        text = text.replace("IFACE", "eth0").replace("ROOM_IP", f"{ROOM}/24")
        text = text.replace(f'script "{"/opt/referee/deploy/backup/referee-is-primary"}"',
                            f'script "{CHECK} redis://127.0.0.1:6379/0"')
        conf.write_text(text)
        self.spawn(host, "keepalived", ["keepalived", "--dont-fork", "--log-console", "--vrrp", "-f", str(conf),
                                        "-p", str(home / "k.pid"), "-r", str(home / "v.pid")])

    def referee(self, host: str) -> None:
        data = self.dir / host / "referee"
        data.mkdir(parents=True, exist_ok=True)
        env = {"REDIS_URL": self.redis_url, "REFEREE_SECRET_KEY": self.secret, "PYTHONPATH": str(ROOT),
               "REFEREE_EXTRA_GAMES": "tests.counter_game", "REFEREE_RATE_SUBMIT": "100000/60"}
        self.spawn(host, "referee", [sys.executable, "-m", "referee.cli", "serve", "--host", "0.0.0.0", "--port", "5000",
                                     "--data-dir", str(data), "--pin", PIN, "--public-url", f"http://{ROOM}:5000"], env)
        self.wait("hall", [sys.executable, "-c", f"import urllib.request; print(urllib.request.urlopen("
                           f"'http://{NET}.{HOSTS[host]}:5000/healthz', timeout=2).status)"], "200", timeout=60)

    def wait(self, host: str, cmd: list[str], expect: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if expect in self.run(host, *cmd, check=False).stdout:
                return
            time.sleep(0.2)
        raise RuntimeError(f"{host}: {' '.join(cmd)} never said {expect!r} (logs in {self.dir})")

    def holds_room(self, host: str) -> bool:
        return ROOM in self.run(host, "ip", "-4", "addr", "show", "eth0", check=False).stdout

    def start(self) -> None:
        self.wire()
        self.redis("main")
        self.redis("standby", replica_of="main")
        for host in ("main", "standby", "third"):
            self.sentinel(host)
        for host in ("main", "standby"):
            self.keepalived(host)
        deadline = time.monotonic() + 20
        while not self.holds_room("main"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the room's address never came to the main machine (logs in {self.dir})")
            time.sleep(0.2)
        for host in ("main", "standby"):
            self.referee(host)


# -- the hall: phones and projectors on the room's address (run inside its namespace) --------------


def hall(folder: Path, phones: int) -> None:
    """Make a show at the room's address, connect the phones and two projectors, submit without a
    pause, and write what happened to `folder` (hall.json) once `folder/stop` appears."""
    import requests
    import socketio
    import submit_to_projector as stp  # bench/: the clients' websocket options, as a browser's

    url = f"http://{ROOM}:5000"
    head = {"X-Staff-Pin": PIN}

    def api(command: str, **payload: Any) -> dict[str, Any]:
        out = requests.post(f"{url}/api/{command}", json=payload, headers=head, timeout=30).json()
        assert out["ok"], out
        return out

    show = "t" + uuid.uuid4().hex[:8]
    api("create_show", show=show, name="테이크오버")
    names = [f"선수{i + 1}" for i in range(phones)]
    for name in names:
        api("add_player", show=show, name=name)
    table = api("create_table", show=show, game="counter", players=names)["table"]
    api("start", show=show, table=table)
    snapshot = requests.get(f"{url}/api/shows/{show}", headers=head, timeout=30).json()["snapshot"]
    links = snapshot["links"]
    stage = parse_qs(urlsplit(snapshot["projector"]).query)["stage"][0]  # the console's projector link
    seen: dict[str, list[float]] = {}  # client -> when it had its screen (a view)
    joined: dict[str, list[float]] = {}  # client -> when its namespace (re)connected
    left: dict[str, list[float]] = {}  # client -> when its namespace was disconnected
    refused: dict[str, list[float]] = {}  # client -> when the server refused its namespace (server/again)
    clients: list[socketio.Client] = []
    stop = threading.Event()

    class PageLike(socketio.Client):
        """python-socketio's client gives a reconnection's namespaces 1 s to be admitted; a
        page's socket.io waits as long as the server takes (a connect handler waits out a
        takeover's last seconds, edge/wiring.AGAIN_WAIT)."""

        def connect(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("wait_timeout", 20)
            super().connect(*args, **kwargs)

    def probe(client: socketio.Client, namespace: str) -> None:
        """As the page's probe (static/live.js, PROBED): a question every PROBE_EVERY s; one
        unanswered for PROBE_WAIT s closes the connection (here its socket, as the browser's
        engine.close() does), and socket.io reconnects; so does a reset (the room's address moved
        to a machine that never had this connection)."""
        while not stop.wait(PROBE_EVERY):
            if namespace not in client.namespaces:
                continue
            answered = threading.Event()
            asked_on = client.eio.ws  # as the page, only the connection asked is closed, never a newer one
            try:
                client.emit("probe", None, namespace=namespace, callback=lambda *_, told=answered: told.set())
            except Exception:
                continue
            if not answered.wait(PROBE_WAIT) and namespace in client.namespaces and client.eio.ws is asked_on:
                with contextlib.suppress(Exception):
                    asked_on.sock.shutdown(socket.SHUT_RDWR)

    def connect(name: str, namespace: str, lane: str, auth: dict[str, Any]) -> socketio.Client:
        # Reconnecting as the pages do (static/live.js: socket.io's 1 s first delay, at most 3 s,
        # half of it random), so the takeover is measured as a room would see it.
        client = PageLike(reconnection=True, reconnection_delay=1, reconnection_delay_max=3,
                          randomization_factor=0.5, **stp.client_options())  # compression offered
        seen[name], joined[name] = [], []
        client.on("view", lambda *_: seen[name].append(time.time()), namespace=namespace)
        client.on("connect", lambda *_: joined[name].append(time.time()), namespace=namespace)
        client.on("disconnect", lambda *_: left.setdefault(name, []).append(time.time()), namespace=namespace)
        client.on("connect_error", lambda *_: refused.setdefault(name, []).append(time.time()), namespace=namespace)
        client.connect(f"{url}?lane={lane}", namespaces=[namespace], auth=auth, transports=["websocket"],
                       wait_timeout=20)
        clients.append(client)
        if lane != "public":
            threading.Thread(target=probe, args=(client, namespace), daemon=True).start()
        return client

    seats = [connect(f"phone-{i}", "/seat", "seat", {"token": link["token"]}) for i, link in enumerate(links)]
    connect("projector-stage", "/public", "stage", {"show": show, "stage": stage})  # the room's, from the console
    connect("projector-audience", "/public", "public", {"show": show})  # an audience's display
    acked: list[list[tuple[str, float, float]]] = [[] for _ in seats]  # (sid, sent, answered)

    def submit(client: socketio.Client, data: dict[str, Any]) -> dict[str, Any] | None:
        """As the page's Live.send: the answer, or None at once when the connection drops
        (socket.io fails a pending acknowledgement when its socket closes) or after 8 s."""
        while "/seat" not in client.namespaces:  # reconnecting: the page's form waits
            time.sleep(0.02)
        answered = threading.Event()
        box: dict[str, Any] = {}

        def done(ack: Any = None) -> None:
            box["ack"] = ack
            answered.set()

        try:
            client.emit("submit", data, namespace="/seat", callback=done)
        except Exception:
            return None
        deadline = time.time() + 8
        while not answered.wait(0.02):
            if "/seat" not in client.namespaces or time.time() > deadline:
                return None
        return box.get("ack")

    def play(i: int) -> None:
        n = 0
        while not stop.is_set():
            sid = f"{i}-{n}"
            while True:  # the same move again (the same id) until it is answered, as a phone does
                sent = time.time()
                ack = submit(seats[i], {"table": table, "move": {"type": "tick", "by": 1}, "sid": sid})
                if ack and ack.get("ok"):
                    acked[i].append((sid, sent, time.time()))
                    break
                time.sleep(0.05)
            n += 1

    threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(len(seats))]
    for t in threads:
        t.start()
    (folder / "ready").write_text("1")
    while not (folder / "stop").exists():
        gone = folder / "gone"  # the main went at this time: how many clients have their screen since
        if gone.exists():
            (folder / "back").write_text(str(len(back_after(float(gone.read_text()), seen, joined))))
        time.sleep(0.1)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    view = requests.get(f"{url}/api/shows/{show}", headers=head, timeout=30).json()["snapshot"]
    counts = next(t["view"]["state"]["counts"] for t in view["tables"] if t["view"]["table"] == table)
    out = {"acked": [[list(a) for a in mine] for mine in acked], "counts": counts, "seen": seen, "joined": joined,
           "left": left, "refused": refused, "backup": view.get("backup")}
    (folder / "hall.json").write_text(json.dumps(out))
    for client in clients:
        client.disconnect()


# -- one run -------------------------------------------------------------------------------------


def run_once(phones: int = 12, cut: bool = False, after: float = 5.0, keep: bool = False) -> dict[str, Any]:
    """A venue up, the show running, the main machine gone; the figures of its takeover."""
    work = Path(tempfile.mkdtemp(prefix="takeover-"))
    venue = Venue(work)
    try:
        venue.start()
        folder = work / "hall"
        folder.mkdir()
        runner = venue.spawn("hall", "clients", [sys.executable, str(Path(__file__).resolve()), "--hall", str(folder),
                                                  "--phones", str(phones)], {"PYTHONPATH": str(ROOT)})
        deadline = time.monotonic() + 60
        while not (folder / "ready").exists():
            if runner.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the hall did not start (logs in {work})")
            time.sleep(0.1)
        time.sleep(3)  # the show runs
        gone = time.time()
        if cut:
            venue.cut("main")
        else:
            venue.kill("main")
        (folder / "gone").write_text(repr(gone))
        # When the standby held the room's address, and when its Redis became the primary.
        moved_s = promoted_s = None
        while (moved_s is None or promoted_s is None) and time.time() - gone < 30:
            now = round(time.time() - gone, 2)
            if moved_s is None and venue.holds_room("standby"):
                moved_s = now
            if promoted_s is None and "role:master" in venue.run("standby", "redis-cli", "-p", "6379", "info",
                                                                 "replication", check=False).stdout:
                promoted_s = now
            time.sleep(0.1)
        time.sleep(after)  # the show goes on on the standby
        # Every client back on its screen, or a minute: an audience's display notices a dead
        # connection at Socket.IO's heartbeat only (up to 45 s; it sends no probe).
        back = folder / "back"
        while time.time() - gone < 60 and not (back.exists() and int(back.read_text() or 0) >= phones + 2):
            time.sleep(0.2)
        (folder / "stop").write_text("1")
        runner.wait(timeout=90)
        hall_said = json.loads((folder / "hall.json").read_text())
        # The old main comes back: the sentinels make its Redis the standby's replica.
        if cut:
            venue.kill("main")
            venue.mend("main")
        venue.redis("main")
        venue.sentinel("main")
        rejoined = False
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and not rejoined:
            rejoined = "role:slave" in venue.run("main", "redis-cli", "-p", "6379", "info", "replication",
                                                 check=False).stdout
            time.sleep(0.5)
        return {**figures(hall_said, gone, rejoined, moved_s is not None), "address_moved_s": moved_s,
                "promoted_s": promoted_s}
    finally:
        venue.teardown()
        if keep:
            print(f"kept: {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)


def back_after(gone: float, seen: dict[str, list[float]], joined: dict[str, list[float]], nth: int = 0) -> dict[str, float]:
    """Per client back on its screen since the main went: seconds from then to its first view
    on a connection made after it (a view still in flight from the old main is not back).
    `nth` 1: its second view there, the first the show sent through the queue after the
    welcome (the screen live again, not only shown)."""
    back = {}
    for name, views in seen.items():
        again = [t for t in joined.get(name, []) if t > gone]
        shown = [t for t in views if again and t >= again[0]]
        if len(shown) > nth:
            back[name] = round(shown[nth] - gone, 2)
    return back


def figures(said: dict[str, Any], gone: float, rejoined: bool, moved: bool) -> dict[str, Any]:
    acked = said["acked"]
    counts = said["counts"]
    after = [ans for mine in acked for _, sent, ans in mine if sent > gone]
    lost = sum(max(0, len(mine) - n) for mine, n in zip(acked, counts, strict=True))
    twice = sum(max(0, n - len(mine)) for mine, n in zip(acked, counts, strict=True))
    back_s = back_after(gone, said["seen"], said["joined"])
    return {"takeover_s": round(min(after) - gone, 2) if after else None, "acked": sum(map(len, acked)),
            "acked_lost": lost, "applied_twice": twice, "clients": len(said["seen"]), "clients_back": len(back_s),
            "back_s": back_s, "live_s": back_after(gone, said["seen"], said["joined"], nth=1),
            "address_moved": moved, "old_main_rejoined": rejoined, "backup_after": said.get("backup")}


def backs(back_s: dict[str, float]) -> str:
    """When each kind of client had its screen again: the phones' slowest, each projector."""
    phones = [t for name, t in back_s.items() if name.startswith("phone-")]
    said = [f"phones within {max(phones)} s"] if phones else []
    return ", ".join(said + [f"{name} {t} s" for name, t in back_s.items() if name.startswith("projector-")])


def words(n: int, f: dict[str, Any]) -> str:
    return (f"run {n}: the standby acknowledged a move {f['takeover_s']} s after the main went; "
            f"{f['acked']} moves acknowledged, {f['acked_lost']} lost, {f['applied_twice']} applied twice; "
            f"{f['clients_back']} of {f['clients']} clients back on their screen at the same address "
            f"({backs(f['back_s'])}; live again: {backs(f['live_s'])}); "
            f"the address moved: {f['address_moved']}; the old main rejoined as the standby: {f['old_main_rejoined']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--cut", action="store_true", help="pull the main machine's cable instead of killing it")
    parser.add_argument("--json", help="write every run's figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep each run's folder (logs, the hall's record)")
    parser.add_argument("--hall", help=argparse.SUPPRESS)  # the clients' side, inside the hall's namespace
    args = parser.parse_args()
    if args.hall:
        hall(Path(args.hall), args.phones)
        return 0
    why = can_make_namespaces()
    if why:
        print(f"takeover: cannot make the venue here: {why}")
        return 2
    runs = []
    for n in range(1, args.runs + 1):
        f = run_once(args.phones, args.cut, keep=args.keep)
        runs.append(f)
        print(words(n, f), flush=True)
        print(json.dumps(f), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "cut": args.cut, "phones": args.phones}, indent=1))
    return 0 if all(r["acked_lost"] == 0 and r["applied_twice"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
