"""Hand-checked positions for the rules engine: every direction, edges and corners,
overlines, wins on either stone of a pair, a draw, every reason a turn is refused."""

from __future__ import annotations

import pytest

from connect6.records import parse_label, point_label
from connect6.rules import Colour, IllegalMove, IllegalReason, Position, TurnResult


def pts(labels: str, size: int) -> list[int]:
    return [parse_label(label, size) for label in labels.split()]


def labels(points: tuple[int, ...] | list[int], size: int) -> list[str]:
    return [point_label(p, size) for p in points]


def play_game(size: int, black: list[str], white: list[str]) -> tuple[Position, TurnResult]:
    """Black opens with black[0]; then white and black alternate pairs ("a1 b1") while
    both lists last, so black has played last when it returns."""
    position = Position(size)
    result = position.play(pts(black[0], size))
    for w, b in zip(white, black[1:], strict=False):
        result = position.play(pts(w, size))
        if position.is_over:
            return position, result
        result = position.play(pts(b, size))
        if position.is_over:
            return position, result
    return position, result


# White's harmless filler pairs, far from everything the tests build on the low rows.
FILLER15 = ["a15 c15", "e15 g15", "i15 k15", "m15 o15", "a13 c13", "e13 g13"]


@pytest.mark.parametrize(
    ("black", "line"),
    [
        # Given six in a row, horizontally, the last pair completing it on the right.
        (["c3", "d3 e3", "f3 g3", "h3 a8"], "c3 d3 e3 f3 g3 h3"),
        # Vertically.
        (["e2", "e3 e4", "e5 e6", "e7 a8"], "e2 e3 e4 e5 e6 e7"),
        # Diagonally, up and to the right.
        (["b2", "c3 d4", "e5 f6", "g7 a9"], "b2 c3 d4 e5 f6 g7"),
        # Anti-diagonally, up and to the left: listed from the lower right end.
        (["l2", "k3 j4", "i5 h6", "g7 a9"], "l2 k3 j4 i5 h6 g7"),
    ],
    ids=["horizontal", "vertical", "diagonal", "anti-diagonal"],
)
def test_six_in_each_direction(black: list[str], line: str) -> None:
    # When black plays the stones, white playing harmless filler
    position, result = play_game(15, black, FILLER15)
    # Then black wins on the fourth turn with exactly that line
    assert result.winner is Colour.BLACK
    assert result.turn_number == 7
    assert labels(result.winning_line, 15) == line.split()
    assert position.winner is Colour.BLACK and position.is_over
    assert position.stones_to_place == 0


@pytest.mark.parametrize(
    ("black", "line"),
    [
        (["a1", "b1 c1", "d1 e1", "f1 h4"], "a1 b1 c1 d1 e1 f1"),  # bottom edge from the corner
        (["o10", "o11 o12", "o13 o14", "o15 h4"], "o10 o11 o12 o13 o14 o15"),  # right edge to the corner
        (["a1", "b2 c3", "d4 e5", "f6 h2"], "a1 b2 c3 d4 e5 f6"),  # diagonal from the a1 corner
        (["o1", "n2 m3", "l4 k5", "j6 h2"], "o1 n2 m3 l4 k5 j6"),  # anti-diagonal from the o1 corner
        (["j10", "k11 l12", "m13 n14", "o15 h2"], "j10 k11 l12 m13 n14 o15"),  # into the o15 corner
    ],
    ids=["bottom-edge", "right-edge", "corner-diagonal", "corner-anti-diagonal", "top-right-corner"],
)
def test_six_on_edges_and_corners(black: list[str], line: str) -> None:
    white = ["a14 c14", "e14 g14", "i12 k12", "m12 b12"]
    _position, result = play_game(15, black, white)
    assert result.winner is Colour.BLACK
    assert labels(result.winning_line, 15) == line.split()


def test_rows_do_not_wrap_into_each_other() -> None:
    # Given n5 o5 at the right end of row 5 and a6 b6 c6 d6 at the left end of row 6
    # (consecutive as flat indices, not on one line)
    _position, result = play_game(15, ["n5", "o5 a6", "b6 c6", "d6 h2"], FILLER15)
    # Then nobody has won
    assert result.winner is None


def test_diagonals_do_not_wrap_across_the_edge() -> None:
    # Given stones that would be a diagonal if the board wrapped from column o to column a
    _position, result = play_game(15, ["m1", "n2 o3", "a4 b5", "c6 h9"], FILLER15)
    assert result.winner is None


def test_five_and_a_gap_is_not_six() -> None:
    _position, result = play_game(15, ["a1", "b1 c1", "d1 e1", "g1 h1"], FILLER15)
    assert result.winner is None


def test_overline_of_seven_wins_and_reports_all_seven() -> None:
    # Given b1 c1 d1 and f1 g1 h1 with e1 empty
    position, result = play_game(15, ["b1", "c1 d1", "f1 g1", "h1 a9"], FILLER15)
    assert result.winner is None
    # When black fills the gap
    position.play(pts("a11 c11", 15))
    result = position.play(pts("k9 e1", 15))
    # Then the seven stones are the winning line
    assert result.winner is Colour.BLACK
    assert labels(result.winning_line, 15) == ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]


def test_six_made_by_the_second_stone_places_both() -> None:
    position, _ = play_game(15, ["a1", "b1 c1", "d1 e1"], FILLER15)
    result = position.play(pts("a11 c11", 15))
    assert result.winner is None
    result = position.play(pts("k9 f1", 15))
    assert result.placed == tuple(pts("k9 f1", 15))
    assert result.winner is Colour.BLACK
    assert labels(result.winning_line, 15) == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert position.colour_at(parse_label("k9", 15)) is Colour.BLACK
    assert position.stone_count == 1 + 2 * 6  # seven turns, all placed


def test_six_made_by_the_first_stone_ends_the_game_before_the_second() -> None:
    # Given black has five on the bottom row
    position, _ = play_game(15, ["a1", "b1 c1", "d1 e1"], FILLER15)
    position.play(pts("a11 c11", 15))
    before = position.stone_count
    # When black's pair starts with the sixth stone
    result = position.play(pts("f1 k9", 15))
    # Then only that stone is placed and the game is over
    assert result.placed == (parse_label("f1", 15),)
    assert result.winner is Colour.BLACK
    assert labels(result.winning_line, 15) == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert position.is_empty(parse_label("k9", 15))
    assert position.stone_count == before + 1
    assert position.turns[-1] == (parse_label("f1", 15),)
    # And undo takes back just that one stone
    assert position.undo() == (parse_label("f1", 15),)
    assert position.stone_count == before and position.winner is None


# A 6x6 board filled with no six anywhere: rows alternate in pairs, so no column, row or
# long diagonal is one colour (top row first).
DRAW_6X6 = ["BWBWBW", "BWBWBW", "WBWBWB", "WBWBWB", "BWBWBW", "BWBWBW"]


def test_full_small_board_without_six_is_a_draw() -> None:
    size = 6
    black = [(5 - r) * size + c for r, row in enumerate(DRAW_6X6) for c, ch in enumerate(row) if ch == "B"]
    white = [(5 - r) * size + c for r, row in enumerate(DRAW_6X6) for c, ch in enumerate(row) if ch == "W"]
    position = Position(size)
    position.play([black.pop()])
    while True:
        need = position.stones_to_place
        if need == 0:
            break
        stones = white if position.to_move is Colour.WHITE else black
        turn = [stones.pop() for _ in range(need)]
        if position.empty_count == 1:
            # The last turn has a single empty point: stones_to_place is min(2, empties).
            assert need == 1
        result = position.play(turn)
    assert not black and not white
    assert position.board_rows() == DRAW_6X6
    assert result.draw and position.draw and position.is_over
    assert position.winner is None and position.stones_to_place == 0
    assert position.turn_count == 19  # 1 + 17 pairs + a single last stone
    with pytest.raises(IllegalMove) as refused:
        position.play([0])
    assert refused.value.reason is IllegalReason.GAME_OVER


def test_opening_then_pairs() -> None:
    position = Position(15)
    assert (position.to_move, position.stones_to_place, position.turn_number) == (Colour.BLACK, 1, 1)
    position.play(pts("h8", 15))
    assert (position.to_move, position.stones_to_place, position.turn_number) == (Colour.WHITE, 2, 2)


def refused(position: Position, stones: list[int]) -> IllegalMove:
    before = (position.cells, position.turns, position.stone_count, position.to_move)
    with pytest.raises(IllegalMove) as caught:
        position.play(stones)
    # A refused turn changes nothing.
    assert (position.cells, position.turns, position.stone_count, position.to_move) == before
    return caught.value


def test_every_illegal_reason() -> None:
    position = Position(15)
    h8 = parse_label("h8", 15)
    # Off the board, either end, with the stone named
    err = refused(position, [225])
    assert (err.reason, err.stone_index, err.point) == (IllegalReason.OFF_BOARD, 0, 225)
    err = refused(position, [-1])
    assert err.reason is IllegalReason.OFF_BOARD
    # Two stones on the opening
    err = refused(position, [h8, h8 + 1])
    assert err.reason is IllegalReason.WRONG_STONE_COUNT and err.stone_index is None
    err = refused(position, [])
    assert err.reason is IllegalReason.WRONG_STONE_COUNT
    position.play([h8])
    # Occupied: the second stone is on black's opening stone
    err = refused(position, [0, h8])
    assert (err.reason, err.stone_index, err.point) == (IllegalReason.OCCUPIED, 1, h8)
    assert "taken" in err.message
    # The same point twice
    err = refused(position, [3, 3])
    assert (err.reason, err.stone_index, err.point) == (IllegalReason.DUPLICATE, 1, 3)
    # One stone or three where two are due
    assert refused(position, [3]).reason is IllegalReason.WRONG_STONE_COUNT
    assert refused(position, [3, 4, 5]).reason is IllegalReason.WRONG_STONE_COUNT
    # The first fault in stone order is the one reported
    err = refused(position, [h8, 999])
    assert (err.reason, err.stone_index) == (IllegalReason.OCCUPIED, 0)
    # The game already over
    won, _ = play_game(15, ["a1", "b1 c1", "d1 e1", "f1 a9"], FILLER15)
    err = refused(won, [5, 6])
    assert err.reason is IllegalReason.GAME_OVER


@pytest.mark.parametrize("size", [5, 60])
def test_board_sizes_outside_6_to_59_are_refused(size: int) -> None:
    with pytest.raises(ValueError, match="board size"):
        Position(size)


@pytest.mark.parametrize("size", [6, 27, 59])
def test_extreme_sizes_find_sixes(size: int) -> None:
    # Given a vertical six in the last column, up to the top-right corner
    col = size - 1
    position = Position(size)
    top = [(size - 1 - k) * size + col for k in range(6)]
    position.play([top[0]])
    position.play([0, 1])
    position.play(top[1:3])
    position.play([2, 3 + size])
    position.play(top[3:5])
    position.play([size, size + 1])
    result = position.play([top[5], 2 * size])
    assert result.winner is Colour.BLACK
    assert sorted(result.winning_line) == sorted(top)


def test_undo_restores_everything() -> None:
    position, _ = play_game(15, ["a1", "b1 c1", "d1 e1"], FILLER15)
    snapshot = (position.cells, position.turns, position.stone_count, position.to_move,
                position.stones_to_place, position.bits(Colour.BLACK), position.bits(Colour.WHITE))
    position.play(pts("a11 c11", 15))
    position.undo()
    assert snapshot == (position.cells, position.turns, position.stone_count, position.to_move,
                        position.stones_to_place, position.bits(Colour.BLACK), position.bits(Colour.WHITE))
    while position.turn_count:
        position.undo()
    assert position.cells == Position(15).cells and position.stones_to_place == 1
    with pytest.raises(IndexError):
        position.undo()


def test_copy_is_independent() -> None:
    position, _ = play_game(15, ["h8"], [])
    twin = position.copy()
    twin.play(pts("a1 b1", 15))
    assert position.stone_count == 1 and twin.stone_count == 3
