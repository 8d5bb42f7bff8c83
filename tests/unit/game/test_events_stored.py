"""The domain stores each change's events with the change (the outbox), stamped with an id and
the time, and stores nothing at all for a refused request."""

from __future__ import annotations

import re
import uuid

import pytest

from connect6.game import GameError, GameService, ListSink
from connect6.game.events import decode_outbox
from connect6.store import MemoryStore


def test_events_are_stored_with_their_change_with_an_id_and_a_time(
        service: GameService, store: MemoryStore, started: tuple[str, str], clock) -> None:
    ana, _ben = started
    before = len(store.stream)
    # When Ana plays
    service.submit_move("run-1", ana, 1, ["h8"])
    # Then the game item carries exactly this change's events, as the stream delivers them
    stored = decode_outbox(store.items["GAME#run-1"]["outbox"])
    assert stored == store.stream[before:]
    assert [e.detail_type for e in stored] == ["turn_ready"]
    for event in store.stream:
        assert uuid.UUID(event.event_id).version == 4
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", event.occurred_at)
        assert event.wire_detail()["event_id"] == event.event_id
    assert stored[0].occurred_at == "2026-05-01T12:00:00Z"
    assert len({e.event_id for e in store.stream}) == len(store.stream)


@pytest.mark.parametrize("stones, number", [(["zz9"], 1), (["h8", "h9"], 1), (["h8"], 2), (["h8"], 0)])
def test_a_refused_move_stores_nothing_and_sends_nothing(
        service: GameService, store: MemoryStore, sink: ListSink, started: tuple[str, str],
        stones: list[str], number: int) -> None:
    ana, _ben = started
    item, stream, delivered, writes = dict(store.items["GAME#run-1"]), list(store.stream), len(sink.events), \
        store.writes
    with pytest.raises(GameError):
        service.submit_move("run-1", ana, number, stones)
    assert store.items["GAME#run-1"] == item and store.stream == stream
    assert len(sink.events) == delivered and store.writes == writes
