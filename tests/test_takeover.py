"""The whole machine gone (issue 36, docs/backup.md): the short version of bench/takeover.py.

A venue in network namespaces (the main and the standby laptops, a third machine's sentinel, the
hall's phones and projectors on the room's one address, keepalived moving it), the show running,
then every process of the main machine killed at once: the standby leads, no acknowledged move
is lost or applied twice, every client is back on its screen at the same address, and the old
main, started again, rejoins as the standby. The figures themselves are the benchmark's
(`python3 bench/takeover.py --runs 10`), never asserted here as times.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import takeover  # noqa: E402  (bench/takeover.py: the venue and its measurement)


def test_killing_the_main_machine_hands_the_show_to_the_standby_with_nothing_lost():
    why = takeover.can_make_namespaces()
    if why:
        pytest.skip(f"this machine cannot make the venue's namespaces: {why}")
    run = takeover.run_once(phones=4, after=4.0)
    print(takeover.words(1, run))
    assert run["acked"] > 0 and run["takeover_s"] is not None, run
    assert run["acked_lost"] == 0 and run["applied_twice"] == 0, run
    assert run["clients_back"] == run["clients"] == 6, run
    assert run["address_moved"] and run["old_main_rejoined"], run
    # The standby's console says the show now runs on one machine, on the standby's Redis.
    assert run["backup_after"]["ready"] is False and run["backup_after"]["primary"] == f"{takeover.NET}.2:6379", run
