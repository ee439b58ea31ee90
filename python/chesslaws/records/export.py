"""PGN export of a :class:`~chesslaws.game.Game`: the standard's export form
(seven-tag roster, English SAN, 80-column lines) with what the Laws need:
``[%clk]`` after every move (``[%emt]``, the time the move took, in games
without a clock), ``{(=)}`` for draw offers, every ruling as a comment citing
its article, the ``Termination`` tag, and ``TimeControl`` in the extended
form of the game-log spec where the PGN form cannot say it (delays,
per-period increments); and what of a game log a PGN can carry."""

from __future__ import annotations

from typing import Mapping

from chesslaws.game import Game, GameState, Ruling
from chesslaws.pgn import ExportMove, write_pgn
from chesslaws.position import STARTING_FEN

#: The PGN standard's Termination values for each termination of the Laws.
PGN_TERMINATION = {
    "checkmate": "normal",
    "resignation": "normal",
    "stalemate": "normal",
    "agreement": "normal",
    "threefold_repetition": "normal",
    "fifty_moves": "normal",
    "fivefold_repetition": "normal",
    "seventyfive_moves": "normal",
    "dead_position": "normal",
    "insufficient_material": "normal",
    "time_forfeit": "time forfeit",
    "both_flags_fallen": "time forfeit",
    "illegal_moves": "rules infraction",
    "late_arrival": "abandoned",
    "sealed_move_invalid": "rules infraction",
    "arbiter_decision": "adjudication",
    "refusal_to_comply": "rules infraction",
    "annulled": "unterminated",
}


#: How each event of the log appears in a PGN written by :func:`game_to_pgn` and read back by
#: :func:`pgn_to_log`, or why it cannot appear there: a PGN records the moves, the clock after each
#: move, comments and tags -- not the hands on the board, the instants between moves, nor what is
#: said or noted at the board (docs/game-log.md, "In a PGN").
IN_PGN: Mapping[str, str] = {
    "start": "the tags: White, Black, Event, Site, Date, Round, TimeControl, FEN and SetUp, Variant, Laws, Mode; "
             "Arbiter (absent, occasional), Supervision (partial), Clock (digital), VisuallyDisabled, Assistant "
             "and HearingImpaired (the colours, comma-separated)",
    "move": "the move (SAN; an illegal move that stood in coordinates) with [%clk] after it ([%emt] without a "
            "clock) and {(=)} for a draw offer made with it; not its press (false), announced, two_hands or "
            "assistant: the hand, the voice and the helper at the board",
    "offer_draw": "{(=)} after the move it followed",
    "accept_draw": "the result and Termination (an agreement)",
    "resign": "the result and Termination (a resignation)",
    "claim_flag": "the result and Termination (time forfeit)",
    "claim_draw": "the result and Termination (a repetition or fifty moves); a wrong claim, and a quickplay "
                  "claim's grounds and written position, only as its ruling",
    "sign": "the tags WhiteSigned and BlackSigned; when the signed result stands instead of the board's (2023 "
            "8.7), Result is the signed one and BoardResult the board's",
    "decision": "its ruling, as a comment; on the result (8.7), the Result tag: read back, a Result that "
                "the signatures do not give is the arbiter's decision",
    "set_clocks": "the [%clk] values no time control explains (read back as set_clocks)",
}
#: The events a PGN cannot show, and why.
NOT_IN_PGN: Mapping[str, str] = {
    "touch": "the hand on the board", "release": "the hand on the board", "adjust": "the hand on the board",
    "displace": "the hand on the board", "restore": "the hand on the board",
    "press_clock": "a PGN has no press times: [%clk] is the clock after the move",
    "announce": "what is spoken at the board (one game score is recorded)",
    "game_score": "a second game score (a PGN holds one)",
    "scoresheet": "what the arbiter sees of a scoresheet at an instant",
    "request_scoresheet": "what is asked at the board",
    "observe": "what the arbiter sees at an instant (its ruling is a comment)",
    "claim_touch_move": "a claim about the hand (its ruling is a comment)",
    "claim_win": "a claim between moves (its ruling is a comment)",
    "claim_setup": "a claim about the set-up (its ruling is a comment)",
    "decline_draw": "words at the board", "request_increment": "a request at the board (its ruling is a comment)",
    "arrive": "an instant, not a move", "seal": "the sealed move, secret until played",
    "resume": "a session, not a move", "envelope_lost": "the envelope, not a move",
    "stop_clocks": "an instant, not a move", "start_clocks": "an instant, not a move",
    "penalty": "its ruling, as a comment (the clocks and the result show its effect)",
    "conduct": "its ruling, as a comment", "refuse_to_comply": "its ruling, as a comment; the result",
    "reinstate": "its ruling, as a comment (the moves kept are the moves written)",
    "annul": "its ruling, as a comment; Termination unterminated",
    "request_explanation": "words at the board (its ruling is a comment)",
    "appeal": "its ruling, as a comment",
    "appeal_decision": "its ruling, as a comment; a result it gives is in the Result tag, which read back is the "
                       "board's",
    "begin": "the live server's start, not a move",
    "leave_area": "a player's whereabouts, not a move (its ruling is a comment)",
    "reconstruct": "the arbiter's procedure (its ruling is a comment)",
}

#: The start fields a PGN carries as tags (:data:`IN_PGN`), each read back into ``start``.
START_TAGS = {"Arbiter": "arbiter", "Supervision": "supervision", "Clock": "clock"}
COLOUR_TAGS = {"VisuallyDisabled": "visually_disabled", "Assistant": "assistant", "HearingImpaired": "hearing_impaired"}


def _ruling_text(r: Ruling) -> str:
    return f"Article {r.article} ({r.edition}): {r.text}"


def game_tags(state: GameState) -> dict[str, str]:
    """The PGN tags of a game: the roster first, then the Laws' own."""
    cfg = state.config
    tags: dict[str, str] = {
        "Event": cfg.tags.get("event", "?"),
        "Site": cfg.tags.get("site", "?"),
        "Date": cfg.tags.get("date", "????.??.??"),
        "Round": cfg.tags.get("round", "?"),
        "White": cfg.white,
        "Black": cfg.black,
    }
    tc = cfg.time_control
    tags["TimeControl"] = "-" if tc.unlimited else (tc.to_pgn() or str(tc))
    if state.termination is not None:
        tags["Termination"] = PGN_TERMINATION[state.termination]
    elif state.status == "annulled":
        tags["Termination"] = "unterminated"
    tags["Laws"] = f"FIDE {cfg.edition.name}"
    tags["Mode"] = cfg.mode
    if state.termination is not None:
        tags["LawsTermination"] = state.termination
    if state.result == "0-0":
        tags["LawsResult"] = "0-0"
    if not cfg.arbiter_present:
        tags["Arbiter"] = "absent"
    elif not cfg.observes_all:
        tags["Arbiter"] = "occasional"
    if not cfg.supervised:
        tags["Supervision"] = "partial"
    if cfg.clock_shows_first_flag:
        tags["Clock"] = "digital"
    for tag, colours in (("VisuallyDisabled", cfg.visually_disabled), ("Assistant", cfg.assistants),
                         ("HearingImpaired", cfg.hearing_impaired)):
        if colours:
            tags[tag] = ",".join(c for c in ("white", "black") if c in colours)
    for colour, tag in (("white", "WhiteSigned"), ("black", "BlackSigned")):
        if colour in state.signed:
            tags[tag] = state.signed[colour]
    if cfg.chess960:
        # Chess960 (2023 Guidelines II): the variant and its starting position always.
        tags["Variant"] = "Chess960"
        tags["SetUp"] = "1"
        tags["FEN"] = cfg.fen
    elif cfg.fen != STARTING_FEN:
        tags["SetUp"] = "1"
        tags["FEN"] = cfg.fen
    return tags


def game_to_pgn(game: Game, *, tags: Mapping[str, str] | None = None) -> str:
    """The game in PGN, rulings as comments citing their articles.

    ``tags`` add to or override the tags taken from the game (e.g. the
    players' names and the date a server knows).
    """
    state = game.state
    records = list(state.moves)  # the packed history decoded once, not once a pass
    comments: list[list[str]] = [[] for _ in records]
    before_first: list[str] = []
    for r in state.rulings:
        index = None
        for i, rec in enumerate(records):
            if rec.t_ms <= r.t_ms:
                index = i
        if index is None:
            before_first.append(_ruling_text(r))
        else:
            comments[index].append(_ruling_text(r))
    irregular = any(rec.illegal for rec in records)
    # Without a clock, the time each move took ([%emt]) keeps the log's times.
    elapsed: list[int | None] = [None] * len(records)
    if state.config.time_control.unlimited:
        previous = state.config.start_t_ms
        for i, rec in enumerate(records):
            elapsed[i] = max(0, rec.t_ms - previous)
            previous = rec.t_ms
    moves = [
        ExportMove(rec.uci if rec.illegal else rec.san, rec.clock_ms, " ".join(c) or None, rec.draw_offer,
                   elapsed_ms=e)
        for rec, c, e in zip(records, comments, elapsed)
    ]
    result = state.result if state.result in ("1-0", "0-1", "1/2-1/2") else "*"
    # A game where an illegal move stood (1997 C.3) is written unchecked.
    all_tags = game_tags(state)
    days = game.events[0].get("days_per_move") if game.events else None
    if isinstance(days, (int, float)) and state.config.time_control.unlimited:
        # A correspondence game: its time for each move, as the PGN says it (read back by convert).
        all_tags["TimeControl"] = f"1/{round(days * 86_400)}"
    board = _board_result(game)
    if board is not None:
        all_tags["BoardResult"] = board
    all_tags.update(tags or {})
    return write_pgn(all_tags, moves, result, comment=" ".join(before_first) or None,
                     validate=not irregular)


def _board_result(game: Game) -> str | None:
    """The result the board gave, where the players' signatures made another stand (2023 8.7)."""
    state = game.state
    if len(state.signed) < 2 or not state.edition.signed_result_stands:
        return None
    article = state.edition.article("signed_result")
    if not any(r.article == article for r in state.rulings):
        return None
    unsigned = Game.from_events([e for e in game.events if e.type != "sign"
                                 and not (e.type == "decision" and e.get("on") == "result")])
    return unsigned.state.result if unsigned.state.result != state.result else None
