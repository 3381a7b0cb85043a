#!/usr/bin/env python3
"""Load benchmark (issue 6): 2,000 projector and audience sockets spread over two processes
while the seats submit.

Two ``referee serve`` processes on 127.0.0.1 share one Redis: an embedded ``redis-server``
that this script starts itself (``referee.store.EmbeddedRedis``, as tests/test_scale_out.py
does) and passes to both as ``REDIS_URL``, with one ``REFEREE_SECRET_KEY`` for both. 2,000
``/public`` clients (python-socketio ``AsyncClient``s in worker processes) are split evenly
over the two processes; the two seats' phones are connected one to each process, so the
submissions alternate between them. One measuring projector is on the first process.

Prints the connection time (all 2,000 from one "go", and per connection p50 / p99), then per
update the time from the submit to all 2,000 holding the new view, p50 / p99 / max, split into
the last client on the submitting phone's process and the last on the other process, with
the delivery counts (every client must get every update; misses are reported, and so are
views that arrive after a newer one of the same table).

The machinery (servers, workers, sampling in quiet-machine blocks, CPU accounting, clean-up)
is bench/submit_to_projector.py's, imported. Every loop is bounded, only 127.0.0.1 is
contacted, and the servers, the workers and the shared redis-server are stopped at the end
(also on Ctrl-C or SIGTERM).

    pip install aiohttp
    python bench/load_two_processes.py                        # 2,000 clients, 200 samples
    python bench/load_two_processes.py --samples 50 --json /tmp/load.json
    python bench/load_two_processes.py --profile /tmp/prof    # py-spy both servers
    python bench/load_two_processes.py --servers 1            # the same load on one process

See bench/README.md and docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import submit_to_projector as stp  # noqa: E402


def row(label: str, stats: dict[str, float] | None) -> str:
    if not stats:
        return f"  {label:<44} {'-':>8} {'-':>8} {'-':>8}"
    return f"  {label:<44} {stats['p50']:>8.1f} {stats['p99']:>8.1f} {stats['max']:>8.1f}"


def report(s: dict[str, Any], nservers: int, concurrency: int) -> str:
    names = stp.SERVER_NAMES[:nservers] if nservers > 1 else "A"
    c = s["connect"]
    cms = c["ms"] or {"p50": math.nan, "p99": math.nan, "max": math.nan}
    n = s["extra"]
    lines = [
        f"connection: {s['connected']}/{n} /public clients connected ({s['workers']} worker processes, "
        f"{concurrency} connects in flight per worker) in {c['wall_s']:.2f} s from the go; all holding their "
        f"first view at {c['snapshots_wall_s']:.2f} s",
        f"  per connection (connect call to connected), ms: p50 {cms['p50']:.1f}, p99 {cms['p99']:.1f}, "
        f"max {cms['max']:.1f}",
        "",
        f"per update, {s['samples']} measured submits (seats alternate, phone 1 on {names[0]}"
        + (f", phone 2 on {names[1 % nservers]}" if nservers > 1 else ", phone 2 on A") + "), ms from the submit:",
        f"  {'':<44} {'p50':>8} {'p99':>8} {'max':>8}",
        row("ack at the submitting phone", s["ack_ms"]),
        row("the submitting phone's own new view", s["own_phone_ms"]),
        row("measuring projector (on A)", s["projector_ms"]),
        row(f"all {n:,} delivered (the last of them)", s["all_extra_ms"]),
    ]
    if nservers > 1:
        lines += [row("  the last on the submitting phone's process", s["all_same_process_ms"]),
                  row("  the last on the other process", s["all_other_process_ms"])]
    lines += [
        "",
        f"delivery: all {n:,} got the update in {s['got_full']}/{s['samples']} samples; fewest in a sample "
        f"{s['got_min']:,}; misses {s['missed']:,}; views delivered {s['deliveries']:,} "
        f"(expected {s['expected_deliveries']:,} = {s['public_views']} views at the measuring projector x {n:,}; "
        f"{s['public_updates']} updates caused), of which stale (older than one already held) {s['stale_views']:,}",
        "CPU per update, ms: " + ", ".join(
            f"server {name} {ms:.1f}" for name, ms in zip(names, s["server_cpu_ms_per_update_each"], strict=False))
        + f", redis {s['redis_cpu_ms_per_update']:.1f}, clients {s['client_cpu_ms_per_update']:.1f} "
        f"(+ this script {s['bench_cpu_ms_per_update']:.1f}), kernel irq {s['irq_cpu_ms_per_update']:.1f}, "
        f"other processes {s['other_cpu_ms_per_update']:.1f}",
        f"server RSS MiB: {', '.join(f'{name} {m}' for name, m in zip(names, s['server_rss_mib_each'], strict=False))}; "
        f"{s['discarded_blocks']} busy blocks discarded; {s['tables']} tables; {s['wall_s']} s",
    ]
    if s["redis_calls_per_update"]:
        calls = s["redis_calls_per_update"]
        lines.append(f"Redis commands per update (both servers): {sum(calls.values()):.1f} "
                     f"({', '.join(f'{k} {v:g}' for k, v in calls.items())})")
    if s["gc"]:
        lines.append(f"server gc during the sample blocks: {s['gc']}")
        lines.append(f"of which within a sample (submit to last view): {s['gc_hot']}")
    lines += [f"failure: {f}" for f in s["failures"][:5]]
    return "\n".join(lines)


class Nginx:
    """nginx in front of the servers, as deploy/nginx/referee.conf (websocket upgrade, long
    timeouts, no buffering). deploy/ spreads phones over the processes by a hash of their
    address; on loopback every client has the same address, so here each worker connects from
    its own, 127.0.(k+1).(j+1) for worker j of server k, and nginx maps the address to server
    k: the same spread, known in advance, so the figures can still tell the processes apart.
    Four nginx workers (``reuseport``): a proxied connection takes two descriptors, and one
    process may hold fewer than 20,000 here."""

    def __init__(self, work: Path) -> None:
        self.dir = work / "nginx"
        self.port = stp.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: Any = None

    @staticmethod
    def address(server: int, worker: int) -> str:
        return f"127.0.{server + 1}.{worker + 1}"

    def start(self, servers: list[Any]) -> None:
        routes = "\n".join(f"        ~^127\\.0\\.{k + 1}\\. 127.0.0.1:{s.port};" for k, s in enumerate(servers))
        conf = f"""
worker_processes 4;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 16000; }}
http {{
    access_log off;
    client_body_temp_path {self.dir}/tmp;
    proxy_temp_path {self.dir}/tmp;
    map $remote_addr $referee {{
        default 127.0.0.1:{servers[0].port};
{routes}
    }}
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{self.port} reuseport;
        location / {{
            proxy_pass http://$referee;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_read_timeout 3600s;
            proxy_buffering off;
        }}
    }}
}}
"""
        (self.dir / "tmp").mkdir(parents=True, exist_ok=True)
        (self.dir / "nginx.conf").write_text(conf)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        with open(self.dir / "stderr.log", "ab") as err:
            self.proc = subprocess.Popen([nginx, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"),
                                          "-g", "daemon off;"], stderr=err)
        time.sleep(0.5)
        if self.proc.poll() is not None:
            raise RuntimeError((self.dir / "stderr.log").read_text())

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


async def orchestrate(args: argparse.Namespace) -> int:
    from referee.store import EmbeddedRedis

    limit = stp.raise_nofile()
    if limit < args.clients * 2 + 200:
        print(f"warning: open-file limit is {limit}; {args.clients} clients may not fit", file=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="referee-load-")).resolve()
    deadline = time.monotonic() + args.max_seconds
    info = stp.machine()
    print(f"machine: {info['cpus']} CPUs, {info['memory']}, Python {info['python']}, {info['os']}")
    print(f"packages: {info['packages']}; server code: commit {info['commit']}, async mode {info['async_mode']}")
    print(f"{args.clients} /public clients over {args.servers} server process{'es' if args.servers > 1 else ''}; "
          f"{args.samples} samples after {args.warmup} warm-up; open-file limit {limit}; work dir {work}", flush=True)
    loop = asyncio.get_running_loop()
    me = asyncio.current_task()
    for sig in (signal.SIGTERM, signal.SIGINT):  # stop cleanly: the finally blocks stop everything
        loop.add_signal_handler(sig, me.cancel)
    shared = None
    front: Nginx | None = None
    summary: dict[str, Any] | None = None
    try:
        shared = await asyncio.to_thread(EmbeddedRedis(work / "shared").start)
        print(f"shared redis-server pid {shared.process.pid} on {shared.url}", flush=True)
        env = {"REFEREE_SECRET_KEY": secrets.token_hex(32)}
        if args.quiet_wait > 0:
            share = await stp.wait_for_quiet(min(args.quiet_wait, max(0.0, deadline - time.monotonic())))
            print(f"machine busy before start: {share * 100:.0f}% of one core "
                  f"(load average {os.getloadavg()[0]:.2f})", flush=True)
        if args.nginx:
            front = Nginx(work)
            print(f"nginx in front on {front.url}", flush=True)
        result = await stp.run_size(args.clients, args, work, deadline, nservers=args.servers, shared=shared, env=env,
                                    front=front)
        summary = result.summary()
    finally:
        if front is not None:
            await asyncio.to_thread(front.stop)
        if shared is not None:
            await asyncio.to_thread(shared.stop)
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print()
    print(report(summary, args.servers, args.connect_concurrency))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "args": vars(args), "result": summary}, indent=2))
    ok = (summary["ok_samples"] == summary["samples"] > 0 and summary["missed"] == 0
          and summary["deliveries"] == summary["expected_deliveries"])
    return 0 if ok and summary["connected"] == args.clients else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=2000, help="/public clients, split evenly over the servers")
    p.add_argument("--servers", type=int, default=2, help="referee serve processes sharing the one Redis (1..8)")
    p.add_argument("--nginx", action="store_true", help="the audience connects through nginx, as in deploy/")
    stp.add_measurement_arguments(p)
    stp.add_plain_argument(p)
    args = p.parse_args(argv)
    stp.check_measurement_arguments(p, args)
    stp.apply_plain(args)
    if not 1 <= args.servers <= len(stp.SERVER_NAMES) or not args.servers <= args.clients <= 20_000:
        p.error("servers must be 1..8 and clients servers..20000")
    return asyncio.run(orchestrate(args))


if __name__ == "__main__":
    sys.exit(main())
