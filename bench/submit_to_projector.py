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

It also prints how long the N extra clients took to connect (all of them, from one "go" to the
workers, and each connection's p50 / p99 / max). The server sets TCP_NODELAY on its connections
itself (referee/server/entry.py), so no launcher is needed for that any more.

bench/load_two_processes.py imports this module to run the same measurement on two server
processes sharing one Redis (``run_size(..., nservers=2, shared=..., env=...)``).

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
    """``python -m referee.cli serve`` on 127.0.0.1, with its own embedded Redis in `data_dir`, or
    with ``shared`` (a started ``referee.store.EmbeddedRedis``) as its Redis through ``REDIS_URL``,
    plus ``env`` (e.g. the ``REFEREE_SECRET_KEY`` every process on one Redis must share).

    The server sets ``TCP_NODELAY`` on its connections itself (``referee/server/entry.py``)."""

    def __init__(self, data_dir: Path, gc_log: bool = False, shared: Any = None,
                 env: dict[str, str] | None = None, name: str = "server") -> None:
        self.data_dir = data_dir
        self.shared = shared
        self.env = dict(env or {})
        self.name = name
        self.gc_log = data_dir / "gc.log" if gc_log else None
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server.log"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        env.pop("REDIS_URL", None)  # the embedded Redis in our own data directory, unless shared
        if self.shared is not None:
            env["REDIS_URL"] = self.shared.url
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
                if self.shared is not None:
                    url = self.shared.url
                else:  # the server's embedded Redis: its private socket and password (same user)
                    url = json.loads((self.data_dir / "redis" / "endpoint.json").read_text())["url"]
                self._redis = redis.Redis.from_url(url, socket_timeout=5)
            stats = self._redis.info("commandstats")
        except (OSError, ValueError, redis.RedisError):
            return {}
        return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items() if k != "cmdstat_info"}

    def redis_pid(self) -> int | None:
        if self.shared is not None:
            return self.shared.process.pid if self.shared.process is not None else None
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
        if self.shared is not None:  # a shared Redis is stopped by whoever started it
            return
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


# Every browser offers websocket compression (permessage-deflate), and the server takes it: the
# benchmark's clients offer it too (aiohttp's compress=15), unless --plain (BENCH_PLAIN=1, which
# the worker processes inherit) measures clients that offer none (issue 38).
def client_options() -> dict[str, Any]:
    """The websocket options of every benchmark client: compression offered, as a browser does."""
    return {} if os.environ.get("BENCH_PLAIN") == "1" else {"websocket_extra_options": {"compress": 15}}


def add_plain_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true",
                   help="clients that offer no websocket compression (browsers offer it; the default does too)")


def apply_plain(args: argparse.Namespace) -> None:
    if getattr(args, "plain", False):
        os.environ["BENCH_PLAIN"] = "1"


async def worker_main(args: argparse.Namespace) -> int:
    """Import, answer ``{"ready": true}``, wait for a ``{"cmd": "go"}`` line on stdin (so all the
    workers start connecting together), connect `--count` projector clients, report how that went
    (``connected``, ``failed``, ``connect_ms``: each client's connect time; ``go``, ``connected_at``,
    ``snapshots_at``: monotonic times of the go, the last connect, the last connect snapshot), then
    answer JSON-line commands on stdin:

    {"cmd": "wait", "table": T, "version": V, "timeout": s} -> {"got": n, "first": t, "last": t}
        (n clients have a view of table T with version >= V; t: monotonic times of the first
        and the last of them to receive it)
    {"cmd": "stats"} -> {"received": views received so far, "stale": how many of them were older than
        a view of the same table the same client already had, "cpu": this process's CPU seconds}
    {"cmd": "storm", "concurrency": c} -> every client disconnects, then all reconnect at once (c
        connects in flight): {"connected", "failed", "down", "back", "snapshots_at"} (monotonic
        times: all gone, the last reconnect, the last fresh snapshot)
    {"cmd": "quit"}  -> disconnects everyone and exits
    """
    raise_nofile()
    import aiohttp
    import socketio

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    reply({"ready": True})
    line = await reader.readline()
    if not line or json.loads(line).get("cmd") != "go":
        return 0
    t_go = time.monotonic()

    n = args.count
    receipts: list[list[tuple[str | None, int, float]]] = [[] for _ in range(n)]
    received = [0]
    newest: list[tuple[str | None, int]] = [(None, -1)] * n  # each client's newest (table, version)
    stale = [0]  # views older than one the same client already had (fan-outs overtaking each other)
    pending: list[Pending | None] = [None]
    # No cap on websockets; with --local-addr from that source address (a front proxy maps it).
    local = (args.local_addr, 0) if args.local_addr else None
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=local))
    clients: list[Any] = []
    connect_ms: list[float] = []
    connected_at = [t_go]

    def handler(i: int):
        def on_view(payload: Any = None) -> None:
            t = time.monotonic()
            table, version = view_key(payload)
            receipts[i].append((table, version, t))
            received[0] += 1
            if table == newest[i][0] and version < newest[i][1]:
                stale[0] += 1
            else:
                newest[i] = (table, version)
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
            sio = socketio.AsyncClient(reconnection=False, handle_sigint=False, http_session=session, json=json,
                                       **client_options())
            sio.on("view", handler(i), namespace="/public")
            clients.append(sio)
            t0 = time.monotonic()
            try:
                await asyncio.wait_for(
                    sio.connect(args.url, namespaces=["/public"], auth={"show": args.show}, transports=["websocket"],
                                wait_timeout=CONNECT_TIMEOUT),
                    CONNECT_TIMEOUT + 5)
            except Exception as err:  # noqa: BLE001 - reported to the orchestrator
                return f"{type(err).__name__}: {err}"
            t1 = time.monotonic()
            connect_ms.append(round((t1 - t0) * 1000, 3))
            connected_at[0] = max(connected_at[0], t1)
            return None

    async def close(sio: Any) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sio.disconnect(), 5)

    async def connect_all(concurrency: int) -> tuple[list[str], int, list[float]]:
        """Connect all n clients; wait (bounded) until every connected one holds its snapshot."""
        gate = asyncio.Semaphore(concurrency)
        errors = [e for e in await asyncio.gather(*(connect(i, gate) for i in range(n))) if e]
        connected = sum(1 for c in clients if c.connected and "/public" in c.namespaces)
        deadline = time.monotonic() + VIEW_TIMEOUT
        while time.monotonic() < deadline and sum(1 for r in receipts if r) < connected:
            await asyncio.sleep(0.01)
        return errors, connected, [r[0][2] for r in receipts if r]

    errors, connected, firsts = await connect_all(args.connect_concurrency)
    reply({"connected": connected, "snapshots": len(firsts), "errors": errors[:5], "failed": len(errors),
           "connect_ms": connect_ms, "go": t_go, "connected_at": connected_at[0],
           "snapshots_at": max(firsts) if firsts else None})

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
            reply({"received": received[0], "stale": stale[0], "cpu": time.process_time(),
                   "connected": sum(1 for c in clients if c.connected)})
        elif cmd["cmd"] == "storm":
            await asyncio.gather(*(close(c) for c in clients))
            down = time.monotonic()
            clients.clear()
            for rs in receipts:
                rs.clear()
            connected_at[0] = down
            errors, connected, firsts = await connect_all(cmd["concurrency"])
            reply({"connected": connected, "failed": len(errors), "errors": errors[:5], "down": down,
                   "back": connected_at[0], "snapshots_at": max(firsts) if firsts else None})
        elif cmd["cmd"] == "quit":
            break

    await asyncio.gather(*(close(c) for c in clients))
    await session.close()
    reply({"bye": True})
    return 0


def reply(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Worker:
    """The orchestrator's handle on one worker process."""

    def __init__(self, proc: asyncio.subprocess.Process, count: int, server: int = 0) -> None:
        self.proc = proc
        self.count = count
        self.server = server  # index of the server process its clients are connected to

    @classmethod
    async def start(cls, url: str, show: str, count: int, concurrency: int, log: Path, server: int = 0,
                    local_addr: str | None = None) -> Worker:
        err = open(log, "ab")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--worker", "--url", url, "--show", show,
            "--count", str(count), "--connect-concurrency", str(concurrency),
            *(["--local-addr", local_addr] if local_addr else []),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err,
            limit=1 << 20)
        err.close()
        return cls(proc, count, server)

    async def read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError("worker exited")
        return json.loads(line)

    async def send(self, cmd: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        await self.proc.stdin.drain()

    async def ask(self, cmd: dict[str, Any], timeout: float) -> dict[str, Any]:
        await self.send(cmd)
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
        self.sio = socketio.AsyncClient(reconnection=False, handle_sigint=False, **client_options())
        self.latest: Any = None
        self.received = 0  # views so far
        self.seen: list[tuple[str | None, int, float]] = []
        self.changed = asyncio.Event()
        self.sio.on("view", self._on_view, namespace=namespace)

    def _on_view(self, payload: Any = None) -> None:
        t = time.monotonic()
        table, version = view_key(payload)
        self.received += 1
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
    servers: int = 1
    connected: int = 0
    samples: int = 0
    ack: list[float] = field(default_factory=list)
    projector: list[float] = field(default_factory=list)
    own_phone: list[float] = field(default_factory=list)  # the submitting phone's own new seat view
    all_extra: list[float] = field(default_factory=list)
    # Several servers: the last extra client on the submitting phone's process, and on the others.
    all_same: list[float] = field(default_factory=list)
    all_other: list[float] = field(default_factory=list)
    got: list[int] = field(default_factory=list)  # how many of the extra clients got each update
    failures: list[str] = field(default_factory=list)
    tables: int = 0
    connect_ms: list[float] = field(default_factory=list)  # each extra client's connect (its worker's clock)
    connect_wall_s: float = 0.0  # from the workers' "go" to the last extra client connected
    snapshots_wall_s: float = 0.0  # ... to the last one holding its connect snapshot
    server_cpu_ms_per_update: float = 0.0
    server_cpu_each: list[float] = field(default_factory=list)  # per server process
    redis_cpu_ms_per_update: float = 0.0
    client_cpu_ms_per_update: float = 0.0
    bench_cpu_ms_per_update: float = 0.0  # the orchestrator (phones, measuring projector)
    other_cpu_ms_per_update: float = 0.0  # processes that are not part of this benchmark
    irq_cpu_ms_per_update: float = 0.0  # the kernel's interrupt time (mostly loopback networking)
    server_rss_mib: float = 0.0
    server_rss_each: list[float] = field(default_factory=list)
    deliveries: int = 0  # views the extra clients received during the measured part
    expected_deliveries: int = 0  # views the measuring projector received in that time x extra clients
    public_views: int = 0  # views the measuring projector received in that time
    public_updates: int = 0  # submits + 2 per new table in that time (what the script caused)
    stale_views: int = 0  # of the deliveries, views older than one the same client already had
    discarded_blocks: int = 0
    redis_calls: dict[str, float] = field(default_factory=dict)  # Redis commands per update, by command
    wall_s: float = 0.0
    gc: dict[str, Any] = field(default_factory=dict)  # with --gc-log: the server's collections
    gc_hot: dict[str, Any] = field(default_factory=dict)  # those within a sample (submit to last view)

    def summary(self) -> dict[str, Any]:
        def stats(xs: list[float]) -> dict[str, float] | None:
            if not xs:
                return None
            return {"p50": percentile(xs, 50), "p99": percentile(xs, 99), "max": max(xs), "mean": sum(xs) / len(xs)}

        return {
            "extra": self.extra, "workers": self.workers, "servers": self.servers, "connected": self.connected,
            "samples": self.samples,
            "ok_samples": len(self.all_extra), "ack_ms": stats(self.ack), "projector_ms": stats(self.projector),
            "own_phone_ms": stats(self.own_phone),
            "all_extra_ms": stats(self.all_extra), "all_same_process_ms": stats(self.all_same),
            "all_other_process_ms": stats(self.all_other),
            "got_min": min(self.got) if self.got else 0,
            "got_full": sum(1 for g in self.got if g == self.extra),
            "missed": sum(self.extra - g for g in self.got), "deliveries": self.deliveries,
            "expected_deliveries": self.expected_deliveries, "public_views": self.public_views,
            "public_updates": self.public_updates, "stale_views": self.stale_views, "discarded_blocks": self.discarded_blocks,
            "connect": {"clients": len(self.connect_ms), "wall_s": round(self.connect_wall_s, 3),
                        "snapshots_wall_s": round(self.snapshots_wall_s, 3), "ms": stats(self.connect_ms)},
            "tables": self.tables, "server_cpu_ms_per_update": round(self.server_cpu_ms_per_update, 2),
            "server_cpu_ms_per_update_each": [round(x, 2) for x in self.server_cpu_each],
            "redis_cpu_ms_per_update": round(self.redis_cpu_ms_per_update, 2),
            "client_cpu_ms_per_update": round(self.client_cpu_ms_per_update, 2),
            "bench_cpu_ms_per_update": round(self.bench_cpu_ms_per_update, 2),
            "other_cpu_ms_per_update": round(self.other_cpu_ms_per_update, 2),
            "irq_cpu_ms_per_update": round(self.irq_cpu_ms_per_update, 2),
            "loadavg_after": os.getloadavg()[0],
            "server_rss_mib": round(self.server_rss_mib, 1), "server_rss_mib_each": [round(x, 1) for x in self.server_rss_each],
            "wall_s": round(self.wall_s, 1),
            "gc": self.gc, "gc_hot": self.gc_hot, "redis_calls_per_update": self.redis_calls, "failures": self.failures[:10],
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


SERVER_NAMES = "ABCDEFGH"


async def run_size(extra: int, args: argparse.Namespace, work: Path, deadline: float, *, nservers: int = 1,
                   shared: Any = None, env: dict[str, str] | None = None, front: Any = None) -> SizeResult:
    """One size on fresh servers: `nservers` ``referee serve`` processes (more than one need a
    ``shared`` Redis and the same ``REFEREE_SECRET_KEY`` in ``env``), the extra clients split
    evenly over them, the phones one to each in turn, the measuring projector on the first.
    With a ``front`` (a proxy such as nginx, see bench/load_two_processes.py) the extra clients
    connect through it: ``front.start(servers)`` once the servers are up, then each worker
    connects to ``front.url`` from ``front.address(server, worker)``, which the proxy sends to
    that server."""
    if nservers > 1 and shared is None:
        raise ValueError("several servers need a shared Redis")
    if extra < nservers:
        raise ValueError("at least one extra client per server")
    nworkers = args.workers or max(1, math.ceil(extra / args.clients_per_worker))
    nworkers = nservers * math.ceil(min(nworkers, extra) / nservers)  # the same number for each server
    result = SizeResult(extra=extra, workers=nworkers, servers=nservers)
    names = [""] if nservers == 1 else list(SERVER_NAMES[:nservers])
    servers = []
    for name in names:
        data_dir = (work / (f"size-{extra}-{name}" if name else f"size-{extra}")).resolve()
        data_dir.mkdir(parents=True)
        servers.append(Server(data_dir, gc_log=args.gc_log, shared=shared, env=env, name=name or "server"))
    lead = servers[0]  # the staff API, the measuring projector
    workers: list[Worker] = []
    recorders: list[Recorder] = []
    profilers: list[subprocess.Popen[bytes]] = []
    started = time.monotonic()
    try:
        for server in servers:
            await asyncio.to_thread(server.start)
        if front is not None:
            await asyncio.to_thread(front.start, servers)
        show = "bench" + uuid.uuid4().hex[:8]
        await asyncio.to_thread(lead.api, "create_show", show=show, name=f"Bench {extra}")
        for name in PLAYERS:
            await asyncio.to_thread(lead.api, "add_player", show=show, name=name)
        match = Match(lead, show, random.Random(args.seed))
        table, version = await match.new_table()
        links = (await asyncio.to_thread(lead.snapshot, show))["links"]

        projector = await Recorder("/public").connect(lead.url, {"show": show})
        recorders.append(projector)
        phones = []
        for i, link in enumerate(links):  # phone i on server i mod n
            phones.append(await Recorder("/seat").connect(servers[i % nservers].url, {"token": link["token"]}))
            recorders.append(phones[-1])

        # The extra projectors: an even share per server, split over that server's workers. The
        # workers import first, then all start connecting at one "go".
        per_server = [extra // nservers + (1 if k < extra % nservers else 0) for k in range(nservers)]
        wps = nworkers // nservers
        for k, server in enumerate(servers):
            for j in range(wps):
                count = per_server[k] // wps + (1 if j < per_server[k] % wps else 0)
                via = (front.url, front.address(k, j)) if front is not None else (server.url, None)
                workers.append(await Worker.start(via[0], show, count, args.connect_concurrency,
                                                  work / f"worker-{extra}-{names[k]}{j}.log", server=k,
                                                  local_addr=via[1]))
        for w in workers:
            await w.read(60)  # {"ready": true}
        for w in workers:
            await w.send({"cmd": "go"})
        hello = [await w.read(CONNECT_TIMEOUT * max(1, w.count // 50) + 60) for w in workers]
        result.connected = sum(h["connected"] for h in hello)
        result.connect_ms = [ms for h in hello for ms in h["connect_ms"]]
        go = min(h["go"] for h in hello)
        result.connect_wall_s = max(h["connected_at"] for h in hello) - go
        snaps = [h["snapshots_at"] for h in hello]
        result.snapshots_wall_s = max(snaps) - go if all(t is not None for t in snaps) else math.nan
        failed = sum(h["failed"] for h in hello)
        errors = [e for h in hello for e in h["errors"]]
        ms = result.connect_ms
        print(f"[{extra:>5}] server pid{'s' if nservers > 1 else ''} {', '.join(str(s.pid) for s in servers)}, "
              f"{result.connected}/{extra} extra projectors connected ({nworkers} worker process"
              f"{'es' if nworkers > 1 else ''}, {failed} failed{', e.g. ' + errors[0] if errors else ''}) "
              f"in {result.connect_wall_s:.2f} s, all holding their snapshot at {result.snapshots_wall_s:.2f} s; "
              f"per connection p50 {percentile(ms, 50) if ms else math.nan:.1f} / "
              f"p99 {percentile(ms, 99) if ms else math.nan:.1f} / max {max(ms, default=math.nan):.1f} ms "
              f"({args.connect_concurrency} in flight per worker)", flush=True)
        if result.connected < extra:
            result.failures.append(f"only {result.connected} of {extra} extra clients connected")

        ok, got = await sync_all(table, version, projector, phones, workers)
        if not ok:
            raise RuntimeError(f"clients did not all receive the started table ({got}/{extra} extra)")

        server_keys = [f"server{k}" for k in range(nservers)]
        keys = ("t", "server", "redis", "clients", "bench", *server_keys)

        def marks() -> dict[str, Any]:
            redis_pid = lead.redis_pid()
            each = [cpu_seconds(s.pid) for s in servers]
            return {"t": time.monotonic(), "server": sum(each), **dict(zip(server_keys, each, strict=True)),
                    "redis": cpu_seconds(redis_pid) if redis_pid else 0.0,
                    "clients": sum(cpu_seconds(w.proc.pid) for w in workers), "bench": time.process_time(),
                    "machine": machine_busy_seconds(), "calls": lead.redis_calls()}

        def delta(m0: dict[str, Any], m1: dict[str, Any]) -> dict[str, float]:
            d = {k: m1[k] - m0[k] for k in keys}
            d["busy"] = m1["machine"][0] - m0["machine"][0]
            d["irq"] = m1["machine"][1] - m0["machine"][1]
            for cmd, n in m1["calls"].items():
                d["redis:" + cmd] = n - m0["calls"].get(cmd, 0)
            return d

        excluded: dict[str, float] = {}  # CPU and time of table changes (staff API calls), not counted
        # Submits + 2 per new table in the measured part. Each should make one public view, but the
        # fan-out runs after the acknowledgement (a background task), so the views of a create_table
        # and the start right after it may coincide and be sent once: the expected deliveries are
        # the views the measuring projector received x N instead.
        updates = [0]

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
            home = seat % nservers  # the process the submitting phone is connected to

            def last_of(same: bool) -> float | None:
                mine = [(a, w) for a, w in zip(answers, workers, strict=True) if (w.server == home) == same]
                if not mine or any(a["got"] < w.count for a, w in mine):
                    return None
                return max(a["last"] for a, _w in mine)

            ok = t_pub is not None and t_all is not None and all(t is not None for t in seat_views)
            ms = lambda t: None if t is None else (t - t0) * 1000  # noqa: E731
            ends = [t for t in (t_ack, t_pub, t_all, *seat_views) if t is not None]
            return {"ok": ok, "span": (t0, max(ends)), "ack": ms(t_ack), "projector": ms(t_pub), "own": ms(seat_views[seat]),
                    "all": ms(t_all), "same": ms(last_of(True)) if nservers > 1 else None,
                    "other": ms(last_of(False)) if nservers > 1 else None, "got": got,
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
            for server, name in zip(servers, names, strict=True):
                prof = start_profiler(server.pid, Path(args.profile), f"{extra}-{name}" if name else str(extra))
                if prof is not None:
                    profilers.append(prof)
        stats0 = [await w.ask({"cmd": "stats"}, 30) for w in workers]
        updates[0] = 0
        projector_views0 = projector.received
        totals = {k: 0.0 for k in ("server", "redis", "clients", "bench", "irq", "other", *server_keys)}
        calls: dict[str, float] = {}  # Redis commands in kept blocks
        windows: list[tuple[float, float]] = []  # kept blocks, for the gc log
        spans: list[tuple[float, float]] = []  # each kept sample, its submit to its last view
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
                if "span" in rec:
                    spans.append(rec["span"])
                result.samples += 1
                result.got.append(rec.get("got", 0))
                for key, series in (("ack", result.ack), ("projector", result.projector), ("own", result.own_phone),
                                    ("all", result.all_extra), ("same", result.all_same),
                                    ("other", result.all_other)):
                    if rec.get(key) is not None:
                        series.append(rec[key])
                if not rec["ok"]:
                    result.failures.append(rec["note"])
            for k in ("server", "redis", "clients", "bench", "irq", *server_keys):
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

        for prof in profilers:
            stop_profiler(prof)
        profilers.clear()
        if result.samples:
            per = 1000 / result.samples
            result.server_cpu_ms_per_update = totals["server"] * per
            result.server_cpu_each = [totals[k] * per for k in server_keys]
            result.redis_cpu_ms_per_update = totals["redis"] * per
            result.client_cpu_ms_per_update = totals["clients"] * per
            result.bench_cpu_ms_per_update = totals["bench"] * per
            result.irq_cpu_ms_per_update = totals["irq"] * per
            result.other_cpu_ms_per_update = totals["other"] * per
            stats = [await w.ask({"cmd": "stats"}, 30) for w in workers]
            result.deliveries = sum(s["received"] for s in stats) - sum(s["received"] for s in stats0)
            result.stale_views = sum(s["stale"] for s in stats) - sum(s["stale"] for s in stats0)
            result.public_views = projector.received - projector_views0
            result.public_updates = updates[0]
            result.expected_deliveries = result.public_views * extra
            if nservers == 1:
                result.gc, result.gc_hot = lead.gc_pauses(windows), lead.gc_pauses(spans)
            else:
                result.gc = {s.name: g for s in servers if (g := s.gc_pauses(windows))}
                result.gc_hot = {s.name: g for s in servers if (g := s.gc_pauses(spans))}
            result.redis_calls = {k: round(v / result.samples, 2) for k, v in sorted(calls.items(), key=lambda kv: -kv[1])}
        result.server_rss_each = [rss_mib(s.pid) for s in servers]
        result.server_rss_mib = sum(result.server_rss_each)
        result.tables = match.tables
    finally:
        for prof in profilers:
            stop_profiler(prof)
        for r in recorders:
            await r.close()
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)
        for server in servers:
            await asyncio.to_thread(server.stop)
        result.wall_s = time.monotonic() - started
    return result


def start_profiler(pid: int, out_dir: Path, label: str) -> subprocess.Popen[bytes] | None:
    """py-spy record (collapsed stacks) on a server while the measured samples run."""
    exe = shutil.which("py-spy")
    if exe is None:
        print("py-spy not found (pip install py-spy); not profiling", file=sys.stderr)
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--rate", "200", "--format", "raw", "--nonblocking",
                             "--output", str(out_dir / f"server-{label}.txt")],
                            stdout=subprocess.DEVNULL, stderr=open(out_dir / f"py-spy-{label}.log", "wb"))


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
    for pkg in ("flask-socketio", "python-socketio", "python-engineio", "eventlet", "gevent", "redis", "aiohttp"):
        with contextlib.suppress(Exception):
            from importlib.metadata import version

            versions[pkg] = version(pkg)
    return {"cpus": os.cpu_count(), "memory": mem, "python": platform.python_version(), "os": platform.platform(),
            "packages": versions, "commit": server_commit(),
            # The servers this script starts inherit the environment (referee serve --async-mode).
            "async_mode": os.environ.get("REFEREE_ASYNC_MODE", "eventlet")}


def server_commit() -> str:
    """The checkout's commit (read-only git), marked when the server's code differs from it."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "referee"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + (" (referee/ modified)" if dirty else "")


async def orchestrate(args: argparse.Namespace) -> int:
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    limit = raise_nofile()
    if limit < max(sizes) * 2 + 100:
        print(f"warning: open-file limit is {limit}; {max(sizes)} clients may not fit", file=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="referee-bench-")).resolve()
    deadline = time.monotonic() + args.max_seconds
    info = machine()
    print(f"machine: {info['cpus']} CPUs, {info['memory']}, Python {info['python']}, {info['os']}")
    print(f"packages: {info['packages']}; server code: commit {info['commit']}, async mode {info['async_mode']}")
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
                  f"extra clients {s['deliveries']} (expected {s['expected_deliveries']}: {s['public_views']} public views "
                  f"for {s['public_updates']} updates x {extra}; missed in samples {s['missed']}, stale "
                  f"{s['stale_views']}), "
                  f"server RSS {s['server_rss_mib']} MiB", flush=True)
            if s["redis_calls_per_update"]:
                calls = s["redis_calls_per_update"]
                print(f"[{extra:>5}] Redis commands per update: {sum(calls.values()):.1f} "
                      f"({', '.join(f'{k} {v:g}' for k, v in calls.items())})", flush=True)
            if s["gc"]:
                print(f"[{extra:>5}] server gc during the sample blocks: {s['gc']}", flush=True)
                print(f"[{extra:>5}] of which within a sample (submit to last view): {s['gc_hot']}", flush=True)
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


def add_measurement_arguments(p: argparse.ArgumentParser, samples: int = 200) -> None:
    """The options of one measured size (shared with bench/load_two_processes.py)."""
    p.add_argument("--samples", type=int, default=samples, help="measured submits per size")
    p.add_argument("--warmup", type=int, default=20, help="unmeasured submits per size first")
    add_plain_argument(p)
    p.add_argument("--workers", type=int, default=0,
                   help="worker processes for the extra clients (0: auto; rounded up to a multiple of the servers)")
    p.add_argument("--clients-per-worker", type=int, default=500, help="for --workers 0")
    p.add_argument("--connect-concurrency", type=int, default=25, help="connects in flight per worker")
    p.add_argument("--block", type=int, default=10, help="samples per block (see --busy-limit)")
    p.add_argument("--busy-limit", type=float, default=0.25,
                   help="discard and redo a block when other processes used more than this share of one core "
                        "(0: keep every block)")
    p.add_argument("--seed", type=int, default=7, help="move RNG seed (same moves for every size)")
    p.add_argument("--max-seconds", type=float, default=1800, help="overall time limit")
    p.add_argument("--profile", metavar="DIR", help="py-spy record the server(s) during the samples (skews figures)")
    p.add_argument("--quiet-wait", type=float, default=120,
                   help="before each size, wait up to this many seconds for other processes to go idle")
    p.add_argument("--gc-log", action="store_true", help="log the servers' garbage collections (sitecustomize)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--keep", action="store_true", help="keep the work directory (server and worker logs)")
    p.add_argument("--progress", action="store_true", help="print the sample count after every kept block")


def check_measurement_arguments(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.samples < 1 or args.samples > 100_000 or args.warmup < 0 or args.block < 1:
        p.error("samples must be 1..100000, warmup >= 0 and block >= 1")
    apply_plain(args)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1,100,1000", help="extra projector counts, comma-separated")
    add_measurement_arguments(p)
    # worker mode (internal)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--show", help=argparse.SUPPRESS)
    p.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--local-addr", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        return asyncio.run(worker_main(args))
    check_measurement_arguments(p, args)
    return asyncio.run(orchestrate(args))


if __name__ == "__main__":
    sys.exit(main())
