"""What the sides share: the parts of one app (``Wiring``), who is asking (an address, a card, a
staff login), and how a command's failure, a refused connection and an unread event are answered.
"""

from __future__ import annotations

import functools
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask, Response, jsonify, request, session
from flask_socketio import ConnectionRefusedError, SocketIO
from werkzeug.exceptions import HTTPException

from referee.kernel import RuleError
from referee.store.base import StoreError

from ..assets import Assets
from ..crowd import Crowd, CrowdDesk
from ..limits import Limit, Limits, RateLimiter
from ..replaying import Replays
from ..service import Service, Staff
from ..shows import PlayerLink, Shows
from ..staff import StaffSessions
from ..web import Admission, Encoded, clean, unreadable

log = logging.getLogger(__name__)


# A connection refused for a moment only (Redis away: a takeover); the page tries again by itself.
# Before that its connect handler tries again every AGAIN_EVERY s for AGAIN_WAIT s: a takeover's
# last seconds (the sentinels naming the new primary) pass while the page waits, not in its retry.
AGAIN_WAIT = 3.0
AGAIN_EVERY = 0.2
AGAIN = RuleError("server/again", "서버가 잠시 응답하지 않습니다. 곧 다시 연결합니다",
                  "The server is away for a moment; connecting again shortly")


SERVER_ERROR = RuleError("server/error", "서버 오류입니다. 다시 시도하세요", "Server error; please try again")


def error(err: RuleError | StoreError) -> dict[str, Any]:
    return {"ok": False, "error": err.to_json()}


def guard(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a command; every failure becomes a clear error for the sender and changes nothing."""
    try:
        return {"ok": True, **call()}
    except (RuleError, StoreError) as err:
        return error(err)
    except HTTPException:  # a body over MAX_BODY: Flask answers it (the 413 handler)
        raise
    except Exception:  # an unexpected failure must not kill the socket or leak a trace
        log.exception("command failed")
        return error(SERVER_ERROR)


def answer(out: dict[str, Any]) -> tuple[Response, int]:
    """A JSON response of the API (or the hall's predictions): 200 with the result, or the
    error's HTTP status."""
    return jsonify(out), 200 if out["ok"] else status_of(out["error"]["code"])


def status_of(code: str) -> int:
    if code == "rate/limited":
        return 429
    if code.startswith("auth/"):
        return 401 if code in ("auth/staff_only", "auth/bad_pin") else 403
    if code == "server/error":
        return 500
    if code.endswith(("no_show", "no_table")):
        return 404
    return 400 if code.startswith("api/") else 409


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


def unparsed(event: str, refused: RuleError, args: tuple[Any, ...]) -> dict[str, Any]:
    """The answer to an event no handler takes: a packet that could not be read (SocketPacket
    names it ``malformed``, with the reason) gets that reason, anything else `refused`."""
    if event == "malformed":
        refused = unreadable(args[0] if args else None)
    return error(refused)


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def csrf_ok(given: Any) -> bool:
    return isinstance(given, str) and "csrf" in session and hmac.compare_digest(given, session["csrf"])


@dataclass(frozen=True)
class Wiring:
    """One app's parts, as ``create_app`` built them; every app has its own (tests make many)."""

    app: Flask
    sio: SocketIO
    client: redis.Redis  # the commands' pool (the phones', the dealer's)
    shows: Shows
    sessions: StaffSessions
    service: Service
    limiter: RateLimiter
    limits: Limits
    crowd: Crowd
    desk: CrowdDesk
    replays: Replays
    admission: Admission
    assets: Assets
    base_url: Callable[[], str]  # the base of the links the show hands out (Settings.public_url)

    def address(self) -> str:
        return request.remote_addr or "unknown"

    def guarded_guess(self, kind: str, limit: Limit, check: Callable[[], Any]) -> Any:
        """Check a guessable credential (a PIN, a short code): the try is counted before the
        check, and given back when it was right, so only failures use up the allowance and a
        spent address is refused even a right one until its window ends."""
        key = self.limiter.spend(kind, self.address(), limit)
        found = check()
        if found is not None:
            self.limiter.give_back(key)
        return found

    def card(self, token: Any) -> PlayerLink | None:
        """The link of a card's token. A token cannot be guessed, so a valid card is never
        refused for other people's failures; a wrong one is counted, and once an address has
        spent its allowance its wrong tries are refused as rate limited."""
        link = self.shows.resolve(token)
        if link is None:
            self.limiter.spend("join", self.address(), self.limits.failed_join)
        return link

    def staff_from_session(self) -> Staff | None:
        return self.sessions.get(session.get("staff"))

    def staff_from_pin(self, pin: Any, show: Any) -> Staff | None:
        if not isinstance(pin, str):
            return None
        if self.shows.check_staff_pin(pin):
            return Staff(all_shows=True)
        if isinstance(show, str) and self.shows.exists(show) and self.shows.check_show_pin(show, pin):
            return Staff(shows=frozenset({show}))
        return None

    def welcome(self, namespace: str, payload: dict[str, Any] | Encoded, event: str = "view") -> None:
        """The server's clock, then the first view, to the socket connecting now: it is on this
        process, so neither goes through the queue (a reconnecting room would flood it)."""
        self.sio.emit("time", {"now": time.time()}, to=request.sid, namespace=namespace, ignore_queue=True)
        self.sio.emit(event, payload, to=request.sid, namespace=namespace, ignore_queue=True)

    def admitted(self, handler: Callable[[Any], None]) -> Callable[[Any], None]:
        """A namespace's connect handler; when it has run (connected or refused), the
        connection's admission slot goes to the next in line (web.Admission). Redis away for a
        moment (a standby taking over): the handler runs again until AGAIN_WAIT has passed, then
        refuses the connection as one to try again (the page connects again by itself,
        static/live.js), where an unanswered one would hang."""
        @functools.wraps(handler)
        def run(auth: Any = None) -> None:
            deadline = time.monotonic() + AGAIN_WAIT
            try:
                while True:
                    try:
                        return handler(auth)
                    except (redis.RedisError, StoreError) as err:
                        if time.monotonic() >= deadline:
                            log.warning("a connection waits for Redis: %r", err)
                            raise refusal(AGAIN) from None
                    self.sio.sleep(AGAIN_EVERY)
            finally:
                self.admission.leave(request.environ)

        return run


def answer_probes(sio: SocketIO) -> None:
    """The connection check of the phones', the console's and the room's projector's pages
    (static/live.js, PROBED): an answer at once, so a socket whose machine is gone (a pulled
    cable) is noticed in seconds, not at Socket.IO's heartbeat."""
    for namespace in ("/seat", "/dealer", "/public"):
        sio.on_event("probe", lambda *_: {"ok": True}, namespace=namespace)
