"use strict";
// The events: the list (a page at a time), the creation form, and the events created in this browser.
(function () {
  const { $, el } = TL;
  let last = null;
  document.title = `chesslaws · ${T("tournaments")}`;

  function showMine() {
    const all = TL.mine();
    const ids = Object.keys(all);
    $("mine-panel").hidden = ids.length === 0;
    $("mine").replaceChildren(...ids.map((id) => {
      const li = el("li", { "data-id": id });
      li.append(el("a", { href: `/tournament/${encodeURIComponent(id)}` }, all[id].name || id));
      if (all[id].console) li.append(TL.linkRow(T("Console"), all[id].console, T("the round console of {name}", { name: all[id].name })));
      return li;
    }));
  }

  async function page(more) {
    const q = more && last ? `&before=${encodeURIComponent(last)}` : "";
    const r = await fetch(`/api/tournaments?limit=25${q}`);
    if (!r.ok) return;
    const rows = await r.json();
    const trs = rows.map((t) => {
      const tr = el("tr", { "data-id": t.id });
      const name = el("td", { class: "name" });
      name.append(el("a", { href: t.page }, t.name));
      tr.append(name, el("td", {}, TL.system(t.system)), el("td", {}, t.players),
        el("td", {}, t.finished ? T("{n} · over", { n: t.total_rounds }) : T("{n} of {total}", { n: t.paired_rounds, total: t.total_rounds })),
        el("td", { class: "wide" }, t.edition), el("td", { class: "wide" }, TC.show(t.time_control)));
      return tr;
    });
    if (more) $("t-list").tBodies[0].append(...trs); else $("t-list").tBodies[0].replaceChildren(...trs);
    if (rows.length) last = rows[rows.length - 1].id;
    $("t-more").hidden = rows.length < 25;
    $("t-empty").hidden = !!$("t-list").tBodies[0].children.length;
  }

  function timeControl() {
    const tc = readTc();
    if (!tc.ok) { $("t-tc").focus(); throw new Error(`${T("Time control")}: ${tc.error}`); }
    return tc.api;
  }

  // The players, one a line: "name" or "name, rating" (a name may hold commas: "Berg, Anna, 2010"). A line
  // that cannot be read is named by its number in the box, with its text and the field at fault.
  let lineOf = []; // the box's line number of each player sent
  function players() {
    const out = [];
    lineOf = [];
    for (const [i, line] of $("t-players").value.split("\n").entries()) {
      const text = line.trim();
      if (!text) continue;
      const where = T("Players, line {n} (\"{text}\")", { n: i + 1, text: text.length > 40 ? text.slice(0, 40) + "…" : text });
      const cut = Math.max(text.lastIndexOf(","), text.lastIndexOf(";"), text.lastIndexOf("\t"));
      const last = cut >= 0 ? text.slice(cut + 1).trim() : "";
      let name = text, rating = 0;
      if (cut >= 0 && /^[+-]?\d[\d.]*$/.test(last)) {
        if (!/^\d+$/.test(last) || Number(last) > 3500) {
          throw new Error(`${where}: ${T("the rating \"{rating}\" is not a whole number from 0 to 3500", { rating: last })}`);
        }
        name = text.slice(0, cut).trim();
        rating = Number(last);
      }
      if (!name) throw new Error(`${where}: ${T("the name is missing (write: name, rating)")}`);
      if (name.length > 100) throw new Error(`${where}: ${T("the name is longer than 100 characters")}`);
      out.push({ name, rating });
      lineOf.push(i + 1);
    }
    return out;
  }

  // The server's error with its fields named as the form names them ("players.2.rating" is a line of the box).
  const LABELS = { name: "Name", rounds: "Rounds", time_control: "Time control", default_time: "Default time",
    scoring: "Scoring", tiebreaks: "Tie-breaks", tiebreak_rules: "Tie-break rules", edition: "Laws of", system: "System",
    rating: "rating", no_draw_offers: "Draw offers (2023 9.1.1)", no_draw_before_move: "before each player's move",
    report_leaving: "a player reports to the arbiter before leaving the playing area (2023 11.2.4)",
    increment_possible: "the clocks cannot introduce an increment (2023 Guidelines III.4)" };
  function named(text) {
    return String(text)
      .replace(/\bplayers\.(\d+)\.(\w+)/g, (m, k, field) =>
        T("Players, line {n}, {field}", { n: lineOf[Number(k)] || Number(k) + 1, field: LABELS[field] ? T(LABELS[field]) : field }))
      .replace(/(^|; )(\w+)(?=: )/g, (m, sep, field) => sep + (LABELS[field] ? T(LABELS[field]) : field));
  }

  // The time control as players write it, read as the lobby reads it (TC, tc.js): "90+30" is 90 minutes and
  // 30 s a move; the API is sent its seconds form.
  const readTc = TC.attach($("t-tc"), $("t-tc-meaning"));
  $("t-create").addEventListener("input", () => { $("t-error").hidden = true; }); // an error goes once it is being fixed
  $("t-system").addEventListener("change", () => { $("t-rounds-field").hidden = $("t-system").value !== "swiss"; });
  // Draw offers restricted before a number of moves: the number is asked for only then.
  const drawMove = () => { $("t-draw-move-field").hidden = $("t-draws").value !== "before"; };
  $("t-draws").addEventListener("change", drawMove);
  $("t-create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("t-error").hidden = true;
    let body;
    try {
      body = { name: $("t-name").value.trim(), system: $("t-system").value, rounds: Number($("t-rounds").value),
        edition: $("t-edition").value, time_control: timeControl(), scoring: $("t-scoring").value.trim(),
        tiebreak_rules: $("t-tbrules").value, players: players() };
      if ($("t-default").value !== "") body.default_time = Number($("t-default").value);
      const tbs = $("t-tiebreaks").value.split(/[\s,]+/).filter(Boolean);
      if (tbs.length) body.tiebreaks = tbs;
      // What the Laws leave to the regulations (2023 9.1.1, 11.2.4, III.4): sent only when set.
      if ($("t-draws").value === "never") body.no_draw_offers = true;
      if ($("t-draws").value === "before") body.no_draw_before_move = Number($("t-draw-move").value);
      if ($("t-report").checked) body.report_leaving = true;
      if ($("t-no-increment").checked) body.increment_possible = false;
    } catch (err) { $("t-error").textContent = err.message; $("t-error").hidden = false; return; }
    $("t-create-btn").disabled = true;
    try {
      const r = await fetch("/api/tournaments", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const out = await r.json();
      if (!r.ok) { $("t-error").textContent = named(out.error || T("error {status}", { status: r.status })); $("t-error").hidden = false; return; }
      TL.remember(out.id, { name: out.name, console: out.console });
      $("t-links").replaceChildren(TL.linkRow(T("Console"), out.console, T("the round console")), TL.linkRow(T("Page"), out.page, T("the standings page")));
      $("t-created").hidden = false;
      $("t-create").reset();
      readTc();
      drawMove();
      showMine();
      page(false);
    } finally { $("t-create-btn").disabled = false; }
  });
  $("t-more").addEventListener("click", () => page(true));
  showMine();
  page(false);
})();
