"""Fixtures shared by the engine's tests."""

import pytest

from connect6.ai import clock


@pytest.fixture
def cpu_clock():
    """The engine measures its budget in its own CPU time: machine load cannot cut a search short."""
    clock.use_cpu_time()
    yield
    clock.use_cpu_time(False)
