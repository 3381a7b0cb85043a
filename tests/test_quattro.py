"""Quattro (seed 001 death match, RULINGS.md "Quattro" rules 1-5): pure unit tests and whole-game
scenarios computed by hand. A few tests go through the real Table runtime on the in-memory store.

Cards: R red, B blue, G green, Y yellow with the number; 0a and 0b are the zeros. Seats 0 and 1
are the candidates; virtual players are 0-5 (shown 1-6).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from referee.games.quattro import DECK, GAME, QuattroState, compare, is_quattro, virtual_choice
from referee.kernel import Actor, Audience, Event, Rng, RuleError, T, seat_names
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table

DEALER = Actor.dealer()


def seat(n: int) -> Actor:
    return Actor.of_seat(n)


# -- helpers -------------------------------------------------------------------------------------


def new(deal: str = "dealer") -> QuattroState:
    return GAME.setup(seat_names(2), GAME.resolve_options({"deal": deal}), Rng(0))


def apply(state: QuattroState, actor: Actor, move: Any, rng: Rng | None = None) -> tuple[QuattroState, list[Event]]:
    events = GAME.decide(state, actor, move, rng or Rng(0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def automatic(state: QuattroState, rng: Rng) -> tuple[QuattroState, list[Event]]:
    """The referee's automatic steps (deals in deal=referee), as the runtime takes them."""
    events: list[Event] = []
    while (auto := GAME.turn(state).automatic()) is not None:
        state, ev = apply(state, Actor.referee(), {"type": auto.move}, rng)
        events += ev
    return state, events


def rule_error(state: QuattroState, actor: Actor, move: Any) -> RuleError:
    snapshot = replace(state)
    with pytest.raises(RuleError) as info:
        apply(state, actor, move)
    assert state == snapshot
    return info.value


def options(state: QuattroState, who: int | None, move: str | None = None) -> list[Any]:
    decisions = [d for d in GAME.turn(state).decisions if d.seat == who and not d.auto and move in (None, d.move)]
    (decision,) = decisions
    return [o.value for o in decision.fields[0].options]


def choices(state: QuattroState, who: int) -> list[str]:
    """What the seat to act may do in an exchange phase, one string each: "pass" (its own
    decision), then "card@vp" for every card and virtual player of the two-field exchange."""
    owed = {d.move: d for d in GAME.turn(state).decisions if d.seat == who}
    assert set(owed) <= {"exchange", "pass"}, owed
    out = ["pass"] if "pass" in owed else []
    if "exchange" in owed:
        card, vp = owed["exchange"].fields
        assert (card.name, vp.name) == ("card", "vp")
        out += [f"{c.value}@{v.value}" for v in vp.options for c in card.options]
    return out


def moves_owed(state: QuattroState) -> list[tuple[int | None, str]]:
    return [(d.seat, d.move) for d in GAME.turn(state).decisions]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def choose_first(state: QuattroState, first: int) -> QuattroState:
    return apply(state, DEALER, {"type": "choose_first", "seat": first})[0]


def enter_hand(state: QuattroState, cards: list[str]) -> tuple[QuattroState, list[Event]]:
    return apply(state, DEALER, {"type": "enter_hand", "cards": cards})


def mulligan(state: QuattroState, s: int, choice: str) -> tuple[QuattroState, list[Event]]:
    return apply(state, seat(s), {"type": "mulligan", "choice": choice})


def enter_virtuals(state: QuattroState, vps: list[list[str]]) -> tuple[QuattroState, list[Event]]:
    """The dealer enters virtual players 1-5; the 6th gets the 3 cards left, which must be vps[5]."""
    events: list[Event] = []
    for cards in vps[:5]:
        state, ev = apply(state, DEALER, {"type": "enter_virtual", "cards": cards})
        events += ev
    assert state.virtual[5] == tuple(vps[5])
    return state, events


def dealt(first: int, hand0: list[str], hand1: list[str], vps: list[list[str]]) -> QuattroState:
    """A dealer-mode match up to the first opening, no mulligans."""
    state = choose_first(new("dealer"), first)
    state, _ = enter_hand(state, hand0)
    state, _ = enter_hand(state, hand1)
    state, _ = mulligan(state, 0, "keep")
    state, _ = mulligan(state, 1, "keep")
    state, _ = enter_virtuals(state, vps)
    return state


def open_cards(state: QuattroState, c0: str, c1: str) -> tuple[QuattroState, list[Event]]:
    state, _ = apply(state, seat(0), {"type": "open_card", "card": c0})
    return apply(state, seat(1), {"type": "open_card", "card": c1})


def ex(state: QuattroState, s: int, card: str, vp: int) -> tuple[QuattroState, Event]:
    state, events = apply(state, seat(s), {"type": "exchange", "card": card, "vp": vp})
    assert events[0].type == "Exchanged"
    return state, events[0]


def pas(state: QuattroState, s: int) -> tuple[QuattroState, list[Event]]:
    return apply(state, seat(s), {"type": "pass"})


# A deal used by several tests (dealer mode): 8 cards in hands, 18 with the virtual players.
HAND0 = ["R6", "B5", "G1", "Y2"]
HAND1 = ["R1", "B2", "G6", "Y5"]
VPS = [
    ["R2", "B3", "0a"],
    ["R3", "G4", "Y6"],
    ["B6", "G2", "Y1"],
    ["R4", "B1", "G5"],
    ["G3", "Y3", "0b"],
    ["R5", "B4", "Y4"],
]


def opened_once(first: int = 1) -> QuattroState:
    state = dealt(first, HAND0, HAND1, VPS)
    state, _ = open_cards(state, "R6", "G6")
    return state


# -- Quattro rule 1: the deck, the deal, mulligans ------------------------------------------------


def test_deck_is_four_colours_one_to_six_and_two_zeros():
    assert len(DECK) == len(set(DECK)) == 26
    for colour in "RBGY":
        assert [c for c in DECK if c[0] == colour] == [f"{colour}{n}" for n in range(1, 7)]
    assert [c for c in DECK if c[0] == "0"] == ["0a", "0b"]


def test_options_deal_defaults_to_referee_and_accepts_dealer():
    assert GAME.resolve_options({}) == {"deal": "referee"}
    assert GAME.resolve_options({"deal": "dealer"}) == {"deal": "dealer"}
    with pytest.raises(RuleError) as info:
        GAME.resolve_options({"deal": "robot"})
    assert info.value.code == "table/bad_option"
    assert new("referee").deal == "referee"
    assert GAME.seats == (2, 2)


def test_the_dealer_first_names_the_first_player():
    state = new("referee")
    assert moves_owed(state) == [(None, "choose_first")]
    assert options(state, None) == [0, 1]
    # The candidates are offered by name, as a seat field (the screens' seat widget).
    field = GAME.turn(state).decisions[0].fields[0]
    assert field.kind == "seat"
    assert [(o.label.ko, o.label.en) for o in field.options] == [("1번 Seat 1", "1 Seat 1"), ("2번 Seat 2", "2 Seat 2")]
    state, events = apply(state, DEALER, {"type": "choose_first", "seat": 1})
    assert events == [Event("FirstPlayerSet", {"seat": 1})]
    assert state.first == 1
    assert GAME.view(state, Audience.public())["first"] == 1
    # Next comes the referee's automatic deal.
    assert GAME.turn(state).automatic().move == "deal"


def test_the_first_player_is_chosen_and_logged_by_name():
    state = GAME.setup(("가람", "나래"), GAME.resolve_options({"deal": "dealer"}), Rng(0))
    decision = GAME.turn(state).decisions[0]
    assert decision.move == "choose_first"
    assert [(o.value, o.label.ko, o.label.en) for o in decision.fields[0].options] == [
        (0, "1번 가람", "1 가람"), (1, "2번 나래", "2 나래")]
    state, events = apply(state, DEALER, {"type": "choose_first", "seat": 1})
    assert GAME.describe(events[0].visible_to(Audience.public()), state.names) == T("선 플레이어: 2번 나래", "First player: 2 나래")
    # The dealer's next prompt names the candidate too.
    prompt = GAME.turn(state).decisions[0].prompt
    assert (prompt.ko, prompt.en) == ("1번 가람에게 준 카드 4장을 입력하세요", "Enter the 4 cards dealt to 1 가람")


@pytest.mark.parametrize("value", [2, -1, "0", "seat 1"])
def test_first_player_must_be_a_seat(value):
    err = rule_error(new(), DEALER, {"type": "choose_first", "seat": value})
    assert err.code == "quattro/no_such_seat"
    assert repr(value) in err.ko and repr(value) in err.en


def test_referee_deal_gives_four_secret_cards_to_each_candidate():
    state = choose_first(new("referee"), 0)
    state, events = automatic(state, Rng(7))
    assert types(events) == ["HandDealt", "HandDealt"]
    for s, event in enumerate(events):
        assert event.data == {"seat": s, "mulligan": 0}
        assert event.to == (s,)
        assert len(event.private["cards"]) == 4
    hands = [set(state.hands[0]), set(state.hands[1])]
    assert len(hands[0]) == len(hands[1]) == 4 and not hands[0] & hands[1]
    # The 18 others stay in the deck until the virtual players are dealt.
    assert set(state.deck) == set(DECK) - hands[0] - hands[1]
    assert len(state.deck) == 18
    assert state.step == "mulligan"
    assert moves_owed(state) == [(0, "mulligan"), (1, "mulligan")]
    assert options(state, 0) == ["keep", "mulligan"]


def test_referee_deal_is_reproducible_from_the_rng_and_differs_between_seeds():
    first = choose_first(new("referee"), 0)
    a, _ = automatic(first, Rng(7))
    b, _ = automatic(first, Rng(7))
    c, _ = automatic(first, Rng(8))
    assert a.hands == b.hands
    assert a.hands != c.hands


def test_dealer_deal_enters_seat_0_then_seat_1_from_the_cards_left():
    state = choose_first(new("dealer"), 0)
    assert moves_owed(state) == [(None, "enter_hand")]
    assert options(state, None) == list(DECK)
    state, events = enter_hand(state, ["Y2", "R6", "G1", "B5"])
    # Recorded in deck order, secret to seat 0.
    assert events == [Event("HandDealt", {"seat": 0, "mulligan": 0}, {"cards": ["R6", "B5", "G1", "Y2"]}, (0,))]
    assert moves_owed(state) == [(None, "enter_hand")]
    assert options(state, None) == [c for c in DECK if c not in HAND0]
    err = rule_error(state, DEALER, {"type": "enter_hand", "cards": ["R6", "R1", "B2", "G6"]})
    assert err.code == "quattro/not_in_deck"
    assert "R6" in err.ko and "R6" in err.en
    err = rule_error(state, DEALER, {"type": "enter_hand", "cards": ["R7", "R1", "B2", "G6"]})
    assert err.code == "quattro/no_such_card"
    assert "'R7'" in err.en
    err = rule_error(state, DEALER, {"type": "enter_hand", "cards": ["R1", "B2", "G6"]})
    assert err.code == "move/malformed"
    state, _ = enter_hand(state, HAND1)
    assert state.hands == (("R6", "B5", "G1", "Y2"), ("R1", "B2", "G6", "Y5"))
    assert moves_owed(state) == [(0, "mulligan"), (1, "mulligan")]


def test_a_mulligan_returns_the_four_cards_reshuffles_and_deals_four_new_ones():
    state = choose_first(new("referee"), 0)
    state, _ = automatic(state, Rng(1))
    old0, hand1 = state.hands
    state, events = mulligan(state, 0, "mulligan")
    assert events == [Event("MulliganTaken", {"seat": 0, "mulligans": 1}, {"returned": list(old0)}, (0,))]
    # The four cards are back in the deck (22 cards: all but seat 1's hand).
    assert set(state.deck) == set(DECK) - set(hand1)
    assert state.hands[0] == ()
    assert GAME.turn(state).automatic().move == "deal"
    # Seat 1 may decide meanwhile.
    assert (1, "mulligan") in moves_owed(state)
    deck_before = set(state.deck)
    state, events = automatic(state, Rng(2))
    assert types(events) == ["HandDealt"]
    assert events[0].data == {"seat": 0, "mulligan": 1}
    new0 = set(state.hands[0])
    assert len(new0) == 4 and new0 <= deck_before and not new0 & set(hand1)
    assert state.hands[1] == hand1
    assert len(state.deck) == 18
    assert options(state, 0) == ["keep", "mulligan"]
    assert GAME.view(state, Audience.public())["seats"][0]["mulligans"] == 1


def test_at_most_two_mulligans_the_third_hand_is_kept_by_itself():
    state = choose_first(new("referee"), 0)
    state, _ = automatic(state, Rng(1))
    state, _ = mulligan(state, 1, "mulligan")
    state, _ = automatic(state, Rng(2))
    # After one mulligan: keep, or the last mulligan.
    assert options(state, 1) == ["keep", "mulligan"]
    state, _ = mulligan(state, 1, "mulligan")
    state, events = automatic(state, Rng(3))
    # The second mulligan's hand is kept without a decision.
    assert types(events) == ["HandDealt", "HandKept"]
    assert events[1].data == {"seat": 1, "mulligans": 2, "forced": True}
    assert state.kept == (False, True)
    assert moves_owed(state) == [(0, "mulligan")]
    err = rule_error(state, seat(1), {"type": "mulligan", "choice": "mulligan"})
    assert err.code == "move/not_owed"
    # Seat 0 keeps without a mulligan: the virtual players are dealt next.
    state, events = mulligan(state, 0, "keep")
    assert events == [Event("HandKept", {"seat": 0, "mulligans": 0, "forced": False})]
    assert state.step == "virtual"
    assert GAME.turn(state).automatic().move == "deal_virtual"


def test_mulligan_limit_is_checked_even_on_a_constructed_state():
    state = choose_first(new("referee"), 0)
    state, _ = automatic(state, Rng(1))
    # A state that cannot arise in play (two mulligans and not kept) still refuses a third.
    state = replace(state, mulligans=(2, 0))
    assert options(state, 0) == ["keep"]
    err = rule_error(state, seat(0), {"type": "mulligan", "choice": "mulligan"})
    assert err.code == "quattro/no_mulligan_left"
    assert "2" in err.ko and "2" in err.en


@pytest.mark.parametrize("choice", ["discard", "", 7, "KEEP"])
def test_mulligan_choice_is_keep_or_mulligan(choice):
    state = choose_first(new("referee"), 0)
    state, _ = automatic(state, Rng(1))
    err = rule_error(state, seat(0), {"type": "mulligan", "choice": choice})
    assert err.code == "quattro/no_such_choice"
    assert repr(choice) in err.en


def test_dealer_mode_mulligan_lets_the_dealer_enter_the_new_hand_including_returned_cards():
    state = choose_first(new("dealer"), 0)
    state, _ = enter_hand(state, HAND0)
    state, _ = enter_hand(state, HAND1)
    state, _ = mulligan(state, 0, "mulligan")
    assert moves_owed(state) == [(None, "enter_hand"), (1, "mulligan")]
    # The deck is everything except seat 1's hand: the returned cards can come again.
    assert options(state, None) == [c for c in DECK if c not in HAND1]
    state, _ = mulligan(state, 1, "mulligan")
    # One hand at a time: seat 0's first.
    assert moves_owed(state) == [(None, "enter_hand")]
    state, events = enter_hand(state, ["R6", "B5", "G1", "Y3"])
    assert events[0].data == {"seat": 0, "mulligan": 1}
    assert options(state, None) == [c for c in DECK if c not in ("R6", "B5", "G1", "Y3")]
    state, events = enter_hand(state, ["R1", "B2", "G6", "Y5"])
    assert events[0].data == {"seat": 1, "mulligan": 1}
    assert state.hands == (("R6", "B5", "G1", "Y3"), ("R1", "B2", "G6", "Y5"))


# -- Quattro rule 2: the virtual players ----------------------------------------------------------


def test_referee_deals_the_remaining_18_three_each_to_six_virtual_players_for_the_dealer_only():
    state = choose_first(new("referee"), 0)
    state, _ = automatic(state, Rng(4))
    state, _ = mulligan(state, 0, "keep")
    state, events = mulligan(state, 1, "keep")
    assert types(events) == ["HandKept"]
    remaining = set(state.deck)
    state, events = automatic(state, Rng(5))
    assert types(events) == ["VirtualDealt"]
    assert events[0].data == {"virtual_players": 6}
    assert events[0].to == ()  # nobody but the dealer
    hands = events[0].private["hands"]
    assert [len(h) for h in hands] == [3] * 6
    assert Counter(c for h in hands for c in h) == Counter(remaining)
    assert state.deck == ()
    assert state.step == "open"
    assert moves_owed(state) == [(0, "open_card"), (1, "open_card")]


def test_dealer_enters_five_virtual_players_and_the_sixth_gets_the_rest():
    state = choose_first(new("dealer"), 0)
    state, _ = enter_hand(state, HAND0)
    state, _ = enter_hand(state, HAND1)
    state, _ = mulligan(state, 0, "keep")
    state, _ = mulligan(state, 1, "keep")
    for vp in range(5):
        assert moves_owed(state) == [(None, "enter_virtual")]
        state, events = apply(state, DEALER, {"type": "enter_virtual", "cards": VPS[vp]})
    # The fifth entry brings the sixth virtual player's three cards along.
    assert types(events) == ["VirtualHandEntered", "VirtualHandEntered"]
    assert events[1] == Event("VirtualHandEntered", {"vp": 5}, {"cards": ["R5", "B4", "Y4"]}, ())
    assert state.virtual == tuple(tuple(sorted(v, key=DECK.index)) for v in VPS)
    assert state.step == "open"


def test_virtual_player_cards_must_come_from_the_deck():
    state = choose_first(new("dealer"), 0)
    state, _ = enter_hand(state, HAND0)
    state, _ = enter_hand(state, HAND1)
    state, _ = mulligan(state, 0, "keep")
    state, _ = mulligan(state, 1, "keep")
    err = rule_error(state, DEALER, {"type": "enter_virtual", "cards": ["R6", "R2", "B3"]})
    assert err.code == "quattro/not_in_deck"


# -- Quattro rule 3: openings and exchange phases -------------------------------------------------


def test_opening_is_sealed_and_both_cards_are_revealed_together():
    state = dealt(1, HAND0, HAND1, VPS)
    turn = GAME.turn(state)
    assert turn.sealed == (0, 2)
    assert options(state, 0) == ["R6", "B5", "G1", "Y2"]
    state, events = apply(state, seat(1), {"type": "open_card", "card": "G6"})
    assert events == [Event("OpenChosen", {"seat": 1, "round": 1}, {"card": "G6"}, (1,))]
    assert GAME.turn(state).sealed == (1, 2)
    assert state.opened == ((), ())
    public = GAME.view(state, Audience.public())
    assert public["seats"][1]["open_submitted"] is True
    assert public["seats"][1]["opened"] == []
    # Seat 1 may not choose again.
    assert rule_error(state, seat(1), {"type": "open_card", "card": "R1"}).code == "move/not_owed"
    state, events = apply(state, seat(0), {"type": "open_card", "card": "R6"})
    assert types(events) == ["OpenChosen", "CardsOpened"]
    assert events[1].data == {"round": 1, "cards": ["R6", "G6"], "automatic": False}
    assert state.opened == (("R6",), ("G6",))
    assert state.hands == (("B5", "G1", "Y2"), ("R1", "B2", "Y5"))
    # The exchange phase starts with the first player, seat 1.
    assert state.step == "exchange" and state.phase == 1
    assert moves_owed(state) == [(1, "exchange"), (1, "pass")]


def test_opening_a_card_not_in_hand_is_refused():
    state = dealt(1, HAND0, HAND1, VPS)
    err = rule_error(state, seat(0), {"type": "open_card", "card": "G6"})
    assert err.code == "quattro/not_in_hand"
    assert "G6" in err.en
    err = rule_error(state, seat(0), {"type": "open_card", "card": "X9"})
    assert err.code == "quattro/no_such_card"


def test_exchange_options_are_pass_and_every_unopened_card_with_every_virtual_player_not_yet_used():
    state = opened_once()
    opts = choices(state, 1)
    assert opts[0] == "pass"
    assert sorted(opts[1:]) == sorted(f"{c}@{vp}" for c in ("R1", "B2", "Y5") for vp in range(6))
    state, _ = ex(state, 1, "Y5", 1)
    state, _ = ex(state, 0, "Y2", 0)
    opts = choices(state, 1)
    # Seat 1 holds R1, B2 and the received R3; virtual player 1 is used up for it.
    assert "R3@0" in opts and not any(o.endswith("@1") for o in opts)
    assert len(opts) == 1 + 3 * 5


def test_the_exchange_is_two_short_fields_my_card_then_the_virtual_player_and_a_pass_beside_it():
    state = opened_once()
    exchange, pass_ = GAME.turn(state).for_seat(1)
    assert (exchange.move, pass_.move, pass_.fields) == ("exchange", "pass", ())
    card, vp = exchange.fields
    # 3 cards and 6 virtual players: 9 buttons, not 19 sentences.
    assert [o.value for o in card.options] == ["R1", "B2", "Y5"] and card.kind == "card"
    assert [o.label.ko for o in card.options] == ["빨강 1", "파랑 2", "노랑 5"]
    assert [o.value for o in vp.options] == [0, 1, 2, 3, 4, 5]
    assert [o.label.ko for o in vp.options][:2] == ["가상 1", "가상 2"] and vp.label.ko == "가상 플레이어"
    assert not any("을(를)" in o.label.ko for f in exchange.fields for o in f.options)
    state, _ = ex(state, 1, "Y5", 1)
    state, _ = pas(state, 0)
    card, vp = GAME.turn(state).for_seat(1)[0].fields
    assert [o.value for o in vp.options] == [0, 2, 3, 4, 5]
    assert [o.value for o in card.options] == ["R1", "R3", "B2"]


def test_korean_particles_follow_the_last_syllable():
    from referee.games.quattro.cards import label
    from referee.kernel import josa

    objects = {card: josa(label(card).ko, "을/를") for card in ("R1", "B2", "G3", "Y4", "R5", "B6", "0a", "0b")}
    # A zero's label ends in a parenthesis that is not read: the particle follows the 0 (영).
    assert objects == {"R1": "빨강 1을", "B2": "파랑 2를", "G3": "초록 3을", "Y4": "노랑 4를", "R5": "빨강 5를",
                       "B6": "파랑 6을", "0a": "0 (제로 A)을", "0b": "0 (제로 B)을"}
    assert josa("가상 플레이어 1", "과/와") == "가상 플레이어 1과"
    assert josa("가상 플레이어 2", "과/와") == "가상 플레이어 2와"
    assert josa("카드", "을/를") == "카드를" and josa("손패", "을/를") == "손패를" and josa("별", "을/를") == "별을"
    state = opened_once(first=1)
    state, _ = ex(state, 1, "Y5", 1)
    state, _ = pas(state, 0)
    err = rule_error(state, seat(1), {"type": "exchange", "card": "R1", "vp": 0 + 1})
    assert "가상 플레이어 2와는" in err.ko
    err = rule_error(state, seat(1), {"type": "exchange", "card": "G6", "vp": 0})
    assert err.ko.startswith("초록 6은 이미 공개한 카드입니다")


def test_given_card_is_public_and_face_up_received_card_is_secret_to_the_receiver():
    state = opened_once()
    state, event = ex(state, 1, "Y5", 1)
    # Virtual player 1 held R3 G4 Y6; seat 1 opened G6: R3 differs in colour and number, G4 is
    # green, Y6 is a 6. It gives R3.
    # Why it gave R3 (rule 4's branch) is the dealer's alone, never the receiver's.
    assert event == Event("Exchanged", {"seat": 1, "vp": 1, "given": "Y5", "phase": 1},
                          {"received": "R3"}, (1,), {"reason": "differs"})
    assert "reason" not in event.visible_to(Audience.of_seat(1)) and event.visible_to(Audience.dealer())["reason"]
    assert state.hands[1] == ("R1", "R3", "B2")
    assert state.virtual[1] == ("G4", "Y5", "Y6")
    public = GAME.view(state, Audience.public())
    assert public["virtual"][1]["face_up"] == [{"seat": 1, "card": "Y5"}]
    assert public["seats"][1]["exchanged_with"] == [1]
    assert public["actions"] == [{"phase": 1, "seat": 1, "action": "exchange", "vp": 1, "given": "Y5"}]
    assert "R3" not in repr(public)
    assert "R3" not in repr(GAME.view(state, Audience.of_seat(0)))
    assert GAME.view(state, Audience.of_seat(1))["seats"][1]["received"] == [{"vp": 1, "card": "R3"}]
    assert state.to_act == 0


def test_turns_alternate_and_the_other_seat_cannot_act():
    state = opened_once(first=1)
    assert rule_error(state, seat(0), {"type": "pass"}).code == "move/not_owed"
    assert rule_error(state, seat(0), {"type": "exchange", "card": "Y2", "vp": 0}).code == "move/not_owed"
    state, _ = pas(state, 1)
    assert state.to_act == 0
    assert rule_error(state, seat(1), {"type": "pass"}).code == "move/not_owed"


def test_both_passing_in_a_row_ends_the_phase_a_pass_then_an_exchange_does_not():
    state = opened_once(first=1)
    state, events = pas(state, 1)
    assert events == [Event("Passed", {"seat": 1, "phase": 1})]
    state, _ = ex(state, 0, "Y2", 0)
    state, events = pas(state, 1)
    assert types(events) == ["Passed"]
    assert state.step == "exchange"
    state, events = pas(state, 0)
    assert types(events) == ["Passed", "ExchangesClosed"]
    assert events[1].data == {"phase": 1}
    assert state.step == "open"
    assert moves_owed(state) == [(0, "open_card"), (1, "open_card")]
    public = GAME.view(state, Audience.public())
    assert [s["passes"] for s in public["seats"]] == [1, 2]


def test_the_first_pass_of_a_phase_followed_by_the_others_pass_ends_it_at_once():
    state = opened_once(first=0)
    state, _ = pas(state, 0)
    state, events = pas(state, 1)
    assert types(events) == ["Passed", "ExchangesClosed"]


def test_next_phase_starts_again_with_the_first_player():
    state = opened_once(first=1)
    # Seat 1 exchanges, seat 0 passes, seat 1 passes: the first player ended the phase, and plain
    # alternation would give seat 0 the next turn; the rule gives it to seat 1 again.
    state, _ = ex(state, 1, "Y5", 1)
    state, _ = pas(state, 0)
    state, _ = pas(state, 1)
    state, events = open_cards(state, "B5", "B2")
    assert events[-1].data == {"round": 2, "cards": ["B5", "B2"], "automatic": False}
    assert (state.phase, state.to_act) == (2, 1)
    assert moves_owed(state) == [(1, "exchange"), (1, "pass")]
    # The same when seat 0 ended it.
    state, _ = pas(state, 1)
    state, _ = ex(state, 0, "Y2", 0)
    state, _ = pas(state, 1)
    state, _ = pas(state, 0)
    state, _ = open_cards(state, "G1", "R1")
    assert (state.phase, state.to_act) == (3, 1)


def test_an_opened_card_cannot_be_exchanged():
    state = opened_once(first=1)
    err = rule_error(state, seat(1), {"type": "exchange", "card": "G6", "vp": 0})
    assert err.code == "quattro/card_opened"
    assert "G6" in err.en


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        ("R1@6", "quattro/no_such_virtual"),
        ("R1@-1", "quattro/bad_choice"),
        ("R1@x", "quattro/bad_choice"),
        ("R1", "quattro/bad_choice"),
        ("R1@1@2", "quattro/bad_choice"),
        ("nonsense", "quattro/bad_choice"),
        (7, "quattro/bad_choice"),
        ("Q1@0", "quattro/no_such_card"),
        ("R6@0", "quattro/not_in_hand"),
        ("PASS", "quattro/bad_choice"),
    ],
)
def test_exchanges_in_the_one_field_form_of_earlier_logs_are_read_and_checked_the_same(choice, code):
    state = opened_once(first=1)
    err = rule_error(state, seat(1), {"type": "exchange", "choice": choice})
    assert err.code == code


def test_an_exchange_in_the_one_field_form_of_earlier_logs_still_applies():
    state = opened_once(first=1)
    old, events = apply(state, seat(1), {"type": "exchange", "choice": "Y5@1"})
    new, same = ex(state, 1, "Y5", 1)
    assert events == [same] and old == new
    old, events = apply(new, seat(0), {"type": "exchange", "choice": "pass"})
    assert events == pas(new, 0)[1]


@pytest.mark.parametrize(
    ("card", "vp", "code"),
    [
        ("R1", 6, "quattro/no_such_virtual"),
        ("R1", -1, "quattro/no_such_virtual"),
        ("R1", "1", "quattro/no_such_virtual"),
        ("R1", True, "move/malformed"),
        ("Q1", 0, "quattro/no_such_card"),
        ("R6", 0, "quattro/not_in_hand"),
        ("G6", 0, "quattro/card_opened"),
        (["R1"], 0, "move/malformed"),
        ("R1", None, "move/malformed"),
    ],
)
def test_malformed_or_illegal_two_field_exchanges_are_refused(card, vp, code):
    state = opened_once(first=1)
    move = {"type": "exchange", "card": card, "vp": vp}
    if vp is None:
        del move["vp"]
    err = rule_error(state, seat(1), move)
    assert err.code == code


def test_no_second_exchange_with_the_same_virtual_player():
    state = opened_once(first=1)
    state, _ = ex(state, 1, "Y5", 1)
    state, _ = pas(state, 0)
    err = rule_error(state, seat(1), {"type": "exchange", "card": "R1", "vp": 1})
    assert err.code == "quattro/already_exchanged"
    assert "2" in err.ko and "virtual player 2" in err.en
    # The other candidate may still exchange with virtual player 1.
    state, _ = ex(state, 1, "R1", 2)
    assert "B5@1" in choices(state, 0)


def _phase_3(exchanged0: tuple[int, ...], exchanged1: tuple[int, ...], to_act: int = 0) -> QuattroState:
    """A constructed state in the last exchange phase (three cards open each)."""
    return replace(
        QuattroState(deal="dealer"),
        step="exchange", first=0, phase=3, to_act=to_act, deck=(),
        hands=(("Y2",), ("Y5",)), opened=(("R6", "B5", "G1"), ("R1", "B2", "G6")),
        mulligans=(0, 0), kept=(True, True), owed_cards=(False, False),
        virtual=tuple(tuple(v) for v in VPS), exchanged=(exchanged0, exchanged1),
    )


def test_in_the_last_phase_a_candidate_who_owes_exchanges_cannot_pass():
    state = _phase_3((0, 1, 2, 3, 4), (0, 1, 2, 3, 4, 5))
    opts = choices(state, 0)
    assert "pass" not in opts
    assert opts == ["Y2@5"]
    err = rule_error(state, seat(0), {"type": "pass"})
    assert err.code == "quattro/must_exchange"
    assert rule_error(state, seat(0), {"type": "exchange", "choice": "pass"}).code == "quattro/must_exchange"
    assert "1" in err.ko and "(1 left)" in err.en
    assert GAME.view(state, Audience.public())["seats"][0]["must_exchange"] is True
    state, event = ex(state, 0, "Y2", 5)
    # Virtual player 6 held R5 B4 Y4; seat 0 opened R6 B5 G1: R5 red, B4 blue, Y4 differs.
    assert event["received"] == "Y4"
    assert choices(state, 1) == ["pass"]
    state, _ = pas(state, 1)
    assert choices(state, 0) == ["pass"]


def test_passing_is_free_in_the_first_two_phases_even_with_no_exchange():
    for phase in (1, 2):
        state = replace(_phase_3((), ()), phase=phase)
        assert choices(state, 0)[0] == "pass"
        state, events = pas(state, 0)
        assert types(events) == ["Passed"]


def test_a_candidate_who_exchanged_with_all_six_can_only_pass():
    state = replace(_phase_3((0, 1, 2, 3, 4, 5), ()), phase=1)
    assert choices(state, 0) == ["pass"]
    err = rule_error(state, seat(0), {"type": "exchange", "card": "Y2", "vp": 0})
    assert err.code == "move/not_owed"  # no exchange is offered any more



def test_the_fourth_card_opens_by_itself_when_the_last_phase_ends():
    state = _phase_3((0, 1, 2, 3, 4, 5), (0, 1, 2, 3, 4, 5))
    state, _ = pas(state, 0)
    state, events = pas(state, 1)
    assert types(events) == ["Passed", "ExchangesClosed", "CardsOpened", "HandsCompared"]
    assert events[2].data == {"round": 4, "cards": ["Y2", "Y5"], "automatic": True}
    assert state.opened == (("R6", "B5", "G1", "Y2"), ("R1", "B2", "G6", "Y5"))
    # 6 5 2 1 against 6 5 2 1: the dealer owes the decision of the draw.
    assert moves_owed(state) == [(None, "resolve_draw")]


# -- Quattro rule 4: the virtual player's choice --------------------------------------------------


def test_vp_gives_a_zero_whenever_it_has_one():
    assert virtual_choice(("R6", "B5", "0b"), ("G1",)) == ("0b", "zero")
    # Even when a card would fit the candidate perfectly.
    assert virtual_choice(("0a", "Y6", "B6"), ("R1", "G2")) == ("0a", "zero")


def test_vp_with_both_zeros_gives_0a_first():
    assert virtual_choice(("0b", "R6", "0a"), ()) == ("0a", "zero")


def test_vp_gives_its_highest_card_differing_in_colour_and_number_from_every_opened_card():
    # Opened R1: R6 is red, so the highest fitting card is B5 although R6 is higher.
    assert virtual_choice(("R6", "B5", "G4"), ("R1",)) == ("B5", "differs")
    # Opened B5 and Y6: R6 shares the 6, B4 is blue, G5 shares the 5; G3 fits.
    assert virtual_choice(("R6", "B4", "G3"), ("B5", "Y6")) == ("G3", "differs")


def test_opened_zeros_rule_out_nothing():
    assert virtual_choice(("R6", "B5", "G4"), ("0a",)) == ("R6", "differs")
    assert virtual_choice(("R6", "B5", "G4"), ("0a", "0b", "R2")) == ("B5", "differs")


def test_with_nothing_opened_every_card_differs():
    assert virtual_choice(("G2", "Y3", "B1"), ()) == ("Y3", "differs")


def test_vp_falls_back_to_its_highest_card_when_nothing_differs():
    # Opened B2 and Y1: R2 shares the 2, B3 is blue, Y3 is yellow: nothing differs. Highest: the
    # 3s; blue goes before yellow.
    assert virtual_choice(("R2", "B3", "Y3"), ("B2", "Y1")) == ("B3", "highest")
    assert virtual_choice(("R2", "G5", "Y3"), ("R5", "G3", "Y2")) == ("G5", "highest")


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        (("B4", "R4"), "R4"),  # red before blue
        (("Y4", "B4"), "B4"),  # blue before yellow
        (("G4", "Y4"), "Y4"),  # yellow before green (not the deck's colour order)
        (("G4", "R4"), "R4"),
        (("G4", "Y4", "B4", "R4"), "R4"),
        (("G4", "Y4", "B4"), "B4"),
    ],
)
def test_equal_numbers_go_red_then_blue_then_yellow_then_green(held, expected):
    # In the "differs" branch (nothing opened) ...
    assert virtual_choice(held, ()) == (expected, "differs")
    # ... and in the fallback branch (every colour and the 4 opened).
    assert virtual_choice(held, ("R4", "B1", "G1", "Y1")) == (expected, "highest")


def test_vp_chooses_among_the_cards_it_held_before_not_the_card_just_given():
    state = opened_once(first=0)
    # Seat 0 gives Y2 to virtual player 0 (R2 B3 0a): it answers with its own 0a, never Y2.
    state, event = ex(state, 0, "Y2", 0)
    assert (event["received"], event["reason"]) == ("0a", "zero")
    state, _ = pas(state, 1)
    # Seat 0 now gives the zero to virtual player 2 (B6 G2 Y1), which had no zero: it does not
    # hand the zero back. Seat 0 opened R6: B6 shares the 6; G2 and Y1 differ; G2 is higher.
    state, event = ex(state, 0, "0a", 2)
    assert (event["received"], event["reason"]) == ("G2", "differs")
    assert state.virtual[2] == ("B6", "Y1", "0a")


def test_face_up_cards_count_among_the_cards_a_vp_held():
    state = opened_once(first=0)
    # Seat 0 gives G1 to virtual player 4 (G3 Y3 0b) and gets 0b; G1 lies face up there.
    state, event = ex(state, 0, "G1", 4)
    assert event["received"] == "0b"
    assert state.virtual[4] == ("G1", "G3", "Y3")
    # Seat 1 (opened G6) gives R1 to virtual player 4, which holds G1 (face up), G3, Y3: G1 and
    # G3 are green, Y3 differs: Y3. The face-up G1 stays.
    state, event = ex(state, 1, "R1", 4)
    assert (event["received"], event["reason"]) == ("Y3", "differs")
    assert state.virtual[4] == ("R1", "G1", "G3")


def test_face_up_card_goes_back_when_it_is_the_choice():
    state = opened_once(first=0)
    # Seat 0 gives G1 to virtual player 5 (R5 B4 Y4) and gets B4 (seat 0 opened R6: R5 is red;
    # B4 and Y4 tie at 4, blue first).
    state, event = ex(state, 0, "G1", 5)
    assert event["received"] == "B4"
    # Seat 1 opened G6, gives Y5 to virtual player 5, which holds R5, Y4 and the face-up G1:
    # R5 differs (5), Y4 differs, G1 is green. R5.
    state, event = ex(state, 1, "Y5", 5)
    assert event["received"] == "R5"
    state, _ = pas(state, 0)
    # Seat 1 gives B2 to virtual player 2 (B6 G2 Y1): B6 shares the 6, G2 is green: Y1.
    state, event = ex(state, 1, "B2", 2)
    assert event["received"] == "Y1"
    # Seat 0 gives B5 to virtual player 1 (R3 G4 Y6): R3 red, Y6 a 6: G4.
    state, event = ex(state, 0, "B5", 1)
    assert event["received"] == "G4"
    # Seat 1 gives R1 to virtual player 1, which now holds R3, Y6 and the face-up B5: R3 differs from G6 (red, 3), Y6 shares the 6,
    # B5 differs (blue, 5): B5, the face-up card, is the highest that differs.
    state, event = ex(state, 1, "R1", 1)
    assert (event["received"], event["reason"]) == ("B5", "differs")
    assert "B5" in state.hands[1]
    assert state.virtual[1] == ("R1", "R3", "Y6")
    # The public still shows B5 as the card seat 0 gave virtual player 1: its leaving is secret.
    public = GAME.view(state, Audience.public())
    assert public["virtual"][1]["face_up"] == [{"seat": 0, "card": "B5"}, {"seat": 1, "card": "R1"}]
    dealer = GAME.view(state, Audience.dealer())
    assert dealer["virtual"][1]["holding"] == ["R1", "R3", "Y6"]
    assert dealer["virtual"][1]["hidden"] == ["R3", "Y6"]


# -- Quattro rule 5: the comparison ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (("R1", "B2", "G3", "Y4"), True),
        (("R6", "B5", "0a", "Y3"), True),
        (("R6", "B5", "0a", "0b"), True),  # each 0 its own colour and number
        (("R1", "R2", "G3", "Y4"), False),  # two reds
        (("R1", "B1", "G3", "Y4"), False),  # two 1s
        (("R1", "B2", "G3"), False),
    ],
)
def test_quattro_is_four_colours_and_four_numbers(cards, expected):
    assert is_quattro(cards) is expected


def test_both_quattros_higher_sum_wins():
    # 6 + 5 + 4 + 3 = 18 against 6 + 5 + 4 + 1 = 16.
    c = compare(("R6", "B5", "G4", "Y3"), ("Y6", "G5", "B4", "R1"))
    assert (c.quattro, c.sums, c.winner, c.rule) == ((True, True), (18, 16), 0, "sum")


def test_both_quattros_equal_sums_higher_highest_card_wins():
    # 6 + 3 + 2 + 1 = 12 and 5 + 4 + 2 + 1 = 12: 6 beats 5.
    c = compare(("Y5", "G4", "B2", "R1"), ("R6", "B3", "G2", "Y1"))
    assert (c.sums, c.winner, c.rule, c.position) == ((12, 12), 1, "high", 1)


def test_both_quattros_equal_sums_and_highest_next_highest_wins():
    # 6 5 3 0 = 14 and 6 5 2 1 = 14: 6 = 6, 5 = 5, 3 beats 2.
    c = compare(("R6", "B5", "0a", "Y3"), ("G6", "B2", "R5", "Y1"))
    assert (c.sums, c.winner, c.rule, c.position) == ((14, 14), 0, "high", 3)
    # 6 4 3 1 = 14 and 6 5 2 1 = 14: decided by the second highest, 5 beats 4.
    c = compare(("R6", "B4", "G3", "Y1"), ("G6", "B2", "R5", "Y1"))
    assert (c.winner, c.rule, c.position) == (1, "high", 2)


def test_only_one_quattro_wins_even_with_a_lower_sum():
    # Seat 0: 6 + 6 + 5 + 5 = 22 but two 6s; seat 1's quattro 1 + 2 + 3 + 0 = 6 wins.
    c = compare(("R6", "B6", "G5", "Y5"), ("R1", "B2", "G3", "0a"))
    assert (c.quattro, c.sums, c.winner, c.rule) == ((False, True), (22, 6), 1, "only_quattro")


def test_neither_quattro_is_compared_like_both():
    # Sum: 6 + 6 + 5 + 5 = 22 against 4 + 4 + 3 + 3 = 14.
    c = compare(("R6", "B6", "G5", "Y5"), ("R4", "B4", "G3", "Y3"))
    assert (c.quattro, c.winner, c.rule) == ((False, False), 0, "sum")
    # Equal sums 6 + 6 + 1 + 1 = 14 and 5 + 5 + 2 + 2 = 14: 6 beats 5.
    c = compare(("R6", "B6", "G1", "Y1"), ("R5", "B5", "G2", "Y2"))
    assert (c.winner, c.rule, c.position) == (0, "high", 1)


def test_cards_equal_all_the_way_are_a_draw():
    c = compare(("R6", "B5", "G4", "Y3"), ("Y6", "G5", "B4", "R3"))
    assert (c.sums, c.winner, c.rule) == ((18, 18), None, "draw")
    c = compare(("R6", "R5", "G4", "Y3"), ("Y6", "Y5", "B4", "R3"))
    assert (c.quattro, c.winner, c.rule) == ((False, False), None, "draw")


@pytest.mark.parametrize(
    ("last0", "last1", "winner", "rule", "position", "decided"),
    [
        # Opened before: seat 0 R6 B5 G1, seat 1 R1 B2 G6; the last card of each is added.
        # R6 B5 G1 Y3 = 15 and R1 B2 G6 Y4 = 13, both quattros.
        ("Y3", "Y4", 0, "sum", 0, "Both quattros: higher sum"),
        # R6 B5 G1 0a = 12 and R1 B2 G6 Y4 = 13, both quattros.
        ("0a", "Y4", 1, "sum", 0, "Both quattros: higher sum"),
        # 12 and R1 B2 G6 Y3 = 12: 6 = 6, then 5 > 3.
        ("0a", "Y3", 0, "high", 2, "Both quattros, equal sums: higher second highest card"),
        # R6 B5 G1 R4: two reds (16); R1 B2 G6 Y3 = 12 is the only quattro.
        ("R4", "Y3", 1, "only_quattro", 0, "Only one quattro"),
        # R6 B5 G1 Y6: two 6s (18); R1 B2 G6 R5: two reds (14).
        ("Y6", "R5", 0, "sum", 0, "Neither is a quattro: higher sum"),
        # R6 B5 G1 B3: two blues (15); R1 B2 G6 Y6: two 6s (15); 6 = 6, then 6 > 5.
        ("B3", "Y6", 1, "high", 2, "Neither is a quattro, equal sums: higher second highest card"),
    ],
)
def test_end_of_match_through_the_game(last0, last1, winner, rule, position, decided):
    state = replace(_phase_3((0, 1, 2, 3, 4, 5), (0, 1, 2, 3, 4, 5)), hands=((last0,), (last1,)))
    state, _ = pas(state, 0)
    state, events = pas(state, 1)
    assert events[-1].type == "HandsCompared"
    assert (events[-1]["winner"], events[-1]["rule"], events[-1]["position"]) == (winner, rule, position)
    result = GAME.result(state)
    assert result.winner() == winner
    assert result.decided_by.en == decided


def test_a_full_draw_waits_for_the_dealer_and_the_dealer_decision_is_logged():
    # R6 B5 G1 Y2 and R1 B2 G6 Y5? 6 5 2 1 against 6 5 2 1: equal all the way.
    state = _phase_3((0, 1, 2, 3, 4, 5), (0, 1, 2, 3, 4, 5))
    state, _ = pas(state, 0)
    state, events = pas(state, 1)
    assert events[-1]["rule"] == "draw" and events[-1]["winner"] is None
    assert state.step == "draw"
    assert GAME.result(state) is None
    assert moves_owed(state) == [(None, "resolve_draw")]
    assert options(state, None) == [0, 1]
    err = rule_error(state, DEALER, {"type": "resolve_draw", "winner": 2})
    assert err.code == "quattro/no_such_seat"
    assert rule_error(state, seat(0), {"type": "resolve_draw", "winner": 0}).code == "move/not_owed"
    state, events = apply(state, DEALER, {"type": "resolve_draw", "winner": 1})
    assert events == [Event("DrawResolved", {"winner": 1})]
    result = GAME.result(state)
    assert result.winner() == 1
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(1, 1, 14), (0, 2, 14)]
    assert result.decided_by.en == "Both quattros, cards equal all the way: the dealer decided"
    assert result.details["resolved_by_dealer"] is True


# -- views ----------------------------------------------------------------------------------------


def test_views_public_seat_and_dealer():
    state = opened_once(first=1)
    state, _ = ex(state, 1, "Y5", 1)
    public = GAME.view(state, Audience.public())
    for entry in public["seats"]:
        assert not {"hand", "received", "open_choice"} & set(entry)
    for entry in public["virtual"]:
        assert not {"holding", "hidden"} & set(entry)
    assert "deck" not in public
    assert public["seats"][0]["opened"] == ["R6"] and public["seats"][0]["hand_count"] == 3
    assert public["to_act"] == 0
    own = GAME.view(state, Audience.of_seat(1))
    assert own["seats"][1]["hand"] == ["R1", "R3", "B2"]
    assert "hand" not in own["seats"][0]
    assert "holding" not in own["virtual"][1]
    dealer = GAME.view(state, Audience.dealer())
    assert dealer["seats"][0]["hand"] == ["B5", "G1", "Y2"]
    assert dealer["virtual"][0]["holding"] == ["R2", "B3", "0a"]
    assert dealer["deck"] == []


# -- whole games (deal=dealer fixes the cards) ----------------------------------------------------


def test_scenario_both_quattros_equal_sums_decided_by_the_third_highest_card():
    state = dealt(1, HAND0, HAND1, VPS)
    # Seat 1 is first. Opening 1: seat 0 R6, seat 1 G6.
    state, _ = open_cards(state, "R6", "G6")
    assert state.to_act == 1

    # Phase 1.
    # s1 gives Y5 to vp1 (R3 G4 Y6); opened G6: R3 differs, G4 green, Y6 a 6 -> R3.
    state, e = ex(state, 1, "Y5", 1)
    assert (e["received"], e["reason"]) == ("R3", "differs")
    # s0 gives Y2 to vp0 (R2 B3 0a) -> 0a.
    state, e = ex(state, 0, "Y2", 0)
    assert (e["received"], e["reason"]) == ("0a", "zero")
    # s1 gives R3 to vp3 (R4 B1 G5); opened G6: R4 and B1 differ, G5 green -> R4.
    state, e = ex(state, 1, "R3", 3)
    assert e["received"] == "R4"
    # s0 gives G1 to vp5 (R5 B4 Y4); opened R6: R5 red; B4, Y4 tie -> blue first: B4.
    state, e = ex(state, 0, "G1", 5)
    assert e["received"] == "B4"
    state, _ = pas(state, 1)
    state, events = pas(state, 0)
    assert types(events) == ["Passed", "ExchangesClosed"]
    assert state.hands == (("B4", "B5", "0a"), ("R1", "R4", "B2"))

    # Opening 2: seat 0 B5, seat 1 B2. Phase 2 starts with seat 1 again.
    state, _ = open_cards(state, "B5", "B2")
    assert (state.phase, state.to_act) == (2, 1)
    # s1 gives R1 to vp5 (R5 Y4 G1); opened G6 B2: R5, Y4 differ; G1 green -> R5 (higher).
    state, e = ex(state, 1, "R1", 5)
    assert e["received"] == "R5"
    # s0 gives B4 to vp4 (G3 Y3 0b) -> 0b.
    state, e = ex(state, 0, "B4", 4)
    assert e["received"] == "0b"
    # Seat 1 has exchanged with three and passes: allowed before the last phase.
    state, _ = pas(state, 1)
    state, _ = pas(state, 0)

    # Opening 3: seat 0 0a, seat 1 R5. Seat 0 holds 0b, seat 1 R4.
    state, _ = open_cards(state, "0a", "R5")
    assert state.hands == (("0b",), ("R4",))
    assert state.exchanged == ((0, 5, 4), (1, 3, 5))
    assert "pass" not in choices(state, 1)
    # Holdings now: vp0 R2 B3 Y2 | vp1 G4 Y5 Y6 | vp2 B6 G2 Y1 | vp3 B1 G5 R3 | vp4 G3 Y3 B4
    # | vp5 Y4 G1 R1.
    # s1 (opened G6 B2 R5) gives R4 to vp0 (R2 B3 Y2): R2 red, B3 blue, Y2 a 2: none differs ->
    # highest, B3.
    state, e = ex(state, 1, "R4", 0)
    assert (e["received"], e["reason"]) == ("B3", "highest")
    # s0 (opened R6 B5 0a) gives 0b to vp1 (G4 Y5 Y6): G4 differs; Y5, Y6 share numbers -> G4.
    state, e = ex(state, 0, "0b", 1)
    assert e["received"] == "G4"
    # s1 gives B3 to vp4 (G3 Y3 B4): G3 green, B4 blue, Y3 differs -> Y3.
    state, e = ex(state, 1, "B3", 4)
    assert e["received"] == "Y3"
    # s0 gives G4 to vp3 (R3 B1 G5): R3 red, B1 blue, G5 a 5 -> highest, G5.
    state, e = ex(state, 0, "G4", 3)
    assert (e["received"], e["reason"]) == ("G5", "highest")
    # s1 gives Y3 to vp2 (B6 G2 Y1): B6 blue, G2 green, Y1 differs -> Y1. Seat 1 is done.
    state, e = ex(state, 1, "Y3", 2)
    assert e["received"] == "Y1"
    # s0 gives G5 to vp2 (B6 G2 Y3): B6 a 6, G2 and Y3 differ -> Y3 (higher). Seat 0 is done.
    state, e = ex(state, 0, "G5", 2)
    assert e["received"] == "Y3"
    assert choices(state, 1) == ["pass"]
    state, _ = pas(state, 1)
    state, events = pas(state, 0)
    assert types(events) == ["Passed", "ExchangesClosed", "CardsOpened", "HandsCompared"]
    assert events[2].data == {"round": 4, "cards": ["Y3", "Y1"], "automatic": True}

    # Seat 0: R6 B5 0a Y3, a quattro, 6 + 5 + 0 + 3 = 14. Seat 1: G6 B2 R5 Y1, a quattro,
    # 6 + 2 + 5 + 1 = 14. Highest 6 = 6, then 5 = 5, then 3 > 2: seat 0 wins.
    assert events[3].data == {
        "hands": [["R6", "B5", "Y3", "0a"], ["R5", "B2", "G6", "Y1"]],
        "quattro": [True, True], "sums": [14, 14], "winner": 0, "rule": "high", "position": 3,
    }
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 1, 14), (1, 2, 14)]
    assert (result.decided_by.ko, result.decided_by.en) == (
        "둘 다 콰트로, 합 동점: 세 번째로 높은 카드가 더 큼",
        "Both quattros, equal sums: higher third highest card",
    )
    public = GAME.view(state, Audience.public())
    assert public["comparison"]["hands"] == [["R6", "B5", "Y3", "0a"], ["R5", "B2", "G6", "Y1"]]
    assert [s["exchanges"] for s in public["seats"]] == [6, 6]
    assert [s["passes"] for s in public["seats"]] == [3, 3]


def _draw_game(mulligans: bool) -> QuattroState:
    """Seat 0 ends with R6 B5 G4 0a, seat 1 with Y6 G5 B4 0b (or another hand; see the tests)."""
    state = choose_first(new("dealer"), 0)
    if mulligans:
        state, _ = enter_hand(state, ["R2", "R3", "R4", "R5"])
        state, _ = enter_hand(state, ["B1", "B2", "B3", "B6"])
        state, _ = mulligan(state, 0, "mulligan")
        state, _ = enter_hand(state, ["G1", "G2", "G3", "G6"])
        state, _ = mulligan(state, 1, "mulligan")
        state, _ = enter_hand(state, ["Y6", "G5", "B4", "Y1"])
        state, _ = mulligan(state, 1, "keep")
        state, _ = mulligan(state, 0, "mulligan")
        state, events = enter_hand(state, ["R6", "B5", "G4", "R1"])
        # The second mulligan's hand is kept by itself.
        assert types(events) == ["HandDealt", "HandKept"]
        assert events[1].data == {"seat": 0, "mulligans": 2, "forced": True}
        assert state.mulligans == (2, 1)
    else:
        state, _ = enter_hand(state, ["R6", "B5", "G4", "R1"])
        state, _ = enter_hand(state, ["Y6", "G5", "B4", "Y1"])
        state, _ = mulligan(state, 0, "keep")
        state, _ = mulligan(state, 1, "keep")
    state, _ = enter_virtuals(state, [
        ["R2", "B1", "0a"], ["G1", "Y2", "0b"], ["R3", "B2", "G2"],
        ["R4", "B3", "Y3"], ["R5", "G3", "Y4"], ["B6", "G6", "Y5"],
    ])
    state, _ = open_cards(state, "R6", "Y6")
    # Seat 0 opened R6 (a card fits if not red and not a 6); seat 1 opened Y6 (not yellow, not 6).
    # s0 R1 -> vp1 (G1 Y2 0b): 0b.
    state, e = ex(state, 0, "R1", 1)
    assert e["received"] == "0b"
    # s1 Y1 -> vp0 (R2 B1 0a): 0a.
    state, e = ex(state, 1, "Y1", 0)
    assert e["received"] == "0a"
    # s0 0b -> vp2 (R3 B2 G2): B2 and G2 fit, tie at 2 -> blue first: B2.
    state, e = ex(state, 0, "0b", 2)
    assert e["received"] == "B2"
    # s1 0a -> vp3 (R4 B3 Y3): R4 and B3 fit -> R4.
    state, e = ex(state, 1, "0a", 3)
    assert e["received"] == "R4"
    # s0 B2 -> vp0 (R2 B1 Y1): B1 and Y1 fit, tie at 1 -> blue first: B1.
    state, e = ex(state, 0, "B2", 0)
    assert e["received"] == "B1"
    # s1 R4 -> vp1 (G1 Y2 R1, R1 face up from seat 0): G1 and R1 fit, tie -> red first: R1.
    state, e = ex(state, 1, "R4", 1)
    assert e["received"] == "R1"
    # s0 B1 -> vp4 (R5 G3 Y4): G3 and Y4 fit -> Y4.
    state, e = ex(state, 0, "B1", 4)
    assert e["received"] == "Y4"
    # s1 R1 -> vp4 (R5 G3 B1): all fit -> R5.
    state, e = ex(state, 1, "R1", 4)
    assert e["received"] == "R5"
    # s0 Y4 -> vp5 (B6 G6 Y5): only Y5 fits.
    state, e = ex(state, 0, "Y4", 5)
    assert e["received"] == "Y5"
    # s1 R5 -> vp5 (B6 G6 Y4): B6 and G6 are 6s, Y4 yellow: none fits -> highest, B6 before G6.
    state, e = ex(state, 1, "R5", 5)
    assert (e["received"], e["reason"]) == ("B6", "highest")
    # s0 Y5 -> vp3 (B3 Y3 0a, 0a face up from seat 1): 0a. Seat 0 has exchanged with all six.
    state, e = ex(state, 0, "Y5", 3)
    assert e["received"] == "0a"
    return state


def test_scenario_full_draw_resolved_by_the_dealer():
    state = _draw_game(mulligans=False)
    # s1 B6 -> vp2 (R3 G2 0b, 0b face up from seat 0): 0b.
    state, e = ex(state, 1, "B6", 2)
    assert e["received"] == "0b"
    assert state.hands == (("B5", "G4", "0a"), ("B4", "G5", "0b"))
    state, _ = pas(state, 0)
    state, _ = pas(state, 1)
    state, _ = open_cards(state, "B5", "G5")
    state, _ = pas(state, 0)
    state, _ = pas(state, 1)
    state, _ = open_cards(state, "G4", "B4")
    # Both have exchanged with all six: both may pass in the last phase.
    state, _ = pas(state, 0)
    state, events = pas(state, 1)
    assert events[-2].data == {"round": 4, "cards": ["0a", "0b"], "automatic": True}
    # R6 B5 G4 0a and Y6 G5 B4 0b: both quattros, 15 each, 6 5 4 0 each: a draw.
    assert events[-1].data == {
        "hands": [["R6", "B5", "G4", "0a"], ["B4", "G5", "Y6", "0b"]],
        "quattro": [True, True], "sums": [15, 15], "winner": None, "rule": "draw", "position": 0,
    }
    assert state.step == "draw"
    state, events = apply(state, DEALER, {"type": "resolve_draw", "winner": 0})
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 1, 15), (1, 2, 15)]
    assert result.decided_by.en == "Both quattros, cards equal all the way: the dealer decided"


def test_scenario_mulligans_then_only_one_quattro_wins_against_a_higher_sum():
    state = _draw_game(mulligans=True)
    # Seat 1 keeps B6 this time and gives B4 to vp2 (R3 G2 0b): 0b.
    state, e = ex(state, 1, "B4", 2)
    assert e["received"] == "0b"
    state, _ = pas(state, 0)
    state, _ = pas(state, 1)
    state, _ = open_cards(state, "B5", "G5")
    state, _ = pas(state, 0)
    state, _ = pas(state, 1)
    state, _ = open_cards(state, "G4", "B6")
    state, _ = pas(state, 0)
    state, events = pas(state, 1)
    # Seat 0: R6 B5 G4 0a, quattro, 15. Seat 1: Y6 G5 B6 0b: two 6s, no quattro, 17.
    assert events[-1].data == {
        "hands": [["R6", "B5", "G4", "0a"], ["B6", "G5", "Y6", "0b"]],
        "quattro": [True, False], "sums": [15, 17], "winner": 0, "rule": "only_quattro", "position": 0,
    }
    result = GAME.result(state)
    assert [(s.seat, s.rank, s.score) for s in result.standings] == [(0, 1, 15), (1, 2, 17)]
    assert (result.decided_by.ko, result.decided_by.en) == ("한 명만 콰트로 완성", "Only one quattro")
    public = GAME.view(state, Audience.public())
    assert [s["mulligans"] for s in public["seats"]] == [2, 1]
    assert GAME.turn(state).decisions == ()
    assert rule_error(state, seat(0), {"type": "exchange", "choice": "pass"}).code == "move/not_owed"


# -- the runtime ----------------------------------------------------------------------------------


def test_runtime_referee_deal_through_the_table():
    table = Table.create(MemoryStore(), "q", "quattro", ["A", "B"], seed=11, clock=lambda: 0.0)
    table.start(Actor.dealer())
    assert [d["move"] for d in table.view(Audience.dealer())["decisions"]] == ["choose_first"]
    table.submit(Actor.dealer(), {"type": "choose_first", "seat": 0})
    log = table.log(Audience.dealer())
    assert [row["event"]["type"] for row in log] == ["table.started", "FirstPlayerSet", "HandDealt", "HandDealt"]
    assert [row["actor"] for row in log[2:]] == ["referee", "referee"]
    public_log = table.log(Audience.public())
    assert [row["event"] for row in public_log[2:]] == [
        {"type": "HandDealt", "seat": 0, "mulligan": 0},
        {"type": "HandDealt", "seat": 1, "mulligan": 0},
    ]
    seat0 = table.view(Audience.of_seat(0))
    assert len(seat0["state"]["seats"][0]["hand"]) == 4
    assert "hand" not in seat0["state"]["seats"][1]
    assert [d["move"] for d in seat0["decisions"]] == ["mulligan"]


@pytest.mark.parametrize("deal", ["referee", "dealer"])
def test_random_playouts_finish_in_both_deal_modes(deal):
    for seed in range(40):
        table = Table.create(MemoryStore(), f"q{seed}", "quattro", ["A", "B"], options={"deal": deal}, seed=seed,
                             clock=lambda: 0.0)
        table.start(Actor.dealer())
        rnd = random.Random(seed)
        for _ in range(500):
            state = table.load().state
            if GAME.result(state) is not None:
                break
            actor, move = pick(GAME.turn(state), rnd)
            table.submit(actor, move)  # every offered option is legal: no RuleError expected
        state = table.load().state
        result = GAME.result(state)
        assert result is not None
        # Every card is somewhere exactly once, and each candidate exchanged with all six.
        held = [c for h in state.opened for c in h] + [c for v in state.virtual for c in v] + list(state.deck)
        assert sorted(held) == sorted(DECK)
        assert [sorted(e) for e in state.exchanged] == [list(range(6))] * 2
        assert [len(o) for o in state.opened] == [4, 4]
