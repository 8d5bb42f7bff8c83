"""The engine's own board: six-point windows ("roads") with incremental per-colour counts.

Everything here is built for speed in pure Python (see docs/ai.md, "Board"):

* per board size, flat tables built once: ``wins`` (each window's 6 points), ``wof[p]`` (the
  windows through point ``p``), Zobrist keys, neighbour boxes and line neighbourhoods;
* each window has one code ``black + 7 * white`` in a flat list; placing Black adds 1,
  placing White adds 7;
* delta tables give the change of each colour's road score for a placement, so the score is
  kept incrementally; the set of each colour's *threat windows* (≥4 own stones, no enemy
  stone) is kept incrementally too;
* ``place``/``remove`` are make/undo: no copies, no per-node objects.

Colours are ints: 0 Black, 1 White (as in ``Position.cells``).
"""

from __future__ import annotations

import random
from functools import cache

from connect6.rules import Position

# Road weights by own-stone count in a window with no enemy stone (index 0..6). Windows with
# 4 or 5 stones are threats and are handled exactly by the threat logic; their weight here
# only steers ordering.
ROAD = (0, 20, 90, 200, 300, 350, 100_000)

# Evaluation from the side to move: MOVER_W * own roads - OTHER_W * enemy roads (ints). The
# mover's roads weigh more: it plays next. 7 rather than 9 won more games as White against
# Cloudict at depths 2, 4 and 6 (docs/experiments/ai-rounds.md, issue 31, "the enemy's roads").
MOVER_W = 10
OTHER_W = 7


def road_value(code: int, side: int) -> int:
    """``side``'s road score of a window with code ``code`` (0 when the enemy has a stone there)."""
    b, w = code % 7, code // 7
    if side == 0:
        return ROAD[b] if w == 0 else 0
    return ROAD[w] if b == 0 else 0


def _delta_tables() -> tuple[list[list[int]], list[list[int]], list[list[int]], list[list[int]]]:
    """For colour s placing into a window with code c:

    ``d_own[s][c]``: change of s's road score; ``d_opp[s][c]``: change of the enemy's road score;
    ``flag[s][c]``: bit 1 = window becomes an s threat window, bit 2 = window stops being an
    enemy threat window, bit 4 = window becomes *open* for s (≥2 own, no enemy), bit 8 = window
    stops being open for the enemy; ``pscore[s][c]``: the point-score contribution used for ordering
    (the change of the evaluation seen by the enemy, negated).
    """
    d_own: list[list[int]] = [[0] * 49, [0] * 49]
    d_opp: list[list[int]] = [[0] * 49, [0] * 49]
    flag: list[list[int]] = [[0] * 49, [0] * 49]
    pscore: list[list[int]] = [[0] * 49, [0] * 49]
    for s, step in ((0, 1), (1, 7)):
        for c in range(49):
            b, w = c % 7, c // 7
            if b + w >= 6:
                continue
            own_n = (b, w)[s]
            opp_n = (w, b)[s]
            n = c + step
            d_own[s][c] = road_value(n, s) - road_value(c, s)
            d_opp[s][c] = road_value(n, 1 - s) - road_value(c, 1 - s)
            f = 0
            if opp_n == 0 and own_n + 1 >= 4:
                f |= 1
            if own_n == 0 and opp_n >= 4:
                f |= 2
            if opp_n == 0 and own_n + 1 == 2:
                f |= 4
            if own_n == 0 and opp_n >= 2:
                f |= 8
            flag[s][c] = f
            pscore[s][c] = OTHER_W * d_own[s][c] - MOVER_W * d_opp[s][c]
    return d_own, d_opp, flag, pscore


D_OWN, D_OPP, FLAG, PSCORE = _delta_tables()


class Tables:
    """Per-size constant tables (built once per size, a few ms)."""

    __slots__ = ("area", "box", "lines", "n", "nwin", "wins", "wof", "zob")

    def __init__(self, n: int) -> None:
        self.n = n
        self.area = n * n
        wins: list[tuple[int, ...]] = []
        wof: list[list[int]] = [[] for _ in range(self.area)]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            for r in range(n):
                for c in range(n):
                    er, ec = r + 5 * dr, c + 5 * dc
                    if not (0 <= er < n and 0 <= ec < n):
                        continue
                    cells = tuple((r + k * dr) * n + (c + k * dc) for k in range(6))
                    wid = len(wins)
                    wins.append(cells)
                    for p in cells:
                        wof[p].append(wid)
        self.wins: tuple[tuple[int, ...], ...] = tuple(wins)
        self.nwin = len(wins)
        self.wof: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in wof)
        rnd = random.Random(0xC6C6 + n)  # nosec B311 # Zobrist keys: fixed seed, hashing, not security
        self.zob: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(rnd.getrandbits(64) for _ in range(self.area)),
            tuple(rnd.getrandbits(64) for _ in range(self.area)),
        )
        box: list[tuple[int, ...]] = []
        lines: list[tuple[int, ...]] = []
        for p in range(self.area):
            r, c = divmod(p, n)
            box.append(tuple(rr * n + cc for rr in range(max(0, r - 2), min(n, r + 3))
                             for cc in range(max(0, c - 2), min(n, c + 3)) if (rr, cc) != (r, c)))
            ln = []
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
                    rr, cc = r + k * dr, c + k * dc
                    if 0 <= rr < n and 0 <= cc < n:
                        ln.append(rr * n + cc)
            lines.append(tuple(ln))
        self.box: tuple[tuple[int, ...], ...] = tuple(box)
        self.lines: tuple[tuple[int, ...], ...] = tuple(lines)


@cache
def tables(n: int) -> Tables:
    return Tables(n)


class Board:
    """Mutable search board. ``place(p, s)`` and ``remove(p, s)`` must be paired (LIFO)."""

    __slots__ = ("area", "box", "cells", "code", "hash", "n", "near", "open", "score", "stones", "t",
                 "thr", "wins", "wof")

    def __init__(self, n: int) -> None:
        t = tables(n)
        self.t = t
        self.n = n
        self.area = t.area
        self.wins = t.wins
        self.wof = t.wof
        self.box = t.box
        self.cells: list[int] = [-1] * t.area
        self.code: list[int] = [0] * t.nwin
        self.score: list[int] = [0, 0]
        self.thr: tuple[set[int], set[int]] = (set(), set())
        # Open windows per colour: at least two own stones and no enemy stone.
        self.open: tuple[set[int], set[int]] = (set(), set())
        self.near: list[int] = [0] * t.area
        self.hash = 0
        self.stones = 0

    @classmethod
    def from_position(cls, position: Position) -> Board:
        board = cls(position.size)
        for p, v in enumerate(position.cells):
            if v >= 0:
                board.place(p, v)
        return board

    def place(self, p: int, s: int) -> None:
        self.cells[p] = s
        code = self.code
        sc = self.score
        own = 0
        opp = 0
        if s == 0:
            d_own, d_opp, flag = D_OWN[0], D_OPP[0], FLAG[0]
            mine, theirs = self.thr
            omine, otheirs = self.open
            for w in self.wof[p]:
                c = code[w]
                code[w] = c + 1
                own += d_own[c]
                opp += d_opp[c]
                f = flag[c]
                if f:
                    if f & 1:
                        mine.add(w)
                    if f & 2:
                        theirs.discard(w)
                    if f & 4:
                        omine.add(w)
                    if f & 8:
                        otheirs.discard(w)
            sc[0] += own
            sc[1] += opp
        else:
            d_own, d_opp, flag = D_OWN[1], D_OPP[1], FLAG[1]
            theirs, mine = self.thr
            otheirs, omine = self.open
            for w in self.wof[p]:
                c = code[w]
                code[w] = c + 7
                own += d_own[c]
                opp += d_opp[c]
                f = flag[c]
                if f:
                    if f & 1:
                        mine.add(w)
                    if f & 2:
                        theirs.discard(w)
                    if f & 4:
                        omine.add(w)
                    if f & 8:
                        otheirs.discard(w)
            sc[1] += own
            sc[0] += opp
        near = self.near
        for q in self.box[p]:
            near[q] += 1
        self.hash ^= self.t.zob[s][p]
        self.stones += 1

    def remove(self, p: int, s: int) -> None:
        self.cells[p] = -1
        code = self.code
        sc = self.score
        own = 0
        opp = 0
        step = 1 if s == 0 else 7
        d_own, d_opp, flag = D_OWN[s], D_OPP[s], FLAG[s]
        mine = self.thr[s]
        theirs = self.thr[1 - s]
        omine = self.open[s]
        otheirs = self.open[1 - s]
        for w in self.wof[p]:
            c = code[w] - step
            code[w] = c
            own += d_own[c]
            opp += d_opp[c]
            f = flag[c]
            if f:
                if f & 1:
                    mine.discard(w)
                if f & 2:
                    theirs.add(w)
                if f & 4:
                    omine.discard(w)
                if f & 8:
                    otheirs.add(w)
        sc[s] -= own
        sc[1 - s] -= opp
        near = self.near
        for q in self.box[p]:
            near[q] -= 1
        self.hash ^= self.t.zob[s][p]
        self.stones -= 1

    # ------------------------------------------------------------------ queries
    def evaluate(self, s: int) -> int:
        """Static value for side ``s`` to move (no threat terms; callers check those)."""
        sc = self.score
        return MOVER_W * sc[s] - OTHER_W * sc[1 - s]

    def threes(self, s: int) -> int:
        """How many windows hold exactly three of ``s``'s stones and no enemy stone (one more
        stone in any of them is a four)."""
        clean = CLEAN[s]
        code = self.code
        return sum(1 for w in self.open[s] if clean[code[w]] == 3)

    def threat_sets(self, s: int) -> list[tuple[int, ...]]:
        """The empty points of each of ``s``'s threat windows (deduplicated)."""
        cells = self.cells
        wins = self.wins
        out = {tuple([q for q in wins[w] if cells[q] < 0]) for w in self.thr[s]}
        return sorted(out, key=len)

    def candidates(self) -> list[int]:
        cells = self.cells
        near = self.near
        return [q for q in range(self.area) if near[q] and cells[q] < 0]


def count_hits(sets: list[tuple[int, ...]], limit: int = 3) -> int:
    """min(size of a minimum hitting set of ``sets``, ``limit``): the exact threat count."""
    if not sets:
        return 0
    best = limit
    for e in sets[0]:
        rest = [x for x in sets if e not in x]
        if not rest:
            return 1
        if best > 2:
            r = 1 + count_hits(rest, best - 1)
            if r < best:
                best = r
    return best


def hitting_moves(sets: list[tuple[int, ...]]) -> tuple[list[int], list[tuple[int, int]]]:
    """All ways to hit every set with at most two stones.

    Returns ``(singles, pairs)``: points that alone hit every set (to be paired with any free
    stone), and pairs ``(a, b)``, ``a < b``, neither of which alone hits every set but together
    they do. Both empty means the sets cannot be hit with two stones.
    """
    if not sets:
        return [], []
    singles: list[int] = []
    pairs: set[tuple[int, int]] = set()
    first = sets[0]
    for a in first:
        rest = [x for x in sets if a not in x]
        if not rest:
            singles.append(a)
    single_set = set(singles)
    for a in first:
        if a in single_set:
            continue
        rest = [x for x in sets if a not in x]
        for b in rest[0]:
            if b in single_set:
                continue
            if all(b in x for x in rest):
                pairs.add((a, b) if a < b else (b, a))
    return singles, sorted(pairs)


def _clean_tables() -> tuple[list[int], list[int]]:
    """``CLEAN[s][code]``: s's stone count in a window with no enemy stone, else 0."""
    out: tuple[list[int], list[int]] = ([0] * 49, [0] * 49)
    for c in range(49):
        b, w = c % 7, c // 7
        out[0][c] = b if w == 0 else 0
        out[1][c] = w if b == 0 else 0
    return out


CLEAN = _clean_tables()


def _dps_tables() -> tuple[list[int], list[int]]:
    """``DPS[s][c]``: how much s's point score of another point in a window with code ``c``
    changes once s has placed a stone in that window (same-window synergy of a pair)."""
    out: tuple[list[int], list[int]] = ([0] * 49, [0] * 49)
    for s, step in ((0, 1), (1, 7)):
        for c in range(49):
            b, w = c % 7, c // 7
            if b + w >= 5:
                continue
            out[s][c] = PSCORE[s][c + step] - PSCORE[s][c]
    return out


DPS = _dps_tables()
