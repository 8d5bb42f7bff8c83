"""One run of the VCDT solver in either of its forms, for comparing the C kernel with the Python
reference (``tests/unit/ai/test_csearch.py`` and ``tools/lab/csearch_diff.py``)."""

from __future__ import annotations

from connect6.ai.board import Board
from connect6.ai.vcdt import Vcdt
from connect6.rules import Position


def solver_run(position: Position, pure: bool, kind: str, side: int, depth: int) -> tuple[object, ...]:
    """What the solver's ``kind`` (``solve``, ``warning`` or ``doubles``) answers for ``side`` in
    ``position``, with everything that must agree between the two forms: the answer, the node count,
    the zone, the failure table and the board after it."""
    board = Board.from_position(position)
    solver = Vcdt(board, float("inf"), pure=pure)
    if kind == "solve":
        answer: object = solver.solve(side, depth)
    elif kind == "warning":
        answer = solver.warning(side, depth)
    else:
        answer = solver.doubles(side, 100)
    return answer, solver.nodes, sorted(solver.zone), sorted(solver.fail.items()), board.cells
