"""The embedded Redis keeps every acknowledged move across restarts of the data directory."""

from __future__ import annotations

import os
import signal

from referee.kernel import Actor
from referee.store import EmbeddedRedis, RedisStore
from referee.table import Table


def play_some(table: Table) -> None:
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 20}, "s1")
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 1}, "s2")


def test_restart_on_the_same_directory_resumes_the_table(tmp_path):
    server = EmbeddedRedis(tmp_path).start()
    table = Table.create(RedisStore.from_url(server.url), "t", "tricky_coin", ["A", "B"], seed=1)
    table.start(Actor.dealer())
    play_some(table)
    before = table.load().state
    server.stop()

    again = EmbeddedRedis(tmp_path).start()
    try:
        resumed = Table(RedisStore.from_url(again.url), "t")
        assert resumed.load().state == before and resumed.load().version == 3
        resumed.submit(Actor.of_seat(0), {"type": "choose_token", "token": "STOP"})
        assert resumed.load().version == 4
    finally:
        again.stop()


def test_killed_redis_loses_no_acknowledged_move(tmp_path):
    server = EmbeddedRedis(tmp_path).start()
    table = Table.create(RedisStore.from_url(server.url), "t", "tricky_coin", ["A", "B"], seed=1)
    table.start(Actor.dealer())
    play_some(table)
    os.kill(server.process.pid, signal.SIGKILL)  # no graceful shutdown: only the fsynced file remains
    server.process.wait()
    server.stop()  # this handle's use ends with its process (else `again` would not stop the new one)

    again = EmbeddedRedis(tmp_path).start()
    try:
        entries = RedisStore.from_url(again.url).entries("t")
        assert [e["event"]["type"] for e in entries] == ["table.started", "CoinPut", "CoinPut"]
        assert [e.get("sid") for e in entries[1:]] == ["s1", "s2"]
    finally:
        again.stop()
    assert again.process is None, "the restarted redis-server was left running"


def test_a_running_redis_on_the_directory_is_reused(tmp_path):
    first = EmbeddedRedis(tmp_path).start()
    try:
        second = EmbeddedRedis(tmp_path).start()
        assert second.url == first.url and second.process is None
        second.stop()  # not its own: keeps running
        assert RedisStore.from_url(first.url).client.ping()
    finally:
        first.stop()
