"""The Redis store: a list per table, appended by one Lua script against a version.

Keys (under a prefix, ``ref:`` by default): ``t:{id}:h`` the header, ``t:{id}:log`` the entries
(version = position), ``t:{id}:sid`` submission id -> version, ``tables`` the set of ids.
"""

from __future__ import annotations

import json
from typing import Any

import redis

from . import connect
from .base import Appended, Guard, encode, no_table, table_exists
from .replication import Alone

# A guard (base.Guard), where one is pending. KEYS: its key[, its counter]. ARGV: its value,
# its limit, its window. Returns nothing when it holds (the try counted), else {4, 0} (the key
# holds another value) or {5, tries} (over the limit). A try is counted only when the key holds
# (a revoked card's tries change nothing, and its socket is ended at the re-issue).
_GUARD = """
local function guard(k, a)
  if tonumber(redis.call('GET', KEYS[k]) or '0') ~= tonumber(ARGV[a]) then return {4, 0} end
  if KEYS[k + 1] then
    local used = redis.call('INCR', KEYS[k + 1])
    redis.call('EXPIRE', KEYS[k + 1], tonumber(ARGV[a + 2]) + 1)
    if used > tonumber(ARGV[a + 1]) then return {5, used} end
  end
end
"""

# KEYS: log, sids, header[, the guard's]. ARGV: expected version, sid ('' for none), number of
# entries, entries...[, the guard's]. Returns {1, version} written; {2, version} duplicate sid;
# {0, version} conflict; {3, 0} no table; the guard's refusals (nothing written).
_APPEND = _GUARD + """
if redis.call('EXISTS', KEYS[3]) == 0 then return {3, 0} end
local n = tonumber(ARGV[3])
if KEYS[4] then
  local refused = guard(4, 4 + n)
  if refused then return refused end
end
if ARGV[2] ~= '' then
  local seen = redis.call('HGET', KEYS[2], ARGV[2])
  if seen then return {2, tonumber(seen)} end
end
local len = redis.call('LLEN', KEYS[1])
if len ~= tonumber(ARGV[1]) then return {0, len} end
for i = 4, 3 + n do redis.call('RPUSH', KEYS[1], ARGV[i]) end
len = redis.call('LLEN', KEYS[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[2], ARGV[2], len) end
return {1, len}
"""

# The guard alone (Store.check): KEYS and ARGV as above, from 1.
_CHECK = _GUARD + """
return guard(1, 1) or {1, 0}
"""


def _guard_args(guard: Guard | None) -> tuple[list[str], list[Any]]:
    """A pending guard's keys and arguments for the scripts (none for a guard already made)."""
    if guard is None or not guard.pending:
        return [], []
    keys = [guard.key] + ([guard.counter] if guard.counter else [])
    return keys, [guard.value, guard.limit, guard.seconds]


def _guarded(guard: Guard | None, status: int) -> None:
    """The guard is made (it held, or the store raises what it says for its refusal)."""
    if guard is None or not guard.pending:
        return
    guard.pending = False
    if status == 4:
        raise guard.revoked
    if status == 5 and guard.over is not None:  # a counter always comes with its refusal (Guard)
        raise guard.over


class RedisStore:
    def __init__(self, client: redis.Redis, prefix: str = "ref:", replication: Alone | None = None) -> None:
        self.client = client
        self.prefix = prefix
        # With a standby, an append is acknowledged once its replica has it (replication.py).
        self.replication = replication or Alone()
        self._append = client.register_script(_APPEND)
        self._check = client.register_script(_CHECK)

    @classmethod
    def from_url(cls, url: str, prefix: str = "ref:") -> RedisStore:
        return cls(connect.client(url, decode_responses=True), prefix)

    def _key(self, table: str, part: str) -> str:
        return f"{self.prefix}t:{table}:{part}"

    def log_key(self, table: str) -> str:
        """The Redis list of a table's entries (its length is the table's version)."""
        return self._key(table, "log")

    def create(self, table: str, header: dict[str, Any]) -> None:
        if not self.client.set(self._key(table, "h"), encode(header), nx=True):
            raise table_exists(table)
        self.client.sadd(f"{self.prefix}tables", table)

    def header(self, table: str) -> dict[str, Any]:
        raw = self.client.get(self._key(table, "h"))
        if raw is None:
            raise no_table(table)
        return json.loads(raw)

    def entries(self, table: str, after: int = 0) -> list[dict[str, Any]]:
        raw = self.client.lrange(self._key(table, "log"), after, -1)
        if not raw and not self.client.exists(self._key(table, "h")):
            raise no_table(table)
        return [json.loads(r) for r in raw]

    def version(self, table: str) -> int:
        if not self.client.exists(self._key(table, "h")):
            raise no_table(table)
        return int(self.client.llen(self._key(table, "log")))

    def append(self, table: str, expected: int, entries: list[dict[str, Any]], sid: str | None = None,
               guard: Guard | None = None) -> Appended:
        guard_keys, guard_args = _guard_args(guard)
        keys = [self._key(table, "log"), self._key(table, "sid"), self._key(table, "h"), *guard_keys]
        status, version = self.replication.write(self.client, self._append, keys,
                                                 [expected, sid or "", len(entries), *map(encode, entries), *guard_args])
        if status == 3:
            raise no_table(table)
        _guarded(guard, status)
        return Appended(status == 1, int(version), duplicate=status == 2)

    def check(self, guard: Guard) -> None:
        keys, args = _guard_args(guard)
        if keys:
            _guarded(guard, self._check(keys=keys, args=args)[0])

    def tail(self, table: str, after: int, sid: str | None = None) -> tuple[list[dict[str, Any]], int | None]:
        pipe = self.client.pipeline(transaction=False)
        pipe.lrange(self._key(table, "log"), after, -1)
        if sid is not None:
            pipe.hget(self._key(table, "sid"), sid)
        raw, *seen = pipe.execute()
        if not raw and after == 0 and not self.client.exists(self._key(table, "h")):
            raise no_table(table)
        done = seen[0] if seen else None
        return [json.loads(r) for r in raw], None if done is None else int(done)

    def find_sid(self, table: str, sid: str) -> int | None:
        seen = self.client.hget(self._key(table, "sid"), sid)
        return None if seen is None else int(seen)

    def tables(self) -> list[str]:
        return sorted(self.client.smembers(f"{self.prefix}tables"))
