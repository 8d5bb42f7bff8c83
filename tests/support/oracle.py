"""A plain, obviously-correct Connect6 referee, the oracle of the rules tests
(tests/unit/rules/) and of tools/lab/bench_rules.py.

No bitboards, no cleverness: a dict from (col, row) to colour, stones placed one at a time,
and after each stone the four lines through it are walked point by point. The engine in
``connect6.rules`` must agree with it on every result, winning line and refusal.

Conventions it shares with the engine (so results compare exactly):

- points are flat ints ``row * size + col`` (row 0 at the bottom, col 0 at the left);
- the four directions are tried in the order horizontal, vertical, diagonal (up-right),
  anti-diagonal (up-left); the winning line is the first that holds six or more, listed
  from its end opposite the direction of travel;
- a turn is checked stone by stone (off the board, taken, repeated) before its length.
"""

from __future__ import annotations

from collections.abc import Sequence

BLACK, WHITE = "black", "white"
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))


class OracleIllegal(ValueError):
    def __init__(self, reason: str, stone_index: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stone_index = stone_index


class OracleGame:
    def __init__(self, size: int = 15) -> None:
        self.size = size
        self.board: dict[tuple[int, int], str] = {}
        self.turns: list[tuple[int, ...]] = []
        self.winner: str | None = None
        self.winning_line: tuple[int, ...] = ()
        self.draw = False

    @property
    def to_move(self) -> str:
        return BLACK if len(self.turns) % 2 == 0 else WHITE

    @property
    def stones_to_place(self) -> int:
        if self.winner is not None or self.draw:
            return 0
        if not self.turns:
            return 1
        return min(2, self.size * self.size - len(self.board))

    def colour_at(self, point: int) -> str | None:
        return self.board.get((point % self.size, point // self.size))

    def cells(self) -> tuple[int, ...]:
        out = []
        for point in range(self.size * self.size):
            colour = self.colour_at(point)
            out.append(-1 if colour is None else (0 if colour == BLACK else 1))
        return tuple(out)

    def play(self, stones: Sequence[int]) -> tuple[int, ...]:
        """Play one turn; return the stones actually placed."""
        if self.winner is not None or self.draw:
            raise OracleIllegal("game_over")
        area = self.size * self.size
        seen: list[int] = []
        for index, point in enumerate(stones):
            if point < 0 or point >= area:
                raise OracleIllegal("off_board", index)
            if self.colour_at(point) is not None:
                raise OracleIllegal("occupied", index)
            if point in seen:
                raise OracleIllegal("duplicate", index)
            seen.append(point)
        if len(stones) != self.stones_to_place:
            raise OracleIllegal("wrong_stone_count")
        colour = self.to_move
        placed: list[int] = []
        for point in stones:
            col, row = point % self.size, point // self.size
            self.board[(col, row)] = colour
            placed.append(point)
            line = self.line_through(col, row)
            if line:
                self.winner = colour
                self.winning_line = line
                break
        self.turns.append(tuple(placed))
        if self.winner is None and len(self.board) == area:
            self.draw = True
        return tuple(placed)

    def line_through(self, col: int, row: int) -> tuple[int, ...]:
        colour = self.board[(col, row)]
        for dc, dr in DIRECTIONS:
            c, r = col, row
            while self.board.get((c - dc, r - dr)) == colour:
                c, r = c - dc, r - dr
            line = []
            while self.board.get((c, r)) == colour:
                line.append(r * self.size + c)
                c, r = c + dc, r + dr
            if len(line) >= 6:
                return tuple(line)
        return ()
