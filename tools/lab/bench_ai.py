#!/usr/bin/env python3
"""Benchmark the engine: time, depth and nodes per move on fixed positions.

Positions come from short self-play games of the easy level from seeded random openings (so
they are reproducible without data files). For each position and level it prints the search
time, the completed depth and the nodes; then median/p99/max per level.

    python -m tools.lab.bench_ai --size 19 --positions 12 --levels normal hard
    python -m tools.lab.bench_ai --positions 20 --levels hard --clock cpu   # nodes per CPU second
    python -m tools.lab.bench_ai --tactics tests/data/littlegolem/games.jsonl --games 3458 --levels easy hard

``--calibrate`` measures the machine: hard searches fixed Little Golem positions to a fixed depth
with a budget the clock never reaches (the same nodes on every machine) and it prints the nodes
per CPU second. Scores against an engine that plays at a fixed depth (Cloudict) depend on it: a
slower machine leaves hard's 1-s budget less search. ``tools/lab/arena.py`` prints it before its games.

``--vcdt`` times the VCDT solver alone: on the positions of ``tests/unit/ai/data/loss_positions.jsonl``
(games lost to Cloudict) the side to move's VCDT, and after the move played there the opponent's
VCDT and single-four entry warning, each searched to the end (no clock), so every machine does
the same work. It prints the nodes per CPU second and a checksum of the verdicts, proof pairs and
zones: two versions of the solver that print the same checksum found the same proofs.

``--tactics FILE`` instead derives win-in-one and must-block positions from a file of game records
(as the tests do, see tests/support/positions.py) and counts, per level, the wins found and the
blocks made (threats that two stones can stop, left with none after the answer).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import zlib
from pathlib import Path

from connect6.ai import DEFAULT_BUDGETS, clock, search
from connect6.ai.board import Board, count_hits
from connect6.rules import Position

ROOT = Path(__file__).resolve().parents[2]

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


# (game index in the Little Golem records, turns played): blocks and defences against a forced
# attack, where hard's pipeline runs its VCDT checks and alpha-beta (about a second in all).
CALIBRATION_CASES = ((2, 7), (3, 9), (5, 6), (8, 10))
CALIBRATION_DEPTH = 2
CALIBRATION_BUDGET = 600.0  # never reached at that depth: no phase is cut by the clock


def engine_kind() -> tuple[str, str]:
    """("compiled" or "pure Python", the file the engine's board module was loaded from)."""
    engine = Path(sys.modules[Board.__module__].__file__ or "?").name
    return ("compiled" if engine.endswith((".so", ".pyd")) else "pure Python"), engine


def calibrate() -> tuple[int, float]:
    """(nodes, CPU seconds) of hard's fixed-depth search of the calibration positions."""
    from tests.support.positions import LITTLE_GOLEM, load_games

    games = load_games(LITTLE_GOLEM, limit=max(g for g, _ in CALIBRATION_CASES) + 1)
    nodes = 0
    t0 = time.process_time()
    for game, turns in CALIBRATION_CASES:
        _, size, record = games[game]
        result = search(Position.from_turns(record[:turns], size), "hard", budget_s=CALIBRATION_BUDGET,
                        rng=random.Random(game), max_depth=CALIBRATION_DEPTH)
        nodes += result.nodes
    return nodes, time.process_time() - t0


def tactics(path: Path, games: int, max_blocks: int, levels: list[str], budget: float) -> int:
    from tests.support.positions import derive, load_games

    t0 = time.perf_counter()
    wins, blocks = derive(load_games(path, limit=games), symmetries=1)
    blocks = random.Random(1).sample(blocks, min(max_blocks, len(blocks)))
    print(f"{path}: {games} games read, {len(wins)} win-in-one and {len(blocks)} must-block positions "
          f"({time.perf_counter() - t0:.1f} s)")
    for level in levels:
        t0 = time.perf_counter()
        won = 0
        for i, p in enumerate(wins):
            move = search(p, level, budget_s=budget, rng=random.Random(i)).stones
            won += p.copy().play(move).winner is not None
        blocked = lost = missed = 0
        for i, p in enumerate(blocks):
            s = 0 if p.to_move.value == "black" else 1
            board = Board.from_position(p)
            threats = count_hits(board.threat_sets(1 - s))
            if board.thr[s] or threats >= 3:
                lost += 1
                continue
            after = p.copy()
            if after.play(search(p, level, budget_s=budget, rng=random.Random(i)).stones).winner is not None:
                blocked += 1
                continue
            if Board.from_position(after).thr[1 - s]:
                missed += 1
            else:
                blocked += 1
        print(f"  {level:6s}: wins found {won}/{len(wins)}; blocks made {blocked}/{blocked + missed} "
              f"({lost} positions with 3+ threats or a win of its own skipped); "
              f"{time.perf_counter() - t0:.1f} s")
    return 0


VCDT_CASES = ROOT / "tests" / "unit" / "ai" / "data" / "loss_positions.jsonl"
VCDT_DEPTH = 6  # double-threat turns of each VCDT (the screen's depth)
WARNING_DEPTH = 5  # turns of each entry warning


def vcdt_bench() -> tuple[int, int, float, int]:
    """(checks, nodes, CPU seconds, checksum) of the solver on the loss positions (see --vcdt)."""
    from connect6.ai.protocol import parse_stones
    from connect6.ai.vcdt import Vcdt

    checks: list[tuple[Board, int, str, int]] = []
    for line in VCDT_CASES.read_text().splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        size = case["size"]
        pos = Position.from_turns([parse_stones(t, size) for t in case["turns"]], size)
        mover = 0 if case["to_move"] == "black" else 1
        checks.append((Board.from_position(pos), mover, "solve", VCDT_DEPTH))
        after = Board.from_position(pos)
        for q in parse_stones(case["played"], size):
            after.place(q, mover)
        checks.append((after, 1 - mover, "solve", VCDT_DEPTH))
        checks.append((after, 1 - mover, "warning", WARNING_DEPTH))
    nodes = 0
    found = []
    t0 = time.process_time()
    for board, side, kind, depth in checks:
        solver = Vcdt(board, float("inf"))
        verdict = solver.solve(side, depth) if kind == "solve" else solver.warning(side, depth)
        nodes += solver.nodes
        found.append((verdict, sorted(solver.zone)))
    seconds = time.process_time() - t0
    return len(checks), nodes, seconds, zlib.crc32(repr(found).encode())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--levels", nargs="+", default=["easy", "normal", "hard"])
    ap.add_argument("--budget", type=float, default=None, help="seconds per move (default: level's)")
    ap.add_argument("--tactics", type=Path, default=None, help="game records (JSON lines with sgf)")
    ap.add_argument("--games", type=int, default=1000, help="with --tactics: games to read")
    ap.add_argument("--max-blocks", type=int, default=3000, help="with --tactics: must-block positions")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="budgets and times in wall time or this process's CPU time (a shared machine)")
    ap.add_argument("--calibrate", action="store_true",
                    help="only the machine's speed: nodes per CPU second of a fixed-depth search")
    ap.add_argument("--vcdt", action="store_true",
                    help="only the VCDT solver: nodes per CPU second on the saved loss positions")
    args = ap.parse_args(argv)
    if args.vcdt:
        checks, nodes, seconds, crc = vcdt_bench()
        print(f"vcdt: {checks} checks, {nodes} nodes in {seconds:.2f} CPU s, {nodes / seconds:.0f} nodes "
              f"per CPU second; verdicts crc {crc:08x} ({engine_kind()[0]} engine)")
        return 0
    if args.calibrate:
        nodes, seconds = calibrate()
        print(f"calibration: {nodes / seconds:.0f} nodes per CPU second ({nodes} nodes of hard at "
              f"depth {CALIBRATION_DEPTH} on {len(CALIBRATION_CASES)} Little Golem positions in "
              f"{seconds:.4f} s; {engine_kind()[0]} engine)")
        return 0
    clock.use_cpu_time(args.clock == "cpu")
    timer = time.process_time if args.clock == "cpu" else time.perf_counter
    kind, engine = engine_kind()
    print(f"engine: {kind} ({engine}); {args.clock} clock")
    if args.tactics is not None:
        return tactics(args.tactics, args.games, args.max_blocks, args.levels,
                       args.budget if args.budget is not None else 0.01)
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
    # Runs compare only on the same positions (easy's self-play is cut by its clock).
    print(f"positions: crc {zlib.crc32(repr([p.cells for p in pos_list]).encode()):08x}")
    for level in args.levels:
        budget = args.budget if args.budget is not None else DEFAULT_BUDGETS[level]
        times, depths, counts, rates = [], [], [], []
        for i, pos in enumerate(pos_list):
            t = timer()
            r = search(pos, level, budget_s=budget, rng=random.Random(i))
            dt = timer() - t
            times.append(dt)
            depths.append(r.depth)
            counts.append(r.nodes)
            rates.append(r.nodes / max(dt, 1e-9))
            print(f"  {level:6s} pos {i:2d} turn {pos.turn_number:2d}: {dt * 1000:7.1f} ms depth {r.depth} "
                  f"nodes {r.nodes:6d} ({r.nodes / max(dt, 1e-9):7.0f}/s) {r.reason}")
        times.sort()
        print(f"{level}: budget {budget * 1000:.0f} ms; time median {statistics.median(times) * 1000:.1f} "
              f"max {times[-1] * 1000:.1f} ms; depth median {statistics.median(depths)}; "
              f"nodes median {statistics.median(counts):.0f}; nodes/s median {statistics.median(rates):.0f}")
        searched = [i for i, d in enumerate(depths) if d > 0]  # not won, lost or forced before alpha-beta
        if searched:
            print(f"{level}: {len(searched)} positions searched by alpha-beta: depth median "
                  f"{statistics.median([depths[i] for i in searched])}, nodes/s median "
                  f"{statistics.median([rates[i] for i in searched]):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
