"""Issue 11 through the handlers on moto: replay (the moves route, the board after move N) and
the page fixes (HTML 404 for browsers, Accept quality values, the accepted invitation's page)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import parse_qsl

from connect6.api import runtime
from tests.integration.harness import Api, FakeContext, handler_module, http_event

RUN = "/v1/games/run-42"
BEN_INVITE = {"kind": "invite", "name": "Ben", "email": "ben@example.com"}
SVG_NS = "{http://www.w3.org/2000/svg}"


def get_with_query(api: Api, path: str, query: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """A GET with a query string, as API Gateway sends it (the harness's Api has no query)."""
    route, params = api.route("GET", path)
    event = http_event("GET", path, route, params, headers=headers, query=query)
    event["queryStringParameters"] = dict(parse_qsl(query))
    result: dict[str, Any] = handler_module(route.function).lambda_handler(event, FakeContext())
    return result


def started_game(api: Api) -> tuple[str, str, str]:
    """Ana (Black) and Ben (White) through an invitation: (Ana's id, Ben's id, the invite path)."""
    runtime.configure(colour_draw=lambda game: 1)
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": BEN_INVITE})
    path = joined.json["invite"]["url"].removeprefix("https://api.example.test")
    ben = api.post(path, {"name": "Ben"}).json["player_id"]
    return joined.json["player_id"], ben, path


def play(api: Api, player: str, number: int, stones: list[str]) -> None:
    reply = api.post(f"{RUN}/players/{player}/moves", {"move_number": number, "stones": stones})
    assert reply.status == 200, reply.text


def stones_in(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {c.get("data-point") or "" for c in root.iter(f"{SVG_NS}circle")
            if "stone" in (c.get("class") or "").split()}


def test_the_moves_route_replays_the_game_and_shows_nothing_private(api: Api) -> None:
    # Given a game of three moves
    ana, ben, _ = started_game(api)
    play(api, ana, 1, ["h8"])
    play(api, ben, 2, ["i9", "j10"])
    play(api, ana, 3, ["g7", "g9"])
    # When anyone asks for its moves
    reply = api.get(f"{RUN}/moves")
    # Then they get every move with its colour and stones, and the record
    assert reply.status == 200 and reply.headers["content-type"].startswith("application/json")
    assert reply.json == {"game_id": "run-42", "board_size": 15, "record": "1.h8 2.i9j10 3.g7g9", "moves": [
        {"move_number": 1, "colour": "black", "stones": ["h8"]},
        {"move_number": 2, "colour": "white", "stones": ["i9", "j10"]},
        {"move_number": 3, "colour": "black", "stones": ["g7", "g9"]}]}
    # And no e-mail, token or player id
    for secret in ("ana@example.com", "ben@example.com", ana, ben, "player_id", "email"):
        assert secret not in reply.text
    # And it is conditional like the board
    assert api.get(f"{RUN}/moves", headers={"If-None-Match": reply.headers["etag"]}).status == 304
    play(api, ben, 4, ["a1", "a2"])
    assert api.get(f"{RUN}/moves", headers={"If-None-Match": reply.headers["etag"]}).status == 200


def test_unknown_game_moves_are_404(api: Api) -> None:
    reply = api.get("/v1/games/no-such-game/moves")
    assert reply.status == 404 and reply.error["code"] == "game_not_found"


def test_board_svg_after_move_n(api: Api) -> None:
    # Given a game of three moves
    ana, ben, _ = started_game(api)
    play(api, ana, 1, ["h8"])
    play(api, ben, 2, ["i9", "j10"])
    play(api, ana, 3, ["g7", "g9"])
    # Then move 0 is the empty board, move 2 has the first two moves, move 3 is the board now
    assert stones_in(get_with_query(api, f"{RUN}/board.svg", "move=0")["body"]) == set()
    after_two = get_with_query(api, f"{RUN}/board.svg", "move=2")
    assert after_two["statusCode"] == 200 and after_two["headers"]["Content-Type"] == "image/svg+xml"
    assert stones_in(after_two["body"]) == {"h8", "i9", "j10"}
    root = ET.fromstring(after_two["body"])
    assert {c.get("data-point") for c in root.iter(f"{SVG_NS}circle")
            if c.get("class") == "last-mark"} == {"i9", "j10"}
    assert get_with_query(api, f"{RUN}/board.svg", "move=3")["body"] == api.get(f"{RUN}/board.svg").text
    # And a move the game has not reached is a clear 404; a negative or non-number move a 422
    beyond = get_with_query(api, f"{RUN}/board.svg", "move=4")
    assert beyond["statusCode"] == 404
    assert json.loads(beyond["body"])["error"]["code"] == "move_not_found"
    assert "has 3 moves" in json.loads(beyond["body"])["error"]["message"]
    for bad in ("move=-1", "move=two"):
        refused = get_with_query(api, f"{RUN}/board.svg", bad)
        assert refused["statusCode"] == 422, bad
        assert json.loads(refused["body"])["error"]["field"] == "move"


def test_a_browser_opening_an_unknown_game_gets_a_page(api: Api) -> None:
    page = api.get("/v1/games/no-such-game/board", headers={"Accept": "text/html,*/*;q=0.8"})
    assert page.status == 404 and page.headers["content-type"].startswith("text/html")
    assert "can't find this game" in page.text and "no-such-game" in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    plain = api.get("/v1/games/no-such-game/board")
    assert plain.status == 404 and plain.error["code"] == "game_not_found"


def test_accept_quality_values_are_honoured(api: Api) -> None:
    started_game(api)
    cases = {
        "text/html;q=0.1, application/json": "application/json",
        "application/json;q=0.2, text/html": "text/html",
        "text/html, application/json": "text/html",
        "application/json, text/html": "application/json",
        "text/html;q=0": "application/json",
        "*/*": "application/json",
    }
    for accept, expected in cases.items():
        reply = api.get(f"{RUN}/board", headers={"Accept": accept})
        assert reply.headers["content-type"].startswith(expected), accept
    # The invitation link (HTML by default) honours them too
    _, _, path = started_game_again(api)
    assert api.get(path, headers={"Accept": "text/html;q=0.1, application/json"}) \
        .headers["content-type"].startswith("application/json")


def started_game_again(api: Api) -> tuple[str, str, str]:
    """A second run with a pending invitation: (run path, Ana's id, the invite path)."""
    api.put("/v1/games/run-43", {"game_name": "Monday club", "allow_computer_opponents": True})
    joined = api.post("/v1/games/run-43/players", {"name": "Ana", "email": "ana@example.com",
                                                     "opponent": BEN_INVITE})
    return "/v1/games/run-43", joined.json["player_id"], \
        joined.json["invite"]["url"].removeprefix("https://api.example.test")


def test_an_accepted_invitation_shows_the_seat_not_an_error(api: Api) -> None:
    # Given Ben accepted his invitation in a browser (Ana plays Black: her turn)
    runtime.configure(colour_draw=lambda game: 1)
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": BEN_INVITE})
    path = joined.json["invite"]["url"].removeprefix("https://api.example.test")
    done = api.post(path, form={"name": "Benjamin"}, headers={"Accept": "text/html"})
    assert done.status == 303
    # When the browser follows the redirect (and when it reloads)
    for _ in range(2):
        landed = get_with_query(api, path, "accepted=1", {"Accept": "text/html"})
        # Then it sees him seated with his colour, not "already used"
        assert landed["statusCode"] == 200
        body = landed["body"]
        assert "You&#x27;re in, Benjamin!" in body and "already" not in body
        assert '<strong id="colour">White</strong>' in body and "Sunday club" in body
        assert body.count("is yours") == 0
        # (v1.2: the page has his play link, so it sends him there rather than to the platform's sheet)
        assert "Press Play now: your page follows the game and shows your move sheet when it is your turn." \
            in body
        assert 'id="play-now" href="../play/' in body
    # And the link opened later says who accepted it
    later = api.get(path, headers={"Accept": "text/html"})
    assert later.status == 200 and "Benjamin accepted this invitation" in later.text
    # And nothing secret is on it
    for secret in ("ben@example.com", "ana@example.com", joined.json["player_id"]):
        assert secret not in later.text
    # And JSON clients still get the contract's 409
    used = api.get(path, headers={"Accept": "application/json"})
    assert used.status == 409 and used.error["code"] == "invite_already_used"
    # And when it is his turn the page says so
    play(api, joined.json["player_id"], 1, ["h8"])
    now = get_with_query(api, path, "accepted=1", {"Accept": "text/html"})["body"]
    assert "It&#x27;s your turn now: move 2, 2 stones." in now


def test_the_board_page_carries_the_replay(api: Api) -> None:
    ana, ben, _ = started_game(api)
    play(api, ana, 1, ["h8"])
    play(api, ben, 2, ["i9", "j10"])
    page = api.get(f"{RUN}/board", headers={"Accept": "text/html"}).text
    for control in ("rp-first", "rp-back", "rp-forward", "rp-last", "rp-slider", "rp-numbers"):
        assert f'id="{control}"' in page
    assert 'data-point="h8" data-move="1"' in page and 'data-point="j10" data-move="2"' in page
    assert 'rel="icon"' in page


def test_a_form_that_asks_for_json_gets_json(api: Api) -> None:
    # Accept decides for forms too: a page (303 on to it) unless JSON is preferred
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": BEN_INVITE})
    path = joined.json["invite"]["url"].removeprefix("https://api.example.test")
    reply = api.post(path, form={"name": "Ben"}, headers={"Accept": "text/html;q=0.5, application/json"})
    assert reply.status == 201 and reply.headers["content-type"].startswith("application/json")
    assert reply.json["game"]["status"] == "in_progress"
