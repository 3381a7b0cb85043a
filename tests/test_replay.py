"""A table's replay from its log (issue 29): its frames are the public views the projector was
shown, in order, for every game; a voided action never appears (its void shows as the public
"정정" notice in its place); a reveal held off the projector appears only where the dealer
released it, and what the projector showed meanwhile comes in between."""

from __future__ import annotations

import json
import random

import pytest

from referee.kernel import Actor, Audience, RuleError, registry
from referee.store import MemoryStore
from referee.table import Table
from referee.table.replay import Release, frames

from .test_programs_live import answer

DEALER = Actor.dealer()
NAMES = ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아라", "자람", "차미", "카이", "타라"]
GAMES = sorted(g for g, game in registry().items() if not game.program)


def step(table: Table, rnd: random.Random) -> bool:
    """One random legal move (a seat's or the dealer's); False once the match is over."""
    folded = table.load()
    if table.game.result(folded.state) is not None:
        return False
    owed = [d for d in table.game.turn(folded.state).decisions if not d.auto]
    if not owed:
        return False
    decision = rnd.choice(owed)
    actor = DEALER if decision.seat is None else Actor.of_seat(decision.seat)
    for _ in range(30):
        try:
            table.submit(actor, answer(decision.to_json(), rnd))
            return True
        except RuleError:
            continue
    return True


def distinct(views: list[dict]) -> list[dict]:
    out: list[dict] = []
    for view in views:
        if not out or view != out[-1]:
            out.append(view)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_frames_are_the_public_views_the_projector_was_shown(game):
    rnd = random.Random(7)
    seats = registry()[game].usual_seats
    table = Table.create(MemoryStore(), f"r-{game}", game, NAMES[:seats], seed=7)
    table.start(DEALER)
    live = [table.view(Audience.public())]
    for _ in range(400):
        if not step(table, rnd):
            break
        live.append(table.view(Audience.public()))
    shown = frames(table)
    assert [f.view for f in shown] == distinct(live)
    assert all(f.correction is None and not f.release for f in shown)
    # Reveal by reveal: the frames that show one hold one of the game's reveal events.
    reveals = [f for f in shown if f.reveal]
    assert all(set(f.events) & table.game.reveals for f in reveals)
    # A seat's replay is its own views: the other seats' secrets never in it.
    seat = frames(table, Audience.of_seat(0))
    assert [f.view for f in seat] == distinct([v for v in _seat_views(table, 0)])


def _seat_views(table: Table, seat: int) -> list[dict]:
    """The seat's view after each action, refolded (the live run above kept only the public)."""
    from referee.table.runtime import audience_view, fold

    entries = table.store.entries(table.id)
    out, i = [], 0
    while i < len(entries):
        j = i
        while j < len(entries) and entries[j]["action"] == entries[i]["action"]:
            j += 1
        out.append(audience_view(table.game, table.header, fold(table.game, table.header, entries[:j]),
                                 Audience.of_seat(seat)))
        i = j
    return out


def test_a_voided_action_never_appears_and_its_void_shows_in_public_words():
    table = Table.create(MemoryStore(), "v", "tricky_coin", ["가람", "나래"], seed=1)
    table.start(DEALER)
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 20})
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 5})  # voided: entered by mistake
    table.void(DEALER, "잘못 입력: 나래는 10을 냈음")
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 10})
    for seat in (0, 1):
        table.submit(Actor.of_seat(seat), {"type": "choose_token", "token": "STOP"})
    # The same match without the mistake, played fresh: its public views are the frames'.
    clean = Table.create(MemoryStore(), "v", "tricky_coin", ["가람", "나래"], seed=1)
    clean.start(DEALER)
    views = [clean.view(Audience.public())]
    for actor, move in ((0, {"type": "put_coin", "coin": 20}), (1, {"type": "put_coin", "coin": 10}),
                        (0, {"type": "choose_token", "token": "STOP"}), (1, {"type": "choose_token", "token": "STOP"})):
        clean.submit(Actor.of_seat(actor), move)
        views.append(clean.view(Audience.public()))
    shown = frames(table)
    notices = [f for f in shown if f.correction]
    assert len(notices) == 1 and "코인" in notices[0].correction["ko"]
    assert "잘못 입력" not in json.dumps([f.to_json() for f in shown], ensure_ascii=False)
    plain = [f.view for f in shown if not f.correction]
    strip = [{k: v for k, v in view.items() if k != "version"} for view in distinct(views)]
    assert [{k: v for k, v in view.items() if k != "version"} for view in plain] == strip
    # The boxes opened 20 against 10, never against the voided 5.
    assert shown[-1].view["state"]["opened"][0]["boxes"] == [[20], [10]]
    # The caption says the reveal first (the token that brought it after): it never runs out before it.
    assert shown[-1].events[0] in table.game.reveals and not set(shown[-1].events[-1:]) & table.game.reveals


def test_a_held_reveal_appears_only_where_the_dealer_released_it():
    table = Table.create(MemoryStore(), "b", "tricky_bridge", ["가람", "나래", "다솜", "라온"], seed=4)
    table.start(DEALER)
    table.submit(DEALER, {"type": "confirm_rooms", "rooms": "AB|CD"})
    hold_from = table.load().version
    for seat in (0, 1):  # room AB complete: its contracts revealed in the log, held off the projector
        table.submit(Actor.of_seat(seat), {"type": "mark_contract", "slots": [1, 2, 3] if seat else [4, 5, 6]})
    table.submit(Actor.of_seat(2), {"type": "mark_contract", "slots": [1, 2, 3]})  # room CD counts on
    released_at = table.load().version
    table.submit(Actor.of_seat(3), {"type": "mark_contract", "slots": [4, 5, 6]})
    history = [Release(hold_from, hold_from, True), Release(released_at, released_at, True)]
    shown = frames(table, releases=history)
    def contract(frame, room):
        rooms = frame.view["state"]["rooms"]
        return rooms[room]["contract"] if rooms else None

    revealed = [i for i, f in enumerate(shown) if contract(f, 0) is not None]
    first = shown[revealed[0]]
    assert first.release and first.at == released_at  # at the release, not at the reveal
    # It says and counts what it reveals, as the live reveal would (a recap scores it by these).
    assert first.events and set(first.events) <= table.game.reveals and first.what
    before = shown[revealed[0] - 1]
    assert [r["submitted"] for r in before.view["state"]["rooms"]] == [2, 1]  # the other room counted on
    # Room CD's own reveal (after the release, still held: no later release) never shows.
    assert all(contract(f, 1) is None for f in shown)
    # Without the hold the same log shows each reveal where it happened.
    plain = frames(table)
    assert any(contract(f, 1) is not None for f in plain)


def test_a_replay_shows_no_show_clock():
    # The clock's deadline passed long ago: a frame with it would count a red 0:00 on the projector.
    table = Table.create(MemoryStore(), "k", "tricky_coin", ["가람", "나래"], seed=2)
    table.start(DEALER)
    table.clock_command(DEALER, "start", 30)
    assert table.view(Audience.public())["clock"] is not None  # live, the projector counts it down
    table.submit(Actor.of_seat(0), {"type": "put_coin", "coin": 5})
    shown = frames(table)
    assert len(shown) >= 2 and all(f.view["clock"] is None for f in shown)


def test_a_programs_own_moments_are_reveals_of_its_replay():
    """Issue 37: "다음 공개" in the evening's replay jumped from the race's finish to the death
    match's first opening; the program's own moments (a result confirmed, an opponent named) are
    reveals too."""
    from .test_highlights import evening

    program, stages, games = evening("genius_episode", {}, seed=5)
    told = frames(program)
    moments = [f for f in told if {"ResultConfirmed", "OpponentNamed"} & set(f.events)]
    assert moments and all(f.reveal for f in moments)
    assert not any(f.reveal for f in told if not ({"ResultConfirmed", "OpponentNamed", "TieBroken"} & set(f.events)))
