"""A printable scoresheet (HTML), the way the players keep and sign it.

Article 8.1 of the Laws has each player record the moves in algebraic
notation (Appendix E) on the scoresheet, and the offer of a draw marked
``(=)`` (Appendix E.12). :func:`render_scoresheet` lays a game out like a
paper scoresheet: the event, the players, numbered rows with White's and
Black's move (in the chosen language's piece letters), draw offers, the
result and lines for the signatures.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from chesslaws.notation import get_language, translate_san

__all__ = ["render_scoresheet"]

_ROWS_PER_BLOCK = 30
_MIN_ROWS = 60
_RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "½-½": "½-½", "*": ""}

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; margin: 1.5em; }
h1 { font-size: 15pt; margin: 0 0 .4em 0; }
table.head { border-collapse: collapse; width: 100%; margin-bottom: .8em; }
table.head th { text-align: left; font-weight: normal; color: #444; width: 8em; padding: 2px 4px; }
table.head td { border-bottom: 1px solid #000; padding: 2px 4px; }
.blocks { display: flex; gap: 1.2em; flex-wrap: wrap; }
table.moves { border-collapse: collapse; flex: 1 1 20em; }
table.moves th, table.moves td { border: 1px solid #000; padding: 1px 6px; height: 1.35em; }
table.moves td.no { width: 2.5em; text-align: right; color: #333; }
table.moves td.mv { width: 9em; }
.offer { font-weight: bold; }
.result { margin-top: 1em; font-size: 13pt; }
.signatures { display: flex; gap: 3em; margin-top: 2.5em; }
.signatures div { flex: 1; border-top: 1px solid #000; padding-top: 3px; font-size: 9pt; }
@media print {
  body { margin: 0; font-size: 10pt; }
  @page { size: A4; margin: 12mm; }
  .blocks { flex-wrap: nowrap; }
  table.moves { page-break-inside: avoid; }
}
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _start(header: Mapping[str, str]) -> tuple[int, bool]:
    """Full-move number and whether White moves first, from a FEN header."""
    fen = header.get("FEN")
    if not fen:
        return 1, True
    fields = fen.split()
    white = len(fields) < 2 or fields[1] != "b"
    try:
        number = int(fields[5]) if len(fields) > 5 else 1
    except ValueError:
        number = 1
    return max(number, 1), white


def render_scoresheet(
    header: Mapping[str, str],
    moves: Sequence[tuple[str, bool]],
    result: str,
    language: str = "en",
) -> str:
    """A complete HTML document: the scoresheet of a game.

    ``header`` holds PGN-style tags (``Event``, ``Site``, ``Date``,
    ``Round``, ``White``, ``Black``, optionally ``Board``, ``WhiteElo``,
    ``BlackElo``, ``FEN``); ``moves`` are (English SAN, draw offered with
    this move); the moves are written with ``language``'s piece letters.
    """
    lang = get_language(language)
    number, white_first = _start(header)

    rows: list[list[str]] = []  # [white cell, black cell] per move number
    ply_white = white_first
    for san, offer in moves:
        text = _e(translate_san(san, "en", lang.code))
        if offer:
            text += ' <span class="offer">(=)</span>'
        if ply_white or not rows:
            rows.append(["", ""])
        rows[-1][0 if ply_white else 1] = text
        ply_white = not ply_white

    total = max(_MIN_ROWS, len(rows) + number - 1)
    total = -(-total // _ROWS_PER_BLOCK) * _ROWS_PER_BLOCK
    by_number = {number + i: row for i, row in enumerate(rows)}

    blocks = []
    for start in range(1, total + 1, _ROWS_PER_BLOCK):
        lines = [
            '<table class="moves">',
            "<thead><tr><th></th><th>White</th><th>Black</th></tr></thead>",
            "<tbody>",
        ]
        for n in range(start, start + _ROWS_PER_BLOCK):
            w, b = by_number.get(n, ["", ""])
            lines.append(f'<tr><td class="no">{n}</td><td class="mv">{w}</td><td class="mv">{b}</td></tr>')
        lines.append("</tbody></table>")
        blocks.append("\n".join(lines))

    def field(name: str, label: str) -> str:
        return f"<th>{_e(label)}</th><td>{_e(header.get(name, ''))}</td>"

    white = header.get("White", "")
    black = header.get("Black", "")
    if header.get("WhiteElo"):
        white += f" ({header['WhiteElo']})"
    if header.get("BlackElo"):
        black += f" ({header['BlackElo']})"
    shown_result = _RESULTS.get(result, result)
    title = f"Scoresheet: {white or '?'} – {black or '?'}"

    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{_e(lang.code if lang.code != "figurine" else "en")}">',
            "<head>",
            '<meta charset="utf-8">',
            f"<title>{_e(title)}</title>",
            f"<style>{_CSS}</style>",
            "</head>",
            "<body>",
            f"<h1>{_e(header.get('Event', '') or 'Scoresheet')}</h1>",
            '<table class="head">',
            f"<tr>{field('Site', 'Site')}{field('Date', 'Date')}</tr>",
            f"<tr>{field('Round', 'Round')}{field('Board', 'Board')}</tr>",
            f"<tr><th>White</th><td>{_e(white)}</td><th>Black</th><td>{_e(black)}</td></tr>",
            "</table>",
            f'<div class="blocks">{"".join(blocks)}</div>',
            f'<p class="result">Result: <strong>{_e(shown_result)}</strong></p>',
            '<div class="signatures"><div>White\'s signature</div>'
            "<div>Black's signature</div><div>Arbiter</div></div>",
            f'<p class="notation">Notation: {_e(lang.name)} '
            f"({_e(' '.join(lang.letter(r) for r in ('K', 'Q', 'R', 'B', 'N')))})</p>",
            "</body>",
            "</html>",
            "",
        ]
    )
