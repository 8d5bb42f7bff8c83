"""Quiet losses against Cloudict: our move let the opponent play a single four with a building
stone, after which every block lost to continuous double threats (tools/lab/loss_analysis.py class
``quiet-loss``). The engine's warning for these is the VCDT solver's single-four *entry*
(docs/ai.md, "Forced wins"); hard's safety check rejects a chosen move that leaves one (its
cheap form, ``Vcdt.warning``: the defender's free stone on its best few counter-fours and its 4
best points only).

Each case: the move played in the game leaves an entry, as a warning and as a proof (every free
stone tried); hard's answer (fixed search depth, a generous budget) leaves no warning, no entry
proof and no VCDT of up to 7 turns. The checks of the answer
are node-limited; the answer's own time-capped checks (the root screen's per-move slices are a
share of the budget) run on the engine's CPU clock, so another program on the machine does not cut
them short. g36 was answered well in some runs and not in others before that (wall clock, loaded
machine). Both were listed as failing until the warning tried the defender's counter-fours
(issue 8, round 8); hard's answers there now leave neither a warning nor an entry proof.
"""

import json
import random
from pathlib import Path

import pytest

from connect6.ai import search
from connect6.ai.board import Board
from connect6.records import parse_label, split_labels
from connect6.rules import Position
from tests.unit.ai.lost_games import NodeLimitedVcdt, position_of

DATA = Path(__file__).resolve().parent / "data" / "quiet_positions.jsonl"
CASES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]

MAX_DEPTH = 2
BUDGET_S = 60.0
NODES = 300_000
ENTRY_DEPTH = 6  # hard's entry check
VCDT_DEPTH = 6  # double-threat turns: refutations of up to 7 turns

# Cases the engine still answers with a move that leaves an entry (xfail, not strict).
KNOWN_FAILING: set[str] = set()


def after(pos: Position, stones: list[int]) -> tuple[Board, int]:
    played = pos.copy()
    played.play(stones)
    return Board.from_position(played), 0 if played.to_move.value == "black" else 1


def test_the_game_move_leaves_a_single_four_entry():
    assert len(CASES) >= 3
    for case in CASES:
        pos = position_of(case)
        assert pos.to_move.value == case["to_move"]
        board, o = after(pos, [parse_label(x, case["size"]) for x in split_labels(case["played_lg"])])
        assert NodeLimitedVcdt(board, NODES).warning(o, ENTRY_DEPTH) is not None, case["id"]
        # and the entry is a forced win, whatever the defender's free stone
        assert NodeLimitedVcdt(board, NODES).entry(o, ENTRY_DEPTH) is not None, case["id"]


def _param(case: dict):
    marks = [pytest.mark.xfail(reason="the engine still leaves an entry", strict=False)] \
        if case["id"] in KNOWN_FAILING else []
    return pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.slow
@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_the_hard_answer_leaves_no_entry(case, cpu_clock):
    pos = position_of(case)
    result = search(pos, "hard", budget_s=BUDGET_S, rng=random.Random(0), max_depth=MAX_DEPTH)
    board, o = after(pos, list(result.stones))
    solver = NodeLimitedVcdt(board, NODES)
    assert solver.solve(o, VCDT_DEPTH) is None, f"{case['id']}: {result.stones} leaves a VCDT"
    assert solver.warning(o, ENTRY_DEPTH) is None, f"{case['id']}: {result.stones} leaves an entry"
    assert NodeLimitedVcdt(board, NODES).entry(o, ENTRY_DEPTH) is None, \
        f"{case['id']}: {result.stones} leaves an entry proof"

