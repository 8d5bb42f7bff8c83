from __future__ import annotations

import contextlib
import threading
from datetime import datetime
from typing import Any

import pytest

from connect6.game import ErrorCode, Game, GameError, GameService, ListSink, Opponent
from connect6.game.repository import InviteRef
from connect6.store import MemoryStore
from tests.clock import Clock
from tests.unit.game.conftest import scan_computer
from tests.wire import wire


def _invite(service: GameService) -> tuple[str, str]:
    service.put_run("run-1", "Sunday club", True)
    outcome = service.join("run-1", "Ana", "ana@example.com",
                           Opponent("invite", name="Ben", email="ben@example.com", note="Rematch?"))
    assert outcome.invite is not None
    return outcome.player_id, outcome.invite.token


def test_an_invitation_holds_the_other_seat_for_24_hours(service: GameService, store: MemoryStore) -> None:
    _ana, token = _invite(service)
    view = service.view("run-1")
    assert view.seats[1].state == "held"
    assert view.seats[1].hold_expires_at == "2026-05-02T12:00:00Z"
    assert service.join_sheet("run-1").open_seats == 0
    # Only the token's hash is stored, never the token
    assert token not in repr(store.items)


def test_the_invite_page_data_changes_nothing(service: GameService, store: MemoryStore) -> None:
    _ana, token = _invite(service)
    before = repr(store.items)
    info = service.invite_info(token)
    assert info.inviter_name == "Ana" and info.invitee_name == "Ben" and info.note == "Rematch?"
    assert info.status == "pending" and info.expires_at == "2026-05-02T12:00:00Z"
    assert repr(store.items) == before


def test_redeeming_takes_the_held_seat_and_starts_the_game(service: GameService, sink: ListSink) -> None:
    ana, token = _invite(service)
    outcome = service.redeem(token, "Benjamin")
    view = outcome.game
    assert view.status == "in_progress"
    assert wire(view.seats[1]) == {"seat": 2, "state": "taken", "name": "Benjamin", "kind": "human",
                                "colour": "white", "hold_expires_at": None}
    assert outcome.player_id != ana
    assert [e.detail_type for e in sink.events][-3:] == ["invite_redeemed", "game_started", "turn_ready"]
    # Single use
    with pytest.raises(GameError) as caught:
        service.redeem(token)
    assert caught.value.code is ErrorCode.INVITE_ALREADY_USED
    with pytest.raises(GameError) as caught:
        service.invite_info(token)
    assert caught.value.code is ErrorCode.INVITE_ALREADY_USED


def test_unknown_tokens_are_not_found(service: GameService) -> None:
    _invite(service)
    for call in (service.invite_info, service.redeem):
        with pytest.raises(GameError) as caught:
            call("not-a-token")
        assert caught.value.code is ErrorCode.INVITE_NOT_FOUND


def test_an_expired_hold_is_free_everywhere_before_any_sweeper(service: GameService, clock: Clock) -> None:
    _ana, token = _invite(service)
    # When 24 hours pass (the clock is injected, nothing sleeps)
    clock.advance(hours=24)
    # Then the seat reads as open, a newcomer may take it, and the invitation is expired
    assert service.view("run-1").seats[1].state == "open"
    assert service.join_sheet("run-1").open_seats == 1
    with pytest.raises(GameError) as caught:
        service.redeem(token)
    assert caught.value.code is ErrorCode.INVITE_EXPIRED
    cy = service.join("run-1", "Cy", "cy@example.com")
    assert cy.started
    with pytest.raises(GameError) as caught:
        service.redeem(token)
    assert caught.value.code is ErrorCode.INVITE_EXPIRED


def test_one_second_before_expiry_the_invitation_still_works(service: GameService, clock: Clock) -> None:
    _ana, token = _invite(service)
    clock.advance(hours=23, minutes=59, seconds=59)
    assert service.redeem(token).game.status == "in_progress"


def test_the_sweeper_releases_due_holds_once(service: GameService, clock: Clock, sink: ListSink,
                                              store: MemoryStore) -> None:
    _ana, _token = _invite(service)
    assert service.expire_holds().released == 0  # not due yet
    clock.advance(hours=25)
    assert service.expire_holds().released == 1
    assert service.expire_holds().released == 0  # run again: nothing left
    assert sink.of_type("invite_expired")[0]["invitee_name"] == "Ben"
    assert store.due_invites(clock(), 10) == []
    game = store.get_game("run-1")
    assert game is not None and game.seats[1].state.value == "open"


def test_the_sweeper_leaves_redeemed_invitations_alone(service: GameService, clock: Clock) -> None:
    _ana, token = _invite(service)
    service.redeem(token)
    clock.advance(hours=25)
    assert service.expire_holds().released == 0
    assert service.view("run-1").status == "in_progress"


class PausingStore(MemoryStore):
    """Lets two callers read the same game version before either writes."""

    def __init__(self) -> None:
        super().__init__()
        self.barrier: threading.Barrier | None = None
        self.waited: set[int] = set()

    def get_game(self, game_id: str) -> Game | None:
        game = super().get_game(game_id)
        if self.barrier is not None and threading.get_ident() not in self.waited:
            self.waited.add(threading.get_ident())
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=2)
        return game


def test_redemption_racing_the_sweeper_exactly_one_wins() -> None:
    # Given an invitation at the very edge of its hold: the invitee's clock says one second
    # before expiry, the sweeper's clock one second after
    store = PausingStore()
    start = datetime(2026, 5, 1, 12, 0, tzinfo=__import__("datetime").UTC)
    invitee_clock, sweeper_clock = Clock(start), Clock(start)
    sink = ListSink()
    store.subscribe(sink)
    invitee_side = GameService(store, clock=invitee_clock, computer=scan_computer)
    sweeper_side = GameService(store, clock=sweeper_clock, computer=scan_computer)
    invitee_side.put_run("run-1", "Sunday club", True)
    outcome = invitee_side.join("run-1", "Ana", "ana@example.com",
                                Opponent("invite", name="Ben", email="ben@example.com"))
    assert outcome.invite is not None
    invitee_clock.advance(hours=24, seconds=-1)
    sweeper_clock.advance(hours=24, seconds=1)
    # When both read the same game version and then both write
    store.barrier = threading.Barrier(2)
    results: dict[str, Any] = {}

    def redeem() -> None:
        try:
            results["redeem"] = invitee_side.redeem(outcome.invite.token)
        except GameError as error:
            results["redeem"] = error

    def sweep() -> None:
        results["sweep"] = sweeper_side.expire_holds().released

    threads = [threading.Thread(target=redeem), threading.Thread(target=sweep)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.barrier = None
    # Then exactly one of them won, and the game agrees with the winner
    redeemed = not isinstance(results["redeem"], GameError)
    swept = results["sweep"] == 1
    assert redeemed != swept
    game = store.get_game("run-1")
    assert game is not None
    if redeemed:
        assert game.status.value == "in_progress" and game.seats[1].state.value == "taken"
    else:
        assert results["redeem"].code is ErrorCode.INVITE_EXPIRED
        assert game.seats[1].state.value == "open"


def test_an_orphan_index_entry_is_ignored(service: GameService, store: MemoryStore, clock: Clock) -> None:
    # A game write that lost after its invitation was indexed leaves an index entry to nowhere
    service.put_run("run-1", "Sunday club", True)
    store.put_invite(InviteRef("f" * 64, "run-1", "ghost", clock()))
    clock.advance(minutes=1)
    assert service.expire_holds().released == 0
    assert store.due_invites(clock(), 10) == []

