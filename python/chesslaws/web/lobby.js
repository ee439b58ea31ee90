// chesslaws: the lobby. Create a game, hand out the seat links (kept in this browser), list the games.
"use strict";
const $ = (id) => document.getElementById(id);
const LABEL = {  // in the page's language (i18n.js)
  get white() { return T("White"); }, get black() { return T("Black"); },
  get arbiter() { return T("Arbiter"); }, get spectator() { return T("Watch"); },
};

const { toast, copy, showQr } = TL;  // tlinks.js
document.title = `chesslaws · ${T("lobby")}`;

function esc(s) { return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }

// --- my games: every link this browser was given, in localStorage ------------------------------------
function myGames() {
  try { return JSON.parse(localStorage.getItem("chesslaws:mygames") || "{}") || {}; } catch (err) { return {}; }
}
function saveMyGames(all) { localStorage.setItem("chesslaws:mygames", JSON.stringify(all)); }

function linkRow(seat, link, idPrefix) {
  const row = document.createElement("div");
  row.className = "link";
  const l = document.createElement("label"); l.textContent = LABEL[seat]; l.htmlFor = idPrefix + seat;
  const inp = document.createElement("input"); inp.readOnly = true; inp.value = link; inp.id = idPrefix + seat;
  const c = document.createElement("button"); c.type = "button"; c.textContent = T("Copy"); c.className = "copy";
  c.setAttribute("aria-label", T("Copy the link of {name}", { name: LABEL[seat] }));
  c.addEventListener("click", () => copy(link, inp));
  const q = document.createElement("button"); q.type = "button"; q.textContent = "QR"; q.className = "qr";
  q.setAttribute("aria-label", T("QR code of the link of {name}", { name: LABEL[seat] }));
  q.addEventListener("click", () => showQr(link, LABEL[seat]));
  const open = document.createElement("a"); open.className = "btn"; open.href = link; open.target = "_blank"; open.textContent = T("Open");
  open.setAttribute("aria-label", T("Open the link of {name}", { name: LABEL[seat] }));
  row.append(l, inp, c, q, open);
  return row;
}

// --- creating a game -------------------------------------------------------------------------------------
// The time control is typed as players write it (5+3 = 5 minutes + 3 s a move); the line under it says what it
// means, and the API is sent its seconds form (TC.read, tc.js).
const readTc = TC.attach($("tc"), $("tc-meaning"));
function markPreset() {
  const r = TC.read($("tc").value);
  for (const b of document.querySelectorAll("#presets button")) b.classList.toggle("on", r.ok && b.dataset.tc === r.api);
}
for (const b of document.querySelectorAll("#presets button")) {
  b.addEventListener("click", () => { $("tc").value = TC.show(b.dataset.tc); readTc(); markPreset(); });
}
$("tc").addEventListener("input", markPreset);
markPreset();

function showStartFields() {
  const online = $("interface").value === "online";
  $("start-field").hidden = !online;
  $("abort-field").hidden = !online;
  $("start-at-field").hidden = !online || $("start").value !== "scheduled";
  // Article 6.7's default time: for a game that starts at a set time, and over the board (its sessions, the
  // resumption of an adjourned game too).
  $("default-field").hidden = online && $("start-at-field").hidden;
  $("c960-field").hidden = $("variant").value !== "chess960";
}
$("variant").addEventListener("change", () => {
  // Chess960 is in the 2023 Laws only (Guidelines II).
  if ($("variant").value === "chess960") $("edition").value = "2023";
  showStartFields();
});
$("edition").addEventListener("change", () => {
  if ($("edition").value !== "2023" && $("variant").value === "chess960") {
    $("variant").value = "standard";
    toast(T("Chess960 is in the 2023 Laws only: back to standard chess."));
  }
  showStartFields();
});
$("interface").addEventListener("change", showStartFields);
$("start").addEventListener("change", () => {
  if ($("start").value === "scheduled" && !$("start-at").value) {
    const d = new Date(Date.now() + 10 * 60000);
    $("start-at").value = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  }
  showStartFields();
});
showStartFields();

$("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  const tc = readTc();
  if (!tc.ok) { toast(tc.error); $("tc").focus(); return; }
  const body = {
    edition: $("edition").value, time_control: tc.api,
    arbiter: $("arbiter").value, interface: $("interface").value,
  };
  for (const k of ["white", "black", "fen"]) { const v = $(k).value.trim(); if (v) body[k] = v; }
  if ($("mode").value) body.mode = $("mode").value;
  if ($("clock-kind").value) body.clock = $("clock-kind").value;
  if ($("variant").value === "chess960") {
    body.variant = "chess960";
    const n = $("c960").value.trim();
    if (n !== "") {
      const k = Number(n);
      if (!Number.isInteger(k) || k < 0 || k > 959) { toast(T("A Chess960 position is numbered 0 to 959.")); return; }
      body.start_position = k;
    }
  }
  if (body.interface === "online") {
    if ($("start").value === "ready") {
      body.when_ready = true;
    } else {
      const [h, m] = ($("start-at").value || "").split(":").map((x) => parseInt(x, 10));
      if (isNaN(h) || isNaN(m)) { toast(T("Choose the start time.")); return; }
      const at = new Date(); at.setHours(h, m, 0, 0);
      if (at.getTime() <= Date.now()) at.setDate(at.getDate() + 1);
      body.start_in = Math.round((at.getTime() - Date.now()) / 1000);
      body.presence = true;  // absent until they open the game; Article 6.7's default time applies
      const dt = $("default-time").value.trim();
      if (dt !== "") body.default_time = Math.round(parseFloat(dt) * 60);
    }
    if ($("abort").checked) body.abort_after = 30;
  } else {
    const dt = $("default-time").value.trim();
    if (dt !== "") body.default_time = Math.round(parseFloat(dt) * 60);
  }
  const res = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { toast(data.error || res.statusText); return; }
  const all = myGames();
  all[data.id] = { id: data.id, created: Date.now(), white: data.state.white, black: data.state.black,
    time_control: data.state.time_control, links: data.links };
  saveMyGames(all);
  const box = $("seatlinks");
  box.hidden = false;
  box.innerHTML = "";
  const note = document.createElement("div"); note.className = "empty";
  note.textContent = T("Each link holds its seat's secret: send each player his own. This browser keeps them under \u201cMy games\u201d.");
  box.appendChild(note);
  for (const seat of ["white", "black", "arbiter", "spectator"]) {
    if (data.links[seat]) box.appendChild(linkRow(seat, data.links[seat], "link-"));
  }
  for (const s of data.state.seats_open) {
    const p = document.createElement("div"); p.className = "empty";
    p.textContent = T("The {colour} seat is open: whoever opens the watch link can take it.", { colour: TL.side(s) });
    box.appendChild(p);
  }
  renderMyGames();
  loadGames();
});

// --- my games ----------------------------------------------------------------------------------------------
async function renderMyGames() {
  const all = Object.values(myGames()).sort((a, b) => (b.created || 0) - (a.created || 0)).slice(0, 30);
  $("mygames-panel").hidden = !all.length;
  const ul = $("mygames");
  const states = await Promise.all(all.map((g) => fetch(`/api/games/${encodeURIComponent(g.id)}`)
    .then((r) => (r.ok ? r.json() : null)).catch(() => null)));
  ul.innerHTML = "";
  all.forEach((g, i) => {
    const st = states[i];
    const li = document.createElement("li");
    li.className = "mygame";
    li.dataset.id = g.id;
    const head = document.createElement("div"); head.className = "head";
    const title = document.createElement("a"); title.href = `/game/${encodeURIComponent(g.id)}`;
    title.textContent = st ? `${st.white} v ${st.black}` : `${g.white || "?"} v ${g.black || "?"}`;
    const info = document.createElement("span"); info.className = "empty";
    const flags = [];
    if (!st) flags.push(T("not on this server"));
    else {
      flags.push(st.time_control === "-" ? T("no clock") : TC.show(st.time_control));
      if (st.status === "ongoing") flags.push(st.waiting_for && st.waiting_for.length ? T("waiting for players") : T("live"));
      else flags.push(st.aborted ? T("aborted") : st.status === "finished" ? st.result.replace("1/2-1/2", "½–½") : T(st.status));
    }
    info.textContent = " " + flags.join(" · ");
    head.append(title, info);
    // The arbiter's games: what needs him now.
    if (st && g.links.arbiter) {
      const needs = [];
      if (st.pending.some((p) => p.kind === "claim")) needs.push(T("claim pending"));
      if (st.pending.some((p) => p.kind === "sealed_move")) needs.push(T("sealed move"));
      if (st.status === "ongoing" && st.started && st.clocks.running === null && st.time_control !== "-") needs.push(T("clocks stopped"));
      if (st.status === "adjourned") needs.push(T("adjourned"));
      if (needs.length) {
        li.classList.add("attention");
        const pill = document.createElement("span"); pill.className = "pill alert"; pill.textContent = needs.join(" · ");
        head.appendChild(pill);
      }
    }
    const forget = document.createElement("button"); forget.type = "button"; forget.className = "forget"; forget.textContent = T("Forget");
    forget.setAttribute("aria-label", T("Forget the links of {game}", { game: title.textContent }));
    forget.addEventListener("click", () => { const a = myGames(); delete a[g.id]; saveMyGames(a); renderMyGames(); });
    head.appendChild(forget);
    li.appendChild(head);
    for (const seat of ["white", "black", "arbiter", "spectator"]) {
      if (g.links && g.links[seat]) li.appendChild(linkRow(seat, g.links[seat], `my-${g.id}-`));
    }
    ul.appendChild(li);
  });
}

// --- the list of games: open seats and live games first -----------------------------------------------------
function stateLabel(g) {
  if (g.status === "ongoing" && g.waiting_for && g.waiting_for.length) return `<span class="pill live">${esc(T("waiting"))}</span>`;
  if (g.status === "ongoing") return `<span class="pill live">${esc(T("live"))}</span>`;
  if (g.status === "annulled") return `<span class="pill">${esc(T(g.aborted ? "aborted" : "annulled"))}</span>`;
  if (g.status === "adjourned") return `<span class="pill">${esc(T("adjourned"))}</span>`;
  return `<span class="pill">${esc(g.result.replace("1/2-1/2", "½–½"))}</span> <span class="empty term">${esc(endingText(g.termination))}</span>`;
}

function rank(g) {
  if (g.status === "ongoing" && g.seats_open.length) return 0;
  if (g.status === "ongoing") return 1;
  if (g.status === "adjourned") return 2;
  return 3;
}

async function loadGames() {
  let games = [];
  try { games = await (await fetch("/api/games")).json(); } catch (e) { return; }
  if (!Array.isArray(games)) return;
  const tb = $("games").querySelector("tbody");
  if (!games.length) { tb.innerHTML = `<tr><td colspan="7" class="empty">${esc(T("No games yet: create one."))}</td></tr>`; return; }
  games = games.map((g, i) => [g, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map((x) => x[0]);
  tb.innerHTML = games.slice(0, 100).map((g) => {
    const open = g.status === "ongoing" && g.seats_open.length ? ` <span class="empty open-note">(${esc(T("{seats} open", { seats: g.seats_open.map(TL.side).join(", ") }))})</span>` : "";
    const name = (c) => (g.seats_open.includes(c) && g[c] === "?" ? `<span class="empty">${esc(T("open seat"))}</span>` : esc(g[c]));
    const act = g.status === "ongoing" ? (g.seats_open.length ? "join" : "watch") : "replay";
    return `<tr><td class="nm">${name("white")}</td><td class="nm">${name("black")}</td><td class="wide">${esc(g.edition)}${g.chess960 ? ` <span class="pill" title="${esc(T("Chess960 (2023 Guidelines II)"))}">960${g.start_position !== null && g.start_position !== undefined ? " " + esc(T("No. {n}", { n: g.start_position })) : ""}</span>` : ""}</td>` +
      `<td class="tc" title="${esc(TC.read(TC.show(g.time_control)).meaning || g.time_control)}">${esc(TC.show(g.time_control)).replace(/:/g, ":<wbr>")}</td>` +
      `<td class="wide">${Math.ceil(g.ply / 2)}</td><td>${stateLabel(g)}${open}</td><td><a href="/game/${encodeURIComponent(g.id)}">${esc(T(act))}</a></td></tr>`;
  }).join("");
}
renderMyGames();
loadGames();
setInterval(loadGames, 5000);
setInterval(renderMyGames, 10000);
