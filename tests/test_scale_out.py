"""Several server processes on one Redis: the store and the Socket.IO queue are shared, so a
phone on one process and the projector on another see each other, and submissions through
both land exactly once with gapless versions."""

from __future__ import annotations

import threading
import uuid

import pytest

from referee.store import EmbeddedRedis

from .live import Client, LiveServer, game_table

PLAYERS = [f"p{i}" for i in range(10)]
TICKS = 200  # per player: 2,000 submissions in all


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    redis_dir = tmp_path_factory.mktemp("shared-redis")
    redis_server = EmbeddedRedis(redis_dir).start()
    env = {"REDIS_URL": redis_server.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex,
           "REFEREE_EXTRA_GAMES": "tests.counter_game"}
    a = LiveServer(tmp_path_factory.mktemp("server-a"), env=env).start()
    b = LiveServer(tmp_path_factory.mktemp("server-b"), env=env).start()
    yield a, b
    a.stop()
    b.stop()
    redis_server.stop()


def test_a_phone_on_one_process_and_the_projector_on_the_other(pair):
    a, b = pair
    show = "m" + uuid.uuid4().hex[:8]
    a.ok("create_show", show=show, name="두 프로세스")
    for name in ("가", "나"):
        b.ok("add_player", show=show, name=name)
    table = a.ok("create_table", show=show, game="tricky_coin", players=["가", "나"], seed=2)["table"]
    links = b.snapshot(show)["links"]  # the same links from either process (one secret key)
    assert [(x["token"], x["code"]) for x in links] == [(x["token"], x["code"]) for x in a.snapshot(show)["links"]]
    projector_b = Client(b.url, "/public", {"show": show})
    projector_a = Client(a.url, "/public", {"show": show})
    phone_a = Client(a.url, "/seat", {"token": links[0]["token"]})
    phone_b = Client(b.url, "/seat", {"token": links[1]["token"]})
    try:
        b.ok("start", show=show, table=table)
        ack = phone_a.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 5}, "sid": "a"})
        seen = projector_b.wait_for(lambda e, p: e == "view" and p["version"] >= ack["ack"]["version"])
        assert seen["table"]["state"]["seats"][0]["box_count"] == 1
        ack = phone_b.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 20}, "sid": "b"})
        seen = projector_a.wait_for(lambda e, p: e == "view" and p["version"] >= ack["ack"]["version"])
        assert seen["table"]["state"]["step"] == "token"
        # The phone on A hears about B's move too.
        assert phone_a.wait_for(lambda e, p: e == "view" and p["version"] >= ack["ack"]["version"])
    finally:
        for c in (projector_a, projector_b, phone_a, phone_b):
            c.close()


def test_thousands_of_concurrent_submissions_through_both_land_once(pair):
    a, b = pair
    show = "c" + uuid.uuid4().hex[:8]
    a.ok("create_show", show=show, name="카운터")
    for name in PLAYERS:
        a.ok("add_player", show=show, name=name)
    table = a.ok("create_table", show=show, game="counter", players=PLAYERS)["table"]
    a.ok("start", show=show, table=table)
    links = a.snapshot(show)["links"]
    phones = [Client((a if i % 2 else b).url, "/seat", {"token": link["token"]}) for i, link in enumerate(links)]
    projector = Client(b.url, "/public", {"show": show})
    failures: list = []

    def play(i: int) -> None:
        for n in range(TICKS):
            sid = f"{i}-{n}"
            try:
                ack = phones[i].call("submit", {"table": table, "move": {"type": "tick", "by": 1}, "sid": sid}, timeout=60)
            except Exception as exc:  # a lost ack is resent with the same id, as a phone does
                failures.append((sid, repr(exc)))
                ack = phones[i].call("submit", {"table": table, "move": {"type": "tick", "by": 1}, "sid": sid}, timeout=60)
            if not ack["ok"]:
                failures.append((sid, ack))

    try:
        threads = [threading.Thread(target=play, args=(i,)) for i in range(len(phones))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=600)
        assert not [f for f in failures if isinstance(f[1], dict)], failures[:5]
        log = b.log_of(show, table)["entries"]
        assert [e["v"] for e in log] == list(range(1, len(log) + 1))  # gapless
        ticks = [e for e in log if e["event"]["type"] == "Ticked"]
        assert len(ticks) == len(PLAYERS) * TICKS
        assert len({e["sid"] for e in ticks}) == len(ticks)  # each submission once
        final = log[-1]["v"]
        seen = projector.wait_for(lambda e, p: e == "view" and p["version"] >= final, timeout=60)
        assert seen["table"]["state"]["counts"] == [TICKS] * len(PLAYERS)
    finally:
        for c in (*phones, projector):
            c.close()


def test_a_player_without_an_open_phone_costs_no_view(pair):
    """Issue 17: a fan-out builds and sends no view for a player with no phone open (on any
    process); the phone that opens later gets the table as it is now."""
    import json

    import redis

    from referee.server.app import QUEUE_CHANNEL

    a, b = pair
    show = "q" + uuid.uuid4().hex[:8]
    a.ok("create_show", show=show, name="빈 자리")
    for name in ("가", "나"):
        a.ok("add_player", show=show, name=name)
    table = a.ok("create_table", show=show, game="tricky_coin", players=["가", "나"], seed=2)["table"]
    links = a.snapshot(show)["links"]
    queue = redis.Redis.from_url(a.env["REDIS_URL"]).pubsub()
    queue.subscribe(QUEUE_CHANNEL)
    phone = Client(b.url, "/seat", {"token": links[0]["token"]})
    try:
        a.ok("start", show=show, table=table)
        ack = phone.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 5}, "sid": "a"})
        a.ok("move", show=show, table=table, seat=1, move={"type": "put_coin", "coin": 20}, sid="b")
        assert phone.wait_for(lambda e, p: e == "view" and p["version"] > ack["ack"]["version"])
        rooms = []
        while (message := queue.get_message(timeout=1.0)) is not None:
            if message["type"] == "message":
                rooms.append(json.loads(message["data"]).get("room"))
        assert f"player:{show}:0:{links[0]['version']}" in rooms  # the open phone's views went out
        assert not [r for r in rooms if str(r).startswith(f"player:{show}:1:")]  # nobody holds seat 1's: never built, never sent
        late = Client(a.url, "/seat", {"token": links[1]["token"]})
        try:
            first = late.wait_for(lambda e, p: e == "view")
            assert first["table"]["state"]["step"] == "token" and first["seat"] == 1
        finally:
            late.close()
    finally:
        phone.close()
        queue.close()


def test_a_lone_process_sends_views_past_the_queue_and_a_second_one_gets_them(tmp_path):
    """Issue 17: while a server is the only process up on its Redis, its views go to its own
    sockets without the round trip through the Socket.IO queue; from the moment a second process
    is up, through the queue, so the second one's screens get every update."""
    import json

    import redis

    from referee.server.app import QUEUE_CHANNEL

    for part in ("redis", "a", "b"):
        (tmp_path / part).mkdir()
    redis_server = EmbeddedRedis(tmp_path / "redis").start()
    env = {"REDIS_URL": redis_server.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex}
    a = LiveServer(tmp_path / "a", env=env).start()
    b = None
    queue = redis.Redis.from_url(redis_server.url).pubsub()
    clients = []
    try:
        show = "l" + uuid.uuid4().hex[:8]
        a.ok("create_show", show=show, name="혼자")
        for name in ("가", "나"):
            a.ok("add_player", show=show, name=name)
        table = a.ok("create_table", show=show, game="tricky_coin", players=["가", "나"], seed=2)["table"]
        a.ok("start", show=show, table=table)
        queue.subscribe(QUEUE_CHANNEL)
        projector_a = Client(a.url, "/public", {"show": show})
        clients.append(projector_a)

        def queued() -> list[str]:
            events = []
            while (message := queue.get_message(timeout=1.0)) is not None:
                if message["type"] == "message":
                    events.append(json.loads(message["data"]).get("event"))
            return events

        a.ok("move", show=show, table=table, seat=0, move={"type": "put_coin", "coin": 5}, sid="a")
        assert projector_a.wait_for(lambda e, p: e == "view" and p["table"]["state"]["seats"][0]["box_count"] == 1)
        assert queued() == []  # alone: the connect's clock and view, the update: none through the queue

        b = LiveServer(tmp_path / "b", env=env).start()
        projector_b = Client(b.url, "/public", {"show": show})
        clients.append(projector_b)
        assert projector_b.wait_for(lambda e, p: e == "view")
        a.ok("move", show=show, table=table, seat=1, move={"type": "put_coin", "coin": 20}, sid="b")
        for projector in (projector_a, projector_b):
            assert projector.wait_for(lambda e, p: e == "view" and p["table"]["state"]["step"] == "token")
        assert "view" in queued()
        b.stop()
        b = None
        # B left: A is alone again and stops using the queue.
        a.ok("move", show=show, table=table, seat=0, move={"type": "choose_token", "token": "STOP"}, sid="c")
        assert projector_a.wait_for(lambda e, p: e == "view" and p["table"]["state"]["seats"][0]["token_done"])
        assert "view" not in queued()
    finally:
        for c in clients:
            c.close()
        queue.close()
        if b is not None:
            b.stop()
        a.stop()
        redis_server.stop()


def test_a_process_that_stopped_beating_is_forgotten(redis_server):
    """A process that crashed (no `leave`) counts as up until PROCESS_TTL after its last beat;
    the next beat of any other process then forgets it."""
    import redis

    from referee.server.service import PROCESS_TTL, Service
    from referee.server.shows import Shows

    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    prefix = f"beat-{uuid.uuid4().hex[:8]}:"
    crashed, alive = (Service(client, Shows(client, b"k" * 32, prefix), lambda *a, **k: None, lambda: "", prefix)
                      for _ in range(2))
    crashed.heartbeat(now=1000.0)
    alive.heartbeat(now=1000.0 + PROCESS_TTL - 1)
    assert set(client.hgetall(f"{prefix}processes")) == {crashed.host, alive.host}
    alive.heartbeat(now=1000.0 + PROCESS_TTL + 1)
    assert set(client.hgetall(f"{prefix}processes")) == {alive.host}
    alive.leave()
    assert client.hgetall(f"{prefix}processes") == {}


def test_a_fan_out_cut_off_by_the_servers_own_stop_is_no_error(service_on_redis, caplog, monkeypatch):
    """A server that stops takes its embedded Redis with it while a fan-out may still be under
    way: that is logged as dropped, without a trace (the next start sends fresh views); the same
    failure while the server runs is an error with its trace."""
    import logging

    import redis

    here = service_on_redis

    def redis_gone(*args, **kwargs):
        raise redis.ConnectionError("Connection closed by server.")

    monkeypatch.setattr(here.service, "fan_out", redis_gone)
    with caplog.at_level(logging.WARNING):
        here.service.changed("s", here.table)
        assert [(r.levelno, r.exc_info is not None) for r in caplog.records] == [(logging.ERROR, True)]
        caplog.clear()
        here.service.leave()
        here.service.changed("s", here.table)
        assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]
        assert "dropped, the server is stopping" in caplog.records[0].getMessage()


def test_the_projectors_view_is_written_before_the_phones_views_are_built(service_on_redis):
    """The room waits on the projector: a fan-out sends the projector's view and lets its
    sockets be written (the server's pause) before it builds the phones' views."""
    from referee.server.service import player_room, public_room

    here = service_on_redis
    service = here.service
    for player in (0, 1):
        link = here.link(player)
        service.seat_welcome(link, service.seat_socket(link, f"phone-{player}", True))
    built: list[int] = []
    seat_snapshot = service.seat_snapshot
    service.seat_snapshot = lambda link, *rest, **named: built.append(link.player) or seat_snapshot(link, *rest, **named)
    at_pause: list[tuple[list[str], list[int]]] = []
    service.pause = lambda: at_pause.append(([room for _, room, event, _ in here.sent if event == "view"], built[:]))
    del here.sent[:]
    here.command("move", show="s", table=here.table, seat=1, move={"type": "put_coin", "coin": 5})
    assert at_pause == [([public_room("s")], [])]
    rooms = [player_room("s", p, here.link(p).version) for p in (0, 1)]
    assert [room for _, room, event, _ in here.sent if event == "view"] == [public_room("s"), *rooms]
    assert built == [0, 1]


@pytest.mark.parametrize("budget", [0.0, 3600.0])
def test_a_big_rooms_packet_goes_out_a_slice_at_a_time_with_the_loop_let_through_between(budget):
    """SlicedRooms: every socket of a big room gets the packet once, the event loop runs after
    the first slice and then whenever the fan-out has run its budget (none: after every slice; a
    long one: after the first only), and a socket gone during a pause is skipped without error.
    A small room, or one socket, goes in one step."""
    import socketio

    from referee.server.web import SlicedRooms

    manager = SlicedRooms()
    manager.BUDGET = budget
    server = socketio.Server(async_mode="threading", client_manager=manager)
    timeline: list[tuple[str, str]] = []
    server._send_eio_packet = lambda eio_sid, pkt: timeline.append(("sent", eio_sid))
    sids = [manager.connect(f"eio-{i}", "/public") for i in range(2 * SlicedRooms.SLICE + 10)]
    for sid in sids:
        manager.enter_room(sid, "/public", "big")
    for sid in sids[:SlicedRooms.SLICE]:
        manager.enter_room(sid, "/public", "small")
    gone = manager.eio_sid_from_sid(sids[-1], "/public")

    def pause(seconds: float = 0) -> None:
        timeline.append(("pause", ""))
        if manager.is_connected(sids[-1], "/public"):
            manager.disconnect(sids[-1], "/public")  # leaves while the fan-out is under way

    server.sleep = pause
    server.emit("view", {"v": 1}, to="big", namespace="/public")
    marks = [i for i, (what, _) in enumerate(timeline) if what == "pause"]
    first, size = SlicedRooms.FIRST, SlicedRooms.SLICE  # a small first slice, then whole ones
    assert marks == ([first, first + 1 + size, first + 2 + 2 * size] if budget == 0 else [first]), marks
    sent = [eio for what, eio in timeline if what == "sent"]
    assert sorted(sent) == sorted(f"eio-{i}" for i in range(len(sids)) if f"eio-{i}" != gone)
    assert len(set(sent)) == len(sent)

    del timeline[:]
    server.emit("view", {"v": 2}, to="small", namespace="/public")
    server.emit("view", {"v": 3}, to=sids[0], namespace="/public")
    assert [what for what, _ in timeline] == ["sent"] * (SlicedRooms.SLICE + 1)


def test_the_manager_knows_each_sockets_rooms_as_python_socketios_own_search_finds_them():
    """SlicedRooms keeps each socket's rooms (a disconnect no longer searches every room of the
    namespace): after a random run of connects, joins, leaves, closed rooms and disconnects, its
    rooms, each socket's rooms and its pending lists are python-socketio's own manager's."""
    import random

    import socketio

    from referee.server.web import SlicedRooms

    ours, theirs = SlicedRooms(), socketio.Manager()
    for manager in (ours, theirs):
        socketio.Server(async_mode="threading", client_manager=manager)
    rnd = random.Random(7)
    live: list[tuple[str, str]] = []  # (namespace, eio sid); both managers make the same sids
    for step in range(3000):
        roll = rnd.random()
        if roll < 0.3 or not live:
            namespace, eio = rnd.choice(["/public", "/crowd"]), f"eio-{step}"
            ours.server.eio.generate_id = theirs.server.eio.generate_id = lambda step=step: f"sid-{step}"
            assert ours.connect(eio, namespace) == theirs.connect(eio, namespace)
            live.append((namespace, f"sid-{step}"))
        elif roll < 0.6:
            namespace, sid = rnd.choice(live)
            room = f"room-{rnd.randrange(5)}"
            for manager in (ours, theirs):
                manager.enter_room(sid, namespace, room)
        elif roll < 0.75:
            namespace, sid = rnd.choice(live)
            room = f"room-{rnd.randrange(5)}"
            for manager in (ours, theirs):
                manager.leave_room(sid, namespace, room)
        elif roll < 0.78:
            namespace, room = rnd.choice(["/public", "/crowd"]), f"room-{rnd.randrange(5)}"
            for manager in (ours, theirs):
                manager.close_room(room, namespace)
        else:
            namespace, sid = live.pop(rnd.randrange(len(live)))
            for manager in (ours, theirs):
                manager.disconnect(sid, namespace)
        if step % 100 == 0:
            for namespace, sid in live:
                assert sorted(map(str, ours.get_rooms(sid, namespace))) == \
                    sorted(map(str, theirs.get_rooms(sid, namespace)))
    shape = lambda m: {ns: {room: dict(members) for room, members in rooms.items()}  # noqa: E731
                       for ns, rooms in m.rooms.items()}
    assert shape(ours) == shape(theirs)
    assert ours.pending_connect == theirs.pending_connect and ours.pending_disconnect == theirs.pending_disconnect
    assert set(ours.memberships) == set(live)


def test_a_room_of_a_hundred_and_fifty_screens_gets_every_view_once(pair):
    """Through a live server of the pair (its public room is sent in slices, through the queue):
    no screen gets a view twice, and every screen ends on the newest."""
    a, _b = pair
    show, table, _links = game_table(a, "tricky_coin", ["가", "나"], seed=5)
    a.ok("start", show=show, table=table)
    screens = [Client(a.url, "/public", {"show": show}) for _ in range(150)]
    try:
        for screen in screens:
            screen.wait_for(lambda e, p: e == "view")
        versions = []
        for seat, move in ((0, {"type": "put_coin", "coin": 5}), (1, {"type": "put_coin", "coin": 10}),
                           (0, {"type": "choose_token", "token": "GO"})):
            versions.append(a.ok("move", show=show, table=table, seat=seat, sid=uuid.uuid4().hex,
                                 move=move)["ack"]["version"])
        for screen in screens:
            screen.wait_for(lambda e, p: e == "view" and p["version"] == versions[-1])
            with screen.lock:
                seen = [p["version"] for e, p in screen.history if e == "view"]
            assert len(seen) == len(set(seen)) and max(seen) == versions[-1], seen
    finally:
        for screen in screens:
            screen.close()
