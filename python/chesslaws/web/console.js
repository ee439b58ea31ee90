// chesslaws: the arbiter's console of the game page, grouped by what is happening at the board (the move, claims
// and offers, the clock, penalties, the scoresheet, adjournment, appeals): one group open, the rest one click or
// one key (1 to 7) away, the group chosen by itself when something happens there. Over the board the arbiter
// enters the players' events too: the player's controls of the page move into these groups, each says for whom
// it is, and "enters for" follows the player having the move. Loaded after game.js, whose state and helpers
// (S, send, confirmAsk, T, ...) it uses.
"use strict";

//: The groups, in the order of their tabs, and the player's controls (game.html's #actions) each one takes in
//: over the board.
const GROUPS = ["move", "claims", "clock", "penalties", "sheet", "adjourn", "appeals"];
const PLAYER_CONTROLS = {
  move: ["move-extra-box", "hand-box"],
  claims: ["offer-box", "claims-box", "quickplay-box", "flag-box", "touch-claim-box"],
  clock: ["press-box", "arrive-box"],
  adjourn: ["adjourn-box"],
};
let openGroup = null;     // the group shown
let situation = null;     // what was happening when the group was last chosen by itself

// The player's controls go into the groups once the game is known to be over the board; "enters for" goes to
// the top of the console.
function placeControls() {
  if (S.interface !== "otb" || $("arb-for-slot").contains($("act-for-box"))) return;
  $("arb-for-slot").appendChild($("act-for-box"));
  for (const [group, ids] of Object.entries(PLAYER_CONTROLS)) {
    const panel = $("grp-" + group);
    for (const id of ids) panel.insertBefore($(id), panel.querySelector(".row, fieldset.row") || null);
  }
}

// What is happening, and the group it belongs to: an appeal, an adjournment, a claim or an offer, stopped clocks,
// the end of the game; otherwise the move.
function happening() {
  const kinds = new Set(S.pending.map((p) => p.kind));
  if (kinds.has("appeal")) return "appeals";
  if (S.status === "adjourned" || kinds.has("sealed_move")) return "adjourn";
  if (kinds.has("claim") || kinds.has("draw_offer") || kinds.has("illegal_move_claimable")) return "claims";
  if (S.status === "finished") return "sheet";
  if (S.status === "ongoing" && S.started && S.time_control !== "-" && S.clocks.running === null && S.moves.length) return "clock";
  return "move";
}

// Whether a group has anything to show now (its tab is hidden when not).
function groupShows(group) {
  return [...$("grp-" + group).children].some((el) => !el.hidden && !el.classList.contains("hint"));
}

function showGroup(group, focusTab) {
  openGroup = group;
  for (const g of GROUPS) {
    const tab = $("tab-" + g), on = g === group;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    tab.classList.toggle("on", on);
    $("grp-" + g).hidden = !on;
  }
  document.body.dataset.group = group;
  if (focusTab) $("tab-" + group).focus();
}

function renderGroups() {
  const quiet = S.status === "annulled";  // nothing more to rule: no groups
  $("arb-tabs").hidden = quiet;
  document.querySelector("#console .keys-hint").hidden = quiet;
  if (quiet) { for (const g of GROUPS) $("grp-" + g).hidden = true; return; }
  const now = happening();
  const key = `${now}/${S.status}/${S.pending.map((p) => p.kind).join(",")}`;
  if (key !== situation) {  // something new: its group opens; otherwise the arbiter's choice stays
    situation = key;
    if (groupShows(now)) openGroup = now;
  }
  for (const g of GROUPS) {
    const tab = $("tab-" + g);
    tab.hidden = !groupShows(g) && g !== openGroup;
    tab.classList.toggle("attn", g === now && g !== "move");
  }
  if (!openGroup || $("tab-" + openGroup).hidden) openGroup = GROUPS.find((g) => !$("tab-" + g).hidden) || "move";
  showGroup(openGroup, false);
}

for (const g of GROUPS) $("tab-" + g).addEventListener("click", () => showGroup(g, true));
// The tabs by keyboard: the arrow keys, Home and End move between the groups (and open them).
$("arb-tabs").addEventListener("keydown", (e) => {
  const shown = GROUPS.filter((g) => !$("tab-" + g).hidden);
  const i = shown.indexOf(openGroup);
  const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: shown.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  e.stopPropagation();  // not the page's keys (the arrows step through the moves)
  showGroup(shown[(to + shown.length) % shown.length], true);
});
// Keys 1 to 7, wherever the focus is but in a text field: that group opens, its tab focused.
document.addEventListener("keydown", (e) => {
  if (seat !== "arbiter" || !S || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || $("confirm").open || $("resume-dialog").open) return;
  const n = parseInt(e.key, 10);
  if (!(n >= 1 && n <= GROUPS.length) || $("tab-" + GROUPS[n - 1]).hidden) return;
  e.preventDefault();
  showGroup(GROUPS[n - 1], true);
});

// --- for whom: "enters for" follows the player having the move; each player's control says whose it is ----------
let followed = null;      // the position "enters for" last followed
function followTurn() {
  if (!S || seat !== "arbiter" || S.interface !== "otb") return;
  const key = `${S.moves.length}/${S.status}`;
  if (key === followed) return;
  followed = key;
  $("act-for").value = S.turn;
}
// The player a control acts for: the hand within a move is always the player having the move's.
function forWhom(button) {
  return ["btn-touch", "btn-release", "btn-adjust"].includes(button.id) ? S.turn : $("act-for").value;
}
function renderPlayerControls() {
  if (S.interface !== "otb") return;
  const ongoing = S.status === "ongoing" && S.started, adjourned = S.status === "adjourned";
  $("offer-box").hidden = !(ongoing || adjourned);
  $("act-for-box").hidden = S.status === "annulled" || S.status === "finished";
  $("illegal-hint-board").hidden = !ongoing;
  for (const b of document.querySelectorAll("#console [data-for-player], #offer [data-for-player]")) {
    let tag = b.querySelector(".for");
    if (!tag) { tag = document.createElement("span"); tag.className = "for"; b.appendChild(tag); }
    const who = forWhom(b);
    tag.textContent = NAME[who];
    tag.dataset.color = who;
    b.dataset.forColor = who;
  }
}
$("act-for").addEventListener("change", () => { $("offer").dataset.key = "?"; renderActions(); if (S) renderConsole(); });

// --- the default time: set when the game is created, shown for the session --------------------------------
function defaultTimeWords() {
  const ms = S.default_time_ms;
  if (ms === null || ms === undefined) return "";
  return ms === 0 ? T("Default time of this session: 0:00: a player not at the board when it starts loses at once.")
    : T("Default time of this session: {time}: a player not at the board within it loses.", { time: fmtTime(ms) });
}
function renderDefaultTime() {
  $("default-time-note").textContent = S.status === "adjourned" ? defaultTimeWords() : "";
  $("default-time-note").hidden = S.status !== "adjourned";
}

// --- the resumption: who is at the board, and the session's default time ---------------------------------
$("arb-resume").addEventListener("click", () => {
  const dlg = $("resume-dialog");
  const otb = S.interface === "otb";
  $("resume-presence").hidden = !otb;
  for (const c of ["white", "black"]) {
    $(`present-${c}-name`).textContent = T("{who} is at the board", { who: whoLabel(c) });
    $(`present-${c}`).checked = otb;
  }
  $("resume-default").textContent = defaultTimeWords();
  const warn = () => {
    const nobody = otb && S.default_time_ms === 0 ? ["white", "black"].filter((c) => !$(`present-${c}`).checked) : [];
    $("resume-warn").hidden = !nobody.length;
    $("resume-warn").textContent = nobody.length === 2 ? "⚠ " + T("Neither player is marked at the board: with a default time of 0:00 both lose at once.")
      : nobody.length ? "⚠ " + T("{who} is not marked at the board: with a default time of 0:00 he loses at once.", { who: whoLabel(nobody[0]) }) : "";
  };
  $("present-white").onchange = warn;
  $("present-black").onchange = warn;
  warn();
  dlg.returnValue = "";
  dlg.onclose = () => {
    if (dlg.returnValue !== "ok") return;
    const event = { type: "resume" };
    if (otb) event.present = ["white", "black"].filter((c) => $(`present-${c}`).checked);
    send(event);
  };
  dlg.showModal();
  $("resume-no").focus();
});

// --- an illegal move, recorded as it was played: written as a player writes it, or by dragging the piece ----------
// Only the arbiter over the board records one; the page asks first, naming the player and the move.
function illegalAllowed() {
  return !!S && seat === "arbiter" && S.interface === "otb" && S.status === "ongoing" && S.started && viewPly === null;
}
// Whether the piece on a square may be picked up to make an illegal move with it: one of the side to move's.
function illegalFrom(sq) {
  if (!illegalAllowed()) return false;
  const pc = placement(S.fen)[sq];
  return !!pc && (pc === pc.toUpperCase()) === (S.turn === "white");
}
function askIllegal(uci, written) {
  const by = S.turn;
  const shown = `${uci.slice(0, 2)}-${uci.slice(2)}`;
  confirmAsk(T("An illegal move"), T("{uci} is not a legal move. Record it as an illegal move made by {who}? It is taken back and may be penalised (Article {art}).",
    { uci: written && written.replace(/[-x:\s]/g, "").toLowerCase() !== uci ? `${written} (${shown})` : shown,
      who: whoLabel(by), art: article("illegal_move") }),
  T("Record the illegal move"), by).then((ok) => {
    if (!ok || !S || S.turn !== by) { if (S) renderBoard(); return; }
    $("move-input").value = "";
    playMove(uci);
  });
}
// A move typed that no legal move fits: read by the server with the notation's one grammar, in the piece letters
// of the scoresheet's language; an illegal one is asked about, then sent in coordinates as the log writes it.
async function readPlayed(text) {
  let r;
  try {
    r = await api("GET", `/api/games/${gameId}/read-move?move=${encodeURIComponent(text)}&lang=${encodeURIComponent(lang)}`);
  } catch (err) {
    const how = T("Write the move as the player did (Ke6), with its squares (e8e6), or drag the piece where it went.");
    toast(err.message + ". " + how);
    return;
  }
  if (!r.uci) {  // two pieces (or more) could have gone there: which one is not said
    const moves = r.candidates.map((u) => `${u.slice(0, 2)}-${u.slice(2)}`).join(", ");
    toast(T("{text} could be {moves}: write it with its starting square, or drag the piece where it went.", { text, moves }));
    return;
  }
  if (r.legal) { $("move-input").value = ""; playMove(r.uci); return; }
  askIllegal(r.uci, text);
}

function renderConsole() {
  if (seat !== "arbiter") return;
  placeControls();
  // After the end, only what the Laws still allow (a penalty, an annulment); after an annulment, nothing.
  const over = S.status === "finished" || S.status === "annulled";
  for (const id of ["arb-clock-row", "arb-set-row", "arb-refuse-row"]) $(id).hidden = over;
  $("arb-penalty-row").hidden = S.status === "annulled";
  $("arb-annul-row").hidden = S.status === "annulled";
  $("arb-quiet").hidden = S.status !== "annulled";
  const kind = $("pen-kind").value;
  $("pen-sec-box").hidden = !(kind === "add_time" || kind === "reduce_time");
  $("arb-quickplay").hidden = !S.pending.some((p) => p.kind === "claim" && p.reason === "quickplay");
  renderAgreement();
  const sealed = S.pending.find((p) => p.kind === "sealed_move");
  $("arb-adjourned").hidden = !(S.status === "adjourned" || sealed);
  $("arb-sheet").hidden = S.interface !== "otb";  // player events: the arbiter enters them over the board
  $("arb-sheet-note").disabled = S.status !== "ongoing";
  $("arb-sign").disabled = S.status !== "finished";
  const ongoing = S.status === "ongoing";
  $("arb-observe").hidden = S.arbiter !== "occasional" || !ongoing;  // an arbiter who watches now and then
  $("arb-observe-move").hidden = $("arb-observe").hidden;
  const flagDown = S.clocks && (S.clocks.white_ms === 0 || S.clocks.black_ms === 0);
  $("arb-period").hidden = !ongoing || !flagDown || !S.time_control.includes("/");  // 8.6: periods with moves
  $("arb-result").hidden = S.status !== "finished";
  $("announce-box").hidden = !(S.visually_disabled || []).length;
  $("arb-request-sheet").disabled = $("arb-request-blank").disabled = !ongoing;
  $("assistant-box").hidden = !(S.assistants || []).length;
  $("announced-box").hidden = !(S.visually_disabled || []).length;
  $("arb-request-count").hidden = !(S.visually_disabled || []).length;
  $("arb-request-count").disabled = !ongoing;
  // An explanation and an appeal are the player's: entered over the board; the appeal's decision is yours.
  const appealWaits = S.pending.some((p) => p.kind === "appeal");
  $("recourse-player-box").hidden = S.interface !== "otb";
  $("arb-recourse").hidden = S.interface !== "otb" && !appealWaits;
  $("arb-appeal").disabled = !S.rulings.length;
  $("appeal-decision-box").hidden = !appealWaits;
  renderDefaultTime();
  renderPlayerControls();
  renderGroups();
  const box = $("arb-sealed");
  if (!sealed) { box.hidden = true; box.dataset.seq = ""; return; }
  box.hidden = false;
  if (box.dataset.seq === String(S.seq)) return;
  box.dataset.seq = String(S.seq);
  // Only the arbiter's token opens the sealed move in the log.
  fetch(`/api/games/${gameId}/log`, { headers: { Authorization: "Bearer " + token } })
    .then((r) => r.text())
    .then((text) => {
      const seals = text.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "seal");
      const last = seals[seals.length - 1];
      box.textContent = last ? T("Sealed move (only you see it): {move} — {color}, move {n}",
        { move: last.move, color: NAME[last.by], n: sealed.move_number || "" }) : "";
    })
    .catch(() => { box.textContent = T("The sealed move could not be read."); });
}

// --- the arbiter's own decisions, and the players' events he enters over the board ----------------------
$("arb-lost").addEventListener("click", async () => {
  if (await confirmAsk(T("Envelope lost"), T("Continue from the adjourned position with the clock times recorded at adjournment? The sealer makes his sealed move on the board."), T("Envelope lost"))) send({ type: "envelope_lost" });
});
$("arb-stop").addEventListener("click", () => send({ type: "stop_clocks" }));
$("arb-start").addEventListener("click", () => send({ type: "start_clocks" }));
// Setting the clocks changes what each player has left (2023 6.10.2, 1997 6.13, 1989 12.4): asked first, naming
// the players and their times before and after; a clock set to 0:00 (the flag falls at once) or to far more than
// the whole time control gives is asked about explicitly.
$("arb-set").addEventListener("click", async () => {
  const w = parseClock($("arb-w").value), b = parseClock($("arb-b").value);
  if (w === null || b === null) { toast(T("Write the times as m:ss (or h:mm:ss).")); return; }
  const set = { white: w, black: b };
  const total = totalTimeMs(S.time_control);
  const lines = [], warn = [];
  for (const c of ["white", "black"]) {
    const now = clockMs(c);
    lines.push(T("{who}: {old} → {new}", { who: whoLabel(c), old: fmtTime(now), new: fmtTime(set[c]) }));
    if (set[c] === 0) warn.push(T("{who}'s clock is set to 0:00: the flag falls at once.", { who: whoLabel(c) }));
    else if (total !== null && set[c] > total * FAR_OVER) {
      warn.push(T("{who}'s clock is set to {new}, far more than the whole time control ({tc}) gives.",
        { who: whoLabel(c), new: fmtTime(set[c]), tc: TC.show(S.time_control) }));
    }
  }
  const changed = ["white", "black"].filter((c) => Math.abs((clockMs(c) || 0) - set[c]) >= 1000);
  const text = (warn.length ? "⚠ " + warn.join("\n⚠ ") + "\n\n" : "") + lines.join("\n") + "\n\n" +
    T("The clocks show these times from now (Article {art}).", { art: article("set_clocks") });
  $("confirm").dataset.warn = warn.length ? "yes" : "";
  const ok = await confirmAsk(T("Set the clocks"), text, warn.length ? T("Set the clocks anyway") : T("Set clocks"),
    changed.length === 1 ? changed[0] : null);
  $("confirm").dataset.warn = "";
  if (!ok) return;
  send({ type: "set_clocks", white_ms: w, black_ms: b });
});
$("pen-kind").addEventListener("change", () => { if (S) renderConsole(); });
$("arb-penalty").addEventListener("click", async () => {
  const kind = $("pen-kind").value;
  const against = $("pen-against").value;
  const ev = { type: "penalty", against, kind };
  if (kind === "add_time" || kind === "reduce_time") {
    const sec = parseFloat($("pen-sec").value);
    if (!(sec > 0)) { toast(T("Write the seconds (a positive number).")); return; }
    ev.seconds = sec;
  }
  const reason = $("pen-reason").value.trim();
  if (reason) ev.reason = reason;
  // Every penalty is asked first, naming the player and what it does to his clock or his game, with the article
  // of the edition's list (2023 12.9, 1997 13.4, 1989 16.5).
  const vars = { who: whoLabel(against), opp: whoLabel(other(against)), art: article("penalty_" + kind),
    time: ev.seconds ? spanWords(ev.seconds * 1000) : "" };
  const what = {
    warning: () => T("{who} is warned (Article {art}).", vars),
    add_time: () => T("The time on {opp}'s clock is increased by {time} (Article {art}).", vars),
    reduce_time: () => T("The time on {who}'s clock is reduced by {time} (Article {art}).", vars),
    loss: () => T("{who} loses the game (Article {art}). This ends the game.", vars),
    expulsion: () => T("{who} is expelled from the event and loses the game (Article {art}). This ends the game.", vars),
  }[kind];
  const text = what() + (reason ? "\n" + T("Reason: {reason}", { reason }) : "");
  if (!(await confirmAsk(T("Penalty"), text, T("Give penalty"), against))) return;
  send(ev);
});
for (const b of document.querySelectorAll(".arb-decision")) {
  b.addEventListener("click", async () => {
    // A draw ends the game: asked first, naming the claimant.
    const claim = S.pending.find((p) => p.kind === "claim" && p.reason === "quickplay");
    const c = ctl("quickplay");
    if (b.dataset.ruling === "draw" && claim && !(await confirmAsk(T("Quickplay claim"),
      T("Rule {who}'s claim a draw? The game ends in a draw (Article {art}).", { who: whoLabel(claim.by), art: c ? c.article : "?" }),
      T("Draw"), claim.by))) return;
    // A postponement or a rejection gives the opponent time (2023 III.5.2, III.5.3; 1997 10.2(b): a rejection
    // gives none): asked first, naming the player who receives it.
    if (b.dataset.ruling !== "draw" && claim && c) {
      const postpone = b.dataset.ruling === "postpone";
      const gives = postpone ? c.postpone_gives_ms : c.reject_gives_ms;
      const rule = postpone ? "quickplay_postpone" : "quickplay_reject";
      const vars = { who: whoLabel(claim.by), opp: whoLabel(other(claim.by)), time: spanWords(gives || 0),
        art: hasArticle(rule) ? article(rule) : c.article };
      const text = postpone
        ? T("Postpone the decision on {who}'s claim? {opp} receives {time} more on the clock, and the game continues in your presence (Article {art}).", vars)
        : gives ? T("Reject {who}'s claim? {opp} receives {time} more on the clock, and the game continues (Article {art}).", vars)
          : T("Reject {who}'s claim? The game continues (Article {art}).", vars);
      if (!(await confirmAsk(T("Quickplay claim"), text, postpone ? T("Postpone") : T("Reject"),
        gives ? other(claim.by) : claim.by))) return;
    }
    send({ type: "decision", on: "quickplay", ruling: b.dataset.ruling });
  });
}
// A draw agreement the event's regulations make the arbiter's to allow (2023 9.1.1): the clocks stand still
// until he grants it (a draw by agreement) or rejects it (the offer lapses, the game goes on).
function agreementWaiting() {
  return S.status === "ongoing" ? S.pending.find((p) => p.kind === "claim" && p.reason === "agreement") : undefined;
}
function renderAgreement() {
  const claim = agreementWaiting();
  $("arb-agreement").hidden = !claim;
  if (claim) {
    $("arb-agreement-text").textContent = T("{who} accepts {other}'s draw offer: the regulations of the event need your consent to the agreement.",
      { who: whoLabel(claim.by), other: whoLabel(other(claim.by)) });
  }
}
for (const b of document.querySelectorAll("#arb-agreement button[data-ruling]")) {
  b.addEventListener("click", async () => {
    const claim = agreementWaiting();
    if (!claim) return;
    const grant = b.dataset.ruling === "grant";
    const text = grant ? T("Consent to the agreement? The game ends in a draw by agreement.")
      : T("Refuse your consent? The draw offer lapses and the game continues: the clocks run again.");
    if (!(await confirmAsk(T("Draw agreement"), text, grant ? T("Grant") : T("Reject"), claim.by))) return;
    send({ type: "decision", on: "agreement", ruling: b.dataset.ruling });
  });
}
$("arb-sheet-note").addEventListener("click", () =>
  send({ type: "scoresheet", by: $("sheet-who").value, plies: parseInt($("sheet-plies").value, 10) || 0 }));
$("arb-observe-flag").addEventListener("click", async () => {
  const down = ["white", "black"].filter((c) => S.clocks[c + "_ms"] === 0);
  const who = down.length === 1 ? down[0] : null;
  const text = who ? T("Record that you see {who}'s flag down? The game may end on time (Article {art}).", { who: whoLabel(who), art: article("flag") })
    : T("Record that you see a flag down? The game may end on time (Article {art}).", { art: article("flag") });
  if (!(await confirmAsk(T("A flag down"), text, T("Record"), who))) return;
  send({ type: "observe", what: "flag" });
});
// The arbiter who watches now and then sees an illegal move standing: the position before it is reinstated and
// the offender penalised (2023 7.5.1 and 7.5.5, 1997 7.4, 1989 8.1; the rule of this game's mode from the server).
// Where he only records that he does not act (1997 B.5 and C.3) nothing changes, and nothing is asked.
$("arb-observe-illegal").addEventListener("click", async () => {
  if (S.controls && S.controls.observe_illegal_acts !== false) {
    const claimable = S.pending.find((p) => p.kind === "illegal_move_claimable");
    const by = claimable ? other(claimable.by) : null;  // the last move made stands illegally: its player
    const last = S.moves[S.moves.length - 1];
    const art = article("observed_illegal");
    const pen = hasArticle("illegal_move_penalty") ? " " + T("The penalty: Article {pen}.", { pen: article("illegal_move_penalty") }) : "";
    const text = (by && last
      ? T("Record that you see {who}'s illegal move {uci}? The position before it is reinstated and {who} is penalised as for an illegal move (Article {art}).",
        { who: whoLabel(by), uci: last.san_local || last.san || last.uci, art })
      : T("Record that you see the last illegal move standing on the board? The position before it is reinstated and the player who made it is penalised as for an illegal move (Article {art}).", { art })) + pen;
    if (!(await confirmAsk(T("An illegal move observed"), text, T("Record the illegal move"), by))) return;
  }
  send({ type: "observe", what: "illegal_move" });
});
// 2023 and 1997 8.6, 1989 11.9: a flag down and the scoresheets cannot show the control passed: the next move is
// the first of the next period, and each player still in the period receives its time.
$("arb-next-period").addEventListener("click", async () => {
  const down = ["white", "black"].filter((c) => S.clocks[c + "_ms"] === 0);
  const who = down.length === 1 ? down[0] : null;
  const names = down.map((c) => whoLabel(c)).join(" " + T("and") + " ");
  if (!(await confirmAsk(T("Next move: first of the next period"),
    T("The flag of {names} is down and the scoresheets cannot show that the time control was passed. The next move is the first of the following period, and each player still in the period receives its time (Article {art}).",
      { names: names || T("A player"), art: article("next_period") }), T("Next period"), who))) return;
  send({ type: "decision", on: "period", ruling: "next_period" });
});
$("arb-decide-result").addEventListener("click", async () => {
  const sel = $("result-decided");
  const shown = sel.options[sel.selectedIndex].textContent;
  if (!(await confirmAsk(T("Result decided"), T("Decide that the result is {result}? It stands as the game's result (Article {art}).",
    { result: shown, art: article("result_decided") }), T("Decide")))) return;
  send({ type: "decision", on: "result", ruling: sel.value });
});
$("arb-request-sheet").addEventListener("click", () => send({ type: "request_scoresheet", by: $("sheet-who").value }));
$("arb-request-blank").addEventListener("click", () =>
  send({ type: "request_scoresheet", by: $("sheet-who").value, kind: "blank" }));
$("arb-request-count").addEventListener("click", () =>
  send({ type: "request_scoresheet", by: $("sheet-who").value, kind: "moves_and_times" }));
$("arb-explain").addEventListener("click", () => {
  const about = $("explain-about").value.trim();
  send({ type: "request_explanation", by: $("recourse-who").value, ...(about ? { about } : {}) });
  $("explain-about").value = "";
});
$("arb-appeal").addEventListener("click", () =>
  send({ type: "appeal", by: $("recourse-who").value, ruling: parseInt($("appeal-ruling").value, 10) || 1 }));
for (const [id, ruling] of [["arb-appeal-reject", "reject"], ["arb-appeal-accept", "accept"]]) {
  $(id).addEventListener("click", async () => {
    if (ruling === "accept" && !(await confirmAsk(T("The appeal accepted"), T("Accept the appeal? Your decision is reversed, and a result chosen replaces the game's (Article {art}).",
      { art: article("appeal_decision") }), T("Accept the appeal")))) return;
    // Several appeals waiting: the one against the ruling number entered above is decided.
    const waiting = S.pending.filter((p) => p.kind === "appeal");
    const chosen = parseInt($("appeal-ruling").value, 10);
    const event = { type: "appeal_decision", ruling };
    if (waiting.length > 1) event.appealed = chosen;
    const result = $("appeal-result").value;
    if (ruling === "accept" && result) event.result = result;
    send(event);
  });
}
$("arb-announce").addEventListener("click", () =>
  send({ type: "announce", by: $("sheet-who").value, move: $("announce-move").value.trim() }));
$("arb-game-score").addEventListener("click", () => send({
  type: "game_score", by: $("sheet-who").value,
  moves: $("score-moves").value.split(/[\s,]+/).map((m) => m.replace(/^\d+\.+/, "")).filter((m) => m),
}));
// 2023 8.7: once both players sign the same result it stands, even if it is not the board's: a signature with
// another result than the board's is asked first, naming the player (the earlier Laws give signatures no force).
$("arb-sign").addEventListener("click", async () => {
  const by = $("sheet-who").value, result = $("sign-result").value;
  if (hasArticle("signed_result") && result !== S.result) {
    const shown = (r) => r.replace(/1\/2/g, "½");
    if (!(await confirmAsk(T("Signed"), T("{who} signs the scoresheet with {result}, not the board's {board}. Once both players have signed the same result, it stands even if incorrect, unless you decide otherwise (Article {art}).",
      { who: whoLabel(by), result: shown(result), board: shown(S.result), art: article("signed_result") }), T("Signed"), by))) return;
  }
  send({ type: "sign", by, result });
});
$("arb-refuse").addEventListener("click", async () => {
  const who = $("ref-against").value;
  const text = who === "both" ? T("Both players persistently refuse to comply with the Laws: both lose the game.")
    : T("{who} persistently refuses to comply with the Laws and loses the game.", { who: NAME[who] });
  if (await confirmAsk(T("Refusal to comply"), text, T("Rule"))) send({ type: "refuse_to_comply", against: who });
});
$("arb-annul").addEventListener("click", async () => {
  const reason = $("annul-reason").value.trim();
  if (!(await confirmAsk(T("Annul the game"), T("The game is annulled: it has no result. This cannot be undone.")
    + (reason ? " " + T("Reason: {reason}.", { reason }) : ""), T("Annul")))) return;
  send(reason ? { type: "annul", reason } : { type: "annul" });
});
$("btn-press").addEventListener("click", () => send({ type: "press_clock" }));
// Over the board, the arbiter enters what the hand did within a move (touch, release, adjust) for the player
// having the move, and a touch-move claim for the player chosen above.
function handEvent(type) {
  const event = { type, square: $("hand-square").value.trim().toLowerCase(), by: S.turn };
  const from = $("hand-from").value.trim().toLowerCase();
  const piece = $("hand-piece").value;
  if (piece && type !== "adjust") event.piece = piece;
  else if (from && type === "release") event.from = from;
  return event;
}
// A touch or a release binds the player under the Laws (the touched piece moved or taken, the piece released
// on a square moved there): asked first, naming the player.
const HAND_ASK = {
  touch: ["A touched piece", "Record that {who} touched {sq}? The touched piece must be moved, or captured, if it can be (Article {art}).", "Record the touch", "touch_move"],
  release: ["A piece released", "Record that {who} released a piece on {sq}? A piece released on a square is moved there, if the move is legal (Article {art}).", "Record the release", "release"],
};
for (const type of ["touch", "release", "adjust"]) {
  $("btn-" + type).addEventListener("click", async () => {
    const event = handEvent(type);
    const ask = HAND_ASK[type];
    if (ask && event.square && !(await confirmAsk(T(ask[0]), T(ask[1], { who: whoLabel(event.by), sq: event.square,
      art: article(ask[3]) }), T(ask[2]), event.by))) return;
    if (await send(event)) { $("hand-square").value = ""; $("hand-from").value = ""; $("hand-piece").value = ""; }
  });
}
$("btn-claim-touch").addEventListener("click", async () => {
  const by = $("act-for").value;
  if (!(await confirmAsk(T("Claim touch-move"), T("Record {who}'s claim that {opponent}'s last move broke the touch-move rule (Article {art})?",
    { who: whoLabel(by), opponent: NAME[by === "white" ? "black" : "white"], art: article("touch_move") }), T("Record the claim"), by))) return;
  send({ type: "claim_touch_move" });
});
$("btn-displace").addEventListener("click", async () => {
  const squares = $("hand-square").value.split(/[ ,]+/).map((x) => x.trim().toLowerCase()).filter((x) => x);
  if (await send({ type: "displace", squares })) $("hand-square").value = "";
});
$("btn-restore").addEventListener("click", () => send({ type: "restore", by: $("act-for").value }));
