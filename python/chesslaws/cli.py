"""The ``chesslaws`` command."""

from __future__ import annotations

import sys

import click

from typing import TYPE_CHECKING, NoReturn

from chesslaws.errors import ChessLawsError, InvalidFen, InvalidInput
from chesslaws.position import STARTING_FEN, Position, perft, perft_divide

class _LazyGroup(click.Group):
    """Commands whose modules load only when they are run (or listed in --help): ``chesslaws check``
    starts without importing the arbiter, the engine matches or the tournaments."""

    LAZY = {"match": "chesslaws.match:match_command", "tournament": "chesslaws.tournament.cli:tournament"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY:
            import importlib

            module, _, name = self.LAZY[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), name)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chesslaws")
def main() -> None:
    """chesslaws: the Laws of Chess, executable.

    Plays games live, arbitrates games from their event log and checks
    recorded games, under the 1989, 1997 and 2023 editions of the FIDE Laws.
    Run `chesslaws COMMAND --help` for each command.
    """


@main.command(name="perft")
@click.argument("fen", required=False, metavar="[FEN]")
@click.argument("depth", required=False, metavar="DEPTH")
@click.option("--divide", is_flag=True, help="First print the count below each legal move (UCI: count).")
@click.option("--threads", type=click.IntRange(1, 256), default=None, help="Threads to use (default: all cores).")
@click.option(
    "--chess960",
    is_flag=True,
    help="Chess960 castling (2023 Guidelines II). FEN may then use X-FEN or Shredder-FEN "
    "castling letters, or be `960:N` for starting position N (0-959, 518 = standard).",
)
def perft_command(fen: str | None, depth: str | None, divide: bool, threads: int | None, chess960: bool) -> None:
    """Count the leaf nodes of the legal move tree to DEPTH plies.

    FEN is a position in Forsyth-Edwards Notation (quote it), or `startpos`
    (the default: `chesslaws perft 5` counts from the starting position).
    The count is printed on the last line; the move generator is tested this
    way against published counts. With --chess960, castling moves are the
    king taking its own rook in --divide's UCI (`e1h1`).

    \b
    Examples:
      chesslaws perft 5                     -> 4865609
      chesslaws perft "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 3 --divide
      chesslaws perft --chess960 "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9" 4
                                            -> 326672 (Shredder-FEN; X-FEN `KQkq` reads the same)
      chesslaws perft --chess960 960:0 4    -> 201143 (starting position 0, BBQNNRKR)
    """
    if fen is None:
        raise click.UsageError("missing DEPTH, e.g. chesslaws perft 4")
    if depth is None:  # `chesslaws perft 5`: the depth alone, from the starting position
        if not fen.strip().isdigit():
            raise click.UsageError(f"missing DEPTH after the position {fen!r}, e.g. chesslaws perft {fen!r} 4"
                                   if " " in fen or "/" in fen else "missing DEPTH, e.g. chesslaws perft 4")
        fen, depth = "startpos", fen
    if not depth.strip().isdigit() or int(depth) > 20:
        raise click.BadParameter(f"{depth!r}: a number of plies from 0 to 20", param_hint="DEPTH")
    plies = int(depth)
    if not chess960 and fen.startswith("960:"):
        raise click.BadParameter(f"{fen!r} names a Chess960 starting position: add --chess960 "
                                 f"(chesslaws perft --chess960 {fen} {plies})", param_hint="FEN")
    try:
        if chess960 and fen.startswith("960:"):
            try:
                number = int(fen[4:])
            except ValueError:
                raise click.BadParameter(
                    f"{fen!r}: write a Chess960 starting position as 960:N, N from 0 to 959", param_hint="FEN"
                ) from None
            position = Position.chess960_start(number)
        elif fen == "startpos":
            position = Position(None, chess960=chess960)
        else:
            position = Position(fen, chess960=chess960)
    except InvalidFen as err:
        hint = ""
        if not chess960 and err.field == "castling":
            try:
                Position(fen, chess960=True)
                hint = " (these castling rights are Chess960's: add --chess960)"
            except InvalidFen:
                pass
        raise click.BadParameter(str(err) + hint, param_hint="FEN") from None
    except InvalidInput as err:
        raise click.BadParameter(str(err), param_hint="FEN") from None
    if divide:
        rows = perft_divide(position, plies, threads)
        for uci, n in rows:
            click.echo(f"{uci}: {n}")
        click.echo()
        click.echo(sum(n for _, n in rows) if plies > 0 else 1)
    else:
        click.echo(perft(position, plies, threads))


def _not_text(path: str) -> str | None:
    """What the file at ``path`` is when it is no text the readers read (UTF-8, or Latin-1, plain, .gz or .zst):
    "UTF-16 text", "a binary file"..., judged on its first bytes (after gzip or zstd). None when it may be
    text, or cannot be opened (the reader then says why)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
            if head.startswith(b"\x1f\x8b"):
                import gzip

                fh.seek(0)
                head = gzip.GzipFile(fileobj=fh).read(4096)
            elif head.startswith(b"\x28\xb5\x2f\xfd"):
                try:
                    import zstandard  # type: ignore[import-not-found,unused-ignore]
                except ImportError:
                    return None
                fh.seek(0)
                head = zstandard.ZstdDecompressor().stream_reader(fh).read(4096)
    except (OSError, EOFError, ValueError):
        return None
    from chesslaws._core import not_text

    return not_text(head)


def _not_text_error(command: str, path: str, what: str, wanted: str) -> NoReturn:
    """Exit 2 naming the file and what it is."""
    if what.startswith("UTF-"):
        import os

        fix = "; save it as UTF-8"
        if not path.endswith((".gz", ".zst")) and path != "standard input":
            fix += f" (iconv -f {what.split()[0]} -t UTF-8 {path} > utf8-{os.path.basename(path)})"
    elif what.endswith("-compressed") or "archive" in what:
        fix = "; decompress it first (chesslaws reads plain, .gz and .zst files)"
    else:
        fix = ""
    click.echo(f"chesslaws {command}: {path} is {what}, not {wanted}{fix}", err=True)
    sys.exit(2)


def _pgn_stem(path: str) -> str:
    """The NAME of convert's NAME-N.jsonl for the PGN file ``path``."""
    import os

    base = os.path.basename(path)
    for ext in (".gz", ".zst"):
        base = base[: -len(ext)] if base.endswith(ext) else base
    return os.path.splitext(base)[0]


def _looks_like_pgn(path: str) -> bool:
    """A PGN file by its name (.pgn, .pgn.gz, .pgn.zst) or its first text (a tag pair, a move number)."""
    import re

    if path.lower().endswith((".pgn", ".pgn.gz", ".pgn.zst")):
        return True
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("latin-1").lstrip("\ufeff\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return re.match(r'\[\s*[A-Za-z0-9_]+\s+"|1\.\s*[a-hNBRQKO]', head) is not None


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON, exactly as the game-log spec shows it.")
@click.option("--pgn", "as_pgn", is_flag=True, help="Print the game in PGN, with clocks, draw offers and rulings.")
@click.option("--at", "at", type=float, default=None, metavar="T",
              help="Show the state at T seconds after the scheduled start (clocks run on; an arbiter present sees flag falls).")
def replay(log: str, as_json: bool, as_pgn: bool, at: float | None) -> None:
    """Replay the game log LOG (JSON Lines) under its edition of the Laws.

    LOG is a log as `chesslaws serve` gives it (GET /api/games/ID/log) or
    `chesslaws convert` writes it from a PGN file ('-' for standard input);
    a PGN file is not a log: convert it first.

    Prints the position, the clocks, the moves and every ruling with its
    article. With --json, prints the state as in docs/game-log.md. A log
    that cannot be replayed gives its line number and the reason, and exit
    status 2.

    \b
    Example:
      chesslaws replay game.jsonl --json --at 5401
    """
    import json as _json

    from chesslaws.game import Game, read_log

    if as_json and as_pgn:
        raise click.UsageError("--json and --pgn print the game in two ways: give one of them")

    import os
    import tempfile

    stdin_copy = None
    try:
        if log == "-":  # standard input, as a file: read once, checked as a file is, then removed
            with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as fh:
                fh.write(sys.stdin.buffer.read())
                stdin_copy = path = fh.name
        else:
            path = log
        what = _not_text(path)
        if what is not None:
            _not_text_error("replay", "standard input" if log == "-" else log, what, "a game log (UTF-8 JSON Lines)")
        game = Game.from_events(read_log(path))
        if at is not None:
            game = game.at(at)
    except OSError as err:
        click.echo(f"chesslaws replay: cannot read {log}: {err.strerror}", err=True)
        sys.exit(2)
    except ChessLawsError as err:
        if _looks_like_pgn(path):
            if log == "-":
                click.echo("chesslaws replay: standard input is PGN, not a game log; save it to a file and convert "
                           "it to game logs first:\n  chesslaws convert FILE.pgn --out logs/", err=True)
            else:
                click.echo(f"chesslaws replay: {log} is a PGN file, not a game log; convert it to game logs first:\n"
                           f"  chesslaws convert {log} --out logs/\n"
                           f"  chesslaws replay logs/{_pgn_stem(log)}-1.jsonl", err=True)
            sys.exit(2)
        click.echo(f"chesslaws replay: {log}: {err}", err=True)
        sys.exit(2)
    finally:
        if stdin_copy is not None:
            os.unlink(stdin_copy)
    if as_pgn:
        from chesslaws.records import game_to_pgn

        click.echo(game_to_pgn(game), nl=False)
    elif as_json:
        click.echo(_json.dumps(game.to_json(), indent=1, ensure_ascii=False))
    else:
        from chesslaws.summary import game_summary

        click.echo(game_summary(game))


@main.command()
@click.argument("pgn", type=click.Path(exists=True, dir_okay=False, allow_dash=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=".", show_default=True,
              help="Folder for the logs (created if missing).")
@click.option("--edition", type=click.Choice(["1989", "1997", "2023"]), default=None,
              help="The Laws the logs are to be replayed under (default: a PGN chesslaws wrote keeps its "
                   "Laws tag; otherwise 2023).")
@click.option("--report", is_flag=True,
              help="Print, for every game, what had to be inferred or corrected, and why a record is "
                   "inconsistent.")
@click.option("--seconds-per-move", type=click.FloatRange(0, 86400), default=1.0, show_default=True,
              help="Thinking time given to each move where the record has no clock times.")
def convert(pgn: str, out_dir: str, edition: str | None, report: bool, seconds_per_move: float) -> None:
    """Convert the games of a PGN file into game logs (JSON Lines), as the Laws would have written them.

    Writes one log per game, NAME-N.jsonl, N being the game's number in the
    file (plain, .gz or .zst). Every move is played through the arbiter:

    \b
    - times come from [%clk] (or TCEC tl=), [%emt] (or TCEC mt=, cutechess
      "2.1s") and the TimeControl tag; a clock that no time control explains
      (a bonus, time odds, a berserk start) is written as the arbiter's
      set_clocks, never smoothed over;
    - the ending is read from the moves, the Termination tag and the last
      comment (chesslaws/data/terminations.tsv): a time forfeit becomes the
      winner's flag claim after the flag fell (with no TimeControl, on a
      nominal clock of standard play: the flag rule asks only for the
      position), a repetition or fifty-move
      draw the claim of the player to move, other draws an agreement, a win
      by adjudication or a rules infraction the arbiter's decision, other
      wins a resignation; after a mate, stalemate or dead position nothing
      is written, and moves recorded after it are left out;
    - the tags chesslaws writes (replay --pgn) are read back: Arbiter,
      Supervision, Clock, VisuallyDisabled, Assistant and HearingImpaired
      into start, WhiteSigned and BlackSigned as the signatures (sign),
      BoardResult for the ending when the signed result stood instead
      (2023 8.7). What a PGN cannot show (touches, presses, what is said or
      noted at the board, the arbiter's observations) is listed in
      docs/game-log.md, "In a PGN".

    A record that contradicts itself or the Laws (moves after the end, a
    result the Laws do not give) is named on standard error with the
    reason; its log says what the Laws make of it. Games that cannot be read
    (illegal moves, another variant) are reported and skipped. Chess960 games
    (a Variant tag such as Chess960 or cutechess's fischerandom) convert under
    the 2023 Laws, the only edition with Chess960 (Guidelines II). Exit status 0 when
    every game converted consistently, 1 otherwise, 2 for a file that is not
    PGN text (UTF-16, binary) or cannot be read.

    \b
    Examples:
      chesslaws convert games.pgn --out logs/ --edition 1997
      chesslaws convert lichess.pgn.zst --out logs/ --report
      chesslaws replay logs/games-1.jsonl
    """
    import json as _json
    import os
    import time

    from chesslaws.atomic import OutputError, write_text
    from chesslaws.pgn import PgnGame, read_pgn
    from chesslaws.records import convertible, pgn_to_log

    what = _not_text(pgn)
    if what is not None:
        _not_text_error("convert", pgn, what, "PGN text")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as failed_dir:
        click.echo(f"chesslaws convert: cannot make the folder {out_dir}: {failed_dir.strerror}", err=True)
        sys.exit(2)
    stem = _pgn_stem(pgn)
    written = failed = inconsistent = 0
    show_progress = sys.stderr.isatty()
    last_progress = time.monotonic()
    for g in read_pgn(pgn):  # plain, .gz or .zst: the core reads them all
        if isinstance(g, PgnGame) and not convertible(g):
            failed += 1
            for err in g.errors:
                click.echo(f"{pgn}: {err}", err=True)
            if report:
                click.echo(f"game {g.number} (line {g.line}): not converted: {g.errors[0].reason}")
            continue
        if g.chess960 and edition not in (None, "2023"):
            failed += 1
            why = (f"a Chess960 game: Chess960 is in the 2023 Laws only (Guidelines II), not the {edition} Laws; "
                   "convert it with --edition 2023")
            click.echo(f"{pgn}: game {g.number} (line {g.line}): {why}", err=True)
            if report:
                click.echo(f"game {g.number} (line {g.line}): not converted: {why}")
            continue
        item = pgn_to_log(g, edition=edition, seconds_per_move=seconds_per_move)
        path = os.path.join(out_dir, f"{stem}-{item.number}.jsonl")
        try:  # whole or not there: a temporary file beside it, renamed when complete
            write_text(path, "".join(_json.dumps(ev, ensure_ascii=False) + "\n" for ev in item.events),
                       inputs=(pgn,))
        except OutputError as failure:
            click.echo(f"chesslaws convert: {failure}; {written} game log{'s' if written != 1 else ''} written "
                       f"to {out_dir} before it", err=True)
            sys.exit(2)
        written += 1
        who = f"game {item.number} (line {item.line}, {item.white} v {item.black}, {item.recorded_result})"
        if item.problems:
            inconsistent += 1
            for problem in item.problems:
                click.echo(f"{pgn}: {who}: inconsistent: {problem}", err=True)
        if report:
            click.echo(f"{who} -> {path}")
            for note in item.notes:
                click.echo(f"  inferred: {note}")
            for problem in item.problems:
                click.echo(f"  inconsistent: {problem}")
            if not item.notes and not item.problems:
                click.echo("  as recorded: nothing inferred")
        if show_progress and time.monotonic() - last_progress > 1:
            last_progress = time.monotonic()
            click.echo(f"\r{written + failed} games...", err=True, nl=False)
    if show_progress and written + failed:
        click.echo("\r", err=True, nl=False)
    if written + failed == 0:
        click.echo(f"chesslaws convert: no game in {pgn} (empty, or no PGN in it)", err=True)
    parts = [f"{written} game log{'s' if written != 1 else ''} written to {out_dir}"]
    if inconsistent:
        parts.append(f"{inconsistent} inconsistent record{'s' if inconsistent != 1 else ''}")
    if failed:
        parts.append(f"{failed} game{'s' if failed != 1 else ''} with errors skipped")
    click.echo("; ".join(parts))
    sys.exit(1 if failed or inconsistent else 0)


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (another process holds it), or None."""
    import errno
    import socket

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


@main.command()
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
        from chesslaws.server import open_store
        from chesslaws.webapp import run
    except ImportError as err:
        click.echo(f"chesslaws serve: the server needs its dependencies ({err.name}): pip install chesslaws", err=True)
        sys.exit(2)
    taken = _port_taken(host, port)
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
    from chesslaws.server.guard import UNLIMITED, Limits

    try:
        from chesslaws.server.engines import parse_engines

        specs = parse_engines(engines)
    except ChessLawsError as err:
        click.echo(f"chesslaws serve: {err}", err=True)
        sys.exit(2)
    import dataclasses

    from chesslaws.server.guard import ConnectionLimits

    limits = UNLIMITED if no_rate_limits else Limits()
    if max_sockets_per_address is not None:
        limits = dataclasses.replace(limits, sockets_per_address=max_sockets_per_address or None)
    proxies = tuple(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    run(host=host, port=port, db=store, limits=limits, compress=ws_compression, engines=specs,
        engine_pool=engine_pool, forwarded_allow_ips=proxies,
        connections=ConnectionLimits(header_timeout, keep_alive_timeout,
                                     (None if no_rate_limits else 100) if max_connections_per_address is None
                                     else max_connections_per_address or None, body_timeout))




@main.command(name="check")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--edition", type=click.Choice(["1989", "1997", "2023"]), default="2023", show_default=True,
              help="The Laws to apply.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per game (with its findings), then a summary object.")
@click.option("--only-problems", is_flag=True,
              help="With --json: only the games with findings (the text report never lists the others).")
@click.option("--jobs", type=click.IntRange(1, 1024), default=None,
              help="Threads checking games (default: all cores; with --dask: per file).")
@click.option("--fix", "fix_path", default=None, metavar="OUT.pgn", type=click.Path(dir_okay=False),
              help="Also write every game to OUT.pgn with the result the Laws give (Result tag and "
                   "movetext), a comment citing the article where it changed, and tags repaired.")
@click.option("--unreadable", type=click.Choice(["drop", "keep"]), default="drop", show_default=True,
              help="With --fix: leave out games with illegal or unreadable moves, or keep them as they were.")
@click.option("--dask", "dask_scheduler", default=None, metavar="ADDRESS",
              help="Check the files on a Dask cluster (e.g. tcp://host:8786), one task per file; "
                   "the workers must see the same paths.")
def check_command(files: tuple[str, ...], edition: str, as_json: bool, only_problems: bool,
                  jobs: int | None, fix_path: str | None, unreadable: str, dask_scheduler: str | None) -> None:
    """Check recorded games: legal moves, and the result the Laws give.

    Reads PGN files (plain, .gz or .zst; '-' for standard input) game by
    game in constant memory, and prints the games with findings and a
    summary table (with --json: every game, or with --only-problems only
    those with findings, then the summary). Reports illegal or unreadable moves, games that
    go on or record another result after checkmate, stalemate, a dead
    position, fivefold repetition or 75 moves (2023), wins on time or by
    resignation (2023) where the winner could not have mated (1997 blitz,
    by the TimeControl tag: had no mating potential, C.4; 1989: any win
    but checkmate by a player having a bare king, 10.5), and PGN
    syntax faults (a quote not escaped in a tag, a Result tag that
    contradicts the movetext, tags with no movetext), and games with no
    result (`*` or none: no_result).

    Moves are read in SAN, FIDE notation (a8Q, e2-e4, Ng1-f3), UCI
    coordinates (g1f3) and figurines; Chess960 games castle by their rules;
    how a game ended is read from its Termination tag as chess.com, lichess,
    cutechess and TCEC write it (a win on time is judged by Article 6.9).

    With --fix OUT.pgn every game is also written to OUT.pgn as the Laws
    have it: the result they give (in the Result tag and at the end of the
    movetext), the moves recorded after the end left out, and a comment
    citing the article where the result changed. Games with illegal or
    unreadable moves are left out (or kept as they were: --unreadable keep).
    What changed is summed up at the end. A fixed file checks clean but
    for the games recorded without a result (--fix cannot give them one).
    OUT.pgn appears whole or not at all (written beside it, then renamed;
    a full disk leaves an earlier OUT.pgn as it was), and is never an input.

    Exit status: 0 when every game is clean, 1 when there are findings, 2 on
    bad usage or a file that cannot be read.

    \b
    Examples:
      chesslaws check games.pgn.zst
      zcat games.pgn.gz | chesslaws check - --json --edition 1997
      chesslaws check twic.pgn --fix twic-fixed.pgn --edition 2023
      chesslaws check old.pgn --edition 1989 --fix old-fixed.pgn --unreadable keep
    """
    import json
    import time

    from chesslaws.check import FileCheck, FixCounts, GameReport, Summary
    from chesslaws.editions import get_edition

    if fix_path is None and click.get_current_context().get_parameter_source("unreadable") \
            == click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--unreadable says what --fix writes of the games it cannot read: add --fix OUT.pgn")
    total = Summary(edition=edition)
    out = sys.stdout
    show_progress = sys.stderr.isatty()
    many = len(files) > 1
    status = 0
    if dask_scheduler is not None:
        if fix_path is not None:
            click.echo("chesslaws check: --fix is not available with --dask", err=True)
            sys.exit(2)
        _check_on_dask(files, edition, as_json, only_problems, jobs, dask_scheduler)
        return
    import contextlib

    from chesslaws.atomic import OutputError, Writer, atomic_output

    fixes = FixCounts()
    try:
        with contextlib.ExitStack() as stack:
            fixed_out: Writer[bytes] | None = None
            if fix_path is not None:  # written beside, renamed over OUT when complete; never an input
                try:
                    fixed_out = stack.enter_context(atomic_output(fix_path, "wb", inputs=files))
                except OutputError as err:
                    click.echo(f"chesslaws check: --fix {err}", err=True)
                    sys.exit(2)
            for path in files:
                what = None if path == "-" else _not_text(path)
                if what is not None:
                    _not_text_error("check", path, what, "PGN text")
                try:
                    fc = FileCheck(path, edition=edition, jobs=jobs, problems_only=only_problems or not as_json,
                                   json=as_json, file=path if many else None, fix=fixed_out is not None,
                                   keep_unreadable=unreadable == "keep")
                except OSError as err:
                    click.echo(f"chesslaws check: {err}", err=True)
                    sys.exit(2)
                last = 0.0
                try:
                    for batch in fc.batches():
                        if as_json:
                            out.write(fc.json_text)
                        for r in batch:
                            if many:
                                r = GameReport(r.game, r.line, r.tags, r.result, r.plies, r.findings, file=path)
                            _print_report(r, path if many else None)
                        if fixed_out is not None:
                            fixed_out.write(fc.fixed)
                        if show_progress and time.monotonic() - last > 0.1:
                            last = time.monotonic()
                            _progress(path, fc.bytes_read, fc.total_bytes, fc.games)
                except OutputError as err:
                    click.echo(f"chesslaws check: --fix {err}", err=True)
                    sys.exit(2)
                except OSError as err:
                    fc.counts.errors.append(f"{path}: {err}")
                    click.echo(f"chesslaws check: {path}: {err}", err=True)
                    status = 2
                if show_progress:
                    _progress(path, fc.bytes_read, fc.total_bytes, fc.games)
                    click.echo("", err=True)
                if fc.games == 0 and status == 0:
                    click.echo(f"chesslaws check: no game in {'standard input' if path == '-' else path} "
                               "(empty, or no PGN in it)", err=True)
                total.merge(fc.summary())
                fixes.update(fc.fixes)
            if fixed_out is not None and status == 2:  # an input not read whole: no fixed file of part of it
                raise _Abandoned
    except _Abandoned:
        click.echo(f"chesslaws check: --fix {fix_path} not written (an input could not be read whole); "
                   f"{fix_path} is left as it was", err=True)
        fix_path = None
    except OutputError as err:  # the last of it written, or the rename
        click.echo(f"chesslaws check: --fix {err}", err=True)
        sys.exit(2)
    if as_json:
        data = total.to_json()
        if fix_path is not None:
            data["summary"]["fix"] = {"file": fix_path, "changes": dict(sorted(fixes.items()))}
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        _print_summary(total)
    if fix_path is not None:
        lines = fixes.lines(get_edition(edition))
        click.echo(f"\n--fix {fix_path}:" if not as_json else f"--fix {fix_path}:", err=as_json)
        for line in lines:
            click.echo(f"  {line}", err=as_json)
    out.flush()
    if status == 0 and total.games_with_findings:
        status = 1
    sys.exit(status)


class _Abandoned(Exception):
    """The --fix output is not to be written (the block that writes it is left by raising this)."""


def _check_on_dask(files: tuple[str, ...], edition: str, as_json: bool, only_problems: bool,
                   jobs: int | None, scheduler: str) -> None:
    import json

    if "-" in files:
        click.echo("chesslaws check: --dask reads files, not standard input", err=True)
        sys.exit(2)
    try:
        from chesslaws.distributed import check_files_dask
    except ImportError as err:
        click.echo(f"chesslaws check: {err}", err=True)
        sys.exit(2)
    paths = [str(p) for p in files]
    for path in paths:
        what = _not_text(path)
        if what is not None:
            _not_text_error("check", path, what, "PGN text")
    try:
        reports, total = check_files_dask(paths, scheduler=scheduler, edition=edition,
                                          problems_only=only_problems or not as_json,
                                          jobs_per_file=jobs or 1)
    except OSError as err:
        click.echo(f"chesslaws check: {err}", err=True)
        sys.exit(2)
    many = len(paths) > 1
    for r in reports:
        if as_json:
            row = r.to_json()
            if not many:
                row.pop("file", None)
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            _print_report(r, r.file if many else None)
    if as_json:
        sys.stdout.write(json.dumps(total.to_json(), ensure_ascii=False) + "\n")
    else:
        _print_summary(total)
    sys.stdout.flush()
    sys.exit(1 if total.games_with_findings else 0)


def _progress(path: str, done: int, total: int | None, games: int) -> None:
    width = 30
    if total:
        frac = min(1.0, done / total)
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        text = f"\r{path} [{bar}] {frac:6.1%}  {done / 1e6:,.1f}/{total / 1e6:,.1f} MB  {games:,} games"
    else:
        text = f"\r{path}  {done / 1e6:,.1f} MB  {games:,} games"
    sys.stderr.write(text)
    sys.stderr.flush()


def _print_report(r: "GameReport", path: str | None) -> None:
    where = f"{path}: " if path else ""
    names = f"{r.tags.get('White', '?')} - {r.tags.get('Black', '?')}"
    click.echo(f"{where}game {r.game} (line {r.line}) {names} {r.result or '*'}")
    for f in r.findings:
        article = f"Article {f.article} ({f.edition})" if f.article else "PGN"
        move = f" {f.move}" if f.move else ""
        click.echo(f"  ply {f.ply}{move}: {f.kind} [{article}] {f.text}")


def _print_summary(s: "Summary") -> None:
    rows = [("files", s.files), ("games", s.games), ("plies", s.plies),
            ("games with findings", s.games_with_findings), ("findings", s.findings)]
    click.echo(f"\nLaws of {s.edition}")
    for name, n in rows:
        click.echo(f"  {name:<22}{n:>12,}")
    if s.by_kind:
        click.echo(f"  {'kind':<22}{'article':>12}{'count':>10}")
        for kind, n in sorted(s.by_kind.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {kind:<22}{s.articles.get(kind) or '-':>12}{n:>10,}")
    for e in s.errors:
        click.echo(f"  error: {e}")


if TYPE_CHECKING:
    from chesslaws.check import GameReport, Summary




if __name__ == "__main__":
    main()
