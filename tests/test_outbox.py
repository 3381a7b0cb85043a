"""Each socket's outgoing packets under eventlet (referee/server/outbox.py; issue 17): a queue as
engineio uses it, its writers woken by one hub callback per batch instead of a timer each, its
waits' timeouts kept by one sweep. Real eventlet green threads in this process's hub, real
python-engineio sockets; the live servers of the other tests send every view through it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import uuid

import eventlet
import pytest
import socketio
from engineio import packet
from engineio.socket import Socket
from eventlet import hubs
from eventlet.queue import Empty, Queue

from referee.server import outbox

from .live import Client, LiveServer, game_table


def writer(box, got: list, timeout: float = 45.0) -> None:
    """engineio's writer: wait for a packet, then take whatever else is already there."""
    while True:
        try:
            first = box.get(timeout=timeout)
        except Empty:
            got.append("timeout")
            return
        box.task_done()
        got.append(first)
        while True:
            try:
                got.append(box.get(block=False))
                box.task_done()
            except Empty:
                break
        if got[-1] is None:
            return


def settle(rounds: int = 20) -> None:
    for _ in range(rounds):
        eventlet.sleep(0)


def fan_out(queues: list) -> tuple[int, list, list]:
    """Three packets to each queue's waiting writer, then the end (None): the hub timers the
    packets scheduled, what each writer had taken before the end was put, and in all."""
    got = [[] for _ in queues]
    threads = [eventlet.spawn(writer, q, seen) for q, seen in zip(queues, got, strict=True)]
    settle()
    assert all(q.getters if isinstance(q, Queue) else q.readers for q in queues)  # every writer waits
    hub = hubs.get_hub()
    before = len(hub.next_timers)
    for n in range(3):
        for q in queues:
            q.put(n)
    timers = len(hub.next_timers) - before
    settle()
    before_end = [list(seen) for seen in got]
    for q in queues:
        q.put(None)
    for thread in threads:
        thread.wait()
    return timers, before_end, got


@pytest.mark.parametrize("count", [1, 300])
def test_a_fan_out_wakes_every_waiting_writer_with_one_callback_and_keeps_the_order(count):
    wakeups = outbox.Wakeups()
    boxes = [outbox.Outbox(wakeups) for _ in range(count)]
    assert fan_out(boxes) == (1, [[0, 1, 2]] * count, [[0, 1, 2, None]] * count)
    assert all(box.unfinished == 0 and not box.readers for box in boxes)


def test_eventlets_own_queue_schedules_a_timer_per_socket():
    """What the Outbox replaces: the same fan-out through eventlet's Queue."""
    assert fan_out([Queue() for _ in range(50)]) == (50, [[0, 1, 2]] * 50, [[0, 1, 2, None]] * 50)


def test_a_wait_ends_empty_after_its_timeout_and_a_later_packet_is_kept():
    wakeups = outbox.Wakeups()
    wakeups.SWEEP = 0.05
    box = outbox.Outbox(wakeups)
    untimed = outbox.Outbox(wakeups)
    got: list = []
    forever: list = []
    eventlet.spawn(writer, untimed, forever, None)
    start = time.monotonic()
    eventlet.spawn(writer, box, got, 0.2).wait()
    waited = time.monotonic() - start
    assert got == ["timeout"] and 0.2 <= waited < 2.0, waited
    assert not box.readers and not wakeups.deadlines.get(box)
    with pytest.raises(Empty):
        box.get(block=False)
    box.put("late")
    assert box.get(block=False) == "late"
    eventlet.sleep(0.3)
    assert forever == [] and untimed.readers  # no timeout: still waiting
    untimed.put(None)
    settle()
    assert forever == [None] and not wakeups.deadlines


def test_a_packet_that_comes_with_the_timeout_is_taken():
    """The sweep ends a wait whose deadline passed just as a packet was put (its wake-up still to
    run): the reader takes the packet instead of ending its wait empty."""
    wakeups = outbox.Wakeups()
    wakeups.SWEEP = 3600.0  # no sweep of its own during the test
    box = outbox.Outbox(wakeups)
    got: list = []
    eventlet.spawn(writer, box, got, 0.001)
    settle()
    time.sleep(0.01)  # the deadline passes
    hubs.get_hub().schedule_call_global(0, wakeups.sweep)  # runs before the wake-up put schedules
    box.put("x")
    box.put(None)
    settle()
    assert got == ["x", None]


def test_two_readers_take_one_packet_each():
    """engineio's long-polling request and, during an upgrade, its websocket writer."""
    wakeups = outbox.Wakeups()
    box = outbox.Outbox(wakeups)
    taken: list = []
    readers = [eventlet.spawn(lambda: taken.append(box.get(timeout=45))) for _ in range(2)]
    settle()
    box.put("a")
    box.put("b")
    for reader in readers:
        reader.wait()
    assert sorted(taken) == ["a", "b"] and not box.readers and not wakeups.deadlines


def test_join_waits_until_every_packet_is_done():
    box = outbox.Outbox(outbox.Wakeups())
    box.put("a")
    box.put("b")
    joined: list = []
    eventlet.spawn(lambda: (box.join(), joined.append(True)))
    settle()
    assert box.get() == "a"
    box.task_done()
    settle()
    assert joined == []
    assert box.get() == "b"
    box.task_done()
    settle()
    assert joined == [True]
    box.join()  # nothing left: returns at once


def test_engineios_sockets_get_outboxes_and_send_through_them():
    """Against the installed python-engineio: its socket makes its queue with create_queue, and a
    packet sent to it comes out of its poll (the long-polling transport's wait), a ping too."""
    server = socketio.Server(async_mode="eventlet")
    outbox.install(server.eio)
    sock = Socket(server.eio, "sid-1")
    assert isinstance(sock.queue, outbox.Outbox)
    polled: list = []
    poller = eventlet.spawn(lambda: polled.extend(sock.poll()))
    settle()
    sock.send(packet.Packet(packet.MESSAGE, data="hello"))
    sock.send(packet.Packet(packet.PING))
    poller.wait()
    assert [(p.packet_type, p.data) for p in polled] == [(packet.MESSAGE, "hello"), (packet.PING, None)]


def test_the_server_installs_outboxes_under_eventlet_only(redis_server):
    """In a process of its own: a server's background tasks (its heartbeat, tickers, bots) run
    for as long as its process, and in this one they would outlive the test's Redis."""
    check = (
        "import sys, tempfile\n"
        "from referee.server import outbox\n"
        "from referee.server.app import Settings, create_app\n"
        "_app, sio = create_app(Settings(redis_url=sys.argv[1], data_dir=tempfile.mkdtemp(), async_mode=sys.argv[2]))\n"
        "print(isinstance(sio.server.eio.create_queue(), outbox.Outbox))\n"
    )
    for mode, installed in (("eventlet", True), ("threading", False)):
        out = subprocess.run([sys.executable, "-c", check, redis_server.url, mode], capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split()[-1] == str(installed), (mode, out.stdout)


def test_screens_on_websocket_and_on_long_polling_get_every_view_in_order(tmp_path):
    """A live server (eventlet, so Outboxes): websocket screens wait in their writers, long-polling
    ones in their GET requests; each ends on the newest view, having seen none twice or out of
    order."""
    live = LiveServer(tmp_path).start()
    screens: list[Client] = []
    try:
        show, table, _links = game_table(live, "tricky_coin", ["가", "나"], seed=5)
        kinds = ["websocket"] * 3 + ["polling"] * 3
        for kind in kinds:
            screens.append(Client(live.url, "/public", {"show": show}, transports=(kind,)))
        for screen in screens:
            screen.wait_for(lambda e, p: e == "view")
        # Started once every screen has its first view: the start's fan-out runs after its ack,
        # so a screen connecting just after it may get the same version as its welcome too
        # (harmless: a page drops only older views) and this test would see it twice.
        versions = [live.ok("start", show=show, table=table)["ack"]["version"]]
        for seat, move in ((0, {"type": "put_coin", "coin": 5}), (1, {"type": "put_coin", "coin": 10}),
                           (0, {"type": "choose_token", "token": "GO"}), (1, {"type": "choose_token", "token": "STOP"})):
            versions.append(live.ok("move", show=show, table=table, seat=seat, sid=uuid.uuid4().hex,
                                    move=move)["ack"]["version"])
        for screen, kind in zip(screens, kinds, strict=True):
            assert screen.sio.transport() == kind
            screen.wait_for(lambda e, p: e == "view" and p["version"] == versions[-1])
            with screen.lock:
                seen = [p["version"] for e, p in screen.history if e == "view"]
            assert seen == sorted(set(seen)) and seen[-1] == versions[-1], seen
    finally:
        for screen in screens:
            screen.close()
        live.stop()


def frames(data: bytes) -> list[str]:
    """The text of each unmasked, unfragmented server frame in `data` (RFC 6455 section 5.2)."""
    out = []
    at = 0
    while at < len(data):
        assert data[at] == 0x81, data[at:at + 4]  # FIN, text
        length = data[at + 1] & 0x7F
        at += 2
        if length == 126:
            length = int.from_bytes(data[at:at + 2], "big")
            at += 2
        out.append(data[at:at + length].decode())
        at += length
    assert at == len(data)
    return out


def test_packets_go_straight_to_an_idle_websocket_and_a_full_one_keeps_the_order():
    """A websocket (eventlet's, with the project's frame packing) on a real socket pair with small
    buffers and an engineio-like writer: packets put while the writer waits go to the kernel
    without waking it; once the peer stops reading and the buffer fills, a frame's rest and every
    later packet queue for the writer, which blocks as before; when the peer reads again, every
    packet arrives once, whole and in order."""
    from eventlet.greenio import GreenSocket

    from referee.server.deflate import SharedDeflateWebSocket

    near, far = socket.socketpair()
    near.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    far.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    ws = SharedDeflateWebSocket(GreenSocket(near), {}, version=13)
    engine = type("Engine", (), {"upgraded": True, "upgrading": False})()
    wakeups = outbox.Wakeups()
    box = outbox.Outbox(wakeups)
    box.wire = outbox.Wire(ws, engine)
    sent: list = []
    woken = []

    def writer_loop() -> None:  # engineio's websocket writer: ws.send(pkt.encode()) of each item
        while True:
            item = box.get(timeout=45)
            woken.append(item)
            box.task_done()
            if item is None:
                return
            ws.send(item.encode())

    thread = eventlet.spawn(writer_loop)
    settle()
    messages = [packet.Packet(packet.MESSAGE, data=f"{n:05d}" + "x" * 300) for n in range(400)]
    for n, pkt in enumerate(messages[:5]):
        box.put(pkt)
        sent.append(pkt.encode())
        if n == 0:
            assert not box.items and woken == []  # straight to the kernel, the writer still waits
    settle()
    assert woken == [] and box.readers
    for pkt in messages[5:]:  # the peer reads nothing: the buffers fill, the rest queues
        box.put(pkt)
        sent.append(pkt.encode())
    assert box.items and any(isinstance(item, outbox.Rest) for item in box.items)
    received = bytearray()
    expected = sum(len(text) + (4 if len(text) > 125 else 2) for text in sent)  # frame headers

    def peer() -> None:
        green = GreenSocket(far)
        while len(received) < expected:
            received.extend(green.recv(65536))

    reading = eventlet.spawn(peer)
    reading.wait()
    box.put(None)
    thread.wait()
    assert frames(bytes(received)) == sent
    near.close()
    far.close()
