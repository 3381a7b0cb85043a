"""The Crew: setup, decide (with the consequences the rules trigger), evolve, result.

Rule citations ("Crew rule N") use the numbering of the package docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.kernel import (
    Actor,
    Event,
    Result,
    Rng,
    RuleError,
    Standing,
    T,
    expect,
    josa,
    require,
    with_consequences,
)

from .cards import (
    COLOUR_CARDS,
    DECK,
    card_label,
    is_card,
    legal_plays,
    sorted_cards,
    true_position,
    winning_index,
    without,
)
from .checks import apply_updates, outcome, task_updates
from .decisions import NO, YES, turn
from .missions import DECISION, DISTRIBUTION, MUTED, PINK, ROLES, SWAP_TOKENS
from .missions import RANDOM_PASS as RANDOM_PASS_MISSION
from .state import (
    ANY,
    CHOOSE,
    DEAL,
    DEAL_REFEREE,
    DISTRESS_PASS,
    DISTRESS_VOTE,
    DRAFT_PHASE,
    FAILED,
    HANDOVER,
    LEFT,
    NONE,
    OVER,
    PLAY,
    QUESTION,
    RANDOM_PASS,
    RIGHT,
    SUCCESS,
    TOKENS,
    Comm,
    CrewState,
    Proposal,
    Task,
    TrickRecord,
    comm_options,
    commander_of,
    crew_targets,
    distress_pool,
    distributing,
    hand_sizes,
    next_answerer,
    phase_after,
    random_pass_pool,
    replace_at,
    seat_label,
    unassigned,
    undealt,
    undrawn_tasks,
)

# -- setup ---------------------------------------------------------------------------------------


def mission_number(value: Any) -> int | None:
    """Option `mission`: 1-50, as a number or its digits (the command line passes text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    return value if isinstance(value, int) and 1 <= value <= 50 else None


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> CrewState:
    n = len(seats)
    return CrewState(
        seats=n,
        names=tuple(seats),
        mission=mission_number(options.get("mission", 1)) or 1,
        deal_mode=options.get("deal", DEAL_REFEREE),
        hands=((),) * n,
        dealt=(False,) * n,
        answers=(None,) * n,
        handover_passed=(False,) * n,
        confirmed=(False,) * n,
        distress_votes=(None,) * n,
        distress_owing=(False,) * n,
        distress_cards=(None,) * n,
        comm=(None,) * n,
        comm_used=(False,) * n,
        comm_skipped=(False,) * n,
        won=(0,) * n,
        drawn=(None,) * n,
    )


# -- decide --------------------------------------------------------------------------------------


def decide(state: CrewState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move)
    seat = actor.acting_seat
    match move["type"]:
        case "deal":
            events = _deal_all(state, rng)
        case "enter_extra_seat":
            events = [_extra_seat(state, move["seat"])]
        case "enter_hand":
            events = [_enter_hand(state, move["cards"])]
        case "enter_task":
            events = [_enter_task(state, move["task"])]
        case "move_tokens":
            events = [_move_tokens(state, move["change"])]
        case "answer":
            events = [_answer(state, seat, move["reply"])]
        case "choose_crew":
            events = [_choose(state, move["seat"])]
        case "pick_task":
            events = [_pick_task(state, seat, move["task"])]
        case "offer_task":
            events = [_offer(state, seat, move["task"], move["to"])]
        case "pass_handover":
            events = [Event("HandoverPassed", {"seat": seat})]
        case "confirm_handover":
            events = [_confirm(state, seat, move["answer"])]
        case "distress_vote":
            events = [_vote(state, seat, move["vote"])]
        case "distress_card":
            events = [_distress_card(state, seat, move["card"])]
        case "play":
            events = [_play(state, seat, move["card"])]
        case "communicate":
            events = [_communicate(state, seat, move["card"])]
        case "skip_communication":
            events = [Event("CommunicationSkipped", {"seat": seat, "trick": state.trick_no})]
        case "random_pass":
            events = _random_pass_all(state, rng)
        case _:  # "enter_drawn_card"
            events = [_enter_drawn(state, move["card"])]
    return with_consequences(state, events, evolve, _consequence)


def _card(value: Any, field: str = "card") -> str:
    require(is_card(value), "crew/bad_card", f"카드 코드가 아닙니다 (예: B7, R4): {value!r}",
            f"Not a card code (e.g. B7, R4): {value!r}", **{field: value})
    return value


def _seat(state: CrewState, value: Any) -> int:
    require(isinstance(value, int) and not isinstance(value, bool) and 0 <= value < state.seats, "crew/bad_seat",
            f"없는 자리입니다: {value!r}", f"No such seat: {value!r}", seat=value)
    return value


def _task_event(state: CrewState, index: int, card: str) -> Event:
    """Crew rule 2: the first tasks drawn carry the mission's tokens, in order. Tasks of a
    commander's decision or distribution lie face down: only the dealer sees them."""
    m = state.info
    token = m.tokens[index] if index < len(m.tokens) else ""
    if m.hidden_tasks or m.assignment == DISTRIBUTION:
        return Event("TaskDrawn", {"index": index, "token": token}, {"card": card}, ())
    return Event("TaskDrawn", {"index": index, "token": token, "card": card})


def _hand_event(seat: int, hand: list[str] | tuple[str, ...]) -> Event:
    # Crew rule 1: a hand is secret to its holder (and the dealer); its size is public.
    return Event("HandDealt", {"seat": seat, "count": len(hand)}, {"hand": list(sorted_cards(hand))}, (seat,))


def _deal_all(state: CrewState, rng: Rng) -> list[Event]:
    # Crew rule 1: all 40 cards, shuffled; with 3 players a random seat gets 14.
    deck = rng.shuffled(DECK)
    events: list[Event] = []
    extra = None
    if state.seats == 3:
        extra = rng.below(3)
        events.append(Event("ExtraSeatDrawn", {"seat": extra}))
    at = 0
    for s, size in enumerate(hand_sizes(state.seats, extra)):
        events.append(_hand_event(s, deck[at:at + size]))
        at += size
    # Crew rule 2: the mission's tasks, drawn at random from the 36 task cards.
    for i, card in enumerate(rng.sample(COLOUR_CARDS, state.info.tasks)):
        events.append(_task_event(state, i, card))
    return events


def _extra_seat(state: CrewState, value: Any) -> Event:
    return Event("ExtraSeatDrawn", {"seat": _seat(state, value)})


def _enter_hand(state: CrewState, cards: list[Any]) -> Event:
    seat = next(s for s in range(state.seats) if not state.dealt[s])
    free = set(undealt(state))
    for c in cards:
        _card(c, "cards")
        # Crew rule 1: every card is dealt once.
        require(c in free, "crew/card_dealt", f"{josa(card_label(c).ko, '은/는')} 이미 다른 자리에 나눠 주었습니다: {c}",
                f"{card_label(c).en} has already been dealt to another seat: {c}", card=c)
    return _hand_event(seat, cards)


def _enter_task(state: CrewState, value: Any) -> Event:
    card = _card(value, "task")
    # Crew rule 2: task cards show colour cards, each once.
    require(card in undrawn_tasks(state), "crew/task_drawn",
            f"{josa(card_label(card).ko, '은/는')} 과제 카드로 쓸 수 없거나 이미 뽑았습니다: {card}",
            f"{card_label(card).en} is no task card or has been drawn already: {card}", task=card)
    return _task_event(state, len(state.tasks), card)


def _move_tokens(state: CrewState, value: Any) -> Event:
    if value == "keep":
        return Event("TokensKept", {})
    parts = value.split(":") if isinstance(value, str) else []
    ok = len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit()
    i, j = (int(parts[1]), int(parts[2])) if ok else (-1, -1)
    ok = ok and 0 <= i < len(state.tasks) and 0 <= j < len(state.tasks) and i != j
    if ok and parts[0] == "swap":
        # Mission 23 (Crew rule 11): swap the tokens of two tasks.
        ok = state.info.special == SWAP_TOKENS and bool(state.tasks[i].token) and bool(state.tasks[j].token)
    elif ok and parts[0] == "move":
        # Mission 40 (Crew rule 11): move a token onto a task that has none.
        ok = state.info.special != SWAP_TOKENS and bool(state.tasks[i].token) and not state.tasks[j].token
    else:
        ok = False
    require(ok, "crew/bad_token_move",
            f"'keep', 'swap:i:j'(미션 23) 또는 'move:i:j'(미션 40, 토큰 없는 과제로)여야 합니다: {value!r}",
            f"Expected 'keep', 'swap:i:j' (mission 23) or 'move:i:j' (mission 40, onto a task without a token): {value!r}",
            change=value)
    return Event("TokensMoved", {"how": parts[0], "from": i, "to": j, "token": state.tasks[i].token,
                                 "other": state.tasks[j].token})


def _answer(state: CrewState, seat: int, value: Any) -> Event:
    replies = state.info.replies
    require(value in replies, "crew/bad_reply", f"대답은 {', '.join(replies)} 중 하나입니다: {value!r}",
            f"The reply is one of {', '.join(replies)}: {value!r}", reply=value)
    index = distributing(state)
    return Event("QuestionAnswered", {"seat": seat, "reply": value, **({"task": index} if index is not None else {})})


def _choose(state: CrewState, value: Any) -> Event:
    seat = _seat(state, value)
    m = state.info
    # Crew rules 9 and 11: never the commander (5, 11, 33, 41 and the commander's decision); mission
    # 50's two roles go to two members; a distribution keeps the task counts within one.
    require(seat in crew_targets(state), "crew/not_eligible",
            f"{josa(seat_label(state.names, seat).ko, '은/는')} 지금 고를 수 없습니다 (가능: {[s + 1 for s in crew_targets(state)]})",
            f"{seat_label(state.names, seat).en} cannot be chosen now (allowed: {[s + 1 for s in crew_targets(state)]})",
            seat=value)
    index = distributing(state)
    if index is not None:
        return Event("TaskAssigned", {"index": index, "card": state.tasks[index].card, "seat": seat, "by": "commander"})
    if m.assignment == DECISION:
        tasks = [{"index": i, "card": state.tasks[i].card} for i in unassigned(state)]
        return Event("TasksGiven", {"seat": seat, "tasks": tasks})
    role = "last" if m.special == ROLES and state.special is not None else ("muted" if m.special == MUTED else "special")
    return Event("CrewChosen", {"seat": seat, "role": role})


def _task_index(state: CrewState, value: Any, free: bool) -> int:
    card = _card(value, "task")
    index = next((i for i, t in enumerate(state.tasks) if t.card == card), None)
    require(index is not None, "crew/no_such_task", f"이 미션의 과제가 아닙니다: {card_label(card).ko}",
            f"Not a task of this mission: {card_label(card).en}", task=value)
    assert index is not None
    owner = state.tasks[index].owner
    if free and owner is not None:
        # Crew rule 2: one of the tasks nobody has taken.
        raise RuleError("crew/task_taken", f"{card_label(card).ko} 과제는 이미 {josa(seat_label(state.names, owner).ko, '이/가')} 맡았습니다",
                        f"The task {card_label(card).en} is taken already by {seat_label(state.names, owner).en}", task=value)
    return index


def _pick_task(state: CrewState, seat: int, value: Any) -> Event:
    index = _task_index(state, value, free=True)
    return Event("TaskAssigned", {"index": index, "card": state.tasks[index].card, "seat": seat, "by": "draft"})


def _offer(state: CrewState, seat: int, task: Any, to: Any) -> Event:
    index = _task_index(state, task, free=False)
    # Crew rule 10: one's own task, to another member.
    require(state.tasks[index].owner == seat, "crew/not_your_task",
            f"{josa(card_label(task).ko, '은/는')} 당신의 과제가 아닙니다", f"{card_label(task).en} is not your task", task=task)
    target = _seat(state, to)
    require(target != seat, "crew/self_handover", "자기 자신에게 과제를 넘길 수 없습니다", "You cannot hand a task to yourself",
            seat=to)
    return Event("HandoverOffered", {"seat": seat, "task": index, "card": state.tasks[index].card, "to": target})


def _confirm(state: CrewState, seat: int, value: Any) -> Event:
    require(value in (YES, NO), "crew/bad_answer", f"대답은 yes 또는 no입니다: {value!r}",
            f"The answer is yes or no: {value!r}", answer=value)
    return Event("HandoverAnswered", {"seat": seat, "answer": value})


def _vote(state: CrewState, seat: int, value: Any) -> Event:
    require(value in (NONE, LEFT, RIGHT, ANY), "crew/bad_vote", f"투표는 none, left, right, any 중 하나입니다: {value!r}",
            f"The vote is one of none, left, right, any: {value!r}", vote=value)
    return Event("DistressVoted", {"seat": seat, "vote": value})


def _in_hand(state: CrewState, seat: int, card: str) -> None:
    require(card in state.hands[seat], "crew/not_in_hand", f"손에 {josa(card_label(card).ko, '이/가')} 없습니다: {card}",
            f"{card_label(card).en} is not in your hand: {card}", card=card)


def _distress_card(state: CrewState, seat: int, value: Any) -> Event:
    card = _card(value)
    _in_hand(state, seat, card)
    # Crew rule 7: rockets are never passed.
    require(card in distress_pool(state, seat), "crew/rocket_pass", f"로켓 카드는 넘길 수 없습니다: {card}",
            f"A rocket cannot be passed: {card}", card=card)
    return Event("DistressCardChosen", {"seat": seat}, {"card": card}, (seat,))


def _play(state: CrewState, seat: int, value: Any) -> Event:
    card = _card(value)
    _in_hand(state, seat, card)
    trick = [c for _, c in state.trick]
    # Crew rule 3: follow the led suit when you can (rockets are a suit of their own).
    require(card in legal_plays(state.hands[seat], trick), "crew/must_follow",
            f"{card_label(trick[0]).ko}에 맞춰 같은 색을 내야 합니다: {card}" if trick else f"낼 수 없는 카드입니다: {card}",
            f"You must follow {card_label(trick[0]).en}'s suit: {card}" if trick else f"Cannot play {card}", card=card)
    return Event("CardPlayed", {"seat": seat, "card": card, "trick": state.trick_no})


def _communicate(state: CrewState, seat: int, value: Any) -> Event:
    card = _card(value)
    _in_hand(state, seat, card)
    shown = comm_options(state, seat)
    # Crew rule 6: a colour card that is the highest, the lowest or the only one of its colour.
    require(card in shown, "crew/not_communicable",
            f"{josa(card_label(card).ko, '은/는')} 소통할 수 없습니다 (로켓이거나, 그 색의 최고·최저·유일한 카드가 아님)",
            f"{card_label(card).en} cannot be communicated (a rocket, or not the highest, lowest or only of its colour)",
            card=card)
    data = {"seat": seat, "card": card, "position": shown[card], "trick": state.trick_no}
    if state.info.dead_zone:
        # A dead zone hides the token's position from everyone but the holder (and the dealer).
        return Event("Communicated", data, {"actual": true_position(state.hands[seat], card)}, (seat,))
    return Event("Communicated", data)


def _random_pass_all(state: CrewState, rng: Rng) -> list[Event]:
    # Mission 12 (Crew rule 11): each seat's random card goes to the next seat clockwise.
    return [_drawn(state, s, rng.choice(random_pass_pool(state, s))) for s in range(state.seats)]


def _drawn(state: CrewState, giver: int, card: str) -> Event:
    taker = (giver + 1) % state.seats
    return Event("CardDrawn", {"from": giver, "to": taker}, {"card": card}, tuple(sorted({giver, taker})))


def _enter_drawn(state: CrewState, value: Any) -> Event:
    giver = next(s for s in range(state.seats) if state.drawn[s] is None)
    card = _card(value)
    _in_hand(state, giver, card)
    require(card in random_pass_pool(state, giver), "crew/card_shown",
            f"공개된 소통 카드는 뽑을 수 없습니다: {card}", f"The communicated card lies face up and cannot be drawn: {card}",
            card=card)
    return _drawn(state, giver, card)


# -- consequences ---------------------------------------------------------------------------------


def distress_resolution(votes: tuple[str | None, ...]) -> str | None:
    """Crew rule 7 (BGA's vote): settled when every vote other than "either way" is one and the
    same (all "either way": not used); None while someone has not voted or votes differ."""
    choices = {v for v in votes if v != ANY}
    if not choices:
        return NONE
    if len(choices) == 1 and None not in choices:
        return next(iter(choices))
    return None


def close_trick(state: CrewState) -> Event:
    """Crew rules 3, 4, 5 and 8: who wins the full trick, which tasks it does or fails, and
    whether the attempt ends here."""
    cards = [c for _, c in state.trick]
    assert state.leader is not None
    winner_seat, best = state.trick[winning_index(cards)]
    record = TrickRecord(state.trick_no, state.leader, state.trick, winner_seat, best)
    done, failed = task_updates(state.tasks, record)
    after = replace(state, history=state.history + (record,), won=replace_at(state.won, winner_seat,
                    state.won[winner_seat] + 1), tasks=apply_updates(state.tasks, state.trick_no, done, failed))
    ended = outcome(after)
    return Event("TrickWon", {
        "trick": state.trick_no,
        "leader": state.leader,
        "plays": [[s, c] for s, c in state.trick],
        "winner": winner_seat,
        "card": best,
        "done": done,
        "failed": [{"index": i, "cause": cause} for i, cause in failed],
        "outcome": ended,
    })


def _consequence(state: CrewState) -> Event | None:
    m = state.info
    if state.phase == DEAL:
        if (state.deal_mode != DEAL_REFEREE and (state.seats != 3 or state.extra_known)
                and all(state.dealt[:-1]) and not state.dealt[-1]):
            # Dealer deal: the last seat holds the cards left.
            return _hand_event(state.seats - 1, undealt(state))
        if all(state.dealt) and state.commander is None:
            # Crew rule 1: the holder of rocket 4 is the commander (public).
            return Event("CommanderFound", {"seat": commander_of(state.hands)})
        if m.special == PINK and state.commander is not None and state.special is None:
            # Mission 46: the holder of pink 9 is announced; the next seat clockwise keeps pink.
            holder = next(s for s, hand in enumerate(state.hands) if "P9" in hand)
            return Event("PinkNineAnnounced", {"holder": holder, "keeper": (holder + 1) % state.seats})
        return None
    index = distributing(state)
    if index is not None and state.phase in (QUESTION, CHOOSE) and not state.tasks[index].revealed:
        # Commander's distribution: the tasks are revealed one at a time.
        t = state.tasks[index]
        return Event("TaskRevealed", {"index": index, "card": t.card, "token": t.token})
    if state.phase == HANDOVER and state.proposal is not None:
        p = state.proposal
        if all(state.confirmed[s] for s in range(state.seats) if s != p.seat):
            return Event("TaskHandedOver", {"task": p.task, "card": state.tasks[p.task].card, "from": p.seat, "to": p.to})
    if state.phase == DISTRESS_VOTE and state.distress is None:
        direction = distress_resolution(state.distress_votes)
        if direction is not None:
            return Event("DistressDecided", {"direction": direction})
    if state.phase == DISTRESS_PASS and all(c is not None for c in state.distress_cards):
        # Crew rule 7: every seat passes its card to the same side, all at once.
        giver = next((s for s in range(state.seats) if state.distress_cards[s] != ""), None)
        if giver is not None:
            card = state.distress_cards[giver]
            assert card is not None
            to = (giver + (1 if state.distress == LEFT else -1)) % state.seats
            return Event("DistressCardPassed", {"from": giver, "to": to}, {"card": card}, tuple(sorted({giver, to})))
    if state.phase == PLAY:
        if state.outcome is not None:
            return Event("MissionEnded", dict(state.outcome))
        if len(state.trick) == state.seats:
            return close_trick(state)
    if state.phase == RANDOM_PASS and all(c is not None for c in state.drawn):
        return Event("RandomCardsPassed", {"trick": state.trick_no})
    return None


# -- evolve ---------------------------------------------------------------------------------------


def enter(state: CrewState, phase: str) -> CrewState:
    """Start `phase` with its bookkeeping fresh."""
    n = state.seats
    match phase:
        case "question":
            return replace(state, phase=phase, answers=(None,) * n)
        case "handover":
            return replace(state, phase=phase, proposal=None, handover_passed=(False,) * n, confirmed=(False,) * n)
        case "distress_vote":
            return replace(state, phase=phase, distress_votes=(None,) * n, distress_owing=(True,) * n)
        case "play":
            # Crew rule 3: the commander leads the first trick.
            return replace(state, phase=phase, trick_no=max(state.trick_no, 1),
                           leader=state.commander if state.leader is None else state.leader, comm_skipped=(False,) * n)
    return replace(state, phase=phase)


def _deal_complete(state: CrewState) -> CrewState:
    m = state.info
    if (state.phase == DEAL and all(state.dealt) and state.commander is not None and len(state.tasks) == m.tasks
            and (m.special != PINK or state.special is not None)):
        return enter(state, phase_after(state, DEAL))
    return state


def _assigned(state: CrewState, phase: str) -> CrewState:
    """After a task changed hands during setup: next task, next step."""
    if state.info.assignment == DISTRIBUTION and unassigned(state):
        return enter(state, QUESTION)
    if unassigned(state):
        return state
    return enter(state, phase_after(state, phase))


def _with_task(state: CrewState, index: int, **changes: Any) -> tuple[Task, ...]:
    return replace_at(state.tasks, index, replace(state.tasks[index], **changes))


def evolve(state: CrewState, event: Event) -> CrewState:
    n = state.seats
    match event.type:
        case "ExtraSeatDrawn":
            return replace(state, extra_seat=event["seat"], extra_known=True)
        case "HandDealt":
            seat = event["seat"]
            state = replace(state, hands=replace_at(state.hands, seat, sorted_cards(event["hand"])),
                            dealt=replace_at(state.dealt, seat, True))
            return _deal_complete(state)
        case "CommanderFound":
            return _deal_complete(replace(state, commander=event["seat"]))
        case "PinkNineAnnounced":
            return _deal_complete(replace(state, special=event["keeper"]))
        case "TaskDrawn":
            m = state.info
            hidden = m.hidden_tasks or m.assignment == DISTRIBUTION
            task = Task(card=event["card"], token=event["token"], revealed=not hidden)
            return _deal_complete(replace(state, tasks=state.tasks + (task,)))
        case "TokensKept":
            return enter(state, phase_after(state, TOKENS))
        case "TokensMoved":
            i, j = event["from"], event["to"]
            tasks = _with_task(state, i, token=event["other"] if event["how"] == "swap" else "")
            tasks = replace_at(tasks, j, replace(tasks[j], token=event["token"]))
            return enter(replace(state, tasks=tasks), phase_after(state, TOKENS))
        case "QuestionAnswered":
            state = replace(state, answers=replace_at(state.answers, event["seat"], event["reply"]))
            return replace(state, phase=CHOOSE) if next_answerer(state) is None else state
        case "TaskRevealed":
            return replace(state, tasks=_with_task(state, event["index"], revealed=True))
        case "TaskAssigned":
            state = replace(state, tasks=_with_task(state, event["index"], owner=event["seat"], revealed=True))
            return _assigned(state, DRAFT_PHASE if state.phase == DRAFT_PHASE else CHOOSE)
        case "TasksGiven":
            tasks = state.tasks
            for t in event["tasks"]:
                tasks = replace_at(tasks, t["index"], replace(tasks[t["index"]], owner=event["seat"], revealed=True))
            return _assigned(replace(state, tasks=tasks), CHOOSE)
        case "CrewChosen":
            seat = event["seat"]
            if event["role"] == "muted":
                # Mission 11: the chosen member's communication token is spent.
                state = replace(state, muted=seat, comm_used=replace_at(state.comm_used, seat, True))
            elif event["role"] == "last":
                state = replace(state, special2=seat)
            else:
                state = replace(state, special=seat)
            if state.info.special == ROLES and state.special2 is None:
                return state
            return enter(state, phase_after(state, CHOOSE))
        case "HandoverOffered":
            return replace(state, proposal=Proposal(event["seat"], event["task"], event["to"]), confirmed=(False,) * n)
        case "HandoverPassed":
            state = replace(state, handover_passed=replace_at(state.handover_passed, event["seat"], True))
            return enter(state, phase_after(state, HANDOVER)) if all(state.handover_passed) else state
        case "HandoverAnswered":
            if event["answer"] == NO:
                # BGA: a refusal reopens the handover for everyone.
                return enter(state, HANDOVER)
            return replace(state, confirmed=replace_at(state.confirmed, event["seat"], True))
        case "TaskHandedOver":
            state = replace(state, tasks=_with_task(state, event["task"], owner=event["to"]), proposal=None,
                            handover={"task": event["task"], "from": event["from"], "to": event["to"]})
            return enter(state, phase_after(state, HANDOVER))
        case "DistressVoted":
            seat, vote = event["seat"], event["vote"]
            votes = replace_at(state.distress_votes, seat, vote)
            if vote == ANY:
                owing = replace_at(state.distress_owing, seat, False)
            else:
                # BGA: whoever voted otherwise (or not yet) owes a vote again.
                owing = tuple(v not in (vote, ANY) for v in votes)
            return replace(state, distress_votes=votes, distress_owing=owing)
        case "DistressDecided":
            direction = event["direction"]
            state = replace(state, distress=direction, distress_owing=(False,) * n)
            if direction in (LEFT, RIGHT):
                return replace(state, phase=DISTRESS_PASS, distress_cards=(None,) * n)
            return enter(state, PLAY)
        case "DistressCardChosen":
            return replace(state, distress_cards=replace_at(state.distress_cards, event["seat"], event["card"]))
        case "DistressCardPassed":
            giver, to, card = event["from"], event["to"], event["card"]
            hands = replace_at(state.hands, giver, without(state.hands[giver], card))
            hands = replace_at(hands, to, sorted_cards(hands[to] + (card,)))
            # "" marks a card passed; the cards chosen by others stay where they are until their turn.
            state = replace(state, hands=hands, distress_cards=replace_at(state.distress_cards, giver, ""))
            return enter(state, PLAY) if all(c == "" for c in state.distress_cards) else state
        case "Communicated":
            seat = event["seat"]
            comm = Comm(event["card"], event["position"], event["trick"], actual=event.get("actual", event["position"]))
            return replace(state, comm=replace_at(state.comm, seat, comm), comm_used=replace_at(state.comm_used, seat, True))
        case "CommunicationSkipped":
            return replace(state, comm_skipped=replace_at(state.comm_skipped, event["seat"], True))
        case "CardPlayed":
            seat, card = event["seat"], event["card"]
            shown = state.comm[seat]
            comm = state.comm
            if shown is not None and shown.card == card:
                comm = replace_at(comm, seat, replace(shown, played=True))
            return replace(state, hands=replace_at(state.hands, seat, without(state.hands[seat], card)),
                           trick=state.trick + ((seat, card),), comm=comm)
        case "TrickWon":
            record = TrickRecord(event["trick"], event["leader"], tuple((s, c) for s, c in event["plays"]), event["winner"],
                                 event["card"])
            winner = event["winner"]
            tasks = apply_updates(state.tasks, event["trick"], list(event["done"]),
                                  [(f["index"], f["cause"]) for f in event["failed"]])
            state = replace(state, history=state.history + (record,), won=replace_at(state.won, winner, state.won[winner] + 1),
                            tasks=tasks, trick=(), outcome=event["outcome"])
            if event["outcome"] is not None:
                return state
            # Crew rule 3: the winner leads the next trick.
            state = replace(state, leader=winner, trick_no=state.trick_no + 1, comm_skipped=(False,) * n)
            if state.info.special == RANDOM_PASS_MISSION and event["trick"] == 1 and not state.random_passed:
                return replace(state, phase=RANDOM_PASS, drawn=(None,) * n)
            return state
        case "MissionEnded":
            return replace(state, phase=OVER, status=SUCCESS if event["success"] else FAILED,
                           failed_at=None if event["success"] else event["trick"])
        case "CardDrawn":
            return replace(state, drawn=replace_at(state.drawn, event["from"], event["card"]))
        case "RandomCardsPassed":
            hands = list(state.hands)
            for giver, card in enumerate(state.drawn):
                assert card is not None
                hands[giver] = without(hands[giver], card)
            for giver, card in enumerate(state.drawn):
                to = (giver + 1) % n
                hands[to] = sorted_cards(hands[to] + (card,))
            return replace(state, hands=tuple(hands), phase=PLAY, random_passed=True)
    return state


# -- result ---------------------------------------------------------------------------------------


def result(state: CrewState) -> Result | None:
    """Crew rule 12: a cooperative attempt. Every seat ranks 1 either way; `decided_by` says
    whether the mission succeeded or failed (and at which trick)."""
    if state.phase != OVER:
        return None
    success = state.status == SUCCESS
    ended = state.outcome or {}
    standings = tuple(Standing(s, 1, 1 if success else 0) for s in range(state.seats))
    if success:
        decided = T(f"미션 {state.mission} 성공: 협력 게임이라 모두 1위", f"Mission {state.mission} accomplished: cooperative, "
                    "every seat ranks 1")
        reason: dict[str, Any] = {"code": "success", "ko": "모든 조건을 채웠습니다.", "en": "Every condition was met."}
    else:
        decided = T(f"미션 {state.mission} 실패 ({state.failed_at}번째 트릭): 협력 게임이라 모두 1위",
                    f"Mission {state.mission} failed (trick {state.failed_at}): cooperative, every seat ranks 1")
        reason = dict(ended.get("reason") or {})
    return Result(standings, decided, {
        "mission": state.mission,
        "success": success,
        "failed_at_trick": None if success else state.failed_at,
        "reason": reason,
        "distress_used": state.distress in (LEFT, RIGHT),
        "tricks_played": len(state.history),
    })


__all__ = ["close_trick", "decide", "distress_resolution", "evolve", "mission_number", "result", "setup"]
