"""The sheet code: names the game, seat and move number; reads back forgivingly; catches every
single wrong symbol and every swap of two neighbouring symbols."""

from __future__ import annotations

import random

import pytest

from connect6.game.sheet_code import (
    ALPHABET,
    InvalidSheetCode,
    SheetCode,
    game_tag,
    parse,
    sheet_code,
    verify,
)

CASES = [("run-42", 0, 0), ("run-42", 1, 7), ("run-42", 2, 113), ("demo", 1, 1), ("x" * 64, 2, 99_999),
         ("Sunday_club-2026", 2, 1741)]


def _symbols(code: str) -> list[str]:
    return [c for c in code if c != "-"]


def test_the_code_names_game_seat_and_move_and_reads_back() -> None:
    code = sheet_code("run-42", 1, 7)
    assert code == "J8HMZ-1-7-1"
    assert parse(code) == SheetCode(game=game_tag("run-42"), seat=1, move_number=7)
    assert str(parse(code)) == code
    assert verify(code, "run-42", 1, 7)
    assert not verify(code, "run-42", 2, 7)
    assert not verify(code, "run-42", 1, 8)
    assert not verify(code, "run-43", 1, 7)


@pytest.mark.parametrize(("game_id", "seat", "move"), CASES)
def test_short_enough_to_type_and_only_crockford_symbols(game_id: str, seat: int, move: int) -> None:
    code = sheet_code(game_id, seat, move)
    assert len(_symbols(code)) <= 12
    assert all(c in ALPHABET for c in _symbols(code))
    assert parse(code).move_number == move and parse(code).seat == seat


def test_reading_is_forgiving_about_case_separators_and_look_alikes() -> None:
    code = sheet_code("demo", 1, 7)  # 5ABN2-1-7-F
    assert parse(code.lower()) == parse(code)
    assert parse(code.replace("-", "")) == parse(code)
    assert parse(" " + code.replace("-", " ") + " ") == parse(code)
    assert parse(code.replace("1", "l")) == parse(code) == parse(code.replace("1", "I"))
    assert parse("J8HMZ-0-0-B".replace("0", "o")) == parse("J8HMZ-0-0-B")


@pytest.mark.parametrize(("game_id", "seat", "move"), CASES)
def test_every_single_wrong_symbol_is_caught(game_id: str, seat: int, move: int) -> None:
    symbols = _symbols(sheet_code(game_id, seat, move))
    for at, right in enumerate(symbols):
        for wrong in ALPHABET:
            if wrong == right:
                continue
            misread = "".join([*symbols[:at], wrong, *symbols[at + 1:]])
            with pytest.raises(InvalidSheetCode):
                parse(misread)
            assert not verify(misread, game_id, seat, move)


@pytest.mark.parametrize(("game_id", "seat", "move"), CASES)
def test_every_swap_of_neighbours_is_caught(game_id: str, seat: int, move: int) -> None:
    symbols = _symbols(sheet_code(game_id, seat, move))
    for at in range(len(symbols) - 1):
        if symbols[at] == symbols[at + 1]:
            continue
        swapped = symbols[:]
        swapped[at], swapped[at + 1] = swapped[at + 1], swapped[at]
        with pytest.raises(InvalidSheetCode):
            parse("".join(swapped))


def test_every_error_of_many_random_codes_is_caught() -> None:
    chooser = random.Random(27)
    for _ in range(200):
        game_id = "".join(chooser.choice("abcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(12))
        symbols = _symbols(sheet_code(game_id, chooser.choice((0, 1, 2)), chooser.randrange(0, 2000)))
        at = chooser.randrange(len(symbols))
        wrong = chooser.choice([c for c in ALPHABET if c != symbols[at]])
        with pytest.raises(InvalidSheetCode):
            parse("".join([*symbols[:at], wrong, *symbols[at + 1:]]))


@pytest.mark.parametrize("bad", ["", "J8HMZ", "J8HMZ-1-1", "J8HMZ-1-7-U", "J8HMZ-1-7-!", "J8HMZ-3-7-?"])
def test_what_is_not_a_code_is_refused(bad: str) -> None:
    with pytest.raises(InvalidSheetCode):
        parse(bad)
    assert not verify(bad, "run-42", 1, 7)


def test_a_checked_code_whose_seat_or_move_cannot_be_read_is_refused() -> None:
    from connect6.game.sheet_code import check_symbol

    body = f"{game_tag('run-42')}3A"  # seat 3, move "A": the check passes, the fields do not read
    with pytest.raises(InvalidSheetCode):
        parse(body + check_symbol(body))


def test_out_of_range_seat_or_move_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        sheet_code("run-42", 3, 1)
    with pytest.raises(ValueError):
        sheet_code("run-42", 1, -1)
