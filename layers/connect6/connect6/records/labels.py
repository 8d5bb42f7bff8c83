"""Point labels in Little Golem's Connect6 notation: column letter(s) from ``a`` at the left
(``i`` is used, nothing is skipped), row number from 1 at the bottom. ``h8`` is the centre of
15×15 and ``j10`` the centre of 19×19. Boards wider than 26 columns continue ``aa``, ``ab``, …
Any case is read; labels are written in lowercase.

>>> point_label(112, 15)
'h8'
>>> parse_label("H8", 15)
112
"""

from __future__ import annotations

import re
from functools import cache

from connect6.rules import IllegalMove, IllegalReason

LABEL_RE = re.compile(r"([a-zA-Z]{1,2})(\d{1,2})")


class RecordError(ValueError):
    """Text that is not a record, a move or a label in the expected notation."""


def column_letters(col: int) -> str:
    """0 → ``a``, 25 → ``z``, 26 → ``aa`` (bijective base 26)."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def column_index(letters: str) -> int:
    col = 0
    for ch in letters.lower():
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return col - 1


@cache
def label_table(size: int) -> tuple[str, ...]:
    """Every point's label, by point index."""
    return tuple(column_letters(p % size) + str(p // size + 1) for p in range(size * size))


@cache
def point_table(size: int) -> dict[str, int]:
    """Lowercase label → point, for fast parsing of records."""
    return {label: point for point, label in enumerate(label_table(size))}


def point_label(point: int, size: int) -> str:
    return label_table(size)[point]


def parse_label(text: str, size: int) -> int:
    """The point a label names. Raises :class:`RecordError` when ``text`` is not a label and
    :class:`IllegalMove` (``off_board``) when it names a point outside the board."""
    found = point_table(size).get(text.lower())
    if found is not None:
        return found
    match = LABEL_RE.fullmatch(text.strip())
    if not match:
        raise RecordError(f"{text!r} is not a point label like h8")
    col, row = column_index(match.group(1)), int(match.group(2)) - 1
    label = text.strip().lower()
    if not (0 <= col < size and 0 <= row < size):
        raise IllegalMove(IllegalReason.OFF_BOARD, f"{label} is off the {size}x{size} board")
    return row * size + col


def split_labels(text: str) -> list[str]:
    """``"k9j12"`` → ``["k9", "j12"]``; raises :class:`RecordError` on anything else."""
    parts = LABEL_RE.findall(text)
    if "".join(a + b for a, b in parts) != text:
        raise RecordError(f"{text!r} is not a run of point labels like k9j12")
    return [a + b for a, b in parts]
