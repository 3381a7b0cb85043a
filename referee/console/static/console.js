// The dealer console of one show: roster and cards, tables, every secret, who owes what,
// moves on behalf of a seat, dealer decisions, void with a reason, re-issue, finish. It
// renders the dealer view the server sends and sends commands; it holds no rules.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  const root = $("console");
  const showId = root.dataset.show;
  let live = null;
  let snapshot = null;
  let selected = null;  // the table shown in the right panel
  const seatOrder = [];
  const forms = new Map();  // decision key -> rendered card, so a snapshot keeps choices in progress

  function command(name, args) {
    return live.send("command", { command: name, args: Object.assign({ show: showId }, args) }).then(function (ack) {
      if (ack && ack.ok) notice(both("완료: " + name, "Done: " + name));
      else showError(ack && ack.error);
      return ack;
    });
  }

  function showError(error) {
    $("error").hidden = !error;
    $("error").textContent = error ? I18N.errorText(error) : "";
    if (error) $("notice").hidden = true;
  }

  function notice(text) {
    showError(null);
    $("notice").hidden = false;
    $("notice").textContent = tr(text);
  }

  // -- left: roster, cards, new table ---------------------------------------------------------

  function renderRoster() {
    const list = $("roster");
    list.replaceChildren();
    snapshot.links.forEach(function (link) {
      list.appendChild(el("li", { "data-player": String(link.player) }, [
        el("strong", {}, link.name), " ",
        el("code", { class: "secret", title: "fallback code" }, link.code), " ",
        el("a", { href: link.url, target: "_blank", rel: "noopener noreferrer", class: "phone-link" },
           tr(both("휴대폰 링크", "phone link"))), " ",
        el("button", { type: "button", class: "danger", onclick: function () {
          if (confirm(tr(both(link.name + "의 카드를 재발급할까요? 예전 링크는 즉시 막힙니다.",
                              "Re-issue " + link.name + "'s card? The old link stops working at once.")))) {
            command("reissue", { player: link.player });
          }
        } }, tr(both("카드 재발급", "Re-issue card"))),
      ]));
    });
    const picker = $("seat-picker");
    picker.replaceChildren();
    snapshot.show.roster.forEach(function (name) {
      const at = seatOrder.indexOf(name);
      picker.appendChild(el("button", {
        type: "button", class: "option small" + (at >= 0 ? " picked" : ""), "data-name": name,
        onclick: function () {
          if (at >= 0) seatOrder.splice(at, 1); else seatOrder.push(name);
          renderRoster();
        },
      }, at >= 0 ? (at + 1) + ". " + name : name));
    });
  }

  function renderGameMenu() {
    const select = $("game-select");
    if (select.options.length) return;
    snapshot.games.forEach(function (g) {
      const what = g.program ? tr(both("프로그램: ", "Program: ")) + tr(g.title) + " (" + tr(both("명단 전원", "the whole roster")) + ")"
        : tr(g.title) + " (" + g.seats.join("–") + ")";
      select.appendChild(el("option", { value: g.id, "data-program": g.program ? "1" : null }, what));
    });
    select.addEventListener("change", renderOptions);
    renderOptions();
  }

  function renderOptions() {
    const game = snapshot.games.find(function (g) { return g.id === $("game-select").value; });
    // A program seats the whole roster: no seats to pick.
    $("seat-picker").closest("fieldset").hidden = Boolean(game && game.program);
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
      o.choices.forEach(function (c) {
        select.appendChild(el("option", { value: JSON.stringify(c), selected: c === o.default }, String(c)));
      });
      box.appendChild(el("label", {}, [el("span", { text: o.label }), select]));
    });
  }

  // -- right: tables ----------------------------------------------------------------------------

  function renderTabs() {
    const tabs = $("table-tabs");
    tabs.replaceChildren();
    snapshot.tables.forEach(function (t) {
      const v = t.view;
      const isCurrent = snapshot.show.current === v.table;
      tabs.appendChild(el("button", {
        type: "button", role: "tab", "aria-selected": String(v.table === selected), "data-table": v.table,
        onclick: function () { selected = v.table; render(); },
      }, (isCurrent ? "▶ " : "") + tr(v.title) + " · " + v.table));
    });
  }

  function seatLabel(view, seat) {
    return both((seat + 1) + "번 " + view.seats[seat], "Seat " + (seat + 1) + " " + view.seats[seat]);
  }

  function status(view) {
    if (view.finished) return both("종료됨", "Finished");
    if (view.result) return both("경기 끝", "Match over");
    return view.started ? both("진행 중", "Running") : both("시작 전", "Not started");
  }

  function renderTable() {
    const box = $("table");
    const entry = snapshot.tables.find(function (t) { return t.view.table === selected; });
    if (!entry) { box.replaceChildren(el("p", { class: "hint", text: both("테이블이 없습니다", "No tables yet") })); return; }
    const view = entry.view;
    const waiting = new Set((view.turn && view.turn.waiting) || []);
    const parts = [];
    parts.push(el("h2", {}, tr(view.title) + " · " + view.table + " · v" + view.version + " · " + tr(status(view))));
    if (view.turn) parts.push(el("p", { class: "caption" }, [tr(view.turn.phase),
      view.turn.sealed ? "  ·  " + view.turn.sealed[0] + "/" + view.turn.sealed[1] + " " + tr(both("제출", "submitted")) : ""]));

    const actions = el("div", { class: "actions" });
    if (snapshot.show.current !== view.table) {
      actions.appendChild(el("button", { type: "button", onclick: function () { command("set_current", { table: view.table }); } },
        tr(both("프로젝터에 표시", "Show on projector"))));
    }
    if (!view.started) {
      actions.appendChild(el("button", { type: "button", class: "primary big", "data-action": "start",
        onclick: function () { command("start", { table: view.table }); } }, tr(both("시작", "Start"))));
    } else if (!view.finished) {
      const reason = el("input", { name: "reason", placeholder: tr(both("무효 사유", "Reason for the void")), maxlength: 500 });
      actions.appendChild(el("form", { class: "inline", "data-action": "void", onsubmit: function (e) {
        e.preventDefault();
        if (!reason.value.trim()) { showError({ code: "table/void_needs_reason", ko: "무효 처리에는 사유가 필요합니다", en: "A void needs a reason" }); return; }
        command("void", { table: view.table, reason: reason.value });
      } }, [reason, el("button", { type: "submit", class: "danger" }, tr(both("마지막 행동 무효", "Void last action")))]));
      actions.appendChild(el("button", { type: "button", class: "danger", onclick: function () {
        if (confirm(tr(both("이 테이블을 종료할까요? 더 이상 수를 받을 수 없습니다.", "Finish this table? No more moves will be accepted.")))) {
          command("finish", { table: view.table, reason: "console" });
        }
      } }, tr(both("테이블 종료", "Finish table"))));
    }
    parts.push(actions);
    parts.push(el("div", { class: "actions" }, Object.keys(entry.sheets).map(function (id) {
      return el("a", { href: "/print/" + showId + "/" + view.table + "/" + id + ".pdf", target: "_blank", rel: "noopener",
                       class: "print-link", "data-sheet": id }, tr(both("인쇄: ", "Print: ")) + tr(entry.sheets[id]));
    })));
    const panel = (window.ConsoleGames || {})[view.game];
    if (panel) parts.push(panel(view, { command: command, showError: showError }));

    const seats = el("table", { class: "seats-table" }, [el("tr", {}, [
      el("th", { text: both("자리", "Seat") }), el("th", { text: both("상태", "Status") })])]);
    view.seats.forEach(function (_, seat) {
      seats.appendChild(el("tr", { "data-seat": String(seat) }, [
        el("td", { text: seatLabel(view, seat) }),
        el("td", { class: waiting.has(seat) ? "owes" : "done",
                   text: waiting.has(seat) ? both("제출 대기", "Owes a move") : both("대기 없음", "Nothing owed") }),
      ]));
    });
    parts.push(seats);

    if (view.result) {
      parts.push(el("h3", { text: both("결과", "Result") }));
      parts.push(el("ol", {}, view.result.standings.map(function (s) {
        return el("li", {}, view.seats[s.seat] + " — " + tr(both(s.rank + "위", "rank " + s.rank)) + " (" + s.score + ")");
      })));
      parts.push(el("p", { class: "caption", text: view.result.decided_by }));
    }

    const decisions = el("div", { class: "decisions" });
    const keep = new Set();
    view.decisions.forEach(function (d) {
      const key = view.table + ":" + JSON.stringify(d);
      keep.add(key);
      if (!forms.has(key)) {
        const card = el("div", { class: "card decision", "data-seat": d.seat == null ? "dealer" : String(d.seat) });
        const caption = d.seat == null ? both("딜러 결정", "Dealer decision")
          : both(seatLabel(view, d.seat).ko + " 대신 입력", "On behalf of " + seatLabel(view, d.seat).en);
        Forms.render(card, d, {
          caption: tr(caption),
          submit: function (move, sid) {
            return command("move", { table: view.table, seat: d.seat, move: move, sid: sid });
          },
        });
        forms.set(key, card);
      }
      decisions.appendChild(forms.get(key));
    });
    Array.from(forms.keys()).forEach(function (k) { if (!keep.has(k)) forms.delete(k); });
    if (view.decisions.length) parts.push(el("h3", { text: both("대기 중인 결정", "Pending decisions") }), decisions);

    parts.push(el("h3", { text: both("모든 비밀 (딜러 전용)", "Every secret (dealer only)") }));
    parts.push(el("pre", { class: "state-json" }, JSON.stringify(view.state, null, 1)));

    parts.push(el("h3", { text: both("기록", "Log") }));
    const log = el("table", { class: "log-table" });
    entry.log.slice().reverse().forEach(function (row) {
      const data = Object.assign({}, row.event);
      delete data.type;
      log.appendChild(el("tr", { class: row.voided_by ? "voided" : "" }, [
        el("td", {}, "v" + row.v), el("td", {}, new Date(row.t * 1000).toLocaleTimeString()),
        el("td", {}, row.actor), el("td", {}, row.event.type), el("td", {}, JSON.stringify(data)),
      ]));
    });
    parts.push(log);
    box.replaceChildren.apply(box, parts);
  }

  function render() {
    $("show-name").textContent = snapshot.show.name;
    const ids = snapshot.tables.map(function (t) { return t.view.table; });
    if (!selected || ids.indexOf(selected) < 0) selected = snapshot.show.current || ids[ids.length - 1] || null;
    renderRoster();
    renderGameMenu();
    renderTabs();
    renderTable();
  }

  document.addEventListener("DOMContentLoaded", function () {
    live = Live.connect("/dealer", {
      auth: { show: showId, csrf: root.dataset.csrf },
      events: ["show"],
      versionOf: function (p) { return p.tables.reduce(function (n, t) { return n + t.view.version; }, 0) + p.show.roster.length; },
      onSnapshot: function (payload) { snapshot = payload; render(); },
      onRefused: showError,
    });
    // A form sends once until the server answers: a double Enter or a double tap does not
    // add a player twice.
    function once(form, send) {
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
    once($("add-player"), function (form) {
      const input = form.elements.name;
      return command("add_player", { name: input.value }).then(function (ack) { if (ack.ok) input.value = ""; });
    });
    once($("new-table"), function (form) {
      const options = {};
      form.querySelectorAll("[name^='option:']").forEach(function (s) {
        options[s.name.slice(7)] = s.dataset.free ? s.value : JSON.parse(s.value);
      });
      const game = snapshot.games.find(function (g) { return g.id === $("game-select").value; });
      const made = game && game.program
        ? command("create_program", { program: game.id, options: options })
        : command("create_table", { game: game.id, players: seatOrder.slice(), options: options });
      return made.then(function (ack) { if (ack.ok) { seatOrder.length = 0; selected = ack.table; render(); } });
    });
    I18N.onChange(function () { if (snapshot) render(); });
  });
})();
