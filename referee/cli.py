"""The ``referee`` command line: bot matches, export and replay of table logs."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from referee.kernel import Actor, Audience, RuleError, Turn, get_game, registry, seat_names
from referee.kernel.bots import pick
from referee.store import open_store
from referee.store.base import StoreError
from referee.table import Table, audience_view, fold

BOT_TRIES = 200


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def printable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what differs between two runs of the same match (the table id)."""
    return {k: v for k, v in view.items() if k not in ("table",)}


class BotsStuck(Exception):
    pass


def bot_step(table: Table, rnd: random.Random, prefer: Any = None) -> None:
    """One random legal move on `table` (one of `prefer`'s decisions when it offers any)."""
    turn = table.game.turn(table.load().state)
    for _ in range(BOT_TRIES):
        chosen = pick(prefer(turn) if prefer else turn, rnd) or pick(turn, rnd)
        if chosen is None:
            raise BotsStuck(f"no decision pending and no result in {table.id}")
        actor, move = chosen
        try:
            table.submit(actor, move, sid=uuid.uuid4().hex)
            return
        except RuleError:
            continue  # a random pick may break a rule the options do not capture
    raise BotsStuck(f"bots found no legal move in {table.id}")


def play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    seats = args.seats or game.usual_seats
    names = list(seat_names(seats))
    rnd = random.Random(f"bot:{args.seed}")
    with open_store(args.data_dir) as store:
        table_id = f"play-{game.id}-{args.seed}-{uuid.uuid4().hex[:8]}"
        table = Table.create(store, table_id, game.id, names, options=dict(args.option or ()), seed=args.seed)
        print(f"table {table_id}", file=sys.stderr)
        table.start(Actor.dealer())
        last = None
        while True:
            view = printable(table.view(Audience.public()))
            if view != last:
                print(dumps(view))
                last = view
            result = table.result()
            if result is not None:
                print(dumps(result))
                return 0
            try:
                bot_step(table, rnd)
            except BotsStuck as stuck:
                print(stuck, file=sys.stderr)
                return 1


def play_program(args: argparse.Namespace) -> int:
    """A whole evening with bots: the dealer opens each match as the program seats it, bots play
    it, the dealer confirms its result; each confirmed stage prints its public result as one
    JSON line, and the evening's standings come last."""
    from referee.table.programs import ProgramRunner

    games = registry(programs=True)
    program_game = get_game(args.program, games)
    names = list(seat_names(args.seats or program_game.usual_seats))
    rnd = random.Random(f"bot:{args.seed}")
    with open_store(args.data_dir) as store:
        # The program's table makes its stage tables as it commits (its runner subscribes); the
        # dealer starts each one as it is made.
        runner = ProgramRunner(store, games, created=lambda _, table_id: Table(store, table_id, games).start(
            Actor.dealer()))
        program = Table.create(store, f"play-{program_game.id}-{args.seed}-{uuid.uuid4().hex[:8]}", program_game.id,
                               names, options=dict(args.option or ()), seed=args.seed, games=games,
                               on_commit=[runner.committed])
        print(f"program {program.id}", file=sys.stderr)
        program.start(Actor.dealer())
        printed: set[str] = set()
        # The dealer takes the program's decisions as a show would: confirm what is over, open
        # what is ready with the computed seating; players and ties by bots.
        wanted = ("confirm_result", "open_stage")
        try:
            while (final := program.result()) is None:
                state = program.load().state
                tables = runner.stage_tables(program)
                over = [k for k, t in tables.items() if state.stage(k).status == "open" and Table(store, t, games).result()]
                running = [t for k, t in tables.items() if state.stage(k).status == "open"
                           and Table(store, t, games).result() is None]
                if over:
                    program.submit(Actor.dealer(), runner.complete(program, {"type": "confirm_result", "stage": over[0]}))
                elif running:
                    bot_step(Table(store, running[0], games), rnd)
                else:
                    bot_step(program, rnd, prefer=lambda turn: Turn(turn.phase, tuple(
                        d for d in turn.decisions if d.move in wanted or not d.move.startswith("seat_stage:"))))
                for stage in program.load().state.stages:
                    if stage.status == "confirmed" and stage.key not in printed:
                        printed.add(stage.key)
                        print(dumps({"stage": stage.key, "game": stage.game, "players": list(stage.players),
                                     "result": Table(store, tables[stage.key], games).result()}))
        except BotsStuck as stuck:
            print(stuck, file=sys.stderr)
            return 1
        print(dumps(final))
        return 0


def export(args: argparse.Namespace) -> int:
    with open_store(args.data_dir) as store:
        lines = [dumps(store.header(args.table))] + [dumps(e) for e in store.entries(args.table)]
    with open(args.out, "w", encoding="utf-8") if args.out else contextlib.nullcontext(sys.stdout) as out:
        out.writelines(line + "\n" for line in lines)
    return 0


def replay(args: argparse.Namespace) -> int:
    with open(args.file, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    header, entries = rows[0], rows[1:]
    game = get_game(header["game"])
    folded = fold(game, header, entries)
    view = audience_view(game, header, folded, Audience.parse(args.audience))
    print(dumps(printable(view)))
    print(dumps(view["result"]))
    return 0


def tables(args: argparse.Namespace) -> int:
    with open_store(args.data_dir) as store:
        for table in store.tables():
            header = store.header(table)
            print(f"{table}\t{header['game']}\t{store.version(table)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Referee for live game shows")
    sub = parser.add_subparsers(dest="command", required=True)

    def data_dir(p: argparse.ArgumentParser) -> None:
        p.add_argument("--data-dir", help="data directory of the embedded Redis (default $REFEREE_DATA_DIR "
                       "or ./referee-data); REDIS_URL selects an external Redis instead")

    p = sub.add_parser("play", help="play a whole match with random legal moves")
    p.add_argument("game", choices=sorted(registry()))
    p.add_argument("--bots", action="store_true", required=True, help="every seat is a bot")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seats", type=int, help="number of seats (default: the usual number for the game)")
    p.add_argument("--option", nargs=2, action="append", metavar=("NAME", "VALUE"), help="a table option")
    data_dir(p)
    p.set_defaults(run=play)

    p = sub.add_parser("play-program", help="play a whole show program (an evening of matches) with bots")
    p.add_argument("program", choices=sorted(g.id for g in registry(programs=True).values() if g.program))
    p.add_argument("--bots", action="store_true", required=True, help="every player is a bot")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seats", type=int, help="number of players (default: the program's usual number)")
    p.add_argument("--option", nargs=2, action="append", metavar=("NAME", "VALUE"), help="a program option")
    data_dir(p)
    p.set_defaults(run=play_program)

    p = sub.add_parser("export", help="write a table's log as JSON lines")
    p.add_argument("table")
    p.add_argument("--out", "-o", help="file to write (default: standard output)")
    data_dir(p)
    p.set_defaults(run=export)

    p = sub.add_parser("replay", help="fold an exported log and print one audience's view and the result")
    p.add_argument("file")
    p.add_argument("--as", dest="audience", default="public", help="public, dealer or seat:N (N from 0)")
    p.set_defaults(run=replay)

    p = sub.add_parser("tables", help="list the tables in the store")
    data_dir(p)
    p.set_defaults(run=tables)

    for name, text in (("serve", "run a show: console, phones, projector"),
                       ("demo", "run the server with a ready demo show (Tricky Coin, two players)")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
        p.add_argument("--port", type=int, default=5000)
        p.add_argument("--pin", help="staff PIN for the console and the API (default $REFEREE_PIN)")
        p.add_argument("--async-mode", default=os.environ.get("REFEREE_ASYNC_MODE", "eventlet"),
                       help="eventlet (default), gevent or threading")
        p.add_argument("--public-url", help="base URL printed on seat cards (default: http://LAN-address:port)")
        data_dir(p)
        p.set_defaults(run=serve, demo=name == "demo")

    p = sub.add_parser("print", help="print a show's documents as PDF")
    p.add_argument("what", choices=["seat-cards"])
    p.add_argument("show")
    p.add_argument("--out", "-o", help="PDF file to write (default: SHOW-seat-cards.pdf)")
    p.add_argument("--public-url", help="base URL of the phone links (default: http://LAN-address:5000)")
    data_dir(p)
    p.set_defaults(run=print_documents)

    p = sub.add_parser("hall-config", help="write what deploy's nginx needs to take the hall's predictions itself")
    p.add_argument("--out", "-o", help="JSON file to write, readable by its owner only (default: print it)")
    p.add_argument("--redis-host", help="the Redis nginx asks (default: REDIS_URL's; through Sentinel 127.0.0.1); "
                   "unix:PATH for a socket")
    p.add_argument("--redis-port", type=int, help="its port (default: REDIS_URL's; through Sentinel 6379)")
    data_dir(p)
    p.set_defaults(run=hall_config)

    p = sub.add_parser("export-show", help="write a show's evening as static HTML that opens with no server")
    p.add_argument("show")
    p.add_argument("--out", "-o", help="folder to write (default: SHOW-export); empty, or an earlier export")
    data_dir(p)
    p.set_defaults(run=export_show)
    return parser


def serve(args: argparse.Namespace) -> int:
    from referee.server.entry import ServeOptions
    from referee.server.entry import serve as run_server

    return run_server(ServeOptions(host=args.host, port=args.port, data_dir=args.data_dir, pin=args.pin,
                                   async_mode=args.async_mode, public_url=args.public_url, demo=args.demo))


@contextlib.contextmanager
def show_service(data_dir: str | None, base: str = "") -> Iterator[Any]:
    """The show service on the store (the data directory's embedded Redis or REDIS_URL), with
    the server's key (its card links) and games, publishing nowhere: what a command that reads a
    show needs."""
    from referee.server.entry import listed
    from referee.server.service import Service
    from referee.server.shows import Shows, load_secret
    from referee.store import connect, data_dir_from
    from referee.store import redis_url as store_url

    with store_url(data_dir) as url:
        client = connect.client(url, decode_responses=True)
        shows = Shows(client, load_secret(data_dir_from(data_dir)))
        yield Service(client, shows, lambda *a, **k: None, lambda: base,
                      games=registry(listed("REFEREE_EXTRA_GAMES"), programs=True))


def print_documents(args: argparse.Namespace) -> int:
    from referee.server.entry import lan_address
    from referee.server.printing import seat_cards_pdf

    base = (args.public_url or f"http://{lan_address()}:5000").rstrip("/")
    with show_service(args.data_dir, base) as service:
        service.shows.require(args.show)
        pdf = seat_cards_pdf(service, args.show)
    out = args.out or f"{args.show}-seat-cards.pdf"
    with open(out, "wb") as f:
        f.write(pdf)
    print(out)
    return 0


def hall_config(args: argparse.Namespace) -> int:
    """deploy/nginx/hall.lua's settings (referee/server/hall.py) from the referee's own: REDIS_URL,
    the secret key, the hall's rate limits, the standby; REFEREE_HALL_GATHER_MS, how long an nginx
    worker gathers predictions into one Redis pipeline."""
    from referee.server.entry import gather_from_env, limits_from_env, replicas_from_env
    from referee.server.hall import hall_config as config
    from referee.server.shows import load_secret
    from referee.store import data_dir_from
    from referee.store import redis_url as store_url

    with store_url(args.data_dir) as url:
        text = json.dumps(config(url, load_secret(data_dir_from(args.data_dir)), limits_from_env(),
                                 replicas_from_env(url), host=args.redis_host, port=args.redis_port,
                                 gather_ms=gather_from_env()),
                          ensure_ascii=False, indent=1)
    if not args.out:
        print(text)
        return 0
    fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    print(args.out)
    return 0


def export_show(args: argparse.Namespace) -> int:
    """The evening as a static HTML folder (referee/server/export.py); prints its index.html."""
    from pathlib import Path

    from referee.server.export import export_show as write

    with show_service(args.data_dir) as service:
        written = write(service, args.show, Path(args.out or f"{args.show}-export"))
    print(written.index)
    secrets = (f"{written.players} players' pages, each sealed with the player's card link" if written.players
               else "no player's secrets: the show has not ended")
    print(f"{written.tables} tables, {written.frames} frames; {secrets}"
          + ("" if written.fonts else "; no Korean font found to copy (fonts-nanum)"), file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (RuleError, StoreError) as exc:
        print(f"error {exc.code}: {exc.ko} / {exc.en}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
