"""The ``connect6`` command line: replay, show, engine pass-through."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from connect6 import cli

ROOT = Path(__file__).resolve().parents[2]
WIN = "1.a1 2.a19c19 3.b1c1 4.e19g19 5.d1e1 6.i19k19 7.k10f1"
SGF = "(;FF[4]EV[connect6.ch.29.2.1]PB[Ana]PW[Ben]SO[x];B[j10];W[k9j12];B[k12l10])"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_writes_one_json_line_per_record_and_skips_blank_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a file with a won game, a blank line, an SGF game, an illegal and an unreadable one
    path = tmp_path / "games.txt"
    path.write_text(f"{WIN}\n\n{SGF}\n1.j10 2.j10k9\nnot a record\n   \n")
    # When it is replayed
    code, out, err = run(capsys, "replay", str(path))
    # Then every line was read, each record reported with its input line number
    assert code == 0 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["index"] for row in rows] == [0, 2, 3, 4]
    assert rows[0] == {"index": 0, "legal": True, "error": None, "turns": 7, "stones": 13,
                       "winner": "black", "six_at_turn": 7,
                       "winning_line": ["a1", "b1", "c1", "d1", "e1", "f1"], "draw": False,
                       "error_at": None}
    assert rows[1]["legal"] and rows[1]["winner"] is None and rows[1]["turns"] == 3
    assert rows[2]["legal"] is False and rows[2]["error"] == "turn 2, stone 1 (j10): j10 is already taken"
    assert rows[3]["legal"] is False and rows[3]["error"].startswith("unreadable record")
    # And the key order is the documented one
    assert list(rows[0]) == ["index", "legal", "error", "turns", "stones", "winner", "six_at_turn",
                             "winning_line", "draw", "error_at"]


def test_replay_reads_stdin_and_honours_size(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1.h8 2.o15a1\n1.h8 2.s19a1\n"))
    code, out, _ = run(capsys, "replay", "-", "--size", "15")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert rows[0]["legal"] is True
    assert rows[1]["error"] == "turn 2, stone 1 (s19): s19 is off the 15x15 board"


def test_replay_of_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path / "nope.txt"))
    assert code == 2 and out == "" and "cannot read" in err


def test_bad_size_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["replay", "--size", "5"])
    assert exc.value.code == 2
    assert "from 6 to 59" in capsys.readouterr().err


def test_show_prints_the_board_with_axes_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", WIN)
    lines = out.splitlines()
    assert code == 0
    assert lines[0].split() == list("abcdefghijklmnopqrs")
    assert lines[1].split()[0] == "19" and lines[1].split()[-1] == "19"
    bottom = lines[19].split()
    assert bottom[0] == "1" and bottom[1:7] == ["X"] * 6 and bottom[-1] == "1"
    assert lines[-1] == "black won at turn 7: a1 b1 c1 d1 e1 f1"


def test_show_reads_a_file_and_wide_boards_label_columns_aa(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.sgf"
    path.write_text("\n(;FF[4]SZ[28];B[ab28])\n")
    code, out, _ = run(capsys, "show", str(path))
    lines = out.splitlines()
    assert code == 0
    assert lines[0].split()[-2:] == ["aa", "ab"]
    assert lines[1].split()[-2:] == ["X", "28"]
    assert lines[-1] == "after turn 1: white to play 2 stones"


def test_show_reports_an_illegal_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "1.j10 2.j10k9")
    assert code == 1
    assert "j10 is already taken" in err
    assert "after turn 1" in out  # the position before the illegal turn is still shown
    code, _, err = run(capsys, "show", "nonsense")
    assert code == 1 and "unreadable record" in err


def test_engine_passes_every_argument_through(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    fake = types.ModuleType("connect6.ai.protocol")

    def fake_main(argv: list[str]) -> int:
        seen.append(argv)
        return 3

    fake.main = fake_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "connect6.ai.protocol", fake)
    assert cli.main(["engine", "--size", "15", "--level", "hard"]) == 3
    assert seen == [["--size", "15", "--level", "hard"]]


def test_engine_missing_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def refuse(name: str) -> types.ModuleType:
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(cli.importlib, "import_module", refuse)
    code, _, err = run(capsys, "engine", "--size", "15")
    assert code == 2 and "engine is not available" in err


def test_python_dash_m_connect6_runs(tmp_path: Path) -> None:
    # Given only layers/connect6 on PYTHONPATH
    env = dict(os.environ, PYTHONPATH=str(ROOT / "layers" / "connect6"))
    done = subprocess.run([sys.executable, "-m", "connect6", "replay", "-"], input=WIN + "\n",
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == "black"
