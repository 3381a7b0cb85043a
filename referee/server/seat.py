"""The players' side of the show service: a phone's socket, its moves, its snapshot and, after the
show, its own story. A phone belongs to a player (one printed card for the evening) and shows
their seat at the table it follows (Moment.focus)."""

from __future__ import annotations

from typing import Any

from referee.kernel import Actor, Audience, RuleError, require
from referee.store import Guard
from referee.table.replay import story

from .limits import Limit, limited
from .moment import Moment
from .shows import PlayerLink
from .web import Encoded, encode_payload, payload_field, room_digest


def link_revoked() -> RuleError:
    return RuleError("auth/link_revoked", "이 링크는 더 이상 쓸 수 없습니다. 새 카드를 받으세요",
                     "This link no longer works; ask for a new card")


def player_room(show: str, player: int, link_version: int) -> str:
    """A phone's room: one player's link at one version. A re-issued card bumps the version, so
    sockets of the old link are left in a room that nothing is ever sent to again, even if
    the message that disconnects them (at most once, over the queue) were lost."""
    return f"player:{show}:{player}:{link_version}"


class SeatSide:
    """The phones (a side of Service: its state is the service's)."""

    def link_guard(self, link: PlayerLink, spend: tuple[str, Limit] | None = None) -> Guard:
        """What a phone's request must meet: its link still the player's current one (else
        auth/link_revoked) and, with `spend` (a rate-limit counter's key and its limit), one more
        submission counted against it (else rate/limited)."""
        key = self.shows.linkver_key(link.show, link.player)
        if spend is None:
            return Guard(key, link.version, link_revoked())
        counter, limit = spend
        return Guard(key, link.version, link_revoked(), counter, limit.count, limit.seconds, limited(limit))

    def current_link(self, link: PlayerLink, spend: tuple[str, Limit] | None = None) -> PlayerLink:
        """A phone's link, checked to be still current, and with `spend` one more request counted
        against its limit (one round trip)."""
        self.store.check(self.link_guard(link, spend))
        return link

    def _sockets_key(self, show: str, player: int) -> str:
        return f"{self.prefix}socks:{show}:{player}"

    def seat_socket(self, link: PlayerLink, sid: str, present: bool) -> int:
        """Record a phone's socket (on any process), so a re-issue can end it. Returns how many
        of the card's sockets are open now (counted in the same transaction)."""
        key = self._sockets_key(link.show, link.player)
        pipe = self.r.pipeline()
        if present:
            pipe.hset(key, sid, link.version)
            pipe.expire(key, 24 * 3600)
        else:
            pipe.hdel(key, sid)
        pipe.incr(self._presence_key(link.show))  # the join screen shows who is here
        pipe.hlen(key)
        devices = pipe.execute()[-1]
        # Every phone of this card hears how many are open: a card open on two devices warns both.
        self.publish("/seat", player_room(link.show, link.player, link.version), "devices", {"count": devices})
        self.changed(link.show, public=True)
        return int(devices)

    def seat_submit(self, link: PlayerLink, payload: Any, guard: Guard) -> dict[str, Any]:
        """A phone's move. `guard` (link_guard: the link still current, the phone's rate limit)
        is checked by the move's append; a submission that ends without one (a resend, a
        refusal) is checked on its own before its answer, so a revoked card learns nothing of
        its seat and every try counts."""
        try:
            return self._seat_submit(link, payload, guard)
        finally:
            self.store.check(guard)  # nothing to do when the append made it

    def _seat_submit(self, link: PlayerLink, payload: Any, guard: Guard) -> dict[str, Any]:
        require(isinstance(payload, dict), "api/bad_payload", "제출 내용은 JSON 객체여야 합니다",
                "A submission must be a JSON object")
        sid = payload_field(payload, "sid", str)
        # The phone says which table it was looking at: a move lands on that table only, and
        # only if this player sits there (a show's tables and names, as this process knows them;
        # read again only for a table it has not seen).
        tables, names = self.known.get(link.show, ([], []))
        if payload.get("table") not in tables or link.player >= len(names):
            Moment(self, link.show)
            tables, names = self.known[link.show]
        table_id = payload.get("table")
        seats = self.table(table_id).seats if table_id in tables else []
        require(link.player < len(names) and names[link.player] in seats, "table/not_seated",
                "이 테이블에 앉아 있지 않습니다. 화면을 확인하세요", "You are not seated at that table; check the screen",
                table=table_id)
        seat = seats.index(names[link.player])
        table = self.table(table_id)
        ack = table.submit(Actor.of_seat(seat), payload.get("move"), sid, guard=guard)
        return {"ack": ack.for_seat(seat)}

    def presence(self, show: str, count: int) -> list[int]:
        """How many phones of each player are connected now (any process)."""
        pipe = self.r.pipeline(transaction=False)
        for player in range(count):
            pipe.hlen(self._sockets_key(show, player))
        return [int(n) for n in pipe.execute()]

    def seat_snapshot(self, link: PlayerLink, moment: Moment | None = None, table_id: Any = None) -> dict[str, Any]:
        """A player's phone: the view of `table_id` (a table they sit at), else of their focus,
        with the focus and the list of their tables, so the phone can follow or switch."""
        moment = moment or Moment(self, link.show)
        tables = dict(moment.tables_of(link.player))
        focus = moment.focus(link.player)
        shown = table_id if table_id in tables else focus
        view = None if shown is None else moment.view(shown, Audience.of_seat(tables[shown]))
        return {"show": {"id": link.show, "name": moment.info["name"]}, "player": moment.info["roster"][link.player],
                "seat": None if shown is None else tables[shown], "table": view,
                "version": view["version"] if view else 0, "focus": focus,
                "stories": moment.stories_open(link.player),
                "tables": [moment.summary(t, seat, link.player) for t, seat in moment.tables_of(link.player)]}

    def seat_story(self, link: PlayerLink, table_id: Any) -> dict[str, Any]:
        """A player's own story of a match they sat in (the phone's "내 경기 다시 보기"), once the
        show has ended: its program has a result, or (no program) every table of theirs is over.
        Before that their own secrets stay on the live screens only, and this refuses."""
        moment = Moment(self, link.show)
        tables = dict(moment.tables_of(link.player))
        require(moment.stories_open(link.player), "story/not_yet",
                "내 경기 다시 보기는 쇼가 끝나고 모든 공개가 끝난 뒤에 열립니다",
                "Your replay opens once the show has ended and every reveal has been shown")
        require(table_id in tables, "table/not_seated", "이 테이블에 앉아 있지 않습니다. 화면을 확인하세요",
                "You are not seated at that table; check the screen", table=str(table_id))
        table, seat = self.table(table_id), tables[table_id]
        view = moment.view(table_id, Audience.public())
        return {"table": table_id, "title": view["title"], "stage": view["stage"], "seat": seat, "seats": view["seats"],
                "result": view["result"], "lines": [line.to_json() for line in story(table, seat)]}

    def seat_welcome(self, link: PlayerLink, devices: int) -> Encoded:
        """A phone's first view. When it is the card's only open socket (`devices`, as
        seat_socket counted it) the view is recorded as what its room was last sent: a room
        nobody held was skipped by the fan-outs, and a stale record would make the next fan-out
        send the same view again, which would tell that something hidden happened meanwhile.
        With another device open the fan-outs kept the record, and recording this view would
        make a fan-out under way skip the room and leave the other device behind."""
        encoded = encode_payload(self.seat_snapshot(link))
        if devices == 1:
            self.r.hset(f"{self.prefix}sent:{link.show}", player_room(link.show, link.player, link.version),
                        room_digest(encoded))
        return encoded
