"""On the page: what the arbiter enters of what happens over the board (the press, a release, displaced
pieces, scoresheets, signatures, game scores, observations, appeals) reaches the log."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from conftest import needs_chromium
from test_e2e import click_move, new_game, open_seat

pytestmark = needs_chromium


def log_of(server: Any, game_id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in httpx.get(f"{server.url}/api/games/{game_id}/log").text.splitlines()]


def resign_and_sign_a_draw(arbiter: Any) -> None:
    """Black resigns; White, then Black, sign 1/2-1/2 (entered over the board by the arbiter)."""
    arbiter.select_option("#act-for", "black")
    arbiter.click("#tab-claims")
    arbiter.click("#btn-resign")
    arbiter.click("#confirm-yes")
    arbiter.click("#tab-sheet")
    arbiter.wait_for_selector("#arb-sign:not([disabled])")
    arbiter.select_option("#sign-result", "1/2-1/2")
    arbiter.select_option("#sheet-who", "white")
    arbiter.click("#arb-sign")
    # 2023 8.7: a signature with another result than the board's may change it: asked first, naming the player.
    arbiter.wait_for_selector("#confirm[open]")
    assert arbiter.inner_text("#confirm-title").startswith("White") and arbiter.inner_text("#confirm-title").endswith(": Signed")
    assert "with ½-½, not the board's 1-0" in arbiter.inner_text("#confirm-text")
    assert "(Article 8.7)" in arbiter.inner_text("#confirm-text")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#confirm:not([open])", state="attached")
    arbiter.select_option("#sheet-who", "black")
    arbiter.click("#arb-sign")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector('#status[data-result="1/2-1/2"]')


def test_the_arbiter_enters_a_move_made_without_pressing_and_the_press(server: Any, browser: Any) -> None:
    """2023 6.2.1-6.2.2: White plays e4 and does not press; the arbiter's note says so (to him only);
    White presses later and Black's clock starts."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-move")
    arbiter.check("#move-unpressed")
    click_move(arbiter, "e2", "e4")
    arbiter.wait_for_selector("#status:has-text('White has not pressed the clock')")
    assert arbiter.is_visible(".clock.running") and not arbiter.is_checked("#move-unpressed")
    moved = log_of(server, g["id"])[-1]
    assert (moved["type"], moved["by"], moved["press"]) == ("move", "white", False)
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["clocks"]["running"] == "white"
    arbiter.select_option("#act-for", "white")
    arbiter.click("#tab-clock")
    arbiter.click("#btn-press")
    arbiter.wait_for_selector("#status:not(:has-text('has not pressed'))")
    pressed = log_of(server, g["id"])[-1]
    assert (pressed["type"], pressed["by"]) == ("press_clock", "white")
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["clocks"]["running"] == "black"
    arbiter.context.close()


def test_the_arbiter_enters_a_release_and_the_touch_move_claim(server: Any, browser: Any) -> None:
    """2023 4.7: White puts the knight down on f3, then plays Nh3; Black's claim (entered by the
    arbiter for Black) takes Nh3 back."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-move")
    arbiter.fill("#hand-square", "f3")
    arbiter.fill("#hand-from", "g1")
    arbiter.click("#btn-release")
    arbiter.click("#confirm-yes")  # a release binds the player: asked first
    arbiter.wait_for_function("() => document.getElementById('hand-square').value === ''")
    released = log_of(server, g["id"])[-1]
    assert (released["type"], released["by"], released["square"], released["from"]) == ("release", "white", "f3", "g1")
    click_move(arbiter, "g1", "h3")
    arbiter.wait_for_selector("#sheet td:has-text('Nh3')")
    arbiter.select_option("#act-for", "black")
    arbiter.click("#tab-claims")
    arbiter.click("#btn-claim-touch")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings:has-text('released on f3')")
    assert "Nh3" not in arbiter.inner_text("#sheet")
    claim = log_of(server, g["id"])[-1]
    assert (claim["type"], claim["by"]) == ("claim_touch_move", "black")
    arbiter.context.close()


def test_the_arbiter_enters_displaced_pieces_and_their_restoration(server: Any, browser: Any) -> None:
    """2023 7.4.1: White knocks over the c2 and d2 pawns; everyone sees it noted until they are restored."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.select_option("#act-for", "white")
    arbiter.click("#tab-move")
    arbiter.fill("#hand-square", "c2 d2")
    arbiter.click("#btn-displace")
    arbiter.wait_for_selector("#status:has-text('White displaced pieces (c2, d2)')")
    displaced = log_of(server, g["id"])[-1]
    assert (displaced["type"], displaced["by"], displaced["squares"]) == ("displace", "white", ["c2", "d2"])
    arbiter.click("#btn-restore")
    arbiter.wait_for_selector("#status:not(:has-text('displaced pieces'))")
    restored = log_of(server, g["id"])[-1]
    assert (restored["type"], restored["by"]) == ("restore", "white")
    arbiter.context.close()


def test_the_arbiter_notes_a_scoresheet_and_the_signed_result(server: Any, browser: Any) -> None:
    """2023 8.1.1: White's scoresheet is empty after 1.e4 e5 2.Nf3; 8.7: after Black resigns, both
    sign 1/2-1/2 by mistake, and the signed result stands."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    click_move(arbiter, "e2", "e4")
    click_move(arbiter, "e7", "e5")
    click_move(arbiter, "g1", "f3")
    arbiter.wait_for_selector("#sheet td:has-text('Nf3')")
    arbiter.click("#tab-sheet")
    arbiter.select_option("#sheet-who", "white")
    arbiter.fill("#sheet-plies", "0")
    arbiter.click("#arb-sheet-note")
    arbiter.wait_for_selector("#rulings:has-text('scoresheet is 3 moves behind')")
    resign_and_sign_a_draw(arbiter)
    signs = [e for e in log_of(server, g["id"]) if e["type"] == "sign"]
    assert [(e["by"], e["result"]) for e in signs] == [("white", "1/2-1/2"), ("black", "1/2-1/2")]
    arbiter.context.close()


def test_a_quickplay_claim_states_its_grounds(server: Any, browser: Any) -> None:
    """1997 D.1: with no arbiter present, White (100 s left) claims on the ground that Black makes no
    effort to win; the page writes the final position down with the claim. The arbiter who will decide it
    has the game's console open (without one the server refuses a claim nobody could decide)."""
    g = new_game(server, time_control="100", mode="standard", edition="1997", arbiter="absent")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    for _ in range(600):  # the server counts the arbiter's console as watching once its socket is subscribed
        if httpx.get(f"{server.url}/api/games/{g['id']}").json().get("arbiter_watching"):
            break
        arbiter.wait_for_timeout(50)
    else:
        raise AssertionError("the arbiter's console never subscribed to the game")
    white = open_seat(browser, g["links"]["white"])
    white.wait_for_selector("#btn-quickplay:not([disabled])")
    white.select_option("#quickplay-grounds", "no_effort")
    white.click("#btn-quickplay")
    white.click("#confirm-yes")
    white.wait_for_selector("#rulings:has-text('making no effort to win by normal means')")
    claim = log_of(server, g["id"])[-1]
    assert (claim["type"], claim["grounds"]) == ("claim_draw", "no_effort")
    assert claim["final_position"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert "Black verifies it" in white.inner_text("#rulings")
    white.context.close()
    arbiter.context.close()


def test_the_arbiter_enters_both_game_scores(server: Any, browser: Any) -> None:
    """2023 D.2.9: in a game with a visually disabled player the boards differ; the arbiter enters
    both game scores and the ruling names the move up to which they agree."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb", visually_disabled=["black"])
    arbiter = open_seat(browser, g["links"]["arbiter"])
    click_move(arbiter, "e2", "e4")
    click_move(arbiter, "e7", "e5")
    arbiter.wait_for_selector("#sheet td:has-text('e5')")
    arbiter.click("#tab-sheet")
    arbiter.select_option("#sheet-who", "white")
    arbiter.fill("#score-moves", "1. e4 e5")
    arbiter.click("#arb-game-score")
    deadline = time.monotonic() + 30  # the first score is in the log before the second is entered
    while not any(e["type"] == "game_score" for e in log_of(server, g["id"])):
        assert time.monotonic() < deadline, "White's game score never reached the log"
        time.sleep(0.05)
    arbiter.select_option("#sheet-who", "black")
    arbiter.fill("#score-moves", "1.e4 d5")
    arbiter.click("#arb-game-score")
    arbiter.wait_for_selector("#rulings:has-text('agree up to 1. e4')")
    scores = [e for e in log_of(server, g["id"]) if e["type"] == "game_score"]
    assert [(e["by"], e["moves"]) for e in scores] == [("white", ["e4", "e5"]), ("black", ["e4", "d5"])]
    arbiter.context.close()


def test_an_occasional_arbiter_observes_an_illegal_move_and_a_flag(server: Any, browser: Any) -> None:
    """An arbiter who watches the board now and then ("arbiter": "occasional"), standard play: 2.Ke3
    (illegal, typed in coordinates) stands until he sees it after Black's reply, and is then taken
    back with the reply (2023 7.5.1); White's clock set to 0 leaves the game on until he sees the
    flag down (6.8)."""
    g = new_game(server, time_control="40/5400", edition="2023", interface="otb", arbiter="occasional")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    click_move(arbiter, "e2", "e4")
    click_move(arbiter, "e7", "e5")
    arbiter.wait_for_selector("#sheet td:has-text('e5')")
    arbiter.fill("#move-input", "e1e3")
    arbiter.press("#move-input", "Enter")
    arbiter.click("#confirm-yes")  # an illegal move has consequences: asked first
    arbiter.wait_for_selector("#sheet td:has-text('e1-e3')")
    click_move(arbiter, "b8", "c6")
    arbiter.wait_for_selector("#sheet td:has-text('Nc6')")
    arbiter.click("#tab-move")
    arbiter.click("#arb-observe-illegal")
    arbiter.click("#confirm-yes")  # the position reinstated and a penalty: asked first
    arbiter.wait_for_selector("#rulings:has-text('later moves being taken back')")
    assert "Nc6" not in arbiter.inner_text("#sheet")
    observed = log_of(server, g["id"])[-1]
    assert (observed["type"], observed["what"]) == ("observe", "illegal_move")
    arbiter.click("#tab-clock")
    arbiter.fill("#arb-w", "0:00")
    arbiter.fill("#arb-b", "80:00")
    arbiter.click("#arb-set")
    arbiter.click("#confirm-yes")  # a clock set to 0:00: asked about explicitly
    arbiter.wait_for_selector("#arb-period:not([hidden])")  # a flag down, in a period with moves
    assert arbiter.get_attribute("#status", "data-status") == "ongoing"
    arbiter.click("#arb-observe-flag")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector('#status[data-result="0-1"]')
    arbiter.context.close()


def test_the_arbiter_rules_the_next_move_the_first_of_the_next_period(server: Any, browser: Any) -> None:
    """2023 8.6: a flag down, the scoresheets cannot show the control passed: the next move is the first
    of the following period, and the flagged player has its 30 minutes."""
    g = new_game(server, time_control="40/5400:1800", edition="2023", interface="otb", arbiter="occasional")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-clock")
    arbiter.fill("#arb-w", "0:00")
    arbiter.fill("#arb-b", "80:00")
    arbiter.click("#arb-set")
    arbiter.click("#confirm-yes")
    arbiter.click("#arb-next-period")
    arbiter.click("#confirm-yes")  # the flagged player receives the next period's time: asked first
    arbiter.wait_for_selector("#rulings:has-text('first of the following time period')")
    decided = log_of(server, g["id"])[-1]
    assert (decided["type"], decided["on"], decided["ruling"]) == ("decision", "period", "next_period")
    white_ms = httpx.get(f"{server.url}/api/games/{g['id']}").json()["clocks"]["white_ms"]
    assert 1_700_000 < white_ms <= 1_800_000
    arbiter.context.close()


def test_the_arbiter_shows_the_scoresheet_and_decides_the_signed_result(server: Any, browser: Any) -> None:
    """2023 rapid under full supervision: White asks to be shown the scoresheet (A.4.3, 1 of 5). Black
    resigns, both sign 1/2-1/2 by mistake (8.7), and the arbiter decides otherwise: 1-0."""
    g = new_game(server, time_control="900+10", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-sheet")
    arbiter.select_option("#sheet-who", "white")
    arbiter.click("#arb-request-sheet")
    arbiter.wait_for_selector("#rulings:has-text('1 of the 5')")
    asked = log_of(server, g["id"])[-1]
    assert (asked["type"], asked["by"]) == ("request_scoresheet", "white")
    resign_and_sign_a_draw(arbiter)
    arbiter.select_option("#result-decided", "white_wins")
    arbiter.click("#arb-decide-result")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector('#status[data-result="1-0"]')
    decided = log_of(server, g["id"])[-1]
    assert (decided["type"], decided["on"], decided["ruling"]) == ("decision", "result", "white_wins")
    arbiter.context.close()


def test_the_arbiter_enters_a_slip_of_the_tongue_corrected_and_the_assistants_press(server: Any, browser: Any) -> None:
    """2023 D.2.8: the visually disabled White puts his knight on f3 but announces "Nc3", without
    pressing; he corrects the announcement, and his assistant presses the clock (D.2.10.3)."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb", visually_disabled=["white"],
                 assistant=["white"])
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-move")
    arbiter.check("#move-unpressed")
    arbiter.fill("#move-announced", "Nc3")
    click_move(arbiter, "g1", "f3")
    arbiter.wait_for_selector("#status:has-text('White has not pressed the clock')")
    moved = log_of(server, g["id"])[-1]
    assert (moved["move"], moved["announced"], moved["press"]) == ("g1f3", "Nc3", False)
    arbiter.wait_for_selector("#status:has-text('announcement differs from his move')")
    arbiter.click("#tab-sheet")
    arbiter.select_option("#sheet-who", "white")
    arbiter.fill("#announce-move", "Nf3")
    arbiter.click("#arb-announce")
    arbiter.wait_for_selector("#rulings:has-text('corrects his announcement')")
    arbiter.click("#tab-move")
    arbiter.check("#by-assistant")
    arbiter.select_option("#act-for", "white")
    arbiter.click("#tab-clock")
    arbiter.click("#btn-press")
    arbiter.wait_for_selector("#status:not(:has-text('has not pressed'))")
    pressed = log_of(server, g["id"])[-1]
    assert (pressed["type"], pressed["by"], pressed["assistant"]) == ("press_clock", "white", True)
    assert "Nf3" in arbiter.inner_text("#sheet")
    arbiter.click("#tab-sheet")
    arbiter.click("#arb-request-count")  # D.2.10.4: White asks his assistant the moves and the times
    arbiter.wait_for_selector("#rulings:has-text('his assistant informs him')")
    asked = log_of(server, g["id"])[-1]
    assert (asked["type"], asked["by"], asked["kind"]) == ("request_scoresheet", "white", "moves_and_times")
    arbiter.context.close()


def test_the_arbiter_enters_an_explanation_an_appeal_and_its_decision(server: Any, browser: Any) -> None:
    """2023 11.9-11.10: Black resigns and both sign 1/2-1/2 (8.7: ruling 2, the signed result stands).
    Black asks the arbiter to explain 8.7, then appeals against ruling 2; the appeal is accepted and
    gives the game 1-0."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    assert arbiter.is_hidden("#appeal-decision-box")
    resign_and_sign_a_draw(arbiter)
    arbiter.wait_for_selector("#rulings li:has-text('2.')")
    arbiter.click("#tab-appeals")
    arbiter.select_option("#recourse-who", "black")
    arbiter.fill("#explain-about", "the signed result")
    arbiter.click("#arb-explain")
    arbiter.wait_for_selector("#rulings:has-text('has the right to request from the arbiter')")
    explained = log_of(server, g["id"])[-1]
    assert (explained["type"], explained["by"], explained["about"]) == ("request_explanation", "black", "the signed result")
    arbiter.fill("#appeal-ruling", "2")
    arbiter.click("#arb-appeal")
    arbiter.wait_for_selector("#appeal-decision-box:not([hidden])")
    appealed = log_of(server, g["id"])[-1]
    assert (appealed["type"], appealed["by"], appealed["ruling"]) == ("appeal", "black", 2)
    arbiter.select_option("#appeal-result", "1-0")
    arbiter.click("#arb-appeal-accept")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector('#status[data-result="1-0"]')
    decided = log_of(server, g["id"])[-1]
    assert (decided["type"], decided["ruling"], decided["result"]) == ("appeal_decision", "accept", "1-0")
    arbiter.wait_for_selector("#appeal-decision-box[hidden]", state="attached")
    arbiter.context.close()
