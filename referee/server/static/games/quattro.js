// Quattro's cards, drawn the same on the projector, the phones and the console: the colour,
// a big number, the colour's mark (for colour-blind viewers) and, for the two zeros, which one.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  const COLOURS = {
    R: { ko: "빨강", en: "red", mark: "●" },
    B: { ko: "파랑", en: "blue", mark: "■" },
    G: { ko: "초록", en: "green", mark: "▲" },
    Y: { ko: "노랑", en: "yellow", mark: "★" },
  };

  function isZero(card) { return card === "0a" || card === "0b"; }
  function number(card) { return isZero(card) ? 0 : Number(card.slice(1)); }

  function cardLabel(card) {
    if (isZero(card)) {
      const mark = card.slice(1).toUpperCase();
      return both("0 (제로 " + mark + ")", "0 (zero " + mark + ")");
    }
    const c = COLOURS[card[0]];
    return both(c.ko + " " + card.slice(1), c.en + " " + card.slice(1));
  }

  // One face-up card (`tag`: the element, a div on the projector, a span inline on phones).
  function face(card, extra, tag) {
    const zero = isZero(card);
    const kind = zero ? "z" + card.slice(1) : card[0];
    const corner = zero ? card.slice(1).toUpperCase() : COLOURS[card[0]].mark;
    return el(tag || "div", { class: "qc face qc-" + kind + (extra ? " " + extra : ""), "data-card": card,
                              title: tr(cardLabel(card)) }, [
      el("span", { class: "qc-corner" }, corner),
      el("span", { class: "qc-num" }, String(number(card))),
      el("span", { class: "qc-name", text: zero ? both("제로 " + corner, "zero " + corner)
        : both(COLOURS[card[0]].ko, COLOURS[card[0]].en) }),
    ]);
  }

  // A card's back: its pattern and the game's mark (drawn by the style sheet: a decoration, not
  // words anyone reads).
  function back(extra, tag) {
    return el(tag || "div", { class: "qc back" + (extra ? " " + extra : "") }, [el("span", { class: "qc-logo", "aria-hidden": "true" })]);
  }

  window.QuattroCards = { COLOURS: COLOURS, isZero: isZero, number: number, cardLabel: cardLabel, face: face, back: back };
})();
