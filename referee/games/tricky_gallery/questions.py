"""Tricky Gallery: the hall's own questions (referee.kernel.predictions), from the public view only.

- "auction" (params: round): who takes this round's auction? Options: the seats still in.
  Asked from the round's start until its auction is won; closes at AuctionWon (Gallery rule 5:
  the dealer enters the top bidder, and that entry makes it public).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.kernel import T
from referee.kernel.predictions import Prediction, params, seat_options

from .state import AUCTION, SUBMIT

AUCTION_WINNER = "auction"


def predictions(view: Mapping[str, Any]) -> list[Prediction]:
    state = view["state"]
    # Gallery rules 4-5: the works are submitted and revealed, then auctioned; once AuctionWon
    # is in, the round's auction is decided (and public).
    if state["step"] not in (SUBMIT, AUCTION):
        return []
    r = state["round"]
    # Gallery rule 8: an eliminated seat takes no further part, so it cannot bid.
    still_in = [s["seat"] for s in state["seats"] if s["alive"]]
    return [Prediction(AUCTION_WINNER, T(f"{r}라운드 경매는 누가 가져갈까요?", f"Round {r}: who takes the auction?"),
                       seat_options(view, still_in), params(round=r), frozenset({"AuctionWon"}))]


def answer(key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    if key != AUCTION_WINNER:
        return None
    # Gallery rule 5: the auction's winner is public (the view keeps every round's).
    won = next((a for a in view["state"].get("auctions", ()) if a["round"] == given.get("round")), None)
    return None if won is None else (won["winner"],)
