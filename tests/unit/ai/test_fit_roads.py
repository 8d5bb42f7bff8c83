"""The road-weight fit: road counts, quiet positions from arena records, the logistic fit."""

import json
import math
import random

from connect6.ai.board import Board
from connect6.rules import Position
from tests.unit.ai.test_loss_analysis import CARELESS, record
from tools.lab import arena, fit_roads


def test_roads_are_counted_by_stones_and_a_window_with_both_colours_is_nobodys():
    # Given a black stone in the corner and a white stone beside it on the top row
    board = Board.from_position(Position.from_turns([[0], [1, 360]], 19))
    black, white = fit_roads.road_counts(board)
    # Then Black's corner stone has its own windows (a column and a diagonal) and the row
    # window through both stones counts for neither
    assert black[1] == 2 and sum(black[2:]) == 0
    assert white[1] > 0 and sum(white[2:]) == 0


def test_quiet_positions_are_labelled_from_the_side_to_move_and_threats_are_left_out(tmp_path):
    # Given the careless game: Black builds in the centre and wins with a column of six
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n")
    rows = fit_roads.quiet_rows([src])
    turns = arena.read_record_file(src)[0]["moves"]
    # Then some positions are left out (once Black has four in the column it is a threat) ...
    assert 0 < len(rows) < len(turns)
    # ... and Black, who won, is labelled 1 when it is to move and White 0
    assert {label for _, label in rows} == {0.0, 1.0}
    for features, label in rows:
        own3, enemy3 = features[2], features[5]
        assert not (label == 0.0 and own3 > enemy3)  # White never had more threes than Black


def test_a_drawn_game_labels_both_sides_a_half(tmp_path):
    drawn = record(1, "a", "b", ["JJ"], ["AAAC", "SSSR"], None, reason="draw")
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(drawn) + "\n")
    assert {label for _, label in fit_roads.quiet_rows([src])} == {0.5}


def test_the_fit_recovers_the_weights_that_made_the_labels():
    # Given outcomes drawn from a known logistic model of two features
    rng = random.Random(7)
    rows = []
    for _ in range(2000):
        x = [rng.uniform(0, 10), rng.uniform(0, 10)]
        p = 1 / (1 + math.exp(-(0.6 * x[0] - 0.3 * x[1] - 1.0)))
        rows.append((x, 1.0 if rng.random() < p else 0.0))
    # When they are fitted
    weights, bias, loss = fit_roads.fit(rows, iterations=400)
    # Then the weights, the bias and their ratio come back
    assert abs(weights[0] - 0.6) < 0.1 and abs(weights[1] + 0.3) < 0.08 and abs(bias + 1.0) < 0.4
    assert abs(weights[1] / weights[0] + 0.5) < 0.12
    assert loss < math.log(2)


def test_the_tool_prints_the_fitted_weights_beside_the_engines(tmp_path, capsys):
    src = tmp_path / "games.jsonl"
    src.write_text(json.dumps(CARELESS) + "\n")
    assert fit_roads.main([str(src), "--iterations", "50"]) == 0
    out = capsys.readouterr().out
    assert "quiet positions" in out and "enemy 3" in out
    assert "+10.00" in out  # the engine's own 3-stone road, ten times its 1-stone road
