// The phone's picture of a Tricky Gallery seat: chips, stickers left, the hand, the works on
// the table this round (with what this seat knows of them), its own submissions with their
// authenticity, its appraisals (the answer shown big, right after it comes), its gallery and
// everybody's galleries by kind. Only this seat's view arrives here; the decisions (submit,
// appraise, take) are phone.js's generic forms.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const { NAMES: KIND_NAMES } = window.GalleryKinds;

  const seenAppraisals = {};      // table -> how many appraisals were drawn, to spot a new one

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function genuineText(genuine) { return genuine ? both("진품", "genuine") : both("가품", "fake"); }

  function art(kind) {
    return el("span", { class: "tgp-art tgk-" + kind, "data-kind": kind }, [el("span", { class: "tg-shape" })]);
  }

  function workOf(view, owner, kind) {
    return both(nameOf(view, owner) + "의 " + KIND_NAMES[kind].ko, KIND_NAMES[kind].en + " of " + nameOf(view, owner));
  }

  function stat(label, value, cls) {
    return el("div", { class: "tgp-stat" + (cls ? " " + cls : "") }, [
      el("div", { class: "tgp-stat-label", text: label }),
      el("div", { class: "tgp-stat-value" }, value),
    ]);
  }

  function section(title, children, cls) {
    return el("section", { class: "tgp-section" + (cls ? " " + cls : "") }, [el("h3", { text: title })].concat(children));
  }

  function appraisalLine(view, a, big) {
    return el("div", { class: "tgp-appraisal " + (a.genuine ? "genuine" : "fake") + (big ? " big" : ""),
                       "data-work": String(a.work), "data-genuine": String(a.genuine), "data-role": "appraisal" }, [
      art(a.kind),
      el("div", { class: "tgp-appraisal-text" }, [
        el("div", { class: "tgp-appraisal-work", text: workOf(view, a.work, a.kind) }),
        el("div", { class: "tgp-appraisal-answer", text: a.genuine ? both("진품 ✓", "Genuine ✓") : both("가품 ✗", "Fake ✗") }),
      ]),
      big ? null : el("span", { class: "tgp-round" }, a.round + "R"),
    ]);
  }

  function tableWorks(view, me) {
    const state = view.state;
    if (!state.reveal) return null;
    const taken = {};
    state.chain.forEach(function (c) { taken[c.took_from] = c; });
    const known = {};
    me.appraisals.forEach(function (a) { if (a.round === state.round) known[a.work] = a.genuine; });
    const mine = me.submissions.find(function (s) { return s.round === state.round; });
    const rows = state.reveal.works.map(function (w) {
      const own = w.seat === me.seat;
      const t = taken[w.seat];
      let note = null;
      if (own && mine) note = el("span", { class: "tgp-tag " + (mine.genuine ? "genuine" : "fake"), text: genuineText(mine.genuine) });
      else if (w.seat in known) note = el("span", { class: "tgp-tag " + (known[w.seat] ? "genuine" : "fake"),
                                                  text: both("감정: " + genuineText(known[w.seat]).ko, "appraised: " + genuineText(known[w.seat]).en) });
      return el("div", { class: "tgp-work" + (t ? " taken" : "") + (own ? " own" : ""), "data-owner": String(w.seat) }, [
        art(w.kind),
        el("div", { class: "tgp-work-text" }, [
          el("div", { class: "tgp-work-owner" }, [nameOf(view, w.seat), own ? el("span", { class: "tgp-me", text: both(" (나)", " (me)") }) : null]),
          el("div", { class: "tgp-work-kind", text: KIND_NAMES[w.kind] }),
        ]),
        note,
        t ? el("span", { class: "tgp-taken", text: both(t.rank + "위 " + nameOf(view, t.seat), "#" + t.rank + " " + nameOf(view, t.seat)) }) : null,
      ]);
    });
    const a = state.auction;
    const head = a && a.winner != null
      ? both("1위 " + nameOf(view, a.winner) + (a.no_bid ? " (입찰 없음)" : " · " + a.bid + "칩"),
             "Rank 1 " + nameOf(view, a.winner) + (a.no_bid ? " (no bid)" : " · " + a.bid + " chips"))
      : both("서열 1위 경매 중", "Auction for rank 1");
    return section(both(state.round + "라운드 출품작", "Round " + state.round + " works"), [
      state.reveal.siren ? el("div", { class: "tgp-siren", text: both("사이렌: 가품 2장 이상", "Siren: two or more fakes") }) : null,
      el("div", { class: "tgp-caption", text: head }),
      state.picker != null ? el("div", { class: "tgp-caption", text: state.picker === me.seat ? both("지금 내 차례입니다", "It is my turn")
        : both("선택 중: " + nameOf(view, state.picker), "Choosing: " + nameOf(view, state.picker)) }) : null,
      el("div", { class: "tgp-works" }, rows),
    ]);
  }

  function hand(me) {
    if (!me.hand || !me.hand.length) return el("p", { class: "hint", text: both("남은 작품 없음", "No works left") });
    return el("div", { class: "tgp-hand" }, me.hand.map(function (kind) {
      return el("div", { class: "tgp-card tgk-" + kind, "data-kind": kind }, [art(kind), el("div", { class: "tgp-card-name", text: KIND_NAMES[kind] })]);
    }));
  }

  function submissions(view, me) {
    if (!me.submissions.length) return el("p", { class: "hint", text: both("아직 없음", "None yet") });
    return el("div", { class: "tgp-list" }, me.submissions.map(function (s) {
      return el("div", { class: "tgp-row", "data-round": String(s.round) }, [
        el("span", { class: "tgp-round" }, s.round + "R"),
        art(s.kind),
        el("span", { class: "tgp-row-main", text: KIND_NAMES[s.kind] }),
        el("span", { class: "tgp-tag " + (s.genuine ? "genuine" : "fake"), text: genuineText(s.genuine) }),
        el("span", { class: "tgp-row-note", text: s.taken_by == null ? both("", "") : both("→ " + nameOf(view, s.taken_by), "→ " + nameOf(view, s.taken_by)) }),
      ]);
    }));
  }

  function myGallery(view, me) {
    if (!me.gallery.length) return el("p", { class: "hint", text: both("아직 없음", "Empty") });
    return el("div", { class: "tgp-list" }, me.gallery.map(function (w) {
      const found = me.appraisals.find(function (a) { return a.round === w.round && a.work === w.from; });
      return el("div", { class: "tgp-row" }, [
        el("span", { class: "tgp-round" }, w.round + "R"),
        art(w.kind),
        el("span", { class: "tgp-row-main", text: both(KIND_NAMES[w.kind].ko + " ← " + nameOf(view, w.from), KIND_NAMES[w.kind].en + " ← " + nameOf(view, w.from)) }),
        found ? el("span", { class: "tgp-tag " + (found.genuine ? "genuine" : "fake"), text: both("감정: " + genuineText(found.genuine).ko, "appraised: " + genuineText(found.genuine).en) })
          : el("span", { class: "tgp-tag unknown", text: both("진위 모름", "unknown") }),
      ]);
    }));
  }

  function everyone(view, me) {
    const seats = view.state.seats.slice().sort(function (a, b) { return a.name_index - b.name_index; });
    return el("div", { class: "tgp-all" }, seats.map(function (s) {
      return el("div", { class: "tgp-all-row" + (s.alive ? "" : " out") + (s.seat === me.seat ? " me" : "") }, [
        el("span", { class: "tgp-all-name" }, s.name),
        s.alive ? el("span", { class: "tgp-all-works" }, s.gallery.map(function (w) { return art(w.kind); }))
          : el("span", { class: "tgp-all-out", text: both(s.eliminated_round + "R 탈락", "out R" + s.eliminated_round) }),
      ]);
    }));
  }

  function finalBox(view, me) {
    const f = view.state.final;
    if (!f) return null;
    const rank = f.ranking.indexOf(me.seat) + 1;
    const advancing = f.advancing.indexOf(me.seat) >= 0;
    const revenue = f.revenues[me.seat];
    return el("div", { class: "tgp-final" + (advancing ? " advancing" : "") }, [
      el("div", { class: "tgp-final-rank", text: both(rank + "위", "Rank " + rank) }),
      el("div", { text: revenue == null ? both("탈락", "Eliminated") : both("수익 " + revenue + "억", "Revenue " + revenue + "억") }),
      el("div", { class: "tgp-final-verdict", text: advancing ? both("진출!", "You advance!") : both("미진출", "You do not advance") }),
    ]);
  }

  function render(view, seat) {
    const state = view.state;
    const me = state.seats[seat];
    if (!me || !("hand" in me)) return null;
    const round = state.step === "over" ? both("종료", "over") : state.round + " / " + state.rounds;
    const parts = [];
    if (!me.alive) {
      const out = (view.state.eliminations || []).find(function (e) { return e.seat === seat; });
      const place = out && out.place ? out.place : null;
      parts.push(el("div", { class: "tgp-out", text: both(me.eliminated_round + "라운드 탈락: 갤러리에 가품 2장" + (place ? " · 최종 " + place + "위" : ""),
        "Eliminated in round " + me.eliminated_round + ": two fakes in the gallery" + (place ? " · final place " + place : "")) }));
    }
    parts.push(finalBox(view, me));
    parts.push(el("div", { class: "tgp-stats" }, [
      stat(both("칩", "Chips"), String(me.chips), "tgp-chips"),
      stat(both("진품 스티커", "Genuine"), String(me.stickers.genuine), "genuine"),
      stat(both("가품 스티커", "Fake"), String(me.stickers.fake), "fake"),
      stat(both("라운드", "Round"), tr(round)),
    ]));

    // The appraisals of this round first and big: the answer must be seen right away.
    const now = me.appraisals.filter(function (a) { return a.round === state.round && state.step === "chain"; });
    const seen = view.table in seenAppraisals;
    const fresh = seen && me.appraisals.length > seenAppraisals[view.table] && now.length > 0;
    seenAppraisals[view.table] = me.appraisals.length;
    if (now.length) {
      // data-now: the phone lifts this box above the decision, where the eye is.
      const box = section(both("감정 결과 (나만 봅니다)", "Appraisal results (only you)"),
        now.slice().reverse().map(function (a, i) { return appraisalLine(view, a, i === 0); }), "tgp-results" + (fresh ? " fresh" : ""));
      box.setAttribute("data-now", "appraisal");
      parts.push(box);
      if (fresh) setTimeout(function () { if (box.isConnected) box.scrollIntoView({ block: "nearest", behavior: "smooth" }); }, 0);
    }

    parts.push(tableWorks(view, me));
    parts.push(section(both("내 손패", "My hand"), [hand(me)]));
    parts.push(section(both("내 출품 (진위)", "My submissions (authenticity)"), [submissions(view, me)]));
    parts.push(section(both("내 갤러리", "My gallery"), [myGallery(view, me)]));
    const past = me.appraisals.filter(function (a) { return !(a.round === state.round && state.step === "chain"); });
    if (past.length) parts.push(section(both("지난 감정", "Earlier appraisals"), past.map(function (a) { return appraisalLine(view, a, false); })));
    parts.push(section(both("모든 갤러리", "All galleries"), [everyone(view, me)]));
    return el("div", { class: "tgp" }, parts);
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.tricky_gallery = render;
})();
