"""Every 2023 article number chesslaws cites exists in the 2023 text.

The 2023 Laws are not in ``shared/laws``; ``tests/data/laws2023-articles.tsv``
lists their paragraphs (number, first words), read from the text. A number
cited from memory that the text does not have -- a ruling's article, a
docstring, a comment, the log format's documentation -- fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import chesslaws.game
from chesslaws.editions import EDITIONS

ROOT = Path(__file__).resolve().parents[2]
TSV = ROOT / "tests" / "data" / "laws2023-articles.tsv"
PACKAGE = ROOT / "python" / "chesslaws"

#: An article number as the 2023 Laws write it: 9.1.2.1, A.5.1.2, D.2.9, I.12.1, III.3.1.2.
NUMBER = r"(?:III|II|I|[A-D])\.\d+(?:\.\d+)*|\d+\.\d+(?:\.\d+)*"


def paragraphs() -> dict[str, str]:
    out: dict[str, str] = {}
    for n, line in enumerate(TSV.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        number, sep, words = line.partition("\t")
        assert sep and words.strip(), f"{TSV.name} line {n}: 'number<TAB>first words', not {line!r}"
        assert re.fullmatch(NUMBER, number), f"{TSV.name} line {n}: {number!r} is no article number"
        assert number not in out, f"{TSV.name} line {n}: {number} twice"
        out[number] = words
    return out


PARAGRAPHS = paragraphs()


def exists(number: str) -> bool:
    """A paragraph of the 2023 text, or a part that holds some (Article 3, 6.11, Guidelines III.2)."""
    return number in PARAGRAPHS or any(p.startswith(number + ".") for p in PARAGRAPHS)


def test_the_list_reads_like_the_2023_text() -> None:
    """The parts are all there, in the text's order, each number under an existing parent."""
    numbers = list(PARAGRAPHS)
    assert len(numbers) > 250
    for part in [*(str(a) for a in range(1, 13)), "A", "B", "C", "D", "I", "II", "III"]:
        assert any(n.split(".")[0] == part for n in numbers), f"2023 {part} is missing"
    for n in numbers:
        parent = n.rsplit(".", 1)[0]
        if parent.count(".") >= 1 and parent not in PARAGRAPHS:
            # A paragraph without its own text, like 6.11 (only 6.11.1-6.11.4): its siblings carry it.
            assert any(m.startswith(parent + ".") for m in numbers if m != n), n
    # Spot checks of the numbers that were once cited wrongly from memory.
    assert PARAGRAPHS["6.11.2"].startswith("A player may pause the chessclock")
    assert PARAGRAPHS["6.12.1"].startswith("Screens, monitors")
    assert PARAGRAPHS["7.2.2"].startswith("If during a game it is found that the chessboard")
    assert PARAGRAPHS["7.3"].startswith("If a game has started with colours reversed")
    assert PARAGRAPHS["11.3.3"].startswith("The arbiter may require the player")
    assert PARAGRAPHS["A.3"].startswith("The penalties mentioned in Articles 7 and 9")
    assert PARAGRAPHS["D.2.8"].startswith("A slip of the tongue")
    assert PARAGRAPHS["I.12.1"].startswith("If the envelope containing the sealed move is missing")
    assert not exists("6.13") and not exists("9.7") and not exists("12.10") and not exists("I.1.9")
    assert exists("3") and exists("6.11") and exists("III.2")


#: For each rule of chesslaws, words its 2023 paragraph begins with (or holds): a number that exists
#: but says something else (6.12.2 cited for pausing the clock: it is about screens) fails too.
SAYS = {
    "rules_of_play": None, "touch_move": "touches", "castling_touch": "king and a rook", "castling_rook_first": "touches a rook and then",
    "claim_touch_move_lost": "forfeits his/her right to claim",
    "two_hands": "two hands",
    "press_without_move": "presses the clock without making a move", "illegal_move": "illegal move is completed",
    "unreplaced_promotion": "not replaced the pawn", "illegal_move_penalty": "first completed illegal move",
    "checkmate": "checkmated", "resignation": "resigns", "stalemate": "no legal move",
    "dead_position": "neither player can checkmate", "agreement": "agreement", "draw_offer": "offer a draw",
    "draw_offer_early": "offer a draw", "draw_offer_rejected": "offer a draw",
    "claim_is_offer": "considered to be an offer of a draw", "threefold": "third time", "claim_right": "right to claim",
    "claim_right_lost": "right to claim", "fifty": "upon a correct claim", "claim_correct": "found to be correct",
    "claim_incorrect": "found to be incorrect", "fivefold": "five times", "seventyfive": "75 moves",
    "flag": "prescribed number of moves", "flag_draw": "prescribed number of moves",
    "flag_observed": "flag is considered to have fallen", "both_flags": "shall continue",
    "both_flags_quickplay": "is drawn", "both_flags_last_period": "is drawn",
    "both_flags_earlier_period": "shall continue", "quickplay": "claim a draw before",
    "quickplay_phase": "quickplay finish", "quickplay_scope": "without increment",
    "quickplay_announced": "announced", "increment_request": "request that an increment",
    "late_arrival": "default time", "refusal": "Persistent refusal", "refusal_both": "both players are found guilty",
    "clock_start": "White's clock is started", "interruption": "interrupted", "annoyance": "distract or annoy",
    "summon_arbiter": "seek the arbiter's assistance", "set_clocks": "setting of either or both clocks",
    "penalty": "penalties", "penalty_warning": "warning", "penalty_add_time": "increasing the remaining time",
    "penalty_reduce_time": "reducing the remaining time", "penalty_opponent_points": "increasing the points",
    "penalty_reduce_points": "reducing the points", "penalty_loss": "declaring the game to be lost",
    "penalty_fine": "fine", "penalty_exclusion": "exclusion", "penalty_expulsion": "expulsion",
    "conduct_device": "such a device", "conduct_leave_area": "leave the playing area", "conduct_annoy": "annoy",
    "conduct_information": "notes, sources of information", "conduct_inspection": "inspected",
    "reinstate": "displaced", "announcement": "slip of the tongue", "boards_differ": "two boards",
    "adjudication": "best interest of the competition", "scoring": "scores one point", "penalty_fast": "The penalties mentioned in Articles 7 and 9", "score_maximum": "The total score of any game can never",
    "wrong_initial_position": "initial position", "setup_claim": "No claim can be made regarding incorrect set-up",
    "illegal_position": "both kings are in",
    "illegal_move_observed": "If the arbiter observes an action taken under",
    "chess960_start": "Starting Position Requirements", "chess960_castling": "How to castle",
    "chess960_castling_touch": "rook-move-only castling",
    "board_placed_wrongly": "chessboard has been placed", "adjournment": "'seal'",
    "envelope": "indicated upon the envelope", "resumption": "Before the game is to be resumed",
    "envelope_opened": "envelope shall be opened", "sealer_absent": "player who sealed the move is not present",
    "envelope_lost": "envelope containing the sealed move is missing", "sealed_move_invalid": "sealed move",
    "adjourned_draw_or_resign": "prior to the resumption", "colours_reversed": "colours reversed",
    "quickplay_draw": "shall declare the game drawn", "quickplay_postpone": "postpones",
    "quickplay_reject": "rejected the claim", "quickplay_no_arbiter": "claim a draw when",
    "move_not_pressed": "having made his/her",
    "late_press": "allowed to pause", "reply_before_press": "have the move",
    "illegal_not_completed": "illegal move is completed", "release": "as a legal move or part of",
    "release_castling": "Castling, when", "release_promotion": "Promotion, when", "promotion_choice": "promotes a pawn",
    "displaced": "displaces one or more pieces", "first_flag": "both flags have fallen",
    "record_in_advance": "forbidden to record", "scoresheet_update": "has not kept score",
    "scoresheet_exempt": "less than five minutes", "scoresheet_required": "each player is",
    "signed_result": "At the conclusion of the game", "quickplay_grounds": "may claim a draw before",
    "quickplay_grounds_absent": "may claim a draw when", "game_scores": "two boards", "late_resumption": "arrives at the chessboard after the default time",
    "observed_flag": "flag is considered to have fallen", "observed_flag_rapid": "call a flag fall",
    "observed_illegal": "illegal move is completed", "observed_illegal_rapid": "If the arbiter observes an action",
    "observed_illegal_position": "both kings are in", "next_period": "scoresheets cannot be brought up",
    "scoresheet_request": "must not intervene", "scoresheet_request_rapid": "The player may at any time, when it",
    "scoresheet_request_blitz": "The player may at any time, when it", "scoresheet_blank": "each player is",
    "scoresheet_blank_fast": "Players do not need to record", "result_decided": "At the conclusion of the game",
    "assistant_recording": "If a player is unable to keep score", "slip_corrected": "slip of the tongue",
    "assistant_sighted": "does not make",
    "explanation": "the right to request", "appeal": "a player may appeal", "appeal_decision": "a player may appeal",
    "assistant_informs": "only at his/her request",
    "adjourned_claim": "illegal move is completed", "reconstruction": "no complete scoresheet",
    "proportional_times": "If an irregularity occurs", "display_claim": "may not make a claim relying only",
    "leave_area": "leave the playing area", "report_leaving": "must report",
    "draw_regulations": "cannot offer or agree", "clock_setting_fixed": "No change can be made to the clock",
    "incorrect_setup_castling": "No claim can be made regarding incorrect set-up",
    "touch_claim_right": "forfeits his/her right to claim",
}


@pytest.mark.parametrize("rule", sorted(EDITIONS["2023"].articles))
def test_every_2023_rule_cites_the_article_of_the_text_that_makes_it(rule: str) -> None:
    article = EDITIONS["2023"].article(rule)
    assert exists(article), f"editions.py: 2023 {rule!r} cites {article}, which the 2023 text does not have"
    assert rule in SAYS, f"add to SAYS the words of the 2023 paragraph for the new rule {rule!r}"
    words = SAYS[rule]
    if words is not None:
        assert words in PARAGRAPHS[article], f"2023 {rule!r} cites {article}: {PARAGRAPHS[article]!r}"


def cited_after_2023(text: str) -> list[str]:
    """The numbers a text cites as 2023's: "2023 9.4", "2023 Guidelines III.4", "2023: 1.1, 1.2 (...), 4.4.1"."""
    found: list[str] = []
    # Lists in the module docstrings: "- 2023: ..." up to the next edition's line or a blank line.
    for block in re.findall(r"^- 2023:(.*?)(?=^- \d{4}:|^\s*$|\Z)", text, re.M | re.S):
        found += re.findall(rf"(?<![\w.])({NUMBER})(?![\w])", re.sub(r"\([^)]*\)", "", block))
    # Inline citations: "2023 12.9.6", "2023 Guidelines III.4", "2023 Appendix D.2.2", "2023 A.5.2 / B.3".
    for m in re.finditer(rf"2023(?:\)|'s)? (?:Laws'? )?(?:Guidelines |Appendix |Article |\()?({NUMBER})"
                         rf"((?:(?:, | / |-| and | with )(?:{NUMBER}))*)", text):
        found.append(m.group(1))
        found += re.findall(NUMBER, m.group(2))
    return found


def test_2023_citations_in_the_code_and_the_log_format_exist() -> None:
    files = sorted(PACKAGE.rglob("*.py")) + [ROOT / "docs" / "game-log.md"]
    wrong = []
    for file in files:
        for number in cited_after_2023(file.read_text(encoding="utf-8")):
            if not exists(number):
                wrong.append(f"{file.relative_to(ROOT)}: 2023 {number}")
    assert not wrong, wrong


def test_the_scanner_finds_citations() -> None:
    """The test above would catch a wrong number in each of the forms the code uses."""
    assert cited_after_2023("2023 6.12.2: pause") == ["6.12.2"]
    assert cited_after_2023("(1997 6.12(b), 2023 6.12.2)") == ["6.12.2"]
    assert cited_after_2023("the 2023 Laws' (12.9.6, 11.7)") == ["12.9.6", "11.7"]
    assert cited_after_2023("2023 A.4.2 / B.3.2: the opponent") == ["A.4.2", "B.3.2"]
    assert cited_after_2023("- 2023: 6.7 (the default), 6.11 (both flags), I.1.10\n  (late).\n") == ["6.7", "6.11",
                                                                                                       "I.1.10"]
    doc = chesslaws.game.flags.__doc__ or ""
    assert "6.11.2" in cited_after_2023(doc) and "III.3.1.2" in cited_after_2023(doc)
