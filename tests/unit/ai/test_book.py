"""The 19×19 opening book (connect6.ai.book, built by tools/build_book.py)."""

import json
import random

import pytest

from connect6.ai.book import BOOK_SIZE, canonical_move, lookup, map_point, position_key, unmap_point
from tools import build_book

N = BOOK_SIZE


def entries() -> dict[str, list]:
    return json.loads(build_book.OUT.read_text())["positions"]


def stones_of_key(key: str) -> tuple[list[int], list[int]]:
    black, white = key.split("/")
    return ([int(x) for x in black.split(",") if x], [int(x) for x in white.split(",") if x])


def test_symmetry_maps_are_inverted_by_unmap() -> None:
    for k in range(8):
        for p in (0, 5, 18, 100, 180, 360):
            assert unmap_point(map_point(p, N, k), N, k) == p


def test_the_tool_rebuilds_the_shipped_file_byte_for_byte() -> None:
    # Given the expert games, when the book is built with the default settings,
    # then the result is exactly the file shipped in the package (and building is deterministic).
    built = build_book.build(build_book.LITTLE_GOLEM, 6, 3, 0.5)
    again = build_book.build(build_book.LITTLE_GOLEM, 6, 3, 0.5)
    text = json.dumps(built, separators=(",", ":"), sort_keys=True) + "\n"
    assert built == again
    assert text == build_book.OUT.read_text()
    assert len(text) < 300_000
    assert len(built["positions"]) > 100


def test_every_book_move_is_legal_and_scored_for_the_side_to_move() -> None:
    for key, (move, games, won) in entries().items():
        black, white = stones_of_key(key)
        # Black's first turn is one stone, every other turn two: the counts differ by one.
        assert abs(len(black) - len(white)) == 1
        assert len(move) == 2 and move[0] != move[1]
        assert games >= 3 and won / games >= 0.5
        taken = set(black) | set(white)
        assert all(0 <= p < N * N and p not in taken for p in move)
        found = lookup(black, white, N)
        assert found is not None
        _, ks = position_key(black, white, N)
        assert canonical_move(found.stones, N, ks) == tuple(move)


@pytest.mark.parametrize("k", range(8))
def test_lookup_is_symmetric(k: int) -> None:
    # Given a book position turned by a board symmetry, the book answers with the same move
    # turned the same way (up to the position's own symmetries).
    rng = random.Random(k)
    keys = sorted(entries())
    for key in rng.sample(keys, 40):
        black, white = stones_of_key(key)
        base = lookup(black, white, N)
        turned = lookup([map_point(p, N, k) for p in black], [map_point(p, N, k) for p in white], N)
        assert base is not None and turned is not None
        _, ks = position_key(black, white, N)
        back = [unmap_point(p, N, k) for p in turned.stones]
        assert canonical_move(back, N, ks) == canonical_move(base.stones, N, ks)
        assert (turned.games, turned.won) == (base.games, base.won)


def test_other_sizes_have_no_book() -> None:
    assert lookup([7 * 15 + 7], [], 15) is None
