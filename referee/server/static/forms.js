// Generic decision forms, built from the game contract's decisions: the phones and the
// console render every game with this, so a new game needs no form code. Shapes: one, some
// (exactly k), assign (every item to a place), number (low..high), text.
//
// The widget follows from the description, never from the game: a number is a stepper with a
// typed value; a seat (field kind "seat"/"player") or a long list is a dense grid, searchable
// past MANY options; an assignment whose items repeat (3 paint, 2 brick) is counts per place;
// a decision with no fields is one button that sends at once. `compact` (staff forms with many
// one-of fields over the same list, e.g. a whole seating) makes each one-of field a drop-down.
(function () {
  "use strict";
  const { tr, el } = window.I18N;

  function newSid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function labelOf(options, value) {
    const found = (options || []).find(function (o) { return o.value === value || String(o.value) === String(value); });
    return found ? tr(found.label) : String(value);
  }

  const MANY = 12;

  function searchable(grid, count) {
    if (count <= MANY) return null;
    const input = el("input", { type: "search", class: "option-search", placeholder: tr(I18N.both("찾기", "Search")),
                                "aria-label": tr(I18N.both("찾기", "Search")) });
    input.addEventListener("input", function () {
      const words = input.value.trim().toLowerCase();
      grid.querySelectorAll(".option").forEach(function (button) {
        button.hidden = words !== "" && button.textContent.toLowerCase().indexOf(words) < 0;
      });
    });
    return input;
  }

  // Items that repeat (same label) are placed by counts: "페인트 ×3: AB 1 · AC 2 · AD 0".
  function countsControl(field, values, changed, box) {
    const chosen = values[field.name] || (values[field.name] = {});
    const groups = [];
    field.items.forEach(function (item) {
      const key = tr(item.label);
      let group = groups.find(function (g) { return g.key === key; });
      if (!group) groups.push(group = { key: key, label: item.label, items: [] });
      group.items.push(String(item.value));
    });
    groups.forEach(function (group) {
      const count = function (place) {
        return group.items.filter(function (i) { return chosen[i] === place.value; }).length;
      };
      const left = group.items.filter(function (i) { return chosen[i] == null; }).length;
      const row = el("div", { class: "counts-row", "data-group": group.key }, [
        el("span", { class: "assign-item" }, [tr(group.label) + " ×" + group.items.length,
          el("small", { class: left ? "left" : "left done" }, " · " + tr(I18N.both("남음 " + left, left + " left")))]),
      ]);
      field.options.forEach(function (place) {
        function move(by) {
          if (by > 0) {
            const free = group.items.find(function (i) { return chosen[i] == null; });
            if (free != null) chosen[free] = place.value;
          } else {
            const mine = group.items.filter(function (i) { return chosen[i] === place.value; }).pop();
            if (mine != null) delete chosen[mine];
          }
          changed();
        }
        row.appendChild(el("span", { class: "count-place", "data-value": String(place.value) }, [
          el("span", { class: "count-name", text: place.label }),
          el("button", { type: "button", class: "option small", "aria-label": "−", onclick: function () { move(-1); } }, "−"),
          el("strong", { class: "count-value" }, String(count(place))),
          el("button", { type: "button", class: "option small", "aria-label": "+", onclick: function () { move(1); } }, "+"),
        ]));
      });
      box.appendChild(row);
    });
  }

  function fieldControl(field, values, changed, compact, control) {
    const box = el("div", { class: "field field-" + field.shape + (field.kind ? " kind-" + field.kind : ""),
                            "data-field": field.name });
    box.appendChild(el("div", { class: "field-label", text: field.label }));
    // A game's own picture of the choice (a cell tapped on the player's board), where it has one.
    const own = control ? control(field, values, changed) : null;
    if (own) {
      box.appendChild(own);
      return box;
    }
    if (compact && field.shape === "one") {
      const at = field.options.findIndex(function (o) { return o.value === values[field.name]; });
      const select = el("select", { class: "option-select", "aria-label": tr(field.label) },
        [el("option", { value: "" }, "—")].concat(field.options.map(function (option, i) {
          return el("option", { value: String(i), selected: i === at }, option.label);
        })));
      select.addEventListener("change", function () {
        values[field.name] = select.value === "" ? null : field.options[Number(select.value)].value;
        changed(true);
      });
      box.appendChild(select);
    } else if (field.shape === "one" || field.shape === "some") {
      const dense = field.kind === "seat" || field.kind === "player" || field.options.length > MANY;
      const grid = el("div", { class: "options" + (dense ? " dense" : "") });
      const search = searchable(grid, field.options.length);
      if (search) box.appendChild(search);
      field.options.forEach(function (option) {
        const picked = field.shape === "one" ? values[field.name] === option.value
          : (values[field.name] || []).indexOf(option.value) >= 0;
        grid.appendChild(el("button", {
          type: "button", class: "option" + (picked ? " picked" : ""), "aria-pressed": String(picked),
          "data-value": String(option.value),
          onclick: function () {
            if (field.shape === "one") values[field.name] = option.value;
            else {
              const list = (values[field.name] || []).slice();
              const at = list.indexOf(option.value);
              if (at >= 0) list.splice(at, 1); else if (list.length < field.k) list.push(option.value);
              values[field.name] = list;
            }
            changed();
          },
        }, [el("span", { class: "option-label", text: option.label }),
            option.hint ? el("span", { class: "option-hint", text: option.hint }) : null]));
      });
      box.appendChild(grid);
      if (field.shape === "some") {
        box.appendChild(el("div", { class: "count" }, (values[field.name] || []).length + " / " + field.k));
      }
    } else if (field.shape === "assign" && repeats(field)) {
      countsControl(field, values, changed, box);
    } else if (field.shape === "assign") {
      const chosen = values[field.name] || (values[field.name] = {});
      field.items.forEach(function (item) {
        const row = el("div", { class: "assign-row" }, [el("span", { class: "assign-item", text: item.label })]);
        field.options.forEach(function (place) {
          const picked = chosen[String(item.value)] === place.value;
          row.appendChild(el("button", {
            type: "button", class: "option small" + (picked ? " picked" : ""), "aria-pressed": String(picked),
            "data-item": String(item.value), "data-value": String(place.value),
            onclick: function () { chosen[String(item.value)] = place.value; changed(); },
          }, [el("span", { text: place.label })]));
        });
        box.appendChild(row);
      });
    } else if (field.shape === "number") {
      const input = el("input", { type: "number", inputmode: "numeric", min: field.low, max: field.high,
                                  value: values[field.name] != null ? values[field.name] : "", class: "number" });
      input.addEventListener("input", function () {
        values[field.name] = input.value === "" ? null : Number(input.value);
        changed(true);
      });
      function step(by) {
        const now = values[field.name] != null ? values[field.name] : (field.low || 0) - by;
        let next = now + by;
        if (field.low != null) next = Math.max(field.low, next);
        if (field.high != null) next = Math.min(field.high, next);
        values[field.name] = next;
        changed();
      }
      box.appendChild(el("div", { class: "stepper" }, [
        el("button", { type: "button", class: "option small", onclick: function () { step(-1); } }, "−"),
        input,
        el("button", { type: "button", class: "option small", onclick: function () { step(1); } }, "+"),
      ]));
      if (field.low != null || field.high != null) {
        box.appendChild(el("div", { class: "hint" }, (field.low != null ? field.low : "") + " – " + (field.high != null ? field.high : "")));
      }
    } else {
      const area = el("textarea", { maxlength: 500, rows: 2 });
      area.value = values[field.name] || "";
      area.addEventListener("input", function () { values[field.name] = area.value; changed(true); });
      box.appendChild(area);
    }
    return box;
  }

  function repeats(field) {
    const labels = field.items.map(function (i) { return tr(i.label); });
    return labels.some(function (label, at) { return labels.indexOf(label) !== at; });
  }

  function complete(field, value) {
    if (value == null || value === "") return false;
    if (field.shape === "some") return value.length === field.k;
    if (field.shape === "assign") return field.items.every(function (i) { return value[String(i.value)] != null; });
    if (field.shape === "number") {
      return Number.isInteger(value) && (field.low == null || value >= field.low) && (field.high == null || value <= field.high);
    }
    return true;
  }

  // A chosen value in words ("1구역 3, 2구역 3", "Steel: AB 1 · AC 1"), for the confirm step and
  // for receipts.
  function summary(field, value) {
    if (field.shape === "one") return labelOf(field.options, value);
    if (field.shape === "some") return value.map(function (v) { return labelOf(field.options, v); }).join(", ");
    if (field.shape === "assign") {
      const rows = {};
      const order = [];
      field.items.forEach(function (i) {
        const key = tr(i.label);
        if (!rows[key]) { rows[key] = {}; order.push(key); }
        const place = labelOf(field.options, value[String(i.value)]);
        rows[key][place] = (rows[key][place] || 0) + 1;
      });
      return order.map(function (key) {
        const places = Object.keys(rows[key]).map(function (p) { return rows[key][p] > 1 ? p + " " + rows[key][p] : p; });
        return key + " → " + places.join(", ");
      }).join("; ");
    }
    return String(value);
  }


  const SLOT = "referee.pending";

  // Render `decision` into `root`. `submit(move, sid)` returns a promise of the server's ack.
  // The pending submission (move and id) is kept in sessionStorage with `memoryKey`, which
  // names this very decision (the same decision after a reload has the same key): a reload or
  // a lost connection resends the very same submission, which applies once. A later decision
  // never adopts an earlier one's submission.
  // `options.initial`: the values a form opens with (a seating to change rather than to build).
  // `options.control(field, values, changed)`: a game's own control for a field (or null for the
  // usual one); it sets `values[field.name]` and calls `changed()`.
  function render(root, decision, options) {
    const values = Object.assign({}, options.initial);
    const memoryKey = options.memoryKey;
    const formId = newSid();
    root.dataset.form = formId;
    let stage = "choose";
    let pending = memoryKey ? JSON.parse(sessionStorage.getItem(SLOT) || "null") : null;
    if (pending && pending.key === memoryKey && pending.move && pending.move.type === decision.move) stage = "confirm";
    else pending = null;
    let error = null;

    function ready() {
      return decision.fields.every(function (f) { return complete(f, values[f.name]); });
    }

    function draw(keepFocus) {
      if (root.dataset.form !== formId) return;  // a newer form took over
      if (keepFocus) {  // typing: keep the field (and its focus), only tell the button
        const next = root.querySelector(".next");
        if (next) next.disabled = !ready();
        return;
      }
      root.replaceChildren();
      root.appendChild(el("h2", { class: "prompt", text: decision.prompt }));
      if (options.caption) root.appendChild(el("div", { class: "caption" }, options.caption));
      // The message in words; its code only for support (a tooltip and data-code), not on screen.
      if (error) root.appendChild(el("p", { class: "error", role: "alert", "data-code": error.code, title: error.code }, tr(error)));
      if (stage === "choose") {
        decision.fields.forEach(function (field) { root.appendChild(fieldControl(field, values, draw, options.compact, options.control)); });
        // Nothing to choose (a call, "bid again", "next round"): one button that sends at once.
        const direct = decision.fields.length === 0 || options.confirm === false;
        root.appendChild(el("button", {
          type: "button", class: "big primary next" + (decision.fields.length === 0 ? " act" : ""), disabled: !ready(),
          onclick: function () {
            const move = { type: decision.move };
            decision.fields.forEach(function (f) { move[f.name] = values[f.name]; });
            pending = { key: memoryKey, move: move, sid: newSid() };
            if (memoryKey) sessionStorage.setItem(SLOT, JSON.stringify(pending));
            stage = direct ? "sending" : "confirm";
            error = null;
            if (stage === "sending") send(); else draw();
          },
        }, [el("span", { text: decision.fields.length === 0 ? decision.prompt : I18N.both("다음", "Next") })]));
      } else if (stage === "sent") {
        root.appendChild(el("p", { class: "sent", text: I18N.both("제출됨 ✓", "Sent ✓") }));
      } else {
        const list = el("dl", { class: "confirm-list" });
        decision.fields.forEach(function (f) {
          list.appendChild(el("dt", { text: f.label }));
          list.appendChild(el("dd", {}, summary(f, pending.move[f.name])));
        });
        root.appendChild(el("p", { class: "confirm-q", text: I18N.both("이대로 제출할까요?", "Submit this?") }));
        root.appendChild(list);
        root.appendChild(el("div", { class: "confirm-actions" }, [
          el("button", { type: "button", class: "big", disabled: stage === "sending",
                         onclick: function () { forget(); stage = "choose"; draw(); } },
             [el("span", { text: I18N.both("고치기", "Change") })]),
          el("button", { type: "button", class: "big primary submit", disabled: stage === "sending",
                         onclick: send },
             [el("span", { text: stage === "sending" ? I18N.both("보내는 중…", "Sending…") : I18N.both("제출", "Submit") })]),
        ]));
      }
    }

    function forget() {
      pending = null;
      const stored = memoryKey ? JSON.parse(sessionStorage.getItem(SLOT) || "null") : null;
      if (stored && stored.key === memoryKey) sessionStorage.removeItem(SLOT);  // not a newer form's
    }

    function send() {
      stage = "sending";
      draw();
      options.submit(pending.move, pending.sid).then(function (ack) {
        if (ack && ack.ok) {
          const sent = pending;
          forget();
          stage = "sent";
          draw();
          if (options.onDone) options.onDone(sent, ack);
        } else {
          error = ack ? ack.error : null;
          // A refused move is dropped (it changed nothing); a timeout keeps it for a resend.
          if (!error || error.code !== "net/timeout") { forget(); stage = "choose"; } else stage = "confirm";
          draw();
        }
      });
    }

    draw();
    I18N.onChange(function () { draw(); });
  }

  window.Forms = { render: render, newSid: newSid, labelOf: labelOf, summary: summary };
})();
