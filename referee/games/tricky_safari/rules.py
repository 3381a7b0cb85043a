"""Tricky Safari: setup, decide (with the consequences the rules trigger), evolve, result.

Rule citations ("Safari rule N") use the numbering of RULINGS.md "Tricky Safari".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.kernel import Actor, Event, Result, Rng, Standing, T, expect, require, with_consequences

from .decisions import turn
from .state import (
    ANIMALS,
    BREAK,
    DEAL,
    DEAL_REFEREE,
    DECK,
    DEFAULT_RANKS,
    ENDING,
    HAND,
    NAMING,
    OPEN_HIGH,
    OPEN_LOW,
    OVER,
    PLAY,
    Play,
    RoundRecord,
    SafariState,
    Take,
    animal_label,
    card_id,
    card_label,
    completed,
    figures_left,
    final_scoring,
    parse_card,
    parse_ranks,
    remaining_cards,
    replace_at,
    round_points,
    scores,
    sorted_cards,
    starter_of,
    values,
)

# -- setup ---------------------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> SafariState:
    n = len(seats)
    ranks = parse_ranks(options.get("gallery_ranks", DEFAULT_RANKS)) or tuple(range(1, n + 1))
    return SafariState(
        seats=n,
        names=tuple(seats),
        gallery_ranks=ranks,
        deal_mode=options.get("deal", DEAL_REFEREE),
        hands=((),) * n,
        dealt=(False,) * n,
    )


# -- decide --------------------------------------------------------------------------------------


def decide(state: SafariState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move)
    match move["type"]:
        case "deal":
            events = _deal(state, rng)
        case "open_cards":
            events = [_opened(state, {a: move[a] for a in ANIMALS})]
        case "deal_hand":
            events = [_hand_entered(state, move["seat"], move["cards"])]
        case "play_card":
            events = [_play(state, actor.acting_seat, move["card"])]
        case "take_figure":
            events = [_take(state, actor.acting_seat, move["animal"])]
        case "next_round":
            nxt = state.round + 1
            events = [Event("RoundBegan", {"round": nxt, "starter": starter_of(nxt, state.seats)})]
        case "final_scoring":
            events = [_final_scored(state)]
        case _:  # "name_opponent"
            events = [_named(state, move["opponent"])]
    return with_consequences(state, events, evolve, _consequence)


def _deal(state: SafariState, rng: Rng) -> list[Event]:
    # Safari rule 2: for each animal one of its 1-4 cards opens at random; the other 25 cards
    # are shuffled and dealt 5 per seat.
    opened = {a: OPEN_LOW + rng.below(OPEN_HIGH - OPEN_LOW + 1) for a in ANIMALS}
    shown = {card_id(a, n) for a, n in opened.items()}
    rest = rng.shuffled([c for c in DECK if c not in shown])
    hands = [sorted_cards(rest[s * HAND:(s + 1) * HAND]) for s in range(state.seats)]
    return [_opened(state, opened)] + [_dealt(state, s, hand) for s, hand in enumerate(hands)]


def _opened(state: SafariState, opened: dict[str, int]) -> Event:
    for animal, number in opened.items():
        # Safari rule 2: the opened card is one of the animal's cards 1 to 4. (The number
        # fields already hold this; the check stays for moves that reach decide otherwise.)
        require(
            isinstance(number, int) and not isinstance(number, bool) and OPEN_LOW <= number <= OPEN_HIGH,
            "safari/bad_opening",
            f"{animal_label(animal).ko}의 공개 카드는 {OPEN_LOW}-{OPEN_HIGH} 중 하나입니다: {number!r}",
            f"The {animal_label(animal).en} card opened is one of {OPEN_LOW}-{OPEN_HIGH}, not {number!r}",
            animal=animal, number=number,
        )
    return Event("CardsOpened", {"round": state.round, "opened": dict(opened)})


def _dealt(state: SafariState, seat: int, hand: tuple[str, ...]) -> Event:
    # The hand is secret (dealer and owner); that the seat got its cards is not.
    return Event("HandDealt", {"round": state.round, "seat": seat}, {"hand": list(hand)}, (seat,))


def _hand_entered(state: SafariState, seat: Any, cards: list[Any]) -> Event:
    require(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats,
        "safari/no_such_seat",
        f"없는 자리입니다: {seat!r}",
        f"No such seat: {seat!r}",
        seat=seat,
    )
    require(
        not state.dealt[seat],
        "safari/already_dealt",
        f"{seat + 1}번 자리는 이미 카드를 받았습니다",
        f"Seat {seat + 1} has already been dealt",
        seat=seat,
    )
    free = set(remaining_cards(state))
    for card in cards:
        require(parse_card(card) is not None, "safari/no_such_card",
                f"없는 카드입니다 (예: lion:3): {card!r}", f"No such card (e.g. lion:3): {card!r}", card=card)
        # Safari rule 2: the hands are the 25 cards not opened, each dealt once.
        require(
            card in free,
            "safari/card_unavailable",
            f"{card_label(card).ko} 카드는 이미 공개되었거나 다른 자리에 나눠 주었습니다",
            f"The {card_label(card).en} card is already open or dealt to another seat",
            card=card,
        )
    return _dealt(state, seat, sorted_cards(cards))


def _play(state: SafariState, seat: int, card: Any) -> Event:
    parsed = parse_card(card)
    require(parsed is not None, "safari/no_such_card",
            f"없는 카드입니다 (예: lion:3): {card!r}", f"No such card (e.g. lion:3): {card!r}", card=card)
    assert parsed is not None
    # Safari rule 2: a turn plays one card from one's own hand.
    require(
        card in state.hands[seat],
        "safari/not_in_hand",
        f"손에 {card_label(card).ko} 카드가 없습니다",
        f"There is no {card_label(card).en} card in your hand",
        card=card,
    )
    animal, number = parsed
    return Event("CardPlayed", {"round": state.round, "seat": seat, "card": card, "animal": animal, "number": number})


def _take(state: SafariState, seat: int, animal: Any) -> Event:
    require(
        isinstance(animal, str) and animal in ANIMALS,
        "safari/no_such_animal",
        f"없는 동물입니다 ({', '.join(ANIMALS)} 중 하나): {animal!r}",
        f"No such animal (one of {', '.join(ANIMALS)}): {animal!r}",
        animal=animal,
    )
    # Safari rule 2: one of the figures left.
    require(
        figures_left(state)[ANIMALS.index(animal)] > 0,
        "safari/no_figure_left",
        f"{animal_label(animal).ko} 피규어가 남아 있지 않습니다",
        f"No {animal_label(animal).en} figure is left",
        animal=animal,
    )
    return Event("FigureTaken", {"round": state.round, "seat": seat, "animal": animal})


def _final_scored(state: SafariState) -> Event:
    f = final_scoring(state.history, state.gallery_ranks)
    # Safari rules 4 and 5: the animal ranking with its bonuses, the totals, winner and last.
    return Event("SafariScored", {
        "sums": dict(zip(ANIMALS, f.sums, strict=True)),
        "ranks": dict(zip(ANIMALS, f.ranks, strict=True)),
        "animal_bonus": dict(zip(ANIMALS, f.animal_bonus, strict=True)),
        "figure_points": list(f.figure_points),
        "bonuses": list(f.bonuses),
        "totals": list(f.totals),
        "order": list(f.order),
        "winner": f.winner,
        "last": f.last,
    })


def _named(state: SafariState, opponent: Any) -> Event:
    assert state.final is not None
    require(
        isinstance(opponent, int) and not isinstance(opponent, bool) and 0 <= opponent < state.seats,
        "safari/no_such_seat",
        f"없는 자리입니다: {opponent!r}",
        f"No such seat: {opponent!r}",
        seat=opponent,
    )
    # Safari rule 5: the winner names an opponent, not themself ...
    require(opponent != state.final.winner, "safari/self_opponent",
            f"자기 자신({opponent + 1}번)은 지목할 수 없습니다", f"The winner cannot name themself (seat {opponent + 1})",
            seat=opponent)
    # ... and not the last.
    require(opponent != state.final.last, "safari/last_opponent",
            f"최하위({opponent + 1}번)는 지목할 수 없습니다", f"The last (seat {opponent + 1}) cannot be named",
            seat=opponent)
    return Event("OpponentNamed", {"seat": state.final.winner, "opponent": opponent})


# -- consequences --------------------------------------------------------------------------------


def _consequence(state: SafariState) -> Event | None:
    if state.step == DEAL and None not in state.opened:
        undealt = [s for s in range(state.seats) if not state.dealt[s]]
        if len(undealt) == 1:
            # Dealer deal: the last seat holds the 5 cards nobody else got (Safari rule 2).
            return _dealt(state, undealt[0], remaining_cards(state))
    if state.step == ENDING:
        # Safari rule 3: each figure scores its animal's last opened value.
        vals = values(state)
        assert None not in vals
        points = round_points(vals, state.takes, state.seats)  # type: ignore[arg-type]
        return Event("RoundScored", {
            "round": state.round,
            "values": dict(zip(ANIMALS, vals, strict=True)),
            "completed": list(completed(state)),
            "figures": [[t.animal for t in state.takes if t.seat == s] for s in range(state.seats)],
            "points": list(points),
            "scores": [a + b for a, b in zip(scores(state), points, strict=True)],
        })
    return None


# -- evolve --------------------------------------------------------------------------------------


def evolve(state: SafariState, event: Event) -> SafariState:
    match event.type:
        case "CardsOpened":
            opened = tuple(event["opened"][a] for a in ANIMALS)
            return _dealing_done(replace(state, opened=opened))
        case "HandDealt":
            seat = event["seat"]
            state = replace(state, hands=replace_at(state.hands, seat, tuple(event["hand"])),
                            dealt=replace_at(state.dealt, seat, True))
            return _dealing_done(state)
        case "CardPlayed":
            seat, card = event["seat"], event["card"]
            hand = tuple(c for c in state.hands[seat] if c != card)
            return replace(state, hands=replace_at(state.hands, seat, hand),
                           plays=state.plays + (Play(seat, event["animal"], event["number"]),))
        case "FigureTaken":
            state = replace(state, takes=state.takes + (Take(event["seat"], event["animal"]),))
            # Safari rule 3: the round ends after a turn that leaves an animal with six open cards.
            return replace(state, step=ENDING) if completed(state) else state
        case "RoundScored":
            played = {s: tuple(card_id(p.animal, p.number) for p in state.plays if p.seat == s) for s in range(state.seats)}
            record = RoundRecord(
                round=state.round,
                starter=starter_of(state.round, state.seats),
                opened=tuple(n for n in state.opened if n is not None),
                hands=tuple(sorted_cards(state.hands[s] + played[s]) for s in range(state.seats)),
                plays=state.plays,
                takes=state.takes,
                values=tuple(event["values"][a] for a in ANIMALS),
                completed=tuple(event["completed"]),
                points=tuple(event["points"]),
            )
            return replace(state, step=BREAK, history=state.history + (record,))
        case "RoundBegan":
            n = state.seats
            return replace(state, round=event["round"], step=DEAL, opened=(None,) * len(ANIMALS), hands=((),) * n,
                           dealt=(False,) * n, plays=(), takes=())
        case "SafariScored":
            final = final_scoring(state.history, state.gallery_ranks)
            return replace(state, step=NAMING, final=final)
        case "OpponentNamed":
            return replace(state, step=OVER, opponent=event["opponent"])
    return state


def _dealing_done(state: SafariState) -> SafariState:
    if state.step == DEAL and None not in state.opened and all(state.dealt):
        return replace(state, step=PLAY)
    return state


# -- result --------------------------------------------------------------------------------------


def result(state: SafariState) -> Result | None:
    # Safari rule 5: the result is final once the winner has named the Coin opponent.
    if state.step != OVER or state.final is None or state.opponent is None:
        return None
    f = state.final
    standings = tuple(Standing(seat, i + 1, f.totals[seat]) for i, seat in enumerate(f.order))
    tied = len(set(f.totals)) < len(f.totals)
    decided = (
        T("총점 (피규어 점수 + 동물 순위 보너스); 동점은 갤러리 순위가 높은 쪽",
          "Total (figure points + animal-rank bonuses); equal totals go to the better Gallery rank")
        if tied
        else T("총점 (피규어 점수 + 동물 순위 보너스)", "Total (figure points + animal-rank bonuses)")
    )
    return Result(
        standings,
        decided,
        {
            "winner": f.winner,
            "last": f.last,
            "opponent": state.opponent,
            "order": list(f.order),
            "animal_sums": dict(zip(ANIMALS, f.sums, strict=True)),
            "animal_ranks": dict(zip(ANIMALS, f.ranks, strict=True)),
            "animal_bonuses": dict(zip(ANIMALS, f.animal_bonus, strict=True)),
            "figure_points": list(f.figure_points),
            "bonuses": list(f.bonuses),
            "totals": list(f.totals),
            "gallery_ranks": list(state.gallery_ranks),
            "tie_broken_by_gallery_rank": tied,
        },
    )

