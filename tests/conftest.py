"""Shared fixtures: one real embedded Redis for the session, a fresh key prefix per test.

The suite runs on two processes (pytest-xdist, `-n 2 --dist loadfile` in pyproject.toml): each
module runs whole on one of them, so a module's live server and pages are shared by its tests;
each process has its own embedded Redis, temporary folders, Chromium and range of ports
(tests/live.py's free_port). The quick tier (`-m quick`, README's "Testing") is every game's
rules and the contracts: the files in QUICK.
"""

from __future__ import annotations

import uuid

import pytest

from referee.store import EmbeddedRedis, MemoryStore, RedisStore

# The quick tier: each game's rules, the contract over every game, secrecy, the stores, the
# layers, the show programs and the server's contract with real Socket.IO clients.
QUICK = {
    "test_clumsy_cats.py", "test_horror_race.py", "test_quattro.py", "test_reef.py", "test_reef_scoring.py",
    "test_the_crew.py", "test_the_crew_missions.py", "test_tricky_bridge.py", "test_tricky_coin.py",
    "test_tricky_gallery.py", "test_tricky_safari.py",
    "test_game_contract.py", "test_store_contract.py", "test_purity.py", "test_programs.py", "test_server.py",
}

# The longest modules (minutes of whole evenings in Chromium first), run before the rest so that
# the two processes end together: a long module started last would keep one waiting for the
# other. The others follow in their usual order. The order of the list is the order they start.
LONGEST = [
    "test_show_night_projector.py", "test_tricky_safari_live.py", "test_show_night_phone.py",
    "test_room_projector.py", "test_game_contract.py", "test_tricky_gallery_live.py", "test_show_night_console.py",
    "test_the_crew_live.py", "test_reef_live.py", "test_tricky_bridge_live.py", "test_clumsy_cats_live.py",
    "test_highlights.py", "test_attacks.py", "test_export.py", "test_scale_out.py", "test_horror_race_live.py",
    "test_quattro_live.py",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in QUICK or item.path.name.startswith("test_secrecy_"):
            item.add_marker(pytest.mark.quick)
    first = {name: i for i, name in enumerate(LONGEST)}
    items.sort(key=lambda item: first.get(item.path.name, len(first)))  # stable: a module's tests keep their order


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis-data")).start()
    yield server
    server.stop()


@pytest.fixture
def redis_store(redis_server) -> RedisStore:
    """A Redis store on the real embedded server, isolated from other tests by its prefix."""
    return RedisStore.from_url(redis_server.url, prefix=f"test-{uuid.uuid4().hex[:12]}:")


class ServiceOnRedis:
    """A server's Service on the embedded Redis, without sockets: what it publishes is kept in
    `sent` (namespace, room, event, payload), a fan-out runs at once, and a show "s" with the
    players 가 and 나 and a started Tricky Coin table (`table`) is set up by its staff."""

    def __init__(self, url: str) -> None:
        import redis

        from referee.server.service import Service, Staff
        from referee.server.shows import Shows

        self.client = redis.Redis.from_url(url, decode_responses=True)
        self.prefix = f"svc-{uuid.uuid4().hex[:8]}:"
        self.sent: list[tuple[str, str, str, object]] = []
        self.service = Service(self.client, Shows(self.client, b"k" * 32, self.prefix),
                               lambda namespace, room, event, payload, local=False:
                               self.sent.append((namespace, room, event, payload)),
                               lambda: "", self.prefix)
        self.staff = Staff(all_shows=True)
        self.command("create_show", show="s", name="쇼")
        for name in ("가", "나"):
            self.command("add_player", show="s", name=name)
        self.table = self.command("create_table", show="s", game="tricky_coin", players=["가", "나"])["table"]
        self.command("start", show="s", table=self.table)

    def command(self, command: str, **payload):
        return self.service.command(self.staff, command, payload)

    def link(self, player: int):
        return self.service.shows.current_links("s")[player].link


@pytest.fixture
def service_on_redis(redis_server) -> ServiceOnRedis:
    return ServiceOnRedis(redis_server.url)


@pytest.fixture(params=["memory", "redis"])
def any_store(request):
    """Each store in turn: the store contract must hold for both."""
    if request.param == "memory":
        return MemoryStore()
    return request.getfixturevalue("redis_store")


@pytest.fixture(autouse=True)
def _pages_closed(request):
    """Every page a test opened is closed after it (the browser lives for the whole run): a page
    left open keeps its timers, animations and socket going and slows every later test. Pages a
    module's fixture opened before the test (a shared stage) stay for the module's next tests."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test (Debian's, launched by Playwright)."""
    from pathlib import Path

    from .live import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

    playwright = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is required for the browser tests (scripts/setup installs it)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
