"""Clocks (v1.2) on the fake clock: bank arithmetic with increment and cap, per-move time, the
deadline and time left in the views, a loss on time on every read path before any sweep, the sweep
storing it once, the reminder once per turn, pause shifting deadlines, cancel, and the move against
the sweep at the deadline with exactly one winner (the conditional write)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from connect6.game import GameError, GameService, ListSink, TimeControl
from connect6.game import clock as clk
from connect6.game.errors import ErrorCode
from connect6.game.seating import Opponent
from connect6.rules import Colour
from connect6.store import MemoryStore
from tests.clock import Clock

LG = TimeControl.bank(240, 36, 240)  # Little Golem's


def timed(service: GameService, control: TimeControl = LG, game_id: str = "run-t") -> tuple[str, str]:
    """A started timed game between people: (black, white). Ana (seat 1) plays Black."""
    service.put_run(game_id, "Timed", True, control)
    ana = service.join(game_id, "Ana", "ana@example.com").player_id
    ben = service.join(game_id, "Ben", "ben@example.com").player_id
    return ana, ben


def seconds(hours: float) -> int:
    return int(hours * 3600)


# ---------------------------------------------------------------------- arithmetic
def test_bank_gains_the_increment_after_each_move_and_never_passes_the_cap() -> None:
    state = clk.start(LG, Clock().now)
    start = state.turn_started_at
    # Black moves after 10 hours: 230 + 36 is over the cap of 240
    clk.moved(LG, state, Colour.BLACK, start + timedelta(hours=10))
    assert state.black_ms == 240 * clk.HOUR_MS
    # White moves 100 hours into their turn: 140 + 36
    clk.moved(LG, state, Colour.WHITE, start + timedelta(hours=110))
    assert state.white_ms == 176 * clk.HOUR_MS
    assert clk.deadline(state, Colour.BLACK) == start + timedelta(hours=110 + 240)


def test_per_move_time_is_fresh_every_move() -> None:
    control = TimeControl.per_move(72)
    state = clk.start(control, Clock().now)
    clk.moved(control, state, Colour.BLACK, state.turn_started_at + timedelta(hours=70))
    assert state.black_ms == 72 * clk.HOUR_MS
    assert control.reminder_lead == timedelta(hours=24)
    assert TimeControl.per_move(12).reminder_lead == timedelta(hours=6)  # half, under two days


@pytest.mark.parametrize(("control", "field"), [
    (TimeControl.per_move(0), "hours"),
    (TimeControl.per_move(clk.MAX_HOURS + 1), "hours"),
    (TimeControl.bank(240, 36, 100), "max_hours"),
    (TimeControl.bank(0, 36, 240), "initial_hours"),
    (TimeControl.bank(240, -1, 240), "increment_hours"),
])
def test_settings_outside_sense_are_refused_with_the_field(service: GameService, control: TimeControl,
                                                           field: str) -> None:
    with pytest.raises(GameError) as caught:
        service.put_run("run-bad", "Bad", False, control)
    assert caught.value.code is ErrorCode.INVALID_TIME_CONTROL
    assert caught.value.field == f"time_control.{field}" and caught.value.message.endswith(".")
    assert service.repo.get_game("run-bad") is None  # nothing written


def test_put_compares_the_time_control(service: GameService) -> None:
    assert service.put_run("run-t", "Timed", False, LG)[0] is True
    assert service.put_run("run-t", "Timed", False, TimeControl.bank(240, 36, 240))[0] is False
    for other in (None, TimeControl.per_move(240), TimeControl.bank(240, 24, 240)):
        with pytest.raises(GameError) as caught:
            service.put_run("run-t", "Timed", False, other)
        assert caught.value.code is ErrorCode.CONFLICT
    service.put_run("run-u", "Untimed", False)
    with pytest.raises(GameError):
        service.put_run("run-u", "Untimed", False, LG)


# ---------------------------------------------------------------------- views
def test_an_untimed_game_has_no_clock_and_is_not_in_the_clock_index(service: GameService, store: MemoryStore,
                                                                     started: tuple[str, str],
                                                                     clock: Clock) -> None:
    view = service.view("run-1")
    assert view.clock is None and view.paused is False
    assert service.move_sheet("run-1", started[0]).clock is None
    clock.advance(days=400)
    assert service.view("run-1").status == "in_progress"
    assert store.due_clocks(clock(), 10) == []


def test_the_views_count_the_movers_time_down_to_the_answer(service: GameService, clock: Clock) -> None:
    service.put_run("run-t", "Timed", True, LG)
    assert service.view("run-t").clock.model_dump() == {  # type: ignore[union-attr]
        "deadline": None, "black_seconds": seconds(240), "white_seconds": seconds(240)}
    ana, _ben = timed(service)
    clock.advance(hours=5)
    sheet = service.move_sheet("run-t", ana)
    assert sheet.clock is not None and sheet.paused is False
    assert sheet.clock.deadline == "2026-05-11T12:00:00Z"  # 240 hours after the start
    assert (sheet.clock.black_seconds, sheet.clock.white_seconds) == (seconds(235), seconds(240))
    service.submit_move("run-t", ana, 1, ["h8"])
    clock.advance(hours=100)
    view = service.view("run-t")
    assert view.clock is not None and view.clock.deadline == "2026-05-11T17:00:00Z"  # White's 240 h
    assert (view.clock.black_seconds, view.clock.white_seconds) == (seconds(240), seconds(140))


def test_the_computer_has_no_clock(service: GameService, clock: Clock) -> None:
    service.put_run("run-c", "Timed", True, TimeControl.per_move(48))
    ana = service.join("run-c", "Ana", "ana@example.com",
                       Opponent(kind="computer", level="easy")).player_id
    clock.advance(hours=47)
    service.submit_move("run-c", ana, 1, ["h8"])  # the computer replies in the same write
    view = service.view("run-c")
    assert view.clock is not None and view.clock.white_seconds == seconds(48)  # never counted down
    assert view.clock.deadline == "2026-05-05T11:00:00Z"  # Ana's next 48 hours from her move


# ---------------------------------------------------------------------- loss on time
def test_a_mover_past_the_deadline_has_lost_on_every_read_path_before_any_sweep(
        service: GameService, store: MemoryStore, sink: ListSink, clock: Clock) -> None:
    ana, ben = timed(service, TimeControl.per_move(24))
    service.submit_move("run-t", ana, 1, ["h8"])
    clock.advance(hours=24)  # Ben's 24 hours are gone, to the millisecond
    view = service.view("run-t")
    assert (view.status, view.end_reason, view.winner.colour) == ("completed", "time", "black")  # type: ignore[union-attr]
    assert view.clock is not None and view.clock.deadline is None and view.clock.white_seconds == 0
    assert view.to_move is None
    for player in (ana, ben):
        sheet = service.move_sheet("run-t", player)
        assert sheet.status == "completed" and sheet.stones_to_place == 0
        assert service.record("run-t", player).status == "completed"
    recap = service.recap("run-t", ben)
    assert (recap.result, recap.end_reason, recap.finished_at) == ("lost", "time", "2026-05-02T12:00:00Z")
    with pytest.raises(GameError) as caught:
        service.submit_move("run-t", ben, 2, ["h9", "h10"])
    assert caught.value.code is ErrorCode.GAME_OVER
    for refused in (service.pause, service.cancel):
        with pytest.raises(GameError):
            refused("run-t")
    # Nothing was stored by reading: the stored game still runs until the sweep
    stored = store.get_game("run-t")
    assert stored is not None and stored.status.value == "in_progress"
    assert sink.of_type("game_finished") == []


def test_the_sweep_stores_the_loss_once_with_one_game_finished(service: GameService, store: MemoryStore,
                                                               sink: ListSink, clock: Clock) -> None:
    _ana, _ben = timed(service, TimeControl.per_move(24))
    clock.advance(hours=23)
    assert store.due_clocks(clock(), 10) == ["run-t"]  # the reminder (12 h left) is due
    service.sweep_clocks()
    clock.advance(hours=2)
    swept = service.sweep_clocks()
    assert (swept.examined, swept.timed_out) == (1, 1)
    again = service.sweep_clocks()
    assert (again.examined, again.timed_out) == (0, 0)  # out of the index with the end
    (finished,) = sink.of_type("game_finished")
    assert finished["end_reason"] == "time" and finished["winner"]["colour"] == "white"
    stored = store.get_game("run-t")
    assert stored is not None and stored.finished_at == clock.now - timedelta(hours=1)
    assert service.view("run-t").clock.black_seconds == 0  # type: ignore[union-attr]


def test_one_reminder_per_turn_however_many_sweeps(service: GameService, store: MemoryStore, sink: ListSink,
                                                   clock: Clock) -> None:
    ana, ben = timed(service, TimeControl.bank(48, 12, 72))
    clock.advance(hours=23)
    assert service.sweep_clocks().reminded == 0  # 25 hours left: not yet
    clock.advance(hours=1)
    assert service.sweep_clocks().reminded == 1
    for _ in range(3):
        clock.advance(hours=1)
        assert service.sweep_clocks().reminded == 0
    (reminder,) = sink.of_type("turn_reminder")
    assert reminder == {"game_id": "run-t", "player_id": ana, "move_number": 1,
                        "deadline": "2026-05-03T12:00:00Z"}
    service.submit_move("run-t", ana, 1, ["h8"])  # 21 h left + 12 = 33 h; White's 48 h begin
    clock.advance(hours=23)
    assert service.sweep_clocks().reminded == 0
    clock.advance(hours=1)
    service.sweep_clocks()
    assert [r["player_id"] for r in sink.of_type("turn_reminder")] == [ana, ben]


def test_two_sweeps_at_once_send_one_reminder_and_store_one_end(clock: Clock) -> None:
    store = MemoryStore()
    sink = ListSink()
    store.subscribe(sink)
    service = GameService(store, clock=clock, colour_draw=lambda game: 1)
    timed(service, TimeControl.per_move(24))
    clock.advance(hours=13)
    barrier = threading.Barrier(4)

    def sweep() -> None:
        barrier.wait()
        service.sweep_clocks()

    for _ in range(2):
        threads = [threading.Thread(target=sweep) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        clock.advance(hours=12)
    assert len(sink.of_type("turn_reminder")) == 1 and len(sink.of_type("game_finished")) == 1


# ---------------------------------------------------------------------- the race at the deadline
class Interleaving(MemoryStore):
    """A store that lets another request land just before the next game write (a race lost)."""

    def __init__(self) -> None:
        super().__init__()
        self.before_next_save: list[object] = []

    def save_game(self, game, *, expected_version, expected_move_count, events=()):  # type: ignore[no-untyped-def]
        while self.before_next_save:
            self.before_next_save.pop()()  # type: ignore[operator]
        super().save_game(game, expected_version=expected_version, expected_move_count=expected_move_count,
                          events=events)


@pytest.mark.parametrize("first", ["move", "sweep"])
def test_a_last_moment_move_and_the_sweep_have_exactly_one_winner(first: str) -> None:
    store = Interleaving()
    sink = ListSink()
    store.subscribe(sink)
    player_clock, sweep_clock = Clock(), Clock()
    player = GameService(store, clock=player_clock, colour_draw=lambda game: 1)
    sweeper = GameService(store, clock=sweep_clock, colour_draw=lambda game: 1)
    ana, _ = timed(player, TimeControl.per_move(24))
    # The move is decided a millisecond before the deadline, the sweep a millisecond after
    player_clock.advance(hours=24, milliseconds=-1)
    sweep_clock.advance(hours=24, milliseconds=1)
    if first == "move":
        store.before_next_save.append(lambda: player.submit_move("run-t", ana, 1, ["h8"]))
        assert sweeper.sweep_clocks().timed_out == 0  # lost its write, decided again: nothing due
        assert sink.of_type("game_finished") == [] and player.view("run-t").move_count == 1
    else:
        store.before_next_save.append(lambda: sweeper.sweep_clocks())
        with pytest.raises(GameError) as caught:
            player.submit_move("run-t", ana, 1, ["h8"])
        assert caught.value.code is ErrorCode.GAME_OVER
        assert len(sink.of_type("game_finished")) == 1 and player.view("run-t").move_count == 0


# ---------------------------------------------------------------------- pause, resume, cancel
def test_pause_refuses_moves_stands_the_clock_and_resume_moves_the_deadline_on(
        service: GameService, store: MemoryStore, sink: ListSink, clock: Clock) -> None:
    ana, _ben = timed(service, TimeControl.per_move(24))
    clock.advance(hours=4)
    paused = service.pause("run-t")
    assert paused.paused is True and paused.clock is not None and paused.clock.deadline is None
    assert service.pause("run-t").paused is True  # idempotent: no second event
    assert store.due_clocks(clock.now + timedelta(days=30), 10) == []  # out of the clock index
    with pytest.raises(GameError) as caught:
        service.submit_move("run-t", ana, 1, ["h8"])
    assert caught.value.code is ErrorCode.GAME_PAUSED
    clock.advance(days=10)  # far past the deadline the game had: the clock stands
    view = service.view("run-t")
    assert view.status == "in_progress" and view.clock.black_seconds == seconds(20)  # type: ignore[union-attr]
    assert service.sweep_clocks().timed_out == 0
    resumed = service.resume("run-t")
    assert resumed.paused is False and resumed.clock is not None
    assert resumed.clock.deadline == "2026-05-12T12:00:00Z"  # 20 hours left from now (05-11 16:00)
    assert service.resume("run-t").paused is False
    assert [e["move_number"] for e in sink.of_type("game_paused")] == [1]
    (event,) = sink.of_type("game_resumed")
    assert event["deadline"] == "2026-05-12T12:00:00Z"
    service.submit_move("run-t", ana, 1, ["h8"])


def test_a_turn_that_starts_during_a_pause_starts_at_the_resume(service: GameService, clock: Clock) -> None:
    service.put_run("run-t", "Timed", False, TimeControl.per_move(24))
    service.pause("run-t")  # before anyone joined
    service.join("run-t", "Ana", "ana@example.com")
    service.join("run-t", "Ben", "ben@example.com")
    clock.advance(hours=30)
    service.resume("run-t")
    assert service.view("run-t").clock.deadline == "2026-05-03T18:00:00Z"  # type: ignore[union-attr]


def test_cancel_ends_the_run_with_no_winner(service: GameService, sink: ListSink, clock: Clock) -> None:
    ana, ben = timed(service)
    service.pause("run-t")
    view = service.cancel("run-t")
    assert (view.status, view.end_reason, view.winner, view.paused) == ("cancelled", "cancelled", None, False)
    assert service.cancel("run-t").status == "cancelled"  # re-sent: the same view, no second event
    (finished,) = sink.of_type("game_finished")
    assert finished["status"] == "cancelled" and finished["winner"] is None
    assert service.recap("run-t", ana).result == "cancelled"
    for refused in (lambda: service.submit_move("run-t", ana, 1, ["h8"]), lambda: service.pause("run-t"),
                    lambda: service.resume("run-t"), lambda: service.resign("run-t", ben)):
        with pytest.raises(GameError) as caught:
            refused()
        assert caught.value.code is ErrorCode.GAME_OVER


def test_cancelling_a_waiting_run_expires_its_invitation_and_closes_it(service: GameService,
                                                                       sink: ListSink) -> None:
    service.put_run("run-w", "Waiting", True)
    joined = service.join("run-w", "Ana", "ana@example.com",
                          Opponent(kind="invite", name="Ben", email="ben@example.com"))
    assert joined.invite is not None
    service.cancel("run-w")
    assert [e["invite_id"] for e in sink.of_type("invite_expired")] == [joined.invite.invite_id]
    with pytest.raises(GameError) as caught:
        service.redeem(joined.invite.token)
    assert caught.value.code is ErrorCode.INVITE_EXPIRED
    with pytest.raises(GameError) as caught:
        service.join("run-w", "Cy", "cy@example.com")
    assert caught.value.code is ErrorCode.GAME_OVER
