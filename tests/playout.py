"""A game played through its pure functions, with a log shaped like the runtime's, for the
secrecy tests: they replay one match twice, with one secret changed, and compare what each
audience sees."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.kernel import Actor, Audience, Event, Game, Rng
from referee.table import audience_log


@dataclass
class Played:
    game: Game
    state: Any
    log: list[dict[str, Any]] = field(default_factory=list)

    def record(self, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
        """Decide `move`, fold its events into the state and append them to the log."""
        events = self.game.decide(self.state, actor, move, rng)
        for event in events:
            self.state = self.game.evolve(self.state, event)
            self.log.append({"v": len(self.log) + 1, "action": len(self.log) + 1, "actor": str(actor), "t": 0,
                             "event": event.to_json()})
        return events

    def automatic(self, rng: Callable[[], Rng]) -> list[Event]:
        """The referee's own steps (a deal, a draw), as the runtime takes them."""
        events: list[Event] = []
        while (auto := self.game.turn(self.state).automatic()) is not None:
            events += self.record(Actor.referee(), {"type": auto.move}, rng())
        return events

    def seen_by(self, audience: Audience, since: int = 0) -> tuple:
        """The view, the log entries from `since` on, the turn and the pending decisions, as
        `audience` sees them."""
        turn = self.game.turn(self.state)
        decisions = [d.to_json() for d in turn.for_seat(audience.seat)] if audience.kind == "seat" else []
        return (self.game.view(self.state, audience), audience_log(self.log[since:], audience),
                turn.to_json(public=audience.kind == "public"), decisions)


def keys(obj: Any) -> set[str]:
    """Every key of every object nested in `obj`."""
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys(v)}
    return set()
