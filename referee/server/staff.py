"""Staff logins kept on the server (in Redis), so they can be ended.

The browser holds only a random session id (inside Flask's signed cookie); the rights it grants
live in Redis under the id's SHA-256, for one show day at most. Logging out deletes the session;
a new staff PIN ends every session (each records the PIN generation it was opened under). A
copied cookie is worth nothing once its session has ended.

Staff sockets (the console's /dealer, opened with a login or with the PIN) are recorded in Redis
too, with the PIN generation they were opened under and their login: a new PIN cuts every one of
them, and a logout its login's, on whichever server process holds it (through the Socket.IO
queue, as a re-issued card's phones are), so none keeps hearing the dealer's view.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

import redis

from .service import Staff
from .shows import sha

SESSION_SECONDS = 18 * 3600  # one show day


class StaffSessions:
    def __init__(self, client: redis.Redis, prefix: str = "ref:", lifetime: int = SESSION_SECONDS,
                 disconnect: Callable[[str], None] | None = None) -> None:
        self.r = client
        self.p = prefix
        self.lifetime = lifetime
        # Ends a staff socket by id on whichever server process holds it.
        self.disconnect = disconnect or (lambda sid: None)
        self.sockets_key = f"{prefix}staffsocks"  # socket id -> {"gen": ..., "login": sha of its session or ""}

    def _key(self, sid: str) -> str:
        return f"{self.p}staffsess:{sha(sid)}"

    def generation(self) -> int:
        return int(self.r.get(f"{self.p}staffgen") or 0)

    def end_all(self) -> None:
        """Every open session ends (the staff PIN changed), and every staff socket is cut."""
        self.r.incr(f"{self.p}staffgen")
        # After the bump: a socket recorded later was opened under the new generation or is
        # refused by `socket_opened`, so none slips between the two.
        self._cut(lambda value: True)

    def socket_opened(self, sid: str, generation: int, login: str | None) -> bool:
        """Record a staff socket (opened under `generation`, read before its PIN or login was
        checked; `login`: its session id, None for the PIN). False when the PIN changed
        meanwhile: the socket is refused, as `end_all` may have missed it."""
        pipe = self.r.pipeline()  # one transaction: recorded and the generation read together
        pipe.hset(self.sockets_key, sid, json.dumps({"gen": generation, "login": sha(login) if login else ""}))
        pipe.expire(self.sockets_key, self.lifetime)
        pipe.get(f"{self.p}staffgen")
        return int(pipe.execute()[-1] or 0) == generation

    def socket_closed(self, sid: str) -> None:
        self.r.hdel(self.sockets_key, sid)

    def current(self, generation: int) -> bool:
        """Whether the staff PIN is still the one a socket was opened under."""
        return self.generation() == generation

    def _cut(self, which: Callable[[dict[str, Any]], bool]) -> None:
        for sid, raw in self.r.hgetall(self.sockets_key).items():
            if which(json.loads(raw)):
                self.disconnect(sid)
                self.r.hdel(self.sockets_key, sid)

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
        """Log out: the session ends, and its consoles' sockets are cut."""
        if isinstance(sid, str) and sid:
            self.r.delete(self._key(sid))
            self._cut(lambda value: value["login"] == sha(sid))
