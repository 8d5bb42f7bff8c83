"""The engine's one interface: legal, distinct stones; position untouched; wins and blocks."""

import random

import pytest

from connect6.ai import DEFAULT_BUDGETS, LEVELS, Hint, choose_move, hint
from connect6.rules import Position


def _play(pos: Position, *pairs):
    for stones in pairs:
        pos.play(stones)
    return pos


def test_levels_and_budgets():
    assert LEVELS == ("easy", "normal", "hard")
    assert set(DEFAULT_BUDGETS) == set(LEVELS)


@pytest.mark.parametrize("size", [15, 19])
def test_opening_is_one_stone_at_the_centre(size):
    pos = Position(size)
    assert choose_move(pos, "easy") == (pos.point(size // 2, size // 2),)


@pytest.mark.parametrize("level", LEVELS)
def test_move_is_legal_and_position_unchanged(level):
    # Given a game a few turns in
    pos = Position(19)
    c = pos.point
    _play(pos, [c(9, 9)], [c(10, 10), c(10, 9)], [c(8, 8), c(11, 11)])
    before = (pos.cells, pos.turns, pos.to_move)
    # When the engine chooses
    move = choose_move(pos, level, budget_s=0.05, rng=random.Random(1))
    # Then it is two distinct empty points and the position is as it was
    assert (pos.cells, pos.turns, pos.to_move) == before
    assert len(move) == 2 and len(set(move)) == 2
    pos.play(move)


def test_wins_when_it_can_even_when_threatened():
    pos = Position(19)
    c = pos.point
    # Black has four in row 0 open, White has four in row 5.
    _play(pos, [c(9, 0)], [c(3, 5), c(4, 5)], [c(10, 0), c(11, 0)], [c(5, 5), c(6, 5)],
          [c(12, 0), c(0, 18)])
    # White to move has a four and wins at once
    move = choose_move(pos, "easy")
    result = pos.play(move)
    assert result.winner is not None and result.winner.value == "white"


def test_blocks_a_live_four_with_both_stones():
    pos = Position(19)
    c = pos.point
    _play(pos, [c(9, 9)], [c(0, 0), c(18, 18)], [c(10, 9), c(11, 9)], [c(0, 18), c(18, 0)],
          [c(12, 9), c(0, 9)])
    # White must answer Black's live four (9..12 on row 9) with both stones
    move = choose_move(pos, "easy")
    pos.play(move)
    # Then Black cannot make six with any pair on row 9 ends
    black_pairs = [(c(7, 9), c(8, 9)), (c(13, 9), c(14, 9)), (c(8, 9), c(13, 9))]
    for pair in black_pairs:
        if all(pos.is_empty(p) for p in pair):
            assert pos.copy().play(list(pair)).winner is None


def test_hint_gives_reason():
    pos = Position(19)
    h = hint(pos, budget_s=0.05)
    assert isinstance(h, Hint) and len(h.stones) == 1 and h.reason


def test_hint_reasons_for_a_win_and_a_block():
    pos = Position(19)
    c = pos.point
    # Black: four on row 9 (open); White to move must block both ends
    _play(pos, [c(9, 9)], [c(0, 0), c(18, 18)], [c(10, 9), c(11, 9)], [c(0, 18), c(18, 0)],
          [c(12, 9), c(3, 3)])
    h = hint(pos, budget_s=0.05)
    assert h.reason == "blocks a six"
    after = pos.copy()
    after.play(h.stones)
    # After a bad White reply Black's hint is the win
    pos.play([c(1, 1), c(2, 2)])
    h = hint(pos, budget_s=0.05)
    assert h.reason == "wins now"
    assert pos.copy().play(h.stones).winner is not None
