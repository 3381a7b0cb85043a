"""Randomness for decisions, from one of two sources.

- ``Rng.secure()``: the operating system's cryptographic generator (``secrets``). Every live
  table draws from it, so no seat can predict or rebuild a deal, a shuffle or a draw from what
  it has seen: there is no seed, and nothing of the generator's state is stored anywhere.
- ``Rng(seed, *salt)``: a deterministic stream, HMAC-SHA256 in counter mode keyed by the
  SHA-256 of the seed and the salt. Rehearsals (``referee play --bots --seed N``) and tests use
  it so the same seed gives the same match; such a seed is not a secret.

Either way the outcome of a draw is written into the events it causes, so replaying a log never
draws again and gives the same state on any machine.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import TypeVar

X = TypeVar("X")


class Rng:
    def __init__(self, seed: int | str, *salt: int | str) -> None:
        self._key: bytes | None = hashlib.sha256(":".join(map(str, (seed, *salt))).encode()).digest()
        self._counter = 0
        self._pool = 0  # unused random bits, and how many
        self._pool_bits = 0

    @classmethod
    def secure(cls) -> Rng:
        """Draws from the operating system's cryptographic generator (a live table)."""
        rng = cls.__new__(cls)
        rng._key = None
        rng._counter = rng._pool = rng._pool_bits = 0
        return rng

    @classmethod
    def forbidden(cls) -> Rng:
        """For ``setup``: a game deals in an automatic decision, never in setup, so its draws are
        recorded in the log (a draw here would make the log replay differently)."""
        return _Forbidden.__new__(_Forbidden)

    @property
    def deterministic(self) -> bool:
        return self._key is not None

    def _bits(self, k: int) -> int:
        if self._key is None:
            return secrets.randbits(k)
        while self._pool_bits < k:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(block, "big")
            self._pool_bits += 256
        self._pool_bits -= k
        out = self._pool >> self._pool_bits
        self._pool &= (1 << self._pool_bits) - 1
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling: no modulo bias)."""
        if n <= 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            r = self._bits(k)
            if r < n:
                return r

    def shuffled(self, items: Sequence[X]) -> list[X]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):  # Fisher-Yates
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[X]) -> X:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[X], k: int) -> list[X]:
        return self.shuffled(items)[:k]


class _Forbidden(Rng):
    def _bits(self, k: int) -> int:
        raise RuntimeError("setup must not draw: deal in an automatic decision so the draw is logged")
