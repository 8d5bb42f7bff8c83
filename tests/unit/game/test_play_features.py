"""Undo and hints against the computer, draw offers that go with a move, table-talk that fits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from connect6.game import ErrorCode, GameError, GameService, ListSink, Opponent, talk
from connect6.game.draw_judge import is_level
from connect6.game.model import DrawMark, Turn
from connect6.records import parse_label
from connect6.rules import Position
from connect6.store import MemoryStore
from tests.unit.game.conftest import Clock, Ids, scan_computer
from tests.wire import wire


def _code(call: Callable[..., object], *args: object, **kwargs: object) -> ErrorCode:
    with pytest.raises(GameError) as caught:
        call(*args, **kwargs)
    return caught.value.code


def _service(store: MemoryStore, clock: Clock, *, computer_black: bool = False,
             judge: Callable[[Position, str], bool] = lambda position, level: False) -> GameService:
    return GameService(store, clock=clock, computer=scan_computer, id_factory=Ids(),
                       colour_draw=lambda game: 2 if computer_black else 1, draw_judge=judge,
                       computer_budget_s=0.05)


def _against_computer(service: GameService) -> str:
    service.put_run("run-1", "Sunday club", True)
    return service.join("run-1", "Ana", "ana@example.com", Opponent("computer", level="easy")).player_id


def _position(turns: list[str], size: int = 15) -> Position:
    position = Position(size)
    for turn in turns:
        position.play([parse_label(label, size) for label in turn.split()])
    return position


def test_a_turn_keeps_its_draw_mark_and_older_turns_still_read() -> None:
    turn = Turn(stones=["h8", "i9"], at=datetime(2026, 5, 1, 12, 0, tzinfo=UTC), talk="oops",
                draw=DrawMark.ACCEPTED)
    assert turn.encode() == "h8i9||oops|2026-05-01T12:00:00Z|a"
    assert Turn.decode(turn.encode()) == turn
    # A turn stored before offers came with moves has four fields: no mark
    assert Turn.decode("h8i9||oops|2026-05-01T12:00:00Z").draw is None


# ---------------------------------------------------------------------- undo
def test_undo_takes_back_your_turn_and_the_computers_reply(store: MemoryStore, clock: Clock,
                                                           sink: ListSink) -> None:
    # Given Ana (Black) has played two turns against the computer (which plays the top row)
    service = _service(store, clock)
    ana = _against_computer(service)
    service.submit_move("run-1", ana, 1, ["h8"])
    service.submit_move("run-1", ana, 3, ["h9", "h10"])
    # When she takes back her last turn
    answer = service.undo("run-1", ana)
    # Then her move 3 and the computer's reply 4 are gone, latest first, and it is move 3 again
    assert wire(answer.undone) == [{"move_number": 4, "colour": "white", "stones": ["c15", "d15"]},
                                {"move_number": 3, "colour": "black", "stones": ["h9", "h10"]}]
    assert answer.undos_left == 2
    game = answer.game
    assert game.move_count == 2 and game.to_move.move_number == 3
    assert game.board == service.view("run-1").board
    assert service.move_sheet("run-1", ana).your_turn is True
    # And the platform hears of it, and whose turn it is
    assert sink.of_type("move_undone") == [{"game_id": "run-1", "player_id": ana, "move_number": 3}]
    assert sink.of_type("turn_ready")[-1] == {"game_id": "run-1", "player_id": ana, "name": "Ana",
                                              "move_number": 3}
    # And she can play move 3 differently; the computer replies again
    reply = service.submit_move("run-1", ana, 3, ["j9", "j10"]).response.computer_reply
    assert reply.move_number == 4


def test_undo_after_the_first_turn_goes_back_to_the_empty_board(store: MemoryStore, clock: Clock) -> None:
    service = _service(store, clock)
    ana = _against_computer(service)
    service.submit_move("run-1", ana, 1, ["h8"])
    answer = service.undo("run-1", ana)
    assert [u.move_number for u in answer.undone] == [2, 1]
    assert answer.game.move_count == 0 and answer.game.stones_placed == 0


def test_at_most_three_undos_a_game_and_the_recap_counts_them(store: MemoryStore, clock: Clock,
                                                             sink: ListSink) -> None:
    service = _service(store, clock)
    ana = _against_computer(service)
    for left in (2, 1, 0):
        service.submit_move("run-1", ana, 1, ["h8"])
        assert service.undo("run-1", ana).undos_left == left
    service.submit_move("run-1", ana, 1, ["h8"])
    before = store.get_game("run-1")
    published = len(sink.events)
    # When she asks for a fourth: refused, nothing changed, nothing sent
    assert _code(service.undo, "run-1", ana) is ErrorCode.UNDO_LIMIT_REACHED
    assert store.get_game("run-1") == before and len(sink.events) == published
    service.resign("run-1", ana)
    recap = service.recap("run-1", ana)
    assert recap.undos_used == 3 and recap.hints_used == 0


def test_nothing_to_undo_before_you_have_played(store: MemoryStore, clock: Clock) -> None:
    # Given the computer drew Black and placed its opening stone: Ana (White) has played nothing
    service = _service(store, clock, computer_black=True)
    ana = _against_computer(service)
    assert service.view("run-1").move_count == 1
    # Then there is nothing of hers to take back (the computer's stone is not hers)
    assert _code(service.undo, "run-1", ana) is ErrorCode.NOTHING_TO_UNDO
    # And once she has played, undo takes back her turn and the reply, never the opening stone
    service.submit_move("run-1", ana, 2, ["h8", "h9"])
    assert [u.move_number for u in service.undo("run-1", ana).undone] == [3, 2]
    assert service.view("run-1").move_count == 1


def test_nothing_to_undo_on_an_empty_board(store: MemoryStore, clock: Clock) -> None:
    service = _service(store, clock)
    ana = _against_computer(service)
    assert _code(service.undo, "run-1", ana) is ErrorCode.NOTHING_TO_UNDO


def test_no_undo_between_humans(service: GameService, started, store: MemoryStore) -> None:
    ana, ben = started
    service.submit_move("run-1", ana, 1, ["h8"])
    before = store.get_game("run-1")
    assert _code(service.undo, "run-1", ana) is ErrorCode.UNDO_NOT_ALLOWED
    assert _code(service.undo, "run-1", ben) is ErrorCode.UNDO_NOT_ALLOWED
    assert store.get_game("run-1") == before


def test_no_undo_once_the_game_is_over(store: MemoryStore, clock: Clock) -> None:
    # Given the computer's reply ended the game (it makes six on the top row)
    service = _service(store, clock)
    ana = _against_computer(service)
    service.submit_move("run-1", ana, 1, ["h8"])
    service.submit_move("run-1", ana, 3, ["a1", "b1"])
    assert service.submit_move("run-1", ana, 5, ["c1", "d1"]).response.status == "completed"
    # Then it cannot be taken back
    assert _code(service.undo, "run-1", ana) is ErrorCode.GAME_OVER


def test_undo_before_the_game_starts(service: GameService) -> None:
    service.put_run("run-1", "Sunday club", True)
    ana = service.join("run-1", "Ana", "ana@example.com").player_id
    assert _code(service.undo, "run-1", ana) is ErrorCode.GAME_NOT_STARTED


# ---------------------------------------------------------------------- hints
def test_a_hint_is_counted_once_per_turn_and_changes_nothing_else(store: MemoryStore, clock: Clock,
                                                                   sink: ListSink) -> None:
    service = _service(store, clock)
    ana = _against_computer(service)
    before = store.get_game("run-1")
    assert before is not None
    published = len(sink.events)
    clock.advance(minutes=5)
    # When Ana asks twice on move 1
    first = service.hint("run-1", ana)
    assert service.hint("run-1", ana) == first
    # Then one hint is counted, and nothing but the counter changed (no event, same updated_at)
    after = store.get_game("run-1")
    assert after is not None
    assert (after.hints_used, after.hint_move) == (1, 1)
    changed = {k for k, v in after.to_dict().items() if before.to_dict()[k] != v}
    assert changed == {"hints_used", "hint_move", "version"}
    assert len(sink.events) == published
    # And a hint on the next turn counts again; so does one on a move that came back by undo
    service.submit_move("run-1", ana, 1, first.stones)
    service.hint("run-1", ana)
    service.undo("run-1", ana)
    service.hint("run-1", ana)
    service.resign("run-1", ana)
    assert service.recap("run-1", ana).hints_used == 3


# ---------------------------------------------------------------------- draw offers
def test_a_draw_offered_with_a_move_reaches_the_opponent(service: GameService, started,
                                                         sink: ListSink) -> None:
    ana, ben = started
    # When Ana moves and offers a draw with it
    outcome = service.submit_move("run-1", ana, 1, ["h8"], offer_draw=True)
    # Then the offer is pending, Ben's sheet shows it and the platform is told, naming Ben
    assert wire(outcome.response.draw_offer) == {"answer": "pending", "by": None}
    assert service.move_sheet("run-1", ben).draw_offered_by_opponent is True
    assert service.move_sheet("run-1", ana).draw_offered_by_opponent is False
    assert sink.of_type("draw_offered") == [{"game_id": "run-1", "player_id": ben, "move_number": 1}]
    # And the same move re-sent gets the same answer (and no second event)
    assert service.submit_move("run-1", ana, 1, ["h8"], offer_draw=True).response == outcome.response
    assert len(sink.of_type("draw_offered")) == 1
    # When Ben accepts, the game is drawn by agreement
    view = service.draw("run-1", ben, "accept")
    assert view.status == "draw" and view.end_reason == "agreed"
    assert service.recap("run-1", ana).result == "draw"


def test_moving_declines_a_draw_offered_with_a_move(service: GameService, started) -> None:
    ana, ben = started
    service.submit_move("run-1", ana, 1, ["h8"], offer_draw=True)
    service.submit_move("run-1", ben, 2, ["a1", "a2"])
    assert service.move_sheet("run-1", ben).draw_offered_by_opponent is False
    assert _code(service.draw, "run-1", ben, "accept") is ErrorCode.NO_DRAW_OFFER
    # And a decline through the draw route clears an offer too
    service.submit_move("run-1", ana, 3, ["h9", "h10"], offer_draw=True)
    assert service.draw("run-1", ben, "decline").status == "in_progress"
    assert service.move_sheet("run-1", ben).draw_offered_by_opponent is False


def test_an_offer_through_the_draw_route_is_an_event_too(service: GameService, started,
                                                         sink: ListSink) -> None:
    ana, ben = started
    service.submit_move("run-1", ana, 1, ["h8"])
    service.draw("run-1", ana, "offer")
    service.draw("run-1", ana, "offer")  # repeated: the offer stands, no second event
    assert sink.of_type("draw_offered") == [{"game_id": "run-1", "player_id": ben, "move_number": 1}]


def test_the_computer_accepts_a_draw_when_its_judge_says_level(store: MemoryStore, clock: Clock,
                                                              sink: ListSink) -> None:
    seen: list[tuple[int, str]] = []

    def judge(position: Position, level: str) -> bool:
        seen.append((position.turn_count, level))
        return True

    service = _service(store, clock, judge=judge)
    ana = _against_computer(service)
    service.submit_move("run-1", ana, 1, ["h8"])
    # When Ana offers a draw with move 3
    outcome = service.submit_move("run-1", ana, 3, ["h9", "h10"], offer_draw=True)
    # Then the computer accepts at once (judging the board after her move): the game is a draw
    assert seen == [(3, "easy")]
    response = outcome.response
    assert wire(response.draw_offer) == {"answer": "accepted", "by": "computer"}
    assert response.status == "draw" and response.computer_reply is None and response.next is None
    view = service.view("run-1")
    assert view.status == "draw" and view.end_reason == "agreed" and view.move_count == 3
    assert sink.of_type("game_finished")[-1]["end_reason"] == "agreed"
    assert service.submit_move("run-1", ana, 3, ["h9", "h10"], offer_draw=True).response == response
    recap = service.recap("run-1", ana)
    assert recap.result == "draw"
    assert wire(recap.table_talk_received) == {"phrase_id": talk.DRAW_AGREED, "text": "Thanks for the game!",
                                            "from": "Computer (easy)"}


def test_the_computer_declines_and_plays_on(store: MemoryStore, clock: Clock, sink: ListSink) -> None:
    service = _service(store, clock, judge=lambda position, level: False)
    ana = _against_computer(service)
    response = service.submit_move("run-1", ana, 1, ["h8"], offer_draw=True).response
    assert wire(response.draw_offer) == {"answer": "declined", "by": "computer"}
    assert response.status == "in_progress" and response.computer_reply.move_number == 2
    assert sink.of_type("draw_offered") == []  # the computer answered; nobody needs telling
    assert service.move_sheet("run-1", ana).draw_offered_by_opponent is False


def test_the_draw_route_offer_to_the_computer_uses_the_same_judge(store: MemoryStore, clock: Clock) -> None:
    service = _service(store, clock, judge=lambda position, level: True)
    ana = _against_computer(service)
    service.submit_move("run-1", ana, 1, ["h8"])
    view = service.draw("run-1", ana, "offer")
    assert view.status == "draw" and view.end_reason == "agreed"


def test_an_offer_with_a_winning_move_has_nothing_to_answer(service: GameService, started) -> None:
    ana, ben = started
    turns = [(ana, ["h8"]), (ben, ["a1", "a2"]), (ana, ["i8", "j8"]), (ben, ["a4", "a5"]),
             (ana, ["k8", "l8"]), (ben, ["a7", "a8"])]
    for number, (player, stones) in enumerate(turns, start=1):
        service.submit_move("run-1", player, number, stones)
    response = service.submit_move("run-1", ana, 7, ["m8", "o15"], offer_draw=True).response
    assert response.status == "completed" and response.draw_offer is None


def test_the_real_judge_calls_an_open_board_level_and_a_threat_not() -> None:
    # An even opening: level
    assert is_level(_position(["h8", "i9 g7"])) is True
    # White threw its first turn away in the corner: Black (to move) is well ahead, not level
    assert is_level(_position(["h8", "a1 a2"])) is False
    # Black has four in a row with room: White (to move) is under threat, so not level
    assert is_level(_position(["h8", "a1 a2", "i8 j8", "a4 a5", "k8 o15"])) is False
    # Before both sides have played there is nothing to judge
    assert is_level(_position(["h8"])) is False


# ---------------------------------------------------------------------- table-talk
def test_the_computer_says_nothing_with_its_opening_stone(store: MemoryStore, clock: Clock) -> None:
    service = _service(store, clock, computer_black=True)
    ana = _against_computer(service)
    sheet = service.move_sheet("run-1", ana)
    assert sheet.last_move.move_number == 1 and sheet.table_talk_received is None
    game = store.get_game("run-1")
    assert game is not None and game.turns[0].talk is None


def _line(before: Position, stones: str) -> str | None:
    after = before.copy()
    after.play([parse_label(label, 15) for label in stones.split()])
    return talk.computer_line(before, after)


def test_the_computers_line_follows_what_its_move_did() -> None:
    # Given White (the computer) to move after Black's four on row 8 (h8 i8 j8 k8); White has
    # a1 a2 a4 a5 (already a threat: a3 and a6 would make six)
    before = _position(["h8", "a1 a2", "i8 j8", "a4 a5", "k8 o15"])
    # A block of both ends: "That was close!"
    assert _line(before, "g8 l8") == talk.MADE_BLOCK
    # A new threat of its own (a2..a7 now holds four): "Watch out!", even with the block left undone
    assert _line(before, "a3 n1") == talk.MADE_THREAT
    # Half a block (h8..m8 still open) and nothing new: silence
    assert _line(before, "g8 n1") is None


def test_it_says_nothing_with_an_opening_stone_and_closes_a_won_game() -> None:
    assert _line(Position(15), "h8") is None
    # White a1 c1 d1 f1: b1 e1 makes six
    before = _position(["h8", "a1 c1", "o15 m13", "d1 f1", "k11 o9"])
    assert _line(before, "b1 e1") == talk.COMPUTER_WON
    # White a1 c1 d1 (three): e1 makes a four in a1..f1, a new threat
    before = _position(["h8", "a1 c1", "o15 m13", "d1 n5", "k11 o9"])
    assert _line(before, "e1 n7") == talk.MADE_THREAT
    assert _line(before, "n9 n11") is None


def test_the_recap_shows_the_opponent_and_their_last_line(service: GameService, started) -> None:
    ana, ben = started
    # Given Ben wins with a line sent with the winning move
    turns = [(ana, ["h8"], "good_luck"), (ben, ["a1", "a2"], "have_fun"), (ana, ["o15", "o14"], None),
             (ben, ["a3", "a4"], None), (ana, ["o13", "o11"], "oops"), (ben, ["a5", "a6"], "good_game")]
    for number, (player, stones, line) in enumerate(turns, start=1):
        service.submit_move("run-1", player, number, stones, line)
    recap = service.recap("run-1", ana)
    assert recap.result == "lost"
    assert wire(recap.opponent) == {"name": "Ben", "kind": "human"}
    assert wire(recap.table_talk_received) == {"phrase_id": "good_game", "text": "Good game!", "from": "Ben"}
    assert wire(recap.table_talk_sent) == {"phrase_id": "oops", "text": "Oops!", "from": "Ana"}
    assert service.recap("run-1", ben).table_talk_received.phrase_id == "oops"


def test_the_computer_congratulates_a_winner_and_thanks_a_resigner(store: MemoryStore, clock: Clock) -> None:
    service = _service(store, clock)
    ana = _against_computer(service)
    # (the computer fills the top row from a15; e15 stops its six)
    for number, stones in ((1, ["h8"]), (3, ["h9", "h10"]), (5, ["h11", "e15"])):
        service.submit_move("run-1", ana, number, stones)
    assert service.submit_move("run-1", ana, 7, ["h12", "h13"]).response.status == "completed"
    recap = service.recap("run-1", ana)
    assert recap.result == "won" and wire(recap.opponent) == {"name": "Computer (easy)", "kind": "computer"}
    assert recap.table_talk_received.phrase_id == talk.COMPUTER_LOST

    other = _service(MemoryStore(), clock)
    bea = _against_computer(other)
    other.resign("run-1", bea)
    assert other.recap("run-1", bea).table_talk_received.phrase_id == talk.OPPONENT_RESIGNED
