// chesslaws: time controls as players write them. "5+3" is 5 minutes and 3 seconds a move, "90+30" is
// 90 minutes + 30 s, "40/90+30:30+30" is 40 moves in 90 minutes then 30 minutes, 30 s a move throughout.
// The API speaks the PGN form in seconds ("300+3", "40/5400+30:1800+30"): TC.read turns the players' form
// into it (or refuses with a hint), TC.show writes the API's form back the players' way.
"use strict";
window.TC = (() => {
  const tr = (key, vars, fallback) => (window.T ? window.T(key, vars) : fallback);
  const MAX_MINUTES = 240;
  const num = (s) => Number(s);
  const minutes = (sec) => {
    const m = sec / 60;
    return String(Math.round(m * 100) / 100);
  };
  // One period: [MOVES/]MINUTES[+INC_SECONDS][dDELAY|bDELAY]; MINUTES may end in ' or m, or be seconds ending in s.
  const PERIOD = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(s|m|min|')?(?:\+(\d+(?:\.\d+)?)(?:s|")?)?(?:([db])(\d+(?:\.\d+)?))?$/;
  function hint() {
    return tr("tc.hint", {}, "Write minutes + seconds a move, as players do: 5+3, 90+30, 40/90+30:30+30, or - for no clock.");
  }
  function read(text) {
    const raw = String(text || "").trim().replace(/\s+/g, "").replace(/,/g, ":");
    if (raw === "" || raw === "-") return { ok: true, api: "-", meaning: tr("tc.none", {}, "no clock") };
    const parts = raw.split(":");
    const api = [];
    const said = [];
    for (let i = 0; i < parts.length; i++) {
      const m = PERIOD.exec(parts[i]);
      if (!m) return { ok: false, error: tr("tc.bad", { part: parts[i] }, `"${parts[i]}" is not a time control.`) + " " + hint() };
      const [, moves, base, unit, inc, dk, delay] = m;
      const seconds = unit === "s" ? num(base) : num(base) * 60;
      if (unit !== "s" && num(base) > MAX_MINUTES) {
        return { ok: false, error: tr("tc.toolong", { m: base, h: Math.round(num(base) / 6) / 10 },
          `${base} minutes (${Math.round(num(base) / 6) / 10} hours) for one period? Time controls are written in minutes: 5+3 is 5 minutes and 3 seconds a move.`) };
      }
      if (moves === undefined && i < parts.length - 1) {
        return { ok: false, error: tr("tc.sudden", { part: parts[i] }, `"${parts[i]}" has no number of moves, so only the last period may be like it (e.g. 40/90+30:30+30).`) };
      }
      if (seconds <= 0 && !(inc && num(inc) > 0)) return { ok: false, error: tr("tc.zero", {}, "A period needs some time.") + " " + hint() };
      const secText = String(Math.round(seconds * 1000) / 1000);
      api.push(`${moves ? moves + "/" : ""}${secText}${inc ? "+" + inc : ""}${dk ? dk + delay : ""}`);
      const len = unit === "s" ? tr("tc.sec", { n: base }, `${base} s`) : tr("tc.min", { n: base }, `${base} min`);
      let s = moves ? tr("tc.moves_in", { n: moves, t: len }, `${moves} moves in ${len}`)
        : (parts.length > 1 ? tr("tc.then_rest", { t: len }, `${len} for the rest of the game`) : tr("tc.each", { t: len }, `${len} each`));
      if (inc && num(inc) > 0) s += " " + tr("tc.inc", { n: inc }, `+ ${inc} s a move`);
      if (dk === "d") s += " " + tr("tc.delay", { n: delay }, `(${delay} s delay)`);
      if (dk === "b") s += " " + tr("tc.bronstein", { n: delay }, `(${delay} s Bronstein delay)`);
      said.push(s);
    }
    return { ok: true, api: api.join(":"), meaning: said.join(tr("tc.then", {}, ", then ")) };
  }
  // The API's form ("300+3") the players' way ("5+3").
  function show(apiText) {
    if (!apiText || apiText === "-") return "-";
    return String(apiText).split(":").map((p) => {
      const m = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(.*)$/.exec(p);
      if (!m) return p;
      const sec = num(m[2]);
      const base = sec % 60 === 0 || sec >= 60 ? minutes(sec) : sec + "s";
      return `${m[1] ? m[1] + "/" : ""}${base}${m[3]}`;
    }).join(":");
  }
  // An input with a line under it saying what it means; returns a function giving the API's form or null.
  function attach(input, out) {
    const update = () => {
      const r = read(input.value);
      out.textContent = r.ok ? r.meaning : r.error;
      out.classList.toggle("bad", !r.ok);
      input.setAttribute("aria-invalid", r.ok ? "false" : "true");
      return r;
    };
    input.addEventListener("input", update);
    update();
    return update;
  }
  return { read, show, attach };
})();
