"""The Crew: the pending decisions of a state (turn) with their legal options.

Legality lives in the options wherever it can: the play decision lists exactly the cards that
follow suit (Crew rule 3), communication exactly the cards that may be shown with their token
(Crew rule 6), the draft the tasks still free (Crew rule 2), the distress pass the non-rockets
(Crew rule 7), the commander's choice exactly the members the mission allows (Crew rules 9, 11).
"""

from __future__ import annotations

from functools import lru_cache

from referee.kernel import Decision, Field, Option, T, Turn, josa

from .cards import POSITION_SHORT, card_label, sorted_cards
from .missions import (
    DECISION,
    FIRST_AND_LAST,
    MUTED,
    REPLY_LABELS,
    ROLE_LABELS,
    ROLE_LAST,
    ROLES,
    SICK,
    SWAP_TOKENS,
    VOLUNTEER,
    token_label,
)
from .state import (
    ANY,
    DEAL_REFEREE,
    LEFT,
    NONE,
    OVER,
    RIGHT,
    SUCCESS,
    VOTE_LABELS,
    CrewState,
    comm_options,
    crew_targets,
    distress_pool,
    distributing,
    drafter,
    hand_sizes,
    legal_cards,
    may_communicate,
    next_answerer,
    random_pass_pool,
    seat_label,
    to_play,
    unassigned,
    undealt,
    undrawn_tasks,
)

YES, NO = "yes", "no"


def phase_label(state: CrewState) -> T:
    match state.phase:
        case "deal":
            return T("준비: 카드와 과제 분배", "Setup: dealing cards and tasks")
        case "tokens":
            return T("준비: 과제 토큰 조정", "Setup: moving task tokens")
        case "question":
            return T("준비: 사령관의 질문", "Setup: the commander's question")
        case "choose":
            return T("준비: 사령관의 선택", "Setup: the commander chooses")
        case "draft":
            return T("준비: 과제 고르기", "Setup: choosing tasks")
        case "handover":
            return T("준비: 과제 넘기기 (5인 규칙)", "Setup: task handover (5 players)")
        case "distress_vote":
            return T("조난 신호 투표", "Distress signal vote")
        case "distress_pass":
            return T("조난 신호: 카드 한 장 넘기기", "Distress signal: pass one card")
        case "random_pass":
            return T("카드 한 장 무작위로 가져오기", "Drawing a random card")
        case "over":
            return T("미션 성공", "Mission accomplished") if state.status == SUCCESS else T("미션 실패", "Mission failed")
    return T(f"{state.trick_no}번째 트릭", f"Trick {state.trick_no}")


def turn(state: CrewState) -> Turn:
    label = phase_label(state)
    if state.phase == OVER:
        return Turn(label)
    decisions: tuple[Decision, ...] = ()
    sealed = None
    match state.phase:
        case "deal":
            decisions = _deal(state)
        case "tokens":
            decisions = (_tokens(state),)
        case "question":
            decisions = _question(state)
        case "choose":
            decisions = (_choose(state),)
        case "draft":
            decisions = _draft(state)
        case "handover":
            decisions = _handover(state)
        case "distress_vote":
            decisions = tuple(_vote(s) for s in range(state.seats) if state.distress_owing[s])
        case "distress_pass":
            decisions = tuple(_distress_card(state, s) for s in range(state.seats) if state.distress_cards[s] is None)
            chosen = sum(1 for c in state.distress_cards if c is not None)
            sealed = (chosen, state.seats)
        case "play":
            decisions = _play(state)
        case "random_pass":
            decisions = _random_pass(state)
    return Turn(label, decisions, sealed=sealed)


# -- setup ------------------------------------------------------------------------------------------


def _deal(state: CrewState) -> tuple[Decision, ...]:
    if state.deal_mode == DEAL_REFEREE:
        return (Decision("deal", T("카드와 과제 분배 (자동)", "Deal the cards and tasks (automatic)"), auto=True),)
    if state.seats == 3 and not state.extra_known:
        # Crew rule 1: with 3 players one seat gets 14 cards.
        return (Decision("enter_extra_seat", T("14장을 받은 자리를 입력하세요", "Enter the seat dealt 14 cards"),
                         (Field("seat", "one", T("자리", "Seat"), _seat_options(state.names, tuple(range(state.seats))),
                                kind="seat"),)),)
    pending = [s for s in range(state.seats - 1) if not state.dealt[s]]
    if pending:
        seat = pending[0]
        k = hand_sizes(state.seats, state.extra_seat)[seat]
        who = seat_label(state.names, seat)
        return (Decision("enter_hand", T(f"{josa(who.ko, '이/가')} 받은 카드 {k}장을 입력하세요", f"Enter the {k} cards dealt to {who.en}"),
                         (Field("cards", "some", T("카드", "Cards"), _card_options(undealt(state)), k=k, kind="card"),)),)
    index = len(state.tasks)
    token = state.info.tokens[index] if index < len(state.info.tokens) else ""
    tok = token_label(token)
    return (Decision("enter_task", T(f"과제 카드 {index + 1}번째를 입력하세요 ({tok.ko})",
                                     f"Enter task card {index + 1} ({tok.en})"),
                     (Field("task", "one", T("과제 카드", "Task card"), _card_options(undrawn_tasks(state)), kind="card"),)),)


def _tokens(state: CrewState) -> Decision:
    """Missions 23 and 40 (Crew rule 11): the crew may swap two tokens (23) or move one token to
    a task without one (40); the commander enters what the crew agreed."""
    assert state.commander is not None
    options = [Option("keep", T("그대로 두기", "Leave the tokens as they are"))]
    tasks = state.tasks
    if state.info.special == SWAP_TOKENS:
        for i in range(len(tasks)):
            for j in range(i + 1, len(tasks)):
                if tasks[i].token and tasks[j].token:
                    options.append(Option(f"swap:{i}:{j}", T(
                        f"{_task_text(state, i).ko} ↔ {_task_text(state, j).ko} 토큰 맞바꾸기",
                        f"Swap the tokens of {_task_text(state, i).en} and {_task_text(state, j).en}")))
    else:
        for i, t in enumerate(tasks):
            for j, u in enumerate(tasks):
                if t.token and not u.token:
                    options.append(Option(f"move:{i}:{j}", T(
                        f"{_task_text(state, i).ko}의 토큰 {t.token} → {card_label(u.card).ko}",
                        f"Move token {t.token} from {card_label(t.card).en} to {card_label(u.card).en}")))
    return Decision("move_tokens", T("과제 토큰을 옮길까요? (대원들이 함께 정한 것)", "Move task tokens? (as the crew agreed)"),
                    (Field("change", "one", T("토큰", "Tokens"), tuple(options)),), seat=state.commander)


def _question(state: CrewState) -> tuple[Decision, ...]:
    seat = next_answerer(state)
    m = state.info
    if seat is None or m.question is None:
        return ()
    prompt = m.question
    index = distributing(state)
    if index is not None:
        what = card_label(state.tasks[index].card)
        prompt = T(f"{m.question.ko} ({what.ko})", f"{m.question.en} ({what.en})")
    return (Decision("answer", prompt, (Field("reply", "one", T("대답", "Reply"), _reply_options(m.replies)),), seat=seat),)


def _choose(state: CrewState) -> Decision:
    assert state.commander is not None
    m = state.info
    index = distributing(state)
    if index is not None:
        what = card_label(state.tasks[index].card)
        prompt = T(f"과제 {josa(what.ko, '을/를')} 받을 대원을 정하세요", f"Choose who takes the task {what.en}")
    elif m.assignment == DECISION:
        prompt = T("과제를 모두 받을 대원을 정하세요 (자신 제외)", "Choose the member who takes every task (not yourself)")
    elif m.special == ROLES:
        role = ROLE_LABELS[50] if state.special is None else ROLE_LAST
        quoted = f"'{role.ko}'"
        prompt = T(f"역할 {josa(quoted, '을/를')} 맡을 대원을 정하세요", f"Choose the member who {role.en}")
    else:
        role = ROLE_LABELS[{SICK: 5, MUTED: 11, VOLUNTEER: 33, FIRST_AND_LAST: 41}[m.special or ""]]
        prompt = T(f"{josa(role.ko, '을/를')} 정하세요 (자신 제외)", f"Choose the {role.en} (not yourself)")
    return Decision("choose_crew", prompt,
                    (Field("seat", "one", T("대원", "Member"), _seat_options(state.names, crew_targets(state)), kind="seat"),),
                    seat=state.commander)


def _draft(state: CrewState) -> tuple[Decision, ...]:
    seat = drafter(state)
    if seat is None:
        return ()
    options = tuple(_task_option(state, i) for i in unassigned(state))
    return (Decision("pick_task", T("맡을 과제를 하나 고르세요", "Choose one task to take"),
                     (Field("task", "one", T("과제", "Task"), options, kind="card"),), seat=seat),)


def _handover(state: CrewState) -> tuple[Decision, ...]:
    """Crew rule 10 (5 players): one member may hand one task to another; everyone confirms."""
    out: list[Decision] = []
    if state.proposal is not None:
        p = state.proposal
        what = card_label(state.tasks[p.task].card)
        giver, taker = seat_label(state.names, p.seat), seat_label(state.names, p.to)
        prompt = T(f"{josa(giver.ko, '이/가')} 과제 {josa(what.ko, '을/를')} {taker.ko}에게 넘기려 합니다. 동의하나요?",
                   f"{giver.en} offers the task {what.en} to {taker.en}. Agree?")
        for s in range(state.seats):
            if s != p.seat and not state.confirmed[s]:
                out.append(Decision("confirm_handover", prompt, (Field("answer", "one", T("대답", "Answer"), _YES_NO),),
                                    seat=s))
        return tuple(out)
    for s in range(state.seats):
        if state.handover_passed[s]:
            continue
        own = [i for i, t in enumerate(state.tasks) if t.owner == s]
        if own:
            others = tuple(x for x in range(state.seats) if x != s)
            out.append(Decision("offer_task", T("과제 하나를 다른 대원에게 넘기기", "Hand one of your tasks to another member"), (
                Field("task", "one", T("과제", "Task"), tuple(_task_option(state, i) for i in own), kind="card"),
                Field("to", "one", T("받을 대원", "To"), _seat_options(state.names, others), kind="seat"),
            ), seat=s))
        out.append(Decision("pass_handover", T("과제를 넘기지 않기", "Hand over no task"), (), seat=s))
    return tuple(out)


_YES_NO = (Option(YES, T("예", "Yes")), Option(NO, T("아니오", "No")))


@lru_cache(maxsize=8)
def _vote(seat: int) -> Decision:
    """Crew rule 7 (BGA's vote): pass left, pass right, do not use, or either way."""
    options = tuple(Option(v, VOTE_LABELS[v]) for v in (NONE, LEFT, RIGHT, ANY))
    return Decision("distress_vote", T("조난 신호를 쓸까요? 쓴다면 어느 쪽으로 넘길까요?",
                                       "Use the distress signal? If so, which way do the cards go?"),
                    (Field("vote", "one", T("투표", "Vote"), options),), seat=seat)


def _distress_card(state: CrewState, seat: int) -> Decision:
    to = (seat + (1 if state.distress == LEFT else -1)) % state.seats
    who = seat_label(state.names, to)
    return Decision("distress_card", T(f"{who.ko}에게 넘길 카드 한 장 (로켓 제외)", f"One card to pass to {who.en} (no rocket)"),
                    (Field("card", "one", T("카드", "Card"), _card_options(distress_pool(state, seat)), kind="card"),),
                    seat=seat)


# -- play -------------------------------------------------------------------------------------------


def _play(state: CrewState) -> tuple[Decision, ...]:
    seat = to_play(state)
    if seat is None:
        return ()
    out = [Decision("play", T(f"{state.trick_no}번째 트릭: 낼 카드", f"Trick {state.trick_no}: the card to play"),
                    (Field("card", "one", T("카드", "Card"), _card_options(legal_cards(state, seat)), kind="card"),),
                    seat=seat)]
    for s in range(state.seats):
        if not may_communicate(state, s):
            continue
        shown = comm_options(state, s)
        if shown:
            options = tuple(_comm_option(card, pos) for card, pos in shown.items())
            out.append(Decision("communicate", T("소통: 보여 줄 카드 (미션당 한 번)", "Communicate: the card to show (once per mission)"),
                                (Field("card", "one", T("카드와 토큰 위치", "Card and token"), options, kind="card"),), seat=s))
        out.append(_skip(s))
    return tuple(out)


@lru_cache(maxsize=8)
def _skip(seat: int) -> Decision:
    return Decision("skip_communication", T("이번 트릭 전에는 소통하지 않기", "No communication before this trick"), (), seat=seat)


def _random_pass(state: CrewState) -> tuple[Decision, ...]:
    if state.deal_mode == DEAL_REFEREE:
        return (Decision("random_pass", T("카드 무작위로 가져오기 (자동)", "Random card draw (automatic)"), auto=True),)
    giver = next(s for s in range(state.seats) if state.drawn[s] is None)
    taker = (giver + 1) % state.seats
    g, t = seat_label(state.names, giver), seat_label(state.names, taker)
    return (Decision("enter_drawn_card", T(f"{josa(t.ko, '이/가')} {g.ko}에게서 뽑은 카드", f"The card {t.en} drew from {g.en}"),
                     (Field("card", "one", T("카드", "Card"), _card_options(random_pass_pool(state, giver)), kind="card"),)),)


# -- options ----------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _card_option(card: str) -> Option:
    return Option(card, card_label(card))


def _card_options(cards: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(_card_option(c) for c in sorted_cards(cards))


@lru_cache(maxsize=256)
def _comm_option(card: str, position: str) -> Option:
    label = card_label(card)
    pos = POSITION_SHORT[position]
    return Option(card, T(f"{label.ko} · 토큰 {pos.ko}", f"{label.en} · token {pos.en}"))


@lru_cache(maxsize=256)
def _seat_options(names: tuple[str, ...], seats: tuple[int, ...]) -> tuple[Option, ...]:
    return tuple(Option(s, seat_label(names, s)) for s in seats)


@lru_cache(maxsize=16)
def _reply_options(replies: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(r, REPLY_LABELS[r]) for r in replies)


def _task_text(state: CrewState, index: int) -> T:
    t = state.tasks[index]
    label = card_label(t.card)
    if not t.token:
        return label
    return T(f"{label.ko}({t.token})", f"{label.en} ({t.token})")


def _task_option(state: CrewState, index: int) -> Option:
    t = state.tasks[index]
    label = _task_text(state, index)
    return Option(t.card, label, token_label(t.token) if t.token else None)


__all__ = ["NO", "YES", "phase_label", "turn"]
