"""The transaction every use case runs in (``game/transaction.py``) and the one way a game ends
(``game/outcome.py``), tested directly: the use case tests see them only through the service."""

from __future__ import annotations

from typing import Any

import pytest

from connect6.game import ErrorCode, GameError, GameService, ListSink, StoreUnavailable, VersionConflict
from connect6.game.model import EndReason, Game, Status, iso
from connect6.game.outcome import Outcome, finish
from connect6.game.transaction import MAX_ATTEMPTS, Change, transact
from connect6.rules import Colour
from connect6.store import MemoryStore
from tests.clock import Clock


class LosingStore(MemoryStore):
    """Loses the next ``losses`` game writes to another writer (who changed nothing), or fails them."""

    def __init__(self) -> None:
        super().__init__()
        self.losses = 0
        self.unavailable = False

    def save_game(self, game: Game, **kwargs: Any) -> None:
        if self.unavailable:
            raise StoreUnavailable("save_game", "timeout")
        if self.losses:
            self.losses -= 1
            raise VersionConflict(game.game_id, None)
        super().save_game(game, **kwargs)


@pytest.fixture
def losing() -> LosingStore:
    return LosingStore()


@pytest.fixture
def ctx(losing: LosingStore, clock: Clock) -> GameService:
    ids = iter(f"ev{n}" for n in range(1, 100))
    service = GameService(losing, clock=clock, event_id_factory=lambda: next(ids))
    service.put_run("run-1", "Sunday club", True)
    return service


def test_a_change_is_stored_with_the_next_version_the_time_and_its_stamped_events(
        ctx: GameService, losing: LosingStore, clock: Clock) -> None:
    sink = ListSink()
    losing.subscribe(sink)
    clock.advance(minutes=5)

    def decide(change: Change) -> str:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        new = change.edit(game)
        new.game_name = "Monday club"
        change.emit("renamed", {"game_id": game.game_id})
        return "done"

    writes = losing.writes
    assert transact(ctx, decide) == "done"
    stored = losing.items["GAME#run-1"]
    assert (stored["game_name"], stored["version"]) == ("Monday club", 2)
    assert stored["updated_at"] == iso(clock.now)
    assert losing.writes == writes + 1
    assert [(e.detail_type, e.event_id, e.occurred_at, e.detail) for e in sink.events] == [
        ("renamed", "ev1", iso(clock.now), {"game_id": "run-1"})]


def test_a_decision_that_edits_nothing_writes_nothing_and_cannot_emit(ctx: GameService,
                                                                       losing: LosingStore) -> None:
    writes = losing.writes
    assert transact(ctx, lambda change: "read only") == "read only"
    assert losing.writes == writes

    def emits_only(change: Change) -> None:
        change.emit("lost", {})

    with pytest.raises(RuntimeError, match="nothing would store them"):
        transact(ctx, emits_only)
    assert losing.writes == writes


def test_a_lost_race_decides_again_on_a_fresh_read_then_busy(ctx: GameService, losing: LosingStore) -> None:
    attempts: list[int] = []

    def decide(change: Change) -> int:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        attempts.append(game.version)
        change.edit(game).game_name = "Monday club"
        return len(attempts)

    losing.losses = MAX_ATTEMPTS - 1
    assert transact(ctx, decide) == MAX_ATTEMPTS  # the last attempt lands
    assert losing.items["GAME#run-1"]["version"] == 2

    attempts.clear()
    losing.losses = MAX_ATTEMPTS
    with pytest.raises(GameError) as refused:
        transact(ctx, decide)
    assert refused.value.code is ErrorCode.BUSY
    assert len(attempts) == MAX_ATTEMPTS and losing.items["GAME#run-1"]["version"] == 2


def test_an_unavailable_store_is_not_retried_here(ctx: GameService, losing: LosingStore) -> None:
    attempts = []

    def decide(change: Change) -> None:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        attempts.append(1)
        change.edit(game)

    losing.unavailable = True
    with pytest.raises(StoreUnavailable):
        transact(ctx, decide)
    assert attempts == [1]


def test_a_quiet_change_bumps_the_version_only_and_has_no_events(ctx: GameService, losing: LosingStore,
                                                                  clock: Clock) -> None:
    before = dict(losing.items["GAME#run-1"])
    clock.advance(hours=1)

    def count(change: Change) -> None:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        change.edit(game, quiet=True).hints_used += 1

    transact(ctx, count)
    stored = losing.items["GAME#run-1"]
    assert (stored["version"], stored["hints_used"], stored["updated_at"]) == (2, 1, before["updated_at"])
    assert "outbox" not in stored

    def noisy(change: Change) -> None:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        change.edit(game, quiet=True)
        change.emit("counted", {})

    with pytest.raises(RuntimeError, match="quiet"):
        transact(ctx, noisy)

    def edits_twice(change: Change) -> None:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        change.edit(game)
        change.edit(game)

    with pytest.raises(RuntimeError, match="once"):
        transact(ctx, edits_twice)


@pytest.mark.parametrize(("outcome", "status", "winner", "reason", "line"), [
    (Outcome.six(Colour.WHITE, ("a1", "b2", "c3", "d4", "e5", "f6")), "completed", "white", "six",
     ["a1", "b2", "c3", "d4", "e5", "f6"]),
    (Outcome.full_board(), "draw", None, "full_board", []),
    (Outcome.resigned(Colour.BLACK), "completed", "white", "resigned", []),
    (Outcome.agreed(), "draw", None, "agreed", []),
])
def test_finish_ends_the_game_and_tells_the_platform(ctx: GameService, losing: LosingStore, clock: Clock,
                                                     outcome: Outcome, status: str, winner: str | None,
                                                     reason: str, line: list[str]) -> None:
    sink = ListSink()
    losing.subscribe(sink)
    ana = ctx.join("run-1", "Ana", "ana@example.com").player_id
    ctx.join("run-1", "Ben", "ben@example.com")
    sink.events.clear()

    def end(change: Change) -> None:
        game = ctx.repo.get_game("run-1")
        assert game is not None
        finish(change.edit(game), outcome, change)

    transact(ctx, end)
    stored = losing.items["GAME#run-1"]
    assert (stored["status"], stored["winner"], stored["end_reason"], stored["winning_line"]) == (
        status, winner, reason, line)
    assert stored["finished_at"] == iso(clock.now)
    game = ctx.repo.get_game("run-1")
    assert game is not None and game.end_reason is EndReason(reason) and game.status is Status(status)
    [finished] = sink.of_type("game_finished")
    assert finished["end_reason"] == reason and type(finished["end_reason"]) is str
    assert finished["status"] == status and finished["move_count"] == 0
    assert finished["winner"] == (None if winner is None else {
        "colour": winner, "name": game.seat_of_colour(Colour(winner)).name})
    assert [p["name"] for p in finished["players"]] == ["Ana", "Ben"]
    assert finished["players"][0]["player_id"] == ana
