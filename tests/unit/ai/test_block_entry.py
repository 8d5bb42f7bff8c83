"""Losses to Cloudict that began with a four of ours: hard's move made a single threat (a four),
Cloudict blocked it with one stone and made a four of its own with the other, and after every
block of that four it had a VCDT. The entry warning looked only at positions with no threat on
the board, so hard's safety check passed such a move; ``Vcdt.entry`` now also tries the moves
that block the defender's threats and make a four (``_blocking_entry_moves``).

Each case: a quiet loss found by tools/lab/loss_analysis.py in the shipped engine's arena runs
against Cloudict depths 2, 4 and 6 (docs/experiments/ai-rounds.md, "Issue 31: the four that
hands over the initiative"): the move played, the opponent's reply in the game (``reply_lg``),
which the old entry did not report. In three of them a block with a free stone that leaves no
entry existed (``holding_lg``); in the other three none did (the game was lost a turn earlier).
"""

import random

import pytest

from connect6.ai import search
from connect6.ai.board import count_hits, hitting_moves
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

CASES = cases("block_entry_positions.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_game_move_makes_a_four_whose_block_is_an_entry(case):
    # Given the position after the move played in the game: a four of ours on the board
    pos = position_of(case)
    assert pos.to_move.value == case["to_move"]
    board, o = board_after(pos, case_stones(case, "played_lg"))
    assert board.thr[1 - o] and not board.thr[o]
    # Then the opponent has no VCDT
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None
    # but a move that blocks the four and makes one of its own, after which every block of it
    # (with the free stone anywhere) meets a VCDT: a forced win the entry now reports
    found = NodeLimitedVcdt(board, NODES).entry(o, ENTRY_DEPTH)
    assert found is not None
    _turns, (a, b) = found
    board.place(a, o)
    board.place(b, o)
    assert not board.thr[1 - o]
    assert count_hits(board.threat_sets(o)) == 1
    board.remove(b, o)
    board.remove(a, o)
    # and so does the warning hard's safety check runs
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is not None
    # and the opponent's reply in the game was such a move: a block of every threat of ours
    # and exactly one threat of its own
    reply = case_stones(case, "reply_lg")
    for q in reply:
        board.place(q, o)
    assert not board.thr[1 - o]
    assert count_hits(board.threat_sets(o)) == 1
    for c in hitting_moves(board.threat_sets(o))[0]:
        board.place(c, 1 - o)
        assert not board.thr[1 - o], "the block makes no four: the attacker keeps the initiative"
        board.remove(c, 1 - o)


def test_a_side_with_a_four_of_its_own_on_the_board_has_no_entry():
    # Given the first case's position after the game move: the side that made the four has a
    # six next turn, which is not an entry's business
    case = CASES[0]
    board, o = board_after(position_of(case), case_stones(case, "played_lg"))
    assert board.thr[1 - o]
    # Then the entry does not answer for that side
    assert NodeLimitedVcdt(board, NODES).entry(1 - o, ENTRY_DEPTH) is None


HOLDABLE = [c for c in CASES if c["holding_lg"]]


@pytest.mark.parametrize("case", HOLDABLE, ids=[c["id"] for c in HOLDABLE])
def test_a_move_that_leaves_no_entry_existed(case):
    # Given the position before the game move and the recorded holding move (found by trying
    # every block with every free stone; the other cases had none: lost a turn earlier)
    pos = position_of(case)
    board, o = board_after(pos, case_stones(case, "holding_lg"))
    # Then the opponent has neither a VCDT nor an entry after it
    assert not board.thr[o]
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is None


@pytest.mark.slow
@pytest.mark.parametrize("case", HOLDABLE, ids=[c["id"] for c in HOLDABLE])
def test_the_hard_answer_leaves_no_entry(case, cpu_clock):
    # Given a position where a holding move exists, When hard answers with a generous budget
    pos = position_of(case)
    result = search(pos, "hard", budget_s=BUDGET_S, rng=random.Random(0), max_depth=MAX_DEPTH)
    # Then it is not the game move, and the opponent has neither a VCDT nor an entry after it
    assert sorted(result.stones) != sorted(case_stones(case, "played_lg"))
    board, o = board_after(pos, list(result.stones))
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None, result.stones
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is None, result.stones
