"""Handlers on moto: the table built from template.yaml, the event bus with a rule that copies
every event to an SQS queue so tests can read what was published. No sockets, no credentials."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import aws_xray_sdk.core  # noqa: F401  (its recorder opens a UDP socket at import: do it before sockets are off)
import boto3
import pytest
from moto import mock_aws

from connect6.api import runtime
from tests.integration.harness import REGION, TEST_BUS, Api, create_table, event_pump, function_environment


@pytest.fixture(autouse=True)
def _no_network(request: pytest.FixtureRequest) -> None:
    if "socket_enabled" not in request.fixturenames:
        request.getfixturevalue("socket_disabled")


def aws_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in function_environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COMPUTER_BUDGET_S", "0.05")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_EVENTS", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)


class Published:
    """What reached the event bus (through a catch-all rule into an SQS queue). The events go out
    from the table's stream: ``drain`` first runs the stream-fed publisher over what is new."""

    def __init__(self, queue_url: str) -> None:
        self.queue_url = queue_url
        self.sqs = boto3.client("sqs", region_name=REGION)
        self.seen: list[dict[str, Any]] = []
        self.pump = event_pump(boto3.client("dynamodb", region_name=REGION),
                               boto3.client("dynamodbstreams", region_name=REGION))

    def drain(self) -> list[dict[str, Any]]:
        self.pump.drain()
        while True:
            got = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10)
            messages = got.get("Messages", [])
            if not messages:
                return self.seen
            for message in messages:
                self.seen.append(json.loads(message["Body"]))
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])

    def of_type(self, detail_type: str) -> list[dict[str, Any]]:
        return [e["detail"] for e in self.drain() if e["detail-type"] == detail_type]


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Published]:
    aws_environment(monkeypatch)
    with mock_aws():
        create_table(boto3.client("dynamodb", region_name=REGION))
        events = boto3.client("events", region_name=REGION)
        events.create_event_bus(Name=TEST_BUS)
        sqs = boto3.client("sqs", region_name=REGION)
        queue_url = sqs.create_queue(QueueName="published")["QueueUrl"]
        queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])[
            "Attributes"]["QueueArn"]
        events.put_rule(Name="all", EventBusName=TEST_BUS, EventPattern=json.dumps({"source": ["connect6"]}))
        events.put_targets(Rule="all", EventBusName=TEST_BUS, Targets=[{"Id": "q", "Arn": queue_arn}])
        runtime.configure(colour_draw=lambda game: 1)
        yield Published(queue_url)
    runtime.configure()


@pytest.fixture
def api(aws: Published) -> Api:
    return Api()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Powertools warns when a request adds no metric (reads); that is expected here.
    for item in items:
        if "tests/integration" in str(item.path):
            item.add_marker(pytest.mark.filterwarnings("ignore:No application metrics:UserWarning"))
