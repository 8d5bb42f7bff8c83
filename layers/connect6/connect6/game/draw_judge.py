"""Whether the computer accepts a draw offered with a move: only when its evaluation says the game
is level. A thin wrapper over ``connect6.ai``'s public ``search`` (the engine itself is not
touched): a short, fixed-depth search from the computer's side, plus the plain threat count of
``connect6.game.talk``, so a side one turn from six is never "level" whatever the score says.
"""

from __future__ import annotations

import random

from connect6.game.talk import threats
from connect6.rules import Position

# The search's score is from the side to move. An odd depth ends on the mover's own turn and an
# even one on the opponent's, so each is biased by a tempo (two stones) one way; the mean of depths
# 1 and 2 cancels most of it. Within this margin of zero the game is level. (The engine's scale: an
# even opening measures about ±2000, a side a whole wasted turn behind about 9000, a forced win 10**7.)
LEVEL_MARGIN = 3000
JUDGE_DEPTHS = (1, 2)
JUDGE_BUDGET_S = 0.2  # per depth; at these depths the search ends well inside it


def is_level(position: Position, level: str = "normal") -> bool:
    """True when neither side has a threat and the computer (to move) sees no edge either way.
    The same ``normal`` search judges for every level: accepting a draw is not a matter of skill."""
    if position.is_over or position.turn_count < 2:
        return False  # nothing to judge before both sides have played
    mover = position.to_move
    if threats(position, mover) or threats(position, mover.other):
        return False
    from connect6.ai import search

    scores = [search(position, "normal", budget_s=JUDGE_BUDGET_S,
                     rng=random.Random(position.turn_count),  # nosec B311 # a reproducible verdict
                     max_depth=depth).score for depth in JUDGE_DEPTHS]
    return abs(sum(scores) / len(scores)) <= LEVEL_MARGIN
