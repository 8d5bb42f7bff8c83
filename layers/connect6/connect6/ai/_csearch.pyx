# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The engine's searches in C, for speed: the VCDT solver and alpha-beta below the root.

The Python code is the reference and the fallback. This module is a twin of it, not a variant:
an engine using it must play exactly the moves of the pure engine, and when it is not built (no
C compiler, another Python) ``vcdt.py`` and ``search.py`` run their own methods instead. What it
mirrors, and what must stay equal when either side changes:

* Entry points. ``Core.solve`` is ``Vcdt.solve`` after its own threat check (``_attack``, with
  ``_pairs`` and ``_made``); ``Core.doubles`` is ``Vcdt.doubles``; ``Core.search`` is
  ``Engine._ab`` (with ``Engine._leaf_vcdt`` at quiet leaves); ``Core.normal_pairs`` and
  ``Core.defence_pairs`` are movegen's ``normal_pairs`` and ``defence_pairs`` (no zone); the
  internal ``count_hits_all`` and ``hitting`` are board's ``count_hits`` and ``hitting_moves``.
* Candidates and their order: the same pairs, ranked the same way and cut at the same widths (the
  level's ``inner`` rows, ``max_pairs``, ``FREE_PARTNERS``). Where the Python code relies on the
  order of a dict or a stable sort, this code keeps an insertion index; its qsort comparators
  say which Python sort each one stands for.
* Tables: the point-score, clean-window, synergy and road tables and the evaluation weights come
  from ``board.py`` through ``Core(...)`` (``vcdt.core_for``), the constants from ``search.py``
  and ``vcdt.py`` through ``set_search_constants`` / ``set_vcdt_constants``, called by those
  modules at their import. Nothing here is a copy of a Python value, except the internal
  capacities below.
* Shared state: the caller's VCDT failure table (a dict keyed by the same Zobrist hash xor
  ``vcdt.ATTACKER_KEY``), the caller's transposition table (the same ``(depth, value, flag, a,
  b)`` entries keyed by hash xor ``search.SIDE_KEY``) and the proof's zone (the caller's set)
  end up with exactly what the Python code would put there.
* Node counts: a node is counted where the Python code counts one (``Vcdt.nodes``,
  ``Engine.nodes``), and ``node_limit`` ends a search at the same node.
* Clock checks: the clock is the caller's ``now`` function, read where the Python code reads it
  (each VCDT attacker node and every eighth candidate pair, each alpha-beta interior node); a run
  out of time returns ``TIMEOUT`` (or ``timed out``) and the caller raises its ``Timeout``.

Internal capacities with no Python counterpart: at most ``MAXSETS`` (64) distinct threat sets per
side and 36 hitting pairs per node (a threat set has at most 6 points), at most 64 points in a
move generator's second-stone pool (the widest level asks for 19). A position that needed more
would differ from the Python code; none of the test or bench positions comes near.

It keeps its own copy of the board (cells, window codes, threat-window counts, neighbour counts,
hash), loaded from the caller's ``Board`` at each call, and never touches the caller's board.

Checked by ``tests/unit/ai/test_csearch.py`` (every observable result on Little Golem positions),
``tests/unit/ai/test_compiled.py`` (the whole engine against the pure one in a subprocess) and,
wider, ``make csearch-diff``; ``tools/lab/bench_ai.py --vcdt`` prints a checksum of the verdicts.
"""

from libc.stdlib cimport malloc, free, realloc, qsort
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t

# Capacity of a threat-set list (see the contract above: no position comes near it).
cdef enum:
    MAXSETS = 64

# The Python modules' constants, not copies: module-level C variables that search.py and vcdt.py
# set at their import (set_search_constants, set_vcdt_constants) from their own names. Until both
# have run, the entry points refuse to search (a zero WIN would score every win as a draw).
cdef long AB_WIN = 0          # search.WIN
cdef long AB_MATE = 0         # search.MATE
cdef long AB_INF = 0          # search.INF
cdef int AB_EXACT = 0         # search.EXACT, LOWER, UPPER: the transposition table's bound flags
cdef int AB_LOWER = 0
cdef int AB_UPPER = 0
cdef int AB_QUIESCENCE = 0    # search.QUIESCENCE
cdef long AB_THREATENED = 0   # search.THREATENED
cdef uint64_t AB_SIDE_KEY = 0  # search.SIDE_KEY
cdef bint _search_set = False
cdef int FREE_PARTNERS = 0    # vcdt.FREE_PARTNERS
cdef uint64_t ATTACKER_KEY = 0  # vcdt.ATTACKER_KEY
cdef bint _vcdt_set = False

FOUND = 1
NONE = 0
TIMEOUT = -1


def set_search_constants(*, win, mate, inf, exact, lower, upper, quiescence, threatened, side_key):
    """search.py's constants, passed by search.py at its import."""
    global AB_WIN, AB_MATE, AB_INF, AB_EXACT, AB_LOWER, AB_UPPER, AB_QUIESCENCE, AB_THREATENED
    global AB_SIDE_KEY, _search_set
    AB_WIN = win
    AB_MATE = mate
    AB_INF = inf
    AB_EXACT = exact
    AB_LOWER = lower
    AB_UPPER = upper
    AB_QUIESCENCE = quiescence
    AB_THREATENED = threatened
    AB_SIDE_KEY = side_key
    _search_set = True


def set_vcdt_constants(*, free_partners, attacker_key):
    """vcdt.py's constants, passed by vcdt.py at its import."""
    global FREE_PARTNERS, ATTACKER_KEY, _vcdt_set
    FREE_PARTNERS = free_partners
    ATTACKER_KEY = attacker_key
    _vcdt_set = True


cdef int _require(bint search) except -1:
    if not _vcdt_set or (search and not _search_set):
        raise RuntimeError("connect6.ai._csearch: its constants are not set (import connect6.ai.vcdt "
                           "and connect6.ai.search, which pass them, before searching)")
    return 0


cdef struct PairRec:
    long value
    int index
    int a
    int b


cdef int _cmp_pairs(const void* x, const void* y) noexcept nogil:
    # Value descending, then insertion order: Python's stable sorted(..., reverse=True).
    cdef const PairRec* p = <const PairRec*> x
    cdef const PairRec* q = <const PairRec*> y
    if p.value != q.value:
        return -1 if p.value > q.value else 1
    return p.index - q.index


cdef struct ScoreRec:
    long score
    int q


cdef int _cmp_scores(const void* x, const void* y) noexcept nogil:
    # (score, point) descending: Python's list of tuples sorted with reverse=True.
    cdef const ScoreRec* p = <const ScoreRec*> x
    cdef const ScoreRec* r = <const ScoreRec*> y
    if p.score != r.score:
        return -1 if p.score > r.score else 1
    if p.q != r.q:
        return -1 if p.q > r.q else 1
    return 0


cdef struct PointKey:
    long key
    int q


cdef int _cmp_points(const void* x, const void* y) noexcept nogil:
    # (key, point) ascending: with a negated weight or window count as the key, vcdt.py's
    # single_list and its blocks' threat points.
    cdef const PointKey* p = <const PointKey*> x
    cdef const PointKey* r = <const PointKey*> y
    if p.key != r.key:
        return -1 if p.key < r.key else 1
    return -1 if p.q < r.q else (1 if p.q > r.q else 0)


cdef int _cmp_moves(const void* x, const void* y) noexcept nogil:
    # (value, a, b) descending: the generators' list of tuples sorted with reverse=True.
    cdef const PairRec* p = <const PairRec*> x
    cdef const PairRec* q = <const PairRec*> y
    if p.value != q.value:
        return -1 if p.value > q.value else 1
    if p.a != q.a:
        return -1 if p.a > q.a else 1
    if p.b != q.b:
        return -1 if p.b > q.b else 1
    return 0


cdef int _cmp_int_pairs(const void* x, const void* y) noexcept nogil:
    cdef const int* p = <const int*> x
    cdef const int* r = <const int*> y
    if p[0] != r[0]:
        return -1 if p[0] < r[0] else 1
    return -1 if p[1] < r[1] else (1 if p[1] > r[1] else 0)


cdef struct Sets:
    int n
    int len[MAXSETS]
    int pts[MAXSETS][6]


cdef inline bint _in_set(Sets* st, int i, int e) noexcept nogil:
    cdef int j
    for j in range(st.len[i]):
        if st.pts[i][j] == e:
            return True
    return False


cdef int _count_hits(Sets* st, int* idx, int nidx, int limit) noexcept nogil:
    """min(size of a minimum hitting set of the sets ``idx``, ``limit``) (board.count_hits)."""
    cdef int best, j, e, k, nrest, r, first
    cdef int rest[MAXSETS]
    if nidx == 0:
        return 0
    best = limit
    first = idx[0]
    for j in range(st.len[first]):
        e = st.pts[first][j]
        nrest = 0
        for k in range(nidx):
            if not _in_set(st, idx[k], e):
                rest[nrest] = idx[k]
                nrest += 1
        if nrest == 0:
            return 1
        if best > 2:
            r = 1 + _count_hits(st, rest, nrest, best - 1)
            if r < best:
                best = r
    return best


cdef int count_hits_all(Sets* st, int limit) noexcept nogil:
    cdef int idx[MAXSETS]
    cdef int i
    for i in range(st.n):
        idx[i] = i
    return _count_hits(st, idx, st.n, limit)


cdef int hitting(Sets* st, int* singles, int* nsingles, int* pairs) noexcept nogil:
    """board.hitting_moves: the points of the first set that hit every set (in its order), and
    the pairs (a < b, sorted) that hit every set while neither alone does; returns their count
    (``pairs`` holds two ints a pair, room for 36 pairs)."""
    cdef int i, j, k, a, b, npairs = 0, ok, nrest, x, y, dup
    cdef int rest[MAXSETS]
    nsingles[0] = 0
    if st.n == 0:
        return 0
    for j in range(st.len[0]):
        a = st.pts[0][j]
        ok = 1
        for k in range(1, st.n):
            if not _in_set(st, k, a):
                ok = 0
                break
        if ok:
            singles[nsingles[0]] = a
            nsingles[0] += 1
    for j in range(st.len[0]):
        a = st.pts[0][j]
        ok = 0
        for k in range(nsingles[0]):
            if singles[k] == a:
                ok = 1
        if ok:
            continue
        nrest = 0
        for k in range(st.n):
            if not _in_set(st, k, a):
                rest[nrest] = k
                nrest += 1
        for i in range(st.len[rest[0]]):
            b = st.pts[rest[0]][i]
            ok = 0
            for k in range(nsingles[0]):
                if singles[k] == b:
                    ok = 1
            if ok:
                continue
            ok = 1
            for k in range(nrest):
                if not _in_set(st, rest[k], b):
                    ok = 0
                    break
            if not ok:
                continue
            x = a if a < b else b
            y = b if a < b else a
            dup = 0
            for k in range(npairs):
                if pairs[2 * k] == x and pairs[2 * k + 1] == y:
                    dup = 1
                    break
            if not dup and npairs < 36:
                pairs[2 * npairs] = x
                pairs[2 * npairs + 1] = y
                npairs += 1
    qsort(pairs, npairs, 2 * sizeof(int), _cmp_int_pairs)
    return npairs


cdef struct Node:
    # The attacker's open windows through each point, in the order the Python dict ``through``
    # was filled: ``pts`` (first appearance), and per point its windows.
    int npts
    int* idx      # point -> index in pts, or -1
    int* pts
    int* off      # npts + 1 offsets into wl
    int* wl
    int* cand     # candidate pairs, two ints each
    int ncand


cdef void node_free(Node* nd) noexcept nogil:
    free(nd.idx)
    free(nd.pts)
    free(nd.off)
    free(nd.wl)
    free(nd.cand)


cdef class Core:
    """One board size's tables and a search board; ``solve`` and ``doubles`` as in ``Vcdt``."""

    cdef int n, area, nwin
    cdef int* wins        # nwin * 6
    cdef int* wof_off     # area + 1
    cdef int* wof
    cdef int* box_off
    cdef int* box
    cdef uint64_t* zob    # 2 * area
    cdef long ps[2][49]
    cdef int clean[2][49]
    cdef long d_own[2][49]
    cdef long d_opp[2][49]
    cdef long dps[2][49]
    cdef long road[2][49]
    cdef long mover_w, other_w
    cdef long score[2]
    # The search board.
    cdef signed char* cells
    cdef int* code
    cdef int* near
    cdef int thr_n[2]
    cdef int threes[2]  # windows with exactly three own stones and no enemy stone, per colour
    cdef uint64_t hash
    # Scratch for _pairs (only while building a node's candidates).
    cdef long* weight
    cdef int* in_singles
    cdef int* ptab_key
    cdef int* ptab_val
    cdef int* ptab_gen
    cdef int ptab_cap
    cdef int gen
    cdef PairRec* recs
    cdef int recs_cap
    # Per call.
    cdef object fail
    cdef object zone
    cdef object now
    cdef double deadline
    cdef long nodes
    cdef long node_limit
    cdef int max_pairs
    cdef int timed_out
    cdef int attacker

    def __cinit__(self, tables, pscore, clean, d_own, d_opp, dps, road, mover_w, other_w):
        cdef int i, j, k, w, p
        self.n = tables.n
        self.area = tables.area
        self.nwin = tables.nwin
        self.wins = <int*> malloc(self.nwin * 6 * sizeof(int))
        for w in range(self.nwin):
            for j in range(6):
                self.wins[w * 6 + j] = tables.wins[w][j]
        self.wof_off = <int*> malloc((self.area + 1) * sizeof(int))
        self.box_off = <int*> malloc((self.area + 1) * sizeof(int))
        k = 0
        for p in range(self.area):
            self.wof_off[p] = k
            k += len(tables.wof[p])
        self.wof_off[self.area] = k
        self.wof = <int*> malloc((k + 1) * sizeof(int))
        for p in range(self.area):
            for j, w in enumerate(tables.wof[p]):
                self.wof[self.wof_off[p] + j] = w
        k = 0
        for p in range(self.area):
            self.box_off[p] = k
            k += len(tables.box[p])
        self.box_off[self.area] = k
        self.box = <int*> malloc((k + 1) * sizeof(int))
        for p in range(self.area):
            for j, q in enumerate(tables.box[p]):
                self.box[self.box_off[p] + j] = q
        self.zob = <uint64_t*> malloc(2 * self.area * sizeof(uint64_t))
        for p in range(self.area):
            self.zob[p] = <uint64_t> tables.zob[0][p]
            self.zob[self.area + p] = <uint64_t> tables.zob[1][p]
        for i in range(2):
            for j in range(49):
                self.ps[i][j] = pscore[i][j]
                self.clean[i][j] = clean[i][j]
                self.d_own[i][j] = d_own[i][j]
                self.d_opp[i][j] = d_opp[i][j]
                self.dps[i][j] = dps[i][j]
                self.road[i][j] = road[i][j]
        self.mover_w = mover_w
        self.other_w = other_w
        self.cells = <signed char*> malloc(self.area)
        self.code = <int*> malloc(self.nwin * sizeof(int))
        self.near = <int*> malloc(self.area * sizeof(int))
        self.weight = <long*> malloc(self.area * sizeof(long))
        memset(self.weight, 0, self.area * sizeof(long))
        self.in_singles = <int*> malloc(self.area * sizeof(int))
        memset(self.in_singles, 0, self.area * sizeof(int))
        self.ptab_cap = 0
        self.ptab_key = NULL
        self.ptab_val = NULL
        self.ptab_gen = NULL
        self.gen = 0
        self.recs = NULL
        self.recs_cap = 0

    def __dealloc__(self):
        free(self.wins)
        free(self.wof_off)
        free(self.wof)
        free(self.box_off)
        free(self.box)
        free(self.zob)
        free(self.cells)
        free(self.code)
        free(self.near)
        free(self.weight)
        free(self.in_singles)
        free(self.ptab_key)
        free(self.ptab_val)
        free(self.ptab_gen)
        free(self.recs)

    # ------------------------------------------------------------------ board
    cdef void load(self, list cells):
        cdef int p, w, j, v, c, s
        for p in range(self.area):
            self.cells[p] = <signed char> (<int> cells[p])
            self.near[p] = 0
        self.hash = 0
        for p in range(self.area):
            v = self.cells[p]
            if v >= 0:
                self.hash ^= self.zob[v * self.area + p]
                for j in range(self.box_off[p], self.box_off[p + 1]):
                    self.near[self.box[j]] += 1
        self.thr_n[0] = 0
        self.thr_n[1] = 0
        self.threes[0] = 0
        self.threes[1] = 0
        self.score[0] = 0
        self.score[1] = 0
        for w in range(self.nwin):
            c = 0
            for j in range(6):
                v = self.cells[self.wins[w * 6 + j]]
                if v == 0:
                    c += 1
                elif v == 1:
                    c += 7
            self.code[w] = c
            for s in range(2):
                if self.clean[s][c] >= 4:
                    self.thr_n[s] += 1
                elif self.clean[s][c] == 3:
                    self.threes[s] += 1
                self.score[s] += self.road[s][c]

    cdef inline void place(self, int p, int s) noexcept nogil:
        cdef int j, w, c, step = 1 if s == 0 else 7
        cdef long own = 0, opp = 0
        self.cells[p] = s
        for j in range(self.wof_off[p], self.wof_off[p + 1]):
            w = self.wof[j]
            c = self.code[w]
            own += self.d_own[s][c]
            opp += self.d_opp[s][c]
            if self.clean[0][c] >= 4:
                self.thr_n[0] -= 1
            elif self.clean[0][c] == 3:
                self.threes[0] -= 1
            if self.clean[1][c] >= 4:
                self.thr_n[1] -= 1
            elif self.clean[1][c] == 3:
                self.threes[1] -= 1
            c += step
            self.code[w] = c
            if self.clean[0][c] >= 4:
                self.thr_n[0] += 1
            elif self.clean[0][c] == 3:
                self.threes[0] += 1
            if self.clean[1][c] >= 4:
                self.thr_n[1] += 1
            elif self.clean[1][c] == 3:
                self.threes[1] += 1
        for j in range(self.box_off[p], self.box_off[p + 1]):
            self.near[self.box[j]] += 1
        self.score[s] += own
        self.score[1 - s] += opp
        self.hash ^= self.zob[s * self.area + p]

    cdef inline void remove(self, int p, int s) noexcept nogil:
        cdef int j, w, c, step = 1 if s == 0 else 7
        cdef long own = 0, opp = 0
        self.cells[p] = -1
        for j in range(self.wof_off[p], self.wof_off[p + 1]):
            w = self.wof[j]
            c = self.code[w]
            if self.clean[0][c] >= 4:
                self.thr_n[0] -= 1
            elif self.clean[0][c] == 3:
                self.threes[0] -= 1
            if self.clean[1][c] >= 4:
                self.thr_n[1] -= 1
            elif self.clean[1][c] == 3:
                self.threes[1] -= 1
            c -= step
            self.code[w] = c
            own += self.d_own[s][c]
            opp += self.d_opp[s][c]
            if self.clean[0][c] >= 4:
                self.thr_n[0] += 1
            elif self.clean[0][c] == 3:
                self.threes[0] += 1
            if self.clean[1][c] >= 4:
                self.thr_n[1] += 1
            elif self.clean[1][c] == 3:
                self.threes[1] += 1
        for j in range(self.box_off[p], self.box_off[p + 1]):
            self.near[self.box[j]] -= 1
        self.score[s] -= own
        self.score[1 - s] -= opp
        self.hash ^= self.zob[s * self.area + p]

    cdef inline bint in_window(self, int w, int q) noexcept nogil:
        cdef int j
        for j in range(6):
            if self.wins[w * 6 + j] == q:
                return True
        return False

    cdef void threat_sets(self, int o, Sets* st) noexcept nogil:
        """The empty points of ``o``'s threat windows (their order does not change any result
        they are used for: hitting points come out ascending, hitting pairs sorted)."""
        cdef int w, j, q, k, dup, i
        cdef int tmp[6]
        st.n = 0
        for w in range(self.nwin):
            if self.clean[o][self.code[w]] >= 4:
                k = 0
                for j in range(6):
                    q = self.wins[w * 6 + j]
                    if self.cells[q] < 0:
                        tmp[k] = q
                        k += 1
                dup = 0
                for i in range(st.n):
                    if st.len[i] == k and memcmp_int(st.pts[i], tmp, k):
                        dup = 1
                        break
                if dup or st.n >= MAXSETS:
                    continue
                st.len[st.n] = k
                for j in range(k):
                    st.pts[st.n][j] = tmp[j]
                st.n += 1

    # ------------------------------------------------------------------ pair table
    cdef void ptab_reset(self, int need):
        cdef int cap = 1024
        while cap < 2 * need + 16:
            cap *= 2
        if cap > self.ptab_cap:
            free(self.ptab_key)
            free(self.ptab_val)
            free(self.ptab_gen)
            self.ptab_key = <int*> malloc(cap * sizeof(int))
            self.ptab_val = <int*> malloc(cap * sizeof(int))
            self.ptab_gen = <int*> malloc(cap * sizeof(int))
            memset(self.ptab_gen, 0, cap * sizeof(int))
            self.ptab_cap = cap
            self.gen = 0
        self.gen += 1
        if self.gen > 1000000000:
            memset(self.ptab_gen, 0, self.ptab_cap * sizeof(int))
            self.gen = 1

    cdef inline int ptab_find(self, int key) noexcept nogil:
        """The slot of ``key``: its value is ptab_val[slot] if ptab_gen[slot] == gen, else empty."""
        cdef unsigned int mask = self.ptab_cap - 1
        cdef unsigned int h = (<unsigned int> key * 2654435761u) & mask
        while self.ptab_gen[h] == self.gen and self.ptab_key[h] != key:
            h = (h + 1) & mask
        return h

    cdef inline int put_pair(self, int a, int b, long value, int nrec, bint overwrite) noexcept nogil:
        """``pairs[key] = value`` (``overwrite``) or ``pairs.setdefault(key, value)`` for the key
        (a, b) sorted, in the insertion order of vcdt.py's dict; returns the new count."""
        cdef int key = a * self.area + b if a < b else b * self.area + a
        cdef int slot = self.ptab_find(key)
        if self.ptab_gen[slot] != self.gen:
            self.ptab_gen[slot] = self.gen
            self.ptab_key[slot] = key
            self.ptab_val[slot] = nrec
            self.recs[nrec].index = nrec
            self.recs[nrec].a = a if a < b else b
            self.recs[nrec].b = b if a < b else a
            self.recs[nrec].value = value
            return nrec + 1
        if overwrite:
            self.recs[self.ptab_val[slot]].value = value
        return nrec

    cdef void recs_room(self, int need):
        if need > self.recs_cap:
            self.recs_cap = need + need // 2 + 64
            self.recs = <PairRec*> realloc(self.recs, self.recs_cap * sizeof(PairRec))

    # ------------------------------------------------------------------ candidates
    cdef int point_scores_top(self, int s, ScoreRec* out, int k):
        """vcdt's builders: point_scores(first_candidates)[:k]; returns how many."""
        cdef int q, j, m = 0, centre
        cdef long v
        cdef ScoreRec* all_ = <ScoreRec*> malloc(self.area * sizeof(ScoreRec))
        for q in range(self.area):
            if self.near[q] and self.cells[q] < 0:
                v = 0
                for j in range(self.wof_off[q], self.wof_off[q + 1]):
                    v += self.ps[s][self.code[self.wof[j]]]
                all_[m].score = v
                all_[m].q = q
                m += 1
        if m == 0:
            centre = (self.n // 2) * self.n + self.n // 2
            if self.cells[centre] < 0:
                all_[0].q = centre
                all_[0].score = self._pscore(s, centre)
                m = 1
            else:
                for q in range(self.area):
                    if self.cells[q] < 0:
                        all_[m].q = q
                        all_[m].score = self._pscore(s, q)
                        m += 1
        qsort(all_, m, sizeof(ScoreRec), _cmp_scores)
        if m > k:
            m = k
        memcpy(out, all_, m * sizeof(ScoreRec))
        free(all_)
        return m

    cdef long _pscore(self, int s, int q) noexcept nogil:
        cdef long v = 0
        cdef int j
        for j in range(self.wof_off[q], self.wof_off[q + 1]):
            v += self.ps[s][self.code[self.wof[j]]]
        return v

    cdef int pairs(self, int s, bint last, Node* nd) except -1:
        """vcdt.Vcdt._pairs: fills ``nd`` (through and the ranked candidates)."""
        cdef int w, j, q, k, c, i, a, b, npts = 0, nwl = 0, nsingles = 0, ntwos = 0
        cdef int nrec = 0, bound, x, ndouble, nb
        cdef long wa
        cdef int area = self.area
        cdef int* singles
        cdef int* twos
        cdef PointKey* sl
        cdef Sets own
        cdef ScoreRec top[16]
        cdef int builders[16]
        cdef int nbuilders = -1
        nd.idx = <int*> malloc(area * sizeof(int))
        for q in range(area):
            nd.idx[q] = -1
        nd.pts = <int*> malloc(area * sizeof(int))
        nd.off = NULL
        nd.wl = NULL
        nd.cand = NULL
        nd.ncand = 0
        # Pass 1: count windows per point, in first-appearance order (ascending windows).
        cdef int* cnt = <int*> malloc(area * sizeof(int))
        twos = <int*> malloc(self.nwin * sizeof(int))
        singles = <int*> malloc(area * sizeof(int))
        for w in range(self.nwin):
            c = self.code[w]
            k = self.clean[s][c]
            if k < 2:
                continue
            if k != 3:
                twos[ntwos] = w
                ntwos += 1
            for j in range(6):
                q = self.wins[w * 6 + j]
                if self.cells[q] >= 0:
                    continue
                if nd.idx[q] < 0:
                    nd.idx[q] = npts
                    nd.pts[npts] = q
                    cnt[npts] = 0
                    npts += 1
                cnt[nd.idx[q]] += 1
                nwl += 1
                self.weight[q] += k * k
                if k == 3 and not self.in_singles[q]:
                    self.in_singles[q] = 1
                    singles[nsingles] = q
                    nsingles += 1
        nd.npts = npts
        nd.off = <int*> malloc((npts + 1) * sizeof(int))
        nd.wl = <int*> malloc((nwl + 1) * sizeof(int))
        nd.off[0] = 0
        for i in range(npts):
            nd.off[i + 1] = nd.off[i] + cnt[i]
            cnt[i] = nd.off[i]
        for w in range(self.nwin):
            k = self.clean[s][self.code[w]]
            if k < 2:
                continue
            for j in range(6):
                q = self.wins[w * 6 + j]
                if self.cells[q] < 0:
                    i = nd.idx[q]
                    nd.wl[cnt[i]] = w
                    cnt[i] += 1
        free(cnt)
        # single_list: by weight descending, then point ascending.
        sl = <PointKey*> malloc((nsingles + 1) * sizeof(PointKey))
        for i in range(nsingles):
            sl[i].key = -self.weight[singles[i]]
            sl[i].q = singles[i]
        qsort(sl, nsingles, sizeof(PointKey), _cmp_points)
        for i in range(nsingles):
            self.in_singles[singles[i]] = 0
        bound = nsingles * (nsingles - 1) // 2 + 15 * ntwos + nsingles * (npts + 16) + 16
        self.ptab_reset(bound)
        self.recs_room(bound)
        for i in range(nsingles):
            a = sl[i].q
            wa = self.weight[a]
            for j in range(i + 1, nsingles):
                b = sl[j].q
                nrec = self.put_pair(a, b, wa + self.weight[b], nrec, True)
        cdef int em[6]
        cdef int ne
        for x in range(ntwos):
            w = twos[x]
            ne = 0
            for j in range(6):
                q = self.wins[w * 6 + j]
                if self.cells[q] < 0:
                    em[ne] = q
                    ne += 1
            for i in range(ne):
                a = em[i]
                for j in range(i + 1, ne):
                    b = em[j]
                    nrec = self.put_pair(a, b, self.weight[a] + self.weight[b], nrec, False)
        # A stone that alone makes two threats: paired with every point of the open windows and
        # with the best other points.
        for i in range(nsingles):
            a = sl[i].q
            x = nd.idx[a]
            own.n = 0
            for j in range(nd.off[x], nd.off[x + 1]):
                w = nd.wl[j]
                if self.clean[s][self.code[w]] != 3 or own.n >= MAXSETS:
                    continue
                ne = 0
                for k in range(6):
                    q = self.wins[w * 6 + k]
                    if self.cells[q] < 0 and q != a:
                        own.pts[own.n][ne] = q
                        ne += 1
                own.len[own.n] = ne
                own.n += 1
            if own.n < 2 or count_hits_all(&own, 2) < 2:
                continue
            if nbuilders < 0:
                nbuilders = 0
                if not last:
                    nb = self.point_scores_top(s, top, FREE_PARTNERS)
                    for k in range(nb):
                        if nd.idx[top[k].q] < 0:
                            builders[nbuilders] = top[k].q
                            nbuilders += 1
            wa = self.weight[a]
            for k in range(npts + nbuilders):
                b = nd.pts[k] if k < npts else builders[k - npts]
                if b == a:
                    continue
                nrec = self.put_pair(a, b, wa + self.weight[b], nrec, False)
        # Clear the weights (only the points of this node's windows were touched).
        for i in range(npts):
            self.weight[nd.pts[i]] = 0
        free(sl)
        free(singles)
        free(twos)
        qsort(self.recs, nrec, sizeof(PairRec), _cmp_pairs)
        nd.cand = <int*> malloc((2 * nrec + 2) * sizeof(int))
        for i in range(nrec):
            nd.cand[2 * i] = self.recs[i].a
            nd.cand[2 * i + 1] = self.recs[i].b
        nd.ncand = nrec
        return 0

    cdef inline int made_count(self, Node* nd, int a, int b) noexcept nogil:
        cdef int n = 0, j, w, x
        x = nd.idx[a]
        if x >= 0:
            for j in range(nd.off[x], nd.off[x + 1]):
                w = nd.wl[j]
                if self.clean_count(w) == 3 or self.in_window(w, b):
                    n += 1
        x = nd.idx[b]
        if x >= 0:
            for j in range(nd.off[x], nd.off[x + 1]):
                w = nd.wl[j]
                if self.clean_count(w) == 3 and not self.in_window(w, a):
                    n += 1
        return n

    cdef inline int clean_count(self, int w) noexcept nogil:
        return self.clean[self.attacker][self.code[w]]

    cdef void made(self, Node* nd, int a, int b, Sets* st) noexcept nogil:
        cdef int j, w, x, k, q, ne
        st.n = 0
        x = nd.idx[a]
        if x >= 0:
            for j in range(nd.off[x], nd.off[x + 1]):
                w = nd.wl[j]
                if (self.clean_count(w) == 3 or self.in_window(w, b)) and st.n < MAXSETS:
                    ne = 0
                    for k in range(6):
                        q = self.wins[w * 6 + k]
                        if self.cells[q] < 0 and q != a and q != b:
                            st.pts[st.n][ne] = q
                            ne += 1
                    st.len[st.n] = ne
                    st.n += 1
        x = nd.idx[b]
        if x >= 0:
            for j in range(nd.off[x], nd.off[x + 1]):
                w = nd.wl[j]
                if self.clean_count(w) == 3 and not self.in_window(w, a) and st.n < MAXSETS:
                    ne = 0
                    for k in range(6):
                        q = self.wins[w * 6 + k]
                        if self.cells[q] < 0 and q != b:
                            st.pts[st.n][ne] = q
                            ne += 1
                    st.len[st.n] = ne
                    st.n += 1

    cdef int mark(self, int a, int b, Sets* st) except -1:
        cdef int i, j
        if self.zone is None:
            return 0  # alpha-beta's leaf checks keep no zone
        zone = self.zone
        zone.add(a)
        zone.add(b)
        for i in range(st.n):
            for j in range(st.len[i]):
                zone.add(st.pts[i][j])
        return 0

    cdef int clock_out(self) except -2:
        if self.now() > self.deadline:
            self.timed_out = 1
            return 1
        return 0

    # ------------------------------------------------------------------ search
    cdef int attack(self, int s, int depth, int* fa, int* fb) except -2:
        """vcdt.Vcdt._attack: 1 with the first pair in fa, fb; 0 none; -1 out of time."""
        cdef int o = 1 - s, i, a, b, c, d, t, need, tried = 0, ok, r, npairs, nsingles, k, q, h
        cdef int key2, slot, nthrees, x, j, sub_a, sub_b
        cdef Node nd
        cdef Sets opp, st
        cdef int osingles[6]
        cdef int opairs[72]
        cdef int onpairs = 0, onsingles = 0, has_opp
        cdef int dpairs[72]
        cdef int ndef
        cdef int* cand
        cdef int ncand
        cdef PointKey* threes
        if self.nodes >= self.node_limit:
            self.timed_out = 1
            return -1
        self.nodes += 1
        if self.clock_out():
            return -1
        cdef uint64_t hkey = self.hash ^ (ATTACKER_KEY if s else <uint64_t> 0)
        pkey = hkey
        if self.fail.get(pkey, 0) >= depth:
            return 0
        has_opp = self.thr_n[o] > 0
        if has_opp:
            self.threat_sets(o, &opp)
        self.attacker = s
        self.pairs(s, depth <= 1 and not has_opp, &nd)
        cand = nd.cand
        ncand = nd.ncand
        try:
            if has_opp:
                onpairs = hitting(&opp, osingles, &onsingles, opairs)
                if onsingles == 0 and onpairs == 0:
                    self.fail[pkey] = depth
                    return 0
                # Keep the candidates that block; then every block with every point that makes a
                # threat, and the blocking pairs.
                self.ptab_reset(ncand + onsingles * nd.npts + onpairs + 8)
                cand = <int*> malloc((2 * (ncand + onsingles * nd.npts + onpairs) + 2) * sizeof(int))
                ncand = 0
                for i in range(nd.ncand):
                    a = nd.cand[2 * i]
                    b = nd.cand[2 * i + 1]
                    ok = 0
                    for k in range(onpairs):
                        if opairs[2 * k] == a and opairs[2 * k + 1] == b:
                            ok = 1
                            break
                    if not ok:
                        for k in range(onsingles):
                            if osingles[k] == a or osingles[k] == b:
                                ok = 1
                                break
                    if ok:
                        cand[2 * ncand] = a
                        cand[2 * ncand + 1] = b
                        ncand += 1
                        slot = self.ptab_find(a * self.area + b)
                        self.ptab_gen[slot] = self.gen
                        self.ptab_key[slot] = a * self.area + b
                threes = <PointKey*> malloc((nd.npts + 1) * sizeof(PointKey))
                nthrees = 0
                for i in range(nd.npts):
                    q = nd.pts[i]
                    for j in range(nd.off[i], nd.off[i + 1]):
                        if self.clean[s][self.code[nd.wl[j]]] == 3:
                            threes[nthrees].key = -(nd.off[i + 1] - nd.off[i])
                            threes[nthrees].q = q
                            nthrees += 1
                            break
                qsort(threes, nthrees, sizeof(PointKey), _cmp_points)
                for k in range(onsingles):
                    h = osingles[k]
                    for i in range(nthrees):
                        q = threes[i].q
                        if q == h:
                            continue
                        a = h if h < q else q
                        b = q if h < q else h
                        key2 = a * self.area + b
                        slot = self.ptab_find(key2)
                        if self.ptab_gen[slot] != self.gen:
                            self.ptab_gen[slot] = self.gen
                            self.ptab_key[slot] = key2
                            cand[2 * ncand] = a
                            cand[2 * ncand + 1] = b
                            ncand += 1
                free(threes)
                for k in range(onpairs):
                    a = opairs[2 * k]
                    b = opairs[2 * k + 1]
                    key2 = a * self.area + b
                    slot = self.ptab_find(key2)
                    if self.ptab_gen[slot] != self.gen:
                        self.ptab_gen[slot] = self.gen
                        self.ptab_key[slot] = key2
                        cand[2 * ncand] = a
                        cand[2 * ncand + 1] = b
                        ncand += 1
            need = 3 if depth <= 1 else 2
            for i in range(ncand):
                if (i & 7) == 7 and self.clock_out():
                    return -1
                a = cand[2 * i]
                b = cand[2 * i + 1]
                self.attacker = s
                if self.made_count(&nd, a, b) < need:
                    continue
                self.made(&nd, a, b, &st)
                t = count_hits_all(&st, 3)
                if t < 2:
                    continue
                if t >= 3:
                    self.mark(a, b, &st)
                    fa[0] = a
                    fb[0] = b
                    return 1
                if depth <= 1:
                    continue
                tried += 1
                self.place(a, s)
                self.place(b, s)
                ok = 1
                ndef = hitting(&st, osingles, &onsingles, dpairs)
                for k in range(ndef):
                    c = dpairs[2 * k]
                    d = dpairs[2 * k + 1]
                    self.place(c, o)
                    self.place(d, o)
                    r = self.attack(s, depth - 1, &sub_a, &sub_b)
                    if r < 0:
                        return -1
                    self.remove(d, o)
                    self.remove(c, o)
                    if r == 0:
                        ok = 0
                        break
                self.remove(b, s)
                self.remove(a, s)
                if ok:
                    self.attacker = s
                    self.mark(a, b, &st)
                    fa[0] = a
                    fb[0] = b
                    return 1
                if tried >= self.max_pairs:
                    break
            self.fail[pkey] = depth
            return 0
        finally:
            if cand != nd.cand:
                free(cand)
            node_free(&nd)

    # ------------------------------------------------------------------ move generation
    # movegen.py's point_scores, _seconds, normal_pairs and defence_pairs over this board. Their
    # results are sorted by value and point(s), so no dict order matters; ``base`` of the Python
    # code always holds a point's own score, which is computed here where it is needed.

    cdef int first_cands(self, int* out) noexcept nogil:
        """movegen.first_candidates: points next to a stone (ascending), else the centre, else
        every empty point."""
        cdef int q, m = 0, centre
        for q in range(self.area):
            if self.near[q] and self.cells[q] < 0:
                out[m] = q
                m += 1
        if m == 0:
            centre = (self.n // 2) * self.n + self.n // 2
            if self.cells[centre] < 0:
                out[0] = centre
                return 1
            for q in range(self.area):
                if self.cells[q] < 0:
                    out[m] = q
                    m += 1
        return m

    cdef int scored_cands(self, int s, ScoreRec* out) noexcept nogil:
        """point_scores(first_candidates): (score, point) best first."""
        cdef int* pts = <int*> malloc(self.area * sizeof(int))
        cdef int m = self.first_cands(pts), i
        for i in range(m):
            out[i].q = pts[i]
            out[i].score = self._pscore(s, pts[i])
        free(pts)
        qsort(out, m, sizeof(ScoreRec), _cmp_scores)
        return m

    cdef int seconds(self, int s, int a, int* pool, int npool, long* syn, int* syn_pts, int k,
                     ScoreRec* out) noexcept nogil:
        """movegen._seconds: the ``k`` best second stones after ``a`` (``syn``: scratch of
        area longs, zero on entry and on return; ``syn_pts``: scratch of area ints)."""
        cdef int j, w, c, q, x, nsyn = 0, m = 0, inpool, i
        cdef long d
        for j in range(self.wof_off[a], self.wof_off[a + 1]):
            w = self.wof[j]
            d = self.dps[s][self.code[w]]
            if d:
                for x in range(6):
                    q = self.wins[w * 6 + x]
                    if syn[q] == 0 and not self.in_syn_list(syn_pts, nsyn, q):
                        syn_pts[nsyn] = q
                        nsyn += 1
                    syn[q] += d
        for i in range(npool):
            q = pool[i]
            if q != a:
                out[m].score = self._pscore(s, q) + syn[q]
                out[m].q = q
                m += 1
        for i in range(nsyn):
            q = syn_pts[i]
            d = syn[q]
            if d > 0 and q != a and self.cells[q] < 0:
                inpool = 0
                for x in range(npool):
                    if pool[x] == q:
                        inpool = 1
                        break
                if not inpool:
                    out[m].score = self._pscore(s, q) + d
                    out[m].q = q
                    m += 1
        for i in range(nsyn):
            syn[syn_pts[i]] = 0
        qsort(out, m, sizeof(ScoreRec), _cmp_scores)
        return m if m < k else k

    cdef inline bint in_syn_list(self, int* lst, int n, int q) noexcept nogil:
        cdef int i
        for i in range(n):
            if lst[i] == q:
                return True
        return False

    cdef long synergy_at(self, int s, int a, int b) noexcept nogil:
        """_synergy(board, s, a).get(b, 0)."""
        cdef int j, w
        cdef long d, out = 0
        for j in range(self.wof_off[a], self.wof_off[a + 1]):
            w = self.wof[j]
            d = self.dps[s][self.code[w]]
            if d and self.in_window(w, b):
                out += d
        return out

    cdef int add_pair(self, PairRec* recs, int n, int a, int b, long v) noexcept nogil:
        """``out[key] = max(out.get(key), v)`` for key (a, b) sorted; returns the new count."""
        cdef int x = a if a < b else b, y = b if a < b else a, i
        for i in range(n):
            if recs[i].a == x and recs[i].b == y:
                if recs[i].value < v:
                    recs[i].value = v
                return n
        recs[n].a = x
        recs[n].b = y
        recs[n].value = v
        recs[n].index = 0
        return n + 1

    cdef int normal_moves(self, int s, int k1, int k2, PairRec* out) noexcept nogil:
        """movegen.normal_pairs (no zone): pairs best first, at most k1 * k2."""
        cdef ScoreRec* scored = <ScoreRec*> malloc(self.area * sizeof(ScoreRec))
        cdef ScoreRec* sec = <ScoreRec*> malloc((self.area + 1) * sizeof(ScoreRec))
        cdef long* syn = <long*> calloc_longs(self.area)
        cdef int* syn_pts = <int*> malloc(self.area * sizeof(int))
        cdef int pool[64]
        cdef int m = self.scored_cands(s, scored), npool, nf, i, j, nsec, n = 0
        nf = m if m < k1 else k1
        npool = m if m < k1 + k2 + 2 else k1 + k2 + 2
        if npool > 64:
            npool = 64
        for i in range(npool):
            pool[i] = scored[i].q
        for i in range(nf):
            nsec = self.seconds(s, scored[i].q, pool, npool, syn, syn_pts, k2, sec)
            for j in range(nsec):
                n = self.add_pair(out, n, scored[i].q, sec[j].q, scored[i].score + sec[j].score)
        free(scored)
        free(sec)
        free(syn)
        free(syn_pts)
        qsort(out, n, sizeof(PairRec), _cmp_moves)
        return n

    cdef int defence_moves(self, int s, Sets* sets, int k_free, PairRec* out) noexcept nogil:
        """movegen.defence_pairs: every pair that hits all of ``sets``, best first."""
        cdef int singles[6]
        cdef int hp[72]
        cdef int nsingles = 0, nhp, i, j, m, npool, nsec, n = 0, a, b
        cdef long va, vb
        cdef ScoreRec* scored
        cdef ScoreRec* sec
        cdef long* syn
        cdef int* syn_pts
        cdef int pool[64]
        nhp = hitting(sets, singles, &nsingles, hp)
        for i in range(nhp):
            a = hp[2 * i]
            b = hp[2 * i + 1]
            va = self._pscore(s, a)
            vb = self._pscore(s, b) + self.synergy_at(s, a, b)
            out[n].a = a
            out[n].b = b
            out[n].value = va + vb
            out[n].index = 0
            n += 1
        if nsingles:
            scored = <ScoreRec*> malloc(self.area * sizeof(ScoreRec))
            sec = <ScoreRec*> malloc((self.area + 1) * sizeof(ScoreRec))
            syn = calloc_longs(self.area)
            syn_pts = <int*> malloc(self.area * sizeof(int))
            m = self.scored_cands(s, scored)
            npool = m if m < k_free + 3 else k_free + 3
            if npool > 64:
                npool = 64
            for i in range(npool):
                pool[i] = scored[i].q
            for i in range(nsingles):
                a = singles[i]
                va = self._pscore(s, a)
                nsec = self.seconds(s, a, pool, npool, syn, syn_pts, k_free, sec)
                for j in range(nsec):
                    n = self.add_pair(out, n, a, sec[j].q, va + sec[j].score)
            free(scored)
            free(sec)
            free(syn)
            free(syn_pts)
        qsort(out, n, sizeof(PairRec), _cmp_moves)
        return n

    def normal_pairs(self, list cells, int s, int k1, int k2):
        """movegen.normal_pairs without a zone, on ``cells``: [(value, a, b)] best first."""
        cdef PairRec* out = <PairRec*> malloc((k1 * k2 + 1) * sizeof(PairRec))
        cdef int n, i
        self.load(cells)
        n = self.normal_moves(s, k1, k2, out)
        res = [(out[i].value, out[i].a, out[i].b) for i in range(n)]
        free(out)
        return res

    def defence_pairs(self, list cells, int s, int k_free):
        """movegen.defence_pairs against the opponent's threat windows on ``cells``."""
        cdef Sets sets
        cdef PairRec* out = <PairRec*> malloc((36 + 6 * k_free + 1) * sizeof(PairRec))
        cdef int n, i
        self.load(cells)
        self.threat_sets(1 - s, &sets)
        n = self.defence_moves(s, &sets, k_free, out)
        res = [(out[i].value, out[i].a, out[i].b) for i in range(n)]
        free(out)
        return res

    # ------------------------------------------------------------------ alpha-beta
    # search.Engine._ab: negamax with a transposition table (the caller's dict, the same entries),
    # quiescence over forced blocks, threat checks at every node; the same moves in the same
    # order, the same node count. Out of time: the status is set and the value is meaningless.

    cdef long ab(self, int s, int depth, long alpha, long beta, int ply) except? -999999999:
        cdef int o = 1 - s, t, n, i, r, k1, k2, cap, row, nmoves, ea, eb, e_depth, e_flag, tt_move = -1
        cdef long v, best_v, alpha0, store, e_val
        cdef int best_a = -1, best_b = -1, a, b
        cdef Sets sets
        cdef int has_sets = 0
        cdef PairRec* moves
        cdef PairRec tmp
        self.nodes += 1
        if self.thr_n[s] > 0:
            return AB_WIN - ply
        if self.thr_n[o] > 0:
            self.threat_sets(o, &sets)
            has_sets = sets.n > 0
            if has_sets:
                t = count_hits_all(&sets, 3)
                if t >= 3:
                    return -(AB_WIN - ply - 1)
        if depth <= 0 and (not has_sets or depth <= -AB_QUIESCENCE):
            if not has_sets and self.leaf_depth > 0:
                # A quiet leaf where the side to move wins by VCDT is a win (Engine._leaf_vcdt).
                for t in range(1, self.leaf_depth + 1):
                    r = self.attack(s, t, &ea, &eb)
                    if r < 0:
                        return 0
                    if r == 1:
                        return AB_WIN - ply - 2 * t
            # The side to move's threes: each is a four with one more stone (Engine._ab).
            v = self.mover_w * self.score[s] - self.other_w * self.score[o] + self.leaf_tempo * self.threes[s]
            if has_sets:
                return v - AB_THREATENED
            # Double-threat pairs: the mover's initiative, the waiting side's (Engine._ab).
            if self.leaf_potential > 0:
                v += self.leaf_potential * self.count_doubles(s, self.leaf_cap)
            if self.leaf_waiting > 0:
                v -= self.leaf_waiting * self.count_doubles(o, self.leaf_cap)
            return v
        if self.now() > self.deadline:
            self.timed_out = 1
            return 0
        key = self.hash ^ (AB_SIDE_KEY if s else <uint64_t> 0)
        pkey = key
        entry = self.tt.get(pkey)
        if entry is not None:
            e_depth, e_val, e_flag, ea, eb = entry
            tt_move = ea * 4096 + eb
            if e_depth >= depth:
                if e_val >= AB_MATE:
                    e_val -= ply
                elif e_val <= -AB_MATE:
                    e_val += ply
                if e_flag == AB_EXACT:
                    return e_val
                if e_flag == AB_LOWER and e_val >= beta:
                    return e_val
                if e_flag == AB_UPPER and e_val <= alpha:
                    return e_val
        row = ply - 1 if ply - 1 < self.n_inner else self.n_inner - 1
        k1 = self.inner[3 * row]
        k2 = self.inner[3 * row + 1]
        cap = self.inner[3 * row + 2]
        if has_sets:
            moves = <PairRec*> malloc((36 + 6 * (k2 if k2 > 2 else 2) + 1) * sizeof(PairRec))
            nmoves = self.defence_moves(s, &sets, 2 if depth <= 0 else k2, moves)
            if depth <= 0 and nmoves > 3:
                nmoves = 3
        else:
            moves = <PairRec*> malloc((k1 * k2 + 1) * sizeof(PairRec))
            nmoves = self.normal_moves(s, k1, k2, moves)
            if nmoves > cap:
                nmoves = cap
        try:
            if tt_move >= 0:
                for i in range(nmoves):
                    if moves[i].a * 4096 + moves[i].b == tt_move:
                        if i:
                            tmp = moves[i]
                            memmove_recs(moves, i)
                            moves[0] = tmp
                        break
            alpha0 = alpha
            best_v = -AB_INF
            for i in range(nmoves):
                a = moves[i].a
                b = moves[i].b
                self.place(a, s)
                self.place(b, s)
                v = -self.ab(o, depth - 1, -beta, -alpha, ply + 1)
                if self.timed_out:
                    return 0
                self.remove(b, s)
                self.remove(a, s)
                if v > best_v:
                    best_v = v
                    best_a = a
                    best_b = b
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        finally:
            free(moves)
        if best_a < 0:
            return self.mover_w * self.score[s] - self.other_w * self.score[o]
        store = best_v
        if store >= AB_MATE:
            store += ply
        elif store <= -AB_MATE:
            store -= ply
        e_flag = AB_UPPER if best_v <= alpha0 else (AB_LOWER if best_v >= beta else AB_EXACT)
        self.tt[pkey] = (depth, store, e_flag, best_a, best_b)
        return best_v

    cdef object tt
    cdef int* inner
    cdef int n_inner
    cdef int leaf_depth
    cdef long leaf_potential
    cdef long leaf_waiting
    cdef long leaf_tempo
    cdef int leaf_cap

    def search(self, list cells, int s, int depth, long alpha, long beta, int ply, double deadline,
               dict tt, list inner, long nodes, now, dict fail, int leaf_depth, int max_pairs,
               long leaf_potential=0, int leaf_cap=0, long leaf_waiting=0, long leaf_tempo=0):
        """Engine._ab from this position: (timed out, nodes, value). ``fail``, ``leaf_depth`` and
        ``max_pairs``: the VCDT failure table and settings of the quiet leaves' VCDT checks;
        ``leaf_potential``, ``leaf_waiting`` and ``leaf_cap``: the quiet leaves' bonus per
        double-threat pair of the side to move, cost per pair of the waiting side, each counted
        up to the cap; ``leaf_tempo``: their bonus per three of the side to move."""
        cdef int i
        cdef long v
        _require(True)
        self.load(cells)
        self.tt = tt
        self.now = now
        self.fail = fail
        self.zone = None
        self.leaf_depth = leaf_depth
        self.leaf_potential = leaf_potential
        self.leaf_cap = leaf_cap
        self.leaf_waiting = leaf_waiting
        self.leaf_tempo = leaf_tempo
        self.max_pairs = max_pairs
        self.node_limit = 1 << 62
        self.deadline = deadline
        self.nodes = nodes
        self.timed_out = 0
        self.n_inner = len(inner)
        self.inner = <int*> malloc((3 * self.n_inner + 1) * sizeof(int))
        for i in range(self.n_inner):
            self.inner[3 * i] = inner[i][0]
            self.inner[3 * i + 1] = inner[i][1]
            self.inner[3 * i + 2] = inner[i][2]
        try:
            v = self.ab(s, depth, alpha, beta, ply)
            return bool(self.timed_out), self.nodes, v
        finally:
            free(self.inner)
            self.inner = NULL
            self.tt = None
            self.now = None
            self.fail = None

    def solve(self, list cells, int s, int max_depth, double deadline, dict fail, set zone,
              int max_pairs, long nodes, long node_limit, now):
        """Vcdt.solve after its own threat check: (status, nodes, turns, a, b)."""
        cdef int depth, r, a = -1, b = -1
        _require(False)
        self.load(cells)
        self.fail = fail
        self.zone = zone
        self.now = now
        self.deadline = deadline
        self.nodes = nodes
        self.node_limit = node_limit
        self.max_pairs = max_pairs
        self.timed_out = 0
        try:
            for depth in range(1, max_depth + 1):
                r = self.attack(s, depth, &a, &b)
                if r < 0:
                    return TIMEOUT, self.nodes, 0, -1, -1
                if r == 1:
                    return FOUND, self.nodes, depth + 1, a, b
            return NONE, self.nodes, 0, -1, -1
        finally:
            self.fail = None
            self.zone = None
            self.now = None

    def doubles(self, list cells, int s, int cap):
        """Vcdt.doubles: how many candidate pairs give ``s`` two or more threats (at most cap)."""
        _require(False)
        self.load(cells)
        return self.count_doubles(s, cap)

    cdef int count_doubles(self, int s, int cap) except -1:
        """``doubles`` on the search board as it stands."""
        cdef Node nd
        cdef Sets st
        cdef int i, n = 0, a, b
        self.attacker = s
        self.pairs(s, False, &nd)
        try:
            for i in range(nd.ncand):
                a = nd.cand[2 * i]
                b = nd.cand[2 * i + 1]
                if self.made_count(&nd, a, b) < 2:
                    continue
                self.made(&nd, a, b, &st)
                if count_hits_all(&st, 2) >= 2:
                    n += 1
                    if n >= cap:
                        break
            return n
        finally:
            node_free(&nd)


cdef long* calloc_longs(int n) noexcept nogil:
    cdef long* p = <long*> malloc(n * sizeof(long))
    memset(p, 0, n * sizeof(long))
    return p


cdef void memmove_recs(PairRec* moves, int i) noexcept nogil:
    """Shift moves[0:i] one place right (the caller puts moves[i] first)."""
    cdef int j
    for j in range(i, 0, -1):
        moves[j] = moves[j - 1]


cdef inline bint memcmp_int(int* x, int* y, int k) noexcept nogil:
    cdef int i
    for i in range(k):
        if x[i] != y[i]:
            return False
    return True
