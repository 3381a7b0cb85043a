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

  // One language of a text, whatever the page shows now (receipts keep both languages).
  function inLang(text, which) {
    if (text == null) return "";
    if (typeof text === "string" || typeof text === "number") return String(text);
    return text[which] || text.ko || text.en || "";
  }

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

  // -- Korean particles: 을/를, 이/가, 은/는, 과/와 by the last syllable read aloud --------------
  const DIGIT_BATCHIM = "013678";  // 영 일 삼 육 칠 팔 (and 십 백 천 만 after a 0)
  const LETTER_BATCHIM = "LMNR";   // 엘 엠 엔 알

  function batchim(word) {
    const text = String(word).replace(/[\s)\]}'"”’.]+$/, "");
    if (!text) return false;
    const last = text[text.length - 1];
    const code = last.charCodeAt(0);
    if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28 !== 0;
    if (/[0-9]/.test(last)) return DIGIT_BATCHIM.indexOf(last) >= 0;
    return LETTER_BATCHIM.indexOf(last.toUpperCase()) >= 0;
  }

  // josa("파랑 4", "을", "를") → "파랑 4를"
  function josa(word, afterConsonant, afterVowel) {
    return String(word) + (batchim(word) ? afterConsonant : afterVowel);
  }

  // A headline with seat numbers ("교환 1단계: 1번 자리 차례", "seat 1's turn") that names the
  // players instead, when the names are known.
  function named(text, names) {
    if (!names || !names.length || text == null) return text;
    const pick = function (n) { return names[Number(n) - 1]; };
    const ko = inLang(text, "ko").replace(/(\d+)번 자리/g, function (all, n) { return pick(n) || all; });
    const en = inLang(text, "en").replace(/\b[Ss]eat (\d+)/g, function (all, n) { return pick(n) || all; });
    return { ko: ko, en: en };
  }

  // A time of day as people read it here: "오후 8:18" / "8:18 PM" (no seconds).
  function clockTime(at, which) {
    const date = at instanceof Date ? at : new Date(at);
    return date.toLocaleTimeString((which || lang) === "en" ? "en-US" : "ko-KR", { hour: "numeric", minute: "2-digit" });
  }

  window.I18N = {
    tr: tr, both: both, inLang: inLang, apply: apply, el: el, errorText: errorText, josa: josa, named: named,
    clockTime: clockTime, setLang: setLang,
    get lang() { return lang; },
    onChange: function (fn) { listeners.push(fn); },
  };
  document.addEventListener("DOMContentLoaded", function () {
    const button = document.getElementById("lang-switch");
    if (button) button.addEventListener("click", function () { setLang(lang === "ko" ? "en" : "ko"); });
    apply();
  });
})();
