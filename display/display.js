// The projector: the public view of the show's current table, live. Sealed submissions
// show as "1/2 제출" only; reveals flash as moments, with a sound when the operator armed it.
// Nothing here ever receives a secret: the server sends this page the public view only.
//
// Before a match (no table on screen, a table not started, or a show program) the page is the
// join screen: where to join, the QR of that address, and whose phones are here.
//
// The header follows the picture: a game still showing a move (Horror Race replays a round)
// keeps the header on the move it shows, and the header's next step, the result and the final flash
// come when the picture has caught up (a game's `settled()`). A finished table says so, not
// the step it was in. The show clock counts down by the server's clock; a correction shows as
// "정정 / Correction".
//
// The operator's keys (no control is ever on screen): S arms or mutes the sound, L switches
// the language. ?sound=1 arms the sound at load where the browser allows audio without a
// gesture (an OBS browser source, a kiosk); elsewhere the first key press arms it.
//
// Contract of display/games/<game>.js: DisplayGames[id].render(board, view, previous) draws
// the public view into `board` and returns the moment to flash ({ko, en}, optionally with a
// `cue`: the sound, `tone`, `lines`, `band`, `hold`: see flash) or null; optional `settled()`
// returns a Promise (of a moment or null) while the picture is still catching up, else null,
// and `showing()` the move it shows meanwhile ({ko, en}: the header's step until then);
// optional `leave()` stops whatever the picture still has going when another table is drawn.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const $ = function (id) { return document.getElementById(id); };
  let previous = null;
  let latest = null;
  let momentTimer = null;
  let correctionTimer = null;
  let waitFor = 0;  // the newest render that waits for its picture to settle
  let settling = Promise.resolve(null);  // resolves once the newest render's picture has settled
  const corrections = {};  // table -> newest correction version shown (or known at first sight)

  // -- sound: cues made in the page (Web Audio), no files --------------------------------------

  const Sound = (function () {
    let ctx = null;
    let master = null;
    let analyser = null;
    let armed = false;
    const log = [];  // every cue asked for: {cue, sounded}; tests read it

    function mark() { document.documentElement.dataset.sound = armed && ctx ? ctx.state : "off"; }

    function arm() {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return Promise.resolve(false);
      if (!ctx) {
        ctx = new Ctx();
        master = ctx.createGain();
        master.gain.value = 0.8;
        analyser = ctx.createAnalyser();
        analyser.fftSize = 2048;
        master.connect(analyser);
        analyser.connect(ctx.destination);
        ctx.onstatechange = mark;
      }
      armed = true;
      return ctx.resume().then(function () { mark(); return ctx.state === "running"; }, function () { mark(); return false; });
    }

    function mute() { armed = false; mark(); }

    function tone(freq, at, length, opts) {
      const o = opts || {};
      const t = ctx.currentTime + at;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = o.type || "sine";
      osc.frequency.setValueAtTime(freq, t);
      if (o.to) osc.frequency.exponentialRampToValueAtTime(o.to, t + length);
      const peak = o.volume || 0.25;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(peak, t + Math.min(0.03, length / 3));
      gain.gain.setValueAtTime(peak, t + Math.max(0.03, length - 0.08));
      gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
      osc.connect(gain).connect(master);
      osc.start(t);
      osc.stop(t + length + 0.02);
    }

    function siren() {
      // About two seconds of a two-tone wail: four sweeps between 650 and 1300 Hz.
      const t = ctx.currentTime;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sawtooth";
      osc.frequency.setValueAtTime(650, t);
      for (let i = 0; i < 4; i++) {
        osc.frequency.linearRampToValueAtTime(1300, t + i * 0.5 + 0.25);
        osc.frequency.linearRampToValueAtTime(650, t + i * 0.5 + 0.5);
      }
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.22, t + 0.05);
      gain.gain.setValueAtTime(0.22, t + 1.85);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 2.05);
      osc.connect(gain).connect(master);
      osc.start(t);
      osc.stop(t + 2.1);
    }

    const CUES = {
      reveal: function () { tone(659, 0, 0.14, { type: "triangle" }); tone(988, 0.13, 0.32, { type: "triangle" }); },
      win: function () {
        [523, 659, 784, 1047].forEach(function (f, i) { tone(f, i * 0.13, i === 3 ? 0.7 : 0.16, { type: "triangle", volume: 0.28 }); });
      },
      out: function () { tone(392, 0, 0.25, { type: "square", volume: 0.12 }); tone(294, 0.25, 0.5, { type: "square", volume: 0.12 }); },
      step: function () { tone(220, 0, 0.12, { type: "triangle", to: 330, volume: 0.3 }); },
      correction: function () { tone(330, 0, 0.18, { volume: 0.2 }); tone(247, 0.2, 0.4, { volume: 0.2 }); },
      go: function () { tone(784, 0, 0.12, { type: "square", volume: 0.12 }); tone(1175, 0.12, 0.3, { type: "square", volume: 0.12 }); },
      stop: function () { tone(440, 0, 0.4, { type: "square", to: 220, volume: 0.12 }); },
      siren: siren,
      armed: function () { tone(880, 0, 0.15); },
    };

    function cue(name) {
      const play = CUES[name] ? name : "reveal";
      const sounded = armed && !!ctx && ctx.state === "running";
      log.push({ cue: play, sounded: sounded, at: Date.now() });
      if (sounded) CUES[play]();
      return sounded;
    }

    // The loudest sample reaching the speakers right now (0..1): a test hears the page.
    function level() {
      if (!analyser) return 0;
      const data = new Float32Array(analyser.fftSize);
      analyser.getFloatTimeDomainData(data);
      let most = 0;
      for (let i = 0; i < data.length; i++) most = Math.max(most, Math.abs(data[i]));
      return most;
    }

    return { arm: arm, mute: mute, cue: cue, level: level, log: log, get armed() { return armed; } };
  })();
  window.Sound = Sound;

  function note(text) {
    // A short word for the operator after a key press (sound on/off); gone in a moment.
    const box = $("operator");
    box.textContent = tr(text);
    box.hidden = false;
    clearTimeout(box._timer);
    box._timer = setTimeout(function () { box.hidden = true; }, 1200);
  }

  function keys(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = (event.key || "").toLowerCase();
    if (key === "s") {
      if (Sound.armed) { Sound.mute(); note(both("소리 끔", "Sound off")); }
      else Sound.arm().then(function (on) { if (on) Sound.cue("armed"); note(on ? both("소리 켜짐", "Sound on") : both("소리를 켤 수 없습니다", "No sound")); });
    } else if (key === "l") {
      I18N.setLang(I18N.lang === "ko" ? "en" : "ko");
    } else if (Sound.armed) {
      Sound.arm();  // ?sound=1 on a browser that wanted a gesture first: any key is one
    }
  }

  // -- moments -------------------------------------------------------------------------------

  // A moment may carry, besides its words: `lines` (a few more, each {ko, en, tone}), `tone`
  // ("bad": an elimination is no success, never green), `band` (true/false: over the header or
  // in the middle, whatever the caller asked), `hold` (ms on screen) and `cue` (the sound).
  function flash(text, options) {
    if (!text) return;
    const o = Object.assign({}, options || {});
    ["band", "tone", "hold", "cue"].forEach(function (k) { if (text[k] != null) o[k] = text[k]; });
    const lines = text.lines || [];
    const box = $("moment");
    box.replaceChildren(el("div", { class: "moment-title" }, tr(text)));
    lines.forEach(function (line) {
      box.appendChild(el("div", { class: "moment-line" + (line.tone ? " " + line.tone : "") }, tr(line)));
    });
    // The result of a match comes as a band over the header, never over the rankings.
    box.className = "moment" + (o.band ? " band" : "") + (o.tone ? " tone-" + o.tone : "") + (lines.length ? " has-lines" : "")
      + (tr(text).length > 14 ? " long" : "");
    // The layer model (stage.js): a result band replaces the header, any other moment the board,
    // for the moment's time; nothing is drawn over a picture.
    hideMoment();
    box.hidden = false;
    Stage.set(o.band ? "band" : "full", true, "moment");
    momentTimer = setTimeout(hideMoment, o.hold || (o.band ? 3000 : 3500));
    Sound.cue(o.cue || "reveal");
  }

  function hideMoment() {
    clearTimeout(momentTimer);
    $("moment").hidden = true;
    Stage.set("band", false, "moment");
    Stage.set("full", false, "moment");
  }

  // -- the header: titles, the step, the count of sealed submissions, the clock ---------------

  // `moving`: while a picture still shows a move ({ko, en}, its `showing()`), the step says
  // that move, never the step before it nor the one after (a result the move leads to).
  function header(snapshot, moving) {
    const view = snapshot.table;
    $("show-title").textContent = snapshot.show.name;
    if (!view) {
      $("game-title").textContent = "";
      $("phase").textContent = "";
      $("sealed").textContent = "";
      Live.showClock($("clock"), null);
      fitHeader();
      return;
    }
    // A program's stage carries its name ("3차 배틀: 트리키 코인 결승"): three Coin matches of
    // one evening never look alike.
    $("game-title").textContent = tr(view.stage ? view.stage.title : view.title);
    if (moving) {
      $("phase").textContent = tr(moving);
      $("phase").dataset.state = "moving";
      $("sealed").textContent = "";
      fitHeader();
      return;
    }
    const phase = view.result ? (gameOf(view) === "program" ? both("모든 경기 종료", "All matches over") : both("경기 종료", "Match over"))
      : view.finished ? both("테이블 종료", "Table closed")
      : view.started ? I18N.named(view.turn.phase, view.seats) : both("시작 전", "Not started");
    $("phase").textContent = tr(phase);
    $("phase").dataset.state = view.result ? "over" : view.finished ? "closed" : view.started ? "live" : "ready";
    const sealed = view.turn && view.turn.sealed;
    // A picture that draws its own count (Gallery's queue) leaves the footer out: its room goes
    // to the picture.
    const own = $("board").querySelector("[data-role='sealed']");
    $("sealed").textContent = sealed && !view.result && !view.finished && !own
      ? tr(both(sealed[0] + "/" + sealed[1] + " 제출", sealed[0] + "/" + sealed[1] + " submitted")) : "";
    Live.showClock($("clock"), view.finished || view.result ? null : view.clock);
    fitHeader();
  }

  // The header keeps its height whatever it says: the clock sits in a slot of its own at the
  // right (the words make room for it, the board never moves), and long words step down (the
  // show's name goes first, then the sizes) until the titles and the step fit beside it.
  function fitHeader() {
    const head = $("display").querySelector(".display-head");
    head.classList.toggle("has-clock", !$("clock").hidden);
    const titles = head.querySelector(".titles");
    const phase = $("phase");
    for (let level = 0; level <= 3; level++) {
      head.dataset.fit = String(level);
      const wide = titles.scrollWidth > titles.clientWidth + 1 || phase.scrollWidth > phase.clientWidth + 1;
      const tall = titles.scrollHeight > head.clientHeight + 1 || phase.scrollHeight > head.clientHeight + 1;
      if (!wide && !tall) return;
    }
  }

  // A correction this screen has not shown yet ("new when its v is newer"); the first sight
  // of a table only notes its latest one (it was before this screen watched).
  function correction(view) {
    if (!view) return null;
    const c = view.correction;
    const known = corrections[view.table];
    corrections[view.table] = Math.max(known || 0, c ? c.v : 0);
    if (!c || known == null || c.v <= known) return null;
    const box = $("correction");
    // What was undone, as this audience saw it (the dealer's typed reason never comes here).
    box.replaceChildren(el("strong", { text: both("정정 / Correction", "Correction") }),
                        el("span", {}, c.what ? " " + tr(c.what) : ""));
    box.hidden = false;
    clearTimeout(correctionTimer);
    correctionTimer = setTimeout(function () { box.hidden = true; }, 9000);
    return Object.assign(both("정정 / Correction", "Correction"), { cue: "correction" });
  }

  // -- the join screen ---------------------------------------------------------------------

  // The address breaks only where a reader still sees its parts whole: before its path and, in
  // a narrow box, before its port ("http://192.168.1.20" / ":5000" / "/join"), never inside the
  // host. `bare`: without "http://" (a phone's browser adds it), for the narrow boxes.
  function joinUrl(url, cls, bare, role) {
    return Live.address(url, bare, { class: cls, "data-role": role || "join-url" });
  }

  // `compact`: beside a show program's board, where only who is still missing is listed.
  function joinPanel(snapshot, compact) {
    const join = snapshot.join;
    const here = join.players.filter(function (p) { return p.here; }).length;
    const show = $("display").dataset.show;
    // Beside a board only who is still missing, at most eight by name (the rest as a number).
    const missing = join.players.filter(function (p) { return !p.here; });
    const listed = compact ? missing.slice(0, missing.length > 8 ? 7 : 8) : join.players;
    const more = compact ? missing.length - listed.length : 0;
    return el("div", { class: "join" + (compact ? " compact" : "") }, [
      el("div", { class: "join-how" }, [
        el("div", { class: "join-title", text: both("휴대폰으로 입장하세요", "Join on your phone") }),
        el("img", { class: "join-qr", src: "/display/" + encodeURIComponent(show) + "/join.svg", alt: "QR: " + join.url }),
        joinUrl(join.url, "join-url", compact),
        el("div", { class: "join-hint", text: both("카드의 QR을 찍거나, 이 주소에서 카드의 코드를 입력하세요",
                                                    "Scan the QR on your card, or enter its code at this address") }),
        !compact && join.audience ? audienceJoin(show, join.audience) : null,
      ]),
      el("div", { class: "join-who" }, [
        el("div", { class: "join-count", "data-role": "here", text: both(here + " / " + join.players.length + "명 입장",
                                                                          here + " of " + join.players.length + " here") }),
        compact ? el("div", { class: "join-missing-label", text: both("아직 입장 전", "Not here yet") }) : null,
        el("ul", { class: "join-players" }, listed.map(function (p) {
          return el("li", { class: "join-player" + (p.here ? " here" : ""), "data-here": p.here ? "1" : "0" }, [
            el("span", { class: "join-dot" }), el("span", { class: "join-name" }, p.name)]);
        }).concat(more > 0 ? [el("li", { class: "join-more", text: both("외 " + more + "명", "and " + more + " more") })] : [])),
      ]),
    ]);
  }

  // The hall plays along on its own phones (issue 28): its own address, no card needed.
  function audienceJoin(show, url) {
    return el("div", { class: "join-audience", "data-role": "audience-join" }, [
      el("img", { class: "join-audience-qr", src: "/display/" + encodeURIComponent(show) + "/audience.svg", alt: "QR: " + url }),
      el("div", {}, [el("div", { class: "join-audience-title", text: both("관객 예측 참여", "Audience: play along") }),
                     joinUrl(url, "join-audience-url", true, "audience-url")]),
    ]);
  }

  function everyoneHere(snapshot) {
    return snapshot.join.players.every(function (p) { return p.here; });
  }

  // A made table not started, every phone here: its title and its players (two as a pairing),
  // and the hall's QR where the audience plays along.
  function upNext(snapshot, view) {
    const names = view.seats || [];
    const audience = snapshot.join.audience;
    return el("div", { class: "up-next", "data-role": "up-next" }, [
      el("div", { class: "up-next-label", text: both("다음 경기", "Up next") }),
      el("div", { class: "up-next-title", text: view.stage ? view.stage.title : view.title }),
      el("div", { class: "up-next-pairing" + (names.length > 2 ? " many" : ""), "data-role": "pairing",
                  text: names.length === 2 ? names[0] + " vs " + names[1] : names.join(" · ") }),
      audience ? audienceJoin($("display").dataset.show, audience) : null,
    ]);
  }

  // A phone that dropped once the evening is under way: one quiet line with the address, not
  // a third of the screen.
  function joinStrip(snapshot) {
    const missing = snapshot.join.players.filter(function (p) { return !p.here; }).map(function (p) { return p.name; });
    const who = missing.length <= 3 ? both("연결 끊김: " + missing.join(", "), "Offline: " + missing.join(", "))
      : both("연결 끊김 " + missing.length + "명", missing.length + " offline");
    return el("div", { class: "join-strip", "data-role": "join-strip" }, [
      el("span", { class: "join-strip-label", text: both("입장", "Join") }),
      joinUrl(snapshot.join.url, "join-strip-url", true),
      el("span", { class: "join-strip-who", text: who }),
    ]);
  }

  // Beside a show program: the join panel while players are still to come; once everyone has
  // been here (this page saw it, or the evening's first match is open) a phone that drops gets
  // the strip only; the final standings get the whole screen.
  const everyone = {};  // show -> every player's phone has been here at once
  function joinMode(snapshot, view) {
    if (!snapshot.join || view.state.final) return "none";
    const show = snapshot.show.id;
    const missing = snapshot.join.players.some(function (p) { return !p.here; });
    if (!missing) { everyone[show] = true; return "none"; }
    return everyone[show] || view.state.stages.length ? "strip" : "panel";
  }

  // -- drawing -------------------------------------------------------------------------------

  function generic(board, view) {
    board.replaceChildren(el("pre", { class: "generic-board" }, JSON.stringify(view.state, null, 1)));
    return null;
  }

  function gameOf(view) {
    return view ? (view.state && view.state.program ? "program" : view.game) : null;
  }

  // The picture that drew the board last stops what it still had going (a race's replay) once
  // another table takes the board: nothing of it may draw over the next picture.
  let drawn = null;  // {game, table} on the board
  function leave(game, table) {
    if (drawn && (drawn.game !== game || drawn.table !== table)) {
      const old = (window.DisplayGames || {})[drawn.game];
      if (old && old.leave) old.leave();
    }
    drawn = { game: game, table: table };
  }

  // A replay on the projector says so, with where it stands and what happens in the frame.
  function replayMark(snapshot) {
    const r = snapshot.replay;
    $("replay").hidden = !r;
    if (!r) return;
    $("replay").replaceChildren(
      el("span", { class: "replay-label", text: r.recap ? both("하이라이트", "Highlights") : both("다시 보기", "Replay") }),
      el("span", { class: "replay-where" }, (r.index + 1) + " / " + r.count),
      // A recap says its moment as a title; a replay what happens in the frame (a 정정's words).
      el("span", { class: "replay-what" }, r.caption ? tr(r.caption) : r.what.map(function (w) { return tr(w); }).join(" · ")),
    );
  }

  function render(snapshot) {
    latest = snapshot;
    replayMark(snapshot);
    if (snapshot.join && snapshot.join.audience) Crowd.address = snapshot.join.audience;
    const view = snapshot.table;
    const game = gameOf(view);
    if (!Live.ready(game)) {
      // A game's pictures load when its first view arrives; then the newest view is drawn.
      Live.need(game).then(function () { if (latest === snapshot) render(snapshot); });
      return;
    }
    leave(game, view ? view.table : null);
    // A recap jumps between moments: each is drawn as it stood, never animated from the one before
    // (a piece would be caught mid-move).
    if (snapshot.replay && snapshot.replay.recap) previous = null;
    const board = $("board");
    const fix = correction(view);
    const picture = (window.DisplayGames || {})[game];
    if (!view || (!view.started && snapshot.join)) {
      // Before a match: the join screen; once everyone is here, what comes next (the made
      // table's players, large) with the hall's own way in.
      previous = view;
      board.dataset.join = snapshot.join ? "screen" : "none";
      if (view && snapshot.join && everyoneHere(snapshot)) board.replaceChildren(upNext(snapshot, view));
      else if (snapshot.join) board.replaceChildren(joinPanel(snapshot, false));
      else board.replaceChildren(el("div", { class: "result", text: both("곧 시작합니다", "Starting soon") }));
      Stage.fit();
      header(snapshot);
      flash(fix);
      return;
    }
    let target = board;
    const join = snapshot.join ? joinMode(snapshot, view) : "none";
    board.dataset.join = join;
    if (join !== "none") {
      // A show program with the join panel beside it, or the strip under it.
      target = el("div", { class: "with-join" });
      board.replaceChildren(target, join === "panel" ? joinPanel(snapshot, true) : joinStrip(snapshot));
    }
    const result = view.result && !(previous && previous.table === view.table && previous.result);
    const text = picture ? picture.render(target, view, previous) : generic(target, view);
    previous = view;
    Stage.fit();
    const wait = picture && picture.settled ? picture.settled() : null;
    const ticket = ++waitFor;
    settling = wait ? wait.then(function () { return null; }, function () { return null; }) : Promise.resolve(null);
    if (!wait) {
      header(snapshot);
      flash(fix || text, { band: result, cue: result ? "win" : null });
      return;
    }
    // The picture is still showing a move: the header says that move until the picture settles.
    const moving = picture.showing ? picture.showing() : null;
    if (moving) header(snapshot, moving);
    if (fix) flash(fix);
    wait.then(function (moment) {
      if (ticket !== waitFor) return;  // a newer render waits on its own
      Stage.fit();
      header(latest);
      const over = latest.table && latest.table.result;
      flash(moment || text, { band: !!over, cue: over ? "win" : null });
    });
  }

  // -- the stream: whole payloads and brief updates -----------------------------------------

  // A change of the table on screen comes brief (service.brief_payload on the server): without
  // the table's constant fields, the view's own version, the fields at their empty default and
  // the show. The whole payload (on connect, at a change of table, before a match) is kept to
  // fill them back in; a brief update of a table this page holds no whole view of asks for the
  // whole snapshot, which comes in order with the rest.
  const CONSTANT = ["game", "title", "stage", "seats", "options", "audience"];
  const DEFAULTS = { clock: null, correction: null, result: null, entered_for_you: null, decisions: [] };
  const constants = {};  // table -> its constant fields
  let showOf = null;

  function assemble(payload, ask) {
    const view = payload.table;
    if (payload.show) {
      showOf = payload.show;
      if (view) {
        const fixed = {};
        CONSTANT.forEach(function (k) { fixed[k] = view[k]; });
        constants[view.table] = fixed;
      }
      return payload;
    }
    const fixed = view && constants[view.table];
    if (!fixed || !showOf) { ask(); return null; }
    return Object.assign({}, payload, {
      show: showOf, table: Object.assign({}, DEFAULTS, fixed, view, { version: payload.version }),
    });
  }

  let live = null;  // the connection to /public

  // A payload from the socket, brief or whole.
  function receive(payload) {
    const whole = assemble(payload, function () { live.socket.emit("snapshot"); });
    if (whole) render(whole);
  }

  // The page's own drawing, for a test or a rehearsal tool to hand it a public payload (`render`:
  // a whole one; `receive`: as the socket brings it).
  // `settled()`: a Promise, resolved once the newest picture has caught up (a race replaying a
  // round), for a tool that reads the stage (the layout audit).
  window.Display = { render: render, receive: receive, hideMoment: hideMoment,
                     settled: function () { return settling; } };

  // `stage`: the key of the console's projector link (the stage lane, past a crowd of screens).
  // A key the server no longer takes (a new secret while the page was open) leaves the page an
  // audience screen, still showing the show, rather than a dark one.
  function connect(show, stage) {
    live = Live.connect("/public", {
      auth: stage ? { show: show, stage: stage } : { show: show },
      lane: stage ? "stage" : null,
      // A replay's frames are a stream of their own (server/replaying.py): the live table's
      // versions never hide them, and theirs never hide the live table's after it.
      keyOf: function (p) { return p.replay ? "replay:" + p.replay.id : (p.table ? p.table.table : null); },
      onSnapshot: receive,
      onRefused: function (error) {
        if (stage && error.code === "auth/wrong_lane") { live.end("offline"); connect(show, null); }
      },
    });
    // The hall's predictions (display/crowd.js): the split of the open question, the answer,
    // the audience's leaderboard when staff show it. Ordered by their own sequence number.
    live.socket.on("crowd", function (payload) {
      if (crowdSeq != null && payload.seq < crowdSeq) return;
      crowdSeq = payload.seq;
      Crowd.render($("crowd"), payload);
    });
  }
  let crowdSeq = null;

  document.addEventListener("DOMContentLoaded", function () {
    const root = $("display");
    // The console's program monitor (referee/console/static/monitor.js) frames this page twice:
    // `monitor=program` is the room's projector as it is (its own socket on the stage lane),
    // `monitor=preview` draws what the console hands it (what P would put up) and has no socket.
    // Neither sounds nor takes keys: the room's projector does.
    const monitor = new URLSearchParams(location.search).get("monitor");
    if (monitor) {
      document.documentElement.classList.add("monitor");
      if (monitor === "preview") {
        window.addEventListener("message", function (event) {
          if (event.origin === location.origin && event.data && event.data.preview) render(event.data.preview);
        });
      } else {
        connect(root.dataset.show, root.dataset.stage);
      }
      return;
    }
    // An exported evening (referee export-show) opens from disk: no server, so no socket.
    if (!window.EXPORTED) connect(root.dataset.show, root.dataset.stage);
    document.addEventListener("keydown", keys);
    document.addEventListener("pointerdown", function () { if (Sound.armed) Sound.arm(); });
    if (new URLSearchParams(location.search).get("sound") === "1") Sound.arm();
    I18N.onChange(function () {
      if (latest) { const keep = previous; previous = null; render(latest); previous = keep; }
      Crowd.render($("crowd"), null);
    });
  });
})();
