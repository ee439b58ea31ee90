"""Arbitrating game databases: is every recorded game legal, and is its
recorded result the one the Laws give?

The work is done natively (``chesslaws._core.CheckRun``, ``src/check/``):
the PGN is streamed (plain, ``.gz``, ``.zst`` or standard input), every
move is played, and after every ply the end-of-game rules of the chosen
edition are applied. Python is called once per batch of games, never per
move.

>>> for report in check_file("games.pgn", edition="2023"):   # doctest: +SKIP
...     for f in report.findings:
...         print(report.game, f.ply, f.article, f.text)

Kinds of finding (``Finding.kind``) and the rule they cite:

- ``illegal_move``, ``ambiguous_move``, ``unreadable_move``: a move that
  cannot be played (Article 7.5.1 / 1997 7.4 / 1989 8.1); the game is not
  checked past it.
- ``checkmate``, ``stalemate``, ``dead_position`` (1997, 2023),
  ``insufficient_material`` (1989 Article 10.4), ``fivefold``,
  ``seventyfive`` (2023): the game was over by the Laws at ``ply``, and the
  record goes on with more moves or gives another result.
- ``time_forfeit``: a win on time (also an abandoned game left on the
  loser's own turn, and a win
  given with the draw's text "timeout vs insufficient material") where the
  winner could not have mated (Article 6.9; 1989: only against a bare
  king, 10.5): a draw; or a draw on time ("timeout vs insufficient
  material") where the opponent of the player to move could mate: his
  win (Article 6.9; 1989 10.14).

The Laws' decisions are the arbiter's (the same analysis as
``chesslaws.mating``), so that ``chesslaws convert --report`` calls the
same records inconsistent, by the same article (tests/test_judgement.py).
- ``resignation`` (2023, 5.1.2): a win by resignation where the winner
  could not have mated: a draw. (1989, 10.5): a win other than on time
  (a resignation, an arbiter's decision) by a player having a bare king:
  a draw, whatever the way he won.
- ``time_forfeit`` or ``resignation`` citing 1997 Appendix C.4: in blitz
  (C.1, read from the ``TimeControl`` tag as
  :func:`chesslaws.timecontrol.classify` reads it; no tag, not blitz) a win
  other than by checkmate, an arbiter's decision included, where the winner
  has no mating potential (the arbiter's material reading): a draw.

A win on time recorded with the winner to move is the flag of the loser
after he made his last move and before he pressed the clock (a move not
completed), judged on the position after that move; where the record's
clock after that move shows time left, or there is no move, it is taken
as a resignation, as ``convert`` writes it.
- ``agreement`` (2023, 5.2.3): a draw the record does not explain (an
  agreement, as ``convert`` writes it) before both players have made a
  move: void, the game has no result.
- ``pgn_error``: the text is not PGN, or a tag breaks its syntax (an
  unescaped quote), or the game is of a variant the edition does not have
  (Chess960 under 1989 and 1997, which ``convert`` refuses too): no article.

A reason for the ending the record states and the moves do not support
("Game drawn by insufficient material" with a queen on the board, a
"3-fold repetition" no claim would make correct), the result being one the
Laws give, is a note (``GameReport.notes``), no finding: the same note
``convert --report`` gives.
- ``result_tag``: the ``Result`` tag contradicts the result at the end of
  the movetext (no article).
- ``no_result``: the game has no result: ``*``, or neither a ``Result``
  tag nor a result after the moves (an unfinished game, or a result not
  written). No article, but where the game was over on the board
  (checkmate, stalemate, a dead position...) that ending's: the text gives
  the result the Laws give, and ``--fix`` writes it. Not said of a game
  read only up to an illegal or unreadable move (that move is its finding).
- ``no_movetext``: a tag section with no movetext after it, not even a
  result (broadcast exports of games not started): a game without moves.

Moves are read in every notation the Laws and the PGN world use: SAN, the
FIDE promotion ``a8Q`` / ``bxa1Q``, FIDE long algebraic (``e2-e4``,
``Ng1-f3``, ``e7-e8Q``), UCI coordinates (``g1f3``) and figurines
(``♘f3``); annotation glyphs in the movetext (``+=``, ``±``, ``N``) are
annotations; a Chess960 game
(``Variant`` tag) castles by its own rules (2023 Laws, Guidelines II), and the
usual spellings of standard chess (``normal``, ``From Position``...) are
standard chess. How a game ended is
read from its ``Termination`` tag (or the comment before the result, as
cutechess writes it) by the table ``data/terminations.tsv``, as
``chesslaws convert`` reads it (one native reading): wins on time
(chess.com "X won on time", lichess "Time forfeit", "Abandoned") are judged
by Article 6.9.

With ``fix=True`` each batch also carries the games rewritten with the
result the Laws give (see :func:`fix_file`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator, Sequence

from chesslaws._core import CheckRun, report_json
from chesslaws.atomic import atomic_output
from chesslaws.editions import Edition, get_edition

__all__ = [
    "FileCheck",
    "Finding",
    "GameReport",
    "Summary",
    "check_file",
    "check_files",
    "default_jobs",
    "FixCounts",
    "fix_file",
]


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong with a game."""

    kind: str
    ply: int
    move: str
    article: str | None
    edition: str
    text: str
    rule: str = ""


@dataclass(frozen=True, slots=True)
class GameReport:
    """The check of one game: ``game`` is its number in its file (from 1),
    ``line`` the line it starts on."""

    game: int
    line: int
    tags: dict[str, str]
    result: str | None
    plies: int
    findings: tuple[Finding, ...]
    file: str | None = None
    #: Remarks that are no finding: a reason for the ending the record states and the moves do not
    #: support, its result being the Laws' (``convert --report`` gives the same note).
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.findings

    def json_line(self) -> str:
        """The report as the line ``chesslaws check --json`` writes for it
        (with its newline): the native writer of the checker's own JSON,
        so that a report reads the same whichever path made it (the Dask
        path makes its reports on the workers)."""
        findings = [(f.kind, f.ply, f.move, f.article, f.edition, f.text) for f in self.findings]
        return report_json(self.game, self.line, list(self.tags.items()), self.result, self.plies, findings,
                           self.file, list(self.notes))

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data: its :meth:`json_line`, read."""
        data: dict[str, Any] = json.loads(self.json_line())
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameReport:
        return cls(
            game=int(data["game"]),
            line=int(data["line"]),
            tags=dict(data["tags"]),
            result=data["result"],
            plies=int(data["plies"]),
            findings=tuple(
                Finding(
                    kind=f["kind"],
                    ply=int(f["ply"]),
                    move=f["move"],
                    article=f["article"],
                    edition=f["edition"],
                    text=f["text"],
                    rule=f.get("rule", ""),
                )
                for f in data["findings"]
            ),
            file=data.get("file"),
            notes=tuple(data.get("notes", ())),
        )


@dataclass(slots=True)
class Summary:
    """Counts over everything checked."""

    edition: str = "2023"
    files: int = 0
    games: int = 0
    plies: int = 0
    games_with_findings: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    articles: dict[str, str | None] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def findings(self) -> int:
        return sum(self.by_kind.values())

    @property
    def clean(self) -> bool:
        return self.games_with_findings == 0 and not self.errors

    def add_counts(self, kinds: Iterable[tuple[str, int]], with_findings: int, ed: Edition) -> None:
        """Adds the native per-batch counts (the reports themselves never
        reach Python in JSON mode)."""
        self.games_with_findings += with_findings
        for kind, n in kinds:
            self.by_kind[kind] += n
            if kind not in self.articles:
                self.articles[kind] = ed.articles.get(_rule_of_kind(kind, ed))

    def add_report(self, report: GameReport) -> None:
        if report.findings:
            self.games_with_findings += 1
        for f in report.findings:
            self.by_kind[f.kind] += 1
            self.articles.setdefault(f.kind, f.article)

    def merge(self, other: Summary) -> None:
        self.files += other.files
        self.games += other.games
        self.plies += other.plies
        self.games_with_findings += other.games_with_findings
        self.by_kind.update(other.by_kind)
        for k, v in other.articles.items():
            self.articles.setdefault(k, v)
        self.errors.extend(other.errors)

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": {
                "edition": self.edition,
                "files": self.files,
                "games": self.games,
                "plies": self.plies,
                "games_with_findings": self.games_with_findings,
                "findings": self.findings,
                "by_kind": {
                    k: {"count": n, "article": self.articles.get(k)} for k, n in sorted(self.by_kind.items())
                },
                "errors": list(self.errors),
            }
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        s = data["summary"]
        return cls(
            edition=s["edition"],
            files=s["files"],
            games=s["games"],
            plies=s["plies"],
            games_with_findings=s["games_with_findings"],
            by_kind=Counter({k: v["count"] for k, v in s["by_kind"].items()}),
            articles={k: v["article"] for k, v in s["by_kind"].items()},
            errors=list(s["errors"]),
        )


#: The rule (a key of an edition's article table) each kind of finding cites.
_RULE_OF_KIND = {
    "illegal_move": "illegal_move",
    "ambiguous_move": "illegal_move",
    "unreadable_move": "illegal_move",
    "checkmate": "checkmate",
    "stalemate": "stalemate",
    "dead_position": "dead_position",
    "insufficient_material": "insufficient_material",
    "fivefold": "fivefold",
    "seventyfive": "seventyfive",
    "time_forfeit": "flag_draw",
    "resignation": "resignation",
    "agreement": "agreement",
}


def _rule_of_kind(kind: str, ed: Edition) -> str:
    """The rule the summary names for a kind of finding. A resignation finding under 1989 is always 10.5
    (a bare king cannot win), under 1997 always C.4 (no mating potential in blitz): the editions' own
    resignation articles are no finding."""
    if kind == "resignation" and ed.bare_king_cannot_win:
        return "bare_king"
    if kind == "resignation" and ed.mating_potential_in_blitz:
        return "mating_potential"
    return _RULE_OF_KIND.get(kind, "")


class FixCounts(Counter[str]):
    """What ``--fix`` did, by key: ``result:RULE`` (a result changed by the
    Laws, RULE a key of the edition's article table), ``cut`` (moves
    recorded after the end left out; ``cut_only`` when only that changed), ``result_tag`` (a Result tag set to
    the movetext's result), ``syntax`` (tags rewritten: quotes escaped),
    ``no_movetext`` (a result written for a game without moves),
    ``unchanged``, ``left_out`` / ``kept_unreadable`` (games with illegal or
    unreadable moves)."""

    def written(self) -> int:
        return sum(n for k, n in self.items() if k not in ("left_out", "cut"))

    def lines(self, ed: Edition) -> list[str]:
        def n_of(n: int, one: str, many: str) -> str:
            return f"{n:,} {one if n == 1 else many}"

        out = [n_of(self.written(), "game", "games") + " written"]
        changed = sum(n for k, n in self.items() if k.startswith("result:"))
        if changed:
            out.append(n_of(changed, "result", "results") + f" changed by the Laws of {ed.name}:")
            for k, n in sorted(self.items()):
                if k.startswith("result:"):
                    rule = k.split(":", 1)[1]
                    out.append(f"  Article {ed.articles.get(rule, '?')} ({rule}): {n:,}")
        notes = {
            "cut": ("game", "games", "cut where the Laws ended it (the moves after the end left out)"),
            "result_tag": ("Result tag", "Result tags", "set to the movetext's result"),
            "syntax": ("game", "games", "whose tags were rewritten (quotes escaped)"),
            "no_movetext": ("game", "games", "without moves given its result"),
            "kept_unreadable": ("game", "games", "with illegal or unreadable moves kept as they were"),
            "left_out": ("game", "games", "with illegal or unreadable moves left out (keep them: --unreadable keep)"),
        }
        for k, (one, many, text) in notes.items():
            if self.get(k):
                out.append(f"{n_of(self[k], one, many)} {text}")
        return out


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _finding(raw: tuple[str, int, str, str, str], ed: Edition) -> Finding:
    kind, ply, move, rule, text = raw
    article = ed.articles.get(rule) if rule else None
    return Finding(kind=kind, ply=ply, move=move, article=article, edition=ed.name, text=text, rule=rule)


class FileCheck:
    """The check of one file, iterated report by report.

    ``games`` and ``plies`` count every game read so far, also those left out
    with ``problems_only``. ``bytes_read`` / ``total_bytes`` (None for
    standard input) measure progress in bytes of the file as stored.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        edition: str = "2023",
        jobs: int | None = None,
        problems_only: bool = False,
        json: bool = False,
        file: str | None = None,
        fix: bool = False,
        keep_unreadable: bool = False,
    ) -> None:
        self.edition = get_edition(edition)
        self.path = os.fspath(path)
        self.jobs = default_jobs() if jobs is None else jobs
        if self.jobs < 1:
            raise ValueError("jobs must be at least 1")
        self._run = CheckRun(
            self.path,
            self.edition,
            jobs=self.jobs,
            problems_only=problems_only,
            json=json,
            file=file,
            fix=fix,
            keep_unreadable=keep_unreadable,
        )
        self.games = 0
        self.plies = 0
        self.counts = Summary(edition=self.edition.name, files=1)
        self.fixes = FixCounts()
        #: In JSON mode: the JSON lines of the last batch (one game a line).
        self.json_text = ""
        #: With ``fix``: the fixed PGN of the last batch.
        self.fixed = b""

    @property
    def bytes_read(self) -> int:
        return self._run.bytes_read

    @property
    def total_bytes(self) -> int | None:
        return self._run.total_bytes

    def batches(self) -> Iterator[list[GameReport]]:
        """Reports a batch at a time (one native call per batch)."""
        ed = self.edition
        for batch in self._run:
            self.games += batch.games
            self.plies += batch.plies
            self.counts.add_counts(batch.kinds, batch.with_findings, ed)
            self.fixes.update(dict(batch.fixes))
            self.json_text = batch.json or ""
            self.fixed = batch.fixed or b""
            yield [
                GameReport(
                    game=number,
                    line=line,
                    tags=dict(tags),
                    result=result,
                    plies=n,
                    findings=tuple(_finding(f, ed) for f in findings),
                    notes=tuple(notes),
                )
                for number, line, tags, result, n, findings, notes in batch.reports
            ]

    def __iter__(self) -> Iterator[GameReport]:
        for batch in self.batches():
            yield from batch

    def summary(self, reports: Iterable[GameReport] | None = None) -> Summary:
        """The file's summary: from the native counts (every game, also
        those not reported), or from ``reports`` when given."""
        s = Summary(edition=self.edition.name, files=1, games=self.games, plies=self.plies)
        if reports is None:
            s.merge(self.counts)
            s.files = 1
            s.games, s.plies = self.games, self.plies
            return s
        for r in reports:
            s.add_report(r)
        return s


def check_file(
    path: str | os.PathLike[str],
    *,
    edition: str = "2023",
    jobs: int | None = None,
    problems_only: bool = False,
) -> Iterator[GameReport]:
    """Checks every game in ``path`` (``"-"``: standard input; ``.gz`` and
    ``.zst`` are read as such) under ``edition``'s Laws, on ``jobs`` threads
    (default: all cores). Reports come in file order."""
    return iter(FileCheck(path, edition=edition, jobs=jobs, problems_only=problems_only))


def check_files(
    paths: Sequence[str | os.PathLike[str]],
    *,
    edition: str = "2023",
    jobs: int | None = None,
    problems_only: bool = False,
) -> tuple[list[GameReport], Summary]:
    """Checks several files one after the other; every report names its
    file. Returns the reports and their summary."""
    total = Summary(edition=get_edition(edition).name)
    reports: list[GameReport] = []
    for p in paths:
        fc = FileCheck(p, edition=edition, jobs=jobs, problems_only=problems_only)
        mine = [with_file(r, os.fspath(p)) for r in fc]
        reports.extend(mine)
        total.merge(fc.summary(mine))
    return reports, total


def fix_file(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    edition: str = "2023",
    jobs: int | None = None,
    keep_unreadable: bool = False,
) -> tuple[Summary, FixCounts]:
    """Writes the games of ``path`` to ``out`` as ``edition``'s Laws have
    them (``chesslaws check --fix``): the result the Laws give in the Result
    tag and at the end of the movetext, the moves recorded after the end
    left out, a comment citing the article where the result changed, tags
    repaired; games with illegal or unreadable moves left out, or kept as
    they were with ``keep_unreadable``. Returns the check's summary and
    what was changed.

    >>> summary, changes = fix_file("games.pgn", "fixed.pgn")   # doctest: +SKIP
    >>> changes.lines(get_edition("2023"))                       # doctest: +SKIP
    ['3,567 games written', '2 results changed by the Laws of 2023:', ...]
    """
    fc = FileCheck(path, edition=edition, jobs=jobs, problems_only=True, fix=True,
                   keep_unreadable=keep_unreadable)
    # Whole or not there (chesslaws.atomic): an error leaves an earlier ``out`` as it was; never ``path``.
    with atomic_output(os.fspath(out), "wb", inputs=[os.fspath(path)]) as f:
        for _ in fc.batches():
            f.write(fc.fixed)
    return fc.summary(), fc.fixes


def with_file(r: GameReport, path: str) -> GameReport:
    return replace(r, file=path)

