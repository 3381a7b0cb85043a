"""What every page shares, whichever side it serves: the security headers on every response, the
answer to a body that is too large, the root, the health check and the static files."""

from __future__ import annotations

from flask import Response, jsonify, redirect, request
from werkzeug.exceptions import RequestEntityTooLarge

from ..web import too_large
from .wiring import Wiring, error


def register(w: Wiring) -> None:
    app = w.app

    @app.after_request
    def headers(resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        # Only the projector's page may be framed, and only by this server's own pages (the
        # console's program monitor); nothing else is ever framed.
        framed = request.path.startswith("/display/")
        ancestors = "'self'" if framed else "'none'"
        resp.headers.setdefault("X-Frame-Options", "SAMEORIGIN" if framed else "DENY")
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; style-src 'self'; "
            f"script-src 'self'; frame-ancestors {ancestors}; base-uri 'none'; form-action 'self'",
        )
        # Pages and answers that hold a seat, a login or a show's state are never stored (the
        # assets under /phone-assets and /console-assets are: see `assets`).
        path = request.path
        if path in ("/p", "/join") or (path.startswith(("/p/", "/console", "/api"))
                                       and not path.startswith("/console-assets/")):
            resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.errorhandler(RequestEntityTooLarge)
    def body_too_large(_exc: RequestEntityTooLarge) -> Response:
        """A body over MAX_BODY, refused before it is read: the API's JSON error, a page's text."""
        err = too_large()
        if request.path.startswith("/api/"):
            return Response(app.json.dumps(error(err)), status=413, mimetype="application/json")
        return Response(f"{err.ko}\n{err.en}\n", status=413, mimetype="text/plain")

    @app.get("/")
    def index() -> Response:
        return redirect("/console")

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)

    @app.get("/healthz")
    def healthz() -> Response:
        w.client.ping()
        return jsonify(ok=True)

    @app.get("/static/<path:name>")
    def static_assets(name: str) -> Response:
        return w.assets.response("/static", name, request)

    @app.get("/display-assets/<path:name>")
    def display_assets(name: str) -> Response:
        return w.assets.response("/display-assets", name, request)

    @app.get("/phone-assets/<path:name>")
    def phone_assets(name: str) -> Response:
        return w.assets.response("/phone-assets", name, request)

    @app.get("/console-assets/<path:name>")
    def console_assets(name: str) -> Response:
        return w.assets.response("/console-assets", name, request)
