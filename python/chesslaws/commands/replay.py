"""``chesslaws replay``: a game log replayed under its edition, shown as a summary, the state's JSON or PGN."""

from __future__ import annotations

import json
import os
import sys
import tempfile

import click

from chesslaws.commands.inputs import looks_like_pgn, not_text, not_text_error, pgn_stem
from chesslaws.errors import ChessLawsError
from chesslaws.game import Game, read_log
from chesslaws.records import game_to_pgn
from chesslaws.summary import game_summary


@click.command()
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
    if as_json and as_pgn:
        raise click.UsageError("--json and --pgn print the game in two ways: give one of them")
    stdin_copy = None
    try:
        if log == "-":  # standard input, as a file: read once, checked as a file is, then removed
            with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as fh:
                fh.write(sys.stdin.buffer.read())
                stdin_copy = path = fh.name
        else:
            path = log
        what = not_text(path)
        if what is not None:
            not_text_error("replay", "standard input" if log == "-" else log, what, "a game log (UTF-8 JSON Lines)")
        game = Game.from_events(read_log(path))
        if at is not None:
            game = game.at(at)
    except OSError as err:
        click.echo(f"chesslaws replay: cannot read {log}: {err.strerror}", err=True)
        sys.exit(2)
    except ChessLawsError as err:
        if looks_like_pgn(path):
            if log == "-":
                click.echo("chesslaws replay: standard input is PGN, not a game log; save it to a file and convert "
                           "it to game logs first:\n  chesslaws convert FILE.pgn --out logs/", err=True)
            else:
                click.echo(f"chesslaws replay: {log} is a PGN file, not a game log; convert it to game logs first:\n"
                           f"  chesslaws convert {log} --out logs/\n"
                           f"  chesslaws replay logs/{pgn_stem(log)}-1.jsonl", err=True)
            sys.exit(2)
        click.echo(f"chesslaws replay: {log}: {err}", err=True)
        sys.exit(2)
    finally:
        if stdin_copy is not None:
            os.unlink(stdin_copy)
    if as_pgn:
        click.echo(game_to_pgn(game), nl=False)
    elif as_json:
        click.echo(json.dumps(game.to_json(), indent=1, ensure_ascii=False))
    else:
        click.echo(game_summary(game))
