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
