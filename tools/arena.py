#!/usr/bin/env python3
"""Arena: play engines that speak the Connect6 text protocol against each other.

Every game starts from a varied opening (the first two or three turns placed at random near
the centre, sent to both engines with ``black``/``white``); each opening is played twice with
the colours swapped. Every answer is checked with ``connect6.rules``: an illegal or missing
answer loses the game. At the end the arena prints the score, the Elo difference with a 95 %
confidence interval, and the time per move (median, p99, max) of each engine, measured from
sending the command to reading the ``move`` line.

Engines are commands (shell words, ``{size}`` is replaced by the board size) or shorthands:
``ours:LEVEL`` (this repository's engine) and ``baseline:LEVEL`` (the frozen earlier version in
tools/baseline_engine/); ``NAME=COMMAND`` gives an engine a short label. Examples::

    python tools/arena.py ours:hard ours:normal --games 40 --size 15
    python tools/arena.py ours:normal baseline:normal --games 20 --size 19 --time-b 300
    python tools/arena.py ours:hard "v1=python3 tools/baseline_engine/main.py --version v1 \
        --size {size} --level hard"
    python tools/arena.py ours:hard "cloudict=/opt/cloudict/cloudict" --games 10

At most two games run at once (the machine is shared); the default is one, so that the time per
move is not inflated by the two games competing for the CPU.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "layers" / "connect6"))

from connect6.rules import IllegalMove, Position  # noqa: E402


def stone_text(point: int, size: int) -> str:
    return chr(ord("A") + point % size) + chr(ord("A") + point // size)


def move_text(stones: tuple[int, ...] | list[int], size: int) -> str:
    return "".join(stone_text(p, size) for p in stones)


def parse_move(text: str, size: int) -> list[int]:
    text = text.strip().upper()
    if len(text) not in (2, 4):
        raise ValueError(f"bad move {text!r}")
    out = []
    for i in range(0, len(text), 2):
        col, row = ord(text[i]) - 65, ord(text[i + 1]) - 65
        if not (0 <= col < size and 0 <= row < size):
            raise ValueError(f"off-board stone {text[i:i + 2]!r}")
        out.append(row * size + col)
    return out


def split_label(spec: str) -> tuple[str, str]:
    """``NAME=COMMAND`` names an engine; otherwise the spec is its own label."""
    head, sep, rest = spec.partition("=")
    if sep and head and " " not in head and rest:
        return head, rest
    return spec, spec


def expand(spec: str, size: int) -> list[str]:
    """An engine spec as a command line."""
    if spec.startswith("ours:"):
        return [sys.executable, "-m", "connect6.ai.protocol", "--size", str(size),
                "--level", spec.split(":", 1)[1]]
    if spec.startswith("baseline:"):
        return [sys.executable, str(ROOT / "tools" / "baseline_engine" / "main.py"), "--size", str(size),
                "--level", spec.split(":", 1)[1]]
    return [w.replace("{size}", str(size)) for w in shlex.split(spec)]


class EngineProcess:
    """One engine process; a single reader thread queues its stdout lines (so no answer is
    ever swallowed by a reader that gave up waiting)."""

    def __init__(self, cmd: list[str], log_path: Path | None) -> None:
        self.log = open(log_path, "a") if log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1, cwd=str(ROOT))
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for out in self.proc.stdout:
            self.lines.put(out.strip())
        self.lines.put(None)  # end of output

    def _wait_for(self, prefixes: tuple[str, ...], timeout: float) -> str | None:
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            try:
                out = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if out is None:
                return None
            if out.startswith(prefixes):
                return out

    def ready(self, timeout: float = 5.0) -> None:
        """Wait until the engine has started (answers ``name``), so start-up is not timed.
        Engines that do not answer ``name`` are waited for ``timeout`` seconds."""
        self.send("name")
        self._wait_for(("name",), timeout)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def ask(self, line: str, timeout: float) -> tuple[str | None, float]:
        """Send ``line`` and wait for the next ``move`` line: (move text, "" for an ``error``
        line, or None for no answer in time; seconds)."""
        start = time.perf_counter()
        self.send(line)
        out = self._wait_for(("move", "error"), timeout)
        elapsed = time.perf_counter() - start
        if out is None:
            return None, elapsed
        return (out[4:].strip() if out.startswith("move") else ""), elapsed

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.log is not subprocess.DEVNULL:
            self.log.close()  # type: ignore[union-attr]


def make_opening(size: int, rng: random.Random) -> list[list[int]]:
    """Black's first stone at or next to the centre, then one or two random pairs nearby."""
    c = size // 2
    pos = Position(size)
    first = pos.point(c + rng.choice((-1, 0, 0, 0, 1)), c + rng.choice((-1, 0, 0, 0, 1)))
    turns = [[first]]
    pos.play([first])
    for radius in (2, 3)[: rng.choice((1, 2))]:
        stones: list[int] = []
        while len(stones) < 2:
            p = pos.point(c + rng.randint(-radius, radius), c + rng.randint(-radius, radius))
            if pos.is_empty(p) and p not in stones:
                stones.append(p)
        pos.play(stones)
        turns.append(stones)
    return turns


@dataclass
class GameRecord:
    black: str
    white: str
    winner: str | None  # engine label or None for a draw
    reason: str
    turns: list[tuple[int, ...]]
    times: dict[str, list[float]] = field(default_factory=dict)


def play_game(specs: dict[str, list[str]], black: str, white: str, opening: list[list[int]],
              size: int, move_timeout: float, max_turns: int, log_dir: Path | None,
              game_no: int, setup: dict[str, list[str]]) -> GameRecord:
    logs = {lab: (log_dir / f"g{game_no:03d}-{lab.replace(':', '_')}.log" if log_dir else None)
            for lab in (black, white)}
    procs = {black: EngineProcess(specs[black], logs[black]),
             white: EngineProcess(specs[white], logs[white])}
    times: dict[str, list[float]] = {black: [], white: []}
    pos = Position(size)
    try:
        for lab, proc in procs.items():
            proc.ready()
            proc.send("new white")
            for line in setup.get(lab, []):
                proc.send(line)
        for turn in opening:
            colour = pos.to_move.value
            pos.play(turn)
            for proc in procs.values():
                proc.send(f"{colour} {move_text(turn, size)}")
        last: list[int] | None = None
        while not pos.is_over and pos.turn_count < max_turns:
            mover = black if pos.to_move.value == "black" else white
            proc = procs[mover]
            cmd = "next" if last is None else f"move {move_text(last, size)}"
            answer, elapsed = proc.ask(cmd, move_timeout)
            if answer is None or answer == "":
                other = white if mover == black else black
                why = "no answer in time" if answer is None else "error answer"
                return GameRecord(black, white, other, f"{mover}: {why}", pos.turns, times)
            times[mover].append(elapsed)
            try:
                stones = parse_move(answer, size)
                pos.play(stones)
            except (ValueError, IllegalMove) as exc:
                other = white if mover == black else black
                return GameRecord(black, white, other, f"{mover}: illegal move {answer!r} ({exc})",
                                  pos.turns, times)
            last = stones
        if pos.winner is not None:
            win = black if pos.winner.value == "black" else white
            return GameRecord(black, white, win, "six", pos.turns, times)
        return GameRecord(black, white, None, "draw" if pos.draw else "turn limit", pos.turns, times)
    finally:
        for proc in procs.values():
            proc.close()


def elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(points: list[float]) -> tuple[float, float, float]:
    n = len(points)
    p = sum(points) / n
    var = sum((x - p) ** 2 for x in points) / n
    se = math.sqrt(var / n)
    lo, hi = max(0.0, p - 1.96 * se), min(1.0, p + 1.96 * se)
    return elo(p), elo(lo), elo(hi)


def fmt_elo(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def percentile(values: list[float], q: float) -> float:
    vals = sorted(values)
    if not vals:
        return float("nan")
    k = max(0, min(len(vals) - 1, math.ceil(q * len(vals)) - 1))
    return vals[k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine_a")
    ap.add_argument("engine_b")
    ap.add_argument("--games", type=int, default=20, help="games (rounded up to even: colours swap)")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=1,
                    help="games at once (1 or 2; with 2 the engines compete for the CPU)")
    ap.add_argument("--move-timeout", type=float, default=20.0, help="seconds before an answer is forfeit")
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--time-a", type=int, default=None, help="budget ms per move sent to engine A (time MS)")
    ap.add_argument("--time-b", type=int, default=None, help="budget ms per move sent to engine B")
    ap.add_argument("--log-dir", type=Path, default=None, help="keep each engine's stderr here")
    ap.add_argument("--json", type=Path, default=None, help="write every game here")
    args = ap.parse_args(argv)
    parallel = max(1, min(2, args.parallel))
    (label_a, spec_a), (label_b, spec_b) = split_label(args.engine_a), split_label(args.engine_b)
    if label_a == label_b:
        label_a, label_b = label_a + "#A", label_b + "#B"
    specs = {label_a: expand(spec_a, args.size), label_b: expand(spec_b, args.size)}
    extra = {label_a: args.time_a, label_b: args.time_b}
    setup = {lab: [f"time {ms}"] if ms is not None else [] for lab, ms in extra.items()}
    if args.log_dir:
        args.log_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    n_open = (args.games + 1) // 2
    openings = [make_opening(args.size, rng) for _ in range(n_open)]
    jobs = []
    for i, op in enumerate(openings):
        jobs.append((label_a, label_b, op, 2 * i))
        jobs.append((label_b, label_a, op, 2 * i + 1))

    def run(job: tuple[str, str, list[list[int]], int]) -> GameRecord:
        black, white, op, no = job
        rec = play_game(specs, black, white, op, args.size, args.move_timeout, args.max_turns,
                        args.log_dir, no, setup)
        mark = {None: "=", black: "B", white: "W"}[rec.winner]
        print(f"game {no + 1:3d}: {black} (B) vs {white} (W): {mark} {rec.reason}, "
              f"{len(rec.turns)} turns", flush=True)
        return rec

    t0 = time.time()
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        records = list(pool.map(run, jobs))
    wall = time.time() - t0

    points = [1.0 if r.winner == label_a else 0.5 if r.winner is None else 0.0 for r in records]
    wins = points.count(1.0)
    draws = points.count(0.5)
    losses = points.count(0.0)
    score = sum(points) / len(points)
    e, lo, hi = elo_interval(points)
    as_black = [p for p, r in zip(points, records, strict=True) if r.black == label_a]
    as_white = [p for p, r in zip(points, records, strict=True) if r.white == label_a]
    print()
    print(f"arena: {label_a} vs {label_b}, {args.size}x{args.size}, {len(records)} games, "
          f"seed {args.seed}, {wall:.1f} s wall")
    print(f"score {label_a}: +{wins} ={draws} -{losses}  ({100 * score:.1f} %; "
          f"as Black {sum(as_black):.1f}/{len(as_black)}, as White {sum(as_white):.1f}/{len(as_white)})")
    print(f"Elo difference {label_a} - {label_b}: {fmt_elo(e)} (95 % CI {fmt_elo(lo)} .. {fmt_elo(hi)})")
    forfeits = [r.reason for r in records if r.reason not in ("six", "draw", "turn limit")]
    if forfeits:
        print("forfeits: " + "; ".join(forfeits))
    print(f"{'engine':<28} {'moves':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for lab in (label_a, label_b):
        ts = [t for r in records for t in r.times.get(lab, [])]
        if not ts:
            print(f"{lab:<28} {0:>6} {'-':>10} {'-':>8} {'-':>8}")
            continue
        print(f"{lab:<28} {len(ts):>6} {1000 * statistics.median(ts):>10.1f} "
              f"{1000 * percentile(ts, 0.99):>8.1f} {1000 * max(ts):>8.1f}")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in records]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
