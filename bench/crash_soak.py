"""The long crash test: the server is killed with SIGKILL at random points many times.

    python bench/crash_soak.py [KILLS]      (default 60)

It runs tests/test_crash.py with REFEREE_CRASH_KILLS set, so the soak checks exactly what the
short variant in the suite checks: after every restart each acknowledged move is in the log
exactly once, versions are gapless, every match finishes, and phones and the projector
reconnect by themselves. It prints the time taken and pytest's verdict.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:warnings", "tests/test_crash.py"],
        cwd=ROOT, env={**os.environ, "REFEREE_CRASH_KILLS": str(kills)},
    )
    print(f"crash soak: {kills} SIGKILLs of the server, {time.monotonic() - started:.0f} s, "
          f"{'passed' if done.returncode == 0 else 'FAILED'}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
