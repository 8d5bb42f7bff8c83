"""The functions' configuration: environment variables as one validated model (names as in
template.yaml's ``Globals.Function.Environment``).

Outside Lambda (``make run``, the tests) every setting has a default. In Lambda nothing is silently
defaulted: a function names the settings it needs (:func:`connect6.api.runtime.require`, at its
import) and a missing one stops the cold start with an error naming the variable, rather than a
function that quietly writes to a default table or drops its events.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from pydantic import BaseModel, field_validator

from connect6.store.keys import DEFAULT_CLOCKS_INDEX, DEFAULT_HOLDS_INDEX

# Settings an empty value is meaningful for: the level's default budget, the stage's own URL, no framing.
MAY_BE_EMPTY = frozenset({"public_base_url", "computer_budget_s", "frame_ancestors"})


class MissingSetting(RuntimeError):
    """A function in Lambda lacks a setting it needs (a deployment fault: fails the cold start)."""


def in_lambda(env: Mapping[str, str] | None = None) -> bool:
    """Running in AWS Lambda (not the local server, the tests or ``sam local``)."""
    env = os.environ if env is None else env
    return bool(env.get("AWS_LAMBDA_FUNCTION_NAME")) and not env.get("AWS_SAM_LOCAL")


class Settings(BaseModel):
    table_name: str = "connect6-games"
    holds_index_name: str = DEFAULT_HOLDS_INDEX
    clocks_index_name: str = DEFAULT_CLOCKS_INDEX
    event_bus_name: str = ""
    public_base_url: str = ""
    computer_budget_s: float | None = None
    board_size: int = 15
    invite_token_secret_arn: str = ""
    """Names the invitation secret in Secrets Manager; the value is read when a token is needed
    (:mod:`connect6.api.invite_tokens`), never kept in the environment."""

    frame_ancestors: tuple[str, ...] = ()
    """The origins that may show the sheet pages in a frame (the platform's), from the template's
    FrameAncestors: comma-separated ``https://host[:port]``; empty: none may (``'none'``)."""

    @field_validator("frame_ancestors", mode="before")
    @classmethod
    def _origins(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        from connect6.pages.html import is_origin  # the pages' own rule for frame-ancestors

        origins = tuple(part.strip().rstrip("/") for part in value.split(",") if part.strip())
        bad = [origin for origin in origins if not is_origin(origin)]
        if bad:
            raise ValueError(f"FRAME_ANCESTORS: not an origin (scheme://host[:port]): {', '.join(bad)}")
        return origins

    @field_validator("computer_budget_s", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        return None if value in ("", None) else value

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, require: Iterable[str] = ()) -> Settings:
        """The settings in ``env`` (the process's environment), after :meth:`check` of ``require``."""
        env = os.environ if env is None else env
        cls.check(require, env)
        fields = {name: env[name.upper()] for name in cls.model_fields if name.upper() in env}
        return cls.model_validate(fields)

    @classmethod
    def check(cls, require: Iterable[str], env: Mapping[str, str] | None = None) -> None:
        """In Lambda, each of ``require`` must be set, and not empty unless emptiness means something
        (:data:`MAY_BE_EMPTY`), or :class:`MissingSetting` is raised naming every one missing.
        Outside Lambda the defaults stand."""
        env = os.environ if env is None else env
        require = tuple(require)
        unknown = set(require) - set(cls.model_fields)
        if unknown:
            raise ValueError(f"no such setting: {', '.join(sorted(unknown))}")
        if not in_lambda(env):
            return
        missing = [name.upper() for name in require
                   if not (env.get(name.upper()) or "").strip()
                   and not (name in MAY_BE_EMPTY and name.upper() in env)]
        if missing:
            function = env.get("AWS_LAMBDA_FUNCTION_NAME")
            raise MissingSetting(f"{function}: {', '.join(missing)} not set; this function needs "
                                 f"{'them' if len(missing) > 1 else 'it'} (template.yaml, Environment)")
