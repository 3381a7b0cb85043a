"""A whole show program driven through the live server's API, as fast as the API answers: the
tests of what the hall, the phones and the console see at each step of an evening use it to get
there (the moves are random legal ones, entered by the dealer on each seat's behalf)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

from .live import LiveServer
from .test_programs_live import answer

SURVIVAL = ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아라", "자람"]
GENIUS = ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아라", "자람", "차미"]


class Evening:
    """A show with a roster and a program (`program`: tricky_survival or genius_episode)."""

    def __init__(self, server: LiveServer, program: str, names: list[str], options: dict[str, Any] | None = None,
                 seed: int = 3, show: str | None = None, name: str = "쇼 나이트") -> None:
        self.server = server
        self.show = show or "n" + uuid.uuid4().hex[:8]
        self.rnd = random.Random(seed)
        server.ok("create_show", show=self.show, name=name)
        for player in names:
            server.ok("add_player", show=self.show, name=player)
        self.program = server.ok("create_program", show=self.show, program=program, options=options or {},
                                 seed=seed)["table"]
        self.links = server.snapshot(self.show)["links"]

    def snapshot(self) -> dict[str, Any]:
        return self.server.snapshot(self.show)

    def view(self, table: str) -> dict[str, Any]:
        return next(t["view"] for t in self.snapshot()["tables"] if t["view"]["table"] == table)

    def move(self, table: str, move: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        return self.server.api("move", show=self.show, table=table, seat=seat, move=move, sid=uuid.uuid4().hex)

    def decision(self, table: str, move: str) -> dict[str, Any] | None:
        return next((d for d in self.view(table)["decisions"] if d["move"] == move), None)

    def stage_table(self, key: str) -> str:
        return next(t for t in self.snapshot()["show"]["tables"] if t.startswith(f"{self.program}-{key}-"))

    def open(self, key: str) -> str:
        """Open a ready stage with its computed seating; its table's id."""
        self.server.ok("move", show=self.show, table=self.program, move={"type": "open_stage", "stage": key},
                       sid=uuid.uuid4().hex)
        return self.stage_table(key)

    def play(self, table: str, steps: int = 20000, until: Callable[[dict[str, Any]], bool] | None = None) -> None:
        """Random legal moves on `table` until it has a result (or `until(view)` holds)."""
        for _ in range(steps):
            view = self.view(table)
            if view["result"] is not None or not view["decisions"] or (until and until(view)):
                return
            decision = self.rnd.choice(view["decisions"])
            self.move(table, answer(decision, self.rnd), decision["seat"])
        raise AssertionError(f"{table} did not end")

    def confirm(self, key: str) -> None:
        self.server.ok("move", show=self.show, table=self.program, move={"type": "confirm_result", "stage": key},
                       sid=uuid.uuid4().hex)

    def program_decisions(self) -> None:
        """The program's own decisions other than opening and confirming (a tie broken, an
        opponent named), answered at random."""
        for _ in range(10):
            owed = [d for d in self.view(self.program)["decisions"] if d["move"] not in ("open_stage", "confirm_result")
                    and not d["move"].startswith("seat_stage:")]
            if not owed:
                return
            decision = owed[0]
            self.move(self.program, answer(decision, self.rnd), decision["seat"])

    def ready(self) -> list[str]:
        decision = self.decision(self.program, "open_stage")
        return [o["value"] for o in decision["fields"][0]["options"]] if decision else []

    def run(self, on: Callable[[str, str, str], None] = lambda step, key, table: None,
            project: bool = True) -> dict[str, Any]:
        """The whole evening: each ready stage opened, started, played, confirmed, in order.
        `on(step, key, table)` is called at "opened", "over" and "confirmed"; with `project`, the
        projector shows each match while it runs and the program between matches. Returns the
        program's final view."""
        if project:
            self.server.ok("set_current", show=self.show, table=self.program)
        while self.view(self.program)["result"] is None:
            self.program_decisions()
            ready = self.ready()
            assert ready, self.view(self.program)["decisions"]
            key = ready[0]
            table = self.open(key)
            on("opened", key, table)
            self.server.ok("start", show=self.show, table=table)
            if project:
                self.server.ok("set_current", show=self.show, table=table)
            self.play(table)
            on("over", key, table)
            self.confirm(key)
            if project:
                self.server.ok("set_current", show=self.show, table=self.program)
            on("confirmed", key, table)
            self.program_decisions()
        return self.view(self.program)
