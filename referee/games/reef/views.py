"""Reef: what each audience sees (Reef rule 12), the dealer's panel and sheets, the log in words.

- public: every board (stacks bottom to top), the cards played beside each board, how many
  cards each seat holds, the display with the points on its cards, the deck's count, the supply
  left, whose turn, the colours that ran out, every scoring (card, matches, points) as it happens,
  and at the end the cards left in hand, the totals and the ranking.
- seat n: the public part plus its own hand (each card with what it scores on the board now), its
  point total and, while it places corals, what each open cell would score with the matches.
- dealer: everything (every hand and total, the deck's order in referee mode), plus ``panel`` (the
  console's summary) and ``sheets`` (the run sheet and the score sheet, printable).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.kernel import Audience, T, josa

from .cards import CARDS, COLOURS, colour_name, label, pattern_text
from .patterns import CENTRE, MAX_HEIGHT, cell_name, empty_cells, full_stacks, score
from .rules import ranking_key, result
from .state import (
    DEAL_REFEREE,
    DISPLAY,
    HAND_LIMIT,
    HAND_START,
    OVER,
    PLACE,
    SETUP,
    START_POINTS,
    SUPPLY,
    ReefState,
    Scored,
    dealt,
    deck_left,
    next_deal,
    previews,
)

Text = dict[str, str]


def view(state: ReefState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    over = state.step == OVER
    seats = []
    for seat in range(state.seats):
        board = state.boards[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "board": [list(stack) for stack in board],
            "started": state.started[seat],
            "hand_count": len(state.hands[seat]),
            "played": [_card(c) for c in state.played[seat]],
            "empty": empty_cells(board),
            "full": full_stacks(board),
        }
        if over or audience.sees_seat(seat):
            # Reef rule 12: a point total is the owner's and the dealer's until the end.
            entry["points"] = state.points[seat]
        if audience.sees_seat(seat):
            entry["hand"] = [{**_card(c), "now": score(CARDS[c], board).to_json()} for c in state.hands[seat]]
        seats.append(entry)
    out: dict[str, Any] = {
        "step": state.step,
        "deal": state.deal_mode,
        "round": state.round,
        "current": state.current if state.step not in (SETUP, OVER) and state.round else None,
        "colours": list(COLOURS),
        "supply": dict(zip(COLOURS, state.supply, strict=True)),
        "supply_start": SUPPLY[state.seats],
        "out": list(state.out),
        "last_round": bool(state.out),
        "deck": deck_left(state),
        "display": [{"slot": i, "card": _card(c) if c is not None else None, "tokens": state.tokens[i]}
                    for i, c in enumerate(state.display)],
        "hand_limit": HAND_LIMIT,
        "centre": list(CENTRE),
        "seats": seats,
        "playing": _playing(state),
        # The newest scoring and how many there have been (the projector's moment is a new
        # one): every scoring with every update grew each screen's payload to some 18 KB by the
        # end of a match (docs/performance.md); the whole list is in the log and the sheets.
        "scorings": len(state.scores),
        "last_score": _scored(state.scores[-1]) if state.scores else None,
        "end_reason": state.end_reason,
        "final": _final(state) if over else None,
    }
    if state.step == PLACE and audience.sees_seat(state.current):
        out["preview"] = _preview(state)
    if dealer:
        out["deck_order"] = list(state.deck)
        out["panel"] = panel(state)
        out["sheets"] = {"run_sheet": run_sheet(state), "score_sheet": score_sheet(state)}
    return out


def _card(card: int) -> dict[str, Any]:
    return dict(_card_json(card))


@lru_cache(maxsize=64)
def _card_json(card: int) -> dict[str, Any]:
    # Every view lists the played and scored cards; a card's words are worked out once.
    return CARDS[card].to_json()


def _scored(r: Scored) -> dict[str, Any]:
    return {"seat": r.seat, "card": _card(r.card), "count": r.count, "points": r.points,
            "matches": [list(m) for m in r.matches], "round": r.round, "from_hand": r.from_hand,
            "placed": list(r.placed)}


def _playing(state: ReefState) -> dict[str, Any] | None:
    if state.step != PLACE or state.card is None:
        return None
    return {"seat": state.current, "card": _card(state.card), "to_place": list(state.to_place),
            "placed": list(state.placed)}


def _preview(state: ReefState) -> dict[str, Any]:
    """What each coral choice would score (Reef rules 6-8): for each colour that may go now, each
    open cell with the points and the matches (the exact ones for the last coral, the best reachable
    ones for the first of two)."""
    assert state.card is not None
    card = CARDS[state.card]
    rows = previews(card, state.boards[state.current], state.to_place)
    return {
        "card": card.n,
        "colours": list(state.to_place),
        "last": len(state.to_place) == 1,
        "cells": {colour: [{"cell": cell, **s.to_json()} for cell, s in cells] for colour, cells in rows.items()},
    }


def _final(state: ReefState) -> dict[str, Any]:
    outcome = result(state)
    assert outcome is not None
    return {
        "points": list(state.points),
        "empty": [empty_cells(b) for b in state.boards],
        "full": [full_stacks(b) for b in state.boards],
        "ranking": [{"seat": s.seat, "rank": s.rank, "points": s.score} for s in outcome.standings],
        "decided_by": outcome.decided_by.to_json(),
        "hand_points": outcome.details["hand_points"],
    }


# -- words ----------------------------------------------------------------------------------------


def _t(ko: str, en: str) -> Text:
    return {"ko": ko, "en": en}


def _who(names: tuple[str, ...], seat: int) -> T:
    return T(f"{seat + 1}번 {names[seat]}", f"{seat + 1} {names[seat]}")


def _colours(colours: list[str]) -> T:
    if not colours:
        return T("없음", "none")
    return T("·".join(colour_name(c).ko for c in colours), " + ".join(colour_name(c).en for c in colours))


def _card_text(card: int) -> T:
    return label(CARDS[card])


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    """The log in words, for an event as one audience sees it (secret fields may be absent)."""
    kind = event["type"]
    who = _who(names, event["seat"]) if "seat" in event and event["seat"] is not None else T("", "")
    card = _card_text(event["card"]) if isinstance(event.get("card"), int) else None
    match kind:
        case "DeckShuffled":
            return T(f"카드 {event['cards']}장을 섞었습니다", f"The {event['cards']} cards were shuffled")
        case "CardDealt":
            if card is None:
                return T(f"{who.ko}: 카드 1장을 받음", f"{who.en} is dealt a card")
            return T(f"{who.ko}: 카드 1장을 받음 ({card.ko})", f"{who.en} is dealt {card.en}")
        case "DisplayFilled":
            assert card is not None
            return T(f"펼친 카드 {event['slot'] + 1}번 자리: {card.ko}", f"Display slot {event['slot'] + 1}: {card.en}")
        case "StartPlaced":
            placed = event["corals"]
            ko = ", ".join(f"{cell_name(p['cell'])} {colour_name(p['colour']).ko}" for p in placed)
            en = ", ".join(f"{cell_name(p['cell'])} {colour_name(p['colour']).en}" for p in placed)
            return T(f"{who.ko}: 시작 산호 {ko}", f"{who.en}: start corals {en}")
        case "TurnBegan":
            return T(f"{event['round']}라운드: {who.ko}의 차례", f"Round {event['round']}: {who.en} to play")
        case "CardTaken":
            assert card is not None
            bonus_ko = f" (+{event['tokens']}점)" if event["tokens"] else ""
            bonus_en = f" (+{event['tokens']} points)" if event["tokens"] else ""
            return T(f"{who.ko}: 펼친 카드 {card.ko} 가져감{bonus_ko}", f"{who.en}: took {card.en}{bonus_en}")
        case "PointPaid":
            assert card is not None
            return T(f"{who.ko}: 1점을 {card.ko} 위에 올리고 더미에서 뽑음",
                     f"{who.en} puts 1 point on {card.en} and draws from the deck")
        case "CardDrawn":
            if card is None:
                return T(f"{who.ko}: 더미 맨 위 카드를 받음", f"{who.en}: got the deck's top card")
            return T(f"{who.ko}: 더미 맨 위 카드를 받음 ({card.ko})", f"{who.en}: got the deck's top card ({card.en})")
        case "CardPlayed":
            assert card is not None
            corals = _colours(event["corals"])
            return T(f"{who.ko}: {card.ko} 사용, 산호 {corals.ko}", f"{who.en}: plays {card.en}, corals {corals.en}")
        case "CoralPlaced":
            c = colour_name(event["colour"])
            at = cell_name(event["cell"])
            return T(f"{who.ko}: {c.ko} 산호를 {at}에 ({event['height']}층)",
                     f"{who.en}: {c.en} coral on {at} ({event['height']} high)")
        case "CardScored":
            assert card is not None
            return T(f"{who.ko}: {card.ko} → {event['count']}개 일치, {event['points']}점",
                     f"{who.en}: {card.en} → {event['count']} matches, {event['points']} points")
        case "ColourRanOut":
            c = colour_name(event["colour"])
            last = _who(names, event["last_seat"])
            return T(f"{c.ko} 산호가 다 떨어졌습니다: {last.ko}까지 이번 라운드를 마치고 끝납니다",
                     f"The {c.en} corals ran out: the round is finished up to {last.en}")
        case "GameEnded":
            if event["reason"] == "deck":
                return T("더미가 비어 펼친 카드를 채울 수 없어 게임이 바로 끝납니다",
                         "The empty deck cannot refill the display: the game ends at once")
            return T("라운드가 끝나 게임이 끝납니다 (산호 소진)", "The round is over: the game ends (a coral ran out)")
        case "HandScored":
            cards = event["cards"]
            if not cards:
                return T(f"{who.ko}: 손에 남은 카드 없음", f"{who.en}: no cards left in hand")
            ko = ", ".join(f"#{c['card']} {c['points']}점" for c in cards)
            en = ", ".join(f"#{c['card']} {c['points']}" for c in cards)
            return T(f"{who.ko}: 손에 남은 카드 {ko} → {event['points']}점",
                     f"{who.en}: cards left in hand {en} → {event['points']} points")
        case "FinalScores":
            ko = ", ".join(f"{_who(names, s).ko} {p}점" for s, p in enumerate(event["points"]))
            en = ", ".join(f"{_who(names, s).en} {p}" for s, p in enumerate(event["points"]))
            return T(f"최종 점수: {ko}", f"Final points: {en}")
    return None


# -- the dealer's panel -----------------------------------------------------------------------------


def _seat_cell(state: ReefState, seat: int) -> str:
    return f"{seat + 1}번 {state.names[seat]}"


def _step_text(state: ReefState) -> T:
    who = _who(state.names, state.current)
    match state.step:
        case "setup":
            return T("준비: 카드 분배와 시작 산호", "Setup: the deal and the start corals")
        case "action":
            return T(f"{who.ko}의 차례: 카드 가져오기, 뽑기 또는 사용", f"{who.en} to play: take, draw or play a card")
        case "drawing":
            return T(f"{josa(who.ko, '이/가')} 더미에서 뽑는 중: 카드 번호 입력", f"{who.en} draws from the deck: enter the card")
        case "refill":
            return T(f"펼친 카드 {(state.slot or 0) + 1}번 자리 채우기: 카드 번호 입력",
                     f"Refill display slot {(state.slot or 0) + 1}: enter the card")
        case "place":
            left = _colours(list(state.to_place))
            return T(f"{who.ko}: 산호 놓는 중 (남은 산호 {left.ko})", f"{who.en} places corals ({left.en} left)")
        case "over":
            return T("경기 종료", "Match over")
    return T("게임 끝: 점수 계산", "Game over: scoring")


def panel(state: ReefState) -> list[dict[str, Any]]:
    """The console's summary of every secret (Reef rule 12): hands, totals, the deck, whose turn."""
    now = _step_text(state)
    paragraphs = [now.to_json()]
    if state.round:
        paragraphs.append(_t(f"{state.round}라운드", f"Round {state.round}"))
    if state.out:
        out = _colours(list(state.out))
        last = _who(state.names, state.seats - 1)
        paragraphs.append(_t(f"마지막 라운드: {out.ko} 소진, {last.ko}까지", f"Last round: {out.en} ran out, up to {last.en}"))
    supply = ", ".join(f"{colour_name(c).ko} {n}" for c, n in zip(COLOURS, state.supply, strict=True))
    supply_en = ", ".join(f"{colour_name(c).en} {n}" for c, n in zip(COLOURS, state.supply, strict=True))
    paragraphs.append(_t(f"더미 {deck_left(state)}장 · 산호 {supply}", f"Deck {deck_left(state)} · corals {supply_en}"))
    if state.step == SETUP:
        paragraphs.append(_setup_text(state).to_json())
    seats: list[list[Any]] = [[_t("자리", "Seat"), _t("손 카드 (비밀)", "Hand (secret)"), _t("점수 (비밀)", "Points (secret)"),
                               _t("빈칸", "Empty"), _t("4층", "4-high"), _t("사용한 카드", "Played")]]
    for seat in range(state.seats):
        turn_now = state.step not in (SETUP, OVER) and seat == state.current
        hand = [label(CARDS[c]) for c in state.hands[seat]]
        board = state.boards[seat]
        seats.append([
            {"ko": _seat_cell(state, seat), "en": f"{seat + 1} {state.names[seat]}", **({"tone": "now"} if turn_now else {})},
            {"ko": " / ".join(h.ko for h in hand) or "없음", "en": " / ".join(h.en for h in hand) or "none", "tone": "secret"},
            {"ko": str(state.points[seat]), "en": str(state.points[seat]), "tone": "secret"},
            str(empty_cells(board)),
            str(full_stacks(board)),
            str(len(state.played[seat])),
        ])
    display: list[list[Any]] = [[_t("자리", "Slot"), _t("카드", "Card"), _t("올려진 점수", "Points on it")]]
    for i, c in enumerate(state.display):
        display.append([str(i + 1), label(CARDS[c]).to_json() if c is not None else "—", str(state.tokens[i])])
    sections: list[dict[str, Any]] = [
        {"heading": _t("지금", "Now"), "paragraphs": paragraphs},
        {"heading": _t("자리별 손 카드와 점수", "Hands and points"), "table": seats},
        {"heading": _t("펼친 카드", "Display"), "table": display},
    ]
    if state.deal_mode == DEAL_REFEREE and state.deck:
        top = [label(CARDS[c]).to_json() for c in state.deck[:3]]
        sections.append({"heading": _t("더미 맨 위 (딜러만)", "Top of the deck (dealer only)"),
                         "paragraphs": [{**t, "tone": "secret"} for t in top]})
    return sections


def _setup_text(state: ReefState) -> T:
    waiting = [s for s in range(state.seats) if not state.started[s]]
    names = ", ".join(_seat_cell(state, s) for s in waiting)
    names_en = ", ".join(f"{s + 1} {state.names[s]}" for s in waiting)
    deal = T("분배 완료", "dealt") if dealt(state) else T("분배 중", "dealing")
    if not dealt(state) and state.deal_mode != DEAL_REFEREE:
        where, index = next_deal(state)
        deal = (T(f"다음 입력: {_seat_cell(state, index)}의 카드", f"next: a card of {index + 1} {state.names[index]}")
                if where == "hand" else T(f"다음 입력: 펼친 카드 {index + 1}번 자리", f"next: display slot {index + 1}"))
    start = T(f"시작 산호 기다림: {names}", f"start corals awaited: {names_en}") if waiting else T("시작 산호 완료", "start corals placed")
    return T(f"{deal.ko} · {start.ko}", f"{deal.en} · {start.en}")


# -- printable sheets (dealer only) -----------------------------------------------------------------


def _coral_cell(card: int) -> str:
    return "·".join(colour_name(c).ko for c in CARDS[card].corals)


def run_sheet(state: ReefState) -> dict[str, Any]:
    """Reef rules 1-2 for the table: the supply, the points, the hands and the display; in dealer
    mode how to deal and enter the cards; the catalogue of the 60 cards by number."""
    n = SUPPLY[state.seats]
    referee = state.deal_mode == DEAL_REFEREE
    prep = [
        _t(f"산호: 색마다 {n}개 (총 {n * len(COLOURS)}개). 나머지는 상자에 넣습니다.",
           f"Corals: {n} of each colour ({n * len(COLOURS)} in all). The rest stay in the box."),
        _t(f"점수 토큰: 한 사람에 {START_POINTS}점씩.", f"Point tokens: {START_POINTS} points to each player."),
        _t("개인 보드: 한 사람에 1개. 불가사리 보드는 1번 자리가 받고 먼저 시작합니다.",
           "Boards: one each. Seat 1 gets the starfish board and plays first."),
        _t(f"시작 산호: 각자 색마다 1개를 가운데 4칸({', '.join(cell_name(c) for c in CENTRE)})에 원하는 대로 놓고 휴대폰으로 입력합니다.",
           f"Start corals: each player puts one of each colour on the 4 centre cells "
           f"({', '.join(cell_name(c) for c in CENTRE)}) as they like, and enters it on the phone."),
    ]
    if referee:
        how = _t("카드는 심판 프로그램이 섞어 나눴습니다. 아래 표대로 나눠 주고 펼치세요.",
                 "The referee shuffled and dealt the cards: hand out and lay out what the tables say.")
    else:
        how = _t(f"딜러 분배: 60장을 섞어 한 사람에 {HAND_START}장씩 나눠 주고 {DISPLAY}장을 펼친 뒤, 받은 순서대로 "
                 "(1번 자리 2장, 2번 자리 2장, ..., 펼친 카드 1-3번 자리) 카드 번호를 콘솔에 입력하세요. 번호는 아래 목록에서 찾습니다.",
                 f"Dealer deal: shuffle the 60 cards, deal {HAND_START} to each player and lay out {DISPLAY}; then enter "
                 "the numbers in the console in that order (seat 1's two, seat 2's two, ..., display slots 1-3). Find "
                 "each number in the catalogue below.")
    hands: list[list[Any]] = [[_t("자리", "Seat"), _t("이름", "Name"), _t("카드 1", "Card 1"), _t("카드 2", "Card 2")]]
    for seat in range(state.seats):
        first = list(state.first_hands[seat])
        cells = [label(CARDS[c]).ko for c in first] + [""] * (HAND_START - len(first))
        hands.append([str(seat + 1), state.names[seat], *cells])
    display: list[list[Any]] = [[_t("자리", "Slot"), _t("카드", "Card")]]
    initial = state.first_display
    for i in range(DISPLAY):
        display.append([str(i + 1), label(CARDS[initial[i]]).ko if initial[i] is not None else ""])
    steps = [
        _t("한 차례에 다음 중 하나: (1) 펼친 카드 1장을 올려진 점수와 함께 가져오기 → 더미에서 채움, (2) 1점을 가장 낮은 점수의 "
           "펼친 카드에 올리고 더미 맨 위 카드 뽑기, (3) 손의 카드 1장 사용: 산호 2개를 놓고 패턴 점수.",
           "A turn is one of: (1) take a display card with the points on it, then refill from the deck; (2) put 1 point "
           "on the lowest display card and draw the deck's top card; (3) play a card: place its 2 corals, score its "
           "pattern."),
        _t(f"손에는 {HAND_LIMIT}장까지: {HAND_LIMIT}장이면 카드를 사용해야 합니다. 산호는 {MAX_HEIGHT}층까지 쌓고 옮기지 않습니다.",
           f"A hand holds at most {HAND_LIMIT}: with {HAND_LIMIT} a player must play. Stacks go up to {MAX_HEIGHT}; "
           "corals never move."),
        _t("끝: 산호 한 색이 떨어지면 마지막 자리까지 라운드를 마치고 끝. 더미가 비어 펼친 카드를 채울 수 없으면 바로 끝.",
           "End: when a coral colour runs out, finish the round to the last seat; when the empty deck cannot refill the "
           "display, the game ends at once."),
        _t("끝난 뒤 손에 남은 카드는 패턴이 있으면 1번씩 점수. 동점: 빈칸이 적은 쪽, 그다음 4층 산호가 많은 쪽.",
           "Then each card left in hand scores once if matched. Ties: fewer empty cells, then more 4-high stacks."),
    ]
    catalogue: list[list[Any]] = [[_t("번호", "No."), _t("산호", "Corals"), _t("패턴", "Pattern"), _t("점수", "Points")]]
    for n_, card in sorted(CARDS.items()):
        each = " (개당)" if card.kind == "highest_surround" else ""
        catalogue.append([str(n_), _coral_cell(n_), pattern_text(card).ko, f"{card.points}{each}"])
    return {
        "title": _t("진행 시트: 리프", "Run sheet: Reef"),
        "sections": [
            {"heading": _t("준비물", "Setup"), "paragraphs": prep},
            {"heading": _t("손에 나눠 줄 카드", "Cards to hand out"), "paragraphs": [how], "table": hands},
            {"heading": _t("펼쳐 놓을 카드", "Cards to lay out"), "table": display},
            {"heading": _t("한 차례", "A turn"), "paragraphs": steps},
            {"heading": _t("카드 목록 (번호 · 산호 · 패턴 · 점수)", "Card catalogue (number, corals, pattern, points)"),
             "paragraphs": [_t("색 이름은 한국어로 적습니다: 빨강 = red, 노랑 = yellow, 보라 = purple, 초록 = green.",
                               "Colours are in Korean: 빨강 = red, 노랑 = yellow, 보라 = purple, 초록 = green.")],
             "table": catalogue},
        ],
    }


def score_sheet(state: ReefState) -> dict[str, Any]:
    """Per player: each card scored on play, the cards left in hand at the end, the totals and the
    tie-breaks (Reef rules 7-11), filled in as far as the match has gone."""
    sections: list[dict[str, Any]] = []
    for seat in range(state.seats):
        plays = [r for r in state.scores if r.seat == seat and not r.from_hand]
        rows: list[list[Any]] = [[_t("라운드", "Round"), _t("카드", "Card"), _t("일치", "Matches"), _t("점수", "Points")]]
        for r in plays:
            rows.append([str(r.round), label(CARDS[r.card]).ko, str(r.count), str(r.points)])
        rows.append([_t("합계", "Total"), "", "", str(sum(r.points for r in plays))])
        sections.append({"heading": _t(f"{_seat_cell(state, seat)}: 사용한 카드", f"{seat + 1} {state.names[seat]}: cards played"),
                         "table": rows})
    hands: list[list[Any]] = [[_t("자리", "Seat"), _t("손에 남은 카드", "Card left in hand"), _t("점수", "Points")]]
    for r in (r for r in state.scores if r.from_hand):
        hands.append([_seat_cell(state, r.seat), label(CARDS[r.card]).ko, str(r.points)])
    if len(hands) == 1:
        hands.append(["", "", ""])
    sections.append({"heading": _t("게임 끝: 손에 남은 카드 (맞으면 1번씩)", "End: cards left in hand (once each if matched)"),
                     "table": hands})
    totals: list[list[Any]] = [[_t("순위", "Rank"), _t("자리", "Seat"), _t("카드 점수", "Cards"), _t("손 카드", "Hand"),
                                _t("토큰 (시작·가져옴·냄)", "Tokens (start, taken, paid)"), _t("합계", "Total"),
                                _t("빈칸", "Empty"), _t("4층", "4-high")]]
    outcome = result(state)
    ranks = {s.seat: s.rank for s in outcome.standings} if outcome else {}
    order = sorted(range(state.seats), key=lambda s: (ranking_key(state, s), s))
    for seat in order:
        played = sum(r.points for r in state.scores if r.seat == seat and not r.from_hand)
        hand = sum(r.points for r in state.scores if r.seat == seat and r.from_hand)
        tokens = state.points[seat] - played - hand
        board = state.boards[seat]
        totals.append([str(ranks.get(seat, "")), _seat_cell(state, seat), str(played), str(hand), str(tokens),
                       str(state.points[seat]), str(empty_cells(board)), str(full_stacks(board))])
    note = _t("순위: 점수, 동점이면 빈칸이 적은 쪽, 그다음 4층 산호가 많은 쪽, 그래도 같으면 공동.",
              "Rank: points; ties go to fewer empty cells, then more 4-high stacks, else shared.")
    sections.append({"heading": _t("합계와 동점 처리", "Totals and tie-breaks"), "paragraphs": [note], "table": totals})
    return {"title": _t("점수 기록지: 리프 (딜러 전용)", "Score sheet: Reef (dealer only)"), "sections": sections}

