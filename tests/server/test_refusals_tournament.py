"""Every refusal a tournament route can send reaches an organiser in his language: the field errors of the event's
regulations and players, the refusals of players' entries, rounds, boards and results, the pairing's and the
store's, read from the code of ``chesslaws/tournament/`` (and what the live tournaments pass on from the store
and from a round's games) itself, f-strings included, so that a refusal added in English alone fails here; what
they fill in that is English too (why a field is wrong, why a time control cannot be read) is translated where
it stands. Then requests in German that meet them over HTTP, and English word for word as before."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

from chesslaws.server.guard import UNLIMITED
from chesslaws.server.refusals import refusal_name, translated
from chesslaws.timecontrol import TimeControl, TimeControlError
from chesslaws.webapp import create_app

from source_texts import FILLED, PACKAGE, calls, variants

LANGS = ["de", "fr", "es"]
#: The code whose refusals reach a tournament route: the services, what their pairing, rounds and store raise,
#: and what a round's games refuse (rounds.py passes it on).
TOURNAMENT_CODE = [PACKAGE / "tournament" / f for f in ("model.py", "live.py", "pairing.py", "rounds.py", "feed.py")] \
    + [PACKAGE / "store" / "tournaments.py", PACKAGE / "webapp" / "tournaments.py", PACKAGE / "server" / "newgame.py"]
#: The exceptions whose first argument is a refusal's text (``Refused``: its second).
FIRST = {"_fail", "TournamentError", "WrongState", "InvalidInput"}
#: The store's refusals that reach a route (its other errors name the database for the command line: the live
#: tournaments answer them with "no tournament …").
STORE = {"StaleTournament", "RoundPairedMeanwhile"}
#: Texts passed on whole: an exception of this code caught and raised again with its own message.
PASSED_ON = {"str(err)", "message"}
#: A filled-in value that is one of a few texts: the texts (read from the code where they are written).
MARK = "\x00"


def _returned(module: Path, function: str) -> list[str]:
    """The texts ``function`` of ``module`` returns."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    body = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    return [t for n in ast.walk(body) if isinstance(n, ast.Return) and n.value is not None
            for t in variants(n.value)]


def _raised(module: Path, cls: str) -> list[str]:
    """The messages of the ``cls`` that ``module`` raises."""
    return [t for _, n in calls([module]) if getattr(n.func, "id", None) == cls and n.args for t in variants(n.args[0])]


def filled_values() -> dict[tuple[str, str], list[str]]:
    """What an expression (in a module) stands for where it is one of a few texts; every other filled-in value is
    ``x``."""
    return {
        ("live.py", "what"): [""],  # a prefix naming the query parameter ("before: "), or none
        ("live.py", "state"): ["in play", "over"],  # the game of a board whose result the arbiter would enter
        ("model.py", "problem"): _returned(PACKAGE / "names.py", "name_problem"),  # why a name cannot be shown
        ("live.py", "err"): _raised(PACKAGE / "store" / "tournaments.py", "RoundPairedMeanwhile"),  # "… shows them"
    }


def tournament_refusals() -> dict[str, list[str]]:
    """Where each refusal is raised (file:line) and the texts it can be."""
    values = filled_values()
    found: dict[str, list[str]] = {}
    for path, node in calls(TOURNAMENT_CODE):
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if path.name == "newgame.py" and name != "InvalidInput":
            continue
        if (name in FIRST or (path.parent.name == "store" and name in STORE)) and node.args:
            text = node.args[0]
        elif name == "Refused" and len(node.args) >= 2:
            text = node.args[1]
        else:
            continue
        if path.parent.name == "store" and name == "TournamentError":
            continue
        if ast.unparse(text) in PASSED_ON:
            continue
        said: list[str] = []
        for marked in variants(text, lambda source: f"{MARK}{source}{MARK}"):
            texts = [""]
            for i, piece in enumerate(marked.split(MARK)):
                choices = [piece] if i % 2 == 0 else values.get((path.name, piece), ["x"])
                texts = [t + c for t in texts for c in choices]
            said += texts
        found[f"{path.name}:{node.lineno}"] = said
    return found


#: Two or more English words in a row (outside quotes): one left in a translation is a text left English.
ENGLISH_RUN = re.compile(r"\b[a-z]{3,}(?: [a-z]{2,})+\b")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def left_english(english: str, said: str) -> list[str]:
    """The runs of English words of ``english`` that ``said`` (its translation) still has."""
    return [run for run in ENGLISH_RUN.findall(QUOTED.sub("", english)) if run in said]


def test_every_tournament_refusal_is_read_from_the_code() -> None:
    found = tournament_refusals()
    assert len(found) > 60
    assert [where for where, texts in found.items() if not texts] == [], "a refusal whose text this test cannot read"
    everything = {t for texts in found.values() for t in texts}
    assert "players are registered before round 1 is paired" in everything
    assert "round x table x: its game is in play on this server: its result comes from the game (decide there, " \
           "in its arbiter console)" in everything


@pytest.mark.parametrize("lang", LANGS)
def test_every_tournament_refusal_has_its_translation(lang: str) -> None:
    missing: dict[str, str] = {}
    for where, texts in tournament_refusals().items():
        for text in texts:
            said = translated(text, lang)
            if refusal_name(text) is None or said == text or left_english(text, said) or \
                    translated(text, "en") != text:
                missing[where] = f"{text} -> {said}"
    assert missing == {}, f"tournament refusals without their {lang} text in data/texts.json (refused_...)"


#: Time controls an organiser may write that cannot be read, one for each reason the reader gives.
BAD_TIME_CONTROLS = ["", "abc", "40/", "90+", "60d", "60+x", "-5", "?", "*60", "40.5/5400", "0/60", "1+2+3",
                     "5400:1800:60", "90.0001", "1001/60", "9999999", "60+100000", "40/1:" * 25 + "1",
                     "9" * 20, "40/5400:", ":60"]


def time_control_errors() -> Iterator[str]:
    for text in BAD_TIME_CONTROLS:
        try:
            TimeControl.parse(text)
        except TimeControlError as err:
            yield str(err)
        else:
            raise AssertionError(f"{text!r} was read")


#: What the time control reader says only of a PGN tag, or of values its reading of a spec never builds.
NOT_OF_A_SPEC = {"a period needs at least 1 move, not x", "negative time in x", "unknown delay kind x",
                 "delay_ms=x without a delay kind", "a time control is a string, not x", "a PGN tag cannot express delays",
                 "bad time control x: '?' at position 0 means unknown, which is not a time control",
                 "period x (x) is for the rest of the game but more periods follow it",
                 "sandclock (hourglass) controls are not supported"}


def test_the_bad_time_controls_meet_every_reason_the_reader_gives() -> None:
    """Read from ``timecontrol.py``: each message (or reason of "bad time control …") it raises is met by one of
    :data:`BAD_TIME_CONTROLS`, so that a reason added there is translated here."""
    errors = set(time_control_errors())
    unmet = []
    for _, node in calls([PACKAGE / "timecontrol.py"]):
        name = getattr(node.func, "id", None)
        text = node.args[3] if name == "_fail" and len(node.args) >= 4 else \
            node.args[0] if name == "TimeControlError" and node.args else None
        for marked in variants(text, lambda source: MARK) if text is not None else ():
            said = marked.replace(MARK, FILLED)
            pattern = re.compile(".+".join(re.escape(piece) for piece in marked.split(MARK)))
            if said not in NOT_OF_A_SPEC and not any(pattern.search(e) for e in errors):
                unmet.append(said)
    assert unmet == []


@pytest.mark.parametrize("lang", LANGS)
def test_why_a_time_control_cannot_be_read_is_translated(lang: str) -> None:
    """The event's time control is refused with the reader's reason (``field 'time_control': {err}``)."""
    errors = set(time_control_errors())
    assert len(errors) >= 15
    left = {}
    for err in errors:
        text = f"field 'time_control': {err}"
        said = translated(text, lang)
        if left_english(text, said) or said == text:
            left[text] = said
    assert left == {}


def test_what_a_field_error_fills_in_is_translated() -> None:
    said = translated("field 'tiebreaks': STD (Standard points) is a tie-break of the 2026 C.07 rules, not of the "
                      "2023 rules: choose tiebreak_rules 2026", "de")
    assert said == ("Feld 'tiebreaks': STD (Standardpunkte) ist eine Feinwertung der C.07-Regeln von 2026, nicht der "
                    "Regeln von 2023: wählen Sie tiebreak_rules 2026")
    assert translated("field 'time_control': bad time control '90+': expected an increment in seconds: nothing at "
                      "position 3", "fr") == ("champ 'time_control' : cadence invalide '90+' : attendu : un incrément "
                                              "en secondes : rien à la position 3")
    assert translated("field 'name': no visible character (only blanks or invisible characters) in '\u200b'", "es") \
        == "campo 'name': ningún carácter visible (solo espacios o caracteres invisibles) en '\u200b'"


# --- over HTTP -------------------------------------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), limits=UNLIMITED)) as c:
        yield c


GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
EVENT = {"name": "Vereinsmeisterschaft", "system": "round-robin", "time_control": "5400+30",
         "players": [{"name": "Anna", "rating": 2000}, {"name": "Boris", "rating": 1900},
                     {"name": "Chiara", "rating": 1800}]}


def refused(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    return str(r.json()["error"])


def test_the_creation_forms_field_errors_in_german(client: TestClient) -> None:
    def create(**fields: Any) -> str:
        return refused(client.post("/api/tournaments", json={**EVENT, **fields}, headers=GERMAN), 422)

    assert create(scoring="1-1-0") == ("Feld 'scoring': ein Sieg muss mehr Punkte geben als ein Remis, ein Remis "
                                       "mindestens so viele wie eine Niederlage ('1-1-0')")
    assert create(scoring="3-1") == "Feld 'scoring': '3-1' sind keine Punkte SIEG-REMIS-NIEDERLAGE wie '1-0.5-0' " \
                                    "oder '3-1-0'"
    assert create(tiebreaks=["BH", "XYZ"]).startswith("Feld 'tiebreaks': unbekannte Feinwertung 'XYZ' (bekannt: BH, ")
    assert create(tiebreaks=["STD"]).startswith("Feld 'tiebreaks': STD (Standardpunkte) ist eine Feinwertung der "
                                                "C.07-Regeln von 2026")
    assert create(time_control="90+") == ("Feld 'time_control': ungültige Bedenkzeit '90+': ein Inkrement in Sekunden "
                                          "erwartet: nichts an Position 3")
    assert create(time_control="1001/60") == ("Feld 'time_control': eine Periode hat höchstens 1000 Züge, "
                                              "nicht 1001")
    # English, word for word as before, to a client who asks for none of the other languages.
    r = client.post("/api/tournaments", json={**EVENT, "scoring": "1-1-0"})
    assert refused(r, 422) == "field 'scoring': a win must give more than a draw, a draw at least a loss ('1-1-0')"


def test_players_rounds_and_boards_refused_in_german(client: TestClient) -> None:
    r = client.post("/api/tournaments", json=EVENT, headers=GERMAN)
    assert r.status_code == 201, r.text
    tid, token = r.json()["id"], r.json()["arbiter_token"]
    arbiter = {**GERMAN, "Authorization": f"Bearer {token}"}
    api = f"/api/tournaments/{tid}"

    assert refused(client.post(f"{api}/rounds", json={"start": "now"}, headers=GERMAN), 403) == \
        "der Token des Turnierschiedsrichters ist erforderlich (Authorization: Bearer TOKEN)"
    assert refused(client.post(f"{api}/players/9/withdraw", json={}, headers=arbiter), 404) == \
        "Spieler 9: diese Startnummer gibt es nicht (1..3)"
    assert refused(client.post(f"{api}/rounds/1/start", json={}, headers=arbiter), 404) == \
        "Runde 1: noch nicht ausgelost (0 Runde(n) ausgelost)"
    assert client.post(f"{api}/rounds", json={"start": "now"}, headers=arbiter).status_code == 201

    # A player's entry once round 1 is paired.
    assert refused(client.post(f"{api}/players", json={"name": "Dana"}, headers=arbiter), 409) == \
        "Spieler werden angemeldet, bevor Runde 1 ausgelost ist"
    assert refused(client.post(f"{api}/players/2/withdraw", json={"from_round": 1}, headers=arbiter), 409) == \
        "Runde 1 ist bereits ausgelost: tragen Sie dort stattdessen eine kampflose Partie ein"
    assert refused(client.post(f"{api}/players/2/bye", json={"round": 1}, headers=arbiter), 409) == \
        "Runde 1 ist bereits ausgelost: eine spielfreie Runde wird vor der Auslosung beantragt"

    # A round, its boards and their results.
    assert refused(client.post(f"{api}/rounds", json={"start": "now"}, headers=arbiter), 409) == \
        "Runde 1 ist nicht beendet: kein Ergebnis an Brett(ern) 1"
    assert refused(client.post(f"{api}/rounds/4/start", json={}, headers=arbiter), 404) == \
        "Runde 4: noch nicht ausgelost (1 Runde(n) ausgelost)"
    assert refused(client.post(f"{api}/rounds/1/boards/9/result", json={"result": "1-0"}, headers=arbiter), 404) == \
        "Runde 1: kein Brett 9"
    assert refused(client.post(f"{api}/rounds/1/boards/1/result", json={"result": "1-0"}, headers=arbiter), 409) == \
        ("Runde 1, Brett 1: ihre Partie läuft auf diesem Server: ihr Ergebnis kommt aus der Partie (entscheiden Sie "
         "dort, in ihrer Schiedsrichterkonsole)")
    assert refused(client.get(f"{api}/console?round=7", headers=arbiter), 404) == "Runde 7: nicht ausgelost (Runden 1..1)"
    assert refused(client.get(f"{api}/players/1", headers=GERMAN), 403) == \
        "der eigene Link dieses Spielers ist erforderlich (Authorization: Bearer TOKEN aus dem Link)"

    # The same refusals in English, word for word, and in the language the pages' switch chose.
    english = {"Authorization": f"Bearer {token}"}
    assert refused(client.post(f"{api}/rounds", json={"start": "now"}, headers=english), 409) == \
        "round 1 is not finished: no result on table(s) 1"
    assert refused(client.post(f"{api}/players", json={"name": "Dana"}, headers=english), 409) == \
        "players are registered before round 1 is paired"
    assert refused(client.post(f"{api}/rounds/1/boards/9/result?lang=es", json={"result": "1-0"}, headers=english),
                   404) == "ronda 1: no hay mesa 9"
