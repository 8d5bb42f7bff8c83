#!/usr/bin/env python3
"""Arena: play engines that speak the Connect6 text protocol against each other.

Every game starts from an opening sent to both engines with ``black``/``white``; each opening is
played twice with the colours swapped. Openings are either random (the first two or three turns
placed at random near the centre; the default), with ``--openings lg`` the first 1–3 turns of
a Little Golem expert game from tests/data/littlegolem/games.jsonl, chosen reproducibly by the
seed and, with ``--symmetry``, turned by one of the board's 8 symmetries (distinct up to
symmetry), or with ``--openings centre`` the one Black stone at the centre for every game (the
same opening repeated: whether an engine plays the same game every time). Every game has its
own seed (``--seed`` and the game's number): ``ours:`` engines get it as ``--seed``, and a
command's ``{seed}`` is replaced by it, so a game can be replayed and two games from one
opening need not be the same. Every answer is checked with ``connect6.rules``: an illegal or
missing answer loses the game (the reason tells an engine out of time from one that ended, e.g.
crashed, with its exit status). At the end the arena prints the score, the Elo difference with a
95 % confidence interval, how the openings played with both colours went (won both, split, lost
both), how many games differ (move for move and up to symmetry, per colour), and the time per
move (median, p99, max) of each engine, measured from sending the command to reading the
``move`` line.

Engines are commands (shell words, ``{size}`` is replaced by the board size) or shorthands:
``ours:LEVEL`` (this repository's engine) and ``baseline:LEVEL`` (the frozen earlier version in
tools/lab/baseline_engine/); ``NAME=COMMAND`` gives an engine a short label. Per engine (``-a`` for
the first, ``-b`` for the second):

* ``--cwd-a DIR`` – the engine's working directory (default: the repository root);
* ``--layer-a DIR`` – for an ``ours:`` engine, the layer folder (``…/layers/connect6``) to import
  the engine from instead of this tree's, e.g. a compiled snapshot of another commit;
* ``--setup-a CMD`` – a protocol line sent before every game (repeatable, e.g. ``depth 4``);
* ``--time-a MS`` – shorthand for ``--setup-a "time MS"``.

Only a whole line ``move XX`` or ``move XXXX`` (letters) counts as an answer; banners, help text
and statistics an engine prints on stdout are ignored (an ``error …`` line is a forfeit). At the
end of a game each engine gets ``quit``; one still running after ``--quit-grace`` seconds is
terminated, then killed. ``--record FILE`` appends one JSON line per game (engines, colours,
opening, every move with its time, winner, reason) as the game ends; tools/lab/loss_analysis.py
reads these files, and ``--from-record FILE`` prints the table of such a file (for a run cut
short: stopped by SIGTERM or Ctrl-C, the arena kills its engines first and the lines written so
far stay; ``--resume`` with the run's own arguments plays only the games its record lacks).
``--against OTHER`` beside ``--from-record`` compares two such files game by game: the games of
one opening with the first engine on one colour are paired (two variants of an engine against
one opponent, on one ``--seed``'s openings), and the pairs the variants scored
differently are counted, with an exact two-sided sign test over them: the test for two runs on
the same openings, where comparing the two totals as independent samples overstates the noise.
When an ``ours:`` engine plays, the arena first prints the machine's calibration
(``tools/lab/bench_ai.py --calibrate``: nodes per CPU second of a fixed-depth search, about a
second; ``--no-calibrate`` skips it): a score against an engine that plays at a fixed depth
depends on it.
Examples::

    python -m tools.lab.arena ours:hard ours:normal --games 40 --size 15
    python -m tools.lab.arena ours:normal baseline:normal --games 20 --size 19 --time-b 300
    python -m tools.lab.arena ours:hard "v1=python3 tools/lab/baseline_engine/main.py --version v1 \\
        --size {size} --level hard"
    python -m tools.lab.arena ours:hard cd4=/opt/cloudict/cloudict --cwd-b /opt/cloudict \\
        --setup-b "depth 4" --openings lg --symmetry --games 40 --record runs/cd4.jsonl

At most two games run at once (the machine is shared); the default is one, so that the time per
move is not inflated by the two games competing for the CPU.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import queue
import random
import re
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from connect6.ai.protocol import move_text
from connect6.ai.protocol import parse_stones as parse_move
from connect6.rules import IllegalMove, Position
from tests.support.positions import LITTLE_GOLEM, canonical, load_games, symmetry
from tools.lab.timing import percentile

ROOT = Path(__file__).resolve().parents[2]

# A real answer is the whole line: "move" and one or two stones of two letters each.
ANSWER_RE = re.compile(r"move\s+([A-Za-z]{2}|[A-Za-z]{4})")


def read_answer(line: str) -> str | None:
    """The stones of a ``move`` answer line, or None for any other line (chatter, help text
    such as ``  move XXXX  - tell the engine…``)."""
    m = ANSWER_RE.fullmatch(line.rstrip("\r\n").rstrip())
    return m.group(1).upper() if m else None


def split_label(spec: str) -> tuple[str, str]:
    """``NAME=COMMAND`` names an engine; otherwise the spec is its own label."""
    head, sep, rest = spec.partition("=")
    if sep and head and " " not in head and rest:
        return head, rest
    return spec, spec


def expand(spec: str, size: int, clock: str = "wall", layer: Path | None = None) -> list[str]:
    """An engine spec as a command line (``clock``: what ``ours:`` engines measure budgets in;
    ``layer``: the layer folder an ``ours:`` engine imports, default this tree's). ``{seed}`` is
    left for :func:`play_game` to fill in per game."""
    if spec.startswith("ours:"):
        cmd = [sys.executable, "-m", "connect6.ai.protocol", "--seed", "{seed}", "--size", str(size),
               "--level", spec.split(":", 1)[1], "--clock", clock]
        return ["env", f"PYTHONPATH={layer.resolve()}", *cmd] if layer is not None else cmd
    if spec.startswith("baseline:"):
        return [sys.executable, str(ROOT / "tools" / "lab" / "baseline_engine" / "main.py"),
                "--size", str(size), "--level", spec.split(":", 1)[1]]
    return [w.replace("{size}", str(size)) for w in shlex.split(spec)]


def game_seed(seed: int, game_no: int) -> int:
    """The seed of one game of an arena run with ``--seed seed``."""
    return seed * 100_003 + game_no


def _env_for(cmd: list[str]) -> dict[str, str] | None:
    """``ours:`` engines run as ``python -m connect6.ai.protocol``: from another working
    directory they need the layer on PYTHONPATH."""
    if cmd[:3] != [sys.executable, "-m", "connect6.ai.protocol"]:
        return None
    env = dict(os.environ)
    layer = str(ROOT / "layers" / "connect6")
    env["PYTHONPATH"] = layer + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def calibration() -> str:
    """``tools/lab/bench_ai.py --calibrate`` with the layer ``ours:`` engines run (its one line)."""
    env = _env_for([sys.executable, "-m", "connect6.ai.protocol"])
    done = subprocess.run([sys.executable, "-m", "tools.lab.bench_ai", "--calibrate"],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return f"calibration failed: {done.stderr.strip()[-300:]}"
    return lines[-1]


# Engine processes still running, so that an arena stopped by a signal leaves none behind.
LIVE: set[EngineProcess] = set()
LIVE_LOCK = threading.Lock()


def stop_all_engines(signum: int, _frame: object) -> None:
    """Signal handler: end every engine process, then exit (a cut-short run keeps its records)."""
    with LIVE_LOCK:
        procs = list(LIVE)
    for engine in procs:
        if engine.proc.poll() is None:
            engine.proc.kill()
    os._exit(128 + signum)


class EngineProcess:
    """One engine process; a single reader thread queues its stdout lines (so no answer is
    ever swallowed by a reader that gave up waiting)."""

    def __init__(self, cmd: list[str], log_path: Path | None, cwd: Path | None = None,
                 quit_grace: float = 3.0) -> None:
        self.log = open(log_path, "a") if log_path else subprocess.DEVNULL  # noqa: SIM115
        self.quit_grace = quit_grace
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1,
                                     cwd=str(cwd or ROOT), env=_env_for(cmd))
        self.lines: queue.Queue[str | None] = queue.Queue()
        with LIVE_LOCK:
            LIVE.add(self)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for out in self.proc.stdout:
            self.lines.put(out.rstrip("\r\n"))
        self.lines.put(None)  # end of output

    def _wait_for(self, accept: Callable[[str], str | None], timeout: float) -> str | None:
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
            found = accept(out)
            if found is not None:
                return found

    def ready(self, timeout: float = 5.0) -> None:
        """Wait until the engine has started (answers ``name``), so start-up is not timed.
        Engines that do not answer ``name`` are waited for ``timeout`` seconds."""
        self.send("name")
        self._wait_for(lambda out: out if out.startswith("name") else None, timeout)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    @staticmethod
    def _answer(out: str) -> str | None:
        stones = read_answer(out)
        if stones is not None:
            return stones
        return "" if out.startswith("error") else None

    def ask(self, line: str, timeout: float) -> tuple[str | None, float]:
        """Send ``line`` and wait for the next ``move`` answer line: (move text, "" for an
        ``error`` line, or None for no answer; seconds). ``why_silent`` tells the two Nones apart."""
        start = time.perf_counter()
        try:
            self.send(line)
        except (BrokenPipeError, OSError):
            return None, 0.0  # it had already ended; why_silent says how
        out = self._wait_for(self._answer, timeout)
        return out, time.perf_counter() - start

    def why_silent(self) -> str:
        """Why ``ask`` got no answer: still running (out of time), or ended (e.g. crashed), with
        its exit status; a signal shows as a negative status (-11: a segmentation fault)."""
        try:
            status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "no answer in time"
        return f"ended without an answer (exit status {status})"

    def close(self) -> None:
        """``quit``; an engine still running after the grace period is terminated, then killed
        (some engines do not stop at the end of their input)."""
        try:
            self.send("quit")
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except Exception:
            pass
        try:
            self.proc.wait(timeout=self.quit_grace)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=self.quit_grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log is not subprocess.DEVNULL:
            self.log.close()  # type: ignore[union-attr]
        with LIVE_LOCK:
            LIVE.discard(self)


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


# ---------------------------------------------------------------- Little Golem openings
@dataclass(frozen=True)
class Opening:
    turns: list[list[int]]
    source: dict[str, Any] = field(default_factory=dict)


def load_lg_games(path: Path = LITTLE_GOLEM) -> list[tuple[str, list[list[int]]]]:
    """The 19x19 expert games as (game id, turns)."""
    return [(gid, turns) for gid, size, turns in load_games(path) if size == 19]


def lg_openings(count: int, rng: random.Random, turns: tuple[int, int] = (1, 3),
                use_symmetry: bool = False, games: list[tuple[str, list[list[int]]]] | None = None,
                size: int = 19) -> list[Opening]:
    """``count`` distinct (up to symmetry) openings: the first ``turns[0]``–``turns[1]`` turns
    of randomly drawn expert games, each turned by a random symmetry when ``use_symmetry``."""
    if size != 19:
        raise ValueError("the Little Golem records are 19x19 games")
    games = games if games is not None else load_lg_games()
    seen: set[tuple[tuple[int, ...], ...]] = set()
    out: list[Opening] = []
    lo, hi = turns
    for _ in range(count * 200):
        if len(out) == count:
            break
        gid, game = games[rng.randrange(len(games))]
        k = rng.randint(lo, hi)
        sym = rng.randrange(8) if use_symmetry else 0
        if len(game) <= k:
            continue
        op = symmetry(game[:k], size, sym)
        try:
            pos = Position.from_turns(op, size)
        except (IllegalMove, ValueError):
            continue
        if pos.is_over:
            continue
        key = canonical(op, size)
        if key in seen:
            continue
        seen.add(key)
        out.append(Opening(op, {"gid": gid, "turns": k, "symmetry": sym}))
    if len(out) < count:
        raise ValueError(f"only {len(out)} distinct openings of {lo}-{hi} turns found, {count} wanted")
    return out


# ---------------------------------------------------------------- one game
@dataclass
class GameRecord:
    black: str
    white: str
    winner: str | None  # engine label or None for a draw
    reason: str
    turns: list[tuple[int, ...]]
    times: dict[str, list[float]] = field(default_factory=dict)
    opening_turns: int = 0
    move_seconds: list[float] = field(default_factory=list)  # per turn after the opening
    # The stones each engine answered (a pair even when its first stone made six and the
    # position kept only that one), so that a record replays through Position.play.
    answers: list[tuple[int, ...]] = field(default_factory=list)

    def to_json(self, size: int, game_no: int, commands: dict[str, list[str]],
                setup: dict[str, list[str]], opening_source: dict[str, Any]) -> dict[str, Any]:
        """The per-game record line (see the module docstring)."""
        moves = []
        played = self.answers if self.answers else self.turns[self.opening_turns:]
        for i, stones in enumerate(played):
            colour = "black" if (self.opening_turns + i) % 2 == 0 else "white"
            ms = round(1000 * self.move_seconds[i], 1) if i < len(self.move_seconds) else None
            moves.append({"colour": colour, "engine": self.black if colour == "black" else self.white,
                          "stones": move_text(stones, size), "ms": ms})
        winner_colour = (None if self.winner is None
                         else "black" if self.winner == self.black else "white")
        return {
            "game": game_no + 1, "size": size, "black": self.black, "white": self.white,
            "engines": {lab: {"command": commands[lab], "setup": setup.get(lab, [])}
                        for lab in (self.black, self.white)},
            "opening": [move_text(t, size) for t in self.turns[: self.opening_turns]],
            "opening_source": opening_source, "moves": moves,
            "winner": self.winner, "winner_colour": winner_colour, "reason": self.reason,
        }


def position_lines(turns: Sequence[tuple[int, ...] | list[int]], size: int) -> list[str]:
    """The protocol lines that set an engine up on these turns (``new white`` keeps it from
    moving by itself; each turn is then given by its colour)."""
    return ["new white"] + [f"{('black', 'white')[i % 2]} {move_text(t, size)}" for i, t in enumerate(turns)]


def play_game(specs: dict[str, list[str]], black: str, white: str, opening: list[list[int]],
              size: int, move_timeout: float, max_turns: int, log_dir: Path | None,
              game_no: int, setup: dict[str, list[str]], cwds: dict[str, Path | None] | None = None,
              quit_grace: float = 3.0, seed: int | None = None) -> GameRecord:
    """One game; ``seed`` (default: the game's number) replaces ``{seed}`` in the commands."""
    seed = game_no if seed is None else seed
    logs = {lab: (log_dir / f"g{game_no:03d}-{lab.replace(':', '_')}.log" if log_dir else None)
            for lab in (black, white)}
    cwds = cwds or {}
    procs = {lab: EngineProcess([w.replace("{seed}", str(seed)) for w in specs[lab]], logs[lab],
                                cwds.get(lab), quit_grace) for lab in (black, white)}
    times: dict[str, list[float]] = {black: [], white: []}
    seconds: list[float] = []
    answers: list[tuple[int, ...]] = []
    pos = Position(size)

    def record(winner: str | None, reason: str) -> GameRecord:
        return GameRecord(black, white, winner, reason, pos.turns, times, len(opening), seconds, answers)

    try:
        for lab, proc in procs.items():
            proc.ready()
            for line in setup.get(lab, []) + position_lines(opening, size):
                proc.send(line)
        for turn in opening:
            pos.play(turn)
        last: list[int] | None = None
        while not pos.is_over and pos.turn_count < max_turns:
            mover = black if pos.to_move.value == "black" else white
            other = white if mover == black else black
            proc = procs[mover]
            cmd = "next" if last is None else f"move {move_text(last, size)}"
            answer, elapsed = proc.ask(cmd, move_timeout)
            if answer is None or answer == "":
                why = proc.why_silent() if answer is None else "error answer"
                return record(other, f"{mover}: {why}")
            times[mover].append(elapsed)
            seconds.append(elapsed)
            try:
                stones = parse_move(answer, size)
                pos.play(stones)
                answers.append(tuple(stones))
            except (ValueError, IllegalMove) as exc:
                return record(other, f"{mover}: illegal move {answer!r} ({exc})")
            last = stones
        if pos.winner is not None:
            return record(black if pos.winner.value == "black" else white, "six")
        return record(None, "draw" if pos.draw else "turn limit")
    finally:
        for proc in procs.values():
            proc.close()


def elo(score: float) -> float:
    if not 0.0 < score < 1.0:
        return math.inf if score >= 1.0 else -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(points: list[float]) -> tuple[float, float, float]:
    """Elo of the mean score, and of the ends of its 95 % interval (normal approximation)."""
    p = statistics.fmean(points)
    se = statistics.pstdev(points) / math.sqrt(len(points))
    return elo(p), elo(max(0.0, p - 1.96 * se)), elo(min(1.0, p + 1.96 * se))


def fmt_elo(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def points_of(record: GameRecord, label: str) -> float:
    """``label``'s points from one game: 1 for a win, 0.5 for a draw, 0 for a loss."""
    return 1.0 if record.winner == label else 0.5 if record.winner is None else 0.0


def opening_pairs(records: list[GameRecord], label: str) -> Counter[float]:
    """How many openings ``label`` scored 2, 1.5, 1, 0.5 or 0 points from, over the openings it
    played once with each colour. A split is what the opening's colour advantage alone gives
    between equal engines; a stronger engine turns splits into wins both ways."""
    by_opening: dict[tuple[tuple[int, ...], ...], list[GameRecord]] = {}
    for r in records:
        by_opening.setdefault(tuple(r.turns[: r.opening_turns]), []).append(r)
    out: Counter[float] = Counter()
    for games in by_opening.values():
        if sorted(g.black == label for g in games) == [False, True]:
            out[sum(points_of(g, label) for g in games)] += 1
    return out


def distinct_games(records: list[GameRecord], size: int) -> tuple[int, int]:
    """How many of these games differ: move for move, and up to the board's 8 symmetries."""
    exact = {tuple(tuple(sorted(t)) for t in r.turns) for r in records}
    return len(exact), len({canonical([list(t) for t in turns], size) for turns in exact})


def report(records: list[GameRecord], label_a: str, label_b: str, board: str, detail: str,
           size: int = 19) -> None:
    """Print the score, Elo with its interval, the opening pairs, game lengths and time per move
    of each engine."""
    points = [points_of(r, label_a) for r in records]
    wins = points.count(1.0)
    draws = points.count(0.5)
    losses = points.count(0.0)
    score = sum(points) / len(points)
    e, lo, hi = elo_interval(points)
    as_black = [p for p, r in zip(points, records, strict=True) if r.black == label_a]
    as_white = [p for p, r in zip(points, records, strict=True) if r.white == label_a]
    print()
    print(f"arena: {label_a} vs {label_b}, {board}, {len(records)} games, {detail}")
    print(f"score {label_a}: +{wins} ={draws} -{losses}  ({100 * score:.1f} %; "
          f"as Black {sum(as_black):.1f}/{len(as_black)}, as White {sum(as_white):.1f}/{len(as_white)})")
    print(f"Elo difference {label_a} - {label_b}: {fmt_elo(e)} (95 % CI {fmt_elo(lo)} .. {fmt_elo(hi)})")
    pairs = opening_pairs(records, label_a)
    if pairs:
        drawn = pairs[1.5] + pairs[0.5]
        print(f"openings played with both colours, by {label_a}: won both {pairs[2.0]}, "
              f"split {pairs[1.0]}, lost both {pairs[0.0]}" + (f", with a draw {drawn}" if drawn else ""))
    for colour, mine in (("Black", [r for r in records if r.black == label_a]),
                         ("White", [r for r in records if r.white == label_a])):
        if mine:
            exact, turned = distinct_games(mine, size)
            print(f"distinct games with {label_a} as {colour}: {exact} of {len(mine)} "
                  f"({turned} up to symmetry)")
    forfeits = [r.reason for r in records if r.reason not in ("six", "draw", "turn limit")]
    if forfeits:
        print("forfeits: " + "; ".join(forfeits))
    lengths = [len(r.turns) for r in records]
    print(f"game length in turns: median {statistics.median(lengths):.0f}, "
          f"min {min(lengths)}, max {max(lengths)}")
    print(f"{'engine':<28} {'moves':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for lab in (label_a, label_b):
        ts = [t for r in records for t in r.times.get(lab, [])]
        if not ts:
            print(f"{lab:<28} {0:>6} {'-':>10} {'-':>8} {'-':>8}")
            continue
        print(f"{lab:<28} {len(ts):>6} {1000 * statistics.median(ts):>10.1f} "
              f"{1000 * percentile(ts, 0.99):>8.1f} {1000 * max(ts):>8.1f}")


def read_record_file(path: Path) -> list[dict[str, Any]]:
    """The per-game lines of a ``--record`` file (tools/lab/loss_analysis.py reads them too); a
    name ending in ``.gz`` is read through gzip (the runs kept in docs/experiments/records/)."""
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def record_from_json(g: dict[str, Any]) -> GameRecord:
    """One game back from its ``--record`` line."""
    size = g["size"]
    turns = [tuple(parse_move(t, size)) for t in g["opening"]]
    turns += [tuple(parse_move(m["stones"], size)) for m in g["moves"]]
    times: dict[str, list[float]] = {g["black"]: [], g["white"]: []}
    for m in g["moves"]:
        if m["ms"] is not None:
            times[m["engine"]].append(m["ms"] / 1000)
    return GameRecord(g["black"], g["white"], g["winner"], g["reason"], turns, times, len(g["opening"]))


def records_from_file(path: Path) -> list[GameRecord]:
    """Games back from a ``--record`` file (for a table of a run that was cut short)."""
    return [record_from_json(g) for g in read_record_file(path)]


@dataclass
class Paired:
    """Two records of one engine against one opponent compared game by game (see ``pair_records``)."""

    paired: int  # games with the same opening and the engine on the same colour in both
    same_moves: int  # of those, played move for move the same
    only_first: int  # won (scored more) in the first record only
    only_second: int  # won in the second only
    only_first_white: int  # of only_first, the engine played White
    only_second_white: int
    unpaired: int  # games of either record without a partner in the other

    @property
    def sign_test_p(self) -> float:
        """Two-sided exact sign test on the pairs that differ: the chance of a split at least
        this uneven between two equally strong variants."""
        n = self.only_first + self.only_second
        if n == 0:
            return 1.0
        k = min(self.only_first, self.only_second)
        return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def pair_records(first: list[GameRecord], second: list[GameRecord], label: str) -> Paired:
    """Pair the games of two records by opening and ``label``'s colour and count where they
    differ. A record may hold an opening-and-colour more than once (``--openings centre``): such
    games are paired in order."""
    def key(r: GameRecord) -> tuple[tuple[tuple[int, ...], ...], bool]:
        return tuple(tuple(sorted(t)) for t in r.turns[: r.opening_turns]), r.black == label

    waiting: dict[tuple[tuple[tuple[int, ...], ...], bool], list[GameRecord]] = {}
    for r in second:
        waiting.setdefault(key(r), []).append(r)
    paired = same = only_first = only_second = first_white = second_white = unpaired = 0
    for r in first:
        partners = waiting.get(key(r))
        if not partners:
            unpaired += 1
            continue
        other = partners.pop(0)
        paired += 1
        same += [tuple(sorted(t)) for t in r.turns] == [tuple(sorted(t)) for t in other.turns]
        mine, theirs = points_of(r, label), points_of(other, label)
        white = r.white == label
        if mine > theirs:
            only_first += 1
            first_white += white
        elif theirs > mine:
            only_second += 1
            second_white += white
    unpaired += sum(len(rest) for rest in waiting.values())
    return Paired(paired, same, only_first, only_second, first_white, second_white, unpaired)


def report_pairs(pairs: Paired, label: str, first: str, second: str) -> None:
    """Print ``pair_records``' comparison."""
    print()
    print(f"paired with {second}: {pairs.paired} games of {label} with the same opening and colour "
          f"({pairs.same_moves} the same move for move, {pairs.unpaired} without a partner)")
    print(f"scored differently: {pairs.only_first + pairs.only_second} — better in {first} "
          f"{pairs.only_first} (as White {pairs.only_first_white}), better in {second} "
          f"{pairs.only_second} (as White {pairs.only_second_white}); "
          f"sign test p = {pairs.sign_test_p:.3f}")


def parse_turn_range(text: str) -> tuple[int, int]:
    """``"1-3"`` → (1, 3); ``"2"`` → (2, 2)."""
    lo, _, hi = text.partition("-")
    a, b = int(lo), int(hi or lo)
    if not 1 <= a <= b:
        raise argparse.ArgumentTypeError(f"{text!r} is not a turn range like 1-3")
    return a, b


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
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="ours: engines measure their budget in wall time (default) or in their own CPU "
                         "time, so that a loaded machine slows them down without weakening them")
    for side in "ab":
        who = f"engine {side.upper()}"
        ap.add_argument(f"--time-{side}", type=int, help=f"budget ms per move sent to {who} (time MS)")
        ap.add_argument(f"--cwd-{side}", type=Path, help=f"{who}'s working directory")
        ap.add_argument(f"--layer-{side}", type=Path,
                        help=f"ours: {who} imports the engine from this layer folder "
                             "(a snapshot's layers/connect6)")
        ap.add_argument(f"--setup-{side}", action="append", default=[], help=f"line for {who} before a game")
    ap.add_argument("--openings", choices=("random", "lg", "centre"), default="random",
                    help="random near the centre, from the Little Golem expert games, or the one centre "
                         "stone for every game")
    ap.add_argument("--opening-turns", type=parse_turn_range, default=(1, 3),
                    help="with --openings lg: how many of the game's first turns (e.g. 1-3)")
    ap.add_argument("--symmetry", action="store_true", help="with --openings lg: turn each opening "
                    "by a random board symmetry")
    ap.add_argument("--quit-grace", type=float, default=3.0,
                    help="seconds an engine gets to stop after quit before it is terminated")
    ap.add_argument("--log-dir", type=Path, default=None, help="keep each engine's stderr here")
    ap.add_argument("--record", type=Path, default=None, help="append one JSON line per game here")
    ap.add_argument("--resume", action="store_true",
                    help="with --record: play only the games that file does not hold yet (a run cut "
                         "short, resumed with the same arguments); the table counts all of them")
    ap.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                    help="skip the machine's calibration before the games (see below)")
    ap.add_argument("--from-record", type=Path, default=None,
                    help="play nothing: print the table of the games in this record file")
    ap.add_argument("--against", type=Path, default=None,
                    help="with --from-record: compare it game by game with this record file (the same "
                         "engine label, e.g. a variant on the same --seed's openings)")
    args = ap.parse_args(argv)
    parallel = max(1, min(2, args.parallel))
    (label_a, spec_a), (label_b, spec_b) = split_label(args.engine_a), split_label(args.engine_b)
    if label_a == label_b:
        label_a, label_b = label_a + "#A", label_b + "#B"
    if args.from_record:
        recorded = records_from_file(args.from_record)
        report(recorded, label_a, label_b, f"{args.size}x{args.size}", f"from {args.from_record.name}",
               args.size)
        if args.against:
            pairs = pair_records(recorded, records_from_file(args.against), label_a)
            report_pairs(pairs, label_a, args.from_record.name, args.against.name)
        return 0
    if args.against:
        ap.error("--against compares two record files: give --from-record too")
    if args.resume and not args.record:
        ap.error("--resume continues a --record file: give --record too")
    if args.record and args.record.suffix == ".gz":
        ap.error("--record writes plain JSON lines (gunzip a kept record to resume it)")
    specs = {label_a: expand(spec_a, args.size, args.clock, args.layer_a),
             label_b: expand(spec_b, args.size, args.clock, args.layer_b)}
    cwds = {label_a: args.cwd_a, label_b: args.cwd_b}
    setup = {label_a: list(args.setup_a), label_b: list(args.setup_b)}
    for lab, ms in ((label_a, args.time_a), (label_b, args.time_b)):
        if ms is not None:
            setup[lab].append(f"time {ms}")
    if args.log_dir:
        args.log_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    n_open = (args.games + 1) // 2
    if args.openings == "lg":
        openings = lg_openings(n_open, rng, args.opening_turns, args.symmetry, size=args.size)
    elif args.openings == "centre":
        c = args.size // 2
        openings = [Opening([[c * args.size + c]], {"centre": True}) for _ in range(n_open)]
    else:
        openings = [Opening(make_opening(args.size, rng), {"random": True}) for _ in range(n_open)]
    jobs = []
    for i, op in enumerate(openings):
        jobs.append((label_a, label_b, op, 2 * i))
        jobs.append((label_b, label_a, op, 2 * i + 1))
    done: dict[int, GameRecord] = {}  # --resume: the games already in the record, by number
    if args.resume and args.record.exists():
        for g in read_record_file(args.record):
            no = g["game"] - 1
            if not 0 <= no < len(jobs) or g["black"] != jobs[no][0] or \
                    g["opening"] != [move_text(t, args.size) for t in jobs[no][2].turns]:
                ap.error(f"{args.record}: game {g['game']} is not this run's game (other engines, "
                         "seed, openings or number of games): resume with the arguments it was made with")
            done[no] = record_from_json(g)
        print(f"resuming: {len(done)} of {len(jobs)} games already in {args.record}", flush=True)
    signal.signal(signal.SIGTERM, stop_all_engines)
    signal.signal(signal.SIGINT, stop_all_engines)
    record_lock = threading.Lock()
    if args.record:
        args.record.parent.mkdir(parents=True, exist_ok=True)

    def run(job: tuple[str, str, Opening, int]) -> GameRecord:
        black, white, op, no = job
        seed = game_seed(args.seed, no)
        rec = play_game(specs, black, white, op.turns, args.size, args.move_timeout, args.max_turns,
                        args.log_dir, no, setup, cwds, args.quit_grace, seed)
        mark = {None: "=", black: "B", white: "W"}[rec.winner]
        print(f"game {no + 1:3d}: {black} (B) vs {white} (W): {mark} {rec.reason}, "
              f"{len(rec.turns)} turns", flush=True)
        if args.record:
            line = json.dumps({**rec.to_json(args.size, no, specs, setup, op.source), "seed": seed})
            with record_lock, args.record.open("a") as fh:
                fh.write(line + "\n")
        return rec

    if args.calibrate and any(spec.startswith("ours:") for spec in (spec_a, spec_b)):
        # Against an engine that plays at a fixed depth, ours scores by how much its budget buys
        # on this machine: say how fast the machine is, so that runs on others compare.
        print(calibration(), flush=True)
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        played = dict(zip((job[3] for job in jobs if job[3] not in done),
                          pool.map(run, [job for job in jobs if job[3] not in done]), strict=True))
    records = [done[no] if no in done else played[no] for *_, no in jobs]
    wall = time.time() - t0

    report(records, label_a, label_b, f"{args.size}x{args.size}",
           f"{args.openings} openings, seed {args.seed}, {wall:.1f} s wall", args.size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
