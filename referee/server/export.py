"""``referee export-show``: the evening as a static, self-contained HTML keepsake (issue 29).

After the show, for people: a folder that opens from a USB stick with no server and no network.
``index.html`` is the evening (the program's stages with their results, the final standings,
every match) and plays each match's public story frame by frame or reveal by reveal with the
projector's own pictures (display/display.js draws each frame as it would a live payload; its
socket stays shut because the page sets ``window.EXPORTED``). The frames are those of
``referee.table.replay``: what the projector showed at each moment, a voided action never, its
"정정" notice in its place, a held reveal where the dealer released it.

The data rides in ``.js`` files loaded by ``<script>`` tags (Chromium refuses fetch() of file://);
every URL is relative; no socket.io client, no font or script from the network.

Players' secrets go in only once the show has ended (its program has a final result; a show
without a program: every table is closed). Then each player gets ``players/<n>.html`` holding
their own story (their seat's frames at every table that seats them, and their choices round by
round beside what the hall saw: ``replay.story``), sealed with AES-GCM under a key derived by
PBKDF2-SHA256 from the 144-bit token of their card's link, a fresh salt per player. The page
decrypts in the browser (WebCrypto) when the player pastes their card link (or opens the page
with the token after ``#``). Without the token nothing of a player's secrets is readable in the
folder; before the end the export holds no secret at all and says so.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from jinja2 import Environment, FileSystemLoader, select_autoescape

from referee.kernel import Audience, RuleError, require
from referee.table.replay import Frame, frames, merge, story

from .app import HERE, ROOT
from .assets import Assets
from .service import Moment, Service

# Far above what a 144-bit random token needs (it cannot be guessed anyway); a phone still
# derives the key in about a second.
PBKDF2_ITERATIONS = 310_000
FORMAT = 1
# A card link's token: 18 random bytes in base64url (Shows.credentials).
TOKEN = re.compile(r"^[A-Za-z0-9_-]{24}$")
# What an earlier export wrote into a folder (written again as a whole, nothing else touched).
WRITTEN = ("index.html", "data", "assets", "players")


@dataclass(frozen=True)
class Written:
    index: Path
    tables: int
    frames: int
    players: int  # the players' pages written (0: the show has not ended, no secrets)
    fonts: bool  # the Korean font was found and copied


def show_ended(moment: Moment) -> bool:
    """The show is over: its program has a final result, or (no program) every table is
    closed; and every reveal has been released to the hall. Only then may a player's own
    secrets leave the server (as Service.seat_story)."""
    program = moment.info["program"]
    tables = moment.info["tables"]
    if program is not None:
        over = moment.status(program) in ("over", "done")
    else:
        over = bool(tables) and all(moment.status(t) == "done" for t in tables)
    return over and all(moment.released(t) for t in tables)


def aad(show: str, player: int) -> bytes:
    """Binds a sealed story to its show and player: a blob moved to another page fails."""
    return f"referee-export:{FORMAT}:{show}:{player}".encode()


def _key(token: str, salt: bytes, iterations: int) -> bytes:
    return PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations).derive(token.encode())


def seal(data: Any, token: str, associated: bytes, iterations: int = PBKDF2_ITERATIONS) -> dict[str, Any]:
    """`data` as JSON, AES-256-GCM under a key derived from the card token (PBKDF2-SHA256,
    a fresh 16-byte salt); what export.js's WebCrypto code opens."""
    require(isinstance(token, str) and bool(TOKEN.match(token)), "export/bad_token",
            "카드 링크의 토큰 형식이 아닙니다", "Not a card link's token")
    salt, iv = os.urandom(16), os.urandom(12)
    plain = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    sealed = AESGCM(_key(token, salt, iterations)).encrypt(iv, plain, associated)
    b64 = lambda raw: base64.b64encode(raw).decode()  # noqa: E731
    return {"format": FORMAT, "kdf": "PBKDF2-SHA256", "iterations": iterations, "salt": b64(salt), "iv": b64(iv),
            "aad": associated.decode(), "cipher": "AES-256-GCM", "data": b64(sealed)}


def unseal(sealed: dict[str, Any], token: str) -> Any:
    """The other way (raises cryptography's InvalidTag for a wrong token): for checks and tests."""
    raw = base64.b64decode
    key = _key(token, raw(sealed["salt"]), sealed["iterations"])
    return json.loads(AESGCM(key).decrypt(raw(sealed["iv"]), raw(sealed["data"]), sealed["aad"].encode()))


# -- what goes in ------------------------------------------------------------------------------


def _picture(table: Any) -> str:
    """The name of the pictures that draw a table (display.js `gameOf`: any program is "program")."""
    return "program" if table.game.program else table.game.id


def _about(table: Any, last: Frame | None) -> dict[str, Any]:
    """A table as the export's lists name it: from its last public frame (what the projector
    showed last, a held reveal still held), else its header."""
    view = last.view if last is not None else {}
    return {"id": table.id, "game": table.game.id, "picture": _picture(table),
            "title": view.get("title") or table.game.title.to_json(),
            "stage": view.get("stage", table.header.get("stage")), "seats": list(table.seats),
            "result": view.get("result"), "program": bool(table.game.program)}


def public_story(service: Service, show: str, moment: Moment, ended: bool) -> dict[str, Any]:
    """Everything index.html shows: public frames only (the projector's audience)."""
    info = moment.info
    tables, stories = [], []
    for table_id in info["tables"]:
        table = service.table(table_id)
        told = frames(table, Audience.public(), service.releases(show, table_id))
        stories.append(told)
        tables.append({**_about(table, told[-1] if told else None), "status": moment.status(table_id, Audience.public()),
                       "frames": [f.to_json() for f in told]})
    # The whole evening in the order things happened (as the console's 다시 보기 of a program):
    # each frame by its table and place, not copied.
    place = {id(f): (n, i) for n, told in enumerate(stories) for i, f in enumerate(told)}
    evening = [list(place[id(f)]) for f in merge(stories)]
    stages: dict[str, str] = {}
    if info["program"] is not None:
        stages = service.programs.stage_tables(service.table(info["program"]))
    return {"format": FORMAT, "show": {"id": show, "name": info["name"]}, "exported": time.time(),
            "ended": ended, "program": info["program"], "stages": stages, "roster": list(info["roster"]),
            "tables": tables, "evening": evening}


def player_story(service: Service, show: str, moment: Moment, player: int) -> dict[str, Any]:
    """One player's own evening: at every table that seats them, what their seat saw frame by
    frame (their secrets included, nobody else's) and their story in words (replay.story)."""
    out = []
    for table_id, seat in moment.tables_of(player):
        table = service.table(table_id)
        # After the show the seat sees its whole story: no hold (the hall's hold is the public's).
        own = frames(table, Audience.of_seat(seat))
        if not own:
            continue
        out.append({**_about(table, own[-1]), "seat": seat, "frames": [f.to_json() for f in own],
                    "lines": [line.to_json() for line in story(table, seat)]})
    return {"format": FORMAT, "show": {"id": show, "name": moment.info["name"]}, "player": player,
            "name": moment.info["roster"][player], "tables": out}


# -- writing -----------------------------------------------------------------------------------


def _script(name: str, value: Any) -> str:
    """A value as a script that sets `window[name]` (JSON is a JavaScript expression)."""
    return f"window.{name} = {json.dumps(value, ensure_ascii=False, separators=(',', ':'))};\n"


def _prepare(out: Path) -> None:
    """An empty folder, or an earlier export (written again): never another folder's files.
    Everything is checked before anything is removed, and what is wrong is said in words."""
    if out.exists():
        require(out.is_dir(), "export/not_a_folder", f"폴더가 아닙니다: {out}", f"Not a folder: {out}")
        present = {p.name for p in out.iterdir()}
        earlier = (out / "data" / "show.js").is_file()
        require(not present or earlier, "export/folder_not_empty",
                f"비어 있지 않은 폴더입니다 (이전 내보내기도 아님): {out}",
                f"The folder is not empty (and no earlier export): {out}")
        for name in WRITTEN:
            path = out / name
            # A link would make the export write (or remove) somewhere else: refused, not followed.
            require(not path.is_symlink(), "export/symlink",
                    f"이전 내보내기의 {name}이(가) 다른 곳을 가리키는 링크입니다. 지우거나 다른 폴더를 고르세요: {path}",
                    f"{name} of the earlier export is a link to somewhere else; remove it or choose another folder: "
                    f"{path}", path=str(path))
            wanted_dir = name != "index.html"
            require(not path.exists() or path.is_dir() == wanted_dir, "export/not_an_export",
                    f"이전 내보내기의 모양이 아닙니다 ({name}): {path}",
                    f"This is not how an earlier export looks ({name}): {path}", path=str(path))
        require(os.access(out, os.W_OK | os.X_OK), "export/not_writable", f"이 폴더에 쓸 수 없습니다: {out}",
                f"Cannot write into this folder: {out}", path=str(out))
        for name in WRITTEN:
            path = out / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise _unwritable(out, err) from None


def _unwritable(path: Path, err: OSError) -> RuleError:
    return RuleError("export/not_writable", f"쓸 수 없습니다: {path} ({err.strerror})",
                     f"Cannot write: {path} ({err.strerror})", path=str(path))


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _fonts() -> tuple[dict[str, Path], str]:
    """The Korean font the printouts embed (NanumGothic, printouts.fonts), if this machine has it,
    and its @font-face rules: the keepsake then reads well on a computer without a Korean font
    (app.css already names NanumGothic). The project ships no font of its own."""
    from printouts.fonts import ENV_FONT_DIR, FontNotFoundError, find_font_files

    try:
        found = find_font_files(os.environ.get(ENV_FONT_DIR) or None)
    except FontNotFoundError:
        return {}, ""
    # local() first: a machine with the font installed never reads the file.
    faces = "".join(f'@font-face {{ font-family: "NanumGothic"; font-weight: {weight}; font-display: swap; '
                    f'src: local("{path.stem}"), url("{path.name}") format("truetype"); }}\n'
                    for path, weight in ((found.regular, 400), (found.bold, 700)))
    return {f"assets/fonts/{p.name}": p for p in (found.regular, found.bold)}, faces


def _assets(pictures: list[str], players: bool) -> tuple[dict[str, list[str]], dict[str, Path]]:
    """The pages' files: which games' pictures each page loads (relative paths), and every file
    to copy (its path in the export -> its source), found as the server finds them (Assets)."""
    roots = {"static": HERE / "static", "display": ROOT / "display", "phone": ROOT / "phone"}
    assets = Assets({f"/{name}": root for name, root in roots.items()})
    files: dict[str, list[str]] = {}
    for kind, folder in (("shared", "static"), ("display_js", "display"), ("display_css", "display"),
                         ("phone_js", "phone"), ("phone_css", "phone")):
        suffix = "css" if kind.endswith("css") else "js"
        have = assets.game_files(f"/{folder}", suffix)
        files[kind] = [f"assets/{folder}/games/{g}.{suffix}" for g in pictures if g in have]
    own = {"static": ["app.css", "i18n.js", "live.js"],
           "display": ["display.js", "stage.js", "crowd.js", "crowd.css", "replay.css", "export.js", "export.css"],
           "phone": ["story.css", "story.js", "export.js", "export.css"] if players else []}
    copies = {f"assets/{folder}/{name}": roots[folder] / name for folder, names in own.items() for name in names}
    wanted = files["shared"] + files["display_js"] + files["display_css"]
    wanted += files["phone_js"] + files["phone_css"] if players else []
    copies |= {path: roots[path.split("/")[1]] / path.split("/", 2)[2] for path in wanted}
    return files, copies


def export_show(service: Service, show: str, out: Path, iterations: int = PBKDF2_ITERATIONS) -> Written:
    """Write the show's keepsake into `out` (see the module's docstring)."""
    service.shows.require(show)
    moment = Moment(service, show)
    ended = show_ended(moment)
    data = public_story(service, show, moment, ended)
    links = service.links(show) if ended else []
    players = [player_story(service, show, moment, p) for p in range(len(links))]
    data["players"] = [{"player": p, "name": name, "page": f"players/{p + 1}.html" if ended else None}
                       for p, name in enumerate(moment.info["roster"])]

    _prepare(out)
    try:
        files, copies = _assets(sorted({t["picture"] for t in data["tables"]}), ended)
        fonts, faces = _fonts()
        for target, source in (copies | fonts).items():
            _copy(source, out / target)
        if faces:
            (out / "assets" / "fonts" / "fonts.css").write_text(faces, encoding="utf-8")

        env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]))
        page = {"show": show, "name": moment.info["name"], "files": files, "fonts": bool(faces), "ended": ended}
        (out / "data").mkdir()
        (out / "data" / "show.js").write_text(_script("EXPORTED", data), encoding="utf-8")
        (out / "index.html").write_text(env.get_template("export.html").render(**page, root="", overlay=False, stage=""),
                                        encoding="utf-8")
        if ended:
            (out / "players").mkdir()
            template = env.get_template("export_player.html")
            for link, own in zip(links, players, strict=True):
                n = link["player"] + 1
                sealed = seal(own, link["token"], aad(show, link["player"]), iterations)
                (out / "players" / f"{n}.js").write_text(_script("SEALED", sealed), encoding="utf-8")
                (out / "players" / f"{n}.html").write_text(
                    template.render(**page, root="../", player=link["player"], n=n, player_name=link["name"]),
                    encoding="utf-8")
    except OSError as err:  # a full stick, a read-only folder: in words, not a trace
        raise _unwritable(Path(err.filename or out), err) from None
    return Written(out / "index.html", len(data["tables"]), sum(len(t["frames"]) for t in data["tables"]),
                   len(players) if ended else 0, bool(faces))
