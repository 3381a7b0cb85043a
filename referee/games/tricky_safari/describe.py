"""Tricky Safari: the log in words, for an event as one audience sees it.

``event`` is ``{"type": ..., **public data, **secret data if this audience may see it}``: a
hand is described only when its cards are there. Seats are named the way everyone numbers
them ("2번 김민준" / "2 Kim Minjun").
"""

from __future__ import annotations

from typing import Any

from referee.kernel import T

from .state import ANIMALS, animal_label, card_label, seat_label


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    def who(seat: int) -> T:
        return seat_label(tuple(names), seat)

    match event.get("type"):
        case "CardsOpened":
            opened = event["opened"]
            listed = _by_animal(opened)
            return T(f"{event['round']}라운드 공개 카드: {listed.ko}", f"Round {event['round']} opened: {listed.en}")
        case "HandDealt":
            w = who(event["seat"])
            if "hand" in event:
                cards = [card_label(c) for c in event["hand"]]
                return T(f"{w.ko} 손패: {', '.join(c.ko for c in cards)}", f"{w.en} hand: {', '.join(c.en for c in cards)}")
            return T(f"{w.ko}: 카드 5장을 받음", f"{w.en}: dealt 5 cards")
        case "CardPlayed":
            w, card, animal = who(event["seat"]), card_label(event["card"]), animal_label(event["animal"])
            return T(f"{w.ko}: {card.ko} 카드 → {animal.ko} 가치 {event['number']}",
                     f"{w.en}: plays {card.en} → {animal.en} is worth {event['number']}")
        case "FigureTaken":
            w, animal = who(event["seat"]), animal_label(event["animal"])
            return T(f"{w.ko}: {animal.ko} 피규어", f"{w.en}: takes a {animal.en} figure")
        case "RoundScored":
            vals = _by_animal(event["values"])
            done = [animal_label(a) for a in event["completed"]]
            pts = [(who(s), p) for s, p in enumerate(event["points"])]
            return T(
                f"{event['round']}라운드 종료 ({', '.join(d.ko for d in done)} 6장 공개). 가치: {vals.ko}. "
                f"점수: {', '.join(f'{w.ko} {p}' for w, p in pts)}",
                f"Round {event['round']} over ({', '.join(d.en for d in done)} all open). Values: {vals.en}. "
                f"Points: {', '.join(f'{w.en} {p}' for w, p in pts)}",
            )
        case "RoundBegan":
            w = who(event["starter"])
            return T(f"{event['round']}라운드 시작: {w.ko}부터", f"Round {event['round']} begins with {w.en}")
        case "SafariScored":
            ranks = event["ranks"]
            listed_ko = ", ".join(f"{animal_label(a).ko} {event['sums'][a]}({ranks[a]}위)" for a in ANIMALS)
            listed_en = ", ".join(f"{animal_label(a).en} {event['sums'][a]} (#{ranks[a]})" for a in ANIMALS)
            totals = [(who(s), t) for s, t in enumerate(event["totals"])]
            win, last = who(event["winner"]), who(event["last"])
            return T(
                f"최종 동물 합계: {listed_ko}. 총점: {', '.join(f'{w.ko} {t}' for w, t in totals)}. "
                f"우승 {win.ko}, 최하위 {last.ko}",
                f"Final animal sums: {listed_en}. Totals: {', '.join(f'{w.en} {t}' for w, t in totals)}. "
                f"Winner {win.en}, last {last.en}",
            )
        case "OpponentNamed":
            win, opp = who(event["seat"]), who(event["opponent"])
            return T(f"{win.ko}: 트리키 코인 상대로 {opp.ko} 지목", f"{win.en} names {opp.en} as the Tricky Coin opponent")
    return None


def _by_animal(numbers: dict[str, Any]) -> T:
    return T(", ".join(f"{animal_label(a).ko} {numbers[a]}" for a in ANIMALS if a in numbers),
             ", ".join(f"{animal_label(a).en} {numbers[a]}" for a in ANIMALS if a in numbers))
