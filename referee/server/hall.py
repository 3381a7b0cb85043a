"""What deploy's nginx needs to take the hall's predictions itself (deploy/nginx/hall.lua), and
to send the hall's phones their questions itself (`HallPush`, nginx's nchan module).

A prediction through the Python processes cost the server about 1.3 ms of CPU in a burst of
10,000 (the audience processes, Redis and nginx); nginx running the same Redis script itself, a
worker's predictions of `GATHER_MS` sent as one pipeline, brings it to about 0.3 ms
(docs/performance.md, Goal 8). The rules stay in one place: the script is the referee's
(``crowd._PREDICT``, which every process stores in Redis at its start for nginx to load), the
form's checks are the same patterns, and every answer nginx gives is written here, from the
referee's own errors. `referee hall-config` prints this as JSON for /etc/referee/hall.json; nginx's
master process reads it at its start (so the file may be root's alone).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import redis

from referee.kernel import RuleError
from referee.store.base import encode
from referee.store.connect import is_sentinel, sentinel_of
from referee.store.replication import READY_KEY

from .crowd import DEVICE_COOKIE, OPTION_DIGITS, PREDICT_ERRORS, QUESTION_DIGITS, none_key, refused, script_key
from .devices import TAG_CHARS, TOKEN_CHARS, device_key
from .edge.wiring import SERVER_ERROR, status_of
from .limits import Limits, limited


def redis_of(url: str, host: str | None = None, port: int | None = None) -> dict[str, Any]:
    """Where nginx reaches Redis, from the referee's REDIS_URL (``host``: "unix:PATH" for a
    socket). Through Sentinel (a standby pair, docs/backup.md) nginx asks its own machine's
    Redis: the room's address moves with the primary, so the machine that gets the hall's
    requests is the one whose Redis leads."""
    if is_sentinel(url):
        _, _, primary = sentinel_of(url)
        found = {"host": "127.0.0.1", "port": 6379, **primary}
    else:
        found = redis.connection.parse_url(url)
        if "path" in found:
            found["host"], found["port"] = f"unix:{found.pop('path')}", None
    return {"host": host or found.get("host", "127.0.0.1"), "port": port or found.get("port", 6379),
            "username": found.get("username") or None, "password": found.get("password") or None,
            "db": int(found.get("db") or 0)}


def body(err: RuleError) -> dict[str, Any]:
    return {"status": status_of(err.code), "body": json.dumps({"ok": False, "error": err.to_json()}, ensure_ascii=False)}


# How long an nginx worker gathers predictions before it sends them to Redis as one pipeline
# (hall.lua's group commit: one fsync for all of them).
GATHER_MS = 20


def hall_config(redis_url: str, secret: bytes, limits: Limits, replicas: int, prefix: str = "ref:",
                host: str | None = None, port: int | None = None, gather_ms: float = GATHER_MS) -> dict[str, Any]:
    """The settings and the answers of deploy/nginx/hall.lua."""
    errors = {why: body(refused(why)) for why in PREDICT_ERRORS}
    errors["rate"] = body(limited(limits.crowd_device))
    errors["server"] = body(SERVER_ERROR)
    dev, addr = limits.crowd_device, limits.crowd_address
    return {
        "redis": redis_of(redis_url, host, port),
        "prefix": prefix,
        "cookie": DEVICE_COOKIE,
        "device_key": device_key(secret).hex(),
        # the forms the server's regular expressions check, for hall.lua's patterns
        "device_chars": [TOKEN_CHARS, TAG_CHARS],
        "question_digits": list(QUESTION_DIGITS),
        "option_digits": list(OPTION_DIGITS),
        "limits": {"device": [dev.count, dev.seconds], "address": [addr.count, addr.seconds]},
        "replicas": replicas,
        "gather_ms": gather_ms,
        "ready_key": READY_KEY,
        "script_key": script_key(prefix),
        "none_key": none_key(prefix),
        "errors": errors,
    }


# nginx run from a checkout (the tests, the benchmarks) rather than as deploy/README.md installs it.
CHECKOUT_LUA = Path(__file__).resolve().parents[2] / "deploy" / "nginx"
LUA_MODULES = ("/usr/lib/nginx/modules/ndk_http_module.so", "/usr/lib/nginx/modules/ngx_http_lua_module.so",
               "/usr/lib/nginx/modules/ngx_nchan_module.so")


# Where deploy/nginx/referee.conf takes the processes' pushes to the hall's phones (HallPush).
PUSH_LISTEN = "127.0.0.1:8091"


def checkout_site(site: str, config: str | os.PathLike[str], push_port: int | None = None) -> str:
    """deploy/nginx/referee.conf with this checkout's hall.lua, the hall.json at `config` and
    the publisher of the hall's channels on `push_port` (its own port by default)."""
    site = site.replace("/opt/referee/deploy/nginx/", f"{CHECKOUT_LUA}/").replace("/etc/referee/hall.json", str(config))
    return site.replace(f"listen {PUSH_LISTEN};", f"listen 127.0.0.1:{push_port};") if push_port else site


def push_url(port: int) -> str:
    """REFEREE_HALL_PUSH for the publisher on `port` of 127.0.0.1."""
    return f"http://127.0.0.1:{port}/hall"


def load_modules() -> str:
    """The main context's lines that load the Lua and nchan modules (Debian's nginx.conf does it
    by itself)."""
    return "".join(f"load_module {module};\n" for module in LUA_MODULES)


class HallPush:
    """The hall's phones' payload (the questions and the board: what ``/crowd`` sends them) to
    deploy's nginx, whose nchan module keeps one channel a show and sends each message to every
    phone subscribed to it (the audience page's EventSource, ``/a/<show>/live``) in C: the
    audience processes then hold no phone's connection, so a question reaches ten thousand
    phones without waiting behind their pings, handshakes and predictions (docs/performance.md,
    Goal 8). `url` is nginx's publisher (``REFEREE_HALL_PUSH``, on loopback only), the show's id
    appended.

    Every process sends when it sees the payload's ``seq`` move (a staff command, its ticker),
    and once for all of them: under a short lock in Redis a process reads the payload then,
    sends it only if no process sent that ``seq`` yet, and notes it. The channel's messages are
    therefore in order, and the newest one, which nchan keeps for a phone that connects, is the
    show's state. A send that fails (nginx restarting) is noted nowhere and tried again at the
    next tick. nginx keeps its channels in memory: after a restart a show's is gone, and the
    ticker, which asks for it (`present`), sends the show's state again."""

    def __init__(self, client: redis.Redis, url: str, payload: Callable[[str], dict[str, Any]],
                 key: Callable[[str], str], timeout: float = 3.0) -> None:
        self.client = client
        self.url = url.rstrip("/") + "/"
        self.payload = payload  # show -> its payload read now
        self.key = key  # show -> the Redis key of the seq last sent
        self.timeout = timeout
        self.sent: dict[str, int] = {}  # show -> the newest seq this process knows is in the channel
        self.missed: set[str] = set()  # shows whose last send failed: the ticker reads them again

    def behind(self, show: str, seq: int) -> bool:
        return self.sent.get(show, -1) < seq

    def send(self, show: str, again: bool = False) -> None:
        """Publish the show's payload if no process has published its seq (`again`: if nginx's
        channel has nothing, a restart's)."""
        self.missed.add(show)
        key = self.key(show)
        with self.client.lock(f"{key}:lock", timeout=2 * self.timeout + 1, blocking_timeout=2 * self.timeout,
                              sleep=0.005):
            payload = self.payload(show)
            seq = int(payload["seq"])
            done = int(self.client.get(key) or -1)
            if done < seq or again and not self.present(show):
                post = urllib.request.Request(self._channel(show), data=encode(payload).encode(), method="POST",
                                              headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(post, timeout=self.timeout) as answer:  # noqa: S310 - our nginx
                    answer.read()
                self.client.set(key, seq)
                done = seq
        self.sent[show] = done
        self.missed.discard(show)

    def present(self, show: str) -> bool:
        """Whether nginx's channel of the show holds a message: nchan answers a publisher's GET
        with the channel's state (``messages``), 404 when no phone or publisher made it yet (a
        phone that connects makes it, empty)."""
        ask = urllib.request.Request(self._channel(show), headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(ask, timeout=self.timeout) as answer:  # noqa: S310 - our nginx
                state = json.loads(answer.read())
        except urllib.error.HTTPError as err:
            if err.code == 404:
                return False
            raise
        return int(state.get("messages", 0)) > 0

    def _channel(self, show: str) -> str:
        return self.url + quote(show, safe="")
