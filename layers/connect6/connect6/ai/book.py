"""Opening book for 19×19, built from Little Golem expert games (tools/build_book.py).

A position is keyed up to the board's 8 symmetries: the smallest (black stones, white stones)
over all symmetries. The book stores, per position, the experts' best-scoring move in that
key's frame; a lookup maps it back onto the board. The data file is loaded on first use.
Only 19×19 positions are in the book. The search does not consult it yet: in mini-matches
against Cloudict, playing the book's move (when the safety check found nothing against it)
was worth nothing measurable (docs/ai.md, "Opening book").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

BOOK_SIZE = 19
BOOK_FILE = "book19.json"


def map_point(p: int, n: int, k: int) -> int:
    """``p`` under symmetry ``k`` (0 = identity … 7; bit 4 swaps rows and columns, then bit 1
    mirrors the columns and bit 2 the rows)."""
    c, r = p % n, p // n
    if k & 4:
        c, r = r, c
    if k & 1:
        c = n - 1 - c
    if k & 2:
        r = n - 1 - r
    return r * n + c


def unmap_point(p: int, n: int, k: int) -> int:
    """The inverse of :func:`map_point`."""
    c, r = p % n, p // n
    if k & 2:
        r = n - 1 - r
    if k & 1:
        c = n - 1 - c
    if k & 4:
        c, r = r, c
    return r * n + c


def position_key(black: list[int] | tuple[int, ...], white: list[int] | tuple[int, ...],
                 n: int) -> tuple[str, list[int]]:
    """The position's key (the same for all 8 symmetric images) and the symmetries that map
    the position onto it (several when the position is itself symmetric)."""
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    ks: list[int] = []
    for k in range(8):
        img = (tuple(sorted(map_point(p, n, k) for p in black)),
               tuple(sorted(map_point(p, n, k) for p in white)))
        if best is None or img < best:
            best, ks = img, [k]
        elif img == best:
            ks.append(k)
    assert best is not None
    return ",".join(map(str, best[0])) + "/" + ",".join(map(str, best[1])), ks


def canonical_move(stones: list[int] | tuple[int, ...], n: int, ks: list[int]) -> tuple[int, ...]:
    """A move in the key's frame; equivalent moves of a symmetric position coincide."""
    return min(tuple(sorted(map_point(p, n, k) for p in stones)) for k in ks)


@dataclass(frozen=True)
class BookMove:
    stones: tuple[int, ...]
    games: int  # expert games that played this move here
    won: float  # of them, won by the side that played it (draws count half)


@lru_cache(maxsize=1)
def _entries() -> dict[str, tuple[tuple[int, ...], int, float]]:
    text = resources.files("connect6.ai").joinpath(BOOK_FILE).read_text()
    data = json.loads(text)
    return {key: (tuple(move), games, won) for key, (move, games, won) in data["positions"].items()}


def lookup(black: list[int], white: list[int], n: int) -> BookMove | None:
    """The book move for the side to move in this position, on the board's own frame."""
    if n != BOOK_SIZE:
        return None
    key, ks = position_key(black, white, n)
    entry = _entries().get(key)
    if entry is None:
        return None
    move, games, won = entry
    k = ks[0]
    return BookMove(tuple(unmap_point(p, n, k) for p in move), games, won)
