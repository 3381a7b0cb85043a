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
