"""The searches in C (``connect6.ai._csearch``) give exactly the pure-Python searches' answers.

``Vcdt`` runs its ``solve`` and ``doubles``, and ``Engine`` its alpha-beta below the root with its
move generators, in the C module when it is built (tools/compile_engine.py, Cython) and in Python
otherwise (``pure=True``, or no module). An engine must play the same moves either way, so every
observable result must agree: the verdict and first pair, the node count, the proof's zone, the
failure table the checks of a move share, the double-threat count, the ranked pairs, and the
engine's move, score, depth and nodes at a fixed depth. Positions: Little Golem games at a few
turns each, both colours.
"""

from __future__ import annotations

import dataclasses
import os
import random
from pathlib import Path

import pytest

from connect6.ai import vcdt
from connect6.ai.board import Board
from connect6.ai.movegen import defence_pairs, normal_pairs
from connect6.ai.protocol import parse_stones
from connect6.ai.search import INF, LEAF_POTENTIAL_CAP, LEVEL_CONFIGS, MATE, WIN, Engine
from connect6.ai.vcdt import Timeout, Vcdt
from connect6.rules import Position
from tests.support.csearch import solver_run
from tests.support.positions import load_games

GAMES = Path(__file__).resolve().parents[2] / "data" / "littlegolem" / "games.jsonl"


def _positions(n_games: int) -> list[Position]:
    rng = random.Random(5)
    out = []
    for _, size, turns in load_games(GAMES, limit=n_games):
        if len(turns) > 4:
            for t in sorted(rng.sample(range(2, len(turns)), 2)):
                out.append(Position.from_turns(turns[:t], size))
    return out


@pytest.fixture(scope="module")
def built() -> None:
    if vcdt._csearch is None:
        if os.environ.get("CONNECT6_EXPECT_COMPILED") == "1":
            pytest.fail("make test expected the C search (connect6.ai._csearch): did `make compile` fail?")
        pytest.skip("the C search is not built here (run `make compile`)")


@pytest.mark.usefixtures("built")
@pytest.mark.parametrize("kind,depth", [("solve", 3), ("solve", 6), ("warning", 4), ("doubles", 0)])
def test_the_c_search_finds_what_the_python_search_finds(kind: str, depth: int) -> None:
    found = 0
    for position in _positions(12):
        board = Board.from_position(position)
        quiet = not board.thr[0] and not board.thr[1]
        if kind != "solve" and not quiet:
            continue
        for side in (0, 1):
            # Given one position, when both searches run
            pure = solver_run(position, True, kind, side, depth)
            fast = solver_run(position, False, kind, side, depth)
            # Then they agree on everything a caller can see
            assert fast == pure, (kind, depth, side, position.cells)
            found += pure[0] is not None and pure[0] != 0
    assert found > 0, "the positions must include some wins, or the comparison shows little"


@pytest.mark.usefixtures("built")
def test_the_c_search_stops_at_the_node_limit_and_at_the_deadline() -> None:
    # Given a search that needs more nodes than it is allowed
    position = next(p for p in _positions(12)
                    if not Board.from_position(p).thr[0] and solver_run(p, True, "solve", 0, 6)[1] > 50)
    for is_pure in (True, False):
        limited = Vcdt(Board.from_position(position), float("inf"), node_limit=50, pure=is_pure)
        # Then it runs out of time after exactly that many nodes, either way
        with pytest.raises(Timeout):
            limited.solve(0, 6)
        assert limited.nodes == 50
        # And a deadline already past stops it at its first node
        late = Vcdt(Board.from_position(position), -1.0, pure=is_pure)
        with pytest.raises(Timeout):
            late.solve(0, 6)
        assert late.nodes == 1


@pytest.mark.usefixtures("built")
def test_the_c_move_generators_rank_the_pairs_the_python_ones_rank() -> None:
    checked = 0
    for position in _positions(12):
        board = Board.from_position(position)
        core = vcdt.core_for(board.t)
        assert core is not None
        for side in (0, 1):
            if board.thr[1 - side]:
                # Given a four to block, the defences agree, for every number of free stones
                sets = board.threat_sets(1 - side)
                for k_free in (2, 8):
                    expected = defence_pairs(board, side, sets, k_free)
                    assert core.defence_pairs(board.cells, side, k_free) == expected
                    checked += 1
            else:
                # Given a quiet position, the ranked pairs agree at an inner node's and the root's widths
                for k1, k2 in ((4, 2), (12, 5)):
                    assert core.normal_pairs(board.cells, side, k1, k2) == normal_pairs(board, side, k1, k2)
                    checked += 1
    assert checked > 20


@pytest.mark.usefixtures("built")
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_engine_with_the_c_searches_plays_the_pure_engines_moves(level: str) -> None:
    for position in _positions(6):
        # Given a fixed depth and a budget the clock never reaches
        results = [Engine(position, level, 1000.0, random.Random(1), max_depth=2, pure=pure).run()
                   for pure in (True, False)]
        # Then both engines play the same stones for the same reason, score, depth and node count
        pure, fast = ((r.stones, r.reason, r.score, r.depth, r.nodes) for r in results)
        assert fast == pure, position.cells


def _two_open_threes() -> Position:
    """Black to move with two open threes on 19x19 (rows 9 and 12, columns 5-7): a stone on each
    makes two open fours, four threats, so Black wins by a VCDT of 2 turns; White's stones are far
    away in a corner."""
    n = 19

    def p(r: int, c: int) -> int:
        return r * n + c

    turns = [[p(9, 5)], [p(0, 0), p(0, 2)], [p(9, 6), p(9, 7)], [p(2, 0), p(2, 2)],
             [p(12, 5), p(12, 6)], [p(4, 0), p(4, 2)], [p(12, 7), p(18, 18)], [p(6, 0), p(6, 2)]]
    return Position.from_turns(turns, n)


@pytest.mark.parametrize("pure", [True, False])
def test_a_quiet_leaf_where_the_mover_wins_by_vcdt_scores_a_win(pure: bool,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if not pure and vcdt._csearch is None:
        pytest.skip("the C search is not built here")
    position = _two_open_threes()
    assert position.to_move.value == "black"
    hard = LEVEL_CONFIGS["hard"]
    # Given the leaf check off, a depth-0 node is scored statically
    monkeypatch.setitem(LEVEL_CONFIGS, "hard", dataclasses.replace(hard, leaf_vcdt=0))
    engine = Engine(position, "hard", 1000.0, random.Random(1), pure=pure)
    static = engine._ab(0, 0, -INF, INF, 1)
    assert static < MATE
    # When the level checks its quiet leaves for VCDTs of one double-threat turn (a triple threat)
    monkeypatch.setitem(LEVEL_CONFIGS, "hard", dataclasses.replace(hard, leaf_vcdt=1))
    engine = Engine(position, "hard", 1000.0, random.Random(1), pure=pure)
    # Then the same node is a win whose six comes two plies later (the opponent's block between)
    assert engine._ab(0, 0, -INF, INF, 1) == WIN - 1 - 2


def _five_turns_of_a_little_golem_game() -> Position:
    """White to move on 19x19 after a Little Golem game's first five turns: no threat on the
    board, Black with threes and double-threat pairs beyond the cap, White with a few pairs."""
    position = Position(19)
    for turn in ["JJ", "JIKK", "IKLI", "KILJ", "JLHJ"]:
        position.play(parse_stones(turn, 19))
    return position


@pytest.mark.parametrize("pure", [True, False])
def test_a_quiet_leaf_weighs_both_sides_double_threat_pairs_at_the_levels_weights(
        pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not pure and vcdt._csearch is None:
        pytest.skip("the C search is not built here")
    # Given White to move (the first turns of a Little Golem game), no threat on the board and no
    # triple threat, a few pairs that would give White a double threat and more than the cap
    # that would give Black one
    position = _five_turns_of_a_little_golem_game()
    board = Board.from_position(position)
    assert not board.thr[0] and not board.thr[1]
    assert Vcdt(board, 1e18, pure=True).solve(1, 1) is None
    white = Vcdt(board, 1e18, pure=True).doubles(1, LEAF_POTENTIAL_CAP)
    black = Vcdt(board, 1e18, pure=True).doubles(0, LEAF_POTENTIAL_CAP + 1)
    assert 0 < white < LEAF_POTENTIAL_CAP < black
    hard = LEVEL_CONFIGS["hard"]
    values = {}
    for weights in ((0, 0), (40, 0), (0, 30), (40, 30)):
        monkeypatch.setitem(LEVEL_CONFIGS, "hard", dataclasses.replace(
            hard, leaf_potential=weights[0], leaf_waiting=weights[1], leaf_tempo=0))
        # When the node is scored as a leaf
        engine = Engine(position, "hard", 1000.0, random.Random(1), pure=pure)
        values[weights] = engine._ab(1, 0, -INF, INF, 1)
    # Then without weights the leaf is the static evaluation; each White pair adds the mover's
    # weight, each Black pair up to the cap takes the waiting side's weight off
    assert values[(0, 0)] == board.evaluate(1)
    assert values[(40, 0)] - values[(0, 0)] == 40 * white
    assert values[(0, 30)] - values[(0, 0)] == -30 * LEAF_POTENTIAL_CAP
    assert values[(40, 30)] - values[(0, 0)] == 40 * white - 30 * LEAF_POTENTIAL_CAP


@pytest.mark.parametrize("pure", [True, False])
def test_a_quiet_leaf_counts_the_threes_of_the_side_to_move_at_the_levels_weight(
        pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not pure and vcdt._csearch is None:
        pytest.skip("the C search is not built here")
    # Given the first turns of a Little Golem game: no threat on the board, Black holding threes
    # (windows with three Black stones and no White stone) and White none
    position = _five_turns_of_a_little_golem_game()
    board = Board.from_position(position)
    assert not board.thr[0] and not board.thr[1]
    assert board.threes(0) > 0 and board.threes(1) == 0
    hard = LEVEL_CONFIGS["hard"]
    values = {}
    for weight in (0, 1000):
        monkeypatch.setitem(LEVEL_CONFIGS, "hard", dataclasses.replace(
            hard, leaf_tempo=weight, leaf_potential=0, leaf_waiting=0))
        # When the node is scored as a leaf with each side to move
        engine = Engine(position, "hard", 1000.0, random.Random(1), pure=pure)
        values[weight] = (engine._ab(0, 0, -INF, INF, 1), engine._ab(1, 0, -INF, INF, 1))
    # Then without the weight the leaf is the static evaluation; with it, Black to move gains
    # the weight per Black three, and Black's threes give White to move nothing
    assert values[0] == (board.evaluate(0), board.evaluate(1))
    assert values[1000][0] - values[0][0] == 1000 * board.threes(0)
    assert values[1000][1] == values[0][1]


def test_the_threes_are_counted_as_stones_come_and_go() -> None:
    # Given an empty 19x19 board, three Black stones in a row in the middle
    board = Board(19)
    for c in (5, 6, 7):
        board.place(9 * 19 + c, 0)
    # Then every window of that row holding the three and no other stone is a three (columns 2-7
    # to 5-10: four windows), and White has none
    assert board.threes(0) == 4 and board.threes(1) == 0
    # When White puts a stone at one end of the row
    board.place(9 * 19 + 4, 1)
    # Then the windows that took the white stone no longer count (columns 2-7 to 4-9 held it)
    assert board.threes(0) == 1
    # When a fourth Black stone joins and White's stone goes again
    board.place(9 * 19 + 8, 0)
    board.remove(9 * 19 + 4, 1)
    # Then the windows with four are threats, not threes: columns 3-8, 4-9, 5-10 hold four;
    # 2-7 (5, 6, 7) and 6-11 (6, 7, 8) hold three
    assert board.threes(0) == 2
    assert len(board.thr[0]) == 3


@pytest.mark.usefixtures("built")
def test_the_c_search_counts_the_threes_the_board_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given Little Golem positions without threats, both colours to move, the weight at one and
    # the other leaf terms off
    monkeypatch.setitem(LEVEL_CONFIGS, "hard", dataclasses.replace(
        LEVEL_CONFIGS["hard"], leaf_tempo=1, leaf_potential=0, leaf_waiting=0, leaf_vcdt=0))
    checked = 0
    for position in _positions(6):
        board = Board.from_position(position)
        if board.thr[0] or board.thr[1]:
            continue
        for side in (0, 1):
            # When the position is scored as a leaf by the pure and the C search
            values = [Engine(position, "hard", 1000.0, random.Random(1), pure=pure)._ab(side, 0, -INF, INF, 1)
                      for pure in (True, False)]
            # Then both add one per three of the side to move to the static evaluation
            assert values[0] == values[1] == board.evaluate(side) + board.threes(side)
            checked += 1
    assert checked >= 6


@pytest.mark.usefixtures("built")
def test_with_leaf_checks_the_c_engine_still_plays_the_pure_engines_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for level in ("normal", "hard"):
        monkeypatch.setitem(LEVEL_CONFIGS, level,
                            dataclasses.replace(LEVEL_CONFIGS[level], leaf_vcdt=2, leaf_potential=40,
                                                leaf_waiting=30, leaf_tempo=1000))
    for position in [*_positions(2), _two_open_threes()]:
        for level in ("normal", "hard"):
            results = [Engine(position, level, 1000.0, random.Random(1), max_depth=2, pure=pure).run()
                       for pure in (True, False)]
            pure, fast = ((r.stones, r.reason, r.score, r.depth, r.nodes) for r in results)
            assert fast == pure, (level, position.cells)
