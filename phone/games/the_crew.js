// The phone's picture of a Crew member: the own hand as cards (the ones that may be played now
// marked, the ones that may be communicated with their token), the own tasks, the current trick,
// every task on the table, the communicated cards, the mission and its condition. Only this seat's
// view arrives here; the decisions (a card to play, a task, a communication, a vote) are
// phone.js's generic forms.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const COLOURS = {
    B: both("파랑", "blue"), G: both("초록", "green"), P: both("분홍", "pink"), Y: both("노랑", "yellow"), R: both("로켓", "rocket"),
  };
  const POSITION = {
    top: both("최고", "highest"), middle: both("유일", "only"), bottom: both("최저", "lowest"), hidden: both("데드존", "dead zone"),
  };

  function face(card, extra) {
    if (!card) return el("span", { class: "crp-card crp-back" + (extra ? " " + extra : "") }, [el("span", { class: "crp-num" }, "?")]);
    return el("span", { class: "crp-card crp-" + card[0] + (extra ? " " + extra : ""), "data-card": card }, [
      el("span", { class: "crp-num" }, card.slice(1)),
      el("span", { class: "crp-name", text: COLOURS[card[0]] }),
    ]);
  }

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function section(title, children, cls) {
    return el("section", { class: "crp-section" + (cls ? " " + cls : "") }, [el("h3", { text: title })].concat(children));
  }

  function token(t) {
    return t ? el("span", { class: "crp-token" + (t === "Ω" ? " omega" : "") }, t) : null;
  }

  function hand(view, me) {
    const legal = new Set(me.legal || []);
    const comm = {};
    (me.comm_options || []).forEach(function (c) { comm[c.card] = c.position; });
    const toPlay = view.state.trick.to_play === me.seat;
    const row = el("div", { class: "crp-hand" }, (me.hand || []).map(function (card) {
      const cls = [toPlay ? (legal.has(card) ? "legal" : "illegal") : "", comm[card] ? "shown-ok" : "",
        me.comm && me.comm.card === card ? "shown" : "", me.distress_card === card ? "passing" : ""].join(" ").trim();
      return el("div", { class: "crp-slot " + cls }, [
        face(card),
        comm[card] ? el("span", { class: "crp-tag", text: POSITION[comm[card]] }) : null,
        me.comm && me.comm.card === card ? el("span", { class: "crp-tag shown", text: both("공개 중", "shown") }) : null,
      ]);
    }));
    const notes = [];
    if (toPlay) notes.push(el("p", { class: "crp-now", text: both("내 차례: 밝게 표시된 카드만 낼 수 있습니다", "Your turn: only the bright cards may be played") }));
    if ((me.comm_options || []).length) notes.push(el("p", { class: "hint", text: both("표시(최고/최저/유일)가 붙은 카드로 소통할 수 있습니다 (미션당 한 번)", "Cards tagged highest/lowest/only may be communicated (once per mission)") }));
    if (me.random_pass && me.random_pass.given) {
      notes.push(el("p", { class: "hint" }, [tr(both("넘어간 카드: ", "Card taken from you: ")), face(me.random_pass.given, "crp-mini"),
        me.random_pass.received ? tr(both(" · 받은 카드: ", " · card received: ")) : "", me.random_pass.received ? face(me.random_pass.received, "crp-mini") : null]));
    }
    return section(both("내 손패 " + (me.hand || []).length + "장", "My hand: " + (me.hand || []).length + " cards"), [row].concat(notes), "crp-mine");
  }

  function taskRow(view, t, showOwner) {
    const mark = t.status === "done" ? both("✓ 완료", "✓ done") : t.status === "failed" ? both("✗ 실패", "✗ failed") : both("진행 중", "open");
    return el("div", { class: "crp-task st-" + t.status }, [
      face(t.card, "crp-mini"), token(t.token),
      showOwner ? el("span", { class: "crp-task-owner" }, t.owner != null ? nameOf(view, t.owner) : tr(both("미정", "free"))) : null,
      el("span", { class: "crp-task-mark", text: mark }),
    ]);
  }

  function myTasks(view, seat) {
    const mine = view.state.tasks.filter(function (t) { return t.owner === seat; });
    if (!view.state.tasks.length) return null;
    return section(both("내 과제", "My tasks"), mine.length ? mine.map(function (t) { return taskRow(view, t, false); })
      : [el("p", { class: "hint", text: both("맡은 과제가 없습니다", "No task") })]);
  }

  function trick(view) {
    const s = view.state;
    if (s.phase !== "play" && !s.history.length) return null;
    const t = s.trick;
    const last = s.history[s.history.length - 1];
    const over = s.phase === "over" && last;
    const plays = (over ? last.plays : t.plays).map(function (p) {
      return el("div", { class: "crp-play" + (over && p.seat === last.winner ? " won" : "") }, [face(p.card, "crp-small"),
        el("span", { class: "crp-play-name" }, nameOf(view, p.seat))]);
    });
    const parts = [el("div", { class: "crp-plays" }, plays.length ? plays : [el("p", { class: "hint", text: both("아직 낸 카드가 없습니다", "No card played yet") })])];
    if (t.to_play != null) parts.push(el("p", { class: "crp-turn", text: both("차례: " + nameOf(view, t.to_play), "To play: " + nameOf(view, t.to_play)) }));
    if (last) parts.push(el("p", { class: "hint", text: both(last.number + "번째 트릭: " + nameOf(view, last.winner) + " 획득", "Trick " + last.number + ": won by " + nameOf(view, last.winner)) }));
    const number = over ? last.number : s.trick_no;
    return section(both(number + "번째 트릭 / " + s.tricks_total, "Trick " + number + " / " + s.tricks_total), parts);
  }

  function crew(view, seat) {
    const s = view.state;
    return section(both("대원", "Crew"), [el("div", { class: "crp-crew" }, s.seats.map(function (x) {
      const c = x.comm;
      return el("div", { class: "crp-member" + (x.seat === seat ? " me" : "") + (s.trick.to_play === x.seat ? " now" : "") }, [
        el("div", { class: "crp-member-name" }, [x.name, x.commander ? el("span", { class: "crp-badge", text: both("사령관", "Cmdr") }) : null]),
        el("div", { class: "crp-member-stats", text: both("트릭 " + x.tricks_won + " · " + x.hand_count + "장", "tricks " + x.tricks_won + " · " + x.hand_count + " cards") }),
        c ? el("div", { class: "crp-member-comm" + (c.played ? " played" : "") }, [face(c.card, "crp-mini"),
          el("span", { text: c.position === "hidden" && c.actual ? both("데드존 (" + POSITION[c.actual].ko + ")", "dead zone (" + POSITION[c.actual].en + ")") : POSITION[c.position] })])
          : el("div", { class: "crp-member-comm none", text: x.muted ? both("소통 금지", "muted") : both("소통 전", "not yet") }),
      ]);
    }))]);
  }

  function allTasks(view) {
    const s = view.state;
    if (!s.tasks.length) return null;
    return section(both("모든 과제", "All tasks"), s.tasks.map(function (t) { return taskRow(view, t, true); }));
  }

  function mission(view) {
    const s = view.state;
    const lines = [el("p", { class: "crp-condition", text: s.mission.condition })];
    const r = s.roles;
    if (r.labels && r.special != null) lines.push(el("p", { class: "crp-role", text: both(nameOf(view, r.special) + ": " + r.labels.special.ko, nameOf(view, r.special) + ": " + r.labels.special.en) }));
    if (r.labels && r.labels.special2 && r.special2 != null) lines.push(el("p", { class: "crp-role", text: both(nameOf(view, r.special2) + ": " + r.labels.special2.ko, nameOf(view, r.special2) + ": " + r.labels.special2.en) }));
    if (r.muted != null) lines.push(el("p", { class: "crp-role", text: both(nameOf(view, r.muted) + ": 소통 금지", nameOf(view, r.muted) + ": no communication") }));
    if (s.distress.used) lines.push(el("p", { class: "crp-role", text: both("조난 신호 사용됨", "Distress signal used") }));
    if (s.outcome) {
      const reason = s.outcome.reason || {};
      lines.unshift(el("p", { class: "crp-outcome " + (s.outcome.success ? "good" : "bad"), text: s.outcome.success
        ? both("미션 성공!", "Mission accomplished!") : both("미션 실패 (" + s.outcome.trick + "번째 트릭): " + (reason.ko || ""), "Mission failed (trick " + s.outcome.trick + "): " + (reason.en || "")) }));
    }
    return section(both(s.mission.title.ko + " · " + s.mission.headline.ko, s.mission.title.en + " · " + s.mission.headline.en), lines, "crp-mission");
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.the_crew = function (view, seat) {
    const me = view.state.seats[seat];
    return el("div", { class: "crp" }, [
      mission(view),
      hand(view, me),
      myTasks(view, seat),
      trick(view),
      crew(view, seat),
      allTasks(view),
    ]);
  };
})();
