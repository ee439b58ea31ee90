// chesslaws: time controls as players write them. "5+3" is 5 minutes and 3 seconds a move, "90+30" is
// 90 minutes + 30 s, "40/90+30:30+30" is 40 moves in 90 minutes then 30 minutes, 30 s a move throughout.
// The API speaks the PGN form in seconds ("300+3", "40/5400+30:1800+30"): TC.read turns the players' form
// into it (or refuses with a hint), TC.show writes the API's form back the players' way.
"use strict";
window.TC = (() => {
  // The English template, translated by i18n.js when it is loaded ("{name}" filled in from vars).
  const tr = (template, vars) => (window.T ? window.T(template, vars)
    : template.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)));
  const MAX_MINUTES = 240;
  const num = (s) => Number(s);
  const minutes = (sec) => {
    const m = sec / 60;
    return String(Math.round(m * 100) / 100);
  };
  // One period: [MOVES/]MINUTES[+INC_SECONDS][dDELAY|bDELAY]; MINUTES may end in ' or m, or be seconds ending in s.
  const PERIOD = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(s|m|min|')?(?:\+(\d+(?:\.\d+)?)(?:s|")?)?(?:([db])(\d+(?:\.\d+)?))?$/;
  function hint() {
    return tr("Write minutes + seconds a move, as players do: 5+3, 90+30, 40/90+30:30+30, or - for no clock.", {});
  }
  function read(text) {
    const raw = String(text || "").trim().replace(/\s+/g, "").replace(/,/g, ":");
    if (raw === "" || raw === "-") return { ok: true, api: "-", meaning: tr("no clock", {}) };
    const parts = raw.split(":");
    const api = [];
    const said = [];
    for (let i = 0; i < parts.length; i++) {
      const m = PERIOD.exec(parts[i]);
      if (!m) return { ok: false, error: tr("\"{part}\" is not a time control.", { part: parts[i] }) + " " + hint() };
      const [, moves, base, unit, inc, dk, delay] = m;
      const seconds = unit === "s" ? num(base) : num(base) * 60;
      if (unit !== "s" && num(base) > MAX_MINUTES) {
        return { ok: false, error: tr("{m} minutes ({h} hours) for one period? Time controls are written in minutes: 5+3 is 5 minutes and 3 seconds a move.",
          { m: base, h: Math.round(num(base) / 6) / 10 }) };
      }
      if (moves === undefined && i < parts.length - 1) {
        return { ok: false, error: tr("\"{part}\" has no number of moves, so only the last period may be like it (e.g. 40/90+30:30+30).", { part: parts[i] }) };
      }
      if (seconds <= 0 && !(inc && num(inc) > 0)) return { ok: false, error: tr("A period needs some time.", {}) + " " + hint() };
      const secText = String(Math.round(seconds * 1000) / 1000);
      api.push(`${moves ? moves + "/" : ""}${secText}${inc && num(inc) > 0 ? "+" + inc : ""}${dk ? dk + delay : ""}`);
      const len = unit === "s" ? tr("{n} s", { n: base }) : tr("{n} min", { n: base });
      let s = moves ? tr("{n} moves in {t}", { n: moves, t: len })
        : (parts.length > 1 ? tr("{t} for the rest of the game", { t: len }) : tr("{t} each", { t: len }));
      if (inc && num(inc) > 0) s += " " + tr("+ {n} s a move", { n: inc });
      if (dk === "d") s += " " + tr("({n} s delay)", { n: delay });
      if (dk === "b") s += " " + tr("({n} s Bronstein delay)", { n: delay });
      said.push(s);
    }
    return { ok: true, api: api.join(":"), meaning: said.join(tr(", then ", {})) };
  }
  // The API's form ("300+3") the players' way ("5+3"). A period for the rest of the game always shows its
  // increment, "+0" when it has none: "60" is "1+0" (one minute), never a bare "1" that reads as anything.
  function show(apiText) {
    if (!apiText || apiText === "-") return "-";
    return String(apiText).split(":").map((p) => {
      const m = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(.*)$/.exec(p);
      if (!m) return p;
      const sec = num(m[2]);
      const base = sec % 60 === 0 || sec >= 60 ? minutes(sec) : sec + "s";
      const rest = m[1] || m[3] ? m[3] : "+0";
      return `${m[1] ? m[1] + "/" : ""}${base}${rest}`;
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
