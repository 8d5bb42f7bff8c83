"""Settings fail fast in Lambda: a function names what it needs and a missing one stops its cold
start with an error naming the variable; outside Lambda every setting has its default."""

from __future__ import annotations

import pytest

from connect6.api.config import MissingSetting, Settings, in_lambda

LAMBDA = {"AWS_LAMBDA_FUNCTION_NAME": "connect6-publish"}


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """No sockets here."""


def test_outside_lambda_every_setting_has_its_default() -> None:
    settings = Settings.from_env({}, require=("table_name", "event_bus_name", "invite_token_secret_arn"))
    assert settings.table_name == "connect6-games" and settings.event_bus_name == ""
    assert settings.computer_budget_s is None and settings.invite_token_secret_arn == ""
    assert not in_lambda({}) and in_lambda(LAMBDA)
    assert not in_lambda({**LAMBDA, "AWS_SAM_LOCAL": "true"})


@pytest.mark.parametrize("value", [None, "", "  "])
def test_in_lambda_a_missing_or_empty_name_is_refused_naming_the_variable(value: str | None) -> None:
    env = {**LAMBDA, "TABLE_NAME": "t"}
    if value is not None:
        env["EVENT_BUS_NAME"] = value
    with pytest.raises(MissingSetting, match=r"connect6-publish: EVENT_BUS_NAME not set"):
        Settings.from_env(env, require=("table_name", "event_bus_name"))


def test_every_missing_setting_is_named_at_once() -> None:
    with pytest.raises(MissingSetting) as raised:
        Settings.from_env(LAMBDA, require=("table_name", "invite_token_secret_arn", "computer_budget_s"))
    assert "TABLE_NAME, INVITE_TOKEN_SECRET_ARN, COMPUTER_BUDGET_S not set" in str(raised.value)


def test_settings_whose_emptiness_means_something_may_be_empty_but_must_be_set() -> None:
    env = {**LAMBDA, "TABLE_NAME": "t", "COMPUTER_BUDGET_S": "", "PUBLIC_BASE_URL": ""}
    settings = Settings.from_env(env, require=("table_name", "computer_budget_s", "public_base_url"))
    assert settings.computer_budget_s is None and settings.public_base_url == ""
    with pytest.raises(MissingSetting, match="PUBLIC_BASE_URL"):
        Settings.from_env({**LAMBDA, "TABLE_NAME": "t"}, require=("table_name", "public_base_url"))


def test_a_setting_not_asked_for_is_not_required() -> None:
    assert Settings.from_env({**LAMBDA, "TABLE_NAME": "t"}, require=("table_name",)).table_name == "t"


def test_an_unknown_setting_name_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no such setting: tabel_name"):
        Settings.from_env({}, require=("tabel_name",))
