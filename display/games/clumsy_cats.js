// The projector's picture of Clumsy Cats (우당탕탕 고양이들): the map drawn from the map data
// (every cell at its x/y, the start, the toilet, the desert island, the fork, the blue and red
// footprints, the score track 1-10 in the middle) with every cat on its cell; beside it whose
// turn it is, the declared number, the call window and who may call (a countdown element is
// there for a show clock to fill), the roll a call revealed, the effect being resolved, and the
// standings (points, laps, tokens, penalties).
//
// Three columns side by side (the board is wide and, with a question row or a notice under it,
// short): the map, the turn, the standings (one card per cat: every cat is always listed). The
// boxes that must never lie on each other are named with data-box (each cell, the score track
// and its slots, the turn, the standings and each cat's card); a cat's piece sits inside its
// cell. A cell shows a cat's name on its piece only when the name fits the cell whole (else the
// number, in the cat's colour, as in the standings).
//
// It receives the public view only: the true roll of an uncalled turn is never in it, so it is
// never drawn. Positions go through CSSOM (style.left/top), never a style attribute.
(function () {
  "use strict";
  const { el, both } = window.I18N;

  const KIND_TEXT = {
    start: both("출발", "Start"),
    toilet: both("화장실", "Toilet"),
    island: both("무인도", "Island"),
    blue: both("파랑", "blue"),
    red: both("빨강", "red"),
    fork: both("갈림길", "Fork"),
  };
  const BAR_TEXT = {
    roller: both("굴린 사람", "roller"),
    toilet: both("화장실", "toilet"),
    no_action: both("행동 불가", "no action"),
    called_last: both("지난 턴 지적", "called last turn"),
  };

  function face(v) { return v === "X" ? "X" : String(v); }

  function declText(v) {
    if (v === "X") return both("X (탈출!)", "X (escape!)");
    if (v === "none") return both("X 아님", "no X");
    return String(v);
  }

  function catOf(state, seat) { return state.cats[seat]; }

  function nameOf(state, seat) {
    const c = catOf(state, seat);
    return c ? c.name : String(seat + 1);
  }

  function token(state, cat, crowded, moved) {
    return el("div", {
      class: "cc-cat cc-" + cat.cat + (crowded ? " cc-crowded" : "") + (moved ? " cc-moved" : ""),
      "data-seat": String(cat.seat),
    }, [
      el("span", { class: "cc-cat-no" }, String(cat.seat + 1)),
      crowded ? null : el("span", { class: "cc-cat-name" }, cat.name),
    ]);
  }

  function place(node, x, y, w, h) {
    node.style.left = x + "%";
    node.style.top = y + "%";
    node.style.width = w + "%";
    node.style.height = h + "%";
  }

  // -- the map ------------------------------------------------------------------------------

  function mapPicture(view) {
    const state = view.state;
    const map = state.map;
    const W = map.size.width, H = map.size.height;
    const box = el("div", { class: "cc-map", "data-map": map.source });
    const here = {};
    state.cats.forEach(function (c) { (here[c.cell] = here[c.cell] || []).push(c); });
    const last = state.last_move;
    const walked = last ? last.path : [];
    const turnSeat = state.turn.seat;
    map.cells.forEach(function (cell) {
      const cats = here[cell.id] || [];
      const mark = KIND_TEXT[cell.kind] || null;
      const onPath = walked.indexOf(cell.id) >= 0;
      const node = el("div", {
        class: "cc-cell cc-k-" + cell.kind + (onPath ? " cc-path" : "") + (cell.id === state.turn.from && state.turn.rolled ? " cc-from" : ""),
        "data-cell": cell.id,
      }, [
        // the number and the footprint's colour on one line (the cell is drawn in that colour)
        el("div", { class: "cc-cell-head" }, [
          el("span", { class: "cc-cell-label", text: cell.label }),
          cell.kind === "blue" || cell.kind === "red" ? el("span", { class: "cc-cell-mark", text: mark }) : null,
        ]),
        cell.kind === "fork" ? el("div", { class: "cc-fork", text: both("홀↑ 짝↓", "odd↑ even↓") }) : null,
        el("div", { class: "cc-cats" }, cats.map(function (c) {
          return token(state, c, cats.length > 1, last && last.seat === c.seat && walked.length && walked[walked.length - 1] === cell.id);
        })),
      ]);
      node.setAttribute("data-box", "cell");
      node.classList.toggle("cc-now", cats.some(function (c) { return c.seat === turnSeat; }));
      place(node, cell.x / W * 100, cell.y / H * 100, 100 / W, 100 / H);
      box.appendChild(node);
    });
    box.appendChild(trackPicture(state, W, H));
    return box;
  }

  function trackPicture(state, W, H) {
    const t = state.map.track || { x: 1, y: 1, width: Math.max(1, W - 2), height: Math.max(1, H - 2) };
    const slots = el("div", { class: "cc-track" + (t.width / t.height >= 3.5 ? " cc-track-row" : ""), "data-box": "track" }, [
      el("div", { class: "cc-track-title", text: both("점수 트랙 · 남은 토큰 " + state.tokens_left, "Score track · " + state.tokens_left + " left") }),
    ]);
    const grid = el("div", { class: "cc-track-slots" });
    state.track.forEach(function (slot) {
      const cat = slot.seat == null ? null : catOf(state, slot.seat);
      grid.appendChild(el("div", {
        class: "cc-slot" + (cat ? " cc-taken cc-" + cat.cat : ""),
        "data-box": "slot",
        "data-token": String(slot.token),
        "data-seat": slot.seat == null ? "" : String(slot.seat),
      }, [
        el("span", { class: "cc-slot-no" }, String(slot.token)),
        cat ? el("span", { class: "cc-slot-who" }, String(cat.seat + 1)) : null,
      ]));
    });
    slots.appendChild(grid);
    place(slots, t.x / W * 100, t.y / H * 100, t.width / W * 100, t.height / H * 100);
    return slots;
  }

  // -- the side: turn, declaration, window, reveal, effect, standings -----------------------

  // The call of this turn; or of the turn just before, until the new turn's declaration comes
  // (the next roll follows a call at once, so the reveal would otherwise never be seen).
  function lastReveal(state) {
    const list = state.declarations;
    const d = list[list.length - 1];
    if (!d || d.caller == null || d.roll === undefined) return null;
    if (d.turn === state.turn.number) return d;
    if (d.turn === state.turn.number - 1 && state.turn.declared == null) return d;
    return null;
  }

  function turnPicture(view) {
    const state = view.state;
    const turn = state.turn;
    const who = nameOf(state, turn.seat);
    const cat = catOf(state, turn.seat);
    const parts = [];
    const tags = [];
    if (turn.extra) tags.push(el("span", { class: "cc-tag", text: both("추가 굴림", "extra roll") }));
    if (turn.toilet) tags.push(el("span", { class: "cc-tag cc-tag-toilet", text: both("화장실 탈출 시도", "toilet turn") }));
    parts.push(el("div", { class: "cc-head" }, [
      el("span", { class: "cc-dot cc-" + (cat ? cat.cat : "white") }),
      el("span", { class: "cc-head-name", text: state.over ? both("최종 결과", "Final result") : both(who + "의 차례", who + "'s turn") }),
      el("span", { class: "cc-head-turn", text: both(turn.number + "턴", "turn " + turn.number) }),
    ]));
    if (tags.length) parts.push(el("div", { class: "cc-tags" }, tags));

    if (state.over) {
      parts.push(finishPicture(view));
      return el("div", { class: "cc-turn" }, parts);
    }
    const decl = turn.declared;
    const reveal = lastReveal(state);
    const effect = state.effect;
    const busy = reveal || effect;  // then the declaration shrinks to one line
    parts.push(el("div", { class: "cc-decl" + (decl == null ? " cc-waiting" : "") + (busy ? " cc-compact" : ""),
                           "data-declared": decl == null ? "" : String(decl) }, [
      el("div", { class: "cc-decl-label", text: decl == null ? (turn.rolled ? both("주사위를 굴렸습니다 · 선언을 기다리는 중", "Rolled · waiting for the declaration")
        : both("주사위를 굴릴 차례", "About to roll")) : both("선언", "Declared") }),
      decl == null ? null : el("div", { class: "cc-decl-value", text: declText(decl) }),
    ]));
    if (turn.window) {
      const callers = turn.callers.map(function (s) { return nameOf(state, s); });
      parts.push(el("div", { class: "cc-window", "data-window": "open" }, [
        el("div", { class: "cc-window-title", text: both("거짓말? 지금 지적하세요!", "Liar? Call it now!") }),
        el("div", { class: "cc-window-who", text: callers.length ? both("지적 가능: " + callers.join(", "), "May call: " + callers.join(", "))
          : both("지적할 수 있는 사람 없음", "Nobody may call") }),
        el("div", { class: "cc-countdown", "data-role": "countdown" }),
      ]));
    }
    if (reveal) {
      const roller = nameOf(state, reveal.seat), caller = nameOf(state, reveal.caller);
      parts.push(el("div", { class: "cc-reveal " + (reveal.bluff ? "cc-bluff" : "cc-truth"), "data-roll": face(reveal.roll) }, [
        el("div", { class: "cc-reveal-roll" }, face(reveal.roll)),
        el("div", { class: "cc-reveal-text" }, [
          el("div", { class: "cc-reveal-label", text: both(caller + "의 지적!", caller + " calls it!") }),
          el("div", { class: "cc-reveal-verdict", text: reveal.bluff ? both(roller + " 블러핑 적발!", roller + " was bluffing!")
            : both("진실! 지적 실패", "The truth! Wrong call") }),
        ]),
      ]));
    }
    if (effect) parts.push(effectPicture(state, effect));
    return el("div", { class: "cc-turn" }, parts);
  }

  function effectPicture(state, e) {
    const who = nameOf(state, e.seat);
    let wait = null;
    if (e.face != null && e.rearmost.length > 1 && e.chooser == null) wait = both("딜러가 가장 뒤처진 고양이를 정하는 중", "The dealer picks the rearmost cat");
    else if (e.chooser != null) wait = both(I18N.josa(nameOf(state, e.chooser), "이/가") + " 자리를 바꿀지 정하는 중", nameOf(state, e.chooser) + " decides whether to swap");
    else if (e.targets) wait = both(I18N.josa(who, "이/가") + " 누구에게 쓸지 정하는 중", who + " chooses whom");
    return el("div", { class: "cc-effect cc-" + e.kind, "data-effect": e.effect || "" }, [
      el("div", { class: "cc-effect-title", text: both(e.kind_label.ko + " · " + e.cause_label.ko + " · " + who,
        e.kind_label.en + " · " + e.cause_label.en + " · " + who) }),
      e.face == null ? el("div", { class: "cc-effect-what", text: both("효과 주사위를 굴리는 중", "Rolling the effect die") })
        : el("div", { class: "cc-effect-what" }, [el("span", { class: "cc-effect-face" }, face(e.face)), el("span", { text: e.short || e.label })]),
      wait ? el("div", { class: "cc-effect-wait", text: wait }) : null,
    ]);
  }

  function statusOf(c) {
    const out = [];
    if (c.toilet) out.push(el("span", { class: "cc-badge cc-b-toilet", text: both("화장실 " + c.toilet.used + "/3", "toilet " + c.toilet.used + "/3") }));
    if (c.no_action) out.push(el("span", { class: "cc-badge cc-b-stop", text: both("행동 불가 " + c.no_action, "no action " + c.no_action) }));
    if (c.island) out.push(el("span", { class: "cc-badge cc-b-island", text: both("무인도 " + c.island, "island " + c.island) }));
    if (c.lost) out.push(el("span", { class: "cc-badge cc-b-stop", text: both("쉼 " + c.lost, "skip " + c.lost) }));
    return out;
  }

  function standingsPicture(view) {
    const state = view.state;
    const rows = el("div", { class: "cc-standings" });
    state.standings.forEach(function (s) {
      const c = catOf(state, s.seat);
      // A card: the rank, the cat (its number in its colour) and its name, its points; under
      // them its laps and its states (toilet, island, no action).
      rows.appendChild(el("div", { class: "cc-row" + (s.seat === state.turn.seat && !state.over ? " cc-row-now" : "") + (state.over && s.rank === 1 ? " cc-row-win" : ""),
                                   "data-seat": String(s.seat), "data-box": "standing" }, [
        el("div", { class: "cc-row-main" }, [
          // The race's order while it runs; a shared place is said as such once the result is in.
          el("span", { class: "cc-rank", text: I18N.place(s.rank, state.over && I18N.sharedIn(state.standings, s.rank)) }),
          el("span", { class: "cc-dot cc-" + c.cat }, String(c.seat + 1)),
          el("span", { class: "cc-row-name" }, c.name),
          el("span", { class: "cc-row-points", text: both(s.points + "점", s.points + " pt") }),
        ]),
        el("div", { class: "cc-row-sub" }, [
          el("span", { class: "cc-row-laps", text: both(c.laps + "바퀴", c.laps + (c.laps === 1 ? " lap" : " laps")) }),
        ].concat(statusOf(c))),
      ]));
    });
    return el("div", { class: "cc-side-block", "data-box": "standings" }, [
      el("div", { class: "cc-side-title", text: both("순위", "Standings") }),
      rows,
    ]);
  }

  function finishPicture(view) {
    const state = view.state;
    const top = state.standings.filter(function (s) { return s.rank === 1; }).map(function (s) { return nameOf(state, s.seat); });
    return el("div", { class: "cc-finish" }, [
      el("div", { class: "cc-finish-title", text: both("게임 종료", "Game over") }),
      el("div", { class: "cc-finish-win", text: both("1위 " + top.join(", "), "Winner: " + top.join(", ")) }),
    ]);
  }

  // The turn's column's height (vh) within which the feed may stay: what the column has on the
  // shortest board (a question row and a notice under it at once).
  const FEED_ROOM = 52;

  function draw(board, view) {
    const state = view.state;
    const feed = state.feed.length ? state.feed[state.feed.length - 1] : null;
    const root = el("div", { class: "cc" + (I18N.lang === "en" ? " cc-en" : ""), "data-step": state.step }, [
      el("div", { class: "cc-left" }, [mapPicture(view)]),
      el("div", { class: "cc-side", "data-box": "turn" }, [
        turnPicture(view),
        feed && !state.turn.window && !state.effect ? el("div", { class: "cc-feed", text: lastWords(feed) }) : null,
      ]),
      standingsPicture(view),
    ]);
    board.replaceChildren(root);
    fitNames(root);
    // The feed is the least of the turn's column: it stays only if the column holds it on the
    // shortest board (a question row and a notice under it), since the board's height changes
    // with the rows under it and the picture is not drawn again then (nothing is shown cut off).
    const side = root.querySelector(".cc-side");
    const line = side.querySelector(".cc-feed");
    if (line && line.offsetTop + line.offsetHeight > FEED_ROOM * window.innerHeight / 100) line.remove();
  }

  // A piece shows its cat's name only where the name fits whole (the width of a cell does not
  // change with the rows under the board); else the number alone, like a crowded cell's.
  function fitNames(root) {
    root.querySelectorAll(".cc-cat-name").forEach(function (name) {
      if (name.scrollWidth <= name.clientWidth + 1 && name.parentNode.scrollWidth <= name.parentNode.clientWidth + 1) return;
      name.parentNode.classList.add("cc-crowded");
      name.remove();
    });
  }

  // The latest sentences of a feed entry that fit two lines (an entry may tell several turns).
  function lastWords(text) {
    const pick = function (t) {
      const parts = String(t).split(/(?<=[.!?])\s+/);
      return parts.slice(-2).join(" ");
    };
    return { ko: pick(I18N.inLang(text, "ko")), en: pick(I18N.inLang(text, "en")) };
  }

  // -- moments --------------------------------------------------------------------------------

  function moment(view, prev) {
    const state = view.state;
    if (!prev) return null;
    if (state.over && !prev.over) {
      const top = state.standings.filter(function (s) { return s.rank === 1; }).map(function (s) { return nameOf(state, s.seat); });
      return both("게임 종료! 1위 " + top.join(", "), "Game over! Winner: " + top.join(", "));
    }
    const taken = state.track.filter(function (t) { return t.seat != null; });
    const before = prev.track.filter(function (t) { return t.seat != null; }).length;
    if (taken.length > before) {
      const t = taken[taken.length - 1];
      return both(nameOf(state, t.seat) + " 한 바퀴! 점수 토큰 " + t.token, nameOf(state, t.seat) + " completes a lap! Token " + t.token);
    }
    const d = state.declarations[state.declarations.length - 1];
    const pd = prev.declarations[prev.declarations.length - 1];
    if (d && d.caller != null && d.roll !== undefined && (!pd || pd.turn !== d.turn || pd.caller == null)) {
      return d.bluff ? both("블러핑 적발! 진짜 주사위 " + face(d.roll), "Bluff caught! The die shows " + face(d.roll))
        : both("진실! 주사위 " + face(d.roll) + " — 지적 실패", "The truth! " + face(d.roll) + " — wrong call");
    }
    const trapped = state.cats.find(function (c) { return c.toilet && c.toilet.used === 0 && !(prev.cats[c.seat] && prev.cats[c.seat].toilet); });
    if (trapped) return both(trapped.name + " 화장실에 갇힘!", trapped.name + " is trapped in the toilet!");
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.clumsy_cats = {
    render: function (board, view, previous) {
      draw(board, view);
      const prev = previous && previous.table === view.table && previous.state && previous.state.track ? previous.state : null;
      return moment(view, prev);
    },
  };
})();
