"use strict";
// The printable pairing sheet of a round, for a club hall: every board with both players and each one's
// seat link as a QR code (scan it with the phone to open the game). The arbiter's token is in the fragment.
(function () {
  const { $, el } = TL;
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[parts.length - 2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const round = new URLSearchParams(location.search).get("round");

  async function seat(p, side, table) {
    const box = el("div", { class: `seat ${side}`, "data-seat": side, "data-table": table });
    box.append(el("div", { class: "side" }, TL.colour(side)),
      el("div", { class: "pname" }, p.name), el("div", { class: "psub" }, `${T("no. {n}", { n: p.start_number })}${p.rating ? ` · ${p.rating}` : ""}`));
    if (p.link) {
      const img = el("img", { class: "qr", alt: T("QR code of {name}'s seat link", { name: p.name }), width: "150", height: "150" });
      img.src = await TL.qrSvg(p.link);
      box.append(img);
    }
    return box;
  }

  async function load() {
    if (!token) { $("s-error").textContent = T("Open the sheet from the round console (the link carries the arbiter's token)."); $("s-error").hidden = false; return; }
    const r = await fetch(`/api/tournaments/${encodeURIComponent(id)}/console${round ? `?round=${encodeURIComponent(round)}` : ""}`,
      { headers: { Authorization: `Bearer ${token}` } });
    const d = await r.json();
    if (!r.ok) { $("s-error").textContent = d.error || T("error {status}", { status: r.status }); $("s-error").hidden = false; return; }
    document.title = `chesslaws · ${d.name} · ${T("round {n} pairings", { n: d.round })}`;
    $("s-title").textContent = `${d.name}: ${T("round {n}", { n: d.round })}`;
    const g = d.regulations;
    $("s-sub").textContent = `${T("Laws of {e} · time control {tc}", { e: g.edition, tc: TC.show(g.time_control) })} · ${T("scan your QR code with your phone to open your game")}`;
    const boards = [];
    for (const b of d.boards) {
      const card = el("section", { class: "sheet-board", "data-table": b.table });
      card.append(el("div", { class: "bd" }, T("Board {n}", { n: b.table })), await seat(b.white, "white", b.table), await seat(b.black, "black", b.table));
      boards.push(card);
    }
    $("s-boards").replaceChildren(...boards);
    $("s-byes").replaceChildren(...d.byes.map((y) => el("p", { class: "bye" }, `${y.name}: ${TL.bye(y.kind)}`)));
    document.body.dataset.ready = "1";
  }
  $("s-print").addEventListener("click", () => window.print());
  load();
})();
