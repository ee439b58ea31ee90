// chesslaws: the page in the player's language: English, German, French or Spanish, chosen from the browser's
// languages (or the scoresheet language picked on a game page, when it is one of them). The English text is
// the key; T(text, {name: value}) fills in "{name}"; elements marked data-i18n (their text) and data-i18n-attr
// ("placeholder,title,aria-label") are translated by applyI18n. The translations (window.I18N) come from
// /i18n/texts.js, loaded just before this script, which the server makes from chesslaws/data/texts.json.
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
  return true;
};
applyI18n();
