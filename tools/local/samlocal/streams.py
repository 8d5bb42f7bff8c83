"""Lambda's DynamoDB event source mapping, in small, for the local server and the tests.

Reads a table's stream through the ``dynamodbstreams`` API (moto's, on 127.0.0.1 or in-process),
keeps the records the mapping's ``FilterCriteria`` pass, and invokes the stream-fed function with
the event Lambda would send (``Records`` of up to ``BatchSize``). Like Lambda with
``ReportBatchItemFailures``: an answer listing failed sequence numbers acknowledges the records
before the lowest of them and retries from there; an invocation that raises retries the whole
batch; after ``MaximumRetryAttempts`` (-1 = no limit) the first record of the batch is given up
(kept in ``gave_up``, as the on-failure destination would get it).

    pump = StreamPump(boto3.client("dynamodbstreams"), stream_arn, invoke, batch_size=25,
                      filters=[pattern])
    pump.poll()            # one round: read new records, deliver one batch
    pump.drain()           # until nothing is pending
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

REGION = "us-east-1"


def matches(pattern: Any, value: Any) -> bool:
    """Does ``value`` pass an EventBridge-style filter pattern (as Lambda's ``FilterCriteria`` use
    them)? moto's EventBridge matcher decides."""
    from moto.events.models import EventPattern

    return EventPattern(None, pattern).matches_event(json.loads(json.dumps(value, default=str)))


def lambda_record(record: dict[str, Any], stream_arn: str) -> dict[str, Any]:
    """A ``GetRecords`` record as Lambda hands it to the function."""
    dynamodb = dict(record.get("dynamodb") or {})
    created = dynamodb.get("ApproximateCreationDateTime")
    if isinstance(created, datetime):
        dynamodb["ApproximateCreationDateTime"] = int(created.timestamp())
    return {"eventID": record.get("eventID"), "eventName": record.get("eventName"), "eventVersion": "1.1",
            "eventSource": "aws:dynamodb", "awsRegion": record.get("awsRegion", REGION),
            "dynamodb": dynamodb, "eventSourceARN": stream_arn}


@dataclass
class StreamPump:
    client: Any  # a boto3 "dynamodbstreams" client
    stream_arn: str
    invoke: Callable[[dict[str, Any]], Any]
    batch_size: int = 25
    filters: Sequence[Any] = ()  # patterns (dicts or JSON text); a record passes if any matches
    max_retries: int = -1
    pending: list[dict[str, Any]] = field(default_factory=list)
    gave_up: list[dict[str, Any]] = field(default_factory=list)
    invocations: int = 0
    delivered: int = 0
    _iterators: dict[str, str] = field(default_factory=dict)
    _attempts: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.filters = [json.loads(f) if isinstance(f, str) else f for f in self.filters]

    def _read(self) -> None:
        shards = self.client.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]["Shards"]
        for shard in shards:
            shard_id = shard["ShardId"]
            if shard_id not in self._iterators:
                self._iterators[shard_id] = self.client.get_shard_iterator(
                    StreamArn=self.stream_arn, ShardId=shard_id, ShardIteratorType="TRIM_HORIZON",
                )["ShardIterator"]
            while True:
                got = self.client.get_records(ShardIterator=self._iterators[shard_id], Limit=1000)
                self._iterators[shard_id] = got["NextShardIterator"]
                records = [lambda_record(r, self.stream_arn) for r in got.get("Records", [])]
                self.pending += [r for r in records if not self.filters
                                 or any(matches(p, r) for p in self.filters)]
                if not got.get("Records"):
                    break

    def poll(self) -> int:
        """Read what is new and deliver one batch; the number of records acknowledged."""
        with self._lock:
            self._read()
            if not self.pending:
                return 0
            batch = self.pending[: self.batch_size]
            self.invocations += 1
            try:
                answer = self.invoke({"Records": batch})
            except Exception:
                return self._retry_from(0, batch)
            failures = (answer.get("batchItemFailures") or []) if isinstance(answer, dict) else []
            if not failures:
                return self._acknowledge(len(batch))
            failed = {str(f.get("itemIdentifier")) for f in failures}
            first = next((i for i, r in enumerate(batch) if r["dynamodb"]["SequenceNumber"] in failed), 0)
            return self._retry_from(first, batch)

    def _acknowledge(self, count: int) -> int:
        del self.pending[:count]
        self.delivered += count
        self._attempts = 0
        return count

    def _retry_from(self, first: int, batch: list[dict[str, Any]]) -> int:
        done = self._acknowledge(first) if first else 0
        if first:
            return done
        self._attempts += 1
        if 0 <= self.max_retries < self._attempts:
            self.gave_up.append(self.pending.pop(0))
            self._attempts = 0
        return done

    def drain(self, max_rounds: int = 1000) -> int:
        """Poll until nothing is pending (or ``max_rounds``); the records acknowledged."""
        total = 0
        for _ in range(max_rounds):
            total += self.poll()
            if not self.pending:
                self._read()
                if not self.pending:
                    return total
        return total

    def run(self, stop: threading.Event, every: float = 0.2,
            on_error: Callable[[BaseException], None] | None = None) -> None:
        """Poll until ``stop`` is set (the local server's thread)."""
        while not stop.wait(every):
            try:
                while self.poll():
                    pass
            except Exception as error:  # keep polling: a stream read can fail while moto starts or stops
                if on_error is not None:
                    on_error(error)


def stream_sources(template: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(function logical id, the DynamoDB event's properties) for every stream-fed function."""
    found = []
    for name, resource in (template.get("Resources") or {}).items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        for event in ((resource.get("Properties") or {}).get("Events") or {}).values():
            if event.get("Type") == "DynamoDB":
                found.append((name, event.get("Properties") or {}))
    return found


def pump_options(properties: dict[str, Any]) -> dict[str, Any]:
    """StreamPump keyword arguments from a DynamoDB event's properties in the template."""
    filters = [f["Pattern"] for f in ((properties.get("FilterCriteria") or {}).get("Filters") or [])]
    return {"batch_size": int(properties.get("BatchSize", 100)), "filters": filters,
            "max_retries": int(properties.get("MaximumRetryAttempts", -1))}
