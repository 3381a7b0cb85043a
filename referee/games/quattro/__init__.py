"""Quattro (콰트로), the death match of seed 001 (The Genius: Grand Final, episode 9), under
RULINGS.md "Quattro". Checks cite "Quattro rule N" (numbering of RULINGS.md).

Rules:

1. Deck: red, blue, green, yellow 1-6 and two 0s (26 cards: ``R1``..``R6``, ``B1``.., ``G1``..,
   ``Y1``.., ``0a``, ``0b``). Each of the two candidates (seats 0 and 1) gets 4. Each may take
   up to two mulligans: the 4 cards go back, the deck (every card not in a hand) is reshuffled
   and 4 new cards are dealt. After the second mulligan the hand is kept without asking.
2. The remaining 18 go 3 each to six virtual players (0-5, shown 1-6).
3. The dealer names the first player (before the deal). Each candidate opens one card; then,
   alternating from the first player, each either passes or exchanges one unopened card (a card
   received earlier included) with a virtual player it has not exchanged with yet. The given
   card lies face up with the virtual player; the received card goes into the hand, secret.
   When both pass in a row, each opens one more card and the next exchange phase starts again
   with the first player. Exchanges with all six are owed before the fourth card opens, so in
   the third exchange phase (after three cards are open) a candidate who has exchanged with
   fewer than six cannot pass; in phases 1 and 2 passing is free. A candidate who has exchanged
   with all six can only pass. The fourth card is the last one in the hand and opens by itself.
4. The virtual player's card is computed by the referee from the cards it held before this
   exchange (its face-up cards from earlier exchanges included, the card just given not): a 0
   if it has one (``0a`` before ``0b``); otherwise its highest card whose colour and number both
   differ from every card the exchanging candidate has opened; otherwise its highest card.
   Equal numbers: red, then blue, then yellow, then green.
5. A quattro is four different colours and four different numbers, each 0 its own colour and
   number. Both quattros: the higher sum wins, then the higher highest card, then the next
   highest, and so on. Only one quattro: it wins. Neither: as if both. Equal all the way: a
   draw, which the dealer resolves (a dealer decision, in the log). ``decided_by`` names the
   step that decided.

Openings are sealed: both candidates choose the card to open secretly (the public sees who has
chosen, not what), and both are revealed together. The seed has both open "one card" at the
same moment, and a sealed choice keeps either from reacting to the other's card.

Secret: each candidate's hand and the cards virtual players gave it (dealer and that candidate
only); its sealed opening until revealed; the cards it returned in a mulligan; every virtual
player's cards (dealer only), including which branch of rule 4 chose a card. Public: the first
player, who took how many mulligans and who kept, the opened cards, every card given to a
virtual player (face up) with the giver, whose turn, each candidate's exchanges (with whom, in
order) and passes, who still owes exchanges, and at the end both hands, sums, quattros and the
comparison. The public list of face-up cards is the record of what was given: when a virtual
player later hands its face-up card to the other candidate, the public view does not show it
leaving, because that would tell which card the receiver got (rule 3 keeps it secret).

Table options:

- ``deal`` (default ``referee``): ``referee`` shuffles and deals with the table's seeded
  randomness (automatic steps, written into the log); ``dealer`` has the dealer enter the 4
  cards of each hand (again after each mulligan) and the 3 cards of virtual players 1-5 (the 6th
  gets the 3 left).

Recap moments (highlights.py, from the public view only): the final comparison, the openings
that ended a candidate's hope of a quattro, then the closest openings.

Error codes: ``quattro/no_such_seat``, ``quattro/no_such_card``, ``quattro/not_in_deck``,
``quattro/no_such_choice``, ``quattro/no_mulligan_left``, ``quattro/card_opened``,
``quattro/not_in_hand``, ``quattro/bad_choice``, ``quattro/no_such_virtual``,
``quattro/already_exchanged``, ``quattro/must_exchange``; and the kernel's ``move/not_owed`` and
``move/malformed``.

Moves: ``choose_first {seat}`` (dealer), ``enter_hand {cards: 4}`` and ``enter_virtual
{cards: 3}`` (dealer, ``deal=dealer``), ``mulligan {choice: keep|mulligan}``, ``open_card
{card}``, ``exchange {card, vp}`` and ``pass {}`` (seats: two short fields, my card then the
virtual player, with the pass as its own decision beside it), ``resolve_draw {winner}``
(dealer). Automatic: ``deal`` and ``deal_virtual`` (``deal=referee``). The one-field exchange of
earlier logs, ``exchange {choice: pass | "<card>@<vp>"}``, is still read (a correction applies
logged moves again); a malformed ``choice`` is ``quattro/bad_choice``.
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .cards import DECK, Comparison, compare, is_quattro, virtual_choice
from .describe import describe
from .highlights import highlight
from .rules import decide, setup, turn
from .state import DEALER, REFEREE, QuattroState, evolve
from .views import result, view

GAME = Game(
    id="quattro",
    title=T("콰트로", "Quattro"),
    rules_version="1",
    seats=(2, 2),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("deal", REFEREE, (REFEREE, DEALER),
                   T("카드 배분: referee(심판이 섞어 배분) 또는 dealer(딜러가 실제 배분을 입력)",
                     "Deal: referee (the referee shuffles and deals) or dealer (the dealer enters the physical deal)")),
    ),
    describe=describe,
    reveals=frozenset({"CardsOpened", "HandsCompared"}),
    highlight=highlight,
)

__all__ = ["DECK", "GAME", "Comparison", "QuattroState", "compare", "is_quattro", "virtual_choice"]
