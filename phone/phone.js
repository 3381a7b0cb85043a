// The phone page: the player's secrets, the decision they owe now with only its legal
// options, a confirm step, a receipt, and a waiting state. It reconnects by itself, and a
// reload shows the same screen (the pending submission and the receipt live in sessionStorage).
//
// A phone follows its player through the evening: every payload names the player's focus
// table (the server's choice: where they owe a move, else their live match, else what comes
// next) and lists all their tables; the phone shows the focus unless the player picked another
// of their tables in the switcher. Payloads of other tables are kept for a switch.
//
// Around the decision: the show clock (counted by the server's clock), notices of a
// correction and of a move the dealer entered for this seat, a warning when the card is open
// on another device too, and whatever the game's picture marks as news (data-now: an
// appraisal's answer), lifted above the decision where the eye is. A game's picture
// (PhoneGames[game](view, seat)) may draw a field of the decision itself with its `control`
// (Reef: the cell tapped on the player's own board). A game's pictures load when its first
// view arrives (static/live.js); nothing else is ever fetched.
//
// A receipt or a notice belongs to a moment: the decisions the seat owed in the first view that
// showed it (for a receipt, the first view from the answer's version on: what the answer itself
// brought, the GO/STOP after a coin, belongs to it). Once the seat owes a decision that was not
// owed then (the next round), it is history and goes (see `moved`). What this tab
// remembers (receipt, pick, pending submission, those moments) belongs to one player: a card
// of another player opened in the same tab starts from nothing.
(function () {
  "use strict";
  const { el, tr, both, inLang } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  let snapshot = null;  // the payload shown
  let meta = null;  // the newest payload: focus and the list of the player's tables
  let live = null;
  let ended = false;  // the card was re-issued: nothing more is shown or sent
  const views = {};  // table id -> newest payload of that table
  const CHOICE = "referee.table";  // the player's own pick in the switcher (this tab only)
  const RECEIPT = "referee.receipt";
  const MOMENTS = "referee.moments";  // notice -> the decisions owed when it was first shown
  const OWNER = "referee.owner";  // whose card this tab's memory belongs to
  const forms = new Map();  // decision key -> its card

  let shownError = null;  // the error on screen: a language switch redraws it

  function showError(error) {
    shownError = error || null;
    $("error").hidden = !error;
    $("error").textContent = error ? I18N.errorText(error) : "";
  }

  function gameOf(view) {
    if (!view) return null;
    return view.state && view.state.program ? "program" : view.game;
  }

  function pictureOf(view) { return (window.PhoneGames || {})[gameOf(view)] || null; }

  function seatLabel(seat) { return both((seat + 1) + "번 자리", "Seat " + (seat + 1)); }

  // A table's name on this phone: a program's stage by its stage name ("3차 배틀: 트리키 코인
  // 결승"), so three Coin matches of one evening never look alike; any other by its game.
  function titleOf(table) { return table.stage && table.stage.title ? table.stage.title : table.title; }

  // -- moments: what was owed when a receipt or a notice was made ------------------------------

  function decisionKey(view, decision) { return view.table + ":" + JSON.stringify(decision); }

  // A short fingerprint of a decision key (sessionStorage keeps lists of them).
  function digest(text) {
    let h = 5381;
    for (let i = 0; i < text.length; i++) h = ((h * 33) ^ text.charCodeAt(i)) >>> 0;
    return h.toString(36) + "." + text.length.toString(36);
  }

  function owedNow(view) {
    return ((view && view.decisions) || []).map(function (d) { return digest(decisionKey(view, d)); });
  }

  // History: the view owes a decision that was not owed at the moment.
  function moved(view, moment) {
    return owedNow(view).some(function (k) { return moment.owed.indexOf(k) < 0; });
  }

  function load(name, empty) {
    try { return JSON.parse(sessionStorage.getItem(name) || "null") || empty; } catch (e) { return empty; }
  }

  // A tab that shows another player's card than last time forgets the other's receipt, pick,
  // pending submission and moments (a handed-round phone must not show them to the next).
  function owner(payload) {
    const who = payload.show.id + "/" + payload.player;
    if (sessionStorage.getItem(OWNER) === who) return;
    [RECEIPT, CHOICE, MOMENTS, "referee.pending"].forEach(function (k) { sessionStorage.removeItem(k); });
    forms.clear();
    sessionStorage.setItem(OWNER, who);
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

  // -- what was sent, in words -------------------------------------------------------------

  function optionWords(options, value, which) {
    const found = (options || []).find(function (o) { return o.value === value || String(o.value) === String(value); });
    return found ? inLang(found.label, which) : String(value);
  }

  function valueWords(field, value, which) {
    if (value == null) return "";
    switch (field.shape) {
      case "one": return optionWords(field.options, value, which);
      case "some": return value.map(function (v) { return optionWords(field.options, v, which); }).join(", ");
      case "assign":
        return (field.items || []).map(function (item) {
          return inLang(item.label, which) + " → " + optionWords(field.options, value[String(item.value)], which);
        }).join(", ");
      default: return String(value);
    }
  }

  // The receipt's sentence in one language: the game's own words when it has them (Quattro's
  // "파랑 4를 가상 플레이어 1에게 주고 교환"), else each field and what was chosen.
  function sentWords(view, decision, move, which) {
    const picture = pictureOf(view);
    const own = picture && picture.receipt ? picture.receipt(decision, move, which) : null;
    if (own) return own;
    if (!decision.fields.length) return inLang(decision.prompt, which);
    return decision.fields.map(function (f) {
      return inLang(f.label, which) + ": " + valueWords(f, move[f.name], which);
    }).join(" · ");
  }

  function receipt() {
    const saved = load(RECEIPT, null);
    const box = $("receipt");
    const view = snapshot && snapshot.table;
    if (!saved || !view || saved.table !== view.table || saved.seat !== snapshot.seat || !saved.words) {
      box.hidden = true;
      return;
    }
    if (!saved.owed && view.version >= saved.version) {
      saved.owed = owedNow(view);  // the answer's moment: the first view that holds it
      sessionStorage.setItem(RECEIPT, JSON.stringify(saved));
    } else if (saved.owed && moved(view, saved)) {
      sessionStorage.removeItem(RECEIPT);  // the next decision is here: this one is history
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(
      el("div", { class: "receipt-head" }, [
        el("span", { class: "tick" }, "✓"),
        el("strong", { text: both("보냈습니다", "Sent") }),
        el("span", { class: "receipt-time" }, I18N.clockTime(saved.at)),
      ]),
      el("p", { class: "receipt-what", text: saved.words }),
    );
  }

  // -- notices: a correction, a move entered for this seat, a second device --------------------

  function seenKey(kind, table, seat) { return "referee.seen." + kind + "." + table + "." + seat; }

  // One notice of a kind at a time (the view carries only the newest), until the player taps
  // "확인" or the seat owes a decision that was not owed when it was first shown.
  function notice(kind, view, seat, v, title, body) {
    const key = seenKey(kind, view.table, seat);
    if (Number(localStorage.getItem(key) || 0) >= v) return null;
    const moments = load(MOMENTS, {});
    const name = kind + "." + view.table + "." + seat;
    if (!moments[name] || moments[name].v !== v) {
      moments[name] = { v: v, owed: owedNow(view) };
      sessionStorage.setItem(MOMENTS, JSON.stringify(moments));
    } else if (moved(view, moments[name])) {
      localStorage.setItem(key, String(v));
      return null;
    }
    const box = el("div", { class: "notice-card " + kind, role: "status", "data-kind": kind, "data-v": String(v) }, [
      el("strong", { text: title }),
      body ? el("p", { text: body }) : null,
      el("button", { type: "button", class: "notice-ok", text: both("확인", "OK"),
                     onclick: function () { localStorage.setItem(key, String(v)); box.remove(); } }),
    ]);
    return box;
  }

  function notices(view, seat) {
    const box = $("notices");
    const parts = [];
    if (view && view.correction) {
      // What was voided, as this seat saw it (public words); the dealer's typed reason is the
      // staff's and never shows here.
      const what = view.correction.what;
      parts.push(notice("correction", view, seat, view.correction.v, both("정정", "Correction"),
        what ? both("딜러가 무효로 했습니다: " + inLang(what, "ko"), "The dealer voided: " + inLang(what, "en"))
          : both("딜러가 기록을 바로잡았습니다.", "The dealer corrected the record.")));
    }
    if (view && view.entered_for_you) {
      const what = view.entered_for_you.what;
      parts.push(notice("behalf", view, seat, view.entered_for_you.v,
        both("딜러가 대신 입력했습니다", "The dealer entered a move for you"),
        both("딜러가 대신 입력했습니다: " + inLang(what, "ko"), "Entered for you: " + inLang(what, "en"))));
    }
    box.replaceChildren.apply(box, parts.filter(Boolean));
  }

  function devices(count) {
    const box = $("devices");
    box.dataset.count = String(count || 0);
    box.hidden = !(count > 1) || ended;
    box.textContent = tr(both("이 카드가 다른 기기에서도 열려 있습니다 (" + count + "대). 내 휴대폰이 아니라면 진행 요원에게 알리세요.",
      "This card is open on another device too (" + count + " in all). If that is not you, tell the staff."));
  }

  // -- following the player --------------------------------------------------------------------

  function chosen() {
    const picked = sessionStorage.getItem(CHOICE);
    const mine = (meta && meta.tables) || [];
    const still = mine.find(function (t) { return t.table === picked && t.status !== "done"; });
    return still ? picked : (meta ? meta.focus : null);
  }

  function received(payload) {
    if (ended) return;
    owner(payload);
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
      }, [el("span", { text: titleOf(t) }), el("small", { text: t.owes ? both("할 일 있음", "your move") : status[t.status] })]);
    }));
  }

  // Whose card, at which show, game and seat (also on an ended page, in the language chosen).
  function head(snap) {
    $("player").textContent = snap.player;
    const where = [snap.show.name];
    if (snap.table) where.push(tr(titleOf(snap.table)));
    // One seat number: a match's (where the player sits); the program's own seat is no place at
    // a table, and its screen names each next match's seat instead.
    if (snap.seat != null && gameOf(snap.table) !== "program") where.push(tr(seatLabel(snap.seat)));
    $("where").textContent = where.join(" · ");
  }

  function render() {
    if (ended || !snapshot) return;
    const snap = snapshot;
    const view = snap.table;
    const game = gameOf(view);
    if (!Live.ready(game)) {
      // The game's pictures arrive first (once per game), then the screen is drawn whole.
      Live.need(game).then(render);
      return;
    }
    switcher();
    head(snap);
    Live.showClock($("clock"), view && view.clock);
    notices(view, snap.seat);

    const holdings = $("holdings");
    const now = $("now");
    holdings.replaceChildren();
    now.replaceChildren();
    if (view && view.started && snap.seat != null) {
      const picture = pictureOf(view) || genericHoldings;
      const node = picture(view, snap.seat);
      if (node) {
        holdings.appendChild(node);
        // News the player must see at once (an appraisal's answer) goes above the decision.
        node.querySelectorAll("[data-now]").forEach(function (part) { now.appendChild(part); });
      }
    }
    now.hidden = !now.children.length;

    const decisionBox = $("decision");
    const decisions = (view && view.decisions) || [];
    if (decisions.length) {
      // Every decision the seat owes now (a pick and an appraisal, say), each its own form.
      // A form whose decision is unchanged is kept, so another player's move does not wipe a
      // choice in progress.
      const keep = new Set();
      const cards = decisions.map(function (decision) {
        const key = decisionKey(view, decision);
        keep.add(key);
        const card = forms.get(key);
        // A decision answered at version v that a view newer than v still shows is owed again
        // (another appraisal): it gets a fresh form.
        if (!card || (card.dataset.sentAt && view.version >= Number(card.dataset.sentAt))) {
          forms.set(key, decisionCard(view, decision, key, snap.seat));
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
    if (!showEnded()) {  // (again) before the end, as after a correction that reopened the show
      storyOpen = null;
      Object.keys(stories).forEach(function (k) { delete stories[k]; });
    }
    storyEntry();
    drawStory();
  }

  function decisionCard(view, decision, key, seat) {
    const card = el("div", { class: "decision-part", "data-move": decision.move });
    const picture = pictureOf(view);
    const options = {
      memoryKey: key,
      // The game's picture may draw a field itself (Reef: the cell on the player's own board).
      control: picture && picture.control ? function (field, values, changed) {
        return picture.control(view, seat, field, values, changed);
      } : null,
      submit: function (move, sid) { return live.send("submit", { table: view.table, move: move, sid: sid }); },
      onDone: function (sent, ack) {
        sessionStorage.setItem(RECEIPT, JSON.stringify({
          table: view.table, seat: seat, at: Date.now(), version: ack.ack.version, owed: null,
          words: { ko: sentWords(view, decision, sent.move, "ko"), en: sentWords(view, decision, sent.move, "en") },
        }));
        card.dataset.sentAt = String(ack.ack.version);  // see render: a newer view may owe it again
        receipt();
      },
    };
    Forms.render(card, decision, options);
    return card;
  }

  // -- waiting: what the player is waiting for, or where they stand ----------------------------

  function upcoming() {
    const next = ((meta && meta.tables) || []).filter(function (t) { return t.status === "ready"; });
    if (!next.length) return null;
    return el("div", { class: "upcoming" }, next.map(function (t) {
      return el("p", {}, [el("strong", { text: both("곧 시작: ", "Next: ") }), tr(titleOf(t)) + " · ",
                          tr(both((t.seat + 1) + "번 자리", "seat " + (t.seat + 1)))]);
    }));
  }

  function waiting(view) {
    const card = waitingText(view);
    const next = view && !view.started ? null : upcoming();
    return next ? el("div", {}, [card, next]) : card;
  }

  // Where the seat stands in a match, from its own view: out of the match (and when), its place
  // once the server gives it. (A program's own picture says where a player stands in the
  // evening: phone/games/program.js.)
  function standing(view, seat) {
    const state = view.state || {};
    let out = null;
    let place = null;
    const mine = state.seats && state.seats[seat];
    if (mine && typeof mine === "object" && mine.alive === false) {
      out = mine.eliminated_round != null
        ? both(mine.eliminated_round + "라운드에 탈락했습니다", "You were eliminated in round " + mine.eliminated_round)
        : both("탈락했습니다", "You are out");
    }
    if (view.result) {
      const me = view.result.standings.find(function (s) { return s.seat === seat; });
      if (me) place = me.rank;
    }
    return { out: out, place: place, of: view.seats ? view.seats.length : null };
  }

  // A finished match in words: a duel is won, lost or drawn; more seats give a place. A score
  // only where the game has one.
  function outcome(view, me) {
    if (view.seats.length === 2) {
      if (view.result.winner === me.seat) return both("승리", "You won");
      if (view.result.winner == null && me.rank === 1) return both("무승부", "Draw");
      return both("패배", "You lost");
    }
    return I18N.place(me.rank, I18N.sharedIn(view.result.standings, me.rank));
  }

  function placeText(place, of) {
    return both((of ? of + "명 중 " : "") + place + "위", "Place " + place + (of ? " of " + of : ""));
  }

  function waitingText(view) {
    if (!view) return el("p", { class: "waiting", text: both("아직 앉은 테이블이 없습니다. 기다려 주세요.", "You are not seated yet. Please wait.") });
    const seat = snapshot.seat;
    const picture = pictureOf(view);
    const own = view.started && picture && picture.waiting ? picture.waiting(view, seat) : null;
    if (own) return own;  // the game says where the seat stands (a program: the evening)
    const where = standing(view, seat);
    if (view.result) {
      const me = view.result.standings.find(function (s) { return s.seat === seat; });
      return el("div", { class: "waiting over", "data-state": "over" }, [
        el("strong", { text: both("경기 종료", "Match over") }),
        where.out ? el("p", { class: "out-line", text: where.out }) : null,
        me ? el("p", { class: "place", "data-outcome": view.seats.length === 2 ? "duel" : "place", text: outcome(view, me) }) : null,
        me && me.score != null ? el("p", { class: "score", text: both("점수 " + me.score, "Score " + me.score) }) : null,
      ]);
    }
    if (view.finished) {
      return el("div", { class: "waiting", "data-state": "closed" }, [
        el("strong", { text: both("테이블 종료", "Table closed") }),
        el("p", { text: both("딜러가 이 테이블을 닫았습니다.", "The dealer closed this table.") }),
      ]);
    }
    if (!view.started) {
      return el("div", { class: "waiting", "data-state": "ready" }, [
        el("strong", { text: both("곧 시작", "Starting soon") }),
        el("p", {}, tr(titleOf(view)) + " · " + tr(seatLabel(seat))),
      ]);
    }
    if (where.out) {
      return el("div", { class: "waiting out", "data-state": "out" }, [
        el("strong", { class: "out-line", text: where.out }),
        where.place != null ? el("p", { class: "place", text: placeText(where.place, where.of) })
          : el("p", { text: both("최종 순위는 경기가 끝나면 여기에 나옵니다. 화면을 닫지 않아도 됩니다.",
                                 "Your final place appears here when the match ends.") }),
      ]);
    }
    const sealed = view.turn && view.turn.sealed;
    return el("div", { class: "waiting", "data-state": "waiting" }, [
      el("div", { text: both("다른 선수를 기다리는 중", "Waiting for the others") }),
      el("div", { class: "hint", text: view.turn ? I18N.named(view.turn.phase, view.seats) : "" }),
      sealed ? el("div", { class: "hint", text: both(sealed[0] + "/" + sealed[1] + " 제출", sealed[0] + "/" + sealed[1] + " submitted") }) : null,
    ]);
  }

  // -- after the show: the player's own replay ("내 경기 다시 보기") ------------------------------
  //
  // Once the show has ended (its program has a result; a show without one: every table of the
  // player's is over) and every reveal has been shown (the snapshot's `stories`), each match the player sat in can be opened: round by round, their own
  // decisions in their own words (the secret parts: which coin, which sticker) beside what the
  // hall was shown of the same action, and the reveals between them. The server decides what is
  // in it (`story` on /seat, Service.seat_story) and refuses before the end, as this page hides it.

  const stories = {};  // table id -> its story (the show is over: it no longer changes)
  let storyOpen = null;  // the table whose story is on screen

  function showEnded() {
    return Boolean(meta && meta.stories);  // the server's word: the show is over and nothing is held
  }

  function playedMatches() {
    return ((meta && meta.tables) || []).filter(function (t) { return !t.program && t.status !== "ready"; });
  }

  function storyEntry() {
    const box = $("story-entry");
    const matches = showEnded() ? playedMatches() : [];
    box.hidden = !matches.length || storyOpen !== null;
    if (!matches.length) { box.replaceChildren(); return; }
    box.replaceChildren(
      el("h2", { class: "story-entry-title", text: both("내 경기 다시 보기", "My replay") }),
      el("p", { class: "hint", text: both("내 선택과 공개된 내용을 라운드별로 봅니다.", "Your own choices beside what was shown, round by round.") }),
      el("div", { class: "story-matches" }, matches.map(function (t) {
        return el("button", { type: "button", class: "story-match", "data-table": t.table, onclick: function () { openStory(t.table); } },
          [el("span", { text: titleOf(t) }), el("small", { text: seatLabel(t.seat) })]);
      })));
  }

  function openStory(table) {
    if (stories[table]) { storyOpen = table; render(); window.scrollTo(0, 0); return; }
    live.send("story", { table: table }).then(function (ack) {
      if (!ack || !ack.ok) { showError(ack && ack.error); return; }
      stories[table] = ack.story;
      storyOpen = table;
      showError(null);
      render();
      window.scrollTo(0, 0);
    });
  }

  function closeStory() {
    storyOpen = null;
    render();
    $("story-entry").scrollIntoView({ block: "start" });
  }

  function drawStory() {
    const box = $("story");
    const story = storyOpen && stories[storyOpen];
    document.body.classList.toggle("story-open", !!story);
    box.hidden = !story;
    if (!story) { box.replaceChildren(); return; }
    const me = story.result && story.result.standings.find(function (s) { return s.seat === story.seat; });
    const parts = [
      el("div", { class: "story-head" }, [
        el("button", { type: "button", class: "story-back", onclick: closeStory, text: both("← 목록", "← Back") }),
        el("div", { class: "story-title" }, [el("strong", { text: titleOf(story) }),
                                              el("small", { text: seatLabel(story.seat) })]),
      ]),
      me ? el("p", { class: "story-outcome", text: both("결과: " + inLang(outcome(story, me), "ko"),
                                                        "Result: " + inLang(outcome(story, me), "en")) }) : null,
    ];
    parts.push.apply(parts, window.PhoneStory.rounds(story.lines, "h3"));
    box.replaceChildren.apply(box, parts.filter(Boolean));
  }

  // -- the card ends here --------------------------------------------------------------------

  function stop(error) {
    ended = true;
    storyOpen = null;
    drawStory();
    $("story-entry").hidden = true;
    showError(error);
    forms.clear();
    ["decision", "holdings", "now", "notices", "tables"].forEach(function (id) { $(id).replaceChildren(); });
    $("now").hidden = true;
    $("tables").hidden = true;
    $("receipt").hidden = true;
    $("devices").hidden = true;
    Live.showClock($("clock"), null);
  }

  document.addEventListener("DOMContentLoaded", function () {
    live = Live.connect("/seat", {
      keyOf: function (p) { return p.table ? p.table.table : null; },
      onSnapshot: received,
      onRefused: function (error) {
        if (String(error.code || "").indexOf("auth/") === 0) { stop(error); live.end("refused"); }
        else showError(error);
      },
    });
    live.socket.on("revoked", function () {
      stop({ code: "auth/link_revoked", ko: "이 카드는 재발급되어 더 이상 쓸 수 없습니다. 진행 요원에게 새 카드를 받으세요.",
             en: "This card was re-issued and no longer works. Ask the staff for your new card." });
      live.end("revoked");
    });
    live.socket.on("devices", function (payload) { devices(payload && payload.count); });
    I18N.onChange(function () {
      if (snapshot) { if (ended) head(snapshot); else render(); }
      if (shownError) showError(shownError);
      if (!$("devices").hidden) devices(Number($("devices").dataset.count));
    });
  });
})();
