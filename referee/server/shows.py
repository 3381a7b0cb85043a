"""Shows on Redis: a name, a roster, a staff PIN, tables, and the seat links of phones.

A phone link belongs to one player of one show (one printed card for the whole evening): the
phone shows the player's seat at the show's latest table that seats them. The link carries a
token of 128 bits, an HMAC of (show, player, link version) under the
server's secret key, which lives outside Redis (``REFEREE_SECRET_KEY`` or a file in the data
directory); Redis stores only the token's SHA-256. So a card can be printed again at any time,
and a copy of Redis grants no seat. A link is bound to one seat of one table of one show and to
that seat's link version: re-issuing a card bumps the version, so the old token stops working
at once. The short fallback code printed on a card is derived and stored the same way.

Keys (under the prefix): ``show:{id}`` hash (name, pin, created, current), ``show:{id}:roster``
list, ``show:{id}:tables`` list, ``shows`` set, ``link:{sha}`` and ``code:{sha}`` bindings,
``linkver:{show}:{player}`` the player's link version.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import os
import re
import secrets
import time
import unicodedata
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from referee.kernel import RuleError, require
from referee.kernel.text import josa

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed on a phone
SHOW_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")  # the whole id (fullmatch: "$" would let "x\n" in)
# Characters no name needs and an attacker uses: controls (NUL...), format characters (zero
# width, bidi overrides and isolates), surrogates, private use and unassigned code points.
NAME_FORBIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

# Show settings (show control), each "on" or "off": the reveal hold keeps every reveal off the
# projector until the dealer releases it; with players_wait the players' phones wait too; with
# follow the projector follows the evening by itself (the service's director: a stage opened or
# a match started goes up, a confirmed result brings the program board with it), and P still
# puts up whatever staff choose.
SETTINGS = {"reveal_hold": "off", "players_wait": "off", "follow": "on"}
# The printouts' time zone (an IANA name; "": the zone of the console's browser that prints, else
# the server machine's): a venue laptop left on UTC still prints the hall's times.
TIME_ZONE = "time_zone"


def time_zone_ok(name: Any) -> bool:
    """An IANA time zone this machine knows ("Asia/Seoul"), never a path."""
    return isinstance(name, str) and name in _zones()


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())

# KEYS: roster. ARGV: name. Appends the name unless it is on the roster: -1, else the new length.
_ADD_PLAYER = """
if redis.call('LPOS', KEYS[1], ARGV[1]) then return -1 end
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def hash_pin(pin: str, salt: str | None = None) -> str:
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), 100_000).hex()
    return f"{salt}${digest}"


def pin_matches(pin: str, stored: str) -> bool:
    salt, _, _ = stored.partition("$")
    return hmac.compare_digest(hash_pin(pin, salt), stored)


def forbidden(text: str) -> str | None:
    """The first character of `text` that no name needs (NAME_FORBIDDEN), as U+XXXX; None if none."""
    bad = next((ch for ch in text if unicodedata.category(ch) in NAME_FORBIDDEN), None)
    return None if bad is None else f"U+{ord(bad):04X}"


def screen_text(value: Any, code: str, what: tuple[str, str], most: int) -> str:
    """Text that staff type and screens or records show (a player's name, a show's name, a void's
    reason), as it is kept: NFC, spaces trimmed and single, no character of NAME_FORBIDDEN, 1 to
    `most` characters. `what` names it in Korean ("선수 이름") and English ("A player name")."""
    ko, en = what
    require(isinstance(value, str), code, f"{josa(ko, '은/는')} 글자여야 합니다: {value!r}",
            f"{en} must be text: {value!r}", value=value)
    text = " ".join(unicodedata.normalize("NFC", value).split())
    bad = forbidden(text)
    require(bad is None, code, f"{ko}에 쓸 수 없는 글자가 있습니다: {bad}",
            f"{en} holds a character that cannot be used: {bad}", value=text, character=bad)
    require(0 < len(text) <= most, code, f"{josa(ko, '은/는')} 1-{most}자입니다: {text!r}",
            f"{en} is 1-{most} characters: {text!r}", value=text)
    return text


def reason_text(value: Any, required: bool) -> str:
    """A void's or a finish's reason as the log keeps it: checked as names are (the audit report
    prints it); a finish may have none, a void's missing reason is the runtime's own error."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "" if not required else value
    return screen_text(value, "table/bad_reason", ("사유", "A reason"), 500)


def player_name(name: Any) -> str:
    """A player's name as the roster keeps it: NFC, spaces trimmed and single, checked."""
    return screen_text(name, "show/bad_player_name", ("선수 이름", "A player name"), 40)


def option_texts(options: Any, code: str = "table/bad_option") -> Any:
    """A table's options, refused when any text in them (a key, a value, the names and notes of a
    map, however deep) holds a character of NAME_FORBIDDEN: screens show some of it."""
    def walk(value: Any, where: str) -> None:
        if isinstance(value, str):
            bad = forbidden(value)
            require(bad is None, code, f"옵션 {where}에 쓸 수 없는 글자가 있습니다: {bad}",
                    f"Option {where} holds a character that cannot be used: {bad}", option=where, character=bad)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key, where)
                walk(item, where)
        elif isinstance(value, list):
            for item in value:
                walk(item, where)

    if isinstance(options, dict):
        for name, value in options.items():
            walk(name, repr(name)[:40])
            walk(value, repr(name)[:40])
    return options


def normalise_code(code: str) -> str:
    raw = re.sub(r"[^A-Z0-9]", "", code.upper())
    return f"{raw[:4]}-{raw[4:]}"


@dataclass(frozen=True)
class PlayerLink:
    """What a phone link grants: one player (roster index) of one show, at one link version."""

    show: str
    player: int
    version: int


@dataclass(frozen=True)
class IssuedLink:
    link: PlayerLink
    token: str
    code: str


def load_secret(data_dir: str | os.PathLike[str]) -> bytes:
    """``REFEREE_SECRET_KEY``, else a key file in the data directory (made on first use).

    Every server process of one show must use the same key: they share the data directory
    (embedded Redis) or are given the same ``REFEREE_SECRET_KEY`` (external Redis).
    """
    if os.environ.get("REFEREE_SECRET_KEY"):
        return os.environ["REFEREE_SECRET_KEY"].encode()
    path = Path(data_dir) / "secret.key"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


class Shows:
    def __init__(self, client: redis.Redis, key: bytes, prefix: str = "ref:",
                 offload: Callable[..., Any] | None = None) -> None:
        self.r = client
        self.key = key
        self.p = prefix
        # Runs PBKDF2 off the event loop (a thread of the server's pool), so a burst of PIN
        # checks does not stall every socket of the process.
        self.offload = offload or (lambda fn, *args: fn(*args))
        self._verified: dict[str, str] = {}  # stored PIN hash -> the PIN that matched it
        self._add_player = client.register_script(_ADD_PLAYER)

    def _pin_matches(self, pin: str, stored: str) -> bool:
        """A PIN that matched once is remembered for its stored hash (PBKDF2 takes tens of
        milliseconds); other tries run PBKDF2 off the event loop."""
        known = self._verified.get(stored)
        if known is not None:
            return hmac.compare_digest(known.encode(), pin.encode())
        if self.offload(pin_matches, pin, stored):
            self._verified[stored] = pin
            return True
        return False

    def _derive(self, *parts: Any) -> bytes:
        """An HMAC of `parts` (joined by ":") under the server's secret: what no seat can work out."""
        return hmac.new(self.key, ":".join(map(str, parts)).encode(), "sha256").digest()

    def stage_key(self, show: str) -> str:
        """The key of a show's own projector link (the console's "Projector"): it lets that screen
        connect in the stage lane, past the audience's line and, behind nginx, on the players'
        process (deploy/nginx/referee.conf), so the room's projector is not held up by a crowd of
        audience screens. It opens nothing the audience may not see."""
        return base64.urlsafe_b64encode(self._derive("stage", show)[:12]).decode()

    def is_stage_key(self, show: str, given: Any) -> bool:
        return isinstance(given, str) and hmac.compare_digest(self.stage_key(show).encode(), given.encode())

    def credentials(self, link: PlayerLink) -> tuple[str, str]:
        """The token and the short code of a link (the same every time they are asked for)."""
        token = base64.urlsafe_b64encode(self._derive("token", link.show, link.player, link.version)[:18]).decode()
        raw = "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)]
                      for b in self._derive("code", link.show, link.player, link.version)[:8])
        return token, f"{raw[:4]}-{raw[4:]}"

    # -- the server-wide staff PIN -----------------------------------------------------------------

    def set_staff_pin(self, pin: str) -> bool:
        """Set the server's staff PIN; True when it changed (then every staff session ends)."""
        require(_pin_ok(pin), "show/bad_pin", "PIN은 4-32자의 숫자나 글자입니다", "A PIN is 4-32 digits or letters")
        stored = self.r.get(f"{self.p}staffpin")
        if stored and pin_matches(pin, stored):
            return False
        self.r.set(f"{self.p}staffpin", hash_pin(pin))
        return True

    def has_staff_pin(self) -> bool:
        return bool(self.r.exists(f"{self.p}staffpin"))

    def check_staff_pin(self, pin: str) -> bool:
        stored = self.r.get(f"{self.p}staffpin")
        return bool(stored) and isinstance(pin, str) and self._pin_matches(pin, stored)

    # -- shows -------------------------------------------------------------------------------------

    def create(self, show: str, name: str, pin: str | None) -> None:
        require(isinstance(show, str) and bool(SHOW_ID.fullmatch(show)), "show/bad_id",
                f"쇼 주소는 영문 소문자, 숫자, -로 1-40자입니다: {show!r}",
                f"A show id is 1-40 lowercase letters, digits and -: {show!r}", show=show)
        name = screen_text(name, "show/bad_name", ("쇼 이름", "A show name"), 80)
        require(pin is None or _pin_ok(pin), "show/bad_pin", "PIN은 4-32자의 숫자나 글자입니다",
                "A PIN is 4-32 digits or letters")
        fields = {"name": name, "created": time.time(), "current": ""}
        if pin:
            fields["pin"] = hash_pin(pin)
        created = self.r.hsetnx(self.registry_key(show), "name", fields["name"])
        require(bool(created), "show/exists", f"이미 있는 쇼입니다: {show}", f"Show already exists: {show}", show=show)
        self.r.hset(self.registry_key(show), mapping=fields)
        self.r.sadd(f"{self.p}shows", show)

    def exists(self, show: Any, client: redis.Redis | None = None) -> bool:
        return isinstance(show, str) and bool(SHOW_ID.fullmatch(show)) and bool(
            (client or self.r).exists(self.registry_key(show)))

    def require(self, show: Any) -> None:
        require(self.exists(show), "show/no_show", f"없는 쇼입니다: {show!r}", f"No such show: {show!r}", show=show)

    def ids(self) -> list[str]:
        return sorted(self.r.smembers(f"{self.p}shows"))

    def info(self, show: str) -> dict[str, Any]:
        self.require(show)
        pipe = self.r.pipeline()
        self.read_info(pipe, show)
        h, roster, tables = pipe.execute()
        return self.info_from(show, h, roster, tables, self.link_versions(show, len(roster)))

    def read_info(self, pipe: Any, show: str) -> None:
        """Queue the three reads of a show's registry entry on `pipe` (see info_from)."""
        pipe.hgetall(self.registry_key(show))
        pipe.lrange(f"{self.p}show:{show}:roster", 0, -1)
        pipe.lrange(f"{self.p}show:{show}:tables", 0, -1)

    def info_from(self, show: str, h: dict[str, str], roster: list[str], tables: list[str],
                  links: list[int]) -> dict[str, Any]:
        return {
            "id": show,
            "name": h.get("name", show),
            "roster": roster,
            "tables": tables,
            "current": h.get("current") or None,
            "program": h.get("program") or None,
            "links": links,
            "settings": {**{name: h.get(name, default) for name, default in SETTINGS.items()},
                         TIME_ZONE: h.get(TIME_ZONE, "")},
            "archived": json.loads(h.get("archived") or "[]"),
            "replay": json.loads(h["replay"]) if h.get("replay") else None,  # server/replaying.py
        }

    def linkver_key(self, show: str, player: int) -> str:
        return f"{self.p}linkver:{show}:{player}"

    def registry_key(self, show: str) -> str:
        """The show's registry hash (its settings among its fields)."""
        return f"{self.p}show:{show}"

    def set_setting(self, show: str, name: Any, value: Any) -> None:
        require(name in SETTINGS or name == TIME_ZONE, "show/bad_setting", f"없는 쇼 설정입니다: {name!r}",
                f"No such show setting: {name!r}", setting=name)
        if name == TIME_ZONE:
            require(value == "" or time_zone_ok(value), "show/bad_time_zone",
                    f"모르는 시간대입니다 (예: Asia/Seoul): {value!r}", f"Not a known time zone (e.g. Asia/Seoul): {value!r}",
                    value=value)
        else:
            require(value in ("on", "off"), "show/bad_setting", f"설정 값은 on 또는 off입니다: {value!r}",
                    f"A setting is on or off: {value!r}", value=value)
        self.r.hset(self.registry_key(show), name, value)

    def archive(self, show: str, table: str, archived: bool) -> None:
        """Keep a finished table out of the console's tabs (it stays in the show)."""
        key = self.registry_key(show)
        now = set(json.loads(self.r.hget(key, "archived") or "[]"))
        now = now | {table} if archived else now - {table}
        self.r.hset(key, "archived", json.dumps(sorted(now)))

    def link_version(self, show: str, player: int) -> int:
        return int(self.r.get(f"{self.p}linkver:{show}:{player}") or 0)

    def link_versions(self, show: str, count: int) -> list[int]:
        """Every player's current link version, in roster order (one read)."""
        if not count:
            return []
        return [int(v or 0) for v in self.r.mget([f"{self.p}linkver:{show}:{p}" for p in range(count)])]

    def check_show_pin(self, show: str, pin: str) -> bool:
        stored = self.r.hget(self.registry_key(show), "pin")
        return bool(stored) and isinstance(pin, str) and self._pin_matches(pin, stored)

    def roster(self, show: str) -> list[str]:
        return self.r.lrange(f"{self.p}show:{show}:roster", 0, -1)

    def add_player(self, show: str, name: Any) -> int:
        """Add a player; one name once, however many requests race (one atomic step)."""
        self.require(show)
        name = player_name(name)
        length = int(self._add_player(keys=[f"{self.p}show:{show}:roster"], args=[name]))
        require(length > 0, "show/duplicate_player", f"이미 있는 선수입니다: {name}",
                f"Player already on the roster: {name}", name=name)
        self.issue(show, length - 1)
        return length - 1

    def tables(self, show: str) -> list[str]:
        return self.r.lrange(f"{self.p}show:{show}:tables", 0, -1)

    def add_table(self, show: str, table: str) -> None:
        """A table joins the show. The projector stays on what staff put on it: only a show with
        nothing on the projector yet shows the new table."""
        self.r.rpush(f"{self.p}show:{show}:tables", table)
        if not self.r.hget(self.registry_key(show), "current"):
            self.r.hset(self.registry_key(show), "current", table)

    def set_program(self, show: str, table: str) -> None:
        created = self.r.hsetnx(self.registry_key(show), "program", table)
        require(bool(created), "show/has_program", "이 쇼에는 이미 프로그램이 있습니다",
                "This show already has a program", show=show)

    def set_current(self, show: str, table: str) -> None:
        require(table in self.tables(show), "show/no_table", f"이 쇼의 테이블이 아닙니다: {table!r}",
                f"Not a table of this show: {table!r}", table=table)
        self.r.hset(self.registry_key(show), "current", table)

    def current(self, show: str) -> str | None:
        return self.r.hget(self.registry_key(show), "current") or None

    # -- phone links --------------------------------------------------------------------------

    def issue(self, show: str, player: int) -> IssuedLink:
        """A new phone link for a player; every earlier link of that player stops working."""
        version = int(self.r.incr(f"{self.p}linkver:{show}:{player}"))
        link = PlayerLink(show, player, version)
        token, code = self.credentials(link)
        value = json.dumps(link.__dict__)
        pipe = self.r.pipeline()
        pipe.set(f"{self.p}link:{sha(token)}", value)
        pipe.set(f"{self.p}code:{sha(code)}", value)
        pipe.execute()
        return IssuedLink(link, token, code)

    def current_links(self, show: str) -> list[IssuedLink]:
        """Every player's link as it stands, in roster order (one Redis read)."""
        versions = self.link_versions(show, self.r.llen(f"{self.p}show:{show}:roster"))
        return [IssuedLink(PlayerLink(show, player, v), *self.credentials(PlayerLink(show, player, v)))
                for player, v in enumerate(versions)]

    def resolve(self, token: Any) -> PlayerLink | None:
        """The player a token grants now, or None (unknown, malformed, or re-issued since)."""
        if not isinstance(token, str) or not 10 <= len(token) <= 64:
            return None
        return self._current(self.r.get(f"{self.p}link:{sha(token)}"))

    def resolve_code(self, code: Any) -> PlayerLink | None:
        if not isinstance(code, str) or len(code) > 20:
            return None
        return self._current(self.r.get(f"{self.p}code:{sha(normalise_code(code))}"))

    def token_for_code(self, code: str) -> str | None:
        """The token of the link a typed code stands for (the cookie then holds the token)."""
        link = self.resolve_code(code)
        return None if link is None else self.credentials(link)[0]

    def _current(self, raw: str | None) -> PlayerLink | None:
        if raw is None:
            return None
        link = PlayerLink(**json.loads(raw))
        return link if link.version == self.link_version(link.show, link.player) else None


def _pin_ok(pin: Any) -> bool:
    return isinstance(pin, str) and 4 <= len(pin) <= 32 and pin.isalnum()


def no_permission() -> RuleError:
    return RuleError("auth/staff_only", "스태프 로그인이 필요합니다", "Staff login required")
