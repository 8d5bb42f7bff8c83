"""The computer opponent: one interface for the game service, hints, and the engine front end.

>>> from connect6.rules import Position
>>> pos = Position(15)
>>> choose_move(pos, "easy")
(112,)
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass

from connect6.ai.search import Engine, SearchResult
from connect6.rules import Position

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_BUDGETS: dict[str, float] = {"easy": 0.05, "normal": 0.3, "hard": 1.0}


@dataclass(frozen=True)
class Hint:
    """The best move for the side to move, and why in words."""

    stones: tuple[int, ...]
    reason: str


def _check(position: Position, level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if position.is_over:
        raise ValueError("the game is over: there is no move to choose")


def search(position: Position, level: str = "normal", *, budget_s: float | None = None,
           rng: random.Random | None = None, max_depth: int | None = None, vary: bool = True) -> SearchResult:
    """Run the engine and return the full result (move, reason, depth, nodes). The move is drawn
    with ``rng`` among those the search scores within the level's margin of the best
    (``LevelConfig.margin``); ``vary=False`` plays the best. The score is the best move's."""
    _check(position, level)
    budget = DEFAULT_BUDGETS[level] if budget_s is None else budget_s
    if rng is None:
        rng = random.Random(position.turn_count * 7919 + position.size)  # nosec B311 # seeded for reproducible play, not security
    # The search makes no reference cycles; a collector pause mid-move would only eat budget.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return Engine(position, level, budget, rng, max_depth=max_depth, vary=vary).run()
    finally:
        if was_enabled:
            gc.enable()


def choose_move(position: Position, level: str = "normal", *, budget_s: float | None = None,
                rng: random.Random | None = None) -> tuple[int, ...]:
    """The computer's turn: exactly ``position.stones_to_place`` distinct empty points.

    ``position`` is not changed. The result is deterministic for a given ``rng`` seed (and
    for no ``rng``) as long as the search is not cut by the clock; the time budget per move
    defaults to :data:`DEFAULT_BUDGETS` and is kept (the answer comes before it runs out).
    """
    return search(position, level, budget_s=budget_s, rng=rng).stones


def hint(position: Position, *, budget_s: float | None = None) -> Hint:
    """The hard level's best move for the side to move (no variety), with its reason."""
    result = search(position, "hard", budget_s=budget_s, rng=random.Random(0),  # nosec B311 # fixed seed: the same hint every time
                    vary=False)
    return Hint(result.stones, result.reason)


__all__ = ["DEFAULT_BUDGETS", "LEVELS", "Hint", "SearchResult", "choose_move", "hint", "search"]
