// The phone page: the player's secrets, the decision they owe now with only its legal
// options, a confirm step, a receipt, and a waiting state. It reconnects by itself, and a
// reload shows the same screen (the pending submission and the receipt live in sessionStorage).
//
// A phone follows its player through the evening: every payload names the player's focus
// table (the server's choice: where they owe a move, else their live match, else what comes
// next) and lists all their tables; the phone shows the focus unless the player picked another
// of their tables in the switcher. Payloads of other tables are kept for a switch.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  let snapshot = null;  // the payload shown
  let meta = null;  // the newest payload: focus and the list of the player's tables
  let live = null;
  const views = {};  // table id -> newest payload of that table
  const CHOICE = "referee.table";  // the player's own pick in the switcher (this tab only)
  const forms = new Map();  // decision key -> its card

  function showError(error) {
    $("error").hidden = !error;
    $("error").textContent = error ? I18N.errorText(error) : "";
  }

  function genericHoldings(view, seat) {
    const mine = view.state && view.state.seats && view.state.seats[seat];
    if (!mine || typeof mine !== "object") return null;
    const list = el("dl", { class: "kv" });
    Object.keys(mine).forEach(function (key) {
      if (key === "seat") return;
      list.appendChild(el("dt", {}, key));
      list.appendChild(el("dd", {}, typeof mine[key] === "object" ? JSON.stringify(mine[key]) : String(mine[key])));
    });
    return list;
  }

  function receipt() {
    const saved = JSON.parse(sessionStorage.getItem("referee.receipt") || "null");
    const box = $("receipt");
    if (!saved || !snapshot || !snapshot.table || saved.table !== snapshot.table.table) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(
      el("div", { class: "tick" }, "✓"),
      el("strong", { text: both("제출 완료", "Submitted") }),
      el("p", {}, saved.summary),
      el("p", { class: "hint" }, new Date(saved.at).toLocaleTimeString() + " · v" + saved.version),
    );
  }

  function chosen() {
    const picked = sessionStorage.getItem(CHOICE);
    const mine = (meta && meta.tables) || [];
    const still = mine.find(function (t) { return t.table === picked && t.status !== "done"; });
    return still ? picked : (meta ? meta.focus : null);
  }

  function received(payload) {
    meta = payload;
    if (payload.table) views[payload.table.table] = payload;
    const want = chosen();
    if (want && views[want]) snapshot = views[want];
    else if (want) { live.send("sync", { table: want }).then(function (ack) { if (ack && ack.ok) received(ack.snapshot); }); return; }
    else snapshot = payload;
    showError(null);
    render();
  }

  function switcher() {
    const box = $("tables");
    const mine = ((meta && meta.tables) || []).filter(function (t) { return t.status !== "done" || t.program; });
    box.hidden = mine.length < 2;
    if (box.hidden) return;
    const shown = snapshot && snapshot.table ? snapshot.table.table : null;
    const status = { ready: both("곧 시작", "soon"), live: both("진행 중", "live"), over: both("끝", "over"),
                     done: both("종료", "closed") };
    box.replaceChildren.apply(box, mine.map(function (t) {
      return el("button", {
        type: "button", class: "table-chip" + (t.table === shown ? " picked" : "") + (t.owes ? " owes" : ""),
        "aria-pressed": String(t.table === shown), "data-table": t.table,
        onclick: function () {
          if (t.table === meta.focus) sessionStorage.removeItem(CHOICE); else sessionStorage.setItem(CHOICE, t.table);
          received(meta);
        },
      }, [el("span", { text: t.title }), el("small", { text: t.owes ? both("할 일 있음", "your move") : status[t.status] })]);
    }));
  }

  function render() {
    const snap = snapshot;
    switcher();
    $("player").textContent = snap.player;
    const view = snap.table;
    const where = [snap.show.name];
    if (view) where.push(tr(view.title));
    if (snap.seat != null) where.push(tr(both((snap.seat + 1) + "번 자리", "Seat " + (snap.seat + 1))));
    $("where").textContent = where.join(" · ");

    const holdings = $("holdings");
    holdings.replaceChildren();
    if (view && view.started && snap.seat != null) {
      const draw = (window.PhoneGames || {})[view.state && view.state.program ? "program" : view.game] || genericHoldings;
      const node = draw(view, snap.seat);
      if (node) holdings.appendChild(node);
    }

    const decisionBox = $("decision");
    const decisions = (view && view.decisions) || [];
    if (decisions.length) {
      // Every decision the seat owes now (a pick and an appraisal, say), each its own form.
      // A form whose decision is unchanged is kept, so another player's move does not wipe a
      // choice in progress.
      const keep = new Set();
      const cards = decisions.map(function (decision) {
        const key = view.table + ":" + JSON.stringify(decision);
        keep.add(key);
        const card = forms.get(key);
        // A decision answered at version v that a view newer than v still shows is owed again
        // (another appraisal): it gets a fresh form.
        if (!card || (card.dataset.sentAt && view.version >= Number(card.dataset.sentAt))) {
          forms.set(key, decisionCard(view, decision, key));
        }
        return forms.get(key);
      });
      Array.from(forms.keys()).forEach(function (k) { if (!keep.has(k)) forms.delete(k); });
      if (cards.some(function (c, i) { return decisionBox.children[i] !== c; }) || decisionBox.children.length !== cards.length) {
        decisionBox.replaceChildren.apply(decisionBox, cards);
      }
    } else {
      forms.clear();
      decisionBox.replaceChildren(waiting(view));
    }
    receipt();
  }

  function decisionCard(view, decision, key) {
    const card = el("div", { class: "decision-part", "data-move": decision.move });
    const options = {
      memoryKey: key,
      submit: function (move, sid) { return live.send("submit", { table: view.table, move: move, sid: sid }); },
      onDone: function (sent, ack) {
        const summary = decision.fields.map(function (f) {
          const value = sent.move[f.name];
          return tr(f.label) + ": " + (f.shape === "one" ? Forms.labelOf(f.options, value) : JSON.stringify(value));
        }).join(", ");
        sessionStorage.setItem("referee.receipt", JSON.stringify({
          table: view.table, summary: tr(decision.prompt) + " — " + summary, at: Date.now(), version: ack.ack.version,
        }));
        card.dataset.sentAt = String(ack.ack.version);  // see render: a newer view may owe it again
        receipt();
      },
    };
    Forms.render(card, decision, options);
    return card;
  }

  function upcoming() {
    const next = ((meta && meta.tables) || []).filter(function (t) { return t.status === "ready"; });
    if (!next.length) return null;
    return el("div", { class: "upcoming" }, next.map(function (t) {
      return el("p", {}, [el("strong", { text: both("곧 시작: ", "Next: ") }), tr(t.title) + " · ",
                          tr(both((t.seat + 1) + "번 자리", "seat " + (t.seat + 1)))]);
    }));
  }

  function waiting(view) {
    const card = waitingText(view);
    const next = view && !view.started ? null : upcoming();
    return next ? el("div", {}, [card, next]) : card;
  }

  function waitingText(view) {
    if (!view) return el("p", { class: "waiting", text: both("아직 앉은 테이블이 없습니다. 기다려 주세요.", "You are not seated yet. Please wait.") });
    if (view.result) {
      const me = view.result.standings.find(function (s) { return s.seat === snapshot.seat; });
      return el("div", { class: "waiting" }, [
        el("strong", { text: both("경기 종료", "Match over") }),
        me ? el("p", { text: both(me.rank + "위 (" + me.score + ")", "Rank " + me.rank + " (" + me.score + ")") }) : null,
      ]);
    }
    if (!view.started) {
      return el("div", { class: "waiting" }, [
        el("strong", { text: both("곧 시작", "Starting soon") }),
        el("p", {}, tr(view.title) + " · " + tr(both((snapshot.seat + 1) + "번 자리", "seat " + (snapshot.seat + 1)))),
      ]);
    }
    const sealed = view.turn && view.turn.sealed;
    return el("div", { class: "waiting" }, [
      el("div", { text: both("다른 선수를 기다리는 중", "Waiting for the others") }),
      el("div", { class: "hint", text: view.turn ? view.turn.phase : "" }),
      sealed ? el("div", { class: "hint", text: both(sealed[0] + "/" + sealed[1] + " 제출", sealed[0] + "/" + sealed[1] + " submitted") }) : null,
    ]);
  }

  document.addEventListener("DOMContentLoaded", function () {
    live = Live.connect("/seat", {
      keyOf: function (p) { return p.table ? p.table.table : null; },
      onSnapshot: received,
      onRefused: function (error) { showError(error); forms.clear(); $("decision").replaceChildren(); },
    });
    live.socket.on("revoked", function () {
      showError({ code: "auth/link_revoked", ko: "이 카드는 재발급되어 더 이상 쓸 수 없습니다. 진행 요원에게 새 카드를 받으세요.",
                  en: "This card was re-issued and no longer works. Ask the staff for your new card." });
      forms.clear();
      $("decision").replaceChildren();
      $("holdings").replaceChildren();
      live.socket.disconnect();
    });
    I18N.onChange(function () { if (snapshot) render(); });
  });
})();
