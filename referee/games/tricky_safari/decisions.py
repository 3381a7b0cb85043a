"""Tricky Safari: the pending decisions of a state (turn) with their legal options.

A turn is two decisions in sequence (Safari rule 2): play a card (every card in hand is
playable), then take a figure (every animal with a figure left), so a phone shows one short
list at a time. Rule citations ("Safari rule N") use the numbering of RULINGS.md.
"""

from __future__ import annotations

from functools import lru_cache

from referee.kernel import Decision, Field, Option, T, Turn

from .state import (
    ANIMALS,
    BREAK,
    DEAL,
    DEAL_REFEREE,
    HAND,
    NAMING,
    OPEN_HIGH,
    OPEN_LOW,
    OVER,
    PLAY,
    ROUNDS,
    SafariState,
    animal_label,
    card_label,
    figures_left,
    opponents,
    remaining_cards,
    seat_label,
    stage,
    to_act,
)


def turn(state: SafariState) -> Turn:
    label = T(f"{state.round}라운드", f"Round {state.round}")
    if state.step == OVER:
        return Turn(T("경기 종료", "Match over"))
    if state.step == DEAL:
        return Turn(T(f"{label.ko}: 카드 분배", f"{label.en}: the deal"), (_deal_decision(state),))
    if state.step == PLAY:
        return _play_turn(state, label)
    if state.step == BREAK:
        return Turn(T(f"{label.ko} 종료: 점수 발표", f"{label.en} over: the scoring"), (_after_round(state.round),))
    if state.step == NAMING:
        assert state.final is not None
        who = seat_label(state.names, state.final.winner)
        return Turn(
            T(f"최종 결과: {who.ko} 우승, 트리키 코인 상대 지목", f"Final: {who.en} wins and names the Tricky Coin opponent"),
            (_naming(state),),
        )
    return Turn(label)  # the transient step (ENDING) is never left standing


def _deal_decision(state: SafariState) -> Decision:
    if state.deal_mode == DEAL_REFEREE:
        # Safari rule 2: the openings and the hands are drawn by the referee (an automatic step).
        return Decision("deal", T(f"{state.round}라운드 카드 공개와 분배 (자동)",
                                  f"Round {state.round}: open and deal the cards (automatic)"), auto=True)
    if None in state.opened:
        return _open_cards(state.round)
    undealt = tuple(s for s in range(state.seats) if not state.dealt[s])
    return Decision(
        "deal_hand",
        T("한 자리가 받은 카드 5장을 입력하세요 (마지막 자리는 남은 5장을 자동으로 받습니다)",
          "Enter the 5 cards one seat received (the last seat gets the 5 left by itself)"),
        (
            Field("seat", "one", T("자리", "Seat"), tuple(Option(s, seat_label(state.names, s)) for s in undealt),
                  kind="seat"),
            Field("cards", "some", T(f"카드 {HAND}장", f"{HAND} cards"), _card_options(remaining_cards(state)), k=HAND,
                  kind="card"),
        ),
    )


@lru_cache(maxsize=8)
def _open_cards(round_: int) -> Decision:
    # Safari rule 2: each animal opens one of its cards 1 to 4.
    return Decision(
        "open_cards",
        T(f"{round_}라운드: 동물마다 공개한 카드의 숫자 (1-4)", f"Round {round_}: the number opened for each animal (1-4)"),
        tuple(Field(a, "number", animal_label(a), low=OPEN_LOW, high=OPEN_HIGH) for a in ANIMALS),
    )


def _play_turn(state: SafariState, label: T) -> Turn:
    seat = to_act(state)
    assert seat is not None
    who = seat_label(state.names, seat)
    if stage(state) == "play":
        decision = Decision(
            "play_card",
            T("낼 카드를 고르세요: 그 동물의 가치가 카드의 숫자가 됩니다",
              "Choose a card to play: its animal's value becomes the card's number"),
            # Safari rule 2: every card in hand may be played.
            (Field("card", "one", T("카드", "Card"), _card_options(state.hands[seat]), kind="card"),),
            seat=seat,
        )
        doing = T(f"{who.ko} 카드 내기", f"{who.en} plays a card")
    else:
        decision = Decision(
            "take_figure",
            T("가져갈 동물 피규어를 고르세요", "Choose an animal figure to take"),
            (Field("animal", "one", T("피규어", "Figure"), _figure_options(figures_left(state)), kind="animal"),),
            seat=seat,
        )
        doing = T(f"{who.ko} 피규어 가져가기", f"{who.en} takes a figure")
    return Turn(T(f"{label.ko}: {doing.ko}", f"{label.en}: {doing.en}"), (decision,))


@lru_cache(maxsize=4096)
def _card_options(cards: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(c, card_label(c)) for c in cards)


@lru_cache(maxsize=4096)
def _figure_options(left: tuple[int, ...]) -> tuple[Option, ...]:
    # Safari rule 2: one of the figures left.
    return tuple(
        Option(a, animal_label(a), T(f"남은 {n}개", f"{n} left"))
        for a, n in zip(ANIMALS, left, strict=True)
        if n > 0
    )


@lru_cache(maxsize=8)
def _after_round(round_: int) -> Decision:
    if round_ >= ROUNDS:
        # Safari rule 4: after round 5, the final scoring (a moment of its own on the projector).
        return Decision("final_scoring", T("최종 집계 공개: 동물 순위, 보너스, 총점", "Reveal the final scoring: animal "
                                                                         "ranking, bonuses, totals"))
    nxt = round_ + 1
    return Decision(
        "next_round",
        T(f"{nxt}라운드 시작: 카드와 피규어를 모두 거둔 뒤 누르세요",
          f"Begin round {nxt}: press once every card and figure is collected"),
    )


def _naming(state: SafariState) -> Decision:
    assert state.final is not None
    # Safari rule 5: the winner names an opponent, not the last and not themself.
    return Decision(
        "name_opponent",
        T("트리키 코인을 함께 할 상대를 지목하세요 (최하위 제외)", "Name your Tricky Coin opponent (not the last)"),
        (Field("opponent", "one", T("상대", "Opponent"),
               tuple(Option(s, seat_label(state.names, s)) for s in opponents(state)), kind="seat"),),
        seat=state.final.winner,
    )

