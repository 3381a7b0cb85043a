// The phone's picture of a Quattro candidate: the own hand drawn as big cards (which are open,
// which came from a virtual player, which is chosen for the sealed opening), mulligans, the
// exchanges made, and what everyone can see on the table. The decisions (keep or mulligan, a
// card to open, an exchange or a pass) come from forms.js.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const QC = window.QuattroCards;
  const { number } = QC;
  function face(card, extra) { return QC.face(card, extra, "span"); }
  function back(extra) { return QC.back(extra, "span"); }
  const MAX_MULLIGANS = 2;  // Quattro rule 1: up to two mulligans

  function slot(card, tag, kind, extra) {
    return el("div", { class: "qp-slot" + (kind ? " " + kind : "") }, [face(card, extra), el("span", { class: "qp-tag", text: tag })]);
  }

  function myHand(view, me) {
    const row = el("div", { class: "qp-hand" });
    me.opened.forEach(function (card, i) {
      row.appendChild(slot(card, both("공개 " + (i + 1), "Open " + (i + 1)), "opened"));
    });
    const from = {};
    (me.received || []).forEach(function (r) { from[r.card] = r.vp; });
    (me.hand || []).forEach(function (card) {
      const chosen = me.open_choice === card;
      const tag = chosen ? both("공개 예정", "To open")
        : from[card] != null ? both("가상 " + (from[card] + 1) + "에게서", "From virtual " + (from[card] + 1))
          : "\u00a0";
      row.appendChild(slot(card, tag, chosen ? "chosen" : from[card] != null ? "received" : "", "mine"));
    });
    return row;
  }

  function myExchanges(view, seat, me) {
    const got = {};
    (me.received || []).forEach(function (r) { got[r.vp] = r.card; });
    const mine = view.state.actions.filter(function (a) { return a.seat === seat && a.action === "exchange"; });
    if (!mine.length) return el("p", { class: "hint", text: both("아직 교환하지 않았습니다", "No exchanges yet") });
    return el("ol", { class: "qp-exchanges" }, mine.map(function (a) {
      return el("li", { "data-vp": String(a.vp) }, [
        el("span", { class: "qp-ex-vp", text: both("가상 " + (a.vp + 1), "Virtual " + (a.vp + 1)) }),
        face(a.given, "mini"),
        el("span", { class: "qp-arrow" }, "→"),
        got[a.vp] ? face(got[a.vp], "mini") : el("span", {}, "?"),
        el("span", { class: "qp-ex-phase", text: both(a.phase + "단계", "phase " + a.phase) }),
      ]);
    }));
  }

  function opponent(view, seat) {
    const other = view.state.seats[1 - seat];
    const row = el("div", { class: "qp-mini-row" });
    other.opened.forEach(function (card) { row.appendChild(face(card, "mini")); });
    for (let i = 0; i < other.hand_count; i++) row.appendChild(back("mini"));
    return el("div", { class: "qp-opponent" }, [
      el("h3", { text: both("상대: " + view.seats[1 - seat], "Opponent: " + view.seats[1 - seat]) }),
      row,
      el("p", { class: "hint", text: both(
        "교환 " + other.exchanges + "/" + view.state.virtual.length + " · 패스 " + other.passes + " · 멀리건 " + other.mulligans,
        "Exchanges " + other.exchanges + "/" + view.state.virtual.length + " · passes " + other.passes + " · mulligans " + other.mulligans) }),
    ]);
  }

  function virtualPlayers(view, seat, me) {
    const grid = el("div", { class: "qp-vps" });
    view.state.virtual.forEach(function (v) {
      const done = me.exchanged_with.indexOf(v.vp) >= 0;
      const cards = el("div", { class: "qp-mini-row" });
      v.face_up.forEach(function (f) { cards.appendChild(face(f.card, "mini")); });
      grid.appendChild(el("div", { class: "qp-vp" + (done ? " done" : ""), "data-vp": String(v.vp) }, [
        el("div", { class: "qp-vp-name" }, [el("span", { text: both("가상 " + (v.vp + 1), "Virtual " + (v.vp + 1)) }),
          done ? el("span", { class: "qp-done" }, " ✓") : null]),
        cards,
      ]));
    });
    return grid;
  }

  function comparison(view, seat) {
    const c = view.state.comparison;
    if (!c) return null;
    const rows = [seat, 1 - seat].map(function (s) {
      const cards = el("div", { class: "qp-mini-row" });
      c.hands[s].slice().sort(function (a, b) { return number(b) - number(a); })
        .forEach(function (card) { cards.appendChild(face(card, "small")); });
      return el("div", { class: "qp-final-row" + (view.state.winner === s ? " winner" : "") }, [
        el("div", { class: "qp-final-name" }, [view.seats[s], view.state.winner === s ? el("span", { class: "qp-win", text: both(" 승리", " wins") }) : null]),
        cards,
        el("div", { class: "hint", text: both((c.quattro[s] ? "콰트로! · " : "콰트로 아님 · ") + "합 " + c.sums[s],
          (c.quattro[s] ? "Quattro! · " : "No quattro · ") + "sum " + c.sums[s]) }),
      ]);
    });
    const decided = view.result ? view.result.decided_by : both("완전 동점: 딜러 결정 대기", "Equal all the way: awaiting the dealer");
    return el("div", { class: "qp-final" }, [el("h3", { text: both("최종 비교", "Final comparison") })].concat(rows)
      .concat([el("p", { class: "qp-decided", text: decided })]));
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.quattro = function (view, seat) {
    const state = view.state;
    const me = state.seats[seat];
    const left = MAX_MULLIGANS - me.mulligans;
    const mulligan = me.kept ? both(me.mulligans + "회 사용 · 유지함", me.mulligans + " taken · kept")
      : both(me.mulligans + "회 사용 · 남은 " + left + "회", me.mulligans + " taken · " + left + " left");
    return el("div", { class: "qp" }, [
      comparison(view, seat),
      el("h3", { text: both("내 카드", "My cards") }),
      myHand(view, me),
      state.first != null ? el("p", { class: "qp-first", text: state.first === seat
        ? both("선 플레이어: " + view.seats[seat] + " (나)", "First player: " + view.seats[seat] + " (you)")
        : both("선 플레이어: " + view.seats[state.first] + " (상대)", "First player: " + view.seats[state.first] + " (opponent)") }) : null,
      me.must_exchange ? el("p", { class: "qp-owe", text: both(
        "패스할 수 없습니다: 아직 교환하지 않은 가상 플레이어 " + (state.virtual.length - me.exchanges) + "명",
        "You cannot pass: " + (state.virtual.length - me.exchanges) + " virtual players still owed an exchange") }) : null,
      el("dl", { class: "kv" }, [
        el("dt", { text: both("멀리건", "Mulligans") }), el("dd", { "data-role": "mulligans", text: mulligan }),
        el("dt", { text: both("교환", "Exchanges") }), el("dd", { "data-role": "exchanges" }, me.exchanges + " / " + state.virtual.length),
        el("dt", { text: both("패스", "Passes") }), el("dd", { "data-role": "passes" }, String(me.passes)),
      ]),
      state.phase >= 1 ? el("h3", { text: both("내 교환", "My exchanges") }) : null,
      state.phase >= 1 ? myExchanges(view, seat, me) : null,
      opponent(view, seat),
      el("h3", { text: both("가상 플레이어 (공개된 카드)", "Virtual players (face-up cards)") }),
      virtualPlayers(view, seat, me),
    ]);
  };

  // The receipt of an exchange as a sentence, the particle after the card's last syllable:
  // "파랑 4를 가상 플레이어 1에게 주고 교환", "빨강 3을 …".
  window.PhoneGames.quattro.receipt = function (decision, move, which) {
    if (decision.move === "exchange") {
      const card = I18N.inLang(QC.cardLabel(move.card), which);
      const vp = Number(move.vp) + 1;
      return which === "en" ? "Gave " + card + " to virtual player " + vp + " in exchange"
        : I18N.josa(card, "을/를") + " 가상 플레이어 " + vp + "에게 주고 교환";
    }
    if (decision.move === "pass") return which === "en" ? "Pass: no exchange this turn" : "패스: 이번 차례에는 교환하지 않음";
    return null;
  };
})();
