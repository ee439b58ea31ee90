"""Irregularities and illegal moves: the set-up, the reinstated position,
illegal moves and their penalties, the clock pressed without a move or a
move made with two hands, the claim of an illegal move that stands.

Articles, by edition:

- 1989: 1 (the board's placement), 8.1, 8.2 (illegal moves; reinstating the
  position), 8.5, 8.6, 8.7 (wrong initial position, colours reversed, board
  placed wrongly), 10.9 (an offer made with an illegal move), 12.5, 12.6.
- 1997: 2.1, 4.1 (one hand), 6.13 (the clock pressed without a move), 7.1
  (wrong initial position; board), 7.4 (illegal moves; reinstatement), 9.1,
  10.3 (illegal moves in the quickplay finish), B.4, B.5 (rapid play), C.3
  (blitz: the illegal move stands until claimed), C.4 (mating potential).
- 2023: 2.1, 2.2, 2.3, 2.4, 4.1, 7.1, 7.2.1, 7.2.2, 7.3 (the set-up: wrong
  initial position, the board placed wrongly, colours reversed), 7.4.1 (displaced
  pieces), 7.5.1 (illegal moves), 7.5.2 (a promotion where the pawn is not
  replaced), 7.5.3 (the clock pressed without a move), 7.5.4 (two hands), 7.5.5
  (the penalty; the second illegal move loses), 7.6 (the position before the
  irregularity reinstated), 9.1.2.1, A.3 (one minute in rapid and blitz), A.4
  (rapid with full supervision), A.5.1.1, A.5.1.2, A.5.2 (rapid otherwise: no
  set-up claim after ten moves; the illegal move claimed), A.6, B.2, B.3, B.4,
  D.2.9 (the two boards differ).
"""

from __future__ import annotations

from chesslaws.clock import Clock
from chesslaws.errors import ChessLawsError, IllegalMove, UnreadableMove
from chesslaws.events import Event, EventError
from chesslaws.game.completion import _far_rank_pawn
from chesslaws.game.draws import _add_offer, _cite_fast_penalty, _in_quickplay_finish
from chesslaws.game.played import _after_move
from chesslaws.game.state import (
    NAME,
    GameError,
    GameState,
    UnseenAct,
    _Builder,
    _clock_times,
    _ordinal,
    draw,
    fmt_duration,
    mating_potential,
    other,
    win_for,
)
from chesslaws.mating import can_mate
from chesslaws.position import Position
from chesslaws.timecontrol import Color


def _illegal_moves_observed(s: GameState, text: str) -> bool:
    """Does the illegal move ``text`` get corrected at once (True), or stand until claimed?

    1997 blitz (C.3): it stands unless the opponent claims before moving.
    Without an arbiter present, illegal moves count only when claimed.
    2023 rapid and blitz with an arbiter for several games (A.5.2, B.3): the
    arbiter present observes the illegal move and acts under 7.5.5 before the
    opponent moves, as he observes a flag (6.8), except where it leaves both
    kings in check or a pawn on the furthest rank: for those A.5.4 has him wait
    until the next move is completed (:func:`_illegal_position_stays`).
    """
    if not s.config.arbiter_present or not s.config.observes_all:
        return False  # no arbiter, or one who sees only what he is logged to observe (``observe``)
    mode = s.config.mode
    if s.edition.illegal_move_stands_in_blitz and mode == "blitz":
        return False
    if s.edition.rapid_rulings_on_request and mode == "rapid":
        return False  # 1997 B.5: the arbiter rules under Article 10 (10.3) only when asked
    if s.config.partially_supervised:
        return not _arbiter_waits(s.position, text)
    return True


def _arbiter_waits(pos: Position, text: str) -> bool:
    """2023 A.5.4: the illegal move ``text`` leaves a position the arbiter watches until the next
    move is completed: a pawn on the rank furthest from its starting position, or both kings in check."""
    try:
        after = pos.play_illegal(text)
    except (IllegalMove, UnreadableMove):
        return False
    return _far_rank_pawn(after) is not None or (after.is_check() and after.is_irregular())


def _squares_of(uci: str) -> tuple[str, str] | None:
    t = uci.strip()
    if len(t) in (4, 5) and t[0] in "abcdefgh" and t[2] in "abcdefgh" and t[1] in "12345678" and t[3] in "12345678":
        return t[0:2], t[2:4]
    return None


def _reinstate(b: _Builder, before: GameState, t: int, offender: Color, touched: tuple[str, ...]) -> None:
    """Back to the position before an irregular move; the offender's clock runs
    with the times the clocks show now (Article 6.13: the arbiter's judgement)."""
    clock: Clock = b.get("clock")
    w = clock.remaining(t, "white")
    k = clock.remaining(t, "black")
    restored = before.clock
    if w is not None and k is not None:
        restored = restored.set_times(t, w, k)
    else:
        restored = restored.set_times(t, 0, 0)
    if restored.running is None:
        restored = restored.resume(t) if restored.paused is not None else restored.start(t, offender)
    b.set(position=before.position, keys=before.keys, moves=before.moves, offer=before.offer,
          counter=before.counter, clock=restored, touched=touched, touch_violation=None, illegal_pending=None,
          released=(), promotion_piece=None, promotion_touched=False, held_end=None)


def _illegal_consequence(b: _Builder, t: int, mover: Color, text: str, before: GameState) -> None:
    """The edition's consequence of an illegal move that is corrected
    (1989 8.1; 1997 7.4 and 10.3; 2023 7.5.1-7.5.5)."""
    s = b.s
    ed = s.edition
    count = dict(s.illegal_moves)
    count[mover] = count.get(mover, 0) + 1
    n = count[mover]
    b.set(illegal_moves=count)
    opp = other(mover)
    # The touch-move rules apply to the move replacing the illegal move (1989 8.1: Article 7;
    # 1997 7.4: 4.3; 2023 7.5.1: 4.3 and 4.7), so the pieces touched before it come first:
    # "the first piece touched which can be moved" may be one the illegal move did not move.
    squares = _squares_of(text)
    moved: tuple[str, ...] = ()
    if squares is not None:
        frm, to = squares
        moved = (frm,) + ((to,) if before.position.piece_at(to) is not None else ())
    touched = tuple(dict.fromkeys(before.touched + moved))
    _reinstate(b, before, t, mover, touched)
    if ed.draw_offer_rejected_by_touch:
        # Making the move meant touching a piece: that rejected the opponent's offer (2023 9.1.2.1).
        own = [o for o in (before.offer, before.counter) if o is not None and o.by == mover]
        b.set(offer=own[0] if own else None, counter=None)
    base = f"{NAME[mover]}'s move {text} is illegal; the position before it is reinstated"
    bound = _replacing_move_bound(before, mover, touched)
    fast = s.config.mode in ("rapid", "blitz")
    clock: Clock = b.get("clock")
    if ed.illegal_move_penalty == "every_move":
        if n >= 2:
            _second_illegal_move(b, t, mover, before.position, f"{base}. ")
            return
        bonus = 60_000 if fast else 120_000
        b.set(clock=clock.add_time(t, opp, bonus))
        b.rule(t, "illegal_move_penalty",
               f"{base} and {NAME[opp]} receives {bonus // 60_000} minute{'s' if bonus > 60_000 else ''}; "
               f"a second illegal move loses.{bound}")
        _cite_fast_penalty(b, t, opp, f"{NAME[mover]}'s illegal move")
        return
    if ed.illegal_move_penalty == "quickplay_finish" and _in_quickplay_finish(before, mover):
        if n >= 3:
            b.end(t, win_for(opp, "illegal_moves"), "illegal_move",
                  f"{base}. It is {NAME[mover]}'s third illegal move in the quickplay finish: "
                  f"{NAME[opp]} wins (Article 10.3).")
            return
        b.set(clock=clock.add_time(t, opp, 120_000))
        b.rule(t, "illegal_move",
               f"{base}; in the quickplay finish {NAME[opp]} receives 2 minutes for {NAME[mover]}'s "
               f"{_ordinal(n)} illegal move, and a third loses (Article 10.3).{bound}")
        return
    b.rule(t, "illegal_move", f"{base}.{bound}")


def _replacing_move_bound(before: GameState, mover: Color, touched: tuple[str, ...]) -> str:
    """What touch-move obliges of the move replacing an illegal move, as a sentence; the
    obligation itself is :func:`chesslaws.game.moving.allowed_by_touch`'s, on the next move."""
    if not touched:
        return f" {NAME[mover]} must make a legal move."
    article = before.edition.article("touch_move")
    if len(touched) == 1:
        return (f" Article {article} applies to the move replacing it: {NAME[mover]} touched {touched[0]} and "
                "must move or capture that piece if it can be moved or captured.")
    return (f" Article {article} applies to the move replacing it: {NAME[mover]} touched {', then '.join(touched)} "
            "and must move or capture the first piece touched that can be moved or captured.")


def _second_illegal_move(b: _Builder, t: int, mover: Color, position: Position, lead: str = "") -> None:
    """2023 7.5.5: the second illegal move loses, unless the opponent cannot checkmate by any series of
    legal moves from ``position``; ``lead`` goes before the ruling's words."""
    opp = other(mover)
    verdict = can_mate(position, opp)
    if verdict.can_mate is False:
        b.end(t, draw("illegal_moves"), "illegal_move_penalty",
              f"{lead}It is {NAME[mover]}'s second illegal move, but {NAME[opp]}{verdict.clause} cannot checkmate "
              f"by any series of legal moves{verdict.proof}: the game is drawn.")
    else:
        b.end(t, win_for(opp, "illegal_moves"), "illegal_move_penalty",
              f"{lead}It is {NAME[mover]}'s second illegal move: {NAME[opp]} wins.")


def _two_hands(b: _Builder, t: int, mover: Color, san: str) -> None:
    """A move made with two hands and the clock pressed: 2023 7.5.4 penalises it
    as an illegal move (7.5.5); 1997 4.1 only says one hand, the arbiter's
    penalty (13.4) being his to choose."""
    ed = b.s.edition
    if ed.two_hands_is_illegal:
        _penalise_when_seen(b, t, mover, "two_hands", f"{NAME[mover]} made the move {san} with two hands and "
                            "pressed the clock: it is penalised as an illegal move, and the move stands")
    elif "one_hand" in ed.articles:
        b.rule(t, "one_hand", f"{NAME[mover]} made the move {san} with two hands: each move is made with one hand "
               "only; the move stands, and any penalty is the arbiter's to give.")


def _penalise_when_seen(b: _Builder, t: int, mover: Color, rule: str, base: str) -> None:
    """2023 7.5.3-7.5.4, an act penalised as an illegal move: at once where the arbiter sees everything;
    with one who watches the board now and then (``"arbiter": "occasional"``) only when he observes it
    (``observe``) or the opponent claims it (``claim_win``) before his own next move; with none present
    (``"arbiter": "absent"``) only when the opponent claims it, as an illegal move nobody saw stands
    until claimed (A.5.2: "If the arbiter does not intervene, the opponent is entitled to claim"):
    unclaimed, it stands. Where A.5.2 applies (rapid and blitz, an arbiter for several games) the
    opponent's next move ends it: the act can no longer be acted on. Elsewhere (standard play, or
    full supervision, A.4 / B.2) the act is found and penalised whenever the arbiter observes it during
    the game, as an illegal move is (7.5.1: "if during a game it is found")."""
    cfg = b.s.config
    if not (cfg.arbiter_present and cfg.observes_all):
        act = UnseenAct(mover, rule, base, len(b.get("moves")))
        b.set(unseen=b.get("unseen") + (act,))
        return
    _penalise_as_illegal(b, t, mover, rule, base)


def _penalise_unseen(b: _Builder, t: int, act: UnseenAct) -> None:
    """An act :func:`_penalise_when_seen` left unseen, now observed or claimed."""
    b.set(unseen=tuple(a for a in b.get("unseen") if a is not act))
    _penalise_as_illegal(b, t, act.by, act.rule, act.words)


def _penalise_as_illegal(b: _Builder, t: int, mover: Color, rule: str, base: str) -> None:
    """2023 7.5.3-7.5.4: an irregularity "considered and penalised as if an illegal
    move": 7.5.5 -- the opponent gets two minutes (one in rapid and blitz), and the
    second illegal move loses unless the opponent cannot mate."""
    s = b.s
    count = dict(s.illegal_moves)
    count[mover] = count.get(mover, 0) + 1
    b.set(illegal_moves=count)
    opp = other(mover)
    b.rule(t, rule, base + ".")
    if count[mover] >= 2:
        _second_illegal_move(b, t, mover, b.get("position"))
        return
    bonus = 60_000 if s.config.mode in ("rapid", "blitz") else 120_000
    clock: Clock = b.get("clock")
    if not s.config.time_control.unlimited:
        b.set(clock=clock.add_time(t, opp, bonus))
    b.rule(t, "illegal_move_penalty", f"For this first illegal move {NAME[opp]} receives {bonus // 60_000} "
           f"minute{'s' if bonus > 60_000 else ''}; a second illegal move loses.")
    _cite_fast_penalty(b, t, opp, f"{NAME[mover]}'s irregularity, penalised as an illegal move")


def _on_press_clock(b: _Builder, ev: Event) -> None:
    """The player having the move presses the clock without making a move."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    if s.clock.running != by or by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}), whose clock runs, can press it")
    if s.edition.press_without_move_is_illegal:
        _penalise_when_seen(b, t, by, "press_without_move", f"{NAME[by]} pressed the clock without making a move: "
                            f"his clock is restarted and it is penalised as an illegal move")
        return
    b.rule(t, "press_without_move", f"{NAME[by]} pressed the clock without making a move: the arbiter restarts "
           f"{NAME[by]}'s clock; the Laws set no penalty for it.")


def _on_illegal_move(b: _Builder, ev: Event, mover: Color, text: str, offer: bool, *, press: bool = True) -> None:
    s = b.s
    t = ev.t_ms
    if _illegal_moves_observed(s, text):
        if s.config.partially_supervised:
            b.rule(t, "illegal_move_observed", f"The arbiter observes {NAME[mover]}'s illegal move {text} before "
                   f"{NAME[other(mover)]} has made his next move, and acts under Article 7.5.5.")
        queen = _queen_for_unreplaced(s.position, text) if s.edition.unreplaced_promotion_is_queen else None
        if queen is not None:
            _unreplaced_promotion(b, t, mover, text, queen, offer)
            return
        # The move was made and the clock pressed; the arbiter corrects it at once.
        _illegal_consequence(b, t, mover, text, s)
        if offer:
            _offer_survives(b, mover, t)
        return
    # 1997 blitz (C.3), or no arbiter present: the move stands until claimed.
    try:
        nxt = s.position.play_illegal(text)
    except (IllegalMove, UnreadableMove) as err:
        raise EventError(f"field 'move': {err}", field="move") from None
    squares = _squares_of(text)
    label = f"{squares[0]}-{squares[1]}" if squares else text
    _after_move(b, t, mover, label, text.strip(), nxt, offer_draw=offer, illegal=True, press=press)
    b.set(illegal_pending=s)


def _on_claim_win(b: _Builder, ev: Event) -> None:
    """The claim after an illegal move that stands (1997 C.3; without an arbiter present)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    before = s.illegal_pending
    offender = other(by)
    claimable = [a for a in s.unseen if a.by == offender and not a.answered]
    if before is None and claimable:
        _penalise_unseen(b, t, claimable[-1])  # the opponent claims what the arbiter did not see (7.5.3, 7.5.4)
        return
    if before is None or s.turn != by:
        raise GameError(ev, f"there is no illegal move by {NAME[offender]} for {NAME[by]} to claim "
                        "(the claim must come before the claimant's own move)")
    text = s.moves[-1].uci
    if s.edition.illegal_move_stands_in_blitz and s.config.mode == "blitz":
        ok, why = mating_potential(before.position, by)
        if ok:
            b.end(t, win_for(by, "illegal_moves"), "illegal_move_blitz",
                  f"{NAME[by]} claims {NAME[offender]}'s illegal move {text} before moving, and {NAME[by]} "
                  f"{why}: {NAME[by]} wins.")
        else:
            b.end(t, draw("illegal_moves"), "mating_potential",
                  f"{NAME[by]} claims {NAME[offender]}'s illegal move {text}, but {NAME[by]} {why}, "
                  "without mating potential: the game is drawn.")
        return
    _correct_standing(b, t, offender, text, before, s.moves[-1].draw_offer)


def _correct_standing(b: _Builder, t: int, offender: Color, text: str, before: GameState, offered: bool) -> None:
    """An illegal move that stood, claimed or found at ``t``, corrected: the position ``before`` it is
    reinstated with the edition's consequence (a promotion where the pawn was not replaced: 2023 7.5.2)."""
    s = b.s
    queen = _queen_for_unreplaced(before.position, text) if s.edition.unreplaced_promotion_is_queen else None
    if queen is not None:
        _reinstate(b, before, t, offender, ())
        _unreplaced_promotion(b, t, offender, text, queen, offered)
        return
    _illegal_consequence(b, t, offender, text, before)
    if offered:
        _offer_survives(b, offender, t)


def _queen_for_unreplaced(pos: Position, text: str) -> str | None:
    """The queen promotion (UCI) for a pawn's move to the last rank written
    without its new piece (``a7a8``, ``a8``, ``axb8``), if that promotion is
    legal; None for any other move."""
    t = text.strip()
    squares = _squares_of(t)
    if squares is not None and len(t) == 4:
        frm, to = squares
        piece = pos.piece_at(frm)
        if piece is None or piece.upper() != "P" or to[1] not in "18":
            return None
        candidate = t + "q"
    elif 2 <= len(t) <= 5 and t[0] in "abcdefgh" and t[-1] in "18" and "=" not in t:
        candidate = t + "=Q"
    else:
        return None
    try:
        return pos.parse_move(candidate)
    except ChessLawsError:
        return None


def _unreplaced_promotion(b: _Builder, t: int, mover: Color, text: str, queen: str, offer: bool) -> None:
    """2023 7.5.2: a pawn moved to the last rank, the clock pressed, the pawn not
    replaced: the move is illegal and the pawn is replaced by a queen; 7.5.5
    then applies (the opponent gets two minutes, one in rapid and blitz; a
    second illegal move loses, unless the opponent cannot mate)."""
    s = b.s
    count = dict(s.illegal_moves)
    count[mover] = count.get(mover, 0) + 1
    b.set(illegal_moves=count)
    opp = other(mover)
    pos: Position = b.get("position")
    base = (f"{NAME[mover]} moved a pawn to the last rank ({text}) and pressed the clock without replacing it: "
            "the move is illegal")
    if count[mover] >= 2:
        _second_illegal_move(b, t, mover, pos, f"{base}. ")
        return
    san, uci, nxt = pos.play_annotated(queen)
    b.rule(t, "unreplaced_promotion", f"{base}; the pawn is replaced by a queen of its colour ({san}).")
    _after_move(b, t, mover, san, uci, nxt, offer_draw=offer)
    if b.get("status") == "ongoing":
        bonus = 60_000 if s.config.mode in ("rapid", "blitz") else 120_000
        b.set(clock=b.get("clock").add_time(t, opp, bonus))
        b.rule(t, "illegal_move_penalty", f"For this first illegal move {NAME[opp]} receives {bonus // 60_000} "
               f"minute{'s' if bonus > 60_000 else ''}; a second illegal move loses.")
        _cite_fast_penalty(b, t, opp, f"{NAME[mover]}'s illegal move")


def _offer_survives(b: _Builder, by: Color, t: int) -> None:
    """A draw offer made with an illegal move outlives its reinstatement: an
    offer cannot be withdrawn and one made at any moment is valid (1989 10.8-10.9,
    1997 9.1, 2023 9.1.2.1)."""
    if b.get("status") != "ongoing":
        return
    _add_offer(b, by, t)
    b.rule(t, "draw_offer", f"{NAME[by]}'s draw offer, made with the illegal move, stands: an offer cannot be "
           f"withdrawn, and {NAME[other(by)]} may still accept it.")


def _on_reinstate(b: _Builder, ev: Event) -> None:
    """The arbiter goes back to the position after ``ply`` moves: the last
    identifiable position before an irregularity (1989 8.1-8.2, 1997 7.4,
    2023 7.6), or where the two game scores of a game with a visually
    disabled player agree (2023 D.2.9); the clocks as he sets them."""
    s = b.s
    t = ev.t_ms
    n = int(ev.get("ply"))
    if s.claims or s.envelope is not None:
        raise GameError(ev, "a claim or a sealed move is pending")
    if not 0 <= n < len(s.moves):
        raise EventError(f"field 'ply': keep between 0 and {len(s.moves) - 1} of the {len(s.moves)} moves made "
                         f"(not {n})", field="ply")
    kept = s.moves.prefix(n)
    pos = _position_after(s, n)
    times = _clock_times(ev)
    clock = s.clock
    was = clock.running or clock.paused
    white_moves = sum(1 for m in kept if m.color == "white")
    black_moves = len(kept) - white_moves
    if clock.running is not None:
        clock = clock.stop(t)
    clock = clock.take_back(t, pos.turn, min(white_moves, clock.moves("white")), min(black_moves, clock.moves("black")))
    if was is None:
        clock = clock.stop(t)
    if times is not None:
        clock = clock.set_times(t, *times)
    b.set(position=pos, keys=s.keys.prefix(n + 1), moves=kept, clock=clock, offer=None, counter=None, touched=(),
          touch_violation=None, illegal_pending=None, displaced=None)
    reason = ev.get("reason")
    rule = "boards_differ" if reason == "boards_differ" and s.config.visually_disabled else "reinstate"
    last = f"after {(n + 1) // 2}{'.' if n % 2 else '...'} {kept[-1].san}" if kept else "at the start"
    set_to = (f"; the clocks are set to White {fmt_duration(times[0])}, Black {fmt_duration(times[1])}"
              if times is not None else "")
    why = f" ({reason.replace('_', ' ')})" if reason else ""
    b.rule(t, rule, f"The arbiter reinstates the position {last}{why}: {len(s.moves) - n} move"
           f"{'s are' if len(s.moves) - n > 1 else ' is'} taken back{set_to}; {NAME[pos.turn]} has the move.")


def _position_after(s: GameState, n: int) -> Position:
    """The position after the first ``n`` moves of the game (those that stood illegal included)."""
    pos = s.config.initial_position()
    for m in s.moves[:n]:
        pos = pos.play_illegal(m.uci) if m.illegal else pos.play(m.uci)
    return pos


def _colours_reversed(b: _Builder, t: int, made: int) -> None:
    """The game began with colours reversed. 2023 7.3: while fewer than ten moves have been made
    by both players it is discontinued and a new game played with the correct colours; after
    that it continues. 1997 7.2: it continues unless the arbiter rules otherwise; 1989 8.6: it
    continues once a quarter of both players' time for the first control has elapsed, and
    earlier the arbiter may arrange a new game. Where the arbiter chooses, he annuls with
    ``annul``."""
    s = b.s
    rule = s.edition.colours_reversed
    if rule == "ten_moves" and made < 10:
        b.rule(t, "colours_reversed", "The game began with colours reversed and fewer than ten moves have been made "
               "by both players: it is discontinued and a new game is played with the correct colours.")
        clock = s.clock.stop(t) if s.clock.running is not None else s.clock
        b.set(status="annulled", outcome=None, clock=clock, offer=None, claims=())
        return
    if rule == "ten_moves":
        why = f"each player has made {made} moves (ten or more)"
    elif rule == "arbiter":
        why = "unless the arbiter rules otherwise (he would annul the game)"
    else:
        why = ("if more than a quarter of both players' time for the first time control has elapsed; earlier the "
               "arbiter may arrange a new game with the correct colours (he would annul this one)")
    b.rule(t, "colours_reversed", f"The game began with colours reversed: it continues, {why}.")


def _annulment_rule(s: GameState, reason: str) -> str:
    """The rule under which the arbiter annuls, read from his ``reason``: a wrong initial
    position (1989 8.5, 1997 7.1(a), 2023 7.2.1), colours reversed (1989 8.6, 1997 7.2, 2023
    7.3), a position that cannot be reinstated (1989 8.1 for an illegal move, 8.2 for displaced
    pieces); otherwise the arbiter acting in the best interest of the competition (1989 16.4,
    1997 13.2, 2023 12.2.2)."""
    text = reason.lower()
    if "initial position" in text or "set up" in text or "set-up" in text or "setup" in text:
        return "wrong_initial_position"
    if "colour" in text or "color" in text:
        return "colours_reversed"
    if s.edition.annul_when_not_reinstatable and "reinstat" in text:
        return "illegal_move" if "illegal" in text else "reinstate"
    return "adjudication"


def _on_annul(b: _Builder, ev: Event) -> None:
    reason = ev.get("reason")
    why = reason or "the arbiter's decision"
    b.rule(ev.t_ms, _annulment_rule(b.s, str(reason or "")), f"The game is annulled: {why}.")
    clock = b.s.clock.stop(ev.t_ms) if b.s.clock.running is not None else b.s.clock
    b.set(status="annulled", outcome=None, clock=clock, offer=None, claims=())


def _on_claim_setup(b: _Builder, ev: Event) -> None:
    """Claims about the set-up: wrong initial position, board, clock setting, colours reversed
    (1989 8.5-8.7; 1997 7.1, 7.2, B.4; 2023 7.2.1, 7.2.2, 7.3, A.5.1)."""
    s = b.s
    t = ev.t_ms
    what = str(ev.get("what"))
    fast = s.config.mode in ("rapid", "blitz")
    # 1997 B.4 in rapid and blitz; 2023 A.5.1.2 where the arbiter supervises several games (A.5, B.3).
    ed = s.edition
    limit = ed.setup_claim_moves if not ed.partial_supervision or s.config.partially_supervised else 0
    made = min(sum(1 for m in s.moves if m.color == c) for c in ("white", "black"))
    if what == "colours":
        _colours_reversed(b, t, made)
        return
    if fast and limit and made >= limit:
        b.rule(t, "setup_claim", f"{NAME[ev.by or 'white']}'s claim about the {what.replace('_', ' ')} is too late: "
               f"once each player has made {'three' if limit == 3 else 'ten'} moves no such claim can be made.")
        return
    if what == "initial_position":
        b.rule(t, "wrong_initial_position", "The initial position was incorrect: the game is annulled and a new game is played.")
        clock = s.clock.stop(t) if s.clock.running is not None else s.clock
        b.set(status="annulled", outcome=None, clock=clock, offer=None, claims=())
    elif what == "board":
        b.rule(t, "board_placed_wrongly", "The board was placed wrongly: the position reached is transferred to a "
               "correctly placed board and the game continues.")
    else:
        b.rule(t, "set_clocks", "The clock setting is disputed in time: the arbiter corrects the clocks.")
