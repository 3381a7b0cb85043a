"""The console's "다시 보기" on the projector (issue 29): a table's (or the whole evening's) story
played forward and back from the log, with the projector's own pictures.

Staff start a replay of one table, of the program (the evening: the program and every match
in the order things happened), or a recap (the evening's highlights); then play, pause, step
frame by frame or reveal by reveal, change the pace, and go back to the live projector with one
key. While a replay runs the projector shows its frames instead of the current table; no live
table changes, and the phones and the console are not affected. The frames come from
``referee.table.replay``: only what was public at that moment, nothing of a voided action but
its "정정" notice, a held reveal where the dealer released it.

The replay's state is one field of the show (``replay``: which frames, the index, playing or
not, the pace, since when): any process builds the same payload from it, and each process moves
its own screens on while it plays.
"""

from __future__ import annotations

import json
import time
from typing import Any

from referee.kernel import Audience, require
from referee.table.replay import Frame, frames, merge
from referee.table.replay import recap as recap_of

from .web import Encoded, encode_payload, every

ACTIONS = ("start", "play", "pause", "step", "back", "next_reveal", "prev_reveal", "goto", "pace", "stop")
PACES = (0.5, 10.0)


class Replays:
    TICK = 0.2

    def __init__(self, service: Any, publish: Any) -> None:
        self.service = service
        self.publish = publish
        self._frames: dict[str, list[Frame]] = {}  # replay id -> its frames (this process's cache)
        self._sent: dict[str, tuple[str, int]] = {}  # show -> (replay id, index) this process's screens got
        self._payloads: dict[tuple[str, str, int], Encoded] = {}
        service.commands["replay"] = Replays.command
        service.dealer_extras["replay"] = lambda show, moment: (
            None if moment.info["replay"] is None else self.summary(show, moment.info["replay"]))
        service.replays = self

    # -- state ------------------------------------------------------------------------------------

    def key(self, show: str) -> str:
        return f"{self.service.prefix}show:{show}"

    def state(self, show: str) -> dict[str, Any] | None:
        raw = self.service.r.hget(self.key(show), "replay")
        return json.loads(raw) if raw else None

    def index(self, state: dict[str, Any], now: float | None = None) -> int:
        """Where a replay stands now: while it plays, a frame every `pace` seconds from `since`."""
        if not state["playing"]:
            return state["pos"]
        now = time.time() if now is None else now
        return min(state["count"] - 1, state["pos"] + int(max(0.0, now - state["since"]) / state["pace"]))

    def story(self, show: str, state: dict[str, Any]) -> list[Frame]:
        """The replay's frames (built once per process and replay)."""
        if state["id"] not in self._frames:
            self._frames[state["id"]] = self.build(show, state["tables"], state["recap"])
        return self._frames[state["id"]]

    def build(self, show: str, tables: list[str], recap: bool) -> list[Frame]:
        stories = [frames(self.service.table(t), Audience.public(), self.service.releases(show, t)) for t in tables]
        story = merge(stories)
        return recap_of(story, self.service.games) if recap else story

    # -- the staff command ------------------------------------------------------------------------

    def command(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        self: Replays = service.replays
        show = service._show(staff, payload)
        action = payload.get("action")
        require(action in ACTIONS, "replay/bad_action", f"다시 보기 명령이 아닙니다: {action!r}",
                f"Not a replay action: {action!r}", action=action)
        state = self.state(show)
        now = time.time()
        if action == "start":
            state = self._start(service, staff, show, payload, now)
        else:
            require(state is not None, "replay/not_running", "다시 보기가 켜져 있지 않습니다", "No replay is running")
            if action == "stop":
                service.r.hdel(self.key(show), "replay")
                # The live payload as it is, sent whole: what the room was last sent live may be
                # this very view (a fan-out would skip it as unchanged), but its screens show a replay.
                self.publish("/public", f"public:{show}", "view", service.public_snapshot(show))
                service.changed(show)
                return {"done": {"ko": "프로젝터가 실시간 화면으로 돌아왔습니다", "en": "The projector is live again"}}
            state = self._move(show, state, action, payload, now)
        service.r.hset(self.key(show), "replay", json.dumps(state))
        self.push(show, state, everywhere=True)
        service.changed(show)  # the consoles show where the replay stands
        return {"replay": self.summary(show, state)}

    def _start(self, service: Any, staff: Any, show: str, payload: dict[str, Any], now: float) -> dict[str, Any]:
        program = service.shows.info(show)["program"]
        recap = bool(payload.get("recap"))
        require(not recap or program is not None, "replay/no_program", "하이라이트는 프로그램이 있는 쇼에서 만듭니다",
                "A recap needs a show program")
        table_id = program if recap else payload.get("table") or program
        require(table_id is not None, "replay/no_table", "다시 볼 테이블을 고르세요", "Choose a table to replay")
        _, table = service._table_of(staff, {"show": show, "table": table_id})
        # The program: the evening (itself and every match it opened) in the order things happened.
        tables = [table.id] + (list(service.programs.stage_tables(table).values()) if table.game.program else [])
        rid = f"{int(now * 1000):x}"
        story = self.build(show, tables, recap)
        require(bool(story), "replay/empty", "다시 볼 장면이 없습니다", "There is nothing to replay yet")
        self._frames[rid] = story
        pace = payload.get("pace", 3)
        require(_pace_ok(pace), "replay/bad_pace", "간격은 0.5-10초입니다", "The pace is 0.5-10 seconds")
        return {"id": rid, "tables": tables, "recap": recap, "count": len(story), "pos": 0, "playing": False,
                "pace": float(pace), "since": now, "rev": 0,
                "title": (table.view(Audience.public()).get("stage") or {}).get("title") or table.game.title.to_json()}

    def _move(self, show: str, state: dict[str, Any], action: str, payload: dict[str, Any], now: float) -> dict[str, Any]:
        story = self.story(show, state)
        at = self.index(state, now)
        if action == "play":
            at = 0 if at >= state["count"] - 1 else at  # played to the end: from the start again
            return {**state, "pos": at, "playing": True, "since": now, "rev": state["rev"] + 1}
        if action == "pause":
            return {**state, "pos": at, "playing": False, "rev": state["rev"] + 1}
        if action == "pace":
            pace = payload.get("pace")
            require(_pace_ok(pace), "replay/bad_pace", "간격은 0.5-10초입니다", "The pace is 0.5-10 seconds")
            return {**state, "pos": at, "pace": float(pace), "since": now, "rev": state["rev"] + 1}
        if action == "goto":
            target = payload.get("index")
            require(isinstance(target, int) and not isinstance(target, bool) and 0 <= target < state["count"],
                    "replay/bad_index", f"장면 번호는 0-{state['count'] - 1}입니다", f"The frame is 0-{state['count'] - 1}")
        elif action in ("step", "back"):
            target = max(0, min(state["count"] - 1, at + (1 if action == "step" else -1)))
        else:  # the next or previous reveal
            order = range(at + 1, state["count"]) if action == "next_reveal" else range(at - 1, -1, -1)
            target = next((i for i in order if story[i].reveal or story[i].correction), at)
        return {**state, "pos": target, "playing": False, "since": now, "rev": state["rev"] + 1}

    # -- what the projector shows -----------------------------------------------------------------

    def payload(self, show: str, name: str, state: dict[str, Any], at: int | None = None) -> Encoded:
        """The public payload of the replay's frame `at` (now, by default): the frame's view
        drawn by the projector's pictures, and the replay's place in words."""
        at = self.index(state) if at is None else at
        key = (show, state["id"], at, state["rev"])
        if key not in self._payloads:
            frame = self.story(show, state)[at]
            view = dict(frame.view)
            version = state["rev"] * 1_000_000 + at
            if frame.correction is not None:
                view["correction"] = {"v": version, "what": frame.correction}
            self._payloads[key] = encode_payload({
                "show": {"id": show, "name": name}, "table": view, "version": version,
                "replay": {"id": state["id"], "index": at, "count": state["count"], "title": state["title"],
                           "recap": state["recap"], "playing": state["playing"] and at < state["count"] - 1,
                           "what": list(frame.what), "caption": frame.title, "t": frame.t,
                           "release": frame.release}})
            if len(self._payloads) > 512:
                self._payloads.pop(next(iter(self._payloads)))
        return self._payloads[key]

    def push(self, show: str, state: dict[str, Any], everywhere: bool = False) -> None:
        """The frame to the projector's room: every process's screens (a staff command), or
        this process's own (the playing replay moving on)."""
        at = self.index(state)
        self._sent[show] = (f"{state['id']}:{state['rev']}", at)
        name = self.service.shows.info(show)["name"]
        self.publish("/public", f"public:{show}", "view", self.payload(show, name, state, at), local=not everywhere)

    def summary(self, show: str, state: dict[str, Any]) -> dict[str, Any]:
        at = self.index(state)
        frame = self.story(show, state)[at]
        # `pos` and `since` (server time): where a playing replay stands at any moment, so the
        # console counts its frames on as the projector shows them (a frame every `pace` s).
        return {"index": at, "count": state["count"], "playing": state["playing"] and at < state["count"] - 1,
                "pos": state["pos"], "since": state["since"],
                "pace": state["pace"], "recap": state["recap"], "title": state["title"], "tables": state["tables"],
                "what": [frame.title] if frame.title else list(frame.what), "reveal": frame.reveal,
                "correction": frame.correction}

    def tick(self) -> None:
        """Each playing replay moves this process's screens on, frame by frame."""
        for show in list(self._sent):
            state = self.state(show)
            if state is None:
                self._sent.pop(show, None)
                continue
            at = self.index(state)
            if self._sent[show] != (f"{state['id']}:{state['rev']}", at):
                self.push(show, state)

    def watch(self, show: str) -> None:
        """A screen of this process shows the show: its replay, if one plays, moves it on."""
        self._sent.setdefault(show, ("", -1))

    def run(self, sleep: Any) -> None:
        every(self.TICK, self.tick, sleep, "the replays' ticker")


def _pace_ok(pace: Any) -> bool:
    return isinstance(pace, (int, float)) and not isinstance(pace, bool) and PACES[0] <= pace <= PACES[1]
