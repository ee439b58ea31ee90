"""``chesslaws match``: a match between two engines (:mod:`chesslaws.match`), every game ruled by the Laws."""

from __future__ import annotations

import sys
from typing import Sequence

import click

from chesslaws.engines import EngineSpec
from chesslaws.errors import ChessLawsError
from chesslaws.match import (
    Adjudication,
    MatchConfig,
    Opening,
    Sprt,
    final_table,
    read_openings,
    run_cli,
    unique_names,
)
from chesslaws.timecontrol import TimeControl


def _options(values: Sequence[str], flag: str) -> dict[str, str]:
    """``NAME=VALUE`` options of ``flag`` as a dict."""
    out: dict[str, str] = {}
    for v in values:
        key, sep, value = v.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{v!r} is not NAME=VALUE (e.g. 'Skill Level=5')", param_hint=flag)
        out[key.strip()] = value.strip()
    return out


def _ints(text: str | None, flag: str, names: Sequence[str]) -> list[int] | None:
    """``A/B/C`` of ``flag``: up to ``len(names)`` whole numbers, or None when not given."""
    if text is None:
        return None
    parts = text.split("/")
    if not 1 <= len(parts) <= len(names) or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(f"{text!r} is not {'/'.join(n.upper() for n in names)} "
                                 f"(whole numbers, e.g. {'/'.join(('1000', '3', '40')[:len(names)])})",
                                 param_hint=flag)
    return [int(p) for p in parts]


@click.command(name="match")
@click.argument("engine1", metavar="ENGINE1")
@click.argument("engine2", metavar="ENGINE2")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=2, show_default=True,
              help="Games to play (each opening twice, colours reversed).")
@click.option("--tc", "tc", default="10+0.1", show_default=True, metavar="CONTROL",
              help="Time control in the game-log syntax: periods MOVES/SECONDS+INC, dDELAY simple and "
                   "bDELAY Bronstein delay, ':' between periods.")
@click.option("--edition", type=click.Choice(["1989", "1997", "2023"]), default="2023", show_default=True,
              help="The Laws of Chess that rule every game.")
@click.option("--concurrency", "-c", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Games played at the same time (one engine pair each; keep it at most the cores).")
@click.option("--openings", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Starting positions: a PGN file (each game's last position) or an EPD file (.epd), "
                   "used in order, each with both colours.")
@click.option("--pgnout", type=click.Path(dir_okay=False), default=None,
              help="Append every game to this PGN file, with [%clk] after every move and the rulings; each game "
                   "whole, on disk as it ends (one that cannot be written ends the match; the file keeps the games "
                   "before it).")
@click.option("--sprt", default=None, metavar="'elo0=A elo1=B alpha=X beta=Y'",
              help="Stop when the sequential probability ratio test decides H0 (Elo <= elo0) or H1 (>= elo1).")
@click.option("--option1", multiple=True, metavar="NAME=VALUE", help="An option for ENGINE1 (UCI setoption, xboard option; repeatable).")
@click.option("--option2", multiple=True, metavar="NAME=VALUE", help="An option for ENGINE2 (UCI setoption, xboard option; repeatable).")
@click.option("--option", "option_both", multiple=True, metavar="NAME=VALUE",
              help="An option for both engines (repeatable).")
@click.option("--resign", default=None, metavar="CP/MOVES",
              help="Adjudicate a win when the loser's score is -CP or worse for MOVES moves and the winner "
                   "agrees (e.g. 1000/3).")
@click.option("--draw", "draw_adj", default=None, metavar="CP/MOVES/AFTER",
              help="Adjudicate a draw when both scores stay within CP for MOVES moves each, from move AFTER "
                   "(e.g. 10/8/40).")
@click.option("--max-moves", type=click.IntRange(1, 100000), default=None,
              help="Adjudicate a draw after this many moves.")
@click.option("--no-claims", is_flag=True,
              help="Do not claim threefold repetitions and fifty moves on the engines' behalf "
                   "(only the automatic fivefold/75 moves of 2023 then end such games).")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
def match_command(engine1: str, engine2: str, games: int, tc: str, edition: str, concurrency: int,
                  openings: str | None, pgnout: str | None, sprt: str | None, option1: tuple[str, ...],
                  option2: tuple[str, ...], option_both: tuple[str, ...], resign: str | None,
                  draw_adj: str | None, max_moves: int | None, no_claims: bool, quiet: bool) -> None:
    """Play a match between two engines (UCI or xboard), every game ruled by the Laws.

    ENGINE is NAME=COMMAND or COMMAND, a UCI engine; xboard:NAME=COMMAND
    for an engine that speaks the xboard protocol. Each engine is told the
    clock the Laws give it, at the instant its "go" is sent; an illegal move is reinstated with the edition's penalty (2023:
    the opponent gets time, the second one loses), an engine that crashes or
    hangs loses on time (a draw if the opponent cannot mate). Threefold
    repetitions and fifty moves are claimed on the engines' behalf; --resign,
    --draw and --max-moves are the arbiter's adjudications, written in the
    PGN as his decisions. The progress line shows games, score, Elo with its
    95 % interval and, with --sprt, the log-likelihood ratio and its bounds.

    \b
    Examples:
      chesslaws match sf=/usr/games/stockfish weak=/usr/games/stockfish \\
          --option2 "Skill Level=5" --games 20 --tc 10+0.1 --pgnout m.pgn
      chesslaws match ./new-engine ./old-engine --tc 40/60:30+0.5 -c 2 \\
          --openings book.epd --games 1000 --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05"
      chesslaws match a=./a b=./b --tc 60d2 --edition 1997 --resign 1000/3 --draw 10/8/40
      chesslaws match xboard:fm=/usr/games/fairymax sf=/usr/games/stockfish \\
          --option2 "UCI_LimitStrength=true" --option2 "UCI_Elo=1500" --games 10 --tc 60+1
    """
    try:
        control = TimeControl.parse(tc)
        if control.unlimited:
            raise click.BadParameter("an engine match needs a clock (e.g. 10+0.1, 40/60:30, 60d2)", param_hint="--tc")
        both = _options(option_both, "--option")
        specs = unique_names([
            EngineSpec.parse(engine1, {**both, **_options(option1, "--option1")}),
            EngineSpec.parse(engine2, {**both, **_options(option2, "--option2")}),
        ])
        r = _ints(resign, "--resign", ("cp", "moves"))
        d = _ints(draw_adj, "--draw", ("cp", "moves", "after"))
        adjudication = Adjudication(
            claims=not no_claims,
            resign_cp=r[0] if r else None, resign_moves=r[1] if r and len(r) > 1 else 3,
            draw_cp=d[0] if d else None, draw_moves=d[1] if d and len(d) > 1 else 8,
            draw_after=d[2] if d and len(d) > 2 else 40, max_moves=max_moves,
        )
        book = tuple(read_openings(openings)) if openings else (Opening(None),)
        test = Sprt.parse(sprt) if sprt else None
        cfg = MatchConfig(specs, control, games=games, edition=edition, concurrency=concurrency,
                          openings=book, adjudication=adjudication, sprt=test)
        report = run_cli(cfg, pgnout, quiet=quiet)
    except click.ClickException:
        raise
    except ChessLawsError as err:
        click.echo(f"chesslaws match: {err}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("\nchesslaws match: interrupted; the engines are stopped", err=True)
        sys.exit(130)
    click.echo(final_table(report, [s.name for s in specs], test))
