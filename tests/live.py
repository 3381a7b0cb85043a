"""A live show server in a subprocess, and real Socket.IO clients, for the server tests."""

from __future__ import annotations

import itertools
import json
import os
import queue
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
import socketio

from referee.server.service import BRIEF_CONSTANT, BRIEF_DEFAULTS

PIN = "4321"
# Bots submit far faster than people: lift the per-phone limit unless a test sets its own.
BOT_LIMITS = {"REFEREE_RATE_SUBMIT": "100000/10"}


# Ports for servers come from below the kernel's ephemeral range (32768 and up on Linux), where
# the many outgoing connections of a run take their local ports, and from a range of each xdist
# worker's own, handed out in turn: two servers of one run never get the same port, and a port is
# never taken by a client's connection between free_port() and the server's bind.
_PORTS_PER_WORKER = 1000
_PORT_BASE = 20000


def _worker_ports() -> itertools.cycle:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    low = _PORT_BASE + (int(worker) if worker.isdigit() else 0) % 12 * _PORTS_PER_WORKER
    start = random.randrange(_PORTS_PER_WORKER)  # another run on the machine most likely starts elsewhere
    return itertools.cycle([low + (start + i) % _PORTS_PER_WORKER for i in range(_PORTS_PER_WORKER)])


_ports: itertools.cycle | None = None


def free_port() -> int:
    """A loopback port no one listens on now, from this worker's range (never the same twice in a row)."""
    global _ports
    if _ports is None:
        _ports = _worker_ports()
    for _ in range(_PORTS_PER_WORKER):
        port = next(_ports)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in this worker's range")


class LiveServer:
    """``referee serve`` on loopback with its own embedded Redis in `data_dir`."""

    def __init__(self, data_dir: Path, port: int | None = None, env: dict[str, str] | None = None,
                 pin: str = PIN) -> None:
        self.data_dir = data_dir
        self.pin = pin
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**BOT_LIMITS, **(env or {})}
        self.proc: subprocess.Popen | None = None

    def start(self) -> LiveServer:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.log = open(self.data_dir / f"server-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data-dir", str(self.data_dir), "--pin", self.pin, "--public-url", self.url],
            stdout=self.log, stderr=subprocess.STDOUT, env=env,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {(self.data_dir / f'server-{self.port}.log').read_text()}")
            try:
                # Refused at once until the server listens; from then on its first answer is
                # awaited (on a busy machine it can take seconds), not abandoned and asked again.
                if requests.get(self.url + "/healthz", timeout=(1, max(1, deadline - time.monotonic()))).ok:
                    return self
            except requests.RequestException:
                time.sleep(0.1)
        self.stop(signal.SIGKILL)
        raise RuntimeError("server did not start")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def restart(self, sig: int = signal.SIGTERM) -> LiveServer:
        """Stop (SIGKILL: a crash) and start again on the same data directory and port."""
        self.stop(sig)
        return self.start()

    def api(self, command: str, pin: str | None = PIN, **payload: Any) -> dict[str, Any]:
        headers = {} if pin is None else {"X-Staff-Pin": pin}
        return requests.post(f"{self.url}/api/{command}", json=payload, headers=headers, timeout=30).json()

    def ok(self, command: str, **payload: Any) -> dict[str, Any]:
        out = self.api(command, **payload)
        assert out["ok"], out
        return out

    def snapshot(self, show: str) -> dict[str, Any]:
        out = requests.get(f"{self.url}/api/shows/{show}", headers={"X-Staff-Pin": PIN}, timeout=30).json()
        assert out["ok"], out
        return out["snapshot"]

    def log_of(self, show: str, table: str) -> dict[str, Any]:
        out = requests.get(f"{self.url}/api/shows/{show}/tables/{table}/log", headers={"X-Staff-Pin": PIN},
                           timeout=30).json()
        assert out["ok"], out
        return out


class Client:
    """A real python-socketio client on one namespace that records every event it receives."""

    def __init__(self, server_url: str, namespace: str, auth: dict[str, Any] | None = None,
                 events: tuple[str, ...] = ("view", "show", "revoked"), reconnect: bool = False,
                 transports: tuple[str, ...] = ("websocket",), headers: dict[str, str] | None = None,
                 **options: Any) -> None:
        self.namespace = namespace
        self.received: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.history: list[tuple[str, Any]] = []
        self.wire: list[Any] = []  # /public: the views as they came, brief or whole
        self.constants: dict[str, dict[str, Any]] = {}
        self.show: Any = None
        self.lock = threading.Lock()
        self.sio = socketio.Client(reconnection=reconnect, reconnection_delay=0.2, reconnection_delay_max=1, **options)
        for event in events:
            self.sio.on(event, self._recorder(event), namespace=namespace)
        # python-socketio's sync client reads and writes its TLS socket from two threads at once in
        # its first milliseconds, and now and then drops the connection it has just made (about 1
        # in 75 through deploy's nginx here, never with its AsyncClient; python-socketio#1568,
        # python-engineio#461): over TLS, a connection lost that way is made once more, as a
        # page's live.js does.
        for left in reversed(range(2 if server_url.startswith("https:") else 1)):
            try:
                self.sio.connect(server_url, namespaces=[namespace], auth=auth, transports=list(transports),
                                 wait_timeout=10, headers=headers or {})
                break
            except socketio.exceptions.ConnectionError as exc:
                if not left or str(exc) != "Unexpected connection error":
                    raise

    def _recorder(self, event: str):
        def record(payload: Any = None) -> None:
            if self.namespace == "/public" and event == "view":
                self.wire.append(payload)
                payload = self._assemble(payload)
                if payload is None:
                    return
            with self.lock:
                self.history.append((event, payload))
            self.received.put((event, payload))

        return record

    # The projector page's reading of the public stream (display.js, `assemble`): a brief update
    # is completed from the last whole payload of its table; without one it asks for the whole.
    def _assemble(self, payload: Any) -> Any:
        view = payload.get("table") if isinstance(payload, dict) else None
        if "show" in payload:
            self.show = payload["show"]
            if view is not None:
                self.constants[view["table"]] = {k: view[k] for k in BRIEF_CONSTANT}
            return payload
        fixed = self.constants.get(view["table"]) if isinstance(view, dict) else None
        if fixed is None or self.show is None:
            self.sio.emit("snapshot", namespace=self.namespace)
            return None
        return {**payload, "show": self.show,
                "table": {**BRIEF_DEFAULTS, **fixed, **view, "version": payload["version"]}}

    def call(self, event: str, payload: Any = None, timeout: float = 30) -> Any:
        return self.sio.call(event, payload, namespace=self.namespace, timeout=timeout)

    def wait_for(self, predicate, timeout: float = 20) -> Any:
        """The first event received from now on (or queued) for which `predicate(event, payload)` holds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching event on {self.namespace}")
            try:
                event, payload = self.received.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(event, payload):
                return payload

    def latest(self, event: str = "view") -> Any:
        with self.lock:
            for name, payload in reversed(self.history):
                if name == event:
                    return payload
        return None

    def close(self) -> None:
        self.sio.disconnect()


def audience_version(log: dict[str, Any], audience: Any) -> int:
    """The version of `audience`'s own stream at the end of an exported table log."""
    from referee.table.runtime import Seen

    seen = Seen()
    for entry in log["entries"]:
        seen.add(entry)
    return seen.version_for(audience, len(log["entries"]))


def table_version(log: dict[str, Any], audience: Any, own: int) -> int:
    """The last table version at which `audience`'s own stream stood at version `own`."""
    from referee.table.runtime import Seen

    seen, found = Seen(), 0 if own == 0 else None
    for entry in log["entries"]:
        seen.add(entry)
        if seen.version_for(audience, entry["v"]) == own:
            found = entry["v"]
    assert found is not None, f"{audience} never stood at v{own}"
    return found


def views_at(log: dict[str, Any], versions: set[int], audience: Any) -> dict[int, dict[str, Any]]:
    """The view `audience` may hold at each of `versions` of its own stream (an audience's
    version counts only the log entries it may see) for an exported table log (the API's /log
    answer), folded once along the log: what a live payload at that version must equal. Several
    table versions share an audience version when the entries between are hidden from it; the
    view at the last of them is the one a payload must equal (the others are equal to it too, or
    the hidden entries changed what the audience sees, which a secrecy test must catch)."""
    from referee.kernel import get_game
    from referee.table import audience_view, fold
    from referee.table.runtime import VOIDED

    header, entries = log["header"], log["entries"]
    game = get_game(header["game"])
    out: dict[int, dict[str, Any]] = {}
    folded = fold(game, header, [])
    pending = folded if 0 in versions else None
    for i, entry in enumerate(entries):
        if entry["event"]["type"] == VOIDED:
            folded = fold(game, header, entries[: i + 1])
        else:
            folded = fold(game, header, [entry], folded)
        version = folded.version_for(audience)
        if pending is not None and pending.version_for(audience) != version:
            out[pending.version_for(audience)] = json.loads(json.dumps(audience_view(game, header, pending, audience)))
        pending = folded if version in versions else None
    if pending is not None:
        out[pending.version_for(audience)] = json.loads(json.dumps(audience_view(game, header, pending, audience)))
    return out


def game_table(server: LiveServer, game: str, players: list[str], seed: int,
               options: dict[str, Any] | None = None) -> tuple[str, str, list[dict[str, Any]]]:
    """A new show with `players`, one table of `game` on the projector: (show, table, links)."""
    show = "g" + uuid.uuid4().hex[:10]
    server.ok("create_show", show=show, name=f"{game} {show}")
    for name in players:
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game=game, players=players, options=options or {},
                      seed=seed)["table"]
    server.ok("set_current", show=show, table=table)
    return show, table, server.snapshot(show)["links"]


def stage_key(snapshot: dict[str, Any]) -> str:
    """The key of the room's projector link in a dealer snapshot (`projector`)."""
    return parse_qs(urlsplit(snapshot["projector"]).query)["stage"][0]


def dealer_view(server: LiveServer, show: str) -> dict[str, Any]:
    """The dealer view of the show's first table."""
    return server.snapshot(show)["tables"][0]["view"]


def wait_until(check: Any, timeout: float = 20, what: str = "condition") -> Any:
    """Poll `check` until it returns something true (returned), or fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise TimeoutError(what)


def within_one_window(seconds: int, needed: float = 3.0) -> None:
    """Wait, if need be, until a rate window of `seconds` (fixed, from the epoch, as the server's
    limits.RateLimiter and nginx count them) has `needed` seconds left: a few sends then fall in
    one window."""
    left = seconds - time.time() % seconds
    if left < needed:
        time.sleep(left + 0.05)


def owed(phone: Client, expected: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The decisions in the phone's latest payload, once they are those the dealer sees it owe."""
    latest = phone.latest()
    mine = latest["table"]["decisions"] if latest and latest["table"] else None
    return mine if mine == expected else None


def stream_ends(log: dict[str, Any], audiences: list[Any]) -> dict[Any, dict[int, int]]:
    """Per audience: each version of its own stream -> the last table version at which it stood there."""
    from referee.table.runtime import Seen

    seen, out = Seen(), {a: {0: 0} for a in audiences}
    for entry in log["entries"]:
        seen.add(entry)
        for audience in audiences:
            out[audience][seen.version_for(audience, entry["v"])] = entry["v"]
    return out


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value (to look for a secret's name anywhere in a payload)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


# -- the browser: Debian's chromium driven by Playwright ----------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
                 "--disable-component-update", "--disable-sync", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "browser"


def open_pages(server: LiveServer, browser: Any, show: str, links: list[dict[str, Any]],
               errors: list[str]) -> tuple[Any, Any, list[Any]]:
    """The console (logged in), the projector and one phone per link (mobile viewports), each
    page's script errors collected in `errors`."""
    console = browser.new_page(viewport={"width": 1400, "height": 1000})
    console.goto(f"{server.url}/console/login?show={show}")
    console.fill("input[name=pin]", PIN)
    console.click("button[type=submit]")
    console.wait_for_url(f"**/console/{show}")
    console.wait_for_selector("[data-action=start]")
    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{server.url}/display/{show}")
    phones = []
    for link in links:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(link["url"])
        page.wait_for_selector("#player:text('" + link["name"] + "')")
        phones.append(page)
    for page in (console, projector, *phones):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    return console, projector, phones
