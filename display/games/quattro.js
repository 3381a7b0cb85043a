// The projector's picture of Quattro: the two candidates with their opened cards and their
// unopened cards as backs, the six virtual players with the cards laid face up with them, the
// phase and whose turn, and at the end the final comparison. Only the public view arrives here:
// what a virtual player still hides and what a candidate received is never in it.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const { number, cardLabel, face, back } = window.QuattroCards;
  // A virtual player is dealt 3 cards and every exchange is one card for one (Quattro rules 2, 3).
  const VIRTUAL_HAND = 3;
  const STARTED = ["open", "exchange", "compare", "draw", "over"];

  function seatName(view, seat) { return view.seats[seat]; }

  // A box of the picture that nothing else may lie on (the layout audit reads data-box).
  function boxed(node, name) { node.setAttribute("data-box", name); return node; }

  // Under a card laid with a virtual player: who gave it, as a mark in that candidate's colour
  // (the first letter of the name, or the seat number when both names start alike); the
  // candidates' names carry the same colour.
  function giverMark(view, seat) {
    const first = view.seats.map(function (n) { return Array.from(n || "")[0] || ""; });
    return first[0] && first[0] !== first[1] ? first[seat] : String(seat + 1);
  }

  function stepTitle(state) {
    switch (state.step) {
      case "first": return both("선 플레이어 정하기", "Choosing the first player");
      case "deal": case "mulligan": return both("카드 배분 · 멀리건", "Deal · mulligans");
      case "virtual": return both("가상 플레이어 배분", "Dealing the virtual players");
      case "open": return both((state.phase + 1) + "번째 카드 공개", "Opening card " + (state.phase + 1));
      case "exchange": return both("교환 " + state.phase + "단계", "Exchange phase " + state.phase);
      case "draw": return both("완전 동점 · 딜러 결정", "Full draw · dealer decides");
      default: return both("최종 비교", "Final comparison");
    }
  }

  // Set of "seat:card" and "vp:card" that were not on the previous view: they flip in.
  function newCards(view, previous) {
    const was = previous && previous.table === view.table ? previous.state : null;
    const fresh = new Set();
    if (!was) return fresh;
    view.state.seats.forEach(function (s, i) {
      s.opened.forEach(function (card) { if (was.seats[i].opened.indexOf(card) < 0) fresh.add("s" + i + ":" + card); });
    });
    view.state.virtual.forEach(function (v, i) {
      v.face_up.forEach(function (f, k) { if (k >= was.virtual[i].face_up.length) fresh.add("v" + i + ":" + f.card); });
    });
    return fresh;
  }

  function candidate(view, seat, fresh) {
    const state = view.state;
    const s = state.seats[seat];
    const c = state.comparison;
    const over = !!c;
    const winner = state.winner === seat;
    const acting = state.step === "exchange" && state.to_act === seat;
    const badges = el("div", { class: "qt-badges" }, [
      state.first === seat ? el("span", { class: "qt-badge first", text: both("선", "1st") }) : null,
      acting ? el("span", { class: "qt-badge turn", text: both("차례", "To act") }) : null,
      state.step === "mulligan" && s.kept ? el("span", { class: "qt-badge ok", text: both("유지", "Kept") }) : null,
      state.step === "mulligan" && !s.kept ? el("span", { class: "qt-badge wait", text: both("고민 중", "Deciding") }) : null,
      state.step === "open" ? (s.open_submitted ? el("span", { class: "qt-badge ok", text: both("선택 ✓", "Chosen ✓") })
        : el("span", { class: "qt-badge wait", text: both("고르는 중", "Choosing") })) : null,
      winner ? el("span", { class: "qt-badge win", text: both("승리", "Winner") }) : null,
    ]);

    const cards = el("div", { class: "qt-hand" });
    let shown = s.opened.slice();
    let decisive = -1;
    if (over) {
      // The final hand, highest first, so the tie-break can be read left to right.
      shown = c.hands[seat].slice().sort(function (a, b) { return number(b) - number(a); });
      if (c.rule === "high") decisive = c.position - 1;
    }
    shown.forEach(function (card, i) {
      const cls = [fresh.has("s" + seat + ":" + card) ? "fresh" : "", i === decisive ? "decisive" : ""].join(" ").trim();
      cards.appendChild(boxed(face(card, cls), "hand-" + seat + "-" + i));
    });
    for (let i = 0; i < s.hand_count; i++) cards.appendChild(boxed(back(), "hand-" + seat + "-" + (shown.length + i)));

    const all = state.virtual.length;
    const chips = el("div", { class: "qt-chips" });
    for (let vp = 0; vp < state.virtual.length; vp++) {
      const order = s.exchanged_with.indexOf(vp);
      chips.appendChild(el("span", { class: "qt-chip" + (order >= 0 ? " on" : ""), "data-vp": String(vp) }, String(vp + 1)));
    }
    const stats = el("div", { class: "qt-stats", "data-box": "stats-" + seat }, [
      el("span", { class: "qt-stat", "data-role": "exchanges", text: both("교환 " + s.exchanges + "/" + all, "Exchanges " + s.exchanges + "/" + all) }),
      chips,
      el("span", { class: "qt-stat", "data-role": "passes", text: both("패스 " + s.passes, "Passes " + s.passes) }),
      el("span", { class: "qt-stat", "data-role": "mulligans", text: both("멀리건 " + s.mulligans, "Mulligans " + s.mulligans) }),
    ]);
    const notes = el("div", { class: "qt-notes", "data-box": "notes-" + seat }, [
      s.must_exchange ? el("span", { class: "qt-owe", text: both("패스 불가: 남은 교환 " + (all - s.exchanges) + "명",
        "No pass: " + (all - s.exchanges) + " exchanges owed") }) : null,
    ]);
    const verdict = over ? el("div", { class: "qt-verdict", "data-box": "verdict-" + seat }, [
      el("span", { class: "qt-quattro" + (c.quattro[seat] ? " yes" : " no") + (c.rule === "only_quattro" && winner ? " decisive" : ""), "data-role": "quattro",
                   text: c.quattro[seat] ? both("콰트로!", "Quattro!") : both("콰트로 아님", "No quattro") }),
      el("span", { class: "qt-sum" + (c.rule === "sum" && winner ? " decisive" : ""), "data-role": "sum", text: both("합 " + c.sums[seat], "Sum " + c.sums[seat]) }),
    ]) : null;

    return el("div", { class: "qt-cand" + (acting ? " acting" : "") + (winner ? " winner" : "") + (over && !winner ? " loser" : ""),
                       "data-seat": String(seat), "data-box": "candidate-" + seat }, [
      el("div", { class: "qt-cand-head" }, [el("div", { class: "qt-name qt-s" + seat, "data-box": "name-" + seat }, [
        el("span", { class: "qt-mark qt-s" + seat }, giverMark(view, seat)), seatName(view, seat)]), boxed(badges, "badges-" + seat)]),
      cards,
      verdict,
      over ? null : stats,
      over ? null : notes,
    ]);
  }

  function middle(view) {
    const state = view.state;
    const c = state.comparison;
    const pips = el("div", { class: "qt-pips" });
    for (let i = 1; i <= 4; i++) pips.appendChild(el("span", { class: "qt-pip" + (state.phase >= i ? " on" : "")
      + (state.step === "open" && state.phase + 1 === i ? " next" : "") }, String(i)));
    const parts = [el("div", { class: "qt-step", "data-role": "step", text: stepTitle(state) }), pips];
    if (c) {
      if (state.winner != null) {
        parts.push(el("div", { class: "qt-winner", "data-role": "winner" },
          tr(both(seatName(view, state.winner) + " 승리", seatName(view, state.winner) + " wins"))));
      }
      const decided = view.result ? view.result.decided_by
        : both("완전 동점: 딜러 결정 대기", "Equal all the way: awaiting the dealer");
      parts.push(el("div", { class: "qt-decided", "data-role": "decided-by", text: decided }));
      // A card the hall sees twice (laid with a virtual player, then in a hand) said in words.
      const gone = goneOn(view);
      if (gone.length) {
        parts.push(el("div", { class: "qt-gone", "data-role": "gone-on", "data-box": "gone-on" },
          [tr(both("다시 손으로:", "Back into a hand:"))].concat(gone.map(function (w) { return el("span", { text: w }); }))));
      }
    } else if (state.step === "exchange" && state.to_act != null) {
      parts.push(el("div", { class: "qt-turn", text: both(seatName(view, state.to_act) + " 차례", seatName(view, state.to_act) + " to act") }));
    }
    if (!c && state.actions.length) {
      // The latest turns of the exchange phases: who exchanged with whom, who passed.
      parts.push(el("ol", { class: "qt-log", "data-role": "log" }, state.actions.slice(-2).reverse().map(function (a) {
        const who = seatName(view, a.seat);
        return el("li", { class: a.action === "pass" ? "pass" : "exchange", text: a.action === "pass"
          ? both(a.phase + "단계 · " + who + " 패스", "Phase " + a.phase + " · " + who + " passes")
          : both(a.phase + "단계 · " + who + " ⇄ 가상 " + (a.vp + 1), "Phase " + a.phase + " · " + who + " ⇄ virtual " + (a.vp + 1)) });
      })));
    }
    return el("div", { class: "qt-mid" + (c ? " final" : ""), "data-box": "middle" }, parts);
  }

  // The cards each candidate shows: the opened ones, the whole final hand at the end.
  function shownBy(state, seat) {
    return state.comparison ? state.comparison.hands[seat] : state.seats[seat].opened;
  }

  // A card laid face up with a virtual player may go on (the player answers the next exchange
  // with it when it is the best card, always when it is a 0: Quattro rules 6-8): once it shows in
  // a candidate's hand, or is laid again, it is no longer there. Only what is public says so.
  // Returns the seat whose hand shows it, or null (still with `vp`, as far as the hall knows).
  function wentTo(state, vp, k) {
    const card = state.virtual[vp].face_up[k].card;
    for (let seat = 0; seat < state.seats.length; seat++) {
      if (shownBy(state, seat).indexOf(card) >= 0) return { seat: seat };
    }
    const laid = state.actions.filter(function (a) { return a.action === "exchange" && a.given === card; });
    const last = laid[laid.length - 1];
    const again = state.virtual[vp].face_up.slice(k + 1).some(function (f) { return f.card === card; });
    return last && (last.vp !== vp || again) ? { vp: last.vp } : null;
  }

  // The cards laid and gone on, in words: "빨강 6 → 가람" (the hall sees them twice at the end).
  function goneOn(view) {
    const state = view.state;
    const words = [];
    state.virtual.forEach(function (v, vp) {
      v.face_up.forEach(function (f, k) {
        const to = wentTo(state, vp, k);
        if (to && to.seat != null) {
          const label = cardLabel(f.card);
          words.push(both(label.ko + " → " + seatName(view, to.seat), label.en + " → " + seatName(view, to.seat)));
        }
      });
    });
    return words;
  }

  function virtualPlayer(view, vp, fresh, lastAction) {
    const state = view.state;
    const v = state.virtual[vp];
    const cards = el("div", { class: "qt-vp-cards" });
    v.face_up.forEach(function (f, k) {
      // Gone on: dimmed here, and said in words in the middle at the end (goneOn).
      const to = wentTo(state, vp, k);
      cards.appendChild(el("div", { class: "qt-laid" + (to ? " gone" : ""), "data-box": "laid-" + vp + "-" + cards.childNodes.length,
                                    "data-went": to == null ? null : to.seat != null ? "seat-" + to.seat : "virtual-" + to.vp }, [
        face(f.card, fresh.has("v" + vp + ":" + f.card) ? "fresh" : ""),
        el("span", { class: "qt-giver qt-s" + f.seat, title: seatName(view, f.seat) }, giverMark(view, f.seat)),
      ]));
    });
    if (STARTED.indexOf(state.step) >= 0) {
      for (let i = v.face_up.length; i < VIRTUAL_HAND; i++) cards.appendChild(el("div", { class: "qt-laid", "data-box": "laid-" + vp + "-" + i }, [back()]));
    } else {
      cards.appendChild(el("div", { class: "qt-vp-wait", text: both("배분 전", "Not dealt yet") }));
    }
    const hot = lastAction && lastAction.action === "exchange" && lastAction.vp === vp;
    return el("div", { class: "qt-vp" + (hot ? " hot" : ""), "data-vp": String(vp), "data-box": "virtual-" + vp }, [
      el("div", { class: "qt-vp-name", text: both("가상 " + (vp + 1), "Virtual " + (vp + 1)) }),
      cards,
    ]);
  }

  function moment(view, previous) {
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was) return null;
    const state = view.state;
    const name = function (seat) { return seatName(view, seat); };
    if (state.comparison && !was.comparison) {
      if (state.winner == null) return both("완전 동점! 딜러가 결정합니다", "A full draw! The dealer decides");
      const by = view.result ? view.result.decided_by : { ko: "", en: "" };
      return both(name(state.winner) + " 승리!\n" + by.ko, name(state.winner) + " wins!\n" + by.en);
    }
    if (state.winner != null && was.winner == null) {
      return both(name(state.winner) + " 승리 (딜러 결정)", name(state.winner) + " wins (the dealer decided)");
    }
    if (state.seats[0].opened.length > was.seats[0].opened.length) {
      const a = state.seats[0].opened[state.seats[0].opened.length - 1];
      const b = state.seats[1].opened[state.seats[1].opened.length - 1];
      return both("공개! " + name(0) + " " + cardLabel(a).ko + " · " + name(1) + " " + cardLabel(b).ko,
                  "Open! " + name(0) + " " + cardLabel(a).en + " · " + name(1) + " " + cardLabel(b).en);
    }
    if (state.actions.length > was.actions.length) {
      const a = state.actions[state.actions.length - 1];
      const closed = state.step === "open" && was.step === "exchange";
      const tail = closed ? both(" — 교환 " + a.phase + "단계 끝", " — exchange phase " + a.phase + " over") : both("", "");
      if (a.action === "pass") return both(name(a.seat) + " 패스" + tail.ko, name(a.seat) + " passes" + tail.en);
      const given = cardLabel(a.given);
      return both(name(a.seat) + " ⇄ 가상 " + (a.vp + 1) + " · " + given.ko + " 내려놓음",
                  name(a.seat) + " ⇄ virtual " + (a.vp + 1) + " · lays down " + given.en);
    }
    for (let seat = 0; seat < 2; seat++) {
      if (state.seats[seat].mulligans > was.seats[seat].mulligans) {
        const n = state.seats[seat].mulligans;
        return both(name(seat) + " 멀리건 (" + n + "번째)", name(seat) + " takes mulligan " + n);
      }
    }
    if (state.first != null && was.first == null) {
      return both("선 플레이어: " + name(state.first), "First player: " + name(state.first));
    }
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.quattro = {
    render: function (board, view, previous) {
      const state = view.state;
      const fresh = newCards(view, previous);
      const lastAction = state.actions[state.actions.length - 1];
      const vps = el("div", { class: "qt-vps" });
      state.virtual.forEach(function (_, vp) { vps.appendChild(virtualPlayer(view, vp, fresh, lastAction)); });
      board.replaceChildren(el("div", { class: "qt" + (state.comparison ? " qt-over" : "") }, [
        el("div", { class: "qt-cands" }, [candidate(view, 0, fresh), middle(view), candidate(view, 1, fresh)]),
        vps,
      ]));
      return moment(view, previous);
    },
  };
})();
