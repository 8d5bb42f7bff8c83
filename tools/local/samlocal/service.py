"""The template turned into local functions, routes, a table and a bus on moto, schedules, the
stream → function mapping and one OpenAPI document."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote

from .events import scheduled_event
from .streams import StreamPump, pump_options, stream_sources
from .template import ACCOUNT, REGION, STACK, Resolver, load_template

log = logging.getLogger("samlocal")

TABLE = "AWS::DynamoDB::Table"
BUS = "AWS::Events::EventBus"


@dataclass
class Route:
    method: str  # GET, POST, … (the template names each; no ANY)
    path: str  # as in the template: /v1/games/{game_id}/board
    function: Function
    auth: str  # AWS_IAM or NONE
    pattern: re.Pattern[str] = field(init=False)
    specificity: int = field(init=False)  # literal segments: /board.svg wins over {game_id}

    def __post_init__(self) -> None:
        parts, literal = [], 0
        for segment in self.path.strip("/").split("/"):
            found = re.fullmatch(r"\{(\w+)\}", segment)
            if found:
                parts.append(f"(?P<{found.group(1)}>[^/]+)")
            else:
                parts.append(re.escape(segment))
                literal += 1
        self.pattern = re.compile("^/" + "/".join(parts) + "$")
        self.specificity = literal

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def authorizer(self) -> str:
        return self.auth

    def match(self, method: str, path: str) -> dict[str, str] | None:
        if self.method != method:
            return None
        found = self.pattern.match(path)
        if found is None:
            return None
        return {k: unquote(v) for k, v in found.groupdict().items()}


@dataclass
class Function:
    logical_id: str
    name: str
    code_dir: Path
    handler: str  # module.path.function
    env: dict[str, str]
    timeout: float
    memory: int
    schedules: list[dict[str, Any]]
    module: ModuleType | None = None
    entry: Callable[[dict[str, Any], Any], Any] | None = None

    def __str__(self) -> str:
        return self.logical_id

    def import_handler(self, module_name: str | None = None) -> ModuleType:
        """Import the handler module from ``CodeUri`` + ``Handler`` as Lambda would, under
        ``module_name``: each name is a separate import with its own resolver, like a separate
        execution environment. The file is loaded by its path and ``CodeUri`` is not put on
        ``sys.path``: a handler is one file that imports the layer (``connect6``) and Powertools
        only, so a handler importing a module beside it fails here with ``ModuleNotFoundError``."""
        module_path = self.handler.rpartition(".")[0]
        unique = module_name or module_path
        file = self.code_dir / (module_path.replace(".", "/") + ".py")
        if not file.is_file():
            raise SystemExit(f"{self.logical_id}: handler file {file} does not exist")
        spec = importlib.util.spec_from_file_location(unique, file)
        if spec is None or spec.loader is None:
            raise SystemExit(f"{self.logical_id}: cannot import {file}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        spec.loader.exec_module(module)
        return module

    def load(self) -> None:
        """Import the handler once (the local server)."""
        self.module = self.import_handler()
        self.entry = getattr(self.module, self.handler.rpartition(".")[2])


class LambdaContext:
    """The parts of the Lambda context object handlers and Powertools read."""

    def __init__(self, function: Function | None = None) -> None:
        name = function.name if function else "connect6-test"
        self.function_name = name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"
        self.memory_limit_in_mb = function.memory if function else 1769
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{name}"
        self.log_stream_name = "local"
        self.identity = None
        self.client_context = None
        self._deadline = time.monotonic() + (function.timeout if function else 29.0)

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


class Service:
    """template.yaml, locally: its functions, routes, table and bus (on moto), schedules and streams.

    ``names`` gives resources other physical names than the template would (the tests' table);
    ``parameters`` overrides template parameters; ``env_overrides`` is added to every function."""

    def __init__(
        self, template_path: Path, endpoint: str | None = None, *, verbose: bool = False,
        parameters: dict[str, str] | None = None, env_overrides: dict[str, str] | None = None,
        names: dict[str, str] | None = None,
    ) -> None:
        self.template_path = template_path
        self.template = load_template(template_path)
        self.endpoint = endpoint
        self.verbose = verbose
        self.env_overrides = env_overrides or {}
        resources: dict[str, Any] = self.template["Resources"]
        self.tables = {k: v for k, v in resources.items() if v.get("Type") == TABLE}
        self.buses = {k: v for k, v in resources.items() if v.get("Type") == BUS}
        # Physical names first (names may use !Sub ${AWS::StackName}), then everything else.
        bootstrap = Resolver(self.template, {}, parameters)
        physical: dict[str, str] = {}
        for logical, res in {**self.tables, **self.buses}.items():
            props = res.get("Properties") or {}
            given = props.get("TableName") or props.get("Name") or f"{STACK}-{logical}"
            physical[logical] = (names or {}).get(logical) or str(bootstrap.resolve(given))
        self.physical = physical
        self.resolver = Resolver(self.template, physical, parameters)
        self.functions: list[Function] = []
        self.routes: list[Route] = []
        self._read_functions()
        self.routes.sort(key=lambda r: r.specificity, reverse=True)
        # Every function runs in this one process, so they must agree on their environment (the
        # template sets it in Globals only).
        if len({tuple(sorted(fn.env.items())) for fn in self.functions}) > 1:
            raise SystemExit(f"{template_path}: functions with different environments cannot share a process")
        self.shared_env = self.functions[0].env if self.functions else {}
        self._openapi: bytes | None = None
        self._openapi_lock = threading.Lock()

    # -- reading the template

    def _globals(self) -> dict[str, Any]:
        return dict((self.template.get("Globals") or {}).get("Function") or {})

    def environment(self, logical: str | None = None) -> dict[str, str]:
        """Globals' variables and (given a function) its own, resolved to the local resources."""
        variables = dict((self._globals().get("Environment") or {}).get("Variables") or {})
        if logical is not None:
            props = self.template["Resources"][logical].get("Properties") or {}
            variables.update((props.get("Environment") or {}).get("Variables") or {})
        return {k: str(v) for k, v in self.resolver.resolve(variables).items()}

    def _read_functions(self) -> None:
        resources: dict[str, Any] = self.template["Resources"]
        default_auth = "NONE"
        for res in resources.values():
            if res.get("Type") == "AWS::Serverless::HttpApi":
                auth = ((res.get("Properties") or {}).get("Auth") or {}).get("DefaultAuthorizer")
                default_auth = auth or default_auth
        for logical, res in resources.items():
            if res.get("Type") != "AWS::Serverless::Function":
                continue
            props = {**self._globals(), **(res.get("Properties") or {})}
            env = {**self.environment(logical), **self.env_overrides}
            name = str(self.resolver.resolve(props.get("FunctionName") or f"{STACK}-{logical}"))
            code_uri = props.get("CodeUri") or "."
            if not isinstance(code_uri, str):
                raise SystemExit(f"{logical}: CodeUri must be a local folder to run locally")
            function = Function(
                logical_id=logical, name=name, code_dir=(self.template_path.parent / code_uri).resolve(),
                handler=str(props.get("Handler")), env=env,
                timeout=float(self.resolver.resolve(props.get("Timeout", 3))),
                memory=int(self.resolver.resolve(props.get("MemorySize", 128))), schedules=[],
            )
            for event in (props.get("Events") or {}).values():
                kind = event.get("Type")
                eprops = event.get("Properties") or {}
                if kind == "HttpApi":
                    auth = (eprops.get("Auth") or {}).get("Authorizer") or default_auth
                    method = str(eprops["Method"]).upper()
                    self.routes.append(Route(method, str(eprops["Path"]), function, str(auth)))
                elif kind in ("Schedule", "ScheduleV2"):
                    function.schedules.append(self.resolver.resolve(eprops))
            self.functions.append(function)

    def function(self, logical: str) -> Function:
        return next(fn for fn in self.functions if fn.logical_id == logical)

    def table_properties(self, logical: str | None = None) -> dict[str, Any]:
        name = logical or next(iter(self.tables))
        return dict(self.resolver.resolve(self.tables[name].get("Properties") or {}))

    # -- AWS resources on moto

    def create_resources(self, dynamodb: Any = None, events: Any = None) -> None:
        """The template's tables and buses, on the given clients (or ones for ``endpoint``)."""
        import boto3

        dynamodb = dynamodb or boto3.client("dynamodb", region_name=REGION, endpoint_url=self.endpoint)
        for logical in self.tables:
            create_table(dynamodb, self.physical[logical], self.table_properties(logical))
        if self.buses:
            events = events or boto3.client("events", region_name=REGION, endpoint_url=self.endpoint)
            for logical in self.buses:
                events.create_event_bus(Name=self.physical[logical])

    def stream_pumps(
        self, dynamodb: Any, streams: Any, invoker: Callable[[Function], Callable[[dict[str, Any]], Any]],
    ) -> list[tuple[str, Function, StreamPump]]:
        """For every stream-fed function: (the table's logical id, the function, a pump from its stream to
        ``invoker(function)``), with the batch size, filters and retries of the template's mapping."""
        pumps = []
        for logical, properties in stream_sources(self.template):
            stream = properties.get("Stream")
            table_logical = stream["Fn::GetAtt"][0] if isinstance(stream, dict) and "Fn::GetAtt" in stream \
                else str(stream).split(".")[0]
            table = dynamodb.describe_table(TableName=self.physical[table_logical])["Table"]
            function = self.function(logical)
            pump = StreamPump(streams, table["LatestStreamArn"], invoker(function),
                              **pump_options(properties))
            pumps.append((table_logical, function, pump))
        return pumps

    # -- calling handlers

    def load_functions(self) -> None:
        """Import every handler, with the functions' environment in this process's."""
        os.environ.update(self.shared_env)
        for fn in self.functions:
            fn.load()

    def invoke(self, fn: Function, event: dict[str, Any]) -> Any:
        assert fn.entry is not None
        # Requests to one function run side by side, like several warm instances: the resolvers
        # keep the current event per thread (connect6.api.resolver.ThreadSafeHttpResolver).
        return fn.entry(event, LambdaContext(fn))

    def scheduled(self) -> list[tuple[Function, dict[str, Any]]]:
        """(function, the scheduled event it gets) for every schedule in the template."""
        return [(fn, scheduled_event(spec, fn)) for fn in self.functions for spec in fn.schedules]

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            params = route.match(method, path)
            if params is not None:
                return route, params
        return None

    # -- OpenAPI

    def openapi(self, base_url: str | None) -> bytes:
        with self._openapi_lock:
            if self._openapi is None:
                self._openapi = json.dumps(openapi_document(self.functions, self.routes, base_url),
                                           indent=2).encode()
            return self._openapi


def openapi_document(functions: list[Function], routes: list[Route], base_url: str | None) -> dict[str, Any]:
    """One OpenAPI document: every function's Powertools resolver merged by Powertools'
    ``OpenAPIMerge``, then what only the template knows — each route's auth (and a stub for any
    route no resolver describes). ``base_url`` None leaves the server relative ("/")."""
    from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge
    from aws_lambda_powertools.event_handler.openapi.models import Server

    from connect6 import __version__

    merge = OpenAPIMerge(
        title="Connect6 game service", version=__version__, on_conflict="error",
        description="Generated from the Powertools resolver of every function in template.yaml, merged. "
                    "Platform routes need AWS_IAM (SigV4) in AWS; the local server does not check it.",
        servers=[Server(url=base_url)] if base_url else None,
        # API Gateway's SigV4 marker is an extension Powertools' security models do not declare.
        security_schemes={"sigv4": {  # type: ignore[dict-item]
            "type": "apiKey", "name": "Authorization", "in": "header",
            "x-amazon-apigateway-authtype": "awsSigv4"}},
    )
    seen: dict[str, Any] = {}
    for fn in functions:
        app = getattr(fn.module, "app", None)
        if app is None or not hasattr(app, "get_openapi_json_schema"):
            continue
        part = json.loads(app.get_openapi_json_schema(title=fn.logical_id, version=__version__))
        for operations in (part.get("paths") or {}).values():
            for operation in operations.values():
                operation.setdefault("x-function", fn.logical_id)
        # OpenAPIMerge lets the last component of a name win in silence: a model described two
        # ways by two functions is a drift worth a warning, and the first description is kept.
        schemas = (part.get("components") or {}).get("schemas") or {}
        for name, schema in list(schemas.items()):
            if seen.setdefault(name, schema) != schema:
                log.warning("OpenAPI schema %s differs between functions; keeping the first", name)
                del schemas[name]
        merge.add_schema(part)
    doc = merge.get_openapi_schema()
    paths: dict[str, Any] = doc.setdefault("paths", {})
    for route in routes:
        operation = paths.setdefault(route.path, {}).setdefault(route.method.lower(), {
            "summary": f"{route.function.logical_id} (not described by its resolver)",
            "responses": {"default": {"description": "see docs/service.md"}},
            "x-function": route.function.logical_id,
        })
        operation["security"] = [{"sigv4": []}] if route.auth == "AWS_IAM" else []
    doc["paths"] = dict(sorted(paths.items()))
    return doc


def create_table(ddb: Any, name: str, props: dict[str, Any]) -> None:
    """Create the table a template resource describes (keys, attributes, GSIs, stream, TTL, PITR)."""
    kwargs: dict[str, Any] = {
        "TableName": name, "KeySchema": props["KeySchema"],
        "AttributeDefinitions": props["AttributeDefinitions"], "BillingMode": props["BillingMode"],
    }
    if props.get("GlobalSecondaryIndexes"):
        kwargs["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
    stream = props.get("StreamSpecification")
    if stream:
        kwargs["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stream["StreamViewType"]}
    ddb.create_table(**kwargs)
    ttl = props.get("TimeToLiveSpecification") or {}
    if str(ttl.get("Enabled")).lower() == "true" and ttl.get("AttributeName"):
        ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
            "AttributeName": ttl["AttributeName"], "Enabled": True})
    pitr = props.get("PointInTimeRecoverySpecification")
    if pitr:
        ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification=pitr)
