"""Between the contract and the domain where a route needs more than the service's answer: the
opponent a join asks for, the invitation's link (which depends on where the API is reached), and
where a browser goes after redeeming one."""

from __future__ import annotations

from urllib.parse import quote

from connect6.api.models import ComputerOpponent, InviteOpponent
from connect6.game.model import iso
from connect6.game.service import NewInvite, Opponent
from connect6.game.shapes import InviteOut

INVITES_PATH = "/v1/invites"


def opponent(requested: ComputerOpponent | InviteOpponent | None) -> Opponent | None:
    """The domain's opponent for a join request's ``opponent`` (none: the seat stays open)."""
    if requested is None:
        return None
    if isinstance(requested, ComputerOpponent):
        return Opponent(kind=requested.kind, level=requested.level)
    return Opponent(kind=requested.kind, name=requested.name, email=requested.email, note=requested.note)


def invitation(invite: NewInvite, base_url: str) -> InviteOut:
    """The join response's invitation: its link is ``<base_url>/v1/invites/<token>``."""
    return InviteOut(invite_id=invite.invite_id, name=invite.name, expires_at=iso(invite.expires_at),
                     url=f"{base_url}{INVITES_PATH}/{invite.token}")


def accepted_location(token: str) -> str:
    """Where a browser goes after redeeming (relative to the invitation's own URL): the invitation's
    page, which then shows the seat taken."""
    return f"{quote(token, safe='')}?accepted=1"
