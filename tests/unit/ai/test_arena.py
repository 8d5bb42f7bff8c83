"""The arena's bookkeeping and one real game between two engine processes."""

import math
import random

import pytest

from connect6.rules import Position
from tools import arena


def test_elo_of_scores():
    assert arena.elo(0.5) == 0
    assert arena.elo(0.75) == pytest.approx(190.8, abs=0.1)
    assert arena.elo(1.0) == math.inf and arena.elo(0.0) == -math.inf
    e, lo, hi = arena.elo_interval([1.0] * 30 + [0.0] * 10)
    assert lo < e < hi


def test_percentile_and_move_text():
    assert arena.percentile([1.0, 2.0, 3.0, 4.0], 0.99) == 4.0
    assert arena.percentile(list(range(1, 101)), 0.5) == 50
    assert arena.move_text([9 * 19 + 9], 19) == "JJ"
    assert arena.parse_move("JJKK", 19) == [9 * 19 + 9, 10 * 19 + 10]
    with pytest.raises(ValueError):
        arena.parse_move("ZZ", 19)


@pytest.mark.parametrize("size", [15, 19])
def test_openings_are_legal_and_varied(size):
    rng = random.Random(1)
    openings = [arena.make_opening(size, rng) for _ in range(10)]
    for op in openings:
        Position.from_turns(op, size)
    assert len({str(op) for op in openings}) > 5


def test_a_game_between_two_engine_processes_is_checked_and_timed():
    specs = {"ours:easy#A": arena.expand("ours:easy", 9), "baseline:easy": arena.expand("baseline:easy", 9)}
    opening = arena.make_opening(9, random.Random(2))
    rec = arena.play_game(specs, "ours:easy#A", "baseline:easy", opening, 9, 20.0, 60, None, 0, {})
    assert rec.reason in ("six", "draw", "turn limit")
    final = Position.from_turns(rec.turns, 9)
    if rec.reason == "six":
        assert final.winner is not None
    assert rec.times["ours:easy#A"] and rec.times["baseline:easy"]


def test_engine_labels_and_commands():
    assert arena.split_label("v1=python3 main.py --size {size}") == ("v1", "python3 main.py --size {size}")
    assert arena.split_label("ours:hard") == ("ours:hard", "ours:hard")
    assert arena.expand("engine --size {size}", 15) == ["engine", "--size", "15"]
    assert arena.expand("ours:hard", 15)[-4:] == ["--size", "15", "--level", "hard"]
