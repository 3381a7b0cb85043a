// The phone's picture of a Horror Race 2 seat: its own backing (secret: only this seat's view
// carries it), the coins it has just drawn (public anyway), this round's zones and the track in
// compact form (leader first, with the cell of each character). Forms come from the decisions.
(function () {
  "use strict";
  const { el, both } = window.I18N;

  function labelOf(state, id) {
    const found = state.characters.find(function (c) { return c.id === id; });
    return found ? found.label : id;
  }

  function chip(state, id, extra) {
    return el("span", { class: "hr-chip hr-" + id + (extra || ""), "data-character": id, text: labelOf(state, id) });
  }

  // Leader first: the goal (top first), then cell 12 down to 1 (top of each stack first), then
  // the start, where the characters stand side by side.
  function standings(state) {
    const out = state.finish.map(function (id) { return { id: id, cell: "goal" }; });
    for (let cell = state.track.length - 1; cell >= 0; cell--) {
      const stack = state.track[cell].stack;
      const ids = cell === 0 ? stack : stack.slice().reverse();
      ids.forEach(function (id, i) {
        // ids run top first here, so the one a character stands on is the next one.
        out.push({ id: id, cell: cell, puddle: state.track[cell].puddle, under: cell > 0 && i < ids.length - 1 ? ids[i + 1] : null });
      });
    }
    return out;
  }

  function where(state, row) {
    if (row.cell === "goal") return both("골인", "finished");
    if (row.cell === 0) return both("출발", "start");
    const ko = row.cell + "칸" + (row.puddle ? " 웅덩이" : "");
    const en = "cell " + row.cell + (row.puddle ? " (puddle)" : "");
    return both(ko, en);
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.horror_race = function (view, seat) {
    const state = view.state;
    const me = state.seats[seat] || {};
    const backing = me.backing || [];
    const parts = [];

    parts.push(el("h3", { text: state.revealed ? both("내 응원 캐릭터", "My backing")
      : both("내 응원 캐릭터 (비밀)", "My backing (secret)") }));
    parts.push(backing.length
      ? el("div", { class: "hr-mine" }, backing.map(function (id) { return chip(state, id, " hr-big"); }))
      : el("p", { class: "hint", text: both("아직 고르지 않았습니다", "Not chosen yet") }));

    if (state.revealed && me.points != null) {
      parts.push(el("p", { class: "hr-points", text: both("내 승점 " + me.points + "점 · " + me.rank + "위",
        "My points " + me.points + " · rank " + me.rank) }));
    }

    if (state.drawn && state.drawn.seat === seat) {
      parts.push(el("h3", { text: both("내가 뽑은 코인", "Coins I drew") }));
      parts.push(el("div", { class: "hr-drawn" }, state.drawn.coins.map(function (id, i) {
        return el("span", { class: "hr-drawn-coin" }, [el("span", { class: "hint" }, String(i + 1)), chip(state, id, " hr-coin")]);
      })));
    }

    if (state.step !== "backing") {
      const head = state.ranking.length ? both("레이스 결과", "Race result")
        : both(state.round + "라운드", "Round " + state.round);
      const info = [];
      if (state.turn != null) info.push(both("차례: " + (state.turn + 1) + " " + view.seats[state.turn], "Turn: " + (state.turn + 1) + " " + view.seats[state.turn]));
      if (state.forfeit != null) info.push(both("코인포기: " + view.seats[state.forfeit], "Forfeit: " + view.seats[state.forfeit]));
      parts.push(el("h3", { text: head }));
      info.forEach(function (t) { parts.push(el("p", { class: "hr-info", text: t })); });

      const place = {};
      state.ranking.forEach(function (r) { place[r.character] = r.place; });
      const list = el("ol", { class: "hr-track-list" });
      standings(state).forEach(function (row) {
        const mine = backing.indexOf(row.id) >= 0;
        list.appendChild(el("li", { class: "hr-pos" + (mine ? " hr-backed" : ""), "data-character": row.id, "data-cell": String(row.cell) }, [
          chip(state, row.id),
          el("span", { class: "hr-where", text: where(state, row) }),
          row.under ? el("span", { class: "hr-on", text: both(labelOf(state, row.under).ko + " 위", "on " + labelOf(state, row.under).en) }) : null,
          place[row.id] ? el("span", { class: "hr-place", text: both(place[row.id] + "위", "#" + place[row.id]) }) : null,
          mine ? el("span", { class: "hr-star", "aria-label": "backed" }, "★") : null,
        ]));
      });
      parts.push(list);

      if (!state.ranking.length) {
        const zones = el("div", { class: "hr-zones" });
        state.zones.forEach(function (z) {
          const ids = Object.keys(z.counts);
          zones.appendChild(el("div", { class: "hr-zone", "data-zone": String(z.zone) }, [
            el("span", { class: "hr-zone-name", text: both(z.zone + "구역 (" + z.steps + "칸)", "Zone " + z.zone + " (" + z.steps + ")") }),
            el("span", { class: "hr-zone-coins" }, ids.length
              ? ids.map(function (id) { return el("span", { class: "hr-zone-count" }, [chip(state, id, " hr-small"), "×" + z.counts[id]]); })
              : [el("span", { class: "hint", text: both("없음", "none") })]),
          ]));
        });
        parts.push(el("h3", { text: both("이번 라운드 구역", "Zones this round") }));
        parts.push(zones);
      }
    }
    return el("div", { class: "hr-phone" }, parts);
  };
})();
