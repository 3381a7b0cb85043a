// The hall's predictions on the projector (issue 28): while a question is open, its split as a
// band of bars with counts and percentages at the bottom of the screen (the server sends at most
// two updates a second however many phones vote), then "마감", then the right answer for a while
// (an answer comes before another open question, which then comes back);
// and, when staff put it on the projector, the audience's top 10 over the whole board. Only
// public things: counts, and nicknames staff did not hide (a hidden one shows as "관객 1234").
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const SHOW_RESOLVED = 8000;  // a question leaves the screen this long after its answer showed (ms)
  let latest = null;
  let timer = null;
  const resolvedAt = {};  // question id -> when this screen first saw it resolved

  function nameOf(entry) { return entry.name || tr(entry.guest); }

  // The question on screen (one: the layer model's question region): an answer the hall has not
  // seen yet first (for a while), then the newest open one, else the newest closed one; never
  // one staff took off the projector. `others`: how many more are open (on the phones).
  const seenOpen = {};
  function onScreen(payload) {
    const list = (payload.questions || []).filter(function (q) { return !q.off; });
    const now = Date.now();
    list.forEach(function (q, i) {
      if (q.state !== "resolved") seenOpen[q.id] = true;
      else if (!resolvedAt[q.id] && (seenOpen[q.id] || i === list.length - 1)) resolvedAt[q.id] = now;
    });
    const fresh = list.filter(function (q) { return q.state === "resolved" && resolvedAt[q.id] && now - resolvedAt[q.id] < SHOW_RESOLVED; });
    const open = list.filter(function (q) { return q.state === "open"; });
    const closed = list.filter(function (q) { return q.state === "closed"; });
    const q = fresh.length ? fresh[fresh.length - 1] : open.length ? open[open.length - 1] : closed[closed.length - 1] || null;
    return { q: q, others: open.filter(function (o) { return o !== q; }).length };
  }

  // The page's policy allows no inline style attribute: the width is set through the DOM.
  function fill(share) {
    const node = el("span", { class: "cr-fill" });
    node.style.width = share + "%";
    return node;
  }

  function bars(q) {
    return el("div", { class: "cr-bars cr-n" + q.options.length }, q.options.map(function (label, i) {
      const right = q.answer && q.answer.indexOf(i) >= 0;
      const share = q.total ? Math.round(100 * q.counts[i] / q.total) : 0;
      return el("div", { class: "cr-row" + (right ? " right" : "") + (q.answer && !right ? " wrong" : ""),
                         "data-option": String(i) }, [
        el("div", { class: "cr-top" }, [
          el("span", { class: "cr-label", text: label }),
          el("span", { class: "cr-share", "data-role": "share" }, share + "%"),
        ]),
        el("div", { class: "cr-bar" }, [fill(share)]),
        el("div", { class: "cr-count", "data-role": "count", text: both(q.counts[i] + "명", String(q.counts[i])) }),
      ]);
    }));
  }

  // 2-4 options in a row under the board, 5-9 down the side column (the stage's layer model).
  const TALL = 5;

  function question(q, others) {
    const answer = q.answer ? q.answer.map(function (i) { return tr(q.options[i]); }).join(", ") : "";
    const more = others ? both(" · 다른 질문 " + others + "개 진행 중", " · " + others + " more open") : both("", "");
    const state = q.state === "open" ? both("관객 예측 중 · " + q.total + "명" + more.ko, "Audience predicting · " + q.total + more.en)
      : q.state === "closed" ? both("예측 마감 · " + q.total + "명" + more.ko, "Predictions closed · " + q.total + more.en)
        : both("정답: " + answer + more.ko, "Answer: " + answer + more.en);
    return el("div", { class: "cr-question cr-" + q.state + (q.options.length >= TALL ? " cr-tall" : ""), "data-question": q.id,
                       "data-layer": q.options.length >= TALL ? "side" : "quest" }, [
      el("div", { class: "cr-head" }, [
        el("span", { class: "cr-text", text: q.text }),
        el("span", { class: "cr-state", "data-role": "state", text: state }),
      ]),
      bars(q),
    ]);
  }

  function board(entries, players) {
    return el("div", { class: "cr-board", "data-role": "crowd-board", "data-layer": "full" }, [
      el("div", { class: "cr-board-title", text: both("관객 순위 · " + players + "명 참여", "Audience leaderboard · " + players + " playing") }),
      entries.length ? el("ol", {}, entries.map(function (b) {
        return el("li", { value: String(b.rank), class: b.rank === 1 ? "first" : "" }, [
          el("span", { class: "cr-rank", text: I18N.place(b.rank, b.shared) }),
          el("span", { class: "cr-name" }, nameOf(b)),
          el("span", { class: "cr-points", text: both(b.points + "점", b.points + (b.points === 1 ? " pt" : " pts")) }),
        ]);
      })) : el("p", { class: "cr-empty", text: both("아직 맞힌 사람이 없습니다", "No right answers yet") }),
    ]);
  }

  // Where the hall joins: the QR and the short address, beside the question and the board.
  function joinChip() {
    const show = document.getElementById("display").dataset.show;
    const address = window.Crowd.address || (location.origin + "/a/" + encodeURIComponent(show));
    return el("div", { class: "cr-join", "data-role": "crowd-join" }, [
      el("img", { class: "cr-join-qr", src: "/display/" + encodeURIComponent(show) + "/audience.svg", alt: "QR: " + address }),
      Live.address(address.replace(/^https?:\/\//, ""), true, { class: "cr-join-url" }),
    ]);
  }

  // Draw the newest payload (or `payload`) into `box`, the page's crowd layer.
  function render(box, payload) {
    latest = payload || latest;
    clearTimeout(timer);
    if (!latest) {
      box.hidden = true;
      if (window.Stage) { Stage.set("side", false); Stage.set("full", false, "crowd"); }
      return;
    }
    const found = onScreen(latest);
    const q = found.q;
    const parts = [];
    if (latest.board_on) parts.push(board((latest.board || []).slice(0, 10), latest.players || 0));
    if (q) parts.push(question(q, found.others));
    // Where to join goes with what the hall can still play: the open question, the board.
    const host = q && q.state === "open" ? parts[parts.length - 1] : latest.board_on ? parts[0] : null;
    if (host) host.appendChild(joinChip());
    box.hidden = !parts.length;
    box.classList.toggle("with-board", !!latest.board_on);
    box.replaceChildren.apply(box, parts);
    // The layers it holds up: the side column for a tall question, the board's region for the
    // leaderboard (stage.js; an exported page, with no crowd, has neither).
    if (window.Stage) {
      Stage.set("side", !!q && q.options.length >= TALL);
      Stage.set("full", !!latest.board_on, "crowd");
    }
    // A resolved answer leaves the screen by itself (for the open question, if one is).
    if (q && q.state === "resolved") timer = setTimeout(function () { render(box, null); }, SHOW_RESOLVED - (Date.now() - resolvedAt[q.id]) + 50);
  }

  window.Crowd = { render: render, address: null };
})();
