"""Who acts (actors) and who looks (audiences).

Seats are 0-based integers inside the program; screens show them 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleError


@dataclass(frozen=True)
class Actor:
    """The dealer, a seat, the dealer on behalf of a seat, or the referee itself.

    The referee acts only for automatic steps (a shuffle in referee-deal mode); the log
    says so, the same way it says when the dealer entered a move for a seat.
    """

    kind: str  # "dealer" | "seat" | "referee"
    seat: int | None = None

    @staticmethod
    def dealer() -> Actor:
        return Actor("dealer")

    @staticmethod
    def of_seat(seat: int) -> Actor:
        return Actor("seat", seat)

    @staticmethod
    def on_behalf(seat: int) -> Actor:
        """The dealer entering the move of a seat (its phone died)."""
        return Actor("dealer", seat)

    @staticmethod
    def referee() -> Actor:
        return Actor("referee")

    @property
    def acting_seat(self) -> int | None:
        """The seat whose decision this actor makes, if any."""
        return self.seat

    @property
    def is_staff(self) -> bool:
        return self.kind in ("dealer", "referee")

    def describe(self) -> tuple[str, str]:
        """How people call this actor, in Korean and English (seats counted from 1)."""
        if self.kind == "seat":
            return f"{self.seat + 1}번 자리", f"seat {self.seat + 1}"
        if self.seat is not None:
            return f"딜러({self.seat + 1}번 자리 대신)", f"the dealer for seat {self.seat + 1}"
        return ("딜러", "the dealer") if self.kind == "dealer" else ("심판 자동 진행", "the referee")

    def __str__(self) -> str:
        if self.kind == "dealer" and self.seat is not None:
            return f"dealer>seat:{self.seat}"
        if self.kind == "seat":
            return f"seat:{self.seat}"
        return self.kind

    @staticmethod
    def parse(text: str) -> Actor:
        if text in ("dealer", "referee"):
            return Actor(text)
        prefix, _, rest = text.partition("seat:")
        if prefix in ("", "dealer>") and rest.isdigit():
            seat = int(rest)
            return Actor.on_behalf(seat) if prefix else Actor.of_seat(seat)
        raise RuleError(
            "table/bad_actor",
            f"알 수 없는 행위자입니다: {text!r}",
            f"Unknown actor: {text!r}",
            actor=text,
        )


@dataclass(frozen=True)
class Audience:
    """Who looks at a view: the dealer (everything), one seat, or the public."""

    kind: str  # "dealer" | "seat" | "public"
    seat: int | None = None

    @staticmethod
    def dealer() -> Audience:
        return Audience("dealer")

    @staticmethod
    def public() -> Audience:
        return Audience("public")

    @staticmethod
    def of_seat(seat: int) -> Audience:
        return Audience("seat", seat)

    def sees_seat(self, seat: int) -> bool:
        """True when this audience may see the secrets of `seat`."""
        return self.kind == "dealer" or (self.kind == "seat" and self.seat == seat)

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    @staticmethod
    def parse(text: str) -> Audience:
        if text in ("dealer", "public"):
            return Audience(text)
        if text.startswith("seat:") and text[5:].isdigit():
            return Audience.of_seat(int(text[5:]))
        raise RuleError(
            "table/bad_audience",
            f"알 수 없는 관객 구분입니다: {text!r} (public, dealer, seat:N)",
            f"Unknown audience: {text!r} (public, dealer, seat:N)",
            audience=text,
        )
