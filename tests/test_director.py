"""The projector's director (issue 33): with the show's `follow` setting (on unless staff turn it
off) the projector follows the evening by itself. A stage opened goes up; a confirmed result
brings the program's board; a match started goes up unless another live match is on screen.
P (set_current) takes over at any time."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from .conftest import ServiceOnRedis
from .evening import SURVIVAL, Evening
from .test_after_show_doors import InProcess


def current(house: InProcess, show: str) -> str | None:
    return house.svc.service.shows.info(show)["current"]


def test_a_staff_member_who_never_presses_p_sees_the_projector_follow_the_program(service_on_redis: ServiceOnRedis):
    house = InProcess(service_on_redis)
    evening = Evening(house, "tricky_survival", SURVIVAL, seed=4, show="fw")
    evening.rnd = random.Random(4)
    assert house.svc.service.shows.info("fw")["settings"]["follow"] == "on"
    gallery = evening.open("gallery")
    assert current(house, "fw") == gallery  # opened: its table goes up (the join screen before its start)
    house.ok("start", show="fw", table=gallery)
    assert current(house, "fw") == gallery
    evening.play(gallery)
    assert current(house, "fw") == gallery  # the result shows on the match's own picture
    evening.confirm("gallery")
    assert current(house, "fw") == evening.program  # the stage's result moment, then the next pairing
    evening.program_decisions()
    nxt = evening.ready()[0]
    table = evening.open(nxt)
    assert current(house, "fw") == table
    # P takes over; the next event follows again.
    house.ok("set_current", show="fw", table=evening.program)
    assert current(house, "fw") == evening.program
    house.ok("start", show="fw", table=table)
    assert current(house, "fw") == table


def test_with_follow_off_the_projector_shows_only_what_staff_put_up(service_on_redis: ServiceOnRedis):
    house = InProcess(service_on_redis)
    evening = Evening(house, "tricky_survival", SURVIVAL, seed=4, show="fo")
    house.ok("settings", show="fo", name="follow", value="off")
    house.ok("set_current", show="fo", table=evening.program)
    gallery = evening.open("gallery")
    house.ok("start", show="fo", table=gallery)
    assert current(house, "fo") == evening.program


def test_a_match_started_goes_up_unless_another_live_match_is_on_screen(service_on_redis: ServiceOnRedis):
    house = InProcess(service_on_redis)
    svc = service_on_redis
    first = svc.table  # started by the fixture, before anything was on screen
    second = house.ok("create_table", show="s", game="tricky_coin", players=["가", "나"])["table"]
    house.ok("set_current", show="s", table=first)
    house.ok("start", show="s", table=second)
    assert current(house, "s") == first  # the live match on screen stays
    house.ok("finish", show="s", table=first, reason="끝")
    third = house.ok("create_table", show="s", game="tricky_coin", players=["가", "나"])["table"]
    assert current(house, "s") == third  # a new table follows on from a match that is over
    house.ok("start", show="s", table=third)
    assert current(house, "s") == third


def test_the_consoles_last_snapshot_is_of_the_newest_state_when_changes_overlap(service_on_redis: ServiceOnRedis):
    """Two changes of a show close together (a stage's result, then the projector following to
    the program's board) were two fan-outs side by side: the first read the show, the second
    read it after the projector moved and sent first, and the first's older snapshot reached the
    console last, which kept saying the stage was up (the console's monitor: "P를 누르면" for the
    table already on the projector). Here the first fan-out's send to the console is slow, as on
    a busy server; the console must still end on the newest state."""
    svc = service_on_redis
    service = svc.service
    first = svc.table
    second = svc.command("create_table", show="s", game="tricky_coin", players=["가", "나"])["table"]
    svc.command("set_current", show="s", table=first)
    service.dealer_present("s", "a-console", True)
    consoles: list[str] = []
    sending = threading.Event()
    publish = service.publish

    def slow_first_console(namespace: str, room: str, event: str, payload: Any, local: bool = False) -> None:
        if namespace == "/dealer" and event == "show":
            if not sending.is_set():
                sending.set()
                time.sleep(0.3)  # the first fan-out read the show, and takes its time to send
            consoles.append(payload["show"]["current"])
        publish(namespace, room, event, payload, local)

    workers: list[threading.Thread] = []

    def defer(task: Any) -> None:  # fan-outs as the server runs them: tasks of their own
        workers.append(threading.Thread(target=task))
        workers[-1].start()

    service.publish, service.defer = slow_first_console, defer
    service.changed("s", first)
    assert sending.wait(5)
    svc.command("set_current", show="s", table=second)  # meanwhile the projector moves
    while workers:
        workers.pop(0).join(10)
    assert consoles and consoles[-1] == second, consoles
