"""The cards of Quattro and the two pure rules about them: the virtual player's choice
(Quattro rule 4) and the final comparison (Quattro rule 5).

A card is a short string: a colour letter and a number (``R3`` red 3, ``B6`` blue 6, ``G1``
green 1, ``Y5`` yellow 5) or one of the two zeros ``0a`` and ``0b``.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.kernel import T

# Quattro rule 1: red, blue, green, yellow 1-6 and two 0s: 26 cards.
SUITS = ("R", "B", "G", "Y")
ZEROS = ("0a", "0b")
DECK = tuple(f"{c}{n}" for c in SUITS for n in range(1, 7)) + ZEROS
_INDEX = {card: i for i, card in enumerate(DECK)}

# Quattro rule 4: equal numbers go red, then blue, then yellow, then green.
TIE_ORDER = ("R", "B", "Y", "G")

COLOUR_NAMES = {"R": T("빨강", "red"), "B": T("파랑", "blue"), "G": T("초록", "green"), "Y": T("노랑", "yellow")}

# Why the virtual player gave what it gave (Quattro rule 4, in the order the rule tries them).
ZERO, DIFFERS, HIGHEST = "zero", "differs", "highest"


def is_card(value: object) -> bool:
    return isinstance(value, str) and value in _INDEX


def is_zero(card: str) -> bool:
    return card in ZEROS


def number(card: str) -> int:
    return 0 if is_zero(card) else int(card[1])


def colour(card: str) -> str | None:
    return None if is_zero(card) else card[0]


def ordered(cards) -> tuple[str, ...]:
    """Cards in deck order (red, blue, green, yellow by number, then the zeros)."""
    return tuple(sorted(cards, key=_INDEX.__getitem__))


def label(card: str) -> T:
    if is_zero(card):
        mark = card[1].upper()
        return T(f"0 (제로 {mark})", f"0 (zero {mark})")
    name = COLOUR_NAMES[card[0]]
    return T(f"{name.ko} {card[1]}", f"{name.en} {card[1]}")


# -- Quattro rule 4: the virtual player's choice ---------------------------------------------


def _rank(card: str) -> tuple[int, int]:
    return (-number(card), TIE_ORDER.index(card[0]))


def highest(cards) -> str:
    """The highest non-zero card; equal numbers: red, then blue, then yellow, then green."""
    return min(cards, key=_rank)


def differs_from_all(card: str, opened) -> bool:
    """Colour and number both differ from every opened card (a 0 shares neither with anything)."""
    return all(
        is_zero(o) or (colour(card) != colour(o) and number(card) != number(o))
        for o in opened
    )


def virtual_choice(held, opened) -> tuple[str, str]:
    """The card a virtual player gives, from the cards it `held` before this exchange, to a
    candidate whose opened cards are `opened`; and which branch of the rule chose it."""
    held = tuple(held)
    zeros = sorted(c for c in held if is_zero(c))
    if zeros:
        # Quattro rule 4: a 0 if it has one (the two zeros are alike; 0a goes before 0b).
        return zeros[0], ZERO
    fitting = [c for c in held if differs_from_all(c, opened)]
    if fitting:
        # Quattro rule 4: otherwise its highest card differing in colour and number from every
        # opened card of the candidate.
        return highest(fitting), DIFFERS
    # Quattro rule 4: otherwise its highest card.
    return highest(held), HIGHEST


# -- Quattro rule 5: the final comparison ----------------------------------------------------


def is_quattro(cards) -> bool:
    """Four different colours and four different numbers; each 0 is its own colour and number."""
    cards = tuple(cards)
    colours = {colour(c) or c for c in cards}
    numbers = {c if is_zero(c) else number(c) for c in cards}
    return len(cards) == 4 and len(colours) == 4 and len(numbers) == 4


@dataclass(frozen=True)
class Comparison:
    """The end of the match: both hands and what decided between them.

    ``rule`` is ``only_quattro``, ``sum``, ``high`` (the ``position``-th highest card, 1-based,
    after equal sums) or ``draw`` (equal all the way; the dealer resolves it).
    """

    hands: tuple[tuple[str, ...], tuple[str, ...]]
    quattro: tuple[bool, bool]
    sums: tuple[int, int]
    winner: int | None
    rule: str
    position: int = 0


def compare(hand0, hand1) -> Comparison:
    hands = (ordered(hand0), ordered(hand1))
    quattro = (is_quattro(hands[0]), is_quattro(hands[1]))
    sums = (sum(map(number, hands[0])), sum(map(number, hands[1])))
    if quattro[0] != quattro[1]:
        # Quattro rule 5: only one quattro: it wins.
        return Comparison(hands, quattro, sums, 0 if quattro[0] else 1, "only_quattro")
    # Quattro rule 5: both quattros (and, "as the first case", neither): the higher sum wins.
    if sums[0] != sums[1]:
        return Comparison(hands, quattro, sums, 0 if sums[0] > sums[1] else 1, "sum")
    # Then the higher highest card, then the next highest, and so on.
    tops = [sorted(map(number, h), reverse=True) for h in hands]
    for position, (a, b) in enumerate(zip(tops[0], tops[1], strict=True), start=1):
        if a != b:
            return Comparison(hands, quattro, sums, 0 if a > b else 1, "high", position)
    # Cards equal all the way: a draw, which the dealer resolves.
    return Comparison(hands, quattro, sums, None, "draw")


_NTH = {1: ("가장 높은", "highest"), 2: ("두 번째로 높은", "second highest"), 3: ("세 번째로 높은", "third highest"),
        4: ("네 번째로 높은", "fourth highest")}


def decided_by(c: Comparison, resolved_by_dealer: bool = False) -> T:
    """The tie-break that decided the match, as people say it."""
    if c.rule == "only_quattro":
        return T("한 명만 콰트로 완성", "Only one quattro")
    kind = T("둘 다 콰트로", "Both quattros") if c.quattro[0] else T("둘 다 콰트로 아님", "Neither is a quattro")
    if c.rule == "sum":
        return T(f"{kind.ko}: 숫자 합이 더 큼", f"{kind.en}: higher sum")
    if c.rule == "high":
        ko, en = _NTH[c.position]
        return T(f"{kind.ko}, 합 동점: {ko} 카드가 더 큼", f"{kind.en}, equal sums: higher {en} card")
    suffix = T("딜러가 결정", "the dealer decided") if resolved_by_dealer else T("딜러 결정 대기", "awaiting the dealer")
    return T(f"{kind.ko}, 카드가 모두 같음: {suffix.ko}", f"{kind.en}, cards equal all the way: {suffix.en}")
