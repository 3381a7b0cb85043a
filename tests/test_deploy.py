"""deploy/nginx/referee.conf in front of two server processes on one Redis, with a real nginx:
pages, the API, WebSocket and long-polling clients all work through it, a phone, the room's
projector and an audience screen on different transports see each other, each on its lane's
process (the players' and the audience's), and with the players' process stopped its phones are
served by the other."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from referee.server.hall import checkout_site, load_modules, push_url
from referee.store import EmbeddedRedis

from .live import Client, LiveServer, free_port, stage_key

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


@contextlib.contextmanager
def nginx_in_front(base: Path, env: dict[str, str] | None = None,
                   redis_url: str | None = None) -> Iterator[tuple[str, list[LiveServer], Path, int]]:
    """deploy/nginx/referee.conf as shipped (only its ports, certificate and log paths changed) in
    front of two server processes on one Redis (an embedded one, or `redis_url`'s), the players'
    and the audience's: yields nginx's HTTPS address, the two servers, `base` (the certificate's
    authority is base/tls/ca.crt, the access log base/referee-access.log) and nginx's plain-HTTP
    port."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is required for the deploy test (scripts/setup installs it)")
    # On a port: nginx's workers (hall.lua) reach it too.
    redis_server = None if redis_url else EmbeddedRedis(base / "redis", port=free_port()).start()
    push_port = free_port()  # where the processes publish the hall's phones' payloads (nchan)
    env = {"REDIS_URL": redis_url or redis_server.url, "REFEREE_SECRET_KEY": uuid.uuid4().hex, "REFEREE_PROXIED": "1",
           "REFEREE_HALL_PUSH": push_url(push_port), **(env or {})}
    # hall.lua's settings as deploy/README.md makes them: `referee hall-config` with the servers' settings.
    subprocess.run([sys.executable, "-m", "referee.cli", "hall-config", "-o", str(base / "hall.json")], check=True,
                   capture_output=True, env={**os.environ, **env})
    servers = []
    for name in ("a", "b"):
        (base / name).mkdir()
        servers.append(LiveServer(base / name, env=env).start())
    port, plain_port = free_port(), free_port()
    tls = base / "tls"
    subprocess.run([str(DEPLOY / "tls" / "make-venue-cert"), str(tls), "127.0.0.1", "localhost"], check=True,
                   capture_output=True)
    site = (DEPLOY / "nginx" / "referee.conf").read_text()
    site = site.replace("127.0.0.1:5001", f"127.0.0.1:{servers[0].port}")  # the players' process
    site = site.replace("127.0.0.1:5002", f"127.0.0.1:{servers[1].port}")  # the audience's
    site = re.sub(r"listen 80;", f"listen 127.0.0.1:{plain_port};", site)
    site = re.sub(r"listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;", site)
    site = site.replace("/etc/referee/tls", str(tls)).replace("/var/log/nginx/referee-access.log",
                                                             str(base / "referee-access.log"))
    (base / "site.conf").write_text(checkout_site(site, base / "hall.json", push_port))
    (base / "nginx.conf").write_text(f"""
{load_modules()}
daemon off;
pid {base}/nginx.pid;
error_log {base}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
    access_log {base}/nginx-access.log;
    client_body_temp_path {base}/body;
    proxy_temp_path {base}/proxy;
    fastcgi_temp_path {base}/fastcgi;
    uwsgi_temp_path {base}/uwsgi;
    scgi_temp_path {base}/scgi;
    include {base}/site.conf;
}}
""")
    check = subprocess.run([nginx, "-t", "-c", str(base / "nginx.conf"), "-p", str(base)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([nginx, "-c", str(base / "nginx.conf"), "-p", str(base)])
    url = f"https://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if requests.get(url + "/healthz", timeout=1, verify=str(tls / "ca.crt")).ok:
                break
        except requests.RequestException:
            time.sleep(0.1)
    try:
        yield url, servers, base, plain_port
    finally:
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
    redirects."""
    url, servers, base, plain_port = proxied
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
    # The hall's audience page and its files (the versioned URLs it names) on the audience's process.
    hall = https.get(f"{url}/a/{show}", timeout=10)
    assert hall.status_code == 200
    hall_files = re.findall(r'"(/phone-assets/audience\.[^"]+)"', hall.text)
    assert len(hall_files) == 2, hall_files
    assert all(https.get(f"{url}{path}", timeout=10).status_code == 200 for path in hall_files)
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
    assert served(access, "/display/") == served(access, "/static/") == served(access, "/a/") == {audience}
    assert served(access, "/phone-assets/audience.") == {audience}
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


def without_hall_lua(site: str) -> str:
    site, loaded = re.subn(r"# The hall's predictions are taken by nginx itself.*?zone=referee_predict[^\n]*\n\n", "", site,
                           flags=re.S)
    site, located = re.subn(r"    location ~ \^/a/\(\[\^/\]\+\)/predict\$ \{.*?location @hall_busy \{.*?\n    \}\n", "", site,
                            flags=re.S)
    assert loaded == located == 1
    return site


def test_the_compose_site_is_the_site_with_the_compose_services():
    """deploy/nginx/compose.conf is referee.conf with the compose services' names and the image's
    log path, and without hall.lua (the image has no Lua module: the hall's predictions go to
    the audience's process): the two do not drift apart."""
    site = without_hall_lua((DEPLOY / "nginx" / "referee.conf").read_text())
    compose = (DEPLOY / "nginx" / "compose.conf").read_text()
    expected = (site.replace("127.0.0.1:5001", "referee-1:5001").replace("127.0.0.1:5002", "referee-2:5002")
                .replace("/var/log/nginx/referee-access.log", "/var/log/nginx/access.log"))
    start = "# TLS:"
    assert compose[compose.index(start):] == expected[expected.index(start):]


def test_through_nginx_an_address_opening_the_audience_page_faster_than_people_do_waits(proxied):
    """Issue 34: 300 devices voted from one address in one second. A device is only an id the
    page issued (signed), and nginx lets one address open the page a burst of ten times, then
    two a second (429, nothing made); another address is not held up."""
    url, _servers, base, _plain = proxied
    https = requests.Session()
    https.verify = str(base / "tls" / "ca.crt")
    https.trust_env = False
    show = "h" + uuid.uuid4().hex[:8]
    assert https.post(f"{url}/api/create_show", json={"show": show, "name": "관객"}, headers={"X-Staff-Pin": "4321"},
                      timeout=30).json()["ok"]
    answers = [https.get(f"{url}/a/{show}", timeout=10) for _ in range(30)]
    codes = [a.status_code for a in answers]
    assert codes[:10] == [200] * 10 and codes.count(429) >= 15, codes
    assert all("ref_aud" not in a.cookies for a in answers if a.status_code == 429)  # no device made
