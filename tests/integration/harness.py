"""Drive the handlers the way API Gateway does, with DynamoDB from moto, everything read from
template.yaml: the table definition (keys, GSI, TTL, PITR), the routes (method + path → function),
each function's CodeUri/Handler and the environment variables. Nothing here restates them.

Used by the integration and scenario tests and by ``tools/bench_service.py``.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import sys
import time
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlencode

from cfnlint.decode import decode

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
REGION = "us-east-1"
TEST_TABLE = "connect6-games-test"
TEST_BUS = "connect6-test-bus"


@lru_cache(maxsize=1)
def template() -> dict[str, Any]:
    loaded, matches = decode(str(TEMPLATE))
    assert loaded is not None and not matches, matches
    return dict(loaded)


def resources_of(kind: str) -> dict[str, dict[str, Any]]:
    return {name: res for name, res in template()["Resources"].items() if res["Type"] == kind}


def table_properties() -> dict[str, Any]:
    (props,) = [res["Properties"] for res in resources_of("AWS::DynamoDB::Table").values()]
    return dict(props)


def _local_value(name: str, value: Any) -> str:
    """An environment value from the template, with intrinsics resolved to the local resources."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "Ref" in value:
        target = value["Ref"]
        resources = template()["Resources"]
        if target in resources:
            kind = resources[target]["Type"]
            if kind == "AWS::DynamoDB::Table":
                return TEST_TABLE
            if kind == "AWS::Events::EventBus":
                return TEST_BUS
        params = template().get("Parameters", {})
        if target in params:
            return str(params[target].get("Default", ""))
    raise AssertionError(f"cannot resolve {name}={value!r} locally")


def function_environment(function: str | None = None) -> dict[str, str]:
    globals_ = template().get("Globals", {}).get("Function", {})
    variables = dict(globals_.get("Environment", {}).get("Variables", {}))
    if function is not None:
        props = template()["Resources"][function]["Properties"]
        variables.update(props.get("Environment", {}).get("Variables", {}))
    return {name: _local_value(name, value) for name, value in variables.items()}


def create_table(client: Any, name: str = TEST_TABLE) -> None:
    """Create the games table exactly as template.yaml declares it."""
    props = table_properties()
    args: dict[str, Any] = {
        "TableName": name,
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props["BillingMode"],
    }
    if "GlobalSecondaryIndexes" in props:
        args["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
    if "StreamSpecification" in props:
        args["StreamSpecification"] = {"StreamEnabled": True, **props["StreamSpecification"]}
    client.create_table(**args)
    ttl = props.get("TimeToLiveSpecification")
    if ttl:
        client.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    pitr = props.get("PointInTimeRecoverySpecification")
    if pitr:
        client.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification=pitr)


# ---------------------------------------------------------------------- routes and handlers
@dataclass(frozen=True)
class Route:
    method: str
    path: str  # template form: /v1/games/{game_id}
    function: str
    authorizer: str
    regex: re.Pattern[str]


@lru_cache(maxsize=1)
def routes() -> tuple[Route, ...]:
    api = next(iter(resources_of("AWS::Serverless::HttpApi").values()), {})
    default_auth = api.get("Properties", {}).get("Auth", {}).get("DefaultAuthorizer", "NONE")
    found = []
    for name, res in resources_of("AWS::Serverless::Function").items():
        for event in res["Properties"].get("Events", {}).values():
            if event["Type"] != "HttpApi":
                continue
            props = event["Properties"]
            path = props["Path"]
            pattern = "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(path)) + "$"
            auth = props.get("Auth", {}).get("Authorizer", default_auth)
            found.append(Route(props["Method"].upper(), path, name, auth, re.compile(pattern)))
    # Literal paths before parameterised ones (board.svg before a {game_id}-only match).
    return tuple(sorted(found, key=lambda r: r.path.count("{")))


def handler_module(function: str, instance: str = "") -> ModuleType:
    """Import a function's handler module from its CodeUri, as Lambda would. Each ``instance`` is a
    separate import (its own resolver), like a separate Lambda execution environment: Powertools
    resolvers hold the current event, so concurrent calls need one each."""
    props = template()["Resources"][function]["Properties"]
    globals_ = template().get("Globals", {}).get("Function", {})
    code_uri = props.get("CodeUri", globals_.get("CodeUri"))
    module_name = props.get("Handler", globals_.get("Handler")).rpartition(".")[0]
    unique = f"handler_{function}{instance}"
    if unique in sys.modules:
        return sys.modules[unique]
    spec = importlib.util.spec_from_file_location(unique, ROOT / code_uri / f"{module_name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    spec.loader.exec_module(module)
    return module


def scheduled_functions() -> list[str]:
    found = []
    for name, res in resources_of("AWS::Serverless::Function").items():
        kinds = {e["Type"] for e in res["Properties"].get("Events", {}).values()}
        if kinds & {"Schedule", "ScheduleV2"}:
            found.append(name)
    return found


def event_pump(dynamodb: Any, streams: Any, table: str = TEST_TABLE, instance: str = "") -> Any:
    """The table's stream feeding the template's stream-fed function (the outbox publisher), as
    Lambda's event source mapping would (``tools/stream_pump.py``, options from the template)."""
    from tools.stream_pump import StreamPump, pump_options, stream_sources

    ((function, properties),) = stream_sources(template())
    module = handler_module(function, instance)
    stream_arn = dynamodb.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    return StreamPump(streams, stream_arn, lambda event: module.lambda_handler(event, FakeContext()),
                      **pump_options(properties))


class FakeContext:
    function_name = "connect6-test"
    function_version = "$LATEST"
    memory_limit_in_mb = 1769
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:connect6-test"
    log_group_name = "/aws/lambda/connect6-test"
    log_stream_name = "test"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())

    def get_remaining_time_in_millis(self) -> int:
        return 29_000


def http_event(method: str, raw_path: str, route: Route, params: dict[str, str], *,
               body: str | None = None, headers: dict[str, str] | None = None,
               query: str = "") -> dict[str, Any]:
    """An API Gateway HTTP API (payload 2.0) event."""
    now = time.time()
    context: dict[str, Any] = {
        "accountId": "123456789012", "apiId": "local", "domainName": "api.example.test",
        "domainPrefix": "api", "requestId": str(uuid.uuid4()), "routeKey": f"{method} {route.path}",
        "stage": "$default", "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
        "timeEpoch": int(now * 1000),
        "http": {"method": method, "path": raw_path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1",
                 "userAgent": "connect6-tests"},
    }
    if route.authorizer == "AWS_IAM":
        context["authorizer"] = {"iam": {"accessKey": "AKIAPLATFORM", "accountId": "123456789012",
                                         "callerId": "AIDAPLATFORM", "principalOrgId": None,
                                         "userArn": "arn:aws:iam::123456789012:user/platform",
                                         "userId": "AIDAPLATFORM"}}
    event: dict[str, Any] = {
        "version": "2.0", "routeKey": f"{method} {route.path}", "rawPath": raw_path,
        "rawQueryString": query, "headers": {k.lower(): v for k, v in (headers or {}).items()},
        "requestContext": context, "pathParameters": params, "isBase64Encoded": False,
    }
    if body is not None:
        event["body"] = body
    return event


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str
    elapsed_s: float = 0.0
    function: str = ""

    @property
    def json(self) -> Any:
        return json.loads(self.text)

    @property
    def error(self) -> dict[str, Any]:
        data = self.json
        assert set(data) == {"error"}, data
        return dict(data["error"])


@dataclass
class Api:
    """Calls the handlers as API Gateway would, matching routes from template.yaml."""

    instance: str = ""
    calls: list[Reply] = field(default_factory=list)

    def route(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        for route in routes():
            match = route.regex.match(path)
            if route.method == method and match:
                return route, match.groupdict()
        raise LookupError(f"no route for {method} {path}")

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
        text = result.get("body") or ""
        if result.get("isBase64Encoded"):
            text = base64.b64decode(text).decode()
        reply = Reply(result["statusCode"], {k.lower(): v for k, v in (result.get("headers") or {}).items()},
                      text, elapsed, route.function)
        self.calls.append(reply)
        return reply

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("POST", path, body, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any) -> Reply:
        return self.request("PUT", path, body, **kwargs)
