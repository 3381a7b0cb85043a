"""Corrections and the show clock in the table runtime (issue 12, items 5 and 8): voiding an
older action applies the later moves again where they do exactly what they did; the start can
be undone before the first move; a void shows as a correction to those who saw what it undid;
a move the dealer entered for a seat is told to that seat; the clock's commands are logged."""

from __future__ import annotations

import json

import pytest

from referee.kernel import Actor, Audience, RuleError
from referee.store import MemoryStore
from referee.table import Table
from referee.table.replay import frames

DEALER = Actor.dealer()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def coin_table(clock: Clock | None = None) -> Table:
    table = Table.create(MemoryStore(), "c", "tricky_coin", ["가람", "나래"], seed=1, clock=clock or Clock())
    table.start(DEALER)
    return table


def put(table: Table, seat: int, coin: int, actor: Actor | None = None) -> int:
    return table.submit(actor or Actor.of_seat(seat), {"type": "put_coin", "coin": coin}).action


def test_voiding_an_older_action_applies_the_later_moves_again():
    table = coin_table()
    first = put(table, 0, 20)
    later = put(table, 1, 5)
    plan = table.void_plan(first)
    assert plan["target"]["who"]["ko"] == "1번 가람" and "20" in plan["target"]["what"]["ko"]
    assert [r["action"] for r in plan["reapplied"]] == [later] and plan["conflicts"] == []
    table.void(DEALER, "1번이 코인을 잘못 넣음", first)
    state = table.load().state
    assert state.boxes == ((), (5,))  # seat 1's move stands, applied again
    assert first not in table.load().live_actions and later not in table.load().live_actions
    put(table, 0, 10)  # the seat puts the right coin now
    assert table.load().state.step == "token"


def test_a_later_move_that_is_no_longer_legal_is_listed_and_stays_voided():
    table = coin_table()
    put(table, 0, 20)
    put(table, 1, 5)
    table.submit(Actor.of_seat(0), {"type": "choose_token", "token": "GO"})
    table.submit(Actor.of_seat(1), {"type": "choose_token", "token": "STOP"})
    second = put(table, 0, 20)  # seat 0's second (and last) 20
    first = table.load().live_actions[1]
    plan = table.void_plan(first)
    # Without the first put the later ones cannot stand as they were: the GO/STOP reveal would
    # come at another moment and seat 0's second 20 is a different box. Each listed, in words.
    assert plan["conflicts"] and all(c["why"]["ko"] and c["why"]["en"] for c in plan["conflicts"])
    assert second in [c["action"] for c in plan["conflicts"]]
    table.void(DEALER, "정정", first)
    assert table.load().state.boxes[0] == ()


def test_a_move_that_drew_at_random_is_never_drawn_again():
    table = Table.create(MemoryStore(), "h", "horror_race", ["가", "나", "다"], seed=3)
    table.start(DEALER)
    for seat, pair in enumerate((["vampire", "zombie"], ["gumiho", "mummy"], ["jiangshi", "zombie"])):
        table.submit(Actor.of_seat(seat), {"type": "back_characters", "characters": pair})
    draw = table.submit(Actor.of_seat(0), {"type": "take_turn", "action": "draw"}).action
    backing = table.load().live_actions[-2]
    plan = table.void_plan(backing)
    assert draw in [c["action"] for c in plan["conflicts"]]  # redrawing would change the coins


def test_the_start_can_be_undone_only_before_the_first_move():
    table = Table.create(MemoryStore(), "c", "tricky_coin", ["가", "나"], seed=1)
    started = table.start(DEALER).action
    assert table.void_plan()["target"]["what"]["ko"] == "테이블 시작"
    table.void(DEALER, "너무 일찍 시작함")
    assert not table.load().started
    table.start(DEALER)
    put(table, 0, 1)
    with pytest.raises(RuleError) as refused:
        table.void(DEALER, "x", table.load().started_at)
    assert refused.value.code == "table/not_live"
    assert started not in table.load().live_actions


def test_a_void_shows_as_a_correction_to_those_who_saw_what_it_undid():
    table = Table.create(MemoryStore(), "g", "tricky_coin", ["가", "나"], seed=1)
    table.start(DEALER)
    put(table, 0, 5)
    plan = table.void_plan()
    table.void(DEALER, "잘못 입력: 가의 상자에 5를 넣음")
    public = table.view(Audience.public())
    # The public notice says what was undone in public words; the typed reason (where staff
    # write secrets) stays with the dealer: in no other view, and out of every other log.
    assert set(public["correction"]) == {"v", "what"} and public["correction"]["v"] == public["version"]
    assert public["correction"]["what"] == plan["target"]["public"]
    assert "5" not in public["correction"]["what"]["ko"] and "5" not in public["correction"]["what"]["en"]
    owner = table.view(Audience.of_seat(0))["correction"]
    assert "reason" not in owner and "5" in owner["what"]["ko"]  # the seat saw its own coin
    assert "reason" not in table.view(Audience.of_seat(1))["correction"]
    assert table.view(Audience.dealer())["correction"]["reason"] == "잘못 입력: 가의 상자에 5를 넣음"
    for audience in (Audience.public(), Audience.of_seat(0), Audience.of_seat(1)):
        assert "잘못 입력" not in json.dumps(table.log(audience), ensure_ascii=False)
    assert "잘못 입력" in json.dumps(table.log(Audience.dealer()), ensure_ascii=False)


def test_a_finish_reason_is_the_dealers_alone():
    # As a void's: staff type what they like ("가람이 상자를 잘못 봄"); every screen says only that
    # the table closed, on the projector's log, the phones' and a replay's captions alike.
    table = coin_table()
    put(table, 0, 5)
    table.finish(DEALER, "가람이 상자를 잘못 봄")
    for audience in (Audience.public(), Audience.of_seat(0), Audience.of_seat(1)):
        seen = json.dumps([table.log(audience), [f.to_json() for f in frames(table, audience)]], ensure_ascii=False)
        assert "잘못 봄" not in seen and "테이블 종료" in seen
    assert "테이블 종료 가람이 상자를 잘못 봄" in json.dumps(table.log(Audience.dealer()), ensure_ascii=False)
    assert table.view(Audience.public())["finished"]


def test_a_void_of_several_actions_names_the_first_each_audience_saw():
    table = coin_table()
    put(table, 0, 5)
    put(table, 1, 10)
    first = table.load().live_actions[-2]
    before = {a: table.view(a)["version"] for a in (Audience.public(), Audience.of_seat(0), Audience.dealer())}
    table.void(DEALER, "둘 다 다시", first)
    for audience, version in before.items():  # after the void, before the move applied again
        assert version < table.view(audience)["correction"]["v"] < table.view(audience)["version"]
    # The first voided action was seat 1's (가람): its owner sees its coin, the rival and the
    # public only that a coin went in.
    assert "5" in table.view(Audience.of_seat(0))["correction"]["what"]["ko"]
    assert "5" not in table.view(Audience.of_seat(1))["correction"]["what"]["ko"]


def test_a_move_entered_for_a_seat_is_told_to_that_seat_only():
    table = coin_table()
    put(table, 1, 10, Actor.on_behalf(1))
    mine = table.view(Audience.of_seat(1))["entered_for_you"]
    assert mine["v"] == table.view(Audience.of_seat(1))["version"]
    assert "10" in mine["what"]["ko"] or "10" in mine["what"]["en"]
    assert table.view(Audience.of_seat(0))["entered_for_you"] is None
    assert table.view(Audience.public())["entered_for_you"] is None
    rows = table.log(Audience.dealer())
    assert rows[-1]["who"]["ko"] == "딜러(2번 나래 대신)"


def test_the_show_clock_counts_down_pauses_adds_and_is_logged():
    clock = Clock()
    table = coin_table(clock)
    table.clock_command(DEALER, "start", 60)
    assert table.view(Audience.public())["clock"] == {"state": "running", "ends_at": 1060.0, "remaining": None,
                                                      "seconds": 60}
    clock.now = 1020.0
    table.clock_command(DEALER, "pause")
    assert table.view(Audience.public())["clock"]["remaining"] == 40.0
    clock.now = 1100.0
    table.clock_command(DEALER, "add", 30)
    table.clock_command(DEALER, "resume")
    assert table.view(Audience.of_seat(0))["clock"]["ends_at"] == 1170.0
    table.clock_command(DEALER, "stop")
    assert table.view(Audience.public())["clock"] is None
    words = [r["what"]["ko"] for r in table.log(Audience.public())][-4:]
    assert words == ["시계 멈춤", "시계 30초 추가", "시계 다시 시작", "시계 끔"]
    for bad in (("wind", 0), ("start", -1), ("add", 99999), ("start", True)):
        with pytest.raises(RuleError):
            table.clock_command(DEALER, *bad)
    with pytest.raises(RuleError):
        table.clock_command(Actor.of_seat(0), "start", 10)


def test_the_show_clock_ends_with_the_decision_it_was_started_for():
    """Issue 27: a red 0:00 stayed on the projector and the phones after the move was entered on
    behalf. The clock runs while anyone it was started for still owes that decision: one seat's
    coin keeps it for the other; the other's coin entered on its behalf ends it; a void brings
    it back with the decision."""
    clock = Clock()
    table = coin_table(clock)
    table.clock_command(DEALER, "start", 30)
    put(table, 0, 5)
    assert table.view(Audience.public())["clock"]["state"] == "running"  # seat 2 still owes its coin
    clock.now = 1045.0  # past zero: nothing is decided by the clock itself
    assert table.view(Audience.public())["clock"] is not None
    put(table, 1, 10, Actor.on_behalf(1))
    for audience in (Audience.public(), Audience.of_seat(0), Audience.of_seat(1), Audience.dealer()):
        assert table.view(audience)["clock"] is None
    assert table.view(Audience.public())["turn"]["phase"]["en"] != ""  # the next decision (GO/STOP) is owed
    table.void(DEALER, "다시")  # the coin taken back: its decision is owed again, and so is its clock
    assert table.view(Audience.public())["clock"]["state"] == "running"
    # A clock started for the next decision ends with that one, not earlier.
    put(table, 1, 10)
    assert table.view(Audience.public())["clock"] is None
    table.clock_command(DEALER, "start", 60)  # for GO or STOP, owed by both
    table.submit(Actor.of_seat(0), {"type": "choose_token", "token": "STOP"})
    assert table.view(Audience.public())["clock"] is not None
    table.submit(Actor.of_seat(1), {"type": "choose_token", "token": "STOP"})
    assert table.view(Audience.public())["clock"] is None


def test_a_void_names_the_voided_action_in_each_audiences_own_numbering():
    """Found by the describe tests: after secret chip transfers the public log said "action 14
    voided" in the table's numbering, counting the transfers."""
    names = ["나래", "가람", "라온", "다솜", "바다", "마루", "아름", "사랑", "자두"]
    table = Table.create(MemoryStore(), "g", "tricky_gallery", names, seed=2)
    table.start(DEALER)
    for amount in (1, 2):
        table.submit(DEALER, {"type": "transfer_chips", "from": 0, "to": 1, "amount": amount})
    submit = next(d for d in table.game.turn(table.load().state).decisions if d.move == "submit_work")
    table.submit(Actor.of_seat(submit.seat), {"type": "submit_work", "entry": submit.fields[0].options[0].value})
    table.void(DEALER, "잘못 냄")
    public = table.log(Audience.public())
    voided_row = next(r for r in public if r.get("voided_by"))
    void_row = public[-1]
    assert void_row["event"]["type"] == "table.voided"
    assert void_row["event"]["action"] == voided_row["action"]  # the public's number, not the table's
    assert str(voided_row["action"]) in void_row["what"]["ko"]


def test_a_void_confirmed_after_a_newer_action_came_in_is_refused_and_changes_nothing():
    """Issue 37: V with bots running named an older action than the log's last. The void carries
    the newest action its preview showed; one that came in since makes it refuse, clearly."""
    from referee.kernel import RuleError
    from referee.store import MemoryStore
    from referee.table import Table

    table = Table.create(MemoryStore(), "c", "tricky_coin", ["가람", "나래"], seed=1)
    table.start(Actor.dealer())
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5})
    plan = table.void_plan()
    assert plan["last"] == plan["target"]["action"]
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 10})  # a bot, before the confirm
    before = table.load().version
    with pytest.raises(RuleError) as refused:
        table.void(Actor.dealer(), "잘못 입력", plan["target"]["action"], last=plan["last"])
    assert refused.value.code == "table/moved_on" and "새 행동" in refused.value.ko and "newer" in refused.value.en
    assert table.load().version == before
    again = table.void_plan()  # asked again: the last action now, and the void goes through
    table.void(Actor.dealer(), "잘못 입력", again["target"]["action"], last=again["last"])
    assert table.load().version > before


def test_a_move_entered_for_a_seat_names_the_move_not_what_followed_it():
    """Issue 33: a Reef card taken by the dealer for a seat ends that seat's turn; its phone is told
    the card it took ("가져감"), never only the turn passing on ("…의 차례")."""
    import random

    from referee.kernel.bots import pick

    table = Table.create(MemoryStore(), "reef-behalf", "reef", ["가람", "나래", "다솜"], seed=3)
    table.start(DEALER)
    rnd = random.Random(3)
    for _ in range(500):
        turn = table.game.turn(table.load().state)
        take = next((d for d in turn.decisions if d.move == "take_card"), None)
        if take is not None:
            break
        actor, move = pick(turn, rnd)
        try:
            table.submit(actor, move)
        except RuleError:  # a bot's pick the rules refuse (a start coral on a taken cell)
            continue
    assert take is not None
    table.submit(Actor.on_behalf(take.seat), {"type": "take_card", "card": take.fields[0].options[0].value})
    told = table.view(Audience.of_seat(take.seat))["entered_for_you"]["what"]
    assert "가져감" in told["ko"] and "차례" not in told["ko"], told
