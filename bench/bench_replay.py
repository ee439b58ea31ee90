"""Replaying games: chesslaws' Python API against python-chess's push_san.

    python bench/bench_replay.py [--games N] [--runs N] [--seed S] [--cpu] [--pgn FILE]

The games (lists of SAN) are generated with python-chess from a fixed seed:
random legal moves until mate, stalemate or a random length of 40-200
plies. Both sides then replay the same SAN lists move by move from the start
position in a Python loop:

- chesslaws: ``pos = pos.play(san)`` (SAN parsed and played natively, a new
  immutable position each move);
- python-chess: ``board.push_san(san)``.

Target: chesslaws at least 10x faster. The median of ``--runs`` runs each.

The same games are then replayed through the arbiter, ``Game.apply`` (each
move a ``move`` event of the log, under the 2023 Laws with a 90+30 clock:
touch-move, offers, clocks and the automatic ends checked on every move),
against the same python-chess loop. Each of these runs is a process of its own (the core
keeps CHA-Solver's answers for the whole process). With ``--pgn FILE`` the games are the first
GAMES of a real file instead (cut where a game ends by itself), which share their openings as a
server's games do. No target: the figure watches that the
arbiter does not get slower (compare its ratio between two runs).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import chess

from chesslaws import Position
from chesslaws.game import Game


def make_games(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    games = []
    for _ in range(n):
        board = chess.Board()
        sans = []
        for _ in range(rng.randint(40, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(board.san(move))
            board.push(move)
        games.append(sans)
    return games


def read_games(path: str, n: int) -> list[list[str]]:
    """The SAN of the first ``n`` games of a PGN file (plain, gzip or zstd: :func:`chesslaws.pgn.read_pgn`)
    read without an error from the standard start, each cut before the game ends by itself (so that every
    move is a move of a game going on)."""
    from chesslaws.pgn import read_pgn

    games: list[list[str]] = []
    for game in read_pgn(path):
        if len(games) >= n:
            break
        if not game.ok or "FEN" in game.tags or game.chess960:
            continue
        board, sans = chess.Board(), []
        for uci in game.uci:
            move = chess.Move.from_uci(uci)
            sans.append(board.san(move))
            board.push(move)
            if board.is_game_over(claim_draw=False) or board.is_repetition(5):
                break
        if sans:
            games.append(sans)
    return games


def replay_chesslaws(games: list[list[str]]) -> str:
    last = ""
    for sans in games:
        pos = Position()
        for san in sans:
            pos = pos.play(san)
        last = pos.fen()
    return last


def replay_game(games: list[list[str]]) -> str:
    last = ""
    for sans in games:
        g = Game.start(edition="2023", time_control="5400+30")
        side = "white"
        for i, san in enumerate(sans, start=1):
            g = g.apply({"type": "move", "t": i, "by": side, "move": san})
            side = "black" if side == "white" else "white"
        last = g.position.fen()
    return last


def replay_python_chess(games: list[list[str]]) -> str:
    last = ""
    for sans in games:
        board = chess.Board()
        for san in sans:
            board.push_san(san)
        last = board.fen()
    return last


def one_run_elsewhere(args: argparse.Namespace) -> float:
    """One pass of :func:`replay_game` over the same games, in a new process: its time in seconds."""
    import subprocess

    cmd = [sys.executable, os.path.abspath(__file__), "--one-run", "--games", str(args.games), "--seed", str(args.seed)]
    if args.pgn is not None:
        cmd += ["--pgn", args.pgn]
    if args.cpu:
        cmd.append("--cpu")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--pgn", default=None,
                        help="replay the first GAMES games of this PGN file (.pgn, .pgn.gz or .pgn.zst; for instance "
                             "../shared/corpus/online_lichess_DrDrunkenstein.pgn.zst) instead of random games: real "
                             "games share their openings, as a server's live games do")
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)  # one Game.apply pass, its time
    parser.add_argument("--cpu", action="store_true",
                        help="time by this process's CPU time (time.process_time) rather than the wall clock: "
                             "what a machine shared with other work changes least")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter

    games = make_games(args.games, args.seed) if args.pgn is None else read_games(args.pgn, args.games)
    if args.one_run:
        start = clock()
        replay_game(games)
        print(clock() - start)
        return 0
    plies = sum(len(g) for g in games)
    assert replay_chesslaws(games) == replay_python_chess(games)
    source = f"seed {args.seed}" if args.pgn is None else os.path.basename(args.pgn)
    print(f"replay benchmark: {len(games)} games, {plies} moves ({source}), median of {args.runs} runs"
          f"{' (CPU time)' if args.cpu else ''}")

    ours, theirs = [], []
    for _ in range(args.runs):
        start = clock()
        replay_chesslaws(games)
        ours.append(clock() - start)
        start = clock()
        replay_python_chess(games)
        theirs.append(clock() - start)
    t_ours, t_theirs = statistics.median(ours), statistics.median(theirs)
    print(f"chesslaws   pos.play(san): {t_ours:8.4f} s  {plies / t_ours / 1e3:9.1f} k moves/s")
    print(f"python-chess push_san:     {t_theirs:8.4f} s  {plies / t_theirs / 1e3:9.1f} k moves/s")
    ratio = t_theirs / t_ours
    print(f"ratio: {ratio:.1f}x   target >= 10x: {'met' if ratio >= 10 else 'MISSED'}")

    arbiter, peer = [], []
    for _ in range(args.runs):
        # Each run of the arbiter in a process of its own: the core keeps CHA-Solver's answers for the
        # whole process (dead.rs, SOLVED), so a second pass over the same games in one process would
        # find every dead-position search answered, as no server does.
        arbiter.append(one_run_elsewhere(args))
        start = clock()
        replay_python_chess(games)
        peer.append(clock() - start)
    t_game, t_peer = statistics.median(arbiter), statistics.median(peer)
    print(f"chesslaws   Game.apply:    {t_game:8.4f} s  {plies / t_game / 1e3:9.1f} k moves/s")
    print(f"python-chess push_san:     {t_peer:8.4f} s  {plies / t_peer / 1e3:9.1f} k moves/s")
    print(f"Game.apply ratio: {t_peer / t_game:.2f}x python-chess push_san (no target; must not fall); "
          f"{t_game / plies * 1e6:.1f} µs a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
