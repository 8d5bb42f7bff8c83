"""Undo, hints, draw offers with a move and the recap's new fields, through the handlers on moto
(the table built from template.yaml), with Idempotency-Key replays and the events that reach the bus."""

from __future__ import annotations

from typing import Any

import boto3

from connect6.api import runtime
from tests.integration.conftest import Published
from tests.integration.harness import REGION, TEST_TABLE, Api

RUN = "/v1/games/run-42"


def _game_item() -> dict[str, Any]:
    table = boto3.resource("dynamodb", region_name=REGION).Table(TEST_TABLE)
    return dict(table.get_item(Key={"pk": "GAME#run-42", "sk": "GAME"})["Item"])


def _against_computer(api: Api) -> str:
    assert api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True}).status == 201
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                         "opponent": {"kind": "computer", "level": "easy"}})
    assert joined.status == 201
    return str(joined.json["player_id"])


def _two_humans(api: Api) -> tuple[str, str]:
    assert api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True}).status == 201
    ana = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    return ana, ben


def _free_points(api: Api, player: str) -> list[str]:
    """Two empty points of the bottom row, read from the player's move sheet."""
    board = api.get(f"{RUN}/players/{player}/move-sheet").json["board"]
    bottom = board[-1]
    return [f"{chr(ord('a') + col)}1" for col, mark in enumerate(bottom) if mark == "."][:2]


def test_undo_through_the_handler_once_per_key(api: Api, aws: Published) -> None:
    # Given Ana (Black) played two turns against the computer
    ana = _against_computer(api)
    assert api.post(f"{RUN}/players/{ana}/undo").error["code"] == "nothing_to_undo"
    assert api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]}).status == 200
    third = _free_points(api, ana)
    assert api.post(f"{RUN}/players/{ana}/moves", {"move_number": 3, "stones": third}).status == 200
    # When she takes it back with an Idempotency-Key, and the platform retries the same request
    first = api.post(f"{RUN}/players/{ana}/undo", headers={"Idempotency-Key": "undo-1"})
    again = api.post(f"{RUN}/players/{ana}/undo", headers={"Idempotency-Key": "undo-1"})
    # Then the answer names her move 3 and the reply 4, and the retry is that answer, not a second undo
    assert first.status == 200
    undone = first.json["undone"]
    assert [u["move_number"] for u in undone] == [4, 3] and undone[1]["stones"] == third
    assert first.json["undos_left"] == 2 and first.json["game"]["move_count"] == 2
    assert (again.status, again.text) == (200, first.text)
    assert again.headers.get("idempotent-replayed") == "true"
    assert api.get(f"{RUN}/board").json["move_count"] == 2
    # And the platform heard it once, and whose turn it is
    (event,) = aws.of_type("move_undone")
    assert {k: event[k] for k in ("game_id", "player_id", "move_number")} == {
        "game_id": "run-42", "player_id": ana, "move_number": 3}
    assert aws.of_type("turn_ready")[-1]["move_number"] == 3
    # And the recap counts it
    assert api.post(f"{RUN}/players/{ana}/resign").status == 200
    recap = api.get(f"{RUN}/players/{ana}/recap").json
    assert recap["undos_used"] == 1 and recap["hints_used"] == 0
    assert recap["opponent"] == {"name": "Computer (easy)", "kind": "computer"}
    assert recap["table_talk_received"]["phrase_id"] == "thanks"


def test_undo_refusals_are_409_and_change_nothing(api: Api) -> None:
    ana = _against_computer(api)
    for _ in range(3):
        assert api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]}).status == 200
        assert api.post(f"{RUN}/players/{ana}/undo").status == 200
    assert api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]}).status == 200
    before = _game_item()
    limit = api.post(f"{RUN}/players/{ana}/undo")
    assert (limit.status, limit.error["code"]) == (409, "undo_limit_reached")
    assert _game_item() == before
    api.post(f"{RUN}/players/{ana}/resign")
    assert api.post(f"{RUN}/players/{ana}/undo").error["code"] == "game_over"


def test_no_undo_and_no_hint_between_humans(api: Api) -> None:
    ana, ben = _two_humans(api)
    api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]})
    before = _game_item()
    for player in (ana, ben):
        undo = api.post(f"{RUN}/players/{player}/undo")
        assert (undo.status, undo.error["code"]) == (409, "undo_not_allowed")
        hint = api.get(f"{RUN}/players/{player}/hint")
        assert (hint.status, hint.error["code"]) == (409, "hints_not_allowed")
    assert _game_item() == before


def test_a_hint_against_the_computer_is_counted(api: Api, aws: Published) -> None:
    ana = _against_computer(api)
    published = len(aws.drain())
    before = _game_item()
    hint = api.get(f"{RUN}/players/{ana}/hint")
    assert hint.status == 200 and hint.json["move_number"] == 1
    after = _game_item()
    # Only the counter and the version the conditional write needs changed (a write without events
    # carries no outbox: the join's events are not sent again); nothing went out
    changed = {k for k in after.keys() | before.keys() if after.get(k) != before.get(k)}
    assert changed == {"hints_used", "hint_move", "version", "outbox"}
    assert len(aws.drain()) == published
    api.post(f"{RUN}/players/{ana}/resign")
    assert api.get(f"{RUN}/players/{ana}/recap").json["hints_used"] == 1


def test_a_draw_offered_with_a_move_once_per_key(api: Api, aws: Published) -> None:
    ana, ben = _two_humans(api)
    body = {"move_number": 1, "stones": ["h8"], "offer_draw": True}
    first = api.post(f"{RUN}/players/{ana}/moves", body, headers={"Idempotency-Key": "move-1"})
    again = api.post(f"{RUN}/players/{ana}/moves", body, headers={"Idempotency-Key": "move-1"})
    assert first.status == 200 and first.json["draw_offer"] == {"answer": "pending", "by": None}
    assert (again.text, again.headers.get("idempotent-replayed")) == (first.text, "true")
    assert api.get(f"{RUN}/players/{ben}/move-sheet").json["draw_offered_by_opponent"] is True
    offers = aws.of_type("draw_offered")
    assert len(offers) == 1
    assert {k: offers[0][k] for k in ("game_id", "player_id", "move_number")} == {
        "game_id": "run-42", "player_id": ben, "move_number": 1}
    # When Ben accepts, the game is drawn and the recap says so
    accepted = api.post(f"{RUN}/players/{ben}/draw", {"action": "accept"})
    assert accepted.json["status"] == "draw" and accepted.json["end_reason"] == "agreed"
    recap = api.get(f"{RUN}/players/{ana}/recap").json
    assert recap["result"] == "draw" and recap["opponent"] == {"name": "Ben", "kind": "human"}


def test_the_computer_answers_an_offer_at_once(api: Api, aws: Published) -> None:
    # The real judge: before both sides have played nothing is level, so it declines and replies
    ana = _against_computer(api)
    body = {"move_number": 1, "stones": ["h8"], "offer_draw": True}
    declined = api.post(f"{RUN}/players/{ana}/moves", body)
    assert declined.json["draw_offer"] == {"answer": "declined", "by": "computer"}
    assert declined.json["computer_reply"]["move_number"] == 2
    assert aws.of_type("draw_offered") == []


def test_the_computer_accepting_ends_the_game_as_a_draw(api: Api, aws: Published) -> None:
    runtime.configure(colour_draw=lambda game: 1, draw_judge=lambda position, level: True)
    ana = _against_computer(api)
    body = {"move_number": 1, "stones": ["h8"], "offer_draw": True}
    first = api.post(f"{RUN}/players/{ana}/moves", body, headers={"Idempotency-Key": "m1"})
    assert first.json["draw_offer"] == {"answer": "accepted", "by": "computer"}
    assert first.json["status"] == "draw" and first.json["computer_reply"] is None
    assert api.post(f"{RUN}/players/{ana}/moves", body).text == first.text  # the re-sent-move rule
    assert aws.of_type("game_finished")[0]["end_reason"] == "agreed"
    recap = api.get(f"{RUN}/players/{ana}/recap").json
    assert recap["result"] == "draw"
    assert recap["table_talk_received"] == {"phrase_id": "thanks", "text": "Thanks for the game!",
                                            "from": "Computer (easy)"}
