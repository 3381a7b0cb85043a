"""Quattro: the log in words, for an event as one audience sees it.

`describe(event, names)` gets ``{"type": ..., **public data, **secret data if visible}``. A
hand, the cards returned in a mulligan, a sealed opening, the card a virtual player gave and the
virtual players' cards are secret (see the package docstring): for an audience that may not see
them the fields are absent and the words say only what is public. The candidates are named as
everyone numbers them ("1번 김민준" / "1 Kim Minjun"), the virtual players 1-6.
"""

from __future__ import annotations

from typing import Any

from referee.kernel import T

from .cards import DIFFERS, HIGHEST, ZERO, Comparison, decided_by, is_card, label
from .state import seat_label

# Quattro rule 4, the branch that chose the virtual player's card.
REASONS = {
    ZERO: T("0이 있으면 0", "a 0 if it has one"),
    DIFFERS: T("공개 카드와 색·숫자가 모두 다른 가장 높은 카드", "its highest card differing in colour and number"),
    HIGHEST: T("가장 높은 카드", "its highest card"),
}


def _who(names: tuple[str, ...], seat: Any) -> T:
    return seat_label(names, seat) if isinstance(seat, int) else T("자리", "a seat")


def _vp(vp: Any) -> T:
    shown = vp + 1 if isinstance(vp, int) else vp
    return T(f"가상 플레이어 {shown}", f"virtual player {shown}")


def _card(card: Any) -> T:
    return label(card) if is_card(card) else T(str(card), str(card))


def _cards(cards: list[Any]) -> T:
    return T(", ".join(_card(c).ko for c in cards), ", ".join(_card(c).en for c in cards))


def _nth(n: Any) -> T:
    ko = {1: "첫", 2: "두", 3: "세", 4: "네"}.get(n, str(n))
    return T(f"{ko} 번째", {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(n, f"#{n}"))


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    def who(seat: Any) -> T:
        return _who(names, seat)

    match event.get("type"):
        case "FirstPlayerSet":
            w = who(event.get("seat"))
            return T(f"선 플레이어: {w.ko}", f"First player: {w.en}")
        case "HandDealt":
            w = who(event.get("seat"))
            again = T(f" (멀리건 {event['mulligan']}회 후)", f" (after mulligan {event['mulligan']})") \
                if event.get("mulligan") else T("", "")
            if "cards" in event:
                cards = _cards(event["cards"])
                return T(f"{w.ko}: 카드 4장 받음{again.ko}: {cards.ko}", f"{w.en}: dealt 4 cards{again.en}: {cards.en}")
            return T(f"{w.ko}: 카드 4장 받음{again.ko}", f"{w.en}: dealt 4 cards{again.en}")
        case "MulliganTaken":
            w = who(event.get("seat"))
            n = event.get("mulligans")
            returned = T(f", 돌려준 카드 {_cards(event['returned']).ko}", f", returning {_cards(event['returned']).en}") \
                if "returned" in event else T("", "")
            return T(f"{w.ko}: 멀리건 ({_nth(n).ko}){returned.ko}", f"{w.en}: mulligan ({_nth(n).en}){returned.en}")
        case "HandKept":
            w = who(event.get("seat"))
            n = event.get("mulligans")
            if event.get("forced"):
                return T(f"{w.ko}: 두 번째 멀리건 후 카드 유지 (자동)", f"{w.en}: keeps the hand after the second mulligan "
                         "(automatic)")
            if not n:
                return T(f"{w.ko}: 멀리건 없이 카드 유지", f"{w.en}: keeps the hand, no mulligan")
            return T(f"{w.ko}: 카드 유지 (멀리건 {n}회 후)", f"{w.en}: keeps the hand (after {_nth(n).en} mulligan)")
        case "VirtualDealt":
            count = event.get("virtual_players")
            if "hands" in event:
                hands = [(_vp(i), _cards(h)) for i, h in enumerate(event["hands"])]
                return T(f"가상 플레이어 {count}명에게 3장씩: " + "; ".join(f"{v.ko} {c.ko}" for v, c in hands),
                         f"3 cards to each of {count} virtual players: " + "; ".join(f"{v.en} {c.en}" for v, c in hands))
            return T(f"가상 플레이어 {count}명에게 3장씩 배분", f"3 cards dealt to each of {count} virtual players")
        case "VirtualHandEntered":
            v = _vp(event.get("vp"))
            if "cards" in event:
                cards = _cards(event["cards"])
                return T(f"{v.ko}의 카드: {cards.ko}", f"Cards of {v.en}: {cards.en}")
            return T(f"{v.ko}에게 카드 3장", f"3 cards to {v.en}")
        case "OpenChosen":
            w = who(event.get("seat"))
            nth = _nth(event.get("round"))
            if "card" in event:
                card = _card(event["card"])
                return T(f"{w.ko}: {nth.ko} 공개할 카드로 {card.ko} 선택 (동시 공개 전)",
                         f"{w.en}: chooses {card.en} as the {nth.en} card to open (not yet shown)")
            return T(f"{w.ko}: {nth.ko} 공개할 카드 선택", f"{w.en}: chooses the {nth.en} card to open")
        case "CardsOpened":
            nth = _nth(event.get("round"))
            shown = [(who(s), _card(c)) for s, c in enumerate(event.get("cards", []))]
            how = T(" (마지막 카드, 자동 공개)", " (the last card, opened by itself)") if event.get("automatic") \
                else T("", "")
            return T(f"{nth.ko} 카드 공개{how.ko}: " + ", ".join(f"{w.ko} {c.ko}" for w, c in shown),
                     f"{nth.en.capitalize()} cards opened{how.en}: " + ", ".join(f"{w.en} {c.en}" for w, c in shown))
        case "Passed":
            w = who(event.get("seat"))
            return T(f"{w.ko}: 패스", f"{w.en}: passes")
        case "Exchanged":
            w, v, given = who(event.get("seat")), _vp(event.get("vp")), _card(event.get("given"))
            if "received" in event:
                got = _card(event["received"])
                why = REASONS.get(event.get("reason"))
                because = T(f"; 규칙 4: {why.ko}", f"; rule 4: {why.en}") if why else T("", "")
                return T(f"{w.ko} ↔ {v.ko} 교환: 준 카드 {given.ko}, 받은 카드 {got.ko}{because.ko}",
                         f"{w.en} ↔ {v.en} exchange: gives {given.en}, receives {got.en}{because.en}")
            return T(f"{w.ko} ↔ {v.ko} 교환: 준 카드 {given.ko}, 받은 카드 비공개",
                     f"{w.en} ↔ {v.en} exchange: gives {given.en}, receives a hidden card")
        case "ExchangesClosed":
            phase = event.get("phase")
            return T(f"두 사람 연속 패스: {phase}단계 교환 끝, 카드 한 장씩 더 공개",
                     f"Both passed in a row: exchange phase {phase} over, each opens one more card")
        case "HandsCompared":
            return _compared(event, who)
        case "DrawResolved":
            w = who(event.get("winner"))
            return T(f"무승부를 딜러가 결정: {w.ko} 승리", f"The dealer resolves the draw: {w.en} wins")
    return None


def _compared(event: dict[str, Any], who: Any) -> T:
    """Quattro rule 5: both hands, their sums and quattros, and what decided."""
    hands, sums, quattro = event.get("hands", []), event.get("sums", []), event.get("quattro", [])
    ko, en = [], []
    for s, (hand, total, full) in enumerate(zip(hands, sums, quattro, strict=False)):
        cards, mark = _cards(hand), (T(", 콰트로", ", quattro") if full else T("", ""))
        ko.append(f"{who(s).ko} {cards.ko} (합 {total}{mark.ko})")
        en.append(f"{who(s).en} {cards.en} (sum {total}{mark.en})")
    comparison = Comparison(tuple(tuple(h) for h in hands), tuple(quattro), tuple(sums), event.get("winner"),
                            event.get("rule", "draw"), event.get("position", 0))
    why = decided_by(comparison)
    why = T(why.ko, why.en[:1].lower() + why.en[1:])
    winner = event.get("winner")
    if winner is None:
        outcome = T(f"무승부 ({why.ko})", f"a draw ({why.en})")
    else:
        outcome = T(f"{who(winner).ko} 승리 ({why.ko})", f"{who(winner).en} wins ({why.en})")
    return T("최종 비교: " + "; ".join(ko) + f" → {outcome.ko}", "Final comparison: " + "; ".join(en) + f" → {outcome.en}")
