// The projector's layout audit (issue 33, tests/test_stage_audit.py): injected into the projector
// page, it reads the boxes of the stage's layers (docs/stage.md) and of what the games name in
// their pictures, and lists every problem a person in the hall would see:
//  - outside: a box (or part of it) outside the window;
//  - spill: something of the board outside the board's region (cut by it, or over another layer);
//  - overlap: two layers' contents on the same spot (a question over the board, a notice over a
//    picture, the clock over the titles);
//  - boxes: two named boxes of one picture on the same spot ([data-box]: Bridge's score badges
//    on each other or on an island);
//  - clipped: a named box ([data-role], [data-box]) whose own content is cut by its size.
// Returns {problems: [...], layers: {...}} (problems as short strings a test prints).
window.StageAudit = function () {
  "use strict";
  const problems = [];
  const W = window.innerWidth;
  const H = window.innerHeight;
  const EPS = 1.5;

  function visible(node) {
    if (!node || node.closest("[hidden]")) return false;
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) return false;
    }
    const r = node.getBoundingClientRect();
    return r.width > 0.5 && r.height > 0.5;
  }

  function name(node) {
    const role = node.getAttribute("data-role") || node.getAttribute("data-box") || node.getAttribute("data-layer");
    return node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") + (role ? "[" + role + "]" : "")
      + (node.className && typeof node.className === "string" ? "." + node.className.trim().split(/\s+/).slice(0, 2).join(".") : "");
  }

  function rect(node) { return node.getBoundingClientRect(); }
  function overlap(a, b) {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > EPS && h > EPS ? w * h : 0;
  }
  function inside(inner, outer) {
    return inner.left >= outer.left - EPS && inner.top >= outer.top - EPS
      && inner.right <= outer.right + EPS && inner.bottom <= outer.bottom + EPS;
  }
  // The part of a box that shows: a text node's words, not an empty flex cell's stretch.
  function textRect(node) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    return r.width > 0.5 && r.height > 0.5 ? r : null;
  }

  // -- the layers' contents ---------------------------------------------------------------------
  const stage = document.querySelector("#display .stage");
  const layers = [];  // {layer, node, box}
  function add(layer, node, box) {
    if (node && visible(node)) layers.push({ layer: layer, node: node, box: box || rect(node) });
  }
  ["#game-title", "#show-title", "#phase"].forEach(function (sel) {
    const node = document.querySelector(sel);
    if (node && visible(node) && node.textContent.trim()) add("header", node, textRect(node) || rect(node));
  });
  add("clock", document.getElementById("clock"));
  const frame = document.getElementById("board-frame");
  const board = document.getElementById("board");
  const frameBox = rect(frame);
  const boardShown = visible(board);
  if (boardShown) add("board", frame, frameBox);
  document.querySelectorAll("#crowd .cr-question").forEach(function (q) { add(q.getAttribute("data-layer"), q); });
  document.querySelectorAll("#crowd .cr-board").forEach(function (b) { add("full", b); });
  ["correction", "replay", "sealed"].forEach(function (id) {
    const node = document.getElementById(id);
    if (node && node.textContent.trim()) add(id, node, id === "sealed" ? textRect(node) : null);
  });
  const moment = document.getElementById("moment");
  add(moment.classList.contains("band") ? "band" : "full", moment);

  layers.forEach(function (l) {
    const b = l.box;
    if (b.left < -EPS || b.top < -EPS || b.right > W + EPS || b.bottom > H + EPS) {
      problems.push("outside: " + l.layer + " " + name(l.node) + " at " + [b.left, b.top, b.right, b.bottom].map(Math.round).join(","));
    }
  });
  for (let i = 0; i < layers.length; i++) {
    for (let j = i + 1; j < layers.length; j++) {
      const a = layers[i], b = layers[j];
      if (a.layer === b.layer) continue;
      if (a.node.contains(b.node) || b.node.contains(a.node)) continue;
      if (overlap(a.box, b.box)) problems.push("overlap: " + a.layer + " " + name(a.node) + " / " + b.layer + " " + name(b.node));
    }
  }

  // -- the board: nothing of it outside its region; its named boxes apart ----------------------
  if (boardShown) {
    const named = [];
    board.querySelectorAll("*").forEach(function (node) {
      if (!visible(node)) return;
      const r = rect(node);
      if (!inside(r, frameBox)) {
        problems.push("spill: " + name(node) + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",")
          + " outside the board " + [frameBox.left, frameBox.top, frameBox.right, frameBox.bottom].map(Math.round).join(","));
      }
      if (node.hasAttribute("data-box")) named.push({ node: node, box: r });
      if (node.hasAttribute("data-role") || node.hasAttribute("data-box")) {
        const cs = getComputedStyle(node);
        const cuts = /(hidden|clip)/.test(cs.overflowX + cs.overflowY);
        if (cuts && (node.scrollWidth > node.clientWidth + 2 || node.scrollHeight > node.clientHeight + 2)) {
          problems.push("clipped: " + name(node) + " holds " + node.scrollWidth + "x" + node.scrollHeight
            + " in " + node.clientWidth + "x" + node.clientHeight);
        }
      }
    });
    for (let i = 0; i < named.length; i++) {
      for (let j = i + 1; j < named.length; j++) {
        const a = named[i], b = named[j];
        if (a.node.contains(b.node) || b.node.contains(a.node)) continue;
        if (overlap(a.box, b.box)) problems.push("boxes: " + name(a.node) + " / " + name(b.node));
      }
    }
  }
  // A picture laid out bigger than its region is scaled in by Stage.fit (nothing is cut), but it
  // should fit by its design: a scale below the side column's squeeze is a picture that overflowed.
  if (boardShown) {
    const cs = getComputedStyle(stage);
    const full = stage.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const squeeze = Math.min(1, frame.clientWidth / full);
    const scale = Number(stage.dataset.scale || 1);
    if (scale < squeeze - 0.005) problems.push("shrunk: the board overflowed its region (scaled to " + scale.toFixed(3) + ")");
  }
  // A question of the hall: everything of it inside it, nothing of it cut.
  document.querySelectorAll("#crowd .cr-question").forEach(function (q) {
    if (!visible(q)) return;
    const box = rect(q);
    q.querySelectorAll("*").forEach(function (node) {
      if (!visible(node)) return;
      if (!inside(rect(node), box)) problems.push("spill: " + name(node) + " outside its question");
      const cs = getComputedStyle(node);
      if (/(hidden|clip)/.test(cs.overflowX + cs.overflowY) && !/ellipsis/.test(cs.textOverflow)
          && (node.scrollWidth > node.clientWidth + 2 || node.scrollHeight > node.clientHeight + 2)) {
        problems.push("clipped: " + name(node) + " in the question holds " + node.scrollWidth + "x" + node.scrollHeight
          + " in " + node.clientWidth + "x" + node.clientHeight);
      }
    });
  });
  // Every word the stage shows is inside the window, whatever its layer.
  stage.querySelectorAll("*").forEach(function (node) {
    if (node.id === "conn" || node.id === "operator" || !visible(node)) return;
    const r = rect(node);
    if (r.left < -EPS || r.top < -EPS || r.right > W + EPS || r.bottom > H + EPS) {
      problems.push("outside: " + name(node) + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
    }
  });
  const seen = {};
  layers.forEach(function (l) { seen[l.layer] = (seen[l.layer] || 0) + 1; });
  return { problems: Array.from(new Set(problems)), layers: seen, scale: stage.dataset.scale };
};
