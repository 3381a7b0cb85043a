// A live connection to one Socket.IO namespace. Every payload is a whole snapshot with the
// table version; anything older than what is shown is dropped. On every (re)connect the
// server sends a fresh snapshot, so a reconnecting screen always shows the current state.
(function () {
  "use strict";

  function connect(namespace, options) {
    const conn = document.getElementById("conn");
    const newest = {};  // key (a table) -> the newest version received for it
    const socket = io(namespace, {
      auth: options.auth || {},
      transports: ["websocket", "polling"],
      reconnectionDelayMax: 3000,
    });

    function state(name) { if (conn) conn.dataset.state = name; }

    socket.on("connect", function () { state("online"); });
    socket.on("disconnect", function () { state("offline"); });
    socket.io.on("reconnect_attempt", function () { state("connecting"); });
    socket.on("connect_error", function (err) {
      state("offline");
      if (options.onRefused && err && err.data && err.data.code) options.onRefused(err.data);
    });

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
      // Resolve with the server's ack; a lost connection retries until acknowledged.
      send: function (event, payload) {
        return new Promise(function (resolve) {
          socket.timeout(8000).emit(event, payload, function (err, ack) {
            if (err) resolve({ ok: false, error: { code: "net/timeout", ko: "응답이 없습니다. 다시 시도하세요",
                                                   en: "No answer; try again" } });
            else resolve(ack);
          });
        });
      },
    };
  }

  window.Live = { connect: connect };
})();
