"""The pages in headless Chromium: redeem an invitation by clicking, watch the board change
without a reload, stop polling at the end, read the screenshots' pixels."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.harness import LocalServer, new_game_id

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


NOTE = "Rematch? Bring your best <b>six</b>!"


def invited_game(server: LocalServer, note: str = NOTE) -> tuple[str, str, str]:
    """A run where Ana joined and invited Ben: (game_id, Ana's player_id, the invitation URL)."""
    game_id = new_game_id("browser")
    assert server.request("PUT", f"/v1/games/{game_id}",
                          {"game_name": "Thursday <club>", "allow_computer_opponents": True}).status == 201
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com",
        "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com", "note": note}})
    assert joined.status == 201, joined.text
    return game_id, joined.json()["player_id"], joined.json()["invite"]["url"]


def check_screenshot(png: bytes, width: int, height: int) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (width, height)
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50, "the screenshot is (nearly) blank"
    return image


def luma(pixel: tuple[int, int, int]) -> float:
    r, g, b = pixel
    return 0.299 * r + 0.587 * g + 0.114 * b


def centre_pixel(page, image: Image.Image, selector: str) -> tuple[int, int, int]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return image.getpixel((int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] / 2)))


def test_redeem_an_invitation_by_clicking(server, page, screenshot_dir: Path):
    # Given an invitation link
    game_id, _, url = invited_game(server)
    # When Ben opens it
    response = page.goto(url)
    assert response is not None and response.status == 200
    # Then he sees who invited him, the note (escaped, shown literally), the run and a button
    assert "Ana invites you" in page.locator("h1").inner_text()
    assert page.locator("#note").inner_text() == "Rematch? Bring your best <b>six</b>!"
    assert page.locator("#game").inner_text() == "Thursday <club>"
    assert page.locator("#hold time").get_attribute("datetime")
    png = page.screenshot(path=str(screenshot_dir / "invite.png"))
    check_screenshot(png, 900, 1100)
    # When he types his name and presses the button
    page.fill("#name", "Benjamin")
    with page.expect_navigation():
        page.click("#accept")
    # Then the confirmation shows, and the game has started with him in it
    assert "You're in" in page.locator("h1").inner_text()
    page.screenshot(path=str(screenshot_dir / "redeemed.png"))
    view = server.request("GET", f"/v1/games/{game_id}/board").json()
    assert view["status"] == "in_progress"
    assert {view["black"]["name"], view["white"]["name"]} == {"Ana", "Benjamin"}
    # And "Watch the board" leads to the live board of that game
    with page.expect_navigation():
        page.click("#watch")
    assert page.url == f"{server.base_url}/v1/games/{game_id}/board"
    assert page.locator("h1").inner_text() == "Thursday <club>"
    # And the link now says it was used, on a page of its own
    response = page.goto(url)
    assert response is not None and response.status == 409
    assert "already been used" in page.locator("h1").inner_text()
    page.screenshot(path=str(screenshot_dir / "invite-used.png"))


def test_unknown_invitation_link_gets_its_own_page(server, page):
    response = page.goto(server.base_url + "/v1/invites/no-such-token")
    assert response is not None and response.status == 404
    assert "can't find this invitation" in page.locator("h1").inner_text()


def sheet(server: LocalServer, game_id: str, player_id: str) -> dict:
    reply = server.request("GET", f"/v1/games/{game_id}/players/{player_id}/move-sheet")
    assert reply.status == 200, reply.text
    return reply.json()


def play(server: LocalServer, game_id: str, player_id: str, move_number: int, stones: list[str]) -> dict:
    reply = server.request("POST", f"/v1/games/{game_id}/players/{player_id}/moves",
                           {"move_number": move_number, "stones": stones, "table_talk": None})
    assert reply.status == 200, reply.text
    return reply.json()


def test_board_page_follows_the_game_without_reloading_and_stops_at_the_end(server, page, screenshot_dir):
    # Given a game between Ana and Ben, and the spectator page open on it
    game_id, ana, url = invited_game(server)
    ben = server.request("POST", url, {"name": "Ben"}).json()["player_id"]
    players = {sheet(server, game_id, p)["stone_colour"]: p for p in (ana, ben)}
    black, white = players["black"], players["white"]
    board_url = f"{server.base_url}/v1/games/{game_id}/board"
    page.goto(board_url)
    assert page.locator("h1").inner_text() == "Thursday <club>"
    page.evaluate("window.__sameDocument = 'yes'")
    assert page.locator("circle.stone").count() == 0

    # When Black opens on h8 (through the API, as the platform would)
    play(server, game_id, black, 1, ["h8"])
    # Then the page draws the stone and the new turn by itself, in the same document
    page.wait_for_selector('circle.stone.black[data-point="h8"]', timeout=20_000)
    assert page.evaluate("window.__sameDocument") == "yes"
    assert "to play move 2" in page.locator("#status").inner_text()
    assert page.locator('circle.last-mark[data-point="h8"]').count() == 1

    # When the game goes on to Black's six on row 8 (won on the first stone of the last pair)
    moves = [(white, ["a15", "b15"]), (black, ["i8", "j8"]), (white, ["a14", "b14"]),
             (black, ["k8", "l8"]), (white, ["a13", "b13"])]
    for number, (who, stones) in enumerate(moves, start=2):
        play(server, game_id, who, number, stones)
    page.wait_for_selector('circle.stone.white[data-point="b13"]', timeout=20_000)
    png = page.screenshot(path=str(screenshot_dir / "board-live.png"))
    image = check_screenshot(png, 900, 1100)
    assert luma(centre_pixel(page, image, 'circle.stone[data-point="h8"]')) < 70
    assert luma(centre_pixel(page, image, 'circle.stone[data-point="a15"]')) > 170
    board = page.locator("svg.c6-board").bounding_box()
    assert board is not None
    edge = (int(board["x"] + board["width"] * 0.012), int(board["y"] + board["height"] / 2))
    r, g, b = image.getpixel(edge)
    assert r > 200 and 150 < g < 210 and b < 150, ("the board is wood-coloured", (r, g, b))

    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    final = play(server, game_id, black, 7, ["m8", "g8"])
    assert final["status"] == "completed" and final["stones_placed"] == ["m8"]
    # Then the page shows the result and the highlighted line, and stops polling
    page.wait_for_selector("html[data-polling='stopped']", timeout=20_000)
    assert page.evaluate("window.__sameDocument") == "yes"
    assert "Ana" in page.locator("#status").inner_text() or "Ben" in page.locator("#status").inner_text()
    assert "won with six in a row" in page.locator("#status").inner_text()
    marks = page.locator("circle.win-mark")
    assert sorted(marks.nth(i).get_attribute("data-point") for i in range(marks.count())) == sorted(
        ["h8", "i8", "j8", "k8", "l8", "m8"])
    assert page.locator('circle.stone[data-point="g8"]').count() == 0
    png = page.screenshot(path=str(screenshot_dir / "board-final.png"))
    image = check_screenshot(png, 900, 1100)
    # a gold ring around the winning stones: the pixel just inside the ring's stroke is yellowish
    box = page.locator('circle.win-mark[data-point="j8"]').bounding_box()
    assert box is not None
    r, g, b = image.getpixel((int(box["x"] + box["width"] / 2), int(box["y"] + 1)))
    assert r > 180 and g > 140 and b < 120, (r, g, b)
    seen = len(requests)
    page.wait_for_timeout(6_000)
    assert len(requests) == seen, "the page kept polling after the game ended"


def test_board_page_fits_a_phone_screen(server, browser, screenshot_dir):
    # Given a game in progress, seen on a 390 px wide phone
    game_id, _, url = invited_game(server)
    server.request("POST", url, {"name": "Ben"})
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    try:
        phone = context.new_page()
        phone.goto(f"{server.base_url}/v1/games/{game_id}/board")
        # Then nothing scrolls sideways and the whole board is on screen
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        box = phone.locator("svg.c6-board").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        png = phone.screenshot(path=str(screenshot_dir / "board-phone.png"))
        check_screenshot(png, 780, 1688)
        _, _, invite_url = invited_game(server)
        phone.goto(invite_url)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(screenshot_dir / "invite-phone.png"))
    finally:
        context.close()


def test_pages_work_under_a_strict_content_security_policy(server, page):
    """Handlers may send ``connect6.pages.content_security_policy()``; the pages must still work."""
    from connect6.pages import content_security_policy

    game_id, ana, url = invited_game(server)
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)

    def with_csp(route):
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": content_security_policy()}
        route.fulfill(response=response, headers=headers)

    page.route(url, with_csp)
    page.goto(url)
    assert "(in about" in page.locator("#hold time").inner_text()  # the inline script ran
    ben = server.request("POST", url, {"name": "Ben"}).json()["player_id"]
    black = next(p for p in (ana, ben) if sheet(server, game_id, p)["stone_colour"] == "black")
    board_url = f"{server.base_url}/v1/games/{game_id}/board"
    page.route(board_url, with_csp)
    page.goto(board_url)
    play(server, game_id, black, 1, ["h8"])
    page.wait_for_selector('circle.stone[data-point="h8"]', timeout=20_000)
    assert violations == []
