"""Page weight (issue 13, item 12): the static files are served compressed (gzip made once, not
per request), under names that carry a hash of their content with a year-long cache, and a
page loads only the current game's pictures, fetching another game's when its view arrives.

Checked on the wire: response headers and sizes from a live server, and in Chromium which
files a phone and the projector really fetch through a flow over two tables."""

from __future__ import annotations

import gzip
import re
import uuid
from pathlib import Path

import pytest
import requests
from flask import Flask, request

from referee.server.assets import YEAR, Assets, accepts_gzip

from .live import LiveServer

ASSET = re.compile(r'(?:src|href)="(/(?:static|phone-assets|display-assets|console-assets)/[^"]+)"')
HASHED = re.compile(r"\.[0-9a-f]{12}\.(?:js|css)$")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("room-assets")).start()
    yield live
    live.stop()


def coin_show(server: LiveServer) -> tuple[str, str, list[dict]]:
    show = "w" + uuid.uuid4().hex[:8]
    server.ok("create_show", show=show, name="무게 쇼")
    for name in ("가영", "나래"):
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가영", "나래"], seed=1)["table"]
    server.ok("set_current", show=show, table=table)
    return show, table, server.snapshot(show)["links"]


def page_assets(session: requests.Session, url: str) -> list[str]:
    return ASSET.findall(session.get(url, timeout=10).text)


def test_every_asset_of_the_live_pages_is_hashed_compressed_and_cached_for_a_year(server):
    show, _table, links = coin_show(server)
    phone = requests.Session()
    urls = set(page_assets(phone, links[0]["url"]))  # follows /p/<token> to /p
    urls |= set(page_assets(requests.Session(), f"{server.url}/display/{show}"))
    assert any("socket.io.min" in u for u in urls) and any("app." in u for u in urls)
    for url in sorted(urls):
        assert HASHED.search(url), f"{url}: no content hash in the name"
        packed = requests.get(server.url + url, headers={"Accept-Encoding": "gzip"}, timeout=10, stream=True)
        body = packed.raw.read()  # the bytes on the wire, not decoded
        assert packed.status_code == 200, url
        assert packed.headers["Cache-Control"] == f"public, max-age={YEAR}, immutable", url
        assert packed.headers["Content-Encoding"] == "gzip", url
        assert packed.headers["Vary"] == "Accept-Encoding"
        assert int(packed.headers["Content-Length"]) == len(body)
        raw = requests.get(server.url + url, headers={"Accept-Encoding": "identity"}, timeout=10, stream=True)
        plain = raw.raw.read()
        assert "Content-Encoding" not in raw.headers and gzip.decompress(body) == plain, url
        assert len(body) < len(plain), url
    # The socket.io client, 46.8 KB as it was served before, goes out at under a third of that.
    client = next(u for u in urls if "socket.io.min" in u)
    sized = requests.get(server.url + client, headers={"Accept-Encoding": "gzip, deflate"}, timeout=10, stream=True)
    assert len(sized.raw.read()) < 16_000


def test_a_plain_name_is_revalidated_and_a_stale_hash_is_never_cached(server):
    plain = requests.get(f"{server.url}/static/live.js", timeout=10)
    assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache"
    etag = plain.headers["ETag"]
    again = requests.get(f"{server.url}/static/live.js", headers={"If-None-Match": etag}, timeout=10)
    assert again.status_code == 304 and again.content == b""
    # The hash of another release still gets the file, but it may not be kept under that name.
    stale = requests.get(f"{server.url}/static/live.000000000000.js", timeout=10)
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert requests.get(f"{server.url}/static/nothing.000000000000.js", timeout=10).status_code == 404
    assert requests.get(f"{server.url}/static/../app.py", timeout=10).status_code == 404
    # The phone's assets are cacheable (they used to fall under the no-store of /p pages).
    assert requests.get(f"{server.url}/phone-assets/phone.js", timeout=10).headers["Cache-Control"] == "no-cache"


def test_gzip_is_made_once_per_file_version_not_per_request(tmp_path, monkeypatch):
    (tmp_path / "a.js").write_text("let x = 1;\n" * 400)
    assets = Assets({"/static": tmp_path})
    made = []
    real = gzip.compress
    monkeypatch.setattr("referee.server.assets.gzip.compress", lambda data, **kw: made.append(1) or real(data, **kw))
    app = Flask(__name__)
    url = assets.url("/static", "a.js")
    for _ in range(5):
        with app.test_request_context(url, headers={"Accept-Encoding": "gzip"}):
            response = assets.response("/static", url.removeprefix("/static/"), request)
            assert response.headers["Content-Encoding"] == "gzip"
    assert len(made) == 1
    (tmp_path / "a.js").write_text("let y = 2;\n" * 500)  # a new version: a new hash, gzipped once more
    new = assets.url("/static", "a.js")
    assert new != url
    with app.test_request_context(new, headers={"Accept-Encoding": "gzip"}):
        assets.response("/static", new.removeprefix("/static/"), request)
    assert len(made) == 2


@pytest.mark.parametrize(("header", "ok"), [("gzip", True), ("gzip, deflate, br", True), ("br;q=1, gzip;q=0.5", True),
                                            ("gzip;q=0", False), ("identity", False), ("", False), ("*", True),
                                            ("*;q=0", False), ("deflate", False)])
def test_accept_encoding_is_read_as_written(header, ok):
    assert accepts_gzip(header) is ok


def fetched(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda req: urls.append(req.url))
    return urls


def game_files(urls: list[str]) -> set[str]:
    """The games whose pictures or shared helpers a page fetched."""
    found = set()
    for url in urls:
        match = re.search(r"/games/([a-z_]+)\.[0-9a-f]{12}\.(?:js|css)$", url)
        if match:
            found.add(match[1])
    return found


def test_a_page_loads_only_the_current_games_pictures_and_the_next_ones_when_they_come(server, browser):
    show, table, links = coin_show(server)
    server.ok("start", show=show, table=table)
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    on_phone = fetched(phone)
    phone.goto(links[0]["url"])
    phone.wait_for_selector("#decision .option[data-value='20']")
    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    on_projector = fetched(projector)
    projector.goto(f"{server.url}/display/{show}")
    projector.wait_for_selector(".panel-name")
    phone.wait_for_timeout(300)
    assert game_files(on_phone) == {"tricky_coin"}, on_phone
    assert game_files(on_projector) == {"tricky_coin"}, on_projector

    # The next match is Quattro: the phone follows its player there and the projector is put on
    # it; each fetches Quattro's pictures (and the cards they share) only now.
    server.ok("finish", show=show, table=table, reason="다음 경기")
    quattro = server.ok("create_table", show=show, game="quattro", players=["가영", "나래"], seed=3)["table"]
    server.ok("set_current", show=show, table=quattro)
    server.ok("start", show=show, table=quattro)
    server.ok("move", show=show, table=quattro, move={"type": "choose_first", "seat": 0}, sid=uuid.uuid4().hex)
    phone.wait_for_selector(".qp-hand .qc")
    projector.wait_for_selector(".qt-cand")
    assert game_files(on_phone) == {"tricky_coin", "quattro"}
    assert game_files(on_projector) == {"tricky_coin", "quattro"}
    assert sum("/static/games/quattro." in u for u in on_phone) == 1  # the shared cards, once
    phone_context.close()
    projector.close()


def test_the_files_a_page_names_exist_for_every_game(server):
    """The manifest of the lazy pages lists each game's files under hashed names that resolve."""
    show, _table, _links = coin_show(server)
    page = requests.get(f"{server.url}/display/{show}", timeout=10).text
    manifest = re.search(r"<meta name=\"game-assets\" content='([^']+)'>", page)
    assert manifest, "the projector carries its manifest of game files"
    import json

    games = json.loads(manifest[1])
    on_disk = {p.stem for p in (Path(__file__).resolve().parent.parent / "display" / "games").glob("*.js")}
    assert set(games) >= on_disk
    for files in games.values():
        for url in files["js"] + files["css"]:
            assert HASHED.search(url) and requests.get(server.url + url, timeout=10).status_code == 200
