"""What people look at: the live spectator board, the SVG board and the invitation pages.

Pure functions from the contract's response models (``connect6.game.shapes``) to ``str``; the handlers
call them.
"""

from connect6.pages.html import (
    board_page,
    content_security_policy,
    game_not_found_page,
    invite_error_page,
    invite_page,
    invite_redeemed_page,
    script_json,
    status_text,
)
from connect6.pages.svg import board_svg

__all__ = [
    "board_page",
    "board_svg",
    "content_security_policy",
    "game_not_found_page",
    "invite_error_page",
    "invite_page",
    "invite_redeemed_page",
    "script_json",
    "status_text",
]
