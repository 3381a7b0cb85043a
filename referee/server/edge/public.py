"""The projector and the audience's screens: the display page, the QR codes it shows, and the
``/public`` namespace, which only receives (a screen sends no command; it may ask for the whole
snapshot again)."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, abort, render_template, request
from flask_socketio import join_room

from referee.kernel import RuleError

from ..service import public_room
from ..web import lane
from .wiring import Wiring, connect_auth, error, refusal, unparsed


def register(w: Wiring) -> None:
    app, sio, service, shows = w.app, w.sio, w.service, w.shows

    @app.get("/display/<show>")
    def display(show: str) -> Any:
        if not service.show_exists(show):
            abort(404)
        # The console's projector link (stage key): the page connects in the stage lane; any
        # other key is ignored, and the page is an audience screen like any other.
        stage = request.args.get("stage")
        return render_template("display.html", show=show, overlay=request.args.get("overlay") == "1",
                               stage=stage if shows.is_stage_key(show, stage) else "")

    def qr_svg(show: str, url: str) -> Response:
        """The QR of one of the show's public addresses, for the projector (nothing secret in it)."""
        if not service.show_exists(show):
            abort(404)
        import qrcode  # only the projector's join screen needs it
        import qrcode.image.svg

        image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=4)
        return Response(image.to_string(), mimetype="image/svg+xml")

    @app.get("/display/<show>/join.svg")
    def join_qr(show: str) -> Response:
        return qr_svg(show, f"{w.base_url()}/join")  # the players' cards' address

    @app.get("/display/<show>/audience.svg")
    def audience_qr(show: str) -> Response:
        return qr_svg(show, service.audience_url(show))  # the hall's page

    @sio.on("connect", namespace="/public")
    @w.admitted
    def public_connect(auth: Any = None) -> None:
        auth = connect_auth(auth)
        show = auth.get("show") or request.args.get("show")
        if not isinstance(show, str) or not service.show_exists(show):
            raise refusal(RuleError("show/no_show", "없는 쇼입니다", "No such show"))
        # A lane past the line (and behind nginx, to the players' process) is the room's projector's
        # with the console's link only, never a player's or the dealer's (web.Admission); read as
        # nginx reads it, so that whatever nginx sends to the players' process is checked here.
        claimed = lane(request.environ.get("QUERY_STRING", ""))
        if claimed is not None and not (claimed == "stage" and shows.is_stage_key(show, auth.get("stage"))):
            raise refusal(RuleError("auth/wrong_lane", "이 화면은 그 통로로 연결할 수 없습니다. 프로젝터는 콘솔의 프로젝터 링크로 여세요",
                                    "This screen cannot connect in that lane; open the projector from the console's "
                                    "Projector link"))
        join_room(public_room(show))
        w.replays.watch(show)  # a replay playing on another process moves this screen too
        w.welcome("/public", service.audience_snapshot(show))
        audience = w.desk.payload(show)
        if audience["questions"]:  # a screen that comes back mid-question shows its split at once
            sio.emit("crowd", audience, to=request.sid, namespace="/public", ignore_queue=True)

    asked: dict[str, float] = {}  # projector socket id -> when it last asked for the whole snapshot

    @sio.on("snapshot", namespace="/public")
    def public_ask(*args: Any) -> dict[str, Any]:
        """A screen that got a brief update of a table it holds no whole view of (two fan-outs
        crossed on the way) asks for the whole snapshot: it comes as a `view`, in order with the
        rest. Once a second per screen; the snapshot is the cached one connecting screens get."""
        watched = [room[len(public_room("")):] for room in sio.server.rooms(request.sid, namespace="/public")
                   if room.startswith(public_room(""))]
        now = time.monotonic()
        if not watched or now - asked.get(request.sid, -1.0) < 1.0:
            return error(RuleError("public/too_soon", "방금 전체 화면을 보냈습니다. 잠시 후 다시 요청하세요",
                                   "The whole snapshot was just sent; ask again in a moment"))
        asked[request.sid] = now
        sio.emit("view", service.audience_snapshot(watched[0]), to=request.sid, namespace="/public", ignore_queue=True)
        return {"ok": True}

    @sio.on("disconnect", namespace="/public")
    def public_disconnect(*args: Any) -> None:
        asked.pop(request.sid, None)

    @sio.on("*", namespace="/public")
    def public_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("auth/read_only", "공개 화면은 명령을 보낼 수 없습니다",
                                         "The public screen sends no commands"), args)
