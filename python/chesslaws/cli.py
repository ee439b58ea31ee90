"""The ``chesslaws`` command."""

from __future__ import annotations

import sys

import click

from chesslaws.errors import InvalidFen
from chesslaws.position import STARTING_FEN, Position, perft, perft_divide


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chesslaws")
def main() -> None:
    """chesslaws: the Laws of Chess, executable.

    Plays games live, arbitrates games from their event log and checks
    recorded games, under the 1989, 1997 and 2023 editions of the FIDE Laws.
    Run `chesslaws COMMAND --help` for each command.
    """


@main.command(name="perft")
@click.argument("fen", default="startpos", metavar="FEN")
@click.argument("depth", type=click.IntRange(0, 20))
@click.option("--divide", is_flag=True, help="First print the count below each legal move (UCI: count).")
@click.option("--threads", type=click.IntRange(1, 256), default=None, help="Threads to use (default: all cores).")
def perft_command(fen: str, depth: int, divide: bool, threads: int | None) -> None:
    """Count the leaf nodes of the legal move tree to DEPTH plies.

    FEN is a position in Forsyth-Edwards Notation (quote it), or `startpos`.
    The count is printed on the last line; the move generator is tested this
    way against published counts.

    \b
    Example:
      chesslaws perft startpos 5            -> 4865609
      chesslaws perft "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 3 --divide
    """
    try:
        position = Position(STARTING_FEN if fen == "startpos" else fen)
    except InvalidFen as err:
        raise click.BadParameter(str(err), param_hint="FEN") from None
    if divide:
        rows = perft_divide(position, depth, threads)
        for uci, n in rows:
            click.echo(f"{uci}: {n}")
        click.echo()
        click.echo(sum(n for _, n in rows) if depth > 0 else 1)
    else:
        click.echo(perft(position, depth, threads))


@main.command()
def serve() -> None:
    """Start the live game server (not yet: it comes with the server issue)."""
    click.echo("chesslaws serve: not yet — the live server is still being built.")
    sys.exit(0)


if __name__ == "__main__":
    main()
