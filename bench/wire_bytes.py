"""Bytes on the wire per update, plain and deflated (issue 38; docs/performance.md, Goal 1).

    python3 bench/wire_bytes.py [--moves N]

A real `referee serve` (its embedded Redis), a Tricky Coin match played to its end through the
JSON API, an audience question opened on the way; a projector (`/public`), a phone (`/seat`) and
the console (`/dealer`) as python-socketio clients. Every message each receives is taken as it
came off the websocket (the Socket.IO packet's text), and measured as sent plain and as deflated
the way the server deflates it for a socket that took the browser's offer (permessage-deflate,
no context takeover: each message on its own), websocket frame headers included. Printed per
kind of message: how many, the median and largest size plain and deflated, and what one update
costs a venue's Wi-Fi at 1,000 screens.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import socketio

sys.path.insert(0, str(Path(__file__).resolve().parent))
import submit_to_projector as stp  # noqa: E402

PLAYERS = ["가람", "나래"]


def framed(size: int) -> int:
    """A server's websocket frame of `size` payload bytes (RFC 6455 5.2: no mask)."""
    return size + (2 if size <= 125 else 4 if size <= 65535 else 10)


def deflated(data: bytes) -> int:
    """The message deflated on its own (RFC 7692 7.2.1: the sync flush's tail dropped)."""
    out = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -zlib.MAX_WBITS)
    return len(out.compress(data) + out.flush(zlib.Z_SYNC_FLUSH)) - 4


class Tap:
    """A python-socketio client whose every incoming message is kept as its text on the wire."""

    def __init__(self, url: str, namespace: str, auth: dict[str, Any]) -> None:
        self.messages: list[str] = []
        self.sio = socketio.Client(reconnection=False)
        handlers = self.sio.eio.handlers
        passed = handlers["message"]

        def keep(data: Any) -> Any:
            if isinstance(data, str):
                self.messages.append("4" + data)  # the Engine.IO message packet as it came
            return passed(data)

        handlers["message"] = keep
        self.sio.connect(url, namespaces=[namespace], auth=auth, transports=["websocket"], wait_timeout=10)
        self.namespace = namespace

    def kinds(self) -> dict[str, list[bytes]]:
        """The messages by event name (`view`, `crowd`, ...); a view's first one is `view (whole)`."""
        out: dict[str, list[bytes]] = {}
        for text in self.messages:
            head = text.split("[", 1)
            if len(head) < 2 or not head[1].startswith('"'):
                continue  # an acknowledgement or a namespace packet
            event = head[1][1:].split('"', 1)[0]
            if event == "view" and self.namespace == "/public":
                event = "view (brief)" if '"show"' not in text else "view (whole)"
            out.setdefault(event, []).append(text.encode())
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=400, help="at most this many moves (the match may end first)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="wire-bytes-"))
    server = stp.Server(work).start()
    try:
        show = "w" + str(int(time.time()))
        server.api("create_show", show=show, name="바이트")
        for name in PLAYERS:
            server.api("add_player", show=show, name=name)
        table = server.api("create_table", show=show, game="tricky_coin", players=PLAYERS, seed=3)["table"]
        server.api("start", show=show, table=table)
        server.api("set_current", show=show, table=table)
        snapshot = server.snapshot(show)
        taps = {"projector (/public)": Tap(server.url, "/public", {"show": show}),
                "phone (/seat)": Tap(server.url, "/seat", {"token": snapshot["links"][0]["token"]}),
                "console (/dealer)": Tap(server.url, "/dealer", {"pin": stp.PIN, "show": show})}
        rnd = random.Random(5)
        asked = False
        for _ in range(args.moves):
            view = server.snapshot(show)["tables"][0]["view"]
            if view.get("result") is not None or not view.get("decisions"):
                break
            decision = rnd.choice(view["decisions"])
            move = {"type": decision["move"],
                    **{f["name"]: rnd.choice(f["options"])["value"] for f in decision["fields"]}}
            server.api("move", show=show, table=table, seat=decision["seat"], move=move, sid=f"m{rnd.random()}")
            if not asked:
                server.api("ask_question", show=show, text="누가 이길까요?", options=PLAYERS)
                asked = True
        time.sleep(1.0)  # the last fan-out and the crowd's ticker
        print(f"{'screen':<20} {'message':<14} {'n':>4} {'plain median / max':>20} {'deflated median / max':>23} "
              f"{'saved':>6} {'1,000 screens plain / deflated':>32}")
        for name, tap in taps.items():
            for kind, messages in sorted(tap.kinds().items()):
                plain = [framed(len(m)) for m in messages]
                packed = [framed(deflated(m)) for m in messages]
                mid_plain, mid_packed = statistics.median(plain), statistics.median(packed)
                print(f"{name:<20} {kind:<14} {len(messages):>4} {f'{mid_plain:.0f} / {max(plain)}':>20} "
                      f"{f'{mid_packed:.0f} / {max(packed)}':>23} {1 - mid_packed / mid_plain:>6.0%} "
                      f"{f'{mid_plain * 1000 / 1e6:.2f} / {mid_packed * 1000 / 1e6:.2f} MB':>32}")
            tap.sio.disconnect()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
