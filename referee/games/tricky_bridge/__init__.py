"""Tricky Bridge (트리키 브릿지), seed 000 section 4, under RULINGS.md "Tricky Bridge".

Rules enforced here (cited beside each check as "Bridge rule N", numbering of RULINGS.md):

1. Four seats; seat i is island A-D, the Gallery rank i+1 (seat order is Gallery rank order).
   The six bridges are all pairs: AB, AC, AD, BC, BD, CD; a seat's island has three.
2. Six rounds. Before each, the dealer confirms which pair goes to the big meeting room
   (대회의실) and which to the small one (소회의실): one of the six splits (three pairings, two
   room orders), the scheduled one offered first.
3. Each round's six items, the same at both tables (seed 4.2): R1 steel 1 brick 1 paint 4;
   R2 brick 3 paint 3; R3 steel 1 brick 2 paint 3; R4 steel 2 brick 3 paint 1; R5 steel 1
   brick 3 paint 2; R6 steel 3 paint 3.
4. Contract: the six items lie in six numbered slots per room; each player secretly marks
   exactly 3. A slot marked by exactly one player goes to that player; marked by both or by
   neither, it is lost. The two contracts of a room are revealed together once both are in.
   Both rooms' contracts are revealed before the distribution begins (the seed's negotiation
   phase, then its distribution phase).
5. Distribution: each player who gained something places every item gained this round on its
   own three bridges (the assign shape: each item to exactly one own bridge, none kept back).
   A player who gained nothing owes nothing. The round ends when all distributions are in.
6. After round 3 every bridge's contents (the totals, not who placed what) become public; the
   distributions of rounds 4-6 are secret again until the end, when everything is revealed
   (the totals, both endpoints' shares, every distribution).
7. Score of a bridge: the maximum, over any number of exchanges of 2 paint for 1 brick and
   2 brick for 1 steel (never back), of 100 per set (steel + brick + paint) plus 3 per leftover
   steel, 2 per brick, 1 per paint. (0,3,2) scores 101, (0,0,8) scores 101 (state.score).
8. The two players of the lowest bridge are out; the other two advance (key 2). Several
   bridges tied for the lowest: see option `bridge_tie`.
   Standings: the two survivors are ranks 1-2 and the two out 3-4; within each pair the higher
   sum of the seat's three bridges' points ranks first, then the better Gallery rank. The
   result's details carry {"advance", "out", "key": 2, "bridges", "lowest", ...}.

Secret (the dealer and one seat): a seat's marks until its room's contracts are revealed; a
seat's distributions, and so what it put on each bridge, until round 3's reveal (rounds 1-3)
or the end (rounds 4-6). A bridge is shared by two islands: a seat sees only what it placed
itself, plus what a reveal made public. Public: the schedule and supplies, the confirmed
rooms, the slot layouts (the items lie on the table), who has handed in a contract and who
has distributed (both happen in sight), the revealed contracts and gains, the bridges after
round 3, and the final scores, the lowest bridge and who is out.

Audience questions (questions.py, from the public view only): "누가 살아남을까요?" (the four
players, two right answers; closes at the final scoring) and, while a room's contracts are
sealed in a round with steel, "N라운드 대회의실/소회의실: 철근은 누가 가져갈까요?" (its two players or
nobody / the same; closes at the next contracts reveal), besides the kernel's "who wins?".

Table options:

- `deal` (default `referee`): `referee` lays each room's six items into slots 1-6 at random in
  an automatic step (the run sheet tells the dealer how to lay them); `dealer`: the dealer
  enters each room's layout (the slots of each kind but the most plentiful, which fills the
  rest).
- `schedule` (default `AB|CD,AC|BD,AD|BC,AB|CD,AC|BD,AD|BC`): six pairings, big room first,
  the one offered first in each round's rooms decision.
- `bridge_tie` (default `players`): several lowest bridges: `players`: of all the players on
  them, the two with the worse Gallery ranks are out; `bridge`: both players of the tied
  bridge whose better endpoint has the worse Gallery rank are out (equal better endpoints:
  the bridge whose other endpoint is worse).

Recap moments (highlights.py, from the public view only): the final scoring, the bridges after
round 3, and the rounds' contracts where one player won the most.

Error codes: bridge/bad_rooms, bridge/no_such_room, bridge/room_already_laid,
bridge/no_such_slot, bridge/slot_twice (and the kernel's move/malformed, e.g. a contract of
other than 3 slots or a distribution that leaves an item out, and move/not_owed).
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .decisions import turn
from .describe import describe
from .highlights import highlight
from .questions import answer, predictions
from .rules import decide, evolve, result, setup
from .state import (
    DEAL_DEALER,
    DEAL_REFEREE,
    DEFAULT_SCHEDULE,
    SEATS,
    TIE_BRIDGE,
    TIE_PLAYERS,
    BridgeState,
    schedule_allowed,
    score,
)
from .views import panel, run_sheet, view

GAME = Game(
    id="tricky_bridge",
    title=T("트리키 브릿지", "Tricky Bridge"),
    rules_version="1",
    # Bridge rule 1: four islands, one seat each.
    seats=(SEATS, SEATS),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("deal", DEAL_REFEREE, (DEAL_REFEREE, DEAL_DEALER),
                   T("칸 배치: 심판 무작위 또는 딜러 입력",
                     "Slot layout: random by the referee or entered by the dealer")),
        OptionSpec("schedule", DEFAULT_SCHEDULE, (DEFAULT_SCHEDULE, "AB|CD,AD|BC,AC|BD,AB|CD,AD|BC,AC|BD"),
                   T("라운드별 회의실 배정 6개 (대회의실|소회의실, 쉼표로 구분)",
                     "Six pairings, one per round (big room|small room, comma-separated)"),
                   accepts=schedule_allowed),
        OptionSpec("bridge_tie", TIE_PLAYERS, (TIE_PLAYERS, TIE_BRIDGE),
                   T("최저 다리 동점: 갤러리 순위가 낮은 두 선수 또는 그런 다리",
                     "Tied lowest bridges: the two players with the worse Gallery ranks or such a bridge"),
                   words={TIE_PLAYERS: T("갤러리 순위가 낮은 두 선수", "The two players with the worse Gallery ranks"),
                          TIE_BRIDGE: T("그런 다리", "Such a bridge")}),
    ),
    default_seats=SEATS,
    describe=describe,
    reveals=frozenset({"ContractsRevealed", "BridgesRevealed", "BridgesScored"}),
    highlight=highlight,
    predictions=predictions,
    answer=answer,
)

__all__ = ["GAME", "BridgeState", "decide", "describe", "evolve", "panel", "result", "run_sheet", "score", "setup",
           "turn", "view"]
