"""Algebraic notation in every language: reading, writing, tolerance, ambiguity."""

from __future__ import annotations

import random

import chess
import pytest

from chesslaws import AmbiguousMove, IllegalMove, Position, UnreadableMove
from chesslaws.notation import LANGUAGES, read_move, translate_san, write_move

# Written independently of the module: king, queen, rook, bishop, knight.
EXPECTED_LETTERS = {
    "en": ("K", "Q", "R", "B", "N"),
    "fr": ("R", "D", "T", "F", "C"),
    "de": ("K", "D", "T", "L", "S"),
    "es": ("R", "D", "T", "A", "C"),
    "it": ("R", "D", "T", "A", "C"),
    "nl": ("K", "D", "T", "L", "P"),
    "pt": ("R", "D", "T", "B", "C"),
    "pl": ("K", "H", "W", "G", "S"),
    "cs": ("K", "D", "V", "S", "J"),
    "hu": ("K", "V", "B", "F", "H"),
    "sv": ("K", "D", "T", "L", "S"),
    "da": ("K", "D", "T", "L", "S"),
    "no": ("K", "D", "T", "L", "S"),
    "fi": ("K", "D", "T", "L", "R"),
    "ru": ("Кр", "Ф", "Л", "С", "К"),
    "figurine": ("♔", "♕", "♖", "♗", "♘"),
}
BLACK_FIGURINES = ("♚", "♛", "♜", "♝", "♞")


def localize(san: str, code: str) -> str:
    """English SAN to a language's letters, the slow obvious way."""
    table = dict(zip("KQRBN", EXPECTED_LETTERS[code], strict=True))
    if san.startswith("O-O"):
        return san
    out = table[san[0]] + san[1:] if san[0] in table else san
    if "=" in out:
        head, tail = out.split("=", 1)
        out = head + "=" + table[tail[0]] + tail[1:]
    return out


def real_positions(count: int, seed: int = 8) -> list[str]:
    """FENs from random games (python-chess), with every kind of move."""
    rng = random.Random(seed)
    fens = [
        # Every piece can move, castling both ways, a promotion, en passant.
        "r3k2r/1P3ppp/8/3pP3/8/8/5PPP/R3K2R w KQkq d6 0 20",
        "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8",
    ]
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


def test_every_language_is_there() -> None:
    assert set(EXPECTED_LETTERS) <= set(LANGUAGES)
    for code, letters in EXPECTED_LETTERS.items():
        assert tuple(LANGUAGES[code].letter(r) for r in "KQRBN") == letters, code


@pytest.mark.parametrize("code", sorted(EXPECTED_LETTERS))
def test_every_language_both_ways_on_real_positions(code: str) -> None:
    seen_roles: set[str] = set()
    for fen in real_positions(12):
        position = Position(fen)
        board = chess.Board(fen)
        for move in board.legal_moves:
            uci = move.uci()
            english = board.san(move)
            written = write_move(position, uci, code)
            assert written == localize(english, code), (fen, uci)
            assert read_move(position, written, code) == uci, (fen, written)
            if english[0] in "KQRBN":
                seen_roles.add(english[0])
    assert seen_roles == set("KQRBN")


def test_known_spellings() -> None:
    start = Position()
    assert read_move(start, "Cf3", "fr") == "g1f3"
    assert read_move(start, "Sf3", "de") == "g1f3"
    assert read_move(start, "Pf3", "nl") == "g1f3"
    assert read_move(start, "Jf3", "cs") == "g1f3"
    assert read_move(start, "Hf3", "hu") == "g1f3"
    assert read_move(start, "Rf3", "fi") == "g1f3"
    assert read_move(start, "Кf3", "ru") == "g1f3"
    assert write_move(start, "g1f3", "ru") == "Кf3"
    after = start.play_many(["e2e4", "e7e5"])
    assert read_move(after, "Крe2", "ru") == "e1e2"
    assert write_move(after, "e1e2", "ru") == "Крe2"
    assert read_move(after, "Фh5", "ru") == "d1h5"
    assert read_move(after, "Сc4", "ru") == "f1c4"
    assert write_move(after, "f1c4", "fr") == "Fc4"
    assert write_move(after, "d1h5", "pl") == "Hh5"


def test_figurines_of_both_colours_are_read_everywhere() -> None:
    start = Position()
    for code in LANGUAGES:
        assert read_move(start, "♘f3", code) == "g1f3"
        assert read_move(start, "♞f3", code) == "g1f3"
    black = start.play("e2e4")
    assert read_move(black, "♞c6") == "b8c6"
    assert read_move(black, "♘c6") == "b8c6"
    # Written in one style: the white figurines, whoever moves.
    assert write_move(black, "b8c6", "figurine") == "♘c6"
    promo = Position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert read_move(promo, "e8=♛") == "e7e8q"
    assert write_move(promo, "e7e8n", "figurine") == "e8=♘"
    for role, black_fig in zip("KQRBN", BLACK_FIGURINES, strict=True):
        assert translate_san(black_fig + "d4", "figurine", "en") == role + "d4"


@pytest.mark.parametrize(
    ("fen", "text", "uci"),
    [
        # Castling in every usual spelling, with or without check marks.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "o-o", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O+", "e1c1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "0–0", "e8g8"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "000", "e8c8"),
        # Promotions.
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8Q", "e7e8q"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=Q", "e7e8q"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8(Q)", "e7e8q"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8/Q", "e7e8q"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=N+", "e7e8n"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7-e8R", "e7e8r"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8b", "e7e8b"),
        # Missing or extra capture sign, check or mate sign.
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "ed5", "e4d5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "exd5", "e4d5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e:d5", "e4d5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Nxf3", "g1f3"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Nf3+", "g1f3"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Bb5", "f1b5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Bb5+", "f1b5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Bb5#", "f1b5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Bb5!?", "f1b5"),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Bb5+??", "f1b5"),
        # Long algebraic.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Ng1-f3", "g1f3"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Ng1f3", "g1f3"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2-e4", "e2e4"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2–e4", "e2e4"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "  e4  ", "e2e4"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Cg1-f3", "g1f3"),
        # En passant, with its suffixes.
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6 e.p.", "e5f6"),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6ep", "e5f6"),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "ef6 e.p.", "e5f6"),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6", "e5f6"),
        # A draw offer mark written next to the move.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e4 (=)", "e2e4"),
    ],
)
def test_tolerance(fen: str, text: str, uci: str) -> None:
    assert read_move(Position(fen), text) == uci


def test_tolerance_in_other_languages() -> None:
    pos = Position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert read_move(pos, "e8D", "fr") == "e7e8q"
    assert read_move(pos, "e8=D+", "de") == "e7e8q"
    assert read_move(pos, "e8(Ф)", "ru") == "e7e8q"
    assert read_move(pos, "e8C", "fr") == "e7e8n"
    castle = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for code in LANGUAGES:
        assert read_move(castle, "0-0", code) == "e1g1"
        assert read_move(castle, "O-O-O", code) == "e1c1"


def test_ambiguous_knights_name_both() -> None:
    pos = Position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    with pytest.raises(AmbiguousMove) as info:
        read_move(pos, "Nd2")
    err = info.value
    assert sorted(err.candidates) == ["b1d2", "f3d2"]
    assert "Nbd2" in str(err) and "Nfd2" in str(err)
    assert err.move == "Nd2"
    assert err.fen == pos.fen()
    # The same in French: the message names the moves in French letters.
    with pytest.raises(AmbiguousMove) as info_fr:
        read_move(pos, "Cd2", "fr")
    assert sorted(info_fr.value.candidates) == ["b1d2", "f3d2"]
    assert "Cbd2" in str(info_fr.value) and "Cfd2" in str(info_fr.value)
    with pytest.raises(AmbiguousMove) as info_de:
        read_move(pos, "Sd2", "de")
    assert "Sbd2" in str(info_de.value) and "Sfd2" in str(info_de.value)
    with pytest.raises(AmbiguousMove) as info_ru:
        read_move(pos, "Кd2", "ru")
    assert "Кbd2" in str(info_ru.value) and "Кfd2" in str(info_ru.value)
    # Disambiguated forms are fine.
    assert read_move(pos, "Nbd2") == "b1d2"
    assert read_move(pos, "N3d2") == "f3d2"
    assert read_move(pos, "Cfd2", "fr") == "f3d2"
    assert read_move(pos, "Nf3-d2") == "f3d2"


def test_ambiguous_rooks_and_queens() -> None:
    pos = Position("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(AmbiguousMove) as info:
        read_move(pos, "Rd1")
    assert sorted(info.value.candidates) == ["a1d1", "h1d1"]
    assert read_move(pos, "Rad1") == "a1d1"
    assert read_move(pos, "Thd1", "de") == "h1d1"


def test_promotion_without_piece_is_ambiguous_not_guessed() -> None:
    pos = Position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    with pytest.raises(AmbiguousMove) as info:
        read_move(pos, "e8")
    assert sorted(info.value.candidates) == ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    with pytest.raises(AmbiguousMove) as info_fr:
        read_move(pos, "e8", "fr")
    assert "e8=D" in str(info_fr.value) and "e8=C" in str(info_fr.value)


def test_languages_reading_differently_is_ambiguous() -> None:
    # "Sf3" is a knight move in German and a bishop move in Czech (S = strelec).
    pos = Position("4k3/8/8/8/8/8/4B3/4K1N1 w - - 0 1")
    with pytest.raises(AmbiguousMove) as info:
        read_move(pos, "Sf3")
    assert sorted(info.value.candidates) == ["e2f3", "g1f3"]
    message = str(info.value)
    assert "German" in message and "Czech" in message
    assert "Nf3" in message and "Bf3" in message
    # With the language given there is no doubt.
    assert read_move(pos, "Sf3", "de") == "g1f3"
    assert read_move(pos, "Sf3", "cs") == "e2f3"
    # English comes first: "Bf3" is a bishop even though B is a Hungarian rook.
    rook = Position("4k3/8/8/8/8/8/4B3/4K2R w - - 0 1")
    assert read_move(rook, "Bf3") == "e2f3"
    assert read_move(rook, "Bh3", "hu") == "h1h3"


def test_other_languages_when_english_cannot_read() -> None:
    start = Position()
    assert read_move(start, "Cf3") == "g1f3"  # French, Spanish, Italian, Portuguese
    assert read_move(start, "Sc3") == "b1c3"  # German and others; Czech bishop cannot
    assert read_move(start, "Кc3") == "b1c3"


def test_illegal_moves() -> None:
    start = Position()
    for text, language in [("Nd4", None), ("e5", None), ("Cd4", "fr"), ("O-O", None), ("Ke2", None)]:
        with pytest.raises(IllegalMove) as info:
            read_move(start, text, language)
        assert info.value.move == text
        assert info.value.fen == start.fen()
    # A pinned knight cannot move; nothing is guessed.
    pinned = Position("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    with pytest.raises(IllegalMove):
        read_move(pinned, "Nc3")
    # A king's two-square step is written as castling, not as a king move.
    castle = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    with pytest.raises(IllegalMove):
        read_move(castle, "Kg1")
    assert read_move(castle, "e1g1") == "e1g1"


def test_unreadable_moves() -> None:
    start = Position()
    for text, language in [
        ("", None),
        ("hello", None),
        ("Nf9", None),
        ("Zf3", None),
        ("Nf3", "fr"),  # N is not a French letter
        ("Cf3", "en"),
        ("e4" * 30, None),
        ("Ne8=Q", None),
        ("e8=K", None),
    ]:
        with pytest.raises(UnreadableMove) as info:
            read_move(start, text, language)
        assert info.value.move == text


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="known"):
        read_move(Position(), "e4", "xx")
    with pytest.raises(ValueError):
        write_move(Position(), "e4", "klingon")


def test_write_move_takes_uci_english_or_local_san() -> None:
    pos = Position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    assert write_move(pos, "b1d2", "fr") == "Cbd2"
    assert write_move(pos, "Nbd2", "fr") == "Cbd2"
    assert write_move(pos, "Cbd2", "fr") == "Cbd2"
    assert write_move(pos, "Nbd2") == "Nbd2"
    mate = Position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert write_move(mate, "a1a8", "de") == "Ta8#"
    assert write_move(mate, "a1a8", "ru") == "Лa8#"


def test_translate_san_letters_only() -> None:
    assert translate_san("Nbd2+", "en", "fr") == "Cbd2+"
    assert translate_san("exd8=Q#", "en", "de") == "exd8=D#"
    assert translate_san("Cbd2", "fr", "de") == "Sbd2"
    assert translate_san("O-O-O", "en", "ru") == "O-O-O"
    assert translate_san("Крe2", "ru", "en") == "Ke2"
    assert translate_san("Кe2", "ru", "en") == "Ne2"
    assert translate_san("Rxa1!?", "en", "hu") == "Bxa1!?"
    assert translate_san("e4", "en", "figurine") == "e4"
    assert translate_san("♕h5", "figurine", "it") == "Dh5"
    # Every language to every other and back.
    samples = ["Ke2", "Qxh7+", "Rad1", "Bb5", "N1f3", "e8=N", "gxf1=R#", "O-O"]
    for a in LANGUAGES:
        for b in LANGUAGES:
            for san in samples:
                there = translate_san(translate_san(san, "en", a), a, b)
                assert translate_san(there, b, "en") == san
    with pytest.raises(UnreadableMove):
        translate_san("Xe4", "en", "fr")
    with pytest.raises(UnreadableMove):
        translate_san("Nf3", "fr", "en")
