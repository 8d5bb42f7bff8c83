"""The turn sheets in headless Chromium (issue 27): a move sheet played by taps (place, take back,
place, send) and by typing (with and without script), at desktop and phone width, the move landing;
the move sheet framed by a page on another origin (allowed by FrameAncestors, refused elsewhere) and
its fields, read from the sheet's HTML as the platform reads them, posted as the move; the three
PDFs read back (pdftotext) and rasterised (pdftoppm)."""

from __future__ import annotations

import contextlib
import http.server
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.e2e.harness import new_game_id
from tools.local.client import LocalServer, start_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def computer_game(server: LocalServer) -> tuple[str, str, dict[str, Any]]:
    """A game against the computer at a turn of two stones: (game_id, player_id, move sheet)."""
    game_id = new_game_id("sheet")
    assert server.request("PUT", f"/v1/games/{game_id}",
                          {"game_name": "Sheets", "allow_computer_opponents": True}).status == 201
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": "easy"}})
    assert joined.status == 201, joined.text
    player = joined.json["player_id"]
    sheet = move_sheet(server, game_id, player)
    if sheet["stones_to_place"] == 1:  # Black's opening: play it, then the computer replies
        assert server.request("POST", f"/v1/games/{game_id}/players/{player}/moves",
                              {"move_number": 1, "stones": ["h8"]}).status == 200
        sheet = move_sheet(server, game_id, player)
    assert sheet["your_turn"] and sheet["stones_to_place"] == 2
    return game_id, player, sheet


def move_sheet(server: LocalServer, game_id: str, player: str) -> dict[str, Any]:
    reply = server.request("GET", f"/v1/games/{game_id}/players/{player}/move-sheet")
    assert reply.status == 200, reply.text
    return dict(reply.json)


def free_points(sheet: dict[str, Any], count: int) -> list[str]:
    """``count`` empty points, away from the stones, in reading order."""
    size = sheet["board_size"]
    found = []
    for top, row in enumerate(sheet["board"]):
        for col, mark in enumerate(row):
            if mark == "." and 2 <= col < size - 2 and 2 <= top < size - 2:
                found.append(f"{chr(ord('a') + col)}{size - top}")
    return found[:count]


def stone_at(sheet: dict[str, Any], label: str) -> str:
    size = sheet["board_size"]
    return str(sheet["board"][size - int(label[1:])][ord(label[0]) - ord("a")])


def landed(server: LocalServer, game_id: str, player: str, before: dict[str, Any], stones: list[str]) -> None:
    """The move sheet afterwards: the turn moved on and the stones are on the board in our colour."""
    after = move_sheet(server, game_id, player)
    assert after["move_number"] > before["move_number"], after
    mark = "B" if before["stone_colour"] == "black" else "W"
    assert [stone_at(after, s) for s in stones] == [mark, mark], (stones, after["board"])


def open_sheet(browser: Any, server_url: str, game_id: str, player: str, width: int, height: int,
               *, script: bool = True) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                  java_script_enabled=script, has_touch=width < 500, is_mobile=width < 500)
    page = context.new_page()
    page.set_default_timeout(20_000)
    response = page.goto(f"{server_url}/v1/games/{game_id}/players/{player}/move-sheet")
    assert response is not None and response.status == 200
    assert response.headers["content-type"].startswith("text/html")
    return context, page


def tap(page: Any, label: str, touch: bool) -> None:
    target = page.locator(f'rect.pt[data-point="{label}"]')
    if touch:
        target.tap()
    else:
        target.click()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_move_sheet_played_by_taps_lands_the_move(server, browser, screenshot_dir: Path, device: str):
    width, height = WIDTHS[device]
    game_id, player, sheet = computer_game(server)
    first, second, third = free_points(sheet, 3)
    context, page = open_sheet(browser, server.base_url, game_id, player, width, height)
    try:
        touch = device == "phone"
        send = page.locator("#send")
        assert send.is_disabled() and page.locator("#move-form").count() == 1
        # the board fits the screen: no sideways scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # Place one, take it back, place two: the fields follow the board
        tap(page, first, touch)
        assert page.locator(f'circle.pending-stone[data-point="{first}"]').count() == 1
        assert page.input_value("#stone_1") == first
        tap(page, first, touch)
        assert page.locator("circle.pending-stone").count() == 0 and page.input_value("#stone_1") == ""
        tap(page, second, touch)
        tap(page, third, touch)
        assert page.input_value("#stone_1") == second and page.input_value("#stone_2") == third
        assert not send.is_disabled() and "Send move" in send.inner_text()
        assert f"{second} and {third}" in page.locator("#summary").inner_text()
        page.screenshot(path=str(screenshot_dir / f"move-sheet-taps-{device}.png"), full_page=True)
        # Confirm: the form goes to the move route, and the move lands
        with page.expect_navigation():
            send.click()
        landed(server, game_id, player, sheet, [second, third])
    finally:
        context.close()


@pytest.mark.parametrize(("device", "script"), [("desktop", True), ("phone", True), ("desktop", False)])
def test_a_move_sheet_played_by_typing_lands_the_move(server, browser, screenshot_dir: Path, device: str,
                                                       script: bool):
    width, height = WIDTHS[device]
    game_id, player, sheet = computer_game(server)
    first, second = free_points(sheet, 2)
    context, page = open_sheet(browser, server.base_url, game_id, player, width, height, script=script)
    try:
        page.fill("#stone_1", first.upper())
        page.fill("#stone_2", second)
        page.select_option("#table_talk", "good_luck")
        if script:  # the board follows what is typed
            page.locator("#stone_2").dispatch_event("input")
            assert page.locator("circle.pending-stone").count() == 2
        shot = f"move-sheet-typed-{device}{'' if script else '-noscript'}.png"
        page.screenshot(path=str(screenshot_dir / shot), full_page=True)
        with page.expect_navigation():
            page.click("#send")
        landed(server, game_id, player, sheet, [first, second])
        received = move_sheet(server, game_id, player)
        assert received["move_number"] == sheet["move_number"] + 2
    finally:
        context.close()


# ---------------------------------------------------------------------------- framed from another origin
class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def origin_serving(folder: Path) -> Iterator[str]:
    """A second origin: ``folder`` served on another port of 127.0.0.1."""
    handler = lambda *a, **k: _Quiet(*a, directory=str(folder), **k)  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _SheetForm(HTMLParser):
    """The move form of a sheet page as the platform reads it: its action and its fields' values."""

    def __init__(self) -> None:
        super().__init__()
        self.action = ""
        self.fields: dict[str, str] = {}
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "form" and found.get("id") == "move-form":
            self.action, self.inside = found.get("action", ""), True
        elif self.inside and tag in ("input", "select") and found.get("name"):
            if found.get("type") == "checkbox" and "checked" not in found:
                return
            self.fields[found["name"]] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def test_the_move_sheet_framed_by_another_origin_and_its_fields_posted(browser, tmp_path: Path,
                                                                     screenshot_dir: Path):
    allowed_dir, refused_dir = tmp_path / "platform", tmp_path / "elsewhere"
    allowed_dir.mkdir()
    refused_dir.mkdir()
    with origin_serving(allowed_dir) as platform, origin_serving(refused_dir) as elsewhere:
        server = start_server("--sweep-seconds", "3600", "--parameter", f"FrameAncestors={platform}")
        try:
            game_id, player, sheet = computer_game(server)
            sheet_url = f"{server.base_url}/v1/games/{game_id}/players/{player}/move-sheet"
            frame_page = (f'<!doctype html><title>Platform</title><h1>Your turn sheet</h1>'
                          f'<iframe id="sheet" src="{sheet_url}" width="1000" height="1500"></iframe>')
            (allowed_dir / "index.html").write_text(frame_page)
            (refused_dir / "index.html").write_text(frame_page)
            context = browser.new_context(viewport={"width": 1100, "height": 1600})
            try:
                page = context.new_page()
                page.set_default_timeout(20_000)
                # (a) the platform's origin may show the sheet in a frame: it renders there, whole
                page.goto(platform + "/index.html")
                frame = page.frame_locator("#sheet")
                assert frame.locator("#greeting").inner_text() == "Hello Ana"
                assert frame.locator("#move-form").count() == 1
                assert frame.locator("rect.pt").count() == sheet["board_size"] ** 2
                page.screenshot(path=str(screenshot_dir / "move-sheet-framed.png"))
                # … and the framing page's own script cannot read it (another origin)
                assert page.evaluate("""() => { try { return document.getElementById('sheet')
                    .contentDocument === null ? 'blocked' : 'read'; } catch (e) { return 'blocked'; } }""") \
                    == "blocked"
                # a page on any other origin is refused by the policy: the sheet never renders there
                refusals: list[str] = []
                other = context.new_page()
                other.on("console", lambda message: refusals.append(message.text))
                other.goto(elsewhere + "/index.html")
                other.wait_for_timeout(1500)
                framed = [f for f in other.frames if f is not other.main_frame]
                assert framed and all("Hello Ana" not in _text(f) for f in framed)
                assert any("frame-ancestors" in text for text in refusals), refusals
            finally:
                context.close()
            # (b) the platform reads the sheet's HTML server-side (Accept: text/html), fills in the
            # stones a player chose, and posts the form's fields as they are: the move lands
            page_html = server.request("GET", sheet_url, headers={"Accept": "text/html"})
            assert page_html.status == 200 and page_html.headers["content-type"].startswith("text/html")
            form = _SheetForm()
            form.feed(page_html.text)
            assert form.action == f"{server.base_url}/v1/games/{game_id}/players/{player}/moves"
            assert set(form.fields) == {"move_number", "stone_1", "stone_2", "table_talk"}
            assert form.fields["move_number"] == str(sheet["move_number"])
            stones = free_points(sheet, 2)
            answer = {**form.fields, "stone_1": stones[0], "stone_2": stones[1], "offer_draw": "true"}
            posted = server.request("POST", form.action, form=answer)
            assert posted.status == 200, posted.text
            assert posted.json["stones_placed"] == stones
            landed(server, game_id, player, sheet, stones)
        finally:
            server.stop()


def _text(frame: Any) -> str:
    with contextlib.suppress(Exception):
        return str(frame.content())
    return ""


# ---------------------------------------------------------------------------- paper
def _pdf_tools() -> None:
    if not (shutil.which("pdftotext") and shutil.which("pdftoppm")):
        pytest.skip("pdftotext/pdftoppm are absent (apt-get install -y poppler-utils; make browser does)")


def _raster(pdf: bytes, out: Path) -> Image.Image:
    out.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", str(out), str(out.with_suffix(""))],
                   check=True, timeout=60)
    return Image.open(out.with_suffix(".png")).convert("L")


def test_the_three_sheets_on_paper_one_page_each_with_the_code(server, screenshot_dir: Path):
    _pdf_tools()
    game_id, player, sheet = computer_game(server)
    def paper(path: str) -> tuple[dict[str, Any], Any]:
        pdf = server.request("GET", path, headers={"Accept": "application/pdf"})
        return server.request("GET", path).json, pdf

    papers = {"join": paper(f"/v1/games/{game_id}/join-sheet"),
              "move": paper(f"/v1/games/{game_id}/players/{player}/move-sheet")}
    assert server.request("POST", f"/v1/games/{game_id}/players/{player}/resign").status == 200
    papers["recap"] = paper(f"/v1/games/{game_id}/players/{player}/recap")
    recap = papers["recap"][0]
    assert papers["move"][0] == sheet
    for kind, (data, reply) in papers.items():
        assert reply.status == 200 and reply.headers["content-type"] == "application/pdf", kind
        target = screenshot_dir / f"sheet-{kind}.pdf"
        target.write_bytes(reply.body)
        pages = subprocess.run(["pdfinfo", str(target)], capture_output=True, text=True, check=True).stdout
        assert re.search(r"^Pages:\s+1$", pages, re.M), (kind, pages)
        text = subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert data["sheet_code"] in text, kind
        image = _raster(reply.body, target)
        dark = sum(1 for value in image.tobytes() if value < 128)
        assert dark > image.width * image.height * 0.01, kind  # board, boxes and text are inked
        if kind == "move":
            assert "Ana" in text and "stone" in text.lower()
        if kind == "recap":
            assert recap["record"].split()[0] in text
