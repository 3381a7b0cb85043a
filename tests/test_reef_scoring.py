"""Reef scoring (Reef rules 7, 8 and 10): every pattern kind on hand-drawn boards, and the
maximum packing proved against a brute force over every subset of matches on random boards.

Boards are drawn as 4 rows of 4 stacks; a stack is its colours from the bottom up (R red, Y
yellow, P purple, G green), "." an empty cell. Cells are numbered row by row: 0 is A1 (top left),
3 is D1, 12 is A4, 15 is D4.
"""

from __future__ import annotations

import random
import time

import pytest

from referee.games.reef import CARDS, cell_name, matches, packing, score
from referee.games.reef.cards import COLOURS
from referee.games.reef.patterns import (
    DIAGONAL_PAIRS,
    DIAGONALS,
    ELLS,
    LINES,
    ORTHOGONAL_PAIRS,
    SQUARES,
    hand_points,
    neighbours,
)

LETTER = {"R": "red", "Y": "yellow", "P": "purple", "G": "green"}


def board(*rows: str) -> tuple[tuple[str, ...], ...]:
    cells = [token for row in rows for token in row.split()]
    assert len(cells) == 16, cells
    return tuple(() if t == "." else tuple(LETTER[c] for c in t) for t in cells)


def points(n: int, b) -> int:
    return score(CARDS[n], b).points


def count(n: int, b) -> int:
    return score(CARDS[n], b).count


# -- the shapes on a 4x4 board --------------------------------------------------------------------


def test_shape_counts_on_a_4x4_board():
    # 3x3 positions of a 2x2 square; 4 rows x 2 + 4 columns x 2 straight lines of 3; 2x2 starts x 2
    # directions for diagonals; 9 squares x 4 Ls; 4x3 + 3x4 orthogonal pairs; 3x3 x 2 diagonal pairs.
    assert (len(SQUARES), len(LINES), len(DIAGONALS), len(ELLS), len(ORTHOGONAL_PAIRS), len(DIAGONAL_PAIRS)) == \
        (9, 16, 8, 36, 24, 18)
    assert cell_name(0) == "A1" and cell_name(3) == "D1" and cell_name(12) == "A4" and cell_name(10) == "C3"
    assert sorted(neighbours(0)) == [1, 4, 5] and len(neighbours(5)) == 8 and len(neighbours(7)) == 5


# -- single stacks ----------------------------------------------------------------------------------


def test_single_stack_exact_height_counts_every_fitting_stack():
    # Card 2: yellow exactly 3 high, 4 points. Yellow tops: A1 3 high, C2 3 high, D1 2 high, B4 4
    # high; B3 is 3 high but green on top. Two fit: 2 x 4 = 8.
    b = board("RRY . . YY",
              ". . YGY .",
              ". YYG . .",
              ". YYYY . .")
    assert CARDS[2].kind == "single_stack" and CARDS[2].points == 4
    assert count(2, b) == 2 and points(2, b) == 8
    assert score(CARDS[2], b).matches == ((0,), (6,))


def test_single_stack_at_least_and_any_colour():
    # Card 7: green 1+ high, 1 point: A1, B1, C1 and A3 have green on top (D2's green is under a
    # yellow): 4.
    b = board("G GG YG .",
              ". . . GY",
              "RRG . . .",
              ". . . .")
    assert points(7, b) == 4
    # Card 6: any colour exactly 3 high, 2 points: RRG is the only 3-high stack.
    assert points(6, b) == 2
    # Card 23: any colour exactly 2 high, 1 point: GG, YG, GY.
    assert points(23, b) == 3


# -- shapes -----------------------------------------------------------------------------------------


def test_square_2x2_takes_the_most_squares_that_share_no_stack():
    # Card 8: green 2x2 square, 6 points. A 3x3 green block holds 4 squares, all overlapping in the
    # centre cell: 1 counts (6). The top two rows all green: 3 squares, A-B and C-D share nothing: 2 (12).
    block = board("G G G .", "G G G .", "G G G .", ". . . .")
    assert len(matches(CARDS[8], block)) == 4 and points(8, block) == 6
    rows = board("G G G G", "G GG G YG", ". . . .", ". . . .")
    assert len(matches(CARDS[8], rows)) == 3 and points(8, rows) == 12


def test_straight_lines_of_3_in_rows_and_columns():
    # Card 15: green line of 3, 4 points. A full row of 4: two lines, overlapping: 1 (4).
    assert points(15, board("G G G G", ". . . .", ". . . .", ". . . .")) == 4
    # A 3x3 block: 3 rows (or 3 columns) share nothing: 3 (12).
    assert points(15, board("G G G .", "G G G .", "G G G .", ". . . .")) == 12
    # A column of 3 counts the same as a row (rotation).
    assert points(15, board(". . . G", ". . . G", ". . . G", ". . . .")) == 4


def test_diagonal_lines_both_ways():
    # Card 13: green diagonal of 3, 4 points. Both diagonals of the top-left 3x3 cross in B2: 1.
    x = board("G . G .", ". G . .", "G . G .", ". . . .")
    assert len(matches(CARDS[13], x)) == 2 and points(13, x) == 4
    # The main diagonal of 4 holds two overlapping lines: 1; with the other long diagonal: 2 (8).
    both = board("G . . G", ". G G .", ". G G .", "G . . G")
    assert points(13, both) == 8


def test_l_of_3_in_every_rotation_and_the_best_tiling():
    # Card 12: yellow L of 3, 4 points.
    for cells in ((0, 1, 4), (0, 1, 5), (0, 4, 5), (1, 4, 5)):  # the four rotations in one 2x2 block
        b = tuple(("yellow",) if i in cells else () for i in range(16))
        assert count(12, b) == 1, cells
    # A 2x3 block: 2 disjoint Ls (8). The whole board yellow: 5 Ls tile 15 of the 16 cells (20).
    assert points(12, board("Y Y Y .", "Y Y Y .", ". . . .", ". . . .")) == 8
    assert points(12, board("Y Y Y Y", "Y Y Y Y", "Y Y Y Y", "Y Y Y Y")) == 20
    # A straight line of 3 is no L.
    assert points(12, board("Y Y Y .", ". . . .", ". . . .", ". . . .")) == 0


def test_only_the_top_coral_counts():
    # Card 27: yellow 2x2, 6 points. Yellow under red does not count; red under yellow does.
    assert points(27, board("RY Y . .", "Y GRY . .", ". . . .", ". . . .")) == 6
    assert points(27, board("YR Y . .", "Y Y . .", ". . . .", ". . . .")) == 0


# -- pairs ------------------------------------------------------------------------------------------


def test_orthogonal_pair_either_order_and_stack_used_once():
    # Card 9: purple 1+ next to yellow 1+, 3 points.
    # P Y P: two pairs share the yellow stack: 1 (3). P Y P Y: 2 (6). Vertical counts too.
    assert points(9, board("P Y P .", ". . . .", ". . . .", ". . . .")) == 3
    assert points(9, board("P Y P Y", ". . . .", ". . . .", ". . . .")) == 6
    assert points(9, board("P . . .", "Y . . .", ". . . .", ". . . .")) == 3
    # Diagonal neighbours are no orthogonal pair.
    assert points(9, board("P . . .", ". Y . .", ". . . .", ". . . .")) == 0


def test_pair_with_exact_heights():
    # Card 16: purple exactly 2 next to purple exactly 2, 5 points.
    assert points(16, board("PP GP . .", ". . . .", ". . . .", ". . . .")) == 5
    assert points(16, board("PP GPP . .", ". . . .", ". . . .", ". . . .")) == 0  # 3 high is not 2
    # PP PP PP PP in a row: 2 disjoint pairs (10).
    assert points(16, board("PP PP PP PP", ". . . .", ". . . .", ". . . .")) == 10


def test_a_maximum_packing_beats_taking_the_first_match_found():
    # Card 9 (purple next to yellow, 3): the yellow B1 touches the purples A1, C1 and B2; the
    # purple B2 also touches the yellow B3: 4 matches. Taking B1-B2 first would leave only 1; the
    # maximum is A1-B1 (or C1-B1) with B2-B3: 2 (6 points).
    b = board("P Y P .", ". P . .", ". Y . .", ". . . .")
    assert len(matches(CARDS[9], b)) == 4
    assert count(9, b) == 2 and points(9, b) == 6
    chosen = score(CARDS[9], b).matches
    assert len({c for m in chosen for c in m}) == 4  # no stack used twice


def test_diagonal_pair_with_minimum_heights():
    # Card 24: purple 2+ diagonal to red 2+, 5 points. PP at A1, RR at B2: 1. A 1-high red: 0.
    assert points(24, board("PP . . .", ". RR . .", ". . . .", ". . . .")) == 5
    assert points(24, board("PP . . .", ". R . .", ". . . .", ". . . .")) == 0
    # The other diagonal direction, and 3 high counts as 2+.
    assert points(24, board(". GPP . .", "RRR . . .", ". . . .", ". . . .")) == 5


# -- highest stack surrounded by --------------------------------------------------------------------


def test_highest_surround_takes_the_tallest_centre_and_the_best_among_equals():
    # Card 10: centre purple, yellow neighbours, 2 points each.
    # Purple tops: B2 3 high with 3 yellow neighbours (A1, A2, C2), C3 3 high with 4 (C2, D2, D3,
    # B4), A4 only 1 high. The tallest are B2 and C3; the better one counts: 4 x 2 = 8.
    b = board("Y . . .",
              "Y GGP Y Y",
              ". . RRP Y",
              "P Y . .")
    s = score(CARDS[10], b)
    assert (s.count, s.points) == (4, 8)
    assert s.matches[0][0] == 10  # the centre first, then the counted neighbours
    assert sorted(s.matches[0][1:]) == [6, 7, 11, 13]


def test_highest_surround_uses_the_tallest_even_with_fewer_neighbours():
    # A 2-high purple with no yellow neighbour beats a 1-high purple surrounded by yellow: 0.
    b = board("Y Y Y .", "Y P Y .", "Y Y . .", ". . . PP")
    assert score(CARDS[10], b).points == 0
    # No purple at all: 0. Neighbours are 8-way: diagonal ones count.
    assert score(CARDS[10], board("Y Y . .", ". . . .", ". . . .", ". . . .")).points == 0
    assert score(CARDS[10], board("Y . Y .", ". P . .", "Y . Y .", ". . . .")).points == 8


def test_cards_left_in_hand_score_once_if_matched():
    full = board("Y Y Y Y", "Y Y Y Y", "Y Y Y Y", "Y Y Y Y")
    assert points(12, full) == 20 and hand_points(CARDS[12], full) == 4  # once, not 5 times
    assert hand_points(CARDS[8], full) == 0  # green square: no match
    # highest surround in hand: its points once when the count is at least 1.
    b = board("Y P . .", ". . . .", ". . . .", ". . . .")
    assert score(CARDS[10], b).count == 1 and hand_points(CARDS[10], b) == 2
    assert hand_points(CARDS[10], board("Y . . .", ". . . .", ". . . P", ". . . .")) == 0


# -- the maximum, proved ----------------------------------------------------------------------------


def brute_force(found: tuple[tuple[int, ...], ...]) -> int:
    """The largest number of pairwise disjoint matches, by trying every subset."""
    best = 0
    sets = [frozenset(m) for m in found]
    for chosen in range(1 << len(sets)):
        picked = [s for i, s in enumerate(sets) if chosen >> i & 1]
        if len(picked) > best and sum(map(len, picked)) == len(frozenset().union(*picked)):
            best = len(picked)
    return best


def random_board(rnd: random.Random):
    # Lopsided colour weights give dense patterns (many overlapping matches); heights 0-4.
    weights = [rnd.random() ** 3 for _ in COLOURS]
    return tuple(tuple(rnd.choices(COLOURS, weights, k=rnd.choice((0, 1, 1, 2, 2, 3, 4)))) for _ in range(16))


def test_packing_equals_a_brute_force_over_every_subset_on_random_boards():
    rnd = random.Random(2024)
    checked = dense = 0
    kinds = set()
    for _ in range(600):
        b = random_board(rnd)
        for card in rnd.sample(sorted(CARDS.values(), key=lambda c: c.n), 12):
            if card.kind == "highest_surround":
                continue
            found = matches(card, b)
            if len(found) > 14:
                continue  # 2^14 subsets at most, so the brute force stays quick
            chosen = packing(found)
            # The packing is a real one: its matches come from the board and share no stack.
            assert set(chosen) <= set(found)
            cells = [c for m in chosen for c in m]
            assert len(cells) == len(set(cells))
            assert len(chosen) == brute_force(found), (card.n, b)
            assert score(card, b).points == card.points * len(chosen)
            checked += 1
            dense += len(found) >= 4
            kinds.add(card.kind)
    assert checked > 2000 and dense > 300
    assert kinds == {"single_stack", "square_2x2", "line3_orthogonal", "line3_diagonal", "L3", "pair_orthogonal",
                     "pair_diagonal"}


@pytest.mark.parametrize(("n", "expected"), [(12, 5), (8, 4), (15, 5), (9, 8)])
def test_packing_on_full_boards_matches_known_maxima(n, expected):
    # One colour everywhere (the pair card: its two colours as a checkerboard). L of 3: 5 tile 15
    # of the 16 cells; 2x2: 16 / 4; lines of 3: 5 too (rows 1-4 take A-C, column D takes rows 2-4);
    # pairs: every cell paired, 16 / 2.
    card = CARDS[n]
    if card.kind == "pair_orthogonal":
        full = tuple(((card.a.top if (i // 4 + i % 4) % 2 else card.b.top),) for i in range(16))
    else:
        full = tuple((card.a.top,) for _ in range(16))
    assert score(card, full).count == expected


def test_highest_surround_against_a_direct_count():
    rnd = random.Random(7)
    for _ in range(300):
        b = random_board(rnd)
        for card in (c for c in CARDS.values() if c.kind == "highest_surround"):
            tops = [i for i in range(16) if b[i] and b[i][-1] == card.a.top]
            if not tops:
                assert score(card, b).points == 0
                continue
            tallest = max(len(b[i]) for i in tops)
            best = max(sum(1 for n in neighbours(i) if b[n] and b[n][-1] == card.b.top)
                       for i in tops if len(b[i]) == tallest)
            assert score(card, b).count == best and score(card, b).points == best * card.points


def test_every_card_is_scored_quickly_even_on_dense_boards():
    # The phone's preview scores up to 16 cells at once; a view must stay far below a frame.
    rnd = random.Random(3)
    boards = [random_board(rnd) for _ in range(40)] + [tuple((c,) for _ in range(16)) for c in COLOURS]
    start = time.perf_counter()
    for b in boards:
        for card in CARDS.values():
            score(card, b)
    per = (time.perf_counter() - start) / (len(boards) * len(CARDS))
    assert per < 0.005, per


def test_the_60_cards_match_the_reference_data():
    # Each colour is gained 30 times over the deck, and one card per colour for each shape.
    gained = [c for card in CARDS.values() for c in card.corals]
    assert all(gained.count(c) == 30 for c in COLOURS)
    assert len(CARDS) == 60 and sorted(CARDS) == list(range(1, 61))
    for kind in ("square_2x2", "line3_orthogonal", "line3_diagonal", "L3"):
        assert sorted(c.a.top for c in CARDS.values() if c.kind == kind) == sorted(COLOURS)
    assert sum(1 for c in CARDS.values() if c.kind == "highest_surround") == 8
