// A live connection to one Socket.IO namespace. Every payload is a whole snapshot with the
// table version; anything older than what is shown is dropped. On every (re)connect the
// server sends a fresh snapshot, so a reconnecting screen always shows the current state.
//
// Also here, for the live pages: the server's clock (its `time` event; a show clock counts
// down by it, never by the device's own clock), and the loader of a game's pictures, which the
// projector and the phones fetch only when a view of that game first arrives.
(function () {
  "use strict";

  let offset = 0;  // server clock minus this device's clock, in seconds

  function serverNow() { return Date.now() / 1000 + offset; }

  // A pulled cable (the main machine gone, docs/backup.md) leaves a socket sending into nothing,
  // and Socket.IO's own heartbeat notices only after up to 45 s. So the sockets of the lanes
  // that skip the line (a player's phone, the console, the room's projector) ask every
  // second (the first after the room's address moved is answered by a reset); one question
  // unanswered for PROBE_WAIT ms closes the connection too, and it reconnects
  // to whichever machine holds the room's address now (an attempt unanswered as long is given
  // up). The audience's screens do not ask (a hall of them would cost the server more than it
  // is worth): they notice by the heartbeat.
  // What a send that got no answer resolves with (a socket's ack, a page's post alike).
  const NO_ANSWER = Object.freeze({ ok: false, error: Object.freeze({
    code: "net/timeout", ko: "응답이 없습니다. 다시 시도하세요", en: "No answer; try again" }) });
  const PROBED = new Set(["seat", "dealer", "stage"]);
  const PROBE_EVERY = 1000;
  const PROBE_WAIT = 5000;

  function connect(namespace, options) {
    const conn = document.getElementById("conn");
    const newest = {};  // key (a table) -> the newest version received for it
    let ended = false;  // the server refused or revoked this page: no "reconnecting" any more
    const lane = options.lane || namespace.slice(1);
    const socket = io(namespace, {
      auth: options.auth || {},
      // Phones, consoles and the room's projector (options.lane "stage") skip the line of a crowd
      // of screens connecting at once (the server's web.Admission); the audience waits its turn.
      // Behind nginx the lane also picks the process (deploy/nginx/referee.conf).
      query: { lane: lane },
      transports: ["websocket", "polling"],
      reconnectionDelayMax: 3000,
      // An attempt to a machine that is gone hangs until this (socket.io's own is 20 s); the
      // audience's screens may wait in the line longer (web.Admission), so they keep the default.
      timeout: PROBED.has(lane) ? PROBE_WAIT : 20000,
    });

    function state(name) { if (conn && !ended) conn.dataset.state = name; }

    socket.on("connect", function () { state("online"); });
    socket.on("disconnect", function () { state("offline"); });
    socket.io.on("reconnect_attempt", function () { state("connecting"); });
    socket.on("connect_error", function (err) {
      state("offline");
      const code = err && err.data && err.data.code;
      // Refused for a moment only (the server's Redis away: a standby taking over): socket.io
      // does not try a refused namespace again by itself, so the page does.
      if (code === "server/again") {
        if (!ended) setTimeout(function () { if (!ended && !socket.connected) socket.connect(); },
                               1000 + Math.random() * 1000);
        return;
      }
      if (options.onRefused && code) options.onRefused(err.data);
    });
    socket.on("time", function (payload) {
      if (payload && typeof payload.now === "number") offset = payload.now - Date.now() / 1000;
    });

    if (PROBED.has(lane)) {
      let asking = false;
      setInterval(function () {
        if (ended || asking || !socket.connected) return;
        const id = socket.id;
        asking = true;
        socket.timeout(PROBE_WAIT).emit("probe", function (err) {
          asking = false;
          if (err && !ended && socket.connected && socket.id === id) socket.io.engine.close();
        });
      }, PROBE_EVERY);
    }

    (options.events || ["view"]).forEach(function (event) {
      socket.on(event, function (payload) {
        // Versions order the stream of one table (key); payloads of several tables interleave.
        const key = options.keyOf ? options.keyOf(payload) : null;
        const version = options.versionOf ? options.versionOf(payload) : payload.version;
        if (newest[key] != null && version < newest[key]) return;
        newest[key] = version;
        options.onSnapshot(payload, event);
      });
    });

    return {
      socket: socket,
      // The page is done with this connection (a revoked card, a refused link): it stops
      // reconnecting and the connection mark says so instead of "reconnecting".
      end: function (why) {
        if (conn) conn.dataset.state = why || "ended";
        ended = true;
        socket.io.reconnection(false);
        socket.disconnect();
      },
      // Resolve with the server's ack; a lost connection retries until acknowledged.
      send: function (event, payload) {
        return new Promise(function (resolve) {
          socket.timeout(8000).emit(event, payload, function (err, ack) {
            resolve(err ? NO_ANSWER : ack);
          });
        });
      },
    };
  }

  // A page that only listens (the hall's phones behind deploy's nginx, whose nchan module holds
  // one channel a show): an EventSource, which the browser reconnects by itself after a lost
  // connection; after a refusal (an HTTP error: nginx's limit, a restart) the page opens it again
  // a few seconds later. Each message is one payload; the connection mark as connect's.
  function stream(url, options) {
    const conn = document.getElementById("conn");
    let ended = false;
    let source = null;
    function state(name) { if (conn && !ended) conn.dataset.state = name; }
    function open() {
      source = new EventSource(url);
      source.onopen = function () { state("online"); };
      source.onerror = function () {
        if (source.readyState !== EventSource.CLOSED) { state("connecting"); return; }
        state("offline");
        setTimeout(function () { if (!ended) open(); }, 2000 + Math.random() * 3000);
      };
      source.onmessage = function (event) {
        let payload;
        try { payload = JSON.parse(event.data); } catch (e) { return; }
        if (payload && typeof payload === "object") options.onSnapshot(payload, options.event);
      };
    }
    open();
    return {
      end: function (why) {
        if (conn) conn.dataset.state = why || "ended";
        ended = true;
        source.close();
      },
    };
  }

  // -- a game's pictures, on demand --------------------------------------------------------

  let manifest = null;
  const loading = {};  // game -> Promise of its scripts and styles
  const loaded = new Set();

  function gameAssets(game) {
    if (manifest === null) {
      const meta = document.querySelector("meta[name='game-assets']");
      try { manifest = meta ? JSON.parse(meta.content) : {}; } catch (e) { manifest = {}; }
    }
    return manifest[game] || null;
  }

  function add(tag, attrs) {
    return new Promise(function (resolve) {
      const node = document.createElement(tag);
      Object.keys(attrs).forEach(function (k) { node[k] = attrs[k]; });
      // A file that fails to load leaves the page working without that picture.
      node.onload = node.onerror = function () { resolve(); };
      (tag === "link" ? document.head : document.body).appendChild(node);
    });
  }

  // Resolves once the game's styles and scripts are in (at once for a game without pictures).
  // Scripts load in order: a game's shared helpers (its cards) come before its pictures.
  function need(game) {
    if (!game) return Promise.resolve();
    if (!loading[game]) {
      const files = gameAssets(game);
      if (!files) loading[game] = Promise.resolve();
      else {
        const styles = Promise.all(files.css.map(function (href) { return add("link", { rel: "stylesheet", href: href }); }));
        const scripts = files.js.reduce(function (chain, src) {
          return chain.then(function () { return add("script", { src: src, async: false }); });
        }, Promise.resolve());
        loading[game] = Promise.all([styles, scripts]).then(function () {
          loaded.add(game);
          document.documentElement.dataset.games = Array.from(loaded).join(" ");  // for tests
        });
      }
    }
    return loading[game];
  }

  function ready(game) { return !game || !gameAssets(game) || loaded.has(game); }

  // -- the show clock -------------------------------------------------------------------

  // Seconds left on a view's clock now (by the server's clock), or null without a clock.
  function clockLeft(clock) {
    if (!clock) return null;
    if (clock.state === "paused") return Math.max(0, clock.remaining || 0);
    // Never above the time set: a phone's estimate of the server's clock lags by the trip.
    const left = Math.max(0, (clock.ends_at || 0) - serverNow());
    return clock.seconds ? Math.min(clock.seconds, left) : left;
  }

  function clockText(seconds) {
    const s = Math.ceil(seconds);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  // Draw a view's clock into `box` and keep it counting (one timer per box). At zero it shows
  // 0:00 and nothing else happens: the dealer decides what zero means.
  function showClock(box, clock) {
    if (!box) return;
    clearInterval(box._tick);
    box.hidden = !clock;
    if (!clock) { box.removeAttribute("data-state"); return; }
    function tick() {
      const left = clockLeft(clock);
      box.dataset.state = clock.state;
      box.dataset.left = String(Math.ceil(left));
      box.classList.toggle("low", left <= 10);
      box.classList.toggle("zero", left <= 0);
      const number = box.querySelector(".clock-time") || box;
      number.textContent = clockText(left);
    }
    tick();
    if (clock.state === "running") box._tick = setInterval(tick, 250);
  }

  // An address to read off a screen, in parts a line may break between and never inside: the
  // host, its port, and the path ("/join"; "/a/" and the show's id apart, a long id only after
  // its hyphens). `bare`: without "http://" (a phone's browser adds it).
  function addressParts(url, bare) {
    const m = /^(https?:\/\/)?([^/:]*)(:\d+)?(.*)$/.exec(url);
    const scheme = bare && m[1] === "http://" ? "" : (m[1] || "");
    const path = m[4] || "";
    const last = path.lastIndexOf("/");
    const paths = last > 0 ? [path.slice(0, last + 1)].concat(path.slice(last + 1).split(/(?<=-)/)) : [path];
    return [scheme + m[2], m[3]].concat(paths).filter(function (part) { return part; });
  }

  // The same as an element: each part a nowrap span, a <wbr> between them.
  function address(url, bare, attrs) {
    const node = I18N.el("div", attrs || {});
    addressParts(url, bare).forEach(function (part, i) {
      if (i) node.appendChild(I18N.el("wbr"));
      node.appendChild(I18N.el("span", { class: "address-part" }, part));
    });
    return node;
  }

  window.Live = { connect: connect, stream: stream, need: need, ready: ready, serverNow: serverNow, clockLeft: clockLeft,
                  clockText: clockText, showClock: showClock, addressParts: addressParts, address: address,
                  NO_ANSWER: NO_ANSWER };
})();
