"""Victory by continuous double threats (VCDT), for attack and for defence.

Every attacker turn must leave at least two threats (so both defending stones are forced)
until a turn leaves three or more, which cannot be stopped. The defender's replies are all
pairs that hit every attacker threat window; threats the defender's blocks create must be hit
by the attacker's next pair (else the line fails). Failures are cached by (hash, depth);
iterative deepening on the number of attacker turns finds the shortest proof first. The
search is capped by wall-clock (``Timeout`` from the caller's clock check).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from connect6.ai.board import (
    CLEAN,
    D_OPP,
    D_OWN,
    DPS,
    MOVER_W,
    OTHER_W,
    PSCORE,
    Board,
    Tables,
    count_hits,
    hitting_moves,
    road_value,
)
from connect6.ai.clock import now
from connect6.ai.movegen import best_free, defence_pairs, first_candidates, normal_pairs, point_scores

try:
    # The same search in C (``_csearch.pyx``, built by tools/compile_engine.py with Cython); without
    # it the methods below run in Python and give the same answers, nodes and zones.
    from connect6.ai import _csearch
except ImportError:
    _csearch = None  # type: ignore[assignment]
    if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        # In Lambda (a layer built with COMPILE=0, or for another runtime): say so at cold start,
        # once, since the pure searches reach about two plies less in the same time.
        logging.getLogger("connect6.ai").warning(
            "connect6.ai: the C search kernel (connect6.ai._csearch) is not in this layer; the engine "
            "runs its pure-Python searches, about two plies shallower (docs/ai.md, \"Compiled core\")")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # the layer ships without it; only the compiler reads the decorator
    def mypyc_attr(*_flags: str, **_options: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


# Best points (by the attacker's point scores) also tried as the free partner of a stone that
# alone makes two threats.
FREE_PARTNERS = 12
# Free stones the defender tries per block in :meth:`Vcdt.warning`.
WARNING_FREE = 4
# Counter-fours (points of the defender's open 3-windows, best first) the warning also tries as
# the free stone, before the best points: without them most warnings were false alarms.
WARNING_COUNTERS = 3
# :meth:`Vcdt.quiet_warning`: the attacker's pairs tried (the best of 9 first stones with 4 second
# stones each, alpha-beta's first inner ply); the defender's replies tried after each (the best of
# 12 first stones with 5 second stones each, hard's root moves; or its blocks with this many free
# stones); a reply that leaves no VCDT holds.
QUIET_PAIRS = 8
QUIET_REPLIES = 12
QUIET_FREE = 6
# The failure table's key is the board's hash, xor this when the attacker is White.
ATTACKER_KEY = 0x9E3779B97F4A7C15

if _csearch is not None:
    # The C search reads these constants from here, not from copies of its own.
    _csearch.set_vcdt_constants(free_partners=FREE_PARTNERS, attacker_key=ATTACKER_KEY)


class Timeout(Exception):
    """The search ran out of its time."""


_cores: dict[int, _csearch.Core] = {}


def core_for(t: Tables) -> _csearch.Core | None:
    """The C searches for this board size (built once per size), or None without the module."""
    if _csearch is None:
        return None
    core = _cores.get(t.n)
    if core is None:
        road = [[road_value(c, s) for c in range(49)] for s in (0, 1)]
        core = _cores[t.n] = _csearch.Core(t, PSCORE, CLEAN, D_OWN, D_OPP, DPS, road, MOVER_W, OTHER_W)
    return core


# Compiled (tools/compile_engine.py), the class may still be subclassed from Python (tests do).
@mypyc_attr(allow_interpreted_subclasses=True)
class Vcdt:
    def __init__(self, board: Board, deadline: float, max_pairs: int = 40,
                 fail: dict[int, int] | None = None, node_limit: int = 1 << 62,
                 pure: bool = False) -> None:
        self.board = board
        self.deadline = deadline
        self.nodes = 0
        # Out of time also when this many nodes have been searched (tests: a verdict that does
        # not depend on the machine's speed).
        self.node_limit = node_limit
        # The C search (``_csearch``) unless ``pure`` or the module is not built.
        self.core = None if pure else core_for(board.t)
        # Attacker nodes without a VCDT, by (hash with the attacker's colour) -> turns searched.
        # A failure depends on the board alone, so the checks of one move may share the table
        # (``fail``): most checks end in "no VCDT" and search the same lines again.
        self.fail: dict[int, int] = {} if fail is None else fail
        self.max_pairs = max_pairs
        # Every point a successful line touched: attacker stones and the empty points of the
        # threat windows they made (a defender stone elsewhere cannot stop the proof; failed
        # branches under a proven move may add a few more, which only widens the zone).
        self.zone: set[int] = set()

    def solve(self, s: int, max_depth: int) -> tuple[int, tuple[int, int]] | None:
        """``(attacker turns to the six, first pair)`` if ``s`` (to move) wins by VCDT within
        ``max_depth`` double-threat turns, else None. Raises :class:`Timeout`."""
        board = self.board
        if board.thr[s]:
            return None  # an immediate win is not this search's business
        core = self.core
        if core is not None:
            status, self.nodes, turns, a, b = core.solve(
                board.cells, s, max_depth, self.deadline, self.fail, self.zone, self.max_pairs,
                self.nodes, self.node_limit, now)
            if status == _csearch.TIMEOUT:
                raise Timeout
            return (turns, (a, b)) if status == _csearch.FOUND else None
        for depth in range(1, max_depth + 1):
            pair = self._attack(s, depth)
            if pair is not None:
                return depth + 1, pair
        return None

    def _pairs(self, s: int, last: bool = False
               ) -> tuple[list[tuple[int, int]], dict[int, list[tuple[int, tuple[int, ...]]]]]:
        """Attacker pairs that might leave two or more threats, best first, and for each
        point the attacker's open windows (own count 2 or 3, their empty points) through it.
        With ``last`` (the attacker's last turn, no threat against it) the best other points are
        not added as partners (scoring them was a large share of the solver's time): such a pair
        makes only its first stone's threats, so a pair of that stone with another point of its
        open 3-windows makes at least as many and ranks before it."""
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
        single_list = sorted(singles, key=lambda q: (-weight[q], q))
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
        # A stone that alone makes two threats leaves its partner free: pair it with every
        # point of the attacker's open windows and with its best other points (the partner
        # builds the next threat, often from a window with one stone so far).
        builders: list[int] | None = None
        for a in single_list:
            own = [tuple([q for q in em if q != a]) for k, em in through[a] if k == 3]
            if len(own) >= 2 and count_hits(own, 2) >= 2:
                if builders is None and last:
                    builders = []
                elif builders is None:
                    scored = point_scores(board, s, first_candidates(board))[:FREE_PARTNERS]
                    builders = [q for _, q in scored if q not in through]
                wa = weight[a]
                for b in list(through) + builders:
                    if b != a:
                        key = (a, b) if a < b else (b, a)
                        if key not in pairs:
                            pairs[key] = wa + weight.get(b, 0)
        # Stable with reverse=True too: equal weights keep their insertion order.
        ranked = sorted(pairs, key=pairs.__getitem__, reverse=True)
        return ranked, through

    def candidate_pairs(self, s: int) -> list[tuple[int, int]]:
        """The pairs an attacker node of ``s`` tries, best first: every pair of points of the
        attacker's open windows that might leave two or more threats (the board is not
        changed)."""
        return self._pairs(s)[0]

    def threats_by_pair(self, s: int) -> list[tuple[tuple[int, int], list[tuple[int, ...]]]]:
        """Each of :meth:`candidate_pairs` with the threat windows it would make for ``s`` (each
        window's empty points once the pair is placed), without placing it. ``count_hits`` of a
        pair's windows is how many threats it leaves: two make a double threat, three cannot be
        blocked."""
        pairs, through = self._pairs(s)
        return [((a, b), self._made(a, b, through)) for a, b in pairs]

    def doubles(self, s: int, cap: int) -> int:
        """How many pairs would give ``s`` (to move, no threat windows) two or more threats, at
        most ``cap``: its attacking potential."""
        candidates, through = self._pairs(s)
        n = 0
        for a, b in candidates:
            if self._made_count(a, b, through) < 2:
                continue
            made = self._made(a, b, through)
            if count_hits(made, 2) >= 2:
                n += 1
                if n >= cap:
                    break
        return n

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

    @staticmethod
    def _made_count(a: int, b: int, through: dict[int, list[tuple[int, tuple[int, ...]]]]) -> int:
        """How many windows :meth:`_made` would return, without building them (most pairs make
        fewer than the two a double threat needs, and building the sets was the solver's main
        cost)."""
        n = 0
        for k, em in through.get(a, ()):
            if k == 3 or b in em:
                n += 1
        for k, em in through.get(b, ()):
            if k == 3 and a not in em:
                n += 1
        return n

    def _mark(self, a: int, b: int, sets: list[tuple[int, ...]]) -> None:
        zone = self.zone
        zone.add(a)
        zone.add(b)
        for x in sets:
            zone.update(x)

    def _attack(self, s: int, depth: int) -> tuple[int, int] | None:
        board = self.board
        if self.nodes >= self.node_limit:
            raise Timeout
        self.nodes += 1
        if now() > self.deadline:
            raise Timeout
        key = board.hash ^ (ATTACKER_KEY if s else 0)
        if self.fail.get(key, 0) >= depth:
            return None
        o = 1 - s
        opp_sets = board.threat_sets(o) if board.thr[o] else None
        candidates, through = self._pairs(s, last=depth <= 1 and not opp_sets)
        if opp_sets:
            singles, hpairs = hitting_moves(opp_sets)
            if not singles and not hpairs:
                self.fail[key] = depth
                return None
            allowed = set(hpairs)
            single_set = set(singles)
            candidates = [p for p in candidates
                          if p in allowed or p[0] in single_set or p[1] in single_set]
            # A block can come with a stone that alone makes two threats, and two blocking
            # stones can make threats too: pair every block with every point that makes a
            # threat (in an open 3-window) and keep the blocking pairs, whatever the generator
            # ranked.
            seen = set(candidates)
            threes = [q for q, lst in through.items() if any(k == 3 for k, _ in lst)]
            threes.sort(key=lambda q: (-len(through[q]), q))
            for h in singles:
                for q in threes:
                    if q != h:
                        key2 = (h, q) if h < q else (q, h)
                        if key2 not in seen:
                            seen.add(key2)
                            candidates.append(key2)
            for hp in hpairs:
                if hp not in seen:
                    seen.add(hp)
                    candidates.append(hp)
        tried = 0
        place = board.place
        remove = board.remove
        made = self._made
        made_count = self._made_count
        # At the last turn only a triple threat counts, and it takes three windows or more.
        need = 3 if depth <= 1 else 2
        for i, (a, b) in enumerate(candidates):
            if (i & 7) == 7 and now() > self.deadline:
                raise Timeout
            # The attacker has no threat window here, so the windows the pair makes are
            # exactly its threat windows afterwards: count them without placing anything.
            if made_count(a, b, through) < need:
                continue
            sets = made(a, b, through)
            t = count_hits(sets)
            if t < 2:
                continue
            if t >= 3:
                self._mark(a, b, sets)
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
                self._mark(a, b, sets)
                return a, b
            if tried >= self.max_pairs:
                break
        self.fail[key] = depth
        return None

    # ------------------------------------------------------------------ single-threat entry
    def _entry_moves(self, s: int, k_first: int, k_second: int, k_two: int) -> list[tuple[int, int]]:
        """Pairs with which ``s`` makes a threat: a stone in an open 3-window (it alone makes a
        threat window) with one of the best second stones, or both empty points of an open
        2-window filled to four. Ranked by ``s``'s point scores; the caller skips those that
        do not leave exactly one threat."""
        board = self.board
        code = board.code
        cells = board.cells
        wins = board.wins
        clean = CLEAN[s]
        threes = self.four_points(s)
        twos: set[tuple[int, int]] = set()
        for w in board.open[s]:
            if clean[code[w]] == 2:
                em = [q for q in wins[w] if cells[q] < 0]
                for i, x in enumerate(em):
                    for y in em[i + 1:]:
                        twos.add((x, y) if x < y else (y, x))
        if not threes and not twos:
            return []
        value = dict((q, v) for v, q in point_scores(board, s, first_candidates(board)))
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        firsts = sorted(threes, key=lambda q: (-value.get(q, 0), q))[:k_first]
        for a in firsts:
            if now() > self.deadline:
                raise Timeout
            board.place(a, s)
            seconds = best_free(board, s, (a,), k_second)
            board.remove(a, s)
            for _, b in seconds:
                key = (a, b) if a < b else (b, a)
                if key not in seen:
                    seen.add(key)
                    out.append((a, b))
        ranked = sorted(twos, key=lambda p: (-(value.get(p[0], 0) + value.get(p[1], 0)), p))
        for key in ranked[:k_two]:
            if key not in seen:
                seen.add(key)
                out.append(key)
        return out

    def _blocking_entry_moves(self, s: int, k_first: int, k_second: int) -> list[tuple[int, int]]:
        """Pairs with which ``s`` blocks every threat window of the defender and makes a four:
        each single blocking point with each of the points where a stone then makes a four (the
        best ``k_first``), or, when the block makes the four by itself, with the best ``k_second``
        free stones; and the blocks that take both stones. The caller keeps those that leave the
        defender no threat and ``s`` exactly one."""
        board = self.board
        o = 1 - s
        singles, both = hitting_moves(board.threat_sets(o))
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for h in singles:
            if now() > self.deadline:
                raise Timeout
            board.place(h, s)
            if board.thr[s]:
                partners = [q for _, q in best_free(board, s, (h,), k_second)]
            else:
                partners = [q for _, q in point_scores(board, s, self.four_points(s))[:k_first]]
            board.remove(h, s)
            for q in partners:
                key = (h, q) if h < q else (q, h)
                if key not in seen:
                    seen.add(key)
                    out.append((h, q))
        out.extend(p for p in both if p not in seen)
        return out

    def entry(self, s: int, depth: int, k_free: int = 0, k_first: int = 8, k_second: int = 6,
              k_two: int = 18) -> tuple[int, tuple[int, int]] | None:
        """``(attacker turns to the six, first pair)`` for a move with which ``s`` (to move, no
        threat window of its own on the board) makes exactly one threat such that after every
        block ``s`` has a VCDT within ``depth`` turns; None if no such move is found among the
        candidates. This is how most games against a VCF-searching engine were lost: a single
        four first, a double-threat chain after it. When the defender has threat windows (it
        has just made a four), the move must block them all as well: the block and the four in
        one turn, the line behind half of hard's quiet losses against Cloudict. With
        ``k_free == 0`` the defender's free stone is tried on every point that could matter
        (see :meth:`_free_stone_holds`): a found entry is a forced win. With ``k_free > 0``
        only on the defender's ``k_free`` best points: a cheaper warning, which may also report
        entries a better free stone would stop. Raises :class:`Timeout`."""
        board = self.board
        o = 1 - s
        if board.thr[s]:
            return None
        moves = (self._blocking_entry_moves(s, k_first, k_second) if board.thr[o]
                 else self._entry_moves(s, k_first, k_second, k_two))
        place = board.place
        remove = board.remove
        for a, b in moves:
            if now() > self.deadline:
                raise Timeout
            place(a, s)
            place(b, s)
            sets = board.threat_sets(s)
            turns = 0
            if sets and not board.thr[o] and count_hits(sets) == 1:
                singles, pairs = hitting_moves(sets)
                turns = 1
                for c in singles:
                    place(c, o)
                    lasts = self._free_stone_holds(s, depth, k_free)
                    remove(c, o)
                    if lasts < 0:
                        turns = 0
                        break
                    turns = max(turns, lasts)
                for c, d in pairs if turns else ():
                    place(c, o)
                    place(d, o)
                    found = None if board.thr[o] else self.solve(s, depth)
                    remove(d, o)
                    remove(c, o)
                    if found is None:
                        turns = 0
                        break
                    turns = max(turns, found[0])
            remove(b, s)
            remove(a, s)
            if turns:
                self._mark(a, b, sets)
                return turns + 1, (a, b)
        return None

    def warning(self, s: int, depth: int) -> tuple[int, tuple[int, int]] | None:
        """:meth:`entry` with the defender's free stone on its best few points only: the cheap
        check the defence uses (a false alarm costs a worse move, a missed entry the game)."""
        return self.entry(s, depth, k_free=WARNING_FREE)

    def double_warning(self, s: int, depth: int) -> tuple[int, tuple[int, int]] | None:
        """``(attacker turns to the six, first pair)`` for a pair with which ``s`` (to move, no
        threat windows on the board) makes two threats such that after every defence ``s`` has a
        VCDT within ``depth`` turns or a :meth:`warning` entry; None if no such pair is found
        among the attacker's first ``max_pairs`` double threats. Neither :meth:`solve` (its
        turns are all double threats) nor :meth:`entry` (its first turn is a single threat) sees
        this line: a double threat, a single four, then double threats. Cloudict at depth 6 won
        games with it against the safety check. A heuristic like the warning (the entry's free
        stone is tried on the defender's best points only). Raises :class:`Timeout`."""
        board = self.board
        o = 1 - s
        if board.thr[s] or board.thr[o]:
            return None
        candidates, through = self._pairs(s)
        tried = 0
        for a, b in candidates:
            if now() > self.deadline:
                raise Timeout
            if self._made_count(a, b, through) < 2:
                continue
            sets = self._made(a, b, through)
            t = count_hits(sets)
            if t < 2:
                continue  # a single threat: the entry's business
            if t >= 3:
                self._mark(a, b, sets)
                return 2, (a, b)
            tried += 1
            board.place(a, s)
            board.place(b, s)
            longest = self._longest_after_each(s, hitting_moves(sets)[1], depth, entries=True)
            board.remove(b, s)
            board.remove(a, s)
            if longest:
                self._mark(a, b, sets)
                return longest + 1, (a, b)
            if tried >= self.max_pairs:
                break
        return None

    def quiet_warning(self, s: int, depth: int) -> tuple[int, tuple[int, int]] | None:
        """``(attacker turns to the six, first pair)`` for a pair of ``s`` (to move, no threat
        windows on the board) after which none of the defender's best replies leaves ``s``
        without a VCDT within ``depth`` turns; None if every one of the attacker's best pairs
        meets a reply that holds. The line of most of hard's losses against Cloudict depth 6: a
        quiet move (or a single four), after which every defence met a forced win; the checks
        that start with a threat see it only a turn later, when nothing holds any more. The
        attacker's pairs and the defender's replies are the move generators' best few (see
        ``QUIET_PAIRS``): a heuristic like the warning. Raises :class:`Timeout`."""
        board = self.board
        o = 1 - s
        if board.thr[s] or board.thr[o]:
            return None
        place = board.place
        remove = board.remove
        for _, a, b in normal_pairs(board, s, 9, 4)[:QUIET_PAIRS]:
            place(a, s)
            place(b, s)
            longest = 0
            sets = board.threat_sets(s) if board.thr[s] else []
            if not sets or count_hits(sets) < 3:  # three threats: the VCDT's own first turn
                replies = (defence_pairs(board, o, sets, QUIET_FREE) if sets
                           else normal_pairs(board, o, 12, 5))[:QUIET_REPLIES]
                longest = self._longest_after_each(s, [(c, d) for _, c, d in replies], depth, entries=False)
            remove(b, s)
            remove(a, s)
            if longest:
                return longest + 1, (a, b)
        return None

    def _longest_after_each(self, s: int, defences: list[tuple[int, int]], depth: int, entries: bool) -> int:
        """The longest line ``s`` has after each of the defender's ``defences`` in turn (attacker
        turns): a VCDT within ``depth``, or with ``entries`` also a warning entry; 0 as soon as
        one defence leaves none. A defence that makes a threat of its own is answered first: not
        forced, so it holds."""
        board = self.board
        o = 1 - s
        longest = 0
        for c, d in defences:
            if now() > self.deadline:
                raise Timeout
            board.place(c, o)
            board.place(d, o)
            if board.thr[o]:
                found = None
            else:
                found = self.solve(s, depth) or (self.warning(s, depth) if entries else None)
            board.remove(d, o)
            board.remove(c, o)
            if found is None:
                return 0
            longest = max(longest, found[0])
        return longest

    def _free_stone_holds(self, s: int, depth: int, k_free: int) -> int:
        """The defender has placed one stone of its turn (a block); with the other anywhere,
        the longest VCDT ``s`` then has (attacker turns), or -1 if some free stone stops every
        VCDT within ``depth``. With ``k_free``, only the defender's ``k_free`` best points are
        tried. Otherwise only stones on the zone of the VCDT found without the free stone can
        stop it, or stones that give the defender a threat (the attacker must answer it), and
        each of those is tried."""
        board = self.board
        o = 1 - s
        if board.thr[o]:
            return -1  # the block made a threat of its own: not a forced line any more
        if k_free:
            frees = self._counter_fours(o, WARNING_COUNTERS)
            frees += [f for _, f in best_free(board, o, tuple(frees), k_free)]
            longest = 0
        else:
            outer = self.zone
            self.zone = set()
            try:
                found = self.solve(s, depth)
                zone = self.zone
            finally:
                self.zone = outer | self.zone
            if found is None:
                return -1
            cells = board.cells
            stoppers = {q for q in zone if cells[q] < 0} | self.four_points(o)
            # The attacker's first pair first: a stone there is the likeliest to stop the line.
            first = [q for q in found[1] if q in stoppers]
            frees = first + sorted(stoppers.difference(first))
            longest = found[0]
        for f in frees:
            board.place(f, o)
            # The proof counts a free stone that makes a four as a stopper; the warning lets
            # the attacker answer it (a block that makes a double threat may go on).
            refutes = None if board.thr[o] and not k_free else self.solve(s, depth)
            board.remove(f, o)
            if refutes is None:
                return -1
            longest = max(longest, refutes[0])
        return longest

    def four_points(self, o: int) -> set[int]:
        """The points where a stone makes a four for ``o``: the empty points of its open
        3-windows."""
        board = self.board
        cells = board.cells
        code = board.code
        wins = board.wins
        clean = CLEAN[o]
        points: set[int] = set()
        for w in board.open[o]:
            if clean[code[w]] == 3:
                points.update([q for q in wins[w] if cells[q] < 0])
        return points

    def _counter_fours(self, o: int, cap: int) -> list[int]:
        """The ``cap`` best of :meth:`four_points` by ``o``'s point scores."""
        return [q for _, q in point_scores(self.board, o, self.four_points(o))[:cap]]
