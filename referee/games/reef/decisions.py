"""Reef: the pending decisions of a state (turn) with their legal options.

Legality lives in the options wherever it can: the display cards a seat may take (Reef rule 4),
the display cards that may get the point of a deck draw (rule 5), the cards in hand (rule 6), the
open cells for a coral (rule 6), the four centre cells for the start corals (rule 2). What an
option cannot say (two start corals on one cell, a card number already out of the deck) is
checked in decide with its own error code.
"""

from __future__ import annotations

from functools import lru_cache

from referee.kernel import Decision, Field, Option, T, Turn, josa

from .cards import CARDS, COLOURS, DECK, colour_name, label
from .patterns import CENTRE, cell_name, open_cells, score
from .state import (
    ACTION,
    DEAL_REFEREE,
    DRAWING,
    ENDING,
    OVER,
    PLACE,
    REFILL,
    SETUP,
    ReefState,
    can_draw,
    can_take,
    dealt,
    last_round,
    lowest_display,
    next_deal,
    previews,
    seat_label,
)


def turn(state: ReefState) -> Turn:
    """Every decision owed now (a pure function of the state, so it is remembered: the runtime and
    decide ask for the same state's turn several times in one command)."""
    return _turn(state)


@lru_cache(maxsize=256)
def _turn(state: ReefState) -> Turn:
    if state.step == OVER:
        return Turn(T("경기 종료", "Match over"))
    if state.step == ENDING:
        return Turn(T("게임 끝: 손에 남은 카드 점수 계산", "Game over: scoring the cards left in hand"))
    if state.step == SETUP:
        return _setup(state)
    who = seat_label(state, state.current)
    last = T(" (마지막 라운드)", " (last round)") if last_round(state) else T("", "")
    phase = T(f"{state.round}라운드{last.ko} · {who.ko}의 차례", f"Round {state.round}{last.en} · {who.en} to play")
    if state.step == ACTION:
        return Turn(phase, _action(state))
    if state.step == DRAWING and state.deal_mode != DEAL_REFEREE:
        return Turn(phase, (_enter_card(
            "enter_draw",
            T(f"{josa(who.ko, '이/가')} 더미에서 뽑은 카드의 번호를 입력하세요", f"Enter the number of the card {who.en} drew from the deck"),
        ),))
    if state.step == REFILL and state.deal_mode != DEAL_REFEREE:
        assert state.slot is not None
        return Turn(phase, (_enter_card(
            "refill_display",
            T(f"더미 맨 위 카드를 {state.slot + 1}번 자리에 펼치고 번호를 입력하세요",
              f"Lay the deck's top card in display slot {state.slot + 1} and enter its number"),
        ),))
    if state.step == PLACE and state.to_place:
        return Turn(phase, (_place(state),))
    return Turn(phase)


# -- setup ------------------------------------------------------------------------------------------


def _setup(state: ReefState) -> Turn:
    decisions: list[Decision] = []
    if not dealt(state):
        if state.deal_mode == DEAL_REFEREE:
            decisions.append(Decision("deal", T("카드 섞고 나눠 주기 (자동)", "Shuffle and deal the cards (automatic)"),
                                      auto=True))
        else:
            where, index = next_deal(state)
            if where == "hand":
                who = seat_label(state, index)
                nth = len(state.hands[index]) + 1
                prompt = T(f"{who.ko}에게 나눠 준 {nth}번째 카드의 번호를 입력하세요",
                           f"Enter the number of card {nth} dealt to {who.en}")
            else:
                prompt = T(f"펼쳐 놓은 카드 {index + 1}번 자리의 번호를 입력하세요",
                           f"Enter the number of the card laid in display slot {index + 1}")
            decisions.append(_enter_card("deal_card", prompt))
    for seat in range(state.seats):
        if not state.started[seat]:
            decisions.append(_start_decision(seat))
    return Turn(T("준비: 카드 분배와 시작 산호", "Setup: the deal and the start corals"), tuple(decisions))


@lru_cache(maxsize=8)
def _start_decision(seat: int) -> Decision:
    # Reef rule 2: one coral of each colour on the four centre cells, as the player chooses.
    return Decision(
        "place_start",
        T("시작 산호 4개를 가운데 4칸에 놓으세요 (색마다 다른 칸)", "Put your 4 start corals on the 4 centre cells (one colour a cell)"),
        (Field("corals", "assign", T("색 → 칸", "Colour → cell"),
               options=tuple(Option(c, T(cell_name(c), cell_name(c))) for c in CENTRE),
               items=tuple(Option(c, colour_name(c)) for c in COLOURS), kind="cell"),),
        seat=seat,
    )


@lru_cache(maxsize=8)
def _enter_card(move: str, prompt: T) -> Decision:
    # Dealer mode: the physical card's number from the run sheet's catalogue.
    return Decision(move, prompt, (Field("card", "number", T("카드 번호 (진행 시트의 목록)", "Card number (run sheet catalogue)"),
                                         low=DECK[0], high=DECK[-1], kind="card"),))


# -- a turn ---------------------------------------------------------------------------------------


def _action(state: ReefState) -> tuple[Decision, ...]:
    seat = state.current
    out = []
    display = tuple(c for c in state.display if c is not None)
    if can_take(state, seat):
        # Reef rule 4: a display card with the points lying on it.
        out.append(Decision(
            "take_card",
            T("펼쳐진 카드 1장 가져오기 (올려진 점수도 함께)", "Take a display card (with the points on it)"),
            (Field("card", "one", T("카드", "Card"), tuple(_take_option(c, state.tokens[state.display.index(c)])
                                                          for c in display), kind="card"),),
            seat=seat,
        ))
    if can_draw(state, seat):
        # Reef rule 5: 1 point onto a display card with the lowest printed points.
        out.append(Decision(
            "draw_card",
            T("더미 맨 위 카드 뽑기: 1점을 가장 낮은 점수 카드에 올립니다", "Draw the deck's top card: pay 1 point onto the lowest card"),
            (Field("card", "one", T("1점을 올릴 카드", "Card that gets the point"),
                   tuple(_point_option(c) for c in lowest_display(state)), kind="card"),),
            seat=seat,
        ))
    hand = state.hands[seat]
    if hand:
        board = state.boards[seat]
        # Reef rule 6: any card in hand; the hint is what it scores on the board as it is now.
        out.append(Decision(
            "play_card",
            T("손의 카드 1장 사용: 산호를 놓고 점수를 얻습니다", "Play a card from hand: place its corals and score"),
            (Field("card", "one", T("카드", "Card"), tuple(_play_option(c, score(CARDS[c], board).points) for c in hand),
                   kind="card"),),
            seat=seat,
        ))
    return tuple(out)


@lru_cache(maxsize=512)
def _take_option(card: int, tokens: int) -> Option:
    hint = T(f"+{tokens}점 토큰", f"+{tokens} points on it") if tokens else None
    return Option(card, label(CARDS[card]), hint)


@lru_cache(maxsize=128)
def _point_option(card: int) -> Option:
    return Option(card, label(CARDS[card]), T("여기에 1점", "1 point here"))


@lru_cache(maxsize=512)
def _play_option(card: int, now: int) -> Option:
    return Option(card, label(CARDS[card]), T(f"지금 판이면 {now}점", f"scores {now} on the board as it is"))


def _place(state: ReefState) -> Decision:
    """Reef rule 6: one coral at a time on an open cell. With two corals of different colours the
    player chooses which goes first (it matters when both go on one stack); the last coral's
    cells carry the exact score as a hint."""
    assert state.card is not None
    card = CARDS[state.card]
    board = state.boards[state.current]
    colours = state.to_place
    last = len(colours) == 1
    firsts = tuple(dict.fromkeys(colours))
    # The last coral's cells carry the exact score (the first of two: see the seat's view).
    points = {cell: s.points for cell, s in previews(card, board, colours)[colours[0]]} if last else {}
    cells = tuple(_cell_option(cell, points.get(cell)) for cell in open_cells(board))
    fields = []
    name = colour_name(colours[0])
    if len(firsts) == 2:
        other = colour_name(colours[1])
        fields.append(Field("coral", "one", T("먼저 놓을 산호", "Coral to place first"),
                            tuple(Option(c, colour_name(c)) for c in firsts), kind="colour"))
        prompt = T(f"산호 놓기 ({name.ko}·{other.ko} 중 1개 먼저)", f"Place a coral ({name.en} or {other.en} first)")
    elif last:
        prompt = T(f"마지막 산호 놓기: {name.ko}", f"Place the last coral: {name.en}")
    else:
        prompt = T(f"산호 놓기: {name.ko} (2개 중 1번째)", f"Place a coral: {name.en} (1st of 2)")
    fields.append(Field("cell", "one", T("칸", "Cell"), cells, kind="cell"))
    return Decision("place_coral", prompt, tuple(fields), seat=state.current)


@lru_cache(maxsize=1024)
def _cell_option(cell: int, points: int | None) -> Option:
    name = cell_name(cell)
    hint = T(f"{points}점", f"{points} points") if points is not None else None
    return Option(cell, T(name, name), hint)
