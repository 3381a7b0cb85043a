"""Horror Race 2 (호러 레이스2), seed 001 main match, under RULINGS.md "Horror Race 2".

Rules enforced here (cited beside each check as "Horror rule N", numbering of RULINGS.md;
"seed N" for the seed's numbered steps):

1. Seats 1..N (2-12, usually 10) are the lottery order: the table's seat order is the drawn
   order. Each seat secretly backs 2 of the 5 characters (뱀파이어 vampire, 강시 jiangshi,
   구미호 gumiho, 미라 mummy, 좀비 zombie), a sealed submission before the race; its other 3
   coins go into the box, which so holds 3N coins.
2. Each round, in order, the seat in turn either draws 3 coins at random from the box and
   places all of them, in any split, on zones 1, 2, 3 (public), or declares the coin forfeit
   (코인포기). Only the first forfeit of a round counts; later seats are not offered it and
   are refused it. Next round's order starts with the seat after the forfeiter and ends with
   the forfeiter; with no forfeit the order stays. Round 1 starts with seat 1.
3. After the last seat: zone 1 moves a character 1 cell, zone 2 two cells, zone 3 four cells,
   in that order. The mover has the most coins in the zone; if the most is tied, the next lower
   count held by exactly one character, and so on; if none, nobody moves. A character with no
   coin in the zone never moves.
4. A mover carries everything stacked on top of it and lands on top of any stack at its
   destination. Cells 6 and 11 are puddles: a move that would pass one stops on it.
5. Cells 1..12 follow the start (cell 0). A move ending beyond cell 12 passes the goal and ends
   the race at once (later zones do not move). Otherwise the coins return to the box at round
   end and the next round begins.
6. Ranking: the stack that passed ranks top first; then by distance to the goal, within a stack
   top first; characters at the start stand side by side (one leaving the start moves alone)
   and share the best place of their block. Each backed character 1st, 2nd, 3rd scores 3, 2, 1
   for its seat. Seats rank by points; equal points share the better rank (a tie that decides
   something, e.g. the death match, is the dealer's to break at the program level).

Secret (dealer and the seat only): each seat's two backed characters, until the final scoring
reveals them all (the public event ``BackingsRevealed``); the box contents per character (the
dealer only; they would tell how many seats back each character). Public: who has submitted a
backing (seats enter the dealer room one by one), the order of each round, whose turn, each
forfeit, every drawn coin (public at the draw: the seat draws at the table) and its zone, the
zones' coins by character and seat, every move with its stack and puddle stop, the track, the
number of coins in the box, the final places, and after the reveal every backing, points and
seat ranks.

Audience questions (questions.py, from the public view only): "어느 캐릭터가 1등으로 들어올까요?"
(the five characters; asked until the race ends, closing at the next movement reveal), besides
the kernel's "who wins?" (for at most 9 seats).

Table options:

- ``deal`` (default ``referee``): ``referee`` draws the 3 coins with the table's seeded
  randomness (an automatic step); ``dealer`` lets the dealer enter the 3 coins physically
  drawn, chosen from the multisets the box can give.
- ``groups`` (default ``none``): ``none`` ranks all seats together; ``guests:9,10`` (1-based
  seat numbers, comma-separated) puts those seats in a guest group, and seats are ranked
  within their group (players, guests). A seat number beyond the table's seats is refused.

Recap moments (highlights.py, from the public view only): the finish, the backings revealed, and
the rounds whose movement changed the lead.
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .describe import describe
from .highlights import highlight
from .questions import answer, predictions
from .rules import decide, evolve, result, setup, turn
from .state import RaceState, groups_allowed
from .views import view

GAME = Game(
    id="horror_race",
    title=T("호러 레이스2", "Horror Race 2"),
    rules_version="1",
    seats=(2, 12),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("deal", "referee", ("referee", "dealer"),
                   T("코인 뽑기: 심판 자동 또는 딜러 입력",
                     "Coin draws: by the referee or entered by the dealer")),
        OptionSpec("groups", "none", ("none", "guests:10", "guests:9,10"),
                   T("순위 그룹: none 또는 guests:자리번호들 (예: guests:9,10)",
                     "Ranking groups: none or guests:seat numbers (e.g. guests:9,10)"),
                   accepts=groups_allowed,
                   words={"none": T("없음", "None"), "guests:10": T("게스트: 10번 자리", "Guests: seat 10"),
                          "guests:9,10": T("게스트: 9, 10번 자리", "Guests: seats 9 and 10")}),
    ),
    default_seats=10,
    describe=describe,
    reveals=frozenset({"ZoneResolved", "RaceFinished", "BackingsRevealed"}),
    highlight=highlight,
    predictions=predictions,
    answer=answer,
)

__all__ = ["GAME", "RaceState"]
