"""``chesslaws convert``: the games of a PGN file as the game logs the Laws would have written
(:func:`chesslaws.records.pgn_to_log`), one file each, written whole or not at all."""

from __future__ import annotations

import json
import os
import sys
import time

import click

from chesslaws.atomic import OutputError, write_text
from chesslaws.commands.inputs import not_text, not_text_error, pgn_stem
from chesslaws.pgn import PgnGame, read_pgn
from chesslaws.records import convertible, pgn_to_log


@click.command()
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
    PGN text (UTF-16, binary, a game log: replay reads those) or cannot be read.

    \b
    Examples:
      chesslaws convert games.pgn --out logs/ --edition 1997
      chesslaws convert lichess.pgn.zst --out logs/ --report
      chesslaws replay logs/games-1.jsonl
    """
    what = not_text(pgn)
    if what is not None:
        not_text_error("convert", pgn, what, "PGN text")
    if _is_game_log(pgn):
        click.echo(f"chesslaws convert: {pgn} is a game log, not a PGN file; replay it instead:\n"
                   f"  chesslaws replay {pgn}\n"
                   f"  chesslaws replay {pgn} --pgn > {pgn_stem(pgn)}.pgn", err=True)
        sys.exit(2)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as failed_dir:
        click.echo(f"chesslaws convert: cannot make the folder {out_dir}: {failed_dir.strerror}", err=True)
        sys.exit(2)
    stem = pgn_stem(pgn)
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
            variant = g.tags.get("Variant", "")
            why = (f'variant "{variant}" is Chess960, which is in the 2023 Laws only '
                   f"(Guidelines II), not the {edition} Laws; convert it with --edition 2023")
            click.echo(f"{pgn}: game {g.number} (line {g.line}): {why}", err=True)
            if report:
                click.echo(f"game {g.number} (line {g.line}): not converted: {why}")
            continue
        item = pgn_to_log(g, edition=edition, seconds_per_move=seconds_per_move)
        path = os.path.join(out_dir, f"{stem}-{item.number}.jsonl")
        try:  # whole or not there: a temporary file beside it, renamed when complete
            write_text(path, "".join(json.dumps(ev, ensure_ascii=False) + "\n" for ev in item.events),
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


def _is_game_log(path: str) -> bool:
    """A game log (JSON Lines of events, as convert writes them and replay reads them) by its first line: a
    JSON object with a ``type``. PGN never starts with ``{`` followed by JSON (a comment before the first game
    is no JSON object). A compressed file is left to the PGN reader (replay reads plain logs only)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(65536)
    except OSError:
        return False
    text = raw.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if not text.startswith("{"):
        return False
    try:
        first = json.loads(text.split("\n", 1)[0])
    except ValueError:
        return False
    return isinstance(first, dict) and isinstance(first.get("type"), str)
