"""The starting positions of a match: each game's final position in a PGN file, or the positions of an EPD
file, each played twice with the colours reversed."""

from __future__ import annotations

from dataclasses import dataclass

from chesslaws.errors import InvalidFen, InvalidInput
from chesslaws.pgn import read_pgn
from chesslaws.position import Position

__all__ = ["Opening", "read_openings"]


@dataclass(frozen=True, slots=True)
class Opening:
    """A starting position for a pair of games; ``line`` names it (SAN moves or the EPD id)."""

    fen: str | None  # None: the standard initial position
    line: str = ""


def read_openings(path: str) -> list[Opening]:
    """Openings from a PGN file (each game's final position) or an EPD file (one position a line).

    Errors name the file, the line and what is wrong.
    """
    lower = path.lower()
    if lower.endswith((".epd", ".fen", ".txt")):
        return _read_epd(path)
    out: list[Opening] = []
    try:
        games = read_pgn(path)
        for g in games:
            if g.errors:
                raise InvalidInput(f"{path}: opening {g.number} (line {g.line}): {g.errors[0]}")
            fen = g.final_fen if g.moves else g.tags.get("FEN")
            line = " ".join(m.san for m in g.moves)
            out.append(Opening(fen, line or g.tags.get("Opening", f"game {g.number}")))
    except OSError as err:
        raise InvalidInput(f"{path}: cannot read the openings ({err.strerror or err})") from None
    if not out:
        raise InvalidInput(f"{path}: no openings found (a PGN file of games, or an EPD file with .epd)")
    return out


def _read_epd(path: str) -> list[Opening]:
    out: list[Opening] = []
    try:
        with open(path, encoding="utf-8-sig") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise InvalidInput(f"{path}: cannot read the openings ({err})") from None
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        words = text.split()
        if len(words) < 4:
            raise InvalidInput(f"{path}, line {n}: an EPD line starts with 4 FEN fields, not {text!r}")
        counters = words[4:6] if len(words) >= 6 and all(w.isdigit() for w in words[4:6]) else ["0", "1"]
        fen = " ".join(words[:4] + counters)
        try:
            Position(fen)
        except InvalidFen as err:
            raise InvalidInput(f"{path}, line {n}: {err}") from None
        name = ""
        if ' id "' in text:
            name = text.split(' id "', 1)[1].split('"', 1)[0]
        out.append(Opening(fen, name or f"line {n}"))
    if not out:
        raise InvalidInput(f"{path}: no positions found")
    return out
