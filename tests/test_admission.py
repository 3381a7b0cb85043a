"""A crowd of audience screens connecting at once is let in a few at a time (web.Admission,
issue 17 goal 7), so a phone's move is not queued behind a thousand handshakes; a phone and the
console go past the line; a connection whose handshake is over, or was refused, gives its slot
to the next at once, and one that never finishes holds it for a bounded time only."""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid

import pytest
import socketio
import websocket

from referee.server.web import Admission

from .live import PIN, Client, LiveServer, game_table, stage_key
from .test_room_phone import PHONE


def new_table(server: LiveServer) -> tuple[str, str, list[dict]]:
    show, table, links = game_table(server, "tricky_coin", ["가", "나"], seed=5)
    server.ok("start", show=show, table=table)
    return show, table, links


def begun_handshake(server: LiveServer) -> websocket.WebSocket:
    """A connection that has begun its handshake (Engine.IO's open packet came back) and not
    finished it (no namespace yet): it holds an admission slot."""
    ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket",
                                     timeout=10)
    assert ws.recv().startswith("0")
    return ws


def finish_handshake(ws: websocket.WebSocket, show: str) -> None:
    """The projector's namespace joined on a begun connection: its handshake is over."""
    ws.send("40/public," + json.dumps({"show": show}))
    # Before the ack may come the clock, the first view (both sent by the handler), a view of a
    # move fanned out as the socket joined the room, or a ping.
    packets = []
    while not any(p.startswith("40/public,") for p in packets):
        assert len(packets) < 10, packets
        packets.append(ws.recv())


HANDSHAKE = {"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&transport=websocket"}
POLLING = {"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&transport=polling"}  # back at once, slot kept


@pytest.fixture
def crowded(tmp_path):
    """A server that lets two audience handshakes in at once and holds a slot for a minute."""
    live = LiveServer(tmp_path, env={"REFEREE_ADMISSION": "2/60"}).start()
    yield live
    live.stop()


def test_a_phone_goes_past_a_line_of_screens_that_waits_until_a_slot_is_free(crowded, browser):
    """Chromium: with both slots held, an audience's display page waits (connecting) while the
    phone page and the room's projector (the console's link, in the stage lane) come online at
    once and another phone's move is acknowledged and drawn there; when one held handshake
    finishes, the audience's page gets in and shows that move."""
    show, table, links = new_table(crowded)
    held = [begun_handshake(crowded) for _ in range(2)]
    projector = browser.new_page(viewport={"width": 1280, "height": 720})
    stage = browser.new_page(viewport={"width": 1280, "height": 720})
    phone = browser.new_context(**PHONE).new_page()
    try:
        projector.goto(f"{crowded.url}/display/{show}")
        stage.goto(crowded.snapshot(show)["projector"])
        stage.wait_for_selector("#conn[data-state='online']", timeout=10_000)
        projector.wait_for_timeout(1500)
        assert projector.locator("#conn").get_attribute("data-state") != "online"

        phone.goto(links[0]["url"])
        phone.wait_for_selector("#conn[data-state='online']", timeout=10_000)
        phone.wait_for_selector(f"#player:text('{links[0]['name']}')")
        # The line is held for a minute: the phone did not come in through it.
        assert projector.locator("#conn").get_attribute("data-state") != "online"
        moved = Client(crowded.url + "?lane=seat", "/seat", {"token": links[1]["token"]})
        ack = moved.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 5},
                                    "sid": uuid.uuid4().hex})
        moved.close()
        assert ack["ok"], ack
        stage.wait_for_selector(".sealed:text('1/2')")

        finish_handshake(held[0], show)
        projector.wait_for_selector("#conn[data-state='online']", timeout=10_000)
        projector.wait_for_selector(".sealed:text('1/2')")  # the move made while it waited
    finally:
        projector.close()
        stage.close()
        phone.context.close()
        for ws in held:
            ws.close()


@pytest.mark.parametrize(("lane", "key"), [("seat", None), ("dealer", None), ("stage", None), ("stage", "wrong"),
                                           ("stage", "another show's")])
def test_a_screen_that_claims_a_players_lane_is_refused(crowded, lane, key):
    """A laptop that says lane=seat (or dealer, or stage without the projector link's key of this
    show) goes past the line, and behind nginx it would land on the players' process
    (deploy/nginx/referee.conf); its projector namespace is refused with the reason in Korean and
    English, on that connection also after a phone's namespace got in on it, while the phone's
    namespace and a screen without the claim are served."""
    show, _table, links = new_table(crowded)
    if key == "another show's":
        key = stage_key(crowded.snapshot(new_table(crowded)[0]))
    held = [begun_handshake(crowded) for _ in range(2)]  # the line is full: only a lane gets past
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{crowded.port}/socket.io/?EIO=4&transport=websocket&lane={lane}", timeout=10)
    try:
        assert ws.recv().startswith("0")
        ws.send("40/public," + json.dumps({"show": show} if key is None else {"show": show, "stage": key}))
        refusal = ws.recv()
        assert refusal.startswith("44/public,"), refusal
        reason = json.loads(refusal[len("44/public,"):])["data"]  # what the page's client hands to connect_error
        assert reason["code"] == "auth/wrong_lane" and reason["ko"] and reason["en"], reason
        ws.send("40/seat," + json.dumps({"token": links[0]["token"]}))
        packets = []  # the ack, the clock, the device count, the first view, in some order
        while not any(p.startswith("40/seat,") for p in packets):
            assert len(packets) < 10 and not any(p.startswith("44/") for p in packets), packets
            packets.append(ws.recv())
        ws.send("40/public," + json.dumps({"show": show}))
        while not (packet := ws.recv()).startswith("44/public,"):
            assert not packet.startswith("40/public,"), packet
        finish_handshake(held[0], show)  # a screen in line, without the claim, is served
    finally:
        ws.close()
        for h in held:
            h.close()


@pytest.mark.parametrize("mode", ["eventlet", "gevent"])
def test_a_finished_or_refused_handshake_frees_its_slot_at_once(tmp_path, mode):
    """One slot, held up to a minute: screens connecting one after another each get in at once
    (a slot that stayed taken would keep the next out past the client's 10 s), also after a
    refused one (no such show), one over long-polling (its handshake's requests are several) and
    one whose client left while it waited in line; under both servers (eventlet's and gevent's
    WSGI servers end a websocket's request each in their own way)."""
    live = LiveServer(tmp_path, env={"REFEREE_ADMISSION": "1/60", "REFEREE_ASYNC_MODE": mode}).start()
    try:
        show, _table, links = new_table(live)
        screens = [Client(live.url, "/public", {"show": show}) for _ in range(3)]
        with pytest.raises(socketio.exceptions.ConnectionError):
            Client(live.url, "/public", {"show": "nope"})
        screens.append(Client(live.url, "/public", {"show": show}, transports=("polling",)))
        screens.append(Client(live.url, "/public", {"show": show}))
        phone = Client(live.url, "/seat", {"token": links[0]["token"]})  # no lane: in line too, and in
        console = Client(live.url, "/dealer", {"pin": PIN, "show": show})
        # A screen that leaves while in line: when its turn comes its socket is gone, and the
        # slot goes on at once to the next.
        held = begun_handshake(live)
        left = socket.create_connection(("127.0.0.1", live.port))
        left.sendall(f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n"
                     "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode())
        time.sleep(0.5)  # in line behind the held one
        left.close()
        finish_handshake(held, show)
        screens.append(Client(live.url, "/public", {"show": show}))
        for screen in screens:
            assert screen.wait_for(lambda e, p: e == "view")["show"]["id"] == show
        assert phone.wait_for(lambda e, p: e == "view")
        assert console.wait_for(lambda e, p: e == "show")
        for client in (*screens, phone, console):
            client.close()
    finally:
        live.stop()


def test_the_line_is_first_come_first_served_and_a_slot_never_left_runs_out():
    """Admission itself: who waits and who does not; a websocket's slot is left when its request
    is back; waiters get in in their order as slots are left; a slot whose connection never
    finished is given again after `hold`."""
    admission = Admission(lambda environ, start: [], slots=1, hold=0.5)
    assert admission.waiting(HANDSHAKE) is not None
    assert admission.waiting({"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&transport=polling&sid=x"}) is None
    assert admission.waiting({"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&lane=seat"}) is None
    assert admission.waiting({"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&lane=dealer"}) is None
    assert admission.waiting({"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&lane=public"}) is not None
    assert admission.waiting({"PATH_INFO": "/display/show", "QUERY_STRING": ""}) is None
    assert Admission(lambda environ, start: [], slots=0).waiting(HANDSHAKE) is None  # 0 slots: no line

    closed = dict(HANDSHAKE)
    admission(closed, lambda *a: None)  # a websocket's request is back: its socket is closed
    assert admission.in_use() == 0
    first = dict(POLLING)
    admission(first, lambda *a: None)
    assert admission.in_use() == 1
    order: list[int] = []
    environs = [dict(POLLING) for _ in range(3)]

    def comes(i: int) -> None:
        admission(environs[i], lambda *a: None)
        order.append(i)

    threads = []
    for i in range(3):
        threads.append(threading.Thread(target=comes, args=(i,)))
        threads[-1].start()
        time.sleep(0.05)  # they come in this order
    time.sleep(0.1)
    assert order == []  # all wait for the one slot
    admission.leave(first)
    admission.leave(first)  # twice: no second slot
    threads[0].join(2)
    assert order == [0] and admission.in_use() == 1
    admission.leave(environs[0])
    threads[1].join(2)
    assert order == [0, 1]
    # The second never leaves: the third gets in when its slot runs out (hold), not before.
    began = time.monotonic()
    threads[2].join(5)
    assert order == [0, 1, 2] and time.monotonic() - began >= 0.3
