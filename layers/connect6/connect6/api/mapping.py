"""Between the contract and the domain where a route needs more than the service's answer: the
opponent a join asks for, the invitation's link (which depends on where the API is reached), and
where a browser goes after redeeming one."""

from __future__ import annotations

from urllib.parse import quote

from connect6.api import runtime
from connect6.api.models import ComputerOpponent, InviteOpponent, SameDeviceOpponent
from connect6.game.model import iso
from connect6.game.service import NewInvite, Opponent
from connect6.game.shapes import InviteOut

INVITES_PATH = "/v1/invites"
PLAY_PATH = "/v1/play"


def opponent(requested: ComputerOpponent | InviteOpponent | SameDeviceOpponent | None) -> Opponent | None:
    """The domain's opponent for a join request's ``opponent`` (none: the seat stays open)."""
    if requested is None:
        return None
    if isinstance(requested, ComputerOpponent):
        return Opponent(kind=requested.kind, level=requested.level)
    if isinstance(requested, SameDeviceOpponent):
        return Opponent(kind=requested.kind, name=requested.name)
    return Opponent(kind=requested.kind, name=requested.name, email=requested.email, note=requested.note)


def invitation(invite: NewInvite, base_url: str) -> InviteOut:
    """The join response's invitation: its link is ``<base_url>/v1/invites/<token>``."""
    return InviteOut(invite_id=invite.invite_id, name=invite.name, expires_at=iso(invite.expires_at),
                     url=f"{base_url}{INVITES_PATH}/{invite.token}")


def play_url(player_id: str, base_url: str) -> str:
    """A player's play link, ``<base_url>/v1/play/<token>`` (the token derived from the player id)."""
    return f"{base_url}{PLAY_PATH}/{runtime.invite_tokens().play_token_for(player_id)}"


def play_path(player_id: str) -> str:
    """The play link relative to an invitation's own URL (``/v1/invites/<token>``): ``../play/<token>``."""
    return f"../play/{runtime.invite_tokens().play_token_for(player_id)}"


def accepted_location(token: str) -> str:
    """Where a browser goes after redeeming, as the contract says: ``/v1/invites/{token}?accepted=1``
    (an absolute path), the invitation's page, which then shows the seat taken."""
    return f"{INVITES_PATH}/{quote(token, safe='')}?accepted=1"
