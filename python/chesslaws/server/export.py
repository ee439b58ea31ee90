"""PGN export of a live game.

Uses :func:`chesslaws.pgn.write_pgn` when that module provides it; until then
(and if it fails), a plain PGN is built here from the moves of the state.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import logging
from typing import Any

from chesslaws.game import Game
from chesslaws.position import STARTING_FEN, Position

log = logging.getLogger("chesslaws.server")


def _tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def pgn_tags(game: Game, white: str, black: str, created_at: float) -> list[tuple[str, str]]:
    """The seven-tag roster, then SetUp/FEN, TimeControl and Termination."""
    st = game.state
    cfg = st.config
    date = _dt.datetime.fromtimestamp(created_at, _dt.timezone.utc).strftime("%Y.%m.%d")
    tags: list[tuple[str, str]] = [
        ("Event", cfg.tags.get("event", "chesslaws live game")),
        ("Site", cfg.tags.get("site", "chesslaws serve")),
        ("Date", cfg.tags.get("date", date)),
        ("Round", cfg.tags.get("round", "-")),
        ("White", white),
        ("Black", black),
        ("Result", st.result if st.result != "0-0" else "*"),
    ]
    if cfg.fen != STARTING_FEN:
        tags += [("SetUp", "1"), ("FEN", cfg.fen)]
    tc = cfg.time_control
    pgn_tc = tc.to_pgn() if not tc.unlimited else "-"
    tags.append(("TimeControl", pgn_tc or str(tc)))
    if st.termination:
        tags.append(("Termination", st.termination.replace("_", " ")))
    return tags


def simple_pgn(game: Game, white: str, black: str, created_at: float) -> str:
    """A plain PGN built here (the fallback when :mod:`chesslaws.pgn` cannot write the game)."""
    st = game.state
    cfg = st.config
    tags = pgn_tags(game, white, black, created_at)
    result = dict(tags)["Result"]
    tokens: list[str] = []
    first = Position(cfg.fen)
    number, color = first.fullmove_number, first.turn
    for rec in st.moves:
        if color == "white":
            tokens.append(f"{number}.")
        elif not tokens:
            tokens.append(f"{number}...")
        tokens.append(rec.san)
        if rec.draw_offer:
            tokens.append("{(=)}")
        if color == "black":
            number += 1
        color = "black" if color == "white" else "white"
    tokens.append(result)
    lines: list[str] = []
    line = ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > 79:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    lines.append(line)
    head = "\n".join(f'[{k} "{_tag(v)}"]' for k, v in tags)
    return head + "\n\n" + "\n".join(lines) + "\n"


def export_pgn(game: Game, white: str, black: str, created_at: float) -> str:
    """The game in PGN: :func:`chesslaws.pgn.write_pgn` when it is there, else :func:`simple_pgn`."""
    try:
        mod = importlib.import_module("chesslaws.pgn")
        write: Any = getattr(mod, "write_pgn", None)
        export_move: Any = getattr(mod, "ExportMove", None)
    except ImportError:
        write = export_move = None
    if callable(write) and export_move is not None:
        tags = pgn_tags(game, white, black, created_at)
        try:
            moves = [export_move(m.san, m.clock_ms, None, m.draw_offer) for m in game.state.moves]
            out = write(dict(tags), moves, dict(tags)["Result"])
            if isinstance(out, str) and out.strip():
                return out
        except Exception as err:  # e.g. an illegal move that stands (1997 blitz): the plain writer keeps it
            log.info("chesslaws.pgn.write_pgn could not write the game (%r): plain PGN instead", err)
    return simple_pgn(game, white, black, created_at)


__all__ = ["export_pgn", "pgn_tags", "simple_pgn"]
