"""Replay: a game's turns as spectators may see them, and the board after any one of them.

Public (board function): colours and stones only, never an e-mail, token or player id. A turn
that won on its first stone shows that one stone, as the board does.
"""

from __future__ import annotations

from typing import Any

from connect6.game.model import Game
from connect6.game.views import colour_of_turn, record_text


def replay_view(game: Game) -> dict[str, Any]:
    """``{"game_id", "board_size", "moves": [{"move_number", "colour", "stones"}], "record"}``."""
    moves = [{"move_number": number, "colour": colour_of_turn(number).value, "stones": list(turn.stones)}
             for number, turn in enumerate(game.turns, start=1)]
    return {"game_id": game.game_id, "board_size": game.board_size, "moves": moves,
            "record": record_text(game)}


def board_after(game: Game, move: int) -> dict[str, Any]:
    """What the SVG needs to draw the board after ``move`` turns (0: empty): the board, that
    turn's stones as the last move, and the winning line only once the game's last turn is shown.
    ``move`` must lie in 0..the number of turns played."""
    if not 0 <= move <= game.turn:
        raise ValueError(f"move {move} is outside 0..{game.turn}")
    position = game.position(move)
    last = None
    if move:
        last = {"move_number": move, "colour": colour_of_turn(move).value,
                "stones": list(game.turns[move - 1].stones)}
    return {"game_id": game.game_id, "board_size": game.board_size, "board": position.board_rows(),
            "move_count": move, "last_move": last,
            "winning_line": list(game.winning_line) if move == game.turn else []}
