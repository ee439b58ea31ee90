"use strict";
// A player's own page of an event (the player's token in the fragment): the current game's link, big, and
// the results so far; read again whenever the event changes (its WebSocket).
(function () {
  const { $, el } = TL;
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[1] || "");
  const number = parts[3] || "";
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  let busy = false;
  document.title = `chesslaws · ${T("my games")}`;

  // What the player's page says when he has no game to open now: the event over, a bye, withdrawn, the
  // round's game over, or nothing paired yet.
  function waiting(d) {
    if (d.finished) return T("The event is over.");
    const n = d.paired_rounds;
    if (!n) return T("Round 1 is not paired yet.");
    const bye = d.games.find((g) => g.round === n && g.bye);
    const w = d.player.withdrawn_from;
    if (w && w <= n) return T("You are withdrawn from round {r} on: you have no game in round {n}.", { r: w, n });
    if (bye) return T("Round {n}: {bye}.", { n, bye: TL.bye(bye.bye) });
    if (!d.games.some((g) => g.round === n)) return T("You have no game in round {n}: wait for the next pairing.", { n });
    return T("Your round {n} game is over: wait for the next pairing.", { n });
  }

  // One read at a time; a change that comes while the page reads makes it read again afterwards (a round
  // paired or a result in meanwhile is never left unshown).
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    again = false;
    busy = true;
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}/players/${encodeURIComponent(number)}`, { headers: { Authorization: `Bearer ${token}` } });
      const d = await r.json();
      if (!r.ok) { $("p-error").textContent = d.error || T("error {status}", { status: r.status }); $("p-error").hidden = false; return; }
      $("p-error").hidden = true;
      document.title = `chesslaws · ${d.player.name} · ${d.name}`;
      $("p-name").textContent = d.player.name;
      $("p-info").textContent = d.name;
      $("p-event").textContent = `${d.name} · ${T("no. {n}", { n: d.player.start_number })} · ${T("{n} of {total} rounds paired", { n: d.paired_rounds, total: d.total_rounds })}`;
      $("p-standings").href = d.page;
      TL.remember(d.id, { name: d.name, [`player${number}`]: location.href });
      const cur = $("p-current");
      if (d.current && d.current.link) {
        const c = d.current;
        const box = el("div", { class: "current" });
        box.append(el("p", { class: "pairing" }, T("Round {r}, board {b}: you have {colour} against {name}", { r: c.round, b: c.table, colour: TL.colour(c.color), name: c.opponent.name })));
        const a = el("a", { class: "btn primary big", href: c.link, id: "p-play" }, T("Open your game"));
        box.append(a);
        cur.replaceChildren(box);
      } else {
        cur.replaceChildren(el("p", { class: "regs", id: "p-wait" }, waiting(d)));
      }
      $("p-games").tBodies[0].replaceChildren(...d.games.map((g) => {
        const tr = el("tr", { "data-round": g.round });
        if (g.bye) { tr.append(el("td", {}, g.round), el("td", {}, ""), el("td", {}, ""), el("td", { class: "name" }, TL.bye(g.bye)), el("td", {}, "")); return tr; }
        const opp = el("td", { class: "name" }, `${g.opponent.name}${g.opponent.rating ? ` (${g.opponent.rating})` : ""}`);
        tr.append(el("td", {}, g.round), el("td", {}, g.table), el("td", {}, TL.colour(g.color)), opp, el("td", { class: "res" }, g.result ? TL.RESULTS[g.result] || g.result : "…"));
        return tr;
      }));
      const pts = d.standing ? d.standing.points : 0;
      $("p-score").textContent = d.standing ? T(pts === 1 || pts === 0.5 ? "{points} point · rank {rank}" : "{points} points · rank {rank}",
        { points: TL.score(pts), rank: d.standing.rank }) : "";
    } catch (e) {
      $("p-error").textContent = T("The server cannot be reached; trying again…"); $("p-error").hidden = false;
    } finally {
      busy = false;
      if (again) refresh();
    }
  }
  if (!token) { $("p-error").textContent = T("Open this page from the link the arbiter gave you (it carries your token)."); $("p-error").hidden = false; }
  else TL.follow(id, refresh);
})();
