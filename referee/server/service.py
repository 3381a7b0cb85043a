"""The show service: every staff command and every phone submission, and the fan-out.

Both adapters (the JSON API and the Socket.IO namespaces) call this one class, so a command
behaves the same whichever way it arrives. After a command the service computes each
audience's view once and publishes it to that audience's room only; the full state is never
sent anywhere but to the dealer.

Rooms: ``dealer:{show}`` on /dealer, ``public:{show}`` on /public, ``player:{show}:{n}`` on
/seat (a phone belongs to a player; it shows their seat at the latest table that seats them).
Every payload carries the table version.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import redis

from referee.kernel import Actor, Audience, Game, RuleError, get_game, registry, require
from referee.kernel.bots import random_move
from referee.store import Guard, RedisStore
from referee.table import Table, audience_view
from referee.table.programs import ProgramRunner
from referee.table.replay import Release, story
from referee.table.runtime import FINISHED, VOIDED, what

from .limits import Limit, limited
from .shows import PlayerLink, Shows, option_texts, reason_text
from .web import Encoded, encode_payload

log = logging.getLogger(__name__)

# namespace, room, event, payload; `local`: to this process's sockets only (no other process is up)
Publish = Callable[..., None]
# A server process counts as up for this long after its last heartbeat (it beats every few seconds).
PROCESS_TTL = 60.0


@dataclass(frozen=True)
class Staff:
    """A logged-in staff member: every show (the server PIN) or the shows whose PIN they gave."""

    all_shows: bool = False
    shows: frozenset[str] = field(default_factory=frozenset)

    def may(self, show: str) -> bool:
        return self.all_shows or show in self.shows


def dealer_room(show: str) -> str:
    return f"dealer:{show}"


def public_room(show: str) -> str:
    return f"public:{show}"


# The public stream's two forms. A screen gets the whole payload when it connects, when it asks
# (a `snapshot` event), before a match, for a program, and when the fan-out may have moved the
# projector to another table (set_current, a new table after a match: the `everyone` fan-outs).
# A change of the table it shows sends the room a brief payload: the view without what stays
# the same for the table's whole life (BRIEF_CONSTANT), without its copy of the payload's
# version, without the fields that hold their empty default (BRIEF_DEFAULTS), without the
# show. The projector page fills them back in from the whole payload it holds (display.js,
# `assemble`); so do the tests' clients (tests/live.py).
# Every screen reads every update: at 1,000 screens, 508 bytes instead of 847 took the
# harness's clients' CPU per update down to boardgame.io's (docs/performance.md, "Goal 1,
# eighth pass").
BRIEF_CONSTANT = ("game", "title", "stage", "seats", "options", "audience")
BRIEF_DEFAULTS: dict[str, Any] = {"clock": None, "correction": None, "result": None, "entered_for_you": None,
                                  "decisions": []}


def brief_payload(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The brief form of a whole public payload (None: it has none, as the join screen)."""
    view = payload["table"]
    if view is None or "join" in payload:
        return None
    table = {k: v for k, v in view.items() if k not in BRIEF_CONSTANT and k != "version"
             and not (k in BRIEF_DEFAULTS and v == BRIEF_DEFAULTS[k])}
    return {"table": table, "version": payload["version"]}


def link_revoked() -> RuleError:
    return RuleError("auth/link_revoked", "이 링크는 더 이상 쓸 수 없습니다. 새 카드를 받으세요",
                     "This link no longer works; ask for a new card")


def player_room(show: str, player: int, link_version: int) -> str:
    """A phone's room: one player's link at one version. A re-issued card bumps the version, so
    sockets of the old link are left in a room that nothing is ever sent to again, even if
    the message that disconnects them (at most once, over the queue) were lost."""
    return f"player:{show}:{player}:{link_version}"


def _field(payload: dict[str, Any], name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    value = payload.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RuleError(
            "api/bad_field",
            f"{name} 값이 잘못되었습니다: {value!r}",
            f"Bad or missing field {name}: {value!r}",
            field=name, value=value,
        )
    return value


class Service:
    def __init__(self, client: redis.Redis, shows: Shows, publish: Publish, base_url: Callable[[], str],
                 prefix: str = "ref:", games: Mapping[str, Game] | None = None,
                 defer: Callable[[Callable[[], None]], Any] | None = None,
                 disconnect: Callable[[str, str], None] | None = None,
                 audience: redis.Redis | None = None, pause: Callable[[], Any] | None = None) -> None:
        # The fan-out runs after the command has been acknowledged (the server defers it to a
        # background task): the phone that moved hears "done" first, then every screen updates.
        self.defer = defer or (lambda task: task())
        # Lets the sockets' writers run (the server's sleep(0)): what was emitted is written.
        self.pause = pause or (lambda: None)
        # Games and show programs: both are run as tables (a program's stages are tables too).
        self.games = dict(games) if games is not None else registry(programs=True)
        self.r = client
        self.prefix = prefix
        self.shows = shows
        self.store = RedisStore(client, prefix)
        self.publish = publish
        # Ends a socket by id on whichever server process holds it (namespace, sid).
        self.disconnect = disconnect or (lambda namespace, sid: None)
        self.base_url = base_url
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        # The audience's own connections (see Settings): a flood of projector screens waits
        # for these, never for the ones phones and the dealer use.
        self.audience = audience or client
        self._known_shows: set[str] = set()
        self._public: dict[str, tuple[tuple[Any, ...], Encoded]] = {}  # show -> (key, payload)
        self._public_locks: dict[str, threading.Lock] = {}
        # A submit flows one way: the table commits, a program's runner makes or closes its stage
        # tables (their own commits follow the same path), and every screen gets its view
        # (the tables' subscribers, Table.on_commit; nothing here calls back into the program).
        self.programs = ProgramRunner(self.store, self.games, self.table, created=self._stage_made)
        self._on_commit = (self.programs.committed, self._committed)
        self._show_of: dict[str, str] = {}
        self._changed_rooms = client.register_script(_CHANGED_ROOMS)
        self.stopping = False  # set by leave()
        # Per show, what this process last saw of it (its tables, its roster's length), so one
        # pipelined read serves a whole fan-out (Moment).
        self.known: dict[str, tuple[list[str], list[str]]] = {}
        # The server processes up on this Redis (see heartbeat): while this one is alone, views
        # go to its own sockets only, without the round trip through the Socket.IO queue.
        self.host = uuid.uuid4().hex
        self.processes_key = f"{prefix}processes"
        # What a part beside the tables adds (the audience's predictions, server/crowd.py): staff
        # commands, a look at a table after each command on it (after its screens have their
        # views), and a section of the console's snapshot.
        self.commands = dict(self.COMMANDS)
        self.after_table: list[Callable[[str, str | None], None]] = []
        self.dealer_extras: dict[str, Callable[[str, Moment], Any]] = {}
        self.crowd: Any = None
        self.replays: Any = None

    # -- processes ---------------------------------------------------------------------------

    def heartbeat(self, now: float | None = None) -> None:
        """Say this process is up (until PROCESS_TTL from now), and forget processes that stopped
        beating. A process beats before it serves anyone, so a fan-out that finds itself alone
        cannot miss a screen of another process: such a screen connected after the fan-out's
        read, and its first snapshot already holds what the fan-out sends."""
        now = time.time() if now is None else now
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(self.processes_key, self.host, now + PROCESS_TTL)
        pipe.hgetall(self.processes_key)
        gone = [h for h, until in pipe.execute()[1].items() if float(until) < now]
        if gone:
            self.r.hdel(self.processes_key, *gone)

    def keep_beating(self, sleep: Callable[[float], Any]) -> None:
        while True:
            sleep(PROCESS_TTL / 12)
            try:
                self.heartbeat()
            except Exception as exc:  # Redis away for a moment: the next beat tries again
                log.warning("heartbeat failed: %r", exc)

    def leave(self) -> None:
        """This process stops: the others stop sending it views through the queue, and a
        fan-out still under way when Redis goes away with the server is no error."""
        self.stopping = True
        self.r.hdel(self.processes_key, self.host)

    # -- tables ------------------------------------------------------------------------------

    def table(self, table_id: str) -> Table:
        with self._lock:
            if table_id not in self._tables:
                self._tables[table_id] = Table(self.store, table_id, self.games, on_commit=self._on_commit)
            return self._tables[table_id]

    def _table_of(self, staff: Staff, payload: dict[str, Any]) -> tuple[str, Table]:
        show = self._show(staff, payload)
        table_id = _field(payload, "table", str)
        require(table_id in self.shows.tables(show), "show/no_table", f"이 쇼의 테이블이 아닙니다: {table_id!r}",
                f"Not a table of this show: {table_id!r}", table=table_id)
        return show, self.table(table_id)

    def _show(self, staff: Staff, payload: dict[str, Any]) -> str:
        show = _field(payload, "show", str)
        self.shows.require(show)
        require(staff.may(show), "auth/staff_only", "이 쇼의 스태프 로그인이 필요합니다",
                "Staff login for this show is required", show=show)
        return show

    # -- staff commands ----------------------------------------------------------------------

    def command(self, staff: Staff, name: Any, payload: Any) -> dict[str, Any]:
        """Run one staff command; raises RuleError for anything wrong, changing nothing."""
        require(isinstance(payload, dict), "api/bad_payload", "요청 본문은 JSON 객체여야 합니다",
                "The request body must be a JSON object")
        handler = self.commands.get(name) if isinstance(name, str) else None
        require(handler is not None, "api/unknown_command", f"알 수 없는 명령입니다: {name!r}",
                f"Unknown command: {name!r}", command=name)
        out = handler(self, staff, payload)
        return {**out, "done": out.get("done") or DONE.get(name, {"ko": "완료", "en": "Done"})}

    def create_show(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        require(staff.all_shows, "auth/staff_only", "쇼를 만들려면 서버 스태프 PIN이 필요합니다",
                "Creating a show needs the server's staff PIN")
        show = _field(payload, "show", str)
        self.shows.create(show, _field(payload, "name", str), _field(payload, "pin", str, optional=True))
        return {"show": self.shows.info(show)}

    def add_player(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show = self._show(staff, payload)
        index = self.shows.add_player(show, payload.get("name"))
        self.changed(show)
        return {"index": index, "roster": self.shows.roster(show)}

    def create_table(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show = self._show(staff, payload)
        game = get_game(_field(payload, "game", str), self.games)
        require(not game.program, "show/use_create_program", f"프로그램은 create_program으로 만듭니다: {game.id}",
                f"Make a program with create_program: {game.id}", game=game.id)
        players = _field(payload, "players", list)
        roster = self.shows.roster(show)
        for name in players:
            require(name in roster, "show/not_on_roster", f"명단에 없는 선수입니다: {name!r}",
                    f"Not on the roster: {name!r}", name=name)
        require(len(set(players)) == len(players), "show/player_twice", "한 선수가 두 자리에 앉을 수 없습니다",
                "A player cannot take two seats")
        options = option_texts(_field(payload, "options", dict, optional=True) or {})  # no hidden characters
        # No seed: the table draws from the OS generator. A seed makes a rehearsal table whose
        # draws repeat (tests, rehearsals); only staff can ask for one, and the header says so.
        seed = _field(payload, "seed", int, optional=True)
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
        program = get_game(_field(payload, "program", str), self.games)
        require(program.program, "show/not_a_program", f"프로그램이 아닙니다: {program.id}",
                f"Not a program: {program.id}", program=program.id)
        require(self.shows.info(show)["program"] is None, "show/has_program", "이 쇼에는 이미 프로그램이 있습니다",
                "This show already has a program", show=show)
        table_id = f"{show}-program"
        Table.create(self.store, table_id, program.id, self.shows.roster(show),
                     option_texts(_field(payload, "options", dict, optional=True) or {}),
                     _field(payload, "seed", int, optional=True), self.games, show=show)
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
        seat = _field(payload, "seat", int, optional=True)
        actor = Actor.dealer() if seat is None else Actor.on_behalf(seat)
        move = self.programs.complete(table, payload.get("move")) if table.game.program else payload.get("move")
        return {"ack": table.submit(actor, move, _field(payload, "sid", str, optional=True)).to_json()}

    def void(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        show, table = self._table_of(staff, payload)
        self._void_guard(show, table)
        ack = table.void(Actor.dealer(), reason_text(payload.get("reason"), required=True),
                         _field(payload, "action", int, optional=True))
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

    def _committed(self, table: Table, entries: list[dict[str, Any]]) -> None:
        """Every table's last subscriber (Table.on_commit): its show's screens get their views.
        A program's command, and a stage table closed or opened again by it, move every phone
        (the next match): those go to everyone."""
        stage_moved = table.header.get("stage") is not None and any(
            e["event"]["type"] in (FINISHED, VOIDED) for e in entries)
        self.changed(self.show_of(table), table.id, everyone=table.game.program or stage_moved)

    def _stage_made(self, program: Table, table_id: str) -> None:
        """A program made a stage table (ProgramRunner.created): the show lists it, every screen hears."""
        show = self.show_of(program)
        self._add_table(show, table_id)
        self.changed(show, table_id, everyone=True)

    def show_of(self, table: Table) -> str:
        """The show a table belongs to: its header says (a table made before headers did: the
        show whose list holds it, looked up once)."""
        if "show" in table.header:
            return table.header["show"]
        if table.id not in self._show_of:
            self._show_of[table.id] = next(show for show in self.shows.ids() if table.id in self.shows.tables(show))
        return self._show_of[table.id]

    def finish(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        _, table = self._table_of(staff, payload)
        return {"ack": table.finish(Actor.dealer(), reason_text(payload.get("reason"), required=False)).to_json()}

    def reissue(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """A new card for a player (a lost phone, a photographed QR): the old link dies at once."""
        show = self._show(staff, payload)
        player = _field(payload, "player", int)
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

    def void_plan(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """What a void would undo and apply again, in words, before the dealer confirms it."""
        show, table = self._table_of(staff, payload)
        self._void_guard(show, table)
        return {"plan": table.void_plan(_field(payload, "action", int, optional=True))}

    def clock(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        _, table = self._table_of(staff, payload)
        action = payload.get("action")
        ack = table.clock_command(Actor.dealer(), action, payload.get("seconds", 0))
        return {"ack": ack.to_json(), "done": CLOCK_DONE.get(action)}

    def release(self, staff: Staff, payload: dict[str, Any]) -> dict[str, Any]:
        """The reveal hold: the projector may now show everything up to the table's version."""
        show, table = self._table_of(staff, payload)
        self._mark_released(table.id, table.load().version, True)
        self.changed(show, table.id)
        return {}

    def _mark_released(self, table_id: str, version: int, hold: bool) -> None:
        """What the projector may show of a table from now (everything up to `version`, and
        whether the hold is on), and the same in the table's release history: a replay shows a
        held reveal where it was released (referee.table.replay)."""
        pipe = self.r.pipeline(transaction=True)
        pipe.set(self._released_key(table_id), version)
        pipe.rpush(self.releases_key(table_id), json.dumps([version, version, hold, time.time()]))
        pipe.execute()

    def releases_key(self, table_id: str) -> str:
        return f"{self.prefix}releases:{table_id}"

    def _add_table(self, show: str, table_id: str) -> None:
        """A new table joins the show, and its release history begins with the hold as it is
        now: a table made while the hold is on starts held (its replay, its export)."""
        self.shows.add_table(show, table_id)
        hold = self.shows.info(show)["settings"]["reveal_hold"] == "on"
        # First in the history whatever a settings change wrote meanwhile: it is the state at version 0.
        self.r.lpush(self.releases_key(table_id), json.dumps([0, 0, hold, time.time()]))

    def releases(self, show: str, table_id: str) -> list[Release]:
        """A table's release history, from its creation on (referee.table.replay.frames). Where
        its first record is missing (a table made before histories began with one), what came
        before the first record is taken as held: a replay may show a reveal later than the hall
        saw it, never earlier. With no record at all, no settings change came after the table
        was made, so the show's hold now is the hold it always had."""
        history = [Release(*json.loads(raw)) for raw in self.r.lrange(self.releases_key(table_id), 0, -1)]
        if not history:
            return [Release(0, 0, self.shows.info(show)["settings"]["reveal_hold"] == "on")]
        return history if history[0].at == 0 else [Release(0, 0, True), *history]

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
        seats = _field(payload, "seats", list)
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

    COMMANDS: dict[str, Callable[[Service, Staff, dict[str, Any]], dict[str, Any]]] = {
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

    # -- phones ------------------------------------------------------------------------------

    def link_guard(self, link: PlayerLink, spend: tuple[str, Limit] | None = None) -> Guard:
        """What a phone's request must meet: its link still the player's current one (else
        auth/link_revoked) and, with `spend` (a rate-limit counter's key and its limit), one more
        submission counted against it (else rate/limited)."""
        key = self.shows.linkver_key(link.show, link.player)
        if spend is None:
            return Guard(key, link.version, link_revoked())
        counter, limit = spend
        return Guard(key, link.version, link_revoked(), counter, limit.count, limit.seconds, limited(limit))

    def current_link(self, link: PlayerLink, spend: tuple[str, Limit] | None = None) -> PlayerLink:
        """A phone's link, checked to be still current, and with `spend` one more request counted
        against its limit (one round trip)."""
        self.store.check(self.link_guard(link, spend))
        return link

    def _sockets_key(self, show: str, player: int) -> str:
        return f"{self.prefix}socks:{show}:{player}"

    def seat_socket(self, link: PlayerLink, sid: str, present: bool) -> int:
        """Record a phone's socket (on any process), so a re-issue can end it. Returns how many
        of the card's sockets are open now (counted in the same transaction)."""
        key = self._sockets_key(link.show, link.player)
        pipe = self.r.pipeline()
        if present:
            pipe.hset(key, sid, link.version)
            pipe.expire(key, 24 * 3600)
        else:
            pipe.hdel(key, sid)
        pipe.incr(self._presence_key(link.show))  # the join screen shows who is here
        pipe.hlen(key)
        devices = pipe.execute()[-1]
        # Every phone of this card hears how many are open: a card open on two devices warns both.
        self.publish("/seat", player_room(link.show, link.player, link.version), "devices", {"count": devices})
        self.changed(link.show, public=True)
        return int(devices)

    def seat_submit(self, link: PlayerLink, payload: Any, guard: Guard) -> dict[str, Any]:
        """A phone's move. `guard` (link_guard: the link still current, the phone's rate limit)
        is checked by the move's append; a submission that ends without one (a resend, a
        refusal) is checked on its own before its answer, so a revoked card learns nothing of
        its seat and every try counts."""
        try:
            return self._seat_submit(link, payload, guard)
        finally:
            self.store.check(guard)  # nothing to do when the append made it

    def _seat_submit(self, link: PlayerLink, payload: Any, guard: Guard) -> dict[str, Any]:
        require(isinstance(payload, dict), "api/bad_payload", "제출 내용은 JSON 객체여야 합니다",
                "A submission must be a JSON object")
        sid = _field(payload, "sid", str)
        # The phone says which table it was looking at: a move lands on that table only, and
        # only if this player sits there (a show's tables and names, as this process knows them;
        # read again only for a table it has not seen).
        tables, names = self.known.get(link.show, ([], []))
        if payload.get("table") not in tables or link.player >= len(names):
            Moment(self, link.show)
            tables, names = self.known[link.show]
        table_id = payload.get("table")
        seats = self.table(table_id).seats if table_id in tables else []
        require(link.player < len(names) and names[link.player] in seats, "table/not_seated",
                "이 테이블에 앉아 있지 않습니다. 화면을 확인하세요", "You are not seated at that table; check the screen",
                table=table_id)
        seat = seats.index(names[link.player])
        table = self.table(table_id)
        ack = table.submit(Actor.of_seat(seat), payload.get("move"), sid, guard=guard)
        return {"ack": ack.for_seat(seat)}

    # -- views -------------------------------------------------------------------------------

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

    def public_view(self, show: str, table_id: str) -> dict[str, Any]:
        """A table as the projector would show it now (the reveal hold included)."""
        return Moment(self, show).view(table_id, Audience.public())

    def presence(self, show: str, count: int) -> list[int]:
        """How many phones of each player are connected now (any process)."""
        pipe = self.r.pipeline(transaction=False)
        for player in range(count):
            pipe.hlen(self._sockets_key(show, player))
        return [int(n) for n in pipe.execute()]

    def public_snapshot(self, show: str, moment: Moment | None = None) -> Encoded:
        """The projector's whole payload, encoded once for the room and every screen that connects."""
        return self._public_whole(show, moment)[1]

    def _public_whole(self, show: str, moment: Moment | None = None) -> tuple[dict[str, Any], Encoded]:
        """The projector's whole payload, and encoded (kept for the screens that connect)."""
        moment = moment or Moment(self, show)
        replay = moment.info["replay"]
        if replay is not None and self.replays is not None:  # the console's 다시 보기 has the projector
            encoded = self.replays.payload(show, moment.info["name"], replay)
            return json.loads(str(encoded)), encoded
        current = moment.info["current"]
        view = moment.view(current, Audience.public()) if current else None
        payload = {"show": {"id": show, "name": moment.info["name"]}, "table": view,
                   "version": view["version"] if view else 0}
        if view is None or not view["started"] or view["state"].get("program"):
            # Before a match, the projector is the join screen: where to join, and whose phone
            # is here (names are public; which phones are connected is all it tells).
            here = moment.devices
            payload["join"] = {"url": f"{self.base_url()}/join", "audience": f"{self.base_url()}/a/{show}",
                               "players": [{"name": n, "here": c > 0} for n, c in zip(moment.info["roster"], here,
                                                                                         strict=True)]}
        encoded = encode_payload(payload)
        self._public[show] = (moment.public_key or self._public_key(show, current), encoded)
        return payload, encoded

    def _released_key(self, table_id: str) -> str:
        return f"{self.prefix}released:{table_id}"

    def hold_cut(self, table_id: str) -> int | None:
        """With the reveal hold on: the version just before the first reveal the dealer has not
        released yet (None: nothing held)."""
        table = self.table(table_id)
        if not table.game.reveals:
            return None
        folded = table.load()
        released = int(self.r.get(self._released_key(table_id)) or 0)
        for entry in table.store.entries(table_id, after=released):
            if entry["event"]["type"] in table.game.reveals and entry["action"] not in folded.voided:
                return entry["v"] - 1
        return None

    # -- the audience: many screens, few Redis trips ---------------------------------------------

    def show_exists(self, show: Any) -> bool:
        """Shows are never deleted, so a show seen once needs no Redis trip again."""
        if show in self._known_shows:
            return True
        if self.shows.exists(show, self.audience):
            self._known_shows.add(show)
            return True
        return False

    def _presence_key(self, show: str) -> str:
        """A counter moved by every phone that comes or goes (the join screen's names)."""
        return f"{self.prefix}presence:{show}"

    def _public_key(self, show: str, current: str | None) -> tuple[Any, ...]:
        """What the public snapshot depends on, now: the current table, its log's length, the
        hold and what was released (one round trip on the audience's connections). A fan-out's
        Moment reads the same in its own round trip (Moment.public_key)."""
        pipe = self.audience.pipeline(transaction=False)
        pipe.hmget(f"{self.prefix}show:{show}", ["current", "reveal_hold", "replay"])
        pipe.llen(self.store.log_key(current or ""))
        pipe.get(self._released_key(current or ""))
        pipe.get(self._presence_key(show))
        (now, hold, replay), length, released, presence = pipe.execute()
        return (now or None, int(length) if now == current else -1, hold, released, presence, replay)

    def audience_snapshot(self, show: str) -> Encoded:
        """The public snapshot for a screen that connects. Screens of one process share it while
        the current table has not moved, and however many connect at once (a Wi-Fi blip brings
        hundreds back together), it is computed once."""
        cached = self._public.get(show)
        if cached is not None and self._public_key(show, cached[0][0]) == cached[0]:
            return cached[1]
        with self._lock:
            lock = self._public_locks.setdefault(show, threading.Lock())
        with lock:
            cached = self._public.get(show)
            if cached is not None and self._public_key(show, cached[0][0]) == cached[0]:
                return cached[1]
            return self.public_snapshot(show)

    def seat_snapshot(self, link: PlayerLink, moment: Moment | None = None, table_id: Any = None) -> dict[str, Any]:
        """A player's phone: the view of `table_id` (a table they sit at), else of their focus,
        with the focus and the list of their tables, so the phone can follow or switch."""
        moment = moment or Moment(self, link.show)
        tables = dict(moment.tables_of(link.player))
        focus = moment.focus(link.player)
        shown = table_id if table_id in tables else focus
        view = None if shown is None else moment.view(shown, Audience.of_seat(tables[shown]))
        return {"show": {"id": link.show, "name": moment.info["name"]}, "player": moment.info["roster"][link.player],
                "seat": None if shown is None else tables[shown], "table": view,
                "version": view["version"] if view else 0, "focus": focus,
                "stories": moment.stories_open(link.player),
                "tables": [moment.summary(t, seat, link.player) for t, seat in moment.tables_of(link.player)]}

    def seat_story(self, link: PlayerLink, table_id: Any) -> dict[str, Any]:
        """A player's own story of a match they sat in (the phone's "내 경기 다시 보기"), once the
        show has ended: its program has a result, or (no program) every table of theirs is over.
        Before that their own secrets stay on the live screens only, and this refuses."""
        moment = Moment(self, link.show)
        tables = dict(moment.tables_of(link.player))
        require(moment.stories_open(link.player), "story/not_yet",
                "내 경기 다시 보기는 쇼가 끝나고 모든 공개가 끝난 뒤에 열립니다",
                "Your replay opens once the show has ended and every reveal has been shown")
        require(table_id in tables, "table/not_seated", "이 테이블에 앉아 있지 않습니다. 화면을 확인하세요",
                "You are not seated at that table; check the screen", table=str(table_id))
        table, seat = self.table(table_id), tables[table_id]
        view = moment.view(table_id, Audience.public())
        return {"table": table_id, "title": view["title"], "stage": view["stage"], "seat": seat, "seats": view["seats"],
                "result": view["result"], "lines": [line.to_json() for line in story(table, seat)]}

    def seat_welcome(self, link: PlayerLink, devices: int) -> Encoded:
        """A phone's first view. When it is the card's only open socket (`devices`, as
        seat_socket counted it) the view is recorded as what its room was last sent: a room
        nobody held was skipped by the fan-outs, and a stale record would make the next fan-out
        send the same view again, which would tell that something hidden happened meanwhile.
        With another device open the fan-outs kept the record, and recording this view would
        make a fan-out under way skip the room and leave the other device behind."""
        encoded = encode_payload(self.seat_snapshot(link))
        if devices == 1:
            self.r.hset(f"{self.prefix}sent:{link.show}", player_room(link.show, link.player, link.version),
                        _digest(encoded))
        return encoded

    def changed(self, show: str, table_id: str | None = None, everyone: bool = False, public: bool = False) -> None:
        """A command changed the show: send every audience its view, once acknowledged
        (``public``: only the projector's may have changed, e.g. who is here)."""
        def task() -> None:
            try:
                if public:  # who is here: the join screen and the consoles' rosters
                    moment = Moment(self, show)
                    self._publish_changed(moment, [("/public", public_room(show), self.public_snapshot(show, moment))])
                    self._to_consoles(show, moment)
                    return
                self.fan_out(show, table_id, everyone)
                for look in self.after_table:
                    look(show, table_id)
            except Exception as exc:  # the command stands; screens catch up on their next update
                if self.stopping:  # the server's Redis went away first: the next start sends fresh views
                    log.warning("fan-out for %s dropped, the server is stopping: %r", show, exc)
                else:
                    log.exception("fan-out failed for %s", show)

        self.defer(task)

    def fan_out(self, show: str, table_id: str | None = None, everyone: bool = False) -> None:
        """Send each audience its own view, computed once per audience from one read.

        The projector gets the current table's public view; each seated player's phone that
        seat's view (``everyone``: every player of the show, after a change of which table seats
        whom); the dealer console its snapshot, only when a console is connected (any process).
        One read of Redis (Moment) for all of them. The projector's view goes out first, and
        its sockets are written before the phones' views are even built (the room waits on the
        projector; the phone that moved has its ack already); then the phones' views, with one
        trip to decide which changed.
        """
        moment = Moment(self, show)
        rooms: list[tuple[str, str, dict[str, Any] | Encoded]] = []
        roster = moment.info["roster"]
        if table_id is not None and moment.info["current"] == table_id and moment.info["replay"] is None:
            payload, whole = self._public_whole(show, moment)
            room = public_room(show)
            # `everyone`: the projector may have moved to this table, so its screens get it whole.
            brief = None if everyone else brief_payload(payload)
            self._publish_changed(moment, [("/public", room, whole)],
                                  sent=None if brief is None else {room: encode_payload(brief)})
            self.pause()  # the projector's sockets are written now
        if table_id is not None:
            seats = self.table(table_id).seats
            players = range(len(roster)) if everyone else [roster.index(name) for name in seats if name in roster]
            for player in players:
                if not moment.devices[player]:
                    continue  # no phone open: it gets a fresh snapshot when it connects
                # The changed table's view to the players at it (their phone may show it, or
                # keep it for a switch); everyone else their focus (which table seats whom moved).
                shown = table_id if roster[player] in seats and not everyone else None
                rooms.append(("/seat", player_room(show, player, moment.info["links"][player]),
                              self.seat_snapshot(PlayerLink(show, player, 0), moment, shown)))
        self._publish_changed(moment, rooms)
        self._to_consoles(show, moment)

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

    def _publish_changed(self, moment: Moment, rooms: list[tuple[str, str, dict[str, Any] | Encoded]],
                         sent: dict[str, Encoded] | None = None) -> None:
        """Send each view only when it differs from the last one sent to its room (by any process).

        An action that changes nothing an audience may see (an appraisal, seen by its seat
        only) then sends that audience nothing: a new payload would itself tell that something
        happened. Clients that reconnect get a fresh snapshot anyway. `sent`: what goes out to
        a room instead of its view (the public brief form); the comparison is of the views.
        """
        if not rooms:
            return
        encoded = [p if isinstance(p, Encoded) else encode_payload(p) for _, _, p in rooms]
        args = [x for (_, room, _), text in zip(rooms, encoded, strict=True) for x in (room, _digest(text))]
        changed = set(self._changed_rooms(keys=[f"{self.prefix}sent:{moment.info['id']}"], args=args))
        for (namespace, room, _), text in zip(rooms, encoded, strict=True):
            if room in changed:
                self.publish(namespace, room, "view", (sent or {}).get(room, text), local=not moment.shared)


class Moment:
    """One read of a show: its registry entry, and each table folded once. Every view built
    for one fan-out comes from the same Moment, so they agree and Redis is read once."""

    def __init__(self, service: Service, show: str) -> None:
        self.service = service
        self._folded: dict[str, Any] = {}
        self._cuts: dict[str, int | None] = {}
        self._held: dict[str, Any] = {}
        self.info, self.consoles = self._read(show)

    def _read(self, show: str) -> tuple[dict[str, Any], bool]:
        """The show's registry entry, its players' link versions, whether a console is open,
        what every table of the show wrote since this process folded it, and what the public
        snapshot depends on (Service._public_key): one round trip, as one transaction (a second
        only when the roster or the tables grew since this process last looked)."""
        service, shows = self.service, self.service.shows
        tables, names = service.known.get(show, ([], []))
        players = len(names)
        pipe = service.r.pipeline(transaction=True)
        shows.read_info(pipe, show)
        pipe.exists(f"{service.prefix}dealers:{show}")
        pipe.hgetall(service.processes_key)
        pipe.get(service._presence_key(show))
        pipe.mget([service._released_key(t) for t in tables]) if tables else pipe.echo("")
        pipe.mget([shows.linkver_key(show, p) for p in range(players)]) if players else pipe.echo("")
        for player in range(players):
            pipe.hlen(service._sockets_key(show, player))
        cached = [(t, service.table(t).cached_version) for t in tables]
        for table_id, after in cached:
            pipe.lrange(service.store.log_key(table_id), after, -1)
        h, roster, table_ids, consoles, processes, presence, released, versions, *rest = pipe.execute()
        now = time.time()
        # Another process is up: views go through the queue (else to this process's sockets).
        self.shared = any(host != service.host and float(until) > now for host, until in processes.items())
        devices, tails = rest[:players], rest[players:]
        if not h:
            shows.require(show)
        links = [int(v or 0) for v in versions] if players else []
        self.devices = [int(n) for n in devices]
        if len(roster) != players:
            links = shows.link_versions(show, len(roster))
            self.devices = service.presence(show, len(roster))
        for (table_id, after), raw in zip(cached, tails, strict=True):
            self._folded[table_id] = service.table(table_id).absorb(after, [json.loads(r) for r in raw])
        service.known[show] = (table_ids, roster)
        current = h.get("current") or None
        # As Service._public_key would read it now (None: the current table is new here).
        self.public_key = None if current not in self._folded else (
            current, self._folded[current].version, h.get("reveal_hold"), released[tables.index(current)], presence,
            h.get("replay"))
        return shows.info_from(show, h, roster, table_ids, links), bool(consoles)

    def folded(self, table_id: str) -> Any:
        if table_id not in self._folded:
            self._folded[table_id] = self.service.table(table_id).load()
        return self._folded[table_id]

    def view(self, table_id: str, audience: Audience) -> dict[str, Any]:
        """What `audience` may see of a table now: with the show's reveal hold on, the public
        (and with players_wait the seats) see it as it stood before the first reveal the dealer
        has not released, with only the later actions that need nothing of it (Table.held):
        nothing the reveal decided is even computed for them."""
        table = self.service.table(table_id)
        return audience_view(table.game, table.header, self.folded_for(table_id, audience), audience)

    def folded_for(self, table_id: str, audience: Audience) -> Any:
        """The table's state as `audience` may know it now (see view): what its view, its
        status and what it owes are made from."""
        settings = self.info["settings"]
        waits = audience.kind == "public" or (audience.kind == "seat" and settings["players_wait"] == "on")
        if waits and settings["reveal_hold"] == "on" and not self.service.table(table_id).game.program:
            cut = self.cut(table_id)
            if cut is not None:
                if table_id not in self._held:
                    table = self.service.table(table_id)
                    self._held[table_id] = table.held(table.store.entries(table_id), cut)
                return self._held[table_id]
        return self.folded(table_id)

    def cut(self, table_id: str) -> int | None:
        if table_id not in self._cuts:
            self._cuts[table_id] = self.service.hold_cut(table_id)
        return self._cuts[table_id]

    def stories_open(self, player: int) -> bool:
        """A player's own stories may leave the server (Service.seat_story): the show has ended
        for them (its program has a result; without one, every table of theirs is over) and
        every reveal of their tables has been released to the hall."""
        tables = [t for t, _ in self.tables_of(player)]
        program = self.info["program"]
        ended = [program] if program else tables
        return (bool(ended) and all(self.status(t) in ("over", "done") for t in ended)
                and all(self.released(t) for t in tables))

    def released(self, table_id: str) -> bool:
        """Nothing of the table waits for the dealer's release (the hold is off, or everything
        written has been shown): only then may a player's own story of it leave the server."""
        return self.info["settings"]["reveal_hold"] != "on" or self.cut(table_id) is None

    def held(self, table_id: str) -> dict[str, Any] | None:
        """For the console: the reveal the projector is waiting on, in words."""
        if self.info["settings"]["reveal_hold"] != "on" or (cut := self.cut(table_id)) is None:
            return None
        table = self.service.table(table_id)
        entry = table.store.entries(table_id, after=cut)[0]
        return {"v": entry["v"], "what": what(table.game, entry["event"]["data"] | {"type": entry["event"]["type"]},
                                              table.seats).to_json()}

    def version_of(self, table_id: str | None) -> int:
        return self.folded(table_id).version if table_id else 0

    def tables_of(self, player: int) -> list[tuple[str, int]]:
        """Every table of the show that seats the player, with the seat, in the show's order
        (a program seats every player of its roster)."""
        name = self.info["roster"][player]
        out = []
        for table_id in self.info["tables"]:
            seats = self.service.table(table_id).seats
            if name in seats:
                out.append((table_id, seats.index(name)))
        return out

    def status(self, table_id: str, audience: Audience | None = None) -> str:
        """ready (made, not started), live, over (a result, not closed) or done (closed), as
        `audience` may know it (a held final reveal: still live for those who wait for it;
        None: as it is)."""
        folded = self.folded(table_id) if audience is None else self.folded_for(table_id, audience)
        if folded.finished:
            return "done"
        if not folded.started:
            return "ready"
        return "over" if folded.outlook(self.service.table(table_id).game).result is not None else "live"

    def owes(self, table_id: str, seat: int) -> bool:
        folded = self.folded_for(table_id, Audience.of_seat(seat))
        if not folded.started or folded.finished:
            return False
        return bool(folded.outlook(self.service.table(table_id).game).turn.for_seat(seat))

    def focus(self, player: int) -> str | None:
        """The table a player's phone shows by itself (DESIGN.md: a phone follows its player).

        First a table where the player owes a decision now (the projector's table first); then
        their live match (the projector's, else the latest made); then a match just over (its
        result); then the next match made but not started ("곧 시작"); then the program (their
        standing, out or waiting); then their last match. Preparing a table never moves a
        phone off a live one."""
        mine = self.tables_of(player)
        if not mine:
            return None
        current = self.info["current"]
        program = self.info["program"]
        matches = [(t, seat) for t, seat in mine if t != program]

        def pick(candidates: list[str]) -> str | None:
            if not candidates:
                return None
            return current if current in candidates else candidates[-1]

        def status(table_id: str, seat: int) -> str:  # as the player's own phone may know it
            return self.status(table_id, Audience.of_seat(seat))

        for chosen in (
            pick([t for t, seat in mine if self.owes(t, seat)]),
            pick([t for t, seat in matches if status(t, seat) == "live"]),
            pick([t for t, seat in matches if status(t, seat) == "over"]),
            next((t for t, seat in matches if status(t, seat) == "ready"), None),
            program if any(t == program for t, _ in mine) else None,
        ):
            if chosen is not None:
                return chosen
        return mine[-1][0]

    def summary(self, table_id: str, seat: int, player: int) -> dict[str, Any]:
        """One of a player's tables, as their phone lists it."""
        table = self.service.table(table_id)
        return {"table": table_id, "title": table.game.title.to_json(), "stage": table.header.get("stage"), "seat": seat,
                "status": self.status(table_id, Audience.of_seat(seat)), "owes": self.owes(table_id, seat),
                "program": table.game.program}


# KEYS: the hash of the last digest sent to each room. ARGV: room, digest, room, digest, ...
# Records the new digests and returns the rooms whose digest changed: one round trip.
_CHANGED_ROOMS = """
local changed = {}
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    changed[#changed + 1] = ARGV[i]
  end
end
return changed
"""


def _digest(encoded: str) -> str:
    """What a room was sent, as a digest of its encoding (encode_payload). Version numbers are
    part of it: each audience's version counts only what that audience may see (Seen), so an
    action hidden from it changes neither its view nor its number."""
    return hashlib.sha256(encoded.encode()).hexdigest()


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
                      "free": o.accepts is not None} for o in g.options]}
        for g in games.values()
    ]
