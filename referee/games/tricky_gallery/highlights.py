"""Tricky Gallery: a recap's moments (referee.table.replay.highlights), from the public view only.

How much a frame is worth showing again, best first:

- a seat eliminated for fakes (Gallery rule 8), more for several in one round;
- the sale after round 5 (Gallery rule 10);
- the siren, two or more fakes in one round (Gallery rule 4);
- an auction's result (Gallery rule 5), a higher bid higher; as high, the one re-bid after ties;
  an auction nobody bid on barely counts.

A round can eliminate nobody before round 2 (a gallery needs two works to hold two fakes), and
round 5's eliminations come with the sale, the match's end, which every recap keeps: so the
eliminations of rounds 2-4 fit in a match's few highlights, and a recap never leaves one out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .state import CHAIN

ELIMINATION = 100.0
SALE = 90.0
SIREN = 30.0
AUCTION = 10.0
NO_BID = 1.0
# Chips beyond BID_CAP and ties beyond TIE_CAP add nothing, so an auction stays below the sale.
BID_CAP = 50
TIE = 0.1  # per re-bid after a tie: among equal bids only (five add less than one chip)
TIE_CAP = 5


def highlight(view: Mapping[str, Any], events: tuple[str, ...]) -> float | None:
    state = view.get("state") or {}
    if "SeatEliminated" in events:
        # Gallery rule 8: a gallery holding two fakes puts its seat out at the round's end; the
        # view lists every elimination with its round (the newest finished one: rounds_done).
        out = [e for e in state.get("eliminations", ()) if e["round"] == state.get("rounds_done")]
        if out:
            return ELIMINATION + len(out)
    if "GallerySold" in events and state.get("final") is not None:
        return SALE  # Gallery rule 10: the survivors' works are sold, the ranking is known
    reveal = state.get("reveal")
    if "WorksRevealed" in events and reveal and reveal.get("siren"):
        return SIREN  # Gallery rule 4: two or more fakes were submitted this round
    auction = state.get("auction")
    if "AuctionWon" in events and state.get("step") == CHAIN and auction and auction.get("winner") is not None:
        # Gallery rule 5: the top bidder and the bid (rank 1 for nothing when nobody bid).
        if auction.get("no_bid"):
            return NO_BID
        return AUCTION + min(int(auction.get("bid") or 0), BID_CAP) + TIE * min(int(auction.get("ties") or 0), TIE_CAP)
    return None
