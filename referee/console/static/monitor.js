// The console's program monitor (issue 33), as OBS's Studio Mode: beside each other, PROGRAM, a
// live picture of exactly what the room's projector shows now (the projector's own page in a
// frame, on the projector's lane, scaled down: the same renderer, the same socket), and PREVIEW,
// what P would put up (the selected table, as the projector would draw it: the server's public
// payload for it, handed to a projector page that has no socket of its own). Nothing here
// changes a screen; P and the replay's controls do.
(function () {
  "use strict";
  const { el, tr, both } = window.I18N;
  const state = { program: null, preview: null, asked: null, last: null, hidden: false };

  // A projector page in a frame: 1920x1080 of its own, scaled to the box (the page lays itself out
  // by its viewport, as on the wall).
  function screen(src, role, label) {
    const frame = el("iframe", { class: "monitor-frame", src: src, title: tr(label), "data-role": role, tabindex: "-1" });
    const box = el("div", { class: "monitor-screen", "data-role": role + "-screen" }, [frame]);
    return { box: box, frame: frame };
  }

  function fitFrames(root) {
    root.querySelectorAll(".monitor-screen").forEach(function (box) {
      const scale = box.clientWidth / 1920;
      box.style.setProperty("--monitor-scale", String(scale));
      box.style.height = Math.round(1080 * scale) + "px";
    });
  }

  function build(root, snapshot) {
    const show = snapshot.show.id;
    const projector = new URL(snapshot.projector, location.origin);
    projector.searchParams.set("monitor", "program");
    state.program = screen(projector.pathname + projector.search, "monitor-program", both("지금 프로젝터", "On the projector now"));
    state.preview = screen("/display/" + encodeURIComponent(show) + "?monitor=preview", "monitor-preview",
                           both("P를 누르면", "What P would put up"));
    // A frame that (re)loads gets the newest preview at once.
    state.preview.frame.addEventListener("load", post);
    const toggle = el("button", { type: "button", class: "monitor-toggle", "data-action": "monitor-toggle",
                                  onclick: function () { state.hidden = !state.hidden; root.classList.toggle("folded", state.hidden);
                                                         toggle.textContent = tr(state.hidden ? both("모니터 보기", "Show monitor") : both("모니터 접기", "Fold monitor")); } },
                      tr(both("모니터 접기", "Fold monitor")));
    root.replaceChildren(
      el("div", { class: "monitor-pane" }, [
        el("div", { class: "monitor-label program", text: both("프로그램 · 지금 프로젝터", "Program · on the projector now") }),
        state.program.box,
      ]),
      el("div", { class: "monitor-pane" }, [
        el("div", { class: "monitor-label preview", "data-role": "monitor-preview-label" }),
        state.preview.box,
      ]),
      toggle,
    );
    if (window.ResizeObserver) new ResizeObserver(function () { fitFrames(root); }).observe(root);
    fitFrames(root);
  }

  // `entry`: the selected table's entry of the console's snapshot; `send`: the dealer socket's send.
  function render(root, snapshot, entry, send) {
    if (!snapshot || !snapshot.projector) return;
    if (!state.program) build(root, snapshot);
    const label = root.querySelector("[data-role='monitor-preview-label']");
    const current = snapshot.show.current;
    const table = entry ? entry.view.table : null;
    const same = table && table === current && !snapshot.replay;
    label.textContent = tr(!table ? both("미리보기", "Preview")
      : same ? both("미리보기 · 이미 프로젝터에 있음", "Preview · already on the projector")
        : both("미리보기 · P를 누르면", "Preview · what P would put up"));
    label.classList.toggle("same", !!same);
    if (!table) return;
    // Asked again when the table or what it shows moved (its version), never twice for the same.
    const key = table + ":" + entry.view.version + ":" + (entry.held ? entry.held.v : "") + ":" + snapshot.presence.join(",");
    if (state.asked === key) return;
    state.asked = key;
    send("command", { command: "preview", args: { show: snapshot.show.id, table: table } }).then(function (ack) {
      if (!ack || !ack.ok || state.asked !== key) return;
      state.last = ack.payload;
      post();
    });
  }

  function post() {
    const win = state.preview && state.preview.frame.contentWindow;
    if (win && state.last) win.postMessage({ preview: state.last }, location.origin);
  }

  window.ConsoleMonitor = { render: render };
})();
