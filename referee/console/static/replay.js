// The console's "다시 보기" view (issue 29): pick a table or the whole evening (or its
// highlights), play it on the projector forward and back, frame by frame or reveal by reveal, at
// a pace; "라이브로" (key L, from any view) gives the projector back to the live show. While a
// replay runs a bar under the console's header says so. It sends staff commands; the server
// builds the frames (server/replaying.py).
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  let chosen = null;  // the table picked to replay (null: the program, the whole evening)

  function titleOf(v) { return v.stage ? v.stage.title : v.title; }

  // Where the replay stands now: while it plays, a frame every `pace` seconds from `since` (the
  // server's clock, as server/replaying.py counts it), so the console keeps up with the projector.
  function indexNow(replay) {
    if (!replay.playing || replay.since == null) return replay.index;
    return Math.min(replay.count - 1, replay.pos + Math.floor(Math.max(0, Live.serverNow() - replay.since) / replay.pace));
  }

  let shown = null;  // the replay the console shows (its place moves on by itself while it plays)
  setInterval(function () {
    if (!shown || !shown.playing) return;
    const text = (indexNow(shown) + 1) + " / " + shown.count;
    document.querySelectorAll("[data-role='replay-where']").forEach(function (node) {
      if (node.textContent !== text) node.textContent = text;
    });
  }, 250);

  function controls(replay, command) {
    const go = function (action, extra) { return function () { command("replay", Object.assign({ action: action }, extra || {})); }; };
    const pace = el("select", { "aria-label": "간격 / Pace", "data-keep": "replay-pace",
                                onchange: function (e) { command("replay", { action: "pace", pace: Number(e.target.value) }); } },
                    [1, 2, 3, 5, 8].map(function (s) {
                      return el("option", { value: String(s), selected: Number(replay.pace) === s }, tr(both(s + "초", s + " s")));
                    }));
    return el("div", { class: "card replay-controls", "data-role": "replay-controls" }, [
      el("p", { class: "replay-status", "data-role": "replay-status" }, [
        el("strong", { text: replay.recap ? both("하이라이트", "Highlights") : both("다시 보기", "Replay") }),
        " · " + tr(replay.title) + " · ", el("span", { "data-role": "replay-where" }, (indexNow(replay) + 1) + " / " + replay.count),
        replay.playing ? el("span", { class: "badge", text: both("재생 중", "Playing") }) : null,
      ]),
      el("p", { class: "caption", "data-role": "replay-what" }, replay.what.map(function (w) { return tr(w); }).join(" · ") || "—"),
      el("div", { class: "actions" }, [
        el("button", { type: "button", class: "big", "data-replay": "prev_reveal", onclick: go("prev_reveal") }, tr(both("⏮ 이전 공개", "⏮ Previous reveal"))),
        el("button", { type: "button", class: "big", "data-replay": "back", onclick: go("back") }, tr(both("◀ 이전", "◀ Back"))),
        replay.playing
          ? el("button", { type: "button", class: "big primary", "data-replay": "pause", onclick: go("pause") }, tr(both("일시정지", "Pause")))
          : el("button", { type: "button", class: "big primary", "data-replay": "play", onclick: go("play") }, tr(both("재생", "Play"))),
        el("button", { type: "button", class: "big", "data-replay": "step", onclick: go("step") }, tr(both("다음 ▶", "Next ▶"))),
        el("button", { type: "button", class: "big", "data-replay": "next_reveal", onclick: go("next_reveal") }, tr(both("다음 공개 ⏭", "Next reveal ⏭"))),
        el("label", {}, [tr(both("간격 ", "Pace ")), pace]),
        el("button", { type: "button", class: "big danger", "data-replay": "stop", onclick: go("stop") }, tr(both("라이브로 (L)", "Back to live (L)"))),
      ]),
    ]);
  }

  function picker(snapshot, command) {
    const program = snapshot.show.program;
    const tables = snapshot.tables.filter(function (t) { return t.view.started && !t.view.state.program; });
    const select = el("select", { "aria-label": "테이블 / Table", "data-keep": "replay-table",
                                  onchange: function (e) { chosen = e.target.value || null; } },
                      (program ? [el("option", { value: "", selected: chosen === null }, tr(both("저녁 전체 (프로그램)", "The whole evening (program)")))] : [])
                        .concat(tables.map(function (t) {
                          // By name and players, never the table's id.
                          return el("option", { value: t.view.table, selected: chosen === t.view.table },
                                    tr(titleOf(t.view)) + " · " + t.view.seats.join(", "));
                        })));
    if (!program && chosen === null && tables.length) chosen = tables[tables.length - 1].view.table;
    return el("div", { class: "card" }, [
      el("h3", { text: both("프로젝터에서 다시 보기", "Replay on the projector") }),
      el("p", { class: "caption", text: both("공개됐던 것만, 그때의 화면 그대로 나옵니다. 실시간 테이블은 바뀌지 않습니다.",
                                            "Only what was public, as the projector showed it then. No live table changes.") }),
      select,
      el("div", { class: "actions" }, [
        el("button", { type: "button", class: "big primary", "data-action": "replay-start",
                       onclick: function () { command("replay", chosen ? { action: "start", table: chosen } : { action: "start" }); } },
           tr(both("다시 보기 시작", "Start the replay"))),
        program ? el("button", { type: "button", class: "big", "data-action": "recap-start",
                                 onclick: function () { command("replay", { action: "start", recap: true }); } },
                     tr(both("하이라이트 (시상 전 리캡)", "Highlights (the recap)"))) : null,
      ]),
    ]);
  }

  function render(box, bar, snapshot, command) {
    const replay = snapshot.replay;
    shown = replay;
    box.replaceChildren.apply(box, [replay ? controls(replay, command) : null, picker(snapshot, command)].filter(Boolean));
    bar.hidden = !replay;
    if (replay) {
      bar.replaceChildren(
        el("span", { text: both("프로젝터: 다시 보기 중 ", "Projector: replay ") }),
        el("strong", { "data-role": "replay-where" }, (indexNow(replay) + 1) + " / " + replay.count), " ",
        el("button", { type: "button", "data-replay": "stop", onclick: function () { command("replay", { action: "stop" }); } },
           tr(both("라이브로 (L)", "Back to live (L)"))),
      );
    }
  }

  window.ConsoleReplay = { render: render };
})();
