"""The board as an SVG picture, drawn from the contract's game view (or the board after a move).

Columns ``a``… run left to right along the bottom and top edges, rows ``1``… bottom to top along
the left and right edges (Little Golem's labels). The stones of the last move carry a red dot; the
winning line is drawn as a translucent band through its stones, each of which gets a gold ring.
Every stone is a ``<circle>`` with ``class="stone black|white"`` and ``data-point="h8"`` so a page
script, a test or a screen reader can find it.

>>> picture = BoardPicture(game_id="g", board_size=6, board=["......"] * 5 + ["B....."], move_count=1,
...                        last_move=None, winning_line=[])
>>> 'data-point="a1"' in board_svg(picture)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from connect6.game.shapes import BoardPicture, GameView, ReplayMove
from connect6.records import point_label
from connect6.records.labels import column_letters
from connect6.rules.position import MAX_SIZE, MIN_SIZE

CELL = 40  # user units per grid step; the picture scales through its viewBox
MARGIN = 36  # room for the coordinates on each side, beyond the half-cell around the grid
STONE_R = 18.5

# The standalone picture (``board.svg``) keeps its intrinsic size (one user unit a pixel) for an
# ``<img>`` and a wide window, and shrinks to a narrow one (a phone) instead of being cut off.
# ``svg:root`` matches only when the SVG is the document: inline in a page, the page's own
# stylesheet sizes it. The policy of :func:`connect6.pages.html.content_security_policy` allows this
# exact text by its hash.
ROOT_STYLE = "svg:root{max-width:100%;max-height:100vh;height:auto}"

COLOURS = {
    "board": "#e2b86b",
    "board_edge": "#b98a3e",
    "line": "#5b4220",
    "label": "#4a3417",
    "last": "#e0312b",
    "win": "#ffcf33",
    "win_band": "#d62f2f",
}


def _size_of(view: GameView | BoardPicture) -> int:
    size = view.board_size
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board_size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    return size


def _grid(view: GameView | BoardPicture, size: int) -> list[str]:
    """The board rows, top row first, padded or cut to ``size`` (a view without a board is empty)."""
    board = view.board[:size]
    board += ["." * size] * (size - len(board))
    return [row[:size].ljust(size, ".") for row in board]


def label_cells(values: Sequence[str], size: int) -> list[tuple[int, int]]:
    """(col, row-from-top) of every well-formed label on the board; anything else is ignored."""
    table = {point_label(p, size): p for p in range(size * size)}
    out: list[tuple[int, int]] = []
    for value in values:
        point = table.get(value.strip().lower())
        if point is not None:
            row, col = divmod(point, size)
            out.append((col, size - 1 - row))
    return out


def _xy(col: int, top_row: int) -> tuple[float, float]:
    return MARGIN + CELL / 2 + col * CELL, MARGIN + CELL / 2 + top_row * CELL


def _star_points(size: int) -> list[tuple[int, int]]:
    """The usual hoshi: the centre, and on boards of 13 and up the four points on the fourth line."""
    points: list[tuple[int, int]] = []
    if size % 2:
        points.append((size // 2, size // 2))
    if size >= 13:
        lo, hi = 3, size - 4
        points += [(lo, lo), (lo, hi), (hi, lo), (hi, hi)]
    return points


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _placed_at(moves: Sequence[ReplayMove] | None, size: int) -> dict[str, int]:
    """Label → the move that placed the stone there, from replay moves; labels the board does not
    have are ignored."""
    placed: dict[str, int] = {}
    for move in moves or []:
        for (col, top) in label_cells(move.stones, size):
            placed[point_label((size - 1 - top) * size + col, size)] = move.move_number
    return placed


def board_svg(view: GameView | BoardPicture, moves: Sequence[ReplayMove] | None = None, *,
              points: bool = False) -> str:
    """The whole board of ``view`` (a game view, or the board after a move; board strings top row
    first) as a standalone SVG document: grid, coordinates, stones, last-move marks and the winning
    line. It has an intrinsic size (``width``/``height``, one user unit a pixel) so a bare ``<img>``
    shows it whole, and a ``viewBox`` and a root style (:data:`ROOT_STYLE`) so it scales down to a
    narrow window or container instead of being cut off.

    Given the game's ``moves`` (replay), each stone also carries ``data-move`` (the move that
    placed it) and a number, hidden unless a stylesheet shows ``.num`` (the live page's toggle).

    ``points``: one transparent ``<rect class="pt" data-point="h8" aria-label="h8">`` over every
    intersection, on top of everything, for a page script to make tappable (the move sheet); the
    group is ``aria-hidden`` until that script takes it over, and the picture is then a ``group``
    rather than an ``img`` (whose children a screen reader would not see)."""
    size = _size_of(view)
    grid = _grid(view, size)
    extent = 2 * MARGIN + size * CELL
    lo = MARGIN + CELL / 2
    hi = lo + (size - 1) * CELL
    font = 17 if size <= 19 else 15 if size <= 26 else 13
    black_count = sum(row.count("B") for row in grid)
    white_count = sum(row.count("W") for row in grid)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {extent} {extent}" '
        f'width="{extent}" height="{extent}" '
        f'class="c6-board" role="{"group" if points else "img"}" data-size="{size}" '
        f'aria-label="Connect6 board, {size} by {size}, {black_count} black and {white_count} white stones">',
        f"<style>{ROOT_STYLE}</style>",
        f"<title>Connect6 board {size}×{size}</title>",
        "<defs>"
        '<radialGradient id="c6-black" cx="35%" cy="30%" r="75%">'
        '<stop offset="0" stop-color="#5d5d5d"/><stop offset="0.55" stop-color="#1b1b1b"/>'
        '<stop offset="1" stop-color="#000"/></radialGradient>'
        '<radialGradient id="c6-white" cx="35%" cy="30%" r="80%">'
        '<stop offset="0" stop-color="#ffffff"/><stop offset="0.7" stop-color="#ececec"/>'
        '<stop offset="1" stop-color="#b9b9b9"/></radialGradient>'
        "</defs>",
        f'<rect x="0" y="0" width="{extent}" height="{extent}" rx="14" fill="{COLOURS["board"]}" '
        f'stroke="{COLOURS["board_edge"]}" stroke-width="4"/>',
    ]
    # Grid lines, one path for all of them.
    steps = []
    for i in range(size):
        at = _fmt(lo + i * CELL)
        steps.append(f"M{_fmt(lo)} {at}H{_fmt(hi)}M{at} {_fmt(lo)}V{_fmt(hi)}")
    out.append(
        f'<path class="grid" d="{"".join(steps)}" stroke="{COLOURS["line"]}" stroke-width="1.6" '
        'fill="none" stroke-linecap="square"/>'
    )
    out.append(
        f'<rect x="{_fmt(lo)}" y="{_fmt(lo)}" width="{_fmt(hi - lo)}" height="{_fmt(hi - lo)}" '
        f'fill="none" stroke="{COLOURS["line"]}" stroke-width="3"/>'
    )
    for col, top in _star_points(size):
        x, y = _xy(col, top)
        out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="4.5" fill="{COLOURS["line"]}"/>')
    # Coordinates on all four sides.
    out.append(
        f'<g class="coords" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" '
        f'font-size="{font}" font-weight="600" fill="{COLOURS["label"]}" text-anchor="middle">'
    )
    near, far = lo - CELL / 2 - 6, hi + CELL / 2 + 6 + font * 0.7
    left, right = lo - CELL / 2 - 14, hi + CELL / 2 + 14
    for col in range(size):
        cx = _fmt(_xy(col, 0)[0])
        letters = column_letters(col)
        out.append(f'<text x="{cx}" y="{_fmt(far)}" class="col">{letters}</text>')
        out.append(f'<text x="{cx}" y="{_fmt(near)}">{letters}</text>')
    for top in range(size):
        cy = _fmt(_xy(0, top)[1] + font / 3)
        number = size - top
        out.append(f'<text x="{_fmt(left)}" y="{cy}" class="row">{number}</text>')
        out.append(f'<text x="{_fmt(right)}" y="{cy}">{number}</text>')
    out.append("</g>")
    # The winning line: a band under the stones, from one end of the line to the other.
    winning = label_cells(view.winning_line, size)
    if len(winning) >= 2:
        ends = sorted(winning)
        (x1, y1), (x2, y2) = _xy(*ends[0]), _xy(*ends[-1])
        out.append(
            f'<line class="winning-band" x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
            f'stroke="{COLOURS["win_band"]}" stroke-opacity="0.55" stroke-width="{CELL * 1.1:.0f}" '
            'stroke-linecap="round"/>'
        )
    # Stones.
    placed = _placed_at(moves, size)
    numbers: list[str] = []
    out.append('<g class="stones">')
    for top, row in enumerate(grid):
        for col, ch in enumerate(row):
            if ch not in "BW":
                continue
            colour = "black" if ch == "B" else "white"
            x, y = _xy(col, top)
            label = point_label((size - 1 - top) * size + col, size)
            edge = ' stroke="#8a8a8a" stroke-width="1"' if colour == "white" else ""
            move = placed.get(label)
            at = f' data-move="{move}"' if move is not None else ""
            out.append(
                f'<circle class="stone {colour}" data-point="{label}"{at} cx="{_fmt(x)}" cy="{_fmt(y)}" '
                f'r="{STONE_R}" fill="url(#c6-{colour})"{edge}/>'
            )
            if move is not None:
                ink = "#fff" if colour == "black" else "#1b1b1b"
                numbers.append(
                    f'<text class="num" data-point="{label}" data-move="{move}" x="{_fmt(x)}" '
                    f'y="{_fmt(y + 5.5)}" font-size="{15 if move < 100 else 12}" fill="{ink}" '
                    f'display="none">{move}</text>'
                )
    out.append("</g>")
    for col, top in winning:
        x, y = _xy(col, top)
        out.append(
            f'<circle class="win-mark" data-point="{point_label((size - 1 - top) * size + col, size)}" '
            f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="{STONE_R + 1.5}" fill="none" stroke="{COLOURS["win"]}" '
            'stroke-width="4"/>'
        )
    last_points = label_cells(view.last_move.stones if view.last_move is not None else [], size)
    for col, top in last_points:
        x, y = _xy(col, top)
        out.append(
            f'<circle class="last-mark" data-point="{point_label((size - 1 - top) * size + col, size)}" '
            f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="6" fill="{COLOURS["last"]}" stroke="#fff" '
            'stroke-width="1.5"/>'
        )
    if numbers:
        out.append('<g class="numbers" font-family="system-ui, -apple-system, Segoe UI, Roboto, '
                   'sans-serif" font-weight="700" text-anchor="middle">' + "".join(numbers) + "</g>")
    if points:
        out.append(_point_layer(grid, size))
    out.append("</svg>")
    return "".join(out)


def _point_layer(grid: list[str], size: int) -> str:
    """The tappable cells: one ``rect`` a point, a cell wide, centred on its intersection; an
    occupied point says whose stone is there (``data-taken``)."""
    cells = ['<g class="points" aria-hidden="true">']
    for top, row in enumerate(grid):
        for col, ch in enumerate(row):
            x, y = _xy(col, top)
            label = point_label((size - 1 - top) * size + col, size)
            taken = "black" if ch == "B" else "white" if ch == "W" else ""
            extra = f' data-taken="{taken}" aria-label="{label}, {taken} stone"' if taken else (
                f' aria-label="{label}"')
            cells.append(
                f'<rect class="pt" data-point="{label}" data-col="{col}" data-row="{top}"{extra} '
                f'x="{_fmt(x - CELL / 2)}" y="{_fmt(y - CELL / 2)}" width="{CELL}" height="{CELL}" '
                'fill="transparent"/>'
            )
    cells.append("</g>")
    return "".join(cells)
