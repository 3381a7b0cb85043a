// A player's own place in a show program (Tricky Survival, a Genius episode), in words.
//
// `waiting(view, seat)` is the card in the decision's place when the player owes the program
// nothing: while the evening runs, where they stand ("생존", "탈락 · <stage>", out of the main
// game but due in the event match, a Genius candidate or named opponent); once it is over, how
// their evening ended ("우승" with the golden key where the rules give one, "최종 N위", a Genius
// death match's "생존" or "탈락"). The picture below it holds the keys, the next match and the
// matches played so far. Everything is read from the program's public view (board, final,
// next, stages); nothing here decides who is out.
(function () {
  "use strict";
  const { el, both, tr } = window.I18N;

  // The event match's stages by the short names the hall uses ("엑스트라 배틀 출전"); any other
  // stage goes by its full title.
  const SHORT = {
    safari: both("엑스트라 배틀", "the extra battle"),
    coin_event: both("엑스트라 배틀 우승자 매치", "the extra battle winner's match"),
    coin_third: both("3·4위전", "the match for 3rd and 4th"),
  };

  function titleOf(state, key) {
    const stage = state.stages.find(function (s) { return s.key === key; })
      || state.planned.find(function (s) { return s.key === key; });
    return stage ? stage.title : both(key, key);
  }

  // The board's eliminated players as a list: Tricky Survival's [{player, stage}], a Genius
  // episode's single player number (or null).
  function outList(board) {
    if (Array.isArray(board.eliminated)) return board.eliminated;
    return board.eliminated != null ? [{ player: board.eliminated }] : [];
  }

  // The matches the player still plays tonight: open ones and those ready to open.
  function stillToPlay(state, seat) {
    const open = state.stages.filter(function (s) { return s.status === "open" && s.players.indexOf(seat) >= 0; });
    const ready = state.next.filter(function (n) { return n.players.indexOf(seat) >= 0; });
    return open.concat(ready);
  }

  function keyName(k, lang) {
    if (k === "golden") return lang === "ko" ? "황금 열쇠" : "golden key";
    return lang === "ko" ? "열쇠 " + k : "key " + k;
  }

  // Second place is the runner-up's (준우승), never a loss to be said as one.
  function placeWords(rank) { return rank === 2 ? both("준우승", "Runner-up") : both("최종 " + rank + "위", "Final place " + rank); }

  // -- the evening is over ---------------------------------------------------------------------

  function ending(view, seat) {
    const state = view.state;
    const final = state.final;
    const details = final.details || {};
    const me = final.standings.find(function (s) { return s.seat === seat; });
    if (!me) return null;
    const board = state.board || {};
    const out = outList(board).find(function (e) { return e.player === seat; });
    const genius = details.eliminated !== undefined;
    const dueled = genius && (details.candidate === seat || details.opponent === seat);
    let word;
    let outcome;
    if (genius && details.eliminated === seat) { word = both("탈락", "Eliminated"); outcome = "out"; }
    else if (final.winner === seat) { word = both("우승", "Winner"); outcome = "winner"; }
    else if (dueled) { word = both("생존", "Survived"); outcome = "survived"; }
    else {
      word = I18N.sharedIn(final.standings, me.rank) ? I18N.place(me.rank, true) : placeWords(me.rank);
      outcome = "place";
    }
    const lines = [];
    if (details.golden_key === seat) lines.push(el("p", { class: "pg-golden", text: both("황금 열쇠", "The golden key") }));
    const facts = [];
    if (dueled) {
      facts.push(details.eliminated === seat ? both("데스 매치 패배", "Lost the death match") : both("데스 매치 승리", "Won the death match"));
    }
    const of = final.standings.length;
    if (outcome !== "place") facts.push(both(of + "명 중 " + me.rank + "위", "place " + me.rank + " of " + of));
    if (me.score != null) facts.push(both("점수 " + me.score, "score " + me.score));
    if (facts.length) {
      lines.push(el("p", { class: "pg-facts", text: both(facts.map(function (f) { return f.ko; }).join(" · "),
                                                       facts.map(function (f) { return f.en; }).join(" · ")) }));
    }
    if (out && out.stage) {
      const where = titleOf(state, out.stage);
      lines.push(el("p", { class: "pg-where", text: both("탈락 · " + where.ko, "Out in " + where.en) }));
    }
    return el("div", { class: "waiting over pg-end", "data-state": "over", "data-outcome": outcome }, [
      el("strong", { text: both(view.title.ko + " 종료", view.title.en + " is over") }),
      el("p", { class: "place pg-outcome", text: word }),
    ].concat(lines));
  }

  // -- while the evening runs ------------------------------------------------------------------

  function standing(view, seat) {
    const state = view.state;
    const board = state.board || {};
    const out = outList(board).find(function (e) { return e.player === seat; });
    const coming = stillToPlay(state, seat);
    if (out && coming.length) {
      // Out of the main game, yet due in the event match: both are true, and both are said.
      const next = coming[0];
      const name = SHORT[next.key] || next.title;
      return { state: "extra", word: both("메인 게임 탈락 · " + name.ko + " 출전", "Out of the main game · playing " + name.en) };
    }
    if (out) {
      const where = out.stage ? titleOf(state, out.stage) : null;
      return { state: "out", word: where ? both("탈락 · " + where.ko, "Out in " + where.en) : both("탈락", "Out"),
               hint: both("최종 순위는 쇼가 끝나면 여기에 나옵니다.", "Your final place appears here when the evening ends.") };
    }
    if (board.runner_up === seat) return { state: "runner-up", word: both("준우승", "Runner-up") };
    if (board.candidate === seat) return { state: "candidate", word: both("탈락 후보", "Elimination candidate") };
    if (board.opponent === seat) return { state: "named", word: both("데스 매치 상대로 지목되었습니다", "Named for the death match") };
    if ((board.tied || []).indexOf(seat) >= 0) {
      return { state: "tied", word: both("최저 점수 동점", "Tied for the lowest score"),
               hint: both("딜러가 탈락 후보를 정합니다.", "The dealer chooses the candidate.") };
    }
    // "생존" once something has happened (a match confirmed): before that nobody survived anything.
    const played = (view.state.stages || []).some(function (s) { return s.status === "confirmed"; });
    return played ? { state: "in", word: both("생존", "Still in") } : { state: "in", word: both("참가 중", "In the show") };
  }

  function waiting(view, seat) {
    if (view.state.final) return ending(view, seat);
    const where = standing(view, seat);
    return el("div", { class: "waiting pg-standing" + (where.state === "out" ? " out" : ""), "data-state": where.state }, [
      el("strong", { class: "pg-status", text: where.word }),
      where.hint ? el("p", { text: where.hint }) : null,
      view.turn ? el("div", { class: "hint", text: view.turn.phase }) : null,
    ]);
  }

  // -- the picture: keys, the next match, the matches played ----------------------------------

  // A duel's outcome. A larger match's place is left out: the stage lists its players best
  // first without their ranks, and equal ranks (a Horror Race tie) would read as different.
  function placeIn(stage, seat) {
    const at = (stage.order || []).indexOf(seat);
    if (at < 0 || stage.players.length !== 2) return null;
    return at === 0 ? both("승리", "won") : both("패배", "lost");
  }

  function picture(view, seat) {
    const state = view.state;
    const board = state.board || {};
    const keys = ((state.final && state.final.details && state.final.details.keys) || board.keys || {})[seat] || [];
    const parts = [];
    if (!state.final && (view.decisions || []).length) {
      // Owing the program a decision (a candidate naming the opponent), the decision's place
      // holds the form: where the player stands goes above it (data-now), where the eye is.
      const where = standing(view, seat);
      parts.push(el("p", { class: "pg-status-line", "data-state": where.state, "data-now": true, text: where.word }));
    }
    if (keys.length) {
      parts.push(el("p", { class: "pg-keys", text: both("가진 열쇠: " + keys.map(function (k) { return keyName(k, "ko"); }).join(", "),
                                                      "Keys: " + keys.map(function (k) { return keyName(k, "en"); }).join(", ")) }));
    }
    state.next.forEach(function (n) {
      const at = n.players.indexOf(seat);
      if (at >= 0) parts.push(el("p", { class: "pg-next" }, [el("strong", { text: both("다음 경기: ", "Next: ") }), tr(n.title) + " · " +
                                                           tr(both((at + 1) + "번 자리", "seat " + (at + 1)))]));
    });
    const played = state.stages.filter(function (s) { return s.status === "confirmed" && s.players.indexOf(seat) >= 0; });
    if (played.length) {
      parts.push(el("h3", { text: both("오늘의 경기", "Tonight's matches") }));
      parts.push(el("ul", { class: "pg-played" }, played.map(function (s) {
        const how = placeIn(s, seat);
        return el("li", { "data-stage": s.key }, [tr(s.title), how ? el("strong", { text: how }) : null]);
      })));
    }
    return parts.length ? el("div", { class: "pg-me" }, parts) : null;
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.program = picture;
  picture.waiting = waiting;
})();
