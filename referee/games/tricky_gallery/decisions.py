"""Tricky Gallery: the pending decisions of a state (turn) with their legal options.

Legality lives in the options wherever it can (Gallery rule 2: one field of legal
(work, sticker) pairs; rule 5: winner and bid pairs within the winner's chips; rule 6: the
works the picker may take), so phones, the console and bots only ever see legal choices.
Rule citations ("Gallery rule N") use the numbering of RULINGS.md "Tricky Gallery".
"""

from __future__ import annotations

from functools import lru_cache

from referee.kernel import Decision, Field, Option, T, Turn

from .state import (
    APPRAISAL_COST,
    AUCTION,
    CHAIN,
    DEAL_REFEREE,
    NO_BID_FIRST,
    NORMAL_KINDS,
    OVER,
    SETUP,
    STICKER_LABELS,
    SUBMIT,
    GalleryState,
    current_picker,
    entering_order,
    extra_supply,
    kind_label,
    legal_entries,
    pickable,
    remaining_works,
    seat_label,
    seat_label_of,
    survivors,
)


def turn(state: GalleryState) -> Turn:
    if state.step == OVER:
        return Turn(T("경기 종료", "Match over"))
    transfer = _transfer_decision(state)
    extra = (transfer,) if transfer is not None else ()
    if state.step == SETUP:
        decisions: list[Decision] = []
        if None in state.extras:
            if state.deal_mode == DEAL_REFEREE:
                decisions.append(Decision("deal", T("작품 분배 (자동)", "Deal the works (automatic)"), auto=True))
            else:
                decisions.append(_deal_decision(state))
        return Turn(T("준비: 작품 분배", "Setup: the deal"), tuple(decisions) + extra)
    label = T(f"{state.round}라운드", f"Round {state.round}")
    if state.step == SUBMIT:
        alive = survivors(state)
        owing = [s for s in alive if state.entries[s] is None]
        decisions = [
            Decision(
                "submit_work",
                T("출품할 작품과 스티커를 고르세요", "Choose the work and the sticker to submit"),
                (Field("entry", "one", T("작품 + 스티커", "Work + sticker"), _entry_options(state, s)),),
                seat=s,
            )
            for s in owing
        ]
        # Who has submitted is public: players walk into the submission room one by one in
        # the announced order (Gallery rule 3), so the room sees it anyway.
        return Turn(
            T(f"{label.ko}: 출품", f"{label.en}: submission"),
            tuple(decisions) + extra,
            sealed=(len(alive) - len(owing), len(alive)),
        )
    if state.step == AUCTION:
        return Turn(T(f"{label.ko}: 서열 경매", f"{label.en}: auction for rank 1"), _auction_decisions(state) + extra)
    if state.step == CHAIN:
        picker = current_picker(state)
        assert picker is not None
        rank = len(state.taken) + 1
        decisions = [
            Decision(
                "take_work",
                T(f"서열 {rank}위: 가져갈 작품을 고르세요", f"Rank {rank}: choose the work to take"),
                (Field("work", "one", T("작품", "Work"), _work_options(state, pickable(state, picker))),),
                seat=picker,
            )
        ]
        # Gallery rule 7: appraisals only during one's own pick turn, 4 chips each.
        if state.chips[picker] >= APPRAISAL_COST:
            decisions.append(
                Decision(
                    "appraise",
                    T(f"감정 (칩 {APPRAISAL_COST}개): 진위를 알고 싶은 작품", f"Appraise ({APPRAISAL_COST} chips): which work"),
                    (Field("work", "one", T("작품", "Work"), _work_options(state, remaining_works(state))),),
                    seat=picker,
                )
            )
        return Turn(T(f"{label.ko}: 작품 선택 ({rank}위)", f"{label.en}: selection (rank {rank})"), tuple(decisions) + extra)
    return Turn(T(f"{label.ko}: 라운드 종료", f"{label.en}: round end"), extra)


def _deal_decision(state: GalleryState) -> Decision:
    return Decision(
        "deal_work",
        T("무작위로 나눠 준 일반 작품을 입력하세요", "Enter the randomly dealt normal work"),
        (Field("deal", "one", T("자리 ← 작품", "Seat ← work"), _deal_options(state)),),
    )


def _deal_options(state: GalleryState) -> tuple[Option, ...]:
    left = extra_supply(state)
    return tuple(
        Option(f"{s}:{k}", T(f"{seat_label(state, s).ko} ← {kind_label(k).ko}", f"{seat_label(state, s).en} ← {kind_label(k).en}"))
        for s in range(state.seats)
        if state.extras[s] is None
        for k in NORMAL_KINDS
        if left[k] > 0
    )


def _entry_options(state: GalleryState, seat: int) -> tuple[Option, ...]:
    return tuple(_entry_option(kind, sticker) for kind, sticker in legal_entries(state, seat))


@lru_cache(maxsize=64)
def _entry_option(kind: str, sticker: str) -> Option:
    return Option(f"{kind}/{sticker}", T(f"{kind_label(kind).ko} + {STICKER_LABELS[sticker].ko}",
                                         f"{kind_label(kind).en} + {STICKER_LABELS[sticker].en}"))


def _auction_decisions(state: GalleryState) -> tuple[Decision, ...]:
    """Gallery rule 5, as the dealer enters it: the top bidder (a seat) and the bid (a number),
    or a tie at the top (re-bid), or no bid at all."""
    bidders = tuple(s for s in survivors(state) if state.chips[s] >= 1)
    out = []
    if bidders:
        out.append(Decision(
            "enter_auction",
            T("경매 결과: 최고 입찰자와 입찰 칩", "Auction result: the top bidder and the bid"),
            (Field("winner", "one", T("최고 입찰자", "Top bidder"),
                   tuple(Option(s, seat_label(state, s)) for s in bidders), kind="seat"),
             # The most any bidder holds; a bid above the winner's own chips is refused.
             Field("bid", "number", T("입찰 칩", "Chips bid"), low=1, high=max(state.chips[s] for s in bidders))),
        ))
    out.append(Decision("auction_tie", T("최고가 동점: 다시 입찰", "Tie at the top: bid again")))
    if state.no_bid == NO_BID_FIRST:
        first = entering_order(state)[0]
        out.append(Decision("auction_no_bid", T(f"입찰 없음: {seat_label(state, first).ko} 1위 (입장 순서 첫 번째)",
                                                f"No bid: {seat_label(state, first).en} is rank 1 (first to enter)")))
    else:
        out.append(Decision("auction_no_bid", T("입찰 없음: 딜러가 1위를 지정", "No bid: the dealer names rank 1"),
                            (Field("seat", "one", T("1위", "Rank 1"),
                                   tuple(Option(s, seat_label(state, s)) for s in survivors(state)), kind="seat"),)))
    return tuple(out)


def _work_options(state: GalleryState, owners: tuple[int, ...]) -> tuple[Option, ...]:
    kinds = tuple(e.kind if e is not None else "" for e in state.entries)
    return tuple(_work_option(state.names, s, kinds[s]) for s in owners)


@lru_cache(maxsize=4096)
def _work_option(names: tuple[str, ...], seat: int, kind: str) -> Option:
    label = _label(names, seat)
    return Option(seat, T(f"{label.ko}의 {kind_label(kind).ko}", f"{kind_label(kind).en} of {label.en}"))


def _label(names: tuple[str, ...], seat: int) -> T:
    return seat_label_of(names[seat], seat)


def _transfer_decision(state: GalleryState) -> Decision | None:
    """Gallery rule 9: chip transfers between seats at any time, recorded by the dealer.

    Offered whenever some surviving seat holds a chip. Bots pick uniformly among pending
    decisions, so a transfer is at most one of every two or three bot actions while the game
    waits for one decision; every other pending decision moves the game on, so playouts end.
    """
    alive = survivors(state)
    givers = tuple(s for s in alive if state.chips[s] > 0)
    if not givers or len(alive) < 2:
        return None
    return _transfer(state.names, givers, alive, max(state.chips[s] for s in givers))


@lru_cache(maxsize=1024)
def _transfer(names: tuple[str, ...], givers: tuple[int, ...], alive: tuple[int, ...], most: int) -> Decision:
    return Decision(
        "transfer_chips",
        T("칩 양도 기록 (자리 사이)", "Record a chip transfer between seats"),
        (
            Field("from", "one", T("주는 자리", "From"), tuple(Option(s, _label(names, s)) for s in givers)),
            Field("to", "one", T("받는 자리", "To"), tuple(Option(s, _label(names, s)) for s in alive)),
            Field("amount", "number", T("칩 수", "Chips"), low=1, high=most),
        ),
    )
