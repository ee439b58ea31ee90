"""The arbiter's rulings in the reader's language: a state asked for in German, French or Spanish carries each
ruling's text in it (the English stays for a client that asks for English), and every ruling the arbiter
writes in ``chesslaws/game/`` (``b.rule(...)``, ``b.end(...)``), read from the code itself, has its texts in
``data/texts.json`` (``ruled_...``), but for a known remainder that may only shrink
(``rulings_untranslated.txt`` beside this file)."""

from __future__ import annotations

import ast
import time
from pathlib import Path
from typing import Any

import pytest

from chesslaws.server.rulingtexts import ruling_name, ruling_text

from source_texts import FILLED, PACKAGE, scoped_calls, variants

REMAINDER = Path(__file__).with_name("rulings_untranslated.txt")


def _filled(source: str) -> str:
    """A player's name (``NAME[...]``) is a colour, ``White``; any other filled-in value is ``x``."""
    return "White" if source.startswith("NAME[") else FILLED


def rulings_in_code() -> dict[str, list[str]]:
    """Each ruling the arbiter writes (``file: its text as the code writes it``) and the texts it can be."""
    found: dict[str, list[str]] = {}
    for path, node, names in scoped_calls(sorted((PACKAGE / "game").glob("*.py"))):
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("rule", "end") \
                and ast.unparse(node.func.value) == "b":
            text = node.args[2 if node.func.attr == "rule" else 3]
            found[f"{path.name}: {ast.unparse(text)}"] = list(variants(text, _filled, names))
    return found


def untranslated() -> set[str]:
    """The rulings in the code of which some text has no German, French or Spanish."""
    return {where for where, texts in rulings_in_code().items()
            if not texts or any(ruling_name(t) is None or ruling_text(t, lang) == t
                                for t in texts for lang in ("de", "fr", "es"))}


def test_every_ruling_is_read_from_the_code() -> None:
    assert len(rulings_in_code()) > 150


def test_every_ruling_has_its_translations_but_the_known_remainder_which_only_shrinks() -> None:
    remainder = {line for line in REMAINDER.read_text(encoding="utf-8").splitlines() if line.strip()}
    missing = untranslated()
    assert sorted(missing - remainder) == [], "rulings without their texts in data/texts.json (ruled_...)"
    assert sorted(remainder - missing) == [], f"translated now (or gone): take them out of {REMAINDER.name}"


@pytest.mark.parametrize(("english", "said"), [
    ("White's flag fell before the prescribed moves were completed: Black wins.",
     {"de": "Die Fahne von Weiß ist gefallen, bevor die vorgeschriebenen Züge ausgeführt waren: Schwarz gewinnt.",
      "fr": "Le drapeau des Blancs est tombé avant que les coups prescrits soient joués : les Noirs gagnent.",
      "es": "La bandera de las Blancas cayó antes de completar las jugadas prescritas: ganan las Negras."}),
    ("Black's flag fell, but White, with only king and knight, cannot checkmate by any series of legal moves: "
     "the game is drawn.",
     {"de": "Die Fahne von Schwarz ist gefallen, aber Weiß kann mit nur König und Springer durch keine Folge "
            "legaler Züge mattsetzen: Die Partie ist remis.",
      "fr": "Le drapeau des Noirs est tombé, mais les Blancs, avec seulement roi et cavalier, ne peuvent mater par "
            "aucune suite de coups légaux : la partie est nulle.",
      "es": "La bandera de las Negras cayó, pero las Blancas, con solo rey y caballo, no pueden dar mate con "
            "ninguna serie de jugadas legales: la partida es tablas."}),
    ("Black's 50-move claim is incorrect: only 49 moves by each player have been made without a pawn move or a "
     "capture. Half of Black's remaining time, at most 3 minutes, is deducted (2:30); White receives 3 minutes. "
     "The game continues.",
     {"de": "Die Reklamation von Schwarz (50-Züge-Regel) ist unbegründet: erst 49 Züge jedes Spielers wurden ohne "
            "Bauernzug und ohne Schlagen ausgeführt. Die Hälfte der Restbedenkzeit von Schwarz, höchstens 3 Minuten, "
            "wird abgezogen (2:30); Weiß erhält 3 Minuten. Die Partie geht weiter."}),
    ("White's quickplay-finish claim is not admitted: the game is not in the quickplay finish (Article 10.1): not "
     "all the remaining moves must yet be made in a limited time. No penalty; the game continues.",
     {"de": "Die Schnellschluss-Reklamation von Weiß wird nicht zugelassen: Die Partie ist nicht in der Schlussphase "
            "(Artikel 10.1): Noch müssen nicht alle restlichen Züge in begrenzter Zeit ausgeführt werden. Keine "
            "Strafe; die Partie geht weiter."}),
    ("The game is annulled: aborted: Black made no first move within 30 s.",
     {"de": "Die Partie wird annulliert: abgebrochen: Schwarz hat binnen 30 s keinen ersten Zug gemacht.",
      "fr": "La partie est annulée : interrompue : les Noirs n'ont pas joué de premier coup dans les 30 s.",
      "es": "La partida se anula: cancelada: las Negras no hicieron una primera jugada en 30 s."}),
    ("Black's appeal against ruling 2 is rejected (“the clock was defective”): the arbiter's decision stands.",
     {"fr": "L'appel des Noirs contre la décision n° 2 est rejeté (“the clock was defective”) : la décision de "
            "l'arbitre est maintenue."}),
    # The position reinstated, with what it fills in: the move, the reason, the clocks.
    ("The arbiter reinstates the position after 1. e4 (boards differ): 2 moves are taken back; the clocks are set to "
     "White 1:29:50, Black 1:29:45; Black has the move.",
     {"de": "Der Schiedsrichter stellt die Stellung nach 1. e4 wieder her (die Bretter weichen voneinander ab): Es "
            "werden 2 Züge zurückgenommen; die Uhren werden auf Weiß 1:29:50, Schwarz 1:29:45 gestellt; Schwarz ist "
            "am Zug.",
      "fr": "L'arbitre rétablit la position après 1. e4 (les échiquiers diffèrent) : 2 coups sont repris ; les "
            "pendules sont réglées sur Blancs 1:29:50, Noirs 1:29:45 ; les Noirs ont le trait."}),
    ("The arbiter observes White's illegal move e1e3 before Black has made his next move, and acts under Article "
     "7.5.5.",
     {"es": "El árbitro observa la jugada ilegal e1e3 de las Blancas antes de que las Negras hayan realizado su "
            "siguiente jugada, y actúa según el artículo 7.5.5."}),
    ("The envelope is opened: White's sealed move 1. 'Nh5' is illegal: White loses.",
     {"de": "Der Umschlag wird geöffnet: Der abgegebene Zug 1. 'Nh5' von Weiß ist regelwidrig: Weiß verliert.",
      "fr": "L'enveloppe est ouverte : le coup sous enveloppe 1. 'Nh5' des Blancs est illégal : les Blancs perdent."}),
    # The penalty of an incorrect claim, and the legal move owed after it.
    ("White's threefold claim is incorrect: the intended move e1g1 is illegal. Five minutes are added to White's "
     "used time. White must make a legal move.",
     {"de": "Die Reklamation von Weiß (dreimalige Stellungswiederholung) ist unbegründet: der beabsichtigte Zug e1g1 "
            "ist regelwidrig. Der verbrauchten Zeit von Weiß werden fünf Minuten hinzugefügt. Weiß muss einen legalen "
            "Zug ausführen."}),
    ("White displaced the pieces on c2, d2: he must re-establish the position on his own time. Black may restart "
     "White's clock without making a move, so that he does (press_clock).",
     {"es": "Las Blancas desplazaron las piezas de c2, d2: deben restablecer la posición con su propio tiempo. Las "
            "Negras pueden poner de nuevo en marcha el reloj de las Blancas sin realizar una jugada, para que lo "
            "hagan (press_clock)."}),
    # An appeal quotes the ruling it is against, in the reader's language too.
    ("White appeals against the decision of ruling 1 (Article 6.9: “White's flag fell before the prescribed moves "
     "were completed: Black wins.”): the 1997 Laws provide no appeal, the arbiter enforcing the decisions he "
     "makes; an appeal is for the regulations of the event, and the appeal itself changes nothing in the game.",
     {"es": "Las Blancas apelan contra la decisión n.º 1 (artículo 6.9: «La bandera de las Blancas cayó antes de "
            "completar las jugadas prescritas: ganan las Negras.»): las Leyes de 1997 no prevén apelación, pues el "
            "árbitro hace cumplir sus decisiones; una apelación es cosa del reglamento de la competición, y la "
            "apelación en sí no cambia nada en la partida."}),
])
def test_a_ruling_and_what_it_fills_in_are_translated(english: str, said: dict[str, str]) -> None:
    for lang, text in said.items():
        assert ruling_text(english, lang) == text
    assert ruling_text(english, "en") == english and ruling_text(english, "fi") == english


def test_a_german_game_page_reads_the_flag_and_the_incorrect_claim_in_german(client: Any) -> None:
    """Over the state API as the game page asks for it (``?lang=de``): White claims a repetition that is not
    one, and his flag falls; the rulings are German, and English for a client that asks for none."""
    r = client.post("/api/games", json={"white": "Anna", "black": "Boris", "time_control": "3",
                                        "when_ready": False, "presence": False})
    assert r.status_code == 201, r.text
    g = r.json()
    url = f"/api/games/{g['id']}"
    seat = {c: {"Authorization": f"Bearer {g['tokens'][c]}"} for c in ("white", "black")}
    for by, event in (("white", {"type": "move", "move": "e4"}), ("black", {"type": "move", "move": "e5"}),
                      ("white", {"type": "claim_draw", "reason": "threefold"})):
        r = client.post(f"{url}/events", json=event, headers=seat[by])
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 30
    state = client.get(f"{url}?lang=de").json()
    while state["status"] == "ongoing" and time.monotonic() < deadline:
        time.sleep(0.2)
        state = client.get(f"{url}?lang=de").json()
    texts = [r["text"] for r in state["rulings"]]
    assert state["termination"] == "time_forfeit", texts
    assert any(t.startswith("Die Reklamation von Weiß (dreimalige Stellungswiederholung) ist unbegründet: "
                            "die Stellung ist erst einmal entstanden. Schwarz erhält 1 Minute.") for t in texts), texts
    assert "Im Blitz betragen die Strafen der Artikel 7 und 9 eine Minute statt zwei: Schwarz erhält eine Minute " \
           "für die unbegründete Reklamation von Weiß." in texts
    assert texts[-1] == ("Die Fahne von Weiß ist gefallen, bevor die vorgeschriebenen Züge ausgeführt waren: "
                         "Schwarz gewinnt."), texts
    english = [r["text"] for r in client.get(url).json()["rulings"]]
    assert any(t.startswith("White's threefold claim is incorrect: the position has appeared once only.")
               for t in english), english
    assert english[-1] == "White's flag fell before the prescribed moves were completed: Black wins."
