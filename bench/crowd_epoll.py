#!/usr/bin/env python3
"""A worker of bench/crowd_burst.py's audience devices (``--epoll``) that costs the machine little
per device: the same JSON-line commands and answers as the Python and Node workers
(crowd_burst.py's ``worker_main``, bench/crowd_devices.js), spoken over non-blocking sockets in
one thread with one ``select.epoll``, no asyncio and no client library.

Why: at 10,000 devices the load generators of this project (python-socketio, aiohttp, Node's
``ws`` and ``http``) took 7-11 s of CPU for one burst, more than the servers they measure, on the
same two cores (docs/performance.md, Goal 8). Here a device is a few objects and a prediction a
dozen system calls.

Each device does what the audience page does: it opens ``/a/<show>`` from its own loopback
address (the ``ref_aud`` device cookie), connects ``/crowd`` over one websocket speaking
Engine.IO 4 and Socket.IO 5 (offering compression, as browsers do, and inflating if the server
takes it; with ``--push``, nginx's channel ``/a/<show>/live`` as an EventSource instead, as the
page behind deploy's nginx), answers the server's pings, notes when its phone first shows each open question,
and sends its prediction as the page does: a form post to ``/a/<show>/predict`` with its cookie
on a connection of its own (``Connection: close``); with ``--h2-port``, its EventSource and its
posts as streams of one HTTP/2 connection. With an ``https://`` ``--url`` every connection
speaks TLS through memory buffers in the same loop, each device offering its newest session
again as a browser does (HTTP/2 by ALPN). Times are ``time.monotonic()``, the orchestrator's
clock.

A flow (a device joining, a device's burst) is a generator that yields ``Future``s; ``Task``
steps it when one is done. Standard library only (``--made-ids`` signs its ids with the
referee's own ``devices.py``, standard library only too).
"""

from __future__ import annotations

import argparse
import base64
import errno
import heapq
import json
import os
import random
import resource
import select
import socket
import ssl
import sys
import time
import zlib
from collections import deque
from collections.abc import Callable, Generator
from typing import Any
from urllib.parse import urlencode, urlsplit

CONNECT_TIMEOUT = 60.0  # one device's page and socket, waiting in the audience processes' line
QUESTION_TIMEOUT = 30.0  # a device waiting for its phone to show the question
ANSWER_TIMEOUT = 30.0  # one prediction's ack
COOKIE = "ref_aud"  # referee.server.crowd.DEVICE_COOKIE (not imported: the workers stay light)
FIRST, RESEND, RECONNECT = "first", "resend", "reconnect"
SYNC_TAIL = b"\x00\x00\xff\xff"
IN, OUT, GONE = select.EPOLLIN, select.EPOLLOUT, select.EPOLLERR | select.EPOLLHUP
# An https:// server (crowd_burst.py --tls): every connection speaks TLS, and a device offers its
# newest session again on its next connection, as a browser does for a host it has seen. Two
# contexts: HTTP/1.1 and HTTP/2 (ALPN; a session belongs to the context it came from).
TLS: ssl.SSLContext | None = None
TLS_H2: ssl.SSLContext | None = None
SESSIONS: dict[tuple[str, bool], ssl.SSLSession] = {}  # (a device's address, HTTP/2) -> its newest session
HANDSHAKES = {"full": 0, "resumed": 0}  # since the last burst's answer


def address_of(index: int) -> str:
    """Device `index`'s own loopback address: 127.10.0.1, ... (250 per third octet)."""
    return f"127.10.{index // 250}.{index % 250 + 1}"


def draws(cmd: dict[str, Any], first: int, count: int) -> list[tuple[float, int, str | None]]:
    """Each of a worker's devices' moment, option and extra (a resend, a reconnect or none) for a
    burst, drawn from the burst's seed: every kind of worker draws the same."""
    rnd = random.Random(f"{cmd['seed']}-{first}")
    out = []
    for _ in range(count):
        at = cmd["start"] + rnd.uniform(0, cmd["window"])
        option = rnd.randrange(cmd["options"])
        roll = rnd.random()
        extra = RESEND if roll < cmd["resend"] else RECONNECT if roll < cmd["resend"] + cmd["reconnect"] else None
        out.append((at, option, extra))
    return out


def ack_record(index: int, kind: str, option: int, t0: float, t1: float, ack: Any) -> list[Any]:
    """A prediction's record: [device index, kind, option sent, t0, t_ack, status, code, option
    stored, again] (times monotonic; status ok or refused; a lost ack is recorded as "timeout")."""
    if isinstance(ack, dict) and ack.get("ok"):
        p = ack["prediction"]
        return [index, kind, option, t0, t1, "ok", "", p["option"], bool(p["again"])]
    code = ack.get("error", {}).get("code", "?") if isinstance(ack, dict) else repr(ack)[:40]
    return [index, kind, option, t0, t1, "refused", code, None, None]


def reply(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class Timeout(Exception):
    pass


# -- the loop ---------------------------------------------------------------------------------------


class Future:
    __slots__ = ("done", "value", "error", "callbacks")

    def __init__(self) -> None:
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None
        self.callbacks: list[Callable[[Future], None]] = []

    def set(self, value: Any = None, error: BaseException | None = None) -> None:
        if self.done:
            return
        self.done, self.value, self.error = True, value, error
        callbacks, self.callbacks = self.callbacks, []
        for cb in callbacks:
            LOOP.soon(cb, self)

    def then(self, cb: Callable[[Future], None]) -> None:
        if self.done:
            LOOP.soon(cb, self)
        else:
            self.callbacks.append(cb)


class Task:
    """Runs a generator that yields Futures; its own future holds what it returns."""

    def __init__(self, gen: Generator[Future, Any, Any]) -> None:
        self.gen = gen
        self.future = Future()
        LOOP.soon(self._step, None)

    def _step(self, fut: Future | None) -> None:
        try:
            if fut is not None and fut.error is not None:
                nxt = self.gen.throw(fut.error)
            else:
                nxt = self.gen.send(None if fut is None else fut.value)
        except StopIteration as stop:
            self.future.set(stop.value)
            return
        except Exception as err:  # noqa: BLE001 - handed to whoever waits for the task
            self.future.set(error=err)
            return
        nxt.then(self._step)


class Loop:
    def __init__(self) -> None:
        self.ep = select.epoll()
        self.handlers: dict[int, Callable[[int], None]] = {}
        self.timers: list[tuple[float, int, list[Any]]] = []
        self.ready: deque[tuple[Callable[..., None], tuple[Any, ...]]] = deque()
        self.seq = 0

    def soon(self, fn: Callable[..., None], *args: Any) -> None:
        self.ready.append((fn, args))

    def at(self, when: float, fn: Callable[[], None]) -> list[Any]:
        """Call `fn` at monotonic time `when`; returns a handle whose [0] = None cancels it."""
        self.seq += 1
        handle = [fn]
        heapq.heappush(self.timers, (when, self.seq, handle))
        return handle

    def sleep_until(self, when: float) -> Future:
        fut = Future()
        self.at(when, fut.set)
        return fut

    def within(self, fut: Future, seconds: float) -> Future:
        """`fut`, or a Timeout after `seconds`."""
        out = Future()
        handle = self.at(time.monotonic() + seconds, lambda: out.set(error=Timeout()))

        def done(f: Future) -> None:
            handle[0] = None
            out.set(f.value, f.error)

        fut.then(done)
        return out

    def watch(self, fd: int, events: int, handler: Callable[[int], None]) -> None:
        if fd in self.handlers:
            self.ep.modify(fd, events)
        else:
            self.ep.register(fd, events)
        self.handlers[fd] = handler

    def forget(self, fd: int) -> None:
        if self.handlers.pop(fd, None) is not None:
            self.ep.unregister(fd)

    def run_until(self, fut: Future) -> Any:
        while not fut.done:
            while self.ready:
                fn, args = self.ready.popleft()
                fn(*args)
                if fut.done:
                    break
            if fut.done:
                break
            now = time.monotonic()
            while self.timers and self.timers[0][0] <= now:
                handle = heapq.heappop(self.timers)[2]
                if handle[0] is not None:
                    handle[0]()
            if self.ready:
                continue
            wait = min(self.timers[0][0] - now, 1.0) if self.timers else 1.0
            for fd, events in self.ep.poll(max(wait, 0.0)):
                handler = self.handlers.get(fd)
                if handler is not None:
                    handler(events)
        if fut.error is not None:
            raise fut.error
        return fut.value


LOOP = Loop()


# -- connections ------------------------------------------------------------------------------------


class Conn:
    """A non-blocking TCP connection from `local` to `server`: what it is given to send goes out
    as the socket takes it; what arrives goes to `on_data`, the end to `on_close`."""

    def __init__(self, server: tuple[str, int], local: str, on_data: Callable[[bytes], None],
                 on_close: Callable[[BaseException | None], None], h2: bool = False) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.fd = self.sock.fileno()
        self.on_data, self.on_close = on_data, on_close
        self.out = b""
        self.connected = False
        self.closed = False
        self.mask = OUT | GONE
        self.session_key = (local, h2)
        self.tls: ssl.SSLObject | None = None
        if TLS is not None:  # the TLS records in and out of memory buffers; the socket stays ours
            self.tls_in, self.tls_out = ssl.MemoryBIO(), ssl.MemoryBIO()
            context = TLS_H2 if h2 else TLS
            self.tls = context.wrap_bio(self.tls_in, self.tls_out, session=SESSIONS.get(self.session_key))
            self.secure = False
            self.pending = b""  # what was given before the handshake ended
        try:
            self.sock.bind((local, 0))
            err = self.sock.connect_ex(server)
            if err not in (0, errno.EINPROGRESS):
                raise OSError(err, os.strerror(err))
        except OSError:
            self.sock.close()
            raise
        LOOP.watch(self.fd, OUT | GONE, self._event)

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        if self.tls is not None:
            if not self.secure:
                self.pending += data
                return
            self.tls.write(data)
            data = self.tls_out.read()
        self.out += data
        if self.connected:
            self._flush()

    def _handshake(self) -> None:
        """The TLS handshake's next step; once done, what was given before it goes out."""
        try:
            self.tls.do_handshake()
        except ssl.SSLWantReadError:
            pass
        else:
            self.secure = True
            HANDSHAKES["resumed" if self.tls.session_reused else "full"] += 1
            if self.session_key[1] and self.tls.selected_alpn_protocol() != "h2":
                raise ssl.SSLError("the server does not speak HTTP/2")
            if self.pending:
                self.tls.write(self.pending)
                self.pending = b""
        self.out += self.tls_out.read()

    def _received(self, data: bytes) -> None:
        if self.tls is None:
            self.on_data(data)
            return
        self.tls_in.write(data)
        plain, end = [], False
        try:
            if not self.secure:
                self._handshake()
            while self.secure and not end:
                chunk = self.tls.read(65536)
                plain.append(chunk)
                end = not chunk  # the server's close_notify: what came before it is the answer
        except ssl.SSLWantReadError:
            pass
        except ssl.SSLZeroReturnError:
            end = True
        except ssl.SSLError as err:
            self.close(err)
            return
        if self.secure:
            SESSIONS[self.session_key] = self.tls.session  # a TLS 1.3 ticket comes after the handshake
        self.out += self.tls_out.read()
        self._flush()
        if plain := b"".join(plain):
            self.on_data(plain)
        if end:
            self.close(None)

    def _flush(self) -> None:
        try:
            sent = self.sock.send(self.out) if self.out else 0
        except BlockingIOError:
            sent = 0
        except OSError as err:
            self.close(err)
            return
        self.out = self.out[sent:]
        mask = IN | GONE | (OUT if self.out else 0)
        if mask != self.mask:
            self.mask = mask
            LOOP.watch(self.fd, mask, self._event)

    def _event(self, events: int) -> None:
        if not self.connected:
            err = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                self.close(OSError(err, os.strerror(err)))
                return
            self.connected = True
            if self.tls is not None:
                self._handshake()
            self._flush()
            return
        if events & OUT and self.out:
            self._flush()
        if events & (IN | GONE):
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                return
            except OSError as err:
                self.close(err)
                return
            if data:
                self._received(data)
            else:
                self.close(None)

    def close(self, error: BaseException | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        LOOP.forget(self.fd)
        self.sock.close()
        self.on_close(error)


def parse_head(head: bytes) -> tuple[int, dict[str, list[str]]]:
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 "):
        raise ConnectionError(f"not an HTTP answer: {lines[0][:40]!r}")
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return int(lines[0][9:12]), headers


def dechunk(body: bytes) -> bytes:
    out, pos = [], 0
    while True:
        end = body.index(b"\r\n", pos)
        size = int(body[pos:end].split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(body[end + 2:end + 2 + size])
        pos = end + 2 + size + 2


# What a browser offers (its `br` too, which Debian's nginx does not speak); an answer in either is read.
ACCEPT_ENCODING = "Accept-Encoding: gzip, deflate\r\n"


def inflater_for(headers: dict[str, list[str]]) -> Any:
    """A decompressor for the answer's Content-Encoding, or None when it is not compressed."""
    coding = ",".join(headers.get("content-encoding", [])).strip().lower()
    if not coding:
        return None
    if coding not in ("gzip", "deflate"):
        raise ConnectionError(f"an answer in {coding!r}, which was not offered")
    return zlib.decompressobj(16 + zlib.MAX_WBITS if coding == "gzip" else zlib.MAX_WBITS)


def http_once(server: tuple[str, int], local: str, request: bytes, timeout: float) -> Future:
    """One request on a connection of its own (`Connection: close`): (status, headers, body)."""
    fut, chunks = Future(), []

    def closed(error: BaseException | None) -> None:
        if error is not None:
            fut.set(error=error)
            return
        data = b"".join(chunks)
        head, sep, body = data.partition(b"\r\n\r\n")
        try:
            if not sep:
                raise ConnectionError("the connection closed before the answer")
            status, headers = parse_head(head)
            if "chunked" in ",".join(headers.get("transfer-encoding", [])):
                body = dechunk(body)
            if (inflater := inflater_for(headers)) is not None:
                body = inflater.decompress(body) + inflater.flush()
        except (ConnectionError, ValueError, zlib.error) as err:
            fut.set(error=err)
            return
        fut.set((status, headers, body))

    try:
        conn = Conn(server, local, chunks.append, closed)
    except OSError as err:
        fut.set(error=err)
        return fut
    conn.send(request)
    out = LOOP.within(fut, timeout)
    out.then(lambda f: conn.close(f.error) if f.error is not None else None)
    return out


def frame(data: bytes, opcode: int = 0x1) -> bytes:
    """A client's frame: masked (RFC 6455, section 5.3), never compressed."""
    n = len(data)
    key = random.getrandbits(32).to_bytes(4, "big")
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    mask = (key * (n // 4 + 1))[:n]
    return head + key + (int.from_bytes(data, "big") ^ int.from_bytes(mask, "big")).to_bytes(n, "big")


class LongAnswer:
    """A request whose answer stays open (a websocket, an EventSource): `opened` is done at the
    answer's head with the `wanted` status; each message's text to `on_text`, `on_end` when the
    connection ends. A subclass reads the head's headers (`_opened`) and what follows (`_more`)."""

    wanted = 200

    def __init__(self, server: tuple[str, int], local: str, request: bytes,
                 on_text: Callable[[str], None], on_end: Callable[[], None]) -> None:
        self.on_text, self.on_end = on_text, on_end
        self.opened = Future()
        self.buf = bytearray()
        self.head = False
        self.conn = Conn(server, local, self._data, self._closed)
        self.conn.send(request)

    def close(self) -> None:
        self.conn.close(None)

    def _closed(self, error: BaseException | None) -> None:
        self.opened.set(error=error or ConnectionError("closed before the answer"))
        self.on_end()

    def _data(self, data: bytes) -> None:
        self.buf += data
        if not self.head:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            try:
                status, headers = parse_head(bytes(self.buf[:end]))
                if status != self.wanted:
                    raise ConnectionError(f"HTTP {status}")
                self._opened(headers)
            except (ConnectionError, ValueError) as err:
                self.conn.close(err)
                return
            del self.buf[:end + 4]
            self.head = True
            self.opened.set(True)
        self._more()

    def _opened(self, headers: dict[str, list[str]]) -> None:
        pass

    def _more(self) -> None:
        raise NotImplementedError


class WebSocket(LongAnswer):
    """A client websocket: `opened` is done at the server's 101; each text message to `on_text`."""

    wanted = 101

    def __init__(self, server: tuple[str, int], host: str, local: str, path: str, cookie: str,
                 on_text: Callable[[str], None], on_end: Callable[[], None]) -> None:
        self.inflater: Any = None
        self.parts: list[bytes] = []
        self.compressed = False
        key = base64.b64encode(random.getrandbits(128).to_bytes(16, "big")).decode()
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                   "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                   f"Cookie: {cookie}\r\n\r\n").encode()
        super().__init__(server, local, request, on_text, on_end)

    def send(self, text: str) -> None:
        self.conn.send(frame(text.encode()))

    def _opened(self, headers: dict[str, list[str]]) -> None:
        if "permessage-deflate" in ",".join(headers.get("sec-websocket-extensions", [])):
            self.inflater = zlib.decompressobj(-15)

    def _more(self) -> None:
        buf = self.buf
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n, pos = b1 & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, pos = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, pos = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < pos + n:
                return
            payload = bytes(buf[pos:pos + n])
            del buf[:pos + n]
            opcode = b0 & 0x0F
            if opcode in (0x1, 0x2):
                self.parts, self.compressed = [payload], bool(b0 & 0x40)
            elif opcode == 0x0:
                self.parts.append(payload)
            elif opcode == 0x8:
                self.conn.close(None)
                return
            elif opcode == 0x9:
                self.conn.send(frame(payload, 0xA))
                continue
            else:
                continue
            if b0 & 0x80:
                message = b"".join(self.parts)
                if self.compressed:
                    message = self.inflater.decompress(message + SYNC_TAIL)
                self.on_text(message.decode())


class EventStream(LongAnswer):
    """A browser's EventSource (HTTP/1.1, compression offered as a browser does; nchan streams it
    as is, a chunked or compressed answer is read too): each message's data to `on_text`."""

    def __init__(self, server: tuple[str, int], host: str, local: str, path: str, cookie: str,
                 on_text: Callable[[str], None], on_end: Callable[[], None]) -> None:
        self.body = bytearray()
        self.chunked = False
        self.inflater: Any = None
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
                   f"Cache-Control: no-cache\r\n{ACCEPT_ENCODING}Cookie: {cookie}\r\n\r\n").encode()
        super().__init__(server, local, request, on_text, on_end)

    def _opened(self, headers: dict[str, list[str]]) -> None:
        self.chunked = "chunked" in ",".join(headers.get("transfer-encoding", []))
        self.inflater = inflater_for(headers)

    def _more(self) -> None:
        data = bytearray()
        if not self.chunked:
            data += self.buf
            self.buf.clear()
        while self.chunked:  # the chunks: size line, data, CRLF
            end = self.buf.find(b"\r\n")
            if end < 0:
                break
            size = int(bytes(self.buf[:end]).split(b";")[0], 16)
            if len(self.buf) < end + 2 + size + 2:
                break
            data += self.buf[end + 2:end + 2 + size]
            del self.buf[:end + 2 + size + 2]
        self.body += self.inflater.decompress(bytes(data)) if self.inflater is not None else data
        for text in events(self.body):
            self.on_text(text)


def events(body: bytearray) -> list[str]:
    """The whole events at the start of an event stream's `body` (taken out of it): each one's data."""
    out = []
    while (end := body.find(b"\n\n")) >= 0:  # an event ends with a blank line
        event = bytes(body[:end])
        del body[:end + 2]
        data = [line[6:] for line in event.split(b"\n") if line.startswith(b"data: ")]
        if data:
            out.append(b"\n".join(data).decode())
    return out


# HTTP/2 (RFC 9113) as a browser speaks it to nginx over TLS, here in the clear with prior
# knowledge: one connection a phone, its EventSource and its posts each a stream of it.
H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
BIG_WINDOW = (1 << 31) - 1
# HPACK's static table (RFC 7541, appendix A): the statuses nginx sends as an index.
STATUS_INDEX = {0x88: 200, 0x89: 204, 0x8A: 206, 0x8B: 304, 0x8C: 400, 0x8D: 404, 0x8E: 500}


def h2_frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return len(payload).to_bytes(3, "big") + bytes((kind, flags)) + stream.to_bytes(4, "big") + payload


def hpack_literal(name: str, value: str) -> bytes:
    """A header as a literal without indexing, a new name, no Huffman code (RFC 7541, 6.2.2)."""
    def string(text: str) -> bytes:
        raw = text.encode()
        n = len(raw)
        if n < 127:
            return bytes((n,)) + raw
        n -= 127
        out = bytearray((127,))
        while n >= 128:
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        out.append(n)
        return bytes(out) + raw
    return b"\x00" + string(name) + string(value)


def h2_status(block: bytes) -> int:
    """The :status of a response's header block as nginx writes it first (an index, or the
    index's name with three plain digits); 0 when it reads otherwise."""
    if block and block[0] in STATUS_INDEX:
        return STATUS_INDEX[block[0]]
    if len(block) >= 5 and block[0] == 0x48 and block[1] == 3:
        return int(block[2:5])
    return 0


class H2Stream:
    def __init__(self, on_data: Callable[[bytes], None] | None = None) -> None:
        self.head = Future()  # done with the status
        self.done = Future()  # done with (status, body) at the end of the stream
        self.status = 0
        self.body = bytearray()
        self.on_data = on_data
        self.data_seen = False


class H2:
    """One HTTP/2 connection: requests are streams of it (`request`)."""

    def __init__(self, server: tuple[str, int], host: str, local: str, on_end: Callable[[], None]) -> None:
        self.host, self.on_end = host, on_end
        self.buf = bytearray()
        self.next_id = 1
        self.streams: dict[int, H2Stream] = {}
        self.conn = Conn(server, local, self._data, self._closed, h2=True)
        settings = (0x2).to_bytes(2, "big") + (0).to_bytes(4, "big") + (0x4).to_bytes(2, "big") + BIG_WINDOW.to_bytes(4, "big")
        self.conn.send(H2_PREFACE + h2_frame(SETTINGS, 0, 0, settings)
                       + h2_frame(WINDOW_UPDATE, 0, 0, (BIG_WINDOW - 65535).to_bytes(4, "big")))

    def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"",
                on_data: Callable[[bytes], None] | None = None) -> H2Stream:
        stream, self.next_id = self.next_id, self.next_id + 2
        # Compression offered as browsers offer it; the shipped nginx compresses neither the
        # event stream nor the JSON answers (gzip_types), and this reader takes no header but
        # :status, so a compressed answer is refused below rather than misread.
        block = b"".join(hpack_literal(k, v) for k, v in
                         {":method": method, ":scheme": "https" if TLS else "http", ":path": path, ":authority": self.host,
                          "accept-encoding": "gzip, deflate", **headers}.items())
        out = h2_frame(HEADERS, END_HEADERS | (0 if body else END_STREAM), stream, block)
        if body:
            out += h2_frame(DATA, END_STREAM, stream, body)
        self.streams[stream] = H2Stream(on_data)
        self.conn.send(out)
        return self.streams[stream]

    def close(self) -> None:
        self.conn.close(None)

    def _closed(self, error: BaseException | None) -> None:
        for s in self.streams.values():
            s.head.set(error=error or ConnectionError("closed"))
            s.done.set(error=error or ConnectionError("closed"))
        self.on_end()

    def _data(self, data: bytes) -> None:
        self.buf += data
        while len(self.buf) >= 9:
            size = int.from_bytes(self.buf[:3], "big")
            if len(self.buf) < 9 + size:
                return
            kind, flags, stream = self.buf[3], self.buf[4], int.from_bytes(self.buf[5:9], "big") & 0x7FFFFFFF
            payload = bytes(self.buf[9:9 + size])
            del self.buf[:9 + size]
            if kind == SETTINGS and not flags & ACK:
                self.conn.send(h2_frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                self.conn.send(h2_frame(PING, ACK, 0, payload))
            elif kind == GOAWAY:
                self.conn.close(ConnectionError("GOAWAY"))
                return
            elif kind in (HEADERS, DATA, RST_STREAM) and stream in self.streams:
                s = self.streams[stream]
                if kind == HEADERS and not s.head.done:
                    s.status = h2_status(payload)
                    s.head.set(s.status)
                elif kind == DATA:
                    if not s.data_seen and payload[:2] == b"\x1f\x8b":
                        self.conn.close(ConnectionError("a gzip answer over HTTP/2: this reader takes no headers"))
                        return
                    s.data_seen = True
                    if s.on_data is not None:
                        s.on_data(payload)
                    else:
                        s.body += payload
                if kind == RST_STREAM or flags & END_STREAM:
                    del self.streams[stream]
                    s.head.set(error=ConnectionError("reset"))
                    s.done.set((s.status, bytes(s.body)) if kind != RST_STREAM else None,
                               None if kind != RST_STREAM else ConnectionError("reset"))


# -- the devices ------------------------------------------------------------------------------------


class Device:
    def __init__(self, index: int, server: tuple[str, int], host: str, show: str, push: bool = False,
                 h2: tuple[str, int] | None = None) -> None:
        self.index = index
        self.local = address_of(index)
        self.server, self.host, self.show = server, host, show
        self.push = push  # the questions from nginx's channel (an EventSource), not the /crowd socket
        self.h2_server = h2  # HTTP/2 there: the EventSource and the posts streams of one connection
        self.h2: H2 | None = None
        self.device = ""
        self.ws: WebSocket | EventStream | None = None
        self.connected = False
        self.joined: Future | None = None
        self.opened: dict[str, float] = {}  # question id -> when this phone first showed it open
        self.waiting: list[Future] = []

    def open_page(self) -> Generator[Future, Any, None]:
        request = (f"GET /a/{self.show} HTTP/1.1\r\nHost: {self.host}\r\nConnection: close\r\n"
                   f"{ACCEPT_ENCODING}\r\n").encode()
        status, headers, _ = yield http_once(self.server, self.local, request, CONNECT_TIMEOUT)
        for value in headers.get("set-cookie", []):
            name, _, rest = value.partition("=")
            if name == COOKIE:
                self.device = rest.split(";")[0]
        if status != 200 or not self.device:
            raise ConnectionError(f"audience page: HTTP {status}, cookie {bool(self.device)}")

    def connect(self) -> Generator[Future, Any, None]:
        if self.h2_server is not None:  # as a browser speaking HTTP/2 to deploy's nginx
            self.h2 = H2(self.h2_server, self.host, self.local, self._end)
            body = bytearray()

            def data(chunk: bytes) -> None:
                body.extend(chunk)
                for text in events(body):
                    self.receive(["crowd", json.loads(text)])

            stream = self.h2.request("GET", f"/a/{self.show}/live", {"accept": "text/event-stream",
                                                                     "cookie": f"{COOKIE}={self.device}"}, on_data=data)
            status = yield LOOP.within(stream.head, CONNECT_TIMEOUT)
            if status != 200:
                raise ConnectionError(f"HTTP {status}")
            self.connected = True
            return
        if self.push:  # as the page behind deploy's nginx: its channel, an EventSource
            self.ws = EventStream(self.server, self.host, self.local, f"/a/{self.show}/live",
                                  f"{COOKIE}={self.device}", lambda text: self.receive(["crowd", json.loads(text)]),
                                  self._end)
            yield LOOP.within(self.ws.opened, CONNECT_TIMEOUT)
            self.connected = True
            return
        self.joined = Future()
        self.ws = WebSocket(self.server, self.host, self.local, "/socket.io/?EIO=4&transport=websocket&lane=public",
                            f"{COOKIE}={self.device}", self._text, self._end)
        yield LOOP.within(self.joined, CONNECT_TIMEOUT)

    def _end(self) -> None:
        self.connected = False
        if self.joined is not None:
            self.joined.set(error=ConnectionError("closed"))

    def _text(self, text: str) -> None:
        if text.startswith("42/crowd,"):
            self.receive(json.loads(text[9:]))
        elif text == "2":
            self.ws.send("3")
        elif text.startswith("0"):
            self.ws.send("40/crowd," + json.dumps({"show": self.show}))
        elif text.startswith("40/crowd,"):
            self.connected = True
            self.joined.set(True)
        elif text.startswith("44/crowd,"):
            self.joined.set(error=ConnectionError("refused " + text[9:120]))
        elif text.startswith("41/crowd"):
            self.connected = False

    def receive(self, packet: list[Any]) -> None:
        if not packet or packet[0] != "crowd" or len(packet) < 2 or not isinstance(packet[1], dict):
            return
        t = time.monotonic()
        for q in packet[1].get("questions") or ():
            if q.get("state") == "open" and q.get("id") not in self.opened:
                self.opened[q["id"]] = t
        waiting, self.waiting = self.waiting, []
        for fut in waiting:
            fut.set()

    def disconnect(self) -> None:
        if self.ws is not None:
            self.ws.close()
        if self.h2 is not None:
            self.h2.close()
        self.connected = False

    def question(self, qid: str, timeout: float) -> Generator[Future, Any, float | None]:
        deadline = time.monotonic() + timeout
        while qid not in self.opened:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            fut = Future()
            self.waiting.append(fut)
            try:
                yield LOOP.within(fut, left)
            except Timeout:
                pass
        return self.opened[qid]

    def predict(self, qid: str, option: int, kind: str) -> Generator[Future, Any, list[Any]]:
        body = urlencode({"question": qid, "option": str(option)}).encode()
        request = (f"POST /a/{self.show}/predict HTTP/1.1\r\nHost: {self.host}\r\nConnection: close\r\n"
                   f"Cookie: {COOKIE}={self.device}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                   f"{ACCEPT_ENCODING}Content-Length: {len(body)}\r\n\r\n").encode() + body
        t0 = time.monotonic()
        try:
            if self.h2 is not None:  # a stream of the connection the phone holds
                stream = self.h2.request("POST", f"/a/{self.show}/predict", {
                    "cookie": f"{COOKIE}={self.device}", "content-type": "application/x-www-form-urlencoded",
                    "content-length": str(len(body))}, body)
                _, answer = yield LOOP.within(stream.done, ANSWER_TIMEOUT)
            else:
                _, _, answer = yield http_once(self.server, self.local, request, ANSWER_TIMEOUT)
            ack = json.loads(answer)
        except Exception as err:  # noqa: BLE001 - a lost or late ack is a result
            return [self.index, kind, option, t0, time.monotonic(), "timeout", type(err).__name__, None, None]
        return ack_record(self.index, kind, option, t0, time.monotonic(), ack)


def all_of(tasks: list[Task]) -> Future:
    out, left = Future(), [len(tasks)]
    if not tasks:
        out.set()

    def one(_: Future) -> None:
        left[0] -= 1
        if left[0] == 0:
            out.set()

    for t in tasks:
        t.future.then(one)
    return out


def join(devices: list[Device], concurrency: int, made: str | None) -> Generator[Future, Any, dict[str, Any]]:
    page_ms: list[float] = []
    connect_ms: list[float] = []
    errors: list[str] = []
    connected_at = [time.monotonic()]
    queue = deque(devices)

    def lane() -> Generator[Future, Any, None]:
        while queue:
            d = queue.popleft()
            t0 = time.monotonic()
            try:
                if made is not None:  # an id as the page would have set it (crowd_burst.py --made-ids)
                    from referee.server.devices import device_key, new_device

                    d.device = new_device(device_key(made.encode()))
                else:
                    yield from d.open_page()
            except Exception as err:  # noqa: BLE001 - reported to the orchestrator
                errors.append(f"page {type(err).__name__}: {err}")
                continue
            t_page = time.monotonic()
            page_ms.append(round((t_page - t0) * 1000, 3))
            try:
                yield from d.connect()
            except Exception as err:  # noqa: BLE001
                errors.append(f"socket {type(err).__name__}: {err}")
                continue
            t1 = time.monotonic()
            connect_ms.append(round((t1 - t_page) * 1000, 3))
            connected_at[0] = max(connected_at[0], t1)

    yield all_of([Task(lane()) for _ in range(concurrency)])
    return {"page_ms": page_ms, "connect_ms": connect_ms, "errors": errors, "connected_at": connected_at[0]}


def burst(devices: list[Device], cmd: dict[str, Any], first: int) -> Generator[Future, Any, dict[str, Any]]:
    """crowd_burst.py's burst, the same draws from the same seed."""
    qid, n = cmd["question"], cmd["options"]
    records: list[list[Any]] = []
    held = [0]

    def one(d: Device, at: float, option: int, extra: str | None) -> Generator[Future, Any, None]:
        yield LOOP.sleep_until(at)
        shown = yield from d.question(qid, QUESTION_TIMEOUT)
        if shown is None:
            records.append([d.index, FIRST, option, at, time.monotonic(), "timeout", "no_question", None, None])
            return
        if shown > at:
            held[0] += 1
        records.append((yield from d.predict(qid, option, FIRST)))
        if extra == RESEND:
            records.append((yield from d.predict(qid, option, RESEND)))
        elif extra == RECONNECT:
            d.disconnect()
            try:
                yield from d.connect()
            except Exception as err:  # noqa: BLE001 - a result
                t = time.monotonic()
                records.append([d.index, RECONNECT, option, t, t, "timeout", f"reconnect {type(err).__name__}",
                                None, None])
                return
            records.append((yield from d.predict(qid, (option + 1) % n, RECONNECT)))

    tasks = [Task(one(d, *plan)) for d, plan in zip(devices, draws(cmd, first, len(devices)), strict=True)
             if d.connected]
    yield all_of(tasks)
    handshakes = dict(HANDSHAKES)
    HANDSHAKES.update(full=0, resumed=0)
    return {"records": records, "held": held[0], "shown": [d.opened.get(qid) for d in devices],
            "devices": {d.index: d.device for d in devices if d.device}, "tls": handshakes}


class Lines:
    """Standard input's lines, one Future at a time."""

    def __init__(self) -> None:
        self.fd = sys.stdin.fileno()
        os.set_blocking(self.fd, False)
        self.buf = b""
        self.lines: deque[str | None] = deque()
        self.waiting: Future | None = None
        LOOP.watch(self.fd, IN | GONE, self._event)

    def _event(self, _: int) -> None:
        try:
            data = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        if not data:
            LOOP.forget(self.fd)
            self.lines.append(None)
        else:
            self.buf += data
            *done, self.buf = self.buf.split(b"\n")
            self.lines.extend(line.decode() for line in done)
        if self.waiting is not None and self.lines:
            fut, self.waiting = self.waiting, None
            fut.set(self.lines.popleft())

    def next(self) -> Future:
        fut = Future()
        if self.lines:
            fut.set(self.lines.popleft())
        else:
            self.waiting = fut
        return fut


def main_flow(args: argparse.Namespace) -> Generator[Future, Any, None]:
    parts = urlsplit(args.url)
    server = (parts.hostname, parts.port)
    lines = Lines()
    reply({"ready": True})
    line = yield lines.next()
    if not line or json.loads(line).get("cmd") != "go":
        return
    t_go = time.monotonic()
    h2 = (parts.hostname, args.h2_port) if args.h2_port else None
    if parts.scheme == "https":
        global TLS, TLS_H2
        TLS, TLS_H2 = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT), ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        for context, alpn in ((TLS, "http/1.1"), (TLS_H2, "h2")):
            context.load_verify_locations(args.ca)  # as a phone, which trusts the server's certificate
            context.check_hostname = False  # the bench's certificate names the venue, the devices dial 127.0.0.1
            context.set_alpn_protocols([alpn])
    devices = [Device(args.first + i, server, parts.netloc, args.show, args.push, h2) for i in range(args.count)]
    made = os.environ["REFEREE_SECRET_KEY"] if args.made_ids else None
    joined = yield from join(devices, args.connect_concurrency, made)
    reply({"connected": sum(1 for d in devices if d.connected), "failed": len(joined["errors"]),
           "errors": joined["errors"][:5], "page_ms": joined["page_ms"], "connect_ms": joined["connect_ms"],
           "go": t_go, "connected_at": joined["connected_at"], "tls": dict(HANDSHAKES)})
    HANDSHAKES.update(full=0, resumed=0)
    while True:
        line = yield lines.next()
        if line is None:
            break
        cmd = json.loads(line)
        if cmd["cmd"] == "burst":
            reply((yield from burst(devices, cmd, args.first)))
        elif cmd["cmd"] == "quit":
            break
    for d in devices:
        d.disconnect()
    reply({"bye": True})


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", required=True)
    p.add_argument("--show", required=True)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--connect-concurrency", type=int, default=25)
    p.add_argument("--made-ids", action="store_true")
    p.add_argument("--push", action="store_true", help="the questions from nginx's channel (an EventSource)")
    p.add_argument("--ca", help="with an https:// --url: the authority of its certificate")
    p.add_argument("--h2-port", type=int, default=0,
                   help="nginx's HTTP/2 listener: the channel and the posts as streams of one connection")
    args = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    LOOP.run_until(Task(main_flow(args)).future)
    return 0


if __name__ == "__main__":
    sys.exit(main())
