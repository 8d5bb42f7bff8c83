"""Pure Connect6 rules: board, stones, legality, six-in-a-row, draw. No I/O."""

from connect6.rules.position import (
    COLOURS,
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    WIN_LENGTH,
    Colour,
    Geometry,
    IllegalMove,
    IllegalReason,
    Position,
    TurnResult,
    geometry,
    has_six,
    line_through,
)

__all__ = [
    "COLOURS",
    "DEFAULT_SIZE",
    "MAX_SIZE",
    "MIN_SIZE",
    "WIN_LENGTH",
    "Colour",
    "Geometry",
    "IllegalMove",
    "IllegalReason",
    "Position",
    "TurnResult",
    "geometry",
    "has_six",
    "line_through",
]
