"""The Flask app factory: builds the app, the Socket.IO server, the Redis pools, the Service and
the background tasks, then hands them to the edge (referee/server/edge/), whose modules register
each side's pages and namespace: the projector's /public, the hall's /crowd, the phones' /seat,
the console's /dealer, and the JSON API.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from flask import Flask, request
from flask_socketio import SocketIO

from referee.kernel import registry
from referee.store import connect
from referee.store.replication import Replication

from .assets import Assets
from .collector import QuietCollector
from .crowd import Crowd, CrowdDesk
from .edge import api, dealer, public, seat, site
from .edge import crowd as crowd_side
from .edge.wiring import Wiring, answer_probes, csrf_token
from .limits import Limits, RateLimiter
from .replaying import Replays
from .service import Service
from .shows import Shows, load_secret
from .staff import SESSION_SECONDS, StaffSessions
from .web import (
    MAX_BODY,
    Admission,
    Encoded,
    SessionInterface,
    SlicedRedisManager,
    SlicedRooms,
    SocketJSON,
    SocketPacket,
    TrustedProxies,
    every,
)

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent.parent  # the checkout: display/, phone/ live here
HERE = Path(__file__).resolve().parent
QUEUE_CHANNEL = "referee"

# Errors shown on the server-rendered pages (login, join, refused link), Korean and English.
PAGE_ERRORS = {
    "auth/bad_pin": ("PIN이 맞지 않습니다", "Wrong PIN"),
    "auth/csrf": ("보안 토큰이 만료되었습니다. 다시 시도하세요", "The security token expired; try again"),
    "auth/bad_code": ("코드가 맞지 않습니다", "That code does not work"),
    "auth/bad_link": ("이 링크는 쓸 수 없습니다", "This link does not work"),
    "rate/limited": ("시도가 너무 많습니다. 1분 뒤에 다시 하세요", "Too many tries; wait a minute"),
}


@dataclass
class Settings:
    redis_url: str
    data_dir: str
    async_mode: str = "eventlet"
    message_queue: bool = True  # several processes share one show through the Redis queue
    public_url: str | None = None  # the base of phone links (the LAN address); default: the request's
    prefix: str = "ref:"
    extra_games: tuple[str, ...] = ()  # modules of a show's own games (REFEREE_EXTRA_GAMES)
    limits: Limits = field(default_factory=Limits)
    # Addresses of the reverse proxies (nginx) whose X-Forwarded-* headers are believed; from
    # any other client those headers are dropped. Empty: not behind a proxy.
    trusted_proxies: tuple[str, ...] = ()
    # Pages on other origins that may open sockets (an OBS machine's page); same origin always.
    allowed_origins: tuple[str, ...] = ()
    # Runs a blocking CPU-bound call (PBKDF2) off the event loop: eventlet's thread pool.
    offload: Callable[..., Any] | None = None
    # Replicas an acknowledged write waits for (a standby machine: docs/backup.md); 0: none.
    replicas: int = 0
    # Redis connections: the commands (phones, the dealer) and the audience each have their own
    # bounded pool, so no flood of projector screens can take a phone's connection.
    command_connections: int = 64
    audience_connections: int = 32
    # New audience connections in their handshake at once, and the longest one may hold its
    # slot (web.Admission); the rest wait their turn.
    admission_slots: int = 32
    admission_hold: float = 1.0
    # deploy's nginx's publisher for the hall's phones (its nchan module, hall.HallPush), or None:
    # the phones then take their questions on the /crowd socket.
    hall_push: str | None = None
    # The base of the hall's page (/a/<show>) when deploy's hall has an nginx of its own
    # (deploy/nginx/hall.conf, REFEREE_HALL_URL); default: public_url's.
    hall_url: str | None = None


def create_app(settings: Settings) -> tuple[Flask, SocketIO]:
    # Static files are served by ``assets`` (hashed names, gzip made once), not Flask's own route.
    app = Flask(__name__, template_folder=str(HERE / "templates"), static_folder=None)
    key = load_secret(settings.data_dir)
    app.secret_key = hmac.new(key, b"flask-session", hashlib.sha256).hexdigest()
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict", JSON_AS_ASCII=False,
                      PERMANENT_SESSION_LIFETIME=SESSION_SECONDS, MAX_CONTENT_LENGTH=MAX_BODY)
    app.json.ensure_ascii = False
    app.session_interface = SessionInterface()

    def pool(size: int) -> redis.Redis:
        # Blocking: at the limit a request waits for a connection instead of failing. Through
        # Sentinel (a standby machine, docs/backup.md) the pool follows the primary it names.
        return connect.client(settings.redis_url, max_connections=size, blocking_timeout=20, decode_responses=True)

    client = pool(settings.command_connections)
    audience_client = pool(settings.audience_connections)
    # A standby's replica: acknowledged writes wait for its copy; the console shows the pair.
    replication = Replication(client, settings.replicas) if settings.replicas else None
    shows = Shows(client, key, settings.prefix, offload=settings.offload)
    # `sio` is made below; a staff socket is only ever cut once the server runs.
    sessions = StaffSessions(client, settings.prefix,
                             disconnect=lambda sid: sio.server.disconnect(sid, namespace="/dealer"))

    def origin_allowed(origin: str | None, environ: dict[str, Any]) -> bool:
        """Sockets from this server's own pages (and the configured extra origins) only; a
        client that sends no Origin is no browser page of another site."""
        if origin is None or origin in settings.allowed_origins:
            return True
        own = f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}"
        if origin != own:
            log.warning("socket refused: origin %r is not this server's (%r) nor an allowed one", origin, own)
            return False
        return True

    options: dict[str, Any] = {"async_mode": settings.async_mode, "cors_allowed_origins": origin_allowed,
                               "json": SocketJSON, "serializer": SocketPacket}
    # An explicit manager: a message_queue URL other than redis:// would silently pick Kombu.
    # Through Sentinel the queue's subscriber notices a primary gone without a word (connect.py).
    queue_options = connect.queue_options() if connect.is_sentinel(settings.redis_url) else {}
    options["client_manager"] = (SlicedRedisManager(settings.redis_url, channel=QUEUE_CHANNEL, json=SocketJSON,
                                                    redis_options=queue_options)
                                 if settings.message_queue else SlicedRooms())
    sio = SocketIO(app, **options)
    if settings.async_mode == "eventlet":
        from . import deflate, outbox  # eventlet's own: imported only when serving with it

        outbox.install(sio.server.eio)
        # Browsers offer compression: each message is deflated once, not once per socket (issue 38).
        deflate.install(sio.server.eio)
    admission = Admission(app.wsgi_app, settings.admission_slots, settings.admission_hold)
    # Outermost, so Socket.IO's requests (its origin check) see the corrected address too.
    app.wsgi_app = TrustedProxies(admission, settings.trusted_proxies)

    def base_url() -> str:
        if settings.public_url:
            return settings.public_url.rstrip("/")
        try:
            return request.host_url.rstrip("/")
        except RuntimeError:
            return ""

    def audience_url(show: str) -> str:
        """The hall's page of `show`, as the projector and the console hand it out."""
        return f"{settings.hall_url.rstrip('/') if settings.hall_url else base_url()}/a/{show}"

    def publish(namespace: str, room: str, event: str, payload: dict[str, Any] | Encoded, local: bool = False) -> None:
        sio.emit(event, payload, to=room, namespace=namespace, ignore_queue=local)

    assets = Assets({"/static": HERE / "static", "/display-assets": ROOT / "display", "/phone-assets": ROOT / "phone",
                     "/console-assets": HERE.parent / "console" / "static"})
    collector = QuietCollector()

    def defer(task: Callable[[], None]) -> None:
        collector.busy()  # a command: no full collection for a moment
        sio.start_background_task(task)

    service = Service(client, shows, publish, base_url, settings.prefix, registry(settings.extra_games, programs=True),
                      defer=defer, audience_url=audience_url,
                      disconnect=lambda namespace, sid: sio.server.disconnect(sid, namespace=namespace),
                      audience=audience_client, pause=lambda: sio.sleep(0), replication=replication)
    app.extensions["referee"] = service
    app.extensions["referee_staff"] = sessions  # entry.serve: a new PIN ends them all
    service.heartbeat()  # up before it serves anyone (see Service.heartbeat)
    sio.start_background_task(service.keep_beating, sio.sleep)
    sio.start_background_task(service.run_bots, sio.sleep)  # rehearsal bots, when staff set some
    sio.start_background_task(collector.run, sio.sleep)  # full collections at quiet moments only
    limiter = RateLimiter(client, settings.prefix)
    limits = settings.limits
    # The hall's predictions count on the audience's connections: a burst of ten thousand
    # phones voting at once waits for those, never for the ones the players' moves use.
    crowd = Crowd(audience_client, key, settings.prefix, limits, replication)
    crowd.publish_script()  # for deploy's nginx, which takes the hall's predictions itself
    push = None
    if settings.hall_push:
        from .hall import HallPush

        push = HallPush(audience_client, settings.hall_push, crowd.payload, lambda show: crowd.k(show, "pushed"))
    desk = CrowdDesk(crowd, service, publish, push)
    sio.start_background_task(desk.run, sio.sleep)
    replays = Replays(service, publish)  # the console's 다시 보기 on the projector
    sio.start_background_task(replays.run, sio.sleep)
    if replication is not None:
        def watch_pair() -> None:
            # The pair changed (the standby came or went, another Redis leads): every console hears it.
            if replication.check():
                for show in shows.ids():
                    service.changed(show)

        sio.start_background_task(every, 2.0, watch_pair, sio.sleep, "the standby's watch")
    if connect.is_sentinel(settings.redis_url):
        def follow() -> None:
            # A pulled cable closes nothing: twice a second the sentinels say which Redis leads, and
            # a pool whose primary changed drops its idle connections to the old one at once,
            # before a command would wait out its timeout on one (docs/backup.md).
            primary = connect.follow_primary(client)
            connect.follow_primary(audience_client)
            if replication is not None and primary is not None and replication.primary not in (None, primary):
                replication.moved(primary)

        sio.start_background_task(every, 0.5, follow, sio.sleep, "following the primary")

    w = Wiring(app=app, sio=sio, client=client, shows=shows, sessions=sessions, service=service, limiter=limiter,
               limits=limits, crowd=crowd, desk=desk, replays=replays, admission=admission, assets=assets,
               base_url=base_url)

    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["page_error"] = lambda code: PAGE_ERRORS.get(code, (code, code))
    # A file's versioned URL (a content hash in its name), and each game's pictures for a page
    # that loads them on demand (the projector and the phones: only the game on screen).
    app.jinja_env.globals["asset"] = assets.url
    app.jinja_env.globals["game_manifest"] = assets.manifest
    # Every game's own pictures under a page's folder, for a page that loads them all (the console).
    app.jinja_env.globals["game_scripts"] = lambda front: sorted(p.name for p in (ROOT / front / "games").glob("*.js"))
    # Per-game helpers shared by the projector, the phones and the console (a game's cards).
    app.jinja_env.globals["shared_game_scripts"] = lambda: sorted(p.name for p in (HERE / "static" / "games").glob("*.js"))
    app.jinja_env.globals["game_styles"] = lambda front: sorted(p.name for p in (ROOT / front / "games").glob("*.css"))

    # One module per side (edge/__init__.py), each with its pages and its namespace.
    for side in (site, public, crowd_side, seat, dealer, api):
        side.register(w)
    answer_probes(sio)
    return app, sio
