// A player's own place in a show program: still in (with the keys they hold), or out and at
// which match; the final place once the evening is over; a Genius candidate or named opponent.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.program = function (view, seat) {
    const state = view.state;
    const board = state.board || {};
    const keys = (board.keys || {})[seat] || [];
    const list = Array.isArray(board.eliminated) ? board.eliminated
      : (board.eliminated != null ? [{ player: board.eliminated }] : []);
    const out = list.find(function (e) { return e.player === seat; });
    const place = state.final ? state.final.standings.find(function (s) { return s.seat === seat; }) : null;
    const parts = [];
    if (place) parts.push(el("p", { class: "pg-place", text: both("최종 " + place.rank + "위", "Final place: " + place.rank) }));
    if (out) parts.push(el("p", { class: "pg-me-out", text: both("탈락했습니다", "You are out") }));
    else if (!place) parts.push(el("p", { text: both("생존", "Still in") }));
    const key = function (k, lang) { return k === "golden" ? (lang === "ko" ? "황금 열쇠" : "golden key") : (lang === "ko" ? "열쇠" : "key ") + k; };
    if (keys.length) {
      parts.push(el("p", { text: both("가진 열쇠: " + keys.map(function (k) { return key(k, "ko"); }).join(", "),
                                      "Keys: " + keys.map(function (k) { return key(k, "en"); }).join(", ")) }));
    }
    if (board.candidate === seat) parts.push(el("p", { class: "pg-me-out", text: both("탈락 후보입니다", "You are the candidate") }));
    if (board.opponent === seat) parts.push(el("p", { text: both("데스 매치 상대로 지목되었습니다", "You were named for the death match") }));
    state.next.forEach(function (n) {
      const at = n.players.indexOf(seat);
      if (at >= 0) parts.push(el("p", {}, [el("strong", { text: both("다음 경기: ", "Next: ") }), tr(n.title) + " · " +
                                          tr(both((at + 1) + "번 자리", "seat " + (at + 1)))]));
    });
    return el("div", { class: "pg-me" }, parts);
  };
})();
