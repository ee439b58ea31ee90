"""What a player may put in a game's log: every event type a player may send counts
against a limit, before and after the game's end, except the few that make the game go on or end it.

The limited kinds are the complement of :data:`MOVING` among the kinds a player may send (read from the
events' schemas), so that a kind added later is limited without anybody remembering to list it. A
kind missing from a hand-written list (``request_explanation``, ``request_scoresheet``, ``displace``,
``scoresheet``, say) would let one player fill the 3,000-event log with it alone.

The budget of one side in one game, counted from the log (a restart or another process counts the same):

- while the game is in play, or adjourned: ``events_aside_per_move`` events that neither move nor end the
  game in one position (since the last move) and ``events_aside_per_game`` in the game; claims that
  left the game going, ``claims_per_move`` and ``claims_per_game`` (2023 11.5: "unreasonable claims");
- after the end: ``signatures_per_game`` signatures (the first and a few replacements: 2023 8.7) and
  ``recourse_per_game`` requests for an explanation and appeals (2023 11.9, 11.10) in the whole game;
- every text a player writes in an event (a question, an appeal's reason) is at most ``text_chars``
  characters; a list (squares, a written game score) at most ``list_items`` short items.

So one player alone puts at most about ``events_aside_per_game + signatures_per_game + recourse_per_game``
events besides his moves into the log: with the defaults (300 + 3 + 8) the log's 3,000 events are out
of his reach; only about 1,200 moves played by both players fill it, and they can still end the game
themselves (a resignation, a correct claim, an agreed draw's acceptance are always taken).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from chesslaws.events import SCHEMAS, Event
from chesslaws.game.state import GameState
from chesslaws.server.guard import Limits

#: Every event type a player may send (the schemas' "player" and "any" kinds; ``start`` is the log's first line).
PLAYER_KINDS = frozenset(k for k, s in SCHEMAS.items() if s.by in ("player", "any") and k != "start")
#: The events that make the game go on: free when they did (a move; the press that completes it).
MOVING = frozenset({"move", "press_clock"})
#: Every other kind a player may send is limited.
LIMITED = PLAYER_KINDS - MOVING
#: The claims whose failure leaves the game going: repeated, they may annoy the opponent.
CLAIMS = frozenset({"claim_draw", "claim_flag", "claim_win", "claim_touch_move", "claim_setup"})
#: A player's recourse after the end as during the game: an explanation, an appeal (2023 11.9, 11.10).
RECOURSE = frozenset({"request_explanation", "appeal"})
SIGN = "sign"


def progressed(kind: str, before: GameState, new: GameState) -> bool:
    """Whether the event moved the game on or ended it (or adjourned it): never refused by the budget."""
    if new.status != before.status:
        return True
    return kind in MOVING and (len(new.moves) != len(before.moves) or new.clock.running != before.clock.running)


def text_refusal(body: Mapping[str, Any], limits: Limits) -> str | None:
    """Why a player's event is refused for its size (a text or a list too long), or None. Checked before the
    event is judged: nothing is logged."""
    for name, value in body.items():
        if isinstance(value, str) and len(value) > limits.text_chars:
            return (f"field {name!r}: at most {limits.text_chars} characters ({len(value)} sent): a question, a "
                    "reason or a move is said in a few sentences")
        if isinstance(value, list):
            if len(value) > limits.list_items:
                return f"field {name!r}: at most {limits.list_items} items ({len(value)} sent)"
            for item in value:
                if not isinstance(item, str) or len(item) > 16:
                    return f"field {name!r}: each item is a square or a move (a short string)"
    return None


def refusal(limits: Limits, kind: str, by: str, events: Sequence[Event], before: GameState,
            new: GameState) -> str | None:
    """Why a player's event, already judged (``new``: the state after it, ``before``: the state before; ``events``:
    the log before it), may not go into the log, or None when it may. A claim that is correct or that the
    arbiter must decide, a move, and an event that ends the game are never refused here."""
    if by not in ("white", "black") or kind not in PLAYER_KINDS or progressed(kind, before, new):
        return None
    if kind in CLAIMS and new.claims:
        return None
    art = new.config.edition.article("annoyance")
    who = by.capitalize()
    if before.status in ("finished", "annulled"):  # after the end: signatures and recourse only
        return _after_end(limits, kind, by, events, who, art)
    claims = kind in CLAIMS
    in_position, in_game, moved = 0, 0, False
    for event in reversed(events):  # this side's earlier ones: since the last move, in the whole game
        if event.type == "move":
            moved = True
            continue
        if event.by != by or event.type not in LIMITED and event.type != "press_clock":
            continue
        if claims and event.type not in CLAIMS:
            continue
        if event.type == "press_clock":  # (one completes each of one's moves: counted in its position only)
            in_position += not moved
            continue
        in_game += 1
        in_position += not moved
    per_move, per_game = ((limits.claims_per_move, limits.claims_per_game) if claims
                          else (limits.events_aside_per_move, limits.events_aside_per_game))
    what = "claims that did not end the game" if claims else "events that neither moved nor ended the game"
    tail = ("a claim that is correct is always accepted" if claims
            else "a move, or an event that ends the game, is always accepted")
    if per_move and in_position >= per_move:
        return (f"refused, not recorded: {who} has made {in_position} {what} in this position; more would annoy "
                f"the opponent (Article {art}). Try again after the next move; {tail}")
    if per_game and in_game >= per_game:
        return (f"refused, not recorded: {who} has made {in_game} {what} in this game; more would annoy the "
                f"opponent (Article {art}); {tail}")
    return None


def _after_end(limits: Limits, kind: str, by: str, events: Sequence[Event], who: str, art: str) -> str | None:
    if kind == SIGN:
        done = sum(1 for e in events if e.by == by and e.type == SIGN)
        if limits.signatures_per_game and done >= limits.signatures_per_game:
            return (f"refused, not recorded: {who} has signed the scoresheets {done} times in this game; a "
                    "signature is given once and corrected at most a few times (Article 8.7 of the 2023 Laws); "
                    "the arbiter may still decide the result")
        return None
    if kind in RECOURSE:
        done = sum(1 for e in events if e.by == by and e.type in RECOURSE)
        if limits.recourse_per_game and done >= limits.recourse_per_game:
            return (f"refused, not recorded: {who} has made {done} requests for an explanation and appeals in this "
                    f"game; more would annoy the opponent and the arbiter (Article {art}); ask the arbiter in person")
        return None
    return f"refused, not recorded: the game is over; only a signature, a request or an appeal is taken (Article {art})"
