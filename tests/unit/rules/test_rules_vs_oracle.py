"""Property tests: the bitboard engine against the plain oracle in tests/support/oracle.py."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from connect6.rules import Colour, IllegalMove, Position, line_through
from tests.support.oracle import OracleGame, OracleIllegal

sizes = st.one_of(st.integers(6, 9), st.sampled_from([15, 19]), st.integers(10, 59))


def pick_turn(rng: random.Random, position: Position, clustered: bool) -> list[int]:
    """A legal turn: random empty points, often next to the mover's own stones so that
    sixes (and overlines) happen on big boards too."""
    need = position.stones_to_place
    size = position.size
    empties = [p for p in range(size * size) if position.is_empty(p)]
    own = [p for p, v in enumerate(position.cells) if v == (0 if position.to_move is Colour.BLACK else 1)]
    chosen: list[int] = []
    while len(chosen) < need:
        point = rng.choice(empties)
        if clustered and own and rng.random() < 0.85:
            base = rng.choice(own)
            dc, dr = rng.choice([(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)])
            col, row = base % size + dc, base // size + dr
            if 0 <= col < size and 0 <= row < size and position.is_empty(row * size + col):
                point = row * size + col
        if point not in chosen:
            chosen.append(point)
    return chosen


def garbage_turn(rng: random.Random, position: Position) -> list[int]:
    area = position.size ** 2
    taken = [p for p, v in enumerate(position.cells) if v >= 0] or [0]
    pool = [-1, area, area + 7, rng.randrange(area), rng.choice(taken)]
    return [rng.choice(pool) for _ in range(rng.randrange(0, 4))]


def same_state(position: Position, oracle: OracleGame) -> None:
    assert position.cells == oracle.cells()
    assert position.to_move.value == oracle.to_move
    assert position.stones_to_place == oracle.stones_to_place
    assert position.turns == oracle.turns
    assert (position.winner.value if position.winner else None) == oracle.winner
    assert position.winning_line == oracle.winning_line
    assert position.draw == oracle.draw


@settings(max_examples=200, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32), clustered=st.booleans())
def test_random_games_agree_with_the_oracle(size: int, seed: int, clustered: bool) -> None:
    rng = random.Random(seed)
    # Given the engine and the oracle on the same board
    position, oracle = Position(size), OracleGame(size)
    turns = 0
    while not position.is_over and turns < 200:
        # When a random (sometimes illegal) turn is offered to both
        if rng.random() < 0.2:
            attempt = garbage_turn(rng, position)
            engine_error: IllegalMove | None = None
            oracle_error: OracleIllegal | None = None
            try:
                position.play(attempt)
            except IllegalMove as exc:
                engine_error = exc
            try:
                oracle.play(attempt)
            except OracleIllegal as exc:
                oracle_error = exc
            # Then both accept it or both refuse it for the same reason at the same stone
            if engine_error is None or oracle_error is None:
                assert engine_error is None and oracle_error is None, (attempt, engine_error, oracle_error)
            else:
                assert engine_error.reason.value == oracle_error.reason
                assert engine_error.stone_index == oracle_error.stone_index
            same_state(position, oracle)
            continue
        stones = pick_turn(rng, position, clustered)
        result = position.play(stones)
        placed = oracle.play(stones)
        turns += 1
        # Then they place the same stones and agree on the result and the winning line
        assert result.placed == placed
        assert result.turn_number == len(oracle.turns)
        assert (result.winner.value if result.winner else None) == oracle.winner
        assert result.winning_line == oracle.winning_line
        assert result.draw == oracle.draw
        if result.winner is not None:
            # The bit-walking line finder used by fast replays agrees too
            bits = position.bits(result.winner)
            assert line_through(bits, result.placed[-1], size) == oracle.winning_line
            assert line_through(bits & ~position._geo.bit[result.placed[-1]], result.placed[-1], size) == ()
    same_state(position, oracle)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(6, 8), seed=st.integers(0, 2**32))
def test_small_boards_play_out_to_a_result(size: int, seed: int) -> None:
    rng = random.Random(seed)
    position, oracle = Position(size), OracleGame(size)
    while not position.is_over:
        stones = pick_turn(rng, position, clustered=False)
        assert position.play(stones).placed == oracle.play(stones)
    same_state(position, oracle)
    assert oracle.winner is not None or oracle.draw


@settings(max_examples=120, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32), clustered=st.booleans())
def test_undo_restores_the_position_exactly(size: int, seed: int, clustered: bool) -> None:
    rng = random.Random(seed)
    position = Position(size)
    history: list[tuple[object, ...]] = []
    while not position.is_over and len(history) < 120:
        history.append((position.cells, position.turns, position.to_move, position.stones_to_place,
                        position.bits(Colour.BLACK), position.bits(Colour.WHITE), position.stone_count,
                        position.winner, position.winning_line, position.draw, position.board_rows()))
        position.play(pick_turn(rng, position, clustered))
    # When every turn is taken back, each earlier position comes back exactly
    while history:
        position.undo()
        assert history.pop() == (
            position.cells, position.turns, position.to_move, position.stones_to_place,
            position.bits(Colour.BLACK), position.bits(Colour.WHITE), position.stone_count,
            position.winner, position.winning_line, position.draw, position.board_rows())
