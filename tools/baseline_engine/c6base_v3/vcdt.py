"""Victory by continuous double threats (VCDT), for attack and for defence.

Every attacker turn must leave at least two threats (so both defending stones are forced)
until a turn leaves three or more, which cannot be stopped. The defender's replies are all
pairs that hit every attacker threat window; threats the defender's blocks create must be hit
by the attacker's next pair (else the line fails). Failures are cached by (hash, depth);
iterative deepening on the number of attacker turns finds the shortest proof first. The
search is capped by wall-clock (``Timeout`` from the caller's clock check).
"""

from __future__ import annotations

import time

from c6base_v3.board import CLEAN, Board, count_hits, hitting_moves


class Timeout(Exception):
    """The search ran out of its time."""


class Vcdt:
    def __init__(self, board: Board, deadline: float, max_pairs: int = 40) -> None:
        self.board = board
        self.deadline = deadline
        self.nodes = 0
        self.fail: dict[int, int] = {}
        self.max_pairs = max_pairs

    def solve(self, s: int, max_depth: int) -> tuple[int, tuple[int, int]] | None:
        """``(attacker turns to the six, first pair)`` if ``s`` (to move) wins by VCDT within
        ``max_depth`` double-threat turns, else None. Raises :class:`Timeout`."""
        board = self.board
        if board.thr[s]:
            return None  # an immediate win is not this search's business
        for depth in range(1, max_depth + 1):
            pair = self._attack(s, depth)
            if pair is not None:
                return depth + 1, pair
        return None

    def _pairs(self, s: int) -> tuple[list[tuple[int, int]], dict[int, list[tuple[int, tuple[int, ...]]]]]:
        """Attacker pairs that might leave two or more threats, best first, and for each
        point the attacker's open windows (own count 2 or 3, their empty points) through it."""
        board = self.board
        code = board.code
        cells = board.cells
        wins = board.wins
        clean = CLEAN[s]
        weight: dict[int, int] = {}
        through: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        singles: set[int] = set()
        twos: list[tuple[int, ...]] = []
        for w in sorted(board.open[s]):
            k = clean[code[w]]
            if k >= 2:
                empties = tuple([q for q in wins[w] if cells[q] < 0])
                if k == 3:
                    singles.update(empties)
                else:
                    twos.append(empties)
                inc = k * k
                entry = (k, empties)
                for q in empties:
                    weight[q] = weight.get(q, 0) + inc
                    lst = through.get(q)
                    if lst is None:
                        through[q] = [entry]
                    else:
                        lst.append(entry)
        pairs: dict[tuple[int, int], int] = {}
        single_list = sorted(singles, key=lambda q: -weight[q])
        for i, a in enumerate(single_list):
            wa = weight[a]
            for b in single_list[i + 1:]:
                key = (a, b) if a < b else (b, a)
                pairs[key] = wa + weight[b]
        for empties in twos:
            for i, a in enumerate(empties):
                for b in empties[i + 1:]:
                    key = (a, b) if a < b else (b, a)
                    if key not in pairs:
                        pairs[key] = weight[a] + weight[b]
        ranked = sorted(pairs, key=lambda k: -pairs[k])
        return ranked, through

    @staticmethod
    def _made(a: int, b: int, through: dict[int, list[tuple[int, tuple[int, ...]]]]
              ) -> list[tuple[int, ...]]:
        """The empty points of the threat windows the pair (a, b) would make, without placing."""
        out = []
        for k, em in through.get(a, ()):
            if k == 3 or b in em:
                out.append(tuple([q for q in em if q != a and q != b]))
        for k, em in through.get(b, ()):
            if k == 3 and a not in em:
                out.append(tuple([q for q in em if q != b]))
        return out

    def _attack(self, s: int, depth: int) -> tuple[int, int] | None:
        board = self.board
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise Timeout
        key = board.hash ^ (0x9E3779B97F4A7C15 if s else 0)
        if self.fail.get(key, 0) >= depth:
            return None
        o = 1 - s
        opp_sets = board.threat_sets(o) if board.thr[o] else None
        candidates, through = self._pairs(s)
        if opp_sets:
            singles, hpairs = hitting_moves(opp_sets)
            if not singles and not hpairs:
                self.fail[key] = depth
                return None
            allowed = set(hpairs)
            single_set = set(singles)
            candidates = [p for p in candidates
                          if p in allowed or p[0] in single_set or p[1] in single_set]
        tried = 0
        place = board.place
        remove = board.remove
        made = self._made
        for i, (a, b) in enumerate(candidates):
            if (i & 7) == 7 and time.perf_counter() > self.deadline:
                raise Timeout
            # The attacker has no threat window here, so the windows the pair makes are
            # exactly its threat windows afterwards: count them without placing anything.
            sets = made(a, b, through)
            if len(sets) < 2:
                continue
            t = count_hits(sets)
            if t < 2:
                continue
            if t >= 3:
                return a, b
            if depth <= 1:
                continue  # a double threat needs another turn to win: not within this depth
            tried += 1
            place(a, s)
            place(b, s)
            ok = True
            _, defences = hitting_moves(sets)
            for c, d in defences:
                place(c, o)
                place(d, o)
                r = self._attack(s, depth - 1)
                remove(d, o)
                remove(c, o)
                if r is None:
                    ok = False
                    break
            remove(b, s)
            remove(a, s)
            if ok:
                return a, b
            if tried >= self.max_pairs:
                break
        self.fail[key] = depth
        return None
