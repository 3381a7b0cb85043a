// The projector's picture of a show program (Tricky Survival, a Genius episode). Any program (a
// view with state.program) is drawn by this one picture; display.js picks it.
//
// Between matches: the evening's matches in order with their state, every player with the keys
// they hold, their points or the match that put them out, and the next match with its pairing,
// large ("다음 경기: 3차 배틀: 트리키 코인 결승 — 가람 vs 나래"). At the end: the evening's
// standings as its biggest moment, full screen, winner first and biggest.
//
// Everything is sized for the 16:9 stage in vh and the players' grid by their number (up to 12),
// so the board fits by its design at any player count, also inside the overlay's title-safe box.
//
// The evening's big moments come as the projector's moment box, as Safari's "지목" does: a
// stage's confirmed result (who took a key, who is out, the candidate), the death-match opponent
// named, the elimination. Staff put the program on screen between matches, so what changed is
// told against the last view of the program this page drew, not the view just before (a match).
(function () {
  "use strict";
  const { el, both } = window.I18N;
  // Keys in words, not emoji: a venue's machine may have no emoji font (a box would show).
  const KEY = { "1": both("열쇠 1", "key 1"), "2": both("열쇠 2", "key 2"), "3": both("열쇠 3", "key 3"),
                golden: both("황금 열쇠", "golden key") };
  const STATUS = { confirmed: both("끝", "done"), open: both("진행 중", "live"), ready: both("다음", "next"),
                   later: both("예정", "later") };
  // The grid of players by their number: [columns, rows], every card the same size.
  const GRID = [[1, 1], [1, 1], [2, 1], [3, 1], [2, 2], [3, 2], [3, 2], [4, 2], [4, 2], [3, 3], [4, 3], [4, 3], [4, 3]];
  const seen = {};  // program table -> the last state of it this page drew

  // A box of the picture that nothing else may lie on (the layout audit reads data-box).
  function boxed(node, name) { node.setAttribute("data-box", name); return node; }

  function outs(board) {
    const list = Array.isArray(board.eliminated) ? board.eliminated
      : (board.eliminated != null ? [{ player: board.eliminated, stage: null }] : []);
    const map = {};
    list.forEach(function (e) { map[e.player] = e.stage; });
    return map;
  }

  function titles(state) {
    const map = {};
    state.planned.forEach(function (p) { map[p.key] = p.title; });
    state.stages.forEach(function (s) { map[s.key] = s.title; });
    return map;
  }

  // "1차 배틀: 트리키 갤러리" -> "1차 배틀": enough to say where a player went out, on a card.
  function short(title) {
    const cut = function (text) { const at = text.indexOf(":"); return at > 0 ? text.slice(0, at) : text; };
    return both(cut(title.ko || ""), cut(title.en || ""));
  }

  function names(state, players) {
    return players.map(function (p) { return state.names[p]; });
  }

  function pairing(state, players) {
    if (players.length === state.names.length && players.length > 2) {
      return both("출연자 전원 " + players.length + "명", "All " + players.length + " players");
    }
    const list = names(state, players);
    const text = list.length === 2 ? list[0] + " vs " + list[1] : list.join(" · ");
    return both(text, text);
  }

  // The numbered keys as one chip ("열쇠 1·2": each stage won adds the next), the golden key apart.
  function keyChips(keys) {
    const numbered = (keys || []).filter(function (k) { return k !== "golden"; });
    const golden = (keys || []).indexOf("golden") >= 0;
    return el("span", { class: "pg-keys", "data-keys": (keys || []).join(" ") }, [
      numbered.length ? el("span", { class: "pg-key", text: both("열쇠 " + numbered.join("·"), (numbered.length > 1 ? "keys " : "key ") + numbered.join("·")) }) : null,
      golden ? el("span", { class: "pg-key golden", text: KEY.golden }) : null,
    ]);
  }

  // -- between matches -------------------------------------------------------------------------

  function stagesList(state) {
    return el("div", { class: "pg-stages panel", "data-role": "stages", "data-box": "stages" }, state.planned.map(function (p) {
      return el("div", { class: "pg-stage pg-" + p.status, "data-stage": p.key, "data-box": "stage-" + p.key }, [
        el("span", { class: "pg-mark" }),
        el("span", { class: "pg-stage-title", text: p.title }),
        el("span", { class: "pg-stage-status", text: STATUS[p.status] }),
      ]);
    }));
  }

  function playerCard(state, board, i, out, stageNames, up) {
    const gone = Object.prototype.hasOwnProperty.call(out, i);
    const points = board.points ? board.points[i] : null;
    const guest = (board.guests || []).indexOf(i) >= 0;
    const flags = [];
    if (gone) {
      const where = out[i] && stageNames[out[i]] ? short(stageNames[out[i]]) : null;
      flags.push(el("span", { class: "pg-tag bad", "data-role": "out",
                              text: where ? both(where.ko + " 탈락", "out in " + where.en) : both("탈락", "out") }));
    }
    if (board.candidate === i && !gone) flags.push(el("span", { class: "pg-tag bad", text: both("탈락 후보", "candidate") }));
    if (board.opponent === i && !gone) flags.push(el("span", { class: "pg-tag warn", text: both("지목된 상대", "named") }));
    if (guest) flags.push(el("span", { class: "pg-tag dim", text: both("게스트", "guest") }));
    return el("div", { class: "pg-player" + (gone ? " pg-out" : "") + (board.candidate === i ? " pg-candidate" : "")
                       + (up.indexOf(i) >= 0 ? " pg-up" : ""),
                       "data-player": String(i), "data-box": "player-" + i }, [
      el("div", { class: "pg-player-head", "data-box": "player-head-" + i }, [
        el("span", { class: "pg-name" }, state.names[i]),
        points != null ? el("span", { class: "pg-points", "data-role": "points",
                                      text: both(points + "점", points + " pts") }) : null,
      ]),
      (board.keys || {})[i] ? boxed(keyChips(board.keys[i]), "player-keys-" + i) : null,
      flags.length ? el("div", { class: "pg-flags", "data-box": "player-flags-" + i }, flags) : null,
    ]);
  }

  function playersGrid(state, board) {
    const out = outs(board);
    const stageNames = titles(state);
    const n = state.names.length;
    const grid = GRID[Math.min(n, GRID.length - 1)];
    const cols = n > 12 ? Math.ceil(n / 3) : grid[0];
    const rows = Math.ceil(n / cols);
    // Who plays next (when not everyone does) stands out on the board as in the band below.
    const up = state.next.length && state.next[0].players.length < n ? state.next[0].players : [];
    const node = el("div", { class: "pg-players", "data-role": "players", "data-cols": String(cols), "data-rows": String(rows) },
      state.names.map(function (name, i) { return playerCard(state, board, i, out, stageNames, up); }));
    // Through the CSSOM: the pages' Content-Security-Policy refuses style attributes.
    node.style.setProperty("--cols", String(cols));
    node.style.setProperty("--rows", String(rows));
    return node;
  }

  // What comes next, large: the next match and its pairing (the matches ready after it are
  // marked in the list); else the match being played; else what the evening waits for (a tie
  // the dealer breaks, the candidate naming an opponent).
  function upNext(state, board) {
    let label = null;
    let title = null;
    let players = null;
    let waiting = null;
    const running = state.stages.filter(function (s) { return s.status === "open"; });
    if (state.next.length) {
      label = both("다음 경기", "Next match");
      title = state.next[0].title;
      players = state.next[0].players;
    } else if (running.length) {
      label = both("진행 중", "Now playing");
      title = running[0].title;
      players = running[0].players;
    } else if ((board.tied || []).length) {
      waiting = both("최저 점수 동점: " + names(state, board.tied).join(" · ") + " — 딜러가 탈락 후보를 정합니다",
                     "Tied for the lowest: " + names(state, board.tied).join(" · ") + " — the dealer picks the candidate");
    } else if (board.candidate != null && board.opponent == null) {
      const who = state.names[board.candidate];
      waiting = both("탈락 후보 " + who + ": 데스 매치 상대를 지목하는 중…", "Candidate " + who + " is naming the death-match opponent…");
    }
    if (waiting) return el("div", { class: "pg-next waiting", "data-role": "next", "data-box": "next" }, [el("div", { class: "pg-next-wait", text: waiting })]);
    if (!title) return null;
    const size = players.length <= 2 ? "two" : players.length <= 5 || players.length === state.names.length ? "few" : "many";
    return el("div", { class: "pg-next", "data-role": "next", "data-box": "next" }, [
      el("div", { class: "pg-next-head" }, [
        el("span", { class: "pg-next-label", text: label }),
        el("span", { class: "pg-next-title", "data-role": "next-title", text: title }),
      ]),
      el("div", { class: "pg-pairing " + size, "data-role": "pairing", text: pairing(state, players) }),
    ]);
  }

  // -- the end of the evening -------------------------------------------------------------------

  function placeText(standings, s) {
    return I18N.place(s.rank, I18N.sharedIn(standings, s.rank));
  }

  function finalView(state) {
    const final = state.final;
    const details = final.details || {};
    const board = state.board || {};
    const keys = details.keys || board.keys || {};
    const out = details.eliminated != null ? details.eliminated : (typeof board.eliminated === "number" ? board.eliminated : null);
    const standings = final.standings;
    function facts(s, big) {
      const parts = [];
      if (s.score != null) parts.push(el("span", { class: "pg-score", text: both(s.score + "점", s.score + " pts") }));
      const own = (keys[s.seat] || []).filter(function (k) { return k !== "golden"; });
      if (own.length) parts.push(keyChips(own));
      // The golden key goes with the win (Survival rule 3), never in the event match (rule 4).
      if (details.golden_key === s.seat) parts.push(el("span", { class: "pg-golden", "data-role": "golden-key", text: KEY.golden }));
      if (out === s.seat) parts.push(el("span", { class: "pg-tag bad", "data-role": "eliminated", text: both("탈락", "Eliminated") }));
      if ((board.guests || []).indexOf(s.seat) >= 0) parts.push(el("span", { class: "pg-tag dim", text: both("게스트", "guest") }));
      return el("div", { class: "pg-facts" + (big ? " big" : "") }, parts);
    }
    function podium(s, i) {
      const winner = final.winner === s.seat;
      return el("div", { class: "pg-podium" + (i === 0 ? " first" : "") + (winner ? " pg-winner" : "") + (out === s.seat ? " pg-out" : ""),
                         "data-place": String(i + 1), "data-seat": String(s.seat), "data-role": winner ? "winner" : null,
                         "data-box": "podium-" + (i + 1) }, [
        el("div", { class: "pg-podium-place", "data-box": "podium-place-" + (i + 1) }, [
          el("span", { class: "pg-place", text: placeText(standings, s) }),
          winner ? el("span", { class: "pg-champion", text: both("우승", "Winner") }) : null,
        ]),
        el("div", { class: "pg-podium-name", "data-box": "podium-name-" + (i + 1) }, state.names[s.seat]),
        boxed(facts(s, i === 0), "podium-facts-" + (i + 1)),
      ]);
    }
    const top = standings.slice(0, Math.min(3, standings.length));
    const rest = standings.slice(top.length);
    const rows = rest.map(function (s, j) {
      const i = top.length + j;
      return el("div", { class: "pg-rank" + (out === s.seat ? " pg-out" : ""), "data-place": String(i + 1), "data-seat": String(s.seat),
                         "data-box": "rank-" + (i + 1) }, [
        el("span", { class: "pg-place", text: placeText(standings, s) }),
        el("span", { class: "pg-rank-name" }, state.names[s.seat]),
        facts(s, false),
      ]);
    });
    const node = el("div", { class: "pg-final", "data-role": "final-standings", "data-rest": String(rest.length) }, [
      el("div", { class: "pg-final-head", "data-box": "final-head", text: both("최종 순위", "Final standings") }),
      el("div", { class: "pg-final-body" }, [
        el("div", { class: "pg-podiums" }, top.map(podium)),
        rest.length ? el("div", { class: "pg-ranks" }, rows) : null,
      ]),
    ]);
    node.style.setProperty("--rest", String(Math.max(rest.length, 1)));
    return node;
  }

  // -- the big moments ------------------------------------------------------------------------

  function keysOf(board) { return board.keys || {}; }

  function gained(before, now) {
    // key -> the players who took it since `before`, in player order
    const out = {};
    Object.keys(now).sort(function (a, b) { return Number(a) - Number(b); }).forEach(function (p) {
      (now[p] || []).forEach(function (k) {
        if ((before[p] || []).indexOf(k) < 0) (out[k] = out[k] || []).push(Number(p));
      });
    });
    return out;
  }

  function line(ko, en, tone) { return Object.assign(both(ko, en), { tone: tone || null }); }

  function moment(view, was) {
    const state = view.state;
    const board = state.board || {};
    const before = was.board || {};
    const list = function (players) { return names(state, players).join(" · "); };
    // The Genius elimination: the death match confirmed (the evening's end comes with it).
    if (typeof board.eliminated === "number" && typeof before.eliminated !== "number") {
      const who = state.names[board.eliminated];
      const duel = state.stages.find(function (s) { return s.status === "confirmed" && s.order && s.order[s.order.length - 1] === board.eliminated
        && !was.stages.some(function (w) { return w.key === s.key && w.status === "confirmed"; }); });
      return { ko: who + " 탈락", en: who + " is eliminated", cue: "out", tone: "bad", band: false, hold: 6000,
               lines: duel ? [line(duel.title.ko + " 패배", "Lost " + duel.title.en)] : [] };
    }
    if (state.final && !was.final) {
      const winner = state.final.winner;
      const golden = (state.final.details || {}).golden_key;
      if (winner == null) return Object.assign(both("최종 순위 발표", "The final standings"), { cue: "win" });
      return Object.assign(golden === winner ? both("우승 " + state.names[winner] + " · 황금 열쇠!", state.names[winner] + " wins the golden key!")
        : both("우승 " + state.names[winner] + "!", state.names[winner] + " wins!"), { cue: "win" });
    }
    if (board.opponent != null && before.opponent == null) {
      const by = board.candidate != null ? state.names[board.candidate] : "";
      const next = state.next[0];
      return { ko: by + " → " + state.names[board.opponent] + " 지목!", en: by + " names " + state.names[board.opponent] + "!",
               cue: "reveal", hold: 5000,
               lines: next ? [line(next.title.ko + ": " + pairing(state, next.players).ko, next.title.en + ": " + pairing(state, next.players).en)] : [] };
    }
    const done = state.stages.filter(function (s) {
      return s.status === "confirmed" && !was.stages.some(function (w) { return w.key === s.key && w.status === "confirmed"; });
    });
    if (done.length) {
      const lines = [];
      const got = gained(keysOf(before), keysOf(board));
      Object.keys(got).sort().forEach(function (k) {
        const key = KEY[k] || both(k, k);
        lines.push(line(key.ko + ": " + list(got[k]), key.en + ": " + list(got[k]), "good"));
      });
      const outNow = outs(board);
      const outBefore = outs(before);
      const fresh = Object.keys(outNow).filter(function (p) { return !Object.prototype.hasOwnProperty.call(outBefore, p); })
        .map(Number);
      if (fresh.length) lines.push(line("탈락: " + list(fresh), "Out: " + list(fresh), "bad"));
      if (board.candidate != null && before.candidate == null) {
        lines.push(line("탈락 후보: " + state.names[board.candidate], "Candidate: " + state.names[board.candidate], "bad"));
      } else if ((board.tied || []).length && !(before.tied || []).length) {
        lines.push(line("최저 점수 동점: " + list(board.tied), "Tied for the lowest: " + list(board.tied), "bad"));
      }
      // Two stages confirmed in one update (Bridge, then Safari at once): one moment names both,
      // each with its winner, never one's title over the other's content.
      done.slice().reverse().forEach(function (s) {
        if ((lines.length && done.length === 1) || !s.order || !s.order.length) return;
        const first = state.names[s.order[0]];
        const what = s.order.length === 2 ? both("승리: " + first, "Won: " + first) : both("1위: " + first, "First: " + first);
        lines.unshift(done.length > 1 ? line(s.title.ko + " " + what.ko, s.title.en + ": " + what.en, "good")
          : line(what.ko, what.en, "good"));
      });
      const titles = both(done.map(function (s) { return s.title.ko; }).join(" · "), done.map(function (s) { return s.title.en; }).join(" · "));
      return { ko: titles.ko + " 결과", en: titles.en + ": the result" + (done.length > 1 ? "s" : ""), cue: fresh.length ? "out" : "win",
               band: false, hold: 6500 + 2000 * (done.length - 1), lines: lines };
    }
    if (board.candidate != null && before.candidate == null) {
      return Object.assign(both("탈락 후보: " + state.names[board.candidate], "Candidate: " + state.names[board.candidate]),
                           { tone: "bad", cue: "out" });
    }
    return null;
  }

  const program = {
    render: function (stage, view) {
      const state = view.state;
      const board = state.board || {};
      const was = seen[view.table];
      seen[view.table] = state;
      stage.replaceChildren(state.final ? finalView(state)
        // A short evening (up to three matches) lists them in a row above the players.
        : el("div", { class: "pg" + (state.planned.length <= 3 ? " pg-short" : ""), "data-players": String(state.names.length) },
             [stagesList(state), playersGrid(state, board), upNext(state, board)]));
      return was ? moment(view, was) : null;
    },
  };

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.program = program;
})();
