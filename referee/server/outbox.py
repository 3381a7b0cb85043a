"""Each Engine.IO socket's outgoing packets, under eventlet: a room of a thousand woken at once.

python-engineio gives every socket a queue and a writer task that waits on it. With eventlet's
own Queue one update to N screens cost 2N hub timers: each put scheduled a timer to wake its
writer, and each writer's next wait scheduled a timer for its timeout, cancelled by the next
packet. Creating, sorting, firing and cancelling those timers was about a fifth of the server's
CPU in a fan-out to 1,000 screens (py-spy; docs/performance.md, "Goal 1, ninth pass").

An Outbox is the queue engineio asks for (``put``, ``get`` with ``block`` and ``timeout``,
``task_done``, ``join``; eventlet's ``Empty``), with two differences inside:

- the writers a slice of a fan-out gave packets to are woken by one hub callback
  (``Wakeups.run``), one after the other, instead of by a timer each;
- the timeouts of waits are checked by one sweep a second (``Wakeups.sweep``) instead of a
  timer per wait. engineio waits ping interval + ping timeout (45 s by default), and a healthy
  socket gets a ping before that, so a second's precision changes nothing.

Packets leave in the order they were put, each to one reader, as from eventlet's Queue.
``install`` makes every socket of an engineio server get one (``create_queue`` is the server's
documented way to make its queues).
"""

from __future__ import annotations

import collections
import logging
import time
from typing import Any

from eventlet import hubs
from eventlet.event import Event
from eventlet.queue import Empty
from greenlet import getcurrent

log = logging.getLogger("referee.outbox")


class Wakeups:
    """The process's writers to wake and its timed waits to expire, both run in the hub."""

    SWEEP = 1.0  # seconds between checks of the waits' timeouts

    def __init__(self) -> None:
        self.due: list[Outbox] = []
        self.scheduled = False
        self.deadlines: dict[Any, float] = {}  # a reader waiting with a timeout -> its deadline
        self.sweeping = False

    def add(self, box: Outbox) -> None:
        """A box got a packet while its reader waits: one callback wakes every such reader."""
        self.due.append(box)
        if not self.scheduled:
            self.scheduled = True
            hubs.get_hub().schedule_call_global(0, self.run)

    def run(self) -> None:
        self.scheduled = False
        due, self.due = self.due, []
        for box in due:
            try:
                box.wake()
            except Exception:  # one reader's failure must not leave the others asleep
                log.exception("waking a socket's writer failed")

    def expire_at(self, reader: Any, deadline: float) -> None:
        self.deadlines[reader] = deadline
        if not self.sweeping:
            self.sweeping = True
            hubs.get_hub().schedule_call_global(self.SWEEP, self.sweep)

    def sweep(self) -> None:
        now = time.monotonic()
        for reader, deadline in list(self.deadlines.items()):
            if deadline <= now and self.deadlines.pop(reader, None) is not None:
                try:
                    reader.throw(Empty)
                except Exception:
                    log.exception("ending a socket's wait failed")
        self.sweeping = bool(self.deadlines)
        if self.sweeping:
            hubs.get_hub().schedule_call_global(self.SWEEP, self.sweep)


class Outbox:
    """One socket's queue of outgoing packets (see the module)."""

    def __init__(self, wakeups: Wakeups) -> None:
        self.wakeups = wakeups
        self.items: collections.deque[Any] = collections.deque()
        self.readers: collections.deque[Any] = collections.deque()  # green threads in get()
        self.due = False
        self.unfinished = 0
        self.finished: Event | None = None

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        """Never blocks (the queue has no bound, as engineio's)."""
        self.items.append(item)
        self.unfinished += 1
        if self.readers and not self.due:
            self.due = True
            self.wakeups.add(self)

    def wake(self) -> None:
        """In the hub: each waiting reader in turn takes a packet and runs until it waits again.
        A reader in ``readers`` is always parked in ``get``, which takes a packet when resumed;
        the bound only guards against that ever not holding."""
        self.due = False
        for _ in range(len(self.items) + len(self.readers)):
            if not (self.items and self.readers):
                break
            self.readers[0].switch()

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        if not self.items:
            if not block:
                raise Empty
            reader = getcurrent()
            deadline = None if timeout is None else time.monotonic() + timeout
            self.readers.append(reader)
            try:
                while not self.items:
                    if deadline is not None:
                        self.wakeups.expire_at(reader, deadline)
                    try:
                        hubs.get_hub().switch()
                    except Empty:
                        if not self.items:
                            raise
                        # a packet came with the timeout: it is taken, not dropped with the wait
            finally:
                self.readers.remove(reader)
                self.wakeups.deadlines.pop(reader, None)
        return self.items.popleft()

    def task_done(self) -> None:
        self.unfinished -= 1
        if self.unfinished <= 0 and self.finished is not None:
            finished, self.finished = self.finished, None
            finished.send()

    def join(self) -> None:
        """Until every packet put was taken and marked done."""
        if self.unfinished > 0:
            if self.finished is None:
                self.finished = Event()
            self.finished.wait()


def install(eio: Any) -> None:
    """Every socket the engineio server ``eio`` makes from now on gets an Outbox."""
    wakeups = Wakeups()
    eio.create_queue = lambda *args, **kwargs: Outbox(wakeups)
