"""Move coverage: whether the pairs an engine played are among the pairs our generator offers."""

import json

from connect6.ai.board import Board
from connect6.ai.movegen import normal_pairs
from connect6.ai.protocol import parse_stones
from connect6.records.labels import point_label
from connect6.rules import Position
from tools.lab import move_coverage
from tools.lab.arena import move_text


def record(opening: list[str], moves: list[tuple[str, str]], ours: str = "white") -> dict:
    """An arena record line (only what the tool reads): ``moves`` as (engine, stones)."""
    colours = ["black", "white"]
    first = len(opening) % 2  # whose turn follows the opening (Black opened with one stone)
    return {
        "game": 1, "size": 19, "opening": opening,
        "black": "ours:hard" if ours == "black" else "opp",
        "white": "ours:hard" if ours == "white" else "opp",
        "moves": [{"colour": colours[(first + i) % 2], "engine": e, "stones": s, "ms": 1.0}
                  for i, (e, s) in enumerate(moves)],
        "winner": None, "winner_colour": None, "reason": "turn limit",
    }


def top_pair(opening: list[str]) -> str:
    pos = Position(19)
    for turn in opening:
        pos.play(parse_stones(turn, 19))
    _, a, b = normal_pairs(Board.from_position(pos), pos.to_move.index, 9, 4)[0]
    return move_text([a, b], 19)


def test_the_generators_best_pair_is_covered_and_a_far_corner_pair_is_not():
    # Given a game in which the opponent (White) played our generator's best pair, and we (Black)
    # answered in the far corner
    opening = ["JJ"]
    rec = record(opening, [("opp", top_pair(opening)), ("ours:hard", "AAAS")], ours="black")
    # When its coverage is measured
    sides = move_coverage.coverage([rec], [(9, 4, 20), (1, 1, 1)])
    # Then the opponent's turn is covered at every width and its first stone ranks first
    opp, ours = sides["opponent"], sides["ours"]
    assert opp.turns == 1 and opp.covered == {(9, 4, 20): 1, (1, 1, 1): 1}
    assert opp.first_ranks == [0] and opp.second_ranks == [0]
    # and ours, two stones off the candidate list, is covered at none and ranks last
    assert ours.turns == 1 and ours.covered == {(9, 4, 20): 0, (1, 1, 1): 0}
    assert ours.first_ranks[0] > 9 and ours.second_ranks[0] > 4


def test_turns_played_under_a_threat_are_not_counted():
    # Given Black with five in a row (JJ..NJ) and White to move: a forced block, not a choice
    rec = record(["JJ", "AAAB", "KJLJ", "ACAD", "MJNJ"], [("ours:hard", "OJIJ")], ours="white")
    # Then no quiet turn is counted for either side
    sides = move_coverage.coverage([rec], [(9, 4, 20)])
    assert sides["ours"].turns == 0 and sides["opponent"].turns == 0


def test_the_tool_prints_one_line_per_side(tmp_path, capsys):
    src = tmp_path / "games.jsonl"
    opening = ["JJ"]
    src.write_text(json.dumps(record(opening, [("opp", top_pair(opening))], ours="black")) + "\n")
    assert move_coverage.main([str(src), "--widths", "9,4,20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("side") and "9x4 cap 20" in lines[0]
    assert lines[1].split()[:2] == ["ours", "0"]
    assert lines[2].split()[:3] == ["opponent", "1", "100"]


def test_pair_shapes_tell_lines_by_their_gap_from_knights_and_scattered_stones():
    n = 19

    def at(col: int, row: int) -> int:
        return row * n + col

    # Given pairs on a row, a column and a diagonal, a knight's move and two scattered stones
    assert move_coverage.pair_shape(n, at(3, 3), at(4, 3)) == "line 1"
    assert move_coverage.pair_shape(n, at(3, 3), at(3, 5)) == "line 2"
    assert move_coverage.pair_shape(n, at(6, 6), at(3, 3)) == "line 3"
    assert move_coverage.pair_shape(n, at(2, 9), at(5, 6)) == "line 3"
    assert move_coverage.pair_shape(n, at(0, 0), at(0, 18)) == "line 4+"
    assert move_coverage.pair_shape(n, at(3, 3), at(4, 5)) == "knight"
    assert move_coverage.pair_shape(n, at(3, 3), at(5, 4)) == "knight"
    # a point on the next row's start is not adjacent to the previous row's end
    assert move_coverage.pair_shape(n, at(18, 3), at(0, 4)) == "unaligned"
    assert move_coverage.pair_shape(n, at(3, 3), at(6, 4)) == "unaligned"


def test_shapes_count_the_pair_played_and_the_generators_best_pair(tmp_path, capsys):
    # Given the opponent (White) playing a connected pair and we (Black) a scattered one
    opening = ["JJ"]
    rec = record(opening, [("opp", "KKKL"), ("ours:hard", "AAGS")], ours="black")
    sides = move_coverage.coverage([rec], [(9, 4, 20)])
    # Then each side's played shape is counted once, and our best pair's shape once per turn
    assert sides["opponent"].played_shapes == {"line 1": 1}
    assert sides["ours"].played_shapes == {"unaligned": 1}
    assert sum(sides["ours"].generated_shapes.values()) == 1
    assert sum(sides["opponent"].generated_shapes.values()) == 1
    # and the report prints the shares as percentages of the side's quiet turns
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(rec) + "\n")
    assert move_coverage.main([str(src), "--widths", "9,4,20", "--shapes"]) == 0
    out = capsys.readouterr().out.splitlines()
    played = next(line for line in out if line.startswith("opponent played"))
    assert played.split()[2:4] == ["100", "%"]


def loss_finding(turns: list[str], played: list[int], refutation: list[int]) -> dict:
    """A loss_analysis --out line (only what the tool reads): our ``played`` pair after ``turns``
    and the opponent's ``refutation``."""
    return {"record": "games.jsonl", "game": 3, "turn": len(turns) + 1, "colour": "white", "size": 19,
            "turns": turns, "played": "".join(point_label(p, 19) for p in played),
            "refutation": "".join(point_label(p, 19) for p in refutation)}


def at(col: int, row: int) -> int:
    return row * 19 + col


def test_a_refutation_is_ranked_among_the_pairs_the_opponent_is_offered():
    # Given our quiet move in a corner after Black's centre stone, and two refutations: the
    # generator's best pair for Black there, and a pair in the far corner
    turns, played = ["JJ"], [at(0, 0), at(1, 0)]
    pos = Position(19)
    pos.play(parse_stones("JJ", 19))
    pos.play(played)
    _, a, b = normal_pairs(Board.from_position(pos), pos.to_move.index, 9, 4)[0]
    findings = [loss_finding(turns, played, [a, b]), loss_finding(turns, played, [at(18, 18), at(17, 18)])]
    # When the refutations are ranked at two width sets
    rows = move_coverage.refutation_ranks(findings, [(9, 4, 20), (1, 1, 1)])
    # Then the best pair ranks first at both and the corner pair is offered at neither
    assert [r.forced for r in rows] == [False, False]
    assert rows[0].pair_ranks == {(9, 4, 20): 0, (1, 1, 1): 0} and rows[0].stone_ranks == (0, 0)
    assert rows[1].pair_ranks == {(9, 4, 20): None, (1, 1, 1): None}


def test_a_block_is_ranked_among_the_blocking_pairs(capsys, tmp_path):
    # Given our move that makes four in a row (c3..f3) and Black's answer that closes both ends
    turns = ["JJ", "CCDC", "JAJB"]
    played = [at(4, 2), at(5, 2)]
    findings = [loss_finding(turns, played, [at(1, 2), at(6, 2)])]
    # When it is ranked
    rows = move_coverage.refutation_ranks(findings, [(9, 4, 20)])
    # Then it is a forced answer, offered among the blocks
    assert rows[0].forced and rows[0].pair_ranks[(9, 4, 20)] is not None
    # and the tool's report counts it as an offered block
    src = tmp_path / "losses.jsonl"
    src.write_text(json.dumps(findings[0]) + "\n")
    assert move_coverage.main([str(src), "--refutations", "--widths", "9,4,20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "a block" in out[1]
    assert out[-2].split()[-1] == "1" and "1 blocks" in out[-2]


def test_a_refutation_counts_the_threats_it_made(tmp_path, capsys):
    # Given Black's two stones j10 k10 with White's stone on i10, our quiet move in a corner, and
    # two refutations: a four that White's stone closes on one side (one threat) and the
    # generator's best quiet pair
    turns, played = ["JJ", "IJAA", "KJSS"], [at(0, 18), at(1, 18)]
    pos = Position(19)
    for turn in turns:
        pos.play(parse_stones(turn, 19))
    pos.play(played)
    _, a, b = normal_pairs(Board.from_position(pos), pos.to_move.index, 9, 4)[0]
    findings = [loss_finding(turns, played, [at(11, 9), at(12, 9)]), loss_finding(turns, played, [a, b])]
    # When they are ranked
    rows = move_coverage.refutation_ranks(findings, [(9, 4, 20)])
    # Then the four counts one threat and the quiet pair none; the four is not among the pairs
    # hard's first inner ply offers (its stones rank 21st and 31st by point score)
    assert [r.forced for r in rows] == [False, False]
    assert rows[0].threats == 1 and rows[1].threats == 0
    assert rows[0].pair_ranks[(9, 4, 20)] is None and rows[1].pair_ranks[(9, 4, 20)] == 0
    # and the report counts the free choices offered by the threats they made
    src = tmp_path / "losses.jsonl"
    src.write_text("".join(json.dumps(f) + "\n" for f in findings))
    assert move_coverage.main([str(src), "--refutations", "--widths", "9,4,20"]) == 0
    out = capsys.readouterr().out.splitlines()
    offered = {line.split("(of ")[1].split(")")[0]: line.split()[-1] for line in out if "(of " in line}
    assert offered == {"2 free choices": "1", "1 free choices, 0 threats": "1",
                       "1 free choices, 1 threat": "0", "0 blocks": "0"}
