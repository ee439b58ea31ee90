"""The article-by-article audit of chesslaws, as data.

Every article and appendix paragraph of the three editions -> the code that
applies it and the tests that show it, or why software has nothing to do
there. ``python docs/laws_coverage.py`` writes ``docs/laws-coverage.md`` from
this table; ``tests/arbiter/test_laws_coverage.py`` checks that every code
reference names a real function or attribute, every test reference a real
test, that every paragraph of the 1989 and 1997 texts in ``shared/laws`` and of
the 2023 text (``tests/data/laws2023-articles.tsv``) has a row, and that the page
is the one this table makes.

A code reference is ``module:name`` inside the ``chesslaws`` package
(``game.moving:_on_touch``, ``editions:Edition.castle_when_king_then_rook``); a
test reference is ``path::test_name`` under ``tests/``. Short aliases below
keep the rows readable.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Row:
    edition: str
    article: str  # one paragraph, or a run of them: "11.1-11.9"
    subject: str
    code: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    why: str = ""  # what software has to do there, when it has nothing
    log: str = ""  # can what the article is about be written in the game log? (see LOG below)


# --- short names for the references ---------------------------------------------------------
FID = "arbiter/test_fidelity.py::"
IRR = "arbiter/test_irregularities.py::"
CLM = "arbiter/test_claims.py::"
OFF = "arbiter/test_draw_offers.py::"
END = "arbiter/test_end_of_game.py::"
FLG = "arbiter/test_flags.py::"
ADJ = "arbiter/test_adjournment.py::"
CON = "arbiter/test_conduct.py::"
ILL = "arbiter/test_illegal_moves.py::"
SCO = "arbiter/test_scoring.py::"
D23 = "arbiter/test_2023_appendix_d_and_guidelines_i.py::"
API = "arbiter/test_state_api.py::"
CLI = "arbiter/test_replay_cli.py::"
POS = "test_position.py::"
PERFT = "test_perft.py::"
CLK = "test_clock.py::"
C960 = "test_chess960.py::"
C960A = "arbiter/test_chess960_arbiter.py::"
TC = "test_timecontrol.py::"
DEAD = "test_dead.py::"
REC = "test_records.py::"
SHEET = "test_scoresheet.py::"
NOT = "test_notation.py::"

MOVES = ("position:Position.legal_moves", "position:Position.play")
MOVES_T = (PERFT + "test_chessprogramming_positions", PERFT + "test_special_rules_suite")
CASTLE_T = (POS + "test_castling_moves", POS + "test_castling_rights_follow_the_moves")
TOUCH = ("game.moving:allowed_by_touch", "game.moving:_on_touch", "game.moving:_on_claim_touch_move")
PENALTY = ("game.conduct:_apply_penalty", "game.conduct:PENALTY_RULES")
VENUE = "the playing venue and its equipment are the organiser's; chesslaws sees only the events of the game"
PEOPLE = "the arbiter's duties towards people; chesslaws records his decisions as events (penalty, decision)"
SCORESHEET = ("records:game_to_pgn", "scoresheet:render_scoresheet")


def r(edition: str, article: str, subject: str, code: tuple[str, ...] | str = (), tests: tuple[str, ...] | str = (),
      why: str = "") -> Row:
    c = (code,) if isinstance(code, str) else code
    t = (tests,) if isinstance(tests, str) else tests
    return Row(edition, article, subject, tuple(c), tuple(t), why)


ROWS: list[Row] = [
    # ===================================================================== 1989
    r("1989", "1", "the chessboard; 1.2 its placement", ("game.irregularities:_on_claim_setup",), FID + "test_wrong_set_up_found_during_the_game"),
    r("1989", "2", "the pieces and the initial position", ("position:STARTING_FEN", "game.handlers:initial_state"), (API + "test_start_defaults", POS + "test_start_position")),
    r("1989", "3", "the right to move: White first, then alternately", ("game.moving:_on_move",), API + "test_error_names_the_event_and_the_reason"),
    r("1989", "4", "the move in general; check", MOVES, MOVES_T),
    r("1989", "5", "the moves of the pieces, castling, en passant, promotion", MOVES, MOVES_T + CASTLE_T),
    r("1989", "6", "the completion of a move", ("game.played:_after_move",), API + "test_moves_in_uci_are_recorded_in_san"),
    r("1989", "7", "the touched piece (the 1997 text's Article 4 rules, as the 1989 text's own references say)", TOUCH,
      (FID + "test_rook_then_king", FID + "test_touched_opponent_pawn_that_only_en_passant_can_take", IRR + "test_touch_move_claim_lost_once_the_claimant_touches_a_piece")),
    r("1989", "8.1", "an illegal move: the position before it is reinstated; Article 7 applies to the move replacing it", ("game.irregularities:_illegal_consequence", "game.irregularities:_on_illegal_move", "game.irregularities:_replacing_move_bound", "editions:Edition.annul_when_not_reinstatable"),
      (ILL + "test_1989_illegal_move_is_reinstated_without_penalty", FID + "test_pawn_to_the_last_rank_not_replaced", "arbiter/test_fidelity_rulings.py::test_replacing_move_is_made_with_the_piece_touched_first")),
    r("1989", "8.2", "pieces displaced and wrongly replaced: reinstated", ("game.irregularities:_on_reinstate",), CON + "test_arbiter_reinstates_the_last_identifiable_position"),
    r("1989", "8.3", "pieces knocked over: re-established on the player's own time", (), (),
      "the clock of the player who knocked them over simply keeps running; no event changes anything"),
    r("1989", "8.4", "an adjourned position set up wrongly: set up again", ("game.adjournment:_on_resume",), ADJ + "test_resumption_opens_the_envelope_when_the_replier_arrives"),
    r("1989", "8.5", "wrong initial position: the game is annulled", ("game.irregularities:_on_claim_setup", "game.irregularities:_annulment_rule"), (FID + "test_wrong_set_up_found_during_the_game", IRR + "test_annulment", "arbiter/test_fidelity_rulings.py::test_an_annulment_cites_the_article_that_annuls")),
    r("1989", "8.6", "colours reversed: the game continues after a quarter of the time", ("game.irregularities:_on_annul", "game.irregularities:_annulment_rule", "editions:Edition.colours_reversed"), (IRR + "test_annulment", "arbiter/test_fidelity_rulings.py::test_an_annulment_cites_the_article_that_annuls")),
    r("1989", "8.7", "board placed wrongly: transferred to a correct board", ("game.irregularities:_on_claim_setup",), FID + "test_wrong_set_up_found_during_the_game"),
    r("1989", "9.1-9.3", "check: parried at once; declaring it is not obligatory", ("position:Position.is_check", "position:Position.legal_moves"), (POS + "test_check_checkmate_stalemate",) + MOVES_T),
    r("1989", "10.1", "checkmate wins", ("game.completion:_end_checks_after_move",), END + "test_fools_mate_ends_the_game_at_once"),
    r("1989", "10.2", "resignation", ("game.completion:_on_resign",), END + "test_resignation"),
    r("1989", "10.3", "stalemate", ("game.completion:_end_checks_after_move",), END + "test_stalemate_is_an_immediate_draw"),
    r("1989", "10.4", "the drawn endings: K-K, K-K+B/N, K+B-K+B on one colour", ("game.completion:_article_10_4", "editions:Edition.insufficient_material_list"),
      (END + "test_king_against_king_is_drawn_automatically", END + "test_1989_same_coloured_bishops_are_drawn", END + "test_1989_opposite_coloured_bishops_play_on")),
    r("1989", "10.5", "a bare king cannot win: any win, a resignation included", ("game.state:_Builder.end", "game.state:_bare_king", "editions:Edition.bare_king_cannot_win"),
      (END + "test_resigning_against_a_lone_king", FID + "test_refusal_to_comply_against_a_bare_king", FLG + "test_flag_against_a_lone_king_is_a_draw",
       "test_judgement.py::test_a_win_by_a_bare_king_is_judged_alike")),
    r("1989", "10.6", "draw by agreement", ("game.draws:_on_accept",), (OFF + "test_offer_accepted_is_a_draw_by_agreement", OFF + "test_agreement_before_any_move")),
    r("1989", "10.7", "the offer with a move; rejected orally or by a move", ("game.draws:_on_offer", "game.played:_after_move", "game.draws:_on_decline"), (OFF + "test_offer_declined_cannot_then_be_accepted", OFF + "test_offer_answered_by_a_move_then_accepted_is_an_error")),
    r("1989", "10.8", "an offer on the opponent's time is valid", ("game.draws:_on_offer",), (OFF + "test_offer_on_the_opponents_time_is_valid", FID + "test_offer_made_with_an_illegal_move_survives_the_reinstatement")),
    r("1989", "10.9", "an offer on one's own time: the answer may wait for the move", ("game.played:_after_move", "game.irregularities:_offer_survives"), OFF + "test_offer_before_ones_own_move_stays_valid_through_that_move"),
    r("1989", "10.10", "threefold repetition, claimed", ("game.draws:_on_claim_draw",), (CLM + "test_threefold_has_just_appeared", CLM + "test_threefold_is_about_to_appear_with_the_move_written")),
    r("1989", "10.11", "the right to claim lost by a move, restored when the position recurs", ("game.draws:_on_claim_draw",),
      (CLM + "test_threefold_claim_by_the_player_not_to_move_is_refused", CLM + "test_right_lost_by_moving_and_regained_when_the_position_recurs")),
    r("1989", "10.12", "fifty moves, claimed; a longer limit where announced", ("game.draws:_on_claim_draw", "editions:Edition.fifty_move_limit_announceable"),
      (CLM + "test_fifty_moves_have_been_made", CLM + "test_1989_announced_longer_limit", CLM + "test_1989_fifty_move_claim_has_no_written_move_variant")),
    r("1989", "10.13", "the claim: clocks stopped; incorrect adds five minutes used", ("game.draws:_claim_penalty",),
      (CLM + "test_1989_incorrect_claim_adds_five_minutes_used", CLM + "test_1989_incorrect_claim_that_oversteps_the_limit_loses")),
    r("1989", "10.14", "flag fall loses, unless the opponent has only the king", ("game.flags:_flag_outcome",), (FLG + "test_flag_against_a_lone_king_is_a_draw", FLG + "test_flag_with_full_material_loses")),
    r("1989", "10.15", "more than an hour late loses; the sealer's exceptions", ("game.flags:_late_arrival", "game.flags:observe"),
      (IRR + "test_late_arrival_at_3601_seconds_loses", ADJ + "test_absent_sealer_whose_sealed_move_mates_wins")),
    r("1989", "10.16", "an invalid sealed move loses", ("game.adjournment:_open_envelope",), (ADJ + "test_illegal_sealed_move_loses", ADJ + "test_ambiguous_sealed_move_loses")),
    r("1989", "10.17", "refusal to comply loses; both refuse or both late: both lose", ("game.conduct:_on_refuse", "game.flags:_late_arrival"),
      (SCO + "test_both_refusing_to_comply_both_lose", IRR + "test_1989_both_late_both_lose")),
    r("1989", "11.1-11.9", "recording the moves; the last five minutes; reconstruction", SCORESHEET,
      (SHEET + "test_moves_in_numbered_rows_with_draw_offers", REC + "test_export_then_import_gives_the_same_game"),
      ""),
    r("1989", "12.1", "periods; saved time carries over", ("clock:Clock.press", "timecontrol:TimeControl.period_index"), (CLK + "test_move_counter_and_period_across_controls", FLG + "test_flag_in_the_second_period_with_time_carried_over")),
    r("1989", "12.2", "the flag falls when the arbiter observes it, or on a claim without him", ("game.flags:observe", "game.flags:_on_claim_flag"),
      (FLG + "test_the_game_is_still_on_a_millisecond_before_the_flag", FLG + "test_without_arbiter_the_flag_counts_only_when_claimed")),
    r("1989", "12.3", "White's clock starts; each player presses after his move", ("game.handlers:initial_state", "clock:Clock.press"), CLK + "test_scenario"),
    r("1989", "12.4", "a defective clock: the arbiter sets the new one", ("game.flags:_on_set_clocks",), IRR + "test_stop_set_and_start_clocks"),
    r("1989", "12.5", "interruptions: the arbiter stops the clocks (and restarts a clock pressed without a move)", ("game.flags:_on_stop_clocks", "game.flags:_on_start_clocks", "game.irregularities:_on_press_clock"),
      (IRR + "test_stop_set_and_start_clocks", FID + "test_pressing_the_clock_without_a_move")),
    r("1989", "12.6", "times after an irregularity, proportionally", ("game.irregularities:_on_reinstate", "game.flags:_on_set_clocks"), CON + "test_arbiter_reinstates_the_last_identifiable_position"),
    r("1989", "12.7", "a resignation or agreement stands though a flag had fallen", ("game.draws:_on_accept",), OFF + "test_agreement_stands_though_a_flag_had_fallen_unclaimed"),
    r("1989", "12.8", "both flags fallen: the game continues", ("game.flags:_on_claim_flag",), FLG + "test_both_flags_1989_the_game_continues"),
    r("1989", "12.9", "nobody points out a move or a forgotten clock", (), (), "a rule of silence for people: software that says nothing keeps it"),
    r("1989", "13.1", "sealing the move; adjourning early costs the session", ("game.adjournment:_on_seal",), (ADJ + "test_sealing_stops_the_clocks_and_keeps_the_envelope_secret", ADJ + "test_adjourning_before_the_end_of_the_session_costs_the_rest_of_it")),
    r("1989", "13.2", "what the envelope shows", ("game.state:Envelope.public",), ADJ + "test_sealing_stops_the_clocks_and_keeps_the_envelope_secret"),
    r("1989", "13.3", "the arbiter keeps the envelope", ("game.state:Envelope.public",), ADJ + "test_sealing_stops_the_clocks_and_keeps_the_envelope_secret"),
    r("1989", "14.1", "resumption: position and times set up", ("game.adjournment:_on_resume",), ADJ + "test_resumption_opens_the_envelope_when_the_replier_arrives"),
    r("1989", "14.2", "opened when the replier is present; agreement or resignation before", ("game.adjournment:_on_arrive", "game.adjournment:_open_envelope"), (ADJ + "test_draw_agreed_before_resumption", ADJ + "test_resignation_before_resumption")),
    r("1989", "14.3", "the replier absent: his clock runs", ("game.adjournment:_on_resume",), ADJ + "test_resumption_opens_the_envelope_when_the_replier_arrives"),
    r("1989", "14.4", "the sealer absent: the reply is sealed", ("game.adjournment:_on_seal",), ADJ + "test_absent_sealer_the_replier_seals_his_reply"),
    r("1989", "14.5", "a lost envelope", ("game.adjournment:_on_envelope_lost",), ADJ + "test_a_lost_envelope_resumes_from_the_adjourned_position"),
    r("1989", "14.6", "clock times wrongly shown at resumption: corrected", ("game.flags:_on_set_clocks", "game.adjournment:_on_resume"), IRR + "test_stop_set_and_start_clocks"),
    r("1989", "14.7", "the session controlled by the wall clock", ("game.adjournment:_on_seal",), ADJ + "test_adjourning_before_the_end_of_the_session_costs_the_rest_of_it"),
    r("1989", "15.1", "prohibitions: notes, advice, analysis, annoying the opponent", ("game.conduct:_on_conduct",),
      (CON + "test_sources_of_information_are_penalised_at_the_arbiters_choice", CON + "test_annoying_the_opponent_can_cost_the_game")),
    r("1989", "15.2", "penalties for them, up to the loss of the game", PENALTY, CON + "test_annoying_the_opponent_can_cost_the_game"),
    r("1989", "16.1-16.3", "the arbiter sees that the Laws are kept, supervises, enforces", (), (), PEOPLE),
    r("1989", "16.4", "a good playing environment", ("game.conduct:_on_conduct",), CON + "test_leaving_the_playing_area_having_the_move"),
    r("1989", "16.5", "penalties: warning, time, loss", PENALTY, (IRR + "test_warning_loss_and_expulsion", CON + "test_the_earlier_laws_have_no_such_penalties")),
    r("1989", "17", "scoring: 1, 1/2, 0", ("game.state:Outcome.score",), (SCO + "test_a_draw_scores_a_half_each", SCO + "test_score_sum_is_one_for_every_decided_game")),
    # ===================================================================== 1997
    r("1997", "1.1", "two players, moving alternately", ("game.moving:_on_move",), API + "test_error_names_the_event_and_the_reason"),
    r("1997", "1.2", "the objective: checkmate", ("game.completion:_end_checks_after_move",), END + "test_fools_mate_ends_the_game_at_once"),
    r("1997", "1.3", "neither player can mate: drawn", ("mating:is_dead", "game.completion:_end_checks_after_move"), (DEAD + "test_constructed", END + "test_bishops_after_1989_dead_only_on_one_colour")),
    r("1997", "2.1", "the board and its placement", ("game.irregularities:_on_claim_setup",), FID + "test_wrong_set_up_found_during_the_game"),
    r("1997", "2.2-2.4", "the pieces, the initial position, files, ranks, diagonals", ("position:STARTING_FEN",), POS + "test_start_position"),
    r("1997", "3.1-3.4", "the moves of the pieces, en passant, promotion", MOVES, MOVES_T),
    r("1997", "3.5", "the king, castling, check", MOVES, MOVES_T + CASTLE_T),
    r("1997", "4.1", "one hand only: a move with two hands stands, the penalty is the arbiter's", ("game.irregularities:_two_hands",), FID + "test_a_move_made_with_two_hands"),
    r("1997", "4.2", "adjusting after j'adoube", ("game.moving:_on_adjust",), IRR + "test_only_the_player_having_the_move_touches"),
    r("1997", "4.3", "touch-move: the first piece touched; one of each colour (en passant included)", TOUCH,
      (FID + "test_touched_opponent_pawn_that_only_en_passant_can_take", FID + "test_own_pawn_and_opponent_pawn_touched_oblige_en_passant", IRR + "test_touching_one_piece_of_each_colour_obliges_the_capture")),
    r("1997", "4.4", "rook then king: no castling there; castling illegal: another king move", ("game.moving:allowed_by_touch",),
      (FID + "test_rook_then_king", FID + "test_king_then_rook_then_another_king_move", FID + "test_king_then_rook_when_castling_with_it_is_illegal", FID + "test_king_then_rook_when_the_king_cannot_move_leaves_the_player_free")),
    r("1997", "4.5", "no touched piece can move: any move", ("game.moving:allowed_by_touch",), (IRR + "test_touched_piece_that_cannot_move_leaves_the_player_free", FID + "test_en_passant_no_longer_possible_leaves_the_player_free")),
    r("1997", "4.6", "the claim is lost once the claimant touches a piece", ("game.moving:_on_touch",), IRR + "test_touch_move_claim_lost_once_the_claimant_touches_a_piece"),
    r("1997", "4.7", "a piece released: the move cannot change", ("game.moving:_on_move",), API + "test_moves_in_uci_are_recorded_in_san"),
    r("1997", "5.1", "checkmate; resignation", ("game.completion:_end_checks_after_move", "game.completion:_on_resign"), (END + "test_fools_mate_ends_the_game_at_once", END + "test_resigning_against_a_lone_king")),
    r("1997", "5.2", "stalemate", ("game.completion:_end_checks_after_move",), END + "test_stalemate_is_an_immediate_draw"),
    r("1997", "5.3", "agreement", ("game.draws:_on_accept",), (OFF + "test_offer_accepted_is_a_draw_by_agreement", OFF + "test_agreement_after_whites_first_move_only")),
    r("1997", "5.4-5.5", "repetition and fifty moves may draw (Article 9)", ("game.draws:_on_claim_draw",), CLM + "test_threefold_has_just_appeared"),
    r("1997", "6.1-6.2", "the chess clock; periods, increments, delay", ("clock:Clock", "timecontrol:TimeControl"), (CLK + "test_scenario", TC + "test_parse", CLK + "test_simple_delay_flag")),
    r("1997", "6.3", "after a flag, the scoresheet is checked", (), (), "the number of moves is known exactly from the log: nothing to reconstruct"),
    r("1997", "6.4", "the arbiter places the clock", (), (), VENUE),
    r("1997", "6.5", "White's clock starts at the start time", ("game.handlers:initial_state",), CLI + "test_at_an_instant_runs_the_clock_on"),
    r("1997", "6.6", "more than an hour late loses", ("game.flags:_late_arrival",), (IRR + "test_late_arrival_at_3599_seconds_plays_on", IRR + "test_late_arrival_at_3601_seconds_loses")),
    r("1997", "6.7", "pressing the clock; the move completed; handling the clock", ("clock:Clock.press", "game.played:_after_move"), (CLK + "test_scenario", CON + "test_leaving_the_playing_area_having_the_move")),
    r("1997", "6.8", "the flag falls when the arbiter observes it or on a claim", ("game.flags:observe", "game.flags:_on_claim_flag"), (FLG + "test_without_arbiter_the_flag_counts_only_when_claimed", FLG + "test_claim_flag_before_it_has_fallen_changes_nothing")),
    r("1997", "6.9", "the flag loses, unless no series of legal moves mates", ("game.flags:_flag_outcome", "mating:can_mate"), (FLG + "test_flag_against_king_and_knight", FLG + "test_flag_against_king_and_knight_when_a_pawn_can_block")),
    r("1997", "6.10", "a defective clock replaced", ("game.flags:_on_set_clocks",), IRR + "test_stop_set_and_start_clocks"),
    r("1997", "6.11", "both flags: the game continues", ("game.flags:_on_claim_flag",), FLG + "test_both_flags_1997_standard_before_the_last_period_continue"),
    r("1997", "6.12", "interruptions", ("game.flags:_on_stop_clocks", "game.flags:_on_start_clocks"), IRR + "test_stop_set_and_start_clocks"),
    r("1997", "6.13", "the times after an irregularity (the clock pressed without a move included)", ("game.irregularities:_reinstate", "game.irregularities:_on_reinstate", "game.irregularities:_on_press_clock"),
      (CON + "test_arbiter_reinstates_the_last_identifiable_position", FID + "test_pressing_the_clock_without_a_move")),
    r("1997", "6.14", "screens and demonstration boards: no claim on them", (), (), VENUE),
    r("1997", "7.1", "wrong initial position: cancelled; board placed wrongly: transferred", ("game.irregularities:_on_claim_setup",), FID + "test_wrong_set_up_found_during_the_game"),
    r("1997", "7.2", "colours reversed: the game continues, unless the arbiter rules otherwise (annul)", ("game.irregularities:_colours_reversed", "game.irregularities:_annulment_rule"), ("arbiter/test_laws2023_rulings.py::test_earlier_editions_play_on_unless_the_arbiter_annuls", "arbiter/test_fidelity_rulings.py::test_an_annulment_cites_the_article_that_annuls")),
    r("1997", "7.3", "displaced pieces re-established on the player's own time", (), (), "the offender's clock keeps running: no event is needed"),
    r("1997", "7.4", "illegal move or displaced pieces: the position before is reinstated; 4.3 applies to the replacing move (the first piece touched)", ("game.irregularities:_illegal_consequence", "game.irregularities:_on_reinstate", "game.irregularities:_replacing_move_bound"),
      (IRR + "test_1997_standard_phase_illegal_move_is_only_reinstated", CON + "test_arbiter_reinstates_the_last_identifiable_position", IRR + "test_illegal_move_binds_the_replacement_to_the_piece_moved", "arbiter/test_fidelity_rulings.py::test_replacing_move_is_made_with_the_piece_touched_first")),
    r("1997", "8.1-8.3", "recording the moves and the draw offers (=)", SCORESHEET, (SHEET + "test_moves_in_numbered_rows_with_draw_offers", REC + "test_draw_offer_marked")),
    r("1997", "8.4", "no recording needed under five minutes without 30 s increment", ("timecontrol:recording_exempt",), TC + "test_recording_exempt"),
    r("1997", "8.5-8.6", "updating the scoresheets after a flag", (), (), "the log records every move: the scoresheet is always complete"),
    r("1997", "9.1", "draw offers: made, noted, valid until answered; one made with an illegal move survives it", ("game.draws:_on_offer", "game.irregularities:_offer_survives"),
      (OFF + "test_counter_offer_does_not_withdraw_the_first_offer", FID + "test_offer_made_with_an_illegal_move_survives_the_reinstatement", FID + "test_offer_with_an_illegal_move_survives_the_claim_without_an_arbiter")),
    r("1997", "9.2", "threefold repetition, claimed, with the move written or just appeared", ("game.draws:_on_claim_draw", "position:Position.zobrist"),
      (CLM + "test_threefold_is_about_to_appear_with_the_move_written", CLM + "test_threefold_not_when_en_passant_was_possible_the_first_time", CLM + "test_threefold_not_when_castling_rights_were_lost_between")),
    r("1997", "9.3", "fifty moves, claimed", ("game.draws:_on_claim_draw",), (CLM + "test_fifty_moves_have_been_made", CLM + "test_fifty_moves_about_to_be_made")),
    r("1997", "9.4", "a move made without claiming loses the right to claim on it (a touch does not)", ("game.draws:_on_claim_draw",),
      (CLM + "test_threefold_claim_by_the_player_not_to_move_is_refused", FID + "test_touching_a_piece_then_claiming_threefold")),
    r("1997", "9.5", "the claim stops the clocks; incorrect: half up to three minutes, three to the opponent; the move played", ("game.draws:_claim_penalty",),
      (CLM + "test_1997_incorrect_claim_halves_up_to_three_minutes_and_gives_three", CLM + "test_intended_move_is_played_after_an_incorrect_claim")),
    r("1997", "9.6", "dead position: drawn at once", ("mating:is_dead", "game.completion:_end_checks_after_move"), (DEAD + "test_agrees_with_chasolver_published_positions", END + "test_bishops_after_1989_dead_only_on_one_colour")),
    r("1997", "10.1", "the quickplay finish: all the remaining moves in a limited time", ("game.draws:_in_quickplay_finish",), (FID + "test_1997_claim_in_the_first_period_is_not_admitted", IRR + "test_1997_quickplay_finish_three_illegal_moves_lose")),
    r("1997", "10.2", "the claim with under two minutes (the player, having the move or not): draw, postpone, reject", ("game.draws:_on_quickplay_claim", "game.draws:_on_decision"),
      (IRR + "test_quickplay_claim_postponed_then_granted_after_a_flag_fall", IRR + "test_quickplay_claim_needs_less_than_two_minutes", FID + "test_1997_claim_in_the_quickplay_finish_awaits_the_arbiter",
       "arbiter/test_fidelity_rulings.py::test_quickplay_claim_on_the_opponents_time", "arbiter/test_fidelity_rulings.py::test_1997_quickplay_claim_on_the_opponents_time_upheld")),
    r("1997", "10.3", "illegal moves in the quickplay finish: two minutes, two minutes, loss", ("game.irregularities:_illegal_consequence", "editions:Edition.illegal_move_penalty"), (IRR + "test_1997_quickplay_finish_three_illegal_moves_lose", IRR + "test_1997_quickplay_illegal_move_rulings_cite_article_7_4_and_give_time")),
    r("1997", "10.4", "both flags in the quickplay finish: drawn", ("game.flags:_on_claim_flag",), FLG + "test_both_flags_1997_quickplay_finish_is_a_draw"),
    r("1997", "11.1", "scoring", ("game.state:Outcome.score",), SCO + "test_a_draw_scores_a_half_each"),
    r("1997", "12.1", "etiquette", (), (), PEOPLE),
    r("1997", "12.2", "notes, sources of information, advice", ("game.conduct:_on_conduct",), CON + "test_sources_of_information_are_penalised_at_the_arbiters_choice"),
    r("1997", "12.3", "no analysis in the playing room", (), (), VENUE),
    r("1997", "12.4", "leaving the venue; the player having the move leaving the playing area", ("game.conduct:_on_conduct",), CON + "test_leaving_the_playing_area_having_the_move"),
    r("1997", "12.5", "distracting or annoying the opponent", ("game.conduct:_on_conduct",), CON + "test_annoying_the_opponent_can_cost_the_game"),
    r("1997", "12.6", "infractions of 12.2-12.5 penalised under 13.4", ("game.conduct:_on_conduct", "game.conduct:_apply_penalty"), CON + "test_leaving_the_playing_area_having_the_move"),
    r("1997", "12.7-12.8", "persistent refusal to comply loses; both: both lose", ("game.conduct:_on_refuse",), (SCO + "test_one_player_refusing_to_comply_loses", SCO + "test_both_refusing_to_comply_both_lose")),
    r("1997", "13.1-13.3", "the arbiter's role", (), (), PEOPLE),
    r("1997", "13.4", "penalties (a)-(e)", PENALTY, (IRR + "test_time_penalties_show_in_the_clocks", IRR + "test_warning_loss_and_expulsion", CON + "test_the_earlier_laws_have_no_such_penalties")),
    r("1997", "13.5", "additional time for an external disturbance", ("game.flags:_on_set_clocks",), IRR + "test_stop_set_and_start_clocks"),
    r("1997", "13.6", "the arbiter does not tell the number of moves", (), (), "a rule of silence for people"),
    r("1997", "13.7", "spectators", (), (), VENUE),
    r("1997", "14.1", "federations may ask FIDE for decisions", (), (), "FIDE's procedure, outside any game"),
    r("1997", "A.1", "sealing; adjourning early", ("game.adjournment:_on_seal",), (ADJ + "test_sealing_stops_the_clocks_and_keeps_the_envelope_secret", ADJ + "test_adjourning_before_the_end_of_the_session_costs_the_rest_of_it")),
    r("1997", "A.2-A.3", "the envelope and its safe-keeping", ("game.state:Envelope.public",), ADJ + "test_sealing_stops_the_clocks_and_keeps_the_envelope_secret"),
    r("1997", "A.4", "offers after the sealing", ("game.handlers:transition",), ADJ + "test_draw_agreed_before_resumption"),
    r("1997", "A.5", "the position and times set up for the resumption", ("game.adjournment:_on_resume",), ADJ + "test_resumption_opens_the_envelope_when_the_replier_arrives"),
    r("1997", "A.6", "agreed or resigned before the resumption", ("game.handlers:transition",), (ADJ + "test_draw_agreed_before_resumption", ADJ + "test_resignation_before_resumption")),
    r("1997", "A.7", "opened only with the replier present", ("game.adjournment:_on_arrive",), ADJ + "test_resumption_opens_the_envelope_when_the_replier_arrives"),
    r("1997", "A.8", "an invalid sealed move loses (6.9 excepted)", ("game.adjournment:_open_envelope",), (ADJ + "test_false_sealed_move_loses", ADJ + "test_invalid_sealed_move_against_a_lone_king_is_a_draw")),
    r("1997", "A.9", "at the resumption: replier present, absent; sealer absent", ("game.adjournment:_on_arrive", "game.adjournment:_on_seal"), (ADJ + "test_absent_sealer_the_replier_seals_his_reply",)),
    r("1997", "A.10", "more than an hour late for the resumption", ("game.flags:_late_arrival",), (ADJ + "test_absent_sealer_loses_after_the_default_time", ADJ + "test_absent_sealer_whose_sealed_move_mates_wins")),
    r("1997", "A.11", "a lost envelope", ("game.adjournment:_on_envelope_lost",), ADJ + "test_a_lost_envelope_resumes_from_the_adjourned_position"),
    r("1997", "A.12", "wrong times at the resumption corrected", ("game.adjournment:_on_resume",), ADJ + "test_resumption_opens_the_envelope_when_the_replier_arrives"),
    r("1997", "A.13", "the session by the arbiter's time piece", ("game.adjournment:_on_seal",), ADJ + "test_adjourning_before_the_end_of_the_session_costs_the_rest_of_it"),
    r("1997", "B.1", "rapidplay: 15 to 60 minutes", ("timecontrol:classify",), TC + "test_classify"),
    r("1997", "B.2-B.3", "the Laws apply; no recording needed", ("timecontrol:recording_exempt",), TC + "test_recording_exempt"),
    r("1997", "B.4", "no claim about the set-up after three moves each", ("game.irregularities:_on_claim_setup", "editions:Edition.setup_claim_moves"), IRR + "test_1997_setup_claims_only_before_three_moves_each"),
    r("1997", "B.5", "the arbiter rules under Articles 5 and 10 only on request", ("game.irregularities:_illegal_moves_observed", "editions:Edition.rapid_rulings_on_request"),
      (FID + "test_illegal_move_in_rapid_is_corrected_only_on_request", FID + "test_1997_rapid_claim_is_a_request_the_arbiter_answers")),
    r("1997", "B.6-B.7", "flags only on a claim, the claimant's flag up", ("game.state:Config.flags_observed", "game.flags:_on_claim_flag"), (IRR + "test_1997_rapid_flags_count_only_when_claimed", IRR + "test_1997_rapid_flag_claim_wins_when_the_claimants_flag_is_up")),
    r("1997", "B.8", "both flags: drawn", ("game.flags:_on_claim_flag",), IRR + "test_1997_rapid_both_flags_fallen_is_a_draw"),
    r("1997", "C.1-C.2", "blitz: under 15 minutes; the rapidplay Laws apply", ("timecontrol:classify",), (TC + "test_classify", FLG + "test_both_flags_1997_blitz_is_a_draw")),
    r("1997", "C.3", "an illegal move completed; the opponent may claim the win before moving", ("game.irregularities:_on_claim_win", "editions:Edition.illegal_move_stands_in_blitz"), (IRR + "test_1997_blitz_illegal_move_claimed_wins", IRR + "test_1997_blitz_illegal_move_not_claimed_stands")),
    r("1997", "C.4", "mating potential needed to win: any win in blitz, a resignation included", ("game.state:mating_potential", "game.state:_Builder.end", "editions:Edition.mating_potential_in_blitz"),
      (IRR + "test_1997_blitz_claim_without_mating_potential_is_a_draw", "arbiter/test_fidelity_rulings.py::test_resignation_against_a_lone_king",
       "arbiter/test_fidelity_rulings.py::test_blitz_resignation_against_two_knights", "arbiter/test_fidelity_rulings.py::test_1997_blitz_penalty_loss_against_a_lone_king",
       "test_judgement.py::test_the_1997_rule_of_mating_potential_in_blitz_is_judged_alike")),
    r("1997", "C.5", "no quickplay-finish claim in blitz", ("game.draws:_on_quickplay_claim",), FID + "test_1997_no_quickplay_claim_in_blitz"),
    r("1997", "D.1", "quickplay finish without an arbiter: the claim concludes the game, referred to an arbiter", ("game.draws:_on_quickplay_claim", "game.draws:_on_decision"),
      (IRR + "test_quickplay_claim_postponed_then_granted_after_a_flag_fall", FID + "test_2023_quickplay_claim_without_an_arbiter_concludes_the_game")),
    r("1997", "E.1-E.12", "algebraic notation; the offer marked (=)", ("notation:read_move", "records:game_to_pgn"), (NOT + "test_known_spellings", REC + "test_draw_offer_marked")),
    # ===================================================================== 2023
    r("2023", "1.1-1.5", "the game, the objective, having the move, the result", ("game.moving:_on_move", "game.completion:_end_checks_after_move"), END + "test_fools_mate_ends_the_game_at_once"),
    r("2023", "2.1-2.4", "the board and the initial position", ("position:STARTING_FEN", "game.irregularities:_on_claim_setup"), (POS + "test_start_position", IRR + "test_annulment")),
    r("2023", "3.1-3.10", "the moves of the pieces, castling, en passant, promotion; legal moves", MOVES, MOVES_T + CASTLE_T),
    r("2023", "4.1", "one hand only (penalised under 7.5.4)", ("game.irregularities:_two_hands",), FID + "test_a_move_made_with_two_hands"),
    r("2023", "4.2", "adjusting (j'adoube)", ("game.moving:_on_adjust",), IRR + "test_only_the_player_having_the_move_touches"),
    r("2023", "4.3", "touch-move: own pieces, opponent's (en passant included), one of each", TOUCH,
      (FID + "test_touched_opponent_pawn_that_only_en_passant_can_take", FID + "test_own_pawn_and_opponent_pawn_touched_oblige_en_passant", IRR + "test_touched_piece_must_be_moved_and_claim_takes_the_move_back")),
    r("2023", "4.4", "king and rook: castle with it if legal; rook then king: no castling; castling illegal: another king move", ("game.moving:allowed_by_touch", "editions:Edition.castle_when_king_then_rook"),
      (FID + "test_king_then_rook_then_another_king_move", FID + "test_king_then_rook_then_castling_on_the_other_side", FID + "test_rook_then_king", FID + "test_king_then_rook_when_castling_with_it_is_illegal")),
    r("2023", "4.5", "no touched piece can move: any move", ("game.moving:allowed_by_touch",), FID + "test_en_passant_no_longer_possible_leaves_the_player_free"),
    r("2023", "4.6-4.7", "promotion in any order; a piece released", MOVES, POS + "test_play_annotated"),
    r("2023", "4.8", "the claim is forfeited once the claimant touches a piece", ("game.moving:_on_touch",), IRR + "test_touch_move_claim_lost_once_the_claimant_touches_a_piece"),
    r("2023", "4.9", "an assistant moves the pieces", (), (), "the assistant's actions are logged as the player's (`by` is his colour)"),
    r("2023", "5.1", "checkmate; resignation (a draw when the opponent cannot mate)", ("game.completion:_on_resign", "game.completion:_end_checks_after_move"), (END + "test_resigning_against_a_lone_king", END + "test_2023_resignation_against_king_and_knight")),
    r("2023", "5.2.1", "stalemate", ("game.completion:_end_checks_after_move",), END + "test_stalemate_is_an_immediate_draw"),
    r("2023", "5.2.2", "dead position", ("mating:is_dead",), DEAD + "test_agrees_with_chasolver_published_positions"),
    r("2023", "5.2.3", "agreement, provided both players have moved", ("game.draws:_on_accept", "game.draws:_both_have_moved"), (FID + "test_incorrect_claim_then_the_opponent_accepts", OFF + "test_agreement_after_whites_first_move_only", OFF + "test_agreement_before_any_move")),
    r("2023", "6.1-6.4", "the clock, periods, increments, delays; its placement", ("clock:Clock", "timecontrol:TimeControl"), (CLK + "test_scenario", TC + "test_parse")),
    r("2023", "6.5", "the arbiter decides where the chessclock is placed", (), (), VENUE),
    r("2023", "6.6", "White's clock is started at the time set for the start of the game", ("game.handlers:initial_state",), (API + "test_start_defaults", CLI + "test_at_an_instant_runs_the_clock_on")),
    r("2023", "6.7", "the default time (zero unless announced)", ("game.flags:_late_arrival", "editions:Edition.default_time_ms"), IRR + "test_2023_default_time_zero_unless_announced"),
    r("2023", "6.8", "the flag falls when the arbiter observes it or on a claim", ("game.flags:observe", "game.flags:_on_claim_flag"), FLG + "test_2023_rapid_flags_are_called_by_the_arbiter"),
    r("2023", "6.9", "the flag loses unless no series of legal moves mates", ("game.flags:_flag_outcome",), FLG + "test_flag_against_a_lone_king_is_a_draw"),
    r("2023", "6.10", "the clock's indications; a defective clock; a wrong setting corrected", ("game.flags:_on_set_clocks",), (IRR + "test_stop_set_and_start_clocks", "arbiter/test_laws2023_rulings.py::test_2023_the_arbiter_pauses_sets_and_restarts_the_clocks")),
    r("2023", "6.11", "interruptions: the arbiter pauses the clock; a player only to seek his assistance; no valid reason: 12.9", ("game.flags:_on_stop_clocks", "game.flags:_on_start_clocks", "game.conduct:_apply_penalty"), ("arbiter/test_laws2023_rulings.py::test_2023_the_arbiter_pauses_sets_and_restarts_the_clocks", "server/test_hardening.py::test_players_stop_the_clocks_only_to_summon_an_arbiter_who_is_present")),
    r("2023", "6.12", "screens, monitors and demonstration boards; no claim relying only on them", (), (), "what a screen shows is outside the log; a claim is examined on the log itself, never on a display"),
    r("2023", "7.1", "the clock times after an irregularity", ("game.irregularities:_reinstate",), ILL + "test_2023_first_illegal_move_gives_two_minutes"),
    r("2023", "7.2.1-7.2.2", "wrong initial position: a new game; the board placed wrongly: the position transferred", ("game.irregularities:_on_claim_setup",), (FID + "test_wrong_set_up_found_during_the_game", FID + "test_2023_partial_supervision_set_up_claims_close_after_ten_moves")),
    r("2023", "7.3", "colours reversed: a new game while fewer than ten moves each, otherwise play on", ("game.irregularities:_colours_reversed", "editions:Edition.colours_reversed"), ("arbiter/test_laws2023_rulings.py::test_2023_colours_reversed_before_ten_moves_each_a_new_game", "arbiter/test_laws2023_rulings.py::test_2023_colours_reversed_after_ten_moves_each_the_game_goes_on")),
    r("2023", "7.4", "displaced pieces re-established on the player's own time; the clock paused; a penalty", ("game.flags:_on_stop_clocks", "game.conduct:_apply_penalty"), (IRR + "test_stop_set_and_start_clocks", CON + "test_leaving_the_playing_area_having_the_move")),
    r("2023", "7.5.1", "an illegal move completed: reinstated; 4.3 and 4.7 apply to the replacing move (the first piece touched)", ("game.irregularities:_illegal_consequence", "game.irregularities:_replacing_move_bound"), (IRR + "test_illegal_move_binds_the_replacement_to_the_piece_moved", "arbiter/test_fidelity_rulings.py::test_replacing_move_is_made_with_the_piece_touched_first")),
    r("2023", "7.5.2", "a pawn to the last rank not replaced: a queen", ("game.irregularities:_queen_for_unreplaced", "game.irregularities:_unreplaced_promotion"),
      (FID + "test_pawn_to_the_last_rank_not_replaced", FID + "test_2023_second_illegal_move_by_an_unreplaced_promotion_loses")),
    r("2023", "7.5.3", "the clock pressed without a move: penalised as an illegal move", ("game.irregularities:_on_press_clock", "game.irregularities:_penalise_as_illegal", "editions:Edition.press_without_move_is_illegal"), FID + "test_pressing_the_clock_without_a_move"),
    r("2023", "7.5.4", "a move with two hands: penalised as an illegal move", ("game.irregularities:_two_hands", "game.irregularities:_penalise_as_illegal", "editions:Edition.two_hands_is_illegal"), FID + "test_a_move_made_with_two_hands"),
    r("2023", "7.5.5", "two minutes (one in rapid and blitz), the second loses unless the opponent cannot mate", ("game.irregularities:_illegal_consequence", "editions:Edition.illegal_move_penalty"),
      (ILL + "test_2023_first_illegal_move_gives_two_minutes", IRR + "test_2023_second_illegal_move_against_a_lone_king_is_a_draw", ILL + "test_2023_illegal_moves_are_counted_per_player")),
    r("2023", "7.6", "a piece found displaced: the position before the irregularity reinstated, or the last identifiable one", ("game.irregularities:_on_reinstate",), CON + "test_arbiter_reinstates_the_last_identifiable_position"),
    r("2023", "8.1-8.7", "recording the moves; the scoresheet", SCORESHEET + ("timecontrol:recording_exempt",), (SHEET + "test_moves_in_numbered_rows_with_draw_offers", TC + "test_recording_exempt")),
    r("2023", "9.1.1", "the regulations may forbid agreements", ("game.draws:_on_accept",), OFF + "test_agreement_before_any_move"),
    r("2023", "9.1.2.1", "the offer: when, valid until answered, rejected by a touch; one made with an illegal move survives it", ("game.draws:_on_offer", "game.moving:_on_touch", "game.irregularities:_offer_survives"),
      (IRR + "test_2023_touching_a_piece_rejects_a_draw_offer", FID + "test_offer_made_with_an_illegal_move_survives_the_reinstatement", FID + "test_2023_the_illegal_move_rejects_the_opponents_offer")),
    r("2023", "9.1.2.2", "the offer noted (=)", ("game.state:MoveRecord",), REC + "test_draw_offer_marked"),
    r("2023", "9.1.2.3", "a claim is also an offer of a draw", ("game.draws:_on_claim_draw", "game.draws:_add_offer", "editions:Edition.claim_is_draw_offer"),
      (FID + "test_incorrect_claim_then_the_opponent_accepts", FID + "test_2023_the_claim_offer_is_rejected_by_the_opponents_move")),
    r("2023", "9.2", "threefold repetition, claimed", ("game.draws:_on_claim_draw",), CLM + "test_threefold_has_just_appeared"),
    r("2023", "9.3", "fifty moves, claimed", ("game.draws:_on_claim_draw",), CLM + "test_fifty_moves_about_to_be_made"),
    r("2023", "9.4", "touching a piece loses the right to claim on that move", ("game.draws:_on_claim_draw", "editions:Edition.claim_right_lost_by_touch"), FID + "test_touching_a_piece_then_claiming_threefold"),
    r("2023", "9.5", "the claim examined; incorrect: two minutes to the opponent; the move played", ("game.draws:_claim_penalty",), CLM + "test_2023_incorrect_claim_gives_the_opponent_two_minutes_one_in_rapid_and_blitz"),
    r("2023", "9.6", "fivefold repetition, 75 moves: drawn at once", ("game.completion:_end_checks_after_move",), (END + "test_2023_fivefold_repetition_ends_the_game", END + "test_2023_seventyfive_moves_end_the_game")),
    r("2023", "10.1-10.2", "points; the regulations may say otherwise; the total never exceeds the maximum (10.2)", ("game.state:Outcome.score", "game.conduct:_apply_penalty"), (SCO + "test_a_draw_scores_a_half_each", CON + "test_2023_points_penalties_after_the_game",
      "arbiter/test_fidelity_rulings.py::test_points_penalty_after_a_draw_keeps_the_total_at_one", "arbiter/test_fidelity_rulings.py::test_points_penalty_against_the_winner")),
    r("2023", "11.1", "the players' good conduct", (), (), PEOPLE),
    r("2023", "11.2", "the playing venue and area; leaving them", ("game.conduct:_on_conduct",), CON + "test_leaving_the_playing_area_having_the_move"),
    r("2023", "11.3.1", "notes, sources of information, advice", ("game.conduct:_on_conduct",), CON + "test_sources_of_information_are_penalised_at_the_arbiters_choice"),
    r("2023", "11.3.2", "electronic devices: loss, or the regulations' lighter penalty", ("game.conduct:_on_conduct", "game.state:Config.device_penalty_lighter", "editions:Edition.device_loses"),
      (CON + "test_2023_a_device_loses_the_game", CON + "test_2023_a_lighter_device_penalty_needs_the_regulations")),
    r("2023", "11.3.3", "inspection in private; refusing it is met under 12.9", ("game.conduct:_on_conduct",), CON + "test_inspection_refused_is_2023_only"),
    r("2023", "11.3.4", "smoking only where the arbiter designates", (), (), VENUE),
    r("2023", "11.4", "players who have finished their games are spectators", (), (), PEOPLE),
    r("2023", "11.5", "distracting or annoying the opponent", ("game.conduct:_on_conduct",), CON + "test_annoying_the_opponent_can_cost_the_game"),
    r("2023", "11.6", "infractions penalised under 12.9", ("game.conduct:_apply_penalty",), CON + "test_leaving_the_playing_area_having_the_move"),
    r("2023", "11.7-11.8", "persistent refusal loses; both: both lose", ("game.conduct:_on_refuse",), SCO + "test_both_refusing_to_comply_both_lose"),
    r("2023", "11.9-11.12", "explanations, appeals, assisting the arbiter, a claim's evidence", (), (), PEOPLE),
    r("2023", "12.1-12.4", "the arbiter's role (12.2.2, the competition's interest, is his adjudication: a decision event)", (), (), PEOPLE),
    r("2023", "12.5", "additional time for an external disturbance", ("game.flags:_on_set_clocks", "game.conduct:_apply_penalty"), (IRR + "test_stop_set_and_start_clocks", "arbiter/test_laws2023_rulings.py::test_2023_the_arbiter_pauses_sets_and_restarts_the_clocks")),
    r("2023", "12.6-12.8", "the arbiter's restraint; irregularities told only to him; phones in the venue", (), (), PEOPLE),
    r("2023", "12.9", "the penalties 12.9.1-12.9.9", PENALTY,
      (CON + "test_2023_points_penalties_after_the_game", CON + "test_2023_loss_with_the_opponents_score_decided", CON + "test_2023_penalties_beyond_the_game")),
    r("2023", "A.1-A.2", "rapid: over 10 and under 60 minutes; no recording needed", ("timecontrol:classify",), TC + "test_classify"),
    r("2023", "A.3", "one minute instead of two for the penalties of Articles 7 and 9 (cited beside them)", ("game.irregularities:_illegal_consequence", "game.draws:_claim_penalty", "game.draws:_cite_fast_penalty", "editions:Edition.claim_penalty_fast_ms"), (ILL + "test_2023_first_illegal_move_in_rapid_and_blitz_gives_one_minute", CLM + "test_2023_incorrect_claim_gives_the_opponent_two_minutes_one_in_rapid_and_blitz",
      "arbiter/test_fidelity_rulings.py::test_the_one_minute_of_an_incorrect_claim_cites_a_3", "arbiter/test_fidelity_rulings.py::test_the_one_minute_of_an_illegal_move_cites_a_3")),
    r("2023", "A.4", "the Competitive Rules where one arbiter supervises at most three games", ("game.state:Config.supervised",), FID + "test_illegal_move_in_rapid_is_corrected_only_on_request"),
    r("2023", "A.5", "otherwise: set-up claims within ten moves; an illegal move the arbiter observes acted on under 7.5.5 before the opponent moves (A.5.2), else claimed; flags", ("game.irregularities:_illegal_moves_observed", "game.irregularities:_arbiter_waits", "game.irregularities:_on_claim_setup", "editions:Edition.partial_supervision", "editions:Edition.setup_claim_moves"),
      (FID + "test_illegal_move_in_rapid_is_corrected_only_on_request", FID + "test_2023_partial_supervision_set_up_claims_close_after_ten_moves",
       "arbiter/test_fidelity_rulings.py::test_partial_supervision_arbiter_acts_on_the_illegal_move_he_observes",
       "arbiter/test_fidelity_rulings.py::test_partial_supervision_in_blitz_the_second_observed_illegal_move_loses")),
    r("2023", "A.5.4", "both kings in check or a pawn on the last rank: a draw if still illegal after the next move", ("game.completion:_illegal_position_stays",), ("arbiter/test_laws2023_rulings.py::test_2023_a_pawn_left_on_the_last_rank_is_a_draw_once_the_next_move_is_made", "arbiter/test_laws2023_rulings.py::test_2023_the_illegal_position_gone_after_the_next_move_means_play_on")),
    r("2023", "A.6", "the regulations choose A.4 or A.5", ("game.state:_config_from_start",), FID + "test_illegal_move_in_rapid_is_corrected_only_on_request"),
    r("2023", "B.1-B.4", "blitz: ten minutes or less; B.2 supervised, else B.3 (A.2, A.3, A.5)", ("timecontrol:classify", "game.irregularities:_illegal_consequence"), (TC + "test_classify", ILL + "test_2023_first_illegal_move_in_rapid_and_blitz_gives_one_minute")),
    r("2023", "C.1-C.13", "algebraic notation", ("notation:read_move", "records:game_to_pgn"), (NOT + "test_known_spellings", REC + "test_export_then_import_gives_the_same_game")),
    r("2023", "D.1", "visually disabled players: the special board", ("game.state:Config.visually_disabled", "editions:Edition.visually_disabled_rules"), D23 + "test_appendix_d_is_the_2023_laws"),
    r("2023", "D.2.1", "moves announced and repeated", ("game.moving:_announced_move",), D23 + "test_announced_move_agrees_with_the_board"),
    r("2023", "D.2.2", "touched when taken out of the hole", ("game.moving:_on_touch",), D23 + "test_touching_on_the_special_board"),
    r("2023", "D.2.3-D.2.7", "when the move is made; the clocks; the game score", ("game.moving:_on_move",), D23 + "test_announced_move_agrees_with_the_board"),
    r("2023", "D.2.8", "a slip of the tongue corrected before the clock is pressed", ("game.moving:_announced_move",), D23 + "test_slip_of_the_tongue_not_corrected_the_game_scores_decide"),
    r("2023", "D.2.9", "the two boards differ: the game scores decide", ("game.moving:_announced_move", "game.irregularities:_on_reinstate"),
      (D23 + "test_slip_of_the_tongue_not_corrected_the_game_scores_decide", D23 + "test_boards_differ_the_arbiter_retraces_to_where_the_scores_agree")),
    r("2023", "D.2.10-D.2.11", "the assistant", (), (), "the assistant acts for the player: his events carry the player's colour"),
    r("2023", "I.1-I.3", "adjournment: sealing, the envelope", ("game.adjournment:_on_seal",), D23 + "test_2023_adjournment_and_resumption"),
    r("2023", "I.4-I.6", "offers and agreements during the adjournment; set-up for resumption", ("game.adjournment:_on_resume", "game.handlers:transition"), (D23 + "test_2023_draw_agreed_during_the_adjournment",)),
    r("2023", "I.7-I.9", "opening the envelope; invalid sealed moves; the sealer absent", ("game.adjournment:_open_envelope", "game.adjournment:_on_seal"), (D23 + "test_2023_illegal_sealed_move_loses", D23 + "test_2023_adjournment_and_resumption")),
    r("2023", "I.10-I.11", "late for the resumption loses, unless the sealed move ended the game; a default time that is not zero", ("game.flags:_late_arrival", "game.flags:_sealed_move_concluded", "editions:Edition.sealed_conclusion_stands"), (D23 + "test_2023_replier_later_than_the_default_time_loses", "arbiter/test_laws2023_rulings.py::test_2023_late_replier_whose_opponent_sealed_stalemate_draws", "arbiter/test_laws2023_rulings.py::test_2023_late_replier_loses_when_the_sealed_move_ends_nothing")),
    r("2023", "I.12-I.14", "a lost envelope; wrong times; the session", ("game.adjournment:_on_envelope_lost",), D23 + "test_2023_lost_envelope"),
    r("2023", "II.1", "Chess960: a random starting position, then the game as regular chess",
      ("game.state:_variant_from_start", "game.state:Config.initial_position"),
      (C960A + "test_start_by_number_sets_up_the_array", C960A + "test_replay_of_a_chess960_log_end_to_end",
       C960A + "test_chess960_is_refused_before_2023")),
    r("2023", "II.2", "starting-position requirements: pawns on the second rank, the pieces on the first",
      ("position:Position.chess960_start", "position:chess960_start_number"),
      (C960 + "test_every_start_number_matches_python_chess", C960A + "test_start_by_fen_in_either_castling_notation_finds_the_number")),
    r("2023", "II.2.1-II.2.3", "the king between the rooks; bishops on opposite colours; Black opposite White",
      ("position:Position.chess960_number",), (C960 + "test_well_known_numbers", C960 + "test_double_chess960_start")),
    r("2023", "II.3.1", "castling once per game, king and rook in one move; the castling rights follow the rooks",
      ("position:Position.play", "position:Position.legal_moves"),
      (C960A + "test_castling_is_once_per_game_and_rights_follow_the_rooks", C960 + "test_thousand_random_games_against_python_chess",
       C960 + "test_published_perft", C960A + "test_positions_differ_when_chess960_castling_rights_differ")),
    r("2023", "II.3.2", "how to castle: O-O / O-O-O, or the king onto its own rook (its destination where unambiguous)",
      ("position:Position.parse_move", "game.moving:_on_move"),
      (C960 + "test_castling_in_san_and_uci", C960 + "test_king_destination_accepted_where_unambiguous",
       C960A + "test_518_is_standard_chess_with_chess960_castling_notation")),
    r("2023", "II.3.2.1", "double-move castling; touch-move: king then rook obliges it (4.4.1), rook then king forbids it (4.4.2)",
      ("game.moving:allowed_by_touch",),
      (C960A + "test_king_then_rook_obliges_castling_with_that_rook", C960A + "test_rook_then_king_forbids_castling_with_that_rook",
       C960A + "test_rook_touched_alone_does_not_allow_castling_that_moves_the_king")),
    r("2023", "II.3.2.2", "transposition castling (king and rook swap squares)", ("game.moving:allowed_by_touch",),
      C960A + "test_transposition_castling_king_then_rook"),
    r("2023", "II.3.2.3", "king-move-only castling: the king touched alone may castle", ("game.moving:allowed_by_touch",),
      C960A + "test_king_move_only_castling_with_the_king_touched_alone"),
    r("2023", "II.3.2.4", "rook-move-only castling: the rook touched alone may castle; the rook and then the king: not (4.4.2, II.1)", ("game.moving:allowed_by_touch", "game.moving:_king_stays"),
      (C960A + "test_rook_move_only_castling_with_the_rook_touched_alone", "arbiter/test_fidelity_rulings.py::test_chess960_rook_then_king_forbids_rook_move_only_castling",
       "arbiter/test_fidelity_rulings.py::test_chess960_rook_then_king_when_the_rook_has_another_move")),
    r("2023", "II.3.2.5", "recommendations: final squares as in regular chess (king c/g, rook d/f); the squares to cross empty, the king not in check nor crossing attacked squares",
      ("position:Position.legal_moves",),
      (C960A + "test_castling_squares_must_be_empty_and_not_attacked", C960 + "test_castling_blocked_and_through_check",
       C960 + "test_castling_where_king_does_not_move")),
    r("2023", "III.1", "the quickplay finish is the period of all remaining moves", ("game.draws:_in_quickplay_finish",), FID + "test_2023_guidelines_iii_scope"),
    r("2023", "III.2", "only where announced; not with increment, not in blitz", ("game.draws:_on_quickplay_claim",), (FID + "test_2023_guidelines_iii_scope", IRR + "test_2023_quickplay_only_where_announced_and_reject_gives_two_minutes")),
    r("2023", "III.3", "both flags: continue, except in the last period: drawn (with increment too, by analogy: the Laws have no other rule)", ("game.flags:_on_claim_flag",), (FLG + "test_both_flags_2023_last_period_without_increment_is_a_draw", FLG + "test_both_flags_2023_earlier_period_continues", "arbiter/test_claims_written_move.py::test_2023_both_flags_with_increment_in_the_last_period_is_a_draw_by_analogy_with_iii_3_1")),
    r("2023", "III.4", "a request for five seconds a move: an offer of a draw; granted with two minutes to the opponent", ("game.draws:_on_request_increment", "game.draws:_decide_increment", "clock:Clock.with_increment", "editions:Edition.quickplay_increment_request"),
      (FID + "test_2023_request_for_an_increment_is_a_draw_offer", FID + "test_2023_increment_granted_after_the_offer_is_refused")),
    r("2023", "III.5", "the claim under two minutes by the player having the move: draw, postpone (two minutes may be awarded), reject (two minutes)", ("game.draws:_on_quickplay_claim", "game.draws:_on_decision", "editions:Edition.quickplay_reject_gives_ms"), ("arbiter/test_fidelity_rulings.py::test_quickplay_claim_on_the_opponents_time", FID + "test_2023_guidelines_iii_claim_without_increment_awaits_the_arbiter", IRR + "test_2023_quickplay_only_where_announced_and_reject_gives_two_minutes", "arbiter/test_laws2023_rulings.py::test_2023_postponed_claim_without_the_two_minutes", "arbiter/test_laws2023_rulings.py::test_2023_a_rejected_claim_always_gives_the_two_minutes")),
    r("2023", "III.6", "no arbiter present: the claim concludes the game; the arbiter's decision is final", ("game.draws:_on_decision",), FID + "test_2023_quickplay_claim_without_an_arbiter_concludes_the_game"),
]

# --- the events for the hand, the clock, the scoresheet and the arbiter: the rows they reach, and whether
# each article can be written in the game log ----------------------------------------------------------
PRESS = "arbiter/test_clock_press.py::"
REL = "arbiter/test_release.py::"
DISP = "arbiter/test_displaced.py::"
KIND = "arbiter/test_clock_kind.py::"
LIM = "arbiter/test_clock_limits_1989.py::"
REC25 = "arbiter/test_scoresheet_events.py::"
GRD = "arbiter/test_quickplay_grounds.py::"

#: More code and tests for rows these events reach: (edition, article) -> (code, tests).
EXTEND: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("1989", "6"): (("game.pressing:_reply_before_press", "game.releasing:_on_release"),
                    (PRESS + "test_a_reply_before_the_press", REL + "test_a_piece_released_on_a_square_cannot_go_to_another")),
    ("1989", "8.3"): (("game.displacement:_on_displace", "game.displacement:_on_restore"),
                      (DISP + "test_the_displacer_must_restore_on_his_own_time", DISP + "test_the_opponent_presses_the_clock")),
    ("1989", "11.1-11.9"): (("game.recording:_on_scoresheet",), (REC25 + "test_a_player_who_does_not_record",
                                                                 REC25 + "test_writing_the_move_before_making_it")),
    ("1989", "12.3"): (("game.pressing:_on_press_clock",), (PRESS + "test_the_movers_clock_runs_until_he_presses",)),
    ("1989", "12.4"): (("game.flags:_check_clock_limit",), (LIM + "test_less_than_a_minute_a_move",)),
    ("1989", "12.6"): (("game.flags:_check_clock_limit",), (LIM + "test_five_minutes_in_a_period_for_all_moves",)),
    ("1989", "12.8"): (("game.state:Config.clock_shows_first_flag",), (KIND + "test_a_digital_clock_shows_which_flag_fell_first",)),
    ("1989", "12.9"): (("game.pressing:_move_not_pressed",), (PRESS + "test_the_opponent_lets_the_flag_fall",)),
    ("1997", "1.1"): (("game.pressing:_reply_before_press",), (PRESS + "test_a_reply_before_the_press",)),
    ("1997", "4.7"): (("game.releasing:_on_release", "game.releasing:_allowed_by_release"),
                      (REL + "test_a_piece_released_on_a_square_cannot_go_to_another",
                       REL + "test_the_promotion_piece_released_on_the_square")),
    ("1997", "6.3"): (("game.recording:_on_scoresheet",), (REC25 + "test_after_the_flag_the_exempt_player_updates",)),
    ("1997", "6.7"): (("game.pressing:_on_press_clock", "game.played:_press_after_move"),
                      (PRESS + "test_the_movers_clock_runs_until_he_presses", PRESS + "test_pressing_after_the_opponents_reply")),
    ("1997", "6.11"): (("game.state:Config.clock_shows_first_flag",), (KIND + "test_a_digital_clock_shows_which_flag_fell_first",)),
    ("1997", "7.3"): (("game.displacement:_on_displace", "game.displacement:_restart_for_displacer"),
                      (DISP + "test_the_opponent_presses_the_clock",)),
    ("1997", "8.1-8.3"): (("game.recording:_on_scoresheet",), (REC25 + "test_a_player_who_does_not_record",)),
    ("1997", "8.4"): (("game.recording:_on_scoresheet",), (REC25 + "test_under_five_minutes_no_obligation",
                                                            REC25 + "test_an_increment_of_30_seconds_keeps_the_duty")),
    ("1997", "8.5-8.6"): (("game.recording:_on_scoresheet",), (REC25 + "test_after_the_flag_the_exempt_player_updates",)),
    ("1997", "10.2"): (("game.grounds:_note_grounds",), (GRD + "test_the_claim_states_its_grounds",)),
    ("1997", "10.4"): (("game.state:Config.clock_shows_first_flag",), (KIND + "test_analogue_flags_leave_it_unknown",)),
    ("1997", "13.6"): (("game.pressing:_move_not_pressed",), (PRESS + "test_the_opponent_lets_the_flag_fall",)),
    ("1997", "C.3"): (("game.pressing:_defer_illegal",), (PRESS + "test_1997_blitz_no_claim_before_the_illegal_move_is_completed",)),
    ("1997", "D.1"): (("game.grounds:_note_grounds",), (GRD + "test_without_an_arbiter_the_final_position_is_written_and_verified",)),
    ("2023", "1.1-1.5"): (("game.pressing:_reply_before_press",), (PRESS + "test_a_reply_before_the_press",)),
    ("2023", "4.4"): (("game.releasing:_on_touch_promotion",), (REL + "test_the_promotion_piece_touching_the_square",)),
    ("2023", "4.6-4.7"): (("game.releasing:_on_release", "game.releasing:_allowed_by_release"),
                          (REL + "test_the_king_released_on_g1_means_castling", REL + "test_the_promotion_piece_released_on_the_square")),
    ("2023", "6.1-6.4"): (("game.pressing:_on_press_clock", "game.played:_press_after_move"),
                          (PRESS + "test_the_movers_clock_runs_until_he_presses", PRESS + "test_pressing_after_the_opponents_reply",
                           PRESS + "test_a_move_that_ends_the_game_needs_no_press")),
    ("2023", "7.4"): (("game.displacement:_on_displace", "game.displacement:_on_restore"),
                      (DISP + "test_2023_the_clock_paused_and_the_arbiter_called",)),
    ("2023", "7.5.1"): (("game.pressing:_defer_illegal",), (PRESS + "test_an_illegal_move_replaced_before_the_press",
                                                            PRESS + "test_2023_the_press_completes_the_illegal_move")),
    ("2023", "8.1-8.7"): (("game.recording:_on_scoresheet", "game.recording:_on_sign"),
                          (REC25 + "test_a_player_who_does_not_record", REC25 + "test_the_signed_result_stands")),
    ("2023", "12.6-12.8"): (("game.pressing:_move_not_pressed",), (PRESS + "test_the_opponent_lets_the_flag_fall",)),
    ("2023", "D.2.9"): (("game.gamescores:_on_game_score",),
                        ("arbiter/test_game_scores.py::test_the_scores_differ_the_moves_are_retraced_to_where_they_agree",
                         "arbiter/test_game_scores.py::test_the_scores_correspond_the_board_is_adjusted")),
    ("2023", "III.3"): (("game.state:Config.clock_shows_first_flag",), (KIND + "test_a_digital_clock_shows_which_flag_fell_first",)),
    ("2023", "III.5"): (("game.grounds:_note_grounds",), (GRD + "test_the_claim_states_its_grounds",)),
    ("2023", "III.6"): (("game.grounds:_note_grounds",), (GRD + "test_without_an_arbiter_the_final_position_is_written_and_verified",)),
}

# Further rows: the arbiter who observes some things, 8.6, requests to see the scoresheet, the
# result after the signatures, Appendix D's slip of the tongue and assistant, the PGN's vocabulary.
OBS = "arbiter/test_observation.py::"
DEC = "arbiter/test_scoresheet_decisions.py::"
SLIP = "arbiter/test_appendix_d_slip_assistant.py::"
OBSERVE = ("game.observation:_on_observe",)
for _key, (_code, _tests) in {
    ("1989", "8.1"): (OBSERVE, (OBS + "test_an_illegal_move_found_after_the_reply_is_taken_back_in_standard_play",)),
    ("1989", "11.1-11.9"): (("game.recording:_decide_next_period",), (DEC + "test_the_scoresheets_cannot_show_the_control_passed",)),
    ("1989", "12.2"): (OBSERVE, (OBS + "test_a_flag_nobody_sees_decides_nothing_until_the_arbiter_observes_it",)),
    ("1989", "12.8"): (("game.recording:_decide_next_period", "clock:Clock.next_period"),
                       (DEC + "test_the_scoresheets_cannot_show_the_control_passed",)),
    ("1989", "12.9"): (("game.recording:_on_request_scoresheet",), (DEC + "test_elsewhere_the_arbiter_does_not_tell_the_moves",)),
    ("1989", "16.1-16.3"): (("game.recording:_decide_result",), (DEC + "test_the_arbiter_decides_otherwise",)),
    ("1997", "6.8"): (OBSERVE, (OBS + "test_a_flag_nobody_sees_decides_nothing_until_the_arbiter_observes_it",)),
    ("1997", "7.4"): (OBSERVE, (OBS + "test_an_illegal_move_found_after_the_reply_is_taken_back_in_standard_play",)),
    ("1997", "8.5-8.6"): (("game.recording:_decide_next_period", "clock:Clock.next_period"),
                          (DEC + "test_the_scoresheets_cannot_show_the_control_passed", DEC + "test_the_same_flag_observed_loses")),
    ("1997", "13.1-13.3"): (("game.recording:_decide_result",), (DEC + "test_the_arbiter_decides_otherwise",)),
    ("1997", "13.6"): (("game.recording:_on_request_scoresheet",), (DEC + "test_elsewhere_the_arbiter_does_not_tell_the_moves",)),
    ("1997", "B.2-B.3"): (("game.recording:_on_request_scoresheet",), (DEC + "test_a_scoresheet_to_write_on",)),
    ("1997", "B.5"): (OBSERVE, (OBS + "test_in_1997_blitz_the_arbiter_does_not_act",)),
    ("1997", "B.6-B.7"): (OBSERVE, (OBS + "test_in_rapid_play_the_arbiter_calls_the_flag_he_sees_except_in_1997",)),
    ("1997", "C.3"): (OBSERVE, (OBS + "test_in_1997_blitz_the_arbiter_does_not_act",)),
    ("2023", "6.8"): (OBSERVE, (OBS + "test_a_flag_nobody_sees_decides_nothing_until_the_arbiter_observes_it",)),
    ("2023", "7.5.1"): (OBSERVE, (OBS + "test_an_illegal_move_found_after_the_reply_is_taken_back_in_standard_play",)),
    ("2023", "8.1-8.7"): (("game.recording:_decide_next_period", "game.recording:_decide_result", "game.announcing:_assistant_acts"),
                          (DEC + "test_the_scoresheets_cannot_show_the_control_passed", DEC + "test_the_arbiter_decides_otherwise",
                           SLIP + "test_an_assistant_who_records_the_moves")),
    ("2023", "12.1-12.4"): (OBSERVE, (OBS + "test_seen_before_the_reply_the_illegal_move_is_corrected",)),
    ("2023", "12.6-12.8"): (("game.recording:_on_request_scoresheet",), (DEC + "test_elsewhere_the_arbiter_does_not_tell_the_moves",)),
    ("2023", "A.1-A.2"): (("game.recording:_on_request_scoresheet",), (DEC + "test_a_scoresheet_to_write_on",)),
    ("2023", "A.4"): (("game.recording:_on_request_scoresheet",), (DEC + "test_a_4_3_five_requests_then_a_distraction",
                                                                   DEC + "test_a_4_3_only_when_it_is_his_move")),
    ("2023", "A.5"): (OBSERVE + ("game.irregularities:_penalise_when_seen",),
                      (OBS + "test_under_a_5_2_the_move_found_after_the_reply_stands",
                       OBS + "test_in_rapid_play_the_arbiter_calls_the_flag_he_sees_except_in_1997",
                       OBS + "test_two_hands_unseen_by_an_occasional_arbiter_is_not_penalised_until_seen_or_claimed")),
    ("2023", "A.5.4"): (OBSERVE, (OBS + "test_a_pawn_on_the_last_rank_seen_by_the_arbiter_draws_after_the_next_move",)),
    ("2023", "B.1-B.4"): (("game.recording:_on_request_scoresheet",), (DEC + "test_b_2_3_in_blitz",)),
    ("2023", "D.2.8"): (("game.announcing:_on_announce", "game.announcing:_slip_pressed"),
                        (SLIP + "test_a_slip_corrected_before_the_press", SLIP + "test_a_slip_not_corrected_before_the_press",
                         SLIP + "test_a_correction_after_the_press_is_too_late")),
    ("2023", "D.2.10-D.2.11"): (("game.announcing:_assistant_acts", "game.state:_assistants"),
                                (SLIP + "test_the_visually_disabled_players_assistant_claims_on_time",
                                 SLIP + "test_the_sighted_players_assistant_only_moves_and_announces",
                                 SLIP + "test_assistants_as_the_appendix_allows")),
}.items():
    _was = EXTEND.get(_key, ((), ()))
    EXTEND[_key] = (_was[0] + _code, _was[1] + _tests)

# And what a player asks of the arbiter and beyond him (2023 11.9-11.12; the earlier
# Laws' arbiter who sees the Laws observed and enforces his decisions), and the assistant who tells the
# moves and the times (2023 D.2.10.4).
APL = "arbiter/test_appeals.py::"
RECOURSE = ("game.appeals:_on_request_explanation", "game.appeals:_on_appeal", "game.appeals:_on_appeal_decision")
for _key, (_code, _tests) in {
    ("1989", "16.1-16.3"): (RECOURSE, (APL + "test_an_explanation_asked_for_changes_nothing",
                                      APL + "test_an_appeal_after_the_game_reverses_the_result")),
    ("1997", "13.1-13.3"): (RECOURSE, (APL + "test_an_explanation_asked_for_changes_nothing",
                                      APL + "test_an_appeal_after_the_game_reverses_the_result")),
    ("2023", "11.9-11.12"): (RECOURSE + ("game.conduct:_on_refuse", "game.draws:_on_claim_draw"),
                             (APL + "test_an_explanation_asked_for_changes_nothing",
                              APL + "test_an_appeal_after_the_game_reverses_the_result",
                              APL + "test_an_appeal_during_the_game_leaves_the_game_as_it_is",
                              APL + "test_the_signed_scoresheet_does_not_bar_an_appeal",
                              APL + "test_the_players_assist_the_reconstruction_and_check_the_claim")),
    ("2023", "D.2.10-D.2.11"): (("game.recording:_on_request_scoresheet",),
                                (APL + "test_the_assistant_tells_the_moves_and_times_on_request",)),
    ("2023", "7.5.1"): (("game.observation:_observe_act",),
                        (OBS + "test_an_act_penalised_as_an_illegal_move_is_found_later_in_standard_play",
                         OBS + "test_a_press_without_a_move_found_later_in_standard_play")),
}.items():
    _was = EXTEND.get(_key, ((), ()))
    EXTEND[_key] = (_was[0] + _code, _was[1] + _tests)

# And what the log says beyond the moves: a legal move claimed illegal, claims during an adjournment, a
# wrong set-up, the regulations the Laws defer to (start fields), and the arbiter's procedures.
ACT = "arbiter/test_log_acts.py::"
CLAIMED = ("game.claims:_legal_move_claimed",)
ADJOURNED = ("game.claims:_on_adjourned_claim",)
SETUP = ("game.setup:board_setup", "game.procedures:_setup_castling")
DISPLAY = ("game.claims:_relies_on_display",)
RECON = ("game.procedures:_on_reconstruct",)
PROP = ("game.procedures:_proportional_times",)
DRAWREG = ("game.regulated:_draw_rule", "game.regulated:_decide_agreement", "regulations:Regulations")
LEAVE = ("game.regulated:_on_leave_area",)
for _key, (_code, _tests) in {
    ("1989", "8.1"): (ADJOURNED, (ACT + "test_an_illegal_move_claimed_during_the_adjournment",)),
    ("1989", "8.5"): (SETUP, (ACT + "test_a_wrong_set_up_found_during_a_standard_game_annuls_it",)),
    ("1989", "10.6"): (DRAWREG, (ACT + "test_earlier_laws_let_the_agreement_end_the_game_whatever_the_regulations",)),
    ("1989", "10.10"): (ADJOURNED, (ACT + "test_a_repetition_claimed_by_the_sealer_during_the_adjournment",)),
    ("1989", "11.1-11.9"): (RECON, (ACT + "test_the_game_reconstructed_on_a_second_board",)),
    ("1989", "12.2"): (ADJOURNED, (ACT + "test_a_flag_claimed_during_the_adjournment",)),
    ("1989", "12.6"): (PROP, (ACT + "test_1989_12_6_proportional_times",)),
    ("1989", "14.2"): (ADJOURNED, (ACT + "test_a_repetition_claimed_by_the_sealer_during_the_adjournment",)),
    ("1989", "15.1"): (CLAIMED, (ACT + "test_a_legal_move_claimed_illegal_is_a_rejected_claim",)),
    ("1989", "16.4"): (LEAVE, (ACT + "test_11_2_4_the_opponent_reports_before_leaving",)),
    ("1997", "5.3"): (DRAWREG, (ACT + "test_earlier_laws_let_the_agreement_end_the_game_whatever_the_regulations",)),
    ("1997", "6.8"): (ADJOURNED, (ACT + "test_a_flag_claimed_during_the_adjournment",)),
    ("1997", "6.13"): (PROP, (ACT + "test_1989_12_6_proportional_times",)),
    ("1997", "6.14"): (DISPLAY, (ACT + "test_a_claim_relying_only_on_a_display",)),
    ("1997", "7.1"): (SETUP, (ACT + "test_a_wrong_set_up_found_during_a_standard_game_annuls_it",)),
    ("1997", "7.4"): (ADJOURNED, (ACT + "test_an_illegal_move_claimed_during_the_adjournment",)),
    ("1997", "8.5-8.6"): (RECON, (ACT + "test_the_game_reconstructed_on_a_second_board",)),
    ("1997", "12.4"): (LEAVE, (ACT + "test_11_2_4_the_opponent_reports_before_leaving",)),
    ("1997", "12.5"): (CLAIMED, (ACT + "test_a_legal_move_claimed_illegal_is_a_rejected_claim",)),
    ("1997", "A.7"): (ADJOURNED, (ACT + "test_a_repetition_claimed_by_the_sealer_during_the_adjournment",)),
    ("1997", "B.4"): (SETUP, (ACT + "test_1997_rapid_b_4_after_three_moves",)),
    ("2023", "6.12"): (DISPLAY, (ACT + "test_a_claim_relying_only_on_a_display",)),
    ("2023", "7.1"): (PROP, (ACT + "test_1989_12_6_proportional_times",)),
    ("2023", "7.2.1-7.2.2"): (SETUP, (ACT + "test_a_wrong_set_up_found_during_a_standard_game_annuls_it",
                                      ACT + "test_the_board_is_the_position_played_and_a_misplaced_king_never_castles")),
    ("2023", "7.5.1"): (CLAIMED + ADJOURNED, (ACT + "test_a_named_illegal_move_is_still_corrected",
                                              ACT + "test_an_illegal_move_claimed_during_the_adjournment")),
    ("2023", "8.1-8.7"): (RECON, (ACT + "test_the_game_reconstructed_on_a_second_board",)),
    ("2023", "9.1.1"): (DRAWREG, (ACT + "test_2023_9_1_1_no_agreement_before_move_30_without_the_arbiters_consent",)),
    ("2023", "11.2"): (LEAVE + ("regulations:Regulations",), (ACT + "test_11_2_4_the_opponent_reports_before_leaving",)),
    ("2023", "11.5"): (CLAIMED, (ACT + "test_a_legal_move_claimed_illegal_is_a_rejected_claim",)),
    ("2023", "A.5"): (("game.regulated:_clock_setting_fixed", "game.procedures:_setup_castling"),
                      (ACT + "test_2023_a_5_1_1_no_change_to_the_clock_setting_after_ten_moves",
                       ACT + "test_2023_a_5_1_2_too_late_and_no_castling_with_the_misplaced_king")),
    ("2023", "I.7-I.9"): (ADJOURNED, (ACT + "test_a_flag_claimed_during_the_adjournment",
                                      ACT + "test_a_repetition_claimed_by_the_sealer_during_the_adjournment")),
    ("2023", "III.4"): (("game.regulated:_increment_impossible",),
                        (ACT + "test_iii_4_if_possible_the_clocks_cannot_add_an_increment",)),
}.items():
    _was = EXTEND.get(_key, ((), ()))
    EXTEND[_key] = (_was[0] + _code, _was[1] + _tests)

# And the rulings read again from the texts: who has the move under 1997 (1.1), an end produced by a move
# that broke Article 4 (2023 5.1.1, 5.2.1, 5.2.2, 4.8), an irregularity nobody saw under partial supervision
# (2023 A.5.2), the period that began when the flag fell (8.6), the flag that falls while sealing (1989 13.1(a)),
# a rook touched before the king in Chess960 (2023 4.4.2).
RUL = "arbiter/test_fidelity_set_four_rulings.py::"
HELD = ("game.completion:_end_or_hold", "game.completion:held_end_stands", "editions:Edition.end_needs_article_4")
SEAL = ("game.flags:_claim_flag_at_seal",)
for _key, (_code, _tests) in {
    ("1989", "7"): (("game.moving:_has_the_move",), (RUL + "test_where_the_move_counts_once_made_the_touch_binds",)),
    ("1989", "10.1"): ((), (RUL + "test_before_2023_the_mate_ends_the_game_whatever_the_hand_did",)),
    ("1989", "10.3"): ((), (RUL + "test_before_2023_the_draw_ends_the_game_whatever_the_hand_did",)),
    ("1989", "10.4"): ((), (RUL + "test_before_2023_the_draw_ends_the_game_whatever_the_hand_did",)),
    ("1989", "11.1-11.9"): (("clock:Clock.next_period",), (RUL + "test_the_next_period_begins_when_the_flag_fell",)),
    ("1989", "12.2"): (SEAL, (RUL + "test_a_flag_fallen_while_sealing_is_claimed_then_and_there",
                              RUL + "test_1989_an_arbiter_present_sees_the_flag_before_the_seal")),
    ("1989", "13.1"): (SEAL, (RUL + "test_a_flag_fallen_while_sealing_is_claimed_then_and_there",
                              RUL + "test_only_a_flag_fallen_before_the_seal_is_claimed_during_the_adjournment")),
    ("1997", "1.1"): (("game.moving:_has_the_move", "editions:Edition.has_move_once_made"),
                      (RUL + "test_1997_a_touch_before_the_opponent_pressed_binds_nothing",
                       RUL + "test_1997_a_touch_after_the_press_binds")),
    ("1997", "4.3"): (("game.moving:_has_the_move",), (RUL + "test_1997_a_touch_before_the_opponent_pressed_binds_nothing",)),
    ("1997", "5.1"): ((), (RUL + "test_before_2023_the_mate_ends_the_game_whatever_the_hand_did",)),
    ("1997", "5.2"): ((), (RUL + "test_before_2023_the_draw_ends_the_game_whatever_the_hand_did",)),
    ("1997", "9.6"): ((), (RUL + "test_before_2023_the_draw_ends_the_game_whatever_the_hand_did",)),
    ("1997", "8.5-8.6"): ((), (RUL + "test_the_next_period_begins_when_the_flag_fell",)),
    ("1997", "A.1"): (SEAL, (RUL + "test_a_flag_fallen_while_sealing_is_claimed_then_and_there",)),
    ("2023", "1.1-1.5"): (("game.moving:_has_the_move",), (RUL + "test_where_the_move_counts_once_made_the_touch_binds",)),
    ("2023", "4.4"): (("game.moving:_castlings_forbidden",),
                      (RUL + "test_chess960_rook_then_king_forbids_the_castling_in_which_they_change_places",
                       RUL + "test_chess960_king_then_rook_castles_where_they_change_places")),
    ("2023", "4.8"): (("game.completion:held_end_stands",), (RUL + "test_2023_the_mate_stands_once_the_opponent_touches_a_piece",)),
    ("2023", "5.1"): (HELD, (RUL + "test_2023_a_mate_made_against_touch_move_is_claimed_and_taken_back",
                             RUL + "test_2023_the_mate_stands_once_the_opponent_touches_a_piece")),
    ("2023", "5.2.1"): (HELD, (RUL + "test_2023_a_stalemate_or_dead_position_made_against_touch_move",)),
    ("2023", "5.2.2"): (HELD, (RUL + "test_2023_a_stalemate_or_dead_position_made_against_touch_move",)),
    ("2023", "7.5.3"): ((), (RUL + "test_partial_supervision_the_act_nobody_saw_is_for_the_opponent_to_claim",)),
    ("2023", "7.5.4"): ((), (RUL + "test_partial_supervision_the_act_nobody_saw_is_for_the_opponent_to_claim",
                             RUL + "test_partial_supervision_unclaimed_the_act_stands")),
    ("2023", "8.1-8.7"): (("clock:Clock.next_period",), (RUL + "test_the_next_period_begins_when_the_flag_fell",
                                                        RUL + "test_a_period_used_up_since_the_flag_fell_falls_again")),
    ("2023", "A.5"): ((), (RUL + "test_partial_supervision_the_act_nobody_saw_is_for_the_opponent_to_claim",
                           RUL + "test_partial_supervision_unclaimed_the_act_stands",
                           RUL + "test_partial_supervision_the_arbiter_who_sees_it_acts")),
    ("2023", "I.1-I.3"): (SEAL, (RUL + "test_a_flag_fallen_while_sealing_is_claimed_then_and_there",)),
}.items():
    _was = EXTEND.get(_key, ((), ()))
    EXTEND[_key] = (_was[0] + _code, _was[1] + _tests)

# The same acts through the live server, the regulations of an event carried into its games, and the
# times allotted in proportion across a time control.
SESS = "arbiter/test_log_acts_sessions.py::"
for _key, (_code, _tests) in {
    ("1989", "12.6"): (("game.procedures:_time_added_after", "game.flags:clock_floor"),
                       (SESS + "test_1989_12_6_across_a_time_control",
                        SESS + "test_1989_12_6_never_below_the_limit_of_the_reinstated_position")),
    ("1989", "14.2"): (("game.claims:_on_sealed_touch_claim", "game.adjournment:_touch_broken"),
                            (SESS + "test_the_sealer_claims_touch_move_during_the_adjournment",
                             SESS + "test_the_repliers_claim_waits_for_the_envelope")),
    ("1997", "4.6"): (("game.claims:_on_sealed_touch_claim",),
                      (SESS + "test_the_sealer_claims_touch_move_during_the_adjournment",
                       SESS + "test_the_repliers_claim_waits_for_the_envelope")),
    ("1997", "A.7"): (("game.claims:_on_sealed_touch_claim", "game.adjournment:_touch_broken"),
                      (SESS + "test_the_repliers_claim_waits_for_the_envelope",)),
    ("2023", "4.8"): (("game.claims:_on_sealed_touch_claim",),
                      (SESS + "test_the_sealer_claims_touch_move_during_the_adjournment",
                       SESS + "test_the_sealers_claim_at_the_resumption_before_the_envelope_is_opened")),
    ("2023", "I.7-I.9"): (("game.claims:_on_sealed_touch_claim", "game.adjournment:_touch_broken"),
                          (SESS + "test_the_repliers_claim_waits_for_the_envelope",)),
    ("2023", "9.1.1"): (("game.draws:awaiting_arbiter",),
                        (SESS + "test_the_agreement_waiting_for_the_arbiters_consent_lapses_without_him",
                         "server/test_api_log_acts.py::test_a_regulation_refusing_a_draw_before_move_30",
                         "tournament/test_live_regulations.py::test_the_draw_rule_reaches_each_rounds_games")),
}.items():
    _was = EXTEND.get(_key, ((), ()))
    EXTEND[_key] = (_was[0] + _code, _was[1] + _tests)

#: Whether what an article is about can be written in the game log, where it is not simply "yes"
#: (a row with code: the events it rules on exist) or "no" (a row without code). "—": nothing that
#: happens in a game (the venue, FIDE's procedures, people's manners): nothing to write.
OUTSIDE = "— (not something that happens in a game)"
LOG: dict[tuple[str, str], str] = {
    ("1989", "12.9"): "yes: `move` with `press`: false; `request_scoresheet` (the arbiter declines)",
    ("1989", "16.1-16.3"): "yes: the arbiter's acts are events (`penalty`, `decision`, `conduct`); a player's "
                           "`request_explanation` and `appeal`, and the `appeal_decision` (none in these Laws: "
                           "the regulations')",
    ("1997", "6.4"): OUTSIDE,
    ("1997", "6.14"): "yes: a claim with `relying_on`: \"display\" (not admitted); the displays themselves are the "
                      "venue's",
    ("1997", "7.2"): "yes: `claim_setup` (`colours`), `annul`",
    ("1997", "8.5-8.6"): "yes: `scoresheet` (8.5), `decision` on `period` (8.6)",
    ("1997", "12.1"): "yes: `conduct`, `penalty`",
    ("1997", "12.3"): OUTSIDE,
    ("1997", "13.1-13.3"): "yes: the arbiter's acts are events (`penalty`, `decision`, `conduct`); a player's "
                           "`request_explanation` and `appeal`, and the `appeal_decision` (none in these Laws: "
                           "the regulations')",
    ("1997", "13.6"): "yes: `move` with `press`: false; `request_scoresheet` (declined unless a flag has fallen)",
    ("1997", "13.7"): OUTSIDE,
    ("1997", "14.1"): OUTSIDE,
    ("2023", "4.9"): "yes: the assistant's acts are the player's events (`by` is his colour)",
    ("2023", "6.5"): OUTSIDE,
    ("2023", "6.12"): "yes: a claim with `relying_on`: \"display\" (6.12.2: not admitted); the displays "
                      "themselves (6.12.1) are the venue's",
    ("2023", "8.1-8.7"): "yes: `scoresheet`, `sign`, `decision` on `period` (8.6) and on `result` (8.7), the "
                         "start field `assistant` and an assistant's `scoresheet` (8.1.6)",
    ("2023", "11.1"): "yes: `conduct`, `penalty`",
    ("2023", "11.3.4"): OUTSIDE,
    ("2023", "11.4"): OUTSIDE,
    ("2023", "11.9-11.12"): "yes: `request_explanation` (11.9); `appeal` and its `appeal_decision` (11.10); the "
                            "reconstruction the players help with is the arbiter's `scoresheet`, `reinstate` and "
                            "`decision` on `period`, a player who will not help `refuse_to_comply` or a `penalty` "
                            "(11.11); a `claim_draw` is checked against the moves of the log (11.12)",
    ("2023", "12.1-12.4"): "yes: the arbiter's acts are events (`penalty`, `decision`, `conduct`)",
    ("2023", "12.6-12.8"): "yes: `move` with `press`: false; `request_scoresheet` (declined unless a flag has "
                           "fallen)",
    ("2023", "A.5"): "yes: `supervision`: \"partial\"; `arbiter`: \"occasional\" and `observe` (what he "
                     "observes, A.5.2, A.5.4, A.5.5); `set_clocks` with `setting` and `schedule` (A.5.1.1); the "
                     "start field `setup` (A.5.1.2: a wrong set-up, castling with a misplaced king or rook)",
    ("2023", "D.2.10-D.2.11"): "yes: the start fields `assistant` and `hearing_impaired`; the assistant's acts are "
                               "the player's events with `assistant`: true; `request_scoresheet` with `kind` "
                               "`moves_and_times` (D.2.10.4)",
    ("2023", "D.2.8"): "yes: `move` with `announced` (and `press`: false), `announce`",
    ("2023", "D.2.9"): "yes: each player's `game_score`, the arbiter's `reinstate` with `reason` `boards_differ`",
    ("2023", "A.4"): "yes: `supervision`; `request_scoresheet` (A.4.3)",
    ("1989", "11.1-11.9"): "yes: `scoresheet` (what each shows once completed), `stop_clocks` / `start_clocks` "
                           "while both complete them (11.7), `decision` on `period` (11.9)",
}


def _issue25(row: Row) -> Row:
    code, tests = EXTEND.get((row.edition, row.article), ((), ()))
    log = LOG.get((row.edition, row.article), "")
    why = "" if code else row.why  # a row these events reach has code, so no reason for having none
    return Row(row.edition, row.article, row.subject, row.code + code, row.tests + tests, why, log)


ROWS = [_issue25(row) for row in ROWS]


def expressible(row: Row) -> str:
    """The page's last column: can what the article is about be written in the log?"""
    if row.log:
        return row.log
    return "yes" if row.code else "no"

#: Paragraphs this table has not yet reached with code: listed, never hidden.
GAPS: list[Row] = []

EDITION_TITLES = {
    "1989": "1989 (FIDE Laws of Chess, 1 January 1989: Articles 1-17)",
    "1997": "1997 (FIDE Laws of Chess, 1 July 1997: Articles 1-14, Appendices A-E)",
    "2023": "2023 (FIDE Laws of Chess, 1 January 2023: Articles 1-12, Appendices A-D, Guidelines I-III)",
}


def _cell(refs: tuple[str, ...]) -> str:
    return "<br>".join(f"`{x}`" for x in refs)


def render() -> str:
    """The page ``docs/laws-coverage.md``."""
    out = [
        "# The Laws, article by article",
        "",
        "Every article and appendix paragraph of the three editions, with the code that",
        "applies it and the tests that show it, or why software has nothing to do there.",
        "Generated from `docs/laws_coverage.py` (`python docs/laws_coverage.py`);",
        "`tests/arbiter/test_laws_coverage.py` checks that every reference exists and",
        "that this page is up to date. Code is `module:name` in `python/chesslaws/`;",
        "tests are `file::test` in `tests/`. The last column says whether what the article",
        "is about can be written in the game log (`docs/game-log.md`): `yes` for a row",
        "with code (the events it rules on exist), `no` for one without, unless a",
        "sentence says more; `partly` names what is still missing.",
        "",
        "The Laws' texts are FIDE's and are not in this repository. The 2023 Laws are the",
        "FIDE Handbook's E.01 (https://handbook.fide.com/chapter/E012023), summarised by",
        "article in `tests/data/laws2023-articles.tsv`; the 1989 and 1997 texts are FIDE's",
        "earlier editions, as its handbooks of those years printed them. The tests that check every paragraph of the 1989 and",
        "1997 texts has a row run when a directory `shared/laws` (with `laws-1989.txt` and",
        "`laws-1997.txt`) stands beside the checkout, and are skipped otherwise.",
        "",
        "The 1989 text used begins at Article 8; its Articles 1-7 are the",
        "rules of play, the same as the 1997 Articles 1-4 (the 1989 text itself sends",
        "touch-move to Article 7 and the board to Article 1.2).",
        "",
    ]
    for edition, title in EDITION_TITLES.items():
        rows = [row for row in ROWS if row.edition == edition]
        out += [f"## {title}", "", "| article | what it says | code | tests | expressible in the log |",
                "|---|---|---|---|---|"]
        for row in rows:
            if row.code or row.tests:
                out.append(f"| {row.article} | {row.subject} | {_cell(row.code)} | {_cell(row.tests)} | {expressible(row)} |")
            else:
                out.append(f"| {row.article} | {row.subject} | — | nothing for software: {row.why} | {expressible(row)} |")
        out.append("")
    if GAPS:
        out += ["## Gaps", "", "Paragraphs chesslaws does not apply yet, with the reason:", "",
                "| edition | article | what it says | why |", "|---|---|---|---|"]
        out += [f"| {g.edition} | {g.article} | {g.subject} | {g.why} |" for g in GAPS]
        out.append("")
    return "\n".join(out)


def main() -> int:
    path = Path(__file__).with_name("laws-coverage.md")
    path.write_text(render(), encoding="utf-8")
    print(f"wrote {path} ({len(ROWS)} rows, {len(GAPS)} gaps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
