"""The turn sheets on paper: one A4 page each whose text reads back (Debian's ``pdftotext``) and
whose picture (``pdftoppm``) has the board and the boxes drawn, within what Letter prints too;
names in scripts the font lacks are printed in Latin letters and the sheet says so."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from connect6.pages import SheetContext
from connect6.pages.paper import join_sheet_pdf, move_sheet_pdf, printable, recap_pdf
from tests.unit.pages.sheet_data import PHRASES, first_move_sheet, join_sheet, move_sheet, recap_sheet

POPPLER = shutil.which("pdftotext") and shutil.which("pdftoppm") and shutil.which("pdfinfo")
pytestmark = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftotext, pdftoppm, pdfinfo) is not "
                                "installed: apt-get install -y poppler-utils")

CODE = "R42-S1-M3-K"
DPI = 50
MM = DPI / 25.4  # pixels a millimetre


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    return out.stdout


def squashed(text: str) -> str:
    return " ".join(text.split())


def info(pdf: bytes, tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "info.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in out.splitlines() if ":" in line)}


def raster(pdf: bytes, tmp_path: Path) -> Image.Image:
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(path), str(tmp_path / "page")],
                   capture_output=True, check=True)
    with Image.open(tmp_path / "page.png") as image:
        return image.convert("L")


def darkness(image: Image.Image, box_mm: tuple[float, float, float, float]) -> float:
    """The share of dark pixels (ink) in a box given in millimetres from the top-left corner."""
    x0, y0, x1, y1 = (round(v * MM) for v in box_mm)
    region = image.crop((x0, y0, x1, y1))
    dark = region.point(lambda p: 255 if p < 128 else 0).histogram()[255]
    return dark / max(region.width * region.height, 1)


def assert_one_a4_page_within_letter(pdf: bytes, tmp_path: Path) -> Image.Image:
    meta = info(pdf, tmp_path)
    assert meta["Pages"] == "1"
    assert meta["Page size"].startswith("595.28 x 841.89 pts (A4)")
    image = raster(pdf, tmp_path)
    assert abs(image.width - 210 * MM) <= 2 and abs(image.height - 297 * MM) <= 2
    # Every mark sits in the 10..200 x 10..270 mm box, which Letter (216 x 279 mm) prints too
    inked = Image.eval(image, lambda p: 255 if p < 200 else 0).getbbox()
    assert inked is not None
    left, top, right, bottom = (v / MM for v in inked)
    assert left >= 9 and top >= 9 and right <= 201 and bottom <= 271, (left, top, right, bottom)
    return image


def test_move_sheet_prints_everything_the_contract_lists(tmp_path):
    pdf = move_sheet_pdf(move_sheet(draw_offered_by_opponent=True),
                         context=SheetContext(sheet_code=CODE, game_name="Sunday club"))
    assert pdf.startswith(b"%PDF-")
    text = squashed(pdf_text(pdf, tmp_path))
    assert "Hello Ana" in text and "Sunday club".upper() in text
    assert "Ana · Black · against Ben (computer)" in text
    assert "Move 3: place 2 stones (Black)" in text
    assert "Stone 1" in text and "Stone 2" in text
    assert "Last move: 2. White i9 h7" in text
    assert "Ben said: “Nice move!”" in text
    assert "Ben (computer) offers a" in text and "declines it." in text  # wrapped beside the board
    assert "Offer a draw" in text
    assert all(phrase in text for _, phrase in PHRASES)
    assert CODE in text
    # The coordinates: every column letter and row number
    letters = set(re.findall(r"\b[a-o]\b", text))
    assert letters >= set("abcdefghijklmno")
    assert {str(n) for n in range(1, 16)} <= set(re.findall(r"\b\d{1,2}\b", text))
    image = assert_one_a4_page_within_letter(pdf, tmp_path)
    # The board (10..144 mm across, from about 44 mm down) is drawn: grid lines and stones
    assert darkness(image, (20, 55, 134, 168)) > 0.04
    # The QR code (top right) is half ink, as QR codes are
    assert 0.3 < darkness(image, (172, 10, 200, 38)) < 0.7
    # The stone boxes beside the board have their outlines, and are empty inside
    assert darkness(image, (151, 55, 200, 71)) > 0.02
    assert darkness(image, (153, 57, 196, 65)) < 0.01


def test_the_opening_move_has_one_box(tmp_path):
    text = squashed(pdf_text(move_sheet_pdf(first_move_sheet(), context=SheetContext(sheet_code=CODE)),
                             tmp_path))
    assert "Your stone" in text and "Stone 2" not in text
    assert "Move 1: place 1 stone (Black)" in text
    assert "No stone on the board yet" in text


def test_without_a_turn_the_paper_has_no_boxes(tmp_path):
    text = squashed(pdf_text(move_sheet_pdf(move_sheet(your_turn=False, stones_to_place=0)), tmp_path))
    assert "it is Ben (computer)'s turn, not yours" in text
    assert "Stone 1" not in text and "Offer a draw" not in text and "Good luck!" not in text


def test_the_last_move_is_marked_on_the_paper_board(tmp_path):
    # Given the same board with and without a last move
    sheet = move_sheet()
    marked = raster(move_sheet_pdf(sheet), tmp_path)
    plain = raster(move_sheet_pdf(sheet.model_copy(update={"last_move": None})), tmp_path)
    # Then the white stones of the last move (i9, h7) carry a dark dot: more ink at their centres
    assert marked.tobytes() != plain.tobytes()


def test_join_sheet_prints_its_form_as_boxes(tmp_path):
    pdf = join_sheet_pdf(join_sheet(), context=SheetContext(sheet_code="R42-J-7"))
    text = squashed(pdf_text(pdf, tmp_path))
    for field in ("Your name", "Your e-mail address", "Wait for another player to join", "Play the computer",
                  "easy", "normal", "hard", "Invite someone I know", "Their name", "Their e-mail address",
                  "A note for them", "R42-J-7", "15×15"):
        assert field in text, field
    image = assert_one_a4_page_within_letter(pdf, tmp_path)
    assert darkness(image, (9, 60, 201, 80)) > 0.01  # the name box's outline


def test_join_sheet_paper_offers_only_what_the_run_allows(tmp_path):
    text = squashed(pdf_text(join_sheet_pdf(join_sheet(open_seats=1, can_request_computer=False,
                                                       can_invite=False)), tmp_path))
    assert "Play the player already seated" in text
    assert "Play the computer" not in text and "Invite someone" not in text


def test_recap_prints_result_board_winning_line_and_record(tmp_path):
    pdf = recap_pdf(recap_sheet(), context=SheetContext(sheet_code="R42-S1-END"))
    text = squashed(pdf_text(pdf, tmp_path))
    assert "You won, Ana!" in text
    assert "Ana, playing Black, won with six in a row after 6 moves." in text
    assert "d8 e8 f8 g8 h8 i8" in text
    assert "1.h8 2.d9e9 3.g8i8 4.f9g9 5.d8e8 6.j9 7.f8" in text
    assert "R42-S1-END" in text and "HINTS USED" in text
    image = assert_one_a4_page_within_letter(pdf, tmp_path)
    # The winning line d8..i8 is a band of ink across row 8 of the board
    assert darkness(image, (40, 108, 100, 118)) > 0.3


def test_a_long_record_is_wrapped_and_kept_on_the_page(tmp_path):
    record = " ".join(f"{n}.{'abcdefghijklmnopqrs'[n % 19]}{n % 19 + 1}{'abcdefghijklmnopqrs'[(n * 7) % 19]}"
                      f"{(n * 3) % 19 + 1}" for n in range(1, 1500))
    pdf = recap_pdf(recap_sheet(record=record))
    text = squashed(pdf_text(pdf, tmp_path))
    assert "1.b2h4" in text and "more moves (the whole record is on the recap page)" in text
    assert_one_a4_page_within_letter(pdf, tmp_path)


@pytest.mark.parametrize(("name", "latin", "script"), [("张伟", "ZhangWei", "CJK"),
                                                       ("محمد", "mhmd", "Arabic")])
def test_names_the_font_cannot_print_are_printed_in_latin_letters_and_the_sheet_says_so(
        tmp_path, name, latin, script):
    sheet = move_sheet(player_name=name, greeting=f"Hello {name}", opponent={"name": name, "kind": "human"})
    pdf = move_sheet_pdf(sheet, context=SheetContext(sheet_code=CODE))
    text = squashed(pdf_text(pdf, tmp_path))
    assert f"Hello {latin}" in text
    assert f"printed in Latin letters as “{latin}” (the paper font has no {script} letters)" in text
    assert name not in text
    for make in (lambda: recap_pdf(recap_sheet(player_name=name, winner={"colour": "black", "name": name})),
                 lambda: join_sheet_pdf(join_sheet(game_name=name))):
        assert latin in squashed(pdf_text(make(), tmp_path))


def test_names_in_scripts_the_font_has_print_as_written(tmp_path):
    for name in ("Zoë Ångström", "Владимир", "Ζωή", "Łukasz Żółć", "Nguyễn"):
        assert printable(name) == (name, None)
        text = squashed(pdf_text(move_sheet_pdf(move_sheet(player_name=name, greeting=f"Hello {name}")),
                                 tmp_path))
        assert f"Hello {name}" in text
        assert "Latin letters" not in text


def test_hostile_text_is_only_text(tmp_path):
    evil = '<script>alert("x")</script>&\'") Tj ET (x'
    sheet = move_sheet(player_name=evil, greeting=evil, opponent={"name": evil, "kind": "human"})
    pdf = move_sheet_pdf(sheet, context=SheetContext(sheet_code=CODE))
    text = squashed(pdf_text(pdf, tmp_path))
    assert evil in text
    assert_one_a4_page_within_letter(pdf, tmp_path)


def test_the_same_sheet_gives_the_same_bytes():
    assert move_sheet_pdf(move_sheet()) == move_sheet_pdf(move_sheet())
