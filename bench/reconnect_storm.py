#!/usr/bin/env python3
"""A reconnect storm (issue 17, goal 7): every audience screen drops and reconnects at once
(the venue's Wi-Fi blinks) while a phone keeps submitting.

One ``referee serve`` (its own embedded Redis, fsync on every write) with a Tricky Coin table,
two phones, a measuring projector (the room's, opened from the console's link: the stage lane)
and ``--clients`` extra projectors (the audience's screens) in worker processes (the machinery
of bench/submit_to_projector.py, imported). With ``--split``, two processes on one Redis as
deploy/nginx/referee.conf lays them out: the phones and the measuring projector on the players'
process, the extra projectors on the audience's. First ``--samples`` submits on a quiet
server (the phone's ack, the projector's view); then every extra projector disconnects and all
reconnect at once (``--storm-concurrency`` connects in flight per worker) while the phones go
on submitting (back to back, or one every ``--pace`` seconds). Prints how long until all were
back and held a fresh snapshot, and the acks and projector views during the storm next to those
without it. Asserts nothing.

    python bench/reconnect_storm.py [--clients 1000] [--samples 100] [--storm-concurrency 500] [--pin] [--split] [--pace 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import submit_to_projector as stp  # noqa: E402


class Pace:
    """At most one submit every `seconds` (0: back to back, each as soon as the phones and the
    measuring projector hold the last one)."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.last = seconds, -math.inf

    async def wait(self) -> None:
        delay = self.last + self.seconds - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        self.last = time.monotonic()


async def submit(match: stp.Match, phones: list[stp.Recorder], projector: stp.Recorder,
                 pace: Pace) -> tuple[float, float]:
    """One move from a phone: (ack ms, projector view ms), a new table when the match is over."""
    await pace.wait()
    chosen = match.next_move(phones)
    if chosen is None:
        table, version = await match.new_table()
        for phone in phones:
            await phone.wait_for(table, version)
        chosen = match.next_move(phones)
        assert chosen is not None, "a new table has no move"
    seat, move = chosen
    t0 = time.monotonic()
    ack = await phones[seat].call("submit", {"table": match.table, "move": move, "sid": uuid.uuid4().hex})
    t_ack = time.monotonic()
    if not ack.get("ok"):
        raise RuntimeError(f"refused: {ack}")
    version = ack["ack"]["version"]
    seen = await projector.wait_for(match.table, version)
    for phone in phones:  # both, so that the next move is chosen on both seats' current views
        await phone.wait_for(match.table, version)
    return (t_ack - t0) * 1000, ((seen or t_ack) - t0) * 1000


def stats(label: str, values: list[float]) -> str:
    if not values:
        return f"  {label:<34} -"
    return (f"  {label:<34} n={len(values):<4} p50 {stp.percentile(values, 50):7.1f}  p99 {stp.percentile(values, 99):7.1f}"
            f"  max {max(values):7.1f} ms")


async def run(args: argparse.Namespace) -> int:
    stp.raise_nofile()
    work = Path(tempfile.mkdtemp(prefix="referee-storm-")).resolve()
    shared = None
    servers: list[stp.Server] = []
    workers: list[stp.Worker] = []
    recorders: list[stp.Recorder] = []
    try:
        cores = sorted(os.sched_getaffinity(0))
        if args.pin and len(cores) < 2:
            raise SystemExit("--pin needs two cores or more")

        def pin(first: bool) -> None:
            """With --pin, what starts now runs on the first core (the phones' server, Redis, this
            script) or on the others (the clients, and with --split the audience's process)."""
            if args.pin:
                os.sched_setaffinity(0, cores[:1] if first else cores[1:])

        pin(True)
        if args.split:  # two processes on one Redis, as deploy/nginx/referee.conf lays them out
            from referee.store import EmbeddedRedis
            shared = await asyncio.to_thread(EmbeddedRedis(work / "shared").start)
            env = {"REFEREE_SECRET_KEY": secrets.token_hex(32)}
            for name in ("players", "audience"):
                (work / name).mkdir()
                servers.append(stp.Server(work / name, gc_log=args.gc_log, shared=shared, env=env, name=name))
            await asyncio.to_thread(servers[0].start)
            pin(False)
            await asyncio.to_thread(servers[1].start)
        else:  # one process with its own embedded Redis
            (work / "server").mkdir()
            servers.append(stp.Server(work / "server", gc_log=args.gc_log))
            await asyncio.to_thread(servers[0].start)
        server, audience = servers[0], servers[-1]
        show = "storm" + uuid.uuid4().hex[:8]
        await asyncio.to_thread(server.api, "create_show", show=show, name="Storm")
        for name in stp.PLAYERS:
            await asyncio.to_thread(server.api, "add_player", show=show, name=name)
        match = stp.Match(server, show, random.Random(args.seed))
        table, version = await match.new_table()
        snapshot = await asyncio.to_thread(server.snapshot, show)
        # The room's projector, opened from the console's link: the stage lane, with the phones.
        stage = parse_qs(urlsplit(snapshot["projector"]).query)["stage"][0]
        projector = await stp.Recorder("/public").connect(server.url + "?lane=stage", {"show": show, "stage": stage})
        phones = [await stp.Recorder("/seat").connect(server.url + "?lane=seat", {"token": link["token"]})
                  for link in snapshot["links"]]
        recorders += [projector, *phones]
        nworkers = max(1, -(-args.clients // 500))
        pin(False)
        for j in range(nworkers):
            count = args.clients // nworkers + (1 if j < args.clients % nworkers else 0)
            workers.append(await stp.Worker.start(audience.url, show, count, 25, work / f"worker-{j}.log"))
        pin(True)
        for w in workers:
            await w.read(60)
        for w in workers:
            await w.send({"cmd": "go"})
        hello = [await w.read(600) for w in workers]
        pids = ", ".join(f"{x.name} {x.pid}" for x in servers)
        print(f"server pids {pids}: {sum(h['connected'] for h in hello)}/{args.clients} extra projectors "
              f"connected ({nworkers} workers, 25 in flight each)", flush=True)
        await stp.sync_all(table, version, projector, phones, workers)

        pace = Pace(args.pace)
        for _ in range(5):  # warm-up
            await submit(match, phones, projector, pace)
        quiet = [await submit(match, phones, projector, pace) for _ in range(args.samples)]

        for w in workers:
            await w.send({"cmd": "storm", "concurrency": args.storm_concurrency})
        started = time.monotonic()
        replies = [asyncio.ensure_future(w.read(600)) for w in workers]
        during: list[tuple[float, float]] = []
        while not all(r.done() for r in replies):
            during.append(await submit(match, phones, projector, pace))
        storm = [r.result() for r in replies]
        back = max(s["back"] for s in storm) - started
        fresh = [s["snapshots_at"] for s in storm]
        print(f"storm: {sum(s['connected'] for s in storm)}/{args.clients} back "
              f"({sum(s['failed'] for s in storm)} failed) {back:.2f} s after the go, "
              f"all holding a fresh snapshot at "
              f"{(max(fresh) - started) if all(fresh) else float('nan'):.2f} s "
              f"(disconnecting all took {max(s['down'] for s in storm) - started:.2f} s of that; "
              f"{args.storm_concurrency} connects in flight per worker)")
        print(stats("phone's ack, quiet", [a for a, _ in quiet]))
        print(stats("phone's ack, during the storm", [a for a, _ in during]))
        print(stats("projector's view, quiet", [p for _, p in quiet]))
        print(stats("projector's view, during the storm", [p for _, p in during]))
        if args.gc_log:
            for x in servers:
                print(f"{x.name}'s collections during the storm: {x.gc_pauses([(started, started + back)])}")
        return 0
    finally:
        for w in workers:
            await w.stop()
        for r in recorders:
            await r.close()
        for x in servers:
            await asyncio.to_thread(x.stop)
        if shared is not None:
            await asyncio.to_thread(shared.stop)
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=1000)
    p.add_argument("--samples", type=int, default=100, help="quiet submits to compare with")
    p.add_argument("--storm-concurrency", type=int, default=500, help="reconnects in flight per worker")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--pace", type=float, default=0.0,
                   help="seconds from one submit to the next at least (0: back to back; with --split the phones' "
                        "views come from another process than the screens', so back to back outruns the screens)")
    p.add_argument("--gc-log", action="store_true", help="print the server's collections during the storm")
    p.add_argument("--pin", action="store_true",
                   help="the phones' server, its Redis and this script on the first core, the clients on the others "
                        "(a storm from other machines: the server's own work, not the clients', between a phone's "
                        "trips); with --split the audience's process with the clients (a core of its own)")
    p.add_argument("--split", action="store_true",
                   help="the phones and the room's projector (stage lane) on a players' process, the audience's "
                        "screens on an audience process, one Redis (deploy/nginx/referee.conf's lanes)")
    stp.add_plain_argument(p)
    args = p.parse_args()
    stp.apply_plain(args)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
