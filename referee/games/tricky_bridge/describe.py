"""Tricky Bridge: the log in words, for an event as one audience sees it.

`describe(event, names)` gets ``{"type": ..., **public data, **secret data if visible}``; the
secret fields (a contract's slots, a distribution) are absent for audiences that may not see
them, and the words then say only what is public. Seats are named as everyone numbers them:
"1번 김민준(A)" / "1 Kim Minjun (A)".
"""

from __future__ import annotations

from typing import Any

from referee.kernel import T

from .state import BRIDGES, KINDS, kind_label, room_label, seat_label_of


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    def who(seat: int) -> T:
        return seat_label_of(names[seat] if 0 <= seat < len(names) else None, seat)

    r = event.get("round")
    match event.get("type"):
        case "RoomsConfirmed":
            big = _pair(who, event["big"])
            small = _pair(who, event["small"])
            items = _counts(event["supply"])
            return T(f"{r}라운드 회의실: 대회의실 {big.ko}, 소회의실 {small.ko} / 자원 {items.ko}",
                     f"Round {r} rooms: big room {big.en}, small room {small.en} / items {items.en}")
        case "SlotsLaid":
            room = room_label(event["room"])
            slots = event["slots"]
            ko = ", ".join(f"{i}번 {kind_label(k).ko}" for i, k in enumerate(slots, 1))
            en = ", ".join(f"{i} {kind_label(k).en}" for i, k in enumerate(slots, 1))
            return T(f"{r}라운드 {room.ko} 칸: {ko}", f"Round {r} {room.en} slots: {en}")
        case "ContractMarked":
            seat = who(event["seat"])
            if "slots" in event:
                slots = ", ".join(str(s) for s in event["slots"])
                return T(f"{seat.ko}: 계약서 {slots}번 칸에 도장", f"{seat.en}: contract stamped on slots {slots}")
            return T(f"{seat.ko}: 계약서 제출", f"{seat.en}: contract handed in")
        case "ContractsRevealed":
            room = room_label(event["room"])
            ko, en = [], []
            rows = zip(event["seats"], event["marks"], event["won"], event["gains"], strict=True)
            for seat, marks, won, gains in rows:
                name = who(seat)
                got = _counts(gains)
                ko.append(f"{name.ko} 도장 {_list(marks)} → {_list(won)}번 칸 획득 ({got.ko})")
                en.append(f"{name.en} stamped {_list(marks)} → wins slots {_list(won)} ({got.en})")
            lost = _list(event["lost"])
            return T(f"{r}라운드 {room.ko} 계약 공개: " + "; ".join(ko) + f"; 소멸 {lost}",
                     f"Round {r} {room.en} contracts revealed: " + "; ".join(en) + f"; lost {lost}")
        case "ItemsPlaced":
            seat = who(event["seat"])
            if "added" in event:
                parts = [(b, _counts(c)) for b, c in event["added"].items() if any(c.values())]
                return T(f"{seat.ko}: " + ", ".join(f"{b} 다리 {c.ko}" for b, c in parts),
                         f"{seat.en}: " + ", ".join(f"bridge {b} {c.en}" for b, c in parts))
            return T(f"{seat.ko}: 분배 완료", f"{seat.en}: distribution done")
        case "RoundEnded":
            return T(f"{r}라운드 종료", f"Round {r} over")
        case "RoundBegan":
            scheduled = event.get("scheduled")
            return T(f"{r}라운드 시작 (예정 배정 {scheduled})", f"Round {r} begins (scheduled {scheduled})")
        case "BridgesRevealed":
            bridges = event["bridges"]
            parts_ko = [f"{b} {_counts(bridges[b]).ko}" for b in BRIDGES]
            parts_en = [f"{b} {_counts(bridges[b]).en}" for b in BRIDGES]
            head = (T("경기 종료, 모든 다리 공개", "Match over, every bridge revealed") if event.get("final")
                    else T(f"{r}라운드 후 다리 공개", f"Bridges revealed after round {r}"))
            return T(f"{head.ko}: " + "; ".join(parts_ko), f"{head.en}: " + "; ".join(parts_en))
        case "BridgesScored":
            scores = event["scores"]
            points_ko = ", ".join(f"{b} {scores[b]['score']}점" for b in BRIDGES)
            points_en = ", ".join(f"{b} {scores[b]['score']}" for b in BRIDGES)
            low = ", ".join(event["lowest"])
            out = [who(s) for s in event["out"]]
            return T(f"점수: {points_ko}. 최저 {low}: " + ", ".join(o.ko for o in out) + " 탈락",
                     f"Scores: {points_en}. Lowest {low}: " + ", ".join(o.en for o in out) + " out")
    return None


def _pair(who: Any, seats: list[int]) -> T:
    return T(" · ".join(who(s).ko for s in seats), " · ".join(who(s).en for s in seats))


def _list(slots: list[int]) -> str:
    return ", ".join(str(s) for s in slots) if slots else "—"


def _counts(counts: dict[str, int]) -> T:
    parts = [(kind_label(k), counts.get(k, 0)) for k in KINDS if counts.get(k, 0)]
    if not parts:
        return T("없음", "nothing")
    return T(", ".join(f"{label.ko} {n}" for label, n in parts), ", ".join(f"{label.en} {n}" for label, n in parts))
