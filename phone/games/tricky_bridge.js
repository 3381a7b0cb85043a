// The phone's picture of a Tricky Bridge seat: its island, its room this round with the six slots
// and their items (its own stamps before the reveal; slots won and lost after), what it still has
// to place, its three bridges with what it knows lies there, the score of that and the score if
// everything still to place went there, its gains round by round, and the bridges made public.
// Only this seat's view arrives here: a shared bridge shows what this seat placed (plus what a
// reveal made public), never the other island's placements. The decisions (the contract, the
// distribution) are phone.js's generic forms.
(function () {
  "use strict";
  const { el, both } = window.I18N;

  const KINDS = ["steel", "brick", "paint"];
  const KIND = { steel: both("철근", "steel"), brick: both("벽돌", "brick"), paint: both("페인트", "paint") };
  const SHORT = { steel: both("철", "Stl"), brick: both("벽", "Brk"), paint: both("페", "Pnt") };
  const ROOM = { big: both("대회의실", "big room"), small: both("소회의실", "small room") };

  function chip(kind, n) {
    return el("span", { class: "tbp-chip tbk-" + kind, "data-kind": kind }, [
      el("span", { text: SHORT[kind] }), n == null ? null : el("span", {}, String(n)),
    ]);
  }

  function chips(counts) {
    const shown = KINDS.filter(function (k) { return counts[k]; });
    if (!shown.length) return el("span", { class: "tbp-none", text: both("없음", "none") });
    return el("span", { class: "tbp-chips" }, shown.map(function (k) { return chip(k, counts[k]); }));
  }

  function who(state, seat) {
    const s = state.seats[seat];
    return s.name + " (" + s.island + ")";
  }

  function section(title, children, cls) {
    return el("section", { class: "tbp-section" + (cls ? " " + cls : "") }, [el("h3", { text: title })].concat(children));
  }

  function exchangesText(x) {
    const ko = [];
    const en = [];
    if (x.paint_to_brick) { ko.push("페인트 " + 2 * x.paint_to_brick + "→벽돌 " + x.paint_to_brick); en.push(2 * x.paint_to_brick + " paint → " + x.paint_to_brick + " brick"); }
    if (x.brick_to_steel) { ko.push("벽돌 " + 2 * x.brick_to_steel + "→철근 " + x.brick_to_steel); en.push(2 * x.brick_to_steel + " brick → " + x.brick_to_steel + " steel"); }
    return ko.length ? both("교환: " + ko.join(", "), "exchanges: " + en.join(", ")) : null;
  }

  function header(view, me) {
    const state = view.state;
    const round = state.step === "over" ? both("종료", "over") : both(state.round + " / " + state.rounds + "라운드", "round " + state.round + " / " + state.rounds);
    return el("div", { class: "tbp-head tbi-" + me.island }, [
      el("div", { class: "tbp-isle" }, me.island),
      el("div", { class: "tbp-head-text" }, [
        el("div", { class: "tbp-head-title", text: both(me.island + "섬 · 갤러리 " + me.gallery_rank + "위", "Island " + me.island + " · Gallery rank " + me.gallery_rank) }),
        el("div", { class: "tbp-head-sub", text: round }),
      ]),
    ]);
  }

  function verdict(view, me) {
    const f = view.state.final;
    if (!f) return null;
    const out = f.out.indexOf(me.seat) >= 0;
    const rank = f.ranking.indexOf(me.seat) + 1;
    return el("div", { class: "tbp-verdict " + (out ? "out" : "in"), "data-role": "verdict" }, [
      el("div", { class: "tbp-verdict-big", text: out ? both("탈락", "Out") : both("진출! 두 번째 열쇠", "You advance! Second key") }),
      el("div", { text: both("최저 다리 " + f.lowest.join(", ") + " (" + f.lowest_score + "점) · " + rank + "위",
                             "Lowest bridge " + f.lowest.join(", ") + " (" + f.lowest_score + ") · rank " + rank) }),
    ]);
  }

  // The seat's room this round: the six slots, its own stamps before the reveal, the outcome after.
  function table(view, me) {
    const state = view.state;
    const room = state.rooms.find(function (r) { return r.seats.indexOf(me.seat) >= 0; });
    if (!room) return null;
    const partner = room.seats.find(function (s) { return s !== me.seat; });
    const mine = room.seats.indexOf(me.seat);
    const c = room.contract;
    const marks = c ? c.marks[mine] : (me.my_marks || []);
    const tiles = room.slots ? room.slots.map(function (kind, i) {
      const slot = i + 1;
      let cls = "tbp-slot tbk-" + kind + (marks.indexOf(slot) >= 0 ? " marked" : "");
      let note = marks.indexOf(slot) >= 0 ? el("span", { class: "tbp-slot-note", text: both("내 도장", "my stamp") }) : null;
      if (c) {
        if (c.won[mine].indexOf(slot) >= 0) { cls += " mine"; note = el("span", { class: "tbp-slot-note", text: both("획득 ✓", "won ✓") }); }
        else if (c.won[1 - mine].indexOf(slot) >= 0) { cls += " theirs"; note = el("span", { class: "tbp-slot-note", text: both(state.seats[partner].name, state.seats[partner].name) }); }
        else { cls += " lost"; note = el("span", { class: "tbp-slot-note", text: both("소멸", "lost") }); }
      }
      return el("div", { class: cls, "data-slot": String(slot) }, [
        el("span", { class: "tbp-slot-no" }, String(slot)),
        el("span", { class: "tbp-slot-kind", text: KIND[kind] }),
        note,
      ]);
    }) : [el("p", { class: "hint", text: both("자원을 놓는 중입니다", "The items are being laid out") })];
    const status = c ? both("계약 공개됨", "contracts revealed")
      : me.marked ? both("내 계약 제출됨 · 상대를 기다리는 중", "my contract is in · waiting for the other")
        : both("협상 후 칸 3개에 도장", "negotiate, then stamp 3 slots");
    return section(both(ROOM[room.room].ko + " · 상대 " + who(state, partner), ROOM[room.room].en + " · with " + who(state, partner)), [
      el("div", { class: "tbp-caption", text: status }),
      el("div", { class: "tbp-slots" }, tiles),
    ]);
  }

  function toPlace(me) {
    if (!me.to_place.length) return null;
    return section(both("놓아야 할 자원 (모두 놓아야 합니다)", "To place (every item must go on a bridge)"), [
      el("div", { class: "tbp-items" }, me.to_place.map(function (item) {
        return el("span", { class: "tbp-item tbk-" + item.kind }, [
          el("span", { class: "tbp-slot-no" }, item.slot + ""), el("span", { text: KIND[item.kind] }),
        ]);
      })),
      el("div", { class: "hint", text: both("위 양식에서 자원마다 다리를 고르세요", "Pick a bridge for each item in the form above") }),
    ], "tbp-place");
  }

  function myBridges(view, me) {
    const state = view.state;
    const note = state.step === "over" ? both("최종: 양쪽 섬이 놓은 것 모두", "Final: everything both islands placed")
      : state.revealed_round === 3 ? both("3라운드 공개분 + 그 뒤 내가 놓은 것 (상대의 4라운드 이후 배치는 비공개)",
                                         "As revealed after round 3 + what I placed since (the other island's later placements are hidden)")
        : both("내가 놓은 것만 보입니다 (상대 섬의 배치는 3라운드 뒤 공개)", "Only what I placed (the other island's share shows after round 3)");
    const cards = me.my_bridges.map(function (b) {
      const s = b.score;
      const x = exchangesText(s.exchanges);
      const low = state.final && state.final.lowest.indexOf(b.bridge) >= 0;
      return el("div", { class: "tbp-bridge" + (low ? " lowest" : ""), "data-bridge": b.bridge }, [
        el("div", { class: "tbp-bridge-head" }, [
          el("span", { class: "tbp-bridge-id" }, b.bridge),
          el("span", { class: "tbp-bridge-to", text: both("↔ " + who(state, b.other), "↔ " + who(state, b.other)) }),
          el("span", { class: "tbp-bridge-score", "data-role": "score", text: both(s.score + "점", s.score + " pts") }),
        ]),
        el("div", { class: "tbp-bridge-line" }, [chips(b.known),
          el("span", { class: "tbp-sub", text: both("세트 " + s.sets, s.sets + " sets") })]),
        x ? el("div", { class: "tbp-sub", text: x }) : null,
        el("div", { class: "tbp-sub" }, [el("span", { text: both("내가 놓은 것 ", "placed by me ") }), chips(b.mine)]),
        b.if_all ? el("div", { class: "tbp-ifall", "data-role": "if-all",
                               text: both("얻은 것을 모두 여기 놓으면 → " + b.if_all.score + "점", "Everything here → " + b.if_all.score + " pts") }) : null,
        low ? el("div", { class: "tbp-low", text: both("최저 다리", "Lowest bridge") }) : null,
      ]);
    });
    return section(both("내 다리", "My bridges"), [el("div", { class: "tbp-caption", text: note })].concat(cards));
  }

  function gains(me) {
    if (!me.gains.length) return null;
    return section(both("라운드별 획득", "Gained per round"), me.gains.map(function (g) {
      return el("div", { class: "tbp-row" }, [el("span", { class: "tbp-round" }, g.round + "R"), chips(g)]);
    }).concat([el("div", { class: "tbp-row total" }, [el("span", { class: "tbp-round", text: both("합계", "Total") }), chips(me.gained)])]));
  }

  function publicBridges(view) {
    const state = view.state;
    const list = state.final ? state.final.bridges : state.bridges.filter(function (b) { return b.contents; });
    if (!list.length) return null;
    const title = state.final ? both("모든 다리 (최종)", "Every bridge (final)") : both("모든 다리 (3라운드 공개)", "Every bridge (revealed after round 3)");
    return section(title, list.map(function (b) {
      const contents = b.contents;
      const points = state.final ? b.score : b.score.score;
      return el("div", { class: "tbp-row" + (b.lowest ? " lowest" : ""), "data-bridge": b.id }, [
        el("span", { class: "tbp-round" }, b.id), chips(contents),
        el("span", { class: "tbp-row-score", text: both(points + "점", points + " pts") }),
      ]);
    }));
  }

  function render(view, seat) {
    const state = view.state;
    const me = state.seats[seat];
    if (!me || !("my_bridges" in me)) return null;
    return el("div", { class: "tbp" }, [
      verdict(view, me),
      header(view, me),
      toPlace(me),
      table(view, me),
      myBridges(view, me),
      gains(me),
      publicBridges(view),
    ]);
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.tricky_bridge = render;
})();
