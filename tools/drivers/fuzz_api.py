"""schemathesis against the served OpenAPI document: every route, every declared body and content
type, positive and negative data, and prints how many requests were sent, how many answered 5xx
and how many broke the document (undocumented status, wrong content type, body not matching the
response schema, a 2xx for data the document says is invalid).

    .venv/bin/python -m tools.drivers.fuzz_api                  # starts `make run`'s server on a free port
    .venv/bin/python -m tools.drivers.fuzz_api --examples 100   # more per route and mode
    .venv/bin/python -m tools.drivers.fuzz_api --base-url http://127.0.0.1:3000

Each route is fuzzed twice per mode: with generated path parameters (mostly unknown games) and with
the ids of a seeded run (a human game with an invitation pending), so the handlers' deeper paths
run too. Generation is derandomized: the same code and document give the same requests.
`tests/e2e/test_schemathesis.py` runs it in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tools.local.client import call, server_at


@dataclass
class FuzzReport:
    requests: int = 0
    server_errors: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    per_route: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        lines = [f"requests: {self.requests}", f"5xx: {self.server_errors}",
                 f"document violations: {len(self.failures)}",
                 "statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(self.statuses.items())),
                 "per route: " + ", ".join(f"{k} {v}" for k, v in sorted(self.per_route.items()))]
        kinds = Counter(_signature(failure) for failure in self.failures)
        lines += [f"  {count} × {kind}" for kind, count in kinds.most_common()]
        examples: dict[str, str] = {}
        for failure in self.failures:
            examples.setdefault(failure.split(": Schemathesis")[0], failure)
        lines += ["first of each:"] + [f"  {text}" for text in examples.values()]
        return "\n".join(lines)


def seed(base_url: str, prefix: str = "fuzz") -> dict[str, str]:
    """Real ids for the fuzzer: a game in progress between two humans (its game id and the
    player id of the seat to move), and a pending invitation's token from a second run."""
    def send(method: str, path: str, body: dict[str, Any]) -> Any:
        reply = call(base_url, method, path, body)
        if not 200 <= reply.status < 300:
            raise SystemExit(f"seeding the fuzzer: {method} {path} -> {reply.describe()}")
        return reply.json

    game = {"game_name": "Fuzz", "allow_computer_opponents": True}
    invite = {"name": "Ana", "email": "ana@example.com",
              "opponent": {"kind": "invite", "name": "Ben", "email": "ben@example.com", "note": "hi"}}
    send("PUT", f"/v1/games/{prefix}-play", game)
    playing = send("POST", f"/v1/games/{prefix}-play/players", invite)
    token = playing["invite"]["url"].rsplit("/", 1)[1]
    redeemed = send("POST", f"/v1/invites/{token}", {"name": "Ben"})
    to_move = redeemed["game"]["to_move"]["colour"]
    seats = {s["colour"]: s["seat"] for s in redeemed["game"]["seats"]}
    player = playing["player_id"] if seats[to_move] == playing["seat"] else redeemed["player_id"]
    send("PUT", f"/v1/games/{prefix}-wait", game)
    waiting = send("POST", f"/v1/games/{prefix}-wait/players", invite)
    return {"game_id": f"{prefix}-play", "player_id": player,
            "token": waiting["invite"]["url"].rsplit("/", 1)[1]}


def served_document(base_url: str) -> dict[str, Any]:
    """The served document, less its security requirements: SigV4 is API Gateway's check, before
    any handler runs, and the local server does not make it (so an unsigned request is no
    "schema-violating request accepted")."""
    document: dict[str, Any] = call(base_url, "GET", "/v1/openapi.json").json
    for operations in document["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict):
                operation.pop("security", None)
    return document


def _signature(failure: str) -> str:
    """Route, mode, media type, status and the check codes: one line per kind of failure."""
    codes = set(re.findall(r"ST\d{3} [A-Za-z -]+?(?= Received| Invalid| Expected| \[| -|$)", failure))
    return failure.split(": Schemathesis")[0] + " " + " ".join(sorted(codes))


def fuzz(base_url: str, examples: int = 40, known: dict[str, str] | None = None,
         report: FuzzReport | None = None) -> FuzzReport:
    import requests
    import schemathesis
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        negative_data_rejection,
        response_headers_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance, response_headers_conformance, negative_data_rejection]
    report = report or FuzzReport()
    schema = schemathesis.openapi.from_dict(served_document(base_url))
    session = requests.Session()
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]
        label = f"{operation.method.upper()} {operation.path}"
        names = {p.name for p in operation.path_parameters}
        fixed_sets: list[dict[str, str] | None] = [None]
        if known and names and names <= set(known):
            fixed_sets.append({name: known[name] for name in names})
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            for fixed in fixed_sets:
                strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed)
                _run(strategy, examples, f"{label} [{mode.value}", base_url, session, checks, report)
    return report


def _run(strategy: Any, examples: int, label: str, base_url: str, session: Any, checks: list[Any],
         report: FuzzReport) -> None:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import Unsatisfiable

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case: Any) -> None:
        response = case.call(base_url=base_url, session=session, timeout=60)
        report.requests += 1
        report.per_route[label.split(" [")[0]] += 1
        report.statuses[response.status_code] += 1
        if response.status_code >= 500:
            report.server_errors += 1
        try:
            case.validate_response(response, checks=checks)
        except BaseException as failure:  # a check failed (a FailureGroup): record it, go on
            if isinstance(failure, (KeyboardInterrupt, SystemExit)):
                raise
            text = " ".join(str(failure).split())[:600]
            report.failures.append(f"{label}, {case.media_type or '-'}] {response.status_code}: {text}")

    with contextlib.suppress(Unsatisfiable):  # nothing to negate (no parameters, no body)
        run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="a running server; default: start the local server")
    parser.add_argument("--examples", type=int, default=40, help="examples per route, mode and id set")
    args = parser.parse_args(argv)
    with server_at(args.base_url, "--parameter", "ComputerBudgetSeconds=0.05") as server:
        started = time.monotonic()
        report = fuzz(server.base_url, args.examples, seed(server.base_url))
        print(report.summary())
        print(f"time: {time.monotonic() - started:.1f} s")
    return 0 if report.server_errors == 0 and not report.failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
