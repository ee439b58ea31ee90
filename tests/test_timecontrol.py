"""Time controls: the spec syntax, PGN tags, periods, classification, Article 8.4."""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError, InvalidInput
from chesslaws.timecontrol import (
    Period,
    TimeControl,
    TimeControlError,
    classify,
    read_pgn_tag,
    recording_exempt,
    write_pgn_tag,
)

P = Period
MIN = 60_000


# ---------------------------------------------------------------- parsing

PARSE = [
    ("-", ()),
    ("5400", (P(None, 5_400_000),)),
    ("40/5400", (P(40, 5_400_000),)),
    ("40/5400:1800", (P(40, 5_400_000), P(None, 1_800_000))),
    ("40/7200:20/3600:1800", (P(40, 7_200_000), P(20, 3_600_000), P(None, 1_800_000))),
    ("5400+30", (P(None, 5_400_000, 30_000),)),
    ("40/5400+30:1800+30", (P(40, 5_400_000, 30_000), P(None, 1_800_000, 30_000))),
    ("300d5", (P(None, 300_000, 0, 5_000, "simple"),)),
    ("300b5", (P(None, 300_000, 0, 5_000, "bronstein"),)),
    ("300+2d5", (P(None, 300_000, 2_000, 5_000, "simple"),)),
    ("40/7200b10:3600d30", (P(40, 7_200_000, 0, 10_000, "bronstein"), P(None, 3_600_000, 0, 30_000, "simple"))),
    ("299.5", (P(None, 299_500),)),
    ("0.001+0.25", (P(None, 1, 250),)),
    ("60+1.5b0.125", (P(None, 60_000, 1_500, 125, "bronstein"),)),
    ("0", (P(None, 0),)),
    ("0040/05400", (P(40, 5_400_000),)),
    ("300+0", (P(None, 300_000),)),
]


@pytest.mark.parametrize(("text", "periods"), PARSE, ids=[t for t, _ in PARSE])
def test_parse(text: str, periods: tuple[Period, ...]) -> None:
    assert TimeControl.parse(text) == TimeControl(periods)


STR = [
    ((), "-"),
    ((P(None, 5_400_000),), "5400"),
    ((P(40, 5_400_000), P(None, 1_800_000)), "40/5400:1800"),
    ((P(40, 5_400_000, 30_000), P(None, 1_800_000, 30_000)), "40/5400+30:1800+30"),
    ((P(None, 300_000, 0, 5_000, "simple"),), "300d5"),
    ((P(None, 300_000, 0, 5_000, "bronstein"),), "300b5"),
    ((P(None, 300_000, 2_000, 5_000, "simple"),), "300+2d5"),
    ((P(None, 299_500),), "299.5"),
    ((P(None, 1, 10),), "0.001+0.01"),
    ((P(None, 300_120, 0, 0, "simple"),), "300.12d0"),
    ((P(20, 3_600_000), P(20, 1_800_000)), "20/3600:20/1800"),
]


@pytest.mark.parametrize(("periods", "text"), STR, ids=[t for _, t in STR])
def test_str_writes_spec_syntax_and_reads_back(periods: tuple[Period, ...], text: str) -> None:
    tc = TimeControl(periods)
    assert str(tc) == text
    assert TimeControl.parse(text) == tc


ERRORS = [
    # text, position, bad part, words in the message
    ("", 0, "", "empty"),
    ("40/", 3, "", "seconds"),
    ("40/54x0:1800", 5, "x0", "unexpected"),
    ("40/5400::1800", 8, "", "empty period"),
    ("40/5400:", 8, "", "empty period"),
    (":300", 0, "", "empty period"),
    ("1800:40/5400", 5, "40/5400", "rest of the game"),
    ("40/5400:1800:600", 13, "600", "rest of the game"),
    ("-:300", 0, "-", "stands alone"),
    ("300:-", 4, "-", "stands alone"),
    ("40.5/300", 0, "40.5", "whole number"),
    ("0/300", 0, "0", "at least 1 move"),
    ("300.0001", 0, "300.0001", "millisecond"),
    ("300d5x", 5, "x", "unexpected"),
    ("300+", 4, "", "increment"),
    ("300b", 4, "", "delay"),
    ("300d5b5", 5, "b5", "unexpected"),
    ("300x5", 3, "x5", "unexpected"),
    ("abc", 0, "a", "expected"),
    (" 300", 0, " 300", "expected"),
    ("300 ", 3, " ", "unexpected"),
    ("40/5400/30", 7, "/30", "unexpected"),
    ("?", 0, "?", "PGN"),
    ("*180", 0, "*180", "PGN"),
    ("40/5400:30/+5", 11, "+5", "seconds"),
]


@pytest.mark.parametrize(("text", "position", "part", "words"), ERRORS, ids=[e[0] or "empty" for e in ERRORS])
def test_parse_errors_point_at_the_bad_part(text: str, position: int, part: str, words: str) -> None:
    with pytest.raises(TimeControlError) as info:
        TimeControl.parse(text)
    err = info.value
    assert err.text == text
    assert err.position == position
    assert err.part == part
    message = str(err)
    assert f"position {position}" in message
    assert (repr(part) if part else "nothing") in message
    assert words in message


def test_error_hierarchy() -> None:
    with pytest.raises(InvalidInput):
        TimeControl.parse("x")
    with pytest.raises(ChessLawsError):
        TimeControl.parse("x")
    assert issubclass(TimeControlError, InvalidInput)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"moves": 0, "ms": 1000},
        {"moves": -3, "ms": 1000},
        {"moves": None, "ms": -1},
        {"moves": None, "ms": 1000, "increment_ms": -1},
        {"moves": None, "ms": 1000, "delay_ms": 5000},  # a delay without a kind
        {"moves": None, "ms": 1000, "delay_ms": -5, "delay": "simple"},
        {"moves": None, "ms": 1000, "delay_ms": 5, "delay": "fischer"},
    ],
)
def test_inconsistent_period_is_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(TimeControlError):
        Period(**kwargs)  # type: ignore[arg-type]


def test_sudden_death_must_be_last_in_code_too() -> None:
    with pytest.raises(TimeControlError, match="rest of the game"):
        TimeControl((P(None, 60_000), P(40, 60_000)))


# -------------------------------------------------------------------- PGN

FROM_PGN = [
    ("40/9000:3600", (P(40, 9_000_000), P(None, 3_600_000))),
    ("40/7200:1800", (P(40, 7_200_000), P(None, 1_800_000))),
    ("300+2", (P(None, 300_000, 2_000),)),
    ("4500", (P(None, 4_500_000),)),
    ("40/9000", (P(40, 9_000_000),)),
    ("-", ()),
    ("40/5400+30:1800+30", (P(40, 5_400_000, 30_000), P(None, 1_800_000, 30_000))),
]


@pytest.mark.parametrize(("text", "periods"), FROM_PGN, ids=[t for t, _ in FROM_PGN])
def test_from_pgn(text: str, periods: tuple[Period, ...]) -> None:
    assert TimeControl.from_pgn(text) == TimeControl(periods)
    assert read_pgn_tag(text) == TimeControl(periods)


PGN_ERRORS = [
    ("?", 0, "?", "unknown"),
    ("*180", 0, "*180", "sandclock"),
    ("40/9000:*60", 8, "*60", "sandclock"),
    ("300d5", 3, "d5", "delays"),
    ("300b5", 3, "b5", "delays"),
    ("300.5", 0, "300.5", "whole number"),
    ("300+1.5", 4, "1.5", "whole number"),
    ("40/", 3, "", "seconds"),
]


@pytest.mark.parametrize(("text", "position", "part", "words"), PGN_ERRORS, ids=[e[0] for e in PGN_ERRORS])
def test_from_pgn_errors(text: str, position: int, part: str, words: str) -> None:
    with pytest.raises(TimeControlError) as info:
        TimeControl.from_pgn(text)
    assert info.value.position == position
    assert info.value.part == part
    assert words in str(info.value)
    assert f"position {position}" in str(info.value)


TO_PGN = [
    ("40/9000:3600", "40/9000:3600"),
    ("40/7200:20/3600:1800", "40/7200:20/3600:1800"),
    ("300+2", "300+2"),
    ("5400", "5400"),
    ("-", "-"),
    ("40/5400+30:1800+30", None),  # an increment in a moves period
    ("40/5400:1800+30", "40/5400:1800+30"),
    ("300d5", None),
    ("300b5", None),
    ("299.5", None),
    ("300+0.5", None),
]


@pytest.mark.parametrize(("spec", "pgn"), TO_PGN, ids=[s for s, _ in TO_PGN])
def test_to_pgn(spec: str, pgn: str | None) -> None:
    tc = TimeControl.parse(spec)
    assert tc.to_pgn() == pgn
    assert write_pgn_tag(tc) == (pgn if pgn is not None else "?")
    if pgn is not None:
        assert TimeControl.from_pgn(pgn) == tc


def test_unknown_pgn_tag_is_none_both_ways() -> None:
    assert read_pgn_tag("?") is None
    assert write_pgn_tag(None) == "?"


# ---------------------------------------------------------------- periods

PERIOD_INDEX = [
    ("5400", [(0, 0), (1, 0), (100, 0)]),
    ("-", [(0, 0), (50, 0)]),
    ("40/5400:1800", [(0, 0), (39, 0), (40, 1), (41, 1), (500, 1)]),
    ("40/7200:20/3600:1800", [(39, 0), (40, 1), (59, 1), (60, 2), (61, 2), (1000, 2)]),
    ("40/7200:20/3600", [(39, 0), (40, 1), (59, 1), (60, 1), (80, 1), (1000, 1)]),
    ("40/7200", [(0, 0), (40, 0), (80, 0)]),
]


@pytest.mark.parametrize(("spec", "table"), PERIOD_INDEX, ids=[s for s, _ in PERIOD_INDEX])
def test_period_index(spec: str, table: list[tuple[int, int]]) -> None:
    tc = TimeControl.parse(spec)
    assert [tc.period_index(n) for n, _ in table] == [i for _, i in table]


def test_period_index_rejects_negative() -> None:
    with pytest.raises(ValueError):
        TimeControl.parse("5400").period_index(-1)


ADDED_AFTER = [
    # spec, moves completed -> seconds added (None: nothing)
    ("40/5400:1800", {1: None, 39: None, 40: 1800, 41: None, 80: None}),
    ("40/7200:20/3600", {40: 3600, 50: None, 60: 3600, 80: 3600, 79: None}),
    ("40/7200:20/3600:1800", {40: 3600, 60: 1800, 80: None, 100: None}),
    ("40/7200", {40: 7200, 80: 7200, 41: None}),
    ("5400+30", {1: None, 40: None}),
    ("-", {1: None, 40: None}),
]


@pytest.mark.parametrize(("spec", "table"), ADDED_AFTER, ids=[s for s, _ in ADDED_AFTER])
def test_added_after(spec: str, table: dict[int, int | None]) -> None:
    tc = TimeControl.parse(spec)
    got = {}
    for n in table:
        added = tc.added_after(n)
        got[n] = None if added is None else added.ms // 1000
    assert got == table


def test_unlimited() -> None:
    assert TimeControl.parse("-").unlimited
    assert TimeControl(()).unlimited
    assert not TimeControl.parse("300").unlimited


# ---------------------------------------------------------- classification

CLASSIFY = [
    # 1989: always standard
    ("300", "1989", "standard"),
    ("1800", "1989", "standard"),
    ("3+2", "1989", "standard"),
    # 1997: rapid 15-60 min inclusive, blitz under 15 min
    ("900", "1997", "rapid"),
    ("899", "1997", "blitz"),
    ("899.999", "1997", "blitz"),
    ("3600", "1997", "rapid"),
    ("3600.001", "1997", "standard"),
    ("3660", "1997", "standard"),
    ("300", "1997", "blitz"),
    ("1500", "1997", "rapid"),
    ("180+2", "1997", "blitz"),  # 3 + 60 x 2 s = 5 min
    ("780+2", "1997", "rapid"),  # 13 min + 2 min = 15 min
    ("779+2", "1997", "blitz"),  # 14:59
    ("3000+10", "1997", "rapid"),  # 50 + 10 = 60 min
    ("3000+11", "1997", "standard"),  # 50 + 11 = 61 min
    ("20/600:300", "1997", "rapid"),  # all the moves in 15 min
    ("20/600:299", "1997", "blitz"),
    ("20/500:300+5", "1997", "rapid"),  # 13:20 + 40 moves x 5 s = 16:40
    ("20/400+5:300", "1997", "blitz"),  # 11:40 + 20 moves x 5 s = 13:20
    ("40/5400:1800", "1997", "standard"),
    ("20/300", "1997", "standard"),  # the last period repeats: no fixed time
    ("300d5", "1997", "blitz"),  # delays add no time
    ("900b5", "1997", "rapid"),
    ("-", "1997", "standard"),
    # 2023: base + 60 x increment: rapid over 10 and under 60, blitz 10 or less
    ("600", "2023", "blitz"),
    ("601", "2023", "rapid"),
    ("600.001", "2023", "rapid"),
    ("180+2", "2023", "blitz"),  # 3 + 2 = 5 min
    ("300+5", "2023", "blitz"),  # 5 + 5 = 10 min
    ("300+6", "2023", "rapid"),  # 5 + 6 = 11 min
    ("900+10", "2023", "rapid"),  # 15 + 10 = 25 min
    ("3599", "2023", "rapid"),
    ("3600", "2023", "standard"),
    ("3000+10", "2023", "standard"),  # 50 + 10 = 60 min
    ("2940+10", "2023", "rapid"),  # 49 + 10 = 59 min
    ("40/5400+30:1800+30", "2023", "standard"),
    ("60/1200:600", "2023", "rapid"),  # first period: 20 min
    ("-", "2023", "standard"),
]


@pytest.mark.parametrize(("spec", "edition", "kind"), CLASSIFY, ids=[f"{s}-{e}" for s, e, _ in CLASSIFY])
def test_classify(spec: str, edition: str, kind: str) -> None:
    assert classify(TimeControl.parse(spec), edition) == kind  # type: ignore[arg-type]


def test_classify_unknown_edition() -> None:
    with pytest.raises(ValueError):
        classify(TimeControl.parse("300"), "2000")  # type: ignore[arg-type]


# ------------------------------------------------------- Article 8.4

EXEMPT = [
    # remaining ms, control, moves made, exempt?
    (299_999, "5400", 10, True),
    (300_000, "5400", 10, False),
    (1, "5400", 10, True),
    (0, "5400", 10, True),
    (299_999, "5400+29", 10, True),
    (299_999, "5400+29.999", 10, True),
    (299_999, "5400+30", 10, False),
    (299_999, "5400+60", 10, False),
    (299_999, "40/5400:1800+30", 39, True),  # still in the first period
    (299_999, "40/5400:1800+30", 40, False),  # now in the second
    (299_999, "40/5400+30:1800", 39, False),
    (299_999, "40/5400+30:1800", 40, True),
    (299_999, "300d30", 5, True),  # a delay adds no time
    (299_999, "-", 5, False),  # no clock
]


@pytest.mark.parametrize(("remaining", "spec", "moves", "exempt"), EXEMPT)
def test_recording_exempt(remaining: int, spec: str, moves: int, exempt: bool) -> None:
    assert recording_exempt(remaining, TimeControl.parse(spec), moves) is exempt
