"""The runtime of one live table: commands, the log, corrections, views.

The log is a header and versioned entries ``{v, action, actor, event, t, sid?}``. An action
is one accepted command; it writes one or more entries (the move's events, then any automatic
steps it triggered) that share the action number, the version of its first entry. State is
the fold of the live entries; a void is an entry too, and state is refolded without the
voided action while both stay in the log.

Appends carry the version they expect. On a conflict (another phone got in first) the
runtime reloads and decides again, so simultaneous submissions all land, in some order. A
command is acknowledged only once the store has written it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any, NamedTuple

from referee.kernel import Actor, Audience, Event, Game, Result, Rng, RuleError, T, Turn, get_game, require
from referee.kernel.decisions import shaped
from referee.store.base import Guard, Store, stored

STARTED = "table.started"
VOIDED = "table.voided"
FINISHED = "table.finished"
CLOCK = "table.clock"
MAX_ATTEMPTS = 200
CLOCK_ACTIONS = ("start", "pause", "resume", "add", "stop")


@dataclass
class Step:
    """One action about to be written: its entries (who, event) and what its first entry also
    records (the move as submitted, so a correction can apply it again; ``by``: "bot")."""

    entries: list[tuple[Actor, dict[str, Any]]]
    meta: dict[str, Any] = field(default_factory=dict)


def secret_to(event: Mapping[str, Any]) -> frozenset[int] | None:
    """The seats that may see a wholly secret event (no public data), or None for an event
    every audience sees at least in part (Event.secret)."""
    if event.get("data") or (event.get("private") is None and event.get("dealer") is None):  # as Event.secret
        return None
    return frozenset(event.get("to", ()))


@dataclass
class Seen:
    """How many log entries each audience can see: the version numbers of its own stream.

    Table versions count every entry, so a rival could count hidden actions (appraisals) from
    the jumps between two payloads. An audience's version counts only the entries it may see:
    the public every entry with public data; a seat those plus the wholly secret entries meant
    for it; the dealer all. A void is seen by exactly those who saw what it voids. So an
    audience's stream is the same whether or not something hidden from it happened.
    """

    everyone: int = 0
    secret: dict[int, int] = field(default_factory=dict)  # seat -> wholly secret entries it saw
    # action -> the seats that saw it, for actions every entry of which is wholly secret
    hidden_actions: dict[int, frozenset[int]] = field(default_factory=dict)
    public_actions: set[int] = field(default_factory=set)

    def copy(self) -> Seen:
        return Seen(self.everyone, dict(self.secret), dict(self.hidden_actions), set(self.public_actions))

    def visible_to(self, entry: Mapping[str, Any]) -> frozenset[int] | None:
        """Who sees `entry` (None: everyone), given the entries added before it."""
        event = entry["event"]
        if event["type"] == VOIDED:
            return self.hidden_actions.get(event["data"]["action"])
        return secret_to(event)

    def add(self, entry: Mapping[str, Any]) -> None:
        seats = self.visible_to(entry)
        action = entry["action"]
        if seats is None:
            self.everyone += 1
            if entry["event"]["type"] != VOIDED:
                self.public_actions.add(action)
                self.hidden_actions.pop(action, None)
            return
        for seat in seats:
            self.secret[seat] = self.secret.get(seat, 0) + 1
        if entry["event"]["type"] != VOIDED and action not in self.public_actions:
            self.hidden_actions[action] = self.hidden_actions.get(action, frozenset()) | seats

    def version_for(self, audience: Audience, table_version: int) -> int:
        if audience.kind == "dealer":
            return table_version
        if audience.kind == "seat":
            return self.everyone + self.secret.get(audience.seat, 0)
        return self.everyone


@dataclass(frozen=True)
class Ack:
    """A command's acknowledgement: the log's version after it, and the action it made.
    ``seen`` gives each audience's own version after it (see Seen)."""

    version: int
    action: int
    duplicate: bool = False
    seen: Seen | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "action": self.action, "duplicate": self.duplicate}

    def for_seat(self, seat: int) -> dict[str, Any]:
        """The acknowledgement as a phone gets it: its own version, nothing about the table's."""
        version = self.seen.version_for(Audience.of_seat(seat), self.version) if self.seen else self.version
        return {"version": version, "duplicate": self.duplicate}


class Outlook(NamedTuple):
    """Whose decisions a state waits for, and its result (None: still playing)."""

    turn: Turn
    result: Result | None


class Voided(NamedTuple):
    """One entry of a void command: who saw the action it voids (None: everyone), each
    audience's version just after the entry, the entry, and the voided action's first event
    (what the screens name in public words; the dealer's typed reason never leaves the log)."""

    seats: frozenset[int] | None
    seen: Seen
    entry: dict[str, Any]
    event: dict[str, Any] | None


@dataclass
class Folded:
    """The state at a version, with what the runtime needs to decide the next command."""

    version: int
    state: Any
    started_at: int | None = None  # the action that started the table
    finished_at: int | None = None  # the action that closed the table: no more moves
    live_actions: list[int] = field(default_factory=list)  # accepted, not voided, in order
    voided: set[int] = field(default_factory=set)
    seen: Seen = field(default_factory=Seen)
    clock: dict[str, Any] | None = None  # the show clock (see clock_after)
    # The latest void command (one entry per action it voided: see Voided), and per seat the
    # latest move the dealer entered for it with each audience's version just after it (for the
    # "정정" and "대신 입력" notes).
    correction: list[Voided] | None = None
    behalf: dict[int, tuple[Seen, dict[str, Any]]] = field(default_factory=dict)
    # The decisions the running clock was started for, as (seat, move): it ends with them.
    clock_for: frozenset[tuple[int | None, str]] | None = None
    # The state and its outlook, worked out once per state (see outlook).
    _outlook: tuple[Any, Outlook] | None = field(default=None, repr=False, compare=False)

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def version_for(self, audience: Audience) -> int:
        return self.seen.version_for(audience, self.version)

    def outlook(self, game: Game) -> Outlook:
        """The turn and the result of the state, each computed once per state: one fan-out
        asks for them in every audience's view, each phone's table list and its focus. Both
        are pure functions of the state (the game contract), so a state's answer stands."""
        if self._outlook is None or self._outlook[0] is not self.state:
            self._outlook = (self.state, Outlook(game.turn(self.state), game.result(self.state)))
        return self._outlook[1]


def new_header(game: Game, table: str, seats: list[str], options: Mapping[str, Any] | None, seed: int | None,
               created: float, stage: Mapping[str, Any] | None = None, show: str | None = None) -> dict[str, Any]:
    """A table's header. ``seed`` None (every live table): each draw comes from the operating
    system's cryptographic generator. A seed makes a rehearsal table whose draws anyone who knows
    the seed can repeat; the header says so. ``stage``: the program stage the table plays
    ({key, title, program}), named so on every screen. ``show``: the show it belongs to."""
    game.check_seat_count(len(seats))
    return {
        "kind": "header",
        "table": table,
        "game": game.id,
        "rules": game.rules_version,
        "seed": seed,
        "seats": list(seats),
        "options": game.resolve_options(options, len(seats)),
        "created": created,
        **({"stage": dict(stage)} if stage is not None else {}),
        **({"show": show} if show is not None else {}),
    }


def table_rng(header: Mapping[str, Any], version: int) -> Rng:
    """The generator of the decision written at `version`."""
    seed = header.get("seed")
    return Rng.secure() if seed is None else Rng(seed, version)


def initial(game: Game, header: Mapping[str, Any]) -> Folded:
    state = game.setup(tuple(header["seats"]), header["options"], Rng.forbidden())
    return Folded(0, state)


def fold(game: Game, header: Mapping[str, Any], entries: list[dict[str, Any]], base: Folded | None = None) -> Folded:
    """Fold `entries` into the state: all of them, or the ones after `base`.

    Entries after `base` must hold no void: a void refolds from the start (see Table.load).
    """
    if base is None:
        folded = initial(game, header)
        folded.voided = {e["event"]["data"]["action"] for e in entries if e["event"]["type"] == VOIDED}
    else:
        folded = Folded(base.version, base.state, base.started_at, base.finished_at, list(base.live_actions),
                        set(base.voided), base.seen.copy(), base.clock, base.correction, dict(base.behalf),
                        clock_for=base.clock_for)
    firsts: dict[int, dict[str, Any]] = {}  # action -> its first event (a void names what it voided)
    for entry in entries:
        folded.version = entry["v"]
        seats = folded.seen.visible_to(entry)
        folded.seen.add(entry)
        event = entry["event"]
        firsts.setdefault(entry["action"], event)
        if event["type"] == VOIDED:
            same = folded.correction and folded.correction[-1].entry["action"] == entry["action"]
            voided = Voided(seats, folded.seen.copy(), entry, firsts.get(event["data"]["action"]))
            folded.correction = [*folded.correction, voided] if same else [voided]
        if entry["action"] in folded.voided or event["type"] == VOIDED:
            continue
        actor = entry["actor"]
        first = not folded.live_actions or folded.live_actions[-1] != entry["action"]  # of its action
        if actor.startswith("dealer>seat:") and first:
            # The move itself (its action's first entry), not what followed from it (the turn
            # passing); told by the fold's own record, so folding entry by entry says the same.
            folded.behalf[int(actor.partition(":")[2])] = (folded.seen.copy(), entry)
        if first:
            folded.live_actions.append(entry["action"])
        if event["type"] == STARTED:
            folded.started_at = entry["action"]
        elif event["type"] == FINISHED:
            folded.finished_at = entry["action"]
        elif event["type"] == CLOCK:
            folded.clock = clock_after(folded.clock, event["data"])
            if folded.clock is None:
                folded.clock_for = None
            elif event["data"]["action"] == "start":
                folded.clock_for = owed(game, folded.state)
        else:
            folded.state = game.evolve(folded.state, Event.from_json(event))
            if folded.clock is not None and folded.clock_for and not folded.clock_for & owed(game, folded.state):
                # Its decision was made (by the seat, or entered for it): the clock ends with it,
                # and no screen keeps a red 0:00 for a move that is in.
                folded.clock, folded.clock_for = None, None
    return folded


def owed(game: Game, state: Any) -> frozenset[tuple[int | None, str]]:
    """The decisions owed now (seat, move), the referee's own steps left out."""
    return frozenset((d.seat, d.move) for d in game.turn(state).decisions if not d.auto)


# Who reacts to a table's commits (an event-sourced process manager's subscription): called with
# the table and the entries a command wrote, once they are stored, before the command's
# acknowledgement returns; with no entries for a resend that was applied before. A show program
# makes and closes its stage tables this way, and the server sends every screen its view.
OnCommit = Callable[["Table", list[dict[str, Any]]], None]


class Table:
    """One table (one match) on a store. Safe to share between threads of one process; any
    number of processes may run a Table on the same table id and store."""

    def __init__(self, store: Store, table: str, games: Mapping[str, Game] | None = None,
                 clock: Callable[[], float] = time.time, on_commit: Sequence[OnCommit] = ()) -> None:
        self.store = store
        self.id = table
        self.clock = clock
        self.header = store.header(table)
        self.game = get_game(self.header["game"], games)
        self.on_commit = tuple(on_commit)
        self._lock = threading.Lock()
        self._folded = initial(self.game, self.header)

    @classmethod
    def create(cls, store: Store, table: str, game_id: str, seats: list[str], options: Mapping[str, Any] | None = None,
               seed: int | None = None, games: Mapping[str, Game] | None = None, clock: Callable[[], float] = time.time,
               stage: Mapping[str, Any] | None = None, show: str | None = None,
               on_commit: Sequence[OnCommit] = ()) -> Table:
        game = get_game(game_id, games)
        store.create(table, new_header(game, table, seats, options, seed, clock(), stage, show))
        return cls(store, table, games, clock, on_commit)

    # -- reading ---------------------------------------------------------------------------

    def load(self) -> Folded:
        """The current state, reading only the entries written since the last load."""
        with self._lock:
            return self._absorb(self._folded.version, self.store.entries(self.id, after=self._folded.version))

    @property
    def cached_version(self) -> int:
        """The version this process has folded to (a batched read asks for what came after it)."""
        return self._folded.version

    def absorb(self, after: int, fresh: list[dict[str, Any]]) -> Folded:
        """The state, given the entries after version `after` read elsewhere (one pipeline for a
        whole show); read again if the cache moved on meanwhile."""
        with self._lock:
            if after != self._folded.version:
                return self._absorb(self._folded.version, self.store.entries(self.id, after=self._folded.version))
            return self._absorb(after, fresh)

    def _absorb(self, after: int, fresh: list[dict[str, Any]]) -> Folded:
        if any(e["event"]["type"] == VOIDED for e in fresh):
            self._folded = fold(self.game, self.header, self.store.entries(self.id))
        elif fresh:
            self._folded = fold(self.game, self.header, fresh, self._folded)
        return self._folded

    @property
    def seats(self) -> list[str]:
        return self.header["seats"]

    def result(self) -> dict[str, Any] | None:
        result = self.game.result(self.load().state)
        return None if result is None else result.to_json()

    def view(self, audience: Audience) -> dict[str, Any]:
        return audience_view(self.game, self.header, self.load(), audience)

    def log(self, audience: Audience, last: int | None = None) -> list[dict[str, Any]]:
        """The log as `audience` may see it; `last`: only the newest entries."""
        after = 0 if last is None or audience.kind != "dealer" else max(0, self.store.version(self.id) - last)
        rows = audience_log(self.store.entries(self.id, after=after), audience, self.game, self.seats)
        return rows if last is None else rows[-last:]

    def held(self, entries: list[dict[str, Any]], cut: int) -> Folded:
        """The table as it stands for an audience that waits for a held reveal (the show's
        reveal hold): the log up to the reveal (its first `cut` entries), then every later
        action that does exactly the same on that state, up to the first reveal it holds.

        So only what is a reveal waits: in Bridge the other room's contracts keep counting
        while one room's reveal is held, and a clock goes on. Anything that needs what the
        reveal decided (the next round, the auction after the works were shown) is refused or
        turns out otherwise when decided again on the held state, and waits with the reveal.
        """
        folded = fold(self.game, self.header, entries[:cut])
        voided = {e["event"]["data"]["action"] for e in entries if e["event"]["type"] == VOIDED}
        actions: dict[int, list[dict[str, Any]]] = {}
        for entry in entries[cut:]:
            actions.setdefault(entry["action"], []).append(entry)
        held_action = entries[cut]["action"] if cut < len(entries) else None
        for action, group in actions.items():
            first = group[0]
            if action == held_action or action in voided or first["event"]["type"] == VOIDED:
                continue  # the held reveal and the rest of its action; what the live state lacks too
            if first["event"]["type"] == CLOCK:
                folded = fold(self.game, self.header, group, folded)
                continue
            shown = self._before_reveal(folded.state, group)
            if shown is None:
                break  # it needs what the reveal decided (or closes the table): it waits too
            folded = fold(self.game, self.header, shown, folded)
            if len(shown) < len(group) and group[len(shown)]["event"]["type"] not in self.game.reveals:
                break  # a step the referee took on the live state (a deal): not decided again here
        return folded

    def _before_reveal(self, state: Any, group: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """The entries of an action up to its first reveal, if its move decided again on `state`
        gives exactly those events before any reveal of its own (a held room may be revealed by
        the same move there: that reveal waits as well); None if it is refused or turns out
        otherwise."""
        first = group[0]
        if "move" not in first or first["event"]["type"] in (FINISHED, STARTED):
            return None
        try:
            decided = self.game.decide(state, Actor.parse(first["actor"]), first["move"],
                                       table_rng(self.header, first["v"]))
        except RuleError:
            return None
        mine = [e.to_json() for e in takewhile(lambda e: e.type not in self.game.reveals, decided)]
        logged = list(takewhile(lambda e: e["event"]["type"] not in self.game.reveals, group))
        if [e["event"] for e in logged[:len(mine)]] != mine:
            return None
        return logged[:len(mine)]

    # -- commands --------------------------------------------------------------------------

    def start(self, actor: Actor) -> Ack:
        _require_dealer(actor, "start")
        return self._command(actor, None, lambda f: [Step(self._starting(f))])

    def submit(self, actor: Actor, move: Any, sid: str | None = None, by: str | None = None,
               guard: Guard | None = None) -> Ack:
        """Apply a move; a resend with the same submission id is applied once. ``by="bot"``
        marks a rehearsal bot's move in the log; a `guard` (a phone's link and rate limit) is
        checked by the move's append (Store.append)."""
        if sid is not None:
            require(isinstance(sid, str) and 0 < len(sid) <= 100, "table/bad_submission_id",
                    f"제출 번호가 잘못되었습니다: {sid!r}", f"Bad submission id: {sid!r}", sid=sid)
        marks = {"by": by} if by else {}

        def moving(folded: Folded) -> list[Step]:
            written, kept, over = self._moving(folded, actor, move)
            # `over`: this action gives the table its result (a question of the hall about the
            # result closes at it, server/crowd.py).
            return [Step(written, {"move": kept, **marks} | ({"over": True} if over else {}))]

        return self._command(actor, sid, moving, guard)

    def clock_command(self, actor: Actor, action: Any, seconds: Any = 0) -> Ack:
        """The show clock of the current decision: start (seconds), pause, resume, add
        (seconds), stop. It decides nothing by itself; the log records every action."""
        _require_dealer(actor, "clock")
        require(action in CLOCK_ACTIONS, "table/bad_clock", f"시계 명령이 아닙니다: {action!r}",
                f"Not a clock action: {action!r}", action=action)
        require(isinstance(seconds, int) and not isinstance(seconds, bool) and 0 <= seconds <= 3600,
                "table/bad_clock", f"초는 0-3600이어야 합니다: {seconds!r}", f"Seconds must be 0-3600: {seconds!r}",
                seconds=seconds)

        def clocking(folded: Folded) -> list[Step]:
            require(folded.started, "table/not_started", "아직 시작하지 않은 테이블입니다", "The table has not started yet")
            _require_open(folded)
            event = Event(CLOCK, {"action": action, "seconds": seconds, "at": round(self.clock(), 3)})
            return [Step([(Actor.dealer(), event.to_json())])]

        return self._command(actor, None, clocking)

    def finish(self, actor: Actor, reason: str = "") -> Ack:
        """Close the table: no more moves. A match that has no result yet ends unplayed. Voiding
        the finish opens it again."""
        _require_dealer(actor, "finish")
        return self._command(actor, None, lambda f: [Step(self._finishing(f, reason))])

    def void(self, actor: Actor, reason: str, action: int | None = None, last: int | None = None) -> Ack:
        """Void an action (the dealer's correction): the last live one by default. Voiding an
        older one voids every later action too and applies their moves again where they are
        still legal (see ``void_plan``). `last`: the newest action the dealer's preview showed
        (``void_plan``'s "last"); a newer one came in meanwhile (bots, a phone): refused, so no
        void ever undoes or re-applies an action the dealer did not see in the preview."""
        _require_dealer(actor, "void")
        require(isinstance(reason, str) and bool(reason.strip()), "table/void_needs_reason",
                "무효 처리에는 사유가 필요합니다", "A void needs a reason", reason=reason)

        def voiding(folded: Folded) -> list[Step]:
            newest = folded.live_actions[-1] if folded.live_actions else None
            require(last is None or newest == last, "table/moved_on",
                    f"미리보기 뒤에 새 행동이 들어왔습니다 ({newest}번). 무효 내용을 다시 확인하고 확정하세요",
                    f"A newer action came in after the preview (#{newest}); check the void again and confirm",
                    last=last, newest=newest)
            return self._voiding(folded, reason.strip(), action)[0]

        return self._command(actor, None, voiding)

    def void_plan(self, action: int | None = None) -> dict[str, Any]:
        """What voiding `action` would do, without doing it: the action, the later ones applied
        again, and the later ones that conflict (no longer legal, or drawn at random), in words."""
        return self._voiding(self.load(), "preview", action)[1]

    # -- internals -------------------------------------------------------------------------

    def _command(self, actor: Actor, sid: str | None, decide: Callable[[Folded], list[Step]],
                 guard: Guard | None = None) -> Ack:
        # First on the state this process has folded, without reading: the append goes through
        # only if the log is still at that version (and the submission id is new), so a stale
        # cache costs one refused append. A refusal by the rules on that state is not final:
        # it is decided again on the log as it stands.
        optimistic = self._folded.version > 0
        for _ in range(MAX_ATTEMPTS):
            if optimistic:
                folded = self._folded
            else:
                # One read: was this submission applied already, and what came since the cache.
                with self._lock:
                    after = self._folded.version
                    fresh, done = self.store.tail(self.id, after, sid)
                    folded = self._absorb(after, fresh)
                if done is not None:
                    return self._duplicate(done)
            try:
                steps = decide(folded)
            except RuleError:
                if not optimistic:
                    raise
                optimistic = False
                continue
            optimistic = False
            action = folded.version + 1
            now = self.clock()
            entries: list[dict[str, Any]] = []
            for step in steps:
                first = folded.version + len(entries) + 1  # an action is numbered by its first entry
                for who, event in step.entries:
                    entries.append({"v": folded.version + len(entries) + 1, "action": first, "actor": str(who),
                                    "event": event, "t": now})
                entries[first - folded.version - 1].update(step.meta)
            if sid is not None:
                entries[0]["sid"] = sid
            appended = self.store.append(self.id, folded.version, entries, sid, guard)
            if appended.ok:
                written = self._absorb_written(folded, entries)
                seen = folded.seen.copy()
                for entry in entries:
                    seen.add(entry)
                self._committed(written)
                return Ack(appended.version, action, seen=seen)
            if appended.duplicate:
                return self._duplicate(appended.version)
            # Conflict: someone else wrote first; reload and decide again.
        raise RuleError("table/busy", "테이블이 너무 바쁩니다. 다시 시도하세요", "The table is too busy; try again")

    def _absorb_written(self, folded: Folded, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Fold what this process just wrote into its cache (as the log stores it, so that the
        cache is what a reload would give), unless the cache moved on meanwhile; the entries as
        stored."""
        written = stored(entries)
        with self._lock:
            if self._folded.version == folded.version:
                self._absorb(folded.version, written)
        return written

    def _committed(self, written: list[dict[str, Any]]) -> None:
        """Tell the table's subscribers (OnCommit) what was just stored."""
        for subscriber in self.on_commit:
            subscriber(self, written)

    def _duplicate(self, version: int) -> Ack:
        """The acknowledgement of a submission applied before, at `version` (a resend). The
        subscribers hear of it with no entries: what the first try began (a stage table made,
        the screens' views) may have been cut short by a crash, and is done again if so."""
        entries = self.store.entries(self.id)[:version]
        seen = Seen()
        for entry in entries:
            seen.add(entry)
        self._committed([])
        return Ack(version, entries[-1]["action"], duplicate=True, seen=seen)

    def _again(self, state: Any, first: dict[str, Any], original: list[dict[str, Any]],
               version: int) -> tuple[list[tuple[Actor, dict[str, Any]]], T | None]:
        """A voided move applied again on `state`: its entries, or why it cannot be. Applied again
        a move must do exactly what it did: a draw done anew, or an outcome the voided action
        changed, is for the dealer to enter again."""
        if "move" not in first:
            return [], T("원래의 수가 기록되어 있지 않습니다", "The original move is not on record")
        actor = Actor.parse(first["actor"])
        written: list[tuple[Actor, dict[str, Any]]] = []
        try:
            for event in self.game.decide(state, actor, first["move"], table_rng(self.header, version + 1)):
                state = self.game.evolve(state, event)
                written.append((actor, event.to_json()))
        except RuleError as err:
            return [], T(err.ko, err.en)
        written += self._automatic(state, version + 1 + len(written))
        if [event for _, event in written] != original:
            return [], T("다시 적용하면 결과가 달라집니다 (추첨 또는 무효로 한 행동 때문에)",
                         "Applied again it would turn out otherwise (a draw, or the voided action)")
        return written, None

    def _starting(self, folded: Folded) -> list[tuple[Actor, dict]]:  # one action: the start and its deal
        require(not folded.started, "table/already_started", "이미 시작한 테이블입니다", "The table has already started")
        out: list[tuple[Actor, dict]] = [(Actor.dealer(), Event(STARTED).to_json())]
        return out + self._automatic(folded.state, folded.version + 1)

    def _finishing(self, folded: Folded, reason: str) -> list[tuple[Actor, dict]]:
        _require_open(folded)
        # The typed reason is the dealer's (as a void's): the screens say only that the table closed.
        reason = str(reason)[:500]
        return [(Actor.dealer(), Event(FINISHED, {"closed": True}, {"reason": reason} if reason else None).to_json())]

    def _moving(self, folded: Folded, actor: Actor, move: Any) -> tuple[list[tuple[Actor, dict]], Any, bool]:
        """A move's entries, the move as the game decided it and the log keeps it (in its
        decision's shape only: kernel `shaped`, a field the sender made up is never stored), and
        whether the table has its result after it and had none before."""
        require(folded.started, "table/not_started", "아직 시작하지 않은 테이블입니다", "The table has not started yet")
        _require_open(folded)
        if actor.kind == "referee":
            raise RuleError("table/referee_only", "자동 진행은 직접 입력할 수 없습니다",
                            "Automatic steps cannot be entered by hand")
        if actor.seat is not None:
            # Seats go over the wire from 0; a person counts them from 1 (a seat -1 is no "seat 0").
            require(0 <= actor.seat < len(self.seats), "table/no_such_seat",
                    f"없는 자리입니다: {actor.seat} (자리는 0-{len(self.seats) - 1}, 화면에서는 1-{len(self.seats)}번)",
                    f"No such seat: {actor.seat} (seats are 0-{len(self.seats) - 1}, shown as 1-{len(self.seats)})",
                    seat=actor.seat)
        state = folded.state
        # A program's confirm_result carries the result of its stage's table, which the server
        # adds (ProgramRunner.complete); staff only.
        keep = ("result",) if self.game.program and actor.kind == "dealer" else ()
        move = shaped(folded.outlook(self.game).turn, actor, move, len(self.seats), keep)
        rng = table_rng(self.header, folded.version + 1)
        out: list[tuple[Actor, dict]] = []
        for event in self.game.decide(state, actor, move, rng):
            state = self.game.evolve(state, event)
            out.append((actor, event.to_json()))
        automatic = self._automatic(state, folded.version + 1 + len(out))
        for _, event in automatic:
            state = self.game.evolve(state, Event.from_json(event))
        over = folded.outlook(self.game).result is None and self.game.result(state) is not None
        return out + automatic, move, over

    def _automatic(self, state: Any, version: int) -> list[tuple[Actor, dict]]:
        """The steps the referee takes by itself (a shuffle, a deal) after a command."""
        out: list[tuple[Actor, dict]] = []
        while (auto := self.game.turn(state).automatic()) is not None:
            for event in self.game.decide(state, Actor.referee(), {"type": auto.move}, table_rng(self.header, version)):
                state = self.game.evolve(state, event)
                out.append((Actor.referee(), event.to_json()))
                version += 1
        return out

    def _voiding(self, folded: Folded, reason: str, action: int | None) -> tuple[list[Step], dict[str, Any]]:
        """The steps of a void, and its plan in words.

        The start can be voided only while nothing came after it (the table is back to
        "not started"); a finished table's last action is its finish, and voiding it opens the
        table again. Voiding an older action voids it and every later one, then applies each
        later move again on the state without them: where it is no longer legal, or where it
        (or what it triggered) drew at random, it stays voided and is listed as a conflict,
        never silently redrawn.
        """
        live = folded.live_actions
        movable = live if live == [folded.started_at] else [a for a in live if a != folded.started_at]
        require(bool(movable), "table/nothing_to_void", "무효로 할 행동이 없습니다", "There is no action to void")
        target = movable[-1] if action is None else action
        require(target in movable, "table/not_live", f"무효로 할 수 있는 행동이 아닙니다: {target}",
                f"Not an action that can be voided: {target}", action=target)
        entries = self.store.entries(self.id)
        by_action: dict[int, list[dict[str, Any]]] = {}
        for entry in entries:
            by_action.setdefault(entry["action"], []).append(entry)
        later = [a for a in live if a > target]

        def words(entry: dict[str, Any]) -> dict[str, Any]:
            return {"action": entry["action"], "who": who(entry["actor"], self.seats).to_json(),
                    "what": what(self.game, Event.from_json(entry["event"]).visible_to(Audience.dealer()),
                                 self.seats).to_json()}

        voids = [(Actor.dealer(), Event(VOIDED, {"action": a, "reason": reason}).to_json()) for a in [target, *later]]
        steps = [Step(voids)]
        # What the projector's "정정" notice will say (never the reason): the console shows it first.
        # None: the projector never saw the action, and sees no notice of its void either.
        first = Event.from_json(by_action[target][0]["event"])
        public = None if first.hidden_from(Audience.public()) else what(
            self.game, first.visible_to(Audience.public()), self.seats).to_json()
        plan: dict[str, Any] = {"target": {**words(by_action[target][0]), "public": public},
                                "reapplied": [], "conflicts": [], "last": live[-1]}
        if not later:
            return steps, plan
        gone = {target, *later}
        state = fold(self.game, self.header, [e for e in entries if e["action"] not in gone]).state
        version = folded.version + len(voids)
        for a in later:
            first = by_action[a][0]
            if first["event"]["type"] in (FINISHED, CLOCK):  # the dealer's own: the same again
                written, problem = [(Actor.parse(e["actor"]), e["event"]) for e in by_action[a]], None
            else:
                written, problem = self._again(state, first, [e["event"] for e in by_action[a]], version)
            if problem is not None:
                plan["conflicts"].append({**words(first), "why": problem.to_json()})
                continue
            for _, event in written:
                if event["type"] not in (FINISHED, CLOCK):
                    state = self.game.evolve(state, Event.from_json(event))
            version += len(written)
            steps.append(Step(written, {k: first[k] for k in ("move", "by", "over") if k in first} | {"replay_of": a}))
            plan["reapplied"].append(words(first))
        return steps, plan


def _require_open(folded: Folded) -> None:
    require(not folded.finished, "table/finished", "이미 종료된 테이블입니다", "The table has been finished")


def _require_dealer(actor: Actor, what: str) -> None:
    require(actor.kind == "dealer" and actor.seat is None, "table/dealer_only",
            f"딜러만 할 수 있습니다: {what}", f"Only the dealer can {what}", command=what)


def audience_view(game: Game, header: Mapping[str, Any], folded: Folded, audience: Audience) -> dict[str, Any]:
    """What `audience` may see of a table: the game's view plus the pending decisions it owns."""
    turn, result = folded.outlook(game)
    if audience.kind == "dealer":
        decisions = [d.to_json() for d in turn.decisions if not d.auto]
    elif audience.kind == "seat":
        decisions = [d.to_json() for d in turn.for_seat(audience.seat)]
    else:
        decisions = []
    return {
        "table": header["table"],
        "game": header["game"],
        "title": game.title.to_json(),
        "stage": header.get("stage"),
        "seats": list(header["seats"]),
        "options": header["options"],
        "version": folded.version_for(audience),
        "audience": str(audience),
        "started": folded.started,
        "finished": folded.finished,
        "turn": turn.to_json(public=audience.kind == "public") if folded.started else None,
        "decisions": decisions if folded.started and not folded.finished and result is None else [],
        "state": game.view(folded.state, audience),
        "result": None if result is None else result.to_json(),
        "clock": folded.clock if folded.started and not folded.finished and result is None else None,
        "correction": _correction(game, header, folded, audience),
        "entered_for_you": _entered_for(game, header, folded, audience),
    }


def _correction(game: Game, header: Mapping[str, Any], folded: Folded, audience: Audience) -> dict[str, Any] | None:
    """The latest void this audience saw (the projector shows "정정", the phones are told): its
    version in the audience's numbering and what it undid, in the words that audience saw it
    in (the first voided action it could see). Only the dealer gets the typed reason: staff
    write secrets there ("경매 결과 잘못 입력: 가람의 위작 ..."), and every word on a screen is public."""
    if not folded.correction:
        return None
    dealer = audience.kind == "dealer"
    seen_by = [v for v in folded.correction
               if v.seats is None or dealer or (audience.kind == "seat" and audience.seat in v.seats)]
    if not seen_by:
        return None  # the void of something this audience never saw
    first, last = seen_by[0], seen_by[-1]
    undone = (what(game, Event.from_json(first.event).visible_to(audience), header["seats"]) if first.event
              else T("기록된 행동", "a recorded action"))
    out = {"v": last.seen.version_for(audience, last.entry["v"]), "what": undone.to_json()}
    if dealer:
        out["reason"] = last.entry["event"]["data"]["reason"]
    return out


def _entered_for(game: Game, header: Mapping[str, Any], folded: Folded, audience: Audience) -> dict[str, Any] | None:
    """A seat's latest move that the dealer entered on its behalf, in words (its phone says so)."""
    if audience.kind != "seat" or audience.seat not in folded.behalf:
        return None
    seen, entry = folded.behalf[audience.seat]
    visible = Event.from_json(entry["event"]).visible_to(audience)
    return {"v": seen.version_for(audience, entry["v"]), "what": what(game, visible, header["seats"]).to_json()}


def clock_after(clock: dict[str, Any] | None, command: Mapping[str, Any]) -> dict[str, Any] | None:
    """The show clock after one of its commands. A running clock has ``ends_at`` (server time);
    a paused one ``remaining`` seconds. It never decides anything: at zero the dealer acts."""
    action, seconds, at = command["action"], command.get("seconds", 0), command["at"]
    if action == "start":
        return {"state": "running", "ends_at": at + seconds, "remaining": None, "seconds": seconds}
    if clock is None or action == "stop":
        return None
    left = clock["remaining"] if clock["state"] == "paused" else max(0.0, clock["ends_at"] - at)
    if action == "pause" and clock["state"] == "running":
        return {**clock, "state": "paused", "ends_at": None, "remaining": left}
    if action == "resume" and clock["state"] == "paused":
        return {**clock, "state": "running", "ends_at": at + left, "remaining": None}
    if action == "add":
        if clock["state"] == "paused":
            return {**clock, "remaining": left + seconds, "seconds": clock["seconds"] + seconds}
        return {**clock, "ends_at": at + left + seconds, "seconds": clock["seconds"] + seconds}
    return clock


def who(actor: str, names: Sequence[str]) -> T:
    """The actor of a log entry in words, seats by number and name (counted from 1)."""
    parsed = Actor.parse(actor)
    if parsed.seat is not None and 0 <= parsed.seat < len(names):
        seat = T(f"{parsed.seat + 1}번 {names[parsed.seat]}", f"{parsed.seat + 1} {names[parsed.seat]}")
        if parsed.kind == "seat":
            return seat
        return T(f"딜러({seat.ko} 대신)", f"the dealer for {seat.en}")
    return T("딜러", "the dealer") if parsed.kind == "dealer" else T("심판(자동)", "the referee (automatic)")


def what(game: Game | None, event: Mapping[str, Any], names: Sequence[str]) -> T:
    """An event in words: the runtime's own, the game's description, or a plain listing."""
    match event["type"]:
        case "table.started":
            return T("테이블 시작", "Table started")
        case "table.finished":
            reason = event.get("reason") or ""
            return T(f"테이블 종료 {reason}".strip(), f"Table closed {reason}".strip())
        case "table.voided":
            if "reason" not in event:  # as an audience other than the dealer sees it
                return T(f"{event['action']}번 행동 정정", f"Action {event['action']} corrected")
            return T(f"{event['action']}번 행동 무효: {event['reason']}", f"Action {event['action']} voided: {event['reason']}")
        case "table.clock":
            ko = {"start": f"시계 시작 {event['seconds']}초", "pause": "시계 멈춤", "resume": "시계 다시 시작",
                  "add": f"시계 {event['seconds']}초 추가", "stop": "시계 끔"}[event["action"]]
            en = {"start": f"clock started, {event['seconds']} s", "pause": "clock paused", "resume": "clock resumed",
                  "add": f"{event['seconds']} s added to the clock", "stop": "clock stopped"}[event["action"]]
            return T(ko, en)
    described = game.describe(dict(event), tuple(names)) if game is not None and game.describe else None
    if described is not None:
        return described
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
    return T(f"{event['type']} ({fields})" if fields else event["type"],
             f"{event['type']} ({fields})" if fields else event["type"])


def audience_log(entries: list[dict[str, Any]], audience: Audience, game: Game | None = None,
                 names: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The log as `audience` may see it: entries it may not see left out (voids of them too),
    secret parts of events removed, voids marked, and entries numbered in the audience's own
    versions (see Seen), so the numbering shows nothing of what was left out.

    The dealer sees the table's own numbering, so any tail of the log will do for the dealer;
    for other audiences `entries` must start at the table's first entry."""
    dealer = audience.kind == "dealer"
    seen = Seen()
    numbered: list[tuple[int, dict[str, Any]]] = []  # (audience version, entry)
    first_of_action: dict[int, int] = {}
    for entry in entries:
        seats = seen.visible_to(entry)
        seen.add(entry)
        if not dealer and seats is not None and (audience.kind != "seat" or audience.seat not in seats):
            continue
        version = entry["v"] if dealer else seen.version_for(audience, entry["v"])
        first_of_action.setdefault(entry["action"], entry["action"] if dealer else version)
        numbered.append((version, entry))
    voided = {e["event"]["data"]["action"]: v for v, e in numbered if e["event"]["type"] == VOIDED}
    out = []
    heard: set[int] = set()  # the actions whose first entry (the move itself) is listed
    for version, entry in numbered:
        # What a move set off by the rules (a reveal, a race's start, a scoring) is the referee's
        # doing, not the player's: only an action's first entry is credited to its actor.
        actor = entry["actor"] if entry["action"] not in heard or entry["event"]["type"] == VOIDED else str(Actor.referee())
        heard.add(entry["action"])
        event = Event.from_json(entry["event"])
        visible = event.visible_to(audience)
        if visible["type"] == VOIDED and not dealer:
            # The voided action in this audience's numbering, never the table's (which counts
            # what was hidden from it); the dealer's typed reason stays the dealer's.
            visible["action"] = first_of_action.get(visible["action"], visible["action"])
            visible.pop("reason", None)
        row = {"v": version, "action": first_of_action[entry["action"]], "actor": entry["actor"], "t": entry["t"],
               "event": visible, "who": who(actor, names).to_json(),
               "what": what(game, visible, names).to_json(), **({"by": entry["by"]} if "by" in entry else {})}
        if entry["action"] in voided:
            row["voided_by"] = voided[entry["action"]]
        out.append(row)
    return out
