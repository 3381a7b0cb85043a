"""A pulled cable (issue 36): the main machine's network is gone, so its sockets neither answer
nor close. The pages of the lanes that skip the line (a player's phone, the room's projector)
ask every few seconds (static/live.js, PROBED) and so notice in seconds, not at Socket.IO's
heartbeat (up to 45 s), and reconnect by themselves to whatever answers at the same address;
the audience's screens do not ask (docs/backup.md)."""

from __future__ import annotations

import socket
import threading
import time
import uuid

import pytest

from .live import LiveServer, game_table, stage_key, wait_until
from .test_room_phone import PHONE


class Cable:
    """A TCP path from the browser to the server that can be pulled: then nothing passes either
    way and nothing is closed (no FIN, no RST), as when a machine's cable is pulled; plugged in
    again, new connections pass (the old ones stay dead: their machine is gone)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.generation = 0  # a pull ends every connection made before it
        self.pulled = False
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            self.sockets.append(near)
            if self.pulled:
                continue  # accepted by the kernel, never answered: an unreachable machine
            far = socket.create_connection(("127.0.0.1", self.target))
            self.sockets.append(far)
            for src, dst in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(src, dst, self.generation), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, generation: int) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if generation != self.generation:
                if not data:
                    return
                continue  # pulled: dropped on the floor, nothing said to either end
            try:
                if not data:
                    dst.shutdown(socket.SHUT_WR)
                    return
                dst.sendall(data)
            except OSError:
                return

    def pull(self) -> None:
        self.pulled = True
        self.generation += 1

    def plug(self) -> None:
        self.pulled = False

    def close(self) -> None:
        self.listener.close()
        for s in self.sockets:
            s.close()


@pytest.fixture
def cabled(tmp_path):
    live = LiveServer(tmp_path).start()
    cable = Cable(live.port)
    yield live, cable
    cable.close()
    live.stop()


def state(page) -> str:
    return page.locator("#conn").get_attribute("data-state")


def test_a_phone_and_the_room_projector_notice_a_pulled_cable_in_seconds_and_come_back(cabled, browser):
    """Chromium through a cable that is pulled mid-show: the phone and the room's projector say
    they are offline within 10 s (the probe: 1 s apart, 5 s to answer) while the audience's
    display still believes it is online; plugged in, both come back to their own screens by
    themselves and show a move made after."""
    live, cable = cabled
    show, table, links = game_table(live, "tricky_coin", ["가", "나"], seed=5)
    live.ok("start", show=show, table=table)
    via = f"http://127.0.0.1:{cable.port}"
    key = stage_key(live.snapshot(show))
    phone = browser.new_context(**PHONE).new_page()
    stage = browser.new_page(viewport={"width": 1280, "height": 720})
    audience = browser.new_page(viewport={"width": 1280, "height": 720})
    phone.goto(links[0]["url"].replace(live.url, via))
    stage.goto(f"{via}/display/{show}?stage={key}")
    audience.goto(f"{via}/display/{show}")
    for page in (phone, stage, audience):
        page.wait_for_selector("#conn[data-state='online']", timeout=10_000)
    phone.wait_for_selector(f"#player:text('{links[0]['name']}')")

    cable.pull()
    pulled = time.monotonic()
    for page in (phone, stage):
        page.wait_for_selector("#conn:not([data-state='online'])", timeout=12_000)
    noticed = time.monotonic() - pulled
    assert noticed < 10.5, noticed
    assert state(audience) == "online"  # no probe: it would notice at the heartbeat

    cable.plug()
    for page in (phone, stage):
        page.wait_for_selector("#conn[data-state='online']", timeout=15_000)
    live.ok("move", show=show, table=table, seat=1, move={"type": "put_coin", "coin": 5}, sid=uuid.uuid4().hex)
    stage.wait_for_selector(".sealed:text('1/2')")
    phone.wait_for_selector(f"#player:text('{links[0]['name']}')")


def test_a_page_refused_while_redis_is_away_connects_again_by_itself(tmp_path, browser):
    """The room's projector loses its connection while its server's Redis is away for longer
    than a connect handler waits (a takeover that takes its time): its next attempt is refused
    as "server/again", which socket.io never retries by itself; the page tries again a second
    or two later (static/live.js) until Redis is back, then shows the table live again."""
    from .test_backup import RedisProcess

    store = RedisProcess(tmp_path, "redis", "appendonly yes\nappendfsync always\nsave \"\"").start()
    (tmp_path / "server").mkdir()
    live = LiveServer(tmp_path / "server", env={"REDIS_URL": f"redis://127.0.0.1:{store.port}/0"}).start()
    cable = Cable(live.port)
    try:
        show, table, _ = game_table(live, "tricky_coin", ["가", "나"], seed=5)
        live.ok("start", show=show, table=table)
        stage = browser.new_page(viewport={"width": 1280, "height": 720})
        stage.goto(f"http://127.0.0.1:{cable.port}/display/{show}?stage={stage_key(live.snapshot(show))}")
        stage.wait_for_selector("#conn[data-state='online']", timeout=10_000)
        store.kill()
        cable.pull()
        stage.wait_for_selector("#conn:not([data-state='online'])", timeout=12_000)
        cable.plug()
        log = tmp_path / "server" / f"server-{live.port}.log"
        wait_until(lambda: "a connection waits for Redis" in log.read_text(errors="replace"), timeout=30,
                   what="the page's attempt refused as server/again")
        assert state(stage) != "online"
        heard: list[str] = []  # what the page's sockets were sent from here on (for a failure's report)
        stage.on("websocket", lambda ws: ws.on("framereceived", lambda frame: heard.append(str(frame)[:160])))
        logged = len(log.read_text(errors="replace"))
        store.start()
        stage.wait_for_selector("#conn[data-state='online']", timeout=15_000)
        live.ok("move", show=show, table=table, seat=1, move={"type": "put_coin", "coin": 5}, sid=uuid.uuid4().hex)
        try:
            stage.wait_for_selector(".sealed:text('1/2')")
        except Exception:  # seen once in CI (7f1bab7), never in loops: what the page and the server did
            raise AssertionError(f"no 1/2 on the projector; its mark {state(stage)!r}; its sockets heard {heard}; "
                                 f"the server logged: {log.read_text(errors='replace')[logged:][-3000:]}") from None
    finally:
        cable.close()
        live.stop()
        store.kill()
