"""The Idempotency-Key protocol of connect6.api.idempotency over the store's conditional record."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_lambda_powertools.event_handler import Response

from connect6.api import idempotency
from connect6.api.errors import ApiError
from connect6.game import ErrorCode, GameError
from connect6.store import MemoryStore


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """No sockets here."""


def _ok(counter: list[int], status: int = 201) -> Any:
    def call() -> Response[Any]:
        counter.append(1)
        body = json.dumps({"n": len(counter)})
        return Response(status_code=status, content_type="application/json", body=body)
    return call


def test_a_key_runs_the_call_once_and_replays_its_response() -> None:
    store, calls = MemoryStore(), []
    headers = {"Idempotency-Key": "abc"}
    first = idempotency.run(store, headers, "POST", "/p", {"a": 1}, _ok(calls))
    again = idempotency.run(store, headers, "POST", "/p", {"a": 1}, _ok(calls))
    assert (first.status_code, first.body) == (again.status_code, again.body) == (201, '{"n": 1}')
    assert again.headers["Idempotent-Replayed"] == "true" and len(calls) == 1
    # Without a key every call runs
    idempotency.run(store, {}, "POST", "/p", {"a": 1}, _ok(calls))
    assert len(calls) == 2


def test_another_body_under_the_same_key_is_refused() -> None:
    store, calls = MemoryStore(), []
    idempotency.run(store, {"idempotency-key": "abc"}, "POST", "/p", {"a": 1}, _ok(calls))
    with pytest.raises(ApiError) as caught:
        idempotency.run(store, {"idempotency-key": "abc"}, "POST", "/p", {"a": 2}, _ok(calls))
    assert (caught.value.status, caught.value.code) == (422, "idempotency_key_reused")
    # The same key on another route is another request
    other_route = idempotency.run(store, {"idempotency-key": "abc"}, "POST", "/q", {"a": 2}, _ok(calls))
    assert other_route.status_code == 201


def test_a_retry_while_the_first_runs_is_409() -> None:
    store = MemoryStore()
    headers = {"Idempotency-Key": "slow"}
    seen: list[Any] = []

    def slow() -> Response[Any]:
        # A retry arrives while this call is still running
        with pytest.raises(ApiError) as caught:
            idempotency.run(store, headers, "POST", "/p", {}, _ok([]))
        seen.append(caught.value.code)
        return Response(status_code=200, content_type="application/json", body="{}")

    idempotency.run(store, headers, "POST", "/p", {}, slow)
    assert seen == ["request_in_progress"]


def test_domain_refusals_are_remembered_and_server_failures_forgotten() -> None:
    store, calls = MemoryStore(), []

    def refuse() -> Response[Any]:
        calls.append(1)
        raise GameError(ErrorCode.NO_OPEN_SEAT, "There is no open seat in this game.")

    first = idempotency.run(store, {"Idempotency-Key": "k"}, "POST", "/p", {}, refuse)
    again = idempotency.run(store, {"Idempotency-Key": "k"}, "POST", "/p", {}, refuse)
    assert first.status_code == again.status_code == 409 and first.body == again.body and len(calls) == 1

    def crash() -> Response[Any]:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        idempotency.run(store, {"Idempotency-Key": "c"}, "POST", "/p", {}, crash)
    # The claim was released: a retry runs
    assert idempotency.run(store, {"Idempotency-Key": "c"}, "POST", "/p", {}, _ok(calls)).status_code == 201


def test_keys_are_bounded() -> None:
    with pytest.raises(ApiError) as caught:
        idempotency.run(MemoryStore(), {"Idempotency-Key": "x" * 129}, "POST", "/p", {}, _ok([]))
    assert caught.value.field == "Idempotency-Key"
