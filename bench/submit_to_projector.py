#!/usr/bin/env python3
"""Benchmark: the time from a phone's submit to the projectors holding the new public view.

A real ``referee serve`` subprocess (with its own embedded Redis in a temporary data
directory) on loopback; a show with two players at a Tricky Coin table, made through the JSON
API; two phone clients on /seat, one *measuring* projector on /public, and N *extra*
projector clients on /public of the same show. The extra clients are python-socketio
``AsyncClient`` instances inside one or a few worker processes (this script re-run with
``--worker``), one asyncio loop each, not N threads.

Each sample: a phone (seats alternate where the game allows) submits a legal move picked from
its latest view's decisions, and the script times, from just before the emit,

* ``ack``        the submit's acknowledgement reaching the phone,
* ``projector``  the measuring projector receiving a public view of that table with
                 ``version >= acked version``,
* ``all N``      the last of the N extra projectors receiving such a view (the workers count
                 how many of the N got it; a sample waits until all N have it, or times out).

When a match ends the script creates and starts a new table in the same show (fixed seeds
and a fixed move RNG, so every size plays the same moves). Each size runs on a fresh server.
Every loop is bounded in count and time; only 127.0.0.1 is contacted; the script cleans up
its server, the embedded redis-server and its workers by itself.

Run from the checkout (needs the project installed, plus aiohttp for the asyncio client):

    pip install aiohttp            # python-socketio's AsyncClient uses it for websockets
    python bench/submit_to_projector.py                   # sizes 1,100,1000; 200 samples each
    python bench/submit_to_projector.py --sizes 100 --samples 50 --json out.json
    python bench/submit_to_projector.py --sizes 1000 --profile /tmp/prof   # py-spy the server

See bench/README.md and docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PIN = "4321"
ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("김하나", "이두리")
GAME = "tricky_coin"
NOFILE_WANTED = 16_384

# Bounds (seconds) on every wait.
SERVER_START_TIMEOUT = 60.0
ACK_TIMEOUT = 10.0
VIEW_TIMEOUT = 15.0  # a projector / all extra clients / both phones holding a version
CONNECT_TIMEOUT = 20.0
MAX_CONSECUTIVE_FAILURES = 5
MAX_TABLES_PER_SIZE = 100


# -- small helpers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_nofile(want: int = NOFILE_WANTED) -> int:
    """Raise the soft open-file limit towards `want` (1,000 sockets need more than 1,024 on
    some machines); returns the soft limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc), 0.0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def machine_busy_seconds() -> tuple[float, float]:
    """CPU seconds the whole machine has spent (Linux /proc/stat, all cores): in processes
    (user, nice, system) and in interrupts (irq, softirq: loopback TCP is largely softirq)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + steal) / tick, (irq + softirq) / tick


async def wait_for_quiet(max_wait: float, threshold: float = 0.25) -> float:
    """Wait (at most `max_wait` s) until the machine's processes use under `threshold` of one
    core over 2 s; returns the last measured share. Other work on a 2-core machine skews the
    figures, so each size starts on a quiet machine when it can."""
    deadline = time.monotonic() + max_wait
    while True:
        a = machine_busy_seconds()
        await asyncio.sleep(2.0)
        b = machine_busy_seconds()
        share = (b[0] - a[0] + b[1] - a[1]) / 2.0
        if share < threshold or time.monotonic() >= deadline:
            return share


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def pid_alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


# -- the server subprocess -------------------------------------------------------------------------

# A what-if for --what-if-nodelay: the same `referee.cli serve`, but the listening socket that
# Flask-SocketIO makes with eventlet.listen gets TCP_NODELAY (accepted sockets inherit it on
# Linux), so a second small frame on a socket is not held back by Nagle's algorithm until the
# client's delayed ACK. Set by this launcher; the server's code is unchanged.
NODELAY_LAUNCHER = """
import runpy, socket, sys
import eventlet
eventlet.monkey_patch()
_listen = eventlet.listen
def listen(*args, **kwargs):
    sock = _listen(*args, **kwargs)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock
eventlet.listen = listen
sys.argv = ["referee", *sys.argv[1:]]
runpy.run_module("referee.cli", run_name="__main__")
"""

# With --gc-log the server runs with this sitecustomize (on PYTHONPATH, server process only): it
# appends "monotonic_start generation milliseconds collected" for each collection to a file. The
# server's code is unchanged.
GC_TRACE = """
import gc, os, time
_path = os.environ.get("BENCH_GC_LOG")
if _path:
    _out = open(_path, "a", buffering=1)
    _start = [0.0]
    def _trace(phase, info):
        if phase == "start":
            _start[0] = time.monotonic()
        else:
            t = time.monotonic()
            _out.write(f"{_start[0]:.6f} {info['generation']} {(t - _start[0]) * 1000:.3f} {info['collected']}\\n")
    gc.callbacks.append(_trace)
"""


class Server:
    """``python -m referee.cli serve`` on 127.0.0.1 with its own embedded Redis in `data_dir`."""

    def __init__(self, data_dir: Path, gc_log: bool = False, nodelay: bool = False) -> None:
        self.data_dir = data_dir
        self.nodelay = nodelay
        self.gc_log = data_dir / "gc.log" if gc_log else None
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server.log"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("REDIS_URL", None)  # always the embedded Redis in our own data directory
        # Lift the per-phone submit limit (30 per 10 s by default): the bench submits back to back.
        env["REFEREE_RATE_SUBMIT"] = "1000000/10"
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        if self.gc_log is not None:
            trace_dir = self.data_dir / "gctrace"
            trace_dir.mkdir(exist_ok=True)
            (trace_dir / "sitecustomize.py").write_text(GC_TRACE)
            env["PYTHONPATH"] = str(trace_dir) + os.pathsep + env["PYTHONPATH"]
            env["BENCH_GC_LOG"] = str(self.gc_log)
        self._log = open(self.log_path, "ab")
        serve = ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir),
                 "--pin", PIN, "--public-url", self.url]
        command = [sys.executable, "-m", "referee.cli", *serve]
        if self.nodelay:
            command = [sys.executable, "-c", NODELAY_LAUNCHER, *serve]
        self.proc = subprocess.Popen(
            command,
            stdout=self._log, stderr=subprocess.STDOUT, env=env, cwd=str(ROOT),
        )
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log_path.read_text(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as resp:
                    if resp.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        raise RuntimeError("server did not become healthy in time")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def gc_pauses(self, windows: list[tuple[float, float]]) -> dict[str, Any]:
        """Collections that started within the (monotonic) windows, per generation: count,
        total and max ms (wall time: a collection preempted by another process looks longer)."""
        out: dict[str, Any] = {}
        if self.gc_log is None or not self.gc_log.exists():
            return out
        for line in self.gc_log.read_text().splitlines():
            try:
                t, gen, ms, _collected = line.split()
            except ValueError:
                continue
            if any(start <= float(t) <= end for start, end in windows):
                g = out.setdefault(f"gen{gen}", {"count": 0, "total_ms": 0.0, "max_ms": 0.0})
                g["count"] += 1
                g["total_ms"] = round(g["total_ms"] + float(ms), 3)
                g["max_ms"] = max(g["max_ms"], float(ms))
        return out

    def redis_calls(self) -> dict[str, int]:
        """Calls per command so far (Redis INFO commandstats), without our own INFO."""
        import redis

        try:
            if getattr(self, "_redis", None) is None:  # one connection, so its HELLO counts once
                port = int((self.data_dir / "redis" / "port").read_text().strip())
                self._redis = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)
            stats = self._redis.info("commandstats")
        except (OSError, ValueError, redis.RedisError):
            return {}
        return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items() if k != "cmdstat_info"}

    def redis_pid(self) -> int | None:
        pid_file = self.data_dir / "redis" / "redis.pid"
        try:
            return int(pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    def _request(self, method: str, path: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if payload is None else json.dumps(payload).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"X-Staff-Pin": PIN, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                out = json.loads(resp.read())
        except urllib.error.HTTPError as err:
            out = json.loads(err.read() or b"{}")
        if not out.get("ok"):
            raise RuntimeError(f"{method} {path} failed: {out}")
        return out

    def api(self, command: str, **payload: Any) -> dict[str, Any]:
        return self._request("POST", f"/api/{command}", payload)

    def snapshot(self, show: str) -> dict[str, Any]:
        return self._request("GET", f"/api/shows/{show}")["snapshot"]

    def stop(self) -> None:
        """Stop the server, then its embedded redis-server if that outlived it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
        if getattr(self, "_log", None):
            self._log.close()
        self._stop_redis()

    def _stop_redis(self) -> None:
        pid = self.redis_pid()
        if pid is None or not pid_alive(pid):
            return
        try:  # only a redis-server working in our data directory (it rewrites its own title)
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            return
        if "redis-server" not in cmdline or Path(cwd).resolve() != (self.data_dir / "redis").resolve():
            return
        for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and pid_alive(pid):
                time.sleep(0.05)
            if not pid_alive(pid):
                return


# -- the extra projectors: a worker process of AsyncClients ----------------------------------------


@dataclass
class Pending:
    table: str
    version: int
    remaining: set[int]
    done: asyncio.Event = field(default_factory=asyncio.Event)


def view_key(payload: Any) -> tuple[str | None, int]:
    """(table id, version) of a /public or /seat payload."""
    if not isinstance(payload, dict):
        return None, -1
    table = payload.get("table")
    return (table.get("table") if isinstance(table, dict) else None), int(payload.get("version") or 0)


async def worker_main(args: argparse.Namespace) -> int:
    """Connect `--count` projector clients, then answer JSON-line commands on stdin:

    {"cmd": "wait", "table": T, "version": V, "timeout": s} -> {"got": n, "first": t, "last": t}
        (n clients have a view of table T with version >= V; t: monotonic times of the first
        and the last of them to receive it)
    {"cmd": "stats"} -> {"received": views received so far, "cpu": this process's CPU seconds}
    {"cmd": "quit"}  -> disconnects everyone and exits
    """
    raise_nofile()
    import aiohttp
    import socketio

    n = args.count
    receipts: list[list[tuple[str | None, int, float]]] = [[] for _ in range(n)]
    received = [0]
    pending: list[Pending | None] = [None]
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))  # no cap on websockets
    clients: list[Any] = []

    def handler(i: int):
        def on_view(payload: Any = None) -> None:
            t = time.monotonic()
            table, version = view_key(payload)
            receipts[i].append((table, version, t))
            received[0] += 1
            p = pending[0]
            if p is not None and table == p.table and version >= p.version and i in p.remaining:
                p.remaining.discard(i)
                if not p.remaining:
                    p.done.set()

        return on_view

    async def connect(i: int, gate: asyncio.Semaphore) -> str | None:
        async with gate:
            # Plain stdlib json: engineio's default decoder calls a Python hook for every integer
            # in a payload, a tenth of these clients' CPU. (A browser projector has neither.)
            sio = socketio.AsyncClient(reconnection=False, handle_sigint=False, http_session=session, json=json)
            sio.on("view", handler(i), namespace="/public")
            clients.append(sio)
            try:
                await asyncio.wait_for(
                    sio.connect(args.url, namespaces=["/public"], auth={"show": args.show}, transports=["websocket"],
                                wait_timeout=CONNECT_TIMEOUT),
                    CONNECT_TIMEOUT + 5)
                return None
            except Exception as err:  # noqa: BLE001 - reported to the orchestrator
                return f"{type(err).__name__}: {err}"

    gate = asyncio.Semaphore(args.connect_concurrency)
    errors = [e for e in await asyncio.gather(*(connect(i, gate) for i in range(n))) if e]
    connected = sum(1 for c in clients if c.connected and "/public" in c.namespaces)
    # Wait (bounded) until every connected client holds its connect snapshot.
    deadline = time.monotonic() + VIEW_TIMEOUT
    while time.monotonic() < deadline and sum(1 for r in receipts if r) < connected:
        await asyncio.sleep(0.05)
    reply({"connected": connected, "snapshots": sum(1 for r in receipts if r), "errors": errors[:5],
           "failed": len(errors)})

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        cmd = json.loads(line)
        if cmd["cmd"] == "wait":
            table, version = cmd["table"], cmd["version"]
            remaining = {i for i, rs in enumerate(receipts)
                         if not any(t_id == table and v >= version for t_id, v, _t in rs)}
            p = Pending(table, version, remaining)
            if remaining:
                pending[0] = p
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(p.done.wait(), cmd.get("timeout", VIEW_TIMEOUT))
                pending[0] = None
            times: list[float] = []
            for rs in receipts:
                for k, (t_id, v, t) in enumerate(rs):
                    if t_id == table and v >= version:
                        times.append(t)
                        del rs[:k]  # later waits look only from here on
                        break
            reply({"got": len(times), "first": min(times) if times else None, "last": max(times) if times else None})
        elif cmd["cmd"] == "stats":
            reply({"received": received[0], "cpu": time.process_time(),
                   "connected": sum(1 for c in clients if c.connected)})
        elif cmd["cmd"] == "quit":
            break

    async def close(sio: Any) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sio.disconnect(), 5)

    await asyncio.gather(*(close(c) for c in clients))
    await session.close()
    reply({"bye": True})
    return 0


def reply(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Worker:
    """The orchestrator's handle on one worker process."""

    def __init__(self, proc: asyncio.subprocess.Process, count: int) -> None:
        self.proc = proc
        self.count = count

    @classmethod
    async def start(cls, url: str, show: str, count: int, concurrency: int, log: Path) -> Worker:
        err = open(log, "ab")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--worker", "--url", url, "--show", show,
            "--count", str(count), "--connect-concurrency", str(concurrency),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err,
            limit=1 << 20)
        err.close()
        return cls(proc, count)

    async def read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError("worker exited")
        return json.loads(line)

    async def ask(self, cmd: dict[str, Any], timeout: float) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        await self.proc.stdin.drain()
        return await self.read(timeout)

    async def stop(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                await self.ask({"cmd": "quit"}, 30)
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()


# -- the measuring clients (in the orchestrator) ---------------------------------------------------


class Recorder:
    """A python-socketio AsyncClient on one namespace that records (table, version, time) of
    every "view" and keeps the latest payload."""

    def __init__(self, namespace: str) -> None:
        import socketio

        self.namespace = namespace
        self.sio = socketio.AsyncClient(reconnection=False, handle_sigint=False)
        self.latest: Any = None
        self.seen: list[tuple[str | None, int, float]] = []
        self.changed = asyncio.Event()
        self.sio.on("view", self._on_view, namespace=namespace)

    def _on_view(self, payload: Any = None) -> None:
        t = time.monotonic()
        table, version = view_key(payload)
        self.seen.append((table, version, t))
        del self.seen[:-200]
        self.latest = payload
        self.changed.set()

    async def connect(self, url: str, auth: dict[str, Any]) -> Recorder:
        await asyncio.wait_for(self.sio.connect(url, namespaces=[self.namespace], auth=auth, transports=["websocket"],
                                                wait_timeout=CONNECT_TIMEOUT), CONNECT_TIMEOUT + 5)
        return self

    def first_at(self, table: str, version: int) -> float | None:
        for t_id, v, t in self.seen:
            if t_id == table and v >= version:
                return t
        return None

    async def wait_for(self, table: str, version: int, timeout: float = VIEW_TIMEOUT) -> float | None:
        deadline = time.monotonic() + timeout
        while (t := self.first_at(table, version)) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return t

    async def call(self, event: str, payload: Any, timeout: float = ACK_TIMEOUT) -> Any:
        return await self.sio.call(event, payload, namespace=self.namespace, timeout=timeout)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.sio.disconnect(), 5)


# -- one size --------------------------------------------------------------------------------------


@dataclass
class SizeResult:
    extra: int
    workers: int
    connected: int = 0
    samples: int = 0
    ack: list[float] = field(default_factory=list)
    projector: list[float] = field(default_factory=list)
    own_phone: list[float] = field(default_factory=list)  # the submitting phone's own new seat view
    all_extra: list[float] = field(default_factory=list)
    got: list[int] = field(default_factory=list)  # how many of the extra clients got each update
    failures: list[str] = field(default_factory=list)
    tables: int = 0
    server_cpu_ms_per_update: float = 0.0
    redis_cpu_ms_per_update: float = 0.0
    client_cpu_ms_per_update: float = 0.0
    bench_cpu_ms_per_update: float = 0.0  # the orchestrator (phones, measuring projector)
    other_cpu_ms_per_update: float = 0.0  # processes that are not part of this benchmark
    irq_cpu_ms_per_update: float = 0.0  # the kernel's interrupt time (mostly loopback networking)
    server_rss_mib: float = 0.0
    deliveries: int = 0  # views the extra clients received during the measured part
    expected_deliveries: int = 0  # public updates sent in that time x extra clients
    discarded_blocks: int = 0
    redis_calls: dict[str, float] = field(default_factory=dict)  # Redis commands per update, by command
    wall_s: float = 0.0
    gc: dict[str, Any] = field(default_factory=dict)  # with --gc-log: the server's collections

    def summary(self) -> dict[str, Any]:
        def stats(xs: list[float]) -> dict[str, float] | None:
            if not xs:
                return None
            return {"p50": percentile(xs, 50), "p99": percentile(xs, 99), "max": max(xs), "mean": sum(xs) / len(xs)}

        return {
            "extra": self.extra, "workers": self.workers, "connected": self.connected, "samples": self.samples,
            "ok_samples": len(self.all_extra), "ack_ms": stats(self.ack), "projector_ms": stats(self.projector),
            "own_phone_ms": stats(self.own_phone),
            "all_extra_ms": stats(self.all_extra), "got_min": min(self.got) if self.got else 0,
            "got_full": sum(1 for g in self.got if g == self.extra), "deliveries": self.deliveries,
            "expected_deliveries": self.expected_deliveries, "discarded_blocks": self.discarded_blocks,
            "tables": self.tables, "server_cpu_ms_per_update": round(self.server_cpu_ms_per_update, 2),
            "redis_cpu_ms_per_update": round(self.redis_cpu_ms_per_update, 2),
            "client_cpu_ms_per_update": round(self.client_cpu_ms_per_update, 2),
            "bench_cpu_ms_per_update": round(self.bench_cpu_ms_per_update, 2),
            "other_cpu_ms_per_update": round(self.other_cpu_ms_per_update, 2),
            "irq_cpu_ms_per_update": round(self.irq_cpu_ms_per_update, 2),
            "loadavg_after": os.getloadavg()[0],
            "server_rss_mib": round(self.server_rss_mib, 1), "wall_s": round(self.wall_s, 1),
            "gc": self.gc, "redis_calls_per_update": self.redis_calls, "failures": self.failures[:10],
        }


class Match:
    """The show's current table as the phones see it, and the choice of the next move."""

    def __init__(self, server: Server, show: str, rnd: random.Random) -> None:
        self.server = server
        self.show = show
        self.rnd = rnd
        self.table = ""
        self.tables = 0
        self.last_seat = 1

    async def new_table(self) -> tuple[str, int]:
        if self.tables >= MAX_TABLES_PER_SIZE:
            raise RuntimeError("too many tables")
        self.tables += 1
        out = await asyncio.to_thread(self.server.api, "create_table", show=self.show, game=GAME,
                                      players=list(PLAYERS), seed=1000 + self.tables)
        self.table = out["table"]
        ack = await asyncio.to_thread(self.server.api, "start", show=self.show, table=self.table)
        return self.table, ack["ack"]["version"]

    def next_move(self, phones: list[Recorder]) -> tuple[int, dict[str, Any]] | None:
        """Alternate seats: the other seat than last time if it has a decision, else this one."""
        for seat in (1 - self.last_seat, self.last_seat):
            view = phones[seat].latest
            table = view.get("table") if isinstance(view, dict) else None
            if not table or table.get("table") != self.table or not table.get("decisions"):
                continue
            decision = table["decisions"][0]
            move = {"type": decision["move"],
                    **{f["name"]: self.rnd.choice(f["options"])["value"] for f in decision["fields"]}}
            self.last_seat = seat
            return seat, move
        return None


async def sync_all(table: str, version: int, projector: Recorder, phones: list[Recorder],
                   workers: list[Worker]) -> tuple[bool, int]:
    """Untimed: wait until the projector, both phones and every extra client hold (table, version)."""
    ok = await projector.wait_for(table, version) is not None
    for phone in phones:
        ok = ok and await phone.wait_for(table, version) is not None
    got = 0
    for w in workers:
        got += (await w.ask({"cmd": "wait", "table": table, "version": version, "timeout": VIEW_TIMEOUT},
                            VIEW_TIMEOUT + 10))["got"]
    return ok and got == sum(w.count for w in workers), got


async def run_size(extra: int, args: argparse.Namespace, work: Path, deadline: float) -> SizeResult:
    nworkers = args.workers or max(1, math.ceil(extra / args.clients_per_worker))
    nworkers = min(nworkers, extra)
    result = SizeResult(extra=extra, workers=nworkers)
    data_dir = (work / f"size-{extra}").resolve()
    data_dir.mkdir(parents=True)
    server = Server(data_dir, gc_log=args.gc_log, nodelay=args.what_if_nodelay)
    workers: list[Worker] = []
    recorders: list[Recorder] = []
    profiler: subprocess.Popen[bytes] | None = None
    started = time.monotonic()
    try:
        await asyncio.to_thread(server.start)
        show = "bench" + uuid.uuid4().hex[:8]
        await asyncio.to_thread(server.api, "create_show", show=show, name=f"Bench {extra}")
        for name in PLAYERS:
            await asyncio.to_thread(server.api, "add_player", show=show, name=name)
        match = Match(server, show, random.Random(args.seed))
        table, version = await match.new_table()
        links = (await asyncio.to_thread(server.snapshot, show))["links"]

        projector = await Recorder("/public").connect(server.url, {"show": show})
        recorders.append(projector)
        phones = []
        for link in links:
            phones.append(await Recorder("/seat").connect(server.url, {"token": link["token"]}))
            recorders.append(phones[-1])

        # The extra projectors, split over the workers.
        shares = [extra // nworkers + (1 if i < extra % nworkers else 0) for i in range(nworkers)]
        for i, count in enumerate(shares):
            workers.append(await Worker.start(server.url, show, count, args.connect_concurrency,
                                              work / f"worker-{extra}-{i}.log"))
        hello = [await w.read(CONNECT_TIMEOUT * max(1, extra // 50) + 60) for w in workers]
        result.connected = sum(h["connected"] for h in hello)
        failed = sum(h["failed"] for h in hello)
        print(f"[{extra:>5}] server pid {server.pid}, {result.connected}/{extra} extra projectors connected "
              f"({nworkers} worker process{'es' if nworkers > 1 else ''}, {failed} failed"
              f"{', e.g. ' + hello[0]['errors'][0] if failed and hello[0]['errors'] else ''})", flush=True)
        if result.connected < extra:
            result.failures.append(f"only {result.connected} of {extra} extra clients connected")

        ok, got = await sync_all(table, version, projector, phones, workers)
        if not ok:
            raise RuntimeError(f"clients did not all receive the started table ({got}/{extra} extra)")

        def marks() -> dict[str, Any]:
            redis_pid = server.redis_pid()
            return {"t": time.monotonic(), "server": cpu_seconds(server.pid),
                    "redis": cpu_seconds(redis_pid) if redis_pid else 0.0,
                    "clients": sum(cpu_seconds(w.proc.pid) for w in workers), "bench": time.process_time(),
                    "machine": machine_busy_seconds(), "calls": server.redis_calls()}

        def delta(m0: dict[str, Any], m1: dict[str, Any]) -> dict[str, float]:
            d = {k: m1[k] - m0[k] for k in ("t", "server", "redis", "clients", "bench")}
            d["busy"] = m1["machine"][0] - m0["machine"][0]
            d["irq"] = m1["machine"][1] - m0["machine"][1]
            for cmd, n in m1["calls"].items():
                d["redis:" + cmd] = n - m0["calls"].get(cmd, 0)
            return d

        excluded: dict[str, float] = {}  # CPU and time of table changes (staff API calls), not counted
        updates = [0]  # public updates the server sent in the measured part (each extra client should get each)

        async def sample(label: str) -> dict[str, Any]:
            """One submit, timed; a new table first when the match is over (untimed, excluded)."""
            nonlocal table, version
            chosen = match.next_move(phones)
            if chosen is None:  # the match is over (or no decision is visible): next table
                m0 = marks()
                table, version = await match.new_table()
                ok, got = await sync_all(table, version, projector, phones, workers)
                if not ok:
                    raise RuntimeError(f"clients did not all receive the new table ({got}/{extra} extra)")
                for k, v in delta(m0, marks()).items():
                    excluded[k] = excluded.get(k, 0.0) + v
                updates[0] += 2  # create_table and start each send the projectors a view
                chosen = match.next_move(phones)
                if chosen is None:
                    raise RuntimeError("no decision on a freshly started table")
            seat, move = chosen
            t0 = time.monotonic()
            try:
                ack = await phones[seat].call("submit", {"table": table, "move": move, "sid": uuid.uuid4().hex})
            except Exception as err:  # noqa: BLE001 - a timeout is a failed sample
                ack = {"ok": False, "error": f"{type(err).__name__}: {err}"}
            t_ack = time.monotonic()
            if not ack.get("ok"):
                await asyncio.sleep(0.5)
                return {"ok": False, "note": f"{label}: submit failed: {ack}"}
            updates[0] += 1
            version = ack["ack"]["version"]
            t_pub = await projector.wait_for(table, version)
            answers = await asyncio.gather(*(
                w.ask({"cmd": "wait", "table": table, "version": version, "timeout": VIEW_TIMEOUT}, VIEW_TIMEOUT + 10)
                for w in workers))
            seat_views = [await p.wait_for(table, version) for p in phones]
            got = sum(a["got"] for a in answers)
            lasts = [a["last"] for a in answers if a["last"] is not None]
            t_all = max(lasts) if lasts and got == extra else None
            ok = t_pub is not None and t_all is not None and all(t is not None for t in seat_views)
            ms = lambda t: None if t is None else (t - t0) * 1000  # noqa: E731
            return {"ok": ok, "ack": ms(t_ack), "projector": ms(t_pub), "own": ms(seat_views[seat]),
                    "all": ms(t_all), "got": got,
                    "note": "" if ok else f"{label}: projector={'ok' if t_pub else 'timeout'}, extra got "
                                          f"{got}/{extra}, phones={'ok' if all(seat_views) else 'timeout'}"}

        for i in range(args.warmup):
            if time.monotonic() > deadline:
                break
            await sample(f"warm-up {i}")

        # Measured samples run in blocks of --block. A block during which processes that are not
        # part of this benchmark used more than --busy-limit of one core is thrown away and run
        # again once the machine is quiet (bounded): on a 2-core machine another program's work
        # would otherwise pass for the server's.
        if args.profile:
            profiler = start_profiler(server.pid, Path(args.profile), extra)
        stats0 = [await w.ask({"cmd": "stats"}, 30) for w in workers]
        updates[0] = 0
        totals = {k: 0.0 for k in ("server", "redis", "clients", "bench", "irq", "other")}
        calls: dict[str, float] = {}  # Redis commands in kept blocks
        windows: list[tuple[float, float]] = []  # kept blocks, for the gc log
        consecutive_failures = 0
        max_blocks = 4 * math.ceil(args.samples / args.block) + 4
        for attempt in range(max_blocks):
            if result.samples >= args.samples or consecutive_failures >= MAX_CONSECUTIVE_FAILURES:
                break
            if time.monotonic() > deadline:
                result.failures.append(f"time limit reached after {result.samples} samples")
                break
            excluded.clear()
            m0 = marks()
            records = []
            for _ in range(min(args.block, args.samples - result.samples)):
                rec = await sample(f"block {attempt} sample {len(records)}")
                records.append(rec)
                consecutive_failures = 0 if rec["ok"] else consecutive_failures + 1
                if consecutive_failures >= MAX_CONSECUTIVE_FAILURES:
                    result.failures.append("too many failed samples in a row; stopping this size")
                    break
            d = delta(m0, marks())
            d = {k: v - excluded.get(k, 0.0) for k, v in d.items()}
            other = max(0.0, d["busy"] - d["server"] - d["redis"] - d["clients"] - d["bench"])
            if args.busy_limit > 0 and d["t"] > 0 and other / d["t"] > args.busy_limit:
                result.discarded_blocks += 1
                print(f"[{extra:>5}] block {attempt} discarded: other processes used {other / d['t'] * 100:.0f}% "
                      f"of a core; waiting for a quiet machine", flush=True)
                await wait_for_quiet(min(60.0, max(0.0, deadline - time.monotonic())))
                continue
            for rec in records:
                result.samples += 1
                result.got.append(rec.get("got", 0))
                for key, series in (("ack", result.ack), ("projector", result.projector), ("own", result.own_phone),
                                    ("all", result.all_extra)):
                    if rec.get(key) is not None:
                        series.append(rec[key])
                if not rec["ok"]:
                    result.failures.append(rec["note"])
            for k in ("server", "redis", "clients", "bench", "irq"):
                totals[k] += d[k]
            totals["other"] += other
            windows.append((m0["t"], m0["t"] + d["t"] + excluded.get("t", 0.0)))
            for k, v in d.items():
                if k.startswith("redis:") and v:
                    calls[k[6:]] = calls.get(k[6:], 0.0) + v
            if args.progress:
                print(f"[{extra:>5}] {result.samples} samples", flush=True)
        if result.samples < args.samples:
            result.failures.append(f"only {result.samples} of {args.samples} samples kept")

        if profiler is not None:
            stop_profiler(profiler)
            profiler = None
        if result.samples:
            per = 1000 / result.samples
            result.server_cpu_ms_per_update = totals["server"] * per
            result.redis_cpu_ms_per_update = totals["redis"] * per
            result.client_cpu_ms_per_update = totals["clients"] * per
            result.bench_cpu_ms_per_update = totals["bench"] * per
            result.irq_cpu_ms_per_update = totals["irq"] * per
            result.other_cpu_ms_per_update = totals["other"] * per
            stats = [await w.ask({"cmd": "stats"}, 30) for w in workers]
            result.deliveries = sum(s["received"] for s in stats) - sum(s["received"] for s in stats0)
            result.expected_deliveries = updates[0] * extra
            result.gc = server.gc_pauses(windows)
            result.redis_calls = {k: round(v / result.samples, 2) for k, v in sorted(calls.items(), key=lambda kv: -kv[1])}
        result.server_rss_mib = rss_mib(server.pid)
        result.tables = match.tables
    finally:
        if profiler is not None:
            stop_profiler(profiler)
        for r in recorders:
            await r.close()
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)
        await asyncio.to_thread(server.stop)
        result.wall_s = time.monotonic() - started
    return result


def start_profiler(pid: int, out_dir: Path, extra: int) -> subprocess.Popen[bytes] | None:
    """py-spy record (collapsed stacks) on the server while the measured samples run."""
    exe = shutil.which("py-spy")
    if exe is None:
        print("py-spy not found (pip install py-spy); not profiling", file=sys.stderr)
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--rate", "200", "--format", "raw", "--nonblocking",
                             "--output", str(out_dir / f"server-{extra}.txt")],
                            stdout=subprocess.DEVNULL, stderr=open(out_dir / f"py-spy-{extra}.log", "wb"))


def stop_profiler(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)  # py-spy writes its output on SIGINT
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- report ----------------------------------------------------------------------------------------


def fmt(stats: dict[str, float] | None) -> str:
    if not stats:
        return "-"
    return f"{stats['p50']:.1f} / {stats['p99']:.1f} / {stats['max']:.1f}"


def report(results: list[dict[str, Any]]) -> str:
    head = ["extra", "samples", "ack p50/p99/max ms", "own phone view", "projector p50/p99/max ms", "all extra p50/p99/max ms",
            "got (min, full)", "srv CPU ms/upd", "redis CPU", "clients CPU", "kernel irq", "other CPU"]
    rows = []
    for r in results:
        rows.append([
            str(r["extra"]), f"{r['ok_samples']}/{r['samples']}", fmt(r["ack_ms"]), fmt(r["own_phone_ms"]),
            fmt(r["projector_ms"]),
            fmt(r["all_extra_ms"]), f"{r['got_min']}/{r['extra']}, {r['got_full']}/{r['samples']}",
            f"{r['server_cpu_ms_per_update']:.1f}", f"{r['redis_cpu_ms_per_update']:.1f}",
            f"{r['client_cpu_ms_per_update'] + r['bench_cpu_ms_per_update']:.1f}",
            f"{r['irq_cpu_ms_per_update']:.1f}", f"{r['other_cpu_ms_per_update']:.1f}",
        ])
    widths = [max(len(h), *(len(row[k]) for row in rows)) for k, h in enumerate(head)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    mem = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    versions = {}
    for pkg in ("flask-socketio", "python-socketio", "python-engineio", "eventlet", "redis", "aiohttp"):
        with contextlib.suppress(Exception):
            from importlib.metadata import version

            versions[pkg] = version(pkg)
    return {"cpus": os.cpu_count(), "memory": mem, "python": platform.python_version(), "os": platform.platform(),
            "packages": versions}


async def orchestrate(args: argparse.Namespace) -> int:
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    limit = raise_nofile()
    if limit < max(sizes) * 2 + 100:
        print(f"warning: open-file limit is {limit}; {max(sizes)} clients may not fit", file=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="referee-bench-")).resolve()
    deadline = time.monotonic() + args.max_seconds
    info = machine()
    print(f"machine: {info['cpus']} CPUs, {info['memory']}, Python {info['python']}, {info['os']}")
    print(f"packages: {info['packages']}")
    print(f"samples per size: {args.samples} after {args.warmup} warm-up; open-file limit {limit}; work dir {work}",
          flush=True)
    results: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    me = asyncio.current_task()
    for sig in (signal.SIGTERM, signal.SIGINT):  # stop cleanly: the finally blocks stop server and workers
        loop.add_signal_handler(sig, me.cancel)
    try:
        for extra in sizes:
            if time.monotonic() > deadline:
                print(f"[{extra:>5}] skipped: time limit", flush=True)
                break
            if args.quiet_wait > 0:
                share = await wait_for_quiet(min(args.quiet_wait, max(0.0, deadline - time.monotonic())))
                print(f"[{extra:>5}] machine busy before start: {share * 100:.0f}% of one core "
                      f"(load average {os.getloadavg()[0]:.2f})", flush=True)
            res = await run_size(extra, args, work, deadline)
            results.append(res.summary())
            s = results[-1]
            print(f"[{extra:>5}] done in {s['wall_s']} s: {s['ok_samples']}/{s['samples']} good samples, "
                  f"{s['discarded_blocks']} busy blocks discarded, {s['tables']} tables, views delivered to the "
                  f"extra clients {s['deliveries']} (expected {s['expected_deliveries']}), "
                  f"server RSS {s['server_rss_mib']} MiB", flush=True)
            if s["redis_calls_per_update"]:
                calls = s["redis_calls_per_update"]
                print(f"[{extra:>5}] Redis commands per update: {sum(calls.values()):.1f} "
                      f"({', '.join(f'{k} {v:g}' for k, v in calls.items())})", flush=True)
            if s["gc"]:
                print(f"[{extra:>5}] server gc during the samples: {s['gc']}", flush=True)
            for f in s["failures"][:5]:
                print(f"[{extra:>5}]   {f}", flush=True)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print()
    print("submit -> view, milliseconds (p50 / p99 / max); 'all extra' = the last of the N extra projectors;")
    print("CPU columns: milliseconds of CPU per measured update (clients = extra-client workers + this script;")
    print("kernel irq = interrupt time, mostly loopback TCP; other = every other process on the machine)")
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "args": vars(args), "results": results}, indent=2))
    return 0 if results and all(r["ok_samples"] == r["samples"] > 0 for r in results) else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1,100,1000", help="extra projector counts, comma-separated")
    p.add_argument("--samples", type=int, default=200, help="measured submits per size")
    p.add_argument("--warmup", type=int, default=20, help="unmeasured submits per size first")
    p.add_argument("--workers", type=int, default=0, help="worker processes for the extra clients (0: auto)")
    p.add_argument("--clients-per-worker", type=int, default=500, help="for --workers 0")
    p.add_argument("--connect-concurrency", type=int, default=25, help="connects in flight per worker")
    p.add_argument("--block", type=int, default=10, help="samples per block (see --busy-limit)")
    p.add_argument("--busy-limit", type=float, default=0.25,
                   help="discard and redo a block when other processes used more than this share of one core "
                        "(0: keep every block)")
    p.add_argument("--seed", type=int, default=7, help="move RNG seed (same moves for every size)")
    p.add_argument("--max-seconds", type=float, default=1800, help="overall time limit")
    p.add_argument("--profile", metavar="DIR", help="py-spy record the server during the samples (skews figures)")
    p.add_argument("--quiet-wait", type=float, default=120,
                   help="before each size, wait up to this many seconds for other processes to go idle")
    p.add_argument("--what-if-nodelay", action="store_true",
                   help="what-if: start the server with TCP_NODELAY on its listening socket (not the default)")
    p.add_argument("--gc-log", action="store_true", help="log the server's garbage collections (sitecustomize)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--keep", action="store_true", help="keep the work directory (server and worker logs)")
    p.add_argument("--progress", action="store_true", help="print progress every 50 samples")
    # worker mode (internal)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--show", help=argparse.SUPPRESS)
    p.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        return asyncio.run(worker_main(args))
    if args.samples < 1 or args.samples > 100_000 or args.warmup < 0:
        p.error("samples must be 1..100000 and warmup >= 0")
    return asyncio.run(orchestrate(args))


if __name__ == "__main__":
    sys.exit(main())
