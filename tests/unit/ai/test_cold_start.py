"""A Lambda engine without its C search kernel says so at cold start.

The layer's build fails when the kernel does not build (layers/connect6/Makefile), unless it is told
to ship the pure engine (``COMPILE=0``); either way an engine that runs without the kernel in Lambda
(``AWS_LAMBDA_FUNCTION_NAME`` set) logs one warning line when ``connect6.ai`` is imported, because
the pure searches reach about two plies less in the same time. Outside Lambda (tests, the local
server, a machine without a C compiler) the fallback stays quiet.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(importlib.import_module("connect6").__file__ or "").parent
WARNING = "the C search kernel (connect6.ai._csearch) is not in this layer"
IMPORT = "import connect6.ai, connect6.ai.vcdt as v; print(v._csearch is None)"


def _import(layer: Path, cwd: Path, lambda_name: str | None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(layer)}
    if lambda_name is not None:
        env["AWS_LAMBDA_FUNCTION_NAME"] = lambda_name
    run = subprocess.run([sys.executable, "-s", "-B", "-c", IMPORT], capture_output=True, text=True, cwd=cwd,
                         env=env, check=False)
    assert run.returncode == 0, run.stderr
    return run


def test_without_the_kernel_a_lambda_cold_start_logs_a_warning(tmp_path: Path) -> None:
    # Given the package without the C search kernel's module (as a COMPILE=0 layer ships it)
    layer = tmp_path / "layer"
    shutil.copytree(PACKAGE, layer / "connect6",
                    ignore=shutil.ignore_patterns("_csearch.*.so", "__pycache__"))
    # When Lambda imports the engine
    run = _import(layer, tmp_path, "MoveFunction")
    # Then the engine runs pure and says so once, as a warning
    assert run.stdout.strip() == "True"
    assert run.stderr.count(WARNING) == 1, run.stderr
    # and outside Lambda the same import is silent
    quiet = _import(layer, tmp_path, None)
    assert quiet.stdout.strip() == "True" and WARNING not in quiet.stderr


def test_with_the_kernel_a_lambda_cold_start_is_silent(tmp_path: Path) -> None:
    if not list((PACKAGE / "ai").glob(f"_csearch{importlib.machinery.EXTENSION_SUFFIXES[0]}")):
        if os.environ.get("CONNECT6_EXPECT_COMPILED") == "1":
            pytest.fail("make test expected the C search kernel: did `make compile` fail?")
        pytest.skip("the C search kernel is not built here (run `make compile`)")
    # Given the package with its kernel, imported by Lambda
    run = _import(PACKAGE.parent, tmp_path, "MoveFunction")
    # Then it runs the kernel and logs nothing about it
    assert run.stdout.strip() == "False"
    assert WARNING not in run.stderr
