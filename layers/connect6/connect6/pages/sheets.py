"""The turn sheets as pages: the join sheet, the move sheet and the recap (``Accept: text/html``),
which the platform shows its players inside an iframe and reads the form of as their answer.

Each function is pure: a sheet of :mod:`connect6.game.shapes` and a :class:`SheetContext` (what the
route knows and the sheet does not: the sheet code, where the form posts, what is left against the
computer) in, a ``str`` out. The pages are Jinja2 templates (``templates/``) with autoescape on for
every template, so every name, note and phrase is escaped by construction; the only markup passed
in as it is comes from this package (the stylesheet, the script, the SVG board). The page script
gets its state from a ``<script type="application/json">`` block written by :func:`script_json` and
holds no text a player wrote. Jinja2 is imported when the first sheet is rendered, not when
``connect6.pages`` is (the board function never pays for it); the environment is built once.

The move sheet's form has exactly the move route's form fields: ``move_number`` (hidden),
``stone_1``, ``stone_2`` (absent when one stone is to be placed), ``table_talk`` (a phrase id or
empty) and ``offer_draw`` (``true`` when ticked); with ``play_actions`` it also has buttons named
``action`` (``hint``, ``undo``, ``accept_draw``, ``decline_draw``). It works with no script at all
(the points are typed); :file:`static/sheet.js` adds tap-to-place, the keyboard and the confirm step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote, urlsplit

from connect6.game.shapes import BoardPicture, Colour, JoinSheet, MoveSheet, PlayerRef, RecapSheet
from connect6.pages.clock import PAUSED_LINE, sides_line, until_line
from connect6.pages.html import (
    FAVICON,
    _sha256,
    _static,
    _when,
    frame_ancestors_source,
    script_json,
)
from connect6.pages.svg import ROOT_STYLE, board_svg
from connect6.records import point_label

if TYPE_CHECKING:
    from jinja2 import Environment

SheetKind = Literal["join", "move", "recap"]


@dataclass(frozen=True, kw_only=True)
class SheetContext:
    """What a sheet page needs beyond the sheet itself (all optional).

    ``sheet_code``: the code printed on the sheet (game, seat, move number). ``form_action``: where
    the form posts (empty: the page's own URL). ``hints_left``/``undos_left``: shown against the
    computer when given. ``play_actions``: the move form also carries the hint and undo buttons and,
    when the opponent offers a draw, accept and decline (``name="action"``), for a route that takes
    them (the play link); inside the platform's iframe they stay off. ``public_base``: the path or URL
    the public routes hang from (``/v1`` or ``https://api.example.org/v1``), for the recap's link to
    the board; ``board_url`` overrides that link. ``game_name``: the run's name, which the move sheet
    does not carry. ``notice``: one line from the route to show above the form (say, why the last
    answer was refused). ``values``: the form's last answer, to fill in again. ``now``: the moment
    of rendering, which a timed sheet counts the time to its deadline from (None: the clock's now)."""

    sheet_code: str = ""
    form_action: str = ""
    hints_left: int | None = None
    undos_left: int | None = None
    play_actions: bool = False
    public_base: str = "/v1"
    board_url: str = ""
    game_name: str = ""
    notice: str = ""
    values: Mapping[str, str] = field(default_factory=dict)
    now: datetime | None = None


class _Values(dict[str, str]):
    """Form values for a template: a missing field reads as empty."""

    def __missing__(self, key: str) -> str:
        return ""


@cache
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(
        loader=PackageLoader("connect6.pages", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        keep_trailing_newline=True,
    )


def _markup(text: str) -> Any:
    """Text this package wrote (stylesheet, script, SVG, escaped JSON), passed through unescaped."""
    from markupsafe import Markup

    return Markup(text)  # nosec B704 # markup the package wrote from its own assets


def _render(template: str, **values: Any) -> str:
    values.setdefault("favicon", FAVICON)
    values["css"] = _markup(_static("style.css"))
    return _environment().get_template(template).render(**values)


# ---------------------------------------------------------------------------------------------
# The policy


_SCRIPTS: dict[SheetKind, tuple[str, ...]] = {"move": ("sheet.js",), "join": (), "recap": ()}


def sheet_csp(kind: SheetKind, *, frame_ancestors: Sequence[str] = (), form_action: str = "") -> str:
    """The ``Content-Security-Policy`` of one sheet page: nothing from elsewhere, only that page's
    inline script and styles (by their SHA-256), forms posted to the same origin (and to the origin
    of an absolute ``form_action``), and framing by ``frame_ancestors`` only (``'none'`` when
    empty). No page here busts out of a frame."""
    scripts = " ".join(_sha256(_static(name)) for name in _SCRIPTS[kind]) or "'none'"
    styles = " ".join((_sha256(_static("style.css")), _sha256(ROOT_STYLE)))
    targets = ["'self'"]
    parts = urlsplit(form_action)
    if parts.scheme in ("http", "https") and parts.netloc:
        targets.append(frame_ancestors_source([f"{parts.scheme}://{parts.netloc}"]))
    return (
        "default-src 'none'; "
        f"script-src {scripts}; style-src {styles}; img-src data:; "
        f"form-action {' '.join(targets)}; base-uri 'none'; "
        f"frame-ancestors {frame_ancestors_source(frame_ancestors)}"
    )


# ---------------------------------------------------------------------------------------------
# Shared wording


def _other(colour: Colour | None) -> Colour | None:
    if colour is None:
        return None
    return "white" if colour == "black" else "black"


def _opponent_name(opponent: PlayerRef | None) -> str:
    if opponent is None:
        return "your opponent"
    return opponent.name or ("the computer" if opponent.kind == "computer" else "your opponent")


def _chip_detail(colour: Colour | None, extra: str) -> str:
    parts = [colour.capitalize() if colour else "colour not drawn yet"]
    if extra:
        parts.append(extra)
    return " · ".join(parts)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _example(size: int, offset: int = 0) -> str:
    middle = size // 2
    return point_label(middle * size + middle + offset, size)


def _free_points(size: int, board: Sequence[str], count: int) -> list[str]:
    """``count`` free points nearest the centre (examples to type), in reading order of distance."""
    middle = size // 2
    order = sorted(range(size * size), key=lambda p: (abs(p // size - middle) + abs(p % size - middle), p))
    free: list[str] = []
    for point in order:
        row, col = divmod(point, size)
        top = size - 1 - row
        line = board[top] if top < len(board) else ""
        if col >= len(line) or line[col] not in "BW":
            free.append(point_label(point, size))
            if len(free) == count:
                break
    return free


# ---------------------------------------------------------------------------------------------
# The move sheet


def move_sheet_page(sheet: MoveSheet, *, context: SheetContext | None = None) -> str:
    """The move sheet as a page: greeting, colours, whose turn, the board with its coordinates and
    the last move, the opponent's line and draw offer, and (on the player's turn) the move form."""
    context = context or SheetContext()
    colour = sheet.stone_colour
    opponent = sheet.opponent
    opponent_name = _opponent_name(opponent)
    over = sheet.status in ("completed", "draw", "cancelled")
    playing = (sheet.status == "in_progress" and sheet.your_turn and sheet.stones_to_place > 0
               and not sheet.paused)
    stones = sheet.stones_to_place
    if sheet.status == "cancelled":
        status_line = "The game was cancelled: it ends with no winner."
    elif sheet.paused and not over:
        status_line = PAUSED_LINE
    elif playing:
        with_colour = f" with {colour.capitalize()}" if colour else ""
        status_line = f"Your move {sheet.move_number}: place {_plural(stones, 'stone')}{with_colour}."
    elif over:
        status_line = "The game is over: your recap has the result."
    elif sheet.status == "waiting_for_players":
        status_line = "The game starts when both seats are taken."
    else:
        status_line = f"It is {opponent_name}'s turn. You get a new sheet when it is yours."
    last = sheet.last_move
    if last is not None:
        last_line = f"Last move: {last.move_number}. {last.colour.capitalize()} {' '.join(last.stones)}"
    else:
        last_line = "No stone is on the board yet: Black opens with one stone."
    picture = BoardPicture(game_id=sheet.game_id, board_size=sheet.board_size, board=sheet.board,
                           move_count=max(sheet.move_number - 1, 0), last_move=last, winning_line=[])
    values = _Values(context.values)
    labels = ("First stone", "Second stone") if stones > 1 else ("Your stone",)
    examples = _free_points(sheet.board_size, sheet.board, len(labels)) if playing else []
    stone_fields = [
        {"name": f"stone_{i + 1}", "label": label, "value": values[f"stone_{i + 1}"],
         "example": "e.g. " + (examples[i] if i < len(examples) else _example(sheet.board_size, i))}
        for i, label in enumerate(labels)
    ]
    state = {"size": sheet.board_size, "colour": colour or "black", "stones_to_place": stones,
             "move_number": sheet.move_number}
    kind = " · computer" if opponent is not None and opponent.kind == "computer" else ""
    extra: dict[str, Any] = {}
    if playing:
        extra = {"state": _markup(script_json(state)), "script": _markup(_static("sheet.js"))}
    return _render(
        "move_sheet.html",
        title=f"{sheet.greeting}: move {sheet.move_number}" if playing else sheet.greeting,
        sheet=sheet,
        game_name=context.game_name,
        you_name=sheet.player_name or "You",
        you_detail=_chip_detail(colour, "you" + (" · to play" if playing else "")),
        opponent_colour=_other(colour),
        opponent_name=opponent_name,
        opponent_detail=_chip_detail(_other(colour), kind.strip(" ·")),
        status_line=status_line,
        over=over,
        notice=context.notice,
        talk=sheet.table_talk_received,
        draw_offered=sheet.draw_offered_by_opponent and not over,
        draw_hint="Playing your move declines it.",
        actions=context.play_actions,
        form=playing,
        board=_markup(board_svg(picture, points=playing)),
        last_line=last_line,
        form_action=context.form_action,
        stones_legend=f"Your {_plural(stones, 'stone')} for move {sheet.move_number}",
        stone_fields=stone_fields,
        chosen_phrase=values["table_talk"],
        offer_draw=values["offer_draw"] == "true",
        hints_left=context.hints_left,
        undos_left=context.undos_left,
        code=context.sheet_code,
        clock=move_sheet_clock(sheet, context.now),
        **extra,
    )


def move_sheet_clock(sheet: MoveSheet, now: datetime | None = None) -> dict[str, str]:
    """A timed move sheet's clock in words: ``until`` ("You have until Tue 8 Dec, 14:00 UTC —
    3 days 4 hours", or the opponent's name), ``deadline`` (RFC 3339) and ``sides`` (each side's
    time left); empty for a game without a clock."""
    clock = sheet.clock
    if clock is None:
        return {}
    you = sheet.stone_colour
    me = PlayerRef(name=sheet.player_name, kind="human")
    black, white = (me, sheet.opponent) if you == "black" else (sheet.opponent, me)
    out = {"sides": sides_line(clock, black, white, you=you) if you else ""}
    if clock.deadline and sheet.status == "in_progress" and not sheet.paused:
        who = "You" if sheet.your_turn else _opponent_name(sheet.opponent)
        out |= {"until": until_line(who, clock.deadline, now), "deadline": clock.deadline}
    return out


# ---------------------------------------------------------------------------------------------
# The join sheet


def join_sheet_page(sheet: JoinSheet, *, context: SheetContext | None = None) -> str:
    """The join sheet as a page: the run, its open seats, the rules in a few lines and the join
    form (``name``, ``email``, ``opponent`` none|computer|invite, ``computer_level``,
    ``invite_name``, ``invite_email``, ``invite_note``) offering only what the run allows. The
    invitation fields show only when "invite" is chosen and the level only when "computer" is
    (CSS ``:has``, no script; a browser without it shows them all)."""
    context = context or SheetContext()
    values = _Values(context.values)
    allowed = ["none"]
    if sheet.can_request_computer:
        allowed.append("computer")
    if sheet.can_invite:
        allowed.append("invite")
    chosen = values["opponent"] if values["opponent"] in allowed else "none"
    levels = sheet.computer_levels
    chosen_level = values["computer_level"] if values["computer_level"] in levels else (
        "normal" if "normal" in levels else (levels[0] if levels else ""))
    seats = sheet.open_seats
    if seats >= 2:
        seats_line = "Both seats are open: join, and choose who you play."
        none_label = "Wait for another player to join"
    elif seats == 1:
        seats_line = "One seat is open: join to play the player already seated."
        none_label = "Play the player already seated"
    else:
        seats_line = "This game has no open seat."
        none_label = "Wait for another player to join"
    rules = sheet.rules
    size = rules.board_size
    first, per = rules.first_turn_stones, rules.stones_per_turn
    rule_lines = [
        f"Two players take turns on a {size}×{size} board; colours are drawn when both seats are taken.",
        f"Black opens with {_plural(first, 'stone')}; after that each turn places {_plural(per, 'stone')}.",
        f"The first to get {rules.win_length} or more stones in an unbroken line (across, down or "
        "diagonally) wins.",
        f"A point is written as its column letter and row number, like {_example(size)}.",
    ]
    name = sheet.game_name or sheet.game_id
    return _render(
        "join_sheet.html",
        title=f"Join {name}",
        sheet=sheet,
        game_name=name,
        seats_line=seats_line,
        none_label=none_label,
        chosen=chosen,
        chosen_level=chosen_level,
        values=values,
        form_action=context.form_action,
        notice=context.notice,
        rules=rule_lines,
        code=context.sheet_code,
    )


# ---------------------------------------------------------------------------------------------
# The recap


def result_sentence(sheet: RecapSheet) -> str:
    """How the game ended, in one sentence (plain text, not escaped)."""
    moves = _plural(sheet.move_count, "move")
    reason = sheet.end_reason
    if sheet.result == "draw":
        if reason == "agreed":
            return f"Draw by agreement after {moves}."
        return f"Draw: the board filled up after {moves} with no six in a row."
    if sheet.result == "cancelled" or sheet.status == "cancelled":
        return f"The game was cancelled after {moves}: no winner."
    winner = sheet.winner
    colour = winner.colour.capitalize() if winner is not None else ""
    who = (winner.name if winner is not None else None) or colour or "Someone"
    playing = f", playing {colour}," if colour and who != colour else ""
    if reason in ("resigned", "time"):
        loser = sheet.player_name if sheet.result == "lost" else (
            sheet.opponent.name if sheet.opponent is not None else None)
        if reason == "time":
            return f"{who}{playing} won on time: {loser or 'the other player'} ran out of time after {moves}."
        return f"{who}{playing} won: {loser or 'the other player'} resigned after {moves}."
    return f"{who}{playing} won with six in a row after {moves}."


def recap_heading(sheet: RecapSheet, name: str | None) -> str:
    """The recap's heading for its result (``name``: the player's name as shown)."""
    if sheet.result == "won":
        return f"You won, {name}!" if name else "You won!"
    if sheet.result == "lost":
        return f"Good game, {name}" if name else "Good game"
    if sheet.result == "draw":
        return "A draw"
    return "Game cancelled"


def recap_page(sheet: RecapSheet, *, context: SheetContext | None = None) -> str:
    """The recap as a page: the result, the final board with the winning line, the opponent, the
    table talk, hints and undos used, the record, and a link to step through the game on the
    public board page."""
    context = context or SheetContext()
    name = sheet.player_name
    heading = recap_heading(sheet, name)
    colour = sheet.your_colour
    opponent = sheet.opponent
    picture = BoardPicture(game_id=sheet.game_id, board_size=sheet.board_size, board=sheet.board,
                           move_count=sheet.move_count, last_move=None, winning_line=sheet.winning_line)
    facts: list[tuple[str, str, str]] = [
        ("moves", "Moves", str(sheet.move_count)),
        ("stones", "Stones", str(sheet.stones_placed)),
    ]
    if sheet.winning_line:
        facts.append(("winning-line", "Winning line", " ".join(sheet.winning_line)))
    facts += [("hints-used", "Hints used", str(sheet.hints_used)),
              ("undos-used", "Undos used", str(sheet.undos_used))]
    times = (("started", "Started", sheet.started_at), ("finished", "Finished", sheet.finished_at))
    for key, label, moment in times:
        if moment:
            facts.append((key, label, _when(moment)[1]))
    base = context.public_base.rstrip("/")
    board_url = context.board_url or f"{base}/games/{quote(sheet.game_id, safe='')}/board"
    kind = "computer" if opponent is not None and opponent.kind == "computer" else ""
    return _render(
        "recap.html",
        title=f"{heading}: Connect6",
        sheet=sheet,
        heading=heading,
        how=result_sentence(sheet),
        you_name=name or "You",
        you_detail=_chip_detail(colour, "you"),
        opponent_colour=_other(colour),
        opponent_name=_opponent_name(opponent),
        opponent_detail=_chip_detail(_other(colour), kind),
        board=_markup(board_svg(picture)),
        facts=facts,
        talk_received=sheet.table_talk_received,
        talk_sent=sheet.table_talk_sent,
        board_url=board_url,
        code=context.sheet_code,
    )
