"""A game as `chesslaws replay` prints it, for a person."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesslaws.game import Game, fmt_duration

if TYPE_CHECKING:
    from chesslaws.timecontrol import Color


def game_summary(game: Game) -> str:
    """The text `chesslaws replay` prints: the players and the Laws, the board, the FEN, the clocks, the
    moves, the status and every ruling with its article."""
    st = game.state
    cfg = st.config
    variant = ""
    if cfg.chess960:
        variant = "Chess960" + (f" No. {cfg.start_number}" if cfg.start_number is not None else "") + ", "
    lines = [f"{cfg.white} (White) v {cfg.black} (Black) - Laws of {cfg.edition.name}, {variant}"
             f"time control {cfg.time_control}, {cfg.mode}", ""]
    board = str(st.position).rstrip("\n").split("\n")
    for rank, row in zip(range(8, 0, -1), board):
        lines.append(f"  {rank}  {row}")
    lines.append("     a b c d e f g h")
    lines.append("")
    lines.append(f"FEN: {st.position.fen()}")
    def clock(color: Color) -> str:
        ms = st.remaining_ms(color)
        return "no clock" if ms is None else fmt_duration(ms)
    running = st.clock.running if st.ongoing else None
    lines.append(f"Clocks: White {clock('white')}, Black {clock('black')}"
                 + (f" ({running}'s clock running)" if running else " (stopped)"))
    text: list[str] = []
    first = cfg.initial_position()
    number, color = first.fullmove_number, first.turn
    for rec in st.moves:
        if color == "white":
            text.append(f"{number}.")
        elif not text:
            text.append(f"{number}...")
        text.append(rec.san + (" (=)" if rec.draw_offer else ""))
        if color == "black":
            number += 1
        color = "black" if color == "white" else "white"
    lines.append("Moves: " + (" ".join(text) if text else "(none)"))
    lines.append(f"Status: {st.status}, result {st.result}"
                 + (f" ({st.termination})" if st.termination else ""))
    for p in st.pending():
        lines.append(f"Pending: {p['kind']} by {p['by']}" + (f" ({p['reason']})" if "reason" in p else ""))
    if st.rulings:
        lines.append("Rulings:")
        for r in st.rulings:
            lines.append(f"  t={r.to_json()['t']}  Article {r.article} ({r.edition}): {r.text}")
    return "\n".join(lines)
