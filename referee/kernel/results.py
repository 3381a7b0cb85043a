"""Final results: a ranking with the tie-break that decided it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .text import T


def place(rank: int, shared: bool = False) -> T:
    """A place in words, said alike on every screen and sheet (static/i18n.js: I18N.place):
    "3위" / "3rd", a shared one "공동 1위" / "=1st"."""
    teen = 11 <= rank % 100 <= 13
    suffix = "th" if teen else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return T(f"{'공동 ' if shared else ''}{rank}위", f"{'=' if shared else ''}{rank}{suffix}")


@dataclass(frozen=True)
class Standing:
    seat: int
    rank: int  # 1 is best; equal ranks share a place
    score: Any = None


@dataclass(frozen=True)
class Result:
    standings: tuple[Standing, ...]
    decided_by: T
    details: dict[str, Any] = field(default_factory=dict)

    def winner(self) -> int | None:
        best = [s.seat for s in self.standings if s.rank == 1]
        return best[0] if len(best) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {
            "standings": [{"seat": s.seat, "rank": s.rank, "score": s.score} for s in self.standings],
            "winner": self.winner(),
            "decided_by": self.decided_by.to_json(),
            "details": self.details,
        }
