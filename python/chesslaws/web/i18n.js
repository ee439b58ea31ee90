// chesslaws: the page in the player's language: English, German, French or Spanish, chosen with the switch
// in the page's header (kept in this browser), else from the browser's languages (or the scoresheet language
// picked on a game page, when it is one of them). The English text is the key; T(text, {name: value}) fills
// in "{name}"; elements marked data-i18n (their text) and data-i18n-attr ("placeholder,title,aria-label") are
// translated by applyI18n. The translations (window.I18N) come from /i18n/texts.js, loaded just before this
// script, which the server makes from chesslaws/data/texts.json. The server's texts follow the same choice:
// every request of the page says it (Accept-Language), and a cookie says it for the pages themselves. Beside
// the switch, the page's help: a link to its section of the manual the server serves (/manual).
"use strict";
window.I18N = window.I18N || {};
window.UI_LANGS = ["en", "de", "fr", "es"];
window.UI_LANG = (() => {
  const stored = localStorage.getItem("chesslaws:lang");
  if (stored && UI_LANGS.includes(stored)) return stored;
  for (const l of navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (UI_LANGS.includes(code)) return code;
  }
  return "en";
})();
window.T = (text, vars) => {
  let s = (window.I18N[window.UI_LANG] || {})[text] || text;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
};
window.applyI18n = (root) => {
  const r = root || document;
  for (const el of r.querySelectorAll("[data-i18n]")) {
    if (el.dataset.i18nSrc === undefined) el.dataset.i18nSrc = el.textContent.replace(/\s+/g, " ").trim();
    el.textContent = T(el.dataset.i18nSrc);
  }
  for (const el of r.querySelectorAll("[data-i18n-attr]")) {
    for (const a of el.dataset.i18nAttr.split(",")) {
      const key = "i18n_" + a.replace(/-/g, "_");
      if (el.dataset[key] === undefined) el.dataset[key] = el.getAttribute(a) || "";
      el.setAttribute(a, T(el.dataset[key]));
    }
  }
  document.documentElement.lang = window.UI_LANG;
};
window.setUiLang = (code) => {
  if (!UI_LANGS.includes(code) || code === window.UI_LANG) return false;
  window.UI_LANG = code;
  applyI18n();
  const sw = document.getElementById("ui-lang");
  if (sw) sw.value = code;
  return true;
};

// The language chosen in this browser: kept in localStorage for the pages and in a cookie for the server.
const LANG_COOKIE = "chesslaws_lang";
window.keepUiLang = (code) => {
  localStorage.setItem("chesslaws:lang", code);
  document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
};
if (localStorage.getItem("chesslaws:lang") === window.UI_LANG && !document.cookie.includes(`${LANG_COOKIE}=${window.UI_LANG}`)) {
  window.keepUiLang(window.UI_LANG);
}

// Every request the page makes says its language, so that what the server answers (a refusal, a ruling)
// is in it too.
const plainFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  const opts = Object.assign({}, init);
  const headers = new Headers(opts.headers || (input instanceof Request ? input.headers : undefined));
  if (!headers.has("Accept-Language")) headers.set("Accept-Language", window.UI_LANG);
  opts.headers = headers;
  return plainFetch(input, opts);
};

// The switch in the page's header, each language by its own name: the page is loaded again in the one
// chosen (every text on it, the server's too, in that language).
window.LANG_NAMES = { en: "English", de: "Deutsch", fr: "Français", es: "Español" };
function addLanguageSwitch() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("ui-lang")) return;
  const sel = document.createElement("select");
  sel.id = "ui-lang";
  sel.className = "ui-lang";
  sel.setAttribute("aria-label", T("Language"));
  sel.title = T("Language");
  for (const code of UI_LANGS) {
    const o = document.createElement("option");
    o.value = code;
    o.lang = code;
    o.textContent = LANG_NAMES[code];
    sel.append(o);
  }
  sel.value = window.UI_LANG;
  sel.addEventListener("change", () => {
    window.keepUiLang(sel.value);
    location.reload();
  });
  header.append(sel);
}

// The page's help: its part of the manual the server serves (/manual), named by the page (<body data-help>), a
// link in the header beside the language switch; a page may point it elsewhere (the game page, to the arbiter's
// guide for the arbiter's console). It opens in a tab of its own, so that a game in play stays where it is.
window.setHelp = (href) => {
  const a = document.getElementById("ui-help");
  if (a && href) a.href = href;
};
function addHelpLink() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("ui-help")) return;
  const a = document.createElement("a");
  a.id = "ui-help";
  a.className = "ui-help";
  a.href = document.body.dataset.help || "/manual/";
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = T("Help");
  a.title = T("This page in the manual");
  header.append(a);
}

// How a game ended, in words (the game state's termination: "time_forfeit" is "time forfeit").
window.endingText = (termination) => (termination ? T(termination.replace(/_/g, " ")) : "");

// The event's regulations the Laws defer to (2023 9.1.1, 11.2.4, III.4), in words: a game's (its start event)
// or an event's; "" when it sets none.
window.regulationsText = (r) => {
  if (!r) return "";
  const out = [];
  if (r.no_draw_offers) out.push(T("no draw offers without the arbiter's consent"));
  else if (r.no_draw_before_move) out.push(T("no draw offers before move {n} without the arbiter's consent", { n: r.no_draw_before_move }));
  if (r.report_leaving) out.push(T("report to the arbiter before leaving the playing area"));
  if (r.increment_possible === false) out.push(T("no increment can be introduced"));
  return out.length ? T("Regulations: {list}", { list: out.join("; ") }) : "";
};

applyI18n();
addHelpLink();
addLanguageSwitch();
