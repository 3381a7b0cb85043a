#!/usr/bin/env python3
"""The hall's prediction burst at venue scale (issue 28): N audience phones each send one
prediction within a few seconds, behind deploy/'s nginx, while the players go on moving.

The processes of deploy/: one shared embedded ``redis-server`` (``referee.store.EmbeddedRedis``,
fsync on every write), a players' process and ``--audience-processes`` audience processes
(``referee serve``, ``REFEREE_PROXIED=1``, one ``REFEREE_SECRET_KEY``), and nginx configured by
deploy's two nginx, the room's (deploy/nginx/referee.conf) and the hall's own
(deploy/nginx/hall.conf): each file is read and only its upstream ports, its listener (plain
HTTP on loopback: no certificate) and its log path are changed; the audience's upstream gets
every audience process with ``hash $remote_addr consistent;``, as referee.conf's header says for
a larger audience. Nothing else of them is touched: the lanes, the per-address limits, the
routes of the pages, hall.lua and the channel.

Every client connects through nginx:

* N audience devices (python-socketio ``AsyncClient``s in worker processes, this script re-run
  with ``--worker``; ``--light``, ``--node``, ``--epoll``: lighter devices speaking the protocols
  directly), each from its own loopback address (127.10.x.y: a venue LAN gives every
  phone its own, and nginx's hash and per-address limits see them so), each with its own
  session, on the hall's nginx: it opens ``/a/<show>`` (its ``ref_aud`` device cookie; ``--made-ids`` makes valid ids
  instead) and connects ``/crowd`` (``lane=public``, as the page does);
* a Tricky Coin table's two phones on ``/seat`` (``lane=seat``) and the measuring projector on
  ``/public`` (the room's, from the console's link: ``lane=stage``), both on the players'
  process (``--room``: through the room's nginx, or straight); they
  live in this process (the machinery of bench/submit_to_projector.py and
  bench/reconnect_storm.py, imported).

Then: ``--samples`` moves on the idle show (the crowd connected, no question), the phone's ack
and the projector's view of each; a question opens (staff API); every device sends its
prediction (a form post, as the page: nginx's hall.lua answers it; ``--light``: on a connection of
its own, spoken directly) at a uniformly random moment of the ``--window`` (once its phone shows the question:
a phone cannot vote on a question it has not got), ``--resend`` of them send it again at once (a
double tap), ``--reconnect`` of them drop their socket, reconnect with the same cookie and send
another option; meanwhile the phones keep moving at the same pace. Once every device has its
answers the question is closed, and the script checks and prints: the acks (accepted, resends
answered "again", refused by code), the stored counts (API, and the votes in Redis device by
device) against the devices whose first answer was an accepted prediction, the projector's last
``crowd`` event against the stored counts, the burst's duration and throughput, each process's
CPU, the Redis commands per prediction, and the moves' latency idle and during the burst.

A script, not a test. Every wait is bounded, only loopback is contacted, and everything it
started (servers, Redis, nginx, workers) is stopped at the end, also on Ctrl-C or SIGTERM.

    python bench/crowd_burst.py                                   # 10,000 devices, 5 s window
    python bench/crowd_burst.py --devices 2000 --json /tmp/burst.json
    python bench/crowd_burst.py --pin                             # players' side (and the room's nginx) on a core of its own
    python bench/crowd_burst.py --profile /tmp/prof               # py-spy every server during the burst

See bench/README.md and docs/performance.md (Goal 8).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reconnect_storm as storm  # noqa: E402
import submit_to_projector as stp  # noqa: E402
from crowd_epoll import (  # noqa: E402 - the devices' shared parts (standard library only)
    ANSWER_TIMEOUT,
    CONNECT_TIMEOUT,
    FIRST,
    QUESTION_TIMEOUT,
    RECONNECT,
    RESEND,
    ack_record,
    address_of,
    draws,
)
from crowd_epoll import COOKIE as DEVICE_COOKIE  # noqa: E402

from referee.server.hall import GATHER_MS  # noqa: E402


def stats(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"n": len(values), "p50": stp.percentile(values, 50), "p99": stp.percentile(values, 99),
            "max": max(values)}


def handshakes(counts: list[dict[str, int]]) -> str:
    """The epoll workers' TLS handshakes (--tls), summed: full ones and resumed sessions."""
    full, resumed = sum(c["full"] for c in counts), sum(c["resumed"] for c in counts)
    return f"{full + resumed} handshakes, {resumed} of them a resumed session, {full} full"


def fmt(s: dict[str, float] | None, unit: str = "ms") -> str:
    if not s:
        return "-"
    return f"p50 {s['p50']:.1f} / p99 {s['p99']:.1f} / max {s['max']:.1f} {unit} (n={s['n']})"


# -- nginx as deploy/ ships it --------------------------------------------------------------------


class DeployNginx:
    """One of deploy's two nginx in front of the processes: deploy/nginx/referee.conf (the
    room's) or deploy/nginx/hall.conf (the hall's own), the shipped file with its upstream ports,
    its listener (plain HTTP on 127.0.0.1, no certificate) and its access log changed, the
    audience processes in one upstream with ``hash $remote_addr consistent;`` (referee.conf's
    header: no backup line with hash). Wrapped as tests/test_deploy.py does, plus four workers
    with ``reuseport`` (a proxied socket takes two descriptors; one worker holds fewer than
    20,000 here)."""

    def __init__(self, work: Path, file: str, workers: int = 4, tls: Path | None = None) -> None:
        self.file = file
        self.workers = workers
        self.dir = work / file.removesuffix(".conf")
        self.port = stp.free_port()
        # tls: a directory of deploy/tls/make-venue-cert's files; the listener then speaks TLS
        # with them and deploy's ssl_ settings, as the venue's does (--tls)
        self.tls = tls
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self.push_port = stp.free_port()  # the hall's channels' publisher (nchan), on loopback
        self.h2_port = stp.free_port()  # HTTP/2 as browsers speak it over TLS, here in the clear
        self.proc: subprocess.Popen[bytes] | None = None

    def site(self, players: Any, audience: list[Any]) -> str:
        site = (stp.ROOT / "deploy" / "nginx" / self.file).read_text()

        def swap(pattern: str, new: str) -> None:
            nonlocal site
            site, n = re.subn(pattern, lambda _m: new, site, flags=re.S)
            if n != 1:
                raise RuntimeError(f"deploy/nginx/{self.file} changed: {pattern!r} matched {n} times")

        hashed = "".join(f"    server 127.0.0.1:{s.port};\n" for s in audience)
        if self.file == "hall.conf":
            swap(r"upstream referee_hall \{.*?\}", f"upstream referee_hall {{\n    hash $remote_addr consistent;\n{hashed}}}")
            listen = r"listen 8443 ssl http2;"
        else:
            swap(r"upstream referee_players \{.*?\}",
                 f"upstream referee_players {{\n    server 127.0.0.1:{players.port};\n"
                 f"    server 127.0.0.1:{audience[0].port} backup;\n}}")
            swap(r"upstream referee_audience \{.*?\}",
                 f"upstream referee_audience {{\n    hash $remote_addr consistent;\n{hashed}}}")
            swap(r"server \{\s*listen 80;.*?\n\}\n", "")  # the plain-HTTP redirect: the bench speaks plain HTTP
            listen = r"listen 443 ssl;"
        # In the clear, HTTP/1.1 there and HTTP/2 (as a browser speaks it over TLS) on a listener of
        # its own (--h2); over TLS (--tls), the listener as shipped (HTTP/2 if the file offers it)
        here = f"listen 127.0.0.1:{self.port} reuseport"
        swap(listen, re.sub(r"^listen \d+", here, listen.replace("\\", "")) if self.tls
             else f"{here};\n    listen 127.0.0.1:{self.h2_port} reuseport http2;")
        if self.tls:
            site = site.replace("/etc/referee/tls/", f"{self.tls}/")
        else:
            site, n = re.subn(r"\n[ \t]*ssl_[a-z_]+ [^\n]*;", "", site)
            if n < 3:  # ssl_certificate, ssl_certificate_key, ssl_protocols, ...
                raise RuntimeError(f"deploy/nginx/{self.file} changed: {n} ssl_ lines")
        return re.sub(r"/var/log/nginx/referee[a-z-]*-access\.log", str(self.dir / "access.log"), site)

    def start(self, players: Any, audience: list[Any], hall: dict[str, Any]) -> None:
        """`hall`: hall.lua's settings (referee.server.hall.hall_config), as `referee hall-config` writes them."""
        from referee.server.hall import checkout_site, load_modules

        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "hall.json").write_text(json.dumps(hall))
        (self.dir / "site.conf").write_text(checkout_site(self.site(players, audience), self.dir / "hall.json",
                                                                self.push_port))
        temps = "\n".join(f"    {kind}_temp_path {self.dir}/{kind};"
                          for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (self.dir / "nginx.conf").write_text(f"""
{load_modules()}
daemon off;
worker_processes {self.workers};
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 24000; }}
http {{
    access_log off;
    gzip on;  # as Debian's nginx.conf: the audience page (text/html) compressed for a browser that offers it
{temps}
    include {self.dir}/site.conf;
}}
""")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        check = subprocess.run([nginx, "-t", "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")],
                               capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(check.stderr)
        with open(self.dir / "stderr.log", "ab") as err:
            self.proc = subprocess.Popen([nginx, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")], stderr=err)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((self.dir / "stderr.log").read_text())
            with contextlib.suppress(OSError):
                import ssl
                import urllib.request

                trust = ssl.create_default_context(cafile=str(self.tls / "ca.crt")) if self.tls else None
                if trust:
                    trust.check_hostname = False
                with urllib.request.urlopen(self.url + "/healthz", timeout=1, context=trust) as resp:
                    if resp.status == 200:
                        return
            time.sleep(0.1)
        raise RuntimeError("nginx did not answer")

    def pids(self) -> list[int]:
        """nginx's master and its workers."""
        if self.proc is None:
            return []
        out = [self.proc.pid]
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
                out += [int(p) for p in (task / "children").read_text().split()]
        return out

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# -- the audience devices: a worker process ---------------------------------------------------------


class Device:
    """One audience phone: its own address and session (its cookie jar holds its device
    cookie), its /crowd socket, and when its phone first showed each open question."""

    def __init__(self, index: int, url: str, show: str, made: bool) -> None:
        self.index = index
        self.url = url
        self.show = show
        self.made = made
        self.device = ""
        self.session: Any = None
        self.sio: Any = None
        self.opened: dict[str, float] = {}  # question id -> when this phone first had it open
        self.changed = asyncio.Event()

    def on_crowd(self, payload: Any = None) -> None:
        if not isinstance(payload, dict):
            return
        t = time.monotonic()
        for q in payload.get("questions") or ():
            if q.get("state") == "open" and q.get("id") not in self.opened:
                self.opened[q["id"]] = t
                self.changed.set()

    async def open_page(self) -> None:
        import aiohttp

        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, local_addr=(address_of(self.index), 0)),
            cookie_jar=aiohttp.CookieJar(unsafe=True))  # unsafe: a cookie of a numeric host (127.0.0.1)
        if self.made:  # an id as the page would have set it: signed with the servers' key (devices.py)
            from referee.server.devices import device_key, new_device  # standard library only: the workers stay light

            self.device = new_device(device_key(os.environ["REFEREE_SECRET_KEY"].encode()))
            self.session.cookie_jar.update_cookies({DEVICE_COOKIE: self.device})
            return
        async with self.session.get(f"{self.url}/a/{self.show}") as resp:
            await resp.read()
            if resp.status != 200 or DEVICE_COOKIE not in resp.cookies:
                raise RuntimeError(f"audience page: HTTP {resp.status}, cookie {DEVICE_COOKIE in resp.cookies}")
            self.device = resp.cookies[DEVICE_COOKIE].value

    async def connect(self) -> None:
        if os.environ.get("BENCH_LIGHT") == "1":  # --light: the protocols spoken directly (bench/light_socket.py)
            from light_socket import LightSocket

            self.sio = LightSocket(self.session, compress=bool(stp.client_options()))
        else:
            import socketio

            # Plain stdlib json: engineio's default decoder calls a Python hook for every integer.
            self.sio = socketio.AsyncClient(reconnection=False, handle_sigint=False, http_session=self.session,
                                            json=json, **stp.client_options())
        self.sio.on("crowd", self.on_crowd, namespace="/crowd")
        await asyncio.wait_for(self.sio.connect(self.url + "?lane=public", namespaces=["/crowd"],
                                                auth={"show": self.show}, transports=["websocket"],
                                                wait_timeout=CONNECT_TIMEOUT), CONNECT_TIMEOUT + 5)

    async def disconnect(self) -> None:
        if self.sio is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.sio.disconnect(), 5)

    async def close(self) -> None:
        await self.disconnect()
        if self.session is not None:
            with contextlib.suppress(Exception):
                await self.session.close()

    async def question(self, qid: str, timeout: float) -> float | None:
        """When this phone first showed question `qid` open (waiting for it, bounded)."""
        deadline = time.monotonic() + timeout
        while qid not in self.opened:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return self.opened[qid]

    async def predict(self, qid: str, option: int, kind: str) -> list[Any]:
        """One prediction: [device index, kind, option sent, t0, t_ack, status, code, option
        stored, again] (times monotonic; status ok, refused or timeout)."""
        import aiohttp

        form = {"question": qid, "option": str(option)}
        t0 = time.monotonic()
        try:  # as the audience page: a form post with the device's cookie (nginx's hall.lua takes it)
            if os.environ.get("BENCH_LIGHT") == "1":  # spoken directly (bench/light_socket.py)
                from light_socket import post_form

                ack = await post_form(self.url, f"/a/{self.show}/predict", form, f"{DEVICE_COOKIE}={self.device}",
                                      address_of(self.index), ANSWER_TIMEOUT)
            else:
                async with self.session.post(f"{self.url}/a/{self.show}/predict", data=form,
                                             timeout=aiohttp.ClientTimeout(total=ANSWER_TIMEOUT)) as resp:
                    ack = await resp.json(content_type=None)
        except Exception as err:  # noqa: BLE001 - a lost or late ack is a result
            return [self.index, kind, option, t0, time.monotonic(), "timeout", type(err).__name__, None, None]
        return ack_record(self.index, kind, option, t0, time.monotonic(), ack)


async def burst(devices: list[Device], cmd: dict[str, Any], first: int) -> dict[str, Any]:
    """Each connected device sends its prediction at its moment of the window (once its phone
    shows the question); some send it again at once, some reconnect and send another option."""
    qid, n = cmd["question"], cmd["options"]
    records: list[list[Any]] = []
    held = 0

    async def one(d: Device, at: float, option: int, extra: str | None) -> None:
        nonlocal held
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        shown = await d.question(qid, QUESTION_TIMEOUT)
        if shown is None:
            records.append([d.index, FIRST, option, at, time.monotonic(), "timeout", "no_question", None, None])
            return
        if shown > at:
            held += 1
        records.append(await d.predict(qid, option, FIRST))
        if extra == RESEND:  # a double tap
            records.append(await d.predict(qid, option, RESEND))
        elif extra == RECONNECT:  # the socket drops; the page connects again and votes otherwise
            await d.disconnect()
            try:
                await d.connect()
            except Exception as err:  # noqa: BLE001 - a result
                t = time.monotonic()
                records.append([d.index, RECONNECT, option, t, t, "timeout", f"reconnect {type(err).__name__}",
                                None, None])
                return
            records.append(await d.predict(qid, (option + 1) % n, RECONNECT))

    await asyncio.gather(*(one(d, *plan) for d, plan in zip(devices, draws(cmd, first, len(devices)), strict=True)
                           if d.sio is not None and d.sio.connected))
    return {"records": records, "held": held, "shown": [d.opened.get(qid) for d in devices if d.sio is not None],
            "devices": {d.index: d.device for d in devices if d.device}}


async def worker_main(args: argparse.Namespace) -> int:
    """Import, answer {"ready"}, wait for {"cmd": "go"}, open the page and connect every device
    (`--connect-concurrency` in flight), answer {"connected", "failed", "errors", "page_ms",
    "connect_ms" (each device's page, then its socket), "go", "connected_at"}, then answer JSON-line commands:

    {"cmd": "burst", "question", "start", "window", "options", "resend", "reconnect", "seed"} ->
        {"records": [...Device.predict's], "shown": [when each device showed the question],
         "held": sends that waited for their phone to show the question, "devices": {index: id}}
    {"cmd": "quit"} -> everyone disconnects, {"bye"}
    """
    stp.raise_nofile()
    import aiohttp  # noqa: F401 - imported before the go, like the socket client
    import socketio  # noqa: F401

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    stp.reply({"ready": True})
    line = await reader.readline()
    if not line or json.loads(line).get("cmd") != "go":
        return 0
    t_go = time.monotonic()
    devices = [Device(args.first + i, args.url, args.show, args.made_ids) for i in range(args.count)]
    connect_ms: list[float] = []
    page_ms: list[float] = []
    connected_at = [t_go]
    gate = asyncio.Semaphore(args.connect_concurrency)

    async def join(d: Device) -> str | None:
        async with gate:
            t0 = time.monotonic()
            try:
                await asyncio.wait_for(d.open_page(), CONNECT_TIMEOUT)
            except Exception as err:  # noqa: BLE001 - reported to the orchestrator
                return f"page {type(err).__name__}: {err}"
            t_page = time.monotonic()
            page_ms.append(round((t_page - t0) * 1000, 3))
            try:
                await d.connect()
            except Exception as err:  # noqa: BLE001
                return f"socket {type(err).__name__}: {err}"
            t1 = time.monotonic()
            connect_ms.append(round((t1 - t_page) * 1000, 3))
            connected_at[0] = max(connected_at[0], t1)
            return None

    errors = [e for e in await asyncio.gather(*(join(d) for d in devices)) if e]
    stp.reply({"connected": sum(1 for d in devices if d.sio is not None and d.sio.connected), "failed": len(errors),
               "errors": errors[:5], "page_ms": page_ms, "connect_ms": connect_ms, "go": t_go, "connected_at": connected_at[0]})

    while True:
        line = await reader.readline()
        if not line:
            break
        cmd = json.loads(line)
        if cmd["cmd"] == "burst":
            stp.reply(await burst(devices, cmd, args.first))
        elif cmd["cmd"] == "quit":
            break
    await asyncio.gather(*(d.close() for d in devices))
    stp.reply({"bye": True})
    return 0


class Worker(stp.Worker):
    """The orchestrator's handle on a worker of audience devices (read, ask, stop are
    submit_to_projector's)."""

    @classmethod
    async def launch(cls, url: str, show: str, first: int, count: int, concurrency: int, made: bool,
                     log: Path) -> Worker:
        here = Path(__file__).resolve().parent
        if os.environ.get("BENCH_NODE") == "1":  # --node: bench/crowd_devices.js, the same commands
            worker = ["node", str(here / "crowd_devices.js")]
            env = {**os.environ, "NODE_PATH": str(here.parent / "build" / "npm" / "node_modules")}
        elif os.environ.get("BENCH_EPOLL") == "1":  # --epoll: bench/crowd_epoll.py, the same commands
            worker, env = [sys.executable, str(here / "crowd_epoll.py")], None
        else:
            worker, env = [sys.executable, str(here / "crowd_burst.py"), "--worker"], None
        with open(log, "ab") as err:
            proc = await asyncio.create_subprocess_exec(
                *worker, "--url", url, "--show", show,
                "--first", str(first), "--count", str(count), "--connect-concurrency", str(concurrency),
                *(["--made-ids"] if made else []), *(["--push"] if os.environ.get("BENCH_PUSH") == "1" else []),
                *(["--h2-port", os.environ["BENCH_H2_PORT"]] if os.environ.get("BENCH_H2_PORT") else []),
                *(["--ca", os.environ["BENCH_TLS_CA"]] if os.environ.get("BENCH_TLS_CA") else []),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err, limit=1 << 26, env=env)
        return cls(proc, count)


# -- the orchestrator ------------------------------------------------------------------------------


def established(ports: list[int]) -> dict[int, int]:
    """Established TCP connections accepted on each of `ports` on 127.0.0.1 (/proc/net/tcp): a
    server's sockets, nginx's side of them."""
    wanted = {f"0100007F:{port:04X}": port for port in ports}
    counts = dict.fromkeys(ports, 0)
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "01" and fields[1] in wanted:  # 01: ESTABLISHED
            counts[wanted[fields[1]]] += 1
    return counts


def pin_process(pid: int, cores: list[int]) -> None:
    """Every thread of `pid` on `cores` (a thread keeps the affinity it was created with)."""
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(task.name), cores)


def pin_tree(pid: int, cores: list[int]) -> None:
    """`pid` and its children (nginx's master and workers) on `cores`."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in (children.read_text().split() if children.exists() else []):
        pin_process(int(child), cores)
    pin_process(pid, cores)


class Meter:
    """CPU seconds of each part of the run, and Redis's command counts, between two marks."""

    def __init__(self, servers: list[stp.Server], redis_pid: int, nginx: DeployNginx, workers: list[Worker]) -> None:
        self.servers, self.redis_pid, self.nginx, self.workers = servers, redis_pid, nginx, workers

    def mine(self) -> set[int]:
        return {os.getpid(), self.redis_pid, *(s.pid for s in self.servers), *self.nginx.pids(),
                *(w.proc.pid for w in self.workers)}

    @staticmethod
    def everyone() -> dict[int, tuple[str, float]]:
        """Every process's name and CPU seconds (user + system, its threads included)."""
        out = {}
        ticks = os.sysconf("SC_CLK_TCK")
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    head, _, rest = (entry / "stat").read_text().rpartition(")")
                    fields = rest.split()
                    out[int(entry.name)] = (head.partition("(")[2], (int(fields[11]) + int(fields[12])) / ticks)
        return out

    def others(self, a: dict[str, Any], b: dict[str, Any], top: int = 4) -> list[tuple[str, float]]:
        """The processes not of this run that used the most CPU between two marks, by name."""
        mine, spent = self.mine(), {}
        for pid, (name, cpu) in b["everyone"].items():
            if pid not in mine:
                spent[name] = spent.get(name, 0.0) + cpu - a["everyone"].get(pid, (name, 0.0))[1]
        return sorted(((k, round(v, 2)) for k, v in spent.items() if v > 0.05), key=lambda kv: -kv[1])[:top]

    def mark(self) -> dict[str, Any]:
        busy, irq = stp.machine_busy_seconds()
        return {"t": time.monotonic(), "everyone": self.everyone(), **{s.name: stp.cpu_seconds(s.pid) for s in self.servers},
                "redis": stp.cpu_seconds(self.redis_pid), "nginx": sum(stp.cpu_seconds(p) for p in self.nginx.pids()),
                "clients": sum(stp.cpu_seconds(w.proc.pid) for w in self.workers), "bench": time.process_time(),
                "busy": busy, "irq": irq, "calls": self.servers[0].redis_calls()}

    @staticmethod
    def delta(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        d = {k: round(b[k] - a[k], 3) for k in a if k not in ("calls", "everyone")}
        d["calls"] = {k: n - a["calls"].get(k, 0) for k, n in b["calls"].items() if n - a["calls"].get(k, 0)}
        return d


def check(records: list[list[Any]], devices: dict[int, str], stored: list[int], votes: dict[str, str],
          options: int) -> dict[str, Any]:
    """The acks against what was stored: each device's first accepted prediction counts, once;
    every other ack of it says "again" with that option."""
    by_device: dict[int, list[list[Any]]] = {}
    for r in sorted(records, key=lambda r: r[4]):  # by the ack's time
        by_device.setdefault(r[0], []).append(r)
    counted: dict[int, int] = {}
    problems: list[str] = []
    refused: dict[str, int] = {}
    lost = twice = 0
    outcome = {FIRST: {"ok": 0, "again": 0}, RESEND: {"ok": 0, "again": 0}, RECONNECT: {"ok": 0, "again": 0}}
    for index, rs in by_device.items():
        for r in rs:
            _, kind, _sent, _t0, _t1, status, code, option, again = r
            if status != "ok":
                refused[f"{status}:{code}"] = refused.get(f"{status}:{code}", 0) + 1
                continue
            outcome[kind]["again" if again else "ok"] += 1
            if not again:
                if index in counted:
                    twice += 1
                    problems.append(f"device {index} accepted twice ({counted[index]}, then {option})")
                counted[index] = option
            elif index not in counted:  # its first send was counted but its ack lost (a timeout)
                counted[index] = option
                lost += 1
            elif counted[index] != option:
                problems.append(f"device {index}: 'again' with option {option}, counted {counted[index]}")
    # A send whose ack never came (a timeout) may still have been counted: the vote stored is then
    # the option it sent, and it counts once like any other.
    for index, rs in by_device.items():
        stored_vote = votes.get(devices.get(index, ""))
        if index not in counted and any(r[5] == "timeout" and str(r[2]) == stored_vote for r in rs):
            counted[index] = int(stored_vote)
            lost += 1
    expected = [0] * options
    for option in counted.values():
        expected[option] += 1
    # Device by device in Redis: the vote stored is the option its accepted ack said.
    stored_by_index = {i: votes.get(devices.get(i, "")) for i in counted}
    wrong = [i for i, option in counted.items() if stored_by_index[i] != str(option)]
    unknown = len(votes) - len(counted)  # stored votes no ack ever reported
    problems += [f"device {i}: stored {stored_by_index[i]}, acked {counted[i]}" for i in wrong[:5]]
    return {"accepted": len(counted), "expected_counts": expected, "stored_counts": stored, "stored_votes": len(votes),
            "votes_without_ack": unknown, "counted_by_a_lost_ack": lost, "twice": twice, "outcome": outcome,
            "refused": refused, "problems": problems,
            "counts_match": expected == stored and sum(stored) == len(votes) and not wrong}


async def run(args: argparse.Namespace) -> int:
    from referee.store import EmbeddedRedis

    limit = stp.raise_nofile()
    if limit < args.devices + 500:
        print(f"warning: open-file limit is {limit}; {args.devices} devices may not fit", file=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="referee-crowd-")).resolve()
    info = stp.machine()
    print(f"machine: {info['cpus']} CPUs, {info['memory']}, Python {info['python']}, {info['os']}")
    print(f"packages: {info['packages']}; server code: commit {info['commit']}, async mode {info['async_mode']}")
    print(f"{args.devices} audience devices over {args.audience_processes} audience process(es) + the players'; "
          f"window {args.window} s, resend {args.resend:.0%}, reconnect {args.reconnect:.0%}; moves every "
          f"{args.pace} s at least; work dir {work}", flush=True)
    loop = asyncio.get_running_loop()
    me = asyncio.current_task()
    for sig in (signal.SIGTERM, signal.SIGINT):  # stop cleanly: the finally block stops everything
        loop.add_signal_handler(sig, me.cancel)
    cores = sorted(os.sched_getaffinity(0))
    if args.pin and len(cores) < 2:
        raise SystemExit("--pin needs two cores or more")
    shared = None
    tls = None
    if args.tls:  # the hall's listener with a certificate as deploy/tls/make-venue-cert makes it
        tls = work / "tls"
        subprocess.run([str(stp.ROOT / "deploy" / "tls" / "make-venue-cert"), str(tls), "venue.example"],
                       check=True, capture_output=True)
        os.environ["BENCH_TLS_CA"] = str(tls / "ca.crt")  # the workers inherit it
    nginx = DeployNginx(work, "hall.conf", args.hall_workers, tls)  # the hall's own, as deploy runs it
    room_nginx = DeployNginx(work, "referee.conf")  # the room's: the players' phones, the consoles, the screens
    servers: list[stp.Server] = []
    workers: list[Worker] = []
    recorders: list[stp.Recorder] = []
    profilers: list[subprocess.Popen[bytes]] = []
    out: dict[str, Any] = {"machine": info, "args": vars(args)}
    ok = False
    try:
        if args.quiet_wait > 0:
            share = await stp.wait_for_quiet(args.quiet_wait)
            print(f"machine busy before start: {share * 100:.0f}% of one core (load average {os.getloadavg()[0]:.2f})",
                  flush=True)
        # On a port, as deploy's Redis: nginx's workers (hall.lua) reach it too.
        shared = await asyncio.to_thread(EmbeddedRedis(work / "shared", port=stp.free_port()).start)
        import redis

        store = redis.Redis.from_url(shared.url, decode_responses=True)
        store.config_set("latency-monitor-threshold", 5)  # Redis notes each wait of its own over 5 ms (LATENCY)

        def redis_waits() -> str:
            """Redis's own waits over 5 ms since the last call (LATENCY LATEST: an fsync of the
            append-only file, a slow command...), as `event max N ms`."""
            events = store.execute_command("LATENCY", "LATEST")
            store.execute_command("LATENCY", "RESET")
            return ", ".join(f"{e[0]} max {e[3]} ms" for e in events) or "none"
        env = {"REFEREE_SECRET_KEY": secrets.token_hex(32), "REFEREE_PROXIED": "1"}
        if args.push or args.h2:  # the hall's phones' questions from nginx's channel, as deploy ships it
            from referee.server.hall import push_url

            env["REFEREE_HALL_PUSH"] = push_url(nginx.push_port)
        os.environ["REFEREE_SECRET_KEY"] = env["REFEREE_SECRET_KEY"]  # --made-ids: the workers sign as the servers do
        for name in ["players", *(f"audience{k + 1}" for k in range(args.audience_processes))]:
            (work / name).mkdir()
            servers.append(stp.Server(work / name, gc_log=args.gc_log, shared=shared, env=env, name=name))
        for s in servers:
            await asyncio.to_thread(s.start)
        players, audience = servers[0], servers[1:]
        from referee.server.entry import limits_from_env
        from referee.server.hall import hall_config

        hall = hall_config(shared.url, env["REFEREE_SECRET_KEY"].encode(), limits_from_env(), replicas=0,
                           gather_ms=args.gather_ms)
        await asyncio.to_thread(nginx.start, players, audience, hall)
        await asyncio.to_thread(room_nginx.start, players, audience, hall)
        if args.h2:  # the workers inherit it
            os.environ["BENCH_H2_PORT"] = str(nginx.port if args.tls else nginx.h2_port)
        redis_pid = shared.process.pid
        if args.pin:  # the players' side (its process and nginx, Redis, this script) on the first core; the hall elsewhere
            for pid in (players.pid, redis_pid, os.getpid()):
                pin_process(pid, cores[:1])
            for s in audience:
                pin_process(s.pid, cores[1:])
            pin_tree(room_nginx.proc.pid, cores[:1])
            pin_tree(nginx.proc.pid, cores[1:])
        print(f"pids: {', '.join(f'{s.name} {s.pid}' for s in servers)}, redis {redis_pid}, the hall's nginx "
              f"{nginx.proc.pid} (deploy/nginx/hall.conf) on {nginx.url}, the room's {room_nginx.proc.pid} "
              f"(deploy/nginx/referee.conf) on {room_nginx.url}", flush=True)

        show = "crowd" + uuid.uuid4().hex[:8]
        await asyncio.to_thread(players.api, "create_show", show=show, name="Crowd burst")
        for name in stp.PLAYERS:
            await asyncio.to_thread(players.api, "add_player", show=show, name=name)
        match = stp.Match(players, show, random.Random(args.seed))
        table, version = await match.new_table()
        snapshot = await asyncio.to_thread(players.snapshot, show)
        # The hall: --workers processes, each its share of the devices, all from one go.
        # An epoll worker holds 2,500 devices for what a Python or Node worker's 500 cost: fewer
        # processes, so the scheduler does not hand the devices a core's share per worker.
        nworkers = args.workers or max(1, math.ceil(args.devices / (2500 if args.epoll else 500)))
        first = 0
        for j in range(nworkers):
            count = args.devices // nworkers + (1 if j < args.devices % nworkers else 0)
            workers.append(await Worker.launch(nginx.url, show, first, count, args.connect_concurrency, args.made_ids,
                                               work / f"worker-{j}.log"))
            first += count
        for w in workers:
            await w.read(120)
            if args.pin:
                pin_process(w.proc.pid, cores[1:])
        for w in workers:
            await w.send({"cmd": "go"})
        hello = [await w.read(CONNECT_TIMEOUT * max(1, w.count // 25) + 120) for w in workers]
        connected = sum(h["connected"] for h in hello)
        cms = [ms for h in hello for ms in h["connect_ms"]]
        pms = [ms for h in hello for ms in h["page_ms"]]
        connect_s = max(h["connected_at"] for h in hello) - min(h["go"] for h in hello)
        spread = established([s.port for s in servers])
        print(f"hall: {connected}/{args.devices} devices connected ({nworkers} workers, {args.connect_concurrency} in "
              f"flight each, {sum(h['failed'] for h in hello)} failed"
              f"{', e.g. ' + next(e for h in hello for e in h['errors']) if any(h['errors'] for h in hello) else ''})"
              f" in {connect_s:.1f} s ({len(cms) - connected} of them dropped again since); per device the page ("
              f"as deploy/ routes /a/) {fmt(stats(pms))}, then the socket {fmt(stats(cms))}; "
              f"connections per process: "
              + ", ".join(f"{s.name} {spread[s.port]}" for s in servers), flush=True)
        if args.tls:
            print(f"  TLS: {handshakes([h['tls'] for h in hello])}", flush=True)
        out["connect"] = {"connected": connected, "failed": sum(h["failed"] for h in hello), "wall_s": connect_s,
                          "page_ms": stats(pms), "socket_ms": stats(cms), "per_process": {s.name: spread[s.port] for s in servers}}

        # The room: its projector and the two phones, connected once the hall is in (the burst is
        # measured here, not the hall's arrival).
        stage = parse_qs(urlsplit(snapshot["projector"]).query)["stage"][0]
        room = {"nginx": room_nginx.url, "direct": players.url}[args.room]
        projector = await stp.Recorder("/public").connect(room + "?lane=stage", {"show": show, "stage": stage})
        crowd_events: list[tuple[float, dict[str, Any]]] = []
        projector.sio.on("crowd", lambda p=None: crowd_events.append((time.monotonic(), p)), namespace="/public")
        phones = [await stp.Recorder("/seat").connect(room + "?lane=seat", {"token": link["token"]})
                  for link in snapshot["links"]]
        recorders += [projector, *phones]
        for phone in (projector, *phones):
            if await phone.wait_for(table, version) is None:
                raise RuntimeError("the projector or a phone did not get the started table")

        meter = Meter(servers, redis_pid, nginx, workers)
        pace = storm.Pace(args.pace)
        for _ in range(args.warmup):
            await storm.submit(match, phones, projector, pace)
        redis_waits()
        m0 = meter.mark()
        idle = [await storm.submit(match, phones, projector, pace) for _ in range(args.samples)]
        m0b = meter.mark()
        idle_cpu = meter.delta(m0, m0b)
        idle_cpu["others"] = meter.others(m0, m0b)

        # The questions, one after the other (--questions); each: the question, then the burst, the
        # phones moving until every device has its answers.
        parts = [s.name for s in servers] + ["redis", "nginx", "clients", "bench"]
        server = [s.name for s in audience] + ["redis", "nginx"]  # the players' process moves the room

        def other(d: dict[str, Any]) -> float:
            """What the machine's processes spent beyond this run's (another program's work)."""
            return max(0.0, d["busy"] - sum(d[k] for k in parts))

        def per(keys: list[str], cpu: dict[str, Any], accepted: int) -> tuple[float, float]:
            """Issue 34's measure: the server's CPU (the audience processes, Redis, nginx) per
            accepted prediction, all of it and above what the same parts spend idle over as long."""
            spent = sum(cpu[k] for k in keys)
            idle_rate = sum(idle_cpu[k] for k in keys) / idle_cpu["t"]
            return 1000 * spent / accepted, 1000 * (spent - idle_rate * cpu["t"]) / accepted

        bursts: list[dict[str, Any]] = []
        for k in range(args.questions):
            if k:
                await asyncio.sleep(3)  # a moment between two questions, as in a show
                print(f"\n-- question {k + 1} of {args.questions}", flush=True)
                # The idle show again, just before this question: the two sides of the ratio are
                # taken at the same moment of the machine (whose own hiccups come and go).
                redis_waits()
                idle = [await storm.submit(match, phones, projector, pace) for _ in range(args.samples)]
            waits_idle = redis_waits()
            # The question, then the burst; the phones keep moving until every device has its answers.
            options = [f"보기 {i + 1}" for i in range(args.options)]
            m1 = meter.mark()
            if args.profile:
                for s in servers:
                    if (prof := stp.start_profiler(s.pid, Path(args.profile), s.name)) is not None:
                        profilers.append(prof)
            t_ask = time.monotonic()
            qid = (await asyncio.to_thread(players.api, "ask_question", show=show, text=f"다음 라운드에서 누가 이길까? ({k + 1})",
                                           options=options))["question"]
            t_open = time.monotonic()
            for w in workers:
                await w.send({"cmd": "burst", "question": qid, "start": t_open, "window": args.window,
                              "options": args.options, "resend": args.resend, "reconnect": args.reconnect,
                              "seed": args.seed + k})
            replies = [asyncio.ensure_future(w.read(args.window + QUESTION_TIMEOUT + 3 * ANSWER_TIMEOUT + 120))
                       for w in workers]
            during: list[tuple[float, float]] = []
            timeline: list[tuple[float, float, float]] = []  # each move of the burst: (s after the opening, ack, view)
            while not all(r.done() for r in replies):
                t_move = time.monotonic() - t_open
                during.append(await storm.submit(match, phones, projector, pace))
                timeline.append((round(t_move, 3), round(during[-1][0], 1), round(during[-1][1], 1)))
            t_done = time.monotonic()
            for prof in profilers:
                stop_profiler(prof)
            profilers.clear()
            m2 = meter.mark()
            burst_cpu = meter.delta(m1, m2)
            burst_cpu["others"] = meter.others(m1, m2)
            answers = [r.result() for r in replies]
            records = [r for a in answers for r in a["records"]]
            devices = {int(k): v for a in answers for k, v in a["devices"].items()}
            shown = [t - t_open for a in answers for t in a["shown"] if t is not None]

            # After the burst: the ticker's last split on the projector, then close, then compare.
            await asyncio.sleep(2 * 0.5 + 0.5)
            live = await asyncio.to_thread(players.snapshot, show)
            live_counts = next(q for q in live["crowd"]["questions"] if q["id"] == qid)["counts"]
            last_live = next((p for _t, p in reversed(crowd_events) if p and p.get("questions")), None)
            projector_live = next((q["counts"] for q in (last_live or {}).get("questions", []) if q["id"] == qid), None)
            n_events = sum(1 for t, _p in crowd_events if t_open <= t <= t_done)
            await asyncio.to_thread(players.api, "close_question", show=show, question=qid)
            closed_event = None
            deadline = time.monotonic() + 15
            while closed_event is None and time.monotonic() < deadline:
                closed_event = next((q for _t, p in reversed(crowd_events) for q in (p or {}).get("questions", [])
                                     if q["id"] == qid and q["state"] == "closed"), None)
                await asyncio.sleep(0.05)
            final = await asyncio.to_thread(players.snapshot, show)
            stored = next(q for q in final["crowd"]["questions"] if q["id"] == qid)["counts"]
            waits_burst = redis_waits()
            votes = store.hgetall(f"ref:crowd:{show}:v:{qid}")
            verdict = check(records, devices, stored, votes, args.options)

            # The figures.
            firsts = [x for x in records if x[1] == FIRST]
            accepted_acks = sorted(x[4] for x in records if x[5] == "ok" and not x[8])
            sends = sorted(x[3] for x in records)
            answer_ms = [(x[4] - x[3]) * 1000 for x in records if x[5] == "ok"]
            burst_s = (max(x[4] for x in records) - t_open) if records else math.nan
            # The projector's staleness: each crowd event's total against when that many had been acked.
            lag = []
            for t, p in crowd_events:
                q = next((q for q in (p or {}).get("questions", []) if q["id"] == qid), None)
                if q and q["state"] == "open" and 0 < q["total"] <= len(accepted_acks) and t <= t_done:
                    lag.append(max(0.0, t - accepted_acks[q["total"] - 1]) * 1000)
            calls = burst_cpu["calls"]
            npred = len(records)
            ack_idle, view_idle = [a for a, _ in idle], [v for _, v in idle]
            ack_burst, view_burst = [a for a, _ in during], [v for _, v in during]

            def ratio(a: list[float], b: list[float], q: float) -> float:
                return stp.percentile(b, q) / stp.percentile(a, q) if a and b else math.nan

            print()
            print(f"question {qid} opened in {(t_open - t_ask) * 1000:.0f} ms (staff API); shown on the devices' phones "
                  f"{fmt(stats([s * 1000 for s in shown]))} after (all {len(shown)} of {connected} at "
                  f"{max(shown, default=math.nan):.2f} s); {sum(a['held'] for a in answers)} sends waited for that")
            print(f"burst: {len(firsts)} devices sent, {npred} predictions in all (resends {args.resend:.0%}, reconnects "
                  f"{args.reconnect:.0%}); first send {sends[0] - t_open if sends else math.nan:.2f} s after the opening, "
                  f"last send {sends[-1] - t_open if sends else math.nan:.2f} s, last accepted ack "
                  f"{accepted_acks[-1] - t_open if accepted_acks else math.nan:.2f} s, last ack of all {burst_s:.2f} s; "
                  f"{len(accepted_acks)} accepted, "
                  f"{len(accepted_acks) / (accepted_acks[-1] - sends[0]) if len(accepted_acks) > 1 else math.nan:.0f} "
                  f"accepted a second (first send to last accepted ack), {npred / burst_s:.0f} predictions a second")
            print(f"  each prediction, send to ack: {fmt(stats(answer_ms))}")
            if args.tls:
                print(f"  TLS: {handshakes([a['tls'] for a in answers])}")
            o = verdict["outcome"]
            print(f"  acks: first sends ok {o[FIRST]['ok']} (again {o[FIRST]['again']}); resends again {o[RESEND]['again']} "
                  f"(ok {o[RESEND]['ok']}); after a reconnect again {o[RECONNECT]['again']} (ok {o[RECONNECT]['ok']}; an ok "
                  f"there: the device's first send was not accepted); devices accepted twice {verdict['twice']}; "
                  f"refused or lost: {verdict['refused'] or 'none'}")
            print(f"  counts: accepted per option {verdict['expected_counts']}; stored (API) {stored}; votes in Redis "
                  f"{verdict['stored_votes']} ({verdict['counted_by_a_lost_ack']} of them sent by a device whose ack was lost, "
                  f"{verdict['votes_without_ack']} unexplained); device by device "
                  f"{'all equal' if verdict['counts_match'] else 'NOT equal'}; problems: {verdict['problems'][:5] or 'none'}")
            print(f"  projector: {n_events} crowd events during the burst; its split {fmt(stats(lag))} behind the acks; "
                  f"its last live split {projector_live} (stored then {live_counts}); at the close "
                  f"{closed_event['counts'] if closed_event else 'no closed event'} (stored {stored})")
            print(f"moves (a phone's submit every {args.pace} s at least), ms:")
            print(f"  ack, idle:                 {fmt(stats(ack_idle))}")
            print(f"  ack, during the burst:     {fmt(stats(ack_burst))}")
            slowest = sorted(timeline, key=lambda m: -m[1])[:3]
            print("  the slowest acks of the burst: " + ", ".join(f"{a} ms at {t:.2f} s" for t, a, _v in slowest))
            print(f"  Redis's own waits over 5 ms (LATENCY), idle: {waits_idle}; from the question to the close: {waits_burst}")
            print(f"  projector, idle:           {fmt(stats(view_idle))}")
            print(f"  projector, during burst:   {fmt(stats(view_burst))}")
            print(f"  ratio burst/idle: ack p50 {ratio(ack_idle, ack_burst, 50):.2f}, p99 {ratio(ack_idle, ack_burst, 99):.2f};"
                  f" projector p50 {ratio(view_idle, view_burst, 50):.2f}, p99 {ratio(view_idle, view_burst, 99):.2f}")
            span = burst_cpu["t"]
            print(f"CPU during the burst ({span:.1f} s from the question to the last answer), seconds (share of one core): "
                  + ", ".join(f"{k} {burst_cpu[k]:.2f} ({burst_cpu[k] / span:.0%})" for k in parts)
                  + f"; kernel irq {burst_cpu['irq']:.2f}; other processes {other(burst_cpu):.2f} "
                  f"({', '.join(f'{k} {v}' for k, v in burst_cpu['others']) or '-'}); whole machine "
                  f"{burst_cpu['busy'] + burst_cpu['irq']:.2f} of {span * len(cores):.1f}")
            print(f"CPU while idle ({idle_cpu['t']:.1f} s of moves): "
                  + ", ".join(f"{k} {idle_cpu[k]:.2f}" for k in parts) + f"; other processes {other(idle_cpu):.2f} ({', '.join(f'{k} {v}' for k, v in idle_cpu['others']) or '-'})")
            accepted = max(1, len(accepted_acks))
            cpu_per = {name: per(keys, burst_cpu, accepted) for name, keys in
                       (("server", server), ("nginx", ["nginx"]), ("redis", ["redis"]))}
            print("server CPU per accepted prediction, all / above idle, ms: " + ", ".join(
                f"{name} {all_:.3f} / {above:.3f}" for name, (all_, above) in cpu_per.items()))
            print(f"Redis commands during the burst: {sum(calls.values())} "
                  f"({sum(calls.values()) / max(1, npred):.2f} per prediction: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(calls.items(), key=lambda kv: -kv[1])[:8]) + ")")

            # The devices send within the window; the servers keep up when the last accepted ack comes
            # within a second of it (no backlog building up).
            last_accepted = accepted_acks[-1] - t_open if accepted_acks else math.nan
            within = last_accepted <= args.window + 1.0
            move_ok = ratio(ack_idle, ack_burst, 99) <= 1.5 and ratio(view_idle, view_burst, 99) <= 1.5
            move_ok_34 = ratio(ack_idle, ack_burst, 99) <= 2  # issue 34: the players' ack p99 within 2x idle
            proj_ok = closed_event is not None and closed_event["counts"] == stored and projector_live == live_counts
            # A resend or a reconnect's send is accepted only when the device's first was not (refused,
            # lost): never a second vote.
            reconnect_ok = verdict["twice"] == 0
            all_in = len(accepted_acks) == args.devices
            print()
            print(f"goal 8: all {args.devices} devices accepted: {all_in}; the last accepted within {args.window} s + 1 s of "
                  f"the opening: {within} ({last_accepted:.2f} s); counted exactly once: {verdict['counts_match'] and not verdict['problems']}; "
                  f"projector = stored: {proj_ok}; moves' p99 within 1.5x idle: {move_ok} (the ack's within 2x: {move_ok_34}); "
                  f"no second vote by a "
                  f"resend or a reconnect: {reconnect_ok}")
            out.setdefault("questions", []).append({"question_open_ms": (t_open - t_ask) * 1000, "shown_ms": stats([s * 1000 for s in shown]),
                        "burst_s": burst_s, "last_accepted_s": last_accepted, "predictions": npred, "answer_ms": stats(answer_ms), "verdict": verdict,
                        "projector": {"events": n_events, "lag_ms": stats(lag), "last_live": projector_live,
                                      "stored_then": live_counts, "closed": closed_event and closed_event["counts"]},
                        "moves": {"ack_idle": stats(ack_idle), "ack_burst": stats(ack_burst), "view_idle": stats(view_idle),
                                  "view_burst": stats(view_burst), "burst_timeline": timeline},
                        "cpu_burst": burst_cpu, "cpu_idle": idle_cpu, "cpu_per_prediction_ms": cpu_per,
                        "goal": {"all_in": all_in, "within": within, "once": verdict["counts_match"],
                                 "projector": proj_ok, "moves": move_ok, "moves_34": move_ok_34, "reconnect": reconnect_ok}})
            if args.gc_log:
                for s in servers:
                    print(f"{s.name}'s collections during the burst: {s.gc_pauses([(t_ask, t_done)])}")
            bursts.append({"idle": idle, "during": during, "cpu": burst_cpu, "accepted": accepted,
                           "ok": verdict["counts_match"] and not verdict["problems"] and proj_ok and reconnect_ok})
        if len(bursts) > 1:  # the moves of every burst together: a p99 of more than one burst's fifty moves
            pooled = [m for b in bursts for m in b["during"]]
            ack_all, view_all = [a for a, _ in pooled], [v for _, v in pooled]
            ack_idle, view_idle = [a for b in bursts for a, _ in b["idle"]], [v for b in bursts for _, v in b["idle"]]
            together = {k: sum(b["cpu"][k] for b in bursts) for k in [*parts, "t"]}
            taken = sum(b["accepted"] for b in bursts)
            cpu_all = {name: per(keys, together, taken) for name, keys in
                       (("server", server), ("nginx", ["nginx"]), ("redis", ["redis"]))}
            print(f"\nall {len(bursts)} bursts: moves' ack, idle {fmt(stats(ack_idle))}; during the bursts "
                  f"{fmt(stats(ack_all))}; ratio p50 {ratio(ack_idle, ack_all, 50):.2f}, p99 "
                  f"{ratio(ack_idle, ack_all, 99):.2f} (within 2x: {ratio(ack_idle, ack_all, 99) <= 2}); projector p99 "
                  f"{ratio(view_idle, view_all, 99):.2f}; server CPU per accepted prediction, all / above idle, ms: "
                  + ", ".join(f"{name} {all_:.3f} / {above:.3f}" for name, (all_, above) in cpu_all.items()))
            out["pooled"] = {"ack_burst": stats(ack_all), "view_burst": stats(view_all), "cpu_per_prediction_ms": cpu_all}
        ok = all(b["ok"] for b in bursts)
        return 0 if ok else 1
    finally:
        for prof in profilers:
            stop_profiler(prof)
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)
        for rec in recorders:
            await rec.close()
        await asyncio.to_thread(nginx.stop)
        await asyncio.to_thread(room_nginx.stop)
        for s in servers:
            await asyncio.to_thread(s.stop)
        if shared is not None:
            await asyncio.to_thread(shared.stop)
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2, default=str))
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def stop_profiler(proc: subprocess.Popen[bytes]) -> None:
    stp.stop_profiler(proc)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--devices", type=int, default=10_000, help="audience devices (each its own cookie and address)")
    p.add_argument("--audience-processes", type=int, default=3, help="audience processes behind nginx (1..8)")
    p.add_argument("--window", type=float, default=5.0, help="seconds over which the devices send (uniformly)")
    p.add_argument("--resend", type=float, default=0.1, help="share of the devices that send again at once")
    p.add_argument("--reconnect", type=float, default=0.05,
                   help="share that reconnect (same cookie) and send another option")
    p.add_argument("--options", type=int, default=4, help="the question's options (2..9)")
    p.add_argument("--samples", type=int, default=100, help="moves measured on the idle show (before each question)")
    p.add_argument("--hall-workers", type=int, default=4, help="the hall's nginx's worker processes")
    p.add_argument("--questions", type=int, default=1,
                   help="questions asked one after the other, each with its burst; the moves of all pooled")
    p.add_argument("--warmup", type=int, default=10, help="unmeasured moves first")
    p.add_argument("--pace", type=float, default=0.1, help="seconds from one move to the next at least")
    p.add_argument("--workers", type=int, default=0, help="worker processes for the devices (0: one per 500, per 2,500 with --epoll)")
    p.add_argument("--connect-concurrency", type=int, default=25, help="devices connecting at once per worker")
    p.add_argument("--made-ids", action="store_true",
                   help="sign device ids with the servers' key instead of opening /a/<show> for each device's cookie")
    p.add_argument("--gather-ms", type=float, default=GATHER_MS,
                   help="how long each nginx worker gathers predictions into one Redis pipeline (hall.lua; "
                        f"deploy's {GATHER_MS} ms; 0: the next turn of its loop)")
    p.add_argument("--pin", action="store_true",
                   help="the players' process, Redis and this script on the first core; the audience processes "
                        "and the devices on the others (as if the hall were other machines)")
    p.add_argument("--quiet-wait", type=float, default=300,
                   help="first wait up to this many seconds for other processes to go idle (0: start at once)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--profile", metavar="DIR", help="py-spy record every server during the burst (skews figures)")
    p.add_argument("--gc-log", action="store_true", help="the servers' garbage collections during the burst")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    # worker mode (internal)
    stp.add_plain_argument(p)
    p.add_argument("--light", action="store_true",
                   help="devices that speak Engine.IO and Socket.IO directly (bench/light_socket.py), far cheaper "
                        "per device than python-socketio's client")
    p.add_argument("--node", action="store_true",
                   help="devices in Node (bench/crowd_devices.js): the same protocols directly, for less CPU a device "
                        "than --light")
    p.add_argument("--room", choices=("nginx", "direct"), default="nginx",
                   help="where the room's two phones and projector connect: the room's nginx (deploy/nginx/referee.conf, "
                        "default) or straight to the players' process")
    p.add_argument("--push", action="store_true",
                   help="the hall's phones take their questions from nginx's channel (nchan, an EventSource each; "
                        "REFEREE_HALL_PUSH), as deploy/ ships it, not from the /crowd socket (needs --epoll)")
    p.add_argument("--h2", action="store_true",
                   help="the channel's devices speak HTTP/2 as browsers do (their EventSource and posts streams of "
                        "one connection): with --tls on the hall's listener as shipped, else in the clear on a "
                        "listener the bench adds (HTTP/2 in the clear is not what a browser speaks)")
    p.add_argument("--tls", action="store_true",
                   help="the hall's nginx speaks TLS as deploy's does (a certificate from deploy/tls/make-venue-cert, "
                        "deploy's ssl_ settings) and the devices with it, each offering its newest session again "
                        "as a browser does: what the handshakes cost (needs --push)")
    p.add_argument("--epoll", action="store_true",
                   help="devices on raw non-blocking sockets, one epoll a worker (bench/crowd_epoll.py): the "
                        "cheapest per device, so the machine's cores go to the servers")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--show", help=argparse.SUPPRESS)
    p.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    stp.apply_plain(args)
    if args.light:
        os.environ["BENCH_LIGHT"] = "1"  # the workers inherit it
    if args.node:
        if args.made_ids:
            p.error("--node devices open the audience page (no --made-ids)")
        os.environ["BENCH_NODE"] = "1"
    if args.epoll:
        os.environ["BENCH_EPOLL"] = "1"
    if args.push or args.h2:
        if not args.epoll:
            p.error("--push and --h2 devices are --epoll devices")
        os.environ["BENCH_PUSH"] = "1"
    if args.tls and not args.push:
        p.error("--tls devices are --push devices")
    if args.worker:
        return asyncio.run(worker_main(args))
    if not (1 <= args.devices <= 60_000 and 1 <= args.audience_processes <= 8 and 2 <= args.options <= 9
            and args.window > 0 and 0 <= args.resend + args.reconnect <= 1 and args.samples >= 1):
        p.error("devices 1..60000, audience processes 1..8, options 2..9, window > 0, resend + reconnect <= 1")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
