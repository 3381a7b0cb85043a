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

A socket on a websocket goes one step further (``Wire``, issue 38): a packet put while its
writer waits idle, with nothing queued before it, is framed and handed to the kernel by whoever
put it (the fan-out), with no switch to the writer and back. A frame the kernel takes only in
part (a full send buffer: a phone out of reach) leaves its rest queued first, for the writer,
which then blocks as it always did; everything after it queues behind it.
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


class Frame(bytes):
    """A websocket frame already packed; the websocket sends it as it is (deflate.py)."""


class Rest:
    """The rest of a frame a direct write could not finish, queued for the writer, which sends
    ``encode()`` of every item it takes (engineio's websocket writer)."""

    __slots__ = ("frame",)

    def __init__(self, frame: bytes) -> None:
        self.frame = Frame(frame)

    def encode(self) -> Frame:
        return self.frame


class Wire:
    """A socket's websocket, for writing a packet to it directly (the module)."""

    __slots__ = ("engine", "fd", "ws")

    def __init__(self, ws: Any, engine: Any) -> None:
        self.ws = ws
        self.engine = engine  # engineio's socket: its transport is this websocket once upgraded
        self.fd = ws.socket.fd  # the plain (non-blocking) socket under eventlet's green one

    def write(self, item: Any) -> bytes | None:
        """Hand ``item`` to the kernel now: None when it all went, else what is left of its
        frame (all of it when nothing could go). Raises LookupError when this is no moment for
        a direct write (an upgrade, a frame being sent, a closed websocket, a broken socket): the
        item then queues for the writer, which meets whatever is wrong as it always did."""
        ws, engine = self.ws, self.engine
        if not engine.upgraded or engine.upgrading or ws.websocket_closed or ws._sendlock.locked():
            raise LookupError
        frame = ws._pack_message(item.encode())
        try:
            sent = self.fd.send(frame)
        except BlockingIOError:
            sent = 0
        except OSError:
            raise LookupError from None
        return None if sent == len(frame) else frame[sent:]


class Outbox:
    """One socket's queue of outgoing packets (see the module)."""

    def __init__(self, wakeups: Wakeups) -> None:
        self.wakeups = wakeups
        self.items: collections.deque[Any] = collections.deque()
        self.readers: collections.deque[Any] = collections.deque()  # green threads in get()
        self.due = False
        self.unfinished = 0
        self.finished: Event | None = None
        self.wire: Wire | None = None  # set once the socket has a websocket (deflate.install)
        self.waits = 0.0  # how long the waiting reader waits for a packet (its get's timeout)

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        """Never blocks (the queue has no bound, as engineio's)."""
        if self.wire is not None and self.readers and not self.items and item is not None:
            try:
                rest = self.wire.write(item)
            except LookupError:
                pass
            else:
                reader = self.readers[0]
                if reader in self.wakeups.deadlines:  # the writer's wait counts from the newest packet
                    self.wakeups.deadlines[reader] = time.monotonic() + self.waits
                if rest is None:
                    return
                item = Rest(rest)
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
            self.waits = timeout or 0.0
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
