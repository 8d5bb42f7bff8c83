"""Notation: point labels, Little Golem move lists and SGF, replay through the rules."""

from connect6.records.labels import (
    RecordError,
    label_table,
    parse_label,
    point_label,
    point_table,
    split_labels,
)

__all__ = ["RecordError", "label_table", "parse_label", "point_label", "point_table", "split_labels"]
