"""Every domain error code has its HTTP status, chosen in one place (api/errors.py)."""

from __future__ import annotations

from connect6.api.errors import STATUS
from connect6.game.errors import ErrorCode


def test_every_error_code_has_a_status():
    assert set(STATUS) == set(ErrorCode)


def test_every_status_is_a_client_error():
    assert {status for status in STATUS.values() if not 400 <= status < 500} == set()
