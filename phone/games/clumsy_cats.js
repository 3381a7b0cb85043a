// The phone's picture of a Clumsy Cats seat: the secret roll of its own turn, big (only this
// seat's view carries it), what it must do with it (an X must be bluffed; in the toilet an X
// frees the cat), its cat, cell, laps, tokens and penalties, whether it may call this turn, the
// current declaration, and everyone's standing. The decisions themselves (declare, the big
// "거짓말!" button, effect choices) come as generic forms; the stylesheet makes the call button
// one big red target.
(function () {
  "use strict";
  const { el, both } = window.I18N;

  const BAR_TEXT = {
    roller: both("내 선언이라 지적할 수 없어요", "It is your own declaration"),
    toilet: both("화장실에 갇혀 있어 지적할 수 없어요", "Trapped in the toilet: no calling"),
    no_action: both("행동 불가 중이라 지적할 수 없어요", "No-action penalty: no calling"),
    called_last: both("지난 턴에 지적해서 이번엔 못 해요", "You called last turn: not this one"),
  };

  function face(v) { return v === "X" ? "X" : String(v); }

  function declText(v) {
    if (v === "X") return both("X (탈출)", "X (escape)");
    if (v === "none") return both("X 아님", "no X");
    return both(String(v), String(v));
  }

  function rollBox(state, mine) {
    const toilet = state.turn.toilet;
    let hint = null;
    if (state.step !== "declare") hint = null;
    else if (toilet) hint = mine.roll === "X" ? both("X! '탈출'을 선언할 수 있어요 (들키지 않게)", "An X! You may declare your escape")
      : both("X가 아니에요. 'X'라고 블러핑할 수도 있어요", "No X. You may bluff an X");
    else if (mine.roll === "X") hint = both("X! 반드시 블러핑: 1-4 중 하나를 선언하세요", "An X! You must bluff: declare 1-4");
    else hint = both("그대로 선언하거나 블러핑하세요", "Declare it or bluff");
    return el("div", { class: "ccp-roll" + (mine.roll === "X" ? " ccp-x" : ""), "data-roll": face(mine.roll) }, [
      el("div", { class: "ccp-roll-label", text: both("내 주사위 (나만 보임)", "My roll (only I see it)") }),
      el("div", { class: "ccp-roll-face" }, face(mine.roll)),
      hint ? el("div", { class: "ccp-roll-hint", text: hint }) : null,
    ]);
  }

  function status(c) {
    const out = [];
    if (c.toilet) out.push(both("화장실에 갇힘: " + c.toilet.used + "/3턴 사용", "Trapped in the toilet: " + c.toilet.used + "/3 turns used"));
    if (c.no_action) out.push(both("행동 불가: " + c.no_action + "턴 남음", "No action: " + c.no_action + " turns left"));
    if (c.island) out.push(both("무인도: " + c.island + "턴 쉼", "Desert island: " + c.island + " turn(s) lost"));
    if (c.lost) out.push(both("다음 턴 쉼", "You lose your next turn"));
    return out;
  }

  window.PhoneGames = window.PhoneGames || {};
  window.PhoneGames.clumsy_cats = function (view, seat) {
    const state = view.state;
    const me = state.cats[seat];
    const mine = state.mine || {};
    const parts = [];
    if (!me) return null;

    if (mine.roll != null) parts.push(rollBox(state, mine));

    parts.push(el("div", { class: "ccp-me" }, [
      el("span", { class: "ccp-dot ccp-" + me.cat }, String(seat + 1)),
      el("div", { class: "ccp-me-text" }, [
        el("div", { class: "ccp-me-cat", text: me.cat_label }),
        el("div", { class: "ccp-me-cell", text: both("위치: " + me.cell_label.ko + " (출발에서 " + me.steps + "칸)",
          "Cell: " + me.cell_label.en + " (" + me.steps + " from the start)") }),
      ]),
    ]));
    parts.push(el("div", { class: "ccp-stats" }, [
      el("div", { class: "ccp-stat" }, [el("div", { class: "ccp-stat-label", text: both("점수", "Points") }), el("div", { class: "ccp-stat-value" }, String(me.points))]),
      el("div", { class: "ccp-stat" }, [el("div", { class: "ccp-stat-label", text: both("바퀴", "Laps") }), el("div", { class: "ccp-stat-value" }, String(me.laps))]),
      el("div", { class: "ccp-stat" }, [el("div", { class: "ccp-stat-label", text: both("토큰", "Tokens") }),
        el("div", { class: "ccp-stat-value ccp-small" }, me.tokens.length ? me.tokens.join(", ") : "—")]),
    ]));
    status(me).forEach(function (t) { parts.push(el("div", { class: "ccp-status", text: t })); });

    const turn = state.turn;
    if (!state.over) {
      const who = state.cats[turn.seat];
      const line = turn.seat === seat ? both("내 차례", "My turn") : both(who.name + "의 차례", who.name + "'s turn");
      const info = [el("span", { class: "ccp-turn-who", text: line })];
      if (turn.declared != null) {
        const d = declText(turn.declared);
        info.push(el("span", { class: "ccp-turn-decl", text: both("선언 " + d.ko, "declared " + d.en) }));
      }
      parts.push(el("div", { class: "ccp-turn" }, info));
      if (turn.window && turn.seat !== seat) {
        parts.push(el("div", { class: "ccp-call" + (me.may_call ? " ccp-may" : ""), text: me.may_call
          ? both("거짓말 같으면 위의 빨간 버튼을 누르세요! 먼저 누른 사람만 인정돼요.", "Think it is a lie? Press the red button above! Only the first caller counts.")
          : (BAR_TEXT[me.call_bar] || both("이번엔 지적할 수 없어요", "You may not call this time")) }));
      }
    }

    const e = state.effect;
    if (e && (e.seat === seat || e.chooser === seat) && e.face != null && e.label) {
      parts.push(el("div", { class: "ccp-effect ccp-" + e.kind, text: both(e.kind_label.ko + ": " + e.label.ko, e.kind_label.en + ": " + e.label.en) }));
    }

    if (mine.rolls && mine.rolls.length) {
      const list = el("div", { class: "ccp-rolls" });
      mine.rolls.slice().reverse().slice(0, 5).forEach(function (r) {
        const called = r.caller != null;
        list.appendChild(el("div", { class: "ccp-roll-row" + (r.bluff ? " ccp-bluffed" : "") }, [
          el("span", { class: "ccp-roll-turn", text: both(r.turn + "턴", "T" + r.turn) }),
          el("span", { class: "ccp-roll-mine", text: both("주사위 " + face(r.roll) + " → 선언 " + declText(r.declared).ko,
            "rolled " + face(r.roll) + " → declared " + declText(r.declared).en) }),
          el("span", { class: "ccp-roll-out", text: !called ? both("지적 없음", "not called") : r.bluff ? both("적발", "caught") : both("지적 실패", "wrong call") }),
        ]));
      });
      parts.push(el("h3", { text: both("내 주사위 기록 (나만 보임)", "My rolls (only I see them)") }));
      parts.push(list);
    }

    const table = el("div", { class: "ccp-table" });
    state.standings.forEach(function (s) {
      const c = state.cats[s.seat];
      table.appendChild(el("div", { class: "ccp-row" + (s.seat === seat ? " ccp-row-me" : ""), "data-seat": String(s.seat) }, [
        el("span", { class: "ccp-rank", text: I18N.place(s.rank, state.over && I18N.sharedIn(state.standings, s.rank)) }),
        el("span", { class: "ccp-dot ccp-small-dot ccp-" + c.cat }, String(c.seat + 1)),
        el("span", { class: "ccp-row-name" }, c.name),
        el("span", { class: "ccp-row-cell", text: c.cell_label }),
        el("span", { class: "ccp-row-points", text: both(s.points + "점", s.points + " pt") }),
      ]));
    });
    parts.push(el("h3", { text: both("순위 · 남은 토큰 " + state.tokens_left, "Standings · tokens left " + state.tokens_left) }));
    parts.push(table);
    return el("div", { class: "ccp" }, parts);
  };
})();
