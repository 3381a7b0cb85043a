"""Event stores behind one protocol: Redis (real, embedded or external) and in-memory.

The Redis parts load on first use, so importing the table runtime loads no Redis client
(the server's entry must patch the standard library before redis is imported).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .base import Appended, Guard, Store, StoreError
from .memory import MemoryStore

DEFAULT_DATA_DIR = "./referee-data"


def __getattr__(name: str) -> Any:
    if name == "EmbeddedRedis":
        from .embedded import EmbeddedRedis

        return EmbeddedRedis
    if name == "RedisStore":
        from .redis_store import RedisStore

        return RedisStore
    raise AttributeError(name)


def data_dir_from(value: str | None) -> str:
    return value or os.environ.get("REFEREE_DATA_DIR") or DEFAULT_DATA_DIR


@contextmanager
def redis_url(data_dir: str | None = None) -> Iterator[str]:
    """``REDIS_URL`` if set, else the URL of an embedded Redis on the data directory."""
    external = os.environ.get("REDIS_URL")
    if external:
        yield external
        return
    from .embedded import EmbeddedRedis

    embedded = EmbeddedRedis(data_dir_from(data_dir)).start()
    try:
        yield embedded.url
    finally:
        embedded.stop()


@contextmanager
def open_store(data_dir: str | None = None) -> Iterator[Any]:
    from .redis_store import RedisStore

    with redis_url(data_dir) as url:
        yield RedisStore.from_url(url)


__all__ = ["Appended", "EmbeddedRedis", "Guard", "MemoryStore", "RedisStore", "Store", "StoreError", "open_store", "redis_url"]
