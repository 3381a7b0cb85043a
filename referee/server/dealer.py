"""The dealer's side of the show service: every staff command (the console and the JSON API call
the same ones), the rehearsal bots, and what the console is sent.

A command checks what it is given, changes nothing when anything is wrong (a RuleError with a
clear Korean and English message), and leaves the screens to the tables' subscribers: a command
on a table commits there, and the service's fan-out follows (referee/server/service.py).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.kernel import Actor, Audience, Game, RuleError, get_game, require
from referee.kernel.bots import random_move
from referee.table import Table

from .moment import Moment
from .seat import player_room
from .shows import option_texts, reason_text
from .web import payload_field

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Staff:
    """A logged-in staff member: every show (the server PIN) or the shows whose PIN they gave."""

    all_shows: bool = False
    shows: frozenset[str] = field(default_factory=frozenset)

    def may(self, show: str) -> bool:
        return self.all_shows or show in self.shows


def dealer_room(show: str) -> str:
    return f"dealer:{show}"


class DealerSide:
    """The staff commands and the console's snapshot (a side of Service: its state is the service's)."""

    # -- staff commands ----------------------------------------------------------------------

    def _table_of(self, staff: Staff, payload: dict[str, Any]) -> tuple[str, Table]:
        show = self._show(staff, payload)
        table_id = payload_field(payload, "table", str)
        require(table_id in self.shows.tables(show), "show/no_table", f"이 쇼의 테이블이 아닙니다: {table_id!r}",
                f"Not a table of this show: {table_id!r}", table=table_id)
        return show, self.table(table_id)

    def _show(self, staff: Staff, payload: dict[str, Any]) -> str:
        show = payload_field(payload, "show", str)
        self.shows.require(show)
        require(staff.may(show), "auth/staff_only", "이 쇼의 스태프 로그인이 필요합니다",
                "Staff login for this show is required", show=show)
        return show

    def command(self, staff: Staff, name: Any, payload: Any) -> dict[str, Any]:
        """Run one staff command; raises RuleError for anything wrong, changing nothing."""
        require(isinstance(payload, dict), "api/bad_payload", "요청 본문은 JSON 객체여야 합니다",
                "The request body must be a JSON object")
        handler = self.commands.get(name) if isinstance(name, str) else None
        require(handler is not None, "api/unknown_command", f"알 수 없는 명령입니다: {name!r}",
                f"Unknown command: {name!r}", command=name)
        out = handler(self, staff, payload)
        # What the dealer is told "done" is on the standby too (docs/backup.md): a table's own
        # entries waited for it already, the rest of a command (a setting, a release) waits here.
        self.store.replication.settle(f"{self.prefix}settled")
        return {**out, "done": out.get("done") or DONE.get(name, {"ko": "완료", "en": "Done"})}

    def create_show(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        require(staff.all_shows, "auth/staff_only", "쇼를 만들려면 서버 스태프 PIN이 필요합니다",
                "Creating a show needs the server's staff PIN")
        show = payload_field(payload, "show", str)
        self.shows.create(show, payload_field(payload, "name", str), payload_field(payload, "pin", str, optional=True))
        return {"show": self.shows.info(show)}

    def add_player(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show = self._show(staff, payload)
        index = self.shows.add_player(show, payload.get("name"))
        self.changed(show)
        return {"index": index, "roster": self.shows.roster(show)}

    def create_table(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show = self._show(staff, payload)
        game = get_game(payload_field(payload, "game", str), self.games)
        require(not game.program, "show/use_create_program", f"프로그램은 create_program으로 만듭니다: {game.id}",
                f"Make a program with create_program: {game.id}", game=game.id)
        players = payload_field(payload, "players", list)
        roster = self.shows.roster(show)
        for name in players:
            require(name in roster, "show/not_on_roster", f"명단에 없는 선수입니다: {name!r}",
                    f"Not on the roster: {name!r}", name=name)
        require(len(set(players)) == len(players), "show/player_twice", "한 선수가 두 자리에 앉을 수 없습니다",
                "A player cannot take two seats")
        options = option_texts(payload_field(payload, "options", dict, optional=True) or {})  # no hidden characters
        # No seed: the table draws from the OS generator. A seed makes a rehearsal table whose
        # draws repeat (tests, rehearsals); only staff can ask for one, and the header says so.
        seed = payload_field(payload, "seed", int, optional=True)
        table_id = f"{show}-{len(self.shows.tables(show)) + 1}"
        Table.create(self.store, table_id, game.id, players, options, seed, self.games, show=show)
        current = self.shows.info(show)["current"]
        self._add_table(show, table_id)
        # The projector shows what staff put on it: a new table never takes it from a live
        # match (or a program) but follows on from a match that is over.
        if current is not None and self._over(current):
            self.shows.set_current(show, table_id)
        self.changed(show, table_id, everyone=True)
        return {"table": table_id}

    def _over(self, table_id: str) -> bool:
        table = self.table(table_id)
        folded = table.load()
        return not table.game.program and (folded.finished or folded.outlook(table.game).result is not None)

    def create_program(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """Run the show as a program (Tricky Survival, a Genius episode) with its whole roster: the
        program's table starts at once and opens the first match when the dealer says so."""
        show = self._show(staff, payload)
        program = get_game(payload_field(payload, "program", str), self.games)
        require(program.program, "show/not_a_program", f"프로그램이 아닙니다: {program.id}",
                f"Not a program: {program.id}", program=program.id)
        require(self.shows.info(show)["program"] is None, "show/has_program", "이 쇼에는 이미 프로그램이 있습니다",
                "This show already has a program", show=show)
        table_id = f"{show}-program"
        Table.create(self.store, table_id, program.id, self.shows.roster(show),
                     option_texts(payload_field(payload, "options", dict, optional=True) or {}),
                     payload_field(payload, "seed", int, optional=True), self.games, show=show)
        self.shows.set_program(show, table_id)
        self._add_table(show, table_id)
        self.table(table_id).start(Actor.dealer())
        return {"table": table_id}

    def start(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        _, table = self._table_of(staff, payload)
        return {"ack": table.start(Actor.dealer()).to_json()}

    def move(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """A dealer move, or a seat's move entered by the dealer on its behalf (``seat``)."""
        _, table = self._table_of(staff, payload)
        seat = payload_field(payload, "seat", int, optional=True)
        actor = Actor.dealer() if seat is None else Actor.on_behalf(seat)
        move = self.programs.complete(table, payload.get("move")) if table.game.program else payload.get("move")
        return {"ack": table.submit(actor, move, payload_field(payload, "sid", str, optional=True)).to_json()}

    def void(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show, table = self._table_of(staff, payload)
        self._void_guard(show, table)
        ack = table.void(Actor.dealer(), reason_text(payload.get("reason"), required=True),
                         payload_field(payload, "action", int, optional=True),
                         payload_field(payload, "last", int, optional=True))
        return {"ack": ack.to_json()}

    def _void_guard(self, show: str, table: Table) -> None:
        """A program and its stages stay consistent under corrections: a stage whose match has
        started cannot be taken back by the program (void in the match first), and a match the
        program has confirmed cannot be reopened from the match (void the confirmation)."""
        folded = table.load()
        if not folded.live_actions:
            return
        last = [e["event"]["type"] for e in table.store.entries(table.id, after=folded.live_actions[-1] - 1)
                if e["action"] == folded.live_actions[-1]]
        if table.game.program and "StageOpened" in last:
            stage = folded.state.stages[-1]
            started = self.table(self.programs.stage_tables(table)[stage.key]).load().started
            require(not started, "program/stage_started",
                    "이 경기는 이미 시작했습니다: 경기 테이블의 시작부터 먼저 무효로 하세요",
                    "That match has started: void its table's start first", stage=stage.key)
        program = self.shows.info(show)["program"]
        if program and not table.game.program and "table.finished" in last:
            stages = self.programs.stage_tables(self.table(program))
            require(table.id not in stages.values() or not self._confirmed(program, table.id),
                    "program/result_confirmed", "프로그램이 이 경기 결과를 확정했습니다: 프로그램에서 확정을 무효로 하세요",
                    "The program confirmed this match's result: void the confirmation in the program", table=table.id)

    def _confirmed(self, program: str, table_id: str) -> bool:
        tables = self.programs.stage_tables(self.table(program))
        key = next(k for k, t in tables.items() if t == table_id)
        return self.table(program).load().state.confirmed(key) is not None

    def finish(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        _, table = self._table_of(staff, payload)
        return {"ack": table.finish(Actor.dealer(), reason_text(payload.get("reason"), required=False)).to_json()}

    def reissue(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """A new card for a player (a lost phone, a photographed QR): the old link dies at once."""
        show = self._show(staff, payload)
        player = payload_field(payload, "player", int)
        roster = self.shows.roster(show)
        require(0 <= player < len(roster), "show/no_such_player", f"없는 선수 번호입니다: {player}",
                f"No such player number: {player}", player=player)
        old = self.shows.link_version(show, player)
        self.shows.issue(show, player)
        # The old link's phones are told, then disconnected on every process; their room gets
        # nothing more in any case (see player_room), and the link is refused from now on.
        self.publish("/seat", player_room(show, player, old), "revoked", {"player": player})
        key = self._sockets_key(show, player)
        for sid, version in self.r.hgetall(key).items():
            if int(version) == old:
                self.disconnect("/seat", sid)
                self.r.hdel(key, sid)
        self.changed(show)
        return {"link": self.links(show)[player]}

    def set_current(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show, table = self._table_of(staff, payload)
        self.shows.set_current(show, table.id)
        self.changed(show, table.id, everyone=True)
        return {"current": table.id}

    def preview(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """What P would put up (the console's program monitor): the projector's payload with the
        table on it, public only (the reveal hold included); nothing changes on any screen."""
        show, table = self._table_of(staff, payload)
        return {"payload": self.public_payload(show, Moment(self, show), table.id), "done": PREVIEW_DONE}

    def void_plan(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """What a void would undo and apply again, in words, before the dealer confirms it."""
        show, table = self._table_of(staff, payload)
        self._void_guard(show, table)
        return {"plan": table.void_plan(payload_field(payload, "action", int, optional=True))}

    def clock(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        _, table = self._table_of(staff, payload)
        action = payload.get("action")
        ack = table.clock_command(Actor.dealer(), action, payload.get("seconds", 0))
        return {"ack": ack.to_json(), "done": CLOCK_DONE.get(action)}

    def release(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """The reveal hold: the projector shows the next held reveal (with what came after it, up
        to the one after), so a long hold plays out reveal by reveal with its moments, as the
        room would have seen it; ``all``: everything up to the table's version at once."""
        show, table = self._table_of(staff, payload)
        version = table.load().version
        held = self.held_reveals(table.id)
        upto = version if payload.get("all") is True or len(held) < 2 else held[1] - 1
        self._mark_released(table.id, version, True, released=upto)
        self.changed(show, table.id)
        left = 0 if upto == version else len(held) - 1
        return {"left": left, "done": {"ko": "공개했습니다" + (f" (보류 {left}개 남음)" if left else ""),
                                       "en": "Released" + (f" ({left} more held)" if left else "")}}

    def settings(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show = self._show(staff, payload)
        self.shows.set_setting(show, payload.get("name"), payload.get("value"))
        # Turning the hold on holds from now on: what the projector showed stays shown.
        hold = self.shows.info(show)["settings"]["reveal_hold"] == "on"
        for table_id in self.shows.tables(show):
            self._mark_released(table_id, self.table(table_id).load().version, hold)
        self.changed(show, self.shows.info(show)["current"], everyone=True)
        return {"settings": self.shows.info(show)["settings"]}

    def archive(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show, table = self._table_of(staff, payload)
        self.shows.archive(show, table.id, bool(payload.get("archived", True)))
        self.changed(show)
        return {}

    def bots(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """Rehearsal: bots play the chosen seats of a table with random legal moves, one every
        `pace` seconds (seats [] stops them). Their moves are marked in the log."""
        show, table = self._table_of(staff, payload)
        seats = payload_field(payload, "seats", list)
        require(all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(table.seats) for x in seats),
                "show/bad_seat", f"없는 자리가 있습니다: {seats!r}", f"No such seat in {seats!r}", seats=str(seats))
        pace = payload.get("pace", 2)
        require(isinstance(pace, (int, float)) and not isinstance(pace, bool) and 0.2 <= pace <= 60, "show/bad_pace",
                f"간격은 0.2-60초입니다: {pace!r}", f"The pace is 0.2-60 seconds: {pace!r}", pace=str(pace))
        key = f"{self.prefix}bots"
        if seats:
            self.r.hset(key, table.id, json.dumps({"show": show, "seats": sorted(set(seats)), "pace": pace}))
        else:
            self.r.hdel(key, table.id)
        self.changed(show)
        return {"bots": sorted(set(seats))}

    COMMANDS: dict[str, Callable[[DealerSide, Staff, dict[str, Any]], dict[str, Any]]] = {
        "create_show": create_show,
        "add_player": add_player,
        "create_table": create_table,
        "create_program": create_program,
        "start": start,
        "move": move,
        "void": void,
        "finish": finish,
        "reissue": reissue,
        "set_current": set_current,
        "void_plan": void_plan,
        "preview": preview,
        "clock": clock,
        "release": release,
        "settings": settings,
        "archive": archive,
        "bots": bots,
    }

    # -- rehearsal bots ------------------------------------------------------------------------

    def bots_step(self, rnd: random.Random) -> None:
        """One round of the rehearsal bots (the server runs this in a loop): each table whose
        bots are due makes one random legal move for one of its bot seats. A lock in Redis lets
        only one server process move a table's bots at a time."""
        for table_id, raw in self.r.hgetall(f"{self.prefix}bots").items():
            config = json.loads(raw)
            if not self.r.set(f"{self.prefix}botlock:{table_id}", "1", nx=True, px=int(config["pace"] * 1000)):
                continue
            table = self.table(table_id)
            folded = table.load()
            if folded.finished or not folded.started:
                continue
            owed = [d for d in table.game.turn(folded.state).decisions if d.seat in config["seats"] and not d.auto]
            if not owed or table.game.result(folded.state) is not None:
                continue
            decision = rnd.choice(owed)
            for _ in range(20):
                try:
                    table.submit(Actor.of_seat(decision.seat), random_move(decision, rnd), by="bot")
                    break
                except RuleError:
                    continue

    def run_bots(self, sleep: Callable[[float], Any]) -> None:
        rnd = random.Random()
        while True:
            try:
                self.bots_step(rnd)
            except Exception as exc:  # a bot's trouble (or Redis going away at shutdown) never stops the server
                log.warning("rehearsal bots paused: %r", exc)
                sleep(2.0)
            sleep(0.2)

    # -- what the console is sent --------------------------------------------------------------

    def links(self, show: str) -> list[dict[str, Any]]:
        return [{"player": issued.link.player, "name": name, "token": issued.token, "code": issued.code,
                 "url": f"{self.base_url()}/p/{issued.token}", "version": issued.link.version}
                for name, issued in zip(self.shows.roster(show), self.shows.current_links(show), strict=True)]

    def projector_path(self, show: str) -> str:
        """The show's own projector page (the console's "Projector"), in the stage lane."""
        return f"/display/{show}?stage={self.shows.stage_key(show)}"

    def dealer_snapshot(self, show: str, moment: Moment | None = None) -> dict[str, Any]:
        moment = moment or Moment(self, show)
        tables = []
        bots = {t: json.loads(raw)["seats"] for t, raw in self.r.hgetall(f"{self.prefix}bots").items()}
        for table_id in moment.info["tables"]:
            view = moment.view(table_id, Audience.dealer())
            log = self.table(table_id).log(Audience.dealer(), last=60)
            tables.append({"view": view, "log": log, "sheets": sheets_of(view), "held": moment.held(table_id),
                           "bots": bots.get(table_id, [])})
        out = {"show": moment.info, "tables": tables, "links": self.links(show), "games": _games_menu(self.games),
               "presence": moment.devices, "projector": f"{self.base_url()}{self.projector_path(show)}"}
        for name, extra in self.dealer_extras.items():
            out[name] = extra(show, moment)
        return out

    def _to_consoles(self, show: str, moment: Moment) -> None:
        """The dealer snapshot, only when a console is connected (any process)."""
        if moment.consoles:
            self.publish("/dealer", dealer_room(show), "show", self.dealer_snapshot(show, moment), local=not moment.shared)

    def dealer_present(self, show: str, sid: str, present: bool) -> None:
        """Count the consoles connected to a show (in any process), so a show with none is
        spared the dealer snapshot. A crashed process's entries expire within a day."""
        key = f"{self.prefix}dealers:{show}"
        if present:
            self.r.hset(key, sid, "1")
            self.r.expire(key, 24 * 3600)
        else:
            self.r.hdel(key, sid)


# What each command did, in words, for the console's notice (a command may say more itself).
DONE = {
    "create_show": {"ko": "쇼를 만들었습니다", "en": "Show created"},
    "add_player": {"ko": "선수를 추가했습니다", "en": "Player added"},
    "create_table": {"ko": "테이블을 만들었습니다", "en": "Table created"},
    "create_program": {"ko": "프로그램을 만들었습니다", "en": "Program created"},
    "start": {"ko": "시작했습니다", "en": "Started"},
    "move": {"ko": "입력했습니다", "en": "Entered"},
    "void": {"ko": "무효로 했습니다", "en": "Voided"},
    "finish": {"ko": "테이블을 종료했습니다", "en": "Table closed"},
    "reissue": {"ko": "카드를 재발급했습니다. 예전 카드는 이제 쓸 수 없습니다", "en": "Card re-issued; the old one no longer works"},
    "set_current": {"ko": "프로젝터에 표시합니다", "en": "Now on the projector"},
    "void_plan": {"ko": "무효 미리보기", "en": "Void preview"},
    "release": {"ko": "공개했습니다", "en": "Released to the projector"},
    "settings": {"ko": "설정을 바꿨습니다", "en": "Setting changed"},
    "archive": {"ko": "보관함을 바꿨습니다", "en": "Archive updated"},
    "bots": {"ko": "리허설 봇 설정을 바꿨습니다", "en": "Rehearsal bots updated"},
}


PREVIEW_DONE = {"ko": "미리보기", "en": "Preview"}
CLOCK_DONE = {
    "start": {"ko": "시계를 시작했습니다", "en": "Clock started"}, "pause": {"ko": "시계를 멈췄습니다", "en": "Clock paused"},
    "resume": {"ko": "시계를 다시 시작했습니다", "en": "Clock resumed"}, "add": {"ko": "시간을 더했습니다", "en": "Time added"},
    "stop": {"ko": "시계를 껐습니다", "en": "Clock stopped"},
}


# Sheets every table has; a game adds its own under "sheets" in its dealer view:
# {id: {"title": {ko, en}, "sections": [{"heading": {ko, en}, "paragraphs": [{ko, en}],
# "table": [[cell, ...], ...]}]}} with cells plain strings or {ko, en}.
COMMON_SHEETS = {"audit": ("감사 기록", "Audit report"), "results": ("최종 결과", "Final results")}


def sheets_of(view: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The printable sheets of a table (from its dealer view): id -> title."""
    out = {key: {"ko": ko, "en": en} for key, (ko, en) in COMMON_SHEETS.items()}
    for key, sheet in (view["state"].get("sheets") or {}).items():
        out[key] = sheet["title"]
    return out


def _games_menu(games: Mapping[str, Game]) -> list[dict[str, Any]]:
    """What the console can make: the games, and the programs (``program``: true)."""
    return [
        {"id": g.id, "title": g.title.to_json(), "seats": list(g.seats), "usual_seats": g.usual_seats,
         "program": g.program,
         "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "label": o.label.to_json(),
                      "words": [o.word(c).to_json() for c in o.choices], "free": o.accepts is not None}
                     for o in g.options]}
        for g in games.values()
    ]
