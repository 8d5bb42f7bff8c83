"""The outbox's delivery logic without AWS: the record handler under Powertools' batch processor
keeps stream order (after a failure nothing later in the batch is published, all of it is
reported), and the local stand-in for Lambda's event source mapping retries from the first
failed record and applies the template's filter."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response

from connect6.delivery.outbox import OrderedDelivery
from connect6.game.events import Event, encode_outbox
from tools.local.samlocal.streams import StreamPump, matches

PATTERN = {"eventName": ["INSERT", "MODIFY"], "dynamodb": {"NewImage": {"outbox": {"S": [{"exists": True}]}}}}


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """Pure logic."""


def record(seq: int, game: str = "g1", events: int = 1, name: str = "MODIFY") -> dict[str, Any]:
    detail = {"game_id": game, "move_number": seq}
    outbox = [Event("turn_ready", detail, f"e-{seq}-{i}", "2026-05-01T12:00:00Z") for i in range(events)]
    image: dict[str, Any] = {"pk": {"S": f"GAME#{game}"}, "game_id": {"S": game}}
    if events:
        image["outbox"] = {"S": encode_outbox(outbox)}
    return {"eventID": str(seq), "eventName": name, "eventSource": "aws:dynamodb", "eventVersion": "1.1",
            "awsRegion": "us-east-1", "eventSourceARN": "arn:aws:dynamodb:us-east-1:1:table/t/stream/x",
            "dynamodb": {"SequenceNumber": str(100 + seq), "Keys": {"pk": {"S": f"GAME#{game}"}},
                         "NewImage": image, "StreamViewType": "NEW_IMAGE", "SizeBytes": 1}}


class Bus:
    def __init__(self, fail_on: set[str] | None = None, fail_times: int = 0) -> None:
        self.fail_on = fail_on or set()
        self.fail_times = fail_times
        self.published: list[str] = []

    def publish(self, events: list[Event]) -> None:
        if self.fail_times > 0 or any(e.event_id in self.fail_on for e in events):
            self.fail_times -= 1
            raise RuntimeError("bus down")
        self.published += [e.event_id for e in events]


def handle(event: dict[str, Any], bus: Bus) -> dict[str, Any]:
    processor = BatchProcessor(event_type=EventType.DynamoDBStreams, raise_on_entire_batch_failure=False)
    delivery = OrderedDelivery(bus)
    return dict(process_partial_response(event=event, record_handler=delivery.handle, processor=processor))


def test_after_a_failed_record_nothing_later_is_published_and_all_of_it_is_reported() -> None:
    # Given five records, the third of which cannot be published
    bus = Bus(fail_on={"e-3-0"})
    # When the batch is handled
    result = handle({"Records": [record(n) for n in range(1, 6)]}, bus)
    # Then the first two went out, and the third onwards are reported failed, by sequence number
    assert bus.published == ["e-1-0", "e-2-0"]
    assert [f["itemIdentifier"] for f in result["batchItemFailures"]] == ["103", "104", "105"]


def test_a_record_without_an_outbox_publishes_nothing_and_succeeds() -> None:
    bus = Bus()
    assert handle({"Records": [record(1, events=0), record(2, events=3)]}, bus) == {"batchItemFailures": []}
    assert bus.published == ["e-2-0", "e-2-1", "e-2-2"]


def test_the_filter_passes_only_writes_with_an_outbox() -> None:
    assert matches(PATTERN, record(1))
    assert not matches(PATTERN, record(1, events=0))
    assert not matches(PATTERN, record(1, name="REMOVE"))
    removed = record(1)
    del removed["dynamodb"]["NewImage"]
    assert not matches(PATTERN, removed)


class FakeStreams:
    """A one-shard stream in the shape of the dynamodbstreams API."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.records = [{k: v for k, v in r.items() if k != "eventSourceARN"} for r in records]

    def describe_stream(self, StreamArn: str) -> dict[str, Any]:
        return {"StreamDescription": {"Shards": [{"ShardId": "s-1"}]}}

    def get_shard_iterator(self, **_: Any) -> dict[str, Any]:
        return {"ShardIterator": "0"}

    def get_records(self, ShardIterator: str, Limit: int) -> dict[str, Any]:
        start = int(ShardIterator)
        got = self.records[start:start + Limit]
        return {"Records": got, "NextShardIterator": str(start + len(got))}


@pytest.mark.parametrize("failures", [0, 1, 4, 9])
def test_the_pump_retries_from_the_first_failed_record_until_all_are_published(failures: int) -> None:
    # Given twelve writes of three games (every third without events), and a bus down `failures` times
    records = [record(n, game=f"g{n % 3}", events=0 if n % 3 == 0 else 2) for n in range(1, 13)]
    bus = Bus(fail_times=failures)
    pump = StreamPump(FakeStreams(records), "arn", lambda event: handle(event, bus), batch_size=5,
                      filters=[json.dumps(PATTERN)])
    # When the pump drains the stream
    pump.drain()
    # Then every event went out exactly once, in stream order, after failures + 1 or more batches
    expected = [f"e-{n}-{i}" for n in range(1, 13) if n % 3 for i in range(2)]
    assert bus.published == expected
    assert pump.invocations >= failures + 2 and not pump.pending and not pump.gave_up
