"""The VCDT solver's move generation, proof zones and single-four entries (positions from games
the hard level lost against Cloudict)."""

import dataclasses
import json
import random
import time
from pathlib import Path

from connect6.ai import search
from connect6.ai.board import Board, count_hits, hitting_moves
from connect6.ai.movegen import best_free
from connect6.ai.protocol import parse_stones
from connect6.ai.search import LEVEL_CONFIGS
from connect6.ai.vcdt import WARNING_COUNTERS, WARNING_FREE, Vcdt
from connect6.rules import Position
from tests.unit.ai.lost_games import position_of

SIZE = 19


def board_of(turns: list[str]) -> Board:
    return Board.from_position(Position.from_turns([parse_stones(t, SIZE) for t in turns], SIZE))


def place(board: Board, black: list[tuple[int, int]], white: list[tuple[int, int]]) -> Board:
    for c, r in black:
        board.place(r * SIZE + c, 0)
    for c, r in white:
        board.place(r * SIZE + c, 1)
    return board


def test_a_block_paired_with_a_stone_that_makes_three_threats_wins_at_once():
    # Given White's four on the bottom row (Black must block it) and a Black point that alone
    # completes two open fours, far from White's threat
    board = place(Board(SIZE),
                  black=[(9, 10), (9, 11), (9, 12), (10, 9), (11, 9), (12, 9)],
                  white=[(0, 0), (1, 0), (2, 0), (3, 0)])
    assert board.thr[1] and not board.thr[0]
    # When Black's VCDT is searched one double-threat turn deep
    found = Vcdt(board, time.perf_counter() + 10).solve(0, 1)
    # Then the winning pair blocks White and plays the crossing point
    assert found is not None
    turns, (a, b) = found
    assert turns == 2 and 9 * SIZE + 9 in (a, b)
    assert {a, b} & {4, 5}


def test_a_block_that_also_makes_a_double_threat_starts_a_forced_win():
    # Given a game position where White (hard) had just made a four and Black's block at HH
    # with IJ begins a 5-turn VCDT (the solver did not generate that pair before)
    board = board_of(["JJ", "KJJK", "IKII", "LIIL", "HMMH", "KIKL", "JLKK", "HILM"])
    assert board.thr[1] and not board.thr[0]
    # When Black's VCDT is searched
    found = Vcdt(board, time.perf_counter() + 30).solve(0, 6)
    # Then it is found, and its first pair blocks every White threat window
    assert found is not None and found[0] <= 5
    a, b = found[1]
    assert all(a in x or b in x for x in board.threat_sets(1))


def test_a_stone_making_two_threats_is_paired_with_points_outside_three_windows():
    # Given a Black point in two open 3-windows of different lines, and a lone Black pair far away
    board = place(Board(SIZE),
                  black=[(5, 6), (5, 7), (5, 8), (6, 5), (7, 5), (8, 5), (14, 14), (15, 14)],
                  white=[])
    solver = Vcdt(board, time.perf_counter() + 10)
    ranked, _ = solver._pairs(0)
    corner = 5 * SIZE + 5
    partner = 14 * SIZE + 16  # in an open 2-window only, no 3-window
    # Then the pair (crossing point, that partner) is among the attacker's candidates
    assert (min(corner, partner), max(corner, partner)) in ranked


def test_a_proof_records_its_zone():
    # Given two crossing live threes (a forced win in two turns)
    board = place(Board(SIZE),
                  black=[(5, 5), (6, 5), (7, 5), (12, 10), (12, 11), (12, 12)],
                  white=[(0, 18), (2, 18)])
    solver = Vcdt(board, time.perf_counter() + 10)
    found = solver.solve(0, 3)
    # Then the zone holds the winning pair and the empty points of the threats it makes
    assert found is not None
    a, b = found[1]
    assert {a, b} <= solver.zone
    board.place(a, 0)
    board.place(b, 0)
    for empties in board.threat_sets(0):
        assert set(empties) <= solver.zone


def test_a_single_four_that_leads_into_a_vcdt_is_an_entry():
    # Given a game position (White hard just played JH KJ) where Black's four JK JL wins:
    # after every block, Black has a VCDT
    board = board_of(["JJ", "IIKI", "JIIJ", "JHKJ"])
    assert not board.thr[0] and not board.thr[1]
    solver = Vcdt(board, time.perf_counter() + 60)
    assert solver.solve(0, 6) is None  # no double-threat chain straight away
    # When single-four entries are searched
    entry = solver.entry(0, 6)
    # Then one is found, it is a single threat, and each blocking point loses to a VCDT
    assert entry is not None
    turns, (a, b) = entry
    assert turns >= 3  # the four, then at least one double threat and the six
    board.place(a, 0)
    board.place(b, 0)
    sets = board.threat_sets(0)
    assert count_hits(sets) == 1
    singles, _ = hitting_moves(sets)
    assert singles


def test_an_entry_is_a_forced_win_whatever_the_free_stone():
    # Given the entry of the position above (the defender's free stone was only tried on the
    # points the VCDT after the block could use)
    board = board_of(["JJ", "IIKI", "JIIJ", "JHKJ"])
    entry = Vcdt(board, time.perf_counter() + 60).entry(0, 6)
    assert entry is not None
    turns, (a, b) = entry
    board.place(a, 0)
    board.place(b, 0)
    singles, pairs = hitting_moves(board.threat_sets(0))
    assert not pairs
    # When White blocks and puts its other stone on any empty point of the board
    for c in singles:
        board.place(c, 1)
        for f in [q for q in range(board.area) if board.cells[q] < 0]:
            board.place(f, 1)
            # Then the free stone makes no threat and Black still wins by VCDT, within the turns
            assert not board.thr[1]
            found = Vcdt(board, time.perf_counter() + 60).solve(0, 6)
            assert found is not None and found[0] + 1 <= turns, (c, f)
            board.remove(f, 1)
        board.remove(c, 1)


def test_a_level_with_an_entry_share_plays_an_entry_as_a_forced_win(cpu_clock, monkeypatch):
    # Given the position above, where Black has no VCDT but a single-four entry, and hard given
    # an own-entry share again (no level has one since round 6 of issue 8; the knob stays)
    pos = Position.from_turns([parse_stones(t, SIZE) for t in ["JJ", "IIKI", "JIIJ", "JHKJ"]], SIZE)
    monkeypatch.setitem(LEVEL_CONFIGS, "hard", dataclasses.replace(LEVEL_CONFIGS["hard"], entry_share=0.1))
    # When hard moves with time enough for its entry search (its CPU time: machine load must
    # not cut the search short)
    result = search(pos, "hard", budget_s=30.0, rng=random.Random(0))
    # Then it announces a forced win and plays a single threat
    assert result.reason.startswith("forced win in "), result.reason
    board = Board.from_position(pos)
    for q in result.stones:
        board.place(q, 0)
    assert count_hits(board.threat_sets(0)) == 1


def test_the_free_partner_of_a_double_threat_stone_may_build_from_a_lone_stone():
    # Given a game position (hard as Black just played IG KH against Cloudict depth 2), where
    # White's diagonal three becomes a double threat with one stone (l6) and White won by six
    # double-threat turns, the first partner (l8) sharing an open window with one White stone only
    board = board_of(["JJ", "IIKI", "JIJL", "JHKG", "IGKH"])
    assert not board.thr[0] and not board.thr[1]
    # When White's VCDTs are searched
    found = Vcdt(board, time.perf_counter() + 60).solve(1, 8)
    # Then one is found (the solver paired such stones only with points of windows holding two or
    # three White stones before, and missed every line here)
    assert found is not None
    assert found[0] <= 7


def _loss_boards(limit: int) -> list[tuple[Board, int]]:
    """Boards after the move played in the first ``limit`` saved loss positions, with the
    opponent (the attacker) to move."""
    data = Path(__file__).resolve().parent / "data" / "loss_positions.jsonl"
    out = []
    for line in data.read_text().splitlines()[:limit]:
        case = json.loads(line)
        pos = position_of(case)
        board = Board.from_position(pos)
        mover = 0 if case["to_move"] == "black" else 1
        for q in parse_stones(case["played"], SIZE):
            board.place(q, mover)
        out.append((board, 1 - mover))
    return out


def test_made_count_counts_exactly_the_windows_a_pair_would_make():
    # Given the attacker's candidate pairs in positions from lost games
    for board, s in _loss_boards(12):
        solver = Vcdt(board, time.perf_counter() + 10)
        ranked, through = solver._pairs(s)
        # Then the cheap count agrees with the windows built, pair by pair
        for a, b in ranked:
            assert solver._made_count(a, b, through) == len(solver._made(a, b, through))


def test_threats_by_pair_are_the_threat_windows_each_candidate_pair_makes():
    # Given positions from lost games, the attacker to move without a threat window of its own
    checked = 0
    for board, s in _loss_boards(12):
        if board.thr[s]:
            continue
        solver = Vcdt(board, time.perf_counter() + 10)
        # When the public API lists the candidate pairs and what each would make
        by_pair = solver.threats_by_pair(s)
        # Then the pairs are candidate_pairs, in its order
        assert [pair for pair, _ in by_pair] == solver.candidate_pairs(s)
        # and each pair's windows are the threat windows the board has once the pair is placed
        for (a, b), made in by_pair:
            board.place(a, s)
            board.place(b, s)
            assert set(made) == set(board.threat_sets(s)), (a, b)
            board.remove(b, s)
            board.remove(a, s)
            checked += 1
    assert checked > 100


def _first_triple(solver: Vcdt, pairs: list[tuple[int, int]],
                  through: dict[int, list[tuple[int, tuple[int, ...]]]]) -> tuple[int, int] | None:
    for a, b in pairs:
        made = solver._made(a, b, through)
        if len(made) >= 3 and count_hits(made) >= 3:
            return a, b
    return None


def test_the_last_turn_leaves_out_free_partners_but_keeps_the_first_triple_threat():
    # Given positions from lost games, the attacker to move without a threat against it
    for board, s in _loss_boards(20):
        if board.thr[1 - s] or board.thr[s]:
            continue
        solver = Vcdt(board, time.perf_counter() + 10)
        full, through = solver._pairs(s)
        last, _ = solver._pairs(s, last=True)
        # Then the last turn's pairs keep the full list's order
        position = {p: i for i, p in enumerate(full)}
        assert set(last) <= set(full)
        assert [position[p] for p in last] == sorted(position[p] for p in last)

        # and the first pair that makes three threats is the same in both lists
        assert _first_triple(solver, last, through) == _first_triple(solver, full, through)


def test_checks_sharing_a_failure_table_give_the_same_verdicts_with_fewer_nodes():
    # Given positions from lost games, each checked by a fresh solver
    for board, s in _loss_boards(10):
        fresh = Vcdt(board, time.perf_counter() + 60)
        alone = fresh.solve(s, 5)
        # When a first check fills a table and a second check of the same position uses it
        table: dict[int, int] = {}
        first = Vcdt(board, time.perf_counter() + 60, fail=table)
        assert first.solve(s, 5) == alone
        second = Vcdt(board, time.perf_counter() + 60, fail=table)
        again = second.solve(s, 5)
        # Then the verdict and the first pair are unchanged, and a "no VCDT" costs one node per
        # depth of the iterative deepening
        assert again == alone
        if alone is None:
            assert second.nodes == 5 < fresh.nodes
        else:
            assert second.nodes <= fresh.nodes


def test_the_warning_lets_the_defender_answer_a_four_with_a_four_of_its_own():
    # Given a game position (hard as White played KJ LK against Cloudict depth 4) and Black's
    # four FJ HG: whichever of White's four best points takes the free stone of the block,
    # Black has a VCDT, so the warning used to report an entry here
    board = board_of(["JJ", "JIIK", "IIHJ", "GKKK", "GJHK", "KJLK"])
    four = parse_stones("FJHG", SIZE)
    for q in four:
        board.place(q, 0)
    singles, pairs = hitting_moves(board.threat_sets(0))
    assert singles and not pairs
    solver = Vcdt(board, time.perf_counter() + 60)
    for block in singles:
        board.place(block, 1)
        for _, free in best_free(board, 1, (), WARNING_FREE):
            board.place(free, 1)
            assert solver.solve(0, 6) is not None
            board.remove(free, 1)
        # but a free stone that makes a White four holds (Black must answer it first)
        held = []
        for free in solver._counter_fours(1, WARNING_COUNTERS):
            board.place(free, 1)
            held.append(solver.solve(0, 6) is None)
            board.remove(free, 1)
        assert any(held)
        board.remove(block, 1)
    for q in reversed(four):
        board.remove(q, 0)
    # When White's move is checked for single-four entries
    # Then the warning finds none, and neither does the full check (a proof)
    assert Vcdt(board, time.perf_counter() + 60).warning(0, 6) is None
    assert Vcdt(board, time.perf_counter() + 60).entry(0, 6) is None
