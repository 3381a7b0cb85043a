"""setup, turn and decide: who owes what, which options are legal, and the events a move causes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import (
    Actor,
    Decision,
    Event,
    Field,
    Option,
    Rng,
    RuleError,
    T,
    Turn,
    expect,
    josa,
    require,
    with_consequences,
)

from . import cards as C
from . import state as S
from .state import (
    DEALER,
    HAND_SIZE,
    LAST_PHASE,
    MAX_MULLIGANS,
    REFEREE,
    SEATS,
    VIRTUAL_SIZE,
    VIRTUALS,
    QuattroState,
    evolve,
    must_exchange,
    seat_label,
)

KEEP, TAKE_MULLIGAN, PASS = "keep", "mulligan", "pass"


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> QuattroState:
    return QuattroState(deal=options.get("deal", REFEREE), names=tuple(seats))


# -- turn ---------------------------------------------------------------------------------------


def _seat_options(names: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(s, seat_label(names, s)) for s in SEATS)


def _card_options(cards) -> tuple[Option, ...]:
    return tuple(Option(c, C.label(c)) for c in cards)


def _virtual_options(vps) -> tuple[Option, ...]:
    return tuple(Option(vp, T(f"가상 {vp + 1}", f"virtual {vp + 1}")) for vp in vps)


def exchange_decisions(state: QuattroState, seat: int) -> tuple[Decision, ...]:
    """The exchange as a short path (my card, then the virtual player) and the pass beside it.

    Every combination of the two fields is legal: the cards are the unopened ones in hand, the
    virtual players those not exchanged with yet (Quattro rule 3)."""
    out = []
    # Quattro rule 3: only with a virtual player not yet exchanged with, only unopened cards.
    vps = [vp for vp in VIRTUALS if vp not in state.exchanged[seat]]
    if vps and state.hands[seat]:
        out.append(Decision(
            "exchange",
            T("교환: 줄 카드를 고르고, 교환할 가상 플레이어를 고르세요",
              "Exchange: choose the card to give, then the virtual player"),
            (Field("card", "one", T("줄 카드", "Card to give"), _card_options(state.hands[seat]), kind="card"),
             Field("vp", "one", T("가상 플레이어", "Virtual player"), _virtual_options(vps))),
            seat=seat,
        ))
    # Quattro rule 3: a candidate who still owes exchanges in the last phase cannot pass.
    if not must_exchange(state, seat):
        out.append(Decision("pass", T("패스: 이번 차례에는 교환하지 않습니다", "Pass: no exchange this turn"), seat=seat))
    return tuple(out)


def turn(state: QuattroState) -> Turn:
    match state.step:
        case S.FIRST:
            return Turn(T("선 플레이어 정하기", "Choose the first player"), (Decision(
                "choose_first", T("선 플레이어를 정하세요", "Choose the first player"),
                (Field("seat", "one", T("선 플레이어", "First player"), _seat_options(state.names), kind="seat"),),
            ),))
        case S.DEAL | S.MULLIGAN:
            return _deal_turn(state)
        case S.VIRTUAL:
            if state.deal == REFEREE:
                return Turn(T("가상 플레이어 카드 배분", "Dealing the virtual players"),
                            (Decision("deal_virtual", T("남은 18장을 가상 플레이어 6명에게 3장씩", "Deal 3 each to the six"
                                      " virtual players"), auto=True),))
            vp = len(state.virtual)
            return Turn(T("가상 플레이어 카드 입력", "Entering the virtual players' cards"), (Decision(
                "enter_virtual",
                T(f"가상 플레이어 {vp + 1}에게 준 카드 3장을 입력하세요", f"Enter the 3 cards dealt to virtual player {vp + 1}"),
                (Field("cards", "some", T("카드", "Cards"), _card_options(state.deck), k=VIRTUAL_SIZE),),
            ),))
        case S.OPEN:
            rnd = state.phase + 1
            decisions = tuple(
                Decision(
                    "open_card", T(f"{rnd}번째로 공개할 카드를 고르세요", f"Choose your card to open ({rnd} of 4)"),
                    (Field("card", "one", T("카드", "Card"), _card_options(state.hands[s])),), seat=s,
                )
                for s in SEATS if state.sealed_open[s] is None
            )
            submitted = sum(c is not None for c in state.sealed_open)
            return Turn(T(f"{rnd}번째 카드 공개", f"Opening card {rnd}"), decisions, sealed=(submitted, 2))
        case S.EXCHANGE:
            seat = state.to_act
            assert seat is not None
            who = seat_label(state.names, seat)
            return Turn(T(f"교환 {state.phase}단계: {who.ko} 차례", f"Exchange phase {state.phase}: {who.en}"),
                        exchange_decisions(state, seat))
        case S.DRAW:
            return Turn(T("완전 동점: 딜러 결정", "A full draw: the dealer decides"), (Decision(
                "resolve_draw", T("완전 동점입니다. 승자를 정하세요", "Equal all the way. Name the winner"),
                (Field("winner", "one", T("승자", "Winner"), _seat_options(state.names), kind="seat"),),
            ),))
    return Turn(T("경기 종료", "Match over"))


def _deal_turn(state: QuattroState) -> Turn:
    decisions: list[Decision] = []
    owed = [s for s in SEATS if state.owed_cards[s]]
    if owed and state.deal == REFEREE:
        decisions.append(Decision("deal", T("카드 4장씩 배분", "Deal 4 cards"), auto=True))
    elif owed:
        # One hand at a time, so the options never include a card entered for the other seat.
        seat = owed[0]
        again, who = state.mulligans[seat], seat_label(state.names, seat)
        decisions.append(Decision(
            "enter_hand",
            T(f"{who.ko}에게 준 카드 4장을 입력하세요" + (f" (멀리건 {again}회 후)" if again else ""),
              f"Enter the 4 cards dealt to {who.en}" + (f" (after mulligan {again})" if again else "")),
            (Field("cards", "some", T("카드", "Cards"), _card_options(state.deck), k=HAND_SIZE),),
        ))
    if state.step == S.MULLIGAN:
        for s in SEATS:
            if state.kept[s] or state.owed_cards[s]:
                continue
            left = MAX_MULLIGANS - state.mulligans[s]
            options = [Option(KEEP, T("이 카드로 하기", "Keep these cards"))]
            # Quattro rule 1: up to two mulligans.
            if left > 0:
                options.append(Option(TAKE_MULLIGAN, T(f"멀리건 (남은 {left}회)", f"Mulligan ({left} left)")))
            decisions.append(Decision(
                "mulligan", T("카드를 유지하거나 멀리건하세요", "Keep your cards or take a mulligan"),
                (Field("choice", "one", T("선택", "Choice"), tuple(options)),), seat=s,
            ))
    return Turn(T("카드 배분과 멀리건", "Deal and mulligans"), tuple(decisions))


# -- decide -------------------------------------------------------------------------------------


def decide(state: QuattroState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    move = _two_fields(move)
    _no_pass_owed(state, actor, move)
    expect(turn(state), actor, move)
    seat = actor.acting_seat
    match move["type"]:
        case "choose_first":
            events = [Event("FirstPlayerSet", {"seat": _seat(move["seat"])})]
        case "deal":
            # The deck is shuffled before every deal (Quattro rule 1: after a mulligan too).
            deck = rng.shuffled(state.deck)
            events = []
            for s in SEATS:
                if state.owed_cards[s]:
                    hand, deck = deck[:HAND_SIZE], deck[HAND_SIZE:]
                    events.append(_dealt(state, s, hand))
        case "enter_hand":
            cards = _from_deck(state, move["cards"])
            s = next(s for s in SEATS if state.owed_cards[s])
            events = [_dealt(state, s, cards)]
        case "mulligan":
            assert seat is not None
            choice = move["choice"]
            require(choice in (KEEP, TAKE_MULLIGAN), "quattro/no_such_choice",
                    f"{choice!r}: keep(유지) 또는 mulligan(멀리건)만 고를 수 있습니다",
                    f"{choice!r}: the choice is keep or mulligan", choice=choice)
            if choice == KEEP:
                events = [Event("HandKept", {"seat": seat, "mulligans": state.mulligans[seat], "forced": False})]
            else:
                # Quattro rule 1: each candidate may mulligan up to twice.
                require(state.mulligans[seat] < MAX_MULLIGANS, "quattro/no_mulligan_left",
                        f"멀리건은 최대 {MAX_MULLIGANS}번입니다 ({state.mulligans[seat]}번 함): {choice!r}",
                        f"At most {MAX_MULLIGANS} mulligans ({state.mulligans[seat]} taken): {choice!r}",
                        choice=choice)
                events = [Event("MulliganTaken", {"seat": seat, "mulligans": state.mulligans[seat] + 1},
                                {"returned": list(state.hands[seat])}, (seat,))]
        case "deal_virtual":
            # Quattro rule 2: the remaining 18 go 3 each to six virtual players; only the dealer sees them.
            deck = rng.shuffled(state.deck)
            hands = [list(C.ordered(deck[i * VIRTUAL_SIZE:(i + 1) * VIRTUAL_SIZE])) for i in VIRTUALS]
            events = [Event("VirtualDealt", {"virtual_players": len(VIRTUALS)}, {"hands": hands}, ())]
        case "enter_virtual":
            cards = _from_deck(state, move["cards"])
            events = [Event("VirtualHandEntered", {"vp": len(state.virtual)}, {"cards": list(C.ordered(cards))}, ())]
        case "open_card":
            assert seat is not None
            card = _own_card(state, seat, move["card"])
            events = [Event("OpenChosen", {"seat": seat, "round": state.phase + 1}, {"card": card}, (seat,))]
        case "exchange":
            assert seat is not None
            events = [_exchange(state, seat, move["card"], move["vp"])]
        case "pass":
            assert seat is not None
            events = [Event("Passed", {"seat": seat, "phase": state.phase})]
        case _:  # "resolve_draw"
            events = [Event("DrawResolved", {"winner": _seat(move["winner"])})]
    return with_consequences(state, events, evolve, _consequence)


def _seat(value: Any) -> int:
    require(value in SEATS and not isinstance(value, bool), "quattro/no_such_seat",
            f"없는 자리입니다: {value!r} (0 또는 1)", f"No such seat: {value!r} (0 or 1)", seat=value)
    return value


def _dealt(state: QuattroState, seat: int, cards) -> Event:
    return Event("HandDealt", {"seat": seat, "mulligan": state.mulligans[seat]}, {"cards": list(C.ordered(cards))},
                 (seat,))


def _card(value: Any) -> str:
    require(C.is_card(value), "quattro/no_such_card",
            f"그런 카드는 없습니다: {value!r} (예: R3, B6, G1, Y5, 0a, 0b)",
            f"There is no card {value!r} (e.g. R3, B6, G1, Y5, 0a, 0b)", card=value)
    return value


def _from_deck(state: QuattroState, values: list[Any]) -> list[str]:
    for value in values:
        _card(value)
        # Quattro rule 1: what the dealer hands out comes from the cards not dealt yet.
        require(value in state.deck, "quattro/not_in_deck",
                f"{josa(C.label(value).ko, '은/는')} 이미 나누어 준 카드입니다 ({value})", f"{value} has already been dealt",
                card=value)
    return list(values)


def _own_card(state: QuattroState, seat: int, value: Any) -> str:
    card = _card(value)
    # Quattro rule 3: an opened card can be neither opened again nor exchanged.
    require(card not in state.opened[seat], "quattro/card_opened",
            f"{josa(C.label(card).ko, '은/는')} 이미 공개한 카드입니다 ({card})", f"{card} is already open", card=card)
    require(card in state.hands[seat], "quattro/not_in_hand",
            f"{josa(C.label(card).ko, '은/는')} 손에 없는 카드입니다 ({card})", f"{card} is not in your hand", card=card)
    return card


def _two_fields(move: Any) -> Any:
    """An exchange in the one-field form of earlier logs (``choice``: ``pass`` or ``"R3@0"``) as
    the two-field move, so their moves replay (a correction applies later moves again)."""
    if not (isinstance(move, dict) and move.get("type") == "exchange" and "choice" in move
            and "card" not in move and "vp" not in move):
        return move
    rest = {k: v for k, v in move.items() if k != "choice"}
    if move["choice"] == PASS:
        return {**rest, "type": "pass"}
    card, vp = _parse(move["choice"])
    return {**rest, "card": card, "vp": vp}


def _no_pass_owed(state: QuattroState, actor: Actor, move: Any) -> None:
    """A pass by the candidate to act who still owes exchanges is refused with the rule's own
    error (the pass is not offered then, and a bare "not owed" would not say why)."""
    if not (isinstance(move, dict) and move.get("type") == "pass" and state.step == S.EXCHANGE):
        return
    seat = actor.acting_seat
    if seat is None or seat != state.to_act or actor.kind == "referee":
        return
    # Quattro rule 3: no pass while exchanges with all six are owed before the fourth card.
    owed = len(VIRTUALS) - len(state.exchanged[seat])
    require(not must_exchange(state, seat), "quattro/must_exchange",
            f"네 번째 카드 공개 전에 가상 플레이어 6명과 모두 교환해야 합니다 (남은 {owed}명): 패스할 수 없습니다",
            f"You must exchange with all six virtual players before the fourth card ({owed} left): no pass",
            choice=PASS)


def _exchange(state: QuattroState, seat: int, card: Any, vp: Any) -> Event:
    card = _own_card(state, seat, card)
    require(vp in VIRTUALS and not isinstance(vp, bool), "quattro/no_such_virtual",
            f"가상 플레이어는 1-6번입니다: {vp!r}", f"The virtual players are 0-5 (shown 1-6): {vp!r}", vp=vp)
    # Quattro rule 3: one exchange with each virtual player.
    require(vp not in state.exchanged[seat], "quattro/already_exchanged",
            f"{josa(f'가상 플레이어 {vp + 1}', '과/와')}는 이미 교환했습니다: {vp!r}",
            f"You have already exchanged with virtual player {vp + 1}: {vp!r}", vp=vp)
    # Quattro rule 4, applied by the referee to what the virtual player held before this exchange.
    got, why = C.virtual_choice(state.virtual[vp], state.opened[seat])
    # The card goes to the candidate alone; which branch of rule 4 chose it, to the dealer alone.
    return Event("Exchanged", {"seat": seat, "vp": vp, "given": card, "phase": state.phase},
                 {"received": got}, (seat,), {"reason": why})


def _parse(choice: Any) -> tuple[str, int]:
    bad = RuleError("quattro/bad_choice",
                    f"선택은 pass 또는 '카드@가상플레이어' 형식입니다 (예: R3@0): {choice!r}",
                    f"The choice is pass or 'card@virtual player' (e.g. R3@0): {choice!r}", choice=choice)
    if not isinstance(choice, str) or choice.count("@") != 1:
        raise bad
    card, _, vp = choice.partition("@")
    if not (vp.isdigit() and vp.isascii()):
        raise bad
    return card, int(vp)


# -- consequences -------------------------------------------------------------------------------


def _consequence(state: QuattroState) -> Event | None:
    if state.step == S.MULLIGAN:
        for s in SEATS:
            if not state.kept[s] and not state.owed_cards[s] and state.mulligans[s] == MAX_MULLIGANS:
                # Quattro rule 1: after the second mulligan the hand is kept.
                return Event("HandKept", {"seat": s, "mulligans": MAX_MULLIGANS, "forced": True})
    if state.step == S.VIRTUAL and state.deal == DEALER and len(state.virtual) == len(VIRTUALS) - 1:
        # The last virtual player gets the 3 cards left; the dealer need not enter them.
        return Event("VirtualHandEntered", {"vp": len(state.virtual)}, {"cards": list(state.deck)}, ())
    if state.step == S.OPEN and state.phase == LAST_PHASE:
        # Quattro rule 3: each opens one more card; one card is left, so it opens by itself.
        return Event("CardsOpened", {"round": HAND_SIZE, "cards": [state.hands[s][0] for s in SEATS],
                                     "automatic": True})
    if state.step == S.OPEN and None not in state.sealed_open:
        # Both openings are revealed together.
        return Event("CardsOpened", {"round": state.phase + 1, "cards": list(state.sealed_open), "automatic": False})
    if state.step == S.EXCHANGE and state.passes_in_row >= 2:
        # Quattro rule 3: both passed in a row: each opens one more card.
        return Event("ExchangesClosed", {"phase": state.phase})
    if state.step == S.COMPARE:
        c = C.compare(state.opened[0], state.opened[1])
        return Event("HandsCompared", {
            "hands": [list(h) for h in c.hands], "quattro": list(c.quattro), "sums": list(c.sums),
            "winner": c.winner, "rule": c.rule, "position": c.position,
        })
    return None

