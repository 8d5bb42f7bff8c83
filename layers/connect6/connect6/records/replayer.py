"""Replay of records through the rules, and the one-line JSON summary ``connect6 replay``
writes.

:func:`replay` plays a :class:`~connect6.records.record.GameRecord` turn by turn on a
:class:`~connect6.rules.Position` and stops at the first illegal stone, naming its turn,
its place in the turn, its label and the reason.

:func:`summarise` turns one line of text (SGF or move list) into that JSON summary. It
has a fast path for well-formed records: one regular expression checks the record's shape
(turn numbers or colours, one stone then pairs), ``point_table`` maps labels to points,
a set finds any point used twice, and the six test runs on whole-game bitboards. Stones
are never removed, so if neither colour has six at the end, nobody had one earlier; if the
last mover has six and had none before the last turn, the game ended on that turn. Every
record the fast path is not certain about (an odd shape, an unknown label, a repeated
point, a six before the last turn, a single-stone last turn that makes no six) goes
through :func:`replay`, which gives the precise verdict. The two paths are tested to agree.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from connect6.records.labels import RecordError, label_table, point_table
from connect6.records.record import LG_SIZE, GameRecord, parse_record
from connect6.rules import (
    MAX_SIZE,
    MIN_SIZE,
    IllegalMove,
    IllegalReason,
    Position,
    TurnResult,
    geometry,
    has_six,
    line_through,
)


@dataclass(frozen=True, slots=True)
class ReplayError:
    """Where and why a record stops being legal. ``stone`` is 1-based within the turn
    (None when the turn as a whole is wrong); ``reason`` is an :class:`IllegalReason` value."""

    turn: int
    stone: int | None
    label: str | None
    reason: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "stone": self.stone, "label": self.label, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Replay:
    """The position a record reaches (up to, not including, its first illegal turn)."""

    record: GameRecord
    position: Position
    error: ReplayError | None
    six_at_turn: int | None

    @property
    def legal(self) -> bool:
        return self.error is None


def replay(record: GameRecord) -> Replay:
    """Play ``record`` through the rules; stop at the first illegal stone.

    A turn may list only its first stone when that stone makes six (the second is never
    placed, so records written from :attr:`Position.turns` replay); a pair whose first stone
    wins is accepted too, its second stone not placed, as :meth:`Position.play` does.

    >>> from connect6.records.record import parse_move_list
    >>> result = replay(parse_move_list("1.j10 2.j10k9"))
    >>> result.legal, result.error.message
    (False, 'turn 2, stone 1 (j10): j10 is already taken')
    """
    size = record.size
    position = Position(size)
    table = point_table(size)
    six_at: int | None = None
    for number, labels in enumerate(record.turns, 1):
        # Off-board labels become -1 so that the rules report faults in stone order.
        stones = [table.get(label, -1) for label in labels]
        try:
            result = position.play(stones)
        except IllegalMove as exc:
            short_win = None
            if exc.reason is IllegalReason.WRONG_STONE_COUNT and len(stones) == 1:
                short_win = _play_winning_single(position, stones[0])
            if short_win is None:
                return Replay(record, position, _explain(exc, number, labels, position, six_at), six_at)
            result = short_win
        if result.winner is not None:
            six_at = number
    return Replay(record, position, None, six_at)


def _play_winning_single(position: Position, point: int) -> TurnResult | None:
    """Play ``point`` alone if it makes six (as the first stone of a pair would); else
    leave the position unchanged and return None."""
    if position.stones_to_place != 2:
        return None
    filler = next(p for p in range(position.size ** 2) if p != point and position.is_empty(p))
    result = position.play([point, filler])
    if len(result.placed) == 1:
        return result
    position.undo()
    return None


def _explain(exc: IllegalMove, number: int, labels: tuple[str, ...], position: Position,
             six_at: int | None) -> ReplayError:
    reason = exc.reason
    index = exc.stone_index
    size = position.size
    if reason is IllegalReason.GAME_OVER:
        index = 0 if labels else None
        if position.winner is not None:
            why = f"the game was already won by {position.winner.value} at turn {six_at}"
        else:
            why = "the game had already ended in a draw"
    elif reason is IllegalReason.WRONG_STONE_COUNT:
        need = position.stones_to_place
        stones = "stone" if need == 1 else "stones"
        why = f"this turn places {need} {stones}, not {len(labels)}"
        index = need if len(labels) > need else None
    elif index is None:  # not raised by Position; kept for completeness
        why = exc.message
    else:
        label = labels[index]
        if reason is IllegalReason.OFF_BOARD:
            why = f"{label} is off the {size}x{size} board"
        elif reason is IllegalReason.OCCUPIED:
            why = f"{label} is already taken"
        else:
            why = f"{label} is played twice in one turn"
    if index is None:
        return ReplayError(number, None, None, reason.value, f"turn {number}: {why}")
    label = labels[index]
    return ReplayError(number, index + 1, label, reason.value,
                       f"turn {number}, stone {index + 1} ({label}): {why}")


# ------------------------------------------------------------------- summaries
def summary(result: Replay) -> dict[str, Any]:
    """The replay as the JSON object ``connect6 replay`` writes (without ``index``)."""
    position = result.position
    labels = label_table(position.size)
    error = result.error
    return {
        "legal": error is None,
        "error": None if error is None else error.message,
        "turns": position.turn_count,
        "stones": position.stone_count,
        "winner": None if position.winner is None else position.winner.value,
        "six_at_turn": result.six_at_turn,
        "winning_line": [labels[p] for p in position.winning_line],
        "draw": position.draw,
        "error_at": None if error is None else error.as_dict(),
    }


def unreadable_summary(message: str) -> dict[str, Any]:
    return {"legal": False, "error": message, "turns": 0, "stones": 0, "winner": None,
            "six_at_turn": None, "winning_line": [], "draw": False, "error_at": None}


def summarise_slow(text: str, size: int = LG_SIZE) -> str:
    """:func:`summarise` without the fast path: parse, replay, ``json.dumps``."""
    try:
        record = parse_record(text, size)
    except RecordError as exc:
        return json.dumps(unreadable_summary(f"unreadable record: {exc}"))
    return json.dumps(summary(replay(record)))


class _Fast:
    """Per-size tables for the fast path."""

    __slots__ = ("area", "bit", "label_bit", "labels", "move_list_re", "sgf_re", "size", "stride",
                 "table")

    def __init__(self, size: int) -> None:
        geo = geometry(size)
        self.size = size
        self.area = geo.area
        self.stride = geo.stride
        self.bit = geo.bit
        self.table = point_table(size)
        self.labels = label_table(size)
        self.label_bit = {label: geo.bit[point] for label, point in self.table.items()}
        lab = r"[a-z]{1,2}\d{1,2}"
        # A whole LG SGF record with plain root values and full turns, colours alternating.
        self.sgf_re = re.compile(
            r"\(;((?:(?:[A-Z]{2}|[AC-VX-Z])\[[^\]\\]*\])*)"
            rf"(;B\[{lab}\](?:;W\[{lab}{lab}\];B\[{lab}{lab}\])*"
            rf"(?:;W\[{lab}(?:{lab})?\]|;W\[{lab}{lab}\];B\[{lab}\])?)?\)"
        )
        # Every turn but the opening is a pair, except perhaps the last (a single winning stone).
        self.move_list_re = re.compile(rf"1\.{lab}(?: \d+\.{lab}{lab})*(?: \d+\.{lab})?")


_FAST: dict[int, _Fast] = {}
_LABEL_FIND = re.compile(r"[a-z]{1,2}\d{1,2}").findall
_NUMBER_FIND = re.compile(r"(\d+)\.").findall
_SZ_SEARCH = re.compile(r"(?:^|\])SZ\[(\d{1,2})\]").search
_NUMBERS = [str(n) for n in range(1, 2000)]


def summarise(text: str, size: int = LG_SIZE) -> str:
    """One record (SGF or move list) → the JSON summary text, without ``index``:
    ``"legal": true, "error": null, "turns": 23, …}`` (the caller writes ``{"index": N, ``).

    Equivalent to :func:`summarise_slow`, but fast for well-formed records.
    """
    fast = _FAST.get(size)
    if fast is None:
        fast = _FAST[size] = _Fast(size)
    text = text.strip()
    if text[:1] == "(":
        match = fast.sgf_re.fullmatch(text)
        if match is None:
            return _slow_body(text, size)
        if "SZ[" in match.group(1):
            given = _SZ_SEARCH(match.group(1))
            if given is None or not MIN_SIZE <= int(given.group(1)) <= MAX_SIZE:
                return _slow_body(text, size)
            size = int(given.group(1))
            fast = _FAST.get(size)
            if fast is None:
                fast = _FAST[size] = _Fast(size)
        moves = match.group(2) or ""
    else:
        if fast.move_list_re.fullmatch(text) is None:
            return _slow_body(text, size)
        numbers = _NUMBER_FIND(text)
        if numbers != _NUMBERS[: len(numbers)]:
            return _slow_body(text, size)
        moves = text
    labels = _LABEL_FIND(moves)
    count = len(labels)
    if len(set(labels)) != count:
        return _slow_body(text, size)  # a point used twice
    # The shape guarantees full turns except perhaps the last: an even count means the
    # last turn (not the opening) holds a single stone.
    short = count > 1 and not count & 1
    turns = (count >> 1) + 1 if short else (count + 1) >> 1
    # Stones go B, WW, BB, WW…: black's are the 1st of every four and the 4th, white's the
    # 2nd and 3rd. Distinct points, so summing their bits is or-ing them.
    label_bit = fast.label_bit.__getitem__
    try:
        black = sum(map(label_bit, labels[0::4])) + sum(map(label_bit, labels[3::4]))
        white = sum(map(label_bit, labels[1::4])) + sum(map(label_bit, labels[2::4]))
    except KeyError:
        return _slow_body(text, size)  # a label off this board
    stride = fast.stride
    black_six = has_six(black, stride)
    white_six = has_six(white, stride)
    if not black_six and not white_six:
        if short:
            return _slow_body(text, size)  # one stone where two are due, and no six
        draw = "true" if count == fast.area else "false"
        return (f'"legal": true, "error": null, "turns": {turns}, "stones": {count}, "winner": null, '
                f'"six_at_turn": null, "winning_line": [], "draw": {draw}, "error_at": null}}')
    last_black = turns & 1  # turn 1, 3, 5… is Black's
    if (white_six if last_black else black_six) or turns < 2:
        return _slow_body(text, size)  # the side that did not move last has six: illegal
    mine = black if last_black else white
    table = fast.table
    table_bit = fast.bit
    last = table[labels[-1]]
    if short:
        if has_six(mine - table_bit[last], stride):
            return _slow_body(text, size)  # six before the last turn: illegal
        line = line_through(mine, last, fast.size)
    else:
        first = table[labels[-2]]
        without_second = mine - table_bit[last]
        if has_six(without_second - table_bit[first], stride):
            return _slow_body(text, size)  # six before the last turn: illegal
        if has_six(without_second, stride):
            # The first stone of the pair won; the second is never placed.
            line = line_through(without_second, first, fast.size)
            count -= 1
        else:
            line = line_through(mine, last, fast.size)
    names = fast.labels
    line_text = ", ".join([f'"{names[p]}"' for p in line])
    winner = "black" if last_black else "white"
    return (f'"legal": true, "error": null, "turns": {turns}, "stones": {count}, "winner": "{winner}", '
            f'"six_at_turn": {turns}, "winning_line": [{line_text}], "draw": false, "error_at": null}}')


def _slow_body(text: str, size: int) -> str:
    return summarise_slow(text, size)[1:]

