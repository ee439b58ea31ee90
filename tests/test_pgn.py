"""PGN reading and writing: round trips, files from other tools, malformed input."""

from __future__ import annotations

import functools
import io
import random
import re
from pathlib import Path

import chess
import chess.pgn
import pytest

from chesslaws import IllegalMove
from chesslaws.pgn import (
    SEVEN_TAG_ROSTER,
    ExportMove,
    PgnError,
    PgnGame,
    format_clock,
    read_pgn,
    write_pgn,
)

WORDS = ["time", "trouble", "sharp", "idea", "pawn", "storm", "only", "move", "Article", "6.9"]


def random_game(rng: random.Random, index: int) -> tuple[chess.pgn.Game, list[dict[str, object]]]:
    """A random legal game built with python-chess, and what each move
    carries (UCI, clock in ms, comment, NAGs)."""
    game = chess.pgn.Game()
    game.headers["Event"] = f"Generated {index}"
    game.headers["Site"] = "Somewhere {with braces} ; and (parens)"
    game.headers["Date"] = f"20{rng.randrange(10, 30)}.0{rng.randrange(1, 10)}.1{rng.randrange(10)}"
    game.headers["Round"] = str(rng.randrange(1, 12))
    game.headers["White"] = f"Player {rng.randrange(1000)}"
    game.headers["Black"] = f"Player {rng.randrange(1000)}"
    game.headers["TimeControl"] = "40/5400+30:1800+30"
    if rng.random() < 0.2:
        start = chess.Board()
        for _ in range(rng.randrange(1, 9)):
            start.push(rng.choice(list(start.legal_moves)))
        game.setup(start)
    board = game.board()
    node: chess.pgn.GameNode = game
    expected: list[dict[str, object]] = []
    clock = 5400.0
    for _ in range(rng.randrange(0, 140)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        if rng.random() < 0.05 and len(moves) > 1:
            other = rng.choice([m for m in moves if m != move])
            side = node.add_variation(other)
            side.comment = "a side line"
        node = node.add_main_variation(move)
        item: dict[str, object] = {"uci": move.uci(), "clock": None, "comment": None, "nags": ()}
        if rng.random() < 0.15:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 8)))
            node.comment = text
            item["comment"] = text
        if rng.random() < 0.9:
            clock = max(0.0, clock - rng.randrange(0, 900) / 10)
            node.set_clock(clock)
            item["clock"] = round(clock * 1000)
        if rng.random() < 0.07:
            nag = rng.choice([1, 2, 3, 4, 5, 6, 14, 18])
            node.nags.add(nag)
            item["nags"] = (nag,)
        board.push(move)
        expected.append(item)
    if board.is_game_over():
        result = board.result()
    else:
        result = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    game.headers["Result"] = result
    return game, expected


@functools.cache
def generated(count: int, seed: int) -> list[tuple[chess.pgn.Game, list[dict[str, object]]]]:
    rng = random.Random(seed)
    return [random_game(rng, i) for i in range(count)]


def check_against(ours: PgnGame, game: chess.pgn.Game, expected: list[dict[str, object]]) -> None:
    assert ours.errors == ()
    assert [m.uci for m in ours.moves] == [e["uci"] for e in expected]
    assert [m.clock_ms for m in ours.moves] == [e["clock"] for e in expected]
    assert [m.comment for m in ours.moves] == [e["comment"] for e in expected]
    assert [m.nags for m in ours.moves] == [e["nags"] for e in expected]
    assert [m.ply for m in ours.moves] == list(range(1, len(expected) + 1))
    board = game.board()
    for m in ours.moves:
        move = chess.Move.from_uci(m.uci)
        assert m.san == board.san(move)
        board.push(move)
    assert ours.final_fen == board.fen()
    assert ours.result == game.headers["Result"]
    for name, value in game.headers.items():
        assert ours.tags[name] == value


# ---------------------------------------------------------------------------
# Files written by python-chess


def test_reads_python_chess_output() -> None:
    games = generated(150, seed=1997)
    text = "\n\n".join(str(g) for g, _ in games) + "\n"
    ours = list(read_pgn(text.encode()))
    assert len(ours) == len(games)
    for i, (theirs, (game, expected)) in enumerate(zip(ours, games, strict=True)):
        assert theirs.number == i + 1
        check_against(theirs, game, expected)
        assert theirs.variations_skipped == sum(
            len(node.variations) - 1 for node in game.mainline() if node.variations
        ) + (len(game.variations) - 1 if game.variations else 0)
    # Game starts are the lines of their [Event] tags.
    starts = [n + 1 for n, line in enumerate(text.splitlines()) if line.startswith("[Event ")]
    assert [g.line for g in ours] == starts


def test_move_lines_match_the_file() -> None:
    games = generated(20, seed=5)
    text = "\n\n".join(str(g) for g, _ in games) + "\n"
    lines = text.splitlines()
    for game in read_pgn(text.encode()):
        for m in game.moves:
            # The move's SAN is on the line it reports (as a whole token).
            assert re.search(rf"(^|[\s.]){re.escape(m.san)}($|[\s{{$)])", lines[m.line - 1]), (m, lines[m.line - 1])


# ---------------------------------------------------------------------------
# Round trips through write_pgn


def test_round_trip_write_then_read() -> None:
    games = generated(150, seed=1997)
    chunks = []
    for game, expected in games:
        tags = dict(game.headers)
        board = game.board()
        moves = []
        for node in game.mainline():
            moves.append(
                ExportMove(
                    board.san(node.move),
                    clock_ms=None if node.clock() is None else round((node.clock() or 0) * 1000),
                    comment=re.sub(r"\s*\[%clk [^\]]*\]\s*", " ", node.comment).strip() or None,
                    draw_offer=len(board.move_stack) % 7 == 3,
                )
            )
            board.push(node.move)
        result = tags.pop("Result")
        chunks.append(write_pgn(tags, moves, result))
    text = "".join(chunks)
    for line in text.splitlines():
        assert len(line) <= 80, line
    ours = list(read_pgn(text.encode()))
    assert len(ours) == len(games)
    for theirs, (game, expected), chunk in zip(ours, games, chunks, strict=True):
        check_against(theirs, game, [dict(e, nags=()) for e in expected])
        board = game.board()
        for m in theirs.moves:
            assert m.draw_offer == (len(board.move_stack) % 7 == 3)
            board.push(chess.Move.from_uci(m.uci))
        assert list(theirs.tags)[:7] == list(SEVEN_TAG_ROSTER)
        # Exporting what was read gives the same text again.
        tags = {k: v for k, v in theirs.tags.items() if k != "Result"}
        assert write_pgn(tags, theirs.export_moves(), theirs.result or "*") == chunk
    # python-chess reads our output as the same games.
    stream = io.StringIO(text)
    for game, _ in games:
        again = chess.pgn.read_game(stream)
        assert again is not None
        assert not again.errors
        assert [n.move for n in again.mainline()] == [n.move for n in game.mainline()]
        assert [n.clock() for n in again.mainline()] == pytest.approx(
            [n.clock() for n in game.mainline()]
        )


def test_write_pgn_form() -> None:
    tags = {"White": "Anna", "Black": 'Bo "the rock"', "TimeControl": "40/7200:3600", "Event": "Open"}
    moves = [
        ExportMove("e4", clock_ms=5_400_000),
        ExportMove("e5", clock_ms=5_395_500, draw_offer=True),
        ExportMove("Nf3", comment="Article 6.9 } {{ not a break"),
        ExportMove("Nc6"),
    ]
    text = write_pgn(tags, moves, "1/2-1/2")
    head, body = text.split("\n\n", 1)
    assert head.splitlines() == [
        '[Event "Open"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "Anna"]',
        '[Black "Bo \\"the rock\\""]',
        '[Result "1/2-1/2"]',
        '[TimeControl "40/7200:3600"]',
    ]
    assert body == (
        "1. e4 {[%clk 1:30:00]} 1... e5 {[%clk 1:29:55.5]} {(=)} 2. Nf3 {Article 6.9 ) ((\n"
        "not a break} 2... Nc6 1/2-1/2\n\n"
    )
    (game,) = read_pgn(text.encode())
    assert game.moves[2].comment == "Article 6.9 ) (( not a break"
    assert game.moves[1].draw_offer and not game.moves[0].draw_offer
    assert game.moves[1].clock_ms == 5_395_500
    assert game.tags["Black"] == 'Bo "the rock"'


def test_write_pgn_checks_moves_and_result() -> None:
    with pytest.raises(IllegalMove):
        write_pgn({}, [ExportMove("e4"), ExportMove("e4")], "*")
    # Unless told not to check: then the moves are written as given.
    text = write_pgn({}, [ExportMove("e4"), ExportMove("e4"), ExportMove("Ke3")], "*", validate=False)
    assert text.endswith("\n\n1. e4 e4 2. Ke3 *\n\n")
    (game,) = read_pgn(text.encode())
    assert game.uci == ("e2e4",) and game.errors[0].move == "e4"
    with pytest.raises(ValueError):
        write_pgn({}, [], "2-0")
    with pytest.raises(ValueError):
        write_pgn({"Bad Tag": "x"}, [], "*")
    # Moves may come in UCI; they are written in SAN. Black to move first.
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    text = write_pgn({"FEN": fen}, [ExportMove("e7e5"), ExportMove("g1f3")], "*", comment="From {a} book")
    assert '[SetUp "1"]\n[FEN "' in text
    assert text.endswith("\n\n{From (a) book} 1... e5 2. Nf3 *\n\n")
    (game,) = read_pgn(text.encode())
    assert game.uci == ("e7e5", "g1f3")
    assert game.comment == "From (a) book"


def test_format_clock() -> None:
    assert format_clock(0) == "0:00:00"
    assert format_clock(62_500) == "0:01:02.5"
    assert format_clock(5_025_250) == "1:23:45.25"
    assert format_clock(36_000_001) == "10:00:00.001"
    with pytest.raises(ValueError):
        format_clock(-1)


# ---------------------------------------------------------------------------
# Files as they come


SAMPLE = """[Event "Club {open} ; not a comment"]
[Site "Here"]
[Date "2024.01.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

{Opening comment} 1. e4 {[%clk 1:30:00.25]} e5 {[%clk 0:01:02.5] "a quote"}
2. Nf3! $14 {[%emt 0:00:05] (=)} (2. f4 exf4 (2... d5) 3. Nf3) Nc6?! ; rest of line
%escaped line
3. Bb5 {multi
line comment} a6 1-0

[Event "Second"]
[Result "*"]

1. d4 d5 *
"""


def expect_sample(games: list[PgnGame]) -> None:
    assert len(games) == 2
    g = games[0]
    assert g.errors == ()
    assert g.tags["Event"] == "Club {open} ; not a comment"
    assert g.comment == "Opening comment"
    assert g.uci == ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6")
    assert [m.clock_ms for m in g.moves] == [5_400_250, 62_500, None, None, None, None]
    assert g.moves[1].comment == '"a quote"'
    assert g.moves[2].nags == (1, 14)
    assert g.moves[2].draw_offer
    assert g.moves[2].comment == "[%emt 0:00:05]"
    assert g.moves[3].nags == (6,)
    assert g.moves[4].comment is not None and g.moves[4].comment.split() == ["multi", "line", "comment"]
    assert g.variations_skipped == 1
    assert g.result == "1-0"
    assert [m.line for m in g.moves] == [9, 9, 10, 10, 12, 13]
    assert g.line == 1
    h = games[1]
    assert h.number == 2 and h.line == 15 and h.uci == ("d2d4", "d7d5") and h.result == "*"
    assert h.moves[0].line == 18


def test_sample_file() -> None:
    expect_sample(list(read_pgn(SAMPLE.encode())))


def test_windows_line_endings_and_bom() -> None:
    data = b"\xef\xbb\xbf" + SAMPLE.replace("\n", "\r\n").encode()
    expect_sample(list(read_pgn(data)))


def test_bom_before_every_game() -> None:
    one = '[Event "x"]\n\n1. e4 e5 *\n\n'
    data = ("\ufeff" + one) * 3
    games = list(read_pgn(data.encode()))
    assert [g.uci for g in games] == [("e2e4", "e7e5")] * 3
    assert all(g.ok for g in games)


def test_paths_bytes_and_text(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(SAMPLE.encode())
    expect_sample(list(read_pgn(path)))
    expect_sample(list(read_pgn(str(path))))
    expect_sample(list(read_pgn(SAMPLE)))
    with pytest.raises(OSError):
        read_pgn(tmp_path / "missing.pgn")  # at once, not at the first game
    with pytest.raises(TypeError):
        read_pgn(42)  # type: ignore[arg-type]


def test_fen_tag_and_castling_with_zeros() -> None:
    pgn = (
        '[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 30"]\n[SetUp "1"]\n\n'
        "30. 0-0 0-0-0 31. Rf7 *\n"
    )
    (g,) = read_pgn(pgn.encode())
    assert g.ok
    assert g.uci == ("e1g1", "e8c8", "f1f7")
    assert [m.san for m in g.moves] == ["O-O", "O-O-O", "Rf7"]


def test_long_comments_and_long_lines_survive() -> None:
    long_comment = " ".join(f"word{i}" for i in range(30_000))  # ~ 270 kB
    moves = " ".join(f"{n}. Nf3 Nf6 {n}... Ng1 Ng8" for n in range(1, 2)) + " "
    shuffle = " ".join(
        f"{{[%clk 1:00:{i % 60:02d}]}} Nf3 Nf6 Ng1 Ng8" for i in range(1500)
    )  # one line of about 50 kB
    pgn = f'[Event "long"]\n\n1. e4 {{{long_comment}}} e5\n{moves}{shuffle} *\n\n[Event "next"]\n\n1. c4 *\n'
    games = list(read_pgn(pgn.encode()))
    assert len(games) == 2
    g = games[0]
    assert g.ok, g.errors
    assert g.moves[0].comment == long_comment
    assert len(g.moves) == 2 + 4 + 4 * 1500
    assert all(m.line == 4 for m in g.moves[2:])
    for i in range(1500):
        assert g.moves[5 + 4 * i].clock_ms == 3_600_000 + (i % 60) * 1000
    assert g.moves[-1].clock_ms is None
    assert games[1].uci == ("c2c4",) and games[1].line == 6


# ---------------------------------------------------------------------------
# Malformed input: errors, and the reader goes on


def test_illegal_move_keeps_moves_before_and_reader_goes_on() -> None:
    pgn = (
        '[Event "one"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'
        '[Event "two"]\n\n1. e4 e5\n2. Ke3 Nc6 3. Bc4 *\n\n'
        '[Event "three"]\n\n1. d4 Nf6 *\n'
    )
    games = list(read_pgn(pgn.encode()))
    assert [g.tags["Event"] for g in games] == ["one", "two", "three"]
    assert games[0].ok and games[2].ok
    two = games[1]
    assert two.uci == ("e2e4", "e7e5")
    (err,) = two.errors
    assert (err.game, err.line, err.move_number, err.move) == (2, 8, 2, "Ke3")
    assert "illegal" in err.reason
    assert str(err).startswith("game 2, line 8, move 2: 'Ke3'")
    assert games[2].uci == ("d2d4", "g8f6")
    assert two.final_fen == chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").fen()


def test_ambiguous_move_in_pgn() -> None:
    pgn = '[FEN "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"]\n\n1. Nd2 *\n'
    (g,) = read_pgn(pgn.encode())
    (err,) = g.errors
    assert err.move == "Nd2" and "ambiguous" in err.reason
    assert "Nbd2" in err.reason and "Nfd2" in err.reason


def test_unreadable_tokens_are_errors() -> None:
    pgn = '[Event "a"]\n\n1. e4 e5 2. Nf3 Sc6 3. Bb5 *\n\n[Event "b"]\n\n1. e4 *\n'
    a, b = read_pgn(pgn.encode())
    assert a.uci == ("e2e4", "e7e5", "g1f3")
    (err,) = a.errors
    assert err.move == "Sc6" and err.line == 3
    assert b.ok and b.uci == ("e2e4",)


def test_malformed_tags_bad_fen_and_unclosed_things() -> None:
    pgn = (
        '[Event "bad tag"]\n[Oops]\n\n1. e4 *\n\n'
        '[Event "bad fen"]\n[FEN "not a position"]\n\n1. e4 *\n\n'
        '[Event "unclosed variation"]\n\n1. e4 (1. d4 d5 2. c4\n\n'
        '[Event "stray paren"]\n\n1. e4 ) e5 *\n\n'
        '[Event "variant"]\n[Variant "Atomic"]\n\n1. e4 *\n\n'
        '[Event "fine"]\n\n1. e4 c5 *\n\n'
        '[Event "unclosed comment"]\n\n1. e4 {never closed\ne5 *\n'
    )
    games = list(read_pgn(pgn.encode()))
    events = [g.tags.get("Event") for g in games]
    assert events == [
        "bad tag",
        "bad fen",
        "unclosed variation",
        "stray paren",
        "variant",
        "fine",
        "unclosed comment",
    ]
    bad_tag, bad_fen, unclosed, stray, variant, fine, comment = games
    assert len(bad_tag.errors) == 1 and bad_tag.errors[0].line == 2 and "tag" in bad_tag.errors[0].reason
    assert len(bad_fen.errors) == 1 and "FEN" in bad_fen.errors[0].reason and bad_fen.moves == ()
    assert unclosed.uci == ("e2e4",) and unclosed.variations_skipped == 1
    assert any("not closed" in e.reason for e in unclosed.errors)
    assert stray.uci == ("e2e4", "e7e5") and any(e.move == ")" for e in stray.errors)
    assert variant.errors and variant.moves == ()
    assert fine.ok and fine.uci == ("e2e4", "c7c5")
    assert comment.uci == ("e2e4",)
    assert any("comment" in e.reason for e in comment.errors)
    assert all(isinstance(e, PgnError) and e.game == g.number for g in games for e in g.errors)


def test_null_moves_and_garbage_between_games() -> None:
    pgn = '[Event "a"]\n\n1. e4 -- 2. d4 *\n\njunk junk\n\n[Event "b"]\n\n1. e4 *\n'
    a, junk, b = read_pgn(pgn.encode())
    assert a.uci == ("e2e4",)
    (null,) = a.errors
    assert null.move == "--" and "null" in null.reason and null.move_number == 1
    # Text between games is reported as a game of its own, with its line.
    assert junk.tags == {} and junk.moves == () and junk.line == 5
    assert [e.move for e in junk.errors] == ["junk", "junk"]
    assert b.tags.get("Event") == "b" and b.ok and b.number == 3


def test_empty_input() -> None:
    assert list(read_pgn(b"")) == []
    assert list(read_pgn(b"\n\n  \n")) == []


def test_long_comments_with_multibyte_characters() -> None:
    unbroken = "é♘x" * 40_000  # no space to cut at: cut between characters
    spaced = " ".join(["é♘"] * 30_000)
    pgn = f"1. e4 {{{unbroken}}} e5 *\n\n1. d4 {{{spaced}}} *\n".encode()
    first, second = read_pgn(pgn)
    assert first.ok and second.ok
    assert first.moves[0].comment == unbroken and first.uci == ("e2e4", "e7e5")
    assert second.moves[0].comment == spaced and second.line == 3


def test_damaged_files_never_stop_the_reader() -> None:
    """Random damage to a good file: the reader neither crashes nor hangs,
    numbers games in order and reports lines inside the file."""
    rng = random.Random(1997)
    base = (SAMPLE * 3).encode()
    alphabet = b'{}()[]"\\;%\n\r \t.$!?*01/-+#=abcdefgh12345678KQRBNOx\xef\xbb\xbf\xc2\xbd'
    for _ in range(400):
        data = bytearray(base)
        for _ in range(rng.randrange(1, 12)):
            op = rng.random()
            pos = rng.randrange(len(data) + 1)
            if op < 0.4:
                data[pos:pos] = bytes([rng.choice(alphabet)])
            elif op < 0.7:
                del data[pos : pos + rng.randrange(1, 5)]
            else:
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))
        games = list(read_pgn(bytes(data)))
        last_line = data.count(b"\n") + 1
        assert [g.number for g in games] == list(range(1, len(games) + 1))
        for g in games:
            assert 1 <= g.line <= last_line
            assert all(g.line <= m.line <= last_line for m in g.moves)
            assert all(1 <= e.line <= last_line and e.game == g.number for e in g.errors)


def test_garbage_gives_bounded_errors_and_the_next_game_is_read() -> None:
    garbage = b" ".join([b"zz"] * 5000) + b" " + b"y" * 100_000 + b"\n\n"
    games = list(read_pgn(garbage + b'[Event "after"]\n\n1. e4 *\n'))
    assert len(games[0].errors) == 100
    assert all(len(e.move) <= 80 for g in games for e in g.errors)
    assert games[-1].tags == {"Event": "after"} and games[-1].ok


def test_a_game_with_tags_and_no_moves_is_not_merged_into_the_next() -> None:
    """fastchess's empty_body case: tags, a blank body, then the next game's tags."""
    text = ('[Event "Batch 2690"]\n[White "?"]\n[Result "?"]\n \n\n'
            '[Event "Batch 269"]\n[White "New"]\n[Result "0-1"]\n\n1. e4 e5 0-1\n')
    first, second = read_pgn(text)
    assert (first.tags, first.moves, first.errors, first.result) == (
        {"Event": "Batch 2690", "White": "?", "Result": "?"}, (), (), None)
    assert second.tags == {"Event": "Batch 269", "White": "New", "Result": "0-1"}
    assert (second.line, second.moves[0].line, second.result) == (6, 10, "0-1")
    # Tags written over several groups of one game stay one game.
    (one,) = read_pgn('[Event "a"]\n\n[Site "b"]\n\n1. e4 *\n')
    assert one.tags == {"Event": "a", "Site": "b"} and len(one.moves) == 1


@pytest.mark.parametrize("variant", ["normal", "Standard", "From Position", "chess", "Standard chess"])
def test_spellings_of_standard_chess(variant: str) -> None:
    (g,) = read_pgn(f'[Variant "{variant}"]\n\n1. e4 *\n')
    assert g.ok and len(g.moves) == 1


def test_other_variants_are_refused() -> None:
    (g,) = read_pgn('[Variant "Atomic"]\n\n1. e4 *\n')
    assert not g.ok and "neither standard chess nor Chess960" in g.errors[0].reason
    (g,) = read_pgn('[Variant "Chess960"]\n\n1. e4 *\n')  # Chess960 is read: tests/test_chess960_records.py
    assert g.ok and g.chess960


def test_read_pgn_reads_every_notation_check_reads(tmp_path: Path) -> None:
    """Random games written in a mix of the notations `chesslaws check` reads (SAN, UCI, FIDE long algebraic,
    figurines, FIDE promotions without '=', annotation glyphs): read_pgn, and so `convert`, plays every move
    check plays."""
    from chesslaws.check import FileCheck

    rng = random.Random(28)
    figurines = {"K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658"}
    games = []
    for n in range(80):
        board, tokens = chess.Board(), []
        for _ in range(rng.randrange(10, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            m = rng.choice(moves)
            if board.turn == chess.WHITE:
                tokens.append(f"{board.fullmove_number}.")
            san, r = board.san(m), rng.random()
            piece = board.piece_at(m.from_square)
            assert piece is not None
            if r < 0.2:  # UCI, the promotion letter in either case (e7e8q, e7e8Q)
                promotion = chess.piece_symbol(m.promotion) if m.promotion else ""
                token = m.uci()[:4] + (promotion.upper() if rng.random() < 0.5 else promotion)
            elif r < 0.4 and not board.is_castling(m):
                role = "" if piece.piece_type == chess.PAWN else piece.symbol().upper()
                token = (role + chess.square_name(m.from_square) + ("x" if board.is_capture(m) else "-")
                         + chess.square_name(m.to_square) + (chess.piece_symbol(m.promotion).upper() if m.promotion else ""))
            elif r < 0.5 and san[0] in figurines:
                token = figurines[san[0]] + san[1:]
            elif r < 0.6 and "=" in san:
                token = san.replace("=", "")
            else:
                token = san
            tokens.append(token)
            if rng.random() < 0.05:
                tokens.append(rng.choice(["+=", "=+", "\u00b1", "N", "!?", "$1", "{a comment}"]))
            board.push(m)
        games.append(f'[Event "{n}"]\n\n' + " ".join(tokens) + " *\n")
    p = tmp_path / "notations.pgn"
    p.write_text("\n".join(games), encoding="utf-8")
    checked = [(r.game, r.plies, [f.kind for f in r.findings if f.kind != "no_result"]) for r in FileCheck(p, jobs=1)]
    assert all(not kinds for _, _, kinds in checked), [c for c in checked if c[2]][:3]
    read = [(g.number, len(g.moves), [str(e) for e in g.errors]) for g in read_pgn(p)]
    assert [(n, plies) for n, plies, _ in read] == [(n, plies) for n, plies, _ in checked]
    assert not any(errors for _, _, errors in read), [r for r in read if r[2]][:3]
