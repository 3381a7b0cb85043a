"""The audience plays along: predictions on the hall's own phones (issue 28).

Staff open a question from the console (one of the questions the current table's public view
offers, see ``referee.kernel.predictions``, or typed by hand with 2-9 options); every phone in
the hall that opened the show's audience page (``/a/<show>``, no login: a device id in a
cookie, a nickname it may choose) answers it once; the projector shows the split live, then
the right answer and a running leaderboard. Nothing here touches a table: an audience's
prediction never reaches a seat, a log or a game's state.

Everything is counted in place in Redis, one script per prediction, so every process behind
nginx takes predictions and none replays anything:

- ``crowd:{show}:q:{id}`` (hash): the question (``spec`` JSON: text, options, source), its
  ``state`` (open, closed, resolved), when it opened and closes (ms, Redis's clock), the log it
  watches and how far (``log``, ``cursor``) and which of its events close it (``closes_on``), the
  ``answer`` (the right option indexes, JSON).
- ``crowd:{show}:v:{id}`` device -> option index (HSETNX: one per device, a resend changes
  nothing); ``crowd:{show}:c:{id}`` option index -> count; ``crowd:{show}:t:{id}`` device -> ms
  after the opening (the tie-break: the faster right answers rank better).
- ``crowd:{show}:pts`` and ``:ms`` device -> points and the ms of its right answers;
  ``crowd:{show}:board`` (sorted set) device -> points * 1e9 - ms: the leaderboard, in place.
- ``crowd:{show}:nick`` device -> nickname; ``crowd:{show}:hide`` the nicknames staff hid.
- ``crowd:{show}:rt:{table}`` a table's resolved questions -> how many voided actions the
  table had when the answer was last read (a void reads it again).
- ``crowd:{show}:asked`` the tables' questions asked (table, key, params): each once.
- ``crowd:{show}:qs`` the question ids in order; ``crowd:{show}:seq`` counts every change of
  a question's state or the board (the payloads' order); ``crowd:live`` the shows with a
  question not resolved yet (the ticker's list).

A prediction is refused once the question is closed: by staff, at its closing time, or at the
first event of its table's log named by ``closes_on`` (a reveal, or the action marked "over":
the table's result): the script reads the log's
new entries itself, so no prediction lands after the answer was written, even before any
screen shows it.
"""

from __future__ import annotations

import json
import logging
import re
import time
import unicodedata
from collections.abc import Mapping
from typing import Any

import redis

from referee.kernel import Audience, Game, RuleError, T, require
from referee.kernel import predictions as P
from referee.store.replication import Alone

from .devices import device_key, is_device, new_device
from .limits import Limit, Limits, RateLimiter, limited
from .shows import NAME_FORBIDDEN, SHOW_ID
from .web import every

log = logging.getLogger(__name__)

NICK_MAX = 12
# Letters by their category that draw nothing (the Hangul fillers).
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
DEVICE_COOKIE = "ref_aud"

# A prediction's form, as the page sends it and nginx's hall.lua reads it too.
QUESTION_DIGITS, OPTION_DIGITS = (1, 9), (1, 2)
QUESTION_FORM = re.compile("[0-9]{{{},{}}}".format(*QUESTION_DIGITS))
OPTION_FORM = re.compile("[0-9]{{{},{}}}".format(*OPTION_DIGITS))
# A refused prediction, by what refused it (the script's status, or the form): the same words
# from the server and from nginx's hall.lua (referee/server/hall.py).
PREDICT_ERRORS = {
    "no_device": ("crowd/no_device", "관객 페이지를 먼저 여세요 (QR 또는 주소)",
                  "Open the audience page first (its QR or address)"),
    "no_question": ("crowd/no_such_question", "없는 질문입니다", "No such question"),
    "bad_option": ("crowd/bad_option", "보기 번호가 잘못되었습니다", "Bad option number"),
    "bad": ("crowd/bad_option", "없는 보기입니다", "No such option"),
    "closed": ("crowd/closed", "예측이 마감되었습니다", "Predictions are closed for this question"),
}


def refused(why: str) -> RuleError:
    return RuleError(*PREDICT_ERRORS[why])


def _require_question_form(show: Any, qid: Any) -> None:
    if not (isinstance(qid, str) and QUESTION_FORM.fullmatch(qid) and isinstance(show, str) and SHOW_ID.fullmatch(show)):
        raise refused("no_question")


def script_key(prefix: str) -> str:
    return f"{prefix}crowd:predict_script"


def none_key(prefix: str) -> str:
    """The key a script gets for a question's log or hold when it has none."""
    return f"{prefix}crowd:none"


OPEN, CLOSED, RESOLVED = "open", "closed", "resolved"
BOARD_SIZE = 10


# Redis's clock, in ms: every process agrees on when a question opened and closes.
_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

# Closes an open question whose time is up or whose table's log has an event named by
# closes_on since the cursor (up to the released version, with the show's reveal hold on);
# returns its state.
_SWEEP_BODY = """
local RESULT = '""" + P.RESULT + """'
local function sweep(q, log, show, released, now)
  local state, closes, cursor, closes_on = unpack(redis.call('HMGET', q, 'state', 'closes_ms', 'cursor', 'closes_on'))
  if state ~= 'open' then return state end
  if tonumber(closes) > 0 and now >= tonumber(closes) then
    redis.call('HSET', q, 'state', 'closed', 'closed_ms', now)
    return 'closed'
  end
  if closes_on ~= '{}' then
    local types = cjson.decode(closes_on)
    -- With the show's reveal hold on, the hall is told only what the projector may show: the
    -- log up to the first reveal the dealer has not released (the game's reveals, `held`)
    -- counts, and a held reveal closes nothing until its release.
    local released_v, held = nil, nil
    if redis.call('HGET', show, 'reveal_hold') == 'on' then
      released_v = tonumber(redis.call('GET', released) or '0')
      held = cjson.decode(redis.call('HGET', q, 'held'))
    end
    local entries = redis.call('LRANGE', log, tonumber(cursor), -1)
    local seen = 0
    for _, raw in ipairs(entries) do
      local entry = cjson.decode(raw)
      if released_v and entry['v'] > released_v and held[entry['event']['type']] then break end
      if types[entry['event']['type']] or (entry['over'] and types[RESULT]) then
        redis.call('HSET', q, 'state', 'closed', 'closed_ms', now)
        return 'closed'
      end
      seen = seen + 1
    end
    redis.call('HSET', q, 'cursor', tonumber(cursor) + seen)
  end
  return 'open'
end
"""

# KEYS: question, its log, votes, counts, times, board, rate (device), rate (address), the show
# (its reveal hold), the table's released version (none_key for a question with no log or no
# hold to follow: it reads as empty).
# ARGV: device, option index, device limit, window, address limit, window ("" for the four: the
# caller keeps the windows itself, as nginx's hall.lua does in its own memory, and the rate keys
# are none_key), and how many ms nginx held the prediction before sending it (hall.lua's group
# commit; none from the processes): its time, the tie-break's, is when it arrived.
_PREDICT = _NOW + _SWEEP_BODY + """
if ARGV[3] ~= '' then
  for i = 0, 1 do
    local n = redis.call('INCR', KEYS[7 + i])
    if n == 1 then redis.call('EXPIRE', KEYS[7 + i], tonumber(ARGV[4 + 2 * i]) + 1) end
    if n > tonumber(ARGV[3 + 2 * i]) then return {'rate'} end
  end
end
if sweep(KEYS[1], KEYS[2], KEYS[9], KEYS[10], now) ~= 'open' then return {'closed'} end
local n = tonumber(redis.call('HGET', KEYS[1], 'n'))
local option = tonumber(ARGV[2])
if option == nil or option < 0 or option >= n or option % 1 ~= 0 then return {'bad'} end
if redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2]) == 0 then
  return {'again', redis.call('HGET', KEYS[3], ARGV[1])}
end
redis.call('HINCRBY', KEYS[4], ARGV[2], 1)
local arrived = now - tonumber(ARGV[7] or '0')
redis.call('HSET', KEYS[5], ARGV[1], math.max(0, arrived - tonumber(redis.call('HGET', KEYS[1], 'opened_ms'))))
redis.call('ZADD', KEYS[6], 'NX', 0, ARGV[1])
return {'ok', ARGV[2]}
"""

# KEYS: question, its log, the show, the released version. Returns the state after closing it
# if its time or event has come.
_SWEEP = _NOW + _SWEEP_BODY + """
return sweep(KEYS[1], KEYS[2], KEYS[3], KEYS[4], now)
"""

# KEYS: question, seq. ARGV: the state to set ('closed': an open question only). Returns 1
# when it changed.
_CLOSE = _NOW + """
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'closed', 'closed_ms', now)
redis.call('INCR', KEYS[2])
return 1
"""

# KEYS: question, votes, times, points, ms, board, seq. ARGV: the right option indexes (JSON
# list). Scores every device whose prediction is right (a question resolved again with
# another answer takes the first scoring back first); returns how many were right.
_SCORE = """
local function score(answer, sign)
  local right = {}
  for _, i in ipairs(cjson.decode(answer)) do right[tostring(i)] = true end
  local votes = redis.call('HGETALL', KEYS[2])
  local count = 0
  for i = 1, #votes, 2 do
    if right[votes[i + 1]] then
      local device = votes[i]
      local points = redis.call('HINCRBY', KEYS[4], device, sign)
      local delta = sign * tonumber(redis.call('HGET', KEYS[3], device))
      if delta == 0 then delta = 0 end  -- never -0: Redis reads "-0" as no integer
      local ms = redis.call('HINCRBY', KEYS[5], device, delta)
      redis.call('ZADD', KEYS[6], points * 1000000000 - ms, device)
      count = count + 1
    end
  end
  return count
end
"""
_RESOLVE = _NOW + _SCORE + """
local state, old = unpack(redis.call('HMGET', KEYS[1], 'state', 'answer'))
if state == 'resolved' then
  if old == ARGV[1] then return -1 end
  score(old, -1)
end
local right = score(ARGV[1], 1)
redis.call('HSET', KEYS[1], 'state', 'resolved', 'answer', ARGV[1], 'resolved_ms', now)
if state == 'open' then redis.call('HSET', KEYS[1], 'closed_ms', now) end
redis.call('INCR', KEYS[7])
return right
"""

# KEYS: as _RESOLVE. A resolved question whose answer a void took away: its scoring taken
# back, closed again (it resolves anew when the table shows the answer again). 1 if it was.
_UNRESOLVE = _SCORE + """
local state, old = unpack(redis.call('HMGET', KEYS[1], 'state', 'answer'))
if state ~= 'resolved' then return 0 end
score(old, -1)
redis.call('HSET', KEYS[1], 'state', 'closed')
redis.call('HDEL', KEYS[1], 'answer', 'resolved_ms')
redis.call('INCR', KEYS[7])
return 1
"""


def nickname(name: Any) -> str:
    """A nickname as the projector may show it: NFC, spaces single, 1-12 characters, none of
    the characters no name needs (controls, zero width, bidi overrides: the same test as a
    player's name). Pages show it as text, never as markup."""
    require(isinstance(name, str), "crowd/bad_nickname", "닉네임은 글자여야 합니다", "A nickname must be text")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    bad = next((ch for ch in name if unicodedata.category(ch) in NAME_FORBIDDEN), None)
    require(bad is None, "crowd/bad_nickname", f"닉네임에 쓸 수 없는 글자가 있습니다: U+{ord(bad or ' '):04X}",
            f"The nickname holds a character that cannot be used: U+{ord(bad or ' '):04X}")
    require(0 < len(name) <= NICK_MAX, "crowd/bad_nickname", f"닉네임은 1-{NICK_MAX}자입니다",
            f"A nickname is 1-{NICK_MAX} characters")
    # A row of the board nobody can read: a name of fillers (U+3164), blank braille (U+2800) or a
    # lone combining mark shows as an empty line. At least one letter or digit a person sees.
    require(any(unicodedata.category(ch)[0] in "LN" and ch not in INVISIBLE_LETTERS for ch in name),
            "crowd/bad_nickname", "닉네임에는 보이는 글자나 숫자가 하나 이상 있어야 합니다",
            "A nickname needs at least one visible letter or digit")
    return name


def default_name(device: str) -> T:
    """A device without a nickname: "관객 4821" (four digits of its id, stable)."""
    number = int.from_bytes(device.encode()[-6:], "big") % 9000 + 1000
    return T(f"관객 {number}", f"Guest {number}")


def _options(raw: Any) -> list[dict[str, Any]]:
    require(isinstance(raw, list) and P.MIN_OPTIONS <= len(raw) <= P.MAX_OPTIONS, "crowd/bad_options",
            f"보기는 {P.MIN_OPTIONS}-{P.MAX_OPTIONS}개입니다", f"A question has {P.MIN_OPTIONS}-{P.MAX_OPTIONS} options")
    out = []
    for item in raw:
        text = _text(item, "crowd/bad_options", 40)
        out.append({"value": len(out), "label": {"ko": text, "en": text}})
    require(len({o["label"]["ko"] for o in out}) == len(out), "crowd/bad_options", "같은 보기가 두 번 있습니다",
            "The same option twice")
    return out


def _text(raw: Any, code: str, most: int) -> str:
    require(isinstance(raw, str), code, "글자여야 합니다", "Must be text")
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    bad = next((ch for ch in text if unicodedata.category(ch) in NAME_FORBIDDEN), None)
    require(bad is None and 0 < len(text) <= most, code, f"1-{most}자의 글이어야 합니다 (제어·보이지 않는 글자 없이)",
            f"Must be 1-{most} characters (no control or invisible characters)")
    return text


class Crowd:
    """The predictions of every show on one Redis (any number of processes share it)."""

    def __init__(self, client: redis.Redis, key: bytes, prefix: str = "ref:", limits: Limits | None = None,
                 replication: Alone | None = None) -> None:
        self.r = client
        # With a standby, a prediction is acknowledged once its replica has it (docs/backup.md).
        self.replication = replication or Alone()
        self.key = device_key(key)  # signs the devices' ids (referee/server/devices.py)
        self.p = prefix
        self.limits = limits or Limits()
        self.rates = RateLimiter(client, prefix)
        self._predict = client.register_script(_PREDICT)
        self._sweep = client.register_script(_SWEEP)
        self._close = client.register_script(_CLOSE)
        self._resolve = client.register_script(_RESOLVE)
        self._unresolve = client.register_script(_UNRESOLVE)
        # Question id -> (its log key, number of options, the hold it follows): fixed once asked,
        # read once per process.
        self._fixed: dict[tuple[str, str], tuple[str, int, tuple[str, str]]] = {}

    # -- keys -------------------------------------------------------------------------------------

    def k(self, show: str, *parts: str) -> str:
        return ":".join((f"{self.p}crowd", show, *parts))

    def live_key(self) -> str:
        return f"{self.p}crowd:live"

    # -- asking, closing, resolving (staff) -------------------------------------------------------

    def ask(self, show: str, spec: Mapping[str, Any], log_key: str = "", cursor: int = 0,
            closes_on: frozenset[str] | None = None, seconds: int | None = None,
            hold: tuple[str, str] = ("", ""), held: frozenset[str] = frozenset()) -> str:
        """Open a question. `spec`: {text {ko,en}, options [{value, label}], source or None};
        `log_key`/`cursor`: the table log whose events from `cursor` on named in `closes_on`
        close it; `seconds`: it closes by itself then; `hold`: the show's key and the table's
        released version, whose reveal hold it follows with `held`, the game's reveals (an
        event held off the projector closes nothing until its release). A table's question is
        asked once (two consoles at once included)."""
        source = spec.get("source")
        if source is not None:
            require(self.r.sadd(self.k(show, "asked"), asked_key(source)) == 1, "crowd/already_asked",
                    "이 질문은 이미 냈습니다", "This question was asked already")
        qid = str(self.r.incr(self.k(show, "n")))
        now = self._now_ms()
        pipe = self.r.pipeline(transaction=True)
        pipe.hset(self.k(show, "q", qid), mapping={
            "spec": json.dumps(dict(spec), ensure_ascii=False), "state": OPEN, "n": len(spec["options"]),
            "opened_ms": now, "closes_ms": now + seconds * 1000 if seconds else 0, "log": log_key,
            "hold_show": hold[0], "hold_released": hold[1], "held": json.dumps({t: True for t in sorted(held)}),
            "cursor": cursor, "closes_on": json.dumps({t: True for t in sorted(closes_on or ())}),
            "answer": "", "closed_ms": 0, "resolved_ms": 0})
        pipe.rpush(self.k(show, "qs"), qid)
        pipe.sadd(self.live_key(), show)
        pipe.incr(self.k(show, "seq"))
        pipe.execute()
        return qid

    def ask_custom(self, show: str, text: Any, options: Any, seconds: int | None = None) -> str:
        words = _text(text, "crowd/bad_text", 120)
        return self.ask(show, {"text": {"ko": words, "en": words}, "options": _options(options), "source": None},
                        seconds=seconds)

    def close(self, show: str, qid: str) -> bool:
        self._require_question(show, qid)
        return bool(self._close(keys=[self.k(show, "q", qid), self.k(show, "seq")]))

    def resolve(self, show: str, qid: str, right: list[int]) -> int:
        """Record the right option indexes and score every device that chose one (again with
        another answer: the first scoring is taken back). Returns how many were right."""
        n = self._fixed_of(show, qid)[1]
        require(bool(right) and all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n for i in right),
                "crowd/bad_answer", f"정답은 보기 번호(0-{n - 1})여야 합니다", f"The answer must be option numbers 0-{n - 1}")
        count = int(self._resolve(keys=self._scoring_keys(show, qid), args=[json.dumps(sorted(set(right)))]))
        if not self.unresolved(show):
            self.r.srem(self.live_key(), show)
        return count

    def unresolve(self, show: str, qid: str) -> bool:
        """A void took the answer away: the scoring is taken back and the question is closed
        again, unresolved (the show is live again for the ticker)."""
        if not int(self._unresolve(keys=self._scoring_keys(show, qid))):
            return False
        self.r.sadd(self.live_key(), show)
        return True

    def _scoring_keys(self, show: str, qid: str) -> list[str]:
        return [self.k(show, "q", qid), self.k(show, "v", qid), self.k(show, "t", qid), self.k(show, "pts"),
                self.k(show, "ms"), self.k(show, "board"), self.k(show, "seq")]

    def sweep(self, show: str, qid: str) -> str:
        """Close the question if its time or its closing event has come; its state."""
        log_key, _, hold = self._fixed_of(show, qid)
        state = self._sweep(keys=[self.k(show, "q", qid), log_key, *hold])
        return state.decode() if isinstance(state, bytes) else state

    # -- the hall ---------------------------------------------------------------------------------

    def take(self, show: str, form: Mapping[str, Any], device: Any, address: str) -> dict[str, Any]:
        """A prediction as the audience page posts it (its form, its device cookie). nginx's
        deploy/nginx/hall.lua takes it the very same way, with the same script and these errors
        (referee/server/hall.py), so that nginx takes the hall's predictions itself."""
        if not self.is_device(device):  # only an id the audience page issued (signed): none made up
            raise refused("no_device")
        qid, option = form.get("question"), form.get("option")
        _require_question_form(show, qid)
        if not (isinstance(option, str) and OPTION_FORM.fullmatch(option)):
            raise refused("bad_option")
        return self.predict(show, qid, device, int(option), address)

    def predict(self, show: str, qid: Any, device: str, option: Any, address: str) -> dict[str, Any]:
        """One device's prediction: counted once (a resend, or one after a reconnect, changes
        nothing), refused once the question is closed."""
        _require_question_form(show, qid)
        if not (isinstance(option, int) and not isinstance(option, bool) and 0 <= option < 100):
            raise refused("bad_option")
        log_key, _, hold = self._fixed_of(show, qid)
        dev, addr = self.limits.crowd_device, self.limits.crowd_address
        keys = [self.k(show, "q", qid), log_key, self.k(show, "v", qid), self.k(show, "c", qid), self.k(show, "t", qid),
                self.k(show, "board"), self._rate_key("dev", device, dev), self._rate_key("addr", address, addr), *hold]
        out = self.replication.write(self.r, self._predict, keys,
                                     [device, option, dev.count, dev.seconds, addr.count, addr.seconds])
        status = out[0]
        if status == "rate":
            raise limited(dev)
        if status in PREDICT_ERRORS:
            raise refused(status)
        return {"question": qid, "option": int(out[1]), "again": status == "again"}

    def publish_script(self) -> None:
        """The prediction script where nginx's hall.lua finds it (it runs the very same one)."""
        self.r.set(script_key(self.p), _PREDICT)

    def set_nickname(self, show: str, device: str, name: Any, address: str) -> str:
        self._spend(device, address)
        chosen = nickname(name)
        pipe = self.r.pipeline(transaction=True)
        pipe.hset(self.k(show, "nick"), device, chosen)
        pipe.zrevrank(self.k(show, "board"), device)
        rank = pipe.execute()[1]
        if rank is not None and rank < BOARD_SIZE:  # on the board: the screens show the new name
            self.r.incr(self.k(show, "seq"))
        self.replication.settle(self.k(show, "settled"))  # the phone says "saved" once the standby has it
        return chosen

    def new_device(self) -> str:
        """An id for a phone that opens the audience page for the first time."""
        return new_device(self.key)

    def is_device(self, value: Any) -> bool:
        """Only an id this server issued is a device: a made-up one counts nothing."""
        return is_device(value, self.key)

    def hide(self, show: str, device: str, hidden: bool = True) -> None:
        """Staff hide a nickname from the projector (it shows as "관객 1234" there)."""
        pipe = self.r.pipeline(transaction=True)
        (pipe.sadd if hidden else pipe.srem)(self.k(show, "hide"), device)
        pipe.incr(self.k(show, "seq"))
        pipe.execute()

    def take_off(self, show: str, qid: str, off: bool) -> None:
        """Staff take a question off the projector (or put it back): the phones keep it."""
        self._require_question(show, qid)
        pipe = self.r.pipeline(transaction=True)
        pipe.hset(self.k(show, "q", qid), "off", "1" if off else "0")
        pipe.incr(self.k(show, "seq"))
        pipe.execute()

    def show_board(self, show: str, on: bool) -> None:
        """Staff put the audience's leaderboard on the projector (between stages, at the end)."""
        pipe = self.r.pipeline(transaction=True)
        pipe.set(self.k(show, "board_on"), "1" if on else "0")
        pipe.incr(self.k(show, "seq"))
        pipe.execute()

    # -- what screens show ----------------------------------------------------------------------

    def questions(self, show: str, last: int = 20) -> list[dict[str, Any]]:
        """The show's newest questions with their counts (one round trip after the ids)."""
        ids = self.r.lrange(self.k(show, "qs"), -last, -1)
        if not ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for qid in ids:
            pipe.hmget(self.k(show, "q", qid), "spec", "state", "opened_ms", "closes_ms", "answer", "off")
            pipe.hgetall(self.k(show, "c", qid))
        raw = pipe.execute()
        out = []
        for i, qid in enumerate(ids):
            (spec, state, opened, closes, answer, off), counts = raw[2 * i], raw[2 * i + 1]
            spec = json.loads(spec)
            tally = [int(counts.get(str(j), 0)) for j in range(len(spec["options"]))]
            out.append({"id": qid, "text": spec["text"], "options": [o["label"] for o in spec["options"]],
                        "source": spec.get("source"), "state": state, "counts": tally, "total": sum(tally),
                        "opened_at": int(opened) / 1000, "closes_at": int(closes) / 1000 if int(closes) else None,
                        "answer": json.loads(answer) if answer else None, "off": off == "1"})
        return out

    def board(self, show: str, size: int = BOARD_SIZE, devices: bool = False) -> list[dict[str, Any]]:
        """The leaderboard's top `size`: rank, name (a hidden one as its default), points; with
        `devices` (the console), each one's device id, its nickname and whether it is hidden."""
        top = self.r.zrevrange(self.k(show, "board"), 0, size - 1, withscores=True)
        if not top:
            return []
        pipe = self.r.pipeline(transaction=False)
        pipe.hmget(self.k(show, "nick"), [d for d, _ in top])
        pipe.smembers(self.k(show, "hide"))
        pipe.hmget(self.k(show, "pts"), [d for d, _ in top])
        names, hidden, points = pipe.execute()
        # Equal scores (points, and the time of the right answers: the tie-break) share a rank,
        # 공동 N위; the top's last rank may be shared past it, so count those past it too.
        scores = [score for _, score in top]
        past = self.r.zcount(self.k(show, "board"), scores[-1], scores[-1]) - scores.count(scores[-1])
        out = []
        for (device, score), name, pts in zip(top, names, points, strict=True):
            shown = name if name and device not in hidden else None
            equal = scores.count(score) + (past if score == scores[-1] else 0)
            entry = {"rank": scores.index(score) + 1, "shared": equal > 1, "name": shown,
                     "guest": default_name(device).to_json(), "points": int(pts or 0)}
            if devices:
                entry.update(device=device, nickname=name, hidden=device in hidden)
            out.append(entry)
        return out

    def payload(self, show: str) -> dict[str, Any]:
        """What the projector and the hall's phones are sent: the questions and the board."""
        pipe = self.r.pipeline(transaction=False)
        pipe.get(self.k(show, "seq"))
        pipe.zcard(self.k(show, "board"))
        pipe.get(self.k(show, "board_on"))
        seq, players, board_on = pipe.execute()
        return {"seq": int(seq or 0), "questions": self.questions(show), "board": self.board(show),
                "players": int(players), "board_on": board_on == "1"}

    def me(self, show: str, device: str) -> dict[str, Any]:
        """One device's own: its nickname, its predictions, its points and rank."""
        ids = self.r.lrange(self.k(show, "qs"), -20, -1)
        pipe = self.r.pipeline(transaction=False)
        pipe.hget(self.k(show, "nick"), device)
        pipe.hget(self.k(show, "pts"), device)
        pipe.zscore(self.k(show, "board"), device)
        pipe.zcard(self.k(show, "board"))
        for qid in ids:
            pipe.hget(self.k(show, "v", qid), device)
        name, points, score, players, *votes = pipe.execute()
        rank, shared = None, False
        if score is not None:  # a shared rank for an equal score (as the board's)
            pipe = self.r.pipeline(transaction=False)
            pipe.zcount(self.k(show, "board"), f"({score}", "+inf")
            pipe.zcount(self.k(show, "board"), score, score)
            above, equal = pipe.execute()
            rank, shared = int(above) + 1, int(equal) > 1
        return {"name": name, "guest": default_name(device).to_json(), "points": int(points or 0),
                "rank": rank, "shared": shared, "players": int(players),
                "votes": {qid: int(v) for qid, v in zip(ids, votes, strict=True) if v is not None}}

    def unresolved(self, show: str) -> list[str]:
        ids = self.r.lrange(self.k(show, "qs"), 0, -1)
        if not ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for qid in ids:
            pipe.hget(self.k(show, "q", qid), "state")
        return [qid for qid, state in zip(ids, pipe.execute(), strict=True) if state != RESOLVED]

    def live_shows(self) -> set[str]:
        return set(self.r.smembers(self.live_key()))

    # -- internals ------------------------------------------------------------------------------

    def _now_ms(self) -> int:
        seconds, micros = self.r.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def _rate_key(self, kind: str, who: str, limit: Limit) -> str:
        # The window by this process's clock, as every other limit's: Redis's clock cost each
        # prediction two more trips on the audience's pool, and a burst of ten thousand queued
        # for them (docs/performance.md, Goal 8).
        return self.rates.key(f"crowd-{kind}", who, limit)

    def _spend(self, device: str, address: str) -> None:
        for kind, who, limit in (("dev", device, self.limits.crowd_device), ("addr", address, self.limits.crowd_address)):
            key = self._rate_key(kind, who, limit)
            pipe = self.r.pipeline()
            pipe.incr(key)
            pipe.expire(key, limit.seconds + 1)
            if int(pipe.execute()[0]) > limit.count:
                raise limited(limit)

    def _fixed_of(self, show: str, qid: str) -> tuple[str, int, tuple[str, str]]:
        fixed = self._fixed.get((show, qid))
        if fixed is None:
            log_key, n, hold_show, released = self.r.hmget(self.k(show, "q", qid), "log", "n", "hold_show", "hold_released")
            if n is None:
                raise refused("no_question")
            # No log or no hold: a key that is never written, not "" (Redis's ACL checks every key
            # a script is given against the referee's own, ref:*; a script finds it empty).
            none = none_key(self.p)
            fixed = self._fixed[(show, qid)] = (log_key or none, int(n), (hold_show or none, released or none))
        return fixed

    def _require_question(self, show: str, qid: Any) -> None:
        require(isinstance(qid, str), "crowd/no_such_question", "없는 질문입니다", "No such question")
        self._fixed_of(show, qid)


def from_table(game: Game, view: Mapping[str, Any], key: str) -> P.Prediction:
    """The question `key` among those the table's public view offers now (a stale console's
    choice is refused, not guessed)."""
    found = next((p for p in game.questions(view) if p.key == key), None)
    require(found is not None, "crowd/not_offered", f"지금 이 테이블에서 낼 수 없는 질문입니다: {key!r}",
            f"That question is not offered by this table now: {key!r}")
    return found


def source_spec(prediction: P.Prediction, table: str, title: Mapping[str, str]) -> dict[str, Any]:
    """A question made from a table, as the crowd keeps it: its options are indexed; the answer
    reads the option values back through `values`."""
    return {"text": prediction.text.to_json(), "options": [o.to_json() for o in prediction.options],
            "source": {"table": table, "key": prediction.key, "params": prediction.param_map(), "title": dict(title),
                       "values": [o.value for o in prediction.options]}}


def asked_key(source: Mapping[str, Any]) -> str:
    """A table's question as the show's list of those asked holds it: its table, key and params."""
    return json.dumps([source["table"], source["key"], source["params"]], sort_keys=True, ensure_ascii=False)


def right_indexes(spec: Mapping[str, Any], values: tuple[Any, ...]) -> list[int]:
    return [i for i, v in enumerate(spec["source"]["values"]) if v in values]


# -- the server's side: staff commands, the tables' answers, the screens ------------------------------


def crowd_room(show: str) -> str:
    return f"crowd:{show}"


class CrowdDesk:
    """Predictions wired into a server: the staff's commands (added to the Service's), the
    questions closed and answered by their tables after each command, and the payloads to the
    projector's room (``crowd`` on /public) and the hall's phones (``crowd`` on /crowd).

    The split on the projector moves with every prediction, so no prediction sends anything:
    each process's ticker reads the counts at most twice a second and sends them to its own
    screens only when they changed (the hall's phones only when a question's state or the board
    changed). A staff command sends the new state to every process's screens at once."""

    TICK = 0.5  # seconds between two reads of the counts (the projector's split "live")

    def __init__(self, crowd: Crowd, service: Any, publish: Any, push: Any = None) -> None:
        self.crowd = crowd
        self.service = service
        self.publish = publish
        self.push = push  # hall.HallPush: the phones' payload through deploy's nginx (nchan), or None
        self._sent: dict[str, tuple[str, int]] = {}  # show -> (what this process's screens got, its seq)
        self._cache: dict[str, tuple[float, dict[str, Any]]] = {}  # show -> (when, payload)
        service.commands.update({"ask_question": CrowdDesk.ask_question, "close_question": CrowdDesk.close_question,
                                 "resolve_question": CrowdDesk.resolve_question,
                                 "hide_nickname": CrowdDesk.hide_nickname,
                                 "question_off": CrowdDesk.question_off,
                                 "audience_board": CrowdDesk.audience_board})
        service.after_table.append(self.after_table)
        service.dealer_extras["crowd"] = self.for_dealer
        service.crowd = self

    # -- staff (Service.command handlers: (service, staff, payload)) ------------------------------

    def ask_question(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        desk: CrowdDesk = service.crowd
        show = service._show(staff, payload)
        seconds = payload.get("seconds")
        require(seconds is None or (isinstance(seconds, int) and not isinstance(seconds, bool) and 5 <= seconds <= 3600),
                "crowd/bad_seconds", "마감 시간은 5-3600초입니다", "The closing time is 5-3600 seconds")
        if payload.get("key") is None:
            qid = desk.crowd.ask_custom(show, payload.get("text"), payload.get("options"), seconds)
        else:
            _, table = service._table_of(staff, payload)
            view = service.public_view(show, table.id)
            found = from_table(table.game, view, payload["key"])
            # From the version the public sees: a reveal held off the projector (the reveal
            # hold) is past the question's start, and closes it only once released (the
            # question follows the show's hold, switched on or off later too).
            cut = service.hold_cut(table.id) if service.shows.info(show)["settings"]["reveal_hold"] == "on" else None
            start = cut if cut is not None else table.load().version
            closes_on = found.closes_on if found.closes_on is not None else table.game.reveals
            spec = source_spec(found, table.id, (view.get("stage") or {}).get("title") or view["title"])
            qid = desk.crowd.ask(show, spec, service.store.log_key(table.id), start, closes_on, seconds,
                                 (service.shows.registry_key(show), service.released_key(table.id)), table.game.reveals)
        desk.changed(show)
        return {"question": qid, "done": {"ko": "질문을 열었습니다", "en": "Question opened"}}

    def close_question(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        desk: CrowdDesk = service.crowd
        show = service._show(staff, payload)
        desk.crowd.close(show, payload.get("question"))
        desk.changed(show)
        return {"done": {"ko": "예측을 마감했습니다", "en": "Predictions closed"}}

    def resolve_question(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        desk: CrowdDesk = service.crowd
        show = service._show(staff, payload)
        qid = payload.get("question")
        desk.crowd._require_question(show, qid)
        right = desk.crowd.resolve(show, qid, payload.get("answer"))
        desk.changed(show)
        return {"right": right, "done": {"ko": "정답을 공개했습니다", "en": "Answer shown"}}

    def question_off(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        desk: CrowdDesk = service.crowd
        show = service._show(staff, payload)
        off = payload.get("off", True)
        require(isinstance(off, bool), "crowd/bad_field", "off는 true 또는 false입니다", "off must be true or false")
        desk.crowd.take_off(show, payload.get("question"), off)
        desk.changed(show)
        return {"done": {"ko": "질문을 프로젝터에서 " + ("내렸습니다" if off else "다시 띄웠습니다"),
                         "en": "Question " + ("taken off" if off else "put back on") + " the projector"}}

    def hide_nickname(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        desk: CrowdDesk = service.crowd
        show = service._show(staff, payload)
        device = payload.get("device")
        require(desk.crowd.is_device(device), "crowd/no_such_device", "없는 관객입니다", "No such audience device")
        desk.crowd.hide(show, device, bool(payload.get("hidden", True)))
        desk.changed(show)
        return {"done": {"ko": "닉네임 표시를 바꿨습니다", "en": "Nickname display changed"}}

    def audience_board(service: Any, staff: Any, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N805
        desk: CrowdDesk = service.crowd
        show = service._show(staff, payload)
        on = payload.get("on")
        require(isinstance(on, bool), "crowd/bad_field", "on은 true 또는 false입니다", "on must be true or false")
        desk.crowd.show_board(show, on)
        desk.changed(show)
        return {"done": {"ko": "관객 순위를 프로젝터에 " + ("띄웠습니다" if on else "내렸습니다"),
                         "en": "Audience leaderboard " + ("on" if on else "off") + " the projector"}}

    # -- the tables ---------------------------------------------------------------------------------

    def after_table(self, show: str, table_id: str | None) -> None:
        """After a command on a table: its open questions close at their event, and any whose
        answer the public view now shows is resolved (never before the projector shows it). A
        void since a question of this table was resolved reads its answer again: another
        answer moves the points, none (the deciding action voided) takes them back until the
        table shows it again."""
        if table_id is None:
            return
        r, crowd = self.crowd.r, self.crowd
        pipe = r.pipeline(transaction=False)
        pipe.sismember(crowd.live_key(), show)
        pipe.hgetall(crowd.k(show, "rt", table_id))  # resolved question -> voids seen then
        live, resolved = pipe.execute()
        if not live and not resolved:
            return
        table = self.service.table(table_id)
        voids = len(table.load().voided)
        changed = False
        for qid, seen in resolved.items():
            if int(seen) == voids:
                continue
            spec = json.loads(r.hget(crowd.k(show, "q", qid), "spec"))
            source = spec["source"]
            values = table.game.right_answer(source["key"], source["params"], self.service.public_view(show, table_id))
            if values is None:
                changed = crowd.unresolve(show, qid) or changed
                r.hdel(crowd.k(show, "rt", table_id), qid)
                live = True
            else:
                changed = crowd.resolve(show, qid, right_indexes(spec, values)) >= 0 or changed
                r.hset(crowd.k(show, "rt", table_id), qid, voids)
        if not live:
            if changed:
                self.changed(show)
            return
        for qid in crowd.unresolved(show):
            spec = json.loads(r.hget(crowd.k(show, "q", qid), "spec"))
            source = spec.get("source")
            if not source or source["table"] != table_id:
                continue
            state = crowd.sweep(show, qid)
            changed = changed or state == CLOSED
            values = table.game.right_answer(source["key"], source["params"], self.service.public_view(show, table_id))
            if values is not None:
                crowd.resolve(show, qid, right_indexes(spec, values))
                r.hset(crowd.k(show, "rt", table_id), qid, voids)
                changed = True
        if changed:
            self.changed(show)

    # -- the screens --------------------------------------------------------------------------------

    def payload(self, show: str, fresh: bool = False) -> dict[str, Any]:
        """The show's crowd payload; a connecting screen takes one at most a tick old."""
        cached = self._cache.get(show)
        if not fresh and cached is not None and time.monotonic() - cached[0] < self.TICK:
            return cached[1]
        payload = self.crowd.payload(show)
        self._cache[show] = (time.monotonic(), payload)
        return payload

    def changed(self, show: str) -> None:
        """A question's state or the board changed: every process's screens and phones now."""
        payload = self.payload(show, fresh=True)
        self.publish("/public", f"public:{show}", "crowd", payload)
        self.publish("/crowd", crowd_room(show), "crowd", payload)
        self._sent[show] = (json.dumps(payload, sort_keys=True), payload["seq"])
        self._push(show)
        self.service.changed(show)  # the consoles' snapshot (its questions, offers, board)

    def tick(self) -> None:
        """One read of every show with a question not yet resolved: time-up questions close,
        and this process's own screens get the counts when they moved."""
        live = self.crowd.live_shows()
        for show in live | set(self._sent) | (self.push.missed if self.push is not None else set()):
            if show in live:
                for qid in self.crowd.unresolved(show):
                    self.crowd.sweep(show, qid)
            payload = self.payload(show, fresh=True)
            text = json.dumps(payload, sort_keys=True)
            sent = self._sent.get(show)
            if sent is None or sent[0] != text:
                self.publish("/public", f"public:{show}", "crowd", payload, local=True)
                self.publish("/dealer", f"dealer:{show}", "crowd", payload, local=True)
                if sent is None or sent[1] != payload["seq"]:
                    self.publish("/crowd", crowd_room(show), "crowd", payload, local=True)
                self._sent[show] = (text, payload["seq"])
            if self.push is not None and self.push.behind(show, payload["seq"]):
                self._push(show)
            elif self.push is not None and show in live:  # an open question: is it in nginx's channel?
                self._push(show, again=True)
            if show not in live:
                self._sent.pop(show, None)  # its last state is out: nothing moves until a staff command

    def _push(self, show: str, again: bool = False) -> None:
        """The phones' payload into nginx's channel, when there is one (hall.HallPush); `again`:
        once more if the channel has lost it (nginx restarted)."""
        if self.push is None:
            return
        try:
            if again and self.push.present(show):
                return
            self.push.send(show, again)
        except Exception as exc:  # the command or the tick is done all the same; the next tick sends it
            log.warning("the hall's channel for %s missed a change, sent again at the next tick: %r", show, exc)

    def run(self, sleep: Any) -> None:
        every(self.TICK, self.tick, sleep, "the crowd's ticker")

    def for_dealer(self, show: str, moment: Any) -> dict[str, Any]:
        """The console's view: the questions (with their sources' values), the board with the
        devices (to hide a nickname), and the questions each running table offers now."""
        offers = []
        asked = self.crowd.r.smembers(self.crowd.k(show, "asked"))  # offered once: asked, it leaves the list
        for table_id in moment.info["tables"]:
            table = self.service.table(table_id)
            view = moment.view(table_id, Audience.public())
            found = [p for p in table.game.questions(view)
                     if asked_key({"table": table_id, "key": p.key, "params": p.param_map()}) not in asked]
            if found:
                offers.append({"table": table_id, "title": (view.get("stage") or {}).get("title") or view["title"],
                               "questions": [p.to_json() for p in found]})
        return {**self.payload(show), "board": self.crowd.board(show, devices=True), "offers": offers,
                "audience_url": self.service.audience_url(show)}
