"""What the tests of positions from games lost to Cloudict share: the positions, and the repo's
VCDT solver limited by nodes instead of a clock (so a check's verdict does not depend on the
machine's load)."""

import json
from pathlib import Path

from connect6.ai.board import Board
from connect6.ai.protocol import parse_stones
from connect6.ai.search import LEVEL_CONFIGS
from connect6.ai.vcdt import Vcdt
from connect6.records import parse_label, split_labels
from connect6.rules import Position

DATA = Path(__file__).resolve().parent / "data"

# What the tests of hard's answers in these positions give it: a fixed alpha-beta depth and a
# budget the clock never reaches (the rest goes to the checks), and solvers limited by nodes.
NODES = 300_000
MAX_DEPTH = 2
BUDGET_S = 60.0
# hard's own check depths: its entry warnings (single four, double threat) and its VCDT check.
ENTRY_DEPTH = LEVEL_CONFIGS["hard"].entry_check
VCDT_DEPTH = LEVEL_CONFIGS["hard"].opp_check


def cases(name: str) -> list[dict]:
    """The cases of ``tests/unit/ai/data/<name>`` (JSON lines)."""
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


class NodeLimitedVcdt(Vcdt):
    """The repo's VCDT solver with a node limit instead of a clock."""

    def __init__(self, board: Board, limit: int) -> None:
        super().__init__(board, deadline=float("inf"), node_limit=limit)


def position_of(case: dict) -> Position:
    """A case's position: its ``turns`` in arena letters on a board of its ``size``."""
    size = case["size"]
    return Position.from_turns([parse_stones(t, size) for t in case["turns"]], size)


def case_stones(case: dict, key: str) -> list[int]:
    """The points of a case's move written in Little Golem labels under ``key`` (``played_lg``)."""
    return [parse_label(x, case["size"]) for x in split_labels(case[key])]


def board_after(pos: Position, stones: list[int]) -> tuple[Board, int]:
    """The board after ``stones`` are played in ``pos``, and the side to move there."""
    played = pos.copy()
    played.play(stones)
    return Board.from_position(played), played.to_move.index
