// The projector's picture of The Crew: the mission and its condition in Korean, the current trick
// as big cards with whose turn it is, every task with its token, holder and status, and along the
// bottom each member's tricks won, cards left and communicated card with its token (top, middle,
// bottom; "?" in a dead zone). Setup steps show the commander's question, the draft and the
// distress vote. Only the public view arrives here: hands are never in it, and nothing here could
// draw one.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const COLOURS = {
    B: both("파랑", "blue"), G: both("초록", "green"), P: both("분홍", "pink"), Y: both("노랑", "yellow"), R: both("로켓", "rocket"),
  };
  const POSITION = {
    top: both("최고", "highest"), middle: both("유일", "only"), bottom: both("최저", "lowest"), hidden: both("비공개", "hidden"),
  };

  function cardName(card) { return both(COLOURS[card[0]].ko + " " + card.slice(1), COLOURS[card[0]].en + " " + card.slice(1)); }

  function face(card, extra) {
    if (!card) {
      return el("div", { class: "crew-card crew-back" + (extra ? " " + extra : "") }, [el("span", { class: "crew-card-num" }, "?")]);
    }
    return el("div", { class: "crew-card crew-" + card[0] + (extra ? " " + extra : ""), "data-card": card }, [
      el("span", { class: "crew-card-num" }, card.slice(1)),
      el("span", { class: "crew-card-name", text: COLOURS[card[0]] }),
    ]);
  }

  function nameOf(view, seat) { return view.state.seats[seat].name; }

  function tokenBadge(token) {
    if (!token) return null;
    return el("span", { class: "crew-token" + (token === "Ω" ? " omega" : /^\d$/.test(token) ? " number" : " arrow") }, token);
  }

  // -- top: the mission ------------------------------------------------------------------------

  function statusPill(view) {
    const s = view.state;
    if (s.phase === "over") {
      return s.outcome && s.outcome.success
        ? el("div", { class: "crew-pill good", "data-role": "outcome", text: both("성공", "Accomplished") })
        : el("div", { class: "crew-pill bad", "data-role": "outcome", text: both("실패 · " + s.outcome.trick + "번째 트릭",
          "Failed · trick " + s.outcome.trick) });
    }
    if (s.trick_no > 0) {
      return el("div", { class: "crew-pill", text: both("트릭 " + s.trick_no + " / " + s.tricks_total, "Trick " + s.trick_no + " / " + s.tricks_total) });
    }
    return el("div", { class: "crew-pill", text: s.phase_label });
  }

  function top(view) {
    const m = view.state.mission;
    return el("div", { class: "crew-top" }, [
      el("div", { class: "crew-mission", "data-box": "mission", text: m.title }),
      el("div", { class: "crew-headline", "data-box": "headline", text: m.headline }),
      el("div", { class: "crew-spacer" }),
      statusPill(view),
    ]);
  }

  // -- middle: the trick or the setup step -------------------------------------------------------

  function trickArea(view) {
    const s = view.state;
    const t = s.trick;
    const slots = [];
    const leader = t.leader != null ? t.leader : s.commander;
    const played = {};
    t.plays.forEach(function (p) { played[p.seat] = p.card; });
    for (let i = 0; i < s.seats.length; i++) {
      const seat = (leader + i) % s.seats.length;
      const now = t.to_play === seat;
      slots.push(el("div", { class: "crew-slot" + (now ? " now" : "") + (played[seat] ? " played" : ""), "data-seat": String(seat),
                             "data-box": "slot-" + seat }, [
        played[seat] ? face(played[seat], "crew-big") : el("div", { class: "crew-card crew-empty crew-big" },
          now ? el("span", { class: "crew-slot-turn", text: both("차례", "to play") }) : null),
        el("div", { class: "crew-slot-name" }, nameOf(view, seat)),
      ]));
    }
    const last = s.history[s.history.length - 1];
    const caption = t.plays.length || !last
      ? both(s.trick_no + "번째 트릭", "Trick " + s.trick_no)
      : both("직전 트릭: " + nameOf(view, last.winner) + " 획득 (" + cardName(last.card).ko + ")",
        "Last trick: " + nameOf(view, last.winner) + " won (" + cardName(last.card).en + ")");
    const window_ = s.comm_window && s.seats.some(function (x) { return x.may_communicate; });
    return el("div", { class: "crew-trick" }, [
      el("div", { class: "crew-caption", text: caption }),
      el("div", { class: "crew-slots" }, slots),
      window_ ? el("div", { class: "crew-note", text: both("첫 카드 전: 소통할 수 있습니다", "Before the first card: communication is open") }) : null,
    ]);
  }

  function lastTrickArea(view) {
    const s = view.state;
    const last = s.history[s.history.length - 1];
    if (!last) return null;
    return el("div", { class: "crew-trick" }, [
      el("div", { class: "crew-caption", text: both(last.number + "번째 트릭: " + nameOf(view, last.winner) + " 획득",
        "Trick " + last.number + ": won by " + nameOf(view, last.winner)) }),
      el("div", { class: "crew-slots" }, last.plays.map(function (p) {
        return el("div", { class: "crew-slot played" + (p.seat === last.winner ? " won" : ""), "data-box": "slot-" + p.seat }, [
          face(p.card, "crew-big"), el("div", { class: "crew-slot-name" }, nameOf(view, p.seat)),
        ]);
      })),
    ]);
  }

  function questionArea(view) {
    const s = view.state;
    const q = s.question;
    const rows = [];
    s.seats.forEach(function (x) {
      if (x.seat === s.commander) return;
      const a = q.answers[x.seat];
      rows.push(el("div", { class: "crew-answer" + (q.next === x.seat ? " now" : ""), "data-box": "answer-" + x.seat }, [
        el("span", { class: "crew-answer-name" }, x.name),
        el("span", { class: "crew-answer-reply", text: a ? q.replies[a] : q.next === x.seat ? both("대답 중…", "answering…") : both("—", "—") }),
      ]));
    });
    const task = q.task != null ? s.tasks[q.task] : null;
    return el("div", { class: "crew-setup" }, [
      el("div", { class: "crew-caption", text: both("사령관 " + nameOf(view, s.commander) + "의 질문", "Commander " + nameOf(view, s.commander) + " asks") }),
      el("div", { class: "crew-setup-row" }, [
        task && task.card ? el("div", { class: "crew-setup-card" }, [face(task.card, "crew-mid"), tokenBadge(task.token)]) : null,
        el("div", { class: "crew-setup-col" }, [
          el("div", { class: "crew-question", text: q.text }),
          el("div", { class: "crew-answers" }, rows),
        ]),
      ]),
    ]);
  }

  function distressArea(view) {
    const s = view.state;
    const d = s.distress;
    const labels = { left: both("왼쪽으로", "to the left"), right: both("오른쪽으로", "to the right"), none: both("안 씀", "not used"), any: both("상관없음", "either") };
    return el("div", { class: "crew-setup" }, [
      el("div", { class: "crew-caption", text: s.phase === "distress_pass"
        ? both("조난 신호! 모두 " + (d.direction === "left" ? "왼쪽" : "오른쪽") + "으로 카드 한 장", "Distress signal! One card each to the " + d.direction)
        : both("조난 신호를 쓸까요?", "Use the distress signal?") }),
      el("div", { class: "crew-answers" }, s.seats.map(function (x) {
        const v = d.votes[x.seat];
        const chosen = d.chosen ? d.chosen[x.seat] : null;
        return el("div", { class: "crew-answer" + (d.owing[x.seat] || chosen === false ? " now" : ""), "data-box": "answer-" + x.seat }, [
          el("span", { class: "crew-answer-name" }, x.name),
          el("span", { class: "crew-answer-reply", text: chosen != null ? (chosen ? both("✓ 골랐음", "✓ chosen") : both("고르는 중…", "choosing…"))
            : v ? labels[v] : both("투표 중…", "voting…") }),
        ]);
      })),
    ]);
  }

  function setupArea(view) {
    const s = view.state;
    if (s.phase === "question" && s.question) return questionArea(view);
    if (s.phase === "distress_vote" || s.phase === "distress_pass") return distressArea(view);
    let text = s.phase_label;
    if (s.phase === "draft") text = both("과제 고르기: 사령관부터 시계 방향으로 한 장씩", "Choosing tasks: commander first, clockwise, one at a time");
    if (s.phase === "choose") text = both("사령관 " + I18N.josa(nameOf(view, s.commander), "이/가") + " 정하는 중…", "Commander " + nameOf(view, s.commander) + " is choosing…");
    if (s.phase === "handover") text = s.handover && s.handover.proposal
      ? both(nameOf(view, s.handover.proposal.seat) + " → " + nameOf(view, s.handover.proposal.to) + ": 과제 넘기기 동의를 기다립니다",
        nameOf(view, s.handover.proposal.seat) + " → " + nameOf(view, s.handover.proposal.to) + ": waiting for everyone to agree")
      : both("과제 하나를 다른 대원에게 넘길 수 있습니다", "One task may be handed to another member");
    if (s.phase === "random_pass") text = both("모두 오른쪽 대원에게서 카드 한 장을 무작위로 가져갑니다", "Everyone draws a random card from the right");
    if (s.phase === "deal") text = both("카드를 나누는 중…", "Dealing…");
    return el("div", { class: "crew-setup" }, [
      el("div", { class: "crew-caption", text: s.phase_label }),
      el("div", { class: "crew-question", text: text }),
    ]);
  }

  function tasksArea(view) {
    const s = view.state;
    if (!s.tasks.length) {
      return el("div", { class: "crew-tasks", "data-box": "tasks" }, [
        el("div", { class: "crew-caption", text: both("특수 조건", "Special condition") }),
        roles(view),
      ]);
    }
    const rows = s.tasks.map(function (t) {
      const mark = t.status === "done" ? "✓" : t.status === "failed" ? "✗" : null;
      return el("div", { class: "crew-task st-" + t.status, "data-task": String(t.index), "data-box": "task-" + t.index }, [
        face(t.card, "crew-small"),
        tokenBadge(t.token),
        el("span", { class: "crew-task-owner" }, t.owner != null ? nameOf(view, t.owner) : tr(both("미정", "free"))),
        mark ? el("span", { class: "crew-task-mark", text: mark }) : null,
      ]);
    });
    return el("div", { class: "crew-tasks" + (s.tasks.length > 6 ? " many" : ""), "data-box": "tasks" }, [
      el("div", { class: "crew-caption", text: both("과제 " + s.tasks.filter(function (t) { return t.status === "done"; }).length + " / " + s.tasks.length + " 완료",
        "Tasks " + s.tasks.filter(function (t) { return t.status === "done"; }).length + " / " + s.tasks.length + " done") }),
      el("div", { class: "crew-task-list" }, rows),
      roles(view),
    ]);
  }

  function roles(view) {
    const r = view.state.roles;
    const lines = [];
    if (r.labels && r.special != null) lines.push(el("div", { class: "crew-role", text: both(nameOf(view, r.special) + ": " + r.labels.special.ko, nameOf(view, r.special) + ": " + r.labels.special.en) }));
    if (r.labels && r.labels.special2 && r.special2 != null) lines.push(el("div", { class: "crew-role", text: both(nameOf(view, r.special2) + ": " + r.labels.special2.ko, nameOf(view, r.special2) + ": " + r.labels.special2.en) }));
    if (r.muted != null) lines.push(el("div", { class: "crew-role", text: both(nameOf(view, r.muted) + ": 소통 금지", nameOf(view, r.muted) + ": no communication") }));
    return lines.length ? el("div", { class: "crew-roles" }, lines) : null;
  }

  // -- bottom: the crew ---------------------------------------------------------------------------

  function commCard(x) {
    const c = x.comm;
    if (!c) {
      return el("div", { class: "crew-comm none", text: x.muted ? both("소통 금지", "muted") : x.comm_used ? both("사용함", "used") : both("소통 전", "not yet") });
    }
    return el("div", { class: "crew-comm" + (c.played ? " played" : ""), "data-position": c.position }, [
      el("div", { class: "crew-comm-card" }, [face(c.card, "crew-mid"), el("span", { class: "crew-comm-token pos-" + c.position })]),
      el("span", { class: "crew-comm-pos", text: POSITION[c.position] }),
    ]);
  }

  function crew(view) {
    const s = view.state;
    return el("div", { class: "crew-seats n" + s.seats.length }, s.seats.map(function (x) {
      const now = s.trick.to_play === x.seat;
      return el("div", { class: "crew-seat" + (now ? " now" : ""), "data-seat": String(x.seat), "data-box": "member-" + x.seat }, [
        el("div", { class: "crew-seat-head" }, [
          el("span", { class: "crew-seat-name", "data-box": "member-name-" + x.seat }, x.name),
          x.commander ? el("span", { class: "crew-badge", text: both("사령관", "Cmdr") }) : null,
        ]),
        el("div", { class: "crew-seat-stats" }, [
          el("div", { class: "crew-stat" }, [el("span", { class: "crew-stat-n" }, String(x.tricks_won)), el("span", { class: "crew-stat-l", text: both("트릭", "tricks") })]),
          el("div", { class: "crew-stat" }, [el("span", { class: "crew-stat-n" }, String(x.hand_count)), el("span", { class: "crew-stat-l", text: both("장", "cards") })]),
        ]),
        commCard(x),
      ]);
    }));
  }

  // -- the moment ---------------------------------------------------------------------------------

  function moment(view, previous) {
    const s = view.state;
    const was = previous && previous.table === view.table ? previous.state : null;
    if (!was) return null;
    if (s.phase === "over" && was.phase !== "over") {
      const r = s.outcome && s.outcome.reason;
      return s.outcome.success ? both("미션 " + s.mission.id + " 성공!", "Mission " + s.mission.id + " accomplished!")
        : both("미션 실패! " + (r ? r.ko : ""), "Mission failed! " + (r ? r.en : ""));
    }
    if (s.distress.used && !was.distress.used) return both("조난 신호!", "Distress signal!");
    for (let i = 0; i < s.seats.length; i++) {
      const c = s.seats[i].comm;
      if (c && !was.seats[i].comm) {
        return both(s.seats[i].name + " 소통: " + cardName(c.card).ko + " (" + POSITION[c.position].ko + ")",
          s.seats[i].name + " communicates " + cardName(c.card).en + " (" + POSITION[c.position].en + ")");
      }
    }
    return null;
  }

  window.DisplayGames = window.DisplayGames || {};
  window.DisplayGames.the_crew = {
    render: function (board, view, previous) {
      const s = view.state;
      const playing = s.phase === "play" || s.phase === "random_pass" || (s.phase === "over" && s.history.length);
      let middle;
      if (s.phase === "over") middle = lastTrickArea(view) || setupArea(view);
      else if (playing) middle = trickArea(view);
      else middle = setupArea(view);
      const many = s.tasks.length > 6 ? " many-tasks" : "";
      board.replaceChildren(el("div", { class: "crew" + many + (s.phase === "over" ? (s.outcome.success ? " success" : " failure") : "") }, [
        top(view),
        s.phase === "over" ? null : el("div", { class: "crew-condition", "data-box": "condition", text: s.mission.condition }),
        s.phase === "over" ? el("div", { class: "crew-result " + (s.outcome.success ? "good" : "bad"), "data-role": "result", "data-box": "result",
          text: s.outcome.success ? both("미션 성공 · " + s.outcome.trick + "번째 트릭", "Mission accomplished · trick " + s.outcome.trick)
            : both("미션 실패 · " + s.outcome.trick + "번째 트릭 · " + ((s.outcome.reason || {}).ko || ""),
              "Mission failed · trick " + s.outcome.trick + " · " + ((s.outcome.reason || {}).en || "")) }) : null,
        el("div", { class: "crew-main" }, [middle, tasksArea(view)]),
        crew(view),
      ]));
      return moment(view, previous);
    },
  };
})();
