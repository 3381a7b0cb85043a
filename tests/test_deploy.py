"""deploy/nginx/referee.conf (the room's) and deploy/nginx/hall.conf (the hall's own) in front of
two server processes on one Redis, each a real nginx: pages, the API, WebSocket and long-polling
clients all work through them, a phone, the room's projector and an audience screen on different
transports see each other, each on its lane's process (the players' and the audience's), the
hall's page on the hall's nginx only, and with the players' process stopped its phones are
served by the other."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

import pytest
import qrcode
import qrcode.image.svg
import requests

from referee.server.hall import checkout_site, load_modules, push_url
from referee.store import EmbeddedRedis

from .live import Client, LiveServer, free_port, stage_key

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


class Front(NamedTuple):
    """deploy's two nginx in front of the processes (nginx_in_front)."""
    url: str  # the room's nginx (deploy/nginx/referee.conf), over HTTPS
    servers: list[LiveServer]  # the players' process and the audience's
    base: Path  # the certificate's authority is base/tls/ca.crt, the room's access log base/referee-access.log
    plain_port: int  # the room's nginx's plain-HTTP port
    hall: str  # the hall's own nginx (deploy/nginx/hall.conf), over HTTPS


def run_nginx(base: Path, name: str, site: str, health: str, ca: Path) -> subprocess.Popen[bytes]:
    """One nginx of `site` (an http block's contents, as deploy/nginx/ ships them), its files
    under base/name, answering `health` before it is handed back."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is required for the deploy test (scripts/setup installs it)")
    home = base / name
    home.mkdir()
    (home / "site.conf").write_text(site)
    temps = "".join(f"    {kind}_temp_path {home}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (home / "nginx.conf").write_text(f"""
{load_modules()}
daemon off;
pid {home}/nginx.pid;
error_log {home}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log {home}/access.log;
{temps}    include {home}/site.conf;
}}
""")
    check = subprocess.run([nginx, "-t", "-c", str(home / "nginx.conf"), "-p", str(home)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([nginx, "-c", str(home / "nginx.conf"), "-p", str(home)])
    for _ in range(100):
        try:
            if requests.get(health, timeout=1, verify=str(ca)).ok:
                return proc
        except requests.RequestException:
            time.sleep(0.1)
    proc.terminate()
    raise AssertionError(f"nginx {name} did not answer {health}: {(home / 'error.log').read_text()}")


@contextlib.contextmanager
def nginx_in_front(base: Path, env: dict[str, str] | None = None, redis_url: str | None = None) -> Iterator[Front]:
    """deploy/nginx/referee.conf (the room's) and deploy/nginx/hall.conf (the hall's own) as
    shipped, only their ports, certificate and log paths changed, each its own nginx, in front
    of two server processes on one Redis (an embedded one, or `redis_url`'s): the players' and
    the audience's, told the hall's address (REFEREE_HALL_URL) as deploy/README.md says."""
    # On a port: nginx's workers (hall.lua) reach it too.
    redis_server = None if redis_url else EmbeddedRedis(base / "redis", port=free_port()).start()
    push_port = free_port()  # where the processes publish the hall's phones' payloads (nchan)
    port, plain_port, hall_port = free_port(), free_port(), free_port()
    hall = f"https://127.0.0.1:{hall_port}"
    env = {"REDIS_URL": redis_url or redis_server.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex, "REFEREE_PROXIED": "1",
           "REFEREE_HALL_PUSH": push_url(push_port), "REFEREE_HALL_URL": hall, **(env or {})}
    # hall.lua's settings as deploy/README.md makes them: `referee hall-config` with the servers' settings.
    subprocess.run([sys.executable, "-m", "referee.cli", "hall-config", "-o", str(base / "hall.json")], check=True,
                   capture_output=True, env={**os.environ, **env})
    servers = []
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for name in ("a", "b"):
            (base / name).mkdir()
            servers.append(LiveServer(base / name, env=env).start())
        tls = base / "tls"
        subprocess.run([str(DEPLOY / "tls" / "make-venue-cert"), str(tls), "127.0.0.1", "localhost"], check=True,
                       capture_output=True)

        def shipped(file: str, *listens: tuple[str, str]) -> str:
            site = (DEPLOY / "nginx" / file).read_text()
            site = site.replace("127.0.0.1:5001", f"127.0.0.1:{servers[0].port}")  # the players' process
            site = site.replace("127.0.0.1:5002", f"127.0.0.1:{servers[1].port}")  # the audience's
            for shipped_listen, here in listens:
                assert site.count(shipped_listen) == 1, (file, shipped_listen)
                site = site.replace(shipped_listen, here)
            site = site.replace("/etc/referee/tls", str(tls)).replace("/var/log/nginx/", f"{base}/")
            return site.replace("https://$host:8443", f"https://$host:{hall_port}")  # the room's way to the hall

        url = f"https://127.0.0.1:{port}"
        procs.append(run_nginx(base, "room", shipped("referee.conf", ("listen 80;", f"listen 127.0.0.1:{plain_port};"),
                                                       ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")),
                               url + "/healthz", tls / "ca.crt"))
        procs.append(run_nginx(base, "hall", checkout_site(shipped("hall.conf", ("listen 8443 ssl http2;", f"listen 127.0.0.1:{hall_port} ssl http2;")),
                                                           base / "hall.json", push_port),
                               hall + "/healthz", tls / "ca.crt"))
        yield Front(url, servers, base, plain_port, hall)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)
        for server in servers:
            server.stop()
        if redis_server is not None:
            redis_server.stop()


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    with nginx_in_front(tmp_path_factory.mktemp("deploy")) as running:
        yield running


def test_through_nginx_websocket_and_polling_clients_see_each_other(proxied):
    """Over TLS through nginx: pages, the API, a WebSocket phone and a long-polling projector;
    cookies are Secure behind HTTPS; the access log holds no phone token; plain HTTP only
    redirects. The hall's page is on the hall's own nginx, which serves nothing of the room."""
    url, servers, base, plain_port, hall = proxied
    ca = str(base / "tls" / "ca.crt")
    https = requests.Session()
    https.verify = ca
    https.trust_env = False  # REQUESTS_CA_BUNDLE in the environment would replace our authority
    show = "n" + uuid.uuid4().hex[:8]
    headers = {"X-Staff-Pin": "4321"}

    def api(command: str, **payload):
        out = https.post(f"{url}/api/{command}", json=payload, headers=headers, timeout=30).json()
        assert out["ok"], out
        return out

    api("create_show", show=show, name="프록시")
    for name in ("가", "나"):
        api("add_player", show=show, name=name)
    table = api("create_table", show=show, game="tricky_coin", players=["가", "나"])["table"]
    api("start", show=show, table=table)
    links = https.get(f"{url}/api/shows/{show}", headers=headers, timeout=30).json()["snapshot"]["links"]
    assert https.get(f"{url}/display/{show}", timeout=10).status_code == 200
    snapshot = https.get(f"{url}/api/shows/{show}", headers=headers, timeout=30).json()["snapshot"]
    stage, key = urlsplit(snapshot["projector"]), stage_key(snapshot)
    assert https.get(f"{url}{stage.path}?{stage.query}", timeout=10).status_code == 200  # the room's projector
    assert https.get(f"{url}/static/vendor/socket.io.min.js", timeout=10).status_code == 200
    # The hall's audience page and its files (the versioned URLs it names) on the audience's
    # process, through the hall's own nginx, where the room's sends the address without its port.
    # An audience phone is a device of its own (its own session: the phones' sockets below keep
    # theirs to themselves).
    guest = requests.Session()
    guest.verify = ca
    guest.trust_env = False
    typed = guest.get(f"{url}/a/{show}?x=1", allow_redirects=False, timeout=10)
    assert typed.status_code == 307 and typed.headers["Location"] == f"{hall}/a/{show}?x=1", typed.headers
    page = guest.get(f"{url}/a/{show}", timeout=10)
    assert page.status_code == 200 and page.url == f"{hall}/a/{show}", page.url
    hall_files = re.findall(r'"(/phone-assets/audience\.[^"]+)"', page.text)
    assert len(hall_files) == 2, hall_files
    assert all(guest.get(f"{hall}{path}", timeout=10).status_code == 200 for path in hall_files)
    # The projector's QR and the console hand out the hall's own address (REFEREE_HALL_URL).
    assert snapshot["crowd"]["audience_url"] == f"{hall}/a/{show}"
    qr = qrcode.make(f"{hall}/a/{show}", image_factory=qrcode.image.svg.SvgPathImage, border=4).to_string()
    assert guest.get(f"{url}/display/{show}/audience.svg", timeout=10).content == qr
    # Nothing of the room on the hall's nginx: no API, no player's page or file, no console.
    for path in (f"/api/shows/{show}", f"/p/{links[0]['token']}", "/console", "/phone-assets/phone.js",
                 f"/display/{show}", "/join"):
        assert guest.get(f"{hall}{path}", headers=headers, allow_redirects=False, timeout=10).status_code == 404, path
    assert guest.post(f"{hall}/api/start", json={"show": show, "table": table}, headers=headers,
                      timeout=10).status_code == 404
    assert https.get(f"{url}/phone-assets/phone.js", timeout=10).status_code == 200
    # The card's link becomes a Secure cookie (the server knows it is behind HTTPS).
    entered = https.get(f"{url}/p/{links[1]['token']}", allow_redirects=False, timeout=10)
    assert entered.status_code == 302 and "Secure" in entered.headers["Set-Cookie"]
    plain = requests.get(f"http://127.0.0.1:{plain_port}/display/{show}", allow_redirects=False, timeout=10)
    assert plain.status_code == 301 and plain.headers["Location"].startswith("https://")

    # As the pages connect: the phone says its lane (static/live.js), the projector's is public.
    phone = Client(url + "?lane=seat", "/seat", {"token": links[0]["token"]}, http_session=https)  # WebSocket
    projector = Client(url + "?lane=public", "/public", {"show": show}, transports=("polling",),
                       http_session=https)  # sticky
    room = Client(url + "?lane=stage", "/public", {"show": show, "stage": key}, http_session=https)
    try:
        ack = phone.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 10}, "sid": "n1"})
        assert ack["ok"], ack
        for screen in (projector, room):
            seen = screen.wait_for(lambda e, p: e == "view" and p["version"] >= ack["ack"]["version"])
            assert seen["table"]["state"]["seats"][0]["box_count"] == 1
    finally:
        phone.close()
        projector.close()
        room.close()
    log = (Path(str(servers[0].data_dir)) / f"server-{servers[0].port}.log").read_text()
    assert "Traceback" not in log
    access = (base / "referee-access.log").read_text()
    assert "/p/[token]" in access
    assert all(link["token"] not in access for link in links), "a phone token in nginx's access log"
    assert key not in access and "stage=[key]" in access, "the projector link's key in nginx's access log"

    # Each lane's process, by the upstream address nginx logged: the phone's socket, the room's
    # projector's (stage), the API, the phone's and console's pages on the players'; an audience
    # screen's socket, the display page and the static files on the audience's.
    players, audience = (f"127.0.0.1:{server.port}" for server in servers)
    assert served(access, "seat") == served(access, "stage") == {players} and served(access, "public") == {audience}
    assert served(access, "/api/") == served(access, "/p/") == served(access, "/healthz") == {players}
    assert served(access, "/display/") == served(access, "/static/") == {audience}
    hall_access = (base / "referee-hall-access.log").read_text()
    assert served(hall_access, "/a/") == served(hall_access, "/phone-assets/audience.") == {audience}
    assert f"{links[0]['token']}" not in hall_access
    assert served(access, "/phone-assets/phone") == {players}  # a player's page's own files stay

    # The players' process stops (a crash, a restart): nginx sends phones to the audience's until it
    # is back, and a move still reaches the projector.
    servers[0].stop()
    phone = Client(url + "?lane=seat", "/seat", {"token": links[1]["token"]}, http_session=https)
    projector = Client(url + "?lane=public", "/public", {"show": show}, http_session=https)
    try:
        ack = phone.call("submit", {"table": table, "move": {"type": "put_coin", "coin": 5}, "sid": "n2"})
        assert ack["ok"], ack
        seen = projector.wait_for(lambda e, p: e == "view" and p["version"] >= ack["ack"]["version"])
        assert seen["table"]["state"]["seats"][1]["box_count"] == 1
    finally:
        phone.close()
        projector.close()
    after = (base / "referee-access.log").read_text()[len(access):]
    assert served(after, "seat") == {audience}, after


def served(access: str, what: str) -> set[str]:
    """The processes (nginx's last upstream address) that served the requests of nginx's access
    log for a lane's sockets (``seat``, ``public``) or under a path; not the plain-HTTP redirects,
    which no process serves."""
    out = set()
    for line in access.splitlines():
        path, upstream = line.split('"')[1].split()[1], line.split()[-1]
        if upstream == "-":
            continue
        lane = parse_qs(urlsplit(path).query).get("lane", [None])[0] if path.startswith("/socket.io/") else None
        if lane == what or path.startswith(what):
            out.add(upstream)
    return out


def test_the_hall_s_own_nginx_is_an_instance_nginx_takes_as_shipped(tmp_path):
    """deploy/nginx/hall-nginx.conf, the hall's own nginx's main file, with Debian's modules (the
    Lua module and nchan among them) and hall.conf: nginx's own check passes with only its
    paths moved here; the systemd unit runs that file and watches its pid file."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    main = (DEPLOY / "nginx" / "hall-nginx.conf").read_text()
    unit = (DEPLOY / "systemd" / "referee-hall-nginx.service").read_text()
    pid = re.search(r"^pid (\S+);", main, re.M).group(1)
    assert f"PIDFile={pid}" in unit and "-c /opt/referee/deploy/nginx/hall-nginx.conf" in unit
    tls = tmp_path / "tls"
    subprocess.run([str(DEPLOY / "tls" / "make-venue-cert"), str(tls), "127.0.0.1"], check=True, capture_output=True)
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/0", "REFEREE_SECRET_KEY": uuid.uuid4().hex}
    subprocess.run([sys.executable, "-m", "referee.cli", "hall-config", "-o", str(tmp_path / "hall.json")], check=True,
                   capture_output=True, env=env)
    site = checkout_site((DEPLOY / "nginx" / "hall.conf").read_text(), tmp_path / "hall.json")
    (tmp_path / "hall.conf").write_text(site.replace("/etc/referee/tls", str(tls))
                                        .replace("/var/log/nginx/", f"{tmp_path}/"))
    moved = {"/opt/referee/deploy/nginx/hall.conf": str(tmp_path / "hall.conf"), pid: str(tmp_path / "nginx.pid"),
             "/var/log/nginx/": f"{tmp_path}/"}
    for shipped, here in moved.items():
        assert shipped in main, shipped
        main = main.replace(shipped, here)
    (tmp_path / "main.conf").write_text(main)
    check = subprocess.run([nginx, "-t", "-c", str(tmp_path / "main.conf")], capture_output=True, text=True)
    assert check.returncode == 0 and "test is successful" in check.stderr, check.stderr


def cut(text: str, start: str, end: str) -> tuple[str, str]:
    """`text` without the part from the line that begins `start` up to `end` (kept), and that part."""
    i = text.index(start)
    j = text.index(end, i)
    return text[:i] + text[j:], text[i:j]


def test_the_compose_site_is_the_site_with_the_compose_services():
    """deploy/nginx/compose.conf is referee.conf with the compose services' names and the image's
    log path; the image has neither the Lua module nor nchan, so no hall's nginx of its own: its
    one nginx serves the hall's page itself, from the audience's process (which takes the
    predictions too), where the room's sends it to the hall's port. The two do not drift apart."""
    room = (DEPLOY / "nginx" / "referee.conf").read_text()
    compose = (DEPLOY / "nginx" / "compose.conf").read_text()
    room, redirect = cut(room, "    # The hall's phones have an nginx of their own", "    location / {")
    assert "return 307 https://$host:8443$request_uri;" in redirect
    compose, hall = cut(compose, "    # The hall's own phones (issue 28)", "    location / {")
    assert "location /a/ {" in hall and hall.count("proxy_pass http://referee_audience;") == 2
    compose, zone = cut(compose, "# The hall's phones open their page once each", "\nserver {\n    listen 80;")
    assert zone.endswith("zone=referee_hall:10m rate=2r/s;\n") and "zone=referee_hall " in hall
    expected = (room.replace("127.0.0.1:5001", "referee-1:5001").replace("127.0.0.1:5002", "referee-2:5002")
                .replace("/var/log/nginx/referee-access.log", "/var/log/nginx/access.log"))
    start = "# TLS:"
    assert compose[compose.index(start):] == expected[expected.index(start):]


def tls_session(url: str, context: ssl.SSLContext,
                session: ssl.SSLSession | None = None) -> tuple[ssl.SSLSession, bool]:
    """One request on a new TLS connection to `url`'s nginx, offering `session` (of the same
    `context`) as a browser offers its last one: the session the server handed out (its ticket
    read to the end) and whether the offered one was resumed."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname=parts.hostname, session=session) as tls:
        tls.sendall(b"GET /healthz HTTP/1.1\r\nHost: venue\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := tls.recv(4096):  # to the end: a TLS 1.3 ticket comes after the handshake
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:100]
        return tls.session, tls.session_reused


def test_a_hall_phone_resumes_its_tls_session_for_the_evening(proxied):
    """Issue 34: a full TLS handshake costs nginx more than a prediction (bench/tls_cost.py), and
    a phone connects again later in the evening (its screen asleep, its network changed). The
    hall's nginx hands out session tickets good for a show's evening (nginx's default: 5
    minutes), and a phone offering its ticket resumes; the room's nginx keeps the default (its
    few phones stay connected)."""
    url, _servers, base, _plain, hall = proxied
    phone = ssl.create_default_context(cafile=str(base / "tls" / "ca.crt"))
    first, resumed = tls_session(hall, phone)
    assert not resumed and first.has_ticket
    assert first.ticket_lifetime_hint >= 6 * 3600, first.ticket_lifetime_hint
    second, resumed = tls_session(hall, phone, first)
    assert resumed and second.ticket_lifetime_hint >= 6 * 3600
    room, _ = tls_session(url, phone)
    assert room.ticket_lifetime_hint <= 300, room.ticket_lifetime_hint


def test_the_venue_certificate_is_ecdsa_p256_for_its_names_and_keeps_an_authority_made_before(tmp_path):
    """deploy/tls/make-venue-cert: the keys are ECDSA P-256 (a full handshake, which a hall's
    phone makes after a reload of nginx, costs about two thirds of an RSA 2048 one:
    bench/tls_cost.py), the certificate names every address given and is signed by the
    authority; the keys are private. Run again over an authority of an older run (an RSA one),
    that authority stays: the staff devices already trust it."""
    def text(crt: Path) -> str:
        return subprocess.run(["openssl", "x509", "-in", str(crt), "-noout", "-text"], check=True,
                              capture_output=True, text=True).stdout

    tls = tmp_path / "tls"
    subprocess.run([str(DEPLOY / "tls" / "make-venue-cert"), str(tls), "192.168.1.20", "show.local"], check=True,
                   capture_output=True)
    for crt in ("ca.crt", "server.crt"):
        assert "id-ecPublicKey" in text(tls / crt) and "NIST CURVE: P-256" in text(tls / crt), crt
    assert "IP Address:192.168.1.20, DNS:show.local" in text(tls / "server.crt")
    verified = subprocess.run(["openssl", "verify", "-CAfile", str(tls / "ca.crt"), str(tls / "server.crt")],
                              capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert {f.name: oct(f.stat().st_mode & 0o777) for f in tls.glob("*.key")} == {"ca.key": "0o600", "server.key": "0o600"}

    older = tmp_path / "older"
    older.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=older",
                    "-keyout", str(older / "ca.key"), "-out", str(older / "ca.crt")], check=True, capture_output=True)
    trusted = (older / "ca.crt").read_bytes()
    subprocess.run([str(DEPLOY / "tls" / "make-venue-cert"), str(older), "show.local"], check=True, capture_output=True)
    assert (older / "ca.crt").read_bytes() == trusted
    assert "NIST CURVE: P-256" in text(older / "server.crt")
    assert subprocess.run(["openssl", "verify", "-CAfile", str(older / "ca.crt"), str(older / "server.crt")],
                          capture_output=True).returncode == 0


def test_through_nginx_an_address_opening_the_audience_page_faster_than_people_do_waits(proxied):
    """Issue 34: 300 devices voted from one address in one second. A device is only an id the
    page issued (signed), and nginx lets one address open the page a burst of ten times, then
    two a second (429, nothing made); another address is not held up."""
    url, _servers, base, _plain, hall = proxied
    https = requests.Session()
    https.verify = str(base / "tls" / "ca.crt")
    https.trust_env = False
    show = "h" + uuid.uuid4().hex[:8]
    assert https.post(f"{url}/api/create_show", json={"show": show, "name": "관객"}, headers={"X-Staff-Pin": "4321"},
                      timeout=30).json()["ok"]
    answers = [https.get(f"{hall}/a/{show}", timeout=10) for _ in range(30)]
    codes = [a.status_code for a in answers]
    assert codes[:10] == [200] * 10 and codes.count(429) >= 15, codes
    assert all("ref_aud" not in a.cookies for a in answers if a.status_code == 429)  # no device made
