"""The Flask app factory: pages, the JSON API and the three Socket.IO namespaces.

Thin adapters over ``Service``: they authenticate, parse, call one method, and map errors to
responses in one place (``_guard``). Nothing here knows a game's rules.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from flask import Flask, Response, abort, jsonify, redirect, render_template, request, session
from flask_socketio import ConnectionRefusedError, SocketIO, join_room
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from referee.kernel import RuleError, registry
from referee.store.base import StoreError

from .assets import Assets
from .collector import QuietCollector
from .crowd import DEVICE_COOKIE, Crowd, CrowdDesk, crowd_room, is_device, new_device
from .limits import Limit, Limits, RateLimiter
from .replaying import Replays
from .service import Service, Staff, dealer_room, link_revoked, player_room, public_room
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
    clean,
    lane,
    parse_json,
    too_large,
    unreadable,
)

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent.parent  # the checkout: display/, phone/ live here
HERE = Path(__file__).resolve().parent
SEAT_COOKIE = "referee_seat"
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
    # Redis connections: the commands (phones, the dealer) and the audience each have their own
    # bounded pool, so no flood of projector screens can take a phone's connection.
    command_connections: int = 64
    audience_connections: int = 32
    # New audience connections in their handshake at once, and the longest one may hold its
    # slot (web.Admission); the rest wait their turn.
    admission_slots: int = 32
    admission_hold: float = 1.0


def _error(err: RuleError | StoreError) -> dict[str, Any]:
    return {"ok": False, "error": err.to_json()}


def _guard(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a command; every failure becomes a clear error for the sender and changes nothing."""
    try:
        return {"ok": True, **call()}
    except (RuleError, StoreError) as err:
        return _error(err)
    except HTTPException:  # a body over MAX_BODY: Flask answers it (the 413 handler)
        raise
    except Exception:  # an unexpected failure must not kill the socket or leak a trace
        log.exception("command failed")
        return _error(RuleError("server/error", "서버 오류입니다. 다시 시도하세요", "Server error; please try again"))


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
        # Blocking: at the limit a request waits for a connection instead of failing.
        return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=size, timeout=20, decode_responses=True))

    client = pool(settings.command_connections)
    audience_client = pool(settings.audience_connections)
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
    options["client_manager"] = (SlicedRedisManager(settings.redis_url, channel=QUEUE_CHANNEL, json=SocketJSON)
                                 if settings.message_queue else SlicedRooms())
    sio = SocketIO(app, **options)
    if settings.async_mode == "eventlet":
        from . import outbox  # eventlet's own: imported only when serving with it

        outbox.install(sio.server.eio)
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

    def publish(namespace: str, room: str, event: str, payload: dict[str, Any] | Encoded, local: bool = False) -> None:
        sio.emit(event, payload, to=room, namespace=namespace, ignore_queue=local)

    def welcome(namespace: str, payload: dict[str, Any] | Encoded, event: str = "view") -> None:
        """The server's clock, then the first view, to the socket connecting now: it is on this
        process, so neither goes through the queue (a reconnecting room would flood it)."""
        sio.emit("time", {"now": time.time()}, to=request.sid, namespace=namespace, ignore_queue=True)
        sio.emit(event, payload, to=request.sid, namespace=namespace, ignore_queue=True)

    assets = Assets({"/static": HERE / "static", "/display-assets": ROOT / "display", "/phone-assets": ROOT / "phone",
                     "/console-assets": HERE.parent / "console" / "static"})
    collector = QuietCollector()

    def defer(task: Callable[[], None]) -> None:
        collector.busy()  # a command: no full collection for a moment
        sio.start_background_task(task)

    service = Service(client, shows, publish, base_url, settings.prefix, registry(settings.extra_games, programs=True),
                      defer=defer,
                      disconnect=lambda namespace, sid: sio.server.disconnect(sid, namespace=namespace),
                      audience=audience_client, pause=lambda: sio.sleep(0))
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
    crowd = Crowd(audience_client, settings.prefix, limits)
    desk = CrowdDesk(crowd, service, publish)
    sio.start_background_task(desk.run, sio.sleep)
    replays = Replays(service, publish)  # the console's 다시 보기 on the projector
    sio.start_background_task(replays.run, sio.sleep)

    def address() -> str:
        return request.remote_addr or "unknown"

    def guarded_guess(kind: str, limit: Limit, check: Callable[[], Any]) -> Any:
        """Check a guessable credential (a PIN, a short code): the try is counted before the
        check, and given back when it was right, so only failures use up the allowance and a
        spent address is refused even a right one until its window ends."""
        key = limiter.spend(kind, address(), limit)
        found = check()
        if found is not None:
            limiter.give_back(key)
        return found

    def card(token: Any) -> Any:
        """The link of a card's token. A token cannot be guessed, so a valid card is never
        refused for other people's failures; a wrong one is counted, and once an address has
        spent its allowance its wrong tries are refused as rate limited."""
        link = shows.resolve(token)
        if link is None:
            limiter.spend("join", address(), limits.failed_join)
        return link

    # -- staff authentication --------------------------------------------------------------

    def staff_from_session() -> Staff | None:
        return sessions.get(session.get("staff"))

    def staff_from_pin(pin: Any, show: Any) -> Staff | None:
        if not isinstance(pin, str):
            return None
        if shows.check_staff_pin(pin):
            return Staff(all_shows=True)
        if isinstance(show, str) and shows.exists(show) and shows.check_show_pin(show, pin):
            return Staff(shows=frozenset({show}))
        return None

    def csrf_token() -> str:
        if "csrf" not in session:
            session["csrf"] = secrets.token_urlsafe(24)
        return session["csrf"]

    def csrf_ok(given: Any) -> bool:
        return isinstance(given, str) and "csrf" in session and hmac.compare_digest(given, session["csrf"])

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

    def api_staff(payload: dict[str, Any]) -> Staff:
        """Scripts send X-Staff-Pin; the console sends its session cookie plus the CSRF token."""
        pin = request.headers.get("X-Staff-Pin")
        if pin is not None:
            staff = guarded_guess("login", limits.failed_login, lambda: staff_from_pin(pin, payload.get("show")))
            if staff is None:
                raise RuleError("auth/bad_pin", "PIN이 맞지 않습니다", "Wrong PIN")
            return staff
        staff = staff_from_session()
        if staff is None:
            raise RuleError("auth/staff_only", "스태프 로그인이 필요합니다", "Staff login required")
        if not csrf_ok(request.headers.get("X-CSRF-Token")):
            raise RuleError("auth/csrf", "보안 토큰이 맞지 않습니다. 페이지를 새로 고치세요",
                            "Security token mismatch; reload the page")
        return staff

    # -- security headers on every response ------------------------------------------------

    @app.after_request
    def headers(resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; style-src 'self'; "
            "script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        )
        # Pages and answers that hold a seat, a login or a show's state are never stored (the
        # assets under /phone-assets and /console-assets are: see `assets`).
        path = request.path
        if path in ("/p", "/join") or (path.startswith(("/p/", "/console", "/api"))
                                       and not path.startswith("/console-assets/")):
            resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.errorhandler(RequestEntityTooLarge)
    def body_too_large(_exc: RequestEntityTooLarge) -> Response:
        """A body over MAX_BODY, refused before it is read: the API's JSON error, a page's text."""
        err = too_large()
        if request.path.startswith("/api/"):
            return Response(app.json.dumps(_error(err)), status=413, mimetype="application/json")
        return Response(f"{err.ko}\n{err.en}\n", status=413, mimetype="text/plain")

    # -- pages ------------------------------------------------------------------------------

    @app.get("/")
    def index() -> Response:
        return redirect("/console")

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)

    @app.get("/healthz")
    def healthz() -> Response:
        client.ping()
        return jsonify(ok=True)

    @app.route("/console/login", methods=["GET", "POST"])
    def login() -> Any:
        error = None
        if request.method == "POST":
            show = request.form.get("show") or None
            if not csrf_ok(request.form.get("csrf")):
                error = "auth/csrf"
            else:
                try:
                    staff = guarded_guess("login", limits.failed_login,
                                          lambda: staff_from_pin(request.form.get("pin"), show))
                except RuleError as err:
                    staff, error = None, err.code
                if staff is None:
                    error = error or "auth/bad_pin"
                else:
                    sessions.end(session.get("staff"))
                    session.clear()
                    session["staff"] = sessions.open(staff)
                    wanted = show and shows.exists(show) and staff.may(show)
                    return redirect(f"/console/{show}" if wanted else "/console")
        status = 429 if error == "rate/limited" else 401 if error else 200
        return render_template("login.html", error=error, show=request.args.get("show", "")), status

    @app.post("/console/logout")
    def logout() -> Response:
        if csrf_ok(request.form.get("csrf")):
            sessions.end(session.get("staff"))
            session.clear()
        return redirect("/console/login")

    @app.get("/console")
    def console_home() -> Any:
        staff = staff_from_session()
        if staff is None:
            return redirect("/console/login")
        visible = [shows.info(s) for s in shows.ids() if staff.may(s)]
        return render_template("console_home.html", shows=visible, staff=staff)

    @app.get("/console/<show>")
    def console(show: str) -> Any:
        staff = staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            # Only a real show's id goes back into a URL (never raw input into a header).
            return redirect(f"/console/login?show={show}" if shows.exists(show) else "/console/login")
        return render_template("console.html", show=shows.info(show), projector=service.projector_path(show))

    @app.route("/p/<token>", methods=["GET", "POST"])
    def phone_link(token: str) -> Response:
        """Swap the token in the QR for an HttpOnly cookie, then show a clean URL.

        A phone that already holds another player's seat (a second card scanned, a card handed
        round) is asked first whose card this is, before anything of the new player shows; the
        POST of that question's answer carries the page's CSRF token."""
        try:
            link = card(token)
        except RuleError:
            return Response(render_template("phone_refused.html", error="rate/limited"), status=429)
        if link is None:
            return Response(render_template("phone_refused.html", error="auth/bad_link"), status=403)
        held = shows.resolve(request.cookies.get(SEAT_COOKIE))
        other = held is not None and (held.show, held.player) != (link.show, link.player)
        if request.method == "POST" and csrf_ok(request.form.get("csrf")):
            return seated(token)
        if not other:
            return seated(token)
        return Response(render_template(
            "phone_confirm.html", token=token, card=shows.roster(link.show)[link.player],
            holder=shows.roster(held.show)[held.player],
            error="auth/csrf" if request.method == "POST" else None), status=200)

    def seated(token: str) -> Response:
        resp = redirect("/p")
        resp.set_cookie(SEAT_COOKIE, token, httponly=True, samesite="Strict", max_age=7 * 24 * 3600,
                        secure=request.is_secure)
        return resp

    @app.get("/p")
    def phone() -> Any:
        if shows.resolve(request.cookies.get(SEAT_COOKIE)) is None:
            return redirect("/join")
        return render_template("phone.html")

    @app.route("/join", methods=["GET", "POST"])
    def join() -> Any:
        error = None
        if request.method == "POST":
            try:
                token = guarded_guess("join", limits.failed_join,
                                      lambda: shows.token_for_code(request.form.get("code", "")))
            except RuleError:
                return render_template("join.html", error="rate/limited"), 429
            if token is not None:
                return seated(token)
            error = "auth/bad_code"
        return render_template("join.html", error=error), 403 if error else 200

    @app.get("/display/<show>")
    def display(show: str) -> Any:
        if not service.show_exists(show):
            abort(404)
        # The console's projector link (stage key): the page connects in the stage lane; any
        # other key is ignored, and the page is an audience screen like any other.
        stage = request.args.get("stage")
        return render_template("display.html", show=show, overlay=request.args.get("overlay") == "1",
                               stage=stage if shows.is_stage_key(show, stage) else "")

    def qr_svg(show: str, path: str) -> Response:
        """The QR of one of the show's public addresses, for the projector (nothing secret in it)."""
        if not service.show_exists(show):
            abort(404)
        import qrcode  # only the projector's join screen needs it
        import qrcode.image.svg

        image = qrcode.make(f"{base_url()}{path}", image_factory=qrcode.image.svg.SvgPathImage, border=4)
        return Response(image.to_string(), mimetype="image/svg+xml")

    @app.get("/display/<show>/join.svg")
    def join_qr(show: str) -> Response:
        return qr_svg(show, "/join")  # the players' cards' address

    @app.get("/display/<show>/audience.svg")
    def audience_qr(show: str) -> Response:
        return qr_svg(show, f"/a/{show}")  # the hall's page

    @app.get("/a/<show>")
    def audience_page(show: str) -> Any:
        """The hall's phone: no login. A device id in a cookie (new on a first visit) is what
        counts a prediction once; the page shows the show's name only."""
        if not service.show_exists(show):
            abort(404)
        resp = Response(render_template("audience.html", show=show, name=shows.info(show)["name"]))
        if not is_device(request.cookies.get(DEVICE_COOKIE)):
            resp.set_cookie(DEVICE_COOKIE, new_device(), httponly=True, samesite="Lax", max_age=3 * 24 * 3600,
                            secure=request.is_secure)
        return resp

    @app.get("/static/<path:name>")
    def static_assets(name: str) -> Response:
        return assets.response("/static", name, request)

    @app.get("/display-assets/<path:name>")
    def display_assets(name: str) -> Response:
        return assets.response("/display-assets", name, request)

    @app.get("/phone-assets/<path:name>")
    def phone_assets(name: str) -> Response:
        return assets.response("/phone-assets", name, request)

    @app.get("/console-assets/<path:name>")
    def console_assets(name: str) -> Response:
        return assets.response("/console-assets", name, request)

    @app.get("/print/<show>/seat-cards.pdf")
    def seat_cards(show: str) -> Response:
        staff = staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            abort(403)
        from .printing import seat_cards_pdf  # reportlab loads only when someone prints

        player = request.args.get("player", type=int)
        if player is not None and not 0 <= player < len(shows.roster(show)):
            abort(404)
        pdf = seat_cards_pdf(service, show, player)
        return Response(pdf, mimetype="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{show}-seat-cards.pdf"'})

    @app.get("/print/<show>/card/<int:player>.svg")
    def card_qr(show: str, player: int) -> Response:
        """A player's card as a QR on the console (after a re-issue: scan it from the screen)."""
        staff = staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            abort(403)
        links = service.links(show)
        if not 0 <= player < len(links):
            abort(404)
        import qrcode
        import qrcode.image.svg

        image = qrcode.make(links[player]["url"], image_factory=qrcode.image.svg.SvgPathImage, border=4)
        return Response(image.to_string(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/print/<show>/<table>/<sheet>.pdf")
    def table_sheet(show: str, table: str, sheet: str) -> Response:
        staff = staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            abort(403)
        from .printing import table_sheet_pdf

        try:
            pdf = table_sheet_pdf(service, show, table, sheet)
        except RuleError:
            abort(404)
        return Response(pdf, mimetype="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{table}-{sheet}.pdf"'})

    # -- the JSON API -----------------------------------------------------------------------

    @app.post("/api/<command>")
    def api_command(command: str) -> tuple[Response, int]:
        def run() -> dict[str, Any]:
            payload = parse_json(request.get_data(cache=False))
            if not isinstance(payload, dict):
                raise RuleError("api/bad_payload", "요청 본문은 JSON 객체여야 합니다", "The request body must be a JSON object")
            return service.command(api_staff(payload), command, payload)

        return _answer(_guard(run))

    @app.get("/api/shows/<show>")
    def api_show(show: str) -> tuple[Response, int]:
        def run() -> dict[str, Any]:
            _reading(api_staff({"show": show}), show)
            return {"snapshot": service.dealer_snapshot(show)}

        return _answer(_guard(run))

    @app.get("/api/shows/<show>/tables/<table>/log")
    def api_log(show: str, table: str) -> tuple[Response, int]:
        def run() -> dict[str, Any]:
            _reading(api_staff({"show": show}), show)
            if table not in shows.tables(show):
                raise RuleError("show/no_table", f"이 쇼의 테이블이 아닙니다: {table!r}", f"Not a table of this show: {table!r}")
            t = service.table(table)
            return {"header": t.header, "entries": t.store.entries(table)}

        return _answer(_guard(run))

    def _reading(staff: Staff, show: str) -> None:
        shows.require(show)
        if not staff.may(show):
            raise RuleError("auth/staff_only", "이 쇼의 스태프 로그인이 필요합니다", "Staff login for this show is required")

    # -- Socket.IO --------------------------------------------------------------------------

    sockets: dict[str, tuple[str, Any]] = {}  # seat socket id -> (token, link), this process's only

    def admitted(handler: Callable[[Any], None]) -> Callable[[Any], None]:
        """A namespace's connect handler; when it has run (connected or refused), the
        connection's admission slot goes to the next in line (web.Admission)."""
        @functools.wraps(handler)
        def run(auth: Any = None) -> None:
            try:
                handler(auth)
            finally:
                admission.leave(request.environ)

        return run

    def refusal(err: RuleError) -> ConnectionRefusedError:
        """A namespace's refusal: the reason (code, Korean, English) as the error's data, which
        the page's Socket.IO client hands to its ``connect_error`` (static/live.js, onRefused);
        the English text as its message."""
        return ConnectionRefusedError(err.en, err.to_json())

    def connect_auth(auth: Any) -> dict[str, Any]:
        """A socket's auth object, well-formed (or the connection is refused with the reason)."""
        try:
            return clean(auth) if isinstance(auth, dict) else {}
        except RuleError as err:
            raise refusal(err) from None

    @sio.on("connect", namespace="/public")
    @admitted
    def public_connect(auth: Any = None) -> None:
        auth = connect_auth(auth)
        show = auth.get("show") or request.args.get("show")
        if not isinstance(show, str) or not service.show_exists(show):
            raise refusal(RuleError("show/no_show", "없는 쇼입니다", "No such show"))
        # A lane past the line (and behind nginx, to the players' process) is the room's projector's
        # with the console's link only, never a player's or the dealer's (web.Admission); read as
        # nginx reads it, so that whatever nginx sends to the players' process is checked here.
        claimed = lane(request.environ.get("QUERY_STRING", ""))
        if claimed is not None and not (claimed == "stage" and shows.is_stage_key(show, auth.get("stage"))):
            raise refusal(RuleError("auth/wrong_lane", "이 화면은 그 통로로 연결할 수 없습니다. 프로젝터는 콘솔의 프로젝터 링크로 여세요",
                                    "This screen cannot connect in that lane; open the projector from the console's "
                                    "Projector link"))
        join_room(public_room(show))
        replays.watch(show)  # a replay playing on another process moves this screen too
        welcome("/public", service.audience_snapshot(show))
        audience = desk.payload(show)
        if audience["questions"]:  # a screen that comes back mid-question shows its split at once
            sio.emit("crowd", audience, to=request.sid, namespace="/public", ignore_queue=True)

    def unparsed(event: str, refusal: RuleError, args: tuple[Any, ...]) -> dict[str, Any]:
        """The answer to an event no handler takes: a packet that could not be read (SocketPacket
        names it ``malformed``, with the reason) gets that reason, anything else `refusal`."""
        if event == "malformed":
            refusal = unreadable(args[0] if args else None)
        return _error(refusal)

    asked: dict[str, float] = {}  # projector socket id -> when it last asked for the whole snapshot

    @sio.on("snapshot", namespace="/public")
    def public_ask(*args: Any) -> dict[str, Any]:
        """A screen that got a brief update of a table it holds no whole view of (two fan-outs
        crossed on the way) asks for the whole snapshot: it comes as a `view`, in order with the
        rest. Once a second per screen; the snapshot is the cached one connecting screens get."""
        shows = [room[len(public_room("")):] for room in sio.server.rooms(request.sid, namespace="/public")
                 if room.startswith(public_room(""))]
        now = time.monotonic()
        if not shows or now - asked.get(request.sid, -1.0) < 1.0:
            return _error(RuleError("public/too_soon", "방금 전체 화면을 보냈습니다. 잠시 후 다시 요청하세요",
                                    "The whole snapshot was just sent; ask again in a moment"))
        asked[request.sid] = now
        sio.emit("view", service.audience_snapshot(shows[0]), to=request.sid, namespace="/public", ignore_queue=True)
        return {"ok": True}

    @sio.on("disconnect", namespace="/public")
    def public_disconnect(*args: Any) -> None:
        asked.pop(request.sid, None)

    @sio.on("*", namespace="/public")
    def public_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("auth/read_only", "공개 화면은 명령을 보낼 수 없습니다",
                                         "The public screen sends no commands"), args)

    # -- the hall's phones (/crowd): predictions, nicknames, their own score --------------------

    hall: dict[str, tuple[str, str]] = {}  # crowd socket id -> (show, device), this process's only

    @sio.on("connect", namespace="/crowd")
    @admitted
    def crowd_connect(auth: Any = None) -> None:
        show = connect_auth(auth).get("show")
        if not isinstance(show, str) or not service.show_exists(show):
            raise refusal(RuleError("show/no_show", "없는 쇼입니다", "No such show"))
        if lane(request.environ.get("QUERY_STRING", "")) is not None:  # the audience's line, like any screen
            raise refusal(RuleError("auth/wrong_lane", "이 화면은 그 통로로 연결할 수 없습니다",
                                    "This screen cannot connect in that lane"))
        device = request.cookies.get(DEVICE_COOKIE)
        if not is_device(device):
            raise refusal(RuleError("crowd/no_device", "관객 페이지를 먼저 여세요 (QR 또는 주소)",
                                    "Open the audience page first (its QR or address)"))
        hall[request.sid] = (show, device)
        join_room(crowd_room(show))
        welcome("/crowd", desk.payload(show), event="crowd")
        sio.emit("me", crowd.me(show, device), to=request.sid, namespace="/crowd", ignore_queue=True)

    def hall_phone() -> tuple[str, str]:
        known = hall.get(request.sid)
        if known is None:
            raise RuleError("crowd/no_device", "관객 페이지를 다시 여세요", "Open the audience page again")
        return known

    @sio.on("predict", namespace="/crowd")
    def crowd_predict(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            show, device = hall_phone()
            asked = clean(payload) if isinstance(payload, dict) else {}
            return {"prediction": crowd.predict(show, asked.get("question"), device, asked.get("option"), address())}

        return _guard(run)

    @sio.on("nickname", namespace="/crowd")
    def crowd_nickname(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            show, device = hall_phone()
            return {"name": crowd.set_nickname(show, device, (clean(payload) if isinstance(payload, dict) else {}).get("name"),
                                               address())}

        return _guard(run)

    @sio.on("me", namespace="/crowd")
    def crowd_me(*args: Any) -> dict[str, Any]:
        return _guard(lambda: {"me": crowd.me(*hall_phone())})

    @sio.on("disconnect", namespace="/crowd")
    def crowd_disconnect(*args: Any) -> None:
        hall.pop(request.sid, None)

    @sio.on("*", namespace="/crowd")
    def crowd_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("auth/not_allowed", f"관객 화면에서 보낼 수 없는 명령입니다: {event}",
                                         f"The audience page cannot send {event}", event=event), args)

    @sio.on("connect", namespace="/seat")
    @admitted
    def seat_connect(auth: Any = None) -> None:
        token = connect_auth(auth).get("token") or request.cookies.get(SEAT_COOKIE)
        try:
            link = card(token)
        except RuleError as err:
            raise refusal(err) from None
        if link is None:
            raise refusal(RuleError("auth/bad_link", "유효하지 않거나 재발급된 카드입니다. 진행 요원에게 새 카드를 받으세요.",
                                    "This card is not valid or was re-issued. Ask the staff for your new card."))
        sockets[request.sid] = (token, link)
        # In the room first: the device count that seat_socket sends reaches this phone too.
        join_room(player_room(link.show, link.player, link.version))
        welcome("/seat", service.seat_welcome(link, service.seat_socket(link, request.sid, True)))

    @sio.on("disconnect", namespace="/seat")
    def seat_disconnect(*args: Any) -> None:
        gone = sockets.pop(request.sid, None)
        if gone is not None:
            service.seat_socket(gone[1], request.sid, False)

    def seat_link() -> Any:
        """The socket's link, as it joined (checked against the player's current one by
        service.current_link, or by a move's append)."""
        known = sockets.get(request.sid)
        if known is None:
            raise link_revoked()
        return known[1]

    @sio.on("submit", namespace="/seat")
    def seat_submit(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            link = seat_link()
            spend = limiter.key("submit", f"{link.show}:{link.player}", limits.submit), limits.submit
            return service.seat_submit(link, clean(payload), service.link_guard(link, spend))

        return _guard(run)

    def wanted_table(payload: Any) -> str | None:
        """The table a phone's ``{"table": id}`` names (None: none)."""
        wanted = clean(payload).get("table") if isinstance(payload, dict) else None
        if wanted is not None and not isinstance(wanted, str):
            raise RuleError("api/bad_field", f"table 값은 테이블 이름이어야 합니다: {type(wanted).__name__}",
                            f"Field table must be a table's name, not {type(wanted).__name__}", field="table")
        return wanted

    def reading() -> Any:
        """The socket's link, checked current, with one more read counted against the phone's
        limit (a snapshot or a story costs the server a fold: one card must not fill its core)."""
        link = seat_link()
        return service.current_link(link, (limiter.key("read", f"{link.show}:{link.player}", limits.read), limits.read))

    @sio.on("sync", namespace="/seat")
    def seat_sync(payload: Any = None) -> dict[str, Any]:
        """A fresh snapshot; ``{"table": id}`` asks for that table of the player's (a switch)."""
        return _guard(lambda: {"snapshot": service.seat_snapshot(reading(), table_id=wanted_table(payload))})

    @sio.on("story", namespace="/seat")
    def seat_story(payload: Any = None) -> dict[str, Any]:
        """``{"table": id}``: the player's own story of that match, once the show has ended."""
        return _guard(lambda: {"story": service.seat_story(reading(), wanted_table(payload))})

    @sio.on("*", namespace="/seat")
    def seat_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("auth/not_allowed", f"휴대폰에서 보낼 수 없는 명령입니다: {event}",
                                         f"Phones cannot send {event}", event=event), args)

    # dealer socket id -> (staff, show, staff session id or None for a PIN, the PIN generation it
    # was opened under), this process only
    dealers: dict[str, tuple[Staff, str, str | None, int]] = {}

    @sio.on("connect", namespace="/dealer")
    @admitted
    def dealer_connect(auth: Any = None) -> None:
        auth = connect_auth(auth)
        show = auth.get("show") or request.args.get("show")
        logged_in = auth.get("pin") is None
        generation = sessions.generation()  # before the check: a PIN changed meanwhile is caught below
        try:
            # A console (its session cookie) must also show the page's CSRF token: another
            # site's page can make the browser send the cookie, never read the token.
            staff = (staff_from_session() if csrf_ok(auth.get("csrf")) else None) if logged_in else guarded_guess(
                "login", limits.failed_login, lambda: staff_from_pin(auth.get("pin"), show))
        except RuleError as err:
            raise refusal(err) from None
        if staff is None or not shows.exists(show) or not staff.may(show):
            raise refusal(RuleError("auth/staff_only", "스태프 로그인이 필요합니다", "Staff login required"))
        login = session.get("staff") if logged_in else None
        if not sessions.socket_opened(request.sid, generation, login):
            sessions.socket_closed(request.sid)
            raise refusal(staff_ended())
        dealers[request.sid] = (staff, show, login, generation)
        service.dealer_present(show, request.sid, True)
        join_room(dealer_room(show))
        welcome("/dealer", service.dealer_snapshot(show), event="show")

    @sio.on("disconnect", namespace="/dealer")
    def dealer_disconnect(*args: Any) -> None:
        gone = dealers.pop(request.sid, None)
        if gone is not None:
            service.dealer_present(gone[1], request.sid, False)
            sessions.socket_closed(request.sid)

    def staff_ended() -> RuleError:
        return RuleError("auth/staff_only", "스태프 로그인이 끝났습니다. 다시 로그인하세요",
                         "The staff login has ended; log in again")

    def dealer_staff() -> Staff:
        """The socket's staff rights, checked again for every command: a console whose login
        ended (logout, a new PIN), or that was opened with a PIN that has since changed, can do
        nothing more (its socket is cut too, unless that message was lost on the queue)."""
        staff, _show, staff_session, generation = dealers.get(request.sid, (Staff(), None, None, -1))
        if staff_session is not None and sessions.get(staff_session) is None:
            raise staff_ended()
        if staff_session is None and not sessions.current(generation):
            raise staff_ended()
        return staff

    @sio.on("command", namespace="/dealer")
    def dealer_command(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            given = clean(payload) if isinstance(payload, dict) else {}
            return service.command(dealer_staff(), given.get("command"), given.get("args"))

        return _guard(run)

    @sio.on("*", namespace="/dealer")
    def dealer_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("api/unknown_event", f"알 수 없는 이벤트입니다: {event}",
                                         f"Unknown event: {event}", event=event), args)

    return app, sio


def _answer(out: dict[str, Any]) -> tuple[Response, int]:
    """A JSON API response: 200 with the result, or the error's HTTP status."""
    return jsonify(out), 200 if out["ok"] else _status(out["error"]["code"])


def _status(code: str) -> int:
    if code == "rate/limited":
        return 429
    if code.startswith("auth/"):
        return 401 if code in ("auth/staff_only", "auth/bad_pin") else 403
    if code == "server/error":
        return 500
    if code.endswith(("no_show", "no_table")):
        return 404
    return 400 if code.startswith("api/") else 409
