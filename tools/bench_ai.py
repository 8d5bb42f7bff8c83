#!/usr/bin/env python3
"""Benchmark the engine: time, depth and nodes per move on fixed positions.

Positions come from short self-play games of the easy level from seeded random openings (so
they are reproducible without data files). For each position and level it prints the search
time, the completed depth and the nodes; then median/p99/max per level.

    python tools/bench_ai.py --size 19 --positions 12 --levels normal hard
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "layers" / "connect6"))

from connect6.ai import DEFAULT_BUDGETS, search  # noqa: E402
from connect6.ai.board import Board  # noqa: E402
from connect6.rules import Position  # noqa: E402


def positions(size: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position(size)
        c = size // 2
        pos.play([pos.point(c, c)])
        target = rng.randint(3, 14)
        while pos.turn_count < target and not pos.is_over:
            if rng.random() < 0.3:
                empties = [p for p in range(size * size) if pos.is_empty(p)
                           and abs(p % size - c) <= 4 and abs(p // size - c) <= 4]
                stones = rng.sample(empties, 2)
            else:
                stones = list(search(pos, "easy", rng=rng).stones)
            pos.play(stones)
        if not pos.is_over:
            out.append(pos)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--levels", nargs="+", default=["easy", "normal", "hard"])
    ap.add_argument("--budget", type=float, default=None, help="seconds per move (default: level's)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    for _ in range(1000):
        b = Board(args.size)
        b.place(args.size * args.size // 2, 0)
    print(f"board set-up + one stone: {(time.perf_counter() - t0) * 1000:.3f} us")
    b = Board(args.size)
    mid = args.size * args.size // 2
    t0 = time.perf_counter()
    n = 100_000
    for _ in range(n):
        b.place(mid, 0)
        b.remove(mid, 0)
    print(f"place+remove: {n / (time.perf_counter() - t0):,.0f} per second")
    pos_list = positions(args.size, args.positions, args.seed)
    for level in args.levels:
        budget = args.budget if args.budget is not None else DEFAULT_BUDGETS[level]
        times, depths, nodes = [], [], []
        for i, pos in enumerate(pos_list):
            t = time.perf_counter()
            r = search(pos, level, budget_s=budget, rng=random.Random(i))
            dt = time.perf_counter() - t
            times.append(dt)
            depths.append(r.depth)
            nodes.append(r.nodes)
            print(f"  {level:6s} pos {i:2d} turn {pos.turn_number:2d}: {dt * 1000:7.1f} ms depth {r.depth} "
                  f"nodes {r.nodes:6d} ({r.nodes / max(dt, 1e-9):7.0f}/s) {r.reason}")
        times.sort()
        print(f"{level}: budget {budget * 1000:.0f} ms; time median {statistics.median(times) * 1000:.1f} "
              f"max {times[-1] * 1000:.1f} ms; depth median {statistics.median(depths)}; "
              f"nodes median {statistics.median(nodes):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
