"""The play link's pages (v1.2): a player's own sheet, played by tapping, at ``/v1/play/<token>``.

The move sheet page (:func:`connect6.pages.sheets.move_sheet_page`) with the play link's extra
buttons: a hint (against the computer), undo (with the count left), resign (which asks first) and,
when the opponent offers one, accept or decline the draw. While it is not the player's turn the page
reloads itself every few seconds (a ``<meta http-equiv="refresh">``: no script, so the sheet's
strict policy stays as it is) until it is. The recap once the game is over. A confirmation page
for resigning and a 404 page for a link that does not exist.

The token is in the page's own URL only: forms post to it relatively, every page says
``referrer: no-referrer``, and no link on these pages carries it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from connect6.game.shapes import MoveSheet, RecapSheet
from connect6.pages.html import _e, _layout
from connect6.pages.sheets import SheetContext, move_sheet_page, recap_page

REFRESH_SECONDS = 5

# What a refused answer says on the page, by the contract's error code (the move route's own
# sentences carry details the redirect does not: the page says what to do next).
REFUSALS: Mapping[str, str] = {
    "illegal_move": ("That move can't be played: a point is taken, off the board, repeated or not a "
                     "point like h8."),
    "stale_move": "That move was already played (or the game moved on): here is the game as it is now.",
    "not_your_turn": "It is not your turn any more: here is the game as it is now.",
    "game_over": "The game is over.",
    "game_not_started": "The game has not started yet: it starts when both seats are taken.",
    "game_paused": "The game is paused; moves wait until it is resumed.",
    "unknown_phrase": "That table-talk line is not one of the phrases offered.",
    "hints_not_allowed": "Hints are only given in a game against the computer.",
    "undo_not_allowed": "Moves can only be taken back against the computer or on one device.",
    "nothing_to_undo": "There is no move to take back yet.",
    "undo_limit_reached": "No undos are left in this game.",
    "no_draw_offer": "There is no draw offer to answer any more.",
    "busy": "The game was busy just then; please try again.",
    "request_in_progress": "Your last answer is still being sent; wait a moment and reload.",
    "invalid_request": "That answer was incomplete: choose your stones and send the move again.",
    "service_unavailable": "The service is busy just now; please try again in a moment.",
    "idempotency_key_reused": "That turn was already answered: here is the game as it is now.",
}
DONE: Mapping[str, str] = {
    "undo": "The last move was taken back.",
    "decline_draw": "You declined the draw; play on.",
}


def refusal_text(code: str, field: str = "", value: str = "") -> str:
    """The sentence a refused answer shows (an unknown code gets a general one)."""
    text = REFUSALS.get(code, "That answer could not be used; please try again.")
    if code == "illegal_move" and value:
        return f"{value} can't be played: it is taken, off the board, repeated or not a point like h8."
    return text


@dataclass(frozen=True)
class PlayPage:
    """What the play page shows beyond the sheet: who is to move on a shared device, the notice
    (a refusal, a hint, what an action did), the stones to fill in again, the page's own relative
    URL (``form_action``), and which actions the game offers."""

    form_action: str
    notice: str = ""
    values: Mapping[str, str] | None = None
    hints: bool = False
    undos_left: int | None = None
    device_line: str = ""  # on a same-device game: "Ben to move (White)"
    game_name: str = ""
    seen: str = ""  # the game's version as shown: sent back with every answer (``seen``)


def _seen(seen: str) -> str:
    return f'<input type="hidden" name="seen" value="{_e(seen)}">' if seen else ""


_HINT = ('<button type="submit" name="action" value="hint" formnovalidate id="hint" '
         'class="secondary">Hint</button>')
_RESIGN = ('<button type="submit" name="action" value="resign" formnovalidate id="resign" '
           'class="secondary">Resign…</button>')


def play_sheet_page(sheet: MoveSheet, page: PlayPage) -> str:
    """The player's sheet from the play link: the move form on their turn (tap to place, hint,
    undo, resign, the draw answer), otherwise the game and whose turn it is, reloading itself."""
    if page.device_line:
        sheet = sheet.model_copy(update={"greeting": page.device_line})
    playing = sheet.status == "in_progress" and sheet.your_turn and sheet.stones_to_place > 0
    context = SheetContext(form_action=page.form_action, play_actions=True, notice=page.notice,
                           values=dict(page.values or {}), undos_left=page.undos_left,
                           game_name=page.game_name, sheet_code=sheet.sheet_code)
    html = move_sheet_page(sheet, context=context)
    hidden = f'<input type="hidden" name="move_number" value="{int(sheet.move_number)}">'
    html = html.replace(hidden, hidden + _seen(page.seen), 1)
    if playing:
        # The hint beside "Send move", resign last in the row (both skip the form's checks and the
        # page script's confirm step: ``name="action"``).
        send = '<button type="submit" id="send" class="primary">Send move</button>'
        at = html.index(send) + len(send)
        end = html.index("</div>", at)
        return html[:at] + (_HINT if page.hints else "") + html[at:end] + _RESIGN + html[end:]
    # Not their turn: follow the game by reloading; they may still resign.
    html = html.replace('<meta name="referrer" content="no-referrer">',
                        '<meta name="referrer" content="no-referrer">'
                        f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">', 1)
    if sheet.status == "in_progress":
        waiting = (f'<form method="post" action="{_e(page.form_action)}" class="play-aside" id="resign-form">'
                   f'<input type="hidden" name="move_number" value="{int(sheet.move_number)}">'
                   f"{_seen(page.seen)}"
                   '<p class="hint">This page follows the game by itself: your move sheet appears here '
                   'when it is your turn.</p><div class="actions">'
                   '<button type="submit" name="action" value="resign" id="resign" class="secondary">'
                   "Resign…</button></div></form>")
        html = html.replace("<footer>", waiting + "<footer>", 1)
    return html


def play_recap_page(sheet: RecapSheet, *, game_name: str = "") -> str:
    """The recap, once the game is over (the same page as the recap route's)."""
    return recap_page(sheet, context=SheetContext(game_name=game_name, sheet_code=sheet.sheet_code))


def resign_confirm_page(form_action: str, move_number: int, opponent: str, seen: str = "") -> str:
    """Resigning asks first: this page's button sends ``action=resign_confirmed``."""
    body = (
        '<main class="wrap narrow">'
        '<p class="kicker">Connect6 · resign</p>'
        '<h1 id="title">Resign this game?</h1>'
        f'<p class="lead" id="message">{_e(opponent)} wins, and the game is over. This cannot be undone.</p>'
        f'<form method="post" action="{_e(form_action)}" id="confirm-form" class="accept">'
        f'<input type="hidden" name="move_number" value="{int(move_number)}">{_seen(seen)}'
        '<div class="actions">'
        '<button type="submit" name="action" value="resign_confirmed" id="confirm-resign" class="primary">'
        "Yes, resign</button>"
        f'<a class="button secondary" id="keep-playing" href="{_e(form_action)}">No, keep playing</a>'
        "</div></form></main>"
    )
    return _layout("Resign this game?", body)


def play_not_found_page() -> str:
    """The page for a play link that does not exist (404)."""
    body = (
        '<main class="wrap narrow">'
        '<p class="kicker">Connect6 · play link</p>'
        '<p class="big" aria-hidden="true">?</p>'
        '<h1 id="title" data-status="404" data-code="play_link_not_found">We can\'t find this game</h1>'
        '<p class="lead" id="message">This play link does not exist.</p>'
        '<p class="hint">Check that the whole link was copied, or ask for your play link again.</p>'
        "</main>"
    )
    return _layout("Play link not found", body)


def relative(token: str) -> str:
    """The play page's own URL relative to itself (``/v1/play/<token>`` → ``<token>``)."""
    return quote(token, safe="")
