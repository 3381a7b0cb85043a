"""The standby's copy (issue 36, docs/backup.md): what is acknowledged is on both machines.

With a standby (its Redis a replica of the primary's, Sentinel watching both), every write
that a player, the dealer or the hall is told "done" for waits, on the same connection, for a
replica to have it (Redis ``WAIT``, a short timeout). While no replica is there (the standby is
off, its cable out) the show goes on the primary alone: the first write that finds no replica
says so, later writes stop waiting, and the console says "백업 없음" until a replica is back and
caught up (``check``, every few seconds).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from redis.sentinel import SentinelConnectionPool

from .connect import follow_primary

log = logging.getLogger(__name__)

# How long an acknowledgement may wait for the replica (ms): on a venue's switch it answers in
# about a millisecond; past this the standby counts as missing.
WAIT_MS = 250
# A replica whose last acknowledgement of the stream is older than this (s) is not caught up.
MAX_LAG = 3


class Alone:
    """No standby: a write is acknowledged once the primary has it (its append-only file)."""

    ready = False

    def write(self, client: redis.Redis, script: Any, keys: list[str], args: list[Any]) -> Any:
        return script(keys=keys, args=args)

    def settle(self, mark: str) -> None:
        """Nothing to wait for without a standby."""


# Where the watch writes whether writes wait for the standby ("1") or not ("0"): deploy's nginx,
# which takes the hall's predictions itself (deploy/nginx/hall.lua), reads it to wait as these do.
READY_KEY = "ref:pair:ready"


class Replication(Alone):
    def __init__(self, client: redis.Redis, wanted: int = 1, wait_ms: int = WAIT_MS,
                 clock: Any = time.time) -> None:
        self.client = client
        self.wanted = wanted
        self.wait_ms = wait_ms
        self.clock = clock
        self._lock = threading.Lock()
        self.ready = False  # a replica is online and caught up: writes wait for it
        self.replicas = 0
        self.lag: float | None = None
        self.primary: str | None = None
        self.missing_since: float | None = clock()
        self._told: tuple[Any, ...] = ()  # the facts the consoles were last told

    # -- the writes -------------------------------------------------------------------------------

    def write(self, client: redis.Redis, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run a write `script` and, while the standby is there, wait for its copy: WAIT on the
        write's own connection (a pipeline), so it covers this write and no other."""
        if not self.ready:
            return script(keys=keys, args=args)
        pipe = client.pipeline(transaction=False)
        script(keys=keys, args=args, client=pipe)
        pipe.execute_command("WAIT", self.wanted, self.wait_ms)
        out, copies = pipe.execute()
        self.copied(int(copies))
        return out

    def settle(self, mark: str) -> None:
        """After a command whose writes went out on any of the pool's connections (a staff
        command: a setting, a release, the roster, a question): wait until the replica has all
        the primary had. WAIT covers its own connection's writes only, so it follows a write of
        its own to `mark`; the replication stream is in order, so what came before that write is
        copied before it."""
        if not self.ready:
            return
        pipe = self.client.pipeline(transaction=False)
        pipe.incr(mark)
        pipe.execute_command("WAIT", self.wanted, self.wait_ms)
        _, copies = pipe.execute()
        self.copied(int(copies))

    def copied(self, replicas: int) -> None:
        """What a write's WAIT answered: fewer replicas than wanted means the standby is gone."""
        if replicas < self.wanted:
            self._set(False, f"a write reached {replicas} of {self.wanted} replicas in {self.wait_ms} ms")

    # -- the watch ------------------------------------------------------------------------------

    def check(self) -> bool:
        """Read the primary's replication (INFO): which machine leads, how many replicas are
        online and how far behind. Whether what the consoles say of the pair (`facts`) changed since
        they were last told (a write's WAIT may have found the standby gone in between)."""
        # First the sentinels: a pool whose primary changed drops its idle connections to the
        # old one before INFO would wait out its timeout on one (a pulled cable). Sentinels that
        # give no answer this time (an election still settling) leave the primary last named: not
        # answering is not news that nobody leads.
        self.primary = self._primary() or self.primary
        info = self.client.info("replication")
        online = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)
                  and v.get("state") == "online"]
        self.replicas = len(online)
        self.lag = min((float(v.get("lag", 0)) for v in online), default=None)
        ok = info.get("role") == "master" and self.replicas >= self.wanted and (self.lag or 0) <= MAX_LAG
        self._set(ok, f"{self.replicas} replicas online, lag {self.lag}")
        if info.get("role") == "master":
            self.client.set(READY_KEY, "1" if self.ready else "0")
        told, self._told = self._told, self.facts()
        return self._told != told

    def moved(self, primary: str) -> None:
        """The sentinels name another primary (a takeover): how many replicas it has is not known
        yet, so writes stop waiting for a copy (WAIT would wait out its timeout on the first)
        until the watch finds one caught up."""
        self.primary, self.replicas, self.lag = primary, 0, None
        self._set(False, f"the primary is now {primary}")

    def _primary(self) -> str | None:
        pool = self.client.connection_pool
        if isinstance(pool, SentinelConnectionPool):  # through Sentinel: the primary it names
            return follow_primary(self.client)
        kwargs = pool.connection_kwargs
        return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"

    def _set(self, ready: bool, why: str) -> None:
        with self._lock:
            if ready == self.ready:
                return
            self.ready = ready
            self.missing_since = None if ready else self.clock()
        (log.info if ready else log.warning)("the standby's copy %s: %s", "ready" if ready else "MISSING", why)

    def facts(self) -> tuple[Any, ...]:
        """What the console says of the pair (a change of these is news to the consoles)."""
        return self.ready, self.primary, self.replicas

    def status(self) -> dict[str, Any]:
        """For the console: the pair's health in a few facts."""
        return {"wanted": self.wanted, "ready": self.ready, "replicas": self.replicas, "lag": self.lag,
                "primary": self.primary, "missing_since": self.missing_since}
