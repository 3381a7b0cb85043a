// The projector's picture of a show program (Tricky Survival, a Genius episode): the evening's
// matches in order with their state, every player with the keys they hold or the match that put
// them out, the next match and its seating, and at the end the evening's standings. Any program
// (a view with state.program) is drawn by this one picture; display.js picks it.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;
  // Keys in words, not emoji: a venue's machine may have no emoji font (a box would show).
  const KEY = { "1": both("열쇠1", "key 1"), "2": both("열쇠2", "key 2"), "3": both("열쇠3", "key 3"),
                golden: both("황금 열쇠", "golden key") };
  const STATUS = { confirmed: both("끝", "done"), open: both("진행 중", "live"), ready: both("다음", "next"),
                   later: both("예정", "later") };

  function outs(board) {
    const list = Array.isArray(board.eliminated) ? board.eliminated
      : (board.eliminated != null ? [{ player: board.eliminated, stage: null }] : []);
    const map = {};
    list.forEach(function (e) { map[e.player] = e.stage; });
    return map;
  }

  const program = {
    render: function (stage, view, previous) {
      const state = view.state;
      const board = state.board || {};
      const titles = {};
      state.planned.forEach(function (p) { titles[p.key] = p.title; });
      const out = outs(board);
      const keys = board.keys || {};
      stage.replaceChildren();
      stage.appendChild(el("div", { class: "pg-stages panel" }, state.planned.map(function (p) {
        return el("div", { class: "pg-stage pg-" + p.status, "data-stage": p.key }, [
          el("span", { class: "pg-stage-title", text: p.title }),
          el("span", { class: "pg-stage-status", text: STATUS[p.status] }),
        ]);
      })));
      const players = el("div", { class: "pg-players panel" });
      state.names.forEach(function (name, i) {
        const gone = Object.prototype.hasOwnProperty.call(out, i);
        players.appendChild(el("div", { class: "pg-player" + (gone ? " pg-out" : ""), "data-player": String(i) }, [
          el("span", { class: "pg-name" }, name),
          board.points ? el("span", { class: "pg-points" }, tr(both((board.points[i] || 0) + "점", (board.points[i] || 0) + " pts"))) : null,
          el("span", { class: "pg-keys" }, (keys[i] || []).map(function (k) { return tr(KEY[k] || k); }).join(" · ")),
          gone ? el("span", { class: "pg-out-label", text: out[i] ? both("탈락 · " + tr(titles[out[i]] || { ko: "", en: "" }),
                                                                         "out · " + tr(titles[out[i]] || { ko: "", en: "" }))
                                                             : both("탈락", "out") }) : null,
          board.candidate === i ? el("span", { class: "pg-flag", text: both("탈락 후보", "candidate") }) : null,
          board.opponent === i ? el("span", { class: "pg-flag", text: both("지목된 상대", "named opponent") }) : null,
        ]));
      });
      stage.appendChild(players);
      if (state.final) {
        stage.appendChild(el("div", { class: "pg-final panel" }, [
          el("div", { class: "pg-heading", text: both("최종 순위", "Final standings") }),
          el("ol", {}, state.final.standings.map(function (s) {
            return el("li", { value: String(s.rank) }, state.names[s.seat]);
          })),
        ]));
      } else if (state.next.length) {
        stage.appendChild(el("div", { class: "pg-next panel" }, state.next.map(function (n) {
          return el("div", {}, [
            el("div", { class: "pg-heading", text: both("다음 경기: ", "Next: ") }, [tr(n.title)]),
            el("div", { class: "pg-seating" }, n.players.map(function (p) { return state.names[p]; }).join(" · ")),
          ]);
        })));
      }
      const done = state.stages.filter(function (s) { return s.status === "confirmed"; }).length;
      const before = previous && previous.state.program
        ? previous.state.stages.filter(function (s) { return s.status === "confirmed"; }).length : done;
      if (state.final && !(previous && previous.state.final)) return both("최종 순위 발표", "The final standings");
      return done > before ? both("경기 결과 확정", "Result confirmed") : null;
    },
  };

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.program = program;
})();
