// The projector's picture of Reef: every board (4x4 stacks: the top colour and the height, the
// lower corals as stripes), whose turn, the display with the points lying on its cards, the deck,
// the corals left, the card being played, each scoring with its matches outlined on the board,
// and at the end the ranking with the tie-breaks. Only the public view arrives here: no hand and
// no running total is ever in it (the totals come with the end).
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const COLOUR = {
    red: both("빨강", "red"), yellow: both("노랑", "yellow"), purple: both("보라", "purple"),
    green: both("초록", "green"), any: both("아무 색", "any"),
  };
  const COLS = "ABCD";

  function cellName(cell) { return COLS[cell % 4] + (Math.floor(cell / 4) + 1); }
  function nameOf(view, seat) { return view.state.seats[seat].name; }

  // -- a card: the two corals it gives, its pattern as a little picture, its points ------------

  function heightMark(spec) {
    if (spec.height == null) return "";
    return spec.height_mode === "exact" ? String(spec.height) : spec.height + "+";
  }

  // The pattern as cells of a small grid: [row, col, colour, mark, extra class].
  function patternCells(p) {
    switch (p.type) {
      case "single_stack": return { rows: 1, cols: 1, cells: [[0, 0, p.top, heightMark(p)]] };
      case "square_2x2": return { rows: 2, cols: 2, cells: [[0, 0, p.top], [0, 1, p.top], [1, 0, p.top], [1, 1, p.top]] };
      case "line3_orthogonal": return { rows: 1, cols: 3, cells: [[0, 0, p.top], [0, 1, p.top], [0, 2, p.top]] };
      case "line3_diagonal": return { rows: 3, cols: 3, cells: [[0, 0, p.top], [1, 1, p.top], [2, 2, p.top]] };
      case "L3": return { rows: 2, cols: 2, cells: [[0, 0, p.top], [0, 1, p.top], [1, 0, p.top]] };
      case "pair_orthogonal": return { rows: 1, cols: 2, cells: [[0, 0, p.a.top, heightMark(p.a)], [0, 1, p.b.top, heightMark(p.b)]] };
      case "pair_diagonal": return { rows: 2, cols: 2, cells: [[0, 0, p.a.top, heightMark(p.a)], [1, 1, p.b.top, heightMark(p.b)]] };
      case "highest_surround": {
        const cells = [[1, 1, p.center_top, "▲", "centre"]];
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) if (r !== 1 || c !== 1) cells.push([r, c, p.neighbour_top, "", "ring"]);
        return { rows: 3, cols: 3, cells: cells };
      }
      default: return { rows: 1, cols: 1, cells: [] };
    }
  }

  function pattern(p) {
    const shape = patternCells(p);
    // Positions are classes: the page's content security policy refuses inline styles.
    const grid = el("div", { class: "rf-pat w" + shape.cols + " h" + shape.rows });
    shape.cells.forEach(function (c) {
      grid.appendChild(el("span", { class: "rf-pc rfc-" + c[2] + " r" + c[0] + " c" + c[1] + (c[4] ? " " + c[4] : "") }, c[3] || ""));
    });
    return grid;
  }

  function card(c, tokens, extra) {
    if (!c) return el("div", { class: "rf-card empty" + (extra ? " " + extra : "") }, [el("span", { class: "rf-card-gone", text: both("빈 자리", "empty") })]);
    const each = c.pattern.type === "highest_surround";
    return el("div", { class: "rf-card" + (extra ? " " + extra : ""), "data-card": String(c.n), title: tr(c.label), "data-box": "card-" + c.n }, [
      el("div", { class: "rf-card-top" }, [
        el("span", { class: "rf-gain" }, c.corals.map(function (k) { return el("span", { class: "rf-dot rfc-" + k }); })),
        el("span", { class: "rf-pts" }, [String(c.points), each ? el("small", { text: both("×", "×") }) : null]),
      ]),
      pattern(c.pattern),
      el("div", { class: "rf-card-foot" }, [
        el("span", { class: "rf-card-no" }, "#" + c.n),
        tokens ? el("span", { class: "rf-tokens", "data-role": "tokens", text: both("+" + tokens + "점", "+" + tokens + " pt") }) : null,
      ]),
    ]);
  }

  // -- a board -----------------------------------------------------------------------------------

  const RINGS = ["m0", "m1", "m2", "m3", "m4"];

  function boardGrid(stacks, marks) {
    const grid = el("div", { class: "rf-board" });
    stacks.forEach(function (stack, i) {
      const top = stack.length ? stack[stack.length - 1] : null;
      const cls = ["rf-cell", top ? "rfc-" + top : "blank"];
      if (marks.match[i] != null) cls.push("hit", RINGS[marks.match[i] % RINGS.length]);
      if (marks.placed.indexOf(i) >= 0) cls.push("placed");
      if (marks.centre === i) cls.push("centre");
      const layers = el("span", { class: "rf-layers" }, stack.slice(0, -1).map(function (k) { return el("span", { class: "rfc-" + k }); }));
      grid.appendChild(el("div", { class: cls.join(" "), "data-cell": String(i), "data-height": String(stack.length) }, [
        top ? el("span", { class: "rf-h" }, String(stack.length)) : null,
        stack.length > 1 ? layers : null,
      ]));
    });
    return grid;
  }

  function marksFor(state, seat) {
    const out = { match: {}, placed: [], centre: null };
    const last = state.last_score;
    if (state.playing && state.playing.seat === seat) out.placed = state.playing.placed.slice();
    if (!last || last.seat !== seat || last.from_hand || state.step === "over") return out;
    if (!state.playing) out.placed = last.placed.slice();
    last.matches.forEach(function (m, k) {
      m.forEach(function (cell) { out.match[cell] = k; });
      if (last.card.pattern.type === "highest_surround") out.centre = m[0];
    });
    return out;
  }

  function seatPanel(view, seat) {
    const state = view.state;
    const s = state.seats[seat];
    const now = state.current === seat && state.step !== "over";
    const rank = state.final ? state.final.ranking.find(function (r) { return r.seat === seat; }) : null;
    const last = state.last_score && state.last_score.seat === seat && !state.last_score.from_hand && state.step !== "over" ? state.last_score : null;
    return el("div", { class: "rf-seat" + (now ? " now" : "") + (rank && rank.rank === 1 ? " winner" : ""), "data-seat": String(seat),
                       "data-box": "board-" + seat }, [
      el("div", { class: "rf-seat-head" }, [
        el("span", { class: "rf-name", "data-box": "name-" + seat }, s.name),
        rank ? el("span", { class: "rf-rank", text: I18N.place(rank.rank, I18N.sharedIn(state.final.ranking, rank.rank)) }) : null,
        // at the end the total stands by the place
        state.final ? el("span", { class: "rf-stat total", text: both(s.points + "점", s.points + " pts") }) : null,
        // the points just scored sit in the head, so every board keeps the same height
        last ? el("span", { class: "rf-gained", "data-role": "scored", text: both("+" + last.points + "점", "+" + last.points) }) : null,
        now ? el("span", { class: "rf-turn", text: both("차례", "to play") }) : null,
      ]),
      // the counts under the board (beside it when the board's region is short: reef.css)
      el("div", { class: "rf-seat-body" }, [
        boardGrid(s.board, marksFor(state, seat)),
        el("div", { class: "rf-seat-foot" }, [
          el("span", { class: "rf-stat", "data-role": "hand", text: both("손 " + s.hand_count + "장", "Hand " + s.hand_count) }),
          el("span", { class: "rf-stat", "data-role": "played", text: both("사용 " + s.played.length + "장", "Played " + s.played.length) }),
        ]),
      ]),
    ]);
  }

  // -- the strip below: the display, the deck, the supply, what is happening -------------------

  function supply(state) {
    return el("div", { class: "rf-supply" }, state.colours.map(function (k) {
      const left = state.supply[k];
      return el("div", { class: "rf-sup" + (left === 0 ? " gone" : left <= 3 ? " low" : ""), "data-colour": k }, [
        el("span", { class: "rf-dot large rfc-" + k }),
        el("span", { class: "rf-sup-n" }, String(left)),
      ]);
    }));
  }

  function happening(view) {
    const state = view.state;
    if (state.playing) {
      const p = state.playing;
      return el("div", { class: "rf-now", "data-role": "playing", "data-box": "now" }, [
        card(p.card, 0, "small"),
        el("div", { class: "rf-now-text" }, [
          el("div", { class: "rf-now-title", text: both(nameOf(view, p.seat) + " 카드 사용", nameOf(view, p.seat) + " plays") }),
          el("div", { class: "rf-label", text: both("놓을 산호", "Corals to place") }),
          el("div", { class: "rf-gain" }, p.to_place.map(function (k) { return el("span", { class: "rf-dot large rfc-" + k }); })),
        ]),
      ]);
    }
    const last = state.last_score;
    if (last && !last.from_hand) {
      return el("div", { class: "rf-now", "data-role": "scored", "data-box": "now" }, [
        card(last.card, 0, "small"),
        el("div", { class: "rf-now-text" }, [
          el("div", { class: "rf-now-title", text: both(nameOf(view, last.seat) + " 점수", nameOf(view, last.seat) + " scores") }),
          el("div", { class: "rf-big", "data-role": "points", text: both(last.points + "점", last.points + " pts") }),
          el("div", { class: "rf-label", text: both(last.count + "개 일치 × " + last.card.points + "점",
                                                    last.count + " matches × " + last.card.points) }),
        ]),
      ]);
    }
    return null;
  }

  function strip(view) {
    const state = view.state;
    const display = el("div", { class: "rf-display", "data-box": "display" }, [
      el("div", { class: "rf-label side", text: both("펼친 카드", "Display") }),
      el("div", { class: "rf-cards" }, state.display.map(function (d) { return card(d.card, d.tokens); })),
    ]);
    const stock = el("div", { class: "rf-stock", "data-box": "stock" }, [
      el("div", { class: "rf-deck", "data-role": "deck" }, [
        el("span", { class: "rf-label", text: both("더미", "Deck") }),
        el("span", { class: "rf-deck-n" }, String(state.deck)),
        el("span", { class: "rf-label", text: both("장", "cards") }),
        state.last_round ? el("span", { class: "rf-last", "data-role": "last-round", text: both("마지막 라운드", "Last round") }) : null,
      ]),
      el("div", { class: "rf-label", text: both("남은 산호", "Corals left") }),
      supply(state),
    ]);
    return el("div", { class: "rf-strip" }, [display, stock, happening(view)]);
  }

  function finalStrip(view) {
    const state = view.state;
    const f = state.final;
    const rows = f.ranking.map(function (r) {
      const s = state.seats[r.seat];
      return el("tr", { class: r.rank === 1 ? "first" : "", "data-seat": String(r.seat), "data-box": "standing-" + r.seat }, [
        el("td", { class: "rf-rank-cell", text: I18N.place(r.rank, I18N.sharedIn(f.ranking, r.rank)) }),
        el("td", { class: "rf-name-cell" }, s.name),
        el("td", { class: "rf-pts-cell" }, String(r.points)),
        el("td", {}, "+" + f.hand_points[r.seat]),
        el("td", {}, String(f.empty[r.seat])),
        el("td", {}, String(f.full[r.seat])),
      ]);
    });
    return el("div", { class: "rf-strip final" }, [
      el("table", { class: "rf-standings", "data-box": "standings" }, [
        el("thead", {}, el("tr", {}, [
          el("th", { text: both("순위", "Rank") }), el("th", { text: both("이름", "Name") }), el("th", { text: both("점수", "Points") }),
          el("th", { text: both("손 카드", "Hand") }), el("th", { text: both("빈칸", "Empty") }), el("th", { text: both("4층", "4-high") }),
        ])),
        el("tbody", {}, rows),
      ]),
      el("div", { class: "rf-decided", "data-box": "decided" }, [
        el("div", { class: "rf-label", text: both("순위 결정", "Decided by") }),
        el("div", { class: "rf-decided-text", text: f.decided_by }),
        el("div", { class: "rf-label", text: state.end_reason === "deck" ? both("더미가 떨어져 끝", "Ended: the deck ran out")
          : both("산호가 떨어져 끝", "Ended: a coral colour ran out") }),
      ]),
    ]);
  }

  // -- moments -----------------------------------------------------------------------------------

  function moment(view, previous) {
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was) return null;
    const state = view.state;
    if (state.step === "over" && was.step !== "over") {
      const first = state.final.ranking.filter(function (r) { return r.rank === 1; }).map(function (r) { return nameOf(view, r.seat); });
      const top = I18N.place(1, first.length > 1);
      return both("게임 종료! " + top.ko + " " + first.join(", "),
                  "Game over! " + (first.length > 1 ? top.en + ": " + first.join(", ") : first[0] + " wins"));
    }
    if (state.out.length > was.out.length) {
      const k = COLOUR[state.out[state.out.length - 1]];
      return both(k.ko + " 산호 소진! 마지막 라운드", "The " + k.en + " corals ran out! Last round");
    }
    const last = state.last_score;
    if (state.scorings > was.scorings && last && !last.from_hand && last.points > 0) {
      return both(nameOf(view, last.seat) + " +" + last.points + "점 (" + last.count + "개 일치)",
                  nameOf(view, last.seat) + " +" + last.points + " (" + last.count + " matches)");
    }
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.reef = {
    render: function (board, view, previous) {
      const state = view.state;
      const boards = el("div", { class: "rf-boards n" + state.seats.length }, state.seats.map(function (_, seat) { return seatPanel(view, seat); }));
      // Whose turn is the stage's phase line (the turn's phase names the seat); the boards and the
      // strip below fill the rest.
      board.replaceChildren(el("div", { class: "rf" + (state.final ? " over" : "") }, [boards, state.final ? finalStrip(view) : strip(view)]));
      return moment(view, previous);
    },
    cellName: cellName,
  };
})();
