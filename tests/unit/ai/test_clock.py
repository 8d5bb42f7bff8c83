"""The engine's clock: wall time by default, this process's CPU time on request."""

import time

from connect6.ai import clock, protocol


def _advance_while_sleeping(seconds: float) -> float:
    before = clock.now()
    time.sleep(seconds)
    return clock.now() - before


def test_wall_clock_counts_time_spent_waiting() -> None:
    clock.use_cpu_time(False)
    assert _advance_while_sleeping(0.2) >= 0.19


def test_cpu_clock_does_not_count_time_spent_waiting() -> None:
    # Given the CPU clock (what a loaded machine's waiting looks like to the engine: time not run)
    clock.use_cpu_time()
    try:
        # When the process sleeps, Then the engine's clock barely moves
        assert _advance_while_sleeping(0.2) < 0.05
    finally:
        clock.use_cpu_time(False)


def test_engine_command_line_chooses_the_clock(monkeypatch) -> None:
    chosen: list[bool] = []
    monkeypatch.setattr(clock, "use_cpu_time", lambda enabled=True: chosen.append(enabled))
    monkeypatch.setattr(protocol, "serve", lambda *args: None)
    assert protocol.main(["--size", "9", "--clock", "cpu"]) == 0
    assert protocol.main(["--size", "9"]) == 0
    assert chosen == [True, False]
