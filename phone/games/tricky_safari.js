// The phone's picture of a Tricky Safari seat: whose turn, the running score, the seat's two
// animals with their values, the hand (every card playable), the five animals' values and the
// figures left, the figures taken this round (with what they are worth now), the past rounds
// and at the end the final ranking. Only this seat's view arrives here; the decisions (play a
// card, take a figure, name the opponent) are phone.js's generic forms.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const NAMES = {
    elephant: both("코끼리", "Elephant"), rhino: both("코뿔소", "Rhino"), lion: both("사자", "Lion"),
    leopard: both("표범", "Leopard"), zebra: both("얼룩말", "Zebra"),
  };

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function section(title, children, cls) {
    return el("section", { class: "tsp-section" + (cls ? " " + cls : "") }, [el("h3", { text: title })].concat(children));
  }

  function stat(label, value, cls) {
    return el("div", { class: "tsp-stat" + (cls ? " " + cls : "") }, [
      el("div", { class: "tsp-stat-label", text: label }),
      el("div", { class: "tsp-stat-value" }, value),
    ]);
  }

  function card(id) {
    const parts = id.split(":");
    return el("div", { class: "tsp-card tspa-" + parts[0], "data-card": id }, [
      el("div", { class: "tsp-card-num" }, parts[1]),
      el("div", { class: "tsp-card-name", text: NAMES[parts[0]] }),
    ]);
  }

  function turnLine(view, me) {
    const state = view.state;
    if (state.to_act == null) {
      if (state.step === "deal") return el("div", { class: "tsp-turn", text: both("카드를 나누는 중", "Dealing the cards") });
      if (state.step === "break") return el("div", { class: "tsp-turn", text: both(state.round + "라운드 종료", "Round " + state.round + " over") });
      return null;
    }
    const mine = state.to_act === me.seat;
    const what = state.stage === "play" ? both("카드 내기", "play a card") : both("피규어 가져가기", "take a figure");
    return el("div", { class: "tsp-turn" + (mine ? " mine" : ""), "data-role": "turn" }, mine
      ? [el("span", { text: both("내 차례: " + what.ko, "My turn: " + what.en) })]
      : [el("span", { text: both(nameOf(view, state.to_act) + " 차례 · " + what.ko, nameOf(view, state.to_act) + " · " + what.en) })]);
  }

  function myAnimals(view, me) {
    const byAnimal = {};
    view.state.animals.forEach(function (a) { byAnimal[a.animal] = a; });
    return el("div", { class: "tsp-mine" }, me.animals.map(function (animal) {
      const a = byAnimal[animal];
      return el("div", { class: "tsp-mine-animal tspa-" + animal, "data-animal": animal }, [
        el("div", { class: "tsp-mine-name", text: NAMES[animal] }),
        el("div", { class: "tsp-mine-value" }, a.value == null ? "–" : String(a.value)),
        el("div", { class: "tsp-mine-note", text: both("지금 가치", "value now") }),
      ]);
    }));
  }

  function hand(me) {
    if (!me.hand.length) return el("p", { class: "hint", text: both("남은 카드 없음", "No cards left") });
    return el("div", { class: "tsp-hand", "data-role": "hand" }, me.hand.map(card));
  }

  function board(view, me) {
    return el("div", { class: "tsp-board" }, view.state.animals.map(function (a) {
      const own = me.animals.indexOf(a.animal) >= 0;
      const dots = [];
      for (let i = 0; i < 5; i++) dots.push(el("span", { class: "tsp-dot" + (i < a.figures_left ? " left" : "") }));
      return el("div", { class: "tsp-row tspa-" + a.animal + (own ? " own" : "") + (a.complete ? " complete" : ""), "data-animal": a.animal }, [
        el("span", { class: "tsp-row-name", text: NAMES[a.animal] }),
        el("span", { class: "tsp-row-value" }, a.value == null ? "–" : String(a.value)),
        el("span", { class: "tsp-row-open", text: both("공개 " + a.open.length + "/6", "open " + a.open.length + "/6") }),
        el("span", { class: "tsp-dots", title: tr(both("남은 피규어 " + a.figures_left, a.figures_left + " figures left")) }, dots),
      ]);
    }));
  }

  function myFigures(view, me) {
    if (!me.figures.length) return el("p", { class: "hint", text: both("아직 없음", "None yet") });
    const values = {};
    view.state.animals.forEach(function (a) { values[a.animal] = a.value; });
    const worth = me.figures.reduce(function (sum, f) { return sum + (values[f] || 0); }, 0);
    return el("div", {}, [
      el("div", { class: "tsp-figs" }, me.figures.map(function (f) {
        return el("span", { class: "tsp-fig tspa-" + f }, tr(NAMES[f]) + " " + values[f]);
      })),
      el("div", { class: "tsp-worth", text: both("지금 가치로 " + worth + "점", "Worth " + worth + " at today's values") }),
    ]);
  }

  function pastRounds(view, me) {
    const rows = view.state.history.map(function (r) {
      return el("div", { class: "tsp-past", "data-round": String(r.round) }, [
        el("span", { class: "tsp-past-round" }, r.round + "R"),
        el("span", { class: "tsp-past-figs" }, r.figures[me.seat].map(function (f) {
          return el("span", { class: "tsp-fig small tspa-" + f }, tr(NAMES[f]) + " " + r.values[f]);
        })),
        el("span", { class: "tsp-past-points" }, "+" + r.points[me.seat]),
      ]);
    });
    return rows.length ? el("div", { class: "tsp-pasts" }, rows) : null;
  }

  function finalBox(view, me) {
    const state = view.state;
    const f = state.final;
    if (!f) return null;
    const place = f.order.indexOf(me.seat) + 1;
    let verdict = null;
    if (me.seat === f.winner) verdict = both("우승! 트리키 코인 상대를 지목하세요", "You win! Name your Tricky Coin opponent");
    if (me.seat === f.last) verdict = both("최하위", "Last");
    if (state.opponent != null) {
      verdict = me.seat === f.winner ? both("상대: " + nameOf(view, state.opponent), "Opponent: " + nameOf(view, state.opponent))
        : me.seat === state.opponent ? both(nameOf(view, f.winner) + "의 트리키 코인 상대로 지목됨", "Named by " + nameOf(view, f.winner) + " for Tricky Coin")
        : verdict;
    }
    const bonus = me.animals.map(function (a) {
      return tr(NAMES[a]) + " " + tr(both(f.ranks[a] + "위", "#" + f.ranks[a])) + " +" + f.animal_bonus[a];
    }).join(" · ");
    return el("div", { class: "tsp-final" + (me.seat === f.winner ? " winner" : ""), "data-role": "final" }, [
      el("div", { class: "tsp-final-place", text: both(place + "위", "Place " + place) }),
      el("div", { class: "tsp-final-total", text: both("총점 " + f.totals[me.seat] + " (피규어 " + f.figure_points[me.seat] + " + 보너스 " + f.bonuses[me.seat] + ")",
        "Total " + f.totals[me.seat] + " (figures " + f.figure_points[me.seat] + " + bonus " + f.bonuses[me.seat] + ")") }),
      el("div", { class: "tsp-final-bonus" }, bonus),
      verdict ? el("div", { class: "tsp-final-verdict", text: verdict }) : null,
    ]);
  }

  function render(view, seat) {
    const state = view.state;
    const me = state.seats[seat];
    if (!me || !("hand" in me)) return null;
    const parts = [finalBox(view, me), turnLine(view, me)];
    if (!state.final) {
      parts.push(el("div", { class: "tsp-stats" }, [
        stat(both("라운드", "Round"), state.round + " / " + state.rounds),
        stat(both("내 점수", "My score"), String(me.score), "score"),
        stat(both("카드", "Cards"), String(me.hand.length)),
      ]));
      parts.push(section(both("내 동물", "My animals"), [myAnimals(view, me)]));
      parts.push(section(both("내 손패 (나만 봅니다)", "My hand (only you)"), [hand(me)]));
      // At a round's end its figures are already in "past rounds" below.
      if (state.step === "play") parts.push(section(both("이번 라운드 내 피규어", "My figures this round"), [myFigures(view, me)]));
      parts.push(section(both("동물 가치 · 남은 피규어", "Values · figures left"), [board(view, me)]));
    }
    const past = pastRounds(view, me);
    if (past) parts.push(section(both("지난 라운드", "Past rounds"), [past]));
    return el("div", { class: "tsp" }, parts);
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.tricky_safari = render;
})();
