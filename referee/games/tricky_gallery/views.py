"""Tricky Gallery: what each audience sees (RULINGS.md "Tricky Gallery", secret and public).

- public: names and their 가나다 position, who is still in, who has submitted (not what), the
  works of the round once revealed (kind and owner), the siren, the auction winner and bid,
  the chain as it happens, every gallery by kind (never authenticity), eliminations, and at
  the end the revenues and the ranking.
- seat n: the public part plus its own hand, stickers left, chips, its own submissions with
  their authenticity (and who took them) and its own appraisals.
- dealer: everything, plus the entering queue and the run sheet of the deal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.kernel import Audience

from .state import (
    AUCTION,
    CHAIN,
    FAKE,
    GENUINE,
    GENUINE_STICKERS,
    KINDS,
    ROUNDS,
    START_CHIPS,
    SUBMIT,
    GalleryState,
    RoundRecord,
    current_picker,
    entering_order,
    final_order,
    fixed_hand,
    kind_label,
    name_order,
    seat_label,
    sorted_hand,
    survivors,
)


def view(state: GalleryState, audience: Audience) -> dict[str, Any]:
    dealer = audience.kind == "dealer"
    index = {seat: i + 1 for i, seat in enumerate(name_order(state))}
    out_round = {e.seat: e.round for e in state.eliminations}
    seats = []
    for seat in range(state.seats):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": state.names[seat],
            "name_index": index[seat],
            "alive": state.alive[seat],
            "eliminated_round": out_round.get(seat),
            # Who has submitted is public (players walk into the room in order, Gallery rule 3).
            "submitted": state.entries[seat] is not None if state.step == SUBMIT and state.alive[seat] else None,
            "gallery": [
                {"kind": w.kind, "from": w.submitter, "round": w.round, **({"genuine": w.genuine} if dealer else {})}
                for w in state.galleries[seat]
            ],
            "gallery_kinds": _kinds(w.kind for w in state.galleries[seat]),
        }
        if audience.sees_seat(seat):
            entry.update(_secrets(state, seat))
        seats.append(entry)
    out: dict[str, Any] = {
        "game": "tricky_gallery",
        "round": state.round,
        "rounds": ROUNDS,
        "step": state.step,
        "entering_order": list(entering_order(state)) if state.round else [],
        "seats": seats,
        "reveal": _reveal(state, dealer),
        "auction": _auction(state),
        "chain": _live_chain(state),
        "picker": current_picker(state),
        "history": [_record(r, dealer) for r in state.history],
        "eliminations": [{"seat": e.seat, "round": e.round, "rank": e.rank} for e in state.eliminations],
        "final": _final(state),
    }
    if dealer:
        out["queue"] = _queue(state)
        out["run_sheet"] = run_sheet(state)
        out["appraisals"] = [_appraisal(a) for a in state.appraisals]
    return out


def _kinds(kinds: Any) -> dict[str, int]:
    listed = list(kinds)
    return {k: listed.count(k) for k in KINDS}


def _secrets(state: GalleryState, seat: int) -> dict[str, Any]:
    submissions = []
    for record in state.history:
        for e in record.entries:
            if e.seat == seat:
                taker = record.chain[record.taken.index(seat)]
                submissions.append({"round": record.round, "kind": e.kind, "genuine": e.genuine, "taken_by": taker})
    current = state.entries[seat]
    if current is not None:
        taker = state.chain[state.taken.index(seat)] if seat in state.taken else None
        submissions.append({"round": state.round, "kind": current.kind, "genuine": current.genuine, "taken_by": taker})
    return {
        "hand": list(state.hands[seat]),
        "stickers": {GENUINE: state.genuine_left[seat], FAKE: state.fake_left[seat]},
        "chips": state.chips[seat],
        "submissions": submissions,
        "appraisals": [_appraisal(a) for a in state.appraisals if a.seat == seat],
    }


def _appraisal(a: Any) -> dict[str, Any]:
    return {"round": a.round, "seat": a.seat, "work": a.work, "kind": a.kind, "genuine": a.genuine}


def _reveal(state: GalleryState, dealer: bool) -> dict[str, Any] | None:
    # Gallery rule 4: kinds and owners once everyone has submitted; the siren as a fact.
    if state.step not in (AUCTION, CHAIN):
        return None
    works = [
        {"seat": e.seat, "kind": e.kind, **({"genuine": e.genuine} if dealer else {})}
        for e in state.entries
        if e is not None
    ]
    return {"round": state.round, "works": works, "siren": state.siren}


def _auction(state: GalleryState) -> dict[str, Any] | None:
    if state.step not in (AUCTION, CHAIN):
        return None
    return {"ties": state.ties, "winner": state.winner, "bid": state.bid, "no_bid": state.no_bid_used}


def _live_chain(state: GalleryState) -> list[dict[str, Any]]:
    if state.step != CHAIN:
        return []
    kinds = {e.seat: e.kind for e in state.entries if e is not None}
    return _chain(state.chain, state.taken, kinds)


def _chain(chain: tuple[int, ...], taken: tuple[int, ...], kinds: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {"rank": i + 1, "seat": picker, "took_from": owner, "kind": kinds[owner]}
        for i, (picker, owner) in enumerate(zip(chain, taken, strict=True))
    ]


def _record(r: RoundRecord, dealer: bool) -> dict[str, Any]:
    kinds = {e.seat: e.kind for e in r.entries}
    return {
        "round": r.round,
        "order": list(r.order),
        "works": [{"seat": e.seat, "kind": e.kind, **({"genuine": e.genuine} if dealer else {})} for e in r.entries],
        "siren": r.siren,
        "winner": r.winner,
        "bid": r.bid,
        "chain": _chain(r.chain, r.taken, kinds),
        "eliminated": list(r.eliminated),
    }


def _final(state: GalleryState) -> dict[str, Any] | None:
    if state.revenues is None:
        return None
    order = final_order(state)
    return {
        "revenues": list(state.revenues),
        "ranking": list(order),
        "advancing": list(order[: min(4, len(survivors(state)))]),
    }


def _queue(state: GalleryState) -> dict[str, Any] | None:
    """Gallery rule 3: the order of entering the submission room, for the dealer's console."""
    if not state.round:
        return None
    rows = [
        {"seat": s, "name": state.names[s],
         "submitted": state.entries[s] is not None}
        for s in entering_order(state)
    ]
    waiting = [r["seat"] for r in rows if not r["submitted"]] if state.step == SUBMIT else []
    return {
        "round": state.round,
        "direction": "ascending" if state.round % 2 == 1 else "descending",
        "rows": rows,
        "next": waiting[0] if waiting else None,
    }


def run_sheet(state: GalleryState) -> dict[str, Any]:
    """What to hand to whom at the start (Gallery rule 1), for the console and a printout."""
    rows = []
    lines = []
    for seat in range(state.seats):
        extra = state.extras[seat]
        works = _kinds(fixed_hand() + ((extra,) if extra else ()))
        rows.append({
            "seat": seat,
            "name": state.names[seat],
            "extra": extra,
            "works": works,
            "stickers": {GENUINE: GENUINE_STICKERS, FAKE: 1},
            "chips": START_CHIPS,
        })
        label = seat_label(state, seat)
        hand = sorted_hand(fixed_hand() + ((extra,) if extra else ()))
        counts = Counter(hand)
        listed_ko = ", ".join(f"{kind_label(k).ko} {counts[k]}" for k in KINDS if counts[k])
        listed_en = ", ".join(f"{kind_label(k).en} {counts[k]}" for k in KINDS if counts[k])
        pending_ko = "" if extra else " (추가 일반 작품 미정)"
        pending_en = "" if extra else " (extra normal work not dealt yet)"
        lines.append({
            "ko": f"{label.ko}: {listed_ko}{pending_ko} / 스티커 진품 {GENUINE_STICKERS}, 가품 1 / 칩 {START_CHIPS}",
            "en": f"{label.en}: {listed_en}{pending_en} / stickers genuine {GENUINE_STICKERS}, fake 1 / chips {START_CHIPS}",
        })
    return {
        "deal": state.deal_mode,
        "dealt": None not in state.extras,
        "seats": rows,
        "lines": lines,
        "totals": {
            "works": _kinds(k for row in rows for k, n in row["works"].items() for _ in range(n)),
            "stickers": {GENUINE: GENUINE_STICKERS * state.seats, FAKE: state.seats},
            "chips": START_CHIPS * state.seats,
        },
    }
