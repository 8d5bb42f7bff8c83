"""Delivery of the outbox: the games table's stream → EventBridge.

Every game write stores its events in the item's ``outbox`` attribute (one conditional write: the
change and its events land together or not at all). The table's stream carries each write once,
in the order of the writes to that item; the ``publish-events`` function (Powertools batch
processing, partial batch failure reporting) reads the events of each record and publishes them.

Order: records are handled in stream order; once one fails, every later record of the batch is
reported failed without publishing, so Lambda retries from the first failure and no later change
of a game overtakes an earlier one. Delivery is at least once: a retried record publishes again
events that were already accepted; consumers drop repeats by ``event_id``.
"""

from __future__ import annotations

from typing import Any, Protocol

from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from connect6.game.events import Event, decode_outbox

OUTBOX_ATTRIBUTE = "outbox"


class Publisher(Protocol):
    def publish(self, events: list[Event]) -> None: ...


class EarlierRecordFailed(Exception):
    """Not attempted: an earlier record of the batch failed, and order comes first."""


def events_of(record: DynamoDBRecord) -> list[Event]:
    """The events a stream record carries (none for writes without an outbox, or removals)."""
    image: dict[str, Any] = (record.dynamodb.new_image if record.dynamodb else None) or {}
    text = image.get(OUTBOX_ATTRIBUTE)
    return decode_outbox(str(text)) if text else []


class OrderedDelivery:
    """A record handler for ``BatchProcessor``: one per invocation."""

    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher
        self.failed = False
        self.published = 0

    def handle(self, record: DynamoDBRecord) -> int:
        if self.failed:
            raise EarlierRecordFailed("an earlier record of this batch failed")
        events = events_of(record)
        try:
            self.publisher.publish(events)
        except Exception:
            self.failed = True
            raise
        self.published += len(events)
        return len(events)
