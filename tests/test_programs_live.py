"""A whole Genius episode over the real sockets, with the server killed and restarted in the
middle: phones follow their players from match to match (and to the program when they owe it a
decision), creating tables never moves a phone off a live one or the projector off what staff
put on it, and the program and its stage tables agree after the crash."""

from __future__ import annotations

import random
import signal
import time
import uuid
from typing import Any

import pytest

from .live import Client, LiveServer

NAMES = ["가람", "나래", "다솜", "라온"]


def answer(decision: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    move: dict[str, Any] = {"type": decision["move"]}
    for field in decision["fields"]:
        values = [o["value"] for o in field.get("options", [])]
        if field["shape"] == "some":
            move[field["name"]] = rnd.sample(values, field["k"])
        elif field["shape"] == "assign":
            move[field["name"]] = {str(i["value"]): rnd.choice(values) for i in field["items"]}
        elif field["shape"] == "number":
            move[field["name"]] = rnd.randint(field["low"], field["high"])
        elif field["shape"] == "text":
            move[field["name"]] = "bot"
        else:
            move[field["name"]] = "pass" if "pass" in values and rnd.random() < 0.4 else rnd.choice(values)
    return move


def wait(check, timeout: float = 30, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise TimeoutError(what)


class Evening:
    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.show = "e" + uuid.uuid4().hex[:8]
        server.ok("create_show", show=self.show, name="지니어스 회차")
        for name in NAMES:
            server.ok("add_player", show=self.show, name=name)
        self.program = server.ok("create_program", show=self.show, program="genius_episode", seed=21)["table"]
        self.links = server.snapshot(self.show)["links"]
        self.rnd = random.Random(4)
        self.connect()

    def connect(self) -> None:
        self.phones = [Client(self.server.url, "/seat", {"token": link["token"]}, reconnect=True) for link in self.links]
        self.projector = Client(self.server.url, "/public", {"show": self.show}, reconnect=True)

    def close(self) -> None:
        for client in (*self.phones, self.projector):
            client.close()

    def snapshot(self) -> dict[str, Any]:
        return self.server.snapshot(self.show)

    def view(self, table: str) -> dict[str, Any]:
        return next(t["view"] for t in self.snapshot()["tables"] if t["view"]["table"] == table)

    def dealer(self, table: str, move: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        return self.server.ok("move", show=self.show, table=table, seat=seat, move=move, sid=uuid.uuid4().hex)

    def focus(self, player: int) -> str | None:
        latest = self.phones[player].latest()
        return latest and latest["focus"]

    def play(self, table: str, until_over: bool = True, steps: int = 3000) -> None:
        """Bots play `table`: seat decisions from the phones' own sockets, dealer ones by API."""
        for _ in range(steps):
            view = self.view(table)
            if view["result"] is not None or not view["decisions"]:
                return
            decision = self.rnd.choice(view["decisions"])
            move = answer(decision, self.rnd)
            if decision["seat"] is None:
                self.dealer(table, move)
                continue
            player = NAMES.index(view["seats"][decision["seat"]])
            ack = self.phones[player].call("submit", {"table": table, "move": move, "sid": uuid.uuid4().hex})
            assert ack["ok"] or ack["error"]["code"].startswith(("race/", "quattro/", "move/")), ack
        if until_over:
            pytest.fail(f"{table} did not end")


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path).start()
    yield live
    live.stop()


def test_a_genius_evening_over_sockets_with_a_crash_in_the_middle(server, tmp_path):
    evening = Evening(server)
    try:
        server.ok("set_current", show=evening.show, table=evening.program)
        board = evening.projector.wait_for(lambda e, p: e == "view" and p["table"] and p["table"]["state"].get("program"))
        assert [p["key"] for p in board["table"]["state"]["planned"]] == ["main_match", "death_match"]

        evening.dealer(evening.program, {"type": "open_stage", "stage": "main_match"})
        race = next(t for t in evening.snapshot()["show"]["tables"] if "main_match" in t)
        # Made, not started: every phone says what comes next; the projector follows the evening to
        # the opened stage (the show's `follow` setting, on by default).
        for player in range(len(NAMES)):
            wait(lambda p=player: evening.focus(p) == race, what=f"phone {player} on the race")
            mine = evening.phones[player].latest()
            assert any(t["table"] == race and t["status"] == "ready" for t in mine["tables"])
        assert evening.snapshot()["show"]["current"] == race

        server.ok("start", show=evening.show, table=race)
        evening.play(race, until_over=False, steps=40)  # part of the race ...
        before = evening.view(race)
        assert before["result"] is None, "the race should still run when the server dies"

        # ... the server dies (SIGKILL) and comes back on the same data directory.
        server.restart(signal.SIGKILL)
        for client in (*evening.phones, evening.projector):
            wait(lambda c=client: c.sio.connected, what="reconnect")
        after = evening.view(race)
        assert after["version"] == before["version"] and after["state"] == before["state"]
        evening.play(race)
        assert evening.view(race)["result"] is not None

        evening.dealer(evening.program, {"type": "confirm_result", "stage": "main_match"})
        program = evening.view(evening.program)
        assert evening.view(race)["finished"]  # the program closed the race's table
        if any(d["move"] == "break_tie" for d in program["decisions"]):
            tie = next(d for d in program["decisions"] if d["move"] == "break_tie")
            evening.dealer(evening.program, answer(tie, evening.rnd))
            program = evening.view(evening.program)
        naming = next(d for d in program["decisions"] if d["move"] == "name_opponent")
        candidate = naming["seat"]
        # The candidate's phone shows the program, where they owe the nomination; they name
        # the opponent from their own phone.
        wait(lambda: evening.focus(candidate) == evening.program, what="the candidate's phone on the program")
        owed = evening.phones[candidate].latest()["table"]["decisions"]
        assert [d["move"] for d in owed] == ["name_opponent"]
        opponent = owed[0]["fields"][0]["options"][0]["value"]
        ack = evening.phones[candidate].call("submit", {"table": evening.program, "sid": "name",
                                                        "move": {"type": "name_opponent", "opponent": opponent}})
        assert ack["ok"], ack
        others = [p for p in range(len(NAMES)) if p != candidate]
        with_stranger = evening.phones[others[0]].call("submit", {"table": evening.program, "sid": "x", "move": {
            "type": "name_opponent", "opponent": candidate}})
        assert not with_stranger["ok"]  # only the candidate names

        evening.dealer(evening.program, {"type": "open_stage", "stage": "death_match"})
        duel = next(t for t in evening.snapshot()["show"]["tables"] if "death_match" in t)
        server.ok("start", show=evening.show, table=duel)
        for player in (candidate, opponent):
            wait(lambda p=player: evening.focus(p) == duel, what=f"phone {player} on the duel")
        bystander = next(p for p in range(len(NAMES)) if p not in (candidate, opponent))
        assert evening.focus(bystander) != duel
        evening.play(duel)
        evening.dealer(evening.program, {"type": "confirm_result", "stage": "death_match"})
        final = evening.view(evening.program)["result"]
        out = final["details"]["eliminated"]
        assert out in (candidate, opponent) and final["standings"][-1]["seat"] == out
        # The eliminated player's phone shows the program: out, and the final place.
        wait(lambda: evening.focus(out) == evening.program, what="the eliminated phone on the program")
        mine = evening.phones[out].latest()["table"]["state"]
        assert mine["final"]["standings"][-1]["seat"] == out
        shown = evening.projector.wait_for(lambda e, p: e == "view" and p["table"]["state"].get("final"))
        assert shown["table"]["state"]["board"]["eliminated"] == out
        log = (tmp_path / f"server-{server.port}.log").read_text()
        assert "Traceback" not in log
    finally:
        evening.close()
