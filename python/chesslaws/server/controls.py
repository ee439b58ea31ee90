"""What a player may do now, and what it costs: the ``controls`` block of the game page's state.

Every number and article comes from the edition (:mod:`chesslaws.editions`) and the game's
start (time control, mode, arbiter): the page only shows these texts, it never knows an
edition's penalties itself. The texts exist in English, German, French and Spanish
(``chesslaws/data/texts.json``; the page asks for the scoresheet's language, others fall back
to English).

The block, for a game in progress (``None`` marks a control this game does not allow; every control
that is there also has a dialog ``title`` and an ``ok`` button label)::

    {"lang": "en",
     "cancel": "Cancel", "ok_claim_with_move": "Claim with my next move",   # dialog buttons
     "offer_draw": {"confirm": "...", "article": "9.1.2.1", "title": "Offer a draw", "ok": "Offer draw"},
     "resign":     {"confirm": "...", "article": "5.1.2"},
     "threefold":  {"confirm": "...", "article": "9.2", "incorrect_article": "9.5.3", "with_move": true},
     "fifty":      {"confirm": "...", "article": "9.3", "incorrect_article": "9.5.3", "with_move": true},
     "quickplay":  {"confirm": "...", "article": "III.5", "below_ms": 120000, "needs_move": true,
                   "postpone_gives_ms": 120000, "reject_gives_ms": 120000} | None,   # 1997: rejection gives 0
     "flag":       {"confirm": "...", "article": "6.9"} | None,
     "seal":       {"confirm": "...", "article": "I.1.1"} | None,
     "with_move":  "...",   # what "with my next move" means, when a claim may go with a move
     "articles":   {"agreement": "5.2.3", "touch_move": "4.3", "release": "4.7", "illegal_move": "7.5.1",
                   "flag": "6.9", "result_decided": "8.7", "appeal_decision": "11.10",
                   "observed_illegal": "7.5.1", "illegal_move_penalty": "7.5.5", "next_period": "8.6",
                   "set_clocks": "6.10.2", "penalty_add_time": "12.9.2", "penalty_reduce_time": "12.9.3",
                   "quickplay_postpone": "III.5.2", ...},  # cited by the page (those the edition has)
     "observe_illegal_acts": true}   # false where an illegal move the arbiter sees is not acted on (1997 B.5, C.3)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from chesslaws.game import GameState
from chesslaws.game.draws import quickplay_can_arise, quickplay_refusal, quickplay_unavailable
from chesslaws.server.texts import LANGUAGES, texts

#: The server's texts and the pages' in each language (:func:`chesslaws.server.texts.texts`), from the one
#: file of texts, ``chesslaws/data/texts.json``.
TEXTS: Mapping[str, Mapping[str, str]] = MappingProxyType({code: texts(code) for code in LANGUAGES})


def _penalty(state: GameState, t: Mapping[str, str]) -> str:
    cfg = state.config
    ed = cfg.edition
    if cfg.time_control.unlimited:
        return t["no_clock"]
    if ed.claim_penalty == "add_used_time":
        return t["add_used_time"].format(n=ed.claim_penalty_ms // 60_000)
    if ed.claim_penalty == "halve_and_give":
        return t["halve_and_give"].format(n=ed.claim_penalty_ms // 60_000)
    ms = ed.claim_penalty_fast_ms if cfg.mode in ("rapid", "blitz") else ed.claim_penalty_ms
    n = ms // 60_000
    return t["give"].format(n=n, minutes=t["minute"] if n == 1 else t["minutes"])


def quickplay_allowed(state: GameState) -> bool:
    """May a quickplay finish claim be admitted in this game at some moment (edition, announcement, mode,
    time control)? The arbiter's own rule (:func:`chesslaws.game.draws.quickplay_can_arise`): the page
    offers no claim the arbiter would refuse as out of scope (1997 C.5, 2023 III.2.1 and III.2.2)."""
    return quickplay_can_arise(state)


def quickplay_players(state: GameState) -> list[str]:
    """The players whose quickplay-finish claim the arbiter admits now, time apart (below two minutes, and
    under 2023 III.5 having the move, the page checks itself): those in the last period, for all the
    remaining moves (1997 10.1, 2023 III.1), by :func:`chesslaws.game.draws.quickplay_refusal`. It depends on
    the game's moves, not on its configuration alone: the state's ``quickplay_players``, beside the controls."""
    if quickplay_unavailable(state) is not None:
        return []
    return [c for c in ("white", "black") if quickplay_refusal(state, c) is None]


def adjournment_allowed(state: GameState) -> bool:
    """Adjournment belongs to standard games with an arbiter and a clock."""
    cfg = state.config
    return cfg.mode == "standard" and cfg.arbiter_present and not cfg.time_control.unlimited


def _observed_illegal_rule(state: GameState) -> str:
    """The rule an illegal move the arbiter observes comes under in this game (as ``observe`` rules it,
    :mod:`chesslaws.game.observation`): 1997 C.3 in blitz and B.5 in rapid play, 2023 A.5.2 where one arbiter
    supervises several games, else the edition's own (2023 7.5.1, 1997 7.4, 1989 8.1)."""
    cfg = state.config
    ed = cfg.edition
    if cfg.mode == "blitz" and ed.illegal_move_stands_in_blitz:
        return "observed_illegal_blitz"
    if (cfg.mode == "rapid" and ed.rapid_rulings_on_request) or cfg.partially_supervised:
        return "observed_illegal_rapid"
    return "observed_illegal"


def controls(state: GameState, lang: str = "en") -> dict[str, Any]:
    """The controls block (see the module's docstring) in ``lang`` (English when it has no texts)."""
    code = lang if lang in TEXTS else "en"
    t = TEXTS[code]
    cfg = state.config
    ed = cfg.edition
    penalty = _penalty(state, t)
    incorrect = ed.article("claim_incorrect")
    out: dict[str, Any] = {"lang": code, "cancel": t["Cancel"], "ok_claim_with_move": t["ok_claim_with_move"]}
    out["offer_draw"] = {"confirm": t["offer_draw"].format(art=ed.article("draw_offer")),
                         "article": ed.article("draw_offer")}
    limit = cfg.fifty_move_limit
    resign_key = "resign_unless_cannot_mate" if ed.resign_draw_when_opponent_cannot_mate else "resign"
    out["resign"] = {"confirm": t[resign_key].format(art=ed.article("resignation")),
                     "article": ed.article("resignation")}
    out["threefold"] = {"confirm": t["threefold"].format(penalty=penalty, art=incorrect),
                        "article": ed.article("threefold"), "incorrect_article": incorrect, "with_move": True}
    out["fifty"] = {"confirm": t["fifty"].format(limit=limit, penalty=penalty, art=incorrect),
                    "article": ed.article("fifty"), "incorrect_article": incorrect,
                    "with_move": ed.fifty_claim_with_move}
    out["with_move"] = t["with_move"].format(art=ed.article("threefold"))
    if quickplay_allowed(state):
        art = ed.article("quickplay")
        key = "quickplay_postpone_or_reject_gives" if ed.quickplay_reject_gives_ms else "quickplay_postpone_gives"
        # 2023 III.5: "the player having the move"; 1997 10.2: "the player", on either clock.
        # What the arbiter's decision gives the opponent (2023 III.5.2 and III.5.3; 1997 10.2(b), where a
        # rejection gives nothing), as the page's console tells before it is decided.
        out["quickplay"] = {"confirm": t[key].format(art=art), "article": art, "below_ms": 120_000,
                            "needs_move": ed.quickplay_claimant_has_move, "postpone_gives_ms": 120_000,
                            "reject_gives_ms": ed.quickplay_reject_gives_ms}
    else:
        out["quickplay"] = None
    if not cfg.flags_observed and not cfg.time_control.unlimited:
        art = ed.article("flag")
        out["flag"] = {"confirm": t["flag"].format(art=art), "article": art}
    else:
        out["flag"] = None
    if adjournment_allowed(state):
        art = ed.article("adjournment")
        out["seal"] = {"confirm": t["seal"].format(art=art), "article": art}
    else:
        out["seal"] = None
    # The articles the page cites in its own dialogs (accepting a draw; over the board, the touch-move rule
    # and an illegal move entered by the arbiter; the arbiter's flag seen down, result decided, appeal upheld).
    out["articles"] = {rule: ed.article(rule) for rule in ("agreement", "touch_move", "release", "illegal_move",
                                                  "flag", "result_decided", "appeal_decision")}
    # The arbiter's console asks before what changes a player's clock or the game (an illegal move observed,
    # the next period, the clocks set, a penalty, a quickplay claim postponed or rejected, a signature that may
    # change the result: 2023 8.7 only): the articles of
    # this edition it cites, only those the edition has (1989 has no quickplay finish; only 2023 has 7.5.5).
    for rule in ("illegal_move_penalty", "next_period", "set_clocks", "set_clocks_limit", "penalty_warning",
                 "penalty_add_time", "penalty_reduce_time", "penalty_loss", "penalty_expulsion", "quickplay",
                 "quickplay_postpone", "quickplay_reject", "signed_result"):
        if rule in ed.articles:
            out["articles"][rule] = ed.article(rule)
    seen = _observed_illegal_rule(state)
    out["articles"]["observed_illegal"] = ed.article(seen)
    # 1997 C.3 (blitz) and B.5 (rapid): the arbiter who sees an illegal move does not act on it: nothing changes.
    out["observe_illegal_acts"] = not (seen == "observed_illegal_blitz"
                                       or (seen == "observed_illegal_rapid" and ed.rapid_rulings_on_request))
    # The dialogs' titles and buttons; "Resign" and "Offer draw" are the page's own texts (its buttons).
    for name, title, ok in (("offer_draw", "title_offer_draw", "Offer draw"), ("resign", "Resign", "Resign"),
                            ("threefold", "title_threefold", "ok_claim"), ("fifty", "title_fifty", "ok_claim"),
                            ("quickplay", "title_quickplay", "ok_claim"), ("flag", "title_flag", "ok_claim"),
                            ("seal", "title_seal", "ok_seal")):
        if out.get(name) is not None:
            out[name]["title"] = t[title].format(limit=limit)
            out[name]["ok"] = t[ok]
    return out


__all__ = ["TEXTS", "adjournment_allowed", "controls", "quickplay_allowed", "quickplay_players"]
