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

  // -- Korean particles --------------------------------------------------------------------
  // A particle after a name or a label depends on how the word ends read aloud (가람이, 나래가;
  // 빨강 3을, 파랑 4를): texts write the pair ("이/가") and josa() picks the member. The same
  // rules as batchim() and josa() in referee/kernel/text.py.
  const PAIRS = {
    "이/가": ["이", "가"], "을/를": ["을", "를"], "은/는": ["은", "는"], "과/와": ["과", "와"],
    "아/야": ["아", "야"], "으로/로": ["으로", "로"], "이나/나": ["이나", "나"], "이라/라": ["이라", "라"],
    "이며/며": ["이며", "며"], "이랑/랑": ["이랑", "랑"],
  };
  // Digits read as Sino-Korean numbers: 영 일 삼 육 칠 팔 (a 0 after digits: 십 백 천 만) end in a
  // consonant, 일 칠 팔 in ㄹ. Latin letters by name: 엘 엠 엔 알, of which 엘 and 알 end in ㄹ.
  const DIGIT_CODA = "013678", DIGIT_RIEUL = "178", LETTER_CODA = "LMNR", LETTER_RIEUL = "LR";
  const UNREAD = /[ \t\n'"”’»」』.,!?…:;·]+$/;
  const OPENER = { ")": "(", "]": "[", "}": "{", "〉": "〈", "》": "《" };

  // The word without what is not read at its end: punctuation, and a trailing parenthetical (the
  // particle follows the word before it: "1번 김민준(A)이"), unless the brackets hold it all.
  function spokenEnd(word) {
    let text = String(word).replace(UNREAD, "");
    while (text && OPENER[text[text.length - 1]]) {
      const close = text[text.length - 1];
      let depth = 0, i = text.length - 1;
      for (; i >= 0; i--) {
        if (text[i] === close) depth++;
        else if (text[i] === OPENER[close] && --depth === 0) break;
      }
      const before = text.slice(0, Math.max(i, 0)).replace(UNREAD, "");
      text = before || text.slice(Math.max(i + 1, 0), -1).replace(UNREAD, "");
    }
    return text;
  }

  // How a word ends read aloud: null after a vowel, "ㄹ" after ㄹ, "c" after another consonant.
  function batchim(word) {
    const text = spokenEnd(word);
    if (!text) return null;
    const last = text[text.length - 1];
    const code = last.charCodeAt(0);
    if (code >= 0xac00 && code <= 0xd7a3) {
      const coda = (code - 0xac00) % 28;
      return coda === 0 ? null : coda === 8 ? "ㄹ" : "c";
    }
    if (last >= "0" && last <= "9") return DIGIT_CODA.indexOf(last) < 0 ? null : DIGIT_RIEUL.indexOf(last) >= 0 ? "ㄹ" : "c";
    const up = last.toUpperCase();
    if (up >= "A" && up <= "Z") return LETTER_CODA.indexOf(up) < 0 ? null : LETTER_RIEUL.indexOf(up) >= 0 ? "ㄹ" : "c";
    return null;
  }

  // josa("파랑 4", "을/를") → "파랑 4를"; josa("1번 가을", "으로/로") → "1번 가을로" (a final ㄹ takes
  // 로). josa(word, "을", "를") is the same as josa(word, "을/를").
  function josa(word, pair, afterVowel) {
    const forms = afterVowel === undefined ? PAIRS[pair] : [pair, afterVowel];
    if (!forms) throw new Error("unknown particle pair: " + pair);
    const sound = batchim(word);
    return String(word) + (sound === null || (sound === "ㄹ" && forms[0] === "으로") ? forms[1] : forms[0]);
  }

  // After "자리" (a vowel) only the vowel forms are particles: 가 를 는 와 야 로 나 라 며 랑.
  const AFTER_SEAT = {};
  Object.keys(PAIRS).forEach(function (pair) { AFTER_SEAT[PAIRS[pair][1]] = pair; });
  const SEAT_KO = new RegExp("(\\d+)번 자리(" + Object.keys(AFTER_SEAT).join("|") + ")?", "g");

  // A headline with seat numbers ("교환 1단계: 1번 자리 차례", "seat 1's turn") that names the
  // players instead, when the names are known, with the particle after it fitting the name
  // ("1번 자리가 고르는 중" → "가람이 고르는 중").
  function named(text, names) {
    if (!names || !names.length || text == null) return text;
    const pick = function (n) { return names[Number(n) - 1]; };
    const ko = inLang(text, "ko").replace(SEAT_KO, function (all, n, particle) {
      const name = pick(n);
      if (!name) return all;
      return particle ? josa(name, AFTER_SEAT[particle]) : name;
    });
    const en = inLang(text, "en").replace(/\b[Ss]eat (\d+)/g, function (all, n) { return pick(n) || all; });
    return { ko: ko, en: en };
  }

  // A time of day as people read it here: "오후 8:18" / "8:18 PM" (no seconds).
  function clockTime(at, which) {
    const date = at instanceof Date ? at : new Date(at);
    return date.toLocaleTimeString((which || lang) === "en" ? "en-US" : "ko-KR", { hour: "numeric", minute: "2-digit" });
  }

  // A place in words, said alike on every screen (referee.kernel.results.place on the sheets):
  // "3위" / "3rd", a shared one "공동 1위" / "=1st".
  function place(rank, shared) {
    const teen = rank % 100 >= 11 && rank % 100 <= 13;
    const suffix = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[rank % 10] || "th");
    return both((shared ? "공동 " : "") + rank + "위", (shared ? "=" : "") + rank + suffix);
  }

  // Whether `rank` is shared in a result's standings.
  function sharedIn(standings, rank) {
    return standings.filter(function (s) { return s.rank === rank; }).length > 1;
  }

  window.I18N = {
    tr: tr, both: both, inLang: inLang, apply: apply, el: el, errorText: errorText, josa: josa, named: named,
    clockTime: clockTime, setLang: setLang, place: place, sharedIn: sharedIn,
    get lang() { return lang; },
    onChange: function (fn) { listeners.push(fn); },
  };
  document.addEventListener("DOMContentLoaded", function () {
    const button = document.getElementById("lang-switch");
    if (button) button.addEventListener("click", function () { setLang(lang === "ko" ? "en" : "ko"); });
    apply();
  });
})();
