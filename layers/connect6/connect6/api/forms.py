"""Forms as bodies (v1.2): the fields of the sheet pages' forms (``application/x-www-form-urlencoded``)
as the same requests as their JSON. ``POST …/moves`` takes the move sheet's form, ``POST …/players``
the join sheet's and ``POST /v1/invites/{token}`` the invitation page's.

A form is a flat set of text fields, so each has its own model here: the fields the page's form has
and no others. A field a form does not have is 422 ``invalid_request`` naming it (a JSON body's
extra keys are ignored, as v1 says; a form is what a page or a person typed, and a field we do not
know means the wrong form was sent). Each form model turns into the route's JSON request model, which
then checks the values exactly as it checks JSON, so a form and its JSON are one request: the same
answer, the same Idempotency-Key payload, the same refusals.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from connect6.api import http
from connect6.api.errors import ApiError
from connect6.api.models import JoinRequest, MoveRequest, RedeemRequest
from connect6.api.responses import is_form

_Text = Annotated[str, StringConstraints(max_length=500)]
_Short = Annotated[str, StringConstraints(max_length=254)]
_Stone = Annotated[str, StringConstraints(max_length=8)]
_Request = TypeVar("_Request", bound=BaseModel)


class Form(BaseModel):
    """Form fields: every value is text; a field the form does not have is refused."""

    model_config = ConfigDict(extra="forbid")

    def request(self) -> dict[str, Any]:
        """The route's JSON request for these fields."""
        raise NotImplementedError


class MoveForm(Form):
    """The move sheet's form. ``stone_2`` is absent (or empty) when one stone is to be placed;
    ``table_talk`` is a phrase id or empty (none); ``offer_draw`` is ``true`` when ticked."""

    move_number: Annotated[int, Field(ge=1, le=10_000)]
    stone_1: _Stone
    stone_2: _Stone = ""
    table_talk: Annotated[str, StringConstraints(max_length=64)] = ""
    offer_draw: Literal["true", "false", ""] = ""

    def request(self) -> dict[str, Any]:
        stones = [stone.strip() for stone in (self.stone_1, self.stone_2) if stone.strip()]
        return {"move_number": self.move_number, "stones": stones,
                "table_talk": self.table_talk.strip() or None, "offer_draw": self.offer_draw == "true"}


class JoinForm(Form):
    """The join sheet's form. The invitation fields count only with ``opponent=invite`` and the
    level only with ``opponent=computer`` (the page posts them empty when they are hidden)."""

    name: _Short
    email: _Short
    opponent: Literal["none", "computer", "invite", ""] = "none"
    computer_level: Literal["easy", "normal", "hard", ""] = ""
    invite_name: _Short = ""
    invite_email: _Short = ""
    invite_note: _Text = ""

    def request(self) -> dict[str, Any]:
        opponent: dict[str, Any] | None = None
        if self.opponent == "computer":
            opponent = {"kind": "computer", "level": self.computer_level or "normal"}
        elif self.opponent == "invite":
            opponent = {"kind": "invite", "name": self.invite_name, "email": self.invite_email,
                        "note": self.invite_note.strip() or None}
        return {"name": self.name, "email": self.email, "opponent": opponent}


class RedeemForm(Form):
    """The invitation page's form: the name the invitee plays under (empty: the inviter's)."""

    name: _Short = ""

    def request(self) -> dict[str, Any]:
        return {"name": self.name.strip() or None}


# Where a JSON field's refusal points in the form.
_JOIN_FIELDS = {"opponent.name": "invite_name", "opponent.email": "invite_email",
                "opponent.note": "invite_note", "opponent.level": "computer_level", "opponent": "opponent"}
_MOVE_FIELDS = {"stones": "stone_1", "stones[0]": "stone_1", "stones[1]": "stone_2"}


def _form(model: type[Form], data: Any) -> Form:
    if isinstance(data, dict):
        unknown = sorted(key for key in data if key not in model.model_fields)
        if unknown:
            name = unknown[0] if len(unknown[0]) <= 40 else unknown[0][:40] + "…"
            raise ApiError(422, "invalid_request",
                           f"The form has a field this route does not take: {name!r}.", name)
    return http.parse(model, data)


def _request(app: http.Routing, form_model: type[Form], model: type[_Request],
             fields: dict[str, str]) -> _Request:
    """The route's request from its form (refusals of a JSON field named as the form names it) or
    from its JSON body."""
    data = http.body_of(app)
    if not is_form(http.headers(app)):
        return http.parse(model, data)
    form = _form(form_model, data)  # its own refusals name the form's fields already
    try:
        return http.parse(model, form.request())
    except ApiError as error:
        if error.field in fields:
            field = fields[error.field or ""]
            message = error.message.replace(error.field or "", field, 1)
            raise ApiError(error.status, error.code, message, field) from error
        raise


def move_request(app: http.Routing) -> MoveRequest:
    """The move: a form (the move sheet's fields) or JSON."""
    return _request(app, MoveForm, MoveRequest, _MOVE_FIELDS)


def join_request(app: http.Routing) -> JoinRequest:
    """The join: a form (the join sheet's fields) or JSON."""
    return _request(app, JoinForm, JoinRequest, _JOIN_FIELDS)


def redeem_request(app: http.Routing) -> RedeemRequest:
    """The redemption: a form (the invitation page's ``name``), JSON, or no body."""
    return _request(app, RedeemForm, RedeemRequest, {})
