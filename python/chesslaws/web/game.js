// chesslaws: the game page. Plain JavaScript, no dependencies.
"use strict";

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const FILES = "abcdefgh";
const NAME = { white: "White", black: "Black" };
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
let lang = localStorage.getItem("chesslaws:lang") || "en";
let squares = {};        // square name -> element

// --- the token: from the link's fragment, then kept in this browser ------------------------
(function readToken() {
  const m = /token=([^&]+)/.exec(location.hash);
  const key = "chesslaws:token:" + gameId;
  if (m) {
    token = decodeURIComponent(m[1]);
    localStorage.setItem(key, token);
    history.replaceState(null, "", location.pathname);
  } else {
    token = localStorage.getItem(key);
  }
})();

function toast(text, ok) {
  const el = $("toast");
  el.textContent = text;
  el.className = "toast" + (ok ? " ok" : "");
  el.style.display = "block";
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.style.display = "none"; }, ok ? 1800 : 4500);
}

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["Authorization"] = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) throw new Error((data && data.error) || res.statusText);
  return data;
}

const PLAYER_EVENTS = new Set(["offer_draw", "accept_draw", "decline_draw", "claim_draw", "claim_flag", "resign", "arrive"]);

async function send(event) {
  if (seat === "arbiter" && S && S.interface === "otb" && PLAYER_EVENTS.has(event.type) && !event.by) {
    event.by = $("act-for").value;
  }
  try {
    const ack = await api("POST", `/api/games/${gameId}/events?lang=${encodeURIComponent(lang)}`, event);
    if (ack && ack.state && ack.state.lang === lang && (!S || ack.state.seq >= S.seq)) setState(ack.state);
    return true;
  } catch (err) {
    toast(err.message);
    return false;
  }
}

// --- the board ------------------------------------------------------------------------------
function flipped() { return seat === "black"; }

function buildBoard() {
  const board = $("board");
  board.innerHTML = "";
  squares = {};
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = flipped() ? 7 - col : col;
      const rank = flipped() ? row + 1 : 8 - row;
      const name = FILES[file] + rank;
      const el = document.createElement("div");
      el.className = "sq " + ((file + rank) % 2 === 0 ? "l" : "d");  // h1 light, a1 dark (Article 2.1)
      el.dataset.sq = name;
      if (row === 7) { const c = document.createElement("span"); c.className = "coord file"; c.textContent = FILES[file]; el.appendChild(c); }
      if (col === 0) { const c = document.createElement("span"); c.className = "coord rank"; c.textContent = rank; el.appendChild(c); }
      board.appendChild(el);
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

function myTurnColor() {
  if (!S || S.status !== "ongoing" || !S.started) return null;
  if (seat === S.turn) return S.turn;
  if (seat === "arbiter" && S.interface === "otb") return S.turn;
  return null;
}

function legalFrom(sq) {
  if (!S || !myTurnColor()) return [];
  return S.legal_moves.filter((m) => m.uci.slice(0, 2) === sq);
}

function renderBoard() {
  const pieces = placement(S.fen);
  const last = S.moves.length ? S.moves[S.moves.length - 1].uci : null;
  const mover = myTurnColor();
  let checkSq = null;
  if (S.check) {
    const k = S.turn === "white" ? "K" : "k";
    checkSq = Object.keys(pieces).find((s) => pieces[s] === k) || null;
  }
  const targets = selected ? legalFrom(selected).map((m) => m.uci.slice(2, 4)) : [];
  for (const [name, el] of Object.entries(squares)) {
    const pc = pieces[name];
    let span = el.querySelector(".pc");
    if (pc) {
      if (!span) { span = document.createElement("span"); el.appendChild(span); }
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

function tryMove(from, to) {
  const cands = legalFrom(from).filter((m) => m.uci.slice(2, 4) === to);
  selected = null;
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
    b.title = { q: "queen", r: "rook", b: "bishop", n: "knight" }[p];
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
  $("board-wrap").appendChild(box);
}

async function playMove(uci) {
  let event;
  if (armedClaim) {
    event = { type: "claim_draw", reason: armedClaim, move: uci };
    armedClaim = null;
  } else {
    event = { type: "move", move: uci };
    if ($("offer-with-move").checked) { event.offer_draw = true; $("offer-with-move").checked = false; }
  }
  if (seat === "arbiter") event.by = S.turn;
  // Show the move at once; the server's state follows.
  const pieces = placement(S.fen);
  const from = uci.slice(0, 2);
  if (pieces[from] && squares[uci.slice(2, 4)]) {
    const span = squares[from].querySelector(".pc");
    const tgt = squares[uci.slice(2, 4)];
    const old = tgt.querySelector(".pc");
    if (old) old.remove();
    if (span) tgt.appendChild(span);
  }
  const ok = await send(event);
  if (!ok) renderBoard();
  renderActions();
}

const board = $("board");
board.addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || !S) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq) return;
  const promo = $("promo");
  if (promo) promo.remove();
  if (selected && selected !== sq && legalFrom(selected).some((m) => m.uci.slice(2, 4) === sq)) {
    tryMove(selected, sq);
    return;
  }
  if (legalFrom(sq).length) {
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

function clockMs(color) {
  const base = S.clocks[color + "_ms"];
  if (base === null || base === undefined) return null;
  if (S.status === "ongoing" && S.clocks.running === color && S.server_t >= 0) {
    return Math.max(0, base - (performance.now() - recvAt));
  }
  return base;
}

function tick() {
  if (S) {
    for (const [id, color] of [["top-player", flipped() ? "white" : "black"], ["bottom-player", flipped() ? "black" : "white"]]) {
      const el = $(id).querySelector(".clock");
      const ms = clockMs(color);
      el.textContent = S.server_t < 0 && ms !== null ? fmtClock(ms) : fmtClock(ms);
      const running = S.status === "ongoing" && S.clocks.running === color;
      el.classList.toggle("running", running);
      el.classList.toggle("low", ms !== null && ms < 10000);
      el.classList.toggle("flagged", ms === 0 && ms !== null);
      el.dataset.ms = ms === null ? "" : String(Math.round(ms));
    }
    if (S.server_t < 0) {
      const left = -S.server_t - (performance.now() - recvAt) / 1000;
      $("status").firstChild.textContent = left > 0 ? `The game starts in ${Math.ceil(left)} s` : "Starting…";
    }
  }
  requestAnimationFrame(tick);
}

// --- the panels ----------------------------------------------------------------------------------
function resultLine() {
  if (S.status === "annulled") return { head: "Game annulled", sub: "" };
  if (S.status === "adjourned") return { head: "Game adjourned", sub: "a sealed move waits in its envelope" };
  if (S.status !== "finished") return null;
  const t = TERMINATION[S.termination] || S.termination || "";
  let head;
  if (S.result === "1-0") head = `1–0 · ${NAME.white} wins`;
  else if (S.result === "0-1") head = `0–1 · ${NAME.black} wins`;
  else if (S.result === "1/2-1/2") head = "½–½ · Draw";
  else head = "0–0 · Both lose";
  return { head, sub: t ? `by ${t}` : "" };
}

function renderStatus() {
  const st = $("status");
  st.innerHTML = "";
  const main = document.createElement("span");
  const sub = document.createElement("span");
  sub.className = "sub";
  const res = resultLine();
  if (res) {
    main.textContent = res.head;
    sub.textContent = res.sub;
  } else if (S.server_t < 0) {
    main.textContent = "The game has not started yet";
  } else {
    const you = myTurnColor() && seat !== "arbiter" ? " — your move" : "";
    main.textContent = `${NAME[S.turn]} to move${you}`;
    const notes = [];
    if (S.check) notes.push("check");
    if (S.clocks.running === null && S.time_control !== "-") notes.push("clocks stopped");
    for (const p of S.pending) {
      if (p.kind === "claim") notes.push(`${NAME[p.by]}'s ${p.reason} claim awaits the arbiter`);
      if (p.kind === "sealed_move") notes.push(`${NAME[p.by]}'s sealed move is opened when ${NAME[p.by === "white" ? "black" : "white"]} is at the board`);
    }
    for (const a of S.absent || []) notes.push(`${NAME[a]} is not at the board`);
    if (!S.flags_observed && S.time_control !== "-") notes.push("flags count only when claimed");
    sub.textContent = notes.join(" · ");
  }
  st.appendChild(main);
  st.appendChild(sub);
  st.dataset.status = S.status;
  st.dataset.result = S.result;
  st.dataset.termination = S.termination || "";
  // The result over the board.
  let ov = $("result-overlay");
  if (res) {
    if (!ov) {
      ov = document.createElement("div");
      ov.className = "overlay-msg";
      ov.id = "result-overlay";
      ov.addEventListener("click", () => ov.remove());
      $("board-wrap").appendChild(ov);
      ov.innerHTML = '<div class="res"></div><div class="why"></div>';
    }
    ov.querySelector(".res").textContent = S.status === "annulled" ? "annulled"
      : S.status === "adjourned" ? "adjourned" : S.result.replace("1/2", "½").replace("1/2", "½");
    ov.querySelector(".why").textContent = res.sub || res.head;
  } else if (ov) {
    ov.remove();
  }
}

function renderPlayers() {
  const top = flipped() ? "white" : "black";
  const bottom = flipped() ? "black" : "white";
  for (const [id, color] of [["top-player", top], ["bottom-player", bottom]]) {
    const el = $(id);
    el.dataset.color = color;
    el.querySelector(".dot").className = "dot " + color;
    el.querySelector(".name").textContent = S[color] === "?" ? "(open seat)" : S[color];
    const tags = [NAME[color]];
    if (seat === color) tags.push("you");
    const score = S.score ? S.score[color] : null;
    if (score !== null && score !== undefined) tags.push(score === 0.5 ? "½" : String(score));
    el.querySelector(".tag").textContent = tags.join(" · ");
  }
}

function renderActions() {
  const player = seat === "white" || seat === "black";
  const ongoing = S.status === "ongoing" && S.started;
  $("actions").style.display = player || (seat === "arbiter" && S.interface === "otb") ? "" : "none";
  const otbArbiter = seat === "arbiter" && S.interface === "otb";
  $("act-for-box").hidden = !otbArbiter;
  const actor = otbArbiter ? $("act-for").value : seat;
  const offer = S.pending.find((p) => p.kind === "draw_offer");
  const myOffer = offer && offer.by === actor;
  $("btn-offer").disabled = !ongoing || !!myOffer;
  $("btn-threefold").disabled = !ongoing || actor !== S.turn;
  $("btn-fifty").disabled = !ongoing || actor !== S.turn;
  $("btn-quickplay").disabled = !ongoing || actor !== S.turn;
  $("btn-flag").disabled = !ongoing;
  $("btn-resign").disabled = !ongoing && S.status !== "adjourned";
  $("btn-seal").disabled = !ongoing || actor !== S.turn;
  $("btn-arrive").disabled = !(S.absent || []).includes(actor);
  $("btn-threefold").classList.toggle("on", armedClaim === "threefold");
  $("btn-fifty").classList.toggle("on", armedClaim === "fifty");
  const opp = actor === "white" ? "black" : "white";
  const oppMs = player || otbArbiter ? clockMs(opp) : null;
  $("btn-flag").classList.toggle("primary", ongoing && oppMs === 0);
  const box = $("offer");
  const key = offer && ongoing ? `${offer.by}/${actor}` : "";
  if (box.dataset.key === key) { renderJoin(); return; }
  box.dataset.key = key;
  box.innerHTML = "";
  if (offer && ongoing) {
    const div = document.createElement("div");
    div.className = "offer-banner";
    div.id = "offer-banner";
    const txt = document.createElement("span");
    txt.className = "txt";
    if (offer.by === actor) {
      txt.textContent = otbArbiter ? `${NAME[offer.by]}'s draw offer is pending.` : "Your draw offer is pending.";
      div.appendChild(txt);
    } else {
      txt.textContent = `${NAME[offer.by]} offers a draw.`;
      div.appendChild(txt);
      if (player || otbArbiter) {
        const a = document.createElement("button");
        a.className = "primary"; a.id = "btn-accept"; a.textContent = "Accept";
        a.onclick = () => send({ type: "accept_draw" });
        const d = document.createElement("button");
        d.id = "btn-decline"; d.textContent = "Decline";
        d.onclick = () => send({ type: "decline_draw" });
        div.appendChild(a); div.appendChild(d);
      }
    }
    box.appendChild(div);
  }
  renderJoin();
}

function renderJoin() {
  // Join an open seat.
  const jb = $("join-box");
  if (seat === "spectator" && S.seats_open.length && S.status === "ongoing") {
    jb.hidden = false;
    if (!jb.dataset.built) {
      jb.dataset.built = "1";
      jb.innerHTML = "";
      const label = document.createElement("span");
      label.textContent = "Play this game:";
      const sel = document.createElement("select"); sel.id = "join-seat";
      for (const s of S.seats_open) { const o = document.createElement("option"); o.value = s; o.textContent = NAME[s]; sel.appendChild(o); }
      const name = document.createElement("input"); name.id = "join-name"; name.placeholder = "your name";
      const btn = document.createElement("button"); btn.className = "primary"; btn.id = "btn-join"; btn.textContent = "Take the seat";
      btn.onclick = async () => {
        try {
          const r = await api("POST", `/api/games/${gameId}/join`, { seat: sel.value, name: name.value || "Player" });
          token = r.token;
          localStorage.setItem("chesslaws:token:" + gameId, token);
          await whoAmI();
          connect();
        } catch (err) { toast(err.message); }
      };
      jb.append(label, sel, name, btn);
    }
  } else {
    jb.hidden = true;
  }
}

function renderSheet() {
  const table = $("sheet");
  table.innerHTML = "";
  if (!S.moves.length) {
    table.innerHTML = '<tr><td class="empty">No moves yet.</td></tr>';
    return;
  }
  const fenParts = S.initial_fen.split(" ");
  let number = parseInt(fenParts[5] || "1", 10);
  let color = fenParts[1] === "b" ? "black" : "white";
  let tr = null;
  S.moves.forEach((m, i) => {
    if (color === "white" || !tr) {
      tr = document.createElement("tr");
      const n = document.createElement("td"); n.className = "n"; n.textContent = number + ".";
      tr.appendChild(n);
      if (color === "black") { const e = document.createElement("td"); e.textContent = "…"; tr.appendChild(e); }
      table.appendChild(tr);
    }
    const td = document.createElement("td");
    td.textContent = m.san_local || m.san;
    td.title = `${m.uci} · t=${m.t}s` + (m.clock_ms !== null ? ` · clock ${fmtClock(m.clock_ms)}` : "");
    if (m.draw_offer) { const eq = document.createElement("span"); eq.className = "eq"; eq.textContent = "(=)"; td.appendChild(eq); }
    if (i === S.moves.length - 1) td.className = "cur";
    tr.appendChild(td);
    if (color === "black") number++;
    color = color === "white" ? "black" : "white";
  });
  const sc = $("sheet-scroll");
  sc.scrollTop = sc.scrollHeight;
}

function renderRulings() {
  const ul = $("rulings");
  ul.innerHTML = "";
  if (!S.rulings.length) { ul.innerHTML = '<li class="empty" style="border:0;background:none">None so far.</li>'; return; }
  for (const r of S.rulings) {
    const li = document.createElement("li");
    const art = document.createElement("span"); art.className = "art"; art.textContent = `Article ${r.article} (${r.edition})`;
    const t = document.createElement("span"); t.className = "t"; t.textContent = `t = ${r.t} s`;
    const text = document.createElement("div"); text.textContent = r.text;
    li.append(art, t, text);
    ul.appendChild(li);
  }
  ul.scrollTop = ul.scrollHeight;
}

function render() {
  $("info").textContent = `Laws of ${S.edition} · ${S.time_control === "-" ? "no clock" : S.time_control} · ${S.mode} · arbiter ${S.arbiter}` +
    (S.interface === "otb" ? " · over the board" : "");
  document.title = `${S.white} v ${S.black} · chesslaws`;
  renderPlayers();
  renderBoard();
  renderStatus();
  renderActions();
  renderSheet();
  renderRulings();
}

function setState(state) {
  if (S && state.seq < S.seq) return;
  S = state;
  recvAt = performance.now() - 0;
  if (selected && !legalFrom(selected).length) selected = null;
  render();
}

// --- buttons ---------------------------------------------------------------------------------
$("btn-offer").onclick = () => {
  if ($("offer-with-move").checked && myTurnColor()) { toast("The offer goes with your next move.", true); return; }
  send({ type: "offer_draw" });
};
function claimButton(reason) {
  return () => {
    if ($("claim-with-move").checked) {
      armedClaim = armedClaim === reason ? null : reason;
      renderActions();
      if (armedClaim) toast("Now make the move you write down: the claim goes with it.", true);
      return;
    }
    send({ type: "claim_draw", reason });
  };
}
$("btn-threefold").onclick = claimButton("threefold");
$("btn-fifty").onclick = claimButton("fifty");
$("btn-quickplay").onclick = () => send({ type: "claim_draw", reason: "quickplay" });
$("btn-flag").onclick = () => send({ type: "claim_flag" });
$("btn-resign").onclick = () => {
  const b = $("btn-resign");
  if (Date.now() - resignArmed < 4000) {
    resignArmed = 0; b.classList.remove("armed"); b.textContent = "Resign";
    send({ type: "resign" });
    return;
  }
  resignArmed = Date.now();
  b.classList.add("armed"); b.textContent = "Confirm resign";
  setTimeout(() => { if (Date.now() - resignArmed >= 3900) { b.classList.remove("armed"); b.textContent = "Resign"; } }, 4000);
};

function parseClock(text) {
  const parts = text.trim().split(":").map((x) => parseFloat(x));
  if (!parts.length || parts.some((x) => isNaN(x) || x < 0)) return null;
  let s = 0;
  for (const p of parts) s = s * 60 + p;
  return Math.round(s * 1000);
}
$("btn-seal").onclick = () => {
  const move = $("seal-move").value.trim();
  if (!move) { toast("Write the move to seal first."); return; }
  send({ type: "seal", move });
  $("seal-move").value = "";
};
$("btn-arrive").onclick = () => send({ type: "arrive" });
$("arb-resume").onclick = () => send({ type: "resume" });
$("arb-lost").onclick = () => send({ type: "envelope_lost" });
$("arb-stop").onclick = () => send({ type: "stop_clocks" });
$("arb-start").onclick = () => send({ type: "start_clocks" });
$("arb-set").onclick = () => {
  const w = parseClock($("arb-w").value), b = parseClock($("arb-b").value);
  if (w === null || b === null) { toast("Write the times as m:ss (or h:mm:ss)."); return; }
  send({ type: "set_clocks", white_ms: w, black_ms: b });
};
$("arb-penalty").onclick = () => {
  const kind = $("pen-kind").value;
  const ev = { type: "penalty", against: $("pen-against").value, kind };
  if (kind === "add_time" || kind === "reduce_time") ev.seconds = parseFloat($("pen-sec").value);
  const reason = $("pen-reason").value.trim();
  if (reason) ev.reason = reason;
  send(ev);
};
for (const b of document.querySelectorAll(".arb-decision")) {
  b.onclick = () => send({ type: "decision", on: "quickplay", ruling: b.dataset.ruling });
}
$("arb-refuse").onclick = () => send({ type: "refuse_to_comply", against: $("ref-against").value });
$("arb-annul").onclick = () => {
  const reason = $("annul-reason").value.trim();
  send(reason ? { type: "annul", reason } : { type: "annul" });
};
$("act-for").onchange = () => { $("offer").dataset.key = "?"; renderActions(); };
$("lang").onchange = () => {
  lang = $("lang").value;
  localStorage.setItem("chesslaws:lang", lang);
  connect();
};

// --- the connection ------------------------------------------------------------------------------
async function whoAmI() {
  seat = "spectator";
  if (token) {
    try {
      seat = (await api("GET", `/api/games/${gameId}/seat`)).seat;
    } catch (err) {
      toast("This link's token opens no seat: watching as a spectator.");
      token = null;
      localStorage.removeItem("chesslaws:token:" + gameId);
    }
  }
  const badge = $("seat");
  badge.textContent = seat === "spectator" ? "spectator" : seat === "arbiter" ? "arbiter" : `playing ${NAME[seat]}`;
  badge.className = "seatbadge " + seat;
  document.body.dataset.seat = seat;
  $("console").hidden = seat !== "arbiter";
  buildBoard();
  if (S) render();
}

function connect() {
  if (ws) { ws.onclose = null; ws.close(); }
  const params = new URLSearchParams({ lang });
  if (token) params.set("token", token);
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${gameId}/ws?${params}`;
  const sock = new WebSocket(url);
  ws = sock;
  sock.onopen = () => { $("conn").classList.add("up"); $("conn").title = "connected"; };
  sock.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.kind === "state") {
      if (S && msg.state.lang !== S.lang) S = null;
      setState(msg.state);
    } else if (msg.kind === "error") {
      toast(msg.error);
      if (msg.status === 404) sock.onclose = null;
    }
  };
  sock.onclose = () => {
    $("conn").classList.remove("up");
    $("conn").title = "reconnecting…";
    setTimeout(() => { if (ws === sock) connect(); }, 1000);
  };
}

async function languages() {
  const sel = $("lang");
  let list = [{ code: "en", name: "English" }];
  try { list = await api("GET", "/api/languages"); } catch (err) { /* English only */ }
  for (const l of list) {
    const o = document.createElement("option"); o.value = l.code; o.textContent = l.name; sel.appendChild(o);
  }
  if (!list.some((l) => l.code === lang)) lang = "en";
  sel.value = lang;
}

(async function main() {
  $("pgn-link").href = `/api/games/${gameId}/pgn`;
  $("log-link").href = `/api/games/${gameId}/log`;
  await languages();
  await whoAmI();
  connect();
  requestAnimationFrame(tick);
  setInterval(() => { if (S) renderActions(); }, 500);
})();
