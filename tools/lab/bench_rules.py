"""Benchmark of the rules engine against the test oracle, and of ``connect6 replay``.

    .venv/bin/python -m tools.lab.bench_rules [--games tests/data/littlegolem/games.jsonl] [--runs 5]

Prints, for 15×15 and 19×19:
- stones placed-and-checked per second, replaying the same random games on the engine
  (``connect6.rules.Position``) and on the plain oracle (``tests/support/oracle.py``);
- random whole games per second (choosing random stones and playing them to the end);
and, for the Little Golem games file (one JSON object per line with an ``sgf`` field):
- games per second through ``connect6 replay``'s code path (parse, replay, JSON line, written
  to a buffer in chunks), the median of several runs, beside a plain dict-based replayer;
- the same end to end: the ``connect6 replay`` command on a file (interpreter start included).
Figures only; nothing here is a test.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from connect6.cli import replay_lines
from connect6.rules import Position
from tests.support.oracle import OracleGame

ROOT = Path(__file__).resolve().parents[2]

Game = list[list[int]]


class Referee(Protocol):
    """What the engine and the oracle both offer."""

    @property
    def stones_to_place(self) -> int: ...

    def play(self, stones: Sequence[int], /) -> object: ...


def random_game(size: int, rng: random.Random, make: Callable[[int], Referee]) -> Game:
    """Play one game of random stones to the end on ``make(size)``; return its turns."""
    game = make(size)
    points = list(range(size * size))
    rng.shuffle(points)
    turns: Game = []
    taken = 0
    while True:
        need = game.stones_to_place
        if not need:
            return turns
        stones = points[taken:taken + need]
        taken += need
        game.play(stones)
        turns.append(stones)


def bench_rules(size: int, count: int, runs: int) -> None:
    rng = random.Random(size)
    games = [random_game(size, rng, Position) for _ in range(count)]
    stones = sum(len(turn) for game in games for turn in game)

    def replay_all(make: Callable[[int], Referee]) -> Callable[[], float]:
        def run() -> float:
            start = time.perf_counter()
            for game in games:
                board = make(size)
                play = board.play
                for turn in game:
                    play(turn)
            return time.perf_counter() - start
        return run

    def whole_games(make: Callable[[int], Referee]) -> Callable[[], float]:
        def run() -> float:
            local = random.Random(1)
            start = time.perf_counter()
            for _ in range(count):
                random_game(size, local, make)
            return time.perf_counter() - start
        return run

    # Engine and oracle runs alternate so that machine noise hits both alike; best of runs.
    engine_stones = oracle_stones = engine_games = oracle_games = 0.0
    for _ in range(runs):
        engine_stones = max(engine_stones, stones / replay_all(Position)())
        oracle_stones = max(oracle_stones, stones / replay_all(OracleGame)())
        engine_games = max(engine_games, count / whole_games(Position)())
        oracle_games = max(oracle_games, count / whole_games(OracleGame)())
    print(f"{size}x{size}: {count} random games, {stones / count:.0f} stones each on average")
    print(f"  stones placed and checked/s   engine {engine_stones:>11,.0f}   oracle {oracle_stones:>11,.0f}"
          f"   ratio {engine_stones / oracle_stones:.2f}x")
    print(f"  random whole games/s          engine {engine_games:>11,.0f}   oracle {oracle_games:>11,.0f}"
          f"   ratio {engine_games / oracle_games:.2f}x")


# ------------------------------------------------------------- replay throughput
_PLAIN_MOVE = re.compile(r";([BW])\[([a-z0-9]+)\]")
_PLAIN_NUMBERED = re.compile(r"(\d+)\.([a-z0-9]+)")
_PLAIN_LABEL = re.compile(r"([a-z])(\d+)")


def plain_replay_line(index: int, text: str, size: int = 19) -> str:
    """A plain dict-based replayer, for comparison: the board a dict, every stone checked by
    walking its four lines, ``json.dumps`` for the output."""
    text = text.strip()
    if text.startswith("("):
        turns = [stones for _colour, stones in _PLAIN_MOVE.findall(text)]
    else:
        turns = [stones for _number, stones in _PLAIN_NUMBERED.findall(text)]
    board: dict[tuple[int, int], int] = {}
    winner = None
    line: list[str] = []
    error = None
    stones_placed = 0
    six_at = None
    for number, turn in enumerate(turns, 1):
        side = (number - 1) % 2
        if winner is not None:
            error = f"turn {number}: the game is over"
            break
        for letters, digits in _PLAIN_LABEL.findall(turn):
            col, row = ord(letters) - 97, int(digits) - 1
            if not (0 <= col < size and 0 <= row < size) or (col, row) in board:
                error = f"turn {number}: {letters}{digits} is not playable"
                break
            board[(col, row)] = side
            stones_placed += 1
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                c, r = col, row
                while board.get((c - dc, r - dr)) == side:
                    c, r = c - dc, r - dr
                run = []
                while board.get((c, r)) == side:
                    run.append(f"{chr(97 + c)}{r + 1}")
                    c, r = c + dc, r + dr
                if len(run) >= 6:
                    winner, line, six_at = ("black", "white")[side], run, number
                    break
            if winner is not None:
                break
        if error:
            break
    return json.dumps({"index": index, "legal": error is None, "error": error, "turns": len(turns),
                       "stones": stones_placed, "winner": winner, "six_at_turn": six_at,
                       "winning_line": line}) + "\n"


def plain_replay(lines: Sequence[str], out: io.StringIO) -> None:
    out.write("".join([plain_replay_line(i, line) for i, line in enumerate(lines) if line.strip()]))


def bench_replay(path: Path, runs: int) -> None:
    with path.open() as handle:
        lines = [json.loads(row)["sgf"] + "\n" for row in handle if row.strip()]
    count = len(lines)

    def timed(func: Callable[[], object]) -> float:
        start = time.perf_counter()
        func()
        return time.perf_counter() - start

    ours = [count / timed(lambda: replay_lines(lines, 19, io.StringIO())) for _ in range(runs)]
    plain = [count / timed(lambda: plain_replay(lines, io.StringIO())) for _ in range(runs)]
    stones = sum(len(re.findall(r"[a-z]\d", line.split(";B[", 1)[-1])) for line in lines) / count
    print(f"replay of {count} games from {path} ({stones:.0f} stones each on average), "
          f"median of {runs} runs:")
    print(f"  connect6 replay (in process)  {statistics.median(ours):>9,.0f} games/s"
          f"   (runs: {', '.join(f'{x:,.0f}' for x in ours)})")
    print(f"  plain dict-based replayer     {statistics.median(plain):>9,.0f} games/s"
          f"   (runs: {', '.join(f'{x:,.0f}' for x in plain)})")
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "games.txt"
        records.write_text("".join(lines) * 5)
        walls = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "connect6", "replay", str(records)], check=True,
                           stdout=subprocess.DEVNULL, env={"PYTHONPATH": str(ROOT / "layers" / "connect6")})
            walls.append(time.perf_counter() - start)
        print(f"  connect6 replay command       {5 * count / statistics.median(walls):>9,.0f} games/s"
              f"   ({5 * count} games from a file to /dev/null, interpreter start included)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=Path, default=ROOT / "tests" / "data" / "littlegolem" / "games.jsonl")
    parser.add_argument("--count", type=int, default=300, help="random games per board size")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}")
    for size in (15, 19):
        bench_rules(size, args.count, args.runs)
    if args.games.exists():
        bench_replay(args.games, args.runs)
    else:
        print(f"(no {args.games}: replay throughput not measured)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
