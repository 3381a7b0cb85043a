"""Garbage collection at quiet moments, never while a room waits on an update.

A server with a thousand audience sockets holds a few million long-lived objects. CPython's
automatic full collection walks all of them (90-115 ms at 1,000 screens, measured with
``bench/submit_to_projector.py --gc-log``), and it starts whenever allocation crosses its
threshold: in the middle of a fan-out, in front of the whole room. So:

- automatic full collections are off (the young generations still collect as usual, so
  short-lived cycles go at once);
- at a quiet moment the server collects the old generation
  and freezes what survives (``gc.freeze``): the next quiet collection only looks at what
  arrived since, a few milliseconds;
- "quiet" means no command and no young collection for ``quiet`` seconds: a process that is
  still sending an update to its screens allocates, so its young generation collects, even
  when the update came from another process through the Redis queue (no command here);
- rarely, when the show has been quiet for ``deep_quiet`` seconds, the frozen objects are
  unfrozen and collected too, so garbage that became unreachable after a freeze (a closed
  socket's cycles) does not pile up over an evening;
- a server that is never quiet still collects after ``longest`` seconds at most, and
  collects everything after ``deep_longest``.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("referee.gc")


class QuietCollector:
    """The server's garbage collection policy (see the module); `run` is its background task."""

    def __init__(self, quiet: float = 0.5, deep_quiet: float = 10.0, deep_every: float = 300.0,
                 longest: float = 60.0, deep_longest: float = 1800.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet, self.deep_quiet, self.deep_every = quiet, deep_quiet, deep_every
        self.longest, self.deep_longest = longest, deep_longest
        self.clock = clock
        now = clock()
        self.busy_at = now  # the last command or young collection
        self.collected_at = now
        self.deep_at = now

    def install(self) -> None:
        """Automatic full collections off: the young generations keep their thresholds, and each
        of their collections says the process is busy."""
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, 2**31 - 1)
        gc.callbacks.append(self._young)

    def uninstall(self) -> None:
        if self._young in gc.callbacks:
            gc.callbacks.remove(self._young)

    def _young(self, phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] < 2:
            self.busy_at = self.clock()

    def busy(self) -> None:
        self.busy_at = self.clock()

    @staticmethod
    def pending() -> bool:
        """Objects reached the old generation since it was last collected (a middle-generation
        collection has happened since)."""
        return gc.get_count()[2] > 0

    def tick(self) -> str | None:
        """Collect if now is the moment; returns what was done ("quick", "deep") or None."""
        now = self.clock()
        idle = now - self.busy_at
        since_deep = now - self.deep_at
        if (idle >= self.deep_quiet and since_deep >= self.deep_every) or since_deep >= self.deep_longest:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.deep_at = self.collected_at = now
            return "deep"
        if self.pending() and (idle >= self.quiet or now - self.collected_at >= self.longest):
            gc.collect()
            gc.freeze()
            self.collected_at = now
            return "quick"
        return None

    def run(self, sleep: Callable[[float], Any], every: float = 0.25) -> None:
        """The server's background task."""
        self.install()
        while True:
            sleep(every)
            try:
                self.tick()
            except Exception:  # never let the keeper die: the server would collect nothing
                log.exception("garbage collection failed")
