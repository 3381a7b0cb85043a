// The projector: the public view of the show's current table, live. Sealed submissions
// show as "1/2 제출" only; reveals flash as moments. Nothing here ever receives a secret:
// the server sends this page the public view and nothing else.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  let previous = null;
  let latest = null;
  let momentTimer = null;

  function generic(board, view) {
    board.replaceChildren(el("pre", { class: "generic-board" }, JSON.stringify(view.state, null, 1)));
    return null;
  }

  function flash(text) {
    if (!text) return;
    const box = $("moment");
    box.textContent = tr(text);
    box.hidden = false;
    clearTimeout(momentTimer);
    momentTimer = setTimeout(function () { box.hidden = true; }, 3500);
  }

  function render(snapshot) {
    latest = snapshot;
    $("show-title").textContent = snapshot.show.name;
    const view = snapshot.table;
    const board = $("board");
    if (!view) {
      $("game-title").textContent = "";
      $("phase").textContent = "";
      $("sealed").textContent = "";
      board.replaceChildren(el("div", { class: "result", text: both("곧 시작합니다", "Starting soon") }));
      return;
    }
    $("game-title").textContent = tr(view.title);
    $("phase").textContent = view.result ? tr(both("경기 종료", "Match over"))
      : view.started ? tr(view.turn.phase) : tr(both("시작 전", "Not started"));
    const sealed = view.turn && view.turn.sealed;
    $("sealed").textContent = sealed && !view.result
      ? tr(both(sealed[0] + "/" + sealed[1] + " 제출", sealed[0] + "/" + sealed[1] + " submitted")) : "";
    // A show program is drawn by one picture for every program (display/games/program.js).
    const game = (window.DisplayGames || {})[view.state && view.state.program ? "program" : view.game];
    const text = game ? game.render(board, view, previous) : generic(board, view);
    previous = view;
    flash(text);
  }

  document.addEventListener("DOMContentLoaded", function () {
    const show = $("display").dataset.show;
    Live.connect("/public", {
      auth: { show: show },
      keyOf: function (p) { return p.table ? p.table.table : null; },
      onSnapshot: render,
    });
    I18N.onChange(function () { if (latest) { const keep = previous; previous = null; render(latest); previous = keep; } });
  });
})();
