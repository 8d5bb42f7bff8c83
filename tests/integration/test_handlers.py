"""Every route through its handler, on moto, with the table built from template.yaml."""

from __future__ import annotations

import boto3

from tests.integration.conftest import Published
from tests.integration.harness import REGION, TEST_TABLE, Api, table_properties

RUN = "/v1/games/run-42"


def _start_human_game(api: Api) -> tuple[str, str]:
    assert api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True}).status == 201
    ana = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post(f"{RUN}/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    return ana, ben


def test_the_table_is_the_templates(api: Api) -> None:
    # Given the table moto built from template.yaml / Then it has the template's keys and index
    described = boto3.client("dynamodb", region_name=REGION).describe_table(TableName=TEST_TABLE)["Table"]
    assert described["KeySchema"] == table_properties()["KeySchema"]
    indexes = [i["IndexName"] for i in described["GlobalSecondaryIndexes"]]
    assert indexes == ["holds-by-expiry", "clocks-by-due"]  # v1.2 added the clock index


def test_put_run_201_then_200_then_409(api: Api) -> None:
    body = {"game_name": "Sunday club", "allow_computer_opponents": True}
    created = api.put(RUN, body)
    assert created.status == 201 and created.json["status"] == "waiting_for_players"
    assert api.put(RUN, body).status == 200
    other = api.put(RUN, {"game_name": "Other", "allow_computer_opponents": True})
    assert other.status == 409 and other.error["code"] == "conflict"


def test_join_sheet(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    sheet = api.get(f"{RUN}/join-sheet")
    assert sheet.status == 200
    assert sheet.json == {
        "sheet_type": "connect6_game_join_game", "sheet_code": "J8HMZ-0-0-B", "game_id": "run-42",
        "game_name": "Sunday club", "open_seats": 2, "can_request_computer": True, "can_invite": True,
        "computer_levels": ["easy", "normal", "hard"],
        "rules": {"board_size": 15, "win_length": 6, "first_turn_stones": 1, "stones_per_turn": 2}}


def test_a_human_game_through_the_handlers(api: Api, aws: Published) -> None:
    ana, ben = _start_human_game(api)
    sheet = api.get(f"{RUN}/players/{ana}/move-sheet").json
    assert sheet["your_turn"] and sheet["stone_colour"] == "black" and sheet["greeting"] == "Hello Ana"
    assert sheet["opponent"] == {"name": "Ben", "kind": "human"}
    move = api.post(f"{RUN}/players/{ana}/moves",
                    {"move_number": 1, "stones": ["H8"], "table_talk": "good_luck"})
    assert move.status == 200
    assert move.json["next"] == {"player_id": ben, "move_number": 2}
    ben_sheet = api.get(f"{RUN}/players/{ben}/move-sheet").json
    assert ben_sheet["table_talk_received"] == {"phrase_id": "good_luck", "text": "Good luck!", "from": "Ana"}
    assert [e["move_number"] for e in aws.of_type("turn_ready")] == [1, 2]
    assert aws.of_type("game_started")[0]["black"]["name"] == "Ana"


def test_board_json_etag_and_304(api: Api) -> None:
    _start_human_game(api)
    board = api.get(f"{RUN}/board")
    assert board.status == 200 and board.headers["content-type"].startswith("application/json")
    etag = board.headers["etag"]
    assert api.get(f"{RUN}/board", headers={"If-None-Match": etag}).status == 304
    view = board.json
    assert view["status"] == "in_progress" and len(view["board"]) == 15
    text = board.text
    assert "@example.com" not in text and "player_id" not in text


def test_unknown_game_everywhere_is_404(api: Api) -> None:
    for reply in (api.get("/v1/games/nope/board"), api.get("/v1/games/nope/join-sheet"),
                  api.post("/v1/games/nope/players", {"name": "Ana", "email": "ana@example.com"}),
                  api.get("/v1/games/nope/players/p1/move-sheet")):
        assert reply.status == 404 and reply.error["code"] == "game_not_found"


def test_request_shape_errors_are_422_invalid_request(api: Api) -> None:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    cases = [
        (api.put(RUN, {"allow_computer_opponents": True}), "game_name"),
        (api.put(RUN, "{not json"), None),
        (api.put("/v1/games/bad!id", {"game_name": "x"}), "game_id"),
        (api.post(f"{RUN}/players", {"name": "Ana", "email": "not-an-email"}), "email"),
        (api.post(f"{RUN}/players", {"name": "Ana", "email": "a@b.co", "opponent": {"kind": "robot"}}),
         "opponent"),
        (api.post(f"{RUN}/players", {"name": "Ana", "email": "a@b.co",
                                     "opponent": {"kind": "computer", "level": "godlike"}}),
         "opponent.level"),
        (api.post(f"{RUN}/players/p1/moves", {"move_number": "seven", "stones": []}), "move_number"),
        (api.post(f"{RUN}/players/p1/moves", {"move_number": 1, "stones": "h8"}), "stones"),
        (api.post(f"{RUN}/players/p1/moves", [1, 2]), None),
    ]
    for reply, field in cases:
        assert reply.status == 422, reply.text
        assert reply.error["code"] == "invalid_request"
        assert reply.error["field"] == field, reply.text
        assert reply.error["message"]


def test_a_base64_form_post_redeems_as_api_gateway_sends_it(api: Api) -> None:
    import base64

    from tests.integration.harness import FakeContext, handler_module, http_event

    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com"}})
    path = joined.json["invite"]["url"].removeprefix("https://api.example.test")
    route, params = api.route("POST", path)
    event = http_event("POST", path, route, params, body=base64.b64encode(b"name=Benjamin").decode(),
                       headers={"content-type": "application/x-www-form-urlencoded", "accept": "text/html"})
    event["isBase64Encoded"] = True
    result = handler_module(route.function).lambda_handler(event, FakeContext())
    # A browser's form is redeemed, then sent on to the invitation's page (POST-redirect-GET)
    assert result["statusCode"] == 303
    token = path.rsplit("/", 1)[1]
    assert result["headers"]["Location"] == f"/v1/invites/{token}?accepted=1"
    assert api.get(f"{RUN}/board").json["seats"][1]["name"] == "Benjamin"
