"""Each family of the server's refusals reaches a German, French or Spanish client in its language, over HTTP
and on the WebSocket: the arbiter's reasons (a ruling's refusal, an event that cannot be read), the budget of
events a player repeats, the rate limits (with their span of time), pydantic's field errors (the field's name
kept), the middleware in front of every route (ids in paths, the body's size and JSON, sockets per address),
the tournament's WebSocket and the console's reading of a move played over the board. English stays word for
word."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

from chesslaws.server.engines import EngineGame, StrengthIn
from chesslaws.server.guard import UNLIMITED, Limits
from chesslaws.server.hub import MAX_BODY
from chesslaws.server.refusals import translated
from chesslaws.webapp import create_app
from chesslaws.webapp.models import CreateGame, JoinSeat, QrText
from chesslaws.webapp.tournaments import (ByeRequest, EnteredResult, NewPlayer, NewTournament, PairRound, StartRound,
                                          Withdrawal)

LANGS = ["de", "fr", "es"]


def app_client(db_url: str, limits: Limits = UNLIMITED) -> TestClient:
    return TestClient(create_app(db_url, limits=limits))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A SQLite store: the languages of the refusals do not depend on the database."""
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with app_client(db_url) as c:
        yield c


def game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"white": "Anna", "black": "Boris", "time_control": "600",
                                        "when_ready": False, "presence": False, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def send(client: TestClient, g: dict[str, Any], seat: str, event: dict[str, Any], lang: str | None) -> Any:
    headers = {"Authorization": f"Bearer {g['tokens'][seat]}"}
    if lang:
        headers["Accept-Language"] = lang
    return client.post(f"/api/games/{g['id']}/events", json=event, headers=headers)


def on_socket(client: TestClient, g: dict[str, Any], seat: str, events: list[dict[str, Any]],
              lang: str) -> list[str]:
    """The refusals the game's WebSocket answers ``events`` with, in order."""
    errors = []
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens'][seat]}&lang={lang}") as ws:
        assert ws.receive_json()["kind"] == "hello"
        for rid, event in enumerate(events):
            ws.send_json({"rid": rid, "event": event})
            reply = ws.receive_json()
            while reply.get("rid") != rid:
                reply = ws.receive_json()
            if reply.get("kind") == "error":
                errors.append(reply["error"])
    return errors


NO_PIECE = {"en": "The touched piece was not recorded: there is no piece on e4.",
            "de": "Die berührte Figur wurde nicht aufgezeichnet: auf e4 steht keine Figur.",
            "fr": "La pièce touchée n'a pas été enregistrée : il n'y a aucune pièce sur e4.",
            "es": "La pieza tocada no se ha registrado: no hay ninguna pieza en e4."}
NEEDS_SQUARE = {"en": "event 'touch' needs field 'square'", "de": "das Ereignis 'touch' braucht das Feld 'square'",
                "fr": "l'événement 'touch' demande le champ 'square'", "es": "el evento 'touch' necesita el campo 'square'"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_arbiters_reasons_over_http_and_the_websocket(client: TestClient, lang: str) -> None:
    g = game(client)
    r = send(client, g, "white", {"type": "touch", "square": "e4"}, lang)
    assert r.status_code == 409 and r.json()["error"] == NO_PIECE[lang]
    r = send(client, g, "white", {"type": "touch"}, lang)
    assert r.status_code == 422 and r.json()["error"] == NEEDS_SQUARE[lang]
    said = on_socket(client, g, "white", [{"type": "touch", "square": "e4"}, {"type": "touch"},
                                          {"type": "release", "from": "e2", "piece": "q", "to": "e4"}], lang)
    assert said[:2] == [NO_PIECE[lang], NEEDS_SQUARE[lang]]
    assert said[2] == translated(said[2], "en") != "" and "'release'" in said[2] and "not both" not in said[2]


def test_english_is_word_for_word(client: TestClient) -> None:
    g = game(client)
    assert send(client, g, "white", {"type": "touch", "square": "e4"}, None).json()["error"] == NO_PIECE["en"]
    assert send(client, g, "white", {"type": "touch"}, "en-GB").json()["error"] == NEEDS_SQUARE["en"]
    assert on_socket(client, g, "white", [{"type": "touch", "square": "e4"}], "en") == [NO_PIECE["en"]]
    r = client.post("/api/games", json={"edition": "1990"})
    assert r.json()["error"] == "edition: Input should be '1989', '1997' or '2023'"


BUDGET = {"de": "abgelehnt, nicht aufgezeichnet: Weiß hat in dieser Stellung 2 Ereignisse ausgelöst",
          "fr": "refusé, non enregistré : les Blancs ont fait 2 événements qui n'ont ni joué ni terminé la partie",
          "es": "rechazado, no registrado: las Blancas han hecho 2 eventos que ni movieron ni terminaron la partida"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_budget_of_repeated_events(db_url: str, lang: str) -> None:
    limits = Limits(None, None, None, None, events_aside_per_move=2)
    with app_client(db_url, limits) as client:
        g = game(client, arbiter="absent", edition="1989")
        codes = [send(client, g, "white", {"type": "adjust", "square": "a2"}, lang).status_code for _ in range(2)]
        assert codes == [200, 200]
        r = send(client, g, "white", {"type": "adjust", "square": "a2"}, lang)
        assert r.status_code == 409 and r.json()["error"].startswith(BUDGET[lang]), r.json()
        assert "15.1(d)" in r.json()["error"] and "annoy" not in r.json()["error"]
        said = on_socket(client, g, "white", [{"type": "adjust", "square": "b2"}], lang)
        assert said and said[0].startswith(BUDGET[lang])


SPAN = {"de": "pro 1 Minute", "fr": "par 1 minute", "es": "por 1 minuto"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_rate_limit_names_its_span_in_the_language(db_url: str, lang: str) -> None:
    with app_client(db_url, Limits(create_per_address="2/minute")) as client:
        for _ in range(2):
            game(client)
        r = client.post("/api/games", json={}, headers={"Accept-Language": lang})
        assert r.status_code == 429 and SPAN[lang] in r.json()["error"]
        assert "too many" not in r.json()["error"] and r.headers["retry-after"]
    with app_client(db_url, Limits(events_per_token="2/minute")) as client:
        g = game(client)
        said = on_socket(client, g, "white", [{"type": "adjust", "square": "a2"}] * 3, lang)
        assert len(said) == 1 and SPAN[lang] in said[0]


FIELD = {"de": "edition: Die Angabe muss '1989', '1997' oder '2023' sein",
         "fr": "edition: La valeur doit être '1989', '1997' ou '2023'",
         "es": "edition: El valor debe ser '1989', '1997' o '2023'"}


@pytest.mark.parametrize("lang", LANGS)
def test_pydantics_field_errors_keep_the_fields_name(client: TestClient, lang: str) -> None:
    r = client.post("/api/games", json={"edition": "1990", "white": 7}, headers={"Accept-Language": lang})
    assert r.status_code == 422
    first, second = r.json()["error"].split("; ")
    assert first == FIELD[lang] and second.startswith("white: ") and "Input" not in second
    r = client.post("/api/tournaments", json={"name": "Club", "rounds": 0, "players": []},
                    headers={"Accept-Language": lang})
    assert r.status_code == 422 and r.json()["error"].startswith("rounds: ") and "Input" not in r.json()["error"]


REQUEST_MODELS: list[type[BaseModel]] = [CreateGame, JoinSeat, QrText, EngineGame, StrengthIn, NewTournament, NewPlayer,
                                         EnteredResult, PairRound, StartRound, ByeRequest, Withdrawal]
WRONG: list[Any] = [None, True, 1.5, -1, 10**9, "", " ", "x" * 5000, [], ["x"] * 3000, {}, "zz", "\u200b"]


def field_errors() -> set[str]:
    """Every message pydantic gives about a field of a request body, for wrong values of every kind."""
    found: set[str] = set()
    for model in REQUEST_MODELS:
        bodies: list[Any] = [{}, [], "x", {"unknown_field": 1}]
        bodies += [{name: value} for name in model.model_fields for value in WRONG]
        for body in bodies:
            try:
                model.model_validate(body)
            except ValidationError as err:
                found.update(str(e["msg"]) for e in err.errors())
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_field_error_pydantic_gives_has_its_translation(lang: str) -> None:
    found = field_errors()
    assert len(found) > 10
    assert sorted(m for m in found if translated(m, lang) == m) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_middleware_in_front_of_the_routes(db_url: str, lang: str) -> None:
    with app_client(db_url, Limits(sockets_per_address=1)) as client:
        r = client.get("/api/games/bad!id/log", headers={"Accept-Language": lang})
        assert r.status_code == 404 and "'bad!id'" in r.json()["error"] and "an id is" not in r.json()["error"]
        r = client.get(f"/api/tournaments/abc/rounds/x9/boards?lang={lang}")
        assert r.status_code == 422 and "'x9'" in r.json()["error"] and "is not a" not in r.json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/api/games/bad!id/ws?lang={lang}"):
                pass
        assert closed.value.code == 1008 and "'bad!id'" in closed.value.reason and "an id is" not in closed.value.reason
        assert len(closed.value.reason.encode()) <= 123
        r = client.post("/api/games", content=b'{"white": "' + b"x" * MAX_BODY + b'"}',
                        headers={"Accept-Language": lang, "content-type": "application/json"})
        assert r.status_code == 413 and str(MAX_BODY) in r.json()["error"] and "request body" not in r.json()["error"]
        r = client.post("/api/games", content=b'{"white": "a", "white": "b"}',
                        headers={"Accept-Language": lang, "content-type": "application/json"})
        assert r.status_code == 400 and "'white'" in r.json()["error"] and "appears twice" not in r.json()["error"]
        g = game(client)
        with client.websocket_connect(f"/api/games/{g['id']}/ws") as first:
            assert first.receive_json()["kind"] == "hello"
            with pytest.raises(WebSocketDisconnect) as closed:
                with client.websocket_connect(f"/api/games/{g['id']}/ws", headers={"Accept-Language": lang}):
                    pass
        assert closed.value.code == 1008 and "1" in closed.value.reason and "sockets from" not in closed.value.reason
        assert closed.value.reason == translated("at most 1 sockets from one address", lang)


NO_TOURNAMENT = {"de": "kein Turnier", "fr": "aucun tournoi", "es": "ningún torneo"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournaments_websocket(client: TestClient, lang: str) -> None:
    with client.websocket_connect(f"/api/tournaments/nosuch/ws?lang={lang}") as ws:
        said = ws.receive_json()
    assert said["kind"] == "error" and said["status"] == 404
    assert said["error"].startswith(f"{NO_TOURNAMENT[lang]} 'nosuch'")


UNREADABLE = {"de": "unlesbarer Zug 'zz9': kein Zug in der algebraischen Notation irgendeiner bekannten Sprache",
              "fr": "coup illisible 'zz9' : pas un coup dans la notation algébrique d'aucune langue connue",
              "es": "jugada ilegible 'zz9': no es una jugada en la notación algebraica de ninguna lengua conocida"}


READ_IN_FRENCH = {"de": "unlesbarer Zug 'zz9': kein Zug in algebraischer Notation (Französisch)",
                  "fr": "coup illisible 'zz9' : pas un coup en notation algébrique (français)",
                  "es": "jugada ilegible 'zz9': no es una jugada en notación algebraica (francés)"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_consoles_reading_of_a_move(client: TestClient, lang: str) -> None:
    g = game(client, interface="otb")
    r = client.get(f"/api/games/{g['id']}/read-move?move=zz9", headers={"Accept-Language": lang})
    assert r.status_code == 422 and r.json()["error"] == UNREADABLE[lang]
    client.cookies.set("chesslaws_lang", lang)
    try:
        r = client.get(f"/api/games/{g['id']}/read-move?move=zz9&lang=fr")  # the piece letters' language
        assert r.json()["error"] == READ_IN_FRENCH[lang]
    finally:
        client.cookies.clear()
    r = client.get(f"/api/games/{g['id']}/read-move?move=zz9")
    assert r.json()["error"] == "unreadable move 'zz9': not a move in the algebraic notation of any known language"


CLAIMS = {"de": ("Reklamationen erhoben, die die Partie nicht beendet haben", "in dieser Stellung", "in dieser Partie"),
          "fr": ("réclamations qui n'ont pas terminé la partie", "dans cette position", "dans cette partie"),
          "es": ("reclamaciones que no terminaron la partida", "en esta posición", "en esta partida")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_budget_of_claims_in_a_position_and_in_a_game(db_url: str, lang: str) -> None:
    limits = Limits(None, None, None, None, claims_per_move=2, claims_per_game=3)
    with app_client(db_url, limits) as client:
        g = game(client, arbiter="absent", edition="1997")
        for _ in range(2):
            assert send(client, g, "white", {"type": "claim_flag"}, lang).status_code == 200
        said = send(client, g, "white", {"type": "claim_flag"}, lang).json()["error"]
        what, here, _ = CLAIMS[lang]
        assert what in said and here in said and "12.5" in said and "annoy" not in said, said
        for seat, move in (("white", "Nf3"), ("black", "Nf6")):
            assert send(client, g, seat, {"type": "move", "move": move}, None).status_code == 200
        assert send(client, g, "white", {"type": "claim_flag"}, lang).status_code == 200
        said = send(client, g, "white", {"type": "claim_flag"}, lang).json()["error"]
        what, _, in_game = CLAIMS[lang]
        assert what in said and in_game in said and "annoy" not in said, said
