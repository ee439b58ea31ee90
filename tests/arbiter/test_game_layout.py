"""The arbiter is laid out like the Laws.

``chesslaws.game`` is a package whose modules follow the Laws' parts. These
tests keep it so: the handler table in ``chesslaws.game.handlers`` is the one
entry point and sends every event type to the module of its part; the
modules import one another without a cycle (shared helpers live in
``state``); every module's docstring names the articles it applies in each
edition; and ``chesslaws.game`` still exports the names it exported as one
file.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import chesslaws.game
from chesslaws.game.handlers import HANDLERS

PACKAGE = Path(chesslaws.game.__file__).parent
PARTS = ["state", "completion", "played", "moving", "draws", "flags", "irregularities", "conduct", "adjournment",
         "pressing", "releasing", "displacement", "recording", "grounds", "gamescores", "announcing", "observation", "appeals",
         "claims", "regulated", "procedures", "setup", "handlers"]

#: Each event type -> the module of the Laws' part that rules on it.
HOME = {
    "move": "moving", "touch": "moving", "adjust": "moving", "claim_touch_move": "moving", "release": "releasing",
    "displace": "displacement", "restore": "displacement", "scoresheet": "recording", "sign": "recording", "game_score": "gamescores",
    "request_scoresheet": "recording", "announce": "announcing", "observe": "observation",
    "resign": "completion",
    "offer_draw": "draws", "accept_draw": "draws", "decline_draw": "draws", "claim_draw": "draws",
    "decision": "draws", "request_increment": "draws",
    "claim_flag": "flags", "stop_clocks": "flags", "start_clocks": "flags", "set_clocks": "flags",
    "press_clock": "pressing", "claim_win": "irregularities", "reinstate": "irregularities",
    "claim_setup": "irregularities", "annul": "irregularities",
    "penalty": "conduct", "conduct": "conduct", "refuse_to_comply": "conduct",
    "seal": "adjournment", "resume": "adjournment", "arrive": "adjournment", "envelope_lost": "adjournment",
    "request_explanation": "appeals", "appeal": "appeals", "appeal_decision": "appeals",
    "leave_area": "regulated", "reconstruct": "procedures",
    "begin": "handlers",  # a live game's t=0 fixed: the start of the game, as initial_state
}


def test_the_modules_are_the_laws_parts() -> None:
    assert sorted(p.stem for p in PACKAGE.glob("*.py")) == sorted(PARTS + ["__init__"])


def test_the_handler_table_sends_each_event_to_its_part() -> None:
    assert chesslaws.game.HANDLERS is HANDLERS
    where = {event: handler.__module__.rpartition(".")[2] for event, handler in HANDLERS.items()}
    assert where == HOME


def test_no_import_cycle_between_the_parts() -> None:
    graph: dict[str, set[str]] = {}
    for part in PARTS + ["__init__"]:
        tree = ast.parse((PACKAGE / f"{part}.py").read_text(encoding="utf-8"))
        graph[part] = {node.module.rpartition(".")[2] for node in ast.walk(tree)
                       if isinstance(node, ast.ImportFrom) and node.module
                       and node.module.startswith("chesslaws.game.")}
    assert not graph["state"], "state is the base: it imports no other part"
    done: set[str] = set()

    def visit(part: str, path: tuple[str, ...]) -> None:
        assert part not in path, " -> ".join(path + (part,))
        if part not in done:
            for dep in graph[part]:
                visit(dep, path + (part,))
            done.add(part)

    for part in graph:
        visit(part, ())


def test_every_part_names_its_articles_in_each_edition() -> None:
    for part in PARTS:
        doc = importlib.import_module(f"chesslaws.game.{part}").__doc__ or ""
        for edition in ("1989", "1997", "2023"):
            assert edition in doc, f"chesslaws.game.{part}: its docstring names no {edition} article"


def test_the_public_names_of_chesslaws_game_stay() -> None:
    assert chesslaws.game.__all__ == ["Config", "DrawOffer", "Game", "GameError", "GameState", "LogError",
                                      "MoveRecord", "Outcome", "Ruling", "Termination", "observe", "transition"]
    for name in ["CONDUCT_RULES", "Envelope", "HANDLERS", "Handler", "NAME", "PENALTY_RULES", "PendingClaim",
                 "Result", "Status", "draw", "fmt_duration", "initial_state", "other", "read_log", "win_for",
                 *chesslaws.game.__all__]:
        assert hasattr(chesslaws.game, name), name
