"""Storage (SQLite and PostgreSQL) and the `chesslaws tournament` command, used as an arbiter would."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.tournament import Regulations, Scoring, Tournament, pair_next_round, read_trf
from chesslaws.tournament.pairing import find_bbp
from chesslaws.store.tournaments import TournamentStore
from tgames import play


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "chesslaws.sqlite3")
    return str(request.getfixturevalue("pg_url"))


def test_store_round_trip(db: str) -> None:
    reg = Regulations(rounds=3, edition="1997", time_control="40/7200:1800", default_time=3600,
                      scoring=Scoring.parse("3-1-0"), quickplay=True, tiebreaks=("BH", "SB", "TPR"))
    t = Tournament("Stored", reg, site="Graz", date="2026/11/30")
    for i, name in enumerate(["Ann", "Bob", "Cleo", "Dan", "Eve"]):
        t = t.add_player(name, 2000 - 10 * i, title="FM" if i == 0 else "", federation="AUT", fide_id=str(1000 + i))
    t = t.request_bye(2, 3, "half")
    t = pair_next_round(t)
    with TournamentStore(db) as store:
        t = store.save(t)
        assert t.id
        t = t.set_result(1, 1, "1-0")
        store.save(t)
        store.save_game_log(t.id, 1, 1, ['{"type": "start", "t": 0}'])
    with TournamentStore(db) as store:  # a new connection: what was committed
        back = store.load(t.id)
        assert back == t
        assert store.load("Stored") == t
        assert [tid for tid, _, _ in store.tournaments()] == [t.id]
        assert store.game_logs(t.id) == [(1, 1, '{"type": "start", "t": 0}\n')]
        with pytest.raises(Exception, match="no tournament 'nope'"):
            store.load("nope")


def run(args: list[str], db: str) -> str:
    out = CliRunner().invoke(main, ["tournament", *args, "--db", db])
    assert out.exit_code == 0, out.output
    return out.output


def test_cli_runs_a_round_robin_from_game_logs(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    tid = run(["create", "Quad", "--system", "round-robin", "--time-control", "900+10"], db).strip()
    run(["add", "Quad", "Ann", "--rating", "2100", "--title", "FM"], db)
    run(["add", "Quad", "Bob", "Cleo", "Dan", "--rating", "1900"], db)
    rng = random.Random(3)
    reg = Regulations(system="round-robin", time_control="900+10")
    store = TournamentStore(db)
    for r in range(1, 4):
        shown = run(["pair", tid], db)
        assert shown.startswith(f"Round {r}")
        t = store.load(tid)
        for b in t.round(r).boards:
            outcome = ["white", "black", "draw", "black-late"][(r + b.table) % 4]
            game = play(reg, t.player(b.white).name, t.player(b.black).name, r, outcome, rng=rng)
            log = tmp_path / f"r{r}b{b.table}.jsonl"
            log.write_text("\n".join(game.log_lines()) + "\n")
            late = ["--at", "1"] if outcome.endswith("late") else []
            said = run(["result", tid, str(r), str(b.table), "--game", str(log), *late], db)
            assert said.startswith(f"round {r} table {b.table}:")
    t = store.load(tid)
    assert t.finished
    forfeits = [b for rnd in t.rounds for b in rnd.boards if b.result == "+-"]
    assert forfeits and all(b.termination == "late_arrival" for b in forfeits)
    lines = run(["standings", tid, "--json"], db).splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert sum(r["points"] for r in rows) == 6  # six games, a point each
    assert set(rows[0]["tiebreaks"]) == {"DE", "SB", "WIN", "BPG"}
    trf = tmp_path / "quad.trf"
    run(["export", tid, "-o", str(trf)], db)
    back = read_trf(trf.read_text())
    assert back.regulations.system == "round-robin" and len(back.rounds) == 3
    from_file = [json.loads(line) for line in run(["standings", str(trf), "--json"], db).splitlines()]
    assert [(r["start_number"], r["points"]) for r in from_file] == [(r["start_number"], r["points"]) for r in rows]
    pgn = tmp_path / "quad.pgn"
    run(["export", tid, "--pgn", "-o", str(pgn)], db)
    text = pgn.read_text()
    played = [(r.number, b.table) for r in t.rounds for b in r.boards if b.result not in ("+-", "-+", "--")]
    assert text.count("[Event \"Quad\"]") == len(played) == 6 - len(forfeits)  # forfeits are no games
    assert all(f"[Round \"{r}.{b}\"]" in text for r, b in played)
    assert "[WhiteTitle \"FM\"]" in text or "[BlackTitle \"FM\"]" in text
    one_round = tmp_path / "r2.pgn"
    run(["export", tid, "--pgn", "--round", "2", "-o", str(one_round)], db)
    assert one_round.read_text().count("[Event ") == sum(1 for r, _ in played if r == 2)
    table = run(["standings", tid, "--crosstable"], db)
    assert "Quad: after round 3 of 3" in table


def test_cli_errors_name_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    db = str(tmp_path / "t.sqlite3")
    run(["create", "Open", "--rounds", "2"], db)
    run(["add", "Open", "A", "B", "C"], db)
    bad = CliRunner().invoke(main, ["tournament", "result", "Open", "1", "1", "1-0", "--db", db])
    assert bad.exit_code == 1 and "round 1: not paired yet" in bad.output
    run(["pair", "Open"], db)
    bad = CliRunner().invoke(main, ["tournament", "result", "Open", "1", "7", "1-0", "--db", db])
    assert "no table 7" in bad.output
    bad = CliRunner().invoke(main, ["tournament", "pair", "Open", "--db", db])
    assert "round 1 is not finished: no result on table(s) 1" in bad.output
    bad = CliRunner().invoke(main, ["tournament", "pair", "Open", "--engine", "bbp", "--db", db],
                             env={"CHESSLAWS_BBP": "", "PATH": str(tmp_path)})
    assert bad.exit_code == 2 and "--bbp PATH" in bad.output and "bbpPairings" in bad.output
    bad = CliRunner().invoke(main, ["tournament", "pair", "Open", "--bbp", str(tmp_path / "nothing"), "--db", db])
    assert bad.exit_code == 2 and "--bbp" in bad.output and "no executable file" in bad.output
    bad = CliRunner().invoke(main, ["tournament", "create", "X", "--tiebreaks", "BH,FOO", "--db", db])
    assert bad.exit_code == 2 and "FOO" in bad.output
    bad = CliRunner().invoke(main, ["tournament", "create", "X", "--scoring", "1-2-0", "--db", db])
    assert "scoring" in bad.output
    t = TournamentStore(db).load("Open")
    wrong = play(Regulations(edition="1997", time_control="5400+30"), "A", "B", 1, "white")
    log = tmp_path / "wrong.jsonl"
    log.write_text("\n".join(wrong.log_lines()) + "\n")
    board = t.round(1).boards[0].table
    bad = CliRunner().invoke(main, ["tournament", "result", "Open", "1", str(board), "--game", str(log), "--db", db])
    assert bad.exit_code == 1 and "played under the 1997 Laws; the event's regulations say 2023" in bad.output
    trf = tmp_path / "bad.trf"
    trf.write_text("012 Bad\n001    1      Ann                               20x0\n")
    bad = CliRunner().invoke(main, ["tournament", "standings", str(trf), "--db", db])
    assert bad.exit_code == 1 and "line 2: rating (columns 49-52)" in bad.output


@pytest.mark.skipif(find_bbp() is None, reason="bbpPairings is not installed (set CHESSLAWS_BBP to its binary)")
def test_import_a_trf_from_another_program_and_pair_on(tmp_path: Path) -> None:
    """An event that bbpPairings' random generator played for 5 rounds (its own TRF: CR line ends, byes,
    forfeits) is imported, and its round 6 is paired here exactly as bbpPairings pairs that file itself."""
    bbp = str(find_bbp())
    gen = tmp_path / "gen.trf"
    made = subprocess.run([bbp, "--dutch", "-g", "-o", str(gen), "-s", "7"], capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr
    text = gen.read_text().replace("\r\n", "\n").replace("\r", "\n")
    planned = tmp_path / "planned.trf"
    planned.write_text(text.rstrip("\n") + "\nXXR 7\n")
    direct = tmp_path / "direct.txt"
    assert subprocess.run([bbp, "--dutch", str(planned), "-p", str(direct)], timeout=120).returncode == 0
    numbers = [int(x) for x in direct.read_text().split()]
    expected = sorted((numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0]))

    db = str(tmp_path / "t.sqlite3")
    bad = CliRunner().invoke(main, ["tournament", "import", str(gen), "--rounds", "3", "--db", db])
    assert bad.exit_code == 1 and "more than the 3 planned" in bad.output
    out = run(["import", str(gen), "--rounds", "7", "--name", "Imported"], db)
    t = TournamentStore(db).load("Imported")
    assert f"{len(t.players)} players, 5 of 7 rounds played" in out and len(t.rounds) == 5
    run(["pair", "Imported"], db)
    rnd = TournamentStore(db).load("Imported").round(6)
    ours = sorted([(b.white, b.black) for b in rnd.boards] + [(y.player, 0) for y in rnd.byes if y.kind == "pab"])
    assert ours == expected


def test_import_names_the_bad_line(tmp_path: Path) -> None:
    bad_file = tmp_path / "bad.trf"
    bad_file.write_text("012 Bad\n001    1      Ann                               21x0\n")
    bad = CliRunner().invoke(main, ["tournament", "import", str(bad_file), "--db", str(tmp_path / "t.sqlite3")])
    assert bad.exit_code == 1 and "line 2" in bad.output and "rating" in bad.output, bad.output


def test_results_entered_by_hand_export_as_pgn_and_standings_say_which_round(tmp_path: Path) -> None:
    """Results typed in by the arbiter (no game log) still make a PGN game each (tags and result, no moves;
    a forfeit is no game), and the standings are titled by the rounds finished, not merely paired."""
    import chess.pgn

    db = str(tmp_path / "t.sqlite3")
    run(["create", "Club", "--rounds", "3"], db)
    run(["add", "Club", "Ann", "Bob", "Cleo", "Dan", "--rating", "1800"], db)
    run(["pair", "Club"], db)
    for table, res in ((1, "1/2-1/2"), (2, "+-")):
        run(["result", "Club", "1", str(table), res], db)
    run(["pair", "Club"], db)
    assert run(["standings", "Club"], db).splitlines()[0] == "Club: after round 1 of 3 (round 2 in play)"
    out = CliRunner().invoke(main, ["tournament", "export", "Club", "--pgn", "--round", "1", "--db", db])
    assert out.exit_code == 0 and "1 game(s) without a stored log" in out.output
    pgn = tmp_path / "r1.pgn"
    run(["export", "Club", "--pgn", "--round", "1", "-o", str(pgn)], db)
    with pgn.open() as f:
        game = chess.pgn.read_game(f)
        assert game is not None and chess.pgn.read_game(f) is None  # the forfeit on table 2 is no game
    t = TournamentStore(db).load("Club")
    board = t.round(1).boards[0]
    assert game.headers["Round"] == "1.1" and game.headers["Result"] == "1/2-1/2"
    assert game.headers["White"] == t.player(board.white).name and not list(game.mainline_moves())
    empty = CliRunner().invoke(main, ["tournament", "export", "Club", "--pgn", "--round", "2", "--db", db])
    assert empty.exit_code == 1 and "round 2 has no result yet" in empty.output


def test_cli_names_the_engine_and_notes_a_large_field(tmp_path: Path) -> None:
    """Without bbpPairings the first line names caissify with the Rust matching; past LARGE_FOR_CAISSIFY
    players a note says how long a round takes and where the faster engine is."""
    from chesslaws.tournament.pairing import LARGE_FOR_CAISSIFY

    db = str(tmp_path / "t.sqlite3")
    env = {"CHESSLAWS_BBP": "", "PATH": str(tmp_path)}
    for key, n in (("Small", 20), ("Large", LARGE_FOR_CAISSIFY + 1)):
        run(["create", key, "--rounds", "5"], db)
        rng = random.Random(n)
        for i in range(n):
            run(["add", key, f"Player {i + 1:03}", "--rating", str(rng.randint(1200, 2700))], db)
        out = CliRunner().invoke(main, ["tournament", "pair", key, "--db", db], env=env)
        assert out.exit_code == 0, out.output
        assert "Dutch system by caissify-pairings dutch (matching: chesslaws' Rust core)" in out.output
        noted = f"note: {n} players: a round takes seconds" in out.output
        assert noted == (n > LARGE_FOR_CAISSIFY) and ("less CPU than bbpPairings" in out.output) == noted


def _paired_round_robin(store: TournamentStore) -> Tournament:
    t = Tournament("Two servers", Regulations(system="round-robin", time_control="600"))
    for name in ("Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"):
        t = t.add_player(name)
    return store.save(pair_next_round(t))


def test_a_save_over_a_version_changed_meanwhile_is_refused_and_update_keeps_both(db: str) -> None:
    """Two processes (two stores, two connections) read the same event; each enters a board's result.
    The second whole-event save would have put back the first one's board without its result: it is refused,
    and update() makes the change again on what the first saved."""
    from chesslaws.tournament.model import StaleTournament

    with TournamentStore(db) as one, TournamentStore(db) as two:
        tid = _paired_round_robin(one).id
        a, b = one.load(tid), two.load(tid)
        one.save(a.set_result(1, 1, "1-0"))
        with pytest.raises(StaleTournament, match="changed meanwhile"):
            two.save(b.set_result(1, 2, "0-1"))
        assert one.load(tid).round(1).boards[1].result is None  # nothing written
        two.update(tid, lambda t: t.set_result(1, 2, "0-1"))
        assert [x.result for x in one.load(tid).round(1).boards] == ["1-0", "0-1", None, None]
        assert one.update(tid, lambda t: t).version == one.load(tid).version  # no change: nothing written


def test_two_stores_entering_results_at_once_lose_none(db: str) -> None:
    """Two stores on one database, each on its own thread and connection, enter the results of their own
    boards again and again at the same time: every board ends with the last result its writer entered."""
    import threading

    with TournamentStore(db) as one, TournamentStore(db) as two:
        tid = _paired_round_robin(one).id
        plan = {one: (1, 3), two: (2, 4)}
        results = ["1-0", "0-1", "1/2-1/2"]
        failures: list[BaseException] = []
        go = threading.Barrier(2)

        def enter(store: TournamentStore) -> None:
            try:
                go.wait()
                for i in range(15):
                    for table in plan[store]:
                        store.update(tid, lambda t, table=table, i=i: t.set_result(1, table, results[(i + table) % 3]))
            except BaseException as err:  # noqa: BLE001 - reported by the test
                failures.append(err)

        threads = [threading.Thread(target=enter, args=(s,)) for s in (one, two)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert not failures, failures
        final = one.load(tid)
        assert [b.result for b in final.round(1).boards] == [results[(14 + table) % 3] for table in (1, 2, 3, 4)]
        assert final.version == 2 * 15 * 2  # every change written once, none over another
