"""The ``referee`` command line: bot matches, export and replay of table logs."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import uuid
from collections.abc import Sequence
from typing import Any

from referee.kernel import Actor, Audience, RuleError, get_game, registry, seat_names
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
            for _ in range(BOT_TRIES):
                chosen = pick(game.turn(table.load().state), rnd)
                if chosen is None:
                    print(f"no decision pending and no result in {table_id}", file=sys.stderr)
                    return 1
                actor, move = chosen
                try:
                    table.submit(actor, move, sid=uuid.uuid4().hex)
                    break
                except RuleError:
                    continue  # a random pick may break a rule the options do not capture
            else:
                print(f"bots found no legal move in {table_id}", file=sys.stderr)
                return 1


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
                       help="eventlet (default) or threading")
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
    return parser


def serve(args: argparse.Namespace) -> int:
    from referee.server.entry import ServeOptions
    from referee.server.entry import serve as run_server

    return run_server(ServeOptions(host=args.host, port=args.port, data_dir=args.data_dir, pin=args.pin,
                                   async_mode=args.async_mode, public_url=args.public_url, demo=args.demo))


def print_documents(args: argparse.Namespace) -> int:
    import redis

    from referee.server.entry import lan_address
    from referee.server.printing import seat_cards_pdf
    from referee.server.service import Service
    from referee.server.shows import Shows, load_secret
    from referee.store import data_dir_from
    from referee.store import redis_url as store_url

    base = (args.public_url or f"http://{lan_address()}:5000").rstrip("/")
    with store_url(args.data_dir) as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        shows = Shows(client, load_secret(data_dir_from(args.data_dir)))
        shows.require(args.show)
        service = Service(client, shows, lambda *a: None, lambda: base)
        pdf = seat_cards_pdf(service, args.show)
    out = args.out or f"{args.show}-seat-cards.pdf"
    with open(out, "wb") as f:
        f.write(pdf)
    print(out)
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
