"""The engine: root pipeline and search over two-stone moves."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from c6base_v0.board import Board, count_hits
from c6base_v0.movegen import defence_pairs, desperate_pair, normal_pairs, win_now
from connect6.rules import Position

WIN = 10_000_000


@dataclass(frozen=True)
class SearchResult:
    stones: tuple[int, ...]
    reason: str
    score: int = 0
    depth: int = 0
    nodes: int = 0
    elapsed: float = 0.0


class Engine:
    def __init__(self, position: Position, level: str, budget: float, rng: random.Random,
                 max_depth: int | None = None) -> None:
        self.position = position
        self.level = level
        self.budget = budget
        self.rng = rng
        self.max_depth = max_depth
        self.start = time.perf_counter()
        self.board = Board.from_position(position)
        self.side = 0 if position.to_move.value == "black" else 1
        self.nodes = 0

    def _result(self, stones: tuple[int, ...], reason: str, score: int = 0,
                depth: int = 0) -> SearchResult:
        return SearchResult(stones, reason, score, depth, self.nodes,
                            time.perf_counter() - self.start)

    def run(self) -> SearchResult:
        position = self.position
        board = self.board
        s = self.side
        need = position.stones_to_place
        if need == 1:
            empties = [q for q in range(board.area) if board.cells[q] < 0]
            centre = (board.n // 2) * board.n + board.n // 2
            if board.stones == 0 and board.cells[centre] < 0:
                return self._result((centre,), "opening at the centre")
            win = win_now(board, s)
            if win is not None:
                return self._result((win[0],), "wins now")
            return self._result((empties[0],), "last point")
        win = win_now(board, s)
        if win is not None:
            return self._result(win, "wins now", WIN)
        sets = board.threat_sets(1 - s)
        if sets:
            t = count_hits(sets)
            if t >= 3:
                return self._result(desperate_pair(board, s, sets),
                                    "lost against best play: blocks what it can", -WIN)
            moves = defence_pairs(board, s, sets, 6)
            best = self._one_ply(moves)
            return self._result(best, "blocks a six")
        moves = normal_pairs(board, s, 10, 4)
        return self._result(self._one_ply(moves), "strongest shape")

    def _one_ply(self, moves: list[tuple[int, int, int]]) -> tuple[int, int]:
        board = self.board
        s = self.side
        best = (moves[0][1], moves[0][2])
        best_v = -(WIN * 2)
        for _, a, b in moves:
            board.place(a, s)
            board.place(b, s)
            self.nodes += 1
            if board.thr[1 - s]:
                v = -WIN
            else:
                mine = count_hits(board.threat_sets(s))
                v = WIN // 2 if mine >= 3 else -board.evaluate(1 - s) + 5000 * mine
            board.remove(b, s)
            board.remove(a, s)
            if v > best_v:
                best_v = v
                best = (a, b)
        return best
