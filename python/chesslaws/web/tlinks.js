"use strict";
// Links of the tournament pages (the event list, the round console, the pairing sheet, a player's page):
// a read-only field with Copy, QR and Open; the QR dialog; the events this browser was given, kept in
// localStorage like the lobby's seat links ("chesslaws:mytournaments": id -> {name, console, players}).
// The lobby loads it too, for its toast, Copy and QR (one implementation of each); where the page has
// i18n.js, the messages are in the page's language. And what every tournament page writes the same way:
// a score (one formatting of points and tie-breaks), a result, a bye, a system, a tie-break's name.
const TL = (function () {
  const $ = (x) => document.getElementById(x);
  const tr = (text, vars) => (typeof T === "function" ? T(text, vars)
    : text.replace(/\{(\w+)\}/g, (m, k) => (vars && k in vars ? String(vars[k]) : m)));
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function toast(text, ok) {
    const t = $("toast");
    if (!t) return;
    t.textContent = text;
    t.className = "toast show" + (ok ? " ok" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.className = "toast"; }, ok ? 2500 : 5000);
  }
  async function copy(text, input) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) { // not a secure context: select and copy with execCommand
      if (input) { input.focus(); input.select(); }
      try { document.execCommand("copy"); } catch (e) { toast(tr("Select the link and copy it.")); return; }
    }
    toast(tr("Link copied."), true);
  }
  async function qrSvg(text) {
    // The server makes QR codes one at a time and so many a minute per address (a pairing sheet of more
    // than 150 boards asks for more): told to wait (429, 503), the page waits as told and asks again.
    for (let attempt = 0; ; attempt++) {
      const res = await fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text }) });
      if ((res.status === 429 || res.status === 503) && attempt < 8) {
        const wait = Math.min(60, Number(res.headers.get("Retry-After")) || 1);
        await new Promise((done) => setTimeout(done, wait * 1000));
        continue;
      }
      if (!res.ok) throw new Error((await res.json()).error);
      return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(await res.text());
    }
  }
  async function showQr(link, label) {
    try {
      $("qr-img").src = await qrSvg(link);
      $("qr-title").textContent = tr("{label}: scan with the phone", { label });
      $("qr-link").textContent = link;
      $("qr-dialog").showModal();
    } catch (err) { toast(tr("No QR code: {why}", { why: err.message })); }
  }
  let serial = 0;
  // One link: label, the link in a read-only field, Copy, QR, Open.
  function linkRow(label, link, name) {
    const row = el("div", { class: "link" });
    const fid = `tl-link-${++serial}`;
    const l = el("label", { for: fid }, label);
    const inp = el("input", { id: fid, readonly: "", value: link });
    const c = el("button", { type: "button", class: "copy", "aria-label": tr("Copy the link of {name}", { name: name || label }) }, tr("Copy"));
    c.addEventListener("click", () => copy(link, inp));
    const q = el("button", { type: "button", class: "qr", "aria-label": tr("QR code of the link of {name}", { name: name || label }) }, "QR");
    q.addEventListener("click", () => showQr(link, name || label));
    const open = el("a", { class: "btn", href: link, target: "_blank", rel: "noopener", "aria-label": tr("Open the link of {name}", { name: name || label }) }, tr("Open"));
    row.append(l, inp, c, q, open);
    return row;
  }
  function mine() {
    try { return JSON.parse(localStorage.getItem("chesslaws:mytournaments") || "{}") || {}; } catch (err) { return {}; }
  }
  function remember(id, what) {
    const all = mine();
    all[id] = Object.assign(all[id] || {}, what);
    localStorage.setItem("chesslaws:mytournaments", JSON.stringify(all));
  }
  // The event's changes, as they happen: calls back on each {"kind": "changed"}; reconnects. A socket that has
  // not opened within OPEN_WITHIN ms (a handshake lost on the way) is given up and made again, as a closed one.
  const OPEN_WITHIN = (window.CHESSLAWS_HEARTBEAT && window.CHESSLAWS_HEARTBEAT.open) || 8000;
  function follow(id, onChange) {
    let wait = 500;
    function open() {
      const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tournaments/${encodeURIComponent(id)}/ws`);
      const again = () => { setTimeout(open, wait); wait = Math.min(wait * 2, 8000); };
      const opening = setTimeout(() => {
        if (ws.readyState !== WebSocket.CONNECTING) return;
        ws.onclose = null;
        ws.close();
        again();
      }, OPEN_WITHIN);
      ws.onopen = () => clearTimeout(opening);
      ws.onmessage = (ev) => { wait = 500; const m = JSON.parse(ev.data); if (m.kind === "changed" || m.kind === "hello") onChange(); };
      ws.onclose = () => { clearTimeout(opening); again(); };
    }
    open();
  }
  // A score as a crosstable prints it, points and tie-breaks alike: whole numbers, halves and quarters with
  // their fraction ("1½", "1¾", "½"), anything else with at most two decimals in the page's language.
  const FRACTIONS = { 0.25: "¼", 0.5: "½", 0.75: "¾" };
  function score(x) {
    if (x === null || x === undefined || x === "") return "";
    const v = Number(x);
    if (!Number.isFinite(v)) return String(x);
    const whole = Math.trunc(v), part = Math.round(Math.abs(v - whole) * 100) / 100;
    if (part === 0) return String(Math.round(v));
    if (FRACTIONS[part]) return `${v < 0 ? "−" : ""}${whole === 0 ? "" : Math.abs(whole)}${FRACTIONS[part]}`;
    const lang = typeof UI_LANG === "string" ? UI_LANG : "en";
    return new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false }).format(v);
  }
  const RESULTS = { "1-0": "1 – 0", "0-1": "0 – 1", "1/2-1/2": "½ – ½", "0-0": "0 – 0", "+-": "+ – −", "-+": "− – +", "--": "− – −" };
  const BYES = { pab: "pairing-allocated bye", full: "full-point bye", half: "half-point bye", zero: "zero-point bye",
    absent: "absent", free: "free round" };
  const bye = (kind) => (BYES[kind] ? tr(BYES[kind]) : kind);
  const SYSTEMS = { swiss: "Swiss", "round-robin": "round robin", "double-round-robin": "double round robin" };
  const system = (s) => (SYSTEMS[s] ? tr(SYSTEMS[s]) : String(s).replace(/-/g, " "));
  // The C.07 tie-breaks by their codes (FIDE writes the codes alike in every language; their names are not).
  const TIEBREAKS = {
    BH: "Buchholz", "BH-C1": "Buchholz cut 1 (without the lowest opponent)", "BH-C2": "Buchholz cut 2 (without the two lowest opponents)",
    "BH-M1": "Median Buchholz 1 (without the highest and the lowest opponent)", SB: "Sonneborn-Berger",
    "SB-C1": "Sonneborn-Berger cut 1 (without the lowest opponent)", DE: "Direct encounter", WIN: "Number of wins (played or not)",
    WON: "Number of games won over the board", BPG: "Games played with Black", BWG: "Games won with Black",
    PS: "Progressive scores", ARO: "Average rating of opponents", TPR: "Tournament performance rating", STD: "Standard points",
  };
  const tiebreak = (code) => (TIEBREAKS[code] ? tr(TIEBREAKS[code]) : code);
  // A side as a heading names it ("White"), and within a sentence ("black to move", "board 1, white").
  const colour = (side) => (side === "white" ? tr("White") : side === "black" ? tr("Black") : side);
  const side = (s) => (s === "white" ? tr("white") : s === "black" ? tr("black") : s);
  return { $, el, toast, copy, qrSvg, showQr, linkRow, mine, remember, follow, score, RESULTS, bye, system, tiebreak, colour, side };
})();
