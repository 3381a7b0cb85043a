// The dealer console of one show. The dealer is the show's bottleneck, so the first screen is
// the selected table's work: who owes what, the sealed count, the dealer's own decisions as forms
// (numbers as steppers, seats as a grid), the clock and a held reveal; then every secret as a
// readable panel and the log in words, where any action can be voided after a preview. The roster
// and cards, new tables and show settings live in their own views. It renders what the server
// sends and sends commands; it holds no rules.
(function () {
  "use strict";
  // This browser's time zone: the printouts' default (a show may set its own).
  const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const { el, tr, both } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  const root = $("console");
  const showId = root.dataset.show;
  let live = null;
  let snapshot = null;
  let crowdLive = null;  // the newest `crowd` payload: the hall's counts between snapshots
  let selected = null;  // the table shown in the work view
  let view = "work";
  let behalf = null;  // the seat whose move the dealer is entering, in the selected table
  let showArchived = false;
  let voiding = null;  // {table, plan} while the void dialog is open
  let serverOffset = 0;  // server clock minus this machine's
  const seatOrder = [];
  const forms = new Map();  // decision key -> rendered card, so a snapshot keeps choices in progress
  const botDrafts = new Map();  // table -> the rehearsal bots being set up: {seats, pace, open}
  const otherSeating = new Set();  // "program:stage" whose other-seating form is open
  const opening = new Set();  // "program:stage" being opened (sent, not yet answered)
  let noticeTimer = null;

  // -- commands and status --------------------------------------------------------------------------

  function command(name, args) {
    return live.send("command", { command: name, args: Object.assign({ show: showId }, args) }).then(function (ack) {
      if (ack && ack.ok) notice(ack.done || both("완료", "Done"));
      else showError(ack && ack.error);
      return ack || { ok: false };
    });
  }

  // Staff read the message in words; its code stays for support in a tooltip and data-code.
  function showError(error) {
    const line = $("error");
    line.hidden = !error;
    line.textContent = error ? tr(error) : "";
    line.title = error ? error.code : "";
    if (error) { line.dataset.code = error.code; $("notice").hidden = true; } else delete line.dataset.code;
  }

  function notice(text) {
    showError(null);
    $("notice").hidden = false;
    $("notice").textContent = tr(text);
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { $("notice").hidden = true; }, 4000);  // clears itself
  }

  function seatName(v, seat) {
    return both((seat + 1) + "번 " + v.seats[seat], (seat + 1) + " " + v.seats[seat]);
  }

  function entryOf(tableId) {
    return snapshot.tables.find(function (t) { return t.view.table === tableId; });
  }

  // A program's stage table goes by its stage's name ("3차 배틀: 트리키 코인 결승"): three Coin
  // matches never look alike.
  function titleOf(v) {
    return v.stage ? v.stage.title : v.title;
  }

  function stateOf(v) {
    if (v.finished) return { key: "done", text: both("종료", "Closed") };
    if (v.result) return { key: "over", text: both("결과 나옴", "Over") };
    if (v.started) return { key: "live", text: both("진행 중", "Running") };
    return { key: "ready", text: both("준비", "Ready") };
  }

  // -- views ----------------------------------------------------------------------------------------

  function setView(name) {
    view = name;
    document.querySelectorAll(".views [data-view]").forEach(function (b) {
      b.setAttribute("aria-selected", String(b.dataset.view === name));
    });
    ["work", "players", "new", "crowd", "replay", "settings"].forEach(function (v) { $("view-" + v).hidden = v !== name; });
  }

  // -- the tables' tabs -----------------------------------------------------------------------------

  function visibleTables() {
    const archived = snapshot.show.archived || [];
    return snapshot.tables.filter(function (t) { return showArchived || archived.indexOf(t.view.table) < 0 || t.view.table === selected; });
  }

  function renderTabs() {
    const tabs = $("table-tabs");
    const archived = snapshot.show.archived || [];
    const parts = visibleTables().map(function (t) {
      const v = t.view;
      const state = stateOf(v);
      const owes = v.decisions.length > 0 && !v.finished && !v.result;
      return el("button", {
        type: "button", role: "tab", class: "tab tab-" + state.key, "aria-selected": String(v.table === selected),
        "data-table": v.table, onclick: function () { select(v.table); },
      }, [
        snapshot.show.current === v.table ? el("span", { class: "on-air", title: "projector" }, "▶") : null,
        el("span", { class: "tab-title", title: tr(titleOf(v)) }, tr(titleOf(v))),
        el("span", { class: "badge badge-" + state.key, text: state.text }),
        owes ? el("span", { class: "dot", title: tr(both("대기 중인 결정", "decisions pending")) }, "●") : null,
      ]);
    });
    if (archived.length) {
      parts.push(el("button", { type: "button", class: "tab tab-archive", onclick: function () { showArchived = !showArchived; render(); } },
        tr(showArchived ? both("보관함 숨기기", "Hide archived") : both("보관된 테이블 " + archived.length, "Archived " + archived.length))));
    }
    tabs.replaceChildren.apply(tabs, parts);
  }

  function select(tableId) {
    if (selected !== tableId) { behalf = null; voiding = null; }
    selected = tableId;
    setView("work");
    render();
  }

  // -- the work of the selected table ---------------------------------------------------------------

  function renderTable() {
    const box = $("table");
    const entry = entryOf(selected);
    if (!entry) {
      box.replaceChildren(el("p", { class: "hint", text: both("테이블이 없습니다. '새 테이블'에서 만드세요.",
                                                               "No tables yet: make one under 'New table'.") }));
      return;
    }
    const v = entry.view;
    const parts = [head(entry)];
    if (voiding && voiding.table === v.table) parts.push(voidDialog(entry));
    const hold = holdStrip(entry);
    if (hold) parts.push(hold);
    parts.push(el("div", { class: "work-grid" }, [
      el("div", { class: "work-main" }, [decisionsOf(entry)]),
      el("aside", { class: "work-side" }, [owedSeats(entry), clockControls(entry), botControls(entry)]),
    ]));
    if (v.result) parts.push(resultBox(v));
    parts.push(panelOf(v));
    parts.push(logOf(entry));
    box.replaceChildren.apply(box, parts);
  }

  function head(entry) {
    const v = entry.view;
    const state = stateOf(v);
    const sealed = v.turn && v.turn.sealed;
    const actions = el("div", { class: "actions" });
    if (!v.started) {
      actions.appendChild(el("button", { type: "button", class: "primary big", "data-action": "start", "aria-keyshortcuts": "s",
        onclick: function () { command("start", { table: v.table }); } }, tr(both("시작 (S)", "Start (S)"))));
    } else if (!v.finished && lastLive(entry) && startedBy(entry) === lastLive(entry).action) {  // the start (and its deal or draw)
      actions.appendChild(el("button", { type: "button", "data-action": "unstart",
        onclick: function () { openVoid(v.table, lastLive(entry).action); } }, tr(both("시작 취소", "Undo start"))));
    }
    if (snapshot.show.current !== v.table) {
      actions.appendChild(el("button", { type: "button", "data-action": "project", "aria-keyshortcuts": "p",
        onclick: function () { command("set_current", { table: v.table }); } }, tr(both("프로젝터에 표시 (P)", "On projector (P)"))));
    }
    if (v.started && !v.finished) {
      actions.appendChild(el("button", { type: "button", "data-action": "void-last", "aria-keyshortcuts": "v",
        onclick: function () { openVoid(v.table, null); } }, tr(both("마지막 행동 무효 (V)", "Void last (V)"))));
      actions.appendChild(el("button", { type: "button", class: "danger", "data-action": "finish", onclick: function () {
        if (confirm(tr(both("이 테이블을 종료할까요? 더 이상 수를 받지 않습니다 (종료도 무효로 되돌릴 수 있습니다).",
                            "Close this table? No more moves (the close can be voided).")))) {
          command("finish", { table: v.table, reason: "console" });
        }
      } }, tr(both("테이블 종료", "Close table"))));
    }
    if (v.finished) {
      const archived = (snapshot.show.archived || []).indexOf(v.table) >= 0;
      actions.appendChild(el("button", { type: "button", "data-action": "archive",
        onclick: function () { command("archive", { table: v.table, archived: !archived }); } },
        tr(archived ? both("보관함에서 꺼내기", "Unarchive") : both("보관", "Archive"))));
    }
    const prints = el("span", { class: "prints" }, Object.keys(entry.sheets).map(function (id) {
      // The sheet's times in the show's time zone, else this browser's (a laptop on UTC prints the hall's).
      return el("a", { href: "/print/" + showId + "/" + v.table + "/" + id + ".pdf?tz=" + encodeURIComponent(BROWSER_ZONE),
                       target: "_blank", rel: "noopener",
                       class: "print-link", "data-sheet": id }, tr(both("인쇄: ", "Print: ")) + tr(entry.sheets[id]));
    }));
    return el("div", { class: "work-head" }, [
      el("h2", {}, [tr(titleOf(v)), " ", el("span", { class: "badge badge-" + state.key, text: state.text })]),
      el("p", { class: "work-phase" }, [v.turn ? tr(v.turn.phase) : "",
        sealed ? el("strong", { class: "sealed" }, "  " + sealed[0] + "/" + sealed[1] + " " + tr(both("제출", "in"))) : null]),
      actions, prints,
    ]);
  }

  // The show's reveal hold where the dealer works: a badge while it is on (a reveal will wait off
  // the projector), and what waits now with the button that releases it.
  function holdStrip(entry) {
    const settings = snapshot.show.settings || {};
    // A program has no reveals of its own; a closed table none to come.
    const on = settings.reveal_hold === "on" && !entry.view.state.program && !entry.view.finished;
    if (!on && !entry.held) return null;
    const phones = settings.players_wait === "on";
    return el("div", { class: "hold" + (entry.held ? " held" : ""), role: "status", "data-hold": entry.held ? "held" : "on" }, [
      el("span", { class: "hold-badge", text: both("공개 보류 켜짐", "Reveal hold on") }),
      entry.held
        ? el("span", { class: "hold-what" }, [tr(both("프로젝터 공개 대기: ", "Held from the projector: ")), tr(entry.held.what)])
        : el("span", { class: "hold-what", text: phones
          ? both("공개 장면은 '공개 (R)'를 누를 때까지 프로젝터와 선수 휴대폰에 나가지 않습니다",
                 "Reveals wait off the projector and the players' phones until Release (R)")
          : both("공개 장면은 '공개 (R)'를 누를 때까지 프로젝터에 나가지 않습니다",
                 "Reveals wait off the projector until Release (R)") }),
      // One reveal a press, each with its moment on the projector, as the room would have seen
      // it; several held: all at once too.
      entry.held ? el("button", { type: "button", class: "primary big", "data-action": "release", "aria-keyshortcuts": "r",
        onclick: function () { command("release", { table: entry.view.table }); } },
        tr(entry.held.count > 1 ? both("다음 공개 (R) · " + entry.held.count + "개 보류", "Release next (R) · " + entry.held.count + " held")
          : both("공개 (R)", "Release (R)"))) : null,
      entry.held && entry.held.count > 1 ? el("button", { type: "button", class: "big", "data-action": "release-all",
        onclick: function () { command("release", { table: entry.view.table, all: true }); } }, tr(both("모두 공개", "Release all"))) : null,
    ]);
  }

  // A decision's form, kept across snapshots (keyed by the decision itself) so that a choice in
  // progress survives them; `extra`: more options of the form (compact, initial).
  function formOf(v, d, keep, extra) {
    const key = v.table + ":" + JSON.stringify(d);
    keep.add(key);
    if (!forms.has(key)) {
      const card = el("div", { class: "card decision" + (d.seat == null ? "" : " on-behalf"),
                               "data-seat": d.seat == null ? "dealer" : String(d.seat), "data-move": d.move });
      const caption = d.seat == null ? both("딜러 결정", "Dealer decision")
        : both(seatName(v, d.seat).ko + " 대신 입력 (휴대폰에 표시됩니다)",
               "For " + seatName(v, d.seat).en + " (their phone is told)");
      Forms.render(card, d, Object.assign({
        caption: tr(caption),
        submit: function (move, sid) {
          return command("move", { table: v.table, seat: d.seat, move: move, sid: sid }).then(function (ack) {
            if (ack.ok && d.seat != null) behalf = null;
            return ack;
          });
        },
      }, extra));
      forms.set(key, card);
    }
    return forms.get(key);
  }

  function decisionsOf(entry) {
    const v = entry.view;
    const list = el("div", { class: "decisions" });
    const keep = new Set();
    const mine = v.decisions.filter(function (d) { return d.seat == null; });
    const theirs = behalf == null ? [] : v.decisions.filter(function (d) { return d.seat === behalf; });
    const cards = v.state.program ? programWork(v, mine, theirs, keep)
      : mine.concat(theirs).map(function (d) { return formOf(v, d, keep); });
    cards.forEach(function (card) { list.appendChild(card); });
    Array.from(forms.keys()).forEach(function (k) { if (!keep.has(k)) forms.delete(k); });
    if (!list.children.length) {
      const waitingFor = (v.turn && v.turn.waiting) || [];
      list.appendChild(el("p", { class: "hint waiting-note", text: !v.started ? both("시작을 누르면 진행됩니다.", "Press Start to begin.")
        : v.result || v.finished ? both("이 테이블의 경기는 끝났습니다.", "This table's match is over.")
        : waitingFor.length ? both("선수들의 휴대폰 입력을 기다리는 중입니다. 휴대폰이 안 되면 오른쪽에서 선수를 눌러 대신 입력하세요.",
                                   "Waiting for the players' phones. If a phone fails, pick the player on the right to enter for them.")
        : v.state.program ? both("진행 중인 경기가 끝나면 여기서 결과를 확정합니다.", "When a running match is over, confirm its result here.")
        : both("지금 딜러가 할 일은 없습니다.", "Nothing for the dealer to do now.") }));
    }
    return list;
  }

  // -- a show program's work ---------------------------------------------------------------------

  // In one order whatever the snapshot brings: results to confirm (only of matches that are
  // over), the program's own decisions (a tie, a nomination), then the matches that may open,
  // each with one tap for the computed seating or a compact form for another.
  function programWork(v, mine, theirs, keep) {
    const cards = [];
    const confirm = mine.find(function (d) { return d.move === "confirm_result"; });
    const over = confirm ? overOnly(v, confirm) : null;
    if (over) {
      const only = over.fields[0].options.length === 1 ? { initial: { stage: over.fields[0].options[0].value } } : {};
      cards.push(formOf(v, over, keep, only));
    }
    mine.concat(theirs).forEach(function (d) {
      if (d.move !== "open_stage" && d.move !== "confirm_result" && d.move.indexOf("seat_stage:") !== 0) cards.push(formOf(v, d, keep));
    });
    const open = mine.find(function (d) { return d.move === "open_stage"; });
    if (open) cards.push(openCard(v, open, mine, keep));
    return cards;
  }

  // The table of an opened stage: this program's table of that stage with its players in its
  // seats (a stage opened again with another seating has a table of its own).
  function stageEntry(v, stage) {
    const seats = JSON.stringify(stage.players.map(function (p) { return v.state.names[p]; }));
    return snapshot.tables.find(function (t) {
      const s = t.view.stage;
      return s && s.program === v.table && s.key === stage.key && JSON.stringify(t.view.seats) === seats;
    });
  }

  // "결과 확정" offers only the stages whose match has a result (confirming one still running
  // would only be refused), each with who won; null when none is over.
  function overOnly(v, d) {
    const field = d.fields[0];
    const options = [];
    field.options.forEach(function (o) {
      const stage = v.state.stages.find(function (s) { return s.key === o.value; });
      const table = stage && stageEntry(v, stage);
      const result = table && table.view.result;
      if (!result) return;
      const first = result.standings.find(function (s) { return s.rank === 1; });
      const name = first ? table.view.seats[first.seat] : "";
      options.push(Object.assign({}, o, { hint: both("끝남 · 1위 " + name, "Over · 1st " + name) }));
    });
    return options.length ? Object.assign({}, d, { fields: [Object.assign({}, field, { options: options })] }) : null;
  }

  function openCard(v, open, mine, keep) {
    const card = el("div", { class: "card decision open-stages", "data-move": "open_stage", "data-seat": "dealer" }, [
      el("h2", { class: "prompt", text: both("다음 경기 열기", "Open the next match") }),
      el("div", { class: "caption", text: both("누르면 바로 계산된 자리 배치로 열립니다 (무효로 되돌릴 수 있음)",
                                              "One tap opens it with the computed seating (it can be voided)") }),
    ]);
    open.fields[0].options.forEach(function (option) {
      const key = option.value;
      const id = v.table + ":" + key;
      const other = mine.find(function (d) { return d.move === "seat_stage:" + key; });
      const expanded = Boolean(other) && otherSeating.has(id);
      card.appendChild(el("div", { class: "open-row", "data-stage": key }, [
        el("div", { class: "open-what" }, [el("strong", { text: option.label }), el("span", { class: "option-hint", text: option.hint })]),
        el("div", { class: "actions" }, [
          el("button", { type: "button", class: "big primary", "data-open-stage": key, disabled: opening.has(id),
                         onclick: function () { openStage(v.table, key); } }, tr(both("열기", "Open"))),
          other ? el("button", { type: "button", class: "small", "data-other-seating": key, "aria-expanded": String(expanded),
            onclick: function () { if (expanded) otherSeating.delete(id); else otherSeating.add(id); render(); } },
            tr(expanded ? both("다른 자리 배치 닫기", "Close other seating") : both("다른 자리 배치로…", "Other seating…"))) : null,
        ]),
        expanded ? formOf(v, other, keep, { compact: true, initial: seatingOf(v, key) }) : null,
      ]));
    });
    return card;
  }

  // The computed seating as the other-seating form's start: change two seats, not fill nine.
  function seatingOf(v, key) {
    const next = (v.state.next || []).find(function (n) { return n.key === key; });
    const seating = {};
    (next ? next.players : []).forEach(function (p, i) { seating["seat_" + (i + 1)] = p; });
    return seating;
  }

  function openStage(table, key) {
    const id = table + ":" + key;
    if (opening.has(id)) return;  // a double tap opens once
    opening.add(id);
    render();
    command("move", { table: table, move: { type: "open_stage", stage: key }, sid: Forms.newSid() }).then(function () {
      opening.delete(id);
      render();
    });
  }

  // What a seat's chip says: only "제출함" where a sealed step shows the seat is in; before the
  // start and after the end nothing is owed or done.
  function seatState(v, owes) {
    if (!v.started) return both("시작 전", "not started");
    if (v.finished || v.result) return both("종료", "over");
    if (owes) return both("입력 대기", "owes");
    return v.turn && v.turn.sealed ? both("제출함", "in") : both("차례 아님", "not now");
  }

  function owedSeats(entry) {
    const v = entry.view;
    const waiting = new Set((v.turn && v.turn.waiting) || []);
    const bots = new Set(entry.bots || []);
    const names = snapshot.show.roster;
    const grid = el("div", { class: "seat-grid" });
    v.seats.forEach(function (name, seat) {
      const player = names.indexOf(name);
      const here = player >= 0 && (snapshot.presence || [])[player] > 0;
      const owes = waiting.has(seat);
      grid.appendChild(el("button", {
        type: "button", class: "seat-chip" + (owes ? " owes" : "") + (behalf === seat ? " picked" : ""),
        "data-seat": String(seat), "aria-pressed": String(behalf === seat), disabled: !owes,
        title: tr(owes ? both("눌러서 대신 입력", "Tap to enter for them") : both("대기 없음", "Nothing owed")),
        onclick: function () { behalf = behalf === seat ? null : seat; render(); },
      }, [
        el("span", { class: "presence " + (here ? "here" : "away"), title: tr(here ? both("휴대폰 연결됨", "phone connected")
                                                                              : both("휴대폰 없음", "no phone")) }, here ? "●" : "○"),
        el("span", { class: "seat-name" }, (seat + 1) + " " + name),
        el("span", { class: "seat-state", text: seatState(v, owes) }),
        bots.has(seat) ? el("span", { class: "bot-tag", text: both("봇", "bot") }) : null,
      ]));
    });
    return el("section", { class: "side-box" }, [el("h3", { text: both("선수 (대기 중 → 대신 입력)", "Seats (owing → enter for them)") }), grid]);
  }

  function clockText(clock) {
    if (!clock) return "—";
    const left = clock.state === "paused" ? clock.remaining : Math.max(0, clock.ends_at - (Date.now() / 1000 + serverOffset));
    const s = Math.ceil(left);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") + (clock.state === "paused" ? " ⏸" : "");
  }

  function clockControls(entry) {
    const v = entry.view;
    if (!v.started || v.finished || v.result) return null;
    const clock = v.clock;
    const act = function (action, seconds) { return function () { command("clock", { table: v.table, action: action, seconds: seconds || 0 }); }; };
    const buttons = clock ? [
      clock.state === "running"
        ? el("button", { type: "button", "data-clock": "pause", onclick: act("pause") }, tr(both("멈춤", "Pause")))
        : el("button", { type: "button", "data-clock": "resume", onclick: act("resume") }, tr(both("다시", "Resume"))),
      el("button", { type: "button", "data-clock": "add", onclick: act("add", 15) }, "+15s"),
      el("button", { type: "button", "data-clock": "add30", onclick: act("add", 30) }, "+30s"),
      el("button", { type: "button", "data-clock": "stop", onclick: act("stop") }, tr(both("끄기", "Off"))),
    ] : [30, 60, 90].map(function (s) {
      return el("button", { type: "button", "data-clock": "start-" + s, onclick: act("start", s) }, s + "s");
    });
    return el("section", { class: "side-box clock-box" }, [
      el("h3", { text: both("쇼 시계 (0이 되어도 자동 결정 없음)", "Show clock (nothing is decided at zero)") }),
      el("div", { class: "clock-face", "data-clock-face": "1" }, clockText(clock)),
      el("div", { class: "actions" }, buttons),
    ]);
  }

  function botControls(entry) {
    const v = entry.view;
    if (v.finished || v.result || v.state.program) return null;
    const running = entry.bots || [];
    // What the dealer is setting up outlives the snapshots that arrive meanwhile (bots play fast).
    if (!botDrafts.has(v.table)) botDrafts.set(v.table, { seats: null, pace: "2", open: running.length > 0 });
    const draft = botDrafts.get(v.table);
    const chosen = new Set(draft.seats || running);
    const picks = v.seats.map(function (name, seat) {
      const box = el("input", { type: "checkbox", value: String(seat), checked: chosen.has(seat), "data-keep": "bot-seat-" + seat,
                                onchange: function () { draft.seats = picked(); } });
      return el("label", { class: "bot-seat" }, [box, " " + (seat + 1) + " " + name]);
    });
    const picked = function () {
      return picks.map(function (l) { return l.querySelector("input"); }).filter(function (b) { return b.checked; })
        .map(function (b) { return Number(b.value); });
    };
    const pace = el("input", { type: "number", min: "0.2", max: "60", step: "0.2", value: draft.pace, "aria-label": "pace",
                               "data-keep": "bot-pace", oninput: function () { draft.pace = pace.value; } });
    const box = el("details", { class: "side-box bots", open: draft.open ? true : null,
                                ontoggle: function () { draft.open = box.open; } }, [
      el("summary", { text: both("리허설 봇 (선수 대신 무작위로 둡니다)", "Rehearsal bots (random legal moves)") }),
      el("div", { class: "chips" }, picks),
      el("label", {}, [tr(both("간격(초) ", "Pace (s) ")), pace]),
      el("div", { class: "actions" }, [
        el("button", { type: "button", "data-action": "bots", onclick: function () {
          command("bots", { table: v.table, seats: picked(), pace: Number(pace.value) || 2 }).then(function (ack) {
            if (ack.ok) draft.seats = null;  // the running bots are the choice now
          });
        } }, tr(running.length ? both("봇 바꾸기", "Update bots") : both("봇 시작", "Start bots"))),
        running.length ? el("button", { type: "button", onclick: function () { command("bots", { table: v.table, seats: [] }); } },
          tr(both("봇 멈추기", "Stop bots"))) : null,
      ]),
    ]);
    return box;
  }

  function resultBox(v) {
    const names = v.state.program ? v.state.names : v.seats;
    return el("section", { class: "card result-box" }, [
      el("h3", { text: both("결과", "Result") }),
      el("ol", { class: "ranks" }, v.result.standings.map(function (s) {
        return el("li", { value: String(s.rank) }, [el("strong", { text: I18N.place(s.rank, I18N.sharedIn(v.result.standings, s.rank)) }),
                                                    " " + names[s.seat] + (s.score != null ? " (" + s.score + ")" : "")]);
      })),
      el("p", { class: "caption", text: v.result.decided_by }),
    ]);
  }

  // Every secret, readable: the game's own panel (a list of sections with headings, lines and
  // tables), the same shape as its printable sheets; a game may draw its own instead.
  function panelOf(v) {
    const own = (window.ConsoleGames || {})[v.game];
    const box = el("section", { class: "panel-box" }, [el("h3", { text: both("모든 비밀 (딜러 전용)", "Every secret (dealer only)") })]);
    if (own) { box.appendChild(own(v, { command: command, showError: showError })); return box; }
    const sections = v.state.panel || [];
    if (!sections.length) {
      box.appendChild(el("p", { class: "hint", text: both("이 게임은 정리된 비밀 목록이 없습니다.", "This game has no secrets panel.") }));
      return box;
    }
    sections.forEach(function (section) {
      box.appendChild(el("h4", { text: section.heading }));
      (section.paragraphs || []).forEach(function (p) { box.appendChild(el("p", { text: p })); });
      if (section.table && section.table.length) {
        const table = el("table", { class: "panel-table" });
        section.table.forEach(function (row, i) {
          table.appendChild(el("tr", {}, row.map(function (cell) {
            const tone = cell && typeof cell === "object" && cell.tone ? " tone-" + cell.tone : "";
            return el(i === 0 ? "th" : "td", { class: tone.trim() || null }, tr(cell));
          })));
        });
        box.appendChild(el("div", { class: "scroll-x" }, [table]));
      }
    });
    return box;
  }

  function startedBy(entry) {
    const start = entry.log.find(function (r) { return r.event.type === "table.started" && !r.voided_by; });
    return start ? start.action : null;
  }

  function lastLive(entry) {
    const rows = entry.log.filter(function (r) { return !r.voided_by && r.event.type !== "table.voided"; });
    return rows.length ? rows[rows.length - 1] : null;
  }

  // The log in words, newest first; a live action can be voided (after a preview) from its row.
  function logOf(entry) {
    const v = entry.view;
    const table = el("table", { class: "log-table" });
    table.appendChild(el("tr", {}, [el("th", {}, "#"), el("th", { text: both("시각", "Time") }), el("th", { text: both("누가", "Who") }),
                                   el("th", { text: both("무엇을", "What") }), el("th", {}, "")]));
    const firsts = new Set();
    entry.log.forEach(function (r) { if (r.v === r.action) firsts.add(r.v); });
    entry.log.slice().reverse().forEach(function (r) {
      const live = !r.voided_by && r.event.type !== "table.voided" && firsts.has(r.v) && !v.finished;
      table.appendChild(el("tr", { class: r.voided_by ? "voided" : "", "data-v": String(r.v) }, [
        el("td", {}, String(r.v)),
        el("td", {}, new Date(r.t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" })),
        el("td", {}, [tr(r.who), r.by === "bot" ? el("span", { class: "bot-tag", text: both(" (봇)", " (bot)") }) : null]),
        el("td", {}, [tr(r.what), r.voided_by ? el("small", { text: both(" (" + r.voided_by + "번에서 무효)", " (voided at #" + r.voided_by + ")") }) : null]),
        el("td", {}, live ? el("button", { type: "button", class: "small", "data-void": String(r.action),
                                             onclick: function () { openVoid(v.table, r.action); } }, tr(both("무효…", "Void…"))) : null),
      ]));
    });
    return el("section", { class: "log-box" }, [el("h3", { text: both("기록", "Log") }), el("div", { class: "scroll-x" }, [table])]);
  }

  // -- corrections: see what a void will undo and apply again, then confirm with a reason ----------

  function openVoid(tableId, action) {
    command("void_plan", { table: tableId, action: action }).then(function (ack) {
      if (!ack.ok) return;
      // Opened as "the last action" (V): a preview asked again names the last action then.
      voiding = { table: tableId, action: ack.plan.target.action, plan: ack.plan, version: entryOf(tableId).view.version,
                  last: action === null };
      render();
      // Opened from a log row far down the page: the dialog comes into view, under the sticky bar.
      document.querySelector(".void-dialog").scrollIntoView({ block: "start" });
      focusReason();
    });
  }

  // An action as staff say it: "44번 행동 (오후 8:18)", never "v44".
  function actionWords(entry, action) {
    const row = entry.log.find(function (r) { return r.v === action; });
    const at = row ? " (" + I18N.clockTime(row.t * 1000) + ")" : "";
    return both(action + "번 행동" + at, "Action " + action + at);
  }

  // What the void will put on the screens: the reason stays the staff's (log and audit report);
  // the public and the phones that saw the action see only the server's public words for it.
  function publicNote(what) {
    return el("p", { class: "void-public" }, what
      ? [tr(both("사유는 기록과 감사 보고서에만 남고, 화면에는 ", "The reason stays in the log and the audit report; screens show only ")),
         el("strong", { class: "void-public-words" }, tr(both("'정정: " + I18N.inLang(what, "ko") + "'", "'Correction: " + I18N.inLang(what, "en") + "'"))),
         tr(both("만 나갑니다.", "."))]
      : tr(both("사유는 기록과 감사 보고서에만 남습니다. 프로젝터는 이 행동을 보지 않았으므로 정정 안내도 나가지 않습니다.",
                "The reason stays in the log and the audit report. The projector never saw this action, so it shows no correction.")));
  }

  function focusReason() {
    const reason = document.querySelector(".void-dialog input[name=reason]");
    if (reason) reason.focus();
  }

  function voidDialog(entry) {
    const plan = voiding.plan;
    const line = function (row) { return el("li", {}, tr(row.who) + ": " + tr(row.what)); };
    const reason = el("input", { name: "reason", maxlength: 500, placeholder: tr(both("무효 사유 (필수)", "Reason (required)")),
                                 required: true, value: voiding.reason || "", "data-keep": "void-reason" });
    reason.addEventListener("input", function () { voiding.reason = reason.value; });
    if (voiding.version !== entry.view.version && !voiding.refreshing) {
      // The table moved on since the preview: ask again what the void would do now.
      voiding.refreshing = true;
      live.send("command", { command: "void_plan", args: { show: showId, table: entry.view.table, action: voiding.last ? null : voiding.action } })
        .then(function (ack) {
          if (!voiding) return;
          voiding.refreshing = false;
          if (ack && ack.ok) {
            voiding.plan = ack.plan;
            voiding.action = ack.plan.target.action;
            voiding.version = entry.view.version;
            render();
          }
        });
    }
    return el("form", { class: "void-dialog card", role: "alertdialog", onsubmit: function (e) {
      e.preventDefault();
      if (!reason.value.trim()) { showError({ code: "table/void_needs_reason", ko: "무효 처리에는 사유가 필요합니다", en: "A void needs a reason" }); return; }
      // The newest action the preview showed: one that came in since is refused (table/moved_on)
      // and the preview is asked again, never voided or re-applied unseen.
      command("void", { table: entry.view.table, reason: reason.value, action: voiding.action, last: plan.last }).then(function (ack) {
        if (ack.ok) { voiding = null; render(); }
        else if (ack.error && ack.error.code === "table/moved_on") { voiding.version = null; render(); }
      });
    } }, [
      el("h3", { text: both("이 행동을 무효로 합니다", "This action will be voided") }),
      el("p", { class: "void-target" }, tr(actionWords(entry, plan.target.action)) + " · " + tr(plan.target.who) + ": " + tr(plan.target.what)),
      publicNote(plan.target.public),
      plan.reapplied.length ? el("div", {}, [el("strong", { text: both("뒤의 행동 중 그대로 다시 적용되는 것:", "Later actions applied again as they were:") }),
                                               el("ul", {}, plan.reapplied.map(line))]) : null,
      plan.conflicts.length ? el("div", { class: "conflicts" }, [el("strong", { text: both("다시 적용할 수 없어 무효로 남는 것 (다시 입력해야 함):", "Later actions that stay voided (enter them again):") }),
        el("ul", {}, plan.conflicts.map(function (c) { return el("li", {}, tr(c.who) + ": " + tr(c.what) + " — " + tr(c.why)); }))]) : null,
      el("label", {}, [tr(both("사유", "Reason")), reason]),
      el("div", { class: "actions" }, [
        el("button", { type: "button", class: "big", onclick: function () { voiding = null; render(); } }, tr(both("취소", "Cancel"))),
        el("button", { type: "submit", class: "big danger", "data-action": "confirm-void" }, tr(both("무효 확정", "Void it"))),
      ]),
    ]);
  }

  // -- players and cards ----------------------------------------------------------------------------

  function renderRoster() {
    const table = $("roster");
    table.replaceChildren(el("tr", {}, [el("th", {}, "#"), el("th", { text: both("이름", "Name") }), el("th", { text: both("휴대폰", "Phone") }),
      el("th", { text: both("코드", "Code") }), el("th", {}, "")]));
    snapshot.links.forEach(function (link) {
      const here = (snapshot.presence || [])[link.player] || 0;
      table.appendChild(el("tr", { "data-player": String(link.player) }, [
        el("td", {}, String(link.player + 1)),
        el("td", {}, el("strong", {}, link.name)),
        el("td", { class: here ? "here" : "away", text: here ? both("● 연결됨" + (here > 1 ? " (" + here + "대!)" : ""), "● online" + (here > 1 ? " (" + here + " devices!)" : ""))
                                                            : both("○ 없음", "○ none") }),
        el("td", {}, el("code", { class: "secret" }, link.code)),
        el("td", { class: "row-actions" }, [
          el("button", { type: "button", class: "small", onclick: function () { showCard(link); } }, tr(both("카드 보기", "Show card"))),
          el("button", { type: "button", class: "small danger", onclick: function () {
            if (confirm(tr(both(link.name + "의 카드를 재발급할까요? 예전 링크는 즉시 막힙니다.",
                                "Re-issue " + link.name + "'s card? The old link stops working at once.")))) {
              command("reissue", { player: link.player }).then(function (ack) { if (ack.ok) showCard(ack.link); });
            }
          } }, tr(both("재발급", "Re-issue"))),
        ]),
      ]));
    });
  }

  function showCard(link) {
    const box = $("card-shown");
    box.hidden = false;
    box.replaceChildren(
      el("h3", {}, link.name),
      el("img", { src: "/print/" + showId + "/card/" + link.player + ".svg?v=" + link.version, alt: "QR", class: "card-qr" }),
      el("p", {}, [tr(both("코드 ", "Code ")), el("code", { class: "secret big-code" }, link.code)]),
      el("p", {}, [el("a", { href: "/print/" + showId + "/seat-cards.pdf?player=" + link.player, target: "_blank", rel: "noopener" },
                      tr(both("이 카드만 인쇄", "Print this card only")))]),
      el("button", { type: "button", onclick: function () { box.hidden = true; } }, tr(both("닫기", "Close"))),
    );
  }

  // -- new tables and programs ----------------------------------------------------------------------

  function renderNew() {
    const select = $("game-select");
    if (!select.options.length) {
      snapshot.games.forEach(function (g) {
        const what = g.program ? tr(both("프로그램: ", "Program: ")) + tr(g.title) + " (" + tr(both("명단 전원", "the whole roster")) + ")"
          : tr(g.title) + " (" + g.seats.join("–") + tr(both("명", " seats")) + ")";
        select.appendChild(el("option", { value: g.id }, what));
      });
      select.addEventListener("change", function () { renderOptions(); renderPicker(); });
      renderOptions();
    }
    renderPicker();
  }

  function currentGame() {
    return snapshot.games.find(function (g) { return g.id === $("game-select").value; });
  }

  function renderPicker() {
    const game = currentGame();
    $("seat-picker").closest("fieldset").hidden = Boolean(game && game.program);
    const picker = $("seat-picker");
    picker.replaceChildren();
    snapshot.show.roster.forEach(function (name) {
      const at = seatOrder.indexOf(name);
      picker.appendChild(el("button", {
        type: "button", class: "option small" + (at >= 0 ? " picked" : ""), "data-name": name,
        onclick: function () { if (at >= 0) seatOrder.splice(at, 1); else seatOrder.push(name); renderPicker(); },
      }, at >= 0 ? (at + 1) + ". " + name : name));
    });
  }

  function renderOptions() {
    const game = currentGame();
    const box = $("option-fields");
    box.replaceChildren();
    (game ? game.options : []).forEach(function (o) {
      if (o.free) {  // too many values to list: typed, with the examples offered
        const list = el("datalist", { id: "examples-" + o.name }, o.choices.map(function (c) { return el("option", { value: String(c) }); }));
        const input = el("input", { name: "option:" + o.name, value: String(o.default), list: "examples-" + o.name, "data-free": "1" });
        box.appendChild(el("label", {}, [el("span", { text: o.label }), input, list]));
        return;
      }
      const select = el("select", { name: "option:" + o.name });
      o.choices.forEach(function (c, i) {  // each choice in words (OptionSpec.word), never its code
        select.appendChild(el("option", { value: JSON.stringify(c), selected: c === o.default }, o.words ? tr(o.words[i]) : String(c)));
      });
      box.appendChild(el("label", {}, [el("span", { text: o.label }), select]));
    });
  }

  // -- show settings ----------------------------------------------------------------------------------

  function renderSettings() {
    const settings = snapshot.show.settings || {};
    const toggle = function (name, ko, en) {
      const on = settings[name] === "on";
      return el("label", { class: "toggle" }, [
        el("input", { type: "checkbox", checked: on, "data-setting": name,
                      onchange: function (e) { command("settings", { name: name, value: e.target.checked ? "on" : "off" }); } }),
        " " + tr(both(ko, en)),
      ]);
    };
    const zones = (Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : [BROWSER_ZONE]);
    const zone = el("label", { class: "toggle" }, [
      tr(both("인쇄물의 시간대 ", "The printouts' time zone ")),
      el("select", { "data-setting": "time_zone", onchange: function (e) { command("settings", { name: "time_zone", value: e.target.value }); } },
         [el("option", { value: "", selected: !settings.time_zone },
             tr(both("인쇄하는 브라우저의 시간대 (지금 " + BROWSER_ZONE + ")", "The printing browser's (now " + BROWSER_ZONE + ")")))]
           .concat(zones.map(function (z) { return el("option", { value: z, selected: settings.time_zone === z }, z); }))),
    ]);
    $("settings").replaceChildren(
      zone,
      toggle("reveal_hold", "공개 보류: 공개 장면(상자 열기, 경매 결과, 레이스 이동, 최종 결과)은 딜러가 '공개'를 누를 때까지 프로젝터에 나오지 않습니다",
             "Reveal hold: a reveal (boxes opening, an auction result, race movement, the final result) waits off the projector until the dealer presses Release"),
      toggle("players_wait", "공개 보류 중에는 선수 휴대폰도 기다림", "During a hold the players' phones wait too"),
      toggle("follow", "프로젝터 자동 전환: 경기를 열거나 시작하면 그 경기, 결과를 확정하면 프로그램 보드 (P로 언제든 직접 전환)",
             "The projector follows the evening: a match opened or started goes up, a confirmed result brings the program board (P takes over any time)"),
    );
  }

  // -- keyboard -----------------------------------------------------------------------------------------

  const SHORTCUTS = [
    ["S", both("선택한 테이블 시작", "Start the selected table")],
    ["V", both("마지막 행동 무효 (미리보기 후 확정)", "Void the last action (preview, then confirm)")],
    ["P", both("선택한 테이블을 프로젝터에", "Put the selected table on the projector")],
    ["R", both("보류된 공개를 프로젝터에", "Release a held reveal")],
    ["[ ]", both("이전 / 다음 테이블", "Previous / next table")],
    ["N", both("할 일이 있는 다음 테이블", "Next table with work")],
    ["Enter", both("열린 결정의 기본 버튼 (다음, 제출)", "The open decision's main button (next, submit)")],
    ["Esc", both("무효 취소, 대신 입력 닫기", "Cancel a void, close entering for a seat")],
    ["L", both("다시 보기를 끝내고 프로젝터를 라이브로", "End a replay: the projector back to live")],
    ["?", both("이 목록", "This list")],
  ];

  function renderHelp() {
    $("shortcuts").replaceChildren.apply($("shortcuts"), SHORTCUTS.flatMap(function (s) {
      return [el("dt", {}, el("kbd", {}, s[0])), el("dd", { text: s[1] })];
    }));
  }

  function clickAction(name) {
    const button = document.querySelector("#table [data-action='" + name + "']");
    if (button && !button.disabled) button.click();
  }

  function moveTab(by, owing) {
    const ids = visibleTables().map(function (t) { return t.view.table; });
    if (!ids.length) return;
    let at = ids.indexOf(selected);
    for (let i = 0; i < ids.length; i++) {
      at = (at + by + ids.length) % ids.length;
      const t = entryOf(ids[at]);
      if (!owing || (t.view.decisions.length && !t.view.finished && !t.view.result)) { select(ids[at]); return; }
    }
  }

  function onKey(e) {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName);
    if (e.key === "Escape") { voiding = null; behalf = null; render(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey || !snapshot) return;
    const key = e.key.toLowerCase();
    if (key === "?") { renderHelp(); $("help").showModal(); e.preventDefault(); return; }
    // The projector back to the live show from any view: one key.
    if (key === "l" && snapshot.replay) { command("replay", { action: "stop" }); e.preventDefault(); return; }
    if (view !== "work") return;
    if (key === "s") clickAction("start");
    else if (key === "v") clickAction("void-last");
    else if (key === "p") clickAction("project");
    else if (key === "r") clickAction("release");
    else if (key === "[") moveTab(-1, false);
    else if (key === "]") moveTab(1, false);
    else if (key === "n") moveTab(1, true);
    else if (key === "enter" && e.target === document.body) {
      const button = document.querySelector("#table .decision .primary:not([disabled])");
      if (button) { button.click(); e.preventDefault(); }
    } else return;
    e.preventDefault();
  }

  // -- the standby machine (docs/backup.md) -----------------------------------------------------------

  // Only a show with a standby says anything: "백업 준비됨" (its copy is online and caught up) or
  // "백업 없음" (the show runs on one machine), and which Redis leads.
  function renderBackup(pair) {
    const box = $("backup");
    box.hidden = !pair;
    if (!pair) return;
    box.dataset.state = pair.ready ? "ready" : "missing";
    box.textContent = tr(pair.ready
      ? both("백업 준비됨 · 지연 " + (pair.lag || 0) + "초", "Standby ready · " + (pair.lag || 0) + " s behind")
      : both("백업 없음", "No standby")) + (pair.primary ? " · " + tr(both("주 Redis ", "primary ")) + pair.primary : "");
  }

  // -- the whole page -------------------------------------------------------------------------------

  // A snapshot redraws the page: the field the dealer is typing in keeps the focus and the caret
  // (a kept form's own node, or the redrawn field with the same data-keep).
  function render() {
    const active = document.activeElement;
    const keepKey = active && active.dataset ? active.dataset.keep : null;
    let caret = null;
    try { caret = active && active.selectionStart != null ? [active.selectionStart, active.selectionEnd] : null; } catch (e) { caret = null; }
    $("show-name").textContent = snapshot.show.name;
    renderBackup(snapshot.backup);
    const ids = snapshot.tables.map(function (t) { return t.view.table; });
    if (!selected || ids.indexOf(selected) < 0) selected = snapshot.show.current || ids[ids.length - 1] || null;
    renderTabs();
    renderTable();
    renderRoster();
    renderNew();
    renderSettings();
    ConsoleCrowd.render($("crowd"), snapshot.crowd, crowdLive, command);
    ConsoleReplay.render($("replay"), $("replay-bar"), snapshot, command);
    ConsoleMonitor.render($("monitor"), snapshot, entryOf(selected), function (event, payload) { return live.send(event, payload); });
    const again = active && active.isConnected ? active : keepKey ? document.querySelector("[data-keep='" + keepKey + "']") : null;
    if (again && again !== document.activeElement) {
      again.focus();
      try { if (caret) again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* a number field has no caret */ }
    }
  }

  function tick() {
    const face = document.querySelector("[data-clock-face]");
    const entry = snapshot && entryOf(selected);
    if (face && entry) face.textContent = clockText(entry.view.clock);
  }

  function once(form, send) {
    // A form sends once until the server answers: a double Enter or a double tap does not
    // add a player twice.
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (form.dataset.busy) return;
      form.dataset.busy = "1";
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
      send(form).then(function () {
        delete form.dataset.busy;
        form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    live = Live.connect("/dealer", {
      auth: { show: showId, csrf: root.dataset.csrf },
      events: ["show"],
      versionOf: function (p) { return p.tables.reduce(function (n, t) { return n + t.view.version; }, 0) + p.show.roster.length; },
      onSnapshot: function (payload) { snapshot = payload; render(); },
      onRefused: showError,
    });
    live.socket.on("time", function (t) { serverOffset = t.now - Date.now() / 1000; });
    // The hall's counts as they move (the snapshot brings them with every other change).
    live.socket.on("crowd", function (payload) {
      crowdLive = payload;
      if (snapshot && view === "crowd") ConsoleCrowd.render($("crowd"), snapshot.crowd, crowdLive, command);
    });
    document.querySelectorAll(".views [data-view]").forEach(function (b) {
      b.addEventListener("click", function () { setView(b.dataset.view); });
    });
    $("help-button").addEventListener("click", function () { renderHelp(); $("help").showModal(); });
    document.addEventListener("keydown", onKey);
    setInterval(tick, 250);
    once($("add-player"), function (form) {
      const input = form.elements.name;
      return command("add_player", { name: input.value }).then(function (ack) { if (ack.ok) input.value = ""; });
    });
    once($("new-table"), function (form) {
      const options = {};
      form.querySelectorAll("[name^='option:']").forEach(function (s) {
        options[s.name.slice(7)] = s.dataset.free ? s.value : JSON.parse(s.value);
      });
      const game = currentGame();
      const made = game.program ? command("create_program", { program: game.id, options: options })
        : command("create_table", { game: game.id, players: seatOrder.slice(), options: options });
      return made.then(function (ack) {
        if (ack.ok) { seatOrder.length = 0; selected = ack.table; setView("work"); render(); }  // open what was made
      });
    });
    I18N.onChange(function () { if (snapshot) render(); });
  });
})();
