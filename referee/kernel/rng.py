"""Seeded randomness for decisions.

The runtime builds one generator per decision from the table's seed and the version being
written, so a decision is reproducible; its results are written into the events, so replaying
a log never draws again.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

X = TypeVar("X")


class Rng:
    def __init__(self, seed: int | str, *salt: int | str) -> None:
        digest = hashlib.sha256(":".join(map(str, (seed, *salt))).encode()).digest()
        self._random = random.Random(int.from_bytes(digest[:16], "big"))

    def shuffled(self, items: Sequence[X]) -> list[X]:
        out = list(items)
        # Fisher-Yates over randbelow-free integer draws: stable across Python versions.
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return self._random.getrandbits(64) % n if n > 1 else 0

    def choice(self, items: Sequence[X]) -> X:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[X], k: int) -> list[X]:
        return self.shuffled(items)[:k]
