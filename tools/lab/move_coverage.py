"""Move coverage: are the moves an opponent really played among the pairs our search looks at?

Alpha-beta only ever weighs the pairs the move generator offers (``normal_pairs``: the ``k1``
best first stones by point score, each with its ``k2`` best second stones, the best ``cap`` of
them). An opponent whose moves fall outside those pairs plays lines the search never saw. This
reads the arena's ``--record`` files and, for every turn played in a *quiet* position (neither
side has a threat on the board, so the move was a free choice, not a forced block or a win),
reports per side (``ours`` and the opponent):

* how often the pair played is among the generated pairs, for each width set asked for
  (``--widths K1,K2,CAP``, repeatable; default: hard's first inner ply and two wider sets);
* the rank of its better stone among all points by point score (first stone), and the rank of
  the other among the second stones after it (scored with the first in place, as the generator
  does): medians and the share within the first 9 and 4 — which of the two rankings misses;
* the shape of the pair played and of the generator's best pair (``--shapes``): both stones on one
  line 1, 2 or 3 points apart (a connected pair builds a line), farther apart on a line, a
  knight's move, or unaligned — does the opponent build differently from what we rank first.

``--refutations`` reads loss_analysis.py ``--out`` files instead: for each lost game, the rank of
the opponent's refutation (its answer to our losing move) among the pairs each width set offers
the opponent there — could alpha-beta's first inner ply have seen the line at all? — and how
many threats the refutation made (0: a quiet pair; 1: a four with a free stone, which our
quiet-move generator ranks low), with the free choices offered counted by that number.

Example::

    python -m tools.lab.move_coverage runs/de-d6-s1.jsonl runs/de-d6-s2.jsonl
    python -m tools.lab.move_coverage runs/cd6.jsonl --widths 9,4,20 --widths 16,8,64 --shapes
    python -m tools.lab.move_coverage --refutations runs/white-out.jsonl --widths 9,4,20 --widths 9,8,20
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from connect6.ai.board import Board, count_hits
from connect6.ai.movegen import _seconds, defence_pairs, first_candidates, normal_pairs, point_scores
from connect6.records.labels import parse_label, split_labels
from connect6.rules import Position
from tools.lab.arena import parse_move, read_record_file
from tools.lab.loss_analysis import game_positions

DEFAULT_WIDTHS = ((9, 4, 20), (12, 5, 30), (16, 8, 64))
SHAPES = ("line 1", "line 2", "line 3", "line 4+", "knight", "unaligned")


@dataclass
class SideCoverage:
    """The quiet turns of one side: how many, how many each width set covered, the ranks."""

    turns: int = 0
    covered: dict[tuple[int, int, int], int] = field(default_factory=dict)
    first_ranks: list[int] = field(default_factory=list)
    second_ranks: list[int] = field(default_factory=list)
    played_shapes: dict[str, int] = field(default_factory=dict)
    generated_shapes: dict[str, int] = field(default_factory=dict)


def pair_shape(n: int, a: int, b: int) -> str:
    """How two stones on an ``n``×``n`` board stand to each other (one of ``SHAPES``)."""
    dx, dy = abs(a % n - b % n), abs(a // n - b // n)
    if dx == 0 or dy == 0 or dx == dy:
        apart = max(dx, dy)
        return f"line {apart}" if apart <= 3 else "line 4+"
    return "knight" if {dx, dy} == {1, 2} else "unaligned"


def stone_ranks(board: Board, s: int, pair: tuple[int, int]) -> tuple[int, int]:
    """(rank of the pair's better stone among all candidate points, rank of the other among the
    second stones after it), 0-based, by the generator's own scores."""
    scored = point_scores(board, s, first_candidates(board))
    rank = {q: r for r, (_, q) in enumerate(scored)}
    missing = len(scored)  # a stone off the candidate list ranks after all of them
    a, b = sorted(pair, key=lambda q: rank.get(q, missing))
    base = {q: v for v, q in scored}
    seconds = _seconds(board, s, a, base, [q for _, q in scored], len(scored) + board.area)
    second_rank = next((r for r, (_, q) in enumerate(seconds) if q == b), len(seconds))
    return rank.get(a, missing), second_rank


def coverage(records: Iterable[dict[str, Any]], widths: Sequence[tuple[int, int, int]],
             ours_prefix: str = "ours") -> dict[str, SideCoverage]:
    """Coverage of the quiet two-stone turns of every game, by side ("ours", "opponent")."""
    sides = {"ours": SideCoverage(), "opponent": SideCoverage()}
    for rec in records:
        ours = "black" if str(rec["black"]).startswith(ours_prefix) else "white"
        _, turns = game_positions(rec)
        for pos, played, colour in turns:
            if pos.is_over or len(played) < 2:
                continue
            board = Board.from_position(pos)
            if board.thr[0] or board.thr[1]:
                continue  # a threat on the board: the move was forced, not chosen
            s = pos.to_move.index
            side = sides["ours" if colour == ours else "opponent"]
            side.turns += 1
            pair = (min(played), max(played))
            for k1, k2, cap in widths:
                ranked = normal_pairs(board, s, k1, k2)[:cap]
                generated = {(min(a, b), max(a, b)) for _, a, b in ranked}
                side.covered[(k1, k2, cap)] = side.covered.get((k1, k2, cap), 0) + (pair in generated)
                if (k1, k2, cap) == widths[0] and ranked:
                    shape = pair_shape(board.n, ranked[0][1], ranked[0][2])
                    side.generated_shapes[shape] = side.generated_shapes.get(shape, 0) + 1
            shape = pair_shape(board.n, *pair)
            side.played_shapes[shape] = side.played_shapes.get(shape, 0) + 1
            first, second = stone_ranks(board, s, pair)
            side.first_ranks.append(first)
            side.second_ranks.append(second)
    return sides


@dataclass
class RefutationRank:
    """One lost game: where the opponent's refutation stood among the pairs offered to it."""

    name: str
    # Our losing move made a threat: the opponent had to block, and alpha-beta offers it the
    # blocking pairs (every one, each single block with K2 free stones) instead of K1xK2 cap.
    forced: bool
    stone_ranks: tuple[int, int]
    pair_ranks: dict[tuple[int, int, int], int | None]  # 0-based rank among those offered; None: not offered
    # Threats the refutation made: the fewest stones that stop every six it readies (at most 3).
    threats: int = 0


def refutation_ranks(findings: Iterable[dict[str, Any]],
                     widths: Sequence[tuple[int, int, int]]) -> list[RefutationRank]:
    """For every loss_analysis finding with a two-stone refutation: the position after our move,
    the refutation's rank among the pairs alpha-beta's first inner ply offers the opponent at
    each width set (as ``Engine._ab`` generates them), its stones' ranks and the threats it made."""
    out = []
    for case in findings:
        size = case.get("size")
        if not size:
            continue  # a finding without a position (a game with no verdict)
        refutation = [parse_label(x, size) for x in split_labels(case.get("refutation") or "")]
        if len(refutation) != 2:
            continue  # no refutation found, or a six with one stone
        played = [parse_label(x, size) for x in split_labels(case["played"])]
        pos = Position.from_turns([parse_move(t, size) for t in case["turns"]] + [played], size)
        board = Board.from_position(pos)
        s = pos.to_move.index
        pair = (min(refutation), max(refutation))
        forced = bool(board.thr[1 - s])
        ranks: dict[tuple[int, int, int], int | None] = {}
        for k1, k2, cap in widths:
            moves = (defence_pairs(board, s, board.threat_sets(1 - s), k2) if forced
                     else normal_pairs(board, s, k1, k2)[:cap])
            offered = [(min(a, b), max(a, b)) for _, a, b in moves]
            ranks[(k1, k2, cap)] = offered.index(pair) if pair in offered else None
        ranked = stone_ranks(board, s, pair)
        for q in pair:
            board.place(q, s)
        threats = count_hits(board.threat_sets(s)) if board.thr[s] else 0
        record = Path(str(case.get("record", ""))).stem
        name = f"{case.get('colour', '?')} {record} game {case.get('game')} turn {case.get('turn')}"
        out.append(RefutationRank(name, forced, ranked, ranks, threats))
    return out


def refutation_report(rows: Sequence[RefutationRank], widths: Sequence[tuple[int, int, int]]) -> list[str]:
    heads = "  ".join(f"{k1}x{k2} cap {cap:<3}" for k1, k2, cap in widths)
    lines = [f"{'lost game':<40} {'stone ranks':>11}  {'threats':>7}  {heads}"]
    for row in rows:
        cells = "  ".join(f"{'-' if r is None else r + 1:>12}" for r in row.pair_ranks.values())
        note = "  (a block: ranked among the blocking pairs)" if row.forced else ""
        lines.append(f"{row.name:<40} {row.stone_ranks[0] + 1:>5},{row.stone_ranks[1] + 1:<5}  "
                     f"{row.threats:>7}  {cells}{note}")
    free = [r for r in rows if not r.forced]
    groups = [("free choices", free)]
    groups += [(f"free choices, {t} threat{'s' if t != 1 else ''}", [r for r in free if r.threats == t])
               for t in sorted({r.threats for r in free})]
    for label, group in [*groups, ("blocks", [r for r in rows if r.forced])]:
        lines.append(f"{'offered (of ' + str(len(group)) + ' ' + label + ')':<40} {'':>11}  {'':>7}  "
                     + "  ".join(f"{sum(r.pair_ranks[w] is not None for r in group):>12}" for w in widths))
    lines.append("(ranks count from 1; '-': not among the pairs the width set offers)")
    return lines


def parse_widths(text: str) -> tuple[int, int, int]:
    k1, k2, cap = (int(x) for x in text.split(","))
    if min(k1, k2, cap) < 1:
        raise argparse.ArgumentTypeError("widths are K1,K2,CAP, each at least 1")
    return k1, k2, cap


def report(sides: dict[str, SideCoverage], widths: Sequence[tuple[int, int, int]]) -> list[str]:
    lines = ["side      quiet turns  " + "  ".join(f"{k1}x{k2} cap {cap:<3}" for k1, k2, cap in widths)
             + "  first stone: median rank, top 9   second: median rank, top 4"]
    for name, side in sides.items():
        if not side.turns:
            lines.append(f"{name:<9} {0:>11}")
            continue
        shares = "  ".join(f"{100 * side.covered[w] / side.turns:>12.0f} %" for w in widths)
        top9 = 100 * sum(r < 9 for r in side.first_ranks) / side.turns
        top4 = 100 * sum(r < 4 for r in side.second_ranks) / side.turns
        lines.append(f"{name:<9} {side.turns:>11}  {shares}  "
                     f"{statistics.median(side.first_ranks) + 1:>17.1f}, {top9:3.0f} %   "
                     f"{statistics.median(side.second_ranks) + 1:>13.1f}, {top4:3.0f} %")
    lines.append("(ranks count from 1; a share is of the side's quiet turns)")
    return lines


def shape_report(sides: dict[str, SideCoverage], widths: Sequence[tuple[int, int, int]]) -> list[str]:
    """Shares of each pair shape: played by each side, and the generator's best pair there."""
    k1, k2, _ = widths[0]
    lines = [f"{'pairs':<34}" + "".join(f"{s:>11}" for s in SHAPES)]
    for name, side in sides.items():
        for label, counts in ((f"{name} played", side.played_shapes),
                              (f"{name}: our best {k1}x{k2} pair", side.generated_shapes)):
            total = sum(counts.values())
            if total:
                lines.append(f"{label:<34}" + "".join(f"{100 * counts.get(s, 0) / total:>9.0f} %"
                                                      for s in SHAPES))
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, nargs="+",
                    help="arena --record files (with --refutations: loss_analysis.py --out files)")
    ap.add_argument("--refutations", action="store_true",
                    help="rank each lost game's refutation among the pairs offered to the opponent")
    ap.add_argument("--widths", type=parse_widths, action="append", default=None,
                    help="K1,K2,CAP: the generator's first stones, second stones each, pairs kept "
                         "(repeatable)")
    ap.add_argument("--ours", default="ours", help="label prefix of our engine in the records")
    ap.add_argument("--shapes", action="store_true",
                    help="also the shapes of the pairs played and of our generator's best pair")
    args = ap.parse_args(argv)
    widths = args.widths or list(DEFAULT_WIDTHS)
    records = [g for path in args.records for g in read_record_file(path)]
    if args.refutations:
        for line in refutation_report(refutation_ranks(records, widths), widths):
            print(line)
        return 0
    sides = coverage(records, widths, args.ours)
    for line in report(sides, widths) + (shape_report(sides, widths) if args.shapes else []):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
