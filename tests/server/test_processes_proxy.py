"""deploy/nginx.conf as shipped (the README's recipe), in front of two ``chesslaws serve`` processes on one
PostgreSQL: a game's requests all reach one process, the game page's way of opening a seat's socket puts no
token in nginx's logs (access or error, a process killed meanwhile), and the game goes on through the other."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx
import pytest
import websockets.sync.client as wsc

from conftest import REPO, free_port

SHIPPED = REPO / "deploy" / "nginx.conf"


def shipped_config(ports: list[int], listen: int, logs: str) -> str:
    """The shipped file with only what an operator sets changed: the upstream's ports, the listen address, the
    logs' paths (each found exactly where the file has it)."""
    text = SHIPPED.read_text()
    lines = re.findall(r"^    server 127\.0\.0\.1:800\d (.*);$", text, re.M)
    assert len(lines) == 3
    text = re.sub(r"^    server 127\.0\.0\.1:800\d .*;\n", "", text, flags=re.M)
    text = text.replace("    keepalive 32;", "".join(f"    server 127.0.0.1:{p} {lines[0]};\n" for p in ports)
                        + "    keepalive 32;")
    for old, new in (("listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;"),
                     ("/var/log/nginx/chesslaws.access.log", f"{logs}/access.log"),
                     ("/var/log/nginx/chesslaws.error.log", f"{logs}/error.log")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


class Nginx:
    """nginx with the shipped file in its http block, its logs in a directory of its own."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.root = tempfile.mkdtemp(prefix="chesslaws-nginx-test-")
        self.pid: int | None = None

    def start(self, ports: list[int]) -> str:
        port = free_port()
        Path(self.root, "chesslaws.conf").write_text(shipped_config(ports, port, self.root))
        Path(self.root, "nginx.conf").write_text(f"pid {self.root}/nginx.pid;\nerror_log {self.root}/main-error.log;\n"
                                                 f"events {{}}\nhttp {{ include {self.root}/chesslaws.conf; }}\n")
        subprocess.run([self.binary, "-c", f"{self.root}/nginx.conf", "-p", self.root], check=True)
        self.pid = int(Path(self.root, "nginx.pid").read_text())
        return f"127.0.0.1:{port}"

    def log(self, name: str) -> str:
        path = Path(self.root, name)
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.pid is not None:
            os.kill(self.pid, signal.SIGTERM)
            time.sleep(0.3)
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def nginx() -> Iterator[Nginx]:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(binary):
        pytest.skip("nginx is not installed (apt-get install nginx)")
    if not os.access("/etc/ssl/private/ssl-cert-snakeoil.key", os.R_OK):
        pytest.skip("the snakeoil certificate the shipped file names is not readable (apt-get install ssl-cert)")
    proxy = Nginx(binary)
    yield proxy
    proxy.stop()


def _recv_until(ws: Any, kind: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        msg = json.loads(ws.recv(10))
        if msg["kind"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind}")


def test_the_shipped_nginx_sends_a_game_to_one_process_and_logs_no_token(
        pg_url: str, server_factory: Callable[..., Any], nginx: Nginx) -> None:
    servers = [server_factory(pg_url, extra=("--no-rate-limits", "--forwarded-allow-ips", "127.0.0.1"))
               for _ in range(2)]
    addr = nginx.start([s.port for s in servers])
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    base = f"https://{addr}"
    secrets: list[str] = []
    games = []
    with httpx.Client(base_url=base, verify=False, timeout=10) as http:
        for _ in range(4):
            g = http.post("/api/games", json={"white": "W", "black": "B", "time_control": "600+5",
                                              "when_ready": False}).json()
            games.append(g)
            secrets.extend(g["tokens"].values())
        for g in games:
            gid, tok = g["id"], g["tokens"]
            url = f"wss://{addr}/api/games/{gid}/ws?moves=new&lang=en"  # as the game page opens it
            with wsc.connect(url, ssl=tls, subprotocols=["chesslaws", f"chesslaws.token.{tok['white']}"]) as white, \
                    wsc.connect(url, ssl=tls, subprotocols=["chesslaws", f"chesslaws.token.{tok['black']}"]) as black:
                assert _recv_until(white, "hello")["seat"] == "white"
                assert _recv_until(black, "hello")["seat"] == "black"
                white.send(json.dumps({"rid": 1, "event": {"type": "move", "move": "e4"}}))
                assert _recv_until(white, "ack")["seq"] == 1
                r = http.post(f"/api/games/{gid}/events", json={"type": "move", "move": "e5"},
                              headers={"Authorization": f"Bearer {tok['black']}"})
                assert r.status_code == 200, r.text
                assert http.get(f"/api/games/{gid}").json()["ply"] == 2
            old = f"wss://{addr}/api/games/{gid}/ws?token={tok['arbiter']}"  # a client of before: not logged either
            with wsc.connect(old, ssl=tls) as ws:
                assert _recv_until(ws, "hello")["seat"] == "arbiter"
        # One process dies: its games go on through the other (the page connects again), and nginx's error
        # log names the requests that found it gone.
        served = [ln.rsplit(" ", 1)[1] for ln in nginx.log("access.log").splitlines() if f"/{games[0]['id']}" in ln]
        next(s for s in servers if served[0].endswith(f":{s.port}")).kill()  # the process of the first game
        for g in games:
            gid, tok = g["id"], g["tokens"]
            url = f"wss://{addr}/api/games/{gid}/ws?moves=new"
            deadline = time.monotonic() + 15
            while True:
                try:
                    with wsc.connect(url, ssl=tls, subprotocols=["chesslaws", f"chesslaws.token.{tok['white']}"]) as ws:
                        _recv_until(ws, "hello")
                        ws.send(json.dumps({"rid": 2, "event": {"type": "move", "move": "Nf3"}}))
                        assert _recv_until(ws, "ack")["seq"] == 3
                        break
                except (OSError, wsc.InvalidStatus, wsc.InvalidHandshake):  # type: ignore[attr-defined]
                    assert time.monotonic() < deadline, "the game did not go on through the other process"
                    time.sleep(0.2)
    access, errors = nginx.log("access.log"), nginx.log("error.log") + nginx.log("main-error.log")
    for g in games:  # every request about a game went to one process (the killed one's, after it, to the other)
        upstreams = [ln.rsplit(" ", 1)[1] for ln in access.splitlines() if f"/{g['id']}" in ln]
        first = upstreams[0]
        assert len(upstreams) >= 4 and all(u == first for u in upstreams[:4]), upstreams
    assert "connect() failed" in errors, errors[-3000:]  # the dead process's requests are in the error log
    for secret in secrets:
        assert secret not in access and secret not in errors, "a seat token is in nginx's logs"
