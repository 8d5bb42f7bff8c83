"""Where a level's time goes: replay the positions of arena games and time each root phase.

For every turn the engine under study played in the games of ``--record`` files (``--side``, by
default every ``ours:`` label), the position before that turn is searched again with the level at
its budget (``--budget``, default the level's) on the CPU clock (``--clock``), and the engine's own
account of its time (``SearchResult.phases``: own VCDT, threat zone, root screen, root penalties,
alpha-beta, safety check, deepening after the check) is collected. It prints how much of the
budget a move uses (median, p90, p99, max), and per phase how often it ran and its median and total
time, over all moves and over the moves that reached alpha-beta (the rest are settled by the root
pipeline: a win, a forced block with one answer, a lost position). What the searches find is not
compared with the game's move: this measures the engine of this tree (or of ``PYTHONPATH``), not
the one that played; an engine from before ``phases`` existed gets the time lines only. Example::

    python -m tools.lab.profile_moves runs/cd6.jsonl --level hard --limit 300
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from connect6.ai import DEFAULT_BUDGETS, clock, search
from tools.lab.loss_analysis import studied_positions
from tools.lab.timing import percentile


def profile(paths: list[Path], level: str, budget: float, side: str | None, limit: int
            ) -> tuple[list[float], dict[str, list[float]], list[float], dict[str, list[float]]]:
    """(time per move, seconds per phase over all moves, the same two for the moves that reached
    alpha-beta). A phase's list holds one entry per move in which it ran."""
    used: list[float] = []
    phases: dict[str, list[float]] = defaultdict(list)
    searched: list[float] = []
    searched_phases: dict[str, list[float]] = defaultdict(list)
    for rng, pos, _ in studied_positions(paths, side)[:limit]:
        result = search(pos, level, budget_s=budget, rng=rng)
        used.append(result.elapsed)
        spent = dict(getattr(result, "phases", ()))  # an engine from before phases: time only
        for name, seconds in spent.items():
            phases[name].append(seconds)
        if "alpha_beta" in spent:
            searched.append(result.elapsed)
            for name, seconds in spent.items():
                searched_phases[name].append(seconds)
    return used, phases, searched, searched_phases


def table(title: str, used: list[float], phases: dict[str, list[float]], budget: float) -> list[str]:
    ms = [t * 1000 for t in used]
    lines = [f"{title}: {len(used)} moves; time used median {percentile(ms, 0.5):.0f} ms, "
             f"p90 {percentile(ms, 0.9):.0f}, p99 {percentile(ms, 0.99):.0f}, max {max(ms, default=0):.0f} "
             f"of {budget * 1000:.0f} (median {percentile(ms, 0.5) / (budget * 10):.0f} % of the budget)",
             f"  {'phase':<14}{'moves':>7}{'median ms':>11}{'p90 ms':>9}{'share of all time':>19}"]
    total = sum(used) or 1.0
    for name, seconds in phases.items():
        s_ms = [t * 1000 for t in seconds]
        lines.append(f"  {name:<14}{len(seconds):>7}{percentile(s_ms, 0.5):>11.1f}"
                     f"{percentile(s_ms, 0.9):>9.1f}{100 * sum(seconds) / total:>18.1f}%")
    other = total - sum(sum(v) for v in phases.values())
    lines.append(f"  {'(the rest)':<14}{'':>7}{'':>11}{'':>9}{100 * other / total:>18.1f}%")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path, help="arena --record files")
    parser.add_argument("--level", default="hard", choices=tuple(DEFAULT_BUDGETS))
    parser.add_argument("--budget", type=float, default=None, help="seconds per move (default: the level's)")
    parser.add_argument("--side", default=None, help="the engine label studied (default: the ours: one)")
    parser.add_argument("--limit", type=int, default=400, help="positions at most")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    args = parser.parse_args(argv)
    clock.use_cpu_time(args.clock == "cpu")
    budget = args.budget if args.budget is not None else DEFAULT_BUDGETS[args.level]
    used, phases, searched, searched_phases = profile(args.records, args.level, budget, args.side, args.limit)
    title = f"{args.level} at {budget:g} s ({args.clock} clock), every move"
    print("\n".join(table(title, used, phases, budget)))
    if searched:
        print("\n".join(table("the moves that reached alpha-beta", searched, searched_phases, budget)))
    else:
        print("no move reported its phases (an engine from before SearchResult.phases, or none searched)")


if __name__ == "__main__":
    main()
