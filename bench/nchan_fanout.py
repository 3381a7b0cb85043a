"""The hall's read path in C: nginx's nchan module fanning one message out to N websockets
(issue 34: "consider an existing engine for the hall's read path ... decide by measurement").

    python3 bench/nchan_fanout.py [--devices 10000] [--messages 10] [--size 600] [--workers 4]
                                  [--nginx-workers 2] [--plain] [--json FILE]

Starts nginx (Debian's, with libnginx-mod-nchan: `apt-get install libnginx-mod-nchan`; the
project does not ship it) on loopback with a publisher and a websocket subscriber location for
one channel, connects N websocket clients (aiohttp, in `--workers` processes, offering
compression as browsers do unless `--plain`), then publishes `--messages` messages of
`--size` bytes one a second, as the console opening a question would. Printed per message and
in all: from the publish to the first, the median and the last client holding it; nginx's CPU
(master and workers, from /proc) per message; the bytes each client received per message.

The same measure for the project's own fan-out (Python, the audience processes) is
bench/crowd_burst.py's "question on the phones" and Goal 4 in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")

CONF = """load_module {module};
worker_processes {workers};
worker_rlimit_nofile 200000;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 60000; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fcgi;
  uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
  nchan_shared_memory_size 128m;
  server {{
    listen 127.0.0.1:{port};
    location = /pub {{ nchan_publisher; nchan_channel_id hall; nchan_message_buffer_length 1; }}
    location = /sub {{
      nchan_subscriber websocket; nchan_channel_id hall; nchan_subscriber_first_message newest;
      nchan_deflate_message_for_websocket on;
    }}
  }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of these processes so far (s)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def nginx_pids(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    return [master, *map(int, out)]


# -- a worker: its share of the clients ---------------------------------------------------------


async def clients(url: str, count: int, compress: bool, ready: Path, done: Path, out: Path) -> None:
    import aiohttp

    got: list[list[float]] = []  # per client: [seq, delay, bytes, ...] flattened per message
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    gate = asyncio.Semaphore(200)
    sockets = []

    async def one() -> None:
        async with gate:
            ws = await session.ws_connect(url, compress=15 if compress else 0, autoping=True, max_msg_size=0)
        sockets.append(ws)
        mine: list[float] = []
        got.append(mine)
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.time()
            seq, sent = msg.data[1:].split(",", 2)[:2]
            mine += [int(seq.split(":")[1]), now - float(sent.split(":")[1]), len(msg.data)]

    tasks = [asyncio.create_task(one()) for _ in range(count)]
    while len(sockets) < count:
        await asyncio.sleep(0.1)
        if any(t.done() and t.exception() for t in tasks):
            raise next(t.exception() for t in tasks if t.done() and t.exception())
    ready.write_text(str(count))
    while not done.exists():
        await asyncio.sleep(0.2)
    for ws in sockets:
        await ws.close()
    await session.close()
    out.write_text(json.dumps(got))


def worker(args: argparse.Namespace) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    base = Path(args.worker)
    asyncio.run(clients(args.url, args.count, not args.plain, base.with_suffix(".ready"), base.parent / "done",
                        base.with_suffix(".json")))


# -- the run --------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    if not MODULE.exists() or not shutil.which("nginx"):
        sys.exit(f"needs nginx and {MODULE} (apt-get install nginx libnginx-mod-nchan)")
    work = Path(tempfile.mkdtemp(prefix="nchan-"))
    port = free_port()
    for sub in ("body", "proxy", "fcgi", "uwsgi", "scgi"):
        (work / sub).mkdir()
    (work / "nginx.conf").write_text(CONF.format(module=MODULE, workers=args.nginx_workers, dir=work, port=port))
    nginx = subprocess.Popen(["nginx", "-c", str(work / "nginx.conf"), "-p", str(work), "-g", "daemon off;"],
                             stderr=subprocess.STDOUT, stdout=open(work / "nginx.log", "wb"))
    procs: list[subprocess.Popen] = []
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError((work / "nginx.log").read_text() + (work / "error.log").read_text()) from None
                time.sleep(0.1)
        share = [args.devices // args.workers + (i < args.devices % args.workers) for i in range(args.workers)]
        for i, count in enumerate(share):
            procs.append(subprocess.Popen([sys.executable, __file__, "--worker", str(work / f"w{i}"), "--url",
                                           f"ws://127.0.0.1:{port}/sub", "--count", str(count)]
                                          + (["--plain"] if args.plain else [])))
        started = time.monotonic()
        while sum(int(p.read_text()) for p in work.glob("w*.ready")) < args.devices:
            if any(p.poll() not in (None, 0) for p in procs):
                raise RuntimeError("a worker failed")
            if time.monotonic() - started > 300:
                raise RuntimeError("the clients did not connect in 300 s")
            time.sleep(0.2)
        print(f"{args.devices} websockets connected in {time.monotonic() - started:.1f} s", flush=True)
        time.sleep(2)
        pids = nginx_pids(nginx.pid)
        cpu: list[float] = []
        pad = "x" * max(0, args.size - 60)
        for seq in range(args.messages):
            before = cpu_seconds(pids)
            body = f'{{"seq":{seq},"t":{time.time():.6f},"pad":"{pad}"}}'.encode()
            urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/pub", data=body, method="POST"),
                                   timeout=10).read()
            time.sleep(1.0)
            cpu.append(cpu_seconds(pids) - before)
        (work / "done").write_text("1")
        for p in procs:
            p.wait(timeout=120)
        delays: dict[int, list[float]] = {}
        sizes: list[int] = []
        for f in work.glob("w*.json"):
            for mine in json.loads(f.read_text()):
                for i in range(0, len(mine), 3):
                    delays.setdefault(int(mine[i]), []).append(mine[i + 1])
                    sizes.append(int(mine[i + 2]))
        per = []
        for seq in range(args.messages):
            d = sorted(delays.get(seq, []))
            per.append({"seq": seq, "held_by": len(d), "first_ms": round(d[0] * 1000, 1) if d else None,
                        "p50_ms": round(statistics.median(d) * 1000, 1) if d else None,
                        "last_ms": round(d[-1] * 1000, 1) if d else None, "nginx_cpu_ms": round(cpu[seq] * 1000, 1)})
        return {"devices": args.devices, "compression_offered": not args.plain, "nginx_workers": args.nginx_workers,
                "size": args.size, "messages": per, "payload_chars": statistics.median(sizes) if sizes else None}
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        nginx.send_signal(signal.SIGQUIT)
        try:
            nginx.wait(timeout=10)
        except subprocess.TimeoutExpired:
            nginx.kill()
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--devices", type=int, default=10000)
    parser.add_argument("--messages", type=int, default=10)
    parser.add_argument("--size", type=int, default=600, help="bytes of each message (a question's is about 600)")
    parser.add_argument("--workers", type=int, default=4, help="client processes")
    parser.add_argument("--nginx-workers", type=int, default=2)
    parser.add_argument("--plain", action="store_true", help="clients that offer no websocket compression")
    parser.add_argument("--json", help="also write the figures as JSON")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return 0
    out = run(args)
    for m in out["messages"]:
        print(f"message {m['seq']}: held by {m['held_by']} of {args.devices}; first {m['first_ms']} ms, "
              f"median {m['p50_ms']} ms, last {m['last_ms']} ms; nginx CPU {m['nginx_cpu_ms']} ms")
    lasts = [m["last_ms"] for m in out["messages"] if m["last_ms"] is not None]
    cpus = [m["nginx_cpu_ms"] for m in out["messages"]]
    print(f"in all: last client {min(lasts)}-{max(lasts)} ms after the publish (median {statistics.median(lasts)}), "
          f"nginx CPU {min(cpus)}-{max(cpus)} ms per message, {out['payload_chars']} characters each")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
