"""The arena's bookkeeping and one real game between two engine processes."""

import contextlib
import gzip
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from connect6.rules import Position
from tools.lab import arena, bench_ai

# The arena runs as a module from the repository root, as its README says.
REPO_ROOT = Path(__file__).resolve().parents[3]


def test_elo_of_scores():
    assert arena.elo(0.5) == 0
    assert arena.elo(0.75) == pytest.approx(190.8, abs=0.1)
    assert arena.elo(1.0) == math.inf and arena.elo(0.0) == -math.inf
    e, lo, hi = arena.elo_interval([1.0] * 30 + [0.0] * 10)
    assert lo < e < hi


def test_percentile_and_move_text():
    assert arena.percentile([1.0, 2.0, 3.0, 4.0], 0.99) == 4.0
    assert arena.percentile(list(range(1, 101)), 0.5) == 50
    assert arena.move_text([9 * 19 + 9], 19) == "JJ"
    assert arena.parse_move("JJKK", 19) == [9 * 19 + 9, 10 * 19 + 10]
    with pytest.raises(ValueError):
        arena.parse_move("ZZ", 19)


def test_openings_are_scored_in_pairs_of_one_game_with_each_colour(capsys):
    # Given three openings, each played with both colours, and one played once
    def game(opening, black, white, winner):
        return arena.GameRecord(black, white, winner, "six" if winner else "draw",
                                [(opening,), (opening + 1, opening + 2)], opening_turns=1)
    records = [game(10, "a", "b", "a"), game(10, "b", "a", "a"),   # won both
               game(50, "a", "b", "a"), game(50, "b", "a", "b"),   # split: each side won as Black
               game(90, "a", "b", None), game(90, "b", "a", "b"),  # a draw and a loss
               game(130, "a", "b", "b")]                           # one colour only: not a pair
    # When they are counted for "a"
    pairs = arena.opening_pairs(records, "a")
    # Then each pair counts once, by a's points from it
    assert pairs == {2.0: 1, 1.0: 1, 0.5: 1}
    assert arena.opening_pairs(records, "b") == {0.0: 1, 1.0: 1, 1.5: 1}
    arena.report(records, "a", "b", "19x19", "test")
    assert "won both 1, split 1, lost both 0, with a draw 1" in capsys.readouterr().out


def test_two_records_are_compared_game_by_game_on_the_same_openings_and_colours(capsys):
    # Given two runs of one engine "a" against "b" on the same openings: the second run wins
    # opening 50 as White where the first lost it, loses opening 90 as Black where the first
    # won, and ties the rest; each run has one game the other lacks
    def game(opening, black, white, winner, reply=1):
        return arena.GameRecord(black, white, winner, "six" if winner else "draw",
                                [(opening,), (opening + reply, opening + 2)], opening_turns=1)
    first = [game(10, "a", "b", "a"), game(10, "b", "a", "a"),
             game(50, "b", "a", "b"), game(90, "a", "b", "a"),
             game(130, "a", "b", "a")]
    second = [game(10, "a", "b", "a"), game(10, "b", "a", "a", reply=3),
              game(50, "b", "a", "a", reply=4), game(90, "a", "b", None, reply=4),
              game(170, "a", "b", "b")]
    # When they are paired for "a"
    pairs = arena.pair_records(first, second, "a")
    # Then four games pair up (the colour is part of the pair), one of them played the same move
    # for move; the first run did better on one, the second on another
    assert pairs == arena.Paired(paired=4, same_moves=1, only_first=1, only_second=1,
                                 only_first_white=0, only_second_white=1, unpaired=2)
    assert pairs.sign_test_p == 1.0
    arena.report_pairs(pairs, "a", "first.jsonl", "second.jsonl")
    out = capsys.readouterr().out
    assert "(1 the same move for move, 2 without a partner)" in out
    assert "better in first.jsonl 1 (as White 0), better in second.jsonl 1 (as White 1)" in out


@pytest.mark.parametrize(("first", "second", "p"), [(0, 0, 1.0), (5, 0, 0.0625), (0, 6, 0.03125),
                                                   (9, 1, 0.021484375), (3, 3, 1.0)])
def test_the_sign_test_is_exact_and_two_sided(first, second, p):
    pairs = arena.Paired(first + second, 0, first, second, 0, 0, 0)
    assert pairs.sign_test_p == pytest.approx(p)


def test_against_needs_a_record_to_compare(tmp_path):
    with pytest.raises(SystemExit):
        arena.main(["fa", "fb", "--against", str(tmp_path / "other.jsonl")])


@pytest.mark.parametrize("size", [15, 19])
def test_openings_are_legal_and_varied(size):
    rng = random.Random(1)
    openings = [arena.make_opening(size, rng) for _ in range(10)]
    for op in openings:
        Position.from_turns(op, size)
    assert len({str(op) for op in openings}) > 5


def test_a_game_between_two_engine_processes_is_checked_and_timed():
    specs = {"ours:easy#A": arena.expand("ours:easy", 9), "ours:easy#B": arena.expand("ours:easy", 9)}
    opening = arena.make_opening(9, random.Random(2))
    rec = arena.play_game(specs, "ours:easy#A", "ours:easy#B", opening, 9, 20.0, 60, None, 0, {})
    assert rec.reason in ("six", "draw", "turn limit")
    final = Position.from_turns(rec.turns, 9)
    if rec.reason == "six":
        assert final.winner is not None
    assert rec.times["ours:easy#A"] and rec.times["ours:easy#B"]


def test_engine_labels_and_commands():
    assert arena.split_label("v1=python3 main.py --size {size}") == ("v1", "python3 main.py --size {size}")
    assert arena.split_label("ours:hard") == ("ours:hard", "ours:hard")
    assert arena.expand("engine --size {size}", 15) == ["engine", "--size", "15"]
    assert arena.expand("ours:hard", 15)[-6:] == ["--size", "15", "--level", "hard", "--clock", "wall"]
    assert arena.expand("ours:hard", 15, "cpu")[-2:] == ["--clock", "cpu"]



def test_ours_gets_a_seed_per_game_and_may_come_from_another_layer(tmp_path):
    cmd = arena.expand("ours:hard", 19, "cpu")
    assert cmd[cmd.index("--seed") + 1] == "{seed}"
    snap = arena.expand("ours:hard", 19, "cpu", tmp_path)
    assert snap[:2] == ["env", f"PYTHONPATH={tmp_path.resolve()}"] and snap[2:] == cmd
    assert arena.game_seed(1, 0) != arena.game_seed(1, 1) != arena.game_seed(2, 1)


def test_distinct_games_are_counted_move_for_move_and_up_to_symmetry():
    def rec(turns):
        return arena.GameRecord("a", "b", "a", "six", turns)
    c = 9 * 19 + 9
    game = [(c,), (c + 1, c + 2), (c + 19, c + 38)]
    mirrored = [(c,), (c - 1, c - 2), (c + 19, c + 38)]  # the same game turned about the centre column
    swapped = [(c,), (c + 2, c + 1), (c + 19, c + 38)]  # the same stones in another order
    assert arena.distinct_games([rec(game), rec(mirrored), rec(swapped)], 19) == (2, 1)


def test_centre_openings_repeat_one_stone_and_each_game_gets_its_own_seed(tmp_path, capsys):
    record = tmp_path / "games.jsonl"
    rc = arena.main([f"fa={sys.executable} {FAKE}", f"fb={sys.executable} {FAKE}", "--games", "4",
                     "--openings", "centre", "--max-turns", "12", "--record", str(record), "--seed", "5",
                     "--no-calibrate", "--cwd-a", str(tmp_path), "--cwd-b", str(tmp_path)])
    assert rc == 0
    assert "distinct games with fa as Black:" in capsys.readouterr().out
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [g["opening"] for g in games] == [["JJ"]] * 4
    assert sorted(g["seed"] for g in games) == [arena.game_seed(5, i) for i in range(4)]

# ---------------------------------------------------------------- engines that are not ours
FAKE = Path(__file__).resolve().parent / "fake_engine.py"


def fake(stubborn: bool = False) -> list[str]:
    return [sys.executable, str(FAKE)] + (["--stubborn"] if stubborn else [])


@pytest.mark.parametrize("line, stones", [
    ("move JJ", "JJ"), ("move jjkk", "JJKK"), ("move JJKK  ", "JJKK"),
    ("            move XXXX   - tell the engine that the opponent take the move XXXX,", None),
    ("move XXXX - tell", None), ("Searching 1/39", None), ("moved JJ", None), ("move JJK", None),
    ("Score :\t804.700", None),
])
def test_only_a_whole_move_line_is_an_answer(line, stones):
    assert arena.read_answer(line) == stones


def test_a_chatty_engine_in_its_own_directory_gets_its_setup_and_loses_nothing(tmp_path):
    # Given two fake engines that print help text and statistics, each in its own directory
    dirs = {"a": tmp_path / "a", "b": tmp_path / "b"}
    for d in dirs.values():
        d.mkdir()
    specs = {"a": fake(), "b": fake()}
    # When they play a game with setup lines for one of them
    rec = arena.play_game(specs, "a", "b", [[9 * 19 + 9]], 19, 10.0, 40, None, 0,
                          {"a": ["depth 4", "vcf"]}, cwds=dirs)
    # Then the help line "move XXXX" was not taken for an answer: White (first to move, filling
    # the top row) made six in legal moves
    assert rec.winner == "b" and rec.reason == "six"
    final = Position.from_turns(rec.turns, 19)
    assert final.winner is not None and final.winner.value == "white"
    # and each engine ran in its directory; the setup lines came before the game
    got_a = (dirs["a"] / "received.log").read_text().split("\n")
    got_b = (dirs["b"] / "received.log").read_text().split("\n")
    assert got_a.index("depth 4") < got_a.index("vcf") < got_a.index("new white") < got_a.index("black JJ")
    assert "depth 4" not in got_b and "black JJ" in got_b
    assert len(rec.move_seconds) == len(rec.turns) - 1


def test_an_engine_that_crashes_loses_and_the_reason_says_it_ended(tmp_path):
    # Given an engine that exits (status 3) when asked for its second answer
    specs = {"a": fake(), "b": [*fake(), "--crash"]}
    # When it plays with a long move timeout
    t0 = time.perf_counter()
    rec = arena.play_game(specs, "a", "b", [[9 * 19 + 9]], 19, 60.0, 40, None, 0, {}, cwds={"a": tmp_path,
                                                                                         "b": tmp_path})
    # Then it loses at once, and the reason is its ending, not the clock
    assert time.perf_counter() - t0 < 30
    assert rec.winner == "a"
    assert rec.reason == "b: ended without an answer (exit status 3)"


def test_an_engine_out_of_time_loses_on_time(tmp_path):
    # Given an engine that thinks a minute before every answer, with a one-second timeout
    specs = {"a": fake(), "b": [*fake(), "--slow"]}
    rec = arena.play_game(specs, "a", "b", [[9 * 19 + 9]], 19, 1.0, 40, None, 0, {},
                          cwds={"a": tmp_path, "b": tmp_path}, quit_grace=0.5)
    # Then the reason is the clock
    assert rec.winner == "a" and rec.reason == "b: no answer in time"


def test_a_run_cut_short_resumes_with_only_the_games_its_record_lacks(tmp_path, capsys):
    # Given a 4-game run's record of which only the first game was kept (a run cut short)
    record = tmp_path / "games.jsonl"
    argv = [f"fa={sys.executable} {FAKE}", f"fb={sys.executable} {FAKE}", "--games", "4",
            "--openings", "lg", "--opening-turns", "2-3", "--symmetry", "--cwd-a", str(tmp_path),
            "--cwd-b", str(tmp_path), "--max-turns", "30", "--record", str(record), "--seed", "5",
            "--no-calibrate"]
    assert arena.main(argv) == 0
    full = capsys.readouterr().out
    lines = record.read_text().splitlines()
    record.write_text(lines[0] + "\n")
    # When it is resumed with the same arguments
    assert arena.main([*argv, "--resume"]) == 0
    out = capsys.readouterr().out
    # Then only the three missing games were played, and the table counts all four
    assert "resuming: 1 of 4 games already in" in out
    assert [ln for ln in out.splitlines() if ln.startswith("game ")] == \
        [ln for ln in full.splitlines() if ln.startswith("game ")][1:]
    assert sorted(json.loads(ln)["game"] for ln in record.read_text().splitlines()) == [1, 2, 3, 4]
    assert [ln for ln in out.splitlines() if ln.startswith(("score", "game length"))] == \
        [ln for ln in full.splitlines() if ln.startswith(("score", "game length"))]


def test_resume_refuses_a_record_of_another_run(tmp_path, capsys):
    # Given a record made with seed 5
    record = tmp_path / "games.jsonl"
    argv = [f"fa={sys.executable} {FAKE}", f"fb={sys.executable} {FAKE}", "--games", "2",
            "--openings", "lg", "--opening-turns", "2-3", "--cwd-a", str(tmp_path), "--cwd-b",
            str(tmp_path), "--max-turns", "30", "--record", str(record), "--no-calibrate"]
    assert arena.main([*argv, "--seed", "5"]) == 0
    before = record.read_text()
    # When it is resumed with seed 6 (other openings), or without a record file
    with pytest.raises(SystemExit):
        arena.main([*argv, "--seed", "6", "--resume"])
    with pytest.raises(SystemExit):
        arena.main([*argv[:-3], "--resume"])
    # Then nothing was played and the record is unchanged
    assert "not this run's game" in capsys.readouterr().err
    assert record.read_text() == before


def test_an_engine_that_ignores_quit_is_ended(tmp_path):
    proc = arena.EngineProcess(fake(stubborn=True), None, tmp_path, quit_grace=0.5)
    proc.ready()
    t0 = time.perf_counter()
    proc.close()
    assert proc.proc.poll() is not None
    assert time.perf_counter() - t0 < 5
    assert "quit" in (tmp_path / "received.log").read_text().split("\n")


def test_little_golem_openings_are_legal_distinct_and_reproducible():
    ops = arena.lg_openings(30, random.Random(5), (1, 3), use_symmetry=True)
    again = arena.lg_openings(30, random.Random(5), (1, 3), use_symmetry=True)
    assert [o.turns for o in ops] == [o.turns for o in again]
    assert len({arena.canonical(o.turns, 19) for o in ops}) == 30
    games = dict(arena.load_lg_games())
    for op in ops:
        assert 1 <= len(op.turns) <= 3
        pos = Position.from_turns(op.turns, 19)
        assert not pos.is_over
        # the opening is the expert game's start under the recorded symmetry
        src = op.source
        assert arena.symmetry(games[src["gid"]][: src["turns"]], 19, src["symmetry"]) == op.turns
    assert {o.source["symmetry"] for o in ops} != {0}


def test_symmetries_are_the_eight_of_the_square():
    turns = [[0], [1, 19 * 2 + 5]]
    images = {str(arena.symmetry(turns, 19, k)) for k in range(8)}
    assert len(images) == 8
    assert arena.symmetry(turns, 19, 0) == turns
    assert arena.canonical(arena.symmetry(turns, 19, 6), 19) == arena.canonical(turns, 19)


def test_the_arena_plays_each_opening_with_both_colours_and_records_every_game(tmp_path, capsys):
    record = tmp_path / "games.jsonl"
    rc = arena.main([f"fa={sys.executable} {FAKE}", f"fb={sys.executable} {FAKE}", "--games", "4",
                     "--openings", "lg", "--opening-turns", "2-3", "--symmetry", "--setup-b", "depth 2",
                     "--cwd-a", str(tmp_path), "--cwd-b", str(tmp_path), "--max-turns", "30",
                     "--record", str(record), "--seed", "3"])
    assert rc == 0
    played = capsys.readouterr().out
    assert "score fa:" in played
    # the table can be printed again from the record file alone
    assert arena.main(["fa", "fb", "--from-record", str(record)]) == 0
    again = capsys.readouterr().out
    assert [ln for ln in again.splitlines() if ln.startswith(("score", "Elo", "game length"))] == \
        [ln for ln in played.splitlines() if ln.startswith(("score", "Elo", "game length"))]
    # and a record compared with itself pairs every game, each the same move for move
    assert arena.main(["fa", "fb", "--from-record", str(record), "--against", str(record)]) == 0
    assert "4 games of fa with the same opening and colour (4 the same move for move, 0 without a partner)" \
        in capsys.readouterr().out
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(games) == 4
    by_opening: dict[str, list[dict]] = {}
    for g in games:
        by_opening.setdefault(str(g["opening"]), []).append(g)
        assert g["engines"]["fb"]["setup"] == ["depth 2"]
        assert 2 <= len(g["opening"]) <= 3 and g["opening_source"]["gid"]
        turns = [arena.parse_move(t, 19) for t in g["opening"]] + \
                [arena.parse_move(m["stones"], 19) for m in g["moves"]]
        final = Position.from_turns(turns, 19)
        assert all(m["ms"] is not None and m["ms"] >= 0 for m in g["moves"])
        assert all(m["engine"] == g[m["colour"]] for m in g["moves"])
        if g["reason"] == "six":
            assert final.winner is not None and final.winner.value == g["winner_colour"]
            assert g[g["winner_colour"]] == g["winner"]
    assert len(by_opening) == 2
    for pair in by_opening.values():
        assert sorted((g["black"], g["white"]) for g in pair) == [("fa", "fb"), ("fb", "fa")]


def test_an_arena_stopped_by_a_signal_leaves_no_engine_behind(tmp_path):
    slow = f"{sys.executable} {FAKE} --slow --stubborn"
    arena_proc = subprocess.Popen(
        [sys.executable, "-m", "tools.lab.arena", f"fa={slow}", f"fb={slow}", "--games", "2",
         "--cwd-a", str(tmp_path), "--cwd-b", str(tmp_path), "--openings", "lg"],
        cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while len(list(tmp_path.glob("pid-*"))) < 2 and time.time() < deadline:
        time.sleep(0.1)
    pids = [int(p.name[4:]) for p in tmp_path.glob("pid-*")]
    assert len(pids) == 2
    time.sleep(0.5)
    arena_proc.send_signal(signal.SIGTERM)
    try:
        assert arena_proc.wait(timeout=10) != 0
        for pid in pids:
            assert _ends(pid), f"engine {pid} still running after the arena was stopped"
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _ends(pid: int, within: float = 5.0) -> bool:
    """The process is gone (or a zombie waiting to be reaped) within ``within`` seconds."""
    deadline = time.time() + within
    while time.time() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split()[2] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_the_calibration_is_a_fixed_amount_of_search_timed_on_this_machine():
    # Given the arena's calibration, run as the arena runs it (a subprocess with the engine's layer)
    line = arena.calibration()
    # When its line is read
    m = re.match(r"calibration: (\d+) nodes per CPU second \((\d+) nodes of hard at depth 2 on 4 Little "
                 r"Golem positions in ([\d.]+) s; (compiled|pure Python) engine\)$", line)
    # Then it states a rate, and the work it timed is the same search every time: the node count of
    # the fixed-depth search done here again
    assert m, line
    nodes, seconds = bench_ai.calibrate()
    assert int(m.group(2)) == nodes and seconds > 0
    assert int(m.group(1)) == pytest.approx(int(m.group(2)) / float(m.group(3)), rel=0.05)


def test_a_gzipped_record_reads_like_the_plain_one(tmp_path):
    # Given one game's record line, written plain and gzipped (the runs kept in the repository)
    line = json.dumps({"game": 1, "black": "a", "white": "b", "opening": ["JJ"], "moves": []})
    plain, packed = tmp_path / "run.jsonl", tmp_path / "run.jsonl.gz"
    plain.write_text(line + "\n")
    packed.write_bytes(gzip.compress((line + "\n").encode()))
    # Then both read as the same games
    assert arena.read_record_file(packed) == arena.read_record_file(plain) == [json.loads(line)]


def test_the_arena_does_not_write_into_a_gzipped_record(tmp_path, capsys):
    with pytest.raises(SystemExit):
        arena.main(["fa", "fb", "--record", str(tmp_path / "run.jsonl.gz")])
    assert "gunzip a kept record" in capsys.readouterr().err
