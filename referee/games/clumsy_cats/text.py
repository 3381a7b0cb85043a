"""Clumsy Cats: the log in words (``describe``), for an event as one audience sees it.

Secret fields (the roll of an uncalled turn) are present only for the roller and the dealer;
describe says only what is there. Seats are named "3번 김민준" / "3 Kim Minjun".
"""

from __future__ import annotations

from typing import Any

from referee.kernel import T, josa

from .state import BOON, CAUSE_LABELS, EFFECT_LABELS, KIND_LABELS, NONE, X

SKIP_REASONS = {
    "no_action": T("행동 불가", "no action"),
    "island": T("무인도", "desert island"),
    "lost": T("지적 실패 벌칙", "failed-call penalty"),
}


def _who(names: tuple[str, ...], seat: Any) -> T:
    if not isinstance(seat, int) or not 0 <= seat < len(names):
        return T(f"{seat}번", f"seat {seat}")
    return T(f"{seat + 1}번 {names[seat]}", f"{seat + 1} {names[seat]}")


def _face(face: Any) -> str:
    return "X" if face == X else str(face)


def _join(parts: list[T], sep: str = ", ") -> T:
    return T(sep.join(p.ko for p in parts if p.ko), sep.join(p.en for p in parts if p.en))


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    kind = event.get("type")
    who = _who(names, event.get("seat"))
    match kind:
        case "DieRolled":
            parts = []
            for seat, extra, reasons in event.get("skipped", []):
                why = _join([SKIP_REASONS.get(r, T(str(r), str(r))) for r in reasons])
                more = T("추가 굴림 ", "extra roll ") if extra else T("", "")
                skipped = _who(names, seat)
                parts.append(T(f"{skipped.ko}: {more.ko}차례 건너뜀 ({why.ko})", f"{skipped.en}: {more.en}turn skipped ({why.en})"))
            extra = T(" (추가 굴림)", " (extra roll)") if event.get("extra") else T("", "")
            toilet = T(", 화장실에 갇혀 있음", ", trapped in the toilet") if event.get("toilet") else T("", "")
            roll = T(f": {_face(event['roll'])} (비밀)", f": {_face(event['roll'])} (secret)") if "roll" in event else T("", "")
            parts.append(T(f"{event.get('turn')}턴 {who.ko}{extra.ko}{toilet.ko}: 주사위를 굴렸습니다{roll.ko}",
                           f"Turn {event.get('turn')}, {who.en}{extra.en}{toilet.en}: rolled the die{roll.en}"))
            return _join(parts, ". ")
        case "Declared":
            number = event.get("number")
            if number == X:
                return T(f"{who.ko}의 선언: X (탈출!)", f"{who.en} declares: X (escape!)")
            if number == NONE:
                return T(f"{who.ko}의 선언: X 아님", f"{who.en} declares: no X")
            return T(f"{who.ko}의 선언: {number}", f"{who.en} declares {number}")
        case "WindowClosed":
            if event.get("auto"):
                head = T(f"{who.ko}의 선언: 지적할 수 있는 사람이 없습니다", f"{who.en}'s declaration: nobody may call")
            else:
                head = T(f"{who.ko}의 선언: 지적 없음", f"{who.en}'s declaration: nobody called")
            return _join([head, _carried(event, who)], ". ")
        case "Called":
            roll = _face(event.get("roll"))
            roller = _who(names, event.get("roller"))
            if event.get("bluff"):
                head = T(f"{who.ko}: 거짓말! 주사위 공개: {roll} — {roller.ko} 블러핑 적발!",
                         f"{who.en}: liar! The die shows {roll}: {roller.en} was bluffing!")
            else:
                penalty = {"harmful": T(" (벌칙: 해로운 효과)", " (penalty: a harmful effect)"),
                           "lose_turn": T(" (벌칙: 다음 턴 쉼)", " (penalty: loses the next turn)")
                           }.get(event.get("penalty") or "", T("", ""))
                head = T(f"{who.ko}: 거짓말! 주사위 공개: {roll} — 진실! 지적 실패{penalty.ko}",
                         f"{who.en}: liar! The die shows {roll}: the truth! The call fails{penalty.en}")
            return _join([head, _carried(event, roller)], ". ")
        case "EffectRolled":
            label = EFFECT_LABELS.get((event.get("kind"), event.get("effect")), T("?", "?"))
            what = KIND_LABELS.get(event.get("kind", ""), T("효과", "effect"))
            cause = CAUSE_LABELS.get(event.get("cause", ""), T("", ""))
            text = T(f"{who.ko}의 {what.ko} 주사위 ({cause.ko}): {_face(event.get('face'))} — {label.ko}",
                     f"{who.en}'s {what.en} die ({cause.en}): {_face(event.get('face'))}: {label.en}")
            if event.get("rearmost"):
                last = _join([_who(names, s) for s in event["rearmost"]])
                tie = len(event["rearmost"]) > 1
                text = T(f"{text.ko} (가장 뒤처진 고양이: {last.ko}{' — 딜러가 정합니다' if tie else ''})",
                         f"{text.en} (rearmost: {last.en}{'; the dealer picks' if tie else ''})")
            if event.get("resolved") and event.get("effect") != "nothing":
                outcome = _applied(event, who, names)
                text = T(f"{text.ko}. {outcome.ko}", f"{text.en}. {outcome.en}")
            return text
        case "RearmostPicked":
            chosen = _who(names, event.get("rearmost"))
            return T(f"딜러 결정: 가장 뒤처진 고양이는 {chosen.ko}", f"The dealer rules: the rearmost cat is {chosen.en}'s")
        case "EffectApplied":
            return _applied(event, who, names)
        case "GameEnded":
            pts = event.get("points", [])
            top = [s for s, rank in event.get("ranking", []) if rank == 1]
            best = _join([_who(names, s) for s in top])
            score = pts[top[0]] if top and top[0] < len(pts) else 0
            return T(f"게임 종료! 1위 {best.ko} ({score}점)", f"Game over! First: {best.en} ({score} points)")
    return None


def _carried(event: dict[str, Any], who: T) -> T:
    """What the declaration did for the roller: the walk, or the trapped turn counted."""
    if "to" in event:
        return _moved(event, who)
    if "toilet_used" in event:
        if event.get("freed"):
            return T(f"{who.ko}: X로 화장실 탈출 (다음 턴부터 자유)", f"{who.en}: an X, free to leave the toilet next turn")
        if event.get("free"):
            return T(f"{who.ko}: 화장실 세 턴이 지나 풀려남", f"{who.en}: three turns in the toilet are over, free")
        return T(f"{who.ko}: 화장실 {event.get('toilet_used')}/3턴째", f"{who.en}: toilet turn {event.get('toilet_used')} of 3")
    return T("", "")


def _moved(event: dict[str, Any], who: T) -> T:
    end = T(str(event.get("to_ko", event.get("to"))), str(event.get("to_en", event.get("to"))))
    parts_ko = [f"{who.ko}: {event.get('steps')}칸 이동 → {end.ko}"]
    parts_en = [f"{who.en} moves {event.get('steps')} to {end.en}"]
    for token in event.get("laps", []):
        parts_ko.append(f"한 바퀴 완주, 점수 토큰 {token}")
        parts_en.append(f"lap completed, score token {token}")
    if event.get("ended"):
        parts_ko.append("마지막 토큰: 게임 종료!")
        parts_en.append("the last token: game over!")
    if event.get("trapped"):
        parts_ko.append("화장실에 갇힘!")
        parts_en.append("trapped in the toilet!")
    if event.get("island"):
        parts_ko.append("무인도에 도착!")
        parts_en.append("stranded on the desert island!")
    if event.get("footprint") == "blue":
        parts_ko.append("파란 발자국: 이로운 효과")
        parts_en.append("blue footprint: a beneficial effect")
    if event.get("footprint") == "red":
        parts_ko.append("붉은 발자국: 해로운 효과")
        parts_en.append("red footprint: a harmful effect")
    return T(", ".join(parts_ko), ", ".join(parts_en))


def _applied(event: dict[str, Any], who: T, names: tuple[str, ...]) -> T:
    name = event.get("effect")
    target = _who(names, event.get("target"))
    boon = event.get("kind") == BOON
    if event.get("declined"):
        if boon:
            return T(f"{who.ko}: 효과를 쓰지 않았습니다 (사라짐)", f"{who.en} does not use the effect (it is gone)")
        return T(f"{target.ko}: 자리를 바꾸지 않았습니다", f"{target.en} keeps their place")
    if event.get("void"):
        if name == "rearmost_swap":
            return T(f"{target.ko}의 고양이가 같은 칸에 있어 바뀌는 것이 없습니다",
                     f"The cat of {target.en} is on the same cell: nothing changes")
        return T(f"{who.ko}: 효과를 쓸 대상이 없습니다", f"{who.en}: the effect has no possible target")
    match name:
        case "swap" | "rearmost_swap":
            return T(f"{who.ko} ↔ {target.ko}: 위치를 바꿨습니다", f"{who.en} and {target.en} swap places")
        case "to_start":
            moved = target if boon else who
            return T(f"{moved.ko}의 고양이가 시작 지점으로", f"The cat of {moved.en} goes back to the start")
        case "to_toilet":
            return T(f"{target.ko}의 고양이가 화장실로 (새로 갇힘)", f"The cat of {target.en} goes to the toilet (trapped afresh)")
        case "extra_roll":
            return T(f"{josa(target.ko, '이/가')} 바로 한 번 더 굴립니다", f"{target.en} rolls once more, right away")
        case "no_action":
            return T(f"{who.ko}: 2턴 동안 행동 불가", f"{who.en}: no action for 2 turns")
        case "to_island":
            return T(f"{who.ko}의 고양이가 무인도로", f"The cat of {who.en} goes to the desert island")
    return T(f"{who.ko}: 효과 없음", f"{who.en}: nothing happens")
