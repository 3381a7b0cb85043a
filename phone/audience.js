// The hall's phone (issue 28): the show's open questions (newest first) with big buttons, a
// confirm step, a receipt; once one closes, what this phone chose; once it is resolved, right or
// wrong, with the phone's score and rank. No login: the server knows this phone by a cookie, and by a nickname
// it may choose (shown on the projector's leaderboard). It renders what the server sends.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  const root = $("audience");
  const show = root.dataset.show;
  let crowd = null;  // the newest payload: questions, board, players
  let me = null;  // this phone's own: name, votes, points, rank
  let picking = null;  // {question, option} while the confirm step is open
  let live = null;
  const NICK_ASKED = "referee.crowd.nick-asked." + show;

  function showError(error) {
    $("error").hidden = !error;
    $("error").textContent = error ? tr({ ko: error.ko, en: error.en }) : "";
  }

  function nameOf(entry) { return entry.name || tr(entry.guest); }

  // The questions this phone shows, newest first, each with its own state: every open one, and
  // the newest of those closed or answered (at most SHOWN in all), so a phone that answered an
  // earlier one sees its result beside the one open now.
  const SHOWN = 4;
  function shown() {
    const list = ((crowd && crowd.questions) || []).slice().reverse();
    const open = list.filter(function (q) { return q.state === "open"; });
    const rest = list.filter(function (q) { return q.state !== "open"; });
    return open.concat(rest.slice(0, Math.max(1, SHOWN - open.length)));
  }

  function mineFor(q) { return me && me.votes ? me.votes[q.id] : undefined; }

  function share(q, i) {
    return q.total ? Math.round(100 * q.counts[i] / q.total) + "%" : "0%";
  }

  function verdict(q) {
    const chosen = mineFor(q);
    const right = chosen !== undefined && q.answer.indexOf(chosen) >= 0;
    return el("p", { class: "aq-verdict " + (right ? "right" : "wrong"), "data-role": "verdict", "data-question": q.id,
                     text: chosen === undefined ? both("이번에는 참여하지 않았습니다", "You sat this one out")
                       : right ? both("정답! +1점", "Right! +1") : both("아쉽게도 틀렸습니다", "Not this time") });
  }

  function drawQuestion() {
    const box = $("question");
    const list = shown();
    if (!list.length) {
      box.replaceChildren(el("p", { class: "aq-wait", text: both("곧 질문이 열립니다. 화면을 지켜보세요!",
                                                                 "A question opens soon: watch the big screen!") }));
      return;
    }
    box.replaceChildren.apply(box, list.map(card));
  }

  // One question: its options as big buttons while open (a confirm step, then a receipt), the
  // split once closed, right or wrong once resolved.
  function card(q) {
    const chosen = mineFor(q);
    const parts = [];
    if (q.source && q.source.title) parts.push(el("div", { class: "aq-source", text: q.source.title }));
    parts.push(el("div", { class: "aq-text", "data-question": q.id, text: q.text }));
    const options = el("div", { class: "aq-options" }, q.options.map(function (label, i) {
      const right = q.answer && q.answer.indexOf(i) >= 0;
      const picked = chosen === i || (picking && picking.question === q.id && picking.option === i);
      return el("button", {
        type: "button", class: "aq-option" + (picked ? " picked" : "") + (right ? " right" : ""),
        "data-option": String(i), disabled: q.state !== "open" || chosen !== undefined || !!(picking && picking.sending),
        onclick: function () { picking = { question: q.id, option: i }; showError(null); drawQuestion(); },
      }, [el("span", { text: label }), q.state !== "open" ? el("span", { class: "aq-share" }, share(q, i)) : null]);
    }));
    parts.push(options);
    if (q.state === "open" && chosen === undefined && picking && picking.question === q.id && picking.sending) {
      parts.push(el("p", { class: "aq-receipt aq-sending", "data-role": "sending", "aria-live": "polite",
                           text: both("보내는 중: " + tr(q.options[picking.option]) + (picking.tries ? " (다시 보내는 중)" : ""),
                                      "Sending: " + tr(q.options[picking.option]) + (picking.tries ? " (trying again)" : "")) }));
    } else if (q.state === "open" && chosen === undefined && picking && picking.question === q.id) {
      parts.push(el("div", { class: "confirm-actions" }, [
        el("button", { type: "button", class: "big", text: both("다시 고르기", "Change"),
                       onclick: function () { picking = null; drawQuestion(); } }),
        el("button", { type: "button", class: "big primary", "data-action": "confirm",
                       text: both("확정: " + tr(q.options[picking.option]), "Confirm: " + tr(q.options[picking.option])),
                       onclick: function () { submit(q.id, picking.option); } }),
      ]));
    } else if (chosen !== undefined && q.state === "open") {
      parts.push(el("p", { class: "aq-receipt", "data-role": "receipt",
                           text: both("예측 완료: " + tr(q.options[chosen]) + ". 결과를 기다리세요",
                                      "Locked in: " + tr(q.options[chosen]) + ". Wait for the result") }));
    } else if (q.state === "closed") {
      parts.push(el("p", { class: "aq-closed", "data-role": "closed",
                           text: chosen !== undefined ? both("마감. 내 예측: " + tr(q.options[chosen]), "Closed. Your pick: " + tr(q.options[chosen]))
                             : both("마감되었습니다", "Closed") }));
    } else if (q.state === "resolved") {
      parts.push(verdict(q));
    }
    return el("div", { class: "aq-card", "data-question": q.id, "data-state": q.state }, parts);
  }

  function drawMine() {
    const box = $("mine");
    box.hidden = !me;
    if (!me) return;
    $("nick-chip").textContent = nameOf(me) + " ✎";
    box.replaceChildren(el("p", { class: "aq-score", "data-role": "score",
      text: me.rank ? both(me.points + "점 · " + I18N.place(me.rank, me.shared).ko + " / " + me.players + "명",
                           me.points + " pts · " + I18N.place(me.rank, me.shared).en + " of " + me.players)
        : both(me.points + "점", me.points + " pts") }));
  }

  function drawBoard() {
    const box = $("board");
    const board = (crowd && crowd.board) || [];
    box.hidden = !board.length || !board.some(function (b) { return b.points > 0; });
    box.replaceChildren(el("div", { class: "aq-board" }, [
      el("h2", { text: both("관객 순위", "Audience leaderboard") }),
      el("ol", {}, board.map(function (b) {
        const mine = me && (b.name ? b.name === me.name : tr(b.guest) === tr(me.guest));
        return el("li", { class: mine ? "me" : "" }, nameOf(b) + " · " + tr(both(b.points + "점", b.points + " pts")));
      })),
    ]));
  }

  function draw() { drawQuestion(); drawMine(); drawBoard(); }

  // A prediction is sent until it has an answer: when a whole hall taps at once the server may
  // answer late (net/timeout) or its process be too busy (server/error). Sending it again is safe
  // (one per phone and question: the server answers a resend with the first choice), so the phone
  // does it by itself, a few seconds apart, while the question is open, and says it is sending.
  const RESEND = ["net/timeout", "server/error", "rate/limited"];
  const RESENDS = 4;

  // The page's requests carry the device's cookie: a prediction, a nickname (form posts) and its
  // own record. A prediction is no socket's event: deploy's nginx takes the hall's predictions
  // itself (deploy/nginx/hall.lua); the server answers the same.
  function request(what, form) {
    const stop = new AbortController();
    const timer = setTimeout(function () { stop.abort(); }, 8000);
    return fetch("/a/" + encodeURIComponent(show) + "/" + what, {
      method: form ? "POST" : "GET", credentials: "same-origin", signal: stop.signal,
      body: form ? new URLSearchParams(form) : undefined,
    }).then(function (response) { return response.json(); })
      .then(function (ack) { return ack && typeof ack === "object" ? ack : Live.NO_ANSWER; },
            function () { return Live.NO_ANSWER; })
      .finally(function () { clearTimeout(timer); });
  }

  function post(question, option) { return request("predict", { question: question, option: String(option) }); }

  function isOpen(question) {
    const q = ((crowd && crowd.questions) || []).find(function (o) { return o.id === question; });
    return !!q && q.state === "open";
  }

  function submit(question, option, tries) {
    tries = tries || 0;
    picking = { question: question, option: option, sending: true, tries: tries };
    drawQuestion();
    post(question, option).then(function (ack) {
      const code = ack && ack.error && ack.error.code;
      if ((!ack || !ack.ok) && RESEND.indexOf(code) >= 0 && tries < RESENDS && isOpen(question)) {
        setTimeout(function () { submit(question, option, tries + 1); }, 1000 + Math.random() * 2000);
        return;
      }
      if (!ack || !ack.ok) {
        picking = code === "crowd/closed" ? null : { question: question, option: option };
        showError(ack && ack.error);
        draw();
        return;
      }
      picking = null;
      me = Object.assign({}, me || {}, { votes: Object.assign({}, (me && me.votes) || {}, { [question]: ack.prediction.option }) });
      showError(null);
      draw();
    });
  }

  // A question this phone answered was just resolved: its score and rank, a moment later (a
  // whole hall asks at once otherwise).
  let askTimer = null;
  function askMeSoon() {
    clearTimeout(askTimer);
    askTimer = setTimeout(function () {
      request("me").then(function (ack) { if (ack && ack.ok) { me = ack.me; draw(); } });
    }, Math.random() * 3000);
  }

  function receive(payload, event) {
    if (event === "me") { me = payload; draw(); return; }
    if (crowd && payload.seq < crowd.seq) return;  // the page's first payload may be newer
    const before = crowd;
    crowd = payload;
    const resolvedNow = (payload.questions || []).some(function (q) {
      const old = before && before.questions.find(function (o) { return o.id === q.id; });
      return q.state === "resolved" && mineFor(q) !== undefined && (!old || old.state !== "resolved");
    });
    if (resolvedNow) askMeSoon();
    draw();
  }

  function nickForm(open) {
    $("nick-form").hidden = !open;
    if (open) { $("nick-input").value = (me && me.name) || ""; $("nick-input").focus(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    // The page opens with the show's questions and this phone's record as the server rendered
    // it, then takes what changes: from nginx's channel where deploy's nginx sends it (`push`),
    // else on the /crowd socket.
    const now = JSON.parse($("audience-now").textContent);
    crowd = now.crowd;
    me = now.me;
    if (now.push) {
      live = Live.stream("/a/" + encodeURIComponent(show) + "/live", { event: "crowd", onSnapshot: receive });
    } else {
      live = Live.connect("/crowd", {
        auth: { show: show }, lane: "public", events: ["crowd", "me"],
        versionOf: function (p) { return p.seq != null ? p.seq : 0; },
        keyOf: function (p) { return p.seq != null ? "crowd" : "me"; },
        onSnapshot: receive,
        onRefused: function (error) { showError(error); live.end("refused"); },
      });
    }
    $("nick-chip").addEventListener("click", function () { nickForm($("nick-form").hidden); });
    $("nick-skip").addEventListener("click", function () { localStorage.setItem(NICK_ASKED, "1"); nickForm(false); });
    $("nick-form").addEventListener("submit", function (event) {
      event.preventDefault();
      request("nickname", { name: $("nick-input").value }).then(function (ack) {
        if (!ack || !ack.ok) { showError(ack && ack.error); return; }
        localStorage.setItem(NICK_ASKED, "1");
        me = Object.assign({}, me || {}, { name: ack.name });
        showError(null);
        nickForm(false);
        draw();
      });
    });
    if (!localStorage.getItem(NICK_ASKED)) nickForm(true);
    I18N.onChange(draw);
    draw();
  });
})();
