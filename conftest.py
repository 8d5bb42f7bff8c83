"""Every example in the layer's docstrings runs as a test (pytest's doctest collector, limited to
the layer: tests/ and tools/ hold helper modules that are not meant to be imported on their own)."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

LAYER = Path(__file__).resolve().parent / "layers" / "connect6" / "connect6"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> DoctestModule | None:
    # __main__.py runs the command line when imported; pytest's own collector skips it too.
    if file_path.suffix == ".py" and file_path.name != "__main__.py" and LAYER in file_path.resolve().parents:
        if _compiled(file_path):
            return None  # the engine's compiled modules (tools/compile_engine.py) are imported instead
        return DoctestModule.from_parent(parent, path=file_path)
    return None


def _compiled(source: Path) -> bool:
    return any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def pytest_configure(config: pytest.Config) -> None:
    # Python imports a compiled engine module (mypyc's, or the Cython kernel's) even when its source
    # (.py, .pyx) has changed since the build: testing that stale build would test old code.
    from tools.compile_engine import stale_modules

    stale = stale_modules()
    if stale:
        pytest.exit(f"the compiled engine is older than {', '.join(stale)}: run "
                    "`make compile` (or `python -m tools.compile_engine --clean` for the pure engine)",
                    returncode=4)
