"""What the tests of positions from games lost to Cloudict share: the positions, and the repo's
VCDT solver limited by nodes instead of a clock (so a check's verdict does not depend on the
machine's load)."""

from connect6.ai.board import Board
from connect6.ai.vcdt import Timeout, Vcdt
from connect6.rules import Position


class NodeLimitedVcdt(Vcdt):
    """The repo's VCDT solver with a node limit instead of a clock."""

    def __init__(self, board: Board, limit: int) -> None:
        super().__init__(board, deadline=float("inf"))
        self.limit = limit

    def _attack(self, s: int, depth: int):
        if self.nodes >= self.limit:
            raise Timeout
        return super()._attack(s, depth)


def stones_of(text: str, size: int) -> list[int]:
    """Arena letters (two per stone, column then row, ``A`` at the left/bottom) as points."""
    return [(ord(text[i + 1]) - 65) * size + ord(text[i]) - 65 for i in range(0, len(text), 2)]


def position_of(case: dict) -> Position:
    """A case's position: its ``turns`` in arena letters on a board of its ``size``."""
    size = case["size"]
    return Position.from_turns([stones_of(t, size) for t in case["turns"]], size)
