"""Real Little Golem Connect6 games (tests/data/littlegolem/games.jsonl: one JSON object per
line with ``gid``, ``sgf`` and ``result`` "BWin" | "WWin" | "Draw") replayed through the rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from connect6.records import (
    format_move_list,
    format_sgf,
    parse_record,
    parse_sgf,
    replay,
    summarise,
    summarise_slow,
)

ROOT = Path(__file__).resolve().parents[3]
GAMES = ROOT / "tests" / "data" / "littlegolem" / "games.jsonl"

@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    with GAMES.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    assert len(rows) >= 100
    return rows


def test_every_game_is_legal_and_ends_as_recorded(games: list[dict[str, Any]]) -> None:
    tally: Counter[str] = Counter()
    for game in games:
        # When the game is replayed through the rules
        out = json.loads("{" + summarise(game["sgf"]))
        where = f"game {game['gid']}"
        # Then it is legal
        assert out["legal"], (where, out["error"])
        assert game["result"] in ("BWin", "WWin", "Draw"), where
        named = {"BWin": "black", "WWin": "white", "Draw": None}[game["result"]]
        if named is None:
            # An agreed draw: nobody made a line, and the board is far from full
            assert out["winner"] is None and out["six_at_turn"] is None and not out["draw"], where
            tally["agreed draw"] += 1
        elif out["winner"] is None:
            # No six: the game ended by resignation (or time), so nobody made a line
            assert out["six_at_turn"] is None and out["winning_line"] == [], where
            tally["resigned"] += 1
        else:
            # A six is on the final turn, by the side the result names
            assert out["six_at_turn"] == out["turns"], where
            assert out["winner"] == named, where
            assert len(out["winning_line"]) >= 6, where
            tally["six"] += 1
    assert tally["six"] > 0 and tally["resigned"] > 0, tally
    assert sum(tally.values()) == len(games)


def test_fast_and_plain_replays_agree_on_every_game(games: list[dict[str, Any]]) -> None:
    for game in games:
        assert summarise(game["sgf"]) == summarise_slow(game["sgf"])[1:], game["gid"]


def test_every_game_survives_both_notations(games: list[dict[str, Any]]) -> None:
    for game in games:
        record = parse_sgf(game["sgf"])
        # SGF written back is Little Golem's text exactly, and the move list carries the same turns
        assert format_sgf(record) == game["sgf"]
        assert parse_sgf(format_sgf(record)) == record
        moves = format_move_list(record)
        assert parse_record(moves).turns == record.turns
        assert summarise(moves) == summarise(game["sgf"])
        assert replay(record).legal


def test_connect6_replay_command_on_all_games(games: list[dict[str, Any]], tmp_path: Path) -> None:
    # Given every game's SGF, one per line, in a file
    path = tmp_path / "games.txt"
    path.write_text("".join(game["sgf"].strip() + "\n" for game in games), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "layers" / "connect6"))
    # When the command replays the file
    done = subprocess.run([sys.executable, "-m", "connect6", "replay", str(path)], capture_output=True,
                          text=True, env=env, timeout=300, check=False)
    # Then it exits 0 with one legal line per game, in order, winners as recorded
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["index"] for row in rows] == list(range(len(games)))
    for row, game in zip(rows, games, strict=True):
        assert row["legal"], (game["gid"], row["error"])
        if row["winner"] is not None:
            assert row["winner"] == {"BWin": "black", "WWin": "white"}[game["result"]]
