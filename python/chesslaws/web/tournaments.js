"use strict";
// The events: the list (a page at a time), the creation form, and the events created in this browser.
(function () {
  const { $, el } = TL;
  let last = null;

  function showMine() {
    const all = TL.mine();
    const ids = Object.keys(all);
    $("mine-panel").hidden = ids.length === 0;
    $("mine").replaceChildren(...ids.map((id) => {
      const li = el("li", { "data-id": id });
      li.append(el("a", { href: `/tournament/${encodeURIComponent(id)}` }, all[id].name || id));
      if (all[id].console) li.append(TL.linkRow("Console", all[id].console, `the round console of ${all[id].name}`));
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
      tr.append(name, el("td", {}, t.system.replace(/-/g, " ")), el("td", {}, t.players),
        el("td", {}, t.finished ? `${t.total_rounds} · over` : `${t.paired_rounds} of ${t.total_rounds}`),
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
    if (!tc.ok) { $("t-tc").focus(); throw new Error(`Time control: ${tc.error}`); }
    return tc.api;
  }

  function players() {
    const out = [];
    for (const [i, line] of $("t-players").value.split("\n").entries()) {
      const text = line.trim();
      if (!text) continue;
      const m = /^(.*?)(?:[,;\t]\s*(\d{1,4}))?\s*$/.exec(text);
      const name = (m ? m[1] : text).trim();
      if (!name) throw new Error(`players, line ${i + 1}: no name`);
      out.push({ name, rating: m && m[2] ? Number(m[2]) : 0 });
    }
    return out;
  }

  // The time control as players write it, read as the lobby reads it (TC, tc.js): "90+30" is 90 minutes and
  // 30 s a move; the API is sent its seconds form.
  const readTc = TC.attach($("t-tc"), $("t-tc-meaning"));
  $("t-system").addEventListener("change", () => { $("t-rounds-field").hidden = $("t-system").value !== "swiss"; });
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
    } catch (err) { $("t-error").textContent = err.message; $("t-error").hidden = false; return; }
    $("t-create-btn").disabled = true;
    try {
      const r = await fetch("/api/tournaments", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const out = await r.json();
      if (!r.ok) { $("t-error").textContent = out.error || `error ${r.status}`; $("t-error").hidden = false; return; }
      TL.remember(out.id, { name: out.name, console: out.console });
      $("t-links").replaceChildren(TL.linkRow("Console", out.console, "the round console"), TL.linkRow("Page", out.page, "the standings page"));
      $("t-created").hidden = false;
      $("t-create").reset();
      readTc();
      showMine();
      page(false);
    } finally { $("t-create-btn").disabled = false; }
  });
  $("t-more").addEventListener("click", () => page(true));
  showMine();
  page(false);
})();
