"""Horror Race 2: the log in words, for an event as one audience sees it.

`describe(event, names)` gets ``{"type": ..., **public data, **secret data if visible}``. A
seat's backing is secret until the final scoring (Horror rule 1): for an audience that may not
see it the characters are absent and the words say only that a backing was handed in. Seats
are named as everyone numbers them (the lottery order): "5번 김민준" / "5 Kim Minjun".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.kernel import T

from .state import CHARACTERS, NAMES, START, ZONES


def _who(names: tuple[str, ...], seat: Any) -> T:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return T(f"{seat + 1}번 {names[seat]}", f"{seat + 1} {names[seat]}")
    return T(f"{seat + 1}번 자리", f"seat {seat + 1}") if isinstance(seat, int) else T("자리", "a seat")


def _name(character: Any) -> T:
    return NAMES.get(character, T(str(character), str(character)))


def _names(characters: list[Any], sep_ko: str = ", ", sep_en: str = ", ") -> T:
    return T(sep_ko.join(_name(c).ko for c in characters), sep_en.join(_name(c).en for c in characters))


def _order(names: tuple[str, ...], seats: list[int]) -> T:
    return T(", ".join(_who(names, s).ko for s in seats), ", ".join(_who(names, s).en for s in seats))


def _cell(cell: Any) -> T:
    return T("출발점", "start") if cell == START else T(f"{cell}칸", f"cell {cell}")


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _counts(counts: dict[str, int]) -> T:
    shown = [(c, counts[c]) for c in CHARACTERS if counts.get(c)]
    return T(", ".join(f"{NAMES[c].ko} {n}" for c, n in shown), ", ".join(f"{NAMES[c].en} {n}" for c, n in shown))


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    def who(seat: Any) -> T:
        return _who(names, seat)

    r = event.get("round")
    match event.get("type"):
        case "CharactersBacked":
            w = who(event.get("seat"))
            if "characters" in event:
                backed = _names(event["characters"], "·", " and ")
                return T(f"{w.ko}: {backed.ko} 응원 (비공개)", f"{w.en}: backs {backed.en} (secret)")
            return T(f"{w.ko}: 응원 캐릭터 제출", f"{w.en}: hands in a sealed backing")
        case "RaceStarted":
            order = _order(names, event.get("order", []))
            return T(f"레이스 시작: 상자에 코인 {event.get('box_size')}개. {r}라운드 순서: {order.ko}",
                     f"The race starts: {event.get('box_size')} coins in the box. Round {r} order: {order.en}")
        case "DrawChosen":
            w = who(event.get("seat"))
            return T(f"{r}라운드 {w.ko}: 코인 뽑기", f"Round {r}, {w.en}: draws coins")
        case "CoinForfeited":
            w = who(event.get("seat"))
            return T(f"{r}라운드 {w.ko}: 코인포기", f"Round {r}, {w.en}: forfeits the coins (코인포기)")
        case "CoinsDrawn":
            w = who(event.get("seat"))
            drawn = _names(event.get("coins", []))
            return T(f"{w.ko}: 코인 3개 뽑음 ({drawn.ko})", f"{w.en}: draws 3 coins ({drawn.en})")
        case "CoinsPlaced":
            w = who(event.get("seat"))
            ko, en = [], []
            for zone in ZONES:
                here = Counter(c["character"] for c in event.get("coins", []) if c["zone"] == zone)
                if not here:
                    continue
                n = sum(here.values())
                listed = _counts(dict(here))
                unit_ko = "코인 " if not ko else ""
                unit_en = f"coin{'s' if n > 1 else ''} " if not en else ""
                ko.append(f"{zone}구역 {unit_ko}{n}개 ({listed.ko})")
                en.append(f"{n} {unit_en}on zone {zone} ({listed.en})")
            return T(f"{w.ko}: " + ", ".join(ko), f"{w.en}: " + ", ".join(en))
        case "ZoneResolved":
            return _zone(event)
        case "RoundEnded":
            order = _order(names, event.get("next_order", []))
            forfeit = event.get("forfeit")
            if forfeit is None:
                why = T("코인포기 없음, 순서 유지", "no forfeit, same order")
            else:
                f = who(forfeit)
                why = T(f"{f.ko} 코인포기", f"{f.en} forfeited")
            return T(f"{r}라운드 종료, 코인은 상자로 ({why.ko}). 다음 순서: {order.ko}",
                     f"Round {r} over, the coins go back to the box ({why.en}). Next order: {order.en}")
        case "RaceFinished":
            places = event.get("places", [])
            ko = ", ".join(f"{p['place']}위 {_name(p['character']).ko}" for p in places)
            en = ", ".join(f"{p['place']}. {_name(p['character']).en}" for p in places)
            return T(f"레이스 종료 ({r}라운드): {ko}", f"The race is over (round {r}): {en}")
        case "BackingsRevealed":
            ko, en = [], []
            for seat, (backed, points, rank) in enumerate(zip(event.get("backings", []), event.get("points", []),
                                                               event.get("ranks", []), strict=False)):
                w, b = who(seat), _names(backed, "·", " and ")
                ko.append(f"{w.ko} {b.ko} {points}점 ({rank}위)")
                en.append(f"{w.en} {b.en} {_plural(points, 'point')} (#{rank})")
            return T("응원 공개와 승점: " + "; ".join(ko), "Backings revealed, points: " + "; ".join(en))
    return None


def _zone(event: dict[str, Any]) -> T:
    """One zone's move at round end (Horror rules 3-5)."""
    zone, steps, r = event.get("zone"), event.get("steps"), event.get("round")
    head = T(f"{r}라운드 {zone}구역({steps}칸)", f"Round {r}, zone {zone} ({_plural(steps, 'cell')})")
    counts = _counts(event.get("counts") or {})
    mover = event.get("mover")
    if mover is None:
        if not counts.ko:
            return T(f"{head.ko}: 코인 없음, 이동 없음", f"{head.en}: no coins, nobody moves")
        return T(f"{head.ko}: {counts.ko} → 단독 최다가 없어 이동 없음",
                 f"{head.en}: {counts.en} → no count held alone, nobody moves")
    riders = [c for c in event.get("carried", []) if c != mover]
    with_ko = f" (위에 {_names(riders).ko} 함께)" if riders else ""
    with_en = f" (carrying {_names(riders).en})" if riders else ""
    if event.get("finished"):
        end = T("결승선 통과! 레이스 종료", "past the goal! The race ends")
    else:
        to = _cell(event.get("to"))
        stop = T(" (웅덩이에서 멈춤)", " (stops in the puddle)") if event.get("puddle") else T("", "")
        end = T(f"{to.ko}{stop.ko}", f"{to.en}{stop.en}")
    m, origin = _name(mover), _cell(event.get("from"))
    return T(f"{head.ko}: {counts.ko} → {m.ko}{with_ko} 이동, {origin.ko} → {end.ko}",
             f"{head.en}: {counts.en} → {m.en}{with_en} moves, {origin.en} → {end.en}")
