"""How tests/data/chess960_chesscom.pgn and tests/data/chess960_cutechess.pgn
were made: Stockfish self-play (fixed node counts, one thread) from random
Chess960 starting positions, kept when the game ends in mate and has a
castling. The first file is written as chess.com exports Chess960 (Variant
"Chess960", X-FEN, [%clk]), the second as cutechess/fastchess do (Variant
"fischerandom", Shredder-FEN, "{+0.35/12 0.52s}" comments; its third game is
double Chess960). The files are kept as data; this script is for the record.

    python tests/gen_chess960_pgn.py tests/data
"""
import random
import sys

import chess
import chess.engine


def main() -> None:
    rng = random.Random(960)
    eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    eng.configure({"Threads": 1, "Hash": 16})

    def play(board, max_plies=400, nodes=3000):
        moves = []
        while not board.is_game_over(claim_draw=True) and len(moves) < max_plies:
            r = eng.play(board, chess.engine.Limit(nodes=nodes + rng.randrange(2000)), info=chess.engine.INFO_SCORE)
            moves.append((r.move, r.info.get("score")))
            board.push(r.move)
        return moves

    def game(start_board):
        b = start_board.copy()
        moves = play(b)
        return moves, b

    def castles(start, moves):
        b = start.copy(); n = 0
        for m, _ in moves:
            n += b.is_castling(m); b.push(m)
        return n

    out_cc, out_cute, out_li = [], [], []
    # chess.com style: X-FEN, Variant Chess960, [%clk]
    found = 0
    while found < 3:
        n = rng.randrange(960)
        start = chess.Board.from_chess960_pos(n)
        moves, end = game(start)
        if castles(start, moves) == 0 or not end.is_checkmate():
            continue
        found += 1
        res = end.result()
        winner = "White" if res == "1-0" else "Black"
        head = [("Event", "Live Chess - Chess960"), ("Site", "Chess.com"), ("Date", "2025.11.%02d" % (10 + found)),
                ("Round", "-"), ("White", "player%d" % (2 * found)), ("Black", "player%d" % (2 * found + 1)),
                ("Result", res), ("SetUp", "1"), ("FEN", start.fen()), ("Variant", "Chess960"),
                ("CurrentPosition", end.fen()), ("Timezone", "UTC"), ("ECO", "?"), ("WhiteElo", "1800"), ("BlackElo", "1790"),
                ("TimeControl", "180+2"), ("Termination", f"{'player%d' % (2*found if res=='1-0' else 2*found+1)} won by checkmate"),
                ("StartTime", "12:00:00"), ("EndDate", "2025.11.%02d" % (10 + found)), ("EndTime", "12:10:00"), ("Link", "https://www.chess.com/game/live/1%08d" % n)]
        text = "".join(f'[{k} "{v}"]\n' for k, v in head) + "\n"
        clk = [180.0, 180.0]; b = start.copy(); toks = []
        for i, (m, _) in enumerate(moves):
            side = i % 2
            clk[side] = max(1.0, clk[side] - rng.uniform(0.5, 4.0) + 2)
            num = b.fullmove_number
            san = b.san(m); b.push(m)
            t = clk[side]
            toks.append(f"{num}{'.' if side == 0 else '...'} {san} {{[%clk {int(t)//3600}:{int(t)%3600//60:02d}:{t%60:04.1f}]}}")
        text += " ".join(toks) + " " + res + "\n\n"
        out_cc.append(text)
    # cutechess style: Shredder-FEN, Variant fischerandom, {+0.35/12 0.52s}
    found = 0
    while found < 3:
        w = rng.randrange(960); bl = w if found < 2 else rng.randrange(960)
        start = chess.Board(f"{chess.Board.from_chess960_pos(bl).fen().split('/')[0]}/pppppppp/8/8/8/8/PPPPPPPP/{chess.Board.from_chess960_pos(w).fen().split('/')[-1].split()[0]} w KQkq - 0 1", chess960=True)
        moves, end = game(start)
        if castles(start, moves) == 0 or not end.is_checkmate():
            continue
        found += 1
        res = end.result()
        head = [("Event", "?"), ("Site", "?"), ("Date", "2025.11.20"), ("Round", str(found)), ("White", "Stockfish"), ("Black", "Stockfish"),
                ("Result", res), ("FEN", start.fen(shredder=True)), ("GameDuration", "00:01:23"), ("GameEndTime", "2025-11-20T12:01:23.000 UTC"),
                ("GameStartTime", "2025-11-20T12:00:00.000 UTC"), ("PlyCount", str(len(moves))), ("SetUp", "1"), ("Termination", "normal" if found != 3 else "normal"),
                ("TimeControl", "40/60+0.6"), ("Variant", "fischerandom")]
        text = "".join(f'[{k} "{v}"]\n' for k, v in head) + "\n"
        b = start.copy(); toks = []
        for i, (m, sc) in enumerate(moves):
            num = b.fullmove_number
            san = b.san(m); b.push(m)
            s = sc.pov(not b.turn) if sc else None
            ev = (f"{'+' if s.score() >= 0 else ''}{s.score()/100:.2f}" if s is not None and not s.is_mate() else (f"{'+' if s.mate() > 0 else '-'}M{abs(s.mate())}" if s else "0.00"))
            comment = f"{{{ev}/{rng.randrange(8,20)} {rng.uniform(0.01,1.5):.3f}s}}" if not b.is_checkmate() else f"{{{ev}/1 0s, {'White' if res=='1-0' else 'Black'} mates}}"
            toks.append(f"{num}{'.' if i % 2 == 0 else '...'} {san} {comment}" if (i % 2 == 0 or i == 0) else f"{san} {comment}")
        text += " ".join(toks) + " " + res + "\n\n"
        out_cute.append(text)
    eng.quit()
    open(sys.argv[1] + "/chess960_chesscom.pgn", "w").write("".join(out_cc))
    open(sys.argv[1] + "/chess960_cutechess.pgn", "w").write("".join(out_cute))


if __name__ == "__main__":
    main()
