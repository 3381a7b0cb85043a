#!/usr/bin/env python3
"""What one HTTPS request costs an nginx worker, by how the phone reaches it: a new connection
with a full TLS handshake (RSA or ECDSA certificate), a new connection resuming its session
(what a phone does for a prediction once it has loaded the page), or a kept-alive connection;
plain HTTP beside them. Each request a POST of a prediction's size answered at once by nginx
(no Lua, no upstream): the TLS cost alone, measured as the CPU time of nginx's single worker
(/proc) over `--requests` requests sent one at a time from this process.

    python bench/tls_cost.py                 # 2,000 requests each way
    python bench/tls_cost.py --requests 5000

Uses Debian's nginx, deploy/tls/make-venue-cert for the ECDSA P-256 certificate (what a venue
gets), and openssl for an RSA 2048 one beside it; the hall's ssl_ settings come from
deploy/nginx/hall.conf."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from submit_to_projector import ROOT, free_port  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
BODY = b"question=1&option=2"
REQUEST = (b"POST /predict HTTP/1.1\r\nHost: venue.example\r\nContent-Type: application/x-www-form-urlencoded\r\n"
           b"Content-Length: %d\r\n%s\r\n" + BODY)


def hall_ssl_lines() -> str:
    """deploy/nginx/hall.conf's ssl_ directives other than the certificate's paths."""
    text = (ROOT / "deploy" / "nginx" / "hall.conf").read_text()
    return "".join(f"    {m};\n" for m in re.findall(r"^\s*(ssl_(?!certificate)[a-z_]+ [^;\n]*);", text, re.M))


def certificates(work: Path) -> dict[str, tuple[Path, Path]]:
    ec = work / "ec"
    subprocess.run([str(ROOT / "deploy" / "tls" / "make-venue-cert"), str(ec), "venue.example"], check=True,
                   capture_output=True)
    rsa = work / "rsa"
    rsa.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=venue.example",
                    "-keyout", str(rsa / "server.key"), "-out", str(rsa / "server.crt")], check=True, capture_output=True)
    return {"rsa": (rsa / "server.crt", rsa / "server.key"), "ecdsa": (ec / "server.crt", ec / "server.key")}


def start_nginx(work: Path, certs: dict[str, tuple[Path, Path]]) -> tuple[subprocess.Popen[bytes], dict[str, int]]:
    ports = {"plain": free_port(), **{name: free_port() for name in certs}}
    servers = [f"server {{ listen 127.0.0.1:{ports['plain']}; location / {{ return 204; }} }}"]
    for name, (crt, key) in certs.items():
        servers.append(f"server {{\n    listen 127.0.0.1:{ports[name]} ssl;\n    ssl_certificate {crt};\n"
                       f"    ssl_certificate_key {key};\n{hall_ssl_lines()}    location / {{ return 204; }}\n}}")
    temps = "\n".join(f"    {k}_temp_path {work}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (work / "nginx.conf").write_text(f"""daemon off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    keepalive_requests 100;
{temps}
    {chr(10).join(servers)}
}}
""")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = subprocess.Popen([nginx, "-p", str(work), "-c", str(work / "nginx.conf")])
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", ports["plain"]), timeout=1).close()
            return proc, ports
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nginx did not start: " + (work / "error.log").read_text())


def worker_pid(master: int) -> int:
    for _ in range(100):
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        if children:
            return int(children[0])
        time.sleep(0.05)
    raise SystemExit("no nginx worker")


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def answer(sock: socket.socket | ssl.SSLSocket) -> None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed before the answer")
        data += chunk
    if not data.startswith(b"HTTP/1.1 204"):
        raise ConnectionError(data[:80])


def run(kind: str, port: int, n: int, context: ssl.SSLContext | None) -> None:
    """n requests of one kind: new plain connections, new TLS ones (full or resumed) or kept alive (100 requests a connection)."""
    close = REQUEST % (len(BODY), b"Connection: close\r\n")
    session = None
    if kind == "kept alive":  # nginx closes a connection after keepalive_requests (100 here): then anew
        while n > 0:
            with context.wrap_socket(socket.create_connection(("127.0.0.1", port)), session=session) as s:
                for _ in range(min(n, 100)):
                    s.sendall(REQUEST % (len(BODY), b""))
                    answer(s)
                session, n = s.session, n - 100
        return
    for _ in range(n):
        raw = socket.create_connection(("127.0.0.1", port))
        if context is None:
            s = raw
        else:
            s = context.wrap_socket(raw, session=session if kind == "resumed" else None)
        with s:
            s.sendall(close)
            answer(s)
            while s.recv(4096):  # to the end: a TLS 1.3 ticket comes after the handshake
                pass
            if context is not None:
                if kind == "resumed" and session is not None and not s.session_reused:
                    raise SystemExit("the session was not resumed")
                session = s.session


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=2000)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-tls-") as tmp:
        work = Path(tmp)
        certs = certificates(work)
        proc, ports = start_nginx(work, certs)
        try:
            pid = worker_pid(proc.pid)
            print(f"nginx {subprocess.run(['nginx', '-v'], capture_output=True, text=True).stderr.strip()}, "
                  f"{ssl.OPENSSL_VERSION} (client), one worker; hall.conf's ssl_ settings: "
                  f"{' '.join(hall_ssl_lines().split()).rstrip(';') or 'none'}; {args.requests} requests each, one at a time")
            rows = [("plain HTTP, a new connection each", "plain", "new", None)]
            for name in certs:
                ctx = ssl.create_default_context(cafile=str(certs[name][0] if name == "rsa" else
                                                            certs[name][0].parent / "ca.crt"))
                ctx.check_hostname = False
                rows += [(f"TLS ({name}), a new connection each, full handshake", name, "full", ctx),
                         (f"TLS ({name}), a new connection each, the session resumed", name, "resumed", ctx),
                         (f"TLS ({name}), kept alive (100 requests a connection)", name, "kept alive", ctx)]
            for label, port, kind, ctx in rows:
                run(kind, ports[port], 50, ctx)  # warm up
                c0, t0 = cpu(pid), time.monotonic()
                run(kind, ports[port], args.requests, ctx)
                c1, t1 = cpu(pid), time.monotonic()
                print(f"{label:58s} nginx {1000 * (c1 - c0) / args.requests:6.3f} ms CPU a request "
                      f"({args.requests / (t1 - t0):6.0f} requests a second)", flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
