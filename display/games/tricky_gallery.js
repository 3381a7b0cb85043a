// The projector's picture of Tricky Gallery: the entering queue and "N/9 제출" while sealed,
// the round's works as big labelled cards once revealed, the siren (a visual moment, and the
// projector's siren cue when the operator armed the sound), the auction winner and bid, the
// chain as it happens, every gallery by kind, the eliminations, and at the end the sale and the
// ranking with the top 4 advancing.
// Only the public view arrives here: it never holds a work's authenticity or an appraisal, and
// nothing here could draw one.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const { KINDS, NAMES: KIND_NAMES, SHORT: SHORT_NAMES } = window.GalleryKinds;

  // The siren and the eliminations are the stage's moments, with their sound cues (display.js:
  // Web Audio, armed by the operator's key); each fires once per table and round.
  const sirensShown = new Set();  // "table:round"
  const outsShown = new Set();     // "table:round"

  // -- drawing -------------------------------------------------------------------------------

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function byName(state) {
    return state.seats.slice().sort(function (a, b) { return a.name_index - b.name_index; });
  }

  function art(kind, small) {
    return el("div", { class: "tg-art tgk-" + kind + (small ? " small" : "") }, [el("span", { class: "tg-shape" })]);
  }

  function miniWork(kind) {
    return el("span", { class: "tg-mini tgk-" + kind, title: tr(KIND_NAMES[kind]), "data-kind": kind }, [art(kind, true)]);
  }

  function roundPills(state) {
    const pills = [];
    for (let r = 1; r <= state.rounds; r++) {
      const cls = r < state.round || state.step === "over" ? "done" : r === state.round ? "now" : "";
      pills.push(el("span", { class: "tg-pill " + cls }, String(r)));
    }
    return el("div", { class: "tg-rounds" }, [el("span", { class: "tg-rounds-label", text: both("라운드", "Round") })].concat(pills));
  }

  // Only the sale has a title strip; in the rounds the header says the round, and the round
  // pips and the siren sit on the galleries' line, so the works and the chain keep the room.
  function topStrip(view) {
    if (view.state.step !== "over") return null;
    return el("div", { class: "tg-top" }, [
      el("div", { class: "tg-round-title", text: both("최종 판매 · 상위 4명 진출", "The sale · the top 4 advance") }),
    ]);
  }

  // The room's queue: the survivors in this round's 가나다 order, who is in, who goes next.
  function submission(view) {
    const state = view.state;
    const sealed = view.turn && view.turn.sealed;
    const ascending = state.round % 2 === 1;
    const waiting = state.entering_order.filter(function (s) { return !state.seats[s].submitted; });
    const next = waiting.length ? waiting[0] : null;
    const tiles = state.entering_order.map(function (seat, i) {
      const s = state.seats[seat];
      return el("div", { class: "tg-tile" + (s.submitted ? " in" : "") + (seat === next ? " next" : ""), "data-seat": String(seat),
                          "data-box": "tile-" + seat }, [
        el("span", { class: "tg-tile-no" }, String(i + 1)),
        el("span", { class: "tg-tile-name" }, s.name),
        el("span", { class: "tg-tile-state", text: s.submitted ? both("✓ 제출", "✓ in")
          : seat === next ? both("입장 차례", "next") : both("대기", "waiting") }),
      ]);
    });
    return el("div", { class: "tg-submit" }, [
      el("div", { class: "tg-submit-head" }, [
        el("div", { class: "tg-caption", text: ascending ? both("입장 순서: 가나다 순 ↓", "Entering: 가나다 order ↓")
          : both("입장 순서: 가나다 역순 ↑", "Entering: reverse 가나다 order ↑") }),
        sealed ? el("div", { class: "tg-count", "data-role": "sealed" }, [
          el("span", { class: "tg-count-n" }, sealed[0] + "/" + sealed[1]),
          el("span", { text: both(" 제출", " in") }),
        ]) : null,
      ]),
      el("div", { class: "tg-tiles" }, tiles),
    ]);
  }

  function workCard(view, work, takenBy, fresh) {
    const state = view.state;
    const cls = "tg-card tgk-" + work.kind + (takenBy ? " taken" : "") + (fresh ? " fresh" : "")
      + (state.picker === work.seat ? " owner-picks" : "") + (state.auction && state.auction.winner === work.seat ? " rank1" : "");
    return el("div", { class: cls, "data-owner": String(work.seat), "data-kind": work.kind, "data-box": "card-" + work.seat }, [
      art(work.kind),
      el("div", { class: "tg-card-kind", text: SHORT_NAMES[work.kind] }),
      el("div", { class: "tg-card-owner" }, nameOf(view, work.seat)),
      takenBy ? el("div", { class: "tg-card-taken" }, [
        el("span", { class: "tg-rank" }, String(takenBy.rank)),
        el("span", {}, nameOf(view, takenBy.seat)),
      ]) : null,
    ]);
  }

  function works(view, fresh) {
    const state = view.state;
    const taken = {};
    state.chain.forEach(function (c) { taken[c.took_from] = c; });
    const order = {};
    (state.entering_order || []).forEach(function (s, i) { order[s] = i; });
    const list = state.reveal.works.slice().sort(function (a, b) { return order[a.seat] - order[b.seat]; });
    return el("div", { class: "tg-works n" + list.length }, list.map(function (w) {
      return workCard(view, w, taken[w.seat], fresh.has(w.seat));
    }));
  }

  function chainList(view, chain, fresh, live) {
    const rows = chain.map(function (c) {
      return el("li", { class: "tg-link" + (fresh && fresh.has(c.took_from) ? " fresh" : ""), "data-rank": String(c.rank) }, [
        el("span", { class: "tg-rank" }, String(c.rank)),
        el("span", { class: "tg-link-who" }, nameOf(view, c.seat)),
        el("span", { class: "tg-arrow" }, "←"),
        el("span", { class: "tg-link-from" }, nameOf(view, c.took_from)),
        miniWork(c.kind),
      ]);
    });
    if (live && view.state.picker != null) {
      rows.push(el("li", { class: "tg-link now" }, [
        el("span", { class: "tg-rank" }, String(chain.length + 1)),
        el("span", { class: "tg-link-who" }, nameOf(view, view.state.picker)),
        el("span", { class: "tg-arrow", text: both("선택 중…", "choosing…") }),
      ]));
    }
    return el("ol", { class: "tg-chain", "data-box": "chain" }, rows);
  }

  function auctionBox(view) {
    const state = view.state;
    const a = state.auction;
    if (!a) return null;
    if (a.winner == null) {
      return el("div", { class: "tg-auction pending", "data-box": "auction" }, [
        el("div", { class: "tg-label", text: both("서열 1위 경매", "Auction for rank 1") }),
        el("div", { class: "tg-big", text: both("입찰 중…", "Bidding…") }),
        a.ties ? el("div", { class: "tg-ties", text: both("동점 재입찰 ×" + a.ties, "Tie, re-bid ×" + a.ties) }) : null,
      ]);
    }
    const compact = state.step === "chain" && state.chain.length > 2;
    return el("div", { class: "tg-auction won" + (compact ? " compact" : ""), "data-role": "auction", "data-box": "auction" }, [
      el("div", { class: "tg-label", text: both("서열 1위", "Rank 1") }),
      el("div", { class: "tg-big" }, nameOf(view, a.winner)),
      // compact (once the chain is under way): one line beside the name, so the chain keeps the room
      el("div", { class: "tg-bid", text: a.no_bid ? (compact ? both("무입찰", "no bid") : both("입찰 없음 (입장 순서)", "no bid (first in)"))
        : compact ? both(a.bid + "칩", a.bid + " chips") : both(a.bid + "칩 낙찰", a.bid + " chips") }),
    ]);
  }

  function sirenBadge(on) {
    return on ? el("div", { class: "tg-siren-badge", "data-role": "siren" }, [
      el("span", { class: "tg-beacon" }), el("span", { text: both("사이렌 울림", "Siren") })]) : null;
  }

  function recap(view) {
    const state = view.state;
    const last = state.newest_round;
    if (!last) return null;
    // One line for the round's headline and its notes (a whole 9-link chain must fit below it).
    return el("div", { class: "tg-recap" }, [
      el("div", { class: "tg-recap-line", "data-box": "recap" }, [
        el("span", { class: "tg-label", text: both(last.round + "R ", "R" + last.round + " ") }),
        el("span", { text: last.bid ? both("1위 " + nameOf(view, last.winner) + " · " + last.bid + "칩",
          "1st " + nameOf(view, last.winner) + " · " + last.bid + " chips")
          : both("1위 " + nameOf(view, last.winner) + " · 무입찰", "1st " + nameOf(view, last.winner) + " · no bid") }),
        last.siren ? el("span", { class: "tg-recap-siren", text: both("사이렌", "Siren") }) : null,
        last.eliminated.length ? el("span", { class: "tg-recap-out", text: both(
          "탈락 " + last.eliminated.map(function (s) { return nameOf(view, s); }).join(", "),
          "Out " + last.eliminated.map(function (s) { return nameOf(view, s); }).join(", ")) }) : null,
      ]),
      chainList(view, last.chain, null, false),
    ]);
  }

  function galleries(view) {
    const state = view.state;
    const legend = el("div", { class: "tg-legend" }, KINDS.map(function (k) {
      return el("span", { class: "tg-legend-item" }, [miniWork(k), el("span", { text: SHORT_NAMES[k] })]);
    }));
    const cols = byName(state).map(function (s) {
      const picking = state.picker === s.seat;
      return el("div", { class: "tg-gallery" + (s.alive ? "" : " out") + (picking ? " picking" : ""), "data-seat": String(s.seat) }, [
        el("div", { class: "tg-gallery-name" }, s.name),
        s.alive ? el("div", { class: "tg-gallery-works" }, s.gallery.map(function (w) { return miniWork(w.kind); }))
          : el("div", { class: "tg-gallery-out", text: both(s.eliminated_round + "R 탈락", "out R" + s.eliminated_round) }),
      ]);
    });
    return el("div", { class: "tg-galleries", "data-box": "galleries" }, [
      el("div", { class: "tg-galleries-head" }, [
        el("span", { class: "tg-label", text: both("갤러리", "Galleries") }), legend,
        el("span", { class: "tg-spacer" }),
        sirenBadge(state.reveal && state.reveal.siren && state.step !== "submit"),
        roundPills(state),
      ]),
      el("div", { class: "tg-gallery-row" }, cols),
    ]);
  }

  function finalTable(view) {
    const state = view.state;
    const f = state.final;
    const rows = f.ranking.map(function (seat, i) {
      const s = state.seats[seat];
      const advancing = f.advancing.indexOf(seat) >= 0;
      const revenue = f.revenues[seat];
      return el("div", { class: "tg-final-row" + (advancing ? " advancing" : "") + (s.alive ? "" : " out"), "data-seat": String(seat),
                         "data-box": "rank-" + (i + 1) }, [
        el("span", { class: "tg-final-rank" }, String(i + 1)),
        el("span", { class: "tg-final-name" }, s.name),
        el("span", { class: "tg-final-works" }, s.gallery.map(function (w) { return miniWork(w.kind); })),
        el("span", { class: "tg-final-revenue" }, revenue == null ? "—" : revenue + tr(both("억", "억"))),
        el("span", { class: "tg-final-verdict", text: advancing ? both("진출", "advances")
          : s.alive ? both("미진출", "out") : both(s.eliminated_round + "R 탈락", "out in R" + s.eliminated_round) }),
      ]);
    });
    const decided = view.result && view.result.decided_by;
    rows.push(decided ? el("div", { class: "tg-final-note", "data-box": "note", text: decided }) : null);
    return el("div", { class: "tg-final" }, [
      el("div", { class: "tg-final-row head" }, [
        el("span", { text: both("순위", "Rank") }), el("span", { text: both("이름", "Name") }),
        el("span", { text: both("갤러리", "Gallery") }), el("span", { text: both("수익", "Revenue") }),
        el("span", { text: both("결과", "Result") }),
      ]),
    ].concat(rows));
  }

  // Works taken since the previous view (by owner): their cards and chain rows animate in.
  function freshTakes(view, previous) {
    const fresh = new Set();
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was || was.round !== view.state.round || was.step !== "chain") return fresh;
    const before = new Set(was.chain.map(function (c) { return c.took_from; }));
    view.state.chain.forEach(function (c) { if (!before.has(c.took_from)) fresh.add(c.took_from); });
    return fresh;
  }

  function render(board, view, previous) {
    const state = view.state;
    const fresh = freshTakes(view, previous);
    let main;
    let side = null;
    if (state.step === "over" && state.final) {
      main = finalTable(view);
    } else if (state.step === "setup") {
      main = el("div", { class: "tg-wait", text: both("작품을 나눠 주는 중", "Dealing the works") });
    } else if (state.step === "submit") {
      main = submission(view);
      side = recap(view);
    } else {
      main = works(view, fresh);
      side = el("div", { class: "tg-side-stack" }, [
        auctionBox(view),
        state.step === "chain" ? chainList(view, state.chain, fresh, true) : null,
      ]);
    }
    board.replaceChildren(el("div", { class: "tg" + (side ? "" : " no-side") + (state.step === "over" ? " over" : "") }, [
      topStrip(view),
      el("div", { class: "tg-main" }, [main]),
      side ? el("div", { class: "tg-side" }, [side]) : null,
      state.step === "over" ? null : galleries(view),
    ]));
    return moment(view, previous);
  }

  function moment(view, previous) {
    const state = view.state;
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was) return null;
    const key = view.table + ":" + state.round;
    // The siren: the public view's flag appears for this round (Gallery rule 4).
    if (state.reveal && state.reveal.siren && !(was.reveal && was.reveal.round === state.reveal.round && was.reveal.siren)
        && !sirensShown.has(key)) {
      sirensShown.add(key);
      // A stage moment like every other (docs/stage.md: it takes the board's region for its time).
      return Object.assign(both("사이렌!", "SIREN!"), { cue: "siren", tone: "siren", hold: 3200,
        lines: [both("가품이 2장 이상 출품되었습니다", "Two or more fakes were submitted")] });
    }
    if (state.rounds_done > was.rounds_done) {
      const last = state.newest_round;
      const outKey = view.table + ":" + last.round;
      if (last.eliminated.length && !outsShown.has(outKey)) {
        outsShown.add(outKey);
        return Object.assign(both("탈락", "Eliminated"), { cue: "out", tone: "bad", hold: 4200,
          lines: last.eliminated.map(function (s) { return both(nameOf(view, s) + " — 가품 2장", nameOf(view, s) + " — two fakes"); }) });
      }
      if (state.step === "over") return both("최종 판매와 순위", "The sale and the ranking");
      return both(last.round + "라운드 종료", "Round " + last.round + " over");
    }
    if (state.step === "over" && was.step !== "over") return both("최종 판매와 순위", "The sale and the ranking");
    if (state.reveal && !was.reveal) return both(state.round + "라운드 작품 공개", "Round " + state.round + ": the works");
    if (state.auction && was.auction && state.auction.ties > was.auction.ties) return both("동점! 다시 입찰", "Tie! Bid again");
    if (state.auction && state.auction.winner != null && !(was.auction && was.auction.winner != null)) {
      const who = nameOf(view, state.auction.winner);
      return state.auction.no_bid ? both("입찰 없음 → " + who + " 서열 1위", "No bid → " + who + " is rank 1")
        : both(who + " " + state.auction.bid + "칩 낙찰 → 서열 1위", who + " wins with " + state.auction.bid + " chips → rank 1");
    }
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.tricky_gallery = { render: render };
})();
