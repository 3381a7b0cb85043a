"""Tricky Gallery (트리키 갤러리), seed 000 section 3, under RULINGS.md "Tricky Gallery".

Rules enforced here (cited beside each check as "Gallery rule N", numbering of RULINGS.md):

1. Deal: each of the 9 seats gets one premium work and one of each normal kind (모트리키,
   진주 귀걸이를 한 트리키, 피리부는 트리키); the 9 normal works left (3 of each kind) are dealt
   one per seat at random. Each seat has 5 stickers (4 genuine, 1 fake) and 10 chips.
2. Submission, five rounds: one work from the hand plus one sticker, as ONE choice among the
   legal (work, sticker) pairs. No fake sticker on a premium work, and no submission that
   leaves the seat holding the fake sticker with no normal work to carry it later.
3. The order of entering the submission room is the seats' names in 가나다 order (Python's
   order of Hangul syllables), ascending in odd rounds, descending in even rounds; the dealer
   view shows it as the queue. The phones are not held to the order (the room door is): the
   queue marks who is next.
4. Reveal when all surviving seats have submitted: each work's kind and owner; the siren when
   two or more fakes were submitted this round (the fact only).
5. Auction entered by the dealer: the top bidder (a seat) and the bid (a number: 1 chip or more,
   no more than the winner holds), paid to the bank (move enter_auction); or a tie at the top
   (auction_tie: re-bid, entered again); or no bid (auction_no_bid, see the option).
6. Selection chain: rank 1 takes a work of another seat; the owner of the taken work is the
   next rank and takes a remaining work, never their own and never rank 1's; the last seat
   takes rank 1's work.
7. Appraisal during one's own pick turn, before picking, any number of times: 4 chips to learn
   whether one remaining work is genuine (11: any remaining work, own and rank 1's included).
8. Round end: taken works join the takers' galleries; a gallery holding 2 fakes eliminates its
   seat (public); its chips, hand, stickers and gallery leave the game. Eliminated seats take
   no further part: later rounds have fewer submissions and a shorter chain.
9. Chip transfers between surviving seats, at any time, recorded by the dealer.
10. Sale after round 5: premium 10억 each; n genuine works of a normal kind give 3^(n-1)억;
    fakes nothing. Ranking by revenue, ties to the better round-5 rank; the top 4 advance.
12. Eliminated seats rank below every survivor: a later elimination ranks better, and within
    one round the better chain rank ranks better.

Secret (the dealer and one seat): the hand, stickers left and their use, chips, the
authenticity of every work (known to its submitter), appraisals (which work and the answer,
to the appraiser only), chip transfers (to the two seats). Public: names and their 가나다
order, who has submitted, the revealed kinds and owners, the siren, the auction winner and
bid, the picks, the galleries' kinds, eliminations, the final revenues and ranking.
Appraisals and transfers write one event type, "SecretRecorded", with no public data: the
log shown to the public and to other seats leaves such entries out, and the server sends a
view only to audiences whose view changed, so nobody else learns that anything happened.

The entering order comes from the seats' names as the table was made; equal names fall back to
seat order.

Table options:

- `deal` (default `referee`): `referee` deals the 9 extra normal works with the table's
  seeded randomness (each seat's hand is a private event to that seat; the dealer view has a
  run sheet of what to hand whom); `dealer`: the dealer enters each seat's dealt extra work.
- `no_bid_rank1` (default `first_entrant`): if nobody bids, rank 1 is the first seat in the
  round's entering order; `dealer_picks`: the dealer names rank 1 instead. Either way rank 1
  pays nothing.

Audience questions (questions.py, from the public view only): "N라운드 경매는 누가 가져갈까요?"
(the seats still in; closes at the auction's result, AuctionWon), besides the kernel's "who
wins?". The public view lists every round's auction winner and bid for it (``auctions``).

Recap moments (highlights.py, from the public view only): each elimination first, then the sale,
the siren, and the auctions by their bids.

Error codes: gallery/bad_deal, gallery/already_dealt, gallery/kind_exhausted,
gallery/bad_name, gallery/bad_entry, gallery/work_not_in_hand, gallery/no_sticker_left,
gallery/fake_on_premium, gallery/fake_stranded, gallery/bad_outcome (no longer raised: the
auction is a seat and a number now), gallery/bad_bid,
gallery/not_in_game, gallery/not_enough_chips, gallery/no_bid_is_first_entrant,
gallery/no_bid_needs_seat, gallery/no_such_work, gallery/own_work, gallery/rank1_reserved,
gallery/self_transfer.
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .decisions import turn
from .describe import describe
from .highlights import highlight
from .questions import answer, predictions
from .rules import decide, evolve, result, setup
from .state import DEAL_DEALER, DEAL_REFEREE, NO_BID_DEALER, NO_BID_FIRST, SEATS, GalleryState
from .views import run_sheet, view

GAME = Game(
    id="tricky_gallery",
    title=T("트리키 갤러리", "Tricky Gallery"),
    rules_version="1",
    # Gallery rule 1 deals exactly 9 premium works and 9 extra normal works, one per seat.
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
        OptionSpec("no_bid_rank1", NO_BID_FIRST, (NO_BID_FIRST, NO_BID_DEALER),
                   T("입찰이 없을 때 1위: 입장 순서 첫 번째 또는 딜러 지정",
                     "Rank 1 when nobody bids: the first to enter, or named by the dealer"),
                   words={NO_BID_FIRST: T("입장 순서 첫 번째", "The first to enter"),
                          NO_BID_DEALER: T("딜러가 지정", "Named by the dealer")}),
    ),
    default_seats=SEATS,
    describe=describe,
    reveals=frozenset({"WorksRevealed", "AuctionWon", "SeatEliminated", "GallerySold"}),
    highlight=highlight,
    predictions=predictions,
    answer=answer,
)

__all__ = ["GAME", "GalleryState", "decide", "describe", "evolve", "result", "run_sheet", "setup", "turn", "view"]
