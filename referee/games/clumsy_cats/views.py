"""Clumsy Cats: what each audience sees (RULINGS.md "Clumsy Cats", secret and public).

- public: the map, every cat's cell, laps, tokens, points and penalties, whose turn, that a roll
  happened, the declaration, the call window and who may call, the call, the roll a call
  revealed, effects, the score track, the standings, a feed of what happened in words.
- seat n: the public part plus `mine`: the roll of its own current turn and its own past rolls.
- dealer: everything: the true roll (`secret`), every roll in `declarations`, the console's
  `panel` and the printable `sheets` (run sheet and score sheet).

An uncalled roll never leaves the roller and the dealer: no public or other-seat field holds it
or depends on it.
"""

from __future__ import annotations

from typing import Any

from referee.kernel import Audience, T, josa

from .decisions import turn
from .state import (
    BOON,
    BOONS,
    CAT_LABELS,
    CAUSE_LABELS,
    DECLARE,
    DIE_REFEREE,
    EFFECT_LABELS,
    EFFECT_SHORT,
    HARM,
    HARMS,
    KIND_LABELS,
    NEXT,
    NO_ACTION_TURNS,
    OVER,
    PENALTY_HARMFUL,
    PENALTY_LOSE_TURN,
    RESOLVE,
    TOILET_TURNS,
    TOKENS,
    WINDOW,
    CatsState,
    Declaration,
    X,
    boon_targets,
    call_bar,
    cat_of,
    declaration_label,
    eligible_callers,
    face_label,
    is_bluff,
    owed_effect,
    plan,
    points,
    seat_label,
    standings,
    tokens_of,
)
from .text import describe

Text = dict[str, str]
RECENT_CALLS = 8


def _t(ko: str, en: str) -> Text:
    return {"ko": ko, "en": en}


def view(state: CatsState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    board = state.board
    window = state.step == WINDOW
    callers = eligible_callers(state) if window else ()
    cats = []
    for s in range(state.seats):
        cell = state.cells[s]
        trapped = state.toilet[s]
        cats.append({
            "seat": s,
            "name": state.names[s],
            "cat": cat_of(s),
            "cat_label": CAT_LABELS[cat_of(s)].to_json(),
            "cell": cell,
            "cell_label": board.label(cell).to_json(),
            "steps": board.steps_of(cell),
            "laps": state.laps[s],
            "tokens": list(tokens_of(state, s)),
            "points": points(state, s),
            "toilet": None if trapped is None else {"used": trapped, "left": TOILET_TURNS - trapped},
            "no_action": state.no_action[s],
            "island": state.island[s],
            "lost": state.lost[s],
            "called_last": state.last_caller == s,
            "may_call": s in callers,
            "call_bar": call_bar(state, s) if window else None,
        })
    nxt = plan(state) if state.step == NEXT else None
    out: dict[str, Any] = {
        "map": board.to_json(),
        "options": {"die": state.die, "failed_call_penalty": state.failed_call, "island_turns": state.island_turns},
        "step": state.step,
        "turn": {
            # While the next roll is owed (the dealer enters it), the seat about to roll.
            "number": state.turn_no + 1 if nxt else state.turn_no,
            "seat": nxt.seat if nxt else state.seat,
            "extra": nxt.extra if nxt else state.extra,
            "toilet": state.toilet[nxt.seat] is not None if nxt else state.toilet_turn,
            "from": state.cells[nxt.seat] if nxt else state.from_cell,
            "rolled": nxt is None and state.step != OVER,
            "declared": state.declared,
            "window": window,
            "callers": list(callers),
            "caller": state.caller,
        },
        "cats": cats,
        "effect": _effect(state),
        "track": _track(state),
        "tokens_left": TOKENS - len(state.taken),
        "declarations": [_declaration(d, audience) for d in state.declarations[-RECENT_CALLS:]],
        "last_move": _last_move(state),
        "feed": [text.to_json() for kind, data in state.recent if (text := describe({"type": kind, **data}, state.names))],
        "standings": [{"seat": s, "rank": rank, "points": p} for s, rank, p in standings(state)],
        "over": state.step == OVER,
    }
    if audience.kind == "seat" and audience.seat is not None and 0 <= audience.seat < state.seats:
        out["mine"] = _mine(state, audience.seat)
    if dealer:
        out["secret"] = {"roll": current_roll(state), "bluff": _bluff_now(state)}
        out["panel"] = panel(state)
        out["sheets"] = {"run_sheet": run_sheet(state), "score_sheet": score_sheet(state)}
    return out


def _last_move(state: CatsState) -> dict[str, Any] | None:
    if state.last_move is None:
        return None
    seat, start, steps, ended = state.last_move
    return {"seat": seat, "from": start, "steps": steps, "path": state.board.path(start, steps, ended)}


def _mine(state: CatsState, seat: int) -> dict[str, Any]:
    own = [d for d in state.declarations if d.seat == seat]
    return {
        "seat": seat,
        # Cats rule 1: the roller alone sees the roll (its own current turn).
        "roll": current_roll(state) if state.seat == seat else None,
        "must_bluff": state.seat == seat and state.roll == X and not state.toilet_turn and state.step == DECLARE,
        "rolls": [{"turn": d.turn, "roll": d.roll, "declared": d.declared, "toilet": d.toilet, "caller": d.caller,
                   "bluff": d.bluff} for d in own[-RECENT_CALLS:]],
    }


def current_roll(state: CatsState) -> int | str | None:
    """The roll of the turn in progress (secret: the roller and the dealer)."""
    return state.roll if state.step in (DECLARE, WINDOW, RESOLVE) else None


def _bluff_now(state: CatsState) -> bool | None:
    if current_roll(state) is None or state.declared is None:
        return None
    return is_bluff(state.roll, state.declared, state.toilet_turn)


def _declaration(d: Declaration, audience: Audience) -> dict[str, Any]:
    out: dict[str, Any] = {"turn": d.turn, "seat": d.seat, "toilet": d.toilet, "declared": d.declared, "caller": d.caller}
    # Cats rule 1: a roll becomes public only when a call reveals it.
    if d.caller is not None or audience.sees_seat(d.seat):
        out["roll"] = d.roll
        out["bluff"] = d.bluff
    return out


def _effect(state: CatsState) -> dict[str, Any] | None:
    e = owed_effect(state)
    if e is None:
        return None
    out: dict[str, Any] = {"seat": e.seat, "kind": e.kind, "kind_label": KIND_LABELS[e.kind].to_json(), "cause": e.cause,
                           "cause_label": CAUSE_LABELS[e.cause].to_json(), "face": e.face, "effect": e.name,
                           "label": EFFECT_LABELS[(e.kind, e.name)].to_json() if e.name else None,
                           "short": EFFECT_SHORT[(e.kind, e.name)].to_json() if e.name else None,
                           "rearmost": list(e.rearmost), "chooser": e.chooser, "targets": None}
    if e.kind == BOON and e.name in ("swap", "to_start", "to_toilet", "extra_roll"):
        out["targets"] = list(boon_targets(state, e.seat, e.name))
    return out


def _track(state: CatsState) -> list[dict[str, Any]]:
    taken = {t.token: t for t in state.taken}
    return [{"token": n, "seat": taken[n].seat if n in taken else None, "turn": taken[n].turn if n in taken else None}
            for n in range(1, TOKENS + 1)]


# -- the dealer's panel ---------------------------------------------------------------------------


def _cell(text: T, tone: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = text.to_json()
    if tone:
        out["tone"] = tone
    return out


def _who(state: CatsState, seat: int) -> T:
    return seat_label(state, seat)


def _status(state: CatsState, s: int) -> T:
    parts_ko, parts_en = [], []
    if state.toilet[s] is not None:
        parts_ko.append(f"화장실 {state.toilet[s]}/{TOILET_TURNS}턴 사용")
        parts_en.append(f"toilet, {state.toilet[s]}/{TOILET_TURNS} turns used")
    if state.no_action[s]:
        parts_ko.append(f"행동 불가 {state.no_action[s]}턴 남음")
        parts_en.append(f"no action, {state.no_action[s]} turns left")
    if state.island[s]:
        parts_ko.append(f"무인도 {state.island[s]}턴 남음")
        parts_en.append(f"island, {state.island[s]} turns left")
    if state.lost[s]:
        parts_ko.append(f"다음 턴 쉼 {state.lost[s]}")
        parts_en.append(f"loses {state.lost[s]} turn(s)")
    return T(", ".join(parts_ko) or "—", ", ".join(parts_en) or "—")


BAR_TEXT = {
    "roller": T("굴린 사람", "the roller"),
    "toilet": T("화장실", "in the toilet"),
    "no_action": T("행동 불가", "no action"),
    "called_last": T("지난 턴 지적", "called last turn"),
}


def _waiting(state: CatsState) -> T:
    decisions = [d for d in turn(state).decisions]
    if state.step == OVER:
        return T("경기 종료", "Match over")
    if not decisions:
        return T("—", "—")
    d = decisions[0]
    if d.auto:
        return T(f"자동: {d.prompt.ko}", f"automatic: {d.prompt.en}")
    if d.seat is None:
        return T(f"딜러: {d.prompt.ko}", f"dealer: {d.prompt.en}")
    if state.step == WINDOW:
        return T("거짓말 지적 또는 딜러가 지적 시간 닫기", "a call, or the dealer closes the window")
    who = _who(state, d.seat)
    return T(f"{who.ko}: {d.prompt.ko}", f"{who.en}: {d.prompt.en}")


def panel(state: CatsState) -> list[dict[str, Any]]:
    board = state.board
    nxt = plan(state) if state.step == NEXT else None
    seat = nxt.seat if nxt else state.seat
    number = state.turn_no + 1 if nxt else state.turn_no
    who = _who(state, seat)
    now: list[list[Any]] = [[_t("항목", "Item"), _t("내용", "Value")]]
    extra = T(" (추가 굴림)", " (extra roll)") if (nxt.extra if nxt else state.extra) else T("", "")
    toilet = T(" · 화장실 턴", " · toilet turn") if (state.toilet[seat] is not None if nxt else state.toilet_turn) \
        else T("", "")
    now.append([_t("차례", "Turn"), _cell(T(f"{number}턴 {who.ko}{extra.ko}{toilet.ko}",
                                            f"turn {number}: {who.en}{extra.en}{toilet.en}"), "now")])
    if nxt and nxt.skips:
        skipped = ", ".join(_who(state, s).ko for s, _, _ in nxt.skips)
        skipped_en = ", ".join(_who(state, s).en for s, _, _ in nxt.skips)
        now.append([_t("건너뛰는 차례", "Turns skipped"), _cell(T(skipped, skipped_en), "bad")])
    roll = face_label(current_roll(state)) if current_roll(state) is not None else T("아직 굴리지 않음", "not rolled yet")
    now.append([_t("진짜 주사위 (비밀)", "True roll (secret)"), _cell(roll, "secret")])
    if state.declared is not None and current_roll(state) is not None:
        bluff = _bluff_now(state)
        now.append([_t("선언", "Declared"), _cell(declaration_label(state.declared))])
        now.append([_t("블러핑?", "Bluff?"), _cell(T("예: 블러핑", "yes: a bluff") if bluff else T("아니오: 진실", "no: the truth"),
                                                  "bad" if bluff else "good")])
    if state.step == WINDOW:
        may = [_who(state, s) for s in eligible_callers(state)]
        barred = [T(f"{_who(state, s).ko} ({BAR_TEXT[b].ko})", f"{_who(state, s).en} ({BAR_TEXT[b].en})")
                  for s in range(state.seats) if s != state.seat and (b := call_bar(state, s)) is not None]
        now.append([_t("지적 가능", "May call"), _cell(T(", ".join(w.ko for w in may) or "없음", ", ".join(w.en for w in may) or "nobody"),
                                                   "now")])
        if barred:
            now.append([_t("지적 불가", "May not call"), _cell(T(", ".join(b.ko for b in barred), ", ".join(b.en for b in barred)))])
    if state.extra_next is not None:
        nxt = _who(state, state.extra_next)
        now.append([_t("다음: 추가 굴림", "Next: extra roll"), _cell(nxt)])
    now.append([_t("기다리는 것", "Waiting for"), _cell(_waiting(state), "now")])
    now.append([_t("남은 점수 토큰", "Tokens left"), str(TOKENS - len(state.taken))])
    sections: list[dict[str, Any]] = [{"heading": _t("지금", "Now"), "table": now}]

    cats: list[list[Any]] = [[_t("자리", "Seat"), _t("고양이", "Cat"), _t("칸", "Cell"), _t("출발에서", "Steps"),
                              _t("바퀴", "Laps"), _t("토큰", "Tokens"), _t("점수", "Points"), _t("벌칙·상태", "Penalties")]]
    for s in range(state.seats):
        cats.append([
            _cell(_who(state, s), "now" if s == seat else None),
            _cell(CAT_LABELS[cat_of(s)]),
            _cell(board.label(state.cells[s])),
            str(board.steps_of(state.cells[s])),
            str(state.laps[s]),
            ", ".join(str(t) for t in tokens_of(state, s)) or "—",
            str(points(state, s)),
            _cell(_status(state, s), "bad" if _status(state, s).ko != "—" else None),
        ])
    sections.append({"heading": _t("고양이", "Cats"), "table": cats})

    e = owed_effect(state)
    if e is not None:
        rows: list[list[Any]] = [[_t("항목", "Item"), _t("내용", "Value")]]
        rows.append([_t("누구", "Whose"), _cell(_who(state, e.seat))])
        rows.append([_t("종류", "Kind"), _cell(T(f"{KIND_LABELS[e.kind].ko} ({CAUSE_LABELS[e.cause].ko})",
                                                f"{KIND_LABELS[e.kind].en} ({CAUSE_LABELS[e.cause].en})"),
                                              "good" if e.kind == BOON else "bad")])
        if e.face is not None and e.name is not None:
            label = EFFECT_LABELS[(e.kind, e.name)]
            rows.append([_t("효과 주사위", "Effect die"), _cell(T(f"{face_label(e.face).ko}: {label.ko}",
                                                                f"{face_label(e.face).en}: {label.en}"))])
        if e.rearmost:
            rows.append([_t("가장 뒤처진 고양이", "Rearmost"), _cell(T(", ".join(_who(state, s).ko for s in e.rearmost),
                                                                 ", ".join(_who(state, s).en for s in e.rearmost)))])
        sections.append({"heading": _t("효과 처리 중", "Effect in progress"), "table": rows})

    calls: list[list[Any]] = [[_t("턴", "Turn"), _t("자리", "Seat"), _t("주사위", "Roll"), _t("선언", "Declared"),
                               _t("지적", "Called by"), _t("결과", "Outcome")]]
    for d in reversed(state.declarations[-RECENT_CALLS:]):
        if d.caller is None:
            outcome = T("지적 없음 (주사위 비공개)", "not called (roll stays secret)")
            tone = None
        elif d.bluff:
            outcome, tone = T("블러핑 적발", "bluff caught"), "bad"
        else:
            outcome, tone = T("지적 실패", "wrong call"), "good"
        calls.append([str(d.turn), _cell(_who(state, d.seat)), _cell(face_label(d.roll), "secret"),
                      _cell(declaration_label(d.declared)),
                      _cell(_who(state, d.caller)) if d.caller is not None else "—", _cell(outcome, tone)])
    sections.append({"heading": _t("최근 선언", "Recent declarations"), "table": calls})
    return sections


# -- printable sheets (dealer only) ----------------------------------------------------------------


def _options_text(state: CatsState) -> list[Text]:
    die = _t("주사위: 심판 프로그램이 굴림 (referee)", "Die: rolled by the referee (referee)") if state.die == DIE_REFEREE \
        else _t("주사위: 실물 주사위를 딜러가 입력 (dealer)", "Die: a physical die entered by the dealer (dealer)")
    penalty = {
        "none": _t("지적 실패 벌칙: 없음", "Failed call penalty: none"),
        PENALTY_HARMFUL: _t("지적 실패 벌칙: 틀리게 지적한 사람이 해로운 효과 주사위를 굴림",
                            "Failed call penalty: a wrong caller rolls a harmful effect"),
        PENALTY_LOSE_TURN: _t("지적 실패 벌칙: 틀리게 지적한 사람은 다음 턴을 쉼",
                              "Failed call penalty: a wrong caller loses the next turn"),
    }[state.failed_call]
    island = _t(f"무인도: {state.island_turns}턴 쉼", f"Desert island: loses {state.island_turns} turn(s)")
    return [die, penalty, island]


def run_sheet(state: CatsState) -> dict[str, Any]:
    board = state.board
    seats: list[list[Any]] = [[_t("순서", "Order"), _t("이름", "Name"), _t("고양이 말", "Cat piece")]]
    for s in range(state.seats):
        seats.append([str(s + 1), state.names[s], CAT_LABELS[cat_of(s)].to_json()])
    if state.die == DIE_REFEREE:
        die = [
            _t("주사위는 심판 프로그램이 굴립니다. 굴린 사람의 휴대폰에만 크게 보입니다 (딜러 콘솔에도 보임).",
               "The referee rolls the die; only the roller's phone shows it (and the dealer console)."),
            _t("효과 주사위(발자국, 블러핑 적발)도 프로그램이 굴리고 모두에게 공개합니다.",
               "The effect die (footprints, caught bluffs) is rolled by the referee too, in the open."),
        ]
    else:
        die = [
            _t("굴리는 사람이 원통에 주사위를 넣고 흔들어 뒤집습니다. 딜러가 다른 사람이 보지 못하게 눈을 확인하고 콘솔에 입력합니다.",
               "The roller shakes the die in the cup and turns it over; the dealer reads it hidden from the others "
               "and enters it in the console."),
            _t("6면체 주사위를 쓰면 5와 6은 X로 입력합니다.", "With an ordinary d6, enter 5 and 6 as X."),
            _t("효과 주사위는 모두가 보는 앞에서 굴리고 콘솔에 입력합니다.", "Effect dice are rolled in the open and entered in the console."),
        ]
    steps = [
        _t("1. 굴린 사람은 1-4 중 하나를 선언합니다 (X가 나왔으면 반드시 블러핑). 화장실에서는 'X' 또는 'X 아님'.",
           "1. The roller declares 1-4 (on an X a bluff is a must). In the toilet: 'X' or 'no X'."),
        _t("2. 다른 사람은 휴대폰의 '거짓말!' 버튼으로 지적합니다. 먼저 누른 한 명만 인정됩니다. 아무도 안 누르면 딜러가 "
           "지적 시간을 닫습니다.",
           "2. The others may press 'Liar!' on their phones; only the first counts. If nobody does, the dealer "
           "closes the window."),
        _t("3. 지적할 수 없는 사람: 굴린 사람, 지난 턴에 지적한 사람, 화장실에 갇힌 사람, 행동 불가 중인 사람.",
           "3. May not call: the roller, the seat that called last turn, a cat trapped in the toilet, a seat in a "
           "no-action penalty."),
        _t("4. 블러핑 적발: 그 자리에 머물고 해로운 효과. 지적 실패 또는 지적 없음: 선언한 수만큼 이동.",
           "4. Bluff caught: the cat stays and takes a harmful effect. Wrong call or no call: it moves the "
           "declared number."),
        _t("5. 갈림길: 홀수 선언은 위, 짝수 선언은 아래. 출발 칸에 들어가면 한 바퀴: 다음 점수 토큰을 받고 남은 칸을 "
           "계속 갑니다.",
           "5. Fork: an odd declaration goes up, an even one down. Entering the start completes a lap: take the "
           "next score token and walk on."),
        _t(f"6. 화장실에 정확히 도착하면 최대 {TOILET_TURNS}턴 갇힙니다. X 선언이 통하면 다음 턴에 탈출합니다.",
           f"6. Landing exactly on the toilet traps the cat for up to {TOILET_TURNS} turns; an uncaught X frees it "
           "for the next turn."),
        _t(f"7. 점수 토큰 {josa(f'1-{TOKENS}', '을/를')} 모두 가져가면 즉시 게임이 끝나고 점수가 높은 사람이 이깁니다.",
           f"7. When all {TOKENS} score tokens are taken, the game ends at once; most points wins."),
    ]
    effects: list[list[Any]] = [[_t("눈", "Face"), _t("이로운 효과 (파란 발자국, 안 써도 됨)", "Beneficial (blue, may decline)"),
                                 _t("해로운 효과 (붉은 발자국, 블러핑 적발)", "Harmful (red, bluff caught)")]]
    for face in (1, 2, 3, 4, X):
        effects.append([str(face), EFFECT_LABELS[(BOON, BOONS[face])].to_json(), EFFECT_LABELS[(HARM, HARMS[face])].to_json()])
    cells: list[list[Any]] = [[_t("칸", "Cell"), _t("이름", "Name"), _t("종류", "Kind"), _t("출발에서", "Steps"),
                               _t("다음", "Next")]]
    kinds = {"start": _t("출발", "start"), "toilet": _t("화장실", "toilet"), "island": _t("무인도", "island"),
             "blue": _t("파란 발자국", "blue footprint"), "red": _t("붉은 발자국", "red footprint"),
             "fork": _t("갈림길", "fork"), "plain": ""}
    for c in board.cells:
        nxt = f"홀수→{c.up} / 짝수→{c.down}" if c.fork else str(c.next)
        cells.append([c.id, c.label.to_json(), kinds[board.kind(c.id)], str(board.steps_of(c.id)), nxt])
    map_text = [_t(f"맵: {board.name.ko} (한 바퀴 {board.lap_length()}칸)", f"Map: {board.name.en} ({board.lap_length()} steps a lap)")]
    if board.note:
        map_text.append(board.note.to_json())
    return {
        "title": _t("진행 시트: 우당탕탕 고양이들", "Run sheet: Clumsy Cats"),
        "sections": [
            {"heading": _t("준비", "Setup"),
             "paragraphs": [_t("구성품: 주사위(1-4, X 두 면), 원통, 맵, 고양이 말, 점수 트랙 1-10. 모든 고양이는 출발 칸에서 시작합니다.",
                               "Components: the die (1-4 and two X), the cup, the map, the cat pieces, the score track 1-10. "
                               "Every cat starts on the start cell."),
                            *_options_text(state)],
             "table": seats},
            {"heading": _t("주사위 규칙 (딜러용)", "The die (for the dealer)"), "paragraphs": die},
            {"heading": _t("한 턴", "A turn"), "paragraphs": steps},
            {"heading": _t("효과 주사위", "Effect dice"),
             "paragraphs": [_t(f"행동 불가는 다음 {NO_ACTION_TURNS}턴을 건너뛰고 그동안 지적도 못 합니다. 가장 뒤처진 고양이가 여럿이면 "
                               "딜러가 정합니다.",
                               f"No action skips the next {NO_ACTION_TURNS} turns, with no calling meanwhile. If several "
                               "cats are rearmost, the dealer picks.")],
             "table": effects},
            {"heading": _t("맵", "The map"), "paragraphs": map_text, "table": cells},
        ],
    }


def score_sheet(state: CatsState) -> dict[str, Any]:
    taken = {t.token: t for t in state.taken}
    track: list[list[Any]] = [[_t("점수 토큰", "Token"), _t("가져간 자리", "Taken by"), _t("턴", "Turn")]]
    for n in range(1, TOKENS + 1):
        t = taken.get(n)
        track.append([str(n), seat_label(state, t.seat).to_json() if t else "", str(t.turn) if t else ""])
    rank = {s: r for s, r, _ in standings(state)}
    seats: list[list[Any]] = [[_t("자리", "Seat"), _t("이름", "Name"), _t("바퀴", "Laps"), _t("토큰", "Tokens"),
                               _t("점수", "Points"), _t("순위", "Rank"), _t("선언 · 적발 · 지적 성공/실패", "Declared · caught · calls right/wrong")]]
    for s in range(state.seats):
        own = [d for d in state.declarations if d.seat == s]
        caught = sum(1 for d in own if d.caller is not None and d.bluff)
        made = [d for d in state.declarations if d.caller == s]
        right = sum(1 for d in made if d.bluff)
        seats.append([str(s + 1), state.names[s], str(state.laps[s]), ", ".join(str(t) for t in tokens_of(state, s)) or "—",
                      str(points(state, s)), str(rank[s]) if state.step == OVER else "",
                      f"{len(own)} · {caught} · {right}/{len(made) - right}"])
    return {
        "title": _t("점수 기록지: 우당탕탕 고양이들", "Score sheet: Clumsy Cats"),
        "sections": [
            {"heading": _t("점수 트랙", "Score track"),
             "paragraphs": [_t("한 바퀴를 돌 때마다 다음 토큰: 첫 번째 1점, 다음 2점 … 10점. 10번째 토큰으로 게임 끝.",
                               "Each completed lap takes the next token: 1 point first, then 2, ... 10. The 10th ends the game.")],
             "table": track},
            {"heading": _t("자리별 점수", "Points by seat"),
             "paragraphs": [_t("같은 점수는 같은 순위입니다.", "Equal points share a place.")],
             "table": seats},
        ],
    }
