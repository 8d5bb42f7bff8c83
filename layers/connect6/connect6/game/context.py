"""What every use case works with: the service's ports and settings (:class:`Context`, which
:class:`~connect6.game.service.GameService` is), the computer opponent's interface, and the
defaults the service is built with.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from connect6.game.model import Game
from connect6.game.repository import Repository
from connect6.rules import Position


class Computer(Protocol):
    def __call__(self, position: Position, level: str, *, budget_s: float | None,
                 rng: random.Random) -> Sequence[int]: ...


class Context(Protocol):
    """The ports and settings a use case reads. The use cases take it as their first argument:
    ``GameService`` passes itself, so they see its attributes as they are at the call."""

    repo: Repository
    clock: Callable[[], datetime]
    event_id_factory: Callable[[], str]
    computer: Computer
    computer_budget_s: float | None
    draw_judge: Callable[[Position, str], bool]
    colour_draw: Callable[[Game], int] | None
    id_factory: Callable[[], str]
    token_factory: Callable[[], str]
    invite_token: Callable[[str], str]
    play_token: Callable[[str], str]
    board_size: int


def default_computer(position: Position, level: str, *, budget_s: float | None,
                     rng: random.Random) -> Sequence[int]:
    """The computer opponent of ``connect6.ai`` (imported on first use: cold starts of the
    functions that never play stay light)."""
    from connect6.ai import choose_move

    return choose_move(position, level, budget_s=budget_s, rng=rng)


def default_draw_judge(position: Position, level: str) -> bool:
    """Whether the computer, to move in ``position``, accepts a draw (``connect6.game.draw_judge``)."""
    from connect6.game.draw_judge import is_level

    return is_level(position, level)


def new_id() -> str:
    """An unguessable id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def system_colour_draw() -> int:
    """Which seat (1 or 2) plays Black: a fair random draw."""
    return secrets.SystemRandom().choice((1, 2))
