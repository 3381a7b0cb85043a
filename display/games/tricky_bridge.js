// The projector's picture of Tricky Bridge: the four islands and six bridges as a map (names on
// the islands), the two meeting rooms with their pairs, "1/2 계약 제출" per room, the six slots
// of each room with their items, the revealed contracts (who stamped what, slots won and lost),
// the bridges' contents once revealed after round 3, and at the end the scoring bridge by bridge
// with the lowest bridge highlighted and who is out.
// Only the public view arrives here: it never holds a mark before its reveal or a distribution
// before the rules reveal it, and nothing here could draw one.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const KINDS = ["steel", "brick", "paint"];
  const KIND = {
    steel: both("철근", "steel"), brick: both("벽돌", "brick"), paint: both("페인트", "paint"),
  };
  const SHORT = { steel: both("철", "Stl"), brick: both("벽", "Brk"), paint: both("페", "Pnt") };
  const ROOM = { big: both("대회의실", "Big room"), small: both("소회의실", "Small room") };

  // The map: the islands at the corners of the map's box (seat 0 top left, 1 top right, 2 bottom
  // left, 3 bottom right), the bridges drawn between their centres, and each bridge's label in a
  // lane of its own that no island and no other label reaches (tricky_bridge.css): AB above the
  // middle, CD below it, AC and BD on the left and right bridges, AD and BC where the diagonals
  // cross (side by side when both fit across, else one above the other). The map takes whatever
  // height its row has (a question of the hall under the board shortens it); the lanes keep the
  // labels apart, and off the islands, at any height.
  const CORNER = [[0, 0], [100, 0], [0, 100], [100, 100]];  // by seat, in % of the bridges' box
  const LANE = { AB: "top", CD: "bottom", AC: "left", BD: "right", AD: "middle", BC: "middle" };
  const SVG = "http://www.w3.org/2000/svg";

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function chip(kind, n, big) {
    return el("span", { class: "tb-chip tbk-" + kind + (big ? " big" : ""), "data-kind": kind }, [
      el("span", { class: "tb-chip-kind", text: SHORT[kind] }),
      n == null ? null : el("span", { class: "tb-chip-n" }, String(n)),
    ]);
  }

  function chips(counts, hideZero) {
    return el("span", { class: "tb-chips" }, KINDS.filter(function (k) { return !hideZero || counts[k]; })
      .map(function (k) { return chip(k, counts[k]); }));
  }

  function roundPills(state) {
    const pills = [];
    for (let r = 1; r <= state.rounds; r++) {
      const cls = r < state.round || state.step === "over" ? "done" : r === state.round ? "now" : "";
      pills.push(el("span", { class: "tb-pill " + cls + (r === 3 ? " reveal" : "") }, String(r)));
    }
    return el("div", { class: "tb-rounds" }, pills);
  }

  function topStrip(view) {
    const state = view.state;
    const over = state.step === "over";
    const supply = state.supply[state.round - 1];
    return el("div", { class: "tb-top" }, [
      el("div", { class: "tb-round-title", text: over ? both("최종 점수", "Final scores") : both(state.round + "라운드", "Round " + state.round) }),
      roundPills(state),
      over ? null : el("div", { class: "tb-caption", "data-role": "bridges-shown",
                               text: state.revealed_round === 3 ? both("다리: 3라운드 종료 시점", "Bridges as of round 3")
                                 : both("다리는 3라운드 뒤 공개", "Bridges shown after round 3") }),
      el("div", { class: "tb-spacer" }),
      over ? null : el("div", { class: "tb-supply", "data-role": "supply" }, [
        el("span", { class: "tb-label", text: both("자원", "Items") }),
        el("span", { class: "tb-chips" }, KINDS.filter(function (k) { return supply[k]; }).map(function (k) {
          return el("span", { class: "tb-supply-item" }, [chip(k, null, true), el("span", { class: "tb-supply-n" }, "×" + supply[k])]);
        })),
      ]),
    ]);
  }

  // -- the map -------------------------------------------------------------------------------

  function islandStatus(view, s) {
    const state = view.state;
    if (state.step === "over" && state.final) {
      return state.final.out.indexOf(s.seat) >= 0 ? el("span", { class: "tb-tag bad", text: both("탈락", "Out") })
        : el("span", { class: "tb-tag ok", text: both("진출", "Advances") });
    }
    if (state.step === "contract" && s.room) {
      return s.marked ? el("span", { class: "tb-tag ok", text: both("계약 ✓", "Contract ✓") })
        : el("span", { class: "tb-tag wait", text: ROOM[s.room] });
    }
    if (state.step === "distribute") {
      if (s.placed == null) return el("span", { class: "tb-tag dim", text: both("획득 없음", "Nothing won") });
      return s.placed ? el("span", { class: "tb-tag ok", text: both("분배 ✓", "Placed ✓") })
        : el("span", { class: "tb-tag wait", text: both("분배 중", "Placing") });
    }
    return null;
  }

  function bridgeLabel(view, b) {
    const state = view.state;
    const final = state.final ? state.final.bridges.find(function (x) { return x.id === b.id; }) : null;
    const lowest = final && final.lowest;
    const contents = final ? final.contents : b.contents;
    const points = final ? final.score : b.score ? b.score.score : null;
    const head = el("div", { class: "tb-bridge-head" }, [
      el("span", { class: "tb-bridge-id" }, b.id),
      points == null ? null : el("span", { class: "tb-bridge-score", "data-role": "score" }, tr(both(points + "점", String(points)))),
    ]);
    const empty = contents && KINDS.every(function (k) { return !contents[k]; });
    return el("div", { class: "tb-bridge-label" + (lowest ? " lowest" : "") + (contents ? "" : " hidden"), "data-bridge": b.id,
                       "data-box": "bridge-" + b.id }, [
      head,
      contents && !empty ? chips(contents, true) : null,
      empty ? el("span", { class: "tb-none", text: both("비어 있음", "empty") }) : null,
    ]);
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }

  // The bridges as lines between the islands' centres (the corners of .tb-bridges), in % so they
  // follow the map's box at any size: a rail and its planks.
  function bridgeLines(state) {
    const lines = svg("svg", { class: "tb-bridge-lines", "aria-hidden": "true" });
    state.bridges.forEach(function (b) {
      const p = CORNER[b.seats[0]];
      const q = CORNER[b.seats[1]];
      const final = state.final ? state.final.bridges.find(function (x) { return x.id === b.id; }) : null;
      const g = svg("g", { class: "tb-bridge" + (final && final.lowest ? " lowest" : "") + (b.contents || final ? " shown" : ""),
                           "data-bridge": b.id });
      const ends = { x1: p[0] + "%", y1: p[1] + "%", x2: q[0] + "%", y2: q[1] + "%" };
      g.appendChild(svg("line", Object.assign({ class: "tb-rail" }, ends)));
      g.appendChild(svg("line", Object.assign({ class: "tb-planks" }, ends)));
      lines.appendChild(g);
    });
    return el("div", { class: "tb-bridges" }, [lines]);
  }

  function map(view) {
    const state = view.state;
    const lanes = {};
    ["top", "bottom", "left", "right", "middle"].forEach(function (lane) { lanes[lane] = el("div", { class: "tb-lane " + lane }); });
    state.bridges.forEach(function (b) { lanes[LANE[b.id] || "middle"].appendChild(bridgeLabel(view, b)); });
    const islands = state.seats.map(function (s) {
      const out = state.final && state.final.out.indexOf(s.seat) >= 0;
      return el("div", { class: "tb-island at" + s.seat + " tbi-" + s.island + (out ? " out" : ""), "data-seat": String(s.seat),
                         "data-box": "island-" + s.island }, [
        el("div", { class: "tb-island-title" }, [
          el("span", { class: "tb-island-letter" }, s.island),
          el("span", { class: "tb-island-name" }, s.name),
        ]),
        islandStatus(view, s),
      ]);
    });
    return el("div", { class: "tb-map" }, [bridgeLines(state)].concat(Object.values(lanes), islands));
  }

  // -- the rooms -------------------------------------------------------------------------------

  // A slot: its number and item; once revealed, the winner's letter (filled) on a slot won, or
  // the stamps (hollow) of a slot lost because both stamped it, or a dash when nobody did.
  function slotTile(view, room, slot, kind) {
    const c = room.contract;
    let cls = "tb-slot tbk-" + kind;
    let outcome = null;
    if (c) {
      const winner = room.seats.find(function (seat, i) { return c.won[i].indexOf(slot) >= 0; });
      if (winner != null) {
        const letter = view.state.seats[winner].island;
        cls += " won tbi-" + letter;
        outcome = el("span", { class: "tb-won tbi-" + letter, "data-role": "won" }, letter);
      } else {
        cls += " lost";
        const stamps = room.seats.filter(function (seat, i) { return c.marks[i].indexOf(slot) >= 0; }).map(function (seat) {
          const letter = view.state.seats[seat].island;
          return el("span", { class: "tb-stamp tbi-" + letter }, letter);
        });
        outcome = el("span", { class: "tb-lost", "data-role": "lost" }, stamps.length ? stamps : "—");
      }
    }
    return el("div", { class: cls, "data-slot": String(slot), "data-kind": kind, "data-box": "slot-" + room.room + slot }, [
      el("span", { class: "tb-slot-no" }, String(slot)),
      // the kind's name, and its short form for a room drawn in one row of slots (a short board)
      el("span", { class: "tb-slot-kind" }, [el("span", { class: "tb-long", text: KIND[kind] }),
                                             el("span", { class: "tb-short", text: SHORT[kind] })]),
      outcome,
    ]);
  }

  function roomCard(view, room, fresh, compact) {
    const state = view.state;
    // Each player's name, and once the contracts are revealed what the player won.
    const names = room.seats.map(function (seat, i) {
      const s = state.seats[seat];
      const gains = room.contract ? room.contract.gains[i] : null;
      const nothing = gains && KINDS.every(function (k) { return !gains[k]; });
      return el("span", { class: "tb-room-name tbi-" + s.island, "data-seat": String(seat) }, [
        el("span", { class: "tb-letter" }, s.island),
        el("span", { class: "tb-room-player" }, s.name),
        gains && !nothing ? chips(gains, true) : null,
        nothing ? el("span", { class: "tb-none", text: both("획득 0", "won 0") }) : null,
      ]);
    });
    let status;
    if (room.contract) status = el("span", { class: "tb-room-status shown", text: both("계약 공개", "Revealed") });
    else if (!room.slots) status = el("span", { class: "tb-room-status", text: both("자원 놓는 중", "Laying out") });
    else status = el("span", { class: "tb-room-status", "data-role": "room-sealed",
                               text: both(room.submitted + "/2 계약 제출", room.submitted + "/2 contracts in") });
    const slots = room.slots
      ? el("div", { class: "tb-slots" }, room.slots.map(function (kind, i) { return slotTile(view, room, i + 1, kind); }))
      : el("div", { class: "tb-slots-wait", text: both("칸 배치를 기다리는 중", "Waiting for the layout") });
    return el("div", { class: "tb-room" + (room.contract ? " revealed" : "") + (fresh ? " fresh" : "") + (compact ? " compact" : ""),
                       "data-room": room.room, "data-box": "room-" + room.room }, [
      el("div", { class: "tb-room-head" }, [el("span", { class: "tb-room-title", text: ROOM[room.room] }), status]),
      el("div", { class: "tb-room-names" }, names),
      compact ? null : slots,
    ]);
  }

  function rooms(view, fresh) {
    const state = view.state;
    if (state.rooms.length) {
      return el("div", { class: "tb-rooms" }, state.rooms.map(function (room) { return roomCard(view, room, fresh.has(room.room)); }));
    }
    // Between rounds: the rooms to confirm, and the last round's contracts as a recap.
    const last = state.newest_round;
    const scheduled = state.schedule[state.round - 1];
    const pairs = scheduled.split("|").map(function (pair) {
      return pair.split("").map(function (letter) { return nameOf(view, "ABCD".indexOf(letter)); }).join(" · ");
    });
    return el("div", { class: "tb-rooms" }, [
      el("div", { class: "tb-next", "data-box": "next" }, [
        el("div", { class: "tb-label", text: both(state.round + "라운드 회의실 배정 중", "Round " + state.round + ": assigning the rooms") }),
        el("div", { class: "tb-next-line", text: both("예정 — 대회의실 " + pairs[0] + " / 소회의실 " + pairs[1],
                                                      "Scheduled — big room " + pairs[0] + " / small room " + pairs[1]) }),
      ]),
      last ? el("div", { class: "tb-label", text: both(last.round + "라운드 계약", "Round " + last.round + " contracts") }) : null,
    ].concat(last ? last.rooms.map(function (room) { return roomCard(view, room, false, true); }) : []));
  }

  // -- the end: scoring bridge by bridge ------------------------------------------------------------

  function exchangesText(x) {
    const ko = [];
    const en = [];
    if (x.paint_to_brick) { ko.push("페" + 2 * x.paint_to_brick + "→벽" + x.paint_to_brick); en.push(2 * x.paint_to_brick + " pnt→" + x.paint_to_brick + " brk"); }
    if (x.brick_to_steel) { ko.push("벽" + 2 * x.brick_to_steel + "→철" + x.brick_to_steel); en.push(2 * x.brick_to_steel + " brk→" + x.brick_to_steel + " stl"); }
    return ko.length ? both(ko.join(", "), en.join(", ")) : both("—", "—");
  }

  function scoring(view) {
    const state = view.state;
    const f = state.final;
    const head = el("div", { class: "tb-score-row head" }, [
      el("span", { text: both("다리", "Bridge") }), el("span", { text: both("섬", "Islands") }),
      el("span", { text: both("자원", "Items") }), el("span", { text: both("교환", "Exchanges") }),
      el("span", { text: both("세트", "Sets") }), el("span", { text: both("남음", "Left") }), el("span", { text: both("점수", "Score") }),
    ]);
    const rows = f.bridges.map(function (b) {
      return el("div", { class: "tb-score-row" + (b.lowest ? " lowest" : ""), "data-bridge": b.id, "data-box": "score-" + b.id }, [
        el("span", { class: "tb-score-id" }, b.id),
        el("span", { class: "tb-score-names" }, b.seats.map(function (seat) { return nameOf(view, seat); }).join(" · ")),
        chips(b.contents, false),
        el("span", { class: "tb-score-x", text: exchangesText(b.exchanges) }),
        el("span", { class: "tb-score-sets" }, String(b.sets)),
        KINDS.some(function (k) { return b.leftover[k]; }) ? chips(b.leftover, true) : el("span", { class: "tb-none" }, "—"),
        el("span", { class: "tb-score-points" }, [String(b.score), b.lowest ? el("span", { class: "tb-low", text: both(" 최저", " lowest") }) : null]),
      ]);
    });
    const names = function (list) { return list.map(function (seat) { return nameOf(view, seat); }).join(" · "); };
    const verdict = el("div", { class: "tb-verdict" }, [
      el("div", { class: "tb-verdict-out", "data-role": "out", "data-box": "out", text: both("탈락: " + names(f.out), "Out: " + names(f.out)) }),
      el("div", { class: "tb-verdict-in", "data-role": "advance", "data-box": "advance", text: both("진출: " + names(f.advance), "Advance: " + names(f.advance)) }),
    ]);
    return el("div", { class: "tb-scoring" }, [head].concat(rows, [verdict]));
  }

  // -- moments ------------------------------------------------------------------------------------

  function freshRooms(view, previous) {
    const fresh = new Set();
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was || was.round !== view.state.round) return fresh;
    view.state.rooms.forEach(function (room) {
      const before = was.rooms.find(function (r) { return r.room === room.room; });
      if (room.contract && !(before && before.contract)) fresh.add(room.room);
    });
    return fresh;
  }

  function moment(view, previous, fresh) {
    const state = view.state;
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was) return null;
    if (state.final && !was.final) {
      const low = state.final.lowest.join(", ");
      const out = state.final.out.map(function (s) { return nameOf(view, s); }).join(" · ");
      // An elimination is no success: the band is in the bad tone, never the winner's green.
      return Object.assign(both("최저 다리 " + low + " — " + out + " 탈락", "Lowest bridge " + low + " — " + out + " out"),
                           { tone: "bad", cue: "out" });
    }
    if (state.revealed_round === 3 && was.revealed_round == null) return both("3라운드 종료: 다리 공개!", "Round 3 over: the bridges revealed!");
    if (fresh.size) {
      const room = Array.from(fresh)[0];
      return both(ROOM[room].ko + " 계약 공개", ROOM[room].en + ": contracts revealed");
    }
    if (state.round !== was.round) return both(state.round + "라운드 시작", "Round " + state.round + " begins");
    return null;
  }

  function render(board, view, previous) {
    const state = view.state;
    const fresh = freshRooms(view, previous);
    const over = state.step === "over" && state.final;
    board.replaceChildren(el("div", { class: "tb" + (over ? " over" : "") }, [
      topStrip(view),
      el("div", { class: "tb-main" }, [over ? scoring(view) : map(view)]),
      over ? null : el("div", { class: "tb-side", "data-box": "rooms" }, [rooms(view, fresh)]),
    ]));
    return moment(view, previous, fresh);
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.tricky_bridge = { render: render };
})();
