"""The database under the game and tournament repositories: SQLite or PostgreSQL, one API for both.

A :class:`Database` is opened from a URL (:func:`open_database`): a SQLite file path (or ``file:`` URI, or
``sqlite:///PATH``) or a ``postgresql://`` URL. Its repositories write SQL once, with ``?`` as the parameter
mark, and run it through a :class:`Session`: one transaction at a time, committed if the function given returns
and rolled back if it raises (:meth:`Session.run`), or one statement on its own (:meth:`Session.query`). The
cursor a transaction is given (:class:`Tx`) also speaks each dialect's few differences: announcing a change to
the other processes of a shared database (:meth:`Tx.notify`), a row lock, a table's columns, a lock while the
schema is created.

SQLite: one connection (WAL, ``synchronous=FULL``: a commit is on disk when it returns; foreign keys on),
in autocommit mode, each transaction begun explicitly (``BEGIN IMMEDIATE`` for a write); every session shares
the connection and its lock. A server's database takes an exclusive lock on its file (``exclusive``), so that
a second server cannot open it.

PostgreSQL (psycopg 3): each session has one connection of its own (:class:`PostgresSession`), so the game
store's thread always has one while the tournament store uses another. A connection broken by a database
restart or a failover is discarded and a new one made by the next call, with no back-off: the first call after
the database returns is served; while none can be made, every call fails at once (refused) or within
``timeout`` seconds (a host that does not answer) instead of hanging. Changes are
announced on the channel ``chesslaws`` (``NOTIFY``, delivered when the transaction commits) and heard with
:meth:`Database.listen`.

Errors: a write the database refuses (a duplicate key, a missing row it refers to) raises :class:`StoreError`;
whether any other error means the database cannot be reached (an outage) rather than a fault of one request
is :func:`is_outage`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from typing import Any, Callable, Iterable, Literal, Sequence, TypeVar
from urllib.parse import parse_qs, unquote


T = TypeVar("T")

Dialect = Literal["sqlite", "postgresql"]

#: The channel on which a shared database announces changes (see :meth:`Tx.notify`).
CHANNEL = "chesslaws"


class StoreError(Exception):
    """The database refused a write (e.g. a duplicate key, or a row referring to none)."""


class StoreLocked(Exception):
    """Another ``chesslaws serve`` has this SQLite file open."""


def is_outage(err: BaseException) -> bool:
    """Whether an error of a database call means the database cannot be reached (connection, disk, lock,
    pool), rather than a fault of the one request."""
    if isinstance(err, (OSError, TimeoutError)):
        return True
    if isinstance(err, sqlite3.OperationalError):  # also raised for SQL errors, which are no outage
        text = str(err).lower()
        return any(w in text for w in ("locked", "disk", "i/o", "unable to open", "readonly", "full", "busy"))
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    if isinstance(err, psycopg.errors.ReadOnlySqlTransaction):  # a standby: the primary is elsewhere (failover)
        return True
    return isinstance(err, (psycopg.OperationalError, psycopg.InterfaceError))


class Tx:
    """The cursor of one transaction: SQL written with ``?`` marks, run in the database's dialect."""

    __slots__ = ("cursor", "dialect")

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self.cursor = cursor
        self.dialect: Dialect = dialect

    @property
    def pg(self) -> bool:
        return self.dialect == "postgresql"

    def sql(self, text: str) -> str:
        """``text`` with the dialect's parameter mark."""
        return text.replace("?", "%s") if self.dialect == "postgresql" else text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Tx:
        if params:
            self.cursor.execute(self.sql(sql), params)
        else:
            self.cursor.execute(sql)
        return self

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.cursor.executemany(self.sql(sql), rows)

    def fetchone(self) -> tuple[Any, ...] | None:
        row = self.cursor.fetchone()
        return None if row is None else tuple(row)

    def fetchall(self) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.cursor.fetchall()]

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Runs one statement and answers the rows it gives (none for a statement that gives none)."""
        self.execute(sql, params)
        return self.fetchall() if self.cursor.description else []

    @property
    def rowcount(self) -> int:
        return int(self.cursor.rowcount)

    def notify(self, key: str, what: str) -> None:
        """Tells the other processes of a shared database, once this transaction commits, that ``key`` changed
        (``what`` says how: ``callback(key, what)`` of their :meth:`Database.listen`); nothing on SQLite."""
        self.notify_many([(key, what)])

    def notify_many(self, changes: Iterable[tuple[str, str]]) -> None:
        if self.dialect == "postgresql":
            payloads = [(f"{k} {w}",) for k, w in changes]
            if payloads:
                self.cursor.executemany(f"SELECT pg_notify('{CHANNEL}', %s)", payloads)

    def lock_schema(self, key: int) -> None:
        """Makes a second process creating the same tables wait for this transaction (PostgreSQL; a SQLite
        write transaction already excludes every other writer)."""
        if self.dialect == "postgresql":
            self.cursor.execute("SELECT pg_advisory_xact_lock(%s)", (key,))

    def columns(self, table: str) -> set[str]:
        """The columns ``table`` has now."""
        if self.dialect == "postgresql":
            self.cursor.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                                "AND table_schema = current_schema()", (table,))
            return {str(r[0]) for r in self.cursor.fetchall()}
        self.cursor.execute(f"PRAGMA table_info({table})")
        return {str(r[1]) for r in self.cursor.fetchall()}

    def for_update(self, of: str) -> str:
        """The clause that locks the rows a SELECT reads (of the table named ``of``) until the transaction
        ends: PostgreSQL's ``FOR UPDATE OF``; none on SQLite, where a write transaction holds the database."""
        return f" FOR UPDATE OF {of}" if self.dialect == "postgresql" else ""


class Session:
    """Transactions on a database, one at a time (its lock held for each)."""

    def __init__(self, db: Database, lock: threading.Lock) -> None:
        self.db = db
        self.lock = lock

    def run(self, fn: Callable[[Tx], T], *, write: bool = True) -> T:
        """``fn(tx)`` in one transaction: committed if it returns, rolled back if it raises (a refused write
        as :class:`StoreError`). ``write=False``: ``fn`` only reads (on SQLite its statements run without
        taking the database's write lock)."""
        with self.lock:
            return self.db.transaction(fn, write)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Runs one statement in a transaction of its own; answers the rows it gives, if any."""
        with self.lock:
            return self.db.statement(sql, params)

    def write_alone(self, sql: str, params: tuple[Any, ...]) -> int:
        """Runs one write statement as a transaction of its own (on PostgreSQL without BEGIN and COMMIT: one
        round trip); answers how many rows it wrote (a refused write: :class:`StoreError`)."""
        return self.run(lambda tx: tx.execute(sql, params).rowcount)


class Database(ABC):
    """A SQLite file or a PostgreSQL database (see the module's description)."""

    url: str
    dialect: Dialect
    #: Whether other processes may write to this database at the same time (PostgreSQL): then every change
    #: is announced (:meth:`Tx.notify`) and heard (:meth:`listen`).
    shared: bool = False
    #: The server process that writes through this database, in what it announces (shared databases; on
    #: PostgreSQL each connection's setting ``chesslaws.origin``, read by the store's trigger).
    origin: str = ""

    @abstractmethod
    def session(self) -> Session:
        """A new session: its transactions one at a time."""

    @abstractmethod
    def transaction(self, fn: Callable[[Tx], T], write: bool) -> T:
        """``fn(tx)`` in one transaction (see :meth:`Session.run`); called with the session's lock held."""

    def statement(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """One statement in a transaction of its own (see :meth:`Session.query`); called with the session's
        lock held."""
        return self.transaction(lambda tx: tx.rows(sql, params), True)

    def listen(self, callback: Callable[[str | None, str], object]) -> Listener:
        """Calls ``callback(key, what)`` (from a thread of its own) for every change another process announces
        (:meth:`Tx.notify`), and ``callback(None, "listening")`` each time it starts listening (anything
        announced while it was not: catch up). Only shared databases announce changes."""
        raise NotImplementedError(f"a {self.dialect} database announces no changes")

    @abstractmethod
    def close(self) -> None:
        """Closes the connections (and releases the file's lock)."""


class SQLiteDatabase(Database):
    """A SQLite file in WAL mode with ``synchronous=FULL``: a commit is on disk when it returns."""

    dialect: Dialect = "sqlite"

    def __init__(self, path: str, *, exclusive: bool = False) -> None:
        """``exclusive``: takes the lock that keeps a second server off the file (:class:`StoreLocked`)."""
        self.url = path
        self._lock = threading.Lock()
        self._lockfile = lock_file(path) if exclusive else None
        try:
            self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=FULL")
            self.connection.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            if self._lockfile is not None:
                self._lockfile.close()
            raise

    def session(self) -> Session:
        return Session(self, self._lock)  # one connection: every session takes its turn on it

    def transaction(self, fn: Callable[[Tx], T], write: bool) -> T:
        db = self.connection
        cur = db.cursor()
        try:
            if not write:  # each statement its own (WAL: it reads the last commit, and blocks no writer)
                return fn(Tx(cur, "sqlite"))
            db.execute("BEGIN IMMEDIATE")
            try:
                out = fn(Tx(cur, "sqlite"))
                db.execute("COMMIT")
                return out
            except sqlite3.IntegrityError as err:
                rollback(db)
                raise StoreError(str(err)) from None
            except BaseException:
                rollback(db)
                raise
        finally:
            cur.close()

    def statement(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:  # autocommit: one statement is one transaction
            return [tuple(r) for r in self.connection.execute(sql, params).fetchall()]
        except sqlite3.IntegrityError as err:
            raise StoreError(str(err)) from None

    def close(self) -> None:
        with self._lock:
            self.connection.close()
            if self._lockfile is not None:
                self._lockfile.close()  # closing the file releases the lock


def rollback(db: sqlite3.Connection) -> None:
    """Rolls back the open transaction, if SQLite has not already done so itself (it does on some
    errors, a full disk among them): the error that caused it is the one to report, not "cannot
    rollback" (which hid a full disk, an outage, behind a fault of the request)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass


class PostgresDatabase(Database):
    """PostgreSQL through psycopg 3 (see the module's description)."""

    dialect: Dialect = "postgresql"
    shared = True

    def __init__(self, url: str, *, timeout: float = 3.0, name: str = "chesslaws") -> None:
        import psycopg  # (imported only by a server that uses PostgreSQL)

        self.url = url
        self.name = name
        self.timeout = max(2, round(timeout))  # libpq's connect_timeout: whole seconds, at least 2
        # Fail at once (with the server's reason) if the database is not there at startup.
        psycopg.connect(url, connect_timeout=10).close()
        self._refused = (psycopg.errors.UniqueViolation, psycopg.errors.ForeignKeyViolation)
        self._sessions: list[PostgresSession] = []

    def session(self) -> Session:
        session = PostgresSession(self)
        self._sessions.append(session)
        return session

    def transaction(self, fn: Callable[[Tx], T], write: bool) -> T:
        session = PostgresSession(self)
        try:
            return session.run(fn, write=write)
        finally:
            session.close()

    def listen(self, callback: Callable[[str | None, str], object]) -> Listener:
        return Listener(self.url, callback)

    def close(self) -> None:
        for session in self._sessions:
            session.close()


class PostgresSession(Session):
    """A session on PostgreSQL: one connection of its own, made when first needed and made again as soon as a
    call finds it gone (a restart, a failover): no back-off, so that the first call after the database returns
    is served. A connection idle for ``CHECK_IDLE`` seconds is asked whether it still works before it is used
    (a restart meanwhile would otherwise fail the first transaction after it)."""

    #: Seconds of idleness after which a connection is checked before use.
    CHECK_IDLE = 1.0

    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(db, threading.Lock())
        self.pg = db
        self._conn: Any = None
        self._used = 0.0
        self._origin: str | None = None  # the origin set on the connection

    def _connection(self) -> Any:
        import psycopg

        conn = self._conn
        if conn is not None and (conn.closed or conn.broken):
            self._drop()
            conn = None
        if conn is not None and time.monotonic() - self._used > self.CHECK_IDLE:
            try:
                conn.execute("SELECT 1")
                conn.rollback()
            except psycopg.Error:
                self._drop()
                conn = None
        if conn is None:
            conn = self._conn = psycopg.connect(self.pg.url, autocommit=False, connect_timeout=self.pg.timeout,
                                                application_name=self.pg.name)
            self._origin = None
        if self._origin != self.pg.origin:
            conn.execute("SELECT set_config('chesslaws.origin', %s, false)", (self.pg.origin,))
            conn.commit()
            self._origin = self.pg.origin
        return conn

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - already gone
                pass

    def run(self, fn: Callable[[Tx], T], *, write: bool = True) -> T:
        with self.lock:
            db = self._connection()
            try:
                with db.cursor() as cur:
                    out = fn(Tx(cur, "postgresql"))
                db.commit()
            except self.pg._refused as err:
                db.rollback()
                raise StoreError(str(err)) from None
            except BaseException:
                try:
                    db.rollback()
                except Exception:  # noqa: BLE001 - the connection is lost: made again on the next call
                    self._drop()
                if db.broken or db.closed:
                    self._drop()
                raise
            finally:
                self._used = time.monotonic()
            return out

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.run(lambda tx: tx.rows(sql, params))

    def write_alone(self, sql: str, params: tuple[Any, ...]) -> int:
        with self.lock:
            db = self._connection()
            db.autocommit = True  # (the connection is idle between transactions)
            try:
                with db.cursor() as cur:
                    cur.execute(sql.replace("?", "%s"), params)
                    return int(cur.rowcount)
            except self.pg._refused as err:
                raise StoreError(str(err)) from None
            except BaseException:
                if db.broken or db.closed:
                    self._drop()
                raise
            finally:
                if self._conn is db and not db.closed:
                    db.autocommit = False
                self._used = time.monotonic()

    def close(self) -> None:
        with self.lock:
            self._drop()


class Listener:
    """LISTEN on the channel on a connection of its own, in a thread; reconnects after an outage."""

    def __init__(self, url: str, callback: Callable[[str | None, str], object]) -> None:
        self.url = url
        self.callback = callback
        self._stop = threading.Event()
        self._conn: Any = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="chesslaws-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=3) as conn:
                    self._conn = conn
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    self.callback(None, "listening")  # anything missed while not listening: catch up
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            key, _, what = note.payload.partition(" ")
                            self.callback(key, what)
            except Exception:  # noqa: BLE001 - the database went away: listen again when it is back
                self._conn = None
                self._stop.wait(0.5)

    def close(self) -> None:
        self._stop.set()
        self.thread.join(5)


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_database(url: str, *, exclusive: bool = False, name: str = "chesslaws") -> Database:
    """The database of ``url``: ``postgresql://...`` (or ``postgres://``; ``name`` names its pool) or a SQLite
    file (a path, a ``file:`` URI or ``sqlite:///PATH``; ``exclusive``: one server's, see
    :class:`SQLiteDatabase`)."""
    if is_postgres(url):
        return PostgresDatabase(url, name=name)
    return SQLiteDatabase(sqlite_path(url), exclusive=exclusive)


def sqlite_path(url: str) -> str:
    """The SQLite name in ``url``: ``sqlite:///PATH`` is PATH; anything else is the name itself."""
    return url[len("sqlite:///"):] if url.startswith("sqlite:///") else url


def sqlite_file(name: str) -> str | None:
    """The file a SQLite name opens (None for an in-memory database), as SQLite reads it: a plain path,
    or a ``file:`` URI (``file:PATH``, ``file:///PATH``, ``file://localhost/PATH``; percent-escapes
    decoded; the query string, e.g. ``?mode=rwc&cache=shared``, and a fragment left out; ``mode=memory``
    or ``:memory:`` is in memory). So that every name of one file leads to the one lock on it."""
    if name in ("", ":memory:"):
        return None
    if not name.startswith("file:"):
        return name
    rest = name[len("file:"):].split("#", 1)[0]
    rest, _, query = rest.partition("?")
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if authority not in ("", "localhost"):
            raise StoreError(f"{name}: a file: URI names a file on this machine (authority '' or localhost, "
                             f"not {authority!r})")
        rest = slash + path
    path = unquote(rest)
    if path in ("", ":memory:") or "memory" in parse_qs(query).get("mode", []):
        return None
    return path


def lock_file(path: str) -> Any:
    """Takes the lock that keeps a second server off this SQLite file: an exclusive ``flock`` on the
    database file itself, held while the returned file is open (the operating system releases it if the
    process dies). The lock belongs to the file (its device and inode), not to the name it was opened by: a
    symbolic or hard link to the same file finds it taken. (SQLite's own locks are ``fcntl`` locks,
    independent of this one.)"""
    import fcntl  # (POSIX only: imported where a server opens its file)

    target = sqlite_file(path)
    if target is None:
        return open(os.devnull, "rb")  # an in-memory database: nothing to share
    handle = open(target, "a+b")  # noqa: SIM115 - held until close(); creates the file (an empty database)
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        st = os.fstat(handle.fileno())
        handle.close()
        raise StoreLocked(f"{path} is in use by another chesslaws serve (the same file, device {st.st_dev} "
                          f"inode {st.st_ino}, perhaps under another name): one SQLite file serves one "
                          "server process (use PostgreSQL for several)") from None
    return handle


__all__ = ["CHANNEL", "Database", "Dialect", "Listener", "PostgresDatabase", "PostgresSession", "SQLiteDatabase",
           "Session",
           "StoreError", "StoreLocked", "Tx", "is_outage", "is_postgres", "lock_file",
           "open_database", "rollback", "sqlite_file", "sqlite_path"]
