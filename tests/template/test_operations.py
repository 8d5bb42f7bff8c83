"""What an operator and a security reviewer rely on in template.yaml (docs/operations.md): every
function has alarms, every alarm notifies someone, logs are kept for a set time, no secret is in an
environment and only the function that needs the secret may read it, DynamoDB access is narrowed to
the items each function works on, configuration is bounded, and every static-analysis suppression
says why."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from cfnlint.decode import decode

from connect6.api import idempotency
from connect6.store.keys import game_pk, invite_pk, play_pk

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
PUBLIC_FUNCTIONS = {"BoardFunction", "JoinFunction"}  # they serve the routes with Authorizer NONE
BUDGET_CAP_S = 3  # the largest ComputerBudgetSeconds the template accepts


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    loaded, matches = decode(str(TEMPLATE))
    assert not matches and loaded is not None
    return dict(loaded)


def _of_type(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: r["Properties"] for name, r in _of_type(template, "AWS::Serverless::Function").items()}


def _statements(props: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for policy in props.get("Policies", []) for s in policy["Statement"]]


def _actions(statement: dict[str, Any]) -> list[str]:
    action = statement["Action"]
    return [action] if isinstance(action, str) else list(action)


def _environment(template: dict[str, Any], props: dict[str, Any]) -> dict[str, Any]:
    globals_ = template.get("Globals", {}).get("Function", {})
    return {**globals_.get("Environment", {}).get("Variables", {}),
            **props.get("Environment", {}).get("Variables", {})}


# -- alarms


def test_every_function_has_an_errors_and_a_throttles_alarm(template: dict[str, Any]) -> None:
    # Given every alarm on a Lambda metric, by the function it watches
    watched: dict[str, set[str]] = {}
    for alarm in _of_type(template, "AWS::CloudWatch::Alarm").values():
        props = alarm["Properties"]
        if props.get("Namespace") == "AWS/Lambda":
            for dimension in props.get("Dimensions", []):
                if dimension["Name"] == "FunctionName":
                    watched.setdefault(dimension["Value"]["Ref"], set()).add(props["MetricName"])
    # Then each function has both
    for name in _functions(template):
        assert {"Errors", "Throttles"} <= watched.get(name, set()), f"{name} has no errors/throttles alarm"


def test_every_alarm_notifies_the_alarm_topic(template: dict[str, Any]) -> None:
    alarms = _of_type(template, "AWS::CloudWatch::Alarm")
    assert alarms
    topic = {"Fn::If": ["HasAlarmTopicArn", {"Ref": "AlarmTopicArn"}, {"Ref": "AlarmTopic"}]}
    for name, alarm in alarms.items():
        actions = alarm["Properties"].get("AlarmActions")
        assert actions, f"{name} has no AlarmActions"
        assert actions == [topic], f"{name} notifies {actions}, not the alarm topic"
    # And a deployment cannot leave the topic without a reader: an e-mail or an existing topic is required
    (rule,) = template["Rules"].values()
    assert "AlarmEmail" in str(rule) and "AlarmTopicArn" in str(rule)


def test_the_stream_the_queue_the_api_and_the_services_metrics_are_watched(template: dict[str, Any]) -> None:
    watched = {(a["Properties"]["Namespace"], a["Properties"]["MetricName"])
               for a in _of_type(template, "AWS::CloudWatch::Alarm").values()}
    assert {("AWS/ApiGateway", "5xx"), ("AWS/ApiGateway", "Latency"), ("AWS/Lambda", "IteratorAge"),
            ("AWS/SQS", "ApproximateNumberOfMessagesVisible")} <= watched
    namespace = template["Globals"]["Function"]["Environment"]["Variables"]["POWERTOOLS_METRICS_NAMESPACE"]
    assert {(namespace, m) for m in ("UnhandledErrors", "StoreUnavailable", "EventRecordsFailed")} <= watched


def test_the_service_metric_alarms_match_what_the_code_emits(template: dict[str, Any]) -> None:
    # Given the code's Powertools Metrics objects and metric names (read from the source, wherever
    # they live in the layer or the handlers), and the functions' environment
    sources = "\n".join(p.read_text() for folder in ("layers/connect6/connect6", "functions")
                        for p in sorted((ROOT / folder).rglob("*.py")))
    made = re.findall(r"Metrics\(namespace=\"([^\"]+)\", service=\"([^\"]+)\"\)", sources)
    assert made, "no Metrics(namespace=..., service=...) in the code"
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    # Then the alarms on the service's metrics read its namespace, its service dimension, its names
    for name, alarm in _of_type(template, "AWS::CloudWatch::Alarm").items():
        props = alarm["Properties"]
        if props["Namespace"].startswith("AWS/"):
            continue
        assert {(props["Namespace"], variables["POWERTOOLS_SERVICE_NAME"])} == set(made), name
        assert props["Namespace"] == variables["POWERTOOLS_METRICS_NAMESPACE"], name
        service = variables["POWERTOOLS_SERVICE_NAME"]
        assert props["Dimensions"] == [{"Name": "service", "Value": service}], name
        assert f'"{props["MetricName"]}"' in sources, f"{name}: the code never emits {props['MetricName']}"


# -- logs


def test_every_function_has_a_log_group_with_a_retention_period(template: dict[str, Any]) -> None:
    groups = _of_type(template, "AWS::Logs::LogGroup")
    names = {str(g["Properties"]["LogGroupName"].get("Fn::Sub")) for g in groups.values()}
    for name in _functions(template):
        assert f"/aws/lambda/${{{name}}}" in names, f"{name} has no log group of its own"
    for name, group in groups.items():
        assert group["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}, name


def test_the_api_writes_access_logs_without_paths(template: dict[str, Any]) -> None:
    (api,) = _of_type(template, "AWS::Serverless::HttpApi").values()
    settings = api["Properties"]["AccessLogSettings"]
    target = settings["DestinationArn"]["Fn::GetAtt"][0]
    assert template["Resources"][target]["Type"] == "AWS::Logs::LogGroup"
    # An invitation's path is its secret token: the format names the route, never the path
    assert "$context.routeKey" in settings["Format"] and "$context.path" not in settings["Format"]


# -- the secret


def test_no_secret_is_in_any_environment(template: dict[str, Any]) -> None:
    no_echo = {name for name, p in template.get("Parameters", {}).items() if p.get("NoEcho")}
    for name, props in _functions(template).items():
        for key, value in _environment(template, props).items():
            text = str(value)
            assert not any(f"'Ref': '{p}'" in text for p in no_echo), f"{name}: {key} is a NoEcho parameter"
            assert "resolve:secretsmanager" not in text and "resolve:ssm-secure" not in text, f"{name}: {key}"
            if "SECRET" in key:
                # Names it only: Ref of a Secrets Manager secret is its ARN
                assert key.endswith("_ARN") and template["Resources"][value["Ref"]]["Type"] == \
                    "AWS::SecretsManager::Secret", f"{name}: {key}"


def test_only_the_join_function_may_read_the_invitation_secret(template: dict[str, Any]) -> None:
    (secret,) = _of_type(template, "AWS::SecretsManager::Secret")
    assert "GenerateSecretString" in template["Resources"][secret]["Properties"]
    readers = set()
    for name, props in _functions(template).items():
        for statement in _statements(props):
            if any(a.startswith("secretsmanager:") for a in _actions(statement)):
                assert _actions(statement) == ["secretsmanager:GetSecretValue"], name
                assert statement["Resource"] == {"Ref": secret}, name
                readers.add(name)
    assert readers == {"JoinFunction"}


# -- least privilege


def test_dynamodb_item_actions_are_narrowed_to_the_code_key_prefixes(template: dict[str, Any]) -> None:
    # Given the key shapes of connect6/store/keys.py and the idempotency records' partition
    prefixes = {"GAME#*": game_pk("g"), "INVITE#*": invite_pk("h"), "PLAY#*": play_pk("h")}
    item_actions = {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}
    for name, props in _functions(template).items():
        for statement in _statements(props):
            actions = set(_actions(statement))
            if not actions & item_actions:
                continue
            # Then every item action names the table and a LeadingKeys condition the real keys meet
            assert actions <= item_actions, name
            assert statement["Resource"] == {"Fn::GetAtt": ["GamesTable", "Arn"]}, name
            ((operator, keys),) = statement["Condition"].items()
            (patterns,) = keys.values()
            assert list(keys) == ["dynamodb:LeadingKeys"] and operator.startswith("ForAllValues:"), name
            for pattern in patterns:
                if pattern in prefixes:
                    assert re.fullmatch(pattern.replace("*", ".*"), prefixes[pattern]), pattern
                else:
                    assert pattern == idempotency.STATIC_PK, (name, pattern)
            # And deletes and updates never reach games (games are saved whole by a conditional put)
            if actions & {"dynamodb:DeleteItem", "dynamodb:UpdateItem"}:
                assert "GAME#*" not in patterns, name


def test_read_only_functions_only_read(template: dict[str, Any]) -> None:
    for name in ("BoardFunction", "RecapFunction"):
        actions = {a for s in _statements(_functions(template)[name]) for a in _actions(s)}
        assert actions == {"dynamodb:GetItem"}, name


def test_the_publishers_stream_actions_are_capped_to_the_tables_stream(template: dict[str, Any]) -> None:
    (name,) = [n for n, p in _functions(template).items()
               if any(e["Type"] == "DynamoDB" for e in p.get("Events", {}).values())]
    boundary = template["Resources"][_functions(template)[name]["PermissionsBoundary"]["Ref"]]
    assert boundary["Type"] == "AWS::IAM::ManagedPolicy"
    for statement in boundary["Properties"]["PolicyDocument"]["Statement"]:
        if any(a.startswith("dynamodb:") for a in _actions(statement)):
            assert statement["Resource"] in ({"Fn::GetAtt": ["GamesTable", "StreamArn"]},
                                             {"Fn::Sub": "${GamesTable.Arn}/stream/*"})
        else:
            assert statement["Resource"] != "*" or all(a.startswith("xray:") for a in _actions(statement))


def test_public_functions_have_reserved_concurrency_from_a_parameter(template: dict[str, Any]) -> None:
    for name in PUBLIC_FUNCTIONS:
        reserved = _functions(template)[name]["ReservedConcurrentExecutions"]
        parameter = template["Parameters"][reserved["Ref"]]
        assert parameter["Type"] == "Number"
        assert 0 < parameter["MinValue"] <= parameter["Default"] <= parameter["MaxValue"], name


# -- bounded configuration


def _allowed(template: dict[str, Any], parameter: str, value: str) -> bool:
    # CloudFormation's AllowedPattern must match the whole value
    return re.fullmatch(template["Parameters"][parameter]["AllowedPattern"], value) is not None


@pytest.mark.parametrize("value", ["", "0.05", "0.3", "1", "1.5", "2.999", "3", "3.0"])
def test_the_computer_budget_accepts_up_to_three_seconds(template: dict[str, Any], value: str) -> None:
    assert _allowed(template, "ComputerBudgetSeconds", value)


@pytest.mark.parametrize("value", ["0", "0.04", "3.01", "4", "10", "29", "-1", "1e3", " 1", "1,5", "inf"])
def test_the_computer_budget_refuses_anything_else(template: dict[str, Any], value: str) -> None:
    assert not _allowed(template, "ComputerBudgetSeconds", value)


def test_the_budget_cap_leaves_room_in_the_shortest_function_that_searches(template: dict[str, Any]) -> None:
    # The join function plays the computer's opening, the move function its replies: one search at the
    # cap is at most a third of the shorter timeout (the code caps retries by the remaining time).
    default = template["Globals"]["Function"]["Timeout"]
    timeouts = [_functions(template)[n].get("Timeout", default) for n in ("JoinFunction", "MoveFunction")]
    assert _allowed(template, "ComputerBudgetSeconds", str(BUDGET_CAP_S))
    assert min(timeouts) / 3 >= BUDGET_CAP_S


@pytest.mark.parametrize("value", ["", "https://games.example.com", "https://games.example.com/connect6",
                                   "https://games.example.com:8443"])
def test_the_public_base_url_accepts_https_urls(template: dict[str, Any], value: str) -> None:
    assert _allowed(template, "PublicBaseUrl", value)


@pytest.mark.parametrize("value", ["http://games.example.com", "javascript:alert(1)//://evil.example",
                                   "//evil.example", "https://evil.example/x?y=1", "https://a b", "ftp://x"])
def test_the_public_base_url_refuses_other_schemes(template: dict[str, Any], value: str) -> None:
    assert not _allowed(template, "PublicBaseUrl", value)


def test_links_default_to_the_apis_own_https_url(template: dict[str, Any]) -> None:
    (api,) = _of_type(template, "AWS::Serverless::HttpApi").values()
    condition, custom, own = api["Properties"]["StageVariables"]["public_base_url"]["Fn::If"]
    assert template["Conditions"][condition] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "PublicBaseUrl"}, ""]}]}
    assert custom == {"Ref": "PublicBaseUrl"}
    assert own == {"Fn::Sub": "https://${GameApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"}


# -- static analysis


def test_every_checkov_suppression_says_why(template: dict[str, Any]) -> None:
    for name, resource in template["Resources"].items():
        for skip in resource.get("Metadata", {}).get("checkov", {}).get("skip", []):
            assert re.fullmatch(r"CKV2?_AWS_\d+", skip["id"]), name
            assert len(str(skip.get("comment", "")).split()) >= 8, f"{name}: {skip['id']} has no reason"
