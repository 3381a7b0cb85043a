"""Final results: a ranking with the tie-break that decided it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .text import T


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
