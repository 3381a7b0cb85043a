"""The Crew: cards, tricks and communication, as pure functions over card codes.

A card is a compact string: a colour letter and a value. ``B7`` is blue 7, ``G``, ``P`` and
``Y`` are green, pink and yellow (1-9), ``R4`` is rocket 4 (1-4, the trumps). Task cards carry
the code of the colour card they show.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from referee.kernel import T

COLOURS = ("B", "G", "P", "Y")
ROCKET = "R"
SUITS = COLOURS + (ROCKET,)
SUIT_LABELS = {
    "B": T("파랑", "blue"),
    "G": T("초록", "green"),
    "P": T("분홍", "pink"),
    "Y": T("노랑", "yellow"),
    "R": T("로켓", "rocket"),
}
# Crew rule 1 (seed "초기 준비"): 36 colour cards, 4 colours 1-9, and rockets 1-4.
COLOUR_CARDS = tuple(f"{c}{v}" for c in COLOURS for v in range(1, 10))
ROCKETS = tuple(f"{ROCKET}{v}" for v in range(1, 5))
DECK = COLOUR_CARDS + ROCKETS
COMMANDER_CARD = "R4"
ORDER = {card: i for i, card in enumerate(DECK)}

# Communication token positions (seed "소통"): top = highest of its colour in hand, bottom =
# lowest, middle = the only one; a dead zone hides which ("hidden", the token in the middle).
TOP, MIDDLE, BOTTOM, HIDDEN = "top", "middle", "bottom", "hidden"
POSITION_LABELS = {
    TOP: T("위: 그 색의 가장 높은 카드", "top: the highest of its colour"),
    MIDDLE: T("가운데: 그 색의 유일한 카드", "middle: the only one of its colour"),
    BOTTOM: T("아래: 그 색의 가장 낮은 카드", "bottom: the lowest of its colour"),
    HIDDEN: T("데드존: 가장 높음/낮음/유일 중 하나 (비공개)", "dead zone: highest, lowest or only (not told)"),
}
POSITION_SHORT = {
    TOP: T("위(최고)", "top (highest)"),
    MIDDLE: T("가운데(유일)", "middle (only)"),
    BOTTOM: T("아래(최저)", "bottom (lowest)"),
    HIDDEN: T("데드존(비공개)", "dead zone (hidden)"),
}


def suit(card: str) -> str:
    return card[0]


def value(card: str) -> int:
    return int(card[1:])


def is_rocket(card: str) -> bool:
    return card[0] == ROCKET


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in ORDER


@lru_cache(maxsize=64)
def card_label(card: str) -> T:
    """``파랑 7`` / ``blue 7``; ``로켓 4`` / ``rocket 4``."""
    name = SUIT_LABELS[suit(card)]
    return T(f"{name.ko} {value(card)}", f"{name.en} {value(card)}")


def cards_text(cards: Iterable[str]) -> T:
    labels = [card_label(c) for c in cards]
    return T(", ".join(x.ko for x in labels) or "없음", ", ".join(x.en for x in labels) or "none")


def sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def without(hand: Sequence[str], card: str) -> tuple[str, ...]:
    return tuple(c for c in hand if c != card)


def legal_plays(hand: Sequence[str], trick: Sequence[str]) -> tuple[str, ...]:
    """Crew rule 3 (seed "트릭 진행"): the led suit must be followed when possible; rockets are
    a suit of their own; the first card of a trick is free."""
    if not trick:
        return sorted_cards(hand)
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    return sorted_cards(following or hand)


def winning_index(trick: Sequence[str]) -> int:
    """Crew rule 3: the highest rocket wins if any was played, else the highest card of the led
    suit. Returns the index of the winning card in `trick`."""
    rockets = [i for i, c in enumerate(trick) if is_rocket(c)]
    if rockets:
        return max(rockets, key=lambda i: value(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: value(trick[i]))


def communicable(hand: Sequence[str], dead_zone: bool) -> dict[str, str]:
    """Crew rule 6 (seed "소통"): the colour cards `hand` may communicate, each with its token
    position. Rockets never; a card that is the highest, the lowest or the only one of its
    colour in the hand; a dead zone hides the position."""
    out: dict[str, str] = {}
    for colour in COLOURS:
        own = sorted((c for c in hand if suit(c) == colour), key=value)
        if not own:
            continue
        if len(own) == 1:
            out[own[0]] = HIDDEN if dead_zone else MIDDLE
            continue
        out[own[0]] = HIDDEN if dead_zone else BOTTOM
        out[own[-1]] = HIDDEN if dead_zone else TOP
    return {c: out[c] for c in sorted_cards(out)}


def true_position(hand: Sequence[str], card: str) -> str:
    """The position a card's token would show without a dead zone (for the dealer)."""
    return communicable(hand, False).get(card, MIDDLE)
