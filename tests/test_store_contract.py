"""The store contract, run against the in-memory store and the real embedded Redis."""

from __future__ import annotations

import multiprocessing
import threading
import uuid

import pytest

from referee.kernel import Actor, RuleError
from referee.store import Guard, MemoryStore, RedisStore, StoreError
from referee.table import Table

from .counter_game import GAMES

HEADER = {"kind": "header", "game": "x"}


def test_create_and_read_back(any_store):
    any_store.create("t1", HEADER)
    assert any_store.header("t1") == HEADER
    assert any_store.entries("t1") == []
    assert any_store.version("t1") == 0
    assert "t1" in any_store.tables()


def test_create_twice_is_refused(any_store):
    any_store.create("t1", HEADER)
    with pytest.raises(StoreError) as err:
        any_store.create("t1", {"other": 1})
    assert err.value.code == "store/table_exists"
    assert any_store.header("t1") == HEADER


def test_unknown_table(any_store):
    for read in (any_store.header, any_store.entries, any_store.version):
        with pytest.raises(StoreError) as err:
            read("nope")
        assert err.value.code == "store/no_table"
    with pytest.raises(StoreError):
        any_store.append("nope", 0, [{"v": 1}])


def test_append_against_expected_version(any_store):
    any_store.create("t1", HEADER)
    first = any_store.append("t1", 0, [{"v": 1}, {"v": 2}])
    assert (first.ok, first.version) == (True, 2)
    stale = any_store.append("t1", 0, [{"v": 1, "late": True}])
    assert (stale.ok, stale.duplicate, stale.version) == (False, False, 2)
    assert any_store.entries("t1") == [{"v": 1}, {"v": 2}]
    assert any_store.entries("t1", after=1) == [{"v": 2}]


def test_submission_id_applies_once(any_store):
    any_store.create("t1", HEADER)
    assert any_store.append("t1", 0, [{"v": 1}], sid="abc").ok
    again = any_store.append("t1", 1, [{"v": 2}], sid="abc")
    assert (again.ok, again.duplicate, again.version) == (False, True, 1)
    assert any_store.find_sid("t1", "abc") == 1
    assert any_store.find_sid("t1", "other") is None
    assert any_store.version("t1") == 1


def test_unicode_round_trip(any_store):
    any_store.create("t1", {"seats": ["김철수", "이영희"]})
    any_store.append("t1", 0, [{"note": "가품 스티커"}])
    assert any_store.header("t1")["seats"] == ["김철수", "이영희"]
    assert any_store.entries("t1") == [{"note": "가품 스티커"}]


def test_what_is_kept_reads_back_exactly_even_where_the_fast_encoder_gives_up(any_store):
    """Entries are written by orjson, and by the standard library where orjson refuses (an
    integer beyond 64 bits): either way the same compact, sorted JSON, read back exactly."""
    from referee.store.base import encode

    entry = {"z": 2**70, "a": [1.5, -(2**63), None, True], "이름": "가품", "n": {"b": 1, "a": 2}}
    assert encode(entry) == '{"a":[1.5,-9223372036854775808,null,true],"n":{"a":2,"b":1},"z":1180591620717411303424,"이름":"가품"}'
    assert encode({"a": 1, "b": [2, "다"]}) == '{"a":1,"b":[2,"다"]}'
    any_store.create("t1", {"seed": 2**64 + 1})
    any_store.append("t1", 0, [entry])
    assert any_store.header("t1")["seed"] == 2**64 + 1
    back = any_store.entries("t1")[0]
    assert back == entry and isinstance(back["z"], int)


def _assert_gapless(store, table, expected_ticks):
    entries = store.entries(table)
    assert [e["v"] for e in entries] == list(range(1, len(entries) + 1))
    ticks = [e for e in entries if e["event"]["type"] == "Ticked"]
    assert len(ticks) == expected_ticks
    sids = [e["sid"] for e in ticks]
    assert len(set(sids)) == len(sids)
    return ticks


def test_concurrent_submissions_from_threads_land_once(any_store):
    Table.create(any_store, "race", "counter", [f"p{i}" for i in range(8)], games=GAMES).start(Actor.dealer())
    per_seat = 25

    def phone(seat: int) -> None:
        table = Table(any_store, "race", GAMES)  # each phone its own runtime, like separate requests
        for i in range(per_seat):
            sid = f"{seat}-{i}"
            table.submit(Actor.of_seat(seat), {"type": "tick", "by": 1}, sid)
            table.submit(Actor.of_seat(seat), {"type": "tick", "by": 1}, sid)  # the resend after a reconnect

    threads = [threading.Thread(target=phone, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _assert_gapless(any_store, "race", 8 * per_seat)
    assert Table(any_store, "race", GAMES).load().state == (per_seat,) * 8


def _process_phone(url: str, prefix: str, seat: int, count: int) -> None:
    table = Table(RedisStore.from_url(url, prefix), "race", GAMES)
    for i in range(count):
        table.submit(Actor.of_seat(seat), {"type": "tick", "by": 1}, f"proc-{seat}-{i}")


def test_concurrent_submissions_from_two_processes_land_once(redis_server):
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    store = RedisStore.from_url(redis_server.url, prefix)
    Table.create(store, "race", "counter", ["a", "b"], games=GAMES).start(Actor.dealer())
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_process_phone, args=(redis_server.url, prefix, s, 60)) for s in (0, 1)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    _assert_gapless(store, "race", 120)
    assert Table(store, "race", GAMES).load().state == (60, 60)


def test_tail_reads_what_came_after_and_where_a_submission_landed(any_store):
    any_store.create("t", {"game": "x"})
    any_store.append("t", 0, [{"v": 1}, {"v": 2}], "s1")
    any_store.append("t", 2, [{"v": 3}], None)
    assert any_store.tail("t", 1, "s1") == ([{"v": 2}, {"v": 3}], 2)
    assert any_store.tail("t", 3, "nope") == ([], None)
    assert any_store.tail("t", 0) == ([{"v": 1}, {"v": 2}, {"v": 3}], None)


class CountingStore:
    """A store that counts its reads (tail) and appends, around a real one."""

    def __init__(self, inner) -> None:
        self.inner, self.tails, self.appends = inner, 0, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def tail(self, *args, **kwargs):
        self.tails += 1
        return self.inner.tail(*args, **kwargs)

    def append(self, *args, **kwargs):
        self.appends += 1
        return self.inner.append(*args, **kwargs)


def test_a_runtime_decides_on_its_own_fold_first_and_a_stale_one_is_never_wrong(any_store):
    """A process decides a move on the state it has folded, without reading the log first; the
    append goes through only if the log is still at that version. A process whose fold is stale
    (another one wrote meanwhile) is refused by the store, reads, and decides again: a resend is
    recognised, a move the new state forbids is refused by the rules, and a move that only the
    new state allows is accepted."""
    here, there = CountingStore(any_store), CountingStore(any_store)
    Table.create(here, "c", "tricky_coin", ["가", "나"]).start(Actor.dealer())
    a, b = Table(here, "c"), Table(there, "c")
    a.load(), b.load()
    reads = here.tails
    first = a.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5}, "s1")
    assert (here.tails, here.appends) == (reads, 2)  # no read: decided on its own fold (the start, then this)
    assert a.cached_version == first.version  # and its fold holds what it wrote, before any read

    again = b.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 10}, "s1")  # b's fold is stale
    assert again.duplicate and again.version == first.version
    with pytest.raises(RuleError) as err:  # legal on b's stale fold, not on the log
        b.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 10}, "s2")
    assert err.value.code == "move/not_owed"
    assert any_store.version("c") == first.version

    a.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 1}, "s3")  # both in: GO/STOP
    token = b.submit(Actor.of_seat(0), {"type": "choose_token", "token": "STOP"}, "s4")  # illegal on b's fold
    assert not token.duplicate and any_store.version("c") == token.version
    assert Table(any_store, "c").load().state == b.load().state
    assert Table(any_store, "c").load().state.tokens[0] == "STOP"


def test_a_guard_is_checked_in_the_appends_own_step_and_counted_once(redis_store):
    """A phone's move carries a guard (its link still current, its rate limit) that the Redis
    store checks inside the append's script: nothing is written when it fails, and a try is
    counted once, however many times a conflict makes the append run again."""
    client, p = redis_store.client, redis_store.prefix
    redis_store.create("t", {"game": "g"})
    client.set(f"{p}link", 2)

    def guard(value: int) -> Guard:
        return Guard(f"{p}link", value, LookupError("revoked"), f"{p}tries", 2, 10, OverflowError("over"))

    stale = guard(1)
    with pytest.raises(LookupError):
        redis_store.append("t", 0, [{"v": 1}], "s0", stale)
    assert redis_store.version("t") == 0 and not stale.pending
    assert client.get(f"{p}tries") is None  # a revoked link's try is not counted

    first = guard(2)
    conflict = redis_store.append("t", 5, [{"v": 1}], "s1", first)  # a stale fold: refused, guard made
    assert (conflict.ok, conflict.version, first.pending) == (False, 0, False)
    assert redis_store.append("t", 0, [{"v": 1}, {"v": 2}], "s1", first).ok  # the same try, decided again
    assert client.get(f"{p}tries") == "1" and 0 < client.ttl(f"{p}tries") <= 11

    redis_store.check(second := guard(2))  # a try that ends without an append (a resend, a refusal)
    redis_store.check(second)  # made already: nothing counted
    assert client.get(f"{p}tries") == "2" and not second.pending
    with pytest.raises(OverflowError):
        redis_store.append("t", 2, [{"v": 3}], "s2", guard(2))
    assert redis_store.entries("t") == [{"v": 1}, {"v": 2}] and redis_store.find_sid("t", "s2") is None
    with pytest.raises(LookupError):
        redis_store.check(guard(3))
    assert redis_store.append("t", 2, [{"v": 3}], "s2").ok  # no guard: the staff's commands


def test_the_memory_store_refuses_a_guard_it_cannot_check():
    store = MemoryStore()
    store.create("t", {})
    for attempt in (lambda g: store.append("t", 0, [{"v": 1}], None, g), store.check):
        with pytest.raises(StoreError) as err:
            attempt(Guard("k", 1, LookupError()))
        assert err.value.code == "store/no_guards"
    assert store.version("t") == 0
