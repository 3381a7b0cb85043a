"""One read of a show (Moment): its registry entry and each table folded once, from which every
view of one fan-out is built, so they agree and Redis is read once."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from referee.kernel import Audience
from referee.table import audience_view
from referee.table.runtime import what

if TYPE_CHECKING:
    from .service import Service


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
        pipe.mget([service.released_key(t) for t in tables]) if tables else pipe.echo("")
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
                                              table.seats).to_json(),
                "count": len(self.service.held_reveals(table_id))}

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
