"""PGN: reading games from files, writing them in the standard's export form.

:func:`read_pgn` streams games from a path or from bytes. Reading and move
validation happen in the native core (``pgn-reader`` and ``shakmaty``): each
main-line move is played, so every :class:`PgnMove` carries its canonical
SAN and its UCI. Variations are skipped (and counted). A game with a problem
(text that is not a move, an illegal or ambiguous move, an unclosed comment
or variation, a bad ``FEN`` tag) comes back with :attr:`PgnGame.errors` and
the moves before the problem; the reader goes on with the next game.

Comments are read as text, without the ``[%clk ...]`` commands (their value
is :attr:`PgnMove.clock_ms`) and the ``(=)`` draw-offer marks
(:attr:`PgnMove.draw_offer`, Appendix E.12 of the 1997 Laws); other
commands such as ``[%eval ...]`` are kept. Line breaks and runs of spaces
inside a comment are a writer's wrapping and read as one space; several
comments after one move are joined with a space.

:func:`write_pgn` writes one game in PGN export form: the seven-tag roster
in order, then the other tags; movetext in English SAN wrapped at 80
columns; ``{[%clk 1:23:45]}`` after a move with a clock time (``{[%emt
0:00:12]}`` with the time it took, for games without a clock); ``{(=)}``
after a move with a draw offer.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from chesslaws._core import PgnReader
from chesslaws.position import Position

__all__ = [
    "SEVEN_TAG_ROSTER",
    "ExportMove",
    "PgnError",
    "PgnGame",
    "PgnMove",
    "format_clock",
    "is_chess960_variant",
    "read_pgn",
    "write_pgn",
]

#: The tags every exported game carries, in this order (PGN standard 8.1.1).
SEVEN_TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

_ROSTER_DEFAULTS = {"Date": "????.??.??"}
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_LINE_WIDTH = 80


@dataclass(frozen=True)
class PgnMove:
    """A main-line move as read: canonical SAN (with ``+``/``#``, whatever
    the file wrote), UCI, the
    clock after it in milliseconds, the comment after it (without clock
    commands and draw-offer marks), its NAGs, the line it is on, and whether
    a ``(=)`` after it records a draw offer."""

    ply: int
    san: str
    uci: str
    clock_ms: int | None
    comment: str | None
    nags: tuple[int, ...]
    line: int
    draw_offer: bool


@dataclass(frozen=True)
class PgnError:
    """A problem in game number ``game`` (1-based) at ``line``, at move
    ``move_number`` (the full-move number); ``move`` is the text concerned
    (empty when the problem is not a single token)."""

    game: int
    line: int
    move_number: int
    move: str
    reason: str

    def __str__(self) -> str:
        what = f" {self.move!r}" if self.move else ""
        return f"game {self.game}, line {self.line}, move {self.move_number}:{what} {self.reason}"


@dataclass(frozen=True)
class PgnGame:
    """One game of a PGN file. ``number`` counts games from 1, ``line`` is
    where the game starts; ``result`` is the termination token (``None`` if
    missing); ``comment`` is a comment before the first move; ``final_fen``
    is the position after the last move played (after the moves before an
    error, if there is one)."""

    number: int
    line: int
    tags: dict[str, str]
    moves: tuple[PgnMove, ...]
    result: str | None
    errors: tuple[PgnError, ...]
    variations_skipped: int
    comment: str | None = None
    final_fen: str | None = None
    chess960: bool = False

    @property
    def ok(self) -> bool:
        """True when the game was read without any error."""
        return not self.errors

    @property
    def uci(self) -> tuple[str, ...]:
        """The main line in UCI."""
        return tuple(m.uci for m in self.moves)

    def export_moves(self) -> list[ExportMove]:
        """The moves as :class:`ExportMove`, ready for :func:`write_pgn`."""
        return [ExportMove(m.san, m.clock_ms, m.comment, m.draw_offer) for m in self.moves]


@dataclass(frozen=True)
class ExportMove:
    """A move to export: English SAN (or UCI), the clock after it in
    milliseconds, a comment, whether the player offered a draw with it, and
    the time it took (written ``[%emt]``, for games without a clock)."""

    san: str
    clock_ms: int | None = None
    comment: str | None = None
    draw_offer: bool = False
    elapsed_ms: int | None = None


def read_pgn(source: str | bytes | os.PathLike[str]) -> Iterator[PgnGame]:
    """The games of a PGN file, one at a time, in constant memory.

    ``source`` is a path (``str`` or ``os.PathLike``; plain, gzip or
    zstd, told by the first bytes, as ``chesslaws check`` reads them) or the
    PGN itself as ``bytes``. A ``str`` containing a line break is taken as
    PGN text, not a path. Text is UTF-8, else Latin-1 (old DOS and Windows
    files); a byte-order mark, Windows line endings and a Ctrl-Z ending the
    file are read as python-chess reads them. Moves and tags are read as
    ``chesslaws check`` reads them: SAN, FIDE long algebraic (``Ng1-f3``),
    FIDE promotions (``a8Q``), UCI coordinates (``g1f3``, ``e7e8Q``),
    figurines; annotation glyphs (``+=``, ``N``) are skipped; a tag value
    with quotes not escaped runs to the line's last ``"]``.
    """
    if isinstance(source, str) and ("\n" in source or "\r" in source):
        source = source.encode("utf-8")
    elif isinstance(source, bytearray | memoryview):
        source = bytes(source)
    return _games(PgnReader(source))  # opens the file now: errors come at once


def _games(reader: PgnReader) -> Iterator[PgnGame]:
    for number, line, tags, moves, result, errors, skipped, comment, fen, chess960 in reader:
        yield PgnGame(
            number=number,
            line=line,
            tags=dict(tags),
            moves=tuple(
                PgnMove(ply, san, uci, clock, text, tuple(nags), mline, draw)
                for ply, san, uci, clock, text, nags, mline, draw in moves
            ),
            result=result,
            errors=tuple(PgnError(*e) for e in errors),
            variations_skipped=skipped,
            comment=comment,
            final_fen=fen,
            chess960=chess960,
        )


def is_chess960_variant(value: str) -> bool:
    """True when a ``Variant`` tag's value names Chess960 (2023 Laws,
    Guidelines II), in any of the spellings the big exporters use:
    ``Chess960`` (lichess, chess.com), ``chess 960``, ``960``,
    ``fischerandom`` (cutechess, fastchess), ``Fischer Random``, ``freestyle``."""
    v = "".join(c for c in value if c.isascii() and c.isalnum()).lower()
    return v in {"chess960", "960", "fischerandom", "fischerrandom", "fischerrandomchess", "freestyle"}


def format_clock(ms: int) -> str:
    """A clock time as ``[%clk]`` writes it: ``H:MM:SS``, with tenths (or
    finer) only when the time has them."""
    if ms < 0:
        raise ValueError(f"a clock time cannot be negative: {ms} ms")
    secs, frac = divmod(ms, 1000)
    h, rest = divmod(secs, 3600)
    m, s = divmod(rest, 60)
    text = f"{h}:{m:02d}:{s:02d}"
    if frac:
        text += "." + f"{frac:03d}".rstrip("0")
    return text


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")


def _comment_words(text: str) -> list[str]:
    """A comment as tokens ``{w1``, ..., ``wn}``; braces inside the text are
    replaced so they cannot end the comment early."""
    clean = text.replace("{", "(").replace("}", ")")
    words = clean.split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def _wrap(tokens: Sequence[str]) -> str:
    lines: list[str] = []
    current = ""
    for tok in tokens:
        if not current:
            current = tok
        elif len(current) + 1 + len(tok) <= _LINE_WIDTH:
            current += " " + tok
        else:
            lines.append(current)
            current = tok
    if current:
        lines.append(current)
    return "\n".join(lines)


def write_pgn(
    tags: Mapping[str, str],
    moves: Sequence[ExportMove],
    result: str,
    *,
    comment: str | None = None,
    validate: bool = True,
) -> str:
    """One game in PGN export form (ends with a blank line).

    The moves are played from the standard position (or the ``FEN`` tag's,
    with ``SetUp "1"`` added if missing) and written in canonical English
    SAN; an illegal move raises :class:`~chesslaws.errors.IllegalMove`.
    With a Chess960 ``Variant`` tag (:func:`is_chess960_variant`) the moves
    follow Chess960 castling; the ``FEN`` tag may use X-FEN or Shredder-FEN.
    ``result`` is ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` and overrides a
    ``Result`` tag. ``comment`` is written before the first move.

    With ``validate=False`` the moves are written as given, unchecked: for a
    game in which an illegal move stood (other PGN readers will reject it).
    """
    if result not in _RESULTS:
        raise ValueError(f"a PGN result is one of {', '.join(_RESULTS)}, not {result!r}")
    out: list[str] = []
    for name in SEVEN_TAG_ROSTER:
        value = result if name == "Result" else tags.get(name, _ROSTER_DEFAULTS.get(name, "?"))
        out.append(f'[{name} "{_escape_tag(value)}"]')
    extra = dict(tags)
    if "FEN" in extra and "SetUp" not in extra:
        extra = {"SetUp": "1", **extra}
    for name, value in extra.items():
        if name in SEVEN_TAG_ROSTER:
            continue
        if not name or not all(c.isalnum() or c == "_" for c in name):
            raise ValueError(f"a PGN tag name is letters, digits and '_', not {name!r}")
        out.append(f'[{name} "{_escape_tag(value)}"]')

    chess960 = is_chess960_variant(tags.get("Variant", ""))
    position = Position(tags.get("FEN"), chess960=chess960)
    number, white = position.fullmove_number, position.turn == "white"
    tokens: list[str] = _comment_words(comment) if comment else []
    need_number = True
    for mv in moves:
        if white:
            tokens.append(f"{number}.")
        elif need_number:
            tokens.append(f"{number}...")
        if validate:
            san, _uci, position = position.play_annotated(mv.san)
        else:
            san = "".join(mv.san.split()) or "--"
        tokens.append(san)
        if not white:
            number += 1
        white = not white
        need_number = False
        if mv.clock_ms is not None:
            tokens.append("{[%clk " + format_clock(mv.clock_ms) + "]}")
            need_number = True
        if mv.elapsed_ms is not None:
            tokens.append("{[%emt " + format_clock(mv.elapsed_ms) + "]}")
            need_number = True
        if mv.draw_offer:
            tokens.append("{(=)}")
            need_number = True
        if mv.comment:
            words = _comment_words(mv.comment)
            if words:
                tokens.extend(words)
                need_number = True
    tokens.append(result)
    return "\n".join(out) + "\n\n" + _wrap(tokens) + "\n\n"
