"""What the play features add to a move: the draw judge (the computer answering an offer) and
the threat scan behind the computer's table-talk, over random mid-game positions.

    .venv/bin/python -m tools.lab.bench_play                 # 40 positions, seed 1
    .venv/bin/python -m tools.lab.bench_play --positions 100 --seed 7
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import TYPE_CHECKING

from tools.lab.timing import percentile

if TYPE_CHECKING:
    from connect6.rules import Position


def _positions(count: int, seed: int) -> list[Position]:
    from connect6.rules import Position

    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position(15)
        for _ in range(rng.randrange(2, 24)):
            near = [q for q in range(225)
                    if position.is_empty(q) and abs(q % 15 - 7) < 6 and abs(q // 15 - 7) < 6]
            position.play(rng.sample(near, position.stones_to_place))
            if position.is_over:
                break
        if not position.is_over:
            found.append(position)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from connect6.game import talk
    from connect6.game.draw_judge import is_level

    judged, scanned, level = [], [], 0
    for position in _positions(args.positions, args.seed):
        started = time.perf_counter()
        level += is_level(position)
        judged.append(time.perf_counter() - started)
        started = time.perf_counter()
        talk.threats(position, position.to_move)
        talk.threats(position, position.to_move.other)
        scanned.append(time.perf_counter() - started)
    for name, times in (("draw judge (is_level)", judged), ("threat scan, both colours", scanned)):
        print(f"{name:28s} n={len(times)}  median={statistics.median(times) * 1000:7.2f} ms  "
              f"p90={percentile(times, 0.9) * 1000:7.2f} ms  max={max(times) * 1000:7.2f} ms")
    print(f"judged level: {level} of {len(judged)} random positions")


if __name__ == "__main__":
    main()
