// The phone's picture of a Reef seat: the own 4x4 board (stack heights and colours), the point
// total, the hand (each card with what it scores on the board as it is), the display and the
// supply. While the seat places corals, the form's cell is picked on the own board (`control`,
// forms.js): every open cell with the points the play would score there, a tap picks it, and
// the board shows the coral on it with the matches outlined before anything is sent. Only
// this seat's view arrives here.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const COLOUR = {
    red: both("빨강", "red"), yellow: both("노랑", "yellow"), purple: both("보라", "purple"),
    green: both("초록", "green"), any: both("아무 색", "any"),
  };
  const COLS = "ABCD";
  function cellName(cell) { return COLS[cell % 4] + (Math.floor(cell / 4) + 1); }

  // The hand card whose matches the board shows (a tap on it), kept across views.
  const picked = { peek: null };
  let shown = null;  // { root, view, seat }: redrawn in place when a hand card is tapped

  // -- a card, as on the projector (small) -----------------------------------------------------

  function heightMark(spec) {
    if (spec.height == null) return "";
    return spec.height_mode === "exact" ? String(spec.height) : spec.height + "+";
  }

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
    // Positions are classes: the page's content security policy refuses inline styles.
    const shape = patternCells(p);
    const grid = el("div", { class: "rfp-pat w" + shape.cols + " h" + shape.rows });
    shape.cells.forEach(function (c) {
      grid.appendChild(el("span", { class: "rfp-pc rfc-" + c[2] + " r" + c[0] + " c" + c[1] + (c[4] ? " " + c[4] : "") }, c[3] || ""));
    });
    return grid;
  }

  function card(c, extra, note) {
    const each = c.pattern.type === "highest_surround";
    return el("div", { class: "rfp-card" + (extra ? " " + extra : ""), "data-card": String(c.n) }, [
      el("div", { class: "rfp-card-top" }, [
        el("span", { class: "rfp-gain" }, c.corals.map(function (k) { return el("span", { class: "rfp-dot rfc-" + k }); })),
        el("span", { class: "rfp-pts" }, String(c.points) + (each ? "×" : "")),
      ]),
      pattern(c.pattern),
      el("div", { class: "rfp-card-no" }, "#" + c.n),
      note || null,
    ]);
  }

  // -- the board ---------------------------------------------------------------------------------

  function board(stacks, opts) {
    const grid = el("div", { class: "rfp-board" + (opts.preview ? " previewing" : "") });
    stacks.forEach(function (stack, i) {
      let shownStack = stack;
      const cls = ["rfp-cell"];
      if (opts.ghost && opts.ghost.cell === i) { shownStack = stack.concat([opts.ghost.colour]); cls.push("ghost"); }
      const top = shownStack.length ? shownStack[shownStack.length - 1] : null;
      cls.push(top ? "rfc-" + top : "blank");
      if (opts.hits && opts.hits[i] != null) cls.push("hit", "m" + (opts.hits[i] % 5));
      if (opts.centre && opts.centre.indexOf(i) >= 0 && !stack.length) cls.push("start");
      const row = opts.preview ? opts.preview[i] : undefined;
      if (opts.preview && row == null) cls.push("closed");
      const children = [
        top ? el("span", { class: "rfp-h" }, String(shownStack.length)) : el("span", { class: "rfp-name" }, cellName(i)),
        shownStack.length > 1 ? el("span", { class: "rfp-layers" }, shownStack.slice(0, -1).map(function (k) { return el("span", { class: "rfc-" + k }); })) : null,
        row != null ? el("span", { class: "rfp-badge" + (row.points > 0 ? " plus" : "") }, String(row.points)) : null,
      ];
      const attrs = { class: cls.join(" "), "data-cell": String(i), "data-height": String(stack.length) };
      if (row != null) {
        attrs.role = "button";
        attrs["aria-label"] = cellName(i) + " " + tr(both(row.points + "점", row.points + " pts"));
        attrs["aria-pressed"] = String(!!(opts.ghost && opts.ghost.cell === i));
        attrs.onclick = function () { opts.pick(i); };
      }
      grid.appendChild(el("div", attrs, children));
    });
    return grid;
  }

  function hitsOf(matches) {
    const hits = {};
    (matches || []).forEach(function (m, k) { m.forEach(function (cell) { hits[cell] = k; }); });
    return hits;
  }

  // -- the cell, picked on the own board (the form's control) -----------------------------------

  // The form's cell field while this seat places a coral: the preview of the coral the form has
  // chosen (the first to place when there is no choice), each open cell with its points; a tap
  // picks the cell in the form. `values` and `changed` are the form's (forms.js).
  function cellControl(view, seat, field, values, changed) {
    const s = view.state;
    if (field.kind !== "cell" || !s.preview || !s.playing || s.playing.seat !== seat) return null;
    const p = s.preview;
    const colour = p.colours.indexOf(values.coral) >= 0 ? values.coral : p.colours[0];
    const rows = p.cells[colour] || [];
    const byCell = {};
    rows.forEach(function (r) { byCell[r.cell] = r; });
    const best = rows.reduce(function (a, r) { return !a || r.points > a.points ? r : a; }, null);
    const chosen = values.cell != null ? byCell[values.cell] : null;
    const head = el("div", { class: "rfp-preview-head" }, [
      card(s.playing.card, "small"),
      el("div", { class: "rfp-preview-text" }, [
        el("div", { class: "rfp-label", text: p.last ? both("마지막 산호", "Last coral") : both("놓을 산호 (" + p.colours.length + "개)", "Corals to place (" + p.colours.length + ")") }),
        el("div", { class: "rfp-gain" }, Array.from(new Set(p.colours)).map(function (k) {
          return el("span", { class: "rfp-coral rfc-" + k + (k === colour ? " on" : "") }, tr(COLOUR[k]));
        })),
        best ? el("div", { class: "rfp-best", text: p.last ? both("최고: " + cellName(best.cell) + " " + best.points + "점", "Best: " + cellName(best.cell) + " " + best.points + " pts")
          : both("최고 " + best.points + "점까지 (" + cellName(best.cell) + ")", "Up to " + best.points + " pts (" + cellName(best.cell) + ")") }) : null,
      ]),
    ]);
    const verdict = chosen
      ? el("div", { class: "rfp-verdict", "data-role": "verdict" }, [
        el("span", { text: p.last ? both(cellName(chosen.cell) + "에 놓으면", "On " + cellName(chosen.cell) + ":") : both(cellName(chosen.cell) + "에 먼저 놓으면 최고", "First on " + cellName(chosen.cell) + ", up to") }),
        el("strong", { text: both(chosen.points + "점", chosen.points + " pts") }),
        el("span", { class: "rfp-count", text: both("(" + chosen.count + "개 일치)", "(" + chosen.count + " matches)") }),
      ])
      : el("div", { class: "rfp-verdict hint", text: both("보드에서 칸을 누르세요: 점수와 패턴을 미리 봅니다", "Tap a cell of your board: its score and patterns show first") });
    return el("div", { class: "rfp rfp-preview", "data-role": "cell-board" }, [
      head,
      board(s.seats[seat].board, { preview: byCell, ghost: chosen ? { cell: chosen.cell, colour: colour } : null,
                                   hits: chosen ? hitsOf(chosen.matches) : null,
                                   pick: function (i) { values.cell = i; changed(); } }),
      verdict,
    ]);
  }

  // -- the rest ----------------------------------------------------------------------------------

  function stat(label, value, cls) {
    return el("div", { class: "rfp-stat" + (cls ? " " + cls : "") }, [el("div", { class: "rfp-stat-label", text: label }), el("div", { class: "rfp-stat-value" }, value)]);
  }

  function hand(view, me) {
    const cards = me.hand || [];
    if (!cards.length) return el("p", { class: "hint", text: both("손에 카드가 없습니다", "No cards in hand") });
    return el("div", { class: "rfp-hand" }, cards.map(function (c) {
      const peeking = picked.peek === c.n;
      const note = el("div", { class: "rfp-now" + (c.now.points > 0 ? " plus" : ""), text: both("지금 " + c.now.points + "점", "now " + c.now.points) });
      const node = card(c, peeking ? "peek" : "", note);
      node.setAttribute("role", "button");
      node.addEventListener("click", function () { picked.peek = peeking ? null : c.n; redraw(); });
      return node;
    }));
  }

  function tableCards(view) {
    const s = view.state;
    return el("div", { class: "rfp-display" }, s.display.map(function (d) {
      if (!d.card) return el("div", { class: "rfp-card empty", text: both("빈 자리", "empty") });
      return card(d.card, "", d.tokens ? el("div", { class: "rfp-tokens", text: both("+" + d.tokens + "점", "+" + d.tokens) }) : null);
    }));
  }

  function supply(view) {
    const s = view.state;
    return el("div", { class: "rfp-supply" }, [
      el("span", { class: "rfp-deck", text: both("더미 " + s.deck + "장", "Deck " + s.deck) }),
    ].concat(s.colours.map(function (k) {
      return el("span", { class: "rfp-sup" + (s.supply[k] === 0 ? " gone" : ""), "data-colour": k }, [el("span", { class: "rfp-dot rfc-" + k }), String(s.supply[k])]);
    })));
  }

  function whose(view, seat) {
    const s = view.state;
    if (s.step === "over") return both("게임 종료", "Game over");
    if (s.step === "setup") return both("준비", "Setup");
    if (s.current === seat) return both("내 차례", "My turn");
    if (s.current != null) return both(s.seats[s.current].name + " 차례", s.seats[s.current].name + " to play");
    return both("점수 계산", "Scoring");
  }

  function build(view, seat) {
    const s = view.state;
    const me = s.seats[seat];
    const parts = [
      el("div", { class: "rfp-stats" }, [
        stat(both("내 점수", "My points"), me.points != null ? String(me.points) : "–", "points"),
        stat(both("손 카드", "Hand"), (me.hand ? me.hand.length : me.hand_count) + "/" + s.hand_limit),
        stat(both("차례", "Turn"), tr(whose(view, seat)), s.current === seat && s.step !== "over" ? "mine" : ""),
      ]),
      s.last_round && s.step !== "over" ? el("div", { class: "rfp-last", text: both("마지막 라운드: 산호가 떨어졌습니다", "Last round: a coral colour ran out") }) : null,
    ];
    const peek = (me.hand || []).find(function (c) { return c.n === picked.peek; });
    parts.push(el("section", { class: "rfp-section" }, [
      el("h3", { text: peek ? both("#" + peek.n + " 지금 일치: " + peek.now.count + "개", "#" + peek.n + " matches now: " + peek.now.count) : both("내 보드", "My board") }),
      board(me.board, { hits: peek ? hitsOf(peek.now.matches) : null, centre: s.step === "setup" ? s.centre : null }),
    ]));
    parts.push(el("section", { class: "rfp-section" }, [el("h3", { text: both("내 손 (눌러서 지금 일치 보기)", "My hand (tap: matches now)") }), hand(view, me)]));
    parts.push(el("section", { class: "rfp-section" }, [el("h3", { text: both("펼친 카드", "Display") }), tableCards(view), supply(view)]));
    if (s.final) {
      const mine = s.final.ranking.find(function (r) { return r.seat === seat; });
      parts.splice(1, 0, el("div", { class: "rfp-final", text: both(mine.rank + "위 · " + mine.points + "점", "Rank " + mine.rank + " · " + mine.points + " pts") }));
    }
    return parts.filter(Boolean);
  }

  function redraw() {
    if (!shown) return;
    shown.root.replaceChildren.apply(shown.root, build(shown.view, shown.seat));
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.reef = function (view, seat) {
    const root = el("div", { class: "rfp" });
    shown = { root: root, view: view, seat: seat };
    root.replaceChildren.apply(root, build(view, seat));
    return root;
  };
  window.PhoneGames.reef.control = cellControl;
})();
