"""The sheet code: a short code on every turn sheet (JSON, page and paper) that names the game, the
seat and the move number, so a sheet that comes back (typed in, read off paper) can be matched to
the sheet that was sent, and a misread code is caught rather than matched to the wrong sheet.

Format: ``GGGGG-S-N-C``, in Crockford's base 32 (``0-9 A-Z`` without ``I L O U``):

- ``GGGGG``: the game: the first 25 bits of SHA-256 of the ``game_id`` (UTF-8), five symbols;
- ``S``: the seat, ``1`` or ``2`` (``0`` on the join sheet, which belongs to no seat yet);
- ``N``: the move number in decimal: the turn to play on a move sheet, the last turn on the recap,
  ``0`` on the join sheet;
- ``C``: one check symbol over every symbol before it.

For example ``J8HMZ-1-7-1`` (game ``run-42``, seat 1, move 7). Reading is forgiving as Crockford's
base 32 is: case is ignored, ``I`` and ``L`` read as ``1``, ``O`` as ``0``, and hyphens and spaces
may be left out or put anywhere (``j8hmz171`` is the same code).

The check symbol makes the weighted sum of all the symbols zero in the field GF(32) (five-bit
symbols; addition is XOR, multiplication modulo the primitive polynomial x⁵ + x² + 1), the symbol
at distance ``k`` from the end weighted α^k. Every weight is non-zero, so a single wrong symbol
anywhere (the check included) changes the sum; neighbouring weights differ (α^k ≠ α^(k+1)), so
swapping two different neighbouring symbols changes it too. Both are caught every time, not just
usually; codes stay far shorter than 31 symbols, where the weights would repeat.

Pure: no I/O, no clock. :func:`sheet_code` makes a code, :func:`parse` reads one back (refusing a
code whose check fails), :func:`verify` says whether a code is the one of a given sheet.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: the 32 symbols, value = position."""

_VALUE = {symbol: value for value, symbol in enumerate(ALPHABET)}
_VALUE.update({"I": 1, "L": 1, "O": 0})
_SEPARATORS = frozenset("- ")
GAME_SYMBOLS = 5
MAX_MOVE_NUMBER = 99_999


def _times_alpha(value: int) -> int:
    """``value`` × α in GF(32) = GF(2)[x]/(x⁵ + x² + 1)."""
    value <<= 1
    return value ^ 0b100101 if value & 0b100000 else value


def _multiply(a: int, b: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        a = _times_alpha(a)
        b >>= 1
    return product


def _weighted_sum(values: list[int], first_power: int) -> int:
    """Σ values[i]·α^(first_power + n - 1 - i): the last value weighted α^first_power."""
    total = 0
    weight = 1
    for _ in range(first_power):
        weight = _times_alpha(weight)
    for value in reversed(values):
        total ^= _multiply(value, weight)
        weight = _times_alpha(weight)
    return total


def check_symbol(body: str) -> str:
    """The check symbol of a code's symbols (separators ignored)."""
    values = [_VALUE[c] for c in body.upper() if c not in _SEPARATORS]
    # The check itself has weight α⁰ = 1 and the symbols before it α¹, α², …: the check is their sum.
    return ALPHABET[_weighted_sum(values, 1)]


def game_tag(game_id: str) -> str:
    """The five symbols that name a game: the first 25 bits of SHA-256 of its id."""
    bits = int.from_bytes(hashlib.sha256(game_id.encode("utf-8")).digest()[:4], "big") >> 7
    return "".join(ALPHABET[(bits >> shift) & 31] for shift in range(20, -1, -5))


def sheet_code(game_id: str, seat: int, move_number: int) -> str:
    """The code of one sheet: ``GGGGG-S-N-C`` (module docstring). ``seat`` 0 (join sheet), 1 or 2;
    ``move_number`` 0 to 99,999."""
    if seat not in (0, 1, 2):
        raise ValueError(f"seat must be 0, 1 or 2, not {seat!r}")
    if not 0 <= move_number <= MAX_MOVE_NUMBER:
        raise ValueError(f"move number out of range: {move_number!r}")
    body = f"{game_tag(game_id)}-{seat}-{move_number}"
    return f"{body}-{check_symbol(body)}"


@dataclass(frozen=True)
class SheetCode:
    """A code read back: the game's tag, the seat and the move number it names."""

    game: str
    seat: int
    move_number: int

    def __str__(self) -> str:
        body = f"{self.game}-{self.seat}-{self.move_number}"
        return f"{body}-{check_symbol(body)}"


class InvalidSheetCode(ValueError):
    """A code that cannot be read (wrong symbols or length) or whose check symbol does not match."""


def parse(code: str) -> SheetCode:
    """Read a typed or printed code back. Raises :class:`InvalidSheetCode` when it has a symbol
    outside the alphabet, is too short, has a seat other than 0-2 or a move number that is not
    decimal, or its check symbol does not match (a misread or mistyped symbol, two neighbours
    swapped)."""
    symbols = [c for c in code.strip().upper() if c not in _SEPARATORS]
    if len(symbols) < GAME_SYMBOLS + 3:
        raise InvalidSheetCode("A sheet code has at least eight symbols, like J8HMZ-1-7-1.")
    if any(c not in _VALUE for c in symbols):
        raise InvalidSheetCode("A sheet code uses only the digits and the letters other than U.")
    values = [_VALUE[c] for c in symbols]
    if _weighted_sum(values, 0) != 0:
        raise InvalidSheetCode("This sheet code does not check: a symbol is misread or two are swapped.")
    canonical = "".join(ALPHABET[v] for v in values)
    game, seat, move = canonical[:GAME_SYMBOLS], canonical[GAME_SYMBOLS], canonical[GAME_SYMBOLS + 1:-1]
    if seat not in "012" or not move.isdigit() or len(move) > len(str(MAX_MOVE_NUMBER)):
        raise InvalidSheetCode("This is not a sheet code: its seat or move number cannot be read.")
    return SheetCode(game=game, seat=int(seat), move_number=int(move))


def verify(code: str, game_id: str, seat: int, move_number: int) -> bool:
    """Whether ``code`` is the code of that game's sheet for that seat and move number (a code
    that does not check is not)."""
    try:
        found = parse(code)
    except InvalidSheetCode:
        return False
    return found == SheetCode(game=game_tag(game_id), seat=seat, move_number=move_number)
