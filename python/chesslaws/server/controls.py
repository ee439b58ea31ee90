"""What a player may do now, and what it costs: the ``controls`` block of the game page's state.

Every number and article comes from the edition (:mod:`chesslaws.editions`) and the game's
start (time control, mode, arbiter): the page only shows these texts, it never knows an
edition's penalties itself. The texts exist in English, German and French (the page asks
for the scoresheet's language; others fall back to English).

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

from typing import Any

from chesslaws.game import GameState
from chesslaws.game.draws import quickplay_can_arise, quickplay_refusal, quickplay_unavailable

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "give": "your opponent receives {n} {minutes} on the clock",
        "minute": "minute", "minutes": "minutes",
        "halve_and_give": "half of your remaining time, at most {n} minutes, is deducted from your clock "
                          "and your opponent receives {n} minutes",
        "add_used_time": "{n} minutes are added to the time you have used (if that oversteps your time, you lose)",
        "no_clock": "no time penalty applies, as no clock is in use, and the game continues",
        "threefold": "Claim a draw by threefold repetition? If the same position has not occurred three times "
                     "(the same player to move), {penalty} (Article {art}).",
        "fifty": "Claim a draw under the {limit}-move rule? If the last {limit} moves by each player were not "
                 "all made without a pawn move or a capture, {penalty} (Article {art}).",
        "with_move": "With your next move: the move you make is written down, not played, and the claim concerns "
                     "the position after it (Article {art}). If the claim is incorrect, the move is played.",
        "quickplay_1997": "Claim a draw in the quickplay finish (less than two minutes left)? The arbiter decides: "
                          "a draw, a postponement (your opponent then receives 2 minutes) or a rejection "
                          "(Article {art}).",
        "quickplay_2023": "Claim a draw in the quickplay finish (less than two minutes left)? The arbiter decides; "
                          "if he postpones or rejects the claim, your opponent receives 2 minutes (Article {art}).",
        "flag": "Claim that your opponent's flag has fallen? If it has not, the game continues (Article {art}).",
        "resign": "Resign the game? You lose it (Article {art}).",
        "resign_2023": "Resign the game? You lose it, unless your opponent cannot checkmate you by any series of "
                       "legal moves: then it is a draw (Article {art}).",
        "offer_draw": "Offer a draw? An offer cannot be withdrawn: your opponent may accept or decline it "
                      "(Article {art}).",
        "seal": "Seal this move? The clocks stop and the game is adjourned; nobody sees the move until the envelope "
                "is opened at the resumption (Article {art}).",
        "title_threefold": "Claim a draw by repetition",
        "title_fifty": "Claim a draw: {limit} moves",
        "title_quickplay": "Claim a draw: quickplay finish",
        "title_flag": "Claim the flag",
        "title_resign": "Resign",
        "title_offer_draw": "Offer a draw",
        "title_seal": "Seal the move",
        "ok_claim": "Claim",
        "ok_claim_with_move": "Claim with my next move",
        "ok_resign": "Resign",
        "ok_offer_draw": "Offer draw",
        "ok_seal": "Seal",
        "cancel": "Cancel",
    },
    "de": {
        "give": "erhält Ihr Gegner {n} {minutes} Bedenkzeit",
        "minute": "Minute", "minutes": "Minuten",
        "halve_and_give": "wird die Hälfte Ihrer verbleibenden Zeit, höchstens {n} Minuten, abgezogen und Ihr "
                          "Gegner erhält {n} Minuten",
        "add_used_time": "werden Ihrer verbrauchten Zeit {n} Minuten hinzugefügt (überschreiten Sie damit die "
                         "Zeit, verlieren Sie)",
        "no_clock": "gibt es keine Zeitstrafe, da ohne Uhr gespielt wird, und die Partie geht weiter",
        "threefold": "Remis wegen dreimaliger Stellungswiederholung beanspruchen? Ist dieselbe Stellung nicht "
                     "dreimal (mit demselben Spieler am Zug) entstanden, {penalty} (Artikel {art}).",
        "fifty": "Remis nach der {limit}-Züge-Regel beanspruchen? Wurden die letzten {limit} Züge jedes Spielers "
                 "nicht alle ohne Bauernzug und ohne Schlagen ausgeführt, {penalty} (Artikel {art}).",
        "with_move": "Mit Ihrem nächsten Zug: der Zug, den Sie jetzt machen, wird aufgeschrieben, nicht "
                     "ausgeführt; der Antrag betrifft die Stellung danach (Artikel {art}). Ist der Antrag "
                     "unberechtigt, wird der Zug ausgeführt.",
        "quickplay_1997": "Remis in der Schlussphase beanspruchen (weniger als zwei Minuten übrig)? Der "
                          "Schiedsrichter entscheidet: Remis, Aufschub (Ihr Gegner erhält dann 2 Minuten) oder "
                          "Ablehnung (Artikel {art}).",
        "quickplay_2023": "Remis in der Schlussphase beanspruchen (weniger als zwei Minuten übrig)? Der "
                          "Schiedsrichter entscheidet; schiebt er auf oder lehnt er ab, erhält Ihr Gegner "
                          "2 Minuten (Artikel {art}).",
        "flag": "Beanspruchen, dass das Fallblättchen Ihres Gegners gefallen ist? Ist es nicht gefallen, geht die "
                "Partie weiter (Artikel {art}).",
        "resign": "Die Partie aufgeben? Sie verlieren sie (Artikel {art}).",
        "resign_2023": "Die Partie aufgeben? Sie verlieren sie, außer Ihr Gegner kann Sie mit keiner Folge legaler "
                       "Züge mattsetzen: dann ist sie remis (Artikel {art}).",
        "offer_draw": "Remis anbieten? Ein Angebot kann nicht zurückgenommen werden: Ihr Gegner kann es annehmen "
                      "oder ablehnen (Artikel {art}).",
        "seal": "Diesen Zug abgeben? Die Uhren werden angehalten und die Partie unterbrochen; niemand sieht den "
                "Zug, bis der Umschlag bei der Wiederaufnahme geöffnet wird (Artikel {art}).",
        "title_threefold": "Remis wegen Stellungswiederholung",
        "title_fifty": "Remis: {limit}-Züge-Regel",
        "title_quickplay": "Remis in der Schlussphase",
        "title_flag": "Zeitüberschreitung reklamieren",
        "title_resign": "Aufgeben",
        "title_offer_draw": "Remis anbieten",
        "title_seal": "Zug abgeben",
        "ok_claim": "Beanspruchen",
        "ok_claim_with_move": "Mit meinem nächsten Zug beanspruchen",
        "ok_resign": "Aufgeben",
        "ok_offer_draw": "Remis anbieten",
        "ok_seal": "Abgeben",
        "cancel": "Abbrechen",
    },
    "fr": {
        "give": "votre adversaire reçoit {n} {minutes} à la pendule",
        "minute": "minute", "minutes": "minutes",
        "halve_and_give": "la moitié de votre temps restant, {n} minutes au plus, est retirée de votre pendule et "
                          "votre adversaire reçoit {n} minutes",
        "add_used_time": "{n} minutes sont ajoutées au temps que vous avez utilisé (si cela dépasse votre temps, "
                         "vous perdez)",
        "no_clock": "aucune pénalité de temps ne s'applique, faute de pendule, et la partie continue",
        "threefold": "Réclamer la nulle par triple répétition ? Si la même position ne s'est pas produite trois fois "
                     "(avec le même joueur au trait), {penalty} (article {art}).",
        "fifty": "Réclamer la nulle par la règle des {limit} coups ? Si les {limit} derniers coups de chaque joueur "
                 "n'ont pas tous été joués sans mouvement de pion ni prise, {penalty} (article {art}).",
        "with_move": "Avec votre prochain coup : le coup que vous faites est noté, pas joué, et la réclamation porte "
                     "sur la position qui le suit (article {art}). Si la réclamation est incorrecte, le coup est joué.",
        "quickplay_1997": "Réclamer la nulle en fin de partie au temps (moins de deux minutes) ? L'arbitre décide : "
                          "nulle, report (votre adversaire reçoit alors 2 minutes) ou rejet (article {art}).",
        "quickplay_2023": "Réclamer la nulle en fin de partie au temps (moins de deux minutes) ? L'arbitre décide ; "
                          "s'il reporte ou rejette la réclamation, votre adversaire reçoit 2 minutes (article {art}).",
        "flag": "Réclamer la chute du drapeau de votre adversaire ? S'il n'est pas tombé, la partie continue "
                "(article {art}).",
        "resign": "Abandonner la partie ? Vous la perdez (article {art}).",
        "resign_2023": "Abandonner la partie ? Vous la perdez, sauf si votre adversaire ne peut pas vous mater par "
                       "une suite de coups légaux : elle est alors nulle (article {art}).",
        "offer_draw": "Proposer la nulle ? Une proposition ne peut pas être retirée : votre adversaire peut "
                      "l'accepter ou la refuser (article {art}).",
        "seal": "Mettre ce coup sous enveloppe ? Les pendules s'arrêtent et la partie est ajournée ; personne ne "
                "voit le coup avant l'ouverture de l'enveloppe à la reprise (article {art}).",
        "title_threefold": "Réclamer la nulle par répétition",
        "title_fifty": "Réclamer la nulle : {limit} coups",
        "title_quickplay": "Nulle en fin de partie au temps",
        "title_flag": "Réclamer la chute du drapeau",
        "title_resign": "Abandonner",
        "title_offer_draw": "Proposer la nulle",
        "title_seal": "Coup sous enveloppe",
        "ok_claim": "Réclamer",
        "ok_claim_with_move": "Réclamer avec mon prochain coup",
        "ok_resign": "Abandonner",
        "ok_offer_draw": "Proposer la nulle",
        "ok_seal": "Mettre sous enveloppe",
        "cancel": "Annuler",
    },
    "es": {
        "give": "su adversario recibe {n} {minutes} en el reloj",
        "minute": "minuto", "minutes": "minutos",
        "halve_and_give": "se descuenta de su reloj la mitad del tiempo que le queda, como mucho {n} minutos, "
                          "y su adversario recibe {n} minutos",
        "add_used_time": "se añaden {n} minutos al tiempo que ha usado (si con ello excede su tiempo, pierde)",
        "no_clock": "no hay sanción de tiempo, pues no se juega con reloj, y la partida continúa",
        "threefold": "¿Reclamar tablas por triple repetición? Si la misma posición no se ha producido tres veces "
                     "(con el mismo jugador al turno), {penalty} (artículo {art}).",
        "fifty": "¿Reclamar tablas por la regla de las {limit} jugadas? Si las últimas {limit} jugadas de cada "
                 "jugador no se hicieron todas sin mover un peón ni capturar, {penalty} (artículo {art}).",
        "with_move": "Con su próxima jugada: la jugada que haga se anota, no se juega, y la reclamación se refiere "
                     "a la posición tras ella (artículo {art}). Si la reclamación es incorrecta, la jugada se juega.",
        "quickplay_1997": "¿Reclamar tablas en el final a caída de bandera (menos de dos minutos)? El árbitro "
                          "decide: tablas, aplazamiento (su adversario recibe entonces 2 minutos) o rechazo "
                          "(artículo {art}).",
        "quickplay_2023": "¿Reclamar tablas en el final a caída de bandera (menos de dos minutos)? El árbitro "
                          "decide; si aplaza o rechaza la reclamación, su adversario recibe 2 minutos "
                          "(artículo {art}).",
        "flag": "¿Reclamar que ha caído la bandera de su adversario? Si no ha caído, la partida continúa "
                "(artículo {art}).",
        "resign": "¿Abandonar la partida? La pierde (artículo {art}).",
        "resign_2023": "¿Abandonar la partida? La pierde, salvo que su adversario no pueda darle mate con ninguna "
                       "serie de jugadas legales: entonces es tablas (artículo {art}).",
        "offer_draw": "¿Ofrecer tablas? Una oferta no puede retirarse: su adversario puede aceptarla o rechazarla "
                      "(artículo {art}).",
        "seal": "¿Sellar esta jugada? Los relojes se paran y la partida se aplaza; nadie ve la jugada hasta que "
                "se abre el sobre en la reanudación (artículo {art}).",
        "title_threefold": "Reclamar tablas por repetición",
        "title_fifty": "Reclamar tablas: {limit} jugadas",
        "title_quickplay": "Reclamar tablas: final a caída de bandera",
        "title_flag": "Reclamar la bandera",
        "title_resign": "Abandonar",
        "title_offer_draw": "Ofrecer tablas",
        "title_seal": "Sellar la jugada",
        "ok_claim": "Reclamar",
        "ok_claim_with_move": "Reclamar con mi próxima jugada",
        "ok_resign": "Abandonar",
        "ok_offer_draw": "Ofrecer tablas",
        "ok_seal": "Sellar",
        "cancel": "Cancelar",
    },
}


def _penalty(state: GameState, t: dict[str, str]) -> str:
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
    out: dict[str, Any] = {"lang": code, "cancel": t["cancel"], "ok_claim_with_move": t["ok_claim_with_move"]}
    out["offer_draw"] = {"confirm": t["offer_draw"].format(art=ed.article("draw_offer")),
                         "article": ed.article("draw_offer")}
    limit = cfg.fifty_move_limit
    resign_key = "resign_2023" if ed.resign_draw_when_opponent_cannot_mate else "resign"
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
        key = "quickplay_2023" if ed.quickplay_reject_gives_ms else "quickplay_1997"
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
    for name, ok in (("offer_draw", "ok_offer_draw"), ("resign", "ok_resign"), ("threefold", "ok_claim"),
                     ("fifty", "ok_claim"), ("quickplay", "ok_claim"), ("flag", "ok_claim"), ("seal", "ok_seal")):
        if out.get(name) is not None:
            out[name]["title"] = t["title_" + name].format(limit=limit)
            out[name]["ok"] = t[ok]
    return out


__all__ = ["TEXTS", "adjournment_allowed", "controls", "quickplay_allowed", "quickplay_players"]
