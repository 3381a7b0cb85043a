"""An in-memory store, for pure unit tests only (a show always runs on Redis)."""

from __future__ import annotations

import copy
import threading
from typing import Any

from .base import Appended, Guard, no_guards, no_table, stored, table_exists


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._headers: dict[str, dict[str, Any]] = {}
        self._logs: dict[str, list[dict[str, Any]]] = {}
        self._sids: dict[str, dict[str, int]] = {}

    def create(self, table: str, header: dict[str, Any]) -> None:
        with self._lock:
            if table in self._headers:
                raise table_exists(table)
            self._headers[table] = copy.deepcopy(header)
            self._logs[table] = []
            self._sids[table] = {}

    def header(self, table: str) -> dict[str, Any]:
        with self._lock:
            if table not in self._headers:
                raise no_table(table)
            return copy.deepcopy(self._headers[table])

    def entries(self, table: str, after: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            if table not in self._logs:
                raise no_table(table)
            return copy.deepcopy(self._logs[table][after:])

    def version(self, table: str) -> int:
        with self._lock:
            if table not in self._logs:
                raise no_table(table)
            return len(self._logs[table])

    def append(self, table: str, expected: int, entries: list[dict[str, Any]], sid: str | None = None,
               guard: Guard | None = None) -> Appended:
        if guard is not None and guard.pending:
            raise no_guards()
        with self._lock:
            if table not in self._logs:
                raise no_table(table)
            log = self._logs[table]
            if sid is not None and sid in self._sids[table]:
                return Appended(False, self._sids[table][sid], duplicate=True)
            if len(log) != expected:
                return Appended(False, len(log))
            log.extend(stored(entries))  # as Redis keeps them
            if sid is not None:
                self._sids[table][sid] = len(log)
            return Appended(True, len(log))

    def tail(self, table: str, after: int, sid: str | None = None) -> tuple[list[dict[str, Any]], int | None]:
        return self.entries(table, after), None if sid is None else self.find_sid(table, sid)

    def check(self, guard: Guard) -> None:
        if guard.pending:
            raise no_guards()

    def find_sid(self, table: str, sid: str) -> int | None:
        with self._lock:
            return self._sids.get(table, {}).get(sid)

    def tables(self) -> list[str]:
        with self._lock:
            return sorted(self._headers)
