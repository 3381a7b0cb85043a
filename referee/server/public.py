"""The public side of the show service: the projector's payload (whole and brief), and the
audience's many screens served with few Redis trips."""

from __future__ import annotations

import json
import threading
from typing import Any

from referee.kernel import Audience

from .moment import Moment
from .web import Encoded, encode_payload


def public_room(show: str) -> str:
    return f"public:{show}"


# The public stream's two forms. A screen gets the whole payload when it connects, when it asks
# (a `snapshot` event), before a match, for a program, and when the fan-out may have moved the
# projector to another table (set_current, a new table after a match: the `everyone` fan-outs).
# A change of the table it shows sends the room a brief payload: the view without what stays
# the same for the table's whole life (BRIEF_CONSTANT), without its copy of the payload's
# version, without the fields that hold their empty default (BRIEF_DEFAULTS), without the
# show. The projector page fills them back in from the whole payload it holds (display.js,
# `assemble`); so do the tests' clients (tests/live.py).
# Every screen reads every update: at 1,000 screens, 508 bytes instead of 847 took the
# harness's clients' CPU per update down to boardgame.io's (docs/performance.md, "Goal 1,
# eighth pass").
BRIEF_CONSTANT = ("game", "title", "stage", "seats", "options", "audience")


BRIEF_DEFAULTS: dict[str, Any] = {"clock": None, "correction": None, "result": None, "entered_for_you": None,
                                  "decisions": []}


def brief_payload(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The brief form of a whole public payload (None: it has none, as the join screen)."""
    view = payload["table"]
    if view is None or "join" in payload:
        return None
    table = {k: v for k, v in view.items() if k not in BRIEF_CONSTANT and k != "version"
             and not (k in BRIEF_DEFAULTS and v == BRIEF_DEFAULTS[k])}
    return {"table": table, "version": payload["version"]}


class PublicSide:
    """The projector and the audience's screens (a side of Service: its state is the service's)."""

    def public_view(self, show: str, table_id: str) -> dict[str, Any]:
        """A table as the projector would show it now (the reveal hold included)."""
        return Moment(self, show).view(table_id, Audience.public())

    def public_snapshot(self, show: str, moment: Moment | None = None) -> Encoded:
        """The projector's whole payload, encoded once for the room and every screen that connects."""
        return self._public_whole(show, moment)[1]

    def _public_whole(self, show: str, moment: Moment | None = None) -> tuple[dict[str, Any], Encoded]:
        """The projector's whole payload, and encoded (kept for the screens that connect)."""
        moment = moment or Moment(self, show)
        replay = moment.info["replay"]
        if replay is not None and self.replays is not None:  # the console's 다시 보기 has the projector
            encoded = self.replays.payload(show, moment.info["name"], replay)
            return json.loads(str(encoded)), encoded
        current = moment.info["current"]
        payload = self.public_payload(show, moment, current)
        encoded = encode_payload(payload)
        self._public[show] = (moment.public_key or self._public_key(show, current), encoded)
        return payload, encoded

    def public_payload(self, show: str, moment: Moment, table_id: str | None) -> dict[str, Any]:
        """The projector's whole payload with `table_id` on it (the current table, or the one
        the console's preview shows: what P would put up)."""
        view = moment.view(table_id, Audience.public()) if table_id else None
        payload = {"show": {"id": show, "name": moment.info["name"]}, "table": view,
                   "version": view["version"] if view else 0}
        if view is None or not view["started"] or view["state"].get("program"):
            # Before a match, the projector is the join screen: where to join, and whose phone
            # is here (names are public; which phones are connected is all it tells).
            here = moment.devices
            payload["join"] = {"url": f"{self.base_url()}/join", "audience": self.audience_url(show),
                               "players": [{"name": n, "here": c > 0} for n, c in zip(moment.info["roster"], here,
                                                                                         strict=True)]}
        return payload

    # -- the audience: many screens, few Redis trips ---------------------------------------------

    def show_exists(self, show: Any) -> bool:
        """Shows are never deleted, so a show seen once needs no Redis trip again."""
        if show in self._known_shows:
            return True
        if self.shows.exists(show, self.audience):
            self._known_shows.add(show)
            return True
        return False

    def _presence_key(self, show: str) -> str:
        """A counter moved by every phone that comes or goes (the join screen's names)."""
        return f"{self.prefix}presence:{show}"

    def _public_key(self, show: str, current: str | None) -> tuple[Any, ...]:
        """What the public snapshot depends on, now: the current table, its log's length, the
        hold and what was released (one round trip on the audience's connections). A fan-out's
        Moment reads the same in its own round trip (Moment.public_key)."""
        pipe = self.audience.pipeline(transaction=False)
        pipe.hmget(f"{self.prefix}show:{show}", ["current", "reveal_hold", "replay"])
        pipe.llen(self.store.log_key(current or ""))
        pipe.get(self.released_key(current or ""))
        pipe.get(self._presence_key(show))
        (now, hold, replay), length, released, presence = pipe.execute()
        return (now or None, int(length) if now == current else -1, hold, released, presence, replay)

    def audience_snapshot(self, show: str) -> Encoded:
        """The public snapshot for a screen that connects. Screens of one process share it while
        the current table has not moved, and however many connect at once (a Wi-Fi blip brings
        hundreds back together), it is computed once."""
        cached = self._public.get(show)
        if cached is not None and self._public_key(show, cached[0][0]) == cached[0]:
            return cached[1]
        with self._lock:
            lock = self._public_locks.setdefault(show, threading.Lock())
        with lock:
            cached = self._public.get(show)
            if cached is not None and self._public_key(show, cached[0][0]) == cached[0]:
                return cached[1]
            return self.public_snapshot(show)
