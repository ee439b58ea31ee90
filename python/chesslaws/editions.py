"""The three editions of the Laws of Chess, as data.

Each :class:`Edition` holds the numbers an edition fixes, which rules it
applies automatically and which only on a claim, and the article to cite for
every ruling. The arbiter (:mod:`chesslaws.game`) reads these values; it does
not test the edition's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, Mapping

from chesslaws.errors import InvalidInput

EditionName = Literal["1989", "1997", "2023"]
Mode = Literal["standard", "rapid", "blitz"]

#: How a flag fall can end in a draw instead of a loss.
FlagDrawRule = Literal["bare_king", "cannot_mate"]
#: How an incorrect draw claim is penalised.
ClaimPenalty = Literal["add_used_time", "halve_and_give", "give"]
#: What happens when both flags have fallen and nobody can say which fell first.
BothFlags = Literal["continue", "draw"]
#: What an illegal move costs beyond its correction: nothing (1989 8.1), time to the opponent in the
#: quickplay finish and the third loses (1997 10.3), time to the opponent and the second loses (2023 7.5.5).
IllegalMovePenalty = Literal["none", "quickplay_finish", "every_move"]
#: A game begun with colours reversed: it continues once a quarter of the first control's time has elapsed,
#: earlier the arbiter may arrange a new game (1989 8.6); it continues unless the arbiter rules otherwise
#: (1997 7.2); a new game while fewer than ten moves have been made by both players, then it continues (2023 7.3).
ColoursReversed = Literal["quarter_time", "arbiter", "ten_moves"]


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of the Laws: its numbers, its automatic rules, its articles."""

    name: EditionName
    title: str
    articles: Mapping[str, str]
    # End of game
    insufficient_material_list: bool  # 1989 Article 10.4: a fixed list of drawn endings
    dead_position: bool  # 1997 9.6, 2023 5.2.2: no mate by any series of legal moves
    fivefold_repetition: bool  # 2023 9.6.1
    seventyfive_moves: bool  # 2023 9.6.2
    flag_draw: FlagDrawRule
    resign_draw_when_opponent_cannot_mate: bool  # 2023 5.1.2
    # Both flags: standard play / quickplay finish or rapid or blitz
    both_flags_standard: BothFlags
    both_flags_quickplay: BothFlags
    # Claims
    claim_penalty: ClaimPenalty
    claim_penalty_ms: int  # 1989: used time added; 1997: max deducted and given; 2023: given (standard)
    claim_penalty_fast_ms: int  # 2023 rapid and blitz
    fifty_move_limit_announceable: bool  # 1989 10.12
    fifty_claim_with_move: bool  # 1997 9.3(b), 2023 9.3.1: claim with the move written down
    draw_offer_rejected_by_touch: bool  # 2023 9.1.2.1 (earlier: by a move)
    # Time
    default_time_ms: int  # late arrival beyond this loses
    flags_only_on_claim_in_rapid: bool  # 1997 B.6 (and blitz through C.2)
    # Rules one edition has and the others lack (False: the rule does not exist there)
    bare_king_cannot_win: bool = False  # 1989 10.5: of any win, a resignation included
    mating_potential_in_blitz: bool = False  # 1997 C.4: of any win in blitz, a resignation included
    castle_when_king_then_rook: bool = False  # 2023 4.4.1 (1997 4.3(a): any king move)
    chess960: bool = False  # 2023 Guidelines II (the earlier Laws have no Chess960)
    claim_right_lost_by_touch: bool = False  # 2023 9.4 (1989 10.11, 1997 9.4: by a move)
    claim_is_draw_offer: bool = False  # 2023 9.1.2.3
    agreement_needs_both_moved: bool = False  # 2023 5.2.3
    unreplaced_promotion_is_queen: bool = False  # 2023 7.5.2 (earlier: an illegal move, reinstated)
    rapid_rulings_on_request: bool = False  # 1997 B.5: Articles 5 and 10 only when a player asks
    # 2023 5.1.1, 5.2.1, 5.2.2: a checkmate, stalemate or dead position ends the game "provided that the move
    # producing it was in accordance with Article 3 and Articles 4.2-4.7" (1997 5.1(a), 5.2, 9.6 and 1989 10.1,
    # 10.3, 10.4: it ends the game whatever the hand did)
    end_needs_article_4: bool = False
    sealed_conclusion_stands: bool = False  # 2023 I.10: a late player loses, but a game the sealed move ended stays so
    # Pressing the clock (1989 6 and 12.3, 1997 1.1 and 6.7(a), 2023 1.3 and 6.2.1-6.2.2)
    has_move_once_made: bool = True  # 1997 1.1: only once the opponent's move is completed (pressed)
    illegal_completed_by_press: tuple[Mode, ...] = ()  # 2023 7.5.1 (every mode), 1997 C.3 (blitz)
    opponent_restarts_for_displaced: bool = False  # 1997 7.3
    # The scoresheet (1989 11, 1997 8, 2023 8)
    scoresheet_exemption_ignores_increment: bool = False  # 1989 11.2 (1997 / 2023 8.4: not with 30 s or more)
    record_in_advance_allowed: bool = False  # 1989 11.1: "or vice versa"
    record_in_advance_forbidden: bool = False  # 2023 8.1.2
    refusal_to_record_is_refusal: bool = False  # 1989 11.4 (-> 10.17)
    signed_result_stands: bool = False  # 2023 8.7
    set_clocks_limits: bool = False  # 1989 12.4 and 12.6: five minutes and a minute a move to the control
    displaced_pause_and_call: bool = False  # 2023 7.4.2: the clock paused, the arbiter called
    promotion_choice_on_touch: bool = False  # 2023 4.4.4 (earlier: with the move, 1997 4.7, 1989 6)
    # The quickplay-finish claim (1997 Article 10 and Appendix D, 2023 Guidelines III; 1989 has none).
    # Neither edition that has it admits it in blitz (1997 C.5, 2023 III.2.2).
    quickplay_finish: bool = False  # 1997 10.2, 2023 III.5: the claim exists
    quickplay_only_if_announced: bool = False  # 2023 III.2.1: only where the event announced the Guidelines
    quickplay_without_increment_only: bool = False  # 2023 III.2.2 (a delay counted with an increment)
    quickplay_claimant_has_move: bool = False  # 2023 III.5: "the player having the move" (1997 10.2: "the player")
    quickplay_reject_gives_ms: int = 0  # 2023 III.5.3: a rejection gives the opponent two minutes (1997 10.2: none)
    quickplay_increment_request: bool = False  # 2023 III.4: under two minutes, ask for an increment for both
    # Illegal moves and acts penalised as one
    illegal_move_penalty: IllegalMovePenalty = "none"
    illegal_move_stands_in_blitz: bool = False  # 1997 C.3: the opponent may claim a win before his move; then it stands
    press_without_move_is_illegal: bool = False  # 2023 7.5.3 (1997 6.13, 1989 12.5: the clock restarted, no penalty)
    two_hands_is_illegal: bool = False  # 2023 7.5.4 (1997 4.1: one hand; any penalty is the arbiter's)
    annul_when_not_reinstatable: bool = False  # 1989 8.1, 8.2 (1997 7.4: from the last identifiable position)
    colours_reversed: ColoursReversed = "arbiter"
    # Rapid and blitz
    partial_supervision: bool = False  # 2023 A.5 (rapid), B.3 (blitz): rules for an arbiter of several games at once
    # No claim on the set-up once each player has made this many moves (0: no such limit): 1997 B.4 (three, in
    # rapid and, by C.2, blitz), 2023 A.5.1.2 (ten, where the arbiter supervises several games: A.5, B.3).
    setup_claim_moves: int = 0
    scoresheet_on_request_in_fast_play: bool = False  # 2023 A.2: the arbiter provides one (1997 B.3: no more said)
    # The arbiter and the players
    moves_told_after_flag: bool = False  # 1997 13.6, 2023 12.6: the number of moves, in applying 8.5 (1989 12.9: never)
    explanation_on_request: bool = False  # 2023 11.9: a player may ask the arbiter to explain a point of the Laws
    appeal: bool = False  # 2023 11.10 (1997 13.3, 1989 16.3: the arbiter enforces his decisions; no appeal)
    loss_penalty_scores_opponent: bool = False  # 2023 12.9.6, 11.7: the arbiter also decides the opponent's score
    device_loses: bool = False  # 2023 11.3.2.2: a device on the player loses, unless the regulations say less
    visually_disabled_rules: bool = False  # 2023 Appendix D
    assistant_at_board: bool = False  # 2023 8.1.6, D.2.10-D.2.11: an assistant who records the moves

    def article(self, rule: str) -> str:
        """The article of this edition for ``rule`` (a key of :attr:`articles`)."""
        try:
            return self.articles[rule]
        except KeyError:
            raise KeyError(f"the {self.name} Laws have no article for {rule!r}") from None


_ARTICLES_1989 = {
    # What the log says beyond the moves: the regulations, a wrong set-up, claims out of turn, procedures.
    "adjourned_claim": "8.1",
    "touch_claim_right": "7",  # the right to claim a touch-move breach, lost by touching a piece
    "reconstruction": "11.7",
    "proportional_times": "12.6",
    "rules_of_play": "1-7",
    "touch_move": "7",
    "castling_touch": "7",
    "castling_rook_first": "7",
    "press_without_move": "12.5",
    "move_not_pressed": "12.3",
    "reply_before_press": "6",
    "late_press": "12.3",
    "release": "6",
    "first_flag": "12.8",
    "record_first": "11.1",
    "set_clocks_limit": "12.4",
    # An arbiter who observes some things; the next control; requests; the result.
    "observed_flag": "12.2",
    "observed_illegal": "8.1",
    "next_period": "11.9",
    "scoresheet_request": "12.9",
    "scoresheet_blank": "11.1",
    "result_decided": "16.1",
    "explanation": "16.1",
    "appeal": "16.3",
    "appeal_decision": "16.3",
    "scoresheet_update": "11.2",
    "scoresheet_exempt": "11.2",
    "scoresheet_required": "11.4",
    "displaced": "8.3",
    "release_castling": "6",
    "release_promotion": "6",
    "illegal_move": "8.1",
    "checkmate": "10.1",
    "resignation": "10.2",
    "stalemate": "10.3",
    "insufficient_material": "10.4",
    "bare_king": "10.5",
    "agreement": "10.6",
    "draw_offer": "10.7",
    "draw_offer_early": "10.9",
    "draw_offer_rejected": "10.7",
    "adjourned_draw_or_resign": "14.2",
    "threefold": "10.10",
    "claim_right": "10.11",
    "claim_right_lost": "10.11",
    "fifty": "10.12",
    "claim_correct": "10.13(a)",
    "claim_incorrect": "10.13(b)",
    "flag": "10.14",
    "flag_draw": "10.5",
    "flag_observed": "12.2",
    "both_flags": "12.8",
    "both_flags_quickplay": "12.8",
    "late_arrival": "10.15",
    "refusal": "10.17",
    "refusal_both": "10.17",
    "clock_start": "12.3",
    "interruption": "12.5",
    "annoyance": "15.1(d)",
    "summon_arbiter": "12.5",
    "set_clocks": "12.4",
    "penalty": "15.2",
    "penalty_warning": "16.5",
    "penalty_add_time": "16.5",
    "penalty_reduce_time": "16.5",
    "penalty_loss": "16.5",
    "penalty_expulsion": "16.5",
    "conduct_device": "15.1(a)",
    "conduct_leave_area": "16.4",
    "conduct_annoy": "15.1(d)",
    "conduct_information": "15.1(a)",
    "reinstate": "8.2",
    "adjudication": "16.4",  # the arbiter acts in the best interest of the competition
    "scoring": "17",
    "wrong_initial_position": "8.5",
    "board_placed_wrongly": "8.7",
    "colours_reversed": "8.6",
    "adjournment": "13.1",
    "envelope": "13.2",
    "resumption": "14.1",
    "envelope_opened": "14.2",
    "sealer_absent": "14.4",
    "envelope_lost": "14.5",
    "sealed_move_invalid": "10.16",
}

_ARTICLES_1997 = {
    # What the log says beyond the moves: the regulations, a wrong set-up, claims out of turn, procedures.
    "adjourned_claim": "7.4",
    "touch_claim_right": "4.6",  # the right to claim a touch-move breach, lost by touching a piece
    "reconstruction": "8.5",
    "proportional_times": "6.13",
    "display_claim": "6.14",
    "leave_area": "12.4",
    "rules_of_play": "3",
    "touch_move": "4.3",
    "castling_touch": "4.4",
    "castling_rook_first": "4.4(a)",
    "one_hand": "4.1",
    "press_without_move": "6.13",
    "move_not_pressed": "6.7(a)",
    "reply_before_press": "1.1",
    "touch_before_completion": "1.1",
    "late_press": "6.7(a)",
    "release": "4.7",
    "release_castling": "4.7",
    "displaced": "7.3",
    # An arbiter who observes some things; the next period; requests; the result.
    "observed_flag": "6.8",
    "observed_flag_rapid": "B.6",
    "observed_illegal": "7.4",
    "observed_illegal_blitz": "C.3",
    "observed_illegal_rapid": "B.5",
    "next_period": "8.6",
    "scoresheet_request": "13.6",
    "scoresheet_blank": "8.1",
    "scoresheet_blank_fast": "B.3",
    "result_decided": "13.1",
    "explanation": "13.1",
    "appeal": "13.3",
    "appeal_decision": "13.3",
    "first_flag": "6.11",
    "scoresheet_update": "8.4",
    "quickplay_grounds": "10.2",
    "quickplay_grounds_absent": "D.1",
    "scoresheet_exempt": "8.4",
    "scoresheet_required": "8.1",
    "displaced_restart": "7.3",
    "release_promotion": "4.7",
    "illegal_not_completed": "C.3",
    "illegal_move": "7.4",
    "checkmate": "5.1(a)",
    "resignation": "5.1(b)",
    "stalemate": "5.2",
    "agreement": "5.3",
    "draw_offer": "9.1",
    "draw_offer_early": "9.1",
    "draw_offer_rejected": "9.1",
    "threefold": "9.2",
    "claim_right": "9.4",
    "claim_right_lost": "9.4",
    "fifty": "9.3",
    "claim_correct": "9.5(a)",
    "claim_incorrect": "9.5(b)",
    "dead_position": "9.6",
    "flag": "6.9",
    "flag_draw": "6.9",
    "flag_observed": "6.8",
    "both_flags": "6.11",
    "both_flags_quickplay": "10.4",
    "both_flags_rapid": "B.8",
    "quickplay": "10.2",
    "quickplay_postpone": "10.2(b)",
    "quickplay_phase": "10.1",
    "quickplay_blitz": "C.5",
    "rapid_on_request": "B.5",
    "quickplay_no_arbiter": "D.1",
    "illegal_move_blitz": "C.3",
    "mating_potential": "C.4",
    "setup_claim": "B.4",
    "wrong_initial_position": "7.1(a)",
    "board_placed_wrongly": "7.1(b)",
    "colours_reversed": "7.2",
    "flag_claim_rapid": "B.7",
    "late_arrival": "6.6",
    "refusal": "12.7",
    "refusal_both": "12.8",
    "clock_start": "6.5",
    "interruption": "6.12",
    "annoyance": "12.5",
    "summon_arbiter": "6.12(b)",
    "set_clocks": "6.13",
    "penalty": "13.4",
    "penalty_warning": "13.4(a)",
    "penalty_add_time": "13.4(b)",
    "penalty_reduce_time": "13.4(c)",
    "penalty_loss": "13.4(d)",
    "penalty_expulsion": "13.4(e)",
    "conduct_device": "12.2",
    "conduct_leave_area": "12.4",
    "conduct_annoy": "12.5",
    "conduct_information": "12.2",
    "reinstate": "7.4",
    "adjudication": "13.2",  # the arbiter acts in the best interest of the competition
    "scoring": "11.1",
    "adjournment": "A.1",
    "envelope": "A.2",
    "resumption": "A.5",
    "envelope_opened": "A.9",
    "sealer_absent": "A.9(c)",
    "envelope_lost": "A.11",
    "sealed_move_invalid": "A.8",
    "adjourned_draw_or_resign": "A.6",
}

_ARTICLES_2023 = {
    # What the log says beyond the moves: the regulations, a wrong set-up, claims out of turn, procedures.
    "adjourned_claim": "7.5.1",
    "touch_claim_right": "4.8",  # the right to claim a touch-move breach, lost by touching a piece
    "reconstruction": "8.5.3",
    "proportional_times": "7.1",
    "display_claim": "6.12.2",
    "leave_area": "11.2.3.2",
    "report_leaving": "11.2.4",
    "draw_regulations": "9.1.1",
    "clock_setting_fixed": "A.5.1.1",
    "incorrect_setup_castling": "A.5.1.2",
    "rules_of_play": "3",
    "touch_move": "4.3",
    "castling_touch": "4.4.1",
    "castling_rook_first": "4.4.2",
    "claim_touch_move_lost": "4.8",
    "chess960_start": "II.2",
    "chess960_castling": "II.3.2",
    "chess960_castling_touch": "II.3.2.4",
    "two_hands": "7.5.4",
    "press_without_move": "7.5.3",
    "move_not_pressed": "6.2.1",
    "reply_before_press": "1.3",
    "late_press": "6.2.2",
    "release": "4.7",
    "release_castling": "4.7.2",
    "displaced": "7.4.1",
    "first_flag": "III.3.1",
    "record_in_advance": "8.1.2",
    "quickplay_grounds": "III.5",
    "quickplay_grounds_absent": "III.6.1",
    "game_scores": "D.2.9",
    "scoresheet_update": "8.5.2",
    "scoresheet_exempt": "8.4",
    "scoresheet_required": "8.1.1",
    "signed_result": "8.7",
    # An arbiter who observes some things; the next period; requests; the result; Appendix D.
    "observed_flag": "6.8",
    "observed_flag_rapid": "A.5.5",
    "observed_illegal": "7.5.1",
    "observed_illegal_rapid": "A.5.2",
    "observed_illegal_position": "A.5.4",
    "next_period": "8.6",
    "scoresheet_request": "12.6",
    "scoresheet_request_rapid": "A.4.3",
    "scoresheet_request_blitz": "B.2.3",
    "scoresheet_blank": "8.1.1",
    "scoresheet_blank_fast": "A.2",
    "result_decided": "8.7",
    "explanation": "11.9",
    "appeal": "11.10",
    "appeal_decision": "11.10",
    "assistant_informs": "D.2.10.4",
    "slip_corrected": "D.2.8",
    "assistant_sighted": "D.2.11",
    "assistant_recording": "8.1.6",
    "release_promotion": "4.7.3",
    "promotion_choice": "4.4.4",
    "illegal_not_completed": "7.5.1",
    "illegal_move": "7.5.1",
    "unreplaced_promotion": "7.5.2",
    "illegal_move_penalty": "7.5.5",
    "checkmate": "5.1.1",
    "resignation": "5.1.2",
    "stalemate": "5.2.1",
    "dead_position": "5.2.2",
    "agreement": "5.2.3",
    "draw_offer": "9.1.2.1",
    "draw_offer_early": "9.1.2.1",
    "draw_offer_rejected": "9.1.2.1",
    "claim_is_offer": "9.1.2.3",
    "threefold": "9.2",
    "claim_right": "9.4",
    "claim_right_lost": "9.4",
    "fifty": "9.3",
    "claim_correct": "9.5.2",
    "claim_incorrect": "9.5.3",
    "penalty_fast": "A.3",
    "fivefold": "9.6.1",
    "seventyfive": "9.6.2",
    "flag": "6.9",
    "flag_draw": "6.9",
    "flag_observed": "6.8",
    "both_flags": "III.3.1.1",
    "both_flags_quickplay": "III.3.1.2",
    "both_flags_last_period": "III.3.1.2",
    "both_flags_earlier_period": "III.3.1.1",
    "quickplay": "III.5",
    "quickplay_draw": "III.5.1",
    "quickplay_postpone": "III.5.2",
    "quickplay_reject": "III.5.3",
    "quickplay_no_arbiter": "III.6.1",
    "quickplay_phase": "III.1",
    "quickplay_scope": "III.2.2",
    "quickplay_announced": "III.2.1",
    "increment_request": "III.4",
    "late_arrival": "6.7.1",
    "refusal": "11.7",
    "refusal_both": "11.8",
    "clock_start": "6.6",
    "interruption": "6.11.1",
    "annoyance": "11.5",
    "summon_arbiter": "6.11.2",
    "set_clocks": "6.10.2",
    "penalty": "12.9",
    "penalty_warning": "12.9.1",
    "penalty_add_time": "12.9.2",
    "penalty_reduce_time": "12.9.3",
    "penalty_opponent_points": "12.9.4",
    "penalty_reduce_points": "12.9.5",
    "penalty_loss": "12.9.6",
    "penalty_fine": "12.9.7",
    "penalty_exclusion": "12.9.8",
    "penalty_expulsion": "12.9.9",
    "conduct_device": "11.3.2.2",
    "conduct_leave_area": "11.2.3.2",
    "conduct_annoy": "11.5",
    "conduct_information": "11.3.1",
    "conduct_inspection": "11.3.3",
    "reinstate": "7.6",
    "announcement": "D.2.8",
    "boards_differ": "D.2.9",
    "adjudication": "12.2.2",  # the arbiter acts in the best interest of the competition
    "scoring": "10.1",
    "score_maximum": "10.2",
    "wrong_initial_position": "7.2.1",
    "setup_claim": "A.5.1.2",
    "illegal_position": "A.5.4",
    "illegal_move_observed": "A.5.2",
    "board_placed_wrongly": "7.2.2",
    "colours_reversed": "7.3",
    "adjournment": "I.1.1",
    "envelope": "I.2",
    "resumption": "I.5",
    "envelope_opened": "I.7",
    "sealer_absent": "I.9.3",
    "envelope_lost": "I.12.1",
    "sealed_move_invalid": "I.8",
    "late_resumption": "I.10",
    "adjourned_draw_or_resign": "I.6",
}

EDITIONS: Mapping[str, Edition] = MappingProxyType(
    {
        "1989": Edition(
            name="1989",
            title="FIDE Laws of Chess, 1 January 1989",
            articles=MappingProxyType(_ARTICLES_1989),
            insufficient_material_list=True,
            dead_position=False,
            fivefold_repetition=False,
            seventyfive_moves=False,
            flag_draw="bare_king",
            resign_draw_when_opponent_cannot_mate=False,
            both_flags_standard="continue",
            both_flags_quickplay="continue",
            claim_penalty="add_used_time",
            claim_penalty_ms=5 * 60_000,
            claim_penalty_fast_ms=5 * 60_000,
            fifty_move_limit_announceable=True,
            fifty_claim_with_move=False,
            draw_offer_rejected_by_touch=False,
            default_time_ms=3_600_000,
            flags_only_on_claim_in_rapid=False,
            bare_king_cannot_win=True,
            scoresheet_exemption_ignores_increment=True,
            record_in_advance_allowed=True,
            refusal_to_record_is_refusal=True,
            set_clocks_limits=True,
            annul_when_not_reinstatable=True,
            colours_reversed="quarter_time",
        ),
        "1997": Edition(
            name="1997",
            title="FIDE Laws of Chess, 1 July 1997",
            articles=MappingProxyType(_ARTICLES_1997),
            insufficient_material_list=False,
            dead_position=True,
            fivefold_repetition=False,
            seventyfive_moves=False,
            flag_draw="cannot_mate",
            resign_draw_when_opponent_cannot_mate=False,
            both_flags_standard="continue",
            both_flags_quickplay="draw",
            claim_penalty="halve_and_give",
            claim_penalty_ms=3 * 60_000,
            claim_penalty_fast_ms=3 * 60_000,
            fifty_move_limit_announceable=False,
            fifty_claim_with_move=True,
            draw_offer_rejected_by_touch=False,
            default_time_ms=3_600_000,
            flags_only_on_claim_in_rapid=True,
            rapid_rulings_on_request=True,
            mating_potential_in_blitz=True,
            has_move_once_made=False,
            opponent_restarts_for_displaced=True,
            illegal_completed_by_press=("blitz",),
            quickplay_finish=True,
            illegal_move_penalty="quickplay_finish",
            illegal_move_stands_in_blitz=True,
            colours_reversed="arbiter",
            setup_claim_moves=3,
            moves_told_after_flag=True,
        ),
        "2023": Edition(
            name="2023",
            title="FIDE Laws of Chess, 1 January 2023",
            articles=MappingProxyType(_ARTICLES_2023),
            insufficient_material_list=False,
            dead_position=True,
            fivefold_repetition=True,
            seventyfive_moves=True,
            flag_draw="cannot_mate",
            resign_draw_when_opponent_cannot_mate=True,
            both_flags_standard="continue",
            both_flags_quickplay="draw",
            claim_penalty="give",
            claim_penalty_ms=2 * 60_000,
            claim_penalty_fast_ms=1 * 60_000,
            fifty_move_limit_announceable=False,
            fifty_claim_with_move=True,
            draw_offer_rejected_by_touch=True,
            default_time_ms=0,
            flags_only_on_claim_in_rapid=False,
            castle_when_king_then_rook=True,
            chess960=True,
            illegal_completed_by_press=("standard", "rapid", "blitz"),
            promotion_choice_on_touch=True,
            displaced_pause_and_call=True,
            record_in_advance_forbidden=True,
            signed_result_stands=True,
            claim_right_lost_by_touch=True,
            claim_is_draw_offer=True,
            agreement_needs_both_moved=True,
            unreplaced_promotion_is_queen=True,
            sealed_conclusion_stands=True,
            end_needs_article_4=True,
            quickplay_finish=True,
            quickplay_only_if_announced=True,
            quickplay_without_increment_only=True,
            quickplay_claimant_has_move=True,
            quickplay_reject_gives_ms=2 * 60_000,
            quickplay_increment_request=True,
            illegal_move_penalty="every_move",
            press_without_move_is_illegal=True,
            two_hands_is_illegal=True,
            colours_reversed="ten_moves",
            partial_supervision=True,
            setup_claim_moves=10,
            scoresheet_on_request_in_fast_play=True,
            moves_told_after_flag=True,
            explanation_on_request=True,
            appeal=True,
            loss_penalty_scores_opponent=True,
            device_loses=True,
            visually_disabled_rules=True,
            assistant_at_board=True,
        ),
    }
)


def get_edition(name: str) -> Edition:
    """The edition called ``name`` ("1989", "1997" or "2023")."""
    try:
        return EDITIONS[str(name)]
    except KeyError:
        raise InvalidInput(
            f"unknown edition {name!r}: choose one of {', '.join(EDITIONS)}"
        ) from None


__all__ = [
    "EDITIONS", "BothFlags", "ClaimPenalty", "ColoursReversed", "Edition", "EditionName", "FlagDrawRule",
    "IllegalMovePenalty", "Mode", "get_edition",
]
