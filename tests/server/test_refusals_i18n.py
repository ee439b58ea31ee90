"""The server's refusals follow the client's language: the ``lang`` it asks for (query), the language switch's cookie
the pages' language switch keeps, or its Accept-Language; English, word for word as before, when it asks for
none of German, French and Spanish. Over HTTP and on the game's WebSocket."""

from __future__ import annotations

from typing import Any

import pytest

from chesslaws.webapp.language import LANG_COOKIE, accepted

NO_SEAT = {"en": "this token opens no seat of this game", "de": "dieser Token öffnet keinen Platz dieser Partie",
           "fr": "ce jeton n'ouvre aucune place de cette partie", "es": "este token no abre ningún puesto de esta partida"}


def game(client: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"white": "Anna", "black": "Boris", "time_control": "600",
                                        "when_ready": False, "presence": False})
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_a_refusal_follows_accept_language_the_query_and_the_cookie(client: Any, lang: str) -> None:
    g = game(client)
    url = f"/api/games/{g['id']}/events"
    wrong = {"Authorization": "Bearer not-a-seat"}
    r = client.post(url, json={"type": "resign"}, headers={**wrong, "Accept-Language": f"{lang}-XX,en;q=0.5"})
    assert r.status_code == 401 and r.json() == {"error": NO_SEAT[lang], "status": 401}
    r = client.post(f"{url}?lang={lang}", json={"type": "resign"}, headers=wrong)
    assert r.json()["error"] == NO_SEAT[lang]
    client.cookies.set(LANG_COOKIE, lang)
    try:
        assert client.post(url, json={"type": "resign"}, headers=wrong).json()["error"] == NO_SEAT[lang]
    finally:
        client.cookies.clear()
    # A ruling's refusal: what was not done, and why, both in the language.
    r = client.post(f"{url}?lang={lang}", json={"type": "move", "move": "e5"},
                    headers={"Authorization": f"Bearer {g['tokens']['black']}"})
    assert r.status_code == 409
    said = r.json()["error"]
    assert {"de": "Ihr Zug wurde nicht ausgeführt", "fr": "Votre coup n'a pas été joué",
            "es": "Su jugada no se ha efectuado"}[lang] in said
    assert {"de": "Weiß", "fr": "Blancs", "es": "Blancas"}[lang] in said and "move" not in said
    # Unknown paths and games too.
    r = client.get("/api/games/nosuchgame/log", headers={"Accept-Language": lang})
    assert r.status_code == 404 and "nosuchgame" in r.json()["error"] and "no game" not in r.json()["error"]


def test_english_stays_word_for_word(client: Any) -> None:
    g = game(client)
    wrong = {"Authorization": "Bearer not-a-seat"}
    for headers in ({}, {"Accept-Language": "en-GB"}, {"Accept-Language": "ru, ja;q=0.8"}):
        r = client.post(f"/api/games/{g['id']}/events", json={"type": "resign"}, headers={**wrong, **headers})
        assert r.json()["error"] == NO_SEAT["en"]
    r = client.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": "e5"},
                    headers={"Authorization": f"Bearer {g['tokens']['black']}"})
    assert r.json()["error"] == "Your move was not played: it is White's move, not Black's."


def test_the_websocket_refuses_in_its_language(client: Any) -> None:
    g = game(client)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['black']}&lang=fr") as ws:
        assert ws.receive_json()["kind"] == "hello"
        ws.receive_json()  # the state
        ws.send_json({"rid": 1, "event": {"type": "move", "move": "e5"}})
        reply = ws.receive_json()
        while reply.get("kind") != "error":
            reply = ws.receive_json()
        assert reply["rid"] == 1 and reply["error"].startswith("Votre coup n'a pas été joué : c'est à Blancs")
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token=nope",
                                  headers={"Accept-Language": "es"}) as ws:
        assert ws.receive_json() == {"kind": "error", "status": 401, "error": NO_SEAT["es"]}


def test_accept_language_weights() -> None:
    assert accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == "fr"
    assert accepted("ja, de;q=0.4, es;q=0.6") == "es"
    assert accepted("") == accepted("ja") == accepted("de;q=0") == "en"
