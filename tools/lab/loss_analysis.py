#!/usr/bin/env python3
"""Loss analysis: where and how the engine lost its arena games.

Reads the per-game records that ``tools/lab/arena.py --record FILE`` writes (JSON lines) and, for
every game the engine under study (``--side``, by default every ``ours:`` label) lost, finds the
turn where the game was lost, judged with a far larger budget than the game had:

1. From the end backwards: after which of our moves did the opponent (to move) already have a
   forced win — a six at once, a VCDT (victory by continuous double threats, the repo's own
   solver ``connect6.ai.vcdt``) within ``--vcdt-seconds`` and ``--vcdt-depth`` turns, or, with
   ``--entry-depth``, a single-four entry into a VCDT (``Vcdt.entry``)? The
   earliest move of the unbroken run up to the end is the *fatal* move.
2. Before the fatal move, was there a reply that leaves no forced win? Tried: the hard level's
   answer after ``--search-seconds``, Cloudict's move (with ``--cloudict``), then every block of
   the opponent's threats (or, in a quiet position, the hard level's own candidate pairs), up to
   ``--breadth`` replies, each checked like step 1. If one holds, the fatal move was the mistake
   and that reply is the *better* move; if none does, the position was already lost and the
   mistake was our move one turn earlier, which let the opponent make a move that won.
3. At every one of our turns up to the mistake: did we have a forced win of our own that the
   game move did not play?

Classes (the first that applies):

* ``own-win-missed`` – we had a six or a VCDT and played something else;
* ``block-left-vcdt`` – the opponent threatened a six, we blocked it, but the block we chose left
  a VCDT (another block would not have);
* ``missed-vcdt-defence`` – a quiet position (no threat against us) where our move left a shape
  the opponent turned into two threats and then a six; a better move existed;
* ``block-left-entry``, ``missed-entry-defence`` – the same two with ``--entry-depth``, where the
  opponent's forced win began with a single four (after every block of it, a VCDT), for example
  a block of a four of ours that makes a four of its own;
* ``long-vcdt`` – as ``quiet-loss`` below, but the opponent's reply was already a double threat:
  a forced line longer than the solver's depth cap, started right after our move;
* ``quiet-loss`` – our move left a position where the opponent's quiet reply (at most one threat)
  made every defence fail: a shape that becomes a double threat next turn, beyond VCDT;
* ``lost-in-opening`` – already lost at our first turn (the opening plus the opponent's moves);
* ``forfeit`` – lost by timeout, error or an illegal move, not by a six;
* ``undetermined`` – the solver ran out of time where it mattered.

A summary table (count per class, turn numbers) is printed; ``--out FILE`` writes each found
position as a JSON line: the turns before it (Little Golem labels and protocol letters), the
side to move, the move played, the class, the opponent's refutation (the VCDT's first pair, or
the quiet reply) and the better move when one was found. With ``--cloudict DIR`` (a directory
holding a built Cloudict and its patterns.in; never needed by the tests) the opponent's win after
the fatal move is checked independently with Cloudict's own VCF search, and Cloudict's move
(``--cloudict-depth``) is one of the replies tried. ``--check-positions FILE…`` replays saved
positions with the current engine at its real budget and counts how many it now holds. Example::

    python -m tools.lab.loss_analysis runs/cd2.jsonl --out runs/cd2-losses.jsonl --vcdt-seconds 15
    python -m tools.lab.loss_analysis --check-positions tests/unit/ai/data/loss_positions.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from connect6.ai import search
from connect6.ai.board import Board, count_hits
from connect6.ai.movegen import defence_pairs, normal_pairs, win_now
from connect6.ai.vcdt import Timeout, Vcdt
from connect6.records import point_label
from connect6.rules import Position
from tools.lab.arena import move_text, parse_move, position_lines, read_answer, read_record_file

CLASSES = ("own-win-missed", "block-left-vcdt", "missed-vcdt-defence", "block-left-entry",
           "missed-entry-defence", "long-vcdt", "quiet-loss", "lost-in-opening", "forfeit", "undetermined")


@dataclass(frozen=True)
class Win:
    """A forced win for the side to move: ``turns`` to the six, starting with ``stones``."""

    kind: str  # "six" or "vcdt"
    turns: int
    stones: tuple[int, ...]


class Unknown(Exception):
    """The solver ran out of time: neither a win nor its absence is shown."""


def side_of(position: Position) -> int:
    return position.to_move.index


def forced_win(position: Position, seconds: float, depth: int, entry_depth: int = 0) -> Win | None:
    """A six now, a VCDT or (with ``entry_depth``) a single-four entry into a VCDT of at most
    that many turns (``Vcdt.entry`` with every free stone that matters tried: a forced win) for
    the side to move, or None; raises :class:`Unknown` on timeout."""
    board = Board.from_position(position)
    s = side_of(position)
    if position.stones_to_place == 2:
        now = win_now(board, s)
        if now is not None:
            return Win("six", 1, now)
    elif board.thr[s]:
        return Win("six", 1, (board.threat_sets(s)[0][0],))
    if position.stones_to_place != 2:
        return None
    unstoppable_pair = triple_threat(board, s)
    if unstoppable_pair is not None:
        return Win("vcdt", 2, unstoppable_pair)
    solver = Vcdt(board, time.perf_counter() + seconds)
    try:
        found = solver.solve(s, depth)
        if found is None and entry_depth:
            entry = solver.entry(s, entry_depth)
            if entry is not None:
                return Win("entry", entry[0], entry[1])
    except Timeout as exc:
        raise Unknown from exc
    return None if found is None else Win("vcdt", found[0], found[1])


def triple_threat(board: Board, s: int) -> tuple[int, int] | None:
    """A pair for ``s`` (to move, no six available) that blocks all of the opponent's threat
    windows and leaves three or more threats: a win next turn. Found by trying every pair of
    points near the stones, because the VCDT solver only pairs points of the attacker's own
    windows and so misses "one stone blocks, the other makes three threats"."""
    o = 1 - s
    cands = board.candidates()
    place = board.place
    remove = board.remove
    thr = board.thr
    for i, x in enumerate(cands):
        place(x, s)
        for y in cands[i + 1:]:
            place(y, s)
            if thr[s] and not thr[o] and count_hits(board.threat_sets(s)) >= 3:
                remove(y, s)
                remove(x, s)
                return x, y
            remove(y, s)
        remove(x, s)
    return None


def unstoppable(position: Position) -> bool:
    """The side to move faces three or more threats (two stones cannot hit them all) and has
    no six of its own."""
    board = Board.from_position(position)
    s = side_of(position)
    if board.thr[s]:
        return False
    sets = board.threat_sets(1 - s)
    return bool(sets) and count_hits(sets) >= 3


def threat_potential(position: Position, side: int) -> dict[str, int]:
    """What ``side`` could do with one two-stone move on this board: the most threats one pair
    makes (capped at 3: two stones cannot block three), and how many pairs make two and three
    or more. Describes shapes such as live threes and twos that turn into double threats."""
    board = Board.from_position(position)
    if board.thr[side]:
        return {"best": 3, "double": -1, "triple": -1}  # a six now: not a shape question
    solver = Vcdt(board, float("inf"))
    best = double = triple = 0
    for _, made in solver.threats_by_pair(side):
        t = len(made) if len(made) < 2 else count_hits(made)
        best = max(best, t)
        double += t == 2
        triple += t >= 3
    return {"best": best, "double": double, "triple": triple}


def after(position: Position, stones: tuple[int, ...] | list[int]) -> Position:
    nxt = position.copy()
    nxt.play(list(stones))
    return nxt


def labels(stones: tuple[int, ...] | list[int], size: int) -> str:
    return "".join(point_label(p, size) for p in stones)


@dataclass
class Options:
    vcdt_seconds: float = 10.0
    vcdt_depth: int = 6
    entry_depth: int = 0
    search_seconds: float = 10.0
    own_seconds: float = 3.0
    cloudict: Path | None = None
    cloudict_depth: int = 6
    breadth: int = 24


@dataclass
class Finding:
    record: str
    game: int
    cls: str
    turn: int  # the game's turn number (1 = Black's first stone) of the mistake
    position: Position | None = None
    played: tuple[int, ...] = ()
    refutation: tuple[int, ...] = ()
    refutation_kind: str = ""
    refutation_turns: int = 0
    better: tuple[int, ...] = ()
    colour: str = ""
    opponent: str = ""
    note: str = ""
    checks: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"record": self.record, "game": self.game, "class": self.cls, "turn": self.turn,
                               "colour": self.colour, "opponent": self.opponent, "note": self.note}
        if self.position is not None:
            size = self.position.size
            out["size"] = size
            out["turns_lg"] = [labels(t, size) for t in self.position.turns]
            out["turns"] = [move_text(t, size) for t in self.position.turns]
            out["to_move"] = self.position.to_move.value
            out["played"] = labels(self.played, size)
            out["refutation"] = labels(self.refutation, size)
            out["refutation_kind"] = self.refutation_kind
            out["refutation_turns"] = self.refutation_turns
            out["better"] = labels(self.better, size) if self.better else None
        out["checks"] = self.checks
        return out


def game_positions(rec: dict[str, Any]) -> tuple[Position, list[tuple[Position, tuple[int, ...], str]]]:
    """The final position and every turn after the opening as (position before, stones, colour)."""
    size = rec["size"]
    pos = Position(size)
    for t in rec["opening"]:
        pos.play(parse_move(t, size))
    out = []
    for m in rec["moves"]:
        stones = tuple(parse_move(m["stones"], size))
        out.append((pos.copy(), stones, m["colour"]))
        if len(stones) < pos.stones_to_place:
            break  # a six made by a pair's first stone: the record holds that stone alone
        pos.play(list(stones))
    return pos, out


def studied_positions(records: list[Path], side: str | None = None, colour: str | None = None,
                      lost: bool = False) -> list[tuple[random.Random, Position, dict[str, Any]]]:
    """Every position in which the studied engine (``side``, by default the ``ours:`` label) was to
    move in the games of ``records`` (``colour``: only that colour's; ``lost``: only the games it
    lost), with a random source seeded by the game and turn (a replay draws as the last one did)
    and the game's record: what profile_moves.py and move_diff.py search again."""
    out: list[tuple[random.Random, Position, dict[str, Any]]] = []
    for path in records:
        for rec in read_record_file(path):
            ours = side or next((e for e in (rec["black"], rec["white"]) if e.startswith("ours:")), None)
            mine = "black" if rec["black"] == ours else "white" if rec["white"] == ours else None
            if mine is None or (colour and mine != colour) or (lost and rec.get("winner") in (ours, None)):
                continue
            _, turns = game_positions(rec)
            out.extend((random.Random(rec.get("seed", 0) * 1000 + n), pos, rec)  # nosec B311 # replayable lab runs
                       for n, (pos, _, mover) in enumerate(turns) if mover == mine and not pos.is_over)
    return out


def ask_cloudict(position: Position, directory: Path, depth: int, timeout: float = 120.0
                 ) -> tuple[bool, tuple[int, ...] | None] | None:
    """Cloudict's view of the position (side to move): (its own VCF search found a win, its
    move). None when it could not be asked."""
    size = position.size
    if size != 19 or not position.turns:
        return None
    lines = [f"depth {depth}", *position_lines(position.turns, size), "next", "quit"]
    try:
        out = subprocess.run([str(directory / "cloudict")], input="\n".join(lines) + "\n", text=True,
                             capture_output=True, cwd=directory, timeout=timeout).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    move = None
    for line in out.splitlines():
        stones = read_answer(line)
        if stones is not None:
            move = tuple(parse_move(stones, size))
    return "Win by VCF." in out, move


def analyse_game(rec: dict[str, Any], side: str, opts: Options, name: str) -> Finding | None:
    """The finding for one game ``side`` lost, or None when it did not lose."""
    if rec["winner"] is None or rec["winner"] == side or side not in (rec["black"], rec["white"]):
        return None
    colour = "black" if rec["black"] == side else "white"
    opponent = rec["white"] if colour == "black" else rec["black"]
    game = rec["game"]
    if rec["reason"] != "six":
        return Finding(name, game, "forfeit", len(rec["opening"]) + len(rec["moves"]), colour=colour,
                       opponent=opponent, note=rec["reason"])
    _final, turns = game_positions(rec)
    ours = [(i, p, st) for i, (p, st, c) in enumerate(turns) if c == colour]
    if not ours:
        return Finding(name, game, "lost-in-opening", 1, colour=colour, opponent=opponent)
    n_open = len(rec["opening"])
    checks: dict[str, Any] = {}

    # 1. The fatal move: the earliest of the unbroken run of our moves after which the opponent
    # had a forced win.
    fatal = None
    refutation: Win | None = None
    for k in range(len(ours) - 1, -1, -1):
        _i, p, st = ours[k]
        try:
            win = forced_win(after(p, st), opts.vcdt_seconds, opts.vcdt_depth, opts.entry_depth)
        except Unknown:
            checks.setdefault("timeouts", []).append(f"opponent win after our turn {n_open + ours[k][0] + 1}")
            break
        if win is None:
            break
        fatal, refutation = k, win
    if fatal is None or refutation is None:
        return Finding(name, game, "undetermined", n_open + ours[-1][0] + 1, ours[-1][1], ours[-1][2],
                       colour=colour, opponent=opponent,
                       note="no forced win found after our last move", checks=checks)

    # 3 (first, as it wins the classification). A forced win of our own, missed.
    for k in range(0, fatal + 1):
        i, p, st = ours[k]
        try:
            own = forced_win(p, opts.own_seconds, opts.vcdt_depth)
        except Unknown:
            continue
        if own is not None and not keeps_attack(p, st):
            return Finding(name, game, "own-win-missed", n_open + i + 1, p, st, own.stones, own.kind,
                           own.turns, own.stones, colour, opponent,
                           note=f"own {own.kind} in {own.turns} turn(s) was on the board", checks=checks)

    i, p, st = ours[fatal]
    turn = n_open + i + 1
    o = 1 - side_of(p)
    checks["opponent_shapes_before"] = threat_potential(p, o)
    checks["opponent_shapes_after"] = threat_potential(after(p, st), o)
    if opts.cloudict is not None:
        view = ask_cloudict(after(p, st), opts.cloudict, 1)
        checks["cloudict_vcf_after_fatal"] = None if view is None else view[0]

    # 2. Was there a reply that holds?
    better, verdict = holding_reply(p, opts, checks)
    checks["holding_reply"] = verdict
    threatened = bool(Board.from_position(p).thr[1 - side_of(p)])
    if better is not None:
        cls = (("block-left-entry" if threatened else "missed-entry-defence") if refutation.kind == "entry"
               else "block-left-vcdt" if threatened else "missed-vcdt-defence")
        return Finding(name, game, cls, turn, p, st, refutation.stones, refutation.kind, refutation.turns,
                       better, colour, opponent,
                       note=f"opponent {refutation.kind} in {refutation.turns} turn(s) after our move",
                       checks=checks)
    if verdict == "unknown":
        return Finding(name, game, "undetermined", turn, p, st, refutation.stones, refutation.kind,
                       refutation.turns, (), colour, opponent, note="no verdict on a holding reply",
                       checks=checks)
    # Already lost before the fatal move: the mistake was our previous move, and the
    # opponent's quiet reply to it decided the game.
    if fatal == 0:
        return Finding(name, game, "lost-in-opening", turn, p, st, refutation.stones, refutation.kind,
                       refutation.turns, (), colour, opponent,
                       note="no holding reply at our first turn", checks=checks)
    i0, p0, st0 = ours[fatal - 1]
    reply = turns[i0 + 1][1]
    q0 = after(p0, st0)
    checks["opponent_shapes_before_reply"] = threat_potential(q0, o)
    made = count_hits(Board.from_position(after(q0, reply)).threat_sets(o))
    checks["reply_threats"] = made
    if made >= 2:
        # The reply was a double threat: a forced line longer than the solver's cap.
        return Finding(name, game, "long-vcdt", n_open + i0 + 1, p0, st0, reply, "double threat", 0, (),
                       colour, opponent, note=f"the opponent's double threat, then no defence held at "
                       f"turn {turn} (opponent {refutation.kind} in {refutation.turns} turn(s) there)",
                       checks=checks)
    return Finding(name, game, "quiet-loss", n_open + i0 + 1, p0, st0, reply, "quiet", 0, (), colour,
                   opponent, note=f"after the opponent's reply ({made} threat) no defence held at turn "
                   f"{turn} (opponent {refutation.kind} in {refutation.turns} turn(s) after our move there)",
                   checks=checks)


def keeps_attack(p: Position, played: tuple[int, ...]) -> bool:
    """Did the move played go on with a forced attack: a six, or two or more threats the opponent
    must answer (the VCDT's next step, not necessarily the solver's line)?"""
    nxt = after(p, played)
    if nxt.is_over:
        return True
    board = Board.from_position(nxt)
    mine = 1 - side_of(nxt)
    return count_hits(board.threat_sets(mine)) >= 2


def holding_reply(p: Position, opts: Options, checks: dict[str, Any]) -> tuple[tuple[int, ...] | None, str]:
    """A reply after which the opponent has no forced win: (move, "holds") or (None, "lost").

    Tried in turn: the hard level's answer after a long search, Cloudict's move (with
    ``--cloudict``), then every block of the opponent's threats when there are any (else the hard
    level's own candidate pairs), up to ``opts.breadth`` moves; each is checked for an opponent six
    or VCDT. "lost" means none of these held (a strong hint, not a proof)."""
    if unstoppable(p):
        checks["holding_reply_tried"] = 0
        return None, "lost"
    s = side_of(p)
    candidates: list[tuple[str, tuple[int, ...]]] = []
    result = search(p, "hard", budget_s=opts.search_seconds, rng=random.Random(0))
    candidates.append(("hard search", result.stones))
    if opts.cloudict is not None:
        view = ask_cloudict(p, opts.cloudict, opts.cloudict_depth)
        if view is not None and view[1] is not None and len(view[1]) == p.stones_to_place:
            candidates.append(("cloudict", view[1]))
            checks["cloudict_reply"] = labels(view[1], p.size)
    board = Board.from_position(p)
    sets = board.threat_sets(1 - s)
    more = defence_pairs(board, s, sets, 8) if sets else normal_pairs(board, s, 12, 5)
    candidates += [("block" if sets else "candidate", (x, y)) for _, x, y in more]
    seen: set[tuple[int, ...]] = set()
    tried = unknown = 0
    for source, stones in candidates:
        key = tuple(sorted(stones))
        if key in seen:
            continue
        seen.add(key)
        if tried >= opts.breadth:
            break
        tried += 1
        seconds = opts.vcdt_seconds if source in ("hard search", "cloudict") else opts.vcdt_seconds / 4
        try:
            win = forced_win(after(p, stones), seconds, opts.vcdt_depth, opts.entry_depth)
        except Unknown:
            unknown += 1
            continue
        if win is None:
            checks.update(holding_reply_tried=tried, holding_reply_unknown=unknown, holding_reply_by=source)
            return stones, "holds"
    checks.update(holding_reply_tried=tried, holding_reply_unknown=unknown)
    return None, "lost"


def check_positions(path: Path, level: str, budget: float | None, seconds: float, depth: int) -> int:
    """Replay saved positions (``--out`` lines or tests/unit/ai/data/loss_positions.jsonl) with
    the current engine at its real budget: does its answer still leave the opponent a forced win?
    Prints one line per position and the count that now hold."""
    held = total = 0
    for case in read_record_file(path):
        if case.get("class") not in ("missed-vcdt-defence", "block-left-vcdt"):
            continue
        size = case["size"]
        pos = Position(size)
        for t in case["turns"]:
            pos.play(parse_move(t, size))
        result = search(pos, level, budget_s=budget, rng=random.Random(0))
        try:
            win = forced_win(after(pos, result.stones), seconds, depth)
            verdict = "holds" if win is None else f"refuted ({win.kind} in {win.turns})"
        except Unknown:
            verdict = "unknown (solver timeout)"
        total += 1
        held += verdict == "holds"
        name = case.get("id") or f"{case.get('record')} game {case.get('game')}"
        print(f"{name:<28} {labels(result.stones, size):<10} {result.elapsed * 1000:6.0f} ms  {verdict}",
              flush=True)
    print(f"{level}: {held} of {total} positions held")
    return held


def summary(findings: list[Finding], games: int) -> str:
    lines = [f"{'class':<22} {'count':>5}  turn numbers (median)"]
    by = Counter(f.cls for f in findings)
    for cls in CLASSES:
        if not by[cls]:
            continue
        turns = sorted(f.turn for f in findings if f.cls == cls)
        lines.append(f"{cls:<22} {by[cls]:>5}  {', '.join(map(str, turns))} "
                     f"({statistics.median(turns):.0f})")
    lines.append(f"{'lost games':<22} {len(findings):>5}  of {games} games")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="+", type=Path, help="arena --record files (or, with "
                    "--check-positions, position files)")
    ap.add_argument("--check-positions", action="store_true", help="replay saved positions with the "
                    "current engine (--level, its default budget or --budget) instead of analysing games")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--budget", type=float, default=None, help="seconds per move for --check-positions")
    ap.add_argument("--side", action="append", default=None,
                    help="engine label to study (repeatable; default: every ours: label)")
    ap.add_argument("--vcdt-seconds", type=float, default=10.0)
    ap.add_argument("--vcdt-depth", type=int, default=6)
    ap.add_argument("--entry-depth", type=int, default=0, help="also count a single-four entry into a "
                    "VCDT of at most this many turns as a forced win (hard's entry check: 6; 0: none)")
    ap.add_argument("--search-seconds", type=float, default=10.0)
    ap.add_argument("--own-seconds", type=float, default=3.0)
    ap.add_argument("--cloudict", type=Path, default=None, help="directory of a built Cloudict")
    ap.add_argument("--cloudict-depth", type=int, default=6, help="Cloudict's depth for a second opinion")
    ap.add_argument("--breadth", type=int, default=24, help="replies tried before a position counts as lost")
    ap.add_argument("--limit", type=int, default=None, help="analyse at most this many lost games")
    ap.add_argument("--out", type=Path, default=None, help="write the found positions here (JSONL)")
    args = ap.parse_args(argv)
    opts = Options(**{option.name: getattr(args, option.name) for option in fields(Options)})
    if args.check_positions:
        for path in args.records:
            check_positions(path, args.level, args.budget, args.vcdt_seconds, args.vcdt_depth)
        return 0
    records = [(path.name, rec) for path in args.records for rec in read_record_file(path)]
    findings: list[Finding] = []
    games = 0
    out = args.out.open("w") if args.out else None
    try:
        for name, rec in records:
            sides = args.side or [lab for lab in (rec["black"], rec["white"]) if lab.startswith("ours:")]
            for side in sides:
                if side not in (rec["black"], rec["white"]):
                    continue
                games += 1
                if args.limit is not None and len(findings) >= args.limit:
                    continue
                t0 = time.perf_counter()
                found = analyse_game(rec, side, opts, name)
                if found is None:
                    continue
                findings.append(found)
                print(f"{name} game {rec['game']:3d} ({found.colour}): {found.cls:<20} turn {found.turn:3d}"
                      f"  played {labels(found.played, rec['size']) or '-':<8} refutation "
                      f"{labels(found.refutation, rec['size']) or '-':<8} better "
                      f"{labels(found.better, rec['size']) or '-':<8} [{time.perf_counter() - t0:.0f} s]",
                      flush=True)
                if out:
                    out.write(json.dumps(found.to_json()) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    print()
    print(summary(findings, games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
