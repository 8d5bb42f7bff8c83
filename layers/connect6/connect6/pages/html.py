"""The HTML pages people see: the live spectator board and the invitation pages.

Every function is pure (a mapping in, a ``str`` out), escapes every name and note with
:func:`html.escape`, embeds JSON so that ``</script>`` cannot break out of its element, and loads
nothing from outside the page (no framework, no CDN, no web font): the stylesheet and the small
polling script are inlined from ``static/``.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import cache
from html import escape
from importlib import resources
from typing import Any
from urllib.parse import quote

from connect6.pages.svg import board_svg

FINISHED = frozenset({"completed", "draw"})


@cache
def _static(name: str) -> str:
    return resources.files("connect6.pages").joinpath("static", name).read_text(encoding="utf-8")


def _e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: ``<``, ``>``, ``&`` and the two JavaScript
    line separators are written as ``\\u`` escapes, so no text in it can close the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    for raw, safe in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                      ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, safe)
    return text


def _layout(title: str, body: str, *, scripts: str = "", head: str = "") -> str:
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{_e(title)}</title>{head}<style>{_static('style.css')}</style></head>"
        f"<body>{body}{scripts}</body></html>\n"
    )


def _when(value: Any) -> tuple[str, str]:
    """(machine value, readable UTC text) of an RFC 3339 time; unreadable input is shown as is."""
    text = "" if value is None else str(value)
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text, text
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    readable = f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M} UTC"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ"), readable


# A tiny progressive enhancement: show <time> elements in the reader's own time zone too.
_LOCAL_TIME_SCRIPT = (
    "document.querySelectorAll('time[data-local]').forEach(function(t){"
    "var d=new Date(t.getAttribute('datetime'));if(isNaN(d))return;"
    "var h=Math.round((d-Date.now())/36e5);"
    "t.title=t.textContent;t.textContent=d.toLocaleString(undefined,{weekday:'long',day:'numeric',"
    "month:'long',hour:'2-digit',minute:'2-digit'})+(h>0?' (in about '+h+' hour'+(h===1?'':'s')+')':'');"
    "});"
)
_LOCAL_TIME_JS = f"<script>{_LOCAL_TIME_SCRIPT}</script>"


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@cache
def content_security_policy() -> str:
    """A strict ``Content-Security-Policy`` for every page here: nothing from elsewhere, and only
    this module's own inline stylesheet and scripts (by hash). Handlers may send it as a header."""
    scripts = " ".join(_sha256(text) for text in (_static("board.js"), _LOCAL_TIME_SCRIPT))
    return (
        "default-src 'none'; "
        f"script-src {scripts}; style-src {_sha256(_static('style.css'))}; "
        "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
        "frame-ancestors 'none'"
    )


# ---------------------------------------------------------------------------------------------
# The spectator page


def _name(side: Any) -> str:
    if isinstance(side, Mapping) and side.get("name"):
        return str(side["name"])
    return "(open seat)"


def _kind(side: Any) -> str:
    if isinstance(side, Mapping) and side.get("kind") == "computer":
        return "computer"
    return ""


def status_text(view: Mapping[str, Any]) -> str:
    """One sentence saying where the game stands (plain text, not escaped)."""
    status = view.get("status")
    count = view.get("move_count") or 0
    moves = f"{count} move" if count == 1 else f"{count} moves"
    reason = view.get("end_reason")
    if status == "completed":
        winner = view.get("winner") or {}
        colour = str(winner.get("colour") or "").capitalize()
        who = winner.get("name") or colour or "Someone"
        if reason == "resigned":
            loser_colour = "white" if colour == "Black" else "black"
            loser = _name(view.get(loser_colour)) if view.get(loser_colour) else loser_colour.capitalize()
            return f"{who} ({colour}) won: {loser} resigned after {moves}"
        return f"{who} ({colour}) won with six in a row after {moves}"
    if status == "draw":
        if reason == "agreed":
            return f"Draw by agreement after {moves}"
        return f"Draw: the board filled up after {moves} with no six in a row"
    to_move = view.get("to_move")
    if status == "in_progress" and isinstance(to_move, Mapping):
        colour = str(to_move.get("colour") or "").capitalize()
        stones = to_move.get("stones_to_place") or 0
        who = to_move.get("name") or colour
        plural = "stone" if stones == 1 else "stones"
        return f"{who} ({colour}) to play move {to_move.get('move_number')}: {stones} {plural}"
    seats = view.get("seats") or []
    open_seats = sum(1 for s in seats if isinstance(s, Mapping) and s.get("state") == "open")
    held = sum(1 for s in seats if isinstance(s, Mapping) and s.get("state") == "held")
    parts = []
    if open_seats:
        parts.append(f"{open_seats} open seat{'s' if open_seats != 1 else ''}")
    if held:
        parts.append(f"{held} seat{'s' if held != 1 else ''} held for an invited player")
    return "Waiting for players" + (f" ({', '.join(parts)})" if parts else "")


def _last_move_text(view: Mapping[str, Any]) -> str:
    last = view.get("last_move")
    if not isinstance(last, Mapping):
        return "none yet"
    stones = " ".join(str(s) for s in last.get("stones") or [])
    return f"{last.get('move_number')}. {str(last.get('colour') or '').capitalize()} {stones}".strip()


def _player_chip(view: Mapping[str, Any], colour: str) -> str:
    side = view.get(colour)
    classes = ["player", colour]
    to_move = view.get("to_move")
    playing = view.get("status") == "in_progress" and isinstance(to_move, Mapping)
    if playing and isinstance(to_move, Mapping) and to_move.get("colour") == colour:
        classes.append("to-move")
    winner = view.get("winner")
    if isinstance(winner, Mapping) and winner.get("colour") == colour:
        classes.append("winner")
    kind = _kind(side)
    detail = colour.capitalize() + (f" · {kind}" if kind else "")
    if "to-move" in classes:
        detail += " · to play"
    if "winner" in classes:
        detail += " · winner"
    return (
        f'<div class="{" ".join(classes)}" data-colour="{colour}">'
        f'<span class="swatch {colour}" aria-hidden="true"></span>'
        f'<span class="who"><span class="name">{_e(_name(side))}</span>'
        f'<span class="kind">{_e(detail)}</span></span></div>'
    )


def board_page(view: Mapping[str, Any]) -> str:
    """The live spectator page for a game view: the board, the players and their colours, whose
    turn it is, the move count and the result. A small script polls the same URL for the JSON view
    (with ``If-None-Match``), redraws the live section in place when the game changes, and stops
    when the game is over."""
    name = str(view.get("game_name") or view.get("game_id") or "Connect6")
    status = str(view.get("status") or "")
    over = status in FINISHED
    winning = view.get("winning_line") or []
    facts = [
        ("Moves", str(view.get("move_count") or 0)),
        ("Stones", str(view.get("stones_placed") or 0)),
        ("Last move", _last_move_text(view)),
        ("Board", f"{view.get('board_size') or 15}×{view.get('board_size') or 15}"),
    ]
    if over and winning:
        facts.append(("Winning line", " ".join(str(p) for p in winning)))
    facts_html = "".join(
        f'<div><dt>{_e(k)}</dt><dd data-fact="{_e(k.lower().replace(" ", "-"))}">{_e(v)}</dd></div>'
        for k, v in facts
    )
    live_state = "Game over: final position" if over else "Live: this page updates itself"
    body = (
        '<main class="wrap">'
        f'<p class="kicker">Connect6 · spectator board</p><h1 id="game-name">{_e(name)}</h1>'
        f'<section id="live" data-status="{_e(status)}" data-move-count="{_e(view.get("move_count") or 0)}">'
        f'<div class="players">{_player_chip(view, "black")}<span class="vs">vs</span>'
        f"{_player_chip(view, 'white')}</div>"
        f'<p class="status{" over" if over else ""}" id="status" role="status">{_e(status_text(view))}</p>'
        f'<div class="board-frame">{board_svg(view)}</div>'
        f'<dl class="facts">{facts_html}</dl>'
        "</section>"
        f'<footer><span id="live-state" class="live{" done" if over else ""}">{live_state}</span>'
        ' · <a href="board.svg">board as SVG</a></footer>'
        "</main>"
    )
    scripts = (
        f'<script type="application/json" id="c6-view">{script_json(dict(view))}</script>'
        f"<script>{_static('board.js')}</script>"
    )
    title = f"{name}: {status_text(view)}"
    return _layout(title, body, scripts=scripts)


# ---------------------------------------------------------------------------------------------
# The invitation pages

_RULES = (
    "<details><summary>How Connect6 is played</summary>"
    "<p>Two players take turns placing stones on a square board. Black opens with a single stone; "
    "after that each turn places two stones. The first to get six or more stones of their colour in "
    "an unbroken line (across, down or diagonally) wins.</p></details>"
)

_CLOSED = {
    "expired": "This invitation has expired and the seat it held has been released.",
    "redeemed": "This invitation has already been accepted.",
    "used": "This invitation has already been accepted.",
    "accepted": "This invitation has already been accepted.",
    "released": "This invitation has expired and the seat it held has been released.",
}


def invite_page(invite: Mapping[str, Any]) -> str:
    """The page an invitee opens from the e-mail: who invited them, the note, the run, when the
    hold ends and a button that POSTs back to the same URL (with an optional name). Showing it
    changes nothing."""
    inviter = str(invite.get("inviter_name") or "A player")
    invitee = str(invite.get("invitee_name") or "")
    game = str(invite.get("game_name") or invite.get("game_id") or "a game")
    note = invite.get("note")
    stamp, readable = _when(invite.get("expires_at"))
    status = str(invite.get("status") or "").lower()
    hello = f"Hello {_e(invitee)}! " if invitee else ""
    note_html = f'<blockquote class="note" id="note">{_e(note)}</blockquote>' if note else ""
    if status in _CLOSED:
        action = f'<p class="card" id="closed">{_e(_CLOSED[status])}</p>'
    else:
        action = (
            f'<p class="hold" id="hold">Your seat is held until '
            f'<time datetime="{_e(stamp)}" data-local>{_e(readable)}</time>.</p>'
            '<form class="accept" method="post" action="">'
            '<label for="name">Your name, as your opponent will see it</label>'
            f'<input id="name" name="name" type="text" value="{_e(invitee)}" autocomplete="nickname" '
            f'placeholder="{_e(invitee or "Your name")}">'
            '<button type="submit" id="accept">Accept and take my seat</button>'
            "</form>"
            '<p class="hint">Opening this page changes nothing; the seat is only taken when you press '
            "the button.</p>"
        )
    body = (
        '<main class="wrap narrow">'
        '<p class="kicker">Connect6 · invitation</p>'
        f'<h1 id="title">{_e(inviter)} invites you to a game of Connect6</h1>'
        f'<p class="lead">{hello}{_e(inviter)} is holding a seat for you in '
        f'<strong id="game">{_e(game)}</strong>.</p>'
        f"{note_html}{action}{_RULES}"
        "</main>"
    )
    return _layout(f"{inviter} invites you to play Connect6", body, scripts=_LOCAL_TIME_JS)


def invite_redeemed_page(result: Mapping[str, Any]) -> str:
    """The confirmation after an invitee takes their seat: the game, both players, whose turn it
    is, and a link to the live board."""
    view = result.get("game")
    view = view if isinstance(view, Mapping) else {}
    game_id = str(view.get("game_id") or "")
    name = str(view.get("game_name") or game_id or "the game")
    you = result.get("name") or result.get("player_name")
    colour = result.get("colour") or result.get("stone_colour")
    greeting = f"You're in, {_e(you)}!" if you else "You're in!"
    plays = (
        f'<p class="lead">You play <strong>{_e(str(colour).capitalize())}</strong>.</p>'
        if colour in ("black", "white")
        else ""
    )
    board_link = f"../games/{quote(game_id, safe='')}/board" if game_id else ""
    link = f'<p><a class="button" id="watch" href="{_e(board_link)}">Watch the board</a></p>'
    if not board_link:
        link = ""
    body = (
        '<main class="wrap narrow">'
        '<p class="kicker">Connect6 · invitation accepted</p>'
        f'<h1 id="title">{greeting}</h1>'
        f'<p class="lead">Your seat in <strong id="game">{_e(name)}</strong> is yours.</p>'
        f"{plays}"
        f'<div class="players">{_player_chip(view, "black")}<span class="vs">vs</span>'
        f"{_player_chip(view, 'white')}</div>"
        f'<p class="status" id="status">{_e(status_text(view))}</p>'
        "<p class=\"hint\">When it is your turn, your move sheet arrives from the platform.</p>"
        f"{link}{_RULES}"
        "</main>"
    )
    return _layout(f"You're in: {name}", body)


_ERRORS = {
    410: ("⌛", "This invitation has expired",
          "Invitations hold a seat for 24 hours. Ask the person who invited you to send a new one."),
    409: ("✓", "This invitation has already been used",
          "Each invitation link works once. If you accepted it yourself, you're already in the game."),
    404: ("?", "We can't find this invitation",
          "Check that the whole link was copied from the e-mail, or ask for a new invitation."),
}


def invite_error_page(status: int, code: str, message: str) -> str:
    """A page of its own for an invitation link that cannot be used: expired (410), already used
    (409), unknown (404); anything else gets a general apology with the message."""
    icon, heading, hint = _ERRORS.get(
        status, ("!", "This invitation can't be used right now", "Please try again in a moment.")
    )
    same = message.strip().rstrip(".").lower() == heading.lower()
    lead = "" if same else f'<p class="lead" id="message">{_e(message)}</p>'
    body = (
        '<main class="wrap narrow">'
        '<p class="kicker">Connect6 · invitation</p>'
        f'<p class="big" aria-hidden="true">{icon}</p>'
        f'<h1 id="title" data-status="{int(status)}" data-code="{_e(code)}">{_e(heading)}</h1>'
        f"{lead}"
        f'<p class="hint">{_e(hint)}</p>'
        "</main>"
    )
    return _layout(heading, body)
