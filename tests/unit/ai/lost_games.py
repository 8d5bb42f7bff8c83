"""What the tests of positions from games lost to Cloudict share: the positions, and the repo's
VCDT solver limited by nodes instead of a clock (so a check's verdict does not depend on the
machine's load)."""

from connect6.ai.board import Board
from connect6.ai.protocol import parse_stones
from connect6.ai.vcdt import Vcdt
from connect6.rules import Position


class NodeLimitedVcdt(Vcdt):
    """The repo's VCDT solver with a node limit instead of a clock."""

    def __init__(self, board: Board, limit: int) -> None:
        super().__init__(board, deadline=float("inf"), node_limit=limit)


def position_of(case: dict) -> Position:
    """A case's position: its ``turns`` in arena letters on a board of its ``size``."""
    size = case["size"]
    return Position.from_turns([parse_stones(t, size) for t in case["turns"]], size)
