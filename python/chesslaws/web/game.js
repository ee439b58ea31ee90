// chesslaws: the game page. Plain JavaScript, no dependencies.
"use strict";

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const FILES = "abcdefgh";
const NAME = { get white() { return T("White"); }, get black() { return T("Black"); } };  // in the page's language
//: A claim's reason as the status line names it.
const CLAIM_WORD = { threefold: "threefold repetition", fifty: "the fifty-move rule", quickplay: "Quickplay claim" };
const TERMINATION = {
  checkmate: "checkmate", resignation: "resignation", stalemate: "stalemate", agreement: "agreement",
  threefold_repetition: "threefold repetition", fifty_moves: "the fifty-move rule",
  fivefold_repetition: "fivefold repetition", seventyfive_moves: "the seventy-five-move rule",
  dead_position: "dead position", insufficient_material: "insufficient material", time_forfeit: "time",
  both_flags_fallen: "both flags fallen", illegal_moves: "illegal moves", late_arrival: "late arrival",
  sealed_move_invalid: "an invalid sealed move", arbiter_decision: "the arbiter's decision",
  refusal_to_comply: "refusal to comply", annulled: "annulment",
};

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let token = null;
let seat = "spectator";
let S = null;            // the latest state from the server
let recvAt = 0;          // performance.now() when S arrived
let selected = null;     // a square
let drag = null;         // {from, x, y, ghost, pointerId, wasSelected}
let armedClaim = null;   // "threefold" | "fifty": claim with the next move
let resignArmed = 0;
let ws = null;
let viewPly = null;      // null: the live position; k: the position after the k-th move (0: the start)
let userFlip = false;    // the board turned round by the viewer
let focusSq = null;      // the square the keyboard is on
let soundOn = localStorage.getItem("chesslaws:sound") !== "off";
let lastPly = null;      // to tell a new move (sound, announcement)
let lowWarned = false;
let lang = localStorage.getItem("chesslaws:lang") || window.UI_LANG || "en";  // scoresheet and dialogs; by default the browser's
let squares = {};        // square name -> element

// --- the token: from the link's fragment, then kept in this browser ------------------------
// One browser may hold several seats of a game (White, Black and the arbiter in three tabs): each tab keeps its
// own token (sessionStorage, which survives a reload), the address says its seat (#seat=white), and
// localStorage keeps every seat's token under the game AND the seat ("chesslaws:token:GAME:SEAT").
const TOKEN_KEY = "chesslaws:token:" + gameId;
function seatKey(s) { return TOKEN_KEY + ":" + s; }
function storedSeats() {
  return ["white", "black", "arbiter"].filter((s) => localStorage.getItem(seatKey(s)));
}
(function readToken() {
  const m = /token=([^&]+)/.exec(location.hash);
  const named = /seat=(white|black|arbiter)/.exec(location.hash);
  if (m) {
    token = decodeURIComponent(m[1]);
    history.replaceState(null, "", location.pathname);
  } else if (named) {
    token = localStorage.getItem(seatKey(named[1])) || sessionStorage.getItem(TOKEN_KEY);
  } else if (sessionStorage.getItem(TOKEN_KEY)) {
    token = sessionStorage.getItem(TOKEN_KEY);
  } else {
    const seats = storedSeats();  // the plain address: the seat this browser holds, if it holds only one
    token = seats.length === 1 ? localStorage.getItem(seatKey(seats[0])) : (seats.length ? null : localStorage.getItem(TOKEN_KEY));
  }
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
})();
function keepToken(seatName) {
  sessionStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(seatKey(seatName), token);
  history.replaceState(null, "", `${location.pathname}#seat=${seatName}`);
}
function forgetToken() {
  const named = /seat=(white|black|arbiter)/.exec(location.hash);
  if (named && localStorage.getItem(seatKey(named[1])) === token) localStorage.removeItem(seatKey(named[1]));
  if (localStorage.getItem(TOKEN_KEY) === token) localStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(TOKEN_KEY);
  history.replaceState(null, "", location.pathname);
}

function toast(text, ok) {
  const el = $("toast");
  el.textContent = text;
  el.className = "toast show" + (ok ? " ok" : "");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.className = "toast"; }, ok ? 2500 : 5000);
}

// A failure that says an event was NOT recorded stays on the screen (a player who looked away must still see
// that his move did not count) until he acts again (sends an event, a move), closes it (its button, or Escape),
// or a state shows the event recorded after all. It is an alert (role=alert): a screen reader says it at once.
// Other messages (toast) still vanish by themselves.
let failed = null;       // {event, plies}: the event the sticky failure is about
function stickyError(text, event) {
  const el = $("alert");
  failed = { event: event || null, plies: S ? S.moves.length : 0 };
  el.hidden = false;
  $("alert-text").textContent = "";  // a new text in the live region: said again even when it is the same
  $("alert-text").textContent = text;
  document.body.dataset.alertShown = String(Number(document.body.dataset.alertShown || 0) + 1);
}
function clearError() {
  failed = null;
  $("alert").hidden = true;
  $("alert-text").textContent = "";
}
// Does the state show the failed event recorded after all (a move answered too late, a resignation)?
function failedNowRecorded() {
  if (!failed || !failed.event || !S) return false;
  const ev = failed.event;
  const move = ev.type === "move" || (ev.type === "claim_draw" && ev.move) ? ev.move : null;
  if (move) return S.moves.slice(failed.plies).some((m) => m.uci === move || m.san === move);
  if (ev.type === "resign") return S.termination === "resignation";
  if (ev.type === "offer_draw") return S.pending.some((p) => p.kind === "draw_offer");
  return false;
}
$("alert-close").addEventListener("click", clearError);

function announce(text) {
  const el = $("announce");
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 30);
}

// The player a dialog is about, by colour and name: "White (Anna)".
function whoLabel(color) {
  const name = S && S[color] && S[color] !== "?" ? S[color] : "";
  return name ? `${NAME[color]} (${name})` : NAME[color];
}

// A confirmation with the server's text: resolves true when confirmed. `who` (a colour) names the player
// the step concerns in the title: "White (Anna): Resign". The focus starts on Cancel, so that Enter or
// Space pressed by habit cancels; the confirm button takes no click in its first moments, so that a
// double click or tap on the button that opened the dialog cannot confirm it.
const CONFIRM_ARM_MS = 400;
function confirmAsk(title, text, okLabel, who) {
  const dlg = $("confirm");
  $("confirm-title").textContent = who ? `${whoLabel(who)}: ${title}` : title;
  $("confirm-text").textContent = text;
  const yes = $("confirm-yes");
  yes.textContent = okLabel || T("Confirm");
  $("confirm-no").textContent = (S && S.controls && S.controls.cancel) || T("Cancel");
  dlg.dataset.who = who || "";
  return new Promise((resolve) => {
    const done = () => { dlg.removeEventListener("close", done); clearTimeout(confirmAsk.timer); resolve(dlg.returnValue === "ok"); };
    dlg.returnValue = "";
    dlg.addEventListener("close", done);
    yes.disabled = true;
    clearTimeout(confirmAsk.timer);
    confirmAsk.timer = setTimeout(() => { yes.disabled = false; }, CONFIRM_ARM_MS);
    dlg.showModal();
    $("confirm-no").focus();
  });
}

// --- sounds (generated, no files) -----------------------------------------------------------------
let audio = null;
function beep(freq, ms, gain) {
  if (!soundOn) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = freq; o.type = "triangle";
    g.gain.setValueAtTime(gain || 0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + ms / 1000);
    o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + ms / 1000);
    document.body.dataset.lastSound = String(freq);
  } catch (err) { /* no audio in this browser */ }
}
const SOUND = {
  move: () => beep(520, 90),
  capture: () => { beep(330, 120, 0.2); },
  check: () => { beep(880, 160, 0.2); },
  low: () => { beep(990, 80); setTimeout(() => beep(990, 80), 150); },
  end: () => { beep(440, 200); setTimeout(() => beep(660, 260), 200); },
};

// A move in words, for a screen reader, in the page's language: "White: knight g1 to f3, check".
const PIECE_WORD = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };
function moveWords(m) {
  const who = NAME[m.color];
  const san = m.san;
  const check = san.includes("#") ? ", " + T("checkmate") : san.includes("+") ? ", " + T("check") : "";
  if (san.startsWith("O-O-O")) return T("{color} castles queenside", { color: who }) + check;
  if (san.startsWith("O-O")) return T("{color} castles kingside", { color: who }) + check;
  const vars = { color: who, piece: T(PIECE_WORD[san[0]] || "pawn"), from: m.uci.slice(0, 2), to: m.uci.slice(2, 4) };
  let text = san.includes("x") ? T("{color}: {piece} {from} takes {to}", vars) : T("{color}: {piece} {from} to {to}", vars);
  const promo = /=([QRBN])/.exec(san);
  if (promo) text += ", " + T("promotes to {piece}", { piece: T(PIECE_WORD[promo[1]]) });
  return text + check;
}

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["Authorization"] = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {  // no answer at all: the network, or the server is down
    const e = new Error(T("The server cannot be reached."));
    e.status = 0;
    throw e;
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const e = new Error((data && data.error) || `${res.status} ${res.statusText}`.trim());
    e.status = res.status;
    e.retryAfter = parseInt(res.headers.get("retry-after") || "", 10) || null;
    throw e;
  }
  return data;
}

// What the player is told when an event was not recorded: the server could not take it (no answer, a
// server error, the database away) — nothing was recorded, try again; or the server refused it (the Laws,
// a wrong input): its reason. Never a silent failure.
function notRecorded(status, reason, retryAfter, event) {
  if (status === 0 || status >= 500) {
    const again = retryAfter ? T("Try again in {s} s.", { s: retryAfter }) : T("Try again.");
    const why = status === 0 ? T("The server cannot be reached.") : reason || String(status);
    // The server's own 503 says it already ("the game store is unreachable: nothing was recorded; ...").
    const said = /nothing was recorded/i.test(why);
    stickyError(said ? `${why.charAt(0).toUpperCase()}${why.slice(1)}. ${again}` : `${T("Nothing was recorded")}: ${why} ${again}`, event);
  } else {
    stickyError(reason || T("Refused."), event);
  }
}

//: The players' events (the server's schema: by "player"): over the board the arbiter enters them saying for whom,
//: the player "enters for" shows unless the control names another (a move: the player having it).
const PLAYER_EVENTS = new Set(["move", "press_clock", "announce", "request_scoresheet", "request_increment", "offer_draw",
  "accept_draw", "decline_draw", "claim_draw", "claim_flag", "claim_win", "resign", "touch", "release", "adjust", "displace",
  "scoresheet", "game_score", "sign", "claim_touch_move", "arrive", "seal", "claim_setup"]);

//: What a player's assistant may do at the board (2023 D.2.10-D.2.11): these take "assistant": true.
const ASSISTED = new Set(["move", "announce", "press_clock", "scoresheet", "game_score", "claim_flag",
  "claim_touch_move", "seal"]);

async function send(event) {
  if (seat === "arbiter" && S && S.interface === "otb" && PLAYER_EVENTS.has(event.type) && !event.by) {
    event.by = $("act-for").value;
  }
  if (seat === "arbiter" && S && S.interface === "otb" && ASSISTED.has(event.type) && $("by-assistant").checked
      && (S.assistants || []).includes(event.by)) {
    event.assistant = true;
    $("by-assistant").checked = false;
  }
  clearError();  // the player acts again: what he is told next is about this
  // Over the open socket when there is one: the new state arrives on it just before the acknowledgement,
  // with only the new moves. Without a socket, over HTTP, whose answer carries the whole state.
  if (ws && ws.readyState === WebSocket.OPEN) {
    const reply = await sendOnSocket(ws, event);
    if (reply && reply.kind === "ack") return true;
    if (reply) { notRecorded(reply.status, reply.error, reply.retry_after, event); return false; }
    stickyError(T("No answer from the server: it may not have recorded this. The board shows what it recorded once it is reachable again."), event);
    return false;
  }
  try {
    const ack = await api("POST", `/api/games/${gameId}/events?lang=${encodeURIComponent(lang)}`, event);
    if (ack && ack.state && ack.state.lang === lang && (!S || ack.state.seq >= S.seq)) setState(ack.state);
    return true;
  } catch (err) {
    notRecorded(err.status, err.message, err.retryAfter, event);
    return false;
  }
}

// Events sent on the socket wait for the answer bearing their rid (an "ack" or an "error").
let nextRid = 0;
const awaiting = new Map();
function sendOnSocket(sock, event) {
  return new Promise((resolve) => {
    const rid = ++nextRid;
    const timer = setTimeout(() => { if (awaiting.delete(rid)) resolve(null); }, 15000);
    awaiting.set(rid, (msg) => { clearTimeout(timer); resolve(msg); });
    try { sock.send(JSON.stringify({ rid, event })); } catch (err) { awaiting.delete(rid); clearTimeout(timer); resolve(null); }
  });
}
function answered(msg) {
  const done = msg.rid !== undefined && msg.rid !== null ? awaiting.get(msg.rid) : undefined;
  if (!done) return false;
  awaiting.delete(msg.rid);
  done(msg);
  return true;
}
function dropAwaiting() {  // the socket closed: what was sent on it has no answer coming
  for (const done of awaiting.values()) done(null);
  awaiting.clear();
}

// --- the board ------------------------------------------------------------------------------
function flipped() { return (seat === "black") !== userFlip; }

function buildBoard() {
  const board = $("board");
  board.innerHTML = "";
  squares = {};
  for (let row = 0; row < 8; row++) {
    const rowEl = document.createElement("div");
    rowEl.className = "row";
    rowEl.setAttribute("role", "row");
    board.appendChild(rowEl);
    for (let col = 0; col < 8; col++) {
      const file = flipped() ? 7 - col : col;
      const rank = flipped() ? row + 1 : 8 - row;
      const name = FILES[file] + rank;
      const el = document.createElement("div");
      el.className = "sq " + ((file + rank) % 2 === 0 ? "l" : "d");  // h1 light, a1 dark (Article 2.1)
      el.dataset.sq = name;
      el.setAttribute("role", "gridcell");
      el.tabIndex = -1;
      if (row === 7) { const c = document.createElement("span"); c.className = "coord file"; c.textContent = FILES[file]; el.appendChild(c); }
      if (col === 0) { const c = document.createElement("span"); c.className = "coord rank"; c.textContent = rank; el.appendChild(c); }
      rowEl.appendChild(el);
      squares[name] = el;
    }
  }
  sizeBoard();
}

function sizeBoard() {
  const wrap = $("board-wrap");
  wrap.style.setProperty("--sq", (wrap.clientWidth / 8) + "px");
}
window.addEventListener("resize", sizeBoard);

function placement(fen) {
  const out = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) { file += parseInt(ch, 10); continue; }
      out[FILES[file] + (8 - i)] = ch;
      file++;
    }
  });
  return out;
}

function clocksStopped() {
  return !!S && S.status === "ongoing" && S.started && S.time_control !== "-" && S.clocks.running === null && S.moves.length > 0;
}

function myTurnColor() {
  if (!S || S.status !== "ongoing" || !S.started) return null;
  // Clocks stopped (an interruption, a claim before the arbiter): no piece is picked up until they run again.
  if (clocksStopped() && S.interface !== "otb") return null;
  if (seat === S.turn) return S.turn;
  if (seat === "arbiter" && S.interface === "otb") return S.turn;
  return null;
}

function legalFrom(sq) {
  if (!S || !myTurnColor() || viewPly !== null) return [];
  return S.legal_moves.filter((m) => m.uci.slice(0, 2) === sq);
}

const PIECE_NAME = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
// A piece with its colour, as a square's label reads it ("white knight"), in the page's language.
function pieceWords(pc) {
  return T(`${pc === pc.toUpperCase() ? "white" : "black"} ${PIECE_NAME[pc.toLowerCase()]}`);
}

function shownFen() {
  if (viewPly === null) return S.fen;
  if (viewPly === 0) return S.initial_fen;
  return S.moves[viewPly - 1].fen || S.fen;
}

function renderBoard() {
  const live = viewPly === null;
  const pieces = placement(shownFen());
  const lastIdx = live ? S.moves.length - 1 : viewPly - 1;
  const last = lastIdx >= 0 ? S.moves[lastIdx].uci : null;
  const mover = myTurnColor();
  let checkSq = null;
  if (S.check && live) {
    const k = S.turn === "white" ? "K" : "k";
    checkSq = Object.keys(pieces).find((s) => pieces[s] === k) || null;
  }
  const targets = selected ? legalFrom(selected).map((m) => m.uci.slice(2, 4)) : [];
  if (selected) {
    for (const m of legalFrom(selected)) {
      const d = castleDestination(m);
      if (d && d !== selected && !targets.includes(d)) targets.push(d);
    }
  }
  for (const [name, el] of Object.entries(squares)) {
    const pc = pieces[name];
    let span = el.querySelector(".pc");
    if (pc) {
      if (!span) { span = document.createElement("span"); span.setAttribute("aria-hidden", "true"); el.appendChild(span); }
      const white = pc === pc.toUpperCase();
      span.textContent = GLYPH[pc.toLowerCase()];
      const mine = mover && (white ? "white" : "black") === mover;
      span.className = "pc " + (white ? "w" : "b") + (mine ? " mine" : "") +
        (drag && drag.ghost && drag.from === name ? " dragging" : "");
      span.dataset.piece = pc;
    } else if (span) {
      span.remove();
    }
    el.classList.toggle("last", !!last && (last.slice(0, 2) === name || last.slice(2, 4) === name));
    el.classList.toggle("sel", selected === name);
    el.classList.toggle("check", checkSq === name);
    el.classList.toggle("hint", targets.includes(name));
    el.classList.toggle("cap", targets.includes(name) && !!pc);
    const what = pc ? pieceWords(pc) : T("empty");
    el.setAttribute("aria-label", `${name}, ${what}` + (selected === name ? ", " + T("picked up") : "") +
      (targets.includes(name) ? ", " + T("a legal move") : ""));
    el.setAttribute("aria-selected", selected === name ? "true" : "false");
  }
  if (!focusSq || !squares[focusSq]) focusSq = flipped() ? "h8" : "a1";
  for (const [name, el] of Object.entries(squares)) el.tabIndex = name === focusSq ? 0 : -1;
  $("board-wrap").classList.toggle("past", !live);
  const v = $("viewing");
  if (live) { v.hidden = true; } else {
    v.hidden = false;
    v.textContent = viewPly === 0 ? T("Viewing the starting position — press End to return to the game")
      : T("Viewing the position after {move} — press End to return to the game", { move: S.moves[viewPly - 1].san_local || S.moves[viewPly - 1].san });
  }
}

function squareAt(x, y) {
  const rect = $("board").getBoundingClientRect();
  if (x < rect.left || y < rect.top || x >= rect.right || y >= rect.bottom) return null;
  const col = Math.floor((x - rect.left) / (rect.width / 8));
  const row = Math.floor((y - rect.top) / (rect.height / 8));
  const file = flipped() ? 7 - col : col;
  const rank = flipped() ? row + 1 : 8 - row;
  return FILES[file] + rank;
}

function select(sq) { selected = sq; renderBoard(); }

// Chess960 (2023 Guidelines II): a castling is the king moved onto its own rook (the move's UCI);
// moving the king to its castled square instead (g- or c-file) means that castling too, when no
// other move of the king goes there.
function castleDestination(m) {
  if (!S || !S.chess960) return null;
  const pieces = placement(S.fen);
  const from = m.uci.slice(0, 2), to = m.uci.slice(2, 4);
  const king = pieces[from], rook = pieces[to];
  if (!king || !rook || king.toLowerCase() !== "k" || rook.toLowerCase() !== "r") return null;
  if ((king === "K") !== (rook === "R")) return null;
  return (to[0] > from[0] ? "g" : "c") + from[1];
}

function movesTo(from, to) {
  const direct = legalFrom(from).filter((m) => m.uci.slice(2, 4) === to);
  if (direct.length) return direct;
  return legalFrom(from).filter((m) => castleDestination(m) === to && to !== from);
}

function tryMove(from, to) {
  const cands = movesTo(from, to);
  selected = null;
  if (!cands.length && illegalFrom(from) && !illegalFrom(to)) { renderBoard(); askIllegal(from + to); return; }
  if (!cands.length) { renderBoard(); return; }
  if (cands.length > 1) { askPromotion(from, to); renderBoard(); return; }
  playMove(cands[0].uci);
}

function askPromotion(from, to) {
  const color = S.turn;
  const box = document.createElement("div");
  box.className = "promo";
  box.id = "promo";
  const inner = document.createElement("div");
  inner.className = "choices";
  for (const p of ["q", "r", "b", "n"]) {
    const b = document.createElement("button");
    b.dataset.piece = p;
    b.title = T(PIECE_NAME[p]);
    b.setAttribute("aria-label", T("promotes to {piece}", { piece: b.title }));
    const span = document.createElement("span");
    span.className = "pc " + (color === "white" ? "w" : "b");
    span.style.fontSize = "56px";
    span.textContent = GLYPH[p];
    b.appendChild(span);
    b.addEventListener("click", (e) => { e.stopPropagation(); box.remove(); playMove(from + to + p); });
    inner.appendChild(b);
  }
  box.appendChild(inner);
  box.addEventListener("click", () => box.remove());
  box.addEventListener("keydown", (e) => { if (e.key === "Escape") { box.remove(); if (focusSq) squares[focusSq].focus(); } });
  $("board-wrap").appendChild(box);
  inner.querySelector("button").focus();
  announce(T("Promotion: choose queen, rook, bishop or knight"));
}

async function playMove(uci) {
  let event;
  const claimed = armedClaim;
  if (armedClaim) {
    event = { type: "claim_draw", reason: armedClaim, move: uci };
    armedClaim = null;
    $("claim-with-move").checked = false;
  } else {
    event = { type: "move", move: uci };
    if ($("offer-with-move").checked) { event.offer_draw = true; $("offer-with-move").checked = false; }
  }
  if (seat === "arbiter") event.by = S.turn;
  if (event.type === "move" && seat === "arbiter" && $("move-unpressed").checked) {
    event.press = false;  // over the board: the player moved without pressing the clock
    $("move-unpressed").checked = false;
  }
  if (event.type === "move" && seat === "arbiter" && $("move-announced").value.trim()) {
    event.announced = $("move-announced").value.trim();  // 2023 D.2.1: as spoken (a slip: D.2.8)
    $("move-announced").value = "";
  }
  // Show the move at once; the server's state follows.
  const pieces = placement(S.fen);
  const from = uci.slice(0, 2);
  const ownTarget = pieces[uci.slice(2, 4)] && pieces[from] &&
    (pieces[uci.slice(2, 4)] === pieces[uci.slice(2, 4)].toUpperCase()) === (pieces[from] === pieces[from].toUpperCase());
  if (pieces[from] && squares[uci.slice(2, 4)] && !ownTarget) {  // a Chess960 castling waits for the server
    const span = squares[from].querySelector(".pc");
    const tgt = squares[uci.slice(2, 4)];
    const old = tgt.querySelector(".pc");
    if (old) old.remove();
    if (span) tgt.appendChild(span);
  }
  const ok = await send(event);
  if (!ok) { renderBoard(); if (claimed) armedClaim = claimed; }
  renderActions();
}

const board = $("board");
board.addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || !S) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq) return;
  const promo = $("promo");
  if (promo) promo.remove();
  if (selected && selected !== sq && (movesTo(selected, sq).length > 0 || (illegalFrom(selected) && !illegalFrom(sq)))) {
    tryMove(selected, sq);
    return;
  }
  if (legalFrom(sq).length || illegalFrom(sq)) {
    const wasSelected = selected === sq;
    select(sq);
    drag = { from: sq, x: e.clientX, y: e.clientY, ghost: null, pointerId: e.pointerId, wasSelected };
    board.setPointerCapture(e.pointerId);
    e.preventDefault();
  } else {
    selected = null;
    renderBoard();
  }
});
board.addEventListener("pointermove", (e) => {
  if (!drag) return;
  if (!drag.ghost && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 4) {
    const span = squares[drag.from].querySelector(".pc");
    if (!span) return;
    const g = span.cloneNode(true);
    g.classList.add("ghost");
    g.classList.remove("mine");
    g.style.fontSize = getComputedStyle(span).fontSize;
    document.body.appendChild(g);
    drag.ghost = g;
    span.classList.add("dragging");
  }
  if (drag.ghost) {
    drag.ghost.style.left = e.clientX + "px";
    drag.ghost.style.top = e.clientY + "px";
    const over = squareAt(e.clientX, e.clientY);
    for (const [n, el] of Object.entries(squares)) el.classList.toggle("hover", n === over);
  }
});
function endDrag(e, cancelled) {
  if (!drag) return;
  const d = drag;
  drag = null;
  for (const el of Object.values(squares)) el.classList.remove("hover");
  try { board.releasePointerCapture(d.pointerId); } catch (err) { /* already released */ }
  if (d.ghost) {
    d.ghost.remove();
    const span = squares[d.from].querySelector(".pc");
    if (span) span.classList.remove("dragging");
    const to = cancelled ? null : squareAt(e.clientX, e.clientY);
    if (to && to !== d.from) { tryMove(d.from, to); return; }
    renderBoard();
    return;
  }
  if (d.wasSelected) { selected = null; renderBoard(); }
}
board.addEventListener("pointerup", (e) => endDrag(e, false));
board.addEventListener("pointercancel", (e) => endDrag(e, true));

// --- clocks -----------------------------------------------------------------------------------
function fmtClock(ms) {
  if (ms === null || ms === undefined) return "\u2014";
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (h) return `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
  if (ms < 20000) return `${m}:${String(sec).padStart(2, "0")}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

// The game's time on the server, as this page reckons it. A state gives the clocks at the game time
// server_t; it arrives some time later (the link's latency, more on a slow link or when messages queue),
// so counting down from its arrival would show the running clock that much fuller than the server's.
// Each state and each pong (its t) says the server's game time was at least t when it arrived here: the
// best of these bounds in the last minute (the message that came fastest) is the page's offset, and the
// running clock counts down from server_t by the game time that has passed since, arrival delay included.
const OFFSET_WINDOW_MS = 60000;
let offsets = [];        // [{at: performance.now(), off: seconds of game time minus local seconds}]
function clockSample(t) {
  if (typeof t !== "number" || t < 0) return;  // not started: t counts nothing yet
  const now = performance.now();
  offsets = offsets.filter((o) => now - o.at < OFFSET_WINDOW_MS);
  offsets.push({ at: now, off: t - now / 1000 });
}
function gameNow() {  // seconds
  let off = -Infinity;
  for (const o of offsets) off = Math.max(off, o.off);
  return off === -Infinity ? null : performance.now() / 1000 + off;
}

function clockMs(color) {
  const base = S.clocks[color + "_ms"];
  if (base === null || base === undefined) return null;
  // While the server cannot store moves its clocks are held (no flag falls for a player who cannot move;
  // the time is given back when the store returns): the page holds them too, at the server's time.
  if (S.status === "ongoing" && S.clocks.running === color && S.server_t >= 0 && !S.store_down) {
    const now = gameNow();
    const passed = now === null ? (performance.now() - recvAt) : Math.max(performance.now() - recvAt, (now - S.server_t) * 1000);
    return Math.max(0, base - passed);
  }
  return base;
}

function tick() {
  if (S) {
    for (const [id, color] of [["top-player", flipped() ? "white" : "black"], ["bottom-player", flipped() ? "black" : "white"]]) {
      const el = $(id).querySelector(".clock");
      const ms = clockMs(color);
      el.textContent = fmtClock(ms);
      const running = S.status === "ongoing" && S.clocks.running === color && S.started && !S.store_down;
      el.classList.toggle("running", running);
      el.classList.toggle("held", S.status === "ongoing" && S.clocks.running === color && !!S.store_down);
      el.classList.toggle("low", ms !== null && ms < 10000);
      el.classList.toggle("flagged", ms === 0 && ms !== null);
      el.dataset.ms = ms === null ? "" : String(Math.round(ms));
      el.setAttribute("aria-label", T("{color}'s clock: {time}", { color: NAME[color], time: clockWords(ms) }) +
        (el.classList.contains("held") ? ", " + T("held") : ""));
      if (running && color === seat && ms !== null && ms < 10000 && !lowWarned) { lowWarned = true; SOUND.low(); }
    }
    const first = $("status").firstChild;
    if (S.waiting_for && S.waiting_for.length) {
      // nothing counts down: the game starts when both players are there
    } else if (S.held) {
      // a tournament round's game: nothing counts down until the arbiter starts the round
    } else if (S.server_t < 0 && first) {
      const left = -S.server_t - (performance.now() - recvAt) / 1000;
      first.textContent = left > 0 ? T("The game starts in {s} s", { s: Math.ceil(left) }) : T("Starting…");
    } else if (S.abort_at !== null && S.abort_at !== undefined && S.status === "ongoing") {
      const left = S.abort_at - S.server_t - (performance.now() - recvAt) / 1000;
      const el = $("abort-note");
      if (el) {
        el.textContent = left > 0 ? T("{color} must make a first move within {s} s, or the game is aborted", { color: NAME[S.turn], s: Math.ceil(left) })
          : T("Aborting…");
      }
    }
  }
  requestAnimationFrame(tick);
}

function clockWords(ms) {
  if (ms === null || ms === undefined) return T("no clock");
  const s = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const parts = [];
  if (h) parts.push(h === 1 ? T("1 hour") : T("{n} hours", { n: h }));
  if (m) parts.push(m === 1 ? T("1 minute") : T("{n} minutes", { n: m }));
  if (sec || !parts.length) parts.push(sec === 1 ? T("1 second") : T("{n} seconds", { n: sec }));
  return parts.join(" ");
}

function readClocks() {
  if (!S) return;
  const text = `${NAME.white} ${clockWords(clockMs("white"))}, ${NAME.black} ${clockWords(clockMs("black"))}` +
    (S.clocks.running && S.status === "ongoing" ? "; " + T("{color}'s clock runs", { color: NAME[S.clocks.running] }) : "");
  announce(text);
  toast(text, true);
}

// --- the panels ----------------------------------------------------------------------------------
function resultLine() {
  if (S.status === "annulled" && S.aborted) {
    // Why, from the state's code (the rulings are in the reader's language, and no page reads their words).
    const why = S.abort ? T("{color} made no first move within {s} s", { color: NAME[S.abort.side], s: S.abort.after }) : "";
    return { head: T("Game aborted"), sub: (why ? why + ": " : "") + T("no result, nobody loses") };
  }
  if (S.status === "annulled") return { head: T("Game annulled"), sub: "" };
  if (S.status === "adjourned") return { head: T("Game adjourned"), sub: T("a sealed move waits in its envelope") };
  if (S.status !== "finished") return null;
  const t = TERMINATION[S.termination] ? T(TERMINATION[S.termination]) : S.termination || "";
  let head;
  if (S.result === "1-0") head = `1–0 · ${T("{color} wins", { color: NAME.white })}`;
  else if (S.result === "0-1") head = `0–1 · ${T("{color} wins", { color: NAME.black })}`;
  else if (S.result === "1/2-1/2") head = `½–½ · ${T("Draw")}`;
  else head = `0–0 · ${T("Both lose")}`;
  return { head, sub: t ? T("by {how}", { how: t }) : "" };
}

function renderStatus() {
  const st = $("status");
  st.innerHTML = "";
  const main = document.createElement("span");
  const sub = document.createElement("span");
  sub.className = "sub";
  const res = resultLine();
  const sealed = S.pending.find((p) => p.kind === "sealed_move");
  const running = S.clocks.running;
  if (res && S.status !== "adjourned") {
    // The result beside the board (never over it), in the panel the player was looking at.
    main.className = "res-big";
    main.textContent = S.status === "annulled" ? T(S.aborted ? "aborted" : "annulled")
      : S.result.replace("1/2", "½").replace("1/2", "½").replace("-", "–");
    // "White wins", "Draw", ... (the big line has the score)
    const words = res.head.includes("·") ? res.head.replace(/^[^·]*· /, "") : res.head + (res.sub ? " —" : "");
    sub.textContent = words + (res.sub ? " " + res.sub : "");
  } else if (res) {
    main.textContent = res.head;
    sub.textContent = res.sub;
  } else if (S.waiting_for && S.waiting_for.length) {
    const names = S.waiting_for.map((c) => NAME[c]).join(" " + T("and") + " ");
    main.textContent = T("Waiting for {names}", { names });
    sub.textContent = T("The clocks start when both players have opened the game.") +
      (S.seats_open.length ? " " + T("Open seat: {seats}.", { seats: S.seats_open.map((c) => NAME[c]).join(", ") }) : "");
  } else if (S.held) {
    main.textContent = T("The round has not started yet");
    sub.textContent = T("The clocks start when the arbiter starts the round.");
  } else if (S.server_t < 0) {
    main.textContent = T("The game has not started yet");
  } else {
    const notes = [];
    if (sealed && running && running !== S.turn) {
      // After resumption the replier's clock runs while the sealed move (the sealer's) waits in its envelope.
      main.textContent = T("{color}'s clock runs", { color: NAME[running] });
      notes.push(T("{color}'s sealed move is opened when {other} is at the board", { color: NAME[sealed.by], other: NAME[running] }));
    } else {
      const you = myTurnColor() && seat !== "arbiter" ? T(" — your move") : "";
      main.textContent = T("{color} to move", { color: NAME[S.turn] }) + you;
      if (sealed) notes.push(T("{color}'s sealed move waits to be opened", { color: NAME[sealed.by] }));
    }
    if (S.check) notes.push(T("check"));
    // A claim awaiting the arbiter stops the clocks until he decides it: the game goes on by his decision.
    const decides = S.pending.some((p) => p.kind === "claim");
    if (running === null && S.time_control !== "-") notes.push(T(clocksStopped() && !decides ? "clocks stopped: the game goes on when the arbiter restarts them" : "clocks stopped"));
    if (S.store_down) notes.push(T("the server cannot store moves just now: the clocks are held, and nothing is recorded until it can"));
    for (const p of S.pending) {
      if (p.kind === "claim" && p.reason === "agreement") notes.push(T("{color} accepts the draw offer: the agreement awaits the arbiter's consent", { color: NAME[p.by] }));
      else if (p.kind === "claim") notes.push(T("{color}'s claim ({reason}) awaits the arbiter", { color: NAME[p.by], reason: T(CLAIM_WORD[p.reason] || p.reason) }));
      // Shown to the arbiter only: nobody may tell a player he has not pressed (2023 12.6, 1997 13.6, 1989 12.9).
      if (p.kind === "clock_not_pressed" && seat === "arbiter") notes.push(T("{color} has not pressed the clock", { color: NAME[p.by] }));
      if (p.kind === "pieces_displaced") notes.push(T("{color} displaced pieces ({squares})", { color: NAME[p.by], squares: p.squares.join(", ") }));
      if (p.kind === "announcement_differs" && seat === "arbiter") {
        notes.push(T("{color}'s announcement differs from his move: a slip he may correct before pressing", { color: NAME[p.by] }));
      }
      if (p.kind === "illegal_move_not_completed" && seat === "arbiter") {
        notes.push(T("{color}'s illegal move is not completed (clock not pressed)", { color: NAME[p.by] }));
      }
    }
    for (const a of S.absent || []) notes.push(T("{color} is not at the board", { color: NAME[a] }));
    if (!S.flags_observed && S.time_control !== "-") notes.push(T("flags count only when claimed"));
    sub.textContent = notes.join(" · ");
    if (S.abort_at !== null && S.abort_at !== undefined && S.status === "ongoing") {
      const ab = document.createElement("span");
      ab.className = "sub warn"; ab.id = "abort-note";
      st.appendChild(main); st.appendChild(sub); st.appendChild(ab);
    }
  }
  if (!st.contains(main)) { st.appendChild(main); st.appendChild(sub); }
  st.dataset.status = S.status;
  st.dataset.result = S.result;
  st.dataset.termination = S.termination || "";
  $("play-panel").classList.toggle("over", !!res && S.status !== "adjourned");
}

function renderPlayers() {
  const top = flipped() ? "white" : "black";
  const bottom = flipped() ? "black" : "white";
  for (const [id, color] of [["top-player", top], ["bottom-player", bottom]]) {
    const el = $(id);
    el.dataset.color = color;
    el.querySelector(".dot").className = "dot " + color;
    el.querySelector(".name").textContent = S[color] === "?" ? T("(open seat)") : S[color];
    const tags = [NAME[color]];
    if (seat === color) tags.push(T("you"));
    if ((S.waiting_for || []).includes(color)) tags.push(T(S.seats_open.includes(color) ? "seat open" : "not here yet"));
    const score = S.score ? S.score[color] : null;
    if (score !== null && score !== undefined) tags.push(score === 0.5 ? "½" : String(score));
    el.querySelector(".tag").textContent = tags.join(" · ");
  }
}

function actorOf() {
  const otbArbiter = seat === "arbiter" && S.interface === "otb";
  return otbArbiter ? $("act-for").value : seat;
}

function renderActions() {
  const player = seat === "white" || seat === "black";
  const otbArbiter = seat === "arbiter" && S.interface === "otb";
  const ongoing = S.status === "ongoing" && S.started;
  const adjourned = S.status === "adjourned";
  const C = S.controls || {};
  // Nothing live once the game is over: the whole action panel goes.
  $("actions").hidden = !(player || otbArbiter) || !(ongoing || adjourned);
  $("act-for-box").hidden = !otbArbiter;
  for (const id of ["hand-box", "move-extra-box", "press-box", "touch-claim-box"]) $(id).hidden = !otbArbiter || !ongoing;
  const actor = actorOf();
  const myMove = ongoing && actor === S.turn;
  const claimPending = S.pending.some((p) => p.kind === "claim");
  const offer = S.pending.find((p) => p.kind === "draw_offer");
  // An agreement waiting for the arbiter's consent (2023 9.1.1): the offer was accepted; nothing more to answer.
  const agreement = S.pending.find((p) => p.kind === "claim" && p.reason === "agreement");
  const myOffer = offer && offer.by === actor;
  $("btn-offer").disabled = !(ongoing || adjourned) || !!myOffer;
  $("offer-with-move").disabled = !ongoing;
  $("btn-resign").disabled = !(ongoing || adjourned);
  // Draw claims: only the player having the move, with the choice of claiming with the next move.
  $("claims-box").hidden = !ongoing;
  $("btn-threefold").disabled = !myMove || claimPending;
  const withMove = $("claim-with-move").checked;
  const fiftyWithMove = C.fifty ? C.fifty.with_move : true;
  $("btn-fifty").disabled = !myMove || claimPending || (withMove && !fiftyWithMove);
  $("claim-with-move").disabled = !myMove || claimPending;
  $("btn-threefold").classList.toggle("on", armedClaim === "threefold");
  $("btn-fifty").classList.toggle("on", armedClaim === "fifty");
  $("claims-box").classList.toggle("armed", !!armedClaim);
  const hint = $("claim-with-move-hint");
  if (armedClaim) {
    hint.hidden = false;
    hint.textContent = armedClaim === "threefold"
      ? T("Armed: your next move is written down with a threefold repetition claim. Click the claim again to disarm.")
      : T("Armed: your next move is written down with a fifty-move claim. Click the claim again to disarm.");
  } else if (withMove) {
    hint.hidden = false;
    hint.textContent = C.with_move || "";
  } else {
    hint.hidden = true;
  }
  // Quickplay finish, flag claims, adjournment: only in games that allow them.
  $("quickplay-box").hidden = !ongoing || !C.quickplay;
  const myMs = player || otbArbiter ? clockMs(actor) : null;
  // The arbiter's own rule says who is in the quickplay finish (the last period, 1997 10.1, 2023 III.1).
  $("btn-quickplay").disabled = !C.quickplay || (C.quickplay.needs_move && !myMove) || claimPending || myMs === null ||
    myMs >= C.quickplay.below_ms || (Array.isArray(S.quickplay_players) && !S.quickplay_players.includes(actor));
  $("flag-box").hidden = !ongoing || !C.flag;
  const opp = actor === "white" ? "black" : "white";
  const oppMs = player || otbArbiter ? clockMs(opp) : null;
  $("btn-flag").classList.toggle("primary", ongoing && oppMs === 0);
  $("adjourn-box").hidden = !ongoing || !C.seal;
  $("btn-seal").disabled = !myMove;
  $("seal-move").disabled = !myMove;
  // Only when an arbiter is there to come: his console is open (never in a game against the computer).
  $("summon-box").hidden = !player || !ongoing || S.arbiter === "absent" || !S.arbiter_watching || S.clocks.running === null;
  // A player says he is at the board; over the board the arbiter enters each absent player's arrival by name.
  const absent = S.absent || [];
  $("arrive-box").hidden = !(ongoing || adjourned) || (otbArbiter ? !absent.length : !absent.includes(actor));
  $("btn-arrive").hidden = otbArbiter;
  for (const c of ["white", "black"]) {
    const b = $("btn-arrive-" + c);
    b.hidden = !otbArbiter || !absent.includes(c);
    b.textContent = T("{color} arrives", { color: NAME[c] });
  }
  $("move-entry").hidden = !(player || otbArbiter) || !ongoing || (clocksStopped() && !otbArbiter);
  renderEnd(player);
  const box = $("offer");
  const key = offer && (ongoing || adjourned) ? `${offer.by}/${actor}/${agreement ? agreement.by : ""}` : "";
  if (box.dataset.key === key) { renderJoin(); return; }
  box.dataset.key = key;
  box.innerHTML = "";
  if (offer && (ongoing || adjourned)) {
    const div = document.createElement("div");
    div.className = "offer-banner";
    div.id = "offer-banner";
    const txt = document.createElement("span");
    txt.className = "txt";
    if (agreement) {
      txt.textContent = T("{color} accepts the draw offer: the agreement awaits the arbiter's consent", { color: NAME[agreement.by] });
      div.appendChild(txt);
    } else if (offer.by === actor) {
      txt.textContent = otbArbiter ? T("{color}'s draw offer is pending.", { color: NAME[offer.by] }) : T("Your draw offer is pending.");
      div.appendChild(txt);
    } else {
      txt.textContent = T("{color} offers a draw.", { color: NAME[offer.by] });
      div.appendChild(txt);
      if (player || otbArbiter) {
        const a = document.createElement("button");
        a.className = "primary"; a.id = "btn-accept"; a.textContent = T("Accept");
        a.addEventListener("click", async () => {
          const by = actorOf();
          if (!(await confirmAsk(T("Accept the draw"), T("Accept {color}'s draw offer? The game ends in a draw (Article {art}).",
            { color: NAME[offer.by], art: article("agreement") }), T("Accept draw"), by))) return;
          send({ type: "accept_draw" });
        });
        const d = document.createElement("button");
        d.id = "btn-decline"; d.textContent = T("Decline");
        d.addEventListener("click", () => send({ type: "decline_draw" }));
        div.appendChild(a); div.appendChild(d);
      }
    }
    box.appendChild(div);
  }
  renderJoin();
}

// --- the end: a rematch (colours swapped) or a new game ------------------------------------------------------
let rematch = null;  // {id, by}: the rematch of this game, once someone asked for it
// A tournament's game ({id, name, round, table, page}): the page links back to the event, and offers neither a
// rematch nor a new game (the pairings decide who plays whom).
let tournament = null;
async function lookForTournament() {
  try { tournament = await api("GET", `/api/games/${gameId}/tournament`); } catch (err) { return; /* a game of its own */ }
  const a = $("tournament-link");
  a.href = tournament.page;
  a.textContent = "← " + T("{name}, round {round}", { name: tournament.name, round: tournament.round });
  a.hidden = false;
  $("btn-tournament").href = tournament.page;
  if (S) render();
}
function renderEnd(player) {
  const over = S.status === "finished" || S.status === "annulled";
  $("end-box").hidden = !over;
  if (!over) return;
  $("btn-tournament").hidden = !tournament;
  $("btn-newgame").hidden = !!tournament;
  $("btn-rematch").hidden = !player || !!tournament;
  const note = $("rematch-note");
  const asked = rematch && rematch.by && rematch.by !== seat && player;
  $("btn-rematch").textContent = T(asked ? "Accept the rematch" : rematch && player ? "Go to the rematch" : "Rematch");
  note.hidden = !asked;
  note.textContent = asked ? T("{color} asks for a rematch, colours swapped.", { color: NAME[rematch.by] }) : "";
  const watch = $("watch-rematch");
  watch.hidden = !rematch || player || !!tournament;
  if (rematch) watch.href = `/game/${encodeURIComponent(rematch.id)}`;
}
$("btn-rematch").addEventListener("click", async () => {
  $("btn-rematch").disabled = true;
  try {
    const r = await api("POST", `/api/games/${gameId}/rematch`);
    location.href = r.link;
  } catch (err) { toast(err.message); } finally { $("btn-rematch").disabled = false; }
});
// The state names the rematch once there is one (and the message of kind "rematch" says who asked for it).
function lookForRematch() {
  if (!S || !S.rematch || rematch) return;
  rematch = { id: S.rematch, by: null };
}

function renderJoin() {
  // Join an open seat.
  const jb = $("join-box");
  if (seat === "spectator" && S.seats_open.length && S.status === "ongoing") {
    jb.hidden = false;
    if (!jb.dataset.built) {
      jb.dataset.built = "1";
      jb.innerHTML = "";
      const label = document.createElement("label");
      label.textContent = T("Play this game:"); label.htmlFor = "join-seat";
      const sel = document.createElement("select"); sel.id = "join-seat";
      for (const s of S.seats_open) { const o = document.createElement("option"); o.value = s; o.textContent = NAME[s]; sel.appendChild(o); }
      const name = document.createElement("input"); name.id = "join-name"; name.placeholder = T("your name");
      name.setAttribute("aria-label", T("your name"));
      const btn = document.createElement("button"); btn.className = "primary"; btn.id = "btn-join"; btn.textContent = T("Take the seat");
      // The creator who holds the arbiter's link may be the opponent: said before the player sits down,
      // and the join says that he was told.
      const arbiterPlays = !!S.arbiter_is_a_player;
      btn.addEventListener("click", async () => {
        try {
          const body = { seat: sel.value, name: name.value || "Player" };
          if (arbiterPlays) body.arbiter_is_a_player = true;
          const r = await api("POST", `/api/games/${gameId}/join`, body);
          token = r.token;
          sessionStorage.setItem(TOKEN_KEY, token);
          await whoAmI();
          connect();
        } catch (err) { toast(err.message); }
      });
      if (arbiterPlays) {
        const warn = document.createElement("p"); warn.id = "join-arbiter-warning"; warn.className = "warn";
        warn.textContent = "⚠ " + T("The creator of this game, your opponent, also holds its arbiter's link: he can set the clocks and decide claims. Take the seat only if you accept this.");
        jb.append(label, sel, name, warn, btn);
      } else {
        jb.append(label, sel, name, btn);
      }
    }
  } else {
    jb.hidden = true;
  }
}

function renderSheet() {
  const table = $("sheet");
  table.innerHTML = "";
  if (!S.moves.length) {
    table.innerHTML = "";
    const tr = table.insertRow(); const td = tr.insertCell(); td.className = "empty"; td.textContent = T("No moves yet.");
    return;
  }
  const fenParts = S.initial_fen.split(" ");
  let number = parseInt(fenParts[5] || "1", 10);
  let color = fenParts[1] === "b" ? "black" : "white";
  let tr = null;
  const shown = viewPly === null ? S.moves.length : viewPly;
  S.moves.forEach((m, i) => {
    if (color === "white" || !tr) {
      tr = document.createElement("tr");
      const n = document.createElement("td"); n.className = "n"; n.textContent = number + ".";
      tr.appendChild(n);
      if (color === "black") { const e = document.createElement("td"); e.textContent = "…"; tr.appendChild(e); }
      table.appendChild(tr);
    }
    const td = document.createElement("td");
    const b = document.createElement("button");
    b.className = "mv";
    b.dataset.ply = String(i + 1);
    b.textContent = m.san_local || m.san;
    b.title = `${m.uci} · t=${m.t}s` + (m.clock_ms !== null ? " · " + T("clock {time}", { time: fmtClock(m.clock_ms) }) : "");
    b.setAttribute("aria-label", T("{move}: show this position", { move: `${number}${color === "white" ? "." : "..."} ${m.san_local || m.san}` }));
    b.addEventListener("click", () => setView(i + 1 === S.moves.length ? null : i + 1));
    td.appendChild(b);
    if (m.draw_offer) { const eq = document.createElement("span"); eq.className = "eq"; eq.textContent = "(=)"; td.appendChild(eq); }
    if (i === shown - 1) td.className = "cur";
    tr.appendChild(td);
    if (color === "black") number++;
    color = color === "white" ? "black" : "white";
  });
  const cur = table.querySelector("td.cur");
  const sc = $("sheet-scroll");
  if (viewPly === null) sc.scrollTop = sc.scrollHeight;
  else if (cur) cur.scrollIntoView({ block: "nearest" });
}

function gameTime(sec) {
  const s = Math.max(0, Math.floor(sec));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(r).padStart(2, "0")}`;
}

function renderRulings() {
  const ul = $("rulings");
  ul.innerHTML = "";
  if (!S.rulings.length) { ul.innerHTML = ""; const li = document.createElement("li"); li.className = "empty none"; li.textContent = T("None so far."); ul.appendChild(li); return; }
  for (const [i, r] of S.rulings.entries()) {
    const li = document.createElement("li");
    // Numbered as an appeal names them (2023 11.10: the "ruling" of an appeal event).
    const n = document.createElement("span"); n.className = "n"; n.textContent = `${i + 1}.`;
    const art = document.createElement("span"); art.className = "art"; art.textContent = T("Article {a} ({e})", { a: r.article, e: r.edition });
    // When, as a clock shows it: the time since the start of the game.
    const t = document.createElement("span"); t.className = "t"; t.textContent = gameTime(r.t);
    t.title = T("time since the start of the game");
    const text = document.createElement("div"); text.textContent = r.text;
    li.append(n, " ", art, t, text);
    ul.appendChild(li);
  }
  ul.scrollTop = ul.scrollHeight;
}

function render() {
  $("info").textContent = T("Laws of {e}", { e: S.edition }) +
    (S.chess960 ? ` · Chess960${S.start_position !== null && S.start_position !== undefined ? " " + T("No. {n}", { n: S.start_position }) : ""}` : "") +
    ` · ${S.time_control === "-" ? T("no clock") : TC.show(S.time_control)} · ${T(S.mode)} · ${T("arbiter {how}", { how: T(S.arbiter) })}` +
    (S.interface === "otb" ? ` · ${T("over the board")} · ${T("default time {time}", { time: fmtTime(S.default_time_ms) })}` : "") +
    (regulationsText(S.regulations) ? " · " + regulationsText(S.regulations) : "");
  document.title = `${S.white} v ${S.black} · chesslaws`;
  $("page-title").textContent = T("{white} (White) v {black} (Black)", { white: S.white, black: S.black });
  renderPlayers();
  renderBoard();
  renderStatus();
  renderActions();
  renderSheet();
  renderRulings();
  renderConsole();
  const n = S.moves.length;
  $("nav-first").disabled = $("nav-prev").disabled = n === 0 || viewPly === 0;
  $("nav-next").disabled = $("nav-last").disabled = viewPly === null;
}

function setView(ply) {
  if (!S) return;
  if (ply !== null && (ply < 0 || ply >= S.moves.length)) ply = ply < 0 ? 0 : null;
  viewPly = ply;
  selected = null;
  render();
  const shown = viewPly === null ? S.moves.length : viewPly;
  if (shown > 0) {
    const move = moveWords(S.moves[shown - 1]);
    announce(viewPly === null ? T("Position after {move}, the current position", { move }) : T("Position after {move}", { move }));
  } else announce(T("The starting position"));
}
function step(d) {
  if (!S) return;
  const cur = viewPly === null ? S.moves.length : viewPly;
  setView(Math.max(0, cur + d));
}

function setState(state) {
  if (S && state.seq < S.seq) return;
  const before = S;
  S = state;
  if (!before && S.competition !== null) lookForTournament();  // null: a game of its own (no event to ask for)
  recvAt = performance.now();
  clockSample(S.server_t);
  lookForRematch();
  if (selected && !legalFrom(selected).length) selected = null;
  if (viewPly !== null && viewPly > S.moves.length) viewPly = null;
  if (failedNowRecorded()) clearError();
  followTurn();
  render();
  const n = S.moves.length;
  if (lastPly !== null && n > lastPly) {
    const m = S.moves[n - 1];
    if (m.san.includes("+") || m.san.includes("#")) SOUND.check();
    else if (m.san.includes("x")) SOUND.capture();
    else SOUND.move();
    announce(moveWords(m));
  }
  if (before && before.status === "ongoing" && S.status !== "ongoing") {
    SOUND.end();
    const res = resultLine();
    if (res) announce(res.head + (res.sub ? ", " + res.sub : ""));
  }
  lastPly = n;
}

// --- buttons ---------------------------------------------------------------------------------
function ctl(name) { return (S && S.controls && S.controls[name]) || null; }

// An article of the game's edition that the page cites in its own dialogs (controls.articles).
function article(rule) { return (S && S.controls && S.controls.articles && S.controls.articles[rule]) || "?"; }
function hasArticle(rule) { return !!(S && S.controls && S.controls.articles && S.controls.articles[rule]); }
function other(color) { return color === "white" ? "black" : "white"; }

// A span of time in words, for the arbiter's dialogs: "2 minutes", "30 seconds", "1:30".
function spanWords(ms) {
  const s = Math.round(ms / 1000);
  if (s % 60 === 0) return s === 60 ? T("1 minute") : T("{n} minutes", { n: s / 60 });
  if (s < 60) return s === 1 ? T("1 second") : T("{n} seconds", { n: s });
  return fmtClock(ms);
}

// A time as a clock shows it, without tenths: "0:00", "4:59", "1:20:00".
function fmtTime(ms) {
  if (ms === null || ms === undefined) return "\u2014";
  const t = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
}
// The whole time a time control gives ("40/5400+30:1800+30": 7200 s), in ms; null without a clock.
function totalTimeMs(tc) {
  if (!tc || tc === "-") return null;
  let sec = 0;
  for (const p of String(tc).split(":")) {
    const m = /^(?:\d+\/)?(\d+(?:\.\d+)?)/.exec(p);
    if (m) sec += parseFloat(m[1]);
  }
  return sec * 1000;
}
// A clock set to more than this many times the whole time control is asked about explicitly.
const FAR_OVER = 1.5;

$("btn-offer").addEventListener("click", async () => {
  if ($("offer-with-move").checked && myTurnColor()) { toast(T("The offer goes with your next move."), true); return; }
  const c = ctl("offer_draw");
  if (!(await confirmAsk(c ? c.title : T("Offer draw"), c ? c.confirm : "", c ? c.ok : T("Offer draw"), actorOf()))) return;
  send({ type: "offer_draw" });
});
function claimButton(reason) {
  return async () => {
    if (armedClaim === reason) { armedClaim = null; renderActions(); return; }
    const c = ctl(reason);
    const withMove = $("claim-with-move").checked;
    const text = (c ? c.confirm : "") + (withMove && ctl("with_move") ? "\n\n" + S.controls.with_move : "");
    const ok = withMove ? (ctl("ok_claim_with_move") || T("with my next move")) : (c ? c.ok : T("Claim a draw"));
    if (!(await confirmAsk(c ? c.title : T("Claim a draw"), text, ok, actorOf()))) return;
    if (withMove) {
      armedClaim = reason;
      renderActions();
      toast(T("Now make the move you write down: the claim goes with it."), true);
      return;
    }
    send({ type: "claim_draw", reason });
  };
}
$("btn-threefold").addEventListener("click", claimButton("threefold"));
$("btn-fifty").addEventListener("click", claimButton("fifty"));
$("claim-with-move").addEventListener("change", () => { if (!$("claim-with-move").checked) armedClaim = null; renderActions(); });
$("btn-quickplay").addEventListener("click", async () => {
  const c = ctl("quickplay");
  if (!c || !(await confirmAsk(c.title, c.confirm, c.ok, actorOf()))) return;
  const event = { type: "claim_draw", reason: "quickplay" };
  if ($("quickplay-grounds").value) event.grounds = $("quickplay-grounds").value;
  if (S.arbiter === "absent") event.final_position = S.fen;  // written down for the opponent to verify (1997 D.1, 2023 III.6.1)
  send(event);
});
$("btn-flag").addEventListener("click", async () => {
  const c = ctl("flag");
  if (!c || !(await confirmAsk(c.title, c.confirm, c.ok, actorOf()))) return;
  send({ type: "claim_flag" });
});
$("btn-resign").addEventListener("click", async () => {
  const c = ctl("resign");
  if (!(await confirmAsk(c ? c.title : T("Resign"), c ? c.confirm : "", c ? c.ok : T("Resign"), actorOf()))) return;
  send({ type: "resign" });
});

function parseClock(text) {
  const parts = text.trim().split(":").map((x) => parseFloat(x));
  if (!parts.length || parts.some((x) => isNaN(x) || x < 0)) return null;
  let s = 0;
  for (const p of parts) s = s * 60 + p;
  return Math.round(s * 1000);
}
$("btn-seal").addEventListener("click", async () => {
  const move = $("seal-move").value.trim();
  if (!move) { toast(T("Write the move to seal first.")); return; }
  const c = ctl("seal");
  if (!(await confirmAsk(c ? c.title : T("Seal move"), (c ? c.confirm : "") + `\n\n${move}`, c ? c.ok : T("Seal move"), actorOf()))) return;
  if (await send({ type: "seal", move })) $("seal-move").value = "";
});
$("btn-arrive").addEventListener("click", () => send({ type: "arrive" }));
for (const c of ["white", "black"]) $("btn-arrive-" + c).addEventListener("click", () => send({ type: "arrive", by: c }));
$("lang").addEventListener("change", () => {
  lang = $("lang").value;
  localStorage.setItem("chesslaws:lang", lang);
  if (setUiLang(lang) || UI_LANGS.includes(lang)) { whoAmI(); }  // the whole page follows, where it has the language
  connect();
});

// --- board tools: browsing, flip, clocks, sounds, keyboard entry -------------------------------------
$("nav-first").addEventListener("click", () => setView(0));
$("nav-prev").addEventListener("click", () => step(-1));
$("nav-next").addEventListener("click", () => step(1));
$("nav-last").addEventListener("click", () => setView(null));
$("btn-flip").addEventListener("click", () => { userFlip = !userFlip; buildBoard(); if (S) render(); });
$("btn-clocks").addEventListener("click", readClocks);
$("sound-on").checked = soundOn;
$("sound-on").addEventListener("change", () => {
  soundOn = $("sound-on").checked;
  localStorage.setItem("chesslaws:sound", soundOn ? "on" : "off");
  if (soundOn) SOUND.move();
});

function normalise(text) { return text.trim().replace(/[+#!?]/g, "").replace(/0/g, "O").replace(/\s+/g, ""); }
function findMove(text) {
  const want = normalise(text);
  if (!want) return null;
  const lower = want.toLowerCase().replace(/-/g, "");
  for (const m of S.legal_moves) {
    if (m.uci === lower) return m;
    if (normalise(m.san) === want || (m.san_local && normalise(m.san_local) === want)) return m;
  }
  // Pawn captures and promotions written loosely: "exd5", "e8Q", "e8=q".
  for (const m of S.legal_moves) {
    const san = normalise(m.san).replace("=", "");
    if (san.toLowerCase() === want.replace("=", "").toLowerCase() && !/^[KQRBN]/.test(m.san)) return m;
  }
  return null;
}
$("move-entry").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("move-input").value;
  if (S && clocksStopped() && seat === S.turn) { toast(T("The clocks are stopped: wait until the arbiter restarts them.")); return; }
  if (!S || !myTurnColor()) { toast(T("It is not your move.")); return; }
  if (viewPly !== null) setView(null);
  const m = findMove(text);
  // Over the board the arbiter enters what was played: a move no legal move fits is read by the server as the
  // player wrote it, and recorded as an illegal move once confirmed (console.js).
  if (!m && illegalAllowed() && text.trim()) { readPlayed(text.trim()); return; }
  if (!m) { toast(T("No legal move “{text}” in this position.", { text: text.trim() })); return; }
  $("move-input").value = "";
  playMove(m.uci);
});

// The board with the keyboard: a roving focus over the squares.
function moveFocus(df, dr) {
  const f = FILES.indexOf(focusSq[0]), r = parseInt(focusSq[1], 10);
  const sign = flipped() ? -1 : 1;
  const nf = Math.min(7, Math.max(0, f + df * sign)), nr = Math.min(8, Math.max(1, r + dr * sign));
  focusSq = FILES[nf] + nr;
  renderBoard();
  squares[focusSq].focus();
}
board.addEventListener("keydown", (e) => {
  if (!S || !focusSq) return;
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (dirs[e.key]) { e.preventDefault(); e.stopPropagation(); moveFocus(...dirs[e.key]); return; }
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault(); e.stopPropagation();
    if (selected && selected !== focusSq && (movesTo(selected, focusSq).length > 0 || (illegalFrom(selected) && !illegalFrom(focusSq)))) {
      tryMove(selected, focusSq);
    } else if (legalFrom(focusSq).length || illegalFrom(focusSq)) {
      select(selected === focusSq ? null : focusSq);
      if (selected) announce(T("{square} picked up; {n} legal moves", { square: focusSq, n: legalFrom(focusSq).length }));
    } else {
      selected = null; renderBoard();
    }
    squares[focusSq].focus();
  }
  if (e.key === "Escape") { selected = null; renderBoard(); }
});
board.addEventListener("focusin", (e) => {
  const sq = e.target && e.target.dataset ? e.target.dataset.sq : null;
  if (sq) focusSq = sq;
});
document.addEventListener("keydown", (e) => {
  if (!S || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || $("confirm").open) return;
  if (e.key === "Escape" && !$("alert").hidden) { e.preventDefault(); clearError(); return; }
  if (e.key === "ArrowLeft" || e.key === ",") { e.preventDefault(); step(-1); }
  else if (e.key === "ArrowRight" || e.key === ".") { e.preventDefault(); step(1); }
  else if (e.key === "Home") { e.preventDefault(); setView(0); }
  else if (e.key === "End") { e.preventDefault(); setView(null); }
  else if (e.key === "f") { userFlip = !userFlip; buildBoard(); render(); }
  else if (e.key === "c") readClocks();
  else if (e.key === "p") announce(positionWords());
});
function positionWords() {
  const pieces = placement(shownFen());
  const out = [];
  for (const color of ["w", "b"]) {
    const list = Object.entries(pieces).filter(([, p]) => (p === p.toUpperCase()) === (color === "w"))
      .sort((a, b) => "kqrbnp".indexOf(a[1].toLowerCase()) - "kqrbnp".indexOf(b[1].toLowerCase()))
      .map(([sq, p]) => `${T(PIECE_NAME[p.toLowerCase()])} ${sq}`);
    out.push(`${NAME[color === "w" ? "white" : "black"]}: ${list.join(", ")}`);
  }
  return out.join(". ");
}

// --- the arbiter's alerts (summons, repeated claims), pushed by the server -----------------------------
// What an alert says, in the page's language: the server's own words in English, which cite the article.
function alertText(msg) {
  const color = NAME[msg.by] || msg.by;
  if (window.UI_LANG === "en" && msg.text) return msg.text;
  if (msg.what === "summons") return T("{color} stopped the clocks to summon the arbiter.", { color });
  if (msg.what === "annoyance") return T("{color} has made {n} claims that did not end the game: unreasonable claims may annoy the opponent.", { color, n: msg.count });
  if (msg.what === "decide") {
    const claim = S && S.pending.find((p) => p.kind === "claim" && p.by === msg.by);
    if (claim && claim.reason === "agreement") return T("{color} accepts the draw offer, but the regulations of the event need your consent: the clocks are stopped until you grant or reject the agreement.", { color });
    return T("{color} makes a claim: the clocks are stopped until you decide it.", { color });
  }
  return msg.text || T("The arbiter is called.");
}
function showAlert(msg) {
  const ul = $("arb-alerts");
  ul.hidden = false;
  const li = document.createElement("li");
  const text = alertText(msg);
  li.textContent = (msg.t !== undefined ? `t = ${msg.t} s · ` : "") + text;
  ul.prepend(li);
  while (ul.children.length > 5) ul.lastChild.remove();
  toast(text, true);
  SOUND.check();
}

$("btn-summon").addEventListener("click", async () => {
  if (!(await confirmAsk(T("Call the arbiter"), T("Stop the clocks to call the arbiter? Do it only to ask for his help: the arbiter restarts the clocks."),
    T("Stop clocks and call"), actorOf()))) return;
  send({ type: "stop_clocks" });
});

// --- my games: the links this browser holds -----------------------------------------------------------
function remember(seatName) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem("chesslaws:mygames") || "{}") || {}; } catch (err) { all = {}; }
  const g = all[gameId] || { id: gameId, created: Date.now(), links: {} };
  g.links = g.links || {};
  g.links[seatName] = `${location.origin}/game/${gameId}#token=${token}`;
  g.links.spectator = `${location.origin}/game/${gameId}`;
  all[gameId] = g;
  localStorage.setItem("chesslaws:mygames", JSON.stringify(all));
}

// --- the connection ------------------------------------------------------------------------------
async function whoAmI() {
  seat = "spectator";
  if (token) {
    try {
      seat = (await api("GET", `/api/games/${gameId}/seat`)).seat;
      if (seat !== "spectator") { remember(seat); keepToken(seat); }
    } catch (err) {
      toast(T("This link's token opens no seat: watching as a spectator."));
      forgetToken();
      token = null;
    }
  }
  const badge = $("seat");
  badge.textContent = seat === "spectator" ? T("spectator") : seat === "arbiter" ? T("arbiter") : T("playing {color}", { color: NAME[seat] });
  badge.className = "seatbadge " + seat;
  document.body.dataset.seat = seat;
  $("console").hidden = seat !== "arbiter";
  setHelp(seat === "arbiter" ? "/manual/guides/arbiter/" : document.body.dataset.help);
  buildBoard();
  if (S) render();
}

// A state from the socket: with moves=new it holds only the moves after the first moves_from of
// those this socket was sent, and no controls while they are unchanged.
function takeState(state, sock) {
  if (S && state.lang !== S.lang) S = null;
  const from = state.moves_from;
  if (from > 0) {
    if (!S || S.moves.length < from) { sock.close(); return; }  // cannot happen; a reconnection sends all
    state.moves = S.moves.slice(0, from).concat(state.moves);
  }
  if (!("controls" in state)) {
    if (!S) { sock.close(); return; }
    state.controls = S.controls;
  }
  setState(state);
}

// The connection. A dropped socket is said at once (the offline bar: the board and clocks may be out of date)
// and connected again by itself, after 1 s, then up to every 5 s; the first state on the new socket is
// whole. A heartbeat finds a connection that died without a close (a phone that changed networks, a
// sleeping laptop, a proxy that dropped it): every HEARTBEAT.every ms the page sends {"type": "ping"}, and
// only a ping left unanswered for HEARTBEAT.within ms closes the socket and connects again. A socket that has
// not opened within HEARTBEAT.open ms (a handshake lost on the way or held by something between) is given up
// the same way: the state is read over HTTP meanwhile, and the page connects again.
const HEARTBEAT = Object.assign({ every: 10000, within: 5000, open: 8000 }, window.CHESSLAWS_HEARTBEAT || {});
let attempts = 0;        // connections tried since the last one that opened
let pingId = 0;
function offline(down) {
  $("offline").hidden = !down;
  document.body.classList.toggle("offline", down);
  $("conn").classList.toggle("up", !down);
  const label = down ? T("reconnecting…") : T("connected");
  $("conn").title = label;
  $("conn").setAttribute("aria-label", label);
}
function heartbeat(sock) {
  const beat = { timer: null, waiting: null, id: 0 };
  const ping = () => {
    if (ws !== sock || sock.readyState !== WebSocket.OPEN || beat.waiting) return;
    beat.id = ++pingId;
    try { sock.send(JSON.stringify({ type: "ping", id: beat.id })); } catch (err) { /* closing */ }
    beat.waiting = setTimeout(() => {  // no pong: the connection is dead, though no close came
      if (ws !== sock) return;
      lost(sock);
    }, HEARTBEAT.within);
  };
  beat.timer = setInterval(ping, HEARTBEAT.every);
  beat.ping = ping;
  beat.pong = (msg) => {
    clockSample(msg.t);
    if (msg.id !== beat.id) return;
    clearTimeout(beat.waiting);
    beat.waiting = null;
    document.body.dataset.pongs = String(Number(document.body.dataset.pongs || 0) + 1);
  };
  beat.stop = () => { clearInterval(beat.timer); clearTimeout(beat.waiting); beat.waiting = null; };
  return beat;
}
let beat = null;
// The socket is lost (closed, or found dead): what was sent on it has no answer coming; connect again.
function lost(sock) {
  if (ws !== sock) return;
  sock.onclose = null;
  sock.onmessage = null;
  try { sock.close(); } catch (err) { /* already closed */ }
  if (beat) { beat.stop(); beat = null; }
  dropAwaiting();
  offline(true);
  ws = null;
  readState();  // meanwhile the state over HTTP, if it answers (a network that blocks WebSockets)
  const wait = Math.min(5000, 1000 * Math.max(1, attempts));
  clearTimeout(lost.timer);
  lost.timer = setTimeout(() => { if (ws === null) connect(); }, wait);
}
window.addEventListener("online", () => { if (ws === null) { clearTimeout(lost.timer); connect(); } });
// Back to a tab that slept (a laptop's lid, a phone's screen): ask the server at once whether the socket lives.
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && beat) beat.ping(); });

async function readState() {
  try {
    const state = await api("GET", `/api/games/${gameId}?lang=${encodeURIComponent(lang)}`);
    if (state && state.lang === lang && (!S || state.seq >= S.seq)) setState(state);
  } catch (err) { /* unreachable too: the offline bar says so */ }
}

function connect() {
  if (ws) { ws.onclose = null; ws.onmessage = null; ws.close(); dropAwaiting(); }
  if (beat) { beat.stop(); beat = null; }
  attempts++;
  // moves=new: each state carries only the moves this socket lacks (after the first moves_from).
  const params = new URLSearchParams({ lang, moves: "new" });
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${gameId}/ws?${params}`;
  // The seat's token goes in the subprotocol header, never in the URL (which proxies log).
  // (A token is URL-safe; anything else opens no seat, and would make the header invalid.)
  const sock = new WebSocket(url, token && /^[\w-]+$/.test(token) ? ["chesslaws", "chesslaws.token." + token] : ["chesslaws"]);
  ws = sock;
  const opening = setTimeout(() => { if (ws === sock && sock.readyState === WebSocket.CONNECTING) lost(sock); }, HEARTBEAT.open);
  sock.onopen = () => {
    clearTimeout(opening);
    if (ws !== sock) return;
    attempts = 0;
    offline(false);
    beat = heartbeat(sock);
  };
  sock.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.kind === "state") {
      takeState(msg.state, sock);
    } else if (msg.kind === "pong") {
      if (beat && ws === sock) beat.pong(msg);
    } else if (msg.kind === "ack") {
      if (msg.state) takeState(msg.state, sock);  // the acknowledgement of our event, with the new state
      answered(msg);
    } else if (msg.kind === "alert") {
      showAlert(msg);
    } else if (msg.kind === "rematch") {
      rematch = { id: msg.id, by: msg.by };
      if (S) renderActions();
      if (msg.by !== seat) announce(T("{color} asks for a rematch.", { color: NAME[msg.by] }));
    } else if (msg.kind === "error") {
      if (answered(msg)) return;
      toast(msg.error);
      if (msg.status === 404) sock.onclose = null;
    }
  };
  sock.onclose = () => lost(sock);
}

// A language by its own name ("Deutsch", "Français"), as a player looks for it; the server's English name
// (with it, for whoever reads neither) where the browser does not know the language (Figurine).
function ownName(code, name) {
  try {
    const own = new Intl.DisplayNames([code], { type: "language" }).of(code);
    if (own && own.toLowerCase() !== code.toLowerCase()) return own.charAt(0).toLocaleUpperCase(code) + own.slice(1);
  } catch (err) { /* not a language tag the browser knows */ }
  return name;
}
async function languages() {
  const sel = $("lang");
  let list = [{ code: "en", name: "English" }];
  try { list = await api("GET", "/api/languages"); } catch (err) { /* English only */ }
  for (const l of list) {
    // A language by its own name; figurines (no language: the pieces drawn) in the page's language.
    const o = document.createElement("option"); o.value = l.code; o.textContent = l.code === "figurine" ? T(l.name) : ownName(l.code, l.name);
    if (o.textContent !== l.name) o.title = l.name;
    sel.appendChild(o);
  }
  if (!list.some((l) => l.code === lang)) lang = "en";
  sel.value = lang;
}

(async function main() {
  $("status").textContent = T("Connecting…");
  $("pgn-link").href = `/api/games/${gameId}/pgn`;
  $("log-link").href = `/api/games/${gameId}/log`;
  // The log with this seat's token (the arbiter sees the sealed move in it).
  $("log-link").addEventListener("click", async (e) => {
    if (!token) return;
    e.preventDefault();
    try {
      const r = await fetch(`/api/games/${gameId}/log`, { headers: { Authorization: "Bearer " + token } });
      const blob = new Blob([await r.text()], { type: "text/plain" });
      window.open(URL.createObjectURL(blob), "_blank");
    } catch (err) { toast(T("The log could not be read.")); }
  });
  await languages();
  await whoAmI();
  connect();
  requestAnimationFrame(tick);
  setInterval(() => { if (S) renderActions(); }, 500);
})();
