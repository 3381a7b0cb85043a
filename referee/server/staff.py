"""Staff logins kept on the server (in Redis), so they can be ended.

The browser holds only a random session id (inside Flask's signed cookie); the rights it grants
live in Redis under the id's SHA-256, for one show day at most. Logging out deletes the session;
a new staff PIN ends every session (each records the PIN generation it was opened under). A
copied cookie is worth nothing once its session has ended.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import redis

from .service import Staff
from .shows import sha

SESSION_SECONDS = 18 * 3600  # one show day


class StaffSessions:
    def __init__(self, client: redis.Redis, prefix: str = "ref:", lifetime: int = SESSION_SECONDS) -> None:
        self.r = client
        self.p = prefix
        self.lifetime = lifetime

    def _key(self, sid: str) -> str:
        return f"{self.p}staffsess:{sha(sid)}"

    def generation(self) -> int:
        return int(self.r.get(f"{self.p}staffgen") or 0)

    def end_all(self) -> None:
        """Every open session ends (the staff PIN changed)."""
        self.r.incr(f"{self.p}staffgen")

    def open(self, staff: Staff) -> str:
        sid = secrets.token_urlsafe(32)
        value = {"all": staff.all_shows, "shows": sorted(staff.shows), "gen": self.generation()}
        self.r.set(self._key(sid), json.dumps(value), ex=self.lifetime)
        return sid

    def get(self, sid: Any) -> Staff | None:
        if not isinstance(sid, str) or not sid:
            return None
        pipe = self.r.pipeline()
        pipe.get(self._key(sid))
        pipe.get(f"{self.p}staffgen")
        raw, gen = pipe.execute()
        if raw is None:
            return None
        value = json.loads(raw)
        if value["gen"] != int(gen or 0):
            return None
        return Staff(all_shows=bool(value["all"]), shows=frozenset(value["shows"]))

    def end(self, sid: Any) -> None:
        if isinstance(sid, str) and sid:
            self.r.delete(self._key(sid))
