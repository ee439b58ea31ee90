"""What a game looks like to its viewers: the state message (the spec's state, plus what a board needs:
moves with their FENs, legal moves, names, the server's time), the lobby's summary, the moves and legal
moves in a scoresheet language's letters (:mod:`chesslaws.notation`), and the message texts the broadcast
splices without encoding a state twice."""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping, Sequence

import orjson

from chesslaws.events import ms_to_t
from chesslaws.game.flags import due
from chesslaws.game.state import GameState
from chesslaws.history import Moves
from chesslaws.notation import LANGUAGES, write_move
from chesslaws.position import STARTING_FEN, Position
from chesslaws.server.controls import controls, quickplay_players
from chesslaws.server.live import LiveGame
from chesslaws.server.rulingtexts import localise_rulings
from chesslaws.server.rules import abort_cause, abort_deadline_ms, aborted, competition, seen_at, waiting_for
from chesslaws.store.rows import dumps

log = logging.getLogger("chesslaws.server")

#: The beginning of every state message: ``{"kind":"state","state":`` and the state.
STATE_HEAD = '{"kind":"state","state":'


def with_state(ack: dict[str, Any], state_message: str) -> str:
    """The acknowledgement ``ack`` with the state of ``state_message`` (a serialised
    ``{"kind": "state", "state": {...}}``) as its ``"state"``, without encoding the state again."""
    assert state_message.startswith(STATE_HEAD)
    return dumps(ack)[:-1] + ',"state":' + state_message[len(STATE_HEAD):]


def state_text(state: dict[str, Any], legal: str) -> str:
    """The message ``{"kind": "state", "state": state}`` with ``legal`` (JSON text) as the state's
    ``"legal_moves"`` (the last key), without decoding and encoding it again (see :meth:`Views.parts`)."""
    return dumps({"kind": "state", "state": state})[:-2] + ',"legal_moves":' + legal + "}}"


def clocks_at(clocks: dict[str, Any], st: GameState, ms: int) -> None:
    """``clocks``, the clocks of ``st.to_json()``, as they stand at the later instant ``ms`` when nothing
    happens by itself by then (:func:`~chesslaws.game.flags.due` is false): as in ``st`` at ``ms``, only
    the running side's time has run on (:meth:`~chesslaws.clock.Clock.remaining` at ``ms``, as the
    state's own ``to_json`` reads it at its instant). Cheaper than the state at ``ms`` (a test holds the
    two equal)."""
    running = st.clock.running
    if running is not None:
        clocks["white_ms" if running == "white" else "black_ms"] = st.clock.remaining(ms, running)


#: A live game keeps the FEN after every this many moves for its view (see Views.move_list).
FEN_STEP = 32

#: The letters of a move in a language, by (language, English SAN): shared by every game (bounded).
_LETTERS: dict[tuple[str, str], str] = {}


def common_prefix(sent: Sequence[Any] | None, now: Sequence[Any]) -> int:
    """How many of the moves ``now`` a viewer that was sent ``sent`` already has. Move records are
    shared between successive states (a later state's moves are a longer view of the same buffer, or
    a tuple beginning with the same objects), so this is cheap; a takeback or correction shortens the
    prefix."""
    if sent is None:
        return 0
    common = getattr(sent, "common_prefix", None)  # two views of packed moves (not isinstance: slower)
    if common is not None and type(sent) is type(now):
        return int(common(now))
    n = min(len(sent), len(now))
    if n == 0 or sent[n - 1] is now[n - 1]:
        return n
    k = 0
    while k < n and sent[k] is now[k]:
        k += 1
    return k


def public_event(event: Mapping[str, Any], *, arbiter: bool) -> dict[str, Any]:
    """A log line as a viewer may see it: a sealed move stays hidden from all but the arbiter."""
    out = dict(event)
    if out.get("type") == "seal" and not arbiter:
        out["move"] = None
    return out


def languages() -> list[dict[str, str]]:
    """The scoresheet languages :mod:`chesslaws.notation` knows (code and name), English first."""
    out = [{"code": str(code), "name": str(lang.name or code)} for code, lang in LANGUAGES.items()]
    out.sort(key=lambda d: (d["code"] != "en", d["name"]))
    return out if out and out[0]["code"] == "en" else [{"code": "en", "name": "English"}] + out


class Views:
    """The views of the live games. ``t_of``: a game's time at the server's instant; ``store_down``: whether
    the store is unreachable now; ``watching``: whether an arbiter's console of a game is open."""

    def __init__(self, t_of: Callable[[LiveGame], float], store_down: Callable[[], bool],
                 watching: Callable[[LiveGame], bool]) -> None:
        self.t_of = t_of
        self.store_down = store_down
        self.watching = watching
        self.write_move = write_move
        self.languages = languages()
        self.codes = frozenset(d["code"] for d in self.languages)
        #: The rematch of each game that has one (game id -> the rematch's id), as :mod:`chesslaws.server.rematch`
        #: makes them: the state says so, and the page asks for nothing.
        self.rematches: dict[str, str] = {}

    def language_of(self, lang: str | None) -> str:
        """The scoresheet language a request asks for, if the server has it; English otherwise (the
        state's ``lang`` says which was used). Only these codes ever key a game's caches: a client
        cannot grow them with values of its own."""
        return lang if lang is not None and lang in self.codes else "en"

    def view(self, live: LiveGame, lang: str = "en", moves_from: int = 0) -> dict[str, Any]:
        """The state of the spec, plus what a board needs: moves, legal moves, names, server time.
        ``moves_from``: the moves from that index on only (a broadcast to viewers that have the earlier
        ones, see :mod:`chesslaws.server.broadcast`); every other view has them all."""
        out, legal = self.parts(live, lang, moves_from)
        out["legal_moves"] = orjson.loads(legal)
        return out

    def parts(self, live: LiveGame, lang: str, moves_from: int) -> tuple[dict[str, Any], str]:
        """:meth:`view` without its legal moves, and the legal moves as JSON text (the core writes them so,
        for the broadcast to splice into its message: see :func:`state_text`)."""
        lang = self.language_of(lang)
        t = self.t_of(live)
        game = live.game
        st = game.state
        ms = round(t * 1000)
        if ms > st.t_ms and due(st, ms):  # something happened by itself by t: the game as it stands then
            game = game.at(t)
            st = game.state
        cfg = st.config
        out = game.to_json()
        if ms > st.t_ms:  # nothing else changed by t but the running clock (flags.due): its time at t
            clocks_at(out["clocks"], st, ms)
        local = lang != "en"
        if local:  # the rulings in the reader's language (each text translated once and kept)
            localise_rulings(out["rulings"], lang)
        moves = self.move_list(live, st.moves, cfg.fen, lang if local else "en", cfg.chess960, moves_from)
        live.view_records = st.moves
        legal = "[]"
        if st.ongoing:
            pos, key = st.position, lang if local else "en"
            kept = live.legal_cache
            if kept is not None and kept[0] is pos and kept[1] == key:
                legal = kept[2]
            else:
                if local:
                    listed = [{"uci": u, "san": s} for u, s in pos.legal_moves_san()]
                    self.localise_legal(listed, pos, lang)
                    legal = dumps(listed)
                else:
                    legal = pos.legal_moves_json()
                live.legal_cache = (pos, key, legal)
        fixed = live.config_cache.get(lang)
        if fixed is None or fixed[0] is not cfg:
            fixed = live.config_cache[lang] = (cfg, {
                "edition": cfg.edition.name,
                "time_control": str(cfg.time_control) if not cfg.time_control.unlimited else "-",
                "mode": cfg.mode,
                "arbiter": ("absent" if not cfg.arbiter_present else "present" if cfg.observes_all else "occasional"),
                "visually_disabled": sorted(cfg.visually_disabled),
                "assistants": sorted(cfg.assistants),
                "flags_observed": cfg.flags_observed,
                "default_time_ms": cfg.default_time_ms,
                "initial_fen": cfg.fen,
                "variant": "chess960" if cfg.chess960 else "standard",
                "chess960": cfg.chess960,
                "start_position": cfg.start_number,
                "regulations": cfg.regulations.to_json(),  # the event's regulations the Laws defer to
                "competition": competition(cfg),
                # The controls depend on the configuration and the language only (server/controls.py).
                "controls": controls(st, lang),
            })
        out.update(fixed[1])
        # Who is in the quickplay finish now (the last period): the moves decide it, so not in the controls kept.
        out["quickplay_players"] = quickplay_players(st) if fixed[1]["controls"]["quickplay"] is not None else []
        # Written key by key (the order of the message's keys is this one): about 1 µs less than a dictionary
        # built and then copied in, at every broadcast.
        names, hashes = live.names, live.token_hashes
        out["id"] = live.id
        out["seq"] = live.seq
        out["server_t"] = t
        out["started"] = t >= 0
        out["white"] = names.get("white") or cfg.white
        out["black"] = names.get("black") or cfg.black
        out["seats_open"] = [s for s in ("white", "black") if not hashes.get(s)]
        out["interface"] = live.interface
        out["moves"] = moves
        out["check"] = st.position.is_check()
        out["absent"] = sorted(st.absent) if st.absent else []
        out["lang"] = lang
        out["waiting_for"] = waiting_for(live)
        abort = abort_deadline_ms(live) if live.abort_after is not None else None
        out["abort_at"] = None if abort is None else ms_to_t(abort)
        out["aborted"] = st.status == "annulled" and aborted(game)
        # Why, as a code the page words in its reader's language (the ruling's English is no page's to read).
        out["abort"] = abort_cause(game) if out["aborted"] else None
        out["store_down"] = self.store_down()
        out["arbiter_watching"] = self.watching(live)
        out["arbiter_is_a_player"] = cfg.arbiter_is_a_player
        out["held"] = live.held
        out["rematch"] = self.rematches.get(live.id)
        return out, legal

    def move_list(self, live: LiveGame, records: Sequence[Any], fen: str, lang: str,
                   chess960: bool = False, start: int = 0) -> list[dict[str, Any]]:
        """The moves from ``start`` on as the page shows them (with each move's resulting FEN, and its
        letters in the scoresheet's language). A live game keeps no FEN or dictionary per move:
        the core replays the moves, in one call, from the nearest FEN kept (every FEN_STEP-th
        move's and the last move viewed's), so that a broadcast to viewers that have the earlier moves
        plays the new ones only, and a whole list replays the game once. A move's letters in a language
        are those of its English SAN (notation.write_move translates the SAN), shared by every game."""
        marks = live.move_fens
        n = common_prefix(live.move_records, records)  # a takeback or correction shortens it
        del marks[n // FEN_STEP:]
        live.move_records = records
        end = len(records)
        first = min(max(0, start), end)
        i = min(first // FEN_STEP, len(marks)) * FEN_STEP
        before: str | None = marks[i // FEN_STEP - 1] if i else fen
        tail = live.move_tail
        if tail is not None and i < tail[0] <= min(first, n):
            i, before = tail
        # The moves' fields, read at once from a packed history (records are built when read).
        recs = (records.rows(i, end) if isinstance(records, Moves)
                else [(m.ply, m.color, m.san, m.uci, m.t_ms, m.clock_ms, m.draw_offer) for m in records[i:end]])
        ucis = [m[3] for m in recs]
        fens: list[str | None] = [None] * len(ucis)
        if before is not None and ucis:
            fens = Position(before, chess960=chess960).fens_after(ucis)
            if fens[-1] is None:  # a move the board cannot replay (one that stood illegally)
                log.warning("cannot replay %s", ucis[fens.index(None)])
        while i <= (len(marks) + 1) * FEN_STEP - 1 < end:  # the FENs kept that this replay reached
            marks.append(fens[(len(marks) + 1) * FEN_STEP - 1 - i])
        live.move_tail = (end, fens[-1] if fens else before)
        out: list[dict[str, Any]] = []
        for k in range(first, end):
            ply, color, san, uci, t_ms, clock_ms, offer = recs[k - i][:7]
            after = fens[k - i]
            d: dict[str, Any] = {"ply": ply, "color": color, "san": san, "uci": uci,
                                 "t": ms_to_t(t_ms), "clock_ms": clock_ms, "draw_offer": offer}
            if lang == "en":
                if after is not None:
                    d["fen"] = after
            else:
                prior = fens[k - i - 1] if k > i else before
                text = None if prior is None or after is None else self.letters(prior, san, uci, lang, chess960)
                if text is not None:
                    d["san_local"] = text
                    d["fen"] = after
            out.append(d)
        return out

    def letters(self, before: str, san: str, uci: str, lang: str, chess960: bool) -> str | None:
        """The move ``san`` (``uci``, played from the FEN ``before``) in ``lang``'s letters, or None."""
        key = (lang, san)
        text = _LETTERS.get(key)
        if text is None:
            try:
                text = str(self.write_move(Position(before, chess960=chess960), uci, lang))
            except Exception as err:  # noqa: BLE001 - another engineer's module
                log.warning("cannot replay %s: %r", uci, err)
                return None
            if len(_LETTERS) >= 1 << 16:
                _LETTERS.clear()
            _LETTERS[key] = text
        return text

    def localise_legal(self, legal: list[dict[str, str]], pos: Position, lang: str) -> None:
        """The legal moves in the scoresheet's letters too (keyboard entry in that language)."""
        try:
            for m in legal:
                m["san_local"] = str(self.write_move(pos, m["uci"], lang))
        except Exception as err:  # another engineer's module: never let it break a state
            log.warning("notation failed for %s: %r", lang, err)

    def localise(self, moves: list[dict[str, Any]], fen: str, lang: str, chess960: bool = False) -> None:
        """Each of ``moves`` (played from ``fen``) in ``lang``'s letters too (``san_local``)."""
        pos = Position(fen, chess960=chess960)
        try:
            for m in moves:
                m["san_local"] = str(self.write_move(pos, m["uci"], lang))
                pos = pos.play(m["uci"])
        except Exception as err:  # another engineer's module: never let it break a state
            log.warning("notation failed for %s: %r", lang, err)
            for m in moves:
                m.pop("san_local", None)

    def state_message(self, live: LiveGame, lang: str) -> str:
        """The whole state message of the game in ``lang``."""
        return state_text(*self.parts(live, lang, 0))

    def summary(self, live: LiveGame) -> dict[str, Any]:
        """A game as the lobby lists it."""
        game = seen_at(live.game, self.t_of(live))
        st = game.state
        cfg = st.config
        return {
            "id": live.id,
            "white": live.names.get("white") or cfg.white,
            "black": live.names.get("black") or cfg.black,
            "edition": cfg.edition.name,
            "time_control": str(cfg.time_control) if not cfg.time_control.unlimited else "-",
            "mode": cfg.mode,
            "status": st.status,
            "result": st.result,
            "termination": st.termination,
            "ply": len(st.moves),
            "created_at": live.created_at,
            "seats_open": [s for s in ("white", "black") if not live.token_hashes.get(s)],
            "starting_position": cfg.fen == STARTING_FEN,
            "chess960": cfg.chess960,
            "start_position": cfg.start_number,
            "waiting_for": waiting_for(live),
            "aborted": aborted(game),
            "pending": [p["kind"] for p in st.pending()],
            "clocks_stopped": st.ongoing and st.clock.running is None and not cfg.time_control.unlimited,
        }



__all__ = ["FEN_STEP", "STATE_HEAD", "Views", "clocks_at", "common_prefix", "languages", "public_event",
           "state_text", "with_state"]
