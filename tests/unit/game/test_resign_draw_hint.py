from __future__ import annotations

import pytest

from connect6.game import ErrorCode, GameError, GameService, ListSink, Opponent
from connect6.store import MemoryStore
from tests.clock import Clock
from tests.unit.game.conftest import scan_computer
from tests.wire import wire


def _code(call, *args) -> ErrorCode:
    with pytest.raises(GameError) as caught:
        call(*args)
    return caught.value.code


def test_resigning_gives_the_opponent_the_game(service: GameService, started, sink: ListSink) -> None:
    ana, ben = started
    view = service.resign("run-1", ben)
    assert view.status == "completed" and wire(view.winner) == {"colour": "black", "name": "Ana"}
    assert view.end_reason == "resigned"
    assert service.resign("run-1", ben) == view  # re-sent: the same finished game
    assert _code(service.resign, "run-1", ana) is ErrorCode.GAME_OVER
    assert service.recap("run-1", ana).result == "won"
    assert sink.of_type("game_finished")[0]["end_reason"] == "resigned"


def test_a_draw_needs_an_offer_and_an_acceptance(service: GameService, started) -> None:
    ana, ben = started
    assert _code(service.draw, "run-1", ben, "accept") is ErrorCode.NO_DRAW_OFFER
    service.draw("run-1", ana, "offer")
    assert service.move_sheet("run-1", ben).draw_offered_by_opponent is True
    assert service.move_sheet("run-1", ana).draw_offered_by_opponent is False
    service.draw("run-1", ben, "decline")
    assert service.move_sheet("run-1", ben).draw_offered_by_opponent is False
    service.draw("run-1", ana, "offer")
    # A move withdraws a standing offer
    service.submit_move("run-1", ana, 1, ["h8"])
    assert _code(service.draw, "run-1", ben, "accept") is ErrorCode.NO_DRAW_OFFER
    service.draw("run-1", ben, "offer")
    view = service.draw("run-1", ana, "accept")
    assert view.status == "draw" and view.end_reason == "agreed"
    assert service.recap("run-1", ben).result == "draw"
    assert _code(service.submit_move, "run-1", ben, 2, ["a1", "a2"]) is ErrorCode.GAME_OVER


def test_the_computer_declines_a_draw(store: MemoryStore, clock: Clock, sink: ListSink) -> None:
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 1)
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com", Opponent("computer", level="easy")).player_id
    assert service.draw("run-1", ana, "offer").status == "in_progress"
    assert _code(service.draw, "run-1", ana, "accept") is ErrorCode.NO_DRAW_OFFER


def test_a_hint_is_a_legal_move_for_the_player_to_move(store: MemoryStore, clock: Clock, sink) -> None:
    # Given a game against the computer (Ana plays Black)
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 1,
                          computer_budget_s=0.05)
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com", Opponent("computer", level="easy")).player_id
    hint = service.hint("run-1", ana)
    assert hint.move_number == 1 and len(hint.stones) == 1 and hint.reason
    # The hint is playable as it is
    assert service.submit_move("run-1", ana, 1, hint.stones).response.stones_placed == hint.stones
    assert len(service.hint("run-1", ana).stones) == 2


def test_hints_are_not_given_between_humans(service: GameService, started, store: MemoryStore) -> None:
    # Given a game between two people, whoever is to move
    ana, ben = started
    before = store.get_game("run-1")
    # Then neither gets a hint (the engine's move against a person is cheating), and nothing is written
    assert _code(service.hint, "run-1", ana) is ErrorCode.HINTS_NOT_ALLOWED
    assert _code(service.hint, "run-1", ben) is ErrorCode.HINTS_NOT_ALLOWED
    assert store.get_game("run-1") == before
