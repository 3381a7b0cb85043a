"""One way for every part to reach Redis: a plain URL (``redis://``, ``rediss://``, ``unix://``)
or a Sentinel URL, ``redis+sentinel://[:password@]host:port,host:port/db/service`` (docs/backup.md).

With Sentinel, a client asks the sentinels which Redis is the primary now and asks again when
it loses it (a takeover: the standby's replica promoted), so a show goes on from the machine
that leads without any process being told. The URL is read by python-socketio's own parser,
the one its queue between processes uses, so the queue and the commands always read the same
sentinels, database and service (never two readings of one address).
"""

from __future__ import annotations

import socket
from typing import Any
from urllib.parse import urlparse

import redis
from redis.sentinel import Sentinel, SentinelConnectionPool
from socketio.redis_manager import parse_redis_sentinel_url

SENTINEL_SCHEMES = ("redis+sentinel",)
# How long a sentinel may take to accept a connection and to answer "who is the primary?" (they
# answer at once, or are gone: redis-py's own connect timeout, 5 s, held every question through a
# pulled cable's sentinel that long).
SENTINEL_TIMEOUT = 0.5
# Through Sentinel, how long connecting to the primary and one command may take (s).
CONNECT_TIMEOUT = 1.0
COMMAND_TIMEOUT = 2.0  # a command takes milliseconds; past this its primary is gone


def is_sentinel(url: str) -> bool:
    return urlparse(url).scheme in SENTINEL_SCHEMES


def dead_peer_options() -> dict[str, Any]:
    """TCP settings for connections to a primary that may vanish without a word (a pulled
    cable closes nothing): keepalive probes after 2 s idle, 1 s apart, two unanswered end the
    connection; data unacknowledged for 3 s ends it too (TCP_USER_TIMEOUT, Linux). A blocked
    read (the Socket.IO queue's subscriber, which has no command timeout) then fails in seconds
    and its owner reconnects through the sentinels, instead of waiting for ever."""
    probes = {socket.TCP_KEEPIDLE: 2, socket.TCP_KEEPINTVL: 1, socket.TCP_KEEPCNT: 2}
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        probes[socket.TCP_USER_TIMEOUT] = 3000
    return {"socket_keepalive": True, "socket_keepalive_options": probes, "socket_connect_timeout": CONNECT_TIMEOUT}


def sentinel_options() -> dict[str, Any]:
    """The connection settings of the sentinels themselves."""
    return {"socket_timeout": SENTINEL_TIMEOUT, "socket_connect_timeout": SENTINEL_TIMEOUT}


def queue_options() -> dict[str, Any]:
    """python-socketio's queue through Sentinel: its connections as the commands' (below)."""
    return {**dead_peer_options(), "sentinel_kwargs": sentinel_options()}


class BlockingSentinelPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """Sentinel's pool with the blocking pool's limit: at its size a request waits for a
    connection instead of failing (as the server's pools do without Sentinel)."""


def sentinel_of(url: str) -> tuple[Sentinel, str, dict[str, Any]]:
    """The sentinels of a Sentinel URL, the service they watch and the primary's connection
    settings (its database, its password)."""
    sentinels, service, kwargs = parse_redis_sentinel_url(url)
    if not service:
        raise ValueError(f"A Sentinel URL names its service (…/0/referee): {url!r}")
    return Sentinel(sentinels, sentinel_kwargs=sentinel_options()), service, kwargs


def client(url: str, *, max_connections: int | None = None, blocking_timeout: float | None = None,
           **kwargs: Any) -> redis.Redis:
    """A client of the primary at `url`. `max_connections` with `blocking_timeout`: a bounded
    pool where a request waits its turn (up to `blocking_timeout` seconds)."""
    if not is_sentinel(url):
        if max_connections is None:
            return redis.Redis.from_url(url, **kwargs)
        return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=blocking_timeout, **kwargs))
    sentinel, service, primary = sentinel_of(url)
    # A machine that dies without closing its connections (power, a pulled cable) must not hold
    # a command for long: the client gives up, asks the sentinels again and reaches the new one.
    options: dict[str, Any] = {**dead_peer_options(), "socket_timeout": COMMAND_TIMEOUT, **primary, **kwargs}
    if max_connections is not None:
        options.update(connection_pool_class=BlockingSentinelPool, max_connections=max_connections,
                       timeout=blocking_timeout)
    return sentinel.master_for(service, **options)


def follow_primary(client: redis.Redis) -> str | None:
    """Through Sentinel: ask which Redis leads now (host:port). A pool whose primary changed
    drops its idle connections to the old one then (redis-py's SentinelConnectionPool does so
    when asked), so after a pulled cable, which closes nothing, no command waits out its
    timeout on a machine that is gone. None for a plain URL, or when no sentinel answers."""
    pool = client.connection_pool
    if not isinstance(pool, SentinelConnectionPool):
        return None
    try:
        host, port = pool.get_master_address()
    except redis.RedisError:
        return None
    return f"{host}:{port}"
