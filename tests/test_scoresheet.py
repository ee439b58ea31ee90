"""The printable scoresheet."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from chesslaws.scoresheet import render_scoresheet

HEADER = {
    "Event": "Club Championship",
    "Site": "Lyon",
    "Date": "1997.03.01",
    "Round": "4",
    "Board": "2",
    "White": "Anne <Dupont> & Co",
    "Black": "Jean \"Le Roc\" Martin",
    "WhiteElo": "2150",
}
MOVES = [("e4", False), ("e5", False), ("Nf3", False), ("Nc6", True), ("Bb5", False), ("a6", False),
         ("Ba4", False), ("Nf6", False), ("O-O", True), ("Be7", False), ("Qe2", False)]


class Rows(HTMLParser):
    """Collects the move tables' rows as lists of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.in_moves = 0
        self.cell: list[str] | None = None
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("class", "moves") in attrs:
            self.in_moves += 1
        elif tag == "tr" and self.in_moves:
            self.rows.append([])
        elif tag == "td" and self.in_moves:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.in_moves:
            self.in_moves -= 1
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        self.texts.append(data)


def parse(html: str) -> Rows:
    p = Rows()
    p.feed(html)
    p.close()
    return p


def test_moves_in_numbered_rows_with_draw_offers() -> None:
    page = render_scoresheet(HEADER, MOVES, "1/2-1/2")
    rows = [r for r in parse(page).rows if r]
    assert rows[0] == ["1", "e4", "e5"]
    assert rows[1] == ["2", "Nf3", "Nc6 (=)"]
    assert rows[4] == ["5", "O-O (=)", "Be7"]
    assert rows[5] == ["6", "Qe2", ""]
    assert rows[6] == ["7", "", ""]
    # A paper scoresheet has at least 60 rows, in blocks of 30.
    assert [r[0] for r in rows] == [str(n) for n in range(1, 61)]
    assert page.count('<table class="moves">') == 2
    assert "½-½" in page


def test_long_games_get_more_rows() -> None:
    moves = [("Nf3", False), ("Nf6", False), ("Ng1", False), ("Ng8", False)] * 40  # 80 moves
    rows = [r for r in parse(render_scoresheet({}, moves, "*")).rows if r]
    assert len(rows) == 90
    assert rows[79] == ["80", "Ng1", "Ng8"]


@pytest.mark.parametrize(
    ("language", "white_3", "black_2", "castle"),
    [
        ("en", "Nf3", "Nc6 (=)", "O-O (=)"),
        ("fr", "Cf3", "Cc6 (=)", "O-O (=)"),
        ("de", "Sf3", "Sc6 (=)", "O-O (=)"),
        ("ru", "Кf3", "Кc6 (=)", "O-O (=)"),
        ("figurine", "♘f3", "♘c6 (=)", "O-O (=)"),
    ],
)
def test_moves_in_the_chosen_language(language: str, white_3: str, black_2: str, castle: str) -> None:
    rows = [r for r in parse(render_scoresheet(HEADER, MOVES, "1-0", language)).rows if r]
    assert rows[1] == ["2", white_3, black_2]
    assert rows[4][1] == castle
    page = render_scoresheet(HEADER, MOVES, "1-0", language)
    assert ("Fb5" in page) == (language == "fr")
    assert ("Lb5" in page) == (language == "de")


def test_header_is_escaped_and_shown() -> None:
    page = render_scoresheet(HEADER, MOVES, "1-0")
    assert "<Dupont>" not in page
    assert "Anne &lt;Dupont&gt; &amp; Co (2150)" in page
    assert "Jean &quot;Le Roc&quot; Martin" in page
    texts = " ".join(parse(page).texts)
    for value in ("Club Championship", "Lyon", "1997.03.01", "4", "2"):
        assert value in texts
    assert "White's signature" in texts and "Black's signature" in texts
    assert re.search(r"Result:\s*1-0", texts)
    assert "@media print" in page
    assert page.startswith("<!DOCTYPE html>")


def test_script_in_the_header_cannot_run() -> None:
    page = render_scoresheet({"Event": "<script>alert(1)</script>"}, [], "*")
    assert "<script>" not in page
    assert "&lt;script&gt;" in page


def test_game_from_a_position_with_black_to_move() -> None:
    header = {"FEN": "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"}
    rows = [r for r in parse(render_scoresheet(header, [("Kd7", False), ("e4", False)], "*")).rows if r]
    assert rows[39] == ["40", "", "Kd7"]
    assert rows[40] == ["41", "e4", ""]


def test_unknown_language() -> None:
    with pytest.raises(ValueError):
        render_scoresheet({}, [], "*", "xx")
