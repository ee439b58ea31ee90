"""Fixtures of the server tests: stores on SQLite and on a real PostgreSQL server, apps, live servers.

PostgreSQL: the URL in ``CHESSLAWS_TEST_PG`` if set (a database the tests may
create databases in), else a throwaway cluster started here with Debian's
binaries (``/usr/lib/postgresql/*/bin``) on a free loopback port, as user
``postgres`` when running as root. Tests skip only if those binaries are missing.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from chesslaws.server.guard import UNLIMITED

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0, proc: subprocess.Popen[Any] | None = None) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        with contextlib.suppress(OSError):
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


# --- PostgreSQL ------------------------------------------------------------------------------


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database (postgres)."""
    env_url = os.environ.get("CHESSLAWS_TEST_PG")
    if env_url:
        yield env_url
        return
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries not installed (apt-get install postgresql)")
    root = tempfile.mkdtemp(prefix="chesslaws-pg-")
    data = os.path.join(root, "data")
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(root, pw.pw_uid, pw.pw_gid)
    os.chmod(root, 0o700)
    subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                                 "--no-sync", "-E", "UTF8"]), check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    log = os.path.join(root, "log")
    subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", data, "-l", log, "-w", "-o",
                                 f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=60 "
                                 "-c fsync=off -c full_page_writes=off",
                                 "start"]), check=True, stdout=subprocess.DEVNULL)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", data, "-m", "immediate", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(root, ignore_errors=True)


class PgCluster:
    """A throwaway PostgreSQL cluster of one test's own, which the test may stop and start again
    (on the same port) to play a database outage."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = tempfile.mkdtemp(prefix="chesslaws-pg-own-")
        self.data = os.path.join(self.root, "data")
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        os.chmod(self.root, 0o700)
        subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres",
                                     "--no-sync", "-E", "UTF8"]), check=True, stdout=subprocess.DEVNULL)
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        subprocess.run(_as_postgres([str(self.bindir / "pg_ctl"), "-D", self.data, "-l",
                                     os.path.join(self.root, "log"), "-w", "-o",
                                     f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                                     "-c max_connections=40 -c fsync=off", "start"]),
                       check=True, stdout=subprocess.DEVNULL)

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(_as_postgres([str(self.bindir / "pg_ctl"), "-D", self.data, "-m", mode, "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def pg_cluster() -> Iterator[PgCluster]:
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries not installed (apt-get install postgresql)")
    cluster = PgCluster(bindir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh, empty database on the PostgreSQL server."""
    import psycopg

    name = "chesslaws_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_server, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")  # type: ignore[arg-type]
    base = pg_server.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with contextlib.suppress(Exception):
        with psycopg.connect(pg_server, autocommit=True) as db:
            db.execute(f"DROP DATABASE {name} WITH (FORCE)")  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store: a SQLite file, or a database on a real PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return str(request.getfixturevalue("pg_url"))


# --- apps --------------------------------------------------------------------------------------


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[[], Any]]:
    """Opens TestClients over the same store (each a fresh server process, in effect)."""
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    stack = contextlib.ExitStack()

    def make() -> Any:
        # The API tests send events faster than any person: the rate limits have their own tests.
        return stack.enter_context(TestClient(create_app(db_url, limits=UNLIMITED)))

    with stack:
        yield make


@pytest.fixture
def client(make_client: Callable[[], Any]) -> Any:
    return make_client()


class ServerProcess:
    """``chesslaws serve`` in a subprocess on a free loopback port."""

    def __init__(self, db: str, port: int | None = None, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.extra = extra
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "ServerProcess":
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "chesslaws.cli", "serve", "--port", str(self.port), "--db", self.db,
             *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        wait_port(self.port, proc=self.proc)
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def server_factory() -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def make(db: str, port: int | None = None, extra: tuple[str, ...] = ()) -> ServerProcess:
        s = ServerProcess(db, port, extra).start()
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


class ThreadServer:
    """uvicorn in a thread of this process, on a free port: the app with ``limits`` (none by default), and with
    ``connections``, the server's connection guard (:func:`chesslaws.server.guard.connection_guard`)."""

    def __init__(self, db: str, limits: Any = None, connections: Any = None) -> None:
        import uvicorn

        from chesslaws.webapp import create_app
        from chesslaws.server.guard import connection_guard

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        guard: dict[str, Any] = {} if connections is None else {"http": connection_guard(connections)}
        config = uvicorn.Config(create_app(db, limits=limits or UNLIMITED), host="127.0.0.1", port=self.port,
                                log_level="warning", ws_max_size=16 * 1024, **guard)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "ThreadServer":
        self.thread.start()
        wait_port(self.port)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A real server (uvicorn, in a thread) over a fresh SQLite file, for the module's tests."""
    with ThreadServer(str(tmp_path_factory.mktemp("live") / "games.sqlite3")) as s:
        yield s


@pytest.fixture
def live_server_db(db_url: str) -> Iterator[ThreadServer]:
    """A real server (uvicorn, in a thread) over a fresh SQLite file or PostgreSQL database."""
    with ThreadServer(db_url) as s:
        yield s


# --- the browser tests (Debian's chromium driven by Playwright) --------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def server(live_server: ThreadServer) -> ThreadServer:
    """The browser tests' server: the module's live server."""
    return live_server


#: The page's first WebSocket never opens and never closes (a handshake lost on the way, or held by something
#: between the page and the server); the ones after it are real. ``data-sockets`` counts those made.
FIRST_SOCKET_STUCK = """
(() => {
  const Real = window.WebSocket;
  let made = 0;
  class Stuck extends EventTarget {
    constructor(url) { super(); this.url = url; this.readyState = 0; this.protocol = ""; }
    send() { throw new DOMException("still connecting", "InvalidStateError"); }
    close() { this.readyState = 3; }
  }
  function Sockets(url, protocols) {
    made += 1;
    document.documentElement.dataset.sockets = String(made);
    return made === 1 ? new Stuck(url) : new Real(url, protocols);
  }
  Object.assign(Sockets, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Sockets;
})();
"""


#: How long a browser test waits for the state it checks before it fails (Playwright's default is 30 s). A new
#: page's first state takes well under a second; on a machine whose two cores are busy with another suite,
#: a new context's first page was seen to take longer than 30 s, so the ceiling is higher than that.
STATE_WAIT_MS = 90_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless chromium for the module's tests (sounds may play without a click); every page it opens waits
    up to STATE_WAIT_MS for a state."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
        make_context, make_page = b.new_context, b.new_page

        def new_context(*args: Any, **kwargs: Any) -> Any:
            ctx = make_context(*args, **kwargs)
            ctx.set_default_timeout(STATE_WAIT_MS)
            return ctx

        def new_page(*args: Any, **kwargs: Any) -> Any:
            page = make_page(*args, **kwargs)
            page.set_default_timeout(STATE_WAIT_MS)
            return page

        b.new_context, b.new_page = new_context, new_page
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $CHESSLAWS_SHOTS, to look at them, else the test's temporary folder."""
    where = os.environ.get("CHESSLAWS_SHOTS")
    d = Path(where) if where else tmp_path
    d.mkdir(parents=True, exist_ok=True)
    return d


def at_390(page: Any, shots: Path, name: str) -> None:
    """The page on a 390 px phone: no sideways scrolling, and a full-page screenshot ``NAME-390.png``.
    The viewport stays at 390 px (the caller sets it back if it goes on)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name} scrolls sideways at 390 px"
    page.screenshot(path=str(shots / f"{name}-390.png"), full_page=True)
