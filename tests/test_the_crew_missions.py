"""The Crew: every one of the 50 missions succeeds, and fails at the right trick.

Each case is a planned attempt (tests/test_the_crew.py, Plan and run): the tricks are laid out so
that every card follows suit by construction, the hands are derived from them, and the setup
steps go through the game's own decisions. The expected trick is worked out from the plan:

- Task missions: the tasks are done bucket by bucket, one bucket per trick (numbered tokens one by
  one, then the arrows in order, then the other tasks by holder, then Ω), so the mission succeeds
  at the trick of the last bucket. Failure 1: that last trick goes to another seat, so it fails
  there, its task card won by someone else. Failure 2 (missions with tokens): the buckets in
  reverse order; the trick where the order breaks is worked out by `order_violation`, a pairwise
  reading of the RULINGS written independently of the engine.
- Special missions: a plan per mission, the expected trick argued in its comment.
"""

from __future__ import annotations

import pytest

from referee.games.the_crew.missions import mission as mission_info

from .test_the_crew import (
    COLOURS,
    Plan,
    bucketize,
    deal_group,
    draft_owners,
    ended,
    free_groups,
    group,
    order_violation,
    run,
    task_plan,
)

G4 = free_groups(4)  # B 9-6, B 5-2, G 9-6, G 5-2, P 9-6, P 5-2, Y 9-6, Y 5-2; the top card wins
ROCKETS = {0: "R4", 1: "R1", 2: "R2", 3: "R3"}  # everyone follows rockets; rocket 4 (seat 0) wins
ONES = {0: "B1", 1: "G1", 2: "P1", 3: "Y1"}  # each a different colour: the leader's 1 wins

SPECIAL = {5, 9, 13, 16, 17, 26, 29, 33, 34, 41, 44, 46, 48, 50}
TASK_MISSIONS = [m for m in range(1, 51) if mission_info(m).tasks and m not in SPECIAL]


def groups4(winners: list[int]) -> list[dict[int, str]]:
    return [deal_group(G4[i], w, 4) for i, w in enumerate(winners)]


def adjust(m: int, plan: Plan) -> Plan:
    if m == 11:
        plan.chosen = [1]  # the muted member (never the commander)
    if m == 12:
        # Mission 12: after trick 1 each seat's card goes to the next seat; the dealer enters the
        # draws. Each seat gives the next seat the 1 that seat plays in the closing trick.
        ones = plan.tricks[-1]
        plan.random_pass = {g: ones[(g + 1) % 4] for g in range(4)}
    return plan


# -- task missions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("m", TASK_MISSIONS)
def test_task_mission_succeeds_at_its_last_task(m):
    plan, last = task_plan(m, 4)
    crew = run(adjust(m, plan))
    assert ended(crew) == (True, last, None)
    assert all(t.status == "done" for t in crew.state.tasks)
    info = mission_info(m)
    tokens = [info.tokens[i] if i < len(info.tokens) else "" for i in range(info.tasks)]
    buckets = bucketize(tokens, draft_owners(m, 4), 4)
    assert order_violation([[tokens[i] for i in b] for b in buckets]) is None


@pytest.mark.parametrize("m", TASK_MISSIONS)
def test_task_mission_fails_when_a_task_card_goes_to_another_seat(m):
    plan, last = task_plan(m, 4, stolen=True)
    crew = run(adjust(m, plan))
    assert ended(crew) == (False, last, "task_won_by_other")
    assert [t.status for t in crew.state.tasks].count("failed") >= 1


@pytest.mark.parametrize("m", [m for m in TASK_MISSIONS if mission_info(m).tokens])
def test_task_mission_fails_where_the_token_order_breaks(m):
    info = mission_info(m)
    tokens = [info.tokens[i] if i < len(info.tokens) else "" for i in range(info.tasks)]
    buckets = bucketize(tokens, draft_owners(m, 4), 4)
    reverse = list(reversed(range(len(buckets))))
    expected = order_violation([[tokens[i] for i in buckets[j]] for j in reverse])
    assert expected is not None
    plan, _ = task_plan(m, 4, order=reverse)
    crew = run(adjust(m, plan))
    assert ended(crew) == (False, expected, "task_order")


@pytest.mark.parametrize("m", [1, 2, 3, 7, 8, 10, 14, 21])
def test_task_missions_with_3_players(m):
    plan, last = task_plan(m, 3)
    assert ended(run(plan)) == (True, last, None)
    plan, last = task_plan(m, 3, stolen=True)
    assert ended(run(plan)) == (False, last, "task_won_by_other")


@pytest.mark.parametrize("m", [2, 4, 10, 18, 25, 27, 30, 31, 42, 47])
def test_task_missions_with_5_players(m):
    plan, last = task_plan(m, 5)
    crew = run(plan)
    assert ended(crew) == (True, last, None)
    plan, last = task_plan(m, 5, stolen=True)
    assert ended(run(plan)) == (False, last, "task_won_by_other")


def test_five_player_handover_then_success():
    # Mission 25, 5 players: the draft gives seat 0 two tasks; seat 0 hands its second one to
    # seat 3 (everyone agrees), and the plan is laid out for the holders after that.
    final = draft_owners(25, 5)
    final[5] = 3
    plan, last = task_plan(25, 5, owners=final)
    card = plan.tasks[5][0]
    plan.handover = (0, card, 3)
    crew = run(plan)
    assert crew.state.handover == {"task": 5, "from": 0, "to": 3}
    assert ended(crew) == (True, last, None)


# -- special missions -----------------------------------------------------------------------------------


def test_mission_5_sick_member():
    # Seat 1 is sick; nobody else wins trick 5 in the failure plan... seat 1 does: fails at 5.
    ok = Plan(5, 4, groups4([0, 2, 3, 0, 2, 3, 0, 2]) + [ROCKETS, ONES], chosen=[1])
    assert ended(run(ok)) == (True, 10, None)  # it lasts to the last trick (BGA)
    bad = Plan(5, 4, groups4([0, 2, 3, 0, 1, 3, 0, 2]) + [ROCKETS, ONES], chosen=[1])
    assert ended(run(bad)) == (False, 5, "sick_won")


def test_mission_9_a_colour_one_wins():
    # Trick 3: seat 0 leads blue 1 once both blue groups are gone; the others are void in blue.
    ok = Plan(9, 4, groups4([0, 0]) + [ONES] + [deal_group(g, 0, 4) for g in G4[2:]] + [ROCKETS])
    assert ended(run(ok)) == (True, 3, None)
    # Trick 9: seat 1 trumps the blue 1 with rocket 1; trick 10: seat 1 leads green 1 and rocket 4
    # takes it. No colour 1 ever won: it fails at the last trick.
    bad = Plan(9, 4, groups4([0] * 8) + [{0: "B1", 1: "R1", 2: "P1", 3: "Y1"}, {1: "G1", 0: "R4", 2: "R2", 3: "R3"}])
    crew = run(bad)
    assert ended(crew) == (False, 10, "ones_short")


def _rockets_alone_5(m: int, rocket_order: list[str]) -> Plan:
    """5 players: four colour groups 9-5 (seat 0), then each colour's 4-1 with one rocket, won by
    its holder, void in that colour by then; seats 1 and 0 alternate so nobody leads a rocket."""
    winners = [1, 0, 1, 0] if rocket_order.index("R4") % 2 else [0, 1, 0, 1]
    tricks = [deal_group(group(c, (9, 8, 7, 6, 5)), 0, 5) for c in COLOURS]
    if winners[0] == 0:
        tricks[-1] = deal_group(group("Y", (9, 8, 7, 6, 5)), 2, 5)  # trick 4 to seat 2, then seat 0
    tricks += [deal_group([r] + group(c, (4, 3, 2, 1)), w, 5) for r, c, w in zip(rocket_order, COLOURS, winners, strict=True)]
    return Plan(m, 5, tricks)


def test_mission_13_each_rocket_wins():
    assert ended(run(_rockets_alone_5(13, ["R1", "R4", "R2", "R3"]))) == (True, 8, None)
    # Four rockets in one trick (trick 2): rocket 4 wins it over the others. Fails there.
    bad = Plan(13, 4, groups4([0]) + [ROCKETS] + [deal_group(g, 0, 4) for g in G4[1:]] + [ONES])
    assert ended(run(bad)) == (False, 2, "rocket_beaten")


def _three_player_rockets(m: int) -> Plan:
    """3 players, seat 0 (14 cards) keeps rocket 4 unplayed; rockets 1, 2, 3 each win a trick alone
    (tricks 10, 11, 12); trick 13 is the three 1s led by seat 2."""
    tricks = [deal_group(group(c, vs), 0, 3) for c in "BGP" for vs in ((9, 8, 7), (6, 5, 4))]
    tricks += [deal_group(group("Y", vs), 0, 3) for vs in ((9, 8, 7), (6, 5, 4), (3, 2, 1))]
    tricks += [{0: "B3", 1: "B2", 2: "R1"}, {2: "G3", 0: "G2", 1: "R2"}, {1: "P3", 0: "P2", 2: "R3"},
               {2: "G1", 1: "P1", 0: "B1"}]
    return Plan(m, 3, tricks, extra=(0, "R4"))


def test_missions_13_and_44_fail_at_the_last_trick_with_a_rocket_unplayed_3_players():
    # RULINGS: with 3 players a rocket left unplayed fails missions 13 and 44 at the last trick.
    for m in (13, 44):
        crew = run(_three_player_rockets(m))
        assert ended(crew) == (False, 13, "unfinished")
        assert crew.state.hands[0] == ("R4",)


def test_mission_44_rockets_in_order():
    assert ended(run(_rockets_alone_5(44, ["R1", "R2", "R3", "R4"]))) == (True, 8, None)
    # Rocket 2 wins trick 5 before rocket 1: fails there.
    assert ended(run(_rockets_alone_5(44, ["R2", "R1", "R3", "R4"]))) == (False, 5, "rocket_order")


def _nines_trumped_5(m: int, tasks: list[tuple[str, int]] | None = None, winners: list[int] | None = None) -> Plan:
    """5 players: each colour's 5-1 first (free winner), then its 9-6 with a rocket that takes it,
    so no 9 ever wins. Rockets alternate between seats 1 and 0."""
    winners = winners or [0, 0, 0, 0]
    tricks = [deal_group(group(c, (5, 4, 3, 2, 1)), w, 5) for c, w in zip(COLOURS, winners, strict=True)]
    chain = [1, 0, 1, 0] if winners[-1] != 1 else [2, 0, 2, 0]
    rockets = ["R1", "R4", "R2", "R3"]
    tricks += [deal_group([r] + group(c, (9, 8, 7, 6)), w, 5) for r, c, w in zip(rockets, COLOURS, chain, strict=True)]
    return Plan(m, 5, tricks, tasks=tasks or [])


def test_mission_16_no_nine_wins():
    # Every 9 is trumped; the last 9 is played in trick 8: success there.
    assert ended(run(_nines_trumped_5(16))) == (True, 8, None)
    # Trick 2 is blue 9-6: blue 9 wins it.
    bad = Plan(16, 4, groups4([0, 0])[::-1] + [deal_group(g, 0, 4) for g in G4[2:]] + [ROCKETS, ONES])
    assert bad.tricks[1][0] == "B9"
    assert ended(run(bad)) == (False, 2, "nine_won")


def test_mission_17_tasks_and_no_nine():
    # Tasks done in tricks 1 and 2 (blue 3 by seat 0, green 3 by seat 1), but success waits for
    # the last 9, played in trick 8.
    ok = _nines_trumped_5(17, tasks=[("B3", 0), ("G3", 1)], winners=[0, 1, 0, 0])
    crew = run(ok)
    assert ended(crew) == (True, 8, None)
    assert [t.trick for t in crew.state.tasks] == [1, 2]
    # A 9 wins (the first colour group of the generic plan, blue 9): fails at trick 1.
    bad, _ = task_plan(17, 4)
    assert ended(run(bad)) == (False, 1, "nine_won")
    # A task card won by another seat: fails at trick 2.
    stolen = _nines_trumped_5(17, tasks=[("B3", 0), ("G3", 1)], winners=[0, 2, 0, 0])
    assert ended(run(stolen)) == (False, 2, "task_won_by_other")


def test_mission_26_two_colour_ones_win():
    # Seat 0 wins both blue and both green groups, then leads blue 1 (trick 5) and green 1
    # (trick 6) while everyone else is void and throws yellows: two tricks won by 1s at trick 6.
    tricks = groups4([0, 0, 0, 0]) + [{0: "B1", 1: "Y9", 2: "Y8", 3: "Y7"}, {0: "G1", 1: "Y6", 2: "Y5", 3: "Y4"},
                                      deal_group(G4[4], 0, 4), deal_group(G4[5], 0, 4), ROCKETS,
                                      {0: "P1", 1: "Y3", 2: "Y2", 3: "Y1"}]
    assert ended(run(Plan(26, 4, tricks))) == (True, 6, None)
    # The 1s sit low in 4-1 groups: after three of them (trick 3) only one 1 is left: BGA fails it.
    low = [deal_group(group(c, (4, 3, 2, 1)), 0, 4) for c in COLOURS]
    high = [deal_group(group(c, (9, 8, 7, 6)), 0, 4) for c in COLOURS]
    bad = Plan(26, 4, low + high + [ROCKETS, {0: "B5", 1: "G5", 2: "P5", 3: "Y5"}])
    assert ended(run(bad)) == (False, 3, "ones_short")


BALANCED = groups4([0, 1, 2, 3, 0, 1, 2, 3]) + [
    {3: "Y1", 0: "B1", 1: "G1", 2: "P1"},  # trick 9: seat 3 leads yellow 1, everyone else is void
    {3: "R3", 0: "R4", 1: "R1", 2: "R2"},  # trick 10: rocket 4, the commander
]


def test_mission_29_balanced():
    # Tricks won after each trick: 1000 1100 1110 1111 2111 2211 2221 2222 2223 3223: never 2 apart.
    assert ended(run(Plan(29, 4, BALANCED))) == (True, 10, None)
    bad = Plan(29, 4, groups4([0, 0, 1, 2, 3, 1, 2, 3]) + [ROCKETS, ONES])
    assert ended(run(bad)) == (False, 2, "unbalanced")


def test_mission_34_balanced_and_commander_first_and_last():
    assert ended(run(Plan(34, 4, BALANCED))) == (True, 10, None)
    bad = Plan(34, 4, groups4([1, 0, 2, 3, 0, 1, 2, 3]) + BALANCED[8:])
    assert ended(run(bad)) == (False, 1, "commander_missed")


def test_mission_33_volunteer_exactly_one_trick():
    ok = Plan(33, 4, groups4([2, 0, 1, 3, 0, 1, 3, 0]) + [ROCKETS, ONES], chosen=[2])
    assert ended(run(ok)) == (True, 10, None)
    twice = Plan(33, 4, groups4([2, 2, 1, 3, 0, 1, 3, 0]) + [ROCKETS, ONES], chosen=[2])
    assert ended(run(twice)) == (False, 2, "volunteer_twice")
    never = Plan(33, 4, groups4([0, 1, 3, 0, 1, 3, 0, 1]) + [ROCKETS, ONES], chosen=[2])
    assert ended(run(never)) == (False, 10, "volunteer_none")


def _coordinator(third: int) -> Plan:
    # Seat 1 wins trick 1 (blue 9) and trick 10 (yellow 5); rocket 4 takes trick 2; seat 2 leads
    # pink 1 in trick 9, the pinks being gone.
    tricks = [deal_group(G4[0], 1, 4), {1: "R1", 0: "R4", 2: "R2", 3: "R3"}]
    tricks += [deal_group(G4[i], w, 4) for i, w in zip(range(1, 7), [third, 2, 3, 0, 3, 2], strict=True)]
    tricks += [{2: "P1", 3: "Y1", 0: "B1", 1: "G1"}, deal_group(G4[7], 1, 4)]
    return Plan(41, 4, tricks, chosen=[1])


def test_mission_41_first_and_last_trick_only():
    assert ended(run(_coordinator(0))) == (True, 10, None)
    assert ended(run(_coordinator(1))) == (False, 3, "coordinator_middle")
    first = _coordinator(0)
    first.tricks[0] = deal_group(G4[0], 3, 4)
    assert ended(run(first)) == (False, 1, "coordinator_missed")


def _pink(swap: bool) -> Plan:
    # Seat 3 holds pink 9, so seat 0 (the commander, next clockwise) must win every pink trick: it
    # leads pink 8 and pink 5, then rocket 4 while seat 3, out of rockets, throws pink 9.
    first = {0: "P7", 1: "P8"} if swap else {0: "P8", 1: "P7"}
    tricks = [{**first, 2: "P6", 3: "P2"}, {0: "P5", 1: "P4", 2: "P1", 3: "P3"}, {0: "R4", 1: "R2", 2: "R3", 3: "P9"}]
    unplayed = {0: group("B", (9, 8, 7, 6, 5, 4, 3)), 1: ["B2", "B1", "G9", "G8", "G7", "G6", "R1"],
                2: group("G", (5, 4, 3, 2, 1)) + ["Y9", "Y8"], 3: group("Y", (7, 6, 5, 4, 3, 2, 1))}
    return Plan(46, 4, tricks, unplayed=unplayed)


def test_mission_46_left_of_pink_nine_wins_every_pink():
    crew = run(_pink(False))
    assert crew.state.special == 0
    assert ended(crew) == (True, 3, None)  # no pink left after trick 3
    assert ended(run(_pink(True))) == (False, 1, "pink_lost")


def test_mission_48_omega_in_the_last_trick():
    # Tasks: Ω (seat 0), then seats 1 and 2. Seats 1 and 2 finish theirs in tricks 1 and 2; seat 0
    # wins the last trick, yellow 5-2, with the Ω card yellow 4.
    tricks = groups4([1, 2, 0, 0, 0, 0, 0]) + [ROCKETS, ONES, deal_group(G4[7], 0, 4)]
    ok = Plan(48, 4, tricks, tasks=[("Y4", 0), ("B8", 1), ("B4", 2)])
    assert ended(run(ok)) == (True, 10, None)
    # All three done by trick 3: BGA fails it there.
    bad, last = task_plan(48, 4)
    assert last == 3
    assert ended(run(bad)) == (False, 3, "omega_early")


def _roles(second: int) -> Plan:
    # Seat 1 wins tricks 1-4, seat 3 and the commander the tricks in between, seat 2 the last.
    tricks = groups4([1, second, 1, 1, 3, 3]) + [{3: "R3", 0: "R4", 1: "R1", 2: "R2"}, ONES,
                                                 deal_group(G4[6], 3, 4), deal_group(G4[7], 2, 4)]
    return Plan(50, 4, tricks, chosen=[1, 2])


def test_mission_50_roles():
    crew = run(_roles(1))
    assert (crew.state.special, crew.state.special2) == (1, 2)
    assert ended(crew) == (True, 10, None)
    assert ended(run(_roles(0))) == (False, 2, "roles_broken")


def test_every_mission_has_a_success_and_a_failure_case():
    covered = set(TASK_MISSIONS) | SPECIAL
    assert covered == set(range(1, 51))
