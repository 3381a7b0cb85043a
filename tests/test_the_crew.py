"""The Crew (seed 003, RULINGS.md "The Crew", Crew rules 1-12 of the package docstring): rules,
errors, options, the setup steps, communication, the distress signal, the special rules, the log
in words, the views and the command line.

Cards: B blue, G green, P pink, Y yellow with the value, R rocket. Seats are 0-based in code
("seat 0" is shown as 1번). The scenario builder at the top (Plan, run) is shared with
tests/test_the_crew_missions.py: a plan lists the tricks (who plays what), the hands are derived
from it, and every setup step is driven through the game's own decisions in dealer-deal mode.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from referee.games.the_crew import GAME
from referee.games.the_crew.cards import DECK, communicable, legal_plays, winning_index
from referee.games.the_crew.checks import task_updates
from referee.games.the_crew.missions import mission as mission_info
from referee.games.the_crew.missions import missions
from referee.games.the_crew.rules import distress_resolution
from referee.games.the_crew.state import (
    CHOOSE,
    DISTRESS_VOTE,
    OVER,
    PLAY,
    QUESTION,
    SUCCESS,
    CrewState,
    Task,
    TrickRecord,
    distributing,
    drafter,
    next_answerer,
    setup_sequence,
    to_play,
)
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.kernel.bots import pick

DEALER = Actor.dealer()
NAMES4 = ("하나", "두리", "세나", "네오")
NAMES = {3: NAMES4[:3], 4: NAMES4, 5: NAMES4 + ("다섯",)}


def seat(n: int) -> Actor:
    return Actor.of_seat(n)


# -- driving an attempt ----------------------------------------------------------------------------


class Crew:
    """One attempt driven through the pure functions, with every event kept."""

    def __init__(self, mission: int = 1, seats: int = 4, deal: str = "dealer") -> None:
        options = GAME.resolve_options({"mission": mission, "deal": deal}, seats)
        self.state: CrewState = GAME.setup(NAMES[seats], options, Rng.forbidden())
        self.events: list[Event] = []
        self.auto(Rng("start"))

    def apply(self, actor: Actor, move: dict[str, Any], rng: Rng | None = None) -> list[Event]:
        events = GAME.decide(self.state, actor, move, rng or Rng(len(self.events)))
        for event in events:
            self.state = GAME.evolve(self.state, event)
        self.events += events
        return events + self.auto(Rng(len(self.events), "auto"))

    def auto(self, rng: Rng) -> list[Event]:
        out: list[Event] = []
        while (auto := GAME.turn(self.state).automatic()) is not None:
            events = GAME.decide(self.state, Actor.referee(), {"type": auto.move}, rng)
            for event in events:
                self.state = GAME.evolve(self.state, event)
            self.events += events
            out += events
        return out

    def play(self, seat_: int, card: str) -> list[Event]:
        return self.apply(seat(seat_), {"type": "play", "card": card})

    def refused(self, actor: Actor, move: dict[str, Any]) -> RuleError:
        before = self.state
        with pytest.raises(RuleError) as info:
            GAME.decide(self.state, actor, move, Rng(0))
        assert self.state == before
        return info.value

    def types(self) -> list[str]:
        return [e.type for e in self.events]


@dataclass
class Plan:
    """A mission attempt planned trick by trick: `tricks[k]` maps each seat to the card it plays
    in trick k+1. Hands are what each seat plays (plus, with 3 players, the extra seat's unplayed
    card). `tasks` are (card, owner) in the order drawn (tokens go to the first ones); the owner is
    whoever takes it in the draft or gets it from the commander."""

    mission: int
    seats: int
    tricks: list[dict[int, str]]
    tasks: list[tuple[str, int]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)  # the commander's picks of members, in order
    extra: tuple[int, str] | None = None  # 3 players: (the 14-card seat, its unplayed card)
    random_pass: dict[int, str] = field(default_factory=dict)  # mission 12: giver -> card drawn from it
    handover: tuple[int, str, int] | None = None  # 5 players: (giver, task card, taker)
    change: str = "keep"  # missions 23 and 40
    unplayed: dict[int, list[str]] = field(default_factory=dict)  # cards held but never reached

    def hands(self) -> list[list[str]]:
        hands: list[list[str]] = [[t[s] for t in self.tricks if s in t] + self.unplayed.get(s, [])
                                  for s in range(self.seats)]
        if self.extra:
            hands[self.extra[0]].append(self.extra[1])
        for giver, card in self.random_pass.items():
            # The card drawn from `giver` after trick 1 is played later by the next seat.
            taker = (giver + 1) % self.seats
            hands[taker].remove(card)
            hands[giver].append(card)
        assert sorted(c for h in hands for c in h) == sorted(DECK), "a plan must use every card once"
        return hands


def setup_plan(plan: Plan) -> Crew:
    """Deal the plan's hands and tasks (dealer deal) and take every setup step up to play."""
    crew = Crew(plan.mission, plan.seats, "dealer")
    hands = plan.hands()
    if plan.seats == 3:
        assert plan.extra is not None
        crew.apply(DEALER, {"type": "enter_extra_seat", "seat": plan.extra[0]})
    for s in range(plan.seats - 1):
        crew.apply(DEALER, {"type": "enter_hand", "cards": hands[s]})
    assert crew.state.hands[plan.seats - 1] == tuple(sorted(hands[-1], key=DECK.index))
    for card, _ in plan.tasks:
        crew.apply(DEALER, {"type": "enter_task", "task": card})
    owners = {card: owner for card, owner in plan.tasks}
    if plan.handover:
        owners[plan.handover[1]] = plan.handover[0]  # drafted by the giver, handed over later
    chosen = list(plan.chosen)
    while crew.state.phase not in (PLAY, OVER):
        state = crew.state
        commander = state.commander
        assert commander is not None
        match state.phase:
            case "tokens":
                crew.apply(seat(commander), {"type": "move_tokens", "change": plan.change})
            case "question":
                answerer = next_answerer(state)
                assert answerer is not None
                crew.apply(seat(answerer), {"type": "answer", "reply": state.info.replies[0]})
            case "choose":
                index = distributing(state)
                if index is not None:
                    target = owners[state.tasks[index].card]
                elif state.info.assignment == "decision":
                    target = plan.tasks[0][1]
                else:
                    target = chosen.pop(0)
                crew.apply(seat(commander), {"type": "choose_crew", "seat": target})
            case "draft":
                picker = drafter(state)
                assert picker is not None
                card = next(t.card for t in state.tasks if t.owner is None and owners[t.card] == picker)
                crew.apply(seat(picker), {"type": "pick_task", "task": card})
            case "handover":
                if plan.handover and state.handover is None and state.proposal is None:
                    giver, card, taker = plan.handover
                    crew.apply(seat(giver), {"type": "offer_task", "task": card, "to": taker})
                elif state.proposal is not None:
                    s = next(s for s in range(state.seats) if s != state.proposal.seat and not state.confirmed[s])
                    crew.apply(seat(s), {"type": "confirm_handover", "answer": "yes"})
                else:
                    s = next(s for s in range(state.seats) if not state.handover_passed[s])
                    crew.apply(seat(s), {"type": "pass_handover"})
            case "distress_vote":
                s = next(s for s in range(state.seats) if state.distress_owing[s])
                crew.apply(seat(s), {"type": "distress_vote", "vote": "none"})
            case other:
                raise AssertionError(f"unexpected setup phase {other}")
    return crew


def play_plan(plan: Plan, crew: Crew, tricks: int | None = None) -> Crew:
    """Play the plan's tricks (all, or the first `tricks`), each card in the engine's turn order."""
    for k in range(len(crew.state.history), len(plan.tricks[:tricks])):
        trick = plan.tricks[k]
        if crew.state.phase == OVER:
            break
        assert crew.state.trick_no == k + 1
        for _ in range(plan.seats):
            if crew.state.phase == OVER:
                break
            s = to_play(crew.state)
            assert s is not None, f"trick {k + 1}: nobody to play in {crew.state.phase}"
            crew.play(s, trick[s])
        if crew.state.phase == "random_pass":
            for giver in range(plan.seats):
                crew.apply(DEALER, {"type": "enter_drawn_card", "card": plan.random_pass[giver]})
    return crew


def run(plan: Plan, tricks: int | None = None) -> Crew:
    return play_plan(plan, setup_plan(plan), tricks)


def ended(crew: Crew) -> tuple[bool, int, str | None]:
    """(success, the trick it ended at, the failure's reason code)."""
    assert crew.state.phase == OVER, f"still running at trick {crew.state.trick_no}"
    outcome = crew.state.outcome or {}
    reason = outcome.get("reason") or {}
    return crew.state.status == SUCCESS, outcome["trick"], reason.get("code")


# -- plan layouts ---------------------------------------------------------------------------------
# Every trick of a layout is one colour (every card follows suit, so any hands are legal) or a
# trick whose off-suit players are void at that moment by construction. The winner of a colour
# group is whoever gets its top card.

COLOURS = "BGPY"


def group(colour: str, values: tuple[int, ...]) -> list[str]:
    return [f"{colour}{v}" for v in values]


def deal_group(cards: list[str], winner: int, seats: int, order: list[int] | None = None) -> dict[int, str]:
    """The top card (first) to `winner`, the others to the other seats."""
    others = [s for s in (order or range(seats)) if s != winner]
    return {winner: cards[0], **dict(zip(others, cards[1:], strict=True))}


def free_groups(seats: int) -> list[list[str]]:
    """Colour groups whose winner is free (the holder of the top card)."""
    if seats == 4:
        return [group(c, vs) for c in COLOURS for vs in ((9, 8, 7, 6), (5, 4, 3, 2))]
    if seats == 5:
        return [group(c, (9, 8, 7, 6, 5)) for c in COLOURS]
    return [group(c, vs) for c in COLOURS for vs in ((9, 8, 7), (6, 5, 4), (3, 2, 1))]


def draft_owners(m: int, seats: int, commander: int = 0) -> list[int]:
    info = mission_info(m)
    if info.assignment == "decision":
        return [(commander + 1) % seats] * info.tasks
    return [(commander + i) % seats for i in range(info.tasks)]


def bucketize(tokens: list[str], owners: list[int], size: int) -> list[list[int]]:
    """Tasks grouped into tricks, in an order the tokens allow: the numbered ones one by one, then
    the arrows in order, then the others by holder, then Ω."""
    numbered = sorted((i for i, t in enumerate(tokens) if t.isdigit()), key=lambda i: int(tokens[i]))
    arrows = sorted((i for i, t in enumerate(tokens) if t.startswith(">")), key=lambda i: len(tokens[i]))
    plain: dict[int, list[int]] = {}
    for i, t in enumerate(tokens):
        if not t:
            plain.setdefault(owners[i], []).append(i)
    buckets = [[i] for i in numbered + arrows]
    for same in plain.values():
        buckets += [same[j:j + size] for j in range(0, len(same), size)]
    return buckets + [[i] for i, t in enumerate(tokens) if t == "Ω"]


def task_plan(m: int, seats: int = 4, order: list[int] | None = None, stolen: bool = False,
              owners: list[int] | None = None) -> tuple[Plan, int]:
    """A plan for a task mission and the trick its last task is done in. `order` permutes the
    buckets; `stolen` gives the last bucket's trick to another seat; `owners` are the holders at
    play time (the draft's by default)."""
    info = mission_info(m)
    owners = owners or draft_owners(m, seats)
    tokens = [info.tokens[i] if i < len(info.tokens) else "" for i in range(info.tasks)]
    buckets = bucketize(tokens, owners, seats)
    if order is not None:
        buckets = [buckets[i] for i in order]
    winners = [owners[b[0]] for b in buckets]
    if stolen:
        winners[-1] = (winners[-1] + 1) % seats
    last = len(buckets)
    if seats == 5:
        slots, tricks, last = _five_player_slots(buckets, winners, tokens)
    else:
        groups = free_groups(seats)
        assert len(buckets) <= len(groups)
        slots = groups[:len(buckets)]
        tricks = [deal_group(g, w, seats) for g, w in zip(slots, winners, strict=False)]
        tricks += [deal_group(g, 0, seats) for g in groups[len(buckets):]] + _closing(seats)
    cards: list[str | None] = [None] * info.tasks
    for bucket, cards_of in zip(buckets, slots, strict=True):
        usable = cards_of[1:] + cards_of[:1] if cards_of[0][0] != "R" else cards_of[1:]
        for index, card in zip(bucket, usable, strict=False):
            cards[index] = card
    plan = Plan(m, seats, tricks, tasks=[(c, o) for c, o in zip(cards, owners, strict=True) if c])
    if seats == 3:
        plan.extra = (1, "R1")
    return plan, last


def _five_player_slots(buckets: list[list[int]], winners: list[int],
                       tokens: list[str]) -> tuple[list[list[str]], list[dict[int, str]], int]:
    """5 players: four colour groups 9-5 with a free winner, then each colour's 4-1 with a rocket,
    won by the rocket's holder (void in that colour by then). The holder of a rocket must never
    lead it (everyone would have to follow with their rockets), so two of these tricks in a row
    have different winners; rocket 4 goes to seat 0, the commander."""
    import itertools

    head = min(4, len(buckets))
    p_winners = winners[:head] + [0] * (4 - head)
    tail = list(range(head, len(buckets)))
    entries: list[int | None] = tail + [None] * (4 - len(tail))
    for perm in dict.fromkeys(itertools.permutations(entries)):
        placed = [i for i in perm if i is not None]
        if placed != tail and order_violation([[tokens[t] for t in buckets[i]] for i in list(range(head)) + placed]):
            continue
        fillers = [i for i, e in enumerate(perm) if e is None]
        for fill in itertools.product(range(5), repeat=len(fillers)):
            m_winners = [winners[e] if e is not None else fill[fillers.index(i)] for i, e in enumerate(perm)]
            chain = [p_winners[-1]] + m_winners
            if any(a == b for a, b in zip(chain, chain[1:], strict=False)) or 0 not in m_winners:
                continue
            rockets = {m_winners.index(0): "R4"}
            others = iter(("R1", "R2", "R3"))
            for i in range(4):
                if i not in rockets:
                    rockets[i] = next(others)
            slots = [group(c, (9, 8, 7, 6, 5)) for c in COLOURS]
            slots += [[rockets[i]] + group(c, (4, 3, 2, 1)) for i, c in enumerate(COLOURS)]
            tricks = [deal_group(g, w, 5) for g, w in zip(slots, p_winners + m_winners, strict=True)]
            order = list(range(head)) + [4 + perm.index(i) for i in tail]
            return [slots[j] for j in order], tricks, max(order) + 1
    raise AssertionError("no 5-player layout for these buckets")


def _closing(seats: int) -> list[dict[int, str]]:
    """The tricks after the colour groups; seat 0 holds rocket 4 (the commander)."""
    if seats == 4:
        # Rockets (all follow; rocket 4 wins), then the 1s led by seat 0: everyone else is void.
        return [{0: "R4", 1: "R1", 2: "R2", 3: "R3"}, {0: "B1", 1: "G1", 2: "P1", 3: "Y1"}]
    # 3 players: three rockets; seat 1 keeps rocket 1 unplayed (the 3-player extra card).
    return [{0: "R4", 1: "R2", 2: "R3"}]


def order_violation(buckets_tokens: list[list[str]]) -> int | None:
    """The first trick (from 1) at which the RULINGS' token order is broken, worked pairwise and
    independently of the engine: a task x done while a task y is still open breaks it if y is
    numbered n and x is not one of 1..n-1, if both are arrows and x has more, or if x is Ω."""
    done: list[str] = []
    every = [t for b in buckets_tokens for t in b]
    for k, now in enumerate(buckets_tokens):
        after = done + now
        still_open = list(every)
        for t in after:
            still_open.remove(t)
        for x in now:
            for y in still_open:
                if y.isdigit() and not (x.isdigit() and int(x) < int(y)):
                    return k + 1
                if x.startswith(">") and y.startswith(">") and len(x) > len(y):
                    return k + 1
                if x == "Ω":
                    return k + 1
        done = after
    return None


# -- cards, tricks, tasks (pure) ---------------------------------------------------------------------


def test_deck_and_labels():
    assert len(DECK) == 40 and DECK[-1] == "R4"
    assert GAME.id == "the_crew" and GAME.seats == (3, 5)


def test_follow_suit_and_rockets_are_a_suit():
    # Crew rule 3: blue led, a blue in hand must be played; rockets are their own suit.
    hand = ("B2", "B7", "G9", "R1")
    assert legal_plays(hand, ["B5"]) == ("B2", "B7")
    assert legal_plays(hand, ["Y3"]) == hand  # void in yellow: anything
    assert legal_plays(hand, ["R3"]) == ("R1",)
    assert legal_plays(hand, []) == hand


def test_trick_winner():
    # Crew rule 3: the highest of the led suit, unless a rocket was played (highest rocket).
    assert winning_index(["B5", "B9", "G9", "B1"]) == 1
    assert winning_index(["B5", "B9", "R1", "B1"]) == 2
    assert winning_index(["R2", "B9", "R1", "R3"]) == 3
    assert winning_index(["Y1", "B9", "G9", "P9"]) == 0  # only the led suit counts


def test_communicable_cards_and_positions():
    # Seed: with blue 1, 2, 5, 7 only 1 (bottom) and 7 (top) may be shown; an only card shows
    # middle; rockets never; a dead zone hides the position.
    hand = ("B1", "B2", "B5", "B7", "G4", "R3")
    assert communicable(hand, False) == {"B1": "bottom", "B7": "top", "G4": "middle"}
    assert communicable(hand, True) == {"B1": "hidden", "B7": "hidden", "G4": "hidden"}
    assert communicable(("R1", "R2"), False) == {}


def _tasks(*specs: tuple[str, str, int]) -> tuple[Task, ...]:
    return tuple(Task(card, token, owner) for card, token, owner in specs)


def _record(plays: list[tuple[int, str]], winner: int) -> TrickRecord:
    return TrickRecord(1, plays[0][0], tuple(plays), winner, plays[0][1])


def test_task_done_or_won_by_another():
    # Crew rule 4: the holder wins the trick with the task card: done; anyone else: failed.
    tasks = _tasks(("B3", "", 0), ("G5", "", 1))
    done, failed = task_updates(tasks, _record([(0, "B9"), (1, "B3"), (2, "B1"), (3, "G5")], 0))
    assert done == [0] and failed == [(1, "won_by_other")]


@pytest.mark.parametrize("first, second, broken", [
    # Crew rule 5, worked by hand: task 2 done while task 1 is open breaks task 1.
    ("2", "1", True),
    ("1", "2", False),
    # An unnumbered task done while task 1 is open breaks task 1.
    ("", "1", True),
    # Arrows order only arrows: >> before > breaks >; > before >> is fine.
    (">>", ">", True),
    (">", ">>", False),
    # Ω done while another task is open breaks that task.
    ("Ω", "", True),
    ("", "Ω", False),
])
def test_token_order(first, second, broken):
    tasks = _tasks(("B3", first, 0), ("G5", second, 0))
    done, failed = task_updates(tasks, _record([(0, "B9"), (1, "B3"), (2, "B1"), (3, "B2")], 0))
    assert done == [0]
    assert failed == ([(1, "order")] if broken else [])


def test_tasks_in_the_same_trick_are_simultaneous():
    # Crew rule 5: 1 and 2, > and >>, Ω and another, done in one trick: nothing breaks.
    for a, b in (("2", "1"), (">>", ">"), ("Ω", "")):
        tasks = _tasks(("B3", a, 0), ("B5", b, 0))
        done, failed = task_updates(tasks, _record([(0, "B9"), (1, "B3"), (2, "B5"), (3, "B2")], 0))
        assert sorted(done) == [0, 1] and failed == []


def test_arrows_do_not_order_other_tasks():
    # RULINGS: arrows order only the arrow tasks; a plain task may come before >.
    tasks = _tasks(("B3", "", 0), ("G5", ">", 0), ("Y5", ">>", 0))
    done, failed = task_updates(tasks, _record([(0, "B9"), (1, "B3"), (2, "B1"), (3, "B2")], 0))
    assert done == [0] and failed == []


def test_numbered_before_arrows():
    # RULINGS: task 1 must be done before every task not numbered (arrows included).
    tasks = _tasks(("B3", ">", 0), ("G5", "1", 0))
    done, failed = task_updates(tasks, _record([(0, "B9"), (1, "B3"), (2, "B1"), (3, "B2")], 0))
    assert done == [0] and failed == [(1, "order")]


def test_distress_vote_resolution():
    # Crew rule 7 (BGA): settled when all votes but "any" agree; all "any": not used.
    assert distress_resolution(("left", "left", "any", "left")) == "left"
    assert distress_resolution(("any",) * 4) == "none"
    assert distress_resolution(("none", "none", "none", "any")) == "none"
    assert distress_resolution(("left", "right", "left", "left")) is None
    assert distress_resolution(("left", None, "left", "left")) is None


def test_every_mission_is_loaded():
    all_ = missions()
    assert len(all_) == 50
    assert all_[23].tokens == ("1", "2", "3", "4", "5") and all_[48].tokens == ("Ω",)
    assert all_[20].hidden_tasks and all_[24].assignment == "distribution" and all_[6].dead_zone
    assert all_[19].disruption == 3 and all_[25].handover and not all_[24].handover
    assert all_[50].replies == ("first4", "middle", "last")


# -- the deal and setup -----------------------------------------------------------------------------


def test_referee_deal_4_players():
    # Crew rule 1: 10 cards each, all 40 dealt, the holder of rocket 4 commands.
    crew = Crew(1, 4, "referee")
    state = crew.state
    assert [len(h) for h in state.hands] == [10] * 4
    assert sorted(c for h in state.hands for c in h) == sorted(DECK)
    assert "R4" in state.hands[state.commander]
    assert len(state.tasks) == 1 and state.phase == "draft"
    assert crew.types()[:4] == ["HandDealt"] * 4 and "CommanderFound" in crew.types()


def test_referee_deal_3_players_gives_one_seat_14():
    # Crew rule 1 (RULINGS): with 3 players a random seat gets 14 cards; 13 tricks.
    sizes = set()
    for salt in range(6):
        state = GAME.setup(NAMES[3], GAME.resolve_options({"mission": 1}, 3), Rng.forbidden())
        events = GAME.decide(state, Actor.referee(), {"type": "deal"}, Rng(salt))
        for e in events:
            state = GAME.evolve(state, e)
        counts = [len(h) for h in state.hands]
        assert sorted(counts) == [13, 13, 14]
        assert counts[state.extra_seat] == 14
        sizes.add(state.extra_seat)
    assert len(sizes) > 1  # the seat is drawn, not fixed


def test_dealer_deal_3_players_asks_for_the_14_card_seat_first():
    crew = Crew(1, 3, "dealer")
    (decision,) = GAME.turn(crew.state).decisions
    assert decision.move == "enter_extra_seat" and decision.fields[0].kind == "seat"
    crew.apply(DEALER, {"type": "enter_extra_seat", "seat": 2})
    (decision,) = GAME.turn(crew.state).decisions
    assert decision.move == "enter_hand" and decision.fields[0].k == 13 and decision.fields[0].kind == "card"


def test_dealer_deal_fills_the_last_hand_and_checks_duplicates():
    crew = Crew(1, 4, "dealer")
    hands = [list(DECK[i * 10:(i + 1) * 10]) for i in range(4)]
    crew.apply(DEALER, {"type": "enter_hand", "cards": hands[0]})
    err = crew.refused(DEALER, {"type": "enter_hand", "cards": hands[0][:1] + hands[1][1:]})
    assert err.code == "crew/card_dealt" and "B1" in err.en
    crew.apply(DEALER, {"type": "enter_hand", "cards": hands[1]})
    crew.apply(DEALER, {"type": "enter_hand", "cards": hands[2]})
    # The last seat holds the rest, by itself; rocket 4 is there, so seat 3 commands.
    assert crew.state.hands[3] == tuple(hands[3]) and crew.state.commander == 3
    (decision,) = GAME.turn(crew.state).decisions
    assert decision.move == "enter_task" and len(decision.fields[0].options) == 36
    assert crew.refused(DEALER, {"type": "enter_task", "task": "R2"}).code == "crew/task_drawn"
    crew.apply(DEALER, {"type": "enter_task", "task": "G7"})
    assert crew.state.phase == "draft" and crew.state.tasks[0].card == "G7"


def test_draft_commander_first_then_clockwise():
    # Crew rule 2: the commander picks first, then clockwise, one task at a time.
    plan, _ = task_plan(4, 4)  # 3 tasks
    crew = Crew(4, 4, "dealer")
    for hand in plan.hands()[:3]:
        crew.apply(DEALER, {"type": "enter_hand", "cards": hand})
    for card, _ in plan.tasks:
        crew.apply(DEALER, {"type": "enter_task", "task": card})
    assert crew.state.commander == 0
    order = []
    while crew.state.phase == "draft":
        picker = drafter(crew.state)
        (decision,) = GAME.turn(crew.state).decisions
        assert decision.seat == picker and decision.fields[0].kind == "card"
        order.append(picker)
        crew.apply(seat(picker), {"type": "pick_task", "task": decision.fields[0].options[-1].value})
    assert order == [0, 1, 2]
    assert crew.state.phase == DISTRESS_VOTE


def test_draft_errors():
    crew = Crew(4, 4, "referee")
    picker = drafter(crew.state)
    other = (picker + 1) % 4
    assert crew.refused(seat(other), {"type": "pick_task", "task": crew.state.tasks[0].card}).code == "move/not_owed"
    assert crew.refused(seat(picker), {"type": "pick_task", "task": "X9"}).code == "crew/bad_card"
    assert crew.refused(seat(picker), {"type": "pick_task", "task": "R4"}).code == "crew/no_such_task"
    free = [t.card for t in crew.state.tasks]
    missing = next(c for c in DECK[:36] if c not in free)
    assert crew.refused(seat(picker), {"type": "pick_task", "task": missing}).code == "crew/no_such_task"
    crew.apply(seat(picker), {"type": "pick_task", "task": free[0]})
    err = crew.refused(seat(other), {"type": "pick_task", "task": free[0]})
    assert err.code == "crew/task_taken"


def test_options_mission_and_deal():
    assert GAME.resolve_options({}, 4) == {"mission": 1, "deal": "referee"}
    assert GAME.resolve_options({"mission": "23"}, 4)["mission"] == "23"  # the command line passes text
    state = GAME.setup(NAMES[4], GAME.resolve_options({"mission": "23"}, 4), Rng.forbidden())
    assert state.mission == 23
    for bad in (0, 51, "x", True, None):
        with pytest.raises(RuleError) as info:
            GAME.resolve_options({"mission": bad}, 4)
        assert info.value.code == "table/bad_option"
    with pytest.raises(RuleError):
        GAME.resolve_options({"deal": "magic"}, 4)


def test_setup_draws_no_randomness():
    for m in (1, 12, 50):
        GAME.setup(NAMES[5], GAME.resolve_options({"mission": m}), Rng.forbidden())


# -- play -----------------------------------------------------------------------------------------


def test_must_follow_suit_and_turn_order():
    plan, _ = task_plan(1, 4)
    crew = setup_plan(plan)
    assert to_play(crew.state) == 0  # Crew rule 3: the commander leads trick 1
    crew.play(0, plan.tricks[0][0])  # B9 led
    led = plan.tricks[0][0]
    blue = [c for c in crew.state.hands[1] if c[0] == led[0]]
    other = next(c for c in crew.state.hands[1] if c[0] != led[0])
    (decision,) = [d for d in GAME.turn(crew.state).decisions if d.move == "play"]
    assert decision.seat == 1 and {o.value for o in decision.fields[0].options} == set(blue)
    err = crew.refused(seat(1), {"type": "play", "card": other})
    assert err.code == "crew/must_follow" and other in err.en
    assert crew.refused(seat(1), {"type": "play", "card": "Y9" if "Y9" not in crew.state.hands[1] else "Y8"}).code \
        == "crew/not_in_hand"
    assert crew.refused(seat(2), {"type": "play", "card": crew.state.hands[2][0]}).code == "move/not_owed"


def test_winner_leads_the_next_trick():
    plan, _ = task_plan(10, 4)  # 4 tasks, 4 tricks: winners 0, 1, 2, 3
    crew = run(plan, tricks=2)
    assert crew.state.history[0].winner == 0 and crew.state.history[1].winner == 1
    assert crew.state.leader == 1 and to_play(crew.state) == 1


def test_mission_succeeds_when_the_last_task_is_done():
    plan, last = task_plan(10, 4)
    crew = run(plan)
    assert ended(crew) == (True, last, None)
    result = GAME.result(crew.state)
    assert [s.rank for s in result.standings] == [1, 1, 1, 1]
    assert result.details == {"mission": 10, "success": True, "failed_at_trick": None,
                              "reason": {"code": "success", "ko": "모든 조건을 채웠습니다.", "en": "Every condition was met."},
                              "distress_used": False, "tricks_played": last}
    assert "성공" in result.decided_by.ko


def test_failure_result_says_failure_and_where():
    plan, last = task_plan(10, 4, stolen=True)
    crew = run(plan)
    assert ended(crew) == (False, last, "task_won_by_other")
    result = GAME.result(crew.state)
    # A cooperative table: every seat ranks 1 on failure too; decided_by says it failed.
    assert [s.rank for s in result.standings] == [1, 1, 1, 1] and [s.score for s in result.standings] == [0] * 4
    assert "실패" in result.decided_by.ko and f"{last}" in result.decided_by.en
    assert result.details["failed_at_trick"] == last and result.details["success"] is False
    assert result.details["reason"]["code"] == "task_won_by_other"
    assert GAME.turn(crew.state).decisions == ()


def test_last_trick_with_tasks_open_fails_3_players():
    # Crew rule 8: with 3 players the extra seat keeps one card; a task on it can never be done.
    plan, _ = task_plan(1, 3)
    # Seat 1 (14 cards) keeps yellow 1 instead of rocket 1; rocket 1 trumps the last yellow group
    # for seat 2, void in yellow by then.
    yellow = next(t for t in plan.tricks if "Y1" in t.values())
    holder = next(s for s, c in yellow.items() if c == "Y1")
    assert holder != 1
    yellow[holder] = "R1"
    plan.extra = (1, "Y1")
    plan.tasks = [("Y1", 0)]
    crew = run(plan)
    assert ended(crew) == (False, 13, "tasks_open")
    assert crew.state.hands[1] == ("Y1",) and len(crew.state.history) == 13
    assert GAME.result(crew.state).details["tricks_played"] == 13


# -- communication ----------------------------------------------------------------------------------


def _communication_table(m: int = 1) -> tuple[Plan, Crew]:
    plan, _ = task_plan(m, 4) if mission_info(m).tasks else (Plan(m, 4, []), 0)
    return plan, setup_plan(plan)


def test_communication_before_the_first_card_only():
    plan, crew = _communication_table(10)
    state = crew.state
    moves = {(d.seat, d.move) for d in GAME.turn(state).decisions}
    assert (0, "play") in moves and all((s, "communicate") in moves for s in range(4))
    assert all((s, "skip_communication") in moves for s in range(4))
    hand = state.hands[2]
    options = {c: p for c, p in communicable(hand, False).items()}
    decision = next(d for d in GAME.turn(state).decisions if d.move == "communicate" and d.seat == 2)
    assert {o.value for o in decision.fields[0].options} == set(options) and decision.fields[0].kind == "card"
    card = next(iter(options))
    crew.apply(seat(2), {"type": "communicate", "card": card})
    shown = crew.state.comm[2]
    assert shown.card == card and shown.position == options[card] and shown.trick == 1
    # Once per mission.
    assert not any(d.seat == 2 and d.move == "communicate" for d in GAME.turn(crew.state).decisions)
    # The window closes with the first card of the trick.
    crew.play(0, plan.tricks[0][0])
    assert {d.move for d in GAME.turn(crew.state).decisions} == {"play"}


def test_communication_errors():
    plan, crew = _communication_table(10)
    hand = crew.state.hands[1]
    bad = next(c for c in hand if c not in communicable(hand, False))
    err = crew.refused(seat(1), {"type": "communicate", "card": bad})
    assert err.code == "crew/not_communicable" and bad[1] in err.en
    rocket = next((c for c in hand if c[0] == "R"), None)
    if rocket:
        assert crew.refused(seat(1), {"type": "communicate", "card": rocket}).code == "crew/not_communicable"
    assert crew.refused(seat(1), {"type": "communicate", "card": "XX"}).code in ("crew/bad_card",)


def test_skip_closes_the_window_for_that_seat_until_the_next_trick():
    plan, crew = _communication_table(10)
    crew.apply(seat(3), {"type": "skip_communication"})
    assert not any(d.seat == 3 and d.move != "play" for d in GAME.turn(crew.state).decisions)
    for _ in range(4):
        crew.play(to_play(crew.state), plan.tricks[0][to_play(crew.state)])
        if crew.state.phase == OVER:
            break
    assert any(d.seat == 3 and d.move == "communicate" for d in GAME.turn(crew.state).decisions)


def test_dead_zone_hides_the_position_but_not_from_the_holder():
    plan, crew = _communication_table(6)  # mission 6: dead zone
    hand = crew.state.hands[1]
    card, _ = next(iter(communicable(hand, True).items()))
    events = crew.apply(seat(1), {"type": "communicate", "card": card})
    (event,) = [e for e in events if e.type == "Communicated"]
    assert event.data["position"] == "hidden" and event.to == (1,)
    actual = event.private["actual"]
    assert actual == communicable(hand, False)[card]
    public = GAME.view(crew.state, Audience.public())["seats"][1]["comm"]
    assert public["position"] == "hidden" and "actual" not in public
    assert GAME.view(crew.state, Audience.of_seat(1))["seats"][1]["comm"]["actual"] == actual
    assert "actual" not in GAME.view(crew.state, Audience.of_seat(2))["seats"][1]["comm"]


@pytest.mark.parametrize("m, first", [(18, 2), (19, 3), (28, 3)])
def test_disruption_forbids_communication_until_its_trick(m, first):
    plan, _ = task_plan(m, 4)
    crew = setup_plan(plan)
    for k in range(1, first + 1):
        comms = [d for d in GAME.turn(crew.state).decisions if d.move == "communicate"]
        assert bool(comms) == (k >= first), f"trick {k}"
        if k == first or crew.state.phase == OVER:
            break
        for _ in range(4):
            s = to_play(crew.state)
            crew.play(s, plan.tricks[k - 1][s])
        assert crew.state.phase == PLAY, "the plan must not end before the disruption is over"


def test_communicated_card_is_played_and_marked():
    plan, crew = _communication_table(10)
    card = plan.tricks[0][0]  # the commander leads its top blue: its highest blue
    assert communicable(crew.state.hands[0], False)[card] == "top"
    crew.apply(seat(0), {"type": "communicate", "card": card})
    crew.play(0, card)
    assert crew.state.comm[0].played and crew.state.comm_used[0]


# -- distress signal ----------------------------------------------------------------------------------


def _at_distress(m: int = 10) -> tuple[Plan, Crew]:
    plan, _ = task_plan(m, 4)
    crew = Crew(m, 4, "dealer")
    for hand in plan.hands()[:3]:
        crew.apply(DEALER, {"type": "enter_hand", "cards": hand})
    for card, _ in plan.tasks:
        crew.apply(DEALER, {"type": "enter_task", "task": card})
    owners = dict(plan.tasks)
    while crew.state.phase == "draft":
        picker = drafter(crew.state)
        card = next(t.card for t in crew.state.tasks if t.owner is None and owners[t.card] == picker)
        crew.apply(seat(picker), {"type": "pick_task", "task": card})
    assert crew.state.phase == DISTRESS_VOTE
    return plan, crew


def test_distress_vote_bga_style_and_pass_to_the_left():
    plan, crew = _at_distress()
    assert {d.seat for d in GAME.turn(crew.state).decisions} == {0, 1, 2, 3}
    crew.apply(seat(0), {"type": "distress_vote", "vote": "left"})
    crew.apply(seat(1), {"type": "distress_vote", "vote": "right"})
    # Seat 1 voted otherwise: seat 0 owes a vote again; seats 2 and 3 have not voted yet.
    assert crew.state.distress_owing == (True, False, True, True)
    crew.apply(seat(0), {"type": "distress_vote", "vote": "right"})
    crew.apply(seat(2), {"type": "distress_vote", "vote": "any"})
    assert crew.state.phase == DISTRESS_VOTE
    crew.apply(seat(3), {"type": "distress_vote", "vote": "right"})
    assert crew.state.distress == "right" and crew.state.phase == "distress_pass"
    turn = GAME.turn(crew.state)
    assert turn.sealed == (0, 4)
    # Crew rule 7: no rockets.
    rocket = next(c for c in crew.state.hands[0] if c[0] == "R")
    assert crew.refused(seat(0), {"type": "distress_card", "card": rocket}).code == "crew/rocket_pass"
    before = [list(h) for h in crew.state.hands]
    given = {}
    for s in range(4):
        card = next(c for c in crew.state.hands[s] if c[0] != "R")
        given[s] = card
        events = crew.apply(seat(s), {"type": "distress_card", "card": card})
        assert events[0].type == "DistressCardChosen" and events[0].to == (s,) and "card" not in events[0].data
    # Every card went one seat to the right (counter-clockwise), all at once.
    for s in range(4):
        to = (s - 1) % 4
        assert given[s] not in crew.state.hands[s] and given[s] in crew.state.hands[to]
        assert len(crew.state.hands[s]) == len(before[s])
    assert crew.state.phase == PLAY and crew.state.distress == "right"
    passed = [e for e in crew.events if e.type == "DistressCardPassed"]
    assert [(e.data["from"], e.data["to"]) for e in passed] == [(0, 3), (1, 0), (2, 1), (3, 2)]
    assert all(e.to == tuple(sorted((e.data["from"], e.data["to"]))) for e in passed)


def test_distress_all_either_way_is_not_used():
    plan, crew = _at_distress()
    for s in range(4):
        crew.apply(seat(s), {"type": "distress_vote", "vote": "any"})
    assert crew.state.distress == "none" and crew.state.phase == PLAY
    assert crew.refused(seat(0), {"type": "distress_vote", "vote": "left"}).code == "move/not_owed"


def test_distress_bad_vote():
    plan, crew = _at_distress()
    assert crew.refused(seat(0), {"type": "distress_vote", "vote": "up"}).code == "crew/bad_vote"


def test_distress_used_goes_into_the_result():
    plan, crew = _at_distress(1)
    for s in range(4):
        crew.apply(seat(s), {"type": "distress_vote", "vote": "left"})
    for s in range(4):
        # Pass a card of the same value class along: seat s passes its lowest non-rocket.
        card = next(c for c in crew.state.hands[s] if c[0] != "R")
        crew.apply(seat(s), {"type": "distress_card", "card": card})
    # Play on with random legal cards to the end.
    rnd = random.Random(4)
    while GAME.result(crew.state) is None:
        actor, move = pick(GAME.turn(crew.state), rnd)
        if move["type"] in ("communicate", "skip_communication"):
            continue
        crew.apply(actor, move)
    assert GAME.result(crew.state).details["distress_used"] is True


# -- the commander's question, decision and distribution -----------------------------------------------


def test_question_answered_clockwise_then_commander_chooses():
    # Mission 5: the others answer from the commander's left; the commander names the sick one.
    crew = Crew(5, 4, "referee")
    c = crew.state.commander
    assert crew.state.phase == QUESTION
    order = []
    while crew.state.phase == QUESTION:
        s = next_answerer(crew.state)
        (decision,) = GAME.turn(crew.state).decisions
        assert decision.seat == s and {o.value for o in decision.fields[0].options} == {"good", "bad"}
        assert crew.refused(seat(s), {"type": "answer", "reply": "yes"}).code == "crew/bad_reply"
        order.append(s)
        crew.apply(seat(s), {"type": "answer", "reply": "bad"})
    assert order == [(c + 1) % 4, (c + 2) % 4, (c + 3) % 4]
    (decision,) = GAME.turn(crew.state).decisions
    assert decision.seat == c and decision.fields[0].kind == "seat"
    assert c not in {o.value for o in decision.fields[0].options}
    # Never the commander (RULINGS).
    assert crew.refused(seat(c), {"type": "choose_crew", "seat": c}).code == "crew/not_eligible"
    assert crew.refused(seat(c), {"type": "choose_crew", "seat": 9}).code == "crew/bad_seat"
    crew.apply(seat(c), {"type": "choose_crew", "seat": (c + 2) % 4})
    assert crew.state.special == (c + 2) % 4 and crew.state.phase == DISTRESS_VOTE


def test_commander_decision_tasks_face_down_until_given():
    crew = Crew(20, 4, "referee")
    public = GAME.view(crew.state, Audience.public())
    assert [t["card"] for t in public["tasks"]] == [None, None]
    assert all(t["card"] for t in GAME.view(crew.state, Audience.dealer())["tasks"])
    drawn = [e for e in crew.events if e.type == "TaskDrawn"]
    assert all(e.private and e.to == () and "card" not in e.data for e in drawn)
    c = crew.state.commander
    while crew.state.phase == QUESTION:
        crew.apply(seat(next_answerer(crew.state)), {"type": "answer", "reply": "yes"})
    target = (c + 1) % 4
    crew.apply(seat(c), {"type": "choose_crew", "seat": target})
    assert all(t.owner == target and t.revealed for t in crew.state.tasks)
    assert all(t["card"] for t in GAME.view(crew.state, Audience.public())["tasks"])


def test_commander_distribution_one_task_at_a_time_evenly():
    crew = Crew(24, 4, "referee")  # 6 tasks over 4 members: 2, 2, 1, 1 at most
    c = crew.state.commander
    counts = [0] * 4
    for step in range(6):
        index = distributing(crew.state)
        assert index == step
        public = GAME.view(crew.state, Audience.public())["tasks"]
        assert [t["card"] is not None for t in public] == [i <= step for i in range(6)]
        while crew.state.phase == QUESTION:
            crew.apply(seat(next_answerer(crew.state)), {"type": "answer", "reply": "no"})
        assert crew.state.phase == CHOOSE
        (decision,) = GAME.turn(crew.state).decisions
        allowed = {o.value for o in decision.fields[0].options}
        # Always to the commander while allowed (himself included), to test the evenness.
        target = c if c in allowed else min(allowed)
        if counts[c] >= 2:
            assert c not in allowed
            assert crew.refused(seat(c), {"type": "choose_crew", "seat": c}).code == "crew/not_eligible"
        crew.apply(seat(c), {"type": "choose_crew", "seat": target})
        counts[target] += 1
    assert max(counts) - min(counts) <= 1 and counts[c] == 2
    assert crew.state.phase == DISTRESS_VOTE


def test_mission_11_muted_member_cannot_communicate():
    plan, _ = task_plan(11, 4)
    plan.chosen = [2]
    crew = setup_plan(plan)
    assert crew.state.muted == 2 and crew.state.comm_used[2]
    assert not any(d.seat == 2 and d.move in ("communicate", "skip_communication") for d in GAME.turn(crew.state).decisions)
    card = next(iter(communicable(crew.state.hands[2], False)))
    assert crew.refused(seat(2), {"type": "communicate", "card": card}).code == "move/not_owed"
    assert GAME.view(crew.state, Audience.public())["seats"][2]["muted"] is True


def test_mission_11_commander_never_muted():
    crew = Crew(11, 4, "referee")
    assert crew.state.phase == CHOOSE
    c = crew.state.commander
    (decision,) = GAME.turn(crew.state).decisions
    assert c not in {o.value for o in decision.fields[0].options}


def test_mission_50_roles_may_include_the_commander_but_not_twice():
    crew = Crew(50, 4, "referee")
    c = crew.state.commander
    while crew.state.phase == QUESTION:
        s = next_answerer(crew.state)
        assert {o.value for o in GAME.turn(crew.state).decisions[0].fields[0].options} == {"first4", "middle", "last"}
        crew.apply(seat(s), {"type": "answer", "reply": "middle"})
    (decision,) = GAME.turn(crew.state).decisions
    assert {o.value for o in decision.fields[0].options} == {0, 1, 2, 3}
    crew.apply(seat(c), {"type": "choose_crew", "seat": c})
    (decision,) = GAME.turn(crew.state).decisions
    assert c not in {o.value for o in decision.fields[0].options}
    assert crew.refused(seat(c), {"type": "choose_crew", "seat": c}).code == "crew/not_eligible"
    crew.apply(seat(c), {"type": "choose_crew", "seat": (c + 1) % 4})
    assert (crew.state.special, crew.state.special2) == (c, (c + 1) % 4)


def test_mission_46_announces_the_pink_nine():
    crew = Crew(46, 4, "referee")
    holder = next(s for s, h in enumerate(crew.state.hands) if "P9" in h)
    (event,) = [e for e in crew.events if e.type == "PinkNineAnnounced"]
    assert event.data == {"holder": holder, "keeper": (holder + 1) % 4}
    assert crew.state.special == (holder + 1) % 4 and crew.state.phase == DISTRESS_VOTE


# -- tokens of missions 23 and 40 ---------------------------------------------------------------------


def test_mission_23_swaps_two_tokens():
    crew = Crew(23, 4, "referee")
    c = crew.state.commander
    (decision,) = GAME.turn(crew.state).decisions
    values = {o.value for o in decision.fields[0].options}
    assert "keep" in values and "swap:0:4" in values and len(values) == 11
    assert crew.refused(seat(c), {"type": "move_tokens", "change": "move:0:1"}).code == "crew/bad_token_move"
    assert crew.refused(seat(c), {"type": "move_tokens", "change": "swap:0:0"}).code == "crew/bad_token_move"
    crew.apply(seat(c), {"type": "move_tokens", "change": "swap:0:4"})
    assert [t.token for t in crew.state.tasks] == ["5", "2", "3", "4", "1"]
    assert crew.state.phase == "draft"


def test_mission_40_moves_a_token_onto_a_task_without_one():
    crew = Crew(40, 4, "referee")
    c = crew.state.commander
    (decision,) = GAME.turn(crew.state).decisions
    values = {o.value for o in decision.fields[0].options}
    assert values == {"keep"} | {f"move:{i}:{j}" for i in range(3) for j in range(3, 8)}
    assert crew.refused(seat(c), {"type": "move_tokens", "change": "move:0:1"}).code == "crew/bad_token_move"
    assert crew.refused(seat(c), {"type": "move_tokens", "change": "swap:0:1"}).code == "crew/bad_token_move"
    crew.apply(seat(c), {"type": "move_tokens", "change": "move:1:6"})
    assert [t.token for t in crew.state.tasks] == ["1", "", "3", "", "", "", "2", ""]


# -- mission 12's random card ----------------------------------------------------------------------------


def test_mission_12_random_pass_after_trick_1_referee():
    crew = Crew(12, 4, "referee")
    while crew.state.phase != PLAY:
        actor, move = pick(GAME.turn(crew.state), random.Random(1))
        if move["type"] == "distress_vote":
            move["vote"] = "none"
        crew.apply(actor, move)
    # Seat 1 shows a card: it lies face up and cannot be drawn.
    shown = next(iter(communicable(crew.state.hands[1], False)))
    crew.apply(seat(1), {"type": "communicate", "card": shown})
    for _ in range(4):
        s = to_play(crew.state)
        cards = [c for c in GAME.turn(crew.state).decisions if c.move == "play"][0].fields[0].options
        choice = next((o.value for o in cards if not (s == 1 and o.value == shown)), cards[0].value)
        crew.play(s, choice)
        if crew.state.phase == OVER:
            pytest.skip("the first trick ended the attempt")
    drawn = [e for e in crew.events if e.type == "CardDrawn"]
    assert len(drawn) == 4 and [e.data for e in drawn] == [{"from": g, "to": (g + 1) % 4} for g in range(4)]
    assert all(e.to == tuple(sorted({e.data["from"], e.data["to"]})) for e in drawn)
    assert drawn[1].private["card"] != shown or crew.state.comm[1].played
    moved = {e.data["from"]: e.private["card"] for e in drawn}
    for g, card in moved.items():
        assert card in crew.state.hands[(g + 1) % 4]
    assert crew.state.phase == PLAY and crew.state.trick_no == 2
    assert "RandomCardsPassed" in crew.types()


def test_mission_12_random_pass_entered_by_the_dealer():
    plan, last = task_plan(12, 4)
    # Each seat gives the next seat a card the next seat plays in the closing trick of 1s.
    ones = plan.tricks[-1]
    plan.random_pass = {g: ones[(g + 1) % 4] for g in range(4)}
    crew = setup_plan(plan)
    play_plan(plan, crew, tricks=1)
    assert crew.state.phase == PLAY and crew.state.random_passed
    assert all(ones[s] in crew.state.hands[s] for s in range(4))
    play_plan(plan, crew)
    assert ended(crew) == (True, last, None)


def test_mission_12_dealer_may_not_draw_the_shown_card():
    plan, _ = task_plan(12, 4)
    ones = plan.tricks[-1]
    plan.random_pass = {g: ones[(g + 1) % 4] for g in range(4)}
    crew = setup_plan(plan)
    # Seat 0 shows a card it does not play in trick 1: it lies face up and cannot be drawn.
    shown = next(c for c in communicable(crew.state.hands[0], False) if c != plan.tricks[0][0])
    crew.apply(seat(0), {"type": "communicate", "card": shown})
    for _ in range(4):
        s = to_play(crew.state)
        crew.play(s, plan.tricks[0][s])
    assert crew.state.phase == "random_pass"
    (decision,) = GAME.turn(crew.state).decisions
    assert decision.seat is None and decision.fields[0].kind == "card"
    assert shown not in {o.value for o in decision.fields[0].options}
    assert {o.value for o in decision.fields[0].options} == set(crew.state.hands[0]) - {shown}
    assert crew.refused(DEALER, {"type": "enter_drawn_card", "card": shown}).code == "crew/card_shown"
    assert crew.refused(DEALER, {"type": "enter_drawn_card", "card": "R9"}).code == "crew/bad_card"


# -- 5-player handover -------------------------------------------------------------------------------------


def test_five_player_handover_offer_refuse_agree():
    plan, _ = task_plan(25, 5)
    crew = Crew(25, 5, "dealer")
    for hand in plan.hands()[:4]:
        crew.apply(DEALER, {"type": "enter_hand", "cards": hand})
    for card, _ in plan.tasks:
        crew.apply(DEALER, {"type": "enter_task", "task": card})
    owners = dict(plan.tasks)
    while crew.state.phase == "draft":
        picker = drafter(crew.state)
        card = next(t.card for t in crew.state.tasks if t.owner is None and owners[t.card] == picker)
        crew.apply(seat(picker), {"type": "pick_task", "task": card})
    assert crew.state.phase == "handover"
    moves = {(d.seat, d.move) for d in GAME.turn(crew.state).decisions}
    assert {(s, "pass_handover") for s in range(5)} <= moves and (0, "offer_task") in moves
    own = next(t.card for t in crew.state.tasks if t.owner == 0)
    theirs = next(t.card for t in crew.state.tasks if t.owner == 1)
    assert crew.refused(seat(0), {"type": "offer_task", "task": theirs, "to": 2}).code == "crew/not_your_task"
    assert crew.refused(seat(0), {"type": "offer_task", "task": own, "to": 0}).code == "crew/self_handover"
    crew.apply(seat(0), {"type": "offer_task", "task": own, "to": 3})
    assert {d.seat for d in GAME.turn(crew.state).decisions} == {1, 2, 3, 4}
    assert crew.refused(seat(1), {"type": "confirm_handover", "answer": "maybe"}).code == "crew/bad_answer"
    crew.apply(seat(1), {"type": "confirm_handover", "answer": "yes"})
    crew.apply(seat(2), {"type": "confirm_handover", "answer": "no"})
    # A refusal reopens the offers for everyone.
    assert crew.state.proposal is None and crew.state.phase == "handover"
    crew.apply(seat(0), {"type": "offer_task", "task": own, "to": 3})
    for s in (1, 2, 3, 4):
        crew.apply(seat(s), {"type": "confirm_handover", "answer": "yes"})
    task = next(t for t in crew.state.tasks if t.card == own)
    assert task.owner == 3 and crew.state.handover == {"task": crew.state.tasks.index(task), "from": 0, "to": 3}
    assert crew.state.phase == DISTRESS_VOTE


def test_five_player_handover_everyone_passes():
    plan, last = task_plan(25, 5)
    crew = run(plan)
    assert "HandoverPassed" in crew.types() and ended(crew) == (True, last, None)


def test_no_handover_with_four_players_or_before_mission_25():
    assert "HandoverPassed" not in run(task_plan(25, 4)[0]).types()
    five = GAME.setup(NAMES[5], GAME.resolve_options({"mission": 24}, 5), Rng.forbidden())
    assert "handover" not in setup_sequence(five)
    assert "handover" in setup_sequence(replace(five, mission=25))


# -- views, log, sheets ------------------------------------------------------------------------------------


def test_views_keep_hands_secret():
    plan, _ = task_plan(10, 4)
    crew = setup_plan(plan)
    public = GAME.view(crew.state, Audience.public())
    mine = GAME.view(crew.state, Audience.of_seat(1))
    assert all("hand" not in s and "legal" not in s for s in public["seats"])
    assert mine["seats"][1]["hand"] == list(crew.state.hands[1])
    assert all("hand" not in s for i, s in enumerate(mine["seats"]) if i != 1)
    assert mine["seats"][0].get("legal") is None
    leader = GAME.view(crew.state, Audience.of_seat(0))["seats"][0]
    assert leader["legal"] == list(crew.state.hands[0])
    assert public["mission"]["title"] == {"ko": "미션 10", "en": "Mission 10"}
    assert "과제 4개" in public["mission"]["condition"]["ko"]
    assert "panel" not in public and "sheets" not in public


def test_dealer_panel_and_sheets():
    plan, _ = task_plan(6, 4)
    crew = run(plan, tricks=1)
    dealer = GAME.view(crew.state, Audience.dealer())
    panel = dealer["panel"]
    assert all({"heading"} <= set(s) for s in panel)
    text = json.dumps(panel, ensure_ascii=False)
    assert "손패" in text and "1번 하나" in text and "파랑" in text
    hands = next(s for s in panel if s["heading"]["en"] == "Hands and seats")["table"]
    assert len(hands) == 5 and hands[1][1]["tone"] == "secret"
    sheets = dealer["sheets"]
    assert set(sheets) == {"run_sheet", "logbook"}
    assert sheets["run_sheet"]["title"]["ko"].startswith("진행 시트")
    logbook = json.dumps(sheets["logbook"], ensure_ascii=False)
    assert "트릭 기록" in logbook


def test_describe_every_event_of_a_played_match():
    plan, _ = task_plan(6, 4)
    crew = run(plan)
    for event in crew.events:
        for audience in (Audience.public(), Audience.of_seat(0), Audience.dealer()):
            line = GAME.describe(event.visible_to(audience), NAMES[4])
            if event.type == "CommunicationSkipped":
                continue
            assert line is not None, event.type
            assert "seat" not in line.en.lower() or event.type in ("HandDealt",)
    dealt = next(e for e in crew.events if e.type == "HandDealt")
    assert "B" not in GAME.describe(dealt.visible_to(Audience.public()), NAMES[4]).en.split(":")[0]
    assert GAME.describe(dealt.visible_to(Audience.of_seat(dealt.data["seat"])), NAMES[4]).ko.startswith("1번 하나 손패")


def test_contract_shapes_of_decisions():
    crew = Crew(1, 4, "referee")
    rnd = random.Random(0)
    while GAME.result(crew.state) is None:
        turn = GAME.turn(crew.state)
        for d in turn.decisions:
            for f in d.fields:
                if f.name in ("card", "task", "cards"):
                    assert f.kind == "card"
                assert len(f.options) <= 40
        actor, move = pick(turn, rnd)
        crew.apply(actor, move)


# -- random bots finish every mission ------------------------------------------------------------------------


@pytest.mark.parametrize("m", range(1, 51))
def test_random_bots_finish_every_mission(m):
    rnd = random.Random(m)
    for seats, deal in ((3, "referee"), (4, "dealer"), (5, "referee")):
        crew = Crew(m, seats, deal)
        steps = 0
        while GAME.result(crew.state) is None:
            chosen = pick(GAME.turn(crew.state), rnd)
            assert chosen is not None, (m, seats, crew.state.phase)
            crew.apply(*chosen)
            steps += 1
            assert steps < 3000
        details = GAME.result(crew.state).details
        assert details["mission"] == m and details["tricks_played"] <= 40 // seats
        assert details["success"] or 1 <= details["failed_at_trick"] <= 40 // seats


# -- the command line ---------------------------------------------------------------------------------------


def _referee(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("m", [7, 50])
def test_cli_play_is_deterministic(tmp_path, m):
    first = _referee("play", "the_crew", "--bots", "--seed", "5", "--option", "mission", str(m),
                     "--data-dir", str(tmp_path / "a"))
    second = _referee("play", "the_crew", "--bots", "--seed", "5", "--option", "mission", str(m),
                      "--data-dir", str(tmp_path / "b"))
    assert first.stdout == second.stdout
    result = json.loads(first.stdout.splitlines()[-1])
    assert result["details"]["mission"] == m and all(s["rank"] == 1 for s in result["standings"])
    assert set(result["details"]) == {"mission", "success", "failed_at_trick", "reason", "distress_used", "tricks_played"}
    other = _referee("play", "the_crew", "--bots", "--seed", "6", "--option", "mission", str(m),
                     "--data-dir", str(tmp_path / "a"))
    assert other.stdout != first.stdout


def test_plan_builder_sanity():
    # The layouts use every card once and follow suit by construction.
    for seats in (3, 4, 5):
        plan, _ = task_plan(1, seats)
        plan.hands()
    assert order_violation([["1"], ["2"], [""]]) is None
    assert order_violation([[""], ["1"]]) == 1
    assert order_violation([[">"], [""], [">>"], ["Ω"]]) is None
    assert order_violation([[">>"], [">"]]) == 1
    assert order_violation([["", "Ω"]]) is None
