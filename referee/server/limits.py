"""Rate limits on Redis, shared by every server process of a show.

Fixed windows: ``INCR`` a counter named by what is limited and the window, expire it with the
window. Failed joins and logins are limited per client address (guessing a token, a code or a
PIN is hopeless at 128 bits, and slow at 40 bits or a PIN); submissions per seat (no human
taps faster; a runaway script does).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import redis

from referee.kernel import RuleError


@dataclass(frozen=True)
class Limit:
    count: int
    seconds: int

    @staticmethod
    def parse(text: str) -> Limit:
        """``"10/60"``: 10 per 60 seconds."""
        count, _, seconds = text.partition("/")
        return Limit(int(count), int(seconds or 60))


@dataclass(frozen=True)
class Limits:
    failed_join: Limit = Limit(10, 60)  # wrong tokens, codes: per address
    failed_login: Limit = Limit(10, 60)  # wrong PINs: per address
    submit: Limit = Limit(30, 10)  # moves from one phone


class RateLimiter:
    def __init__(self, client: redis.Redis, prefix: str = "ref:") -> None:
        self.r = client
        self.p = prefix

    def _key(self, kind: str, who: str, limit: Limit) -> str:
        return f"{self.p}rate:{kind}:{who}:{int(time.time() // limit.seconds)}"

    def blocked(self, kind: str, who: str, limit: Limit) -> bool:
        """True when `who` has used up `limit` for `kind` in this window (counts nothing)."""
        used = self.r.get(self._key(kind, who, limit))
        return used is not None and int(used) >= limit.count

    def count(self, kind: str, who: str, limit: Limit) -> int:
        key = self._key(kind, who, limit)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, limit.seconds + 1)
        return int(pipe.execute()[0])

    def spend(self, kind: str, who: str, limit: Limit) -> None:
        """Count one use; raise ``rate/limited`` when this one is over the limit."""
        if self.count(kind, who, limit) > limit.count:
            raise limited(limit)


def limited(limit: Limit) -> RuleError:
    return RuleError(
        "rate/limited",
        f"요청이 너무 많습니다. {limit.seconds}초 뒤에 다시 시도하세요",
        f"Too many requests; try again in {limit.seconds} seconds",
        seconds=limit.seconds,
    )
