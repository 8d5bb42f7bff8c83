"""The HTML pages people see: the live spectator board and the invitation pages.

Every function is pure (a response of :mod:`connect6.game.shapes` in, a ``str`` out), escapes
every name and note with :func:`html.escape`, embeds JSON so that ``</script>`` cannot break out of
its element, and loads nothing from outside the page (no framework, no CDN, no web font): the
stylesheet and the small polling script are inlined from ``static/``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from html import escape
from importlib import resources
from typing import Any
from urllib.parse import quote

from connect6.game.shapes import (
    AcceptedInvite,
    Colour,
    GameView,
    InviteInfo,
    PlayerRef,
    ReplayMove,
    SeatView,
)
from connect6.pages.clock import PAUSED_LINE, deadline_phrase, sides_line
from connect6.pages.svg import ROOT_STYLE, board_svg

FINISHED = frozenset({"completed", "draw", "cancelled"})


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


# The tab icon, inline (a black and a white stone): browsers then never ask for /favicon.ico, a path
# the API does not route. The policy's ``img-src data:`` allows it.
FAVICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E"
    "%3Crect width='32' height='32' rx='6' fill='%23e2b86b'/%3E"
    "%3Ccircle cx='11' cy='12' r='7' fill='%23111'/%3E"
    "%3Ccircle cx='21' cy='20' r='7' fill='%23fff' stroke='%23555'/%3E%3C/svg%3E"
)


def _layout(title: str, body: str, *, scripts: str = "", head: str = "") -> str:
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f'<link rel="icon" type="image/svg+xml" href="{FAVICON}">'
        f"<title>{_e(title)}</title>{head}<style>{_static('style.css')}</style></head>"
        f"<body>{body}{scripts}</body></html>\n"
    )


def _when(text: str) -> tuple[str, str]:
    """(machine value, readable UTC text) of an RFC 3339 time; unreadable input is shown as is."""
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


def frame_ancestors_source(origins: Sequence[str] = ()) -> str:
    """The ``frame-ancestors`` sources of a policy: the given origins (``https://host[:port]``, or
    ``'self'``) or ``'none'`` when there are none. An origin with a path, a quote, a space or a
    semicolon is refused (``ValueError``): it would end up inside a response header."""
    sources: list[str] = []
    for raw in origins:
        origin = raw.strip().rstrip("/")
        if not origin:
            continue
        if origin != "'self'" and not is_origin(origin):
            raise ValueError(f"not an origin for frame-ancestors: {raw!r}")
        sources.append(origin)
    return " ".join(dict.fromkeys(sources)) or "'none'"


_ORIGIN = re.compile(r"https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?")


def is_origin(text: str) -> bool:
    """``scheme://host[:port]`` (a ``*.`` wildcard allowed), nothing that could break out of a header."""
    return _ORIGIN.fullmatch(text) is not None


def content_security_policy(frame_ancestors: Sequence[str] = ()) -> str:
    """A strict ``Content-Security-Policy`` for every page here: nothing from elsewhere, and only
    this package's own inline stylesheets and scripts (by hash). Handlers may send it as a header.
    ``frame_ancestors``: the origins that may show the page in a frame (``'none'`` when empty)."""
    return _policy(frame_ancestors_source(frame_ancestors))


@cache
def _policy(ancestors: str) -> str:
    inline = (_static("board.js"), _LOCAL_TIME_SCRIPT, _static("sheet.js"))
    scripts = " ".join(_sha256(text) for text in inline)
    styles = " ".join(_sha256(text) for text in (_static("style.css"), ROOT_STYLE))
    return (
        "default-src 'none'; "
        f"script-src {scripts}; style-src {styles}; "
        "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
        f"frame-ancestors {ancestors}"
    )


# ---------------------------------------------------------------------------------------------
# The spectator page


def _name(side: PlayerRef | None) -> str:
    return side.name if side is not None and side.name else "(open seat)"


def _kind(side: PlayerRef | None) -> str:
    return "computer" if side is not None and side.kind == "computer" else ""


def _side(view: GameView, colour: Colour) -> PlayerRef | None:
    return view.black if colour == "black" else view.white


def status_text(view: GameView) -> str:
    """One sentence saying where the game stands (plain text, not escaped)."""
    count = view.move_count
    moves = f"{count} move" if count == 1 else f"{count} moves"
    reason = view.end_reason
    if view.status == "cancelled":
        return f"Cancelled after {moves}: no winner"
    if view.status == "completed":
        winner = view.winner
        colour = winner.colour.capitalize() if winner is not None else ""
        who = (winner.name if winner is not None else None) or colour or "Someone"
        # A name may carry brackets of its own ("Computer (normal)"): the colour goes in words.
        playing = f", playing {colour}," if colour and who != colour else ""
        if reason in ("resigned", "time"):
            loser_colour: Colour = "white" if colour == "Black" else "black"
            loser_side = _side(view, loser_colour)
            loser = _name(loser_side) if loser_side is not None else loser_colour.capitalize()
            if reason == "time":
                return f"{who}{playing} won on time: {loser} ran out of time after {moves}"
            return f"{who}{playing} won: {loser} resigned after {moves}"
        return f"{who}{playing} won with six in a row after {moves}"
    if view.status == "draw":
        if reason == "agreed":
            return f"Draw by agreement after {moves}"
        return f"Draw: the board filled up after {moves} with no six in a row"
    to_move = view.to_move
    if view.status == "in_progress" and to_move is not None:
        colour = to_move.colour.capitalize()
        stones = to_move.stones_to_place
        who = to_move.name or colour
        plural = "stone" if stones == 1 else "stones"
        with_colour = f" with {colour}" if who != colour else ""
        paused = "Paused: " if view.paused else ""
        return f"{paused}{who} to play move {to_move.move_number}{with_colour}: {stones} {plural}"
    open_seats = sum(1 for s in view.seats if s.state == "open")
    held = sum(1 for s in view.seats if s.state == "held")
    parts = []
    if open_seats:
        parts.append(f"{open_seats} open seat{'s' if open_seats != 1 else ''}")
    if held:
        parts.append(f"{held} seat{'s' if held != 1 else ''} held for an invited player")
    paused = "Paused: " if view.paused else ""
    return paused + "Waiting for players" + (f" ({', '.join(parts)})" if parts else "")


def _last_move_text(view: GameView) -> str:
    last = view.last_move
    if last is None:
        return "none yet"
    return f"{last.move_number}. {last.colour.capitalize()} {' '.join(last.stones)}".strip()


def _player_chip(view: GameView, colour: Colour) -> str:
    side = _side(view, colour)
    classes = ["player", colour]
    to_move = view.to_move
    if view.status == "in_progress" and to_move is not None and to_move.colour == colour:
        classes.append("to-move")
    if view.winner is not None and view.winner.colour == colour:
        classes.append("winner")
    kind = _kind(side)
    detail = colour.capitalize() + (f" · {kind}" if kind else "")
    if "to-move" in classes:
        detail += " · to play"
    if "winner" in classes:
        detail += " · winner"
    return _chip(f'class="{" ".join(classes)}" data-colour="{colour}"', colour, _name(side), detail)


def _chip(attributes: str, swatch: str, name: str, detail: str) -> str:
    """One player line: a swatch, the name and a detail line (``attributes`` are already escaped)."""
    return (
        f'<div {attributes}>'
        f'<span class="swatch {swatch}" aria-hidden="true"></span>'
        f'<span class="who"><span class="name">{_e(name)}</span>'
        f'<span class="kind">{_e(detail)}</span></span></div>'
    )


def _seat_chip(seat: SeatView) -> str:
    """A seat before the game starts, when colours are not drawn yet: who sits there, or for whom
    it is held, or that it is open (what the status line counts)."""
    state = seat.state
    if state == "taken":
        who = seat.name or "A player"
        detail = "seated" + (" · computer" if seat.kind == "computer" else "")
    elif state == "held":
        who = seat.name or "An invited player"
        detail = "seat held for an invitation"
    else:
        who, detail = "(open seat)", "waiting for a player"
    return _chip(f'class="player seat {_e(state)}" data-seat="{_e(seat.seat)}" data-state="{_e(state)}"',
                 "undrawn", who, f"Seat {seat.seat} · {detail}")


def _players(view: GameView) -> str:
    """Both sides: by colour once the game has started, by seat before (colours are drawn when
    both seats are taken)."""
    if view.status == "waiting_for_players" and view.seats:
        chips = '<span class="vs">vs</span>'.join(_seat_chip(seat) for seat in view.seats[:2])
        return (f'<div class="players">{chips}</div>'
                '<p class="hint" id="colours-note">Colours are drawn at random when both seats are '
                "taken.</p>")
    return (f'<div class="players">{_player_chip(view, "black")}<span class="vs">vs</span>'
            f"{_player_chip(view, 'white')}</div>")


def _icon(path: str) -> str:
    # Drawn, not typed: the media-control characters are missing from many fonts (tofu boxes).
    return (f'<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">'
            f'<path d="{path}" fill="currentColor"/></svg>')


_REPLAY_BUTTONS = (
    ("rp-first", "First move (Home)", _icon("M3 2h2v12H3zM14 2v12L6 8z")),
    ("rp-back", "Back one move (←)", _icon("M12 2v12L4 8z")),
    ("rp-forward", "Forward one move (→)", _icon("M4 2v12l8-6z")),
    ("rp-last", "Latest move (End)", _icon("M11 2h2v12h-2zM2 2v12l8-6z")),
)


def _replay_controls(count: int, over: bool, moves: Sequence[ReplayMove]) -> str:
    """Step through the moves: buttons, a slider, the stone numbers on request. Hidden until the
    page script shows them (they do nothing without it)."""
    buttons = [f'<button type="button" id="{key}" class="step" title="{_e(title)}" '
               f'aria-label="{_e(title)}">{symbol}</button>' for key, title, symbol in _REPLAY_BUTTONS]
    latest = "final move" if over else "latest move"
    data = script_json([move.model_dump(mode="json") for move in moves])
    return (
        f'<div class="replay" id="replay" data-total="{count}" data-moves="{_e(data)}" '
        'hidden>'
        f'<div class="replay-row">{buttons[0]}{buttons[1]}'
        f'<span class="at" id="rp-at" aria-live="polite">Move {count} of {count}</span>'
        f"{buttons[2]}{buttons[3]}</div>"
        f'<input type="range" id="rp-slider" min="0" max="{count}" value="{count}" step="1" '
        'aria-label="Move to show">'
        '<label class="numbers"><input type="checkbox" id="rp-numbers"> Show stone numbers</label>'
        f'<p class="behind" id="rp-behind" hidden><span id="rp-behind-text"></span> '
        f'<button type="button" id="rp-latest">Show the {latest}</button></p>'
        "</div>"
    )


def _clock_html(view: GameView, now: datetime | None) -> str:
    """A timed game's clock on the board page (v1.2): "Paused" while paused, the mover's deadline
    and what is left of it at ``now`` (``data-deadline`` lets the script count it down), and each
    side's time left; nothing for a game without a clock or once it is over."""
    clock = view.clock
    if view.status in FINISHED:
        return ""
    lines = []
    if view.paused:
        lines.append(f'<p class="clock paused" id="clock" data-paused="true">{_e(PAUSED_LINE)}</p>')
    elif clock is not None and clock.deadline and view.to_move is not None:
        who = view.to_move.name or view.to_move.colour.capitalize()
        now = now or datetime.now(UTC)
        when, left = deadline_phrase(clock.deadline, now)
        stamp = now.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        lines.append(f'<p class="clock" id="clock" data-deadline="{_e(clock.deadline)}" data-now="{stamp}">'
                     f'{_e(who)} has until {_e(when)} — <span id="clock-left">{_e(left)}</span></p>')
    sides = sides_line(clock, view.black, view.white) if clock is not None else ""
    if sides and view.status == "in_progress":
        lines.append(f'<p class="hint clock-sides" id="clock-sides">{_e(sides)}</p>')
    return "".join(lines)


def board_page(view: GameView, moves: Sequence[ReplayMove] | None = None, *,
               now: datetime | None = None) -> str:
    """The live spectator page for a game view: the board, the players and their colours (their
    seats before the game starts), whose turn it is, the move count and the result, and (given the
    game's ``moves``) controls to step through them. A small script polls the same URL for the JSON
    view (with ``If-None-Match``), redraws the live section in place when the game changes, keeps
    a reader who is looking at an earlier move where they are, and stops when the game is over.
    A timed game shows the mover's deadline counted from ``now`` (None: the clock's now) and each
    side's time left; a paused one says "Paused"."""
    name = view.game_name or view.game_id or "Connect6"
    status = view.status
    over = status in FINISHED
    count = view.move_count
    shown = [move for move in moves or [] if 1 <= move.move_number <= count]
    facts = [
        ("Moves", str(count)),
        ("Stones", str(view.stones_placed)),
        ("Last move", _last_move_text(view)),
        ("Board", f"{view.board_size}×{view.board_size}"),
    ]
    if over and view.winning_line:
        facts.append(("Winning line", " ".join(view.winning_line)))
    facts_html = "".join(
        f'<div><dt>{_e(k)}</dt><dd data-fact="{_e(k.lower().replace(" ", "-"))}">{_e(v)}</dd></div>'
        for k, v in facts
    )
    live_state = "Game over: final position" if over else "Live: this page updates itself"
    replay = _replay_controls(count, over, shown) if moves is not None and count else ""
    body = (
        '<main class="wrap">'
        f'<p class="kicker">Connect6 · spectator board</p><h1 id="game-name">{_e(name)}</h1>'
        f'<section id="live" data-status="{_e(status)}" data-move-count="{_e(count)}">'
        f"{_players(view)}"
        f'<p class="status{" over" if over else ""}" id="status" role="status">{_e(status_text(view))}</p>'
        f"{_clock_html(view, now)}"
        f'<div class="board-frame">{board_svg(view, shown if moves is not None else None)}</div>'
        f"{replay}"
        f'<dl class="facts">{facts_html}</dl>'
        "</section>"
        f'<footer><span id="live-state" class="live{" done" if over else ""}">{live_state}</span>'
        ' · <a href="board.svg">board as SVG</a> · <a href="moves">moves as JSON</a></footer>'
        "</main>"
    )
    scripts = (
        f'<script type="application/json" id="c6-view">{script_json(view.model_dump(mode="json"))}</script>'
        f"<script>{_static('board.js')}</script>"
    )
    title = f"{name}: {status_text(view)}"
    return _layout(title, body, scripts=scripts)


def game_not_found_page(game_id: str) -> str:
    """The page a browser gets for a board link to a game that does not exist (404)."""
    body = (
        '<main class="wrap narrow">'
        '<p class="kicker">Connect6 · spectator board</p>'
        '<p class="big" aria-hidden="true">?</p>'
        '<h1 id="title" data-status="404" data-code="game_not_found">We can\'t find this game</h1>'
        f'<p class="lead" id="message">There is no game <code>{_e(game_id)}</code> here.</p>'
        '<p class="hint">Check that the whole link was copied, or ask whoever sent it for the '
        "board link again.</p>"
        "</main>"
    )
    return _layout("Game not found", body)


# ---------------------------------------------------------------------------------------------
# The invitation pages

_RULES = (
    "<details><summary>How Connect6 is played</summary>"
    "<p>Two players take turns placing stones on a square board. Black opens with a single stone; "
    "after that each turn places two stones. The first to get six or more stones of their colour in "
    "an unbroken line (across, down or diagonally) wins.</p></details>"
)

def invite_page(invite: InviteInfo) -> str:
    """The page an invitee opens from the e-mail: who invited them, the note, the run, when the
    hold ends and a button that POSTs back to the same URL (with an optional name). Showing it
    changes nothing."""
    inviter = invite.inviter_name or "A player"
    invitee = invite.invitee_name
    game = invite.game_name or invite.game_id or "a game"
    note = invite.note
    stamp, readable = _when(invite.expires_at)
    hello = f"Hello {_e(invitee)}! " if invitee else ""
    note_html = f'<blockquote class="note" id="note">{_e(note)}</blockquote>' if note else ""
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


def _turn_line(view: GameView, colour: Colour | None, *, you: bool) -> str:
    """What the invitee does next, true to the moment: their turn now, or who plays first, or the
    result. ``you``: speaking to the invitee (just accepted), else about them by name."""
    to_move = view.to_move
    if view.status in FINISHED:
        return f"The game is over. {status_text(view)}."
    if view.status == "in_progress" and to_move is not None:
        number = to_move.move_number
        stones = to_move.stones_to_place
        plural = "stone" if stones == 1 else "stones"
        if to_move.colour == colour:
            if you:
                return (f"It's your turn now: move {number}, {stones} {plural}. The platform sends "
                        "you your move sheet; play your move there.")
            return f"It is their turn: move {number}, {stones} {plural}."
        # Not their turn: the status line above already says whose it is.
        return "When it is your turn, the platform sends you your move sheet." if you else ""
    return "The game starts when both seats are taken."


def invite_redeemed_page(accepted: AcceptedInvite, *, just_accepted: bool = True, play_url: str = "") -> str:
    """The page of an accepted invitation: who took the seat and their colour, the opponent, what
    happens next and a link to the live board. ``just_accepted``: the invitee arrives from the
    button (after a redirect, so reloading is harmless) and is spoken to; otherwise the link was
    opened again later and the page says who accepted it. Names, colours and the game's state, as
    the public board shows them, and (``play_url``, v1.2) the invitee's play link: the page is
    reached only with the invitation's own secret link, which the invitee alone was sent."""
    view = accepted.game
    game_id = view.game_id
    name = view.game_name or game_id or "the game"
    you = accepted.name or ""
    colour = accepted.colour
    opponent = _side(view, "white" if colour == "black" else "black") if colour is not None else None
    against = (f" against <strong id=\"opponent\">{_e(opponent.name)}</strong>"
               if opponent is not None and opponent.name else "")
    shown_colour = f'<strong id="colour">{_e(colour.capitalize())}</strong>' if colour else ""
    if just_accepted:
        heading = f"You're in, {you}!" if you else "You're in!"
        plays = f"You play {shown_colour} in " if shown_colour else "You play in "
    else:
        heading = f"{you} accepted this invitation" if you else "This invitation was accepted"
        plays = (f"{_e(you or 'The invitee')} plays {shown_colour} in " if shown_colour
                 else f"{_e(you or 'The invitee')} plays in ")
    board_link = f"../games/{quote(game_id, safe='')}/board" if game_id else ""
    link = f'<p><a class="button" id="watch" href="{_e(board_link)}">Watch the board</a></p>'
    if not board_link:
        link = ""
    if play_url:  # v1.2: the invitee's own play link (secret: only on the invitee's page)
        link = (f'<p><a class="button" id="play-now" href="{_e(play_url)}">Play now</a></p>'
                + (f'<p><a id="watch" href="{_e(board_link)}">Watch the board</a></p>' if board_link else ""))
    kicker = "invitation accepted"
    next_line = _turn_line(view, colour, you=just_accepted)
    if play_url:  # they play from their link, not from a sheet the platform sends
        next_line = next_line.replace("The platform sends you your move sheet; play your move there.",
                                      "Press Play now to play it.").replace(
            "When it is your turn, the platform sends you your move sheet.",
            "Press Play now: your page follows the game and shows your move sheet when it is your turn.")
    next_html = f'<p class="next" id="next">{_e(next_line)}</p>' if next_line else ""
    body = (
        '<main class="wrap narrow">'
        f'<p class="kicker">Connect6 · {kicker}</p>'
        f'<h1 id="title">{_e(heading)}</h1>'
        f'<p class="lead" id="seat">{plays}<strong id="game">{_e(name)}</strong>{against}.</p>'
        f"{_players(view)}"
        f'<p class="status" id="status">{_e(status_text(view))}</p>'
        f"{next_html}"
        f"{link}{_RULES}"
        "</main>"
    )
    return _layout(f"{heading} {name}" if just_accepted else f"Invitation accepted: {name}", body)


_ERRORS = {
    410: ("⌛", "This invitation has expired",
          "Invitations hold a seat for 24 hours. Ask the person who invited you to send a new one."),
    409: ("✓", "This invitation has already been used",
          "Each invitation link works once. If you accepted it yourself, you're already in the game."),
    404: ("?", "We can't find this invitation",
          "Check that the whole link was copied from the e-mail, or ask for a new invitation."),
    422: ("!", "Something in this link or form isn't right",
          "Check that the whole link was copied from the e-mail; if you typed a name, go back to the "
          "invitation, change it and press the button again."),
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
