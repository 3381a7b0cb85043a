// Korean first, English on a switch. Static text carries data-ko / data-en; dynamic text
// comes from the server as {ko, en} and goes through tr().
(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  let lang = params.get("lang") || localStorage.getItem("referee.lang") || "ko";
  const listeners = [];

  function tr(text) {
    if (text == null) return "";
    if (typeof text === "string" || typeof text === "number") return String(text);
    return text[lang] || text.ko || text.en || "";
  }

  function both(ko, en) { return { ko: ko, en: en }; }

  function apply(root) {
    (root || document).querySelectorAll("[data-ko]").forEach(function (el) {
      el.textContent = el.getAttribute(lang === "en" ? "data-en" : "data-ko");
    });
    document.documentElement.lang = lang;
    const button = document.getElementById("lang-switch");
    if (button) button.textContent = lang === "ko" ? "English" : "한국어";
  }

  function setLang(next) {
    lang = next;
    localStorage.setItem("referee.lang", lang);
    apply();
    listeners.forEach(function (fn) { fn(lang); });
  }

  // Build elements without innerHTML: no server text is ever parsed as markup.
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(function ([key, value]) {
      if (value == null || value === false) return;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = tr(value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    });
    [].concat(children || []).forEach(function (child) {
      if (child == null || child === false) return;
      node.appendChild(typeof child === "object" && child.nodeType ? child : document.createTextNode(tr(child)));
    });
    return node;
  }

  function errorText(error) {
    if (!error) return "";
    return tr({ ko: error.ko, en: error.en }) + " (" + error.code + ")";
  }

  window.I18N = {
    tr: tr, both: both, apply: apply, el: el, errorText: errorText,
    get lang() { return lang; },
    onChange: function (fn) { listeners.push(fn); },
  };
  document.addEventListener("DOMContentLoaded", function () {
    const button = document.getElementById("lang-switch");
    if (button) button.addEventListener("click", function () { setLang(lang === "ko" ? "en" : "ko"); });
    apply();
  });
})();
