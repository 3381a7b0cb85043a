"""Reef (리프), seed 004, under RULINGS.md "Reef". Cards: ``cards.json`` (a copy of
``shared/reference/reef_cards.json``), numbered 1-60 in the source's order.

Rules enforced here (cited beside each check as "Reef rule N"):

1. Setup: 2-4 seats. Corals per colour (red, yellow, purple, green): 18 with 2 players, 24 with 3,
   28 with 4. Each seat gets 3 points. The 60 cards are shuffled; 2 to each seat; 3 face up (the
   display). Seat 1 has the starfish board and plays first, then seat order, round after round.
2. Start corals: each seat puts one coral of each colour on the four centre cells (B2, C2, B3,
   C3), one a cell, arranged as it chooses (one `assign` decision per seat, all at once). They
   come out of the supply. Later corals may go anywhere, the centre included.
3. A turn is one of: take a display card (rule 4), draw the deck's top card (rule 5), play a card
   from hand (rule 6). A seat holding 4 cards cannot take or draw: it must play.
4. Taking a display card takes the points lying on it too; the slot is refilled from the deck's
   top. If the deck is empty and cannot refill the slot, the game ends at once (rule 9).
5. Drawing the deck's top card costs 1 point (none: no draw), put on the display card with the
   lowest printed points (points on it ignored); among equal ones the player chooses. Drawing
   the last card does not end the game.
6. Playing a card: it is shown and laid beside the board; its two corals come from the supply
   (a colour that is gone gives only what is left, and the card still scores) and go, one at a
   time, on any cell: empty or on a stack lower than 4. Corals never move. With two corals of
   different colours the player chooses which goes first.
7. Scoring on play: the card's points times the maximum number of matches of its pattern that
   share no stack, any rotation. Only a stack's top coral counts; its height only where the card
   prints a number (exactly, or at least with "+"). A four-colour card takes any top colour.
8. "Highest stack surrounded by" cards: the tallest stack topped by the centre colour (among
   equal ones the best count), points times the 8 neighbours topped by the other colour; no
   such stack: 0.
9. End: a colour whose supply reaches 0 runs out; the round is then finished to the last seat
   in turn order. The empty deck that cannot refill the display ends the game at once.
10. Then, from seat 1 on, each card left in hand scores its points once if it matches at least
    once (a highest-surround card: at least one neighbour).
11. Ranking: most points; ties: fewer empty cells, then more 4-high stacks, else a shared place.
12. Secret (the dealer and the owner): each hand, each point total (until the end); the deck's
    order (the dealer only). Public: the boards, the cards played and each scoring (as at the
    table, where tokens are taken in sight), hand sizes, the display and the points on it, the
    deck's count, the supply left, whose turn. At the end the hands and totals are shown.

Table options:

- `deal` (default `referee`): `referee` shuffles in an automatic decision (the seed's shuffle),
  deals and refills from that order; the dealer's run sheet says what to hand whom and lay out.
  `dealer`: a physical deck; the dealer enters each card dealt, drawn or laid out by its number
  (the run sheet prints the catalogue).

Recap moments (highlights.py, from the public view only): the end, and the plays that scored most.

Error codes: reef/card_out, reef/start_cell_twice, reef/not_on_display, reef/not_lowest,
reef/not_in_hand, reef/no_such_coral, reef/no_such_cell, reef/stack_full. (Moves that the
options already exclude are refused by the kernel: move/not_owed for a take or a draw that is not
offered, move/malformed for a start cell off the centre or a card number outside 1-60.)
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .cards import CARDS, COLOURS, DECK, Card
from .decisions import turn
from .highlights import highlight
from .patterns import Score, cell_name, matches, packing, score
from .rules import decide, evolve, result, setup
from .state import DEAL_DEALER, DEAL_REFEREE, ReefState
from .views import describe, view

GAME = Game(
    id="reef",
    title=T("리프", "Reef"),
    rules_version="1",
    seats=(2, 4),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("deal", DEAL_REFEREE, (DEAL_REFEREE, DEAL_DEALER),
                   T("분배: 심판 자동 또는 딜러 입력", "Deal: by the referee or entered by the dealer")),
    ),
    default_seats=4,
    describe=describe,
    reveals=frozenset({"CardScored", "FinalScores"}),
    highlight=highlight,
)

__all__ = ["CARDS", "COLOURS", "DECK", "GAME", "Card", "ReefState", "Score", "cell_name", "decide", "evolve",
           "matches", "packing", "result", "score", "setup", "turn", "view"]
