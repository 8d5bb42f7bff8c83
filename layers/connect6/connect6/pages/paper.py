"""The turn sheets on paper (``Accept: application/pdf``): one A4 page each, for a player who plays
by post, drawn with fpdf2 (pure Python) and a QR code from segno.

Everything sits inside 190 × 260 mm from the top-left corner (10 mm margins), so the page prints
whole on A4 (210 × 297 mm) and on Letter (216 × 279 mm). The board is drawn as vectors, with its
coordinates on all four sides, the last move marked with a dot of the other colour (it shows on a
black-and-white printer) and the winning line as a band with a ring on each stone. The sheet code is
printed as text and as a QR code.

Text is set in DejaVu Sans, embedded (subset) from ``fonts/``: Latin, Greek, Cyrillic, Armenian,
Georgian and more. A name the font cannot print (CJK, Arabic, Hebrew, Devanagari, …: no glyphs, or
a script that needs shaping or right-to-left order, which fpdf2 does only with HarfBuzz) is printed
in Latin letters (anyascii), and the sheet says so, naming the script, in a line under the header.

Importing this module imports fpdf2 (tens of milliseconds): only the routes that answer with a PDF
import it; ``connect6.pages`` does not.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from math import ceil

import segno
from anyascii import anyascii
from fontTools.ttLib import TTFont
from fpdf import FPDF

from connect6.game.shapes import Colour, JoinSheet, LastMove, MoveSheet, PlayerRef, RecapSheet
from connect6.pages.clock import PAUSED_LINE
from connect6.pages.html import _when
from connect6.pages.sheets import (
    SheetContext,
    _free_points,
    _opponent_name,
    _other,
    _plural,
    move_sheet_clock,
    recap_heading,
    result_sentence,
)
from connect6.pages.svg import label_cells
from connect6.records.labels import column_letters

A4 = (210.0, 297.0)
LEFT, TOP, RIGHT, BOTTOM = 10.0, 10.0, 200.0, 270.0  # the printable box shared by A4 and Letter
WIDTH = RIGHT - LEFT
FONT = "DejaVu"
INK = (20, 20, 20)
MUTED = (90, 90, 90)
LINE = (60, 45, 25)
BOARD = (246, 234, 208)
BOARD_EDGE = (185, 138, 62)
PT = 0.3528  # millimetres a point


# ---------------------------------------------------------------------------------------------
# Names in any script


@cache
def _font_path(bold: bool) -> str:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return str(resources.files("connect6.pages").joinpath("fonts", name))


@cache
def _glyphs() -> frozenset[int]:
    """The code points both embedded faces draw."""
    maps = [set(TTFont(_font_path(bold), lazy=True).getBestCmap()) for bold in (False, True)]
    return frozenset(maps[0] & maps[1])


def _drawable(char: str) -> bool:
    if char in " \n":
        return True
    if unicodedata.bidirectional(char) in ("R", "AL", "AN"):  # right to left: fpdf2 needs HarfBuzz
        return False
    return ord(char) in _glyphs()


def _script(char: str) -> str:
    word = unicodedata.name(char, "UNKNOWN").split()[0]
    return word if len(word) <= 3 else word.capitalize()


def printable(text: str) -> tuple[str, str | None]:
    """``text`` as the paper prints it, and a note when it is not printed as written: in Latin
    letters (anyascii), naming the script the font lacks. Text the font draws comes back as it is.

    >>> printable("Zoë")
    ('Zoë', None)
    >>> printable("张伟")
    ('ZhangWei', 'printed in Latin letters as “ZhangWei” (the paper font has no CJK letters)')
    """
    text = unicodedata.normalize("NFC", text)
    missing = [char for char in text if not _drawable(char)]
    if not missing:
        return text, None
    latin = " ".join(anyascii(text).split()) or "?"
    script = _script(missing[0])
    return latin, f"printed in Latin letters as “{latin}” (the paper font has no {script} letters)"


class _Paper:
    """One A4 page and the helpers the three sheets share; notes on names printed otherwise."""

    def __init__(self, title: str) -> None:
        pdf = FPDF(orientation="P", unit="mm", format="A4")
        pdf.set_auto_page_break(False)
        pdf.set_margins(LEFT, TOP, A4[0] - RIGHT)
        pdf.add_font(FONT, "", _font_path(False))
        pdf.add_font(FONT, "B", _font_path(True))
        pdf.set_creation_date(datetime(2026, 1, 1, tzinfo=UTC))  # the same sheet gives the same bytes
        pdf.set_creator("Connect6")
        pdf.add_page()
        self.pdf = pdf
        self.notes: list[str] = []
        pdf.set_title(self.text(title))

    # -- text ---------------------------------------------------------------------------------
    def name(self, text: str | None, fallback: str = "") -> str:
        """A name as printed; a note says how when it is not printed as written."""
        shown, note = printable(text or fallback)
        if note is not None and text and note not in self.notes:
            self.notes.append(note)
        return shown

    @staticmethod
    def text(text: str) -> str:
        """Other text (phrases, the run's name): printed, or in Latin letters, without a note."""
        return printable(text)[0]

    def font(self, size: float, bold: bool = False, colour: tuple[int, int, int] = INK) -> None:
        self.pdf.set_font(FONT, "B" if bold else "", size)
        self.pdf.set_text_color(*colour)

    def fit(self, text: str, width: float, size: float, minimum: float, bold: bool = False) -> str:
        """Sets the largest font size down to ``minimum`` at which ``text`` fits ``width``; past
        that, cuts the text with an ellipsis."""
        while size > minimum:
            self.font(size, bold)
            if self.pdf.get_string_width(text) <= width:
                return text
            size -= 0.5
        self.font(minimum, bold)
        if self.pdf.get_string_width(text) <= width:
            return text
        while text and self.pdf.get_string_width(text + "…") > width:
            text = text[:-1]
        return text + ("…" if text else "")

    def line_at(self, x: float, y: float, width: float, text: str, size: float, *, bold: bool = False,
                colour: tuple[int, int, int] = INK, align: str = "L", minimum: float | None = None) -> None:
        shown = self.fit(text, width, size, minimum or size, bold)
        self.pdf.set_text_color(*colour)
        self.pdf.set_xy(x, y)
        self.pdf.cell(width, size * PT * 1.25, shown, align=align)

    def wrapped(self, x: float, y: float, width: float, text: str, size: float, *, max_lines: int,
                bold: bool = False, colour: tuple[int, int, int] = INK) -> float:
        """Text wrapped to ``width`` in at most ``max_lines`` lines; returns the y under it."""
        self.font(size, bold, colour)
        height = size * PT * 1.3
        lines = self.pdf.multi_cell(width, height, text, dry_run=True, output="LINES")
        assert isinstance(lines, list)
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = lines[-1].rstrip()[: max(len(lines[-1]) - 2, 0)] + "…"
        for i, line in enumerate(lines):
            self.pdf.set_xy(x, y + i * height)
            self.pdf.cell(width, height, line)
        return y + len(lines) * height

    def kicker(self, text: str) -> None:
        self.line_at(LEFT, TOP, 150, text.upper(), 8.5, colour=MUTED)

    # -- boxes --------------------------------------------------------------------------------
    def box(self, x: float, y: float, w: float, h: float, label: str = "", *, hint: str = "") -> None:
        """A labelled box to write in: the label above it, a light example inside."""
        pdf = self.pdf
        if label:
            self.line_at(x, y - 5.2, w, label, 9.5, bold=True)
        pdf.set_draw_color(*INK)
        pdf.set_line_width(0.4)
        pdf.set_fill_color(255, 255, 255)
        pdf.rect(x, y, w, h, style="DF", round_corners=True, corner_radius=1.5)
        if hint:
            self.line_at(x + 1.5, y + h - 4.2, w - 3, hint, 7, colour=(150, 150, 150))

    def tick(self, x: float, y: float, label: str, size: float = 10, *, box: float = 4.5) -> float:
        """A tick box with its label; returns the x after the label."""
        pdf = self.pdf
        pdf.set_draw_color(*INK)
        pdf.set_line_width(0.35)
        pdf.set_fill_color(255, 255, 255)
        pdf.rect(x, y, box, box, style="DF")
        self.font(size)
        pdf.set_xy(x + box + 1.8, y + box / 2 - size * PT * 0.65)
        pdf.cell(pdf.get_string_width(label) + 1, size * PT * 1.3, label)
        return pdf.get_x()

    # -- the code -----------------------------------------------------------------------------
    def code(self, code: str, x: float = RIGHT - 28, y: float = TOP, size: float = 28) -> None:
        """The sheet code as a QR code (vector modules) with the code under it."""
        pdf = self.pdf
        if not code:
            return
        qr = segno.make(code, error="m", micro=False)
        rows = [list(row) for row in qr.matrix]
        module = size / len(rows)
        pdf.set_fill_color(*INK)
        for r, row in enumerate(rows):
            c = 0
            while c < len(row):
                if row[c]:
                    start = c
                    while c < len(row) and row[c]:
                        c += 1
                    pdf.rect(x + start * module, y + r * module, (c - start) * module, module, style="F")
                else:
                    c += 1
        self.line_at(x - 12, y + size + 0.8, size + 12, code, 10, bold=True, align="R", minimum=7)
        self.line_at(x - 12, y + size + 5.6, size + 12, "sheet code", 7, colour=MUTED, align="R")

    def name_notes(self, y: float) -> float:
        """The notes on names printed in Latin letters, under the header; returns the y after."""
        for note in self.notes:
            y = self.wrapped(LEFT, y, 150, "A name is " + note + ".", 8, max_lines=2, colour=MUTED)
        return y

    def finish(self) -> bytes:
        if self.pdf.pages_count != 1:  # pragma: no cover - the layouts are sized for one page
            raise RuntimeError(f"a sheet must be one page, not {self.pdf.pages_count}")
        return bytes(self.pdf.output())


# ---------------------------------------------------------------------------------------------
# The board


def _star_points(size: int) -> list[tuple[int, int]]:
    points = [(size // 2, size // 2)] if size % 2 else []
    if size >= 13:
        lo, hi = 3, size - 4
        points += [(lo, lo), (lo, hi), (hi, lo), (hi, hi)]
    return points


def draw_board(paper: _Paper, x: float, y: float, width: float, size: int, board: Sequence[str], *,
               last: LastMove | None = None, winning_line: Sequence[str] = ()) -> None:
    """The board in a ``width`` square at (x, y): grid, coordinates on four sides, stones, the
    last move's dots and the winning line."""
    pdf = paper.pdf
    margin = min(max(width * 0.06, 5.0), 9.0)
    cell = (width - 2 * margin) / size
    origin_x, origin_y = x + margin + cell / 2, y + margin + cell / 2

    def at(col: int, top: int) -> tuple[float, float]:
        return origin_x + col * cell, origin_y + top * cell

    pdf.set_draw_color(*BOARD_EDGE)
    pdf.set_fill_color(*BOARD)
    pdf.set_line_width(0.5)
    pdf.rect(x, y, width, width, style="DF", round_corners=True, corner_radius=2.5)
    lo_x, lo_y = at(0, 0)
    hi_x, hi_y = at(size - 1, size - 1)
    pdf.set_draw_color(*LINE)
    pdf.set_line_width(0.18)
    for i in range(size):
        gx, gy = at(i, i)
        pdf.line(gx, lo_y, gx, hi_y)
        pdf.line(lo_x, gy, hi_x, gy)
    pdf.set_line_width(0.4)
    pdf.rect(lo_x, lo_y, hi_x - lo_x, hi_y - lo_y)
    pdf.set_fill_color(*LINE)
    for col, top in _star_points(size):
        cx, cy = at(col, top)
        pdf.circle(cx, cy, max(cell * 0.09, 0.35), style="F")
    # Coordinates: letters above and below, numbers left and right.
    label_pt = min(10.5, max(4.0, cell * 0.55 / PT))
    paper.font(label_pt, bold=True, colour=LINE)
    text_h = label_pt * PT
    for col in range(size):
        cx, _ = at(col, 0)
        letters = column_letters(col)
        for ty in (y + margin / 2 - text_h / 2 - 0.4, y + width - margin / 2 - text_h / 2 + 0.4):
            pdf.set_xy(cx - cell / 2, ty)
            pdf.cell(cell, text_h, letters, align="C")
    for top in range(size):
        _, cy = at(0, top)
        number = str(size - top)
        for tx in (x, x + width - margin):
            pdf.set_xy(tx, cy - text_h / 2)
            pdf.cell(margin, text_h, number, align="C")
    grid = [(board[top] if top < len(board) else "")[:size].ljust(size, ".") for top in range(size)]
    radius = cell * 0.45
    winning = label_cells(winning_line, size)
    if len(winning) >= 2:
        ends = sorted(winning)
        (x1, y1), (x2, y2) = at(*ends[0]), at(*ends[-1])
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(cell * 0.55)
        pdf.line(x1, y1, x2, y2)
    for top, row in enumerate(grid):
        for col, ch in enumerate(row):
            if ch not in "BW":
                continue
            cx, cy = at(col, top)
            pdf.set_line_width(0.3)
            pdf.set_draw_color(*INK)
            if ch == "B":
                pdf.set_fill_color(*INK)
            else:
                pdf.set_fill_color(255, 255, 255)
            pdf.circle(cx, cy, radius, style="DF")
    pdf.set_line_width(max(cell * 0.08, 0.3))
    pdf.set_draw_color(*INK)
    for col, top in winning:
        cx, cy = at(col, top)
        pdf.circle(cx, cy, radius + cell * 0.06, style="D")
    for col, top in label_cells(last.stones if last is not None else [], size):
        cx, cy = at(col, top)
        black = grid[top][col] == "B"
        pdf.set_fill_color(*((255, 255, 255) if black else INK))
        pdf.circle(cx, cy, radius * 0.32, style="F")


# ---------------------------------------------------------------------------------------------
# The three sheets


def _who(paper: _Paper, side: PlayerRef | None) -> str:
    name = paper.name(side.name if side is not None else None, _opponent_name(side))
    if side is not None and side.kind == "computer" and "computer" not in name.lower():
        name += " (computer)"
    return name


def _colour(colour: Colour | None) -> str:
    return colour.capitalize() if colour else "(colour not drawn yet)"


def move_sheet_pdf(sheet: MoveSheet, *, context: SheetContext | None = None) -> bytes:
    """The move sheet on paper: the board with its coordinates and the last move, the player's
    name and colour, the move number and how many stones to place, a labelled box for each stone,
    the phrases with a tick box each, a box to offer a draw, and the sheet code (text and QR)."""
    context = context or SheetContext()
    paper = _Paper(f"Connect6 move sheet: move {sheet.move_number}")
    colour = sheet.stone_colour
    playing = (sheet.status == "in_progress" and sheet.your_turn and sheet.stones_to_place > 0
               and not sheet.paused)
    stones = sheet.stones_to_place
    game = paper.text(context.game_name) if context.game_name else ""
    paper.kicker("Connect6 · move sheet" + (f" · {game}" if game else ""))
    player = paper.name(sheet.player_name, "")
    opponent = _who(paper, sheet.opponent)
    greeting = paper.text(sheet.greeting)
    if sheet.player_name and player != sheet.player_name:
        greeting = f"Hello {player}"
    paper.line_at(LEFT, TOP + 5, 150, greeting, 20, bold=True, minimum=11)
    paper.line_at(LEFT, TOP + 14, 150, f"{player or 'You'} · {_colour(colour)} · against {opponent}",
                  11.5, minimum=7)
    if sheet.status == "cancelled":
        headline = "The game was cancelled: it ends with no winner."
    elif sheet.paused and sheet.status == "in_progress":
        headline = PAUSED_LINE
    elif playing:
        headline = f"Move {sheet.move_number}: place {_plural(stones, 'stone')} ({_colour(colour)})"
    elif sheet.status in ("completed", "draw"):
        headline = "The game is over: your recap has the result."
    elif sheet.status == "waiting_for_players":
        headline = "The game starts when both seats are taken."
    else:
        headline = f"Move {sheet.move_number}: it is {opponent}'s turn, not yours."
    paper.line_at(LEFT, TOP + 21, 150, headline, 13, bold=True, minimum=8)
    paper.code(context.sheet_code)
    clock = move_sheet_clock(sheet, context.now)
    y = TOP + 28
    if clock.get("until"):
        paper.line_at(LEFT, y, 150, clock["until"], 11, bold=True, minimum=7)
        y += 6
    if clock.get("sides"):
        paper.line_at(LEFT, y, 150, clock["sides"], 9.5, minimum=7)
        y += 5
    y = paper.name_notes(y)
    board_top = max(y + 2, 44.0)
    board_w = 134.0
    draw_board(paper, LEFT, board_top, board_w, sheet.board_size, sheet.board, last=sheet.last_move)
    # The column beside the board.
    cx, cw = LEFT + board_w + 7, RIGHT - (LEFT + board_w + 7)
    cy = board_top + 5
    last = sheet.last_move
    last_text = (f"Last move: {last.move_number}. {last.colour.capitalize()} {' '.join(last.stones)}"
                 if last is not None else "No stone on the board yet: Black opens with one.")
    if playing:
        # Beside the sheet code's small label, which ends this column's top right: kept clear of it.
        paper.line_at(cx, board_top - 1, cw - 16, "Write your stones", 11, bold=True, minimum=8)
        examples = _free_points(sheet.board_size, sheet.board, 2)
        names = ("Stone 1", "Stone 2") if stones > 1 else ("Your stone",)
        cy = board_top + 11
        for i, label in enumerate(names):
            hint = f"column and row, like {examples[i]}" if i < len(examples) else ""
            paper.box(cx, cy, cw, 15, label, hint=hint)
            cy += 23
        cy -= 2
    cy = paper.wrapped(cx, cy, cw, last_text, 9.5, max_lines=3) + 2.5
    talk = sheet.table_talk_received
    if talk is not None:
        speaker = paper.name(talk.from_) if talk.from_ else "Your opponent"
        said = f"{speaker} said: “{paper.text(talk.text)}”"
        cy = paper.wrapped(cx, cy, cw, said, 9.5, max_lines=3) + 2.5
    if sheet.draw_offered_by_opponent and sheet.status == "in_progress":
        cy = paper.wrapped(cx, cy, cw, f"{opponent} offers a draw. Playing a move declines it.", 9.5,
                           max_lines=3, bold=True) + 2.5
    if playing:
        cy = max(cy + 2, board_top + board_w - 16)
        paper.tick(cx, cy, "Offer a draw", 11, box=6)
        paper.line_at(cx, cy + 7.5, cw, "tick to offer a draw with this move", 7.5, colour=MUTED)
        _phrases(paper, sheet, board_top + board_w + 7)
        paper.wrapped(LEFT, BOTTOM - 12, WIDTH,
                      "Write each stone in its box as the column letter and row number printed on the "
                      "board's edges (like h8), tick at most one phrase, and send the sheet back as the "
                      "platform tells you. The sheet code names this game, your seat and this move.",
                      8, max_lines=3, colour=MUTED)
    return paper.finish()


def _phrases(paper: _Paper, sheet: MoveSheet, top: float) -> None:
    options = sheet.table_talk_options
    if not options:
        return
    paper.line_at(LEFT, top, WIDTH, "Say something (tick one, or none)", 11, bold=True)
    columns = 3
    rows = ceil(len(options) / columns)
    room = BOTTOM - 16 - (top + 7)
    step = min(8.5, room / rows)
    size = min(11.0, max(5.0, step / PT / 1.7))
    width = WIDTH / columns
    for i, option in enumerate(options):
        col, row = divmod(i, rows)
        x, y = LEFT + col * width, top + 7 + row * step
        text = paper.text(option.text)
        paper.font(size)
        while paper.pdf.get_string_width(text) > width - 9 and len(text) > 1:
            text = text[:-2] + "…"
        paper.tick(x, y, text, size, box=min(5.0, step * 0.7))


def join_sheet_pdf(sheet: JoinSheet, *, context: SheetContext | None = None) -> bytes:
    """The join sheet on paper: the fields of its form as boxes and tick boxes (name, e-mail, the
    opponent: none, the computer and its level, or an invitation with name, e-mail and note), only
    what the run allows, the rules in a few lines and the sheet code."""
    context = context or SheetContext()
    paper = _Paper("Connect6 join sheet")
    paper.kicker("Connect6 · join a game")
    paper.line_at(LEFT, TOP + 5, 150, paper.text(sheet.game_name or sheet.game_id), 20, bold=True, minimum=11)
    seats = sheet.open_seats
    seats_line = ("Both seats are open: join, and choose who you play." if seats >= 2 else
                  "One seat is open: join to play the player already seated." if seats == 1 else
                  "This game has no open seat.")
    paper.line_at(LEFT, TOP + 15, 150, seats_line, 11.5)
    paper.code(context.sheet_code)
    rules = sheet.rules
    size = rules.board_size
    lines = [
        f"Two players take turns on a {size}×{size} board; colours are drawn when both seats are taken.",
        f"Black opens with {_plural(rules.first_turn_stones, 'stone')}; after that each turn places "
        f"{_plural(rules.stones_per_turn, 'stone')}.",
        f"The first to get {rules.win_length} or more in an unbroken line (across, down or diagonally) wins.",
    ]
    y = TOP + 24
    for line in lines:
        y = paper.wrapped(LEFT, y, 150, "• " + line, 9.5, max_lines=2)
    y = max(y, TOP + 45) + 8
    if seats <= 0:
        paper.line_at(LEFT, y, WIDTH, "Every seat in this game is taken: there is nothing to fill in.", 12)
        return paper.finish()
    paper.box(LEFT, y, WIDTH, 13, "Your name, as your opponent will see it")
    y += 22
    paper.box(LEFT, y, WIDTH, 13, "Your e-mail address")
    y += 21
    paper.line_at(LEFT, y, WIDTH, "Your opponent (tick one)", 11, bold=True)
    y += 8
    none_label = "Wait for another player to join" if seats >= 2 else "Play the player already seated"
    paper.tick(LEFT, y, none_label, 11, box=5.5)
    y += 10
    if sheet.can_request_computer:
        after = paper.tick(LEFT, y, "Play the computer, at level:", 11, box=5.5)
        x = after + 4
        for level in sheet.computer_levels:
            x = paper.tick(x, y + 0.5, level, 10.5, box=4.5) + 4
        y += 10
    if sheet.can_invite:
        paper.tick(LEFT, y, "Invite someone I know (we e-mail them a link that holds the seat for 24 hours):",
                   11, box=5.5)
        y += 14
        half = (WIDTH - 6) / 2
        paper.box(LEFT + 8, y, half - 8, 13, "Their name")
        paper.box(LEFT + half + 6, y, half, 13, "Their e-mail address")
        y += 22
        paper.box(LEFT + 8, y, WIDTH - 8, 26, "A note for them (optional)")
        y += 30
    paper.wrapped(LEFT, BOTTOM - 12, WIDTH,
                  "Write clearly in capitals, tick one opponent, and send the sheet back as the platform "
                  "tells you. The sheet code names this game.", 8, max_lines=2, colour=MUTED)
    return paper.finish()


def recap_pdf(sheet: RecapSheet, *, context: SheetContext | None = None) -> bytes:
    """The recap on paper: the result, the final board with the winning line, the players, hints
    and undos used, the table talk, the record (wrapped, smaller type for a long game) and the
    sheet code."""
    context = context or SheetContext()
    paper = _Paper("Connect6 recap")
    paper.kicker("Connect6 · game over")
    name = paper.name(sheet.player_name, "")
    heading = recap_heading(sheet, name)
    paper.line_at(LEFT, TOP + 5, 150, heading, 20, bold=True, minimum=11)
    how = result_sentence(sheet)
    for raw in filter(None, (sheet.winner.name if sheet.winner else None, sheet.player_name,
                             sheet.opponent.name if sheet.opponent else None)):
        how = how.replace(raw, paper.name(raw))
    paper.wrapped(LEFT, TOP + 14, 150, how, 11.5, max_lines=2)
    opponent = _who(paper, sheet.opponent)
    paper.line_at(LEFT, TOP + 25, 150, f"{name or 'You'} ({_colour(sheet.your_colour)}) against "
                  f"{opponent} ({_colour(_other(sheet.your_colour))})", 10.5, minimum=7)
    paper.code(context.sheet_code)
    y = paper.name_notes(TOP + 31)
    board_top = max(y + 2, 46.0)
    board_w = 132.0
    draw_board(paper, LEFT, board_top, board_w, sheet.board_size, sheet.board,
               winning_line=sheet.winning_line)
    cx = LEFT + board_w + 7
    cw = RIGHT - cx
    facts = [("Moves", str(sheet.move_count)), ("Stones", str(sheet.stones_placed))]
    if sheet.winning_line:
        facts.append(("Winning line", " ".join(sheet.winning_line)))
    facts += [("Hints used", str(sheet.hints_used)), ("Undos used", str(sheet.undos_used))]
    for label, moment in (("Started", sheet.started_at), ("Finished", sheet.finished_at)):
        if moment:
            facts.append((label, _when(moment)[1].replace(" UTC", "\u00a0UTC")))
    cy = board_top
    for label, value in facts:
        paper.line_at(cx, cy, cw, label.upper(), 7.5, colour=MUTED)
        cy = paper.wrapped(cx, cy + 3.6, cw, value, 10, max_lines=2, bold=True) + 2.2
    for talk, who in ((sheet.table_talk_received, opponent), (sheet.table_talk_sent, "You")):
        if talk is not None and cy < board_top + board_w - 10:
            speaker = paper.name(talk.from_) if talk.from_ and who != "You" else who
            line = f"{speaker}: “{paper.text(talk.text)}”"
            cy = paper.wrapped(cx, cy + 1, cw, line, 9.5, max_lines=2) + 1.5
    _record(paper, sheet.record, board_top + board_w + 6)
    return paper.finish()


def _record(paper: _Paper, record: str, top: float) -> None:
    """The record under the board, in the largest type (10 pt down to 5.5 pt) that fits the page;
    a record longer still is cut after whole moves with a note of how many more there are."""
    paper.line_at(LEFT, top, WIDTH, "The record", 11, bold=True)
    text = record or "(no moves)"
    room = BOTTOM - (top + 6)
    size = 10.0
    while True:
        paper.font(size)
        height = size * PT * 1.35
        lines = paper.pdf.multi_cell(WIDTH, height, text, dry_run=True, output="LINES")
        assert isinstance(lines, list)
        if len(lines) * height <= room or size <= 5.5:
            break
        size -= 0.5
    fit = max(int(room // height), 1)
    if len(lines) > fit:
        moves = text.split()
        kept = []
        for line in lines[: fit - 1]:
            kept.extend(line.split())
        lines = [*lines[: fit - 1],
                 f"… and {len(moves) - len(kept)} more moves (the whole record is on the recap page)"]
    for i, line in enumerate(lines):
        paper.pdf.set_xy(LEFT, top + 6 + i * height)
        paper.pdf.cell(WIDTH, height, line)
