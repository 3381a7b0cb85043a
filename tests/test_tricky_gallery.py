"""Tricky Gallery (seed 000 section 3, RULINGS.md "Tricky Gallery" rules 1-12): pure unit tests.

The game is driven through its pure functions (setup / decide / evolve / turn / view / result);
the referee deal goes through the real Table runtime on the in-memory store, since the runtime
is what takes automatic decisions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from referee.games.tricky_gallery import GAME
from referee.games.tricky_gallery.state import GalleryState, Held, revenue
from referee.kernel import Actor, Audience, Event, Rng, RuleError
from referee.store import MemoryStore
from referee.table import Table

P, M, E, F = "premium", "motricky", "pearl", "piper"
G, X = "genuine", "fake"

# Names whose 가나다 order is not the seat order:
# 가람(1) 나래(0) 다솜(3) 라온(2) 마루(5) 바다(4) 사랑(7) 아름(6) 자두(8).
NAMES = ["나래", "가람", "라온", "다솜", "바다", "마루", "아름", "사랑", "자두"]
ASC = [1, 0, 3, 2, 5, 4, 7, 6, 8]
# Dealer-mode deal: seats 0-2 get an extra 모트리키, 3-5 a pearl, 6-8 a piper (3 of each kind).
EXTRAS = [M, M, M, E, E, E, F, F, F]


# -- helpers -------------------------------------------------------------------------------------


def apply(state: GalleryState, actor: Actor, move: dict[str, Any]) -> tuple[GalleryState, list[Event]]:
    events = GAME.decide(state, actor, move, Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def dealer(state: GalleryState, move: dict[str, Any]) -> tuple[GalleryState, list[Event]]:
    return apply(state, Actor.dealer(), move)


def new_game(options: dict[str, Any] | None = None, extras: list[str] = EXTRAS,
             names: list[str] = NAMES) -> GalleryState:
    """A match in dealer-deal mode with the given extras and names: round 1, submission."""
    opts = GAME.resolve_options({"deal": "dealer", **(options or {})})
    state = GAME.setup(tuple(names), opts, Rng(0))
    for seat, kind in enumerate(extras):
        state, _ = dealer(state, {"type": "deal_work", "deal": f"{seat}:{kind}"})
    return state


def submit(state: GalleryState, seat: int, kind: str, sticker: str) -> tuple[GalleryState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "submit_work", "entry": f"{kind}/{sticker}"})


def auction_move(outcome: Any) -> dict[str, Any]:
    """An auction result as these tests write it ("bid:seat:chips", "tie", "none", "none:seat")
    made into the dealer's move."""
    parts = outcome.split(":") if isinstance(outcome, str) else []
    if parts[:1] == ["bid"] and len(parts) == 3:
        return {"type": "enter_auction", "winner": int(parts[1]), "bid": int(parts[2])}
    if outcome == "tie":
        return {"type": "auction_tie"}
    if parts[:1] == ["none"]:
        return {"type": "auction_no_bid", **({"seat": int(parts[1])} if len(parts) == 2 else {})}
    raise ValueError(outcome)


def auction(state: GalleryState, outcome: str) -> tuple[GalleryState, list[Event]]:
    return dealer(state, auction_move(outcome))


def take(state: GalleryState, seat: int, work: Any) -> tuple[GalleryState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "take_work", "work": work})


def appraise(state: GalleryState, seat: int, work: Any) -> tuple[GalleryState, list[Event]]:
    return apply(state, Actor.of_seat(seat), {"type": "appraise", "work": work})


def transfer(state: GalleryState, giver: int, taker: int, amount: int) -> tuple[GalleryState, list[Event]]:
    return dealer(state, {"type": "transfer_chips", "from": giver, "to": taker, "amount": amount})


def first_option(state: GalleryState, seat: int, move: str) -> Any:
    (decision,) = [d for d in GAME.turn(state).for_seat(seat) if d.move == move]
    return decision.fields[0].options[0].value


def submit_all(state: GalleryState, plan: dict[int, tuple[str, str]] | None = None) -> GalleryState:
    """Every surviving seat submits: its planned (kind, sticker), else its first legal pair."""
    plan = plan or {}
    for seat in range(9):
        if state.alive[seat] and state.entries[seat] is None:
            if seat in plan:
                state, _ = submit(state, seat, *plan[seat])
            else:
                state, _ = apply(state, Actor.of_seat(seat),
                                 {"type": "submit_work", "entry": first_option(state, seat, "submit_work")})
    return state


def run_chain(state: GalleryState, cycle: list[int]) -> tuple[GalleryState, list[Event]]:
    """The chain as a cycle: cycle[0] is rank 1; cycle[i] takes cycle[i+1]'s work and the last
    takes rank 1's. Checks that each picker is the one the rules call next."""
    events: list[Event] = []
    for i, picker in enumerate(cycle):
        assert picker_now(state) == picker
        state, ev = take(state, picker, cycle[(i + 1) % len(cycle)])
        events += ev
    return state, events


def picker_now(state: GalleryState) -> int:
    (decision,) = [d for d in GAME.turn(state).decisions if d.move == "take_work"]
    return decision.seat


def play_round(state: GalleryState, plan: dict[int, tuple[str, str]], outcome: str,
               cycle: list[int]) -> tuple[GalleryState, list[Event]]:
    state = submit_all(state, plan)
    state, ev = auction(state, outcome)
    state, ev2 = run_chain(state, cycle)
    return state, ev + ev2


def auto_chain(state: GalleryState) -> GalleryState:
    """Each picker takes its first offered work until the round ends."""
    r = state.round
    while state.round == r and GAME.result(state) is None:
        seat = picker_now(state)
        state, _ = take(state, seat, first_option(state, seat, "take_work"))
    return state


def options(state: GalleryState, seat: int | None, move: str, field: int = 0) -> list[Any]:
    (decision,) = [d for d in GAME.turn(state).decisions if d.move == move and d.seat == seat]
    return [o.value for o in decision.fields[field].options]


def rule_error(state: GalleryState, actor: Actor, move: dict[str, Any]) -> RuleError:
    snapshot = replace(state)
    with pytest.raises(RuleError) as info:
        apply(state, actor, move)
    assert state == snapshot
    return info.value


def seat_view(state: GalleryState, seat: int) -> dict[str, Any]:
    return GAME.view(state, Audience.of_seat(seat))["seats"][seat]


def public(state: GalleryState) -> dict[str, Any]:
    return GAME.view(state, Audience.public())


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def new_table(seed: int, options: dict[str, Any] | None = None) -> Table:
    table = Table.create(MemoryStore(), f"g-{seed}", "tricky_gallery", [f"P{i}" for i in range(9)], options=options,
                         seed=seed, clock=lambda: 0.0)
    table.start(Actor.dealer())
    return table


# -- Gallery rule 1: the deal --------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_referee_deal_gives_premium_one_of_each_normal_and_one_random_extra(seed):
    table = new_table(seed)
    state = table.load().state
    extras = []
    for seat in range(9):
        hand = state.hands[seat]
        counts = Counter(hand)
        assert len(hand) == 5 and counts[P] == 1
        assert all(counts[k] >= 1 for k in (M, E, F))
        (extra,) = [k for k in (M, E, F) if counts[k] == 2]
        extras.append(extra)
        mine = table.view(Audience.of_seat(seat))["state"]["seats"][seat]
        assert mine["stickers"] == {"genuine": 4, "fake": 1}
        assert mine["chips"] == 10
    # 9 normal works left, 3 of each kind, one per seat.
    assert Counter(extras) == {M: 3, E: 3, F: 3}
    # The deal done, round 1 begins at once.
    assert state.step == "submit" and state.round == 1


def test_referee_deal_is_random_per_seed_and_reproducible():
    deals = {tuple(new_table(seed).load().state.extras) for seed in range(10)}
    assert len(deals) > 1
    assert new_table(3).load().state.extras == new_table(3).load().state.extras


def test_referee_deal_events_are_private_to_each_seat():
    table = new_table(1)
    dealt = [r for r in table.log(Audience.public()) if r["event"]["type"] == "HandDealt"]
    assert len(dealt) == 9
    assert all(set(r["event"]) == {"type", "seat"} for r in dealt)
    assert all(r["actor"] == "referee" for r in dealt)
    mine = [r["event"] for r in table.log(Audience.of_seat(4)) if r["event"]["type"] == "HandDealt"]
    with_hand = [e for e in mine if "hand" in e]
    assert [e["seat"] for e in with_hand] == [4]
    assert with_hand[0]["hand"] == list(table.load().state.hands[4])
    assert all("hand" in r["event"] for r in table.log(Audience.dealer()) if r["event"]["type"] == "HandDealt")
    for seat in range(9):
        seats = table.view(Audience.public())["state"]["seats"]
        assert "hand" not in seats[seat] and "chips" not in seats[seat]


def test_run_sheet_says_what_to_hand_whom_in_referee_mode():
    table = new_table(2)
    state = table.load().state
    sheet = table.view(Audience.dealer())["state"]["run_sheet"]
    assert sheet["deal"] == "referee" and sheet["dealt"] is True
    for row in sheet["seats"]:
        seat = row["seat"]
        assert row["extra"] == state.extras[seat]
        expected = Counter((P, M, E, F, state.extras[seat]))
        assert row["works"] == {k: expected[k] for k in (P, M, E, F)}
        assert row["stickers"] == {"genuine": 4, "fake": 1} and row["chips"] == 10
    assert sheet["totals"] == {"works": {P: 9, M: 12, E: 12, F: 12}, "stickers": {"genuine": 36, "fake": 9},
                               "chips": 90}
    assert sheet["lines"][0]["ko"].startswith("1번 자리(P0): 고급 작품 1")
    assert "run_sheet" not in table.view(Audience.public())["state"]
    assert "run_sheet" not in table.view(Audience.of_seat(0))["state"]


def test_dealer_deal_offers_every_seat_and_kind_left_and_refuses_the_rest():
    state = GAME.setup(tuple(NAMES), GAME.resolve_options({"deal": "dealer"}), Rng(0))
    assert len(options(state, None, "deal_work")) == 27  # 9 seats x 3 kinds
    for seat in (0, 1, 2):
        state, events = dealer(state, {"type": "deal_work", "deal": f"{seat}:{M}"})
        assert events[0].type == "HandDealt" and events[0].to == (seat,)
        assert events[0].data == {"seat": seat}
    assert state.hands[0] == (P, M, M, E, F)
    offered = options(state, None, "deal_work")
    assert len(offered) == 6 * 2 and not any(v.endswith(M) for v in offered)
    assert rule_error(state, Actor.dealer(), {"type": "deal_work", "deal": f"3:{M}"}).code == "gallery/kind_exhausted"
    assert rule_error(state, Actor.dealer(), {"type": "deal_work", "deal": f"0:{E}"}).code == "gallery/already_dealt"
    for bad in ("3:premium", "9:pearl", "x:pearl", 3):
        assert rule_error(state, Actor.dealer(), {"type": "deal_work", "deal": bad}).code == "gallery/bad_deal"
    # A seat cannot enter the deal.
    assert rule_error(state, Actor.of_seat(3), {"type": "deal_work", "deal": f"3:{E}"}).code == "move/not_owed"


def test_round_1_begins_only_when_every_seat_is_dealt():
    state = GAME.setup(tuple(NAMES), GAME.resolve_options({"deal": "dealer"}), Rng(0))
    for seat, kind in enumerate(EXTRAS[:-1]):
        state, _ = dealer(state, {"type": "deal_work", "deal": f"{seat}:{kind}"})
    assert state.step == "setup"
    state, events = dealer(state, {"type": "deal_work", "deal": f"8:{F}"})
    assert types(events) == ["HandDealt", "RoundBegan"]
    assert events[1].data == {"round": 1, "order": ASC}
    assert state.step == "submit" and state.round == 1


# -- Gallery rule 2: submission -----------------------------------------------------------------


def test_first_round_offers_every_work_with_genuine_and_every_normal_with_fake():
    state = new_game()
    assert options(state, 0, "submit_work") == [
        f"{P}/{G}", f"{M}/{G}", f"{M}/{X}", f"{E}/{G}", f"{E}/{X}", f"{F}/{G}", f"{F}/{X}",
    ]
    labels = [o.label.ko for o in GAME.turn(state).for_seat(0)[0].fields[0].options]
    assert labels[0] == "고급 작품 + 진품 스티커" and labels[2] == "모트리키 + 가품 스티커"


def test_fake_sticker_on_a_premium_work_is_refused():
    state = new_game()
    err = rule_error(state, Actor.of_seat(0), {"type": "submit_work", "entry": f"{P}/{X}"})
    assert err.code == "gallery/fake_on_premium"
    assert "premium/fake" in err.en


def test_submission_that_would_strand_the_fake_sticker_is_refused():
    state = new_game()
    # Seat 0 (hand P M M E F) spends three genuine stickers on M, E, F: P and M are left with
    # one genuine and the fake sticker.
    for kind in (M, E, F):
        state = submit_all(state, {0: (kind, G)})
        state, _ = auction(state, "none")
        state = auto_chain(state)
    assert state.hands[0] == (P, M)
    assert (state.genuine_left[0], state.fake_left[0]) == (1, 1)
    # Genuine on the last normal work would leave the fake with only the premium work.
    assert options(state, 0, "submit_work") == [f"{P}/{G}", f"{M}/{X}"]
    err = rule_error(state, Actor.of_seat(0), {"type": "submit_work", "entry": f"{M}/{G}"})
    assert err.code == "gallery/fake_stranded"
    state = submit_all(state, {0: (P, G)})
    state, _ = auction(state, "none")
    state = auto_chain(state)
    # Round 5: only the fake on the last normal work is left.
    assert options(state, 0, "submit_work") == [f"{M}/{X}"]


def test_work_not_in_hand_and_sticker_not_left_are_refused():
    state = new_game()
    state, _ = submit(state, 0, M, X)
    state = submit_all(state)
    state, _ = auction(state, "none")
    state = auto_chain(state)
    assert state.hands[0] == (P, M, E, F) and state.fake_left[0] == 0
    assert options(state, 0, "submit_work") == [f"{P}/{G}", f"{M}/{G}", f"{E}/{G}", f"{F}/{G}"]
    assert rule_error(state, Actor.of_seat(0), {"type": "submit_work", "entry": f"{E}/{X}"}).code == "gallery/no_sticker_left"
    state, _ = submit(state, 0, P, G)
    state = submit_all(state)
    state, _ = auction(state, "none")
    state = auto_chain(state)
    assert rule_error(state, Actor.of_seat(0), {"type": "submit_work", "entry": f"{P}/{G}"}).code == "gallery/work_not_in_hand"
    for bad in ("premium", "pearl/maybe", 7, "gold/genuine"):
        assert rule_error(state, Actor.of_seat(0), {"type": "submit_work", "entry": bad}).code == "gallery/bad_entry"


def test_submission_is_sealed_and_who_has_submitted_is_public():
    state = new_game()
    assert GAME.turn(state).sealed == (0, 9) and GAME.turn(state).public_waiting
    state, events = submit(state, 3, E, X)
    (event,) = events
    assert event.data == {"seat": 3, "round": 1} and event.private == {"kind": E, "sticker": X} and event.to == (3,)
    assert GAME.turn(state).sealed == (1, 9)
    view = public(state)
    assert [s["submitted"] for s in view["seats"]] == [s == 3 for s in range(9)]
    assert view["reveal"] is None
    assert "fake" not in repr(view) and "sticker" not in repr(view)
    assert all(set(s) == {"seat", "name", "name_index", "alive", "eliminated_round", "submitted", "gallery",
                          "gallery_kinds"} for s in view["seats"])
    mine = seat_view(state, 3)
    assert mine["submissions"] == [{"round": 1, "kind": E, "genuine": False, "taken_by": None}]
    assert mine["hand"] == [P, M, E, F] and mine["stickers"] == {"genuine": 4, "fake": 0}
    other = GAME.view(state, Audience.of_seat(4))["seats"][3]
    assert "submissions" not in other and "hand" not in other
    # A seat cannot submit twice in a round.
    assert rule_error(state, Actor.of_seat(3), {"type": "submit_work", "entry": f"{M}/{G}"}).code == "move/not_owed"


# -- Gallery rule 3: entering order --------------------------------------------------------------


def test_entering_order_is_gana_ascending_in_odd_rounds_descending_in_even():
    assert sorted(NAMES) == [NAMES[s] for s in ASC]  # the hand-made order is 가나다 order
    state = new_game()
    queue = GAME.view(state, Audience.dealer())["queue"]
    assert [r["seat"] for r in queue["rows"]] == ASC and queue["direction"] == "ascending"
    assert [r["name"] for r in queue["rows"]] == ["가람", "나래", "다솜", "라온", "마루", "바다", "사랑", "아름", "자두"]
    assert public(state)["entering_order"] == ASC
    assert [s["name_index"] for s in public(state)["seats"]] == [2, 1, 4, 3, 6, 5, 8, 7, 9]
    state = submit_all(state)
    state, _ = auction(state, "none")
    state, events = run_chain(state, ASC)
    assert events[-1].type == "RoundBegan" and events[-1].data == {"round": 2, "order": ASC[::-1]}
    queue = GAME.view(state, Audience.dealer())["queue"]
    assert [r["seat"] for r in queue["rows"]] == ASC[::-1] and queue["direction"] == "descending"
    state = submit_all(state)
    state, _ = auction(state, "none")  # rank 1 is 자두 (seat 8), first to enter in round 2
    state, _ = run_chain(state, ASC[::-1])
    assert [r["seat"] for r in GAME.view(state, Audience.dealer())["queue"]["rows"]] == ASC


def test_queue_marks_who_has_entered_and_who_is_next():
    state = new_game()
    assert GAME.view(state, Audience.dealer())["queue"]["next"] == 1  # 가람
    state, _ = submit(state, 1, M, G)
    state, _ = submit(state, 3, M, G)  # phones are not held to the order; the queue shows it
    queue = GAME.view(state, Audience.dealer())["queue"]
    assert queue["next"] == 0
    assert [r["submitted"] for r in queue["rows"]] == [True, False, True] + [False] * 6
    assert "queue" not in public(state) and "queue" not in GAME.view(state, Audience.of_seat(1))


# -- Gallery rule 4: reveal and siren ------------------------------------------------------------


def test_reveal_shows_every_kind_and_owner_once_all_have_submitted():
    state = new_game()
    plan = {s: (P, G) for s in range(9)} | {2: (E, G), 5: (F, X)}
    for seat in range(8):
        state, events = submit(state, seat, *plan[seat])
    assert public(state)["reveal"] is None
    state, events = submit(state, 8, *plan[8])
    assert types(events) == ["WorkSubmitted", "WorksRevealed"]
    expected = [{"seat": s, "kind": plan[s][0]} for s in range(9)]
    assert events[1].data == {"round": 1, "works": expected, "siren": False} and events[1].private is None
    assert public(state)["reveal"] == {"round": 1, "works": expected, "siren": False}
    assert GAME.view(state, Audience.dealer())["reveal"]["works"][5] == {"seat": 5, "kind": F, "genuine": False}
    assert public(state)["step"] == "auction"


@pytest.mark.parametrize("fakers,siren", [((), False), ((4,), False), ((4, 7), True), ((0, 1, 2), True)])
def test_siren_sounds_when_two_or_more_fakes_were_submitted(fakers, siren):
    state = new_game()
    state = submit_all(state, {s: (M, X) for s in fakers} | {s: (M, G) for s in range(9) if s not in fakers})
    assert state.siren is siren
    assert public(state)["reveal"]["siren"] is siren
    assert "count" not in public(state)["reveal"]


# -- Gallery rule 5: the auction -----------------------------------------------------------------


def auction_fields(state: GalleryState) -> dict[str, Any]:
    """The dealer's auction decisions as the console renders them: move -> its fields."""
    return {d.move: {f.name: f for f in d.fields} for d in GAME.turn(state).decisions if d.seat is None
            and d.move.startswith("auction") or d.move == "enter_auction"}


def test_the_auction_is_a_seat_and_a_number_not_a_list_of_every_bid():
    """Issue 12, item 2: the console showed 92 buttons (9 seats x 1-10 chips, tie, no bid)."""
    state = submit_all(new_game())
    fields = auction_fields(state)
    assert set(fields) == {"enter_auction", "auction_tie", "auction_no_bid"}
    winner, bid = fields["enter_auction"]["winner"], fields["enter_auction"]["bid"]
    assert winner.kind == "seat" and [o.value for o in winner.options] == list(range(9))
    assert (bid.shape, bid.low, bid.high) == ("number", 1, 10)
    assert fields["auction_tie"] == {} and fields["auction_no_bid"] == {}


def test_auction_winner_pays_the_bid_and_becomes_rank_1():
    state = submit_all(new_game())
    state, events = auction(state, "bid:4:7")
    assert events[0].data == {"round": 1, "seat": 4, "bid": 7, "no_bid": False}
    assert state.chips[4] == 3 and sum(state.chips) == 83  # 7 chips went to the bank
    assert public(state)["auction"] == {"ties": 0, "winner": 4, "bid": 7, "no_bid": False}
    assert picker_now(state) == 4


def test_the_winner_must_hold_the_bid():
    state = submit_all(new_game())
    err = rule_error(state, Actor.dealer(), auction_move("bid:4:11"))
    assert err.code == "move/malformed"  # above anyone's chips: out of the number's range
    state, _ = transfer(state, 2, 4, 5)
    err = rule_error(state, Actor.dealer(), auction_move("bid:2:6"))  # seat 2 now holds 5
    assert err.code == "gallery/not_enough_chips" and "6" in err.en and "5" in err.en
    assert rule_error(state, Actor.dealer(), auction_move("bid:4:0")).code == "move/malformed"
    for bad in ({"type": "enter_auction", "winner": [4], "bid": 3}, {"type": "enter_auction", "winner": 4},
                {"type": "enter_auction", "winner": 4, "bid": "3"}):
        assert rule_error(state, Actor.dealer(), bad).code == "move/malformed"
    assert rule_error(state, Actor.dealer(), {"type": "enter_auction", "winner": 12, "bid": 3}).code == \
        "gallery/not_in_game"
    # After a transfer of 5 chips seat 4 holds 15 and may bid them.
    assert auction_fields(state)["enter_auction"]["bid"].high == 15
    state, _ = auction(state, "bid:4:15")
    assert state.chips[4] == 0


def test_a_tie_at_the_top_is_re_bid():
    state = submit_all(new_game())
    state, events = auction(state, "tie")
    assert types(events) == ["AuctionTied"] and state.step == "auction"
    state, _ = auction(state, "tie")
    assert public(state)["auction"]["ties"] == 2
    state, _ = auction(state, "bid:6:2")
    assert state.winner == 6 and state.chips[6] == 8


def test_no_bid_makes_the_first_to_enter_rank_1_in_odd_and_even_rounds():
    state = submit_all(new_game())
    state, events = auction(state, "none")
    assert events[0].data == {"round": 1, "seat": 1, "bid": 0, "no_bid": True}  # 가람 enters first
    assert state.chips[1] == 10
    state, _ = run_chain(state, ASC)
    state = submit_all(state)
    state, events = auction(state, "none")
    assert events[0].data["seat"] == 8  # round 2 is descending: 자두 enters first


def test_no_bid_option_dealer_picks_names_rank_1():
    state = submit_all(new_game({"no_bid_rank1": "dealer_picks"}))
    seat = auction_fields(state)["auction_no_bid"]["seat"]
    assert seat.kind == "seat" and [o.value for o in seat.options] == list(range(9))
    assert rule_error(state, Actor.dealer(), {"type": "auction_no_bid"}).code == "move/malformed"
    assert rule_error(state, Actor.dealer(), {"type": "auction_no_bid", "seat": 9}).code == "gallery/no_bid_needs_seat"
    state, events = auction(state, "none:5")
    assert events[0].data == {"round": 1, "seat": 5, "bid": 0, "no_bid": True}


def test_default_no_bid_names_the_first_to_enter_whatever_is_sent():
    state = submit_all(new_game())
    assert auction_fields(state)["auction_no_bid"] == {}
    state, events = dealer(state, {"type": "auction_no_bid", "seat": 5})  # an extra field is ignored
    assert events[0].data["seat"] == 1


def test_only_the_dealer_enters_the_auction():
    state = submit_all(new_game())
    assert rule_error(state, Actor.of_seat(4), auction_move("bid:4:1")).code == "move/not_owed"


# -- Gallery rule 6: the selection chain ---------------------------------------------------------


def test_rank_1_takes_another_seats_work_and_its_owner_picks_next():
    state = submit_all(new_game())
    state, _ = auction(state, "bid:4:1")
    assert options(state, 4, "take_work") == [0, 1, 2, 3, 5, 6, 7, 8]
    assert rule_error(state, Actor.of_seat(4), {"type": "take_work", "work": 4}).code == "gallery/own_work"
    state, events = take(state, 4, 7)
    assert events[0].data == {"round": 1, "seat": 4, "work": 7, "kind": state.entries[7].kind, "rank": 1}
    assert picker_now(state) == 7
    # Rank 2 may take neither rank 1's work nor the work already taken.
    assert options(state, 7, "take_work") == [0, 1, 2, 3, 5, 6, 8]
    assert rule_error(state, Actor.of_seat(7), {"type": "take_work", "work": 4}).code == "gallery/rank1_reserved"
    assert rule_error(state, Actor.of_seat(7), {"type": "take_work", "work": 7}).code == "gallery/no_such_work"
    # Someone else cannot pick now.
    assert rule_error(state, Actor.of_seat(0), {"type": "take_work", "work": 1}).code == "move/not_owed"


def test_the_last_seat_must_take_rank_1s_work():
    state = submit_all(new_game())
    state, _ = auction(state, "bid:4:1")
    cycle = [4, 7, 0, 1, 2, 3, 5, 6, 8]
    for i, picker in enumerate(cycle[:-1]):
        state, _ = take(state, picker, cycle[i + 1])
    assert picker_now(state) == 8
    assert options(state, 8, "take_work") == [4]
    state, events = take(state, 8, 4)
    assert types(events)[:2] == ["WorkTaken", "RoundEnded"]
    assert events[1].data == {"round": 1, "chain": cycle, "taken": cycle[1:] + [4]}
    # Ranks follow the chain.
    assert [c["rank"] for c in state_history_chain(state)] == list(range(1, 10))


def state_history_chain(state: GalleryState) -> list[dict[str, Any]]:
    return public(state)["newest_round"]["chain"]


def test_the_dealer_may_pick_on_behalf_of_the_picker():
    state = submit_all(new_game())
    state, _ = auction(state, "bid:4:1")
    state, events = apply(state, Actor.on_behalf(4), {"type": "take_work", "work": 2})
    assert events[0].data["seat"] == 4 and picker_now(state) == 2


def test_the_chain_is_public_as_it_happens():
    state = submit_all(new_game(), {s: (P, G) for s in range(9)} | {7: (F, X)})
    state, _ = auction(state, "bid:4:1")
    state, _ = take(state, 4, 7)
    state, _ = take(state, 7, 0)
    assert public(state)["chain"] == [
        {"rank": 1, "seat": 4, "took_from": 7, "kind": F},
        {"rank": 2, "seat": 7, "took_from": 0, "kind": P},
    ]
    assert public(state)["picker"] == 0


# -- Gallery rules 7 and 11: appraisal -----------------------------------------------------------


def test_appraisal_costs_4_chips_and_answers_only_the_appraiser():
    state = submit_all(new_game(), {s: (M, G) for s in range(9)} | {6: (E, X)})
    state, _ = auction(state, "bid:4:2")  # seat 4: 8 chips
    state, events = appraise(state, 4, 6)
    (event,) = events
    assert event.type == "SecretRecorded" and event.data == {} and event.to == (4,)
    assert event.private["work"] == 6 and event.private["genuine"] is False and event.private["kind"] == E
    assert state.chips[4] == 4
    assert seat_view(state, 4)["appraisals"] == [{"round": 1, "seat": 4, "work": 6, "kind": E, "genuine": False}]
    # Nothing public: no count, no target, no answer; other seats see nothing either.
    assert "appraisals" not in public(state)
    assert "appraisals" not in GAME.view(state, Audience.of_seat(6))["seats"][4]
    assert event.visible_to(Audience.public()) == {"type": "SecretRecorded"}
    assert event.visible_to(Audience.of_seat(6)) == {"type": "SecretRecorded"}
    # Any number of times, own work and a genuine one included (rule 11).
    state, events = appraise(state, 4, 4)
    assert events[0].private["genuine"] is True and state.chips[4] == 0
    # With fewer than 4 chips the appraisal is no longer offered.
    assert [d.move for d in GAME.turn(state).for_seat(4)] == ["take_work"]
    assert rule_error(state, Actor.of_seat(4), {"type": "appraise", "work": 3}).code == "move/not_owed"


def test_appraisal_only_in_ones_own_pick_turn_and_of_works_on_the_table():
    state = submit_all(new_game())
    # Before the chain starts nobody may appraise.
    assert rule_error(state, Actor.of_seat(4), {"type": "appraise", "work": 3}).code == "move/not_owed"
    state, _ = auction(state, "bid:4:1")
    assert rule_error(state, Actor.of_seat(5), {"type": "appraise", "work": 3}).code == "move/not_owed"
    state, _ = take(state, 4, 5)
    # Seat 5 picks now: every work left, rank 1's (seat 4) included (rule 11); not seat 5's.
    assert options(state, 5, "appraise") == [0, 1, 2, 3, 4, 6, 7, 8]
    state, events = appraise(state, 5, 4)
    assert events[0].private["work"] == 4
    assert rule_error(state, Actor.of_seat(5), {"type": "appraise", "work": 5}).code == "gallery/no_such_work"
    state, _ = take(state, 5, 0)
    # After picking, seat 5's turn is over.
    assert rule_error(state, Actor.of_seat(5), {"type": "appraise", "work": 3}).code == "move/not_owed"


def test_appraisal_not_enough_chips_is_refused_even_if_asked_directly():
    from referee.games.tricky_gallery.rules import _appraise

    state = submit_all(new_game())
    state, _ = auction(state, "bid:4:7")  # 3 chips left
    # The decision is not offered, and the rule check stands behind it too.
    assert rule_error(state, Actor.of_seat(4), {"type": "appraise", "work": 3}).code == "move/not_owed"
    with pytest.raises(RuleError) as info:
        _appraise(state, 4, 3)
    assert info.value.code == "gallery/not_enough_chips"


# -- Gallery rule 8: round end and elimination ---------------------------------------------------


def test_taken_works_join_galleries_at_round_end_kinds_public_authenticity_not():
    state = submit_all(new_game(), {s: (P, G) for s in range(9)} | {7: (F, X)})
    state, _ = auction(state, "bid:4:1")
    state, _ = take(state, 4, 7)
    assert state.galleries[4] == ()  # not before the round ends
    for picker, work in ((7, 0), (0, 1), (1, 2), (2, 3), (3, 5), (5, 6), (6, 8), (8, 4)):
        state, _ = take(state, picker, work)
    assert state.galleries[4] == (Held(F, False, 7, 1),)
    gallery = public(state)["seats"][4]["gallery"]
    assert gallery == [{"kind": F, "from": 7, "round": 1}]
    assert public(state)["seats"][4]["gallery_kinds"] == {P: 0, M: 0, E: 0, F: 1}
    assert seat_view(state, 4)["gallery"] == [{"kind": F, "from": 7, "round": 1}]  # the taker does not know
    assert GAME.view(state, Audience.dealer())["seats"][4]["gallery"][0]["genuine"] is False
    # The submitter knows where its work went and that it was fake.
    assert seat_view(state, 7)["submissions"] == [{"round": 1, "kind": F, "genuine": False, "taken_by": 4}]


def test_two_fakes_in_a_gallery_eliminate_the_seat_and_everything_it_holds_leaves():
    state = new_game()
    # Round 1: seats 0 and 1 submit fakes; seat 8 takes seat 0's.
    state, _ = play_round(state, {0: (M, X), 1: (M, X)}, "bid:8:2", [8, 0, 1, 2, 3, 4, 5, 6, 7])
    assert state.alive[8] and state.eliminations == ()
    # Round 2: seat 2's fake goes to seat 8 as well.
    state = submit_all(state, {2: (E, X)})
    state, _ = auction(state, "none")  # round 2: 자두 (seat 8) enters first
    state, _ = take(state, 8, 2)
    state, _ = transfer(state, 5, 8, 3)
    events: list[Event] = []
    for picker, work in ((2, 0), (0, 1), (1, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8)):
        state, events = take(state, picker, work)
    assert types(events) == ["WorkTaken", "RoundEnded", "SeatEliminated", "RoundBegan"]
    assert events[2].data == {"round": 2, "seat": 8, "rank": 1}
    assert not state.alive[8]
    assert (state.chips[8], state.hands[8], state.genuine_left[8], state.fake_left[8], state.galleries[8]) == (0, (), 0, 0, ())
    view = public(state)
    # The view adds the final place an elimination fixes (the first out of nine is 9th).
    assert view["eliminations"] == [{"seat": 8, "round": 2, "rank": 1, "place": 9}]
    assert view["seats"][8]["alive"] is False and view["seats"][8]["eliminated_round"] == 2
    assert view["newest_round"]["eliminated"] == [8] and view["rounds_done"] == 2
    # Seat 8 takes no further part: 8 submissions, a chain of 8, not in the queue.
    assert GAME.turn(state).sealed == (0, 8)
    assert 8 not in events[3].data["order"]
    assert GAME.turn(state).for_seat(8) == ()
    assert 8 not in options(state, None, "transfer_chips", 1)
    err = rule_error(state, Actor.dealer(), {"type": "transfer_chips", "from": 0, "to": 8, "amount": 1})
    assert err.code == "gallery/not_in_game"
    state = submit_all(state)
    assert 8 not in [w["seat"] for w in public(state)["reveal"]["works"]]
    assert 8 not in [o.value for o in auction_fields(state)["enter_auction"]["winner"].options]


# -- Gallery rule 9: chip transfers --------------------------------------------------------------


def test_transfer_moves_chips_and_is_private_to_the_two_seats():
    state = new_game()
    state, events = transfer(state, 2, 5, 4)
    (event,) = events
    assert event.type == "SecretRecorded" and event.data == {} and event.to == (2, 5)
    assert event.private == {"what": "transfer", "from": 2, "to": 5, "amount": 4}
    assert state.chips[2] == 6 and state.chips[5] == 14 and sum(state.chips) == 90
    assert seat_view(state, 2)["chips"] == 6 and seat_view(state, 5)["chips"] == 14
    assert event.visible_to(Audience.of_seat(3)) == {"type": "SecretRecorded"}
    assert event.visible_to(Audience.of_seat(5))["amount"] == 4
    assert GAME.view(state, Audience.of_seat(3)) == GAME.view(new_game(), Audience.of_seat(3))
    assert public(state) == public(new_game())


def test_transfer_errors():
    state = new_game()
    assert rule_error(state, Actor.dealer(), {"type": "transfer_chips", "from": 2, "to": 2, "amount": 1}).code == \
        "gallery/self_transfer"
    assert rule_error(state, Actor.dealer(), {"type": "transfer_chips", "from": 2, "to": 3, "amount": 11}).code == \
        "move/malformed"  # above the most any seat holds
    state, _ = transfer(state, 2, 3, 5)
    err = rule_error(state, Actor.dealer(), {"type": "transfer_chips", "from": 2, "to": 3, "amount": 6})
    assert err.code == "gallery/not_enough_chips"
    assert rule_error(state, Actor.dealer(), {"type": "transfer_chips", "from": 9, "to": 3, "amount": 1}).code == \
        "gallery/not_in_game"
    assert rule_error(state, Actor.of_seat(2), {"type": "transfer_chips", "from": 2, "to": 3, "amount": 1}).code == \
        "move/not_owed"


def test_transfer_is_open_in_every_step_until_the_match_ends():
    state = GAME.setup(tuple(NAMES), GAME.resolve_options({"deal": "dealer"}), Rng(0))
    assert "transfer_chips" in [d.move for d in GAME.turn(state).for_dealer()]
    seen = set()
    state = new_game()
    while GAME.result(state) is None:
        assert "transfer_chips" in [d.move for d in GAME.turn(state).for_dealer()]
        seen.add(state.step)
        if state.step == "submit":
            state = submit_all(state)
        elif state.step == "auction":
            state, _ = auction(state, "none")
        else:
            state = auto_chain(state)
    assert seen == {"submit", "auction", "chain"}
    assert GAME.turn(state).decisions == ()


# -- Gallery rule 10: sale and ranking -----------------------------------------------------------


def held(kind: str, genuine: bool = True) -> Held:
    return Held(kind, genuine, 0, 1)


@pytest.mark.parametrize(
    "works,expected",
    [
        ([], 0),
        ([held(P)], 10),
        ([held(P), held(P)], 20),
        ([held(M)], 1),
        ([held(M), held(M)], 3),
        ([held(M)] * 3, 9),
        ([held(M)] * 4, 27),
        ([held(E)] * 5, 81),
        ([held(M), held(E), held(F)], 3),  # 1 + 1 + 1
        ([held(P), held(M), held(M), held(F), held(F)], 16),  # 10 + 3 + 3
        ([held(M), held(M, False), held(M)], 3),  # the fake is not counted: 2 genuine
        ([held(M, False)], 0),
        ([held(P), held(E, False), held(E), held(E), held(E)], 19),  # 10 + 9
    ],
)
def test_sale_values(works, expected):
    assert revenue(tuple(works)) == expected


# -- The whole match -----------------------------------------------------------------------------


def test_whole_match_with_round_3_elimination_and_a_tie_decided_by_round_5_rank():
    """Every seat submits premium in round 1, 모트리키 in 2, pearl in 3, piper in 4 and its extra
    in 5. Fakes: seats 0, 1 in round 2; 2 in round 3; 3, 4 in round 4; 5, 6, 7 in round 5.
    A chain is a cycle: cycle[i] takes cycle[i+1]'s work, the last takes rank 1's."""
    state = new_game()

    # Round 1: premiums, all genuine; seat 4 wins with 3 chips. Everyone gets a premium.
    state, _ = play_round(state, {s: (P, G) for s in range(9)}, "bid:4:3", [4, 5, 6, 7, 8, 0, 1, 2, 3])
    assert public(state)["newest_round"]["siren"] is False and public(state)["rounds_done"] == 1

    # Round 2: 모트리키; seats 0 and 1 fake (siren). 7 takes 1's fake, 8 takes 0's fake.
    plan2 = {s: (M, G) for s in range(9)} | {0: (M, X), 1: (M, X)}
    state, _ = play_round(state, plan2, "bid:2:2", [2, 3, 4, 5, 6, 7, 1, 8, 0])
    assert public(state)["newest_round"]["siren"] is True and public(state)["newest_round"]["round"] == 2
    assert state.alive[8]

    # Round 3: pearl; seat 2 fake (one fake: no siren). No bid: 가람 (seat 1) enters first and is
    # rank 1. Seat 8 takes seat 2's fake: its second fake eliminates it (rank 8 of the chain).
    plan3 = {s: (E, G) for s in range(9)} | {2: (E, X)}
    state = submit_all(state, plan3)
    assert public(state)["reveal"]["siren"] is False
    state, _ = auction(state, "none")
    assert state.winner == 1 and state.bid == 0
    state, events = run_chain(state, [1, 0, 3, 4, 5, 6, 7, 8, 2])
    assert [e.data for e in events if e.type == "SeatEliminated"] == [{"round": 3, "seat": 8, "rank": 8}]
    assert public(state)["eliminations"] == [{"seat": 8, "round": 3, "rank": 8, "place": 9}]

    # Round 4: piper; seats 3 and 4 fake (siren). Eight seats, descending order without seat 8.
    assert GAME.view(state, Audience.dealer())["queue"]["rows"][0]["seat"] == 6  # 아름; 자두 is out
    assert [r["seat"] for r in GAME.view(state, Audience.dealer())["queue"]["rows"]] == [6, 7, 4, 5, 2, 3, 0, 1]
    plan4 = {s: (F, G) for s in range(8)} | {3: (F, X), 4: (F, X)}
    state, _ = play_round(state, plan4, "bid:5:4", [5, 6, 4, 7, 0, 3, 2, 1])
    assert public(state)["newest_round"]["siren"] is True and public(state)["rounds_done"] == 4
    assert state.eliminations[-1].seat == 8

    # Round 5: the extras; seats 5, 6, 7 fake. Before the auction seat 2 gives seat 1 three chips;
    # seat 1 wins with 5. Seat 0 (rank 2) appraises seat 5's work (fake) for 4 chips, takes it
    # anyway and, with seat 3's fake from round 4, is eliminated.
    plan5 = {s: (EXTRAS[s], G) for s in range(8)} | {s: (EXTRAS[s], X) for s in (5, 6, 7)}
    state = submit_all(state, plan5)
    state, _ = transfer(state, 2, 1, 3)
    state, _ = auction(state, "bid:1:5")
    state, _ = take(state, 1, 0)
    state, events = appraise(state, 0, 5)
    assert events[0].private["genuine"] is False and events[0].to == (0,)
    cycle = [1, 0, 5, 3, 6, 4, 7, 2]
    for i in range(1, len(cycle)):
        assert picker_now(state) == cycle[i]
        state, events = take(state, cycle[i], cycle[(i + 1) % len(cycle)])
    assert types(events) == ["WorkTaken", "RoundEnded", "SeatEliminated", "GallerySold"]
    assert events[2].data == {"round": 5, "seat": 0, "rank": 2}

    # Galleries (R1..R5), by hand:
    #   1: P, M(8), E(0), F(5), M(0's extra)        = 10 + 3 + 1 + 1 = 15
    #   2: P, M(3), E(1), F(1), M(1's extra)        = 10 + 3 + 1 + 1 = 15
    #   3: P, M(4), E(4), F(2), F(6, fake)          = 10 + 1 + 1 + 1 = 13
    #   4: P, M(5), E(5), F(7), F(7, fake)          = 10 + 1 + 1 + 1 = 13
    #   5: P, M(6), E(6), F(6), E(3's extra)        = 10 + 1 + 3 + 1 = 15
    #   6: P, M(7), E(7), F(4, fake), E(4's extra)  = 10 + 1 + 3     = 14
    #   7: P, M(1, fake), E(8), F(0), M(2's extra)  = 10 + 1 + 1 + 1 = 13
    #   0 and 8 are out.
    assert events[3].data == {"revenues": [None, 15, 15, 13, 13, 15, 14, 13, None]}
    # Round-5 ranks: 1:1 0:2 5:3 3:4 6:5 4:6 7:7 2:8. Ties at 15 (1, 5, 2) and at 13 (3, 4, 7)
    # go by them; then seat 0 (out in round 5) above seat 8 (out in round 3).
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [
        (1, 1, 15), (5, 2, 15), (2, 3, 15), (6, 4, 14), (3, 5, 13), (4, 6, 13), (7, 7, 13), (0, 8, None), (8, 9, None),
    ]
    assert result.details["advancing"] == [1, 5, 2, 6]
    assert result.details["round5_ranks"] == {"1": 1, "5": 3, "3": 4, "6": 5, "4": 6, "7": 7, "2": 8}
    assert result.details["tie_broken_by_round5_rank"] is True
    assert result.winner() == 1
    # Chips: 4 paid 3, 2 paid 2 and gave 3, 5 paid 4, 1 got 3 and paid 5, 0 and 8 are out.
    assert state.chips == (0, 8, 5, 10, 7, 6, 10, 10, 0)
    final = public(state)["final"]
    assert final == {"revenues": [None, 15, 15, 13, 13, 15, 14, 13, None], "ranking": [1, 5, 2, 6, 3, 4, 7, 0, 8],
                     "advancing": [1, 5, 2, 6]}
    assert GAME.turn(state).decisions == ()


def test_eliminated_seats_rank_below_survivors_later_rounds_better_then_chain_rank():
    state = new_game()
    # Round 1: seats 0 and 1 fake; 8 takes 0's, 7 takes 1's.
    state, _ = play_round(state, {0: (M, X), 1: (M, X)}, "bid:8:1", [8, 0, 7, 1, 2, 3, 4, 5, 6])
    # Round 2: seats 4 and 5 fake; 8 takes 4's (rank 3), 7 takes 5's (rank 1): both out in round 2.
    state, events = play_round(state, {4: (M, X), 5: (M, X)}, "bid:7:1", [7, 5, 8, 4, 0, 1, 2, 3, 6])
    assert [e.data for e in events if e.type == "SeatEliminated"] == [
        {"round": 2, "seat": 7, "rank": 1}, {"round": 2, "seat": 8, "rank": 3},
    ]
    # Round 3: seat 2's fake to seat 6; round 4: seat 3's fake to seat 6, out in round 4.
    state, _ = play_round(state, {2: (E, X)}, "bid:6:1", [6, 2, 0, 1, 3, 4, 5])
    state, events = play_round(state, {3: (E, X)}, "bid:6:1", [6, 3, 0, 1, 2, 4, 5])
    assert [e.data for e in events if e.type == "SeatEliminated"] == [{"round": 4, "seat": 6, "rank": 1}]
    state = submit_all(state)
    state, _ = auction(state, "none")
    state = auto_chain(state)
    result = GAME.result(state)
    order = [s.seat for s in result.standings]
    out = [(e.seat, e.round, e.rank) for e in state.eliminations]
    later = sorted(out, key=lambda e: (-e[1], e[2]))
    assert out[:3] == [(7, 2, 1), (8, 2, 3), (6, 4, 1)]
    # Whatever round 5 adds, the eliminated come last: later rounds first, then chain rank.
    assert order[len(order) - len(out):] == [e[0] for e in later]
    assert order.index(6) < order.index(7) < order.index(8)
    survivors = [s for s in range(9) if state.alive[s]]
    assert set(order[: len(survivors)]) == set(survivors)
    assert all(s.score is None for s in result.standings[len(survivors):])
    assert result.details["advancing"] == order[:4]


def test_survivor_ranking_is_by_revenue_then_round_5_rank():
    """A constructed end state: the sale and the tie-break, independent of any chain."""
    from referee.games.tricky_gallery.rules import result as result_of
    from referee.games.tricky_gallery.state import RoundRecord

    last = RoundRecord(5, tuple(range(9)), (), False, 3, 1, (3, 1, 4, 0, 5, 2, 6, 8, 7), (), ())
    state = replace(GalleryState(), step="over", round=5, history=(last,),
                    revenues=(20, 20, 11, 20, 5, 11, 30, 1, 0))
    order = [s.seat for s in result_of(state).standings]
    # 30: 6; 20: 3 (r1), 1 (r2), 0 (r4); 11: 2 (r6), 5 (r5) -> 5 then 2; 5: 4; 1: 7; 0: 8.
    assert order == [6, 3, 1, 0, 5, 2, 4, 7, 8]
    assert result_of(state).details["advancing"] == [6, 3, 1, 0]


# -- Options and contract details ----------------------------------------------------------------


def test_options_and_defaults():
    assert GAME.resolve_options({}) == {"deal": "referee", "no_bid_rank1": "first_entrant"}
    with pytest.raises(RuleError):
        GAME.resolve_options({"deal": "robot"})
    with pytest.raises(RuleError):
        GAME.resolve_options({"no_bid_rank1": "last_entrant"})
    assert GAME.seats == (9, 9) and GAME.usual_seats == 9


def test_dealer_view_sees_every_secret_and_seat_views_only_their_own():
    state = submit_all(new_game(), {3: (E, X)})
    dealer_view = GAME.view(state, Audience.dealer())
    assert all("hand" in s and "chips" in s for s in dealer_view["seats"])
    assert dealer_view["reveal"]["works"][3]["genuine"] is False
    for seat in range(9):
        view = GAME.view(state, Audience.of_seat(seat))
        assert [("hand" in s) for s in view["seats"]] == [s == seat for s in range(9)]
        assert all("genuine" not in w for w in view["reveal"]["works"])


@pytest.mark.parametrize("deal", ["referee", "dealer"])
@pytest.mark.parametrize("no_bid", ["first_entrant", "dealer_picks"])
def test_bot_matches_finish_under_every_option_and_every_offered_option_is_legal(deal, no_bid):
    """The contract test plays the default options only; this covers the others the same way."""
    import random

    from referee.kernel.bots import pick

    for seed in range(6):
        table = new_table(seed, {"deal": deal, "no_bid_rank1": no_bid})
        rnd = random.Random(seed)
        for _ in range(3000):
            state = table.load().state
            if GAME.result(state) is not None:
                break
            for decision in GAME.turn(state).decisions:
                if decision.auto or len(decision.fields) != 1 or decision.fields[0].shape != "one":
                    continue
                actor = Actor.dealer() if decision.seat is None else Actor.of_seat(decision.seat)
                for option in decision.fields[0].options:
                    GAME.decide(state, actor, {"type": decision.move, decision.fields[0].name: option.value}, Rng(1))
            actor, move = pick(GAME.turn(state), rnd)
            try:
                table.submit(actor, move)
            except RuleError:
                pass
        result = GAME.result(table.load().state)
        assert result is not None
        assert sorted(s.rank for s in result.standings) == list(range(1, 10))
        assert len(result.details["advancing"]) == 4
