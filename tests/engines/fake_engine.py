"""A deliberately broken UCI engine for the tests of ``chesslaws.engines`` and ``chesslaws.match``.

Usage: python fake_engine.py MODE [ARG]

MODE:
  legal        plays the first legal move (sorted), at once
  repeat       shuffles a knight out and back (threefold repetition), else legal
  score N      legal moves, reporting "score cp N" (N may be negative)
  illegal      always answers a readable but illegal move
  illegal-once one illegal move, then legal ones
  garbage      answers "bestmove xyz" (not a move)
  noisy        prints junk lines around legal moves (UCI says: ignore them)
  crash N      exits (status 3, no output) at its N-th "go" (default 2)
  hang         never answers "go", ignores "stop", "quit" and SIGTERM
  hang-stop    answers "go" only when told to "stop"
  no-uciok     never finishes the handshake
  slow N       legal moves after N milliseconds each
  overrun N    answers N ms after the time it was told (wtime/btime) has run out, and says so
               ("info ... time": its own search time)
  xboard       speaks the xboard protocol (CECP 2: features setboard, usermove, ping): plays the
               first legal move, after "time"/"otim"/"level" it echoes them as a comment line
  late-report  reports "info ... time 0" at once, answers 40 ms after its time has run out but
               reports that it searched 5 ms less than it was told: its answer looks late in the pipe
  late-start   waits 60 ms before it starts its clock ("info ... time 0"), then searches 10 ms
               less than it was told by that clock: a process that got a core late
"""

from __future__ import annotations

import os
import signal
import sys
import time

from chesslaws.position import Position

mode = sys.argv[1] if len(sys.argv) > 1 else "legal"
arg = sys.argv[2] if len(sys.argv) > 2 else None


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def illegal_move(pos: Position) -> str:
    legal = set(pos.legal_moves())
    upper = pos.turn == "white"
    squares = [f + r for r in "12345678" for f in "abcdefgh"]
    for frm, piece in sorted(pos.pieces()):
        if piece.isupper() != upper:
            continue
        for to in squares:
            target = pos.piece_at(to)
            if to != frm and frm + to not in legal and (target is None or target.isupper() != upper):
                return frm + to
    return "a1a1"


def xboard_main() -> None:
    pos = Position()
    forced = False
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            out('feature myname="Fake xboard" setboard=1 usermove=1 ping=1 sigint=0 done=0')
            out('feature option="Skill -spin 5 0 10" option="Clear Hash -button" done=1')
        elif cmd == "ping":
            out(f"pong {words[1]}")
        elif cmd == "quit":
            return
        elif cmd == "new":
            pos, forced = Position(), True
        elif cmd == "force":
            forced = True
        elif cmd == "setboard":
            pos = Position(" ".join(words[1:]))
        elif cmd == "usermove":
            pos = pos.play(words[1])
            if not forced:
                go_xboard(pos)
        elif cmd in ("time", "otim", "level", "option"):
            out(f"# {raw.strip()}")
        elif cmd == "go":
            forced = False
            pos = go_xboard(pos)


def go_xboard(pos: Position) -> Position:
    legal = sorted(pos.legal_moves())
    if not legal:
        return pos
    out(f" 1 {len(legal)} 0 1 {legal[0]}")
    out(f"move {legal[0]}")
    return pos.play(legal[0])


def main() -> None:
    if mode == "xboard":
        xboard_main()
        return
    if mode == "hang":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pos = Position()
    gos = 0
    illegal_done = False
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            if mode == "no-uciok":
                continue
            out("id name Fake " + mode)
            out("id author chesslaws tests")
            out("option name Skill Level type spin default 20 min 0 max 20")
            out("option name Clear Hash type button")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "quit":
            if mode == "hang":
                continue
            return
        elif cmd == "position":
            fen = None
            moves: list[str] = []
            if words[1] == "fen":
                end = words.index("moves") if "moves" in words else len(words)
                fen = " ".join(words[2:end])
            if "moves" in words:
                moves = words[words.index("moves") + 1:]
            pos = Position(fen) if fen else Position()
            if moves:
                pos = pos.play_many(moves)
        elif cmd == "go":
            gos += 1
            if mode == "crash" and gos >= int(arg or 2):
                os._exit(3)
            if mode in ("hang", "hang-stop"):
                continue
            if mode in ("overrun", "late-report", "late-start"):
                key = "wtime" if pos.turn == "white" else "btime"
                told = int(words[words.index(key) + 1]) if key in words else 0
                if mode == "overrun":
                    time.sleep((told + int(arg or 40)) / 1000)
                    spent = told + int(arg or 40)
                elif mode == "late-report":
                    out("info depth 1 time 0 score cp 0")
                    time.sleep((told + 40) / 1000)
                    spent = max(0, told - 5)
                else:
                    time.sleep(0.06)
                    out("info depth 1 time 0 score cp 0")
                    spent = max(0, told - 10)
                    time.sleep(spent / 1000)
                out(f"info depth 2 time {spent} score cp 0")
            answer(pos, gos)
        elif cmd == "stop":
            if mode == "hang-stop":
                answer(pos, gos, force_legal=True)
    return


def answer(pos: Position, gos: int, force_legal: bool = False) -> None:
    global illegal_done
    legal = sorted(pos.legal_moves())
    if not legal:
        out("bestmove (none)")
        return
    move = legal[0]
    score = 0
    if mode == "repeat":
        for cand in ("g1f3", "f3g1", "g8f6", "f6g8"):
            if cand in legal:
                move = cand
                break
    elif mode == "score":
        score = int(arg or 0)
    elif mode == "slow":
        time.sleep(int(arg or 10) / 1000)
    elif not force_legal and (mode == "illegal" or (mode == "illegal-once" and not illegal_done)):
        illegal_done = True
        move = illegal_move(pos)
    elif mode == "garbage":
        out("info garbage ))) score")
        out("bestmove xyz")
        return
    if mode == "noisy":
        out("hello there")
        out("info depth x score cp")
        out("")
        out("readyok")
    out(f"info depth 1 score cp {score} nodes 1 pv {move}")
    out(f"bestmove {move}")


if __name__ == "__main__":
    illegal_done = False
    main()
