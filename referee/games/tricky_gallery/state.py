"""Tricky Gallery: the state of a match and the pure helpers the rules and views share.

Everything here is data or arithmetic over data: no decisions, no events.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from referee.kernel import T

SEATS = 9
ROUNDS = 5
START_CHIPS = 10
GENUINE_STICKERS = 4
APPRAISAL_COST = 4
PREMIUM_PRICE = 10  # 억

PREMIUM = "premium"
NORMAL_KINDS = ("motricky", "pearl", "piper")
KINDS = (PREMIUM, *NORMAL_KINDS)
KIND_LABELS = {
    PREMIUM: T("고급 작품", "premium work"),
    "motricky": T("모트리키", "Mona Tricky"),
    "pearl": T("진주 귀걸이를 한 트리키", "Tricky with a Pearl Earring"),
    "piper": T("피리부는 트리키", "Tricky the Piper"),
}
# Gallery rule 1: the 9 normal works left after the fixed part, 3 of each kind.
EXTRA_SUPPLY = 3

GENUINE, FAKE = "genuine", "fake"
STICKER_LABELS = {GENUINE: T("진품 스티커", "genuine sticker"), FAKE: T("가품 스티커", "fake sticker")}

# The table options (see the package docstring).
DEAL_REFEREE, DEAL_DEALER = "referee", "dealer"
NO_BID_FIRST, NO_BID_DEALER = "first_entrant", "dealer_picks"

# Steps of a match. ENDING is transient inside one decide: the round's works are in the
# galleries and the eliminations are being announced; no state is ever left in it.
SETUP, SUBMIT, AUCTION, CHAIN, ENDING, OVER = "setup", "submit", "auction", "chain", "ending", "over"


@dataclass(frozen=True)
class Entry:
    """A work put up for auction this round: its owner, kind and (secret) authenticity."""

    seat: int
    kind: str
    genuine: bool


@dataclass(frozen=True)
class Held:
    """A work in a gallery. Kind, submitter and round are public; `genuine` is known only to
    the submitter and the dealer (Gallery rule 8)."""

    kind: str
    genuine: bool
    submitter: int
    round: int


@dataclass(frozen=True)
class Appraisal:
    round: int
    seat: int  # who paid for it
    work: int  # the owner (submitter) of the appraised work
    kind: str
    genuine: bool


@dataclass(frozen=True)
class RoundRecord:
    """What a finished round made public, plus the submissions behind it (for the dealer)."""

    round: int
    order: tuple[int, ...]
    entries: tuple[Entry, ...]
    siren: bool
    winner: int
    bid: int
    chain: tuple[int, ...]  # pickers in rank order: chain[0] is rank 1
    taken: tuple[int, ...]  # taken[i] is the owner of the work chain[i] took
    eliminated: tuple[int, ...]


@dataclass(frozen=True)
class Elimination:
    seat: int
    round: int
    rank: int  # the seat's rank in that round's chain


@dataclass(frozen=True)
class GalleryState:
    seats: int = SEATS
    deal_mode: str = DEAL_REFEREE
    no_bid: str = NO_BID_FIRST
    names: tuple[str, ...] = ()  # the seats' names, from the table
    extras: tuple[str | None, ...] = (None,) * SEATS  # the randomly dealt normal work per seat
    hands: tuple[tuple[str, ...], ...] = ((),) * SEATS
    genuine_left: tuple[int, ...] = (GENUINE_STICKERS,) * SEATS
    fake_left: tuple[int, ...] = (1,) * SEATS
    chips: tuple[int, ...] = (START_CHIPS,) * SEATS
    alive: tuple[bool, ...] = (True,) * SEATS
    round: int = 0
    step: str = SETUP
    entries: tuple[Entry | None, ...] = (None,) * SEATS  # this round's submissions by seat
    siren: bool = False
    ties: int = 0  # tied auctions re-bid this round
    winner: int | None = None
    bid: int | None = None
    no_bid_used: bool = False
    chain: tuple[int, ...] = ()  # pickers so far, in rank order
    taken: tuple[int, ...] = ()  # owners of the works they took
    galleries: tuple[tuple[Held, ...], ...] = ((),) * SEATS
    appraisals: tuple[Appraisal, ...] = ()
    history: tuple[RoundRecord, ...] = ()
    eliminations: tuple[Elimination, ...] = ()
    revenues: tuple[int | None, ...] | None = None


# -- helpers ---------------------------------------------------------------------------------


def replace_at(values: tuple, index: int, value: object) -> tuple:
    return tuple(value if i == index else v for i, v in enumerate(values))


def sorted_hand(kinds: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(kinds, key=KINDS.index))


def without(hand: tuple[str, ...], kind: str) -> tuple[str, ...]:
    i = hand.index(kind)
    return hand[:i] + hand[i + 1 :]


def fixed_hand() -> tuple[str, ...]:
    # Gallery rule 1: one premium work and one of each normal kind, before the random extra.
    return KINDS


def name_order(state: GalleryState) -> tuple[int, ...]:
    """Every seat in 가나다 order of its name (Python's order of Hangul syllables is 가나다
    order); equal names fall back to the seat number."""
    return tuple(sorted(range(state.seats), key=lambda s: (state.names[s], s)))


def entering_order(state: GalleryState, round_: int | None = None) -> tuple[int, ...]:
    """Gallery rule 3: the surviving seats by name, ascending in odd rounds, descending in even."""
    r = state.round if round_ is None else round_
    order = [s for s in name_order(state) if state.alive[s]]
    return tuple(order if r % 2 == 1 else reversed(order))


def survivors(state: GalleryState) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if state.alive[s])


def current_picker(state: GalleryState) -> int | None:
    """Gallery rule 6: rank 1 first, then the owner of the work taken last."""
    if state.step != CHAIN:
        return None
    return state.winner if not state.taken else state.taken[-1]


def remaining_works(state: GalleryState) -> tuple[int, ...]:
    """Owners of the works still on the auction table, in seat order."""
    gone = set(state.taken)
    return tuple(s for s in range(state.seats) if state.entries[s] is not None and s not in gone)


def pickable(state: GalleryState, picker: int) -> tuple[int, ...]:
    """The works `picker` may take now (owners), per Gallery rule 6."""
    left = remaining_works(state)
    rank1 = state.winner
    # Gallery rule 6: the last seat must take rank 1's work.
    if left == (rank1,):
        return left
    # Gallery rule 6: never one's own work, and never rank 1's before the end.
    return tuple(s for s in left if s != picker and s != rank1)


def extra_supply(state: GalleryState) -> dict[str, int]:
    """Gallery rule 1: the extra normal works not dealt yet, by kind (3 of each at first)."""
    return {k: EXTRA_SUPPLY - sum(1 for e in state.extras if e == k) for k in NORMAL_KINDS}


def stranded(hand: tuple[str, ...], fake_left: int) -> bool:
    """Gallery rule 2: holding the fake sticker with no normal work left to carry it."""
    return fake_left > 0 and not any(k != PREMIUM for k in hand)


def legal_entries(state: GalleryState, seat: int) -> tuple[tuple[str, str], ...]:
    """Gallery rule 2: the (kind, sticker) pairs `seat` may submit now."""
    hand = state.hands[seat]
    out = []
    for kind in sorted_hand(tuple(set(hand))):
        rest = without(hand, kind)
        if state.genuine_left[seat] > 0 and not stranded(rest, state.fake_left[seat]):
            out.append((kind, GENUINE))
        # Gallery rule 2 (rule 4 of the seed): no fake sticker on a premium work.
        if state.fake_left[seat] > 0 and kind != PREMIUM:
            out.append((kind, FAKE))
    return tuple(out)


def revenue(gallery: tuple[Held, ...]) -> int:
    """Gallery rule 10: premium 10억 each; n genuine works of a normal kind give 3^(n-1)억;
    fakes give nothing."""
    total = PREMIUM_PRICE * sum(1 for w in gallery if w.kind == PREMIUM and w.genuine)
    for kind in NORMAL_KINDS:
        n = sum(1 for w in gallery if w.kind == kind and w.genuine)
        total += 3 ** (n - 1) if n else 0
    return total


def final_order(state: GalleryState) -> tuple[int, ...]:
    """Every seat, best first: survivors by revenue then round-5 rank (Gallery rule 10), then
    the eliminated, later eliminations first and, within a round, better chain rank first
    (Gallery rule 12)."""
    assert state.revenues is not None
    last = state.history[-1]
    r5 = {seat: i for i, seat in enumerate(last.chain)}
    alive = sorted(survivors(state), key=lambda s: (-(state.revenues[s] or 0), r5[s]))
    out = sorted(state.eliminations, key=lambda e: (-e.round, e.rank))
    return tuple(alive) + tuple(e.seat for e in out)


def seat_label(state: GalleryState, seat: int) -> T:
    return seat_label_of(state.names[seat], seat)


@lru_cache(maxsize=4096)
def seat_label_of(name: str | None, seat: int) -> T:
    if name is None:
        return T(f"{seat + 1}번 자리", f"seat {seat + 1}")
    return T(f"{seat + 1}번 자리({name})", f"seat {seat + 1} ({name})")


def kind_label(kind: str) -> T:
    return KIND_LABELS[kind]
