// One player's own record in the exported evening (referee/server/export.py), opened from
// disk. window.SEALED (players/N.js) is their story sealed with AES-GCM under a key derived
// (PBKDF2-SHA256) from their card link's token: only that card opens it, in this browser
// (WebCrypto); nothing leaves the page. The token comes from the pasted card link, or from the
// page's address after "#" (then dropped from the address).
//
// Opened, it shows each match the player sat in: their own choices round by round beside what
// the hall saw of them (replay.story, as the phone's "내 경기 다시 보기"), and their own screen
// frame by frame with the phone's pictures (phone/games/<game>.js).
(function () {
  "use strict";
  const { el, tr, both, inLang } = window.I18N;
  const SEALED = window.SEALED;
  const $ = function (id) { return document.getElementById(id); };
  const NO_TOKEN = { code: "export/no_token", ko: "붙여 넣은 내용에서 카드 링크를 찾지 못했습니다. 카드의 QR 링크 전체를 붙여 넣으세요.",
                     en: "No card link found in that. Paste the whole link from your card's QR." };
  const NO_CRYPTO = { code: "export/no_webcrypto", ko: "이 브라우저는 기록을 열 수 없습니다 (WebCrypto 없음). 다른 브라우저로 여세요.",
                      en: "This browser cannot open the record (no WebCrypto). Try another browser." };
  let record = null;  // the opened story
  let shown = null;  // the error on screen (drawn again in the other language)
  const at = {};  // table -> the own frame on screen

  // The token of a card link ("http://…/p/<token>", the token alone, or "#<token>").
  function tokenOf(text) {
    const s = String(text || "").trim();
    const found = /\/p\/([A-Za-z0-9_-]{24})(?:[/?#]|$)/.exec(s) || /^#?([A-Za-z0-9_-]{24})$/.exec(s);
    return found ? found[1] : null;
  }

  function bytes(text) { return new TextEncoder().encode(text); }
  function unbase64(text) { return Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); }); }

  // export.py `seal`, the other way round.
  function unseal(token) {
    const subtle = window.crypto && window.crypto.subtle;
    if (!subtle) return Promise.reject(NO_CRYPTO);
    return subtle.importKey("raw", bytes(token), "PBKDF2", false, ["deriveKey"]).then(function (base) {
      return subtle.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt: unbase64(SEALED.salt), iterations: SEALED.iterations },
                              base, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);
    }).then(function (key) {
      return subtle.decrypt({ name: "AES-GCM", iv: unbase64(SEALED.iv), additionalData: bytes(SEALED.aad) }, key,
                            unbase64(SEALED.data));
    }).then(function (plain) {
      return JSON.parse(new TextDecoder().decode(plain));
    }, function () {
      const name = $("keepsake").dataset.name;
      throw { code: "export/wrong_card",
              ko: "이 링크로는 열리지 않습니다. " + name + " 선수의 카드 링크인지 확인하세요 (재발급된 카드라면 내보낼 때의 카드).",
              en: "That link does not open this record. Check it is " + name + "'s card link (after a re-issue: the card at the time of the export)." };
    });
  }

  function showError(error) {
    shown = error || null;
    $("error").hidden = !error;
    $("error").textContent = error ? tr(error) : "";
    $("error").dataset.code = error ? error.code : "";
  }

  function unlock(text) {
    const token = tokenOf(text);
    if (!token) { showError(NO_TOKEN); return Promise.resolve(false); }
    const buttonEl = $("open");
    buttonEl.disabled = true;
    buttonEl.textContent = tr(both("여는 중…", "Opening…"));
    showError(null);
    return unseal(token).then(function (opened) {
      record = opened;
      $("unlock").hidden = true;
      $("card-link").value = "";
      draw();
      return true;
    }, function (error) {
      showError(error);
      return false;
    }).then(function (ok) {
      buttonEl.disabled = false;
      I18N.apply($("unlock"));
      return ok;
    });
  }

  // -- the record ------------------------------------------------------------------------------

  function titleOf(table) { return table.stage && table.stage.title ? table.stage.title : table.title; }

  function outcome(table) {
    const me = table.result && table.result.standings.find(function (s) { return s.seat === table.seat; });
    if (!me) return null;
    if (table.seats.length === 2 && !table.program) {
      if (table.result.winner === me.seat) return both("승리", "Won");
      if (table.result.winner == null && me.rank === 1) return both("무승부", "Draw");
      return both("패배", "Lost");
    }
    return both(table.seats.length + "명 중 " + me.rank + "위", "Place " + me.rank + " of " + table.seats.length);
  }

  // A game without a phone picture: its seat's part of the view as a plain list.
  function generic(view, seat) {
    const mine = view.state && view.state.seats && view.state.seats[seat];
    if (!mine || typeof mine !== "object") return null;
    return el("dl", { class: "kv" }, Object.keys(mine).filter(function (k) { return k !== "seat"; }).map(function (key) {
      return [el("dt", {}, key), el("dd", {}, typeof mine[key] === "object" ? JSON.stringify(mine[key]) : String(mine[key]))];
    }).reduce(function (a, b) { return a.concat(b); }, []));
  }

  // The player's own screen at one frame of the match, with what happened then.
  function screen(table) {
    const frames = table.frames;
    const i = Math.max(0, Math.min(frames.length - 1, at[table.id] || 0));
    at[table.id] = i;
    const frame = frames[i];
    const picture = (window.PhoneGames || {})[table.picture] || generic;
    const words = frame.correction ? both("정정: " + inLang(frame.correction, "ko"), "Correction: " + inLang(frame.correction, "en"))
      : { ko: frame.what.map(function (w) { return inLang(w, "ko"); }).join(" · "),
          en: frame.what.map(function (w) { return inLang(w, "en"); }).join(" · ") };
    function move(to) { return function () { at[table.id] = to; draw(); }; }
    return el("div", { class: "own-screen", "data-role": "own-screen", "data-frame": String(i) }, [
      el("div", { class: "own-nav" }, [
        el("button", { type: "button", "data-go": "back", disabled: i === 0, onclick: move(i - 1), text: both("◀ 이전", "◀ Back") }),
        el("span", { class: "own-where" }, (i + 1) + " / " + frames.length),
        el("button", { type: "button", "data-go": "step", disabled: i === frames.length - 1, onclick: move(i + 1), text: both("다음 ▶", "Next ▶") }),
      ]),
      el("p", { class: "own-what", "data-role": "own-what" }, [el("span", { class: "hint" }, I18N.clockTime(new Date(frame.t * 1000))),
                                                             " ", tr(words)]),
      el("div", { class: "holdings own-picture" }, frame.view.started ? picture(frame.view, table.seat) : null),
    ]);
  }

  function draw() {
    const box = $("record");
    box.hidden = !record;
    if (!record) { box.replaceChildren(); return; }
    box.replaceChildren.apply(box, [
      el("p", { class: "notice", "data-role": "opened", text: both(record.name + " 선수의 기록이 열렸습니다.", record.name + "'s record is open.") }),
    ].concat(record.tables.map(function (table) {
      const result = outcome(table);
      return el("article", { class: "card story keepsake-match", "data-table": table.id }, [
        el("div", { class: "story-title" }, [el("h2", { text: titleOf(table) }),
                                             el("small", { text: both((table.seat + 1) + "번 자리 · " + table.seats.join(", "),
                                                                      "Seat " + (table.seat + 1) + " · " + table.seats.join(", ")) })]),
        result ? el("p", { class: "story-outcome", text: both("결과: " + inLang(result, "ko"), "Result: " + inLang(result, "en")) }) : null,
        el("h3", { text: both("라운드별 내 선택", "My choices, round by round") }),
      ].concat(window.PhoneStory.rounds(table.lines, "h4")).concat([
        el("h3", { text: both("내 화면 다시 보기", "My screen, frame by frame") }),
        screen(table),
      ]));
    })));
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("unlock").addEventListener("submit", function (event) {
      event.preventDefault();
      unlock($("card-link").value);
    });
    I18N.onChange(function () { draw(); showError(shown); });
    // The token after "#" (a link made for the player): opened at once, then out of the address.
    const fromHash = tokenOf(location.hash);
    if (fromHash) {
      history.replaceState(null, "", location.pathname + location.search);
      unlock(fromHash);
    }
  });

  window.Keepsake = { unlock: unlock, tokenOf: tokenOf };
})();
