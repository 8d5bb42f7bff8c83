"""A timed game's clock in words (v1.2), shared by the sheet pages, the paper and the board page:
"You have until Tue 8 Dec, 14:00 UTC — 3 days 4 hours", each side's time left, and "Paused".

The deadline is the view's ``clock.deadline``; how long is left is counted from the moment of
rendering (``now``), so a sheet printed or reloaded later says what is left then. Each side's time
left is the view's own figure (counted down to the moment of the answer). Pure functions, plain
text (not escaped).
"""

from __future__ import annotations

from datetime import UTC, datetime

from connect6.game.shapes import ClockView, Colour, PlayerRef

PAUSED_LINE = "Paused by the platform: no move can be played and the clocks stand still."


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def duration(seconds: float) -> str:
    """A length of time in the two largest units: "3 days 4 hours", "2 hours 1 minute",
    "12 minutes", "less than a minute"; none left is "no time"."""
    whole = int(seconds)
    if whole <= 0:
        return "no time"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return _plural(days, "day") + (f" {_plural(hours, 'hour')}" if hours else "")
    if hours:
        return _plural(hours, "hour") + (f" {_plural(minutes, 'minute')}" if minutes else "")
    if minutes:
        return _plural(minutes, "minute")
    return "less than a minute"


def parse(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


def deadline_phrase(deadline: str, now: datetime | None = None) -> tuple[str, str]:
    """(the deadline as "Tue 8 Dec, 14:00 UTC", what is left of it at ``now``: "3 days 4 hours");
    an unreadable deadline comes back as it is, with nothing left said."""
    moment = parse(deadline)
    if moment is None:
        return deadline, ""
    now = now or datetime.now(UTC)
    when = f"{moment:%a} {moment.day} {moment:%b}, {moment:%H:%M} UTC"
    return when, duration((moment - now).total_seconds())


def until_line(who: str, deadline: str, now: datetime | None = None) -> str:
    """ "You have until Tue 8 Dec, 14:00 UTC — 3 days 4 hours" (``who`` is "You" or a name)."""
    when, left = deadline_phrase(deadline, now)
    verb = "have" if who == "You" else "has"
    return f"{who} {verb} until {when}" + (f" — {left}" if left else "")


def sides_line(clock: ClockView, black: PlayerRef | None, white: PlayerRef | None, *,
               you: Colour | None = None) -> str:
    """Each side's time left, "Time left: Black (you): 3 days 4 hours · White (Ben): 10 days",
    leaving out a side the computer plays (it has no clock); empty when neither side is timed.
    Without ``you`` the names are left out ("Black: …")."""
    parts = []
    sides = (("black", black, clock.black_seconds), ("white", white, clock.white_seconds))
    for colour, side, seconds in sides:
        if side is not None and side.kind == "computer":
            continue
        label = colour.capitalize()
        if you is not None:
            who = "you" if colour == you else (side.name if side is not None and side.name else "")
            label += f" ({who})" if who else ""
        parts.append(f"{label}: {duration(seconds)}")
    return ("Time left: " + " · ".join(parts)) if parts else ""
