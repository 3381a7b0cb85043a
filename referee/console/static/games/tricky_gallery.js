// The console's panel for Tricky Gallery (dealer view: every secret). The entering queue of
// the submission room (order, direction, who is in, who is next), the round on the table with
// each work's authenticity, the auction and the chain, a compact table of every seat (hand,
// stickers, chips, gallery with authenticity) and the appraisals. The decision forms (auction,
// transfers, moves on behalf) are drawn by console.js from the pending decisions.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const { SHORT: KIND_NAMES } = window.GalleryKinds;

  function nameOf(state, seat) { return (seat + 1) + ". " + state.seats[seat].name; }

  function work(kind, genuine, extra) {
    return el("span", { class: "tgc-work tgk-" + kind + (genuine === true ? " genuine" : genuine === false ? " fake" : ""),
                        "data-kind": kind }, [
      tr(KIND_NAMES[kind]),
      genuine === true ? el("b", { text: both(" 진", " G") }) : genuine === false ? el("b", { text: both(" 가", " F") }) : null,
      extra ? el("small", {}, " " + extra) : null,
    ]);
  }

  function queue(state) {
    const q = state.queue;
    if (!q) return null;
    const items = q.rows.map(function (row, i) {
      const next = q.next === row.seat;
      return el("li", { class: "tgc-q" + (row.submitted ? " in" : "") + (next ? " next" : ""), "data-seat": String(row.seat) }, [
        el("span", { class: "tgc-q-no" }, String(i + 1)),
        el("span", {}, row.name),
        el("span", { class: "tgc-q-state", text: row.submitted ? both("제출", "in") : next ? both("다음", "next") : both("대기", "waiting") }),
      ]);
    });
    return el("div", { class: "tgc-block" }, [
      el("h3", { text: both(q.round + "라운드 입장 순서 — " + (q.direction === "ascending" ? "가나다 순 ↓" : "가나다 역순 ↑"),
                            "Round " + q.round + " entering order — " + q.direction) }),
      el("ol", { class: "tgc-queue" }, items),
      q.next != null ? el("p", { class: "tgc-next", text: both("다음 입장: " + nameOf(state, q.next), "Next to enter: " + nameOf(state, q.next)) }) : null,
    ]);
  }

  function round(state) {
    if (!state.reveal) return null;
    const taken = {};
    state.chain.forEach(function (c) { taken[c.took_from] = c; });
    const fakes = state.reveal.works.filter(function (w) { return w.genuine === false; }).length;
    const a = state.auction;
    return el("div", { class: "tgc-block" }, [
      el("h3", { text: both(state.round + "라운드 출품작 (가품 " + fakes + "장" + (state.reveal.siren ? ", 사이렌" : "") + ")",
                            "Round " + state.round + " works (" + fakes + " fake" + (state.reveal.siren ? ", siren" : "") + ")") }),
      el("div", { class: "tgc-works" }, state.reveal.works.map(function (w) {
        const t = taken[w.seat];
        return el("div", { class: "tgc-tile" + (t ? " taken" : "") + (state.picker === w.seat ? " picker" : ""), "data-owner": String(w.seat) }, [
          el("div", { class: "tgc-tile-name" }, nameOf(state, w.seat)),
          work(w.kind, w.genuine),
          t ? el("div", { class: "tgc-tile-taken" }, "→ " + nameOf(state, t.seat) + " (" + t.rank + ")") : null,
        ]);
      })),
      a ? el("p", { class: "tgc-auction", text: a.winner == null
        ? both("경매 입력 대기" + (a.ties ? " (동점 재입찰 " + a.ties + "회)" : ""), "Waiting for the auction" + (a.ties ? " (ties: " + a.ties + ")" : ""))
        : a.no_bid ? both("1위 " + nameOf(state, a.winner) + " (입찰 없음)", "Rank 1 " + nameOf(state, a.winner) + " (no bid)")
          : both("1위 " + nameOf(state, a.winner) + " · " + a.bid + "칩", "Rank 1 " + nameOf(state, a.winner) + " · " + a.bid + " chips") }) : null,
      state.picker != null ? el("p", { class: "tgc-picker", text: both("선택 차례: " + nameOf(state, state.picker) + " (" + (state.chain.length + 1) + "위)",
        "Picking: " + nameOf(state, state.picker) + " (rank " + (state.chain.length + 1) + ")") }) : null,
    ]);
  }

  function seatsTable(state) {
    const current = {};
    if (state.reveal) state.reveal.works.forEach(function (w) { current[w.seat] = w; });
    const head = el("tr", {}, [
      el("th", { text: both("자리", "Seat") }), el("th", { text: both("손패", "Hand") }),
      el("th", { text: both("스티커 진/가", "Stickers G/F") }), el("th", { text: both("칩", "Chips") }),
      el("th", { text: both("이번 출품", "This round") }), el("th", { text: both("갤러리 (진위)", "Gallery (authenticity)") }),
    ]);
    const rows = state.seats.map(function (s) {
      const sub = s.submissions.find(function (x) { return x.round === state.round; });
      const fakes = s.gallery.filter(function (w) { return w.genuine === false; }).length;
      return el("tr", { class: s.alive ? "" : "out", "data-seat": String(s.seat) }, [
        el("td", {}, [el("strong", {}, nameOf(state, s.seat)), s.alive ? null
          : el("div", { class: "tgc-out", text: both(s.eliminated_round + "R 탈락", "out R" + s.eliminated_round) })]),
        el("td", {}, s.hand.map(function (k) { return work(k); })),
        el("td", {}, s.stickers.genuine + " / " + s.stickers.fake),
        el("td", { class: "tgc-chips" }, String(s.chips)),
        el("td", {}, sub ? work(sub.kind, sub.genuine) : state.step === "submit" && s.alive ? el("span", { class: "owes", text: both("미제출", "owes") }) : ""),
        el("td", {}, [
          el("span", { class: "tgc-fakes" + (fakes ? " some" : ""), text: both("가품 " + fakes, fakes + " fake") }), " ",
        ].concat(s.gallery.map(function (w) { return work(w.kind, w.genuine, "← " + state.seats[w.from].name); }))),
      ]);
    });
    return el("table", { class: "tgc-seats" }, [head].concat(rows));
  }

  function appraisals(state) {
    if (!state.appraisals || !state.appraisals.length) return null;
    return el("div", { class: "tgc-block" }, [
      el("h3", { text: both("감정 기록 (해당 자리만 앎)", "Appraisals (known to the appraiser only)") }),
      el("ul", { class: "tgc-appraisals" }, state.appraisals.slice().reverse().map(function (a) {
        return el("li", {}, [a.round + "R · " + nameOf(state, a.seat) + " → " + nameOf(state, a.work) + " ", work(a.kind, a.genuine)]);
      })),
    ]);
  }

  function runSheet(state) {
    const sheet = state.run_sheet;
    if (!sheet) return null;
    return el("details", { class: "tgc-block", open: state.step === "setup" || state.round <= 1 && state.step === "submit" }, [
      el("summary", { text: both("분배표 (누구에게 무엇을)", "Run sheet (what to hand whom)") }),
      el("ul", {}, sheet.lines.map(function (line) { return el("li", { text: line }); })),
    ]);
  }

  function finalBlock(state) {
    const f = state.final;
    if (!f) return null;
    return el("div", { class: "tgc-block" }, [
      el("h3", { text: both("최종 판매와 순위", "The sale and the ranking") }),
      el("ol", { class: "tgc-final" }, f.ranking.map(function (seat) {
        const r = f.revenues[seat];
        return el("li", { class: f.advancing.indexOf(seat) >= 0 ? "advancing" : "" },
                  nameOf(state, seat) + " — " + (r == null ? tr(both("탈락", "eliminated")) : r + "억")
                  + (f.advancing.indexOf(seat) >= 0 ? " · " + tr(both("진출", "advances")) : ""));
      })),
    ]);
  }

  window.ConsoleGames = window.ConsoleGames || {};
  window.ConsoleGames.tricky_gallery = function (view) {
    const state = view.state;
    return el("div", { class: "tgc" }, [
      runSheet(state),
      el("div", { class: "tgc-top" }, [queue(state), round(state)]),
      finalBlock(state),
      seatsTable(state),
      appraisals(state),
    ]);
  };
})();
