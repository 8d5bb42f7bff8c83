from __future__ import annotations

import pytest

from connect6.game import ErrorCode, GameError, GameService, ListSink, Opponent
from connect6.game.repository import VersionConflict
from connect6.game.talk import COMPUTER_WON
from connect6.rules import Position
from connect6.store import MemoryStore
from tests.clock import Clock
from tests.unit.game.conftest import scan_computer
from tests.wire import wire


def _code(call, *args, **kwargs) -> ErrorCode:
    with pytest.raises(GameError) as caught:
        call(*args, **kwargs)
    return caught.value.code


def test_a_turn_plays_through_the_rules_and_passes_the_turn(service: GameService, started, sink) -> None:
    ana, ben = started
    outcome = service.submit_move("run-1", ana, 1, ["H8"], "good_luck")
    assert wire(outcome.response) == {"move_number": 1, "colour": "black", "stones_placed": ["h8"],
                                "status": "in_progress", "winner": None, "winning_line": [],
                                "computer_reply": None, "next": {"player_id": ben, "move_number": 2},
                                "draw_offer": None}
    sheet = service.move_sheet("run-1", ben)
    assert sheet.your_turn and sheet.move_number == 2 and sheet.stones_to_place == 2
    assert wire(sheet.table_talk_received) == {"phrase_id": "good_luck", "text": "Good luck!", "from": "Ana"}
    assert wire(sheet.last_move) == {"move_number": 1, "colour": "black", "stones": ["h8"]}
    assert sheet.board[7] == ".......B......."
    assert sink.of_type("turn_ready")[-1] == {"game_id": "run-1", "player_id": ben, "name": "Ben",
                                              "move_number": 2}
    ana_sheet = service.move_sheet("run-1", ana)
    assert not ana_sheet.your_turn and ana_sheet.table_talk_received is None


def test_turn_errors_change_nothing(service: GameService, started, store: MemoryStore) -> None:
    ana, ben = started
    service.submit_move("run-1", ana, 1, ["h8"])
    before = repr(store.items)
    assert _code(service.submit_move, "run-1", ana, 2, ["a1", "a2"]) is ErrorCode.NOT_YOUR_TURN
    assert _code(service.submit_move, "run-1", ben, 1, ["a1", "a2"]) is ErrorCode.STALE_MOVE
    assert _code(service.submit_move, "run-1", ben, 3, ["a1", "a2"]) is ErrorCode.STALE_MOVE
    assert _code(service.submit_move, "run-1", ben, 2, ["a1", "a2"], "rude") is ErrorCode.UNKNOWN_PHRASE
    assert _code(service.submit_move, "run-1", "nobody", 2, ["a1", "a2"]) is ErrorCode.PLAYER_NOT_FOUND
    assert _code(service.submit_move, "nope", ben, 2, ["a1", "a2"]) is ErrorCode.GAME_NOT_FOUND
    assert repr(store.items) == before


@pytest.mark.parametrize(("stones", "field", "message"), [
    (["h8", "a1"], "stones[0]", "h8 is already taken."),
    (["a1", "a1"], "stones[1]", "a1 is played twice in this move."),
    (["a1", "p1"], "stones[1]", "p1 is off the 15x15 board."),
    (["a1", "z99"], "stones[1]", "z99 is off the 15x15 board."),
    (["a1", "hello"], "stones[1]", "'hello' is not a point like h8."),
    (["a1"], "stones", "This turn places 2 stones, not 1."),
    (["a1", "a2", "a3"], "stones", "This turn places 2 stones, not 3."),
])
def test_illegal_moves_name_the_stone_and_say_why(service: GameService, started, stones, field,
                                                  message) -> None:
    ana, ben = started
    service.submit_move("run-1", ana, 1, ["h8"])
    with pytest.raises(GameError) as caught:
        service.submit_move("run-1", ben, 2, stones)
    assert (caught.value.code, caught.value.field, caught.value.message) == (
        ErrorCode.ILLEGAL_MOVE, field, message)


def test_a_resent_move_returns_the_same_response_and_changes_nothing(service, started, store) -> None:
    ana, ben = started
    first = service.submit_move("run-1", ana, 1, ["h8"], "hello")
    writes = store.writes
    again = service.submit_move("run-1", ana, 1, ["H8"], "hello")
    assert again.replayed and again.response == first.response
    assert store.writes == writes
    # Still the same after the opponent has moved on
    service.submit_move("run-1", ben, 2, ["a1", "a2"])
    assert service.submit_move("run-1", ana, 1, ["h8"], "hello").response == first.response
    # A different move under the same number is stale, not a replay
    assert _code(service.submit_move, "run-1", ana, 1, ["h9"], "hello") is ErrorCode.STALE_MOVE


def _play(service: GameService, ana: str, ben: str, turns: list[list[str]]) -> dict:
    response: dict = {}
    for number, stones in enumerate(turns, start=1):
        player = ana if number % 2 else ben
        response = service.submit_move("run-1", player, number, stones).response
    return response


def test_a_pair_that_wins_on_its_first_stone_places_only_that_stone(service, started, sink) -> None:
    ana, ben = started
    # Black: c8 d8 e8 f8 g8 in place; White elsewhere
    _play(service, ana, ben, [["c8"], ["a1", "a2"], ["d8", "e8"], ["a3", "a4"], ["f8", "g8"],
                              ["a6", "a7"]])
    response = service.submit_move("run-1", ana, 7, ["h8", "o15"]).response
    assert response.stones_placed == ["h8"]
    assert response.status == "completed"
    assert wire(response.winner) == {"colour": "black", "name": "Ana"}
    assert response.winning_line == ["c8", "d8", "e8", "f8", "g8", "h8"]
    assert response.next is None
    view = service.view("run-1")
    assert view.stones_placed == 12 and view.board[0][14] == "."
    assert sink.of_type("game_finished")[0]["winner"] == {"colour": "black", "name": "Ana"}
    # The game is over for both; the winning move re-sent still gets its 200
    assert _code(service.submit_move, "run-1", ben, 8, ["b1", "b2"]) is ErrorCode.GAME_OVER
    assert service.submit_move("run-1", ana, 7, ["h8", "o15"]).response == response
    recap = service.recap("run-1", ben)
    assert recap.result == "lost" and recap.record == "1.c8 2.a1a2 3.d8e8 4.a3a4 5.f8g8 6.a6a7 7.h8"
    assert service.recap("run-1", ana).result == "won"


def test_moves_before_the_start_and_recap_before_the_end(service: GameService) -> None:
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com").player_id
    assert _code(service.submit_move, "run-1", ana, 1, ["h8"]) is ErrorCode.GAME_NOT_STARTED
    assert _code(service.recap, "run-1", ana) is ErrorCode.GAME_NOT_FINISHED
    sheet = service.move_sheet("run-1", ana)
    assert sheet.status == "waiting_for_players" and sheet.opponent is None


def test_the_computer_replies_in_the_same_call(store: MemoryStore, clock: Clock, sink: ListSink) -> None:
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 1)
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com", Opponent("computer", level="easy")).player_id
    outcome = service.submit_move("run-1", ana, 1, ["h8"])
    reply = outcome.response.computer_reply
    assert reply.move_number == 2 and reply.stones_placed == ["a15", "b15"]
    assert wire(outcome.response.next) == {"player_id": ana, "move_number": 3}
    assert outcome.computer_think_s is not None
    assert service.move_sheet("run-1", ana).your_turn


class LosingStore(MemoryStore):
    """Another writer slips in between this writer's read and its write, once."""

    def __init__(self) -> None:
        super().__init__()
        self.intruder = None

    def save_game(self, game, *, expected_version, expected_move_count, events=()):
        if self.intruder is not None:
            intruder, self.intruder = self.intruder, None
            intruder()
        super().save_game(game, expected_version=expected_version, expected_move_count=expected_move_count,
                          events=events)


def test_a_write_that_loses_the_race_is_decided_again(clock: Clock, sink: ListSink) -> None:
    store = LosingStore()
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 1)
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com").player_id
    service.join("run-1", "Ben", "ben@example.com")
    # Given Ana's other client lands h8 between this call's read and its write
    store.intruder = lambda: service.submit_move("run-1", ana, 1, ["h8"])
    # When this call (a different opening) then writes, its condition fails; re-decided, it is stale
    assert _code(service.submit_move, "run-1", ana, 1, ["g7"]) is ErrorCode.STALE_MOVE
    # And the same move racing itself lands once, the loser replays the winner's response
    game = store.get_game("run-1")
    assert game is not None and game.move_count == 1


def test_the_store_condition_reports_the_current_game(store: MemoryStore, service, started) -> None:
    game = store.get_game("run-1")
    assert game is not None
    with pytest.raises(VersionConflict) as caught:
        store.save_game(game, expected_version=game.version - 1, expected_move_count=game.move_count)
    assert caught.value.current is not None and caught.value.current.version == game.version


def test_a_full_board_without_six_is_a_draw(clock: Clock, sink: ListSink) -> None:
    # Given a prepared 6x6 position one stone short of full with no six anywhere
    store = MemoryStore()
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 1,
                          board_size=6)
    service.put_run("run-1", "Tiny", True)
    ana = service.join("run-1", "Ana", "ana@example.com").player_id
    ben = service.join("run-1", "Ben", "ben@example.com").player_id
    turns = draw_turns(6)
    for number, stones in enumerate(turns[:-1], start=1):
        service.submit_move("run-1", ana if number % 2 else ben, number, stones)
    last = len(turns)
    response = service.submit_move("run-1", ana if last % 2 else ben, last, turns[-1]).response
    assert response.status == "draw" and response.winner is None
    assert service.view("run-1").status == "draw"
    assert service.recap("run-1", ana).result == "draw"


def draw_turns(size: int) -> list[list[str]]:
    """A legal game that fills a size x size board with no six: colours in 2x2-ish checks."""
    from connect6.records import point_label

    # Colour of a point: alternate every two columns, shifted each row, so no line holds six alike.
    def colour(col: int, row: int) -> int:
        return ((col // 2) + row) % 2

    black = [r * size + c for r in range(size) for c in range(size) if colour(c, r) == 0]
    white = [r * size + c for r in range(size) for c in range(size) if colour(c, r) == 1]
    turns: list[list[int]] = [[black.pop(0)]]
    while black or white:
        side = white if len(turns) % 2 else black
        turns.append([side.pop(0) for _ in range(min(2, len(side)))])
    position = Position(size)
    for stones in turns:
        result = position.play(stones)
        assert result.winner is None
    assert position.draw
    return [[point_label(p, size) for p in stones] for stones in turns]


def test_the_computer_winning_on_its_first_stone_is_stored_replayably(clock: Clock, sink: ListSink) -> None:
    # Given a computer (White) that completes a six with the first stone of its pair
    from connect6.records import parse_label

    def finisher(position: Position, level: str, *, budget_s, rng) -> list[int]:
        row = [parse_label(f"{c}1", 15) for c in "abcdef"]
        mine = [p for p in row if position.colour_at(p) is not None]
        target = next(p for p in row if position.is_empty(p))
        spare = next(p for p in reversed(range(225)) if position.is_empty(p) and p not in row)
        if len(mine) >= 4:
            return [target, spare]  # the fifth, then the sixth: each first in its pair
        return [p for p in row if position.is_empty(p)][:2]

    store = MemoryStore()
    service = GameService(store, clock=clock, computer=finisher, colour_draw=lambda game: 1)
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com", Opponent("computer", level="easy")).player_id
    # When Ana plays far away until the computer's turn can finish a1..f1
    responses = [service.submit_move("run-1", ana, n, s).response
                 for n, s in ((1, ["h8"]), (3, ["h9", "h10"]), (5, ["j9", "j11"]), (7, ["l9", "l11"]))]
    last = responses[-1]
    # Then the computer's reply shows one stone placed, the game is over, and it replays cleanly
    assert last.status == "completed" and last.winner.colour == "white"
    assert last.computer_reply.stones_placed == ["f1"]
    assert service.view("run-1").winning_line == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert service.submit_move("run-1", ana, 7, ["l9", "l11"]).response == last
    # A turn stored before offered pairs were recorded still replays (the partner is implied)
    game = store.get_game("run-1")
    assert game is not None and game.turns[-1].offered is not None
    game.turns[-1].offered = None
    assert game.position().winner is not None


def test_the_computer_closes_a_game_with_a_closing_line_never_a_mid_game_one(
        store: MemoryStore, clock: Clock, sink: ListSink) -> None:
    # Given many runs (each seeds the computer's talk differently) where the computer, playing the
    # top row from the left, makes six on its third turn while Ana plays along the bottom row
    service = GameService(store, clock=clock, computer=scan_computer, colour_draw=lambda game: 1)
    closing_lines = []
    for run in range(40):
        game_id = f"run-{run}"
        service.put_run(game_id, "Sunday club", True)
        ana = service.join(game_id, "Ana", "ana@example.com", Opponent("computer", level="easy")).player_id
        service.submit_move(game_id, ana, 1, ["h8"])
        service.submit_move(game_id, ana, 3, ["a1", "b1"])
        # When the computer's reply to move 5 wins
        outcome = service.submit_move(game_id, ana, 5, ["c1", "d1"])
        reply = outcome.response.computer_reply
        assert outcome.response.status == "completed" and reply.move_number == 6
        if reply.table_talk is not None:
            closing_lines.append(reply.table_talk.phrase_id)
    # Then it says its closing line every time ("Your turn!" would be wrong): chosen from what
    # happened, not drawn at random
    assert closing_lines == [COMPUTER_WON] * 40
