"""The integration tests' view of the shared local runner (``tools/local/samlocal``): the handlers driven
the way API Gateway does, with DynamoDB and EventBridge from moto, everything read from
template.yaml by the same code ``make run`` serves. Only the tests' own names live here: the table
and bus names, one handler import per ``instance`` (a separate execution environment) and
:class:`Api`, which calls a handler in-process and keeps the replies (the one ``Reply`` of
``tools.local.client``).
"""

from __future__ import annotations

import base64
import json
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlencode

from tools.local.client import Reply
from tools.local.samlocal import REGION, LambdaContext, Route, Service, build_event
from tools.local.samlocal import create_table as create_template_table
from tools.local.samlocal.streams import StreamPump

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
TEST_TABLE = "connect6-games-test"
TEST_BUS = "connect6-test-bus"
FakeContext = LambdaContext
# What API Gateway adds in front of every request to the tests' custom domain.
API_GATEWAY_HEADERS = [("host", "api.example.test"), ("x-forwarded-proto", "https"),
                       ("x-forwarded-port", "443")]
# The stage variable template.yaml gives the API (its custom domain, here the tests'): where links point.
STAGE_VARIABLES = {"public_base_url": "https://api.example.test"}

__all__ = ["REGION", "ROOT", "TEST_BUS", "TEST_TABLE", "Api", "FakeContext", "Reply", "Route"]


@lru_cache(maxsize=1)
def service() -> Service:
    """template.yaml with the tests' table and bus names."""
    return Service(TEMPLATE, names={"GamesTable": TEST_TABLE, "EventBus": TEST_BUS})


def template() -> dict[str, Any]:
    return service().template


def resources_of(kind: str) -> dict[str, dict[str, Any]]:
    return {name: res for name, res in template()["Resources"].items() if res["Type"] == kind}


def table_properties() -> dict[str, Any]:
    return service().table_properties()


def function_environment(function: str | None = None) -> dict[str, str]:
    return service().environment(function)


def create_table(client: Any, name: str = TEST_TABLE) -> None:
    """Create the games table exactly as template.yaml declares it."""
    create_template_table(client, name, table_properties())


def routes() -> tuple[Route, ...]:
    return tuple(service().routes)


# What the one scheduled sweep answers when it had nothing to do (holds released, legacy holds moved
# to their shards, games lost on time, reminders sent).
NOTHING_SWEPT = {"released": 0, "legacy_holds_moved": 0, "timed_out": 0, "reminded": 0}


def scheduled_functions() -> list[str]:
    return [fn.logical_id for fn in service().functions if fn.schedules]


def handler_module(function: Any, instance: str = "") -> ModuleType:
    """A function's handler module (by logical id or :class:`Route.function`). Each ``instance`` is
    a separate import (its own resolver), like a separate Lambda execution environment."""
    logical = str(function)
    unique = f"handler_{logical}{instance}"
    if unique not in sys.modules:
        service().function(logical).import_handler(unique)
    return sys.modules[unique]


def event_pump(dynamodb: Any, streams: Any, instance: str = "") -> StreamPump:
    """The table's stream feeding the template's stream-fed function (the outbox publisher), as
    Lambda's event source mapping would (options from the template)."""
    def invoker(function: Any) -> Any:
        module = handler_module(function, instance)
        return lambda event: module.lambda_handler(event, FakeContext())

    ((_table, _function, pump),) = service().stream_pumps(dynamodb, streams, invoker)
    return pump


def http_event(method: str, raw_path: str, route: Route, params: dict[str, str], *,
               body: str | None = None, headers: dict[str, str] | None = None,
               query: str = "") -> dict[str, Any]:
    """An API Gateway HTTP API (payload 2.0) event, built as the local server builds it."""
    event = build_event(method=method, target=raw_path + (f"?{query}" if query else ""),
                        headers=[*API_GATEWAY_HEADERS, *(headers or {}).items()],
                        body=b"", route=route, params=params, source_ip="127.0.0.1")
    event["stageVariables"] = dict(STAGE_VARIABLES)
    if body is not None:
        event["body"] = body  # as given: a test may hand over a body already base64-encoded
    return event


def api_route(method: str, path: str) -> tuple[Route, dict[str, str]]:
    """The template's route for a request, and its path parameters."""
    found = service().match(method, path)
    if found is None:
        raise LookupError(f"no route for {method} {path}")
    return found


@dataclass
class Api:
    """Calls the handlers as API Gateway would, matching routes from template.yaml."""

    instance: str = ""
    calls: list[Reply] = field(default_factory=list)

    def route(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        found = service().match(method, path)
        if found is None:
            raise LookupError(f"no route for {method} {path}")
        return found

    def request(self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None,
                form: dict[str, str] | None = None) -> Reply:
        route, params = self.route(method, path)
        headers = dict(headers or {})
        raw: str | None = None
        if form is not None:
            raw = urlencode(form)
            headers.setdefault("content-type", "application/x-www-form-urlencoded")
        elif isinstance(body, str):
            raw = body
            headers.setdefault("content-type", "application/json")
        elif body is not None:
            raw = json.dumps(body)
            headers.setdefault("content-type", "application/json")
        event = http_event(method, path, route, params, body=raw, headers=headers)
        module = handler_module(route.function, self.instance)
        started = time.perf_counter()
        result = module.lambda_handler(event, FakeContext())
        elapsed = time.perf_counter() - started
        raw_body = str(result.get("body") or "")
        body = base64.b64decode(raw_body) if result.get("isBase64Encoded") else raw_body.encode()
        reply = Reply(result["statusCode"], {k.lower(): v for k, v in (result.get("headers") or {}).items()},
                      body, seconds=elapsed)
        self.calls.append(reply)
        return reply

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("PUT", path, body, **kwargs)
