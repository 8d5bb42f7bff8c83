"""The handlers' part of docs/design.md's data-flow rules (the layer's part is import-linter's
contracts in pyproject.toml, run by `make lint` and `make test`): a handler imports the layer, and
nothing imports a handler."""

from __future__ import annotations

import ast
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
