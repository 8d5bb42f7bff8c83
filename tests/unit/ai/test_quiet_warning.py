"""Losses to Cloudict at depth 6 that began with a quiet move: our move left the opponent no
threat line at all, but a pair (quiet, or a single four) after which every reply of ours met a
VCDT. The VCDT check, the entry warning and the double warning see nothing after our move (each
starts with a threat of the attacker's now); a turn later nothing holds any more. This is the
class of most of hard's losses as White (docs/experiments/ai-rounds.md, "the quiet refutation").
``Vcdt.quiet_warning`` looks for that pair among the attacker's best few, with the defender's
best replies after it.

Each case: the move played in the game leaves no VCDT, no entry warning and no double warning,
but a quiet warning; in two of them the pair found is the one Cloudict played. ``holds_lg`` is a
move of the same position after which none of the four checks answers (a move that could have
been played). The positions are the loss analysis' findings of hard's games against depth 6
(docs/experiments/records/ow7b-d6-losses-*.jsonl.gz).
"""

import dataclasses
import random

import pytest

from connect6.ai import search
from connect6.ai.board import Board, count_hits
from connect6.ai.movegen import defence_pairs, normal_pairs
from connect6.ai.search import LEVEL_CONFIGS
from connect6.ai.vcdt import QUIET_FREE, QUIET_REPLIES
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

CASES = cases("quiet_loss_positions.jsonl")
QUIET_DEPTH = 6


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_game_move_leaves_a_quiet_pair_before_a_vcdt_that_the_other_checks_miss(case):
    # Given the position after the move played in the game
    pos = position_of(case)
    assert pos.to_move.value == case["to_move"]
    board, o = board_after(pos, case_stones(case, "played_lg"))
    # Then the opponent has no VCDT, no single-four entry and no double threat into either
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).double_warning(o, ENTRY_DEPTH) is None
    # but a pair after which each of our best replies meets a VCDT
    found = NodeLimitedVcdt(board, NODES).quiet_warning(o, QUIET_DEPTH)
    assert found is not None
    turns, (a, b) = found
    board.place(a, o)
    board.place(b, o)
    sets = board.threat_sets(o)
    assert count_hits(sets) < 3  # not a triple threat (that is the VCDT's own first turn)
    replies = (defence_pairs(board, 1 - o, sets, QUIET_FREE) if sets
               else normal_pairs(board, 1 - o, 12, 5))[:QUIET_REPLIES]
    assert replies
    longest = 0
    for c, d in ((c, d) for _, c, d in replies):
        board.place(c, 1 - o)
        board.place(d, 1 - o)
        assert not board.thr[1 - o], (c, d)
        line = NodeLimitedVcdt(board, NODES).solve(o, QUIET_DEPTH)
        assert line is not None, (c, d)
        longest = max(longest, line[0])
        board.remove(d, 1 - o)
        board.remove(c, 1 - o)
    assert turns == longest + 1


def test_two_of_the_pairs_found_are_the_ones_cloudict_played():
    matched = []
    for case in CASES:
        board, o = board_after(position_of(case), case_stones(case, "played_lg"))
        found = NodeLimitedVcdt(board, NODES).quiet_warning(o, QUIET_DEPTH)
        assert found is not None
        if set(found[1]) == set(case_stones(case, "reply_lg")):
            matched.append(case["id"])
    assert matched == ["hard-ow7b-d6-white-g8-t4", "hard-ow7b-d6-white-g34-t4"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_another_move_of_the_same_position_leaves_no_quiet_warning(case):
    board, o = board_after(position_of(case), case_stones(case, "holds_lg"))
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).quiet_warning(o, QUIET_DEPTH) is None


def test_no_quiet_warning_while_a_threat_is_on_the_board():
    # Given a 19x19 board where Black has four in a row (a threat) and White two stones
    board = Board(19)
    for c in (5, 6, 7, 8):
        board.place(9 * 19 + c, 0)
    for q in (3 * 19 + 3, 3 * 19 + 4):
        board.place(q, 1)
    assert board.thr[0]
    # Then neither side's quiet warning answers: the threat is answered first
    assert NodeLimitedVcdt(board, NODES).quiet_warning(0, QUIET_DEPTH) is None
    assert NodeLimitedVcdt(board, NODES).quiet_warning(1, QUIET_DEPTH) is None


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_level_with_the_quiet_check_answers_with_a_move_that_leaves_no_quiet_warning(
        case, cpu_clock, monkeypatch):
    # Given hard with the quiet check (whether or not the level ships it)
    monkeypatch.setitem(LEVEL_CONFIGS, "hard",
                        dataclasses.replace(LEVEL_CONFIGS["hard"], quiet_check=QUIET_DEPTH))
    pos = position_of(case)
    result = search(pos, "hard", budget_s=BUDGET_S, rng=random.Random(0), max_depth=MAX_DEPTH)
    board, o = board_after(pos, list(result.stones))
    assert NodeLimitedVcdt(board, NODES).solve(o, VCDT_DEPTH) is None, result.stones
    assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is None, result.stones
    assert NodeLimitedVcdt(board, NODES).quiet_warning(o, QUIET_DEPTH) is None, result.stones
