"""The ``connect6`` command line.

``connect6 replay [FILE|-] [--size N]``
    One record per line (Little Golem SGF or move list) → one JSON line per record::

        {"index": 0, "legal": true, "error": null, "turns": 23, "stones": 45,
         "winner": "black", "six_at_turn": 23, "winning_line": ["d8", ...],
         "draw": false, "error_at": null}

    ``index`` is the 0-based input line number. Blank lines are skipped (no output) but
    still counted, so ``index`` always points at the input line. Records that do not parse
    or are illegal get ``"legal": false`` and an ``error`` sentence; ``error_at`` then says
    where (turn, stone, label, reason) when a stone is at fault. Exit status 0 once every line
    was read, 2 when the input cannot be read.

``connect6 show RECORD [--size N]``
    The final position as text with labelled axes. ``RECORD`` is the record itself, ``-``
    for standard input, or the path of a file holding it.

``connect6 engine …``
    The text-protocol engine (``connect6.ai.protocol``); every argument after ``engine``
    is passed on unchanged.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from connect6.records import LG_SIZE, RecordError, label_table, parse_record, replay, summarise
from connect6.records.labels import column_letters
from connect6.rules import MAX_SIZE, MIN_SIZE, Position

CHUNK_LINES = 4096


def board_size(text: str) -> int:
    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"board size must be from {MIN_SIZE} to {MAX_SIZE}")
    return size


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="connect6", description="Connect6 records and rules.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    rep = commands.add_parser("replay", help="replay records, one per line, and report each as JSON")
    rep.add_argument("file", nargs="?", default="-", help="file of records, one per line ('-': stdin)")
    rep.add_argument("--size", type=board_size, default=LG_SIZE,
                     help=f"board size for records that do not give one (default {LG_SIZE})")

    show = commands.add_parser("show", help="print a record's final position")
    show.add_argument("record", help="the record text, '-' for stdin, or a file holding it")
    show.add_argument("--size", type=board_size, default=LG_SIZE,
                      help=f"board size for records that do not give one (default {LG_SIZE})")

    commands.add_parser("engine", help="run the text-protocol engine (arguments are passed on)",
                        add_help=False)
    return parser


def replay_lines(lines: Iterable[str], size: int, out: TextIO) -> int:
    """Write one JSON line per non-blank input line; return how many records were read."""
    chunk: list[str] = []
    count = 0
    for index, line in enumerate(lines):
        if not line or line.isspace():
            continue
        chunk.append(f'{{"index": {index}, {summarise(line, size)}\n')
        count += 1
        if len(chunk) >= CHUNK_LINES:
            out.write("".join(chunk))
            chunk.clear()
    out.write("".join(chunk))
    return count


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            replay_lines(sys.stdin, args.size, sys.stdout)
        else:
            with open(args.file, encoding="utf-8", errors="replace") as handle:
                replay_lines(handle, args.size, sys.stdout)
    except OSError as exc:
        print(f"connect6 replay: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    return 0


def render(position: Position) -> list[str]:
    """The board as text: row numbers on both sides, column letters above and below."""
    size = position.size
    letters = [column_letters(c) for c in range(size)]
    width = max(len(s) for s in letters)
    number_width = len(str(size))
    marks = {".": ".", "B": "X", "W": "O"}
    header = " " * (number_width + 1) + " ".join(s.rjust(width) for s in letters)
    rows = [header]
    for offset, row in enumerate(position.board_rows()):
        number = str(size - offset).rjust(number_width)
        cells = " ".join(marks[ch].rjust(width) for ch in row)
        rows.append(f"{number} {cells} {number}")
    rows.append(header)
    return rows


def read_record_argument(value: str) -> str:
    if value == "-":
        return sys.stdin.read()
    if os.path.isfile(value):
        with open(value, encoding="utf-8") as handle:
            return next((line for line in handle if line.strip()), "")
    return value


def cmd_show(args: argparse.Namespace) -> int:
    try:
        text = read_record_argument(args.record)
    except OSError as exc:
        print(f"connect6 show: cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    try:
        record = parse_record(text, args.size)
    except RecordError as exc:
        print(f"connect6 show: unreadable record: {exc}", file=sys.stderr)
        return 1
    result = replay(record)
    position = result.position
    labels = label_table(position.size)
    lines = render(position)
    lines.append("X black, O white")
    if position.winner is not None:
        line = " ".join(labels[p] for p in position.winning_line)
        lines.append(f"{position.winner.value} won at turn {result.six_at_turn}: {line}")
    elif position.draw:
        lines.append(f"draw: the board is full after turn {position.turn_count}")
    else:
        lines.append(f"after turn {position.turn_count}: {position.to_move.value} to play "
                     f"{position.stones_to_place} stone{'s' if position.stones_to_place != 1 else ''}")
    print("\n".join(lines))
    if result.error is not None:
        print(f"connect6 show: illegal record: {result.error.message}", file=sys.stderr)
        return 1
    return 0


def cmd_engine(argv: Sequence[str]) -> int:
    try:
        protocol = importlib.import_module("connect6.ai.protocol")
    except ImportError as exc:
        print(f"connect6 engine: the engine is not available ({exc})", file=sys.stderr)
        return 2
    result = protocol.main(list(argv))
    return int(result or 0)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["engine"]:
        return cmd_engine(args_list[1:])
    args = build_parser().parse_args(args_list)
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "show":
        return cmd_show(args)
    raise AssertionError(f"unhandled command {args.command}")  # argparse refuses others


if __name__ == "__main__":
    raise SystemExit(main())
