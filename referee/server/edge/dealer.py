"""The console: the staff's login, the list of shows and a show's console page, its prints (seat
cards, a re-issued card's QR, a table's sheets), and the ``/dealer`` namespace, whose one
command event carries every staff command (the JSON API's are the same ones: ``api``)."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, redirect, render_template, request, session
from flask_socketio import join_room

from referee.kernel import RuleError

from ..service import Staff, dealer_room
from ..shows import time_zone_ok
from ..web import clean
from .wiring import Wiring, connect_auth, csrf_ok, guard, refusal, unparsed


def register(w: Wiring) -> None:
    app, sio, service, shows, sessions, limits = w.app, w.sio, w.service, w.shows, w.sessions, w.limits

    @app.route("/console/login", methods=["GET", "POST"])
    def login() -> Any:
        error = None
        if request.method == "POST":
            show = request.form.get("show") or None
            if not csrf_ok(request.form.get("csrf")):
                error = "auth/csrf"
            else:
                try:
                    staff = w.guarded_guess("login", limits.failed_login,
                                            lambda: w.staff_from_pin(request.form.get("pin"), show))
                except RuleError as err:
                    staff, error = None, err.code
                if staff is None:
                    error = error or "auth/bad_pin"
                else:
                    sessions.end(session.get("staff"))
                    session.clear()
                    session["staff"] = sessions.open(staff)
                    wanted = show and shows.exists(show) and staff.may(show)
                    return redirect(f"/console/{show}" if wanted else "/console")
        status = 429 if error == "rate/limited" else 401 if error else 200
        return render_template("login.html", error=error, show=request.args.get("show", "")), status

    @app.post("/console/logout")
    def logout() -> Response:
        if csrf_ok(request.form.get("csrf")):
            sessions.end(session.get("staff"))
            session.clear()
        return redirect("/console/login")

    @app.get("/console")
    def console_home() -> Any:
        staff = w.staff_from_session()
        if staff is None:
            return redirect("/console/login")
        visible = [shows.info(s) for s in shows.ids() if staff.may(s)]
        return render_template("console_home.html", shows=visible, staff=staff)

    @app.get("/console/<show>")
    def console(show: str) -> Any:
        staff = w.staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            # Only a real show's id goes back into a URL (never raw input into a header).
            return redirect(f"/console/login?show={show}" if shows.exists(show) else "/console/login")
        return render_template("console.html", show=shows.info(show), projector=service.projector_path(show))

    @app.get("/print/<show>/seat-cards.pdf")
    def seat_cards(show: str) -> Response:
        staff = w.staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            abort(403)
        from ..printing import seat_cards_pdf  # reportlab loads only when someone prints

        player = request.args.get("player", type=int)
        if player is not None and not 0 <= player < len(shows.roster(show)):
            abort(404)
        pdf = seat_cards_pdf(service, show, player)
        return Response(pdf, mimetype="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{show}-seat-cards.pdf"'})

    @app.get("/print/<show>/card/<int:player>.svg")
    def card_qr(show: str, player: int) -> Response:
        """A player's card as a QR on the console (after a re-issue: scan it from the screen)."""
        staff = w.staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            abort(403)
        links = service.links(show)
        if not 0 <= player < len(links):
            abort(404)
        import qrcode
        import qrcode.image.svg

        image = qrcode.make(links[player]["url"], image_factory=qrcode.image.svg.SvgPathImage, border=4)
        return Response(image.to_string(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/print/<show>/<table>/<sheet>.pdf")
    def table_sheet(show: str, table: str, sheet: str) -> Response:
        staff = w.staff_from_session()
        if staff is None or not shows.exists(show) or not staff.may(show):
            abort(403)
        from ..printing import table_sheet_pdf

        try:
            # The console's link names its browser's time zone: the times print in it unless
            # the show has its own (an unknown name is left out, never an error on paper).
            zone = request.args.get("tz")
            pdf = table_sheet_pdf(service, show, table, sheet, zone if time_zone_ok(zone) else None)
        except RuleError:
            abort(404)
        return Response(pdf, mimetype="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{table}-{sheet}.pdf"'})

    # dealer socket id -> (staff, show, staff session id or None for a PIN, the PIN generation it
    # was opened under), this process only
    dealers: dict[str, tuple[Staff, str, str | None, int]] = {}

    @sio.on("connect", namespace="/dealer")
    @w.admitted
    def dealer_connect(auth: Any = None) -> None:
        auth = connect_auth(auth)
        show = auth.get("show") or request.args.get("show")
        logged_in = auth.get("pin") is None
        generation = sessions.generation()  # before the check: a PIN changed meanwhile is caught below
        try:
            # A console (its session cookie) must also show the page's CSRF token: another
            # site's page can make the browser send the cookie, never read the token.
            staff = (w.staff_from_session() if csrf_ok(auth.get("csrf")) else None) if logged_in else w.guarded_guess(
                "login", limits.failed_login, lambda: w.staff_from_pin(auth.get("pin"), show))
        except RuleError as err:
            raise refusal(err) from None
        if staff is None or not shows.exists(show) or not staff.may(show):
            raise refusal(RuleError("auth/staff_only", "스태프 로그인이 필요합니다", "Staff login required"))
        login = session.get("staff") if logged_in else None
        if not sessions.socket_opened(request.sid, generation, login):
            sessions.socket_closed(request.sid)
            raise refusal(staff_ended())
        dealers[request.sid] = (staff, show, login, generation)
        service.dealer_present(show, request.sid, True)
        join_room(dealer_room(show))
        w.welcome("/dealer", service.dealer_snapshot(show), event="show")

    @sio.on("disconnect", namespace="/dealer")
    def dealer_disconnect(*args: Any) -> None:
        gone = dealers.pop(request.sid, None)
        if gone is not None:
            service.dealer_present(gone[1], request.sid, False)
            sessions.socket_closed(request.sid)

    def staff_ended() -> RuleError:
        return RuleError("auth/staff_only", "스태프 로그인이 끝났습니다. 다시 로그인하세요",
                         "The staff login has ended; log in again")

    def dealer_staff() -> Staff:
        """The socket's staff rights, checked again for every command: a console whose login
        ended (logout, a new PIN), or that was opened with a PIN that has since changed, can do
        nothing more (its socket is cut too, unless that message was lost on the queue)."""
        staff, _show, staff_session, generation = dealers.get(request.sid, (Staff(), None, None, -1))
        if staff_session is not None and sessions.get(staff_session) is None:
            raise staff_ended()
        if staff_session is None and not sessions.current(generation):
            raise staff_ended()
        return staff

    @sio.on("command", namespace="/dealer")
    def dealer_command(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            given = clean(payload) if isinstance(payload, dict) else {}
            return service.command(dealer_staff(), given.get("command"), given.get("args"))

        return guard(run)

    @sio.on("*", namespace="/dealer")
    def dealer_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("api/unknown_event", f"알 수 없는 이벤트입니다: {event}",
                                         f"Unknown event: {event}", event=event), args)
