"""The move diff: two engines' moves on the positions of arena games, position by position."""

import json

import pytest

from tests.unit.ai.test_loss_analysis import CARELESS
from tools.lab import move_diff


def move(game, turn, stones, reason="strongest shape"):
    return {"game": game, "turn": turn, "move": stones, "reason": reason, "score": 0, "depth": 2}


def test_moves_are_compared_position_by_position():
    a = [move(1, 3, "JKKJ"), move(1, 5, "JLLJ"), move(2, 4, "AAAB")]
    b = [move(1, 3, "JKKJ"), move(1, 5, "JLLK"), move(2, 4, "AAAB")]
    same, differ = move_diff.compare(a, b)
    assert same == 2
    assert [(x["move"], y["move"]) for x, y in differ] == [("JLLJ", "JLLK")]


def test_engines_that_saw_different_positions_are_not_compared():
    with pytest.raises(ValueError, match="different positions"):
        move_diff.compare([move(1, 3, "JKKJ")], [move(1, 5, "JKKJ")])


def test_the_same_engine_at_a_fixed_depth_plays_the_same_moves(tmp_path, capsys):
    # Given an arena record in which "ours:test" played White and lost (4 turns after the opening)
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n")
    # When this tree's engine plays those positions as both A and B, alpha-beta's depth fixed
    move_diff.main([str(src), "--level", "normal", "--depth", "1", "--budget", "2", "--lost"])
    # Then every one of White's four positions was searched by both, with the same move
    assert "4 positions; the same move in 4, different in 0" in capsys.readouterr().out


def test_only_the_chosen_colour_is_replayed(tmp_path, capsys):
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n")
    move_diff.main([str(src), "--level", "easy", "--colour", "black"])
    assert "0 positions" in capsys.readouterr().out


def test_a_folder_without_the_engine_is_refused(tmp_path):
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n")
    with pytest.raises(SystemExit):
        move_diff.main([str(src), "--layer-a", str(tmp_path)])
