"""Sheets for the page and paper tests: a move sheet, a join sheet and a recap as their JSON has them."""

from __future__ import annotations

from typing import Any

from connect6.game.shapes import JoinSheet, MoveSheet, RecapSheet

EVIL = '<script>alert("x")</script>&\'"'

PHRASES = [("hello", "Hello!"), ("good_luck", "Good luck!"), ("nice_move", "Nice move!"),
           ("well_played", "Well played!"), ("oops", "Oops!"), ("good_game", "Good game!")]


def board_with(size: int, stones: dict[str, str]) -> list[str]:
    """Board rows, top row first, with ``stones`` ({"h8": "B"}) on them."""
    rows = [["."] * size for _ in range(size)]
    for label, colour in stones.items():
        col = ord(label[0]) - ord("a")
        row = int(label[1:]) - 1
        rows[size - 1 - row][col] = colour
    return ["".join(row) for row in rows]


def move_sheet(**extra: Any) -> MoveSheet:
    data: dict[str, Any] = {
        "sheet_type": "connect6_game_move", "sheet_code": "J8HMZ-1-3-9", "game_id": "run-42",
        "player_id": "p-1",
        "greeting": "Hello Ana", "player_name": "Ana", "stone_colour": "black",
        "opponent": {"name": "Ben", "kind": "computer"}, "status": "in_progress", "your_turn": True,
        "move_number": 3, "stones_to_place": 2, "board_size": 15,
        "board": board_with(15, {"h8": "B", "i9": "W", "h7": "W"}),
        "last_move": {"move_number": 2, "colour": "white", "stones": ["i9", "h7"]},
        "table_talk_received": {"phrase_id": "nice_move", "text": "Nice move!", "from": "Ben"},
        "table_talk_options": [{"phrase_id": k, "text": v} for k, v in PHRASES],
        "draw_offered_by_opponent": False,
    }
    data.update(extra)
    return MoveSheet.model_validate(data)


def first_move_sheet(**extra: Any) -> MoveSheet:
    return move_sheet(move_number=1, stones_to_place=1, board=board_with(15, {}), last_move=None,
                      table_talk_received=None, **extra)


def join_sheet(**extra: Any) -> JoinSheet:
    data: dict[str, Any] = {
        "sheet_type": "connect6_game_join_game", "sheet_code": "J8HMZ-0-0-B", "game_id": "run-42",
        "game_name": "Sunday club",
        "open_seats": 2, "can_request_computer": True, "can_invite": True,
        "computer_levels": ["easy", "normal", "hard"],
        "rules": {"board_size": 15, "win_length": 6, "first_turn_stones": 1, "stones_per_turn": 2},
    }
    data.update(extra)
    return JoinSheet.model_validate(data)


WINNING = ["d8", "e8", "f8", "g8", "h8", "i8"]


def recap_sheet(**extra: Any) -> RecapSheet:
    stones = {label: "B" for label in WINNING} | {"d9": "W", "e9": "W", "f9": "W", "g9": "W", "j9": "W"}
    data: dict[str, Any] = {
        "sheet_type": "connect6_game_recap", "sheet_code": "J8HMZ-1-6-3", "game_id": "run-42",
        "player_name": "Ana",
        "your_colour": "black", "status": "completed", "result": "won",
        "winner": {"colour": "black", "name": "Ana"}, "winning_line": WINNING, "end_reason": "six",
        "move_count": 6, "stones_placed": 11, "board_size": 15, "board": board_with(15, stones),
        "record": "1.h8 2.d9e9 3.g8i8 4.f9g9 5.d8e8 6.j9 7.f8", "started_at": "2026-11-29T12:00:00Z",
        "finished_at": "2026-11-30T09:15:00Z", "opponent": {"name": "Ben", "kind": "human"},
        "table_talk_received": {"phrase_id": "good_game", "text": "Good game!", "from": "Ben"},
        "table_talk_sent": None, "hints_used": 1, "undos_used": 2,
    }
    data.update(extra)
    return RecapSheet.model_validate(data)
