"""The server's entry point: the only place that patches the standard library for eventlet
(the default) or gevent.

``eventlet.monkey_patch()`` (or gevent's ``patch_all()``) must run before Flask, redis or the
app are imported, so this module imports them inside ``serve`` only, after choosing the async
mode.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import secrets
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ASYNC_MODES = ("eventlet", "gevent", "threading")

DEMO_SHOW = "demo"
DEMO_PLAYERS = ("김하나", "이두리")
DEMO_PIN = "1234"


@dataclass
class ServeOptions:
    host: str = "0.0.0.0"
    port: int = 5000
    data_dir: str | None = None
    pin: str | None = None
    async_mode: str = "eventlet"
    public_url: str | None = None
    demo: bool = False
    max_clients: int = 10_000


def limits_from_env() -> Any:
    """``REFEREE_RATE_JOIN``, ``REFEREE_RATE_LOGIN``, ``REFEREE_RATE_SUBMIT``, ``REFEREE_RATE_READ``,
    ``REFEREE_RATE_CROWD_DEVICE``, ``REFEREE_RATE_CROWD_ADDRESS`` as COUNT/SECONDS."""
    from .limits import Limit, Limits

    def given(name: str, default: Limit) -> Limit:
        text = os.environ.get(name)
        return Limit.parse(text) if text else default

    default = Limits()
    return Limits(
        failed_join=given("REFEREE_RATE_JOIN", default.failed_join),
        failed_login=given("REFEREE_RATE_LOGIN", default.failed_login),
        submit=given("REFEREE_RATE_SUBMIT", default.submit),
        read=given("REFEREE_RATE_READ", default.read),
        crowd_device=given("REFEREE_RATE_CROWD_DEVICE", default.crowd_device),
        crowd_address=given("REFEREE_RATE_CROWD_ADDRESS", default.crowd_address),
    )


def admission_from_env() -> dict[str, Any]:
    """``REFEREE_ADMISSION`` as SLOTS/SECONDS: how many new audience connections may be in their
    handshake at once, and how long one may keep its slot (web.Admission); 0 slots, no line;
    unset, the defaults."""
    text = os.environ.get("REFEREE_ADMISSION")
    if not text:
        return {}
    slots, _, hold = text.partition("/")
    return {"admission_slots": int(slots), **({"admission_hold": float(hold)} if hold else {})}


def replicas_from_env(url: str) -> int:
    """``REFEREE_REPLICAS``: the replicas an acknowledged write waits for; by default one when
    Redis is reached through Sentinel (a standby machine, docs/backup.md), else none."""
    from referee.store.connect import is_sentinel

    text = os.environ.get("REFEREE_REPLICAS")
    return int(text) if text else (1 if is_sentinel(url) else 0)


def gather_from_env() -> float:
    """``REFEREE_HALL_GATHER_MS``: how long an nginx worker gathers predictions into one Redis
    pipeline (deploy/nginx/hall.lua), 0 to 1000 ms; unset, ``hall.GATHER_MS``."""
    from .hall import GATHER_MS

    text = os.environ.get("REFEREE_HALL_GATHER_MS")
    if not text:
        return GATHER_MS
    try:
        ms = float(text)
    except ValueError:
        ms = -1.0
    if not 0 <= ms <= 1000:
        from referee.kernel import RuleError

        raise RuleError("config/bad_setting", f"REFEREE_HALL_GATHER_MS가 {text!r}입니다: 0부터 1000까지의 밀리초 수여야 합니다",
                        f"REFEREE_HALL_GATHER_MS is {text!r}: a number of milliseconds from 0 to 1000",
                        setting="REFEREE_HALL_GATHER_MS", given=text)
    return ms


def hall_url_from_env() -> str | None:
    """``REFEREE_HALL_URL``: where the hall's phones reach deploy's hall nginx
    (deploy/nginx/hall.conf: its own address or port), as ``https://host[:port]``; unset, the
    hall's page is beside the rest (the public URL)."""
    text = os.environ.get("REFEREE_HALL_URL", "").strip()
    if not text:
        return None
    if re.fullmatch(r"https?://[^\s/?#@]+/?", text) is None:
        from referee.kernel import RuleError

        raise RuleError("config/bad_setting", f"REFEREE_HALL_URL이 {text!r}입니다: https://주소[:포트] 형식이어야 합니다 (경로 없이; 시험용은 http://)",
                        f"REFEREE_HALL_URL is {text!r}: it must be https://address[:port] (no path; http:// for a trial)",
                        setting="REFEREE_HALL_URL", given=text)
    return text.rstrip("/")


def listed(name: str) -> tuple[str, ...]:
    """A comma-separated setting from the environment."""
    return tuple(x.strip() for x in os.environ.get(name, "").split(",") if x.strip())


def trusted_proxies() -> tuple[str, ...]:
    """Behind nginx (``REFEREE_PROXIED=1``): the proxies whose X-Forwarded-* headers count,
    ``REFEREE_TRUSTED_PROXIES`` (default the proxy on this machine)."""
    if os.environ.get("REFEREE_PROXIED") != "1":
        return ()
    return listed("REFEREE_TRUSTED_PROXIES") or ("127.0.0.1", "::1")


def lan_address() -> str:
    """The first non-loopback IPv4 address of this machine, for links printed on cards."""
    import psutil

    for name, addresses in sorted(psutil.net_if_addrs().items()):
        for addr in addresses:
            if addr.family.name == "AF_INET" and not addr.address.startswith("127.") and name != "lo":
                return addr.address
    return "127.0.0.1"


def serve(opts: ServeOptions) -> int:
    if opts.async_mode not in ASYNC_MODES:
        print(f"unknown async mode {opts.async_mode!r}; use one of {ASYNC_MODES}", file=sys.stderr)
        return 2
    if opts.async_mode == "eventlet":
        import warnings

        # The stack asks for eventlet (STACK.md); its deprecation notice means nothing to staff.
        warnings.filterwarnings("ignore", message="\nEventlet is deprecated")
        import eventlet

        eventlet.monkey_patch()
        from eventlet import tpool

        offload = tpool.execute
    elif opts.async_mode == "gevent":
        from gevent import monkey

        monkey.patch_all()
        import gevent

        def offload(fn: Any, *args: Any) -> Any:
            return gevent.get_hub().threadpool.apply(fn, args)
    else:
        offload = None

    from referee.store import data_dir_from, redis_url

    from .app import Settings, create_app
    from .service import Staff

    data_dir = data_dir_from(opts.data_dir)
    host_for_links = lan_address() if opts.host in ("0.0.0.0", "") else opts.host
    public_url = opts.public_url or f"http://{host_for_links}:{opts.port}"
    hall_url = hall_url_from_env()  # a bad one refused before anything starts
    # A SIGTERM during start-up is kept until start-up is done (an exception raised from the
    # handler could land in a destructor and be lost); the server then leaves through the
    # `with`, so an embedded Redis started here stops with it.
    stop_asked: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, _frame: stop_asked.append(signum))
    with redis_url(data_dir) as url:
        extra = tuple(m for m in os.environ.get("REFEREE_EXTRA_GAMES", "").split(",") if m.strip())
        app, sio = create_app(Settings(redis_url=url, data_dir=data_dir, async_mode=opts.async_mode,
                                       public_url=public_url, extra_games=extra, limits=limits_from_env(),
                                       trusted_proxies=trusted_proxies(), allowed_origins=listed("REFEREE_ORIGINS"),
                                       offload=offload, replicas=replicas_from_env(url),
                                       hall_push=os.environ.get("REFEREE_HALL_PUSH") or None, hall_url=hall_url,
                                       **admission_from_env()))
        service = app.extensions["referee"]
        pin = opts.pin or os.environ.get("REFEREE_PIN") or (DEMO_PIN if opts.demo else None)
        made = None
        if not pin and not service.shows.has_staff_pin():
            # A PIN nobody chose: written for the operator to a file only they can read, never to
            # the log (the demo, with its well-known PIN, is the only show that prints one).
            pin = made = f"{secrets.randbelow(10**6):06d}"
            pin_file = Path(data_dir) / "staff-pin.txt"
            fd = os.open(pin_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(pin + "\n")
        if pin and service.shows.set_staff_pin(pin):
            # A new PIN ends every staff login, and cuts every staff socket on the other processes.
            app.extensions["referee_staff"].end_all()
        if opts.demo:
            make_demo(service, Staff(all_shows=True))
        announce(service, public_url, DEMO_PIN if opts.demo else None,
                 Path(data_dir) / "staff-pin.txt" if made else None, opts.demo)
        gc.collect()
        gc.freeze()  # what start-up built lives for good: keep it out of full collections
        # SIGTERM (systemd, a test) ends the server through the `with`, so an embedded Redis
        # that this process started is shut down cleanly too.
        signal.signal(signal.SIGTERM, stopper(opts.async_mode))
        if stop_asked:
            return 0
        try:
            if opts.async_mode == "eventlet":
                run_eventlet(app, opts)
            elif opts.async_mode == "gevent":
                run_gevent(app, opts)
            else:
                sio.run(app, host=opts.host, port=opts.port, log_output=False, allow_unsafe_werkzeug=True)
        finally:
            with contextlib.suppress(Exception):  # else its entry expires (PROCESS_TTL)
                service.leave()
    return 0


def stopper(async_mode: str) -> Any:
    """A SIGTERM handler that ends the server from its main loop.

    Under eventlet and gevent the handler runs in whichever green thread happens to be current
    (a socket's disconnect handler, say): raising SystemExit there would only end that green
    thread, with a trace in the log. The exit is thrown into the main green thread instead, from
    the hub."""
    if async_mode == "threading":
        return lambda *_: sys.exit(0)
    import greenlet

    main = greenlet.getcurrent()
    if async_mode == "eventlet":
        from eventlet import hubs

        return lambda *_: hubs.get_hub().schedule_call_global(0, main.throw, SystemExit(0))
    import gevent

    return lambda *_: gevent.get_hub().loop.run_callback(main.throw, SystemExit(0))


def run_eventlet(app: Any, opts: ServeOptions) -> None:
    """eventlet's WSGI server with TCP_NODELAY on every connection.

    An acknowledgement and the phone's new view leave as two small writes back to back; with
    Nagle's algorithm on, the second waits for the phone's delayed ACK (40 ms on Linux).
    Accepted sockets inherit the option from the listening socket.
    """
    import socket

    import eventlet
    import eventlet.wsgi

    listener = eventlet.listen((opts.host, opts.port))
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    eventlet.wsgi.server(listener, app, log_output=False, max_size=opts.max_clients)


def run_gevent(app: Any, opts: ServeOptions) -> None:
    """gevent's WSGI server, with gevent-websocket (which python-engineio's gevent mode uses),
    at most `max_clients` connections at once, and TCP_NODELAY as in `run_eventlet`."""
    import socket

    from gevent import pywsgi
    from geventwebsocket.handler import WebSocketHandler

    server = pywsgi.WSGIServer((opts.host, opts.port), app, handler_class=WebSocketHandler, log=None,
                               spawn=opts.max_clients)
    server.init_socket()
    server.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    server.serve_forever()


def make_demo(service: Any, staff: Any) -> None:
    """A ready demo show: two players at a Tricky Coin table (made once per data directory)."""
    if service.shows.exists(DEMO_SHOW):
        return
    service.command(staff, "create_show", {"show": DEMO_SHOW, "name": "데모 쇼 / Demo show"})
    for name in DEMO_PLAYERS:
        service.command(staff, "add_player", {"show": DEMO_SHOW, "name": name})
    service.command(staff, "create_table", {"show": DEMO_SHOW, "game": "tricky_coin", "players": list(DEMO_PLAYERS)})


def announce(service: Any, public_url: str, demo_pin: str | None, pin_file: Path | None, demo: bool) -> None:
    """What the operator needs at start-up. The staff PIN is printed for the demo only (its PIN
    is well known); a PIN made up now is in a file only the operator can read."""
    where = (f"staff PIN {demo_pin}" if demo_pin else f"staff PIN in {pin_file}" if pin_file
             else "staff PIN as given or set before")
    lines = [
        f"referee is serving on {public_url}",
        f"  console   {public_url}/console   ({where})",
    ]
    for show in service.shows.ids():
        lines.append(f"  projector {public_url}/display/{show}")
        if demo and show == DEMO_SHOW:
            for link in service.links(show):
                lines.append(f"  phone     {link['url']}   ({link['name']}, code {link['code']})")
    lines.append(f"  phones without a QR: {public_url}/join")
    print("\n".join(lines), flush=True)
