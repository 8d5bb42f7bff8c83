"""Idempotency-Key on Powertools' idempotency utility (connect6.api.idempotency), its records in the
games table built from template.yaml (moto): replay, payload validation, concurrent retries, a
request killed mid-way, what is (not) stored, and no raw invitation token anywhere in the table."""

from __future__ import annotations

import datetime
import json
import time
import types
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.event_handler import Response

from connect6.api import idempotency
from connect6.api.errors import ApiError
from connect6.game import ErrorCode, GameError
from tests.integration.harness import REGION, TEST_TABLE, Api

RUN = "/v1/games/run-42"


class FakeContext:
    """A Lambda context whose invocation ends ``remaining_ms`` after it was made."""

    def __init__(self, remaining_ms: int) -> None:
        self.ends_at = time.monotonic() + remaining_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.ends_at - time.monotonic()) * 1000))


class Killed(BaseException):
    """The invocation dies (timeout, out of memory): no ``except Exception`` runs."""


def _ok(calls: list[int], status: int = 201) -> Any:
    def call() -> Response[Any]:
        calls.append(1)
        body = json.dumps({"n": len(calls)})
        return Response(status_code=status, content_type="application/json", body=body)
    return call


def _run(key: str | None, body: Any, call: Any, path: str = "/p", context: Any = None) -> Response[Any]:
    layer = idempotency.persistence(TEST_TABLE)
    context = context or FakeContext(29_000)
    return idempotency.run(layer, key, "POST", path, body, call, lambda_context=context)


def _records() -> list[dict[str, Any]]:
    items = boto3.client("dynamodb", region_name=REGION).scan(TableName=TEST_TABLE)["Items"]
    return [i for i in items if i["pk"]["S"] == idempotency.STATIC_PK]


def _items() -> list[dict[str, Any]]:
    return list(boto3.client("dynamodb", region_name=REGION).scan(TableName=TEST_TABLE)["Items"])


def test_a_replay_returns_the_first_response_and_runs_nothing(aws: Any) -> None:
    calls: list[int] = []
    first = _run("abc", {"a": 1}, _ok(calls))
    again = _run("abc", {"a": 1}, _ok(calls))
    assert (first.status_code, first.body) == (again.status_code, again.body) == (201, '{"n": 1}')
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert len(calls) == 1
    # Without a key every call runs
    _run(None, {"a": 1}, _ok(calls))
    assert len(calls) == 2
    # The record: completed, expiring through the table's TTL attribute in about a day
    (record,) = _records()
    assert record["status"]["S"] == "COMPLETED" and record["sk"]["S"].startswith("connect6#")
    assert abs(int(record["ttl"]["N"]) - (time.time() + idempotency.EXPIRES_AFTER_S)) < 60


def test_the_same_key_with_another_body_is_422_and_another_route_is_another_request(aws: Any) -> None:
    calls: list[int] = []
    _run("abc", {"a": 1}, _ok(calls))
    with pytest.raises(ApiError) as caught:
        _run("abc", {"a": 2}, _ok(calls))
    assert (caught.value.status, caught.value.code, caught.value.field) == (
        422, "idempotency_key_reused", "Idempotency-Key")
    assert _run("abc", {"a": 2}, _ok(calls), path="/q").status_code == 201
    assert len(calls) == 2


def test_a_retry_while_the_first_runs_is_409_with_retry_after(aws: Any) -> None:
    seen: list[ApiError] = []

    def slow() -> Response[Any]:
        with pytest.raises(ApiError) as caught:  # a retry arrives while this call is still running
            _run("slow", {}, _ok([]))
        seen.append(caught.value)
        return Response(status_code=200, content_type="application/json", body="{}")

    assert _run("slow", {}, slow).status_code == 200
    (error,) = seen
    assert (error.status, error.code) == (409, "request_in_progress")
    assert int(error.headers["Retry-After"]) > 0


class Clock:
    """Powertools' idempotency reads the time with ``datetime.now()``: this clock stands in for it
    (and for the fake Lambda context), so the test moves time instead of sleeping."""

    def __init__(self) -> None:
        self.offset = datetime.timedelta(0)
        clock = self

        class Now(datetime.datetime):
            @classmethod
            def now(cls, tz: Any = None) -> Any:
                return datetime.datetime.now(tz) + clock.offset

        self.module = types.SimpleNamespace(datetime=Now, timedelta=datetime.timedelta)

    def context(self, remaining_ms: int) -> Any:
        ends_at = self.module.datetime.now() + datetime.timedelta(milliseconds=remaining_ms)
        clock = self

        class Context:
            def get_remaining_time_in_millis(self) -> int:
                left = ends_at - clock.module.datetime.now()
                return max(0, int(left.total_seconds() * 1000))

        return Context()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    import aws_lambda_powertools.utilities.idempotency.base as handler_module
    import aws_lambda_powertools.utilities.idempotency.persistence.base as persistence_module
    import aws_lambda_powertools.utilities.idempotency.persistence.datarecord as record_module
    import aws_lambda_powertools.utilities.idempotency.persistence.dynamodb as dynamodb_module

    fake = Clock()
    for module in (handler_module, persistence_module, record_module, dynamodb_module):
        monkeypatch.setattr(module, "dt", fake.module)
    return fake


def test_a_request_killed_mid_way_frees_its_key_when_the_invocation_time_is_up(
        aws: Any, clock: Clock) -> None:
    # Given a request whose invocation has 60 s left, killed while it runs (the claim stays)
    def killed() -> Response[Any]:
        raise Killed()

    with pytest.raises(Killed):
        _run("k", {"a": 1}, killed, context=clock.context(60_000))
    (record,) = _records()
    assert record["status"]["S"] == "INPROGRESS"
    claimed_for_ms = int(record["in_progress_expiry"]["N"]) - clock.module.datetime.now().timestamp() * 1000
    assert 0 < claimed_for_ms <= 60_000  # the invocation's time, not the record's day
    # When it is retried within that time: 409 with Retry-After, nothing runs
    calls: list[int] = []
    clock.offset = datetime.timedelta(seconds=30)
    with pytest.raises(ApiError) as caught:
        _run("k", {"a": 1}, _ok(calls), context=clock.context(29_000))
    assert caught.value.code == "request_in_progress" and calls == []
    # Then, once the invocation's time has passed, the retry with the same key runs and succeeds
    clock.offset = datetime.timedelta(seconds=61)
    retried = _run("k", {"a": 1}, _ok(calls), context=clock.context(29_000))
    assert retried.status_code == 201 and calls == [1]
    replay = _run("k", {"a": 1}, _ok(calls), context=clock.context(29_000))
    assert replay.headers["Idempotent-Replayed"] == "true" and calls == [1]


def test_refusals_and_transient_failures_are_never_stored(aws: Any) -> None:
    calls: list[int] = []

    def refuse() -> Response[Any]:
        calls.append(1)
        raise GameError(ErrorCode.NO_OPEN_SEAT, "There is no open seat in this game.")

    def busy() -> Response[Any]:
        calls.append(1)
        raise GameError(ErrorCode.BUSY, "The game kept changing; please try again.")

    def unavailable() -> Response[Any]:
        calls.append(1)
        return Response(status_code=503, content_type="application/json", body="{}",
                        headers={"Retry-After": "1"})

    def crash() -> Response[Any]:
        calls.append(1)
        raise RuntimeError("boom")

    for key, call in (("refused", refuse), ("busy", busy), ("crash", crash)):
        for _ in range(2):  # both attempts run: nothing was stored in between
            with pytest.raises((GameError, RuntimeError)):
                _run(key, {}, call)
    assert _run("down", {}, unavailable).status_code == 503
    assert _run("down", {}, unavailable).status_code == 503
    assert len(calls) == 8 and _records() == []
    # After the transient failure, the retry with the same key succeeds and is stored
    assert _run("busy", {}, _ok(calls)).status_code == 201 and len(_records()) == 1


def test_a_failing_idempotency_store_is_503_with_retry_after(aws: Any) -> None:
    layer = idempotency.persistence("no-such-table")
    with pytest.raises(ApiError) as caught:
        idempotency.run(layer, "k", "POST", "/p", {}, _ok([]), lambda_context=FakeContext(1000))
    assert (caught.value.status, caught.value.code) == (503, "service_unavailable")
    assert caught.value.headers["Retry-After"]


def _token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_a_join_with_an_invite_is_replayed_without_the_token_ever_being_stored(aws: Any) -> None:
    api = Api()
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    body = {"name": "Ana", "email": "ana@example.com",
            "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "Rematch?"}}
    first = api.post(f"{RUN}/players", body, headers={"Idempotency-Key": "join-1"})
    assert first.status == 201
    token = _token_of(first.json["invite"]["url"])
    # Nothing in the table holds the raw token (the idempotency record included)
    items = _items()
    assert any(i["pk"]["S"] == idempotency.STATIC_PK for i in items)
    assert all(token not in json.dumps(item) for item in items)
    # The replay is byte-for-byte the first response, the token included, and changes nothing
    again = api.post(f"{RUN}/players", body, headers={"Idempotency-Key": "join-1"})
    assert again.text == first.text and again.headers["idempotent-replayed"] == "true"
    assert _items() == items
    # The token works
    assert api.get(f"/v1/invites/{token}", headers={"Accept": "application/json"}).status == 200


def test_a_redeem_with_a_key_is_replayed_and_stores_no_token(aws: Any) -> None:
    api = Api()
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com"}})
    token = _token_of(joined.json["invite"]["url"])
    first = api.post(f"/v1/invites/{token}", {"name": "Benjamin"}, headers={"Idempotency-Key": "r-1"})
    again = api.post(f"/v1/invites/{token}", {"name": "Benjamin"}, headers={"Idempotency-Key": "r-1"})
    assert first.status == again.status == 201 and first.text == again.text
    assert all(token not in json.dumps(item) for item in _items())
    # Without the key the redemption is refused as already used (it did happen once)
    assert api.post(f"/v1/invites/{token}", {"name": "Benjamin"}).error["code"] == "invite_already_used"


def test_every_mutating_route_documents_the_header(aws: Any) -> None:
    from tests.integration.harness import handler_module, routes

    for route in routes():
        if route.method not in ("POST", "PUT"):
            continue
        document = json.loads(handler_module(route.function).app.get_openapi_json_schema())
        parameters = document["paths"][route.path][route.method.lower()].get("parameters", [])
        assert any(p["in"] == "header" and p["name"].lower() == "idempotency-key" for p in parameters), route


def test_without_a_lambda_context_a_claim_still_lasts_seconds_not_a_day(aws: Any) -> None:
    layer = idempotency.persistence(TEST_TABLE)

    def killed() -> Response[Any]:
        raise Killed()

    with pytest.raises(Killed):
        idempotency.run(layer, "no-context", "POST", "/p", {}, killed, lambda_context=None)
    (record,) = _records()
    left_ms = int(record["in_progress_expiry"]["N"]) - time.time() * 1000
    assert 0 < left_ms <= idempotency.DEFAULT_IN_PROGRESS_MS
