// The console's "관객 예측" view (issue 28): the questions the running tables offer now, one tap
// each; a question typed by hand (2-9 options); every question with its live split, "마감" and,
// for one typed by hand, the right answer to pick; the audience's top 10 with a switch that
// hides a nickname from the projector; the leaderboard on or off the projector. It renders what
// the server sends (the dealer snapshot's `crowd`, and the `crowd` counts as they move) and
// sends staff commands; it holds no rules.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  let seconds = "";  // the closing time chosen for the next question ("" = at the table's reveal)

  function counts(q) {
    return el("ul", { class: "crowd-counts" }, q.options.map(function (label, i) {
      const right = q.answer && q.answer.indexOf(i) >= 0;
      const share = q.total ? Math.round(100 * q.counts[i] / q.total) : 0;
      return el("li", { class: right ? "right" : "", "data-option": String(i) },
                tr(label) + " · " + q.counts[i] + " (" + share + "%)" + (right ? " ✓" : ""));
    }));
  }

  function questionCard(q, command) {
    const state = { open: both("예측 받는 중", "Open"), closed: both("마감", "Closed"), resolved: both("정답 공개", "Answered") }[q.state];
    const actions = [];
    if (q.state === "open") {
      actions.push(el("button", { type: "button", class: "big", "data-action": "close-question",
                                  onclick: function () { command("close_question", { question: q.id }); } },
                      tr(both("지금 마감", "Close now"))));
    }
    // A table's question is answered by the table; one typed by hand (or a table's that staff
    // must settle) by a tap on the right option.
    if (q.state !== "resolved" || !q.source) {
      actions.push(el("div", { class: "crowd-answer" }, [
        el("span", { class: "caption", text: q.source ? both("테이블 결과로 자동 채점. 직접 정하기:", "Scored from the table's result. Or pick:")
          : both("정답 고르기:", "Pick the right answer:") }),
      ].concat(q.options.map(function (label, i) {
        return el("button", { type: "button", "data-answer": String(i),
                              onclick: function () { command("resolve_question", { question: q.id, answer: [i] }); } }, tr(label));
      }))));
    }
    // The projector shows a question until it has shown its answer a moment (display/crowd.js);
    // staff may take any question off the projector at any time (the phones keep it).
    actions.push(el("button", { type: "button", class: "big", "data-action": q.off ? "question-on" : "question-off",
                                onclick: function () { command("question_off", { question: q.id, off: !q.off }); } },
                    tr(q.off ? both("프로젝터에 다시 띄우기", "Back on the projector") : both("프로젝터에서 내리기", "Off the projector"))));
    return el("div", { class: "crowd-question card", "data-question": q.id, "data-state": q.state, "data-off": q.off ? "1" : "0" }, [
      el("div", { class: "crowd-q-head" }, [el("strong", { text: q.text }), el("span", { class: "badge", text: state }),
                                            el("span", { class: "caption" }, tr(both(q.total + "명", q.total + " in")))]),
      q.source && q.source.title ? el("div", { class: "caption", text: q.source.title }) : null,
      counts(q),
      el("div", { class: "actions" }, actions),
    ]);
  }

  function offersCard(offers, command) {
    const pick = el("select", { "aria-label": "마감 / Closes", "data-keep": "crowd-seconds",
                                onchange: function (e) { seconds = e.target.value; } },
                    [["", both("답이 나오면 자동 마감 (직접 만든 질문은 직접)", "Closes when its answer is out (your own: by hand)")], ["30", both("30초 뒤 마감", "Closes in 30 s")],
                     ["60", both("60초 뒤 마감", "Closes in 60 s")], ["120", both("2분 뒤 마감", "Closes in 2 min")]]
                      .map(function (o) { return el("option", { value: o[0], selected: o[0] === seconds }, tr(o[1])); }));
    const rows = [];
    offers.forEach(function (offer) {
      offer.questions.forEach(function (p) {
        rows.push(el("div", { class: "crowd-offer", "data-offer": offer.table + ":" + p.key }, [
          el("div", {}, [el("strong", { text: p.text }), el("div", { class: "caption", text: offer.title })]),
          el("button", { type: "button", class: "big primary", "data-action": "ask",
                         onclick: function () {
                           const args = { table: offer.table, key: p.key };
                           if (seconds) args.seconds = Number(seconds);
                           command("ask_question", args);
                         } }, tr(both("질문 열기", "Ask"))),
        ]));
      });
    });
    return el("div", { class: "card" }, [
      el("h3", { text: both("지금 낼 수 있는 질문", "Questions the tables offer now") }),
      pick,
      rows.length ? el("div", {}, rows) : el("p", { class: "caption", text: both("진행 중인 테이블이 없습니다", "No table is running") }),
    ]);
  }

  function customCard(command) {
    const text = el("input", { name: "crowd-text", maxlength: 120, "data-keep": "crowd-text",
                               placeholder: tr(both("질문 (예: 누가 먼저 STOP을 낼까요?)", "Question")) });
    const options = el("textarea", { name: "crowd-options", rows: 4, "data-keep": "crowd-options",
                                     placeholder: tr(both("보기 2-9개, 한 줄에 하나씩", "2-9 options, one per line")) });
    const form = el("form", { class: "stack crowd-custom" }, [
      el("h3", { text: both("직접 만든 질문", "A question of your own") }), text, options,
      el("button", { type: "submit", class: "big" }, tr(both("질문 열기", "Ask"))),
    ]);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const lines = options.value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
      const args = { text: text.value, options: lines };
      if (seconds) args.seconds = Number(seconds);
      command("ask_question", args).then(function (ack) { if (ack.ok) { text.value = ""; options.value = ""; } });
    });
    return el("div", { class: "card" }, [form]);
  }

  function boardCard(crowd, command) {
    return el("div", { class: "card crowd-board" }, [
      el("h3", { text: both("관객 순위 (" + crowd.players + "명)", "Audience leaderboard (" + crowd.players + ")") }),
      // A button that says what the hall will see when it is pressed (and that it is up now).
      el("button", { type: "button", class: "big" + (crowd.board_on ? " danger" : " primary"), "data-setting": "audience_board",
                     "aria-pressed": String(!!crowd.board_on),
                     onclick: function () { command("audience_board", { on: !crowd.board_on }); } },
         tr(crowd.board_on ? both("관객 순위 내리기 (지금 프로젝터에 있음)", "Take the leaderboard off (on the projector now)")
                           : both("프로젝터에 관객 순위 띄우기 (상위 10명, 경기 화면 대신)", "Put the leaderboard on the projector (top 10, in the match's place)"))),
      el("ol", {}, (crowd.board || []).map(function (b) {
        return el("li", { "data-device": b.device }, [
          (b.nickname || tr(b.guest)) + " · " + tr(both(b.points + "점", b.points + " pts")) + " ",
          b.nickname ? el("button", { type: "button", "data-action": "hide-nickname",
                                      onclick: function () { command("hide_nickname", { device: b.device, hidden: !b.hidden }); } },
                          tr(b.hidden ? both("닉네임 다시 보이기", "Show the nickname") : both("닉네임 숨기기", "Hide the nickname"))) : null,
        ]);
      })),
    ]);
  }

  // `crowd`: the snapshot's section; `live`: the newest counts from the `crowd` event (or null).
  function render(box, crowd, live, command) {
    if (!crowd) { box.replaceChildren(); return; }
    const questions = ((live && live.seq >= crowd.seq ? live : crowd).questions || []).slice().reverse();
    box.replaceChildren(
      el("p", {}, [tr(both("관객 주소: ", "Audience address: ")), el("strong", { "data-role": "audience-url" }, crowd.audience_url)]),
      el("div", { class: "crowd-columns" }, [
        el("div", {}, [offersCard(crowd.offers || [], command), customCard(command)]),
        el("div", {}, [el("h3", { text: both("질문", "Questions") })].concat(questions.map(function (q) { return questionCard(q, command); }))
          .concat([boardCard(crowd, command)])),
      ]),
    );
  }

  window.ConsoleCrowd = { render: render };
})();
