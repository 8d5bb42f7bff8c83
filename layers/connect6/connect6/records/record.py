"""Game records: what a game's moves were, in Little Golem notation, independent of the rules.

A :class:`GameRecord` holds each turn's point labels as written (lowercased), the board size
and any SGF root properties. Labels are kept as text, not points, so that a record naming a
point off the board can still be read and then refused precisely by :func:`replay`.

>>> record = parse_move_list("1.j10 2.i10j9 3.i9k8")
>>> record.turns
(('j10',), ('i10', 'j9'), ('i9', 'k8'))
>>> format_sgf(record)
'(;FF[4];B[j10];W[i10j9];B[i9k8])'
>>> parse_sgf(format_sgf(record)).turns == record.turns
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from connect6.records.labels import RecordError
from connect6.rules import MAX_SIZE, MIN_SIZE

#: Little Golem's Connect6 boards are 19×19; records that do not say otherwise are read so.
LG_SIZE = 19

_LABEL = r"[A-Za-z]{1,2}\d{1,2}"
_LABEL_RE = re.compile(_LABEL)
_LABELS_RE = re.compile(f"(?:{_LABEL})+")


@dataclass(frozen=True)
class GameRecord:
    """The turns of one game: ``turns[0]`` is Black's opening, then White's pair, and so on."""

    turns: tuple[tuple[str, ...], ...]
    size: int = LG_SIZE
    properties: dict[str, str] = field(default_factory=dict, compare=True, hash=False)

    @property
    def stone_count(self) -> int:
        return sum(len(turn) for turn in self.turns)


def split_turn(text: str, where: str) -> tuple[str, ...]:
    """``"K9j12"`` → ``("k9", "j12")``; ``where`` names the turn in the error message."""
    if not _LABELS_RE.fullmatch(text):
        raise RecordError(f"{where}: {text!r} is not a run of point labels like k9j12")
    return tuple(label.lower() for label in _LABEL_RE.findall(text))


# ----------------------------------------------------------------- move lists
_MOVE_RE = re.compile(r"\s*(\d{1,6})\s*\.\s*([A-Za-z0-9]*)")


def parse_move_list(text: str, size: int = LG_SIZE) -> GameRecord:
    """Read a Little Golem move list: ``1.j10 2.i10j9 3.i9k8`` (turn number, dot, the turn's
    stones run together). Whitespace around numbers and dots is allowed; the numbers must
    run 1, 2, 3, … Raises :class:`RecordError` on anything else."""
    turns: list[tuple[str, ...]] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _MOVE_RE.match(stripped, pos)
        if not match:
            snippet = stripped[pos:].strip()[:20]
            if not turns:
                raise RecordError(f"{snippet!r} is not a move list like 1.j10 2.k9j12")
            raise RecordError(f"after move {len(turns)}: {snippet!r} is not a move like 2.k9j12")
        number = int(match.group(1))
        if number != len(turns) + 1:
            raise RecordError(f"move {len(turns) + 1} is numbered {number}")
        if not match.group(2):
            raise RecordError(f"move {number} has no stones")
        turns.append(split_turn(match.group(2), f"move {number}"))
        pos = match.end()
        if pos < len(stripped) and not stripped[pos].isspace():
            raise RecordError(f"move {number} is followed by {stripped[pos:pos + 10]!r}")
    return GameRecord(tuple(turns), size)


def format_move_list(record: GameRecord) -> str:
    """The record as a Little Golem move list, lowercase: ``1.j10 2.i10j9``."""
    return " ".join(f"{number}.{''.join(turn)}" for number, turn in enumerate(record.turns, 1))


# ----------------------------------------------------------------------- SGF
_SGF_TOKEN_RE = re.compile(
    r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)"
    r"|(?P<ident>[A-Za-z]+)(?P<values>(?:\s*\[(?:[^\]\\]|\\.)*\])+))",
    re.DOTALL,
)
_SGF_VALUE_RE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_SGF_ESCAPE_RE = re.compile(r"\\(\n\r?|\r\n?|.)", re.DOTALL)


def _unescape(value: str) -> str:
    # A backslash before a line break is a soft break (removed); before anything else it
    # escapes that character.
    return _SGF_ESCAPE_RE.sub(lambda m: "" if m.group(1)[0] in "\r\n" else m.group(1), value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def parse_sgf(text: str, size: int = LG_SIZE) -> GameRecord:
    """Read Little Golem's Connect6 SGF: one game tree, a root node of properties, then one
    node per turn with the turn's stones run together (``;B[j10];W[k9j12]``).

    Colours must alternate from Black. ``SZ`` in the root sets the board size (square boards
    only) and is kept as :attr:`GameRecord.size`; without it ``size`` is used. Other root
    properties are kept in :attr:`GameRecord.properties` (first value of each); properties
    on move nodes other than ``B``/``W`` (comments, times) are ignored. Variations are
    refused.
    """
    nodes: list[dict[str, list[str]]] = []
    depth = 0
    seen_tree = False
    pos = 0
    stripped = text.strip()
    while pos < len(stripped):
        match = _SGF_TOKEN_RE.match(stripped, pos)
        if not match:
            raise RecordError(f"not SGF near {stripped[pos:pos + 20]!r}")
        pos = match.end()
        if match.group("open"):
            if seen_tree:
                raise RecordError("SGF variations or several games in one record are not supported")
            depth += 1
            seen_tree = True
        elif match.group("close"):
            depth -= 1
            if depth < 0:
                raise RecordError("SGF has an unmatched ')'")
        elif match.group("node"):
            if depth != 1:
                raise RecordError("SGF node outside the game tree")
            nodes.append({})
        else:
            if not nodes:
                raise RecordError("SGF property before the first node")
            ident = match.group("ident").upper()
            values = [_unescape(v) for v in _SGF_VALUE_RE.findall(match.group("values"))]
            nodes[-1].setdefault(ident, []).extend(values)
    if not seen_tree or depth != 0:
        raise RecordError("SGF must be one game tree: (;...)")
    if not nodes:
        raise RecordError("SGF has no nodes")

    properties = {key: values[0] for key, values in nodes[0].items() if key not in ("B", "W", "SZ")}
    if "SZ" in nodes[0]:
        size = _sgf_size(nodes[0]["SZ"][0])
    turns: list[tuple[str, ...]] = []
    for node in nodes:
        colours = [c for c in ("B", "W") if c in node]
        if not colours:
            continue
        number = len(turns) + 1
        if len(colours) == 2 or len(node[colours[0]]) != 1:
            raise RecordError(f"turn {number}: one SGF node holds more than one move")
        expected = "B" if number % 2 else "W"
        if colours[0] != expected:
            side = "black" if expected == "B" else "white"
            raise RecordError(f"turn {number} is marked {colours[0]} but it is {side}'s turn")
        turns.append(split_turn(node[colours[0]][0].strip(), f"turn {number}"))
    return GameRecord(tuple(turns), size, properties)


def _sgf_size(value: str) -> int:
    text = value.strip()
    if ":" in text:
        cols, _, rows = text.partition(":")
        if cols.strip() != rows.strip():
            raise RecordError(f"SZ[{value}]: only square boards are supported")
        text = cols.strip()
    if not text.isdigit() or not MIN_SIZE <= int(text) <= MAX_SIZE:
        raise RecordError(f"SZ[{value}]: the board size must be from {MIN_SIZE} to {MAX_SIZE}")
    return int(text)


def format_sgf(record: GameRecord) -> str:
    """The record as Little Golem SGF. ``FF[4]`` comes first, then ``SZ`` when the board is
    not 19×19, then the other root properties in their order."""
    properties = {"FF": record.properties.get("FF", "4")}
    if record.size != LG_SIZE:
        properties["SZ"] = str(record.size)
    properties.update((k, v) for k, v in record.properties.items() if k != "SZ")
    root = "".join(f"{key}[{_escape(value)}]" for key, value in properties.items())
    colours = "BW"
    moves = "".join(f";{colours[i & 1]}[{''.join(turn)}]" for i, turn in enumerate(record.turns))
    return f"(;{root}{moves})"


# ------------------------------------------------------------------ any record
def parse_record(text: str, size: int = LG_SIZE) -> GameRecord:
    """Read a record in either notation: SGF when it starts with ``(``, else a move list."""
    stripped = text.strip()
    if stripped.startswith("("):
        return parse_sgf(stripped, size)
    return parse_move_list(stripped, size)
