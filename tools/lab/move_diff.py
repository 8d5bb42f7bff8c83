"""Which moves a change of the engine changes: two engines' moves on the positions of arena games.

For every turn the engine under study played in the games of ``records`` (``--side``, by default
the ``ours:`` label; ``--colour`` keeps one colour, ``--lost`` only the games it lost), the
position before that turn is searched by two engines, each a layer folder (``--layer-a``,
``--layer-b``: a snapshot's ``layers/connect6``; by default this tree's), with the level at its
budget on the CPU clock and the same seed per position. Each engine runs in its own process,
since both are the same package. It prints how many moves agree and every difference with the
two engines' reasons and scores.

A game between engines is decided by a few moves, and takes minutes against a strong opponent;
this answers in seconds per position whether a change plays differently at all in the games
that matter (say, the games lost as White), and where. Moves the clock decides (a search cut
short, a different draw of the variety after it) differ between two runs of one engine too:
``--depth`` fixes alpha-beta's depth, and the same engine as both layers shows that noise. Example::

    python -m tools.lab.move_diff runs/be-d6-s1.jsonl --layer-a /scratch/v/de --colour white --lost
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess  # nosec B404 # runs this tool again with another layer on PYTHONPATH
import sys
from pathlib import Path
from typing import Any

from connect6.ai import DEFAULT_BUDGETS, clock, search
from tools.lab.loss_analysis import labels, studied_positions

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_LAYER = ROOT / "layers" / "connect6"
Move = dict[str, Any]


def emit(args: argparse.Namespace) -> None:
    """One engine's moves (the layer on PYTHONPATH), as JSON lines on stdout."""
    clock.use_cpu_time(True)
    budget = args.budget if args.budget is not None else DEFAULT_BUDGETS[args.level]
    for rng, pos, rec in studied_positions(args.records, args.side, args.colour, args.lost)[:args.limit]:
        result = search(pos, args.level, budget_s=budget, rng=rng, max_depth=args.depth)
        print(json.dumps({"game": rec["game"], "turn": pos.turn_count + 1,
                          "move": labels(sorted(result.stones), pos.size), "reason": result.reason,
                          "score": result.score, "depth": result.depth}), flush=True)


def run_engine(layer: Path, argv: list[str]) -> list[Move]:
    """The moves of the engine in ``layer`` (this tool run again with ``--emit``)."""
    env = dict(os.environ, PYTHONPATH=str(layer.resolve()))
    done = subprocess.run([sys.executable, "-m", "tools.lab.move_diff", *argv, "--emit"],  # nosec B603 # our own tool
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the engine in {layer} failed:\n{done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def compare(a: list[Move], b: list[Move]) -> tuple[int, list[tuple[Move, Move]]]:
    """(moves the same, the pairs that differ), position by position."""
    same = 0
    differ: list[tuple[Move, Move]] = []
    for x, y in zip(a, b, strict=True):
        if (x["game"], x["turn"]) != (y["game"], y["turn"]):
            raise ValueError(f"the two engines saw different positions: {x} / {y}")
        if x["move"] == y["move"]:
            same += 1
        else:
            differ.append((x, y))
    return same, differ


def describe(m: Move) -> str:
    return f"{m['move']} ({m['reason']}, {m['score']}, depth {m['depth']})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path, help="arena --record files")
    parser.add_argument("--layer-a", type=Path, default=DEFAULT_LAYER, help="engine A's layer folder")
    parser.add_argument("--layer-b", type=Path, default=DEFAULT_LAYER, help="engine B's layer folder")
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--budget", type=float, default=None, help="seconds per move (default: the level's)")
    parser.add_argument("--depth", type=int, default=None,
                        help="fix alpha-beta's depth (the protocol's depth D)")
    parser.add_argument("--side", default=None, help="the engine label studied (default: the ours: one)")
    parser.add_argument("--colour", choices=("black", "white"), default=None,
                        help="only the turns of this colour")
    parser.add_argument("--lost", action="store_true", help="only the games the studied side lost")
    parser.add_argument("--limit", type=int, default=400, help="positions at most")
    parser.add_argument("--emit", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit:
        emit(args)
        return
    for layer in (args.layer_a, args.layer_b):
        if not (layer / "connect6" / "ai").is_dir():
            parser.error(f"{layer} is not a layer folder (it has no connect6/ai)")
    passed = [*(str(p.resolve()) for p in args.records), "--level", args.level, "--limit", str(args.limit)]
    for name in ("budget", "depth", "side", "colour"):
        if getattr(args, name) is not None:
            passed += [f"--{name}", str(getattr(args, name))]
    passed += ["--lost"] if args.lost else []
    moves_a = run_engine(args.layer_a, passed)
    moves_b = run_engine(args.layer_b, passed)
    same, differ = compare(moves_a, moves_b)
    total = same + len(differ)
    print(f"{total} positions; the same move in {same}, different in {len(differ)}"
          f" (A: {args.layer_a}, B: {args.layer_b})")
    for x, y in differ:
        print(f"  game {x['game']:>3} turn {x['turn']:>3}: A {describe(x)} | B {describe(y)}")


if __name__ == "__main__":
    main()
