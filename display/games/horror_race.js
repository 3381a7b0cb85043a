// The projector's picture of Horror Race 2: the track (start, cells 1..12 with the puddles at
// 6 and 11, the goal) with each stack drawn bottom to top, this round's coins on the three
// zones by character, the round's order and whose turn it is, the forfeit, and at the end the
// characters' places and, once the public view holds them, every seat's backing and points.
//
// When a round resolves, its three zone moves replay one by one from the round's public
// record (state.newest_round): the track before the round is rebuilt by undoing the recorded moves
// from the final track, then each move is applied in zone order with a short pause and the
// tokens glide (FLIP with the Web Animations API; no inline style attributes). A snapshot that
// arrives meanwhile becomes the picture the replay ends on, so the board always ends on the
// latest public view. The front-end replays recorded moves only; it decides no rule.
(function () {
  "use strict";
  const { el, both } = window.I18N;
  const FIRST_MS = 1100;  // the board before the round's moves
  const STEP_MS = 1800;   // each zone's move
  const GLIDE_MS = 850;

  let run = null;  // the replay in progress: {table, rounds, round, timers, final, board}
  let waiters = [];  // display.js waits for the replay to end (settled) before its header

  function settle(moment) {
    const now = waiters;
    waiters = [];
    now.forEach(function (resolve) { resolve(moment); });
  }

  function cue(name) { if (window.Sound) window.Sound.cue(name); }

  // -- small pieces ---------------------------------------------------------------------

  function labelOf(state, id) {
    const found = state.characters.find(function (c) { return c.id === id; });
    return found ? found.label : id;
  }

  // On the track a token carries its character's colour and first letter (뱀 강 구 미 좀 / V J G M
  // Z): twelve cells across a screen leave no room for names read from the back of a room;
  // the zones and the results name them in full, in the same colours.
  function initial(label) {
    return both(Array.from(label.ko || "")[0] || "", Array.from(label.en || "")[0] || "");
  }

  function token(state, id, extra) {
    const name = labelOf(state, id);
    return el("div", { class: "hr-token hr-" + id + (extra || ""), "data-character": id, title: I18N.tr(name) },
      [el("span", { class: "hr-token-name", text: initial(name) })]);
  }

  function chip(state, id, extra) {
    return el("span", { class: "hr-chip hr-" + id + (extra || ""), "data-character": id, text: labelOf(state, id) });
  }

  function zoneTitle(zone) {
    return both(zone + "구역", "Zone " + zone);
  }

  function stepsText(steps) {
    return both(steps + "칸 이동", "moves " + steps);
  }

  function countsOf(placements, zone, ids) {
    const counts = {};
    placements.forEach(function (p) {
      p.coins.forEach(function (c) { if (c.zone === zone) counts[c.character] = (counts[c.character] || 0) + 1; });
    });
    const out = {};
    ids.forEach(function (id) { if (counts[id]) out[id] = counts[id]; });
    return out;
  }

  function moveText(state, m) {
    const z = m.zone + "구역", ze = "Zone " + m.zone;
    if (!m.mover) {
      return Object.keys(m.counts || {}).length
        ? both(z + ": 동점 — 이동 없음", ze + ": tied — nobody moves")
        : both(z + ": 코인 없음 — 이동 없음", ze + ": no coins — nobody moves");
    }
    const who = labelOf(state, m.mover);
    const rideKo = m.carried.length > 1 ? " (" + m.carried.slice(1).map(function (c) { return labelOf(state, c).ko; }).join("·") + " 업고)" : "";
    const rideEn = m.carried.length > 1 ? " (carrying " + m.carried.slice(1).map(function (c) { return labelOf(state, c).en; }).join(", ") + ")" : "";
    const fromKo = m.from === 0 ? "출발" : m.from + "칸", fromEn = m.from === 0 ? "start" : "cell " + m.from;
    if (m.finished) {
      return both(z + ": " + who.ko + rideKo + " 골인!", ze + ": " + who.en + rideEn + " passes the goal!");
    }
    const puddleKo = m.puddle ? " — 웅덩이에서 멈춤!" : "";
    const puddleEn = m.puddle ? " — stopped by the puddle!" : "";
    return both(z + ": " + who.ko + rideKo + " " + fromKo + " → " + m.to + "칸" + puddleKo,
      ze + ": " + who.en + rideEn + " " + fromEn + " → cell " + m.to + puddleEn);
  }

  // -- replaying a round's recorded moves -----------------------------------------------

  function sameList(a, b) {
    return a.length === b.length && a.every(function (x, i) { return x === b[i]; });
  }

  function applyMove(cells, finish, m) {
    cells = cells.map(function (s) { return s.slice(); });
    finish = finish.slice();
    if (!m.mover) return { cells: cells, finish: finish };
    const from = cells[m.from];
    cells[m.from] = from.filter(function (c) { return m.carried.indexOf(c) < 0; });
    if (m.finished) finish = finish.concat(m.carried);
    else cells[m.to] = cells[m.to].concat(m.carried);
    return { cells: cells, finish: finish };
  }

  // The frames of a round: the track before it, then after each zone. null if the record does
  // not lead to the view's track (never expected; the board then simply shows the view).
  function framesOf(state, record) {
    const ids = state.characters.map(function (c) { return c.id; });
    let cells = state.track.map(function (c) { return c.stack.slice(); });
    let finish = state.finish.slice().reverse();  // bottom to top
    const moves = record.moves || [];
    for (let i = moves.length - 1; i >= 0; i--) {
      const m = moves[i];
      if (!m.mover) continue;
      const n = m.carried.length;
      if (m.finished) {
        if (!sameList(finish.slice(finish.length - n), m.carried)) return null;
        finish = finish.slice(0, finish.length - n);
      } else {
        const at = cells[m.to];
        if (!at || !sameList(at.slice(at.length - n), m.carried)) return null;
        cells[m.to] = at.slice(0, at.length - n);
      }
      if (m.from === 0) {  // the start: side by side, in the characters' fixed order
        const back = cells[0].concat(m.carried);
        cells[0] = ids.filter(function (c) { return back.indexOf(c) >= 0; });
      } else {
        cells[m.from] = cells[m.from].concat(m.carried);
      }
    }
    const frames = [{ cells: cells, finish: finish, move: null }];
    moves.forEach(function (m) {
      const last = frames[frames.length - 1];
      const next = applyMove(last.cells, last.finish, m);
      frames.push({ cells: next.cells, finish: next.finish, move: m });
    });
    const end = frames[frames.length - 1];
    const ok = end.cells.every(function (s, i) { return sameList(s, state.track[i].stack); })
      && sameList(end.finish, state.finish.slice().reverse());
    return ok ? frames : null;
  }

  function stop() {
    if (!run) return;
    run.timers.forEach(clearTimeout);
    run = null;
    settle(null);
  }

  function replay(board, view, record, frames) {
    const state = view.state;
    const ids = state.characters.map(function (c) { return c.id; });
    const zones = [1, 2, 3].map(function (zone, i) {
      return { zone: zone, steps: state.zones[i].steps, counts: countsOf(record.placements, zone, ids) };
    });
    const base = {
      round: record.round, order: record.order, forfeit: record.forfeit, turn: null, drawn: null,
      zones: zones, animating: true,
    };
    run = { table: view.table, rounds: state.rounds_done, round: record.round, timers: [], final: view, board: board };
    const mine = run;
    function show(frame, glide) {
      const m = frame.move;
      if (glide && m && m.mover) cue(m.finished ? "reveal" : "step");
      draw(board, mine.final, Object.assign({}, base, {
        cells: frame.cells, finish: frame.finish, move: m,
        activeZone: m ? m.zone : null,
        caption: m ? moveText(state, m) : both(record.round + "라운드 이동!", "Round " + record.round + ": the moves!"),
      }), glide);
    }
    show(frames[0], false);
    frames.slice(1).forEach(function (frame, i) {
      mine.timers.push(setTimeout(function () { if (run === mine) show(frame, true); }, FIRST_MS + i * STEP_MS));
    });
    mine.timers.push(setTimeout(function () {
      if (run !== mine) return;
      run = null;
      const final = mine.final;
      const over = final.state.step === "over" || final.state.ranking.length > 0;
      draw(board, final, scene(final), true);
      // Only now may the header say the match is over; the finish is a band over the header
      // (display.js), never over the rankings.
      settle(over ? Object.assign(finishText(final) || both("경기 종료", "Match over"), { cue: "win" }) : null);
    }, FIRST_MS + (frames.length - 1) * STEP_MS + 400));
  }

  // -- the picture ----------------------------------------------------------------------

  // What the board shows for a live view (no replay).
  function scene(view) {
    const state = view.state;
    return {
      cells: state.track.map(function (c) { return c.stack; }),
      finish: state.finish.slice().reverse(),
      round: state.round, order: state.order, forfeit: state.forfeit, turn: state.turn, drawn: state.drawn,
      zones: state.zones.map(function (z) { return { zone: z.zone, steps: z.steps, counts: z.counts }; }),
      activeZone: null, move: null, caption: null, animating: false,
    };
  }

  // The track is as tall as its tallest stack needs, in tokens (at least three: the start holds
  // the five side by side, two a row), so the zones and the round below keep their room while the
  // characters run apart; the stack grows when they pile up. A puddle's word stands above its
  // stack while it holds two at most (one when the board's region is short: horror_race.css), and
  // needs the height of WORD tokens.
  const WORD = 2.2;

  function rowsOf(state, sc, most) {
    let rows = Math.max(3, Math.ceil((sc.cells[0] || []).length / 2), sc.finish.length);
    sc.cells.forEach(function (stack, cell) {
      if (cell === 0) return;
      const puddle = state.track[cell] && state.track[cell].puddle;
      rows = Math.max(rows, stack.length + (puddle && stack.length <= most ? WORD : 0));
    });
    return rows;
  }

  function trackPicture(view, sc) {
    const state = view.state;
    const m = sc.move;
    const moved = m && m.mover ? m.carried : [];
    const row = el("div", { class: "hr-track" });
    // CSSOM: allowed by the CSP
    row.style.setProperty("--rows", String(rowsOf(state, sc, 2)));
    row.style.setProperty("--rows-short", String(rowsOf(state, sc, 1)));
    sc.cells.forEach(function (stack, cell) {
      const puddle = state.track[cell] && state.track[cell].puddle;
      const landed = m && m.mover && !m.finished && m.to === cell;
      const cls = "hr-cell" + (cell === 0 ? " hr-start" : "") + (puddle ? " hr-puddle" : "") + (landed ? " hr-landed" : "");
      const pile = el("div", { class: "hr-stack" });
      stack.forEach(function (id) { pile.appendChild(token(state, id, moved.indexOf(id) >= 0 ? " hr-moved" : "")); });
      const label = cell === 0 ? both("출발", "Start") : String(cell);
      row.appendChild(el("div", { class: cls, "data-cell": String(cell), "data-stack": stack.join(","), "data-box": "cell-" + cell }, [
        // the word stands above the stack while it holds two at most (a taller stack keeps the colour)
        puddle && stack.length <= 2 ? el("div", { class: "hr-puddle-word" + (stack.length === 2 ? " hr-over-two" : ""),
                                                  text: both("웅덩이", "puddle") }) : null,
        pile, el("div", { class: "hr-cell-label", text: label }),
      ]));
    });
    const goalPile = el("div", { class: "hr-stack" });
    sc.finish.forEach(function (id) { goalPile.appendChild(token(state, id, moved.indexOf(id) >= 0 ? " hr-moved" : "")); });
    row.appendChild(el("div", {
      class: "hr-cell hr-goal" + (m && m.finished ? " hr-landed" : ""), "data-cell": "goal", "data-stack": sc.finish.join(","), "data-box": "cell-goal",
    }, [goalPile, el("div", { class: "hr-cell-label", text: both("골", "Goal") })]));
    return row;
  }

  function zonesPicture(view, sc) {
    const state = view.state;
    const ids = state.characters.map(function (c) { return c.id; });
    const box = el("div", { class: "hr-zones" });
    sc.zones.forEach(function (z) {
      const active = sc.activeZone === z.zone;
      const done = sc.activeZone != null && z.zone < sc.activeZone;
      const mover = active && sc.move ? sc.move.mover : null;
      const rows = el("div", { class: "hr-zone-coins" });
      const present = ids.filter(function (id) { return z.counts[id]; });
      present.forEach(function (id) {
        rows.appendChild(el("div", { class: "hr-zone-row" + (mover === id ? " hr-mover" : ""), "data-box": "zone-" + z.zone + "-" + id }, [
          chip(state, id), el("span", { class: "hr-count" }, "×" + z.counts[id]),
        ]));
      });
      if (!present.length) rows.appendChild(el("div", { class: "hr-empty", text: both("코인 없음", "No coins") }));
      box.appendChild(el("div", {
        class: "hr-zone" + (active ? " hr-active" : "") + (done ? " hr-done" : ""), "data-zone": String(z.zone), "data-box": "zone-" + z.zone,
      }, [
        el("div", { class: "hr-zone-head" }, [
          el("span", { class: "hr-zone-name", text: zoneTitle(z.zone) }),
          el("span", { class: "hr-zone-steps", text: stepsText(z.steps) }),
        ]),
        rows,
      ]));
    });
    return box;
  }

  function orderPicture(view, sc) {
    const state = view.state;
    const at = sc.turn == null ? (sc.animating ? sc.order.length : -1) : sc.order.indexOf(sc.turn);
    const n = sc.order.length > 6 ? 3 : sc.order.length > 3 ? 2 : 1;
    const list = el("div", { class: "hr-order hr-cols-" + n });
    list.style.setProperty("--rows", String(Math.ceil(sc.order.length / n)));  // CSSOM: allowed by the CSP
    sc.order.forEach(function (seat, i) {
      const now = seat === sc.turn;
      const forfeit = seat === sc.forfeit;
      const done = at >= 0 && i < at;
      list.appendChild(el("div", {
        class: "hr-seat" + (now ? " hr-now" : "") + (done ? " hr-past" : "") + (forfeit ? " hr-forfeit" : ""),
        "data-seat": String(seat), "data-box": "order-" + seat,
      }, [
        el("span", { class: "hr-seat-no" }, String(seat + 1)),
        el("span", { class: "hr-seat-name", "data-box": "order-name-" + seat }, view.seats[seat]),
      ]));
    });
    const side = el("div", { class: "hr-side", "data-box": "round" }, [
      el("div", { class: "hr-side-head" }, [
        el("span", { class: "hr-round", text: both(sc.round + "라운드 순서", "Round " + sc.round + " order") }),
        sc.animating ? null : el("span", { class: "hr-box", text: both("상자 " + state.box_size + "개", state.box_size + " in box") }),
      ]),
      list,
    ]);
    if (sc.forfeit != null) {
      side.appendChild(el("div", { class: "hr-forfeit-line", "data-seat": String(sc.forfeit), "data-box": "forfeit" }, [
        el("span", { class: "hr-tag", text: both("코인포기", "Forfeit") }),
        el("span", { class: "hr-seat-name" }, view.seats[sc.forfeit]),
        el("span", { class: "hr-side-label", text: both("→ 다음 라운드 맨 뒤", "→ last next round") }),
      ]));
    }
    if (sc.drawn) {
      side.appendChild(el("div", { class: "hr-drawn", "data-box": "drawn" }, [
        // who drew is the highlighted seat of the order above
        el("span", { class: "hr-side-label", text: both("뽑은 코인", "Drawn") }),
        el("span", { class: "hr-drawn-coins" }, sc.drawn.coins.map(function (id) { return chip(state, id, " hr-coin"); })),
      ]));
    }
    return side;
  }

  function backingPicture(view) {
    const state = view.state;
    const grid = el("div", { class: "hr-backing-grid" });
    state.seats.forEach(function (s) {
      grid.appendChild(el("div", { class: "hr-backer" + (s.backed ? " hr-backed" : ""), "data-seat": String(s.seat), "data-box": "backer-" + s.seat }, [
        el("span", { class: "hr-seat-no" }, String(s.seat + 1)),
        el("span", { class: "hr-seat-name", "data-box": "backer-name-" + s.seat }, view.seats[s.seat]),
        el("span", { class: "hr-backer-mark", text: s.backed ? both("제출", "in") : both("…", "…") }),
      ]));
    });
    return el("div", { class: "hr-lower hr-backing" }, [
      el("div", { class: "hr-panel-title", text: both("응원할 캐릭터 2개를 비밀로 고르는 중", "Each seat secretly backs 2 characters") }),
      grid,
    ]);
  }

  function resultPicture(view) {
    const state = view.state;
    const places = el("div", { class: "hr-places" });
    state.ranking.forEach(function (r) {
      places.appendChild(el("div", { class: "hr-place hr-p" + r.place, "data-character": r.character, "data-box": "place-" + r.character }, [
        el("span", { class: "hr-place-no", text: both(r.place + "위", "#" + r.place) }),
        chip(state, r.character),
      ]));
    });
    const left = el("div", { class: "hr-result-col hr-result-chars", "data-box": "result-characters" }, [
      el("div", { class: "hr-panel-title", text: both("캐릭터 순위", "Characters") }), places,
    ]);
    let right;
    if (state.revealed) {
      const seats = state.seats.slice().sort(function (a, b) { return a.rank - b.rank || a.seat - b.seat; });
      const list = el("div", { class: "hr-scores" + (seats.length > 6 ? " hr-cols-2" : "") });
      list.style.setProperty("--rows", String(Math.ceil(seats.length / 2)));
      seats.forEach(function (s) {
        list.appendChild(el("div", { class: "hr-score" + (s.rank === 1 ? " hr-top" : ""), "data-seat": String(s.seat), "data-box": "score-" + s.seat }, [
          el("span", { class: "hr-score-rank", text: both(s.rank + "위", "#" + s.rank) }),
          el("span", { class: "hr-seat-name", "data-box": "score-name-" + s.seat }, view.seats[s.seat]),
          state.groups && s.group === "guests" ? el("span", { class: "hr-tag", text: both("게스트", "guest") }) : null,
          el("span", { class: "hr-score-backing" }, (s.backing || []).map(function (id) {
            return el("span", { class: "hr-chip hr-small hr-" + id, "data-character": id, title: I18N.tr(labelOf(state, id)),
                                text: initial(labelOf(state, id)) });
          })),
          el("span", { class: "hr-score-points", text: both(s.points + "점", s.points + " pt") }),
        ]));
      });
      right = el("div", { class: "hr-result-col hr-result-seats", "data-box": "result-seats" }, [
        el("div", { class: "hr-panel-title", text: both("응원 공개 · 승점", "Backings revealed · points") }), list,
      ]);
    } else {
      right = el("div", { class: "hr-result-col hr-result-seats", "data-box": "result-seats" }, [
        el("div", { class: "hr-panel-title", text: both("응원 공개를 기다리는 중", "Backings not revealed yet") }),
      ]);
    }
    return el("div", { class: "hr-lower hr-result" }, [left, right]);
  }

  function lastRoundText(view) {
    const state = view.state;
    const last = state.newest_round;
    if (!last || state.ranking.length) return null;
    const parts = last.moves.map(function (m) {
      if (!m.mover) return both(m.zone + "구역 이동 없음", "zone " + m.zone + " no move");
      return both(m.zone + "구역 " + labelOf(state, m.mover).ko + " → " + m.to, "zone " + m.zone + " " + labelOf(state, m.mover).en + " → " + m.to);
    });
    return both(last.round + "라운드: " + parts.map(function (p) { return p.ko; }).join(" · "),
      "Round " + last.round + ": " + parts.map(function (p) { return p.en; }).join(" · "));
  }

  function draw(board, view, sc, glide) {
    const state = view.state;
    const before = glide ? positions(board) : null;
    const over = !sc.animating && state.ranking.length > 0;
    let lower;
    if (state.step === "backing") lower = backingPicture(view);
    else if (over) lower = resultPicture(view);
    else lower = el("div", { class: "hr-lower" }, [zonesPicture(view, sc), orderPicture(view, sc)]);
    const caption = sc.caption || (over ? finishText(view) : lastRoundText(view));
    const root = el("div", {
      class: "hr" + (I18N.lang === "en" ? " hr-en" : "") + (sc.animating ? " hr-animating" : ""),
      "data-animating": sc.animating ? "1" : "0",
      "data-round": String(sc.round),
    }, [
      trackPicture(view, sc),
      el("div", { class: "hr-caption" + (sc.caption ? " hr-live" : "") + (over ? " hr-finish-line" : ""), "data-box": "caption", text: caption || "" }),
      lower,
    ]);
    board.replaceChildren(root);
    if (before) glideFrom(board, before);
  }

  function finishText(view) {
    const state = view.state;
    const first = state.ranking.filter(function (r) { return r.place === 1; }).map(function (r) { return labelOf(state, r.character); });
    if (!first.length) return null;
    return both("골인! 1위 " + first.map(function (l) { return l.ko; }).join("·"),
      "Finish! 1st: " + first.map(function (l) { return l.en; }).join(", "));
  }

  function positions(board) {
    const out = {};
    board.querySelectorAll(".hr-track .hr-token").forEach(function (t) { out[t.dataset.character] = t.getBoundingClientRect(); });
    return out;
  }

  function glideFrom(board, before) {
    board.querySelectorAll(".hr-track .hr-token").forEach(function (t) {
      const was = before[t.dataset.character];
      if (!was || !t.animate) return;
      const now = t.getBoundingClientRect();
      const dx = was.left - now.left, dy = was.top - now.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
      t.animate([
        { transform: "translate(" + dx + "px," + dy + "px)" },
        { transform: "translate(" + dx / 2 + "px," + (dy / 2 - now.height) + "px)", offset: 0.5 },
        { transform: "none" },
      ], { duration: GLIDE_MS, easing: "ease-in-out" });
    });
  }

  function moment(view, prev) {
    const state = view.state;
    if (!prev) return null;
    if (prev.step === "backing" && state.step !== "backing") return both("레이스 시작!", "The race begins!");
    if (state.forfeit != null && prev.forfeit == null && state.round === prev.round) {
      const who = view.seats[state.forfeit];
      return both(who + " 코인포기!", who + " forfeits the coins!");
    }
    if (state.ranking.length && !prev.ranking.length) return finishText(view);
    return null;
  }

  const horrorRace = {
    // While a round's moves replay, a Promise of the moment to flash when they are done.
    settled: function () {
      if (!run) return null;
      return new Promise(function (resolve) { waiters.push(resolve); });
    },
    // Meanwhile the header says the round whose moves play, not the turn before them.
    showing: function () {
      return run ? both(run.round + "라운드 이동", "Round " + run.round + ": the moves") : null;
    },
    // Another table took the board: the replay stops drawing on it.
    leave: stop,
    render: function (board, view, previous) {
      const state = view.state;
      const prev = previous && previous.table === view.table && previous.state && "rounds_done" in previous.state ? previous.state : null;
      const record = prev && state.rounds_done > prev.rounds_done ? state.newest_round : null;
      if (run && prev && !record && run.table === view.table && run.board === board && run.rounds === state.rounds_done) {
        run.final = view;  // the replay ends on the newest picture
        return null;
      }
      stop();
      if (record) {
        const frames = framesOf(state, record);
        if (frames) {
          replay(board, view, record, frames);
          return null;
        }
      }
      draw(board, view, scene(view), false);
      return moment(view, prev);
    },
  };

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.horror_race = horrorRace;
})();
