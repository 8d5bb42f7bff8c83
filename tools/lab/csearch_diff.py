#!/usr/bin/env python3
"""The C searches (``connect6.ai._csearch``) against the Python ones, wider than the unit test.

``_csearch.pyx`` is a twin of the Python searches (its header states the contract): on every
position it must give what ``vcdt.py``, ``movegen.py`` and ``search.py`` give. This runs both on
many Little Golem positions (``--games`` games, ``--turns`` turns drawn from each by ``--seed``,
both colours) and compares everything a caller can see:

* ``Vcdt.solve`` at depths 3 and 6, ``Vcdt.warning`` at depth 4, ``Vcdt.doubles``: the answer,
  node count, zone, failure table and board;
* ``normal_pairs`` at an inner node's and the root's widths, ``defence_pairs`` with 2 and 8
  free stones: the ranked pairs;
* the engine at a fixed depth (``--depth``, a budget the clock never reaches), normal and hard:
  stones, reason, score, depth and nodes.

It prints what it covered (positions, checks by kind, nodes searched) and every difference, and
exits 1 if there is one. ``make csearch-diff`` runs it with the defaults (about a minute of CPU;
``--games 60 --turns 4 --engine-every 2``: 236 positions, 2,772 checks, 2.5 M nodes, 2 CPU minutes).

    python -m tools.lab.csearch_diff [--games 40] [--turns 3] [--seed 7] [--depth 2] [--engine-every 4]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

from connect6.ai import vcdt
from connect6.ai.board import Board
from connect6.ai.movegen import defence_pairs, normal_pairs
from connect6.ai.search import Engine
from connect6.rules import Position
from tests.support.csearch import solver_run

LITTLE_GOLEM = Path(__file__).resolve().parents[2] / "tests" / "data" / "littlegolem" / "games.jsonl"
SOLVER_CHECKS = (("solve", 3), ("solve", 6), ("warning", 4), ("doubles", 0))


def _positions(games: int, turns: int, seed: int) -> list[Position]:
    from tests.support.positions import load_games

    rng = random.Random(seed)
    out = []
    for _, size, record in load_games(LITTLE_GOLEM, limit=games):
        if len(record) > turns + 2:
            for t in sorted(rng.sample(range(2, len(record)), turns)):
                position = Position.from_turns(record[:t], size)
                if not position.is_over:
                    out.append(position)
    return out


def _defences(board: Board, pure: bool, side: int, k_free: int) -> tuple[object, ...]:
    if pure:
        return tuple(defence_pairs(board, side, board.threat_sets(1 - side), k_free))
    core = vcdt.core_for(board.t)
    assert core is not None
    return tuple(core.defence_pairs(board.cells, side, k_free))


def _normal(board: Board, pure: bool, side: int, k1: int, k2: int) -> tuple[object, ...]:
    if pure:
        return tuple(normal_pairs(board, side, k1, k2))
    core = vcdt.core_for(board.t)
    assert core is not None
    return tuple(core.normal_pairs(board.cells, side, k1, k2))


def _move(position: Position, pure: bool, level: str, depth: int) -> tuple[object, ...]:
    r = Engine(position, level, 1000.0, random.Random(1), max_depth=depth, pure=pure).run()
    return r.stones, r.reason, r.score, r.depth, r.nodes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="Little Golem games to draw positions from")
    ap.add_argument("--turns", type=int, default=3, help="positions per game")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--depth", type=int, default=2, help="the engine's fixed depth")
    ap.add_argument("--engine-every", type=int, default=4,
                    help="compare whole engine moves on every N-th position (they cost the most)")
    args = ap.parse_args(argv)
    if vcdt._csearch is None:
        print("the C searches are not built here (make compile): nothing to compare", file=sys.stderr)
        return 2
    started = time.process_time()
    positions = _positions(args.games, args.turns, args.seed)
    checks: Counter[str] = Counter()
    nodes = 0
    differences: list[str] = []

    def compare(kind: str, index: int, run: Callable[[bool], tuple[object, ...]]) -> tuple[object, ...]:
        """Run both, record a difference, return the Python side's result."""
        pure, fast = run(True), run(False)
        checks[kind] += 1
        if fast != pure:
            position = positions[index]
            differences.append(f"position {index} ({position.size}x{position.size}, turn "
                               f"{position.turn_count}): {kind}: C {fast!r:.200} != Python {pure!r:.200}")
        return pure

    for i, position in enumerate(positions):
        board = Board.from_position(position)
        quiet = not board.thr[0] and not board.thr[1]
        for side in (0, 1):
            for kind, depth in SOLVER_CHECKS:
                if kind == "solve" or quiet:
                    result = compare(f"{kind} {depth}" if depth else kind, i,
                                     partial(solver_run, position, kind=kind, side=side, depth=depth))
                    nodes += int(str(result[1]))
            if board.thr[1 - side]:
                for k in (2, 8):
                    compare(f"defence_pairs {k}", i, partial(_defences, board, side=side, k_free=k))
            else:
                for k1, k2 in ((4, 2), (12, 5)):
                    compare(f"normal_pairs {k1}x{k2}", i, partial(_normal, board, side=side, k1=k1, k2=k2))
        if i % args.engine_every == 0:
            for level in ("normal", "hard"):
                result = compare(f"engine {level} depth {args.depth}", i,
                                 partial(_move, position, level=level, depth=args.depth))
                nodes += int(str(result[4]))
    print(f"C vs Python searches: {len(positions)} positions from {args.games} Little Golem games "
          f"(seed {args.seed}), both colours, {sum(checks.values())} checks, {nodes} nodes searched "
          f"(Python side), {time.process_time() - started:.1f} CPU s")
    for kind, n in sorted(checks.items()):
        print(f"  {kind:<24} {n:5d}")
    print(f"differences: {len(differences)}")
    for line in differences[:20]:
        print(f"  {line}")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
