"""The Crew: what each audience sees (RULINGS.md "The Crew": hands are secret; tricks, tasks and
communicated cards with their token position are public, the position hidden in a dead zone).

- public: the mission (title, condition), the commander, every seat's hand size and tricks won,
  the tasks with token, holder and status (a face-down task shows only its token), the current
  trick and the tricks played, communicated cards, the commander's question and the answers,
  the chosen members, the distress vote and who has chosen a card, the outcome.
- seat n: the public part plus its own hand, the cards it may play now, the cards it may
  communicate now, its distress card and the card mission 12 moves from or to it.
- dealer: everything, plus the console's panel (every hand, the tasks, whose turn, the
  communications with the true token position) and the printable sheets (run sheet, logbook).
"""

from __future__ import annotations

from typing import Any

from referee.kernel import Audience, T, josa

from .cards import POSITION_SHORT, card_label, cards_text
from .decisions import phase_label, turn
from .missions import (
    MUTED,
    REPLY_LABELS,
    ROLE_LABELS,
    ROLE_LAST,
    ROLES,
    condition,
    headline,
    token_label,
)
from .state import (
    DEAL_REFEREE,
    DISTRESS_PASS,
    DONE,
    FAILED,
    LEFT,
    OVER,
    QUESTION,
    RANDOM_PASS,
    RIGHT,
    SUCCESS,
    VOTE_LABELS,
    CrewState,
    comm_options,
    comm_window_open,
    distributing,
    hand_sizes,
    legal_cards,
    may_communicate,
    next_answerer,
    seat_label,
    to_play,
    total_tricks,
)

Text = dict[str, str]


def _t(ko: str, en: str, tone: str | None = None) -> dict[str, str]:
    out = {"ko": ko, "en": en}
    if tone:
        out["tone"] = tone
    return out


def view(state: CrewState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    m = state.info
    out: dict[str, Any] = {
        "mission": {
            "id": m.id,
            "title": m.title.to_json(),
            "headline": headline(m).to_json(),
            "condition": condition(m, state.seats).to_json(),
            "tasks": m.tasks,
            "tokens": list(m.tokens),
            "dead_zone": m.dead_zone,
            "disruption": m.disruption,
            "assignment": m.assignment,
            "special": m.special,
        },
        "phase": state.phase,
        "phase_label": phase_label(state).to_json(),
        "status": state.status,
        "deal": state.deal_mode,
        "commander": state.commander,
        "tricks_total": total_tricks(state.seats),
        "trick_no": state.trick_no,
        "seats": [_seat(state, s, audience.sees_seat(s), dealer) for s in range(state.seats)],
        "tasks": [_task(state, i, dealer) for i in range(len(state.tasks))],
        "trick": {
            "number": state.trick_no,
            "leader": state.leader,
            "plays": [{"seat": s, "card": c} for s, c in state.trick],
            "to_play": to_play(state),
        },
        "history": [_record(r) for r in state.history],
        "question": _question(state),
        "roles": _roles(state),
        "handover": _handover(state),
        "distress": _distress(state),
        "comm_window": comm_window_open(state),
        "outcome": _outcome(state),
    }
    if dealer:
        out["panel"] = panel(state)
        out["sheets"] = {"run_sheet": run_sheet_doc(state), "logbook": logbook_doc(state)}
    return out


def _seat(state: CrewState, seat: int, mine: bool, dealer: bool) -> dict[str, Any]:
    shown = state.comm[seat]
    entry: dict[str, Any] = {
        "seat": seat,
        "name": state.names[seat],
        "hand_count": len(state.hands[seat]),
        "tricks_won": state.won[seat],
        "commander": seat == state.commander,
        "comm_used": state.comm_used[seat],
        "muted": seat == state.muted,
        "comm": None if shown is None else {"card": shown.card, "position": shown.position, "trick": shown.trick,
                                            "played": shown.played},
        "may_communicate": may_communicate(state, seat),
    }
    if mine:
        entry["hand"] = list(state.hands[seat])
        entry["legal"] = list(legal_cards(state, seat)) if to_play(state) == seat else []
        entry["comm_options"] = ([{"card": c, "position": p} for c, p in comm_options(state, seat).items()]
                                 if may_communicate(state, seat) else [])
        if state.phase == DISTRESS_PASS:
            card = state.distress_cards[seat]
            entry["distress_card"] = card or None
        if state.phase == RANDOM_PASS or state.random_passed:
            entry["random_pass"] = {"given": state.drawn[seat], "received": state.drawn[(seat - 1) % state.seats]}
    if (mine or dealer) and shown is not None:
        # The holder and the dealer know the position a dead zone hides.
        entry["comm"]["actual"] = shown.actual
    return entry


def _task(state: CrewState, index: int, dealer: bool) -> dict[str, Any]:
    t = state.tasks[index]
    visible = t.revealed or dealer
    return {
        "index": index,
        "card": t.card if visible else None,
        "revealed": t.revealed,
        "token": t.token,
        "owner": t.owner,
        "status": t.status,
        "trick": t.trick,
        "cause": t.cause,
    }


def _record(r: Any) -> dict[str, Any]:
    return {"number": r.number, "leader": r.leader, "plays": [{"seat": s, "card": c} for s, c in r.plays],
            "winner": r.winner, "card": r.card}


def _question(state: CrewState) -> dict[str, Any] | None:
    m = state.info
    if m.question is None or state.commander is None:
        return None
    index = distributing(state)
    return {
        "text": m.question.to_json(),
        "replies": {r: REPLY_LABELS[r].to_json() for r in m.replies},
        "answers": [state.answers[s] for s in range(state.seats)],
        "next": next_answerer(state) if state.phase == QUESTION else None,
        "task": index,
        "open": state.phase == QUESTION,
    }


def _roles(state: CrewState) -> dict[str, Any]:
    m = state.info
    out: dict[str, Any] = {"special": state.special, "special2": state.special2, "muted": state.muted}
    if m.special == ROLES:
        out["labels"] = {"special": ROLE_LABELS[50].to_json(), "special2": ROLE_LAST.to_json()}
    elif m.id in ROLE_LABELS:
        out["labels"] = {"special": ROLE_LABELS[m.id].to_json()}
    return out


def _handover(state: CrewState) -> dict[str, Any] | None:
    if state.phase != "handover" and state.handover is None:
        return None
    p = state.proposal
    return {
        "open": state.phase == "handover",
        "proposal": None if p is None else {"seat": p.seat, "task": p.task, "card": state.tasks[p.task].card, "to": p.to},
        "passed": list(state.handover_passed),
        "confirmed": list(state.confirmed),
        "done": state.handover,
    }


def _distress(state: CrewState) -> dict[str, Any]:
    return {
        "votes": list(state.distress_votes),
        "owing": list(state.distress_owing),
        "direction": state.distress,
        "used": state.distress in (LEFT, RIGHT),
        "chosen": [c is not None for c in state.distress_cards] if state.phase == DISTRESS_PASS else None,
    }


def _outcome(state: CrewState) -> dict[str, Any] | None:
    if state.phase != OVER:
        return None
    ended = state.outcome or {}
    return {"success": state.status == SUCCESS, "trick": ended.get("trick"), "reason": ended.get("reason")}


# -- the dealer's panel ------------------------------------------------------------------------------


def _who(state: CrewState, seat: int | None) -> Text:
    if seat is None:
        return _t("—", "—")
    return seat_label(state.names, seat).to_json()


def waiting_text(state: CrewState) -> Text:
    """What the table waits for now, in words."""
    decisions = [d for d in turn(state).decisions if not d.auto]
    if state.phase == OVER:
        return _t("미션 종료", "Mission over", "now")
    if not decisions:
        return _t("자동 진행 중", "The referee is stepping", "now")
    parts_ko, parts_en = [], []
    talkers = sorted({d.seat for d in decisions if d.move in ("communicate", "skip_communication") and d.seat is not None})
    for d in decisions:
        if d.move in ("communicate", "skip_communication"):
            continue
        who = seat_label(state.names, d.seat).to_json() if d.seat is not None else {"ko": "딜러", "en": "dealer"}
        parts_ko.append(f"{who['ko']}: {d.prompt.ko}")
        parts_en.append(f"{who['en']}: {d.prompt.en}")
    if talkers:
        names = [seat_label(state.names, s) for s in talkers]
        parts_ko.append("첫 카드 전 소통 가능: " + ", ".join(n.ko for n in names))
        parts_en.append("May communicate before the first card: " + ", ".join(n.en for n in names))
    return _t(" / ".join(parts_ko), " / ".join(parts_en), "now")


def _status_cell(status: str) -> Text:
    if status == DONE:
        return _t("완료", "done", "good")
    if status == FAILED:
        return _t("실패", "failed", "bad")
    return _t("진행 중", "open")


def _task_rows(state: CrewState) -> list[list[Any]]:
    rows: list[list[Any]] = [[_t("#", "#"), _t("토큰", "Token"), _t("과제 카드", "Task card"), _t("맡은 대원", "Holder"),
                              _t("상태", "Status"), _t("트릭", "Trick")]]
    for i, t in enumerate(state.tasks):
        card = card_label(t.card).to_json()
        if not t.revealed:
            card = {**card, "tone": "secret"}
        rows.append([str(i + 1), token_label(t.token).to_json() if t.token else "", card, _who(state, t.owner),
                     _status_cell(t.status), str(t.trick) if t.trick else ""])
    return rows


def _comm_text(state: CrewState, seat: int) -> Any:
    shown = state.comm[seat]
    if shown is None:
        if seat == state.muted:
            return _t("소통 금지", "muted", "bad")
        return _t("아직 안 함", "not yet")
    pos = POSITION_SHORT[shown.actual or shown.position]
    label = card_label(shown.card)
    played = " · 냄" if shown.played else ""
    played_en = " · played" if shown.played else ""
    return _t(f"{label.ko} · {pos.ko}{played}", f"{label.en} · {pos.en}{played_en}")


def panel(state: CrewState) -> list[dict[str, Any]]:
    m = state.info
    sections: list[dict[str, Any]] = []
    status = []
    if state.phase == OVER:
        ended = state.outcome or {}
        if state.status == SUCCESS:
            status.append(_t(f"미션 성공 ({ended.get('trick')}번째 트릭)", f"Mission accomplished (trick {ended.get('trick')})",
                             "good"))
        else:
            reason = ended.get("reason") or {}
            status.append(_t(f"미션 실패 ({state.failed_at}번째 트릭): {reason.get('ko', '')}",
                             f"Mission failed (trick {state.failed_at}): {reason.get('en', '')}", "bad"))
    sections.append({
        "heading": _t(f"{m.title.ko}: {headline(m).ko}", f"{m.title.en}: {headline(m).en}"),
        "paragraphs": [condition(m, state.seats).to_json(), phase_label(state).to_json(), waiting_text(state), *status],
    })
    hands: list[list[Any]] = [[_t("자리", "Seat"), _t("손패 (비밀)", "Hand (secret)"), _t("장수", "Cards"),
                               _t("가져간 트릭", "Tricks won"), _t("역할", "Role"), _t("소통", "Communication")]]
    for s in range(state.seats):
        role = []
        if s == state.commander:
            role.append(T("사령관", "commander"))
        if s == state.special and m.id in ROLE_LABELS:
            role.append(ROLE_LABELS[m.id])
        if s == state.special2:
            role.append(ROLE_LAST)
        if s == state.muted and m.special == MUTED:
            role.append(ROLE_LABELS[11])
        if s == to_play(state):
            role.append(T("차례", "to play"))
        role_cell: Any = _t(", ".join(r.ko for r in role), ", ".join(r.en for r in role), "now" if s == to_play(state) else None)
        hand = cards_text(state.hands[s])
        hands.append([_who(state, s), {"ko": hand.ko, "en": hand.en, "tone": "secret"}, str(len(state.hands[s])),
                      str(state.won[s]), role_cell, _comm_text(state, s)])
    sections.append({"heading": _t("손패와 자리", "Hands and seats"), "table": hands})
    if state.tasks:
        sections.append({"heading": _t("과제", "Tasks"), "table": _task_rows(state)})
    trick_paragraphs = []
    if state.trick or state.phase == "play":
        plays = ", ".join(f"{seat_label(state.names, s).ko} {card_label(c).ko}" for s, c in state.trick) or "아직 없음"
        plays_en = ", ".join(f"{seat_label(state.names, s).en} {card_label(c).en}" for s, c in state.trick) or "none yet"
        trick_paragraphs.append(_t(f"{state.trick_no}번째 트릭: {plays}", f"Trick {state.trick_no}: {plays_en}", "now"))
    if state.history:
        r = state.history[-1]
        trick_paragraphs.append(_t(f"직전 트릭 {r.number}: {josa(seat_label(state.names, r.winner).ko, '이/가')} {josa(card_label(r.card).ko, '으로/로')} 가져감",
                                   f"Last trick {r.number}: {seat_label(state.names, r.winner).en} won with "
                                   f"{card_label(r.card).en}"))
    if state.distress is not None and state.phase not in ("distress_vote", DISTRESS_PASS):
        used = {LEFT: T("왼쪽으로 사용", "used, to the left"), RIGHT: T("오른쪽으로 사용", "used, to the right")}
        d = used.get(state.distress, T("사용 안 함", "not used"))
        trick_paragraphs.append(_t(f"조난 신호: {d.ko}", f"Distress signal: {d.en}"))
    if state.phase in ("distress_vote", DISTRESS_PASS):
        votes = ", ".join(f"{seat_label(state.names, s).ko} {VOTE_LABELS[v].ko if v else '—'}"
                          for s, v in enumerate(state.distress_votes))
        votes_en = ", ".join(f"{seat_label(state.names, s).en} {VOTE_LABELS[v].en if v else '—'}"
                             for s, v in enumerate(state.distress_votes))
        trick_paragraphs.append(_t(f"조난 신호 투표: {votes}", f"Distress vote: {votes_en}"))
        if state.phase == DISTRESS_PASS:
            chosen = ", ".join(f"{seat_label(state.names, s).ko} {card_label(c).ko if c else '고르는 중'}"
                               for s, c in enumerate(state.distress_cards))
            trick_paragraphs.append(_t(f"넘길 카드: {chosen}", f"Cards to pass: {chosen}", "secret"))
    if trick_paragraphs:
        sections.append({"heading": _t("지금 트릭", "Current trick"), "paragraphs": trick_paragraphs})
    if state.seats == 3 and state.extra_seat is not None:
        sections.append({"heading": _t("3인: 14장 자리", "3 players: the 14-card seat"), "paragraphs": [
            _t(f"{josa(seat_label(state.names, state.extra_seat).ko, '이/가')} 14장을 받았습니다. 마지막에 한 장이 남습니다 (비밀).",
               f"{seat_label(state.names, state.extra_seat).en} holds 14 cards; one stays unplayed (secret).", "secret")]})
    return sections


# -- printable sheets (dealer only) ----------------------------------------------------------------


def _mission_section(state: CrewState) -> dict[str, Any]:
    m = state.info
    return {"heading": _t(f"{m.title.ko}: {headline(m).ko}", f"{m.title.en}: {headline(m).en}"),
            "paragraphs": [condition(m, state.seats).to_json()]}


def run_sheet_doc(state: CrewState) -> dict[str, Any]:
    """The deal (what to hand whom), the mission's setup and condition."""
    m = state.info
    sizes = hand_sizes(state.seats, state.extra_seat)
    if state.deal_mode == DEAL_REFEREE:
        how = _t("심판 프로그램이 카드를 섞어 나눴습니다. 아래 표 그대로 나눠 주세요.",
                 "The referee shuffled and dealt: hand out exactly what the table says.")
    else:
        how = _t("딜러 분배: 40장을 섞어 모두 나눠 준 뒤, 각 자리의 카드를 콘솔에 입력하세요 (마지막 자리는 자동).",
                 "Dealer deal: shuffle the 40 cards, deal them all, then enter each seat's cards in the console "
                 "(the last seat is filled in by itself).")
    rows: list[list[Any]] = [[_t("자리", "Seat"), _t("장수", "Cards"), _t("카드", "Cards dealt"), _t("역할", "Role")]]
    for s in range(state.seats):
        hand = cards_text(state.hands[s]) if state.dealt[s] else T("", "")
        rows.append([_who(state, s), str(len(state.hands[s]) if state.dealt[s] else sizes[s]), hand.ko,
                     _t("사령관 (로켓 4)", "commander (rocket 4)") if s == state.commander else ""])
    tasks = {"heading": _t("과제 카드", "Task cards"), "paragraphs": [
        _t("토큰이 있는 과제는 뽑힌 순서대로 토큰을 올려 두세요.", "Put the tokens on the tasks in the order they were drawn.")],
        "table": _task_rows(state)}
    steps = [
        _t("1. 로켓 4를 가진 대원이 사령관입니다. 사령관이 첫 트릭을 이끕니다.",
           "1. The holder of rocket 4 is the commander and leads the first trick."),
        _t("2. 과제를 나눕니다 (사령관부터 시계 방향으로 한 장씩, 또는 미션이 정한 대로).",
           "2. Share out the tasks (commander first, clockwise, one at a time, or as the mission says)."),
        _t("3. 첫 트릭 전 조난 신호 투표: 모두 같은 방향에 동의하면 로켓이 아닌 카드 한 장씩을 그쪽으로 넘깁니다.",
           "3. Distress vote before trick 1: if all agree on a direction, each passes one non-rocket card that way."),
        _t("4. 트릭 시작 전(첫 카드 전)에만 소통할 수 있습니다. 미션당 한 번, 가장 높은/낮은/유일한 색 카드.",
           "4. Communicate only before a trick's first card: once per mission, a highest/lowest/only colour card."),
        _t("5. 같은 색을 따라 내야 합니다. 로켓이 으뜸패이고, 트릭을 이긴 대원이 다음 트릭을 이끕니다.",
           "5. Follow suit; rockets are trumps; the trick's winner leads the next."),
    ]
    if state.seats == 3:
        steps.append(_t("3인: 한 대원이 14장을 받고, 마지막에 한 장은 내지 않습니다 (13트릭).",
                        "3 players: one member holds 14 cards; one card is never played (13 tricks)."))
    sections = [
        _mission_section(state),
        {"heading": _t("자리별 카드", "Cards per seat"), "paragraphs": [how], "table": rows},
    ]
    if m.tasks:
        sections.append(tasks)
    sections.append({"heading": _t("진행", "How it runs"), "paragraphs": steps})
    return {"title": _t(f"진행 시트: 더 크루 {m.title.ko}", f"Run sheet: The Crew, {m.title.en}"), "sections": sections}


def logbook_doc(state: CrewState) -> dict[str, Any]:
    """The mission, its outcome and every trick, for the crew's logbook."""
    m = state.info
    paragraphs: list[Any] = []
    if state.phase == OVER:
        ended = state.outcome or {}
        if state.status == SUCCESS:
            paragraphs.append(_t(f"결과: 성공 ({ended.get('trick')}번째 트릭에서)", f"Outcome: accomplished (at trick "
                                 f"{ended.get('trick')})", "good"))
        else:
            reason = ended.get("reason") or {}
            paragraphs.append(_t(f"결과: 실패 ({state.failed_at}번째 트릭) — {reason.get('ko', '')}",
                                 f"Outcome: failed (trick {state.failed_at}) — {reason.get('en', '')}", "bad"))
    else:
        paragraphs.append(_t("결과: 진행 중 ________", "Outcome: in progress ________"))
    used = state.distress in (LEFT, RIGHT)
    paragraphs.append(_t(f"조난 신호: {'사용' if used else '사용 안 함'}", f"Distress signal: {'used' if used else 'not used'}"))
    paragraphs.append(_t(f"사령관: {_who(state, state.commander)['ko']}", f"Commander: {_who(state, state.commander)['en']}"))
    if state.handover:
        h = state.handover
        paragraphs.append(_t(f"과제 넘기기: {_who(state, h['from'])['ko']} → {_who(state, h['to'])['ko']} "
                             f"({card_label(state.tasks[h['task']].card).ko})",
                             f"Task handover: {_who(state, h['from'])['en']} → {_who(state, h['to'])['en']} "
                             f"({card_label(state.tasks[h['task']].card).en})"))
    tricks: list[list[Any]] = [[_t("트릭", "Trick"), _t("선", "Lead"), *(_who(state, s) for s in range(state.seats)),
                                _t("가져감", "Won by"), _t("과제", "Tasks")]]
    for r in state.history:
        by_seat = dict(r.plays)
        done = [t for t in state.tasks if t.trick == r.number]
        tasks_cell = ", ".join(f"{card_label(t.card).ko} {'완료' if t.status == DONE else '실패'}" for t in done)
        tricks.append([str(r.number), _who(state, r.leader), *(card_label(by_seat[s]).ko for s in range(state.seats)),
                       _who(state, r.winner), tasks_cell])
    for k in range(len(state.history) + 1, total_tricks(state.seats) + 1):
        if state.phase == OVER:
            break
        tricks.append([str(k), "", *("" for _ in range(state.seats)), "", ""])
    comms: list[list[Any]] = [[_t("자리", "Seat"), _t("소통한 카드", "Card communicated"), _t("트릭 전", "Before trick")]]
    for s in range(state.seats):
        shown = state.comm[s]
        comms.append([_who(state, s), _comm_text(state, s), str(shown.trick) if shown else ""])
    sections = [
        _mission_section(state),
        {"heading": _t("결과", "Outcome"), "paragraphs": paragraphs},
    ]
    if state.tasks:
        sections.append({"heading": _t("과제", "Tasks"), "table": _task_rows(state)})
    sections.append({"heading": _t("트릭 기록 (카드 이름은 한국어)", "Tricks (cards in Korean)"), "table": tricks})
    sections.append({"heading": _t("소통", "Communication"), "table": comms})
    return {"title": _t(f"항해 일지: 더 크루 {m.title.ko}", f"Logbook: The Crew, {m.title.en}"), "sections": sections}


__all__ = ["logbook_doc", "panel", "run_sheet_doc", "view", "waiting_text"]
