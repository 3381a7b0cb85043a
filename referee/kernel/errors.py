"""Typed rule errors: a stable code and a message in Korean and English.

Codes look like ``game/reason`` and are never renamed: clients and tests match on them.
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """An illegal or malformed move or command. Raising it changes nothing."""

    def __init__(self, code: str, ko: str, en: str, **values: Any) -> None:
        super().__init__(f"{code}: {en}")
        self.code = code
        self.ko = ko
        self.en = en
        self.values = values

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "ko": self.ko, "en": self.en, "values": _plain(self.values)}


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, (str, int, float, bool, type(None))) else repr(v) for k, v in values.items()}


def require(condition: bool, code: str, ko: str, en: str, **values: Any) -> None:
    """Raise a RuleError unless `condition` holds."""
    if not condition:
        raise RuleError(code, ko, en, **values)
