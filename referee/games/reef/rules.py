"""Reef: setup, decide (with the consequences the rules trigger), evolve, result.

Rule citations ("Reef rule N") use the numbering of the package docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import Actor, Event, Result, Rng, Standing, T, expect, require, with_consequences

from .cards import CARDS, COLOURS, DECK, is_card
from .decisions import turn
from .patterns import MAX_HEIGHT, cell_name, empty_cells, full_stacks, hand_points, score, with_coral
from .state import (
    ACTION,
    DEAL_REFEREE,
    DISPLAY,
    DRAWING,
    ENDING,
    HAND_START,
    OVER,
    PLACE,
    REFILL,
    SETUP,
    TURN_END,
    ReefState,
    Scored,
    changed,
    corals_for,
    dealt,
    deck_left,
    lowest_display,
    new_state,
    next_deal,
    replace_at,
    seen_cards,
    without,
)

# -- setup ----------------------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> ReefState:
    # Reef rule 1: nothing random here; the deal is an automatic decision (or the dealer's).
    return new_state(tuple(seats), options.get("deal", DEAL_REFEREE))


# -- decide ---------------------------------------------------------------------------------------


def decide(state: ReefState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move)
    match move["type"]:
        case "deal":
            events = _deal(state, rng)
        case "deal_card":
            events = [_dealt_by_dealer(state, move["card"])]
        case "place_start":
            events = [_start(state, actor.acting_seat, move["corals"])]
        case "take_card":
            events = [_take(state, move["card"])]
        case "draw_card":
            events = [_draw(state, move["card"])]
        case "enter_draw":
            events = [Event("CardDrawn", {"seat": state.current}, {"card": _unseen(state, move["card"])},
                            (state.current,))]
        case "refill_display":
            events = [Event("DisplayFilled", {"slot": state.slot, "card": _unseen(state, move["card"])})]
        case "play_card":
            events = [_play(state, move["card"])]
        case _:  # "place_coral"
            events = [_place(state, move)]
    return with_consequences(state, events, evolve, _consequence)


def _deal(state: ReefState, rng: Rng) -> list[Event]:
    # Reef rule 1: shuffle the 60 cards, 2 to each seat, 3 face up. The order of the rest is
    # the dealer's only (nobody at the table knows a deck's order).
    deck = rng.shuffled(DECK)
    events = [Event("DeckShuffled", {"cards": len(deck)}, {"deck": list(deck)}, ())]
    for seat in range(state.seats):
        for _ in range(HAND_START):
            events.append(Event("CardDealt", {"seat": seat}, {"card": deck.pop(0)}, (seat,)))
    for slot in range(DISPLAY):
        events.append(Event("DisplayFilled", {"slot": slot, "card": deck.pop(0)}))
    return events


def _unseen(state: ReefState, card: Any) -> int:
    """Dealer mode: a card the dealer enters must still be in the physical deck (the number
    field keeps it within 1-60)."""
    require(card not in seen_cards(state), "reef/card_out",
            f"{card}번 카드는 이미 더미 밖에 있습니다 (손, 펼친 카드 또는 사용한 카드)",
            f"Card {card} is already out of the deck (in a hand, on the display or played)", card=card)
    return card


def _dealt_by_dealer(state: ReefState, card: Any) -> Event:
    card = _unseen(state, card)
    where, index = next_deal(state)
    if where == "hand":
        return Event("CardDealt", {"seat": index}, {"card": card}, (index,))
    return Event("DisplayFilled", {"slot": index, "card": card})


def _start(state: ReefState, seat: int, corals: dict[str, Any]) -> Event:
    cells = list(corals.values())
    # Reef rule 2: one coral of each colour on each of the four centre cells (the options
    # are those cells; a cell given twice leaves another empty).
    twice = sorted({c for c in cells if cells.count(c) > 1})
    require(not twice, "reef/start_cell_twice",
            f"한 칸에 시작 산호를 두 개 놓을 수 없습니다: {', '.join(cell_name(c) for c in twice)}",
            f"Two start corals on one cell: {', '.join(cell_name(c) for c in twice)}",
            cells=", ".join(cell_name(c) for c in twice))
    placed = [{"cell": corals[colour], "colour": colour} for colour in COLOURS]
    return Event("StartPlaced", {"seat": seat, "corals": sorted(placed, key=lambda p: p["cell"])})


def _display_card(state: ReefState, card: Any) -> int:
    require(is_card(card) and card in state.display, "reef/not_on_display",
            f"펼쳐진 카드가 아닙니다: {card!r}", f"Not a display card: {card!r}", card=card)
    return card


def _take(state: ReefState, card: Any) -> Event:
    seat = state.current
    card = _display_card(state, card)
    slot = state.display.index(card)
    # Reef rule 4: the card comes with the points lying on it.
    return Event("CardTaken", {"seat": seat, "card": card, "slot": slot, "tokens": state.tokens[slot]})


def _draw(state: ReefState, card: Any) -> Event:
    seat = state.current
    card = _display_card(state, card)
    # Reef rule 5: a point to pay, a card to draw and room in the hand: the draw is only
    # offered then (expect refuses it otherwise).
    low = lowest_display(state)
    # Reef rule 5: the point goes on a card with the lowest printed points.
    require(card in low, "reef/not_lowest",
            f"{card}번 카드({CARDS[card].points}점)는 가장 낮은 점수({CARDS[low[0]].points}점) 카드가 아닙니다",
            f"Card {card} ({CARDS[card].points} points) is not a lowest card ({CARDS[low[0]].points} points)",
            card=card)
    return Event("PointPaid", {"seat": seat, "card": card, "slot": state.display.index(card)})


def _hand_card(state: ReefState, card: Any) -> int:
    seat = state.current
    require(is_card(card) and card in state.hands[seat], "reef/not_in_hand",
            f"손에 없는 카드입니다: {card!r}", f"Not a card in your hand: {card!r}", card=card)
    return card


def _play(state: ReefState, card: Any) -> Event:
    card = _hand_card(state, card)
    seat = state.current
    # Reef rule 6: the card's corals that the supply (and the board) still has room for.
    corals = corals_for(state, CARDS[card], seat)
    return Event("CardPlayed", {"seat": seat, "card": card, "corals": list(corals)})


def _place(state: ReefState, move: dict[str, Any]) -> Event:
    seat = state.current
    colour = move.get("coral", state.to_place[0])
    require(colour in state.to_place, "reef/no_such_coral",
            f"이 카드로 놓을 산호가 아닙니다: {colour!r}", f"Not a coral of this card left to place: {colour!r}",
            coral=colour)
    cell = move["cell"]
    require(isinstance(cell, int) and not isinstance(cell, bool) and 0 <= cell < 16, "reef/no_such_cell",
            f"그런 칸은 없습니다: {cell!r}", f"No such cell: {cell!r}", cell=cell)
    height = len(state.boards[seat][cell])
    # Reef rule 6: at most 4 corals in a stack.
    require(height < MAX_HEIGHT, "reef/stack_full",
            f"{cell_name(cell)} 칸은 이미 {MAX_HEIGHT}층입니다", f"Cell {cell_name(cell)} is already {MAX_HEIGHT} high",
            cell=cell)
    return Event("CoralPlaced", {"seat": seat, "colour": colour, "cell": cell, "height": height + 1})


# -- consequences ---------------------------------------------------------------------------------


def _consequence(state: ReefState) -> Event | None:
    if state.step == SETUP:
        if dealt(state) and all(state.started):
            return Event("TurnBegan", {"seat": 0, "round": 1})
        return None
    # Reef rule 9: a colour whose supply reaches 0 runs out, once, and makes this the last round.
    for colour in COLOURS:
        if state.supply[COLOURS.index(colour)] == 0 and colour not in state.out:
            return Event("ColourRanOut", {"colour": colour, "last_seat": state.seats - 1})
    if state.step == REFILL and deck_left(state) == 0:
        # Reef rule 9: the empty deck cannot refill the display: the game ends at once.
        return Event("GameEnded", {"reason": "deck"})
    if state.deal_mode == DEAL_REFEREE and state.step == REFILL:
        return Event("DisplayFilled", {"slot": state.slot, "card": state.deck[0]})
    if state.deal_mode == DEAL_REFEREE and state.step == DRAWING:
        return Event("CardDrawn", {"seat": state.current}, {"card": state.deck[0]}, (state.current,))
    if state.step == PLACE and not state.to_place:
        assert state.card is not None
        s = score(CARDS[state.card], state.boards[state.current])
        return Event("CardScored", {"seat": state.current, "card": state.card, "count": s.count,
                                    "points": s.points, "matches": [list(m) for m in s.matches],
                                    "placed": list(state.placed)})
    if state.step == TURN_END:
        # Reef rule 9: with a colour gone, the round is finished to the last seat.
        if state.out and state.current == state.seats - 1:
            return Event("GameEnded", {"reason": "supply"})
        nxt = (state.current + 1) % state.seats
        return Event("TurnBegan", {"seat": nxt, "round": state.round + (nxt == 0)})
    if state.step == ENDING:
        # Reef rule 10: from the first seat on, the cards left in hand are shown and scored.
        for seat in range(state.seats):
            if not state.hand_scored[seat]:
                board = state.boards[seat]
                cards = [{"card": c, "points": hand_points(CARDS[c], board),
                          "matches": [list(m) for m in score(CARDS[c], board).matches]} for c in state.hands[seat]]
                return Event("HandScored", {"seat": seat, "cards": cards,
                                            "points": sum(c["points"] for c in cards)})
        return Event("FinalScores", {"points": list(state.points),
                                     "empty": [empty_cells(b) for b in state.boards],
                                     "full": [full_stacks(b) for b in state.boards]})
    return None


# -- evolve ---------------------------------------------------------------------------------------


def evolve(state: ReefState, event: Event) -> ReefState:
    match event.type:
        case "DeckShuffled":
            return changed(state, shuffled=True, deck=tuple(event["deck"]))
        case "CardDealt":
            seat, card = event["seat"], event["card"]
            return changed(state, hands=replace_at(state.hands, seat, state.hands[seat] + (card,)),
                           first_hands=replace_at(state.first_hands, seat, state.first_hands[seat] + (card,)),
                           deck=_off_deck(state.deck, card))
        case "DisplayFilled":
            slot, card = event["slot"], event["card"]
            step = TURN_END if state.step == REFILL else state.step
            first = replace_at(state.first_display, slot, card) if state.step == SETUP else state.first_display
            return changed(state, display=replace_at(state.display, slot, card), tokens=replace_at(state.tokens, slot, 0),
                           deck=_off_deck(state.deck, card), step=step, slot=None, first_display=first)
        case "StartPlaced":
            seat = event["seat"]
            board = state.boards[seat]
            supply = list(state.supply)
            for coral in event["corals"]:
                board = with_coral(board, coral["cell"], coral["colour"])
                supply[COLOURS.index(coral["colour"])] -= 1
            return changed(state, boards=replace_at(state.boards, seat, board), supply=tuple(supply),
                           started=replace_at(state.started, seat, True))
        case "TurnBegan":
            return changed(state, step=ACTION, current=event["seat"], round=event["round"])
        case "CardTaken":
            seat, card, slot = event["seat"], event["card"], event["slot"]
            return changed(state, hands=replace_at(state.hands, seat, state.hands[seat] + (card,)),
                           points=replace_at(state.points, seat, state.points[seat] + event["tokens"]),
                           display=replace_at(state.display, slot, None), tokens=replace_at(state.tokens, slot, 0),
                           step=REFILL, slot=slot)
        case "PointPaid":
            seat, slot = event["seat"], event["slot"]
            return changed(state, points=replace_at(state.points, seat, state.points[seat] - 1),
                           tokens=replace_at(state.tokens, slot, state.tokens[slot] + 1), step=DRAWING)
        case "CardDrawn":
            seat, card = event["seat"], event["card"]
            return changed(state, hands=replace_at(state.hands, seat, state.hands[seat] + (card,)),
                           deck=_off_deck(state.deck, card), step=TURN_END)
        case "CardPlayed":
            seat, card = event["seat"], event["card"]
            corals = tuple(event["corals"])
            supply = list(state.supply)
            for colour in corals:
                supply[COLOURS.index(colour)] -= 1
            return changed(state, hands=replace_at(state.hands, seat, without(state.hands[seat], card)),
                           played=replace_at(state.played, seat, state.played[seat] + (card,)),
                           supply=tuple(supply), card=card, to_place=corals, placed=(), step=PLACE)
        case "CoralPlaced":
            seat, colour, cell = event["seat"], event["colour"], event["cell"]
            i = state.to_place.index(colour)
            return changed(state, boards=replace_at(state.boards, seat, with_coral(state.boards[seat], cell, colour)),
                           to_place=state.to_place[:i] + state.to_place[i + 1 :], placed=state.placed + (cell,))
        case "CardScored":
            seat = event["seat"]
            record = Scored(seat, event["card"], event["count"], event["points"],
                            tuple(tuple(m) for m in event["matches"]), state.round,
                            placed=tuple(event.get("placed", ())))
            return changed(state, points=replace_at(state.points, seat, state.points[seat] + event["points"]),
                           scores=state.scores + (record,), card=None, step=TURN_END)
        case "ColourRanOut":
            return changed(state, out=state.out + (event["colour"],))
        case "GameEnded":
            return changed(state, step=ENDING, end_reason=event["reason"], slot=None)
        case "HandScored":
            seat = event["seat"]
            records = tuple(Scored(seat, c["card"], 1 if c["points"] else 0, c["points"],
                                   tuple(tuple(m) for m in c["matches"]), state.round, from_hand=True)
                            for c in event["cards"])
            return changed(state, points=replace_at(state.points, seat, state.points[seat] + event["points"]),
                           scores=state.scores + records, hand_scored=replace_at(state.hand_scored, seat, True))
        case "FinalScores":
            return changed(state, step=OVER)
    return state


def _off_deck(deck: tuple[int, ...], card: int) -> tuple[int, ...]:
    return without(deck, card) if card in deck else deck


# -- result ---------------------------------------------------------------------------------------


def ranking_key(state: ReefState, seat: int) -> tuple[int, int, int]:
    """Reef rule 11: most points, then fewer empty cells, then more 4-high stacks."""
    board = state.boards[seat]
    return (-state.points[seat], empty_cells(board), -full_stacks(board))


def result(state: ReefState) -> Result | None:
    if state.step != OVER:
        return None
    keys = {s: ranking_key(state, s) for s in range(state.seats)}
    order = sorted(range(state.seats), key=lambda s: (keys[s], s))
    standings = tuple(Standing(s, 1 + sum(1 for o in range(state.seats) if keys[o] < keys[s]), state.points[s])
                      for s in order)
    return Result(standings, decided_by(state), {
        "points": list(state.points),
        "empty_cells": [empty_cells(b) for b in state.boards],
        "full_stacks": [full_stacks(b) for b in state.boards],
        "end_reason": state.end_reason,
        "hand_points": [sum(r.points for r in state.scores if r.seat == s and r.from_hand) for s in range(state.seats)],
    })


def decided_by(state: ReefState) -> T:
    """Which part of Reef rule 11 separated the seats that needed it."""
    used = 0
    seats = range(state.seats)
    for a in seats:
        for b in seats:
            if a < b:
                ka, kb = ranking_key(state, a), ranking_key(state, b)
                if ka == kb:
                    used = max(used, 3)
                else:
                    used = max(used, next(i for i in range(3) if ka[i] != kb[i]))
    return (
        T("점수", "Points"),
        T("점수, 동점은 빈칸이 적은 쪽", "Points; a tie goes to fewer empty cells"),
        T("점수, 동점은 빈칸이 적은 쪽, 그다음 4층 산호가 많은 쪽", "Points; ties: fewer empty cells, then more 4-high stacks"),
        T("점수, 빈칸, 4층 산호까지 같아 공동 순위", "Points, empty cells and 4-high stacks all equal: a shared place"),
    )[used]

