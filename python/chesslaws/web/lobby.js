// chesslaws: the lobby. Create a game, hand out the seat links, list the games.
"use strict";
const $ = (id) => document.getElementById(id);

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.style.display = "block";
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.style.display = "none"; }, 4500);
}

function markPreset() {
  for (const b of document.querySelectorAll("#presets button")) b.classList.toggle("on", b.dataset.tc === $("tc").value);
}
for (const b of document.querySelectorAll("#presets button")) {
  b.onclick = () => { $("tc").value = b.dataset.tc; markPreset(); };
}
$("tc").oninput = markPreset;
markPreset();

$("create").onsubmit = async (e) => {
  e.preventDefault();
  const body = {
    edition: $("edition").value, time_control: $("tc").value.trim() || "-",
    arbiter: $("arbiter").value, interface: $("interface").value,
  };
  for (const k of ["white", "black", "fen"]) { const v = $(k).value.trim(); if (v) body[k] = v; }
  if ($("mode").value) body.mode = $("mode").value;
  const res = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { toast(data.error || res.statusText); return; }
  const box = $("seatlinks");
  box.hidden = false;
  box.innerHTML = '<div class="empty">Each link is shown once: it holds the seat\'s secret. Send each player his own.</div>';
  const label = { white: "White", black: "Black", arbiter: "Arbiter", spectator: "Watch" };
  for (const seat of ["white", "black", "arbiter", "spectator"]) {
    if (!data.links[seat]) continue;
    const row = document.createElement("div");
    row.className = "link";
    const l = document.createElement("label"); l.textContent = label[seat];
    const inp = document.createElement("input"); inp.readOnly = true; inp.value = data.links[seat]; inp.id = "link-" + seat;
    const open = document.createElement("a"); open.className = "btn"; open.href = data.links[seat]; open.target = "_blank"; open.textContent = "Open";
    row.append(l, inp, open);
    box.appendChild(row);
  }
  for (const s of data.state.seats_open) {
    const p = document.createElement("div"); p.className = "empty";
    p.textContent = `The ${s} seat is open: whoever opens the watch link can take it.`;
    box.appendChild(p);
  }
  loadGames();
};

function stateLabel(g) {
  if (g.status === "ongoing") return `<span class="pill live">live</span>`;
  if (g.status === "annulled") return `<span class="pill">annulled</span>`;
  return `<span class="pill">${g.result.replace("1/2-1/2", "½–½")}</span> <span class="empty">${(g.termination || "").replace(/_/g, " ")}</span>`;
}

function esc(s) { return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }

async function loadGames() {
  let games = [];
  try { games = await (await fetch("/api/games")).json(); } catch (e) { return; }
  const tb = $("games").querySelector("tbody");
  if (!games.length) { tb.innerHTML = '<tr><td colspan="7" class="empty">No games yet: create one.</td></tr>'; return; }
  tb.innerHTML = games.slice(0, 100).map((g) => {
    const open = g.status === "ongoing" && g.seats_open.length ? ` <span class="empty">(${g.seats_open.join(", ")} open)</span>` : "";
    const name = (c) => (g.seats_open.includes(c) && g[c] === "?" ? '<span class="empty">open seat</span>' : esc(g[c]));
    return `<tr><td>${name("white")}</td><td>${name("black")}</td><td>${g.edition}</td><td>${esc(g.time_control)}</td>` +
      `<td>${Math.ceil(g.ply / 2)}</td><td>${stateLabel(g)}${open}</td><td><a href="/game/${encodeURIComponent(g.id)}">${g.status === "ongoing" ? "watch" : "replay"}</a></td></tr>`;
  }).join("");
}
loadGames();
setInterval(loadGames, 5000);
