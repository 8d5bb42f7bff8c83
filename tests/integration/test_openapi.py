"""The API reference is generated from the code: every template route is described by its
handler's resolver (OpenAPI), with the response model the contract names and the error shape."""

from __future__ import annotations

import json

from tests.integration.harness import function_environment, handler_module, routes


def test_every_route_is_described_with_its_models(monkeypatch) -> None:
    for name, value in function_environment().items():
        monkeypatch.setenv(name, value)
    for route in routes():
        app = handler_module(route.function).app
        schema = json.loads(app.get_openapi_json_schema(title="connect6", version="1"))
        path = route.path
        operation = schema["paths"][path][route.method.lower()]
        responses = operation["responses"]
        if route.method == "HEAD":
            # v1.2: HEAD is its GET without the body: the same statuses, no content.
            get = schema["paths"][path]["get"]["responses"]
            assert set(responses) == set(get), route
            assert all("content" not in answer for answer in responses.values()), route
            assert operation.get("summary"), route
            continue
        success = next(code for code in responses if code.startswith("2"))
        if not path.endswith(".svg"):
            assert "$ref" in json.dumps(responses[success]["content"]), (route, responses[success])
        assert "ErrorBody" in json.dumps(responses["422"]), route
        assert operation.get("summary"), route
