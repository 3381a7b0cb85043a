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
from typing import Any

from referee.kernel import Actor, Audience, Event, Game, Rng, RuleError, T, get_game, require
from referee.store.base import Store

STARTED = "table.started"
VOIDED = "table.voided"
FINISHED = "table.finished"
MAX_ATTEMPTS = 200


def secret_to(event: Mapping[str, Any]) -> frozenset[int] | None:
    """The seats that may see a wholly secret event (no public data), or None for an event
    every audience sees at least in part."""
    if event.get("data") or event.get("private") is None:
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

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def version_for(self, audience: Audience) -> int:
        return self.seen.version_for(audience, self.version)


def new_header(game: Game, table: str, seats: list[str], options: Mapping[str, Any] | None, seed: int | None,
               created: float) -> dict[str, Any]:
    """A table's header. ``seed`` None (every live table): each draw comes from the operating
    system's cryptographic generator. A seed makes a rehearsal table whose draws anyone who knows
    the seed can repeat; the header says so."""
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
                        set(base.voided), base.seen.copy())
    for entry in entries:
        folded.version = entry["v"]
        folded.seen.add(entry)
        event = entry["event"]
        if entry["action"] in folded.voided or event["type"] == VOIDED:
            continue
        if not folded.live_actions or folded.live_actions[-1] != entry["action"]:
            folded.live_actions.append(entry["action"])
        if event["type"] == STARTED:
            folded.started_at = entry["action"]
        elif event["type"] == FINISHED:
            folded.finished_at = entry["action"]
        else:
            folded.state = game.evolve(folded.state, Event.from_json(event))
    return folded


class Table:
    """One table (one match) on a store. Safe to share between threads of one process; any
    number of processes may run a Table on the same table id and store."""

    def __init__(self, store: Store, table: str, games: Mapping[str, Game] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.id = table
        self.clock = clock
        self.header = store.header(table)
        self.game = get_game(self.header["game"], games)
        self._lock = threading.Lock()
        self._folded = initial(self.game, self.header)

    @classmethod
    def create(cls, store: Store, table: str, game_id: str, seats: list[str], options: Mapping[str, Any] | None = None,
               seed: int | None = None, games: Mapping[str, Game] | None = None, clock: Callable[[], float] = time.time) -> Table:
        game = get_game(game_id, games)
        store.create(table, new_header(game, table, seats, options, seed, clock()))
        return cls(store, table, games, clock)

    # -- reading ---------------------------------------------------------------------------

    def load(self) -> Folded:
        """The current state, reading only the entries written since the last load."""
        with self._lock:
            base = self._folded
            fresh = self.store.entries(self.id, after=base.version)
            if any(e["event"]["type"] == VOIDED for e in fresh):
                self._folded = fold(self.game, self.header, self.store.entries(self.id))
            elif fresh:
                self._folded = fold(self.game, self.header, fresh, base)
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

    # -- commands --------------------------------------------------------------------------

    def start(self, actor: Actor) -> Ack:
        _require_dealer(actor, "start")
        return self._command(actor, None, lambda f: self._starting(f))

    def submit(self, actor: Actor, move: Any, sid: str | None = None) -> Ack:
        """Apply a move; a resend with the same submission id is applied once."""
        if sid is not None:
            require(isinstance(sid, str) and 0 < len(sid) <= 100, "table/bad_submission_id",
                    f"제출 번호가 잘못되었습니다: {sid!r}", f"Bad submission id: {sid!r}", sid=sid)
        return self._command(actor, sid, lambda f: self._moving(f, actor, move))

    def finish(self, actor: Actor, reason: str = "") -> Ack:
        """Close the table: no more moves or voids. A match that has no result yet ends unplayed."""
        _require_dealer(actor, "finish")
        return self._command(actor, None, lambda f: self._finishing(f, reason))

    def void(self, actor: Actor, reason: str, action: int | None = None) -> Ack:
        """Void the last live action (the dealer's correction); `action`, if given, must be it."""
        _require_dealer(actor, "void")
        require(isinstance(reason, str) and bool(reason.strip()), "table/void_needs_reason",
                "무효 처리에는 사유가 필요합니다", "A void needs a reason", reason=reason)
        return self._command(actor, None, lambda f: self._voiding(f, reason.strip(), action))

    # -- internals -------------------------------------------------------------------------

    def _command(self, actor: Actor, sid: str | None, decide: Callable[[Folded], list[tuple[Actor, dict]]]) -> Ack:
        for _ in range(MAX_ATTEMPTS):
            if sid is not None and (done := self.store.find_sid(self.id, sid)) is not None:
                return self._duplicate(done)
            folded = self.load()
            events = decide(folded)
            action = folded.version + 1
            now = self.clock()
            entries = [
                {"v": action + i, "action": action, "actor": str(who), "event": event, "t": now}
                for i, (who, event) in enumerate(events)
            ]
            if sid is not None:
                entries[0]["sid"] = sid
            appended = self.store.append(self.id, folded.version, entries, sid)
            if appended.ok:
                seen = folded.seen.copy()
                for entry in entries:
                    seen.add(entry)
                return Ack(appended.version, action, seen=seen)
            if appended.duplicate:
                return self._duplicate(appended.version)
            # Conflict: someone else wrote first; reload and decide again.
        raise RuleError("table/busy", "테이블이 너무 바쁩니다. 다시 시도하세요", "The table is too busy; try again")

    def _duplicate(self, version: int) -> Ack:
        """The acknowledgement of a submission applied before, at `version` (a resend)."""
        entries = self.store.entries(self.id)[:version]
        seen = Seen()
        for entry in entries:
            seen.add(entry)
        return Ack(version, entries[-1]["action"], duplicate=True, seen=seen)

    def _starting(self, folded: Folded) -> list[tuple[Actor, dict]]:
        require(not folded.started, "table/already_started", "이미 시작한 테이블입니다", "The table has already started")
        out: list[tuple[Actor, dict]] = [(Actor.dealer(), Event(STARTED).to_json())]
        return out + self._automatic(folded.state, folded.version + 1)

    def _finishing(self, folded: Folded, reason: str) -> list[tuple[Actor, dict]]:
        _require_open(folded)
        return [(Actor.dealer(), Event(FINISHED, {"reason": str(reason)[:500]}).to_json())]

    def _moving(self, folded: Folded, actor: Actor, move: Any) -> list[tuple[Actor, dict]]:
        require(folded.started, "table/not_started", "아직 시작하지 않은 테이블입니다", "The table has not started yet")
        _require_open(folded)
        if actor.kind == "referee":
            raise RuleError("table/referee_only", "자동 진행은 직접 입력할 수 없습니다",
                            "Automatic steps cannot be entered by hand")
        if actor.seat is not None:
            require(0 <= actor.seat < len(self.seats), "table/no_such_seat", f"없는 자리입니다: {actor.seat + 1}",
                    f"No such seat: {actor.seat + 1}", seat=actor.seat)
        state = folded.state
        rng = table_rng(self.header, folded.version + 1)
        out: list[tuple[Actor, dict]] = []
        for event in self.game.decide(state, actor, move, rng):
            state = self.game.evolve(state, event)
            out.append((actor, event.to_json()))
        return out + self._automatic(state, folded.version + 1 + len(out))

    def _automatic(self, state: Any, version: int) -> list[tuple[Actor, dict]]:
        """The steps the referee takes by itself (a shuffle, a deal) after a command."""
        out: list[tuple[Actor, dict]] = []
        while (auto := self.game.turn(state).automatic()) is not None:
            for event in self.game.decide(state, Actor.referee(), {"type": auto.move}, table_rng(self.header, version)):
                state = self.game.evolve(state, event)
                out.append((Actor.referee(), event.to_json()))
                version += 1
        return out

    def _voiding(self, folded: Folded, reason: str, action: int | None) -> list[tuple[Actor, dict]]:
        # A finished table's last live action is its finish: voiding it opens the table again.
        # Only the last live action can be voided, so refolding without it never leaves a
        # later event decided on a state that no longer exists. Older ones: void repeatedly.
        movable = [a for a in folded.live_actions if a != folded.started_at]
        require(bool(movable), "table/nothing_to_void", "무효로 할 행동이 없습니다", "There is no action to void")
        last = movable[-1]
        require(action is None or action == last, "table/void_not_last",
                f"마지막 행동({last})만 무효로 할 수 있습니다 (요청: {action})",
                f"Only the last action ({last}) can be voided (asked: {action})", action=action)
        return [(Actor.dealer(), Event(VOIDED, {"action": last, "reason": reason}).to_json())]


def _require_open(folded: Folded) -> None:
    require(not folded.finished, "table/finished", "이미 종료된 테이블입니다", "The table has been finished")


def _require_dealer(actor: Actor, what: str) -> None:
    require(actor.kind == "dealer" and actor.seat is None, "table/dealer_only",
            f"딜러만 할 수 있습니다: {what}", f"Only the dealer can {what}", command=what)


def audience_view(game: Game, header: Mapping[str, Any], folded: Folded, audience: Audience) -> dict[str, Any]:
    """What `audience` may see of a table: the game's view plus the pending decisions it owns."""
    turn = game.turn(folded.state)
    result = game.result(folded.state)
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
    }


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
            return T(f"{event['action']}번 행동 무효: {event['reason']}", f"Action {event['action']} voided: {event['reason']}")
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
    for version, entry in numbered:
        event = Event.from_json(entry["event"])
        visible = event.visible_to(audience)
        row = {"v": version, "action": first_of_action[entry["action"]], "actor": entry["actor"], "t": entry["t"],
               "event": visible, "who": who(entry["actor"], names).to_json(),
               "what": what(game, visible, names).to_json()}
        if entry["action"] in voided:
            row["voided_by"] = voided[entry["action"]]
        out.append(row)
    return out
