"""The local runner (tools/local/samlocal, which the local server and the integration tests share) without
starting a server: template reading, routing, HTTP API v2 events and responses. Fast, no sockets."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from tests.e2e.harness import ROOT
from tools.local import samlocal


@pytest.fixture(scope="module")
def service() -> samlocal.Service:
    return samlocal.Service(ROOT / "template.yaml", "http://127.0.0.1:9", verbose=False,
                             parameters={"PublicBaseUrl": "http://127.0.0.1:3000"})


def test_routes_and_environment_come_from_the_template(service):
    keys = {route.key for route in service.routes}
    assert "GET /v1/games/{game_id}/board.svg" in keys and "POST /v1/invites/{token}" in keys
    env = service.functions[0].env
    assert env["TABLE_NAME"] == service.physical["GamesTable"]
    assert env["EVENT_BUS_NAME"] == f"{samlocal.STACK}-connect6"  # !Sub "${AWS::StackName}-connect6"
    assert env["PUBLIC_BASE_URL"] == "http://127.0.0.1:3000"  # the parameter override
    assert any(fn.schedules for fn in service.functions)


def test_literal_segments_win_over_parameters(service):
    route, params = service.match("GET", "/v1/games/run-1/board.svg")
    assert route.path.endswith("/board.svg") and params == {"game_id": "run-1"}
    route, params = service.match("GET", "/v1/games/run-1/board")
    assert route.path.endswith("/board") and params == {"game_id": "run-1"}
    assert service.match("DELETE", "/v1/games/run-1/board") is None
    assert service.match("GET", "/v1/games/run-1/board/extra") is None


def test_event_is_http_api_v2(service):
    route, params = service.match("POST", "/v1/invites/tok%2Fen")
    event = samlocal.build_event(
        method="POST", target="/v1/invites/tok%2Fen?a=1&a=2&b=",
        headers=[("Host", "127.0.0.1:3000"), ("Content-Type", "application/x-www-form-urlencoded"),
                 ("Cookie", "x=1; y=2"), ("X-Thing", "one"), ("x-thing", "two")],
        body=b"name=B%C3%A9n", route=route, params=params, source_ip="127.0.0.1")
    assert event["version"] == "2.0" and event["routeKey"] == "POST /v1/invites/{token}"
    assert event["rawPath"] == "/v1/invites/tok%2Fen" and event["rawQueryString"] == "a=1&a=2&b="
    assert event["queryStringParameters"] == {"a": "1,2", "b": ""}
    assert event["pathParameters"] == {"token": "tok/en"}
    assert event["cookies"] == ["x=1", "y=2"] and "cookie" not in event["headers"]
    assert event["headers"]["x-thing"] == "one,two"
    ctx = event["requestContext"]
    assert ctx["http"]["method"] == "POST" and ctx["domainName"] == "127.0.0.1:3000"
    assert "authorizer" not in ctx  # a public route
    # a form arrives base64-encoded, as API Gateway sends it
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == b"name=B%C3%A9n"


def test_json_bodies_pass_as_text_and_iam_routes_carry_a_caller(service):
    route, params = service.match("PUT", "/v1/games/run-1")
    event = samlocal.build_event(
        method="PUT", target="/v1/games/run-1", headers=[("Content-Type", "application/json")],
        body='{"game_name": "Café"}'.encode(), route=route, params=params, source_ip="127.0.0.1")
    assert event["isBase64Encoded"] is False and event["body"] == '{"game_name": "Café"}'
    assert event["requestContext"]["authorizer"]["iam"]["accountId"] == samlocal.ACCOUNT


def test_responses_translate_back():
    status, headers, body = samlocal.to_http({
        "statusCode": 201, "headers": {"Content-Type": "text/html"}, "cookies": ["a=1"],
        "body": base64.b64encode(b"<p>hi</p>").decode(), "isBase64Encoded": True})
    assert status == 201 and ("Set-Cookie", "a=1") in headers and body == b"<p>hi</p>"
    assert samlocal.to_http({"ok": True}) == (200, [("Content-Type", "application/json")], b'{"ok": true}')


def test_template_intrinsics_resolve(tmp_path: Path):
    template = {
        "Parameters": {"Stage": {"Default": "dev"}},
        "Conditions": {"IsDev": {"Fn::Equals": [{"Ref": "Stage"}, "dev"]}},
        "Resources": {"T": {"Type": "AWS::DynamoDB::Table"}},
    }
    resolver = samlocal.Resolver(template, {"T": "tbl"})
    assert resolver.resolve({"Fn::Sub": "${AWS::StackName}-${Stage}-${T}"}) == f"{samlocal.STACK}-dev-tbl"
    assert resolver.resolve({"Fn::GetAtt": ["T", "Arn"]}).endswith(":table/tbl")
    # Only the intrinsics template.yaml uses are resolved; any other is an error, not a guess
    with pytest.raises(ValueError):
        resolver.resolve({"Fn::If": ["IsDev", "a", "b"]})
    assert resolver.resolve({"A": {"Ref": "AWS::NoValue"}, "B": 1}) == {"B": 1}
    with pytest.raises(ValueError):
        resolver.resolve({"Ref": "Nope"})
    yaml_file = tmp_path / "t.yaml"
    yaml_file.write_text("Resources:\n  X:\n    Type: A\n    Properties:\n      N: !Sub '${AWS::Region}'\n"
                         "      G: !GetAtt T.Arn\n      L: !Select [0, [a, b]]\n")
    loaded = samlocal.load_template(yaml_file)["Resources"]["X"]["Properties"]
    assert loaded == {"N": {"Fn::Sub": "${AWS::Region}"}, "G": {"Fn::GetAtt": ["T", "Arn"]},
                      "L": {"Fn::Select": [0, ["a", "b"]]}}
