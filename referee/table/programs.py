"""The runtime of a show program: its stage tables follow its log.

A program is a table like any match (same log, voids, views); what it adds is that opening a
stage makes a table and confirming a result closes one. Both follow from the program's events:
the runner subscribes to the program table's commits (``committed``, a Table's ``on_commit``, as
an event-sourced process manager does) and brings the stage tables in line with the folded
state, idempotently: after any program command, and again after a crash between the program's
append and the table's creation (a resend of that command, or the next one). A submit flows one
way: the program's table, then its stage tables, then whoever subscribes to those.

- The table of stage `key` of program table `P` is ``P-key``; its header (game, the players'
  names in seat order, options) comes from the StageOpened event. A rehearsal program (with a
  seed) gives each stage a seed of its own derived from it; a live program's stages have none.
- ``confirm_result`` is completed here with the stage table's own result: whoever sends the
  move cannot choose what the program records.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.kernel import Actor, Game, RuleError
from referee.store.base import Store, StoreError

from .runtime import Table

CONFIRMED = "confirmed"


def stage_table_id(program_table: str, stage: Any) -> str:
    """The table of an opened stage: named by the stage and a digest of its seating and options,
    so a stage opened again with another seating (after a void) gets a table of its own, and
    opened again with the same seating finds the one made before (not started: see the server's
    void guard)."""
    digest = hashlib.sha256(f"{list(stage.players)}|{stage.options}".encode()).hexdigest()[:4]
    return f"{program_table}-{stage.key}-{digest}"


def stage_seed(program_seed: int | None, key: str) -> int | None:
    if program_seed is None:
        return None
    return int.from_bytes(hashlib.sha256(f"{program_seed}:{key}".encode()).digest()[:6], "big")


@dataclass
class Synced:
    created: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)


class ProgramRunner:
    def __init__(self, store: Store, games: Mapping[str, Game], tables: Any = None,
                 created: Callable[[Table, str], None] | None = None) -> None:
        self.store = store
        self.games = games
        # Where Table objects come from (the server's cache, whose tables have their subscribers),
        # or new ones each time.
        self.table = tables or (lambda table_id: Table(store, table_id, games))
        # Told of each stage table made (the program's table, the new table's id): a show lists it.
        self.created = created or (lambda program, table_id: None)

    def committed(self, program: Table, entries: list[dict[str, Any]]) -> None:
        """A program table's subscriber (Table.on_commit): its stage tables follow its log."""
        if program.game.program:
            for table_id in self.sync(program).created:
                self.created(program, table_id)

    def exists(self, table_id: str) -> bool:
        try:
            self.store.header(table_id)
        except StoreError:
            return False
        return True

    def complete(self, program: Table, move: Any) -> Any:
        """The move as the program must receive it: ``confirm_result`` carries the result of
        the stage's own table (or none, and the program refuses it)."""
        if not isinstance(move, dict) or move.get("type") != "confirm_result" or not isinstance(move.get("stage"), str):
            return move
        stage = program.load().state.stage(move["stage"])
        table_id = None if stage is None else stage_table_id(program.id, stage)
        result = self.table(table_id).result() if table_id and self.exists(table_id) else None
        return {**move, "result": result}

    def stage_tables(self, program: Table) -> dict[str, str]:
        """Stage key -> its table, for every opened stage."""
        return {stage.key: stage_table_id(program.id, stage) for stage in program.load().state.stages}

    def sync(self, program: Table) -> Synced:
        """Make the table of every opened stage, close the table of every confirmed one, and open
        again the table of a stage whose confirmation was voided."""
        done = Synced()
        state = program.load().state
        for stage in state.stages:
            table_id = stage_table_id(program.id, stage)
            if not self.exists(table_id):
                names = [state.names[p] for p in stage.players]
                try:
                    Table.create(self.store, table_id, stage.game, names, stage.option_map(),
                                 stage_seed(program.header.get("seed"), stage.key), self.games,
                                 stage={"key": stage.key, "title": program.game.stages[stage.key].to_json(),
                                        "program": program.id}, show=program.header.get("show"))
                    done.created.append(table_id)
                except StoreError:
                    pass  # another process made it first: the same header from the same event
            table = self.table(table_id)
            closed = table.load().finished_at
            try:
                if stage.status == CONFIRMED and closed is None:
                    table.finish(Actor.dealer(), "program: result confirmed")
                    done.finished.append(table_id)
                elif stage.status != CONFIRMED and closed is not None:
                    # Only that very finish (another process may have opened it already).
                    table.void(Actor.dealer(), "program: the result's confirmation was voided", action=closed)
            except RuleError as err:
                if err.code not in ("table/finished", "table/not_live", "table/nothing_to_void"):
                    raise  # another process did the same a moment ago: nothing left to do
        return done
