"""Events: what a move caused, and who may see it.

``data`` is public; ``private`` holds the secret part, seen only by the dealer and by the
seats in ``to``; ``dealer`` what only the dealer sees, even of an event a seat is told (why the
referee chose as it did: Quattro's rule-4 branch). The log is filtered the same way as the
state: an audience that may not see a part gets the event without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actors import Audience


@dataclass(frozen=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] | None = None
    to: tuple[int, ...] = ()
    dealer: dict[str, Any] | None = None

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the event, public or private (rules see everything)."""
        for part in (self.data, self.private, self.dealer):
            if part and key in part:
                return part[key]
        return default

    def __getitem__(self, key: str) -> Any:
        marker = object()
        value = self.get(key, marker)
        if value is marker:
            raise KeyError(key)
        return value

    def hidden_from(self, audience: Audience) -> bool:
        """True for an event that is wholly secret from `audience` (nothing public in it): its
        log entry is left out, so the log does not even show that something happened."""
        return self.secret and not (audience.kind == "dealer" or (audience.kind == "seat" and audience.seat in self.to))

    @property
    def secret(self) -> bool:
        """Nothing public in it: only the dealer and the seats in `to` know it happened."""
        return not self.data and (self.private is not None or self.dealer is not None)

    def visible_to(self, audience: Audience) -> dict[str, Any]:
        """The event as `audience` may see it."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.private and (audience.kind == "dealer" or (audience.kind == "seat" and audience.seat in self.to)):
            out.update(self.private)
        if self.dealer and audience.kind == "dealer":
            out.update(self.dealer)
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.private is not None or self.dealer is not None:
            out["private"] = self.private
            out["to"] = list(self.to)
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return out

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Event:
        return Event(obj["type"], dict(obj.get("data", {})), obj.get("private"), tuple(obj.get("to", ())),
                     obj.get("dealer"))
