"""The hall's phones: the audience page (no login: a device cookie) and the ``/crowd`` namespace
(predictions, nicknames, their own score). Nothing sent here reaches a table (referee/server/crowd.py)."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, render_template, request
from flask_socketio import join_room

from referee.kernel import RuleError

from ..crowd import DEVICE_COOKIE, crowd_room, refused
from ..web import clean, lane
from .wiring import Wiring, answer, connect_auth, guard, refusal, unparsed


def register(w: Wiring) -> None:
    app, sio, service, crowd = w.app, w.sio, w.service, w.crowd

    @app.get("/a/<show>")
    def audience_page(show: str) -> Any:
        """The hall's phone: no login. A device id in a cookie (new on a first visit) is what
        counts a prediction once; the page shows the show's name only."""
        if not service.show_exists(show):
            abort(404)
        device = request.cookies.get(DEVICE_COOKIE)
        new = not crowd.is_device(device)  # new, made up or another server's
        if new:
            device = crowd.new_device()
        # The page opens with the show's questions and its own record (at most a tick old), then
        # takes what changes from nginx's channel (hall.HallPush) or the /crowd socket.
        now = {"crowd": w.desk.payload(show), "me": crowd.me(show, device), "push": w.desk.push is not None}
        resp = Response(render_template("audience.html", show=show, name=w.shows.info(show)["name"], now=now))
        if new:
            resp.set_cookie(DEVICE_COOKIE, device, httponly=True, samesite="Lax", max_age=3 * 24 * 3600,
                            secure=request.is_secure)
        return resp

    def cookie_device(show: str) -> str:
        """The device of a request from the audience page (its cookie), one this server issued."""
        if not service.show_exists(show):
            raise RuleError("show/no_show", "없는 쇼입니다", "No such show")
        device = request.cookies.get(DEVICE_COOKIE)
        if not crowd.is_device(device):
            raise refused("no_device")
        return device

    @app.get("/a/<show>/me")
    def audience_me(show: str) -> tuple[Response, int]:
        """The device's own record (its nickname, predictions, points and rank): what the page
        asks once a question it answered is resolved."""
        return answer(guard(lambda: {"me": crowd.me(show, cookie_device(show))}))

    @app.post("/a/<show>/nickname")
    def audience_nickname(show: str) -> tuple[Response, int]:
        """The device's nickname, a form post like its predictions."""
        name = request.form.getlist("name")
        return answer(guard(lambda: {"name": crowd.set_nickname(show, cookie_device(show),
                                                                 name[0] if len(name) == 1 else None, w.address())}))

    hall: dict[str, tuple[str, str]] = {}  # crowd socket id -> (show, device), this process's only

    @sio.on("connect", namespace="/crowd")
    @w.admitted
    def crowd_connect(auth: Any = None) -> None:
        show = connect_auth(auth).get("show")
        if not isinstance(show, str) or not service.show_exists(show):
            raise refusal(RuleError("show/no_show", "없는 쇼입니다", "No such show"))
        if lane(request.environ.get("QUERY_STRING", "")) is not None:  # the audience's line, like any screen
            raise refusal(RuleError("auth/wrong_lane", "이 화면은 그 통로로 연결할 수 없습니다",
                                    "This screen cannot connect in that lane"))
        device = request.cookies.get(DEVICE_COOKIE)
        if not crowd.is_device(device):  # only an id the audience page issued (signed): none made up
            raise refusal(refused("no_device"))
        hall[request.sid] = (show, device)
        join_room(crowd_room(show))
        w.welcome("/crowd", w.desk.payload(show), event="crowd")
        sio.emit("me", crowd.me(show, device), to=request.sid, namespace="/crowd", ignore_queue=True)

    def hall_phone() -> tuple[str, str]:
        known = hall.get(request.sid)
        if known is None:
            raise RuleError("crowd/no_device", "관객 페이지를 다시 여세요", "Open the audience page again")
        return known

    @app.post("/a/<show>/predict")
    def audience_predict(show: str) -> tuple[Response, int]:
        """A prediction: a form post with the device's cookie, not a socket's event, so that
        deploy's nginx takes the hall's predictions itself (deploy/nginx/hall.lua, the same
        script and answers; docs/performance.md, Goal 8) and this is the way in without it."""
        # A field sent twice is no answer (as nginx's Lua reads it).
        form = {name: values[0] if len(values) == 1 else None for name, values in request.form.lists()}
        return answer(guard(lambda: {"prediction": crowd.take(show, form, request.cookies.get(DEVICE_COOKIE),
                                                                  w.address())}))

    @sio.on("nickname", namespace="/crowd")
    def crowd_nickname(payload: Any = None) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            show, device = hall_phone()
            return {"name": crowd.set_nickname(show, device, (clean(payload) if isinstance(payload, dict) else {}).get("name"),
                                               w.address())}

        return guard(run)

    @sio.on("me", namespace="/crowd")
    def crowd_me(*args: Any) -> dict[str, Any]:
        return guard(lambda: {"me": crowd.me(*hall_phone())})

    @sio.on("disconnect", namespace="/crowd")
    def crowd_disconnect(*args: Any) -> None:
        hall.pop(request.sid, None)

    @sio.on("*", namespace="/crowd")
    def crowd_any(event: str, *args: Any) -> dict[str, Any]:
        return unparsed(event, RuleError("auth/not_allowed", f"관객 화면에서 보낼 수 없는 명령입니다: {event}",
                                         f"The audience page cannot send {event}", event=event), args)
