"""``chesslaws check``: recorded games checked by the native checker (:mod:`chesslaws.check`), file by file in
constant memory or on a Dask cluster, with the text or JSON report and the ``--fix`` output."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from dataclasses import replace

import click

from chesslaws.atomic import OutputError, Writer, atomic_output
from chesslaws.check import FileCheck, FixCounts, GameReport, Summary
from chesslaws.commands.inputs import not_text, not_text_error
from chesslaws.editions import get_edition


@click.command(name="check")
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
    result (`*` or none: no_result). A reason for the ending that the record
    states and the moves do not support (a Termination "insufficient
    material" with a queen on the board), its result being the Laws', is a
    note under its game (with --json: "notes"), no finding: convert --report
    gives the same note.

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
                what = None if path == "-" else not_text(path)
                if what is not None:
                    not_text_error("check", path, what, "PGN text")
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
                                r = replace(r, file=path)
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
    if "-" in files:
        click.echo("chesslaws check: --dask reads files, not standard input", err=True)
        sys.exit(2)
    try:
        # Dask is an optional dependency, loaded only for --dask (the module says how to install it).
        from chesslaws.distributed import check_files_dask
    except ImportError as err:
        click.echo(f"chesslaws check: {err}", err=True)
        sys.exit(2)
    paths = [str(p) for p in files]
    for path in paths:
        what = not_text(path)
        if what is not None:
            not_text_error("check", path, what, "PGN text")
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
            # The line the plain path writes: one file's reports do not name it.
            sys.stdout.write((r if many else replace(r, file=None)).json_line())
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


def _print_report(r: GameReport, path: str | None) -> None:
    where = f"{path}: " if path else ""
    names = f"{r.tags.get('White', '?')} - {r.tags.get('Black', '?')}"
    click.echo(f"{where}game {r.game} (line {r.line}) {names} {r.result or '*'}")
    for f in r.findings:
        article = f"Article {f.article} ({f.edition})" if f.article else "PGN"
        move = f" {f.move}" if f.move else ""
        click.echo(f"  ply {f.ply}{move}: {f.kind} [{article}] {f.text}")
    for note in r.notes:
        click.echo(f"  note: {note}")


def _print_summary(s: Summary) -> None:
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
