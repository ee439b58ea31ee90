// chesslaws: "Play against the computer" in the lobby, shown when the server has engines
// (chesslaws serve --engine NAME=COMMAND). The engine takes a seat and plays by the same clock and arbiter.
"use strict";
(() => {
  const box = document.getElementById("vs-engine");
  if (!box) return;
  const el = (tag, attrs = {}, text = "") => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  };
  const tr = (template, vars) => (window.T ? window.T(template, vars || {}) : template);
  const field = (label, id, input, full) => {
    const f = el("div", { class: "field" + (full ? " full" : "") });
    f.append(el("label", { for: id }, label), input);
    return f;
  };
  async function init() {
    let engines = [];
    try { engines = await (await fetch("/api/engines")).json(); } catch (e) { return; }
    if (!Array.isArray(engines) || !engines.length) return;
    box.hidden = false;
    box.append(el("h2", {}, tr("Play against the computer")));
    const form = el("form", { class: "create", id: "vs-form" });
    const engine = el("select", { id: "vs-engine-name" });
    for (const e of engines) engine.append(el("option", { value: e.name }, e.id ? `${e.name} (${e.id})` : e.name));
    const kind = el("select", { id: "vs-strength-kind" });
    const value = el("input", { id: "vs-strength", type: "number" });
    const color = el("select", { id: "vs-color" });
    for (const [v, t] of [["white", "White"], ["black", "Black"], ["random", "random"]]) color.append(el("option", { value: v }, tr(t)));
    const name = el("input", { id: "vs-name", value: tr("You"), maxlength: "100" });
    const tc = el("input", { id: "vs-tc", value: "5+3", "aria-describedby": "vs-tc-meaning",
      title: tr("minutes + seconds a move: 5+3, 90+30, 40/90+30:30+30") });
    const tcMeaning = el("div", { class: "tc-meaning", id: "vs-tc-meaning", "aria-live": "polite" });
    const presets = el("div", { class: "presets", id: "vs-presets" });
    for (const p of ["1+0", "3+2", "5+3", "10+5", "15+10", "30+0"]) {
      const b = el("button", { type: "button", "data-tc": p }, p);
      b.addEventListener("click", () => { tc.value = p; readTc(); mark(); });
      presets.append(b);
    }
    const mark = () => { for (const b of presets.children) b.classList.toggle("on", b.dataset.tc === tc.value.trim()); };
    tc.addEventListener("input", mark);
    const cap = el("div", { class: "tc-meaning", id: "vs-cap", "aria-live": "polite" });
    const edition = el("select", { id: "vs-edition" });
    for (const v of ["2023", "1997", "1989"]) edition.append(el("option", { value: v }, v));
    const go = el("button", { class: "primary", id: "vs-play", type: "submit" }, tr("Play"));
    const fill = () => {
      const e = engines.find((x) => x.name === engine.value) || engines[0];
      const keep = kind.value;
      kind.textContent = "";
      for (const s of e.strengths) kind.append(el("option", { value: s.kind }, tr(s.label)));
      if (e.strengths.some((s) => s.kind === keep)) kind.value = keep;
      const s = e.strengths.find((x) => x.kind === kind.value) || e.strengths[0];
      value.min = s.min; value.max = s.max; value.value = s.default;
      value.disabled = s.kind === "full";
      value.title = s.kind === "full" ? "" : tr("{min} to {max}", { min: s.min, max: s.max });
      showCap();
    };
    // How long it may think a move: the server's cap grows with the strength (Strength.cap_ms in engines.py).
    const showCap = () => {
      const e = engines.find((x) => x.name === engine.value) || engines[0];
      const s = e.strengths.find((x) => x.kind === kind.value) || e.strengths[0];
      const v = parseInt(value.value, 10);
      let text;
      if (s.cap_ms && !isNaN(v)) {
        const share = s.max > s.min ? Math.min(1, Math.max(0, (v - s.min) / (s.max - s.min))) : 0;
        const ms = Math.round((s.cap_ms[0] + (s.cap_ms[1] - s.cap_ms[0]) * share) / 100) * 100;
        text = tr("It answers within {s} s a move.", { s: ms / 1000 });
      } else if (s.kind === "nodes") text = tr("It answers when it has searched that many positions.");
      else if (s.kind === "movetime") text = tr("It thinks {s} s a move.", { s: (v || 0) / 1000 });
      else text = tr("At full strength it thinks as long as its clock allows.");
      cap.textContent = text;
      cap.dataset.capMs = s.cap_ms && !isNaN(v) ? String(Math.round((s.cap_ms[0] + (s.cap_ms[1] - s.cap_ms[0]) * (s.max > s.min ? Math.min(1, Math.max(0, (v - s.min) / (s.max - s.min))) : 0)) / 100) * 100) : "";
    };
    value.addEventListener("input", showCap);
    engine.onchange = fill;
    kind.onchange = () => { const k = kind.value; fill(); kind.value = k; const e = engines.find((x) => x.name === engine.value) || engines[0]; const s = e.strengths.find((x) => x.kind === k); value.min = s.min; value.max = s.max; value.value = s.default; value.disabled = k === "full"; showCap(); };
    fill();
    const readTc = TC.attach(tc, tcMeaning);
    mark();
    const tcField = field(tr("Time control"), "vs-tc", presets, true);
    tcField.append(tc, tcMeaning);
    const capField = el("div", { class: "field full" });
    capField.append(cap);
    form.append(field(tr("Engine"), "vs-engine-name", engine), field(tr("Your colour"), "vs-color", color),
      field(tr("Strength"), "vs-strength-kind", kind), field(tr("Setting"), "vs-strength", value), capField,
      tcField, field(tr("Laws of"), "vs-edition", edition),
      field(tr("Your name"), "vs-name", name), field("", "vs-play", go, true));
    box.append(form);
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const strength = { kind: kind.value };
      if (kind.value !== "full") strength.value = parseInt(value.value, 10);
      const t = readTc();
      if (!t.ok) { (window.toast || alert)(t.error); tc.focus(); return; }
      const body = { engine: engine.value, color: color.value, name: name.value.trim() || tr("You"), strength,
        time_control: t.api, edition: edition.value };
      go.disabled = true;
      try {
        const res = await fetch("/api/engines/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
        const data = await res.json();
        if (!res.ok) { (window.toast || alert)(data.error || res.statusText); return; }
        window.location.href = data.link;
      } finally { go.disabled = false; }
    };
  }
  init();
})();
