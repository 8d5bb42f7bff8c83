"""The handlers' part of docs/design.md's data-flow rules (the layer's part is import-linter's
contracts in pyproject.toml, run by `make lint` and `make test`): a handler imports the layer, and
nothing imports a handler."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HANDLERS = sorted((ROOT / "functions").glob("*/*_handler.py"))
HANDLER_NAMES = {p.stem for p in HANDLERS}


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_there_are_handlers_to_check():
    assert len(HANDLERS) >= 6


def test_a_handler_imports_only_the_layer_and_libraries_never_another_handler():
    for handler in HANDLERS:
        local = {name for name in _imported(handler) if name.split(".")[0] in HANDLER_NAMES}
        assert local == set(), handler.name
        # Their own code lives in the layer: nothing from the repository but connect6.
        assert not {n for n in _imported(handler) if n.split(".")[0] in ("functions", "tools", "tests")}


def test_nothing_in_the_layer_or_the_handlers_imports_a_handler():
    sources = [*(ROOT / "layers" / "connect6" / "connect6").rglob("*.py"), *HANDLERS]
    for source in sources:
        hits = {n for n in _imported(source) if n.split(".")[0] in HANDLER_NAMES}
        assert hits == set(), source


def test_the_functions_off_the_http_api_load_no_resolver_and_no_routes():
    # Given the stream-fed publisher and the scheduled sweeper, each imported in a fresh interpreter
    for name in ("publish_events", "expire_invites"):
        code = ("import importlib, sys; sys.path.insert(0, sys.argv[1]); "
                "importlib.import_module(sys.argv[2]); "
                "print(' '.join(sorted(m for m in sys.modules if m.startswith(('connect6.api.resolver', "
                "'connect6.api.routes')))))")
        done = subprocess.run([sys.executable, "-c", code, str(ROOT / "functions" / name), f"{name}_handler"],
                              capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
        # Then neither the HTTP resolver nor a route came with them (observability is its own module)
        assert done.stdout.split() == [], (name, done.stdout)
