// The phone's picture of a Tricky Coin seat: points, coins in hand, the box.
// Contract of phone/games/<game>.js: PhoneGames[id](view, seat) returns an element showing
// the seat's holdings. A game without one gets the generic list in phone.js; forms never
// need game code (they come from the decisions).
(function () {
  "use strict";
  const { el, both } = window.I18N;

  // `counts`: how many of each coin of `values` (the view's `coins`, in that order).
  function coins(values, counts) {
    const row = el("div", { class: "coins" });
    values.forEach(function (value, i) {
      for (let n = 0; n < counts[i]; n++) row.appendChild(el("span", { class: "coin c" + value }, String(value)));
    });
    return row;
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.tricky_coin = function (view, seat) {
      const me = view.state.seats[seat];
      const other = view.state.seats[1 - seat];
      const values = view.state.coins;
      return el("div", {}, [
        el("dl", { class: "kv" }, [
          el("dt", { text: both("내 승점", "My points") }), el("dd", {}, String(me.points)),
          el("dt", { text: both("상대 승점", "Opponent") }), el("dd", {}, String(other.points)),
          el("dt", { text: both("라운드", "Round") }), el("dd", {}, view.state.round + " / " + view.state.rounds),
        ]),
        el("h3", { text: both("내 코인", "My coins") }), coins(values, me.hand || []),
        el("h3", { text: both("내 상자", "My box") }),
        (me.box && me.box.length)
          ? coins(values, values.map(function (v) { return me.box.filter(function (c) { return c === v; }).length; }))
          : el("p", { class: "hint", text: both("비어 있음", "Empty") }),
      ]);
  };
})();
