"""Differential tests against python-chess on generated games.

1,000+ games of random legal moves from a fixed seed, with random lengths.
Move choice is biased towards castling, en passant, promotion and checks
so that every special rule and many mates and stalemates are reached; the
test asserts that they were. At every ply both libraries must agree on:

- the legal moves (set of UCI) and the SAN of each legal move;
- check, checkmate and stalemate;
- the FEN (both write the en passant square only where a capture is legal)
  and each property (turn, castling rights, en passant square, clocks, ply,
  the pieces);
- the identity of positions for repetition: our ``repetition_key()`` is
  equal for two positions exactly when python-chess's transposition key
  (pieces, side to move, castling rights, legal en passant square) is; our
  ``zobrist()`` equals the Polyglot hash with a legal-only en passant square;
- reading each legal move back, in SAN and in UCI, gives the same move.

The played move goes through ``play_annotated``/``play`` alternately and the
old position must be unchanged.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Hashable

import chess
import chess.polyglot

from chesslaws import Position

from parallel import in_parallel

SEED = 20240229
GAMES = 1000


def _sets_up_en_passant(board: chess.Board, move: chess.Move) -> bool:
    # A double pawn step landing beside an enemy pawn.
    if abs(move.to_square - move.from_square) != 16 or board.piece_type_at(move.from_square) != chess.PAWN:
        return False
    enemy_pawns = board.pieces(chess.PAWN, not board.turn)
    file = chess.square_file(move.to_square)
    return any(
        0 <= file + df < 8 and (move.to_square + df) in enemy_pawns for df in (-1, 1)
    )


def _choose(
    board: chess.Board, rng: random.Random, pos: Position, moves: dict[str, chess.Move], sans: dict[str, str]
) -> chess.Move:
    """A random legal move, biased towards the rules worth testing.

    `moves` and `sans` (UCI to move, UCI to SAN) were just checked equal
    between the two libraries; checks are read from the SAN suffix and
    game-ending moves found with our own (fast) position.
    """
    if chess.popcount(board.occupied) <= 8 and rng.random() < 0.5:
        # Few pieces left: look for mate or stalemate.
        enders = [m for uci, m in moves.items() if not pos.play(uci).legal_moves()]
        if enders:
            return rng.choice(enders)
    special = [
        m
        for m in moves.values()
        if (m.promotion and (m.promotion == chess.QUEEN or rng.random() < 0.25))
        or board.is_castling(m)
        or board.is_en_passant(m)
        or _sets_up_en_passant(board, m)
    ]
    if special and rng.random() < 0.7:
        return rng.choice(special)
    if rng.random() < 0.25:
        checks = [m for uci, m in moves.items() if sans[uci][-1] in "+#"]
        if checks:
            return rng.choice(checks)
    if rng.random() < 0.3:
        captures = [m for m in moves.values() if board.is_capture(m)]
        if captures:
            return rng.choice(captures)
    return rng.choice(list(moves.values()))


def _game_length(rng: random.Random) -> int:
    kind = rng.random()
    if kind < 0.45:
        return rng.randint(1, 40)
    if kind < 0.85:
        return rng.randint(40, 120)
    return rng.randint(120, 300)


def _reference_key(board: chess.Board) -> Hashable:
    # The transposition key python-chess uses for repetitions (Article 9.2).
    return board._transposition_key()


def _polyglot_legal_ep(board: chess.Board) -> int:
    # Polyglot hashes the en passant square when a pawn stands next to the
    # pushed pawn; the Laws (and our zobrist) count it only when the capture
    # is legal.
    saved = board.ep_square
    if saved is not None and not board.has_legal_en_passant():
        board.ep_square = None
    try:
        return chess.polyglot.zobrist_hash(board)
    finally:
        board.ep_square = saved


class Identity:
    """Checks that two keyings of positions induce the same partition."""

    def __init__(self) -> None:
        self.ours_to_theirs: dict[Hashable, Hashable] = {}
        self.theirs_to_ours: dict[Hashable, Hashable] = {}

    def add(self, ours: Hashable, theirs: Hashable, where: str) -> None:
        seen = self.ours_to_theirs.setdefault(ours, theirs)
        assert seen == theirs, f"{where}: our key {ours!r} covers two different positions"
        back = self.theirs_to_ours.setdefault(theirs, ours)
        assert back == ours, f"{where}: one position has two of our keys {back!r} and {ours!r}"


def _compare(
    pos: Position, board: chess.Board, keys: Identity, zobrists: Identity
) -> tuple[dict[str, chess.Move], dict[str, str]]:
    """Compares everything; returns the legal moves (UCI to move, UCI to SAN)."""
    fen = board.fen()
    where = fen
    assert pos.fen() == fen

    ours = pos.legal_moves_san()
    theirs = {m.uci(): m for m in board.legal_moves}
    assert {uci for uci, _ in ours} == set(theirs), where
    assert len(ours) == len(theirs), where
    for uci, san in ours:
        assert san == board.san(theirs[uci]), f"{where}: {uci}"
        assert pos.parse_move(san) == uci, f"{where}: {san}"
        assert pos.parse_move(uci) == uci, f"{where}: {uci}"
    assert pos.legal_moves() == [uci for uci, _ in ours]
    # The same pairs, in the same order, as the JSON text the server splices into its states.
    assert json.loads(pos.legal_moves_json()) == [{"uci": uci, "san": san} for uci, san in ours], where

    assert pos.is_check() == board.is_check(), where
    assert pos.is_checkmate() == board.is_checkmate(), where
    assert pos.is_stalemate() == board.is_stalemate(), where

    assert pos.turn == ("white" if board.turn == chess.WHITE else "black")
    assert pos.castling_rights == (board.castling_xfen() or "-")
    legal_ep = board.ep_square if board.has_legal_en_passant() else None
    assert pos.ep_square == (None if legal_ep is None else chess.square_name(legal_ep)), where
    assert pos.halfmove_clock == board.halfmove_clock
    assert pos.fullmove_number == board.fullmove_number
    assert pos.ply == board.ply()
    assert dict(pos.pieces()) == {
        chess.square_name(sq): piece.symbol() for sq, piece in board.piece_map().items()
    }

    key = pos.repetition_key()
    keys.add(key, _reference_key(board), where)
    assert pos.zobrist() == _polyglot_legal_ep(board), where
    zobrists.add(pos.zobrist(), key, where)
    return theirs, dict(ours)


def _play_games(
    first: int, last: int, start_fens: tuple[str, ...] = (chess.STARTING_FEN,), max_length: int = 0
) -> tuple[Counter[str], int, Identity, Identity]:
    """Plays games number first..last-1; each game has its own seed."""
    keys = Identity()
    zobrists = Identity()
    seen: Counter[str] = Counter()
    plies = 0
    for game in range(first, last):
        rng = random.Random(f"{SEED}-{game}")
        fen = start_fens[game % len(start_fens)]
        board = chess.Board(fen)
        pos = Position(fen)
        length = rng.randint(1, max_length) if max_length else _game_length(rng)
        for ply in range(length):
            moves, sans = _compare(pos, board, keys, zobrists)
            plies += 1
            if board.is_checkmate():
                seen["checkmate"] += 1
                break
            if board.is_stalemate():
                seen["stalemate"] += 1
                break
            move = _choose(board, rng, pos, moves, sans)
            if move.promotion:
                seen["promotion" if move.promotion == chess.QUEEN else "underpromotion"] += 1
            if board.is_castling(move):
                seen["castling"] += 1
            if board.is_en_passant(move):
                seen["en passant"] += 1
            san = sans[move.uci()]
            before = pos.fen()
            if ply % 2 == 0:
                san_out, uci_out, after = pos.play_annotated(san)
                assert (san_out, uci_out) == (san, move.uci()), f"game {game} ply {ply}"
            else:
                after = pos.play(move.uci())
            assert pos.fen() == before, "play must leave the old position unchanged"
            board.push(move)
            pos = after
        else:
            _compare(pos, board, keys, zobrists)
            plies += 1
    return seen, plies, keys, zobrists


def _play_games_in(bounds: tuple[int, int]) -> tuple[Counter[str], int, Identity, Identity]:
    return _play_games(*bounds)


def test_random_games_agree_with_python_chess() -> None:
    # Two halves on two processes (the machine's cores); results are the
    # same whatever the split, since each game has its own seed.
    results = in_parallel(_play_games_in, [(0, GAMES // 2), (GAMES // 2, GAMES)])

    seen: Counter[str] = Counter()
    plies = 0
    keys = Identity()
    zobrists = Identity()
    for part_seen, part_plies, part_keys, part_zobrists in results:
        seen += part_seen
        plies += part_plies
        for ours, theirs in part_keys.ours_to_theirs.items():
            keys.add(ours, theirs, "across games")
        for ours, theirs in part_zobrists.ours_to_theirs.items():
            zobrists.add(ours, theirs, "across games")

    # The generator must really have reached every rule it is meant to test.
    assert seen["checkmate"] >= 50, seen
    assert seen["stalemate"] >= 20, seen
    assert seen["castling"] >= 300, seen
    assert seen["en passant"] >= 200, seen
    assert seen["promotion"] >= 150, seen
    assert seen["underpromotion"] >= 100, seen
    # Transpositions happen often enough that the identity test means something.
    assert plies - len(keys.ours_to_theirs) >= 1000, (plies, len(keys.ours_to_theirs))
    print(f"\n{GAMES} games, {plies} positions, {len(keys.ours_to_theirs)} distinct; {dict(seen)}")


# Positions made to test move generators (chessprogramming.org's and Martin
# Sedlak's perft suites): castling rights lost by captures, promotions with
# capture, en passant pins, discovered and double checks.
TEST_POSITIONS = (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
)


def test_random_games_from_test_positions() -> None:
    seen, plies, keys, _ = _play_games(GAMES, GAMES + 20 * len(TEST_POSITIONS), TEST_POSITIONS, max_length=40)
    assert plies >= 2000, plies
    assert seen["castling"] >= 20 and seen["promotion"] + seen["underpromotion"] >= 50, seen
