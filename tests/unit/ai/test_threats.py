"""Windows, exact threat counts and the ways to block them (docs/ai.md, "Threats")."""

import itertools
import random

import pytest

from connect6.ai.board import Board, count_hits, hitting_moves, tables

N = 19


def board_with(black=(), white=(), n=N):
    b = Board(n)
    for p in black:
        b.place(p, 0)
    for p in white:
        b.place(p, 1)
    return b


def row(r, *cols, n=N):
    return [r * n + c for c in cols]


def brute_hits(sets):
    cells = sorted({q for x in sets for q in x})
    for k in range(0, 4):
        for combo in itertools.combinations(cells, k):
            if all(any(q in x for q in combo) for x in sets):
                return k
    return 3


@pytest.mark.parametrize(("n", "windows"), [(19, 924), (15, 500)])
def test_window_counts(n, windows):
    t = tables(n)
    assert t.nwin == windows
    assert max(len(x) for x in t.wof) == 24


@pytest.mark.parametrize(
    ("black", "white", "threats"),
    [
        (row(9, 6, 7, 8, 9), [], 2),  # live four
        (row(9, 1, 2, 3, 4), row(9, 0), 1),  # four blocked on one side
        (row(9, 5, 6, 7, 8, 9), [], 2),  # live five
        (row(9, 2, 3, 4, 5, 7, 8, 9, 10), [], 3),  # BBBB.BBBB
        (row(9, 4, 5, 6), [], 0),  # a three is no threat
    ],
)
def test_reference_shapes(black, white, threats):
    b = board_with(black, white)
    assert count_hits(b.threat_sets(0)) == threats


def test_crossing_broken_fours_share_one_block():
    # Given X . B B _ B B . X horizontally and vertically, sharing the gap at (9, 9)
    n = N
    black = [9 * n + c for c in (7, 8, 10, 11)] + [r * n + 9 for r in (7, 8, 10, 11)]
    white = [9 * n + 5, 9 * n + 13, 5 * n + 9, 13 * n + 9]
    b = board_with(black, white)
    sets = b.threat_sets(0)
    # Then the per-line sum would say 2, the exact count is 1
    assert count_hits(sets) == 1
    singles, _ = hitting_moves(sets)
    assert singles == [9 * n + 9]


def test_live_four_has_three_defending_pairs_and_live_five_one():
    b = board_with(row(9, 6, 7, 8, 9))
    singles, pairs = hitting_moves(b.threat_sets(0))
    assert singles == []
    assert {tuple(sorted(p)) for p in pairs} == {
        tuple(sorted(row(9, 5, 10))), tuple(sorted(row(9, 4, 10))), tuple(sorted(row(9, 5, 11)))}
    b = board_with(row(9, 5, 6, 7, 8, 9))
    singles, pairs = hitting_moves(b.threat_sets(0))
    assert singles == [] and pairs == [tuple(sorted(row(9, 4, 10)))]


def test_exact_count_matches_brute_force_on_random_positions():
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        b = Board(N)
        cells = rng.sample(range(N * N), 120)
        for p in cells[:80]:
            b.place(p, 0)
        for p in cells[80:]:
            b.place(p, 1)
        sets = b.threat_sets(0)
        if sets:
            checked += 1
            assert count_hits(sets) == brute_hits(sets)
            singles, pairs = hitting_moves(sets)
            for a in singles:
                assert all(a in x for x in sets)
            for a, c in pairs:
                assert all(a in x or c in x for x in sets)
    assert checked > 50


def test_incremental_state_matches_a_rebuild_after_make_undo():
    rng = random.Random(9)
    b = Board(15)
    played = []
    for i in range(60):
        p = rng.choice([q for q in range(225) if b.cells[q] < 0])
        b.place(p, i % 2)
        played.append((p, i % 2))
    for p, s in reversed(played[30:]):
        b.remove(p, s)
    fresh = board_with([p for p, s in played[:30] if s == 0], [p for p, s in played[:30] if s == 1], 15)
    assert b.code == fresh.code and b.score == fresh.score and b.hash == fresh.hash
    assert b.thr == fresh.thr and b.near == fresh.near and b.open == fresh.open
