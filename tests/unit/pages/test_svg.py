"""The SVG board: well-formed XML, coordinates, stones, last move and winning line, any size."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from connect6.game.shapes import BoardPicture, LastMove
from connect6.pages import board_svg
from connect6.records import point_label
from connect6.rules import Position

NS = {"s": "http://www.w3.org/2000/svg"}


def picture(size: int, board: list[str], last_move: LastMove | None = None,
            winning_line: list[str] | None = None) -> BoardPicture:
    return BoardPicture(game_id="g", board_size=size, board=board, move_count=0, last_move=last_move,
                        winning_line=winning_line or [])


def view_of(pos: Position) -> BoardPicture:
    last = None
    if pos.turns:
        n = len(pos.turns)
        last = LastMove(move_number=n, colour="black" if n % 2 else "white",
                        stones=[point_label(p, pos.size) for p in pos.turns[-1]])
    return picture(pos.size, list(pos.board_rows()), last,
                   [point_label(p, pos.size) for p in pos.winning_line] if pos.winner else [])


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iterfind(".//s:text", NS)]


@pytest.mark.parametrize("size", [6, 15, 19, 59])
def test_every_size_is_well_formed_with_all_coordinates(size):
    # Given an empty board of this size
    pos = Position(size)
    # When it is drawn
    root = parse(board_svg(view_of(pos)))
    # Then it is one square SVG with every column letter and row number, twice (both sides)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, w, h = (float(v) for v in root.attrib["viewBox"].split())
    assert w == h
    labels = texts(root)
    columns = {point_label(c, size)[:-1] for c in range(size)}
    assert all(labels.count(c) == 2 for c in columns)
    assert all(labels.count(str(r)) >= 2 for r in range(1, size + 1))
    assert root.attrib["data-size"] == str(size)
    assert stone_positions(root) == {}


def stone_positions(root: ET.Element) -> dict[str, tuple[float, float, str]]:
    out = {}
    for c in root.iterfind(".//s:circle", NS):
        cls = c.attrib.get("class", "")
        if cls.startswith("stone "):
            out[c.attrib["data-point"]] = (float(c.attrib["cx"]), float(c.attrib["cy"]), cls.split()[1])
    return out


def test_columns_run_left_to_right_and_rows_bottom_to_top():
    # Given a 15x15 board with black on a1 (bottom-left) and white on o15 (top-right)
    board = ["." * 14 + "W"] + ["." * 15] * 13 + ["B" + "." * 14]
    # When it is drawn
    stones = stone_positions(parse(board_svg(picture(15, board))))
    # Then a1 is black at the left and bottom, o15 white at the right and top
    ax, ay, acol = stones["a1"]
    ox, oy, ocol = stones["o15"]
    assert (acol, ocol) == ("black", "white")
    assert ax < ox and ay > oy


def test_stones_match_the_position_and_labels_sit_beside_their_lines():
    pos = Position(19)
    pos.play([pos.point(9, 9)])
    pos.play([pos.point(0, 0), pos.point(18, 18)])
    root = parse(board_svg(view_of(pos)))
    stones = stone_positions(root)
    assert set(stones) == {"j10", "a1", "s19"}
    assert stones["j10"][2] == "black" and stones["a1"][2] == "white"
    # The "j" label shares the x of the j10 stone and the "10" label its y (within the text baseline)
    label_x = {t.text: float(t.attrib["x"]) for t in root.iterfind(".//s:text[@class='col']", NS)}
    label_y = {t.text: float(t.attrib["y"]) for t in root.iterfind(".//s:text[@class='row']", NS)}
    assert label_x["j"] == stones["j10"][0]
    assert abs(label_y["10"] - stones["j10"][1]) < 10


def test_last_move_stones_are_marked():
    pos = Position(15)
    pos.play([pos.point(7, 7)])
    pos.play([pos.point(8, 8), pos.point(6, 6)])
    root = parse(board_svg(view_of(pos)))
    marks = {c.attrib["data-point"] for c in root.iterfind(".//s:circle[@class='last-mark']", NS)}
    assert marks == {"i9", "g7"}


def test_winning_line_is_highlighted_end_to_end():
    # Given black wins on h8..m8 with the first stone of its pair
    pos = Position(15)
    p = pos.point
    for turn in ([p(7, 7)], [p(0, 0), p(0, 1)], [p(8, 7), p(9, 7)], [p(0, 2), p(0, 3)],
                 [p(10, 7), p(11, 7)], [p(0, 4), p(14, 14)], [p(12, 7), p(6, 7)]):
        pos.play(turn)
    assert pos.winner is not None
    root = parse(board_svg(view_of(pos)))
    # Then each stone of the line has a ring and a band joins the two ends
    rings = {c.attrib["data-point"] for c in root.iterfind(".//s:circle[@class='win-mark']", NS)}
    assert rings == {"h8", "i8", "j8", "k8", "l8", "m8"}
    band = root.find(".//s:line[@class='winning-band']", NS)
    assert band is not None
    stones = stone_positions(root)
    assert (float(band.attrib["x1"]), float(band.attrib["y1"])) == stones["h8"][:2]
    assert (float(band.attrib["x2"]), float(band.attrib["y2"])) == stones["m8"][:2]
    # and g8, never placed (the game ended on m8), is not on the board
    assert "g8" not in stones


def test_no_highlights_without_a_last_move_or_winner():
    root = parse(board_svg(picture(6, ["......"] * 6)))
    assert root.find(".//s:line[@class='winning-band']", NS) is None
    assert root.find(".//s:circle[@class='last-mark']", NS) is None


def test_junk_labels_are_ignored_not_fatal():
    svg = board_svg(picture(6, ["......"] * 6, LastMove(move_number=1, colour="black",
                                                        stones=["zz99", "<script>", "a1"]), ["<b>"]))
    root = parse(svg)
    assert {c.attrib["data-point"] for c in root.iterfind(".//s:circle[@class='last-mark']", NS)} == {"a1"}
    assert "<script>" not in svg


def test_wide_boards_use_double_letter_columns():
    root = parse(board_svg(picture(59, [])))
    cols = [t.text for t in root.iterfind(".//s:text[@class='col']", NS)]
    assert cols[:3] == ["a", "b", "c"] and cols[26:28] == ["aa", "ab"] and len(cols) == 59


@pytest.mark.parametrize("size", [5, 60])
def test_sizes_outside_the_engine_range_are_refused(size):
    with pytest.raises(ValueError):
        board_svg(picture(size, []))
