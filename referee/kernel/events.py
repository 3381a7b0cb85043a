"""Events: what a move caused, and who may see it.

``data`` is public; ``private`` holds the secret part, seen only by the dealer and by the
seats in ``to``. The log is filtered the same way as the state: an audience that may not see
the private part gets the event without it.
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

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the event, public or private (rules see everything)."""
        if key in self.data:
            return self.data[key]
        if self.private and key in self.private:
            return self.private[key]
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
        return not self.data and self.private is not None and not (
            audience.kind == "dealer" or (audience.kind == "seat" and audience.seat in self.to))

    def visible_to(self, audience: Audience) -> dict[str, Any]:
        """The event as `audience` may see it."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.private and (audience.kind == "dealer" or (audience.kind == "seat" and audience.seat in self.to)):
            out.update(self.private)
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.private is not None:
            out["private"] = self.private
            out["to"] = list(self.to)
        return out

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Event:
        return Event(obj["type"], dict(obj.get("data", {})), obj.get("private"), tuple(obj.get("to", ())))
