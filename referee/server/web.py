"""The edge of the server: who the client is behind a proxy, cookies over HTTPS, and input that
is not even well-formed (a lone surrogate, JSON nested without end).

- Forwarded headers (``X-Forwarded-For``, ``-Proto``, ``-Host``) are believed only when the
  request comes from a configured proxy; from anyone else they are removed, so a client that
  reaches the process directly cannot pick its own address (and rate-limit bucket) or origin.
- Cookies carry ``Secure`` when the request came over HTTPS (directly or via a trusted proxy).
- ``clean`` refuses, with a clear error, any payload too deep or holding text that is not
  valid Unicode, before anything else sees it; a request body or a Socket.IO packet over
  ``MAX_BODY`` is refused unread, and a packet that cannot be read (``SocketPacket``) gets a
  clear error in its acknowledgement instead of an exception in the server's handler.
- Views go out encoded once (``Encoded``, ``SocketJSON``), a big room a slice at a time
  (``SlicedRooms``).
- A crowd of audience screens connecting at once (the venue's Wi-Fi came back) is let in a few
  at a time (``Admission``), so a phone's move is not queued behind a thousand handshakes.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import itertools
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

import socketio
import socketio.packet
from flask import request
from flask.sessions import SecureCookieSessionInterface

from referee.kernel import RuleError
from referee.store.base import encode

log = logging.getLogger(__name__)

MAX_DEPTH = 24  # far deeper than any move; far shallower than Python's recursion limit
# The largest request body (the JSON API, a form) and Socket.IO packet the server reads: a move is
# well under 2 kB and a table's options (a whole map) under 4 kB. Anything larger is refused with
# a clear error before it is read (HTTP 413, or in the packet's acknowledgement).
MAX_BODY = 64 * 1024
FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_FORWARDED")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def too_large() -> RuleError:
    return RuleError("api/too_large", f"요청이 너무 큽니다 (최대 {MAX_BODY // 1024} kB)",
                     f"The request is too large (at most {MAX_BODY // 1024} kB)", limit=MAX_BODY)


class TrustedProxies:
    """WSGI middleware: forwarded headers from `trusted` proxies only.

    Proxies are given as addresses, networks (``172.16.0.0/12``) or host names. A name is
    resolved when the server starts and again every RETRY seconds, in the request that finds it
    due: compose names nginx, which may start after the server (or come back with another
    address). Until a name resolves its forwarded headers are not believed, and the log says so;
    the server starts all the same."""

    RETRY = 10.0

    def __init__(self, app: Callable[..., Any], trusted: Iterable[str], resolve: Callable[..., Any] = socket.getaddrinfo,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.resolve, self.clock = resolve, clock
        self.fixed: list[Network] = []
        self.names: dict[str, tuple[Network, ...] | None] = {}  # name -> its addresses (None: never resolved)
        for entry in trusted:
            try:
                self.fixed.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                self.names[entry] = None
        self.trusted = tuple(self.fixed)
        self.due = 0.0  # when the names are resolved again
        self._resolve()

    def _resolve(self) -> None:
        if not self.names or self.clock() < self.due:
            return
        self.due = self.clock() + self.RETRY  # before asking: concurrent requests do not ask too
        for name, known in self.names.items():
            try:
                found = tuple(ipaddress.ip_network(info[4][0]) for info in self.resolve(name, None))
            except (OSError, ValueError) as exc:  # not found, or an address ipaddress cannot read
                if known is None:  # warnings: the level the server's log shows
                    log.warning("trusted proxy %r does not resolve (yet: %s); its X-Forwarded-* headers are not "
                                "believed until it does; trying again every %.0f s", name, exc, self.RETRY)
                continue  # a name that resolved keeps its last addresses while its DNS is away
            if known is None:
                log.warning("trusted proxy %r resolves to %s", name, ", ".join(str(n.network_address) for n in found))
            self.names[name] = found
        self.trusted = (*self.fixed, *(net for nets in self.names.values() if nets for net in nets))

    def _trusted(self, address: str | None) -> bool:
        try:
            ip = ipaddress.ip_address(address or "")
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        self._resolve()
        if self._trusted(environ.get("REMOTE_ADDR")):
            hops = [h.strip() for h in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
            # The nearest hop that is not one of our proxies is the client (the farther ones
            # are whatever the client chose to send).
            client = next((h for h in reversed(hops) if not self._trusted(h)), None)
            if client:
                environ["REMOTE_ADDR"] = client
            proto = environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[0].strip()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
            host = environ.get("HTTP_X_FORWARDED_HOST", "").split(",")[0].strip()
            if host:
                environ["HTTP_HOST"] = host
        else:
            for name in FORWARDED:
                environ.pop(name, None)
        return self.app(environ, start_response)


class Admission:
    """WSGI middleware: at most `slots` new audience connections in their handshake at once;
    the others wait their turn, first come first served, before anything is done for them.

    When a thousand screens reconnect together, each handshake (the HTTP upgrade, Engine.IO's
    and Socket.IO's packets, the first view) is a few steps of about a millisecond on the event
    loop, and every step that is ready runs before the loop looks at anything again: a phone's
    move waited up to 300-700 ms for one of its Redis trips (``bench/reconnect_storm.py``). Let in
    a few at a time, a move waits for a few handshakes' steps only (at most 78-297 ms in the
    same storms), and the crowd takes about as long to get back, or longer when its clients
    are slow to answer (docs/performance.md, Goal 7).

    A connection holds its slot from its first request (one without an Engine.IO ``sid``) until
    its namespace's connect handler has run (`leave`, with the request's environ), its
    websocket has closed, or for `hold` seconds at most (a client that never finishes its
    handshake). So handshakes begun and never finished on purpose can delay a reconnecting
    screen (by the line ahead of it over `slots` per `hold`), never a phone's move nor a screen
    already connected (docs/security.md). Phones, consoles and the room's projector do not wait:
    their pages say so in the handshake's query (``lane=seat``, ``lane=dealer``, ``lane=stage``),
    read by `lane` exactly as nginx reads it to pick their process. A client that claims a lane it
    is not only skips the line; what it may see is decided by its namespace's credentials (a
    projector's claim is refused without the key of its link)."""

    LEASE = "referee.admission"
    LANES = ("seat", "dealer", "stage")  # never wait: a player's move, the dealer's command, the room's projector

    def __init__(self, app: Callable[..., Any], slots: int, hold: float = 1.0, path: str = "/socket.io/",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.slots, self.hold, self.path, self.clock = slots, hold, path, clock
        self.lock = threading.Lock()
        self.leases: dict[threading.Event, float] = {}  # a slot's holder -> when it runs out
        self.line: deque[threading.Event] = deque()  # who waits, in their order

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        query = self.waiting(environ)
        if query is None:
            return self.app(environ, start_response)
        environ[self.LEASE] = self.enter()
        try:
            out = self.app(environ, start_response)
        except BaseException:
            self.leave(environ)
            raise
        # A websocket's request lasts as long as its socket: once it is back, its handshake is
        # over, finished or abandoned (a client that left while in line). A long-polling
        # handshake's first request is back at once; it keeps its slot for its connect.
        if query.get("transport") == ["websocket"]:
            self.leave(environ)
        return out

    def waiting(self, environ: dict[str, Any]) -> dict[str, list[str]] | None:
        """The query of a request that waits its turn (a new connection, not a phone's nor a
        console's), None for any other."""
        if self.slots <= 0 or not environ.get("PATH_INFO", "").startswith(self.path):
            return None  # no slots: no line
        query = environ.get("QUERY_STRING", "")
        parsed = parse_qs(query)
        return parsed if "sid" not in parsed and lane(query) is None else None

    def enter(self) -> threading.Event:
        """A lease on a slot (its waiter's event): at once when one is free and nobody waits,
        else in turn."""
        with self.lock:
            turn = threading.Event()
            self.line.append(turn)
            self._expire()
        # Each waiter looks for run-out leases `hold` after it came (they came at different
        # times, so they do not all wake at once); a slot left goes to the next in line.
        while not turn.wait(self.hold):
            with self.lock:
                self._expire()
        return turn

    def leave(self, environ: dict[str, Any]) -> None:
        """The connection's handshake is over: its slot goes to the next in line."""
        lease = environ.pop(self.LEASE, None)
        if lease is not None:
            with self.lock:
                if self.leases.pop(lease, None) is not None:
                    self._let_in()

    def in_use(self) -> int:
        """Slots held now."""
        with self.lock:
            return len(self.leases)

    def _expire(self) -> None:
        now = self.clock()
        for lease in [k for k, until in self.leases.items() if until <= now]:
            del self.leases[lease]
        self._let_in()

    def _let_in(self) -> None:
        while self.line and len(self.leases) < self.slots:
            turn = self.line.popleft()
            self.leases[turn] = self.clock() + self.hold
            turn.set()


def lane(query: str) -> str | None:
    """The lane a Socket.IO handshake claims (one of Admission.LANES), or None: its query read
    exactly as nginx reads ``$arg_lane`` to route it (deploy/nginx/referee.conf), so that no
    request is a phone to one and a screen to the other. That is: the first ``lane=`` at the
    start of the query or after a ``&``, its name without regard to (ASCII) case; its value as
    sent, not percent-decoded, up to the next ``&``, without regard to case. So ``LANE=Seat`` is
    the phones' lane on both sides, and ``lane=public&lane=seat``, ``lane=s%65at`` and
    ``l%61ne=seat`` are no lane on either (issue 27)."""
    raw = query.encode("latin-1", "replace")  # a WSGI string holds the request's bytes as latin-1
    for part in raw.split(b"&"):
        if part[:5].lower() == b"lane=":
            value = part[5:].lower().decode("latin-1")
            return value if value in Admission.LANES else None
    return None


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked Secure whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Any) -> bool:
        return request.is_secure

    def open_session(self, app: Any, request: Any) -> Any:
        """A socket's event runs with the session Flask-SocketIO copied from the cookie at the
        socket's first event (it keeps it in the socket's environ and puts it in place of
        this one): the cookie is not read and its signature not checked again for every move."""
        saved = request.environ.get("saved_session")
        return saved if saved is not None else super().open_session(app, request)


def malformed(ko: str, en: str, code: str = "api/bad_payload") -> RuleError:
    return RuleError(code, ko, en)


def clean(value: Any, depth: int = 0) -> Any:
    """`value` unchanged if it is well-formed; a clear error if it is nested too deep or holds
    a string that is not valid Unicode (it could never be stored or shown)."""
    if depth > MAX_DEPTH:
        raise malformed(f"요청이 너무 깊게 중첩되어 있습니다 (최대 {MAX_DEPTH}단계)",
                        f"The request is nested too deeply (at most {MAX_DEPTH} levels)", "api/too_deep")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = f"U+{ord(value[exc.start]):04X}"
            raise RuleError("api/bad_text", f"글자가 아닌 값이 들어 있습니다: {bad}",
                            f"The text holds an invalid character: {bad}", character=bad) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            clean(key, depth + 1)
            clean(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            clean(item, depth + 1)
    return value


def parse_json(raw: bytes) -> Any:
    """The JSON body of a request, cleaned; None when it is not JSON at all."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return clean(value)


class Encoded(str):
    """A payload already encoded as JSON: sent as it is, to every socket of a room and through
    the queue, instead of being scanned and encoded again for each."""


def encode_payload(payload: Any) -> Encoded:
    """The one encoding of a payload, the store's (compact, keys sorted, so the same view gives
    the same text on every process; Korean as UTF-8 rather than escapes)."""
    return Encoded(encode(payload))


class Unreadable(ValueError):
    """JSON from a client that cannot be read; `reason` is a key of UNREADABLE."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# Why a packet could not be read, as the sender is told (code, Korean, English).
UNREADABLE = {
    "too_deep": ("요청을 읽을 수 없습니다 (너무 깊게 중첩됨)", "The request cannot be read (nested too deeply)"),
    "long_number": ("요청을 읽을 수 없습니다 (숫자가 너무 깁니다)", "The request cannot be read (a number is too long)"),
    "not_json": ("요청을 읽을 수 없습니다 (JSON이 아닙니다)", "The request cannot be read (it is not JSON)"),
    "not_event": ("요청을 읽을 수 없습니다 (이벤트 이름과 값의 목록이 아닙니다)",
                  "The request cannot be read (it is not a list of an event's name and its values)"),
}


def unreadable(reason: Any) -> RuleError:
    """The clear error for a packet that could not be read (SocketPacket's reason)."""
    if reason == "too_large":
        return too_large()
    ko, en = UNREADABLE.get(reason, UNREADABLE["not_json"]) if isinstance(reason, str) else UNREADABLE["not_json"]
    return malformed(ko, en)


class SocketJSON:
    """The JSON codec of Socket.IO packets and of the queue's messages.

    Text that does not parse raises Unreadable (a ValueError) with the reason: Engine.IO then
    keeps the message as text, and SocketPacket turns the packet into the event ``malformed``.
    An Encoded payload goes out as it is: in a packet (``[event, payload]``) and in a queue
    message (``{..., "data": [payload]}``)."""

    @staticmethod
    def dumps(obj: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(obj, list) and obj and type(obj[-1]) is Encoded:
            head = json.dumps(obj[:-1], *args, **kwargs)[:-1]
            return f"{head}{',' if len(obj) > 1 else ''}{obj[-1]}]"
        data = obj.get("data") if isinstance(obj, dict) else None
        if isinstance(data, list) and len(data) == 1 and type(data[0]) is Encoded:
            head = json.dumps({k: v for k, v in obj.items() if k != "data"}, *args, **kwargs)[:-1]
            return f'{head}{"," if len(obj) > 1 else ""}"data":[{data[0]}]}}'
        return json.dumps(obj, *args, **kwargs)

    @staticmethod
    def loads(*args: Any, **kwargs: Any) -> Any:
        try:
            return json.loads(*args, **kwargs)
        except RecursionError:
            raise Unreadable("too_deep") from None
        except ValueError as exc:
            # Python reads no integer of more than 4,300 digits (a guard against slow parsing).
            raise Unreadable("long_number" if "digits" in str(exc) else "not_json") from None


class _Unread:
    """The JSON reader of a packet over MAX_BODY: it never parses it."""

    @staticmethod
    def loads(*args: Any, **kwargs: Any) -> Any:
        raise Unreadable("too_large")


class SocketPacket(socketio.packet.Packet):
    """Socket.IO's packet as the server reads it from a client, such that no packet raises in
    the server's handler (which would answer nothing and leave a trace in the log).

    An event whose data is over MAX_BODY (not parsed at all), not JSON, holding a number of more
    than 4,300 digits or nested without end, or not a list of a name and its values, becomes the
    event ``malformed`` with the reason, in its namespace and with its id: every namespace answers
    it with a clear error in the acknowledgement (app.unparsed). A connection request or an ack
    with such data arrives without data (the connection is then refused for want of
    credentials). A packet whose type or id cannot be read goes to the namespace "/", which no
    client joins, and is dropped."""

    def decode(self, encoded_packet: Any) -> int:
        if isinstance(encoded_packet, str) and len(encoded_packet) > MAX_BODY:
            self.json = _Unread  # this packet's only: its data is never parsed
        try:
            attachments = super().decode(encoded_packet)
        except Unreadable as exc:  # the JSON is the last thing read: type, namespace and id are known
            self._unread(exc.reason)
            return 0
        except ValueError:
            self.packet_type, self.namespace, self.id = socketio.packet.EVENT, "/", None
            self.data = ["malformed", "not_event"]
            return 0
        if self.packet_type in (socketio.packet.EVENT, socketio.packet.BINARY_EVENT) and not (
                isinstance(self.data, list) and self.data and isinstance(self.data[0], str)):
            self._unread("not_event")
            return 0
        return attachments or 0

    def _unread(self, reason: str) -> None:
        # A binary packet would wait for attachments that its count no longer says.
        if self.packet_type in (socketio.packet.EVENT, socketio.packet.BINARY_EVENT):
            self.packet_type, self.data = socketio.packet.EVENT, ["malformed", reason]
        else:
            self.packet_type = {socketio.packet.BINARY_ACK: socketio.packet.ACK}.get(self.packet_type,
                                                                                     self.packet_type)
            self.data = None


class SlicedRooms(socketio.Manager):
    """The manager of this process's sockets: a big room's packet is handed to its sockets a
    slice at a time, with the event loop let through between slices, so the first sockets'
    writers send while the rest are still being queued. Without it a room of a thousand
    screens had every packet queued (some 15 ms) before the first socket was written; the
    screens, and whatever else waits on the loop, got nothing meanwhile. Each slice is one emit
    to its sockets' own rooms (a socket's sid is a room), so the packet is encoded once per
    slice, not per socket.

    The first slice is small (FIRST), so the first sockets are written as soon as the view is
    ready instead of after a whole slice was queued: about a millisecond sooner at 1,000 screens,
    where the clients then work through the room from that moment (docs/performance.md, "Goal 1,
    eighth pass").

    After the first slice the loop is let through once a slice finds the fan-out has run BUDGET
    seconds since the last time: a yield after every slice made a room of 3,300 hall phones wait
    for 53 turns of a loop busy with the predictions the question itself caused (the last phone
    had the question 10 s after it opened, docs/performance.md, Goal 8); now a turn comes every
    few hundred sockets, and a phone's move waits at most about BUDGET behind a fan-out.

    Between slices other tasks run, as they already do between a fan-out's Redis trips: a view
    of another fan-out may reach a socket first, and clients keep the newest version (DESIGN.md,
    "Every payload carries a version").

    It also knows each socket's rooms: python-socketio's manager finds the rooms of a socket
    that leaves by looking through every room of the namespace, and every socket has a room of
    its own, so each disconnect cost as much as the hall was big (a tenth of an audience
    process's CPU in a burst with 5% of 3,300 phones reconnecting; docs/performance.md, Goal 8).
    """

    SLICE = 64
    FIRST = 8
    BUDGET = 0.005  # seconds of one fan-out between two turns of the loop

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memberships: dict[tuple[str, str], set[Any]] = {}  # (namespace, sid) -> its rooms

    def basic_enter_room(self, sid: str, namespace: str, room: Any, eio_sid: Any = None) -> None:
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)
        self.memberships.setdefault((namespace, sid), set()).add(room)

    def basic_leave_room(self, sid: str, namespace: str, room: Any) -> None:
        super().basic_leave_room(sid, namespace, room)
        mine = self.memberships.get((namespace, sid))
        if mine is not None:
            mine.discard(room)
            if not mine:
                del self.memberships[(namespace, sid)]

    def get_rooms(self, sid: str, namespace: str) -> list[Any]:
        return [room for room in self.memberships.get((namespace, sid), ()) if room is not None]

    def basic_disconnect(self, sid: str, namespace: str, **kwargs: Any) -> None:
        """python-socketio's, with the socket's rooms from `memberships` instead of a search."""
        for room in list(self.memberships.get((namespace, sid), ())):
            self.basic_leave_room(sid, namespace, room)
        self.callbacks.pop(sid, None)
        for pending in (self.pending_connect, self.pending_disconnect):
            waiting = pending.get(namespace)
            if waiting is not None and sid in waiting:
                waiting.remove(sid)
                if not waiting:
                    del pending[namespace]

    def emit(self, event: str, data: Any, namespace: str, room: Any = None, skip_sid: Any = None,
             callback: Any = None, to: Any = None, **kwargs: Any) -> None:
        room = to or room
        if callback is None and isinstance(room, str):
            sids = [sid for sid, _ in self.get_participants(namespace, room)]
            if len(sids) > self.SLICE:
                bounds = [0, self.FIRST, *range(self.FIRST + self.SLICE, len(sids), self.SLICE), len(sids)]
                turn = time.monotonic()
                for i, (start, end) in enumerate(itertools.pairwise(bounds)):
                    if i == 1 or (i and time.monotonic() - turn >= self.BUDGET):
                        self.server.sleep(0)
                        turn = time.monotonic()
                    super().emit(event, data, namespace, room=sids[start:end], skip_sid=skip_sid, **kwargs)
                return
        super().emit(event, data, namespace, room=room, skip_sid=skip_sid, callback=callback,
                     **kwargs)


class SlicedRedisManager(socketio.RedisManager, SlicedRooms):
    """The Redis queue between processes; what reaches this process's sockets goes through
    SlicedRooms (after PubSubManager, before Manager, in the method order)."""

    def _redis_connect(self) -> None:
        """The client is made once. python-socketio makes a new one, with its own pool and
        sentinels, at every failed publish and leaves the old one's connections open: through
        a takeover's seconds of failing publishes a process ran out of open files (a pulled
        cable, bench/takeover.py --cut). redis-py's client reconnects by itself (through
        Sentinel to the primary named now); the subscriber takes a fresh pubsub of it (below)."""
        if self.redis is None:
            super()._redis_connect()
        self.connected = True

    RESUBSCRIBE = (0.2, 1.0)  # s: the first wait after the subscriber lost Redis, and the longest

    def _redis_listen_with_retries(self) -> Iterable[dict[str, Any]]:
        """python-socketio's subscriber loop with shorter waits: its own, 1 s doubling up to a
        minute, left a process deaf to the queue (its own broadcasts included, which come back
        through Redis) up to 10 s after a takeover's new primary was there (tests/test_backup.py);
        what was sent meanwhile is lost to its screens."""
        wait, subscribed = self.RESUBSCRIBE[0], False
        while True:
            try:
                if not subscribed:  # on a new connection: the old one's state is not to be trusted
                    self._redis_connect()
                    gone, self.pubsub = self.pubsub, self.redis.pubsub(ignore_subscribe_messages=True)
                    with contextlib.suppress(Exception):
                        gone.close()
                    self.pubsub.subscribe(self.channel)
                    subscribed, wait = True, self.RESUBSCRIBE[0]
                yield from self.pubsub.listen()
            except Exception as exc:
                log.warning("the queue's subscriber lost Redis (%r); again in %.1f s", exc, wait)
                subscribed = False
                time.sleep(wait)  # the listener's own task: green where the server is (patched, as python-socketio requires)
                wait = min(wait * 2, self.RESUBSCRIBE[1])


def every(seconds: float, step: Callable[[], None], sleep: Callable[[float], Any], name: str) -> None:
    """A background loop of a server process: `step` every `seconds`, for ever. A failing step
    (Redis away for a moment, the server stopping) is logged and tried again a moment later."""
    while True:
        try:
            step()
        except Exception as exc:
            log.warning("%s paused: %r", name, exc)
            sleep(2.0)
        sleep(seconds)


def payload_field(payload: dict[str, Any], name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    """A field of a command's JSON payload, of the `kind` it must have (a bool is no int), or a
    clear error naming it; None for a missing `optional` one."""
    value = payload.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RuleError(
            "api/bad_field",
            f"{name} 값이 잘못되었습니다: {value!r}",
            f"Bad or missing field {name}: {value!r}",
            field=name, value=value,
        )
    return value


def room_digest(encoded: str) -> str:
    """What a room was sent, as a digest of its encoding (encode_payload). Version numbers are
    part of it: each audience's version counts only what that audience may see (Seen), so an
    action hidden from it changes neither its view nor its number."""
    return hashlib.sha256(encoded.encode()).hexdigest()
