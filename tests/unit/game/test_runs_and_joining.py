from __future__ import annotations

import pytest

from connect6.game import ErrorCode, GameError, GameService, ListSink, Opponent
from connect6.store import MemoryStore
from tests.wire import wire


def test_put_run_creates_then_confirms_then_conflicts(service: GameService) -> None:
    # Given no run / When it is created
    created, view = service.put_run("run-1", "Sunday club", True)
    # Then it waits for players with two open seats
    assert created is True
    assert view.status == "waiting_for_players"
    assert [s.state for s in view.seats] == ["open", "open"]
    # When the same settings are sent again, nothing changes
    assert service.put_run("run-1", "Sunday club", True)[0] is False
    # When other settings are sent, it is a conflict
    with pytest.raises(GameError) as caught:
        service.put_run("run-1", "Monday club", True)
    assert caught.value.code is ErrorCode.CONFLICT


def test_join_sheet_counts_open_seats_and_offers_opponents(service: GameService) -> None:
    service.put_run("run-1", "Sunday club", True)
    sheet = service.join_sheet("run-1")
    assert sheet.open_seats == 2
    assert sheet.can_request_computer and sheet.can_invite
    assert wire(sheet.rules) == {"board_size": 15, "win_length": 6, "first_turn_stones": 1,
                                 "stones_per_turn": 2}
    service.join("run-1", "Ana", "ana@example.com")
    sheet = service.join_sheet("run-1")
    # One seat left: a joiner could not bring an opponent too
    assert sheet.open_seats == 1
    assert not sheet.can_request_computer and not sheet.can_invite


def test_runs_without_computer_opponents_offer_none(service: GameService) -> None:
    service.put_run("run-2", "Humans only", False)
    sheet = service.join_sheet("run-2")
    assert not sheet.can_request_computer and not sheet.can_invite
    with pytest.raises(GameError) as caught:
        service.join("run-2", "Ana", "ana@example.com", Opponent("computer", level="easy"))
    assert caught.value.code is ErrorCode.OPPONENT_NOT_ALLOWED


def test_two_joins_start_the_game_with_a_colour_draw(service: GameService, sink: ListSink) -> None:
    service.put_run("run-1", "Sunday club", True)
    first = service.join("run-1", "Ana", "ana@example.com")
    assert first.seat == 1 and not first.started
    second = service.join("run-1", "Ben", "ben@example.com")
    assert second.seat == 2 and second.started
    view = second.game
    assert view.status == "in_progress"
    assert wire(view.black) == {"name": "Ana", "kind": "human"}
    assert wire(view.to_move) == {"colour": "black", "name": "Ana", "move_number": 1, "stones_to_place": 1}
    assert [e.detail_type for e in sink.events] == ["game_started", "turn_ready"]
    assert sink.of_type("turn_ready")[0]["player_id"] == first.player_id


def test_join_errors(service: GameService) -> None:
    with pytest.raises(GameError) as caught:
        service.join("nope", "Ana", "ana@example.com")
    assert caught.value.code is ErrorCode.GAME_NOT_FOUND
    service.put_run("run-1", "Sunday club", True)
    service.join("run-1", "Ana", "ana@example.com")
    with pytest.raises(GameError) as caught:
        service.join("run-1", "Ana again", "ANA@example.com ")
    assert caught.value.code is ErrorCode.ALREADY_JOINED
    with pytest.raises(GameError) as caught:
        service.join("run-1", "Ben", "ben@example.com", Opponent("computer", level="easy"))
    assert caught.value.code is ErrorCode.OPPONENT_NOT_ALLOWED
    service.join("run-1", "Ben", "ben@example.com")
    with pytest.raises(GameError) as caught:
        service.join("run-1", "Cy", "cy@example.com")
    assert caught.value.code is ErrorCode.NO_OPEN_SEAT


def test_computer_drawn_black_plays_its_opening_at_once(store: MemoryStore, clock, sink) -> None:
    from tests.unit.game.conftest import scan_computer

    # Given the draw gives the computer's seat (2) Black
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 2)
    service.put_run("run-1", "Sunday club", True)
    # When Ana joins against the computer
    outcome = service.join("run-1", "Ana", "ana@example.com", Opponent("computer", level="hard"))
    # Then the game has started and the computer's opening stone is already on the board
    view = outcome.game
    assert view.status == "in_progress"
    assert wire(view.black) == {"name": "Computer (hard)", "kind": "computer"}
    assert view.move_count == 1 and view.stones_placed == 1
    assert view.to_move.name == "Ana" and view.to_move.move_number == 2
    assert sink.of_type("turn_ready") == [{"game_id": "run-1", "player_id": outcome.player_id,
                                           "name": "Ana", "move_number": 2}]


def test_the_view_never_shows_emails_tokens_or_player_ids(service: GameService) -> None:
    service.put_run("run-1", "Sunday club", True)
    outcome = service.join("run-1", "Ana", "ana@example.com",
                           Opponent("invite", name="Ben", email="ben@example.com", note="Rematch?"))
    assert outcome.invite is not None
    text = repr(service.view("run-1"))
    for secret in ("@example.com", outcome.player_id, outcome.invite.token, outcome.invite.invite_id):
        assert secret not in text
