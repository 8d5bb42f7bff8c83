"""What people look at: the live spectator board, the SVG board, the invitation pages and the turn
sheets (join, move, recap) as pages.

Pure functions from the contract's response models (``connect6.game.shapes``) to ``str``; the handlers
call them. The sheets on paper (PDF) are in :mod:`connect6.pages.paper`, imported only by the routes
that print (it imports fpdf2); the sheet pages import Jinja2 on their first render.
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
from connect6.pages.sheets import (
    SheetContext,
    join_sheet_page,
    move_sheet_page,
    recap_page,
    result_sentence,
    sheet_csp,
)
from connect6.pages.svg import board_svg

__all__ = [
    "SheetContext",
    "board_page",
    "board_svg",
    "content_security_policy",
    "game_not_found_page",
    "invite_error_page",
    "invite_page",
    "invite_redeemed_page",
    "join_sheet_page",
    "move_sheet_page",
    "recap_page",
    "result_sentence",
    "script_json",
    "sheet_csp",
    "status_text",
]
