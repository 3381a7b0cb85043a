"""Websocket compression as browsers ask for it, paid once per message (issue 38), under eventlet.

Every browser offers the permessage-deflate extension (RFC 7692) and eventlet's websocket takes
the offer: it then deflates every frame separately for every socket, with a compressor of its own
per socket (256 kB of zlib state each, kept between messages). One update to 1,000 screens was
deflated 1,000 times: four times the server CPU of the same update uncompressed
(docs/performance.md, Goal 9).

Here the server answers the offer with ``server_no_context_takeover``: every message it sends is
deflated on its own, with no history of earlier ones (RFC 7692, section 7.1.1.1: a server may say
so whether or not the client asked). Then one message deflates to the same bytes for every socket
that asked for the same window, so it is deflated once per process and those bytes are framed for
every socket: a room of a thousand screens costs one deflate and a thousand writes of the smaller
frame. Nothing is kept per socket. What a client sends stays as it negotiated (its own context).

Which sockets take the offer was decided by measurement (docs/performance.md, Goal 1): with a
thousand audience screens, even a message deflated once costs the server more per update than
sending the text (the frames of every socket, the clients' inflating), for a view of a few
hundred bytes. So the audience's screens (no lane, or ``public``) are answered without
compression; the phones, the console and the room's projector (``seat``, ``dealer``, ``stage``:
one socket each, whole views) keep it.

``install`` gives an engineio server (eventlet) this websocket; gevent and threading keep theirs.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from typing import Any

from engineio.async_drivers.eventlet import WebSocketWSGI
from eventlet.greenio import GreenSocket
from eventlet.websocket import RFC6455WebSocket

from .outbox import Frame, Outbox, Wire
from .web import lane

SYNC_TAIL = b"\x00\x00\xff\xff"
# The lanes whose sockets take compression: one socket each, whole views (above).
COMPRESSED = frozenset({"seat", "dealer", "stage"})


class DeflateOnce:
    """The deflated form of the process's recent messages, by message and window: a message sent
    to a room is deflated for its first socket and taken from here for the rest."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.done: OrderedDict[tuple[bytes, int], bytes] = OrderedDict()
        self.deflated = 0  # messages deflated (the rest were taken from here)

    def get(self, message: bytes, wbits: int) -> bytes:
        key = (message, wbits)
        out = self.done.get(key)
        if out is None:
            compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -wbits)
            out = compressor.compress(message) + compressor.flush(zlib.Z_SYNC_FLUSH)
            self.done[key] = out
            self.deflated += 1
            if len(self.done) > self.size:
                self.done.popitem(last=False)
        return out


class _Once:
    """What eventlet's frame packer takes for a compressor (compress, then a sync flush): the
    message's bytes from the process's DeflateOnce, the flush's tail already in them."""

    __slots__ = ("cache", "wbits")

    def __init__(self, cache: DeflateOnce, wbits: int) -> None:
        self.cache, self.wbits = cache, wbits

    def compress(self, message: bytes) -> bytes:
        return self.cache.get(message, self.wbits)

    def flush(self, mode: int = zlib.Z_FINISH) -> bytes:
        return b""


class SharedDeflateWebSocket(RFC6455WebSocket):
    """eventlet's websocket whose outgoing frames come deflated once per message (above), and
    that sends a frame packed already (the rest of a direct write, outbox.Wire) as it is."""

    cache: DeflateOnce  # set per server by install

    def send(self, message: Any, **kw: Any) -> None:
        if type(message) is Frame:
            self._send(message)
        else:
            super().send(message, **kw)

    def _get_permessage_deflate_enc(self) -> Any:
        options = self.extensions.get("permessage-deflate")
        if options is None:
            return None
        return _Once(self.cache, options.get("server_max_window_bits", zlib.MAX_WBITS))


def install(eio: Any) -> DeflateOnce:
    """Websockets of the engineio server ``eio`` (eventlet) from now on: the offer of compression
    is answered with no context takeover on the server's side, and each message is deflated once.
    Returns the process's cache (a benchmark reads how often it deflated)."""
    cache = DeflateOnce()
    socket_class = type("SharedDeflateWebSocket", (SharedDeflateWebSocket,), {"cache": cache})

    class Handler(WebSocketWSGI):
        plain = False  # this request's socket is an audience screen's: no compression

        def _negotiate_permessage_deflate(self, extensions: Any) -> Any:
            if self.plain:
                return None
            config = super()._negotiate_permessage_deflate(extensions)
            if config is None or config.get("server_max_window_bits", zlib.MAX_WBITS) < 9:
                return None  # zlib's raw deflate has no 256-byte window: no compression rather than a wrong one
            config["server_no_context_takeover"] = True
            return config

        def _handle_hybi_request(self, environ: Any) -> Any:
            self.plain = lane(environ.get("QUERY_STRING", "")) not in COMPRESSED
            ws = super()._handle_hybi_request(environ)
            ws.__class__ = socket_class  # the same socket, its frames packed as above
            engine = getattr(self.handler, "__self__", None)  # engineio's socket (its _websocket_handler)
            box = getattr(engine, "queue", None)
            if isinstance(box, Outbox) and type(ws.socket) is GreenSocket:  # not TLS: a plain socket's send
                box.wire = Wire(ws, engine)
            return ws

    eio._async = {**eio._async, "websocket": Handler}
    return cache
