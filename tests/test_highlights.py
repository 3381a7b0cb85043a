"""Each game's recap moments (issue 29, the highlights): every game's ``highlight`` scores the
frames of a real table played with random legal moves, from the public view alone; the frames
it ranks first are the ones the rules make memorable, checked against the log (what really
happened) or the frames around them, never against the function's own arithmetic; and a whole
evening's recap holds each stage's result, the named opponent and each match's moments, in
time order, and ends on the final standings."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from referee.kernel import Actor, Audience, RuleError, Turn, registry
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table
from referee.table.programs import ProgramRunner
from referee.table.replay import HIGHLIGHTS_PER_MATCH, Frame, frames, highlights, merge
from referee.table.runtime import fold

from .test_replay import DEALER, NAMES, step

GAMES = registry()
MATCHES = sorted(g for g, game in GAMES.items() if not game.program)


def played(game: str, seed: int, options: dict[str, Any] | None = None) -> tuple[Table, list[Frame]]:
    """A table of `game` played to its end with random legal moves, and its public frames."""
    rnd = random.Random(seed)
    table = Table.create(MemoryStore(), f"h-{game}-{seed}", game, NAMES[:GAMES[game].usual_seats], options, seed=seed)
    table.start(DEALER)
    for _ in range(5000):
        if not step(table, rnd):
            break
    assert table.result() is not None, f"{game} seed {seed} did not end"
    return table, frames(table)


def action_of(table: Table, frame: Frame) -> list[dict[str, Any]]:
    """The log entries of the action a frame shows."""
    entries = table.store.entries(table.id)
    action = next(e["action"] for e in entries if e["v"] == frame.at)
    return [e for e in entries if e["action"] == action]


def logged(table: Table, frame: Frame) -> list[dict[str, Any]]:
    """The events of the action a frame shows, from the log, whole (what really happened)."""
    return [{"type": e["event"]["type"], **e["event"]["data"], **e["event"].get("private", {})}
            for e in action_of(table, frame)]


def score(table: Table, frame: Frame) -> float | None:
    return table.game.highlight(frame.view, frame.events)


def ending(shown: list[Frame]) -> Frame:
    """The frame that brought the result (no void in these matches: it stays from then on)."""
    return next(f for f in shown if f.view["result"] is not None)


# -- every game ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", MATCHES)
def test_every_frame_scores_none_or_a_finite_number_and_the_recap_keeps_the_end_and_the_best(game):
    assert GAMES[game].highlight is not None
    for seed in (1, 2, 3):
        table, shown = played(game, seed)
        scores = [score(table, f) for f in shown]
        assert all(s is None or (isinstance(s, float | int) and math.isfinite(s)) for s in scores)
        assert any(s is not None for s in scores), f"{game} seed {seed}: no moment at all"
        # A seat's frames (its own secrets added to the public view) are read without error too.
        for f in frames(table, Audience.of_seat(0)):
            s = table.game.highlight(f.view, f.events)
            assert s is None or math.isfinite(s)
        kept = highlights(shown, GAMES)
        end = ending(shown)
        # The recap keeps the frame that brought the result (in its own words), not a later one.
        assert end in kept and all(shown.index(f) <= shown.index(end) for f in kept)
        # Besides it, the best few: none left out scores above one kept.
        others = [i for i, f in enumerate(shown) if f is not end]
        best = sorted((scores[i] for i in others if scores[i] is not None), reverse=True)[:HIGHLIGHTS_PER_MATCH]
        assert sorted((scores[shown.index(f)] for f in kept if f is not end), reverse=True) == best
        assert [shown.index(f) for f in kept] == sorted(shown.index(f) for f in kept)  # in time order


# -- Tricky Coin ---------------------------------------------------------------------------------


def test_coin_the_closest_round_scores_highest_and_a_tie_above_all():
    ties = 0
    for seed in range(1, 9):
        table, shown = played("tricky_coin", seed)
        opened = []
        for f in shown:
            boxes = [e for e in logged(table, f) if e["type"] == "BoxesOpened"]
            if not boxes:
                assert score(table, f) is None
                continue
            sums, pot = boxes[0]["sums"], sum(len(b) for b in boxes[0]["boxes"])
            opened.append((abs(sums[0] - sums[1]), pot, score(table, f)))
        ties += sum(1 for diff, _, _ in opened if diff == 0)
        # Coin rule 3: the nearer the sums, the higher; as near: the bigger pot.
        for (d1, p1, s1), (d2, p2, s2) in itertools.permutations(opened, 2):
            if (d1, -p1) < (d2, -p2):
                assert s1 > s2, (d1, p1, s1, d2, p2, s2)
        closest = min(opened, key=lambda o: (o[0], -o[1]))
        assert closest[2] == max(s for _, _, s in opened)
    assert ties  # the seeds have equal sums somewhere: a tie was ranked


def test_coin_a_tied_round_is_in_the_recap():
    table = Table.create(MemoryStore(), "tie", "tricky_coin", ["가람", "나래"], seed=1)
    table.start(DEALER)
    for coins in ((20, 5), (10, 10), (1, 20)):  # round 2: 10 against 10, the tie
        for seat, coin in enumerate(coins):
            table.submit(Actor.of_seat(seat), {"type": "put_coin", "coin": coin})
        for seat in (0, 1):
            table.submit(Actor.of_seat(seat), {"type": "choose_token", "token": "STOP"})
    shown = frames(table)
    tie = next(f for f in shown if "BoxesOpened" in f.events and f.view["state"]["opened"][0]["boxes"] == [[10], [10]])
    assert score(table, tie) == max(s for f in shown if (s := score(table, f)) is not None)
    assert tie in highlights(shown, GAMES)


# -- Tricky Gallery ------------------------------------------------------------------------------


def test_gallery_every_elimination_is_kept_and_a_higher_bid_ranks_higher():
    before_the_end = 0
    for seed in range(1, 9):
        table, shown = played("tricky_gallery", seed)
        kept = highlights(shown, GAMES)
        auctions = []
        for f in shown:
            events = logged(table, f)
            if any(e["type"] == "SeatEliminated" for e in events):
                assert f in kept, f"seed {seed}: {f.what}"  # Gallery rule 8: every elimination
                before_the_end += f is not ending(shown)
            won = next((e for e in events if e["type"] == "AuctionWon"), None)
            if won is not None:
                auctions.append((0 if won["no_bid"] else won["bid"], score(table, f)))
            revealed = next((e for e in events if e["type"] == "WorksRevealed"), None)
            if revealed is not None:
                # Gallery rule 4: the siren (two or more fakes) is a moment, a quiet reveal none.
                assert (score(table, f) is not None) == revealed["siren"]
        for (b1, s1), (b2, s2) in itertools.permutations(auctions, 2):
            if b1 > b2:
                assert s1 > s2
    assert before_the_end  # eliminations in rounds 2-4, not only the one that comes with the sale


# -- Tricky Bridge -------------------------------------------------------------------------------

VALUE = {"steel": 3, "brick": 2, "paint": 1}  # Bridge rule 7: a leftover steel 3, brick 2, paint 1


def test_bridge_the_round_where_a_player_won_most_the_bridges_after_round_3_and_the_scoring():
    for seed in range(1, 6):
        table, shown = played("tricky_bridge", seed)
        kept = highlights(shown, GAMES)
        assert "BridgesScored" in ending(shown).events  # who is out: the end
        third = next(f for f in shown if any(e["type"] == "BridgesRevealed" and not e["final"]
                                             for e in logged(table, f)))
        assert third in kept and third.view["state"]["revealed_round"] == 3
        best_of_round: dict[int, int] = {}
        rounds = []
        for f in shown:
            for e in logged(table, f):
                if e["type"] == "ContractsRevealed":
                    won = max(sum(VALUE[k] * n for k, n in gain.items()) for gain in e["gains"])
                    first = e["round"] not in best_of_round
                    best_of_round[e["round"]] = max(best_of_round.get(e["round"], 0), won)
                    if first:  # the other room still sealed: the round's picture is not complete
                        assert score(table, f) is None
                    else:
                        rounds.append((best_of_round[e["round"]], score(table, f)))
        assert len(rounds) == 6
        for (w1, s1), (w2, s2) in itertools.permutations(rounds, 2):
            if w1 > w2:
                assert s1 > s2
        assert max(s for _, s in rounds) < score(table, third) < score(table, ending(shown))


# -- Tricky Safari -------------------------------------------------------------------------------


def test_safari_the_round_where_a_value_swung_most_the_final_scoring_and_the_named_opponent():
    for seed in range(1, 6):
        table, shown = played("tricky_safari", seed)
        kept = highlights(shown, GAMES)
        assert "OpponentNamed" in ending(shown).events  # Safari rule 5: the result is final once named
        final = next(f for f in shown if "SafariScored" in f.events)
        assert final in kept
        values: dict[str, int] = {}
        swing = 0
        rounds = []
        for f in shown:
            for e in logged(table, f):
                if e["type"] == "CardsOpened":  # Safari rule 2: the round's opened values
                    values, swing = dict(e["opened"]), 0
                elif e["type"] == "CardPlayed":
                    swing = max(swing, abs(e["number"] - values[e["animal"]]))
                    values[e["animal"]] = e["number"]
                elif e["type"] == "RoundScored":
                    rounds.append((swing, score(table, f)))
        assert len(rounds) == 5
        for (w1, s1), (w2, s2) in itertools.permutations(rounds, 2):
            if w1 > w2:
                assert s1 > s2
        assert max(s for _, s in rounds) < score(table, final)


# -- Horror Race 2 -------------------------------------------------------------------------------


def _leader(state: Any) -> str | None:
    """Horror rule 6's first place, read from the folded state; nobody while all are at the start."""
    from referee.games.horror_race.state import START, final_places

    if not state.finish and not any(state.cells[START + 1:]):
        return None
    return final_places(state.cells, state.finish)[0][0]


def test_horror_race_the_rounds_that_changed_the_lead_rank_first():
    changed_seen = 0
    for seed in range(1, 6):
        table, shown = played("horror_race", seed)
        kept = highlights(shown, GAMES)
        game, header = table.game, table.header
        assert "RaceFinished" in ending(shown).events
        # The lead after each zone's move, from the state folded entry by entry (the truth, not
        # the public view the function rebuilds it from).
        folded = fold(game, header, [])
        changes: dict[int, int] = {}  # the action of each round's resolution -> its lead changes
        leader = None
        for entry in table.store.entries(table.id):
            folded = fold(game, header, [entry], folded)
            if entry["event"]["type"] == "ZoneResolved":
                now = _leader(folded.state)
                changes[entry["action"]] = changes.get(entry["action"], 0) + (leader is not None and now != leader)
                leader = now
        rounds = [(changes[action_of(table, f)[0]["action"]], score(table, f), f) for f in shown
                  if "ZoneResolved" in f.events and "RaceFinished" not in f.events]
        changed_seen += sum(1 for n, _, _ in rounds if n)
        # A round that changed the lead ranks above every round that did not; more changes, higher.
        for (n1, s1, _), (n2, s2, _) in itertools.permutations(rounds, 2):
            if n1 > n2:
                assert s1 > s2, (n1, s1, n2, s2)
        leading = sorted((r for r in rounds if r[0]), key=lambda r: -r[1])[:HIGHLIGHTS_PER_MATCH]
        assert all(f in kept for _, _, f in leading)
    assert changed_seen


# -- Quattro -------------------------------------------------------------------------------------


def _quattro_alive(cards: list[str]) -> bool:
    """Quattro rule 5: four different colours and numbers; each 0 its own colour and number."""
    colours = [c if c.startswith("0") else c[0] for c in cards]
    numbers = [c if c.startswith("0") else c[1] for c in cards]
    return len(set(colours)) == len(cards) and len(set(numbers)) == len(cards)


def test_quattro_the_decisive_openings_rank_above_the_others_and_the_comparison_first():
    decisive_seen = 0
    for seed in range(1, 12):
        table, shown = played("quattro", seed)
        opened: list[list[str]] = [[], []]
        openings = []
        for f in shown:
            for e in logged(table, f):
                if e["type"] == "CardsOpened" and "HandsCompared" not in f.events:
                    dead = 0
                    for seat in (0, 1):
                        dead += _quattro_alive(opened[seat]) and not _quattro_alive(opened[seat] + [e["cards"][seat]])
                        opened[seat].append(e["cards"][seat])
                    openings.append((dead, score(table, f)))
        compared = next(f for f in shown if "HandsCompared" in f.events)
        decisive_seen += sum(1 for d, _ in openings if d)
        for (d1, s1), (d2, s2) in itertools.permutations(openings, 2):
            if d1 > d2:
                assert s1 > s2
        assert all(s < score(table, compared) for _, s in openings)
    assert decisive_seen


# -- The Crew ------------------------------------------------------------------------------------


def test_crew_a_trick_that_failed_a_task_ranks_above_one_that_did_one_and_the_end_first():
    done_seen = 0
    for mission, seed in itertools.product((2, 10), range(1, 9)):
        table, shown = played("the_crew", seed, {"mission": mission})
        for f in shown:
            events = logged(table, f)
            trick = next((e for e in events if e["type"] == "TrickWon"), None)
            s = score(table, f)
            if any(e["type"] == "MissionEnded" for e in events):
                assert f is ending(shown) and s == max(x for g in shown if (x := score(table, g)) is not None)
            elif trick and trick["failed"]:
                assert s is not None and s >= 50
            elif trick and trick["done"]:
                done_seen += 1
                assert s is not None and s < 50
            else:
                assert s is None, (f.events, f.what)
    assert done_seen


# -- Reef ----------------------------------------------------------------------------------------


def test_reef_the_biggest_scoring_plays_and_the_end():
    for seed in range(1, 5):
        table, shown = played("reef", seed)
        kept = highlights(shown, GAMES)
        assert "FinalScores" in ending(shown).events
        plays = []
        for f in shown:
            scored = next((e for e in logged(table, f) if e["type"] == "CardScored"), None)
            if scored is None or f is ending(shown):
                continue
            # Reef rule 7: the card's points times its matches; a card that scored nothing is no moment.
            assert score(table, f) == (scored["points"] or None)
            plays.append((scored["points"], f))
        # The recap's plays are the biggest scoring ones.
        top = sorted((p for p, _ in plays if p > 0), reverse=True)[:HIGHLIGHTS_PER_MATCH]
        assert sorted((p for p, f in plays if f in kept), reverse=True) == top


# -- Clumsy Cats ---------------------------------------------------------------------------------


def test_cats_the_laps_that_took_the_biggest_tokens_and_the_end():
    for seed in range(1, 5):
        table, shown = played("clumsy_cats", seed)
        assert "GameEnded" in ending(shown).events
        taken: set[int] = set()
        for f in shown:
            now = {t["token"] for t in f.view["state"]["track"] if t["seat"] is not None}
            new = now - taken
            taken = now
            if f is ending(shown):
                continue
            # Cats rule 6: a lap takes the next token, worth its number.
            assert score(table, f) == (sum(new) or None), (f.events, f.what)


# -- a whole evening -----------------------------------------------------------------------------


def evening(program_id: str, options: dict[str, Any], seed: int) -> tuple[Table, list[Table], dict[str, Any]]:
    """A show program played to its end on the pure runtime (MemoryStore), as `referee
    play-program` does: the dealer opens each ready stage with its computed seating and confirms
    each result; the players' and the program's other decisions are random legal moves. One
    clock that ticks on every append orders the tables' logs the way they happened."""
    games = registry(programs=True)
    store = MemoryStore()
    tick = itertools.count(1)

    def clock() -> float:
        return float(next(tick))

    def table(table_id: str) -> Table:
        return Table(store, table_id, games, clock)

    names = ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아라", "자람", "차미"][:games[program_id].usual_seats]
    program = Table.create(store, "show", program_id, names, options, seed=seed, games=games, clock=clock)
    program.start(DEALER)
    runner = ProgramRunner(store, games, table)
    rnd = random.Random(seed)

    def bot(t: Table, prefer: Callable[[Turn], Turn] | None = None) -> None:
        turn = t.game.turn(t.load().state)
        for _ in range(200):
            chosen = pick(prefer(turn) if prefer else turn, rnd) or pick(turn, rnd)
            assert chosen is not None, t.id
            try:
                t.submit(*chosen)
                return
            except RuleError:
                continue
        raise AssertionError(f"no legal move found in {t.id}")

    def dealer_only(turn: Turn) -> Turn:  # the dealer seats each stage as the program computes it
        return Turn(turn.phase, tuple(d for d in turn.decisions if not d.move.startswith("seat_stage:")))

    for _ in range(100000):
        if program.result() is not None:
            break
        state = program.load().state
        stages = runner.stage_tables(program)
        open_ = {k: table(t) for k, t in stages.items() if state.stage(k).status == "open"}
        over = [k for k, t in open_.items() if t.result() is not None]
        if over:
            program.submit(DEALER, runner.complete(program, {"type": "confirm_result", "stage": over[0]}))
        elif open_:
            bot(next(iter(open_.values())))
        else:
            bot(program, dealer_only)
        for created in runner.sync(program).created:
            table(created).start(DEALER)
    assert program.result() is not None
    return program, [table(t) for t in runner.stage_tables(program).values()], games


@pytest.mark.parametrize("program_id,options", [("tricky_survival", {"event_match": "on"}), ("genius_episode", {})])
def test_an_evenings_recap_has_each_stage_the_named_opponent_and_ends_on_the_final_standings(program_id, options):
    program, stages, games = evening(program_id, options, seed=5)
    stories = [frames(program)] + [frames(t) for t in stages]
    recap = highlights(merge(stories), games)
    # In time order, as it happened.
    assert [f.t for f in recap] == sorted(f.t for f in recap)
    # Each stage's result, as the program confirmed it.
    confirmed = [f for f in recap if f.table == program.id and "ResultConfirmed" in f.events]
    assert len(confirmed) == len(stages) == len(program.load().state.stages)
    # The named opponent: Safari's winner names the Coin opponent (Tricky Survival's event
    # match), the candidate names the death match's (a Genius episode).
    named = [f for f in recap if "OpponentNamed" in f.events]
    assert len(named) == 1 and any("지목" in w["ko"] for w in named[0].what)
    # Each match: the frame that brought its result, before the program confirmed it, plus its
    # own best moments; never the frame that only closed its table.
    for table, story in zip(stages, stories[1:], strict=True):
        mine = [f for f in recap if f.table == table.id]
        end = ending(story)
        assert end in mine and len(mine) <= HIGHLIGHTS_PER_MATCH + 1
        assert len(mine) > 1, f"{table.game.id}: no moment of its own"
        assert all("table.finished" not in f.events for f in mine)
        key = table.header["stage"]["key"]
        stage_of = next(f for f in confirmed if any(e.get("stage") == key for e in logged(program, f)))
        assert recap.index(end) < recap.index(stage_of)
    # The final standings close the recap.
    last = recap[-1]
    assert last.table == program.id and last.view["result"] is not None
    assert last.view["result"] == program.result()
    assert sum(1 for f in recap if f.table == program.id and f.view["result"] is not None) == 1


def test_a_frame_with_no_view_state_scores_nothing():
    for game in MATCHES:
        assert GAMES[game].highlight({"state": None}, ("table.started",)) is None
        assert GAMES[game].highlight({}, ()) is None



# -- the recap on the projector ------------------------------------------------------------------


def test_the_projector_runs_the_recap_inside_the_screen(tmp_path, browser):
    """A Genius evening's recap on a live server, drawn by the projector in Chromium with its
    own pictures: every moment says it is the highlights and where it stands, inside the screen
    at 1920x1080 and 1280x720; the race's moments and the final standings as the hall sees them."""
    from .evening import GENIUS, Evening
    from .live import ARTIFACTS, LiveServer
    from .test_show_night_projector import seen_whole

    inside = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
        let clipped = false;
        for (let e = document.querySelector(sel).parentElement; e && e !== document.body; e = e.parentElement) {
          const cs = getComputedStyle(e), b = e.getBoundingClientRect();
          if ((cs.overflowX !== 'visible' || cs.overflowY !== 'visible')
              && (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)) clipped = true;
        }
        return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth
               && r.bottom <= innerHeight && !clipped; }"""
    server = LiveServer(tmp_path).start()
    try:
        evening = Evening(server, "genius_episode", GENIUS[:6], seed=5)
        evening.run()
        recap = server.ok("replay", show=evening.show, action="start", recap=True)["replay"]
        count = recap["count"]
        pages = {size: browser.new_page(viewport={"width": size[0], "height": size[1]})
                 for size in ((1920, 1080), (1280, 720))}
        errors: list[str] = []
        for page in pages.values():
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{server.url}/display/{evening.show}")
        race = 0
        for i in range(count):
            moment = server.ok("replay", show=evening.show, action="goto", index=i)["replay"]
            for (w, h), page in pages.items():
                page.wait_for_function("t => (document.querySelector('#replay .replay-where') || {}).textContent === t",
                                       arg=f"{i + 1} / {count}")
                page.evaluate("document.getAnimations().forEach(a => { try { a.finish() } catch (e) {} })")
                assert page.locator("#replay .replay-label").inner_text() in ("하이라이트", "Highlights")
                for selector in ("#replay .replay-label", "#replay .replay-where"):
                    assert page.evaluate(inside, selector), f"{selector} of moment {i + 1} at {w}x{h}"
                if i == count - 1:
                    # The recap's last moment is the evening's end: the standings whole, above the
                    # band (nothing of them under it), every word readable once the banner is gone.
                    page.wait_for_selector("[data-role='final-standings']")
                    page.wait_for_selector("#moment", state="hidden", timeout=15_000)
                    seen_whole(page, "room", ["[data-role='final-standings']", ".pg-podium", ".pg-rank", ".pg-rank-name",
                                              "#replay"], f"the recap's final standings at {w}x{h}")
                    band = page.locator("#replay").bounding_box()
                    ranks = page.locator("[data-role='final-standings']").bounding_box()
                    assert ranks["y"] + ranks["height"] <= band["y"] + 1, (ranks, band)
                # A race's moment (the recap captions it by the match and its round: issue 33).
                zones = any("호러 레이스" in word["ko"] for word in moment["what"])
                if zones or i == count - 1:
                    name = "final" if i == count - 1 else f"race-{race}"
                    page.screenshot(path=str(ARTIFACTS / f"recap-{name}-{w}x{h}.png"))
            race += any("호러 레이스" in word["ko"] for word in moment["what"])
        assert race  # the race's round moments are in the recap
        assert not errors, errors
        server.ok("replay", show=evening.show, action="stop")
    finally:
        server.stop()


@pytest.mark.parametrize("program_id,options", [("tricky_survival", {"event_match": "on"}), ("genius_episode", {})])
def test_a_recaps_captions_are_titles_not_log_sentences(program_id, options):
    """Issue 33: the recap as a producer's: each moment captioned by its match and what it is
    (who won it; which round or which opening), the program's moments in its own short words,
    the final standings last; never a log sentence cut with "…"."""
    from referee.table.replay import recap

    program, stages, games = evening(program_id, options, seed=5)
    shown = recap(merge([frames(program)] + [frames(t) for t in stages]), games)
    titles = [f.title for f in shown]
    assert all(t and t["ko"] and t["en"] for t in titles)
    assert titles[-1] == {"ko": "최종 순위", "en": "Final standings"}
    for frame, title in zip(shown, titles, strict=True):
        assert len(title["ko"]) <= 48, title
        assert "→" not in title["ko"] and ";" not in title["ko"], title  # no log sentence
        if not frame.view["state"].get("program"):
            name = (frame.view.get("stage") or {}).get("title") or frame.view["title"]
            assert title["ko"].startswith(name["ko"]), (title, name)
    # Each match's ending says who won it.
    for table in stages:
        end = [f for f in shown if f.table == table.id and f.view["result"] is not None]
        assert end and any(table.seats[s["seat"]] in end[0].title["ko"] for s in end[0].view["result"]["standings"]
                           if s["rank"] == 1), end[0].title
