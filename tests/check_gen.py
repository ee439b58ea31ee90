"""Clean PGN games for `chesslaws check`, generated with python-chess from a
fixed seed (shared by tests/test_check.py and bench/bench_check.py).

Every game is legal and its recorded result is the one the 2023 Laws give:
a game python-chess sees as over (checkmate, stalemate, insufficient
material, fivefold, 75 moves) ends there with that result; any other game
ends by agreement (1/2-1/2) or by resignation of the side facing a queen
(the winner keeps a queen, so it can always mate). Games carry `[%clk]`
comments, some text comments, NAGs and side variations.
"""

from __future__ import annotations

import random

import chess
import chess.pgn

WORDS = ["time", "trouble", "sharp", "idea", "pawn", "storm", "only", "move", "zugzwang", "fortress"]


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _rammed(board: chess.Board) -> bool:
    """Only kings, bishops and pawns, every pawn blocked head to head: a
    position the checker examines for a dead position."""
    if board.queens or board.rooks or board.knights:
        return False
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    return bool(white) and (white << 8) & chess.BB_ALL == black


def clean_game(rng: random.Random, index: int, *, max_plies: int = 160) -> chess.pgn.Game:
    game = chess.pgn.Game()
    h = game.headers
    h["Event"] = f"Generated {index}"
    h["Site"] = "Nowhere"
    h["Date"] = f"2024.0{rng.randrange(1, 10)}.1{rng.randrange(10)}"
    h["Round"] = str(rng.randrange(1, 12))
    h["White"] = f"Player {rng.randrange(1000)}"
    h["Black"] = f"Player {rng.randrange(1000)}"
    h["TimeControl"] = "300+3"
    board = game.board()
    node: chess.pgn.GameNode = game
    clocks = [300.0, 300.0]
    limit = rng.randrange(20, max_plies)
    outcome = None
    for ply in range(limit):
        moves = list(board.legal_moves)
        move = rng.choice(moves)
        if rng.random() < 0.04 and len(moves) > 1:
            side = node.add_variation(rng.choice([m for m in moves if m != move]))
            side.comment = "a side line"
            b2 = side.board()
            if not b2.is_game_over():
                side.add_main_variation(rng.choice(list(b2.legal_moves)))
        node = node.add_main_variation(move)
        mover = ply % 2
        clocks[mover] = max(1.0, clocks[mover] - rng.uniform(0.5, 8.0) + 3)
        text = f"[%clk {_clock(clocks[mover])}]"
        if rng.random() < 0.08:
            text = f"{' '.join(rng.choice(WORDS) for _ in range(rng.randrange(1, 6)))} {text}"
        node.comment = text
        if rng.random() < 0.03:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6]))
        board.push(move)
        outcome = board.outcome(claim_draw=False)
        if outcome is not None or _rammed(board):
            break
    if outcome is not None:
        h["Result"] = outcome.result()
        h["Termination"] = "Normal"
    else:
        white_q = bool(board.queens & board.occupied_co[chess.WHITE])
        black_q = bool(board.queens & board.occupied_co[chess.BLACK])
        if white_q and rng.random() < 0.5:
            h["Result"] = "1-0"
        elif black_q and rng.random() < 0.5:
            h["Result"] = "0-1"
        else:
            h["Result"] = "1/2-1/2"
        h["Termination"] = "Normal"
    return game


def clean_pgn(n: int, seed: int = 9, *, max_plies: int = 160) -> str:
    rng = random.Random(seed)
    return "".join(str(clean_game(rng, i + 1, max_plies=max_plies)) + "\n\n" for i in range(n))


ENDINGS = [
    ("1-0", "Time forfeit"), ("0-1", "Time forfeit"), ("1-0", "{w} won on time"), ("0-1", "{b} won on time"),
    ("1-0", "{w} won by resignation"), ("0-1", "{b} won by resignation"), ("1-0", "Normal"), ("0-1", "Normal"),
    ("1/2-1/2", "Normal"), ("0-1", "Abandoned"),
]


def random_ending_game(rng: random.Random, index: int, *, max_plies: int = 300) -> str:
    """A game of random legal moves stopped at a random ply (or where the
    game is over), with a random decisive or drawn result and a random
    Termination text as chess.com and lichess write them ("Time forfeit",
    "X won on time", "X won by resignation", "Abandoned", "Normal"). Random
    play trades much material: many games end with the would-be winner
    holding little, the case where "could this side still mate?" must be
    decided. The result may be wrong by the Laws (the checker's business)."""
    board = chess.Board()
    limit = rng.randrange(10, max_plies)
    moves: list[chess.Move] = []
    for _ in range(limit):
        if board.is_game_over(claim_draw=False):
            break
        move = rng.choice(list(board.legal_moves))
        moves.append(move)
        board.push(move)
    result, termination = rng.choice(ENDINGS)
    outcome = board.outcome(claim_draw=False)
    if outcome is not None and rng.random() < 0.7:
        result, termination = outcome.result(), "Normal"
    game = chess.pgn.Game()
    h = game.headers
    white, black = f"Player{rng.randrange(1000)}", f"Player{rng.randrange(1000)}"
    h["Event"] = f"Random ending {index}"
    h["White"], h["Black"] = white, black
    h["Result"] = result
    h["Termination"] = termination.format(w=white, b=black)
    node: chess.pgn.GameNode = game
    for m in moves:
        node = node.add_main_variation(m)
    return str(game) + "\n\n"


def random_ending_pgn(n: int, seed: int = 17, *, max_plies: int = 300) -> str:
    rng = random.Random(seed)
    return "".join(random_ending_game(rng, i + 1, max_plies=max_plies) for i in range(n))


#: Endings of the games for the differential test of check against convert, as the servers write them.
JUDGEMENT_ENDINGS = [
    ("1-0", "Time forfeit"), ("0-1", "Time forfeit"), ("1-0", "{w} won on time"), ("0-1", "{b} won on time"),
    ("1/2-1/2", "Game drawn by timeout vs insufficient material"), ("1/2-1/2", "Time forfeit"),
    ("1-0", "{w} won by resignation"),
    ("0-1", "{b} won by resignation"), ("1-0", "Normal"), ("0-1", "Normal"), ("1/2-1/2", "Normal"),
    ("1/2-1/2", "Game drawn by repetition"), ("1/2-1/2", "Game drawn by agreement"), ("1-0", "Abandoned"),
    ("1-0", "adjudication"), ("0-1", "Rules infraction"), ("0-1", "Game drawn by timeout vs insufficient material"),
]

#: Wins for a player having a bare king (White's, Black's), as the servers write them.
BARE_KING_WINS = {
    chess.WHITE: [("1-0", "{w} won by resignation"), ("1-0", "Normal"), ("1-0", "Time forfeit"),
                  ("1-0", "{w} won on time"), ("1-0", "Abandoned"), ("1-0", "adjudication")],
    chess.BLACK: [("0-1", "{b} won by resignation"), ("0-1", "Normal"), ("0-1", "Time forfeit"),
                  ("0-1", "{b} won on time"), ("0-1", "Rules infraction")],
}


def judgement_game(rng: random.Random, index: int, *, max_plies: int = 300) -> str:
    """A game for the differential test of check against convert: random legal moves (biased towards captures, so that
    the material runs out) stopped at a random ply, or some plies past the end of the game (moves recorded
    after a checkmate, stalemate or dead position), with a random result and Termination, under a time
    control of standard play or blitz or none (a flag fall against every material balance the random play
    leaves)."""
    board = chess.Board()
    limit = rng.randrange(10, max_plies)
    moves: list[chess.Move] = []
    after_end = rng.randrange(0, 4)
    for _ in range(limit):
        legal = list(board.legal_moves)
        if not legal:
            break
        if board.is_insufficient_material() or board.is_fivefold_repetition():
            if after_end == 0:
                break
            after_end -= 1
        captures = [m for m in legal if board.is_capture(m)]
        move = rng.choice(captures) if captures and rng.random() < 0.6 else rng.choice(legal)
        moves.append(move)
        board.push(move)
    result, termination = rng.choice(JUDGEMENT_ENDINGS)
    outcome = board.outcome(claim_draw=False)
    if outcome is not None and rng.random() < 0.5:
        result, termination = outcome.result(), "Normal"
    bare = [c for c in chess.COLORS if board.occupied_co[c] == board.kings & board.occupied_co[c]]
    if outcome is None and len(bare) == 1 and rng.random() < 0.5:
        # A win recorded for a player having a bare king (1989 10.5: he cannot win the game, whatever the
        # way he won), by resignation, on time or by the record's word alone.
        result, termination = rng.choice(BARE_KING_WINS[bare[0]])
    game = chess.pgn.Game()
    h = game.headers
    white, black = f"Player{rng.randrange(1000)}", f"Player{rng.randrange(1000)}"
    h["Event"] = f"Judgement {index}"
    h["Site"] = "Chess.com"
    h["White"], h["Black"] = white, black
    h["Result"] = result
    # Standard play, and every third game blitz (3 minutes and 2 seconds a move: under 1997 C.1, all the
    # moves in under 15 minutes), where the 1997 rule of mating potential (Appendix C.4) holds of every win;
    # one game in six with no TimeControl at all (as many real records, TWIC's among them), where a flag is
    # still judged by what it leads to in the position; one in nine blitz with clocks that start at zero
    # ("0+1", lichess's hyperbullet: the server gives each player a start, which the tag does not show).
    if index % 3 == 0:
        h["TimeControl"] = "0+1" if index % 9 == 0 else "180+2"
    elif index % 6 != 1:
        h["TimeControl"] = "5400"
    h["Termination"] = termination.format(w=white, b=black)
    node: chess.pgn.GameNode = game
    for m in moves:
        node = node.add_main_variation(m)
    return str(game) + "\n\n"


def judgement_pgn(n: int, seed: int = 26, *, max_plies: int = 300) -> str:
    rng = random.Random(seed)
    return "".join(judgement_game(rng, i + 1, max_plies=max_plies) for i in range(n))
