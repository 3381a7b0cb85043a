"""Tricky Gallery: setup, decide (with the consequences the rules trigger), evolve, result.

Rule citations ("Gallery rule N") use the numbering of RULINGS.md "Tricky Gallery".
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

from .decisions import turn
from .state import (
    APPRAISAL_COST,
    AUCTION,
    CHAIN,
    DEAL_REFEREE,
    ENDING,
    EXTRA_SUPPLY,
    FAKE,
    GENUINE,
    KINDS,
    NO_BID_FIRST,
    NORMAL_KINDS,
    OVER,
    PREMIUM,
    ROUNDS,
    SETUP,
    STICKER_LABELS,
    SUBMIT,
    Appraisal,
    Elimination,
    Entry,
    GalleryState,
    Held,
    RoundRecord,
    entering_order,
    extra_supply,
    final_order,
    fixed_hand,
    kind_label,
    remaining_works,
    replace_at,
    revenue,
    sorted_hand,
    stranded,
    survivors,
    without,
)

SECRET = "SecretRecorded"  # appraisals and chip transfers share one opaque public event type


# -- setup ---------------------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> GalleryState:
    return GalleryState(
        seats=len(seats),
        names=tuple(seats),
        deal_mode=options.get("deal", DEAL_REFEREE),
        no_bid=options.get("no_bid_rank1", NO_BID_FIRST),
    )


# -- decide --------------------------------------------------------------------------------------


def decide(state: GalleryState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move)
    match move["type"]:
        case "deal":
            events = _deal_all(state, rng)
        case "deal_work":
            events = [_deal_one(state, move["deal"])]
        case "submit_work":
            events = [_submission(state, actor.acting_seat, move["entry"])]
        case "enter_auction":
            events = [_auction_won(state, move["winner"], move["bid"])]
        case "auction_tie":
            # Gallery rule 5: a tie at the top is re-bid; the dealer enters the result again.
            events = [Event("AuctionTied", {"round": state.round})]
        case "auction_no_bid":
            events = [_no_bid(state, move.get("seat"))]
        case "take_work":
            events = [_take(state, actor.acting_seat, move["work"])]
        case "appraise":
            events = [_appraise(state, actor.acting_seat, move["work"])]
        case _:  # "transfer_chips"
            events = [_transferred(state, move["from"], move["to"], move["amount"])]
    return with_consequences(state, events, evolve, _consequence)


def _deal_all(state: GalleryState, rng: Rng) -> list[Event]:
    # Gallery rule 1: the 9 normal works left (3 of each kind) go one per seat at random.
    extras = rng.shuffled([k for k in NORMAL_KINDS for _ in range(EXTRA_SUPPLY)])
    return [_dealt(s, extras[s]) for s in range(state.seats)]


def _dealt(seat: int, extra: str) -> Event:
    hand = sorted_hand(fixed_hand() + (extra,))
    return Event("HandDealt", {"seat": seat}, {"extra": extra, "hand": list(hand)}, (seat,))


def _deal_one(state: GalleryState, value: Any) -> Event:
    seat, kind = _parse_deal(state, value)
    require(
        0 <= seat < state.seats and state.extras[seat] is None,
        "gallery/already_dealt",
        f"{seat + 1}번 자리는 이미 작품을 받았습니다: {value!r}",
        f"Seat {seat + 1} has already been dealt: {value!r}",
        deal=value,
    )
    # Gallery rule 1: 3 works of each normal kind are dealt at random.
    require(
        extra_supply(state)[kind] > 0,
        "gallery/kind_exhausted",
        f"{josa(kind_label(kind).ko, '은/는')} 이미 {EXTRA_SUPPLY}장 모두 나눠 주었습니다: {value!r}",
        f"All {EXTRA_SUPPLY} extra {kind_label(kind).en} works are already dealt: {value!r}",
        deal=value,
    )
    return _dealt(seat, kind)


def _parse_deal(state: GalleryState, value: Any) -> tuple[int, str]:
    seat, _, kind = value.partition(":") if isinstance(value, str) else ("", "", "")
    if not seat.isdigit() or kind not in NORMAL_KINDS or int(seat) >= state.seats:
        raise RuleError(
            "gallery/bad_deal",
            f"'자리:일반작품' 형식이어야 합니다 (예: 0:pearl): {value!r}",
            f"Expected 'seat:normal kind' (e.g. 0:pearl): {value!r}",
            deal=value,
        )
    return int(seat), kind


def _submission(state: GalleryState, seat: int, value: Any) -> Event:
    kind, _, sticker = value.partition("/") if isinstance(value, str) else ("", "", "")
    require(
        kind in KINDS and sticker in (GENUINE, FAKE),
        "gallery/bad_entry",
        f"'작품/스티커' 형식이어야 합니다 (예: pearl/genuine): {value!r}",
        f"Expected 'kind/sticker' (e.g. pearl/genuine): {value!r}",
        entry=value,
    )
    hand = state.hands[seat]
    # Gallery rule 2: one work from the seat's own hand.
    require(
        kind in hand,
        "gallery/work_not_in_hand",
        f"손에 {josa(kind_label(kind).ko, '이/가')} 없습니다: {value!r}",
        f"No {kind_label(kind).en} in hand: {value!r}",
        entry=value,
    )
    left = state.genuine_left[seat] if sticker == GENUINE else state.fake_left[seat]
    require(
        left > 0,
        "gallery/no_sticker_left",
        f"{josa(STICKER_LABELS[sticker].ko, '이/가')} 남아 있지 않습니다: {value!r}",
        f"No {STICKER_LABELS[sticker].en} left: {value!r}",
        entry=value,
    )
    # Gallery rule 2: no fake sticker on a premium work.
    require(
        not (sticker == FAKE and kind == PREMIUM),
        "gallery/fake_on_premium",
        f"고급 작품에는 가품 스티커를 붙일 수 없습니다: {value!r}",
        f"A premium work cannot carry the fake sticker: {value!r}",
        entry=value,
    )
    # Gallery rule 2: the fake sticker must keep a normal work to go on later.
    require(
        sticker == FAKE or not stranded(without(hand, kind), state.fake_left[seat]),
        "gallery/fake_stranded",
        f"이렇게 내면 가품 스티커를 붙일 일반 작품이 남지 않습니다: {value!r}",
        f"This would leave the fake sticker with no normal work to carry it: {value!r}",
        entry=value,
    )
    return Event("WorkSubmitted", {"seat": seat, "round": state.round}, {"kind": kind, "sticker": sticker}, (seat,))


def _no_bid(state: GalleryState, seat: Any) -> Event:
    if state.no_bid == NO_BID_FIRST:
        # Gallery rule 5 (option no_bid_rank1=first_entrant): the first to enter is rank 1.
        seat = entering_order(state)[0]
    else:
        # Gallery rule 5 (option no_bid_rank1=dealer_picks): the dealer names rank 1.
        require(seat in survivors(state), "gallery/no_bid_needs_seat",
                f"입찰이 없으면 딜러가 남아 있는 자리 중 1위를 지정합니다: {seat!r}",
                f"With no bid the dealer names rank 1 among the seats still in: {seat!r}", seat=seat)
    return Event("AuctionWon", {"round": state.round, "seat": seat, "bid": 0, "no_bid": True})


def _auction_won(state: GalleryState, seat: Any, bid: Any) -> Event:
    require(seat in survivors(state), "gallery/not_in_game", f"게임에 남아 있지 않은 자리입니다: {seat!r}",
            f"That seat is not in the game: {seat!r}", seat=seat)
    require(bid >= 1, "gallery/bad_bid", f"입찰은 1칩 이상입니다: {bid!r}", f"A bid is at least 1 chip: {bid!r}", bid=bid)
    # Gallery rule 5: the winner must hold as many chips as the bid.
    require(
        bid <= state.chips[seat],
        "gallery/not_enough_chips",
        f"{seat + 1}번 자리는 {bid}칩이 없습니다 ({state.chips[seat]}칩 보유)",
        f"Seat {seat + 1} does not hold {bid} chips (holds {state.chips[seat]})",
        seat=seat, bid=bid,
    )
    return Event("AuctionWon", {"round": state.round, "seat": seat, "bid": bid, "no_bid": False})


def _check_work(state: GalleryState, value: Any) -> int:
    require(
        isinstance(value, int) and not isinstance(value, bool) and value in remaining_works(state),
        "gallery/no_such_work",
        f"경매에 남아 있는 작품이 아닙니다 (작품 주인 자리 번호): {value!r}",
        f"No such work left on the auction table (by owner seat): {value!r}",
        work=value,
    )
    return value


def _take(state: GalleryState, seat: int, value: Any) -> Event:
    work = _check_work(state, value)
    left = remaining_works(state)
    if left != (state.winner,):
        # Gallery rule 6: never one's own work.
        require(work != seat, "gallery/own_work", f"자기 작품은 가져갈 수 없습니다: {value!r}",
                f"You cannot take your own work: {value!r}", work=value)
        # Gallery rule 6: rank 1's work is kept for the last seat.
        require(work != state.winner, "gallery/rank1_reserved",
                f"서열 1위의 작품은 마지막 사람이 가져갑니다: {value!r}",
                f"Rank 1's work is reserved for the last seat: {value!r}", work=value)
    entry = state.entries[work]
    assert entry is not None
    return Event("WorkTaken", {"round": state.round, "seat": seat, "work": work, "kind": entry.kind,
                               "rank": len(state.taken) + 1})


def _appraise(state: GalleryState, seat: int, value: Any) -> Event:
    # Gallery rules 7 and 11: any work still on the auction table, own and rank 1's included.
    work = _check_work(state, value)
    # Gallery rule 7: an appraisal costs 4 chips.
    require(state.chips[seat] >= APPRAISAL_COST, "gallery/not_enough_chips",
            f"감정에는 칩 {APPRAISAL_COST}개가 필요합니다 (보유 {state.chips[seat]})",
            f"An appraisal costs {APPRAISAL_COST} chips (you hold {state.chips[seat]})", work=value)
    entry = state.entries[work]
    assert entry is not None
    # Gallery rule 7: which work and the answer are secret to the appraiser; the event type is
    # shared with chip transfers so that the public part says nothing about what happened.
    return Event(SECRET, {}, {"what": "appraisal", "round": state.round, "seat": seat, "work": work,
                              "kind": entry.kind, "genuine": entry.genuine, "cost": APPRAISAL_COST}, (seat,))


def _transferred(state: GalleryState, giver: Any, taker: Any, amount: Any) -> Event:
    alive = survivors(state)
    for role, seat in (("from", giver), ("to", taker)):
        require(isinstance(seat, int) and not isinstance(seat, bool) and seat in alive, "gallery/not_in_game",
                f"게임에 남아 있지 않은 자리입니다 ({role}): {seat!r}",
                f"That seat is not in the game ({role}): {seat!r}", seat=seat)
    require(giver != taker, "gallery/self_transfer", f"같은 자리끼리는 양도할 수 없습니다: {giver + 1}",
            f"A seat cannot transfer to itself: seat {giver + 1}", seat=giver)
    # Gallery rule 9: only chips the giver holds; chips are conserved.
    require(amount <= state.chips[giver], "gallery/not_enough_chips",
            f"{giver + 1}번 자리는 {amount}칩이 없습니다 (보유 {state.chips[giver]})",
            f"Seat {giver + 1} does not hold {amount} chips (holds {state.chips[giver]})", amount=amount)
    # Chip counts are secret (dealer and owner): only the two seats learn of the transfer.
    return Event(SECRET, {}, {"what": "transfer", "from": giver, "to": taker, "amount": amount},
                 tuple(sorted((giver, taker))))


# -- consequences ---------------------------------------------------------------------------------


def _consequence(state: GalleryState) -> Event | None:
    if state.step == SETUP and None not in state.extras:
        return Event("RoundBegan", {"round": 1, "order": list(entering_order(state, 1))})
    if state.step == SUBMIT and all(state.entries[s] is not None for s in survivors(state)):
        # Gallery rule 4: every submitted work's kind and owner become public; the siren
        # sounds when two or more fakes were submitted (the fact only).
        entries = [state.entries[s] for s in survivors(state)]
        fakes = sum(1 for e in entries if e is not None and not e.genuine)
        return Event("WorksRevealed", {"round": state.round, "works": [{"seat": e.seat, "kind": e.kind} for e in entries
                                                                       if e is not None], "siren": fakes >= 2})
    if state.step == CHAIN and len(state.taken) == len(survivors(state)):
        return Event("RoundEnded", {"round": state.round, "chain": list(state.chain), "taken": list(state.taken)})
    if state.step == ENDING:
        record = state.history[-1]
        for seat in record.chain:
            # Gallery rule 8: a gallery holding 2 fakes eliminates its seat at once.
            if state.alive[seat] and sum(1 for w in state.galleries[seat] if not w.genuine) >= 2:
                return Event("SeatEliminated", {"round": state.round, "seat": seat, "rank": record.chain.index(seat) + 1})
        if state.round < ROUNDS:
            return Event("RoundBegan", {"round": state.round + 1, "order": list(entering_order(state, state.round + 1))})
        # Gallery rule 10: the survivors' works are sold after round 5.
        revenues = [revenue(state.galleries[s]) if state.alive[s] else None for s in range(state.seats)]
        return Event("GallerySold", {"revenues": revenues})
    return None


# -- evolve ---------------------------------------------------------------------------------------


def evolve(state: GalleryState, event: Event) -> GalleryState:
    match event.type:
        case "HandDealt":
            seat = event["seat"]
            return replace(state, extras=replace_at(state.extras, seat, event["extra"]),
                           hands=replace_at(state.hands, seat, tuple(event["hand"])))
        case "RoundBegan":
            return replace(state, round=event["round"], step=SUBMIT, entries=(None,) * state.seats, siren=False,
                           ties=0, winner=None, bid=None, no_bid_used=False, chain=(), taken=())
        case "WorkSubmitted":
            seat, kind, sticker = event["seat"], event["kind"], event["sticker"]
            genuine = sticker == GENUINE
            return replace(
                state,
                hands=replace_at(state.hands, seat, without(state.hands[seat], kind)),
                genuine_left=replace_at(state.genuine_left, seat, state.genuine_left[seat] - genuine),
                fake_left=replace_at(state.fake_left, seat, state.fake_left[seat] - (not genuine)),
                entries=replace_at(state.entries, seat, Entry(seat, kind, genuine)),
            )
        case "WorksRevealed":
            return replace(state, step=AUCTION, siren=event["siren"])
        case "AuctionTied":
            return replace(state, ties=state.ties + 1)
        case "AuctionWon":
            seat, bid = event["seat"], event["bid"]
            # Gallery rule 5: the winner pays the bid to the bank.
            return replace(state, step=CHAIN, winner=seat, bid=bid, no_bid_used=event["no_bid"],
                           chips=replace_at(state.chips, seat, state.chips[seat] - bid))
        case "WorkTaken":
            return replace(state, chain=state.chain + (event["seat"],), taken=state.taken + (event["work"],))
        case "SecretRecorded":
            if event["what"] == "appraisal":
                seat = event["seat"]
                found = Appraisal(event["round"], seat, event["work"], event["kind"], event["genuine"])
                return replace(state, chips=replace_at(state.chips, seat, state.chips[seat] - event["cost"]),
                               appraisals=state.appraisals + (found,))
            giver, taker, amount = event["from"], event["to"], event["amount"]
            chips = replace_at(state.chips, giver, state.chips[giver] - amount)
            return replace(state, chips=replace_at(chips, taker, chips[taker] + amount))
        case "RoundEnded":
            # Gallery rule 8: each seat's taken work joins its gallery at round end.
            galleries = list(state.galleries)
            for picker, owner in zip(state.chain, state.taken, strict=True):
                entry = state.entries[owner]
                assert entry is not None
                galleries[picker] = galleries[picker] + (Held(entry.kind, entry.genuine, owner, state.round),)
            assert state.winner is not None and state.bid is not None
            record = RoundRecord(
                round=state.round,
                order=entering_order(state),
                entries=tuple(e for e in state.entries if e is not None),
                siren=state.siren,
                winner=state.winner,
                bid=state.bid,
                chain=state.chain,
                taken=state.taken,
                eliminated=(),
            )
            return replace(state, step=ENDING, galleries=tuple(galleries), history=state.history + (record,))
        case "SeatEliminated":
            seat = event["seat"]
            # Gallery rule 8: the eliminated seat's chips, works and stickers leave the game.
            record = state.history[-1]
            record = replace(record, eliminated=record.eliminated + (seat,))
            return replace(
                state,
                alive=replace_at(state.alive, seat, False),
                chips=replace_at(state.chips, seat, 0),
                hands=replace_at(state.hands, seat, ()),
                genuine_left=replace_at(state.genuine_left, seat, 0),
                fake_left=replace_at(state.fake_left, seat, 0),
                galleries=replace_at(state.galleries, seat, ()),
                eliminations=state.eliminations + (Elimination(seat, event["round"], event["rank"]),),
                history=state.history[:-1] + (record,),
            )
        case "GallerySold":
            return replace(state, step=OVER, revenues=tuple(event["revenues"]))
    return state


# -- result ---------------------------------------------------------------------------------------


def result(state: GalleryState) -> Result | None:
    if state.step != OVER or state.revenues is None:
        return None
    order = final_order(state)
    alive = survivors(state)
    r5 = state.history[-1].chain
    standings = tuple(Standing(seat, i + 1, state.revenues[seat]) for i, seat in enumerate(order))
    revenues = [state.revenues[s] for s in alive]
    tied = len(set(revenues)) < len(revenues)
    decided = (
        T("수익 순위, 동률은 5라운드 서열로 결정; 탈락자는 생존자 아래",
          "Revenue; ties decided by the round-5 rank; eliminated seats below the survivors")
        if tied
        else T("수익 순위; 탈락자는 생존자 아래", "Revenue; eliminated seats below the survivors")
    )
    advancing = list(order[: min(4, len(alive))])
    return Result(
        standings,
        decided,
        {
            # Gallery rule 10: the top 4 advance (all survivors if fewer).
            "advancing": advancing,
            "ranking": list(order),
            "revenues": list(state.revenues),
            "round5_ranks": {str(s): r5.index(s) + 1 for s in alive},
            "eliminated": [{"seat": e.seat, "round": e.round, "rank": e.rank} for e in state.eliminations],
            "tie_broken_by_round5_rank": tied,
        },
    )
