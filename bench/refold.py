"""How long a restarted server takes to serve its tables, and a whole log to fold again.

Prints figures, asserts nothing (issue 17, goals 5 and 6):

- ``--tables 50 --entries 500``: that many tables of bot moves are written to a real Redis
  (an embedded one in a temporary directory); then a fresh ``Service`` (a restarted server's:
  nothing cached) serves every table's dealer, public and seat views, timed.
- a whole 9-seat Tricky Gallery match and a whole Tricky Survival evening (its program log and
  every stage), each folded from its log ``--repeat`` times: the best and the median.

    python bench/refold.py [--tables 50] [--entries 500] [--repeat 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import uuid

from referee.kernel import Actor, Audience, RuleError, registry
from referee.kernel.bots import pick
from referee.store import EmbeddedRedis, MemoryStore, RedisStore
from referee.table import Table, audience_view, fold

GAMES = registry(programs=True)


def bot_table(store, table_id: str, game_id: str, seats: int, entries: int, seed: int) -> Table:
    table = Table.create(store, table_id, game_id, [f"P{i}" for i in range(seats)], seed=seed, games=GAMES)
    table.start(Actor.dealer())
    rnd = random.Random(seed)
    while store.version(table_id) < entries:
        folded = table.load()
        if table.game.result(folded.state) is not None:
            break
        chosen = pick(table.game.turn(folded.state), rnd)
        if chosen is None:
            break
        try:
            table.submit(*chosen)
        except RuleError:
            continue
    return table


def restart(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        redis_server = EmbeddedRedis(tmp).start()
        try:
            store = RedisStore.from_url(redis_server.url, prefix=f"bench-{uuid.uuid4().hex[:6]}:")
            ids = []
            started = time.perf_counter()
            for i in range(args.tables):
                # Clumsy Cats with 4 seats: matches long enough for 500 entries.
                table = bot_table(store, f"t{i}", "clumsy_cats", 4, args.entries, i)
                ids.append(table.id)
            sizes = [store.version(t) for t in ids]
            print(f"wrote {len(ids)} tables, {sum(sizes)} entries (min {min(sizes)}, max {max(sizes)}) "
                  f"in {time.perf_counter() - started:.1f} s")
            fresh = RedisStore.from_url(redis_server.url, prefix=store.prefix)  # a restarted process
            started = time.perf_counter()
            for table_id in ids:
                table = Table(fresh, table_id, GAMES)
                folded = table.load()
                for audience in (Audience.dealer(), Audience.public(), Audience.of_seat(0)):
                    audience_view(table.game, table.header, folded, audience)
            took = time.perf_counter() - started
            print(f"restart: every table's dealer, public and seat views served in {took * 1000:.0f} ms "
                  f"({took * 1000 / len(ids):.1f} ms per table of ~{statistics.mean(sizes):.0f} entries)")
        finally:
            redis_server.stop()


def refold(label: str, game, header, entries, repeat: int) -> None:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fold(game, header, entries)
        times.append((time.perf_counter() - started) * 1000)
    print(f"{label}: {len(entries)} entries fold in best {min(times):.1f} ms, median {statistics.median(times):.1f} ms")


def whole_logs(args: argparse.Namespace) -> None:
    store = MemoryStore()
    gallery = bot_table(store, "g", "tricky_gallery", 9, 10**6, 7)
    refold("a whole 9-seat Tricky Gallery", gallery.game, gallery.header, store.entries("g"), args.repeat)
    from referee.table.programs import ProgramRunner

    program = Table.create(store, "p", "tricky_survival", [f"P{i}" for i in range(9)], {"event_match": "on"},
                           seed=3, games=GAMES)
    program.start(Actor.dealer())
    runner = ProgramRunner(store, GAMES)
    rnd = random.Random(3)
    while program.result() is None:
        state = program.load().state
        tables = runner.stage_tables(program)
        over = [k for k, t in tables.items() if state.stage(k).status == "open" and Table(store, t, GAMES).result()]
        running = [t for k, t in tables.items() if state.stage(k).status == "open"]
        if over:
            program.submit(Actor.dealer(), runner.complete(program, {"type": "confirm_result", "stage": over[0]}))
        elif running:
            table = Table(store, running[0], GAMES)
            chosen = pick(table.game.turn(table.load().state), rnd)
            try:
                table.submit(*chosen)
            except RuleError:
                pass
        else:
            ready = next(d for d in program.game.turn(state).decisions if d.move == "open_stage")
            program.submit(Actor.dealer(), {"type": "open_stage", "stage": ready.fields[0].options[0].value})
        for table_id in runner.sync(program).created:
            Table(store, table_id, GAMES).start(Actor.dealer())
    total = 0.0
    count = 0
    for table_id in ["p", *runner.stage_tables(program).values()]:
        table = Table(store, table_id, GAMES)
        entries = store.entries(table_id)
        started = time.perf_counter()
        fold(table.game, table.header, entries)
        total += time.perf_counter() - started
        count += len(entries)
    print(f"a whole Tricky Survival evening (event match: program and {len(runner.stage_tables(program))} matches): "
          f"{count} entries fold in {total * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--entries", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    whole_logs(args)
    restart(args)


if __name__ == "__main__":
    main()
