"""What each audience sees of a Quattro match, and the result."""

from __future__ import annotations

from typing import Any

from referee.kernel import Audience, Result, Standing

from .cards import Comparison, decided_by, label
from .state import OVER, SEATS, VIRTUALS, QuattroState, must_exchange


def _comparison(c: Comparison | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {"hands": [list(h) for h in c.hands], "quattro": list(c.quattro), "sums": list(c.sums),
            "winner": c.winner, "rule": c.rule, "position": c.position}


def view(state: QuattroState, audience: Audience) -> dict[str, Any]:
    seats = []
    for s in SEATS:
        entry: dict[str, Any] = {
            "seat": s,
            "opened": list(state.opened[s]),
            "hand_count": len(state.hands[s]),
            "mulligans": state.mulligans[s],
            "kept": state.kept[s],
            "exchanged_with": list(state.exchanged[s]),
            "exchanges": len(state.exchanged[s]),
            "passes": sum(1 for a in state.actions if a.seat == s and a.vp is None),
            "must_exchange": must_exchange(state, s),
            "open_submitted": state.sealed_open[s] is not None,
        }
        if audience.sees_seat(s):
            # Secret to the seat: its hand, the cards the virtual players gave it, its sealed opening.
            entry["hand"] = list(state.hands[s])
            entry["received"] = [{"vp": vp, "card": card} for vp, card in state.received[s]]
            entry["open_choice"] = state.sealed_open[s]
        seats.append(entry)
    virtual = []
    for vp in VIRTUALS:
        # Public: every card a candidate gave this virtual player (laid face up) and by whom. Whether
        # it later gave that card on is not shown: that would tell which card the receiver got.
        entry = {
            "vp": vp,
            "face_up": [{"seat": s, "card": card} for s, card in state.given[vp]],
            "exchanged_with": [s for s, _ in state.given[vp]],
        }
        if audience.kind == "dealer" and vp < len(state.virtual):
            held = state.virtual[vp]
            laid = {card for _, card in state.given[vp]}
            entry["holding"] = list(held)
            entry["hidden"] = [card for card in held if card not in laid]
        virtual.append(entry)
    out: dict[str, Any] = {
        "deal": state.deal,
        "step": state.step,
        "first": state.first,
        "phase": state.phase,
        "to_act": state.to_act,
        "seats": seats,
        "virtual": virtual,
        "actions": [{"phase": a.phase, "seat": a.seat, "action": "pass" if a.vp is None else "exchange",
                     "vp": a.vp, "given": a.given} for a in state.actions],
        "comparison": _comparison(state.comparison),
        "winner": state.winner,
        "resolved_by_dealer": state.resolved_by_dealer,
    }
    if audience.kind == "dealer":
        out["deck"] = list(state.deck)
        out["panel"] = _panel(state)
    return out


def _cards(cards) -> dict[str, str]:
    ordered_cards = list(cards)
    return {"ko": ", ".join(label(c).ko for c in ordered_cards) or "-", "en": ", ".join(label(c).en for c in ordered_cards) or "-"}


def _panel(state: QuattroState) -> list[dict[str, Any]]:
    """Every secret for the dealer's console: both hands, what each virtual player still hides,
    the deck."""
    hands: list[list[Any]] = [[{"ko": "후보", "en": "Candidate"}, {"ko": "손패", "en": "Hand"}, {"ko": "공개", "en": "Opened"},
                               {"ko": "받은 카드", "en": "Received"}]]
    for s in SEATS:
        hands.append([{"ko": f"{s + 1}번", "en": f"Seat {s + 1}", "tone": "now" if state.to_act == s else None},
                      {**_cards(state.hands[s]), "tone": "secret"}, _cards(state.opened[s]),
                      _cards(card for _, card in state.received[s])])
    virtual: list[list[Any]] = [[{"ko": "가상 플레이어", "en": "Virtual player"}, {"ko": "숨긴 카드", "en": "Hidden cards"},
                                 {"ko": "앞면 (받은 카드)", "en": "Face up (given to it)"}]]
    for vp in VIRTUALS:
        if vp < len(state.virtual):
            laid = [card for _, card in state.given[vp]]
            virtual.append([{"ko": f"가상 {vp + 1}", "en": f"Virtual {vp + 1}"},
                            {**_cards(c for c in state.virtual[vp] if c not in laid), "tone": "secret"}, _cards(laid)])
    return [{"heading": {"ko": "후보의 손패", "en": "The candidates' hands"}, "table": hands},
            {"heading": {"ko": "가상 플레이어", "en": "Virtual players"}, "table": virtual},
            {"heading": {"ko": "덱", "en": "Deck"}, "paragraphs": [_cards(state.deck)]}]


def result(state: QuattroState) -> Result | None:
    if state.step != OVER or state.comparison is None or state.winner is None:
        return None
    c, w = state.comparison, state.winner
    return Result(
        (Standing(w, 1, c.sums[w]), Standing(1 - w, 2, c.sums[1 - w])),
        decided_by(c, state.resolved_by_dealer),
        {"rule": c.rule, "position": c.position, "quattro": list(c.quattro), "sums": list(c.sums),
         "hands": [list(h) for h in c.hands], "resolved_by_dealer": state.resolved_by_dealer},
    )
