"""The hall's predictions on a live server (issue 28), its sockets real: the audience page
gives a phone its device cookie; a question asked from a running Coin table takes each
device's prediction once (a resend, a reconnect: nothing more), closes at the boxes' opening,
is answered by the table's result on the projector's view and scores the right phones; the
projector's socket gets the split with the stored counts; a restart in the middle of a question
loses no prediction; nothing an audience sends reaches a seat, the table's log or its state."""

from __future__ import annotations

import json
import re
import subprocess
import time
import uuid

import pytest
import requests
import socketio

from referee.server.crowd import DEVICE_COOKIE

from .live import PIN, Client, LiveServer, wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One live server for the module's tests (the restart has one of its own): each plays on a show of its own."""
    live = LiveServer(tmp_path_factory.mktemp("crowd-live")).start()
    yield live
    live.stop()


def hall_phone(server: LiveServer, show: str, session: requests.Session | None = None) -> tuple[Client, str]:
    """A phone that opened the audience page (its device cookie) and connected to /crowd."""
    session = session or requests.Session()
    page = session.get(f"{server.url}/a/{show}", timeout=10)
    assert page.status_code == 200 and "관객" in page.text
    device = session.cookies[DEVICE_COOKIE]
    client = Client(server.url, "/crowd", {"show": show}, events=("crowd", "me"),
                    headers={"Cookie": f"{DEVICE_COOKIE}={device}"})
    return client, device


def predict(server: LiveServer, show: str, device: str, question: str, option: object) -> dict:
    """A phone's prediction, as the audience page sends it: a form post with its device cookie."""
    answer = requests.post(f"{server.url}/a/{show}/predict", data={"question": question, "option": str(option)},
                           headers={"Cookie": f"{DEVICE_COOKIE}={device}"}, timeout=30)
    return answer.json()


def coin_show(server: LiveServer) -> tuple[str, str]:
    show = "c" + uuid.uuid4().hex[:7]
    server.ok("create_show", show=show, name="관객 예측 쇼")
    for name in ("가람", "나래"):
        server.ok("add_player", show=show, name=name)
    table = server.ok("create_table", show=show, game="tricky_coin", players=["가람", "나래"], seed=5)["table"]
    server.ok("start", show=show, table=table)
    server.ok("set_current", show=show, table=table)
    return show, table


def move(server: LiveServer, show: str, table: str, seat: int, move: dict) -> None:
    server.ok("move", show=show, table=table, seat=seat, move=move, sid=uuid.uuid4().hex)


def play_to_a_held_opening(server: LiveServer, show: str, table: str) -> None:
    """A round of the Coin table up to the boxes' opening, which the show's reveal hold keeps
    off the projector (seat 0's 20 against seat 1's 5: seat 0 takes it once released)."""
    move(server, show, table, 0, {"type": "put_coin", "coin": 20})
    move(server, show, table, 1, {"type": "put_coin", "coin": 5})
    for seat in (0, 1):
        move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
    held = next(t["held"] for t in server.snapshot(show)["tables"] if t["view"]["table"] == table)
    assert held and held["count"] >= 1, "the boxes' opening is held"


def test_predictions_count_once_close_at_the_reveal_and_score_from_the_tables_result(server):
    phones: list[Client] = []
    try:
        show, table = coin_show(server)
        projector = Client(server.url, "/public", {"show": show}, events=("view", "crowd"))
        seat_phone = Client(server.url, "/seat", {"token": server.snapshot(show)["links"][0]["token"]})
        offers = server.snapshot(show)["crowd"]["offers"]
        assert [q["key"] for q in offers[0]["questions"]] == ["coin_round", "winner"]
        asked = server.ok("ask_question", show=show, table=table, key="coin_round")
        qid = asked["question"]
        hall = [hall_phone(server, show) for _ in range(6)]
        phones = [c for c, _ in hall]
        for i, (phone, device) in enumerate(hall):
            phone.wait_for(lambda e, p: e == "crowd" and p["questions"] and p["questions"][-1]["state"] == "open")
            for _ in range(2):  # a double tap
                ack = predict(server, show, device, qid, i % 3)
                assert ack["ok"], ack
        # A phone that reconnects is the same device: its prediction stands.
        phones[0].close()
        again = Client(server.url, "/crowd", {"show": show}, events=("crowd", "me"),
                       headers={"Cookie": f"{DEVICE_COOKIE}={hall[0][1]}"})
        phones[0] = again
        ack = predict(server, show, hall[0][1], qid, 2)
        assert ack["ok"] and ack["prediction"] == {"question": qid, "option": 0, "again": True}
        assert again.wait_for(lambda e, p: e == "me")["votes"] == {qid: 0}
        # The projector's split is the stored count (sent at most twice a second).
        split = projector.wait_for(lambda e, p: e == "crowd" and p["questions"][-1]["total"] == 6)
        assert split["questions"][-1]["counts"] == [2, 2, 2]
        # Bad predictions: clear errors, nothing counted.
        for bad_question, bad_option in ((qid, 7), ("999", 0), (qid, ""), (qid, "x")):
            ack = predict(server, show, hall[1][1], bad_question, bad_option)
            assert not ack["ok"] and ack["error"]["ko"] and ack["error"]["en"], ack
        # The round is played: seat 1's 20 beats seat 2's 5; the boxes' opening closes it.
        move(server, show, table, 0, {"type": "put_coin", "coin": 20})
        move(server, show, table, 1, {"type": "put_coin", "coin": 5})
        late, late_device = hall_phone(server, show)
        phones.append(late)
        for seat in (0, 1):
            move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
        refused = predict(server, show, late_device, qid, 0)
        assert not refused["ok"] and refused["error"]["code"] == "crowd/closed"
        resolved = projector.wait_for(lambda e, p: e == "crowd" and p["questions"][-1]["state"] == "resolved")
        assert resolved["questions"][-1]["answer"] == [0] and resolved["questions"][-1]["counts"] == [2, 2, 2]
        assert [b["points"] for b in resolved["board"][:2]] == [1, 1] and resolved["players"] == 6
        assert phones[3].call("me")["me"]["points"] == 1 and phones[1].call("me")["me"]["points"] == 0
        # Nothing of the hall reached the table: its log holds the players' and dealer's actions only.
        log = server.log_of(show, table)
        assert all(not e["actor"].startswith("crowd") for e in log["entries"])
        assert "predict" not in json.dumps(log) and all(e != "crowd" for e, _ in seat_phone.history)
        seat_phone.close()
        projector.close()
    finally:
        for phone in phones:
            phone.close()


def test_a_restart_mid_question_loses_no_prediction_and_the_question_comes_back(tmp_path):
    server = LiveServer(tmp_path).start()
    try:
        show, _table = coin_show(server)
        qid = server.ok("ask_question", show=show, text="첫 라운드 STOP 누가?", options=["가람", "나래", "둘 다"])["question"]
        session = requests.Session()
        phone, device = hall_phone(server, show, session)
        assert predict(server, show, device, qid, 1)["ok"]
        phone.close()
        server.restart()
        phone = Client(server.url, "/crowd", {"show": show}, events=("crowd", "me"),
                       headers={"Cookie": f"{DEVICE_COOKIE}={device}"})
        first = phone.wait_for(lambda e, p: e == "crowd")
        assert first["questions"][-1]["state"] == "open" and first["questions"][-1]["counts"] == [0, 1, 0]
        assert phone.wait_for(lambda e, p: e == "me")["votes"] == {qid: 1}
        assert predict(server, show, device, qid, 0)["prediction"]["again"]
        server.ok("close_question", show=show, question=qid)
        server.ok("resolve_question", show=show, question=qid, answer=[1])
        wait_until(lambda: phone.call("me")["me"]["points"] == 1, what="the point")
        phone.close()
        # The results sheet carries the question's split and the audience's leaderboard.
        staff = requests.Session()
        page = staff.get(f"{server.url}/console/login", timeout=10).text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        staff.post(f"{server.url}/console/login", data={"pin": PIN, "csrf": csrf, "show": show}, timeout=10)
        pdf = staff.get(f"{server.url}/print/{show}/{_table}/results.pdf", timeout=60)
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        path = tmp_path / "results.pdf"
        path.write_bytes(pdf.content)
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert "관객 예측" in text and "첫 라운드 STOP 누가?" in text and "관객 순위" in text
        assert "나래: 1 (100%)" in text
    finally:
        server.stop()


def test_a_socket_without_the_audience_pages_cookie_is_refused_and_staff_commands_need_staff(server):
    show, table = coin_show(server)
    try:
        Client(server.url, "/crowd", {"show": show}, events=("crowd",))
        raise AssertionError("connected without a device")
    except Exception as exc:  # noqa: BLE001 (socketio's ConnectionError)
        assert "audience page" in str(exc) or "ConnectionError" in type(exc).__name__
    denied = server.api("ask_question", pin=None, show=show, text="q", options=["a", "b"])
    assert not denied["ok"]
    bad = server.api("ask_question", show=show, table=table, key="no_such")
    assert bad["error"]["code"] == "crowd/not_offered"
    assert requests.get(f"{server.url}/a/nope", timeout=10).status_code == 404
    svg = requests.get(f"{server.url}/display/{show}/audience.svg", timeout=10)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg")
    assert server.snapshot(show)["crowd"]["audience_url"].endswith(f"/a/{show}")
    time.sleep(0)


def test_a_made_up_device_id_counts_nothing_and_nicknames_need_a_visible_letter(server):
    """Issue 34: any 16-64 character cookie was a device (300 made-up ids voted from one address
    and took the board). An id is the server's, signed; a made-up one is refused on the socket
    and the audience page gives that phone a real one. A nickname of fillers is refused."""
    show, table = coin_show(server)
    qid = server.ok("ask_question", show=show, table=table, key="coin_round")["question"]
    made_up = "A" * 22 + "." + "B" * 16
    for fake in ("x" * 24, made_up):
        with pytest.raises(socketio.exceptions.ConnectionError):  # refused: crowd/no_device
            Client(server.url, "/crowd", {"show": show}, events=("crowd", "me"), headers={"Cookie": f"{DEVICE_COOKIE}={fake}"})
    page = requests.get(f"{server.url}/a/{show}", cookies={DEVICE_COOKIE: made_up}, timeout=10)
    assert page.status_code == 200 and page.cookies[DEVICE_COOKIE] != made_up  # a real one instead
    phone, device = hall_phone(server, show)
    try:
        for fake in ("x" * 24, made_up):  # nor a prediction with one
            assert predict(server, show, fake, qid, 0)["error"]["code"] == "crowd/no_device"
        voted = predict(server, show, device, qid, 0)
        assert voted["ok"] and voted["prediction"].get("option") == 0, voted
        for blank in ("\u3164", "\u2800", "\u0301"):
            refused = phone.call("nickname", {"name": blank})
            assert refused["error"]["code"] == "crowd/bad_nickname" and "보이는" in refused["error"]["ko"], refused
        wait_until(lambda: server.snapshot(show)["crowd"]["questions"][-1]["total"] == 1, what="the one real vote")
    finally:
        phone.close()


def test_a_void_that_changes_a_resolved_answer_moves_the_points_and_one_that_removes_it_takes_them_back(server):
    """Issue 34: after a void a resolved question reads its answer again, by itself. Voiding the
    deciding action takes the points back (the question waits, closed, for the table to show an
    answer again); a different outcome entered after the void scores the new answer."""
    phones: list[Client] = []
    try:
        show, table = coin_show(server)
        qid = server.ok("ask_question", show=show, table=table, key="coin_round")["question"]
        hall = [hall_phone(server, show) for _ in range(3)]
        phones = [c for c, _ in hall]
        for i, (phone, device) in enumerate(hall):  # one phone per option: 가람, 나래, equal
            phone.wait_for(lambda e, p: e == "crowd" and p["questions"] and p["questions"][-1]["state"] == "open")
            assert predict(server, show, device, qid, i)["ok"]
        move(server, show, table, 0, {"type": "put_coin", "coin": 20})
        move(server, show, table, 1, {"type": "put_coin", "coin": 5})  # entered wrongly: it was a 20
        for seat in (0, 1):
            move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})

        def question() -> dict:
            return next(q for q in server.snapshot(show)["crowd"]["questions"] if q["id"] == qid)

        def points() -> list[int]:
            return [phone.call("me")["me"]["points"] for phone in phones]

        wait_until(lambda: question()["state"] == "resolved", what="resolved")
        assert question()["answer"] == [0] and points() == [1, 0, 0]
        # The last action voided (the boxes' opening with it): no answer, the point taken back.
        server.ok("void", show=show, table=table, reason="잘못 입력")
        wait_until(lambda: question()["state"] == "closed", what="closed again")
        assert question().get("answer") is None and points() == [0, 0, 0]
        # Seat 2's coin voided too (the STOP before it cannot be applied again), then entered right.
        server.ok("void", show=show, table=table, reason="잘못 입력")
        entries = server.log_of(show, table)["entries"]
        wrong = next(e["action"] for e in entries if e["event"]["type"] == "CoinPut" and e["event"]["data"]["seat"] == 1)
        server.ok("void", show=show, table=table, reason="코인 잘못 입력", action=wrong)
        move(server, show, table, 1, {"type": "put_coin", "coin": 20})
        for seat in (0, 1):
            move(server, show, table, seat, {"type": "choose_token", "token": "STOP"})
        wait_until(lambda: question()["state"] == "resolved", what="resolved again")
        assert question()["answer"] == [2] and points() == [0, 0, 1]
        # The board and the phones follow: the equal-sums phone leads.
        board = server.snapshot(show)["crowd"]["board"]
        assert board[0]["points"] == 1 and sum(b["points"] for b in board) == 1
    finally:
        for phone in phones:
            phone.close()


def test_with_the_reveal_hold_on_the_hall_hears_nothing_of_a_held_reveal_until_its_release(server):
    """Issue 34: /crowd and /public showed the question `closed` 0.3 s after a held reveal was
    written. The hall is told only what the projector may show: the question stays open (a
    prediction is still taken, as before the reveal the projector has not shown), and closes
    and resolves at the release."""
    phones: list[Client] = []
    try:
        show, table = coin_show(server)
        server.ok("settings", show=show, name="reveal_hold", value="on")
        qid = server.ok("ask_question", show=show, table=table, key="coin_round")["question"]
        projector = Client(server.url, "/public", {"show": show}, events=("view", "crowd"))
        phone, device = hall_phone(server, show)
        phones = [phone, projector]
        phone.wait_for(lambda e, p: e == "crowd" and p["questions"] and p["questions"][-1]["state"] == "open")
        play_to_a_held_opening(server, show, table)
        time.sleep(1.5)  # three ticks of the crowd's ticker
        ack = predict(server, show, device, qid, 0)
        assert ack["ok"] and not ack["prediction"]["again"], ack
        time.sleep(1.0)
        for client in phones:
            said = [p for e, p in client.history if e == "crowd"]
            assert said and all(q["state"] == "open" and not q.get("answer")
                                for p in said for q in p["questions"]), said[-1]
        server.ok("release", show=show, table=table, all=True)
        resolved = phone.wait_for(lambda e, p: e == "crowd" and p["questions"][-1]["state"] == "resolved")
        assert resolved["questions"][-1]["answer"] == [0]
        assert phone.call("me")["me"]["points"] == 1
    finally:
        for client in phones:
            client.close()
