"""Bilingual text: Korean first, English second."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class T:
    ko: str
    en: str

    def to_json(self) -> dict[str, str]:
        return {"ko": self.ko, "en": self.en}
