"""Events out: what the platform hears about (EventBridge, source ``connect6``). Details carry ids
and names, never tokens or e-mail addresses.

Events are an *outbox*: the service stores a change's events in the same conditional write as the
change itself (see ``Repository.save_game``), and a separate publisher delivers them from the
table's stream. Each event carries ``event_id`` (a UUID; consumers drop repeats, delivery is at
least once) and ``occurred_at`` (RFC 3339 UTC), added to the detail on the wire.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

SOURCE = "connect6"
GAME_STARTED = "game_started"
TURN_READY = "turn_ready"
GAME_FINISHED = "game_finished"
INVITE_REDEEMED = "invite_redeemed"
INVITE_EXPIRED = "invite_expired"
DRAW_OFFERED = "draw_offered"
MOVE_UNDONE = "move_undone"
TURN_REMINDER = "turn_reminder"  # v1.2: the mover's time is running low (once per turn)
GAME_PAUSED = "game_paused"  # v1.2
GAME_RESUMED = "game_resumed"  # v1.2


@dataclass(frozen=True)
class Event:
    detail_type: str
    detail: dict[str, Any]
    event_id: str = ""  # stamped when the change is stored
    occurred_at: str = ""

    def stamped(self, event_id: str, occurred_at: str) -> Event:
        return replace(self, event_id=event_id, occurred_at=occurred_at)

    def wire_detail(self) -> dict[str, Any]:
        """The detail as published: the domain's fields plus ``event_id`` and ``occurred_at``."""
        return {**self.detail, "event_id": self.event_id, "occurred_at": self.occurred_at}


def encode_outbox(events: Sequence[Event]) -> str:
    """The events of one change as stored beside it (a compact JSON list, in order)."""
    return json.dumps([{"type": e.detail_type, "id": e.event_id, "at": e.occurred_at, "detail": e.detail}
                       for e in events], separators=(",", ":"), sort_keys=True)


def decode_outbox(text: str) -> list[Event]:
    return [Event(item["type"], item["detail"], item["id"], item["at"]) for item in json.loads(text)]


class EventSink(Protocol):
    def publish(self, events: Sequence[Event]) -> None: ...


@dataclass
class ListSink:
    """Keeps what was delivered (tests, local runs without a bus)."""

    events: list[Event] = field(default_factory=list)

    def publish(self, events: Sequence[Event]) -> None:
        self.events.extend(events)

    def of_type(self, detail_type: str) -> list[dict[str, Any]]:
        """The domain's detail of each event of that type (without ``event_id``/``occurred_at``)."""
        return [e.detail for e in self.events if e.detail_type == detail_type]
