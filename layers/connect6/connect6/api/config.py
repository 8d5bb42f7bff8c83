"""The functions' configuration: environment variables as one validated model (names as in
template.yaml's ``Globals.Function.Environment``)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from pydantic import BaseModel, field_validator

from connect6.store.keys import DEFAULT_CLOCKS_INDEX, DEFAULT_HOLDS_INDEX

_ORIGIN = re.compile(r"https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?")


class Settings(BaseModel):
    table_name: str = "connect6-games"
    holds_index_name: str = DEFAULT_HOLDS_INDEX
    clocks_index_name: str = DEFAULT_CLOCKS_INDEX
    event_bus_name: str = ""
    public_base_url: str = ""
    computer_budget_s: float | None = None
    board_size: int = 15
    invite_token_secret: str = ""

    frame_ancestors: tuple[str, ...] = ()
    """The origins that may show the sheet pages in a frame (the platform's), from the template's
    FrameAncestors: comma-separated ``https://host[:port]``; empty: none may (``'none'``)."""

    @field_validator("frame_ancestors", mode="before")
    @classmethod
    def _origins(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        origins = tuple(part.strip().rstrip("/") for part in value.split(",") if part.strip())
        bad = [origin for origin in origins if not _ORIGIN.fullmatch(origin)]
        if bad:
            raise ValueError(f"FRAME_ANCESTORS: not an origin (scheme://host[:port]): {', '.join(bad)}")
        return origins

    @field_validator("computer_budget_s", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        return None if value in ("", None) else value

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        fields = {name: env[name.upper()] for name in cls.model_fields if name.upper() in env}
        return cls.model_validate(fields)
