"""The response models (``game/shapes.py``, which may import nothing of the project) spell the
domain's enums as ``Literal``s. Nothing else ties the two, so this does: a value added to an enum
(a new way to end a game, a new seat state) without the contract's ``Literal`` fails here, not as a
``ValidationError`` in a response."""

from __future__ import annotations

import inspect
import types
import typing
from enum import StrEnum
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from connect6.game import shapes
from connect6.game.model import EndReason, InviteStatus, Kind, SeatState, Status
from connect6.rules import Colour

ENUMS: tuple[type[StrEnum], ...] = (Colour, Status, EndReason, Kind, SeatState, InviteStatus)

# Fields whose values share a word with an enum without being that enum, and why.
NOT_THE_ENUM = {
    ("InviteInfo", "status"): "the invitation page shows only pending invitations",
    ("RecapSheet", "result"): ("won, lost, draw or cancelled for the reader: 'draw' is a word, "
                               "not Status.DRAW"),
    ("DrawOfferAnswer", "answer"): "the answer to a draw offer: 'pending' is not InviteStatus.PENDING",
    ("DrawOfferAnswer", "by"): "only the computer answers an offer at once (a human answers later)",
}


def literal_values(annotation: Any) -> set[str]:
    """The strings a ``Literal`` annotation allows (through ``| None`` and aliases)."""
    if typing.get_origin(annotation) is Literal:
        return {value for value in typing.get_args(annotation) if isinstance(value, str)}
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return set().union(*(literal_values(arg) for arg in typing.get_args(annotation)))
    return set()


def values(enum: type[StrEnum]) -> set[str]:
    return {member.value for member in enum}


def response_fields() -> list[tuple[str, str, set[str]]]:
    found = []
    for name, model in inspect.getmembers(shapes, inspect.isclass):
        if issubclass(model, BaseModel) and model.__module__ == shapes.__name__:
            for field_name, info in model.model_fields.items():
                allowed = literal_values(info.annotation)
                if allowed:
                    found.append((name, field_name, allowed))
    return found


@pytest.mark.parametrize(("alias", "enum"), [(shapes.Colour, Colour), (shapes.GameStatus, Status),
                                             (shapes.EndReason, EndReason)])
def test_each_named_literal_is_its_enum(alias: Any, enum: type[StrEnum]) -> None:
    assert literal_values(alias) == values(enum)


@pytest.mark.parametrize(("model", "field", "enum"), [("PlayerRef", "kind", Kind), ("SeatView", "kind", Kind),
                                                      ("SeatView", "state", SeatState)])
def test_the_inline_literals_are_their_enums(model: str, field: str, enum: type[StrEnum]) -> None:
    annotation = getattr(shapes, model).model_fields[field].annotation
    assert literal_values(annotation) == values(enum)


def test_every_response_literal_that_speaks_of_an_enum_is_all_of_it() -> None:
    # Given every Literal field of every response model
    fields = response_fields()
    assert len(fields) > 20  # the sweep sees the models (GameView, MoveSheet, RecapSheet, ...)
    # A word two enums share says nothing of which one a field speaks of: 'cancelled' is both a
    # Status and an EndReason (v1.2, as the contract spells them).
    shared = {word for enum in ENUMS for word in values(enum)
              if sum(word in values(other) for other in ENUMS) > 1}
    mismatched = []
    for model, field, allowed in fields:
        if (model, field) in NOT_THE_ENUM:
            continue
        for enum in ENUMS:
            # When it shares a value with a domain enum, it is that enum exactly
            if (allowed & values(enum)) - shared and allowed != values(enum):
                mismatched.append(f"{model}.{field} {sorted(allowed)} vs {enum.__name__} "
                                  f"{sorted(values(enum))}")
    assert mismatched == []


def test_the_exceptions_are_still_what_they_say() -> None:
    allowed = {(model, field): values_ for model, field, values_ in response_fields()}
    assert allowed[("InviteInfo", "status")] == {InviteStatus.PENDING.value}
    assert allowed[("RecapSheet", "result")] == {"won", "lost", "draw", "cancelled"}
    assert allowed[("DrawOfferAnswer", "answer")] == {"pending", "accepted", "declined"}
    assert allowed[("DrawOfferAnswer", "by")] == {Kind.COMPUTER.value}
