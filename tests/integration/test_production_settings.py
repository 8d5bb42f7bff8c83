"""What the code does about production on AWS (issue 30), through the handlers on moto:

- every function starts in Lambda with the template's environment, and one lacking a setting it
  needs fails at its cold start naming the variable;
- the publisher never acknowledges a record it did not deliver: without a bus name the record is
  reported failed (and in Lambda the function does not start);
- the invitation secret is read from Secrets Manager in Lambda, when a token is needed;
- links come from the API's own configuration and domain, never from a client's headers;
- the computer's search is capped by the invocation's remaining time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from connect6.api import runtime
from connect6.api.config import MissingSetting
from connect6.api.invite_tokens import InviteTokens
from connect6.game.context import default_computer
from connect6.game.events import Event, encode_outbox
from tests.integration.conftest import Published, aws_environment
from tests.integration.harness import (
    API_GATEWAY_HEADERS,
    REGION,
    STAGE_VARIABLES,
    FakeContext,
    api_route,
    handler_module,
    service,
)
from tools.local.samlocal import build_event

RUN = "/v1/games/g-prod"
HOSTILE = {"host": "evil.example", "x-forwarded-proto": "javascript:alert(1)//",
           "x-forwarded-host": "evil.example", "forwarded": "proto=javascript;host=evil.example"}
INVITE = {"name": "Ana", "email": "ana@example.com",
          "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com"}}


def in_lambda(monkeypatch: pytest.MonkeyPatch, function: str) -> None:
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", f"connect6-{function}")
    monkeypatch.delenv("AWS_SAM_LOCAL", raising=False)


@pytest.fixture
def cold_start() -> Iterator[Any]:
    """Import a function's handler as a fresh execution environment would."""
    names: list[str] = []

    def start(logical: str) -> Any:
        name = f"cold_{logical}_{len(names)}"
        names.append(name)
        return service().function(logical).import_handler(name)

    yield start
    for name in names:
        sys.modules.pop(name, None)


# ---------------------------------------------------------------------------------- fail fast

def test_every_function_starts_in_lambda_with_the_templates_environment(
        monkeypatch: pytest.MonkeyPatch, cold_start: Any) -> None:
    aws_environment(monkeypatch)
    for function in service().functions:
        in_lambda(monkeypatch, function.logical_id)
        assert callable(cold_start(function.logical_id).lambda_handler)


NEEDED = [("PublishEventsFunction", "EVENT_BUS_NAME"), ("JoinFunction", "INVITE_TOKEN_SECRET_ARN"),
          ("JoinFunction", "TABLE_NAME"), ("MoveFunction", "TABLE_NAME"), ("RecapFunction", "TABLE_NAME"),
          ("BoardFunction", "TABLE_NAME"), ("ExpireInvitesFunction", "HOLDS_INDEX_NAME")]


@pytest.mark.parametrize(("function", "variable", "how"), [
    *[(f, v, how) for f, v in NEEDED for how in ("unset", "empty")],
    # an empty budget or base URL means something (the level's default, the stage's URL); unset does not
    ("MoveFunction", "COMPUTER_BUDGET_S", "unset"), ("JoinFunction", "PUBLIC_BASE_URL", "unset"),
])
def test_a_function_lacking_a_setting_it_needs_fails_at_cold_start_naming_it(
        monkeypatch: pytest.MonkeyPatch, cold_start: Any, function: str, variable: str, how: str) -> None:
    aws_environment(monkeypatch)
    in_lambda(monkeypatch, function)
    if how == "unset":
        monkeypatch.delenv(variable)
    else:
        monkeypatch.setenv(variable, "")
    with pytest.raises(MissingSetting, match=variable):
        cold_start(function)


def test_a_function_does_not_need_the_settings_of_others(
        monkeypatch: pytest.MonkeyPatch, cold_start: Any) -> None:
    aws_environment(monkeypatch)
    for name in ("INVITE_TOKEN_SECRET_ARN", "EVENT_BUS_NAME", "PUBLIC_BASE_URL"):
        monkeypatch.delenv(name)
    for function in ("MoveFunction", "BoardFunction", "RecapFunction", "ExpireInvitesFunction"):
        in_lambda(monkeypatch, function)
        cold_start(function)


def stream_record(seq: int, events: int = 2) -> dict[str, Any]:
    detail = {"game_id": "g1", "move_number": seq}
    outbox = [Event("turn_ready", detail, f"e-{seq}-{i}", "2026-05-01T12:00:00Z") for i in range(events)]
    image = {"pk": {"S": "GAME#g1"}, "game_id": {"S": "g1"}, "outbox": {"S": encode_outbox(outbox)}}
    return {"eventID": str(seq), "eventName": "MODIFY", "eventSource": "aws:dynamodb", "eventVersion": "1.1",
            "awsRegion": REGION, "eventSourceARN": "arn:aws:dynamodb:us-east-1:1:table/t/stream/x",
            "dynamodb": {"SequenceNumber": str(100 + seq), "Keys": {"pk": {"S": "GAME#g1"}},
                         "NewImage": image, "StreamViewType": "NEW_IMAGE", "SizeBytes": 1}}


@pytest.mark.parametrize("bus", ["", None])
def test_a_missing_bus_name_stops_the_publisher_and_nothing_is_acknowledged(
        aws: Published, monkeypatch: pytest.MonkeyPatch, cold_start: Any, bus: str | None) -> None:
    # Given the publisher without a bus name (empty, or unset), outside Lambda
    if bus is None:
        monkeypatch.delenv("EVENT_BUS_NAME")
    else:
        monkeypatch.setenv("EVENT_BUS_NAME", bus)
    runtime.configure()
    handler = cold_start("PublishEventsFunction")
    counted: dict[str, int] = {}
    monkeypatch.setattr(handler, "count", lambda name, value=1: counted.update({name: value}))
    # When a stream batch of two records with two events each arrives
    response = handler.lambda_handler({"Records": [stream_record(1), stream_record(2)]}, FakeContext())
    # Then neither record is acknowledged: both are reported, so the stream keeps and retries them
    assert response == {"batchItemFailures": [{"itemIdentifier": "101"}, {"itemIdentifier": "102"}]}
    assert counted == {"EventsPublished": 0, "EventRecordsFailed": 2}
    assert aws.drain() == []
    # And in Lambda the function does not even start
    in_lambda(monkeypatch, "PublishEventsFunction")
    with pytest.raises(MissingSetting, match="EVENT_BUS_NAME"):
        cold_start("PublishEventsFunction")


def test_with_its_bus_the_publisher_delivers_and_counts_what_it_delivered(
        aws: Published, monkeypatch: pytest.MonkeyPatch, cold_start: Any) -> None:
    handler = cold_start("PublishEventsFunction")
    counted: dict[str, int] = {}
    monkeypatch.setattr(handler, "count", lambda name, value=1: counted.update({name: value}))
    response = handler.lambda_handler({"Records": [stream_record(1), stream_record(2)]}, FakeContext())
    assert response == {"batchItemFailures": []} and counted == {"EventsPublished": 4}
    assert len(aws.drain()) == 4


# ---------------------------------------------------------------------------------- the secret

def call(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         context: Any = None, domain_name: str = "", **event_changes: Any) -> tuple[int, dict[str, Any]]:
    """A request as API Gateway sends it (the harness's headers and stage variable), with ``headers``
    replacing any of the same name and ``event_changes`` replacing (``None``: removing) event keys."""
    route, params = api_route(method, path)
    merged = {**dict(API_GATEWAY_HEADERS), "content-type": "application/json", **(headers or {})}
    event = build_event(method=method, target=path, headers=list(merged.items()), body=b"", route=route,
                        params=params, source_ip="127.0.0.1")
    event["stageVariables"] = dict(STAGE_VARIABLES)
    if body is not None:
        event["body"] = json.dumps(body)
    if domain_name:  # API Gateway's: the domain the request came in on, not the Host header
        event["requestContext"]["domainName"] = domain_name
    for key, value in event_changes.items():
        if value is None:
            event.pop(key, None)
        else:
            event[key] = value
    result = handler_module(route.function).lambda_handler(event, context or FakeContext())
    return result["statusCode"], json.loads(result["body"] or "null")


@pytest.fixture
def lambda_join(aws: Published, monkeypatch: pytest.MonkeyPatch) -> str:
    """The join function as in Lambda: the secret in (moto's) Secrets Manager, named by its ARN."""
    client = boto3.client("secretsmanager", region_name=REGION)
    secret = "k" * 64
    arn = client.create_secret(Name="connect6-invite-token-secret", SecretString=secret)["ARN"]
    monkeypatch.setenv("INVITE_TOKEN_SECRET_ARN", arn)
    in_lambda(monkeypatch, "join")
    runtime.configure(colour_draw=lambda game: 1)
    assert call("PUT", RUN, {"game_name": "Prod", "allow_computer_opponents": True})[0] == 201
    return secret


def test_in_lambda_the_invitation_token_comes_from_the_secret_in_secrets_manager(lambda_join: str) -> None:
    status, joined = call("POST", f"{RUN}/players", INVITE)
    assert status == 201
    token = joined["invite"]["url"].rsplit("/", 1)[1]
    assert token == InviteTokens(lambda_join).token_for(joined["invite"]["invite_id"])
    assert call("GET", f"/v1/invites/{token}", headers={"accept": "application/json"})[0] == 200


def test_functions_that_make_no_token_never_read_the_secret(
        aws: Published, monkeypatch: pytest.MonkeyPatch) -> None:
    in_lambda(monkeypatch, "board")
    read: list[str] = []

    def read_secret(arn: str) -> str:
        read.append(arn)
        return "k" * 64

    monkeypatch.setattr("connect6.api.invite_tokens.read_secret", read_secret)
    runtime.configure()
    runtime.service()
    assert call("GET", f"{RUN}/board")[0] == 404
    assert read == []


# ---------------------------------------------------------------------------------- links

def test_hostile_headers_cannot_change_the_invitation_link_from_the_stage_variable(aws: Published) -> None:
    assert call("PUT", RUN, {"game_name": "Prod", "allow_computer_opponents": True})[0] == 201
    status, joined = call("POST", f"{RUN}/players", INVITE, headers=HOSTILE)
    assert status == 201
    assert joined["invite"]["url"].startswith("https://api.example.test/v1/invites/")


def test_in_lambda_without_a_configured_url_the_link_is_the_apis_own_domain_over_https(
        lambda_join: str) -> None:
    own = "abc123.execute-api.us-east-1.amazonaws.com"
    status, joined = call("POST", f"{RUN}/players", INVITE, headers=HOSTILE, stageVariables=None,
                          domain_name=own)
    assert status == 201
    assert joined["invite"]["url"].startswith(f"https://{own}/v1/invites/")


@pytest.mark.parametrize(("host", "base"), [("127.0.0.1:3000", "http://127.0.0.1:3000"),
                                            ("localhost:8080", "http://127.0.0.1:8080"),
                                            ("evil.example", "http://127.0.0.1"),
                                            ("127.0.0.1.evil.example:3000", "http://127.0.0.1")])
def test_on_the_local_server_only_a_loopback_host_gives_the_port(
        aws: Published, host: str, base: str) -> None:
    assert call("PUT", RUN, {"game_name": "Prod", "allow_computer_opponents": True})[0] == 201
    status, joined = call("POST", f"{RUN}/players", INVITE, headers={**HOSTILE, "host": host},
                          stageVariables=None)
    assert status == 201
    url = joined["invite"]["url"]
    assert url.startswith(f"{base}/v1/invites/") and "evil" not in url and "javascript" not in url


# ---------------------------------------------------------------------------------- the budget

class ShortContext(FakeContext):
    def __init__(self, remaining_ms: int) -> None:
        super().__init__()
        self.remaining_ms = remaining_ms

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


def test_the_computers_search_never_runs_past_the_invocations_remaining_time(aws: Published) -> None:
    budgets: list[float | None] = []

    def computer(position: Any, level: str, *, budget_s: float | None, rng: Any) -> Any:
        budgets.append(budget_s)
        return default_computer(position, level, budget_s=0.001, rng=rng)

    # The computer plays Black, so it opens inside the join; configured for 3 s, 1.5 s left
    runtime.configure(colour_draw=lambda game: 2, computer=computer, computer_budget_s=3.0)
    assert call("PUT", RUN, {"game_name": "Prod", "allow_computer_opponents": True})[0] == 201
    status, _ = call("POST", f"{RUN}/players", {"name": "Ana", "email": "ana@example.com",
                                               "opponent": {"kind": "computer", "level": "hard"}},
                     context=ShortContext(1500))
    assert status == 201
    assert budgets and all(b is not None and b <= 0.5 for b in budgets), budgets
