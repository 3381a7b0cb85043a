"""The server in each async mode besides the default eventlet (``--async-mode``,
``REFEREE_ASYNC_MODE``): gevent, which serves 1,000 screens for less of the server's CPU
(docs/performance.md), and threading. Eventlet is deprecated upstream; moving a venue off it
must be a setting, not a port (STACK.md)."""

from __future__ import annotations

import uuid

import pytest

from .live import PIN, Client, LiveServer, game_table
from .test_room_phone import PHONE


@pytest.mark.parametrize("mode", ["gevent", "threading"])
def test_a_show_runs_and_stops_in_each_async_mode(tmp_path, mode):
    """Through real clients: a wrong PIN is refused (its PBKDF2 runs off the event loop), a
    phone's move is acknowledged, the projector, the phone and the console get their new
    views; a SIGTERM ends the server cleanly with its sockets open."""
    live = LiveServer(tmp_path, env={"REFEREE_ASYNC_MODE": mode}).start()
    clients: list[Client] = []
    try:
        refused = live.api("create_show", pin="97531", show="nope", name="x")
        assert not refused["ok"] and refused["error"]["code"].startswith("auth/"), refused
        show, table, links = game_table(live, "tricky_coin", ["가", "나"], seed=5)
        live.ok("start", show=show, table=table)
        console = Client(live.url + "?lane=dealer", "/dealer", {"pin": PIN, "show": show})
        projector = Client(live.url, "/public", {"show": show})
        phone = Client(live.url + "?lane=seat", "/seat", {"token": links[0]["token"]})
        clients += [console, projector, phone]
        before = projector.wait_for(lambda e, p: e == "view")["version"]
        console.wait_for(lambda e, p: e == "show")
        phone.wait_for(lambda e, p: e == "view")

        ack = phone.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 5},
                                    "sid": uuid.uuid4().hex})
        assert ack["ok"], ack
        shown = projector.wait_for(lambda e, p: e == "view" and p["version"] > before)
        assert shown["table"]["state"]["seats"][0]["box_count"] == 1
        assert "box" not in shown["table"]["state"]["seats"][0]
        mine = phone.wait_for(lambda e, p: e == "view" and p["table"]["state"]["seats"][0].get("box") == [5])
        assert mine["table"]["table"] == table
        console.wait_for(lambda e, p: e == "show" and p["tables"][0]["view"]["version"] >= ack["ack"]["version"])
    finally:
        live.stop()  # with the clients still connected, as a venue's restart finds them
        for client in clients:
            client.close()
    assert live.proc.returncode == 0
    log = (tmp_path / f"server-{live.port}.log").read_text()
    assert "Traceback" not in log, log


def test_the_pages_work_under_gevent(tmp_path, browser):
    """Chromium: under gevent the projector page and a phone page come online (the socket.io
    client's own transport choice, served files, the lanes), and the projector shows a move."""
    live = LiveServer(tmp_path, env={"REFEREE_ASYNC_MODE": "gevent"}).start()
    projector = browser.new_page(viewport={"width": 1280, "height": 720})
    phone = browser.new_context(**PHONE).new_page()
    try:
        show, table, links = game_table(live, "tricky_coin", ["가", "나"], seed=5)
        live.ok("start", show=show, table=table)
        projector.goto(f"{live.url}/display/{show}")
        phone.goto(links[0]["url"])
        projector.wait_for_selector("#conn[data-state='online']", timeout=10_000)
        phone.wait_for_selector("#conn[data-state='online']", timeout=10_000)
        phone.wait_for_selector(f"#player:text('{links[0]['name']}')")
        live.ok("move", show=show, table=table, seat=1, move={"type": "put_coin", "coin": 5})
        projector.wait_for_selector(".sealed:text('1/2')")
    finally:
        projector.close()
        phone.context.close()
        live.stop()
