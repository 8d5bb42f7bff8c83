from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime

import pytest

from connect6.game import GameService, ListSink
from connect6.rules import Position
from connect6.store import MemoryStore
from tests.clock import Clock


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """Domain tests never touch the network (pytest-socket)."""


def scan_computer(position: Position, level: str, *, budget_s: float | None,
                  rng: random.Random) -> Sequence[int]:
    """A test double for the computer: the first empty points from the top-left, read row by row."""
    n = position.size
    order = [row * n + col for row in range(n - 1, -1, -1) for col in range(n)]
    return [p for p in order if position.is_empty(p)][: position.stones_to_place]


class Ids:
    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> str:
        return f"id{next(self._counter):04d}"


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 5, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def sink(store: MemoryStore) -> ListSink:
    """What the store's stream delivers: each committed change's events, in commit order."""
    delivered = ListSink()
    store.subscribe(delivered)
    return delivered


@pytest.fixture
def service(store: MemoryStore, sink: ListSink, clock: Clock) -> GameService:
    tokens = (f"token-{n}" for n in itertools.count(1))
    return GameService(store, clock=clock, computer=scan_computer, id_factory=Ids(),
                       token_factory=lambda: next(tokens), colour_draw=lambda game: 1)


@pytest.fixture
def started(service: GameService) -> Iterator[tuple[str, str]]:
    """A started human game: (black player id, white player id). Seat 1 (Ana) plays Black."""
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com").player_id
    ben = service.join("run-1", "Ben", "ben@example.com").player_id
    yield ana, ben
