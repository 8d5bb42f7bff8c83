"""Losses to Cloudict at depth 6 that began with a double threat leading into a single four: our
move let the opponent make two threats, and after every defence of them it had a single-four entry
(a single threat after which every block loses to a VCDT). The VCDT solver does not see the line
(its turns are all double threats) and neither does the entry (its first turn is a single threat),
so hard's safety check passed the move; ``Vcdt.double_warning`` looks for exactly this line, and
hard's safety check runs it (``LevelConfig.double_entry``).

Each case: the move played in the game leaves a double warning but no VCDT and no entry warning,
and the opponent's next move in the game was a double threat; hard's answer leaves none of the
three. The cases come from tools/lab/loss_analysis-style replays of arena records (the positions
where the check first fired in games hard lost as White; docs/experiments/ai-rounds.md).
"""

import random

import pytest

from connect6.ai import search
from connect6.ai.board import Board, count_hits, hitting_moves
from tests.unit.ai.lost_games import (
    BUDGET_S,
    ENTRY_DEPTH,
    MAX_DEPTH,
    NODES,
    VCDT_DEPTH,
    NodeLimitedVcdt,
    board_after,
    case_stones,
    cases,
    position_of,
)

CASES = cases("double_entry_positions.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_game_move_leaves_a_double_threat_into_an_entry_that_the_older_checks_miss(case):
    # Given the position after the move played in the game
    pos = position_of(case)
    assert pos.to_move.value == case["to_move"]
    board, o = board_after(pos, case_stones(case, "played_lg"))
    # Then the opponent has no VCDT and no single-four entry there
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is None
    # but a double threat after which every defence meets a VCDT or an entry
    found = NodeLimitedVcdt(board, NODES).double_warning(o, ENTRY_DEPTH)
    assert found is not None
    turns, (a, b) = found
    assert turns >= 3
    board.place(a, o)
    board.place(b, o)
    sets = board.threat_sets(o)
    assert count_hits(sets) == 2
    defences = hitting_moves(sets)[1]
    assert defences
    for c, d in defences:
        board.place(c, 1 - o)
        board.place(d, 1 - o)
        solver = NodeLimitedVcdt(board, NODES)
        assert solver.solve(o, ENTRY_DEPTH) is not None or solver.warning(o, ENTRY_DEPTH) is not None, (c, d)
        board.remove(d, 1 - o)
        board.remove(c, 1 - o)
    # and the opponent's reply in the game was such a double threat
    board.remove(b, o)
    board.remove(a, o)
    reply = case_stones(case, "reply_lg")
    board.place(reply[0], o)
    board.place(reply[1], o)
    assert count_hits(board.threat_sets(o)) == 2


def test_no_double_warning_while_a_threat_is_on_the_board():
    # Given a position where the side to move faces a threat (the second case's opponent has
    # just made a double threat in the game)
    case = CASES[1]
    pos = position_of(case)
    played = pos.copy()
    played.play(case_stones(case, "played_lg"))
    played.play(case_stones(case, "reply_lg"))
    board = Board.from_position(played)
    side = 0 if played.to_move.value == "black" else 1
    assert board.thr[1 - side]
    # Then neither side's double warning answers: the threat is answered first
    assert NodeLimitedVcdt(board, NODES).double_warning(side, ENTRY_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).double_warning(1 - side, ENTRY_DEPTH) is None


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_hard_answer_leaves_no_double_warning(case, cpu_clock):
    pos = position_of(case)
    result = search(pos, "hard", budget_s=BUDGET_S, rng=random.Random(0), max_depth=MAX_DEPTH)
    board, o = board_after(pos, list(result.stones))
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None, result.stones
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is None, result.stones
    assert NodeLimitedVcdt(board, NODES).double_warning(o, ENTRY_DEPTH) is None, result.stones
