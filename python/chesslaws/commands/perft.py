"""``chesslaws perft``: the leaf nodes of the legal move tree, counted by the native move generator."""

from __future__ import annotations

import click

from chesslaws.errors import InvalidFen, InvalidInput
from chesslaws.position import Position, perft, perft_divide


@click.command(name="perft")
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
