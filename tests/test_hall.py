"""The hall's predictions taken by nginx itself (issue 34; deploy/nginx/hall.lua): through the real
nginx of deploy/ (with Debian's Lua module) and straight to the server, the same predictions get
the same answers, word for word: counted once, a resend answered with the first choice, a made-up
or foreign device refused, a bad form refused, the device's rate limit, a closed question; nginx
answers them without the referee's processes, and the counts are the referee's own."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import redis
import requests

from referee.server.crowd import DEVICE_COOKIE
from referee.server.devices import device_key, new_device

from .live import LiveServer, free_port, wait_until, within_one_window
from .test_attacks import deploy_conf, make_acl, start_redis
from .test_backup import RedisProcess
from .test_crowd_live import coin_show, play_to_a_held_opening
from .test_deploy import nginx_in_front

RATE = "4/30"  # a device's predictions in a window, small enough to reach


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    # A standby is wanted (REFEREE_REPLICAS) but none is there until the last test starts one.
    with nginx_in_front(tmp_path_factory.mktemp("hall"), env={"REFEREE_RATE_CROWD_DEVICE": RATE,
                                                                "REFEREE_REPLICAS": "1"}) as running:
        yield running


def https_session(base: Any) -> requests.Session:
    session = requests.Session()
    session.verify = str(base / "tls" / "ca.crt")
    session.trust_env = False
    return session


def test_nginx_and_the_server_answer_every_prediction_alike(proxied):
    url, servers, base, _plain, hall = proxied
    audience = servers[1].url  # the audience's process, straight
    staff = https_session(base)

    def api(command: str, **payload: Any) -> dict[str, Any]:
        out = staff.post(f"{url}/api/{command}", json=payload, headers={"X-Staff-Pin": "4321"}, timeout=30).json()
        assert out["ok"], out
        return out

    show = "h" + uuid.uuid4().hex[:8]
    api("create_show", show=show, name="관객 예측")
    qid = api("ask_question", show=show, text="누가 이길까요?", options=["가람", "나래", "다온"])["question"]
    late = api("ask_question", show=show, text="마감된 질문", options=["예", "아니요"])["question"]
    api("close_question", show=show, question=late)

    def device() -> str:
        """A device as the audience page issues it, through nginx (each from the page, not made up)."""
        page = https_session(base).get(f"{hall}/a/{show}", timeout=10)
        assert page.status_code == 200
        return page.cookies[DEVICE_COOKIE]

    def send(to: str, cookie: str | None, form: Any, show_id: str = show) -> tuple[int, Any]:
        session = https_session(base)
        if to == hall:
            time.sleep(0.2)  # within nginx's limit of one address's predictions (5 a second)
        answer = session.post(f"{to}/a/{show_id}/predict", data=form, timeout=10,
                              headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"} if cookie is not None else {})
        return answer.status_code, answer.json()

    foreign = new_device(device_key(b"another server's secret"))
    made_up = "A" * 22 + "." + "B" * 16
    one_shot = [  # (cookie, form, show): each the same way to both
        ("device", {"question": qid, "option": "1"}, show),
        ("device", {"question": qid, "option": "2"}, show),  # a resend: the first choice, again
        (None, {"question": qid, "option": "0"}, show),
        (made_up, {"question": qid, "option": "0"}, show),
        (foreign, {"question": qid, "option": "0"}, show),
        ("device", {"question": "abc", "option": "0"}, show),
        ("device", {"question": "", "option": "0"}, show),
        ("device", {"question": "1234567890", "option": "0"}, show),
        ("device", {"option": "0"}, show),
        ("device", {"question": "99999", "option": "0"}, show),
        ("device", [("question", qid), ("question", late), ("option", "0")], show),  # which one?
        ("device", {"question": qid, "option": "0"}, "no-such-show"),
        ("device", {"question": qid, "option": "0"}, "Bad_Show"),
        ("device", {"question": qid, "option": "x"}, show),
        ("device", {"question": qid, "option": "-1"}, show),
        ("device", {"question": qid, "option": "1.0"}, show),
        ("device", {"question": qid, "option": "100"}, show),
        ("device", {"question": qid}, show),
        ("device", {"question": qid, "option": "7"}, show),  # no such option of three
        ("device", {"question": late, "option": "0"}, show),  # closed
    ]
    ways = {"server": audience, "nginx": hall}
    devices = {way: device() for way in ways}  # one device per way: the two paths change the same store
    answers: dict[str, list[Any]] = {way: [] for way in ways}
    for way, to in ways.items():
        for cookie, form, show_id in one_shot:
            answers[way].append(send(to, devices[way] if cookie == "device" else cookie, form, show_id))
    for i, ((cookie, form, show_id), by_server, by_nginx) in enumerate(zip(one_shot, answers["server"], answers["nginx"],
                                                                          strict=True)):
        assert by_server == by_nginx, (i, cookie, form, show_id, by_server, by_nginx)
    assert answers["nginx"][0] == (200, {"ok": True, "prediction": {"question": qid, "option": 1, "again": False}})
    assert answers["nginx"][1] == (200, {"ok": True, "prediction": {"question": qid, "option": 1, "again": True}})
    codes = [a[1].get("error", {}).get("code") for a in answers["nginx"][2:]]
    assert codes == ["crowd/no_device"] * 3 + ["crowd/no_such_question"] * 8 + ["crowd/bad_option"] * 6 + ["crowd/closed"]
    assert all(a[1]["error"]["ko"] and a[1]["error"]["en"] for a in answers["nginx"][2:])

    # The device's rate limit (4 in 30 s, this server's setting): the fifth answer is "too many",
    # the same both ways (the device's earlier sends above count too).
    limited = {}
    for way, to in ways.items():
        cookie = device()
        within_one_window(30)
        limited[way] = [send(to, cookie, {"question": qid, "option": "0"}) for _ in range(5)]
    assert limited["server"] == limited["nginx"]
    assert [a[0] for a in limited["nginx"]] == [200] * 4 + [429]
    assert limited["nginx"][4][1]["error"]["code"] == "rate/limited" and limited["nginx"][4][1]["error"]["values"] == {
        "seconds": 30}
    # nginx keeps its windows in its own memory: none of its counts is a key in Redis (written to
    # the append-only file, fsynced, deleted again), where the server's are.
    store = redis.Redis.from_url(servers[0].env["REDIS_URL"], decode_responses=True)
    assert store.keys(f"ref:rate:crowd-dev:{devices['server']}:*")
    assert not store.keys(f"ref:rate:crowd-dev:{devices['nginx']}:*")

    # Counted once per device, whichever way it came: the console's counts are the accepted ones.
    counts = api_counts(staff, url, show, qid)
    assert counts == [1 + 1, 1 + 1, 0], counts  # each way's first device (option 1), its limited one (option 0)

    # nginx answered the predictions itself: none reached a referee process.
    logged = [line for line in (base / "referee-hall-access.log").read_text().splitlines() if "/predict " in line]
    assert logged and all(line.split()[-1] == "-" for line in logged), logged[:3]

    # One address sending faster than phones do (a script): nginx holds it at five a second after
    # a burst, with the server's kind of answer, and nothing more is counted.
    cookie = device()
    burst = [https_session(base).post(
        f"{hall}/a/{show}/predict", data={"question": qid, "option": "2"}, headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"},
        timeout=10) for _ in range(40)]
    held = [a for a in burst if a.status_code == 429]
    assert held and all(a.json()["error"]["code"] == "rate/limited" and a.json()["error"]["ko"] for a in held)
    assert api_counts(staff, url, show, qid)[2] <= 1


def api_counts(staff: requests.Session, url: str, show: str, qid: str) -> list[int]:
    snapshot = staff.get(f"{url}/api/shows/{show}", headers={"X-Staff-Pin": "4321"}, timeout=30).json()["snapshot"]
    return next(q["counts"] for q in snapshot["crowd"]["questions"] if q["id"] == qid)


def test_nginx_sends_the_predictions_that_arrive_together_to_redis_as_one_pipeline(tmp_path):
    """hall.lua's group commit: the predictions a worker gathers (here for a second) reach Redis
    as one pipeline (one fsync for all), each its own script in the order it came (a device's
    second send in the same batch is answered with its first choice) and timed as it arrived,
    not as it ran: the board's tie-break does not depend on the batch. After Redis lost its
    scripts (SCRIPT FLUSH), the next batch loads the script and runs all."""
    with nginx_in_front(tmp_path, env={"REFEREE_HALL_GATHER_MS": "1000"}) as (url, servers, base, _plain, hall):
        staff = https_session(base)
        show = "h" + uuid.uuid4().hex[:8]
        assert staff.post(f"{url}/api/create_show", json={"show": show, "name": "묶음"},
                          headers={"X-Staff-Pin": "4321"}, timeout=30).json()["ok"]
        qid = staff.post(f"{url}/api/ask_question", json={"show": show, "text": "누가?", "options": ["가", "나", "다"]},
                         headers={"X-Staff-Pin": "4321"}, timeout=30).json()["question"]
        key = bytes.fromhex(json.loads((base / "hall.json").read_text())["device_key"])
        store = redis.Redis.from_url(servers[0].env["REDIS_URL"], decode_responses=True)

        def batch(sends: list[tuple[str, int]]) -> tuple[list[Any], list[float], list[float]]:
            """Each send from its own thread, 25 ms after the one before: the answers, when each
            was sent and when its answer came."""
            answers: list[Any] = [None] * len(sends)
            sent, came = [0.0] * len(sends), [0.0] * len(sends)

            def one(i: int, cookie: str, option: int) -> None:
                session = https_session(base)
                session.get(f"{hall}/healthz", timeout=10)  # its TLS handshake before the clock starts
                sent[i] = time.monotonic()
                answer = session.post(f"{hall}/a/{show}/predict", data={"question": qid, "option": str(option)},
                                      headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"}, timeout=10)
                came[i], answers[i] = time.monotonic(), (answer.status_code, answer.json())
            threads = [threading.Thread(target=one, args=(i, cookie, option))
                       for i, (cookie, option) in enumerate(sends)]
            for t in threads:
                t.start()
                time.sleep(0.025)
            for t in threads:
                t.join()
            return answers, sent, came

        devices = [new_device(key) for _ in range(8)]
        answers, sent, came = batch([(d, i % 3) for i, d in enumerate(devices)] + [(devices[0], 2)])
        assert min(came) > max(sent)  # every answer waited for the batch: none came before the last send
        assert answers[:-1] == [(200, {"ok": True, "prediction": {"question": qid, "option": i % 3, "again": False}})
                                for i in range(8)]
        assert answers[-1] == (200, {"ok": True, "prediction": {"question": qid, "option": 0, "again": True}})
        # Redis ran them together, yet each is timed as it arrived: as far apart as they were sent.
        times = [int(store.hget(f"ref:crowd:{show}:t:{qid}", d)) for d in devices]
        for i in range(1, 8):
            assert abs((times[i] - times[0]) - 1000 * (sent[i] - sent[0])) < 60, (times, sent)

        store.script_flush()
        later = [new_device(key) for _ in range(4)]
        answers, _, _ = batch([(d, 1) for d in later])
        assert [a[1]["prediction"]["again"] for a in answers] == [False] * 4, answers
        wait_until(lambda: api_counts(staff, url, show, qid) == [3, 3 + 4, 2], timeout=10,
                   what="the counts (a tick old at most)")


def test_while_redis_answers_nobody_a_prediction_waits_only_hall_lua_s_timeout(proxied):
    """hall.lua gives Redis 2 s to answer, then the phone hears the server's error and sends
    again (nothing half-counted: the script runs whole or not at all, a resend is "again").
    Found in the hall's error log: with Debian's lua-nginx-redis the timeouts were never set
    (its one method is set_timeout; set_timeouts went to Redis as a command, an error logged on
    every connection) and a prediction waited for a silent Redis as long as it stayed silent."""
    url, servers, base, _plain, hall = proxied
    staff = https_session(base)
    show = "h" + uuid.uuid4().hex[:8]
    assert staff.post(f"{url}/api/create_show", json={"show": show, "name": "멈춤"},
                      headers={"X-Staff-Pin": "4321"}, timeout=30).json()["ok"]
    qid = staff.post(f"{url}/api/ask_question", json={"show": show, "text": "누가?", "options": ["가", "나"]},
                     headers={"X-Staff-Pin": "4321"}, timeout=30).json()["question"]
    phone = https_session(base)
    assert phone.get(f"{hall}/a/{show}", timeout=10).ok  # its device, from the page
    assert phone.post(f"{hall}/a/{show}/predict", data={"question": qid, "option": "0"}, timeout=10).json()["ok"]
    store = redis.Redis.from_url(servers[0].env["REDIS_URL"])
    store.execute_command("CLIENT", "PAUSE", 6000, "ALL")  # Redis reads nobody's commands for 6 s
    try:
        t0 = time.monotonic()
        answer = phone.post(f"{hall}/a/{show}/predict", data={"question": qid, "option": "1"}, timeout=15)
        waited = time.monotonic() - t0
    finally:
        store.execute_command("CLIENT", "UNPAUSE")
    assert answer.status_code == 500 and answer.json()["error"]["code"] == "server/error", answer.text
    assert waited < 4, waited
    again = phone.post(f"{hall}/a/{show}/predict", data={"question": qid, "option": "1"}, timeout=10).json()
    assert again == {"ok": True, "prediction": {"question": qid, "option": 0, "again": True}}, again
    log = (base / "hall" / "error.log").read_text()
    assert "closed socket" not in log, log[-2000:]


def test_hall_config_holds_the_devices_key_and_never_the_servers_secret(tmp_path):
    """nginx's settings carry the key derived for device ids: not the secret that signs the
    players' links; the file is its owner's alone."""
    secret = uuid.uuid4().hex
    out = tmp_path / "hall.json"
    env = {**os.environ, "REDIS_URL": "redis://referee:pw@127.0.0.1:6390/2", "REFEREE_SECRET_KEY": secret}
    subprocess.run([sys.executable, "-m", "referee.cli", "hall-config", "-o", str(out)], check=True, env=env,
                   capture_output=True)
    text = out.read_text()
    config = json.loads(text)
    assert secret not in text and config["device_key"] == device_key(secret.encode()).hex()
    assert config["redis"] == {"host": "127.0.0.1", "port": 6390, "username": "referee", "password": "pw", "db": 2}
    assert out.stat().st_mode & 0o777 == 0o600
    assert config["gather_ms"] == 20  # deploy's: hall.GATHER_MS

    # How long nginx gathers predictions: a number of milliseconds, or a clear refusal and no file.
    for given, wanted in (("5", 5), ("0", 0)):
        subprocess.run([sys.executable, "-m", "referee.cli", "hall-config", "-o", str(out)], check=True,
                       env={**env, "REFEREE_HALL_GATHER_MS": given}, capture_output=True)
        assert json.loads(out.read_text())["gather_ms"] == wanted
    out.unlink()
    for bad in ("abc", "-1", "5000"):
        run = subprocess.run([sys.executable, "-m", "referee.cli", "hall-config", "-o", str(out)],
                             env={**env, "REFEREE_HALL_GATHER_MS": bad}, capture_output=True, text=True)
        assert run.returncode != 0 and "REFEREE_HALL_GATHER_MS" in run.stderr and "밀리초" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr and not out.exists()


def test_a_hall_address_that_is_no_address_is_refused_before_the_server_starts(tmp_path):
    """REFEREE_HALL_URL is where the projector's QR sends the hall: anything but https://host[:port]
    stops `referee serve` at once, in both languages, before it serves anything."""
    for bad in ("192.168.1.20:8443", "https://venue.local:8443/a", "ftp://venue.local", "https://", "https://a b"):
        run = subprocess.run([sys.executable, "-m", "referee.cli", "serve", "--port", str(free_port()),
                              "--data-dir", str(tmp_path / "data")], env={**os.environ, "REFEREE_HALL_URL": bad},
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "REFEREE_HALL_URL" in run.stderr and "형식" in run.stderr, (bad, run.stderr)
        assert "Traceback" not in run.stderr and "serving" not in run.stdout + run.stderr


def test_a_phone_in_chromium_predicts_through_nginx(proxied, browser):
    """The audience page over HTTPS through deploy's nginx: the phone takes its questions from
    nginx's channel (nchan: no socket to the referee's processes), taps, confirms, gets its
    receipt from hall.lua, and the console counts it; a second tap is not offered. Resolved,
    the phone shows right and its point; its nickname reaches the board. The address typed on
    the room's nginx (without the hall's port) lands on the hall's own. Chromium speaks HTTP/2
    to the hall, as a phone's browser does: its channel and its prediction are streams of one
    connection (no TLS handshake a prediction)."""
    url, _servers, base, _plain, hall = proxied
    staff = https_session(base)
    pin = {"X-Staff-Pin": "4321"}
    show = "h" + uuid.uuid4().hex[:8]
    assert staff.post(f"{url}/api/create_show", json={"show": show, "name": "관객"}, headers=pin, timeout=30).json()["ok"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  ignore_https_errors=True)
    errors: list[str] = []
    asked: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda request: asked.append(request.url))
        page.goto(f"{url}/a/{show}")
        assert page.url == f"{hall}/a/{show}", page.url  # the room's nginx sent it to the hall's
        page.wait_for_selector("#conn[data-state=online]")
        page.fill("#nick-input", "별빛관객")
        page.click("#nick-form [type=submit]")
        page.wait_for_selector("#nick-form", state="hidden")
        qid = staff.post(f"{url}/api/ask_question", json={"show": show, "text": "누가 이길까요?", "options": ["가람", "나래"]},
                         headers=pin, timeout=30).json()["question"]
        page.wait_for_selector(f".aq-text[data-question='{qid}']")
        page.click(".aq-option[data-option='1']")
        page.click("[data-action=confirm]")
        page.wait_for_selector("[data-role=receipt]")
        assert page.locator(".aq-option[data-option='0']").is_disabled() and page.locator("#error").is_hidden()
        wait_until(lambda: api_counts(staff, url, show, qid) == [0, 1], timeout=10, what="the count (a tick old at most)")
        logged = [line for line in (base / "referee-hall-access.log").read_text().splitlines()
                  if f"/a/{show}/predict " in line]
        assert len(logged) == 1 and logged[0].split()[-1] == "-" and " 200 " in logged[0], logged
        assert f"POST /a/{show}/predict HTTP/2.0" in logged[0], logged  # (the channel is logged when it ends)
        assert staff.post(f"{url}/api/resolve_question", json={"show": show, "question": qid, "answer": [1]},
                          headers=pin, timeout=30).json()["ok"]
        page.wait_for_selector(f"[data-role=verdict][data-question='{qid}'].right")
        page.wait_for_selector("[data-role=score]:has-text('1점')")  # its point, asked of the server a moment later
        page.wait_for_selector(".aq-board li.me:has-text('별빛관객')")
        assert f"{hall}/a/{show}/live" in asked and not any("/socket.io/" in u for u in asked), asked
        assert not errors, errors
    finally:
        context.close()


class Channel:
    """What nginx's channel of a show (/a/<show>/live) sends a phone, read as a browser's
    EventSource asks for it: each message's payload, as it came."""

    def __init__(self, url: str, base: Any, show: str) -> None:
        self.heard: list[dict[str, Any]] = []
        host, port = url.removeprefix("https://").split(":")
        context = ssl.create_default_context(cafile=str(base / "tls" / "ca.crt"))
        self.sock = context.wrap_socket(socket.create_connection((host, int(port)), timeout=10), server_hostname=host)
        self.sock.sendall(f"GET /a/{show}/live HTTP/1.1\r\nHost: {host}:{port}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.sock.settimeout(None)
        self.head = threading.Event()
        self.status = ""
        threading.Thread(target=self._read, daemon=True).start()
        assert self.head.wait(10) and " 200 " in self.status, self.status

    def _read(self) -> None:
        buffer = b""
        try:
            while chunk := self.sock.recv(65536):
                buffer += chunk
                if not self.head.is_set() and b"\r\n\r\n" in buffer:
                    head, buffer = buffer.split(b"\r\n\r\n", 1)
                    self.status = head.split(b"\r\n")[0].decode()
                    self.head.set()
                # Chunked or not, each message's "data: " line holds one whole payload.
                for line in buffer.split(b"\n")[:-1]:
                    if line.startswith(b"data: "):
                        self.heard.append(json.loads(line[6:]))
                buffer = buffer.rsplit(b"\n", 1)[-1]
        except OSError:  # closed by the test
            pass
        self.head.set()

    def wait_for(self, ok: Any, what: str) -> dict[str, Any]:
        wait_until(lambda: any(ok(p) for p in self.heard), timeout=10, what=what)
        return next(p for p in self.heard if ok(p))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def test_with_the_reveal_hold_on_nginx_s_channel_says_nothing_of_a_held_reveal_until_its_release(proxied):
    """Issue 34's hold, on the hall's channel through deploy's nginx (nchan) as on /crowd
    (tests/test_crowd_live.py): the question stays open there while the boxes' opening is held,
    closes and resolves at the release; a phone that connects late gets the newest state at once."""
    _url, servers, base, _plain, hall = proxied
    players = servers[0]
    show, table = coin_show(players)
    players.ok("settings", show=show, name="reveal_hold", value="on")
    qid = players.ok("ask_question", show=show, table=table, key="coin_round")["question"]
    channel = Channel(hall, base, show)
    try:
        channel.wait_for(lambda p: p["questions"] and p["questions"][-1]["id"] == qid, "the open question, at once")
        play_to_a_held_opening(players, show, table)
        time.sleep(1.5)  # three ticks of every process's crowd ticker
        assert all(q["state"] == "open" and not q.get("answer") for p in channel.heard for q in p["questions"]), \
            channel.heard[-1]
        players.ok("release", show=show, table=table, all=True)
        resolved = channel.wait_for(lambda p: p["questions"][-1]["state"] == "resolved", "the release")
        assert resolved["questions"][-1]["answer"] == [0]
        late = Channel(hall, base, show)
        try:
            assert late.wait_for(lambda p: True, "the newest message")["seq"] == max(p["seq"] for p in channel.heard)
        finally:
            late.close()
        seqs = [p["seq"] for p in channel.heard]
        assert seqs == sorted(set(seqs)), seqs  # each change once, in order, from whichever process
    finally:
        channel.close()


def test_a_change_the_channel_missed_reaches_it_at_the_next_tick(tmp_path):
    """nginx reloading while staff open a question, or answer the last one (the show has no
    question left open, which the ticker reads anyway): the publish fails, the staff's command
    does not, and the processes' ticker publishes it again until the channel has it; every
    change once, in order."""
    heard: list[tuple[str, dict[str, Any]]] = []
    refuse = [2]  # nginx answers the first two publishes with 503

    class Publisher(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if refuse[0] > 0:
                refuse[0] -= 1
                self.send_response(503)
            else:
                heard.append((self.path, json.loads(body)))
                self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:  # noqa: N802 - as nchan's publisher: the channel's state
            body = json.dumps({"messages": 1 if heard else 0}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    nginx = ThreadingHTTPServer(("127.0.0.1", 0), Publisher)
    threading.Thread(target=nginx.serve_forever, daemon=True).start()
    server = LiveServer(tmp_path, env={"REFEREE_HALL_PUSH": f"http://127.0.0.1:{nginx.server_address[1]}/hall"}).start()
    try:
        show = "p" + uuid.uuid4().hex[:8]
        server.ok("create_show", show=show, name="관객")
        qid = server.ok("ask_question", show=show, text="누가 이길까요?", options=["가람", "나래"])["question"]
        wait_until(lambda: any(p["questions"] and p["questions"][-1]["id"] == qid for _, p in heard), timeout=10,
                   what="the question in the channel, at a later tick")
        assert refuse[0] == 0 and {path for path, _ in heard} == {f"/hall/{show}"}
        refuse[0] = 2
        server.ok("resolve_question", show=show, question=qid, answer=[1])
        wait_until(lambda: heard[-1][1]["questions"][-1]["state"] == "resolved", timeout=10, what="the answer")
        assert refuse[0] == 0 and heard[-1][1]["questions"][-1]["answer"] == [1]
        seqs = [p["seq"] for _, p in heard]
        assert seqs == sorted(set(seqs)), seqs
    finally:
        server.stop()
        nginx.shutdown()


def test_after_nginx_restarts_a_phone_that_connects_gets_the_open_question(tmp_path):
    """nginx keeps the hall's channels in memory: restarted (a venue's machine, an upgrade), it
    has no message for a phone that connects. The processes' ticker finds the channel empty and
    sends the show's state again, so a phone opening its channel then gets the open question."""
    with nginx_in_front(tmp_path) as (_url, servers, base, _plain, hall):
        players = servers[0]
        show = "r" + uuid.uuid4().hex[:8]
        players.ok("create_show", show=show, name="관객")
        qid = players.ok("ask_question", show=show, text="누가 이길까요?", options=["가람", "나래"])["question"]
        first = Channel(hall, base, show)
        try:
            first.wait_for(lambda p: p["questions"] and p["questions"][-1]["id"] == qid, "the question")
        finally:
            first.close()
        home = base / "hall"  # the hall's own nginx
        pid = int((home / "nginx.pid").read_text())
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not (home / "nginx.pid").exists(), timeout=10, what="nginx stopped")
        again = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(home / "nginx.conf"),
                                  "-p", str(home)])
        try:
            def up() -> bool:
                try:
                    return https_session(base).get(f"{hall}/healthz", timeout=1).ok
                except requests.RequestException:
                    return False

            wait_until(up, timeout=10, what="nginx again")
            late = Channel(hall, base, show)
            try:
                late.wait_for(lambda p: p["questions"] and p["questions"][-1]["id"] == qid
                              and p["questions"][-1]["state"] == "open", "the open question, sent again")
            finally:
                late.close()
        finally:
            again.terminate()
            again.wait(timeout=10)


def test_with_a_standby_nginx_acknowledges_a_prediction_once_the_replica_has_it(proxied, tmp_path):
    """A standby's Redis replicating the show's: once the processes' watch says it is there,
    nginx's prediction waits for its copy as the server's writes do (a stopped replica holds the
    answer for WAIT's 250 ms, then the show goes on alone); the replica holds every vote nginx
    acknowledged while it ran."""
    url, servers, base, _plain, hall = proxied
    primary = redis.connection.parse_url(servers[0].env["REDIS_URL"])
    replica = RedisProcess(tmp_path, "replica", f"replicaof 127.0.0.1 {primary['port']}\n"
                                                f"masterauth {primary['password']}").start()
    staff = https_session(base)
    pin = {"X-Staff-Pin": "4321"}
    try:
        show = "h" + uuid.uuid4().hex[:8]
        assert staff.post(f"{url}/api/create_show", json={"show": show, "name": "관객"}, headers=pin, timeout=30).json()["ok"]
        wait_until(lambda: staff.get(f"{url}/api/shows/{show}", headers=pin, timeout=30).json()["snapshot"]["backup"]["ready"],
                   timeout=20, what="the standby's copy ready")
        qid = staff.post(f"{url}/api/ask_question", json={"show": show, "text": "누가?", "options": ["가", "나"]},
                         headers=pin, timeout=30).json()["question"]
        time.sleep(1.2)  # each nginx worker reads the watch's word at most once a second
        votes = f"ref:crowd:{show}:v:{qid}"
        for _ in range(3):
            cookie = https_session(base).get(f"{hall}/a/{show}", timeout=10).cookies[DEVICE_COOKIE]
            answer = https_session(base).post(f"{hall}/a/{show}/predict", data={"question": qid, "option": "0"},
                                              headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"}, timeout=10)
            assert answer.json()["ok"] and replica.client().hget(votes, cookie) == "0"  # there when acknowledged
        replica.proc.send_signal(signal.SIGSTOP)
        try:
            cookie = https_session(base).get(f"{hall}/a/{show}", timeout=10).cookies[DEVICE_COOKIE]
            began = time.monotonic()
            answer = https_session(base).post(f"{hall}/a/{show}/predict", data={"question": qid, "option": "1"},
                                              headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"}, timeout=10)
            waited = time.monotonic() - began
            assert answer.json()["ok"] and waited >= 0.25, (answer.json(), waited)  # WAIT's timeout, then alone
        finally:
            replica.proc.send_signal(signal.SIGCONT)
    finally:
        replica.kill()


def test_behind_the_shipped_redis_acl_nginx_takes_predictions(tmp_path):
    """deploy/redis's ACL lets the referee's user run only the referee's commands on its own keys:
    nginx's hall.lua, with the same user, needs none that it refuses, and a typed question (no
    table log) gets its predictions both ways (its scripts were given "" for a key, which the ACL
    refused)."""
    port = free_port()
    url = make_acl(tmp_path, f"127.0.0.1:{port}")
    proc = start_redis(deploy_conf("referee.conf", tmp_path, "127.0.0.1", port), tmp_path)
    try:
        base = tmp_path / "front"
        base.mkdir()
        with nginx_in_front(base, redis_url=url) as (front, servers, base, _plain, hall):
            session = https_session(base)
            pin = {"X-Staff-Pin": "4321"}
            show = "h" + uuid.uuid4().hex[:8]
            assert session.post(f"{front}/api/create_show", json={"show": show, "name": "관객"}, headers=pin,
                                timeout=30).json()["ok"]
            qid = session.post(f"{front}/api/ask_question", json={"show": show, "text": "누가?", "options": ["가", "나"]},
                               headers=pin, timeout=30).json()["question"]
            cookie = session.get(f"{hall}/a/{show}", timeout=10).cookies[DEVICE_COOKIE]
            answers = [session.post(f"{hall}/a/{show}/predict", data={"question": qid, "option": option},
                                    headers={"Cookie": f"{DEVICE_COOKIE}={cookie}"}, timeout=10).json()
                       for option in ("1", "0")]
            assert answers == [{"ok": True, "prediction": {"question": qid, "option": 1, "again": again}}
                               for again in (False, True)], answers
            other = https_session(base).get(f"{hall}/a/{show}", timeout=10).cookies[DEVICE_COOKIE]
            straight = requests.post(f"{servers[1].url}/a/{show}/predict", data={"question": qid, "option": "0"},
                                     headers={"Cookie": f"{DEVICE_COOKIE}={other}"}, timeout=10).json()
            assert straight == {"ok": True, "prediction": {"question": qid, "option": 0, "again": False}}, straight
            assert "NOPERM" not in (base / "hall" / "error.log").read_text()
    finally:
        proc.terminate()
        proc.wait()
