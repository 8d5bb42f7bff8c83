"""Clocks, pauses, cancelled games and losses on time on the pages and the paper (v1.2, issue 29):
the move sheet (page and PDF) says until when the mover has and how long that is from the moment
of rendering, and each side's time left; the board page shows the mover's deadline and "Paused";
a cancelled game and a game lost on time render as HTML and PDF (recap, board, move sheet) and say
so, and none of them raises."""

from __future__ import annotations

import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from connect6.pages import SheetContext, board_page, move_sheet_page, recap_page, status_text
from connect6.pages.clock import deadline_phrase, duration
from connect6.pages.paper import move_sheet_pdf, recap_pdf
from tests.unit.pages.sheet_data import move_sheet, recap_sheet
from tests.unit.pages.test_html import collect, game_view
from tests.unit.pages.test_paper import assert_one_a4_page_within_letter

POPPLER = shutil.which("pdftotext")
NOW = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)  # a Saturday; the deadline is Tue 8 Dec, 14:00 UTC
CLOCK = {"deadline": "2026-12-08T14:00:00Z", "black_seconds": 273600, "white_seconds": 864000}
CONTEXT = SheetContext(sheet_code="J8HMZ-1-3-9", now=NOW)
BEN = {"name": "Ben", "kind": "human"}


def text_of(page: str) -> str:
    return " ".join(" ".join(collect(page).text).split())


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    if not POPPLER:
        pytest.skip("poppler-utils (pdftotext) is not installed")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())


# ---------------------------------------------------------------------------------------------
# The wording


@pytest.mark.parametrize(("seconds", "words"), [
    (273600, "3 days 4 hours"), (86400, "1 day"), (90000, "1 day 1 hour"), (7260, "2 hours 1 minute"),
    (3600, "1 hour"), (125, "2 minutes"), (59, "less than a minute"), (0, "no time"), (-5, "no time"),
])
def test_durations_read_in_days_hours_and_minutes(seconds, words):
    assert duration(seconds) == words


def test_the_deadline_reads_as_day_date_time_and_what_is_left():
    assert deadline_phrase("2026-12-08T14:00:00Z", NOW) == ("Tue 8 Dec, 14:00 UTC", "3 days 4 hours")
    assert deadline_phrase("2026-12-05T09:00:00Z", NOW) == ("Sat 5 Dec, 09:00 UTC", "no time")
    assert deadline_phrase("not a time", NOW) == ("not a time", "")


# ---------------------------------------------------------------------------------------------
# The move sheet


def test_move_sheet_page_says_until_when_and_each_sides_time():
    sheet = move_sheet(clock=CLOCK, opponent={"name": "Ben", "kind": "human"})
    page = move_sheet_page(sheet, context=CONTEXT)
    text = text_of(page)
    assert "You have until Tue 8 Dec, 14:00 UTC — 3 days 4 hours" in text
    assert "Black (you): 3 days 4 hours" in text and "White (Ben): 10 days" in text
    assert '<time datetime="2026-12-08T14:00:00Z"' in page
    assert 'id="move-form"' in page


def test_move_sheet_deadline_counts_from_the_moment_of_rendering():
    sheet = move_sheet(clock=CLOCK, opponent={"name": "Ben", "kind": "human"})
    later = SheetContext(now=datetime(2026, 12, 8, 12, 30, tzinfo=UTC))
    text = text_of(move_sheet_page(sheet, context=later))
    assert "You have until Tue 8 Dec, 14:00 UTC — 1 hour 30 minutes" in text


def test_move_sheet_on_the_opponents_turn_names_their_deadline():
    sheet = move_sheet(clock=CLOCK, your_turn=False, opponent={"name": "Ben", "kind": "human"})
    text = text_of(move_sheet_page(sheet, context=CONTEXT))
    assert "Ben has until Tue 8 Dec, 14:00 UTC — 3 days 4 hours" in text


def test_the_computer_has_no_clock_on_the_sheet():
    sheet = move_sheet(clock={**CLOCK, "deadline": None}, your_turn=False)
    text = text_of(move_sheet_page(sheet, context=CONTEXT))
    assert "has until" not in text and "Ben):" not in text
    assert "Black (you): 3 days 4 hours" in text


def test_a_paused_move_sheet_has_no_form_and_says_paused():
    sheet = move_sheet(clock={**CLOCK, "deadline": None}, paused=True, opponent=BEN)
    page = move_sheet_page(sheet, context=CONTEXT)
    text = text_of(page)
    assert "Paused" in text and "clocks stand still" in text
    assert 'id="move-form"' not in page and "sheet.js" not in page


def test_move_sheet_paper_says_until_when_and_each_sides_time(tmp_path):
    sheet = move_sheet(clock=CLOCK, opponent={"name": "Ben", "kind": "human"})
    pdf = move_sheet_pdf(sheet, context=CONTEXT)
    text = pdf_text(pdf, tmp_path)
    assert "You have until Tue 8 Dec, 14:00 UTC — 3 days 4 hours" in text
    assert_one_a4_page_within_letter(pdf, tmp_path)  # the two clock lines push the board, not off the page
    assert "Black (you): 3 days 4 hours" in text and "White (Ben): 10 days" in text


def test_a_paused_move_sheet_on_paper_says_paused(tmp_path):
    sheet = move_sheet(clock={**CLOCK, "deadline": None}, paused=True, opponent=BEN)
    text = pdf_text(move_sheet_pdf(sheet, context=CONTEXT), tmp_path)
    assert "paused" in text.lower() and "Stone 1" not in text


@pytest.mark.parametrize(("status", "says"), [
    ("cancelled", "The game was cancelled: it ends with no winner."),
    ("completed", "The game is over: your recap has the result."),
])
def test_a_finished_move_sheet_renders_as_page_and_paper(tmp_path, status, says):
    sheet = move_sheet(status=status, your_turn=False, stones_to_place=0,
                       clock={**CLOCK, "deadline": None})
    page = move_sheet_page(sheet, context=CONTEXT)
    assert says in text_of(page) and 'id="move-form"' not in page
    assert says in pdf_text(move_sheet_pdf(sheet, context=CONTEXT), tmp_path)


# ---------------------------------------------------------------------------------------------
# The recap


def cancelled_recap():
    return recap_sheet(status="cancelled", result="cancelled", winner=None, winning_line=[],
                       end_reason="cancelled")


def time_recap(result: str):
    return recap_sheet(result=result, winner={"colour": "white", "name": "Ben"}, winning_line=[],
                       end_reason="time")


def test_a_cancelled_recap_renders_as_page_and_paper(tmp_path):
    sheet = cancelled_recap()
    page = recap_page(sheet, context=CONTEXT)
    text = text_of(page)
    assert "Game cancelled" in text
    assert "The game was cancelled after 6 moves: no winner." in text
    assert 'data-result="cancelled"' in page
    assert not any("winner" in (attrs.get("class") or "").split() for _, attrs in collect(page).tags)
    paper = pdf_text(recap_pdf(sheet, context=CONTEXT), tmp_path)
    assert "Game cancelled" in paper and "no winner" in paper


@pytest.mark.parametrize(("result", "heading"), [("lost", "Good game, Ana"), ("won", "You won, Ana!")])
def test_a_recap_lost_on_time_says_so_as_page_and_paper(tmp_path, result, heading):
    sheet = time_recap(result)
    if result == "won":
        sheet = recap_sheet(result="won", winner={"colour": "black", "name": "Ana"}, winning_line=[],
                            end_reason="time")
    loser = "Ben" if result == "won" else "Ana"
    winner = "Ana, playing Black," if result == "won" else "Ben, playing White,"
    how = f"{winner} won on time: {loser} ran out of time after 6 moves."
    text = text_of(recap_page(sheet, context=CONTEXT))
    assert heading in text and how in text
    paper = pdf_text(recap_pdf(sheet, context=CONTEXT), tmp_path)
    assert heading in paper and "won on time" in paper


# ---------------------------------------------------------------------------------------------
# The board page


def test_the_board_page_shows_the_movers_deadline_and_time_left():
    view = game_view(clock=CLOCK, white={"name": "Ben", "kind": "human"},
                     to_move={"colour": "black", "name": "Ana", "move_number": 3, "stones_to_place": 2})
    page = board_page(view, now=NOW)
    text = text_of(page)
    assert "Ana has until Tue 8 Dec, 14:00 UTC — 3 days 4 hours" in text
    assert "Black: 3 days 4 hours" in text and "White: 10 days" in text
    assert 'data-deadline="2026-12-08T14:00:00Z" data-now="2026-12-05T10:00:00Z"' in page


def test_the_board_page_says_paused():
    view = game_view(clock={**CLOCK, "deadline": None}, paused=True)
    text = text_of(board_page(view, now=NOW))
    assert "Paused" in text
    assert status_text(view).startswith("Paused")


def test_a_cancelled_game_on_the_board_page_is_over_with_no_winner():
    view = game_view(status="cancelled", to_move=None, end_reason="cancelled", winner=None)
    page = board_page(view, now=NOW)
    text = text_of(page)
    assert "Cancelled after 1 move: no winner" in text
    assert "Game over" in text and "Live: this page updates itself" not in text


def test_a_game_lost_on_time_on_the_board_page_says_so():
    view = game_view(status="completed", to_move=None, end_reason="time",
                     winner={"colour": "white", "name": "Ben"}, clock={**CLOCK, "deadline": None})
    text = text_of(board_page(view, now=NOW))
    assert "Ben, playing White, won on time: Ana ran out of time after 1 move" in text
    assert "has until" not in text


def test_the_board_script_stops_on_a_cancelled_game_and_notices_pause_and_deadline():
    page = board_page(game_view(), now=NOW)
    poller = collect(page).scripts[1][1]
    assert "cancelled" in poller and "paused" in poller and "deadline" in poller
