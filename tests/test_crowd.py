"""Audience predictions counted in place on the real (embedded) Redis (issue 28): one
prediction per device and question however often it is sent, from any number of threads at
once; refused after the close (by staff, by time, or by the reveal in the table's log, before
any screen shows it); scored once per right answer, the faster right answers first; nicknames
checked as player names are; rate limits per device and per address."""

from __future__ import annotations

import json
import threading
import time
import uuid

import pytest
import redis

from referee.kernel import Actor, Audience, RuleError
from referee.server.crowd import Crowd, default_name, from_table, nickname, right_indexes, source_spec
from referee.server.limits import Limit, Limits
from referee.store import RedisStore
from referee.table import Table

from .live import within_one_window


@pytest.fixture
def crowd(redis_server) -> Crowd:
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    return Crowd(client, KEY, f"crowd-{uuid.uuid4().hex[:8]}:", Limits(crowd_device=Limit(1000, 10), crowd_address=Limit(100000, 10)))

KEY = b"k" * 32  # the server's secret, signing the devices' ids


def devices(n: int) -> list[str]:
    return [uuid.uuid4().hex for _ in range(n)]


def test_every_device_counts_once_however_often_and_however_many_at_once(crowd):
    qid = crowd.ask_custom("s", "누가 이길까요?", ["가람", "나래", "다솜"])
    hall = devices(60)
    answers = {d: i % 3 for i, d in enumerate(hall)}
    errors: list[Exception] = []

    def phone(device: str) -> None:
        try:
            for _ in range(3):  # a double tap and a resend after a reconnect
                crowd.predict("s", qid, device, answers[device], "10.0.0.1")
            again = crowd.predict("s", qid, device, (answers[device] + 1) % 3, "10.0.0.1")
            assert again["again"] and again["option"] == answers[device]  # the first one stands
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=phone, args=(d,)) for d in hall]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    question = crowd.questions("s")[-1]
    assert question["counts"] == [20, 20, 20] and question["total"] == 60
    assert crowd.me("s", hall[4])["votes"] == {qid: 1}


def test_a_closed_question_refuses_and_keeps_its_counts(crowd):
    qid = crowd.ask_custom("s", "질문", ["예", "아니요"])
    crowd.predict("s", qid, "a" * 22, 0, "1.1.1.1")
    assert crowd.close("s", qid) and not crowd.close("s", qid)
    with pytest.raises(RuleError) as refused:
        crowd.predict("s", qid, "b" * 22, 1, "1.1.1.1")
    assert refused.value.code == "crowd/closed" and refused.value.ko and refused.value.en
    assert crowd.questions("s")[-1]["counts"] == [1, 0]


def test_a_question_closes_at_its_time(crowd):
    qid = crowd.ask_custom("s", "질문", ["예", "아니요"], seconds=1)
    crowd.predict("s", qid, "a" * 22, 0, "1.1.1.1")
    time.sleep(1.1)
    with pytest.raises(RuleError):
        crowd.predict("s", qid, "b" * 22, 0, "1.1.1.1")
    assert crowd.questions("s")[-1]["state"] == "closed"


def test_the_reveal_in_the_tables_log_closes_the_question_before_any_screen_shows_it(crowd):
    """A Coin round's question closes at its boxes' opening: the prediction script reads the
    log itself, so one sent a moment after the boxes opened is refused even though no fan-out
    (and no staff) has closed anything yet."""
    store = RedisStore(crowd.r, crowd.p)
    table = Table.create(store, "coin", "tricky_coin", ["가람", "나래"], seed=1)
    table.start(Actor.dealer())
    view = table.view(Audience.public())
    question = from_table(table.game, view, "coin_round")
    spec = source_spec(question, table.id, view["title"])
    qid = crowd.ask("s", spec, store.log_key(table.id), table.load().version, question.closes_on)
    for seat, coin in ((0, 20), (1, 5)):
        table.submit(Actor.of_seat(seat), {"type": "put_coin", "coin": coin})
    crowd.predict("s", qid, "a" * 22, 1, "1.1.1.1")  # GO/STOP still to come: still open
    for seat in (0, 1):
        table.submit(Actor.of_seat(seat), {"type": "choose_token", "token": "STOP"})  # the boxes open
    with pytest.raises(RuleError) as refused:
        crowd.predict("s", qid, "b" * 22, 0, "1.1.1.1")
    assert refused.value.code == "crowd/closed"
    # The answer comes from the public view: seat 1 (20) beat seat 2 (5).
    answer = table.game.right_answer("coin_round", question.param_map(), table.view(Audience.public()))
    assert answer == (0,)
    assert crowd.resolve("s", qid, right_indexes(spec, answer)) == 0  # "a" chose seat 2
    assert crowd.questions("s")[-1]["answer"] == [0]


def test_right_answers_score_once_and_the_faster_rank_first(crowd):
    fast, slow, wrong = "f" * 22, "s" * 22, "w" * 22
    first = crowd.ask_custom("s", "1", ["a", "b"])
    crowd.predict("s", first, fast, 0, "1.1.1.1")
    time.sleep(0.05)
    crowd.predict("s", first, slow, 0, "1.1.1.1")
    crowd.predict("s", first, wrong, 1, "1.1.1.1")
    assert crowd.resolve("s", first, [0]) == 2
    assert crowd.resolve("s", first, [0]) == -1  # the same answer again scores nothing more
    board = crowd.board("s")
    assert [b["points"] for b in board] == [1, 1, 0]
    assert crowd.me("s", fast)["rank"] == 1 and crowd.me("s", slow)["rank"] == 2
    assert crowd.me("s", wrong) == {**crowd.me("s", wrong), "points": 0, "rank": 3}
    # The staff correct the answer: the first scoring is taken back.
    crowd.resolve("s", first, [1])
    assert crowd.me("s", wrong)["points"] == 1 and crowd.me("s", fast)["points"] == 0
    assert crowd.me("s", wrong)["rank"] == 1


def test_a_prediction_in_the_opening_millisecond_can_be_scored_and_taken_back(crowd):
    """Found by a run: a device that predicted in the same millisecond the question opened has
    0 ms; taking its point back sent "-0" to Redis, which refused it as no integer."""
    qid = crowd.ask_custom("s", "q", ["a", "b"])
    crowd.r.hset(crowd.k("s", "v", qid), "z" * 22, 0)
    crowd.r.hset(crowd.k("s", "t", qid), "z" * 22, 0)
    crowd.resolve("s", qid, [0])
    crowd.resolve("s", qid, [1])  # the staff correct it: the point is taken back
    assert crowd.me("s", "z" * 22)["points"] == 0


def test_nicknames_are_checked_like_player_names_and_hidden_ones_stay_off_the_board(crowd):
    for bad in ("", " ", "a" * 13, "x\u202ey", "x\u200by", "nul\x00", 7, None):
        with pytest.raises(RuleError) as refused:
            nickname(bad)
        assert refused.value.code == "crowd/bad_nickname"
    assert nickname("  <b>별</b>  ") == "<b>별</b>"  # kept as text: pages never read it as markup
    device = "n" * 22
    qid = crowd.ask_custom("s", "q", ["a", "b"])
    crowd.predict("s", qid, device, 0, "1.1.1.1")
    assert crowd.set_nickname("s", device, " 별 빛 ", "1.1.1.1") == "별 빛"
    assert crowd.board("s")[0]["name"] == "별 빛"
    crowd.hide("s", device)
    assert crowd.board("s")[0]["name"] is None
    assert crowd.board("s")[0]["guest"] == default_name(device).to_json()


def test_rate_limits_per_device_and_per_address(redis_server):
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    crowd = Crowd(client, KEY, f"crowd-{uuid.uuid4().hex[:8]}:", Limits(crowd_device=Limit(3, 10), crowd_address=Limit(5, 10)))
    qid = crowd.ask_custom("s", "q", ["a", "b"])
    within_one_window(10)  # the seven in one window of the limits (10 s)
    for _ in range(3):
        crowd.predict("s", qid, "d" * 22, 0, "1.1.1.1")
    with pytest.raises(RuleError) as refused:
        crowd.predict("s", qid, "d" * 22, 0, "1.1.1.1")
    assert refused.value.code == "rate/limited"
    crowd.predict("s", qid, "e" * 22, 0, "1.1.1.1")
    crowd.predict("s", qid, "f" * 22, 0, "1.1.1.1")
    with pytest.raises(RuleError):
        crowd.predict("s", qid, "g" * 22, 0, "1.1.1.1")  # the address's sixth
    assert crowd.questions("s")[-1]["counts"] == [3, 0]


def test_a_prediction_is_one_trip_to_redis(redis_server):
    """A burst of ten thousand phones queues for the audience's connections (docs/performance.md,
    Goal 8): a prediction, rate limits included, is the one script call, no trip for a clock."""
    sent: list[bytes] = []
    kind = redis.ConnectionPool.from_url(redis_server.url).connection_class  # a unix socket's, a TCP one's

    class Counting(kind):
        def send_packed_command(self, command, check_health=True):
            sent.append(b"".join(command) if isinstance(command, list) else command)
            super().send_packed_command(command, check_health)

    pool = redis.ConnectionPool.from_url(redis_server.url, connection_class=Counting, decode_responses=True)
    crowd = Crowd(redis.Redis(connection_pool=pool), KEY, f"crowd-{uuid.uuid4().hex[:8]}:")
    qid = crowd.ask_custom("s", "q", ["a", "b"])
    crowd.predict("s", qid, "d" * 22, 0, "1.1.1.1")  # the first reads the question's fixed part once
    sent.clear()
    assert crowd.predict("s", qid, "e" * 22, 1, "1.1.1.2") == {"question": qid, "option": 1, "again": False}
    assert len(sent) == 1 and b"EVALSHA" in sent[0].upper(), sent
    assert crowd.questions("s")[-1]["counts"] == [1, 1]


def test_typed_questions_are_checked(crowd):
    for text, options in (("", ["a", "b"]), ("q", ["a"]), ("q", [str(i) for i in range(10)]), ("q", ["a", "a"]),
                          ("q\u202e", ["a", "b"]), ("q", ["a", 3]), ("q" * 121, ["a", "b"])):
        with pytest.raises(RuleError):
            crowd.ask_custom("s", text, options)
    assert crowd.questions("s") == []
    qid = crowd.ask_custom("s", "q", ["a", "b"])
    for bad in (-1, 2, "0", True, 1.5):
        with pytest.raises(RuleError):
            crowd.predict("s", qid, "d" * 22, bad, "1.1.1.1")
    with pytest.raises(RuleError):
        crowd.predict("s", "99", "d" * 22, 0, "1.1.1.1")
    assert json.dumps(crowd.questions("s")[-1]["counts"]) == "[0, 0]"


def test_equal_scores_share_a_rank_on_the_board_and_on_each_phone(crowd):
    """Issue 34: 28 devices on 0 points were ranked 1-28 by chance. Equal scores (points and the
    tie-break's time) share a rank, 공동 N위, on the board and in each phone's own line; the
    faster right answer still ranks first."""
    qid = crowd.ask_custom("s", "누가 이길까요?", ["가람", "나래"])
    fast, slow, *wrong = devices(14)
    crowd.predict("s", qid, fast, 0, "10.0.0.1")
    time.sleep(0.01)
    crowd.predict("s", qid, slow, 0, "10.0.0.1")
    for device in wrong:
        crowd.predict("s", qid, device, 1, "10.0.0.1")
    crowd.close("s", qid)
    crowd.resolve("s", qid, [0])
    board = crowd.board("s")
    assert [(b["rank"], b["shared"], b["points"]) for b in board] == [(1, False, 1), (2, False, 1)] + [(3, True, 0)] * 8
    assert crowd.me("s", fast)["rank"] == 1 and not crowd.me("s", fast)["shared"]
    me = crowd.me("s", wrong[-1])
    assert (me["rank"], me["shared"], me["players"]) == (3, True, 14)
    # Ten equal scores in a board of ten: the last one shares its rank with those past the top.
    assert crowd.board("s", size=3)[-1]["shared"]
