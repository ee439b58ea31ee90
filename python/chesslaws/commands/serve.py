"""``chesslaws serve``: the live server (:func:`chesslaws.webapp.run`) with its limits, its database and the
engines people can play against."""

from __future__ import annotations

import dataclasses
import errno
import socket
import sys

import click

from chesslaws.errors import ChessLawsError


def port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (another process holds it), or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        return f"the address {host!r} cannot be resolved ({err.strerror})"
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself does
        try:
            s.bind(addr)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                return f"port {port} is already in use on {host} (another server?)"
            return f"cannot listen on {host}:{port}: {err.strerror}"
    return None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL",
              help="SQLite file, or a postgresql:// URL: the game logs.")
@click.option("--no-rate-limits", is_flag=True,
              help="Turn the rate limits off (trusted networks, load tests). By default: 20 games created "
                   "per minute per address, 10 events per second and 300 per minute per seat token, 400 "
                   "events per minute per game.")
@click.option("--ws-compression", is_flag=True,
              help="Compress WebSocket messages (permessage-deflate): less traffic on slow links, more CPU; "
                   "off by default.")
@click.option("--engine", "engines", multiple=True, metavar="NAME=COMMAND",
              help="A UCI engine people can play against from the lobby (repeatable); "
                   "xboard:NAME=COMMAND for an xboard engine.")
@click.option("--engine-pool", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Engine processes running at most, for all games against engines.")
@click.option("--header-timeout", type=click.FloatRange(0.5, 300), default=10.0, show_default=True,
              metavar="SECONDS", help="A request's headers must arrive within this time, else the connection "
                                      "is closed (slow or half-open connections).")
@click.option("--keep-alive-timeout", type=click.FloatRange(1, 300), default=5.0, show_default=True,
              metavar="SECONDS", help="An idle kept-alive HTTP connection is closed after this time.")
@click.option("--body-timeout", type=click.FloatRange(1, 3600), default=20.0, show_default=True,
              metavar="SECONDS", help="A request's body must arrive within this time of its headers, else it is "
                                      "answered 408 and the connection closed (a body sent a byte at a time).")
@click.option("--max-connections-per-address", type=click.IntRange(0, 1_000_000), default=None, metavar="N",
              help="HTTP connections open at once from one address; the next is closed at once. Default 100 "
                   "(none with --no-rate-limits); 0: no limit; the proxies of --forwarded-allow-ips are not counted.")
@click.option("--max-sockets-per-address", type=click.IntRange(0, 1_000_000), default=None, metavar="N",
              help="WebSockets open at once from one client address; the next is refused (403). "
                   "Default 200 (none with --no-rate-limits); 0: no limit.")
@click.option("--forwarded-allow-ips", default="", metavar="IP,IP",
              help="The reverse proxies whose X-Forwarded-For (and X-Forwarded-Proto) are believed, by address, "
                   "comma-separated; '*' for any (only behind a proxy that cannot be bypassed). Default: none, "
                   "the peer's address is the client's.")
def serve(host: str, port: int, db: str, no_rate_limits: bool, ws_compression: bool, engines: tuple[str, ...],
          engine_pool: int, header_timeout: float, keep_alive_timeout: float, body_timeout: float,
          max_connections_per_address: int | None, max_sockets_per_address: int | None, forwarded_allow_ips: str) -> None:
    """Start the live game server: the lobby, the boards, the clocks and the arbiter.

    Every accepted event is committed to the database before it is
    acknowledged; on start every stored game is rebuilt from its log (a log
    that cannot be replayed is set aside, named on standard error, until its
    arbiter annuls it). If the database becomes unreachable, events are
    refused with 503 and the clocks are held; when it returns, the time that
    passed is given back and written in each log as an interruption.

    One SQLite file serves one server process (a second one exits with
    status 2); run several processes on PostgreSQL.

    Slow clients cannot hold the server: headers must arrive within
    --header-timeout and a body within --body-timeout, an address holds at most --max-connections-per-address
    connections and --max-sockets-per-address WebSockets. Behind a reverse
    proxy, name it with --forwarded-allow-ips so that limits apply to the
    clients' addresses, not to the proxy's.

    With --engine, the lobby offers "Play against the computer": the engine
    takes a seat and plays by the same clock and arbiter as a person.

    The tournaments of the same database (`chesslaws tournament`) run live
    here: `chesslaws tournament arbiter NAME --url http://HOST:PORT` prints
    the round console's link, from which the arbiter pairs each round into
    games and follows every board.

    \b
    Example:
      chesslaws serve --port 8000 --db ./chesslaws.sqlite3
      chesslaws serve --db postgresql://user@localhost/chesslaws
      chesslaws serve --engine stockfish=/usr/games/stockfish --engine-pool 2
    """
    if not engines and click.get_current_context().get_parameter_source("engine_pool") \
            == click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--engine-pool sizes the pool of each --engine: give --engine NAME=COMMAND")
    try:
        # The server's modules (FastAPI, uvicorn, the hub) load only when the server is run: `chesslaws --help`
        # lists this command without them, and a missing dependency is said in words.
        from chesslaws.server import open_store
        from chesslaws.server.engines import parse_engines
        from chesslaws.server.guard import UNLIMITED, ConnectionLimits, Limits
        from chesslaws.webapp import run
    except ImportError as err:
        click.echo(f"chesslaws serve: the server needs its dependencies ({err.name}): pip install chesslaws", err=True)
        sys.exit(2)
    taken = port_taken(host, port)
    if taken is not None:  # said before anything else, and nothing says "serving on"
        click.echo(f"chesslaws serve: {taken}; choose another with --port, e.g. --port {port + 1}", err=True)
        sys.exit(2)
    try:
        store = open_store(db)
    except Exception as err:  # the database cannot be opened
        click.echo(f"chesslaws serve: cannot open the database {db}: {err}", err=True)
        sys.exit(2)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"chesslaws: serving on http://{shown}:{port}/  (games in {db})")
    sys.stdout.flush()
    try:
        specs = parse_engines(engines)
    except ChessLawsError as err:
        click.echo(f"chesslaws serve: {err}", err=True)
        sys.exit(2)
    limits = UNLIMITED if no_rate_limits else Limits()
    if max_sockets_per_address is not None:
        limits = dataclasses.replace(limits, sockets_per_address=max_sockets_per_address or None)
    proxies = tuple(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    run(host=host, port=port, db=store, limits=limits, compress=ws_compression, engines=specs,
        engine_pool=engine_pool, forwarded_allow_ips=proxies,
        connections=ConnectionLimits(header_timeout, keep_alive_timeout,
                                     (None if no_rate_limits else 100) if max_connections_per_address is None
                                     else max_connections_per_address or None, body_timeout))
