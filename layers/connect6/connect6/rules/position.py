"""Connect(m,n,6,2,1) on a square board, with Python ints as bitboards.

A point is a flat index ``row * size + col`` with row 0 at the bottom and col 0 at the
left (``a1`` is point 0). Internally each colour is a bitboard laid out with one empty
padding column per row (stride ``size + 1``) so that shifting a run sideways can never
wrap onto the next row; that lets a six be found with three shift-and-mask steps per
direction over the whole board instead of walking lines stone by stone.

>>> pos = Position(15)
>>> pos.play([pos.point(7, 7)]).colour
<Colour.BLACK: 'black'>
>>> pos.to_move, pos.stones_to_place
(<Colour.WHITE: 'white'>, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from functools import cache
from typing import NamedTuple

MIN_SIZE = 6
MAX_SIZE = 59
DEFAULT_SIZE = 15
WIN_LENGTH = 6


class Colour(StrEnum):
    BLACK = "black"
    WHITE = "white"

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def letter(self) -> str:
        return "B" if self is Colour.BLACK else "W"

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows str.index on the members, by design
        """0 for Black, 1 for White: the colour's value in ``Position.cells`` and its place in
        :data:`COLOURS`. (The string method is still there as ``str.index(colour, ...)``.)"""
        return 0 if self is Colour.BLACK else 1


COLOURS = (Colour.BLACK, Colour.WHITE)


class IllegalReason(StrEnum):
    OFF_BOARD = "off_board"
    OCCUPIED = "occupied"
    DUPLICATE = "duplicate"
    WRONG_STONE_COUNT = "wrong_stone_count"
    GAME_OVER = "game_over"


class IllegalMove(ValueError):
    """A turn the rules refuse. ``stone_index`` is the 0-based stone in the turn at fault
    (None when the turn as a whole is wrong); ``point`` is that stone's point, if known."""

    def __init__(
        self,
        reason: IllegalReason,
        message: str,
        stone_index: int | None = None,
        point: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.stone_index = stone_index
        self.point = point


class TurnResult(NamedTuple):
    """What one turn did (immutable). ``placed`` may be shorter than the stones offered when
    the first stone of a pair already made six."""

    turn_number: int
    colour: Colour
    placed: tuple[int, ...]
    winner: Colour | None
    winning_line: tuple[int, ...]
    draw: bool


class Geometry:
    """Per-size tables, built once per board size (see :func:`geometry`)."""

    __slots__ = ("area", "bit", "directions", "full_mask", "size", "stride")

    def __init__(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size must be from {MIN_SIZE} to {MAX_SIZE}, not {size}")
        self.size = size
        self.area = size * size
        self.stride = size + 1
        self.bit: tuple[int, ...] = tuple(
            1 << ((p // size) * self.stride + p % size) for p in range(self.area)
        )
        # (shift, (dcol, drow)) for horizontal, vertical, diagonal, anti-diagonal lines.
        self.directions = ((1, (1, 0)), (self.stride, (0, 1)), (self.stride + 1, (1, 1)),
                           (self.stride - 1, (-1, 1)))
        self.full_mask = sum(self.bit)


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)


def has_six(bits: int, stride: int) -> bool:
    """True when ``bits`` (padded layout) holds six or more in a row in any direction."""
    # Unrolled: pairs, then fours (pair & pair two further on), then sixes (four & pair).
    run = bits & (bits >> 1)
    four = run & (run >> 2)
    if four & (run >> 4):
        return True
    run = bits & (bits >> stride)
    four = run & (run >> (2 * stride))
    if four & (run >> (4 * stride)):
        return True
    shift = stride + 1
    run = bits & (bits >> shift)
    four = run & (run >> (2 * shift))
    if four & (run >> (4 * shift)):
        return True
    shift = stride - 1
    run = bits & (bits >> shift)
    four = run & (run >> (2 * shift))
    return bool(four & (run >> (4 * shift)))


def line_through(bits: int, point: int, size: int) -> tuple[int, ...]:
    """The first run of six or more in ``bits`` (padded layout) through ``point``, trying
    horizontal, vertical, diagonal, anti-diagonal in that order, as points from the end
    opposite the direction of travel; ``()`` when there is none.

    >>> geo = geometry(15)
    >>> line_through(sum(geo.bit[0:6]), 3, 15)
    (0, 1, 2, 3, 4, 5)
    """
    stride = size + 1
    row, col = divmod(point, size)
    start = row * stride + col
    if not (bits >> start) & 1:
        return ()
    for shift in (1, stride, stride + 1, stride - 1):
        first = start
        while first >= shift and (bits >> (first - shift)) & 1:
            first -= shift
        last = start
        while (bits >> (last + shift)) & 1:
            last += shift
        if last - first >= (WIN_LENGTH - 1) * shift:
            return tuple((i // stride) * size + i % stride for i in range(first, last + 1, shift))
    return ()


class Position:
    """A game in progress: stones, side to move, turn history, result.

    ``play`` validates a whole turn before placing anything, so a refused turn changes
    nothing; ``undo`` takes back the last turn exactly.
    """

    __slots__ = (
        "_bits",
        "_cells",
        "_geo",
        "_placed",
        "_turns",
        "draw",
        "size",
        "winner",
        "winning_line",
    )

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._geo = geometry(size)
        self.size = size
        self._bits = [0, 0]
        self._cells: list[int] = [-1] * self._geo.area  # -1 empty, 0 black, 1 white
        self._turns: list[tuple[int, ...]] = []
        self._placed = 0
        self.winner: Colour | None = None
        self.winning_line: tuple[int, ...] = ()
        self.draw = False

    # ----------------------------------------------------------------- queries
    def point(self, col: int, row: int) -> int:
        """The point at 0-based ``col`` (from the left) and ``row`` (from the bottom)."""
        if not (0 <= col < self.size and 0 <= row < self.size):
            raise IllegalMove(IllegalReason.OFF_BOARD,
                              f"column {col + 1}, row {row + 1} is off the {self.size}x{self.size} board")
        return row * self.size + col

    def coords(self, point: int) -> tuple[int, int]:
        return point % self.size, point // self.size

    @property
    def turn_number(self) -> int:
        """The 1-based number of the turn to be played next (1 is Black's opening)."""
        return len(self._turns) + 1

    @property
    def turns(self) -> list[tuple[int, ...]]:
        return list(self._turns)

    @property
    def turn_count(self) -> int:
        return len(self._turns)

    @property
    def stone_count(self) -> int:
        return self._placed

    @property
    def empty_count(self) -> int:
        return self._geo.area - self._placed

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.draw

    @property
    def to_move(self) -> Colour:
        return COLOURS[len(self._turns) & 1]

    @property
    def stones_to_place(self) -> int:
        """Stones the next turn must place: 1 on the opening, then 2 (fewer only when the
        board has fewer empty points left); 0 once the game is over."""
        if self.is_over:
            return 0
        if not self._turns:
            return 1
        return min(2, self._geo.area - self._placed)

    def colour_at(self, point: int) -> Colour | None:
        value = self._cells[point]
        return None if value < 0 else COLOURS[value]

    def is_empty(self, point: int) -> bool:
        return self._cells[point] < 0

    @property
    def cells(self) -> Sequence[int]:
        """Read-only view of every point: -1 empty, 0 black, 1 white."""
        return tuple(self._cells)

    def bits(self, colour: Colour) -> int:
        """The colour's bitboard in the padded layout (see the module docstring)."""
        return self._bits[0 if colour is Colour.BLACK else 1]

    def stones(self, colour: Colour | None = None) -> Iterator[int]:
        want = None if colour is None else (0 if colour is Colour.BLACK else 1)
        for point, value in enumerate(self._cells):
            if value >= 0 and (want is None or value == want):
                yield point

    def board_rows(self) -> list[str]:
        """One string per row, top row first: ``.`` empty, ``B`` black, ``W`` white."""
        marks = ".BW"
        n = self.size
        cells = self._cells
        return ["".join(marks[cells[r * n + c] + 1] for c in range(n)) for r in range(n - 1, -1, -1)]

    def copy(self) -> Position:
        twin = Position.__new__(Position)
        twin.size = self.size
        twin._geo = self._geo
        twin._bits = list(self._bits)
        twin._cells = list(self._cells)
        twin._turns = list(self._turns)
        twin._placed = self._placed
        twin.winner = self.winner
        twin.winning_line = self.winning_line
        twin.draw = self.draw
        return twin

    @classmethod
    def from_turns(cls, turns: Iterable[Sequence[int]], size: int = DEFAULT_SIZE) -> Position:
        position = cls(size)
        for stones in turns:
            position.play(stones)
        return position

    # ----------------------------------------------------------------- playing
    def check(self, stones: Sequence[int]) -> None:
        """Raise :class:`IllegalMove` naming exactly what is wrong with ``stones``."""
        if self.is_over:
            raise IllegalMove(IllegalReason.GAME_OVER, "the game is already over")
        need = self.stones_to_place
        area = self._geo.area
        cells = self._cells
        for index, point in enumerate(stones):
            if not 0 <= point < area:
                raise IllegalMove(IllegalReason.OFF_BOARD,
                                  f"stone {index + 1} is off the {self.size}x{self.size} board",
                                  index, point)
            if cells[point] >= 0:
                raise IllegalMove(IllegalReason.OCCUPIED, f"stone {index + 1} is on a taken point",
                                  index, point)
            if point in stones[:index]:
                raise IllegalMove(IllegalReason.DUPLICATE,
                                  f"stone {index + 1} is on the same point as an earlier stone",
                                  index, point)
        if len(stones) != need:
            raise IllegalMove(
                IllegalReason.WRONG_STONE_COUNT,
                f"this turn places {need} stone{'s' if need != 1 else ''}, not {len(stones)}",
            )

    def play(self, stones: Sequence[int]) -> TurnResult:
        """Validate and play one turn; after each stone check for six-or-more.

        A six made by the first stone of a pair ends the game there: the second stone is
        not placed and ``TurnResult.placed`` holds only the first.

        The six test runs once per turn over the whole board (shift-and-mask, see
        :func:`has_six`); only when it fires is the first stone tested alone, so the
        result is the same as testing the lines through each stone as it is placed.
        """
        geo = self._geo
        cells = self._cells
        turns = self._turns
        area = geo.area
        # Fast path for the common, legal turn; anything else gets the precise verdict.
        if len(stones) == 2 and turns and self.winner is None and not self.draw:
            a, b = stones
            if not (0 <= a < area and 0 <= b < area and a != b and cells[a] < 0 and cells[b] < 0
                    and area - self._placed >= 2):
                self.check(stones)
        else:
            self.check(stones)
        side = len(turns) & 1
        bit = geo.bit
        mine = self._bits[side]
        for point in stones:
            mine |= bit[point]
            cells[point] = side
        placed = tuple(stones)
        winner: Colour | None = None
        line: tuple[int, ...] = ()
        stride = geo.stride
        if has_six(mine, stride):
            winner = COLOURS[side]
            if len(placed) == 2 and has_six(mine & ~bit[placed[1]], stride):
                # The first stone already won: the second is never placed.
                mine &= ~bit[placed[1]]
                cells[placed[1]] = -1
                placed = placed[:1]
            line = self._line_through(placed[-1], side)
            self.winner = winner
            self.winning_line = line
        self._bits[side] = mine
        turns.append(placed)
        self._placed += len(placed)
        draw = winner is None and self._placed == area
        if draw:
            self.draw = True
        return TurnResult(len(turns), COLOURS[side], placed, winner, line, draw)

    def undo(self) -> tuple[int, ...]:
        """Take back the last turn and return its stones."""
        if not self._turns:
            raise IndexError("no turn to undo")
        placed = self._turns.pop()
        side = len(self._turns) & 1
        bit = self._geo.bit
        mine = self._bits[side]
        for point in placed:
            mine &= ~bit[point]
            self._cells[point] = -1
        self._bits[side] = mine
        self._placed -= len(placed)
        self.winner = None
        self.winning_line = ()
        self.draw = False
        return placed

    def _line_through(self, point: int, side: int) -> tuple[int, ...]:
        """The longest own run through ``point`` that is six or more, as points in order."""
        n = self.size
        cells = self._cells
        col, row = point % n, point // n
        for _shift, (dc, dr) in self._geo.directions:
            c, r = col, row
            while 0 <= c - dc < n and 0 <= r - dr < n and cells[(r - dr) * n + c - dc] == side:
                c, r = c - dc, r - dr
            run = []
            while 0 <= c < n and 0 <= r < n and cells[r * n + c] == side:
                run.append(r * n + c)
                c, r = c + dc, r + dr
            if len(run) >= WIN_LENGTH:
                return tuple(run)
        raise AssertionError("a six was detected but no line runs through the winning stone")
