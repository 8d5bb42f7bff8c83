"""What game results say a road is worth: the evaluation's road weights fitted to arena games.

Texel's method: every position of the games in ``records`` (after the opening, each position
once) in which neither side has a threat window (four or five own stones, no enemy stone) is a
*quiet* position, where the evaluation alone speaks. Its features are each side's roads of one,
two and three stones (six-point windows with no enemy stone), the side to move's first; its label
is whether the side to move went on to win (a draw ½). A logistic model P(win) = σ(w·x + c) is
fitted by gradient descent on standardised features, and the weights are printed relative to
the mover's one-stone road beside the engine's own (``MOVER_W · ROAD``, ``OTHER_W · ROAD``).

Read the result with its bias in mind: the games are the engines' own, so the enemy roads left on
the board of a quiet position are the ones the engines chose not to block, and a weight fitted on
them says how those roads went, not how the ones a search would have blocked would have gone.
(Issue 31: fitted on the issue's records, the enemy's two- and three-stone roads came out at a
quarter to a third of the engine's weights; the engine given those weights lost all 6 of the 21
games against Cloudict depth 4 it scored differently from the shipped one: the experiment log.)
Example::

    python -m tools.lab.fit_roads docs/experiments/records/*-d6-*.jsonl.gz
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path

from connect6.ai.board import MOVER_W, OTHER_W, ROAD, Board
from tools.lab.arena import read_record_file
from tools.lab.loss_analysis import game_positions

FEATURES = ("own 1", "own 2", "own 3", "enemy 1", "enemy 2", "enemy 3")
Row = tuple[list[float], float]


def road_counts(board: Board) -> tuple[list[int], list[int]]:
    """Black's and White's windows by own-stone count (index 0..6) among windows with no enemy stone."""
    counts = ([0] * 7, [0] * 7)
    for code in board.code:
        black, white = code % 7, code // 7
        if white == 0 and black:
            counts[0][black] += 1
        elif black == 0 and white:
            counts[1][white] += 1
    return counts


def quiet_row(board: Board, side: int, winner: str | None, mover: str) -> Row | None:
    """The features and label of the position on ``board`` (``side`` to move), None if not quiet."""
    counts = road_counts(board)
    if any(counts[0][4:]) or any(counts[1][4:]):
        return None  # a threat: the threat logic decides these, not the weights
    label = 0.5 if winner is None else 1.0 if winner == mover else 0.0
    own, enemy = counts[side], counts[1 - side]
    return [float(n) for n in (*own[1:4], *enemy[1:4])], label


def quiet_rows(records: Sequence[Path]) -> list[Row]:
    """(features, label) for every quiet position of the records' games, seen once."""
    rows: list[Row] = []
    seen: set[int] = set()
    for path in records:
        for rec in read_record_file(path):
            winner = rec.get("winner_colour")
            turns = game_positions(rec)[1]
            if not turns:
                continue
            board = Board.from_position(turns[0][0])  # then kept up to date turn by turn
            for _, stones, mover in turns:  # positions a move was played from: none is over
                side = 0 if mover == "black" else 1
                key = board.hash ^ side
                if key not in seen:
                    seen.add(key)
                    row = quiet_row(board, side, winner, mover)
                    if row is not None:
                        rows.append(row)
                for p in stones:
                    board.place(p, side)
    return rows


def fit(rows: Sequence[Row], iterations: int = 600, rate: float = 0.5) -> tuple[list[float], float, float]:
    """Logistic regression by batch gradient descent: (weights on the raw features, bias, mean log loss)."""
    m = len(rows[0][0])
    mean = [sum(x[i] for x, _ in rows) / len(rows) for i in range(m)]
    spread = [math.sqrt(sum((x[i] - mean[i]) ** 2 for x, _ in rows) / len(rows)) or 1.0 for i in range(m)]
    data = [([(x[i] - mean[i]) / spread[i] for i in range(m)], y) for x, y in rows]
    w = [0.0] * m
    c = 0.0
    loss = math.log(2)
    for _ in range(iterations):
        grad = [0.0] * m
        grad_c = 0.0
        loss = 0.0
        for x, y in data:
            p = 1.0 / (1.0 + math.exp(-(c + sum(wi * xi for wi, xi in zip(w, x, strict=True)))))
            loss -= y * math.log(p + 1e-12) + (1 - y) * math.log(1 - p + 1e-12)
            for i in range(m):
                grad[i] += (p - y) * x[i]
            grad_c += p - y
        w = [wi - rate * g / len(data) for wi, g in zip(w, grad, strict=True)]
        c -= rate * grad_c / len(data)
    raw = [w[i] / spread[i] for i in range(m)]
    return raw, c - sum(raw[i] * mean[i] for i in range(m)), loss / len(data)


def report(weights: Sequence[float], rows: int, loss: float) -> str:
    engine = [MOVER_W * ROAD[k] for k in (1, 2, 3)] + [-OTHER_W * ROAD[k] for k in (1, 2, 3)]
    lines = [f"{rows} quiet positions; mean log loss {loss:.4f} (a coin: {math.log(2):.4f})",
             f"{'road':8} {'fitted':>10} {'÷ own 1':>8} {'engine':>8}"]
    lines += [f"{name:8} {w:+10.5f} {w / weights[0]:+8.2f} {e / engine[0]:+8.2f}"
              for name, w, e in zip(FEATURES, weights, engine, strict=True)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", type=Path, help="arena records (--record files, .gz too)")
    ap.add_argument("--iterations", type=int, default=600, help="gradient steps (default 600)")
    args = ap.parse_args(argv)
    rows = quiet_rows(args.records)
    if not rows:
        raise SystemExit("no quiet positions in these records")
    weights, _, loss = fit(rows, args.iterations)
    print(report(weights, len(rows), loss))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
