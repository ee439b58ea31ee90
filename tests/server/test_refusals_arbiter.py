"""Every refusal the arbiter can give a client has its German, French and Spanish: the reasons of
``GameError`` (a well-formed event not allowed now: "it is White's move, not Black's") and the messages of
``EventError`` (an event that cannot be read: "event 'move' needs field 'move'"), read from the code of
``chesslaws/game/`` and ``chesslaws/events.py`` itself, f-strings included, so that a refusal added in English
alone fails here; and what they fill in that is English too (a penalty, a piece, a span of time) is
translated where it stands."""

from __future__ import annotations

import ast

import pytest

from chesslaws.events import Event, _PENALTIES
from chesslaws.game.conduct import CONDUCT_RULES
from chesslaws.game.state import GameError
from chesslaws.server.messages import NOT_DONE, for_people
from chesslaws.server.refusals import refusal_name, translated

from source_texts import FILLED, PACKAGE, calls, variants

ARBITER_CODE = [*sorted((PACKAGE / "game").glob("*.py")), PACKAGE / "events.py"]
#: Names that hold the instant " at t=…" of a refusal, which a person is not told (:func:`for_people`).
INSTANTS = {"when"}
#: Refusals whose text is not written at the raise site (the module, the expression): the function of
#: ``chesslaws`` whose ``ClockError`` messages it passes on.
ELSEWHERE = {
    ("recording.py", "str(err)"): ("clock.py", "next_period"),  # the decision on the period
}


def _filled(source: str) -> str:
    """An instant is left out, any other filled-in value is ``x``."""
    return "" if source in INSTANTS else FILLED


def arbiter_refusals() -> dict[str, list[str]]:
    """Where each refusal of the arbiter is raised (file:line) and the texts it can be; a name the message is
    held in (``unavailable``) gives none here."""
    found: dict[str, list[str]] = {}
    for path, node in calls(ARBITER_CODE):
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if name == "GameError" and len(node.args) >= 2:
            text = node.args[1]
        elif name == "EventError" and node.args:
            text = node.args[0]
        else:
            continue
        where = f"{path.name}:{node.lineno}"
        found[where] = list(variants(text, _filled))
        source = ELSEWHERE.get((path.name, ast.unparse(text)))
        if source is not None:
            found[where] = _passed_on(*source)
    return found


def _passed_on(module: str, function: str) -> list[str]:
    """The messages of the ``ClockError`` that ``function`` of ``module`` raises."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    body = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    return [text for n in ast.walk(body) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "ClockError"
            for text in variants(n.args[0], _filled)]


def test_every_refusal_of_the_arbiter_is_read_from_the_code() -> None:
    found = arbiter_refusals()
    assert len(found) > 150
    assert [where for where, texts in found.items() if not texts] == [], "a refusal whose text this test cannot read"


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_every_refusal_of_the_arbiter_has_its_translation(lang: str) -> None:
    """Each reason and message alone, and each reason as a person is told it (what was not done, then why)."""
    missing: dict[str, str] = {}
    move = Event("move", 61_500, "white", None)  # type: ignore[arg-type]
    for where, texts in arbiter_refusals().items():
        for text in texts:
            said = for_people(GameError(move, text))
            if refusal_name(text) is None or translated(text, lang) == text:
                missing[where] = text
            elif translated(said, lang) == said or translated(text, lang) not in translated(said, lang):
                missing[where] = said
    assert missing == {}, f"refusals without their {lang} text in data/texts.json (refused_...)"
    assert translated("there is no piece on e4", "en") == "there is no piece on e4"


def test_what_a_refusal_fills_in_in_english_is_translated() -> None:
    """A penalty, a breach of conduct, a piece, the rule a draw is claimed by, a span of time: each in the
    language, not left English inside a German sentence."""
    for penalty in _PENALTIES:
        said = translated(f"the game is over: a {penalty.replace('_', ' ')} penalty can no longer apply", "de")
        assert penalty.replace("_", " ") not in said, said
    for kind in CONDUCT_RULES:
        said = translated(f"the 2023 Laws have no rule on {kind.replace('_', ' ')}", "de")
        assert said.startswith("die Regeln von 2023 haben keine Bestimmung über ") and kind.replace("_", " ") not in said
    for piece, de in (("queen", "Dame"), ("rook", "Turm"), ("bishop", "Läufer"), ("knight", "Springer")):
        said = translated(f"no pawn of White's can be promoted to a {piece} on e8", "de")
        assert said == f"kein Bauer von Weiß kann auf e8 in {de} umgewandelt werden"
    assert translated("Your move was not played: only the player having the move (Black) may claim a draw by "
                      "repetition.", "es") == ("Su jugada no se ha efectuado: solo el jugador que tiene el turno "
                                               "(Negras) puede reclamar tablas (repetición).")
    for span, de in (("1 second", "1 Sekunde"), ("10 seconds", "10 Sekunden"), ("1 minute", "1 Minute"),
                     ("5 minutes", "5 Minuten"), ("1 hour", "1 Stunde"), ("2 hours", "2 Stunden"), ("1 day", "1 Tag")):
        said = translated(f"too many requests: at most 3 per {span}; try again in 9 s", "de")
        assert said == f"zu viele Anfragen: höchstens 3 pro {de}; versuchen Sie es in 9 s erneut"


def test_the_turn_in_lower_case_is_a_colour_too() -> None:
    assert translated("The touched piece was not recorded: there is no black piece on d5.", "fr") == \
        "La pièce touchée n'a pas été enregistrée : il n'y a aucune pièce des Noirs sur d5."


def test_every_refused_event_type_says_what_was_not_done() -> None:
    for kind in NOT_DONE:
        said = for_people(GameError(Event(kind, 1000, "white", None), "the game is over"))  # type: ignore[arg-type]
        for lang in ("de", "fr", "es"):
            assert translated(said, lang) != said, (kind, lang)
