"""Hostile input through the handlers, as API Gateway delivers it (bodies without a text content
type arrive base64-encoded): every class is a clear 4xx in the contract's error shape, never a
5xx, and changes nothing. Names and notes: NFC, and control, bidi and invisible characters refused."""

from __future__ import annotations

import base64
import json
from typing import Any

import boto3
import pytest

from tests.integration.harness import REGION, TEST_TABLE, Api, handler_module, http_event, routes
from tests.integration.harness import FakeContext as LambdaContext

RUN = "/v1/games/run-42"
NOT_UTF8 = b"\xff\xfe\x00name=\xc3\x28"


def _items() -> list[dict[str, Any]]:
    return sorted(boto3.client("dynamodb", region_name=REGION).scan(TableName=TEST_TABLE)["Items"],
                  key=lambda i: (i["pk"]["S"], i["sk"]["S"]))


def send(method: str, path: str, body: bytes | str | None, headers: dict[str, str] | None = None,
         *, base64_encoded: bool = True) -> dict[str, Any]:
    """A raw request as API Gateway hands it to the function."""
    api = Api()
    route, params = api.route(method, path)
    event = http_event(method, path, route, params, headers=headers or {})
    if body is not None:
        raw = body if isinstance(body, bytes) else body.encode()
        event["body"] = base64.b64encode(raw).decode() if base64_encoded else raw.decode()
        event["isBase64Encoded"] = base64_encoded
    result: dict[str, Any] = handler_module(route.function).lambda_handler(event, LambdaContext())
    return result


def _error(result: dict[str, Any]) -> dict[str, Any]:
    body = json.loads(result["body"])
    assert set(body) == {"error"}, body
    return dict(body["error"])


@pytest.fixture
def game(aws: Any) -> dict[str, str]:
    api = Api()
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com"}}).json
    return {"player_id": joined["player_id"], "token": joined["invite"]["url"].rsplit("/", 1)[1]}


def test_bodies_that_are_not_utf8_are_4xx_on_every_route_that_reads_one(game: dict[str, str]) -> None:
    before = _items()
    me = f"{RUN}/players/{game['player_id']}"
    cases = [
        ("POST", f"{RUN}/players", {}, 422),  # no Content-Type: API Gateway base64-encodes it
        ("POST", f"{RUN}/players", {"content-type": "application/json"}, 422),
        ("PUT", RUN, {}, 422),
        ("POST", f"{me}/moves", {"content-type": "application/octet-stream"}, 415),
        ("POST", f"{me}/draw", {}, 422),
        ("POST", f"/v1/invites/{game['token']}", {"content-type": "application/x-www-form-urlencoded"}, 422),
        ("POST", f"/v1/invites/{game['token']}", {"content-type": "application/octet-stream"}, 415),
        ("POST", f"/v1/invites/{game['token']}", {}, 422),
    ]
    for method, path, headers, status in cases:
        result = send(method, path, NOT_UTF8, headers)
        assert result["statusCode"] == status, (method, path, headers, result)
        assert _error(result)["code"] in ("invalid_request", "unsupported_media_type")
    assert _items() == before


def test_a_utf8_body_without_a_content_type_is_read_as_json(game: dict[str, str]) -> None:
    body = json.dumps({"name": "Cy", "email": "cy@example.com"})
    result = send("POST", "/v1/games/other-run/players", body, {})
    assert (result["statusCode"], _error(result)["code"]) == (404, "game_not_found")


def test_json_nested_a_thousand_deep_is_422(game: dict[str, str]) -> None:
    deep = "[" * 1000 + "]" * 1000
    for method, path in (("POST", f"{RUN}/players"), ("POST", f"/v1/invites/{game['token']}"),
                         ("POST", f"{RUN}/players/{game['player_id']}/draw"), ("PUT", RUN)):
        body = '{"name": ' + deep + "}"
        result = send(method, path, body, {"content-type": "application/json"}, base64_encoded=False)
        assert result["statusCode"] == 422, (path, result)
        assert _error(result)["code"] == "invalid_request"
    huge_number = '{"move_number": ' + "9" * 5000 + ', "stones": ["h8"]}'
    result = send("POST", f"{RUN}/players/{game['player_id']}/moves", huge_number,
                  {"content-type": "application/json"}, base64_encoded=False)
    assert result["statusCode"] == 422


def test_multipart_with_or_without_a_boundary_is_415(game: dict[str, str]) -> None:
    for kind in ("multipart/form-data", "multipart/form-data; boundary=xyz"):
        for path in (f"{RUN}/players", f"/v1/invites/{game['token']}"):
            result = send("POST", path, b"--xyz\r\n\r\n--xyz--", {"content-type": kind})
            assert (result["statusCode"], _error(result)["code"]) == (415, "unsupported_media_type"), path


def test_media_types_are_case_insensitive(game: dict[str, str]) -> None:
    body = json.dumps({"name": "Cy", "email": "cy@example.com"})
    result = send("POST", "/v1/games/no-run/players", body,
                  {"content-type": "APPLICATION/JSON; Charset=UTF-8"}, base64_encoded=False)
    assert (result["statusCode"], _error(result)["code"]) == (404, "game_not_found")
    form = send("POST", f"/v1/invites/{game['token']}", "name=Benjamin",
                {"content-type": "Application/X-WWW-Form-URLEncoded"}, base64_encoded=False)
    # Read as a form: redeemed and sent on to the invitation's page (POST-redirect-GET)
    assert form["statusCode"] == 303 and "text/html" in form["headers"]["Content-Type"]
    assert form["headers"]["Location"] == f"/v1/invites/{game['token']}?accepted=1"


def test_huge_bodies_are_413(game: dict[str, str]) -> None:
    body = json.dumps({"name": "A" * 70_000, "email": "a@example.com"})
    result = send("POST", f"{RUN}/players", body, {"content-type": "application/json"}, base64_encoded=False)
    assert (result["statusCode"], _error(result)["code"]) == (413, "request_too_large")


def test_bad_percent_encoding_in_a_form_is_422_and_redeems_nothing(game: dict[str, str]) -> None:
    before = _items()
    for form in ("name=%ff%fe", "name=%C3%28"):
        result = send("POST", f"/v1/invites/{game['token']}", form,
                      {"content-type": "application/x-www-form-urlencoded"}, base64_encoded=False)
        assert result["statusCode"] == 422, form
    assert _items() == before


def test_names_and_notes_are_normalised_and_refuse_invisible_characters(aws: Any) -> None:
    api = Api()
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    before = _items()
    for name in ("Ana\u202eevil", "A\u200bna", "Ana\x00", "An\u2066a", "Ana\ufeff", "An\u2028a",
                 "A\U000e0041na"):
        reply = api.post(f"{RUN}/players", {"name": name, "email": "ana@example.com"})
        assert (reply.status, reply.error["code"], reply.error["field"]) == (
            422, "invalid_request", "name"), name
        assert "control" in reply.error["message"]
    note = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "hi\u202e"}})
    assert (note.status, note.error["field"]) == (422, "opponent.note")
    game_name = api.put("/v1/games/other", {"game_name": "Club\u200d"})
    assert (game_name.status, game_name.error["field"]) == (422, "game_name")
    assert _items() == before
    # NFC: a decomposed name is stored composed; a note may have line breaks
    joined = api.post(f"{RUN}/players", {"name": "Jose\u0301", "email": "jose@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "Rematch?\nSunday"}})
    assert joined.status == 201
    assert api.get(f"{RUN}/board").json["seats"][0]["name"] == "Jos\u00e9"


def test_every_documented_route_answers_hostile_bodies_without_a_5xx(game: dict[str, str]) -> None:
    ids = {"game_id": "run-42", "player_id": game["player_id"], "token": game["token"]}
    bodies: list[tuple[bytes, dict[str, str]]] = [
        (NOT_UTF8, {}), (NOT_UTF8, {"content-type": "text/plain"}), (b"[" * 2000, {}),
        (b"\x00", {"content-type": "application/json"}),
        (b"a=%zz&b=%", {"content-type": "application/x-www-form-urlencoded"}),
        (b"{}", {"content-type": "multipart/form-data"}), (b"null", {"content-type": "APPLICATION/JSON"}),
    ]
    for route in routes():
        path = route.path
        for name, value in ids.items():
            path = path.replace("{" + name + "}", value)
        for body, headers in bodies:
            result = send(route.method, path, body, headers)
            assert result["statusCode"] < 500, (route, body[:20], headers, result)
