"""What the service's code assumes about template.yaml, checked against it."""

from __future__ import annotations

import json

from connect6.api.config import Settings
from connect6.store.keys import CLOCK_PK_VALUE, HOLD_PK_VALUE
from tests.integration.harness import function_environment, resources_of, routes, table_properties, template


def test_the_holds_index_the_code_queries_is_the_tables_sparse_gsi() -> None:
    settings = Settings.from_env(function_environment())
    (index, clocks) = table_properties()["GlobalSecondaryIndexes"]  # v1.2 added the clock index
    assert index["IndexName"] == settings.holds_index_name
    assert [k["AttributeName"] for k in index["KeySchema"]] == ["hold_pk", "hold_expires"]
    types = {a["AttributeName"]: a["AttributeType"] for a in table_properties()["AttributeDefinitions"]}
    assert types["hold_expires"] == "N" and types["hold_pk"] == "S" and HOLD_PK_VALUE
    assert table_properties()["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}
    assert table_properties()["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert table_properties()["BillingMode"] == "PAY_PER_REQUEST"
    # The clock index (v1.2): sharded CLOCK#k keys, the due moment in epoch ms, keys only
    assert clocks["IndexName"] == settings.clocks_index_name
    assert [k["AttributeName"] for k in clocks["KeySchema"]] == ["clock_pk", "clock_due"]
    assert types["clock_due"] == "N" and types["clock_pk"] == "S" and CLOCK_PK_VALUE
    assert clocks["Projection"] == {"ProjectionType": "KEYS_ONLY"}


def test_the_settings_read_every_variable_the_template_sets() -> None:
    env = function_environment()
    for name in Settings.model_fields:
        if name != "board_size":
            assert name.upper() in env, name
    assert env["POWERTOOLS_TRACER_CAPTURE_RESPONSE"] == "false"


def test_the_move_function_has_a_full_vcpu_and_room_to_think() -> None:
    functions = resources_of("AWS::Serverless::Function")
    (move,) = [f for name, f in functions.items() if f["Properties"]["Handler"].startswith("move_handler")]
    assert move["Properties"]["MemorySize"] >= 1769
    assert 10 < move["Properties"]["Timeout"] <= 29
    assert template()["Globals"]["Function"]["Runtime"] == "python3.12"


def test_public_routes_are_throttled_and_unsigned() -> None:
    (api,) = resources_of("AWS::Serverless::HttpApi").values()
    throttled = api["Properties"]["RouteSettings"]
    for route in routes():
        if route.authorizer == "NONE":
            assert f"{route.method} {route.path}" in throttled, route


def test_policies_name_actions_and_resources_never_wildcards() -> None:
    for name, function in resources_of("AWS::Serverless::Function").items():
        for policy in function["Properties"]["Policies"]:
            for statement in policy["Statement"]:
                action = statement["Action"]
                actions = action if isinstance(action, list) else [action]
                assert all("*" not in a for a in actions), name
                assert "*" not in json.dumps(statement["Resource"]), name
