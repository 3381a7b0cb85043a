"""The reveal hold holds reveals only (issue 27, item 7): with the hold on, Bridge's room stayed
at "0/2 계약 제출" on the projector while 3 of 4 contracts were in, because everything after the
first held reveal waited. Now the audience that waits sees the log up to the held reveal, then
every later action that does the same without it (Table.held): sealed submissions keep
counting, the clock goes on; what needs the reveal waits with it, and nothing of the reveal
reaches that audience before the dealer releases it."""

from __future__ import annotations

import json
import random
import uuid

from referee.kernel import Actor, Audience, RuleError
from referee.store import MemoryStore
from referee.table import Table, audience_view

from .test_programs_live import answer

DEALER = Actor.dealer()
NAMES = ["가람", "나래", "다솜", "라온"]


def bridge() -> Table:
    table = Table.create(MemoryStore(), "b", "tricky_bridge", NAMES, seed=4)
    table.start(DEALER)
    table.submit(DEALER, {"type": "confirm_rooms", "rooms": "AB|CD"})  # the referee lays both rooms' slots
    return table


def cut_before(table: Table, kind: str) -> int:
    entries = table.store.entries(table.id)
    return next(i for i, e in enumerate(entries) if e["event"]["type"] == kind)


def rooms(view: dict) -> list[tuple[int, object]]:
    return [(r["submitted"], r["contract"]) for r in view["state"]["rooms"]]


def public_of(table: Table, folded) -> dict:
    return audience_view(table.game, table.header, folded, Audience.public())


def test_the_other_rooms_contracts_keep_counting_while_a_reveal_is_held():
    table = bridge()
    mark = {"type": "mark_contract", "slots": [1, 2, 3]}
    table.submit(Actor.of_seat(0), mark)
    table.submit(Actor.of_seat(1), mark)  # room AB complete: its contracts are revealed (held)
    cut = cut_before(table, "ContractsRevealed")
    held = public_of(table, table.held(table.store.entries(table.id), cut))
    assert rooms(held) == [(2, None), (0, None)]
    table.submit(Actor.of_seat(2), mark)
    held = public_of(table, table.held(table.store.entries(table.id), cut))
    assert rooms(held) == [(2, None), (1, None)]  # room CD counts on; AB's contracts stay sealed
    assert held["turn"]["sealed"] == [3, 4]
    table.submit(Actor.of_seat(3), mark)  # room CD's reveal is held too
    held = public_of(table, table.held(table.store.entries(table.id), cut))
    assert rooms(held) == [(2, None), (2, None)]
    live = table.view(Audience.public())
    assert all(contract is not None for _, contract in rooms(live))
    # Nothing of either reveal is in the held view: the marks never reach it.
    assert '"marks"' not in json.dumps(held) and '"won"' not in json.dumps(held)
    # The versions only grow: the held stream is a subset of the live one, in order.
    assert held["version"] < live["version"]


def test_what_needs_the_held_reveal_waits_with_it():
    table = bridge()
    for seat in range(4):  # each room's two contracts split the six slots: items to distribute
        table.submit(Actor.of_seat(seat), {"type": "mark_contract", "slots": [1, 2, 3] if seat % 2 else [4, 5, 6]})
    cut = cut_before(table, "ContractsRevealed")
    before = public_of(table, table.held(table.store.entries(table.id), cut))
    # The distribution of what the contracts gave needs the reveal: deciding it again on the
    # held state is refused, so it and everything after it wait.
    owed = [d for d in table.game.turn(table.load().state).decisions if d.seat is not None]
    assert owed and all(d.move != "mark_contract" for d in owed)
    version = table.load().version
    rnd = random.Random(1)
    for _ in range(50):  # a random placement may break a rule: another one then
        try:
            table.submit(Actor.of_seat(owed[0].seat), answer(owed[0].to_json(), rnd))
            break
        except RuleError:
            continue
    assert table.load().version > version
    after = public_of(table, table.held(table.store.entries(table.id), cut))
    assert after == before


def test_a_clock_started_during_a_hold_shows_and_a_void_during_it_is_no_leak():
    table = bridge()
    mark = {"type": "mark_contract", "slots": [1, 2, 3]}
    table.submit(Actor.of_seat(0), mark)
    table.submit(Actor.of_seat(1), mark)
    cut = cut_before(table, "ContractsRevealed")
    table.clock_command(DEALER, "start", 60)
    held = public_of(table, table.held(table.store.entries(table.id), cut))
    assert held["clock"]["state"] == "running"
    table.submit(Actor.of_seat(2), mark)
    table.void(DEALER, "잘못 눌림")
    held = public_of(table, table.held(table.store.entries(table.id), cut))
    assert rooms(held) == [(2, None), (0, None)]
    assert "잘못" not in json.dumps(held, ensure_ascii=False)


def test_the_projector_counts_on_during_a_hold_through_the_service(service_on_redis):
    svc = service_on_redis
    for name in ("다", "라"):
        svc.command("add_player", show="s", name=name)
    table = svc.command("create_table", show="s", game="tricky_bridge", players=["가", "나", "다", "라"])["table"]
    svc.command("set_current", show="s", table=table)
    svc.command("settings", show="s", name="reveal_hold", value="on")
    svc.command("start", show="s", table=table)
    svc.command("move", show="s", table=table, move={"type": "confirm_rooms", "rooms": "AB|CD"})
    mark = {"type": "mark_contract", "slots": [4, 5, 6]}
    for seat in (0, 1, 2):
        svc.command("move", show="s", table=table, seat=seat, move=mark, sid=uuid.uuid4().hex)
    public = json.loads(str(svc.service.public_snapshot("s")))
    assert [r["submitted"] for r in public["table"]["state"]["rooms"]] == [2, 1]
    assert all(r["contract"] is None for r in public["table"]["state"]["rooms"])
    held = svc.service.dealer_snapshot("s")["tables"][-1]["held"]
    assert held is not None  # the console shows what waits
    svc.command("release", show="s", table=table)
    public = json.loads(str(svc.service.public_snapshot("s")))
    assert public["table"]["state"]["rooms"][0]["contract"] is not None
