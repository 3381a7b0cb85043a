"""The games' own audience questions (issue 28): each is made from a table's public view only,
offered only while it makes sense, answered from a later public view only and then as the game
decided it, and closed by an event of the table's log no later than the first public view that
shows its answer, so no prediction can land once the answer is public.

Tables are real: the runtime (referee.table.Table) on the in-memory store, seeded, driven with
random legal moves; programs with their stage tables, as `referee play-program` runs them. Every
question and answer is computed from ``table.view(Audience.public())`` and nothing else; the
game's truth to compare with comes from the dealer's side (the folded state, the log, the result).
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
import redis

from referee.cli import bot_step
from referee.kernel import Actor, Audience, Game, RuleError, Turn, get_game, registry
from referee.kernel import predictions as P
from referee.store import MemoryStore, RedisStore
from referee.table import Table
from referee.table.programs import ProgramRunner

NAMES = ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아라", "자람", "차미", "하늘", "별"]
DEALER = Actor.dealer()


@dataclass
class Step:
    """A table after one action: its version (the log's), its public view, the dealer's state."""

    version: int
    view: dict[str, Any]
    state: Any


class Played:
    """A table (a match, or a program with its stage tables) played to its end with random legal
    moves, and the table's public view after every action."""

    def __init__(self, game_id: str, seed: int, seats: int | None = None, options: dict[str, Any] | None = None,
                 store: Any = None) -> None:
        self.games = registry(programs=True)
        self.game = get_game(game_id, self.games)
        self.store = store or MemoryStore()
        count = seats or self.game.usual_seats
        self.table = Table.create(self.store, f"q-{game_id}-{seed}-{uuid.uuid4().hex[:6]}", game_id, NAMES[:count],
                                  options=options or {}, seed=seed, games=self.games)
        self.table.start(DEALER)
        self.rnd = random.Random(f"predict:{seed}")
        self.steps = [self._step()]
        self.stage_tables: dict[str, Table] = {}
        self.runner = ProgramRunner(self.store, self.games, self._stage) if self.game.program else None

    def _step(self) -> Step:
        folded = self.table.load()
        return Step(folded.version, self.table.view(Audience.public()), folded.state)

    def step(self) -> None:
        """One action on the table (a program: on the match that runs, or the program's own)."""
        if self.runner is None:
            bot_step(self.table, self.rnd)
        else:
            self._program_step()
        if self.table.load().version != self.steps[-1].version:
            self.steps.append(self._step())

    def _program_step(self) -> None:
        # As `referee play-program`: confirm what is over, play what runs, else the program's own.
        assert self.runner is not None
        state = self.table.load().state
        running = {k: self._stage(t) for k, t in self.runner.stage_tables(self.table).items()
                   if state.stage(k).status == "open"}
        over = [k for k, t in running.items() if t.result() is not None]
        if over:
            self.table.submit(DEALER, self.runner.complete(self.table, {"type": "confirm_result", "stage": over[0]}))
        elif running:
            bot_step(next(iter(running.values())), self.rnd)
        else:
            bot_step(self.table, self.rnd, prefer=lambda turn: Turn(turn.phase, tuple(
                d for d in turn.decisions if not d.move.startswith("seat_stage:"))))
        for table_id in self.runner.sync(self.table).created:
            self._stage(table_id).start(DEALER)

    def _stage(self, table_id: str) -> Table:
        if table_id not in self.stage_tables:
            self.stage_tables[table_id] = Table(self.store, table_id, self.games)
        return self.stage_tables[table_id]

    def play(self) -> Played:
        for _ in range(20000):
            if self.table.result() is not None:
                return self
            self.step()
        raise AssertionError(f"{self.game.id} did not end")

    def entries(self) -> list[dict[str, Any]]:
        return self.store.entries(self.table.id)

    def result(self) -> dict[str, Any]:
        result = self.table.result()
        assert result is not None
        return result


def offered(game: Game, step: Step, key: str) -> P.Prediction | None:
    return next((q for q in game.questions(step.view) if q.key == key), None)


def answer_at(game: Game, question: P.Prediction, step: Step) -> tuple[Any, ...] | None:
    return game.right_answer(question.key, question.param_map(), step.view)


def closing_entry(game: Game, question: P.Prediction, entries: list[dict[str, Any]], asked: int) -> dict | None:
    """The first entry after version `asked` that closes the question (as the crowd's script does)."""
    types = question.closes_on if question.closes_on is not None else game.reveals
    return next((e for e in entries if e["v"] > asked
                 and (e["event"]["type"] in types or P.RESULT in types and e.get("over"))), None)


def first_answer(played: Played, question: P.Prediction, asked_at: int) -> tuple[int, tuple[Any, ...]]:
    """Asked at step `asked_at`: the first step whose public view shows the answer, and the
    answer. Checks that the answer is not shown yet when it is asked, that an event closes it no
    later than that step, and that every later view shows the same answer."""
    game, steps = played.game, played.steps
    assert answer_at(game, question, steps[asked_at]) is None, question
    shown = next(j for j in range(asked_at, len(steps)) if answer_at(game, question, steps[j]) is not None)
    closing = closing_entry(game, question, played.entries(), steps[asked_at].version)
    assert closing is not None and closing["v"] <= steps[shown].version, (question.key, closing, steps[shown].version)
    right = answer_at(game, question, steps[shown])
    assert right and all(answer_at(game, question, s) == right for s in steps[shown:])
    assert set(right) <= {o.value for o in question.options}
    return shown, right


def event(played: Played, kind: str, **fields: Any) -> dict[str, Any]:
    return next(e for e in played.entries() if e["event"]["type"] == kind
                and all(e["event"]["data"].get(k) == v for k, v in fields.items()))


def labels(question: P.Prediction) -> list[str]:
    return [o.label.ko for o in question.options]


# -- Tricky Gallery: who takes the auction ------------------------------------------------------------


def test_gallery_asks_who_takes_each_rounds_auction_until_it_is_won():
    from referee.games.tricky_gallery.state import AUCTION, SUBMIT

    played = Played("tricky_gallery", 7).play()
    game = played.game
    for step in played.steps:
        q = offered(game, step, "auction")
        # Gallery rules 4-5: from the round's start until the dealer enters the auction's winner.
        assert (q is not None) == (step.state.step in (SUBMIT, AUCTION)), step.state.step
        if q is not None:
            assert q.param_map() == {"round": step.state.round} and q.closes_on == {"AuctionWon"}
            assert q.text.ko == f"{step.state.round}라운드 경매는 누가 가져갈까요?"
            alive = [s for s in range(9) if step.state.alive[s]]  # Gallery rule 8: the seats still in
            assert [o.value for o in q.options] == alive
            assert labels(q) == [f"{s + 1}번 {NAMES[s]}" for s in alive]
    for r in range(1, 6):
        asking = [i for i, s in enumerate(played.steps) if (q := offered(game, s, "auction")) and q.param_map()["round"] == r]
        for i in (asking[0], asking[-1]):  # the first and the last moment it could be asked
            q = offered(game, played.steps[i], "auction")
            shown, right = first_answer(played, q, i)
            won = event(played, "AuctionWon", round=r)
            assert right == (won["event"]["data"]["seat"],)
            assert played.steps[shown].version >= won["v"]  # never before the auction's result
            assert closing_entry(game, q, played.entries(), played.steps[i].version)["v"] == won["v"]
    # Every round's winner stays in the public view to the end, as the dealer's history has it.
    final = played.steps[-1]
    assert [(a["round"], a["winner"]) for a in final.view["state"]["auctions"]] == [
        (h.round, h.winner) for h in final.state.history]


def test_gallery_offers_only_the_seats_still_in():
    """A seat eliminated for fakes (Gallery rule 8) is no option in the next round's question."""
    for seed in range(1, 30):
        played = Played("tricky_gallery", seed).play()
        out = [s for s in played.steps if offered(played.game, s, "auction") and not all(s.state.alive)]
        if out:
            q = offered(played.game, out[0], "auction")
            dead = [s for s in range(9) if not out[0].state.alive[s]]
            assert dead and not {o.value for o in q.options} & set(dead) and len(q.options) == 9 - len(dead)
            return
    pytest.fail("no seed eliminated anybody")


# -- Tricky Bridge: who survives, who gets the steel -------------------------------------------------------


def test_bridge_asks_who_survives_two_right_answers_closed_by_the_final_scoring():
    played = Played("tricky_bridge", 3).play()
    game = played.game
    asked = [i for i, s in enumerate(played.steps) if offered(game, s, "survivors")]
    assert asked == list(range(len(played.steps) - 1))  # every moment until the match is over
    for i in (0, asked[-1]):
        q = offered(game, played.steps[i], "survivors")
        assert [o.value for o in q.options] == [0, 1, 2, 3] and q.closes_on == {"BridgesScored"}
        _, right = first_answer(played, q, i)
        advance = played.result()["details"]["advance"]
        assert sorted(right) == sorted(advance) and len(right) == 2  # Bridge rule 8: two advance
    # The final reveal of the bridges' contents would give it away: it comes in the very action
    # that scores, so no prediction fits between them.
    revealed, scored = event(played, "BridgesRevealed", final=True), event(played, "BridgesScored")
    assert revealed["action"] == scored["action"]


def test_bridge_asks_who_gets_the_steel_in_each_sealed_room():
    from referee.games.tricky_bridge.state import SUPPLY

    played = Played("tricky_bridge", 5).play()
    game = played.game
    seen: set[tuple[int, str]] = set()
    for i, step in enumerate(played.steps):
        for room in ("big", "small"):
            q = offered(game, step, f"steel_{room}")
            state = step.state
            live = state.step == "contract" and next((r for r in state.rooms if r.name == room), None)
            steel = SUPPLY[state.round - 1][0]
            # Bridge rules 3-4: in a round with steel, while the room's two contracts are sealed.
            assert (q is not None) == bool(live and not live.revealed and steel), (i, room)
            if q is None or (state.round, room) in seen:
                continue
            seen.add((state.round, room))
            assert [o.value for o in q.options] == [*live.seats, "same"]
            assert labels(q)[-1] == ("아무도 (버려짐)" if steel == 1 else "똑같이")
            _, right = first_answer(played, q, i)
            gains = event(played, "ContractsRevealed", round=state.round, room=room)["event"]["data"]["gains"]
            got = [g["steel"] for g in gains]
            assert right == (("same",) if got[0] == got[1] else (live.seats[got.index(max(got))],))
    assert {r for r, _ in seen} == {r + 1 for r, s in enumerate(SUPPLY) if s[0]}  # rounds 1, 3, 4, 5, 6


# -- Horror Race 2: which character comes first -------------------------------------------------------


def test_horror_race_asks_which_character_comes_first_until_the_race_moves_again():
    played = Played("horror_race", 4).play()
    game = played.game
    asked = [i for i, s in enumerate(played.steps) if offered(game, s, "first_character")]
    assert asked and asked == list(range(asked[-1] + 1))  # from the start until the race ends
    assert played.steps[asked[-1] + 1].view["state"]["finish"]  # the race is over: no more
    q = offered(game, played.steps[0], "first_character")
    assert [o.value for o in q.options] == ["vampire", "jiangshi", "gumiho", "mummy", "zombie"]
    assert labels(q) == ["뱀파이어", "강시", "구미호", "미라", "좀비"] and q.closes_on is None
    winner = next(c for c, place in played.result()["details"]["places"].items() if place == 1)
    for i in (0, asked[len(asked) // 2], asked[-1]):
        q = offered(game, played.steps[i], "first_character")
        _, right = first_answer(played, q, i)
        assert right == (winner,)
        # Horror rule 3: it closes at the next zone's movement after it was asked.
        closing = closing_entry(game, q, played.entries(), played.steps[i].version)
        assert closing["event"]["type"] == "ZoneResolved"


# -- The Crew: does the mission succeed --------------------------------------------------------------------


def test_the_crew_asks_whether_the_mission_succeeds_and_closes_at_the_next_card():
    outcomes = set()
    for seed in range(1, 40):
        played = Played("the_crew", seed, options={"mission": 1 + seed % 3}).play()
        game = played.game
        asked = [i for i, s in enumerate(played.steps) if offered(game, s, "mission")]
        assert asked == list(range(len(played.steps) - 1))  # until the mission ends
        q = offered(game, played.steps[asked[-1]], "mission")
        assert labels(q) == ["성공", "실패"]
        for i in (0, asked[-1]):
            q = offered(game, played.steps[i], "mission")
            _, right = first_answer(played, q, i)
            success = played.result()["details"]["success"]
            assert right == ("success" if success else "failure",)
            outcomes.add(success)
            # The cards of a trick fall in public: the next card played closes it.
            closing = closing_entry(game, q, played.entries(), played.steps[i].version)
            assert closing["event"]["type"] == "CardPlayed"
        if outcomes == {True, False}:
            return
    pytest.fail(f"only {outcomes} in 40 missions")


# -- Tricky Safari: the top animal, the named opponent -------------------------------------------------


def test_safari_asks_for_the_top_animal_until_round_5_is_scored_and_whom_the_winner_names():
    from referee.games.tricky_safari.state import ANIMALS

    played = Played("tricky_safari", 6).play()
    game = played.game
    details = played.result()["details"]
    top = [i for i, s in enumerate(played.steps) if offered(game, s, "top_animal")]
    assert top == [i for i, s in enumerate(played.steps) if len(s.state.history) < 5]
    best = max(details["animal_sums"].values())
    for i in (0, top[-1]):
        q = offered(game, played.steps[i], "top_animal")
        assert [o.value for o in q.options] == list(ANIMALS) and q.closes_on == {"RoundScored"}
        shown, right = first_answer(played, q, i)
        assert right == tuple(a for a in ANIMALS if details["animal_sums"][a] == best)
    # Round 5's scoring makes every round-end value public (the sums follow): it closes there.
    q = offered(game, played.steps[top[-1]], "top_animal")
    closing = closing_entry(game, q, played.entries(), played.steps[top[-1]].version)
    assert closing == event(played, "RoundScored", round=5)
    naming = [i for i, s in enumerate(played.steps) if offered(game, s, "opponent")]
    assert naming == [i for i, s in enumerate(played.steps) if s.state.final is not None and s.state.opponent is None]
    q = offered(game, played.steps[naming[0]], "opponent")
    # Safari rule 5: not the winner, not the last.
    assert sorted(o.value for o in q.options) == sorted(set(range(5)) - {details["winner"], details["last"]})
    assert q.text.ko.startswith(f"우승자 {details['winner'] + 1}번 {NAMES[details['winner']]}")
    _, right = first_answer(played, q, naming[-1])
    assert right == (details["opponent"],)


# -- the programs ----------------------------------------------------------------------------------------


def stage_opened(played: Played, key: str) -> dict[str, Any]:
    return event(played, "StageOpened", stage=key)


def test_genius_asks_who_is_eliminated_until_the_death_match_opens():
    played = Played("genius_episode", 2, seats=10, options={"guests": "9,10"}).play()
    game = played.game
    details = played.result()["details"]
    asked = [i for i, s in enumerate(played.steps) if offered(game, s, "eliminated")]
    death = stage_opened(played, "death_match")
    assert asked == [i for i, s in enumerate(played.steps) if s.version < death["v"]]
    for i in asked:
        q = offered(game, played.steps[i], "eliminated")
        named = played.steps[i].state.record("opponent") is not None
        # Episode rules 2-4: never a guest; once the opponent is named, the two of the death match.
        expected = [details["candidate"], details["opponent"]] if named else list(range(8))
        assert [o.value for o in q.options] == expected and q.closes_on == {"StageOpened" if named else "OpponentNamed"}
    for i in (asked[0], asked[-1]):
        q = offered(game, played.steps[i], "eliminated")
        _, right = first_answer(played, q, i)
        assert right == (details["eliminated"],)
        # Closed before the death match's table could show its loser.
        assert closing_entry(game, q, played.entries(), played.steps[i].version)["v"] <= death["v"]


def test_genius_with_more_than_nine_who_could_go_asks_only_once_two_are_left():
    played = Played("genius_episode", 3, seats=10).play()
    game = played.game
    for step in played.steps:
        own = [q for q in game.predictions(step.view) if q.key == "eliminated"]
        q = offered(game, step, "eliminated")
        if own and len(own[0].options) > 9:
            assert q is None  # ten who could go: not put to the hall
        else:
            assert (q is None) == (not own)
    asked = [i for i, s in enumerate(played.steps) if offered(game, s, "eliminated")]
    assert asked and all(len(offered(game, played.steps[i], "eliminated").options) == 2 for i in asked)
    assert offered(game, played.steps[0], "winner") is None  # nor the kernel's "who wins?"


def test_tricky_survival_asks_who_takes_the_golden_key_among_those_still_in():
    played = Played("tricky_survival", 4).play()
    game = played.game
    details = played.result()["details"]
    asked = [i for i, s in enumerate(played.steps) if offered(game, s, "golden_key")]
    final_opened = stage_opened(played, "coin_final")
    gallery = event(played, "ResultConfirmed", stage="gallery")
    assert asked == [i for i, s in enumerate(played.steps) if gallery["v"] <= s.version < final_opened["v"]]
    top4 = sorted(played.table.load().state.confirmed("gallery").by_rank()[:4])
    finalists = sorted(int(p) for p, held in details["keys"].items() if "2" in held)
    assert len(finalists) == 2 and set(finalists) < set(top4)
    for i in asked:
        q = offered(game, played.steps[i], "golden_key")
        assert q.text.ko == "누가 황금 열쇠를 가져갈까요?"
        two = played.steps[i].state.confirmed("bridge") is not None
        assert [o.value for o in q.options] == (finalists if two else top4)  # never all nine
    for i in (asked[0], asked[-1]):
        q = offered(game, played.steps[i], "golden_key")
        _, right = first_answer(played, q, i)
        assert right == (details["golden_key"],)
        assert closing_entry(game, q, played.entries(), played.steps[i].version)["v"] <= final_opened["v"]


# -- the contract: every game and program ---------------------------------------------------------------


def scalar(value: Any) -> bool:
    return isinstance(value, str | int | bool) or value is None


CONTRACT_RUNS = [(g, seed, None, None) for g in sorted(registry()) for seed in (1, 2, 3)] + [
    ("horror_race", 4, 4, None), ("the_crew", 4, 3, {"mission": 13}), ("the_crew", 5, 5, {"mission": 30}),
    ("genius_episode", 1, 5, {"guests": "5"}), ("genius_episode", 2, None, {"guests": "9,10"}),
    ("genius_episode", 3, 4, None), ("tricky_survival", 1, None, None), ("tricky_survival", 2, None, {"event_match": "on"}),
    ("tricky_survival", 3, None, {"event_match": "on"})]


@pytest.mark.parametrize(("game_id", "seed", "seats", "options"), CONTRACT_RUNS)
def test_every_question_is_well_formed_answered_later_and_closed_in_time(game_id, seed, seats, options):
    """At every public view of a whole playout: asking never raises; every question offered has
    a unique key, its words in Korean and English, 2-9 distinct JSON values and no answer yet;
    every answer read later never raises, is among the options and never changes once shown;
    each question is answered in the end, and closed by the log no later than its answer shows."""
    played = Played(game_id, seed, seats, options).play()
    game = played.game
    questions: dict[str, tuple[P.Prediction, int]] = {}  # as asked -> (question, last step it was offered)
    for i, step in enumerate(played.steps):
        assert step.view["audience"] == "public"
        now = game.questions(step.view)
        assert len({q.key for q in now}) == len(now)  # the console asks for one by its key
        for q in now:
            values = [o.value for o in q.options]
            assert P.MIN_OPTIONS <= len(values) <= P.MAX_OPTIONS and len(set(values)) == len(values)
            assert all(scalar(v) for v in values) and q.text.ko and q.text.en
            assert all(o.label.ko and o.label.en for o in q.options)
            assert q.closes_on is None or all(isinstance(t, str) for t in q.closes_on)
            assert answer_at(game, q, step) is None
            questions[json.dumps(q.to_json(), sort_keys=True, ensure_ascii=False)] = (q, i)
        for q, _ in questions.values():
            right = answer_at(game, q, step)
            assert right is None or (right and set(right) <= {o.value for o in q.options})
    assert any(q.key != P.WINNER for q, _ in questions.values()) or game_id in ("quattro", "reef", "clumsy_cats")
    entries = played.entries()
    for q, last in questions.values():
        answers = [answer_at(game, q, s) for s in played.steps[last:]]
        shown = next(j for j, a in enumerate(answers) if a is not None)  # answered in the end
        assert all(a in (None, answers[shown]) for a in answers[shown:])
        if q.closes_on == frozenset():
            continue  # the kernel's winner: closed by staff or by its result
        closing = closing_entry(game, q, entries, played.steps[last].version)
        assert closing is not None and closing["v"] <= played.steps[last + shown].version, q
        if game.program:
            # A stage's table shows its result before the program confirms it: the question
            # closes no later than the opening of the stage whose confirmation answers it.
            confirmed = [e for e in entries if e["event"]["type"] == "ResultConfirmed"
                         and e["v"] <= played.steps[last + shown].version][-1]
            stage = confirmed["event"]["data"]["stage"]
            opened = next(e for e in entries if e["event"]["type"] == "StageOpened"
                          and e["event"]["data"]["stage"] == stage)
            assert closing["v"] <= opened["v"], (q, stage)


def test_seat_options_names_seats_as_people_number_them():
    view = {"seats": ["가람", "나래", "다솜"]}
    assert [(o.value, o.label.ko, o.label.en) for o in P.seat_options(view)] == [
        (0, "1번 가람", "1 가람"), (1, "2번 나래", "2 나래"), (2, "3번 다솜", "3 다솜")]
    assert [o.label.ko for o in P.seat_options(view, [2, 0])] == ["3번 다솜", "1번 가람"]


# -- through the crowd on the real Redis ---------------------------------------------------------------


def test_the_auction_question_closes_in_redis_at_the_auctions_result_and_scores_its_winner(redis_server):
    """The whole path on the embedded Redis: the question as the console opens it from the
    table's public view, a prediction refused by the crowd's own script once AuctionWon is in
    the log (before any screen), the answer read from the public view."""
    from referee.server.crowd import Crowd, from_table, right_indexes, source_spec
    from referee.server.limits import Limit, Limits

    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    prefix = f"pred-{uuid.uuid4().hex[:8]}:"
    crowd = Crowd(client, b"k" * 32, prefix, Limits(crowd_device=Limit(1000, 10), crowd_address=Limit(100000, 10)))
    played = Played("tricky_gallery", 9, store=RedisStore(client, prefix))
    view = played.table.view(Audience.public())
    question = from_table(played.game, view, "auction")
    spec = source_spec(question, played.table.id, view["title"])
    qid = crowd.ask("s", spec, played.store.log_key(played.table.id), played.table.load().version, question.closes_on)
    hall = {uuid.uuid4().hex: i % 9 for i in range(18)}
    while played.table.load().state.step == "submit":
        played.step()
    for device, option in hall.items():  # the works are revealed: the auction is still to come
        crowd.predict("s", qid, device, option, "10.0.0.1")
    while played.table.load().state.winner is None:
        played.step()
    with pytest.raises(RuleError) as refused:
        crowd.predict("s", qid, uuid.uuid4().hex, 0, "10.0.0.1")
    assert refused.value.code == "crowd/closed"
    right = played.game.right_answer("auction", question.param_map(), played.table.view(Audience.public()))
    assert right == (played.table.load().state.winner,)
    scored = crowd.resolve("s", qid, right_indexes(spec, right))
    assert scored == sum(1 for option in hall.values() if option == right[0])
    assert crowd.questions("s")[-1]["counts"] == [sum(1 for o in hall.values() if o == i) for i in range(9)]


def test_who_comes_first_stays_open_through_the_auctions_and_closes_at_the_result(redis_server):
    """Issue 34's blocker: "누가 1위를 할까요?" asked at a Gallery's start closed at the round-1
    auction. It closes on its subject: the action that gives the table its result (the log marks
    it "over"), never at another reveal."""
    from referee.server.crowd import Crowd, from_table, source_spec
    from referee.server.limits import Limit, Limits

    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    prefix = f"pred-{uuid.uuid4().hex[:8]}:"
    crowd = Crowd(client, b"k" * 32, prefix, Limits(crowd_device=Limit(1000, 10), crowd_address=Limit(100000, 10)))
    played = Played("tricky_gallery", 9, store=RedisStore(client, prefix))
    view = played.table.view(Audience.public())
    question = from_table(played.game, view, P.WINNER)
    assert question.closes_on == {P.RESULT}
    spec = source_spec(question, played.table.id, view["title"])
    qid = crowd.ask("s", spec, played.store.log_key(played.table.id), played.table.load().version, question.closes_on)
    reveals = 0
    while played.table.load().outlook(played.game).result is None:
        played.step()
        reveals = sum(1 for e in played.entries() if e["event"]["type"] in played.game.reveals)
        if played.table.load().outlook(played.game).result is None:
            # Every reveal so far (works shown, auctions won, seats out): still open.
            assert not crowd.predict("s", qid, uuid.uuid4().hex, reveals % 9, "10.0.0.1")["again"]
    assert reveals > 3
    assert [e for e in played.entries() if e.get("over")], "the result's action is marked"
    with pytest.raises(RuleError) as refused:
        crowd.predict("s", qid, uuid.uuid4().hex, 0, "10.0.0.1")
    assert refused.value.code == "crowd/closed"
