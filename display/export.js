// The exported evening (referee export-show, referee/server/export.py), opened from disk: no
// server, no network. window.EXPORTED (data/show.js) holds the show's public frames: each
// table's story as the projector showed it (referee/table/replay.py), and the whole evening's
// order. This page lists the evening (the final standings, the program's stages with their
// results, every match, each player's own sealed record) and plays a story frame by frame or
// reveal by reveal on the projector's own stage: display.js draws each frame as it would a live
// payload, so the keepsake shows what the room saw, with the same pictures.
//
// Keys while a story plays: ← → a frame, Shift+← → (or PageUp/PageDown) a reveal, Home/End,
// Space plays or pauses, Esc goes back to the list; L switches the language (display.js).
(function () {
  "use strict";
  const { el, tr, both, inLang } = window.I18N;
  const DATA = window.EXPORTED;
  const $ = function (id) { return document.getElementById(id); };
  const PACE = 3000;  // ms a frame stays while it plays (the console's default pace)

  const STATUS = { ready: both("준비", "Ready"), live: both("진행 중", "Live"), over: both("결과 나옴", "Result in"),
                   done: both("종료", "Closed") };

  function titleOf(table) { return table.stage && table.stage.title ? table.stage.title : table.title; }

  function when(t, withDate) {
    const date = new Date(t * 1000);
    const day = withDate ? date.toLocaleDateString(I18N.lang === "en" ? "en-US" : "ko-KR",
                                                   { year: "numeric", month: "long", day: "numeric" }) + " " : "";
    return day + I18N.clockTime(date);
  }

  // -- the list of the evening -----------------------------------------------------------------

  function outs(result) {
    const gone = result && result.details ? result.details.eliminated : null;
    const list = gone == null ? [] : [].concat(gone);
    return list.map(function (e) { return typeof e === "object" && e ? e.player : e; });
  }

  // A result as ranks and names (every game's result has standings: seat and rank).
  function ranks(result, seats, role) {
    const out = outs(result);
    // By rank (a game lists its standings in its own order), ties in the game's order.
    const ranked = result.standings.map(function (s, i) { return { s: s, i: i }; })
      .sort(function (a, b) { return a.s.rank - b.s.rank || a.i - b.i; }).map(function (x) { return x.s; });
    return el("ol", { class: "ev-ranks", "data-role": role }, ranked.map(function (s) {
      const winner = result.winner === s.seat || (result.winner == null && s.rank === 1 && role === "standings");
      return el("li", { class: "ev-rank" + (winner ? " first" : ""), "data-seat": String(s.seat), "data-rank": String(s.rank) }, [
        el("span", { class: "ev-rank-n", text: I18N.place(s.rank, I18N.sharedIn(result.standings, s.rank)) }),
        el("span", { class: "ev-rank-name" }, seats[s.seat]),
        result.winner === s.seat ? el("span", { class: "ev-tag win", text: both("우승", "Winner") }) : null,
        out.indexOf(s.seat) >= 0 ? el("span", { class: "ev-tag out", text: both("탈락", "Out") }) : null,
      ]);
    }));
  }

  function watchButton(which, label) {
    return el("button", { type: "button", class: "ev-watch", "data-watch": String(which),
                          onclick: function () { location.hash = "watch=" + which; } }, label || both("▶ 다시 보기", "▶ Replay"));
  }

  function tableCard(table, n) {
    const count = table.frames.length;
    return el("li", { class: "ev-match", "data-table": table.id }, [
      el("div", { class: "ev-match-head" }, [
        el("strong", { class: "ev-match-title", text: titleOf(table) }),
        el("span", { class: "ev-status", "data-status": table.status, text: STATUS[table.status] || table.status }),
      ]),
      el("div", { class: "ev-players" }, table.seats.join(" · ")),
      table.result ? ranks(table.result, table.seats, "result") : null,
      table.result && table.result.decided_by ? el("p", { class: "hint", text: table.result.decided_by }) : null,
      !table.result && table.status === "done" && count ? el("p", { class: "hint", text: both("결과 없이 닫혔습니다", "Closed without a result") }) : null,
      count ? watchButton(n, both("▶ 다시 보기 (장면 " + count + "개)", "▶ Replay (" + count + " frames)"))
        : el("p", { class: "hint", text: both("시작하지 않은 테이블입니다", "Never started") }),
    ]);
  }

  function program() {
    const n = DATA.tables.findIndex(function (t) { return t.id === DATA.program; });
    return n < 0 ? null : { n: n, table: DATA.tables[n] };
  }

  // The program's stages in order, each with its result and its match.
  function stagesCard(prog) {
    const last = prog.table.frames[prog.table.frames.length - 1];
    const state = last ? last.view.state : null;
    if (!state || !state.planned) return null;
    const opened = {};
    (state.stages || []).forEach(function (s) { opened[s.key] = s; });
    return el("section", { class: "ev-card", "data-role": "stages" }, [
      el("h2", { text: both("프로그램", "The program") }),
      el("ol", { class: "ev-stages" }, state.planned.map(function (p) {
        const stage = opened[p.key];
        const n = DATA.tables.findIndex(function (t) { return t.id === DATA.stages[p.key]; });
        const order = stage && stage.order ? stage.order.map(function (player) { return state.names[player]; }) : [];
        return el("li", { class: "ev-stage", "data-stage": p.key, "data-status": p.status }, [
          el("strong", { text: p.title }),
          stage ? el("div", { class: "ev-players" }, stage.players.map(function (player) { return state.names[player]; }).join(" · ")) : null,
          order.length ? el("div", { class: "ev-order", text: both("결과: " + order.join(" › "), "Result: " + order.join(" › ")) }) : null,
          stage && stage.decided_by ? el("p", { class: "hint", text: stage.decided_by }) : null,
          !stage ? el("p", { class: "hint", text: both("열리지 않았습니다", "Not played") }) : null,
          n >= 0 && DATA.tables[n].frames.length ? watchButton(n) : null,
        ]);
      })),
    ]);
  }

  function standingsCard(prog) {
    const result = prog && prog.table.result;
    if (!result) return null;
    return el("section", { class: "ev-card ev-final", "data-role": "final" }, [
      el("h2", { text: both("최종 순위", "Final standings") }),
      ranks(result, prog.table.seats, "standings"),
      result.decided_by ? el("p", { class: "hint", text: result.decided_by }) : null,
    ]);
  }

  function playersCard() {
    if (!DATA.ended) {
      return el("section", { class: "ev-card ev-sealed", "data-role": "no-secrets" }, [
        el("h2", { text: both("선수별 기록", "Each player's own record") }),
        el("p", { text: both("쇼가 끝나기 전에 내보낸 기록이라 선수의 비밀 정보(각자의 선택)는 들어 있지 않습니다. 쇼가 끝난 뒤에 다시 내보내세요.",
                             "Exported before the show ended: no player's secrets (their own choices) are in it. Export again once the show is over.") }),
      ]);
    }
    return el("section", { class: "ev-card", "data-role": "players" }, [
      el("h2", { text: both("선수별 기록", "Each player's own record") }),
      el("p", { class: "hint", text: both("각자의 선택을 라운드별로 봅니다. 자기 카드의 QR 링크로만 열립니다.",
                                          "Each player's choices, round by round. Opens only with that player's card link.") }),
      el("ul", { class: "ev-people" }, DATA.players.map(function (p) {
        return el("li", {}, el("a", { href: p.page, "data-player": String(p.player) }, p.name));
      })),
    ]);
  }

  function overview() {
    const prog = program();
    const matches = DATA.tables.map(function (t, n) { return { t: t, n: n }; })
      .filter(function (x) { return !x.t.program; });
    const head = el("header", { class: "ev-head" }, [
      el("h1", { class: "ev-show" }, DATA.show.name),
      el("p", { class: "ev-sub", text: both("쇼 기록 · " + when(DATA.exported, true) + "에 내보냄",
                                            "The evening's record · exported " + when(DATA.exported, true)) }),
      DATA.evening.length ? el("div", { class: "actions" }, [
        watchButton("evening", both("▶ 저녁 전체 다시 보기", "▶ Replay the whole evening")),
        prog && prog.table.frames.length ? watchButton(prog.n, both("▶ 프로그램 보드", "▶ The program board")) : null,
      ]) : null,
    ]);
    const matchesCard = el("section", { class: "ev-card", "data-role": "matches" }, [
      el("h2", { text: both("경기", "Matches") }),
      matches.length ? el("ol", { class: "ev-matches" }, matches.map(function (x) { return tableCard(x.t, x.n); }))
        : el("p", { class: "hint", text: both("경기가 없습니다", "No matches") }),
    ]);
    // With a program: its standings and stages beside the matches; without: the matches first.
    const columns = prog ? [[standingsCard(prog), stagesCard(prog)], [matchesCard, playersCard()]]
      : [[matchesCard], [playersCard()]];
    $("evening").replaceChildren(head, el("div", { class: "ev-grid" }, columns.map(function (cards) {
      return el("div", { class: "ev-col" }, cards);
    })));
  }

  // -- the projector's stage, frame by frame -------------------------------------------------

  const viewer = { refs: null, pos: 0, label: null, timer: null };
  let seq = 0;  // each drawing is newer than the last: a correction shows again when stepped to

  function frameAt(ref) { return DATA.tables[ref[0]].frames[ref[1]]; }

  // The frame as the projector's socket would bring it (server/replaying.py, Replays.payload).
  function payloadOf(ref) {
    const frame = frameAt(ref);
    seq += 1;
    const view = Object.assign({}, frame.view, { correction: frame.correction ? { v: seq, what: frame.correction } : null });
    return { show: DATA.show, table: view, version: seq };
  }

  function button(go, text, title) {
    return el("button", { type: "button", "data-go": go, title: title ? tr(title) : null, onclick: function () { control(go); } }, text);
  }

  function bar() {
    const frame = frameAt(viewer.refs[viewer.pos]);
    const words = frame.correction ? both("정정: " + inLang(frame.correction, "ko"), "Correction: " + inLang(frame.correction, "en"))
      : frame.what.length ? { ko: frame.what.map(function (w) { return inLang(w, "ko"); }).join(" · "),
                              en: frame.what.map(function (w) { return inLang(w, "en"); }).join(" · ") }
      : frame.release ? both("보류했던 공개", "A held reveal, released") : null;
    $("export-bar").replaceChildren(
      el("span", { class: "replay-label", text: viewer.label }),
      button("prev-reveal", "◀◀", both("이전 공개", "Previous reveal")),
      button("back", "◀", both("이전 장면", "Previous frame")),
      el("span", { class: "replay-where", "data-role": "where" }, (viewer.pos + 1) + " / " + viewer.refs.length),
      button("step", "▶", both("다음 장면", "Next frame")),
      button("next-reveal", "▶▶", both("다음 공개", "Next reveal")),
      button("play", viewer.timer ? both("멈춤", "Pause") : both("재생", "Play")),
      el("span", { class: "replay-what", "data-role": "what" }, [
        el("span", { class: "export-time" }, when(frame.t)), words ? " " + tr(words) : ""]),
      button("lang", I18N.lang === "ko" ? "English" : "한국어"),
      button("close", both("목록", "List")),
    );
  }

  function draw() {
    const ref = viewer.refs[viewer.pos];
    const box = $("viewer");
    box.dataset.table = DATA.tables[ref[0]].id;
    box.dataset.frame = String(ref[1]);
    box.dataset.index = String(viewer.pos);
    box.dataset.count = String(viewer.refs.length);
    // Stepping is faster than the room's moments last: what an earlier frame flashed (a reveal,
    // a correction's notice) goes, and this frame flashes its own, if it has one.
    window.Display.hideMoment();
    $("correction").hidden = true;
    window.Display.render(payloadOf(ref));
    bar();
  }

  function go(pos) {
    viewer.pos = Math.max(0, Math.min(viewer.refs.length - 1, pos));
    if (viewer.pos === viewer.refs.length - 1) pause();
    draw();
  }

  function reveal(direction) {
    for (let i = viewer.pos + direction; i >= 0 && i < viewer.refs.length; i += direction) {
      const frame = frameAt(viewer.refs[i]);
      if (frame.reveal || frame.correction) { go(i); return; }
    }
  }

  function pause() { clearInterval(viewer.timer); viewer.timer = null; }

  function play() {
    if (viewer.timer) { pause(); bar(); return; }
    if (viewer.pos >= viewer.refs.length - 1) viewer.pos = 0;  // played to the end: from the start
    viewer.timer = setInterval(function () { go(viewer.pos + 1); }, PACE);
    draw();
  }

  function control(what) {
    if (what === "step") { pause(); go(viewer.pos + 1); }
    else if (what === "back") { pause(); go(viewer.pos - 1); }
    else if (what === "next-reveal") { pause(); reveal(1); }
    else if (what === "prev-reveal") { pause(); reveal(-1); }
    else if (what === "first") { pause(); go(0); }
    else if (what === "last") { pause(); go(viewer.refs.length - 1); }
    else if (what === "play") play();
    else if (what === "lang") I18N.setLang(I18N.lang === "ko" ? "en" : "ko");
    else if (what === "close") location.hash = "";
  }

  // `which`: a table's number in DATA.tables, or "evening" (every table, in the order things happened).
  function open(which, at) {
    let refs, label;
    if (which === "evening") {
      refs = DATA.evening;
      label = both("저녁 전체", "The evening");
    } else {
      const table = DATA.tables[Number(which)];
      if (!table || !table.frames.length) return false;
      refs = table.frames.map(function (_, i) { return [Number(which), i]; });
      label = both("다시 보기", "Replay");
    }
    if (!refs.length) return false;
    pause();
    viewer.refs = refs;
    viewer.label = label;
    viewer.pos = Math.max(0, Math.min(refs.length - 1, at || 0));
    $("viewer").hidden = false;
    $("evening").setAttribute("aria-hidden", "true");
    document.body.classList.add("viewing");
    draw();
    return true;
  }

  function close() {
    pause();
    viewer.refs = null;
    $("viewer").hidden = true;
    $("evening").removeAttribute("aria-hidden");
    document.body.classList.remove("viewing");
  }

  // The address says what is on screen (#watch=3, #watch=evening&at=12): a link opens it again,
  // and the browser's Back goes back to the list.
  function route() {
    const found = /^#watch=([^&]+)(?:&at=(\d+))?$/.exec(location.hash);
    if (!found || !open(found[1], found[2] ? Number(found[2]) : 0)) close();
  }

  function keys(event) {
    if (!viewer.refs || event.ctrlKey || event.metaKey || event.altKey) return;
    const reveals = event.shiftKey;
    const map = { ArrowRight: reveals ? "next-reveal" : "step", ArrowLeft: reveals ? "prev-reveal" : "back",
                  PageDown: "next-reveal", PageUp: "prev-reveal", Home: "first", End: "last", " ": "play", Escape: "close" };
    const what = map[event.key];
    if (!what) return;
    event.preventDefault();
    control(what);
  }

  window.Export = {
    open: function (which, at) { location.hash = "watch=" + which + (at ? "&at=" + at : ""); },
    control: control,
    // What is on screen: the table, its frame's place in the table's story, the place in what plays.
    shown: function () {
      if (!viewer.refs) return null;
      const ref = viewer.refs[viewer.pos];
      return { table: DATA.tables[ref[0]].id, frame: ref[1], index: viewer.pos, count: viewer.refs.length };
    },
  };

  document.addEventListener("DOMContentLoaded", function () {
    // No socket on a page from disk: the projector's connection mark says nothing.
    $("conn").dataset.state = "ended";
    $("viewer").appendChild(el("div", { id: "export-bar", class: "export-bar", "data-role": "controls" }));
    overview();
    document.addEventListener("keydown", keys);
    window.addEventListener("hashchange", route);
    I18N.onChange(function () { overview(); if (viewer.refs) bar(); });
    route();
  });
})();
