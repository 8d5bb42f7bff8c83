"""Replay: a game's turns as spectators may see them, and the board after any one of them.

Public (board function): colours and stones only, never an e-mail, token or player id. A turn
that won on its first stone shows that one stone, as the board does.
"""

from __future__ import annotations

from connect6.game.model import Game
from connect6.game.shapes import BoardPicture, ReplayMove, ReplayView
from connect6.game.views import colour_of_turn, record_text, turn_played


def replay_view(game: Game) -> ReplayView:
    """The game's id and board size, every turn (number, colour, stones) and its record."""
    moves = [ReplayMove(move_number=number, colour=colour_of_turn(number).value, stones=list(turn.stones))
             for number, turn in enumerate(game.turns, start=1)]
    return ReplayView(game_id=game.game_id, board_size=game.board_size, moves=moves,
                      record=record_text(game))


def board_after(game: Game, move: int) -> BoardPicture:
    """What the SVG needs to draw the board after ``move`` turns (0: empty): the board, that
    turn's stones as the last move, and the winning line only once the game's last turn is shown.
    ``move`` must lie in 0..the number of turns played."""
    if not 0 <= move <= game.move_count:
        raise ValueError(f"move {move} is outside 0..{game.move_count}")
    return BoardPicture(game_id=game.game_id, board_size=game.board_size,
                        board=game.position(move).board_rows(), move_count=move,
                        last_move=turn_played(game, move) if move else None,
                        winning_line=list(game.winning_line) if move == game.move_count else [])
