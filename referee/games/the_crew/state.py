"""The Crew: the state of one mission attempt and the pure helpers the rules and views share.

Everything here is data or arithmetic over data: no decisions, no events.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.kernel import T

from .cards import COLOUR_CARDS, DECK, communicable, is_rocket, legal_plays
from .missions import (
    DISTRIBUTION,
    DRAFT,
    MOVE_TOKEN,
    MUTED,
    ROLES,
    SWAP_TOKENS,
    Mission,
    mission,
)

# Table options (see the package docstring).
DEAL_REFEREE, DEAL_DEALER = "referee", "dealer"

# Phases of an attempt. "random_pass" sits between tricks 1 and 2 of mission 12.
DEAL = "deal"
TOKENS = "tokens"  # missions 23 and 40: the crew may move task tokens
QUESTION = "question"  # the commander's question, answered clockwise from the commander's left
CHOOSE = "choose"  # the commander names a member (or a task's holder)
DRAFT_PHASE = "draft"
HANDOVER = "handover"  # 5 players, missions marked so: one task may change hands
DISTRESS_VOTE = "distress_vote"
DISTRESS_PASS = "distress_pass"
PLAY = "play"
RANDOM_PASS = "random_pass"
OVER = "over"

OPEN, DONE, FAILED = "open", "done", "failed"
RUNNING, SUCCESS = "running", "success"

# Distress votes (BGA: clockwise, counter-clockwise, don't use, whatever).
LEFT, RIGHT, NONE, ANY = "left", "right", "none", "any"
VOTE_LABELS = {
    LEFT: T("왼쪽(시계 방향 다음 자리)으로 넘기기", "Pass to the left (next seat clockwise)"),
    RIGHT: T("오른쪽(시계 반대 방향)으로 넘기기", "Pass to the right (previous seat)"),
    NONE: T("조난 신호 쓰지 않기", "Do not use the distress signal"),
    ANY: T("아무래도 좋음", "Either way"),
}


@dataclass(frozen=True)
class Task:
    card: str
    token: str = ""
    owner: int | None = None
    status: str = OPEN
    trick: int | None = None  # the trick that did or failed it
    revealed: bool = True  # face down (commander's decision, distribution) until revealed
    cause: str | None = None  # why it failed: "won_by_other" or "order"


@dataclass(frozen=True)
class Comm:
    """A communicated card, face up before its holder until played (Crew rule 6)."""

    card: str
    position: str  # top, middle, bottom, or hidden in a dead zone
    trick: int  # communicated before this trick
    played: bool = False
    actual: str = ""  # the position a dead zone hides (holder and dealer only)


@dataclass(frozen=True)
class TrickRecord:
    number: int
    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int
    card: str  # the winning card


@dataclass(frozen=True)
class Proposal:
    """A proposed 5-player handover: `seat` gives its task `task` (index) to seat `to`."""

    seat: int
    task: int
    to: int


@dataclass(frozen=True)
class CrewState:
    seats: int
    names: tuple[str, ...]
    mission: int
    deal_mode: str = DEAL_REFEREE
    phase: str = DEAL
    hands: tuple[tuple[str, ...], ...] = ()
    dealt: tuple[bool, ...] = ()  # whose hand has been dealt or entered
    extra_seat: int | None = None  # 3 players: the seat dealt 14 cards
    extra_known: bool = False  # the 3-player extra seat has been decided
    commander: int | None = None
    tasks: tuple[Task, ...] = ()
    answers: tuple[str | None, ...] = ()
    special: int | None = None
    special2: int | None = None  # mission 50: the member who wins only the last trick
    proposal: Proposal | None = None
    handover_passed: tuple[bool, ...] = ()
    confirmed: tuple[bool, ...] = ()
    handover: dict[str, int] | None = None  # the handover made: {"task", "from", "to"}
    distress_votes: tuple[str | None, ...] = ()
    distress_owing: tuple[bool, ...] = ()
    distress: str | None = None  # the direction decided (LEFT, RIGHT) or NONE
    distress_cards: tuple[str | None, ...] = ()
    comm: tuple[Comm | None, ...] = ()
    comm_used: tuple[bool, ...] = ()
    comm_skipped: tuple[bool, ...] = ()  # skipped the window before the current trick
    muted: int | None = None  # mission 11
    trick_no: int = 0  # the current trick, from 1
    leader: int | None = None
    trick: tuple[tuple[int, str], ...] = ()
    history: tuple[TrickRecord, ...] = ()
    won: tuple[int, ...] = ()
    drawn: tuple[str | None, ...] = ()  # mission 12: the card drawn from each seat (by giver)
    random_passed: bool = False
    outcome: dict[str, Any] | None = None  # set by the trick that ended the attempt
    status: str = RUNNING
    failed_at: int | None = None

    @property
    def info(self) -> Mission:
        return mission(self.mission)


# -- helpers ---------------------------------------------------------------------------------


def replace_at(values: tuple, index: int, value: object) -> tuple:
    return tuple(value if i == index else v for i, v in enumerate(values))


def total_tricks(seats: int) -> int:
    """Crew rule 1: 13 tricks with 3 (one card stays unplayed), 10 with 4, 8 with 5."""
    return len(DECK) // seats


def hand_sizes(seats: int, extra_seat: int | None) -> tuple[int, ...]:
    """Crew rule 1: all 40 cards dealt; with 3 players one seat gets 14."""
    base = len(DECK) // seats
    return tuple(base + (1 if s == extra_seat else 0) for s in range(seats))


def next_seat(state: CrewState, seat: int) -> int:
    """Clockwise: the seat to the left."""
    return (seat + 1) % state.seats


def prev_seat(state: CrewState, seat: int) -> int:
    return (seat - 1) % state.seats


def setup_sequence(state: CrewState) -> tuple[str, ...]:
    """The phases before play, in order, for this mission and table size."""
    m = state.info
    seq = [DEAL]
    if m.special in (SWAP_TOKENS, MOVE_TOKEN):
        seq.append(TOKENS)
    if m.special == MUTED:
        seq.append(CHOOSE)
    if m.question is not None:
        seq += [QUESTION, CHOOSE]
    if m.assignment == DRAFT:
        seq.append(DRAFT_PHASE)
    if state.seats == 5 and m.handover and m.tasks:
        seq.append(HANDOVER)
    seq += [DISTRESS_VOTE, PLAY]
    return tuple(seq)


def phase_after(state: CrewState, phase: str) -> str:
    seq = setup_sequence(state)
    return seq[seq.index(phase) + 1]


def answer_order(state: CrewState) -> tuple[int, ...]:
    """Crew rule 9: the members answer one by one, clockwise from the commander's left."""
    assert state.commander is not None
    return tuple((state.commander + i) % state.seats for i in range(1, state.seats))


def next_answerer(state: CrewState) -> int | None:
    for seat in answer_order(state):
        if state.answers[seat] is None:
            return seat
    return None


def unassigned(state: CrewState) -> tuple[int, ...]:
    return tuple(i for i, t in enumerate(state.tasks) if t.owner is None)


def distributing(state: CrewState) -> int | None:
    """Commander's distribution: the index of the task being handed out now."""
    if state.info.assignment != DISTRIBUTION:
        return None
    left = unassigned(state)
    return left[0] if left else None


def task_count(state: CrewState, seat: int) -> int:
    return sum(1 for t in state.tasks if t.owner == seat)


def distribution_targets(state: CrewState) -> tuple[int, ...]:
    """Crew rule 9 (BGA's even distribution): the seats that may take the next task, so that in
    the end no one holds two tasks more than another."""
    quotient, remainder = divmod(len(state.tasks), state.seats)
    at_max = sum(1 for s in range(state.seats) if task_count(state, s) > quotient)
    return tuple(s for s in range(state.seats)
                 if task_count(state, s) < quotient or (task_count(state, s) == quotient and remainder > at_max))


def crew_targets(state: CrewState) -> tuple[int, ...]:
    """Whom the commander may name now (Crew rules 9 and 11)."""
    m = state.info
    assert state.commander is not None
    if m.assignment == DISTRIBUTION:
        return distribution_targets(state)
    if m.special == ROLES:
        # Mission 50: the commander may take a role; the two roles go to two members.
        return tuple(s for s in range(state.seats) if s != state.special)
    # Missions 5, 11, 33, 41 and the commander's decision (20, 27, 37): never the commander.
    return tuple(s for s in range(state.seats) if s != state.commander)


def drafter(state: CrewState) -> int | None:
    """Crew rule 2: the commander picks first, then clockwise, one task at a time."""
    if state.phase != DRAFT_PHASE or state.commander is None:
        return None
    picked = len(state.tasks) - len(unassigned(state))
    return (state.commander + picked) % state.seats


def to_play(state: CrewState) -> int | None:
    """Whose card the current trick waits for."""
    if state.phase != PLAY or state.status != RUNNING or state.leader is None or state.outcome is not None:
        return None
    return (state.leader + len(state.trick)) % state.seats


def legal_cards(state: CrewState, seat: int) -> tuple[str, ...]:
    return legal_plays(state.hands[seat], [c for _, c in state.trick])


def comm_window_open(state: CrewState) -> bool:
    """Crew rule 6: communication only before the first card of a trick, and from trick N on
    under disruption N."""
    m = state.info
    return (state.phase == PLAY and to_play(state) is not None and not state.trick
            and (m.disruption is None or state.trick_no >= m.disruption))


def may_communicate(state: CrewState, seat: int) -> bool:
    """Crew rule 6 from public facts only: the window is open, the seat's token is unused and it
    has not skipped this window. Whether it holds a card it may show is its own secret."""
    return comm_window_open(state) and not state.comm_used[seat] and not state.comm_skipped[seat]


def comm_options(state: CrewState, seat: int) -> dict[str, str]:
    return communicable(state.hands[seat], state.info.dead_zone)


def commander_of(hands: tuple[tuple[str, ...], ...]) -> int:
    return next(s for s, hand in enumerate(hands) if "R4" in hand)


def undealt(state: CrewState) -> tuple[str, ...]:
    """Dealer deal: the cards nobody has been dealt yet."""
    held = {c for s, hand in enumerate(state.hands) if state.dealt[s] for c in hand}
    return tuple(c for c in DECK if c not in held)


def undrawn_tasks(state: CrewState) -> tuple[str, ...]:
    drawn = {t.card for t in state.tasks}
    return tuple(c for c in COLOUR_CARDS if c not in drawn)


def random_pass_pool(state: CrewState, seat: int) -> tuple[str, ...]:
    """Mission 12: the cards one may draw from `seat`: its hand, less the communicated card
    that lies face up on the table."""
    shown = state.comm[seat]
    return tuple(c for c in state.hands[seat] if shown is None or shown.played or c != shown.card)


def distress_pool(state: CrewState, seat: int) -> tuple[str, ...]:
    """Crew rule 7: rockets are never passed."""
    return tuple(c for c in state.hands[seat] if not is_rocket(c))


def seat_label(names: tuple[str, ...], seat: int) -> T:
    return seat_label_of(names[seat] if seat < len(names) else None, seat)


@lru_cache(maxsize=1024)
def seat_label_of(name: str | None, seat: int) -> T:
    """Seats as everyone numbers them: "2번 김민준" / "2 Kim Minjun"."""
    if not name:
        return T(f"{seat + 1}번", f"seat {seat + 1}")
    return T(f"{seat + 1}번 {name}", f"{seat + 1} {name}")
