"""Notation: point labels, Little Golem move lists and SGF, replay through the rules."""

from connect6.records.labels import (
    RecordError,
    label_table,
    parse_label,
    point_label,
    point_table,
    split_labels,
)
from connect6.records.record import (
    LG_SIZE,
    GameRecord,
    format_move_list,
    format_sgf,
    parse_move_list,
    parse_record,
    parse_sgf,
)
from connect6.records.replayer import Replay, ReplayError, replay, summarise, summarise_slow, summary

__all__ = [
    "LG_SIZE",
    "GameRecord",
    "RecordError",
    "Replay",
    "ReplayError",
    "format_move_list",
    "format_sgf",
    "label_table",
    "parse_label",
    "parse_move_list",
    "parse_record",
    "parse_sgf",
    "point_label",
    "point_table",
    "replay",
    "split_labels",
    "summarise",
    "summarise_slow",
    "summary",
]
