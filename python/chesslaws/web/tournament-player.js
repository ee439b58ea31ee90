"use strict";
// A player's own page of an event (the player's token in the fragment): the current game's link, big, and
// the results so far; read again whenever the event changes (its WebSocket).
(function () {
  const { $, el } = TL;
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[1] || "");
  const number = parts[3] || "";
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const RESULTS = { "1-0": "1 – 0", "0-1": "0 – 1", "1/2-1/2": "½ – ½", "0-0": "0 – 0", "+-": "+ – −", "-+": "− – +", "--": "− – −" };
  const BYES = { pab: "bye (pairing-allocated)", full: "full-point bye", half: "half-point bye", zero: "zero-point bye", absent: "absent", free: "free round" };
  let busy = false;

  function points(x) { return Number.isInteger(x) ? String(x) : String(x).replace(".5", "½").replace(/^0½$/, "½"); }

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
      if (!r.ok) { $("p-error").textContent = d.error || `error ${r.status}`; $("p-error").hidden = false; return; }
      $("p-error").hidden = true;
      document.title = `chesslaws · ${d.player.name} · ${d.name}`;
      $("p-name").textContent = d.player.name;
      $("p-info").textContent = d.name;
      $("p-event").textContent = `${d.name} · no. ${d.player.start_number} · ${d.paired_rounds} of ${d.total_rounds} rounds paired`;
      $("p-standings").href = d.page;
      TL.remember(d.id, { name: d.name, [`player${number}`]: location.href });
      const cur = $("p-current");
      if (d.current && d.current.link) {
        const c = d.current;
        const box = el("div", { class: "current" });
        box.append(el("p", { class: "pairing" }, `Round ${c.round}, board ${c.table}: you have ${c.color === "white" ? "White" : "Black"} against ${c.opponent.name}`));
        const a = el("a", { class: "btn primary big", href: c.link, id: "p-play" }, "Open your game");
        box.append(a);
        cur.replaceChildren(box);
      } else {
        const last = d.games.filter((g) => g.round === d.paired_rounds);
        const bye = last.find((g) => g.bye);
        cur.replaceChildren(el("p", { class: "regs", id: "p-wait" }, d.finished ? "The event is over." : bye ? `Round ${d.paired_rounds}: ${BYES[bye.bye] || bye.bye}.` :
          d.paired_rounds ? `Your round ${d.paired_rounds} game is over: wait for the next pairing.` : "Round 1 is not paired yet."));
      }
      $("p-games").tBodies[0].replaceChildren(...d.games.map((g) => {
        const tr = el("tr", { "data-round": g.round });
        if (g.bye) { tr.append(el("td", {}, g.round), el("td", {}, ""), el("td", {}, ""), el("td", { class: "name" }, BYES[g.bye] || g.bye), el("td", {}, "")); return tr; }
        const opp = el("td", { class: "name" }, `${g.opponent.name}${g.opponent.rating ? ` (${g.opponent.rating})` : ""}`);
        tr.append(el("td", {}, g.round), el("td", {}, g.table), el("td", {}, g.color), opp, el("td", { class: "res" }, g.result ? RESULTS[g.result] || g.result : "…"));
        return tr;
      }));
      $("p-score").textContent = d.standing ? `${points(d.standing.points)} ${d.standing.points === 1 || d.standing.points === 0.5 ? "point" : "points"} · rank ${d.standing.rank}` : "";
    } catch (e) {
      $("p-error").textContent = "The server cannot be reached; trying again…"; $("p-error").hidden = false;
    } finally {
      busy = false;
      if (again) refresh();
    }
  }
  if (!token) { $("p-error").textContent = "Open this page from the link the arbiter gave you (it carries your token)."; $("p-error").hidden = false; }
  else TL.follow(id, refresh);
})();
