"""Horror Race 2: setup, pending decisions, decide, evolve and the result.

Checks cite "Horror rule N" (RULINGS.md "Horror Race 2") or the seed section ("seed 6").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.kernel import (
    Actor,
    Decision,
    Event,
    Field,
    Option,
    Result,
    Rng,
    Standing,
    T,
    Turn,
    expect,
    require,
    with_consequences,
)

from .state import (
    BACKED,
    BACKING,
    CHARACTERS,
    CHOOSE,
    DRAW,
    DRAW_ACTION,
    DRAWN,
    FORFEIT_ACTION,
    NAMES,
    OVER,
    PLACE,
    RESOLVE,
    REVEAL,
    ZONE_STEPS,
    ZONES,
    Placement,
    RaceState,
    RoundLog,
    ZoneMove,
    box_coins,
    canonical,
    draw_label,
    draw_value,
    final_places,
    full_box,
    group_of,
    in_box,
    legal_draws,
    move,
    parse_groups,
    seat_points,
    seat_ranks,
    take,
    zone_counts,
    zone_mover,
)

# -- setup and turn ------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> RaceState:
    # Horror rule 1: seats 1..N are the lottery order; the table's seat order is that order.
    guests = parse_groups(options.get("groups", "none")) or ()
    count = len(seats)
    # The option was checked against the seat count when the table was made.
    return RaceState(
        seats=count,
        deal=options.get("deal", "referee"),
        guests=tuple(s - 1 for s in guests if s <= count),
        backings=((),) * count,
    )


def _character_options() -> tuple[Option, ...]:
    return tuple(Option(c, NAMES[c]) for c in CHARACTERS)


def _zone_options() -> tuple[Option, ...]:
    return tuple(
        Option(z, T(f"{z}구역 ({s}칸 이동)", f"zone {z} (moves {s} cell{'s' if s > 1 else ''})"))
        for z, s in zip(ZONES, ZONE_STEPS, strict=True)
    )


def coin_items(drawn: tuple[str, ...]) -> tuple[Option, ...]:
    """The drawn coins as distinct items c1, c2, c3 (two coins may show the same character)."""
    return tuple(
        Option(f"c{i + 1}", T(f"코인 {i + 1}: {NAMES[c].ko}", f"coin {i + 1}: {NAMES[c].en}"))
        for i, c in enumerate(drawn)
    )


def turn(state: RaceState) -> Turn:
    if state.step == BACKING:
        decisions = tuple(
            Decision(
                "back_characters",
                T("우승시키고 싶은 캐릭터 2개를 고르세요 (비공개)", "Choose the 2 characters you back (secret)"),
                (Field("characters", "some", T("응원 캐릭터", "Backed characters"), _character_options(), k=BACKED),),
                seat=seat,
            )
            for seat in range(state.seats)
            if not state.backings[seat]
        )
        submitted = sum(1 for b in state.backings if b)
        return Turn(T("응원 캐릭터 제출", "Backing the characters"), decisions, sealed=(submitted, state.seats))
    seat = state.in_turn
    if seat is None:
        return Turn(T("레이스 종료", "Race over") if state.step == OVER else T("이동 중", "Moving"))
    phase = T(f"{state.round}라운드: {seat + 1}번 자리 차례", f"Round {state.round}: seat {seat + 1}'s turn")
    if state.step == CHOOSE:
        options = [Option(DRAW_ACTION, T("코인 3개 뽑기", "Draw 3 coins"))]
        # Horror rule 2: only the first forfeit of a round counts; later seats cannot declare.
        if state.forfeiter is None:
            options.append(Option(FORFEIT_ACTION, T("코인포기 (다음 라운드 마지막 순서)", "Coin forfeit (last next round)")))
        decision = Decision(
            "take_turn",
            T("코인을 뽑을지 코인포기를 선언할지 고르세요", "Draw coins or declare the coin forfeit"),
            (Field("action", "one", T("행동", "Action"), tuple(options)),),
            seat=seat,
        )
        return Turn(phase, (decision,))
    if state.step == DRAW:
        prompt = T(f"{seat + 1}번 자리가 상자에서 코인 3개를 뽑습니다", f"Seat {seat + 1} draws 3 coins from the box")
        if state.deal == "referee":
            return Turn(phase, (Decision("draw_coins", prompt, auto=True),))
        draws = tuple(Option(draw_value(d), draw_label(d)) for d in legal_draws(state.box))
        decision = Decision(
            "draw_coins",
            T(f"{seat + 1}번 자리가 뽑은 코인 3개를 입력하세요", f"Enter the 3 coins seat {seat + 1} drew"),
            (Field("coins", "one", T("뽑은 코인", "Coins drawn"), draws),),
        )
        return Turn(phase, (decision,))
    # PLACE
    decision = Decision(
        "place_coins",
        T("뽑은 코인 3개를 모두 구역에 놓으세요", "Place all 3 drawn coins on the zones"),
        (Field("zones", "assign", T("코인 배치", "Coin placement"), _zone_options(), items=coin_items(state.drawn)),),
        seat=seat,
    )
    return Turn(phase, (decision,))


# -- decide --------------------------------------------------------------------------------


def decide(state: RaceState, actor: Actor, move_: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move_)
    match move_["type"]:
        case "back_characters":
            first = _backing(state, actor, move_["characters"])
        case "take_turn":
            first = _taking_turn(state, move_["action"])
        case "draw_coins":
            first = _drawing(state, actor, move_, rng)
        case _:  # "place_coins"
            first = _placing(state, move_["zones"])
    return with_consequences(state, [first], evolve, _consequence)


def _backing(state: RaceState, actor: Actor, characters: list[Any]) -> Event:
    seat = actor.acting_seat
    assert seat is not None  # a backing belongs to a seat
    for c in characters:
        # Horror rule 1: one of the five characters.
        require(
            c in CHARACTERS,
            "horror/no_such_character",
            f"없는 캐릭터입니다: {c!r} (뱀파이어 vampire, 강시 jiangshi, 구미호 gumiho, 미라 mummy, 좀비 zombie)",
            f"No such character: {c!r} (vampire, jiangshi, gumiho, mummy, zombie)",
            character=c,
        )
    # Horror rule 1: the backing is secret (dealer and the seat only).
    return Event("CharactersBacked", {"seat": seat}, {"characters": list(canonical(characters))}, (seat,))


def _taking_turn(state: RaceState, action: Any) -> Event:
    seat = state.in_turn
    require(
        action in (DRAW_ACTION, FORFEIT_ACTION),
        "horror/no_such_action",
        f"행동은 draw(코인 뽑기) 또는 forfeit(코인포기)입니다: {action!r}",
        f"The action is draw or forfeit, not {action!r}",
        action=action,
    )
    if action == FORFEIT_ACTION:
        # Horror rule 2: only the first forfeit of a round counts; later seats cannot declare.
        require(
            state.forfeiter is None,
            "horror/forfeit_taken",
            f"이번 라운드에는 이미 {state.forfeiter + 1 if state.forfeiter is not None else 0}번 자리가 "
            f"코인포기를 선언했습니다 (요청: {action!r})",
            f"Seat {state.forfeiter + 1 if state.forfeiter is not None else 0} has already declared the coin "
            f"forfeit this round (asked: {action!r})",
            action=action,
            forfeiter=state.forfeiter,
        )
        return Event("CoinForfeited", {"seat": seat, "round": state.round})
    return Event("DrawChosen", {"seat": seat, "round": state.round})


def _drawing(state: RaceState, actor: Actor, move_: dict[str, Any], rng: Rng) -> Event:
    seat = state.in_turn
    if actor.kind == "referee":
        # Horror rule 2: three coins at random from the box (deal=referee).
        coins = canonical(rng.sample(box_coins(state.box), DRAWN))
    else:
        value = move_["coins"]
        parts = value.split(",") if isinstance(value, str) else []
        require(
            len(parts) == DRAWN and all(p in CHARACTERS for p in parts),
            "horror/bad_draw",
            f"뽑은 코인은 캐릭터 3개를 쉼표로 적습니다 (예: vampire,vampire,zombie): {value!r}",
            f"The coins drawn are 3 characters separated by commas (e.g. vampire,vampire,zombie): {value!r}",
            coins=value,
        )
        coins = canonical(parts)
        # Horror rule 2: the coins are drawn from the box, so they must be in it.
        require(
            in_box(state.box, coins),
            "horror/not_in_box",
            f"상자에 그 코인들이 없습니다: {draw_label(coins).ko}",
            f"The box does not hold these coins: {draw_label(coins).en}",
            coins=value,
        )
    # Drawn coins are public at once: they are drawn and placed in view of the table.
    return Event("CoinsDrawn", {"seat": seat, "round": state.round, "coins": list(coins)})


def _placing(state: RaceState, zones: dict[str, Any]) -> Event:
    seat = state.in_turn
    # Seed 7: every drawn coin is placed, in any split over the three zones (the assign
    # shape already holds every item exactly once on an existing zone).
    coins = [(c, zones[f"c{i + 1}"]) for i, c in enumerate(state.drawn)]
    for _, zone in coins:
        require(zone in ZONES, "horror/no_such_zone", f"없는 구역입니다: {zone!r} (1, 2, 3)",
                f"No such zone: {zone!r} (1, 2, 3)", zone=zone)
    return Event(
        "CoinsPlaced",
        {"seat": seat, "round": state.round, "coins": [{"character": c, "zone": z} for c, z in coins]},
    )


def _consequence(state: RaceState) -> Event | None:
    if state.step == BACKING and all(state.backings):
        # Horror rule 1: the box holds the 3N coins nobody backed; seat 1 starts.
        return Event("RaceStarted", {"round": 1, "order": list(range(state.seats)), "box_size": DRAWN * state.seats})
    if state.step == RESOLVE:
        if state.finish:
            # Horror rule 5: the race ends at once; Horror rule 6: the final places.
            places = final_places(state.cells, state.finish)
            return Event("RaceFinished", {
                "round": state.round,
                "finish": list(reversed(state.finish)),  # top first
                "places": [{"character": c, "place": p} for c, p in places],
            })
        if len(state.moves) < len(ZONES):
            return _zone(state, len(state.moves) + 1)
        return Event("RoundEnded", {"round": state.round, "forfeit": state.forfeiter, "next_order": list(_next_order(state))})
    if state.step == REVEAL:
        # Horror rule 6: the final scoring reveals every backing.
        points = seat_points(state.backings, state.places)
        ranks = seat_ranks(replace(state, points=points))
        return Event("BackingsRevealed", {
            "backings": [list(b) for b in state.backings],
            "points": list(points),
            "ranks": list(ranks),
        })
    return None


def _zone(state: RaceState, zone: int) -> Event:
    # Horror rule 3: zones resolve in order 1, 2, 3, moving 1, 2 and 4 cells.
    steps = ZONE_STEPS[zone - 1]
    counts = zone_counts(state.placements, zone)
    mover = zone_mover(counts)
    if mover is None:
        record = ZoneMove(zone, steps, counts)
    else:
        _, record = move(state.cells, mover, steps, zone, counts)
    return Event("ZoneResolved", {"round": state.round, **record.to_json()})


def _next_order(state: RaceState) -> tuple[int, ...]:
    # Horror rule 2: next round starts with the seat after the forfeiter and ends with it;
    # with no forfeit the order stays.
    if state.forfeiter is None:
        return state.order
    i = state.order.index(state.forfeiter)
    return state.order[i + 1:] + state.order[:i + 1]


# -- evolve --------------------------------------------------------------------------------


def _advance(state: RaceState) -> RaceState:
    position = state.position + 1
    if position >= len(state.order):
        return replace(state, position=position, step=RESOLVE)
    return replace(state, position=position, step=CHOOSE)


def _round_log(state: RaceState) -> RoundLog:
    return RoundLog(state.round, state.order, state.forfeiter, state.placements, state.moves)


def evolve(state: RaceState, event: Event) -> RaceState:
    match event.type:
        case "CharactersBacked":
            seat = event["seat"]
            backings = tuple(tuple(event["characters"]) if i == seat else b for i, b in enumerate(state.backings))
            return replace(state, backings=backings)
        case "RaceStarted":
            return replace(state, step=CHOOSE, round=event["round"], order=tuple(event["order"]), position=0,
                           box=full_box(state.backings))
        case "DrawChosen":
            return replace(state, step=DRAW)
        case "CoinForfeited":
            return _advance(replace(state, forfeiter=event["seat"]))
        case "CoinsDrawn":
            coins = tuple(event["coins"])
            return replace(state, step=PLACE, drawn=coins, box=take(state.box, coins))
        case "CoinsPlaced":
            placed = Placement(event["seat"], tuple((c["character"], c["zone"]) for c in event["coins"]))
            return _advance(replace(state, placements=state.placements + (placed,), drawn=()))
        case "ZoneResolved":
            record = ZoneMove.from_json(event.data)
            cells, finish = state.cells, state.finish
            if record.mover is not None:
                cells, record = move(cells, record.mover, record.steps, record.zone, record.counts)
                if record.finished:
                    finish = record.carried
            return replace(state, cells=cells, finish=finish, moves=state.moves + (record,))
        case "RoundEnded":
            # Horror rule 5: the coins return to the box at round end.
            return replace(
                state,
                step=CHOOSE,
                history=state.history + (_round_log(state),),
                round=state.round + 1,
                order=tuple(event["next_order"]),
                position=0,
                forfeiter=None,
                placements=(),
                moves=(),
                box=full_box(state.backings),
            )
        case "RaceFinished":
            places = tuple((p["character"], p["place"]) for p in event["places"])
            return replace(state, step=REVEAL, history=state.history + (_round_log(state),), places=places)
        case "BackingsRevealed":
            return replace(state, step=OVER, points=tuple(event["points"]))
    return state


# -- result --------------------------------------------------------------------------------


def result(state: RaceState) -> Result | None:
    if state.step != OVER:
        return None
    ranks = seat_ranks(state)
    standings = tuple(Standing(seat, ranks[seat], state.points[seat]) for seat in range(state.seats))
    podium = [c for c, p in state.places if p <= 3]
    ko = ", ".join(f"{p}위 {NAMES[c].ko}" for c, p in state.places if p <= 3)
    en = ", ".join(f"{p}. {NAMES[c].en}" for c, p in state.places if p <= 3)
    grouped = " (그룹별 순위)" if state.guests else ""
    grouped_en = " (ranked within groups)" if state.guests else ""
    return Result(
        standings,
        T(f"레이스 결과 {ko}에 따른 승점{grouped}", f"Points from the race result {en}{grouped_en}"),
        {
            "places": dict(state.places),
            "podium": podium,
            "backings": [list(b) for b in state.backings],
            "groups": [group_of(state, seat) for seat in range(state.seats)] if state.guests else None,
            "rounds_played": state.round,
        },
    )
