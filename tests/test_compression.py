"""Compression as browsers ask for it (issue 38): every browser offers permessage-deflate. The
audience's screens are answered without it (cheaper at a thousand screens, measured); the room's
projector, the phones and the console take it with no context takeover on the server's side, so
one message deflates to the same bytes for every socket and is deflated once. Checked on the wire
with raw websockets, and with Chromium's own handshake (its offer answered as decided, the
projector live)."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import uuid
import zlib

import pytest

from .live import LiveServer, wait_until

TAIL = b"\x00\x00\xff\xff"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("deflate")).start()
    yield live
    live.stop()


class RawSocket:
    """A websocket client by hand, offering compression as Chromium does, keeping every frame."""

    def __init__(self, url: str, query: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /socket.io/?EIO=4&transport=websocket&{query} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nOrigin: {url}\r\n"
                           "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        self.headers = head.decode()
        self.buffer = b""

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def frame(self) -> tuple[bool, bytes, str]:
        """The next data frame: whether it came compressed, its payload as sent, and its text."""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(length)
            opcode, compressed = first & 0x0F, bool(first & 0x40)
            if opcode in (1, 2):
                text = zlib.decompressobj(-15).decompress(payload + TAIL) if compressed else payload
                return compressed, payload, text.decode()

    def send(self, text: str) -> None:
        data = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81]) + (bytes([0x80 | len(data)]) if len(data) < 126 else
                                  bytes([0x80 | 126]) + struct.pack("!H", len(data)))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def until(self, predicate) -> tuple[bool, bytes, str]:
        for _ in range(200):
            got = self.frame()
            if got[2] == "2":  # Engine.IO's ping: answered, as a client does
                self.send("3")
                continue
            if predicate(got[2]):
                return got
        raise AssertionError("the frame never came")

    def close(self) -> None:
        self.sock.close()


def screen(server: LiveServer, show: str, lane: str = "public", stage: str | None = None) -> RawSocket:
    """A projector page's socket: an audience screen (lane public), or the room's projector (lane
    stage, with the key of the console's projector link)."""
    ws = RawSocket(server.url, f"lane={lane}")
    ws.until(lambda t: t.startswith("0{"))
    ws.send("40/public," + json.dumps({"show": show, **({"stage": stage} if stage else {})}))
    ws.until(lambda t: t.startswith("42/public,") and '"view"' in t)
    return ws


def extensions(ws: RawSocket) -> str:
    return next((line for line in ws.headers.split("\r\n") if line.lower().startswith("sec-websocket-extensions")), "")


def coin_show(server: LiveServer, show: str) -> str:
    server.ok("create_show", show=show, name="압축 쇼")
    for name in ("가람", "나래"):
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가람", "나래"], seed=1)["table"]
    server.ok("start", show=show, table=table)
    server.ok("set_current", show=show, table=table)
    return table


def test_the_rooms_projector_takes_compression_without_context_and_one_update_is_the_same_bytes(server):
    """The sockets that keep compression (the room's projector, the phones, the console) take the
    offer with no context on the server's side: one update deflates once, to the same bytes."""
    show = "z" + uuid.uuid4().hex[:7]
    table = coin_show(server, show)
    key = server.snapshot(show)["projector"].split("stage=")[1]
    screens = [screen(server, show, "stage", key) for _ in range(2)]
    try:
        for ws in screens:
            assert "101 Switching Protocols" in ws.headers
            assert "permessage-deflate" in extensions(ws) and "server_no_context_takeover" in extensions(ws), ws.headers
        server.ok("move", show=show, table=table, seat=0, move={"type": "put_coin", "coin": 5}, sid=uuid.uuid4().hex)
        got = [ws.until(lambda t: t.startswith("42/public,") and '"view"' in t) for ws in screens]
        (c0, raw0, text0), (c1, raw1, text1) = got
        assert c0 and c1, "the update came uncompressed"
        assert raw0 == raw1 and text0 == text1  # one deflate, the same bytes on both sockets
        assert len(raw0) < len(text0.encode())
        view = json.loads(text0.split(",", 1)[1])[1]
        assert view["table"]["state"]["seats"][0]["box_count"] == 1  # the update itself, whole
    finally:
        for ws in screens:
            ws.close()


def test_an_audience_screens_offer_is_declined_and_its_updates_come_as_text(server):
    """A thousand audience screens cost less without compression (docs/performance.md, Goal 1):
    their offer is answered without the extension, and an update comes as plain text."""
    show = "x" + uuid.uuid4().hex[:7]
    table = coin_show(server, show)
    screens = [screen(server, show), screen(server, show, "nolane")]
    try:
        for ws in screens:
            assert "101 Switching Protocols" in ws.headers and "permessage-deflate" not in extensions(ws), ws.headers
        server.ok("move", show=show, table=table, seat=0, move={"type": "put_coin", "coin": 5}, sid=uuid.uuid4().hex)
        for ws in screens:
            compressed, raw, text = ws.until(lambda t: t.startswith("42/public,") and '"view"' in t)
            assert not compressed and raw == text.encode()
    finally:
        for ws in screens:
            ws.close()


def test_chromiums_offer_is_answered_as_decided_and_the_projector_lives_on_it(server, browser):
    show = "y" + uuid.uuid4().hex[:7]
    server.ok("create_show", show=show, name="브라우저 압축")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    answers: list[dict] = []
    cdp.on("Network.webSocketHandshakeResponseReceived", lambda e: answers.append(e["response"]["headers"]))
    page.goto(f"{server.url}/display/{show}")
    page.wait_for_selector("#board .join")
    wait_until(lambda: answers, what="the websocket's handshake")
    headers = {k.lower(): v for k, v in answers[0].items()}
    # An audience screen's page: declined (the room's projector, in the stage lane, takes it).
    assert "permessage-deflate" not in headers.get("sec-websocket-extensions", ""), headers
    # Live on the compressed socket: a match put up and started shows.
    for name in ("다솜", "라온"):
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_coin", players=["다솜", "라온"])["table"]
    server.ok("set_current", show=show, table=table)
    server.ok("start", show=show, table=table)
    page.wait_for_selector(".panel-name:has-text('다솜')")
    page.close()
