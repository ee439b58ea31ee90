"""PGN export of games and game logs from PGN: round trips on
generated games, tags, clocks, draw offers and rulings as comments."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.game import Game
from chesslaws.pgn import read_pgn
from chesslaws.records import game_to_pgn, pgn_to_log

# The spec's worked examples, as the project ships them (test_docs_examples keeps them equal to the spec's).
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def random_game(seed: int, *, control: str = "300+2", edition: str = "2023") -> Game:
    """A game of random legal moves with random thinking times and draw offers."""
    rng = random.Random(seed)
    g = Game.start(edition=edition, time_control=control, white=f"W{seed}", black=f"B{seed}")
    t = 0.0
    for _ in range(rng.randint(1, 120)):
        st = g.state
        if st.status != "ongoing":
            break
        legal = st.position.legal_moves()
        t += rng.choice([0.5, 1, 2.25, 3, 7])
        ev = {"type": "move", "t": t, "by": st.turn, "move": rng.choice(legal)}
        if rng.random() < 0.03:
            ev["offer_draw"] = True
        g = g.apply(ev)
    return g


@pytest.mark.parametrize("seed", range(40))
def test_export_then_import_gives_the_same_game(seed: int) -> None:
    g = random_game(seed)
    text = game_to_pgn(g)
    (read,) = list(read_pgn(text))
    assert read.ok, read.errors
    st = g.state
    assert [m.uci for m in read.moves] == [m.uci for m in st.moves]
    assert [m.clock_ms for m in read.moves] == [m.clock_ms for m in st.moves]
    assert [m.draw_offer for m in read.moves] == [m.draw_offer for m in st.moves]
    assert read.tags["White"] == f"W{seed}" and read.tags["TimeControl"] == "300+2"
    # And back to a game log: the same moves at the same clock times.
    conv = pgn_to_log(read)
    again = Game.from_events(conv.events)
    assert [m.uci for m in again.state.moves] == [m.uci for m in st.moves]
    assert [m.clock_ms for m in again.state.moves] == [m.clock_ms for m in st.moves]


def test_rulings_are_comments_citing_the_article() -> None:
    g = Game.replay(EXAMPLES / "incorrect-claim-1997.jsonl")
    text = game_to_pgn(g)
    assert "{Article\n9.5(b) (1997)" in text or "{Article 9.5(b) (1997)" in text
    assert '[Laws "FIDE 1997"]' in text and '[TimeControl "5400"]' in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_checkmate_game_has_result_and_termination() -> None:
    g = Game.replay(EXAMPLES / "scholars-mate-1997.jsonl")
    text = game_to_pgn(g)
    assert '[Result "1-0"]' in text and '[Termination "normal"]' in text
    flat = " ".join(text.split())
    assert flat.endswith("4. Qxf7# {[%clk 1:59:27]} {Article 5.1(a) (1997): White checkmates with Qxf7#; the game ends.} 1-0")


def test_extended_time_control_when_pgn_cannot_say_it() -> None:
    g = Game.start(time_control="300d5")
    assert '[TimeControl "300d5"]' in game_to_pgn(g)


def test_draw_offer_marked() -> None:
    g = Game.start(time_control="-").apply({"type": "move", "t": 1, "by": "white", "move": "e4", "offer_draw": True})
    assert "1. e4 {[%emt 0:00:01]} {(=)}" in game_to_pgn(g)


def test_agreement_and_resignation_become_events() -> None:
    pgn = '[Event "x"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n\n[Event "y"]\n[Result "0-1"]\n\n1. f3 e5 0-1\n'
    a, b = [pgn_to_log(g) for g in read_pgn(pgn)]
    assert Game.from_events(a.events).state.termination == "agreement"
    gb = Game.from_events(b.events).state
    assert (gb.result, gb.termination) == ("0-1", "resignation")


def test_cli_replay_pgn_and_convert(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["replay", str(EXAMPLES / "scholars-mate-1997.jsonl"), "--pgn"])
    assert res.exit_code == 0 and "Qxf7#" in res.output
    src = tmp_path / "two.pgn"
    src.write_text('[White "A"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[White "B"]\n\n1. e4 e4 *\n')
    out = tmp_path / "logs"
    res = runner.invoke(main, ["convert", str(src), "--out", str(out), "--edition", "1997"])
    assert res.exit_code == 1  # the second game has an illegal move
    assert "game 2" in res.output and "1 game log written" in res.output
    lines = (out / "two-1.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["edition"] == "1997"
    res = runner.invoke(main, ["replay", str(out / "two-1.jsonl"), "--json"])
    assert json.loads(res.output)["termination"] == "checkmate"


def test_an_illegal_move_that_stood_is_exported_in_coordinates() -> None:
    """1997 C.3: the illegal move stood; the record keeps it as made."""
    g = Game.from_events([
        {"type": "start", "t": 0, "edition": "1997", "time_control": "300"},
        {"type": "move", "t": 5, "by": "white", "move": "e2e5"},
        {"type": "move", "t": 8, "by": "black", "move": "d7d6"},
    ])
    assert [m.illegal for m in g.state.moves] == [True, False]
    assert "1. e2e5 {[%clk 0:04:55]} 1... d6" in game_to_pgn(g)


# --- the events a PGN can show, and those it cannot --------------------------------------------------------


def test_every_event_type_is_said_to_appear_in_a_pgn_or_not() -> None:
    """Each event type of the log is either written into a PGN (and read back) or named as one a PGN
    cannot show, with the reason; docs/game-log.md's "In a PGN" says the same."""
    from chesslaws.events import SCHEMAS
    from chesslaws.records import IN_PGN, NOT_IN_PGN

    assert not set(IN_PGN) & set(NOT_IN_PGN)
    assert set(IN_PGN) | set(NOT_IN_PGN) == set(SCHEMAS)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "game-log.md").read_text(encoding="utf-8")
    section = doc.split("## In a PGN", 1)[1].split("\n## ", 1)[0]
    for kind in SCHEMAS:
        assert f"`{kind}`" in section, f"{kind!r} is not in the 'In a PGN' section"


def _start_with_everything() -> dict[str, object]:
    return {"type": "start", "t": 0, "edition": "2023", "time_control": "900+10", "arbiter": "occasional",
            "supervision": "partial", "clock": "digital", "visually_disabled": ["white"], "assistant": ["white"],
            "hearing_impaired": ["black"], "white": "A", "black": "B"}


def test_the_start_fields_and_the_signatures_go_through_a_pgn_and_back() -> None:
    """The occasional arbiter, partial supervision, the digital clock, Appendix D's players and the
    signatures are tags; read back, the log has them. Black resigns and both sign 1/2-1/2 by mistake:
    the Result is the signed one (2023 8.7), BoardResult the board's, and the log read back has the
    resignation followed by the signatures."""
    g = Game.from_events([_start_with_everything(),
                          {"type": "move", "t": 5, "by": "white", "move": "e4"},
                          {"type": "move", "t": 9, "by": "black", "move": "e5"},
                          {"type": "resign", "t": 12, "by": "black"},
                          {"type": "sign", "t": 20, "by": "white", "result": "1/2-1/2"},
                          {"type": "sign", "t": 21, "by": "black", "result": "1/2-1/2"}])
    text = game_to_pgn(g)
    for tag in ('[Arbiter "occasional"]', '[Supervision "partial"]', '[Clock "digital"]',
                '[VisuallyDisabled "white"]', '[Assistant "white"]', '[HearingImpaired "black"]',
                '[WhiteSigned "1/2-1/2"]', '[BlackSigned "1/2-1/2"]', '[Result "1/2-1/2"]', '[BoardResult "1-0"]'):
        assert tag in text, tag
    (read,) = list(read_pgn(text))
    conv = pgn_to_log(read)
    assert conv.consistent, conv.problems
    start = conv.events[0]
    for name in ("arbiter", "supervision", "clock", "visually_disabled", "assistant", "hearing_impaired"):
        assert start[name] == _start_with_everything()[name], name
    assert [(e["type"], e.get("by"), e.get("result")) for e in conv.events[-3:]] == [
        ("resign", "black", None), ("sign", "white", "1/2-1/2"), ("sign", "black", "1/2-1/2")]
    again = Game.from_events(conv.events).state
    assert (again.result, again.termination) == ("1/2-1/2", "resignation")


@pytest.mark.parametrize("edition", ["1997", "2023"])
def test_the_arbiters_decision_on_the_result_is_read_back_from_the_result(edition: str) -> None:
    """Both sign 1/2-1/2 after Black resigned; under 2023 the arbiter decides otherwise (8.7): 1-0. The
    PGN's Result is 1-0 with the signatures as tags; read back, the signatures make 1/2-1/2 stand, so
    the 1-0 is the arbiter's decision. Under 1997 the signatures never changed the result."""
    events: list[dict[str, object]] = [
        {"type": "start", "t": 0, "edition": edition, "time_control": "5400"},
        {"type": "move", "t": 5, "by": "white", "move": "e4"}, {"type": "move", "t": 9, "by": "black", "move": "e5"},
        {"type": "resign", "t": 12, "by": "black"},
        {"type": "sign", "t": 20, "by": "white", "result": "1/2-1/2"},
        {"type": "sign", "t": 21, "by": "black", "result": "1/2-1/2"}]
    if edition == "2023":
        events.append({"type": "decision", "t": 30, "on": "result", "ruling": "white_wins"})
    text = game_to_pgn(Game.from_events(events))
    assert '[Result "1-0"]' in text and "BoardResult" not in text
    (read,) = list(read_pgn(text))
    conv = pgn_to_log(read)
    assert conv.consistent, conv.problems
    kinds = [e["type"] for e in conv.events[-4:]]
    assert kinds == (["resign", "sign", "sign", "decision"] if edition == "2023" else ["move", "resign", "sign", "sign"])
    assert Game.from_events(conv.events).state.result == "1-0"


def test_an_arbiter_tag_naming_a_person_is_no_start_field() -> None:
    """Elsewhere an Arbiter tag names the arbiter: it is left out, silently."""
    (read,) = list(read_pgn('[Event "x"]\n[Arbiter "J. Smith"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'))
    conv = pgn_to_log(read)
    assert "arbiter" not in conv.events[0] and not any("Arbiter" in n for n in conv.notes)
