"""Clumsy Cats: the pending decisions of a state (turn) with their legal options.

Legality lives in the options wherever it can: the declaration offers 1-4 (X forces a bluff,
Cats rule 1) or X/none in the toilet (rule 7); the call window offers the call only to the seats
that may call (rules 2 and 7); an effect offers only the cats it may be used on (rule 4).
"""

from __future__ import annotations

from functools import lru_cache

from referee.kernel import Decision, Field, Option, T, Turn, josa

from .state import (
    BOON,
    BOONS,
    CAT_LABELS,
    DECLARE,
    DIE_REFEREE,
    FACE_VALUES,
    HARM,
    HARMS,
    NEXT,
    NONE,
    NUMBERS,
    OVER,
    WINDOW,
    CatsState,
    X,
    boon_targets,
    cat_of,
    effect_label,
    eligible_callers,
    owed_effect,
    plan,
    seat_label_of,
    truthful,
)

SWAP, KEEP = "swap", "keep"


def turn(state: CatsState) -> Turn:
    # A state never changes, and the runtime, the bots and decide all ask for its turn: keep it
    # on the state (outside the dataclass fields, so equality and the fields are untouched).
    cached = state.__dict__.get("_turn")
    if cached is None:
        cached = state.__dict__["_turn"] = _turn(state)
    return cached


def _turn(state: CatsState) -> Turn:
    if state.step == OVER:
        return Turn(T("경기 종료", "Match over"))
    if state.step == NEXT:
        nxt = plan(state)
        who = seat_label_of(state.names[nxt.seat], nxt.seat)
        if state.die == DIE_REFEREE:
            decision = Decision("roll", T("주사위 굴리기 (자동)", "Roll the die (automatic)"), auto=True)
        else:
            decision = _enter_roll(state.names[nxt.seat], nxt.seat)
        return Turn(T(f"{state.turn_no + 1}턴 {who.ko}: 주사위", f"Turn {state.turn_no + 1}: {who.en}: the roll"), (decision,))
    who = seat_label_of(state.names[state.seat], state.seat)
    extra = T(" (추가 굴림)", " (extra roll)") if state.extra else T("", "")
    where = T(" · 화장실", " · toilet") if state.toilet_turn else T("", "")
    head = T(f"{state.turn_no}턴 {who.ko}{extra.ko}{where.ko}", f"Turn {state.turn_no}: {who.en}{extra.en}{where.en}")
    if state.step == DECLARE:
        decisions = (_declare(state.seat, state.toilet_turn),)
        true = truthful(state)
        if true is not None:
            decisions += (_declare_roll(state.seat, true),)
        return Turn(T(f"{head.ko}: 선언", f"{head.en}: the declaration"), decisions)
    if state.step == WINDOW:
        callers = eligible_callers(state)
        decisions = tuple(_call(s) for s in callers) + (_CLOSE,)
        return Turn(T(f"{head.ko}: 거짓말 지적 시간", f"{head.en}: call window"), decisions)
    effect = owed_effect(state)
    if effect is not None:
        label = T(f"{head.ko}: 효과", f"{head.en}: effect")
        if effect.face is None:
            if state.die == DIE_REFEREE:
                decision = Decision("roll_effect", T("효과 주사위 굴리기 (자동)", "Roll the effect die (automatic)"), auto=True)
            else:
                decision = _enter_effect(effect.kind, state.names[effect.seat], effect.seat)
            return Turn(label, (decision,))
        if effect.kind == HARM and effect.name == "rearmost_swap":
            if effect.chooser is None:
                return Turn(label, (_pick_rearmost(state.names, effect.rearmost),))
            return Turn(label, (_rearmost_swap(state.names, effect.chooser, effect.seat),))
        if effect.kind == BOON and effect.name in ("swap", "to_start", "to_toilet", "extra_roll"):
            targets = boon_targets(state, effect.seat, effect.name)
            return Turn(label, (_use_effect(state.names, effect.seat, effect.name, targets), _decline(effect.seat)))
        return Turn(label)
    return Turn(head)


@lru_cache(maxsize=64)
def _enter_roll(name: str, seat: int) -> Decision:
    options = tuple(Option(v, T(str(v), str(v))) for v in FACE_VALUES)
    return Decision(
        "enter_roll",
        T(f"{seat + 1}번 {name}의 주사위 눈 (다른 사람에게 보이지 않게 확인)",
          f"The die of {seat + 1} {name} (read it hidden from the others)"),
        (Field("roll", "one", T("주사위 눈", "Face"), options),),
    )


@lru_cache(maxsize=64)
def _enter_effect(kind: str, name: str, seat: int) -> Decision:
    options = tuple(Option(v, T(str(v), str(v)), effect_label(kind, _name(kind, v))) for v in FACE_VALUES)
    what = T("이로운", "beneficial") if kind == BOON else T("해로운", "harmful")
    return Decision(
        "enter_effect",
        T(f"{seat + 1}번 {name}의 {what.ko} 효과 주사위 눈", f"The {what.en} effect die of {seat + 1} {name}"),
        (Field("face", "one", T("주사위 눈", "Face"), options),),
    )


def _name(kind: str, face: int | str) -> str:
    return (BOONS if kind == BOON else HARMS)[face]


@lru_cache(maxsize=8)
def _declare(seat: int, toilet: bool) -> Decision:
    if toilet:
        # Cats rule 7: a trapped turn's declaration is "X" or "none".
        options = (Option(X, T("X (탈출!)", "X (escape!)")), Option(NONE, T("X 아님", "No X")))
        prompt = T("화장실: X가 나왔다고 선언할까요? (블러핑 가능)", "Toilet: do you declare an X? (you may bluff)")
    else:
        # Cats rule 1: the declaration is always 1-4; on an X the roller must bluff.
        options = tuple(Option(n, T(f"{n}", f"{n}")) for n in NUMBERS)
        prompt = T("선언할 숫자 (X가 나왔으면 반드시 블러핑)", "Declare a number (on an X you must bluff)")
    return Decision("declare", prompt, (Field("number", "one", T("선언", "Declaration"), options),), seat=seat)


@lru_cache(maxsize=64)
def _declare_roll(seat: int, true: int | str) -> Decision:
    # A one-tap shortcut for the common case: declare exactly what was rolled (never an X
    # outside the toilet). Only the roller (and the dealer) see this decision.
    if true == X:
        prompt = T("굴린 그대로 선언: X (탈출!)", "Declare what you rolled: X (escape!)")
    elif true == NONE:
        prompt = T("굴린 그대로 선언: X 아님", "Declare what you rolled: no X")
    else:
        prompt = T(f"굴린 그대로 선언: {true}", f"Declare what you rolled: {true}")
    return Decision("declare_roll", prompt, (), seat=seat)


@lru_cache(maxsize=8)
def _call(seat: int) -> Decision:
    return Decision("call_lie", T("거짓말!", "Liar!"), (), seat=seat)




_CLOSE = Decision("close_window", T("지적 시간 닫기 (아무도 지적하지 않음)", "Close the call window (nobody called)"))


@lru_cache(maxsize=64)
def _pick_rearmost(names: tuple[str, ...], tied: tuple[int, ...]) -> Decision:
    options = tuple(Option(s, _cat_label(names, s)) for s in tied)
    return Decision(
        "pick_rearmost",
        T("가장 뒤처진 고양이가 여럿입니다: 누구로 할지 정하세요", "Several cats are rearmost: choose one"),
        (Field("seat", "one", T("가장 뒤처진 고양이", "Rearmost cat"), options, kind="seat"),),
    )


@lru_cache(maxsize=64)
def _rearmost_swap(names: tuple[str, ...], chooser: int, harmed: int) -> Decision:
    other = seat_label_of(names[harmed], harmed)
    options = (Option(SWAP, T(f"{josa(other.ko, '과/와')} 자리 바꾸기", f"Swap places with {other.en}")),
               Option(KEEP, T("그대로 두기", "Keep your place")))
    return Decision(
        "rearmost_swap",
        T(f"가장 뒤처진 고양이: {other.ko}의 고양이와 위치를 바꿀까요?",
          f"Rearmost cat: swap places with the cat of {other.en}?"),
        (Field("choice", "one", T("선택", "Choice"), options),),
        seat=chooser,
    )


@lru_cache(maxsize=256)
def _use_effect(names: tuple[str, ...], seat: int, name: str, targets: tuple[int, ...]) -> Decision:
    label = effect_label(BOON, name)
    return Decision(
        "use_effect",
        T(f"이로운 효과: {label.ko}", f"Beneficial effect: {label.en}"),
        (Field("target", "one", T("누구에게", "On whom"), tuple(Option(s, _cat_label(names, s)) for s in targets),
               kind="seat"),),
        seat=seat,
    )


@lru_cache(maxsize=8)
def _decline(seat: int) -> Decision:
    return Decision("decline_effect", T("효과 쓰지 않기 (보관 불가, 사라짐)", "Do not use the effect (it cannot be kept)"),
                    (), seat=seat)


def _cat_label(names: tuple[str, ...], seat: int) -> T:
    who = seat_label_of(names[seat], seat)
    cat = CAT_LABELS[cat_of(seat)]
    return T(f"{who.ko} ({cat.ko})", f"{who.en} ({cat.en})")
