"""What a tournament's boards are to its arbiter: the games' tokens sealed with his, a game as the round
console shows it, and a board's result from its game's final state (the one function every result of the
standings comes through). Pure: the service that uses them is :mod:`chesslaws.tournament.live`."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from typing import Any

from chesslaws.tournament.model import BoardResult, Tournament, result_from_game_state


def _stream(key: str, game_id: str, n: int) -> bytes:
    out = b""
    block = 0
    while len(out) < n:
        out += hmac.new(key.encode("utf-8"), f"{game_id}/{block}".encode(), hashlib.sha256).digest()
        block += 1
    return out[:n]


def seal(game_token: str, arbiter_token: str, game_id: str) -> str:
    """A game's arbiter token sealed with the tournament arbiter's token (hex)."""
    raw = game_token.encode("utf-8")
    return bytes(a ^ b for a, b in zip(raw, _stream(arbiter_token, game_id, len(raw)))).hex()


def unseal(sealed: str, arbiter_token: str, game_id: str) -> str:
    raw = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(raw, _stream(arbiter_token, game_id, len(raw)))).decode("utf-8")


def _san_list(moves: list[tuple[int, str, str]], last: int) -> str:
    """The last ``last`` moves (ply, colour, SAN) as a scoresheet reads them: ``23. Nf3 Nc6 24. e4``."""
    parts: list[str] = []
    for i, (ply, color, san) in enumerate(moves[-last:]):
        number = (ply + 1) // 2  # ply 1 is White's first move
        if color == "white":
            parts.append(f"{number}. {san}")
        elif i == 0:
            parts.append(f"{number}… {san}")
        else:
            parts.append(san)
    return " ".join(parts)


def retired_console(view: dict[str, Any]) -> dict[str, Any]:
    """A game that is over and out of memory, from its stored final view (no replay)."""
    moves = [(int(m["ply"]), str(m["color"]), str(m["san"])) for m in view.get("moves", [])]
    clocks = view.get("clocks") or {}
    return {
        "status": view.get("status"), "result": view.get("result"), "termination": view.get("termination"),
        "started": True, "held": False, "ply": view.get("ply", len(moves)), "turn": view.get("turn"),
        "last_moves": _san_list(moves, 4),
        "clocks": {"white_ms": clocks.get("white_ms"), "black_ms": clocks.get("black_ms"), "running": None,
                   "timed": view.get("time_control", "-") != "-"},
        "clocks_stopped": False, "flags": [], "pending": [], "absent": [], "present_early": [], "waiting_for": [],
        "to_decide": [],
    }


def game_console(hub: Any, live: Any) -> dict[str, Any]:
    """One game as the round's arbiter console shows it (the state at the server's instant: ``hub.t_of``,
    ``hub.game_now`` and ``hub.waiting_for`` of the server's hub)."""
    t = hub.t_of(live)
    st = hub.game_now(live).state
    cfg = st.config
    timed = not cfg.time_control.unlimited
    ongoing = st.status == "ongoing"
    clocks = {c: st.remaining_ms(c) for c in ("white", "black")}
    stopped = ongoing and timed and st.clock.running is None
    pending = st.pending()
    # What waits for the arbiter's decision, by kind (the page words it in its reader's language): a pending
    # claim, incident or appeal (its kind, by whom, why), a flag down, clocks stopped, an adjournment, an
    # annulled game whose board needs its result.
    decide: list[dict[str, Any]] = []
    for p in pending:
        if p["kind"] not in ("draw_offer", "illegal_move_claimable", "touch_move_claimable"):
            decide.append({"kind": p["kind"], "by": p.get("by"), "reason": p.get("reason")})
    flags = [c for c in ("white", "black") if ongoing and timed and (ms := clocks[c]) is not None and ms <= 0]
    decide += [{"kind": "flag", "by": c} for c in flags]
    if stopped:
        decide.append({"kind": "clocks_stopped"})
    if st.status in ("adjourned", "annulled"):
        decide.append({"kind": st.status})
    # Before t=0 the log has every player absent; who has opened the game (the hub's early arrivals) will be
    # at the board from the start: the console shows who has not, before the arbiter starts the round.
    early = live.early if t < 0 and ongoing else set()
    return {
        "status": st.status, "result": st.result, "termination": st.termination,
        "started": t >= 0, "held": live.held, "ply": len(st.moves), "turn": st.turn,
        "last_moves": _san_list([(m.ply, m.color, m.san) for m in st.moves[-4:]], 4),
        "clocks": {"white_ms": clocks["white"], "black_ms": clocks["black"],
                   "running": st.clock.running if ongoing else None, "timed": timed},
        "clocks_stopped": stopped, "flags": flags,
        "pending": pending, "absent": sorted(st.absent - early), "present_early": sorted(early & st.absent),
        "default_time_ms": cfg.default_time_ms, "waiting_for": hub.waiting_for(live), "to_decide": decide,
    }



#: A board's termination when its game was annulled: it has no result until the arbiter enters one.
ANNULLED = "annulled"
BoardOutcome = tuple[BoardResult | None, str | None]


def board_of_game(game: Any) -> BoardOutcome:
    """A board's result and termination from its game's final state (a game that is over or annulled): the
    one function every result of the standings comes through."""
    state = game.state
    if state.status == "annulled":
        return None, ANNULLED
    return result_from_game_state(state.result, state.termination), state.termination


def with_board_outcome(t: Tournament, number: int, table: int, outcome: BoardOutcome) -> Tournament:
    """The event with the board's result and termination replaced (a result None: the board has none)."""
    result, termination = outcome
    rnd = t.round(number)
    boards = tuple(dataclasses.replace(b, result=result, termination=termination) if b.table == table else b
                   for b in rnd.boards)
    rounds = list(t.rounds)
    rounds[number - 1] = dataclasses.replace(rnd, boards=boards)
    return dataclasses.replace(t, rounds=tuple(rounds))
