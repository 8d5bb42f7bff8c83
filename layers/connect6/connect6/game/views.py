"""The sheets and views the contract shows, built from a :class:`Game` as the response types of
:mod:`connect6.game.shapes`.

The game view is public (spectators): names and stones only, never an e-mail, token or player id.
"""

from __future__ import annotations

from datetime import datetime

from connect6.game import timing
from connect6.game.model import DrawMark, Game, Kind, Seat, SeatState, Status, colour_of_turn, iso
from connect6.game.phrases import PHRASES
from connect6.game.shapes import (
    ComputerReply,
    DrawOfferAnswer,
    GameView,
    InviteInfo,
    JoinSheet,
    LastMove,
    MoveResponse,
    MoveSheet,
    NextRef,
    PlayerRef,
    RecapSheet,
    Rules,
    SeatView,
    TableTalkOption,
    TableTalkReceived,
    ToMove,
    WinnerRef,
)
from connect6.game.sheet_code import sheet_code
from connect6.rules import WIN_LENGTH, Colour, Position

FIRST_TURN_STONES, STONES_PER_TURN = 1, 2
COMPUTER_LEVELS = ("easy", "normal", "hard")


def turn_played(game: Game, move_number: int) -> LastMove:
    """Turn ``move_number`` (1-based) as the views show it: its number, colour and stones."""
    return LastMove(move_number=move_number, colour=colour_of_turn(move_number).value,
                    stones=list(game.turns[move_number - 1].stones))


def last_move(game: Game) -> LastMove | None:
    return turn_played(game, game.move_count) if game.turns else None


def player_ref(seat: Seat | None) -> PlayerRef | None:
    if seat is None or seat.kind is None:
        return None
    return PlayerRef(name=seat.name, kind=seat.kind.value)


def winner_ref(game: Game, colour: Colour | None) -> WinnerRef | None:
    if colour is None:
        return None
    return WinnerRef(colour=colour.value, name=game.seat_of_colour(colour).name)


def seat_view(seat: Seat, now: datetime) -> SeatView:
    if seat.is_free(now):
        return SeatView(seat=seat.seat, state="open", name=None, kind=None, colour=None,
                        hold_expires_at=None)
    held = seat.state is SeatState.HELD
    return SeatView(seat=seat.seat, state=seat.state.value, name=seat.name,
                    kind="human" if held else (seat.kind.value if seat.kind else None),
                    colour=seat.colour.value if seat.colour else None,
                    hold_expires_at=iso(seat.hold_expires_at) if held else None)


def game_view(game: Game, now: datetime, position: Position | None = None) -> GameView:
    position = position or game.position()
    black = white = None
    if game.status is not Status.WAITING and game.started_at is not None:  # (a run cancelled unstarted)
        black = player_ref(game.seat_of_colour(Colour.BLACK))
        white = player_ref(game.seat_of_colour(Colour.WHITE))
    to_move = None
    if game.status is Status.IN_PROGRESS:
        colour = position.to_move
        to_move = ToMove(colour=colour.value, name=game.seat_of_colour(colour).name,
                         move_number=position.turn_number, stones_to_place=position.stones_to_place)
    return GameView(
        game_id=game.game_id,
        game_name=game.game_name,
        status=game.status.value,
        seats=[seat_view(seat, now) for seat in game.seats],
        black=black,
        white=white,
        to_move=to_move,
        move_count=game.move_count,
        stones_placed=position.stone_count,
        board_size=game.board_size,
        board=position.board_rows(),
        last_move=last_move(game),
        winner=winner_ref(game, game.winner),
        winning_line=list(game.winning_line),
        end_reason=game.end_reason.value if game.end_reason else None,
        updated_at=iso(game.updated_at or game.created_at),
        clock=timing.clock_view(game, now),
        paused=game.paused,
    )


def join_sheet(game: Game, now: datetime) -> JoinSheet:
    free = sum(1 for seat in game.seats if seat.is_free(now))
    opponent_ok = game.allow_computer and free >= 2
    return JoinSheet(
        sheet_type="connect6_game_join_game",
        sheet_code=sheet_code(game.game_id, 0, 0),
        game_id=game.game_id,
        game_name=game.game_name,
        open_seats=free,
        can_request_computer=opponent_ok,
        can_invite=opponent_ok,
        computer_levels=list(COMPUTER_LEVELS),
        rules=Rules(board_size=game.board_size, win_length=WIN_LENGTH, first_turn_stones=FIRST_TURN_STONES,
                    stones_per_turn=STONES_PER_TURN),
    )


def table_talk_received(game: Game, seat: Seat) -> TableTalkReceived | None:
    """The line the opponent sent with the latest turn, when that turn was theirs."""
    if not game.turns or seat.colour is None:
        return None
    if colour_of_turn(game.move_count) is seat.colour:
        return None
    talk = game.turns[-1].talk
    if talk is None or talk not in PHRASES:
        return None
    return TableTalkReceived(phrase_id=talk, text=PHRASES[talk], from_=game.opponent_of(seat).name)


def move_sheet(game: Game, seat: Seat, now: datetime) -> MoveSheet:
    position = game.position()
    opponent = game.opponent_of(seat)
    your_turn = game.status is Status.IN_PROGRESS and position.to_move is seat.colour
    opponent_view = None
    if not opponent.is_free(now):
        opponent_view = PlayerRef(name=opponent.name,
                                  kind=opponent.kind.value if opponent.kind else "human")
    return MoveSheet(
        sheet_type="connect6_game_move",
        sheet_code=sheet_code(game.game_id, seat.seat, position.turn_number),
        game_id=game.game_id,
        player_id=seat.player_id,
        greeting=f"Hello {seat.name}",
        player_name=seat.name,
        stone_colour=seat.colour.value if seat.colour else None,
        opponent=opponent_view,
        status=game.status.value,
        your_turn=your_turn,
        move_number=position.turn_number,
        stones_to_place=position.stones_to_place if your_turn else 0,
        board_size=game.board_size,
        board=position.board_rows(),
        last_move=last_move(game),
        table_talk_received=table_talk_received(game, seat),
        table_talk_options=[TableTalkOption(phrase_id=key, text=text) for key, text in PHRASES.items()],
        draw_offered_by_opponent=(game.draw_offer is not None and game.draw_offer is not seat.colour
                                  and game.status is Status.IN_PROGRESS),
        clock=timing.clock_view(game, now),
        paused=game.paused,
        hints_allowed=opponent.kind is Kind.COMPUTER,
        undos_left=undos_left(game),
    )


def undos_left(game: Game) -> int | None:
    """Undos left in a game that allows them (against the computer, same device); else None."""
    from connect6.game.assist import MAX_UNDOS

    allowed = game.same_device or any(seat.kind is Kind.COMPUTER for seat in game.seats)
    return max(MAX_UNDOS - game.undos_used, 0) if allowed else None


def _talk(phrase_id: str | None, sender: str | None) -> TableTalkReceived | None:
    if phrase_id is None or phrase_id not in PHRASES:
        return None
    return TableTalkReceived(phrase_id=phrase_id, text=PHRASES[phrase_id], from_=sender)


def last_talk_of(game: Game, seat: Seat) -> TableTalkReceived | None:
    """The last line ``seat`` sent in the game: with a turn (the game-ending one included) or, for
    the computer, the line it said at the end without a move of its own."""
    if seat.kind is Kind.COMPUTER and game.closing_talk is not None:
        return _talk(game.closing_talk, seat.name)
    for number in range(game.move_count, 0, -1):
        turn = game.turns[number - 1]
        if colour_of_turn(number) is seat.colour and turn.talk is not None:
            return _talk(turn.talk, seat.name)
    return None


def record_text(game: Game) -> str:
    """The game in Little Golem notation: ``1.h8 2.i9j10 3.g7g9``."""
    return " ".join(f"{n}.{''.join(turn.stones)}" for n, turn in enumerate(game.turns, start=1))


def recap(game: Game, seat: Seat) -> RecapSheet:
    position = game.position()
    opponent = game.opponent_of(seat)
    result = ("draw" if game.status is Status.DRAW else "cancelled" if game.status is Status.CANCELLED
              else "won" if game.winner is seat.colour else "lost")
    return RecapSheet(
        sheet_type="connect6_game_recap",
        sheet_code=sheet_code(game.game_id, seat.seat, game.move_count),
        game_id=game.game_id,
        player_name=seat.name,
        your_colour=seat.colour.value if seat.colour else None,
        status=game.status.value,
        result=result,
        winner=winner_ref(game, game.winner),
        winning_line=list(game.winning_line),
        end_reason=game.end_reason.value if game.end_reason else None,
        move_count=game.move_count,
        stones_placed=position.stone_count,
        board_size=game.board_size,
        board=position.board_rows(),
        record=record_text(game),
        started_at=iso(game.started_at),
        finished_at=iso(game.finished_at),
        opponent=player_ref(opponent),
        table_talk_received=last_talk_of(game, opponent),
        table_talk_sent=last_talk_of(game, seat),
        hints_used=game.hints_used,
        undos_used=game.undos_used,
    )


def move_result(game: Game, move_number: int, seat: Seat) -> MoveResponse:
    """The 200 of a move, rebuilt from the stored turns alone, so a re-sent move gets exactly the
    response the first one got: the turn, the computer's reply made in the same request (if the
    opponent is the computer), and the state right after them."""
    opponent = game.opponent_of(seat)
    turn = game.turns[move_number - 1]
    reply = None
    if opponent.kind is not None and opponent.kind.value == "computer" and game.move_count > move_number:
        reply = game.turns[move_number]
    upto = move_number + (1 if reply else 0)
    position = game.position(upto)
    # The computer accepting a draw offered with this turn is part of its response.
    agreed = turn.draw is DrawMark.ACCEPTED
    last_turn_ended = position.is_over or agreed
    # A resignation or agreed draw recorded right after this turn does not change its response.
    status = "in_progress"
    if position.winner is not None:
        status = "completed"
    elif position.draw or agreed:
        status = "draw"
    next_ref = None
    if not last_turn_ended:
        next_seat = game.seat_of_colour(position.to_move)
        if next_seat.player_id is not None:
            next_ref = NextRef(player_id=next_seat.player_id, move_number=position.turn_number)
    labels = [game.label(p) for p in position.winning_line]
    computer_reply = None
    if reply is not None:
        talk = (TableTalkOption(phrase_id=reply.talk, text=PHRASES[reply.talk])
                if reply.talk is not None and reply.talk in PHRASES else None)
        computer_reply = ComputerReply(move_number=move_number + 1, stones_placed=list(reply.stones),
                                       table_talk=talk)
    return MoveResponse(
        move_number=move_number,
        colour=colour_of_turn(move_number).value,
        stones_placed=list(turn.stones),
        status=status,
        winner=winner_ref(game, position.winner),
        winning_line=labels,
        computer_reply=computer_reply,
        next=next_ref,
        draw_offer=draw_offer_answer(turn.draw, turn.draw is DrawMark.OFFERED and (
            position if reply is None else game.position(move_number)).is_over),
    )


def draw_offer_answer(mark: DrawMark | None, turn_ended_game: bool) -> DrawOfferAnswer | None:
    """The move response's ``draw_offer``: the computer's answer, or pending for a human (who
    answers later). An offer with a move that itself ended the game had nothing to answer."""
    if mark is None or (mark is DrawMark.OFFERED and turn_ended_game):
        return None
    if mark is DrawMark.OFFERED:
        return DrawOfferAnswer(answer="pending", by=None)
    return DrawOfferAnswer(answer="accepted" if mark is DrawMark.ACCEPTED else "declined", by="computer")


def invite_view(game: Game, invite_id: str) -> InviteInfo:
    invite = game.invite(invite_id)
    assert invite is not None
    inviter = game.opponent_of(game.seat(invite.seat))
    return InviteInfo(
        invite_id=invite.invite_id,
        game_id=game.game_id,
        game_name=game.game_name,
        inviter_name=inviter.name or invite.inviter_name,
        invitee_name=invite.invitee_name,
        note=invite.note,
        expires_at=iso(invite.expires_at),
        status="pending",
    )
