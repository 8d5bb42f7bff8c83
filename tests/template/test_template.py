"""template.yaml is the single source of truth: it must lint clean, every reference in it must
resolve, every function must point at a handler that exists, and the routes and their auth
must be the contract's."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from cfnlint.api import lint_file
from cfnlint.decode import decode

from compile_engine import LAMBDA_MACHINE, LAMBDA_PYTHON

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"

PSEUDO_PARAMETERS = {
    "AWS::AccountId", "AWS::NotificationARNs", "AWS::NoValue", "AWS::Partition", "AWS::Region",
    "AWS::StackId", "AWS::StackName", "AWS::URLSuffix",
}

# The contract's routes: (method, path) → who may call it. Platform routes are signed with IAM;
# invitees and spectators reach the public ones without credentials.
CONTRACT_ROUTES: dict[tuple[str, str], str] = {
    ("PUT", "/v1/games/{game_id}"): "AWS_IAM",
    ("GET", "/v1/games/{game_id}/join-sheet"): "AWS_IAM",
    ("POST", "/v1/games/{game_id}/players"): "AWS_IAM",
    ("GET", "/v1/games/{game_id}/players/{player_id}/move-sheet"): "AWS_IAM",
    ("POST", "/v1/games/{game_id}/players/{player_id}/moves"): "AWS_IAM",
    ("GET", "/v1/games/{game_id}/players/{player_id}/recap"): "AWS_IAM",
    ("GET", "/v1/invites/{token}"): "NONE",
    ("POST", "/v1/invites/{token}"): "NONE",
    ("GET", "/v1/games/{game_id}/board"): "NONE",
    ("GET", "/v1/games/{game_id}/board.svg"): "NONE",
    ("GET", "/v1/games/{game_id}/moves"): "NONE",  # v1.1: replay, public like the board
    # v1.2: HEAD on the public pages answers as GET without the body
    ("HEAD", "/v1/invites/{token}"): "NONE",
    ("HEAD", "/v1/games/{game_id}/board"): "NONE",
    ("HEAD", "/v1/games/{game_id}/board.svg"): "NONE",
    ("HEAD", "/v1/games/{game_id}/moves"): "NONE",
    # v1.2: the play link (the secret link is the credential) and the platform's run control
    ("GET", "/v1/play/{token}"): "NONE",
    ("HEAD", "/v1/play/{token}"): "NONE",
    ("POST", "/v1/play/{token}"): "NONE",
    ("POST", "/v1/games/{game_id}/pause"): "AWS_IAM",
    ("POST", "/v1/games/{game_id}/resume"): "AWS_IAM",
    ("POST", "/v1/games/{game_id}/cancel"): "AWS_IAM",
}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    loaded, matches = decode(str(TEMPLATE))
    assert not matches, [str(m) for m in matches]
    assert loaded is not None
    return dict(loaded)


def test_template_lints_clean() -> None:
    # Given the SAM template / When cfn-lint checks it (SAM transform done offline)
    matches = lint_file(TEMPLATE)
    # Then nothing at all is reported, warnings included
    assert [str(m) for m in matches] == []


def _references(node: Any) -> list[str]:
    """Every name used by Ref, GetAtt and ${} in Sub, anywhere below ``node``."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "Ref" and isinstance(value, str):
                found.append(value)
            elif key == "Fn::GetAtt":
                target = value.split(".")[0] if isinstance(value, str) else value[0]
                found.append(target)
            elif key == "Fn::Sub":
                text, variables = (value, {}) if isinstance(value, str) else (value[0], value[1])
                for name in re.findall(r"\$\{([^}!]+)\}", text):
                    if name not in variables:
                        found.append(name.split(".")[0])
                found.extend(_references(variables))
            else:
                found.extend(_references(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(_references(item))
    return found


def test_every_reference_resolves(template: dict[str, Any]) -> None:
    # cfn-lint's SAM transform misses references inside Globals and policy templates, so
    # walk the raw template ourselves.
    known = set(template.get("Parameters", {})) | set(template.get("Resources", {})) | PSEUDO_PARAMETERS
    known |= set(template.get("Conditions", {}))
    # SAM's generated names that a template may reference.
    known |= {"ServerlessHttpApi", "ServerlessRestApi"}
    missing = sorted(set(_references(template)) - known)
    assert missing == []


def test_the_engine_layer_is_built_by_its_makefile_for_lambdas_runtime(template: dict[str, Any]) -> None:
    # Given the layer every function runs with
    globals_ = template["Globals"]["Function"]
    assert globals_["Layers"] == [{"Ref": "EngineLayer"}]
    layer = template["Resources"]["EngineLayer"]
    # Then sam build runs the build-EngineLayer target of the Makefile in its ContentUri
    assert layer["Metadata"]["BuildMethod"] == "makefile"
    makefile = (ROOT / layer["Properties"]["ContentUri"] / "Makefile").read_text()
    assert re.search(r"^build-EngineLayer:", makefile, re.MULTILINE)
    # For the functions' runtime and architecture, which the Makefile and compile_engine.py build for
    runtime, (architecture,) = globals_["Runtime"], globals_["Architectures"]
    assert layer["Properties"]["CompatibleRuntimes"] == [runtime]
    assert layer["Properties"]["CompatibleArchitectures"] == [architecture]
    assert layer["Metadata"]["BuildArchitecture"] == architecture
    (version,) = re.findall(r"^RUNTIME_VERSION = (\S+)$", makefile, re.MULTILINE)
    assert runtime == f"python{version}"
    (platforms,) = re.findall(r"^PLATFORMS = (.+)$", makefile, re.MULTILINE)
    assert all(p.endswith(f"_{architecture}") for p in platforms.split())
    assert (architecture, tuple(int(x) for x in version.split("."))) == (LAMBDA_MACHINE, LAMBDA_PYTHON)


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }


def test_every_function_points_at_a_real_handler(template: dict[str, Any]) -> None:
    globals_ = template.get("Globals", {}).get("Function", {})
    for name, props in _functions(template).items():
        code_uri = props.get("CodeUri", globals_.get("CodeUri"))
        handler = props.get("Handler", globals_.get("Handler"))
        module_name, _, attribute = handler.rpartition(".")
        path = ROOT / code_uri / (module_name.replace(".", "/") + ".py")
        assert path.is_file(), f"{name}: {path} does not exist"
        source = path.read_text()
        assert f"def {attribute}(" in source, f"{name}: {path} has no {attribute}()"


def _http_routes(template: dict[str, Any]) -> dict[tuple[str, str], tuple[str, dict[str, Any]]]:
    routes: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
    for name, props in _functions(template).items():
        for event in props.get("Events", {}).values():
            if event["Type"] == "HttpApi":
                key = (event["Properties"]["Method"].upper(), event["Properties"]["Path"])
                assert key not in routes, f"{key} is served twice"
                routes[key] = (name, event["Properties"])
    return routes


def _default_authorizer(template: dict[str, Any]) -> str | None:
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Serverless::HttpApi":
            auth = resource.get("Properties", {}).get("Auth", {})
            default: str | None = auth.get("DefaultAuthorizer")
            return default
    return None


def test_contract_routes_exist_with_the_contract_auth(template: dict[str, Any]) -> None:
    routes = _http_routes(template)
    default = _default_authorizer(template)
    for key, expected in CONTRACT_ROUTES.items():
        assert key in routes, f"{key} is missing from template.yaml"
        _function, props = routes[key]
        authorizer = props.get("Auth", {}).get("Authorizer", default)
        assert authorizer == expected, f"{key}: authorizer {authorizer}, contract says {expected}"


def test_platform_routes_added_beyond_the_contract_are_signed(template: dict[str, Any]) -> None:
    default = _default_authorizer(template)
    for (method, path), (_function, props) in _http_routes(template).items():
        public = path.startswith("/v1/invites/") or path.startswith("/v1/games/{game_id}/board")
        public |= path == "/v1/openapi.json" or CONTRACT_ROUTES.get((method, path)) == "NONE"
        authorizer = props.get("Auth", {}).get("Authorizer", default)
        if not public:
            assert authorizer == "AWS_IAM", f"{method} {path} is a platform route but not AWS_IAM"


def test_the_schedule_runs_the_expiry_function_every_five_minutes(template: dict[str, Any]) -> None:
    schedules = [
        event["Properties"]
        for props in _functions(template).values()
        for event in props.get("Events", {}).values()
        if event["Type"] in {"Schedule", "ScheduleV2"}
    ]
    assert [s.get("ScheduleExpression") for s in schedules] == ["rate(5 minutes)"]


def test_the_table_has_a_sparse_expiry_index_pitr_and_ttl(template: dict[str, Any]) -> None:
    tables = [r["Properties"] for r in template["Resources"].values() if r["Type"] == "AWS::DynamoDB::Table"]
    assert len(tables) == 1
    table = tables[0]
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert table["TimeToLiveSpecification"]["Enabled"] is True
    assert table.get("GlobalSecondaryIndexes"), "the sweeper needs a GSI on invitation expiry"


@pytest.mark.skipif(sys.version_info < (3, 11), reason="project runs on 3.11+")
def test_every_handler_module_imports(template: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the environment the template gives each function (names only; nothing is called)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    globals_ = template.get("Globals", {}).get("Function", {})
    for name, props in _functions(template).items():
        env = {**globals_.get("Environment", {}).get("Variables", {}),
               **props.get("Environment", {}).get("Variables", {})}
        for key, value in env.items():
            monkeypatch.setenv(key, value if isinstance(value, str) else f"{key.lower()}-local")
        module_name, _, attribute = props.get("Handler", globals_.get("Handler")).rpartition(".")
        path = ROOT / props.get("CodeUri", globals_.get("CodeUri")) / (module_name.replace(".", "/") + ".py")
        spec = importlib.util.spec_from_file_location(f"template_check_{name}", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert callable(getattr(module, attribute)), name


def test_the_outbox_is_delivered_from_the_tables_stream(template: dict[str, Any]) -> None:
    # Given the games table and the one stream-fed function
    (table_name,) = [n for n, r in template["Resources"].items() if r["Type"] == "AWS::DynamoDB::Table"]
    table = template["Resources"][table_name]["Properties"]
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_IMAGE"}
    fed = [(name, event["Properties"]) for name, props in _functions(template).items()
           for event in props.get("Events", {}).values() if event["Type"] == "DynamoDB"]
    assert len(fed) == 1
    name, source = fed[0]
    # Then it reads that table's stream from the start, one batch per shard at a time, in order
    assert source["Stream"] == {"Fn::GetAtt": [table_name, "StreamArn"]}
    assert source["StartingPosition"] == "TRIM_HORIZON" and source.get("ParallelizationFactor", 1) == 1
    # And reports partial batch failures, bisects crashes, retries until a record is half the stream's
    # retention old, then hands its position to a queue
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert source["BisectBatchOnFunctionError"] is True
    assert source["MaximumRetryAttempts"] == -1 and 0 < source["MaximumRecordAgeInSeconds"] <= 86400
    destination = source["DestinationConfig"]["OnFailure"]
    assert destination["Type"] == "SQS"
    queue = destination["Destination"]["Fn::GetAtt"][0]
    assert template["Resources"][queue]["Type"] == "AWS::SQS::Queue"
    # And only game writes that carry events reach it
    (pattern,) = [json.loads(f["Pattern"]) for f in source["FilterCriteria"]["Filters"]]
    assert pattern["dynamodb"]["NewImage"]["outbox"] == {"S": [{"exists": True}]}
    # And the function is Powertools batch processing of DynamoDB stream records
    props = _functions(template)[name]
    code = (ROOT / props["CodeUri"] / (props["Handler"].rpartition(".")[0] + ".py")).read_text()
    assert "BatchProcessor(event_type=EventType.DynamoDBStreams" in code
    assert "process_partial_response" in code


def test_only_the_stream_fed_function_publishes_events(template: dict[str, Any]) -> None:
    for name, props in _functions(template).items():
        statements = [s for policy in props.get("Policies", []) for s in policy["Statement"]]
        actions = [a for s in statements
                   for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])]
        fed = any(e["Type"] == "DynamoDB" for e in props.get("Events", {}).values())
        assert ("events:PutEvents" in actions) == fed, name
        if fed:
            assert not [a for a in actions if a.startswith("dynamodb:")], name  # reads the stream only
