"""Chess960 records: PGN in and out, `chesslaws check`,
`convert` and `replay --pgn` on Chess960 games.

tests/data/chess960_chesscom.pgn is written as chess.com exports Chess960
(`[Variant "Chess960"]`, X-FEN `KQkq`, `[%clk]`); tests/data/chess960_cutechess.pgn
as cutechess/fastchess do (`[Variant "fischerandom"]`, Shredder-FEN, engine
comments; its third game is double Chess960). Both hold Stockfish games played
to mate, each with at least one castling.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.errors import ChessLawsError
from chesslaws.game import Game
from chesslaws.pgn import ExportMove, is_chess960_variant, read_pgn, write_pgn
from chesslaws.position import Position
from chesslaws.records import game_to_pgn, pgn_to_log

DATA = Path(__file__).parent / "data"
FILES = ["chess960_chesscom.pgn", "chess960_cutechess.pgn"]


def _shared() -> Path | None:
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"  # shared/ beside the checkout
    return corpus if corpus.is_dir() else None


def _python_chess_games(path: Path) -> list[chess.pgn.Game]:
    out = []
    with path.open() as fh:
        while (g := chess.pgn.read_game(fh)) is not None:
            out.append(g)
    return out


@pytest.mark.parametrize("name", FILES)
def test_reader_plays_chess960_games_like_python_chess(name: str) -> None:
    ours = list(read_pgn(DATA / name))
    theirs = _python_chess_games(DATA / name)
    assert len(ours) == len(theirs) == 3
    castlings = 0
    for g, pg in zip(ours, theirs):
        assert g.ok, g.errors
        assert g.chess960
        board = pg.board()
        assert board.chess960
        for m, pm in zip(g.moves, pg.mainline_moves(), strict=True):
            assert m.uci == board.uci(pm), (g.number, m.ply)  # castling: the king takes its rook
            assert m.san == board.san(pm), (g.number, m.ply)
            castlings += board.is_castling(pm)
            board.push(pm)
        assert g.final_fen == board.fen()
        assert board.is_checkmate()
    assert castlings >= 3


@pytest.mark.parametrize(
    "spelling", ["Chess960", "chess 960", "fischerandom", "Fischerandom", "960", "Fischer Random", "chess960"]
)
def test_variant_spellings(spelling: str) -> None:
    assert is_chess960_variant(spelling)
    text = f'[Variant "{spelling}"]\n[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]\n\n1. e4 *\n'
    (g,) = read_pgn(text.encode())
    assert g.ok and g.chess960


def test_other_variants_are_not_chess960() -> None:
    for v in ("Standard", "Atomic", "Crazyhouse", "From Position", ""):
        assert not is_chess960_variant(v)
    (g,) = read_pgn(b'[Variant "Atomic"]\n\n1. e4 *\n')
    assert not g.ok and "neither standard chess nor Chess960" in g.errors[0].reason


def test_shredder_fen_without_variant_tag_is_read_as_chess960() -> None:
    (g,) = read_pgn(b'[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"]\n\n1. O-O *\n')
    assert g.ok and g.chess960
    assert g.moves[-1].uci == "e1g1" and g.moves[-1].san == "O-O"


def test_castling_not_legal_is_reported_with_the_move() -> None:
    # Position 0: O-O would put the h-rook on f1, where the other rook stands.
    (g,) = read_pgn(b'[Variant "Chess960"]\n[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"]\n\n'
                    b"1. Nd3 Nd6 2. O-O *\n")
    assert not g.ok
    assert g.errors[0].move == "O-O" and "illegal" in g.errors[0].reason


def test_write_pgn_chess960() -> None:
    tags = {"Variant": "Chess960", "FEN": "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"}
    text = write_pgn(tags, [ExportMove(m) for m in ["e1g1", "O-O-O"]], "*")
    assert '[Variant "Chess960"]' in text and '[SetUp "1"]' in text
    assert "1. O-O O-O-O *" in text
    pg = chess.pgn.read_game(io.StringIO(text))
    assert pg is not None and pg.board().chess960
    assert [m.uci() for m in pg.mainline_moves()] == ["e1g1", "e8b8"]
    # Without the Variant tag these castling rights are no standard chess.
    with pytest.raises(ChessLawsError):
        write_pgn({"FEN": tags["FEN"]}, [ExportMove("e1g1")], "*")


# --- check ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_check_finds_nothing_in_clean_chess960_games(name: str) -> None:
    res = CliRunner().invoke(main, ["check", str(DATA / name)])
    assert res.exit_code == 0, res.output
    assert "findings                         0" in res.output
    assert "games                            3" in res.output


def test_check_reports_an_illegal_chess960_castling(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Variant "fischerandom"]\n[Result "*"]\n'
                   '[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]\n\n1. Nd3 Nd6 2. O-O *\n')
    res = CliRunner().invoke(main, ["check", str(bad)])
    assert res.exit_code == 1, res.output
    assert "O-O" in res.output


def test_check_on_the_peer_dfrc_file() -> None:
    corpus = _shared()
    if corpus is None:
        pytest.skip("../shared/corpus is not beside the checkout")
    zstandard = pytest.importorskip("zstandard")
    path = corpus / "peer-tests" / "fastchess_data_dfrc.pgn.zst"
    data = zstandard.ZstdDecompressor().stream_reader(path.open("rb")).read()
    games = list(read_pgn(data))
    assert games and all(g.ok and g.chess960 for g in games)
    # The double-Chess960 start of the second game, in Shredder-FEN as written.
    assert Position(games[1].final_fen, chess960=True).shredder_fen().startswith("bqnbnrkr/")


# --- convert and replay --pgn ------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_convert_replay_and_round_trip(name: str, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "logs"
    res = runner.invoke(main, ["convert", str(DATA / name), "--out", str(out), "--report"])
    assert res.exit_code == 0, res.output
    assert "3 game logs written" in res.output
    stem = name[:-4]
    for n, g in enumerate(read_pgn(DATA / name), start=1):
        log = out / f"{stem}-{n}.jsonl"
        start = json.loads(log.read_text().splitlines()[0])
        assert start["variant"] == "chess960"
        if n < 3 or "chesscom" in name:
            assert "fen" not in start
            assert Position.chess960_start(start["start_position"]).fen() == Position(
                g.tags["FEN"], chess960=True).fen()
        else:
            # Double Chess960: no number for it, the FEN instead (in X-FEN).
            assert "start_position" not in start
            assert start["fen"] == Position(g.tags["FEN"], chess960=True).fen()
        state = json.loads(runner.invoke(main, ["replay", str(log), "--json"]).output)
        assert state["termination"] == "checkmate" and state["result"] == g.tags["Result"]
        assert state["fen"] == g.final_fen
        pgn = runner.invoke(main, ["replay", str(log), "--pgn"]).output
        assert '[Variant "Chess960"]' in pgn and '[SetUp "1"]' in pgn
        # python-chess reads the export as Chess960 and reaches the same mate.
        pg = chess.pgn.read_game(io.StringIO(pgn))
        assert pg is not None and pg.board().chess960 and pg.end().board().is_checkmate()
        # Converting the export again gives the same log.
        (again,) = list(read_pgn(pgn))
        assert pgn_to_log(again).events == pgn_to_log(g).events


def test_convert_under_an_earlier_edition_is_refused_clearly(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["convert", str(DATA / "chess960_chesscom.pgn"), "--out", str(tmp_path),
                                    "--edition", "1997"])
    assert res.exit_code == 1
    assert "is Chess960, which is in the 2023 Laws only (Guidelines II), not the 1997 Laws" in res.stderr
    assert "3 games with errors skipped" in res.output


def test_game_to_pgn_of_a_live_chess960_game() -> None:
    g = Game.start(variant="chess960", start_position=518, white="A", black="B")
    for by, mv in zip(["white", "black"] * 4, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "e1h1"]):
        g = g.apply({"type": "move", "t": 1, "by": by, "move": mv})
    text = game_to_pgn(g)
    assert '[Variant "Chess960"]' in text
    assert '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]' in text
    assert "4. O-O" in text


def test_replay_summary_names_the_start_number(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    events = [{"type": "start", "t": 0, "edition": "2023", "time_control": "300+2", "variant": "chess960",
               "start_position": 199, "white": "F", "black": "S"}]
    for i, mv in enumerate(["Na3", "Ne6", "h3", "a6", "Nh2", "Nd4", "e1g1", "Nxe2#"]):
        events.append({"type": "move", "t": 2 * i + 3, "by": "white" if i % 2 == 0 else "black", "move": mv})
    log.write_text("".join(json.dumps(e) + "\n" for e in events))
    res = CliRunner().invoke(main, ["replay", str(log)])
    assert res.exit_code == 0, res.output
    assert "Laws of 2023, Chess960 No. 199, time control 300+2" in res.output
    assert "4. O-O Nxe2#" in res.output and "result 0-1 (checkmate)" in res.output
    old = tmp_path / "g97.jsonl"
    old.write_text(log.read_text().replace('"edition": "2023"', '"edition": "1997"'))
    res = CliRunner().invoke(main, ["replay", str(old)])
    assert res.exit_code == 2
    assert "line 1: field 'variant': Chess960 is part of the 2023 Laws only" in res.stderr
