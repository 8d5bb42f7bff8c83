"""The loss analysis on hand-made arena records (no external engine)."""

import json

import pytest

from connect6.records import parse_label, split_labels
from connect6.rules import Position
from tools.lab import arena
from tools.lab import loss_analysis as la

FAST = la.Options(vcdt_seconds=3.0, vcdt_depth=6, search_seconds=1.0, own_seconds=1.0)


def record(game, black, white, opening, moves, winner, reason="six"):
    n = len(opening)
    ms = []
    for i, stones in enumerate(moves):
        colour = "black" if (n + i) % 2 == 0 else "white"
        ms.append({"colour": colour, "engine": black if colour == "black" else white, "stones": stones,
                   "ms": 1.0})
    colour = None if winner is None else "black" if winner == black else "white"
    return {"game": game, "size": 19, "black": black, "white": white, "engines": {}, "opening": opening,
            "opening_source": {}, "moves": ms, "winner": winner, "winner_colour": colour, "reason": reason}


# White (ours) answers Black's growing shape in the centre with stones in the corners; Black
# makes a live four in the column and wins.
CARELESS = record(1, "opp", "ours:test", ["JJ"],
                  ["AAAC", "JKKJ", "AESA", "JLLJ", "ASSS", "JMMJ", "SQSO", "JNJO"], "opp")


def position(turns):
    return Position.from_turns([arena.parse_move(t, 19) for t in turns], 19)


def test_the_first_careless_move_is_found_with_its_refutation_and_a_better_move():
    found = la.analyse_game(CARELESS, "ours:test", FAST, "hand-made")
    assert found is not None and found.colour == "white"
    # A corner move while Black builds in the centre: Black's reply starts a forced win.
    assert found.cls in ("missed-vcdt-defence", "long-vcdt", "quiet-loss")
    assert found.turn in (4, 6)
    assert found.position is not None and found.played
    assert found.position.turn_count == found.turn - 1
    after = la.after(found.position, found.played)
    if found.cls == "missed-vcdt-defence":
        # the refutation is a real forced win after the move played, and the better move holds
        win = la.forced_win(after, 5.0, 6)
        assert win is not None and win.turns == found.refutation_turns
        assert found.better and la.forced_win(la.after(found.position, found.better), 5.0, 6) is None


def test_games_we_did_not_lose_are_skipped_and_forfeits_are_named():
    won = dict(CARELESS, winner="ours:test", black="ours:test", white="opp")
    assert la.analyse_game(won, "ours:test", FAST, "x") is None
    late = record(2, "ours:test", "opp", ["JJ"], ["KKLL"], "opp", reason="ours:test: no answer in time")
    found = la.analyse_game(late, "ours:test", FAST, "x")
    assert found is not None and found.cls == "forfeit"


def test_forced_wins_and_threat_counting():
    # Black has a live four in row J and one in column J; White's stones are in the corners.
    two_fours = ["JJ", "AAAC", "KJLJ", "AESA", "MJJK", "ASSS", "JLJM"]
    assert la.unstoppable(position(two_fours))  # White to move cannot block both
    one_four = ["JJ", "AAAC", "KJLJ", "AESA", "MJSQ"]
    assert not la.unstoppable(position(one_four))  # two stones block one live four
    win = la.forced_win(position([*two_fours, "SOSM"]), 1.0, 3)
    assert win is not None and win.kind == "six" and win.turns == 1
    # On an almost empty board nobody has a forced win.
    assert la.forced_win(position(["JJ", "KKLL"]), 1.0, 3) is None


def test_the_tool_prints_a_summary_and_writes_positions(tmp_path, capsys):
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n" + json.dumps(dict(CARELESS, game=2, winner="ours:test",
                                                                 black="ours:test", white="opp")) + "\n")
    out = tmp_path / "losses.jsonl"
    assert la.main([str(src), "--out", str(out), "--vcdt-seconds", "3", "--search-seconds", "1",
                    "--own-seconds", "1"]) == 0
    text = capsys.readouterr().out
    assert "lost games                 1  of 2 games" in text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert row["to_move"] == "white" and row["class"] in la.CLASSES
    # the position is given as Little Golem labels and protocol letters, and replays legally
    assert row["turns_lg"][0] == "j10"
    pos = position(row["turns"])
    assert pos.to_move.value == "white"
    pos.play([parse_label(lab, 19) for lab in split_labels(row["played"])])


@pytest.mark.parametrize("played, keeps", [("JMMJ", True), ("SQSO", False)])
def test_a_move_that_goes_on_attacking_keeps_the_win(played, keeps):
    before = position(["JJ", "AAAC", "JKKJ", "AESA", "JLLJ", "ASSS"])
    assert la.keeps_attack(before, tuple(arena.parse_move(played, 19))) is keeps


def test_saved_positions_are_replayed_with_the_current_engine(tmp_path, capsys):
    # Given the position before White's careless corner move, saved as the tool writes it
    case = {"id": "careless", "class": "missed-vcdt-defence", "size": 19, "turns": ["JJ", "AAAC", "JKKJ"],
            "to_move": "white", "played": "AESA", "refutation_turns": 7}
    path = tmp_path / "positions.jsonl"
    path.write_text(json.dumps(case) + "\n" + json.dumps(dict(case, id="skipped", **{"class": "quiet-loss"})))
    # When the engine answers it at a short budget
    assert la.main([str(path), "--check-positions", "--budget", "0.3", "--vcdt-seconds", "3"]) == 0
    out = capsys.readouterr().out
    # Then only the VCDT-class position is counted, with a verdict
    assert "careless" in out and "skipped" not in out
    assert "hard: " in out and " of 1 positions held" in out


# hard vs Cloudict depth 4, game 34, after White's block o9 i9 of Black's four j9–m9: White now has
# a threat of its own, and Black wins by blocking it with one stone while the other stone makes
# three threats — a pair the VCDT solver does not generate (it pairs points of Black's windows).
BLOCK_AND_TRIPLE = ["JJ", "KKJL", "LJKI", "LHIK", "MKJH", "IGNL", "MJKJ", "IJOJ", "MHMI", "MGML", "JILI",
                    "OIII"]


def test_a_block_with_one_stone_and_three_threats_with_the_other_is_a_forced_win():
    pos = position(BLOCK_AND_TRIPLE)
    board = la.Board.from_position(pos)
    pair = la.triple_threat(board, 0)
    assert pair is not None
    pos.play(list(pair))
    after = la.Board.from_position(pos)
    assert not after.thr[1] and la.count_hits(after.threat_sets(0)) >= 3
    win = la.forced_win(position(BLOCK_AND_TRIPLE), 3.0, 4)
    assert win is not None and win.turns == 2
    # and where it does not apply, nothing is claimed
    assert la.triple_threat(la.Board.from_position(position(["JJ", "KKLL"])), 0) is None


def test_an_entry_through_a_block_counts_as_a_forced_win_with_entry_depth():
    # Given a position from hard's games against Cloudict after a four of ours that the
    # opponent blocks with a four of its own (tests/unit/ai/data/block_entry_positions.jsonl)
    from tests.unit.ai.lost_games import case_stones, cases
    case = cases("block_entry_positions.jsonl")[1]
    after = la.after(position(case["turns"]), case_stones(case, "played_lg"))
    # Then without entries there is no forced win, with them an entry in a few turns
    assert la.forced_win(after, 5.0, 8) is None
    win = la.forced_win(after, 5.0, 8, entry_depth=6)
    assert win is not None and win.kind == "entry" and 2 <= win.turns <= 7
    # whose first pair blocks our four and makes one of the opponent's own
    board = la.Board.from_position(la.after(after, list(win.stones)))
    side = 1 - after.to_move.index
    assert not board.thr[side] and la.count_hits(board.threat_sets(1 - side)) == 1
