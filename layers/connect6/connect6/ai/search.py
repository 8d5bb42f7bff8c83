"""The engine: root pipeline and alpha-beta search over two-stone moves.

Root order (docs/ai.md, "Search"): win now → forced defence → own VCDT → alpha-beta with iterative
deepening over pairs until the time is up → (hard) reject a best move that leaves the
opponent a VCDT. Every phase runs under the clock; the move returned is always the best found
before the deadline.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from connect6.ai.board import Board, count_hits, hitting_moves
from connect6.ai.clock import now
from connect6.ai.movegen import defence_pairs, desperate_pair, normal_pairs, point_scores, win_now
from connect6.ai.vcdt import Timeout, Vcdt, core_for
from connect6.rules import Position

try:
    from connect6.ai import _csearch
except ImportError:  # not built: the alpha-beta below runs in Python
    _csearch = None  # type: ignore[assignment]

WIN = 10_000_000
MATE = WIN - 1000  # scores beyond this are wins/losses in a known number of plies
INF = WIN * 2
EXACT, LOWER, UPPER = 0, 1, 2
SIDE_KEY = 0x5851F42D4C957F2D

Found = TypeVar("Found")


@dataclass(frozen=True, kw_only=True)
class LevelConfig:
    root: tuple[int, int]  # (first stones, second stones per first) at the root
    inner: tuple[tuple[int, int, int], ...]  # per ply below the root: (k1, k2, max pairs)
    search: bool  # alpha-beta at all
    vcdt_share: float  # share of the budget for the own VCDT
    vcdt_depth: int
    opp_check: int  # depth of the opponent-VCDT check of the chosen move (0: none)
    noise: int  # easy: pick among this many top one-ply moves
    free: int  # free stones per single-point block
    entry_check: int = 0  # VCDT depth after an opponent's single threat in the safety check (0: none)
    # The safety check also looks for an opponent double threat after which every defence meets a
    # VCDT of at most this many turns or a single-four entry (Vcdt.double_warning; 0: none).
    double_entry: int = 0
    # ... and for an opponent pair after which none of our best replies leaves it without a VCDT
    # of at most this many turns (Vcdt.quiet_warning; 0: none).
    quiet_check: int = 0
    zone_share: float = 0.0  # share of the budget for the null-move threat zone (0: none)
    screen_safe: int = 0  # root moves screened for opponent VCDTs until this many are safe (0: none)
    # Share of the budget for an own single-four entry (0: none). No level searches one: hard's
    # found no win in 282 quiet positions of its games against Cloudict and ran out of its time
    # in 120 of them (docs/experiments/ai-rounds.md).
    entry_share: float = 0.0
    potential: int = 0  # root penalty per opponent pair that would make a double threat (0: none)
    # Alpha-beta's quiet leaves: a side to move that wins by a VCDT of at most this many turns
    # scores a win there (0: no check). hard checks one turn (a pair that makes three threats),
    # affordable with the searches in C; two turns cost it two plies.
    leaf_vcdt: int = 0
    # Alpha-beta's quiet leaves count double-threat pairs (the root penalty's count, at every
    # leaf, up to LEAF_POTENTIAL_CAP): the side to move gains ``leaf_potential`` per pair of its
    # own (its initiative) and loses ``leaf_waiting`` per pair of the waiting side's (a turn it
    # must spend defending: hard's quiet losses began where the opponent had dozens). 0: none.
    # No level uses them: against Cloudict neither weight at 40 gained anything measurable
    # (docs/experiments/ai-rounds.md, "Issue 31: double threats at the leaves").
    leaf_potential: int = 0
    leaf_waiting: int = 0
    # Alpha-beta's leaves: the side to move gains this much per window holding exactly three
    # of its stones and no enemy stone (Board.threes). Each is a four with one stone more, so the
    # side to move can make a threat there while keeping a stone free. 0: none; hard: LEAF_TEMPO.
    leaf_tempo: int = 0
    # With an opponent-VCDT check, alpha-beta gets this share of the search time, the check the
    # rest. hard gives the check more: with 0.6 its warnings ran out of time.
    ab_share: float = 0.6
    # More safety-check tries, from the refutations' zones, when none of the first passed and time
    # is left (see Engine._safe); such a level also checks moves alpha-beta scores as lost. 0: none.
    widen: int = 0
    # Variety: the move is drawn (with the caller's rng, so a game replays from its seed) among
    # the root moves whose score is at most this far below the best. A score is the evaluation
    # of the side to move (10 x own roads - 7 x enemy roads; hard adds its tempo and takes off
    # its potential penalty): one own stone in an empty window is worth 200, a second stone
    # there 700 more. 0: always the best move. Never used for a win (own VCDT, a six, a mate
    # score), a lost position, or a move the safety check rejects (see Engine.run); when
    # blocking every candidate blocks.
    margin: int = 0
    # Spend the budget: once the chosen move has passed the safety check, alpha-beta goes on
    # deepening (the next depths, the same transposition table) while more than this share of the
    # budget is left, and a new best move is played only if it passes the check too. 0: never.
    deepen: float = 0.0


# normal and hard: moves the search cannot tell apart (symmetric twins score the same) or nearly
# so, well below one own stone in an empty window (200), so no drawn move gives up a stone's
# worth of shape against the best. hard, the strongest level, draws from the narrower band
# (less than a third of that stone); normal, the level most games are played at, from a wider
# one. On 12 Little Golem positions hard's move differed between seeds mainly in the opening,
# where symmetric twins tie; measured in games against Cloudict (docs/ai.md).
NORMAL_MARGIN = 120
HARD_MARGIN = 60
# hard's leaves gain this per three of the side to move (LevelConfig.leaf_tempo), as much as
# five lone own stones in empty windows (200 each). Against Cloudict: 71 of 80 at depth 2 where
# the engine without it scored 66, level at depths 4 and 6 (docs/experiments/ai-rounds.md,
# "a tempo for threes").
LEAF_TEMPO = 1000
# hard's safety check also looks for a pair of the opponent's after which none of our best
# replies stops a VCDT of at most this many turns (LevelConfig.quiet_check): the line of most of
# its losses against Cloudict depth 6, a quiet move before the forced win (docs/experiments/
# ai-rounds.md, "the quiet refutation").
QUIET_CHECK = 6
# hard deepens after its check while a tenth of its budget is left (LevelConfig.deepen).
DEEPEN_LEFT = 0.1
# hard's safety check tries this many more moves from the refutations' zones (LevelConfig.widen).
WIDEN_TRIES = 48

LEVEL_CONFIGS: dict[str, LevelConfig] = {
    # easy: a random pick among its 8 best one-ply moves within 15,000 (a live three's worth):
    # it is meant to be beatable.
    "easy": LevelConfig(root=(8, 3), inner=(), search=False, vcdt_share=0.0, vcdt_depth=0, opp_check=0,
                        noise=8, free=4, margin=15000),
    "normal": LevelConfig(root=(10, 4), inner=((7, 3, 14), (5, 3, 10), (4, 2, 6)), search=True,
                          vcdt_share=0.15, vcdt_depth=6, opp_check=6, noise=1, free=5, entry_check=6,
                          zone_share=0.1, screen_safe=6, margin=NORMAL_MARGIN),
    "hard": LevelConfig(root=(12, 5), inner=((9, 4, 20), (7, 3, 14), (5, 3, 10), (4, 2, 6)), search=True,
                        vcdt_share=0.2, vcdt_depth=8, opp_check=8, noise=1, free=6, entry_check=6,
                        double_entry=6, quiet_check=QUIET_CHECK, zone_share=0.25, screen_safe=8, potential=40,
                        ab_share=0.4, leaf_vcdt=1, leaf_tempo=LEAF_TEMPO, margin=HARD_MARGIN,
                        deepen=DEEPEN_LEFT, widen=WIDEN_TRIES),
}

# The search stops at this share of the budget; the rest is a safety margin for set-up,
# the answer and the caller (the arena times the whole round trip).
SEARCH_SHARE = 0.75
# Forced blocks below the horizon are searched this many plies deep; a side still under threat
# there is scored statically minus THREATENED.
QUIESCENCE = 2
THREATENED = 3000
SAFE_TRIES = 16
# Root screening: at most this share of the time left, each move at most this share of the budget.
SCREEN_SHARE = 0.5
SCREEN_EACH = 0.04
# The screen looks for opponent VCDTs of at most this many turns (the safety check goes deeper).
SCREEN_DEPTH = 6
# Zone points used as first stones when the screen widens to a refutation zone.
ZONE_FIRSTS = 16
# Share of the time left that one candidate's single-threat entry check may use.
ENTRY_SHARE = 0.4
# No new iteration starts after this share of the alpha-beta window has gone.
NEW_ITERATION = 0.6
# Widening the safety check stops when this share of the budget is left; each widened check gets
# at most this share of the budget.
WIDEN_LEFT = 0.05
WIDEN_EACH = 0.04
# When deepening after the check (LevelConfig.deepen), alpha-beta gets this share of the time
# left; the rest is for checking the move it then prefers.
DEEPEN_AB = 0.6
# Opponent double-threat pairs counted per root move at most (see Engine._potentials).
POTENTIAL_CAP = 100
# Candidate pairs the leaves' VCDT checks try per attacker turn (Vcdt's max_pairs).
LEAF_PAIRS = 40
# Double-threat pairs counted per side and quiet leaf at most (LevelConfig.leaf_potential, leaf_waiting).
LEAF_POTENTIAL_CAP = 50

if _csearch is not None:
    # The C alpha-beta reads these constants from here, not from copies of its own.
    _csearch.set_search_constants(win=WIN, mate=MATE, inf=INF, exact=EXACT, lower=LOWER, upper=UPPER,
                                  quiescence=QUIESCENCE, threatened=THREATENED, side_key=SIDE_KEY)


def _blocks_with(blocks: list[int], x: int, y: int) -> list[tuple[int, int]]:
    """Each blocking point paired with each of an opponent's points ``x``, ``y``."""
    return [(h, q) for h in blocks for q in (x, y) if q != h]


@dataclass(frozen=True)
class SearchResult:
    stones: tuple[int, ...]
    reason: str
    score: int = 0
    depth: int = 0
    nodes: int = 0
    elapsed: float = 0.0
    # Seconds per phase of the root pipeline, in the order first entered: own_win, threat_zone,
    # screen, penalties, alpha_beta, safety_check, deepen (alpha-beta after the check).
    phases: tuple[tuple[str, float], ...] = ()


class Engine:
    def __init__(self, position: Position, level: str, budget: float, rng: random.Random,
                 max_depth: int | None = None, solver: type[Vcdt] = Vcdt, pure: bool = False,
                 vary: bool = True) -> None:
        self.start = now()
        # The VCDT solver class every check uses (tests pass one with scripted verdicts).
        self.solver = solver
        self.position = position
        self.level = level
        self.cfg = LEVEL_CONFIGS[level]
        self.budget = budget
        self.rng = rng
        # Draw among the root moves within the level's margin of the best (False: the best).
        self.margin = self.cfg.margin if vary else 0
        self.passed = False  # whether the last _safe's move passed the safety check
        self.max_depth = max_depth
        self.board = Board.from_position(position)
        # The searches in C (connect6.ai._csearch) unless ``pure`` or not built: the same
        # moves, scores and node counts as the Python code below, faster.
        self.pure = pure
        self.core = None if pure else core_for(self.board.t)
        self.side = position.to_move.index
        self.nodes = 0
        self.end = self.start + budget * SEARCH_SHARE
        self.deadline = self.end
        self.tt: dict[int, tuple[int, int, int, int, int]] = {}
        # One table of VCDT failures for all of this move's checks (see Vcdt.fail).
        self.vcdt_fail: dict[int, int] = {}
        # hard's root penalties (see _potentials), counted once per move.
        self.penalty: dict[tuple[int, int], int] | None = None
        self.phases: dict[str, float] = {}

    # ------------------------------------------------------------------ helpers
    def _result(self, stones: tuple[int, ...], reason: str, score: int = 0,
                depth: int = 0) -> SearchResult:
        return SearchResult(tuple(stones), reason, score, depth, self.nodes, now() - self.start,
                            tuple(self.phases.items()))

    def _spent(self, phase: str, since: float) -> None:
        """Add the time since ``since`` to ``phase`` (SearchResult.phases)."""
        self.phases[phase] = self.phases.get(phase, 0.0) + now() - since

    def _rebuild(self) -> None:
        """After a timeout the board is mid-line: rebuild it from the position."""
        self.board = Board.from_position(self.position)

    def _timed(self, check: Callable[[int, int], Found], solver: Vcdt, side: int,
               depth: int) -> tuple[Found | None, bool]:
        """``check(side, depth)``, one of ``solver``'s searches: (its answer, False), or (None,
        True) when it ran out of time (the board, left mid-line, is rebuilt). The nodes it
        searched count for this search either way."""
        before = solver.nodes
        try:
            return check(side, depth), False
        except Timeout:
            self._rebuild()
            return None, True
        finally:
            self.nodes += solver.nodes - before

    # ------------------------------------------------------------------ root
    def run(self) -> SearchResult:
        position = self.position
        board = self.board
        s = self.side
        need = position.stones_to_place
        if need == 1:
            centre = (board.n // 2) * board.n + board.n // 2
            if board.stones == 0:
                return self._result((centre,), "opening at the centre")
            win = win_now(board, s)
            if win is not None:
                return self._result((win[0],), "wins now", WIN)
            empties = [q for q in range(board.area) if board.cells[q] < 0]
            return self._result((empties[0],), "the last point")
        win = win_now(board, s)
        if win is not None:
            return self._result(win, "wins now", WIN)
        cfg = self.cfg
        o = 1 - s
        sets = board.threat_sets(o)
        if sets:
            t = count_hits(sets)
            if t >= 3:
                return self._result(desperate_pair(board, s, sets),
                                    "lost against best play: blocks what it can", -WIN)
            moves = defence_pairs(board, s, sets, cfg.free + 2)
            reason = "blocks a six"
        else:
            moves = normal_pairs(board, s, *cfg.root)
            reason = "strongest shape"
        if not moves:  # nothing generated (a nearly full board): any legal pair
            empties = [q for q in range(board.area) if board.cells[q] < 0]
            return self._result((empties[0], empties[1]), reason)
        if len(moves) == 1:
            return self._result((moves[0][1], moves[0][2]), reason)
        if not cfg.search:
            return self._easy(moves, reason)
        # Own forced win.
        if cfg.vcdt_share > 0:
            t0 = now()
            found = self._own_win(cfg.vcdt_share, cfg.vcdt_depth, single_four=False)
            if found is None and cfg.entry_share and not sets:
                found = self._own_win(cfg.entry_share, cfg.entry_check, single_four=True)
            self._spent("own_win", t0)
            if found is not None:
                turns, pair = found
                return self._result(pair, f"forced win in {turns} turns", WIN - turns)
        if cfg.zone_share > 0 and not sets:
            t0 = now()
            zone = self._threat_zone()
            self._spent("threat_zone", t0)
            if zone:
                # The opponent, were it to move now, wins by force: only moves that touch the
                # points its proof uses can stop it (plus the best pairs from the zone itself).
                inside = [m for m in moves if m[1] in zone or m[2] in zone]
                seen = {(a, b) if a < b else (b, a) for _, a, b in inside}
                for m in normal_pairs(board, s, *cfg.root, zone=zone):
                    if (m[1], m[2]) not in seen:
                        inside.append(m)
                if inside:
                    inside.sort(reverse=True)
                    moves = inside
                    reason = "defends against a forced attack"
        pairs = [(a, b) for _, a, b in moves]
        if cfg.screen_safe:
            t0 = now()
            pairs, n_safe = self._screen(pairs, sets)
            self._spent("screen", t0)
            if n_safe:
                pairs = pairs[:n_safe]
        full_end = self.end
        if cfg.opp_check:
            started = now()
            self.end = started + (full_end - started) * cfg.ab_share
        t0 = now()
        best, score, depth, order, near = self._iterate(pairs)
        self._spent("alpha_beta", t0)
        self.end = full_end
        if score >= MATE:
            turns = (WIN - score) // 2 + 1
            # Alpha-beta's win assumes the opponent's replies it generated (and, with leaf checks,
            # a triple threat at a leaf), and the own VCDT found none: the move gets the safety
            # check like any other. Kept only if it passes (checking only for an opponent VCDT
            # scored 77.4 % against Cloudict depth 2 where this scored 83.0 %).
            checked = self._safe(best, order, sets) if cfg.opp_check else best
            if checked == best:
                return self._result(best, f"forced win in {turns} turns", score, depth)
            return self._result(checked, reason, 0, depth)
        if cfg.deepen and cfg.opp_check and score > -MATE:
            return self._spend(best, score, depth, order, near, sets, reason)
        if len(near) > 1:
            # Variety: a move drawn among those within the margin (all block when blocking, none
            # is a win: a mate score takes the branch above). It is played only if the safety
            # check passes it; otherwise the best move goes through the check as without variety.
            pick = near[self.rng.randrange(len(near))]
            if pick != best:
                if not cfg.opp_check:
                    return self._result(pick, reason, score, depth)
                checked = self._safe(pick, [], sets, steer=False)
                if self.passed:
                    return self._result(checked, reason, score, depth)
        if cfg.opp_check and (score > -MATE or cfg.widen):
            best = self._safe(best, order, sets)
            if score <= -MATE and self.passed:
                # Alpha-beta's loss holds for the replies it generates; the check found a move
                # after which the opponent has no VCDT and no entry (the longest loss first).
                return self._result(best, reason, score, depth)
        if score <= -MATE and not sets:
            reason = "lost against best play: resists longest"
        return self._result(best, reason, score, depth)

    def _spend(self, best: tuple[int, int], score: int, depth: int, order: list[tuple[int, int]],
               near: list[tuple[int, int]], sets: list[tuple[int, ...]], reason: str) -> SearchResult:
        """The rest of the budget (``LevelConfig.deepen``): the best move goes through the safety
        check first; while the move to play has passed it and time is left, alpha-beta searches
        the next depths (same root moves, same transposition table), and a move it then prefers
        replaces the checked one only if it passes the check alone. Variety draws from the first
        search's margin (or, once a deeper search preferred another move, from that search's),
        and a drawn move too is played only if it passes."""
        cfg = self.cfg
        full_end = self.end
        limit = self.max_depth if self.max_depth is not None else 64
        played = self._safe(best, order, sets)
        passed = self.passed
        while passed and depth < limit and full_end - now() > cfg.deepen * self.budget:
            self.end = now() + (full_end - now()) * DEEPEN_AB
            t0 = now()
            d_best, d_score, d_depth, d_order, d_near = self._iterate(order, first=depth + 1)
            self._spent("deepen", t0)
            self.end = full_end
            if d_score == -INF or d_score <= -MATE:
                break  # nothing searched in time, or every move loses deeper: keep the checked move
            if d_best != played:
                self._safe(d_best, [], sets, steer=False)
                if not self.passed:
                    break
                played = d_best
                # The deeper search prefers another move: the draw's pool is its own. While it
                # keeps the move, the first search's pool stays: a deeper search's scores spread
                # wider, and drawing from them alone gave 2 and 1 distinct games of 10 from the
                # repeated centre opening (5 and 2 without deepening).
                near = d_near
            score, order = d_score, d_order
            if d_score >= MATE:
                return self._result(played, f"forced win in {(WIN - d_score) // 2 + 1} turns", d_score,
                                    max(depth, d_depth))
            if d_depth <= depth:
                break  # the clock cut the deeper iteration: its best move is all there is
            depth = d_depth
        if passed and len(near) > 1 and near[0] == played:
            pick = near[self.rng.randrange(len(near))]
            if pick != played:
                self._safe(pick, [], sets, steer=False)
                if self.passed:
                    played = pick
        return self._result(played, reason, score, depth)

    def _easy(self, moves: list[tuple[int, int, int]], reason: str) -> SearchResult:
        """One ply: every candidate pair scored by the position it leaves; pick among the
        best few at random (easy is meant to be beatable) unless one move stands out."""
        board = self.board
        s = self.side
        o = 1 - s
        scored = []
        for i, (_, a, b) in enumerate(moves):
            if i and now() > self.end:
                break
            board.place(a, s)
            board.place(b, s)
            self.nodes += 1
            if board.thr[o]:
                v = -WIN
            else:
                mine = count_hits(board.threat_sets(s)) if board.thr[s] else 0
                v = WIN // 2 if mine >= 3 else -board.evaluate(o) + 3000 * mine
            board.remove(b, s)
            board.remove(a, s)
            scored.append((v, a, b))
        scored.sort(reverse=True)
        top = scored[0][0]
        pool = [m for m in scored[: self.cfg.noise] if m[0] > top - self.cfg.margin and m[0] > -WIN]
        if not pool:
            pool = scored[:1]
        v, a, b = pool[self.rng.randrange(len(pool))]
        return self._result((a, b), reason, v, 1)

    def _own_win(self, share: float, depth: int, single_four: bool) -> tuple[int, tuple[int, int]] | None:
        """Our forced win within ``share`` of the budget: a VCDT, or with ``single_four`` a single
        threat after which every block loses to a VCDT (see :meth:`Vcdt.entry`)."""
        solver = self.solver(self.board, min(self.end, now() + self.budget * share), fail=self.vcdt_fail,
                             pure=self.pure)
        return self._timed(solver.entry if single_four else solver.solve, solver, self.side, depth)[0]

    def _screen(self, pairs: list[tuple[int, int]], sets: list[tuple[int, ...]]
                ) -> tuple[list[tuple[int, int]], int]:
        """Check root moves, in order, for an opponent VCDT after them, each for a moment only
        (a safe verdict usually comes in milliseconds, a refutation takes longer). Returns the
        moves reordered — safe ones first, then unchecked or undecided, then refuted ones
        (longest refutation first) — and the number of safe ones. Stops after
        ``screen_safe`` safe moves or its share of the time. When none of the moves is safe,
        moves built from the refutations' zones (the points their proofs use) are tried:
        the blocking stone (if forced) or a zone point with the best partners."""
        cfg = self.cfg
        s = self.side
        o = 1 - s
        started = now()
        stop = started + (self.end - started) * SCREEN_SHARE
        each = self.budget * SCREEN_EACH
        safe: list[tuple[int, int]] = []
        unknown: list[tuple[int, int]] = []
        refuted: list[tuple[int, tuple[int, int]]] = []
        zone: set[int] = set()
        tried: set[tuple[int, int]] = set()
        queue = list(pairs)
        widened = False
        blocks = hitting_moves(sets)[0] if sets else []
        while True:
            restart = False
            for i, (a, b) in enumerate(queue):
                t = now()
                if t > stop or len(safe) >= cfg.screen_safe:
                    unknown.extend(queue[i:])
                    break
                key = (a, b) if a < b else (b, a)
                if key in tried:
                    continue
                tried.add(key)
                board = self.board
                board.place(a, s)
                board.place(b, s)
                solver = self.solver(board, min(stop, t + each), fail=self.vcdt_fail, pure=self.pure)
                refutation, timed_out = self._timed(solver.solve, solver, o, min(cfg.opp_check, SCREEN_DEPTH))
                if timed_out:
                    unknown.append((a, b))
                    continue
                board.remove(b, s)
                board.remove(a, s)
                if refutation is None:
                    safe.append((a, b))
                else:
                    refuted.append((-refutation[0], (a, b)))
                    zone |= solver.zone
                    if not safe:
                        # Steer by the refutation: its first pair (or, when blocking, each
                        # block with one of its points) and the moves touching it go next.
                        x, y = refutation[1]
                        front = _blocks_with(blocks, x, y) if sets else [(x, y)]
                        rest = queue[i + 1:]
                        front += [p for p in rest if x in p or y in p]
                        front = [p for p in front
                                 if ((p[0], p[1]) if p[0] < p[1] else (p[1], p[0])) not in tried]
                        queue = front + [p for p in rest if not (x in p or y in p)]
                        restart = True
                        break
            if restart:
                continue
            if safe or widened or not zone or now() > stop:
                break
            widened = True
            queue = [p for p in self._zone_moves(zone, sets)
                     if ((p[0], p[1]) if p[0] < p[1] else (p[1], p[0])) not in tried]
        refuted.sort(key=lambda x: x[0])
        return safe + unknown + [p for _, p in refuted], len(safe)

    def _zone_moves(self, zone: set[int], sets: list[tuple[int, ...]]) -> list[tuple[int, int]]:
        """Moves that put a stone on the opponent's refutation zone: when blocking, each
        blocking point (or blocking pair) with the zone's points; otherwise the zone's best
        points with their best partners."""
        board = self.board
        s = self.side
        cells = board.cells
        if not sets:
            return [(a, b) for _, a, b in normal_pairs(board, s, ZONE_FIRSTS, self.cfg.root[1], zone=zone)]
        singles, hpairs = hitting_moves(sets)
        ranked = [q for _, q in point_scores(board, s, [q for q in zone if cells[q] < 0])]
        out = [(h, q) for h in singles for q in ranked if q != h]
        out.extend(hpairs)
        return out

    def _widened_moves(self, zone: set[int], sets: list[tuple[int, ...]]) -> list[tuple[int, int]]:
        """The safety check's wider net: first each zone point (or, when blocking, each blocking
        point) with a stone that makes a four of ours (the opponent must answer it before going
        on: the holding moves the loss analysis found in hard's lost games as White had one), then
        the zone's moves (see _zone_moves)."""
        board = self.board
        s = self.side
        cells = board.cells
        solver = self.solver(board, self.end, fail=self.vcdt_fail, pure=self.pure)
        fours = [q for _, q in point_scores(board, s, solver.four_points(s))]
        if sets:
            firsts = hitting_moves(sets)[0]
        else:
            firsts = [q for _, q in point_scores(board, s, [q for q in zone if cells[q] < 0])][:ZONE_FIRSTS]
        out = [(a, f) for a in firsts for f in fours if f != a]
        return out + self._zone_moves(zone, sets)

    def _threat_zone(self) -> set[int] | None:
        """Null move: if the opponent, moving now, had a VCDT (or a single threat leading into
        one), the points its proof uses; else None."""
        cfg = self.cfg
        o = 1 - self.side
        deadline = min(self.end, now() + self.budget * cfg.zone_share)
        solver = self.solver(self.board, deadline, fail=self.vcdt_fail, pure=self.pure)
        refutation, timed_out = self._timed(solver.solve, solver, o, cfg.opp_check)
        found = refutation is not None
        if not found and not timed_out and cfg.entry_check:
            entry, timed_out = self._timed(solver.warning, solver, o, cfg.entry_check)
            found = entry is not None
        if timed_out:
            return None
        return solver.zone if found else None

    def _safe(self, best: tuple[int, int], pairs: list[tuple[int, int]],
              sets: list[tuple[int, ...]], steer: bool = True) -> tuple[int, int]:
        """:meth:`_check_moves`, its time counted as the safety check's."""
        t0 = now()
        try:
            return self._check_moves(best, pairs, sets, steer)
        finally:
            self._spent("safety_check", t0)

    def _check_moves(self, best: tuple[int, int], pairs: list[tuple[int, int]],
                     sets: list[tuple[int, ...]], steer: bool) -> tuple[int, int]:
        """If the opponent has a VCDT after ``best``, look for a root move that leaves none, as
        far as the clock allows: moves that touch the refutation's first pair first (when not
        forced to block, that pair itself; when blocking, each blocking point with one of its
        points), then the search's order. ``self.passed`` tells whether the move returned passed the
        check (neither a VCDT nor an entry after it, nor, with the level's ``double_entry``, a
        double threat leading into either, nor, with its ``quiet_check``, a pair after which none of
        our best replies stops a VCDT). Without ``steer`` only ``best`` and ``pairs`` are
        tried (no moves from refutations). With the level's ``widen``, when no move
        tried passed and time is left, up to that many more are tried: moves on the refutations'
        zones (see _zone_moves), each check capped at a share of the budget."""
        s = self.side
        o = 1 - s
        cfg = self.cfg
        blocks = hitting_moves(sets)[0] if sets else []
        queue = [best] + [p for p in pairs if p != best]
        tried: set[tuple[int, int]] = set()
        # If no move tried is safe, play (in this order) the first that only the quiet check
        # flagged or left unanswered (it passed the others), the first whose entry check ran out
        # of time, the first with only an entry against it (a single threat, or a double threat
        # leading into a VCDT or an entry), the first whose VCDT check ran out of time
        # (unproven), or the one whose VCDT refutation is longest.
        quieted: tuple[int, int] | None = None
        suspect: tuple[int, int] | None = None
        entered: tuple[int, int] | None = None
        unproven: tuple[int, int] | None = None
        fallback, fallback_turns = best, 0
        zone: set[int] = set()
        tries = SAFE_TRIES
        widened = False
        while True:
            if not queue or len(tried) >= tries:
                if widened or not steer or not cfg.widen or not zone \
                        or self.end - now() <= WIDEN_LEFT * self.budget:
                    break
                # Nothing tried passed and time is left: the moves that put a stone where the
                # refutations' proofs play (a far stone the root candidates did not hold).
                widened = True
                tries = len(tried) + cfg.widen
                queue = [p for p in self._widened_moves(zone, sets)
                         if ((p[0], p[1]) if p[0] < p[1] else (p[1], p[0])) not in tried]
                continue
            a, b = queue.pop(0)
            key = (a, b) if a < b else (b, a)
            if key in tried:
                continue
            tried.add(key)
            left = self.end - now()
            if left <= 0.002:
                break
            board = self.board
            board.place(a, s)
            board.place(b, s)
            deadline = now() + (min(left * 0.5, self.budget * WIDEN_EACH) if widened else left * 0.5)
            solver = self.solver(board, deadline, fail=self.vcdt_fail, pure=self.pure)
            refutation, timed_out = self._timed(solver.solve, solver, o, cfg.opp_check)
            if timed_out:
                # Unproven either way: better than a refuted move, but not than one that passed
                # the VCDT check (playing such a move at once lost games against Cloudict).
                if unproven is None:
                    unproven = (a, b)
                continue
            entry = None
            if refutation is None:
                # The entry warnings, each with its share of the time left, until one answers.
                quiet = False  # whether the warning that answered (or ran out of time) is the quiet one
                for warn, depth, is_quiet in ((solver.warning, cfg.entry_check, False),
                                              (solver.double_warning, cfg.double_entry, False),
                                              (solver.quiet_warning, cfg.quiet_check, True)):
                    if depth:
                        solver.deadline = now() + (self.end - now()) * ENTRY_SHARE
                        entry, timed_out = self._timed(warn, solver, o, depth)
                        if timed_out or entry is not None:
                            quiet = is_quiet
                            break
                if timed_out:
                    if quiet:
                        quieted = quieted or (a, b)
                    elif suspect is None:
                        suspect = (a, b)
                    continue
            board.remove(b, s)
            board.remove(a, s)
            if refutation is None and entry is None:
                self.passed = True
                return (a, b)
            zone |= solver.zone
            if refutation is not None:
                if refutation[0] > fallback_turns:
                    fallback, fallback_turns = (a, b), refutation[0]
                x, y = refutation[1]
            else:
                assert entry is not None
                if quiet:
                    quieted = quieted or (a, b)
                elif entered is None:
                    entered = (a, b)
                x, y = entry[1]
            if not steer or widened:
                continue
            front = [p for p in queue if x in p or y in p]
            if sets:
                # Forced to block: each blocking point with a stone on the refutation's first
                # pair (the free stone takes the attacker's point; such a pair is often not
                # among the searched moves).
                front = _blocks_with(blocks, x, y) + front
            else:
                front.insert(0, (x, y))
            queue = front + [p for p in queue if not (x in p or y in p)]
        self.passed = False
        return quieted or suspect or entered or unproven or fallback

    def _iterate(self, pairs: list[tuple[int, int]], first: int = 1
                 ) -> tuple[tuple[int, int], int, int, list[tuple[int, int]], list[tuple[int, int]]]:
        """Iterative deepening at the root; returns (best pair, score, completed depth, the root
        moves best first, the moves whose exact score is within ``self.margin`` of the best —
        empty without a margin or when the best is a mate score). With a margin, a move is
        searched with a full window whenever it may score within the margin of the best so far
        (PVS's null window sits the margin lower), so those scores are exact. ``first``: the
        first depth (a later call goes on where an earlier one stopped; the transposition table
        and the root penalties are the move's own). The completed depth is 0 and the score -INF
        when not even the first root move of the first depth was searched in time."""
        s = self.side
        best = pairs[0]
        best_v = -INF
        done_depth = 0
        limit = self.max_depth if self.max_depth is not None else 64
        order = list(pairs)
        self.deadline = self.end
        if self.penalty is None:
            t0 = now()
            self.penalty = self._potentials(order) if self.cfg.potential else {}
            # counted apart from alpha-beta (the caller times the whole call as alpha_beta)
            self._spent("penalties", t0)
            self.phases["alpha_beta"] = self.phases.get("alpha_beta", 0.0) - (now() - t0)
        penalty = self.penalty
        near: list[tuple[int, int]] = []
        ab_start = now()
        for depth in range(first, limit + 1):
            if depth > first and now() > ab_start + (self.end - ab_start) * NEW_ITERATION:
                break
            alpha = -INF
            cur: tuple[int, int] | None = None
            cur_v = -INF
            scores: dict[tuple[int, int], int] = {}
            exact: list[tuple[int, int]] = []
            try:
                for i, (a, b) in enumerate(order):
                    board = self.board
                    board.place(a, s)
                    board.place(b, s)
                    pen = penalty.get((a, b), 0)
                    # The move must beat alpha (less the margin, if it is not a mate score)
                    # after its penalty: the window moves by both.
                    slack = self.margin if -MATE < alpha < MATE else 0
                    bar = alpha - slack + pen if alpha > -INF else -INF
                    if i == 0:
                        v = -self._ab(1 - s, depth - 1, -INF, INF, 1)
                    else:
                        v = -self._ab(1 - s, depth - 1, -bar - 1, -bar, 1)
                        if v > bar:
                            v = -self._ab(1 - s, depth - 1, -INF, -bar, 1)
                    board.remove(b, s)
                    board.remove(a, s)
                    if i == 0 or v > bar:
                        exact.append((a, b))
                    if -MATE < v < MATE:
                        v -= pen
                    scores[(a, b)] = v
                    if v > cur_v:
                        cur_v = v
                        cur = (a, b)
                    if v > alpha:
                        alpha = v
            except Timeout:
                self._rebuild()
                if cur is not None:
                    best, best_v = cur, cur_v
                    near = self._near(exact, scores, cur, cur_v)
                break
            assert cur is not None
            best, best_v, done_depth = cur, cur_v, depth
            near = self._near(exact, scores, cur, cur_v)
            order.sort(key=lambda p: -scores.get(p, -INF))
            order.remove(best)
            order.insert(0, best)
            if best_v >= MATE or best_v <= -MATE:
                break
        return best, best_v, done_depth, order, near

    def _near(self, exact: list[tuple[int, int]], scores: dict[tuple[int, int], int],
              best: tuple[int, int], best_v: int) -> list[tuple[int, int]]:
        """The moves of one iteration whose exact score is within the margin of the best (the
        best first), or [] without a margin or when the best is a mate score."""
        if not self.margin or not -MATE < best_v < MATE:
            return []
        return [best] + [p for p in exact if p != best and scores[p] >= best_v - self.margin]

    def _potentials(self, pairs: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
        """Per root move: ``potential`` times the number of opponent pairs that would make a
        double threat after it (capped). Quiet losses began in positions where the opponent
        had dozens of them (tools/loss_analysis.py): too many to defend a turn later, and
        beyond what the search and the VCDT checks see."""
        s = self.side
        o = 1 - s
        board = self.board
        out: dict[tuple[int, int], int] = {}
        solver = self.solver(board, self.end, fail=self.vcdt_fail, pure=self.pure)
        for a, b in pairs:
            if now() > self.end:
                return {}  # all or none: a move left uncounted would look better than it is
            board.place(a, s)
            board.place(b, s)
            n = solver.doubles(o, POTENTIAL_CAP) if not board.thr[o] and not board.thr[s] else 0
            board.remove(b, s)
            board.remove(a, s)
            out[(a, b)] = self.cfg.potential * n
        return out

    # ------------------------------------------------------------------ alpha-beta
    def _leaf_vcdt(self, s: int) -> int:
        """The turns of a VCDT of ``s`` (to move, no threats on the board) within the level's
        ``leaf_vcdt``, or 0. The repo's solver itself (not ``self.solver``, which tests script);
        its nodes count for this search, and it shares the move's failure table."""
        solver = Vcdt(self.board, self.deadline, max_pairs=LEAF_PAIRS, fail=self.vcdt_fail, pure=True)
        try:
            found = solver.solve(s, self.cfg.leaf_vcdt)
        finally:
            self.nodes += solver.nodes
        return found[0] if found is not None else 0

    def _ab(self, s: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        core = self.core
        if core is not None:
            # The whole subtree in C, on the same transposition table.
            cfg = self.cfg
            timed_out, self.nodes, value = core.search(self.board.cells, s, depth, alpha, beta, ply,
                                                       self.deadline, self.tt, list(cfg.inner),
                                                       self.nodes, now, self.vcdt_fail, cfg.leaf_vcdt,
                                                       LEAF_PAIRS, cfg.leaf_potential, LEAF_POTENTIAL_CAP,
                                                       cfg.leaf_waiting, cfg.leaf_tempo)
            if timed_out:
                raise Timeout
            return value
        self.nodes += 1
        board = self.board
        thr = board.thr
        if thr[s]:
            return WIN - ply
        o = 1 - s
        sets = board.threat_sets(o) if thr[o] else None
        if sets:
            t = count_hits(sets)
            if t >= 3:
                return -(WIN - ply - 1)
        if depth <= 0 and (not sets or depth <= -QUIESCENCE):
            if not sets and self.cfg.leaf_vcdt:
                turns = self._leaf_vcdt(s)
                if turns:
                    return WIN - ply - 2 * (turns - 1)
            v = board.evaluate(s)
            cfg = self.cfg
            if cfg.leaf_tempo:
                v += cfg.leaf_tempo * board.threes(s)
            if sets:
                return v - THREATENED
            if cfg.leaf_potential:
                v += cfg.leaf_potential * Vcdt(board, self.deadline, pure=True).doubles(s, LEAF_POTENTIAL_CAP)
            if cfg.leaf_waiting:
                v -= cfg.leaf_waiting * Vcdt(board, self.deadline, pure=True).doubles(o, LEAF_POTENTIAL_CAP)
            return v
        if now() > self.deadline:
            raise Timeout
        key = board.hash ^ (SIDE_KEY if s else 0)
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_val, e_flag, ea, eb = entry
            tt_move = ea * 4096 + eb
            if e_depth >= depth:
                if e_val >= MATE:
                    e_val -= ply
                elif e_val <= -MATE:
                    e_val += ply
                if e_flag == EXACT:
                    return e_val
                if e_flag == LOWER and e_val >= beta:
                    return e_val
                if e_flag == UPPER and e_val <= alpha:
                    return e_val
        if sets:
            width_cfg = self.cfg.inner[min(ply - 1, len(self.cfg.inner) - 1)]
            moves = defence_pairs(board, s, sets, 2 if depth <= 0 else width_cfg[1])
            if depth <= 0:
                moves = moves[:3]
        else:
            k1, k2, cap = self.cfg.inner[min(ply - 1, len(self.cfg.inner) - 1)]
            moves = normal_pairs(board, s, k1, k2)[:cap]
        if tt_move >= 0:
            for i, m in enumerate(moves):
                if m[1] * 4096 + m[2] == tt_move:
                    if i:
                        moves.insert(0, moves.pop(i))
                    break
        alpha0 = alpha
        best_v = -INF
        best_a = best_b = -1
        place = board.place
        remove = board.remove
        for _, a, b in moves:
            place(a, s)
            place(b, s)
            v = -self._ab(o, depth - 1, -beta, -alpha, ply + 1)
            remove(b, s)
            remove(a, s)
            if v > best_v:
                best_v = v
                best_a, best_b = a, b
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best_a < 0:
            return board.evaluate(s)
        store = best_v
        if store >= MATE:
            store += ply
        elif store <= -MATE:
            store -= ply
        flag = UPPER if best_v <= alpha0 else LOWER if best_v >= beta else EXACT
        self.tt[key] = (depth, store, flag, best_a, best_b)
        return best_v
