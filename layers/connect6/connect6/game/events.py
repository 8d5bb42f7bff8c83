"""Events out: what the platform hears about (EventBridge, source ``connect6``). Details carry ids
and names, never tokens or e-mail addresses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

SOURCE = "connect6"
GAME_STARTED = "game_started"
TURN_READY = "turn_ready"
GAME_FINISHED = "game_finished"
INVITE_REDEEMED = "invite_redeemed"
INVITE_EXPIRED = "invite_expired"


@dataclass(frozen=True)
class Event:
    detail_type: str
    detail: dict[str, Any]


class EventSink(Protocol):
    def publish(self, events: Sequence[Event]) -> None: ...


@dataclass
class ListSink:
    """Keeps what was published (tests, local runs without a bus)."""

    events: list[Event] = field(default_factory=list)

    def publish(self, events: Sequence[Event]) -> None:
        self.events.extend(events)

    def of_type(self, detail_type: str) -> list[dict[str, Any]]:
        return [e.detail for e in self.events if e.detail_type == detail_type]
