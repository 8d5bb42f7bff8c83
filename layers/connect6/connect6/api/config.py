"""The functions' configuration: environment variables as one validated model (names as in
template.yaml's ``Globals.Function.Environment``)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, field_validator

from connect6.store.keys import DEFAULT_CLOCKS_INDEX, DEFAULT_HOLDS_INDEX


class Settings(BaseModel):
    table_name: str = "connect6-games"
    holds_index_name: str = DEFAULT_HOLDS_INDEX
    clocks_index_name: str = DEFAULT_CLOCKS_INDEX
    event_bus_name: str = ""
    public_base_url: str = ""
    computer_budget_s: float | None = None
    board_size: int = 15
    invite_token_secret: str = ""

    @field_validator("computer_budget_s", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        return None if value in ("", None) else value

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        fields = {name: env[name.upper()] for name in cls.model_fields if name.upper() in env}
        return cls.model_validate(fields)
