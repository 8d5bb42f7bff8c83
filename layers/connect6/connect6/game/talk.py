"""What the computer says, chosen from what happened on the board (never at random).

It speaks only when something happened: it won, lost or drew; it made a threat the opponent must
answer; it blocked one. Otherwise it stays quiet: no line with its own opening stone (nobody has
moved to be talked about) and no "let me think" after it has already moved.

A *threat* is a window of six consecutive points holding at least four stones of one colour and
none of the other: its owner completes six next turn unless the other side puts a stone in it.
"""

from __future__ import annotations

from functools import cache

from connect6.game.model import EndReason
from connect6.rules import WIN_LENGTH, Colour, Position

THREAT_STONES = WIN_LENGTH - 2  # two stones a turn: four in a window are one turn from six

# Phrase ids (connect6.game.phrases) for each thing that can happen.
COMPUTER_WON = "good_game"  # its move made six
COMPUTER_LOST = "well_played"  # the opponent's move made six
BOARD_FULL = "good_game"  # nobody made six
DRAW_AGREED = "thanks"  # it accepted the opponent's offer
OPPONENT_RESIGNED = "thanks"
MADE_THREAT = "watch_out"  # its move leaves a threat the opponent must answer
MADE_BLOCK = "that_was_close"  # its move took away every threat the opponent had


@cache
def _windows(size: int) -> tuple[tuple[int, ...], ...]:
    """Every run of six points in a row, column or diagonal of a ``size``×``size`` board."""
    runs = []
    for row in range(size):
        for col in range(size):
            for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_col, end_row = col + d_col * (WIN_LENGTH - 1), row + d_row * (WIN_LENGTH - 1)
                if 0 <= end_col < size and 0 <= end_row < size:
                    runs.append(tuple((row + d_row * k) * size + col + d_col * k for k in range(WIN_LENGTH)))
    return tuple(runs)


def threats(position: Position, colour: Colour) -> frozenset[frozenset[int]]:
    """The empty points of each of ``colour``'s threat windows (the points that would block it)."""
    cells = position.cells
    mine = colour.index
    found = set()
    for window in _windows(position.size):
        own = 0
        for point in window:
            value = cells[point]
            if value == mine:
                own += 1
            elif value >= 0:
                break  # a stone of the other colour: no threat in this window
        else:
            if own >= THREAT_STONES and own < WIN_LENGTH:
                found.add(frozenset(p for p in window if cells[p] < 0))
    return frozenset(found)


def computer_line(before: Position, after: Position) -> str | None:
    """The computer's line with the turn it played from ``before`` to ``after``."""
    if before.turn_count == 0:
        return None  # its opening stone: nothing has happened yet
    colour = before.to_move
    if after.winner is colour:
        return COMPUTER_WON
    if after.draw:
        return BOARD_FULL
    if threats(after, colour) - threats(before, colour):
        return MADE_THREAT
    if threats(before, colour.other) and not threats(after, colour.other):
        return MADE_BLOCK
    return None


CLOSING_LINES = {EndReason.SIX: COMPUTER_LOST, EndReason.RESIGNED: OPPONENT_RESIGNED,
                 EndReason.FULL_BOARD: BOARD_FULL, EndReason.AGREED: DRAW_AGREED}


def closing_line(reason: EndReason) -> str | None:
    """What the computer says when the game ends without a move of its own: the opponent made
    six, resigned, the board filled, or it accepted a draw. An ending it has no line for (one
    added later) leaves it quiet."""
    return CLOSING_LINES.get(reason)
