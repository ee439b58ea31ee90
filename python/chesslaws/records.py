"""Records of games: PGN export of a :class:`~chesslaws.game.Game` and game
logs from PGN (the conversion behind ``chesslaws convert``).

The PGN follows the standard's export form (seven-tag roster, English SAN,
80-column lines) and adds what the Laws need: ``[%clk]`` after every move,
``{(=)}`` for draw offers, every ruling as a comment citing its article, the
``Termination`` tag, and ``TimeControl`` in the extended form of the game-log
spec where the PGN form cannot say it (delays, per-period increments).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from chesslaws.events import ms_to_t
from chesslaws.game import Game, GameState, Ruling
from chesslaws.pgn import ExportMove, PgnGame, write_pgn
from chesslaws.position import STARTING_FEN, Position
from chesslaws.timecontrol import TimeControl, TimeControlError

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
    if cfg.fen != STARTING_FEN:
        tags["SetUp"] = "1"
        tags["FEN"] = cfg.fen
    return tags


def game_to_pgn(game: Game, *, tags: Mapping[str, str] | None = None) -> str:
    """The game in PGN, rulings as comments citing their articles.

    ``tags`` add to or override the tags taken from the game (e.g. the
    players' names and the date a server knows).
    """
    state = game.state
    records = state.moves
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
    moves = [
        ExportMove(rec.uci if rec.illegal else rec.san, rec.clock_ms, " ".join(c) or None, rec.draw_offer)
        for rec, c in zip(records, comments)
    ]
    result = state.result if state.result in ("1-0", "0-1", "1/2-1/2") else "*"
    # A game where an illegal move stood (1997 C.3) is written unchecked.
    all_tags = game_tags(state)
    all_tags.update(tags or {})
    return write_pgn(all_tags, moves, result, comment=" ".join(before_first) or None,
                     validate=not irregular)


# --- PGN to game logs ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conversion:
    """A PGN game as a game log, with notes on what had to be assumed."""

    number: int
    events: list[dict[str, Any]]
    notes: list[str]


def pgn_to_log(game: PgnGame, *, edition: str = "2023", seconds_per_move: float = 1.0) -> Conversion:
    """The game log of a PGN game.

    Times: where ``[%clk]`` comments and a readable ``TimeControl`` are
    present, each move's ``t`` is rebuilt from the time its player used
    (the clock before, minus the clock after, plus any increment); elsewhere
    moves are ``seconds_per_move`` apart. A result the moves do not explain
    (a resignation, an agreement) becomes the event that explains it.
    """
    notes: list[str] = []
    tags = game.tags
    tc_text = tags.get("TimeControl", "-")
    control: TimeControl | None
    try:
        control = TimeControl.from_pgn(tc_text) if tc_text not in ("?", "") else None
    except TimeControlError:
        try:
            control = TimeControl.parse(tc_text)
        except TimeControlError:
            control = None
            notes.append(f"TimeControl {tc_text!r} not understood: no clock")
    start: dict[str, Any] = {"type": "start", "t": 0, "edition": edition,
                             "time_control": str(control) if control is not None else "-",
                             "white": tags.get("White", "?"), "black": tags.get("Black", "?")}
    for key in ("Event", "Site", "Date", "Round"):
        if key in tags and tags[key] not in ("?", ""):
            start[key.lower()] = tags[key]
    if "FEN" in tags:
        start["fen"] = tags["FEN"]
    events: list[dict[str, Any]] = [start]
    position = Position(tags["FEN"]) if "FEN" in tags else Position()
    timed = control is not None and not control.unlimited and all(m.clock_ms is not None for m in game.moves)
    last_clock: dict[str, int | None] = {"white": None, "black": None}
    moves_made = {"white": 0, "black": 0}
    t_ms = 0
    if control is not None and not control.unlimited:
        first = control.periods[0].ms
        last_clock = {"white": first, "black": first}
    elif game.moves:
        notes.append("no clock times: moves placed one every %g s" % seconds_per_move)
    for m in game.moves:
        side = position.turn
        after = position.play(m.uci)
        # A move that ends the game is not followed by a press: no time is added.
        ends = after.is_checkmate() or after.is_stalemate() or after.is_insufficient_material()
        if timed and m.clock_ms is not None and last_clock[side] is not None and control is not None:
            period = control.periods[control.period_index(moves_made[side])]
            used = (last_clock[side] or 0) - m.clock_ms + (0 if ends else period.increment_ms)
            added = control.added_after(moves_made[side] + 1)
            if added is not None and not ends:
                used += added.ms
            t_ms += max(0, used)
            last_clock[side] = m.clock_ms
        else:
            t_ms += round(seconds_per_move * 1000)
        moves_made[side] += 1
        ev: dict[str, Any] = {"type": "move", "t": ms_to_t(t_ms), "by": side, "move": m.uci}
        if m.draw_offer:
            ev["offer_draw"] = True
        events.append(ev)
        position = after
    result = game.result or tags.get("Result", "*")
    side = position.turn
    t_end = ms_to_t(t_ms)
    if result in ("1-0", "0-1") and not position.is_checkmate():
        loser = "black" if result == "1-0" else "white"
        if tags.get("Termination", "").lower() == "time forfeit":
            events.append({"type": "claim_flag", "t": t_end, "by": "white" if loser == "black" else "black"})
            notes.append("time forfeit recorded: written as a flag claim")
        else:
            events.append({"type": "resign", "t": t_end, "by": loser})
    elif result == "1/2-1/2" and not position.is_stalemate():
        offerer = "white" if side == "black" else "black"
        events.append({"type": "offer_draw", "t": t_end, "by": offerer})
        events.append({"type": "accept_draw", "t": t_end, "by": side})
        notes.append("draw without a position rule: written as an agreement")
    return Conversion(game.number, events, notes)


def iter_conversions(games: Iterator[PgnGame], *, edition: str = "2023") -> Iterator[Conversion | PgnGame]:
    """Each PGN game as a :class:`Conversion`, or the game itself when it has errors."""
    for g in games:
        if g.errors:
            yield g
        else:
            yield pgn_to_log(g, edition=edition)


__all__ = ["PGN_TERMINATION", "Conversion", "game_tags", "game_to_pgn", "iter_conversions", "pgn_to_log"]
