"""The computer never searches past the invocation's time: its budget is the configured one capped
by the remaining time less a margin, read afresh by every search (a conflict retry included)."""

from __future__ import annotations

from typing import Any

import pytest

from connect6.ai import DEFAULT_BUDGETS
from connect6.api import deadline
from connect6.api.deadline import MARGIN_S, MIN_BUDGET_S, DeadlineBoundService, computer_budget
from connect6.store.memory import MemoryStore


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """No sockets here."""


class Context:
    def __init__(self, remaining_ms: list[int]) -> None:
        self.remaining_ms = remaining_ms

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms.pop(0) if len(self.remaining_ms) > 1 else self.remaining_ms[0]


def test_the_budget_is_the_configured_one_while_there_is_room() -> None:
    assert computer_budget(3.0, None) == 3.0 and computer_budget(None, None) is None
    assert computer_budget(3.0, 20.0) == 3.0
    assert computer_budget(None, 20.0) is None  # each level keeps its default


def test_near_the_end_the_budget_is_what_is_left_less_the_margin() -> None:
    assert computer_budget(3.0, 2.5) == pytest.approx(2.5 - MARGIN_S)
    assert max(DEFAULT_BUDGETS.values()) > 0.4
    assert computer_budget(None, MARGIN_S + 0.4) == pytest.approx(0.4)
    assert computer_budget(3.0, 0.2) == MIN_BUDGET_S == computer_budget(None, 0.0)


def test_every_search_reads_the_time_left_at_its_start() -> None:
    # Given a service configured for 3 s, inside an invocation with 2.5 s then 1.5 s then 0.5 s left
    service = DeadlineBoundService(MemoryStore(), computer_budget_s=3.0)
    assert service.computer_budget_s == 3.0  # outside an invocation: as configured
    with deadline.within(Context([2500, 1500, 500])):
        budgets: list[Any] = [service.computer_budget_s for _ in range(3)]
    # Then each read (a search, a conflict retry's search) gets less, never past the deadline
    assert budgets == pytest.approx([1.5, 0.5, MIN_BUDGET_S])
    assert service.computer_budget_s == 3.0


def test_a_context_without_remaining_time_changes_nothing() -> None:
    service = DeadlineBoundService(MemoryStore(), computer_budget_s=None)
    with deadline.within(object()):
        assert deadline.remaining_s() is None and service.computer_budget_s is None
