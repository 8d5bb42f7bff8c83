"""The engine's text protocol (stdin/stdout)."""

import io
import subprocess
import sys

import pytest

from connect6.ai.protocol import Session, main, move_text, parse_stones, serve


def session(**kw):
    return Session(19, "easy", err=io.StringIO(), **kw)


def test_letters_are_column_then_row_from_bottom_left():
    assert parse_stones("JJ", 19) == [9 * 19 + 9]
    assert parse_stones("AB", 19) == [19]  # column A, row B
    assert move_text([0, 18], 19) == "AASA"
    assert parse_stones("hh", 15) == [7 * 15 + 7]


def test_new_black_answers_the_opening_at_the_centre():
    s = session()
    assert s.handle("new black") == ["move JJ"]


def test_new_white_is_silent_then_answers_two_stones():
    s = session()
    assert s.handle("new white") == []
    (answer,) = s.handle("move JJ")
    assert answer.startswith("move ") and len(answer) == len("move ") + 4
    stones = parse_stones(answer[5:], 19)
    assert len(set(stones)) == 2 and 9 * 19 + 9 not in stones


def test_setup_then_next_searches_for_the_side_to_move():
    s = session()
    assert s.handle("new white") == []
    assert s.handle("black JJ") == []
    assert s.handle("white KKKJ") == []
    (answer,) = s.handle("next")
    assert answer.startswith("move ")
    assert s.position.to_move.value == "white" and s.position.turn_count == 3


@pytest.mark.parametrize(
    "line",
    ["bogus", "move ZZ", "move J", "black JJJJJJ", "level expert", "time -5", "depth x", "new grey",
     "white JJ"],
)
def test_illegal_commands_answer_an_error_line_and_the_engine_carries_on(line):
    s = session()
    s.handle("new white")
    out = s.handle(line)
    assert len(out) == 1 and out[0].startswith("error")
    assert s.handle("name")[0].startswith("name ")


def test_occupied_point_is_an_error():
    s = session()
    s.handle("new white")
    s.handle("black JJ")
    assert s.handle("white JJKK")[0].startswith("error")


def test_settings_commands():
    s = session()
    assert s.handle("level hard") == [] and s.level == "hard"
    assert s.handle("time 40") == [] and s.budget == pytest.approx(0.04)
    assert s.handle("depth 2") == [] and s.depth == 2
    assert s.handle("depth 0") == [] and s.depth is None


def test_winning_move_from_the_opponent_ends_without_answer():
    s = session()
    s.handle("new white")
    # Black will have five on row A (A..E) after setup; White plays elsewhere.
    for line in ["black JJ", "white AJAK", "black AAAB", "white BJBK", "black ACAD", "white CJCK"]:
        assert s.handle(line) == []
    assert s.handle("move AEAF") == []
    assert s.position.winner is not None
    assert s.handle("next")[0].startswith("error")


def test_serve_stops_at_quit_and_only_answers_go_out():
    out = io.StringIO()
    serve(io.StringIO("name\nnew black\nquit\nnew black\n"), out, session())
    assert out.getvalue().splitlines() == ["name connect6-py", "move JJ"]


def test_main_runs_as_a_module_and_exits_at_end_of_input():
    proc = subprocess.run([sys.executable, "-m", "connect6.ai.protocol", "--size", "15", "--level", "easy"],
                          input="new black\nmove IIIJ\nfoo\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "move HH"
    assert lines[1].startswith("move ") and len(lines[1]) == 9
    assert lines[2].startswith("error")
    assert "ready" in proc.stderr


def test_main_rejects_a_board_the_letters_cannot_name(capsys):
    assert main(["--size", "30"]) == 2
