"""Publishes events to EventBridge (``PutEvents``, source ``connect6``) for the stream-fed
publisher (:mod:`connect6.delivery.outbox`). A failure here is raised: the events are safe in the
table, and the stream hands them over again.

Each call sends one change's events in order. A refused entry (``FailedEntryCount``) is re-sent
together with every entry after it, a few times, before giving up; entries already accepted may
so arrive twice (consumers drop repeats by ``event_id``), never out of their change's order
because of a later entry overtaking a refused one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from aws_lambda_powertools import Logger
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from connect6.game.events import SOURCE, Event
from connect6.store import clients

logger = Logger(child=True)

MAX_ENTRIES = 10  # PutEvents takes at most 10 entries
# Standard retry mode (throttling and 5xx retried with backoff), short timeouts: a stuck call fails
# the record, and the stream retries it, rather than holding the shard until the function times out.
CLIENT_CONFIG = Config(retries={"total_max_attempts": 3, "mode": "standard"}, connect_timeout=1,
                       read_timeout=3)


class PublishFailed(Exception):
    """Some events were not accepted by the bus (after the retries)."""


class EventBridgePublisher:
    client = clients.LazyClient()

    def __init__(self, bus_name: str, client_factory: Callable[[], Any] | None = None,
                 attempts: int = 3) -> None:
        self.bus_name = bus_name
        self.attempts = attempts
        self.client_factory = client_factory or clients.factory("events", CLIENT_CONFIG)

    def entry(self, event: Event) -> dict[str, Any]:
        return {"Source": SOURCE, "DetailType": event.detail_type, "EventBusName": self.bus_name,
                "Detail": json.dumps(event.wire_detail(), separators=(",", ":"))}

    def publish(self, events: Sequence[Event]) -> None:
        """Publish ``events`` in order, or raise :class:`PublishFailed`. Without a bus name nothing
        can be delivered, which is a failure too, never a silent drop: the stream keeps the record
        and the failure is counted (``EventRecordsFailed``) and alarmed."""
        if not self.bus_name:
            logger.error("EVENT_BUS_NAME is empty: no bus to publish to", extra={"pending": len(events)})
            raise PublishFailed("EVENT_BUS_NAME is empty: no bus to publish to")
        if not events:
            return
        entries = [self.entry(event) for event in events]
        for start in range(0, len(entries), MAX_ENTRIES):
            self._put(entries[start:start + MAX_ENTRIES])

    def _put(self, batch: list[dict[str, Any]]) -> None:
        problem = ""
        for _ in range(self.attempts):
            try:
                response = self.client.put_events(Entries=batch)
            except (ClientError, BotoCoreError) as error:
                problem = type(error).__name__
                continue
            results = response.get("Entries") or []
            refused = next((i for i, r in enumerate(results) if r.get("ErrorCode")), None)
            if refused is None and int(response.get("FailedEntryCount", 0)) == 0:
                return
            refused = refused if refused is not None else 0
            problem = str(results[refused].get("ErrorCode", "FailedEntryCount")) if results else "refused"
            batch = batch[refused:]  # the first refused entry and everything after it, in order
        logger.warning("events not accepted by the bus", extra={"pending": len(batch), "problem": problem})
        raise PublishFailed(f"{len(batch)} event(s) not accepted: {problem}")
