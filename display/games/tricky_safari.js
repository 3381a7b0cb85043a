// The projector's picture of Tricky Safari: the five animals with their current value, their
// open cards in order and the figures left and taken by whom; whose turn (by name) and whether
// they play or take; the seats with their animals, figures and running score; the round-end
// scoring as a moment of its own; after round 5 the animal ranking with its bonuses, the final
// standings and the named Tricky Coin opponent.
// Only the public view arrives here: it never holds a hand, and nothing here could draw one.
// The boxes that must never lie on each other are named with data-box: each animal's column
// (which shows all it holds: its open cards, its figures and who took them), each seat's card,
// the round-end's animals and rows, the final ranking's rows.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const ANIMALS = ["elephant", "rhino", "lion", "leopard", "zebra"];
  const NAMES = {
    elephant: both("코끼리", "Elephant"), rhino: both("코뿔소", "Rhino"), lion: both("사자", "Lion"),
    leopard: both("표범", "Leopard"), zebra: both("얼룩말", "Zebra"),
  };

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function animalTag(animal, extra) {
    return el("span", { class: "ts-tag tsa-" + animal, "data-animal": animal }, [tr(NAMES[animal]) + (extra != null ? " " + extra : "")]);
  }

  function roundPills(state) {
    const pills = [];
    for (let r = 1; r <= state.rounds; r++) {
      const done = r < state.round || state.final || (r === state.round && state.step === "break");
      pills.push(el("span", { class: "ts-pill" + (done ? " done" : r === state.round ? " now" : "") }, String(r)));
    }
    return el("div", { class: "ts-rounds" }, [el("span", { class: "ts-label", text: both("라운드", "Round") })].concat(pills));
  }

  function topStrip(view) {
    const state = view.state;
    let title;
    if (state.final) title = both("최종 결과", "Final result");
    else if (state.step === "deal") title = both(state.round + "라운드 · 카드 분배", "Round " + state.round + " · the deal");
    else if (state.step === "break") title = both(state.round + "라운드 종료", "Round " + state.round + " over");
    else title = both(state.round + "라운드", "Round " + state.round);
    let now = null;
    if (state.to_act != null) {
      now = el("div", { class: "ts-now", "data-role": "to-act", "data-seat": String(state.to_act) }, [
        el("span", { class: "ts-now-name" }, nameOf(view, state.to_act)),
        el("span", { class: "ts-now-what", text: state.stage === "play" ? both("카드를 낼 차례", "plays a card")
          : both("피규어를 고를 차례", "takes a figure") }),
      ]);
    }
    return el("div", { class: "ts-top" }, [
      el("div", { class: "ts-title", text: title }),
      state.final ? null : roundPills(state),
      state.final ? null : el("div", { class: "ts-starter", text: both("선: " + nameOf(view, state.starter), "Starts: " + nameOf(view, state.starter)) }),
      el("div", { class: "ts-spacer" }),
      now,
    ]);
  }

  // The card just played (by animal): its slot glows.
  function freshPlay(view, previous) {
    const was = previous && previous.table === view.table ? previous.state : null;
    const plays = view.state.plays;
    if (!was || was.round !== view.state.round || plays.length <= was.plays.length) return null;
    return plays[plays.length - 1].animal;
  }

  function animalColumn(view, a, fresh) {
    const state = view.state;
    const slots = [];
    for (let i = 0; i < 6; i++) {
      const n = a.open[i];
      const last = i === a.open.length - 1;
      slots.push(el("span", { class: "ts-slot" + (n == null ? " empty" : "") + (last ? " last" : "") + (last && fresh === a.animal ? " fresh" : "") },
        n == null ? "" : String(n)));
    }
    const dots = [];
    for (let i = 0; i < 5; i++) dots.push(el("span", { class: "ts-dot" + (i < a.figures_left ? " left" : "") }));
    // Who took a figure, by seat number (the seat cards below carry number and name): five
    // names do not fit a column at a size read from the back of the room.
    const takers = a.taken_by.map(function (seat) {
      return el("span", { class: "ts-taker", "data-seat": String(seat), title: nameOf(view, seat) }, String(seat + 1));
    });
    // Whose animal it is shows on the seat cards below (their animal tags).
    return el("div", { class: "ts-animal tsa-" + a.animal + (a.complete ? " complete" : ""), "data-animal": a.animal, "data-box": "animal" }, [
      el("div", { class: "ts-animal-head" }, [el("span", { class: "ts-animal-name", text: NAMES[a.animal] })]),
      el("div", { class: "ts-value-box" }, [
        el("span", { class: "ts-label", text: both("가치", "Value") }),
        el("span", { class: "ts-value", "data-role": "value" }, a.value == null ? "–" : String(a.value)),
      ]),
      el("div", { class: "ts-slots", "data-role": "open" }, slots),
      el("div", { class: "ts-figures" }, [
        el("span", { class: "ts-label", text: both("피규어 " + a.figures_left, "Figures " + a.figures_left) }),
        el("span", { class: "ts-dots" }, dots),
      ]),
      el("div", { class: "ts-takers", "data-role": "taken-by" }, takers),
    ]);
  }

  function animalsRow(view, fresh) {
    return el("div", { class: "ts-animals" }, view.state.animals.map(function (a) { return animalColumn(view, a, fresh); }));
  }

  // A seat: its number and name, its two animals, its score so far (the figures it took this
  // round show under the animals above, by name).
  function seatCard(view, s) {
    const state = view.state;
    return el("div", { class: "ts-seat" + (state.to_act === s.seat ? " acting" : ""), "data-seat": String(s.seat), "data-box": "seat" }, [
      el("div", { class: "ts-seat-head" }, [
        el("span", { class: "ts-seat-no" }, String(s.seat + 1)),
        el("span", { class: "ts-seat-name" }, s.name),
        // The unit labels the number ("12점" / "12 pts").
        el("span", { class: "ts-score-box" }, [
          el("span", { class: "ts-score", "data-role": "score" }, String(s.score)),
          el("span", { class: "ts-label", text: both("점", "pts") }),
        ]),
      ]),
      el("div", { class: "ts-seat-animals" }, s.animals.map(function (a) { return animalTag(a); })),
    ]);
  }

  function seatsRow(view) {
    return el("div", { class: "ts-seats" }, view.state.seats.map(function (s) { return seatCard(view, s); }));
  }

  // The round-end scoring: the animals' round-end values, each seat's figures and points.
  function roundScoring(view, record) {
    const values = el("div", { class: "ts-end-values" }, ANIMALS.map(function (a) {
      const complete = record.completed.indexOf(a) >= 0;
      return el("div", { class: "ts-end-animal tsa-" + a + (complete ? " complete" : ""), "data-animal": a, "data-box": "end-animal" }, [
        el("span", { class: "ts-end-name", text: NAMES[a] }),
        el("span", { class: "ts-end-value" }, String(record.values[a])),
        complete ? el("span", { class: "ts-end-six", text: both("6장 공개", "all six open") }) : null,
      ]);
    }));
    const rows = view.state.seats.map(function (s) {
      const figs = record.figures[s.seat].map(function (f) { return animalTag(f, record.values[f]); });
      return el("div", { class: "ts-end-row", "data-seat": String(s.seat), "data-box": "end-row" }, [
        el("span", { class: "ts-end-who" }, s.name),
        el("span", { class: "ts-end-figs" }, figs.length ? figs : [el("span", { class: "ts-muted", text: both("없음", "none") })]),
        el("span", { class: "ts-end-points", "data-role": "points" }, "+" + record.points[s.seat]),
        el("span", { class: "ts-end-total" }, [el("span", { class: "ts-label", text: both("누적", "Total") }), " " + s.score]),
      ]);
    });
    return el("div", { class: "ts-end", "data-role": "round-scoring" }, [
      el("div", { class: "ts-caption", text: both(record.round + "라운드 점수: 피규어마다 그 동물의 마지막 가치",
        "Round " + record.round + " scoring: each figure scores its animal's last value") }),
      values,
      el("div", { class: "ts-end-table" }, rows),
    ]);
  }

  function finalView(view) {
    const state = view.state;
    const f = state.final;
    const animals = ANIMALS.slice().sort(function (a, b) { return f.ranks[a] - f.ranks[b] || ANIMALS.indexOf(a) - ANIMALS.indexOf(b); });
    const ranking = el("div", { class: "ts-rank-table", "data-role": "animal-ranking" }, [
      el("div", { class: "ts-rank-row head" }, [
        el("span", { text: both("순위", "Rank") }), el("span", { text: both("동물", "Animal") }),
        el("span", { text: both("합계", "Sum") }), el("span", { text: both("보너스", "Bonus") }),
      ]),
    ].concat(animals.map(function (a) {
      return el("div", { class: "ts-rank-row", "data-animal": a, "data-box": "rank-row" }, [
        el("span", { class: "ts-rank-no" }, f.ranks[a] + tr(both("위", ""))),
        animalTag(a),
        el("span", { class: "ts-rank-sum" }, String(f.sums[a])),
        el("span", { class: "ts-rank-bonus" }, "+" + f.animal_bonus[a]),
      ]);
    })));
    const standings = el("div", { class: "ts-final-table", "data-role": "standings" }, [
      el("div", { class: "ts-final-row head" }, [
        el("span", { text: both("순위", "Place") }), el("span", { text: both("이름", "Name") }),
        el("span", { text: both("갤러리", "Gallery") }),
        el("span", { text: both("피규어", "Figures") }), el("span", { text: both("보너스", "Bonus") }),
        el("span", { text: both("총점", "Total") }), el("span", {}),
      ]),
    ].concat(f.order.map(function (seat, i) {
      const badge = seat === f.winner ? el("span", { class: "ts-badge win", text: both("우승", "Winner") })
        : seat === state.opponent ? el("span", { class: "ts-badge opp", text: both("코인 상대", "Coin opponent") })
        : seat === f.last ? el("span", { class: "ts-badge last", text: both("최하위", "Last") }) : el("span", {});
      return el("div", { class: "ts-final-row" + (seat === f.winner ? " winner" : "") + (seat === f.last ? " last" : "")
                         + (seat === state.opponent ? " opponent" : ""), "data-seat": String(seat), "data-box": "final-row" }, [
        el("span", { class: "ts-final-place" }, String(i + 1)),
        el("span", { class: "ts-final-name" }, nameOf(view, seat)),
        // The Gallery rank breaks equal totals (Safari rule 5).
        el("span", { class: "ts-final-gallery" }, tr(both(state.seats[seat].gallery_rank + "위", "#" + state.seats[seat].gallery_rank))),
        el("span", {}, String(f.figure_points[seat])),
        el("span", {}, "+" + f.bonuses[seat]),
        el("span", { class: "ts-final-total" }, String(f.totals[seat])),
        badge,
      ]);
    })));
    const winner = nameOf(view, f.winner);
    const headline = state.opponent != null
      ? el("div", { class: "ts-headline named", "data-role": "opponent" }, [
        el("span", {}, winner), el("span", { class: "ts-vs" }, "vs"), el("span", {}, nameOf(view, state.opponent)),
        el("span", { class: "ts-headline-note", text: both("트리키 코인", "Tricky Coin") }),
      ])
      : el("div", { class: "ts-headline", "data-role": "naming", text: both("우승 " + winner + " · 트리키 코인 상대를 지목하는 중…",
        "Winner " + winner + " · naming the Tricky Coin opponent…") });
    return el("div", { class: "ts-final" }, [headline, el("div", { class: "ts-final-body" }, [ranking, standings])]);
  }

  function render(board, view, previous) {
    const state = view.state;
    let body;
    if (state.final) {
      body = [finalView(view)];
    } else if (state.step === "break" && state.history.length) {
      body = [roundScoring(view, state.history[state.history.length - 1])];
    } else {
      body = [animalsRow(view, freshPlay(view, previous)), seatsRow(view)];
    }
    board.replaceChildren(el("div", { class: "ts" }, [topStrip(view)].concat(body)));
    return moment(view, previous);
  }

  function moment(view, previous) {
    const state = view.state;
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was) return null;
    if (state.opponent != null && was.opponent == null) {
      return both(nameOf(view, state.final.winner) + " → " + nameOf(view, state.opponent) + " 지목!",
                  nameOf(view, state.final.winner) + " names " + nameOf(view, state.opponent) + "!");
    }
    if (state.final && !was.final) return both("최종 결과: " + nameOf(view, state.final.winner) + " 우승",
                                                 "Final: " + nameOf(view, state.final.winner) + " wins");
    if (state.history.length > was.history.length) {
      const last = state.history[state.history.length - 1];
      const six = last.completed.map(function (a) { return NAMES[a]; });
      return both(last.round + "라운드 종료 · " + six.map(function (t) { return t.ko; }).join(", ") + " 6장 공개",
                  "Round " + last.round + " over · " + six.map(function (t) { return t.en; }).join(", ") + " all open");
    }
    if (state.round > was.round) return both(state.round + "라운드 시작", "Round " + state.round + " begins");
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.tricky_safari = { render: render };
})();
