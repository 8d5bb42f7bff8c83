"""The phase profile: the engine's own account of its time, and the lab tool that collects it."""

import json
import random

from connect6.ai import search
from connect6.ai.protocol import parse_stones
from connect6.rules import Position
from tests.unit.ai.test_loss_analysis import CARELESS
from tools.lab import profile_moves

PHASES = {"own_win", "threat_zone", "screen", "penalties", "alpha_beta", "safety_check", "deepen"}


def test_a_searched_move_accounts_for_its_time_by_phase():
    # Given hard on a quiet Little Golem position (Black to move), searched to a fixed depth
    pos = Position(19)
    for turn in ["JJ", "IIKI", "JIJL", "JHKG"]:
        pos.play(parse_stones(turn, 19))
    result = search(pos, "hard", budget_s=5.0, rng=random.Random(0), max_depth=2)
    phases = dict(result.phases)
    # Then the root pipeline's phases are named, none negative, and together within the move's time
    assert {"own_win", "screen", "alpha_beta", "safety_check"} <= set(phases) <= PHASES
    assert all(seconds >= 0 for seconds in phases.values())
    assert sum(phases.values()) <= result.elapsed


def test_a_move_settled_before_the_search_has_no_alpha_beta_phase():
    pos = Position(19)
    pos.play([pos.point(9, 9)])
    assert "alpha_beta" not in dict(search(pos, "easy", budget_s=1.0).phases)


def test_the_tool_replays_the_studied_side_and_prints_its_phases(tmp_path, capsys):
    # Given an arena record in which "ours:test" played White
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n")
    # When the profile replays it with a small budget
    profile_moves.main([str(src), "--level", "normal", "--budget", "0.05"])
    out = capsys.readouterr().out
    # Then every one of White's turns was searched again (4 of the 8 turns after the opening),
    # and the table names the phases
    assert "every move: 4 moves" in out
    assert "alpha_beta" in out and "of 50 (median" in out
