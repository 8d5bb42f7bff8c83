"""The pages in headless Chromium: redeem an invitation by clicking, watch the board change
without a reload, stop polling at the end, read the screenshots' pixels."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.harness import new_game_id
from tools.local.client import LocalServer

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
    return game_id, joined.json["player_id"], joined.json["invite"]["url"]


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
    view = server.request("GET", f"/v1/games/{game_id}/board").json
    assert view["status"] == "in_progress"
    assert {view["black"]["name"], view["white"]["name"]} == {"Ana", "Benjamin"}
    # And it names him and his colour, once, and says truly whose turn it is (issue 11)
    colour = "black" if view["black"]["name"] == "Benjamin" else "white"
    assert page.locator("h1").inner_text() == "You're in, Benjamin!"
    assert page.locator("#colour").inner_text() == colour.capitalize()
    assert "is yours" not in page.locator("main").inner_text()
    if colour == "black":
        assert page.locator("#next").inner_text().startswith("It's your turn now: move 1, 1 stone.")
    else:
        # (v1.2: the page has his play link, so it sends him there rather than to the platform's sheet)
        assert page.locator("#next").inner_text() == (
            "Press Play now: your page follows the game and shows your move sheet when it is your turn.")
    assert (page.locator("#play-now").get_attribute("href") or "").startswith("../play/")
    # And it was reached by a redirect, so reloading it neither re-posts nor reads "already used"
    assert page.url == url + "?accepted=1"
    reloaded = page.reload()
    assert reloaded is not None and reloaded.status == 200
    assert page.locator("h1").inner_text() == "You're in, Benjamin!"
    assert "already" not in page.locator("main").inner_text()
    # And "Watch the board" leads to the live board of that game
    with page.expect_navigation():
        page.click("#watch")
    assert page.url == f"{server.base_url}/v1/games/{game_id}/board"
    assert page.locator("h1").inner_text() == "Thursday <club>"
    # And the link opened again says who accepted it (no secret on it), not an error (issue 11)
    response = page.goto(url)
    assert response is not None and response.status == 200
    assert page.locator("h1").inner_text() == "Benjamin accepted this invitation"
    assert "@example.com" not in page.content()
    page.screenshot(path=str(screenshot_dir / "invite-used.png"))


def test_unknown_invitation_link_gets_its_own_page(server, page):
    response = page.goto(server.base_url + "/v1/invites/no-such-token")
    assert response is not None and response.status == 404
    assert "can't find this invitation" in page.locator("h1").inner_text()


def sheet(server: LocalServer, game_id: str, player_id: str) -> dict:
    reply = server.request("GET", f"/v1/games/{game_id}/players/{player_id}/move-sheet")
    assert reply.status == 200, reply.text
    return reply.json


def play(server: LocalServer, game_id: str, player_id: str, move_number: int, stones: list[str]) -> dict:
    reply = server.request("POST", f"/v1/games/{game_id}/players/{player_id}/moves",
                           {"move_number": move_number, "stones": stones, "table_talk": None})
    assert reply.status == 200, reply.text
    return reply.json


def test_board_page_follows_the_game_without_reloading_and_stops_at_the_end(server, page, screenshot_dir):
    # Given a game between Ana and Ben, and the spectator page open on it
    game_id, ana, url = invited_game(server)
    ben = server.request("POST", url, {"name": "Ben"}).json["player_id"]
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


@contextlib.contextmanager
def phone_page(browser) -> Iterator:
    """A page in a 390-px-wide phone context (scale 2, touch), closed afterwards."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_board_page_fits_a_phone_screen(server, browser, screenshot_dir):
    # Given a game in progress, seen on a 390 px wide phone
    game_id, _, url = invited_game(server)
    server.request("POST", url, {"name": "Ben"})
    with phone_page(browser) as phone:
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
    ben = server.request("POST", url, {"name": "Ben"}).json["player_id"]
    black = next(p for p in (ana, ben) if sheet(server, game_id, p)["stone_colour"] == "black")
    board_url = f"{server.base_url}/v1/games/{game_id}/board"
    page.route(board_url, with_csp)
    page.goto(board_url)
    play(server, game_id, black, 1, ["h8"])
    page.wait_for_selector('circle.stone[data-point="h8"]', timeout=20_000)
    assert violations == []


# ---------------------------------------------------------------------------------------------
# Issue 11: pages that tell the truth, and replay


def test_before_the_start_the_board_shows_seats_as_its_status_line_counts_them(server, page, screenshot_dir):
    # Given Ana seated and a seat held for Ben
    game_id, _, _ = invited_game(server)
    # When a spectator opens the board
    page.goto(f"{server.base_url}/v1/games/{game_id}/board")
    # Then the status line and the seats agree: Ana seated, a seat held for Ben, no open seat
    assert page.locator("#status").inner_text() == "Waiting for players (1 seat held for an invited player)"
    chips = page.locator(".player.seat")
    assert chips.count() == 2
    assert [chips.nth(i).get_attribute("data-state") for i in range(2)] == ["taken", "held"]
    assert chips.nth(0).locator(".name").inner_text() == "Ana"
    assert chips.nth(1).locator(".name").inner_text() == "Ben"
    assert "(open seat)" not in page.locator("#live").inner_text()
    png = page.screenshot(path=str(screenshot_dir / "board-waiting.png"))
    image = check_screenshot(png, 900, 1100)
    # the held seat's chip is drawn (a card, not the page background)
    assert luma(centre_pixel(page, image, '.player.seat[data-state="held"] .swatch')) < 200


def test_a_mistyped_board_link_gets_a_page_in_a_browser_and_json_elsewhere(server, page, screenshot_dir):
    response = page.goto(f"{server.base_url}/v1/games/no-such-game-here/board")
    assert response is not None and response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    assert page.locator("h1").inner_text() == "We can't find this game"
    assert "no-such-game-here" in page.locator("#message").inner_text()
    check_screenshot(page.screenshot(path=str(screenshot_dir / "board-404.png")), 900, 1100)
    plain = server.request("GET", "/v1/games/no-such-game-here/board")
    assert plain.status == 404 and plain.json["error"]["code"] == "game_not_found"


def test_accept_quality_values_are_honoured_for_a_browser_fetch(server, page):
    game_id, _, _ = invited_game(server)
    board_url = f"{server.base_url}/v1/games/{game_id}/board"
    page.goto(board_url)
    answered = page.evaluate("""async (url) => {
        const low = await fetch(url, {headers: {"Accept": "text/html;q=0.1, application/json"}});
        const high = await fetch(url, {headers: {"Accept": "application/json;q=0.1, text/html"}});
        return [low.headers.get("content-type"), high.headers.get("content-type")];
    }""", board_url)
    assert answered[0].startswith("application/json") and answered[1].startswith("text/html")


def test_no_page_asks_for_favicon_ico(server, page):
    # Given every kind of page, opened in a browser that asks for /favicon.ico when a page has no icon
    game_id, _, url = invited_game(server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    for address in (url, f"{server.base_url}/v1/games/{game_id}/board",
                    f"{server.base_url}/v1/games/no-such-game/board"):
        page.goto(address)
        # Then each has the inline icon, and no request for /favicon.ico goes out
        assert page.locator('link[rel="icon"]').get_attribute("href").startswith("data:image/svg+xml,")
    page.wait_for_timeout(1_000)
    assert not [a for a in asked if a.endswith("/favicon.ico")]
    assert "favicon" not in server.output()


def test_the_svg_has_an_intrinsic_size_in_a_bare_img(server, page):
    game_id, _, _ = invited_game(server)
    page.goto(f"{server.base_url}/v1/games/{game_id}/board")
    size = page.evaluate("""() => new Promise((done) => {
        const img = new Image();
        img.onload = () => done([img.naturalWidth, img.naturalHeight]);
        img.onerror = () => done(null);
        img.src = "board.svg";
    })""")
    assert size == [672, 672]


def test_the_computers_name_gets_no_second_pair_of_brackets(server, page):
    # Given a game against the computer that Ana resigns
    game_id = new_game_id("brackets")
    server.request("PUT", f"/v1/games/{game_id}", {"game_name": "Solo", "allow_computer_opponents": True})
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": "easy"}}).json
    assert server.request("POST", f"/v1/games/{game_id}/players/{joined['player_id']}/resign",
                          {}).status == 200
    # When the board is opened
    page.goto(f"{server.base_url}/v1/games/{game_id}/board")
    status = page.locator("#status").inner_text()
    # Then the result reads with one pair of brackets, the colour in words
    assert status.startswith("Computer (easy), playing ") and "won: Ana resigned" in status
    assert ") (" not in page.locator("main").inner_text() and ") (" not in page.title()


def point_pixel(page, image: Image.Image, point: str) -> tuple[int, int, int]:
    """The pixel just off the centre of a board point (off the grid lines), from the SVG's own
    geometry: a hidden stone has no bounding box."""
    stone = page.locator(f'circle.stone[data-point="{point}"]')
    board = page.locator("svg.c6-board").bounding_box()
    assert board is not None
    scale = board["width"] / 672
    cx, cy = float(stone.get_attribute("cx")), float(stone.get_attribute("cy"))
    return image.getpixel((int(board["x"] + cx * scale + 6), int(board["y"] + cy * scale - 6)))


def is_wood(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 180 and 140 < g < 210 and b < 150


def stone_visible(page, point: str) -> bool:
    return page.locator(f'circle.stone[data-point="{point}"]').is_visible()


def test_replay_steps_through_the_moves_and_polling_does_not_yank_the_reader(server, page, screenshot_dir):
    # Given a running game of four moves, and a spectator on its board
    game_id, ana, url = invited_game(server)
    ben = server.request("POST", url, {"name": "Ben"}).json["player_id"]
    players = {sheet(server, game_id, p)["stone_colour"]: p for p in (ana, ben)}
    black, white = players["black"], players["white"]
    moves = [(black, ["h8"]), (white, ["i9", "j10"]), (black, ["g7", "g9"]), (white, ["a1", "a2"])]
    for number, (who, stones) in enumerate(moves, start=1):
        play(server, game_id, who, number, stones)
    page.goto(f"{server.base_url}/v1/games/{game_id}/board")
    page.evaluate("window.__sameDocument = 'yes'")
    assert page.locator("#replay").is_visible()
    assert page.locator("#rp-at").inner_text() == "Move 4 of 4"
    assert page.locator("#rp-forward").is_disabled() and page.locator("#rp-last").is_disabled()

    # When they go to the first position (the empty board) and step forward
    page.click("#rp-first")
    assert page.locator("#rp-at").inner_text() == "Empty board (move 0 of 4)"
    assert page.locator("circle.stone:visible").count() == 0
    png = page.screenshot(path=str(screenshot_dir / "replay-empty.png"))
    image = check_screenshot(png, 900, 1100)
    assert is_wood(point_pixel(page, image, "h8")), "the empty board shows no stone on h8"
    page.click("#rp-forward")
    assert page.locator("#rp-at").inner_text() == "Move 1 of 4"
    assert stone_visible(page, "h8") and not stone_visible(page, "i9")
    # the last-move dot follows the move shown
    assert page.locator('circle.last-mark:visible').evaluate_all("m => m.map(e => e.dataset.point)") == ["h8"]
    # Then the keys step too: → to move 2, End to the latest, Home to the start, ← stays at 0
    page.locator("body").press("ArrowRight")
    assert page.locator("#rp-at").inner_text() == "Move 2 of 4"
    assert stone_visible(page, "j10") and not stone_visible(page, "g7")
    page.locator("body").press("End")
    assert page.locator("#rp-at").inner_text() == "Move 4 of 4" and stone_visible(page, "a2")
    page.locator("body").press("Home")
    assert page.locator("#rp-at").inner_text().startswith("Empty board")
    page.locator("body").press("ArrowLeft")
    assert page.locator("#rp-at").inner_text().startswith("Empty board")
    # And the slider goes to any move
    page.locator("#rp-slider").fill("3")
    assert page.locator("#rp-at").inner_text() == "Move 3 of 4"
    assert stone_visible(page, "g9") and not stone_visible(page, "a1")
    # And the stone numbers show on request
    assert page.locator("text.num:visible").count() == 0
    page.check("#rp-numbers")
    numbers = page.locator("text.num:visible").evaluate_all(
        "t => t.map(e => e.dataset.point + e.textContent)")
    assert sorted(numbers) == sorted(["h81", "i92", "j102", "g73", "g93"])
    png = page.screenshot(path=str(screenshot_dir / "replay-move3-numbers.png"))
    image = check_screenshot(png, 900, 1100)
    # pixels: h8 is a black stone with a white "1" near its centre; a1 (not yet played) is wood
    box = page.locator('circle.stone[data-point="h8"]').bounding_box()
    assert box is not None
    ring = image.getpixel((int(box["x"] + box["width"] * 0.2), int(box["y"] + box["height"] / 2)))
    assert luma(ring) < 80, ring
    mid_x, mid_y = int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] / 2)
    brightest = max(luma(image.getpixel((mid_x + dx, mid_y + dy)))
                    for dx in range(-4, 5) for dy in range(-6, 7))
    assert brightest > 180, "no white number on the stone"
    assert is_wood(point_pixel(page, image, "a1")), "a1 is not played yet at move 3"
    behind = page.locator("#rp-behind").inner_text()
    assert behind.startswith("You are looking at move 3; the game is at move 4.")
    # When the game moves on while they look at move 3
    play(server, game_id, black, 5, ["k11", "l12"])
    page.wait_for_selector("#rp-behind-text:has-text('moved on')", timeout=20_000)
    # Then they stay at move 3, told that the game moved on, in the same document
    assert page.evaluate("window.__sameDocument") == "yes"
    assert page.locator("#rp-at").inner_text() == "Move 3 of 5"
    assert page.locator("#rp-behind").inner_text().startswith("The game has moved on: move 5 is the latest.")
    assert not stone_visible(page, "k11") and stone_visible(page, "g9")
    assert page.locator("#rp-numbers").is_checked()
    png = page.screenshot(path=str(screenshot_dir / "replay-behind.png"))
    check_screenshot(png, 900, 1100)
    # And one click brings them to the latest move, which they then follow
    page.click("#rp-latest")
    assert page.locator("#rp-at").inner_text() == "Move 5 of 5" and stone_visible(page, "k11")
    assert page.locator("#rp-behind").is_hidden()
    play(server, game_id, white, 6, ["b1", "b2"])
    page.wait_for_selector('circle.stone[data-point="b2"]', state="visible", timeout=20_000)
    assert page.locator("#rp-at").inner_text() == "Move 6 of 6"


def test_replay_controls_fit_a_phone(server, browser, screenshot_dir):
    game_id, ana, url = invited_game(server)
    ben = server.request("POST", url, {"name": "Ben"}).json["player_id"]
    black = next(p for p in (ana, ben) if sheet(server, game_id, p)["stone_colour"] == "black")
    play(server, game_id, black, 1, ["h8"])
    with phone_page(browser) as phone:
        phone.goto(f"{server.base_url}/v1/games/{game_id}/board")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        for control in ("#rp-first", "#rp-back", "#rp-forward", "#rp-last", "#rp-slider"):
            box = phone.locator(control).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, control
            assert box["height"] >= 24, control
        phone.locator("#rp-back").tap()
        assert phone.locator("#rp-at").inner_text().startswith("Empty board")
        png = phone.screenshot(path=str(screenshot_dir / "replay-phone.png"), full_page=True)
        image = Image.open(io.BytesIO(png))
        assert image.size[0] == 780
