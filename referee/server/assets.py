"""The pages' static files: content-hashed URLs, gzip made once, long cache lifetimes.

A page names each file by a URL that carries a hash of its content (``/static/app.1a2b3c4d5e6f.css``),
so a browser may keep it for a year: a new release changes the hash, hence the URL, and is never
served stale. The plain name (``/static/app.css``) still works and is revalidated every time.

Each file is read, hashed and gzipped once (again only when it changes on disk), never per
request; a client that accepts gzip gets the compressed bytes.

The projector and the phones load a game's pictures only when a view of that game arrives: the
page carries a manifest (``game_manifest``) of each game's script and style URLs, and
``static/live.js`` fetches them on demand.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Request, Response, abort
from werkzeug.security import safe_join

HASH_LENGTH = 12
YEAR = 365 * 24 * 3600
VERSIONED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<suffix>\.[A-Za-z0-9]+)$")
COMPRESSIBLE = (".js", ".css", ".svg", ".json", ".html", ".txt", ".map")


@dataclass(frozen=True)
class Built:
    """One file as served: its bytes, their gzip, the content hash and what it was built from."""

    raw: bytes
    packed: bytes | None  # None: gzip would not make it smaller (or not a text file)
    digest: str
    stamp: tuple[int, int]  # (mtime_ns, size) of the file when it was built
    mimetype: str


class Assets:
    """The static files under a few URL prefixes, each a directory (``/static`` -> static/)."""

    def __init__(self, roots: dict[str, Path]) -> None:
        self.roots = {prefix.rstrip("/"): Path(path) for prefix, path in roots.items()}
        self._built: dict[Path, Built] = {}
        self._lock = threading.Lock()

    # -- building ----------------------------------------------------------------------------

    def _path(self, prefix: str, name: str) -> Path | None:
        root = self.roots.get(prefix)
        if root is None:
            return None
        joined = safe_join(str(root), name)
        if joined is None:
            return None
        path = Path(joined)
        return path if path.is_file() else None

    def build(self, path: Path) -> Built:
        """The file's bytes, hash and gzip: made when first asked for, again only after it changed."""
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        built = self._built.get(path)
        if built is not None and built.stamp == stamp:
            return built
        with self._lock:
            built = self._built.get(path)
            if built is not None and built.stamp == stamp:
                return built
            raw = path.read_bytes()
            packed = None
            if path.suffix in COMPRESSIBLE:
                candidate = gzip.compress(raw, compresslevel=9, mtime=0)
                packed = candidate if len(candidate) < len(raw) else None
            mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if mimetype.startswith("text/") or mimetype in ("application/javascript", "image/svg+xml"):
                mimetype += "; charset=utf-8"
            built = Built(raw, packed, hashlib.sha256(raw).hexdigest()[:HASH_LENGTH], stamp, mimetype)
            self._built[path] = built
            return built

    # -- URLs ------------------------------------------------------------------------------

    def url(self, prefix: str, name: str) -> str:
        """The versioned URL of a file (its plain URL if there is no such file)."""
        prefix = prefix.rstrip("/")
        path = self._path(prefix, name)
        if path is None:
            return f"{prefix}/{name}"
        head, dot, suffix = name.rpartition(".")
        digest = self.build(path).digest
        return f"{prefix}/{head}.{digest}.{suffix}" if dot else f"{prefix}/{name}.{digest}"

    def game_files(self, prefix: str, kind: str) -> list[str]:
        """The names (file stems) of the games with a file of `kind` (js, css) under prefix/games."""
        root = self.roots.get(prefix.rstrip("/"))
        if root is None or not (root / "games").is_dir():
            return []
        return sorted(p.stem for p in (root / "games").glob(f"*.{kind}"))

    def manifest(self, prefix: str, shared: str = "/static") -> dict[str, dict[str, list[str]]]:
        """For each game with pictures under `prefix`: the script URLs to load, in order (the
        game's shared helpers first), and its style URLs."""
        games = set(self.game_files(prefix, "js")) | set(self.game_files(prefix, "css"))
        helpers = set(self.game_files(shared, "js"))
        out: dict[str, dict[str, list[str]]] = {}
        for game in sorted(games):
            scripts = [self.url(shared, f"games/{game}.js")] if game in helpers else []
            if self._path(prefix, f"games/{game}.js"):
                scripts.append(self.url(prefix, f"games/{game}.js"))
            styles = [self.url(prefix, f"games/{game}.css")] if self._path(prefix, f"games/{game}.css") else []
            out[game] = {"js": scripts, "css": styles}
        return out

    # -- serving ---------------------------------------------------------------------------

    def response(self, prefix: str, name: str, request: Request) -> Response:
        """The file for a request: versioned names are cached for a year, plain names revalidated;
        gzip for a client that accepts it."""
        path = self._path(prefix, name)
        versioned = None
        if path is None:
            match = VERSIONED.match(name)
            if match is None:
                abort(404)
            path = self._path(prefix, match["stem"] + match["suffix"])
            if path is None:
                abort(404)
            versioned = match["hash"]
        built = self.build(path)
        packed = built.packed is not None and accepts_gzip(request.headers.get("Accept-Encoding", ""))
        etag = built.digest + ("-gz" if packed else "")
        if versioned is not None and versioned == built.digest:
            cache = f"public, max-age={YEAR}, immutable"
        else:
            # A plain name, or the hash of another release: the browser asks again every time.
            cache = "no-cache"
        headers = {"Cache-Control": cache, "Vary": "Accept-Encoding", "ETag": f'"{etag}"'}
        if request.if_none_match.contains(etag):
            return Response(status=304, headers=headers)
        body = built.packed if packed else built.raw
        response = Response(body, mimetype=built.mimetype, headers=headers)
        if packed:
            response.headers["Content-Encoding"] = "gzip"
        return response


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (``gzip;q=0`` refuses it)."""
    allowed = False
    for part in header.split(","):
        token, _, params = part.strip().partition(";")
        if token.strip().lower() not in ("gzip", "*"):
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if token.strip().lower() == "gzip":
            return quality > 0
        allowed = quality > 0
    return allowed
