"""Every level wins at once when it can and blocks whenever a block is possible, on positions
derived from real games (Little Golem, when the data file is present) and from engine games."""

import random

import pytest

from connect6.ai import LEVELS, choose_move
from connect6.ai.board import Board, count_hits
from tests.support.positions import ENGINE_GAMES, LITTLE_GOLEM, derive, load_games

BUDGET = 0.01  # the root pipeline decides these before any deep search


def check_win(pos, level, seed):
    mover = pos.to_move
    move = choose_move(pos, level, budget_s=BUDGET, rng=random.Random(seed))
    result = pos.copy().play(move)
    assert result.winner == mover, f"{level} missed a win: {move} in\n" + "\n".join(pos.board_rows())


def check_block(pos, level, seed):
    s = 0 if pos.to_move.value == "black" else 1
    board = Board.from_position(pos)
    can_win = bool(board.thr[s])
    threats = count_hits(board.threat_sets(1 - s))
    move = choose_move(pos, level, budget_s=BUDGET, rng=random.Random(seed))
    after = pos.copy()
    result = after.play(move)
    if can_win:
        assert result.winner is not None, f"{level} missed a win while threatened"
        return "win"
    if threats >= 3:
        return "lost"
    assert threats >= 1
    left = Board.from_position(after)
    assert not left.thr[1 - s], f"{level} failed to block ({threats} threats): {move} in\n" + "\n".join(
        pos.board_rows())
    return "blocked"


def _sample(items, k, seed):
    rng = random.Random(seed)
    return items if len(items) <= k else rng.sample(items, k)


@pytest.fixture(scope="module")
def engine_positions():
    return derive(load_games(ENGINE_GAMES))


@pytest.mark.parametrize("level", LEVELS)
def test_engine_game_positions_win_and_block(engine_positions, level):
    wins, blocks = engine_positions
    wins = _sample(wins, 120, 1)
    blocks = _sample(blocks, 120, 2)
    assert len(wins) >= 100 and len(blocks) >= 100
    for i, pos in enumerate(wins):
        check_win(pos, level, i)
    outcomes = [check_block(pos, level, i) for i, pos in enumerate(blocks)]
    assert outcomes.count("blocked") >= 80


@pytest.fixture(scope="module")
def little_golem_positions():
    # The records ship with the repo (tests/data/littlegolem): missing them is a failure, not a skip.
    return derive(load_games(LITTLE_GOLEM, limit=1600), symmetries=1)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_little_golem_positions_win_and_block(little_golem_positions, level):
    # Given hundreds of positions from real 19x19 Little Golem games
    wins, blocks = little_golem_positions
    assert len(wins) >= 300 and len(blocks) >= 1000
    wins = _sample(wins, 300, 3)
    blocks = _sample(blocks, 200, 4)
    # When each level answers, Then it makes six whenever it can, and blocks whenever it can
    for i, pos in enumerate(wins):
        check_win(pos, level, i)
    outcomes = [check_block(pos, level, i) for i, pos in enumerate(blocks)]
    assert outcomes.count("blocked") >= 100
