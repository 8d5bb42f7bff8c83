"""Little Golem move lists and SGF: reading, writing, round trips, refusals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from connect6.records import (
    GameRecord,
    RecordError,
    format_move_list,
    format_sgf,
    label_table,
    parse_move_list,
    parse_record,
    parse_sgf,
)

ISSUE_SGF = "(;FF[4]EV[connect6.ch.29.2.1]PB[Ana]PW[Ben]SO[...];B[j10];W[k9j12];B[k12l10])"


def test_move_list_from_the_issue() -> None:
    record = parse_move_list("1.j10 2.i10j9 3.i9k8")
    assert record.turns == (("j10",), ("i10", "j9"), ("i9", "k8"))
    assert record.size == 19 and record.stone_count == 5


def test_move_list_is_read_in_any_case_and_spacing() -> None:
    record = parse_move_list("  1. J10\n2 .I10j9   3.i9K8 ", size=15)
    assert record.turns == (("j10",), ("i10", "j9"), ("i9", "k8"))
    assert record.size == 15


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1.j10 3.i10j9", "move 2 is numbered 3"),
        ("2.j10", "move 1 is numbered 2"),
        ("1.j10 2.", "move 2 has no stones"),
        ("1.j10 2.i10-j9", "followed by"),
        ("1.j10 2.10j9", "not a run of point labels"),
        ("j10 i10j9", "not a move list"),
        ("1.j10 hello", "after move 1"),
        ("1.j10 2.abc1d2", "not a run of point labels"),
    ],
)
def test_move_list_refusals_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        parse_move_list(text)


def test_sgf_from_the_issue() -> None:
    record = parse_sgf(ISSUE_SGF)
    assert record.turns == (("j10",), ("k9", "j12"), ("k12", "l10"))
    assert record.properties == {"FF": "4", "EV": "connect6.ch.29.2.1", "PB": "Ana", "PW": "Ben",
                                 "SO": "..."}
    assert record.size == 19
    # Written back exactly as Little Golem writes it
    assert format_sgf(record) == ISSUE_SGF


def test_sgf_size_escapes_whitespace_and_extra_properties() -> None:
    text = "(\n;FF[4]SZ[15]GN[a \\] b\\\\ c]C[two\\\nlines]\n;B[H8]C[nice]\n;W[i9J10]BL[12])"
    record = parse_sgf(text)
    assert record.size == 15
    assert record.properties["GN"] == "a ] b\\ c"
    assert record.properties["C"] == "twolines"
    assert record.turns == (("h8",), ("i9", "j10"))
    assert parse_sgf(format_sgf(record)) == record


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;FF[4];W[j10])", "turn 1 is marked W but it is black's turn"),
        ("(;FF[4];B[j10];B[k9k10])", "turn 2 is marked B"),
        ("(;FF[4];B[j10]W[k9k10])", "more than one move"),
        ("(;FF[4];B[j10](;W[k9k10]))", "variations"),
        ("(;FF[4];B[j10]", "one game tree"),
        ("(;FF[4];B[j10]))", "unmatched"),
        ("(;SZ[19:15];B[a1])", "square"),
        ("(;SZ[5];B[a1])", "from 6 to 59"),
        ("(;FF[4];B[j 10])", "not a run of point labels"),
        ("(;FF[4];B[j10", "not SGF"),
        ("()", "no nodes"),
        ("FF[4]", "not a move list"),
    ],
)
def test_sgf_refusals_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        parse_record(text)


def test_parse_record_tells_the_formats_apart() -> None:
    assert parse_record(" " + ISSUE_SGF + "\n").turns == parse_record("1.j10 2.k9j12 3.k12l10").turns
    assert parse_record("").turns == ()


def test_writers() -> None:
    record = GameRecord((("h8",), ("i9", "j10")), size=15)
    assert format_move_list(record) == "1.h8 2.i9j10"
    assert format_sgf(record) == "(;FF[4]SZ[15];B[h8];W[i9j10])"
    assert format_sgf(GameRecord((), 19)) == "(;FF[4])"


# ------------------------------------------------------------------ round trips
@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    size = draw(st.sampled_from([6, 15, 19, 26, 27, 59]))
    labels = label_table(size)
    label = st.sampled_from(labels)
    count = draw(st.integers(0, 30))
    turns = [tuple(draw(st.lists(label, min_size=1, max_size=3))) for _ in range(count)]
    text = st.text(st.characters(blacklist_categories=["Cs"]), max_size=12)
    keys = draw(st.lists(st.sampled_from(["EV", "PB", "PW", "SO", "GN", "C", "DT"]), unique=True))
    properties = {"FF": "4"} | {key: draw(text) for key in keys}
    return GameRecord(tuple(turns), size, properties)


@settings(max_examples=200, deadline=None)
@given(records())
def test_sgf_round_trip(record: GameRecord) -> None:
    # Soft line breaks (backslash-newline) are the only thing SGF may not give back.
    assert parse_sgf(format_sgf(record)) == record


@settings(max_examples=200, deadline=None)
@given(records())
def test_move_list_round_trip(record: GameRecord) -> None:
    text = format_move_list(record)
    assert parse_move_list(text, record.size) == GameRecord(record.turns, record.size)
    assert format_move_list(parse_move_list(text.upper(), record.size)) == text


@settings(max_examples=100, deadline=None)
@given(records())
def test_the_two_notations_carry_the_same_turns(record: GameRecord) -> None:
    via_sgf = parse_record(format_sgf(record), record.size)
    via_list = parse_record(format_move_list(record), record.size)
    assert via_sgf.turns == via_list.turns == record.turns
