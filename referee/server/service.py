"""The show service: every staff command and every phone submission, and the fan-out.

Both adapters (the JSON API and the Socket.IO namespaces) call this one class, so a command
behaves the same whichever way it arrives. After a command the service computes each
audience's view once and publishes it to that audience's room only; the full state is never
sent anywhere but to the dealer.

Rooms: ``dealer:{show}`` on /dealer, ``public:{show}`` on /public, ``player:{show}:{n}`` on
/seat (a phone belongs to a player; it shows their seat at the latest table that seats them).
Every payload carries the table version.

The service is one object with a side per audience, each in its own module: the dealer's
commands (dealer.py), the phones (seat.py), the projector and the audience's screens
(public.py); here are what they share: the tables and their subscribers, the release history
of the reveal hold, and the fan-out (one read of a show: moment.py).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import redis

from referee.kernel import Game, registry
from referee.store import RedisStore
from referee.store.replication import Alone, Replication
from referee.table import Table
from referee.table.programs import ProgramRunner
from referee.table.replay import Release
from referee.table.runtime import FINISHED, STARTED, VOIDED

from .dealer import COMMON_SHEETS, DealerSide, Staff, dealer_room
from .moment import Moment
from .public import BRIEF_CONSTANT, BRIEF_DEFAULTS, PublicSide, brief_payload, public_room
from .seat import SeatSide, link_revoked, player_room
from .shows import PlayerLink, Shows
from .web import Encoded, encode_payload, room_digest

__all__ = ["BRIEF_CONSTANT", "BRIEF_DEFAULTS", "COMMON_SHEETS", "PROCESS_TTL", "Moment", "Service", "Staff",
           "dealer_room", "link_revoked", "player_room", "public_room"]

log = logging.getLogger(__name__)


# namespace, room, event, payload; `local`: to this process's sockets only (no other process is up)
Publish = Callable[..., None]


# A server process counts as up for this long after its last heartbeat (it beats every few seconds).
PROCESS_TTL = 60.0


class Service(DealerSide, SeatSide, PublicSide):
    def __init__(self, client: redis.Redis, shows: Shows, publish: Publish, base_url: Callable[[], str],
                 prefix: str = "ref:", games: Mapping[str, Game] | None = None,
                 defer: Callable[[Callable[[], None]], Any] | None = None,
                 disconnect: Callable[[str, str], None] | None = None,
                 audience: redis.Redis | None = None, pause: Callable[[], Any] | None = None,
                 replication: Alone | None = None, audience_url: Callable[[str], str] | None = None) -> None:
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
        self.store = RedisStore(client, prefix, replication)
        self.publish = publish
        # Ends a socket by id on whichever server process holds it (namespace, sid).
        self.disconnect = disconnect or (lambda namespace, sid: None)
        self.base_url = base_url
        # The hall's page of a show (/a/<show>), on the hall's own address when it has one.
        self.audience_url = audience_url or (lambda show: f"{self.base_url()}/a/{show}")
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._turns: dict[str, list[tuple[tuple[Any, ...], Callable[[], None]]]] = {}  # show -> its fan-outs, the first under way
        self._turns_lock = threading.Lock()
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
        self._on_commit = (self.programs.committed, self._follow, self._committed)
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
        # The pair's health on the console (docs/backup.md): only where there is a standby.
        if isinstance(replication, Replication):
            self.dealer_extras["backup"] = lambda show, moment: replication.status()

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

    # -- tables and their subscribers ----------------------------------------------------------

    def table(self, table_id: str) -> Table:
        with self._lock:
            if table_id not in self._tables:
                self._tables[table_id] = Table(self.store, table_id, self.games, on_commit=self._on_commit)
            return self._tables[table_id]

    def _committed(self, table: Table, entries: list[dict[str, Any]]) -> None:
        """Every table's last subscriber (Table.on_commit): its show's screens get their views.
        A program's command, and a stage table closed or opened again by it, move every phone
        (the next match): those go to everyone."""
        stage_moved = table.header.get("stage") is not None and any(
            e["event"]["type"] in (FINISHED, VOIDED) for e in entries)
        self.changed(self.show_of(table), table.id, everyone=table.game.program or stage_moved)

    def _follow(self, table: Table, entries: list[dict[str, Any]]) -> None:
        """The projector follows the evening by itself (the show's `follow` setting, on unless
        staff turn it off): a stage opened goes up (its table, before its start), a confirmed
        result brings the program's board (its result moment, then the next pairing), and a match
        started goes up unless another live match is on screen. P takes over at any time; the
        next of these events follows again."""
        kinds = [e["event"]["type"] for e in entries]
        if not kinds:
            return
        show = self.show_of(table)
        info = self.shows.info(show)
        if info["settings"]["follow"] != "on":
            return
        target = None
        if table.game.program:
            stages = self.programs.stage_tables(table)
            opened = [e["event"]["data"]["stage"] for e in entries if e["event"]["type"] == "StageOpened"]
            if "ResultConfirmed" in kinds:
                target = table.id
            elif opened and opened[-1] in stages:
                target = stages[opened[-1]]
        elif STARTED in kinds:
            current = info["current"]
            busy = current not in (None, table.id) and not self.table(current).game.program and self._live(current)
            target = None if busy else table.id
        if target is not None and target != info["current"]:
            self.shows.set_current(show, target)
            self.changed(show, target, everyone=True)

    def _live(self, table_id: str) -> bool:
        """A match under way: started, not closed, no result yet."""
        table = self.table(table_id)
        folded = table.load()
        return folded.started and not folded.finished and folded.outlook(table.game).result is None

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

    # -- the reveal hold's release history -----------------------------------------------------

    def _mark_released(self, table_id: str, version: int, hold: bool, released: int | None = None) -> None:
        """What the projector may show of a table from now (everything up to `released`, by
        default the table's `version` now, and whether the hold is on), and the same in the
        table's release history: a replay shows a held reveal where it was released
        (referee.table.replay)."""
        released = version if released is None else released
        pipe = self.r.pipeline(transaction=True)
        pipe.set(self.released_key(table_id), released)
        pipe.rpush(self.releases_key(table_id), json.dumps([version, released, hold, time.time()]))
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

    def released_key(self, table_id: str) -> str:
        return f"{self.prefix}released:{table_id}"

    def held_reveals(self, table_id: str) -> list[int]:
        """With the reveal hold on: the versions of the held reveals' first entries, one per
        action (a move that reveals twice, the tokens and the boxes, is one reveal), in order."""
        table = self.table(table_id)
        if not table.game.reveals:
            return []
        folded = table.load()
        released = int(self.r.get(self.released_key(table_id)) or 0)
        out: dict[int, int] = {}
        for entry in table.store.entries(table_id, after=released):
            if entry["event"]["type"] in table.game.reveals and entry["action"] not in folded.voided:
                out.setdefault(entry["action"], entry["v"])
        return list(out.values())

    def hold_cut(self, table_id: str) -> int | None:
        """With the reveal hold on: the version just before the first reveal the dealer has not
        released yet (None: nothing held)."""
        table = self.table(table_id)
        if not table.game.reveals:
            return None
        folded = table.load()
        released = int(self.r.get(self.released_key(table_id)) or 0)
        for entry in table.store.entries(table_id, after=released):
            if entry["event"]["type"] in table.game.reveals and entry["action"] not in folded.voided:
                return entry["v"] - 1
        return None

    # -- the fan-out ---------------------------------------------------------------------------

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

        self._in_turn(show, (table_id, everyone, public), task)

    def _in_turn(self, show: str, kind: tuple[Any, ...], task: Callable[[], None]) -> None:
        """A show's fan-outs run one after another, in the order of their changes, so each reads
        the show after the one before it has sent, and the last view a screen gets is of the
        newest state. Run side by side, an earlier read could be sent last: after a stage's
        result the projector followed to the program's board, and the console's last snapshot,
        read a moment before that, kept saying the stage's table was up. A change like one still
        waiting its turn (not yet read) adds nothing: that one reads the newer state."""
        with self._turns_lock:
            line = self._turns.setdefault(show, [])
            if any(waiting == kind for waiting, _ in line[1:]):
                return
            line.append((kind, task))
            if len(line) > 1:
                return  # the turn under way runs it next

        def turns() -> None:
            while True:
                try:
                    line[0][1]()  # a task catches its own errors
                except BaseException:  # the process stops: the show's line ends with it
                    with self._turns_lock:
                        line.clear()
                        del self._turns[show]
                    raise
                with self._turns_lock:
                    line.pop(0)
                    if not line:
                        del self._turns[show]
                        return

        self.defer(turns)

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
        args = [x for (_, room, _), text in zip(rooms, encoded, strict=True) for x in (room, room_digest(text))]
        changed = set(self._changed_rooms(keys=[f"{self.prefix}sent:{moment.info['id']}"], args=args))
        for (namespace, room, _), text in zip(rooms, encoded, strict=True):
            if room in changed:
                self.publish(namespace, room, "view", (sent or {}).get(room, text), local=not moment.shared)


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
