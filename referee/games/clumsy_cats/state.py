"""Clumsy Cats: the state of a match and the pure helpers the rules and views share.

Everything here is data or arithmetic over data: no decisions, no events.
Rule citations ("Cats rule N") use the numbering of RULINGS.md "Clumsy Cats".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.kernel import T

from .board import Board

# Cats rule 1: the die has 1-4 and two X (a d6 plays 5 and 6 as X).
X = "X"
FACES: tuple[int | str, ...] = (1, 2, 3, 4, X, X)
FACE_VALUES: tuple[int | str, ...] = (1, 2, 3, 4, X)
NUMBERS = (1, 2, 3, 4)
NONE = "none"
TOILET_DECLARATIONS = (X, NONE)  # Cats rule 7: in the toilet the declaration is "X" or "none"
TOKENS = 10  # Cats rule 6: score tokens 1..10
TOILET_TURNS = 3  # Cats rule 3
NO_ACTION_TURNS = 2  # Cats rule 5, harmful effect 2

BOON, HARM = "boon", "harm"
FOOTPRINT, BLUFF, FAILED_CALL = "footprint", "bluff", "failed_call"

# Effect dice (Cats rule 7): faces 1-4 are the listed effects in order, X the last entry.
BOONS = {1: "swap", 2: "to_start", 3: "to_toilet", 4: "extra_roll", X: "nothing"}
HARMS = {1: "rearmost_swap", 2: "no_action", 3: "to_start", 4: "to_island", X: "nothing"}
EFFECT_LABELS = {
    (BOON, "swap"): T("원하는 상대 고양이와 위치 바꾸기", "swap places with an opponent's cat"),
    (BOON, "to_start"): T("원하는 고양이를 시작 지점으로", "send any cat to the start"),
    (BOON, "to_toilet"): T("상대 고양이를 화장실로", "send an opponent's cat to the toilet"),
    (BOON, "extra_roll"): T("원하는 플레이어가 한 번 더 굴리기", "make any player roll once more"),
    (BOON, "nothing"): T("꽝: 아무 효과 없음", "a blank: nothing"),
    (HARM, "rearmost_swap"): T("가장 뒤처진 고양이의 주인이 위치를 바꿀 수 있음",
                               "the owner of the rearmost cat may swap places with this cat"),
    (HARM, "no_action"): T("2턴 동안 행동 불가", "no action for 2 turns"),
    (HARM, "to_start"): T("시작 지점으로", "back to the start"),
    (HARM, "to_island"): T("무인도로", "to the desert island"),
    (HARM, "nothing"): T("불행 중 다행: 효과 없음", "a lucky escape: nothing"),
}
# Short forms for the projector's effect box.
EFFECT_SHORT = {
    (BOON, "swap"): T("상대와 자리 바꾸기", "swap with an opponent"),
    (BOON, "to_start"): T("고양이 하나를 출발로", "send a cat to the start"),
    (BOON, "to_toilet"): T("상대를 화장실로", "an opponent to the toilet"),
    (BOON, "extra_roll"): T("한 번 더 굴리기", "someone rolls again"),
    (BOON, "nothing"): T("꽝", "blank"),
    (HARM, "rearmost_swap"): T("꼴찌가 자리 바꾸기 선택", "the last cat may swap"),
    (HARM, "no_action"): T("2턴 행동 불가", "no action, 2 turns"),
    (HARM, "to_start"): T("출발로 돌아가기", "back to the start"),
    (HARM, "to_island"): T("무인도로", "to the island"),
    (HARM, "nothing"): T("불행 중 다행", "a lucky escape"),
}
KIND_LABELS = {BOON: T("이로운 효과", "beneficial effect"), HARM: T("해로운 효과", "harmful effect")}
CAUSE_LABELS = {
    FOOTPRINT: T("발자국", "footprint"),
    BLUFF: T("블러핑 적발", "bluff caught"),
    FAILED_CALL: T("지적 실패", "failed call"),
}

# The four cats of the seed (component 4), one per seat.
CATS = ("white", "sky", "yellow", "black")
CAT_LABELS = {
    "white": T("흰 고양이", "white cat"),
    "sky": T("하늘색 고양이", "sky-blue cat"),
    "yellow": T("노란 고양이", "yellow cat"),
    "black": T("검은 고양이", "black cat"),
}

# The table options (see the package docstring).
DIE_REFEREE, DIE_DEALER = "referee", "dealer"
PENALTY_NONE, PENALTY_HARMFUL, PENALTY_LOSE_TURN = "none", "harmful", "lose_turn"
ISLAND_CHOICES = (0, 1, 2, 3)


def island_allowed(value: Any, seats: int | None = None) -> bool:
    """Option island_turns: 0-3, as a number or its digit as text (the command line and typed
    fields give text)."""
    return not isinstance(value, bool) and (value in ISLAND_CHOICES or value in tuple(map(str, ISLAND_CHOICES)))

# Steps of a turn. NEXT: the next turn's roll is owed; ENDING is transient inside one decide;
# RESOLVE works through the agenda of effects after a declaration is resolved.
NEXT, DECLARE, WINDOW, RESOLVE, ENDING, OVER = ("next", "declare", "window", "resolve", "ending", "over")

RECENT = 6  # public happenings kept for the projector's feed


@dataclass(frozen=True)
class Effect:
    """An effect being resolved: rolled on the effect die, then applied or chosen."""

    kind: str  # BOON | HARM
    seat: int  # the seat whose cat it affects (the mover, the caught bluffer, the wrong caller)
    cause: str  # FOOTPRINT | BLUFF | FAILED_CALL
    face: int | str | None = None
    rearmost: tuple[int, ...] = ()  # harmful 1: the rearmost other cats (a tie: the dealer picks)
    chooser: int | None = None  # harmful 1: the owner of the rearmost cat, once known

    @property
    def name(self) -> str | None:
        if self.face is None:
            return None
        return (BOONS if self.kind == BOON else HARMS)[self.face]


@dataclass(frozen=True)
class Declaration:
    """One roll and its declaration. `roll` is secret (the roller and the dealer) unless a call
    revealed it (`caller` set)."""

    turn: int
    seat: int
    toilet: bool
    roll: int | str
    declared: int | str
    caller: int | None

    @property
    def bluff(self) -> bool:
        return is_bluff(self.roll, self.declared, self.toilet)


@dataclass(frozen=True)
class Taken:
    token: int
    seat: int
    turn: int


@dataclass(frozen=True)
class CatsState:
    names: tuple[str, ...]
    board: Board
    die: str = DIE_REFEREE
    failed_call: str = PENALTY_NONE
    island_turns: int = 1
    cells: tuple[str, ...] = ()
    laps: tuple[int, ...] = ()
    toilet: tuple[int | None, ...] = ()  # trapped: toilet turns used so far (None: not trapped)
    no_action: tuple[int, ...] = ()  # turns still skipped by the no-action penalty
    island: tuple[int, ...] = ()  # turns still lost on the island
    lost: tuple[int, ...] = ()  # turns still lost for a failed call (option lose_turn)
    step: str = NEXT
    turn_no: int = 0  # turns taken (skipped turns not counted)
    seat: int = 0  # whose turn it is (the last one, while the next roll is owed)
    regular: int = -1  # the seat of the current regular turn (an extra turn is taken inside it)
    extra: bool = False  # the current turn is an extra roll
    extra_next: int | None = None  # a seat owed an extra roll right after this turn
    toilet_turn: bool = False  # the current turn is a trapped turn in the toilet
    from_cell: str = ""  # the cat's cell before the roll
    roll: int | str | None = None  # secret: the roller and the dealer
    declared: int | str | None = None
    caller: int | None = None
    last_caller: int | None = None  # who called in the previous call window (Cats rule 7)
    agenda: tuple[tuple[Any, ...], ...] = ()
    effect: Effect | None = None
    declarations: tuple[Declaration, ...] = ()
    taken: tuple[Taken, ...] = ()
    last_move: tuple[int, str, int, bool] | None = None  # the last walk (seat, from, steps, ended), for the projector
    recent: tuple[tuple[str, dict[str, Any]], ...] = ()  # the last public events: (type, public data)

    @property
    def seats(self) -> int:
        return len(self.names)


# -- helpers -------------------------------------------------------------------------------------


def update(state: CatsState, **changes: Any) -> CatsState:
    """`dataclasses.replace` for the state, without re-running __init__ (the fold of a long match
    calls it for every event)."""
    new = object.__new__(CatsState)
    new.__dict__.update(state.__dict__)
    new.__dict__.pop("_turn", None)  # the cached turn of the old state (decisions.turn)
    new.__dict__.update(changes)
    return new


def owed_effect(state: CatsState) -> Effect | None:
    """The effect being resolved: one already rolled, or the next task of the agenda, whose
    effect die is owed (face None)."""
    if state.effect is not None:
        return state.effect
    if state.step == RESOLVE and state.agenda and state.agenda[0][0] in (BOON, HARM):
        kind, seat, cause = state.agenda[0]
        return Effect(kind, seat, cause)
    return None


def replace_at(values: tuple, index: int, value: Any) -> tuple:
    out = list(values)
    out[index] = value
    return tuple(out)


def is_bluff(roll: int | str | None, declared: int | str | None, toilet: bool) -> bool:
    """Cats rule 1 and 7: a declaration that is not the roll. Outside the toilet an X can never
    be declared, so an X is always a bluff; in the toilet "X" is true on an X, "none" otherwise."""
    if toilet:
        return (declared == X) != (roll == X)
    return declared != roll


def points(state: CatsState, seat: int) -> int:
    return sum(t.token for t in state.taken if t.seat == seat)


def tokens_of(state: CatsState, seat: int) -> tuple[int, ...]:
    return tuple(t.token for t in state.taken if t.seat == seat)


def next_token(state: CatsState) -> int | None:
    """Cats rule 6: the next score token (1 first, then 2, ... 10), None when all are taken."""
    n = len(state.taken) + 1
    return n if n <= TOKENS else None


def call_bar(state: CatsState, seat: int) -> str | None:
    """Why `seat` may not call "거짓말!" in this window, or None if it may (Cats rules 2 and 7)."""
    if seat == state.seat:
        return "roller"
    if state.toilet[seat] is not None:
        return "toilet"
    if state.no_action[seat] > 0:
        return "no_action"
    if seat == state.last_caller:
        return "called_last"
    return None


def truthful(state: CatsState) -> int | str | None:
    """The true declaration of the current roll, or None on an X outside the toilet (Cats rule 1:
    an X must be bluffed)."""
    if state.roll is None:
        return None
    if state.toilet_turn:
        return X if state.roll == X else NONE
    return None if state.roll == X else state.roll


def eligible_callers(state: CatsState) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if call_bar(state, s) is None)


@dataclass(frozen=True)
class Plan:
    """Who rolls next: the turns skipped on the way (seat, extra roll?, reasons) and the seat
    that takes the next turn."""

    skips: tuple[tuple[int, bool, tuple[str, ...]], ...]
    seat: int
    extra: bool


def plan(state: CatsState) -> Plan:
    """The next turn (Cats rule 7): an extra roll owed is taken at once; otherwise the seat after
    the current regular seat. A seat with a penalty is skipped, and the skipped turn counts for
    every penalty it has (no action, the island, a lost turn)."""
    no_action, island, lost = list(state.no_action), list(state.island), list(state.lost)
    regular, extra_next = state.regular, state.extra_next
    skips = []
    while True:
        seat, extra = (extra_next, True) if extra_next is not None else ((regular + 1) % state.seats, False)
        reasons = tuple(r for r, left in (("no_action", no_action), ("island", island), ("lost", lost)) if left[seat] > 0)
        if not reasons:
            return Plan(tuple(skips), seat, extra)
        skips.append((seat, extra, reasons))
        for left in (no_action, island, lost):
            left[seat] = max(0, left[seat] - 1)
        if extra:
            extra_next = None
        else:
            regular = seat


def rearmost_others(state: CatsState, seat: int) -> tuple[int, ...]:
    """Cats rule 7: the rearmost cat has the fewest steps from the start (laps ignored); for a
    harmful effect on `seat`, the rearmost of the other cats (a tie: the dealer breaks it)."""
    others = [s for s in range(state.seats) if s != seat]
    steps = {s: state.board.steps_of(state.cells[s]) for s in others}
    least = min(steps.values())
    return tuple(s for s in others if steps[s] == least)


def boon_targets(state: CatsState, seat: int, name: str) -> tuple[int, ...]:
    """Cats rule 4: the seats a beneficial effect may be used on."""
    cells, board = state.cells, state.board
    match name:
        case "swap":  # an opponent's cat (one on the same cell would change nothing)
            return tuple(s for s in range(state.seats) if s != seat and cells[s] != cells[seat])
        case "to_start":  # any cat, one's own included (one already there would not move)
            return tuple(s for s in range(state.seats) if cells[s] != board.start)
        case "to_toilet":  # an opponent's cat that has left the start (Cats rule 7)
            return tuple(s for s in range(state.seats)
                         if s != seat and cells[s] != board.start and cells[s] != board.toilet)
        case "extra_roll":  # any player, oneself included
            return tuple(range(state.seats))
    return ()


def standings(state: CatsState) -> tuple[tuple[int, int, int], ...]:
    """(seat, rank, points), best first; equal points share a place (Cats rule 7)."""
    pts = [points(state, s) for s in range(state.seats)]
    order = sorted(range(state.seats), key=lambda s: (-pts[s], s))
    return tuple((s, 1 + sum(1 for o in range(state.seats) if pts[o] > pts[s]), pts[s]) for s in order)


def cat_of(seat: int) -> str:
    return CATS[seat % len(CATS)]


def seat_label(state: CatsState, seat: int) -> T:
    return seat_label_of(state.names[seat], seat)


@lru_cache(maxsize=256)
def seat_label_of(name: str, seat: int) -> T:
    return T(f"{seat + 1}번 {name}", f"{seat + 1} {name}")


def face_label(face: int | str | None) -> T:
    if face is None:
        return T("?", "?")
    return T("X", "X") if face == X else T(str(face), str(face))


def declaration_label(value: int | str | None) -> T:
    if value == X:
        return T("X (탈출)", "X (escape)")
    if value == NONE:
        return T("X 아님", "no X")
    return T("?", "?") if value is None else T(str(value), str(value))


def effect_label(kind: str, name: str) -> T:
    return EFFECT_LABELS[(kind, name)]
