"""Move generation over two-stone turns: win now, forced defence, ranked pairs.

A pair is ``(a, b)`` with ``a`` the first stone (when one stone wins, it goes first). The
generators return lists of ``(score, a, b)`` sorted best first; scores are only for ordering.
"""

from __future__ import annotations

from connect6.ai.board import DPS, PSCORE, Board, hitting_moves


def point_scores(board: Board, s: int, points: list[int] | set[int]) -> list[tuple[int, int]]:
    """``(score, point)`` for each point, best first."""
    ps = PSCORE[s]
    code = board.code
    wof = board.wof
    out = [(sum([ps[code[w]] for w in wof[q]]), q) for q in points]
    out.sort(reverse=True)
    return out


def first_candidates(board: Board) -> list[int]:
    cands = board.candidates()
    if not cands:
        cells = board.cells
        centre = (board.n // 2) * board.n + board.n // 2
        if cells[centre] < 0:
            return [centre]
        return [q for q in range(board.area) if cells[q] < 0]
    return cands


def best_free(board: Board, s: int, exclude: tuple[int, ...], k: int) -> list[tuple[int, int]]:
    """The ``k`` best single points for ``s`` other than ``exclude``."""
    cands = [q for q in first_candidates(board) if q not in exclude]
    if len(cands) < k:
        extra = [q for q in range(board.area) if board.cells[q] < 0 and q not in exclude
                 and q not in cands]
        cands.extend(extra[: k - len(cands)])
    return point_scores(board, s, cands)[:k]


def win_now(board: Board, s: int) -> tuple[int, int] | None:
    """A pair with which ``s`` makes six this turn (the winning stone first), or None."""
    sets = board.threat_sets(s)
    if not sets:
        return None
    empties = sets[0]
    if len(empties) >= 2:
        return empties[0], empties[1]
    a = empties[0]
    free = best_free(board, s, (a,), 1)
    if not free:
        return None
    return a, free[0][1]


def _synergy(board: Board, s: int, a: int) -> dict[int, int]:
    """Change of s's point score at each point sharing a window with ``a`` once s plays ``a``."""
    dps = DPS[s]
    code = board.code
    wins = board.wins
    out: dict[int, int] = {}
    for w in board.wof[a]:
        d = dps[code[w]]
        if d:
            for q in wins[w]:
                out[q] = out.get(q, 0) + d
    return out


def _seconds(board: Board, s: int, a: int, base: dict[int, int], pool: list[int],
             k: int) -> list[tuple[int, int]]:
    """The ``k`` best second stones after ``a``: base scores plus same-window synergy."""
    syn = _synergy(board, s, a)
    cells = board.cells
    ps = PSCORE[s]
    code = board.code
    wof = board.wof
    out = []
    for q in pool:
        if q != a:
            out.append((base[q] + syn.get(q, 0), q))
    for q, d in syn.items():
        if d > 0 and q != a and q not in base and cells[q] < 0:
            v = sum([ps[code[w]] for w in wof[q]]) + d
            base[q] = v - d
            out.append((v, q))
        elif d > 0 and q != a and cells[q] < 0 and q in base and q not in pool:
            out.append((base[q] + d, q))
    out.sort(reverse=True)
    return out[:k]


def normal_pairs(board: Board, s: int, k1: int, k2: int,
                 zone: set[int] | None = None) -> list[tuple[int, int, int]]:
    """Pairs from the ``k1`` best first stones, each with its ``k2`` best second stones
    scored as if the first were placed (this sees same-window synergy). With ``zone``, the
    first stones are the best points of the zone (the second stones are free)."""
    scored = point_scores(board, s, first_candidates(board))
    base = {q: v for v, q in scored}
    if zone is None:
        firsts = scored[:k1]
    else:
        cells = board.cells
        extra = [q for q in zone if cells[q] < 0 and q not in base]
        if extra:
            for v, q in point_scores(board, s, extra):
                base[q] = v
        firsts = sorted([(base[q], q) for q in zone if cells[q] < 0], reverse=True)[:k1]
    pool = [q for _, q in scored[: k1 + k2 + 2]]
    pairs: dict[tuple[int, int], int] = {}
    for sa, a in firsts:
        for sb, b in _seconds(board, s, a, base, pool, k2):
            key = (a, b) if a < b else (b, a)
            v = sa + sb
            if pairs.get(key, -(1 << 60)) < v:
                pairs[key] = v
    out = [(v, a, b) for (a, b), v in pairs.items()]
    out.sort(reverse=True)
    return out


def defence_pairs(board: Board, s: int, sets: list[tuple[int, ...]],
                  k_free: int) -> list[tuple[int, int, int]]:
    """Every pair that hits all of the enemy's threat windows (``sets``): the minimal pairs
    and, for each point that alone hits everything, that point with the ``k_free`` best free
    stones. Empty when no two stones can stop the enemy (see :func:`desperate_pair`)."""
    singles, pairs = hitting_moves(sets)
    ps = PSCORE[s]
    code = board.code
    wof = board.wof
    out: dict[tuple[int, int], int] = {}
    for a, b in pairs:
        va = sum([ps[code[w]] for w in wof[a]])
        vb = sum([ps[code[w]] for w in wof[b]]) + _synergy(board, s, a).get(b, 0)
        out[(a, b)] = va + vb
    if singles:
        scored = point_scores(board, s, first_candidates(board))
        base = {q: v for v, q in scored}
        pool = [q for _, q in scored[: k_free + 3]]
        for a in singles:
            va = base[a] if a in base else sum([ps[code[w]] for w in wof[a]])
            for vb, b in _seconds(board, s, a, base, pool, k_free):
                key = (a, b) if a < b else (b, a)
                if out.get(key, -(1 << 60)) < va + vb:
                    out[key] = va + vb
    res = [(v, a, b) for (a, b), v in out.items()]
    res.sort(reverse=True)
    return res


def desperate_pair(board: Board, s: int, sets: list[tuple[int, ...]]) -> tuple[int, int]:
    """When the enemy has three or more threats: the pair that hits the most threat windows
    (an opponent may still miss the win)."""
    counts: dict[int, int] = {}
    for x in sets:
        for q in x:
            counts[q] = counts.get(q, 0) + 1
    a = max(sorted(counts), key=lambda q: counts[q])
    rest = [x for x in sets if a not in x]
    counts2: dict[int, int] = {}
    for x in rest:
        for q in x:
            counts2[q] = counts2.get(q, 0) + 1
    b = max(sorted(counts2), key=lambda q: counts2[q]) if counts2 else best_free(board, s, (a,), 1)[0][1]
    return a, b
