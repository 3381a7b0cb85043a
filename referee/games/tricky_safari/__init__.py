"""Tricky Safari (트리키 사파리), seed 000 section 6, under RULINGS.md "Tricky Safari".

Rules enforced here (cited beside each check as "Safari rule N", numbering of RULINGS.md):

1. Five seats, chosen before the table is made in Gallery rank order (the console seats the
   players in the chosen order): seat order is play order, and seat r starts round r. Animal
   pairs (public): seat 1 elephant+rhino (코끼리+코뿔소), 2 rhino+lion (코뿔소+사자), 3 lion+leopard
   (사자+표범), 4 leopard+zebra (표범+얼룩말), 5 zebra+elephant (얼룩말+코끼리).
2. Each round: for each animal one of its cards 1-4 opens at random (its starting value); the
   other 25 of the 30 cards (5 animals x 0-5) are dealt 5 per seat, secretly. From the round's
   starter on around the seats, a turn is two decisions in sequence: play one card from the
   hand (any card; the animal's value becomes the card's number), then take one of the
   figures left (5 per animal, 25 in all, back in the middle every round).
3. The round ends after a turn (its figure taken) that leaves some animal with all six cards
   open. Each figure taken this round scores its animal's last opened value.
4. After round 5 each animal's sum of its round-end values ranks it, highest first; tied
   animals all take the lowest rank of their block (10, 10, 8 rank 2, 2, 3). Each seat gets a
   bonus per own animal: 8, 6, 4, 2, 0 for ranks 1-5. Total = figure points + bonuses.
5. Highest total wins; the last is the lowest of the other four; equal totals go to the better
   (smaller) Gallery rank, so the standings are the five seats in that order. The winner then
   names the Tricky Coin opponent on the phone: not the last, not themself. The result is
   final once named.

Readings where the seed and RULINGS are silent:

- A round never runs out of cards or figures before an animal completes. After the openings
  each animal has 5 cards in the hands; twenty plays leave at most 1 + 4 open cards per animal,
  so the 21st play at the latest opens some animal's sixth card and ends the round. 21 turns
  take at most 21 of the 25 figures, and going around from the starter no seat plays more than
  5 times (the starter plays turns 1, 6, 11, 16, 21): exactly its hand. A round lasts 5 to 21
  turns; the referee needs no rule for running out.
- The turn that opens an animal's sixth card still takes its figure, and that figure scores.
- After each round's scoring the table waits for the dealer: "begin round r+1" (the cards and
  figures are gathered meanwhile), or after round 5 "reveal the final scoring". So every round's
  scoring and the final ranking are each a moment of their own on the projector.
- Cards left in a hand when a round ends stay secret (dealer and owner); nothing reveals them.
- Dealer deal: the dealer enters the five opened numbers, then the hands of four seats; the
  last seat holds the five cards left and is dealt by itself.

Secret (dealer and the owner only): the hands (every round's as dealt, and what is left).
Public: the seats' Gallery ranks and animals, the opened cards and every card played, each
animal's current value, the figures left and who took which, whose turn and whether they play
or take, how many cards each seat holds, each round's scoring (round-end values, figures,
points), the running scores, the animal sums, ranks and bonuses, the totals, the winner and
the last, and the named opponent. ``HandDealt`` has public data (seat and round: everyone sees
the cards handed out) and the hand as its secret part, for the seat only.

Audience questions (questions.py, from the public view only): "어느 동물이 가장 높은 합계로
끝날까요?" (the five animals; closes at the next round's scoring) and, once the final scoring is
shown, "우승자 ...는 트리키 코인 상대로 누구를 지목할까요?" (the seats that may be named; closes when
the name is given), besides the kernel's "who wins?".

Table options:

- ``deal`` (default ``referee``): ``referee`` draws the openings and the hands in an automatic
  step with the table's randomness (the run sheet says what to open and hand whom);
  ``dealer``: the dealer enters the five opened numbers and each seat's five cards.
- ``gallery_ranks`` (default ``"1,2,3,4,5"``): the Gallery rank of each seat, in seat order, as
  ``"7,5,9,6,8"`` or a list of 5 distinct whole numbers (1-99). It breaks ties (Safari rule 5)
  and orders the seating steps of the run sheet; the default says seat order is rank order.

``Result.details``: ``winner``, ``last``, ``opponent`` (seats from 0), ``order`` (best first),
``animal_sums``, ``animal_ranks``, ``animal_bonuses`` (by animal name), ``figure_points``,
``bonuses``, ``totals``, ``gallery_ranks`` (by seat), ``tie_broken_by_gallery_rank``.

Recap moments (highlights.py, from the public view only): the named opponent, the final scoring,
and the round scorings where an animal's value swung most.

Error codes: safari/bad_opening, safari/no_such_seat, safari/already_dealt, safari/no_such_card,
safari/card_unavailable, safari/not_in_hand, safari/no_such_animal, safari/no_figure_left,
safari/self_opponent, safari/last_opponent.
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .decisions import turn
from .describe import describe
from .highlights import highlight
from .questions import answer, predictions
from .rules import decide, evolve, result, setup
from .state import DEAL_DEALER, DEAL_REFEREE, DEFAULT_RANKS, SEATS, SafariState, ranks_allowed
from .views import view

GAME = Game(
    id="tricky_safari",
    title=T("트리키 사파리", "Tricky Safari"),
    rules_version="1",
    # Safari rule 1: five seats, one per animal pair.
    seats=(SEATS, SEATS),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("deal", DEAL_REFEREE, (DEAL_REFEREE, DEAL_DEALER),
                   T("분배: 심판 자동 또는 딜러 입력", "Deal: by the referee or entered by the dealer")),
        OptionSpec("gallery_ranks", DEFAULT_RANKS, (DEFAULT_RANKS, "5,6,7,8,9"),
                   T("자리별 갤러리 순위 (자리 순서대로, 예: 7,5,9,6,8)",
                     "Each seat's Gallery rank, in seat order (e.g. 7,5,9,6,8)"),
                   accepts=ranks_allowed),
    ),
    default_seats=SEATS,
    describe=describe,
    reveals=frozenset({"RoundScored", "SafariScored", "OpponentNamed"}),
    winner_known=frozenset({"SafariScored"}),  # the winner then names an opponent: the result
    highlight=highlight,
    predictions=predictions,
    answer=answer,
)

__all__ = ["GAME", "SafariState", "decide", "evolve", "result", "setup", "turn", "view"]
