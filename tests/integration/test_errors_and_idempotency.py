"""Every error code of the contract, driven through the handlers, in the contract's shape; and
Idempotency-Key on join and moves."""

from __future__ import annotations

from datetime import timedelta

import boto3

from connect6.api import runtime
from tests.clock import Clock
from tests.integration.harness import REGION, TEST_TABLE, Api

RUN = "/v1/games/run-42"


def _expect(reply, status: int, code: str, field: str | None = "-") -> None:  # type: ignore[no-untyped-def]
    assert reply.status == status, reply.text
    assert reply.headers["content-type"].startswith("application/json")
    error = reply.error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"].endswith((".", "!"))
    if field != "-":
        assert error["field"] == field


def _items() -> list[dict]:
    return boto3.client("dynamodb", region_name=REGION).scan(TableName=TEST_TABLE)["Items"]


def test_every_error_code_of_the_contract(api: Api) -> None:
    clock = Clock()
    runtime.configure(clock=clock, colour_draw=lambda game: 1)
    # runs
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    _expect(api.put(RUN, {"game_name": "Other", "allow_computer_opponents": True}), 409, "conflict")
    _expect(api.get("/v1/games/none/join-sheet"), 404, "game_not_found")
    api.put("/v1/games/humans", {"game_name": "Humans only", "allow_computer_opponents": False})
    _expect(api.post("/v1/games/humans/players", {"name": "Ana", "email": "ana@example.com",
                                                  "opponent": {"kind": "computer"}}),
            422, "opponent_not_allowed", "opponent")
    # joining
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com"})
    ana = joined.json["player_id"]
    _expect(api.post(f"{RUN}/players/{ana}/moves", {"move_number": 1, "stones": ["h8"]}),
            409, "game_not_started")
    _expect(api.post(f"{RUN}/players", {"name": "Ana", "email": "ANA@example.com"}), 409, "already_joined")
    _expect(api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com",
                                        "opponent": {"kind": "computer", "level": "easy"}}),
            422, "opponent_not_allowed")
    ben = api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    _expect(api.post(f"{RUN}/players", {"name": "Cy", "email": "cy@example.com"}), 409, "no_open_seat")
    # moves
    moves = f"{RUN}/players/{{}}/moves"
    assert api.post(moves.format(ana), {"move_number": 1, "stones": ["h8"]}).status == 200
    _expect(api.post(moves.format(ana), {"move_number": 2, "stones": ["a1", "a2"]}), 409, "not_your_turn")
    _expect(api.post(moves.format(ben), {"move_number": 1, "stones": ["a1", "a2"]}), 409, "stale_move",
            "move_number")
    _expect(api.post(moves.format(ben), {"move_number": 3, "stones": ["a1", "a2"]}), 409, "stale_move")
    _expect(api.post(moves.format(ben), {"move_number": 2, "stones": ["h8", "a2"]}), 422, "illegal_move",
            "stones[0]")
    taken = api.post(moves.format(ben), {"move_number": 2, "stones": ["h8", "a2"]})
    assert taken.error["message"] == "h8 is already taken."
    _expect(api.post(moves.format(ben), {"move_number": 2, "stones": ["a2", "a2"]}), 422, "illegal_move",
            "stones[1]")
    _expect(api.post(moves.format(ben), {"move_number": 2, "stones": ["a2", "p16"]}), 422, "illegal_move",
            "stones[1]")
    _expect(api.post(moves.format(ben), {"move_number": 2, "stones": ["a2"]}), 422, "illegal_move", "stones")
    _expect(api.post(moves.format(ben), {"move_number": 2, "stones": ["a1", "a2"], "table_talk": "gg_noob"}),
            422, "unknown_phrase", "table_talk")
    _expect(api.get(f"{RUN}/players/nobody/move-sheet"), 404, "player_not_found")
    _expect(api.get(f"{RUN}/players/{ana}/recap"), 409, "game_not_finished")
    assert api.post(f"{RUN}/players/{ben}/resign").status == 200
    _expect(api.post(moves.format(ana), {"move_number": 2, "stones": ["a1", "a2"]}), 409, "game_over")
    # invitations
    api.put("/v1/games/inv", {"game_name": "Invites", "allow_computer_opponents": True})
    invited = api.post("/v1/games/inv/players", {"name": "Ana", "email": "ana@example.com",
                                                 "opponent": {"kind": "invite", "name": "Ben",
                                                              "email": "ben@example.com"}})
    path = invited.json["invite"]["url"].removeprefix("https://api.example.test")
    _expect(api.post("/v1/invites/no-such-token", {}), 404, "invite_not_found")
    _expect(api.get("/v1/invites/no-such-token", headers={"Accept": "application/json"}),
            404, "invite_not_found")
    assert api.post(path, {}).status == 201
    _expect(api.post(path, {}), 409, "invite_already_used")
    api.put("/v1/games/inv2", {"game_name": "Invites 2", "allow_computer_opponents": True})
    invited = api.post("/v1/games/inv2/players", {"name": "Ana", "email": "ana@example.com",
                                                  "opponent": {"kind": "invite", "name": "Ben",
                                                               "email": "ben@example.com"}})
    path = invited.json["invite"]["url"].removeprefix("https://api.example.test")
    clock.now += timedelta(days=1, seconds=1)
    _expect(api.post(path, {}), 410, "invite_expired")
    # request shape
    _expect(api.post(moves.format(ben), {"stones": []}), 422, "invalid_request", "move_number")


def test_a_rejected_request_changes_nothing(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    ana = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com"})
    before = _items()
    for body in ({"move_number": 1, "stones": ["h8", "h9"]}, {"move_number": 2, "stones": ["h8"]},
                 {"move_number": 1, "stones": ["zz"]},
                 {"move_number": 1, "stones": ["h8"], "table_talk": "x"}):
        assert 400 <= api.post(f"{RUN}/players/{ana}/moves", body).status < 500
    assert _items() == before


def test_join_with_an_idempotency_key_is_applied_once(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    body = {"name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": "easy"}}
    first = api.post(f"{RUN}/players", body, headers={"Idempotency-Key": "k-1"})
    assert first.status == 201
    again = api.post(f"{RUN}/players", body, headers={"Idempotency-Key": "k-1"})
    assert (again.status, again.text) == (201, first.text)
    assert again.headers.get("idempotent-replayed") == "true"
    # Without the key the same request is a second join: refused
    assert api.post(f"{RUN}/players", body).error["code"] == "already_joined"
    # The same key with another body is refused, and changes nothing
    cy = {"name": "Cy", "email": "cy@example.com"}
    other = api.post(f"{RUN}/players", cy, headers={"Idempotency-Key": "k-1"})
    assert (other.status, other.error["code"]) == (422, "idempotency_key_reused")
    # A refusal is not stored (only successes are): the retry runs again and is refused the same way
    refused = api.post(f"{RUN}/players", cy, headers={"Idempotency-Key": "k-2"})
    assert refused.status == 409
    assert api.post(f"{RUN}/players", cy, headers={"Idempotency-Key": "k-2"}).text == refused.text


def test_a_move_resent_returns_the_same_200_and_changes_nothing(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    ana = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                      "opponent": {"kind": "computer", "level": "easy"}}).json["player_id"]
    body = {"move_number": 1, "stones": ["h8"], "table_talk": "have_fun"}
    first = api.post(f"{RUN}/players/{ana}/moves", body, headers={"Idempotency-Key": "m-1"})
    assert first.status == 200 and first.json["computer_reply"] is not None
    state = _items()
    # With the key, and without it (the move itself is recognised), the response is the same
    assert api.post(f"{RUN}/players/{ana}/moves", body, headers={"Idempotency-Key": "m-1"}).text == first.text
    plain = api.post(f"{RUN}/players/{ana}/moves", body)
    assert plain.status == 200 and plain.json == first.json
    assert [i for i in _items() if i["pk"]["S"] != "IDEMPOTENCY"] == \
        [i for i in state if i["pk"]["S"] != "IDEMPOTENCY"]
    bad_key = api.post(f"{RUN}/players/{ana}/moves", body, headers={"Idempotency-Key": "x" * 200})
    assert (bad_key.status, bad_key.error["field"]) == (422, "Idempotency-Key")
