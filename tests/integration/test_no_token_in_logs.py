"""No invitation token in any log line the functions write: the service logger (JSON on stdout),
Powertools' own loggers (the resolver, validation, idempotency), exception logs — all at DEBUG,
around a join with an invitation, the invitation page, a failing and a successful redemption."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from connect6.api import logs
from tests.integration.harness import Api

RUN = "/v1/games/run-42"


@pytest.fixture
def everything_logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    names = ("connect6", "aws_lambda_powertools", "")
    before = {name: (logging.getLogger(name).level, logging.getLogger(name).propagate) for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.DEBUG)
        logging.getLogger(name).propagate = True
    caplog.set_level(logging.DEBUG)
    yield caplog
    for name, (level, propagate) in before.items():
        logging.getLogger(name).setLevel(level)
        logging.getLogger(name).propagate = propagate


def test_a_join_with_an_invite_and_its_redemption_log_no_token(
        aws: Any, everything_logged: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    api = Api()
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "Rematch?"}},
        headers={"Idempotency-Key": "join-1"})
    token = joined.json["invite"]["url"].rsplit("/", 1)[1]
    api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "Rematch?"}},
        headers={"Idempotency-Key": "join-1"})
    assert api.get(f"/v1/invites/{token}").status == 200
    assert api.get(f"/v1/invites/{token}", headers={"Accept": "application/json"}).status == 200
    assert api.post(f"/v1/invites/{token}", "{not json").status == 422
    assert api.post(f"/v1/invites/{token}", {"name": "Ben\u202e"}).status == 422
    assert api.post(f"/v1/invites/{token}x", {}).status == 404
    assert api.post(f"/v1/invites/{token}", {"name": "Benjamin"},
                    headers={"Idempotency-Key": "redeem-1"}).status == 201
    assert api.post(f"/v1/invites/{token}", form={"name": "Benjamin"}).status == 409

    written = "\n".join(r.getMessage() + " " + repr(vars(r)) for r in everything_logged.records)
    out, err = capfd.readouterr()
    assert everything_logged.records, "nothing was logged: the test would prove nothing"
    assert "Calling API Route Handler" in written  # Powertools' DEBUG line that carries the path params
    for text in (written, out, err):
        assert token not in text
    assert logs.REDACTED in written


def test_the_redactor_covers_paths_fields_and_exceptions() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "No match for /v1/invites/%s and %s",
                               ("abcDEF_12-3", {"token": "abcDEF_12-3", "game_id": "g"}), None)
    try:
        raise ValueError("bad /v1/invites/abcDEF_12-3")
    except ValueError as error:
        record.exc_info = (type(error), error, error.__traceback__)
    record.path = "/v1/invites/abcDEF_12-3"
    logs.TokenRedactor().filter(record)
    assert "abcDEF_12-3" not in record.getMessage() + repr(vars(record)) + str(record.exc_info[1])
