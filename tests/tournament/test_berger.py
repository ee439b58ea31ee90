"""Round robins: the Berger tables equal FIDE's published tables (C.05 Annex 1) for 3 to 16 players."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.tournament import Regulations, Tournament, berger_table, pair_next_round

DATA = Path(__file__).parent.parent / "data" / "fide_berger_tables.txt"


def published() -> dict[int, list[list[tuple[int, int]]]]:
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    current: list[list[tuple[int, int]]] = []
    for line in DATA.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = tables.setdefault(int(line.strip("[]")), [])
            continue
        current.append([(int(a), int(b)) for a, b in (p.split("-") for p in line.split())])
    return tables


TABLES = published()


@pytest.mark.parametrize("players", range(3, 17))
def test_single_round_robin_equals_fide_table(players: int) -> None:
    n = players + players % 2
    expected = [[(w, b) for w, b in rnd if w <= players and b <= players] for rnd in TABLES[n]]
    assert berger_table(players) == expected


def test_published_tables_are_complete() -> None:
    # The typed-in tables themselves: every pair meets once, each number once per round.
    for n, rounds in TABLES.items():
        assert len(rounds) == n - 1
        pairs = {frozenset(p) for rnd in rounds for p in rnd}
        assert len(pairs) == n * (n - 1) // 2
        for rnd in rounds:
            assert sorted(x for p in rnd for x in p) == list(range(1, n + 1))


@pytest.mark.parametrize("players", range(3, 17))
def test_double_round_robin(players: int) -> None:
    table = berger_table(players, double=True)
    half = len(table) // 2
    first, second = table[:half], table[half:]
    single = berger_table(players)
    # The first cycle is FIDE's table with its last two rounds exchanged (C.05), the second the same with colours reversed.
    assert first[:-2] == single[:-2] and first[-2:] == [single[-1], single[-2]]
    assert second == [[(b, w) for w, b in rnd] for rnd in single]
    games = [g for rnd in table for g in rnd]
    assert len(games) == len(set(games)) == players * (players - 1)
    # The exchange is there so that nobody gets the same colour three times running at the turn.
    for p in range(1, players + 1):
        colours = []
        for rnd in table:
            for w, b in rnd:
                if p in (w, b):
                    colours.append("w" if p == w else "b")
        assert "www" not in "".join(colours) and "bbb" not in "".join(colours), (p, colours)


def test_round_robin_tournament_pairs_by_the_table() -> None:
    t = Tournament("RR", Regulations(system="round-robin"))
    for name in "ABCDE":
        t = t.add_player(name)
    assert t.total_rounds == 5
    t = pair_next_round(t)
    rnd = t.rounds[0]
    assert [(b.white, b.black) for b in rnd.boards] == [(2, 5), (3, 4)]
    assert [(y.player, y.kind) for y in rnd.byes] == [(1, "free")]


def test_cli_berger_prints_the_table() -> None:
    out = CliRunner().invoke(main, ["tournament", "berger", "6"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [" ".join(f"{w}-{b}" for w, b in rnd) for rnd in TABLES[6]]
    out = CliRunner().invoke(main, ["tournament", "berger", "5"])
    assert out.output.splitlines()[0] == "2-5 3-4"
    out = CliRunner().invoke(main, ["tournament", "berger", "4", "--double"])
    assert len(out.output.splitlines()) == 6
    bad = CliRunner().invoke(main, ["tournament", "berger", "1"])
    assert bad.exit_code != 0 and "at least 2" in bad.output
