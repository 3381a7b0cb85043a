"""Tricky Coin (트리키 코인), seed 000 section 5, under RULINGS.md "Tricky Coin".

Rules enforced here (cited beside each check as "Coin rule N", numbering of RULINGS.md):

1. Each of the two players starts with three 1s, three 5s, three 10s and two 20s.
2. A round: each player secretly puts one coin in their box; then both reveal GO or STOP
   together. STOP ends one's round; GO puts exactly one more secret coin in; if both said GO,
   the GO/STOP reveal repeats. A player with no coin left cannot choose GO.
3. The boxes open together: the higher sum wins as many points as coins were put in by both;
   equal sums score nothing. The boxes are always exchanged: each player receives the coins
   the other put in.
4. Ten rounds. Equal points after ten: two more rounds at a time until the points differ
   after such a pair.

Secret (dealer and the owner only): which coins are in a box until it opens, and a GO/STOP
token until both are revealed. Public: each player's GO/STOP once revealed, the number of
coins in each box, the opened values, the points, and each player's holdings at the start of
the round (derivable from what was opened).

Audience question (from the public view only): "N라운드: 누구의 상자가 이길까요?" (the two seats
or a tie; closes as the boxes open), besides the kernel's "who wins?".

A recap's moments (``highlight``, from the public view only): the closest openings first (a tie
highest), the bigger pot among openings as close.

Table options: none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.kernel import (
    Actor,
    Audience,
    Decision,
    Event,
    Field,
    Game,
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
from referee.kernel.predictions import Prediction, params, seat_options

DENOMINATIONS = (1, 5, 10, 20)
# Coin rule 1: three 1s, three 5s, three 10s, two 20s.
START_HAND = (1, 1, 1, 5, 5, 5, 10, 10, 10, 20, 20)
REGULAR_ROUNDS = 10
OVERTIME_ROUNDS = 2
GO, STOP = "GO", "STOP"

# Steps of a round. "put": the seats in `owe_put` owe a coin; "token": both owe GO/STOP;
# "over": the match has ended.
PUT, TOKEN, OVER = "put", "token", "over"


@dataclass(frozen=True)
class OpenedRound:
    round: int
    boxes: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int | None
    points: int


@dataclass(frozen=True)
class CoinState:
    hands: tuple[tuple[int, ...], tuple[int, ...]] = (START_HAND, START_HAND)
    start_hands: tuple[tuple[int, ...], tuple[int, ...]] = (START_HAND, START_HAND)
    boxes: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    round: int = 1
    rounds: int = REGULAR_ROUNDS
    step: str = PUT
    owe_put: tuple[bool, bool] = (True, True)
    # After the reveal, True when this round ends as soon as the owed coins are in.
    closing: bool = False
    tokens: tuple[str | None, str | None] = (None, None)
    revealed: tuple[tuple[str, str], ...] = ()  # this round's revealed GO/STOP pairs
    points: tuple[int, int] = (0, 0)
    opened: tuple[OpenedRound, ...] = ()


# -- helpers -------------------------------------------------------------------------------


def _set(pair: tuple, seat: int, value: Any) -> tuple:
    return tuple(value if i == seat else v for i, v in enumerate(pair))


def _without(hand: tuple[int, ...], coin: int) -> tuple[int, ...]:
    i = hand.index(coin)
    return hand[:i] + hand[i + 1 :]


def _counts(coins: tuple[int, ...]) -> list[int]:
    """How many of each denomination, in the order of the view's `coins`."""
    c = Counter(coins)
    return [c[d] for d in DENOMINATIONS]


# -- setup and turn ------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> CoinState:
    return CoinState()


def turn(state: CoinState) -> Turn:
    label = T(f"{state.round}라운드", f"Round {state.round}")
    if state.step == OVER:
        return Turn(T("경기 종료", "Match over"))
    if state.step == PUT:
        decisions = tuple(
            Decision(
                "put_coin",
                T("상자에 넣을 코인을 고르세요", "Choose a coin to put in your box"),
                (
                    Field(
                        "coin",
                        "one",
                        T("코인", "Coin"),
                        tuple(Option(d, T(f"{d}코인", f"{d} coin")) for d in DENOMINATIONS if d in state.hands[seat]),
                    ),
                ),
                seat=seat,
            )
            for seat in (0, 1)
            if state.owe_put[seat]
        )
        submitted = sum(not owe for owe in state.owe_put)
        return Turn(T(f"{label.ko}: 코인 넣기", f"{label.en}: put a coin"), decisions, sealed=(submitted, 2))
    decisions = tuple(
        Decision(
            "choose_token",
            T("GO 또는 STOP을 고르세요", "Choose GO or STOP"),
            (Field("token", "one", T("토큰", "Token"), _token_options(state, seat)),),
            seat=seat,
        )
        for seat in (0, 1)
        if state.tokens[seat] is None
    )
    submitted = sum(t is not None for t in state.tokens)
    return Turn(T(f"{label.ko}: GO/STOP", f"{label.en}: GO/STOP"), decisions, sealed=(submitted, 2))


def _token_options(state: CoinState, seat: int) -> tuple[Option, ...]:
    stop = Option(STOP, T("STOP (그만 넣기)", "STOP (no more coins)"))
    # Coin rule 2: a player with no coin left cannot choose GO.
    if not state.hands[seat]:
        return (stop,)
    return (Option(GO, T("GO (한 개 더 넣기)", "GO (put one more)")), stop)


# -- decide --------------------------------------------------------------------------------


def decide(state: CoinState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    expect(turn(state), actor, move)
    seat = actor.acting_seat
    assert seat is not None  # every Tricky Coin decision belongs to a seat
    match move["type"]:
        case "put_coin":
            coin = move["coin"]
            require(
                coin in DENOMINATIONS,
                "coin/no_such_coin",
                f"{coin!r}코인은 없습니다 (1, 5, 10, 20 중 하나)",
                f"There is no {coin!r} coin (one of 1, 5, 10, 20)",
                coin=coin,
            )
            # Coin rule 2: a coin put in the box comes from the player's own holdings.
            require(
                coin in state.hands[seat],
                "coin/not_in_hand",
                f"{coin}코인이 남아 있지 않습니다",
                f"You have no {coin} coin left",
                coin=coin,
            )
            first = Event("CoinPut", {"seat": seat}, {"coin": coin}, (seat,))
        case _:  # "choose_token"
            token = move["token"]
            require(
                token in (GO, STOP),
                "coin/no_such_token",
                f"토큰은 GO 또는 STOP입니다: {token!r}",
                f"The token is GO or STOP, not {token!r}",
                token=token,
            )
            # Coin rule 2: a player with no coin left cannot choose GO.
            require(
                token == STOP or bool(state.hands[seat]),
                "coin/no_coin_for_go",
                "남은 코인이 없어 GO를 고를 수 없습니다",
                "You have no coin left, so you cannot choose GO",
                token=token,
            )
            first = Event("TokenChosen", {"seat": seat}, {"token": token}, (seat,))
    return with_consequences(state, [first], evolve, _consequence)


def _consequence(state: CoinState) -> Event | None:
    if state.step == TOKEN and None not in state.tokens:
        # Coin rule 2: both tokens are revealed together.
        return Event("TokensRevealed", {"tokens": list(state.tokens)})
    if state.step == PUT and state.closing and not any(state.owe_put):
        return _opening(state)
    if state.step == PUT and state.round > state.rounds:
        # Coin rule 4: equal points after the last round: two more rounds.
        return Event("OvertimeBegan", {"rounds": state.rounds + OVERTIME_ROUNDS})
    return None


def _opening(state: CoinState) -> Event:
    # Coin rule 3: the higher sum wins as many points as coins were put in by both;
    # equal sums score nothing.
    sums = [sum(box) for box in state.boxes]
    winner = None if sums[0] == sums[1] else (0 if sums[0] > sums[1] else 1)
    points = 0 if winner is None else len(state.boxes[0]) + len(state.boxes[1])
    return Event(
        "BoxesOpened",
        {"round": state.round, "boxes": [list(b) for b in state.boxes], "sums": sums, "winner": winner, "points": points},
    )


# -- evolve --------------------------------------------------------------------------------


def evolve(state: CoinState, event: Event) -> CoinState:
    match event.type:
        case "CoinPut":
            seat, coin = event["seat"], event["coin"]
            state = replace(
                state,
                hands=_set(state.hands, seat, _without(state.hands[seat], coin)),
                boxes=_set(state.boxes, seat, tuple(sorted(state.boxes[seat] + (coin,)))),
                owe_put=_set(state.owe_put, seat, False),
            )
            if not any(state.owe_put) and not state.closing:
                state = replace(state, step=TOKEN, tokens=(None, None))
            return state
        case "TokenChosen":
            return replace(state, tokens=_set(state.tokens, event["seat"], event["token"]))
        case "TokensRevealed":
            tokens = tuple(event["tokens"])
            go = tuple(t == GO for t in tokens)
            # Coin rule 2: STOP ends one's round; GO puts exactly one more coin; both GO repeats.
            return replace(
                state,
                step=PUT,
                owe_put=go,
                closing=not all(go),
                tokens=(None, None),
                revealed=state.revealed + (tokens,),
            )
        case "BoxesOpened":
            winner, points = event["winner"], event["points"]
            boxes = state.boxes
            # Coin rule 3: the boxes are always exchanged.
            hands = (tuple(sorted(state.hands[0] + boxes[1])), tuple(sorted(state.hands[1] + boxes[0])))
            score = state.points if winner is None else _set(state.points, winner, state.points[winner] + points)
            opened = state.opened + (OpenedRound(state.round, boxes, winner, points),)
            next_round = state.round + 1
            # Coin rule 4: the match ends after the last round unless the points are equal.
            over = next_round > state.rounds and score[0] != score[1]
            return CoinState(
                hands=hands,
                start_hands=hands,
                round=next_round,
                rounds=state.rounds,
                step=OVER if over else PUT,
                points=score,
                opened=opened,
            )
        case "OvertimeBegan":
            return replace(state, rounds=event["rounds"])
    return state


# -- views and result ----------------------------------------------------------------------


def view(state: CoinState, audience: Audience) -> dict[str, Any]:
    seats = []
    for seat in (0, 1):
        entry: dict[str, Any] = {
            "points": state.points[seat],
            "held": _counts(state.start_hands[seat]),  # at the round's start
            "box_count": len(state.boxes[seat]),
            "put_done": not state.owe_put[seat] if state.step == PUT else True,
            "token_done": state.tokens[seat] is not None,
        }
        if audience.sees_seat(seat):
            entry["hand"] = _counts(state.hands[seat])
            entry["box"] = list(state.boxes[seat])
            entry["token"] = state.tokens[seat]
        seats.append(entry)
    out = {
        "round": state.round if state.step != OVER else state.round - 1,
        "rounds": state.rounds,
        "step": state.step,
        "overtime": state.rounds > REGULAR_ROUNDS,
        "revealed": [list(pair) for pair in state.revealed],
        # Each seat's entry is in seat order and holds its points; the opened boxes' sums are
        # the pages' to add. Every number here is decoded by every screen with every update
        # (docs/performance.md, Goal 1, seventh pass), so none is sent twice. A seat's holdings
        # at the round's start (`held`) and a hand are counts in the order of `coins`.
        "coins": list(DENOMINATIONS),
        "seats": seats,
        # The newest opened round only (a list of at most one, empty before the first opening):
        # what the screens draw. The whole history is in the log; sent with every update it grew
        # every screen's payload by about 70 bytes and 8 numbers a round (docs/performance.md).
        "opened": [
            {"round": o.round, "boxes": [list(b) for b in o.boxes], "winner": o.winner, "points": o.points}
            for o in state.opened[-1:]
        ],
    }
    if audience.kind == "dealer":
        out["panel"] = _panel(state)
    return out


def _panel(state: CoinState) -> list[dict[str, Any]]:
    """Every secret for the dealer's console: each box, each hand, each sealed token."""
    def coins(values: Any) -> str:
        return ", ".join(str(c) for c in sorted(values)) or "-"

    rows: list[list[Any]] = [[{"ko": "자리", "en": "Seat"}, {"ko": "상자 (비밀)", "en": "Box (secret)"},
                              {"ko": "남은 코인", "en": "Coins left"}, {"ko": "GO/STOP", "en": "GO/STOP"}]]
    for seat in (0, 1):
        rows.append([{"ko": f"{seat + 1}번", "en": f"Seat {seat + 1}"}, {"ko": coins(state.boxes[seat]),
                     "en": coins(state.boxes[seat]), "tone": "secret"}, coins(state.hands[seat]),
                     state.tokens[seat] or "-"])
    return [{"heading": {"ko": f"{state.round}라운드", "en": f"Round {state.round}"}, "table": rows}]


def result(state: CoinState) -> Result | None:
    if state.step != OVER:
        return None
    winner = 0 if state.points[0] > state.points[1] else 1
    played = state.round - 1
    decided = (
        T(f"{played}라운드 후 승점", f"Points after {played} rounds")
        if played == REGULAR_ROUNDS
        else T(f"연장전 끝 ({played}라운드) 승점", f"Points after overtime ({played} rounds)")
    )
    return Result(
        (Standing(winner, 1, state.points[winner]), Standing(1 - winner, 2, state.points[1 - winner])),
        decided,
        {"rounds_played": played},
    )


# -- the log in words ----------------------------------------------------------------------


def _who(names: tuple[str, ...], seat: Any) -> T:
    """A seat as people number it: "1번 김민준" / "1 Kim Minjun"."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return T(f"{seat + 1}번 {names[seat]}", f"{seat + 1} {names[seat]}")
    return T(f"{seat + 1}번 자리", f"seat {seat + 1}") if isinstance(seat, int) else T("자리", "a seat")


def _box(coins: list[int]) -> str:
    return "+".join(str(c) for c in coins) if coins else "0"


def describe(event: dict[str, Any], names: tuple[str, ...]) -> T | None:
    """The log in words, for an event as one audience sees it: a coin or a token is named only
    when this audience may see it (Coin rule 2 keeps both secret until the boxes or tokens open)."""
    match event.get("type"):
        case "CoinPut":
            who = _who(names, event.get("seat"))
            if "coin" in event:
                return T(f"{who.ko}: 상자에 {event['coin']}코인", f"{who.en}: puts a {event['coin']} coin in the box")
            return T(f"{who.ko}: 상자에 코인 1개를 넣음", f"{who.en}: puts a coin in the box")
        case "TokenChosen":
            who = _who(names, event.get("seat"))
            if "token" in event:
                return T(f"{who.ko}: {event['token']} 선택 (공개 전)", f"{who.en}: chooses {event['token']} (not yet shown)")
            return T(f"{who.ko}: GO/STOP 토큰 제출", f"{who.en}: hands in a GO/STOP token")
        case "TokensRevealed":
            pairs = [(_who(names, s), t) for s, t in enumerate(event.get("tokens", ()))]
            return T("GO/STOP 공개: " + ", ".join(f"{w.ko} {t}" for w, t in pairs),
                     "GO/STOP revealed: " + ", ".join(f"{w.en} {t}" for w, t in pairs))
        case "BoxesOpened":
            boxes, sums, winner = event["boxes"], event["sums"], event.get("winner")
            shown = [(_who(names, s), _box(b), sums[s]) for s, b in enumerate(boxes)]
            ko = ", ".join(f"{w.ko} {b} = {n}" for w, b, n in shown)
            en = ", ".join(f"{w.en} {b} = {n}" for w, b, n in shown)
            if winner is None:
                outcome = T("합이 같아 점수 없음", "equal sums, no points")
            else:
                w = _who(names, winner)
                outcome = T(f"{w.ko} {event['points']}점 획득", f"{w.en} wins {event['points']} points")
            return T(f"{event['round']}라운드 상자 공개: {ko} → {outcome.ko}; 상자 교환",
                     f"Round {event['round']} boxes opened: {en} → {outcome.en}; boxes exchanged")
        case "OvertimeBegan":
            rounds = event["rounds"]
            return T(f"승점 동점: 연장 2라운드 ({rounds}라운드까지)",
                     f"Points level: two more rounds (up to round {rounds})")
    return None


# -- audience predictions (referee.kernel.predictions) --------------------------------------------

TIE = "tie"


def predictions(view: dict[str, Any]) -> list[Prediction]:
    """Who wins this round's boxes? Asked from the public view before the boxes open."""
    state = view["state"]
    if state["step"] == OVER:
        return []
    r = state["round"]
    options = seat_options(view) + (Option(TIE, T("무승부 (점수 없음)", "A tie (no points)")),)
    return [Prediction("coin_round", T(f"{r}라운드: 누구의 상자가 이길까요?", f"Round {r}: whose box wins?"), options,
                       params(round=r), frozenset({"BoxesOpened"}))]


def answer(key: str, given: Mapping[str, Any], view: dict[str, Any]) -> tuple[Any, ...] | None:
    # Coin rule 3: the higher sum wins the round; equal sums, nobody.
    opened = next((o for o in view["state"]["opened"] if o["round"] == given.get("round")), None)
    if key != "coin_round" or opened is None:
        return None
    return (TIE,) if opened["winner"] is None else (opened["winner"],)


# -- a recap's moments (referee.table.replay.highlights) ------------------------------------------

ALL_COINS = 2 * len(START_HAND)  # Coin rule 1: the biggest pot there can be


def highlight(view: dict[str, Any], events: tuple[str, ...]) -> float | None:
    """How much a frame is worth showing again: the boxes' opening where the sums were nearest,
    1/(1+difference), so a tie (Coin rule 3: equal sums score nothing) ranks highest; among
    openings as close, the bigger pot (the coins both put in) first, never above a closer one."""
    opened = (view.get("state") or {}).get("opened") or []
    if "BoxesOpened" not in events or not opened:
        return None
    boxes = opened[-1]["boxes"]  # the view keeps the newest opening only: this frame's
    diff = abs(sum(boxes[0]) - sum(boxes[1]))
    closeness, next_closest = 1 / (1 + diff), 1 / (2 + diff)
    pot = min(len(boxes[0]) + len(boxes[1]), ALL_COINS)
    return next_closest + (closeness - next_closest) * pot / ALL_COINS


GAME = Game(
    id="tricky_coin",
    title=T("트리키 코인", "Tricky Coin"),
    rules_version="1",
    seats=(2, 2),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    describe=describe,
    reveals=frozenset({"TokensRevealed", "BoxesOpened"}),
    predictions=predictions,
    answer=answer,
    highlight=highlight,
)
