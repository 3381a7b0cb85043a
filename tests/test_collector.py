"""The server's garbage collection at quiet moments (issue 17, goal 3): no automatic full
collection, the old generation collected and frozen once the show is quiet, everything
collected again after a long quiet. Real collections in this process, a fake clock."""

from __future__ import annotations

import gc
import weakref

import pytest

from referee.server.collector import QuietCollector


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only a collection frees it


@pytest.fixture
def collector():
    threshold = gc.get_threshold()
    clock = Clock()
    keeper = QuietCollector(quiet=0.5, deep_quiet=10, deep_every=300, longest=60, clock=clock)
    keeper.install()
    yield keeper, clock
    keeper.uninstall()
    gc.unfreeze()
    gc.set_threshold(*threshold)
    gc.collect()


def old_object() -> Node:
    """A cycle that has reached the old generation."""
    node = Node()
    gc.collect(1)  # survives the young and middle generations: now old
    return node


def test_no_automatic_full_collection_after_install(collector):
    assert gc.get_threshold()[2] == 2**31 - 1
    assert gc.get_threshold()[0] > 0  # the young generation still collects by itself


def test_nothing_is_collected_while_the_show_is_busy_then_the_quiet_collection_freezes(collector):
    keeper, clock = collector
    node = old_object()
    gone = weakref.ref(node)
    del node
    keeper.busy()
    clock.now += 0.2
    assert keeper.pending() and keeper.tick() is None  # a command 0.2 s ago: not now
    assert gone() is not None
    clock.now += 0.4
    assert keeper.tick() == "quick"
    assert gone() is None  # the old cycle went
    assert gc.get_freeze_count() > 0 and not keeper.pending()
    assert keeper.tick() is None  # nothing new: nothing to do


def test_garbage_among_frozen_objects_goes_at_the_deep_collection(collector):
    keeper, clock = collector
    holder = [old_object()]
    gone = weakref.ref(holder[0])
    clock.now += 1
    assert keeper.tick() == "quick"  # the node survives (held) and is frozen
    holder.clear()
    gc.collect(1)
    clock.now += 1
    keeper.tick()
    assert gone() is not None  # frozen: the quick collections do not see it
    clock.now += 300
    assert keeper.tick() == "deep"
    assert gone() is None


def test_a_show_that_is_never_quiet_still_collects(collector):
    keeper, clock = collector
    node = old_object()
    gone = weakref.ref(node)
    del node
    for _ in range(70):
        clock.now += 1
        keeper.busy()
        if keeper.tick():
            break
    assert gone() is None and clock.now - 1000 <= 61


def test_a_process_still_sending_is_busy(collector):
    """An update that came through the Redis queue (no command in this process) still keeps
    the process busy while it allocates: its young collections count as activity."""
    keeper, clock = collector
    node = old_object()
    gone = weakref.ref(node)
    del node
    clock.now += 5  # no command for 5 s
    gc.collect(0)  # ... but the process is allocating
    assert keeper.tick() is None and gone() is not None
    clock.now += 1
    assert keeper.tick() == "quick" and gone() is None
