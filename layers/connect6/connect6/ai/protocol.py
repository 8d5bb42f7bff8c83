"""The engine front end: the text protocol Connect6 engines and GUIs speak, on stdin/stdout.

Commands (one per line, case-insensitive):

* ``new black`` – new game, the engine plays Black and answers its opening (``move JJ``);
  ``new white`` – new game, the engine plays White, no answer;
* ``move XXXX`` / ``move XX`` – the opponent's stones; the engine answers ``move YYYY``;
* ``black XX[XX]`` / ``white XX[XX]`` – place a turn of stones without searching;
* ``next`` – search for the side to move, play it and answer ``move …``;
* ``depth D`` (search depth cap in two-stone plies, 0 = none), ``time MS`` (budget per move),
  ``level easy|normal|hard``, ``name``, ``quit``.

Two letters per stone, column then row, ``A`` at the left and at the bottom: ``JJ`` is the
centre of 19×19. Answers are the only stdout lines starting with ``move``; ``name`` answers
``name …``; a command that cannot be carried out answers one ``error …`` line and the engine
carries on. Chatter goes to stderr. The engine stops at ``quit`` or at the end of input.

Run it with ``python -m connect6.ai.protocol [--size N] [--level L]``.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TextIO

from connect6.ai import DEFAULT_BUDGETS, LEVELS, clock, search
from connect6.ai.board import tables
from connect6.rules import IllegalMove, Position

NAME = "connect6-py"


class ProtocolError(ValueError):
    pass


def stone_text(point: int, size: int) -> str:
    return chr(ord("A") + point % size) + chr(ord("A") + point // size)


def move_text(stones: tuple[int, ...] | list[int], size: int) -> str:
    return "".join(stone_text(p, size) for p in stones)


def parse_stones(text: str, size: int) -> list[int]:
    text = text.strip().upper()
    if not text or len(text) % 2 or len(text) > 4:
        raise ProtocolError(f"expected one or two stones of two letters each, not {text!r}")
    out = []
    for i in range(0, len(text), 2):
        col = ord(text[i]) - ord("A")
        row = ord(text[i + 1]) - ord("A")
        if not (0 <= col < size and 0 <= row < size):
            raise ProtocolError(f"{text[i:i + 2]!r} is not a point of the {size}x{size} board")
        out.append(row * size + col)
    return out


class Session:
    """The protocol state machine; ``handle`` returns the stdout lines for one command."""

    def __init__(self, size: int = 19, level: str = "normal", *, seed: int = 0,
                 err: TextIO | None = None) -> None:
        if not 6 <= size <= 26:
            raise ValueError("the protocol's letters cover board sizes 6 to 26")
        self.size = size
        self.level = level
        self.budget: float | None = None
        self.depth: int | None = None
        self.rng = random.Random(seed)  # nosec B311 # seeded engine play, not security
        self.err = err if err is not None else sys.stderr
        self.position = Position(size)
        self.done = False
        tables(size)  # build the board tables now, not inside the first move's budget

    def log(self, text: str) -> None:
        print(text, file=self.err, flush=True)

    def _think(self) -> str:
        pos = self.position
        if pos.is_over:
            raise ProtocolError("the game is over")
        budget = self.budget if self.budget is not None else DEFAULT_BUDGETS[self.level]
        result = search(pos, self.level, budget_s=budget, rng=self.rng, max_depth=self.depth)
        pos.play(result.stones)
        self.log(f"{result.reason}; depth {result.depth}, {result.nodes} nodes, "
                 f"{result.elapsed * 1000:.0f} ms, score {result.score}; "
                 + ", ".join(f"{phase} {seconds * 1000:.0f}" for phase, seconds in result.phases))
        return "move " + move_text(result.stones, self.size)

    def _place(self, colour: str, text: str) -> None:
        pos = self.position
        stones = parse_stones(text, self.size)
        if pos.is_over:
            raise ProtocolError("the game is over")
        if pos.to_move.value != colour:
            raise ProtocolError(f"it is {pos.to_move.value}'s turn, not {colour}'s")
        try:
            pos.play(stones)
        except IllegalMove as exc:
            raise ProtocolError(exc.message) from exc

    def handle(self, line: str) -> list[str]:
        words = line.split()
        if not words:
            return []
        cmd, args = words[0].lower(), words[1:]
        try:
            return self._dispatch(cmd, args)
        except ProtocolError as exc:
            return [f"error {exc}"]

    def _dispatch(self, cmd: str, args: list[str]) -> list[str]:
        if cmd == "quit":
            self.done = True
            return []
        if cmd == "name":
            return [f"name {NAME}"]
        if cmd == "new":
            if len(args) != 1 or args[0].lower() not in ("black", "white"):
                raise ProtocolError("usage: new black|white")
            self.position = Position(self.size)
            if args[0].lower() == "black":
                return [self._think()]
            return []
        if cmd == "move":
            if len(args) != 1:
                raise ProtocolError("usage: move XX[XX]")
            self._place(self.position.to_move.value, args[0])
            if self.position.is_over:
                self.log(f"game over: {self.position.winner.value if self.position.winner else 'draw'}")
                return []
            return [self._think()]
        if cmd in ("black", "white"):
            if len(args) != 1:
                raise ProtocolError(f"usage: {cmd} XX[XX]")
            self._place(cmd, args[0])
            return []
        if cmd == "next":
            return [self._think()]
        if cmd == "depth":
            value = self._int(args)
            self.depth = value if value > 0 else None
            return []
        if cmd == "time":
            value = self._int(args)
            if value <= 0:
                raise ProtocolError("time must be a positive number of milliseconds")
            self.budget = value / 1000.0
            return []
        if cmd == "level":
            if len(args) != 1 or args[0].lower() not in LEVELS:
                raise ProtocolError(f"usage: level {'|'.join(LEVELS)}")
            self.level = args[0].lower()
            return []
        raise ProtocolError(f"unknown command {cmd!r}")

    @staticmethod
    def _int(args: list[str]) -> int:
        if len(args) != 1:
            raise ProtocolError("expected one number")
        try:
            return int(args[0])
        except ValueError as exc:
            raise ProtocolError(f"{args[0]!r} is not a number") from exc


def serve(inp: TextIO, out: TextIO, session: Session) -> None:
    for line in inp:
        for answer in session.handle(line):
            out.write(answer + "\n")
            out.flush()
        if session.done:
            break


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="connect6 engine",
                                     description="Connect6 engine speaking the text protocol on stdin/stdout")
    parser.add_argument("--size", type=int, default=19, help="board size (default 19)")
    parser.add_argument("--level", choices=LEVELS, default="normal", help="strength (default normal)")
    parser.add_argument("--time", type=int, default=None, help="budget per move in milliseconds")
    parser.add_argument("--depth", type=int, default=None, help="search depth cap in turns")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what the budget is measured in: wall time (default) or this process's CPU "
                             "time (for measuring strength on a shared machine)")
    args = parser.parse_args(argv)
    clock.use_cpu_time(args.clock == "cpu")
    try:
        session = Session(args.size, args.level, seed=args.seed)
    except ValueError as exc:
        print(f"connect6 engine: {exc}", file=sys.stderr)
        return 2
    if args.time is not None:
        session.budget = args.time / 1000.0
    if args.depth:
        session.depth = args.depth
    session.log(f"{NAME} ready: {args.size}x{args.size}, level {args.level}")
    try:
        serve(sys.stdin, sys.stdout, session)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
