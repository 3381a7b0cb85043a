// The projector's picture of Tricky Coin: two panels, points, the sealed box as hidden coins,
// the GO/STOP reveal and the box opening as moments. Only public views arrive here.
// Contract of display/games/<game>.js: DisplayGames[id].render(board, view, previous) draws
// the public view into `board` and returns the moment to flash ({ko, en}) or null.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  function coin(value) {
    return el("span", { class: "coin c" + value }, String(value));
  }

  function sum(coins) {
    return coins.reduce(function (a, b) { return a + b; }, 0);
  }

  const trickyCoin = {
    render: function (board, view, previous) {
      const state = view.state;
      const names = view.seats;
      const lastOpened = state.opened[0];
      const lastRevealed = state.revealed[state.revealed.length - 1];
      // One root for the picture (.tc, display/games/tricky_coin.css): it lays the two panels out
      // in the board's height, roomy when the board is tall, compact when a row is under it.
      const panels = [0, 1].map(function (seat) {
        const s = state.seats[seat];
        const winner = view.result && view.result.winner === seat;
        const box = el("div", { class: "box-coins", "data-box": "box-" + seat });
        for (let i = 0; i < s.box_count; i++) box.appendChild(el("span", { class: "coin hidden" }, "?"));
        return el("div", { class: "panel tc-panel" + (winner ? " winner" : ""), "data-seat": String(seat), "data-box": "seat-" + seat }, [
          el("div", { class: "tc-head" }, [
            el("div", { class: "panel-name", "data-box": "name-" + seat }, names[seat]),
            el("div", { class: "panel-score", "data-box": "score-" + seat }, [
              el("span", { class: "panel-score-n", "data-role": "points" }, String(s.points)),
              el("span", { class: "panel-score-label", text: both("승점", "points") }),
            ]),
          ]),
          el("div", { class: "panel-line", "data-box": "round-" + seat, text: both(state.round + "라운드 상자 (비공개 코인 " + s.box_count + "개)",
                                                                                 "Round " + state.round + " box (" + s.box_count + " hidden)") }),
          el("div", { class: "tc-box" }, [
            box,
            lastRevealed ? el("div", { class: "tc-token", "data-box": "token-" + seat }, [
              el("span", { class: "token " + lastRevealed[seat] }, lastRevealed[seat])]) : null,
          ]),
          lastOpened ? el("div", { class: "history", "data-box": "opened-" + seat }, [
            el("span", { text: both(lastOpened.round + "라운드 개봉: ", "Round " + lastOpened.round + " opened: ") }),
          ].concat(lastOpened.boxes[seat].map(coin)).concat([el("strong", {}, " = " + sum(lastOpened.boxes[seat]))])) : null,
          el("div", { class: "panel-line", "data-box": "held-" + seat, text: both(
            "라운드 시작 보유: " + holding(state.coins, s.held),
            "Held at round start: " + holding(state.coins, s.held)) }),
        ]);
      });
      board.replaceChildren(el("div", { class: "tc" + (view.result ? " over" : "") }, panels.concat([
        view.result ? el("div", { class: "result", "data-box": "result" }, names[view.result.winner] + " " + tr(both("승리!", "wins!"))) : null,
      ])));
      return moment(view, previous);
    },
  };

  function holding(coins, counts) {
    return coins.map(function (v, i) { return v + "×" + counts[i]; }).join("  ");
  }

  function moment(view, previous) {
    const was = previous && previous.table === view.table ? previous.state : null;
    const state = view.state;
    const names = view.seats;
    // `opened` holds the newest opened round only: a round newer than the previous view's is
    // an opening (a void that takes one back shows its own correction instead).
    const o = state.opened[0];
    const before = was && was.opened[0];
    if (was && o && (!before || o.round > before.round)) {
      const head = names[0] + " " + sum(o.boxes[0]) + " : " + sum(o.boxes[1]) + " " + names[1];
      return o.winner == null ? both(head + " — 무승부", head + " — tie")
        : both(head + " → " + names[o.winner] + " +" + o.points, head + " → " + names[o.winner] + " +" + o.points);
    }
    if (was && state.revealed.length > was.revealed.length) {
      const t = state.revealed[state.revealed.length - 1];
      const words = both(names[0] + " " + t[0] + " · " + names[1] + " " + t[1], names[0] + " " + t[0] + " · " + names[1] + " " + t[1]);
      return Object.assign(words, { cue: t[0] === "STOP" || t[1] === "STOP" ? "stop" : "go" });
    }
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.tricky_coin = trickyCoin;
})();
