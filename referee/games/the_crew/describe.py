"""The Crew: the log in words, for an event as one audience sees it.

``event`` is ``{"type": ..., **public data, **secret data if this audience may see it}``: a hand,
a face-down task or a passed card is described only when it is there. Seats are named the way
everyone numbers them ("2번 김민준" / "2 Kim Minjun").
"""

from __future__ import annotations

from typing import Any

from referee.kernel import T, josa

from .cards import POSITION_SHORT, card_label, cards_text
from .missions import REPLY_LABELS, token_label
from .state import VOTE_LABELS, seat_label


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    def who(seat: int) -> T:
        return seat_label(tuple(names), seat)

    def card(code: str) -> T:
        return card_label(code)

    match event.get("type"):
        case "ExtraSeatDrawn":
            w = who(event["seat"])
            return T(f"{josa(w.ko, '이/가')} 14장을 받습니다 (3인)", f"{w.en} is dealt 14 cards (3 players)")
        case "HandDealt":
            w = who(event["seat"])
            if "hand" in event:
                cards = cards_text(event["hand"])
                return T(f"{w.ko} 손패 {event['count']}장: {cards.ko}", f"{w.en} hand of {event['count']}: {cards.en}")
            return T(f"{w.ko}: 카드 {event['count']}장을 받음", f"{w.en}: dealt {event['count']} cards")
        case "CommanderFound":
            w = who(event["seat"])
            return T(f"사령관: {w.ko} (로켓 4)", f"Commander: {w.en} (rocket 4)")
        case "PinkNineAnnounced":
            h, k = who(event["holder"]), who(event["keeper"])
            return T(f"분홍 9는 {h.ko}에게 있습니다. {josa(k.ko, '이/가')} 분홍 카드가 나온 트릭을 모두 가져가야 합니다",
                     f"{h.en} holds pink 9; {k.en} must win every trick with a pink card")
        case "TaskDrawn":
            tok = token_label(event["token"]) if event["token"] else None
            extra_ko = f" ({tok.ko})" if tok else ""
            extra_en = f" ({tok.en})" if tok else ""
            if "card" in event:
                c = card(event["card"])
                return T(f"과제 {event['index'] + 1}: {c.ko}{extra_ko}", f"Task {event['index'] + 1}: {c.en}{extra_en}")
            return T(f"과제 {event['index'] + 1}: 뒤집힌 채로 놓임{extra_ko}", f"Task {event['index'] + 1}: face down{extra_en}")
        case "TokensKept":
            return T("과제 토큰을 그대로 둡니다", "The task tokens stay where they are")
        case "TokensMoved":
            if event["how"] == "swap":
                return T(f"과제 {josa(str(event['from'] + 1), '과/와')} {event['to'] + 1}의 토큰을 맞바꿈 ({event['token']} ↔ {event['other']})",
                         f"Tokens of tasks {event['from'] + 1} and {event['to'] + 1} swapped ({event['token']} ↔ "
                         f"{event['other']})")
            return T(f"토큰 {event['token']}: 과제 {event['from'] + 1} → 과제 {event['to'] + 1}",
                     f"Token {event['token']} moved from task {event['from'] + 1} to task {event['to'] + 1}")
        case "QuestionAnswered":
            w, r = who(event["seat"]), REPLY_LABELS[event["reply"]]
            return T(f"{w.ko}의 대답: {r.ko}", f"{w.en} answers: {r.en}")
        case "TaskRevealed":
            c = card(event["card"])
            return T(f"과제 {event['index'] + 1} 공개: {c.ko}", f"Task {event['index'] + 1} revealed: {c.en}")
        case "TaskAssigned":
            w, c = who(event["seat"]), card(event["card"])
            return T(f"{josa(w.ko, '이/가')} 과제 {josa(c.ko, '을/를')} 맡습니다", f"{w.en} takes the task {c.en}")
        case "TasksGiven":
            w = who(event["seat"])
            listed = cards_text([t["card"] for t in event["tasks"]])
            return T(f"사령관이 과제를 모두 {w.ko}에게 맡깁니다: {listed.ko}", f"The commander gives every task to {w.en}: "
                     f"{listed.en}")
        case "CrewChosen":
            w = who(event["seat"])
            match event["role"]:
                case "muted":
                    return T(f"{josa(w.ko, '은/는')} 이번 미션에서 소통할 수 없습니다", f"{w.en} may not communicate in this mission")
                case "last":
                    return T(f"{josa(w.ko, '이/가')} 마지막 트릭을 맡습니다", f"{w.en} is to win the last trick")
            return T(f"사령관이 {josa(w.ko, '을/를')} 정했습니다", f"The commander chose {w.en}")
        case "HandoverOffered":
            g, t, c = who(event["seat"]), who(event["to"]), card(event["card"])
            return T(f"{josa(g.ko, '이/가')} 과제 {josa(c.ko, '을/를')} {t.ko}에게 넘기자고 합니다", f"{g.en} offers the task {c.en} to {t.en}")
        case "HandoverPassed":
            w = who(event["seat"])
            return T(f"{w.ko}: 과제를 넘기지 않음", f"{w.en}: no handover")
        case "HandoverAnswered":
            w = who(event["seat"])
            yes = event["answer"] == "yes"
            return T(f"{w.ko}: {'동의' if yes else '거절'}", f"{w.en}: {'agrees' if yes else 'refuses'}")
        case "TaskHandedOver":
            g, t, c = who(event["from"]), who(event["to"]), card(event["card"])
            return T(f"과제 {c.ko}: {g.ko} → {t.ko}", f"Task {c.en}: {g.en} → {t.en}")
        case "DistressVoted":
            w, v = who(event["seat"]), VOTE_LABELS[event["vote"]]
            return T(f"{w.ko} 조난 신호 투표: {v.ko}", f"{w.en} distress vote: {v.en}")
        case "DistressDecided":
            d = event["direction"]
            if d == "none":
                return T("조난 신호를 쓰지 않습니다", "The distress signal is not used")
            return T(f"조난 신호! 모두 {'왼쪽' if d == 'left' else '오른쪽'}으로 카드 한 장을 넘깁니다",
                     f"Distress signal! Everyone passes one card to the {d}")
        case "DistressCardChosen":
            w = who(event["seat"])
            if "card" in event:
                return T(f"{w.ko}: 넘길 카드 {card(event['card']).ko}", f"{w.en}: card to pass {card(event['card']).en}")
            return T(f"{w.ko}: 넘길 카드를 골랐습니다", f"{w.en} has chosen a card to pass")
        case "DistressCardPassed" | "CardDrawn":
            g, t = who(event["from"]), who(event["to"])
            if "card" in event:
                return T(f"{g.ko} → {t.ko}: {card(event['card']).ko}", f"{g.en} → {t.en}: {card(event['card']).en}")
            return T(f"{g.ko} → {t.ko}: 카드 한 장", f"{g.en} → {t.en}: one card")
        case "RandomCardsPassed":
            return T("모두 오른쪽 대원에게서 뽑은 카드를 손에 넣었습니다", "Everyone has taken the card drawn from the right")
        case "Communicated":
            w, c = who(event["seat"]), card(event["card"])
            pos = POSITION_SHORT[event["position"]]
            actual = f" (실제: {POSITION_SHORT[event['actual']].ko})" if "actual" in event else ""
            actual_en = f" (actually: {POSITION_SHORT[event['actual']].en})" if "actual" in event else ""
            return T(f"{w.ko} 소통: {c.ko}, 토큰 {pos.ko}{actual}", f"{w.en} communicates {c.en}, token {pos.en}{actual_en}")
        case "CommunicationSkipped":
            w = who(event["seat"])
            return T(f"{w.ko}: 이번 트릭에는 소통하지 않음", f"{w.en}: no communication this trick")
        case "CardPlayed":
            w, c = who(event["seat"]), card(event["card"])
            return T(f"{event['trick']}번째 트릭: {w.ko} {c.ko}", f"Trick {event['trick']}: {w.en} plays {c.en}")
        case "TrickWon":
            w, c = who(event["winner"]), card(event["card"])
            line_ko = f"{event['trick']}번째 트릭: {josa(w.ko, '이/가')} {josa(c.ko, '으로/로')} 가져감"
            line_en = f"Trick {event['trick']}: {w.en} wins with {c.en}"
            if event["done"]:
                line_ko += f" · 과제 완료 {len(event['done'])}"
                line_en += f" · tasks done {len(event['done'])}"
            if event["failed"]:
                line_ko += f" · 과제 실패 {len(event['failed'])}"
                line_en += f" · tasks failed {len(event['failed'])}"
            return T(line_ko, line_en)
        case "MissionEnded":
            if event["success"]:
                return T(f"미션 성공! ({event['trick']}번째 트릭)", f"Mission accomplished! (trick {event['trick']})")
            reason = event.get("reason") or {}
            return T(f"미션 실패 ({event['trick']}번째 트릭): {reason.get('ko', '')}",
                     f"Mission failed (trick {event['trick']}): {reason.get('en', '')}")
    return None
