"""The Crew: what Board Game Arena checks after each trick, as pure functions.

`task_updates` is Crew rules 4 and 5 (a task card won by its holder or not; the tokens' order),
`outcome` is Crew rule 8 with the special missions of Crew rule 11. A mission fails at the trick
where one of these checks detects it; nothing searches for an earlier hopelessness (RULINGS).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.kernel import T, josa

from .cards import card_label, is_rocket, suit, value
from .missions import (
    BALANCED,
    BALANCED_COMMANDER,
    EACH_ROCKET,
    FIRST_AND_LAST,
    NO_NINE,
    OMEGA,
    OMEGA_LAST,
    ONES,
    PINK,
    ROCKETS_IN_ORDER,
    ROLES,
    SICK,
    VOLUNTEER,
    is_arrow,
)
from .state import DONE, FAILED, OPEN, CrewState, Task, TrickRecord, seat_label, total_tricks


def task_updates(tasks: tuple[Task, ...], record: TrickRecord) -> tuple[list[int], list[tuple[int, str]]]:
    """The tasks this trick does and fails: (done indexes, [(failed index, cause)]).

    Crew rule 4: an open task whose card is in the trick is done if its holder won the trick,
    else failed. Crew rule 5 (BGA's order checks, run after that): task n still open while any
    task not numbered 1..n-1 is done fails; an open arrow task below a done arrow task fails; Ω
    done fails every open task. Tasks done in the same trick count as simultaneous.
    """
    status = [t.status for t in tasks]
    done: list[int] = []
    failed: list[tuple[int, str]] = []

    def fail(i: int, cause: str) -> None:
        status[i] = FAILED
        failed.append((i, cause))

    cards = {card for _, card in record.plays}
    for i, t in enumerate(tasks):
        if status[i] == OPEN and t.card in cards:
            if t.owner == record.winner:
                status[i] = DONE
                done.append(i)
            else:
                fail(i, "won_by_other")
    # Crew rule 5: numbered tokens, 1 to 5.
    for n in range(1, 6):
        open_n = [i for i, t in enumerate(tasks) if t.token == str(n) and status[i] == OPEN]
        if not open_n:
            continue
        before = {str(k) for k in range(1, n)}
        if any(status[j] == DONE and tasks[j].token not in before for j in range(len(tasks))):
            fail(open_n[0], "order")
    # Crew rule 5: arrows order the arrow tasks only.
    for j, t in enumerate(tasks):
        if status[j] == DONE and is_arrow(t.token):
            for k, other in enumerate(tasks):
                if status[k] == OPEN and is_arrow(other.token) and len(other.token) < len(t.token):
                    fail(k, "order")
    # Crew rule 5: Ω after all others.
    if any(status[j] == DONE and t.token == OMEGA for j, t in enumerate(tasks)):
        for k in range(len(tasks)):
            if status[k] == OPEN:
                fail(k, "order")
    return done, failed


def apply_updates(tasks: tuple[Task, ...], trick: int, done: list[int], failed: list[tuple[int, str]]) -> tuple[Task, ...]:
    out = list(tasks)
    for i in done:
        out[i] = replace(out[i], status=DONE, trick=trick)
    for i, cause in failed:
        out[i] = replace(out[i], status=FAILED, trick=trick, cause=cause)
    return tuple(out)


# -- the mission's outcome -----------------------------------------------------------------------


def _reason(code: str, ko: str, en: str, **values: Any) -> dict[str, Any]:
    return {"code": code, "ko": ko, "en": en, **values}


def _task_text(state: CrewState, index: int) -> T:
    t = state.tasks[index]
    token = f" ({t.token})" if t.token else ""
    return T(f"{card_label(t.card).ko}{token}", f"{card_label(t.card).en}{token}")


def _in_hands(state: CrewState, test: Any) -> bool:
    return any(test(c) for hand in state.hands for c in hand)


def tasks_outcome(state: CrewState, last: bool) -> tuple[int, dict[str, Any] | None]:
    """BGA's task status: 1 when every task is done, -1 when one failed or the last trick ended
    with tasks open, else 0; with the reason of a failure."""
    tasks = state.tasks
    failed = [i for i, t in enumerate(tasks) if t.status == FAILED]
    if failed:
        i = failed[0]
        t = tasks[i]
        what = _task_text(state, i)
        holder = seat_label(state.names, t.owner) if t.owner is not None else T("?", "?")
        record = state.history[-1]
        if t.cause == "won_by_other":
            winner = seat_label(state.names, record.winner)
            return -1, _reason("task_won_by_other",
                               f"{holder.ko}의 과제 {what.ko} 카드를 {josa(winner.ko, '이/가')} 가져갔습니다.",
                               f"{winner.en} won {holder.en}'s task card {what.en}.",
                               task=t.card, holder=t.owner, winner=record.winner)
        return -1, _reason("task_order", f"과제 {what.ko}의 순서가 어긋났습니다 (토큰 {t.token}).",
                           f"Task {what.en} was not done in its order (token {t.token}).", task=t.card, holder=t.owner,
                           token=t.token)
    if tasks and all(t.status == DONE for t in tasks):
        return 1, None
    if last:
        open_ = [t.card for t in tasks if t.status == OPEN]
        listed = [card_label(c) for c in open_]
        return -1, _reason("tasks_open", "마지막 트릭이 끝났는데 과제가 남았습니다: " + ", ".join(x.ko for x in listed),
                           "The last trick ended with tasks open: " + ", ".join(x.en for x in listed), tasks=open_)
    return 0, None


def outcome(state: CrewState) -> dict[str, Any] | None:
    """Crew rule 8 after the trick just recorded (state.history[-1], task statuses updated):
    ``{"success": True}``, ``{"success": False, "reason": {...}}``, or None to go on."""
    m = state.info
    record = state.history[-1]
    last = record.number == total_tricks(state.seats)
    check = _SPECIAL_CHECKS.get(m.special or "")
    result, reason = check(state, record, last) if check else tasks_outcome(state, last)
    if result == 0 and last:
        # Crew rule 8 (RULINGS): the last trick ends every attempt; with 3 players a rocket left
        # unplayed fails missions 13 and 44 here.
        result, reason = -1, _reason("unfinished", "마지막 트릭이 끝났는데 미션 조건을 채우지 못했습니다.",
                                     "The last trick ended before the mission's condition was met.")
    if result == 0:
        return None
    if result > 0:
        return {"success": True, "trick": record.number}
    return {"success": False, "trick": record.number, "reason": reason}


Check = tuple[int, dict[str, Any] | None]


def _who(state: CrewState, seat: int | None) -> T:
    return seat_label(state.names, seat) if seat is not None else T("?", "?")


def _sick(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 5: the sick member wins no trick."""
    sick = state.special
    if sick is not None and state.won[sick] > 0:
        who = _who(state, sick)
        return -1, _reason("sick_won", f"아픈 대원 {josa(who.ko, '이/가')} 트릭을 가져갔습니다.",
                           f"The sick member {who.en} won a trick.", seat=sick)
    return (1 if last else 0), None


def _ones(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 9: a colour 1 wins a trick. Mission 26: two of them; BGA fails it as soon as the
    1s still in hands cannot make up the count."""
    needed = 1 if state.mission == 9 else 2
    count = sum(1 for r in state.history if not is_rocket(r.card) and value(r.card) == 1)
    ones_left = sum(1 for hand in state.hands for c in hand if not is_rocket(c) and value(c) == 1)
    if count >= needed:
        return 1, None
    if last or (needed == 2 and ones_left + count < needed):
        return -1, _reason("ones_short", f"색 카드 1로 이긴 트릭이 {count}개뿐입니다 (필요 {needed}).",
                           f"Only {count} tricks were won by a colour 1 ({needed} needed).", count=count, needed=needed)
    return 0, None


def _rockets(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Missions 13 and 44: a trick won by a rocket holds no other rocket; 44 also wants them in
    the order 1, 2, 3, 4. Success once no rocket is left in a hand."""
    best = record.card
    if is_rocket(best):
        others = [c for _, c in record.plays if is_rocket(c) and c != best]
        if others:
            return -1, _reason("rocket_beaten",
                               f"{josa(card_label(best).ko, '이/가')} 이긴 트릭에 다른 로켓({card_label(others[0]).ko})이 나왔습니다.",
                               f"The trick {card_label(best).en} won held another rocket ({card_label(others[0]).en}).",
                               card=best, other=others[0])
        if state.info.special == ROCKETS_IN_ORDER:
            expected = sum(1 for r in state.history[:-1] if is_rocket(r.card)) + 1
            if value(best) != expected:
                return -1, _reason("rocket_order", f"로켓 {expected} 차례인데 {josa(card_label(best).ko, '이/가')} 트릭을 이겼습니다.",
                                   f"Rocket {expected} was due but {card_label(best).en} won the trick.", card=best,
                                   expected=expected)
    return (0 if _in_hands(state, is_rocket) else 1), None


def _no_nine(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Missions 16 and 17: no trick won with a 9; 17 also has its tasks, and its success waits
    until every 9 is played (or the last trick)."""
    best = record.card
    if not is_rocket(best) and value(best) == 9:
        return -1, _reason("nine_won", f"{josa(card_label(best).ko, '으로/로')} 트릭을 이겼습니다.",
                           f"A trick was won with {card_label(best).en}.", card=best)
    nines_left = _in_hands(state, lambda c: not is_rocket(c) and value(c) == 9)
    if not state.info.tasks:
        return (1 if not nines_left or last else 0), None
    result, reason = tasks_outcome(state, last)
    if result == 1 and nines_left and not last:
        return 0, None
    return result, reason


def _balanced_check(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Missions 29 and 34: never two tricks more than another member; 34: the commander wins the
    first and the last trick."""
    if max(state.won) - min(state.won) >= 2:
        return -1, _reason("unbalanced", "한 대원이 다른 대원보다 트릭을 2개 더 가져갔습니다.",
                           "A member has won two tricks more than another.", won=list(state.won))
    edge = record.number == 1 or last
    if state.info.special == BALANCED_COMMANDER and edge and record.winner != state.commander:
        who = _who(state, record.winner)
        which = T("첫", "first") if record.number == 1 else T("마지막", "last")
        return -1, _reason("commander_missed", f"{which.ko} 트릭을 사령관이 아닌 {josa(who.ko, '이/가')} 가져갔습니다.",
                           f"{who.en}, not the commander, won the {which.en} trick.", seat=record.winner)
    return (1 if last else 0), None


def _volunteer(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 33: the chosen member wins exactly one trick, not with a rocket."""
    chosen = state.special
    assert chosen is not None
    n = state.won[chosen]
    name = _who(state, chosen)
    if record.winner == chosen and is_rocket(record.card):
        return -1, _reason("volunteer_rocket", f"{josa(name.ko, '이/가')} 로켓으로 트릭을 이겼습니다.",
                           f"{name.en} won a trick with a rocket.", seat=chosen)
    if n > 1:
        return -1, _reason("volunteer_twice", f"{josa(name.ko, '이/가')} 두 번째 트릭을 가져갔습니다.",
                           f"{name.en} won a second trick.", seat=chosen)
    if last and n == 0:
        return -1, _reason("volunteer_none", f"{josa(name.ko, '이/가')} 트릭을 하나도 가져가지 못했습니다.",
                           f"{name.en} won no trick.", seat=chosen)
    return (1 if last else 0), None


def _first_and_last(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 41: the chosen member wins the first and the last trick and no other, neither with
    a rocket; nobody else wins either of them."""
    chosen = state.special
    assert chosen is not None
    name, who, k = _who(state, chosen), _who(state, record.winner), record.number
    edge = k == 1 or last
    if record.winner == chosen:
        if not edge:
            return -1, _reason("coordinator_middle", f"{josa(name.ko, '이/가')} {k}번째 트릭을 가져갔습니다.",
                               f"{name.en} won trick {k}.", seat=chosen, trick=k)
        if is_rocket(record.card):
            return -1, _reason("coordinator_rocket", f"{josa(name.ko, '이/가')} 로켓으로 트릭을 이겼습니다.",
                               f"{name.en} won a trick with a rocket.", seat=chosen)
    elif edge:
        which = T("첫", "first") if k == 1 else T("마지막", "last")
        return -1, _reason("coordinator_missed", f"{which.ko} 트릭을 {josa(name.ko, '이/가')} 아닌 {josa(who.ko, '이/가')} 가져갔습니다.",
                           f"{who.en}, not {name.en}, won the {which.en} trick.", seat=record.winner)
    if last:
        return (1, None) if state.won[chosen] == 2 else (-1, _reason(
            "coordinator_missed", f"{josa(name.ko, '이/가')} 첫 트릭과 마지막 트릭을 모두 가져가지 못했습니다.",
            f"{name.en} did not win both the first and the last trick.", seat=chosen))
    return 0, None


def _pink(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 46: the member left of pink 9's holder wins every trick with a pink card."""
    keeper = state.special
    if any(suit(c) == "P" for _, c in record.plays) and record.winner != keeper:
        name, who = _who(state, keeper), _who(state, record.winner)
        return -1, _reason("pink_lost", f"분홍 카드가 나온 트릭을 {josa(name.ko, '이/가')} 아닌 {josa(who.ko, '이/가')} 가져갔습니다.",
                           f"{who.en}, not {name.en}, won a trick with a pink card.", seat=record.winner)
    return (1 if last or not _in_hands(state, lambda c: suit(c) == "P") else 0), None


def _omega_last(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 48: every task done before the last trick fails it."""
    result, reason = tasks_outcome(state, last)
    if result == 1 and not last:
        return -1, _reason("omega_early", "마지막 트릭 전에 과제가 모두 끝났습니다 (Ω는 마지막 트릭에서).",
                           "Every task was done before the last trick (Ω belongs to the last trick).")
    return result, reason


def _roles(state: CrewState, record: TrickRecord, last: bool) -> Check:
    """Mission 50: X wins tricks 1-4 and no other; Y wins the last trick and no other."""
    first4, last_one, k = state.special, state.special2, record.number
    who = _who(state, record.winner)
    if (k <= 4) != (record.winner == first4):
        x = _who(state, first4)
        return -1, _reason("roles_broken", f"{k}번째 트릭을 {josa(who.ko, '이/가')} 가져갔습니다: 처음 네 트릭은 {x.ko}만 가져갑니다.",
                           f"{who.en} won trick {k}: the first four tricks, and only those, belong to {x.en}.",
                           seat=record.winner, trick=k)
    if last != (record.winner == last_one):
        y = _who(state, last_one)
        return -1, _reason("roles_broken", f"{k}번째 트릭을 {josa(who.ko, '이/가')} 가져갔습니다: 마지막 트릭은 {y.ko}만 가져갑니다.",
                           f"{who.en} won trick {k}: the last trick, and only that one, belongs to {y.en}.",
                           seat=record.winner, trick=k)
    return (1 if last else 0), None


_SPECIAL_CHECKS = {
    SICK: _sick,
    ONES: _ones,
    EACH_ROCKET: _rockets,
    ROCKETS_IN_ORDER: _rockets,
    NO_NINE: _no_nine,
    BALANCED: _balanced_check,
    BALANCED_COMMANDER: _balanced_check,
    VOLUNTEER: _volunteer,
    FIRST_AND_LAST: _first_and_last,
    PINK: _pink,
    OMEGA_LAST: _omega_last,
    ROLES: _roles,
}
