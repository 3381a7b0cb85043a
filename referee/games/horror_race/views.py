"""Horror Race 2: what the dealer, each seat and the public see."""

from __future__ import annotations

from typing import Any

from referee.kernel import Audience

from .state import (
    CHARACTERS,
    GUESTS,
    LAST_CELL,
    NAMES,
    OVER,
    PLAYERS,
    PUDDLES,
    ZONE_STEPS,
    ZONES,
    RaceState,
    group_of,
    seat_ranks,
    zone_counts,
)


def view(state: RaceState, audience: Audience) -> dict[str, Any]:
    revealed = state.step == OVER
    ranks = seat_ranks(state) if revealed else ()
    seats = []
    for seat in range(state.seats):
        entry: dict[str, Any] = {"seat": seat, "group": group_of(state, seat), "backed": bool(state.backings[seat])}
        # Horror rule 1: a backing is secret (dealer and the seat) until the final scoring.
        if revealed or audience.sees_seat(seat):
            entry["backing"] = list(state.backings[seat])
        if revealed:
            entry["points"] = state.points[seat]
            entry["rank"] = ranks[seat]
        seats.append(entry)
    out: dict[str, Any] = {
        "step": state.step,
        "deal": state.deal,
        "round": state.round,
        "characters": [{"id": c, "label": NAMES[c].to_json()} for c in CHARACTERS],
        "track": [{"cell": i, "stack": list(stack), "puddle": i in PUDDLES} for i, stack in enumerate(state.cells)],
        "puddles": list(PUDDLES),
        "last_cell": LAST_CELL,
        "order": list(state.order),
        "turn": state.in_turn,
        "forfeit": state.forfeiter,
        # Drawn coins are public at the draw (the seat draws at the table, in view).
        "drawn": {"seat": state.in_turn, "coins": list(state.drawn)} if state.drawn else None,
        "zones": [
            {
                "zone": zone,
                "steps": steps,
                "coins": [{"seat": p.seat, "character": c} for p in state.placements for c, z in p.coins if z == zone],
                "counts": dict(zone_counts(state.placements, zone)),
            }
            for zone, steps in zip(ZONES, ZONE_STEPS, strict=True)
        ],
        "box_size": sum(state.box),
        # The newest resolved round's record (the projector replays its moves) and how many have
        # resolved: every round's record with every update made a late view some 13 KB heavier
        # on every screen (docs/performance.md); the whole history is the log's.
        "rounds_done": len(state.history),
        "newest_round": state.history[-1].to_json() if state.history else None,
        "finish": list(reversed(state.finish)),  # the stack that passed the goal, top first
        "ranking": [{"character": c, "place": p} for c, p in state.places],
        "revealed": revealed,
        "seats": seats,
        "groups": {
            PLAYERS: [s for s in range(state.seats) if s not in state.guests],
            GUESTS: list(state.guests),
        } if state.guests else None,
    }
    if audience.kind == "dealer":
        out["box"] = dict(zip(CHARACTERS, state.box, strict=True))
        out["panel"] = _panel(state)
    return out


def _panel(state: RaceState) -> list[dict[str, Any]]:
    """Every secret for the dealer's console: each seat's backed characters, and the box."""
    rows: list[list[Any]] = [[{"ko": "자리", "en": "Seat"}, {"ko": "응원 캐릭터 (비밀)", "en": "Backed (secret)"}]]
    for seat in range(state.seats):
        backed = [NAMES[c] for c in state.backings[seat]]
        rows.append([{"ko": f"{seat + 1}번", "en": f"Seat {seat + 1}", "tone": "now" if state.in_turn == seat else None},
                     {"ko": ", ".join(b.ko for b in backed) or "아직", "en": ", ".join(b.en for b in backed) or "not yet",
                      "tone": "secret"}])
    box = [[NAMES[c].to_json(), str(n)] for c, n in zip(CHARACTERS, state.box, strict=True)]
    return [{"heading": {"ko": "응원 (점수 공개 전까지 비밀)", "en": "Backings (secret until the scoring)"}, "table": rows},
            {"heading": {"ko": "상자 속 코인", "en": "Coins in the box"},
             "table": [[{"ko": "캐릭터", "en": "Character"}, {"ko": "개수", "en": "Coins"}]] + box}]
