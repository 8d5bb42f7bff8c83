"""The handlers' import pays for the X-Ray SDK only where traces can go: outside Lambda the tracer's
decorators return the function itself and ``aws_xray_sdk`` is never imported; in Lambda (tracing
not disabled) Powertools' Tracer wraps the handler and the routes as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from connect6.api.observability import LazyTracer

ROOT = Path(__file__).resolve().parents[3]
PROBE = """
import json, sys
import move_handler
from connect6.api.observability import tracer
print(json.dumps({"xray": sorted(m for m in sys.modules if m.startswith("aws_xray_sdk"))[:1],
                  "wrapped": tracer._tracer is not None}))
"""


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """Subprocesses only; no sockets."""


def probe(**env: str) -> dict[str, object]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("AWS_", "POWERTOOLS_", "LAMBDA_", "_X_AMZN"))}
    base.update(AWS_DEFAULT_REGION="us-east-1", PYTHONPATH=str(ROOT / "functions" / "move"),
                AWS_XRAY_CONTEXT_MISSING="IGNORE_ERROR", **env)
    out = subprocess.run([sys.executable, "-c", PROBE], env=base, cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_outside_lambda_the_x_ray_sdk_is_never_imported() -> None:
    assert probe() == {"xray": [], "wrapped": False}


def test_in_lambda_the_tracer_wraps_the_handler_with_the_x_ray_sdk() -> None:
    found = probe(LAMBDA_TASK_ROOT=str(ROOT / "functions" / "move"))
    assert found == {"xray": ["aws_xray_sdk"], "wrapped": True}


def test_tracing_disabled_in_lambda_imports_nothing_either() -> None:
    assert probe(LAMBDA_TASK_ROOT="/var/task", POWERTOOLS_TRACE_DISABLED="true")["xray"] == []


def test_the_decorators_take_options_and_return_the_function_when_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAMBDA_TASK_ROOT", raising=False)
    tracer = LazyTracer("test")

    def handler(event: object, context: object) -> str:
        return "ok"

    assert tracer.capture_lambda_handler(handler) is handler
    assert tracer.capture_method(capture_response=False)(handler) is handler
    assert tracer.tracer is None
