"""A submit flows one way (issue 35): the table commits, its subscribers react (Table.on_commit):
a program's runner makes and closes its stage tables, and the server sends every screen its
view. Nothing after the table calls back into the program from the service."""

from __future__ import annotations

import uuid

from referee.kernel import Actor
from referee.table import Table

from .conftest import ServiceOnRedis
from .evening import SURVIVAL


def survival(svc: ServiceOnRedis) -> str:
    svc.command("create_show", show="f", name="흐름")
    for name in SURVIVAL:
        svc.command("add_player", show="f", name=name)
    return svc.command("create_program", show="f", program="tricky_survival", seed=2)["table"]


def test_a_table_calls_its_subscribers_once_per_commit_with_what_it_stored(service_on_redis):
    heard: list[tuple[str, list[int]]] = []
    service = service_on_redis.service
    table = Table(service.store, service_on_redis.table, service.games,
                  on_commit=[lambda t, entries: heard.append((t.id, [e["v"] for e in entries]))])
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5}, "one")
    assert heard == [(table.id, [table.load().version])]
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5}, "one")  # a resend: applied before
    assert heard[-1] == (table.id, [])
    try:
        table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 99}, "two")
    except Exception:  # noqa: BLE001 - a refused move commits nothing
        pass
    assert len(heard) == 2


def test_a_programs_stage_table_is_made_by_its_commit_and_again_by_a_resend_after_a_crash(service_on_redis):
    svc = service_on_redis
    program = survival(svc)
    # A crash between the program's append and the stage table's making: the command is written
    # by a table with no subscribers, so no stage table is made.
    svc.command("set_current", show="f", table=program)
    bare = Table(svc.service.store, program, svc.service.games)
    sid = uuid.uuid4().hex
    bare.submit(Actor.dealer(), {"type": "open_stage", "stage": "gallery"}, sid)
    assert not any(t.startswith(f"{program}-gallery-") for t in svc.service.shows.tables("f"))
    # The console's resend (the same id) is applied once, and its commit's subscribers make the
    # table, list it in the show and send the screens their views.
    svc.sent.clear()
    again = svc.command("move", show="f", table=program, move={"type": "open_stage", "stage": "gallery"}, sid=sid)
    assert again["ack"]["duplicate"]
    gallery = next(t for t in svc.service.shows.tables("f") if t.startswith(f"{program}-gallery-"))
    assert svc.service.table(gallery).header["show"] == "f" and svc.service.table(gallery).seats == SURVIVAL
    assert any(namespace == "/public" for namespace, *_ in svc.sent)  # the projector shows the program
    # The stage table's own commits reach the screens the same way.
    svc.command("set_current", show="f", table=gallery)
    svc.sent.clear()
    svc.command("start", show="f", table=gallery)
    assert any(namespace == "/public" for namespace, *_ in svc.sent)
