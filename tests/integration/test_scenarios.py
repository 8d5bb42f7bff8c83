"""Whole games through the handlers on moto: the contract's stories end to end."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from connect6.ai import choose_move
from connect6.api import runtime
from connect6.game import Game, Kind, Seat, SeatState, Status
from connect6.game.model import Turn
from connect6.records import parse_label, point_label, split_labels
from connect6.rules import Colour, Position
from tests.clock import Clock
from tests.integration.conftest import Published
from tests.integration.harness import NOTHING_SWEPT, Api, FakeContext, handler_module, scheduled_functions
from tests.unit.game.test_moves import draw_turns

RUN = "/v1/games/run-42"
BEN_INVITE = {"kind": "invite", "name": "Ben", "email": "ben@example.com"}


def _human_stones(sheet: dict[str, Any], rng: random.Random) -> list[str]:
    """The 'human' side: rebuild the position from the sheet's board and ask the easy engine."""
    size = sheet["board_size"]
    position = _position_from_board(sheet["board"], sheet["move_number"])
    stones = choose_move(position, "easy", budget_s=0.01, rng=rng)
    return [point_label(p, size) for p in stones]


def _position_from_board(board: list[str], move_number: int) -> Position:
    """A position with the board's stones, Black and White alternating turns as the rules need."""
    size = len(board)
    cells = [((size - 1 - r) * size + c, ch) for r, row in enumerate(board) for c, ch in enumerate(row)]
    black = [p for p, ch in cells if ch == "B"]
    white = [p for p, ch in cells if ch == "W"]
    turns: list[list[int]] = [[black.pop(0)]] if black else []
    while black or white:
        side = white if len(turns) % 2 else black
        turns.append([side.pop(0) for _ in range(min(2, len(side)))])
    position = Position(size)
    for stones in turns:
        position.play(stones)
    assert position.turn_number == move_number
    return position


def _play_out(api: Api, player: str, expect_colour: str) -> dict[str, Any]:
    rng = random.Random(7)
    last: dict[str, Any] = {}
    for _ in range(120):
        sheet = api.get(f"{RUN}/players/{player}/move-sheet").json
        assert sheet["stone_colour"] == expect_colour
        if sheet["status"] != "in_progress":
            return last
        assert sheet["your_turn"], sheet
        reply = api.post(f"{RUN}/players/{player}/moves",
                         {"move_number": sheet["move_number"], "stones": _human_stones(sheet, rng)})
        assert reply.status == 200, reply.text
        last = reply.json
        if last["status"] == "in_progress":
            assert last["computer_reply"] is not None
            assert last["next"] == {"player_id": player, "move_number": sheet["move_number"] + 2}
    raise AssertionError("the game did not end")


def _check_recap(api: Api, player: str, last: dict[str, Any]) -> dict[str, Any]:
    recap = api.get(f"{RUN}/players/{player}/recap")
    assert recap.status == 200, recap.text
    data = recap.json
    # The record replays through the rules to the recap's board
    position = Position(15)
    for entry in data["record"].split():
        _number, _, stones = entry.partition(".")
        points = [parse_label(s, 15) for s in split_labels(stones)]
        if position.stones_to_place == 2 and len(points) == 1:
            break  # a winning first stone: nothing follows
        position.play(points)
    assert data["move_count"] == len(data["record"].split())
    assert data["status"] == last["status"]
    return dict(data)


@pytest.mark.parametrize(("black_seat", "colour"), [(1, "black"), (2, "white")])
def test_human_against_the_computer_to_the_end(api: Api, aws: Published, black_seat: int,
                                               colour: str) -> None:
    # Given the draw gives the human (seat 1) Black, or the computer (seat 2) Black
    runtime.configure(colour_draw=lambda game: black_seat)
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "computer", "level": "easy"}})
    assert joined.status == 201
    game = joined.json["game"]
    assert game["status"] == "in_progress"
    ana = joined.json["player_id"]
    if colour == "white":
        # The computer played Black's opening before the response returned
        assert game["move_count"] == 1 and game["to_move"]["name"] == "Ana"
    # When Ana plays until the game ends
    last = _play_out(api, ana, colour)
    # Then it ended properly and the recap agrees
    assert last["status"] in ("completed", "draw")
    recap = _check_recap(api, ana, last)
    if last["winner"] is not None:
        assert recap["result"] == ("won" if last["winner"]["colour"] == colour else "lost")
        assert len(recap["winning_line"]) >= 6
    assert len(aws.of_type("game_finished")) == 1


def test_two_humans_through_an_invitation(api: Api, aws: Published) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "invite", "name": "Ben",
                                                      "email": "ben@example.com", "note": "Rematch?"}})
    assert joined.status == 201
    invite = joined.json["invite"]
    assert invite["url"].startswith("https://api.example.test/v1/invites/")
    path = invite["url"].removeprefix("https://api.example.test")
    # The link shows who invites, the note, the hold; JSON for a client that asks for it
    info = api.get(path, headers={"Accept": "application/json"})
    assert info.status == 200 and info.json["inviter_name"] == "Ana" and info.json["note"] == "Rematch?"
    assert info.json["expires_at"] == invite["expires_at"]
    redeemed = api.post(path, {"name": "Benjamin"}, headers={"Accept": "application/json"})
    assert redeemed.status == 201
    ben = redeemed.json["player_id"]
    assert redeemed.json["game"]["status"] == "in_progress"
    ana = joined.json["player_id"]
    assert aws.of_type("invite_redeemed")[0]["name"] == "Benjamin"
    # They play: Black (Ana, seat 1) makes six on the 8th row
    black = [["c8"], ["d8", "e8"], ["f8", "g8"], ["h8", "i8"]]
    white = [["c1", "d1"], ["f1", "g1"], ["a15", "b15"]]
    number = 1
    for turn in range(4):
        reply = api.post(f"{RUN}/players/{ana}/moves", {"move_number": number, "stones": black[turn]})
        assert reply.status == 200, reply.text
        number += 1
        if reply.json["status"] != "in_progress":
            break
        answer = api.post(f"{RUN}/players/{ben}/moves", {"move_number": number, "stones": white[turn]})
        assert answer.status == 200
        number += 1
    assert reply.json["winner"] == {"colour": "black", "name": "Ana"}
    assert api.get(f"{RUN}/players/{ben}/recap").json["result"] == "lost"
    record = api.get(f"{RUN}/players/{ana}/recap").json["record"]
    assert record == "1.c8 2.c1d1 3.d8e8 4.f1g1 5.f8g8 6.a15b15 7.h8"


def test_the_invite_pages_for_browsers(api: Api) -> None:
    pytest.importorskip("connect6.pages")
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": BEN_INVITE})
    path = joined.json["invite"]["url"].removeprefix("https://api.example.test")
    page = api.get(path, headers={"Accept": "text/html"})
    assert page.status == 200 and page.headers["content-type"].startswith("text/html") and "Ana" in page.text
    # A form post redeems and sends the browser on to the invitation's page (POST-redirect-GET)
    done = api.post(path, form={"name": "Ben"}, headers={"Accept": "text/html"})
    assert done.status == 303 and done.headers["content-type"].startswith("text/html")
    assert done.headers["location"] == path + "?accepted=1"
    again = api.post(path, form={"name": "Ben"})
    assert again.status == 409 and again.headers["content-type"].startswith("text/html")
    board = api.get(f"{RUN}/board", headers={"Accept": "text/html"})
    assert board.status == 200 and board.headers["content-type"].startswith("text/html")
    # Every page forbids anything but its own inline code (the e2e tests run the pages under it)
    for html in (page, done, again, board):
        assert "default-src 'none'" in html.headers["content-security-policy"]
    svg = api.get(f"{RUN}/board.svg")
    assert svg.status == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert api.get(f"{RUN}/board.svg", headers={"If-None-Match": svg.headers["etag"]}).status == 304


def test_an_expired_invitation(api: Api, aws: Published) -> None:
    clock = Clock()
    runtime.configure(clock=clock, colour_draw=lambda game: 1)
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": BEN_INVITE})
    path = joined.json["invite"]["url"].removeprefix("https://api.example.test")
    assert api.get(f"{RUN}/join-sheet").json["open_seats"] == 0
    # When the 24-hour hold runs out (the clock moves; nothing sleeps)
    clock.now += timedelta(hours=24)
    # Then the seat is free at once, before any sweeper, and the link says expired
    assert api.get(f"{RUN}/join-sheet").json["open_seats"] == 1
    assert api.get(f"{RUN}/board").json["seats"][1]["state"] == "open"
    for reply in (api.get(path, headers={"Accept": "application/json"}), api.post(path, {})):
        assert reply.status == 410 and reply.error["code"] == "invite_expired"
    # And the scheduled sweeper releases it for good, once
    (function,) = scheduled_functions()
    sweeper = handler_module(function)
    schedule = {"source": "aws.scheduler"}
    assert sweeper.lambda_handler(schedule, FakeContext()) == {**NOTHING_SWEPT, "released": 1}
    assert sweeper.lambda_handler(schedule, FakeContext()) == NOTHING_SWEPT
    assert aws.of_type("invite_expired")[0]["invitee_name"] == "Ben"
    # A newcomer takes the seat and the game starts
    cy = api.post(f"{RUN}/players", {"name": "Cy", "email": "cy@example.com"})
    assert cy.status == 201 and cy.json["game"]["status"] == "in_progress"
    assert api.post(path, {}).json["error"]["code"] == "invite_expired"


def test_a_pair_that_wins_on_its_first_stone(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    ana = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    turns = [["c8"], ["a1", "a2"], ["d8", "e8"], ["a3", "a4"], ["f8", "g8"], ["a6", "a7"]]
    for number, stones in enumerate(turns, start=1):
        player = ana if number % 2 else ben
        answer = api.post(f"{RUN}/players/{player}/moves", {"move_number": number, "stones": stones})
        assert answer.status == 200
    reply = api.post(f"{RUN}/players/{ana}/moves", {"move_number": 7, "stones": ["h8", "o1"]})
    assert reply.status == 200
    assert reply.json["stones_placed"] == ["h8"] and reply.json["status"] == "completed"
    assert reply.json["winning_line"] == ["c8", "d8", "e8", "f8", "g8", "h8"]
    board = api.get(f"{RUN}/board").json
    assert board["stones_placed"] == 12 and board["board"][14][14] == "."
    assert board["winner"] == {"colour": "black", "name": "Ana"}


def test_a_draw_on_a_full_board_from_a_prepared_position(api: Api, aws: Published) -> None:
    # Given a game one turn short of a full 15x15 board with no six anywhere, written as the
    # service stores games
    turns = draw_turns(15)
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    seats = [Seat(1, SeatState.TAKEN, "Ana", "ana@example.com", Kind.HUMAN, "pl-ana-00000000000000001",
                  colour=Colour.BLACK, joined_at=now),
             Seat(2, SeatState.TAKEN, "Ben", "ben@example.com", Kind.HUMAN, "pl-ben-00000000000000002",
                  colour=Colour.WHITE, joined_at=now)]
    game = Game(game_id="run-42", game_name="Full board", allow_computer=False, created_at=now,
                status=Status.IN_PROGRESS, version=1, seats=seats, started_at=now, updated_at=now,
                turns=[Turn(stones=stones, at=now) for stones in turns[:-1]])
    runtime.service().repo.create_game(game)
    sheet = api.get(f"{RUN}/players/pl-ana-00000000000000001/move-sheet").json
    assert sheet["your_turn"] and sheet["move_number"] == len(turns) and sheet["stones_to_place"] == 2
    # When Black fills the last two points
    reply = api.post(f"{RUN}/players/pl-ana-00000000000000001/moves",
                     {"move_number": len(turns), "stones": turns[-1]})
    # Then the game is a draw
    assert reply.status == 200, reply.text
    assert reply.json["status"] == "draw" and reply.json["winner"] is None and reply.json["next"] is None
    view = api.get(f"{RUN}/board").json
    assert view["status"] == "draw" and view["stones_placed"] == 225 and "." not in "".join(view["board"])
    recap = api.get(f"{RUN}/players/pl-ben-00000000000000002/recap").json
    assert recap["result"] == "draw" and recap["move_count"] == 113
    assert aws.of_type("game_finished")[0]["status"] == "draw"
