"""Shared fixtures: one real embedded Redis for the session, a fresh key prefix per test."""

from __future__ import annotations

import uuid

import pytest

from referee.store import EmbeddedRedis, MemoryStore, RedisStore


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
