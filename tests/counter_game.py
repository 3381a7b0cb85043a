"""A tiny game for runtime tests: any seat may add 1 to its counter at any time, for ever.

It lets many clients submit to one table at once, which no seeded game allows.
"""

from __future__ import annotations

from referee.kernel import Decision, Event, Field, Game, Option, T, Turn, expect


def setup(seats, options, rng):
    return (0,) * len(seats)


def turn(state):
    return Turn(
        T("세기", "Counting"),
        tuple(
            Decision("tick", T("하나 더", "One more"), (Field("by", "one", T("만큼", "By"), (Option(1, T("1", "1")),)),), seat=s)
            for s in range(len(state))
        ),
    )


def decide(state, actor, move, rng):
    expect(turn(state), actor, move)
    return [Event("Ticked", {"seat": actor.seat, "total": state[actor.seat] + 1})]


def evolve(state, event):
    seat = event["seat"]
    return tuple(event["total"] if i == seat else v for i, v in enumerate(state))


GAME = Game(
    id="counter", title=T("카운터", "Counter"), rules_version="1", seats=(1, 64),
    setup=setup, turn=turn, decide=decide, evolve=evolve,
    view=lambda state, audience: {"counts": list(state)}, result=lambda state: None,
)
GAMES = {"counter": GAME}
