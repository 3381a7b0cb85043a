// The projector's stage as layers (docs/stage.md; CasparCG's channel and layers are the model):
// named layers in a fixed order, each with its region of the 16:9 stage, and one rule for two
// shown at once. The regions are the stage's grid (app.css, crowd.css); this script keeps the
// rules: which layers are up (the stage's data-side, data-full and data-band), and the board's
// size and scale, so that the board fits whole into whatever region the layers above it leave.
// The projector, the console's program monitor and the exported evening all use it: display.js
// calls Stage.set when a layer comes or goes, and Stage.fit when it has drawn the board.
(function () {
  "use strict";

  // Bottom to top. `region`: where it is drawn; `with`: what happens to the layers under it.
  const LAYERS = [
    { name: "board", region: "board", with: "the base: a table's picture, the program's board, the join screen" },
    { name: "header", region: "head", with: "titles, the step, the clock in its own slot at the right" },
    { name: "side", region: "side", with: "a question with 5-9 options: the board shrinks to leave the column" },
    { name: "quest", region: "quest", with: "a question with 2-4 options: the board shrinks to leave the row" },
    { name: "lower", region: "lower", with: "the 정정 notice, the replay band, the sealed count: the board shrinks" },
    { name: "full", region: "board+side", with: "a moment, the hall's leaderboard: replace the board for their time" },
    { name: "band", region: "head", with: "a match's result band: replaces the header for its time" },
  ];

  const up = { full: new Set(), band: new Set() };  // who holds a replacing layer up

  function stage() { return document.querySelector("#display .stage"); }
  function px(value) { return parseFloat(value) || 0; }

  // The board fills its region's height (a row under it, the lower band's notices: the picture
  // lays itself out in what is left, as it always has); across, it keeps the full width, and a
  // side column squeezes it whole (scaled, centred) instead of making it reflow into a narrow
  // strip. Whatever a picture still holds beyond its box is scaled in too: nothing is ever cut.
  function fit() {
    const root = stage();
    const frame = document.getElementById("board-frame");
    const board = document.getElementById("board");
    if (!root || !frame || !board) return;
    const cs = getComputedStyle(root);
    const full = root.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight);
    const width = frame.clientWidth;
    const height = frame.clientHeight;
    if (full <= 0 || width <= 0 || height <= 0) return;
    const squeeze = Math.min(1, width / full);
    const box = { w: full, h: height / squeeze };
    board.style.width = box.w + "px";
    board.style.height = box.h + "px";
    const held = { w: Math.max(box.w, board.scrollWidth), h: Math.max(box.h, board.scrollHeight) };
    const scale = squeeze * Math.min(1, box.w / held.w, box.h / held.h);
    const left = Math.max(0, (width - held.w * scale) / 2);
    const top = Math.max(0, (height - held.h * scale) / 2);
    board.style.transform = "translate(" + left + "px, " + top + "px) scale(" + scale + ")";
    root.dataset.scale = scale.toFixed(3);
  }

  // `layer`: "side" (on/off), "full" or "band" (held up by `who` while `on`).
  function set(layer, on, who) {
    const root = stage();
    if (!root) return;
    if (layer === "side") {
      root.dataset.side = on ? "on" : "off";
    } else {
      const holders = up[layer];
      if (on) holders.add(who || layer); else holders.delete(who || layer);
      root.dataset[layer] = holders.size ? "on" : "off";
    }
    fit();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const frame = document.getElementById("board-frame");
    if (!frame || !window.ResizeObserver) return;
    // The frame's region changes with the layers around it (and the window): fit again.
    const watch = new ResizeObserver(function () { fit(); });
    watch.observe(frame);
    watch.observe(stage());
    fit();
  });

  window.Stage = { LAYERS: LAYERS, set: set, fit: fit };
})();
