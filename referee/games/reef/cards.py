"""Reef's 60 mission cards, loaded from ``cards.json`` beside this module (a copy of
``shared/reference/reef_cards.json``), and their names in words.

A card is known by its number ``n`` (1-60, the order of the source list; the printed cards
carry no number, so the run sheet prints the catalogue for the dealer). Colours are ``red``
(the orange-red coral), ``yellow``, ``purple`` and ``green``; a pattern's ``any`` is a card
that shows all four colours: any top coral will do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.kernel import T

COLOURS = ("red", "yellow", "purple", "green")
COLOUR_NAMES = {
    "red": T("빨강", "red"),
    "yellow": T("노랑", "yellow"),
    "purple": T("보라", "purple"),
    "green": T("초록", "green"),
    "any": T("아무 색", "any colour"),
}

EXACT, AT_LEAST = "exact", "at_least"


@dataclass(frozen=True)
class Spec:
    """What one stack must show: its top colour (or ``any``) and, when given, its height."""

    top: str
    height: int | None = None
    mode: str = AT_LEAST

    def fits(self, stack: tuple[str, ...]) -> bool:
        if not stack:
            return False
        if self.top != "any" and stack[-1] != self.top:
            return False
        if self.height is None:
            return True
        return len(stack) == self.height if self.mode == EXACT else len(stack) >= self.height


@dataclass(frozen=True)
class Card:
    n: int
    corals: tuple[str, str]  # the two corals the card gives, in printed order
    kind: str  # the pattern type (see PATTERN_KINDS)
    points: int
    a: Spec  # the pattern's stack (single_stack), its colour (shapes), its first stack (pairs), the centre
    b: Spec | None = None  # the second stack of a pair; the counted neighbours of highest_surround

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "corals": list(self.corals), "points": self.points, "pattern": pattern_json(self),
                "label": label(self).to_json()}


PATTERN_KINDS = ("single_stack", "square_2x2", "line3_orthogonal", "line3_diagonal", "L3", "pair_orthogonal",
                 "pair_diagonal", "highest_surround")


def _spec(raw: dict[str, Any]) -> Spec:
    return Spec(raw["top"], raw.get("height"), raw.get("height_mode", AT_LEAST))


def _card(raw: dict[str, Any]) -> Card:
    p = raw["pattern"]
    kind = p["type"]
    corals = tuple(raw["corals_gained"])
    assert kind in PATTERN_KINDS and len(corals) == 2 and all(c in COLOURS for c in corals), raw
    if kind == "single_stack":
        a, b = _spec(p), None
    elif kind in ("pair_orthogonal", "pair_diagonal"):
        a, b = _spec(p["a"]), _spec(p["b"])
    elif kind == "highest_surround":
        a, b = Spec(p["center_top"]), Spec(p["neighbour_top"])
    else:
        a, b = Spec(p["top"]), None
    return Card(raw["n"], (corals[0], corals[1]), kind, raw["points"], a, b)


def _load() -> dict[int, Card]:
    data = json.loads(Path(__file__).with_name("cards.json").read_text(encoding="utf-8"))
    cards = {c.n: c for c in map(_card, data["cards"])}
    assert sorted(cards) == list(range(1, 61)), "Reef has 60 cards numbered 1-60"
    return cards


CARDS: dict[int, Card] = _load()
DECK: tuple[int, ...] = tuple(sorted(CARDS))


def is_card(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in CARDS


def pattern_json(card: Card) -> dict[str, Any]:
    """The pattern as the front-ends draw it."""
    out: dict[str, Any] = {"type": card.kind}
    if card.kind in ("pair_orthogonal", "pair_diagonal"):
        out["a"] = _spec_json(card.a)
        assert card.b is not None
        out["b"] = _spec_json(card.b)
    elif card.kind == "highest_surround":
        assert card.b is not None
        out["center_top"], out["neighbour_top"] = card.a.top, card.b.top
    else:
        out.update(_spec_json(card.a))
    return out


def _spec_json(spec: Spec) -> dict[str, Any]:
    out: dict[str, Any] = {"top": spec.top}
    if spec.height is not None:
        out["height"], out["height_mode"] = spec.height, spec.mode
    return out


def colour_name(colour: str) -> T:
    return COLOUR_NAMES[colour]


def _spec_text(spec: Spec) -> T:
    name = COLOUR_NAMES[spec.top]
    if spec.height is None:
        return name
    if spec.mode == EXACT:
        return T(f"{name.ko} {spec.height}층", f"{name.en} {spec.height} high")
    return T(f"{name.ko} {spec.height}층 이상", f"{name.en} {spec.height}+ high")


SHAPES = {
    "square_2x2": T("2×2 정사각형", "2×2 square"),
    "line3_orthogonal": T("가로·세로 3줄", "straight line of 3"),
    "line3_diagonal": T("대각선 3줄", "diagonal line of 3"),
    "L3": T("ㄱ자 3칸", "L of 3"),
}


def pattern_text(card: Card) -> T:
    """The pattern in words, e.g. "보라 2층 · 빨강 2층 대각선 이웃" / "purple 2+ high diagonal to red 2+ high"."""
    if card.kind == "single_stack":
        return _spec_text(card.a)
    if card.kind in SHAPES:
        shape, name = SHAPES[card.kind], COLOUR_NAMES[card.a.top]
        return T(f"{name.ko} {shape.ko}", f"{name.en} {shape.en}")
    assert card.b is not None
    a, b = _spec_text(card.a), _spec_text(card.b)
    if card.kind == "pair_orthogonal":
        return T(f"{a.ko} · {b.ko} 가로세로 이웃", f"{a.en} next to {b.en}")
    if card.kind == "pair_diagonal":
        return T(f"{a.ko} · {b.ko} 대각선 이웃", f"{a.en} diagonal to {b.en}")
    return T(f"가장 높은 {a.ko} 둘레의 {b.ko}", f"{b.en} around the highest {a.en}")


def corals_text(card: Card) -> T:
    first, second = (COLOUR_NAMES[c] for c in card.corals)
    return T(f"{first.ko}·{second.ko}", f"{first.en} + {second.en}")


def label(card: Card) -> T:
    """The card in one line: "#12 초록·초록 | 노랑 ㄱ자 3칸 4점"."""
    p, c = pattern_text(card), corals_text(card)
    each = "개당 " if card.kind == "highest_surround" else ""
    each_en = " each" if card.kind == "highest_surround" else ""
    return T(f"#{card.n} {c.ko} | {p.ko} {each}{card.points}점", f"#{card.n} {c.en} | {p.en}: {card.points}{each_en}")
