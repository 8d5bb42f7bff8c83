"""Publishes the domain's events to EventBridge (``PutEvents``, source ``connect6``).

The write that caused the events has already landed when they are published, so a failure here
is logged and counted, never turned into an error for the caller.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import boto3
from aws_lambda_powertools import Logger

from connect6.game.events import SOURCE, Event

logger = Logger(child=True)


class EventBridgeSink:
    def __init__(self, bus_name: str, client_factory: Callable[[], Any] | None = None) -> None:
        self.bus_name = bus_name
        self._client_factory = client_factory or (lambda: boto3.client("events"))
        self._client: Any = None
        self.failed = 0

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = self._client_factory()
        return self._client

    def publish(self, events: Sequence[Event]) -> None:
        if not self.bus_name:
            return
        entries = [{"Source": SOURCE, "DetailType": event.detail_type, "EventBusName": self.bus_name,
                    "Detail": json.dumps(event.detail, separators=(",", ":"))} for event in events]
        for start in range(0, len(entries), 10):  # PutEvents takes at most 10 entries
            batch = entries[start:start + 10]
            try:
                response = self.client.put_events(Entries=batch)
                failed = int(response.get("FailedEntryCount", 0))
            except Exception:
                logger.exception("publishing events failed", extra={"count": len(batch)})
                failed = len(batch)
            if failed:
                self.failed += failed
                logger.warning("events not published", extra={"failed": failed})
