// A seat's own story of a match (referee/table/replay.py, `story`), drawn the same on the phone
// after the show ("내 경기 다시 보기", phone.js) and on an exported player's page (export.js):
// round by round, each line the player's own words beside what the hall saw.
(function () {
  "use strict";
  const { el, both, inLang } = window.I18N;

  function roundTitle(round) {
    return round === 0 ? both("경기 시작 전", "Before round 1") : both(round + "라운드", "Round " + round);
  }

  // One line (replay.Line): a reveal or a correction in the hall's words; a move or a secret in
  // the player's, beside the hall's (or "not shown").
  function line(item) {
    if (item.kind === "reveal" || item.kind === "correction") {
      const correction = item.kind === "correction";
      const words = correction
        ? (item.public ? both("딜러가 무효로 했습니다: " + inLang(item.public, "ko"), "The dealer voided: " + inLang(item.public, "en"))
          : both("딜러가 기록을 바로잡았습니다.", "The dealer corrected the record."))
        : item.public;
      return el("li", { class: "story-line story-" + item.kind, "data-kind": item.kind, "data-role": "line" }, [
        el("span", { class: "story-tag", text: correction ? both("정정", "Correction") : both("공개 결과", "Revealed") }),
        el("span", { class: "story-words", text: words }),
      ]);
    }
    const tag = item.behalf ? both("딜러가 대신 입력", "Entered by the dealer")
      : item.kind === "told" ? both("내 비밀 정보", "Your secret") : both("내 선택", "My choice");
    return el("li", { class: "story-line story-" + item.kind, "data-kind": item.kind, "data-role": "line" }, [
      el("div", { class: "story-own" }, [el("span", { class: "story-tag", text: tag }),
                                          el("span", { class: "story-words", text: item.own })]),
      item.public ? el("div", { class: "story-public" }, [el("span", { class: "story-words", text: item.public })])
        : el("div", { class: "story-public story-hidden", text: both("비공개", "not shown") }),
    ]);
  }

  // The lines as sections, one per round, each headed `heading` ("h3", "h4"); a match with no line
  // of the player's says so.
  function rounds(lines, heading) {
    const parts = [];
    let list = null;
    let round;
    lines.forEach(function (item, i) {
      if (i === 0 || item.round !== round) {
        round = item.round;
        const section = el("section", { class: "story-round", "data-round": round == null ? "" : String(round) }, [
          round == null ? null : el(heading, { text: roundTitle(round) }),
          el("div", { class: "story-cols", "aria-hidden": "true" }, [el("span", { text: both("나", "You") }),
                                                                     el("span", { text: both("공개", "The hall saw") })]),
        ]);
        list = el("ol", { class: "story-lines" });
        section.appendChild(list);
        parts.push(section);
      }
      list.appendChild(line(item));
    });
    return parts.length ? parts : [el("p", { class: "hint", text: both("이 경기에서 내 기록이 없습니다.", "Nothing of yours in this match.") })];
  }

  window.PhoneStory = { rounds: rounds, roundTitle: roundTitle };
})();
