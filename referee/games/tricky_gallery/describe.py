"""Tricky Gallery: the log in words, for an event as one audience sees it.

`describe(event, names)` gets ``{"type": ..., **public data, **secret data if visible}``. A
hand, a submitted work's kind and sticker, an appraisal and a chip transfer are secret (Gallery
rules 1, 2, 7, 9): for an audience that may not see them the fields are absent and the words
say only what is public ("1번 김민준: 작품 제출"). Seats are named as everyone numbers them:
"1번 김민준" / "1 Kim Minjun".
"""

from __future__ import annotations

from typing import Any

from referee.kernel import T

from .state import APPRAISAL_COST, KINDS, STICKER_LABELS, kind_label


def _who(names: tuple[str, ...], seat: Any) -> T:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return T(f"{seat + 1}번 {names[seat]}", f"{seat + 1} {names[seat]}")
    return T(f"{seat + 1}번 자리", f"seat {seat + 1}") if isinstance(seat, int) else T("자리", "a seat")


def _kind(kind: Any) -> T:
    return kind_label(kind) if kind in KINDS else T(str(kind), str(kind))


def _seats(names: tuple[str, ...], seats: list[int]) -> T:
    return T(", ".join(_who(names, s).ko for s in seats), ", ".join(_who(names, s).en for s in seats))


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    def who(seat: Any) -> T:
        return _who(names, seat)

    r = event.get("round")
    match event.get("type"):
        case "HandDealt":
            w = who(event.get("seat"))
            if "hand" in event:
                hand = [_kind(k) for k in event["hand"]]
                extra = _kind(event.get("extra"))
                return T(f"{w.ko}: 작품 {len(hand)}점 받음 ({', '.join(k.ko for k in hand)}; 무작위 추가 {extra.ko})",
                         f"{w.en}: dealt {len(hand)} works ({', '.join(k.en for k in hand)}; random extra {extra.en})")
            return T(f"{w.ko}: 작품을 받음", f"{w.en}: dealt the works")
        case "RoundBegan":
            order = _seats(names, event.get("order", []))
            return T(f"{r}라운드 시작. 입장 순서: {order.ko}", f"Round {r} begins. Entering order: {order.en}")
        case "WorkSubmitted":
            w = who(event.get("seat"))
            if "kind" in event and "sticker" in event:
                kind, sticker = _kind(event["kind"]), STICKER_LABELS.get(event["sticker"], T("스티커", "sticker"))
                return T(f"{w.ko}: {kind.ko} 제출 ({sticker.ko})", f"{w.en}: submits {kind.en} ({sticker.en})")
            return T(f"{w.ko}: 작품 제출", f"{w.en}: submits a work")
        case "WorksRevealed":
            works = event.get("works", [])
            ko = ", ".join(f"{who(x['seat']).ko} {_kind(x['kind']).ko}" for x in works)
            en = ", ".join(f"{who(x['seat']).en} {_kind(x['kind']).en}" for x in works)
            siren = (T("사이렌이 울림 (가품 2점 이상)", "The siren sounds (two or more fakes)") if event.get("siren")
                     else T("사이렌 없음", "No siren"))
            return T(f"{r}라운드 작품 공개: {ko}. {siren.ko}", f"Round {r} works revealed: {en}. {siren.en}")
        case "AuctionTied":
            return T(f"{r}라운드 경매 동점: 다시 입찰", f"Round {r} auction tied: bid again")
        case "AuctionWon":
            w = who(event.get("seat"))
            if event.get("no_bid"):
                return T(f"{r}라운드 경매: 입찰 없음, {w.ko} 서열 1위 (지불 없음)",
                         f"Round {r} auction: no bid, {w.en} is rank 1 (pays nothing)")
            return T(f"{r}라운드 경매: {w.ko} {event['bid']}칩에 낙찰, 서열 1위",
                     f"Round {r} auction: {w.en} wins with {event['bid']} chips, rank 1")
        case "WorkTaken":
            w, owner, kind = who(event.get("seat")), who(event.get("work")), _kind(event.get("kind"))
            return T(f"서열 {event['rank']}위 {w.ko}: {owner.ko}의 {kind.ko} 가져감",
                     f"Rank {event['rank']}, {w.en}: takes the {kind.en} of {owner.en}")
        case "SecretRecorded":
            # Wholly secret (Gallery rules 7 and 9): only the dealer and the seats concerned see it.
            match event.get("what"):
                case "appraisal":
                    w, owner, kind = who(event.get("seat")), who(event.get("work")), _kind(event.get("kind"))
                    if "genuine" in event:
                        answer = T("진품", "genuine") if event["genuine"] else T("가품", "fake")
                    else:
                        answer = T("결과 비공개", "answer hidden")
                    cost = event.get("cost", APPRAISAL_COST)
                    return T(f"{w.ko}: {owner.ko}의 {kind.ko} 감정 (칩 {cost}개) → {answer.ko}",
                             f"{w.en}: appraises the {kind.en} of {owner.en} ({cost} chips) → {answer.en}")
                case "transfer":
                    giver, taker = who(event.get("from")), who(event.get("to"))
                    return T(f"칩 양도: {giver.ko} → {taker.ko}, {event.get('amount')}칩",
                             f"Chip transfer: {giver.en} → {taker.en}, {event.get('amount')} chips")
            return T("비공개 기록", "A secret record")
        case "RoundEnded":
            pairs = list(zip(event.get("chain", []), event.get("taken", []), strict=False))
            ko = ", ".join(f"{who(p).ko} ← {who(o).ko}의 작품" for p, o in pairs)
            en = ", ".join(f"{who(p).en} ← work of {who(o).en}" for p, o in pairs)
            return T(f"{r}라운드 종료, 가져간 작품이 갤러리로: {ko}", f"Round {r} over, works into the galleries: {en}")
        case "SeatEliminated":
            w = who(event.get("seat"))
            return T(f"{w.ko} 탈락: 갤러리에 가품 2점 ({r}라운드, 서열 {event.get('rank')}위)",
                     f"{w.en} is out: two fakes in the gallery (round {r}, rank {event.get('rank')})")
        case "GallerySold":
            revenues = event.get("revenues", [])
            ko = ", ".join(f"{who(s).ko} {'탈락' if v is None else f'{v}억'}" for s, v in enumerate(revenues))
            en = ", ".join(f"{who(s).en} {'out' if v is None else f'{v}억'}" for s, v in enumerate(revenues))
            return T(f"5라운드 후 판매 수익: {ko}", f"Sale after round 5: {en}")
    return None
