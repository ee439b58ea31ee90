"""Algebraic notation in the piece letters of many languages.

The Laws require the algebraic notation (1997 Laws, Article 8.1 and
Appendix E) and let each country write its own piece letters: a French
scoresheet says ``Cf3`` where an English one says ``Nf3``. Files and ranks
are the same everywhere (``a``-``h``, ``1``-``8``); pawns have no letter.

- :data:`LANGUAGES` maps a code (``"en"``, ``"fr"``, ``"de"``, ...) to its
  :class:`Language`: the letters for king, queen, rook, bishop and knight.
- :func:`read_move` reads a move as a scoresheet writes it and returns it in
  UCI. It is tolerant about form (``0-0`` and ``O-O``; ``e8Q``, ``e8=Q``,
  ``e8(Q)``, ``e8/Q``; a missing or extra ``x``, ``+`` or ``#``; long
  algebraic ``Ng1-f3``, ``Ng1f3``, ``e2-e4``; ``e.p.``; ``!``/``?``
  annotations) and strict about meaning: a move that fits two legal moves
  raises :class:`~chesslaws.errors.AmbiguousMove` naming both, a move that
  fits none raises :class:`~chesslaws.errors.IllegalMove`, text that is not a
  move raises :class:`~chesslaws.errors.UnreadableMove`. It never picks one
  move among several, and never completes a move the text does not imply
  (``e8`` with a promotion is ambiguous between four pieces).
- :func:`write_move` writes a move in SAN with a language's letters.
- :func:`translate_san` changes the letters of a SAN text.

Figurines (``♔♕♖♗♘`` and ``♚♛♜♝♞``) are read in every language and written
in the white style by the ``"figurine"`` language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.position import Position

__all__ = [
    "LANGUAGES",
    "ROLES",
    "Language",
    "get_language",
    "read_illegal_move",
    "read_move",
    "translate_san",
    "write_move",
]

#: The pieces that have letters, in the order king, queen, rook, bishop,
#: knight, by their English letters.
ROLES: tuple[str, ...] = ("K", "Q", "R", "B", "N")

_ROLE_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight"}

_FIGURINES_WHITE = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘"}
_FIGURINES_BLACK = {"K": "♚", "Q": "♛", "R": "♜", "B": "♝", "N": "♞"}
_FIGURINE_ROLES = {v: k for k, v in _FIGURINES_WHITE.items()} | {
    v: k for k, v in _FIGURINES_BLACK.items()
}


@dataclass(frozen=True)
class Language:
    """A language's piece letters.

    ``letters`` maps each role (by its English letter, see :data:`ROLES`) to
    the letter written in this language; ``also_read`` maps other spellings
    read (never written) to roles.
    """

    code: str
    name: str
    letters: Mapping[str, str]
    also_read: Mapping[str, str] = field(default_factory=dict)

    def letter(self, role: str) -> str:
        """The letter written for ``role`` (``"K"``, ``"Q"``, ``"R"``, ``"B"``, ``"N"``)."""
        return self.letters[role]

    def readings(self) -> dict[str, str]:
        """Every spelling read as a piece, with its role (figurines included)."""
        out = {v: k for k, v in self.letters.items()}
        out.update(self.also_read)
        for spelling, role in _FIGURINE_ROLES.items():
            out.setdefault(spelling, role)
        return out


def _lang(code: str, name: str, letters: str | tuple[str, ...], **also: str) -> Language:
    parts = tuple(letters.split()) if isinstance(letters, str) else letters
    assert len(parts) == 5
    return Language(code, name, MappingProxyType(dict(zip(ROLES, parts, strict=True))), also)


#: The languages, by code. Letters are king, queen, rook, bishop, knight.
LANGUAGES: Mapping[str, Language] = MappingProxyType(
    {
        lang.code: lang
        for lang in (
            _lang("en", "English", "K Q R B N"),
            _lang("fr", "French", "R D T F C"),
            _lang("de", "German", "K D T L S"),
            _lang("es", "Spanish", "R D T A C"),
            _lang("it", "Italian", "R D T A C"),
            _lang("nl", "Dutch", "K D T L P"),
            _lang("pt", "Portuguese", "R D T B C"),
            _lang("pl", "Polish", "K H W G S"),
            _lang("cs", "Czech", "K D V S J"),
            _lang("hu", "Hungarian", "K V B F H"),
            _lang("sv", "Swedish", "K D T L S"),
            _lang("da", "Danish", "K D T L S"),
            _lang("no", "Norwegian", "K D T L S"),
            _lang("fi", "Finnish", "K D T L R"),
            Language(
                "ru",
                "Russian",
                MappingProxyType(dict(zip(ROLES, ("Кр", "Ф", "Л", "С", "К"), strict=True))),
                {"КР": "K"},
            ),
            Language("figurine", "Figurine", MappingProxyType(dict(_FIGURINES_WHITE))),
        )
    }
)


def get_language(code: str) -> Language:
    """The :class:`Language` for ``code``; ``ValueError`` names the known codes."""
    try:
        return LANGUAGES[code]
    except KeyError:
        known = ", ".join(LANGUAGES)
        raise ValueError(f"unknown notation language {code!r}; known: {known}") from None


# ---------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class _Parsed:
    castle: str | None = None  # "K" (short) or "Q" (long)
    role: str | None = None
    from_file: str | None = None
    from_rank: str | None = None
    to: str = ""
    promotion: str | None = None


_SUFFIX = re.compile(r"(?:\s+|[!?]+|[+#†‡]+|\$\d+|\(=\)|e\.\s*p\.?|(?<=[1-8])ep)$")
_CASTLE_SHORT = re.compile(r"^[O0o]-?[O0o]$")
_CASTLE_LONG = re.compile(r"^[O0o]-?[O0o]-?[O0o]$")
_DASHES = str.maketrans({"–": "-", "—": "-", "‐": "-", "−": "-"})


def _strip(text: str) -> str:
    t = text.strip().translate(_DASHES)
    while True:
        stripped = _SUFFIX.sub("", t)
        if stripped == t:
            break
        t = stripped
    return re.sub(r"\s+", "", t)


_PATTERNS: dict[str, tuple[re.Pattern[str], dict[str, str]]] = {}


def _pattern(lang: Language) -> tuple[re.Pattern[str], dict[str, str]]:
    cached = _PATTERNS.get(lang.code)
    if cached is not None:
        return cached
    readings = lang.readings()
    promo_readings = dict(readings)
    for spelling, role in readings.items():
        promo_readings.setdefault(spelling.lower(), role)
        promo_readings.setdefault(spelling.upper(), role)
    pieces = "|".join(re.escape(s) for s in sorted(readings, key=len, reverse=True))
    promos = "|".join(re.escape(s) for s in sorted(promo_readings, key=len, reverse=True))
    pattern = re.compile(
        rf"^(?P<piece>{pieces})?(?P<ff>[a-h])?(?P<fr>[1-8])?[-x:×]?(?P<to>[a-h][1-8])"
        rf"(?:[=/(]?(?P<promo>{promos})\)?)?$"
    )
    _PATTERNS[lang.code] = (pattern, promo_readings | readings)
    return pattern, promo_readings | readings


def _parse(text: str, lang: Language) -> _Parsed | None:
    body = _strip(text)
    if _CASTLE_SHORT.match(body):
        return _Parsed(castle="K")
    if _CASTLE_LONG.match(body):
        return _Parsed(castle="Q")
    pattern, readings = _pattern(lang)
    m = pattern.match(body)
    if m is None:
        return None
    piece = m.group("piece")
    promo = m.group("promo")
    promotion = readings[promo] if promo else None
    if promotion == "K":
        return None
    if piece is not None and promotion is not None:
        return None
    return _Parsed(
        role=readings[piece] if piece else None,
        from_file=m.group("ff"),
        from_rank=m.group("fr"),
        to=m.group("to"),
        promotion=promotion,
    )


def _matches(position: Position, parsed: _Parsed) -> list[str]:
    out = []
    for uci in position.legal_moves():
        frm, to, promo = uci[:2], uci[2:4], uci[4:].upper() or None
        piece = position.piece_at(frm)
        role = piece.upper() if piece else ""
        is_castle = role == "K" and abs(ord(frm[0]) - ord(to[0])) == 2
        if parsed.castle is not None:
            if is_castle and (to[0] == "g") == (parsed.castle == "K"):
                out.append(uci)
            continue
        if to != parsed.to:
            continue
        full_from = parsed.from_file is not None and parsed.from_rank is not None
        if is_castle and not (full_from and parsed.role in (None, "K")):
            continue
        if parsed.role is not None:
            if role != parsed.role:
                continue
        elif not full_from and role != "P":
            continue
        if parsed.from_file is not None and frm[0] != parsed.from_file:
            continue
        if parsed.from_rank is not None and frm[1] != parsed.from_rank:
            continue
        if parsed.promotion is not None and promo != parsed.promotion:
            continue
        out.append(uci)
    return out


def _join(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _ambiguous(position: Position, text: str, candidates: list[str], lang: Language) -> AmbiguousMove:
    named = [f"{write_move(position, u, lang.code)} ({u})" for u in candidates]
    err = AmbiguousMove(
        f"ambiguous move {text!r} in {position.fen()}: it fits {_join(named)}"
    )
    err.move = text
    err.fen = position.fen()
    err.candidates = list(candidates)
    return err


def _illegal(position: Position, text: str, why: str) -> IllegalMove:
    err = IllegalMove(f"illegal move {text!r} in {position.fen()}: {why}")
    err.move = text
    err.fen = position.fen()
    return err


def _unreadable(position: Position | None, text: str, why: str) -> UnreadableMove:
    fen = position.fen() if position is not None else ""
    where = f" in {fen}" if fen else ""
    err = UnreadableMove(f"unreadable move {text!r}{where}: {why}")
    err.move = text
    err.fen = fen
    return err


def _describe(parsed: _Parsed) -> str:
    if parsed.castle is not None:
        return "castling " + ("short (O-O)" if parsed.castle == "K" else "long (O-O-O)")
    who = _ROLE_NAMES[parsed.role] if parsed.role else "pawn"
    if parsed.role is None and parsed.from_file and parsed.from_rank:
        who = "piece"
    frm = (parsed.from_file or "") + (parsed.from_rank or "")
    s = f"a {who}{' from ' + frm if frm else ''} to {parsed.to}"
    if parsed.promotion:
        s += f" promoting to a {_ROLE_NAMES[parsed.promotion]}"
    return s


def _read_in(position: Position, text: str, lang: Language) -> str:
    parsed = _parse(text, lang)
    if parsed is None:
        raise _unreadable(position, text, f"not a move in {lang.name} algebraic notation")
    found = _matches(position, parsed)
    if len(found) == 1:
        return found[0]
    if not found:
        side = position.turn
        how = "" if lang.code == "en" else f" (reading it in {lang.name} notation)"
        raise _illegal(position, text, f"{side} has no legal move that is {_describe(parsed)}{how}")
    raise _ambiguous(position, text, found, lang)


def read_move(position: Position, text: str, language: str | None = None) -> str:
    """Reads a move written on a scoresheet and returns it in UCI.

    With ``language`` (a key of :data:`LANGUAGES`) the move is read with
    that language's letters (figurines are read in every language; a move
    with its starting square, like ``g1f3``, needs no letter). Without it,
    English is tried first; if English cannot read the move or finds it
    illegal, every other language is tried, and if two languages read it as
    different legal moves the move is ambiguous and the error names both
    readings.
    """
    if not isinstance(text, str):
        raise TypeError(f"a move is a str, not {type(text).__name__}")
    if len(text) > 40:
        raise _unreadable(position, text, "too long to be a move")
    if language is not None:
        return _read_in(position, text, get_language(language))

    english = LANGUAGES["en"]
    try:
        return _read_in(position, text, english)
    except AmbiguousMove:
        raise
    except (IllegalMove, UnreadableMove) as english_error:
        first_error: IllegalMove | UnreadableMove = english_error

    readings: dict[str, list[Language]] = {}
    ambiguous: AmbiguousMove | None = None
    illegal: IllegalMove | None = first_error if isinstance(first_error, IllegalMove) else None
    for lang in LANGUAGES.values():
        if lang.code == "en":
            continue
        try:
            uci = _read_in(position, text, lang)
        except AmbiguousMove as e:
            ambiguous = ambiguous or e
            continue
        except IllegalMove as e:
            illegal = illegal or e
            continue
        except UnreadableMove:
            continue
        readings.setdefault(uci, []).append(lang)
    if len(readings) == 1:
        return next(iter(readings))
    if len(readings) > 1:
        named = []
        for uci, langs in readings.items():
            names = _join([la.name for la in langs])
            named.append(f"{position.san(uci)} ({uci}) reading it in {names}")
        err = AmbiguousMove(
            f"ambiguous move {text!r} in {position.fen()}: the languages read it "
            f"differently: {_join(named)}"
        )
        err.move = text
        err.fen = position.fen()
        err.candidates = list(readings)
        raise err
    if ambiguous is not None:
        raise ambiguous
    if illegal is not None:
        raise illegal
    raise _unreadable(position, text, "not a move in the algebraic notation of any known language")


def _reaches(role: str, frm: str, to: str, white: bool) -> bool:
    """Whether a piece of ``role`` on ``frm`` moves that way to ``to`` on an empty board (a pawn: one or two
    squares forward, or one diagonally forward): what tells apart the pieces an illegal move may name."""
    df, dr = ord(to[0]) - ord(frm[0]), int(to[1]) - int(frm[1])
    if (df, dr) == (0, 0):
        return False
    if role == "K":
        return max(abs(df), abs(dr)) == 1 or (dr == 0 and abs(df) == 2)
    if role == "N":
        return {abs(df), abs(dr)} == {1, 2}
    if role == "R":
        return df == 0 or dr == 0
    if role == "B":
        return abs(df) == abs(dr)
    if role == "Q":
        return df == 0 or dr == 0 or abs(df) == abs(dr)
    ahead = dr if white else -dr
    return (df == 0 and ahead in (1, 2)) or (abs(df) == 1 and ahead == 1)


def _illegal_in(position: Position, text: str, lang: Language) -> str:
    """The squares of a move that ``text`` names in ``lang`` and that the Laws do not allow: the from-square
    written, or the one piece of the side to move with that letter (a pawn without one) that could go there."""
    parsed = _parse(text, lang)
    if parsed is None:
        raise _unreadable(position, text, f"not a move in {lang.name} algebraic notation")
    if parsed.castle is not None:
        raise _unreadable(position, text, "an illegal castling is written as the king's move, e.g. e1g1")
    white = position.turn == "white"
    promo = (parsed.promotion or "").lower()
    if parsed.from_file is not None and parsed.from_rank is not None:
        return parsed.from_file + parsed.from_rank + parsed.to + promo
    role = parsed.role or "P"
    mine = role if white else role.lower()
    pieces = [f + r for f in "abcdefgh" for r in "12345678" if position.piece_at(f + r) == mine
              and (parsed.from_file is None or f == parsed.from_file)
              and (parsed.from_rank is None or r == parsed.from_rank)]
    reaching = [sq for sq in pieces if _reaches(role, sq, parsed.to, white)]
    found = reaching if reaching else pieces
    if len(found) == 1:
        return found[0] + parsed.to + promo
    who = _describe(parsed)
    if not found:
        raise _illegal(position, text, f"{position.turn} has no piece for {who}")
    candidates = [sq + parsed.to + promo for sq in found]
    err = AmbiguousMove(f"ambiguous move {text!r} in {position.fen()}: it fits "
                        f"{_join([f'{sq}-{parsed.to}' for sq in found])}")
    err.move = text
    err.fen = position.fen()
    err.candidates = candidates
    raise err


def read_illegal_move(position: Position, text: str, language: str | None = None) -> tuple[str, bool]:
    """A move as the arbiter records what a player did on the board, legal or not: its UCI, and whether it is
    legal. A legal move is read as :func:`read_move` reads it; a move no legal move fits is read by the same
    grammar (``Ke6``, ``Sf3`` in German letters with ``language``, ``e8-e6``, ``e8e6``) as the piece of the side
    to move that it names and the square it went to, in coordinates, as an illegal move is logged.
    Two pieces the text could name raise :class:`~chesslaws.errors.AmbiguousMove`; no such piece,
    :class:`~chesslaws.errors.IllegalMove`; text that is no move, :class:`~chesslaws.errors.UnreadableMove`."""
    first: IllegalMove | UnreadableMove | None = None
    for reading in dict.fromkeys((language, "en")) if language is not None else (None,):
        try:
            return read_move(position, text, reading), True
        except (IllegalMove, UnreadableMove) as err:
            first = first or err
    if len(text) > 40:
        raise _unreadable(position, text, "too long to be a move")
    langs = [get_language(language)] if language is not None else []
    if not langs or langs[0].code != "en":
        langs.append(LANGUAGES["en"])
    for lang in langs:
        try:
            return _illegal_in(position, text, lang), False
        except UnreadableMove as e:
            first = first if isinstance(first, UnreadableMove) else e
    assert first is not None
    raise first


# ---------------------------------------------------------------------------
# Writing


_SAN_SHAPE = re.compile(
    r"^(?P<piece>[^a-h\s]+?)?(?P<body>[a-h]?[1-8]?[-x:×]?[a-h][1-8])"
    r"(?P<pz>[=/(])?(?P<promo>[^+#!?\s)]+)?(?P<tail>.*)$"
)


def translate_san(san: str, from_lang: str, to_lang: str) -> str:
    """``san`` with the piece letters of ``from_lang`` replaced by those of
    ``to_lang``. Squares, captures, checks and annotations are kept as they
    are; the moves are not checked."""
    src = get_language(from_lang)
    dst = get_language(to_lang)
    text = san.strip()
    if _CASTLE_SHORT.match(_strip(text)) or _CASTLE_LONG.match(_strip(text)):
        return text
    m = _SAN_SHAPE.match(text)
    if m is None:
        raise _unreadable(None, san, f"not a move in {src.name} algebraic notation")
    readings = src.readings()
    out = []
    piece = m.group("piece")
    if piece:
        if piece not in readings:
            raise _unreadable(None, san, f"{piece!r} is not a {src.name} piece letter")
        out.append(dst.letter(readings[piece]))
    out.append(m.group("body"))
    promo = m.group("promo")
    if promo:
        role = readings.get(promo) or readings.get(promo.upper())
        if role is None:
            raise _unreadable(None, san, f"{promo!r} is not a {src.name} piece letter")
        out.append(m.group("pz") or "")
        out.append(dst.letter(role))
    elif m.group("pz"):
        out.append(m.group("pz"))
    out.append(m.group("tail"))
    return "".join(out)


def write_move(position: Position, uci_or_san: str, language: str = "en") -> str:
    """The SAN (with ``+`` or ``#``) of a move, in ``language``'s letters.

    The move is given in UCI or English SAN, or in SAN with ``language``'s
    letters.
    """
    lang = get_language(language)
    try:
        san = position.san(uci_or_san)
    except (UnreadableMove, IllegalMove):
        if lang.code == "en":
            raise
        san = position.san(_read_in(position, uci_or_san, lang))
    return translate_san(san, "en", lang.code)
