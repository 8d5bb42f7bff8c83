"""The replay check tools/drivers/race.py and tools/drivers/load.py end with: it finds what it is
there to find."""

from __future__ import annotations

from typing import Any

from tools.local.client import replay_problems

AT = "2026-05-01T12:00:00Z"


def item(turns: list[str], **extra: Any) -> dict[str, Any]:
    taken = {"state": "taken"}
    data = {"game_id": "g", "board_size": 15, "status": "in_progress", "turn": len(turns),
            "seats": [taken, taken], "winner": None, "winning_line": [], "end_reason": None,
            "turns": ";".join(f"{stones}|||{AT}" for stones in turns)}
    data.update(extra)
    return data


def test_a_legal_game_in_progress_is_consistent() -> None:
    assert replay_problems(item(["h8", "a1a2", "h9h10"]), None) == []


def test_a_stone_on_an_occupied_point_is_found() -> None:
    problems = replay_problems(item(["h8", "h8a2"]), None)
    assert len(problems) == 1 and "turn 2" in problems[0] and "illegal" in problems[0]


def test_six_on_the_board_with_the_game_still_in_progress_is_found() -> None:
    turns = ["a1", "o15o14", "b1c1", "o13o12", "d1e1", "n15n14", "f1g1"]
    assert any("made six" in p for p in replay_problems(item(turns), None))
    won = item(turns, status="completed", winner="black", end_reason="six",
               winning_line=["a1", "b1", "c1", "d1", "e1", "f1"])
    assert replay_problems(won, None) == []


def test_what_the_api_reports_is_compared_with_the_replay() -> None:
    view = {"status": "in_progress", "move_count": 2, "stones_placed": 3, "board": ["." * 15] * 15}
    problems = replay_problems(item(["h8", "a1a2"]), view)
    assert [p.split(" = ")[0] for p in problems] == ["the API reports board"]
