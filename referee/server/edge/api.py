"""The staff's JSON API (docs/api.md): the same commands as the console's socket, a show's
snapshot and a table's log. A script sends X-Staff-Pin; the console its session and CSRF token.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from referee.kernel import RuleError

from ..service import Staff
from ..web import parse_json
from .wiring import Wiring, answer, csrf_ok, guard


def register(w: Wiring) -> None:
    app, service, shows, limits = w.app, w.service, w.shows, w.limits

    def api_staff(payload: dict[str, Any]) -> Staff:
        """Scripts send X-Staff-Pin; the console sends its session cookie plus the CSRF token."""
        pin = request.headers.get("X-Staff-Pin")
        if pin is not None:
            staff = w.guarded_guess("login", limits.failed_login, lambda: w.staff_from_pin(pin, payload.get("show")))
            if staff is None:
                raise RuleError("auth/bad_pin", "PIN이 맞지 않습니다", "Wrong PIN")
            return staff
        staff = w.staff_from_session()
        if staff is None:
            raise RuleError("auth/staff_only", "스태프 로그인이 필요합니다", "Staff login required")
        if not csrf_ok(request.headers.get("X-CSRF-Token")):
            raise RuleError("auth/csrf", "보안 토큰이 맞지 않습니다. 페이지를 새로 고치세요",
                            "Security token mismatch; reload the page")
        return staff

    @app.post("/api/<command>")
    def api_command(command: str) -> tuple[Response, int]:
        def run() -> dict[str, Any]:
            payload = parse_json(request.get_data(cache=False))
            if not isinstance(payload, dict):
                raise RuleError("api/bad_payload", "요청 본문은 JSON 객체여야 합니다", "The request body must be a JSON object")
            return service.command(api_staff(payload), command, payload)

        return answer(guard(run))

    @app.get("/api/shows/<show>")
    def api_show(show: str) -> tuple[Response, int]:
        def run() -> dict[str, Any]:
            _reading(api_staff({"show": show}), show)
            return {"snapshot": service.dealer_snapshot(show)}

        return answer(guard(run))

    @app.get("/api/shows/<show>/tables/<table>/log")
    def api_log(show: str, table: str) -> tuple[Response, int]:
        def run() -> dict[str, Any]:
            _reading(api_staff({"show": show}), show)
            if table not in shows.tables(show):
                raise RuleError("show/no_table", f"이 쇼의 테이블이 아닙니다: {table!r}", f"Not a table of this show: {table!r}")
            t = service.table(table)
            return {"header": t.header, "entries": t.store.entries(table)}

        return answer(guard(run))

    def _reading(staff: Staff, show: str) -> None:
        shows.require(show)
        if not staff.may(show):
            raise RuleError("auth/staff_only", "이 쇼의 스태프 로그인이 필요합니다", "Staff login for this show is required")
