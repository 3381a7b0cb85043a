"""What deploy's nginx needs to take the hall's predictions itself (deploy/nginx/hall.lua).

A prediction through the Python processes cost the server about 1.3 ms of CPU in a burst of
10,000 (the audience processes, Redis and nginx); nginx running the same Redis script itself
brings it to about half of that, a quarter above what the hall's idle sockets cost anyway
(docs/performance.md, Goal 8). The rules stay in one place: the script is the referee's
(``crowd._PREDICT``, which every process stores in Redis at its start for nginx to load), the
form's checks are the same patterns, and every answer nginx gives is written here, from the
referee's own errors. `referee hall-config` prints this as JSON for /etc/referee/hall.json; nginx's
master process reads it at its start (so the file may be root's alone).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import redis

from referee.kernel import RuleError
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


def hall_config(redis_url: str, secret: bytes, limits: Limits, replicas: int, prefix: str = "ref:",
                host: str | None = None, port: int | None = None) -> dict[str, Any]:
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
        "ready_key": READY_KEY,
        "script_key": script_key(prefix),
        "none_key": none_key(prefix),
        "errors": errors,
    }


# nginx run from a checkout (the tests, the benchmarks) rather than as deploy/README.md installs it.
CHECKOUT_LUA = Path(__file__).resolve().parents[2] / "deploy" / "nginx"
LUA_MODULES = ("/usr/lib/nginx/modules/ndk_http_module.so", "/usr/lib/nginx/modules/ngx_http_lua_module.so")


def checkout_site(site: str, config: str | os.PathLike[str]) -> str:
    """deploy/nginx/referee.conf with this checkout's hall.lua and the hall.json at `config`."""
    return site.replace("/opt/referee/deploy/nginx/", f"{CHECKOUT_LUA}/").replace("/etc/referee/hall.json", str(config))


def load_modules() -> str:
    """The main context's lines that load the Lua module (Debian's nginx.conf does it by itself)."""
    return "".join(f"load_module {module};\n" for module in LUA_MODULES)
