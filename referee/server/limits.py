"""Rate limits on Redis, shared by every server process of a show.

Fixed windows: a counter named by what is limited and the window, expiring with the window.
A try is counted *before* it is checked (``INCR`` first), so a burst of concurrent tries gets
exactly as many checks as the limit allows, never more. What is counted:

- failed joins (wrong tokens and codes) and failed logins (wrong PINs), per client address: a
  try that turns out right is given back, so only failures use up the allowance. A card's
  token (144 bits) cannot be guessed, so a valid card is never refused for other people's
  failures behind the same address (a venue behind one NAT); a short code and a PIN can be, so
  a spent address waits out its window even with the right one.
- submissions per phone (no human taps faster; a runaway script does), and what a phone asks
  for besides (a snapshot, its story): each costs the server a fold of the show.
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
    read: Limit = Limit(30, 10)  # snapshots and stories a phone asks for (sync, story): each costs the server a fold
    crowd_device: Limit = Limit(20, 10)  # predictions and nicknames from one audience phone
    # ... and from one address: a venue's phones are many addresses, but a NAT or a guest Wi-Fi
    # may put hundreds behind one.
    crowd_address: Limit = Limit(3000, 10)


class RateLimiter:
    def __init__(self, client: redis.Redis, prefix: str = "ref:") -> None:
        self.r = client
        self.p = prefix

    def key(self, kind: str, who: str, limit: Limit) -> str:
        """The counter of `who`'s tries of `kind` in the current window."""
        return f"{self.p}rate:{kind}:{who}:{int(time.time() // limit.seconds)}"

    def spend(self, kind: str, who: str, limit: Limit) -> str:
        """Count one try now; raise ``rate/limited`` when it is over the limit. Returns the
        counter's key, for ``give_back``."""
        key = self.key(kind, who, limit)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, limit.seconds + 1)
        if int(pipe.execute()[0]) > limit.count:
            raise limited(limit)
        return key

    def give_back(self, key: str) -> None:
        """A try that succeeded does not use up the allowance."""
        self.r.decr(key)


def limited(limit: Limit) -> RuleError:
    return RuleError(
        "rate/limited",
        f"요청이 너무 많습니다. {limit.seconds}초 뒤에 다시 시도하세요",
        f"Too many requests; try again in {limit.seconds} seconds",
        seconds=limit.seconds,
    )
