"""schemathesis against the served OpenAPI document (GET /v1/openapi.json on the local server,
merged from every function's resolver): every route, every declared body and content type,
positive and negative data, at least 2,000 requests, derandomized. Zero 5xx, and zero responses
that break the document (undocumented status, undeclared content type, a body that does not match
its schema, a 2xx for data the document calls invalid). `tools/drivers/fuzz_api.py` prints the figures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tools.local.client import LocalServer, start_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

EXAMPLES = 55  # per route, generation mode and id set: about 2,200 requests


@pytest.fixture(scope="module")
def fuzz_server() -> Iterator[LocalServer]:
    """Its own server: the fuzzer creates runs, joins and moves, which no other test should see."""
    server = start_server("--parameter", "ComputerBudgetSeconds=0.05", "--sweep-seconds", "3600")
    yield server
    server.stop()


@pytest.mark.timeout(900)
def test_the_served_document_holds_under_schemathesis(fuzz_server: LocalServer) -> None:
    from tools.drivers import fuzz_api

    report = fuzz_api.fuzz(fuzz_server.base_url, EXAMPLES, fuzz_api.seed(fuzz_server.base_url))
    print(report.summary())
    assert report.requests >= 2000, report.summary()
    assert len(report.per_route) >= 14, report.summary()  # every route of template.yaml was fuzzed
    assert report.server_errors == 0, report.summary()
    assert report.failures == [], report.summary()
