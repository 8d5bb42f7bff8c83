"""The game type's use cases over a :class:`Repository`, behind one facade: :class:`GameService`.
Pure logic: no HTTP, no AWS.

Every change is one conditional write of the game record (version and turn in the condition),
carrying the change's events (the outbox: delivered from the store's stream, never published
here). When a write loses, the use case reloads and decides again, so a request either lands
whole, with its events, or is refused with a :class:`GameError` having changed nothing. That
loop, the version bump and the events live in one place, :mod:`connect6.game.transaction`; every
ending goes through :func:`connect6.game.outcome.finish`.

The use cases are functions in one module per seam, each taking the service's :class:`Context`
first: :mod:`~connect6.game.queries` (reading), :mod:`~connect6.game.seating` (runs, joining,
invitations, the expiry sweep), :mod:`~connect6.game.turns` (moves, resigning, draws) and
:mod:`~connect6.game.assist` (hint and undo, against the computer). This class composes them
rather than inheriting them as mixins: it holds the ports and settings (the context the functions
read, so its attributes stay what callers see and set), and each method below is one line that
names the function it runs. The seams stay separate modules with explicit imports between them (a
mixin would see every other mixin's helpers through ``self``), and this file stays the one list of
the service's public use cases. A new command is a function in its seam's module that decides
inside :func:`~connect6.game.transaction.transact` (which cannot store a change without its
version bump and events), and one method here.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime

from connect6.game import assist, control, play, queries, seating, turns
from connect6.game.assist import MAX_UNDOS
from connect6.game.clock import TimeControl
from connect6.game.context import Computer, default_computer, default_draw_judge, new_id
from connect6.game.control import ClockSweep
from connect6.game.model import Game, utc_now
from connect6.game.play import PlaySeat, PlayView
from connect6.game.queries import hash_token
from connect6.game.repository import Repository
from connect6.game.seating import JoinOutcome, NewInvite, Opponent, RedeemOutcome, Sweep
from connect6.game.shapes import (
    AcceptedInvite,
    BoardPicture,
    GameView,
    HintResponse,
    InviteInfo,
    JoinSheet,
    MoveSheet,
    RecapSheet,
    RecordResponse,
    ReplayView,
    UndoResponse,
)
from connect6.game.transaction import MAX_ATTEMPTS
from connect6.game.turns import MoveOutcome
from connect6.rules import Position


class GameService:
    """The use cases. ``colour_draw`` picks the seat (1 or 2) that plays Black in the game being
    started; without one, a fair random draw."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], datetime] = utc_now,
        computer: Computer = default_computer,
        computer_budget_s: float | None = None,
        colour_draw: Callable[[Game], int] | None = None,
        id_factory: Callable[[], str] = new_id,
        token_factory: Callable[[], str] = lambda: secrets.token_urlsafe(32),
        event_id_factory: Callable[[], str] = lambda: str(uuid.uuid4()),
        invite_token: Callable[[str], str] | None = None,
        play_token: Callable[[str], str] | None = None,
        board_size: int = 15,
        draw_judge: Callable[[Position, str], bool] = default_draw_judge,
    ) -> None:
        self.repo = repo
        self.draw_judge = draw_judge
        self.event_id_factory = event_id_factory
        self.clock = clock
        self.computer = computer
        self.computer_budget_s = computer_budget_s
        self.colour_draw = colour_draw
        self.id_factory = id_factory
        self.token_factory = token_factory
        # An invitation's token from its id (derived from a secret, so it can be derived again);
        # without one, a random token.
        self.invite_token: Callable[[str], str] = invite_token or (lambda invite_id: token_factory())
        # A player's play link token from their player id (derived the same way, its own purpose).
        self.play_token: Callable[[str], str] = play_token or (lambda player_id: token_factory())
        self.board_size = board_size

    # ------------------------------------------------------------------ runs and reading
    def put_run(self, game_id: str, game_name: str, allow_computer: bool,
                time_control: TimeControl | None = None) -> tuple[bool, GameView]:
        """Create the run, or confirm it exists with the same settings. (created, game view)."""
        return seating.put_run(self, game_id, game_name, allow_computer, time_control)

    def view(self, game_id: str) -> GameView:
        return queries.view(self, game_id)

    def join_sheet(self, game_id: str) -> JoinSheet:
        return queries.join_sheet(self, game_id)

    def replay(self, game_id: str) -> ReplayView:
        """Every turn so far, for spectators (read-only)."""
        return queries.replay(self, game_id)

    def board_after(self, game_id: str, move: int) -> BoardPicture:
        """The board after ``move`` turns, for the SVG (read-only); ``move_not_found`` past the game."""
        return queries.board_after(self, game_id, move)

    def move_sheet(self, game_id: str, player_id: str) -> MoveSheet:
        return queries.move_sheet(self, game_id, player_id)

    def recap(self, game_id: str, player_id: str) -> RecapSheet:
        return queries.recap(self, game_id, player_id)

    def record(self, game_id: str, player_id: str) -> RecordResponse:
        return queries.record(self, game_id, player_id)

    # ------------------------------------------------------------------ joining and invitations
    def join(self, game_id: str, name: str, email: str, opponent: Opponent | None = None) -> JoinOutcome:
        return seating.join(self, game_id, name, email, opponent)

    def invite_info(self, token: str) -> InviteInfo:
        """What the invitation page shows. Changes nothing (mail scanners prefetch links)."""
        return queries.invite_info(self, token)

    def accepted_invite(self, token: str) -> AcceptedInvite:
        """What the page of an invitation already accepted shows (read-only, nothing secret)."""
        return queries.accepted_invite(self, token)

    def redeem(self, token: str, name: str | None = None) -> RedeemOutcome:
        return seating.redeem(self, token, name)

    def invitee_player_id(self, token: str) -> str | None:
        """Who accepted the invitation (their play link is derived from it); None while pending."""
        return play.invitee_player_id(self, token)

    # ------------------------------------------------------------------ playing from a link (v1.2)
    def play_seat(self, token: str) -> PlaySeat:
        """The game and the seat a play link acts as now (``play_link_not_found`` otherwise)."""
        return play.resolve(self, token)

    def play_view(self, token: str) -> PlayView:
        """The play page's content: the acting seat's move sheet, the recap at the end (read-only)."""
        return play.play_view(self, token)

    def expire_holds(self, limit: int = 100) -> Sweep:
        """Release every seat whose hold ran out (found through the expiry index, never a scan)."""
        return seating.expire_holds(self, limit)

    # ------------------------------------------------------------------ the platform's control, clocks
    def pause(self, game_id: str) -> GameView:
        """Stop the clocks and hold moves (idempotent)."""
        return control.pause(self, game_id)

    def resume(self, game_id: str) -> GameView:
        """Start the clocks again, deadlines moved on by the pause (idempotent)."""
        return control.resume(self, game_id)

    def cancel(self, game_id: str) -> GameView:
        """End the run with no winner (idempotent)."""
        return control.cancel(self, game_id)

    def sweep_clocks(self, limit: int = control.SWEEP_LIMIT,
                     budget_s: float = control.SWEEP_BUDGET_S) -> ClockSweep:
        """Store the losses on time and send the reminders that are due (the clock index)."""
        return control.sweep_clocks(self, limit, budget_s)

    # ------------------------------------------------------------------ turns
    def submit_move(self, game_id: str, player_id: str, move_number: int, stones: Sequence[str],
                    talk: str | None = None, offer_draw: bool = False) -> MoveOutcome:
        """Play a turn (``offer_draw``: with a draw offer); against the computer, with its reply."""
        return turns.submit_move(self, game_id, player_id, move_number, stones, talk, offer_draw)

    def resign(self, game_id: str, player_id: str) -> GameView:
        return turns.resign(self, game_id, player_id)

    def draw(self, game_id: str, player_id: str, action: str) -> GameView:
        """``offer`` a draw, ``accept`` or ``decline`` the opponent's offer."""
        return turns.draw(self, game_id, player_id, action)

    # ------------------------------------------------------------------ against the computer
    def hint(self, game_id: str, player_id: str) -> HintResponse:
        """The hard level's move for the player to move, only against the computer (counted)."""
        return assist.hint(self, game_id, player_id)

    def undo(self, game_id: str, player_id: str) -> UndoResponse:
        """Take back the player's last turn and the computer's reply (at most ``MAX_UNDOS``)."""
        return assist.undo(self, game_id, player_id)


__all__ = ["MAX_ATTEMPTS", "MAX_UNDOS", "ClockSweep", "Computer", "GameService", "JoinOutcome", "MoveOutcome",
           "NewInvite", "Opponent", "PlaySeat", "RedeemOutcome", "Sweep", "TimeControl", "hash_token"]
