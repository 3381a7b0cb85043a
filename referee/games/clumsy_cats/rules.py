"""Clumsy Cats: setup, decide (with the consequences the rules trigger), evolve, result.

Rule citations ("Cats rule N") use the numbering of RULINGS.md "Clumsy Cats".

Events, few per turn because a long match is folded often (public data; the roll is private):

- DieRolled: a turn begins (with the turns skipped on the way) and its roll, private to the roller.
- Declared: the declaration.
- Called (the call, the roll it reveals, and what follows for the roller) or WindowClosed (no
  call, and the declaration carried out): the walk ("to", "steps", "laps" with the
  tokens taken, and where it ended: "trapped", "island", "footprint", "ended") or the trapped
  turn counted ("toilet_used", "freed", "free"). Flat data: a long log is copied often.
- EffectRolled (with the outcome when nobody has a choice), RearmostPicked, EffectApplied.
- GameEnded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.kernel import Actor, Event, Result, Rng, RuleError, Standing, T, expect, josa, require, with_consequences

from .board import load_map
from .decisions import KEEP, SWAP, turn
from .state import (
    BLUFF,
    BOON,
    DECLARE,
    DIE_REFEREE,
    ENDING,
    FACE_VALUES,
    FACES,
    FAILED_CALL,
    FOOTPRINT,
    HARM,
    NEXT,
    NO_ACTION_TURNS,
    NUMBERS,
    OVER,
    PENALTY_HARMFUL,
    PENALTY_LOSE_TURN,
    PENALTY_NONE,
    RECENT,
    RESOLVE,
    TOILET_DECLARATIONS,
    TOILET_TURNS,
    TOKENS,
    WINDOW,
    CatsState,
    Declaration,
    Effect,
    Taken,
    X,
    boon_targets,
    call_bar,
    eligible_callers,
    is_bluff,
    next_token,
    owed_effect,
    plan,
    points,
    rearmost_others,
    replace_at,
    seat_label,
    standings,
    tokens_of,
    truthful,
)

# -- setup ---------------------------------------------------------------------------------------


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: Rng) -> CatsState:
    board = load_map(options.get("map", "default"))
    n = len(seats)
    # Seat order is the order of play (the seed decides it by rock-paper-scissors before the
    # table is made); every cat starts on the start cell; seat 1 rolls first.
    return CatsState(
        names=tuple(seats),
        board=board,
        die=options.get("die", DIE_REFEREE),
        failed_call=options.get("failed_call_penalty", PENALTY_NONE),
        island_turns=int(options.get("island_turns", 1)),
        cells=(board.start,) * n,
        laps=(0,) * n,
        toilet=(None,) * n,
        no_action=(0,) * n,
        island=(0,) * n,
        lost=(0,) * n,
        regular=n - 1,
        from_cell=board.start,
    )


# -- decide --------------------------------------------------------------------------------------


def decide(state: CatsState, actor: Actor, move: dict[str, Any], rng: Rng) -> list[Event]:
    kind = move.get("type") if isinstance(move, dict) else None
    if kind == "call_lie":
        _check_call(state, actor)
    if kind == "declare_roll" and state.step == DECLARE and actor.acting_seat == state.seat and actor.kind != "referee" \
            and truthful(state) is None:
        # (Only the roller is told: another seat's probe gets move/not_owed whatever the roll.)
        # Cats rule 1: on an X the roller must bluff, so it cannot declare what it rolled.
        raise RuleError("cats/must_bluff", "X가 나왔으므로 그대로 선언할 수 없습니다: 1-4 중 하나로 블러핑하세요",
                        "You rolled an X, so you cannot declare it: bluff with 1-4", roll=state.roll)
    expect(turn(state), actor, move)
    match move["type"]:
        case "roll":
            # Cats rule 1: the referee rolls the die (1-4 and two X); only the roller sees it.
            events = [_rolled(state, rng.choice(FACES))]
        case "enter_roll":
            events = [_rolled(state, _face(move["roll"], "roll"))]
        case "declare":
            events = [_declared(state, move["number"])]
        case "declare_roll":
            events = [_declared(state, truthful(state))]
        case "call_lie":
            events = [_called(state, actor.acting_seat)]
        case "close_window":
            events = [_closed(state, auto=False)]
        case "roll_effect":
            # Cats rules 4 and 5: the effect die is the same die, rolled in the open.
            events = [_effect_rolled(state, rng.choice(FACES))]
        case "enter_effect":
            events = [_effect_rolled(state, _face(move["face"], "face"))]
        case "pick_rearmost":
            events = [_rearmost_picked(state, move["seat"])]
        case "rearmost_swap":
            events = [_rearmost_swapped(state, move["choice"])]
        case "use_effect":
            events = [_boon_used(state, move["target"])]
        case _:  # "decline_effect"
            # Cats rule 4: a beneficial effect may be declined; it is never kept.
            effect = state.effect
            assert effect is not None
            events = [_applied(effect, declined=True)]
    return with_consequences(state, events, evolve, _consequence)


CALL_BARS = {
    "roller": ("자기 선언은 지적할 수 없습니다", "you cannot call your own declaration"),
    "toilet": ("화장실에 갇혀 있는 동안에는 지적할 수 없습니다", "you cannot call while trapped in the toilet"),
    "no_action": ("행동 불가 벌칙 중에는 지적할 수 없습니다", "you cannot call during a no-action penalty"),
    "called_last": ("지난 턴에 지적했으므로 이번 턴에는 지적할 수 없습니다 (2턴 연속 불가)",
                    "you called in the previous turn, so not in this one (never twice in a row)"),
}


def _check_call(state: CatsState, actor: Actor) -> None:
    seat = actor.acting_seat
    if seat is None or not 0 <= seat < state.seats:
        return  # expect() refuses it
    if state.step != WINDOW:
        last = state.declarations[-1] if state.declarations else None
        if last is not None and last.turn == state.turn_no and last.caller is not None and last.caller != seat:
            # Cats rule 7: only the first caller counts.
            first = seat_label(state, last.caller)
            raise RuleError("cats/window_closed", f"{josa(first.ko, '이/가')} 먼저 지적했습니다 (먼저 지적한 사람만 인정)",
                            f"{first.en} called first (only the first caller counts)", seat=seat, first=last.caller)
        raise RuleError("cats/window_closed", "지금은 거짓말을 지적할 시간이 아닙니다",
                        "The call window is not open now", seat=seat)
    bar = call_bar(state, seat)
    if bar is not None:
        # Cats rules 2 and 7: not the roller, not trapped, not in a no-action penalty, not twice in
        # a row.
        ko, en = CALL_BARS[bar]
        who = seat_label(state, seat)
        raise RuleError("cats/may_not_call", f"{who.ko}: {ko}", f"{who.en}: {en}", seat=seat, reason=bar)


def _face(value: Any, name: str) -> int | str:
    # Cats rule 1: the faces are 1-4 and X (a d6's 5 and 6 are entered as X).
    require(value in FACE_VALUES and not isinstance(value, bool), "cats/bad_face",
            f"주사위 눈은 1, 2, 3, 4, X 중 하나입니다 (6면체의 5, 6은 X): {value!r}",
            f"A face is 1, 2, 3, 4 or X (a d6's 5 and 6 count as X): {value!r}", field=name, value=value)
    return value


def _rolled(state: CatsState, face: int | str) -> Event:
    # Cats rule 1: the roll is secret to the roller (and the dealer): the public learns only whose
    # turn began (and which turns were skipped on the way) and that the die was rolled.
    p = plan(state)
    data: dict[str, Any] = {"seat": p.seat, "turn": state.turn_no + 1}
    if p.extra:
        data["extra"] = True
    if state.toilet[p.seat] is not None:
        data["toilet"] = True
    if p.skips:
        data["skipped"] = [[seat, extra, list(reasons)] for seat, extra, reasons in p.skips]
    return Event("DieRolled", data, {"roll": face}, (p.seat,))


def _declared(state: CatsState, value: Any) -> Event:
    if state.toilet_turn:
        # Cats rule 7: a trapped turn's declaration is "X" or "none".
        require(value in TOILET_DECLARATIONS, "cats/bad_declaration",
                f"화장실에서는 'X' 또는 'none'(X 아님)으로 선언합니다: {value!r}",
                f"In the toilet the declaration is 'X' or 'none': {value!r}", value=value)
    else:
        # Cats rules 1 and 7: outside the toilet a declaration is always 1-4 (an X must be bluffed).
        require(value in NUMBERS and not isinstance(value, bool), "cats/bad_declaration",
                f"선언은 1, 2, 3, 4 중 하나입니다 (X가 나왔으면 블러핑해야 합니다): {value!r}",
                f"The declaration is 1, 2, 3 or 4 (on an X you must bluff): {value!r}", value=value)
    return Event("Declared", {"seat": state.seat, "number": value})


def _called(state: CatsState, caller: int | None) -> Event:
    # Cats rule 1: a call reveals the roll: a bluff is caught, or the call was wrong. Cats rule 7:
    # the first caller counts, and the call closes the window.
    bluff = is_bluff(state.roll, state.declared, state.toilet_turn)
    data: dict[str, Any] = {"seat": caller, "roller": state.seat, "roll": state.roll, "bluff": bluff}
    if not bluff and state.failed_call != PENALTY_NONE:
        data["penalty"] = state.failed_call
    return Event("Called", _carried_out(state, data, caught=bluff))


def _closed(state: CatsState, auto: bool) -> Event:
    # Cats rule 1: not called: the declaration is carried out.
    data: dict[str, Any] = {"seat": state.seat}
    if auto:
        data["auto"] = True
    return Event("WindowClosed", _carried_out(state, data, caught=False))


def _carried_out(state: CatsState, data: dict[str, Any], caught: bool) -> dict[str, Any]:
    """What the declaration does for the roller once the window is over."""
    seat = state.seat
    if state.toilet_turn:
        used = (state.toilet[seat] or 0) + 1
        # Cats rule 7: an uncaught X frees the cat for its next turn; a caught bluff uses the
        # turn; after the third trapped turn the cat is free anyway.
        freed = not caught and state.declared == X
        data.update(toilet_used=used, freed=freed, free=freed or used >= TOILET_TURNS)
    elif not caught:
        # Cats rule 1: the cat moves the declared number. (Caught, it stays where it was.)
        data.update(_walk(state, seat, state.declared))
    return data


def _effect_rolled(state: CatsState, face: int | str) -> Event:
    owed = owed_effect(state)
    assert owed is not None
    effect = replace(owed, face=face)
    data: dict[str, Any] = {"seat": effect.seat, "kind": effect.kind, "cause": effect.cause, "face": face,
                            "effect": effect.name}
    if effect.kind == HARM and effect.name == "rearmost_swap":
        # Cats rules 5 and 7: the rearmost of the other cats; a tie goes to the dealer.
        rearmost = rearmost_others(state, effect.seat)
        effect = replace(effect, rearmost=rearmost, chooser=rearmost[0] if len(rearmost) == 1 else None)
        data["rearmost"] = list(rearmost)
    outcome = _outcome(state, effect)
    data["resolved"] = outcome is not None
    data.update(outcome or {})
    return Event("EffectRolled", data)


def _outcome(state: CatsState, effect: Effect) -> dict[str, Any] | None:
    """What an effect does when nobody has a choice to make, or None if somebody does."""
    board = state.board
    match (effect.kind, effect.name):
        case (_, "nothing"):
            return {}
        case ("harm", "no_action"):
            # Cats rule 5, harmful 2: no action for 2 turns.
            return {"no_action": NO_ACTION_TURNS}
        case ("harm", "to_start"):
            # Cats rule 5, harmful 3: back to the start (no lap is scored).
            return {"moves": _sent(state, effect.seat, board.start)}
        case ("harm", "to_island"):
            # Cats rules 3 and 5, harmful 4: to the desert island, which costs turns.
            return {"moves": _sent(state, effect.seat, board.island), "island": True}
        case ("harm", "rearmost_swap"):
            if effect.chooser is None:
                return None  # the dealer breaks the tie
            if state.cells[effect.chooser] == state.cells[effect.seat]:
                return {"target": effect.chooser, "void": True}  # a swap would change nothing
            return None  # the owner of the rearmost cat chooses
        case ("boon", name):
            assert name is not None
            if not boon_targets(state, effect.seat, name):
                return {"void": True}  # nobody it could be used on
    return None


def _rearmost_picked(state: CatsState, value: Any) -> Event:
    effect = state.effect
    assert effect is not None
    # Cats rule 7: the dealer breaks a tie for the rearmost cat, among the tied cats only.
    require(value in effect.rearmost and not isinstance(value, bool), "cats/not_rearmost",
            f"가장 뒤처진 고양이 중 하나가 아닙니다: {value!r} (가능: {', '.join(str(s + 1) for s in effect.rearmost)}번)",
            f"Not one of the rearmost cats: {value!r} (seats {', '.join(str(s + 1) for s in effect.rearmost)})",
            seat=value)
    return Event("RearmostPicked", {"seat": effect.seat, "rearmost": value})


def _rearmost_swapped(state: CatsState, value: Any) -> Event:
    effect = state.effect
    assert effect is not None and effect.chooser is not None
    require(value in (SWAP, KEEP), "cats/bad_choice", f"'swap'(바꾸기) 또는 'keep'(그대로)입니다: {value!r}",
            f"The choice is 'swap' or 'keep': {value!r}", choice=value)
    if value == KEEP:
        return _applied(effect, target=effect.chooser, declined=True)
    # Cats rule 5, harmful 1: the owner of the rearmost cat swaps places with the harmed cat.
    return _applied(effect, target=effect.chooser, moves=_swap(state, effect.seat, effect.chooser))


def _boon_used(state: CatsState, value: Any) -> Event:
    effect = state.effect
    assert effect is not None and effect.name is not None
    seat, name = effect.seat, effect.name
    require(isinstance(value, int) and not isinstance(value, bool) and 0 <= value < state.seats, "cats/no_such_seat",
            f"없는 자리입니다: {value!r}", f"No such seat: {value!r}", target=value)
    board, cells = state.board, state.cells
    who = seat_label(state, value)
    if name in ("swap", "to_toilet"):
        # Cats rule 4: effects 1 and 3 are used on an opponent's cat.
        require(value != seat, "cats/not_an_opponent", f"상대 고양이에게만 쓸 수 있습니다: {who.ko}",
                f"Only an opponent's cat: {who.en}", target=value)
    if name == "swap":
        require(cells[value] != cells[seat], "cats/same_cell", f"{who.ko}의 고양이는 같은 칸에 있어 바꿔도 그대로입니다",
                f"The cat of {who.en} is on the same cell: a swap would change nothing", target=value)
        return _applied(effect, target=value, moves=_swap(state, seat, value))
    if name == "to_start":
        require(cells[value] != board.start, "cats/already_on_start", f"{who.ko}의 고양이는 이미 시작 지점에 있습니다",
                f"The cat of {who.en} is already on the start", target=value)
        return _applied(effect, target=value, moves=_sent(state, value, board.start))
    if name == "to_toilet":
        # Cats rules 4 and 7: a cat on the start cell cannot be sent to the toilet.
        require(cells[value] != board.start, "cats/target_on_start",
                f"{who.ko}의 고양이는 시작 지점에 있어 화장실로 보낼 수 없습니다",
                f"The cat of {who.en} is on the start and cannot be sent to the toilet", target=value)
        require(cells[value] != board.toilet, "cats/already_in_toilet", f"{who.ko}의 고양이는 이미 화장실에 있습니다",
                f"The cat of {who.en} is already on the toilet", target=value)
        return _applied(effect, target=value, moves=_sent(state, value, board.toilet))
    # "extra_roll": Cats rule 4, any player, oneself included.
    return _applied(effect, target=value, extra_roll=value)


def _swap(state: CatsState, a: int, b: int) -> list[list[Any]]:
    return [[a, state.cells[a], state.cells[b]], [b, state.cells[b], state.cells[a]]]


def _sent(state: CatsState, seat: int, cell: str) -> list[list[Any]]:
    return [[seat, state.cells[seat], cell]]


def _applied(effect: Effect, **outcome: Any) -> Event:
    data: dict[str, Any] = {"seat": effect.seat, "kind": effect.kind, "cause": effect.cause, "face": effect.face,
                            "effect": effect.name}
    data.update({k: v for k, v in outcome.items() if v is not None and v is not False})
    return Event("EffectApplied", data)


# -- consequences ---------------------------------------------------------------------------------


def _consequence(state: CatsState) -> Event | None:
    step = state.step
    if step == WINDOW and not eligible_callers(state):
        # Nobody may call (Cats rules 2 and 7): the window closes by itself.
        return _closed(state, auto=True)
    if step == RESOLVE:
        effect = state.effect
        if effect is not None and effect.kind == HARM and effect.chooser is not None \
                and state.cells[effect.chooser] == state.cells[effect.seat]:
            return _applied(effect, target=effect.chooser, void=True)  # a swap would change nothing
        return None
    if step == ENDING:
        ranks = standings(state)
        return Event("GameEnded", {"points": [points(state, s) for s in range(state.seats)],
                                   "ranking": [[s, rank] for s, rank, _ in ranks]})
    return None


def _walk(state: CatsState, seat: int, number: int) -> dict[str, Any]:
    board = state.board
    cell = state.cells[seat]
    laps: list[int] = []
    token = next_token(state)
    ended = False
    for _ in range(number):
        # Seed (두 갈래 길): at a fork an odd declared number goes up, an even one down.
        cell = board.advance(cell, number)
        if cell == board.start and token is not None:
            # Cats rules 6 and 7: entering the start completes a lap and takes the next token; the
            # cat walks on with its remaining steps, unless that was the last token.
            laps.append(token)
            token = token + 1 if token < TOKENS else None
            if token is None:
                ended = True
                break
    label = board.label(cell)
    if label.ko == cell == label.en:  # a cell without a name of its own
        label = T(f"{cell}번 칸", f"cell {cell}")
    out: dict[str, Any] = {"to": cell, "steps": number, "to_ko": label.ko, "to_en": label.en}
    if laps:
        out["laps"] = laps
    if ended:
        out["ended"] = True  # Cats rule 7: the game ends at once when the last token is taken
    elif cell == board.toilet:
        out["trapped"] = True  # Cats rule 3: landing exactly on the toilet traps the cat
    elif cell == board.island:
        out["island"] = True
    elif (mark := board.footprint(cell)) is not None:
        out["footprint"] = mark  # Cats rule 7: footprints act only where a move ends
    return out


# -- evolve ---------------------------------------------------------------------------------------


def evolve(state: CatsState, event: Event) -> CatsState:
    changes = _changes(state, event)
    if changes is None:
        return state
    # One new state per event (a long match is folded often): copy the fields, then change them.
    new = object.__new__(CatsState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.pop("_turn", None)
    fields.update(changes)
    if fields["step"] == RESOLVE and fields["effect"] is None and not fields["agenda"]:
        fields["step"] = NEXT  # the turn is over: the next roll is owed
    if event.data:
        # The projector's feed of what happened: public data only.
        fields["recent"] = (fields["recent"] + ((event.type, event.data),))[-RECENT:]
    return new


def _changes(state: CatsState, event: Event) -> dict[str, Any] | None:
    data = event.data
    match event.type:
        case "DieRolled":
            return _begin(state, data, event["roll"])
        case "Declared":
            return {"declared": data["number"], "step": WINDOW}
        case "Called" | "WindowClosed":
            return _resolved(state, data)
        case "EffectRolled":
            task = state.agenda[0]
            changes: dict[str, Any] = {"agenda": state.agenda[1:]}
            if data["resolved"]:
                return _apply(state, data, changes)
            rearmost = tuple(data.get("rearmost", ()))
            changes["effect"] = Effect(task[0], task[1], task[2], data["face"], rearmost,
                                       rearmost[0] if len(rearmost) == 1 else None)
            return changes
        case "RearmostPicked":
            effect = state.effect
            assert effect is not None
            return {"effect": replace(effect, chooser=data["rearmost"])}
        case "EffectApplied":
            return _apply(state, data, {"effect": None})
        case "GameEnded":
            return {"step": OVER}
    return None


def _less(values: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return replace_at(values, seat, max(0, values[seat] - 1)) if values[seat] else values


def _begin(state: CatsState, data: dict[str, Any], roll: int | str) -> dict[str, Any]:
    regular, extra_next = state.regular, state.extra_next
    no_action, island, lost = state.no_action, state.island, state.lost
    for seat, extra, _ in data.get("skipped", ()):
        # Cats rule 7: a skipped turn counts for every penalty the seat has.
        no_action, island, lost = _less(no_action, seat), _less(island, seat), _less(lost, seat)
        if extra:
            extra_next = None
        else:
            regular = seat
    seat, extra = data["seat"], data.get("extra", False)
    return {
        "step": DECLARE, "turn_no": data["turn"], "seat": seat, "extra": extra,
        "regular": regular if extra else seat, "extra_next": None if extra else extra_next,
        "no_action": no_action, "island": island, "lost": lost,
        "toilet_turn": data.get("toilet", False), "from_cell": state.cells[seat], "roll": roll, "declared": None, "caller": None,
        "agenda": (), "effect": None,
    }


def _resolved(state: CatsState, data: dict[str, Any]) -> dict[str, Any]:
    """After the window: the declaration recorded, carried out (or caught), effects queued."""
    seat = state.seat
    caller = data["seat"] if "roller" in data else None
    bluff = bool(data.get("bluff"))
    entry = Declaration(state.turn_no, seat, state.toilet_turn, state.roll, state.declared, caller)  # type: ignore[arg-type]
    changes: dict[str, Any] = {"declarations": state.declarations + (entry,), "caller": caller, "last_caller": caller,
                               "step": RESOLVE}
    agenda: tuple[tuple[Any, ...], ...] = ()
    if "toilet_used" in data:
        changes["toilet"] = replace_at(state.toilet, seat, None if data["free"] else data["toilet_used"])
    if "to" in data:
        agenda = _after_move(state, seat, data, changes)
        if changes["step"] == ENDING:
            return changes
    if bluff:
        # Cats rules 1 and 7: a caught bluff takes a harmful effect (in the toilet, after the
        # trapped turn is counted).
        agenda += ((HARM, seat, BLUFF),)
    elif caller is not None and state.failed_call == PENALTY_HARMFUL:
        # Option failed_call_penalty=harmful: a wrong caller rolls a harmful effect, after the
        # roller's declaration has been carried out.
        agenda += ((HARM, caller, FAILED_CALL),)
    elif caller is not None and state.failed_call == PENALTY_LOSE_TURN:
        # Option failed_call_penalty=lose_turn: a wrong caller loses its next turn.
        changes["lost"] = replace_at(state.lost, caller, state.lost[caller] + 1)
    changes["agenda"] = agenda
    return changes


def _after_move(state: CatsState, seat: int, move: dict[str, Any], changes: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    """The walk's consequences into `changes`; returns the effects it queues."""
    to = move["to"]
    laps = move.get("laps", ())
    changes["cells"] = replace_at(state.cells, seat, to)
    if laps:
        changes["laps"] = replace_at(state.laps, seat, state.laps[seat] + len(laps))
        changes["taken"] = state.taken + tuple(Taken(t, seat, state.turn_no) for t in laps)
    changes["last_move"] = (seat, state.cells[seat], move["steps"], bool(move.get("ended")))
    if move.get("ended"):
        # Cats rule 7: the game ends at once when the last token is taken.
        changes.update(step=ENDING, agenda=(), effect=None)
        return ()
    if move.get("trapped"):
        changes["toilet"] = replace_at(changes.get("toilet", state.toilet), seat, 0)
    if move.get("island"):
        changes["island"] = replace_at(state.island, seat, state.island_turns)
    mark = move.get("footprint")
    if mark is not None:
        # Cats rules 4 and 5: a blue footprint rolls a beneficial effect, a red one a harmful one.
        return ((BOON if mark == "blue" else HARM, seat, FOOTPRINT),)
    return ()


def _apply(state: CatsState, data: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """An effect's outcome (EffectRolled with no choice to make, or EffectApplied) into `changes`."""
    board = state.board
    cells, toilet, island = state.cells, state.toilet, state.island
    for seat, was, to in data.get("moves", ()):
        cells = replace_at(cells, seat, to)
        if was == to:
            continue
        # Cats rule 7: a cat an effect puts on the toilet is trapped afresh; a cat moved off the
        # toilet or the island leaves its trap behind; effects never trigger footprints.
        if was == board.toilet:
            toilet = replace_at(toilet, seat, None)
        if was == board.island:
            island = replace_at(island, seat, 0)
        if to == board.toilet:
            toilet = replace_at(toilet, seat, 0)
        if to == board.island:
            island = replace_at(island, seat, state.island_turns)
    seat = data["seat"]
    if data.get("island"):
        island = replace_at(island, seat, state.island_turns)
    if data.get("no_action"):
        changes["no_action"] = replace_at(state.no_action, seat, data["no_action"])
    extra = data.get("extra_roll")
    if extra is not None:
        changes["extra_next"] = extra
    changes.update(cells=cells, toilet=toilet, island=island)
    return changes


# -- result ---------------------------------------------------------------------------------------


def result(state: CatsState) -> Result | None:
    if state.step != OVER:
        return None
    ranks = standings(state)
    tied = len({p for _, _, p in ranks}) < len(ranks)
    decided = T("점수 토큰 합계; 같은 점수는 같은 순위", "Sum of score tokens; equal points share a place") if tied \
        else T("점수 토큰 합계", "Sum of score tokens")
    return Result(
        tuple(Standing(s, rank, p) for s, rank, p in ranks),
        decided,
        {
            "points": [points(state, s) for s in range(state.seats)],
            "tokens": [list(tokens_of(state, s)) for s in range(state.seats)],
            "laps": list(state.laps),
            "taken": [{"token": t.token, "seat": t.seat, "turn": t.turn} for t in state.taken],
            "turns": state.turn_no,
        },
    )


__all__ = ["decide", "evolve", "result", "setup"]
