"""The players' phones: a card's link (``/p/<token>``, swapped for a cookie), the join page for a
typed code, the phone page, and the ``/seat`` namespace (moves, a fresh snapshot, the player's
own story after the show)."""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, render_template, request
from flask_socketio import join_room

from referee.kernel import RuleError

from ..service import link_revoked, player_room
from ..web import clean
from .wiring import Wiring, connect_auth, csrf_ok, guard, refusal, unparsed

SEAT_COOKIE = "referee_seat"


def register(w: Wiring) -> None:
    app, sio, service, shows, limiter, limits = w.app, w.sio, w.service, w.shows, w.limiter, w.limits

    @app.route("/p/<token>", methods=["GET", "POST"])
    def phone_link(token: str) -> Response:
        """Swap the token in the QR for an HttpOnly cookie, then show a clean URL.

        A phone that already holds another player's seat (a second card scanned, a card handed
        round) is asked first whose card this is, before anything of the new player shows; the
        POST of that question's answer carries the page's CSRF token."""
        try:
            link = w.card(token)
        except RuleError:
            return Response(render_template("phone_refused.html", error="rate/limited"), status=429)
        if link is None:
            return Response(render_template("phone_refused.html", error="auth/bad_link"), status=403)
        held = shows.resolve(request.cookies.get(SEAT_COOKIE))
        other = held is not None and (held.show, held.player) != (link.show, link.player)
        if request.method == "POST" and csrf_ok(request.form.get("csrf")):
            return seated(token)
        if not other:
            return seated(token)
        return Response(render_template(
            "phone_confirm.html", token=token, card=shows.roster(link.show)[link.player],
            holder=shows.roster(held.show)[held.player],
            error="auth/csrf" if request.method == "POST" else None), status=200)

    def seated(token: str) -> Response:
        resp = redirect("/p")
        resp.set_cookie(SEAT_COOKIE, token, httponly=True, samesite="Strict", max_age=7 * 24 * 3600,
                        secure=request.is_secure)
        return resp

    @app.get("/p")
    def phone() -> Any:
        if shows.resolve(request.cookies.get(SEAT_COOKIE)) is None:
            return redirect("/join")
        return render_template("phone.html")

    @app.route("/join", methods=["GET", "POST"])
    def join() -> Any:
        error = None
        if request.method == "POST":
            try:
                token = w.guarded_guess("join", limits.failed_join,
                                        lambda: shows.token_for_code(request.form.get("code", "")))
            except RuleError:
                return render_template("join.html", error="rate/limited"), 429
            if token is not None:
                return seated(token)
            error = "auth/bad_code"
        return render_template("join.html", error=error), 403 if error else 200

    sockets: dict[str, tuple[str, Any]] = {}  # seat socket id -> (token, link), this process's only

    @sio.on("connect", namespace="/seat")
    @w.admitted
    def seat_connect(auth: Any = None) -> None:
        token = connect_auth(auth).get("token") or request.cookies.get(SEAT_COOKIE)
        try:
            link = w.card(token)
        except RuleError as err:
            raise refusal(err) from None
        if link is None:
            raise refusal(RuleError("auth/bad_link", "유효하지 않거나 재발급된 카드입니다. 진행 요원에게 새 카드를 받으세요.",
                                    "This card is not valid or was re-issued. Ask the staff for your new card."))
        sockets[request.sid] = (token, link)
        # In the room first: the device count that seat_socket sends reaches this phone too.
        join_room(player_room(link.show, link.player, link.version))
        w.welcome("/seat", service.seat_welcome(link, service.seat_socket(link, request.sid, True)))

    @sio.on("disconnect", namespace="/seat")
    def seat_disconnect(*args: Any) -> None:
        gone = sockets.pop(request.sid, None)
        if gone is not None:
            service.seat_socket(gone[1], request.sid, False)

    def seat_link() -> Any:
        """The socket's link, as it joined (checked against the player's current one by
        service.current_link, or by a move's append)."""
        known = sockets.get(request.sid)
        if known is None:
            raise link_revoked()
        return known[1]

    @sio.on("submit", namespace="/seat")
    def seat_submit(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            link = seat_link()
            spend = limiter.key("submit", f"{link.show}:{link.player}", limits.submit), limits.submit
            return service.seat_submit(link, clean(payload), service.link_guard(link, spend))

        return guard(run)

    def wanted_table(payload: Any) -> str | None:
        """The table a phone's ``{"table": id}`` names (None: none)."""
        wanted = clean(payload).get("table") if isinstance(payload, dict) else None
        if wanted is not None and not isinstance(wanted, str):
            raise RuleError("api/bad_field", f"table 값은 테이블 이름이어야 합니다: {type(wanted).__name__}",
                            f"Field table must be a table's name, not {type(wanted).__name__}", field="table")
        return wanted

    def reading() -> Any:
        """The socket's link, checked current, with one more read counted against the phone's
        limit (a snapshot or a story costs the server a fold: one card must not fill its core)."""
        link = seat_link()
        return service.current_link(link, (limiter.key("read", f"{link.show}:{link.player}", limits.read), limits.read))

    @sio.on("sync", namespace="/seat")
    def seat_sync(payload: Any = None) -> dict[str, Any]:
        """A fresh snapshot; ``{"table": id}`` asks for that table of the player's (a switch)."""
        return guard(lambda: {"snapshot": service.seat_snapshot(reading(), table_id=wanted_table(payload))})

    @sio.on("story", namespace="/seat")
    def seat_story(payload: Any = None) -> dict[str, Any]:
        """``{"table": id}``: the player's own story of that match, once the show has ended."""
        return guard(lambda: {"story": service.seat_story(reading(), wanted_table(payload))})

    @sio.on("*", namespace="/seat")
    def seat_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("auth/not_allowed", f"휴대폰에서 보낼 수 없는 명령입니다: {event}",
                                         f"Phones cannot send {event}", event=event), args)
