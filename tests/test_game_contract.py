"""The contract test over every registered game.

Random legal playouts through the real runtime finish, are deterministic, replay to the same
state, and raise nothing but typed rule errors; every option a game offers is accepted and a
value it does not offer is refused.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter

import pytest

from referee.kernel import Actor, Audience, Rng, RuleError, registry
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table, audience_view, fold

GAMES = registry()
SEEDS = range(200)
MAX_ACTIONS = 5000


def playout(game_id: str, seed: int, store=None) -> Table:
    store = store or MemoryStore()
    game = GAMES[game_id]
    table = Table.create(store, f"{game_id}-{seed}", game_id, [f"P{i}" for i in range(game.usual_seats)], seed=seed,
                         clock=lambda: 0.0)
    table.start(Actor.dealer())
    rnd = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        state = table.load().state
        if game.result(state) is not None:
            return table
        chosen = pick(game.turn(state), rnd)
        assert chosen is not None, f"{game_id} seed {seed}: no decision pending and no result"
        actor, move = chosen
        try:
            table.submit(actor, move)
        except RuleError:
            pass  # typed rule errors are allowed; anything else fails the test
    pytest.fail(f"{game_id} seed {seed}: no result after {MAX_ACTIONS} actions")


def test_there_are_games():
    assert "tricky_coin" in GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_random_playouts_finish_and_replay(game_id):
    game = GAMES[game_id]
    for seed in SEEDS:
        table = playout(game_id, seed)
        entries = table.store.entries(table.id)
        replayed = fold(game, table.header, copy.deepcopy(entries))
        assert replayed.state == table.load().state
        assert game.result(replayed.state) is not None
        for audience in (Audience.public(), Audience.dealer(), Audience.of_seat(0)):
            game.view(replayed.state, audience)  # views exist for every audience at the end


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_log(game_id):
    for seed in (1, 2, 3):
        a, b = playout(game_id, seed), playout(game_id, seed)
        assert a.store.entries(a.id) == b.store.entries(b.id)


@pytest.mark.parametrize("game_id", GAMES)
def test_offered_options_are_legal_and_others_are_not(game_id):
    """Every option a single-choice decision offers is accepted; a value it omits is refused."""
    game = GAMES[game_id]
    rnd = random.Random(99)
    for seed in range(20):
        table = playout(game_id, seed)
        entries = table.store.entries(table.id)
        folded, done = fold(game, table.header, []), 0
        for cut in range(1, len(entries) + 1, 3):
            # Folded on from the previous cut (bots never void), so the test grows with the log.
            folded, done = fold(game, table.header, entries[done:cut], folded), cut
            state = folded.state
            for decision in game.turn(state).decisions:
                if decision.auto or len(decision.fields) != 1 or decision.fields[0].shape != "one":
                    continue
                field = decision.fields[0]
                actor = Actor.dealer() if decision.seat is None else Actor.of_seat(decision.seat)
                for option in field.options:
                    game.decide(state, actor, {"type": decision.move, field.name: option.value}, random_rng(rnd))
                offered = {o.value for o in field.options}
                for bogus in (-1, 999, "nonsense", 7):
                    if bogus in offered:
                        continue
                    with pytest.raises(RuleError):
                        game.decide(state, actor, {"type": decision.move, field.name: bogus}, random_rng(rnd))


def random_rng(rnd: random.Random) -> Rng:
    return Rng(rnd.randrange(1 << 30))


@pytest.mark.parametrize("game_id", GAMES)
def test_playout_on_real_redis(game_id, redis_store):
    table = playout(game_id, 5, redis_store)
    assert table.result() is not None
    assert [e["v"] for e in redis_store.entries(table.id)] == list(range(1, redis_store.version(table.id) + 1))


def test_a_states_turn_and_result_are_worked_out_once_for_all_its_views():
    """One fan-out builds a view for every audience, each phone's table list and its focus from
    one folded state: the game's turn and result (pure functions of the state) are worked out
    once for that state, and again as soon as the state moves."""
    calls: Counter[str] = Counter()
    coin = GAMES["tricky_coin"]

    def counted(name):
        def call(state):
            calls[name] += 1
            return getattr(coin, name)(state)
        return call

    game = dataclasses.replace(coin, turn=counted("turn"), result=counted("result"))
    table = Table.create(MemoryStore(), "c", game.id, ["가", "나"], seed=1, games={game.id: game}, clock=lambda: 0.0)
    table.start(Actor.dealer())
    audiences = (Audience.public(), Audience.dealer(), Audience.of_seat(0), Audience.of_seat(1))
    folded = table.load()
    calls.clear()
    views = [audience_view(game, table.header, folded, a) for a in audiences]
    assert calls == {"turn": 1, "result": 1}
    assert not views[0]["decisions"] and views[2]["decisions"] and views[3]["decisions"]

    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5})
    moved = table.load()
    calls.clear()
    views = [audience_view(game, table.header, moved, a) for a in audiences]
    assert calls == {"turn": 1, "result": 1}
    assert not views[2]["decisions"] and views[3]["decisions"]  # seat 0 has put its coin; seat 1 still owes
