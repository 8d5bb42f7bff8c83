"""The JSON a response model puts on the wire, for tests that compare it with the contract's
shapes written out as data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel


def wire(value: BaseModel | Sequence[BaseModel] | None) -> Any:
    """``value`` (or each of a list) as its JSON body carries it (aliases such as table-talk's
    ``from``); None stays None."""
    if value is None:
        return None
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    return [wire(item) for item in value]
