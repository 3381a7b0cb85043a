"""The Crew: The Quest for Planet Nine (더 크루), seed 003, under RULINGS.md "The Crew".

One table is one attempt at one of the 50 missions, played as Board Game Arena does (the mission
data is missions.json, a copy of shared/reference/crew_missions.json). Rules enforced here
(cited beside each check as "Crew rule N"):

1. Deal: all 40 cards (blue B, green G, pink P, yellow Y 1-9; rockets R 1-4). With 3 players a
   random seat gets 14 cards, 13 tricks are played and one card stays unplayed; 4 players: 10
   each; 5 players: 8 each. The holder of rocket 4 is the commander (public).
2. Tasks: the mission's tasks are drawn at random from the 36 task cards; the first ones drawn
   carry the mission's tokens, in order. The draft: the commander first, then clockwise, one
   task at a time until all are taken (or rule 9).
3. Tricks: the commander leads trick 1, play goes clockwise; follow the led suit when you can
   (rockets are a suit of their own); the highest rocket wins, else the highest card of the led
   suit; the winner leads the next trick.
4. After each trick an open task whose card is in it is done if its holder won the trick, and
   failed otherwise.
5. Tokens: task n must be done before every task not numbered 1..n-1; arrows order only the
   arrow tasks; Ω after all others; tasks done in the same trick are simultaneous.
6. Communication: once per mission and seat, only while no card of the current trick is played:
   a colour card that is the highest, the lowest or the only one of its colour in the hand, face
   up with its token on top, at the bottom or in the middle. A dead zone hides the position
   (public "hidden"; the holder and the dealer know it). Disruption N: not before trick N.
   Several seats may communicate before one trick in any order; a seat may skip the window.
   The card stays in the hand, shown, until played.
7. Distress signal: before trick 1 and before any communication, every seat votes: pass left
   (clockwise), pass right, do not use, or either way (BGA's vote: settled when every vote but
   "either way" is the same; all "either way" means not used; a vote that differs from another
   reopens the vote of those who differ). With a direction agreed, every seat secretly picks
   exactly one non-rocket card, and all are passed that way together.
8. End: success when every task is done (and the mission's own condition holds, rule 11);
   failure at the trick where a check detects it (a task card won by another seat, an order
   broken, a special condition broken, the last trick with tasks open); no search for an
   earlier hopelessness. The last trick ends every attempt: what is still open then fails (with
   3 players a rocket left unplayed fails missions 13 and 44).
9. The commander's question (missions 5, 20, 24, 27, 32, 33, 36, 37, 41, 43, 50): the other
   members answer in turn, clockwise from the commander's left, with the mission's replies
   (public). Commander's decision (20, 27, 37): the tasks lie face down; the commander gives all
   of them to one member other than himself. Commander's distribution (24, 32, 36, 43): the
   tasks are revealed one at a time; after each question round the commander gives the task to
   a member (himself included) so that in the end no one holds two more than another.
10. Five players (the missions marked so, from 25 on, with tasks): before the distress vote any
    member may offer one of their tasks to another; every other member must agree; a refusal
    reopens the offers; when everyone passes, or after one handover, play goes on.
11. Special missions (BGA's checks after each trick): 5 the commander names a sick member (not
    himself) who wins no trick; 9 a colour 1 wins a trick; 11 a member named by the commander
    (not himself) may not communicate; 12 right after trick 1 each seat's random card (never the
    face-up communicated one) goes to the next seat clockwise; 13 each rocket wins a trick and a
    trick won by a rocket holds no other rocket; 16 and 17 no trick won by a 9 (17 also has its
    tasks and succeeds once the 9s are all played or at the last trick); 23 the commander may swap
    two tokens before the draft, 40 move one token onto a task without one; 26 two tricks won by
    colour 1s (fails as soon as the 1s left cannot make it); 29 no member ever two tricks ahead of
    another; 33 a member named by the commander (not himself) wins exactly one trick, not with a
    rocket; 34 as 29 and the commander wins the first and the last trick; 41 a member named by the
    commander (not himself) wins only the first and the last trick, neither with a rocket; 44 as
    13 in the order 1, 2, 3, 4; 46 the holder of pink 9 is announced and the next seat clockwise
    must win every trick with a pink card; 48 the tasks must not all be done before the last
    trick; 50 the commander names who wins the first four tricks and no other (himself allowed)
    and who, another member, wins only the last trick; the rest win the tricks in between.
12. Result: cooperative. Every seat ranks 1 whether the mission succeeds or fails; `decided_by`
    says which, and at which trick; `details` holds the logbook line: mission, success,
    failed_at_trick, reason, distress_used, tricks_played. Score: 1 for a success, 0 otherwise.

Secret (the dealer and one seat): the hand, the distress card chosen, the card mission 12 moves
(giver and taker), a dead zone's true token position (the holder). Secret from every seat: the
face-down tasks until assigned or revealed, and with 3 players the card left unplayed (it stays
in its holder's hand, never shown). Public: hand sizes, the commander, tasks with tokens, holders
and status, every card played and trick won, communicated cards (position hidden in a dead
zone), the question's answers, the chosen members, distress votes and who has picked a card.

Audience questions (questions.py, from the public view only): "이번 미션 성공할까요?" (성공/실패;
asked until the mission ends, closing at the next card played), besides the kernel's "who
wins?".

Table options:

- `mission` (default 1): 1-50, as a number or its digits.
- `deal` (default `referee`): `referee` shuffles and deals with the table's randomness (the dealer
  view's run sheet says what to hand whom) and draws the tasks and mission 12's random cards;
  `dealer`: the dealer enters what was dealt physically (with 3 players first the 14-card seat,
  then each hand but the last, which holds the rest), the task cards drawn in order, and the
  cards mission 12 moves.

Recap moments (highlights.py, from the public view only): the mission's end, a trick that failed a
task, a trick that did one.

Error codes: crew/bad_card, crew/bad_seat, crew/card_dealt, crew/task_drawn, crew/bad_token_move,
crew/bad_reply, crew/not_eligible, crew/no_such_task, crew/task_taken, crew/not_your_task,
crew/self_handover, crew/bad_answer, crew/bad_vote, crew/not_in_hand, crew/rocket_pass,
crew/must_follow, crew/not_communicable, crew/card_shown.
"""

from __future__ import annotations

from typing import Any

from referee.kernel import Game, OptionSpec, T

from .decisions import turn
from .describe import describe
from .highlights import highlight
from .missions import mission, missions
from .questions import answer, predictions
from .rules import decide, evolve, mission_number, result, setup
from .state import DEAL_DEALER, DEAL_REFEREE, CrewState
from .views import view


def _mission_allowed(value: Any, seats: int | None) -> bool:
    return mission_number(value) is not None


GAME = Game(
    id="the_crew",
    title=T("더 크루: 아홉 번째 행성을 찾아서", "The Crew: The Quest for Planet Nine"),
    rules_version="1",
    seats=(3, 5),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("mission", 1, tuple(range(1, 51)), T("미션 번호 (1-50)", "Mission number (1-50)"),
                   accepts=_mission_allowed),
        OptionSpec("deal", DEAL_REFEREE, (DEAL_REFEREE, DEAL_DEALER),
                   T("분배: 심판 자동 또는 딜러 입력", "Deal: by the referee or entered by the dealer")),
    ),
    default_seats=4,
    describe=describe,
    reveals=frozenset({"TrickWon", "MissionEnded"}),
    highlight=highlight,
    predictions=predictions,
    answer=answer,
    winner_question=False,  # the crew wins or loses together: its own question asks which
)

__all__ = ["GAME", "CrewState", "decide", "evolve", "mission", "missions", "result", "setup", "turn", "view"]
