"""`make run` delivers events the way AWS does: each game write stores its events, the local server
polls the table's stream (moto's dynamodbstreams API) and invokes the publish-events function,
which puts them on the bus. Seen here by a rule on the local bus that copies them to a queue."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import boto3
import pytest

from tests.e2e.harness import new_game_id
from tools.local.client import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def listen_on_the_bus(server: LocalServer) -> tuple[Any, str]:
    """A queue that receives everything on the local server's bus (moto on 127.0.0.1)."""
    endpoint = re.search(r"moto on (http://127\.0\.0\.1:\d+)", server.wait_for_line("moto on", 1)).group(1)
    options = {"region_name": "us-east-1", "endpoint_url": endpoint, "aws_access_key_id": "testing",
               "aws_secret_access_key": "testing"}
    events, sqs = boto3.client("events", **options), boto3.client("sqs", **options)
    (bus,) = [b["Name"] for b in events.list_event_buses()["EventBuses"] if b["Name"] != "default"]
    queue = sqs.create_queue(QueueName=f"e2e-{new_game_id('q')}")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    rule = f"e2e-{new_game_id('r')}"
    events.put_rule(Name=rule, EventBusName=bus, EventPattern=json.dumps({"source": ["connect6"]}))
    events.put_targets(Rule=rule, EventBusName=bus, Targets=[{"Id": "q", "Arn": arn}])
    return sqs, queue


def receive(sqs: Any, queue: str, game_id: str, count: int, timeout: float = 30) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(seen) < count:
        for message in sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages", []):
            body = json.loads(message["Body"])
            if body["detail"].get("game_id") == game_id:
                seen.append(body)
            sqs.delete_message(QueueUrl=queue, ReceiptHandle=message["ReceiptHandle"])
        time.sleep(0.1)
    return seen


def test_a_games_events_arrive_from_the_stream_with_ids_and_times(server: LocalServer) -> None:
    # Given a listener on the local bus
    sqs, queue = listen_on_the_bus(server)
    # When a game against the computer starts (the computer opens if it drew Black) and a move is played
    game_id = new_game_id("outbox")
    settings = {"game_name": "Outbox", "allow_computer_opponents": True}
    assert server.request("PUT", f"/v1/games/{game_id}", settings).status == 201
    joined = server.request("POST", f"/v1/games/{game_id}/players", {
        "name": "Ana", "email": "ana@example.com", "opponent": {"kind": "computer", "level": "easy"}}).json
    number = 1 if joined["game"]["move_count"] == 0 else 2
    reply = server.request("POST", f"/v1/games/{game_id}/players/{joined['player_id']}/moves",
                           {"move_number": number, "stones": ["h8"] if number == 1 else ["a1", "a2"]})
    assert reply.status == 200, reply.text
    # Then game_started and two turn_ready events arrive, each with a unique id and an RFC 3339 time
    got = receive(sqs, queue, game_id, 3)
    assert [e["detail-type"] for e in got] == ["game_started", "turn_ready", "turn_ready"]
    ids = [e["detail"]["event_id"] for e in got]
    assert len(set(ids)) == 3
    rfc3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
    assert all(rfc3339.fullmatch(e["detail"]["occurred_at"]) for e in got)
    assert [e["detail"]["move_number"] for e in got[1:]] == [number, number + 2]
    # And the server said it feeds the publisher from the stream
    server.wait_for_line("stream: GamesTable -> PublishEventsFunction", 1)
