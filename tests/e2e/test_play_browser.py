"""Playing from the play link in Chromium, by taps, through the local server (contract v1.2): a whole
game against the computer (a hint, an undo, a draw offer, then resigning with its confirmation), a
same-device game to its six, and an invitee from the e-mail link through "Play now" to their first
move, at desktop (1280) and phone (390) width. Screenshots go to $E2E_SCREENSHOT_DIR when set."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tools.local.client import LocalServer

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(params=sorted(WIDTHS))
def sized(request: pytest.FixtureRequest, browser: Any) -> Any:
    width, height = WIDTHS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.width_name = request.param
    yield pg
    context.close()


def _json(server: LocalServer, method: str, path: str, body: Any = None) -> Any:
    reply = server.request(method, path, body)
    assert reply.status < 300, (method, path, reply.status, reply.text)
    return reply.json


def _game(server: LocalServer, opponent: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    game = f"play-{random.randrange(10**9)}"
    _json(server, "PUT", f"/v1/games/{game}", {"game_name": "Play link", "allow_computer_opponents": True})
    joined = _json(server, "POST", f"/v1/games/{game}/players",
                   {"name": "Ana", "email": "ana@example.com", "opponent": opponent})
    return game, str(joined["player_id"]), joined


def _sheet(server: LocalServer, game: str, player: str) -> dict[str, Any]:
    return dict(_json(server, "GET", f"/v1/games/{game}/players/{player}/move-sheet"))


def _free(sheet: dict[str, Any], count: int, row: int | None = None) -> list[str]:
    n = sheet["board_size"]
    middle = n // 2
    cells = [(r, c) for r in range(n) for c in range(n) if sheet["board"][r][c] == "."
             and (row is None or n - r == row)]
    cells.sort(key=lambda rc: (abs(rc[0] - middle) + abs(rc[1] - middle), rc))
    return [f"{chr(97 + c)}{n - r}" for r, c in cells[:count]]


def _tap(page: Any, labels: list[str]) -> None:
    for label in labels:
        page.locator(f'.sheet-board rect.pt[data-point="{label}"]').click()
    page.locator("#send").click()
    page.wait_for_load_state()


def _shot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}-{page.width_name}.png"), full_page=True)


def test_a_game_against_the_computer_from_the_play_link(server: LocalServer, sized: Any,
                                                       screenshot_dir: Path) -> None:
    page = sized
    game, player, joined = _game(server, {"kind": "computer", "level": "easy"})
    page.goto(joined["play_url"])
    assert page.locator("#move-form").is_visible()
    _shot(page, screenshot_dir, "play-move")
    # A hint fills the stones in; sending it plays them.
    page.locator("#hint").click()
    page.wait_for_load_state()
    assert "Hint:" in page.locator("#notice").inner_text()
    _shot(page, screenshot_dir, "play-hint")
    before = _sheet(server, game, player)["move_number"]
    page.locator("#send").click()
    page.wait_for_load_state()
    after = _sheet(server, game, player)
    assert after["move_number"] == before + 2  # played, and the computer replied
    # A turn by taps, then undo it.
    _tap(page, _free(after, after["stones_to_place"]))
    assert _sheet(server, game, player)["move_number"] == before + 4
    page.locator("#undo").click()
    page.wait_for_load_state()
    assert "taken back" in page.locator("#notice").inner_text()
    assert "(2 left)" in page.locator("#undo").inner_text()
    assert _sheet(server, game, player)["move_number"] == before + 2
    # A move with a draw offer: the computer answers at once.
    sheet = _sheet(server, game, player)
    page.locator("#offer_draw").check()
    _tap(page, _free(sheet, sheet["stones_to_place"]))
    if _sheet(server, game, player)["status"] == "in_progress":
        # It played on: resign, which asks first.
        page.locator("#resign").click()
        page.wait_for_load_state()
        assert page.locator("#title").inner_text() == "Resign this game?"
        _shot(page, screenshot_dir, "play-resign-confirm")
        page.locator("#confirm-resign").click()
        page.wait_for_load_state()
    recap = _json(server, "GET", f"/v1/games/{game}/players/{player}/recap")
    assert recap["hints_used"] == 1 and recap["undos_used"] == 1
    assert recap["end_reason"] in ("resigned", "agreed")
    assert page.locator("h1").inner_text().startswith(("Good game", "A draw"))
    _shot(page, screenshot_dir, "play-recap")


def test_a_same_device_game_to_its_end(server: LocalServer, sized: Any, screenshot_dir: Path) -> None:
    page = sized
    game, ana, joined = _game(server, {"kind": "same_device", "name": "Ben"})
    page.goto(joined["play_url"])
    view = _json(server, "GET", f"/v1/games/{game}/board")
    black = view["black"]["name"]
    white = view["white"]["name"]
    assert f"{black} to move (Black)" in page.locator("#greeting").inner_text()
    assert page.locator("#hint").count() == 0
    _shot(page, screenshot_dir, "same-device")
    # Black fills row 8 from the centre; White plays apart on row 2 (never six).
    black_points = ["h8", "i8", "j8", "k8", "l8", "m8", "g8"]
    white_points = ["a2", "c2", "e2", "g2", "i2", "k2", "m2", "o2"]
    _tap(page, [black_points.pop(0)])
    assert f"{white} to move (White)" in page.locator("#greeting").inner_text()
    while page.locator("#move-form").count():
        colour = "Black" if "(Black)" in page.locator("#greeting").inner_text() else "White"
        source = black_points if colour == "Black" else white_points
        _tap(page, [source.pop(0), source.pop(0)])
    assert page.locator("h1").inner_text() == f"You won, {black}!"
    recap = _json(server, "GET", f"/v1/games/{game}/players/{ana}/recap")
    assert recap["end_reason"] == "six"
    _shot(page, screenshot_dir, "same-device-recap")


def test_the_invitee_goes_from_the_email_link_to_their_first_move(server: LocalServer, sized: Any,
                                                                  screenshot_dir: Path) -> None:
    page = sized
    game, ana, joined = _game(server, {"kind": "invite", "name": "Ben", "email": "ben@example.com"})
    page.goto(joined["invite"]["url"])
    page.locator("#accept").click()
    page.wait_for_load_state()
    assert page.locator("#play-now").is_visible()
    _shot(page, screenshot_dir, "invitee-accepted")
    page.locator("#play-now").click()
    page.wait_for_load_state()
    assert "/v1/play/" in page.url
    ana_sheet = _sheet(server, game, ana)
    if ana_sheet["your_turn"]:  # Ana plays Black: she opens (as the platform would send it)
        _json(server, "POST", f"/v1/games/{game}/players/{ana}/moves",
              {"move_number": 1, "stones": ["h8"]})
        page.wait_for_selector("#move-form", timeout=15_000)  # the waiting page reloads itself
    sheet = _json(server, "GET", f"/v1/games/{game}/board")
    assert page.locator("#move-form").is_visible()
    n = sheet["move_count"] + 1
    _shot(page, screenshot_dir, "invitee-first-move")
    ben_sheet_stones = 1 if n == 1 else 2
    board = {"board_size": sheet["board_size"], "board": sheet["board"]}
    _tap(page, _free(board, ben_sheet_stones))
    assert _json(server, "GET", f"/v1/games/{game}/board")["move_count"] == n
