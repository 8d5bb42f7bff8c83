"""Replay of records through the rules: precise refusals, and the fast summary path
agreeing with the plain one (parse, replay on a Position, json.dumps) on every record."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from connect6.records import (
    GameRecord,
    format_move_list,
    format_sgf,
    label_table,
    parse_label,
    parse_move_list,
    replay,
    summarise,
    summarise_slow,
)
from connect6.rules import Position

# Black builds a1..f1 along the bottom row; white plays harmlessly on row 19.
WIN = "1.a1 2.a19c19 3.b1c1 4.e19g19 5.d1e1 6.i19k19 7.k10f1"


@pytest.mark.parametrize(
    ("text", "turn", "stone", "label", "reason", "message"),
    [
        ("1.j10 2.t5k9", 2, 1, "t5", "off_board", "turn 2, stone 1 (t5): t5 is off the 19x19 board"),
        ("1.j10 2.k9a20", 2, 2, "a20", "off_board", "turn 2, stone 2 (a20): a20 is off the 19x19 board"),
        ("1.j10 2.k9j10", 2, 2, "j10", "occupied", "turn 2, stone 2 (j10): j10 is already taken"),
        ("1.j10 2.k9k9", 2, 2, "k9", "duplicate", "turn 2, stone 2 (k9): k9 is played twice in one turn"),
        ("1.j10k9", 1, 2, "k9", "wrong_stone_count", "turn 1, stone 2 (k9): this turn places 1 stone, not 2"),
        ("1.j10 2.k9", 2, None, None, "wrong_stone_count", "turn 2: this turn places 2 stones, not 1"),
        ("1.j10 2.k9k8 3.a1a2a3", 3, 3, "a3", "wrong_stone_count",
         "turn 3, stone 3 (a3): this turn places 2 stones, not 3"),
        (WIN + " 8.m5m6", 8, 1, "m5", "game_over",
         "turn 8, stone 1 (m5): the game was already won by black at turn 7"),
        # The first fault in stone order wins over a later one in the same turn.
        ("1.j10 2.j10z9", 2, 1, "j10", "occupied", "turn 2, stone 1 (j10): j10 is already taken"),
    ],
)
def test_first_illegal_stone_is_named(text: str, turn: int, stone: int | None, label: str | None,
                                      reason: str, message: str) -> None:
    # When the record is replayed
    result = replay(parse_move_list(text))
    # Then the error names the turn, the stone, its label and the reason
    assert not result.legal and result.error is not None
    assert (result.error.turn, result.error.stone, result.error.label, result.error.reason) == (
        turn, stone, label, reason)
    assert result.error.message == message
    # And the position is the one before the illegal turn
    assert result.position.turn_count == turn - 1


def test_a_won_game_replays_to_its_six() -> None:
    result = replay(parse_move_list(WIN))
    assert result.legal and result.six_at_turn == 7
    labels = label_table(19)
    assert [labels[p] for p in result.position.winning_line] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert result.position.stone_count == 13


def test_a_win_by_the_first_stone_of_a_pair_leaves_the_second_unplaced() -> None:
    text = WIN.replace("7.k10f1", "7.f1k10")
    result = replay(parse_move_list(text))
    assert result.legal and result.six_at_turn == 7
    assert result.position.turns[-1] == (5,)  # f1 only
    assert result.position.stone_count == 12
    out = json.loads("{" + summarise(text))
    assert (out["stones"], out["turns"], out["winner"]) == (12, 7, "black")


def test_a_record_may_list_only_the_winning_first_stone() -> None:
    # Given the last turn written with just the stone that made six (as Position.turns has it)
    text = WIN.replace("7.k10f1", "7.f1")
    # Then it is legal and the same game as with the unplaced second stone written
    assert summarise(text) == summarise(WIN.replace("7.k10f1", "7.f1k10")) == summarise_slow(text)[1:]
    assert json.loads("{" + summarise(text))["stones"] == 12
    # But a single stone that does not win is one stone short
    result = replay(parse_move_list(WIN.replace("7.k10f1", "7.k10")))
    assert result.error is not None and result.error.reason == "wrong_stone_count"
    assert result.position.turn_count == 6 and result.position.is_empty(parse_label("a10", 19) + 10)


def test_draw_on_7x7_is_reported() -> None:
    # Given a full 7x7 board with no six, played as a record
    rows = ["BWBWBWB", "BWBWBWB", "WBWBWBW", "WBWBWBW", "BWBWBWB", "BWBWBWB", "WBWBWBW"]
    black = [(6 - r) * 7 + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "B"]
    white = [(6 - r) * 7 + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "W"]
    assert len(black) == 25 and len(white) == 24  # 1 + 24 pairs
    labels = label_table(7)
    turns: list[tuple[str, ...]] = [(labels[black.pop()],)]
    while black or white:
        side = white if len(turns) % 2 else black
        turns.append((labels[side.pop()], labels[side.pop()]))
    text = format_move_list(GameRecord(tuple(turns), 7))
    out = json.loads("{" + summarise(text, 7))
    assert out["legal"] and out["draw"] and out["winner"] is None and out["stones"] == 49
    assert summarise(text, 7) == summarise_slow(text, 7)[1:]


def test_summary_fields() -> None:
    out = json.loads("{" + summarise(WIN))
    assert out == {"legal": True, "error": None, "turns": 7, "stones": 13, "winner": "black",
                   "six_at_turn": 7, "winning_line": ["a1", "b1", "c1", "d1", "e1", "f1"],
                   "draw": False, "error_at": None}
    out = json.loads("{" + summarise("1.j10 2.k9k9"))
    assert out["legal"] is False and out["error_at"] == {"turn": 2, "stone": 2, "label": "k9",
                                                         "reason": "duplicate"}
    out = json.loads("{" + summarise("(;FF[4];B[j10"))
    assert out["legal"] is False and out["error"].startswith("unreadable record: ")


# ------------------------------------------------------------ fast == plain
def random_game(rng: random.Random, size: int) -> list[tuple[int, ...]]:
    """A legal game, often ending in a six (stones cluster around the mover's own)."""
    position = Position(size)
    limit = rng.randrange(1, 80)
    while not position.is_over and position.turn_count < limit:
        need = position.stones_to_place
        own = [p for p, v in enumerate(position.cells) if v == position.turn_count % 2]
        chosen: list[int] = []
        while len(chosen) < need:
            point = rng.randrange(size * size)
            if own and rng.random() < 0.8:
                base = rng.choice(own)
                step = rng.choice([1, size, size + 1, size - 1, -1, -size])
                point = base + step if 0 <= base + step < size * size else point
            if position.is_empty(point) and point not in chosen:
                chosen.append(point)
        position.play(chosen)
    return position.turns


def mutate(rng: random.Random, turns: list[list[str]], size: int) -> None:
    """Damage a record the ways real files go wrong."""
    labels = label_table(size)
    kind = rng.randrange(8)
    if not turns:
        return
    t = rng.randrange(len(turns))
    if kind == 0:
        turns[t].append(rng.choice(labels))  # too many stones
    elif kind == 1 and turns[t]:
        turns[t].pop()  # too few
    elif kind == 2:
        turns[t][0] = rng.choice([labels[0], labels[-1], "z99", "t1", "a0"])  # off board, maybe taken
    elif kind == 3:
        turns.append([rng.choice(labels), rng.choice(labels)])  # a turn after the end
    elif kind == 4 and len(turns) > 1:
        turns[t][-1] = turns[rng.randrange(len(turns))][0]  # repeat a point
    elif kind == 5:
        del turns[t]  # colours shift
    elif kind == 6:
        turns[t] = [label.upper() for label in turns[t]]


def render(rng: random.Random, turns: list[list[str]], size: int) -> str:
    record = GameRecord(tuple(tuple(t) for t in turns), size, {"EV": "connect6.ch.1", "PB": "Ana"})
    style = rng.randrange(4)
    if style == 0:
        return format_sgf(record)
    if style == 1:
        return format_move_list(record)
    if style == 2:
        return " " + format_move_list(record).replace(" ", "  ") + "\n"
    return format_sgf(record).replace(";W", "\n;W")


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.sampled_from([6, 7, 9, 15, 19, 19, 19, 30]),
       damaged=st.booleans())
def test_fast_summary_agrees_with_the_plain_replay(seed: int, size: int, damaged: bool) -> None:
    rng = random.Random(seed)
    labels = label_table(size)
    turns = [[labels[p] for p in turn] for turn in random_game(rng, size)]
    if damaged:
        mutate(rng, turns, size)
    text = render(rng, turns, size)
    # (SGF says SZ itself when the board is not 19x19, whatever the default size is)
    default = rng.choice([size, 19]) if text.lstrip().startswith("(") else size
    # When both paths summarise the record, they write the same JSON
    fast = summarise(text, default)
    assert fast == summarise_slow(text, default)[1:]
    json.loads("{" + fast)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("();[]BWFZSabjkst0123456789. \\\n"), max_size=60))
def test_any_text_gets_a_summary_never_an_exception(text: str) -> None:
    out = json.loads("{" + summarise(text))
    assert out["legal"] in (True, False)
    assert summarise(text) == summarise_slow(text)[1:]
