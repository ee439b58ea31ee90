"""``chesslaws tournament``: create an event, register players, pair rounds, enter results, show standings, export."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from typing import Any, NoReturn

import click

from chesslaws.atomic import OutputError, write_text
from chesslaws.game import Game
from chesslaws.store.games import hash_token
from chesslaws.store.tournaments import TournamentStore
from chesslaws.tournament.limits import MAX_RATING, MAX_ROUNDS, name_problem, player_problem
from chesslaws.tournament.model import (DEFAULT_ROUND_ROBIN_TIEBREAKS, DEFAULT_SWISS_TIEBREAKS, Regulations,
                                        Scoring, StaleTournament, tiebreak_refused, TIEBREAKS, Tournament,
                                        TournamentError)
from chesslaws.tournament.pairing import (BbpDutch, berger_table, CaissifyDutch, find_bbp, LARGE_FOR_CAISSIFY,
                                          SwissEngine)
from chesslaws.tournament.pgn import event_pgn
from chesslaws.tournament.rounds import paired, RoundMade, save_round
from chesslaws.tournament.tiebreaks import crosstable as make_crosstable, standings
from chesslaws.tournament.trf import read_trf, write_trf

DB_HELP = ("SQLite file (only create and import make it when it does not exist), or a postgresql:// URL (the same "
           "database as `chesslaws serve`).")


def _die(message: str, code: int = 1) -> NoReturn:
    click.echo(f"chesslaws tournament: {message}", err=True)
    sys.exit(code)


def _store(db: str, *, create: bool = True) -> Any:
    """The database; with ``create=False`` (every command but create and import) a SQLite file that does not
    exist is said so, and not created empty."""

    if not create and not db.startswith(("postgresql://", "postgres://")) and db != ":memory:" \
            and not os.path.exists(db):
        _die(f"the database {db} does not exist (give the --db of `chesslaws serve`, or create a tournament: "
             f"chesslaws tournament create NAME --db {db})", 2)
    try:
        return TournamentStore(db)
    except Exception as err:  # the database cannot be opened
        _die(f"cannot open the database {db}: {err}", 2)


def _load(db: str, key: str) -> tuple[Any, Tournament]:
    store = _store(db, create=False)
    try:
        return store, store.load(key)
    except TournamentError as err:
        _die(str(err))


def _save(store: Any, t: Tournament, *, paired_from: Tournament | None = None) -> Tournament:
    """Saves a change (``paired_from``: the event as read before its next round was paired, saved as the live
    server saves a round); if the live server (or another command) changed the event since it was read,
    nothing is written and the command says so: it never overwrites their change."""

    try:
        return store.save(t) if paired_from is None else save_round(store, paired_from, RoundMade(t, live=False))
    except StaleTournament:
        _die(f"{t.name}: the event was changed meanwhile (by the live server or another command): nothing was "
             "written; run the command again")


RULES_HELP = ("The Tie-Break Regulations (C.07): as of 2023, or 2026 (in force from 1 March 2026: Art. 16.4 "
              "amended for unplayed rounds, and Standard Points, STD).")


def _tiebreaks(text: str | None, system: str, rules: str = "2023") -> tuple[str, ...]:
    """The tie-break order asked for (default: the system's), each code known and of the C.07 ``rules``."""

    if not text:
        return DEFAULT_SWISS_TIEBREAKS if system == "swiss" else DEFAULT_ROUND_ROBIN_TIEBREAKS
    codes = tuple(c.strip().upper() for c in text.split(",") if c.strip())
    for c in codes:
        if c not in TIEBREAKS:
            raise click.BadParameter(f"unknown tie-break {c!r}; known: {', '.join(TIEBREAKS)}",
                                     param_hint="--tiebreaks")
        refused = tiebreak_refused(c, rules)
        if refused:
            raise click.BadParameter(refused.replace("choose tiebreak_rules 2026", "give --tiebreak-rules 2026"),
                                     param_hint="--tiebreaks")
    return codes


def _fmt(x: float) -> str:
    return f"{x:g}"


def _print_round(t: Tournament, number: int) -> None:
    rnd = t.round(number)
    click.echo(f"Round {number}")
    for b in rnd.boards:
        w, bl = t.player(b.white), t.player(b.black)
        res = b.result or ""
        click.echo(f"  {b.table:>3}  {w.start_number:>3} {w.name:<28} - {bl.start_number:>3} {bl.name:<28} {res}")
    names = {"pab": "pairing-allocated bye", "full": "full-point bye", "half": "half-point bye",
             "zero": "zero-point bye", "absent": "absent", "free": "free round"}
    for y in rnd.byes:
        click.echo(f"       {y.player:>3} {t.player(y.player).name:<28}   {names[y.kind]}")


@click.group(name="tournament")
def tournament() -> None:
    """Run a tournament: players, pairings (FIDE Berger tables, Dutch system), results, standings, TRF.

    Tournaments live in the database of `chesslaws serve` (--db, default
    ./chesslaws.sqlite3); name one by its id or its name.

    \b
    A Swiss in six commands:
      chesslaws tournament create "Club Open" --rounds 5 --time-control 5400+30
      chesslaws tournament add "Club Open" "Carlsen, Magnus" --rating 2830 --title GM --federation NOR
      chesslaws tournament pair "Club Open"
      chesslaws tournament result "Club Open" 1 1 1-0
      chesslaws tournament standings "Club Open"
      chesslaws tournament export "Club Open" -o club.trf
    \b
    Live, on `chesslaws serve` (same --db): the round console pairs and follows every board
      chesslaws tournament arbiter "Club Open" --url http://127.0.0.1:8000
    An event begun elsewhere (Swiss-Manager, Vega, JaVaFo...):
      chesslaws tournament import open.trf --rounds 9
    \b
    For scripts:
      chesslaws tournament berger 8              # the FIDE Berger table for 8 players
      chesslaws tournament standings event.trf --json
    """


@tournament.command()
@click.argument("players", type=int)
@click.option("--double", is_flag=True, help="A double round robin (second cycle with colours reversed).")
@click.option("--labelled/--plain", default=None,
              help="Label each round and name the player with the bye (the free round), or print the pairs "
                   "alone, for scripts. Default: labelled on a terminal, plain otherwise.")
def berger(players: int, double: bool, labelled: bool | None) -> None:
    """Print the FIDE Berger table (C.05) for PLAYERS players: one line per round, `white-black` start numbers.

    With an odd number of players the pairing with the highest table
    number is left out: that player has the free round (the bye).

    \b
    Example:
      $ chesslaws tournament berger 5 --labelled
      Round 1:  2-5 3-4  bye: 1
      Round 2:  5-3 1-2  bye: 4
      ...
      $ chesslaws tournament berger 4 --plain
      1-4 2-3
      4-3 1-2
      2-4 3-1
    """

    try:
        table = berger_table(players, double=double)
    except TournamentError as err:
        _die(str(err), 2)
    if labelled is None:
        labelled = sys.stdout.isatty()
    width = len(str(len(table)))
    for number, rnd in enumerate(table, 1):
        pairs = " ".join(f"{w}-{b}" for w, b in rnd)
        if not labelled:
            click.echo(pairs)
            continue
        seated = {x for pair in rnd for x in pair}
        bye = [sn for sn in range(1, players + 1) if sn not in seated]
        cycle = f" (cycle {2 if number > len(table) // 2 else 1})" if double else ""
        click.echo(f"Round {number:>{width}}{cycle}:  {pairs}" + (f"  bye: {bye[0]}" if bye else ""))


@tournament.command()
@click.argument("name")
@click.option("--system", type=click.Choice(["swiss", "round-robin", "double-round-robin"]), default="swiss",
              show_default=True, help="Swiss (FIDE Dutch system) or round robin (FIDE Berger tables).")
@click.option("--rounds", type=click.IntRange(1, MAX_ROUNDS), default=9, show_default=True,
              help="Rounds of a Swiss (a round robin has as many as its players need).")
@click.option("--edition", type=click.Choice(["1989", "1997", "2023"]), default="2023", show_default=True,
              help="The Laws that rule every game of the event.")
@click.option("--time-control", default="5400+30", show_default=True,
              help="Time control of every game, e.g. 40/5400+30:1800+30, 900+10.")
@click.option("--default-time", type=float, default=None, metavar="SECONDS",
              help="Default time (late arrival forfeits after it); default: the edition's.")
@click.option("--scoring", default="1-0.5-0", show_default=True, help="Points for WIN-DRAW-LOSS, e.g. 3-1-0.")
@click.option("--quickplay", is_flag=True, help="The quickplay-finish Guidelines (III) are announced.")
@click.option("--tiebreaks", default=None, metavar="LIST",
              help=f"Tie-break order, comma separated (C.07 names: {', '.join(TIEBREAKS)}; STD, Standard Points, "
                   "under --tiebreak-rules 2026 only); default BH-C1,BH,SB,DE,WIN,BPG for a Swiss, DE,SB,WIN,BPG "
                   "for a round robin.")
@click.option("--tiebreak-rules", type=click.Choice(["2023", "2026"]), default="2023", show_default=True,
              help=RULES_HELP)
@click.option("--unrated-rating", type=click.IntRange(1, 3500), default=None, metavar="RATING",
              help="The rating an unrated opponent counts with in ARO and TPR (default: left out).")
@click.option("--acceleration", type=click.Choice(["none", "baku"]), default="none", show_default=True,
              help="Accelerated pairings of a Swiss: the Baku Acceleration Method (C.04.5.1).")
@click.option("--initial-colour", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="The colour of pairing number 1 in round 1 of a Swiss.")
@click.option("--no-draw-offers", is_flag=True,
              help="No draw offered or agreed without the arbiter's consent (2023 9.1.1), in every game.")
@click.option("--no-draw-before-move", type=click.IntRange(1, 1000), default=None, metavar="N",
              help="No draw offered or agreed before each player has made N moves, without the arbiter's consent "
                   "(2023 9.1.1).")
@click.option("--report-leaving", is_flag=True,
              help="The opponent of the player having the move reports to the arbiter before leaving the playing "
                   "area (2023 11.2.4).")
@click.option("--site", default="", help="City or venue.")
@click.option("--date", default="", help="Start date, YYYY/MM/DD.")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def create(name: str, system: str, rounds: int, edition: str, time_control: str, default_time: float | None,
           scoring: str, quickplay: bool, tiebreaks: str | None, tiebreak_rules: str, unrated_rating: int | None,
           acceleration: str, initial_colour: str, no_draw_offers: bool, no_draw_before_move: int | None,
           report_leaving: bool, site: str, date: str, db: str) -> None:
    """Create a tournament NAME with its regulations; prints its id."""
    if system != "swiss":
        ctx = click.get_current_context()
        given = [f"--{n.replace('_', '-')}" for n in ("rounds", "initial_colour")
                 if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} for a Swiss: a round "
                                   "robin's rounds and colours are the Berger tables' (C.05)")
    try:
        reg = Regulations(system=system, rounds=rounds, edition=edition, time_control=time_control,  # type: ignore[arg-type]
                          default_time=default_time, scoring=Scoring.parse(scoring), quickplay=quickplay,
                          tiebreaks=_tiebreaks(tiebreaks, system, tiebreak_rules), tiebreak_rules=tiebreak_rules,
                          unrated_rating=unrated_rating, acceleration=acceleration, initial_colour=initial_colour,
                          no_draw_offers=no_draw_offers, no_draw_before_move=no_draw_before_move,
                          report_leaving=report_leaving)
    except TournamentError as err:
        _die(str(err), 2)
    wrong = name_problem(name)
    if wrong:  # as the API's NewTournament refuses it
        _die(f"NAME: {wrong}", 2)
    t = _store(db).save(Tournament(name, reg, site=site, date=date))
    click.echo(t.id)


@tournament.command(name="list")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def list_command(db: str) -> None:
    """List the tournaments in the database (id, name)."""
    for tid, name, _ in _store(db, create=False).tournaments():
        click.echo(f"{tid}  {name}")


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.argument("names", nargs=-1)
@click.option("--rating", type=click.IntRange(0, MAX_RATING), default=0, help="Rating (0: unrated).")
@click.option("--title", default="", help="GM, IM, WGM, FM...")
@click.option("--federation", default="", help="Three-letter federation code.")
@click.option("--fide-id", default="", help="FIDE ID.")
@click.option("--from-trf", "from_trf", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Register the players of a TRF file (names, ratings, titles, federations, IDs).")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def add(tournament_key: str, names: tuple[str, ...], rating: int, title: str, federation: str, fide_id: str,
        from_trf: str | None, db: str) -> None:
    """Register players in TOURNAMENT (before round 1). Several NAMES take the same options.

    \b
    Examples:
      chesslaws tournament add Open "Carlsen, Magnus" --rating 2830 --title GM --federation NOR
      chesslaws tournament add Open Ann Bob Cleo Dan
      chesslaws tournament add Open --from-trf entries.trf
    """
    ctx = click.get_current_context()
    if from_trf is not None:
        given = [f"--{n.replace('_', '-')}" for n in ("rating", "title", "federation", "fide_id")
                 if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE]
        if names or given:
            raise click.UsageError("--from-trf takes the players and their details from the file: give no NAMES"
                                   + (f" and no {', '.join(given)}" if given else ""))
    elif not names:
        raise click.UsageError("give the NAMES of the players, or --from-trf FILE.trf")
    store, t = _load(db, tournament_key)
    people: list[tuple[str, int, str, str, str, str, str]] = [(n, rating, title, federation, fide_id, "", "")
                                                              for n in names]
    if from_trf is not None:
        try:
            with open(from_trf, encoding="utf-8", errors="replace") as f:
                entries = read_trf(f.read())
        except OSError as err:
            _die(f"cannot read {from_trf}: {err.strerror}", 2)
        except TournamentError as err:
            _die(f"{from_trf}: {err}")
        people = [(p.name, p.rating, p.title, p.federation, p.fide_id, p.sex, p.birth) for p in entries.players]
    for person in people:
        wrong = player_problem(person[0], *person[2:5])
        if wrong:  # as the API's NewPlayer refuses it
            _die(f"player {person[0][:40]!r}: {wrong}", 2)
    try:
        for person in people:
            t = t.add_player(*person)
    except (TournamentError, Exception) as err:
        _die(str(err))
    _save(store, t)
    click.echo(_players(len(t.players)))


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.option("--engine", type=click.Choice(["auto", "bbp", "caissify"]), default="auto", show_default=True,
              help="Swiss engine. bbp: bbpPairings (C++, FIDE-endorsed; not shipped: --bbp PATH). caissify: "
                   "caissify-pairings' Dutch system (installed with chesslaws), its matchings run in chesslaws' "
                   "Rust core, colours by chesslaws' colour rules. auto: bbp when one is found (--bbp, "
                   "CHESSLAWS_BBP, the PATH), else caissify.")
@click.option("--bbp", "bbp_path", envvar="CHESSLAWS_BBP", default=None, metavar="PATH",
              help="The bbpPairings executable (or CHESSLAWS_BBP).")
@click.option("--renumber", is_flag=True,
              help="Before round 1: number the players by rating (C.04.2) even where an imported TRF gave "
                   "their numbers.")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def pair(tournament_key: str, engine: str, bbp_path: str | None, renumber: bool, db: str) -> None:
    """Pair the next round of TOURNAMENT and print it.

    Before round 1 of a Swiss the players are numbered by rating (C.04.2),
    except in an event imported from a TRF file: the file's start numbers
    are its pairing numbers and are kept (--renumber numbers them by rating).
    A Swiss is paired by the FIDE Dutch system (C.04.3). Two engines:
    \b
      bbp       bbpPairings (FIDE-endorsed, C++; not shipped with chesslaws:
                build it from github.com/BieremaBoyzProgramming/bbpPairings
                with make, about 20 s, and give it with --bbp or
                CHESSLAWS_BBP, or put it on the PATH). A 500-player round
                in 2-5 s.
      caissify  caissify-pairings' Dutch engine, installed with chesslaws
                (pure Python; its maximum-weight matchings run in chesslaws'
                Rust core, each repairing the one before; colours by
                chesslaws' colour rules). The round's weights and matchings
                are in chesslaws' Rust core: about bbpPairings' CPU time
                (1 s a round at 300 players, 25 s at 1,000), the same boards.

    The default (auto) is bbp when one is found, else caissify. Both agree
    with FIDE TEC's pairing checker on the events measured (bench/README.md).
    The engine that paired is named on the first line.

    \b
    Examples:
      chesslaws tournament pair Open
      chesslaws tournament pair Open --bbp /opt/bbp/bbpPairings.exe
      chesslaws tournament pair Open --engine caissify
    """
    if engine == "caissify" and click.get_current_context().get_parameter_source("bbp_path") \
            == click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--bbp names bbpPairings, which --engine caissify does not use")

    if bbp_path and not (os.path.isfile(bbp_path) and os.access(bbp_path, os.X_OK)):
        _die(f"--bbp {bbp_path}: no executable file there (build one from github.com/BieremaBoyzProgramming/bbpPairings)", 2)
    store, t = _load(db, tournament_key)
    if renumber and (t.rounds or t.regulations.system != "swiss"):
        _die("--renumber numbers the players of a Swiss before round 1: "
             + (f"{len(t.rounds)} round(s) are paired already" if t.rounds else f"this is a {t.regulations.system}"),
             2)
    chosen: SwissEngine | None = None
    found = bbp_path or find_bbp()
    if engine == "bbp":
        if not found:
            _die("--engine bbp needs the bbpPairings executable: --bbp PATH (or CHESSLAWS_BBP), "
                 "built from github.com/BieremaBoyzProgramming/bbpPairings", 2)
        chosen = BbpDutch(found)
    elif engine == "caissify":
        chosen = CaissifyDutch()
    else:
        chosen = BbpDutch(found) if found else CaissifyDutch()
    if t.regulations.system == "swiss":
        where = f" ({found})" if isinstance(chosen, BbpDutch) else ""
        click.echo(f"Dutch system by {chosen.name}{where}", err=True)
        if isinstance(chosen, CaissifyDutch) and len(t.players) > LARGE_FOR_CAISSIFY:
            click.echo(f"chesslaws tournament: note: {len(t.players)} players: a round takes seconds, a minute or "
                       "more past 1,000 players (caissify-pairings here less CPU than bbpPairings, a quarter to "
                       "three quarters of it; an odd field up to 3.4 times: bench/README.md)", err=True)
    before = t
    try:
        t = paired(t.order_by_rating() if renumber else t, chosen)
    except Exception as err:
        _die(str(err))
    t = _save(store, t, paired_from=before)
    _print_round(t, len(t.rounds))


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.argument("round_number", type=int, metavar="ROUND")
@click.argument("table", type=int)
@click.argument("result", required=False)
@click.option("--game", "game_log", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Take the result from the game's log (JSON Lines): a late arrival is recorded as a forfeit.")
@click.option("--at", "at", type=float, default=None, metavar="T",
              help="With --game: the game as it stands T seconds after its start (a flag fall or a late "
                   "arrival that no event records).")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def result(tournament_key: str, round_number: int, table: int, result: str | None, game_log: str | None,
           at: float | None, db: str) -> None:
    """Enter the RESULT of a TABLE of ROUND: 1-0, 0-1, 1/2-1/2, 0-0, +- / -+ (forfeit), -- (both forfeit).

    \b
    Examples:
      chesslaws tournament result Open 3 1 1/2-1/2
      chesslaws tournament result Open 3 2 --game board2.jsonl
      chesslaws tournament result Open 3 4 --game board4.jsonl --at 3600   # Black never came
    """

    if game_log and result:
        raise click.UsageError(f"give RESULT or --game LOG, not both (the log's result would stand, not {result})")
    if at is not None and not game_log:
        raise click.UsageError("--at is the time in the game of --game LOG: give --game")
    store, t = _load(db, tournament_key)
    try:
        if game_log:
            game = Game.replay(game_log)
            if at is not None:
                game = game.at(at)
            if game.state.result == "*":
                raise TournamentError(f"{game_log}: the game has not ended (give --at T when the clock decides it: "
                                      "a flag fall, a player who never arrived)")
            t = t.result_from_game(round_number, table, game)
            store.save_game_log(t.id, round_number, table, game.log_lines())
        elif result:
            t = t.set_result(round_number, table, result.replace("½", "1/2"))
        else:
            raise TournamentError("give a RESULT or --game LOG")
    except Exception as err:
        _die(str(err))
    _save(store, t)
    b = next(b for b in t.round(round_number).boards if b.table == table)
    click.echo(f"round {round_number} table {table}: {t.player(b.white).name} - {t.player(b.black).name} {b.result}")


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.argument("round_number", type=int, metavar="ROUND")
@click.argument("player", type=int)
@click.argument("kind", type=click.Choice(["full", "half", "zero"]))
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def bye(tournament_key: str, round_number: int, player: int, kind: str, db: str) -> None:
    """Grant PLAYER (start number) a requested bye in ROUND, before it is paired: full, half or zero point."""
    store, t = _load(db, tournament_key)
    try:
        t = t.request_bye(round_number, player, kind)  # type: ignore[arg-type]
    except Exception as err:
        _die(str(err))
    _save(store, t)
    click.echo(f"round {round_number}: {t.player(player).name} has a {kind}-point bye")


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.argument("player", type=int)
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def withdraw(tournament_key: str, player: int, db: str) -> None:
    """Withdraw PLAYER (start number): not paired from the next round on."""
    store, t = _load(db, tournament_key)
    try:
        t = t.withdraw(player)
    except Exception as err:
        _die(str(err))
    _save(store, t)
    click.echo(f"{t.player(player).name} withdraws from round {t.next_round}")


def _tournament_from(source: str, db: str) -> Tournament:
    if source.lower().endswith((".trf", ".txt")) or os.path.isfile(source):
        try:
            with open(source, encoding="utf-8", errors="replace") as f:
                return read_trf(f.read())
        except OSError as err:
            _die(f"cannot read {source}: {err.strerror}", 2)
        except TournamentError as err:
            _die(f"{source}: {err}")
    return _load(db, source)[1]


@tournament.command(name="arbiter")
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True,
              help="Where `chesslaws serve` answers (with the same --db).")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def arbiter(tournament_key: str, url: str, db: str) -> None:
    """Give TOURNAMENT a new live arbiter token and print the round console's link.

    With it the arbiter runs the event on `chesslaws serve` (same --db):
    the round console pairs each round into live games, shows every board
    (moves, clocks, claims, stopped clocks, results) and opens each game's
    arbiter console. A round's clocks start when the arbiter starts the round
    (now or at a set time), never at pairing: a player who has not opened his
    game by then is absent, and the default time decides (Article 6.7). Over
    the API (POST /api/tournaments/ID/rounds) this fair start is the default;
    {"start": "now"} starts the clocks at pairing. The token replaces any earlier one: games created
    with the earlier token keep their own arbiter links (printed then), the
    console offers them only to the token that created them.

    \b
    Examples:
      chesslaws tournament arbiter "Club Open" --url http://192.168.1.20:8000
      chesslaws serve --db ./chesslaws.sqlite3 --host 0.0.0.0
    """
    import secrets


    store, t = _load(db, tournament_key)
    token = secrets.token_urlsafe(24)
    store.set_arbiter_token_hash(t.id, hash_token(token))
    base = url.rstrip("/")
    click.echo(f"round console: {base}/tournament/{t.id}/arbiter#token={token}")
    click.echo(f"standings:     {base}/tournament/{t.id}")
    click.echo("Keep the console link secret: it carries the arbiter's token (shown only now).", err=True)


@tournament.command(name="import")
@click.argument("trf_file", metavar="FILE.trf", type=click.Path(exists=True, dir_okay=False))
@click.option("--name", default=None, help="Name in the database (default: the file's 012 line).")
@click.option("--rounds", type=click.IntRange(1, MAX_ROUNDS), default=None,
              help="Rounds of the Swiss, when the file has no XXR line or a different plan.")
@click.option("--edition", type=click.Choice(["1989", "1997", "2023"]), default="2023", show_default=True,
              help="The Laws that rule the games still to play.")
@click.option("--time-control", default=None, help="Time control of the games still to play (default: the "
                                                   "file's 122 line, else 5400+30).")
@click.option("--tiebreaks", default=None, metavar="LIST", help="Tie-break order, comma separated.")
@click.option("--tiebreak-rules", type=click.Choice(["2023", "2026"]), default="2023", show_default=True,
              help=RULES_HELP)
@click.option("--unrated-rating", type=click.IntRange(1, 3500), default=None, metavar="RATING",
              help="The rating an unrated opponent counts with in ARO and TPR (default: left out).")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def import_trf(trf_file: str, name: str | None, rounds: int | None, edition: str, time_control: str | None,
               tiebreaks: str | None, tiebreak_rules: str, unrated_rating: int | None, db: str) -> None:
    """Import an event from a TRF-16 file (Swiss-Manager, Vega, JaVaFo, bbpPairings...) to go on with it here.

    Players, rounds played, byes, forfeits and results are taken from the file;
    `pair` then pairs the next round. What TRF does not carry (the edition of
    the Laws, the tie-break order) comes from the options.

    \b
    Examples:
      chesslaws tournament import open.trf
      chesslaws tournament import open.trf --rounds 9 --time-control 5400+30 --name "Open 2026"
      chesslaws tournament pair "Open 2026"
    """

    try:
        with open(trf_file, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as err:
        _die(f"cannot read {trf_file}: {err}", 2)
    try:
        t = read_trf(text)
        if rounds and t.regulations.system != "swiss":
            raise click.UsageError(f"--rounds is for a Swiss; {trf_file} is a {t.regulations.system} (its 092 "
                                   "line): its rounds are the Berger tables' (C.05)")
        codes = _tiebreaks(tiebreaks, t.regulations.system, tiebreak_rules)
        reg = Regulations(system=t.regulations.system, rounds=rounds or t.regulations.rounds, edition=edition,
                          time_control=time_control or t.regulations.time_control, scoring=t.regulations.scoring,
                          tiebreaks=codes, initial_colour=t.regulations.initial_colour,
                          tiebreak_rules=tiebreak_rules, unrated_rating=unrated_rating)
        t = read_trf(text, regulations=reg)
        if rounds:
            t = replace(t, regulations=replace(t.regulations, rounds=rounds))
        if len(t.rounds) > t.total_rounds:
            raise TournamentError(f"the file has {len(t.rounds)} rounds played, more than the {t.total_rounds} "
                                  "planned: give --rounds")
        if name or not t.name:
            t = replace(t, name=name or os.path.splitext(os.path.basename(trf_file))[0])
        wrong = name_problem(t.name)
        if wrong:
            raise TournamentError(f"--name: {wrong}" if name else f"the name (012 line, or the file's): {wrong}")
    except TournamentError as err:
        _die(f"{trf_file}: {err}")
    store = _store(db)
    t = store.save(t)
    state = (f"{len(t.rounds)} of {t.total_rounds} rounds played" if t.regulations.system == "swiss" else
             f"{len(t.rounds)} rounds played")
    click.echo(f"{t.id}  {t.name}: {_players(len(t.players))}, {state}")


@tournament.command(name="standings")
@click.argument("source", metavar="TOURNAMENT|FILE.trf")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per line and player: rank, start_number, points, tiebreaks (name -> value).")
@click.option("--tiebreaks", default=None, metavar="LIST", help="Override the tie-break order (comma separated).")
@click.option("--crosstable", is_flag=True, help="Also print the crosstable, round by round.")
@click.option("--tiebreak-rules", type=click.Choice(["2023", "2026"]), default=None,
              help=RULES_HELP + " Default: the event's; 2023 for a file.")
@click.option("--unrated-rating", type=click.IntRange(1, 3500), default=None, metavar="RATING",
              help="The rating an unrated opponent counts with in ARO and TPR.")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def standings_command(source: str, as_json: bool, tiebreaks: str | None, crosstable: bool,
                      tiebreak_rules: str | None, unrated_rating: int | None, db: str) -> None:
    """Print the standings of a tournament in the database, or of a TRF-16 file.

    A file's tie-breaks are those of its system (its 092 line): DE, SB, WIN, BPG
    for a round robin, BH-C1, BH, SB, DE, WIN, BPG for a Swiss.

    \b
    Examples:
      chesslaws tournament standings Open
      chesslaws tournament standings event.trf --json
      chesslaws tournament standings event.trf --tiebreaks BH-C1,BH,SB,ARO,TPR
    """

    if as_json and crosstable:
        raise click.UsageError("--crosstable is printed as text, not in --json: give one of them")
    t = _tournament_from(source, db)
    codes = _tiebreaks(tiebreaks, t.regulations.system, tiebreak_rules or t.regulations.tiebreak_rules) \
        if tiebreaks else t.regulations.tiebreaks
    if tiebreak_rules or unrated_rating:
        reg = t.regulations
        try:
            t = replace(t, regulations=replace(reg, tiebreak_rules=tiebreak_rules or reg.tiebreak_rules,
                                               unrated_rating=unrated_rating or reg.unrated_rating, tiebreaks=codes))
        except TournamentError as err:
            _die(f"{source}: {err}", 2)
    rows = standings(t, codes)
    if as_json:
        for s in rows:
            click.echo(json.dumps({"rank": s.rank, "start_number": s.start_number, "name": s.name,
                                   "points": s.points, "tiebreaks": dict(s.tiebreaks)}))
        return
    done = sum(1 for r in t.rounds if r.complete)
    title = f"{t.name or 'Tournament'}: after round {done} of {t.total_rounds}" + "".join(
        f" (round {r.number} in play)" for r in t.rounds if not r.complete)
    click.echo(title)
    click.echo(f"{'Rk':>3} {'SNo':>4} {'Name':<30} {'Rtg':>4} {'Pts':>5} " + " ".join(f"{c:>6}" for c in codes))
    for s in rows:
        click.echo(f"{s.rank:>3} {s.start_number:>4} {s.name[:30]:<30} {s.rating or '':>4} {_fmt(s.points):>5} "
                   + " ".join(f"{_fmt(v):>6}" for _, v in s.tiebreaks))
    if crosstable:
        click.echo("")
        for row in make_crosstable(t):
            click.echo(f"{row[0]:>4} {row[1][:24]:<24} {row[2]:>4} " + " ".join(f"{c:>6}" for c in row[3:-1])
                       + f" {row[-1]:>5}")


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.option("--round", "round_number", type=int, default=None, help="With --pgn: only this round's games.")
@click.option("--pgn", "as_pgn", is_flag=True, help="PGN of the games whose logs are stored, instead of TRF.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default="-", show_default=True,
              help="File to write ('-': standard output).")
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def export(tournament_key: str, round_number: int | None, as_pgn: bool, output: str, db: str) -> None:
    """Export TOURNAMENT as TRF-16 (default) or its games as PGN.

    \b
    Examples:
      chesslaws tournament export Open -o open.trf
      chesslaws tournament export Open --pgn --round 3 -o round3.pgn
    """
    if round_number is not None and not as_pgn:
        raise click.UsageError("--round exports one round's games as PGN: add --pgn (the TRF holds every round)")
    store, t = _load(db, tournament_key)
    if as_pgn:
        logs = store.game_logs(t.id, round_number)
        text = event_pgn(t, logs, round_number=round_number)
        logged = {(rnd, table) for rnd, table, _ in logs}
        unlogged = sum(1 for r in t.rounds if round_number in (None, r.number) for b in r.boards
                       if b.result in ("1-0", "0-1", "1/2-1/2", "0-0") and (r.number, b.table) not in logged)
        if not text:
            _die("no game to export: " + (f"round {round_number} has" if round_number else "the event has")
                 + " no result yet (a forfeit is no game)")
        if unlogged > 0:
            click.echo(f"chesslaws tournament: {unlogged} game(s) without a stored log (results entered by "
                       "hand): tags and result only", err=True)
    else:
        text = write_trf(t)
    if output == "-":
        click.echo(text, nl=False)
        return

    try:  # whole or not there: a temporary file beside it, renamed when complete
        write_text(output, text)
    except OutputError as err:
        _die(str(err), 2)


def _players(n: int) -> str:
    """"1 player", "4 players"."""
    return f"{n} player" if n == 1 else f"{n} players"


@tournament.command()
@click.argument("tournament_key", metavar="TOURNAMENT")
@click.argument("round_number", type=int, metavar="[ROUND]", required=False)
@click.option("--db", default="./chesslaws.sqlite3", show_default=True, metavar="PATH|URL", help=DB_HELP)
def show(tournament_key: str, round_number: int | None, db: str) -> None:
    """Print the regulations and the pairings of ROUND (default: every round)."""
    _, t = _load(db, tournament_key)
    if round_number is not None and not any(r.number == round_number for r in t.rounds):
        _die(f"{t.name}: round {round_number} is not paired (" + (f"rounds 1..{len(t.rounds)} are" if t.rounds else
             "no round is") + f" paired, of {t.total_rounds})")
    reg = t.regulations
    click.echo(f"{t.name} ({t.id}): {reg.system}, {t.total_rounds} rounds, {_players(len(t.players))}")
    default = (f"as the {reg.edition} Laws set it" if reg.default_time is None else f"{reg.default_time:g} s")
    click.echo(f"  Laws {reg.edition}, time control {reg.time_control}, default time: {default}, scoring {reg.scoring}"
               f"{', quickplay Guidelines announced' if reg.quickplay else ''}")
    click.echo(f"  tie-breaks: {', '.join(reg.tiebreaks)} (C.07 {reg.tiebreak_rules})")
    laws = reg.game_regulations()
    if laws.to_json():
        said = [laws.draw_rule_words()] if laws.no_draw_offers or laws.no_draw_before_move else []
        said += ["the opponent of the player having the move reports to the arbiter before leaving the playing area"
                 ] if laws.report_leaving else []
        said += ["the clocks cannot introduce an increment"] if not laws.increment_possible else []
        click.echo(f"  in every game: {'; '.join(said)}")
    for rnd in t.rounds:
        if round_number is None or rnd.number == round_number:
            _print_round(t, rnd.number)


