"""A Socket.IO client for load generators that costs far less per device than python-socketio's.

It speaks the two protocols directly over one aiohttp websocket (Engine.IO 4, Socket.IO 5: what
the pages' socket.io-client speaks), with only what an audience phone does: connect one
namespace with its auth, take its events, emit with an acknowledgement, answer the server's
pings, disconnect. No polling, no reconnection, no binary packets, no event loop of its own per
client. It offers websocket compression as browsers do (the server declines it for the
audience: docs/performance.md, Goal 1).

The subset of ``socketio.AsyncClient`` that bench/crowd_burst.py's devices use: ``on``,
``connect``, ``call``, ``disconnect``, ``connected``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

OPEN, CLOSE, PING, PONG, MESSAGE = "0", "1", "2", "3", "4"  # Engine.IO packet types
CONNECT, DISCONNECT, EVENT, ACK, CONNECT_ERROR = "0", "1", "2", "3", "4"  # Socket.IO packet types


class ConnectionRefused(Exception):
    """The namespace refused the connection (its reason, as the server sent it)."""


class LightSocket:
    def __init__(self, session: Any, compress: bool = True) -> None:
        self.session = session  # an aiohttp.ClientSession: its cookies and local address are the device's
        self.compress = compress
        self.ws: Any = None
        self.namespace = "/"
        self.handlers: dict[str, Callable[..., Any]] = {}
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.next_id = 0
        self.connected = False
        self.joined: asyncio.Future[Any] | None = None
        self.reader: asyncio.Task[None] | None = None

    def on(self, event: str, handler: Callable[..., Any], namespace: str = "/") -> None:
        self.handlers[event] = handler

    def _prefix(self) -> str:
        return "" if self.namespace == "/" else self.namespace + ","

    async def connect(self, url: str, namespaces: list[str], auth: Any = None, wait_timeout: float = 30,
                      **_: Any) -> None:
        parts = urlsplit(url)
        query = "EIO=4&transport=websocket" + (f"&{parts.query}" if parts.query else "")
        ws_url = urlunsplit(("ws" if parts.scheme == "http" else "wss", parts.netloc, "/socket.io/", query, ""))
        self.namespace = namespaces[0]
        self.ws = await self.session.ws_connect(ws_url, compress=15 if self.compress else 0, autoping=False,
                                                max_msg_size=0)
        opened = await asyncio.wait_for(self.ws.receive_str(), wait_timeout)
        if not opened.startswith(OPEN):
            raise ConnectionError(f"no Engine.IO open packet: {opened[:40]!r}")
        self.joined = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())
        await self.ws.send_str(MESSAGE + CONNECT + self._prefix() + json.dumps(auth or {}))
        await asyncio.wait_for(self.joined, wait_timeout)
        self.connected = True

    async def _read(self) -> None:
        prefix = self._prefix()
        try:
            async for msg in self.ws:
                text = msg.data
                if not isinstance(text, str) or not text:
                    continue
                if text[0] == PING:
                    await self.ws.send_str(PONG)
                    continue
                if text[0] != MESSAGE or len(text) < 2:
                    continue
                kind, body = text[1], text[2:]
                if prefix:
                    if not body.startswith(prefix):
                        continue
                    body = body[len(prefix):]
                if kind == EVENT:
                    self._event(body)
                elif kind == ACK:
                    digits = len(body) - len(body.lstrip("0123456789"))
                    waiting = self.pending.pop(int(body[:digits]), None)
                    if waiting is not None and not waiting.done():
                        args = json.loads(body[digits:])
                        waiting.set_result(args[0] if len(args) == 1 else tuple(args))
                elif kind == CONNECT and self.joined is not None and not self.joined.done():
                    self.joined.set_result(json.loads(body) if body else None)
                elif kind == CONNECT_ERROR and self.joined is not None and not self.joined.done():
                    self.joined.set_exception(ConnectionRefused(body))
                elif kind == DISCONNECT:
                    break
        finally:
            self.connected = False
            for waiting in self.pending.values():
                if not waiting.done():
                    waiting.set_exception(ConnectionError("disconnected"))
            self.pending.clear()
            if self.joined is not None and not self.joined.done():
                self.joined.set_exception(ConnectionError("closed before the namespace joined"))

    def _event(self, body: str) -> None:
        # An event the device listens to: `["name", payload]` (an event asking an ack is not sent
        # to the audience's namespace, so a leading id is skipped only, never answered).
        start = body.find("[")
        if start < 0:
            return
        name_end = body.find('"', start + 2)
        handler = self.handlers.get(body[start + 2:name_end])
        if handler is not None:
            args = json.loads(body[start:])[1:]
            handler(*args)

    async def call(self, event: str, data: Any = None, namespace: str | None = None, timeout: float = 60) -> Any:
        if not self.connected:
            raise ConnectionError("not connected")
        self.next_id += 1
        ack_id = self.next_id
        waiting = asyncio.get_running_loop().create_future()
        self.pending[ack_id] = waiting
        await self.ws.send_str(MESSAGE + EVENT + self._prefix() + str(ack_id) + json.dumps([event, data]))
        try:
            return await asyncio.wait_for(waiting, timeout)
        finally:
            self.pending.pop(ack_id, None)

    async def disconnect(self) -> None:
        if self.ws is None:
            return
        with contextlib.suppress(Exception):
            if self.connected:
                await self.ws.send_str(MESSAGE + DISCONNECT + self._prefix())
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.reader, 5)
        self.connected = False


async def post_form(url: str, path: str, form: dict[str, str], cookie: str, local_host: str,
                    timeout: float) -> dict[str, Any]:
    """An HTTP/1.1 form post on a connection of its own from `local_host`, as a phone's browser
    whose earlier connection has gone idle makes one; the JSON answer. Spoken directly over
    asyncio's streams: aiohttp's client cost the load generator about a millisecond a post."""
    from urllib.parse import urlencode

    parts = urlsplit(url)
    body = urlencode(form).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nCookie: {cookie}\r\nConnection: close\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n").encode()

    async def exchange() -> dict[str, Any]:
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port, local_addr=(local_host, 0))
        try:
            writer.write(head + body)
            status = await reader.readline()
            if not status.startswith(b"HTTP/1.1 "):
                raise ConnectionError(f"not an HTTP answer: {status[:40]!r}")
            length = None
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            data = await (reader.readexactly(length) if length is not None else reader.read())
            return json.loads(data)
        finally:
            writer.close()

    return await asyncio.wait_for(exchange(), timeout)
