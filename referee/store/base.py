"""The event store protocol: one log per table, appended atomically against a version.

A log is a header (a JSON object) and entries (JSON objects); an entry's version is its
1-based position. ``append`` writes all of its entries or none, only if the log is still at
``expected`` entries, and records the submission id so a resend is recognised. Every store
passes the same contract suite (tests/test_store_contract.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

_ORJSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def encode(obj: Any) -> str:
    """An entry or header as every store keeps it (and a view as every screen gets it): compact
    JSON, keys sorted, text as UTF-8. orjson writes it (several times faster); what orjson
    refuses (an integer beyond 64 bits) the standard library writes in the same form. Reading
    stays with the standard library: orjson would read such an integer back as a float."""
    try:
        return orjson.dumps(obj, option=_ORJSON).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def stored(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries as a store gives them back (JSON: tuples become lists, keys become text)."""
    return json.loads(encode(entries))


@dataclass(frozen=True)
class Appended:
    """The outcome of an append.

    ``ok``: written, the log now ends at ``version``. ``duplicate``: the submission id was
    already applied, at ``version`` (nothing written). Otherwise a conflict: the log is at
    ``version``, not at the expected one (nothing written).
    """

    ok: bool
    version: int
    duplicate: bool = False


@dataclass
class Guard:
    """What a phone's move must still meet when it is written, checked in the append's own step
    (Redis: inside its script, so a move costs one round trip): `key` still holds `value` (the
    player's link version: a re-issued card ends the old one) and, with a `counter`, one more
    try counted on it, at most `limit` in a window of `seconds` (the phone's rate limit).
    Nothing is written when it fails: the store raises `revoked` or `over`. A command that ends
    without an append (a resend, a refusal) makes the same check on its own (``check``); either
    way it is made, and the try counted, once (``pending``)."""

    key: str
    value: int
    revoked: Exception
    counter: str | None = None
    limit: int = 0
    seconds: int = 0
    over: Exception | None = None
    pending: bool = True

    def __post_init__(self) -> None:
        if (self.counter is None) != (self.over is None):
            raise ValueError("a guard's counter and its refusal (over) come together")


class StoreError(Exception):
    """The store itself failed or was misused (a table that does not exist, ...)."""

    def __init__(self, code: str, ko: str, en: str) -> None:
        super().__init__(f"{code}: {en}")
        self.code, self.ko, self.en = code, ko, en

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "ko": self.ko, "en": self.en, "values": {}}


class Store(Protocol):
    def create(self, table: str, header: dict[str, Any]) -> None:
        """Create the log of `table` with its header; StoreError if it exists."""

    def header(self, table: str) -> dict[str, Any]:
        """The header; StoreError if there is no such table."""

    def entries(self, table: str, after: int = 0) -> list[dict[str, Any]]:
        """The entries with a version greater than `after`, in order."""

    def version(self, table: str) -> int:
        """The number of entries."""

    def append(self, table: str, expected: int, entries: list[dict[str, Any]], sid: str | None = None,
               guard: Guard | None = None) -> Appended:
        """Append atomically if the log has exactly `expected` entries, `sid` is new and a
        pending `guard` holds (Redis stores only)."""

    def check(self, guard: Guard) -> None:
        """Make a pending guard's check on its own (Redis stores only)."""

    def find_sid(self, table: str, sid: str) -> int | None:
        """The version at which submission `sid` was applied, if it was."""

    def tail(self, table: str, after: int, sid: str | None = None) -> tuple[list[dict[str, Any]], int | None]:
        """The entries after `after` and, for a submission id, where it was applied (None: not
        yet): what a command needs before deciding, in one read."""

    def tables(self) -> list[str]:
        """Every table id, sorted."""


def no_table(table: str) -> StoreError:
    return StoreError("store/no_table", f"테이블이 없습니다: {table!r}", f"No such table: {table!r}")


def no_guards() -> StoreError:
    return StoreError("store/no_guards", "이 저장소는 조건부 기록을 지원하지 않습니다",
                      "This store does not check guards (a show runs on Redis)")


def table_exists(table: str) -> StoreError:
    return StoreError("store/table_exists", f"이미 있는 테이블입니다: {table!r}", f"Table already exists: {table!r}")
