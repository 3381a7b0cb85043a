"""Pending decisions and their legal options.

A game's ``turn(state)`` describes who owes which decision, with every legal option, so the
console and the phones render generic forms and a new game needs no new form code. A move
is a JSON object ``{"type": decision.move, <field name>: <value>, ...}``.

Field shapes (enough for every seed):

- ``one``: pick one option (a coin, GO or STOP, a card, a seat).
- ``some``: pick exactly ``k`` distinct options (3 contract slots, 2 characters).
- ``assign``: map every item to one of the places (coins to zones, a sticker to a work).
- ``number``: an integer between ``low`` and ``high`` (a bid).
- ``text``: free text (a reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import RuleError
from .text import T, josa

SHAPES = ("one", "some", "assign", "number", "text")


@dataclass(frozen=True)
class Option:
    value: Any  # a JSON scalar
    label: T
    hint: T | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "label": self.label.to_json()}
        if self.hint is not None:
            out["hint"] = self.hint.to_json()
        return out


@dataclass(frozen=True)
class Field:
    name: str
    shape: str
    label: T
    options: tuple[Option, ...] = ()
    k: int = 1  # for "some"
    items: tuple[Option, ...] = ()  # for "assign": what is placed; options are the places
    low: int | None = None  # for "number"
    high: int | None = None
    # What the values are, so screens pick a fitting widget without game code: "seat" (values
    # are seat numbers from 0), "card", "cell", ... None: plain options.
    kind: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "shape": self.shape, "label": self.label.to_json()}
        if self.kind is not None:
            out["kind"] = self.kind
        if self.options:
            out["options"] = [o.to_json() for o in self.options]
        if self.shape == "some":
            out["k"] = self.k
        if self.shape == "assign":
            out["items"] = [o.to_json() for o in self.items]
        if self.shape == "number":
            out["low"], out["high"] = self.low, self.high
        return out


@dataclass(frozen=True)
class Decision:
    """One decision owed now by a seat (``seat``) or by the dealer (``seat is None``).

    ``auto`` marks a step the referee takes by itself (a shuffle in referee-deal mode): the
    runtime decides it at once with the table's randomness.
    """

    move: str
    prompt: T
    fields: tuple[Field, ...] = ()
    seat: int | None = None
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "seat": self.seat,
            "prompt": self.prompt.to_json(),
            "fields": [f.to_json() for f in self.fields],
            "auto": self.auto,
        }


@dataclass(frozen=True)
class Turn:
    """Everything owed right now.

    ``phase`` names the step for screens. ``sealed`` is (submitted, total) while a sealed,
    simultaneous submission is collected; ``public_waiting`` says whether the public may
    know which seats still owe a decision (False while the rules keep that secret).
    """

    phase: T
    decisions: tuple[Decision, ...] = ()
    sealed: tuple[int, int] | None = None
    public_waiting: bool = True

    def for_seat(self, seat: int) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.seat == seat)

    def for_dealer(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.seat is None and not d.auto)

    def automatic(self) -> Decision | None:
        return next((d for d in self.decisions if d.auto), None)

    def waiting_seats(self) -> tuple[int, ...]:
        return tuple(sorted({d.seat for d in self.decisions if d.seat is not None}))

    def to_json(self, public: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": self.phase.to_json(), "sealed": list(self.sealed) if self.sealed else None}
        if not public or self.public_waiting:
            out["waiting"] = list(self.waiting_seats())
        return out


def _malformed(move: str, name: str, value: Any, ko: str, en: str) -> RuleError:
    return RuleError(
        "move/malformed",
        f"{move}의 {name} 값 {value!r}: {ko}",
        f"{move}: field {name} = {value!r}: {en}",
        move=move,
        field=name,
        value=value,
    )


def check_shape(decision: Decision, move: dict[str, Any]) -> None:
    """Check that a move has the fields of the decision, each of the right shape and type.

    Legality beyond the shape (is this coin still in hand?) is the game's to check, with
    its own error codes; the options the game lists are exactly what it accepts.
    """
    for f in decision.fields:
        if f.name not in move:
            raise _malformed(decision.move, f.name, None, "값이 없습니다", "missing")
        value = move[f.name]
        values = {o.value for o in f.options}
        match f.shape:
            case "one":
                if not _scalar(value):
                    raise _malformed(decision.move, f.name, value, "하나의 값이어야 합니다", "must be one value")
            case "some":
                if not isinstance(value, list) or not all(_scalar(v) for v in value):
                    raise _malformed(decision.move, f.name, value, "목록이어야 합니다", "must be a list")
                if len(value) != f.k or len(set(map(_key, value))) != f.k:
                    raise _malformed(
                        decision.move, f.name, value,
                        f"서로 다른 {f.k}개를 골라야 합니다", f"choose exactly {f.k} different options",
                    )
            case "assign":
                if not isinstance(value, dict):
                    raise _malformed(decision.move, f.name, value, "배치표여야 합니다", "must be an assignment")
                items = {str(i.value) for i in f.items}
                if set(value) != items:
                    raise _malformed(
                        decision.move, f.name, value,
                        "모든 항목을 정확히 한 번씩 배치해야 합니다", "every item must be placed exactly once",
                    )
                bad = [p for p in value.values() if not _scalar(p) or p not in values]
                if bad:
                    raise _malformed(decision.move, f.name, bad[0], "없는 자리입니다", "no such place")
            case "number":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise _malformed(decision.move, f.name, value, "정수여야 합니다", "must be a whole number")
                if (f.low is not None and value < f.low) or (f.high is not None and value > f.high):
                    raise _malformed(
                        decision.move, f.name, value,
                        f"{f.low}에서 {f.high} 사이여야 합니다", f"must be between {f.low} and {f.high}",
                    )
            case "text":
                if not isinstance(value, str) or not value.strip() or len(value) > 500:
                    raise _malformed(decision.move, f.name, value, "1-500자의 글이어야 합니다", "must be 1-500 characters")


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _key(value: Any) -> tuple[str, Any]:
    return (type(value).__name__, value)


def expect(turn: Turn, actor: Any, move: Any) -> Decision:
    """The pending decision that `move` answers for `actor`, its shape checked.

    Raises ``move/malformed`` for a move that is not an object with a type, and
    ``move/not_owed`` when the actor owes no such decision now (not their turn, a seat acting
    for another seat, a phone sending a dealer-only move).
    """
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise RuleError(
            "move/malformed",
            f"수는 type이 있는 객체여야 합니다: {move!r}",
            f"A move must be an object with a type: {move!r}",
            move=move,
        )
    d = answered(turn, actor, move)
    if d is not None:
        check_shape(d, move)
        return d
    # In words, not the moves' names: what the move would decide (its decision's prompt, when
    # someone owes it now; a move nobody owes is named as sent), and what the actor may decide.
    owed = [d.prompt for d in turn.decisions if not d.auto and d.seat == actor.seat and actor.kind != "referee"]
    asked = next((d.prompt for d in turn.decisions if d.move == move["type"]), None)
    who_ko, who_en = actor.describe()
    what_ko, what_en = (f" ({asked.ko})", f" ({asked.en})") if asked else (f" ({move['type']!r})",) * 2
    raise RuleError(
        "move/not_owed",
        f"{josa(who_ko, '은/는')} 지금 그 결정을 할 수 없습니다{what_ko}. 지금 할 수 있는 것: "
        f"{', '.join(p.ko for p in owed) or '없음'}",
        f"{who_en} cannot make that decision now{what_en}. What they may decide now: "
        f"{', '.join(p.en for p in owed) or 'nothing'}",
        actor=str(actor),
        move=move["type"],
    )


def answered(turn: Turn, actor: Any, move: Any) -> Decision | None:
    """The pending decision that `move` (an object with a type) answers for `actor`, unchecked;
    None if it answers none."""
    if not isinstance(move, dict):
        return None
    for d in turn.decisions:
        if d.move != move.get("type"):
            continue
        if d.auto and actor.kind != "referee":
            continue
        if not d.auto and (actor.kind == "referee" or actor.seat != d.seat):
            continue
        return d
    return None


SEAT_KINDS = ("seat", "player")  # fields whose values are seat (or a program's player) numbers from 0


def shaped(turn: Turn, actor: Any, move: Any, seats: int, keep: tuple[str, ...] = ()) -> Any:
    """`move` as the log keeps it and the game decides it: its type and its decision's fields,
    nothing else (and `keep`, what the server itself adds to it), so no field a sender made up
    reaches the log or the rules. A seat or player field (SEAT_KINDS) holding a number that is
    no seat of the `seats` at the table is refused here: no game ever indexes with it (Python's
    -1 is the last seat). A move that answers no decision is returned as it is: the game's
    `decide` refuses it with its own error, and nothing is kept."""
    decision = answered(turn, actor, move)
    if decision is None:
        return move
    for f in decision.fields:
        if f.kind in SEAT_KINDS and f.shape in ("one", "some") and f.name in move:
            value = move[f.name]
            for v in value if f.shape == "some" and isinstance(value, list) else [value]:
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < seats:
                    raise _malformed(decision.move, f.name, v, f"없는 자리입니다 (0-{seats - 1})",
                                     f"no such seat (0-{seats - 1})")
    names = ("type", *(f.name for f in decision.fields), *keep)
    return {name: move[name] for name in names if name in move}
