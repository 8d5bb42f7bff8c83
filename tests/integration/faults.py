"""Fault injection for the integration tests: a wrapping client around the real (moto-backed) boto3
client, and botocore hooks that fail requests *inside* a real client so its own retries run.

- :class:`FaultyClient` stands for a call that still fails after the client's retries: it raises the
  planned fault instead of calling, or calls and then raises (a lost response: the write landed,
  the caller saw an error).
- :func:`inject_before_send` makes the real client's HTTP exchange fail (a throttling answer, a
  500, a timeout, a lost response) so botocore's standard retry mode has to cope.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ClientError, ConnectTimeoutError, EndpointConnectionError, ReadTimeoutError

ENDPOINT = "https://dynamodb.us-east-1.amazonaws.com"
LOST = "lost response"


def client_error(code: str, status: int) -> Callable[[str], Exception]:
    def make(operation: str) -> Exception:
        return ClientError({"Error": {"Code": code, "Message": f"injected {code}"},
                            "ResponseMetadata": {"HTTPStatusCode": status}}, operation)
    return make


# Every fault a DynamoDB call can end with once the client has given up retrying.
DYNAMODB_FAULTS: dict[str, Any] = {
    "ProvisionedThroughputExceeded": client_error("ProvisionedThroughputExceededException", 400),
    "Throttling": client_error("ThrottlingException", 400),
    "RequestLimitExceeded": client_error("RequestLimitExceeded", 400),
    "TransactionConflict": client_error("TransactionConflictException", 400),
    "InternalServerError": client_error("InternalServerError", 500),
    "ReadTimeout": lambda operation: ReadTimeoutError(endpoint_url=ENDPOINT),
    "ConnectTimeout": lambda operation: ConnectTimeoutError(endpoint_url=ENDPOINT),
    "EndpointConnection": lambda operation: EndpointConnectionError(endpoint_url=ENDPOINT),
    "LostResponse": LOST,
}


@dataclass
class Planned:
    operation: str
    fault: Any  # a factory of the exception, or LOST
    skip: int = 0  # let this many calls of the operation through first


@dataclass
class FaultyClient:
    """Wraps a boto3 client; planned faults fire once each, in order, on the named operations."""

    real: Any
    plan: list[Planned] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)

    def inject(self, operation: str, fault: Any, *, skip: int = 0) -> None:
        self.plan.append(Planned(operation, fault, skip))

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.real, name)
        if not callable(method):
            return method

        def call(*args: Any, **kwargs: Any) -> Any:
            planned = next((p for p in self.plan if p.operation == name), None)
            if planned is None:
                return method(*args, **kwargs)
            if planned.skip:
                planned.skip -= 1
                return method(*args, **kwargs)
            self.plan.remove(planned)
            self.fired.append(name)
            if planned.fault == LOST:
                method(*args, **kwargs)  # the write lands ...
                raise ReadTimeoutError(endpoint_url=ENDPOINT)  # ... and its answer never arrives
            raise planned.fault(name)

        return call


class _Raw:
    def __init__(self, body: bytes) -> None:
        self.body = body

    def stream(self, **_: Any) -> Any:
        return iter([self.body])


def _error_response(url: str, status: int, code: str) -> AWSResponse:
    body = f'{{"__type":"com.amazonaws.dynamodb.v20120810#{code}","message":"injected"}}'.encode()
    return AWSResponse(url, status, {"x-amzn-ErrorType": code}, _Raw(body))


def inject_before_send(client: Any, operation: str, faults: list[str]) -> list[str]:
    """Make the next sends of ``operation`` (e.g. ``PutItem``) fail inside ``client``, one fault per
    send, in order: ``pass`` (no fault), ``throttle`` (400 ThrottlingException), ``internal`` (500),
    ``timeout`` (no answer, nothing written), ``lost`` (written, then no answer). Returns the list
    of faults fired."""
    from moto.core.models import botocore_stubber

    pending = list(faults)
    fired: list[str] = []
    # botocore calls *every* before-send handler and takes the first answer: moto's (registered
    # after this hook) would still carry out a request this hook answers with an error. Switch it
    # off for that one send, and back on at the end of the same send.

    def answer_instead(response: AWSResponse) -> AWSResponse:
        botocore_stubber.enabled = False
        return response

    def moto_back_on(**_: Any) -> None:
        botocore_stubber.enabled = True

    def hook(request: Any, event_name: str, **_: Any) -> Any:
        if not pending:
            return None
        fault = pending.pop(0)
        fired.append(fault)
        if fault == "pass":
            return None
        if fault == "throttle":
            return answer_instead(_error_response(request.url, 400, "ThrottlingException"))
        if fault == "internal":
            return answer_instead(_error_response(request.url, 500, "InternalServerError"))
        if fault == "timeout":
            raise ReadTimeoutError(endpoint_url=request.url)
        if fault == "lost":
            botocore_stubber(event_name=event_name, request=request)
            raise ReadTimeoutError(endpoint_url=request.url)
        raise AssertionError(fault)

    client.meta.events.register_first(f"before-send.dynamodb.{operation}", hook)
    client.meta.events.register_last("before-send", moto_back_on)
    return fired


@dataclass
class FaultyEvents:
    """Wraps an EventBridge client: each ``put_events`` call takes the next planned outcome.

    ``raise:<Code>`` the call fails with that error (nothing published); ``timeout`` a read timeout
    (nothing published); ``partial:<i>`` entry ``i`` (and only it) is refused with
    ``FailedEntryCount`` 1, the others are published; ``lost`` everything is published and the
    answer is lost; ``ok`` (or an empty plan) the real call."""

    real: Any
    plan: list[str] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def put_events(self, Entries: list[dict[str, Any]]) -> dict[str, Any]:
        outcome = self.plan.pop(0) if self.plan else "ok"
        self.fired.append(outcome)
        if outcome.startswith("raise:"):
            raise client_error(outcome.split(":", 1)[1], 500 if "Internal" in outcome else 400)("PutEvents")
        if outcome == "timeout":
            raise ReadTimeoutError(endpoint_url="https://events.us-east-1.amazonaws.com")
        if outcome == "lost":
            self.real.put_events(Entries=Entries)
            raise ReadTimeoutError(endpoint_url="https://events.us-east-1.amazonaws.com")
        if outcome.startswith("partial:"):
            refused = int(outcome.split(":", 1)[1]) % len(Entries)
            accepted = [e for i, e in enumerate(Entries) if i != refused]
            results = iter(self.real.put_events(Entries=accepted)["Entries"]) if accepted else iter([])
            refusal = {"ErrorCode": "InternalFailure", "ErrorMessage": "injected"}
            out = [refusal if i == refused else next(results) for i in range(len(Entries))]
            return {"FailedEntryCount": 1, "Entries": out}
        response: dict[str, Any] = self.real.put_events(Entries=Entries)
        return response
