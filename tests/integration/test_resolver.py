"""Two handlers resolving at once in one process (the local server, the race tests) each see their
own request: Powertools alone would let the second request's event replace the first's."""

from __future__ import annotations

import threading
from typing import Any

from aws_lambda_powertools.event_handler import Response

from connect6.api.resolver import make_app
from tests.integration.harness import FakeContext, Route, http_event


def _event(path: str) -> dict[str, Any]:
    route = Route("GET", "/t/{name}", "F", "NONE")  # only the event is built: no function behind it
    return http_event("GET", path, route, {"name": path.rsplit("/", 1)[-1]})


def test_each_thread_sees_its_own_event() -> None:
    first_app, second_app = make_app(), make_app()
    inside = threading.Barrier(2)
    seen: dict[str, str] = {}

    def route_for(app: Any, label: str) -> None:
        @app.get("/t/<name>")
        def read(name: str) -> Response[Any]:
            before = app.current_event.path
            inside.wait(timeout=5)  # both requests are now being resolved at once
            inside.wait(timeout=5)
            seen[label] = f"{before}|{app.current_event.path}"
            return Response(status_code=200, content_type="text/plain", body=name)

    route_for(first_app, "first")
    route_for(second_app, "second")
    threads = [threading.Thread(target=first_app.resolve, args=(_event("/t/one"), FakeContext())),
               threading.Thread(target=second_app.resolve, args=(_event("/t/two"), FakeContext()))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert seen == {"first": "/t/one|/t/one", "second": "/t/two|/t/two"}


def test_one_resolver_serving_two_requests_at_once_keeps_each_ones_route_arguments() -> None:
    # Given one app (one function) taking two requests at once, as the local server does
    app = make_app()
    inside = threading.Barrier(2)
    seen: dict[str, str] = {}

    @app.get("/t/<name>")
    def read(name: str) -> Response[Any]:
        inside.wait(timeout=5)  # both requests have been routed and are inside the handler
        inside.wait(timeout=5)
        seen[name] = str(app.context.get("_route_args"))
        return Response(status_code=200, content_type="text/plain", body=name)

    answers: dict[str, Any] = {}

    def resolve(path: str) -> None:
        answers[path] = app.resolve(_event(path), FakeContext())

    threads = [threading.Thread(target=resolve, args=(path,)) for path in ("/t/one", "/t/two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    # Then each request's routing context (its path parameters) is its own, and so is its answer
    assert seen == {"one": "{'name': 'one'}", "two": "{'name': 'two'}"}
    assert {path: answer["body"] for path, answer in answers.items()} == {"/t/one": "one", "/t/two": "two"}
