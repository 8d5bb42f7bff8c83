"""Test positions derived from game records (docs/ai.md, "Wins and blocks on Little Golem positions").

From every position along a game:

* **win-in-one**: the side to move can make six (e.g. all turns but the last of a game that ends
  in a six); the answer must make six;
* **must-block**: the opponent has threat windows (e.g. before the loser's last turn); they are
  counted exactly: when at most two stones can hit them all, the answer must leave none (or win
  at once); with three or more threats any legal answer is accepted.

Each position is also used under the board's 8 symmetries. Records are JSON lines
``{"gid", "sgf", "result"}`` with SGF like ``(;FF[4]SZ[19];B[j10];W[k9j12];...)`` (19×19 when no SZ).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from connect6.ai.board import Board
from connect6.records import parse_label, parse_sgf
from connect6.rules import IllegalMove, Position

ROOT = Path(__file__).resolve().parents[2]
LITTLE_GOLEM = ROOT / "tests" / "data" / "littlegolem" / "games.jsonl"
ENGINE_GAMES = ROOT / "tests" / "unit" / "ai" / "data" / "engine_games.jsonl"

def load_games(path: Path, limit: int | None = None) -> list[tuple[str, int, list[list[int]]]]:
    """(game id, board size, turns as point lists) of every readable record (SGF by
    ``connect6.records.parse_sgf``)."""
    games: list[tuple[str, int, list[list[int]]]] = []
    with path.open() as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
                game = parse_sgf(rec["sgf"])
            except (ValueError, KeyError):
                continue
            turns = [[parse_label(label, game.size) for label in turn] for turn in game.turns]
            games.append((str(rec.get("gid", len(games))), game.size, turns))
            if limit is not None and len(games) >= limit:
                break
    return games


def symmetry(turns: list[list[int]], size: int, k: int) -> list[list[int]]:
    """Turns mapped by the board symmetry ``k`` (0 = identity … 7; 4–7 swap rows and columns)."""
    n = size - 1
    out = []
    for stones in turns:
        mapped = []
        for p in stones:
            c, r = p % size, p // size
            if k & 4:
                c, r = r, c
            if k & 1:
                c = n - c
            if k & 2:
                r = n - r
            mapped.append(r * size + c)
        out.append(mapped)
    return out


def canonical(turns: list[list[int]], size: int) -> tuple[tuple[int, ...], ...]:
    """The same opening under every symmetry gives the same key (stones per turn sorted)."""
    return min(tuple(tuple(sorted(t)) for t in symmetry(turns, size, k)) for k in range(8))


def derive(games: Iterable[tuple[str, int, list[list[int]]]],
           symmetries: int = 8) -> tuple[list[Position], list[Position]]:
    """(win-in-one positions, must-block positions) from games.

    Every prefix of a game is looked at: when the side to move has a threat window it is a
    win-in-one position; otherwise, when the opponent has threat windows, a must-block one.
    (This includes the two classic ones of a game that ends in a six: before the last turn,
    and before the loser's last turn.)
    """
    wins: list[Position] = []
    blocks: list[Position] = []
    for _gid, size, turns in games:
        try:
            Position.from_turns(turns, size)
        except (IllegalMove, ValueError):
            continue
        for k in range(symmetries):
            t = symmetry(turns, size, k)
            pos = Position(size)
            for k, stones in enumerate(t):
                if k >= 1:
                    board = Board.from_position(pos)
                    s = 0 if pos.to_move.value == "black" else 1
                    if board.thr[s]:
                        wins.append(pos.copy())
                    elif board.thr[1 - s]:
                        blocks.append(pos.copy())
                pos.play(stones)
                if pos.is_over:
                    break
    return wins, blocks
